/* interp.h: the host interpreter (tree walker over resolved slots) and its reference
   execution of kernels (parallel_do, shared memory, barriers). */
#ifndef OQ_INTERP_H
#define OQ_INTERP_H
#include "front/ast.h"
#include "runtime/value.h"
#include "base/options.h"


typedef struct Program Program;

/* Expands macros, resolves names in the program (reporting unknown names and wrong
   argument counts with diag_error) and parallelizes host loops. opt->target must be
   resolved already (not TARGET_AUTO): `$target("gpu")` is decided here. Returns NULL when
   there were errors. Used by `oq check` and `oq run`. */
Program *interp_load(Arena *arena, Node *program, const InterpOptions *opt);

/* Runs the top-level statements, then main() if the program defines one. Returns the
   process exit status (0; a run-time error prints its message and exits with status 1). */
int interp_run(Program *prog, const InterpOptions *opt);
/* `oq check`: with the top level's functions bound (nothing runs), every top-level kernel
   whose parameters all have types is specialized on them (kernel_check.c); its type errors
   are reported. Returns their number. */
int interp_check(Program *prog);

#endif
