/* rt_image.c for builds without libpng, libjpeg and libtiff (make NO_IMAGES=1): the same
   functions, each an error that says so. Used on machines without the image libraries'
   development headers, e.g. the GPU machine of tests/gpu.sh. */
#include "../rt_image.h"

Array *rt_imread(const char *path, SrcLoc loc) {
  rt_error(loc, "cannot read '%s': oq was built without image support (NO_IMAGES=1)", path);
}

void rt_imwrite(const char *path, const Array *img, SrcLoc loc) {
  (void)img;
  rt_error(loc, "cannot write '%s': oq was built without image support (NO_IMAGES=1)", path);
}

void rt_imwrite16(const char *path, const Array *img, SrcLoc loc) {
  (void)img;
  rt_error(loc, "cannot write '%s': oq was built without image support (NO_IMAGES=1)", path);
}
