#!/usr/bin/env python3
"""bench/nvrtc_time.py FILE [RUNS] | --compare BEFORE AFTER [RUNS]: NVRTC's time per kernel of FILE, the output of
`oq run --target cuda --emit-c` (tiers on: each kernel's first build follows its optimized
source as "CUDA kernel NAME (first build)"). Each kernel's first-launch source (its first
build, or the optimized source when it has none) is compiled RUNS times (3) in this process
with the options of device/rt_nvrtc.c for sm_90, after one warm-up compile (NVRTC's own
start); prints the least time of each (processor time of the process, OQ_NVRTC_CLOCK=wall:
wall time), its lines, and the sum. OQ_NVRTC_ALL=1 times the optimized sources too.
--compare: the first-launch sources of two such outputs of one program (bench/first_builds.sh
writes them), the two compiles of each kernel alternating RUNS times (5) so that the load of a
shared machine falls on both alike; prints the least of each and the sums."""
import ctypes, os, re, sys, time

def load_nvrtc():
    for p in ("/usr/local/cuda/lib64/libnvrtc.so", "libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"):
        try:
            return ctypes.CDLL(p)
        except OSError:
            pass
    sys.exit("nvrtc_time.py: libnvrtc.so not found (CUDA toolkit's lib64)")

OPTS = [b"--gpu-architecture=sm_90", b"--std=c++17", b"-default-device", b"--fmad=false"]
# the process's processor time (all its threads): on a machine shared with other work the
# wall time counts the waits for a processor too; OQ_NVRTC_CLOCK=wall: the wall time
CLOCK = time.perf_counter if os.environ.get("OQ_NVRTC_CLOCK") == "wall" else time.process_time

def compile_ms(nv, src, name):
    prog = ctypes.c_void_p()
    nv.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), name.encode(), 0, None, None)
    opts = (ctypes.c_char_p * len(OPTS))(*OPTS)
    t0 = CLOCK()
    r = nv.nvrtcCompileProgram(prog, len(OPTS), opts)
    n = ctypes.c_size_t()
    nv.nvrtcGetCUBINSize(prog, ctypes.byref(n))
    ms = (CLOCK() - t0) * 1000
    if r != 0:
        ls = ctypes.c_size_t()
        nv.nvrtcGetProgramLogSize(prog, ctypes.byref(ls))
        log = ctypes.create_string_buffer(ls.value)
        nv.nvrtcGetProgramLog(prog, log)
        sys.exit("nvrtc_time.py: %s does not compile:\n%s" % (name, log.value.decode()[:2000]))
    nv.nvrtcDestroyProgram(ctypes.byref(prog))
    return ms

def kernels(text):
    """[(name, first, source)] in the order printed; a kernel's first build replaces its
    optimized source unless OQ_NVRTC_ALL is set."""
    parts = re.split(r"^/\* ---- CUDA kernel (.*?) \((.*?)\) ---- \*/\n", text, flags=re.M)
    out = []
    for i in range(1, len(parts) - 2, 3):
        name, tag, src = parts[i], parts[i + 1], parts[i + 2]
        src = src[:src.rfind("\n}\n") + 3]   # the program's own output follows the last "}"
        first = tag == "first build"
        if first and out and out[-1][0] == name and not os.environ.get("OQ_NVRTC_ALL"):
            out.pop()
        out.append((name, first, src))
    return out

def distinct(text):
    """kernels(text), each source once (the cache builds identical sources once)"""
    out, seen = [], set()
    for name, first, src in kernels(text):
        if src not in seen:
            seen.add(src)
            out.append((name, first, src))
    return out

def table(nv, path, runs):
    total = 0.0
    for name, first, src in distinct(open(path).read()):
        ms = min(compile_ms(nv, src, name) for _ in range(runs))
        total += ms
        print("%-28s %-6s %5d lines %8.1f ms" % (name, "first" if first else "opt", src.count("\n"), ms))
    print("%-28s %-6s %5s       %8.1f ms" % ("total", "", "", total))

def compare(nv, before, after, runs):
    a, b = distinct(open(before).read()), distinct(open(after).read())
    if [k[0] for k in a] != [k[0] for k in b]:
        sys.exit("nvrtc_time.py: the two runs launched different kernels")
    ta = tb = 0.0
    for (name, fa, sa), (_, fb, sb) in zip(a, b):
        ma = mb = float("inf")
        for _ in range(runs):
            ma = min(ma, compile_ms(nv, sa, name))
            mb = min(mb, compile_ms(nv, sb, name))
        ta += ma
        tb += mb
        print("%-28s %5d %-5s %7.1f ms   %5d %-5s %7.1f ms" % (name, sa.count("\n"), "first" if fa else "opt", ma,
                                                            sb.count("\n"), "first" if fb else "opt", mb))
    print("%-28s %19.1f ms   %19.1f ms  (%+.0f %%)" % ("total", ta, tb, 100 * (tb - ta) / ta))

def main():
    cmp = len(sys.argv) > 1 and sys.argv[1] == "--compare"
    args = sys.argv[2:] if cmp else sys.argv[1:]
    if len(args) < (2 if cmp else 1):
        sys.exit(__doc__)
    nv = load_nvrtc()
    compile_ms(nv, "extern \"C\" __global__ void w(float *p) { p[0] = 1; }", "warmup")
    if cmp:
        compare(nv, args[0], args[1], int(args[2]) if len(args) > 2 else 5)
    else:
        table(nv, args[0], int(args[1]) if len(args) > 1 else 3)

main()
