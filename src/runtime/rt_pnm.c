/* rt_pnm.c: binary netpbm images (P5 gray .pgm, P6 RGB .ppm), 8 or 16 bits, in plain C.
   They need no image library, so imread/imwrite keep working in builds without libpng
   (make NO_IMAGES=1, e.g. on the GPU machine), and a test can read them with a few lines
   of C. Same conventions as rt_image.c: values 0..255, 16-bit samples divided by 257. */
#include "runtime/rt_image.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_PIXELS ((int64_t)1 << 31)

bool pnm_name(const char *path) {
  size_t n = strlen(path);
  return n > 4 && (!strcasecmp(path + n - 4, ".pgm") || !strcasecmp(path + n - 4, ".ppm") ||
                   !strcasecmp(path + n - 4, ".pnm"));
}

bool pnm_sniff(const unsigned char *head, size_t n) {
  return n >= 3 && head[0] == 'P' && (head[1] == '5' || head[1] == '6') && isspace(head[2]);
}

/* The next header number, skipping white space and # comments; -1 if there is none. */
static long header_number(FILE *f) {
  int c = fgetc(f);
  for (;;) {
    while (c != EOF && isspace(c)) c = fgetc(f);
    if (c != '#') break;
    while (c != EOF && c != '\n') c = fgetc(f);
  }
  if (c == EOF || !isdigit(c)) return -1;
  long v = 0;
  while (c != EOF && isdigit(c) && v < 1000000000) v = v * 10 + (c - '0'), c = fgetc(f);
  if (c == EOF || !isspace(c)) return -1;   /* one white space character ends the header */
  return v;
}

/* A cube of scalars, built by hand as rt_image.c does (its unit test links no rt_value.c). */
static Array *new_cube(int64_t h, int64_t w, int64_t ch) {
  Array *a = calloc(1, sizeof *a);
  if (!a) return NULL;
  a->refcount = 1;
  a->elem = rt_config.double_precision ? EL_F64 : EL_F32;
  a->rank = 3;
  a->dims[0] = h, a->dims[1] = w, a->dims[2] = ch;
  for (int d = 3; d < OQ_MAX_RANK; d++) a->dims[d] = 1;
  a->numel = h * w * ch;
  a->data = calloc((size_t)a->numel, a->elem == EL_F64 ? sizeof(double) : sizeof(float));
  if (!a->data) free(a), a = NULL;
  return a;
}


/* Reads the samples into a new cube; NULL and *why on failure. */
static Array *read_body(FILE *f, char *why, size_t nwhy) {
  char magic[2];
  if (fread(magic, 1, 2, f) != 2) return snprintf(why, nwhy, "not a netpbm image"), NULL;
  int ch = magic[1] == '6' ? 3 : 1;
  long w = header_number(f), h = header_number(f), maxval = header_number(f);
  if (w < 1 || h < 1 || maxval < 1 || maxval > 65535)
    return snprintf(why, nwhy, "bad header (width, height, maxval)"), NULL;
  if ((int64_t)w * h > MAX_PIXELS) return snprintf(why, nwhy, "%ld x %ld pixels is too large", w, h), NULL;
  int bytes = maxval > 255 ? 2 : 1;
  size_t n = (size_t)w * h * ch;
  long here = ftell(f);   /* a short file is refused before the allocation */
  if (here >= 0 && fseek(f, 0, SEEK_END) == 0) {
    long end = ftell(f);
    if (end - here < (long)(n * bytes)) return snprintf(why, nwhy, "unexpected end of file"), NULL;
    fseek(f, here, SEEK_SET);
  }
  unsigned char *raw = malloc(n * bytes);
  if (!raw) return snprintf(why, nwhy, "out of memory"), NULL;
  if (fread(raw, bytes, n, f) != n) {
    free(raw);
    return snprintf(why, nwhy, "unexpected end of file"), NULL;
  }
  Array *a = new_cube(h, w, ch);
  if (!a) {
    free(raw);
    return snprintf(why, nwhy, "out of memory"), NULL;
  }
  for (size_t i = 0; i < n; i++) {
    unsigned v = bytes == 2 ? (unsigned)raw[2 * i] << 8 | raw[2 * i + 1] : raw[i];
    double x = maxval == 255 ? v : maxval == 65535 ? v / 257.0 : v * 255.0 / maxval;
    if (a->elem == EL_F64) ((double *)a->data)[i] = x;
    else ((float *)a->data)[i] = (float)x;
  }
  free(raw);
  return a;
}

Array *pnm_read(const char *path, SrcLoc loc) {
  FILE *f = fopen(path, "rb");
  if (!f) rt_error(loc, "imread: cannot open '%s': %s", path, strerror(errno));
  char why[200];
  Array *a = read_body(f, why, sizeof why);
  fclose(f);
  if (!a) rt_error(loc, "imread: cannot decode '%s' (netpbm): %s", path, why);
  return a;
}

static unsigned quantize(double v, double max) {
  if (!(v > 0)) return 0;
  return v >= max ? (unsigned)max : (unsigned)floor(v + 0.5);
}

/* Gray (1 or 2 channels: P5) or RGB (3 or 4: P6); alpha is not written. */
/* One element of an image array as a double (rt_image.c too; the image unit test links
   these files without the rest of the run-time, hence not arr_load). */
double img_elem(const Array *a, int64_t i) {
  switch (a->elem) {
  case EL_F32: return ((const float *)a->data)[i];
  case EL_F64: return ((const double *)a->data)[i];
  case EL_I32: return ((const int32_t *)a->data)[i];
  case EL_I8: return ((const int8_t *)a->data)[i];
  case EL_U8: return ((const uint8_t *)a->data)[i];
  case EL_I16: return ((const int16_t *)a->data)[i];
  case EL_U16: return ((const uint16_t *)a->data)[i];
  case EL_U32: return ((const uint32_t *)a->data)[i];
  case EL_I64: return (double)((const int64_t *)a->data)[i];
  default: return 0;   /* complex: refused before */
  }
}

void pnm_write(const char *op, const char *path, const Array *img, int bits, SrcLoc loc) {
  if (!img || (img->rank != 2 && img->rank != 3) || img->elem == EL_C64 || img->elem == EL_C128)
    rt_error(loc, "%s: cannot write '%s': an image is a real matrix or cube", op, path);
  int64_t h = img->dims[0], w = img->dims[1], ch = img->rank == 3 ? img->dims[2] : 1;
  if (h < 1 || w < 1 || ch < 1 || ch > 4)
    rt_error(loc, "%s: cannot write '%s': %lld x %lld pixels, %lld channels", op, path, (long long)w,
             (long long)h, (long long)ch);
  int out_ch = ch >= 3 ? 3 : 1, bytes = bits == 16 ? 2 : 1;
  FILE *f = fopen(path, "wb");
  if (!f) rt_error(loc, "%s: cannot open '%s' for writing: %s", op, path, strerror(errno));
  fprintf(f, "P%c\n%lld %lld\n%d\n", out_ch == 3 ? '6' : '5', (long long)w, (long long)h,
          bits == 16 ? 65535 : 255);
  unsigned char *row = malloc((size_t)w * out_ch * bytes);
  for (int64_t y = 0; y < h && row; y++) {
    for (int64_t x = 0; x < w; x++)
      for (int c = 0; c < out_ch; c++) {
        double v = img_elem(img, (y * w + x) * ch + c);
        size_t o = ((size_t)x * out_ch + c) * bytes;
        if (bytes == 2) {
          unsigned q = quantize(v * 257.0, 65535);
          row[o] = (unsigned char)(q >> 8), row[o + 1] = (unsigned char)q;
        } else row[o] = (unsigned char)quantize(v, 255);
      }
    fwrite(row, bytes, (size_t)w * out_ch, f);
  }
  bool bad = !row || ferror(f);
  free(row);
  if ((fclose(f) != 0) | bad) rt_error(loc, "%s: cannot write '%s': %s", op, path, strerror(errno));
}
