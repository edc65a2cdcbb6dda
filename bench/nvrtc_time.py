#!/usr/bin/env python3
"""bench/nvrtc_time.py FILE [RUNS]: NVRTC's time per kernel of FILE, the output of
`oq run --target cuda --emit-c` (tiers on: each kernel's first build follows its optimized
source as "CUDA kernel NAME (first build)"). Each kernel's first-launch source (its first
build, or the optimized source when it has none) is compiled RUNS times (3) in this process
with the options of device/rt_nvrtc.c for sm_90, after one warm-up compile (NVRTC's own
start); prints the least time of each (processor time of the process, OQ_NVRTC_CLOCK=wall:
wall time), its lines, and the sum. OQ_NVRTC_ALL=1 times the optimized sources too."""
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

def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    nv = load_nvrtc()
    compile_ms(nv, "extern \"C\" __global__ void w(float *p) { p[0] = 1; }", "warmup")
    total = 0.0
    seen = set()
    for name, first, src in kernels(open(sys.argv[1]).read()):
        if src in seen:   # one build for identical sources (the cache's)
            continue
        seen.add(src)
        ms = min(compile_ms(nv, src, name) for _ in range(runs))
        total += ms
        print("%-28s %-6s %5d lines %8.1f ms" % (name, "first" if first else "opt", src.count("\n"), ms))
    print("%-28s %-6s %5s       %8.1f ms" % ("total", "", "", total))

main()
