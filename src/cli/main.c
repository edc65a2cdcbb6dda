/* main.c: the `oq` command line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include "base/config.h"
#include "interp/interp.h"
#include "front/parse.h"
#include "backend/cpu/rt_cpu.h"
#include "device/rt_cuda.h"
#include "backend/cuda/rt_gpu.h"
#include "backend/rt_profile.h"
#include "runtime/rt_show.h"

#define OQ_VERSION "0.1.0"

RtConfig rt_config;

static void usage(FILE *out) {
  fputs("usage: oq run [options] FILE.q [ARGS...]\n"
        "                                   run a program (top level, then main(ARGS...))\n"
        "       oq check [options] FILE.q   parse and check only\n"
        "       oq emit --target c FILE.q   run, printing the C of every kernel as it is compiled\n"
        "       oq emit --target cuda FILE.q   the same with the CUDA C++ of every kernel (runs on the CPU)\n"
        "       oq parse --dump FILE.q      print the syntax tree\n"
        "       oq --version | oq help\n"
        "options:\n"
        "  --target auto|cpu|cuda|interp    where kernels run (default auto)\n"
        "  --precision single|double        the type `scalar` (default single)\n"
        "  --verbose                        say which back end is used\n"
        "  --profile                        print per-kernel statistics after the run\n"
        "  --emit-c                         print the C source of each compiled kernel\n"
        "  --show-dir DIR                   imshow writes PNG files into DIR (no window)\n"
        "  --no-parloop                     keep host loops serial (no automatic parallel loops)\n"
        "  --explain                        say for every host loop nest whether it runs as a\n"
        "                                   kernel, and why not (check and run)\n"
        "environment: CC (kernel compiler), OQ_CACHE_DIR (compiled kernels), OQ_THREADS,\n"
        "  OQ_SHOW_DIR (as --show-dir), OQ_SHOW_WAIT=0 (do not wait for imshow windows at the end),\n"
        "  OQ_NO_PARLOOP=1 (as --no-parloop),\n"
        "  OQ_CUDA_CHECK=1 (also compile every kernel's CUDA with NVRTC), OQ_CUDA_EAGER=1;\n"
        "  docs/config.md lists them all\n",
        out);
}

static int usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "oq: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n");
  usage(stderr);
  return 2;
}

int main(int argc, char **argv) {
  if (argc < 2) { usage(stderr); return 2; }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
    printf("oq (OpenQuasar) %s\n", OQ_VERSION);
    return 0;
  }
  if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
    usage(stdout);
    return 0;
  }
  if (strcmp(cmd, "run") && strcmp(cmd, "check") && strcmp(cmd, "parse") && strcmp(cmd, "emit"))
    return usage_error("unknown command '%s'", cmd);

  config_load();
  InterpOptions opt = { .target = TARGET_AUTO, .argv0 = argv[0] };
  const char *path = NULL;
  bool dump = false;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--target") && i + 1 < argc) {
      const char *t = argv[++i];
      if (!strcmp(cmd, "emit") && (!strcmp(t, "c") || !strcmp(t, "cpu"))) opt.target = TARGET_CPU;
      else if (!strcmp(cmd, "emit") && !strcmp(t, "cuda")) opt.emit_cuda = true;
      else if (!strcmp(cmd, "emit")) return usage_error("emit: unknown target '%s' (c or cuda)", t);
      else if (!strcmp(t, "auto")) opt.target = TARGET_AUTO;
      else if (!strcmp(t, "cpu")) opt.target = TARGET_CPU;
      else if (!strcmp(t, "cuda")) opt.target = TARGET_CUDA;
      else if (!strcmp(t, "interp")) opt.target = TARGET_INTERP;
      else return usage_error("unknown target '%s'", t);
    } else if (!strcmp(a, "--precision") && i + 1 < argc) {
      const char *p = argv[++i];
      if (!strcmp(p, "single")) rt_config.double_precision = false;
      else if (!strcmp(p, "double")) rt_config.double_precision = true;
      else return usage_error("unknown precision '%s'", p);
    } else if (!strcmp(a, "--verbose")) opt.verbose = true;
    else if (!strcmp(a, "--profile")) opt.profile = true, prof_enable(true);
    else if (!strcmp(a, "--emit-c")) opt.emit_c = true;
    else if (!strcmp(a, "--show-dir") && i + 1 < argc) rt_show_set_dir(argv[++i]);
    else if (!strcmp(a, "--no-parloop")) opt.no_parloop = true;
    else if (!strcmp(a, "--explain")) opt.explain = true;
    else if (!strcmp(a, "--dump")) dump = true;
    else if (a[0] == '-' && a[1]) return usage_error("unknown option '%s'", a);
    else if (!path) {
      path = a;
      if (!strcmp(cmd, "run")) {   /* the rest belongs to the program */
        opt.args = argv + i + 1;
        opt.nargs = argc - i - 1;
        break;
      }
    } else return usage_error("unexpected argument '%s'", a);
  }
  if (!path) return usage_error("%s: no input file", cmd);

  SrcFile *file = srcfile_load(path);
  if (!file) {
    fprintf(stderr, "oq: error: cannot read '%s': %s\n", path, strerror(errno));
    return 1;
  }
  Arena arena = {0};
  Node *program = parse_file(&arena, file);
  if (diag_error_count()) return 1;
  if (!strcmp(cmd, "parse")) {
    if (dump) ast_dump(program, 0);
    return 0;
  }
  if (config()->no_parloop) opt.no_parloop = true;
  if (!strcmp(cmd, "emit")) {
    opt.emit_c = !opt.emit_cuda;
    opt.target = TARGET_CPU;
  }
  /* the target is known before loading: $target("gpu") is decided at compile time */
  if (opt.target == TARGET_CUDA || opt.target == TARGET_AUTO) {
    char why[512];
    bool gpu = cuda_available(why, sizeof why);
    if (!gpu && opt.target == TARGET_CUDA && strcmp(cmd, "check")) {
      fprintf(stderr, "oq: error: --target cuda: %s\n", why);
      return 1;
    }
    if (opt.target == TARGET_AUTO && opt.verbose)
      fprintf(stderr, "oq: --target auto: kernels run %s\n", gpu ? "on the GPU (cuda)" : "on the CPU (no usable GPU)");
    if (opt.target == TARGET_AUTO) opt.target = gpu ? TARGET_CUDA : TARGET_CPU;
  }
  Program *prog = interp_load(&arena, program, &opt);
  if (!prog) return 1;
  if (!strcmp(cmd, "check")) return 0;
  int status = interp_run(prog, &opt);
  gpu_sync(program->loc);   /* the last launches' errors */
  rt_show_finish();
  if (opt.profile) {
    prof_report(stderr);
    gpu_profile_report(stderr);   /* GPU details: host time per launch, memory counters */
  }
  return status;
}
