/* launch.c: what both back ends do alike with a launch (launch.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "backend/launch.h"

void launch_spec_compiled(LaunchSpec *h, const KSpec *S) {
  h->name = strdup(S->name);
  h->nouts = S->kfunc->nouts;
  int obase = S->kfunc->ngenerics + S->kfunc->nparams;
  for (int o = 0; o < h->nouts; o++) h->out_int[o] = S->kspec->slots[obase + o].kind == K_INT;
  for (int o = 0; o < h->nouts; o++) h->out_op[o] = S->out_op[o];
  h->small_launch = S->small_launch;
  h->nshared = S->facts.nshared;
  /* a deep copy: the sites' texts live in the specialization's arena, which is freed once
     the kernel is compiled, and the spec reports errors of every later launch */
  h->nsites = S->nsites;
  h->sites = calloc(S->nsites + 1, sizeof *h->sites);
  for (int i = 0; i < S->nsites; i++) {
    h->sites[i] = S->sites[i];
    h->sites[i].array = S->sites[i].array ? strdup(S->sites[i].array) : NULL;
    h->sites[i].text = S->sites[i].text ? strdup(S->sites[i].text) : NULL;
  }
  h->tr = S->tr;
}

bool launch_spec_fail(LaunchSpec *h, const char *why) {
  h->failed = true;
  snprintf(h->reason, sizeof h->reason, "%s", why);
  return false;
}

void launch_fill_arg(OqkArg *a, Value v) {
  memset(a, 0, sizeof *a);
  switch (v.kind) {
  case V_BOOL: case V_INT: a->i = v.i; a->re = (double)v.i; break;
  case V_SCALAR: a->re = v.s; a->i = (int64_t)v.s; break;
  case V_CSCALAR: a->re = v.c.re; a->im = v.c.im; break;
  case V_ARRAY:
    a->data = v.arr->data;
    for (int d = 0; d < 16; d++) a->dims[d] = d < OQ_MAX_RANK ? v.arr->dims[d] : 1;
    for (int64_t k = 0; k < v.arr->numel && k < 16; k++) a->v[k] = arr_load(v.arr, k);
    break;
  default: break;
  }
}

double launch_identity_r(Op op) {
  switch (op) {
  case OP_MAX: return -INFINITY;
  case OP_MIN: return INFINITY;
  case OP_MUL: return 1;
  default: return 0;
  }
}

int64_t launch_identity_i(Op op) {
  switch (op) {
  case OP_MAX: return INT64_MIN;
  case OP_MIN: return INT64_MAX;
  case OP_MUL: return 1;
  default: return 0;
  }
}

double launch_combine_r(Op op, double a, double b) {
  switch (op) {
  case OP_MAX: return a > b || b != b ? a : b;
  case OP_MIN: return a < b || b != b ? a : b;
  case OP_MUL: return rt_round(a * b);
  default: return rt_round(a + b);
  }
}

int64_t launch_combine_i(Op op, int64_t a, int64_t b) {
  switch (op) {
  case OP_MAX: return a > b ? a : b;
  case OP_MIN: return a < b ? a : b;
  case OP_MUL: return (int64_t)((uint64_t)a * (uint64_t)b);
  default: return (int64_t)((uint64_t)a + (uint64_t)b);
  }
}

static void dims_text(char *buf, size_t n, int rank, const int64_t *d) {
  size_t len = snprintf(buf, n, "[");
  for (int i = 0; i < rank && len < n; i++) len += snprintf(buf + len, n - len, i ? ",%lld" : "%lld", (long long)d[i]);
  if (len < n) snprintf(buf + len, n - len, "]");
}

void launch_report(const LaunchSpec *h, const OqkLaunch *L, SrcLoc at) {
  const char *name = h->name;
  if (L->err_site < 0 || L->err_site >= h->nsites) rt_error(at, "kernel '%s' failed", name);
  const KSite *s = &h->sites[L->err_site];
  char a[400], b[400];
  switch (s->kind) {
  case KE_INDEX:
    dims_text(a, sizeof a, L->err_n, L->err_ix);
    dims_text(b, sizeof b, L->err_rank, L->err_dims);
    rt_error(s->loc, "index %s out of range for array%s%s%s of size %s in kernel '%s'", a, s->array ? " '" : "",
             s->array ? s->array : "", s->array ? "'" : "", b, s->text ? s->text : name);
  case KE_ASSERT: rt_error(s->loc, "assertion failed: %s", s->text ? s->text : "");
  case KE_DIVZERO: rt_error(s->loc, "integer division by zero");
  case KE_MODZERO: rt_error(s->loc, "division by zero in mod");
  case KE_RANGE: rt_error(s->loc, "range step is zero");
  case KE_SHARED:
    rt_error(s->loc, "shared memory: size out of range, or threads of one block allocate different sizes");
  case KE_BARRIER:
    rt_error(s->loc, "non-uniform barrier in kernel '%s': the threads of a block disagree on this condition", name);
  case KE_GRID_BARRIER:
    rt_error(s->loc, "syncthreads(grid) in kernel '%s' timed out: not every block of the grid reached it", name);
  case KE_WARP_TRIPS:
    rt_error(s->loc, "warp collectives in kernel '%s': the lanes of a warp run this loop different numbers of times",
             name);
  }
  rt_error(at, "kernel '%s' failed", name);
}
