/* fuzz_front.c: libFuzzer harness of the front end. Each input is a program's text; it goes
   through what `oq check` does: lexing, parsing (with recovery), macro expansion, name
   resolution and the parallel-loop transform, for --target cpu. Nothing runs. A crash, a
   sanitizer report, a hang or a leak is a finding; an error message is not.
   Built by `make fuzz-build` (clang -fsanitize=fuzzer,address,undefined); corpus:
   tools/fuzz/corpus_front (seeded from tests/ and examples/). docs/reliability.md. */
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "base/arena.h"
#include "base/diag.h"
#include "base/options.h"
#include "front/parse.h"
#include "interp/interp.h"
#include "runtime/value.h"

RtConfig rt_config;   /* --precision: single */

static jmp_buf back;   /* a run-time error during loading (a constant folded, an import) */
static void on_error(void) { longjmp(back, 1); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 1 << 16) return 0;   /* programs are small; long inputs only slow the search */
  char *text = malloc(size + 1);
  memcpy(text, data, size);
  text[size] = 0;
  SrcFile *file = srcfile_from_string("fuzz.q", text);
  Arena arena = {0};
  InterpOptions opt = {.target = TARGET_CPU};
  diag_on_rt_error(on_error);
  if (!setjmp(back)) {
    int before = diag_error_count();
    Node *program = parse_file(&arena, file);
    if (diag_error_count() == before) interp_load(&arena, program, &opt);
  }
  arena_free(&arena);
  free((void *)file->path);
  free((void *)file->text);
  free(file);
  free(text);
  return 0;
}
