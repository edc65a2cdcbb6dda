# bench/lib/linalg_peers.py N DTYPE: cupy.linalg.cholesky and cupy.linalg.solve (b a vector)
# of an N x N symmetric positive definite matrix (bench/lib/linalg.q's) in float32 or
# float64, when this python3 has CuPy. Lines "cupy WHAT NxN DTYPE: T ms": the fastest of 3
# rounds, each the mean over 10 back-to-back calls ended by a synchronization.
import sys

from peer_timing import timed

n, dtype = int(sys.argv[1]), sys.argv[2]


try:
    import cupy as cp
    i = cp.arange(n)
    d = cp.abs(i[:, None] - i[None, :]).astype(dtype)
    a = 1.0 / (1.0 + d) + n * cp.eye(n, dtype=dtype)
    a = a.astype(dtype)
    b = cp.sin(cp.arange(n, dtype=dtype) * 0.1)
    sync = cp.cuda.runtime.deviceSynchronize
    print("cupy chol %dx%d %s: %.4f ms" % (n, n, dtype, timed(lambda: cp.linalg.cholesky(a), sync)))
    print("cupy solve %dx%d %s: %.4f ms" % (n, n, dtype, timed(lambda: cp.linalg.solve(a, b), sync)))
except Exception as e:  # not installed, or no GPU
    print("cupy: not available (%s: %s)" % (type(e).__name__, e))
