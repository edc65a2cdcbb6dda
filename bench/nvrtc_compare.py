#!/usr/bin/env python3
"""bench/nvrtc_compare.py BEFORE AFTER [RUNS]: NVRTC's time of each first-launch source of two
`oq run --target cuda --emit-c` outputs of one program (bench/first_builds.sh writes them),
the two compiles of each kernel alternating RUNS times (5) in one process so that the load
of a shared machine falls on both alike; prints the least of each and the sums."""
import os, sys
here = os.path.dirname(os.path.abspath(__file__))
g = {}
src = open(os.path.join(here, "nvrtc_time.py")).read().replace("\nmain()\n", "\n")
exec(compile(src, "nvrtc_time.py", "exec"), g)

def firsts(path):
    out, seen = [], set()
    for name, first, s in g["kernels"](open(path).read()):
        if s not in seen:
            seen.add(s)
            out.append((name, first, s))
    return out

def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    nv = g["load_nvrtc"]()
    g["compile_ms"](nv, "extern \"C\" __global__ void w(float *p) { p[0] = 1; }", "warmup")
    a, b = firsts(sys.argv[1]), firsts(sys.argv[2])
    if [k[0] for k in a] != [k[0] for k in b]:
        sys.exit("nvrtc_compare.py: the two runs launched different kernels")
    ta = tb = 0.0
    for (name, fa, sa), (_, fb, sb) in zip(a, b):
        ma = mb = float("inf")
        for _ in range(runs):
            ma = min(ma, g["compile_ms"](nv, sa, name))
            mb = min(mb, g["compile_ms"](nv, sb, name))
        ta += ma
        tb += mb
        print("%-28s %5d %-5s %7.1f ms   %5d %-5s %7.1f ms" % (name, sa.count("\n"), "first" if fa else "opt", ma,
                                                            sb.count("\n"), "first" if fb else "opt", mb))
    print("%-28s %19.1f ms   %19.1f ms  (%+.0f %%)" % ("total", ta, tb, 100 * (tb - ta) / ta))

main()
