/* rt_image.c: imread/imwrite on top of libpng, libjpeg and libtiff.
   One read or write is an Img that owns every resource it allocates. Library errors are
   caught (libpng and libjpeg longjmp back to the decoder, libtiff's handler records the
   message), the step that failed composes one message with fail(), and the public entry
   points release everything and only then call rt_error. So no library prints to stderr,
   none calls exit(), and nothing leaks on the way out. */
#include "runtime/rt_image.h"
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <png.h>
#include <jpeglib.h>
#include <tiffio.h>

#define MAX_PIXELS ((int64_t)1 << 31)

typedef enum Format { FMT_NONE, FMT_PNG, FMT_JPEG, FMT_TIFF } Format;

typedef struct Img {
  const char *op;          /* "imread", "imwrite", "imwrite16": starts every message */
  const char *path;
  bool writing;
  bool created;            /* this call created the file at path */
  char err[768];           /* the message for rt_error; empty while all is well */
  char libmsg[512];        /* first message a library reported */
  jmp_buf jb;              /* libjpeg's way back (libpng keeps its own) */
  FILE *fp;
  png_structp png;
  png_infop png_info;
  struct jpeg_decompress_struct jd;   /* live once jd.err is set */
  struct jpeg_compress_struct jc;     /* live once jc.err is set */
  struct jpeg_error_mgr jerr;
  TIFF *tif;
  TIFFErrorHandler old_err, old_warn;
  bool tiff_handlers;
  unsigned char *buf;      /* encoded rows or a whole decoded image */
  unsigned char **rows;
  unsigned char *row;      /* one row of converted samples */
  Array *arr;              /* imread's result */
  SrcLoc loc;
} Img;

/* Records the message (the first one wins) and returns false, so `return fail(...)` ends
   the step that failed. */
__attribute__((format(printf, 2, 3)))
static bool fail(Img *m, const char *fmt, ...) {
  if (m->err[0]) return false;
  int n = snprintf(m->err, sizeof m->err, "%s: ", m->op);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m->err + n, sizeof m->err - n, fmt, ap);
  va_end(ap);
  return false;
}

static void set_libmsg(Img *m, const char *msg) {
  if (!m->libmsg[0]) snprintf(m->libmsg, sizeof m->libmsg, "%s", msg);
}

static const char *verb(const Img *m) { return m->writing ? "write" : "decode"; }

static bool little_endian(void) {
  const uint16_t one = 1;
  return *(const unsigned char *)&one == 1;
}

/* ---- libtiff's handlers are global: point them at the Img in progress ---- */

static Img *tiff_img;

static void tiff_on_error(const char *module, const char *fmt, va_list ap) {
  char msg[400], full[512];
  vsnprintf(msg, sizeof msg, fmt, ap);
  /* libtiff names the file in the module or at the start of the text; ours does already */
  const char *text = msg;
  size_t n = tiff_img ? strlen(tiff_img->path) : 0;
  if (n && strncmp(text, tiff_img->path, n) == 0 && strncmp(text + n, ": ", 2) == 0) text += n + 2;
  if (module && tiff_img && strcmp(module, tiff_img->path) != 0)
    snprintf(full, sizeof full, "%s: %s", module, text);
  else
    snprintf(full, sizeof full, "%s", text);
  if (tiff_img) set_libmsg(tiff_img, full);
}

static void tiff_on_warning(const char *module, const char *fmt, va_list ap) {
  (void)module, (void)fmt, (void)ap;   /* unknown tags and the like: not worth a word */
}

static void tiff_begin(Img *m) {
  tiff_img = m;
  m->old_err = TIFFSetErrorHandler(tiff_on_error);
  m->old_warn = TIFFSetWarningHandler(tiff_on_warning);
  m->tiff_handlers = true;
}

/* ---- releasing an Img ---- */

static void free_array(Array *a) {
  if (a) free(a->data);
  free(a);
}

static void img_release(Img *m, bool failed) {
  if (m->png) {
    if (m->writing) png_destroy_write_struct(&m->png, &m->png_info);
    else png_destroy_read_struct(&m->png, &m->png_info, NULL);
  }
  if (m->jd.err) jpeg_destroy_decompress(&m->jd);
  if (m->jc.err) jpeg_destroy_compress(&m->jc);
  if (m->tif) TIFFClose(m->tif);
  if (m->tiff_handlers) {
    TIFFSetErrorHandler(m->old_err);
    TIFFSetWarningHandler(m->old_warn);
    tiff_img = NULL;
  }
  if (m->fp) fclose(m->fp);
  free(m->buf);
  free(m->rows);
  free(m->row);
  if (failed && m->created) remove(m->path);   /* leave no half-written file behind */
  if (failed) free_array(m->arr);
}

/* ===================================== reading ===================================== */

static Format sniff(const unsigned char *b, size_t n) {
  static const unsigned char png_sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (n >= 8 && memcmp(b, png_sig, 8) == 0) return FMT_PNG;
  if (n >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF) return FMT_JPEG;
  /* classic TIFF (42) and BigTIFF (43), either byte order */
  if (n >= 4 && ((b[0] == 'I' && b[1] == 'I' && (b[2] == 42 || b[2] == 43) && b[3] == 0) ||
                 (b[0] == 'M' && b[1] == 'M' && b[2] == 0 && (b[3] == 42 || b[3] == 43))))
    return FMT_TIFF;
  return FMT_NONE;
}

static bool size_ok(Img *m, int64_t h, int64_t w) {
  if (h <= 0 || w <= 0)
    return fail(m, "'%s' has no pixels (%lld x %lld)", m->path, (long long)w, (long long)h);
  if (h > MAX_PIXELS / w)
    return fail(m, "'%s' is too large: %lld x %lld pixels (at most 2^31 are supported)",
                m->path, (long long)w, (long long)h);
  return true;
}

/* Allocates the result cube once the decoder knows the size. */
static bool out_begin(Img *m, int64_t h, int64_t w, int ch) {
  if (!size_ok(m, h, w)) return false;
  Array *a = calloc(1, sizeof *a);
  if (!a) return fail(m, "out of memory reading '%s'", m->path);
  m->arr = a;
  a->refcount = 1;
  a->elem = rt_config.double_precision ? EL_F64 : EL_F32;
  a->rank = 3;
  a->dims[0] = h;
  a->dims[1] = w;
  a->dims[2] = ch;
  for (int d = 3; d < OQ_MAX_RANK; d++) a->dims[d] = 1;   /* as arr_new: past rank is 1 */
  a->numel = h * w * ch;
  a->data = calloc((size_t)a->numel, a->elem == EL_F64 ? sizeof(double) : sizeof(float));
  if (!a->data) return fail(m, "out of memory reading '%s' (%lld x %lld pixels)", m->path,
                            (long long)w, (long long)h);
  return true;
}

/* Stores row y from 8-bit or native 16-bit samples; 16-bit ones map to 0..255 by /257. */
static void put_row(Img *m, int64_t y, const void *row, int bits) {
  Array *a = m->arr;
  int64_t n = a->dims[1] * a->dims[2], base = y * n;
  for (int64_t i = 0; i < n; i++) {
    double v = bits == 16 ? ((const uint16_t *)row)[i] / 257.0 : ((const uint8_t *)row)[i];
    if (a->elem == EL_F64) ((double *)a->data)[base + i] = v;
    else ((float *)a->data)[base + i] = (float)v;
  }
}

/* ---- PNG ---- */

static void png_on_error(png_structp png, png_const_charp msg) {
  set_libmsg(png_get_error_ptr(png), msg);
  png_longjmp(png, 1);
}

static void png_on_warning(png_structp png, png_const_charp msg) {
  (void)png, (void)msg;   /* bad ancillary chunks are skipped; nothing to tell */
}

static bool read_png(Img *m) {
  m->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, m, png_on_error, png_on_warning);
  if (m->png) m->png_info = png_create_info_struct(m->png);
  if (!m->png_info) return fail(m, "out of memory reading '%s'", m->path);
  png_structp png = m->png;
  png_infop info = m->png_info;
  if (setjmp(png_jmpbuf(png)))   /* libpng says "Read Error" for a file cut short */
    return fail(m, "cannot decode '%s' (PNG): %s", m->path,
                feof(m->fp) ? "unexpected end of file" : m->libmsg);
  png_init_io(png, m->fp);
  png_read_info(png, info);
  png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
  int color = png_get_color_type(png, info), depth = png_get_bit_depth(png, info);
  if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
  if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
  if (depth == 16 && little_endian()) png_set_swap(png);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  int bits = png_get_bit_depth(png, info);
  if (!out_begin(m, h, w, png_get_channels(png, info))) return false;
  size_t rowbytes = png_get_rowbytes(png, info);
  m->buf = malloc(rowbytes * h);
  m->rows = malloc(h * sizeof *m->rows);
  if (!m->buf || !m->rows) return fail(m, "out of memory reading '%s'", m->path);
  for (png_uint_32 y = 0; y < h; y++) m->rows[y] = m->buf + y * rowbytes;
  png_read_image(png, m->rows);
  png_read_end(png, NULL);   /* checks the rest up to IEND: a cut file fails here */
  for (png_uint_32 y = 0; y < h; y++) put_row(m, y, m->rows[y], bits);
  return true;
}

/* ---- JPEG ---- */

static void jpeg_on_error(j_common_ptr cinfo) {
  Img *m = cinfo->client_data;
  char msg[JMSG_LENGTH_MAX];
  cinfo->err->format_message(cinfo, msg);
  set_libmsg(m, msg);
  longjmp(m->jb, 1);
}

/* libjpeg only warns (level -1) about corrupt or missing data and fills it in with gray;
   a silently damaged image is worse than an error, so warnings fail too. */
static void jpeg_on_message(j_common_ptr cinfo, int level) {
  if (level < 0) cinfo->err->error_exit(cinfo);
}

static void jpeg_silent(j_common_ptr cinfo) { (void)cinfo; }

static struct jpeg_error_mgr *jpeg_errors(Img *m) {
  jpeg_std_error(&m->jerr);
  m->jerr.error_exit = jpeg_on_error;
  m->jerr.emit_message = jpeg_on_message;
  m->jerr.output_message = jpeg_silent;
  return &m->jerr;
}

/* CMYK to RGB in place. Adobe's files store CMYK inverted (0 = full ink), others do not. */
static void cmyk_to_rgb(unsigned char *p, int64_t w, bool adobe) {
  for (int64_t x = 0; x < w; x++) {
    int k = adobe ? p[4 * x + 3] : 255 - p[4 * x + 3];
    for (int c = 0; c < 3; c++) {
      int v = adobe ? p[4 * x + c] : 255 - p[4 * x + c];
      p[3 * x + c] = (unsigned char)((v * k + 127) / 255);
    }
  }
}

static bool read_jpeg(Img *m) {
  struct jpeg_decompress_struct *d = &m->jd;
  d->err = jpeg_errors(m);
  d->client_data = m;   /* jpeg_create_decompress keeps err and client_data */
  if (setjmp(m->jb))
    return fail(m, "cannot decode '%s' (JPEG): %s", m->path, m->libmsg);
  jpeg_create_decompress(d);
  jpeg_stdio_src(d, m->fp);
  jpeg_read_header(d, TRUE);
  J_COLOR_SPACE cs = d->jpeg_color_space;
  bool cmyk = cs == JCS_CMYK || cs == JCS_YCCK;
  d->out_color_space = cs == JCS_GRAYSCALE ? JCS_GRAYSCALE : cmyk ? JCS_CMYK : JCS_RGB;
  jpeg_start_decompress(d);
  int ch = cmyk ? 3 : d->output_components;
  if (!out_begin(m, d->output_height, d->output_width, ch)) return false;
  m->buf = malloc((size_t)d->output_width * d->output_components);
  if (!m->buf) return fail(m, "out of memory reading '%s'", m->path);
  while (d->output_scanline < d->output_height) {
    JSAMPROW r = m->buf;
    if (jpeg_read_scanlines(d, &r, 1) != 1)
      return fail(m, "cannot decode '%s' (JPEG): no data", m->path);
    if (cmyk) cmyk_to_rgb(m->buf, d->output_width, d->saw_Adobe_marker);
    put_row(m, d->output_scanline - 1, m->buf, 8);
  }
  jpeg_finish_decompress(d);   /* reads up to EOI: a cut file fails here */
  return true;
}

/* ---- TIFF ---- */

/* Gray, gray+alpha, RGB or RGBA in 8 or 16 bits (gray also 1 bit), in strips of
   interleaved unsigned samples, top row first: read as is, keeping 16 bits. */
static bool tiff_is_plain(TIFF *t, uint16_t photo, uint16_t bps, uint16_t spp) {
  uint16_t planar, fmt, orient;
  TIFFGetFieldDefaulted(t, TIFFTAG_PLANARCONFIG, &planar);
  TIFFGetFieldDefaulted(t, TIFFTAG_SAMPLEFORMAT, &fmt);
  TIFFGetFieldDefaulted(t, TIFFTAG_ORIENTATION, &orient);
  if (TIFFIsTiled(t) || planar != PLANARCONFIG_CONTIG || fmt != SAMPLEFORMAT_UINT ||
      orient != ORIENTATION_TOPLEFT)
    return false;
  if (photo == PHOTOMETRIC_MINISBLACK || photo == PHOTOMETRIC_MINISWHITE)
    return (spp == 1 && bps == 1) || ((spp == 1 || spp == 2) && (bps == 8 || bps == 16));
  return photo == PHOTOMETRIC_RGB && (spp == 3 || spp == 4) && (bps == 8 || bps == 16);
}

static bool tiff_read_plain(Img *m, int64_t w, int64_t h, uint16_t photo, uint16_t bps,
                            uint16_t spp) {
  if (!out_begin(m, h, w, spp)) return false;
  tmsize_t need = (w * spp * bps + 7) / 8, size = TIFFScanlineSize(m->tif);
  m->buf = malloc(size > need ? size : need);
  m->row = malloc(w * spp * 2);
  if (!m->buf || !m->row) return fail(m, "out of memory reading '%s'", m->path);
  int bits = bps == 16 ? 16 : 8;
  for (int64_t y = 0; y < h; y++) {
    if (size < need || TIFFReadScanline(m->tif, m->buf, (uint32_t)y, 0) < 0)
      return fail(m, "cannot decode '%s' (TIFF): %s", m->path,
                  m->libmsg[0] ? m->libmsg : "unexpected scanline size");
    if (bps == 1)
      for (int64_t x = 0; x < w; x++) m->row[x] = (m->buf[x >> 3] >> (7 - (x & 7)) & 1) * 255;
    else
      memcpy(m->row, m->buf, (size_t)(w * spp * bits / 8));
    if (photo == PHOTOMETRIC_MINISWHITE)   /* invert gray, not alpha */
      for (int64_t x = 0; x < w; x++) {
        if (bits == 16) ((uint16_t *)m->row)[x * spp] ^= 0xFFFF;
        else m->row[x * spp] ^= 0xFF;
      }
    put_row(m, y, m->row, bits);
  }
  return true;
}

/* Everything else (palettes, YCbCr, CMYK, tiles, planes, odd depths) through libtiff's
   RGBA reader, 8 bits. Gray stays gray; alpha is kept and un-premultiplied. */
static bool tiff_read_rgba(Img *m, int64_t w, int64_t h, uint16_t photo) {
  char emsg[1024];
  if (!TIFFRGBAImageOK(m->tif, emsg))
    return fail(m, "cannot decode '%s' (TIFF): %s", m->path, emsg);
  uint16_t nextra = 0, *extra = NULL;
  TIFFGetFieldDefaulted(m->tif, TIFFTAG_EXTRASAMPLES, &nextra, &extra);
  bool alpha = nextra > 0, unassoc = alpha && extra[0] == EXTRASAMPLE_UNASSALPHA;
  bool gray = photo == PHOTOMETRIC_MINISBLACK || photo == PHOTOMETRIC_MINISWHITE;
  int ch = (gray ? 1 : 3) + alpha;
  if (!out_begin(m, h, w, ch)) return false;
  m->buf = malloc((size_t)(w * h) * 4);
  m->row = malloc(w * ch);
  if (!m->buf || !m->row) return fail(m, "out of memory reading '%s'", m->path);
  uint32_t *px = (uint32_t *)m->buf;
  if (!TIFFReadRGBAImageOriented(m->tif, (uint32_t)w, (uint32_t)h, px, ORIENTATION_TOPLEFT, 0))
    return fail(m, "cannot decode '%s' (TIFF): %s", m->path,
                m->libmsg[0] ? m->libmsg : "unreadable image data");
  for (int64_t y = 0; y < h; y++) {
    for (int64_t x = 0; x < w; x++) {
      uint32_t p = px[y * w + x];
      int v[4] = {TIFFGetR(p), TIFFGetG(p), TIFFGetB(p), TIFFGetA(p)}, a = v[3];
      for (int c = 0; unassoc && a > 0 && a < 255 && c < 3; c++) {
        int u = (v[c] * 255 + a / 2) / a;
        v[c] = u > 255 ? 255 : u;
      }
      unsigned char *o = m->row + x * ch;
      if (gray) o[0] = (unsigned char)v[0];
      else o[0] = (unsigned char)v[0], o[1] = (unsigned char)v[1], o[2] = (unsigned char)v[2];
      if (alpha) o[ch - 1] = (unsigned char)a;
    }
    put_row(m, y, m->row, 8);
  }
  return true;
}

/* Opens the TIFF on a duplicate of fp's descriptor, so that TIFFClose and fclose each close
   their own. */
static TIFF *tiff_open(Img *m, const char *mode) {
  int fd = dup(fileno(m->fp));
  if (fd < 0) return NULL;
  lseek(fd, 0, SEEK_SET);
  TIFF *t = TIFFFdOpen(fd, m->path, mode);
  if (!t) close(fd);
  return t;
}

/* Reads an n-byte unsigned integer at off in the file's byte order; pread leaves the
   offset that libtiff shares through the duplicated descriptor alone. */
static bool read_uint(int fd, uint64_t off, int n, bool le, uint64_t *v) {
  unsigned char b[8];
  if (pread(fd, b, n, (off_t)off) != n) return false;
  *v = 0;
  for (int i = 0; i < n; i++) *v = *v << 8 | b[le ? n - 1 - i : i];
  return true;
}

/* libtiff accepts a first directory whose link to the next one is cut off; the file is
   truncated all the same. */
static bool tiff_dir_complete(Img *m) {
  bool big = TIFFIsBigTIFF(m->tif);
  uint64_t off = TIFFCurrentDirOffset(m->tif), order, n, end;
  int fd = fileno(m->fp);
  struct stat st;
  if (!read_uint(fd, 0, 1, true, &order) ||
      !read_uint(fd, off, big ? 8 : 2, order == 'I', &n) || fstat(fd, &st) != 0 || n > 65535)
    return false;
  end = off + (big ? 8 + 20 * n + 8 : 2 + 12 * n + 4);
  return end <= (uint64_t)st.st_size;
}

/* No compression of TIFF expands its data more than this (deflate 1032:1, LZW below 1400:1,
   PackBits 64:1), but JPEG may (a block of one color takes a few bits). */
#define TIFF_MOST_RATIO 4096
#define TIFF_MOST_RATIO_JPEG 65536

/* Whether the file can hold the image its header claims: the pixels' bytes at most the
   file's size times the best ratio of its compression. A 245-byte file that claims 2^31
   pixels is refused before anything is allocated for them. */
static bool tiff_size_plausible(Img *m, uint32_t w, uint32_t h, uint16_t bps, uint16_t spp) {
  uint16_t comp = COMPRESSION_NONE;
  TIFFGetFieldDefaulted(m->tif, TIFFTAG_COMPRESSION, &comp);
  struct stat st;
  if (fstat(fileno(m->fp), &st) != 0) return true;   /* the decoder finds out */
  double ratio = comp == COMPRESSION_NONE ? 1 : comp == COMPRESSION_JPEG || comp == COMPRESSION_OJPEG
               ? TIFF_MOST_RATIO_JPEG : TIFF_MOST_RATIO;
  double bytes = (double)w * h * (spp ? spp : 1) * (bps ? bps : 1) / 8;
  if (bytes <= ((double)st.st_size + 1024) * ratio) return true;
  return fail(m, "cannot decode '%s' (TIFF): it claims %u x %u pixels, more than its %lld bytes can hold",
              m->path, (unsigned)w, (unsigned)h, (long long)st.st_size);
}

static bool read_tiff(Img *m) {
  tiff_begin(m);
  m->tif = tiff_open(m, "rm");
  if (!m->tif)
    return fail(m, "cannot decode '%s' (TIFF): %s", m->path,
                m->libmsg[0] ? m->libmsg : strerror(errno));
  uint32_t w = 0, h = 0;
  uint16_t bps, spp, photo = 0xFFFF;
  TIFFGetField(m->tif, TIFFTAG_IMAGEWIDTH, &w);
  TIFFGetField(m->tif, TIFFTAG_IMAGELENGTH, &h);
  TIFFGetFieldDefaulted(m->tif, TIFFTAG_BITSPERSAMPLE, &bps);
  TIFFGetFieldDefaulted(m->tif, TIFFTAG_SAMPLESPERPIXEL, &spp);
  TIFFGetField(m->tif, TIFFTAG_PHOTOMETRIC, &photo);
  if (!tiff_dir_complete(m))
    return fail(m, "cannot decode '%s' (TIFF): the file ends inside its directory", m->path);
  if (!size_ok(m, h, w) || !tiff_size_plausible(m, w, h, bps, spp)) return false;
  if (tiff_is_plain(m->tif, photo, bps, spp)) return tiff_read_plain(m, w, h, photo, bps, spp);
  return tiff_read_rgba(m, w, h, photo);
}

static bool read_any(Img *m) {
  m->fp = fopen(m->path, "rb");
  if (!m->fp) return fail(m, "cannot open '%s': %s", m->path, strerror(errno));
  unsigned char head[8];
  size_t n = fread(head, 1, sizeof head, m->fp);
  if (ferror(m->fp)) return fail(m, "cannot read '%s': %s", m->path, strerror(errno));
  if (n == 0) return fail(m, "'%s' is empty", m->path);
  rewind(m->fp);
  if (pnm_sniff(head, n)) {   /* plain C, shared with NO_IMAGES builds */
    fclose(m->fp);
    m->fp = NULL;
    m->arr = pnm_read(m->path, m->loc);
    return true;
  }
  switch (sniff(head, n)) {
  case FMT_PNG: return read_png(m);
  case FMT_JPEG: return read_jpeg(m);
  case FMT_TIFF: return read_tiff(m);
  default: return fail(m, "'%s' is not a PNG, JPEG, TIFF or netpbm image", m->path);
  }
}

Array *rt_imread(const char *path, SrcLoc loc) {
  Img m = {.op = "imread", .path = path, .loc = loc};
  bool ok = read_any(&m);
  img_release(&m, !ok);
  if (!ok) rt_error(loc, "%s", m.err);
  return m.arr;
}

/* ===================================== writing ===================================== */

/* The image to write: its size and how many of its channels go to the file. */
typedef struct Src {
  const Array *a;
  int64_t h, w;
  int ch;        /* channels in the array */
  int out_ch;    /* channels written */
  int bits;      /* 8 or 16 */
} Src;


/* Rounds half up and clamps to 0..max; NaN gives 0. */
static unsigned quantize(double v, double max) {
  if (!(v > 0)) return 0;
  return v >= max ? (unsigned)max : (unsigned)floor(v + 0.5);
}

/* Row y as out_ch samples a pixel: bytes, or native uint16 scaled by 257. */
static void get_row(const Src *s, int64_t y, unsigned char *out) {
  for (int64_t x = 0; x < s->w; x++)
    for (int c = 0; c < s->out_ch; c++) {
      double v = img_elem(s->a, (y * s->w + x) * s->ch + c);
      int64_t o = x * s->out_ch + c;
      if (s->bits == 16) ((uint16_t *)out)[o] = (uint16_t)quantize(v * 257.0, 65535);
      else out[o] = (unsigned char)quantize(v, 255);
    }
}

static bool src_check(Img *m, const Array *a, int bits, Src *s) {
  if (!a) return fail(m, "no image to write to '%s'", m->path);
  if (a->elem == EL_C64 || a->elem == EL_C128)
    return fail(m, "cannot write a complex array to '%s'", m->path);
  *s = (Src){.a = a, .h = a->dims[0], .w = a->rank >= 2 ? a->dims[1] : 0, .bits = bits};
  if (a->rank != 2 && a->rank != 3)
    return fail(m, "cannot write '%s': an image is a matrix or a cube, not an array of rank %d",
                m->path, a->rank);
  if (a->rank == 3 && (a->dims[2] < 1 || a->dims[2] > 4))
    return fail(m, "cannot write '%s': an image has 1 to 4 channels, not %lld", m->path,
                (long long)a->dims[2]);
  s->ch = a->rank == 3 ? (int)a->dims[2] : 1;
  if (s->h < 1 || s->w < 1)
    return fail(m, "cannot write '%s': the image is empty (%lld x %lld)", m->path,
                (long long)s->w, (long long)s->h);
  if (s->h > MAX_PIXELS / s->w)
    return fail(m, "cannot write '%s': %lld x %lld pixels is too large (at most 2^31)",
                m->path, (long long)s->w, (long long)s->h);
  s->out_ch = s->ch;
  return true;
}

static bool open_out(Img *m) {
  struct stat st;
  bool existed = stat(m->path, &st) == 0;
  m->fp = fopen(m->path, "wb");
  if (!m->fp) return fail(m, "cannot open '%s' for writing: %s", m->path, strerror(errno));
  m->created = !existed;   /* never remove what was there before, such as /dev/stdout */
  return true;
}

/* fclose reports what buffering hid, such as a full disk. */
static bool close_out(Img *m) {
  int bad = ferror(m->fp) | fclose(m->fp);
  m->fp = NULL;
  if (bad) return fail(m, "cannot write '%s': %s", m->path, strerror(errno));
  return true;
}

static bool write_png(Img *m, const Src *s) {
  static const int color[] = {0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA,
                              PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA};
  if (!open_out(m)) return false;
  m->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, m, png_on_error, png_on_warning);
  if (m->png) m->png_info = png_create_info_struct(m->png);
  if (!m->png_info) return fail(m, "out of memory writing '%s'", m->path);
  m->row = malloc((size_t)(s->w * s->out_ch * (s->bits / 8)));
  if (!m->row) return fail(m, "out of memory writing '%s'", m->path);
  png_structp png = m->png;
  if (setjmp(png_jmpbuf(png)))
    return fail(m, "cannot %s '%s' (PNG): %s", verb(m), m->path, m->libmsg);
  png_init_io(png, m->fp);
  png_set_IHDR(png, m->png_info, (png_uint_32)s->w, (png_uint_32)s->h, s->bits,
               color[s->out_ch], PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, m->png_info);
  if (s->bits == 16 && little_endian()) png_set_swap(png);
  for (int64_t y = 0; y < s->h; y++) {
    get_row(s, y, m->row);
    png_write_row(png, m->row);
  }
  png_write_end(png, NULL);
  return close_out(m);
}

static bool write_jpeg(Img *m, Src *s) {
  if (s->w > JPEG_MAX_DIMENSION || s->h > JPEG_MAX_DIMENSION)
    return fail(m, "cannot write '%s': JPEG images are at most %d pixels wide and high",
                m->path, (int)JPEG_MAX_DIMENSION);
  s->out_ch = s->ch >= 3 ? 3 : 1;   /* no alpha in JPEG */
  if (!open_out(m)) return false;
  m->row = malloc((size_t)(s->w * s->out_ch));
  if (!m->row) return fail(m, "out of memory writing '%s'", m->path);
  struct jpeg_compress_struct *c = &m->jc;
  c->err = jpeg_errors(m);
  c->client_data = m;
  if (setjmp(m->jb))
    return fail(m, "cannot write '%s' (JPEG): %s", m->path, m->libmsg);
  jpeg_create_compress(c);
  jpeg_stdio_dest(c, m->fp);
  c->image_width = (JDIMENSION)s->w;
  c->image_height = (JDIMENSION)s->h;
  c->input_components = s->out_ch;
  c->in_color_space = s->out_ch == 3 ? JCS_RGB : JCS_GRAYSCALE;
  jpeg_set_defaults(c);
  jpeg_set_quality(c, 95, TRUE);
  jpeg_start_compress(c, TRUE);
  for (int64_t y = 0; y < s->h; y++) {
    JSAMPROW r = m->row;
    get_row(s, y, m->row);
    jpeg_write_scanlines(c, &r, 1);
  }
  jpeg_finish_compress(c);
  return close_out(m);
}

static bool write_tiff(Img *m, const Src *s) {
  if (!open_out(m)) return false;
  tiff_begin(m);
  m->tif = tiff_open(m, "w");
  if (!m->tif)
    return fail(m, "cannot write '%s' (TIFF): %s", m->path,
                m->libmsg[0] ? m->libmsg : strerror(errno));
  m->row = malloc((size_t)(s->w * s->out_ch * (s->bits / 8)));
  if (!m->row) return fail(m, "out of memory writing '%s'", m->path);
  TIFF *t = m->tif;
  uint16_t alpha = EXTRASAMPLE_UNASSALPHA;
  TIFFSetField(t, TIFFTAG_IMAGEWIDTH, (uint32_t)s->w);
  TIFFSetField(t, TIFFTAG_IMAGELENGTH, (uint32_t)s->h);
  TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, (uint16_t)s->bits);
  TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, (uint16_t)s->out_ch);
  TIFFSetField(t, TIFFTAG_SAMPLEFORMAT, SAMPLEFORMAT_UINT);
  TIFFSetField(t, TIFFTAG_PHOTOMETRIC, s->out_ch <= 2 ? PHOTOMETRIC_MINISBLACK : PHOTOMETRIC_RGB);
  TIFFSetField(t, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
  TIFFSetField(t, TIFFTAG_ORIENTATION, ORIENTATION_TOPLEFT);
  if (s->out_ch == 2 || s->out_ch == 4) TIFFSetField(t, TIFFTAG_EXTRASAMPLES, 1, &alpha);
  if (TIFFIsCODECConfigured(COMPRESSION_LZW)) {
    TIFFSetField(t, TIFFTAG_COMPRESSION, COMPRESSION_LZW);
    TIFFSetField(t, TIFFTAG_PREDICTOR, PREDICTOR_HORIZONTAL);
  }
  TIFFSetField(t, TIFFTAG_ROWSPERSTRIP, TIFFDefaultStripSize(t, 0));
  for (int64_t y = 0; y < s->h; y++) {
    get_row(s, y, m->row);
    if (TIFFWriteScanline(t, m->row, (uint32_t)y, 0) < 0) break;
  }
  m->tif = NULL;
  TIFFClose(t);   /* writes the directory; trouble shows up as a recorded message */
  if (m->libmsg[0]) return fail(m, "cannot write '%s' (TIFF): %s", m->path, m->libmsg);
  return close_out(m);
}

static bool has_ext(const char *path, const char *ext) {
  size_t n = strlen(path), k = strlen(ext);
  return n > k && strcasecmp(path + n - k, ext) == 0;
}

static bool write_any(Img *m, const Array *a, int bits) {
  Format f = has_ext(m->path, ".png") ? FMT_PNG
             : has_ext(m->path, ".tif") || has_ext(m->path, ".tiff") ? FMT_TIFF
             : has_ext(m->path, ".jpg") || has_ext(m->path, ".jpeg") ? FMT_JPEG : FMT_NONE;
  if (bits == 16 && (f == FMT_NONE || f == FMT_JPEG))
    return fail(m, "cannot write '%s': 16-bit images need a .png, .tif, .tiff, .pgm or .ppm name", m->path);
  if (f == FMT_NONE)
    return fail(m, "cannot write '%s': unknown extension (use .png, .jpg, .jpeg, .tif, .tiff, .pgm or .ppm)",
                m->path);
  Src s;
  if (!src_check(m, a, bits, &s)) return false;
  return f == FMT_PNG ? write_png(m, &s) : f == FMT_JPEG ? write_jpeg(m, &s) : write_tiff(m, &s);
}

static void imwrite(const char *op, const char *path, const Array *img, int bits, SrcLoc loc) {
  if (pnm_name(path)) { pnm_write(op, path, img, bits, loc); return; }
  Img m = {.op = op, .path = path, .writing = true};
  bool ok = write_any(&m, img, bits);
  img_release(&m, !ok);
  if (!ok) rt_error(loc, "%s", m.err);
}

void rt_imwrite(const char *path, const Array *img, SrcLoc loc) {
  imwrite("imwrite", path, img, 8, loc);
}

void rt_imwrite16(const char *path, const Array *img, SrcLoc loc) {
  imwrite("imwrite16", path, img, 16, loc);
}
