/* baseline.c: hand-written threaded C versions of the kernels bench/run.sh times, on the
   same data, with as many threads as cores (or $OQ_THREADS). Each repetition prints
   "NAME: T ms" like oq's toc(); run.sh keeps the fastest of each.
     baseline hist|filter|sum|matmul */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int nthreads;

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Runs fn(id) on nthreads threads (the caller is thread 0). */
static void parallel(void *(*fn)(void *)) {
  pthread_t t[256];
  for (long i = 1; i < nthreads; i++) pthread_create(&t[i], NULL, fn, (void *)i);
  fn((void *)0);
  for (long i = 1; i < nthreads; i++) pthread_join(t[i], NULL);
}

/* ---- histogram: per-thread histograms of counts, added at the end ----
   Four sub-histograms per thread, used in turn: runs of equal values then increment four
   counters instead of waiting on one (store-to-load forwarding), as careful CPU histograms do. */

static const float *him;
static int64_t hn, hw;
static uint32_t hpart[256][4][256];

static void *hist_part(void *arg) {
  long id = (long)arg;
  int64_t lo = hn * id / nthreads, hi = hn * (id + 1) / nthreads, i = lo;
  uint32_t (*h)[256] = hpart[id];
  memset(h, 0, sizeof hpart[id]);
  for (; i + 4 <= hi; i += 4) {
    h[0][(int)him[i]]++;
    h[1][(int)him[i + 1]]++;
    h[2][(int)him[i + 2]]++;
    h[3][(int)him[i + 3]]++;
  }
  for (; i < hi; i++) h[0][(int)him[i]]++;
  return NULL;
}

/* The image, filled by the threads that read it: each touches its own pages first, so on a
   machine of several memory nodes its part lies in its node, as oq's arrays filled by kernels do. */
static void *hist_fill(void *arg) {
  long id = (long)arg;
  float *im = (float *)him;
  for (int64_t i = hn * id / nthreads; i < hn * (id + 1) / nthreads; i++) {
    int64_t m = i / (3 * hw), j = i / 3 % hw, k = i % 3;
    im[i] = (float)((m * 7 + j * 3 + k * 101 + j / 17) % 256);
  }
  return NULL;
}

static void hist(int h, int w, int reps) {
  int64_t n = (int64_t)h * w * 3;
  float *im = malloc(n * sizeof *im);
  him = im;
  hn = n;
  hw = w;
  parallel(hist_fill);
  float y[256];
  for (int r = 0; r < reps; r++) {
    double t0 = now_ms();
    parallel(hist_part);
    for (int b = 0; b < 256; b++) {
      uint32_t s = 0;
      for (int t = 0; t < nthreads; t++) s += hpart[t][0][b] + hpart[t][1][b] + hpart[t][2][b] + hpart[t][3][b];
      y[b] = (float)s;
    }
    printf("hist %dx%dx3: %.4f ms\n", w, h, now_ms() - t0);
  }
  printf("checksum %g %g\n", y[0], y[255]);
  free(im);
}

/* ---- 3x3 mean filter, zero outside the image ---- */

static const float *fx;
static float *fy;
static int fh, fw;

static void *filter_part(void *arg) {
  long id = (long)arg;
  int lo = (int)((int64_t)fh * id / nthreads), hi = (int)((int64_t)fh * (id + 1) / nthreads);
  for (int i = lo; i < hi; i++)
    for (int j = 0; j < fw; j++)
      for (int k = 0; k < 3; k++) {
        float s = 0;
        for (int di = -1; di <= 1; di++)
          for (int dj = -1; dj <= 1; dj++) {
            int a = i + di, b = j + dj;
            if (a >= 0 && a < fh && b >= 0 && b < fw) s += fx[((int64_t)a * fw + b) * 3 + k];
          }
        fy[((int64_t)i * fw + j) * 3 + k] = s * (1.0f / 9);
      }
  return NULL;
}

static void filter(int h, int w, int reps) {
  int64_t n = (int64_t)h * w * 3;
  float *x = malloc(n * sizeof *x), *y = calloc(n, sizeof *y);
  for (int64_t i = 0; i < n; i++) x[i] = (float)(i % 251);
  fx = x;
  fy = y;
  fh = h;
  fw = w;
  for (int r = 0; r < reps; r++) {
    double t0 = now_ms();
    parallel(filter_part);
    printf("filter3x3 %dx%dx3: %.4f ms\n", w, h, now_ms() - t0);
  }
  printf("checksum %g\n", y[(int64_t)(h / 2) * w * 3 + 7]);
  free(x);
  free(y);
}

/* ---- sum of floats: one float partial sum per thread ---- */

static const float *sx;
static int64_t sn;
static float spart[256];

static void *sum_part(void *arg) {
  long id = (long)arg;
  int64_t lo = sn * id / nthreads, hi = sn * (id + 1) / nthreads;
  float s = 0;
  for (int64_t i = lo; i < hi; i++) s += sx[i];
  spart[id] = s;
  return NULL;
}

static void sum(int64_t n, int reps) {
  float *x = malloc(n * sizeof *x);
  for (int64_t i = 0; i < n; i++) x[i] = i % 8 == 0;   /* every partial sum is exact */
  sx = x;
  sn = n;
  float s = 0;
  for (int r = 0; r < reps; r++) {
    double t0 = now_ms();
    parallel(sum_part);
    s = 0;
    for (int t = 0; t < nthreads; t++) s += spart[t];
    printf("sum 2^26: %.4f ms\n", now_ms() - t0);
  }
  printf("checksum %g\n", s);
  free(x);
}

/* ---- matrix product, the same loops as kernel3 (a dot product per element) ---- */

static const float *ma, *mb;
static float *mc;
static int mn;

static void *matmul_part(void *arg) {
  long id = (long)arg;
  int lo = mn * id / nthreads, hi = mn * (id + 1) / nthreads;
  for (int i = lo; i < hi; i++)
    for (int j = 0; j < mn; j++) {
      float s = 0;
      for (int m = 0; m < mn; m++) s += ma[(int64_t)i * mn + m] * mb[(int64_t)m * mn + j];
      mc[(int64_t)i * mn + j] = s;
    }
  return NULL;
}

static void matmul(int n, int reps) {
  float *a = malloc((size_t)n * n * sizeof *a), *b = malloc((size_t)n * n * sizeof *b);
  float *c = calloc((size_t)n * n, sizeof *c);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      a[i * n + j] = (float)((i + 2 * j) % 7) - 3;
      b[i * n + j] = (float)((3 * i + j) % 5) - 2;
    }
  ma = a;
  mb = b;
  mc = c;
  mn = n;
  for (int r = 0; r < reps; r++) {
    double t0 = now_ms();
    parallel(matmul_part);
    printf("matmul %d: %.4f ms\n", n, now_ms() - t0);
  }
  printf("checksum %g\n", c[(n / 2) * n + 3]);
  free(a);
  free(b);
  free(c);
}

int main(int argc, char **argv) {
  const char *env = getenv("OQ_THREADS");
  nthreads = env && atoi(env) > 0 ? atoi(env) : (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (nthreads < 1) nthreads = 1;
  if (nthreads > 256) nthreads = 256;
  const char *what = argc > 1 ? argv[1] : "";
  if (!strcmp(what, "hist")) { hist(1080, 1920, 7); hist(4096, 8192, 3); }
  else if (!strcmp(what, "filter")) filter(1080, 1920, 7);
  else if (!strcmp(what, "sum")) sum((int64_t)1 << 26, 7);
  else if (!strcmp(what, "matmul")) matmul(1024, 3);
  else { fprintf(stderr, "usage: baseline hist|filter|sum|matmul\n"); return 2; }
  return 0;
}
