/* parloop.h: the parallel-loop transform (transform_parloop.c), run by name resolution on
   the resolved tree: host loop nests that can run in parallel become kernel launches. */
#ifndef OQ_PARLOOP_H
#define OQ_PARLOOP_H
#include "interp/interp_priv.h"

/* Turns the host loop nests that can run in parallel into N_PARLOOP launches; with
   opt->explain, prints the decision for every loop nest on stdout. */
void parloop_transform(Program *P, const InterpOptions *opt);

/* The precision of a serial reduction. A host loop nest that the rules make a reduction
   (whether it then runs in parallel, or serially: --no-parloop, or a run-time guard) adds
   its scalar sums and products in double and rounds them once when the nest ends, as a
   kernel's accumulators do: the same program gives the same sum either way, up to the
   order of the additions. The nest's outer N_FOR has aux = a NodeList of the reduction
   variables (to round at its end); each update `s = s + e`, `s += e`, `s -= e`,
   `s = s * e` has aux = its AccumNote. */
typedef struct AccumNote {
  Node *e;          /* the value added (or multiplied) */
  Op op;            /* OP_ADD or OP_MUL */
  bool negate;      /* s -= e, s = s - e */
  bool e_first;     /* s = e * s: e is the left operand */
} AccumNote;

#endif
