/* bench/arrayexpr/vmath_ulps.c: the accuracy of the float math functions as C kernels call
   them: compiled with the kernels' flags (rt_cpu.c CFLAGS_KERNEL), the loops below call
   glibc's vector variants (libmvec, `_ZGV*`) through the same declarations as emit_c.c's
   helpers_c_vmath; the scalar column calls the ordinary functions one at a time (through a
   function pointer, which has no vector variant). Error in ulps of the float result against the double
   function (itself within an ulp of double: far finer than float's), the largest over
   2^22 random arguments per function and range, plus a few edge values.
     cc -O3 -march=native -ffp-contract=off -fno-math-errno -fwrapv -fno-tree-slp-vectorize \
        -std=gnu11 -o vmath_ulps bench/arrayexpr/vmath_ulps.c -lm && ./vmath_ulps [SAMPLES] */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OQ_VEC __attribute__((__simd__("notinbranch")))
float sinf(float) OQ_VEC; float cosf(float) OQ_VEC; float expf(float) OQ_VEC; float logf(float) OQ_VEC;
float powf(float, float) OQ_VEC;
float tanf(float) OQ_VEC; float asinf(float) OQ_VEC; float acosf(float) OQ_VEC; float atanf(float) OQ_VEC;
float sinhf(float) OQ_VEC; float coshf(float) OQ_VEC; float tanhf(float) OQ_VEC; float log2f(float) OQ_VEC;
float log10f(float) OQ_VEC; float atan2f(float, float) OQ_VEC;

typedef struct Fn {
  const char *name;
  float (*f1)(float); double (*d1)(double);
  float (*f2)(float, float); double (*d2)(double, double);
  float lo, hi, lo2, hi2;   /* argument ranges */
  int vid;                  /* which vector loop */
} Fn;

/* One loop per function so that GCC calls the simd clone (a call through a pointer has none). */
#define VLOOP1(fn) for (int64_t i = 0; i < n; i++) y[i] = fn(x[i]);
#define VLOOP2(fn) for (int64_t i = 0; i < n; i++) y[i] = fn(x[i], x2[i]);
static void vec_eval(int vid, const float *x, const float *x2, float *y, int64_t n) {
  switch (vid) {
  case 0: VLOOP1(sinf) break;   case 1: VLOOP1(cosf) break;   case 2: VLOOP1(tanf) break;
  case 3: VLOOP1(expf) break;   case 4: VLOOP1(logf) break;   case 5: VLOOP1(log2f) break;
  case 6: VLOOP1(log10f) break; case 7: VLOOP1(asinf) break;  case 8: VLOOP1(acosf) break;
  case 9: VLOOP1(atanf) break;  case 10: VLOOP1(sinhf) break; case 11: VLOOP1(coshf) break;
  case 12: VLOOP1(tanhf) break; case 13: VLOOP2(powf) break;  case 14: VLOOP2(atan2f) break;
  }
}

static double ulps(float got, double want) {
  if (isnan(want)) return isnan(got) ? 0 : 1e9;
  if (isinf(want) || fabs(want) > 3.4028234663852886e38) return got == (float)want ? 0 : 1e9;
  float w = (float)want;
  double u = nextafterf(fabsf(w), INFINITY) - fabsf(w);
  if (fabs(want) < 0x1p-126) u = 0x1p-149;
  return fabs((double)got - want) / u;
}

int main(int argc, char **argv) {
  int64_t n = argc > 1 ? atoll(argv[1]) : (1 << 22);
  static const Fn fns[] = {
    {"sin", sinf, sin, 0, 0, -100, 100, 0, 0, 0},     {"cos", cosf, cos, 0, 0, -100, 100, 0, 0, 1},
    {"tan", tanf, tan, 0, 0, -10, 10, 0, 0, 2},       {"exp", expf, exp, 0, 0, -87, 88, 0, 0, 3},
    {"log", logf, log, 0, 0, 1e-30f, 1e30f, 0, 0, 4}, {"log2", log2f, log2, 0, 0, 1e-30f, 1e30f, 0, 0, 5},
    {"log10", log10f, log10, 0, 0, 1e-30f, 1e30f, 0, 0, 6},
    {"asin", asinf, asin, 0, 0, -1, 1, 0, 0, 7},      {"acos", acosf, acos, 0, 0, -1, 1, 0, 0, 8},
    {"atan", atanf, atan, 0, 0, -100, 100, 0, 0, 9},  {"sinh", sinhf, sinh, 0, 0, -20, 20, 0, 0, 10},
    {"cosh", coshf, cosh, 0, 0, -20, 20, 0, 0, 11},   {"tanh", tanhf, tanh, 0, 0, -10, 10, 0, 0, 12},
    {"pow", 0, 0, powf, pow, 0, 10, -10, 10, 13},     {"atan2", 0, 0, atan2f, atan2, -10, 10, -10, 10, 14},
  };
  float *x = malloc(n * 4), *x2 = malloc(n * 4), *y = malloc(n * 4);
  srand(1);
  printf("%-6s %14s %14s   (max ulps over %lld arguments; vector = libmvec, as C kernels call it)\n", "fn",
         "vector", "scalar", (long long)n);
  for (size_t k = 0; k < sizeof fns / sizeof *fns; k++) {
    const Fn *F = &fns[k];
    bool logscale = F->lo > 0 && F->hi / F->lo > 1e6;
    for (int64_t i = 0; i < n; i++) {
      double r = (double)rand() / RAND_MAX, r2 = (double)rand() / RAND_MAX;
      x[i] = logscale ? (float)exp(log(F->lo) + r * (log(F->hi) - log(F->lo))) : (float)(F->lo + r * (F->hi - F->lo));
      x2[i] = (float)(F->lo2 + r2 * (F->hi2 - F->lo2));
    }
    x[0] = 0, x[1] = -0.0f, x[2] = NAN, x[3] = INFINITY, x[4] = -INFINITY, x[5] = 1, x[6] = 1e-40f;
    vec_eval(F->vid, x, x2, y, n);
    double vmax = 0, smax = 0;
    for (int64_t i = 0; i < n; i++) {
      double want = F->f1 ? F->d1(x[i]) : F->d2(x[i], x2[i]);
      float s = F->f1 ? F->f1(x[i]) : F->f2(x[i], x2[i]);   /* through the pointer: scalar */
      double ev = ulps(y[i], want), es = ulps(s, want);
      if (ev > vmax) vmax = ev;
      if (es > smax) smax = es;
    }
    printf("%-6s %14.2f %14.2f\n", F->name, vmax, smax);
  }
  return 0;
}
