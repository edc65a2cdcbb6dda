/* transform.h: the front-end transforms between parsing and running.
   transform_macro.c runs on the parsed tree (before name resolution), transform_parloop.c
   on the resolved one. */
#ifndef OQ_TRANSFORM_H
#define OQ_TRANSFORM_H
#include "ast.h"
#include "interp.h"

/* Expands macros and `$target(...)` in program (target: not TARGET_AUTO). Returns the
   number of errors reported. */
int macro_expand(Arena *arena, Node *program, Target target);

/* A reduction whose pattern has arguments other than its parameters (real(ifft3(x))):
   macro_expand replaces its calls; name resolution does not register it. */
bool reduction_is_nested(const Node *red);

/* Turns the host loop nests that can run in parallel into N_PARLOOP launches; with
   opt->explain, prints the decision for every loop nest on stdout. */
void parloop_transform(Program *P, const InterpOptions *opt);

#endif
