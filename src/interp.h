/* interp.h: the host interpreter (tree walker over resolved slots) and its reference
   execution of kernels (parallel_do, shared memory, barriers). */
#ifndef OQ_INTERP_H
#define OQ_INTERP_H
#include "ast.h"
#include "value.h"

typedef enum Target { TARGET_AUTO, TARGET_CPU, TARGET_CUDA, TARGET_INTERP } Target;

typedef struct InterpOptions {
  Target target;
  bool verbose;
  bool profile;
  bool emit_c;              /* print the C source of every kernel specialization */
  const char *argv0;
} InterpOptions;

/* Resolves names in the program (reporting unknown names and wrong argument counts with
   diag_error); returns the number of errors. Used by `oq check` and before `oq run`. */
int interp_check(Arena *arena, Node *program);

/* Runs the top-level statements, then main() if the program defines one. Returns the
   process exit status (0, or 1 after a run-time error is printed). */
int interp_run(Arena *arena, Node *program, const InterpOptions *opt);

#endif
