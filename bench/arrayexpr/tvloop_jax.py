"""bench/arrayexpr/tvloop_jax.py N ITERS: the TV step of peers.py (jit), ITERS times from the noisy
image, 3 rounds; prints ms per iteration (tvloop.q is the same loop in oq)."""
import sys, time, numpy as np, jax, jax.numpy as jnp
n = int(sys.argv[1]); iters = int(sys.argv[2])
def shift(x, d0, d1):   # as peers.py's shift_clamped
    if d1: return jnp.concatenate([x[:, 1:], x[:, -1:]], 1) if d1 == 1 else jnp.concatenate([x[:, :1], x[:, :-1]], 1)
    return jnp.concatenate([x[1:], x[-1:]], 0) if d0 == 1 else jnp.concatenate([x[:1], x[:-1]], 0)
def grad(x):
    dx = shift(x, 0, 1) - x; dy = shift(x, 1, 0) - x
    dxm = x - shift(x, 0, -1); dym = x - shift(x, -1, 0)
    return dx / jnp.sqrt(dx*dx + dy*dy + 1e-2) - dxm / jnp.sqrt(dxm*dxm + dym*dym + 1e-2) + \
           dy / jnp.sqrt(dx*dx + dy*dy + 1e-2) - dym / jnp.sqrt(dxm*dxm + dym*dym + 1e-2)
step = jax.jit(lambda u, f: u - 0.05 * ((u - f) - 0.2 * grad(u)))
f = jnp.asarray(np.random.default_rng(1).random((n, n), dtype=np.float32))
u = f
for _ in range(3): u = step(u, f)
u.block_until_ready()
for r in range(3):
    t0 = time.perf_counter(); u = f
    for _ in range(iters): u = step(u, f)
    u.block_until_ready()
    print("jax tv per iteration: %.4f ms" % ((time.perf_counter() - t0) * 1e3 / iters))
