/* rt_image.c for builds without libpng, libjpeg and libtiff (make NO_IMAGES=1): netpbm
   files (rt_pnm.c) still work; anything else is an error that says so. Used on machines
   without the image libraries' development headers, e.g. the GPU machine of tests/gpu.sh. */
#include <errno.h>
#include <string.h>
#include "runtime/rt_image.h"

Array *rt_imread(const char *path, SrcLoc loc) {
  FILE *f = fopen(path, "rb");
  if (!f) rt_error(loc, "imread: cannot open '%s': %s", path, strerror(errno));
  unsigned char head[3];
  size_t n = fread(head, 1, sizeof head, f);
  fclose(f);
  if (pnm_sniff(head, n)) return pnm_read(path, loc);
  rt_error(loc, "cannot read '%s': oq was built without image support (NO_IMAGES=1; .pgm/.ppm work)", path);
}

void rt_imwrite(const char *path, const Array *img, SrcLoc loc) {
  if (pnm_name(path)) { pnm_write("imwrite", path, img, 8, loc); return; }
  rt_error(loc, "cannot write '%s': oq was built without image support (NO_IMAGES=1; .pgm/.ppm work)", path);
}

void rt_imwrite16(const char *path, const Array *img, SrcLoc loc) {
  if (pnm_name(path)) { pnm_write("imwrite16", path, img, 16, loc); return; }
  rt_error(loc, "cannot write '%s': oq was built without image support (NO_IMAGES=1; .pgm/.ppm work)", path);
}
