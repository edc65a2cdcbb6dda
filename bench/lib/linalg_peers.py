# bench/lib/linalg_peers.py N DTYPE: cupy.linalg's cholesky, solve (b a vector), det, pinv,
# lstsq (a 2N x N matrix) and eig (a matrix that is not symmetric, where this CuPy has it)
# of bench/lib/linalg.q's matrices in float32 or float64, when this python3 has CuPy. Lines
# "cupy WHAT NxN DTYPE: T ms": the fastest of 3 rounds, each the mean over 10 (pinv, eig: 3)
# back-to-back calls ended by a synchronization.
import sys

from peer_timing import timed

n, dtype = int(sys.argv[1]), sys.argv[2]


def report(what, fn, sync, iters=10):
    try:
        print("cupy %s %dx%d %s: %.4f ms" % (what, n, n, dtype, timed(fn, sync, iters)))
    except Exception as e:  # a function this CuPy lacks
        print("cupy %s: not available (%s: %s)" % (what, type(e).__name__, e))


try:
    import cupy as cp
    i = cp.arange(n)
    d = cp.abs(i[:, None] - i[None, :]).astype(dtype)
    a = 1.0 / (1.0 + d) + n * cp.eye(n, dtype=dtype)
    a = a.astype(dtype)
    b = cp.sin(cp.arange(n, dtype=dtype) * 0.1)
    r = cp.arange(2 * n, dtype=dtype)[:, None]
    c = cp.arange(n, dtype=dtype)[None, :]
    t = (cp.sin(r * 0.37 + c * 0.23) + cp.cos(r * c * 0.011)).astype(dtype)
    g = t[:n, :]
    b2 = cp.cos(cp.arange(2 * n, dtype=dtype) * 0.1)
    sync = cp.cuda.runtime.deviceSynchronize
    report("chol", lambda: cp.linalg.cholesky(a), sync)
    report("solve", lambda: cp.linalg.solve(a, b), sync)
    report("det", lambda: cp.linalg.det(a), sync)
    report("pinv", lambda: cp.linalg.pinv(a), sync, 3)
    report("lstsq", lambda: cp.linalg.lstsq(t, b2, rcond=None), sync)
    report("eig", lambda: cp.linalg.eig(g), sync, 3)
except Exception as e:  # not installed, or no GPU
    print("cupy: not available (%s: %s)" % (type(e).__name__, e))
