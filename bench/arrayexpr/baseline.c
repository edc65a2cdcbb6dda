/* bench/arrayexpr/baseline.c: issue 20's expressions as hand-written threaded C, float32,
   as many threads as cores (or $OQ_THREADS): the CPU peer of bench/arrayexpr/exprs.q.
   Prints "C CASE: T ms" per evaluation, fastest of 3 rounds of REPS.
     baseline N REPS */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

typedef struct Job { void (*fn)(int64_t lo, int64_t hi, int id); int64_t n; } Job;
static int nthreads;
static double partial[256];
static const float *X, *H, *C3, *NOISY;
static float *Y, *G, *U;
static int64_t N;

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static Job job;
static void *worker(void *arg) {
  long id = (long)arg;
  job.fn(job.n * id / nthreads, job.n * (id + 1) / nthreads, (int)id);
  return NULL;
}

static void parallel(void (*fn)(int64_t, int64_t, int), int64_t n) {
  pthread_t t[256];
  job = (Job){fn, n};
  for (long i = 1; i < nthreads; i++) pthread_create(&t[i], NULL, worker, (void *)i);
  worker((void *)0);
  for (long i = 1; i < nthreads; i++) pthread_join(t[i], NULL);
}

static void map(int64_t lo, int64_t hi, int id) {
  (void)id;
  for (int64_t i = lo; i < hi; i++) Y[i] = X[i] * H[i] + 0.5f * cosf(X[i]);
}
static void maxsqrt(int64_t lo, int64_t hi, int id) {
  (void)id;
  for (int64_t i = lo; i < hi; i++) Y[i] = fmaxf(sqrtf(X[i] * X[i] + H[i] * H[i]), 1e-10f);
}
static void sumsq(int64_t lo, int64_t hi, int id) {
  double s = 0;
  for (int64_t i = lo; i < hi; i++) s += X[i] * X[i];
  partial[id] = s;
}
/* sum(x .* h, 0): each thread a block of columns, walking the rows (contiguous inner loop) */
static void sumcol(int64_t lo, int64_t hi, int id) {
  (void)id;
  for (int64_t j = lo; j < hi; j++) Y[j] = X[j] * H[j];
  for (int64_t i = 1; i < N; i++)
    for (int64_t j = lo; j < hi; j++) Y[j] += X[i * N + j] * H[i * N + j];
}
/* sum(x, 1): each thread a block of rows, each row in order */
static void sumrow(int64_t lo, int64_t hi, int id) {
  (void)id;
  for (int64_t i = lo; i < hi; i++) {
    float s = X[i * N];
    for (int64_t j = 1; j < N; j++) s += X[i * N + j];
    Y[i] = s;
  }
}
static void slice(int64_t lo, int64_t hi, int id) {
  (void)id;
  for (int64_t i = lo; i < hi; i++) Y[i] = C3[3 * i + 1] * 2 + C3[3 * i];
}
static float at(const float *x, int64_t i, int64_t j) {   /* 'clamped */
  i = i < 0 ? 0 : i >= N ? N - 1 : i;
  j = j < 0 ? 0 : j >= N ? N - 1 : j;
  return x[i * N + j];
}
static void tv_grad(int64_t lo, int64_t hi, int id) {
  (void)id;
  for (int64_t i = lo; i < hi; i++)
    for (int64_t j = 0; j < N; j++) {
      float c = U[i * N + j], dx = at(U, i, j + 1) - c, dy = at(U, i + 1, j) - c;
      float dxm = c - at(U, i, j - 1), dym = c - at(U, i - 1, j);
      float a = sqrtf(dx * dx + dy * dy + 1e-2f), b = sqrtf(dxm * dxm + dym * dym + 1e-2f);
      G[i * N + j] = dx / a - dxm / b + dy / a - dym / b;
    }
}
static void tv_update(int64_t lo, int64_t hi, int id) {
  (void)id;
  for (int64_t i = lo; i < hi; i++) Y[i] = U[i] - 0.05f * ((U[i] - NOISY[i]) - 0.2f * G[i]);
}

static volatile double sink;   /* sumsq's partial sums are read: else the compiler drops the loop */

static void report(const char *name, void (*fn)(int64_t, int64_t, int), int64_t n, int reps) {
  double best = 1e30;
  for (int round = 0; round < 3; round++) {
    double t0 = now_ms();
    for (int r = 0; r < reps; r++) {
      parallel(fn, n);
      for (int i = 0; i < nthreads; i++) sink += partial[i];
    }
    double t = (now_ms() - t0) / reps;
    best = t < best ? t : best;
  }
  printf("C %s: %.4f ms\n", name, best);
}

int main(int argc, char **argv) {
  N = argc > 1 ? atoll(argv[1]) : 2048;
  int reps = argc > 2 ? atoi(argv[2]) : 20;
  const char *t = getenv("OQ_THREADS");
  nthreads = t && atoi(t) > 0 ? atoi(t) : (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (nthreads > 256) nthreads = 256;
  int64_t n = N * N;
  float *x = malloc(n * 4), *h = malloc(n * 4), *c3 = malloc(3 * n * 4), *noisy = malloc(n * 4);
  Y = malloc(n * 4), G = malloc(n * 4), U = malloc(n * 4);
  for (int64_t i = 0; i < n; i++) x[i] = (float)rand() / RAND_MAX, h[i] = (float)rand() / RAND_MAX;
  for (int64_t i = 0; i < 3 * n; i++) c3[i] = (float)rand() / RAND_MAX;
  for (int64_t i = 0; i < n; i++) noisy[i] = x[i], U[i] = x[i];
  X = x, H = h, C3 = c3, NOISY = noisy;
  report("map", map, n, reps);
  report("maxsqrt", maxsqrt, n, reps);
  report("sumsq", sumsq, n, reps);
  report("slice", slice, n, reps);
  report("sumcol", sumcol, N, reps);
  report("sumrow", sumrow, N, reps);
  double best = 1e30;
  for (int round = 0; round < 2; round++) {
    double t0 = now_ms();
    for (int it = 0; it < 100; it++) {
      parallel(tv_grad, N);
      parallel(tv_update, n);
      float *tmp = U; U = Y; Y = tmp;
    }
    double t = now_ms() - t0;
    best = t < best ? t : best;
  }
  printf("C tv100: %.4f ms\n", best);
  return 0;
}
