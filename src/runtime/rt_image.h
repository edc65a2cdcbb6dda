/* rt_image.h: imread and imwrite: PNG (libpng), JPEG (libjpeg), TIFF (libtiff), netpbm.
   Images are cubes height x width x channels in row-major order: 1 channel gray, 2 gray+alpha,
   3 RGB, 4 RGBA. Sample values are 0..255, as in Quasar. Every failure is an rt_error that
   names the file; no library prints anything on its own. docs/images.md has the details. */
#ifndef OQ_RT_IMAGE_H
#define OQ_RT_IMAGE_H
#include "runtime/value.h"

/* Reads a PNG, JPEG or TIFF file, recognised by its first bytes, not by its extension.
   Returns a new cube (refcount 1) of `scalar` elements (EL_F32, EL_F64 in double precision).
   Palettes expand to RGB or RGBA, 1-bit images to 0/255, transparency keys to an alpha
   channel. 16-bit samples are divided by 257 (65535 -> 255), so programs that divide by 255
   work for every depth; such values may be fractional. Images over 2^31 pixels are refused. */
Array *rt_imread(const char *path, SrcLoc loc);

/* Writes an 8-bit image in the format that the extension names (case-insensitive): .png,
   .jpg/.jpeg (quality 95), .tif/.tiff. img is a matrix (gray) or a cube with 1 to 4 channels
   of any real element type; values are rounded and clamped to 0..255. JPEG has no alpha:
   it gets the gray or RGB channels only. */
void rt_imwrite(const char *path, const Array *img, SrcLoc loc);

/* As rt_imwrite, but 16-bit, for .png and .tif/.tiff only: values 0..255 are scaled by 257
   (rounded, clamped to 0..65535), so rt_imread gives integer values back exactly. */
void rt_imwrite16(const char *path, const Array *img, SrcLoc loc);

/* Binary netpbm (rt_pnm.c, no library needed, also in NO_IMAGES builds): P5 gray .pgm and
   P6 RGB .ppm (.pnm: by channel count), 8-bit, or 16-bit from rt_imwrite16. rt_imread and
   rt_imwrite call these for such files; alpha channels are not written. */
bool pnm_name(const char *path);                                  /* .pgm, .ppm, .pnm */
bool pnm_sniff(const unsigned char *head, size_t n);             /* "P5" or "P6" */
Array *pnm_read(const char *path, SrcLoc loc);
void pnm_write(const char *op, const char *path, const Array *img, int bits, SrcLoc loc);
double img_elem(const Array *a, int64_t i);                      /* an element as a double */

#endif
