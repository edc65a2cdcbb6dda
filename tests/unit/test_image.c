/* test_image.c: unit tests of rt_image.c (imread, imwrite, imwrite16).
   Every case runs in a forked child, so that an rt_error (exit 1) or a crash in one case
   neither hides nor stops the others. Cases that must fail check that the child exited
   with status 1 (not a signal, not a sanitizer's code) and printed exactly one line, the
   runtime error, naming the file. Independent inputs come from writers in this file: PNG
   and TIFF files built byte by byte, an interlaced PNG through libpng's own API, a CMYK
   JPEG through libjpeg; and PNGs that rt_imwrite wrote are checked with libpng's simplified
   reader. The last line printed is "N passed, N failed". */
#include "../../src/runtime/rt_image.h"
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <png.h>
#include <jpeglib.h>

RtConfig rt_config;
/* value.h releases functions through the interpreter; none are made here. */
void callable_free(Callable *c) { (void)c; }

static const SrcLoc NOLOC = {0};
static int passed, failed;
static char dir[64];           /* scratch directory */
static char errfile[128];      /* a child's stderr */

/* ---------------------------------- helpers ---------------------------------- */

static char *tmp(const char *name) {
  static char buf[8][256];
  static int k;
  char *p = buf[k++ % 8];
  snprintf(p, 256, "%s/%s", dir, name);
  return p;
}

static size_t el_bytes(ElemType e) {
  switch (e) {
  case EL_F64: case EL_I64: case EL_C64: return 8;
  case EL_C128: return 16;
  case EL_F32: case EL_I32: case EL_U32: return 4;
  case EL_I16: case EL_U16: return 2;
  default: return 1;
  }
}

static Array *mk(ElemType e, int rank, int64_t d0, int64_t d1, int64_t d2) {
  Array *a = calloc(1, sizeof *a);
  a->refcount = 1;
  a->elem = e;
  a->rank = rank;
  int64_t d[3] = {d0, d1, d2};
  a->numel = 1;
  for (int i = 0; i < rank; i++) a->dims[i] = d[i], a->numel *= d[i];
  a->data = calloc(a->numel ? a->numel : 1, el_bytes(e));
  return a;
}

static void arr_free(Array *a) {
  if (a) free(a->data);
  free(a);
}

static void set(Array *a, int64_t i, double v) {
  switch (a->elem) {
  case EL_F32: ((float *)a->data)[i] = (float)v; break;
  case EL_F64: ((double *)a->data)[i] = v; break;
  case EL_I32: ((int32_t *)a->data)[i] = (int32_t)v; break;
  case EL_U8: ((uint8_t *)a->data)[i] = (uint8_t)v; break;
  case EL_I8: ((int8_t *)a->data)[i] = (int8_t)v; break;
  case EL_U16: ((uint16_t *)a->data)[i] = (uint16_t)v; break;
  case EL_I16: ((int16_t *)a->data)[i] = (int16_t)v; break;
  case EL_U32: ((uint32_t *)a->data)[i] = (uint32_t)v; break;
  case EL_I64: ((int64_t *)a->data)[i] = (int64_t)v; break;
  default: break;
  }
}

static double get(const Array *a, int64_t i) {
  return a->elem == EL_F64 ? ((double *)a->data)[i] : ((float *)a->data)[i];
}

/* A test pattern of integers 0..255 that uses both ends of the range. */
static double pattern(int64_t y, int64_t x, int64_t c) {
  if (x == 0 && y == 0) return c & 1 ? 255 : 0;
  return (double)((x * 7 + y * 13 + c * 61 + x * y) % 256);
}

static Array *pattern_image(ElemType e, int rank, int64_t h, int64_t w, int64_t ch) {
  Array *a = mk(e, rank, h, w, ch);
  if (rank == 2) ch = 1;
  for (int64_t y = 0; y < h; y++)
    for (int64_t x = 0; x < w; x++)
      for (int64_t c = 0; c < ch; c++) set(a, (y * w + x) * ch + c, pattern(y, x, c));
  return a;
}

/* Complains on stderr (shown by the parent) and returns false. */
static bool no(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static bool no(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  return false;
}

static bool shape_is(const Array *a, int64_t h, int64_t w, int64_t ch) {
  ElemType want = rt_config.double_precision ? EL_F64 : EL_F32;
  if (a->rank != 3 || a->dims[0] != h || a->dims[1] != w || a->dims[2] != ch ||
      a->numel != h * w * ch || a->elem != want || a->refcount != 1)
    return no("shape: got rank %d %lldx%lldx%lld elem %d, want %lldx%lldx%lld elem %d", a->rank,
              (long long)a->dims[0], (long long)a->dims[1], (long long)a->dims[2], a->elem,
              (long long)h, (long long)w, (long long)ch, want);
  return true;
}

/* Exact comparison with the pattern (channels taken from the source, ch of them). */
static bool equals_pattern(const Array *a, int64_t h, int64_t w, int64_t ch) {
  if (!shape_is(a, h, w, ch)) return false;
  for (int64_t i = 0; i < a->numel; i++) {
    int64_t c = i % ch, x = i / ch % w, y = i / ch / w;
    if (get(a, i) != pattern(y, x, c))
      return no("pixel (%lld,%lld,%lld): got %g, want %g", (long long)y, (long long)x,
                (long long)c, get(a, i), pattern(y, x, c));
  }
  return true;
}

static void write_file(const char *path, const void *p, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(p, 1, n, f) != n || fclose(f)) { perror(path); exit(2); }
}

static unsigned char *read_file(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); exit(2); }
  fseek(f, 0, SEEK_END);
  *n = (size_t)ftell(f);
  rewind(f);
  unsigned char *p = malloc(*n + 1);
  if (fread(p, 1, *n, f) != *n) { perror(path); exit(2); }
  fclose(f);
  return p;
}

/* ------------------------------ running cases ------------------------------ */

typedef bool (*CaseFn)(const void *arg);

static void report(bool ok, const char *name, const char *why) {
  if (ok) { passed++; return; }
  failed++;
  printf("FAIL %s\n", name);
  if (why && *why) printf("  | %s", why);
}

static char *child_stderr(void) {
  size_t n;
  char *s = (char *)read_file(errfile, &n);
  s[n] = 0;
  return s;
}

static int run_child(CaseFn fn, const void *arg) {
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 2);
    close(fd);
    exit(fn(arg) ? 0 : 3);
  }
  int st;
  waitpid(pid, &st, 0);
  return st;
}

/* fn must succeed. */
static void ok_case(const char *name, CaseFn fn, const void *arg) {
  int st = run_child(fn, arg);
  char *err = child_stderr();
  bool ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
  if (!ok && !*err) {
    free(err);
    err = malloc(64);
    snprintf(err, 64, "child status %d\n", st);
  }
  report(ok, name, err);
  free(err);
}

/* fn must end in one runtime error that names `file` and contains `text` (if any). */
static void err_case(const char *name, CaseFn fn, const void *arg, const char *file,
                     const char *text) {
  int st = run_child(fn, arg);
  char *err = child_stderr(), why[256] = "";
  const char *nl = strchr(err, '\n');
  if (!WIFEXITED(st)) snprintf(why, sizeof why, "killed by signal %d\n", WTERMSIG(st));
  else if (WEXITSTATUS(st) != 1) snprintf(why, sizeof why, "exit status %d\n", WEXITSTATUS(st));
  else if (strncmp(err, "oq: runtime error: ", 19) != 0 || !nl || nl[1])
    snprintf(why, sizeof why, "stderr is not one runtime error line\n");
  else if (!strstr(err, file)) snprintf(why, sizeof why, "message does not name %s\n", file);
  else if (text && !strstr(err, text)) snprintf(why, sizeof why, "message lacks '%s'\n", text);
  report(!why[0], name, why);
  if (why[0]) printf("  | stderr: %s", err);
  free(err);
}

/* ------------------------------ round trips ------------------------------ */

typedef struct Trip {
  const char *ext;
  int rank, ch, bits;
  ElemType elem;     /* of the array written */
  bool dbl;          /* double precision */
} Trip;

static bool trip_exact(const void *p) {
  const Trip *t = p;
  rt_config.double_precision = t->dbl;
  int64_t h = 23, w = 37;   /* odd sizes catch stride mistakes */
  Array *a = pattern_image(t->elem, t->rank, h, w, t->ch);
  char name[64];
  snprintf(name, sizeof name, "trip%d.%s", t->bits, t->ext);
  if (t->bits == 16) rt_imwrite16(tmp(name), a, NOLOC);
  else rt_imwrite(tmp(name), a, NOLOC);
  Array *b = rt_imread(tmp(name), NOLOC);
  bool ok = equals_pattern(b, h, w, t->rank == 2 ? 1 : t->ch);
  arr_free(a);
  arr_free(b);
  return ok;
}

/* A smooth RGB gradient survives JPEG within a mean error of 3. */
static bool jpeg_gradient(const void *p) {
  int ch = *(const int *)p;   /* channels written: 1, 2, 3 or 4 */
  int64_t h = 48, w = 64;
  Array *a = mk(EL_F32, 3, h, w, ch);
  for (int64_t y = 0; y < h; y++)
    for (int64_t x = 0; x < w; x++)
      for (int c = 0; c < ch; c++) set(a, (y * w + x) * ch + c, 10 + 2 * x + y + 10 * c);
  rt_imwrite(tmp("grad.JPG"), a, NOLOC);
  Array *b = rt_imread(tmp("grad.JPG"), NOLOC);
  int out = ch >= 3 ? 3 : 1;   /* alpha is dropped */
  bool ok = shape_is(b, h, w, out);
  double sum = 0;
  for (int64_t i = 0; ok && i < h * w; i++)
    for (int c = 0; c < out; c++) sum += fabs(get(b, i * out + c) - get(a, i * ch + c));
  double mean = sum / (double)(h * w * out);
  if (ok && !(mean < 3)) ok = no("mean abs error %g", mean);
  arr_free(a);
  arr_free(b);
  return ok;
}

/* Rounding and clamping of imwrite, from several element types. */
static bool clamp_values(const void *p) {
  ElemType e = *(const ElemType *)p;
  bool is_float = e == EL_F32 || e == EL_F64, is_signed = e != EL_U8 && e != EL_U16 && e != EL_U32;
  double in[] = {-10, 300, 127.4, 127.5, 0, 255, 1e30, NAN, 70000};
  double want[] = {0, 255, 127, 128, 0, 255, 255, 0, 255};
  int n = 9;
  Array *a = mk(e, 2, 1, n, 0);
  for (int i = 0; i < n; i++) {
    double v = in[i];
    if (!is_float && (isnan(v) || v != floor(v) || fabs(v) > 1e9)) v = 0;
    if (!is_signed && v < 0) v = 0;
    if ((e == EL_U8 || e == EL_I8) && v > 127) v = e == EL_U8 ? 255 : 127;
    if (e == EL_I16 && v > 32767) v = 32767;
    if (e == EL_U16 && v > 65535) v = 65535;
    set(a, i, v);
    in[i] = v;
    want[i] = isnan(v) || v <= 0 ? 0 : v >= 255 ? 255 : floor(v + 0.5);
  }
  rt_imwrite(tmp("clamp.png"), a, NOLOC);
  Array *b = rt_imread(tmp("clamp.png"), NOLOC);
  bool ok = shape_is(b, 1, n, 1);
  for (int i = 0; ok && i < n; i++)
    if (get(b, i) != want[i]) ok = no("value %g: got %g, want %g", in[i], get(b, i), want[i]);
  arr_free(a);
  arr_free(b);
  return ok;
}

/* The file's first bytes decide, not its name. */
static bool magic_not_extension(const void *p) {
  (void)p;
  Array *a = pattern_image(EL_F32, 3, 5, 6, 3);
  rt_imwrite(tmp("real.png"), a, NOLOC);
  rename(tmp("real.png"), tmp("fake.jpg"));
  Array *b = rt_imread(tmp("fake.jpg"), NOLOC);
  bool ok = equals_pattern(b, 5, 6, 3);
  rt_imwrite(tmp("real.tif"), a, NOLOC);
  rename(tmp("real.tif"), tmp("fake.dat"));
  Array *c = rt_imread(tmp("fake.dat"), NOLOC);
  ok = ok && equals_pattern(c, 5, 6, 3);
  arr_free(a);
  arr_free(b);
  arr_free(c);
  return ok;
}

/* imwrite's PNG as libpng's simplified reader sees it. */
static bool png_read_by_libpng(const void *p) {
  (void)p;
  Array *a = pattern_image(EL_F64, 3, 9, 11, 4);
  rt_imwrite(tmp("ind.png"), a, NOLOC);
  png_image im;
  memset(&im, 0, sizeof im);
  im.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&im, tmp("ind.png"))) return no("libpng: %s", im.message);
  im.format = PNG_FORMAT_RGBA;
  unsigned char buf[9 * 11 * 4];
  bool ok = im.width == 11 && im.height == 9 && png_image_finish_read(&im, NULL, buf, 0, NULL);
  for (int i = 0; ok && i < 9 * 11 * 4; i++)
    if (buf[i] != pattern(i / 4 / 11, i / 4 % 11, i % 4)) ok = no("byte %d differs", i);
  png_image_free(&im);
  arr_free(a);
  return ok || no("libpng read %ux%u", im.width, im.height);
}

/* ------------------------- PNG files built by hand ------------------------- */

typedef struct Buf { unsigned char *p; size_t n, cap; } Buf;

static void put(Buf *b, const void *p, size_t n) {
  if (b->n + n > b->cap) b->p = realloc(b->p, b->cap = (b->n + n) * 2 + 64);
  memcpy(b->p + b->n, p, n);
  b->n += n;
}
static void put8(Buf *b, unsigned v) { unsigned char c = (unsigned char)v; put(b, &c, 1); }
static void put16be(Buf *b, unsigned v) { put8(b, v >> 8); put8(b, v); }
static void put32be(Buf *b, uint32_t v) { put16be(b, v >> 16); put16be(b, v & 0xFFFF); }
static void put16le(Buf *b, unsigned v) { put8(b, v); put8(b, v >> 8); }
static void put32le(Buf *b, uint32_t v) { put16le(b, v & 0xFFFF); put16le(b, v >> 16); }

static uint32_t crc32_of(const unsigned char *p, size_t n) {
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; i++) {
    c ^= p[i];
    for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
  }
  return c ^ 0xFFFFFFFFu;
}

static uint32_t adler32_of(const unsigned char *p, size_t n) {
  uint32_t a = 1, b = 0;
  for (size_t i = 0; i < n; i++) a = (a + p[i]) % 65521, b = (b + a) % 65521;
  return b << 16 | a;
}

static void chunk(Buf *b, const char *type, const void *data, size_t n) {
  Buf t = {0};
  put(&t, type, 4);
  if (n) put(&t, data, n);
  put32be(b, (uint32_t)n);
  put(b, t.p, t.n);
  put32be(b, crc32_of(t.p, t.n));
  free(t.p);
}

/* A PNG whose IDAT is a zlib stream of stored (uncompressed) deflate blocks. rows holds
   h rows of rowbytes each, filter type 0 is prepended here. */
typedef struct HandPng {
  uint32_t w, h;
  int depth, color;
  const unsigned char *rows;
  size_t rowbytes;
  const unsigned char *plte;
  size_t nplte;
  const unsigned char *trns;
  size_t ntrns;
} HandPng;

static Buf hand_png(const HandPng *s) {
  Buf raw = {0}, z = {0}, f = {0}, ihdr = {0};
  for (uint32_t y = 0; y < s->h; y++) {
    put8(&raw, 0);
    put(&raw, s->rows + y * s->rowbytes, s->rowbytes);
  }
  put8(&z, 0x78), put8(&z, 0x01);
  for (size_t off = 0; off < raw.n || off == 0; off += 65535) {
    size_t len = raw.n - off > 65535 ? 65535 : raw.n - off;
    put8(&z, off + len >= raw.n);
    put16le(&z, (unsigned)len), put16le(&z, (unsigned)~len & 0xFFFF);
    put(&z, raw.p + off, len);
    if (!raw.n) break;
  }
  put32be(&z, adler32_of(raw.p, raw.n));
  put(&f, "\x89PNG\r\n\x1a\n", 8);
  put32be(&ihdr, s->w), put32be(&ihdr, s->h);
  put8(&ihdr, s->depth), put8(&ihdr, s->color), put8(&ihdr, 0), put8(&ihdr, 0), put8(&ihdr, 0);
  chunk(&f, "IHDR", ihdr.p, ihdr.n);
  if (s->plte) chunk(&f, "PLTE", s->plte, s->nplte);
  if (s->trns) chunk(&f, "tRNS", s->trns, s->ntrns);
  chunk(&f, "IDAT", z.p, z.n);
  chunk(&f, "IEND", NULL, 0);
  free(raw.p), free(z.p), free(ihdr.p);
  return f;
}

static void save_png(const char *path, const HandPng *s) {
  Buf f = hand_png(s);
  write_file(path, f.p, f.n);
  free(f.p);
}

static bool hand_png_rgb(const void *p) {
  (void)p;
  enum { W = 300, H = 250 };   /* > 64 KiB of raw data: several stored blocks */
  static unsigned char rows[H][W * 3];
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W * 3; x++) rows[y][x] = (unsigned char)pattern(y, x / 3, x % 3);
  HandPng s = {.w = W, .h = H, .depth = 8, .color = 2, .rows = &rows[0][0], .rowbytes = W * 3};
  save_png(tmp("hand_rgb.png"), &s);
  Array *a = rt_imread(tmp("hand_rgb.png"), NOLOC);
  bool ok = equals_pattern(a, H, W, 3);
  arr_free(a);
  return ok;
}

/* 1-bit gray: 0/1 become 0/255. */
static bool hand_png_1bit(const void *p) {
  (void)p;
  unsigned char rows[3][2] = {{0xA5, 0x80}, {0xFF, 0x00}, {0x01, 0xC0}};   /* 10 pixels wide */
  save_png(tmp("hand_1bit.png"),
           &(HandPng){.w = 10, .h = 3, .depth = 1, .rows = &rows[0][0], .rowbytes = 2});
  Array *a = rt_imread(tmp("hand_1bit.png"), NOLOC);
  bool ok = shape_is(a, 3, 10, 1);
  for (int y = 0; ok && y < 3; y++)
    for (int x = 0; ok && x < 10; x++) {
      double want = (rows[y][x / 8] >> (7 - x % 8) & 1) * 255.0;
      double got = get(a, y * 10 + x);
      if (got != want) ok = no("(%d,%d) = %g, want %g", y, x, got, want);
    }
  arr_free(a);
  return ok;
}

/* A 4-bit palette with transparency expands to RGBA; without tRNS to RGB. */
static bool hand_png_palette(const void *p) {
  bool with_trns = *(const bool *)p;
  unsigned char plte[3 * 3] = {10, 20, 30, 200, 100, 0, 255, 255, 255};
  unsigned char trns[2] = {0, 128};   /* entry 2 stays opaque */
  unsigned char rows[2][2] = {{0x01, 0x20}, {0x21, 0x00}};   /* 4 pixels: 0 1 2 0 / 2 1 0 0 */
  int idx[2][4] = {{0, 1, 2, 0}, {2, 1, 0, 0}};
  save_png(tmp("hand_pal.png"), &(HandPng){4, 2, 4, 3, &rows[0][0], 2, plte, 9,
                                          with_trns ? trns : NULL, with_trns ? 2 : 0});
  Array *a = rt_imread(tmp("hand_pal.png"), NOLOC);
  int ch = with_trns ? 4 : 3;
  bool ok = shape_is(a, 2, 4, ch);
  for (int y = 0; ok && y < 2; y++)
    for (int x = 0; x < 4; x++)
      for (int c = 0; c < ch; c++) {
        int k = idx[y][x];
        double want = c < 3 ? plte[3 * k + c] : k < 2 ? trns[k] : 255;
        if (get(a, (y * 4 + x) * ch + c) != want) ok = no("(%d,%d,%d) wrong", y, x, c);
      }
  arr_free(a);
  return ok;
}

/* 16-bit gray: samples / 257. */
static bool hand_png_16bit(const void *p) {
  (void)p;
  unsigned v[5] = {0, 257, 65535, 1000, 32768};
  unsigned char row[10];
  for (int i = 0; i < 5; i++) row[2 * i] = v[i] >> 8, row[2 * i + 1] = v[i] & 0xFF;
  save_png(tmp("hand_16.png"),
           &(HandPng){.w = 5, .h = 1, .depth = 16, .rows = row, .rowbytes = 10});
  Array *a = rt_imread(tmp("hand_16.png"), NOLOC);
  bool ok = shape_is(a, 1, 5, 1);
  for (int i = 0; ok && i < 5; i++) {
    double want = v[i] / 257.0;
    if (fabs(get(a, i) - want) > 1e-4) ok = no("%u: got %g, want %g", v[i], get(a, i), want);
  }
  arr_free(a);
  return ok;
}

/* Gray with a tRNS key color becomes gray+alpha. */
static bool hand_png_gray_key(const void *p) {
  (void)p;
  unsigned char row[3] = {7, 50, 7}, trns[2] = {0, 7};
  save_png(tmp("hand_key.png"), &(HandPng){3, 1, 8, 0, row, 3, NULL, 0, trns, 2});
  Array *a = rt_imread(tmp("hand_key.png"), NOLOC);
  double want[6] = {7, 0, 50, 255, 7, 0};
  bool ok = shape_is(a, 1, 3, 2);
  for (int i = 0; ok && i < 6; i++)
    if (get(a, i) != want[i]) ok = no("sample %d: %g, want %g", i, get(a, i), want[i]);
  arr_free(a);
  return ok;
}

/* Interlaced (Adam7) RGBA PNG written with libpng's classic API. */
static bool libpng_interlaced(const void *p) {
  (void)p;
  enum { W = 19, H = 13 };
  static unsigned char px[H][W * 4];
  png_bytep rows[H];
  for (int y = 0; y < H; y++) {
    rows[y] = px[y];
    for (int x = 0; x < W * 4; x++) px[y][x] = (unsigned char)pattern(y, x / 4, x % 4);
  }
  FILE *f = fopen(tmp("adam7.png"), "wb");
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png_create_info_struct(png);
  if (setjmp(png_jmpbuf(png))) return no("libpng write failed");
  png_init_io(png, f);
  png_set_IHDR(png, info, W, H, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_ADAM7,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, 9);
  png_write_info(png, info);
  png_write_image(png, rows);
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  fclose(f);
  Array *a = rt_imread(tmp("adam7.png"), NOLOC);
  bool ok = equals_pattern(a, H, W, 4);
  arr_free(a);
  return ok;
}

/* ------------------------- TIFF files built by hand ------------------------- */

typedef struct HandTiff {
  bool be;                 /* "MM" big-endian, else "II" */
  uint32_t w, h;
  int bps, spp, photo;
  const unsigned char *data;   /* uncompressed strip, in the file's byte order */
  size_t n;
  bool palette;            /* 8-bit colormap: entry k is (k, 255-k, k/2) * 257 */
} HandTiff;

static Buf hand_tiff(const HandTiff *t) {
  Buf b = {0};
  void (*p16)(Buf *, unsigned) = t->be ? put16be : put16le;
  void (*p32)(Buf *, uint32_t) = t->be ? put32be : put32le;
  put(&b, t->be ? "MM" : "II", 2);
  p16(&b, 42);
  uint32_t data_off = 8, bps_off = (uint32_t)(8 + t->n), cmap_off = bps_off + 2 * t->spp;
  uint32_t ifd_off = cmap_off + (t->palette ? 3 * 256 * 2 : 0);
  ifd_off += ifd_off & 1;
  p32(&b, ifd_off);
  put(&b, t->data, t->n);
  for (int i = 0; i < t->spp; i++) p16(&b, t->bps);
  for (int c = 0; t->palette && c < 3; c++)
    for (int k = 0; k < 256; k++) p16(&b, (c == 0 ? k : c == 1 ? 255 - k : k / 2) * 257);
  while (b.n < ifd_off) put8(&b, 0);
  int n = 10 + t->palette;
  p16(&b, n);
  /* tag, type (3 SHORT, 4 LONG), count, value */
  struct { unsigned tag, type; uint32_t count, value; } e[] = {
    {256, 4, 1, t->w}, {257, 4, 1, t->h},
    {258, 3, (uint32_t)t->spp, t->spp == 1 ? (uint32_t)t->bps : bps_off},
    {259, 3, 1, 1}, {262, 3, 1, (uint32_t)t->photo}, {273, 4, 1, data_off},
    {277, 3, 1, (uint32_t)t->spp}, {278, 4, 1, t->h}, {279, 4, 1, (uint32_t)t->n},
    {284, 3, 1, 1}, {320, 3, 3 * 256, cmap_off},
  };
  for (int i = 0; i < n; i++) {
    p16(&b, e[i].tag), p16(&b, e[i].type), p32(&b, e[i].count);
    bool inline16 = e[i].type == 3 && e[i].count == 1;
    if (inline16) p16(&b, e[i].value), p16(&b, 0);
    else p32(&b, e[i].value);
  }
  p32(&b, 0);
  return b;
}

static void save_tiff(const char *path, const HandTiff *t) {
  Buf b = hand_tiff(t);
  write_file(path, b.p, b.n);
  free(b.p);
}

static bool hand_tiff_rgb(const void *p) {
  (void)p;
  enum { W = 13, H = 7 };
  unsigned char d[H * W * 3];
  for (int i = 0; i < H * W * 3; i++) d[i] = (unsigned char)pattern(i / 3 / W, i / 3 % W, i % 3);
  save_tiff(tmp("hand_rgb.tif"), &(HandTiff){false, W, H, 8, 3, 2, d, sizeof d, false});
  Array *a = rt_imread(tmp("hand_rgb.tif"), NOLOC);
  bool ok = equals_pattern(a, H, W, 3);
  arr_free(a);
  return ok;
}

/* Big-endian 16-bit gray. */
static bool hand_tiff_16be(const void *p) {
  (void)p;
  unsigned v[4] = {0, 65535, 257 * 100, 12345};
  unsigned char d[8];
  for (int i = 0; i < 4; i++) d[2 * i] = v[i] >> 8, d[2 * i + 1] = v[i] & 0xFF;
  save_tiff(tmp("hand_16.tif"), &(HandTiff){true, 2, 2, 16, 1, 1, d, 8, false});
  Array *a = rt_imread(tmp("hand_16.tif"), NOLOC);
  bool ok = shape_is(a, 2, 2, 1);
  for (int i = 0; ok && i < 4; i++)
    if (fabs(get(a, i) - v[i] / 257.0) > 1e-4) ok = no("%u read as %g", v[i], get(a, i));
  arr_free(a);
  return ok;
}

/* 1-bit, 0 is white. */
static bool hand_tiff_1bit(const void *p) {
  (void)p;
  unsigned char d[2] = {0xF0, 0x3C};   /* 8x2 */
  save_tiff(tmp("hand_1.tif"), &(HandTiff){false, 8, 2, 1, 1, 0, d, 2, false});
  Array *a = rt_imread(tmp("hand_1.tif"), NOLOC);
  bool ok = shape_is(a, 2, 8, 1);
  for (int i = 0; ok && i < 16; i++) {
    double want = (d[i / 8] >> (7 - i % 8) & 1) ? 0 : 255;
    if (get(a, i) != want) ok = no("pixel %d: %g, want %g", i, get(a, i), want);
  }
  arr_free(a);
  return ok;
}

/* 8-bit palette: through libtiff's RGBA reader, to RGB. */
static bool hand_tiff_palette(const void *p) {
  (void)p;
  unsigned char d[6] = {0, 1, 100, 200, 254, 255};
  save_tiff(tmp("hand_pal.tif"), &(HandTiff){true, 3, 2, 8, 1, 3, d, 6, true});
  Array *a = rt_imread(tmp("hand_pal.tif"), NOLOC);
  bool ok = shape_is(a, 2, 3, 3);
  for (int i = 0; ok && i < 6; i++) {
    double want[3] = {d[i], 255 - d[i], d[i] / 2};
    for (int c = 0; c < 3; c++)
      if (get(a, i * 3 + c) != want[c])
        ok = no("index %d channel %d: %g", d[i], c, get(a, i * 3 + c));
  }
  arr_free(a);
  return ok;
}

/* -------------------------- CMYK JPEG from libjpeg -------------------------- */

static bool libjpeg_cmyk(const void *p) {
  (void)p;
  enum { W = 16, H = 16 };
  unsigned char stored[4] = {255, 128, 64, 200};   /* Adobe style: inverted ink */
  unsigned char row[W * 4];
  for (int x = 0; x < W; x++) memcpy(row + 4 * x, stored, 4);
  struct jpeg_compress_struct c;
  struct jpeg_error_mgr e;
  c.err = jpeg_std_error(&e);
  jpeg_create_compress(&c);
  FILE *f = fopen(tmp("cmyk.jpg"), "wb");
  jpeg_stdio_dest(&c, f);
  c.image_width = W, c.image_height = H, c.input_components = 4, c.in_color_space = JCS_CMYK;
  jpeg_set_defaults(&c);
  jpeg_set_quality(&c, 100, TRUE);
  jpeg_start_compress(&c, TRUE);
  for (int y = 0; y < H; y++) {
    JSAMPROW r = row;
    jpeg_write_scanlines(&c, &r, 1);
  }
  jpeg_finish_compress(&c);
  jpeg_destroy_compress(&c);
  fclose(f);
  Array *a = rt_imread(tmp("cmyk.jpg"), NOLOC);
  bool ok = shape_is(a, H, W, 3);
  for (int i = 0; ok && i < W * H; i++)
    for (int ch = 0; ch < 3; ch++) {
      double want = stored[ch] * stored[3] / 255.0;
      double got = get(a, i * 3 + ch);
      if (fabs(got - want) > 3) ok = no("pixel %d: %g, want %g", i, got, want);
    }
  arr_free(a);
  return ok;
}

/* ----------------------------- the photograph ----------------------------- */

static bool photo(const void *p) {
  const char *path = p;
  Array *a = rt_imread(path, NOLOC);
  bool ok = shape_is(a, 300, 451, 3);
  double sum = 0;
  for (int64_t i = 0; ok && i < a->numel; i++) sum += get(a, i);
  double mean = ok ? sum / (double)a->numel : 0;
  if (ok && !(mean > 20 && mean < 235)) ok = no("implausible mean %g", mean);
  if (ok) {   /* and back through PNG, exactly */
    rt_imwrite(tmp("photo.png"), a, NOLOC);
    Array *b = rt_imread(tmp("photo.png"), NOLOC);
    for (int64_t i = 0; ok && i < a->numel; i++)
      if (get(a, i) != get(b, i)) ok = no("sample %lld differs", (long long)i);
    arr_free(b);
  }
  arr_free(a);
  return ok;
}

/* ------------------------------- error cases ------------------------------- */

static bool do_read(const void *p) {
  Array *a = rt_imread(p, NOLOC);
  arr_free(a);
  return no("imread succeeded");
}

typedef struct BadWrite {
  const char *path;
  Array *a;
  bool sixteen;
} BadWrite;

static bool do_write(const void *p) {
  const BadWrite *w = p;
  if (w->sixteen) rt_imwrite16(w->path, w->a, NOLOC);
  else rt_imwrite(w->path, w->a, NOLOC);
  return no("imwrite succeeded");
}

/* Cuts a valid file at several offsets; each must be refused. */
static void truncated(const char *fmt_name, const char *src) {
  size_t n;
  unsigned char *p = read_file(src, &n);
  size_t cuts[] = {1, 2, 5, 8, 12, 20, 33, 60, 100, n / 3, n / 2, n - 40, n - 12, n - 2, n - 1};
  for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
    if (cuts[i] >= n) continue;
    char name[64], label[96];
    snprintf(name, sizeof name, "cut_%s_%zu", fmt_name, cuts[i]);
    write_file(tmp(name), p, cuts[i]);
    snprintf(label, sizeof label, "truncated %s at %zu of %zu", fmt_name, cuts[i], n);
    err_case(label, do_read, tmp(name), name, NULL);
  }
  free(p);
}

/* Valid magic bytes, then noise. */
static void garbage(const char *fmt_name, const char *magic, size_t nmagic) {
  unsigned seed = 12345;
  size_t sizes[] = {nmagic, 16, 64, 300, 5000};
  for (int i = 0; i < 5; i++) {
    unsigned char buf[5000];
    memcpy(buf, magic, nmagic);
    for (size_t k = nmagic; k < sizes[i]; k++) {
      seed = seed * 1103515245 + 12345;
      buf[k] = (unsigned char)(seed >> 16);
    }
    char name[64], label[96];
    snprintf(name, sizeof name, "junk_%s_%zu", fmt_name, sizes[i]);
    write_file(tmp(name), buf, sizes[i]);
    snprintf(label, sizeof label, "garbage %s, %zu bytes", fmt_name, sizes[i]);
    err_case(label, do_read, tmp(name), name, NULL);
  }
}

/* A PNG whose header claims 70000 x 40000 pixels. */
static void too_large(void) {
  unsigned char idat_row[1] = {0};
  Buf f = hand_png(&(HandPng){.w = 70000, .h = 40000, .depth = 8, .rows = idat_row});
  write_file(tmp("huge.png"), f.p, f.n);
  free(f.p);
  err_case("PNG over 2^31 pixels", do_read, tmp("huge.png"), "huge.png", "too large");
  unsigned char d[1] = {0};
  save_tiff(tmp("huge.tif"), &(HandTiff){false, 70000, 70000, 8, 1, 1, d, 1, false});
  err_case("TIFF over 2^31 pixels", do_read, tmp("huge.tif"), "huge.tif", "too large");
  /* issue 23: 40000 x 40000 pixels in a file of 200 bytes: refused before allocating 6 GB */
  save_tiff(tmp("claims.tif"), &(HandTiff){false, 40000, 40000, 8, 1, 1, d, 1, false});
  err_case("TIFF claiming more pixels than its bytes hold", do_read, tmp("claims.tif"), "claims.tif",
           "bytes can hold");
}

/* A PNG with one byte of image data flipped: a CRC error. */
static void corrupt_png(void) {
  size_t n;
  unsigned char *p = read_file(tmp("trip8.png"), &n);
  p[n / 2] ^= 0x55;
  write_file(tmp("flipped.png"), p, n);
  free(p);
  err_case("PNG with a flipped byte", do_read, tmp("flipped.png"), "flipped.png", NULL);
}

static void write_errors(void) {
  static Array *rgb, *vec, *five, *cplx, *empty;
  rgb = pattern_image(EL_F32, 3, 4, 4, 3);
  vec = mk(EL_F32, 1, 10, 0, 0);
  five = mk(EL_F32, 3, 2, 2, 5);
  cplx = mk(EL_C64, 2, 2, 2, 0);
  empty = mk(EL_F32, 2, 0, 3, 0);
  static BadWrite w[] = {
    {"/nonexistent-dir/out.png", NULL, false}, {"/nonexistent-dir/out.jpg", NULL, false},
    {"/nonexistent-dir/out.tif", NULL, false}, {"out.bmp", NULL, false},
    {"out16.jpg", NULL, true}, {"vec.png", NULL, false}, {"five.png", NULL, false},
    {"complex.tif", NULL, false}, {"emptyarr.png", NULL, false}, {"noimage.png", NULL, false},
  };
  const char *text[] = {"No such file or directory", "No such file or directory",
                        "No such file or directory", "extension", "16-bit", "rank 1",
                        "channels", "complex", "empty", "no image"};
  Array *arrs[] = {rgb, rgb, rgb, rgb, rgb, vec, five, cplx, empty, NULL};
  for (int i = 0; i < 10; i++) {
    w[i].a = arrs[i];
    if (w[i].path[0] != '/') w[i].path = strdup(tmp(w[i].path));
    char label[128];
    snprintf(label, sizeof label, "imwrite refuses %s", strrchr(w[i].path, '/') + 1);
    err_case(label, do_write, &w[i], strrchr(w[i].path, '/') + 1, text[i]);
  }
  /* a directory where the file should go; a failed write leaves no file behind */
  mkdir(tmp("adir.png"), 0755);
  static BadWrite d = {0};
  d.path = strdup(tmp("adir.png")), d.a = rgb;
  err_case("imwrite onto a directory", do_write, &d, "adir.png", "Is a directory");
  report(access(tmp("emptyarr.png"), F_OK) != 0, "a refused write creates no file", "");
  /* write errors after the file is open: /dev/full takes nothing */
  const char *full[] = {"full.png", "full.jpg", "full.tif"};
  static BadWrite fw[3];
  for (int i = 0; i < 3; i++) {
    fw[i].path = strdup(tmp(full[i])), fw[i].a = rgb;
    if (symlink("/dev/full", fw[i].path) != 0) {
      report(false, "symlink to /dev/full", "");
      continue;
    }
    char label[64];
    snprintf(label, sizeof label, "imwrite to a full disk (%s)", full[i]);
    err_case(label, do_write, &fw[i], full[i], NULL);
  }
}

static void read_errors(void) {
  err_case("missing file", do_read, tmp("nope.png"), "nope.png", "No such file or directory");
  write_file(tmp("empty.png"), "", 0);
  err_case("empty file", do_read, tmp("empty.png"), "empty.png", "empty");
  write_file(tmp("text.dat"), "hello, world\n", 13);
  err_case("unknown format", do_read, tmp("text.dat"), "text.dat",
           "is not a PNG, JPEG, TIFF or netpbm image");
  write_file(tmp("short.dat"), "\x89P", 2);
  err_case("two bytes", do_read, tmp("short.dat"), "short.dat", "is not a PNG, JPEG, TIFF or netpbm image");
  mkdir(tmp("dir.png"), 0755);
  err_case("a directory", do_read, tmp("dir.png"), "dir.png", "Is a directory");
  truncated("png", tmp("trip8.png"));
  truncated("jpeg", tmp("grad.JPG"));
  truncated("tiff", tmp("trip8.tif"));
  truncated("tiff16", tmp("trip16.tiff"));
  truncated("handpng", tmp("hand_rgb.png"));
  truncated("handtiff", tmp("hand_rgb.tif"));
  garbage("png", "\x89PNG\r\n\x1a\n", 8);
  garbage("jpeg", "\xFF\xD8\xFF", 3);
  garbage("tiff-le", "II*\0", 4);
  garbage("tiff-be", "MM\0*", 4);
  garbage("bigtiff", "II+\0", 4);
  corrupt_png();
  too_large();
}

/* ----------------------------------- main ----------------------------------- */

static void remove_dir(const char *path) {
  DIR *d = opendir(path);
  for (struct dirent *e; d && (e = readdir(d));) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char p[512];
    snprintf(p, sizeof p, "%s/%s", path, e->d_name);
    if (unlink(p) != 0) remove_dir(p);
  }
  if (d) closedir(d);
  rmdir(path);
}

int main(int argc, char **argv) {
  const char *photo_path = argc > 1 ? argv[1] : "examples/data/chelsea.png";
  snprintf(dir, sizeof dir, "/tmp/oq_image_XXXXXX");
  if (!mkdtemp(dir)) { perror("mkdtemp"); return 2; }
  snprintf(errfile, sizeof errfile, "%s/stderr.txt", dir);

  const char *exts[] = {"png", "tif", "tiff", "PNG"};
  for (int e = 0; e < 4; e++)
    for (int bits = 8; bits <= 16; bits += 8)
      for (int ch = 1; ch <= 4; ch++) {
        Trip t = {exts[e], 3, ch, bits, ch == 3 ? EL_U8 : EL_F32, ch == 2};
        char name[96];
        snprintf(name, sizeof name, "%d-bit %s, %d channel(s), exact", bits, exts[e], ch);
        ok_case(name, trip_exact, &t);
        if (ch == 1) {
          t.rank = 2, t.elem = EL_F64;
          snprintf(name, sizeof name, "%d-bit %s, matrix -> 1 channel, exact", bits, exts[e]);
          ok_case(name, trip_exact, &t);
        }
      }
  for (int ch = 1; ch <= 4; ch++) {
    char name[64];
    snprintf(name, sizeof name, "JPEG gradient, %d channel(s) written", ch);
    ok_case(name, jpeg_gradient, &ch);
  }
  ElemType elems[] = {EL_F32, EL_F64, EL_I32, EL_U8, EL_U16, EL_I8, EL_I16, EL_U32, EL_I64};
  for (int i = 0; i < 9; i++) {
    char name[64];
    snprintf(name, sizeof name, "rounding and clamping from element type %d", elems[i]);
    ok_case(name, clamp_values, &elems[i]);
  }
  ok_case("format by magic bytes, not extension", magic_not_extension, NULL);
  ok_case("imwrite PNG read by libpng's simplified API", png_read_by_libpng, NULL);
  ok_case("hand-made PNG, RGB, stored deflate blocks", hand_png_rgb, NULL);
  ok_case("hand-made PNG, 1-bit gray", hand_png_1bit, NULL);
  bool yes = true, nope = false;
  ok_case("hand-made PNG, palette + tRNS -> RGBA", hand_png_palette, &yes);
  ok_case("hand-made PNG, palette -> RGB", hand_png_palette, &nope);
  ok_case("hand-made PNG, 16-bit gray / 257", hand_png_16bit, NULL);
  ok_case("hand-made PNG, gray + tRNS key -> gray+alpha", hand_png_gray_key, NULL);
  ok_case("libpng-written interlaced RGBA PNG", libpng_interlaced, NULL);
  ok_case("hand-made TIFF, RGB little-endian", hand_tiff_rgb, NULL);
  ok_case("hand-made TIFF, 16-bit gray big-endian", hand_tiff_16be, NULL);
  ok_case("hand-made TIFF, 1-bit min-is-white", hand_tiff_1bit, NULL);
  ok_case("hand-made TIFF, 8-bit palette", hand_tiff_palette, NULL);
  ok_case("libjpeg-written CMYK JPEG -> RGB", libjpeg_cmyk, NULL);
  if (access(photo_path, R_OK) == 0) ok_case("the example photograph", photo, photo_path);
  else report(false, "the example photograph", "examples/data/chelsea.png is missing\n");

  /* the files written above serve as inputs to cut and corrupt */
  bool have_inputs = true;
  const char *need[] = {"trip8.png", "grad.JPG", "trip8.tif", "trip16.tiff", "hand_rgb.png",
                        "hand_rgb.tif"};
  for (int i = 0; i < 6; i++)
    if (access(tmp(need[i]), R_OK) != 0) have_inputs = false;
  if (have_inputs) read_errors();
  else report(false, "error cases", "their input files were not written\n");
  write_errors();

  if (!getenv("KEEP")) remove_dir(dir);
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
