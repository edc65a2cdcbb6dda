/* tests/examples/ref.c: independent references for the examples gallery (examples/NAME.q).
   Each command recomputes one example's result in plain C (double precision, written
   from the seeds' text, not from oq's code), reads the example's output with libpng (not
   oq's imread) or its printed lines, and compares them with a stated tolerance. Prints
   `ok ...` and exits 0, or `FAIL ...` and exits 1. Usage: ref COMMAND ARGS... (main()). */
#include <math.h>
#include <png.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Img { int h, w, c; double *v; } Img;   /* row-major, channel fastest */

static double *at(Img *x, int m, int n, int k) { return &x->v[((size_t)m * x->w + n) * x->c + k]; }

__attribute__((noreturn, format(printf, 1, 2)))
static void fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  printf("FAIL ");
  vprintf(fmt, ap);
  printf("\n");
  va_end(ap);
  exit(1);
}

static Img img_new(int h, int w, int c) {
  Img x = {h, w, c, calloc((size_t)h * w * c, sizeof(double))};
  if (!x.v) fail("out of memory");
  return x;
}

/* ---- PNG through libpng's low-level API: samples as stored, no gamma or colour profile
   handling (as oq's imread); palettes and low depths expanded, alpha dropped. ---- */
static void quiet(png_structp png, png_const_charp msg) { (void)png, (void)msg; }   /* warnings */

static Img read_png(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) fail("cannot open %s", path);
  unsigned char sig[8];
  if (fread(sig, 1, 8, f) != 8 || png_sig_cmp(sig, 0, 8)) fail("%s is not a PNG file", path);
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, quiet);
  png_infop info = png_create_info_struct(png);
  if (setjmp(png_jmpbuf(png))) fail("cannot decode %s", path);
  png_init_io(png, f);
  png_set_sig_bytes(png, 8);
  png_read_png(png, info, PNG_TRANSFORM_EXPAND | PNG_TRANSFORM_STRIP_ALPHA | PNG_TRANSFORM_STRIP_16, NULL);
  Img x = img_new((int)png_get_image_height(png, info), (int)png_get_image_width(png, info),
                  png_get_channels(png, info));
  png_bytepp rows = png_get_rows(png, info);
  for (int m = 0; m < x.h; m++)
    for (int i = 0; i < x.w * x.c; i++) x.v[(size_t)m * x.w * x.c + i] = rows[m][i];
  png_destroy_read_struct(&png, &info, NULL);
  fclose(f);
  return x;
}

/* The crop of lib/gallery.q's load_image: centre, at most size x size (0: all), each side
   rounded down to a multiple of 8. */
static Img load_input(const char *path, int size) {
  Img x = read_png(path);
  int h = x.h, w = x.w;
  if (size > 0) h = h < size ? h : size, w = w < size ? w : size;
  h -= h % 8, w -= w % 8;
  int r0 = (x.h - h) / 2, c0 = (x.w - w) / 2;
  Img y = img_new(h, w, x.c);
  for (int m = 0; m < h; m++)
    for (int n = 0; n < w; n++)
      for (int k = 0; k < x.c; k++) *at(&y, m, n, k) = *at(&x, r0 + m, c0 + n, k);
  return y;
}

/* What imwrite stores: rounded half up, clamped to 0..255. */
static double as_stored(double v) { return !(v > 0) ? 0 : v >= 255 ? 255 : floor(v + 0.5); }

/* Compares the PNG at path with the reference: same shape; every sample within tol of
   the reference as stored, except at most max_out (a fraction) of them, which are
   reported. An output that equals the input crop, or is constant, fails too. */
static void compare(const char *what, const char *path, Img *ref, double tol, double max_out, Img *input) {
  Img got = read_png(path);
  if (got.h != ref->h || got.w != ref->w || got.c != ref->c)
    fail("%s: %s is %dx%dx%d, expected %dx%dx%d", what, path, got.h, got.w, got.c, ref->h, ref->w, ref->c);
  size_t n = (size_t)got.h * got.w * got.c, bad = 0, same_as_input = 0;
  double worst = 0, lo = 1e9, hi = -1e9;
  for (size_t i = 0; i < n; i++) {
    double d = fabs(got.v[i] - as_stored(ref->v[i]));
    if (d > worst) worst = d;
    if (d > tol) bad++;
    if (got.v[i] < lo) lo = got.v[i];
    if (got.v[i] > hi) hi = got.v[i];
    if (input && input->h == got.h && input->w == got.w && input->c == got.c && got.v[i] == input->v[i])
      same_as_input++;
  }
  if (hi == lo) fail("%s: %s is constant (%g)", what, path, lo);
  if (same_as_input == n) fail("%s: %s equals the input image", what, path);
  if (bad > max_out * n)
    fail("%s: %zu of %zu samples differ by more than %g (largest difference %g; allowed: %zu)", what, bad, n,
         tol, worst, (size_t)(max_out * n));
  printf("ok %s: %dx%dx%d, largest difference %g, %zu samples beyond %g\n", what, got.h, got.w, got.c, worst, bad, tol);
}

/* ---- printed results: `label: value` or `label: [v0,v1,...]` lines of a file ---- */

static char *find_line(const char *file, const char *label) {
  FILE *f = fopen(file, "r");
  if (!f) fail("cannot open %s", file);
  static char line[1 << 16];
  size_t k = strlen(label);
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, label, k) && line[k] == ':') {
      fclose(f);
      return line + k + 1;
    }
  fail("no line '%s: ...' in the output", label);
}

static double printed_number(const char *file, const char *label) {
  char *end, *s = find_line(file, label);
  double v = strtod(s, &end);
  if (end == s) fail("'%s:' is not followed by a number", label);
  return v;
}

/* Exactly n integer counts `[a,b,...]` after `label:`, each equal to want[i]. */
static void check_counts(const char *file, const char *label, const double *want, int n) {
  char *s = strchr(find_line(file, label), '[');
  if (!s) fail("'%s:' is not followed by [counts]", label);
  s++;
  for (int i = 0; i < n; i++) {
    char *end;
    double v = strtod(s, &end);
    if (end == s) fail("%s: only %d of %d counts printed", label, i, n);
    if (v != want[i]) fail("%s: bin %d is %g, expected %g", label, i, v, want[i]);
    s = end + (*end == ',');
  }
  if (*s != ']') fail("%s: more than %d counts printed", label, n);
  printf("ok %s: %d counts\n", label, n);
}

static void check_close(const char *file, const char *label, double want, double rel) {
  double got = printed_number(file, label);
  if (!(fabs(got - want) <= rel * fabs(want)))
    fail("%s: %.6f, expected %.6f (relative tolerance %g)", label, got, want, rel);
  printf("ok %s: %.6f (reference %.6f)\n", label, got, want);
}

/* The plot of lib/gallery.q's draw_histograms: channel c, column b lights the rows r with
   height-1-r < h[c][b] / top * height. Each column's lit height may be off by one row
   (the float comparison at a bar's top). */
static void check_plot(const char *path, const double *h, int nh, int nbins, int height) {
  Img got = read_png(path);
  if (got.h != height || got.w != nbins || got.c != nh)
    fail("plot %s is %dx%dx%d, expected %dx%dx%d", path, got.h, got.w, got.c, height, nbins, nh);
  double top = 0;
  for (int i = 0; i < nh * nbins; i++) top = h[i] > top ? h[i] : top;
  int lit_total = 0;
  for (int c = 0; c < nh; c++)
    for (int b = 0; b < nbins; b++) {
      int want = 0, lit = 0;
      for (int r = 0; r < height; r++) {
        want += height - 1 - r < h[c * nbins + b] / top * height;
        double v = *at(&got, r, b, c);
        if (v != 0 && v != 255) fail("plot %s: sample %g at [%d,%d,%d]", path, v, r, b, c);
        lit += v == 255;
      }
      for (int r = 0; r < height; r++)   /* a bar stands on the bottom row, without gaps */
        if ((*at(&got, r, b, c) == 255) != (r >= height - lit)) fail("plot %s: bar %d is not one piece", path, b);
      if (abs(lit - want) > 1) fail("plot %s: bar %d of histogram %d is %d rows, expected %d", path, b, c, lit, want);
      lit_total += lit;
    }
  if (!lit_total) fail("plot %s is empty", path);
  printf("ok plot %s\n", path);
}

/* ---- the examples ---- */

static void ref_gamma(char **a) {   /* IN SIZE OUT */
  Img x = load_input(a[0], atoi(a[1])), y = img_new(x.h, x.w, x.c);
  for (size_t i = 0; i < (size_t)x.h * x.w * x.c; i++) y.v[i] = 255 * pow(x.v[i] / 255, 0.22);
  compare("gamma", a[2], &y, 1, 0, &x);
}

static void ref_mandelbrot(char **a) {   /* SIZE ITS OUT */
  int size = atoi(a[0]), its = atoi(a[1]);
  Img y = img_new(size, size, 1);
  double lo = 1e300, hi = -1e300;
  for (int m = 0; m < size; m++)
    for (int n = 0; n < size; n++) {
      double cr = -0.5 + 3 * ((double)n / size - 0.5), ci = 3 * ((double)m / size - 0.5);
      double zr = 0, zi = 0, v = 0;
      for (int k = 1; k <= its; k++) {
        double r = hypot(zr, zi);
        if (r > 2) {
          v = k - log2(log(r) / log(2.0));
          break;
        }
        double t = zr * zr - zi * zi + cr;
        zi = 2 * zr * zi + ci;
        zr = t;
      }
      *at(&y, m, n, 0) = v;
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
  for (int i = 0; i < size * size; i++) y.v[i] = 255 * (y.v[i] - lo) / (hi - lo);
  /* single precision changes the escape iteration of a few points near the set's edge */
  compare("mandelbrot", a[2], &y, 2, 0.01, NULL);
}

static void ref_rotate(char **a) {   /* IN SIZE THETA S TX TY OUT */
  Img x = load_input(a[0], atoi(a[1])), y = img_new(x.h, x.w, 3);
  double th = atof(a[2]) * M_PI / 180, sc = pow(2, atof(a[3])), tx = atof(a[4]), ty = atof(a[5]);
  double A[2][2] = {{cos(th) * sc, -sin(th) * sc}, {sin(th) * sc, cos(th) * sc}};
  double c0 = x.h / 2.0, c1 = x.w / 2.0;
  for (int m = 0; m < x.h; m++)
    for (int n = 0; n < x.w; n++) {
      double p0 = m - c0, p1 = n - c1;
      double q0 = A[0][0] * p0 + A[0][1] * p1 + c0 - ty, q1 = A[1][0] * p0 + A[1][1] * p1 + c1 - tx;
      int i0 = (int)floor(q0), i1 = (int)floor(q1);
      double f0 = q0 - i0, f1 = q1 - i1;
      if (i0 < 0 || i1 < 0 || i0 > x.h - 2 || i1 > x.w - 2) continue;
      for (int k = 0; k < 3; k++)
        *at(&y, m, n, k) = *at(&x, i0, i1, k) * (1 - f0) * (1 - f1) + *at(&x, i0, i1 + 1, k) * (1 - f0) * f1 +
                           *at(&x, i0 + 1, i1, k) * f0 * (1 - f1) + *at(&x, i0 + 1, i1 + 1, k) * f0 * f1;
    }
  /* single precision may move a sampling point across a pixel or the border */
  compare("rotate", a[6], &y, 1, 0.005, &x);
}

static void ref_haar(char **a) {   /* IN SIZE SCALES OUT OUT_BACK */
  Img x = load_input(a[0], atoi(a[1])), y = img_new(x.h, x.w, x.c), t = img_new(x.h, x.w, x.c);
  int S = atoi(a[2]);
  memcpy(y.v, x.v, sizeof(double) * x.h * x.w * x.c);
  for (int j = 0; j < S; j++) {
    int h = x.h >> j, w = x.w >> j;
    for (int m = 0; m < h; m++)
      for (int n = 0; n < w; n += 2)
        for (int k = 0; k < x.c; k++) {
          double p = *at(&y, m, n, k), q = *at(&y, m, n + 1, k);
          *at(&t, m, n / 2, k) = 0.5 * (p + q);
          *at(&t, m, n / 2 + w / 2, k) = p - q;
        }
    for (int m = 0; m < h; m += 2)
      for (int n = 0; n < w; n++)
        for (int k = 0; k < x.c; k++) {
          double p = *at(&t, m, n, k), q = *at(&t, m + 1, n, k);
          *at(&y, m / 2, n, k) = 0.5 * (p + q);
          *at(&y, m / 2 + h / 2, n, k) = p - q;
        }
  }
  compare("haar forward", a[3], &y, 0, 0, &x);   /* dyadic values: exact in float */
  Img back = read_png(a[4]);
  if (back.h != x.h || back.w != x.w || back.c != x.c) fail("haar backward: %s has the wrong size", a[4]);
  for (size_t i = 0; i < (size_t)x.h * x.w * x.c; i++)
    if (back.v[i] != x.v[i]) fail("haar backward: sample %zu is %g, the input has %g", i, back.v[i], x.v[i]);
  printf("ok haar backward: equals the input\n");
}

static double zero_outside(Img *x, int m, int n, int k) {
  return m < 0 || n < 0 || m >= x->h || n >= x->w ? 0 : *at(x, m, n, k);
}

static void ref_filter(char **a) {   /* IN SIZE OUT_NONSEP OUT_SEP OUT_SHARED */
  Img x = load_input(a[0], atoi(a[1])), y = img_new(x.h, x.w, x.c);
  for (int m = 0; m < x.h; m++)
    for (int n = 0; n < x.w; n++)
      for (int k = 0; k < x.c; k++) {
        double s = 0;
        for (int dm = -1; dm <= 1; dm++)
          for (int dn = -1; dn <= 1; dn++) s += zero_outside(&x, m + dm, n + dn, k);
        *at(&y, m, n, k) = s / 9;
      }
  compare("filter non-separable", a[2], &y, 1, 0, &x);
  compare("filter separable", a[3], &y, 1, 0, &x);
  compare("filter shared memory", a[4], &y, 1, 0, &x);
}

static void ref_gaussian(char **a) {   /* IN SIZE OUT */
  static const double fc[5] = {1 / 16.0, 4 / 16.0, 6 / 16.0, 4 / 16.0, 1 / 16.0};
  Img x = load_input(a[0], atoi(a[1])), y = img_new(x.h, x.w, x.c);
  for (int m = 0; m < x.h; m++)
    for (int n = 0; n < x.w; n++)
      for (int k = 0; k < x.c; k++) {
        double s = 0;
        for (int i = 0; i < 5; i++)
          for (int j = 0; j < 5; j++) s += fc[i] * fc[j] * zero_outside(&x, m + i - 2, n + j - 2, k);
        *at(&y, m, n, k) = s;
      }
  compare("gaussian", a[2], &y, 1, 0, &x);
}

static int mirror(int i, int n) {   /* -1 -> 1, n -> n-1 (QUASAR-NOTES.md) */
  if (i < 0) i = -i;
  while (i >= n) i = i >= 2 * n ? i - 2 * n : 2 * n - 1 - i;
  return i;
}

static void ref_morph(char **a) {   /* IN SIZE OUT */
  static const int cross[5][2] = {{-1, 0}, {0, -1}, {0, 0}, {0, 1}, {1, 0}};
  Img x = load_input(a[0], atoi(a[1])), y = img_new(x.h, x.w, x.c);
  for (int m = 0; m < x.h; m++)
    for (int n = 0; n < x.w; n++)
      for (int k = 0; k < x.c; k++) {
        double lo = 1e9, hi = -1e9;
        for (int i = 0; i < 5; i++) {
          double v = *at(&x, mirror(m + cross[i][0], x.h), mirror(n + cross[i][1], x.w), k);
          lo = v < lo ? v : lo;
          hi = v > hi ? v : hi;
        }
        *at(&y, m, n, k) = hi - lo;
      }
  compare("morph", a[2], &y, 0, 0, &x);
}

static Img gray(Img *x) {
  Img g = img_new(x->h, x->w, 1);
  for (int m = 0; m < x->h; m++)
    for (int n = 0; n < x->w; n++) *at(&g, m, n, 0) = (*at(x, m, n, 0) + *at(x, m, n, 1) + *at(x, m, n, 2)) / 3;
  return g;
}

static int cmp_double(const void *p, const void *q) {
  double a = *(const double *)p, b = *(const double *)q;
  return (a > b) - (a < b);
}

static void ref_bitonic(char **a) {   /* IN SIZE OUT */
  Img x = load_input(a[0], atoi(a[1])), g = gray(&x);
  for (int m = 0; m < g.h; m++) qsort(at(&g, m, 0, 0), g.w, sizeof(double), cmp_double);
  compare("bitonic", a[2], &g, 0, 0, NULL);
}

static void ref_matmul(char **a) {   /* IN SIZE OUT */
  Img x = load_input(a[0], atoi(a[1])), g = gray(&x), y = img_new(g.h, g.w, 1);
  for (int m = 0; m < g.h; m++)
    for (int n = 0; n < g.w; n++)
      *at(&y, m, n, 0) = (zero_outside(&g, m, n - 1, 0) + *at(&g, m, n, 0) + zero_outside(&g, m, n + 1, 0)) / 3;
  compare("matmul", a[2], &y, 1, 0, NULL);
}

static void ref_transpose(char **a) {   /* IN SIZE OUT */
  Img x = load_input(a[0], atoi(a[1])), y = img_new(x.w, x.h, x.c);
  for (int m = 0; m < x.h; m++)
    for (int n = 0; n < x.w; n++)
      for (int k = 0; k < x.c; k++) *at(&y, n, m, k) = *at(&x, m, n, k);
  compare("transpose", a[2], &y, 0, 0, NULL);
}

static void ref_sums(char **a) {   /* IN SIZE PRINTED */
  Img x = load_input(a[0], atoi(a[1]));
  double s = 0, mx = 0;
  size_t n = (size_t)x.h * x.w * x.c;
  for (size_t i = 0; i < n; i++) s += x.v[i], mx = x.v[i] > mx ? x.v[i] : mx;
  check_close(a[2], "samples", (double)n, 0);
  /* single-precision sums of up to 2^22 integers of 0..255 */
  check_close(a[2], "my_sum", s, 1e-5);
  check_close(a[2], "parallel_reduction sum", s, 1e-5);
  check_close(a[2], "parallel_reduction max", mx, 0);
  check_close(a[2], "r_sum", s, 1e-5);
  check_close(a[2], "sum (through the reduction)", s, 1e-5);
}

static void ref_dot(char **a) {   /* IN SIZE PRINTED */
  Img x = load_input(a[0], atoi(a[1]));
  double n = (double)x.h * x.w, rg = 0, rr = 0, gg = 0, sr = 0, sg = 0;
  for (int m = 0; m < x.h; m++)
    for (int k = 0; k < x.w; k++) {
      double r = *at(&x, m, k, 0), g = *at(&x, m, k, 1);
      rg += r * g, rr += r * r, gg += g * g, sr += r, sg += g;
    }
  check_close(a[2], "pixels", n, 0);
  check_close(a[2], "dot(red, green)", rg, 1e-5);
  check_close(a[2], "dot(red, red)", rr, 1e-5);
  check_close(a[2], "correlation(red, green)", (n * rg - sr * sg) / sqrt((n * rr - sr * sr) * (n * gg - sg * sg)), 1e-3);
}

static void ref_hist000(char **a) {   /* IN SIZE PRINTED PLOT */
  Img x = load_input(a[0], atoi(a[1]));
  double h[256] = {0};
  for (size_t i = 0; i < (size_t)x.h * x.w * x.c; i++) h[(int)x.v[i]]++;
  check_counts(a[2], "histogram", h, 256);
  check_plot(a[3], h, 1, 256, 100);
}

static void ref_hist002(char **a) {   /* IN SIZE PRINTED PLOT */
  Img x = load_input(a[0], atoi(a[1]));
  int w = x.w - x.w % 16;
  double h[3 * 256] = {0};
  for (int m = 0; m < x.h; m++)
    for (int n = 0; n < w; n++)
      for (int k = 0; k < 3; k++) h[k * 256 + (int)*at(&x, m, n, k)]++;
  check_close(a[2], "pixels", (double)x.h * w, 0);
  check_counts(a[2], "red", h, 256);
  check_counts(a[2], "green", h + 256, 256);
  check_counts(a[2], "blue", h + 512, 256);
  check_plot(a[3], h, 3, 256, 100);
}

static void ref_hist004(char **a) {   /* IN SIZE CAP PRINTED PLOT */
  Img x = load_input(a[0], atoi(a[1]));
  double cap = atof(a[2]), h[2048] = {0};
  for (int m = 0; m < x.h; m++)
    for (int n = 0; n < x.w; n++) h[8 * (int)*at(&x, m, n, 0) + (int)*at(&x, m, n, 1) / 32]++;
  int capped = 0;
  for (int b = 0; b < 2048; b++)
    if (h[b] > cap) h[b] = cap, capped++;
  check_counts(a[3], "naive", h, 2048);
  check_counts(a[3], "shared", h, 2048);
  printf("ok %d bins saturated at %g\n", capped, cap);
  check_plot(a[4], h, 1, 2048, 100);
}

/* tests/examples/show.q's files: x[m,n] = 6m + n on 4 x 6 pixels, shown five ways. */
static void ref_show(char **a) {   /* DIR */
  Img want[5];
  for (int f = 0; f < 5; f++) want[f] = img_new(4, 6, f == 3 ? 3 : 1);
  for (int m = 0; m < 4; m++)
    for (int n = 0; n < 6; n++) {
      double x = 6 * m + n;
      *at(&want[0], m, n, 0) = 10 * x;
      *at(&want[1], m, n, 0) = x * 255 / 23;   /* imshow(x, []) */
      *at(&want[2], m, n, 0) = x * 255 / 46;   /* imshow(x, [0, 46]) */
      *at(&want[3], m, n, 1) = 5 * x;          /* the hold("on") image replaced the first */
      *at(&want[4], m, n, 0) = 255 - 10 * x;
    }
  for (int f = 0; f < 5; f++) {
    char path[4200], what[40];
    snprintf(path, sizeof path, "%s/show_imshow%d.png", a[0], f + 1);
    snprintf(what, sizeof what, "imshow %d", f + 1);
    compare(what, path, &want[f], 0, 0, NULL);
  }
}

static const struct { const char *name; int nargs; void (*fn)(char **); } commands[] = {
  {"show", 1, ref_show},
  {"gamma", 3, ref_gamma}, {"mandelbrot", 3, ref_mandelbrot}, {"rotate", 7, ref_rotate},
  {"haar", 5, ref_haar}, {"filter3x3", 5, ref_filter}, {"gaussian", 3, ref_gaussian},
  {"morph", 3, ref_morph}, {"bitonic", 3, ref_bitonic}, {"matmul", 3, ref_matmul},
  {"transpose", 3, ref_transpose}, {"sums", 3, ref_sums}, {"dot", 3, ref_dot},
  {"hist_000", 4, ref_hist000}, {"hist_002", 4, ref_hist002}, {"hist_004", 5, ref_hist004},
};

int main(int argc, char **argv) {
  for (size_t i = 0; argc >= 2 && i < sizeof commands / sizeof *commands; i++)
    if (!strcmp(argv[1], commands[i].name)) {
      if (argc - 2 != commands[i].nargs) fail("%s takes %d arguments", argv[1], commands[i].nargs);
      commands[i].fn(argv + 2);
      return 0;
    }
  fail("usage: ref COMMAND ARGS... (unknown command %s)", argc >= 2 ? argv[1] : "(none)");
}
