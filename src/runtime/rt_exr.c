/* rt_exr.c: exrread and exrwrite on OpenEXR (Debian's libOpenEXR-3_1.so.30), loaded with
   dlopen. The C API used is ImfCRgbaFile: opaque handles and a 4-half pixel (ImfRgba), so
   no struct layout of the library is relied on. Pixels pass through half precision (what
   the RGBA interface offers): a FLOAT channel is rounded to half. exrread returns a Handle
   of class "exrimage" whose fields are data, width, height and channels. */
#include <dlfcn.h>
#include <errno.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include "runtime/rt_video.h"

#define OQ_EXR_LIB "libOpenEXR-3_1.so.30"
#define OQ_EXR_PKG "libopenexr-3-1-30"

typedef unsigned short ImfHalf;
typedef struct ImfRgba { ImfHalf r, g, b, a; } ImfRgba;
enum { IMF_WRITE_A = 0x08, IMF_WRITE_Y = 0x10, IMF_WRITE_C = 0x20, IMF_WRITE_RGB = 0x07, IMF_WRITE_RGBA = 0x0f,
       IMF_ZIP_COMPRESSION = 3 };

typedef struct Exr {
  void *(*OpenInputFile)(const char *name);
  int (*CloseInputFile)(void *in);
  const void *(*InputHeader)(const void *in);
  int (*InputChannels)(const void *in);
  void (*HeaderDataWindow)(const void *hdr, int *x0, int *y0, int *x1, int *y1);
  int (*InputSetFrameBuffer)(void *in, ImfRgba *base, size_t xs, size_t ys);
  int (*InputReadPixels)(void *in, int y0, int y1);
  void *(*NewHeader)(void);
  void (*DeleteHeader)(void *hdr);
  void (*HeaderSetDataWindow)(void *hdr, int x0, int y0, int x1, int y1);
  void (*HeaderSetDisplayWindow)(void *hdr, int x0, int y0, int x1, int y1);
  void (*HeaderSetCompression)(void *hdr, int c);
  void *(*OpenOutputFile)(const char *name, const void *hdr, int channels);
  int (*CloseOutputFile)(void *out);
  int (*OutputSetFrameBuffer)(void *out, const ImfRgba *base, size_t xs, size_t ys);
  int (*OutputWritePixels)(void *out, int n);
  const char *(*ErrorMessage)(void);
  float (*HalfToFloat)(ImfHalf h);
  void (*FloatToHalf)(float f, ImfHalf *h);
} Exr;

static void exr_load(Exr *x, const char *fname, SrcLoc loc) {
  void *h = dlopen(OQ_EXR_LIB, RTLD_NOW | RTLD_LOCAL);
  if (!h) rt_error(loc, "%s: cannot load %s (OpenEXR): %s; install the Debian package %s", fname, OQ_EXR_LIB, dlerror(), OQ_EXR_PKG);
#define S(field) {offsetof(Exr, field), "Imf" #field}
  static const struct { size_t slot; const char *name; } syms[] = {
    S(OpenInputFile), S(CloseInputFile), S(InputHeader), S(InputChannels), S(HeaderDataWindow),
    S(InputSetFrameBuffer), S(InputReadPixels), S(NewHeader), S(DeleteHeader), S(HeaderSetDataWindow),
    S(HeaderSetDisplayWindow), S(HeaderSetCompression), S(OpenOutputFile), S(CloseOutputFile),
    S(OutputSetFrameBuffer), S(OutputWritePixels), S(ErrorMessage), S(HalfToFloat), S(FloatToHalf),
  };
#undef S
  for (size_t i = 0; i < sizeof syms / sizeof *syms; i++) {
    void *p = dlsym(h, syms[i].name);
    if (!p) rt_error(loc, "%s: %s lacks %s", fname, OQ_EXR_LIB, syms[i].name);
    memcpy((char *)x + syms[i].slot, &p, sizeof p);
  }
}

/* ---- the image handle ---- */

typedef struct ExrImage {
  Handle h;
  Array *data;
  const char *channels;   /* "Y", "YA", "RGB", "RGBA": the layout of data's last dimension */
} ExrImage;

static void exr_destroy(Handle *h) {
  ExrImage *E = (ExrImage *)h;
  val_release(v_array(E->data));
  free(E);
}

static Value exr_field(Handle *h, const char *name, SrcLoc loc) {
  ExrImage *E = (ExrImage *)h;
  if (!strcmp(name, "data")) {
    val_retain(v_array(E->data));
    return v_array(E->data);
  }
  if (!strcmp(name, "width")) return v_int(E->data->dims[1]);
  if (!strcmp(name, "height")) return v_int(E->data->dims[0]);
  if (!strcmp(name, "channels")) return v_string(E->channels, (int)strlen(E->channels));
  rt_error(loc, "an EXR image has no field '%s' (data, width, height, channels)", name);
}

static const HandleClass exr_class = {"exrimage", exr_field, exr_destroy};

/* ---- reading ---- */

/* The pixels of in, window x0..x1, y0..y1, as h x w x ch scalars. */
static Array *exr_pixels(Exr *x, void *in, int x0, int y0, int w, int h, int mask, const char *path, SrcLoc loc) {
  ImfRgba *buf = malloc((size_t)w * h * sizeof *buf);
  if (!buf) rt_error(loc, "exrread: '%s' is too large (%d x %d)", path, w, h);
  /* the frame buffer is addressed by absolute pixel coordinates (the data window may not
     start at 0, 0) */
  ImfRgba *base = (ImfRgba *)((char *)buf - ((ptrdiff_t)x0 + (ptrdiff_t)y0 * w) * (ptrdiff_t)sizeof *buf);
  if (!x->InputSetFrameBuffer(in, base, 1, (size_t)w) || !x->InputReadPixels(in, y0, y0 + h - 1)) {
    free(buf);
    rt_error(loc, "exrread: cannot read '%s': %s", path, x->ErrorMessage());
  }
  bool alpha = mask & IMF_WRITE_A, gray = (mask & IMF_WRITE_Y) && !(mask & IMF_WRITE_C);
  int ch = (gray ? 1 : 3) + alpha;
  int64_t dims[3] = {h, w, ch};
  Array *a = arr_new_uninit(el_scalar(), 3, dims);
  for (int64_t p = 0; p < (int64_t)w * h; p++) {
    const ImfRgba *px = &buf[p];
    ImfHalf v[4] = {px->r, px->g, px->b, px->a};
    int k = 0;
    for (int c = 0; c < (gray ? 1 : 3); c++) arr_store(a, p * ch + k++, x->HalfToFloat(v[c]));
    if (alpha) arr_store(a, p * ch + k, x->HalfToFloat(px->a));
  }
  free(buf);
  return a;
}

Value rt_exrread(const char *path, SrcLoc loc) {
  /* a missing file is reported as such, also where OpenEXR is not installed */
  if (access(path, R_OK) != 0) rt_error(loc, "exrread: cannot open '%s': %s", path, strerror(errno));
  Exr x;
  exr_load(&x, "exrread", loc);
  void *in = x.OpenInputFile(path);
  if (!in) rt_error(loc, "exrread: cannot open '%s': %s", path, x.ErrorMessage());
  int x0, y0, x1, y1;
  x.HeaderDataWindow(x.InputHeader(in), &x0, &y0, &x1, &y1);
  int64_t w = (int64_t)x1 - x0 + 1, h = (int64_t)y1 - y0 + 1;
  if (w < 1 || h < 1 || w * h > (1ll << 31)) {
    x.CloseInputFile(in);
    rt_error(loc, "exrread: '%s' has an unsupported data window %lld x %lld", path, (long long)h, (long long)w);
  }
  int mask = x.InputChannels(in);
  Array *a = exr_pixels(&x, in, x0, y0, (int)w, (int)h, mask, path, loc);
  x.CloseInputFile(in);
  ExrImage *E = calloc(1, sizeof *E);
  E->h.refcount = 1;
  E->h.cls = &exr_class;
  E->data = a;
  bool alpha = mask & IMF_WRITE_A, gray = (mask & IMF_WRITE_Y) && !(mask & IMF_WRITE_C);
  E->channels = gray ? (alpha ? "YA" : "Y") : (alpha ? "RGBA" : "RGB");
  return v_handle(&E->h);
}

/* ---- writing ---- */

/* img: a matrix or a cube of 1 (gray) to 4 (RGBA) channels, values as they are (linear
   light, not 0..255), rounded to half; gray is written as equal R, G and B. */
void rt_exrwrite(const char *path, const Array *img, SrcLoc loc) {
  if (el_is_complex(img->elem)) rt_error(loc, "exrwrite: cannot write a complex array");
  int64_t ch = img->rank == 3 ? img->dims[2] : 1;
  if (img->rank < 2 || img->rank > 3 || ch < 1 || ch > 4)
    rt_error(loc, "exrwrite: an image is a matrix or a cube of 1 to 4 channels");
  int64_t h = img->dims[0], w = img->dims[1];
  if (h < 1 || w < 1 || h * w > (1ll << 31)) rt_error(loc, "exrwrite: cannot write an image of %lld x %lld", (long long)h, (long long)w);
  Exr x;
  exr_load(&x, "exrwrite", loc);
  bool alpha = ch == 2 || ch == 4;
  ImfRgba *buf = malloc((size_t)(w * h) * sizeof *buf);
  if (!buf) rt_error(loc, "exrwrite: out of memory");
  for (int64_t p = 0; p < w * h; p++) {
    ImfHalf v[4];
    for (int c = 0; c < 3; c++) x.FloatToHalf((float)arr_load(img, p * ch + (ch >= 3 ? c : 0)), &v[c]);
    x.FloatToHalf(alpha ? (float)arr_load(img, p * ch + ch - 1) : 1.0f, &v[3]);
    buf[p] = (ImfRgba){v[0], v[1], v[2], v[3]};
  }
  void *hdr = x.NewHeader();
  x.HeaderSetDataWindow(hdr, 0, 0, (int)w - 1, (int)h - 1);
  x.HeaderSetDisplayWindow(hdr, 0, 0, (int)w - 1, (int)h - 1);
  x.HeaderSetCompression(hdr, IMF_ZIP_COMPRESSION);
  void *out = x.OpenOutputFile(path, hdr, alpha ? IMF_WRITE_RGBA : IMF_WRITE_RGB);
  x.DeleteHeader(hdr);
  if (!out) {
    free(buf);
    rt_error(loc, "exrwrite: cannot open '%s' for writing: %s", path, x.ErrorMessage());
  }
  int ok = x.OutputSetFrameBuffer(out, buf, 1, (size_t)w) && x.OutputWritePixels(out, (int)h);
  ok = x.CloseOutputFile(out) && ok;
  free(buf);
  if (!ok) rt_error(loc, "exrwrite: cannot write '%s': %s", path, x.ErrorMessage());
}
