/* emit_c.c: C source for a specialized kernel (kernel_sema.c gives every node its type).

   The generated file holds one exported entry, oqk_entry(L, W, lo, hi), that runs a range of
   work: in "flat" kernels (only `pos` is used) a range of linear positions, run as loops whose
   innermost dimension the C compiler can vectorize; otherwise a range of blocks, each block
   running its threads in row-major order like the oracle. Kernels with syncthreads are cut
   at their barriers into phases, each a loop over the threads of the block; locals become
   per-thread arrays, and statements that hold a barrier (under conditions every thread
   agrees on) run once per block around their phases.

   Expressions become pure C expressions; what needs statements first (array reads with
   their index temporaries, device calls, atomics) is written before the statement that uses
   it. Arithmetic follows the interpreter: single-precision results are what double
   arithmetic rounded to float gives (libm in double, then rounded), ints are int32_t. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernel_ir.h"
#include "oqk_abi.h"

typedef struct Buf { char *s; size_t len, cap; } Buf;

static void bput(Buf *b, const char *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    b->cap = (b->len + n + 1) * 2;
    b->s = realloc(b->s, b->cap);
  }
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = 0;
}

static void bputs(Buf *b, const char *s) { bput(b, s, strlen(s)); }

static void bvprintf(Buf *b, const char *fmt, va_list ap) {
  char small[512];
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  if (n < (int)sizeof small) bput(b, small, n);
  else {
    char *big = malloc(n + 1);
    vsnprintf(big, n + 1, fmt, ap2);
    bput(b, big, n);
    free(big);
  }
  va_end(ap2);
}

static void bprintf(Buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  bvprintf(b, fmt, ap);
  va_end(ap);
}

/* Slot storage in the kernel function. */
enum { SC_NONE, SC_LOCAL, SC_PARAM, SC_SPECIAL };

typedef struct Em {
  KSpec *S;
  FSpec *f;             /* function being emitted */
  Buf *b;               /* where statements go */
  int ind;
  int ntmp;
  bool phases;          /* kernel body of a barrier kernel: locals are per-thread arrays */
  unsigned char *sc;    /* kernel: storage class per slot */
  Buf arrtypes, tuptypes;
  bool arrdone[EL_COUNT][OQ_MAX_RANK + 1];
  bool has_return;      /* kernel: `return` jumps to the end of the thread */
  const char *L;        /* C expression of the OqkLaunch pointer here */
  FSpec **reach; int nreach;
  int priv_slot[8], priv_cap[8];   /* private arrays: kernel slot or capture (-1 for neither) */
  const char *ret_label; /* kernel: where `return` goes (the end of the thread) */
  bool row_fast;        /* emitting the row copy where x[pos + c] accesses are known inside */
  int lin_slot;         /* `pos`, when it only ever indexes whole argument arrays (else -1) */
  bool lin;             /* emitting the linear loop: those accesses are x.p[_r] */
  Buf lin_test;         /* at the entry: the arrays have the launch's dimensions */
  char **konst;         /* per slot of the function being emitted: its constant value, or NULL */
  unsigned char *pphase;  /* kernel with barriers: 1: a plain local of each phase (never carries a
                             value over a barrier); 2: one variable per block (a shared array) */
  Node **dead; int ndead;   /* statements that do nothing: zeros stored into fresh shared memory */
  bool cuda;            /* CUDA C++ for NVRTC: one GPU thread per Quasar thread (emit_cuda) */
  char *pf_arr[4]; ElemType pf_el[4]; int npf, pf_k;  /* CUDA tiling: arrays read at pos, loaded ahead */
  unsigned char *tconst;  /* kernel with barriers: the slot's konst is the thread's index or count */
  unsigned ldg_params;  /* CUDA: kernel parameters read through __ldg ('hwtex_const), bit i */
  Node **posdef;        /* kernel: per slot, the value of a local set once to pos[k] + c (see find_pos_locals) */
  bool lin_pos;         /* emitting linear_pos_loop: x[pos + c] accesses (c zero there) are x.p[_r] */
} Em;

_Noreturn static void efail(Em *E, SrcLoc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ksema_reason(E->S, loc, fmt, ap);
  va_end(ap);
  longjmp(E->S->fail, 1);
}

static char *sf(Em *E, const char *fmt, ...) {
  char small[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  char *s = arena_alloc(E->S->arena, n + 1);
  if (n < (int)sizeof small) memcpy(s, small, n + 1);
  else {
    va_start(ap, fmt);
    vsnprintf(s, n + 1, fmt, ap);
    va_end(ap);
  }
  return s;
}

static void line(Em *E, const char *fmt, ...) {
  for (int i = 0; i < E->ind; i++) bputs(E->b, "  ");
  va_list ap;
  va_start(ap, fmt);
  bvprintf(E->b, fmt, ap);
  va_end(ap);
  bputs(E->b, "\n");
}

static char *tmp(Em *E) { return sf(E, "t%d", E->ntmp++); }

static KType T(Em *E, Node *n) {
  NodeInfo *ni = ksema_info(E->f, n);
  if (!ni) efail(E, n->loc, "internal: untyped %s", node_kind_name(n->kind));
  return ni->t;
}

static NodeInfo *I(Em *E, Node *n) {
  NodeInfo *ni = ksema_info(E->f, n);
  if (!ni) efail(E, n->loc, "internal: untyped %s", node_kind_name(n->kind));
  return ni;
}

static KType kt(KKind k) { KType t = {0}; t.kind = k; return t; }

static KKind kclass(KType t) {
  if (t.kind == K_VEC) return t.elem;
  return t.kind == K_BOOL ? K_INT : t.kind;
}

/* ---- C types ---- */

static const char *el_ctype(ElemType e) {
  switch (e) {
  case EL_F32: return "float";
  case EL_F64: return "double";
  case EL_C64: return "oq_c64";     /* float _Complex in C, a struct in CUDA */
  case EL_C128: return "oq_c128";
  case EL_I32: return "int32_t";
  case EL_I8: return "int8_t";
  case EL_U8: return "uint8_t";
  case EL_I16: return "int16_t";
  case EL_U16: return "uint16_t";
  case EL_U32: return "uint32_t";
  case EL_I64: return "int64_t";
  default: return "void";
  }
}

static const char *ctype(Em *E, KType t) {
  switch (t.kind) {
  case K_BOOL: case K_INT: return "int32_t";
  case K_REAL: return "oq_real";
  case K_CPLX: return "oq_cplx";
  case K_VEC: return sf(E, "oqv_%c%d", t.elem == K_INT ? 'i' : 'r', t.len);
  case K_ARRAY:
    if (!E->arrdone[t.el][t.rank]) {
      E->arrdone[t.el][t.rank] = true;
      bprintf(&E->arrtypes, "typedef struct { %s *p; int64_t d[%d]; } oqa_%d_%d;\n", el_ctype(t.el), t.rank,
              (int)t.el, t.rank);
    }
    return sf(E, "oqa_%d_%d", (int)t.el, t.rank);
  case K_TUPLE: return sf(E, "oqt_%d", t.tuple->id);
  default: return NULL;
  }
}

/* The start of a struct literal: a C compound literal, or a C++ braced temporary. */
static char *lit_open(Em *E, const char *type) { return sf(E, E->cuda ? "%s{" : "(%s){", type); }

static bool has_repr(KType t) { return t.kind != K_NONE && t.kind != K_FUNC; }

/* ---- names ---- */

static char *slot_name(Em *E, FSpec *f, int slot) {
  const char *n = func_info(f->func)->slot_names[slot];
  char clean[64];
  int k = 0;
  for (const char *p = n; *p && k < 40; p++)
    clean[k++] = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ? *p : '_';
  clean[k] = 0;
  return sf(E, "v%d_%s", slot, clean);
}

/* The C lvalue of a slot of the function being emitted. */
static char *slot_ref(Em *E, int slot) {
  if (E->konst && E->konst[slot]) return E->konst[slot];
  char *n = slot_name(E, E->f, slot);
  if (E->phases && E->sc[slot] == SC_LOCAL && !(E->pphase && E->pphase[slot])) return sf(E, "%s[_t]", n);
  return n;
}

static char *real_lit(Em *E, double x);

/* ---- locals that are constants: assigned once, a literal ---- */

typedef struct KonstScan { int *nassign; Node **value; } KonstScan;

static void konst_walk(Node *n, KonstScan *k) {
  if (!n) return;
  if (n->kind == N_ASSIGN) {
    for (int i = 0; i < n->list.n; i++) {
      Node *t = n->list.items[i];
      Node *id = t->kind == N_INDEX ? t->a : t;
      if (id->kind != N_IDENT || id->slot < 0 || id->depth != 0) continue;
      k->nassign[id->slot] += t->kind == N_INDEX ? 2 : 1;   /* a component store disqualifies */
      if (n->op != OP_NONE || n->list.n != 1 || t->kind != N_IDENT || !n->b || n->type) k->nassign[id->slot] += 2;
      else k->value[id->slot] = n->b;
    }
  }
  if (n->kind == N_FOR && n->slot >= 0) k->nassign[n->slot] += 2;
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return;
  konst_walk(n->a, k);
  konst_walk(n->b, k);
  konst_walk(n->c, k);
  for (int i = 0; i < n->list.n; i++) konst_walk(n->list.items[i], k);
  for (int i = 0; i < n->list2.n; i++) konst_walk(n->list2.items[i], k);
  for (int i = 0; i < n->ncases; i++)
    for (int j = 0; j < n->cases[i].body.n; j++) konst_walk(n->cases[i].body.items[j], k);
}

/* Reading such a local after its assignment always gives the literal; reading it before
   is an error in the interpreter, and compiled code gives the literal. */
static void find_konst(Em *E, FSpec *f) {
  FuncInfo *fi = func_info(f->func);
  int n = fi->nslots;
  KonstScan k = {calloc(n + 1, sizeof(int)), calloc(n + 1, sizeof(Node *))};
  for (int i = 0; i < f->func->body.n; i++) konst_walk(f->func->body.items[i], &k);
  E->konst = calloc(n + 1, sizeof(char *));
  int first_local = f->func->ngenerics + f->func->nparams + f->func->nouts;
  for (int s = first_local; s < n; s++) {
    Node *v = k.value[s];
    if (k.nassign[s] != 1 || !v) continue;
    int64_t c;
    bool neg = v->kind == N_UNARY && v->op == OP_NEG;
    Node *lit = neg ? v->a : v;
    if (lit->kind == N_INT && f->slots[s].kind == K_INT) {
      c = neg ? -lit->ival : lit->ival;
      E->konst[s] = sf(E, "((int32_t)%lld)", (long long)c);
    } else if (lit->kind == N_REAL && f->slots[s].kind == K_REAL) {
      E->konst[s] = real_lit(E, neg ? -lit->rval : lit->rval);
    }
  }
  free(k.nassign);
  free(k.value);
}

/* ---- numbers ---- */

static char *real_lit(Em *E, double x) {
  if (x != x) return "((oq_real)NAN)";
  if (x > 1e308 * 10) return "((oq_real)INFINITY)";
  if (x < -1e308 * 10) return "(-(oq_real)INFINITY)";
  return sf(E, "((oq_real)%.17g)", x);
}

/* e (of type from) converted to the number class `to` as the interpreter converts. */
static char *conv(Em *E, char *e, KType from, KKind to) {
  KKind c = kclass(from);
  if (to == K_BOOL) to = K_INT;
  if (c == to) return e;
  switch (to) {
  case K_INT: return sf(E, "((int32_t)oq_trunc64((double)%s))", e);   /* only int() asks this */
  case K_REAL: return sf(E, "((oq_real)%s)", e);
  case K_CPLX:
    if (c == K_INT) return sf(E, "oq_mkc((double)%s, 0)", e);
    return sf(E, "oq_mkc(%s, 0)", e);
  default: return e;
  }
}

/* A vector value in a named temporary (so components can be read repeatedly). */
static char *vname(Em *E, char *e, KType t) {
  bool simple = true;
  for (const char *p = e; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' ||
          *p == '[' || *p == ']'))
      simple = false;
  if (simple) return e;
  char *t0 = tmp(E);
  const char *ct = ctype(E, t);
  line(E, "%s %s = %s;", ct ? ct : "__auto_type", t0, e);
  return t0;
}

/* Component k of a vector-or-number value, as class `to`. */
static char *comp(Em *E, char *e, KType t, int k, KKind to) {
  if (t.kind == K_VEC) return conv(E, sf(E, "%s.v[%d]", e, k), kt(t.elem), to);
  return conv(E, e, t, to);
}

static char *truthy(Em *E, char *e, KType t) {
  switch (t.kind) {
  case K_BOOL: return e;
  case K_INT: case K_REAL: return sf(E, "(%s != 0)", e);
  case K_CPLX: return sf(E, "oq_ctruthy(%s)", e);
  case K_VEC: {
    char *v = vname(E, e, t);
    Buf b = {0};
    bputs(&b, "(");
    for (int k = 0; k < t.len; k++) bprintf(&b, "%s%s.v[%d] != 0", k ? " && " : "", v, k);
    bputs(&b, ")");
    char *r = sf(E, "%s", b.s);
    free(b.s);
    return r;
  }
  default: return "0";
  }
}

static bool is_cmp(Op op) { return op >= OP_EQ && op <= OP_GE; }

static const char *cop(Op op) {
  switch (op) {
  case OP_ADD: return "+";
  case OP_SUB: return "-";
  case OP_MUL: case OP_EMUL: return "*";
  case OP_DIV: case OP_EDIV: return "/";
  case OP_EQ: return "==";
  case OP_NE: return "!=";
  case OP_LT: return "<";
  case OP_LE: return "<=";
  case OP_GT: return ">";
  case OP_GE: return ">=";
  case OP_BAND: return "&";
  case OP_BOR: return "|";
  case OP_BXOR: return "^";
  default: return "?";
  }
}

static int div_site(Em *E, Node *at, KErrKind k) {
  KSpec *S = E->S;
  if (S->nsites == S->sitecap) {
    S->sitecap = S->sitecap ? 2 * S->sitecap : 8;
    S->sites = realloc(S->sites, S->sitecap * sizeof *S->sites);
  }
  S->sites[S->nsites] = (KSite){k, at->loc, NULL, NULL};
  return S->nsites++;
}

/* a op b on numbers of types ta, tb (not vectors). */
static char *num_op(Em *E, Op op, char *a, KType ta, char *b, KType tb, Node *at) {
  KKind c = kclass(ta) > kclass(tb) ? kclass(ta) : kclass(tb);
  if (is_cmp(op)) {
    if (c == K_INT) return sf(E, "(%s %s %s)", a, cop(op), b);
    if (c == K_REAL) return sf(E, "((double)%s %s (double)%s)", a, cop(op), b);
    char *r = sf(E, "oq_ceq(%s, %s)", conv(E, a, ta, K_CPLX), conv(E, b, tb, K_CPLX));
    return op == OP_EQ ? r : sf(E, "(!%s)", r);
  }
  switch (op) {
  case OP_BAND: case OP_BOR: case OP_BXOR:
    return sf(E, "(%s %s %s)", kclass(ta) == K_INT ? a : sf(E, "((int32_t)oq_trunc64(%s))", a), cop(op),
              kclass(tb) == K_INT ? b : sf(E, "((int32_t)oq_trunc64(%s))", b));
  case OP_DIV: case OP_EDIV: case OP_POW: case OP_EPOW:
    if (c == K_INT) c = K_REAL;
    break;
  default: break;
  }
  char *x = conv(E, a, ta, c), *y = conv(E, b, tb, c);
  if (c == K_CPLX) {
    switch (op) {
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_EMUL: case OP_DIV: case OP_EDIV:
      return sf(E, "((oq_cplx)((oq_c128)%s %s (oq_c128)%s))", x, cop(op), y);
    case OP_POW: case OP_EPOW: return sf(E, "((oq_cplx)oq_cpow(%s, %s))", x, y);
    default: efail(E, at->loc, "operator '%s' on complex numbers", op_name(op));
    }
  }
  switch (op) {
  case OP_ADD: case OP_SUB: case OP_MUL: case OP_EMUL: case OP_DIV: case OP_EDIV:
    return sf(E, "(%s %s %s)", x, cop(op), y);
  case OP_POW: case OP_EPOW:
    /* x^2 of a float: the product is exact in double, so it is pow's result */
    if (!rt_config.double_precision && at && at->kind == N_BINARY && at->b && at->b->kind == N_INT && at->b->ival == 2)
      return sf(E, "((oq_real)((double)%s * (double)%s))", x, x);
    return sf(E, "((oq_real)pow((double)%s, (double)%s))", x, y);
  case OP_MOD:
    if (c == K_INT) return sf(E, "oq_imod(%s, %d, %s, %s)", E->L, div_site(E, at, KE_MODZERO), x, y);
    return sf(E, "oq_fmod(%s, %s)", x, y);
  case OP_MAX: return sf(E, c == K_INT ? "oq_imax(%s, %s)" : "oq_rmax(%s, %s)", x, y);
  case OP_MIN: return sf(E, c == K_INT ? "oq_imin(%s, %s)" : "oq_rmin(%s, %s)", x, y);
  default: efail(E, at->loc, "operator '%s' in compiled code", op_name(op));
  }
}

/* a op b where either may be a vector; r is the result type. */
static char *any_op(Em *E, Op op, char *a, KType ta, char *b, KType tb, KType r, Node *at) {
  if (ta.kind != K_VEC && tb.kind != K_VEC) return num_op(E, op, a, ta, b, tb, at);
  char *va = ta.kind == K_VEC ? vname(E, a, ta) : a, *vb = tb.kind == K_VEC ? vname(E, b, tb) : b;
  if (ta.kind != K_VEC && !strchr(va, ' ') && strchr(va, '(')) va = vname(E, va, ta);
  if (ta.kind == K_VEC && tb.kind == K_VEC && op == OP_MUL) {
    /* inner product, summed in double (or int64) as the runtime's matrix product */
    Buf s = {0};
    bool real = kclass(r) == K_REAL;
    for (int k = 0; k < ta.len; k++)
      bprintf(&s, "%s(%s)%s.v[%d] * (%s)%s.v[%d]", k ? " + " : "", real ? "double" : "int64_t", va, k,
              real ? "double" : "int64_t", vb, k);
    char *e = sf(E, "((%s)(%s))", ctype(E, r), s.s);
    free(s.s);
    return e;
  }
  char *t0 = tmp(E);
  line(E, "%s %s;", ctype(E, r), t0);
  int len = ta.kind == K_VEC ? ta.len : tb.len;
  KType ea = ta.kind == K_VEC ? kt(ta.elem) : ta, eb = tb.kind == K_VEC ? kt(tb.elem) : tb;
  for (int k = 0; k < len; k++) {
    char *x = ta.kind == K_VEC ? sf(E, "%s.v[%d]", va, k) : va;
    char *y = tb.kind == K_VEC ? sf(E, "%s.v[%d]", vb, k) : vb;
    line(E, "%s.v[%d] = %s;", t0, k, num_op(E, op, x, ea, y, eb, at));
  }
  return t0;
}

/* ---- expressions ---- */

static char *ex(Em *E, Node *n);
static void st(Em *E, Node *n);
static void block(Em *E, NodeList *l);

/* Emits n into a separate buffer; *pre gets the statements it needed (NULL when none). */
static char *ex_apart(Em *E, Node *n, char **pre) {
  Buf *saved = E->b, b = {0};
  int ind = E->ind;
  E->b = &b;
  E->ind = 1;
  char *e = ex(E, n);
  E->b = saved;
  E->ind = ind;
  *pre = b.len ? sf(E, "%s", b.s) : NULL;
  free(b.s);
  return e;
}

static void put_pre(Em *E, const char *pre) {
  /* pre was written at indentation 1; re-indent each line */
  const char *p = pre;
  while (*p) {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    while (n && *p == ' ') { p++; n--; }
    for (int i = 0; i < E->ind; i++) bputs(E->b, "  ");
    bput(E->b, p, n);
    bputs(E->b, "\n");
    p += n + (nl ? 1 : 0);
  }
}

static char *ex_logic(Em *E, Node *n) {
  char *a = truthy(E, ex(E, n->a), T(E, n->a)), *pre;
  char *b = ex_apart(E, n->b, &pre);
  b = truthy(E, b, T(E, n->b));
  if (!pre) return sf(E, "(%s %s %s)", a, n->op == OP_AND ? "&&" : "||", b);
  char *t0 = tmp(E);
  line(E, "int32_t %s = %s;", t0, a);
  line(E, "if (%s%s) {", n->op == OP_AND ? "" : "!", t0);
  E->ind++;
  put_pre(E, pre);
  line(E, "%s = %s;", t0, b);
  E->ind--;
  line(E, "}");
  return t0;
}

static char *ex_cond(Em *E, Node *n) {
  KType r = T(E, n);
  char *c = truthy(E, ex(E, n->a), T(E, n->a)), *pa, *pb;
  char *a = ex_apart(E, n->b, &pa), *b = ex_apart(E, n->c, &pb);
  KType ta = T(E, n->b), tb = T(E, n->c);
  if (r.kind == K_VEC) {
    char *t0 = tmp(E);
    line(E, "%s %s;", ctype(E, r), t0);
    line(E, "if (%s) {", c);
    E->ind++;
    if (pa) put_pre(E, pa);
    for (int k = 0; k < r.len; k++) line(E, "%s.v[%d] = %s;", t0, k, comp(E, a, ta, k, r.elem));
    E->ind--;
    line(E, "} else {");
    E->ind++;
    if (pb) put_pre(E, pb);
    for (int k = 0; k < r.len; k++) line(E, "%s.v[%d] = %s;", t0, k, comp(E, b, tb, k, r.elem));
    E->ind--;
    line(E, "}");
    return t0;
  }
  a = conv(E, a, ta, r.kind);
  b = conv(E, b, tb, r.kind);
  if (!pa && !pb) return sf(E, "(%s ? %s : %s)", c, a, b);
  char *t0 = tmp(E);
  line(E, "%s %s;", ctype(E, r), t0);
  line(E, "if (%s) {", c);
  E->ind++;
  if (pa) put_pre(E, pa);
  line(E, "%s = %s;", t0, a);
  E->ind--;
  line(E, "} else {");
  E->ind++;
  if (pb) put_pre(E, pb);
  line(E, "%s = %s;", t0, b);
  E->ind--;
  line(E, "}");
  return t0;
}

static char *ex_ident(Em *E, Node *n) {
  NodeInfo *ni = I(E, n);
  if (!has_repr(ni->t)) return "0";
  if (n->slot < 0) {
    const Global *g = n->aux;
    if (g->value.kind == V_SCALAR) return real_lit(E, g->value.s);
    return sf(E, "%lld", (long long)g->value.i);
  }
  if (ni->cap >= 0) return E->f->is_kernel ? sf(E, "cap%d", ni->cap) : sf(E, "cx->cap%d", ni->cap);
  if (n->depth > 0) efail(E, n->loc, "internal: enclosing variable '%s'", n->name);
  return slot_ref(E, n->slot);
}

static char *ex_unary(Em *E, Node *n) {
  KType t = T(E, n->a), r = T(E, n);
  char *a = ex(E, n->a);
  if (n->op == OP_NOT) return sf(E, "(!%s)", truthy(E, a, t));
  if (n->op == OP_PLUS) return a;
  if (t.kind == K_VEC) {
    char *v = vname(E, a, t), *t0 = tmp(E);
    line(E, "%s %s;", ctype(E, r), t0);
    for (int k = 0; k < t.len; k++) line(E, "%s.v[%d] = -%s.v[%d];", t0, k, v, k);
    return t0;
  }
  return sf(E, "(-%s)", a);
}

static char *ex_binary(Em *E, Node *n) {
  if (n->op == OP_AND || n->op == OP_OR) return ex_logic(E, n);
  char *a = ex(E, n->a), *b = ex(E, n->b);
  return any_op(E, n->op, a, T(E, n->a), b, T(E, n->b), T(E, n), n);
}

/* Range bounds as C expressions (ints or reals). */
static char *ex_range_value(Em *E, Node *n) {
  KType r = T(E, n);
  char *a = ex(E, n->a), *s = n->b ? ex(E, n->b) : "1";
  KType ta = T(E, n->a), ts = n->b ? T(E, n->b) : kt(K_INT);
  char *t0 = tmp(E);
  line(E, "%s %s;", ctype(E, r), t0);
  for (int k = 0; k < r.len; k++) {
    if (r.elem == K_INT) line(E, "%s.v[%d] = (int32_t)(%s + %d * %s);", t0, k, a, k, s);
    else line(E, "%s.v[%d] = (oq_real)((double)%s + (double)%d * (double)%s);", t0, k, conv(E, a, ta, K_REAL), k,
              conv(E, s, ts, K_REAL));
  }
  return t0;
}

static char *ex_matrix(Em *E, Node *n) {
  KType r = T(E, n);
  char *t0 = tmp(E);
  char **el = calloc(n->list.n, sizeof *el);
  for (int i = 0; i < n->list.n; i++) {
    el[i] = ex(E, n->list.items[i]);
    if (T(E, n->list.items[i]).kind == K_VEC) el[i] = vname(E, el[i], T(E, n->list.items[i]));
  }
  line(E, "%s %s;", ctype(E, r), t0);
  int k = 0;
  for (int i = 0; i < n->list.n; i++) {
    KType t = T(E, n->list.items[i]);
    if (t.kind == K_VEC) {
      for (int j = 0; j < t.len; j++) line(E, "%s.v[%d] = %s;", t0, k++, comp(E, el[i], t, j, r.elem));
    } else {
      line(E, "%s.v[%d] = %s;", t0, k++, conv(E, el[i], t, r.elem));
    }
  }
  free(el);
  return t0;
}

/* ---- array indexing ---- */

typedef enum Rule { R_ZERO, R_CHECKED, R_UNCHECKED, R_CIRC, R_MIRROR, R_CLAMP } Rule;

static Rule rule_of(unsigned m) {
  if (m & TM_CIRCULAR) return R_CIRC;
  if (m & TM_MIRROR) return R_MIRROR;
  if (m & TM_CLAMPED) return R_CLAMP;
  if (m & TM_SAFE) return R_ZERO;
  if (m & TM_CHECKED) return R_CHECKED;
  if (m & TM_UNCHECKED) return R_UNCHECKED;
  return R_ZERO;
}

/* An index list resolved to plan dimensions. */
typedef struct Plan {
  int ndim;
  char *size[OQ_MAX_RANK];     /* size of each plan dimension */
  char *idx[OQ_MAX_RANK];      /* int64 index (named) of each plan dimension; vdim: NULL */
  char *ridx[OQ_MAX_RANK];     /* or a scalar index, for the zero/unchecked rules (idx NULL) */
  int vdim;                    /* dimension indexed by a vector, or -1 */
  int vlen;
  char *vec; KType vt;         /* that vector */
  Rule rule;
  int site;                    /* 'checked: error site */
  char *arr;                   /* the array (a name) */
  int rank;
  int priv;                    /* private-copy candidate k (see find_private), or -1 */
  bool lin;                    /* x[pos] in the linear loop: element _r, always inside */
  bool inside;                 /* x[pos + c] in a row known to be inside x */
} Plan;

/* Dimension d of array arr (of type t) as a C expression: a constant when known. */
static char *adim(Em *E, const char *arr, KType t, int d) {
  if (d >= t.rank) return "1";
  if (t.cdims) return sf(E, "(int64_t)%lld", (long long)t.cdims[d]);
  return sf(E, "%s.d[%d]", arr, d);
}

static char *idx64(Em *E, char *e, KType t) {
  if (kclass(t) == K_INT) return sf(E, "(int64_t)%s", e);
  return sf(E, "oq_idxf(%s)", e);
}

/* For the zero and unchecked rules only inside/outside matters: a cheaper conversion. */
static char *idx64_rule(Em *E, char *e, KType t, bool cheap) {
  if (kclass(t) == K_INT || !cheap) return idx64(E, e, t);
  return sf(E, "oq_idxz((double)%s)", e);
}

static const char *func_display_name(FSpec *f) { return f->func->name ? f->func->name : "(kernel lambda)"; }

/* ---- exact integer views of scalar index arithmetic ----
   `x[pos + [0,1,0]]` adds ints to a vec of scalars: the interpreter rounds every scalar
   result to float. While every such result is an integer below 2^24 in magnitude the
   rounding changes nothing, and the index can be computed in integers. Values known to be
   that small need no test (positions: the launcher checks the launch extents); others are
   tested, and the scalar computation runs when a test fails. */

#define F24 ((int64_t)1 << 24)

typedef struct IView {
  int len;                       /* components; 0 for a number */
  char *c[K_MAX_VEC];            /* int64 C expression of each component */
  int64_t bound[K_MAX_VEC];      /* |value| <= bound, or -1 when not known */
  bool launch[K_MAX_VEC];        /* the bound holds for launch extents below 2^23 only */
} IView;

static bool is_special_ident(Em *E, Node *n) {
  if (n->kind != N_IDENT || n->slot < 0 || n->depth != 0 || !E->f->is_kernel) return false;
  int pi = n->slot - E->f->func->ngenerics;
  if (pi < 0 || pi >= E->f->func->nparams || E->sc[n->slot] != SC_SPECIAL) return false;
  return strcmp(E->f->func->params[pi].name, "warpsize") != 0;
}

/* A scalar result must be exact in float: test it when its bound is not small enough. */
static void iv_need_exact(Em *E, IView *v, int k, Buf *tests) {
  if (v->bound[k] >= 0 && v->bound[k] <= F24) {
    if (v->launch[k]) E->S->small_launch = true;   /* the launcher must check it */
    return;
  }
  bprintf(tests, "%soq_f24(%s)", tests->len ? " && " : "", v->c[k]);
}

static bool iview(Em *E, Node *n, IView *v, Buf *tests) {
  KType t = T(E, n);
  NodeInfo *ni = ksema_info(E->f, n);
  if (ni && ni->as_vec) return false;
  memset(v, 0, sizeof *v);
  if (n->kind == N_INT) {
    v->c[0] = sf(E, "(int64_t)%lld", (long long)n->ival);
    v->bound[0] = n->ival < 0 ? -n->ival : n->ival;
    return true;
  }
  if (n->kind == N_UNARY && (n->op == OP_NEG || n->op == OP_PLUS) && kclass(t) == K_INT && t.kind != K_VEC) {
    if (!iview(E, n->a, v, tests)) return false;
    if (n->op == OP_NEG) v->c[0] = sf(E, "(-%s)", v->c[0]);
    return true;
  }
  if (t.kind == K_VEC && t.elem == K_INT && is_special_ident(E, n)) {
    /* positions: the thread's 64-bit coordinates themselves (the compiler then sees the
       loop's induction variable in the index arithmetic) */
    const char *name = E->f->func->params[n->slot - E->f->func->ngenerics].name;
    char c = !strcmp(name, "pos") ? 'P' : !strcmp(name, "blkpos") ? 'T' : !strcmp(name, "blkidx") ? 'B' :
             !strcmp(name, "blkdim") ? 'b' : 'c';
    bool size = c == 'b' || c == 'c';
    v->len = t.len;
    for (int k = 0; k < t.len; k++) {
      v->c[k] = k < E->S->D ? sf(E, "%c%d", c, k) : (size ? "(int64_t)1" : "(int64_t)0");
      v->bound[k] = F24 / 2;
      v->launch[k] = true;
    }
    return true;
  }
  if (kclass(t) == K_INT && (t.kind == K_VEC || t.kind == K_INT || t.kind == K_BOOL)) {
    bool special = is_special_ident(E, n);
    char *e = ex(E, n);
    if (t.kind == K_VEC) {
      e = vname(E, e, t);
      v->len = t.len;
      for (int k = 0; k < t.len; k++) {
        v->c[k] = sf(E, "(int64_t)%s.v[%d]", e, k);
        v->bound[k] = special ? F24 / 2 : -1;
        v->launch[k] = special;
      }
    } else {
      v->c[0] = sf(E, "(int64_t)%s", e);
      v->bound[0] = special ? F24 / 2 : -1;
      v->launch[0] = special;
    }
    return true;
  }
  if (t.kind != K_REAL && !(t.kind == K_VEC && t.elem == K_REAL)) return false;
  switch (n->kind) {
  case N_INT:
    v->c[0] = sf(E, "(int64_t)%lld", (long long)n->ival);
    v->bound[0] = n->ival < 0 ? -n->ival : n->ival;
    return true;
  case N_REAL:
    if (n->rval != (double)(int64_t)n->rval || n->rval > F24 || n->rval < -F24) return false;
    v->c[0] = sf(E, "(int64_t)%lld", (long long)n->rval);
    v->bound[0] = (int64_t)(n->rval < 0 ? -n->rval : n->rval);
    return true;
  case N_UNARY:
    if (n->op == OP_PLUS) return iview(E, n->a, v, tests);
    if (n->op != OP_NEG || !iview(E, n->a, v, tests)) return false;
    for (int k = 0; k < (v->len ? v->len : 1); k++) v->c[k] = sf(E, "(-%s)", v->c[k]);
    return true;
  case N_MATRIX: {
    /* numbers in a literal are stored as scalars: each must be exact */
    int len = 0;
    for (int i = 0; i < n->list.n; i++) {
      IView e;
      if (!iview(E, n->list.items[i], &e, tests)) return false;
      for (int k = 0; k < (e.len ? e.len : 1); k++) {
        if (len >= K_MAX_VEC) return false;
        v->c[len] = e.c[k];
        v->bound[len] = e.bound[k];
        v->launch[len] = e.launch[k];
        iv_need_exact(E, v, len, tests);
        len++;
      }
    }
    v->len = len;
    return true;
  }
  case N_BINARY: {
    Op op = n->op;
    if (op != OP_ADD && op != OP_SUB && op != OP_MUL && op != OP_EMUL) return false;
    IView a, b;
    if (!iview(E, n->a, &a, tests) || !iview(E, n->b, &b, tests)) return false;
    if (a.len && b.len && a.len != b.len) return false;
    if (op == OP_MUL && a.len && b.len) return false;   /* inner product */
    v->len = a.len ? a.len : b.len;
    for (int k = 0; k < (v->len ? v->len : 1); k++) {
      char *x = a.c[a.len ? k : 0], *y = b.c[b.len ? k : 0];
      int64_t bx = a.bound[a.len ? k : 0], by = b.bound[b.len ? k : 0];
      v->launch[k] = a.launch[a.len ? k : 0] || b.launch[b.len ? k : 0];
      if (op == OP_MUL || op == OP_EMUL) {
        v->c[k] = sf(E, "(%s * %s)", x, y);
        v->bound[k] = bx >= 0 && by >= 0 && bx <= F24 && by <= F24 && (bx == 0 || by <= INT64_MAX / bx) ? bx * by : -1;
      } else {
        v->c[k] = sf(E, "(%s %s %s)", x, op == OP_ADD ? "+" : "-", y);
        v->bound[k] = bx >= 0 && by >= 0 ? bx + by : -1;
      }
      /* int operands are exact in the interpreter's double arithmetic; the result is
         rounded to float */
      iv_need_exact(E, v, k, tests);
    }
    return true;
  }
  default: return false;
  }
}

/* The int64 indices of an index expression of scalars, computed exactly when possible.
   Fills out[0..len-1] with named temporaries. */
/* rout (may be NULL): for the zero/unchecked rules a scalar index stays a scalar (named in
   rout[k], out[k] NULL): inside the array exactly when -1 < x < n, truncated only then. */
static void index_ints(Em *E, Node *e, int len, char **out, bool cheap, char **rout) {
  for (int k = 0; k < len; k++)
    if (rout) rout[k] = NULL;
  Buf tests = {0}, pre = {0};
  IView v;
  Buf *saved = E->b;
  int ind = E->ind;
  E->b = &pre;
  bool ok = iview(E, e, &v, &tests) && (v.len ? v.len : 1) == len;
  E->b = saved;
  E->ind = ind;
  if (ok) {
    if (pre.len) put_pre(E, pre.s);
    for (int k = 0; k < len; k++) {
      out[k] = tmp(E);
      line(E, "int64_t %s = %s;", out[k], v.c[k]);
    }
    if (tests.len) {
      line(E, "if (__builtin_expect(!(%s), 0)) {", tests.s);
      E->ind++;
    }
  }
#if defined(__x86_64__)
  /* x86-64: cvtt gives INT64_MIN for NaN and out-of-range scalars, outside any array */
  if (!ok && rout && cheap && !E->cuda && kclass(T(E, e)) == K_REAL) {
    KType t = T(E, e);
    char *x = ex(E, e);
    if (t.kind == K_VEC) x = vname(E, x, t);
    for (int k = 0; k < len; k++) {
      rout[k] = NULL;
      out[k] = tmp(E);
      line(E, "const int64_t %s = oq_cvtt(%s);", out[k], t.kind == K_VEC ? sf(E, "%s.v[%d]", x, k) : x);
    }
    free(tests.s);
    free(pre.s);
    return;
  }
#endif
  if (!ok && rout && cheap && kclass(T(E, e)) == K_REAL) {
    KType t = T(E, e);
    char *x = ex(E, e);
    if (t.kind == K_VEC) x = vname(E, x, t);
    for (int k = 0; k < len; k++) {
      rout[k] = tmp(E);
      out[k] = NULL;
      line(E, "const oq_real %s = %s;", rout[k], t.kind == K_VEC ? sf(E, "%s.v[%d]", x, k) : x);
    }
    free(tests.s);
    free(pre.s);
    return;
  }
  if (!ok || tests.len) {
    KType t = T(E, e);
    char *x = ex(E, e);
    if (t.kind == K_VEC) x = vname(E, x, t);
    for (int k = 0; k < len; k++) {
      char *c = t.kind == K_VEC ? idx64_rule(E, sf(E, "%s.v[%d]", x, k), kt(t.elem), cheap) : idx64_rule(E, x, t, cheap);
      if (ok) line(E, "%s = %s;", out[k], c);
      else {
        out[k] = tmp(E);
        line(E, "int64_t %s = %s;", out[k], c);
      }
    }
  }
  if (ok && tests.len) {
    E->ind--;
    line(E, "}");
  }
  free(tests.s);
  free(pre.s);
}

/* ---- rows known to be inside ----
   x[pos + [c0, c1, ...]] with constant offsets, on an argument array of the launch's rank:
   in a row of the flat loop (P_in from s to e-1, the other P_d fixed) the access is inside
   x when every P_d + c_d is, which is tested once for the row. */

static bool affine_pos(Em *E, Node *e, int64_t *off) {
  int D = E->S->D;
  if (e->kind == N_UNARY && e->op == OP_PLUS) return affine_pos(E, e->a, off);
  if (is_special_ident(E, e)) {
    int pi = e->slot - E->f->func->ngenerics;
    KType t = E->f->params[pi];
    if (strcmp(E->f->func->params[pi].name, "pos") || t.kind != K_VEC || t.len != D) return false;
    for (int d = 0; d < D; d++) off[d] = 0;
    return true;
  }
  if (e->kind != N_BINARY || (e->op != OP_ADD && e->op != OP_SUB)) return false;
  Node *p = e->a, *c = e->b;
  if (!affine_pos(E, p, off)) return false;
  if (c->kind != N_MATRIX || c->list.n != D) return false;
  for (int d = 0; d < D; d++) {
    Node *x = c->list.items[d];
    bool neg = x->kind == N_UNARY && x->op == OP_NEG;
    Node *lit = neg ? x->a : x;
    if (lit->kind != N_INT || lit->ival > (1 << 20) || lit->ival < -(1 << 20)) return false;
    int64_t v = neg ? -lit->ival : lit->ival;
    off[d] += e->op == OP_ADD ? v : -v;
  }
  return true;
}

/* Offsets of an access from pos, per dimension: a literal c plus, where not NULL, a
   kernel-invariant int64 C expression inv (a parameter such as a parallel loop's m_lo). */
typedef struct PosOff {
  int64_t c[OQ_MAX_RANK];
  char *inv[OQ_MAX_RANK];
} PosOff;

static bool small_lit(Node *x, int64_t *v) {
  bool neg = x->kind == N_UNARY && x->op == OP_NEG;
  Node *lit = neg ? x->a : x;
  if (lit->kind != N_INT || lit->ival > (1 << 20) || lit->ival < -(1 << 20)) return false;
  *v = neg ? -lit->ival : lit->ival;
  return true;
}

/* An int parameter the body never assigns: the same for every thread. */
static bool invariant_int(Em *E, Node *x) {
  return x->kind == N_IDENT && x->slot >= 0 && x->depth == 0 && E->sc[x->slot] == SC_PARAM &&
         T(E, x).kind == K_INT;
}

static bool pos_comp(Em *E, Node *e, int d, int64_t *c, char **inv);

/* t added (sign +1) or subtracted (-1) to a pos component: a small literal or an invariant. */
static bool pos_term(Em *E, Node *t, int sign, int64_t *c, char **inv) {
  int64_t v;
  if (small_lit(t, &v)) {
    *c += sign * v;
    return true;
  }
  if (!invariant_int(E, t)) return false;
  char *x = sf(E, "%s(int64_t)%s", sign < 0 ? "-" : "", ex_ident(E, t));
  *inv = *inv ? sf(E, "%s + %s", *inv, x) : x;
  return true;
}

/* e is pos[d] + c + inv in int arithmetic: pos[d] itself, +/- literals and invariants, or
   a local that find_pos_locals knows to hold such a value. */
static bool pos_comp(Em *E, Node *e, int d, int64_t *c, char **inv) {
  if (T(E, e).kind != K_INT) return false;
  if (e->kind == N_UNARY && e->op == OP_PLUS) return pos_comp(E, e->a, d, c, inv);
  if (e->kind == N_IDENT && e->slot >= 0 && e->depth == 0 && E->posdef && E->posdef[e->slot])
    return pos_comp(E, E->posdef[e->slot], d, c, inv);
  if (e->kind == N_INDEX && e->list.n == 1 && is_special_ident(E, e->a)) {
    int pi = e->a->slot - E->f->func->ngenerics;
    KType t = E->f->params[pi];
    Node *k = e->list.items[0];
    if (strcmp(E->f->func->params[pi].name, "pos") || t.kind != K_VEC || t.elem != K_INT || t.len != E->S->D)
      return false;
    if (k->kind != N_INT || k->ival != d) return false;
    *c = 0;
    *inv = NULL;
    return true;
  }
  if (e->kind != N_BINARY || (e->op != OP_ADD && e->op != OP_SUB)) return false;
  if (pos_comp(E, e->a, d, c, inv)) return pos_term(E, e->b, e->op == OP_ADD ? 1 : -1, c, inv);
  return e->op == OP_ADD && pos_comp(E, e->b, d, c, inv) && pos_term(E, e->a, 1, c, inv);
}

/* n is x[pos + c], or x[i0, .., iD-1] with every ik = pos[k] + ck (+ an invariant), on a
   parameter or captured array of rank D; *name gets x's C name. */
static bool fast_access(Em *E, Node *n, PosOff *o, char **name) {
  int D = E->S->D;
  if (n->kind != N_INDEX || (n->list.n != 1 && n->list.n != D) || !E->f->is_kernel || !E->sc) return false;
  Node *b = n->a;
  NodeInfo *bi = ksema_info(E->f, b);
  if (b->kind != N_IDENT || !bi || bi->t.kind != K_ARRAY || bi->t.shared || bi->t.rank != D) return false;
  if (!(bi->cap >= 0 || (b->slot >= 0 && b->depth == 0 && E->sc[b->slot] == SC_PARAM))) return false;
  for (int d = 0; d < D; d++) o->inv[d] = NULL;
  if (!(n->list.n == 1 && affine_pos(E, n->list.items[0], o->c))) {
    if (n->list.n != D) return false;
    for (int d = 0; d < D; d++)
      if (!pos_comp(E, n->list.items[d], d, &o->c[d], &o->inv[d])) return false;
  }
  if (name) *name = ex_ident(E, b);
  return true;
}

/* Locals assigned exactly once, by a top-level statement of the body to pos[k] + c (+ an
   invariant), and not read before it: every later read sees that value. */
typedef struct PosScan {
  int *nassign;   /* assignments per slot, or NULL */
  int slot;       /* reads of this slot set `read` */
  bool read;
} PosScan;

static void pos_scan(PosScan *c, Node *n) {
  if (!n || n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return;
  if (n->kind == N_ASSIGN && c->nassign)
    for (int i = 0; i < n->list.n; i++) {
      Node *t = n->list.items[i];
      if (t->kind == N_IDENT && t->slot >= 0 && t->depth == 0) c->nassign[t->slot]++;
      if (t->kind == N_INDEX && t->a->kind == N_IDENT && t->a->slot >= 0 && t->a->depth == 0) c->nassign[t->a->slot]++;
    }
  if (n->kind == N_FOR && n->slot >= 0 && c->nassign) c->nassign[n->slot]++;
  if (n->kind == N_IDENT && n->slot == c->slot && n->depth == 0) c->read = true;
  pos_scan(c, n->a);
  pos_scan(c, n->b);
  pos_scan(c, n->c);
  for (int i = 0; i < n->list.n; i++) pos_scan(c, n->list.items[i]);
  for (int i = 0; i < n->list2.n; i++) pos_scan(c, n->list2.items[i]);
  for (int i = 0; i < n->ncases; i++)
    for (int j = 0; j < n->cases[i].body.n; j++) pos_scan(c, n->cases[i].body.items[j]);
}

static void find_pos_locals(Em *E) {
  Func *f = E->S->kfunc;
  int nslots = func_info(f)->nslots;
  E->posdef = calloc(nslots + 1, sizeof *E->posdef);
  if (E->phases || E->cuda) return;   /* only the CPU's flat rows use them */
  PosScan c = {calloc(nslots + 1, sizeof(int)), -1, false};
  for (int j = 0; j < f->body.n; j++) pos_scan(&c, f->body.items[j]);
  for (int j = 0; j < f->body.n; j++) {
    Node *a = f->body.items[j];
    if (a->kind != N_ASSIGN || a->op != OP_NONE || a->list.n != 1 || !a->b) continue;
    Node *t = a->list.items[0];
    if (t->kind != N_IDENT || t->slot < 0 || t->depth != 0 || E->sc[t->slot] != SC_LOCAL ||
        c.nassign[t->slot] != 1 || T(E, t).kind != K_INT)
      continue;
    PosScan r = {NULL, t->slot, false};
    for (int i = 0; i < j; i++) pos_scan(&r, f->body.items[i]);
    pos_scan(&r, a->b);
    int64_t off;
    char *inv;
    bool any = false;
    for (int d = 0; d < E->S->D && !any; d++) any = pos_comp(E, a->b, d, &off, &inv);
    if (!r.read && any) E->posdef[t->slot] = a->b;
  }
  free(c.nassign);
}

/* For the row of dimension `in`: *t gets the tests of the other dimensions, *r narrows the
   interior [_fa, _fb) of the row where every such access is inside its array. */
static void row_tests(Em *E, Node *n, int in, Buf *t, Buf *r) {
  if (!n) return;
  PosOff o;
  char *name;
  if (fast_access(E, n, &o, &name)) {
    for (int d = 0; d < E->S->D; d++) {
      char *c = o.inv[d] ? sf(E, "(%lld + %s)", (long long)o.c[d], o.inv[d]) : sf(E, "(%lld)", (long long)o.c[d]);
      /* with an invariant the int32 index equals P + c only while it does not overflow */
      if (o.inv[d]) bprintf(t, " && %s.d[%d] <= 2147483647", name, d);
      if (d == in) {
        bprintf(r, "if (_fa < -%s) _fa = -%s;\n", c, c);
        bprintf(r, "if (_fb > %s.d[%d] - %s) _fb = %s.d[%d] - %s;\n", name, d, c, name, d, c);
      } else {
        bprintf(t, " && (uint64_t)(P%d + %s) < (uint64_t)%s.d[%d]", d, c, name, d);
      }
    }
  }
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return;
  row_tests(E, n->a, in, t, r);
  row_tests(E, n->b, in, t, r);
  row_tests(E, n->c, in, t, r);
  for (int i = 0; i < n->list.n; i++) row_tests(E, n->list.items[i], in, t, r);
  for (int i = 0; i < n->list2.n; i++) row_tests(E, n->list2.items[i], in, t, r);
  for (int i = 0; i < n->ncases; i++)
    for (int j = 0; j < n->cases[i].body.n; j++) row_tests(E, n->cases[i].body.items[j], in, t, r);
}

static void plan_build(Em *E, Node *n, char *arr, KType at, Plan *P) {
  int nidx = n->list.n, R = at.rank;
  memset(P, 0, sizeof *P);
  P->vdim = -1;
  P->priv = -1;
  P->arr = arr;
  P->rank = R;
  P->rule = rule_of(n->a->kind == N_IDENT ? (unsigned)n->a->ival : 0);
  bool cheap = P->rule == R_ZERO || P->rule == R_UNCHECKED;
  if (E->lin && nidx == 1 && n->list.items[0]->kind == N_IDENT && n->list.items[0]->slot == E->lin_slot &&
      n->list.items[0]->depth == 0 && E->f->is_kernel) {
    P->lin = true;
    P->ndim = 1;
    return;
  }
  PosOff po;
  if (E->lin_pos && fast_access(E, n, &po, NULL)) {
    P->lin = true;
    P->ndim = 1;
    return;
  }
  if (P->rule == R_CHECKED) {
    KSpec *S = E->S;
    if (S->nsites == S->sitecap) {
      S->sitecap = S->sitecap ? 2 * S->sitecap : 8;
      S->sites = realloc(S->sites, S->sitecap * sizeof *S->sites);
    }
    S->sites[S->nsites] = (KSite){KE_INDEX, n->loc, n->a->kind == N_IDENT ? n->a->name : NULL,
                                  func_display_name(E->f)};
    P->site = S->nsites++;
  }
  if (nidx == 1 && R >= 2 && T(E, n->list.items[0]).kind == K_VEC) {
    /* a position: its components index successive dimensions */
    KType vt = T(E, n->list.items[0]);
    char *ix[K_MAX_VEC];
    char *rx[K_MAX_VEC];
    index_ints(E, n->list.items[0], vt.len, ix, cheap, rx);
    P->ndim = vt.len > R ? vt.len : R;
    for (int d = 0; d < P->ndim; d++) {
      P->size[d] = adim(E, arr, at, d);
      P->idx[d] = d < vt.len ? ix[d] : "0";
      P->ridx[d] = d < vt.len ? rx[d] : NULL;
    }
    PosOff o;
    if (E->row_fast && fast_access(E, n, &o, NULL)) P->inside = true;
    return;
  }
  P->ndim = nidx;
  for (int d = 0; d < nidx; d++) {
    if (d < nidx - 1) P->size[d] = adim(E, arr, at, d);
    else {
      Buf b = {0};
      bputs(&b, d < R ? "" : "1");
      for (int k = d; k < R; k++) bprintf(&b, "%s%s", k > d ? " * " : "", adim(E, arr, at, k));
      P->size[d] = sf(E, "(%s)", b.s);
      free(b.s);
    }
    Node *e = n->list.items[d];
    KType t = T(E, e);
    if (t.kind == K_VEC) {
      P->vdim = d;
      P->vlen = t.len;
      P->vt = t;
      P->vec = e->kind == N_RANGE ? ex_range_value(E, e) : vname(E, ex(E, e), t);
      continue;
    }
    index_ints(E, e, 1, &P->idx[d], cheap, &P->ridx[d]);
  }
  PosOff o;
  if (E->row_fast && P->vdim < 0 && fast_access(E, n, &o, NULL)) P->inside = true;
}

/* Offset and validity of element k of the plan (k: component of the vector dimension).
   For rules that resolve indices, the resolved indices are written first. */
static void plan_elem(Em *E, Plan *P, int k, char **off, char **valid) {
  char *ix[OQ_MAX_RANK];
  if (P->lin) {
    *off = "_r";
    *valid = "1";
    return;
  }
  if (P->inside) {
    Buf o = {0};
    bprintf(&o, "%s", P->idx[0]);
    for (int d = 1; d < P->ndim; d++) {
      char *prev = sf(E, "%s", o.s);
      o.len = 0;
      bprintf(&o, "(%s) * %s + %s", prev, P->size[d], P->idx[d]);
    }
    *off = sf(E, "%s", o.s);
    *valid = "1";
    free(o.s);
    return;
  }
  for (int d = 0; d < P->ndim; d++) {
    if (d == P->vdim) {
      char *t0 = tmp(E);
      bool cheap = P->rule == R_ZERO || P->rule == R_UNCHECKED;
      line(E, "int64_t %s = %s;", t0, idx64_rule(E, sf(E, "%s.v[%d]", P->vec, k), kt(P->vt.elem), cheap));
      ix[d] = t0;
    } else {
      ix[d] = P->idx[d];
    }
  }
  Buf v = {0}, o = {0};
  char *res[OQ_MAX_RANK];
  for (int d = 0; d < P->ndim; d++) {
    if (d != P->vdim && P->ridx[d]) {
      /* a scalar index: trunc(x) is in 0..n-1 exactly when -1 < x < n (NaN is not); comparing
         with (oq_real)n is exact: no scalar lies strictly between n and its nearest scalar */
      if (P->rule == R_ZERO)
        bprintf(&v, "%s(%s > -1 && %s < (oq_real)%s)", v.len ? " && " : "", P->ridx[d], P->ridx[d], P->size[d]);
      res[d] = sf(E, "(int64_t)%s", P->ridx[d]);
      ix[d] = res[d];
      continue;
    }
    switch (P->rule) {
    case R_ZERO: case R_CHECKED:
      bprintf(&v, "%s(uint64_t)%s < (uint64_t)%s", v.len ? " && " : "", ix[d], P->size[d]);
      res[d] = ix[d];
      break;
    case R_UNCHECKED: res[d] = ix[d]; break;
    default: {
      char *t0 = tmp(E);
      const char *fn = P->rule == R_CIRC ? "oq_circ" : P->rule == R_MIRROR ? "oq_mirror" : "oq_clampi";
      line(E, "int64_t %s = %s(%s, %s);", t0, fn, ix[d], P->size[d]);
      bprintf(&v, "%s%s >= 0", v.len ? " && " : "", t0);
      res[d] = t0;
    }
    }
  }
  for (int d = 0; d < P->ndim; d++) {
    if (d == 0) bprintf(&o, "%s", res[0]);
    else {
      char *prev = sf(E, "%s", o.s);
      o.len = 0;
      bprintf(&o, "(%s) * %s + %s", prev, P->size[d], res[d]);
    }
  }
  *off = sf(E, "%s", o.s);
  *valid = v.len ? sf(E, "(%s)", v.s) : "1";
  if (P->rule == R_CHECKED) {
    Buf ixs = {0};
    for (int d = 0; d < P->ndim; d++) bprintf(&ixs, "%s%s", d ? ", " : "", ix[d]);
    line(E, "if (__builtin_expect(!%s, 0)) { const int64_t _ix[] = {%s}; oq_fail_index(%s, %d, %d, _ix, %d, %s.d); }", *valid, ixs.s,
         E->L, P->site, P->ndim, P->rank, P->arr);
    free(ixs.s);
  }
  free(v.s);
  free(o.s);
}

/* An element of array type at, as the value a read gives. */
static char *load(Em *E, ElemType el, char *lv) {
  bool dp = rt_config.double_precision;
  switch (el) {
  case EL_F32: return dp ? sf(E, "((double)%s)", lv) : lv;
  case EL_F64: return dp ? lv : sf(E, "((float)%s)", lv);
  case EL_C64: return dp ? sf(E, "((oq_c128)%s)", lv) : lv;
  case EL_C128: return dp ? lv : sf(E, "((oq_c64)%s)", lv);
  default: return sf(E, "((int32_t)%s)", lv);
  }
}

/* A value of type t as array elements el store it. */
static char *store_conv(Em *E, ElemType el, char *v, KType t) {
  KKind c = kclass(t);
  if (el_is_integer(el)) {
    if (c == K_INT) return sf(E, "((%s)%s)", el_ctype(el), v);
    return sf(E, "((%s)oq_trunc64((double)%s))", el_ctype(el), v);
  }
  if (el_is_complex(el)) {
    if (c == K_CPLX) return sf(E, "((%s)%s)", el_ctype(el), v);
    return sf(E, "((%s)(double)%s)", el_ctype(el), v);
  }
  if (c == K_INT) return sf(E, "((%s)(double)%s)", el_ctype(el), v);
  return sf(E, "((%s)%s)", el_ctype(el), v);
}

static char *zero_of(KKind c) { return c == K_CPLX ? "((oq_cplx)0)" : c == K_REAL ? "((oq_real)0)" : "0"; }

/* ---- arrays updated only by += and -= ----
   Such an array can be updated in a private copy per worker, added into the array after
   the launch, instead of atomically: the same sums in another order (atomics have no
   order either). The launcher does it for small arrays that no other argument aliases. */

static int private_of(Em *E, Node *id) {
  if (!E->f->is_kernel || id->kind != N_IDENT) return -1;
  NodeInfo *ni = ksema_info(E->f, id);
  for (int k = 0; k < E->S->npriv; k++) {
    if (E->priv_slot[k] >= 0 && id->slot == E->priv_slot[k] && id->depth == 0) return k;
    if (E->priv_cap[k] >= 0 && ni && ni->cap == E->priv_cap[k]) return k;
  }
  return -1;
}

typedef struct PrivCount { int slot, cap, all, ok; } PrivCount;

static bool refers(Em *E, Node *n, PrivCount *c) {
  if (n->kind != N_IDENT) return false;
  if (c->slot >= 0) return n->slot == c->slot && n->depth == 0;
  NodeInfo *ni = ksema_info(E->f, n);
  return ni && ni->cap == c->cap;
}

static void priv_walk(Em *E, Node *n, PrivCount *c) {
  if (!n) return;
  if (n->kind == N_IDENT && refers(E, n, c)) c->all++;
  if (n->kind == N_ASSIGN && (n->op == OP_ADD || n->op == OP_SUB) && n->list.n == 1 &&
      n->list.items[0]->kind == N_INDEX && refers(E, n->list.items[0]->a, c))
    c->ok++;
  if (n->kind == N_CALL && n->list.n >= 1 && refers(E, n->list.items[0], c)) {
    NodeInfo *ni = ksema_info(E->f, n);
    if (ni && (ni->builtin == KB_SIZE || ni->builtin == KB_NUMEL || ni->builtin == KB_NDIMS)) c->ok++;
  }
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return;
  priv_walk(E, n->a, c);
  priv_walk(E, n->b, c);
  priv_walk(E, n->c, c);
  for (int i = 0; i < n->list.n; i++) priv_walk(E, n->list.items[i], c);
  for (int i = 0; i < n->list2.n; i++) priv_walk(E, n->list2.items[i], c);
  for (int i = 0; i < n->ncases; i++)
    for (int j = 0; j < n->cases[i].body.n; j++) priv_walk(E, n->cases[i].body.items[j], c);
}

/* The int literal every update of the array adds (`h[v] += 1`), or 0. Identical additions
   give the same result in any order, so a private copy can count them. */
static void inc_walk(Em *E, Node *n, PrivCount *c, int64_t *lit) {
  if (!n || *lit == -1) return;
  if (n->kind == N_ASSIGN && n->list.n == 1 && n->list.items[0]->kind == N_INDEX && refers(E, n->list.items[0]->a, c)) {
    int64_t v = 0;
    if (n->op != OP_ADD || !n->b || n->b->kind != N_INT || n->b->ival == 0 || n->b->ival > (1 << 20) ||
        (*lit && *lit != n->b->ival))
      *lit = -1;
    else v = n->b->ival;
    if (*lit != -1) *lit = v;
  }
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return;
  inc_walk(E, n->a, c, lit);
  inc_walk(E, n->b, c, lit);
  inc_walk(E, n->c, c, lit);
  for (int i = 0; i < n->list.n; i++) inc_walk(E, n->list.items[i], c, lit);
  for (int i = 0; i < n->list2.n; i++) inc_walk(E, n->list2.items[i], c, lit);
  for (int i = 0; i < n->ncases; i++)
    for (int j = 0; j < n->cases[i].body.n; j++) inc_walk(E, n->cases[i].body.items[j], c, lit);
}

static int64_t same_int_increment(Em *E, NodeList *body, PrivCount *c) {
  int64_t lit = 0;
  for (int i = 0; i < body->n; i++) inc_walk(E, body->items[i], c, &lit);
  return lit > 0 ? lit : 0;
}

/* Statements use `x[...] += v` as statements only: an assignment used as a value reads. */
static bool assign_used_as_value(Node *n, PrivCount *c, Em *E);

static void find_private(Em *E) {
  KSpec *S = E->S;
  FSpec *k = S->kspec;
  Func *f = k->func;
  S->npriv = 0;
  int nargs = f->nparams + S->ncaps;
  for (int a = 0; a < nargs && S->npriv < OQK_PRIV_SLOTS; a++) {
    PrivCount c = {.slot = -1, .cap = -1};
    KType t;
    if (a < f->nparams) {
      int s = f->ngenerics + a;
      if (E->sc[s] != SC_PARAM) continue;
      c.slot = s;
      t = k->params[a];
    } else {
      c.cap = a - f->nparams;
      t = S->caps[c.cap].type;
      /* device functions may use the captured array too */
      bool elsewhere = false;
      for (int i = 1; i < E->nreach && !elsewhere; i++)
        for (int j = 0; j < E->reach[i]->info.cap; j++)
          if (E->reach[i]->info.items[j].node && E->reach[i]->info.items[j].cap == c.cap) elsewhere = true;
      if (elsewhere) continue;
    }
    if (t.kind != K_ARRAY || t.shared || el_is_complex(t.el)) continue;
    for (int i = 0; i < f->body.n; i++) priv_walk(E, f->body.items[i], &c);
    bool as_value = false;
    for (int i = 0; i < f->body.n; i++) as_value |= assign_used_as_value(f->body.items[i], &c, E);
    if (c.all == 0 || c.all != c.ok || as_value) continue;
    E->priv_slot[S->npriv] = c.slot;
    E->priv_cap[S->npriv] = c.cap;
    S->priv_count[S->npriv] = el_is_integer(t.el) ? 0 : same_int_increment(E, &f->body, &c);
    S->priv_arg[S->npriv++] = a;
  }
}

static bool assign_used_as_value(Node *n, PrivCount *c, Em *E) {
  if (!n) return false;
  bool stmt_list_parent = false;
  (void)stmt_list_parent;
  /* an N_ASSIGN reached as an operand of an expression (not a statement) */
  switch (n->kind) {
  case N_ASSIGN:
    /* its own value is not used here; look inside its operands */
    for (int i = 0; i < n->list.n; i++)
      if (n->list.items[i]->kind == N_INDEX)
        for (int j = 0; j < n->list.items[i]->list.n; j++)
          if (assign_used_as_value(n->list.items[i]->list.items[j], c, E)) return true;
    if (n->b && n->b->kind == N_ASSIGN && n->b->list.n == 1 && n->b->list.items[0]->kind == N_INDEX &&
        refers(E, n->b->list.items[0]->a, c))
      return true;
    return assign_used_as_value(n->b, c, E);
  case N_IF: case N_WHILE: case N_REPEAT: case N_FOR: case N_BLOCK: case N_MATCH:
    for (int i = 0; i < n->list.n; i++) if (assign_used_as_value(n->list.items[i], c, E)) return true;
    for (int i = 0; i < n->list2.n; i++) if (assign_used_as_value(n->list2.items[i], c, E)) return true;
    for (int i = 0; i < n->ncases; i++)
      for (int j = 0; j < n->cases[i].body.n; j++)
        if (assign_used_as_value(n->cases[i].body.items[j], c, E)) return true;
    return false;
  case N_EXPR:
    return n->a && n->a->kind == N_ASSIGN && n->a->list.n == 1 && n->a->list.items[0]->kind == N_INDEX &&
           refers(E, n->a->list.items[0]->a, c);
  default:
    if (n->kind == N_CALL || n->kind == N_BINARY || n->kind == N_UNARY || n->kind == N_COND ||
        n->kind == N_MATRIX || n->kind == N_INDEX) {
      Node *kids[3] = {n->a, n->b, n->c};
      for (int i = 0; i < 3; i++)
        if (kids[i] && kids[i]->kind == N_ASSIGN && kids[i]->list.n == 1 &&
            kids[i]->list.items[0]->kind == N_INDEX && refers(E, kids[i]->list.items[0]->a, c))
          return true;
      for (int i = 0; i < n->list.n; i++)
        if (n->list.items[i]->kind == N_ASSIGN && n->list.items[i]->list.n == 1 &&
            n->list.items[i]->list.items[0]->kind == N_INDEX && refers(E, n->list.items[i]->list.items[0]->a, c))
          return true;
    }
    return false;
  }
}

/* ---- locals of kernels with barriers ----
   A local lives in a per-thread array unless every phase that mentions it assigns it
   before reading it (then each phase has its own plain local), or it only ever holds the
   block's shared array (then the block has one). */

static bool mentions(Node *n, int slot) {
  if (!n) return false;
  if (n->kind == N_IDENT && n->slot == slot && n->depth == 0) return true;
  if (n->kind == N_FOR && n->slot == slot) return true;
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return false;
  if (mentions(n->a, slot) || mentions(n->b, slot) || mentions(n->c, slot)) return true;
  for (int i = 0; i < n->list.n; i++) if (mentions(n->list.items[i], slot)) return true;
  for (int i = 0; i < n->list2.n; i++) if (mentions(n->list2.items[i], slot)) return true;
  for (int i = 0; i < n->ncases; i++)
    for (int j = 0; j < n->cases[i].body.n; j++) if (mentions(n->cases[i].body.items[j], slot)) return true;
  return false;
}

/* true when statements from..to-1 assign slot before any read of it (or never mention it) */
static bool defined_first(NodeList *l, int from, int to, int slot) {
  for (int i = from; i < to; i++) {
    Node *n = l->items[i];
    if (!mentions(n, slot)) continue;
    if (n->kind == N_ASSIGN && n->op == OP_NONE && n->list.n == 1 && n->list.items[0]->kind == N_IDENT &&
        n->list.items[0]->slot == slot && n->b && !mentions(n->b, slot))
      return true;
    if (n->kind == N_FOR && n->slot == slot && !mentions(n->a, slot)) {
      /* a loop that may run zero times leaves the old value for what follows */
      for (int j = i + 1; j < to; j++)
        if (mentions(l->items[j], slot)) return false;
      return true;
    }
    return false;
  }
  return true;
}

static void phase_scan(Em *E, NodeList *l, unsigned char *bad, int first, int nslots) {
  int i = 0;
  while (i < l->n) {
    Node *n = l->items[i];
    NodeInfo *ni = ksema_info(E->f, n);
    if (ni && ni->barrier) {
      if (n->kind != N_EXPR) {
        /* block-level statements: their conditions and loop variables are read per thread */
        for (int s = first; s < nslots; s++) {
          if (mentions(n->a, s) || (n->kind == N_FOR && n->slot == s)) bad[s] = 1;
        }
        phase_scan(E, &n->list, bad, first, nslots);
        phase_scan(E, &n->list2, bad, first, nslots);
      }
      i++;
      continue;
    }
    int j = i;
    while (j < l->n) {
      NodeInfo *nj = ksema_info(E->f, l->items[j]);
      if (nj && nj->barrier) break;
      j++;
    }
    for (int s = first; s < nslots; s++)
      if (!defined_first(l, i, j, s)) bad[s] = 1;
    i = j;
  }
}

static bool only_shared(Node *n, int slot, bool *assigned) {
  if (!n) return true;
  if (n->kind == N_ASSIGN)
    for (int i = 0; i < n->list.n; i++) {
      Node *t = n->list.items[i];
      if (t->kind == N_IDENT && t->slot == slot && t->depth == 0) {
        if (n->op != OP_NONE || n->list.n != 1 || !n->b || n->b->kind != N_CALL || n->b->a->kind != N_IDENT ||
            strncmp(n->b->a->name, "shared", 6))
          return false;
        *assigned = true;
      }
    }
  if (n->kind == N_FOR && n->slot == slot) return false;
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return true;
  if (!only_shared(n->a, slot, assigned) || !only_shared(n->b, slot, assigned) || !only_shared(n->c, slot, assigned))
    return false;
  for (int i = 0; i < n->list.n; i++) if (!only_shared(n->list.items[i], slot, assigned)) return false;
  for (int i = 0; i < n->list2.n; i++) if (!only_shared(n->list2.items[i], slot, assigned)) return false;
  for (int i = 0; i < n->ncases; i++)
    for (int j = 0; j < n->cases[i].body.n; j++)
      if (!only_shared(n->cases[i].body.items[j], slot, assigned)) return false;
  return true;
}

/* ---- zeros stored into fresh shared memory ----
   shared() memory is zero-filled for every block. In the phase that allocates it, before any
   barrier, `s[...] = 0` changes nothing when no thread does anything else with s there: such
   stores are dropped, and loops left without statements too (their range is still checked). */

static bool is_zero_lit(Node *v) {
  if (v->kind == N_UNARY && (v->op == OP_NEG || v->op == OP_PLUS)) return is_zero_lit(v->a);
  return (v->kind == N_INT && v->ival == 0) || (v->kind == N_REAL && v->rval == 0);
}

/* no side effects and no error can come from evaluating n (built-ins other than mod) */
static bool harmless(Node *n) {
  if (!n) return true;
  switch (n->kind) {
  case N_ASSIGN: case N_EXCHANGE: case N_LAMBDA: case N_FUNCDEF: return false;
  case N_BINARY: if (n->op == OP_MOD) return false; break;
  case N_CALL:
    if (n->a->kind != N_IDENT || n->a->slot >= 0 || !strcmp(n->a->name, "mod") || !strcmp(n->a->name, "assert"))
      return false;
    break;
  default: break;
  }
  if (!harmless(n->a) || !harmless(n->b) || !harmless(n->c)) return false;
  for (int i = 0; i < n->list.n; i++) if (!harmless(n->list.items[i])) return false;
  return true;
}

static bool is_zero_store(Node *n, int slot) {
  if (!(n->kind == N_ASSIGN && n->op == OP_NONE && n->list.n == 1 && n->b && is_zero_lit(n->b) &&
        n->list.items[0]->kind == N_INDEX && n->list.items[0]->a->kind == N_IDENT &&
        n->list.items[0]->a->slot == slot && n->list.items[0]->a->depth == 0))
    return false;
  Node *t = n->list.items[0];
  if ((unsigned)t->a->ival & (TM_CHECKED | TM_UNCHECKED)) return false;   /* stores outside are errors */
  for (int i = 0; i < t->list.n; i++)
    if (!harmless(t->list.items[i])) return false;
  return true;
}

/* slot is mentioned in n other than as the array of size() or numel() */
static bool mentions_data(Node *n, int slot) {
  if (!n) return false;
  if (n->kind == N_CALL && n->a->kind == N_IDENT && n->a->slot < 0 &&
      (!strcmp(n->a->name, "size") || !strcmp(n->a->name, "numel")) && n->list.n >= 1 &&
      n->list.items[0]->kind == N_IDENT && n->list.items[0]->slot == slot) {
    for (int i = 1; i < n->list.n; i++)
      if (mentions_data(n->list.items[i], slot)) return true;
    return false;
  }
  if (n->kind == N_IDENT) return n->slot == slot && n->depth == 0;
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return mentions(n, slot);
  if (mentions_data(n->a, slot) || mentions_data(n->b, slot) || mentions_data(n->c, slot)) return true;
  for (int i = 0; i < n->list.n; i++) if (mentions_data(n->list.items[i], slot)) return true;
  for (int i = 0; i < n->list2.n; i++) if (mentions_data(n->list2.items[i], slot)) return true;
  for (int i = 0; i < n->ncases; i++)
    for (int j = 0; j < n->cases[i].body.n; j++) if (mentions_data(n->cases[i].body.items[j], slot)) return true;
  return false;
}

/* Every mention of slot in n is the base of a zero store (or its size); counts them. */
static bool only_zero_stores(Node *n, int slot, int *count) {
  if (!n) return true;
  if (is_zero_store(n, slot)) {
    (*count)++;
    for (int i = 0; i < n->list.items[0]->list.n; i++)
      if (mentions_data(n->list.items[0]->list.items[i], slot)) return false;
    return true;
  }
  if (n->kind == N_IDENT && n->slot == slot && n->depth == 0) return false;
  if (n->kind == N_CALL && !mentions_data(n, slot)) return true;
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return !mentions(n, slot);
  if (!only_zero_stores(n->a, slot, count) || !only_zero_stores(n->b, slot, count) ||
      !only_zero_stores(n->c, slot, count))
    return false;
  for (int i = 0; i < n->list.n; i++) if (!only_zero_stores(n->list.items[i], slot, count)) return false;
  for (int i = 0; i < n->list2.n; i++) if (!only_zero_stores(n->list2.items[i], slot, count)) return false;
  for (int i = 0; i < n->ncases; i++)
    for (int j = 0; j < n->cases[i].body.n; j++)
      if (!only_zero_stores(n->cases[i].body.items[j], slot, count)) return false;
  return true;
}

static void mark_dead(Em *E, Node *n, int slot) {
  if (!n) return;
  if (is_zero_store(n, slot)) {
    E->dead = realloc(E->dead, (E->ndead + 1) * sizeof *E->dead);
    E->dead[E->ndead++] = n;
    return;
  }
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return;
  for (int i = 0; i < n->list.n; i++) mark_dead(E, n->list.items[i], slot);
  for (int i = 0; i < n->list2.n; i++) mark_dead(E, n->list2.items[i], slot);
  for (int i = 0; i < n->ncases; i++)
    for (int j = 0; j < n->cases[i].body.n; j++) mark_dead(E, n->cases[i].body.items[j], slot);
}

static bool is_dead(Em *E, Node *n) {
  for (int i = 0; i < E->ndead; i++)
    if (E->dead[i] == n) return true;
  return false;
}

/* A statement list whose statements all do nothing. */
static bool all_dead(Em *E, NodeList *l) {
  for (int i = 0; i < l->n; i++) {
    Node *n = l->items[i];
    if (is_dead(E, n) || n->kind == N_ATTR) continue;
    if (n->kind == N_FOR && all_dead(E, &n->list)) continue;
    return false;
  }
  return true;
}

static void find_dead_zero_stores(Em *E) {
  Func *f = E->S->kfunc;
  NodeList *l = &f->body;
  int nslots = func_info(f)->nslots;
  for (int s = 0; s < nslots; s++) {
    if (!E->pphase || E->pphase[s] != 2) continue;
    /* the allocation, then the rest of its phase */
    int i = 0;
    while (i < l->n && !(l->items[i]->kind == N_ASSIGN && l->items[i]->list.n == 1 &&
                         l->items[i]->list.items[0]->kind == N_IDENT && l->items[i]->list.items[0]->slot == s))
      i++;
    if (i == l->n) continue;
    int j = i + 1, count = 0;
    bool ok = true;
    for (; j < l->n; j++) {
      NodeInfo *nj = ksema_info(E->f, l->items[j]);
      if (nj && nj->barrier) break;
      ok = ok && only_zero_stores(l->items[j], s, &count);
    }
    if (!ok || !count) continue;
    for (int k = i + 1; k < j; k++) mark_dead(E, l->items[k], s);
  }
}

static void find_phase_locals(Em *E) {
  Func *f = E->S->kfunc;
  int nslots = func_info(f)->nslots, first = f->ngenerics + f->nparams + f->nouts;
  unsigned char *bad = calloc(nslots + 1, 1);
  phase_scan(E, &f->body, bad, first, nslots);
  E->pphase = calloc(nslots + 1, 1);
  for (int s = first; s < nslots; s++) {
    if (E->sc[s] != SC_LOCAL) continue;
    bool assigned = false, sh = true;
    for (int i = 0; i < f->body.n && sh; i++) sh = only_shared(f->body.items[i], s, &assigned);
    if (sh && assigned && E->f->slots[s].kind == K_ARRAY && E->f->slots[s].shared) E->pphase[s] = 2;
    else if (!bad[s]) E->pphase[s] = 1;
  }
  free(bad);
  find_dead_zero_stores(E);
}

/* ---- the linear loop ----
   When `pos` is only ever the whole index of argument arrays (x[pos]) and, at a launch,
   those arrays have exactly the launch's dimensions, every x[pos] is element _r of x (the
   thread's row-major position) and inside x: the thread loop runs over _r directly. */

typedef struct LinScan { int slot, uses, ok; Buf *test; Em *E; bool bad; } LinScan;

static void lin_walk(LinScan *c, Node *n) {
  if (!n) return;
  Em *E = c->E;
  if (n->kind == N_IDENT && n->slot == c->slot && n->depth == 0) c->uses++;
  if (n->kind == N_INDEX && n->list.n == 1 && n->list.items[0]->kind == N_IDENT &&
      n->list.items[0]->slot == c->slot && n->list.items[0]->depth == 0) {
    Node *b = n->a;
    NodeInfo *bi = ksema_info(E->f, b);
    bool arg = b->kind == N_IDENT && bi && bi->t.kind == K_ARRAY && !bi->t.shared &&
               (bi->cap >= 0 || (b->slot >= 0 && b->depth == 0 && E->sc[b->slot] == SC_PARAM));
    if (!arg || bi->t.rank != E->S->D) c->bad = true;
    else {
      c->ok++;
      char *name = ex_ident(E, b);
      for (int d = 0; d < E->S->D; d++) bprintf(c->test, " && %s.d[%d] == n%d", name, d, d);
    }
  }
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return;
  lin_walk(c, n->a);
  lin_walk(c, n->b);
  lin_walk(c, n->c);
  for (int i = 0; i < n->list.n; i++) lin_walk(c, n->list.items[i]);
  for (int i = 0; i < n->list2.n; i++) lin_walk(c, n->list2.items[i]);
  for (int i = 0; i < n->ncases; i++)
    for (int j = 0; j < n->cases[i].body.n; j++) lin_walk(c, n->cases[i].body.items[j]);
}

static void find_linear(Em *E) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  E->lin_slot = -1;
  if (S->uses_block || S->barrier) return;
  for (int i = 0; i < S->nspecial; i++) {
    const KSpecial *sp = &S->special[i];
    if (strcmp(sp->name, "pos")) continue;
    if (sp->t.kind == K_VEC ? sp->t.len != S->D : S->D != 1) return;
    int slot = f->ngenerics + sp->param;
    if (E->sc[slot] != SC_SPECIAL) return;
    Buf test = {0};
    LinScan c = {.slot = slot, .test = &test, .E = E};
    for (int j = 0; j < f->body.n; j++) lin_walk(&c, f->body.items[j]);
    if (!c.bad && c.ok > 0 && c.ok == c.uses) {
      E->lin_slot = slot;
      E->lin_test = test;
    } else {
      free(test.s);
    }
  }
}

/* The hooks around a launch with private copies: zero them before, add them in after. */
static void emit_private_hooks(Em *E, Buf *out) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  for (int pass = 0; pass < 2; pass++) {
    bprintf(out, "void oqk_%s(OqkLaunch *L, OqkWorker *W) {\n", pass ? "finish" : "begin");
    for (int k = 0; k < S->npriv; k++) {
      int a = S->priv_arg[k];
      KType t = a < f->nparams ? S->kspec->params[a] : S->caps[a - f->nparams].type;
      const char *ct = el_ctype(t.el);
      int64_t cnt = S->priv_count[k];
      bprintf(out, "  if ((L->priv_mask >> %d) & 1) {\n", k);
      bprintf(out, "    size_t n = 1;\n    for (int d = 0; d < %d; d++) n *= (size_t)L->args[%d].dims[d];\n", t.rank, a);
      if (cnt) ct = "int64_t";
      if (pass && cnt) {
        /* k additions of c: at once while every step is an exact integer, else one by one */
        bool narrow = t.el == EL_F32 || !rt_config.double_precision;
        bprintf(out, "    int64_t *p = (int64_t *)W->scr[%d];\n    %s *y = (%s *)L->args[%d].data;\n", OQK_PRIV_BASE + k,
                el_ctype(t.el), el_ctype(t.el), a);
        bprintf(out, "    for (size_t i = 0; i < n; i++) {\n      int64_t k = p[i];\n      if (!k) continue;\n");
        bprintf(out, "      const double v = (double)%s, c = %lld.0, lim = %s;\n", load(E, t.el, "y[i]"),
                (long long)cnt, narrow ? "16777216.0" : "9007199254740992.0");
        bprintf(out, "      if (v == trunc(v) && fabs(v) <= lim) {   /* the steps that stay exact integers */\n");
        bprintf(out, "        double j = floor(c > 0 ? (lim - v) / c : (lim + v) / -c);\n");
        bprintf(out, "        if (j > (double)k) j = (double)k;\n");
        bprintf(out, "        y[i] = %s;\n        k -= (int64_t)j;\n      }\n", store_conv(E, t.el, "(v + j * c)", kt(K_REAL)));
        bprintf(out, "      for (; k > 0; k--) {   /* then one by one, until adding no longer changes it */\n");
        bprintf(out, "        const %s m = %s;\n        if (m == y[i] || m != m) { y[i] = m; break; }\n        y[i] = m;\n      }\n    }\n",
                el_ctype(t.el), store_conv(E, t.el, sf(E, "(%s + (oq_real)%lld)", load(E, t.el, "y[i]"), (long long)cnt), kt(K_REAL)));
        bprintf(out, "  }\n");
        continue;
      }
      if (!pass) {
        bprintf(out, "    void *p = oq_scratch(W, %d, n * sizeof(%s) + 1);\n", OQK_PRIV_BASE + k, ct);
        bprintf(out, "    if (p) memset(p, 0, n * sizeof(%s));\n    else L->priv_mask = 0;\n", ct);
      } else {
        bprintf(out, "    %s *p = (%s *)W->scr[%d], *y = (%s *)L->args[%d].data;\n", ct, ct, OQK_PRIV_BASE + k, ct, a);
        if (el_is_integer(t.el))
          bprintf(out, "    for (size_t i = 0; i < n; i++) y[i] = (%s)((int64_t)y[i] + (int64_t)p[i]);\n", ct);
        else
          bprintf(out, "    for (size_t i = 0; i < n; i++) y[i] = (%s)(y[i] + p[i]);\n", ct);
      }
      bprintf(out, "  }\n");
    }
    bprintf(out, "  (void)L; (void)W;\n}\n");
  }
}

/* CUDA tiling: the register that holds arr's element of the current position, loaded ahead
   (NULL when arr is not loaded ahead). */
static char *prefetched(Em *E, const char *arr) {
  for (int j = 0; j < E->npf; j++)
    if (!strcmp(E->pf_arr[j], arr)) return sf(E, "_pf%d_%d", j, E->pf_k);
  return NULL;
}

/* The kernel parameter that identifier n names (at the kernel's top level), or -1. */
static int kernel_param_of(Em *E, Node *n) {
  if (E->f != E->S->kspec || n->kind != N_IDENT || n->slot < 0 || n->depth != 0) return -1;
  int i = n->slot - E->f->func->ngenerics;
  return i >= 0 && i < E->f->func->nparams ? i : -1;
}

static bool ldg_param(Em *E, Node *n) {
  int i = kernel_param_of(E, n);
  return E->cuda && i >= 0 && i < 32 && (E->ldg_params >> i & 1);
}

static char *index_read(Em *E, Node *n) {
  KType at = T(E, n->a), r = T(E, n);
  char *arr = vname(E, ex(E, n->a), at);
  if (at.kind == K_VEC) {
    /* a component of a small vector (kernel code: reads outside give 0) */
    Node *e = n->list.items[0];
    KType it = T(E, e);
    Rule rule = rule_of(n->a->kind == N_IDENT ? (unsigned)n->a->ival : 0);
    char *iv = it.kind == K_VEC ? (e->kind == N_RANGE ? ex_range_value(E, e) : vname(E, ex(E, e), it)) : ex(E, e);
    int64_t c;
    int len = it.kind == K_VEC ? it.len : 1;
    char *t0 = it.kind == K_VEC ? tmp(E) : NULL;
    if (t0) line(E, "%s %s;", ctype(E, r), t0);
    for (int k = 0; k < len; k++) {
      char *ik = it.kind == K_VEC ? sf(E, "%s.v[%d]", iv, k) : iv;
      KType ikt = it.kind == K_VEC ? kt(it.elem) : it;
      char *val;
      if (it.kind != K_VEC && e->kind == N_INT && (c = e->ival) >= 0 && c < at.len) {
        val = sf(E, "%s.v[%d]", arr, (int)c);
      } else {
        char *j = tmp(E);
        line(E, "int64_t %s = %s;", j, idx64(E, ik, ikt));
        if (rule == R_CIRC || rule == R_MIRROR || rule == R_CLAMP)
          line(E, "%s = %s(%s, %d);", j, rule == R_CIRC ? "oq_circ" : rule == R_MIRROR ? "oq_mirror" : "oq_clampi", j,
               at.len);
        val = sf(E, "((uint64_t)%s < %d ? %s.v[%s] : 0)", j, at.len, arr, j);
      }
      if (!t0) return val;
      line(E, "%s.v[%d] = %s;", t0, k, val);
    }
    return t0;
  }
  Plan P;
  plan_build(E, n, arr, at, &P);
  KKind ec = el_is_complex(at.el) ? K_CPLX : el_is_integer(at.el) ? K_INT : K_REAL;
  const char *elem_fmt = ldg_param(E, n->a) ? "__ldg(&%s.p[%s])" : "%s.p[%s]";
  if (P.vdim < 0) {
    char *off, *valid;
    plan_elem(E, &P, 0, &off, &valid);
    char *lv = load(E, at.el, P.lin && prefetched(E, arr) ? prefetched(E, arr) : sf(E, elem_fmt, arr, off));
    /* read now, so the index temporaries die here */
    char *t0 = tmp(E);
    if (!strcmp(valid, "1")) line(E, "const %s %s = %s;", ctype(E, r), t0, lv);
    else line(E, "const %s %s = %s ? %s : %s;", ctype(E, r), t0, valid, lv, zero_of(ec));
    return t0;
  }
  char *t0 = tmp(E);
  line(E, "%s %s;", ctype(E, r), t0);
  for (int k = 0; k < P.vlen; k++) {
    char *off, *valid;
    plan_elem(E, &P, k, &off, &valid);
    char *lv = load(E, at.el, sf(E, elem_fmt, arr, off));
    line(E, "%s.v[%d] = %s ? %s : %s;", t0, k, valid, lv, zero_of(ec));
  }
  return t0;
}

/* The class of old op v for an element of class et (what rt_binary gives). */
static KType rmw_class(Op op, KType et, KType vt) {
  KKind c = kclass(vt) > kclass(et) ? kclass(vt) : kclass(et);
  if ((op == OP_DIV || op == OP_EDIV || op == OP_POW || op == OP_EPOW) && c == K_INT) c = K_REAL;
  if (op == OP_BAND || op == OP_BOR || op == OP_BXOR) c = K_INT;
  return kt(c);
}

/* CUDA: the update of a private array goes to the block's copy in shared memory, lane
   _ln of its _R replicas (lanes of a warp never collide); false when this update must stay
   a global atomic (the copy's type cannot add it exactly: an int array and a real value). */
static bool cuda_priv_update(Em *E, int k, char *off, ElemType el, Op op, char *v, KType vt) {
  if (!E->S->priv_esz[k]) return false;
  char *ix = sf(E, "((int64_t)(%s) << _lgR) + _ln", off);
  if (E->S->priv_count[k]) {
    line(E, "if (pv%d) atomicAdd((unsigned *)pvp%d + (%s), 1u);", k, k, ix);
    return true;
  }
  if (el == EL_I32 && kclass(vt) != K_INT) return false;
  char *d = conv(E, v, vt, el == EL_I32 ? K_INT : K_REAL);
  line(E, "if (pv%d) atomicAdd(pvp%d + (%s), (%s)(%s(%s)));", k, k, ix, el_ctype(el), op == OP_SUB ? "-" : "", d);
  return true;
}

/* CUDA: the native atomic for el op= v, when it computes exactly what the read-modify-write
   of num_op and store_conv computes: int32 elements with int values (add, sub, min, max, and,
   or, xor), and add/sub of numbers into elements of oq_real's own type (float in single,
   double in double precision; atomicAdd rounds once, like the C expression). NULL: use a
   compare-and-swap loop. The call returns the old value; *fix turns it into the new one. */
static const char *cuda_native_atomic(ElemType el, Op op, KType vt, const char **fix) {
  bool dp = rt_config.double_precision;
  KKind vc = kclass(vt);
  if (el == EL_I32 && vc == K_INT) {
    static const struct { Op op; const char *fn, *fix; } m[] = {
      {OP_ADD, "atomicAdd", "+"}, {OP_SUB, "atomicSub", "-"}, {OP_MAX, "atomicMax", "max"},
      {OP_MIN, "atomicMin", "min"}, {OP_BAND, "atomicAnd", "&"}, {OP_BOR, "atomicOr", "|"},
      {OP_BXOR, "atomicXor", "^"},
    };
    for (size_t i = 0; i < sizeof m / sizeof *m; i++)
      if (m[i].op == op) return *fix = m[i].fix, m[i].fn;
    return NULL;
  }
  if ((el == (dp ? EL_F64 : EL_F32)) && (vc == K_INT || vc == K_REAL) && (op == OP_ADD || op == OP_SUB))
    return *fix = op == OP_ADD ? "+" : "-", "atomicAdd";
  return NULL;
}

/* *lv op= v with the native atomic fn; the new value into res (or dropped). */
static void cuda_atomic_store(Em *E, ElemType el, const char *fn, const char *fix, char *lv, char *v, KType vt,
                              char *res) {
  const char *ct = el_ctype(el);
  char *x = tmp(E), *r0 = tmp(E);
  line(E, "const %s %s = %s;", ct, x, el == EL_I32 ? v : conv(E, v, vt, K_REAL));
  bool neg = !strcmp(fn, "atomicAdd") && !strcmp(fix, "-");   /* float subtraction: add -x */
  line(E, "const %s %s = %s(&%s, %s%s);", ct, r0, fn, lv, neg ? "-" : "", x);
  if (!res) line(E, "(void)%s;", r0);
  else if (!strcmp(fix, "max") || !strcmp(fix, "min")) line(E, "%s = %s(%s, %s);", res, fix, r0, x);
  else line(E, "%s = %s %s %s;", res, r0, fix, x);
}

/* Stores v (type vt) into element k of the plan, optionally combining with op (atomically
   unless the array is block-shared: one worker runs a whole block). res: where the stored
   value goes (or NULL). */
static void store_elem(Em *E, Plan *P, KType at, int k, Op op, char *v, KType vt, char *res, Node *at_node) {
  char *off, *valid;
  plan_elem(E, P, k, &off, &valid);
  ElemType el = at.el;
  const char *ct = el_ctype(el);
  KType et = kt(el_is_integer(el) ? K_INT : K_REAL), rc = rmw_class(op, et, vt);
  char *lv = sf(E, "%s.p[%s]", P->arr, off);
  if (op == OP_NONE) {
    line(E, "if (%s) %s = %s;", valid, lv, store_conv(E, el, v, vt));
    if (res) line(E, "%s = %s;", res, v);
    return;
  }
  line(E, "if (%s) {", valid);
  E->ind++;
  bool fast_int = el == EL_I32 && kclass(vt) == K_INT &&
                  (op == OP_ADD || op == OP_SUB || op == OP_BAND || op == OP_BOR || op == OP_BXOR);
  bool priv = P->priv >= 0 && (!E->cuda || cuda_priv_update(E, P->priv, off, el, op, v, vt));
  if (priv && E->cuda) {
    line(E, "else {");
    E->ind++;
  } else if (priv && E->S->priv_count[P->priv]) {
    /* this worker's private count of the (identical) additions */
    line(E, "if (pv%d) ((int64_t *)pvp%d)[%s]++;", P->priv, P->priv, off);
    line(E, "else {");
    E->ind++;
  } else if (priv) {
    /* this worker's private copy, when the launcher made one */
    char *pl = sf(E, "pvp%d[%s]", P->priv, off);
    line(E, "if (pv%d) %s = %s;", P->priv, pl, store_conv(E, el, num_op(E, op, load(E, el, pl), et, v, vt, at_node), rc));
    line(E, "else {");
    E->ind++;
  }
  const char *nat = NULL, *fix = NULL;
  if (at.shared && !E->cuda) {   /* on the GPU the threads of a block run at once */
    line(E, "%s = %s;", lv, store_conv(E, el, num_op(E, op, load(E, el, lv), et, v, vt, at_node), rc));
    if (res) line(E, "%s = %s;", res, load(E, el, lv));
  } else if (E->cuda && (nat = cuda_native_atomic(el, op, vt, &fix))) {
    cuda_atomic_store(E, el, nat, fix, lv, v, vt, res);
  } else if (fast_int) {
    const char *fn = op == OP_ADD ? "add" : op == OP_SUB ? "sub" : op == OP_BAND ? "and" : op == OP_BOR ? "or" : "xor";
    char *r0 = tmp(E);
    line(E, "int32_t %s = __atomic_%s_fetch(&%s, %s, __ATOMIC_RELAXED);", r0, fn, lv, v);
    if (res) line(E, "%s = %s;", res, r0);
    else line(E, "(void)%s;", r0);
  } else {
    if (E->cuda && el_size(el) > 8) efail(E, at_node->loc, "atomic updates of 16-byte elements are not compiled for CUDA");
    char *p = tmp(E), *o = tmp(E), *nn = tmp(E);
    line(E, "%s *%s = &%s;", ct, p, lv);
    line(E, "%s %s, %s;", ct, o, nn);
    line(E, "__atomic_load(%s, &%s, __ATOMIC_RELAXED);", p, o);
    line(E, "do {");
    E->ind++;
    line(E, "%s = %s;", nn, store_conv(E, el, num_op(E, op, load(E, el, o), et, v, vt, at_node), rc));
    E->ind--;
    line(E, "} while (!__atomic_compare_exchange(%s, &%s, &%s, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));", p, o, nn);
    if (res) line(E, "%s = %s;", res, load(E, el, nn));
  }
  if (priv) {
    E->ind--;
    line(E, "}");
  }
  E->ind--;
  if (res) {
    line(E, "} else {");
    E->ind++;
    line(E, "%s = %s;", res, load(E, el, store_conv(E, el, num_op(E, op, zero_of(et.kind), et, v, vt, at_node), rc)));
    E->ind--;
  }
  line(E, "}");
}

/* x[...] (op)= v; returns the stored value's C expression when want is set. */
static char *index_store(Em *E, Node *n, Node *target, Op op, char *v, KType vt, bool want) {
  KType at = T(E, target->a);
  if (at.kind == K_VEC) {
    /* a component of a local vector */
    Node *e = target->list.items[0];
    char *lv = slot_ref(E, target->a->slot);
    KType cur = T(E, target->a);
    char *i0 = tmp(E);
    line(E, "int64_t %s = %s;", i0, idx64(E, ex(E, e), T(E, e)));
    char *old = sf(E, "%s.v[%s]", lv, i0);
    char *nv = op == OP_NONE ? conv(E, v, vt, cur.elem)
                             : conv(E, num_op(E, op, old, kt(cur.elem), v, vt, n), T(E, n), cur.elem);
    line(E, "if ((uint64_t)%s < %d) %s = %s;", i0, cur.len, old, nv);
    return want ? old : NULL;
  }
  char *arr = vname(E, ex(E, target->a), at);
  Plan P;
  plan_build(E, target, arr, at, &P);
  if (op != OP_NONE && !want) P.priv = private_of(E, target->a);
  char *res = NULL;
  KType et = op == OP_NONE ? vt : T(E, target);
  if (want) {
    res = tmp(E);
    line(E, "%s %s = {0};", ctype(E, et), res);
  }
  if (vt.kind == K_VEC) v = vname(E, v, vt);
  if (P.vdim < 0) {
    store_elem(E, &P, at, 0, op, v, vt, res, n);
    return res;
  }
  for (int k = 0; k < P.vlen; k++) {
    char *vk = vt.kind == K_VEC ? sf(E, "%s.v[%d]", v, k) : v;
    KType vkt = vt.kind == K_VEC ? kt(vt.elem) : vt;
    store_elem(E, &P, at, k, op, vk, vkt, res ? sf(E, "%s.v[%d]", res, k) : NULL, n);
  }
  return res;
}

static char *ex_exchange(Em *E, Node *n) {
  Node *target = n->a;
  KType at = T(E, target->a), et = T(E, target);
  char *arr = vname(E, ex(E, target->a), at);
  bool cas = n->b->kind == N_TUPLE;
  Node *vn = cas ? n->b->list.items[1] : n->b;
  char *expected = cas ? ex(E, n->b->list.items[0]) : NULL;
  KType ext = cas ? T(E, n->b->list.items[0]) : kt(K_INT);
  char *v = ex(E, vn);
  KType vt = T(E, vn);
  Plan P;
  plan_build(E, target, arr, at, &P);
  char *off, *valid;
  plan_elem(E, &P, 0, &off, &valid);
  ElemType el = at.el;
  const char *ct = el_ctype(el);
  if (E->cuda && el_size(el) > 8) efail(E, n->loc, "'<-' on 16-byte elements is not compiled for CUDA");
  char *res = tmp(E), *lv = sf(E, "%s.p[%s]", arr, off);
  line(E, "%s %s = 0;", ctype(E, et), res);
  line(E, "if (%s) {", valid);
  E->ind++;
  char *p = tmp(E), *o = tmp(E), *nn = tmp(E);
  line(E, "%s *%s = &%s;", ct, p, lv);
  line(E, "%s %s, %s = %s;", ct, o, nn, store_conv(E, el, v, vt));
  if (!cas) {
    line(E, "__atomic_exchange(%s, &%s, &%s, __ATOMIC_RELAXED);", p, nn, o);
    line(E, "%s = %s;", res, load(E, el, o));
  } else {
    line(E, "__atomic_load(%s, &%s, __ATOMIC_RELAXED);", p, o);
    line(E, "for (;;) {");
    E->ind++;
    line(E, "if (!%s) break;", num_op(E, OP_EQ, load(E, el, o), et, expected, ext, n));
    line(E, "if (__atomic_compare_exchange(%s, &%s, &%s, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) break;", p, o, nn);
    E->ind--;
    line(E, "}");
    line(E, "%s = %s;", res, load(E, el, o));
  }
  E->ind--;
  line(E, "}");
  return res;
}

/* ---- built-in functions ---- */

static char *map1(Em *E, int id, char *a, KType t, KKind rc, Node *at);

static char *math_real(Em *E, const char *fn, char *x) {
  return sf(E, "((oq_real)%s((double)%s))", fn, x);
}

static char *map1(Em *E, int id, char *a, KType t, KKind rc, Node *at) {
  KKind c = kclass(t);
  bool dp = rt_config.double_precision;
  static const struct { int id; const char *fn, *cfn; } m[] = {
    {KB_EXP, "exp", "cexp"}, {KB_LOG, "log", "clog"}, {KB_LOG2, "log2", NULL}, {KB_LOG10, "log10", NULL},
    {KB_SIN, "sin", "csin"}, {KB_COS, "cos", "ccos"}, {KB_TAN, "tan", "ctan"}, {KB_ASIN, "asin", NULL},
    {KB_ACOS, "acos", NULL}, {KB_ATAN, "atan", NULL}, {KB_SINH, "sinh", "csinh"}, {KB_COSH, "cosh", "ccosh"},
    {KB_TANH, "tanh", "ctanh"}, {KB_SQRT, "sqrt", "csqrt"},
  };
  for (size_t i = 0; i < sizeof m / sizeof *m; i++)
    if (m[i].id == id) {
      if (c == K_CPLX) return sf(E, "((oq_cplx)%s((oq_c128)%s))", m[i].cfn, a);
      if (id == KB_SQRT) return sf(E, dp ? "sqrt((double)%s)" : "sqrtf((float)%s)", a);
      return math_real(E, m[i].fn, a);
    }
  switch (id) {
  case KB_ABS:
    if (c == K_INT) return sf(E, "oq_iabs(%s)", a);
    if (c == K_REAL) return sf(E, dp ? "fabs(%s)" : "fabsf(%s)", a);
    return sf(E, "((oq_real)cabs((oq_c128)%s))", a);
  case KB_FLOOR: case KB_CEIL: case KB_ROUND:
    if (c == K_INT) return a;
    return sf(E, "%s%s(%s)", id == KB_FLOOR ? "floor" : id == KB_CEIL ? "ceil" : "round", dp ? "" : "f", a);
  case KB_FRAC:
    if (c == K_INT) return "0";
    return sf(E, "((oq_real)((double)%s - floor((double)%s)))", a, a);
  case KB_SIGN:
    if (c == K_INT) return sf(E, "((%s > 0) - (%s < 0))", a, a);
    return sf(E, "oq_rsign(%s)", a);
  case KB_FLOAT: return conv(E, a, t, K_REAL);
  case KB_INT:
    if (c == K_INT) return a;
    return sf(E, "((int32_t)oq_trunc64((double)%s))", a);
  case KB_NOT:
    if (c == K_INT) return sf(E, "(~%s)", a);
    return sf(E, "(~(int32_t)oq_trunc64((double)%s))", a);
  case KB_REAL: return c == K_CPLX ? sf(E, "((oq_real)creal(%s))", a) : a;
  case KB_IMAG: return c == K_CPLX ? sf(E, "((oq_real)cimag(%s))", a) : (c == K_INT ? "0" : "((oq_real)0)");
  case KB_CONJ: return c == K_CPLX ? sf(E, "((oq_cplx)conj(%s))", a) : a;
  case KB_ANGLE:
    if (c == K_CPLX) return sf(E, "((oq_real)carg((oq_c128)%s))", a);
    return sf(E, "((oq_real)atan2(0.0, (double)%s))", a);
  case KB_ISNAN: case KB_ISINF: case KB_ISFINITE: {
    const char *fn = id == KB_ISNAN ? "isnan" : id == KB_ISINF ? "isinf" : "isfinite";
    if (c == K_INT) return id == KB_ISFINITE ? "1" : "0";
    if (c == K_REAL) return sf(E, "(%s(%s) != 0)", fn, a);
    if (id == KB_ISFINITE) return sf(E, "(isfinite(creal(%s)) && isfinite(cimag(%s)))", a, a);
    return sf(E, "(%s(creal(%s)) || %s(cimag(%s)))", fn, a, fn, a);
  }
  default: break;
  }
  (void)rc;
  efail(E, at->loc, "internal: built-in %d", id);
}

static char *vec_reduce(Em *E, int id, char *a, KType t, KType r) {
  if (t.kind != K_VEC) {
    if (id == KB_MEAN) return conv(E, a, t, K_REAL);
    return a;
  }
  char *v = vname(E, a, t);
  Buf b = {0};
  char *res;
  if (id == KB_MIN || id == KB_MAX) {
    char *m = tmp(E);
    line(E, "%s %s = %s.v[0];", ctype(E, r), m, v);
    for (int k = 0; k < t.len; k++) {
      if (t.elem == K_INT) line(E, "if (%s.v[%d] %s %s) %s = %s.v[%d];", v, k, id == KB_MIN ? "<" : ">", m, m, v, k);
      else line(E, "if (%s != %s || %s.v[%d] %s %s) %s = %s.v[%d];", m, m, v, k, id == KB_MIN ? "<" : ">", m, m, v, k);
    }
    return m;
  }
  bool real = t.elem == K_REAL || id == KB_MEAN;
  const char *acc = real ? "double" : "int64_t";
  bputs(&b, id == KB_PROD ? (real ? "1.0" : "(int64_t)1") : (real ? "0.0" : "(int64_t)0"));
  for (int k = 0; k < t.len; k++) {
    char *prev = sf(E, "%s", b.s);
    b.len = 0;
    bprintf(&b, "(%s %s (%s)%s.v[%d])", prev, id == KB_PROD ? "*" : "+", acc, v, k);
  }
  if (id == KB_MEAN) res = sf(E, "((oq_real)(%s / %d.0))", b.s, t.len);
  else res = sf(E, "((%s)%s)", ctype(E, r), b.s);
  free(b.s);
  return res;
}

static char *dims_vec(Em *E, char *a, KType t) {
  /* the sizes of a value as size() gives them */
  char *t0 = tmp(E);
  if (t.kind == K_ARRAY) {
    line(E, "oqv_i%d %s;", t.rank, t0);
    for (int d = 0; d < t.rank; d++) line(E, "%s.v[%d] = (int32_t)%s;", t0, d, adim(E, a, t, d));
  } else if (t.kind == K_VEC) {
    line(E, "oqv_i1 %s = {{%d}};", t0, t.len);
  } else {
    line(E, "oqv_i2 %s = {{1, 1}};", t0);
  }
  return t0;
}

static char *dim_of(Em *E, char *a, KType t, char *d) {
  char *end;
  long long cd = strtoll(d, &end, 10);
  if (t.kind == K_ARRAY && t.cdims && *d && !*end && cd >= 0) return sf(E, "(int32_t)%s", adim(E, a, t, (int)cd));
  if (t.kind == K_ARRAY) return sf(E, "((int32_t)oq_dim(%s.d, %d, %s))", a, t.rank, d);
  if (t.kind == K_VEC) return sf(E, "((%s) == 0 ? %d : 1)", d, t.len);
  return "1";
}

static char *ex_size(Em *E, Node *n, char **a, KType *t) {
  char *x = t[0].kind == K_ARRAY || t[0].kind == K_VEC ? vname(E, a[0], t[0]) : a[0];
  if (n->list.n == 1) return dims_vec(E, x, t[0]);
  KType r = T(E, n);
  if (r.kind == K_VEC) {
    char *dv = vname(E, a[1], t[1]), *t0 = tmp(E);
    line(E, "%s %s;", ctype(E, r), t0);
    for (int k = 0; k < r.len; k++)
      line(E, "%s.v[%d] = %s;", t0, k, dim_of(E, x, t[0], idx64(E, sf(E, "%s.v[%d]", dv, k), kt(t[1].elem))));
    return t0;
  }
  return dim_of(E, x, t[0], idx64(E, a[1], t[1]));
}

static char *ex_numel(Em *E, char *a, KType t) {
  if (t.kind == K_VEC) return sf(E, "%d", t.len);
  if (t.kind != K_ARRAY) return "1";
  char *x = vname(E, a, t);
  Buf b = {0};
  for (int d = 0; d < t.rank; d++) bprintf(&b, "%s%s", d ? " * " : "", adim(E, x, t, d));
  char *r = sf(E, "((int32_t)(%s))", b.s);
  free(b.s);
  return r;
}

/* A number or vector as a list of int64 components (for pos2ind/ind2pos). */
static int int_parts(Em *E, char *a, KType t, char **out) {
  if (t.kind != K_VEC) { out[0] = idx64(E, a, t); return 1; }
  char *v = vname(E, a, t);
  for (int k = 0; k < t.len; k++)
    out[k] = t.elem == K_INT ? sf(E, "(int64_t)%s.v[%d]", v, k) : sf(E, "oq_trunc64((double)%s.v[%d])", v, k);
  return t.len;
}

static char *ex_pos2ind(Em *E, char **a, KType *t) {
  char *d[K_MAX_VEC], *p[K_MAX_VEC];
  int nd = int_parts(E, a[0], t[0], d), np = int_parts(E, a[1], t[1], p);
  int n = nd > np ? nd : np;
  char *acc = "(int64_t)0";
  for (int k = 0; k < n; k++)
    acc = sf(E, "(%s * %s + %s)", acc, k < nd ? d[k] : "1", k < np ? p[k] : "0");
  return sf(E, "((int32_t)%s)", acc);
}

static char *ex_ind2pos(Em *E, char **a, KType *t, KType r) {
  char *d[K_MAX_VEC];
  int nd = int_parts(E, a[0], t[0], d);
  char *ind = tmp(E), *t0 = tmp(E);
  line(E, "int64_t %s = %s;", ind, idx64(E, a[1], t[1]));
  line(E, "%s %s;", ctype(E, r), t0);
  for (int k = nd - 1; k > 0; k--) {
    char *dk = tmp(E);
    line(E, "int64_t %s = %s;", dk, d[k]);
    line(E, "%s.v[%d] = (int32_t)(%s > 0 ? %s %% %s : 0);", t0, k, dk, ind, dk);
    line(E, "%s = %s > 0 ? %s / %s : 0;", ind, dk, ind, dk);
  }
  line(E, "%s.v[0] = (int32_t)%s;", t0, ind);
  return t0;
}

static char *ex_shared(Em *E, Node *n, char **a, KType *t) {
  NodeInfo *ni = I(E, n);
  KType r = ni->t;
  int k = ni->site;
  char *sh = sf(E, "sh%d", k);
  if (E->cuda && (!E->S->barrier || E->f != E->S->kspec))
    efail(E, n->loc, "shared memory without syncthreads in the kernel is not compiled for CUDA");
  char *dims[OQ_MAX_RANK];
  int rank = 0;
  for (int i = 0; i < n->list.n; i++) {
    if (t[i].kind == K_VEC) {
      char *v = vname(E, a[i], t[i]);
      for (int j = 0; j < t[i].len; j++) dims[rank++] = sf(E, "(int64_t)%s.v[%d]", v, j);
    } else {
      dims[rank++] = idx64(E, a[i], t[i]);
    }
  }
  Buf dl = {0}, same = {0};
  for (int d = 0; d < rank; d++) {
    bprintf(&dl, "%s%s", d ? ", " : "", dims[d]);
    bprintf(&same, "%s%s.d[%d] == %s", d ? " && " : "", sh, d, dims[d]);
  }
  char *dv = tmp(E);
  line(E, "const int64_t %s[%d] = {%s};", dv, rank, dl.s);
  if (E->cuda) {   /* the next piece of the block's dynamic shared memory, zeroed by all threads */
    line(E, "oq_shared_take(%s, %d, %d, %s, (void **)&%s.p, %s.d, sizeof *%s.p, &_shoff);", E->L,
         div_site(E, n, KE_SHARED), rank, dv, sh, sh, sh);
    free(dl.s);
    free(same.s);
    return sh;
  }
  line(E, "if (!%s_init) {", sh);
  E->ind++;
  line(E, "if (!oq_shared_alloc(%s, W, %d, %d, %d, %s, &%s.p, %s.d, sizeof *%s.p)) goto _done;", E->L, k,
       div_site(E, n, KE_SHARED), rank, dv, sh, sh, sh);
  line(E, "%s_init = 1;", sh);
  E->ind--;
  line(E, "} else if (!(%s)) {", same.s);
  E->ind++;
  line(E, "oq_fail(%s, %d);", E->L, div_site(E, n, KE_SHARED));
  line(E, "goto _done;");
  E->ind--;
  line(E, "}");
  free(dl.s);
  free(same.s);
  (void)r;
  return sh;
}

static char *ex_builtin(Em *E, Node *n, int id) {
  int argc = n->list.n;
  char *a[OQ_MAX_RANK + 2];
  KType t[OQ_MAX_RANK + 2];
  KType r = T(E, n);
  for (int i = 0; i < argc; i++) {
    a[i] = ex(E, n->list.items[i]);
    t[i] = T(E, n->list.items[i]);
  }
  switch (id) {
  case KB_SHARED: return ex_shared(E, n, a, t);
  case KB_ASSERT:
    line(E, "if (!%s) oq_fail(%s, %d);", truthy(E, a[0], t[0]), E->L, I(E, n)->site);
    return "0";
  case KB_NUMEL: return ex_numel(E, a[0], t[0]);
  case KB_NDIMS: return sf(E, "%d", t[0].kind == K_ARRAY ? t[0].rank : t[0].kind == K_VEC ? 1 : 2);
  case KB_SIZE: return ex_size(E, n, a, t);
  case KB_POS2IND: return ex_pos2ind(E, a, t);
  case KB_IND2POS: return ex_ind2pos(E, a, t, r);
  case KB_SUM: case KB_PROD: case KB_MEAN: return vec_reduce(E, id, a[0], t[0], r);
  case KB_MIN: case KB_MAX:
    if (argc == 1) return vec_reduce(E, id, a[0], t[0], r);
    return any_op(E, id == KB_MIN ? OP_MIN : OP_MAX, a[0], t[0], a[1], t[1], r, n);
  case KB_CLAMP: {
    KType lo = r;
    if (t[0].kind != K_VEC && t[1].kind != K_VEC) lo = kt(kclass(t[0]) > kclass(t[1]) ? kclass(t[0]) : kclass(t[1]));
    else lo.elem = kclass(t[0]) > kclass(t[1]) ? kclass(t[0]) : kclass(t[1]);
    char *m = any_op(E, OP_MAX, a[0], t[0], a[1], t[1], lo, n);
    return any_op(E, OP_MIN, m, lo, a[2], t[2], r, n);
  }
  case KB_MOD: return any_op(E, OP_MOD, a[0], t[0], a[1], t[1], r, n);
  case KB_AND: return any_op(E, OP_BAND, a[0], t[0], a[1], t[1], r, n);
  case KB_OR: return any_op(E, OP_BOR, a[0], t[0], a[1], t[1], r, n);
  case KB_XOR: return any_op(E, OP_BXOR, a[0], t[0], a[1], t[1], r, n);
  case KB_SHL: case KB_SHR: {
    if (t[0].kind == K_VEC || t[1].kind == K_VEC) efail(E, n->loc, "shl/shr of vectors");
    char *x = idx64(E, a[0], t[0]), *y = idx64(E, a[1], t[1]);
    return sf(E, "((int32_t)oq_shift(%s, %s, %d))", x, y, id == KB_SHL);
  }
  case KB_ATAN2:
    return sf(E, "((oq_real)atan2((double)%s, (double)%s))", a[0], a[1]);
  case KB_COMPLEX:
    return sf(E, "oq_mkc((double)%s, (double)%s)", a[0], argc > 1 ? a[1] : "0");
  default:
    if (t[0].kind == K_VEC) {
      char *v = vname(E, a[0], t[0]), *t0 = tmp(E);
      line(E, "%s %s;", ctype(E, r), t0);
      for (int k = 0; k < t[0].len; k++)
        line(E, "%s.v[%d] = %s;", t0, k, map1(E, id, sf(E, "%s.v[%d]", v, k), kt(t[0].elem), r.elem, n));
      return t0;
    }
    return map1(E, id, a[0], t[0], kclass(r), n);
  }
}

/* ---- calls to device functions ---- */

static char *ex_call(Em *E, Node *n) {
  NodeInfo *ni = I(E, n);
  if (ni->builtin) return ex_builtin(E, n, ni->builtin);
  FSpec *g = ni->callee;
  if (!g) efail(E, n->loc, "internal: call without a target");
  Buf args = {0};
  bputs(&args, "cx");
  for (int i = 0; i < n->list.n; i++) {
    KType want = g->params[i], have = T(E, n->list.items[i]);
    char *a = ex(E, n->list.items[i]);
    if (!has_repr(want)) continue;
    if (want.kind == K_VEC && have.kind == K_VEC && want.elem != have.elem) {
      char *v = vname(E, a, have), *t0 = tmp(E);
      line(E, "%s %s;", ctype(E, want), t0);
      for (int k = 0; k < want.len; k++) line(E, "%s.v[%d] = %s;", t0, k, comp(E, v, have, k, want.elem));
      a = t0;
    } else if (want.kind != K_VEC && want.kind != K_ARRAY) {
      a = conv(E, a, have, want.kind);
    }
    bprintf(&args, ", %s", a);
  }
  char *call = sf(E, "oqf%d(%s)", g->id, args.s);
  free(args.s);
  if (!has_repr(g->result)) {
    line(E, "%s;", call);
    return "0";
  }
  char *t0 = tmp(E);
  line(E, "%s %s = %s;", ctype(E, g->result), t0, call);
  return t0;
}

static void st_assign(Em *E, Node *n, bool want, char **res);

static char *ex_node(Em *E, Node *n);

/* A small array where a vector is wanted: its elements read into one. */
static char *ex(Em *E, Node *n) {
  char *e = ex_node(E, n);
  NodeInfo *ni = ksema_info(E->f, n);
  if (!ni || !ni->as_vec) return e;
  char *a = vname(E, e, kt(K_NONE)), *t0 = tmp(E);
  KType v = ni->t;
  line(E, "%s %s;", ctype(E, v), t0);
  for (int k = 0; k < v.len; k++)
    line(E, "%s.v[%d] = (%s)%s.p[%d];", t0, k, v.elem == K_INT ? "int32_t" : "oq_real", a, k);
  return t0;
}

static char *ex_node(Em *E, Node *n) {
  switch (n->kind) {
  case N_INT: return sf(E, "%lld", (long long)n->ival);
  case N_REAL: return real_lit(E, n->rval);
  case N_IMAG: return sf(E, "oq_mkc(0, %.17g)", n->rval);
  case N_IDENT: return ex_ident(E, n);
  case N_UNARY: return ex_unary(E, n);
  case N_BINARY: return ex_binary(E, n);
  case N_RANGE: return ex_range_value(E, n);
  case N_COND: return ex_cond(E, n);
  case N_CALL: return ex_call(E, n);
  case N_INDEX: return index_read(E, n);
  case N_MATRIX: return ex_matrix(E, n);
  case N_LAMBDA: return "0";
  case N_EXCHANGE: return ex_exchange(E, n);
  case N_ASSIGN: {
    char *r = NULL;
    st_assign(E, n, true, &r);
    return r ? r : "0";
  }
  default: efail(E, n->loc, "internal: %s", node_kind_name(n->kind));
  }
}

/* ---- statements ---- */

static void loc_comment(Em *E, Node *n) {
  const char *path = n->loc.file && n->loc.file->path ? n->loc.file->path : "?";
  const char *base = strrchr(path, '/');
  line(E, "/* %s:%d */", base ? base + 1 : path, n->loc.line);
}

/* Stores v into a local slot, converting to the slot's type. */
static void store_slot(Em *E, int slot, char *v, KType vt) {
  KType st_ = E->f->slots[slot];
  if (!has_repr(st_)) return;
  if (E->konst && E->konst[slot]) return;   /* a constant: its reads use the literal */
  char *lv = slot_ref(E, slot);
  if (st_.kind == K_VEC) {
    if (vt.kind == K_VEC && vt.elem == st_.elem) { line(E, "%s = %s;", lv, v); return; }
    char *x = vname(E, v, vt);
    for (int k = 0; k < st_.len; k++) line(E, "%s.v[%d] = %s;", lv, k, comp(E, x, vt, k, st_.elem));
    return;
  }
  if (st_.kind == K_ARRAY || st_.kind == K_TUPLE) { line(E, "%s = %s;", lv, v); return; }
  if (st_.kind == K_BOOL) { line(E, "%s = %s;", lv, truthy(E, v, vt)); return; }
  line(E, "%s = %s;", lv, conv(E, v, vt, st_.kind));
}

/* The value of a declared conversion (x : T = v): bool declarations take truthiness. */
static char *decl_conv(Em *E, Node *n, char *v, KType vt) {
  if (n->type && n->type->kind == TY_BOOL) return truthy(E, v, vt);
  return v;
}

static void assign_target(Em *E, Node *n, Node *t, char *v, KType vt, bool want, char **res) {
  if (t->kind == N_INDEX) {
    char *r = index_store(E, n, t, n->op, v, vt, want);
    if (res) *res = r;
    return;
  }
  int slot = t->slot;
  if (n->op == OP_NONE) {
    store_slot(E, slot, decl_conv(E, n, v, vt), vt);
  } else {
    KType old = E->f->slots[slot], r = T(E, n);
    char *o = slot_ref(E, slot);
    bool intlike = kclass(old) == K_INT && kclass(vt) == K_INT && old.kind != K_VEC && vt.kind != K_VEC;
    char *nv;
    if (intlike && (n->op == OP_DIV || n->op == OP_EDIV))
      nv = sf(E, "oq_idiv(%s, %d, %s, %s)", E->L, div_site(E, n, KE_DIVZERO), o, v);
    else if (intlike && (n->op == OP_POW || n->op == OP_EPOW))
      nv = sf(E, "oq_ipow(%s, %s)", o, v);
    else {
      KType rr = r;
      if (rr.kind != K_VEC) rr = kt((KKind)I(E, n)->builtin);
      nv = any_op(E, n->op, o, old, v, vt, rr, n);
      r = rr;
    }
    store_slot(E, slot, nv, r);
  }
  if (res) *res = slot_ref(E, slot);
}

static void st_assign(Em *E, Node *n, bool want, char **res) {
  if (!n->b) {
    Node *t = n->list.items[0];
    store_slot(E, t->slot, "0", kt(K_INT));
    return;
  }
  if (n->list.n == 1) {
    Node *t = n->list.items[0];
    if (t->kind == N_IDENT && !has_repr(E->f->slots[t->slot])) return;   /* function values */
    char *v = ex(E, n->b);
    assign_target(E, n, t, v, T(E, n->b), want, res);
    return;
  }
  int count = n->list.n;
  char **vals = calloc(count, sizeof *vals);
  KType *types = calloc(count, sizeof *types);
  if (n->b->kind == N_MATRIX && n->b->list.n == count) {
    for (int i = 0; i < count; i++) {
      types[i] = T(E, n->b->list.items[i]);
      char *v = ex(E, n->b->list.items[i]);
      char *t0 = tmp(E);
      line(E, "%s %s = %s;", ctype(E, types[i]), t0, v);
      vals[i] = t0;
    }
  } else {
    KType vt = T(E, n->b);
    char *v = vname(E, ex(E, n->b), vt);
    for (int i = 0; i < count; i++) {
      if (vt.kind == K_VEC) { vals[i] = sf(E, "%s.v[%d]", v, i); types[i] = kt(vt.elem); }
      else {
        FSpec *g = vt.tuple;
        vals[i] = sf(E, "%s.o%d", v, i);
        types[i] = g->slots[g->func->ngenerics + g->func->nparams + i];
      }
    }
  }
  for (int i = 0; i < count; i++) assign_target(E, n, n->list.items[i], vals[i], types[i], false, NULL);
  free(vals);
  free(types);
}

static bool is_barrier_stmt(Node *n) {
  if (n->kind != N_EXPR) return false;
  Node *e = n->a;
  return (e->kind == N_IDENT && !strcmp(e->name, "syncthreads")) ||
         (e->kind == N_CALL && e->a->kind == N_IDENT && !strcmp(e->a->name, "syncthreads"));
}

/* syncthreads(grid) */
static bool is_grid_barrier(Node *n) {
  Node *e = n->a;
  return e->kind == N_CALL && e->list.n == 1 && e->list.items[0]->kind == N_IDENT &&
         !strcmp(e->list.items[0]->name, "grid");
}

static bool is_memfence_stmt(Node *n) {
  if (n->kind != N_EXPR) return false;
  Node *e = n->a;
  return (e->kind == N_IDENT && !strcmp(e->name, "memfence")) ||
         (e->kind == N_CALL && e->a->kind == N_IDENT && !strcmp(e->a->name, "memfence"));
}

static void err_check_loop(Em *E) {
  if (E->S->nsites) line(E, "if (__atomic_load_n(&%s->err, __ATOMIC_RELAXED)) break;", E->L);
}

/* for i = a..b / a..s..b / over a vector */
static void st_for(Em *E, Node *n) {
  int slot = n->slot;
  KType lv = E->f->slots[slot];
  line(E, "{");
  E->ind++;
  if (n->a->kind == N_RANGE) {
    Node *r = n->a;
    KType rt = T(E, r);
    char *a = ex(E, r->a), *c = ex(E, r->c);
    KType ta = T(E, r->a), tc = T(E, r->c);
    char *s = r->b ? ex(E, r->b) : "1";
    KType ts = r->b ? T(E, r->b) : kt(K_INT);
    if (rt.kind == K_INT) {
      int64_t cs = 0;
      bool const_step = !r->b || r->b->kind == N_INT;
      if (const_step) cs = r->b ? r->b->ival : 1;
      line(E, "const int64_t _a%d = %s, _c%d = %s;", n->loc.line, a, n->loc.line, c);
      if (const_step && cs > 0) {
        line(E, "for (int64_t _i = _a%d; _i <= _c%d; _i += %lld) {", n->loc.line, n->loc.line, (long long)cs);
      } else if (const_step && cs < 0) {
        line(E, "for (int64_t _i = _a%d; _i >= _c%d; _i += %lld) {", n->loc.line, n->loc.line, (long long)cs);
      } else {
        /* a + k*s for k = 0.. while it does not pass c: the same values as the count
           (c - a) / s + 1 without a division (ints are 32-bit: no overflow in 64) */
        line(E, "const int64_t _s = %s;", s);
        line(E, "if (_s == 0) oq_fail(%s, %d);", E->L, div_site(E, n->a, KE_RANGE));
        line(E, "for (int64_t _i = _a%d; _s > 0 ? _i <= _c%d : _s < 0 && _i >= _c%d; _i += _s) {", n->loc.line,
             n->loc.line, n->loc.line);
      }
      E->ind++;
      line(E, "%s = %s;", slot_ref(E, slot), conv(E, "(int32_t)_i", kt(K_INT), lv.kind));
    } else {
      line(E, "const double _r0 = (double)%s, _rs = (double)%s, _re = (double)%s;", conv(E, a, ta, K_REAL),
           conv(E, s, ts, K_REAL), conv(E, c, tc, K_REAL));
      line(E, "if (_rs == 0 || _rs != _rs) oq_fail(%s, %d);", E->L, div_site(E, n->a, KE_RANGE));
      line(E, "const double _q = (_re - _r0) / _rs;");
      line(E, "const double _kk = _rs == 0 || _rs != _rs ? -1 : floor(_q + fabs(_q) * %s + 1e-9);",
           rt_config.double_precision ? "1e-12" : "4e-7");
      line(E, "const int64_t _n = _kk >= 0 ? (int64_t)_kk + 1 : 0;");
      line(E, "for (int64_t _k = 0; _k < _n; _k++) {");
      E->ind++;
      line(E, "%s = (oq_real)(_r0 + (double)_k * _rs);", slot_ref(E, slot));
    }
  } else {
    KType it = T(E, n->a);
    char *v = ex(E, n->a);
    if (it.kind == K_VEC) {
      v = vname(E, v, it);
      line(E, "for (int _k = 0; _k < %d; _k++) {", it.len);
      E->ind++;
      line(E, "%s = %s;", slot_ref(E, slot), conv(E, sf(E, "%s.v[_k]", v), kt(it.elem), lv.kind));
    } else {
      line(E, "for (int _k = 0; _k < 1; _k++) {");
      E->ind++;
      store_slot(E, slot, v, it);
    }
  }
  block(E, &n->list);
  E->ind--;
  line(E, "}");
  E->ind--;
  line(E, "}");
}

static void st_match(Em *E, Node *n) {
  KType st_ = T(E, n->a);
  char *s = tmp(E);
  line(E, "%s %s = %s;", ctype(E, st_), s, ex(E, n->a));
  bool first = true;
  int opened = 0;
  for (int i = 0; i < n->ncases; i++) {
    MatchCase *mc = &n->cases[i];
    if (!mc->pattern) {
      line(E, first ? "{" : "{ /* _ */");
      E->ind++;
      block(E, &mc->body);
      E->ind--;
      line(E, "}");
      break;
    }
    char *pre;
    char *p = ex_apart(E, mc->pattern, &pre);
    if (pre) efail(E, mc->loc, "a match pattern that needs statements");
    char *cond = num_op(E, OP_EQ, s, st_, p, T(E, mc->pattern), n);
    line(E, "if (%s) {", cond);
    E->ind++;
    block(E, &mc->body);
    E->ind--;
    line(E, "} else {");
    E->ind++;
    opened++;
    first = false;
  }
  for (int i = 0; i < opened; i++) {
    E->ind--;
    line(E, "}");
  }
}

static void st_return(Em *E, Node *n);

static void st(Em *E, Node *n) {
  switch (n->kind) {
  case N_FUNCDEF: case N_ATTR: case N_MACRO: case N_TYPEDEF: case N_IMPORT: return;
  default: break;
  }
  if (E->ndead && E->f->is_kernel) {
    if (is_dead(E, n)) return;
    if (n->kind == N_FOR && n->a->kind == N_RANGE && T(E, n->a).kind == K_INT && all_dead(E, &n->list)) {
      /* nothing left to run; a zero step is still an error */
      loc_comment(E, n);
      if (n->a->b) line(E, "if ((%s) == 0) oq_fail(%s, %d);", ex(E, n->a->b), E->L, div_site(E, n->a, KE_RANGE));
      return;
    }
  }
  loc_comment(E, n);
  switch (n->kind) {
  case N_EXPR:
    if (E->cuda && is_barrier_stmt(n) && is_grid_barrier(n)) {
      line(E, "oq_grid_sync(%s, %d);", E->L, div_site(E, n, KE_GRID_BARRIER));
      return;
    }
    if (E->cuda && (is_barrier_stmt(n) || is_memfence_stmt(n))) {
      line(E, is_barrier_stmt(n) ? "__syncthreads();" : "__threadfence();");
      return;
    }
    if (is_barrier_stmt(n) || is_memfence_stmt(n)) return;
    {
      char *e = ex(E, n->a);
      if (strcmp(e, "0") && T(E, n->a).kind != K_VEC && T(E, n->a).kind != K_ARRAY) line(E, "(void)%s;", e);
    }
    return;
  case N_ASSIGN: st_assign(E, n, false, NULL); return;
  case N_IF:
    line(E, "if (%s) {", truthy(E, ex(E, n->a), T(E, n->a)));
    E->ind++;
    block(E, &n->list);
    E->ind--;
    if (n->list2.n) {
      line(E, "} else {");
      E->ind++;
      block(E, &n->list2);
      E->ind--;
    }
    line(E, "}");
    return;
  case N_FOR: st_for(E, n); return;
  case N_WHILE: {
    line(E, "for (;;) {");
    E->ind++;
    err_check_loop(E);
    char *c = truthy(E, ex(E, n->a), T(E, n->a));
    line(E, "if (!%s) break;", c);
    block(E, &n->list);
    E->ind--;
    line(E, "}");
    return;
  }
  case N_REPEAT: {
    line(E, "do {");
    E->ind++;
    err_check_loop(E);
    block(E, &n->list);
    E->ind--;
    char *pre;
    char *c = ex_apart(E, n->a, &pre);
    c = truthy(E, c, T(E, n->a));
    if (!pre) line(E, "} while (!%s);", c);
    else {
      Buf b = {0};
      Buf *saved = E->b;
      int ind = E->ind;
      E->b = &b;
      E->ind = 0;
      put_pre(E, pre);
      E->b = saved;
      E->ind = ind;
      for (char *p = b.s; *p; p++)
        if (*p == '\n') *p = ' ';
      line(E, "} while (!({ %s %s; }));", b.s, c);
      free(b.s);
    }
    return;
  }
  case N_MATCH: st_match(E, n); return;
  case N_BREAK: line(E, "break;"); return;
  case N_CONTINUE: line(E, "continue;"); return;
  case N_RETURN: st_return(E, n); return;
  case N_BLOCK: block(E, &n->list); return;
  default: {
    char *e = ex(E, n);
    (void)e;
    return;
  }
  }
}

static void block(Em *E, NodeList *l) {
  for (int i = 0; i < l->n; i++) st(E, l->items[i]);
}

/* ---- device functions ---- */

static void func_result_expr(Em *E, FSpec *g, Buf *out) {
  Func *f = g->func;
  int base = f->ngenerics + f->nparams;
  if (g->result.kind == K_TUPLE) {
    bprintf(out, "%s", lit_open(E, sf(E, "oqt_%d", g->id)));
    for (int o = 0; o < f->nouts; o++) bprintf(out, "%s%s", o ? ", " : "", slot_name(E, g, base + o));
    bputs(out, "}");
  } else {
    bputs(out, slot_name(E, g, base));
  }
}

static void st_return(Em *E, Node *n) {
  (void)n;
  if (E->f->is_kernel) {
    line(E, "goto %s;", E->ret_label ? E->ret_label : "_next");
    E->has_return = true;
    return;
  }
  if (!has_repr(E->f->result)) { line(E, "return;"); return; }
  Buf b = {0};
  func_result_expr(E, E->f, &b);
  line(E, "return %s;", b.s);
  free(b.s);
}

static void func_signature(Em *E, FSpec *g, Buf *out) {
  Func *f = g->func;
  const char *rt = has_repr(g->result) ? ctype(E, g->result) : "void";
  bprintf(out, "%s %s oqf%d(Cx *cx", E->cuda ? "static __device__" : "static", rt, g->id);
  for (int i = 0; i < f->nparams; i++)
    if (has_repr(g->params[i])) bprintf(out, ", %s %s", ctype(E, g->params[i]), slot_name(E, g, f->ngenerics + i));
  bputs(out, ")");
}

static void emit_device(Em *E, FSpec *g, Buf *out) {
  Func *f = g->func;
  FuncInfo *fi = func_info(f);
  Buf body = {0};
  E->f = g;
  E->b = &body;
  E->ind = 1;
  E->phases = false;
  E->L = "cx->L";
  func_signature(E, g, &body);
  bputs(&body, " {\n");
  line(E, "(void)cx;");
  find_konst(E, g);
  int pbase = f->ngenerics, pend = pbase + f->nparams;
  for (int s = 0; s < fi->nslots; s++) {
    if (s >= pbase && s < pend) continue;
    if (!has_repr(g->slots[s])) continue;
    line(E, "%s %s = {0};", ctype(E, g->slots[s]), slot_name(E, g, s));
  }
  if (f->is_lambda) {
    int n = f->body.n;
    for (int i = 0; i < n - 1; i++) st(E, f->body.items[i]);
    Node *last = n ? f->body.items[n - 1] : NULL;
    if (last && last->kind == N_EXPR && has_repr(g->result)) {
      loc_comment(E, last);
      char *v = ex(E, last->a);
      line(E, "return %s;", v);
    } else if (last) {
      st(E, last);
    }
  } else {
    block(E, &f->body);
    if (has_repr(g->result)) {
      Buf r = {0};
      func_result_expr(E, g, &r);
      line(E, "return %s;", r.s);
      free(r.s);
    }
  }
  bputs(&body, "}\n\n");
  bputs(out, body.s);
  free(body.s);
  free(E->konst);
  E->konst = NULL;
}

/* ---- the kernel ---- */

/* Slots a function assigns; `v[i] = x` assigns v when v is a local vector of f. */
static void mark_assigned(FSpec *f, Node *n, unsigned char *assigned);

static void mark_list(FSpec *f, NodeList *l, unsigned char *assigned) {
  for (int i = 0; i < l->n; i++) mark_assigned(f, l->items[i], assigned);
}

static void mark_assigned(FSpec *f, Node *n, unsigned char *assigned) {
  if (!n) return;
  switch (n->kind) {
  case N_ASSIGN:
    for (int i = 0; i < n->list.n; i++) {
      Node *t = n->list.items[i];
      if (t->kind == N_IDENT && t->slot >= 0 && t->depth == 0) assigned[t->slot] = 1;
      if (t->kind == N_INDEX && t->a->kind == N_IDENT && t->a->slot >= 0 && t->a->depth == 0 &&
          f->slots[t->a->slot].kind == K_VEC)
        assigned[t->a->slot] = 1;   /* a component of a local vector */
    }
    mark_assigned(f, n->b, assigned);
    return;
  case N_FOR: assigned[n->slot] = 1; mark_assigned(f, n->a, assigned); mark_list(f, &n->list, assigned); return;
  case N_IF: mark_assigned(f, n->a, assigned); mark_list(f, &n->list, assigned); mark_list(f, &n->list2, assigned); return;
  case N_WHILE: case N_REPEAT: case N_BLOCK: mark_assigned(f, n->a, assigned); mark_list(f, &n->list, assigned); return;
  case N_MATCH:
    for (int i = 0; i < n->ncases; i++) mark_list(f, &n->cases[i].body, assigned);
    return;
  case N_LAMBDA: case N_FUNCDEF: return;
  default:
    mark_assigned(f, n->a, assigned);
    mark_assigned(f, n->b, assigned);
    mark_assigned(f, n->c, assigned);
    mark_list(f, &n->list, assigned);
    return;
  }
}

static const KSpecial *special_of(KSpec *S, int param) {
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
  char c = !strcmp(n, "pos") ? 'P' : !strcmp(n, "blkpos") ? 'T' : !strcmp(n, "blkidx") ? 'B' :
           !strcmp(n, "blkdim") ? 'b' : 'c';
  bool size = c == 'b' || c == 'c';
  if (sp->t.kind == K_INT) {
    Buf b = {0};
    if (size) {
      for (int d = 0; d < D; d++) bprintf(&b, "%s%c%d", d ? " * " : "", c, d);
    } else {
      /* row-major linear index over the extents: pos over cnt*blk, blkpos over blk, blkidx over cnt */
      bputs(&b, "(int64_t)0");
      for (int d = 0; d < D; d++) {
        char *prev = sf(E, "%s", b.s);
        b.len = 0;
        if (c == 'P') bprintf(&b, "(%s) * (c%d * b%d) + %c%d", prev, d, d, c, d);
        else bprintf(&b, "(%s) * %c%d + %c%d", prev, c == 'T' ? 'b' : 'c', d, c, d);
      }
    }
    char *r = sf(E, "((int32_t)(%s))", b.s);
    free(b.s);
    return r;
  }
  Buf b = {0};
  bprintf(&b, "%s{", lit_open(E, ctype(E, sp->t)));
  for (int d = 0; d < sp->t.len; d++) {
    const char *v = d < D ? sf(E, "(%s)%c%d", sp->t.elem == K_INT ? "int32_t" : "oq_real", c, d) : size ? "1" : "0";
    bprintf(&b, "%s%s", d ? ", " : "", v);
  }
  bputs(&b, "}}");
  char *r = sf(E, "%s", b.s);
  free(b.s);
  return r;
}

static char *identity(Em *E, KType t) {
  Op op = E->S->out_op;
  bool i = t.kind == K_INT;
  switch (op) {
  case OP_MAX: return i ? "INT32_MIN" : "(-(oq_real)INFINITY)";
  case OP_MIN: return i ? "INT32_MAX" : "((oq_real)INFINITY)";
  case OP_MUL: case OP_EMUL: return i ? "1" : "((oq_real)1)";
  default: return i ? "0" : "((oq_real)0)";
  }
}

static char *combine(Em *E, char *acc, char *v, KType t) {
  Op op = E->S->out_op;
  bool i = t.kind == K_INT;
  switch (op) {
  case OP_MAX: return sf(E, i ? "oq_lmax(%s, %s)" : "oq_rmax(%s, %s)", acc, v);
  case OP_MIN: return sf(E, i ? "oq_lmin(%s, %s)" : "oq_rmin(%s, %s)", acc, v);
  case OP_MUL: case OP_EMUL: return sf(E, "(%s * %s)", acc, v);
  default: return sf(E, "(%s + %s)", acc, v);
  }
}

/* Declarations at the start of one thread: special parameters, and in non-phase code the
   thread's locals. */
static void thread_prelude(Em *E, bool locals) {
  FSpec *k = E->S->kspec;
  Func *f = k->func;
  FuncInfo *fi = func_info(f);
  for (int i = 0; i < f->nparams; i++) {
    const KSpecial *sp = special_of(E->S, i);
    int s = f->ngenerics + i;
    if (!sp) continue;
    if (E->lin && s == E->lin_slot) continue;   /* every use reads element _r */
    if (E->sc[s] == SC_SPECIAL) line(E, "const %s %s = %s;", ctype(E, sp->t), slot_name(E, k, s), special_value(E, sp));
    else if (!E->phases || locals) line(E, "%s = %s;", slot_ref(E, s), special_value(E, sp));
  }
  if (!locals) return;
  int obase = f->ngenerics + f->nparams;
  for (int s = f->ngenerics; s < fi->nslots; s++) {
    if (E->sc[s] != SC_LOCAL) continue;
    int pi = s - f->ngenerics;
    bool is_param = pi < f->nparams, is_out = s >= obase && s < obase + f->nouts;
    if (is_param && special_of(E->S, pi)) continue;
    if (E->phases) {
      if (is_param) line(E, "%s = p%d;", slot_ref(E, s), pi);
      else if (is_out) line(E, "%s = %s;", slot_ref(E, s), identity(E, k->slots[s]));
      continue;
    }
    const char *ct = ctype(E, k->slots[s]);
    if (is_param) line(E, "%s %s = p%d;", ct, slot_name(E, k, s), pi);
    else if (is_out) line(E, "%s %s = %s;", ct, slot_name(E, k, s), identity(E, k->slots[s]));
    else line(E, "%s %s = {0};", ct, slot_name(E, k, s));
  }
}

static void thread_outputs(Em *E) {
  Func *f = E->S->kfunc;
  int obase = f->ngenerics + f->nparams;
  for (int o = 0; o < f->nouts; o++)
    line(E, "acc%d = %s;", o, combine(E, sf(E, "acc%d", o), slot_ref(E, obase + o), E->S->kspec->slots[obase + o]));
}

/* ---- block-stride loops ----
   `for i = ind..cnt..e` with ind = pos2ind(blkdim, blkpos) and cnt = prod(blkdim) (each
   assigned once): over the threads of a block, i takes each value 0..e once. When nothing in
   the loop depends on its thread (it reads only i, arguments, captures, the block's shared
   arrays and constants; no break, continue or return), the phase is one loop over i per block
   instead of a loop per thread: the threads of a phase run in any order. */

static bool is_special_named(Em *E, Node *n, const char *name) {
  Func *f = E->S->kfunc;
  if (n->kind != N_IDENT || n->depth != 0 || n->slot < f->ngenerics) return false;
  const KSpecial *sp = special_of(E->S, n->slot - f->ngenerics);
  return sp && !strcmp(sp->name, name);
}

static int count_assign(Node *n, int slot) {
  if (!n) return 0;
  int c = 0;
  if (n->kind == N_ASSIGN)
    for (int i = 0; i < n->list.n; i++) {
      Node *t = n->list.items[i];
      while (t->kind == N_INDEX) t = t->a;
      c += t->kind == N_IDENT && t->slot == slot && t->depth == 0;
    }
  if (n->kind == N_FOR && n->slot == slot) c++;
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return c;
  c += count_assign(n->a, slot) + count_assign(n->b, slot) + count_assign(n->c, slot);
  for (int i = 0; i < n->list.n; i++) c += count_assign(n->list.items[i], slot);
  for (int i = 0; i < n->list2.n; i++) c += count_assign(n->list2.items[i], slot);
  for (int i = 0; i < n->ncases; i++)
    for (int j = 0; j < n->cases[i].body.n; j++) c += count_assign(n->cases[i].body.items[j], slot);
  return c;
}

/* The one value a local is given (a top-level `x = v` and no other assignment), or NULL. */
static Node *single_value(Em *E, Node *id) {
  Func *f = E->S->kfunc;
  if (id->kind != N_IDENT || id->depth != 0 || id->slot < 0) return NULL;
  int total = 0;
  Node *v = NULL;
  for (int i = 0; i < f->body.n; i++) {
    Node *n = f->body.items[i];
    total += count_assign(n, id->slot);
    if (n->kind == N_ASSIGN && n->op == OP_NONE && n->list.n == 1 && n->list.items[0]->kind == N_IDENT &&
        n->list.items[0]->slot == id->slot)
      v = n->b;
  }
  return total == 1 ? v : NULL;
}

static bool builtin_call(Em *E, Node *n, int id, int nargs) {
  NodeInfo *ni = n && n->kind == N_CALL ? ksema_info(E->f, n) : NULL;
  return ni && ni->builtin == id && n->list.n == nargs;
}

static bool thread_free(Em *E, Node *n, int islot) {
  if (!n) return true;
  switch (n->kind) {
  case N_BREAK: case N_CONTINUE: case N_RETURN: case N_LAMBDA: case N_FUNCDEF: return false;
  case N_IDENT: {
    NodeInfo *ni = ksema_info(E->f, n);
    if (ni && ni->cap >= 0) return true;
    if (n->slot < 0) return true;   /* a built-in's name */
    if (n->depth != 0) return false;
    int s = n->slot;
    return s == islot || E->sc[s] == SC_PARAM || E->pphase[s] == 2 || (E->konst && E->konst[s] && !E->tconst[s]);
  }
  case N_CALL: {
    NodeInfo *ni = ksema_info(E->f, n);
    if (!ni || ni->callee || ni->builtin == KB_SYNC || ni->builtin == KB_SHARED) return false;
    break;
  }
  default: break;
  }
  if (!thread_free(E, n->a, islot) || !thread_free(E, n->b, islot) || !thread_free(E, n->c, islot)) return false;
  for (int i = 0; i < n->list.n; i++) if (!thread_free(E, n->list.items[i], islot)) return false;
  for (int i = 0; i < n->list2.n; i++) if (!thread_free(E, n->list2.items[i], islot)) return false;
  for (int i = 0; i < n->ncases; i++)
    for (int j = 0; j < n->cases[i].body.n; j++) if (!thread_free(E, n->cases[i].body.items[j], islot)) return false;
  return true;
}

static bool block_stride_loop(Em *E, Node *n) {
  if (n->kind != N_FOR || !n->a || n->a->kind != N_RANGE || !n->a->b || T(E, n->a).kind != K_INT) return false;
  Node *r = n->a, *ind = single_value(E, r->a), *cnt = single_value(E, r->b);
  if (!ind || !cnt || !builtin_call(E, ind, KB_POS2IND, 2) || !builtin_call(E, cnt, KB_PROD, 1)) return false;
  if (!is_special_named(E, ind->list.items[0], "blkdim") || !is_special_named(E, ind->list.items[1], "blkpos") ||
      !is_special_named(E, cnt->list.items[0], "blkdim"))
    return false;
  /* i is a plain local of its phases (each assigns it before reading it), and this phase
     is the loop alone: nobody reads what the threads' loops would leave in it */
  if (E->sc[n->slot] != SC_LOCAL || E->pphase[n->slot] != 1 || count_assign(n, n->slot) != 1) return false;
  for (int i = 0; i < n->list.n; i++)
    if (!thread_free(E, n->list.items[i], n->slot)) return false;
  return thread_free(E, r->c, n->slot);
}

/* A local holding the thread's linear index in its block (pos2ind(blkdim, blkpos)) or the
   block's thread count (prod(blkdim)), assigned once, is _t or _nthr of the phase loops, not
   a per-thread array: phases mode numbers the threads in the same row-major order. */
static void find_thread_consts(Em *E) {
  Func *f = E->S->kfunc;
  int n = func_info(f)->nslots, first = f->ngenerics + f->nparams + f->nouts;
  E->tconst = calloc(n + 1, 1);
  for (int i = 0; i < E->S->nspecial; i++) {
    KType t = E->S->special[i].t;
    if ((!strcmp(E->S->special[i].name, "blkpos") || !strcmp(E->S->special[i].name, "blkdim")) &&
        !(t.kind == K_VEC ? t.len == E->S->D : E->S->D == 1))
      return;
  }
  for (int s = first; s < n; s++) {
    Node id = {.kind = N_IDENT, .slot = s};
    Node *v = E->konst[s] || E->f->slots[s].kind != K_INT ? NULL : single_value(E, &id);
    if (!v) continue;
    if (builtin_call(E, v, KB_POS2IND, 2) && is_special_named(E, v->list.items[0], "blkdim") &&
        is_special_named(E, v->list.items[1], "blkpos"))
      E->konst[s] = "((int32_t)_t)";
    else if (builtin_call(E, v, KB_PROD, 1) && is_special_named(E, v->list.items[0], "blkdim"))
      E->konst[s] = "((int32_t)_nthr)";
    E->tconst[s] = E->konst[s] != NULL;
  }
}

static void block_stride_phase(Em *E, Node *n) {
  FSpec *k = E->S->kspec;
  loc_comment(E, n);
  line(E, "{   /* block-stride loop: all threads' iterations as one loop */");
  E->ind++;
  line(E, "const int64_t _bs = %s;", conv(E, ex(E, n->a->c), T(E, n->a->c), K_INT));
  line(E, "%s %s = 0;", ctype(E, k->slots[n->slot]), slot_name(E, k, n->slot));
  line(E, "for (int64_t _bi = 0; _bi <= _bs; _bi++) {");
  E->ind++;
  line(E, "%s = %s;", slot_name(E, k, n->slot), conv(E, "(int32_t)_bi", kt(K_INT), k->slots[n->slot].kind));
  block(E, &n->list);
  E->ind--;
  line(E, "}");
  E->ind--;
  line(E, "}");
}

/* A phase: the statements run for every thread of the block in turn. */
static void phase(Em *E, NodeList *l, int from, int to) {
  if (to - from == 1 && !E->cuda && block_stride_loop(E, l->items[from])) {
    block_stride_phase(E, l->items[from]);
    return;
  }
  line(E, "for (int64_t _t = 0; _t < _nthr; _t++) {");
  E->ind++;
  int D = E->S->D;
  for (int d = 0; d < D; d++) line(E, "const int64_t T%d = _tc[_t * %d + %d], P%d = B%d * b%d + T%d;", d, D, d, d, d, d, d);
  thread_prelude(E, false);
  FSpec *k = E->S->kspec;
  for (int s = 0; s < func_info(k->func)->nslots; s++)
    if (E->sc[s] == SC_LOCAL && E->pphase[s] == 1) {
      bool used = false;
      for (int i = from; i < to && !used; i++) used = mentions(l->items[i], s);
      if (used) line(E, "%s %s = {0};", ctype(E, k->slots[s]), slot_name(E, k, s));
    }
  for (int i = from; i < to; i++) st(E, l->items[i]);
  E->ind--;
  line(E, "}");
}

/* Evaluates a condition (or range bounds) for every thread, requiring they all agree. */
static void uniform_eval(Em *E, Node *at, int nvals, Node **vals, bool cond, char **out) {
  KSpec *S = E->S;
  int site = div_site(E, at, KE_BARRIER);
  for (int i = 0; i < nvals; i++) {
    out[i] = tmp(E);
    line(E, "%s %s = 0;", cond ? "int32_t" : "int64_t", out[i]);
  }
  line(E, "for (int64_t _t = 0; _t < _nthr; _t++) {");
  E->ind++;
  int D = S->D;
  for (int d = 0; d < D; d++) line(E, "const int64_t T%d = _tc[_t * %d + %d], P%d = B%d * b%d + T%d;", d, D, d, d, d, d, d);
  thread_prelude(E, false);
  for (int i = 0; i < nvals; i++) {
    KType t = T(E, vals[i]);
    char *v = ex(E, vals[i]);
    char *c = cond ? truthy(E, v, t) : sf(E, "(int64_t)%s", conv(E, v, t, K_INT));
    char *x = tmp(E);
    line(E, "%s %s = %s;", cond ? "int32_t" : "int64_t", x, c);
    line(E, "if (_t == 0) %s = %s;", out[i], x);
    line(E, "else if (%s != %s) { oq_fail(L, %d); goto _done; }", x, out[i], site);
  }
  E->ind--;
  line(E, "}");
}

static void block_level(Em *E, NodeList *l);

static void block_stmt(Em *E, Node *n) {
  loc_comment(E, n);
  char *u[3];
  switch (n->kind) {
  case N_IF: {
    Node *c = n->a;
    uniform_eval(E, n, 1, &c, true, u);
    line(E, "if (%s) {", u[0]);
    E->ind++;
    block_level(E, &n->list);
    E->ind--;
    line(E, "} else {");
    E->ind++;
    block_level(E, &n->list2);
    E->ind--;
    line(E, "}");
    return;
  }
  case N_WHILE: case N_REPEAT: {
    Node *c = n->a;
    line(E, "for (;;) {");
    E->ind++;
    if (n->kind == N_WHILE) {
      uniform_eval(E, n, 1, &c, true, u);
      line(E, "if (!%s) break;", u[0]);
      block_level(E, &n->list);
    } else {
      block_level(E, &n->list);
      uniform_eval(E, n, 1, &c, true, u);
      line(E, "if (%s) break;", u[0]);
    }
    E->ind--;
    line(E, "}");
    return;
  }
  case N_FOR: {
    Node *r = n->a;
    KType lv = E->f->slots[n->slot];
    if (r->kind != N_RANGE || T(E, r).kind != K_INT) efail(E, n->loc, "a barrier in a loop that is not over an int range");
    Node *vals[3] = {r->a, r->b ? r->b : NULL, r->c};
    line(E, "{");
    E->ind++;
    if (r->b) uniform_eval(E, n, 3, vals, false, u);
    else {
      Node *v2[2] = {r->a, r->c};
      char *u2[2];
      uniform_eval(E, n, 2, v2, false, u2);
      u[0] = u2[0];
      u[1] = "1";
      u[2] = u2[1];
    }
    line(E, "const int64_t _sp%d = %s - %s;", n->loc.line, u[2], u[0]);
    line(E, "if (%s == 0) { oq_fail(L, %d); goto _done; }", u[1], div_site(E, r, KE_RANGE));
    line(E, "const int64_t _n%d = (%s > 0 ? _sp%d >= 0 : _sp%d <= 0) ? _sp%d / %s + 1 : 0;", n->loc.line, u[1],
         n->loc.line, n->loc.line, n->loc.line, u[1]);
    line(E, "for (int64_t _k%d = 0; _k%d < _n%d; _k%d++) {", n->loc.line, n->loc.line, n->loc.line, n->loc.line);
    E->ind++;
    line(E, "for (int64_t _t = 0; _t < _nthr; _t++) %s = %s;", slot_ref(E, n->slot),
         conv(E, sf(E, "(int32_t)(%s + _k%d * %s)", u[0], n->loc.line, u[1]), kt(K_INT), lv.kind));
    block_level(E, &n->list);
    E->ind--;
    line(E, "}");
    E->ind--;
    line(E, "}");
    return;
  }
  case N_BLOCK: block_level(E, &n->list); return;
  default: efail(E, n->loc, "internal: barrier in %s", node_kind_name(n->kind));
  }
}

/* Statements at block level: runs of barrier-free statements become phases. */
static void block_level(Em *E, NodeList *l) {
  int i = 0;
  while (i < l->n) {
    Node *n = l->items[i];
    NodeInfo *ni = ksema_info(E->f, n);
    if (ni && ni->barrier) {
      if (!is_barrier_stmt(n)) block_stmt(E, n);
      i++;
      continue;
    }
    int j = i;
    while (j < l->n) {
      NodeInfo *nj = ksema_info(E->f, l->items[j]);
      if (nj && nj->barrier) break;
      j++;
    }
    phase(E, l, i, j);
    i = j;
  }
}

static const char *mode_name(KSpec *S) { return S->barrier ? "phases" : S->uses_block ? "blocks" : "flat"; }

/* Loads of the parameters and captured variables at the entry. */
static char *arg_load(Em *E, KType t, const char *a) {
  switch (t.kind) {
  case K_BOOL: case K_INT: return sf(E, "(int32_t)%s.i", a);
  case K_REAL: return sf(E, "(oq_real)%s.re", a);
  case K_CPLX: return sf(E, "oq_mkc(%s.re, %s.im)", a, a);
  case K_ARRAY: {
    Buf b = {0};
    bprintf(&b, "%s(%s *)%s.data, {", lit_open(E, ctype(E, t)), el_ctype(t.el), a);
    for (int d = 0; d < t.rank; d++) bprintf(&b, "%s%s.dims[%d]", d ? ", " : "", a, d);
    bputs(&b, "}}");
    char *r = sf(E, "%s", b.s);
    free(b.s);
    return r;
  }
  case K_VEC: {
    Buf b = {0};
    bprintf(&b, "%s{", lit_open(E, ctype(E, t)));
    for (int k = 0; k < t.len; k++) bprintf(&b, "%s(%s)%s.v[%d]", k ? ", " : "", t.elem == K_INT ? "int32_t" : "oq_real", a, k);
    bputs(&b, "}}");
    char *r = sf(E, "%s", b.s);
    free(b.s);
    return r;
  }
  default: return NULL;
  }
}

/* An array parameter in constant memory: the launcher copied it to offset a.i of oq_cmem. */
static char *cuda_cmem_load(Em *E, KType t, const char *a) {
  Buf b = {0};
  bprintf(&b, "%s(%s *)(oq_cmem + %s.i), {", lit_open(E, ctype(E, t)), el_ctype(t.el), a);
  for (int d = 0; d < t.rank; d++) bprintf(&b, "%s%s.dims[%d]", d ? ", " : "", a, d);
  bputs(&b, "}}");
  char *r = sf(E, "%s", b.s);
  free(b.s);
  return r;
}

static KType k_params_type(KSpec *S, int a) { return S->kspec->params[a]; }

/* ---- linear loop with positions ----
   When every x[pos + c] access of the body (see fast_access) has c zero and x has the
   launch's dimensions, it reads element _r of the flat loop, as x[pos] does in the linear
   loop, but pos may have other uses: it is carried along. *t gets the run-time conditions,
   *ok becomes false when some such access has a non-zero literal offset. */
static int lin_pos_tests(Em *E, Node *n, Buf *t, bool *ok) {
  if (!n) return 0;
  int found = 0;
  PosOff o;
  char *name;
  if (fast_access(E, n, &o, &name)) {
    found = 1;
    for (int d = 0; d < E->S->D; d++) {
      if (o.c[d]) *ok = false;
      bprintf(t, " && %s.d[%d] == n%d", name, d, d);
      if (o.inv[d]) bprintf(t, " && %s == 0", o.inv[d]);
    }
  }
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return found;
  found += lin_pos_tests(E, n->a, t, ok);
  found += lin_pos_tests(E, n->b, t, ok);
  found += lin_pos_tests(E, n->c, t, ok);
  for (int i = 0; i < n->list.n; i++) found += lin_pos_tests(E, n->list.items[i], t, ok);
  for (int i = 0; i < n->list2.n; i++) found += lin_pos_tests(E, n->list2.items[i], t, ok);
  for (int i = 0; i < n->ncases; i++)
    for (int j = 0; j < n->cases[i].body.n; j++) found += lin_pos_tests(E, n->cases[i].body.items[j], t, ok);
  return found;
}

/* Whether the linear loop with positions needs pos: a read of pos or of a local set from it
   other than in an element _r access or in such a local's definition. */
static bool pos_needed(Em *E, Node *n, int pslot) {
  if (!n) return false;
  PosOff o;
  if (fast_access(E, n, &o, NULL)) return false;
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return true;
  if (n->kind == N_ASSIGN && n->list.n == 1 && n->list.items[0]->kind == N_IDENT && n->list.items[0]->slot >= 0 &&
      n->b && E->posdef[n->list.items[0]->slot] == n->b)
    return false;
  if (n->kind == N_IDENT && n->depth == 0 && n->slot >= 0 && (n->slot == pslot || E->posdef[n->slot])) return true;
  if (pos_needed(E, n->a, pslot) || pos_needed(E, n->b, pslot) || pos_needed(E, n->c, pslot)) return true;
  for (int i = 0; i < n->list.n; i++)
    if (pos_needed(E, n->list.items[i], pslot)) return true;
  for (int i = 0; i < n->list2.n; i++)
    if (pos_needed(E, n->list2.items[i], pslot)) return true;
  for (int i = 0; i < n->ncases; i++)
    for (int j = 0; j < n->cases[i].body.n; j++)
      if (pos_needed(E, n->cases[i].body.items[j], pslot)) return true;
  return false;
}

/* Positions lo..hi-1 one by one in row-major order, pos carried digit by digit
   where it is needed. */
static void linear_pos_loop(Em *E) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  int D = S->D;
  Buf t = {0};
  bool ok = true;
  int found = 0;
  for (int i = 0; i < f->body.n; i++) found += lin_pos_tests(E, f->body.items[i], &t, &ok);
  if (found && ok) {
    line(E, "if (1%s) {", t.s);
    E->ind++;
    bool need = false;
    for (int i = 0; i < S->nspecial; i++)
      if (!strcmp(S->special[i].name, "pos"))
        for (int j = 0; j < f->body.n; j++) need |= pos_needed(E, f->body.items[j], f->ngenerics + S->special[i].param);
    if (need) {
      line(E, "int64_t _q = lo, _x[%d];", D);
      for (int d = D - 1; d >= 0; d--) line(E, "_x[%d] = _q %% n%d; _q /= n%d;", d, d, d);
    }
    line(E, "for (int64_t _r = lo; _r < hi; _r++) {");
    E->ind++;
    for (int d = 0; d < D; d++)
      if (need) line(E, "const int64_t P%d = _x[%d];", d, d);
      else line(E, "const int64_t P%d = 0;   /* read by dead code only */", d);
    E->lin_pos = true;
    bool ret = E->has_return;
    E->has_return = false;
    E->ret_label = "_nextp";
    thread_prelude(E, true);
    block(E, &f->body);
    if (E->has_return) line(E, "_nextp: ;");
    thread_outputs(E);
    E->lin_pos = false;
    E->has_return = ret;
    if (need) {
      for (int d = D - 1; d > 0; d--) line(E, "if (++_x[%d] < n%d) continue; _x[%d] = 0;", d, d, d);
      line(E, "++_x[0];");
    }
    E->ind--;
    line(E, "}");
    line(E, "goto _done;");
    E->ind--;
    line(E, "}");
  }
  free(t.s);
}

/* Positions lo..hi-1 of a flat kernel, counted in row-major order over the dimensions with
   dimension `in` moved innermost: decoded once, then carried row by row. */
static void flat_loop(Em *E, int in) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  int D = S->D, ord[OQ_MAX_RANK], k = 0;
  for (int d = 0; d < D; d++)
    if (d != in) ord[k++] = d;
  ord[k] = in;
  line(E, "{");
  E->ind++;
  line(E, "int64_t _q = lo, _x[%d];", D);
  for (int i = D - 1; i >= 0; i--) line(E, "_x[%d] = _q %% n%d; _q /= n%d;", ord[i], ord[i], ord[i]);
  line(E, "for (int64_t _r = lo; _r < hi;) {");
  E->ind++;
  line(E, "if (__atomic_load_n(&L->err, __ATOMIC_RELAXED)) goto _done;");
  line(E, "int64_t _len = n%d - _x[%d];", in, in);
  line(E, "if (_len > hi - _r) _len = hi - _r;");
  for (int d = 0; d < D; d++)
    if (d != in) line(E, "const int64_t P%d = _x[%d];", d, d);
  line(E, "const int64_t _s0 = _x[%d], _e0 = _s0 + _len;", in);
  Buf tests = {0}, narrow = {0};
  for (int i = 0; i < f->body.n; i++) row_tests(E, f->body.items[i], in, &tests, &narrow);
  bool split = narrow.len > 0;
  if (split) {
    /* the interior [_fa, _fb) runs without the tests; the two ends with them */
    line(E, "int64_t _fa = _s0, _fb = _e0;");
    line(E, "if (1%s) {", tests.len ? tests.s : "");
    E->ind++;
    for (char *p = narrow.s; *p;) {
      char *nl = strchr(p, '\n');
      *nl = 0;
      line(E, "%s", p);
      p = nl + 1;
    }
    line(E, "if (_fb < _fa) _fb = _fa;");
    E->ind--;
    line(E, "} else {");
    line(E, "  _fa = _fb = _e0;");
    line(E, "}");
  }
  for (int copy = split ? 0 : 1; copy < 2; copy++) {
    E->row_fast = copy == 0;
    if (copy == 0) line(E, "for (int64_t P%d = _fa; P%d < _fb; P%d++) {", in, in, in);
    else if (split) line(E, "for (int64_t P%d = _s0; P%d < _e0; P%d = P%d + 1 == _fa ? _fb : P%d + 1) {", in, in, in, in, in);
    else line(E, "for (int64_t P%d = _s0; P%d < _e0; P%d++) {", in, in, in);
    E->ind++;
    if (copy == 1 && split) line(E, "if (P%d == _fa && _fa < _fb) { P%d = _fb; if (P%d >= _e0) break; }", in, in, in);
    E->has_return = false;
    E->ret_label = sf(E, "_next%d_%d", in, copy);
    thread_prelude(E, true);
    block(E, &f->body);
    if (E->has_return) line(E, "%s: ;", E->ret_label);
    thread_outputs(E);
    E->ind--;
    line(E, "}");
  }
  E->row_fast = false;
  free(tests.s);
  free(narrow.s);
  line(E, "_r += _len;");
  line(E, "_x[%d] = 0;", in);
  for (int i = D - 2; i >= 0; i--) line(E, "if (++_x[%d] < n%d) continue; _x[%d] = 0;", ord[i], ord[i], ord[i]);
  E->ind--;
  line(E, "}");
  E->ind--;
  line(E, "}");
}

/* ---- CUDA transforms of flat kernels ----
   A flat kernel's threads are independent, so the GPU may run its positions in any grouping:
   with kernel outputs or private arrays it runs a grid-stride loop (tiling: a few blocks per
   SM, many positions per thread), so that each block combines its outputs once (block-reduce)
   and merges its shared-memory copies of the private arrays once (privatize). */

static void xform_note(KSpec *S, const char *fmt, const char *name) {
  size_t n = strlen(S->xforms);
  if (n + 2 < sizeof S->xforms) snprintf(S->xforms + n, sizeof S->xforms - n, n ? ", " : "");
  n = strlen(S->xforms);
  if (n + 1 < sizeof S->xforms) snprintf(S->xforms + n, sizeof S->xforms - n, fmt, name);
}

static const char *priv_name(KSpec *S, int k) {
  int a = S->priv_arg[k];
  Func *f = S->kfunc;
  if (a < f->nparams) return f->params[a].name;
  FSpec *ks = S->kspec;   /* a capture: the name of an identifier that reads it */
  for (int i = 0; i < ks->info.cap; i++)
    if (ks->info.items[i].node && ks->info.items[i].cap == a - f->nparams && ks->info.items[i].node->kind == N_IDENT)
      return ks->info.items[i].node->name;
  return "capture";
}

/* The element size of the shared copy of private array k (0: none): counters for identical
   additions, else the array's own int32/float/double. */
static int priv_shared_esz(KSpec *S, int k) {
  int a = S->priv_arg[k];
  KType t = a < S->kfunc->nparams ? S->kspec->params[a] : S->caps[a - S->kfunc->nparams].type;
  if (S->priv_count[k]) return t.el == EL_F32 || t.el == EL_F64 ? 4 : 0;
  return t.el == EL_I32 || t.el == EL_F32 ? 4 : t.el == EL_F64 ? 8 : 0;
}

static void cuda_transforms(Em *E) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  S->tiled = !S->uses_block && !S->barrier && (f->nouts > 0 || S->npriv > 0);
  S->block_reduce = f->nouts > 0 && S->nshared == 0;   /* its scratch is static shared memory */
  S->xforms[0] = 0;
  if (!S->tiled) {
    E->lin_slot = -1;   /* one GPU thread per position: no loop to linearize */
    S->npriv = 0;       /* private copies need the block's merge after all its positions */
  }
  for (int k = 0; k < S->npriv; k++) {
    S->priv_esz[k] = priv_shared_esz(S, k);
    if (S->priv_esz[k]) xform_note(S, "privatize(%s)", priv_name(S, k));
  }
  for (int o = 0; o < f->nouts && S->block_reduce; o++) xform_note(S, "block-reduce(%s)", f->outs[o].name);
  if (S->tiled) xform_note(S, "%s", "tiling");
}

/* What both dialects learn about the kernel body before emitting it: storage classes,
   constants, barrier phases, private arrays, the linear loop. */
static void kernel_analysis(Em *E, Buf *body) {
  KSpec *S = E->S;
  FSpec *k = S->kspec;
  Func *f = k->func;
  FuncInfo *fi = func_info(f);
  E->f = k;
  E->b = body;
  E->ind = 1;
  E->phases = S->barrier && !E->cuda;   /* CUDA threads keep their own locals */
  E->L = "L";
  /* storage classes */
  unsigned char *assigned = calloc(fi->nslots + 1, 1);
  mark_list(k, &f->body, assigned);
  E->sc = calloc(fi->nslots + 1, 1);
  int obase = f->ngenerics + f->nparams;
  for (int s = f->ngenerics; s < fi->nslots; s++) {
    if (!has_repr(k->slots[s])) continue;
    int pi = s - f->ngenerics;
    if (pi < f->nparams && !assigned[s]) E->sc[s] = special_of(S, pi) ? SC_SPECIAL : SC_PARAM;
    else E->sc[s] = SC_LOCAL;
    (void)obase;
  }
  free(assigned);
  find_konst(E, k);
  if (E->phases) find_thread_consts(E);
  for (int s = f->ngenerics + f->nparams + f->nouts; s < fi->nslots; s++)
    if (E->konst[s]) E->sc[s] = SC_NONE;
  if (E->phases) find_phase_locals(E);

  find_private(E);
  find_linear(E);
  find_pos_locals(E);
  if (E->cuda) cuda_transforms(E);
}

static void cuda_count_offsets(Em *E);

/* CUDA: private array k (argument a) in the block's dynamic shared memory when the launcher
   set its bit of P.xf: 2^_lgR replicas of every element, after the copies before it. */
static void cuda_priv_load(Em *E, int k, int a, KType t) {
  KSpec *S = E->S;
  int esz = S->priv_esz[k];
  if (k == 0) {
    line(E, "const unsigned _lgR = (P.xf >> 8) & 7, _ln = threadIdx.x & ((1u << _lgR) - 1);");
    line(E, "size_t _po = 0;");
  }
  const char *ct = !esz ? el_ctype(t.el) : S->priv_count[k] ? "unsigned" : el_ctype(t.el);
  line(E, "const int pv%d = %s;", k, esz ? sf(E, "(int)(P.xf >> %d) & 1", k) : "0");
  Buf n = {0};
  bputs(&n, "(int64_t)1");
  for (int d = 0; d < t.rank; d++) bprintf(&n, " * P.a[%d].dims[%d]", a, d);
  line(E, "const int64_t pvn%d = %s; (void)pvn%d;", k, n.s, k);
  free(n.s);
  line(E, "%s *const pvp%d = (%s *)((char *)oq_shbuf + _po); (void)pvp%d;", ct, k, ct, k);
  if (esz) line(E, "if (pv%d) _po += ((size_t)(pvn%d << _lgR) * %d + 15) & ~(size_t)15;", k, k, esz);
}

/* The entry's loads: launch sizes, parameters, captures, the Cx of device functions,
   private copies, output accumulators and shared arrays. */
static void kernel_loads(Em *E) {
  KSpec *S = E->S;
  FSpec *k = S->kspec;
  Func *f = k->func;
  int D = S->D;
  int obase = f->ngenerics + f->nparams;
  /* CUDA reads the launch by value (OqkGrid P, see emit_cuda_kernel); C through L */
  const char *lp = E->cuda ? "P." : "L->", *la = E->cuda ? "P.a" : "L->args";
  for (int d = 0; d < D; d++)
    line(E, "const int64_t n%d = %sdims[%d], b%d = %sblk[%d], c%d = %scnt[%d]; (void)n%d; (void)b%d; (void)c%d;",
         d, lp, d, d, lp, d, d, lp, d, d, d, d);
  /* parameters and captures */
  for (int i = 0; i < f->nparams; i++) {
    if (special_of(S, i) || !has_repr(k->params[i])) continue;
    char *a = sf(E, "%s[%d]", la, i);
    int s = f->ngenerics + i;
    const char *name = E->sc[s] == SC_PARAM ? slot_name(E, k, s) : sf(E, "p%d", i);
    char *v = arg_load(E, k->params[i], a);
    if (E->cuda && i < 32 && (S->cmem_params >> i & 1)) v = cuda_cmem_load(E, k->params[i], a);
    line(E, "const %s %s = %s;", ctype(E, k->params[i]), name, v);
    if (E->sc[s] == SC_PARAM) line(E, "(void)%s;", name);
  }
  Buf cxinit = {0};
  for (int c = 0; c < S->ncaps; c++) {
    Capture *cp = &S->caps[c];
    if (!has_repr(cp->type)) continue;
    char *a = sf(E, "%s[%d]", la, f->nparams + c);
    line(E, "const %s cap%d = %s; (void)cap%d;", ctype(E, cp->type), c, arg_load(E, cp->type, a), c);
    bprintf(&cxinit, ", cap%d", c);
  }
  for (int k = 0; k < S->npriv; k++) {
    int a = S->priv_arg[k];
    KType t = a < f->nparams ? k_params_type(S, a) : S->caps[a - f->nparams].type;
    if (E->cuda) {
      cuda_priv_load(E, k, a, t);
      continue;
    }
    line(E, "const int pv%d = (L->priv_mask >> %d) & 1;", k, k);
    line(E, "%s *const pvp%d = (%s *)W->scr[%d]; (void)pvp%d;", el_ctype(t.el), k, el_ctype(t.el), OQK_PRIV_BASE + k, k);
  }
  if (E->cuda && S->npriv) {   /* the block's copies start at zero */
    line(E, "for (size_t _i = threadIdx.x; _i < _po / 4; _i += blockDim.x) ((unsigned *)oq_shbuf)[_i] = 0;");
    line(E, "__syncthreads();");
    cuda_count_offsets(E);
  }
  line(E, "Cx cx_ = {L%s};", cxinit.s ? cxinit.s : "");
  line(E, "Cx *cx = &cx_; (void)cx;");
  free(cxinit.s);
  for (int o = 0; o < f->nouts; o++) {
    KType t = k->slots[obase + o];
    if (E->cuda) line(E, "%s acc%d = %s;", t.kind == K_INT ? "int64_t" : "double", o, identity(E, t));
    else if (t.kind == K_INT) line(E, "int64_t acc%d = W->out_i[%d];", o, o);
    else line(E, "double acc%d = W->out_r[%d];   /* per worker, in double as on the GPU */", o, o);
  }
  /* shared arrays: one per shared() call site, reset at every block */
  Buf shdecl = {0};
  for (int s = 0; s < S->nshared; s++) {
    /* the rank comes from the node's type: find it */
    for (int i = 0; i < k->info.cap; i++) {
      NodeInfo *ni = &k->info.items[i];
      if (ni->node && ni->builtin == KB_SHARED && ni->site == s) {
        line(E, "%s sh%d = {0}; int sh%d_init = 0;", ctype(E, ni->t), s, s);
        break;
      }
    }
  }
  free(shdecl.s);
}

static void kernel_end(Em *E) {
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

/* The names of what the C dialect does beyond one thread after another: per-worker private
   copies (the launcher makes them for small arrays), per-worker output accumulators, the
   linear loop, phases. */
static void cpu_transforms(Em *E) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  S->xforms[0] = 0;
  for (int k = 0; k < S->npriv; k++) xform_note(S, "privatize(%s)", priv_name(S, k));
  for (int o = 0; o < f->nouts; o++) xform_note(S, "worker-reduce(%s)", f->outs[o].name);
  if (E->lin_slot >= 0) xform_note(S, "%s", "linear");
  if (S->barrier) xform_note(S, "%s", "phases");
}

static void emit_kernel(Em *E, Buf *out) {
  KSpec *S = E->S;
  FSpec *k = S->kspec;
  Func *f = k->func;
  FuncInfo *fi = func_info(f);
  int D = S->D;
  int obase = f->ngenerics + f->nparams;
  Buf body = {0};
  kernel_analysis(E, &body);
  cpu_transforms(E);
  bprintf(&body, "/* kernel %s: %s mode */\n", S->name, mode_name(S));
  if (S->xforms[0]) bprintf(&body, "/* transforms: %s */\n", S->xforms);
  bputs(&body, "void oqk_entry(OqkLaunch *L, OqkWorker *W, int64_t lo, int64_t hi) {\n");
  line(E, "(void)W;");
  kernel_loads(E);
  if (!S->uses_block) {
    /* flat: positions lo..hi-1 in row-major order over the data, decoded once per chunk;
       the innermost dimension is the loop the C compiler may vectorize */
    if (E->lin_slot >= 0) {
      line(E, "if (1%s) {", E->lin_test.s);
      E->ind++;
      E->lin = true;
      bool ret = E->has_return;
      E->has_return = false;
      E->ret_label = "_nextl";
      line(E, "for (int64_t _r = lo; _r < hi; _r++) {");
      E->ind++;
      thread_prelude(E, true);
      block(E, &f->body);
      if (E->has_return) line(E, "_nextl: ;");
      thread_outputs(E);
      E->ind--;
      line(E, "}");
      E->lin = false;
      E->has_return = ret;
      line(E, "goto _done;");
      E->ind--;
      line(E, "}");
      free(E->lin_test.s);
    } else if (!E->cuda && !E->phases) {
      linear_pos_loop(E);
    }
    if (D >= 2) {
      /* images are [h, w, 3]: a short last dimension makes a poor inner loop; then the one
         before it is inner (flat kernels may run their threads in any order) */
      line(E, "if (n%d < 16 && n%d > n%d) {", D - 1, D - 2, D - 1);
      E->ind++;
      flat_loop(E, D - 2);
      E->ind--;
      line(E, "} else {");
      E->ind++;
      flat_loop(E, D - 1);
      E->ind--;
      line(E, "}");
    } else {
      flat_loop(E, 0);
    }
  } else if (!S->barrier) {
    /* blocks: each block's threads in row-major order; threads outside the data skip */
    line(E, "for (int64_t _b = lo; _b < hi; _b++) {");
    E->ind++;
    line(E, "if (__atomic_load_n(&L->err, __ATOMIC_RELAXED)) goto _done;");
    line(E, "int64_t _q = _b;");
    for (int d = D - 1; d >= 0; d--) line(E, "const int64_t B%d = _q %% c%d; _q /= c%d;", d, d, d);
    for (int s = 0; s < S->nshared; s++) line(E, "sh%d_init = 0;", s);
    for (int d = 0; d < D; d++) {
      line(E, "for (int64_t T%d = 0; T%d < b%d; T%d++) {", d, d, d, d);
      E->ind++;
      line(E, "const int64_t P%d = B%d * b%d + T%d;", d, d, d, d);
      line(E, "if (P%d >= n%d) break;", d, d);
    }
    E->ret_label = "_next";
    thread_prelude(E, true);
    block(E, &f->body);
    if (E->has_return) line(E, "_next: ;");
    thread_outputs(E);
    for (int d = 0; d < D; d++) {
      E->ind--;
      line(E, "}");
    }
    E->ind--;
    line(E, "}");
  } else {
    /* phases: every thread of the block runs, per-thread locals live in scratch memory */
    line(E, "int64_t _nthr = 1;");
    for (int d = 0; d < D; d++) line(E, "_nthr *= b%d;", d);
    line(E, "int64_t *_tc = oq_scratch(W, %d, (size_t)_nthr * %d * sizeof(int64_t));", OQK_SHARED_SLOTS, D);
    line(E, "if (!_tc) goto _done;");
    line(E, "{ int64_t _x[%d] = {0};", D);
    line(E, "  for (int64_t _t = 0; _t < _nthr; _t++) {");
    line(E, "    for (int _d = 0; _d < %d; _d++) _tc[_t * %d + _d] = _x[_d];", D, D);
    line(E, "    for (int _d = %d; _d >= 0; _d--) { if (++_x[_d] < L->blk[_d]) break; _x[_d] = 0; } } }", D - 1);
    line(E, "size_t _need = 0;");
    for (int s = f->ngenerics; s < fi->nslots; s++)
      if (E->sc[s] == SC_LOCAL && !E->pphase[s])
        line(E, "_need += ((size_t)_nthr * sizeof(%s) + 15) & ~(size_t)15;", ctype(E, k->slots[s]));
    line(E, "char *_sp = oq_scratch(W, %d, _need + 16);", OQK_SHARED_SLOTS + 1);
    line(E, "if (!_sp) goto _done;");
    for (int s = f->ngenerics; s < fi->nslots; s++)
      if (E->sc[s] == SC_LOCAL && !E->pphase[s]) {
        const char *ct = ctype(E, k->slots[s]);
        line(E, "%s *%s = (%s *)_sp; _sp += ((size_t)_nthr * sizeof(%s) + 15) & ~(size_t)15;", ct, slot_name(E, k, s), ct, ct);
      }
    line(E, "for (int64_t _b = lo; _b < hi; _b++) {");
    E->ind++;
    line(E, "if (__atomic_load_n(&L->err, __ATOMIC_RELAXED)) goto _done;");
    line(E, "int64_t _q = _b;");
    for (int d = D - 1; d >= 0; d--) line(E, "const int64_t B%d = _q %% c%d; _q /= c%d;", d, d, d);
    for (int s = 0; s < S->nshared; s++) line(E, "sh%d_init = 0;", s);
    for (int s = f->ngenerics; s < fi->nslots; s++)
      if (E->sc[s] == SC_LOCAL && E->pphase[s] == 2) line(E, "%s %s = {0};", ctype(E, k->slots[s]), slot_name(E, k, s));
    line(E, "for (int64_t _t = 0; _t < _nthr; _t++) {");
    E->ind++;
    for (int d = 0; d < D; d++) line(E, "const int64_t T%d = _tc[_t * %d + %d], P%d = B%d * b%d + T%d;", d, D, d, d, d, d, d);
    thread_prelude(E, true);
    E->ind--;
    line(E, "}");
    block_level(E, &f->body);
    line(E, "for (int64_t _t = 0; _t < _nthr; _t++) {");
    E->ind++;
    thread_outputs(E);
    E->ind--;
    line(E, "}");
    E->ind--;
    line(E, "}");
  }
  bputs(&body, "_done:\n");
  for (int o = 0; o < f->nouts; o++) {
    KType t = k->slots[obase + o];
    line(E, "W->out_%c[%d] = acc%d;", t.kind == K_INT ? 'i' : 'r', o, o);
  }
  line(E, "return;");
  bputs(&body, "}\n");
  bputs(out, body.s);
  free(body.s);
  kernel_end(E);
}

/* ---- the file ---- */

static const char *preamble_fmt =
  "/* generated by oq (OpenQuasar) from kernel %s */\n"
  "#include <stdint.h>\n#include <stddef.h>\n#include <string.h>\n#include <stdlib.h>\n"
  "#include <math.h>\n#include <complex.h>\n"
  "%s\n"
  "typedef %s oq_real;\ntypedef %s _Complex oq_cplx;\n"
  "typedef float _Complex oq_c64;\ntypedef double _Complex oq_c128;\n";

/* Helpers of both dialects: OQ_FN is `static inline` in C and adds __device__ in CUDA. */
static const char *helpers_common =
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
  "OQ_FN int64_t oq_mirror(int64_t i, int64_t n) {\n"
  "  if ((uint64_t)i < (uint64_t)n) return i;\n"
  "  if (n <= 0) return -1;\n"
  "  if (n == 1) return 0;\n"
  "  int64_t j = oq_pmod(i, 2 * n - 2);\n"
  "  return j < n ? j : 2 * n - 2 - j;\n}\n"
  "OQ_FN int64_t oq_clampi(int64_t i, int64_t n) { if (n <= 0) return -1; return i < 0 ? 0 : i >= n ? n - 1 : i; }\n"
  "OQ_FN int64_t oq_dim(const int64_t *d, int rank, int64_t k) { return k >= 0 && k < rank ? d[k] : 1; }\n"
  "OQ_FN int32_t oq_iabs(int32_t x) { return x < 0 ? -x : x; }\n"
  "OQ_FN int32_t oq_imax(int32_t x, int32_t y) { return x > y ? x : y; }\n"
  "OQ_FN int32_t oq_imin(int32_t x, int32_t y) { return x < y ? x : y; }\n"
  "OQ_FN int64_t oq_lmax(int64_t x, int64_t y) { return x > y ? x : y; }\n"
  "OQ_FN int64_t oq_lmin(int64_t x, int64_t y) { return x < y ? x : y; }\n"
  "OQ_FN oq_real oq_rmax(oq_real x, oq_real y) { return x > y || y != y ? x : y; }\n"
  "OQ_FN oq_real oq_rmin(oq_real x, oq_real y) { return x < y || y != y ? x : y; }\n"
  "OQ_FN oq_real oq_rsign(oq_real x) { return x > 0 ? 1 : x < 0 ? -1 : x; }\n"
  "OQ_FN oq_real oq_fmod(oq_real x, oq_real y) { return (oq_real)fmod((double)x, (double)y); }\n"
  "OQ_FN int64_t oq_shift(int64_t x, int64_t n, int left) {\n"
  "  if (n < 0) { n = -n; left = !left; }\n"
  "  if (left) return n >= 64 ? 0 : (int64_t)((uint64_t)x << n);\n"
  "  return n >= 64 ? (x < 0 ? -1 : 0) : x >> n;\n}\n"
  "OQ_FN int32_t oq_ipow(int32_t x, int32_t e) { int32_t r = 1; for (int32_t k = 0; k < e && k < 64; k++) r *= x; return r; }\n"
  "OQ_FN void oq_fail(OqkLaunch *L, int site) { oq_claim(L, site); }\n"
  "OQ_FN void oq_fail_index(OqkLaunch *L, int site, int n, const int64_t *ix, int rank, const int64_t *dims) {\n"
  "  if (!oq_claim(L, site)) return;\n"
  "  L->err_n = n; L->err_rank = rank;\n"
  "  for (int i = 0; i < n && i < 16; i++) L->err_ix[i] = ix[i];\n"
  "  for (int i = 0; i < rank && i < 16; i++) L->err_dims[i] = dims[i];\n}\n"
  "OQ_FN int32_t oq_imod(OqkLaunch *L, int site, int32_t a, int32_t b) {\n"
  "  if (b == 0) { oq_fail(L, site); return 0; }\n"
  "  return b == -1 ? 0 : a % b;\n}\n"
  "OQ_FN int32_t oq_idiv(OqkLaunch *L, int site, int32_t a, int32_t b) {\n"
  "  if (b == 0) { oq_fail(L, site); return 0; }\n"
  "  return b == -1 ? -a : a / b;\n}\n";

/* Helpers of the C dialect only: complex numbers, cvtt, errors through __atomic, scratch memory. */
static const char *helpers_c =
  "#define OQ_FN static inline\n"
  "static inline oq_cplx oq_mkc(double re, double im) { oq_cplx z; __real__ z = (oq_real)re; __imag__ z = (oq_real)im; return z; }\n"
  "static inline int oq_ceq(oq_cplx a, oq_cplx b) { return __real__ a == __real__ b && __imag__ a == __imag__ b; }\n"
  "static inline int oq_ctruthy(oq_cplx a) { return __real__ a != 0 || __imag__ a != 0; }\n"
  "#if defined(__x86_64__)\n#include <immintrin.h>\n"
  "static inline int64_t oq_cvttf(float x) { return _mm_cvttss_si64(_mm_set_ss(x)); }\n"
  "static inline int64_t oq_cvttd(double x) { return _mm_cvttsd_si64(_mm_set_sd(x)); }\n"
  "#define oq_cvtt(x) _Generic((x), float: oq_cvttf, default: oq_cvttd)(x)\n#endif\n"
  "static inline double _Complex oq_cpow(double _Complex z, double _Complex w) {\n"
  "  double e = creal(w);\n"
  "  if (cimag(w) == 0 && e == floor(e) && fabs(e) <= 1024) {\n"
  "    double _Complex r = 1, b = z;\n"
  "    for (int64_t n = (int64_t)fabs(e); n; n >>= 1) { if (n & 1) r *= b; b *= b; }\n"
  "    return e < 0 ? 1 / r : r;\n  }\n"
  "  return cpow(z, w);\n}\n"
  "static int oq_claim(OqkLaunch *L, int site) {\n"
  "  int z = 0;\n"
  "  if (!__atomic_compare_exchange_n(&L->err, &z, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) return 0;\n"
  "  L->err_site = site;\n  return 1;\n}\n";

/* ... and, after helpers_common, block-shared memory in per-worker scratch. */
static const char *helpers_c_shared =
  "/* whole cache lines: the workers' scratch memory must not share any */\n"
  "static void *oq_scratch(OqkWorker *W, int k, size_t bytes) {\n"
  "  bytes = (bytes + 127) & ~(size_t)63;\n"
  "  if (W->scrsz[k] < bytes) {\n"
  "    free(W->scr[k]);\n"
  "    W->scr[k] = aligned_alloc(64, bytes);\n"
  "    W->scrsz[k] = W->scr[k] ? bytes : 0;\n  }\n"
  "  return W->scr[k];\n}\n"
  "static int oq_shared_alloc(OqkLaunch *L, OqkWorker *W, int k, int site, int rank, const int64_t *dims, void *pp,\n"
  "                           int64_t *d, size_t esz) {\n"
  "  size_t n = 1;\n"
  "  for (int i = 0; i < rank; i++) {\n"
  "    if (dims[i] < 0 || dims[i] > (1 << 24)) { oq_fail(L, site); return 0; }\n"
  "    d[i] = dims[i]; n *= (size_t)dims[i];\n  }\n"
  "  void *p = oq_scratch(W, k, n * esz + 1);\n"
  "  if (!p) { oq_fail(L, site); return 0; }\n"
  "  memset(p, 0, n * esz);\n"
  "  *(void **)pp = p;\n  return 1;\n}\n";

/* Every function the kernel calls, directly or not. */
static void reach(Em *E, FSpec *f) {
  for (int i = 0; i < E->nreach; i++)
    if (E->reach[i] == f) return;
  E->reach = realloc(E->reach, (E->nreach + 1) * sizeof *E->reach);
  E->reach[E->nreach++] = f;
  for (int i = 0; i < f->info.cap; i++)
    if (f->info.items[i].node && f->info.items[i].callee) reach(E, f->info.items[i].callee);
}

static void emit_decls(Em *E, Buf *protos, Buf *cx);
static void vec_types(Buf *out);
static void emit_tail(Em *E, Buf *out, Buf *protos, Buf *cx, Buf *funcs);

char *emit_c(KSpec *S) {
  Em E = {.S = S};
  if (setjmp(S->fail)) {
    free(E.arrtypes.s);
    free(E.tuptypes.s);
    free(E.reach);
    return NULL;
  }
  /* the blocks of a CPU launch run a few at a time: they cannot all wait for each other */
  if (S->grid_barrier) efail(&E, S->kfunc->loc, "syncthreads(grid) (compiled for CUDA only)");
  if (S->divergent) efail(&E, S->divergent_loc, "%s", S->divergent);
  reach(&E, S->kspec);
  Buf funcs = {0}, protos = {0}, cx = {0}, out = {0};
  /* device functions first (they define types the prototypes need) */
  for (int i = E.nreach - 1; i >= 1; i--) emit_device(&E, E.reach[i], &funcs);
  emit_kernel(&E, &funcs);
  if (S->npriv) emit_private_hooks(&E, &funcs);
  emit_decls(&E, &protos, &cx);
  bool dp = rt_config.double_precision;
  bprintf(&out, preamble_fmt, S->name, OQK_ABI_TEXT, dp ? "double" : "float", dp ? "double" : "float");
  vec_types(&out);
  bputs(&out, helpers_c);
  bputs(&out, helpers_common);
  bputs(&out, helpers_c_shared);
  emit_tail(&E, &out, &protos, &cx, &funcs);
  return out.s;
}

/* Tuple types and prototypes of the device functions, and the Cx of captured values. */
static void emit_decls(Em *E, Buf *protos, Buf *cx) {
  KSpec *S = E->S;
  for (int i = 1; i < E->nreach; i++) {
    FSpec *g = E->reach[i];
    if (g->result.kind == K_TUPLE) {
      Func *f = g->func;
      bprintf(&E->tuptypes, "typedef struct {");
      for (int o = 0; o < f->nouts; o++)
        bprintf(&E->tuptypes, " %s o%d;", ctype(E, g->slots[f->ngenerics + f->nparams + o]), o);
      bprintf(&E->tuptypes, " } oqt_%d;\n", g->id);
    }
    func_signature(E, g, protos);
    bputs(protos, ";\n");
  }
  bputs(cx, "typedef struct Cx {\n  OqkLaunch *L;\n");
  for (int c = 0; c < S->ncaps; c++)
    if (has_repr(S->caps[c].type)) bprintf(cx, "  %s cap%d;\n", ctype(E, S->caps[c].type), c);
  bputs(cx, "} Cx;\n");
}

static void vec_types(Buf *out) {
  for (int len = 1; len <= K_MAX_VEC; len++) {
    bprintf(out, "typedef struct { int32_t v[%d]; } oqv_i%d;\n", len, len);
    bprintf(out, "typedef struct { oq_real v[%d]; } oqv_r%d;\n", len, len);
  }
}

/* Array and tuple types, Cx, prototypes, the functions; frees what the emitter held. */
static void emit_tail(Em *E, Buf *out, Buf *protos, Buf *cx, Buf *funcs) {
  if (E->arrtypes.s) bputs(out, E->arrtypes.s);
  if (E->tuptypes.s) bputs(out, E->tuptypes.s);
  bputs(out, cx->s);
  if (protos->s) bputs(out, protos->s);
  bputs(out, "\n");
  bputs(out, funcs->s);
  free(funcs->s);
  free(protos->s);
  free(cx->s);
  free(E->arrtypes.s);
  free(E->tuptypes.s);
  free(E->reach);
}
/* ---- the CUDA dialect ---- */

/* ---- syncthreads(grid) over any number of blocks ----
   When every grid barrier is a statement of the kernel body itself and nothing but the
   thread's position carries over one (no local, output or shared array lives across it), the
   kernel runs as phases between the grid barriers: in each, the resident blocks loop over the
   launch's blocks (vb), and every Quasar thread starts the phase afresh. The launcher then
   starts only as many blocks as fit (rt_gpu.c). */

static bool holds_grid_barrier(Node *n) {
  if (!n) return false;
  if (n->kind == N_EXPR) return is_barrier_stmt(n) && is_grid_barrier(n);
  for (int i = 0; i < n->list.n; i++)
    if (holds_grid_barrier(n->list.items[i])) return true;
  for (int i = 0; i < n->list2.n; i++)
    if (holds_grid_barrier(n->list2.items[i])) return true;
  for (int i = 0; i < n->ncases; i++)
    for (int j = 0; j < n->cases[i].body.n; j++)
      if (holds_grid_barrier(n->cases[i].body.items[j])) return true;
  return false;
}

static bool grid_stride_ok(Em *E) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  if (!S->grid_barrier || S->nshared || f->nouts) return false;
  for (int i = 0; i < f->body.n; i++) {
    Node *n = f->body.items[i];
    if (holds_grid_barrier(n) && !(n->kind == N_EXPR && is_barrier_stmt(n))) return false;
  }
  int nslots = func_info(f)->nslots, first = f->ngenerics + f->nparams + f->nouts;
  for (int s = f->ngenerics; s < first; s++)
    if (E->sc[s] == SC_LOCAL) return false;   /* an assigned parameter */
  unsigned char *bad = calloc(nslots + 1, 1);
  phase_scan(E, &f->body, bad, first, nslots);
  bool ok = true;
  for (int s = first; s < nslots && ok; s++) ok = E->sc[s] != SC_LOCAL || !bad[s];
  free(bad);
  return ok;
}

/* Statements from..to-1 of the body for every thread of blocks vb of this phase. */
static void grid_phase(Em *E, int from, int to) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  line(E, "for (int64_t vb = blockIdx.x; vb < nvb; vb += gridDim.x) {");
  E->ind++;
  line(E, "int64_t r_ = vb; (void)r_;");
  for (int d = S->D - 1; d >= 0; d--)
    line(E, "const int64_t B%d = r_ %% c%d, P%d = B%d * b%d + T%d; r_ /= c%d; (void)P%d;", d, d, d, d, d, d, d, d);
  thread_prelude(E, true);
  line(E, "{");
  E->ind++;
  for (int i = from; i < to; i++) st(E, f->body.items[i]);
  E->ind--;
  line(E, "}");
  E->ind--;
  line(E, "}");
}

static void emit_grid_stride(Em *E) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  static const char *axis[3] = {"x", "y", "z"};
  for (int d = 0; d < S->D; d++) line(E, "const int64_t T%d = threadIdx.%s;", d, axis[S->D - 1 - d]);
  Buf nvb = {0};
  for (int d = 0; d < S->D; d++) bprintf(&nvb, "%sc%d", d ? " * " : "", d);
  line(E, "const int64_t nvb = %s;", nvb.s);
  free(nvb.s);
  int from = 0;
  for (int i = 0; i <= f->body.n; i++) {
    if (i < f->body.n && !holds_grid_barrier(f->body.items[i])) continue;
    grid_phase(E, from, i);
    if (i < f->body.n) st(E, f->body.items[i]);   /* the grid barrier */
    from = i + 1;
  }
}

/* The kernel as one extern "C" __global__ entry: each GPU thread is one Quasar thread of the
   launch's blocks (P.blk: the oracle's, or the launcher's choice for kernels that do not see
   blocks). Quasar's last dimension runs on x, the one before on y, then z. Threads outside
   the data do nothing (no barriers here). Kernel outputs: each thread combines its value into
   W->out_* atomically. The launch (sizes and arguments) comes by value in the kernel's
   parameter space (OqkGrid, laid out as rt_gpu.c fills it); L is only the launch's error
   record in device memory. */
/* The entry's signature: the launch (sizes and arguments) by value in the parameter space. */
static void entry_header(Em *E, Buf *body) {
  int nargs = E->S->kspec->func->nparams + E->S->ncaps;
  bprintf(body, "struct OqkGrid { int64_t dims[3], blk[3], cnt[3], xf, scr; OqkArg a[%d]; };\n", nargs ? nargs : 1);
  bputs(body, "extern \"C\" __global__ void oqk_entry(const __grid_constant__ OqkGrid P, OqkLaunch *L, OqkWorker *W) {\n");
}

static void cuda_one_position(Em *E, const char *label);

/* One GPU thread per Quasar thread of the launch's blocks: Quasar's last dimension runs on
   x, the one before on y, then z. Threads outside the data do nothing unless there are
   barriers (then they must reach them). */
static void cuda_thread_body(Em *E) {
  KSpec *S = E->S;
  int D = S->D;
  static const char *axis[3] = {"x", "y", "z"};
  for (int d = 0; d < D; d++) {
    const char *a = axis[D - 1 - d];
    line(E, "const int64_t T%d = threadIdx.%s, B%d = blockIdx.%s, P%d = B%d * b%d + T%d;", d, a, d, a, d, d, d, d);
  }
  if (S->nshared) line(E, "size_t _shoff = 0;");
  Buf in = {0};
  for (int d = 0; d < D && !S->barrier; d++) bprintf(&in, " && P%d < n%d", d, d);
  line(E, "if (1%s) {", in.s ? in.s : "");
  free(in.s);
  E->ind++;
  cuda_one_position(E, "_next");
  E->ind--;
  line(E, "}");
}

/* The body for the current position, in its own scope: `return` jumps past its
   declarations (C++ forbids jumping into their scope); then its outputs are combined. */
static void cuda_one_position(Em *E, const char *label) {
  E->ret_label = label;
  E->has_return = false;
  thread_prelude(E, true);
  line(E, "{");
  E->ind++;
  block(E, &E->S->kfunc->body);
  /* OQ_CUDA_BREAK=1: a line NVRTC rejects, after the last statement, so that tests can see
     how a failed compile is reported (tests/run.sh) */
  if (getenv("OQ_CUDA_BREAK") && !strcmp(getenv("OQ_CUDA_BREAK"), "1")) line(E, "oq_no_such_function();");
  E->ind--;
  line(E, "}");
  if (E->has_return) line(E, "%s: ;", label);
  thread_outputs(E);
}

/* ---- loads ahead ----
   One load in flight per thread leaves HBM idle: the linear loop takes U positions at a time
   and first loads, for all U, the elements x[pos] of the arrays the kernel reads that way and
   never writes (so no update of this thread can change them; other threads' order is free). */

static bool same_array(Em *E, Node *a, Node *b) {
  if (a->kind != N_IDENT || b->kind != N_IDENT) return false;
  NodeInfo *ia = ksema_info(E->f, a), *ib = ksema_info(E->f, b);
  if (ia && ib && ia->cap >= 0) return ia->cap == ib->cap;
  return a->slot >= 0 && a->slot == b->slot && a->depth == 0 && b->depth == 0 && !(ib && ib->cap >= 0);
}

static bool array_written(Em *E, Node *n, Node *base) {
  if (!n) return false;
  if (n->kind == N_ASSIGN || n->kind == N_EXCHANGE) {
    int nt = n->kind == N_ASSIGN ? n->list.n : 1;
    for (int i = 0; i < nt; i++) {
      Node *t = n->kind == N_ASSIGN ? n->list.items[i] : n->a;
      while (t->kind == N_INDEX) t = t->a;
      if (same_array(E, t, base)) return true;
    }
  }
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return false;
  if (array_written(E, n->a, base) || array_written(E, n->b, base) || array_written(E, n->c, base)) return true;
  for (int i = 0; i < n->list.n; i++) if (array_written(E, n->list.items[i], base)) return true;
  for (int i = 0; i < n->list2.n; i++) if (array_written(E, n->list2.items[i], base)) return true;
  for (int i = 0; i < n->ncases; i++)
    for (int j = 0; j < n->cases[i].body.n; j++) if (array_written(E, n->cases[i].body.items[j], base)) return true;
  return false;
}

static void pf_walk(Em *E, Node *n) {
  if (!n) return;
  if (n->kind == N_INDEX && n->list.n == 1 && n->list.items[0]->kind == N_IDENT &&
      n->list.items[0]->slot == E->lin_slot && n->list.items[0]->depth == 0 && n->a->kind == N_IDENT) {
    NodeInfo *bi = ksema_info(E->f, n->a);
    bool written = false;
    for (int i = 0; i < E->S->kfunc->body.n && !written; i++) written = array_written(E, E->S->kfunc->body.items[i], n->a);
    char *name = ex_ident(E, n->a);
    if (bi && bi->t.kind == K_ARRAY && !written && !prefetched(E, name) && E->npf < 4) {
      E->pf_arr[E->npf] = name;
      E->pf_el[E->npf++] = bi->t.el;
    }
  }
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return;
  pf_walk(E, n->a);
  pf_walk(E, n->b);
  pf_walk(E, n->c);
  for (int i = 0; i < n->list.n; i++) pf_walk(E, n->list.items[i]);
  for (int i = 0; i < n->list2.n; i++) pf_walk(E, n->list2.items[i]);
  for (int i = 0; i < n->ncases; i++)
    for (int j = 0; j < n->cases[i].body.n; j++) pf_walk(E, n->cases[i].body.items[j]);
}

/* The linear loop U positions at a time, their elements loaded first; _r ends at the first
   position left for the loop after it. Device functions may write anything: then none. */
static void cuda_unrolled(Em *E) {
  E->npf = 0;
  if (E->nreach > 1) return;
  for (int i = 0; i < E->S->kfunc->body.n; i++) pf_walk(E, E->S->kfunc->body.items[i]);
  if (!E->npf) return;
  int U = E->npf <= 2 ? 8 : 4;
  const char *env = getenv("OQ_CUDA_UNROLL");   /* a tuning knob: positions per step */
  if (env && atoi(env) >= 1 && atoi(env) <= 16) U = atoi(env);
  if (U == 1) {
    E->npf = 0;
    return;
  }
  line(E, "int64_t _rb = _r;");
  line(E, "for (; _rb + %d * _st < _np; _rb += %d * _st) {", U - 1, U);
  E->ind++;
  for (int j = 0; j < E->npf; j++)
    for (int k = 0; k < U; k++)
      line(E, "const %s _pf%d_%d = %s.p[_rb + %d * _st];", el_ctype(E->pf_el[j]), j, k, E->pf_arr[j], k);
  for (int k = 0; k < U; k++) {
    line(E, "{");
    E->ind++;
    line(E, "const int64_t _r = _rb + %d * _st;", k);
    E->pf_k = k;
    cuda_one_position(E, sf(E, "_nextu%d", k));
    E->ind--;
    line(E, "}");
  }
  E->ind--;
  line(E, "}");
  line(E, "_r = _rb;");
  E->npf = 0;
}

/* Tiling: thread r of the grid runs positions r, r + S, r + 2S... (S the grid's threads), so
   consecutive threads read consecutive elements. When the arrays x[pos] reads have the
   launch's shape, pos is the linear index _r; otherwise its digits are carried along. */
static void cuda_tiled_body(Em *E) {
  KSpec *S = E->S;
  int D = S->D;
  Buf np = {0};
  bputs(&np, "(int64_t)1");
  for (int d = 0; d < D; d++) bprintf(&np, " * n%d", d);
  line(E, "const int64_t _np = %s, _st = (int64_t)gridDim.x * blockDim.x;", np.s);
  free(np.s);
  line(E, "int64_t _r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;");
  if (E->lin_slot >= 0) {
    line(E, "if (1%s) {", E->lin_test.s ? E->lin_test.s : "");
    E->ind++;
    E->lin = true;
    cuda_unrolled(E);
    line(E, "for (; _r < _np; _r += _st) {");
    E->ind++;
    cuda_one_position(E, "_nextl");
    E->ind--;
    line(E, "}");
    E->lin = false;
    E->ind--;
    line(E, "}");
    free(E->lin_test.s);
    E->lin_test = (Buf){0};
  }
  /* the position's digits (last dimension fastest) and the stride's, added with carries */
  line(E, "int64_t _x[%d], _s[%d];", D, D);
  line(E, "{ int64_t _q = _r < _np ? _r : 0, _w = _st;");
  for (int d = D - 1; d >= 0; d--) line(E, "  _x[%d] = _q %% n%d; _q /= n%d; _s[%d] = _w %% n%d; _w /= n%d;", d, d, d, d, d, d);
  line(E, "}");
  line(E, "for (; _r < _np; _r += _st) {");
  E->ind++;
  for (int d = 0; d < D; d++) line(E, "const int64_t P%d = _x[%d];", d, d);
  cuda_one_position(E, "_next");
  line(E, "int _cy = 0;");
  for (int d = D - 1; d >= 0; d--) line(E, "_x[%d] += _s[%d] + _cy; _cy = _x[%d] >= n%d; if (_cy) _x[%d] -= n%d;", d, d, d, d, d, d);
  E->ind--;
  line(E, "}");
}

/* Counted private arrays: every block adds its counts into 64-bit integers in the launch's
   scratch (P.scr: [0] the blocks done, then each counted array's counts, zero between
   launches); the last block to finish turns each total into the oracle's additions with
   plain stores and zeroes the scratch again. Integer atomics: exact and uncontended. */
static void cuda_count_offsets(Em *E) {
  KSpec *S = E->S;
  line(E, "unsigned long long *const _gc = (unsigned long long *)P.scr; (void)_gc;");
  line(E, "int64_t _gcn = 1;");
  for (int k = 0; k < S->npriv; k++)
    if (S->priv_esz[k] && S->priv_count[k]) line(E, "const int64_t _gco%d = _gcn; if (pv%d) _gcn += pvn%d;", k, k, k);
}

static void cuda_count_finish(Em *E) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  bool any = false;
  for (int k = 0; k < S->npriv; k++) any |= S->priv_esz[k] && S->priv_count[k];
  if (!any) return;
  line(E, "__shared__ int _last;");
  line(E, "__threadfence();");
  line(E, "__syncthreads();");
  line(E, "if (threadIdx.x == 0) _last = _gc && atomicAdd(_gc, 1ull) == gridDim.x - 1;");
  line(E, "__syncthreads();");
  line(E, "if (_last) {");
  E->ind++;
  line(E, "__threadfence();");
  for (int k = 0; k < S->npriv; k++) {
    if (!S->priv_esz[k] || !S->priv_count[k]) continue;
    int a = S->priv_arg[k];
    KType t = a < f->nparams ? S->kspec->params[a] : S->caps[a - f->nparams].type;
    const char *ct = el_ctype(t.el);
    line(E, "if (pv%d) for (int64_t _i = threadIdx.x; _i < pvn%d; _i += blockDim.x) {", k, k);
    E->ind++;
    line(E, "const unsigned long long _k = ((volatile unsigned long long *)_gc)[_gco%d + _i];", k);
    line(E, "if (!_k) continue;");
    line(E, "%s *const _y = (%s *)P.a[%d].data + _i;", ct, ct, a);
    line(E, "*_y = oq_count_add(*_y, _k, (oq_real)%lld, %s);", (long long)S->priv_count[k],
         t.el == EL_F32 || !rt_config.double_precision ? "16777216.0" : "9007199254740992.0");
    line(E, "_gc[_gco%d + _i] = 0;", k);
    E->ind--;
    line(E, "}");
  }
  line(E, "if (threadIdx.x == 0) _gc[0] = 0;");
  E->ind--;
  line(E, "}");
}

/* After every position: the block's private copies are added into the arrays (replicas
   summed from a rotated start, so the lanes of a warp read distinct banks), and the kernel
   outputs are combined, per block when block_reduce, else per thread. */
static void cuda_epilogue(Em *E) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  int obase = f->ngenerics + f->nparams;
  bool any = false;
  for (int k = 0; k < S->npriv; k++) any |= S->priv_esz[k] > 0;
  if (any) {
    line(E, "__syncthreads();");
    for (int k = 0; k < S->npriv; k++) {
      if (!S->priv_esz[k]) continue;
      int a = S->priv_arg[k];
      KType t = a < f->nparams ? S->kspec->params[a] : S->caps[a - f->nparams].type;
      const char *ct = el_ctype(t.el), *st = S->priv_count[k] ? "unsigned" : ct;
      line(E, "if (pv%d) for (int64_t _i = threadIdx.x; _i < pvn%d; _i += blockDim.x) {", k, k);
      E->ind++;
      line(E, "%s _v = 0;", S->priv_count[k] ? "unsigned long long" : st);
      line(E, "for (unsigned _j = 0; _j < (1u << _lgR); _j++) _v += pvp%d[(_i << _lgR) + ((_j + (unsigned)_i) & ((1u << _lgR) - 1))];", k);
      if (S->priv_count[k]) line(E, "if (_v) atomicAdd(_gc + _gco%d + _i, _v);", k);
      else line(E, "if (_v != 0) atomicAdd((%s *)P.a[%d].data + _i, _v);", ct, a);
      E->ind--;
      line(E, "}");
    }
    cuda_count_finish(E);
  }
  for (int o = 0; o < f->nouts; o++) {
    char c = S->kspec->slots[obase + o].kind == K_INT ? 'i' : 'r';
    line(E, "%s(&W->out_%c[%d], acc%d);", S->block_reduce ? sf(E, "oq_block_out_%c", c) : sf(E, "oq_out_%c", c), c, o, o);
  }
}

/* The kernel as one extern "C" __global__ entry. The launch (sizes and arguments) comes by
   value in the kernel's parameter space (OqkGrid, laid out as rt_gpu.c fills it: xf holds the
   private copies' mask and replicas, scr the counted copies' scratch); L is only the launch's
   error record in device memory. */
static void emit_cuda_kernel(Em *E, Buf *out) {
  KSpec *S = E->S;
  FSpec *k = S->kspec;
  Func *f = k->func;
  int D = S->D;
  if (D > 3) efail(E, f->loc, "launches of more than 3 dimensions are not compiled for CUDA");
  Buf body = {0};
  kernel_analysis(E, &body);
  S->grid_stride = grid_stride_ok(E);
  if (S->grid_stride) {
    S->block_reduce = false;
    S->xforms[0] = 0;
    bprintf(&body, "/* kernel %s: phases between grid barriers, each over all blocks of the launch */\n", S->name);
    entry_header(E, &body);
    kernel_loads(E);
    emit_grid_stride(E);
    bputs(&body, "  (void)W;\n");
  } else {
    bprintf(&body, "/* kernel %s: %s */\n", S->name,
            S->tiled ? "a grid-stride loop over the positions" : "one GPU thread per Quasar thread");
    if (S->xforms[0]) bprintf(&body, "/* transforms: %s */\n", S->xforms);
    entry_header(E, &body);
    kernel_loads(E);
    if (S->tiled) cuda_tiled_body(E);
    else cuda_thread_body(E);
    cuda_epilogue(E);
  }
  bputs(&body, "}\n");
  bputs(out, body.s);
  free(body.s);
  kernel_end(E);
}

static const char *cuda_preamble_fmt =
  "/* generated by oq (OpenQuasar) for CUDA from kernel %s */\n"
  "typedef signed char int8_t; typedef unsigned char uint8_t;\n"
  "typedef short int16_t; typedef unsigned short uint16_t;\n"
  "typedef int int32_t; typedef unsigned int uint32_t;\n"
  "typedef long long int64_t; typedef unsigned long long uint64_t;\n"
  "typedef unsigned long size_t;\n"
  "#define INT32_MIN (-2147483647 - 1)\n#define INT32_MAX 2147483647\n"
  "#define INT64_MIN (-9223372036854775807LL - 1)\n#define INT64_MAX 9223372036854775807LL\n"
  "#define INFINITY __int_as_float(0x7f800000)\n#define NAN __int_as_float(0x7fffffff)\n"
  "%s\n"
  "typedef %s oq_real;\n"
  "#define OQ_FN static __device__ inline\n";

/* Complex numbers: C's float/double _Complex as a struct with the operators and functions
   the statement code uses. Products and quotients as GCC computes them for finite values
   (the plain product; Smith's quotient), without C's recovery of infinities from NaN
   results; the functions in double, by the textbook formulas (glibc's differ in the last
   bits near branch cuts, as the real functions do between CPU and GPU). */
static const char *cuda_complex_helpers =
  "template <class T> struct oq_cx {\n"
  "  T re, im;\n"
  "  __device__ oq_cx() : re(0), im(0) {}\n"
  "  __device__ oq_cx(double r) : re((T)r), im(0) {}\n"
  "  __device__ oq_cx(T r, T i) : re(r), im(i) {}\n"
  "  template <class U> __device__ oq_cx(oq_cx<U> z) : re((T)z.re), im((T)z.im) {}\n"
  "};\n"
  "typedef oq_cx<float> oq_c64;\ntypedef oq_cx<double> oq_c128;\n"
  "#define OQ_CX template <class T> static __device__ inline\n"
  "OQ_CX oq_cx<T> operator+(oq_cx<T> a, oq_cx<T> b) { return oq_cx<T>(a.re + b.re, a.im + b.im); }\n"
  "OQ_CX oq_cx<T> operator-(oq_cx<T> a, oq_cx<T> b) { return oq_cx<T>(a.re - b.re, a.im - b.im); }\n"
  "OQ_CX oq_cx<T> operator-(oq_cx<T> a) { return oq_cx<T>(-a.re, -a.im); }\n"
  "OQ_CX oq_cx<T> operator*(oq_cx<T> a, oq_cx<T> b) { return oq_cx<T>(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re); }\n"
  "OQ_CX oq_cx<T> operator/(oq_cx<T> a, oq_cx<T> b) {\n"
  "  T r, d;\n"
  "  if (fabs(b.re) < fabs(b.im)) {\n"
  "    r = b.re / b.im; d = b.re * r + b.im;\n"
  "    return oq_cx<T>((a.re * r + a.im) / d, (a.im * r - a.re) / d);\n"
  "  }\n"
  "  r = b.im / b.re; d = b.im * r + b.re;\n"
  "  return oq_cx<T>((a.im * r + a.re) / d, (a.im - a.re * r) / d);\n"
  "}\n"
  "OQ_CX T creal(oq_cx<T> z) { return z.re; }\n"
  "OQ_CX T cimag(oq_cx<T> z) { return z.im; }\n"
  "OQ_CX oq_cx<T> conj(oq_cx<T> z) { return oq_cx<T>(z.re, -z.im); }\n"
  "static __device__ inline double cabs(oq_c128 z) { return hypot(z.re, z.im); }\n"
  "static __device__ inline double carg(oq_c128 z) { return atan2(z.im, z.re); }\n"
  "static __device__ inline oq_c128 cexp(oq_c128 z) { double e = exp(z.re); return oq_c128(e * cos(z.im), e * sin(z.im)); }\n"
  "static __device__ inline oq_c128 clog(oq_c128 z) { return oq_c128(log(hypot(z.re, z.im)), atan2(z.im, z.re)); }\n"
  "static __device__ inline oq_c128 csqrt(oq_c128 z) {\n"
  "  if (z.re == 0 && z.im == 0) return oq_c128(0.0, z.im);\n"
  "  double t = sqrt((fabs(z.re) + hypot(z.re, z.im)) * 0.5);\n"
  "  if (z.re >= 0) return oq_c128(t, z.im / (2 * t));\n"
  "  return oq_c128(fabs(z.im) / (2 * t), copysign(t, z.im));\n"
  "}\n"
  "static __device__ inline oq_c128 csin(oq_c128 z) { return oq_c128(sin(z.re) * cosh(z.im), cos(z.re) * sinh(z.im)); }\n"
  "static __device__ inline oq_c128 ccos(oq_c128 z) { return oq_c128(cos(z.re) * cosh(z.im), -(sin(z.re) * sinh(z.im))); }\n"
  "static __device__ inline oq_c128 csinh(oq_c128 z) { return oq_c128(sinh(z.re) * cos(z.im), cosh(z.re) * sin(z.im)); }\n"
  "static __device__ inline oq_c128 ccosh(oq_c128 z) { return oq_c128(cosh(z.re) * cos(z.im), sinh(z.re) * sin(z.im)); }\n"
  "static __device__ inline oq_c128 ctan(oq_c128 z) { double d = cos(2 * z.re) + cosh(2 * z.im); return oq_c128(sin(2 * z.re) / d, sinh(2 * z.im) / d); }\n"
  "static __device__ inline oq_c128 ctanh(oq_c128 z) { double d = cosh(2 * z.re) + cos(2 * z.im); return oq_c128(sinh(2 * z.re) / d, sin(2 * z.im) / d); }\n"
  "static __device__ inline oq_c128 oq_cpow(oq_c128 z, oq_c128 w) {\n"
  "  double e = w.re;\n"
  "  if (w.im == 0 && e == floor(e) && fabs(e) <= 1024) {\n"
  "    oq_c128 r = 1, b = z;\n"
  "    for (int64_t n = (int64_t)fabs(e); n; n >>= 1) { if (n & 1) r = r * b; b = b * b; }\n"
  "    return e < 0 ? oq_c128(1) / r : r;\n  }\n"
  "  return cexp(w * clog(z));\n}\n";

/* Helpers over oq_cplx (after its typedef). */
static const char *cuda_complex_more =
  "OQ_FN oq_cplx oq_mkc(double re, double im) { return oq_cplx((oq_real)re, (oq_real)im); }\n"
  "OQ_FN int oq_ceq(oq_cplx a, oq_cplx b) { return a.re == b.re && a.im == b.im; }\n"
  "OQ_FN int oq_ctruthy(oq_cplx a) { return a.re != 0 || a.im != 0; }\n";

/* GCC's __atomic builtins, which the shared statement code uses, on CUDA atomics: the
   fetch operations on int32 natively, loads as volatile reads, exchange and compare-exchange
   by the element's size (1 and 2 bytes through the aligned word that holds them). */
static const char *cuda_helpers =
  "template <class T> OQ_FN void oq_aload(T *p, T *o) {   /* by size: T may be a struct */\n"
  "  if (sizeof(T) == 8) *(unsigned long long *)o = *(volatile unsigned long long *)p;\n"
  "  else if (sizeof(T) == 4) *(unsigned *)o = *(volatile unsigned *)p;\n"
  "  else if (sizeof(T) == 2) *(unsigned short *)o = *(volatile unsigned short *)p;\n"
  "  else if (sizeof(T) == 1) *(unsigned char *)o = *(volatile unsigned char *)p;\n"
  "  else *o = *p;\n}\n"
  "OQ_FN unsigned oq_cas_word(unsigned *w, unsigned e, unsigned n) { return atomicCAS(w, e, n); }\n"
  "template <class T> OQ_FN bool oq_acas(T *p, T *o, T *n) {\n"
  "  if (sizeof(T) == 8) {\n"
  "    unsigned long long e = *(unsigned long long *)o, r = atomicCAS((unsigned long long *)p, e, *(unsigned long long *)n);\n"
  "    if (r == e) return true; *(unsigned long long *)o = r; return false;\n"
  "  }\n"
  "  if (sizeof(T) == 4) {\n"
  "    unsigned e = *(unsigned *)o, r = atomicCAS((unsigned *)p, e, *(unsigned *)n);\n"
  "    if (r == e) return true; *(unsigned *)o = r; return false;\n"
  "  }\n"
  "  /* 1 or 2 bytes: CAS on the word, retried while only the other bytes changed */\n"
  "  size_t a = (size_t)p, sh = (a & 3) * 8;\n"
  "  unsigned *w = (unsigned *)(a & ~(size_t)3), mask = (sizeof(T) == 1 ? 0xffu : 0xffffu) << sh;\n"
  "  unsigned ov = 0, nv = 0; for (size_t i = 0; i < sizeof(T); i++) { ov |= (unsigned)((unsigned char *)o)[i] << (8 * i); nv |= (unsigned)((unsigned char *)n)[i] << (8 * i); }\n"
  "  for (;;) {\n"
  "    unsigned cur = *(volatile unsigned *)w;\n"
  "    if (((cur & mask) >> sh) != ov) {\n"
  "      unsigned v = (cur & mask) >> sh; for (size_t i = 0; i < sizeof(T); i++) ((unsigned char *)o)[i] = (unsigned char)(v >> (8 * i));\n"
  "      return false;\n"
  "    }\n"
  "    if (atomicCAS(w, cur, (cur & ~mask) | (nv << sh)) == cur) return true;\n"
  "  }\n"
  "}\n"
  "template <class T> OQ_FN void oq_axchg(T *p, T *n, T *o) { oq_aload(p, o); while (!oq_acas(p, o, n)) {} }\n"
  "#define __atomic_load(p, o, m) oq_aload(p, o)\n"
  "#define __atomic_load_n(p, m) (*(volatile int *)(p))\n"
  "#define __atomic_compare_exchange(p, o, n, weak, m1, m2) oq_acas(p, o, n)\n"
  "#define __atomic_exchange(p, n, o, m) oq_axchg(p, n, o)\n"
  "#define __atomic_add_fetch(p, v, m) (atomicAdd((p), (v)) + (v))\n"
  "#define __atomic_sub_fetch(p, v, m) (atomicSub((p), (v)) - (v))\n"
  "#define __atomic_and_fetch(p, v, m) (atomicAnd((p), (v)) & (v))\n"
  "#define __atomic_or_fetch(p, v, m) (atomicOr((p), (v)) | (v))\n"
  "#define __atomic_xor_fetch(p, v, m) (atomicXor((p), (v)) ^ (v))\n"
  "OQ_FN int oq_claim(OqkLaunch *L, int site) {\n"
  "  if (atomicCAS(&L->err, 0, 1) != 0) return 0;\n"
  "  L->err_site = site;\n  return 1;\n}\n";

/* Block-shared memory: pieces of one dynamic buffer of OQ_SHMAX bytes, in the order of the
   kernel's shared() calls (every thread makes them, with equal sizes); each piece is zeroed
   by the block's threads together, as the oracle zero-fills. A bad size fails the launch and
   leaves an empty array (every access outside). Needs helpers_common (oq_fail). */
static const char *cuda_shared_helpers =
  "#define OQ_SHMAX 49152\n"
  "extern __shared__ double oq_shbuf[];\n"
  "OQ_FN void oq_shared_take(OqkLaunch *L, int site, int rank, const int64_t *dims, void **pp, int64_t *d, size_t esz, size_t *off) {\n"
  "  size_t n = 1; int bad = 0;\n"
  "  for (int i = 0; i < rank; i++) { if (dims[i] < 0 || dims[i] > (1 << 24)) bad = 1; else n *= (size_t)dims[i]; }\n"
  "  size_t bytes = (n * esz + 15) & ~(size_t)15;\n"
  "  if (bad || *off + bytes > OQ_SHMAX) { bad = 1; bytes = 0; }\n"
  "  char *p = (char *)oq_shbuf + *off;\n"
  "  unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);\n"
  "  unsigned nt = blockDim.x * blockDim.y * blockDim.z;\n"
  "  for (size_t i = tid; i < bytes / 4; i += nt) ((unsigned *)p)[i] = 0;\n"
  "  __syncthreads();\n"
  "  if (bad) { if (tid == 0) oq_fail(L, site); for (int i = 0; i < rank; i++) d[i] = 0; }\n"
  "  else for (int i = 0; i < rank; i++) d[i] = dims[i];\n"
  "  *off += bytes;\n  *pp = p;\n}\n";

/* k identical additions of c to o, as the oracle makes them one after the other: at once
   while every step is an exact integer, else one by one until adding c no longer changes the
   value (float saturation past 2^24); as the CPU's oqk_finish. */
static const char *cuda_merge_count =
  "template <class T> OQ_FN T oq_count_add(T o, unsigned long long k, oq_real c, double lim) {\n"
  "  double v = (double)o;\n"
  "  if (v == trunc(v) && fabs(v) <= lim) {   /* the steps that stay exact integers, at once */\n"
  "    double j = floor(c > 0 ? (lim - v) / c : (lim + v) / -c);\n"
  "    if (j > (double)k) j = (double)k;\n"
  "    o = (T)(v + j * (double)c);\n"
  "    k -= (unsigned long long)j;\n"
  "  }\n"
  "  for (; k > 0; k--) { T m = (T)((oq_real)o + c); if (m == o || m != m) { o = m; break; } o = m; }\n"
  "  return o;\n"
  "}\n";

/* Block-reduce: the threads' values combined by shuffles within each warp (only the lanes
   that exist: the last warp of a block may be partial), the warps' results by the first
   warp, and one atomic per block. Every thread of the block must call it. */
static const char *cuda_block_out =
  "#define OQ_BLOCK_OUT(NAME, T, COMB, OUT) \\\n"
  "OQ_FN void NAME(T *p, T v) { \\\n"
  "  __shared__ T part[32]; \\\n"
  "  unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); \\\n"
  "  unsigned nt = blockDim.x * blockDim.y * blockDim.z, lane = tid & 31, w = tid >> 5; \\\n"
  "  unsigned nl = nt - (w << 5) < 32 ? nt - (w << 5) : 32, nw = (nt + 31) >> 5; \\\n"
  "  unsigned m = nl == 32 ? 0xffffffffu : (1u << nl) - 1; \\\n"
  "  for (unsigned o = 16; o; o >>= 1) { T x = __shfl_down_sync(m, v, o); if (lane + o < nl) v = COMB(v, x); } \\\n"
  "  if (lane == 0) part[w] = v; \\\n"
  "  __syncthreads(); \\\n"
  "  if (w == 0) { \\\n"
  "    if (lane < nw) v = part[lane]; \\\n"
  "    for (unsigned o = 16; o; o >>= 1) { T x = __shfl_down_sync(m, v, o); if (lane + o < nw) v = COMB(v, x); } \\\n"
  "    if (lane == 0) OUT(p, v); \\\n"
  "  } \\\n"
  "  __syncthreads(); \\\n"
  "}\n"
  "OQ_BLOCK_OUT(oq_block_out_i, int64_t, oq_comb_i, oq_out_i)\n"
  "OQ_BLOCK_OUT(oq_block_out_r, double, oq_comb_r, oq_out_r)\n";

/* Kernel outputs: one atomic per thread (or per block) into the launch's W->out_*, by the operator. */
/* syncthreads(grid) without cooperative groups (which need relocatable device code): the
   cooperative launch keeps every block resident; thread 0 of each block arrives at a counter
   in module memory, the last one resets it and bumps the generation that the others wait on.
   The counter is back at 0 after every barrier, so the next launch finds it clean. A wait
   longer than OQ_GRID_WAIT_NS fails the launch (blocks that disagree would otherwise hang). */
static const char *cuda_grid_helpers =
  "#define OQ_GRID_WAIT_NS 20000000000ull\n"
  "__device__ unsigned oq_gridbar[2];   /* arrivals, generation */\n"
  "OQ_FN unsigned long long oq_nanotime(void) { unsigned long long t; asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(t)); return t; }\n"
  "OQ_FN void oq_grid_sync(OqkLaunch *L, int site) {\n"
  "  __syncthreads();\n"
  "  if (threadIdx.x + threadIdx.y + threadIdx.z == 0) {\n"
  "    unsigned nb = gridDim.x * gridDim.y * gridDim.z;\n"
  "    unsigned gen = atomicAdd(&oq_gridbar[1], 0);\n"
  "    __threadfence();\n"
  "    if (atomicAdd(&oq_gridbar[0], 1) == nb - 1) {\n"
  "      atomicExch(&oq_gridbar[0], 0);\n"
  "      __threadfence();\n"
  "      atomicAdd(&oq_gridbar[1], 1);\n"
  "    } else {\n"
  "      unsigned long long t0 = oq_nanotime();\n"
  "      while (*(volatile unsigned *)&oq_gridbar[1] == gen)\n"
  "        if (oq_nanotime() - t0 > OQ_GRID_WAIT_NS) { oq_fail(L, site); break; }\n"
  "    }\n"
  "    __threadfence();\n"
  "  }\n"
  "  __syncthreads();\n"
  "}\n";

/* Kernel outputs: one atomic per thread into the launch's W->out_*, by the operator. */
static void cuda_out_helpers(KSpec *S, Buf *out) {
  switch (S->out_op) {
  case OP_MAX: case OP_MIN: {
    const char *fn = S->out_op == OP_MAX ? "atomicMax" : "atomicMin", *cmp = S->out_op == OP_MAX ? ">" : "<";
    bprintf(out, "OQ_FN void oq_out_i(int64_t *p, int64_t v) { %s((long long *)p, (long long)v); }\n", fn);
    bprintf(out, "OQ_FN void oq_out_r(double *p, double v) {\n"
                 "  double o = *(volatile double *)p;\n"
                 "  while ((v %s o || o != o) && v == v && !oq_acas(p, &o, &v)) {}\n}\n", cmp);
    break;
  }
  case OP_MUL: case OP_EMUL:
    bputs(out, "OQ_FN void oq_out_i(int64_t *p, int64_t v) { int64_t o = *(volatile int64_t *)p, n; do n = (int64_t)((uint64_t)o * (uint64_t)v); while (!oq_acas(p, &o, &n)); }\n"
               "OQ_FN void oq_out_r(double *p, double v) { double o = *(volatile double *)p, n; do n = o * v; while (!oq_acas(p, &o, &n)); }\n");
    break;
  default:
    bputs(out, "OQ_FN void oq_out_i(int64_t *p, int64_t v) { atomicAdd((unsigned long long *)p, (unsigned long long)v); }\n"
               "OQ_FN void oq_out_r(double *p, double v) { atomicAdd(p, v); }\n");
  }
  if (!S->block_reduce) return;
  const char *ci, *cr;
  switch (S->out_op) {
  case OP_MAX: ci = "a > b ? a : b"; cr = "a > b || b != b ? a : b"; break;
  case OP_MIN: ci = "a < b ? a : b"; cr = "a < b || b != b ? a : b"; break;
  case OP_MUL: case OP_EMUL: ci = "(int64_t)((uint64_t)a * (uint64_t)b)"; cr = "a * b"; break;
  default: ci = "(int64_t)((uint64_t)a + (uint64_t)b)"; cr = "a + b";
  }
  bprintf(out, "OQ_FN int64_t oq_comb_i(int64_t a, int64_t b) { return %s; }\n"
               "OQ_FN double oq_comb_r(double a, double b) { return %s; }\n", ci, cr);
  bputs(out, cuda_block_out);
}

/* True when some value of the specialization is complex (the struct and its functions are
   then part of the source: NVRTC compiles less without them). */
static bool is_complex(KType t) { return t.kind == K_CPLX || (t.kind == K_ARRAY && el_is_complex(t.el)); }

static bool uses_complex(KSpec *S) {
  for (FSpec *g = S->funcs; g; g = g->next) {
    for (int i = 0; i < g->info.cap; i++)
      if (g->info.items[i].node && is_complex(g->info.items[i].t)) return true;
    for (int i = 0; i < func_info(g->func)->nslots; i++)
      if (is_complex(g->slots[i])) return true;
    for (int i = 0; i < g->func->nparams; i++)
      if (is_complex(g->params[i])) return true;
  }
  for (int c = 0; c < S->ncaps; c++)
    if (is_complex(S->caps[c].type)) return true;
  return false;
}

/* Whether the kernel only reads elements of its parameter `slot` (or passes it to built-in
   functions such as numel): no store, exchange, alias, call of a user function or nested
   function that could write it. Only such arrays may live in constant memory or be read
   through the non-coherent cache. */
static bool only_read(Em *E, Node *n, int slot, bool read_use);
static bool list_only_read_args(Em *E, NodeList *l, int slot);

static bool list_only_read(Em *E, NodeList *l, int slot) {
  for (int i = 0; i < l->n; i++)
    if (!only_read(E, l->items[i], slot, false)) return false;
  return true;
}

static bool only_read(Em *E, Node *n, int slot, bool read_use) {
  if (!n) return true;
  switch (n->kind) {
  case N_IDENT: return read_use || n->slot != slot || n->depth != 0;
  case N_INDEX: return only_read(E, n->a, slot, true) && list_only_read(E, &n->list, slot);
  case N_ASSIGN: case N_EXCHANGE:
    for (int i = 0; i < n->list.n; i++) {
      Node *t = n->list.items[i];
      while (t->kind == N_INDEX) t = t->a;
      if (t->kind == N_IDENT && t->slot == slot && t->depth == 0) return false;
      if (!only_read(E, n->list.items[i], slot, false)) return false;
    }
    if (n->kind == N_EXCHANGE) {
      Node *t = n->a;
      while (t->kind == N_INDEX) t = t->a;
      if (t->kind == N_IDENT && t->slot == slot && t->depth == 0) return false;
      if (!only_read(E, n->a, slot, false)) return false;
    }
    return only_read(E, n->b, slot, false);
  case N_CALL: {
    NodeInfo *ni = ksema_info(E->S->kspec, n);
    bool builtin = ni && ni->builtin && ni->builtin != KB_SHARED;
    if (!only_read(E, n->a, slot, false)) return false;
    return builtin ? list_only_read_args(E, &n->list, slot) : list_only_read(E, &n->list, slot);
  }
  case N_LAMBDA: case N_FUNCDEF: return false;
  case N_MATCH:
    if (!only_read(E, n->a, slot, false)) return false;
    for (int i = 0; i < n->ncases; i++)
      if (!only_read(E, n->cases[i].pattern, slot, false) || !list_only_read(E, &n->cases[i].body, slot)) return false;
    return true;
  default:
    return only_read(E, n->a, slot, false) && only_read(E, n->b, slot, false) && only_read(E, n->c, slot, false) &&
           list_only_read(E, &n->list, slot) && list_only_read(E, &n->list2, slot);
  }
}

/* The arguments of a built-in: the array itself is only read there. */
static bool list_only_read_args(Em *E, NodeList *l, int slot) {
  for (int i = 0; i < l->n; i++)
    if (!only_read(E, l->items[i], slot, true)) return false;
  return true;
}

/* 'hwconst arrays in constant memory, 'hwtex_const ones through __ldg (kernel parameters that
   the kernel only reads; the modifier is ignored elsewhere). */
static void cuda_memory_kinds(Em *E) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  S->cmem_params = 0;
  for (int i = 0; i < f->nparams && i < 32; i++) {
    int slot = f->ngenerics + i;
    unsigned m = func_info(f)->slot_mods[slot];
    KType t = S->kspec->params[i];
    if (t.kind != K_ARRAY || !(m & (TM_HWCONST | TM_HWTEX_CONST))) continue;
    if (!list_only_read(E, &f->body, slot)) continue;
    if ((m & TM_HWCONST) && !S->no_cmem) S->cmem_params |= 1u << i;
    else if (!el_is_complex(t.el)) E->ldg_params |= 1u << i;   /* __ldg has no complex overload */
  }
}

char *emit_cuda(KSpec *S) {
  Em E = {.S = S, .cuda = true};
  if (setjmp(S->fail)) {
    free(E.arrtypes.s);
    free(E.tuptypes.s);
    free(E.reach);
    return NULL;
  }
  reach(&E, S->kspec);
  cuda_memory_kinds(&E);
  Buf funcs = {0}, out = {0};
  Buf protos = {0}, cx = {0};
  for (int i = E.nreach - 1; i >= 1; i--) emit_device(&E, E.reach[i], &funcs);
  emit_cuda_kernel(&E, &funcs);
  emit_decls(&E, &protos, &cx);
  bool dp = rt_config.double_precision;
  bprintf(&out, cuda_preamble_fmt, S->name, OQK_ABI_TEXT, dp ? "double" : "float");
  if (uses_complex(S)) {
    bputs(&out, cuda_complex_helpers);
    bprintf(&out, "typedef %s oq_cplx;\n", dp ? "oq_c128" : "oq_c64");
    bputs(&out, cuda_complex_more);
  }
  vec_types(&out);
  bputs(&out, cuda_helpers);
  bputs(&out, helpers_common);
  if (S->nshared) bputs(&out, cuda_shared_helpers);
  else if (S->npriv) bputs(&out, "extern __shared__ double oq_shbuf[];\n");
  if (S->npriv) bputs(&out, cuda_merge_count);
  if (S->grid_barrier) bputs(&out, cuda_grid_helpers);
  if (S->cmem_params) bprintf(&out, "__constant__ __align__(16) unsigned char oq_cmem[%d];   /* 'hwconst arrays */\n", K_CMEM_BYTES);
  cuda_out_helpers(S, &out);
  emit_tail(&E, &out, &protos, &cx, &funcs);
  return out.s;
}

