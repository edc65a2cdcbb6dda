/* emit_kernel.c: the parts of a kernel's source the C and CUDA dialects share: special
   parameters, the thread prelude and outputs, argument loads, the kernel's end, the device
   functions it reaches, declarations and the file's tail. */
#include "codegen/emit.h"

const KSpecial *em_special_of(KSpec *S, int param) {
  for (int i = 0; i < S->nspecial; i++)
    if (S->special[i].param == param) return &S->special[i];
  return NULL;
}

/* The value of a special parameter for the current thread. Thread coordinates: P<d>
   (position), T<d> (in block), B<d> (block index); launch sizes n<d>, b<d>, c<d>. */
static char *special_value(Em *E, const KSpecial *sp) {
  int D = E->S->D;
  const char *n = sp->name;
  if (!strcmp(n, "warpsize")) return "32";
  bool group = !strcmp(n, "coalesced_threads") || !strcmp(n, "this_thread_block");   /* blkpos's linear index */
  char c = !strcmp(n, "pos") ? 'P' : !strcmp(n, "blkpos") || group ? 'T' : !strcmp(n, "blkidx") ? 'B' :
           !strcmp(n, "blkdim") ? 'b' : 'c';
  bool size = c == 'b' || c == 'c';
  if (sp->t.kind == K_INT) {
    Buf b = {0};
    if (size) {
      for (int d = 0; d < D; d++) em_bprintf(&b, "%s%c%d", d ? " * " : "", c, d);
    } else {
      /* row-major linear index over the extents: pos over cnt*blk, blkpos over blk, blkidx over cnt */
      em_bputs(&b, "(int64_t)0");
      for (int d = 0; d < D; d++) {
        char *prev = em_sf(E, "%s", b.s);
        b.len = 0;
        if (c == 'P') em_bprintf(&b, "(%s) * (c%d * b%d) + %c%d", prev, d, d, c, d);
        else em_bprintf(&b, "(%s) * %c%d + %c%d", prev, c == 'T' ? 'b' : 'c', d, c, d);
      }
    }
    char *r = em_sf(E, "((int32_t)(%s))", b.s);
    free(b.s);
    return r;
  }
  Buf b = {0};
  em_bprintf(&b, "%s{", em_lit_open(E, em_ctype(E, sp->t)));
  for (int d = 0; d < sp->t.len; d++) {
    const char *v = d < D ? em_sf(E, "(%s)%c%d", sp->t.elem == K_INT ? "int32_t" : "oq_real", c, d) : size ? "1" : "0";
    em_bprintf(&b, "%s%s", d ? ", " : "", v);
  }
  em_bputs(&b, "}}");
  char *r = em_sf(E, "%s", b.s);
  free(b.s);
  return r;
}

static char *identity(Op op, KType t) {
  bool i = t.kind == K_INT;
  switch (op) {
  case OP_MAX: return i ? "INT32_MIN" : "(-(oq_real)INFINITY)";
  case OP_MIN: return i ? "INT32_MAX" : "((oq_real)INFINITY)";
  case OP_MUL: return i ? "1" : "((oq_real)1)";
  default: return i ? "0" : "((oq_real)0)";
  }
}

/* Whether output slot is only ever the target of `+=` (never read otherwise). */
static bool only_accumulated(const Node *n, int slot) {
  if (!n) return true;
  if (n->kind == N_IDENT) return n->slot != slot || n->depth != 0;
  if (n->kind == N_ASSIGN && n->op == OP_ADD && n->list.n == 1 && n->list.items[0]->kind == N_IDENT &&
      n->list.items[0]->slot == slot && n->list.items[0]->depth == 0)
    return only_accumulated(n->b, slot);
  for (AstKids it = ast_kids(n); it.node; ast_next(&it))
    if (!only_accumulated(it.node, slot)) return false;
  return true;
}

/* A thread's starting value of output slot s: the identity of its operator. A real output
   only ever added to starts at -0, which `-0 + x` returns exactly (x for every x, where
   +0 + -0 is +0), so that the C compiler drops the addition; the thread's value is then
   added into the worker's accumulator, which starts at +0 as the oracle's output does. */
static char *thread_identity(Em *E, int s) {
  KType t = E->S->kspec->slots[s];
  Op op = E->S->out_op[s - E->S->kfunc->ngenerics - E->S->kfunc->nparams];
  if (t.kind == K_REAL && op == OP_ADD) {
    const NodeList *body = &E->S->kfunc->body;
    bool only = true;
    for (int i = 0; i < body->n && only; i++) only = only_accumulated(body->items[i], s);
    if (only) return "(-(oq_real)0)";
  }
  return identity(op, t);
}

/* A thread's value v into the accumulator acc (an int64_t or a double): max and min of
   reals compare in double, as acc is (through oq_real, each step's two conversions were
   the loop's critical path: a whole-array max took 4x a sum on the CPU). */
static char *combine(Em *E, Op op, char *acc, char *v, KType t) {
  bool i = t.kind == K_INT;
  switch (op) {
  case OP_MAX: return em_sf(E, i ? "oq_lmax(%s, %s)" : "oq_dmax(%s, %s)", acc, v);
  case OP_MIN: return em_sf(E, i ? "oq_lmin(%s, %s)" : "oq_dmin(%s, %s)", acc, v);
  case OP_MUL: return em_sf(E, "(%s * %s)", acc, v);
  default: return em_sf(E, "(%s + %s)", acc, v);
  }
}

/* Declarations at the start of one thread: special parameters, and in non-phase code the
   thread's locals. */
void em_thread_prelude(Em *E, bool locals) {
  FSpec *k = E->S->kspec;
  Func *f = k->func;
  FuncInfo *fi = func_info(f);
  for (int i = 0; i < f->nparams; i++) {
    const KSpecial *sp = em_special_of(E->S, i);
    int s = f->ngenerics + i;
    if (!sp) continue;
    if (E->lin && s == E->lin_slot) continue;   /* every use reads element _r */
    if (E->sc[s] == SC_SPECIAL) em_line(E, "const %s %s = %s;", em_ctype(E, sp->t), em_slot_name(E, k, s), special_value(E, sp));
    else if (!E->phases || locals) em_line(E, "%s = %s;", em_slot_ref(E, s), special_value(E, sp));
  }
  if (!locals) return;
  int obase = f->ngenerics + f->nparams;
  for (int s = f->ngenerics; s < fi->nslots; s++) {
    if (E->sc[s] != SC_LOCAL) continue;
    int pi = s - f->ngenerics;
    bool is_param = pi < f->nparams, is_out = s >= obase && s < obase + f->nouts;
    if (is_param && em_special_of(E->S, pi)) continue;
    if (E->phases) {
      if (is_param) em_line(E, "%s = p%d;", em_slot_ref(E, s), pi);
      else if (is_out) em_line(E, "%s = %s;", em_slot_ref(E, s), thread_identity(E, s));
      continue;
    }
    const char *ct = em_ctype(E, k->slots[s]);
    if (is_param) em_line(E, "%s %s = p%d;", ct, em_slot_name(E, k, s), pi);
    else if (is_out) em_line(E, "%s %s = %s;", ct, em_slot_name(E, k, s), thread_identity(E, s));
    else em_line(E, "%s %s = {0};", ct, em_slot_name(E, k, s));
  }
}

/* One thread's part of a phase (statements from..to-1 of l): its specials, the plain locals
   of the phase it uses (they carry nothing over a barrier), the statements. */
void em_phase_body(Em *E, NodeList *l, int from, int to) {
  em_thread_prelude(E, false);
  FSpec *k = E->S->kspec;
  for (int s = 0; s < func_info(k->func)->nslots; s++)
    if (E->sc[s] == SC_LOCAL && E->pphase[s] == 1) {
      bool used = false;
      for (int i = from; i < to && !used; i++) used = mentions_var(l->items[i], var_slot(s));
      if (used) em_line(E, "%s %s = {0};", em_ctype(E, k->slots[s]), em_slot_name(E, k, s));
    }
  for (int i = from; i < to; i++) em_st(E, l->items[i]);
}

void em_thread_outputs(Em *E) { em_thread_outputs_into(E, "acc%d"); }

/* The thread's outputs combined into the accumulators named by fmt (one %d: the output). */
void em_thread_outputs_into(Em *E, const char *fmt) {
  Func *f = E->S->kfunc;
  int obase = f->ngenerics + f->nparams;
  for (int o = 0; o < f->nouts; o++) {
    char *v = em_slot_ref(E, obase + o), *acc = em_sf(E, fmt, o);
    em_line(E, "%s = %s;", acc, combine(E, E->S->out_op[o], acc, v, E->S->kspec->slots[obase + o]));
  }
}

/* The array value of argument a (its dims) whose elements are at data. */
char *em_array_literal(Em *E, KType t, const char *data, const char *a) {
  Buf b = {0};
  em_bprintf(&b, "%s(%s *)%s, {", em_lit_open(E, em_ctype(E, t)), em_el_ctype(t.el), data);
  for (int d = 0; d < t.rank; d++) em_bprintf(&b, "%s(oq_ix)%s.dims[%d]", d ? ", " : "", a, d);
  em_bputs(&b, "}}");
  char *r = em_sf(E, "%s", b.s);
  free(b.s);
  return r;
}

/* Loads of the parameters and captured variables at the entry. */
static char *arg_load(Em *E, KType t, const char *a) {
  switch (t.kind) {
  case K_BOOL: case K_INT: return em_sf(E, "(int32_t)%s.i", a);
  case K_REAL: return em_sf(E, "(oq_real)%s.re", a);
  case K_CPLX: return em_sf(E, "oq_mkc(%s.re, %s.im)", a, a);
  case K_ARRAY: return em_array_literal(E, t, em_sf(E, "%s.data", a), a);
  case K_VEC: {
    Buf b = {0};
    em_bprintf(&b, "%s{", em_lit_open(E, em_ctype(E, t)));
    for (int k = 0; k < t.len; k++) em_bprintf(&b, "%s(%s)%s.v[%d]", k ? ", " : "", t.elem == K_INT ? "int32_t" : "oq_real", a, k);
    em_bputs(&b, "}}");
    char *r = em_sf(E, "%s", b.s);
    free(b.s);
    return r;
  }
  default: return NULL;
  }
}

/* The type of shared array s, from its shared() call site's node. */
bool em_shared_type(Em *E, int s, KType *t) {
  FSpec *k = E->S->kspec;
  for (int i = 0; i < k->info.cap; i++) {
    NodeInfo *ni = &k->info.items[i];
    if (ni->node && ni->builtin == KB_SHARED && ni->site == s) {
      *t = ni->t;
      return true;
    }
  }
  return false;
}

/* The entry's loads: launch sizes, parameters, captures, the Cx of device functions,
   private copies, output accumulators and shared arrays. */
void em_kernel_loads(Em *E) {
  KSpec *S = E->S;
  FSpec *k = S->kspec;
  Func *f = k->func;
  int D = S->D;
  int obase = f->ngenerics + f->nparams;
  /* CUDA reads the launch by value (OqkGrid P, see emit_cuda_kernel; argument i is P.a<i>);
     C through L */
  const char *lp = E->D->launch_at, *la = E->D->arg_fmt;
  for (int d = 0; d < D; d++) {
    char *blk = S->cblk[0] ? em_sf(E, "(oq_ix)%lld", (long long)S->cblk[d]) : em_sf(E, "(oq_ix)%sblk[%d]", lp, d);
    bool one = S->cblk[0] && (S->one_block >> d & 1);   /* constants: the carries of digit d fold */
    char *n = one ? blk : em_sf(E, "(oq_ix)%sdims[%d]", lp, d), *c = one ? "(oq_ix)1" : em_sf(E, "(oq_ix)%scnt[%d]", lp, d);
    em_line(E, "const oq_ix n%d = %s, b%d = %s, c%d = %s; (void)n%d; (void)b%d; (void)c%d;", d, n, d, blk, d, c, d, d, d);
  }
  /* parameters and captures */
  for (int i = 0; i < f->nparams; i++) {
    if (em_special_of(S, i) || !em_has_repr(k->params[i])) continue;
    char *a = em_sf(E, la, i);
    int s = f->ngenerics + i;
    const char *name = E->sc[s] == SC_PARAM ? em_slot_name(E, k, s) : em_sf(E, "p%d", i);
    char *v = E->D->param_load ? E->D->param_load(E, i, k->params[i], a) : NULL;
    if (!v) v = arg_load(E, k->params[i], a);
    em_line(E, "const %s %s = %s;", em_ctype(E, k->params[i]), name, v);
    if (E->sc[s] == SC_PARAM) em_line(E, "(void)%s;", name);
  }
  Buf cxinit = {0};
  for (int c = 0; c < S->ncaps; c++) {
    Capture *cp = &S->caps[c];
    if (!em_has_repr(cp->type)) continue;
    char *a = em_sf(E, la, f->nparams + c);
    em_line(E, "const %s cap%d = %s; (void)cap%d;", em_ctype(E, cp->type), c, arg_load(E, cp->type, a), c);
    em_bprintf(&cxinit, ", cap%d", c);
  }
  E->D->priv_loads(E);
  em_line(E, "Cx cx_ = {L%s};", cxinit.s ? cxinit.s : "");
  em_line(E, "Cx *cx = &cx_; (void)cx;");
  free(cxinit.s);
  for (int o = 0; o < f->nouts; o++) {
    KType t = k->slots[obase + o];
    const char *ct = t.kind == K_INT ? "int64_t" : "double";
    if (E->D->out_identity) em_line(E, "%s acc%d = %s;", ct, o, identity(S->out_op[o], t));
    else if (t.kind == K_INT) em_line(E, "int64_t acc%d = W->out_i[%d];", o, o);
    else em_line(E, "double acc%d = W->out_r[%d];   /* per worker, in double as on the GPU */", o, o);
  }
  /* shared arrays: one per shared() call site, reset at every block (fibers: per worker,
     at file scope) */
  KType st;
  for (int s = 0; s < S->facts.nshared && !E->fiber; s++)
    if (em_shared_type(E, s, &st)) em_line(E, "%s sh%d = {0}; int sh%d_init = 0;", em_ctype(E, st), s, s);
}

void em_kernel_end(Em *E) {
  free(E->lin_test.s);   /* (find_linear's: the C dialect's flat entry reads it, when not tiled) */
  E->lin_test = (Buf){0};
  free(E->sc);
  free(E->posdef);
  E->posdef = NULL;
  free(E->konst);
  free(E->pphase);
  free(E->tconst);
  E->tconst = NULL;
  free(E->dead);
  E->konst = NULL;
  E->pphase = NULL;
  E->dead = NULL;
  E->ndead = 0;
}

/* ---- the file ---- */

/* TinyCC (the CPU back end's first build, rt_cpu.c) has no complex numbers: it defines the
   complex types as structs (emit_c.c, helpers_c_tcc_cplx). */
const char *const em_preamble_fmt =
  "/* generated by oq (OpenQuasar) from kernel %s */\n"
  "#include <stdint.h>\n#include <stddef.h>\n#include <string.h>\n#include <stdlib.h>\n"
  "#include <math.h>\n"
  "#ifndef __TINYC__\n#include <complex.h>\n#endif\n"
  "%s\n"
  "typedef %s oq_real;\n"
  "#ifndef __TINYC__\ntypedef %s _Complex oq_cplx;\n"
  "typedef float _Complex oq_c64;\ntypedef double _Complex oq_c128;\n#endif\n";

/* Helpers of both dialects: OQ_FN is `static inline` in C and adds __device__ in CUDA. */
const char *const em_helpers_common =
  "OQ_FN int64_t oq_trunc64(double x) {\n"
  "  if (x != x) return 0;\n"
  "  if (x >= 9223372036854775807.0) return INT64_MAX;\n"
  "  if (x <= -9223372036854775808.0) return INT64_MIN;\n"
  "  return (int64_t)x;\n}\n"
  "OQ_FN int64_t oq_idxr(double x) { return x != x ? INT64_MIN : oq_trunc64(x); }\n"
  "#ifdef oq_cvtt\n"
  "/* oq_idxr, faster: cvtt truncates every value an int64 holds, gives INT64_MIN for the others */\n"
  "OQ_FN int64_t oq_idxff(float x) { int64_t t = oq_cvttf(x); return __builtin_expect(t == INT64_MIN, 0) ? oq_idxr(x) : t; }\n"
  "OQ_FN int64_t oq_idxfd(double x) { int64_t t = oq_cvttd(x); return __builtin_expect(t == INT64_MIN, 0) ? oq_idxr(x) : t; }\n"
  "#define oq_idxf(x) _Generic((x), float: oq_idxff, default: oq_idxfd)(x)\n"
  "#else\n"
  "#define oq_idxf(x) oq_idxr((double)(x))\n"
  "#endif\n"
  "OQ_FN int oq_f24(int64_t x) { return (uint64_t)(x + 16777216) <= 33554432u; }\n"
  "/* an index from a scalar where only in or out of the array matters: NaN and huge values are out */\n"
  "OQ_FN int64_t oq_idxz(double x) { return x > -4e18 && x < 4e18 ? (int64_t)x : INT64_MIN; }\n"
  "OQ_FN int64_t oq_pmod(int64_t i, int64_t n) { int64_t r = i % n; return r < 0 ? r + n : r; }\n"
  "OQ_FN int64_t oq_circ(int64_t i, int64_t n) { if ((uint64_t)i < (uint64_t)n) return i; return n <= 0 ? -1 : oq_pmod(i, n); }\n"
  "OQ_FN int64_t oq_mirror(int64_t i, int64_t n) {   /* rt_index.c's: -1 -> 1, n -> n-1 */\n"
  "  if ((uint64_t)i < (uint64_t)n) return i;\n"
  "  if (n <= 0) return -1;\n"
  "  const int64_t j = (int64_t)((i < 0 ? 0 - (uint64_t)i : (uint64_t)i) % (uint64_t)(2 * n));\n"
  "  return j < n ? j : 2 * n - 1 - j;\n}\n"
  "OQ_FN int64_t oq_clampi(int64_t i, int64_t n) { if (n <= 0) return -1; return i < 0 ? 0 : i >= n ? n - 1 : i; }\n"
  "OQ_FN int64_t oq_dim(const oq_ix *d, int rank, int64_t k) { return k >= 0 && k < rank ? d[k] : 1; }\n"
  "/* ints wrap (docs/language.md): these compute through unsigned, without UB in either dialect */\n"
  "OQ_FN int32_t oq_iabs(int32_t x) { return x < 0 ? (int32_t)(0u - (uint32_t)x) : x; }\n"
  "OQ_FN int32_t oq_imax(int32_t x, int32_t y) { return x > y ? x : y; }\n"
  "OQ_FN int32_t oq_imin(int32_t x, int32_t y) { return x < y ? x : y; }\n"
  "OQ_FN int64_t oq_lmax(int64_t x, int64_t y) { return x > y ? x : y; }\n"
  "OQ_FN int64_t oq_lmin(int64_t x, int64_t y) { return x < y ? x : y; }\n"
  "OQ_FN oq_real oq_rmax(oq_real x, oq_real y) { return x > y || y != y ? x : y; }\n"
  "OQ_FN oq_real oq_rmin(oq_real x, oq_real y) { return x < y || y != y ? x : y; }\n"
  "OQ_FN double oq_dmax(double x, double y) { return x > y || y != y ? x : y; }\n"
  "OQ_FN double oq_dmin(double x, double y) { return x < y || y != y ? x : y; }\n"
  "OQ_FN oq_real oq_rsign(oq_real x) { return x > 0 ? 1 : x < 0 ? -1 : x; }\n"
  "OQ_FN oq_real oq_fmod(oq_real x, oq_real y) { return (oq_real)fmod((double)x, (double)y); }\n"
  "OQ_FN int64_t oq_shift(int64_t x, int64_t n, int left) {\n"
  "  if (n < 0) { n = -n; left = !left; }\n"
  "  if (left) return n >= 64 ? 0 : (int64_t)((uint64_t)x << n);\n"
  "  return n >= 64 ? (x < 0 ? -1 : 0) : x >> n;\n}\n"
  "OQ_FN int32_t oq_ipow(int32_t x, int32_t e) { uint32_t r = 1; for (int32_t k = 0; k < e && k < 64; k++) r *= (uint32_t)x; return (int32_t)r; }\n"
  "OQ_FN void oq_fail(OqkLaunch *L, int site) { oq_claim(L, site); }\n"
  "OQ_FN void oq_fail_index(OqkLaunch *L, int site, int n, const int64_t *ix, int rank, const oq_ix *dims) {\n"
  "  if (!oq_claim(L, site)) return;\n"
  "  L->err_n = n; L->err_rank = rank;\n"
  "  for (int i = 0; i < n && i < 16; i++) L->err_ix[i] = ix[i];\n"
  "  for (int i = 0; i < rank && i < 16; i++) L->err_dims[i] = dims[i];\n}\n"
  "OQ_FN int32_t oq_imod(OqkLaunch *L, int site, int32_t a, int32_t b) {\n"
  "  if (b == 0) { oq_fail(L, site); return 0; }\n"
  "  return b == -1 ? 0 : a % b;\n}\n"
  "OQ_FN int32_t oq_idiv(OqkLaunch *L, int site, int32_t a, int32_t b) {\n"
  "  if (b == 0) { oq_fail(L, site); return 0; }\n"
  "  return b == -1 ? (int32_t)(0u - (uint32_t)a) : a / b;\n}\n";

static int by_call_site(const void *pa, const void *pb) {
  const NodeInfo *a = *(NodeInfo *const *)pa, *b = *(NodeInfo *const *)pb;
  if (a->node->loc.line != b->node->loc.line) return a->node->loc.line - b->node->loc.line;
  if (a->node->loc.col != b->node->loc.col) return a->node->loc.col - b->node->loc.col;
  return a->callee->id - b->callee->id;
}

/* Every function the kernel calls, directly or not, in the order of the call sites (the
   node map's order follows addresses: the source, and so the cache key, would change from
   run to run). */
void em_reach(Em *E, FSpec *f) {
  for (int i = 0; i < E->nreach; i++)
    if (E->reach[i] == f) return;
  E->reach = realloc(E->reach, (E->nreach + 1) * sizeof *E->reach);
  E->reach[E->nreach++] = f;
  NodeInfo **calls = malloc((f->info.cap + 1) * sizeof *calls);
  int n = 0;
  for (int i = 0; i < f->info.cap; i++)
    if (f->info.items[i].node && f->info.items[i].callee) calls[n++] = &f->info.items[i];
  qsort(calls, n, sizeof *calls, by_call_site);
  for (int i = 0; i < n; i++) em_reach(E, calls[i]->callee);
  free(calls);
}

/* Tuple types and prototypes of the device functions, and the Cx of captured values. */
void em_emit_decls(Em *E, Buf *protos, Buf *cx) {
  KSpec *S = E->S;
  for (int i = 1; i < E->nreach; i++) {
    FSpec *g = E->reach[i];
    if (g->result.kind == K_TUPLE) {
      Func *f = g->func;
      em_bprintf(&E->tuptypes, "typedef struct {");
      for (int o = 0; o < f->nouts; o++)
        em_bprintf(&E->tuptypes, " %s o%d;", em_ctype(E, g->slots[f->ngenerics + f->nparams + o]), o);
      em_bprintf(&E->tuptypes, " } oqt_%d;\n", g->id);
    }
    em_func_signature(E, g, protos);
    em_bputs(protos, ";\n");
  }
  em_bputs(cx, "typedef struct Cx {\n  OqkLaunch *L;\n");
  for (int c = 0; c < S->ncaps; c++)
    if (em_has_repr(S->caps[c].type)) em_bprintf(cx, "  %s cap%d;\n", em_ctype(E, S->caps[c].type), c);
  em_bputs(cx, "} Cx;\n");
}

void em_vec_types(Buf *out) {
  for (int len = 1; len <= K_MAX_VEC; len++) {
    em_bprintf(out, "typedef struct { int32_t v[%d]; } oqv_i%d;\n", len, len);
    em_bprintf(out, "typedef struct { oq_real v[%d]; } oqv_r%d;\n", len, len);
  }
}

/* Array and tuple types, Cx, prototypes, the functions; frees what the emitter held. */
void em_emit_tail(Em *E, Buf *out, Buf *protos, Buf *cx, Buf *funcs) {
  if (E->arrtypes.s) em_bputs(out, E->arrtypes.s);
  if (E->tuptypes.s) em_bputs(out, E->tuptypes.s);
  em_bputs(out, cx->s);
  if (protos->s) em_bputs(out, protos->s);
  em_bputs(out, "\n");
  em_bputs(out, funcs->s);
  free(funcs->s);
  free(protos->s);
  free(cx->s);
  free(E->arrtypes.s);
  free(E->tuptypes.s);
  free(E->reach);
}
