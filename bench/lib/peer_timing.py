# bench/lib/peer_timing.py: the timing the peer scripts of bench/lib share (peers.py,
# linalg_peers.py): the fastest of 3 rounds, each the mean in ms over `iters` back-to-back
# calls ended by `sync`, after one warm-up call.
import time


def timed(fn, sync, iters=10):
    fn()
    sync()
    best = 1e30
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(iters):
            fn()
        sync()
        best = min(best, (time.perf_counter() - t0) * 1e3 / iters)
    return best
