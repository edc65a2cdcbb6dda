/* oqrun.c: the oq side of the GPU benchmarks (bench.cu): runs a Quasar program in this
   process with --target cuda and --profile, as `oq run` would, capturing what it prints;
   then answers the device time of its kernels from the launcher's profile (CUDA events
   around every launch). A C file, so that bench.cu needs no oq header. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/config.h"
#include "interp/interp.h"
#include "front/parse.h"
#include "device/rt_cuda.h"
#include "backend/cuda/rt_gpu.h"

RtConfig rt_config;    /* main.c's, which liboq.a leaves out */

/* Runs the program text src (written to a temporary file first: diagnostics name it) with
   stdout captured into out (n bytes). Returns the program's exit status. */
int oqb_run(const char *src, char *out, size_t n, int profile) {
  char why[512];
  if (!cuda_available(why, sizeof why)) {
    snprintf(out, n, "no GPU: %s", why);
    return 1;
  }
  char path[] = "/tmp/oqbench_XXXXXX.q", cap[] = "/tmp/oqbench_out_XXXXXX";
  int fd = mkstemps(path, 2), cfd = mkstemp(cap);
  if (fd < 0 || cfd < 0 || write(fd, src, strlen(src)) != (ssize_t)strlen(src)) return 1;
  close(fd);
  config_load();   /* bench.cu sets knobs (OQ_DEV_CUDA_VTHREADS, ...) between programs */
  static InterpOptions opt = {.target = TARGET_CUDA, .argv0 = "oq"};
  opt.profile = profile;
  /* never freed: the launchers key specializations and call-site memos by Func and Node
     addresses, which a later program of this process must not reuse */
  Arena arena = {0};
  int status = 1;
  fflush(stdout);
  int saved = dup(1);
  dup2(cfd, 1);
  SrcFile *file = srcfile_load(path);
  Node *program = file ? parse_file(&arena, file) : NULL;
  Program *prog = program && !diag_error_count() ? interp_load(&arena, program, &opt) : NULL;
  if (prog) {
    status = interp_run(prog, &opt);
    gpu_sync(program->loc);
  }
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  ssize_t got = pread(cfd, out, n - 1, 0);
  out[got > 0 ? got : 0] = 0;
  close(cfd);
  unlink(cap);
  unlink(path);
  return status;
}

/* The value printed as "label: X ms" (toc's format) in out; -1 when missing. */
double oqb_value(const char *out, const char *label) {
  size_t l = strlen(label);
  for (const char *p = out; (p = strstr(p, label)); p += l)
    if ((p == out || p[-1] == '\n') && p[l] == ':') return atof(p + l + 1);
  return -1;
}

/* The fastest launch of the kernels named name, in device milliseconds; -1 when none ran. */
double oqb_kernel_best_ms(const char *name, long *launches) {
  double total, best;
  if (!gpu_kernel_time(name, launches, &total, &best)) return -1;
  return best;
}

void oqb_reset(void) { gpu_profile_reset(); }
