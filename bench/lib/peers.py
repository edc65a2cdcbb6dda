# bench/lib/peers.py FFT_N GEMM_N: fft2 of an FFT_N^2 complex64 array and a GEMM_N^2 float32
# matrix product on the GPU through CuPy and PyTorch, when this python3 has them (each
# prints "not installed" otherwise). Lines "LABEL: T ms": the fastest of 3 rounds, each the
# mean over back-to-back calls ended by a synchronization (bench/lib/run.sh compares them).
import sys

from peer_timing import timed

fft_n, gemm_n = int(sys.argv[1]), int(sys.argv[2])


try:
    import cupy as cp
    x = (cp.random.rand(fft_n, fft_n) + 1j * cp.random.rand(fft_n, fft_n)).astype(cp.complex64)
    sync = cp.cuda.runtime.deviceSynchronize
    print("cupy fft2 %dx%d complex: %.4f ms" % (fft_n, fft_n, timed(lambda: cp.fft.fft2(x), sync, 20)))
    a = cp.random.rand(gemm_n, gemm_n, dtype=cp.float32)
    b = cp.random.rand(gemm_n, gemm_n, dtype=cp.float32)
    print("cupy sgemm %dx%d: %.4f ms" % (gemm_n, gemm_n, timed(lambda: a @ b, sync, 5)))
except Exception as e:  # not installed, or no GPU
    print("cupy: not available (%s)" % type(e).__name__)

try:
    import torch
    if not torch.cuda.is_available():
        raise RuntimeError("no GPU")
    torch.backends.cuda.matmul.allow_tf32 = False   # IEEE float, as oq and cuBLAS's default
    x = torch.complex(torch.rand(fft_n, fft_n, device="cuda"), torch.rand(fft_n, fft_n, device="cuda"))
    sync = torch.cuda.synchronize
    print("torch fft2 %dx%d complex: %.4f ms" % (fft_n, fft_n, timed(lambda: torch.fft.fft2(x), sync, 20)))
    a = torch.rand(gemm_n, gemm_n, device="cuda")
    b = torch.rand(gemm_n, gemm_n, device="cuda")
    print("torch sgemm %dx%d: %.4f ms" % (gemm_n, gemm_n, timed(lambda: a @ b, sync, 5)))
except Exception as e:
    print("torch: not available (%s)" % type(e).__name__)
