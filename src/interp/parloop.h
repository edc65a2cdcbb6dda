/* parloop.h: the parallel-loop transform (transform_parloop.c), run by name resolution on
   the resolved tree: host loop nests that can run in parallel become kernel launches. */
#ifndef OQ_PARLOOP_H
#define OQ_PARLOOP_H
#include "interp/interp_priv.h"

/* Turns the host loop nests that can run in parallel into N_PARLOOP launches; with
   opt->explain, prints the decision for every loop nest on stdout. */
void parloop_transform(Program *P, const InterpOptions *opt);

#endif
