"""bench/arrayexpr/peers.py: issue 20's expressions in JAX (jit), PyTorch, CuPy (GPU) and NumPy
(one core), float32, same sizes as exprs.q. Prints "PEER case: T ms" (fastest of 3 rounds
of REPS repetitions, device work finished) and a read pass over 2 arrays for the bandwidth."""
import sys, time
import numpy as np

n = int(sys.argv[1]) if len(sys.argv) > 1 else 2048
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 20
rng = np.random.default_rng(1)
X = rng.random((n, n), dtype=np.float32)
H = rng.random((n, n), dtype=np.float32)
C3 = rng.random((n, n, 3), dtype=np.float32)

def best(fn, sync, reps):
    fn(); sync()
    t = []
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(reps):
            r = fn()
        sync()
        t.append((time.perf_counter() - t0) * 1e3 / reps)
    return min(t)

def tv_parts(xp, roll_free_shift):
    def grad(x):
        xp_ = roll_free_shift
        dx = xp_(x, 0, 1) - x; dy = xp_(x, 1, 1) - x
        dxm = x - xp_(x, 0, -1); dym = x - xp_(x, 1, -1)
        return dx / xp.sqrt(dx*dx + dy*dy + 1e-2) - dxm / xp.sqrt(dxm*dxm + dym*dym + 1e-2) + \
               dy / xp.sqrt(dx*dx + dy*dy + 1e-2) - dym / xp.sqrt(dxm*dxm + dym*dym + 1e-2)
    return grad

def shift_clamped(xp):
    def f(x, axis, d):   # x[p + d e_axis] with the edge clamped, as 'clamped
        if axis == 1:
            return xp.concatenate([x[:, 1:], x[:, -1:]], 1) if d == 1 else xp.concatenate([x[:, :1], x[:, :-1]], 1)
        return xp.concatenate([x[1:], x[-1:]], 0) if d == 1 else xp.concatenate([x[:1], x[:-1]], 0)
    return f

def run(name, xp, to, sync, jit=lambda f: f):
    x, h, c3 = to(X), to(H), to(C3)
    cases = {
        "map": jit(lambda x, h: x * h + 0.5 * xp.cos(x)),
        "maxsqrt": jit(lambda x, h: xp.maximum(xp.sqrt(x**2 + h**2), 1e-10)),
        "sumsq": jit(lambda x, h: xp.sum(x * x)),
        "sumcol": jit(lambda x, h: xp.sum(x * h, axis=0)),
        "sumrow": jit(lambda x, h: xp.sum(x, axis=1)),
    }
    for k, f in cases.items():
        print(f"{name} {k}: {best(lambda: f(x, h), sync, reps):.4f} ms", flush=True)
    sl = jit(lambda c3: c3[:, :, 1] * 2 + c3[:, :, 0])
    print(f"{name} slice: {best(lambda: sl(c3), sync, reps):.4f} ms", flush=True)
    grad = tv_parts(xp, shift_clamped(xp))
    step = jit(lambda u, f: u - 0.05 * ((u - f) - 0.2 * grad(u)))
    i = np.arange(n)[:, None]; j = np.arange(n)[None, :]
    clean = to((np.floor(4 * (i + j) / (2 * n)) / 4 + 0.25 * ((i // 64 + j // 64) % 2)).astype(np.float32))
    noisy = clean + 0.1 * (to(rng.random((n, n), dtype=np.float32)) - 0.5)
    def tv():
        u = noisy
        for _ in range(100):
            u = step(u, noisy)
        return u
    t = best(tv, sync, 1)
    u = tv()
    mse = float(xp.mean((u - clean) ** 2))
    print(f"{name} tv100: {t:.4f} ms (psnr {10*np.log10(1/mse):.2f} dB)", flush=True)
    if name == "cupy": copy256(xp, sync)

def copy256(cp, sync):   # the device's bandwidth: a copy of 256 MiB (read + write), by CuPy
    big = cp.zeros(64 << 20, dtype=cp.float32); dst = cp.empty_like(big)
    t = best(lambda: cp.copyto(dst, big), sync, reps)
    print(f"cupy copy256: {t:.4f} ms ({2 * big.nbytes / t / 1e9:.0f} GB/s)", flush=True)

which = sys.argv[3].split(",") if len(sys.argv) > 3 else ["jax", "torch", "cupy", "numpy"]
if "jax" in which:
    try:
        import jax, jax.numpy as jnp
        run("jax", jnp, jnp.asarray, lambda: (jax.effects_barrier(), jnp.zeros(1).block_until_ready()), jax.jit)
    except Exception as e: print("jax: unavailable:", e)
if "torch" in which:
    try:
        import torch
        class T:   # the numpy names the cases use
            cos, sqrt, maximum, floor, mean = torch.cos, torch.sqrt, torch.maximum, torch.floor, torch.mean
            @staticmethod
            def sum(x, axis=None): return torch.sum(x) if axis is None else torch.sum(x, dim=axis)
            @staticmethod
            def concatenate(l, a): return torch.cat(l, a)
        dev = torch.device("cuda")
        T.maximum = lambda a, b: torch.clamp(a, min=b)
        run("torch", T, lambda a: torch.from_numpy(a).to(dev), torch.cuda.synchronize)
    except Exception as e: print("torch: unavailable:", e)
if "cupy" in which:
    try:
        import cupy as cp
        run("cupy", cp, cp.asarray, cp.cuda.Device().synchronize)
    except Exception as e: print("cupy: unavailable:", e)
if "copy" in which and "cupy" not in which:
    try:
        import cupy as cp
        copy256(cp, cp.cuda.Device().synchronize)
    except Exception as e: print("cupy: unavailable:", e)
if "numpy" in which:
    run("numpy", np, lambda a: a, lambda: None)
