/* fuzz_imread.c: libFuzzer harness of imread. Each input is an image file (PNG, JPEG, TIFF
   or netpbm: the reader sniffs the format from the bytes, so one harness reaches every
   decoder); it is written to a file and read with rt_imread. A crash, a sanitizer report,
   a hang, an allocation past -rss_limit_mb or a leak is a finding; an error is not.
   Built by `make fuzz-build`; corpus: tools/fuzz/corpus_imread. docs/reliability.md. */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "base/diag.h"
#include "runtime/rt_image.h"
#include "runtime/value.h"

RtConfig rt_config;
/* linked without the interpreter: images hold no functions */
void callable_free(Callable *c) { (void)c; }

static jmp_buf back;
static void on_error(void) { longjmp(back, 1); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static char path[64];
  if (!path[0]) snprintf(path, sizeof path, "/tmp/oq-fuzz-imread-%d.img", (int)getpid());
  FILE *f = fopen(path, "wb");
  if (!f) return 0;
  fwrite(data, 1, size, f);
  fclose(f);
  diag_on_rt_error(on_error);
  if (!setjmp(back)) {
    Array *a = rt_imread(path, (SrcLoc){0});
    if (a) val_release(v_array(a));
  }
  return 0;
}
