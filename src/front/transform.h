/* transform.h: macro expansion (transform_macro.c), the front end's transform of the parsed
   tree before name resolution. The parallel-loop transform of the resolved tree is
   interp/parloop.h. */
#ifndef OQ_TRANSFORM_H
#define OQ_TRANSFORM_H
#include "front/ast.h"
#include "base/options.h"

/* Expands macros and `$target(...)` in program (target: not TARGET_AUTO). Returns the
   number of errors reported. */
int macro_expand(Arena *arena, Node *program, Target target);

/* A reduction whose pattern has arguments other than its parameters (real(ifft3(x))):
   macro_expand replaces its calls; name resolution does not register it. */
bool reduction_is_nested(const Node *red);

#endif
