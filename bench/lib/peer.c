/* bench/lib/peer.c: the libraries that oq's FFT and matrix product call, called directly,
   for bench/lib/run.sh: the same sizes, data kinds, planner flags and thread counts as oq
   uses, arrays allocated once (a C program's best case). Libraries are loaded with dlopen,
   as oq loads them, so no header is needed. Each mode prints one line per timing:
   "LABEL: T ms" (the fastest of REPS runs, each the mean over ITERS back-to-back calls).

     peer fftw N THREADS REPS [measure]   fft2 of an N x N single complex array (FFTW)
     peer sgemm N THREADS REPS            C = A B of N x N floats (OpenBLAS sgemm_)
     peer cufft N REPS                    fft2 of N x N single complex on the GPU (cuFFT)
     peer cublas N REPS                   C = A B of N x N floats on the GPU (cuBLAS) */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void *open_any(const char *const *names) {
  for (; *names; names++) {
    void *h = dlopen(*names, RTLD_NOW | RTLD_LOCAL);
    if (h) return h;
  }
  return NULL;
}

static void *need(void *h, const char *sym) {
  void *p = dlsym(h, sym);
  if (!p) { fprintf(stderr, "peer: %s missing\n", sym); exit(1); }
  return p;
}

static void fill(float *x, size_t n) {
  uint64_t s = 88172645463325252ull;
  for (size_t i = 0; i < n; i++) {
    s ^= s << 13; s ^= s >> 7; s ^= s << 17;
    x[i] = (float)(s >> 40) / (float)(1 << 24);
  }
}

/* ---- FFTW ---- */
typedef struct { ptrdiff_t n, is, os; } Iodim64;

static int fftw(int n, int threads, int reps, int measure) {
  const char *names[] = { "libfftw3f_threads.so.3", "libfftw3f.so.3", NULL };
  void *h = open_any(names);
  if (!h) { printf("fftw: not installed\n"); return 0; }
  void *(*plan)(int, const Iodim64 *, int, const Iodim64 *, void *, void *, int, unsigned) =
    need(h, "fftwf_plan_guru64_dft");
  void (*exec)(void *, void *, void *) = need(h, "fftwf_execute_dft");
  int (*init_threads)(void) = dlsym(h, "fftwf_init_threads");
  void (*with_threads)(int) = dlsym(h, "fftwf_plan_with_nthreads");
  if (init_threads && with_threads && init_threads()) with_threads(threads);
  size_t count = (size_t)n * n;
  float *in = malloc(count * 8), *out = malloc(count * 8);
  fill(in, count * 2);
  memset(out, 0, count * 8);
  Iodim64 dims[2] = { { n, n, n }, { n, 1, 1 } };
  double t0 = now_ms();
  unsigned flags = (measure ? 0u : 1u << 6) | (1u << 4);   /* MEASURE or ESTIMATE; PRESERVE_INPUT */
  float *scratch = measure ? malloc(count * 8) : in;       /* MEASURE overwrites its arrays */
  void *p = plan(2, dims, 0, NULL, scratch, out, -1, flags);
  double plan_ms = now_ms() - t0;
  const char *label = measure ? "fftw-measure" : "fftw";
  int iters = 5;
  double best = 1e30;
  for (int r = 0; r < reps; r++) {
    double s = now_ms();
    for (int i = 0; i < iters; i++) exec(p, in, out);
    double t = (now_ms() - s) / iters;
    if (t < best) best = t;
  }
  printf("%s fft2 %dx%d complex (%d threads, plan %.1f ms): %.4f ms\n", label, n, n, threads, plan_ms, best);
  return 0;
}

/* ---- OpenBLAS ---- */
static int sgemm(int n, int threads, int reps) {
  const char *names[] = { "libopenblas.so.0", "libblas.so.3", NULL };
  void *h = open_any(names);
  if (!h) { printf("openblas: not installed\n"); return 0; }
  void (*gemm)(const char *, const char *, const int *, const int *, const int *, const float *,
               const float *, const int *, const float *, const int *, const float *, float *,
               const int *, size_t, size_t) = need(h, "sgemm_");
  void (*set_threads)(int) = dlsym(h, "openblas_set_num_threads");
  if (set_threads) set_threads(threads);
  size_t count = (size_t)n * n;
  float *a = malloc(count * 4), *b = malloc(count * 4), *c = malloc(count * 4);
  fill(a, count);
  fill(b, count);
  memset(c, 0, count * 4);
  float one = 1, zero = 0;
  double best = 1e30;
  for (int r = 0; r < reps; r++) {
    double s = now_ms();
    gemm("N", "N", &n, &n, &n, &one, b, &n, a, &n, &zero, c, &n, 1, 1);
    double t = now_ms() - s;
    if (t < best) best = t;
  }
  printf("openblas sgemm %dx%d (%d threads): %.4f ms\n", n, n, threads, best);
  return 0;
}

/* ---- CUDA: the driver for memory and waits, cuFFT and cuBLAS ---- */
typedef struct { int (*init)(unsigned); int (*dev)(int *, int); int (*retain)(void **, int);
                 int (*current)(void *); int (*alloc)(uint64_t *, size_t);
                 int (*htod)(uint64_t, const void *, size_t); int (*sync)(void); } Cu;

static const char *cuda_lib_names[] = { "libcuda.so.1", NULL };

static int cuda_open(Cu *cu) {
  void *h = open_any(cuda_lib_names);
  if (!h) return 0;
  cu->init = need(h, "cuInit");
  cu->dev = need(h, "cuDeviceGet");
  cu->retain = need(h, "cuDevicePrimaryCtxRetain");
  cu->current = need(h, "cuCtxSetCurrent");
  cu->alloc = need(h, "cuMemAlloc_v2");
  cu->htod = need(h, "cuMemcpyHtoD_v2");
  cu->sync = need(h, "cuCtxSynchronize");
  int d;
  void *ctx;
  return !cu->init(0) && !cu->dev(&d, 0) && !cu->retain(&ctx, d) && !cu->current(ctx);
}

static void *cuda_toolkit_lib(const char *const *names) {
  const char *home = getenv("CUDA_HOME");
  char path[4096];
  for (const char *const *n = names; *n; n++) {
    if (home) {
      snprintf(path, sizeof path, "%s/lib64/%s", home, *n);
      void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
      if (h) return h;
    }
    snprintf(path, sizeof path, "/usr/local/cuda/lib64/%s", *n);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h) return h;
    h = dlopen(*n, RTLD_NOW | RTLD_LOCAL);
    if (h) return h;
  }
  return NULL;
}

static uint64_t device_random(Cu *cu, size_t floats) {
  uint64_t p;
  float *x = malloc(floats * 4);
  fill(x, floats);
  if (cu->alloc(&p, floats * 4) || cu->htod(p, x, floats * 4)) { fprintf(stderr, "peer: cuMemAlloc\n"); exit(1); }
  free(x);
  return p;
}

static int cufft(int n, int reps) {
  Cu cu;
  if (!cuda_open(&cu)) { printf("cufft: no GPU\n"); return 0; }
  const char *names[] = { "libcufft.so", "libcufft.so.12", "libcufft.so.13", "libcufft.so.11", NULL };
  void *h = cuda_toolkit_lib(names);
  if (!h) { printf("cufft: not installed\n"); return 0; }
  int (*plan2d)(int *, int, int, int) = need(h, "cufftPlan2d");
  int (*exec)(int, void *, void *, int) = need(h, "cufftExecC2C");
  size_t count = (size_t)n * n;
  uint64_t in = device_random(&cu, count * 2), out = device_random(&cu, count * 2);
  int plan;
  if (plan2d(&plan, n, n, 0x29)) { printf("cufft: plan failed\n"); return 1; }
  int iters = 50;
  double best = 1e30;
  for (int r = 0; r < reps + 1; r++) {   /* the first round warms up */
    cu.sync();
    double s = now_ms();
    for (int i = 0; i < iters; i++) exec(plan, (void *)in, (void *)out, -1);
    cu.sync();
    double t = (now_ms() - s) / iters;
    if (r && t < best) best = t;
  }
  printf("cufft fft2 %dx%d complex: %.4f ms\n", n, n, best);
  return 0;
}

static int cublas(int n, int reps) {
  Cu cu;
  if (!cuda_open(&cu)) { printf("cublas: no GPU\n"); return 0; }
  const char *names[] = { "libcublas.so", "libcublas.so.12", "libcublas.so.13", "libcublas.so.11", NULL };
  void *h = cuda_toolkit_lib(names);
  if (!h) { printf("cublas: not installed\n"); return 0; }
  int (*create)(void **) = need(h, "cublasCreate_v2");
  int (*gemm)(void *, int, int, int, int, int, const float *, const void *, int, const void *,
              int, const float *, void *, int) = need(h, "cublasSgemm_v2");
  void *handle;
  if (create(&handle)) { printf("cublas: create failed\n"); return 1; }
  size_t count = (size_t)n * n;
  uint64_t a = device_random(&cu, count), b = device_random(&cu, count), c = device_random(&cu, count);
  float one = 1, zero = 0;
  int iters = 10;
  double best = 1e30;
  for (int r = 0; r < reps + 1; r++) {
    cu.sync();
    double s = now_ms();
    for (int i = 0; i < iters; i++)
      gemm(handle, 0, 0, n, n, n, &one, (void *)b, n, (void *)a, n, &zero, (void *)c, n);
    cu.sync();
    double t = (now_ms() - s) / iters;
    if (r && t < best) best = t;
  }
  printf("cublas sgemm %dx%d: %.4f ms\n", n, n, best);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 4) { fprintf(stderr, "usage: peer fftw|sgemm|cufft|cublas N ...\n"); return 2; }
  int n = atoi(argv[2]);
  if (!strcmp(argv[1], "fftw") && argc >= 5) return fftw(n, atoi(argv[3]), atoi(argv[4]), argc > 5);
  if (!strcmp(argv[1], "sgemm") && argc >= 5) return sgemm(n, atoi(argv[3]), atoi(argv[4]));
  if (!strcmp(argv[1], "cufft")) return cufft(n, atoi(argv[3]));
  if (!strcmp(argv[1], "cublas")) return cublas(n, atoi(argv[3]));
  fprintf(stderr, "peer: unknown mode %s\n", argv[1]);
  return 2;
}
