# bench/imfilter_peers.py: peers of bench/imfilter.sh on the GPU (run by it when python3 has CuPy):
# the device-to-device copy (cuMemcpyDtoD), CuPy's and PyTorch's copies and cupyx.scipy.ndimage's
# correlate (5x5), gaussian_filter (sigma 1, 7 taps) and two correlate1d, on 2048x2048x3
# float32, mode "nearest" (the clamped rule); the fastest of 50 timed calls (CUDA events).
import sys, cupy as cp, numpy as np
from cupyx.scipy import ndimage as ndi
h, w, c = 2048, 2048, 3
x = cp.asarray((np.arange(h*w*c, dtype=np.float32).reshape(h, w, c) * 7) % 251)
y = cp.empty_like(x)
nbytes = x.nbytes
def timeit(f, reps=50):
    f(); cp.cuda.Device().synchronize()
    ts = []
    for _ in range(reps):
        s, e = cp.cuda.Event(), cp.cuda.Event()
        s.record(); f(); e.record(); e.synchronize()
        ts.append(cp.cuda.get_elapsed_time(s, e))
    return min(ts), float(np.median(ts))
rows = []
rows.append(("cuMemcpyDtoD (CuPy data.copy_from_device)", timeit(lambda: y.data.copy_from_device(x.data, nbytes))))
rows.append(("CuPy copyto (elementwise kernel)", timeit(lambda: cp.copyto(y, x))))
w5 = cp.ones((5, 5, 1), dtype=cp.float32) / 25
rows.append(("cupyx correlate 5x5 nearest", timeit(lambda: ndi.correlate(x, w5, output=y, mode='nearest'))))
rows.append(("cupyx gaussian_filter s1 (7 taps) nearest", timeit(lambda: ndi.gaussian_filter(x, sigma=(1, 1, 0), output=y, mode='nearest', truncate=3.0))))
g = cp.asarray(np.exp(-np.arange(-3, 4)**2 / 2.0).astype(np.float32)); g /= g.sum()
tmp = cp.empty_like(x)
def sep():
    ndi.correlate1d(x, g, axis=0, output=tmp, mode='nearest'); ndi.correlate1d(tmp, g, axis=1, output=y, mode='nearest')
rows.append(("cupyx correlate1d x2 (7 taps) nearest", timeit(sep)))
try:
    import torch
    tx = torch.as_tensor(x, device='cuda'); ty = torch.empty_like(tx)
    st, en = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    ts = []
    for _ in range(50):
        st.record(); ty.copy_(tx); en.record(); en.synchronize(); ts.append(st.elapsed_time(en))
    rows.append(("torch copy_", (min(ts), float(np.median(ts)))))
except Exception as ex:
    print("torch:", ex)
print(cp.cuda.runtime.getDeviceProperties(0)['name'].decode())
for n, (mn, md) in rows:
    print("%-44s min %.4f ms  median %.4f ms  %7.1f GB/s (min, 2 x %.1f MB)" % (n, mn, md, 2 * nbytes / (mn * 1e6), nbytes / 1e6))
