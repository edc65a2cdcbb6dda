/* emit.c: C expressions and statements of typed kernel code (kernel_sema.c gives every node
   its type), shared by the C and the CUDA dialect.

   Expressions become pure C expressions; what needs statements first (array reads with
   their index temporaries, device calls, atomics) is written before the statement that uses
   it. Arithmetic follows the interpreter: single-precision results are what double
   arithmetic rounded to float gives (libm in double, then rounded), ints are int32_t. */
#include "codegen/emit.h"
#include <math.h>

static char *real_lit(Em *E, double x);
static char *map1(Em *E, int id, char *a, KType t, KKind rc, Node *at);
static void st_assign(Em *E, Node *n, bool want, char **res);
static char *ex_node(Em *E, Node *n);
static void st_return(Em *E, Node *n);

static void bput(Buf *b, const char *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    b->cap = (b->len + n + 1) * 2;
    b->s = realloc(b->s, b->cap);
  }
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = 0;
}

void em_bputs(Buf *b, const char *s) { bput(b, s, strlen(s)); }

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

void em_bprintf(Buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  bvprintf(b, fmt, ap);
  va_end(ap);
}

char *em_sf(Em *E, const char *fmt, ...) {
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

void em_line(Em *E, const char *fmt, ...) {
  for (int i = 0; i < E->ind; i++) em_bputs(E->b, "  ");
  va_list ap;
  va_start(ap, fmt);
  bvprintf(E->b, fmt, ap);
  va_end(ap);
  em_bputs(E->b, "\n");
}

char *em_tmp(Em *E) { return em_sf(E, "t%d", E->ntmp++); }

KType em_T(Em *E, Node *n) {
  NodeInfo *ni = ksema_info(E->f, n);
  if (!ni) em_efail(E, n->loc, "internal: untyped %s", node_kind_name(n->kind));
  return ni->t;
}

static NodeInfo *I(Em *E, Node *n) {
  NodeInfo *ni = ksema_info(E->f, n);
  if (!ni) em_efail(E, n->loc, "internal: untyped %s", node_kind_name(n->kind));
  return ni;
}

KType em_kt(KKind k) { KType t = {0}; t.kind = k; return t; }

KKind em_kclass(KType t) {
  if (t.kind == K_VEC) return t.elem;
  return t.kind == K_BOOL ? K_INT : t.kind;
}

/* A complex value is emitted here: marks the code (Em.cplx); true when the dialect's complex
   numbers are structs, whose operators and casts are calls (EmDialect.cplx_fns). */
bool em_cfns(Em *E) {
  E->cplx = true;
  return E->D->cplx_fns;
}

/* ---- C types ---- */

const char *em_el_ctype(ElemType e) {
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

const char *em_ctype(Em *E, KType t) {
  switch (t.kind) {
  case K_BOOL: case K_INT: return "int32_t";
  case K_REAL: return "oq_real";
  case K_CPLX: em_cfns(E); return "oq_cplx";
  case K_VEC: return em_sf(E, "oqv_%c%d", t.elem == K_INT ? 'i' : 'r', t.len);
  case K_ARRAY:
    if (el_is_complex(t.el)) em_cfns(E);
    if (!E->arrdone[t.el][t.rank]) {
      E->arrdone[t.el][t.rank] = true;
      em_bprintf(&E->arrtypes, "typedef struct { %s *p; oq_ix d[%d]; } oqa_%d_%d;\n", em_el_ctype(t.el), t.rank,
              (int)t.el, t.rank);
    }
    return em_sf(E, "oqa_%d_%d", (int)t.el, t.rank);
  case K_TUPLE: return em_sf(E, "oqt_%d", t.tuple->id);
  default: return NULL;
  }
}

/* The start of a struct literal: a C compound literal, or a C++ braced temporary. */
char *em_lit_open(Em *E, const char *type) { return em_sf(E, E->D->lit_fmt, type); }

bool em_has_repr(KType t) { return t.kind != K_NONE && t.kind != K_FUNC; }

/* ---- names ---- */

char *em_slot_name(Em *E, FSpec *f, int slot) {
  const char *n = func_info(f->func)->slot_names[slot];
  char clean[64];
  int k = 0;
  for (const char *p = n; *p && k < 40; p++)
    clean[k++] = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ? *p : '_';
  clean[k] = 0;
  return em_sf(E, "v%d_%s", slot, clean);
}

/* The C lvalue of a slot of the function being emitted. */
char *em_slot_ref(Em *E, int slot) {
  if (E->konst && E->konst[slot]) return E->konst[slot];
  char *n = em_slot_name(E, E->f, slot);
  if (E->phases && E->sc[slot] == SC_LOCAL && !(E->pphase && E->pphase[slot])) return em_sf(E, "%s[_t]", n);
  return n;
}

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
  for (AstKids it = ast_kids(n); it.node; ast_next(&it)) konst_walk(it.node, k);
}

/* Reading such a local after its assignment always gives the literal; reading it before
   is an error in the interpreter, and compiled code gives the literal. */
void em_find_konst(Em *E, FSpec *f) {
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
      E->konst[s] = em_sf(E, "((int32_t)%lld)", (long long)c);
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
  if (isinf(x)) return x > 0 ? "((oq_real)INFINITY)" : "(-(oq_real)INFINITY)";
  return em_sf(E, "((oq_real)%.17g)", x);
}

/* An imaginary literal's coefficient (1e999i is Inf i; %.17g would print "inf"). */
static char *imag_lit(Em *E, double x) {
  em_cfns(E);
  if (x != x) return "oq_mkc(0, NAN)";
  if (isinf(x)) return x > 0 ? "oq_mkc(0, INFINITY)" : "oq_mkc(0, -INFINITY)";
  return em_sf(E, "oq_mkc(0, %.17g)", x);
}

/* e (of type from) converted to the number class `to` as the interpreter converts. */
char *em_conv(Em *E, char *e, KType from, KKind to) {
  KKind c = em_kclass(from);
  if (to == K_BOOL) to = K_INT;
  if (c == to) return e;
  /* complex to real or int takes the real part, as a C cast does */
  if (c == K_CPLX && em_cfns(E)) e = em_sf(E, "creal(%s)", e);
  switch (to) {
  case K_INT: return em_sf(E, "((int32_t)oq_trunc64((double)%s))", e);   /* only int() asks this */
  case K_REAL: return em_sf(E, "((oq_real)%s)", e);
  case K_CPLX:
    em_cfns(E);
    if (c == K_INT) return em_sf(E, "oq_mkc((double)%s, 0)", e);
    return em_sf(E, "oq_mkc(%s, 0)", e);
  default: return e;
  }
}

/* A vector value in a named temporary (so components can be read repeatedly). */
char *em_vname(Em *E, char *e, KType t) {
  bool simple = true;
  for (const char *p = e; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' ||
          *p == '[' || *p == ']'))
      simple = false;
  if (simple) return e;
  char *t0 = em_tmp(E);
  const char *ct = em_ctype(E, t);
  em_line(E, "%s %s = %s;", ct ? ct : "__auto_type", t0, e);
  return t0;
}

/* Component k of a vector-or-number value, as class `to`. */
static char *comp(Em *E, char *e, KType t, int k, KKind to) {
  if (t.kind == K_VEC) return em_conv(E, em_sf(E, "%s.v[%d]", e, k), em_kt(t.elem), to);
  return em_conv(E, e, t, to);
}

char *em_truthy(Em *E, char *e, KType t) {
  switch (t.kind) {
  case K_BOOL: return e;
  case K_INT: case K_REAL: return em_sf(E, "(%s != 0)", e);
  case K_CPLX: return em_sf(E, "oq_ctruthy(%s)", e);
  case K_VEC: {
    char *v = em_vname(E, e, t);
    Buf b = {0};
    em_bputs(&b, "(");
    for (int k = 0; k < t.len; k++) em_bprintf(&b, "%s%s.v[%d] != 0", k ? " && " : "", v, k);
    em_bputs(&b, ")");
    char *r = em_sf(E, "%s", b.s);
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

int em_div_site(Em *E, Node *at, KErrKind k) {
  KSpec *S = E->S;
  if (S->nsites == S->sitecap) {
    S->sitecap = S->sitecap ? 2 * S->sitecap : 8;
    S->sites = realloc(S->sites, S->sitecap * sizeof *S->sites);
  }
  S->sites[S->nsites] = (KSite){k, at->loc, NULL, NULL};
  return S->nsites++;
}

/* Complex a op b where complex numbers are structs (TinyCC, EmDialect.cplx_fns), which it
   copies by calling memmove: + - * are statements on the parts of named operands into a
   temporary (mandelbrot's loop ran 10x slower than GCC's with a call per operation). */
static char *tc_op(Em *E, Op op, char *x, char *y, Node *at) {
  const char *fn = NULL;
  switch (op) {
  case OP_ADD: fn = "add"; break;
  case OP_SUB: fn = "sub"; break;
  case OP_MUL: case OP_EMUL: fn = "mul"; break;
  case OP_DIV: case OP_EDIV: return em_sf(E, "oq_tc_div(%s, %s)", x, y);
  case OP_POW: case OP_EPOW: return em_sf(E, "oq_tc_pow(%s, %s)", x, y);
  default: em_efail(E, at->loc, "operator '%s' on complex numbers", op_name(op));
  }
  x = em_vname(E, x, em_kt(K_CPLX));
  y = em_vname(E, y, em_kt(K_CPLX));
  char *t0 = em_tmp(E);
  em_line(E, "oq_cplx %s; oq_tc_%s(%s, %s, %s);", t0, fn, t0, x, y);
  return t0;
}

/* Whether a / b, of class c, divides a float by a square root on a dialect with rsqrt_div:
   then it is a * rsqrtf(b's argument), as XLA computes it: one approximate reciprocal square
   root (CUDA's rsqrtf: within 2 ulps) and a product, where a correctly rounded root and
   division each expand to a dozen instructions with a slow path (the TV gradient's four made
   its kernel instruction-bound: bench/results/2026-11-27-h200-session15-tv20.txt). Every
   special value gives what the division gives (0, inf, NaN, negative arguments).
   y is b as map1 spelled it. docs/language.md, "Precision". */
static bool rsqrt_divisor(Em *E, Node *at, KKind c, const char *y) {
  if (!E->D->rsqrt_div || rt_config.double_precision || c != K_REAL || !at || at->kind != N_BINARY ||
      !at->b || at->b->kind != N_CALL)
    return false;
  NodeInfo *ni = ksema_info(E->f, at->b);
  return ni && ni->builtin == KB_SQRT && !strncmp(y, "sqrtf((float)", 13);
}

/* a op b on numbers of types ta, tb (not vectors). */
char *em_num_op(Em *E, Op op, char *a, KType ta, char *b, KType tb, Node *at) {
  KKind c = em_kclass(ta) > em_kclass(tb) ? em_kclass(ta) : em_kclass(tb);
  if (is_cmp(op)) {
    if (c == K_INT) return em_sf(E, "(%s %s %s)", a, cop(op), b);
    if (c == K_REAL) return em_sf(E, "((double)%s %s (double)%s)", a, cop(op), b);
    char *r = em_sf(E, "oq_ceq(%s, %s)", em_conv(E, a, ta, K_CPLX), em_conv(E, b, tb, K_CPLX));
    return op == OP_EQ ? r : em_sf(E, "(!%s)", r);
  }
  switch (op) {
  case OP_BAND: case OP_BOR: case OP_BXOR:
    return em_sf(E, "(%s %s %s)", em_kclass(ta) == K_INT ? a : em_sf(E, "((int32_t)oq_trunc64(%s))", a), cop(op),
              em_kclass(tb) == K_INT ? b : em_sf(E, "((int32_t)oq_trunc64(%s))", b));
  case OP_DIV: case OP_EDIV: case OP_POW: case OP_EPOW:
    if (c == K_INT) c = K_REAL;
    break;
  default: break;
  }
  char *x = em_conv(E, a, ta, c), *y = em_conv(E, b, tb, c);
  if (c == K_CPLX && em_cfns(E)) return tc_op(E, op, x, y, at);
  if (c == K_CPLX) {
    switch (op) {
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_EMUL: case OP_DIV: case OP_EDIV:
      return em_sf(E, "((oq_cplx)((oq_c128)%s %s (oq_c128)%s))", x, cop(op), y);
    case OP_POW: case OP_EPOW: return em_sf(E, "((oq_cplx)oq_cpow(%s, %s))", x, y);
    default: em_efail(E, at->loc, "operator '%s' on complex numbers", op_name(op));
    }
  }
  switch (op) {
  case OP_ADD: case OP_SUB: case OP_MUL: case OP_EMUL:
    if (c == K_INT && E->D->int_wrap_fns)
      return em_sf(E, "oq_w%s(%s, %s)", op == OP_ADD ? "add" : op == OP_SUB ? "sub" : "mul", x, y);
    return em_sf(E, "(%s %s %s)", x, cop(op), y);
  case OP_DIV: case OP_EDIV:
    if (rsqrt_divisor(E, at, c, y)) return em_sf(E, "(%s * r%s)", x, y);
    return em_sf(E, "(%s %s %s)", x, cop(op), y);
  case OP_POW: case OP_EPOW:
    /* x^2 of a float: the product is exact in double, so it is pow's result */
    if (!rt_config.double_precision && at && at->kind == N_BINARY && at->b && at->b->kind == N_INT && at->b->ival == 2)
      return em_sf(E, "((oq_real)((double)%s * (double)%s))", x, x);
    if (em_float_math(ta)) return em_sf(E, "powf((float)%s, (float)%s)", x, y);
    return em_sf(E, "((oq_real)pow((double)%s, (double)%s))", x, y);
  case OP_MOD:
    if (c == K_INT) return em_sf(E, "oq_imod(%s, %d, %s, %s)", E->L, em_div_site(E, at, KE_MODZERO), x, y);
    return em_sf(E, "oq_fmod(%s, %s)", x, y);
  case OP_MAX: return em_sf(E, c == K_INT ? "oq_imax(%s, %s)" : "oq_rmax(%s, %s)", x, y);
  case OP_MIN: return em_sf(E, c == K_INT ? "oq_imin(%s, %s)" : "oq_rmin(%s, %s)", x, y);
  default: em_efail(E, at->loc, "operator '%s' in compiled code", op_name(op));
  }
}

/* a op b where either may be a vector; r is the result type. */
static char *any_op(Em *E, Op op, char *a, KType ta, char *b, KType tb, KType r, Node *at) {
  if (ta.kind != K_VEC && tb.kind != K_VEC) return em_num_op(E, op, a, ta, b, tb, at);
  char *va = ta.kind == K_VEC ? em_vname(E, a, ta) : a, *vb = tb.kind == K_VEC ? em_vname(E, b, tb) : b;
  if (ta.kind != K_VEC && !strchr(va, ' ') && strchr(va, '(')) va = em_vname(E, va, ta);
  if (ta.kind == K_VEC && tb.kind == K_VEC && op == OP_MUL) {
    /* inner product, summed in double (or int64) as the runtime's matrix product */
    Buf s = {0};
    bool real = em_kclass(r) == K_REAL;
    for (int k = 0; k < ta.len; k++)
      em_bprintf(&s, "%s(%s)%s.v[%d] * (%s)%s.v[%d]", k ? " + " : "", real ? "double" : "int64_t", va, k,
              real ? "double" : "int64_t", vb, k);
    char *e = em_sf(E, "((%s)(%s))", em_ctype(E, r), s.s);
    free(s.s);
    return e;
  }
  char *t0 = em_tmp(E);
  em_line(E, "%s %s;", em_ctype(E, r), t0);
  int len = ta.kind == K_VEC ? ta.len : tb.len;
  KType ea = ta.kind == K_VEC ? em_kt(ta.elem) : ta, eb = tb.kind == K_VEC ? em_kt(tb.elem) : tb;
  for (int k = 0; k < len; k++) {
    char *x = ta.kind == K_VEC ? em_sf(E, "%s.v[%d]", va, k) : va;
    char *y = tb.kind == K_VEC ? em_sf(E, "%s.v[%d]", vb, k) : vb;
    em_line(E, "%s.v[%d] = %s;", t0, k, em_num_op(E, op, x, ea, y, eb, at));
  }
  return t0;
}

/* ---- expressions ---- */


/* Emits n into a separate buffer; *pre gets the statements it needed (NULL when none). */
static char *ex_apart(Em *E, Node *n, char **pre) {
  Buf *saved = E->b, b = {0};
  int ind = E->ind;
  E->b = &b;
  E->ind = 1;
  char *e = em_ex(E, n);
  E->b = saved;
  E->ind = ind;
  *pre = b.len ? em_sf(E, "%s", b.s) : NULL;
  free(b.s);
  return e;
}

void em_put_pre(Em *E, const char *pre) {
  /* pre was written at indentation 1; re-indent each line */
  const char *p = pre;
  while (*p) {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    while (n && *p == ' ') { p++; n--; }
    for (int i = 0; i < E->ind; i++) em_bputs(E->b, "  ");
    bput(E->b, p, n);
    em_bputs(E->b, "\n");
    p += n + (nl ? 1 : 0);
  }
}

static char *ex_logic(Em *E, Node *n) {
  char *a = em_truthy(E, em_ex(E, n->a), em_T(E, n->a)), *pre;
  char *b = ex_apart(E, n->b, &pre);
  b = em_truthy(E, b, em_T(E, n->b));
  if (!pre) return em_sf(E, "(%s %s %s)", a, n->op == OP_AND ? "&&" : "||", b);
  char *t0 = em_tmp(E);
  em_line(E, "int32_t %s = %s;", t0, a);
  em_line(E, "if (%s%s) {", n->op == OP_AND ? "" : "!", t0);
  E->ind++;
  em_put_pre(E, pre);
  em_line(E, "%s = %s;", t0, b);
  E->ind--;
  em_line(E, "}");
  return t0;
}

static char *ex_cond(Em *E, Node *n) {
  KType r = em_T(E, n);
  char *c = em_truthy(E, em_ex(E, n->a), em_T(E, n->a)), *pa, *pb;
  char *a = ex_apart(E, n->b, &pa), *b = ex_apart(E, n->c, &pb);
  KType ta = em_T(E, n->b), tb = em_T(E, n->c);
  if (r.kind == K_VEC) {
    char *t0 = em_tmp(E);
    em_line(E, "%s %s;", em_ctype(E, r), t0);
    em_line(E, "if (%s) {", c);
    E->ind++;
    if (pa) em_put_pre(E, pa);
    for (int k = 0; k < r.len; k++) em_line(E, "%s.v[%d] = %s;", t0, k, comp(E, a, ta, k, r.elem));
    E->ind--;
    em_line(E, "} else {");
    E->ind++;
    if (pb) em_put_pre(E, pb);
    for (int k = 0; k < r.len; k++) em_line(E, "%s.v[%d] = %s;", t0, k, comp(E, b, tb, k, r.elem));
    E->ind--;
    em_line(E, "}");
    return t0;
  }
  a = em_conv(E, a, ta, r.kind);
  b = em_conv(E, b, tb, r.kind);
  if (!pa && !pb) return em_sf(E, "(%s ? %s : %s)", c, a, b);
  char *t0 = em_tmp(E);
  em_line(E, "%s %s;", em_ctype(E, r), t0);
  em_line(E, "if (%s) {", c);
  E->ind++;
  if (pa) em_put_pre(E, pa);
  em_line(E, "%s = %s;", t0, a);
  E->ind--;
  em_line(E, "} else {");
  E->ind++;
  if (pb) em_put_pre(E, pb);
  em_line(E, "%s = %s;", t0, b);
  E->ind--;
  em_line(E, "}");
  return t0;
}

char *em_ex_ident(Em *E, Node *n) {
  NodeInfo *ni = I(E, n);
  if (!em_has_repr(ni->t)) return "0";
  if (n->slot < 0) {
    const Global *g = n->aux;
    if (g->value.kind == V_SCALAR) return real_lit(E, g->value.s);
    return em_sf(E, "%lld", (long long)g->value.i);
  }
  if (ni->cap >= 0) return E->f->is_kernel ? em_sf(E, "cap%d", ni->cap) : em_sf(E, "cx->cap%d", ni->cap);
  if (n->depth > 0) em_efail(E, n->loc, "internal: enclosing variable '%s'", n->name);
  return em_slot_ref(E, n->slot);
}

static char *ex_unary(Em *E, Node *n) {
  KType t = em_T(E, n->a), r = em_T(E, n);
  char *a = em_ex(E, n->a);
  if (n->op == OP_NOT) return em_sf(E, "(!%s)", em_truthy(E, a, t));
  if (n->op == OP_PLUS) return a;
  if (t.kind == K_VEC) {
    char *v = em_vname(E, a, t), *t0 = em_tmp(E);
    em_line(E, "%s %s;", em_ctype(E, r), t0);
    bool wrap = t.elem == K_INT && E->D->int_wrap_fns;
    for (int k = 0; k < t.len; k++) em_line(E, wrap ? "%s.v[%d] = oq_wneg(%s.v[%d]);" : "%s.v[%d] = -%s.v[%d];", t0, k, v, k);
    return t0;
  }
  bool small_lit = n->a->kind == N_INT && n->a->ival > INT32_MIN && n->a->ival <= INT32_MAX;
  if (em_kclass(t) == K_INT && E->D->int_wrap_fns && !small_lit) return em_sf(E, "oq_wneg(%s)", a);
  if (em_kclass(t) == K_CPLX && em_cfns(E)) {
    char *v = em_vname(E, a, t), *t0 = em_tmp(E);
    em_line(E, "oq_cplx %s; oq_tc_neg(%s, %s);", t0, t0, v);
    return t0;
  }
  return em_sf(E, "(-%s)", a);
}

static char *ex_binary(Em *E, Node *n) {
  if (n->op == OP_AND || n->op == OP_OR) return ex_logic(E, n);
  char *a = em_ex(E, n->a), *b = em_ex(E, n->b);
  return any_op(E, n->op, a, em_T(E, n->a), b, em_T(E, n->b), em_T(E, n), n);
}

/* Range bounds as C expressions (ints or reals). */
char *em_ex_range_value(Em *E, Node *n) {
  KType r = em_T(E, n);
  bool colon = n->kind == N_COLON;   /* an index ':' of known length: 0, 1, ... */
  char *a = colon ? "0" : em_ex(E, n->a), *s = n->b ? em_ex(E, n->b) : "1";
  KType ta = colon ? em_kt(K_INT) : em_T(E, n->a), ts = n->b ? em_T(E, n->b) : em_kt(K_INT);
  char *t0 = em_tmp(E);
  em_line(E, "%s %s;", em_ctype(E, r), t0);
  for (int k = 0; k < r.len; k++) {
    if (r.elem == K_INT && E->D->int_wrap_fns) em_line(E, "%s.v[%d] = oq_wadd(%s, oq_wmul(%d, %s));", t0, k, a, k, s);
    else if (r.elem == K_INT) em_line(E, "%s.v[%d] = (int32_t)(%s + %d * %s);", t0, k, a, k, s);
    else em_line(E, "%s.v[%d] = (oq_real)((double)%s + (double)%d * (double)%s);", t0, k, em_conv(E, a, ta, K_REAL), k,
              em_conv(E, s, ts, K_REAL));
  }
  return t0;
}

static char *ex_matrix(Em *E, Node *n) {
  KType r = em_T(E, n);
  char *t0 = em_tmp(E);
  char **el = calloc(n->list.n, sizeof *el);
  for (int i = 0; i < n->list.n; i++) {
    el[i] = em_ex(E, n->list.items[i]);
    if (em_T(E, n->list.items[i]).kind == K_VEC) el[i] = em_vname(E, el[i], em_T(E, n->list.items[i]));
  }
  em_line(E, "%s %s;", em_ctype(E, r), t0);
  int k = 0;
  for (int i = 0; i < n->list.n; i++) {
    KType t = em_T(E, n->list.items[i]);
    if (t.kind == K_VEC) {
      for (int j = 0; j < t.len; j++) em_line(E, "%s.v[%d] = %s;", t0, k++, comp(E, el[i], t, j, r.elem));
    } else {
      em_line(E, "%s.v[%d] = %s;", t0, k++, em_conv(E, el[i], t, r.elem));
    }
  }
  free(el);
  return t0;
}

/* ---- built-in functions ---- */


/* Whether a math function of an operand of type t computes in float (cosf, expf, powf, ...):
   a single-precision real operand (not an int, whose value may not be a float's), as
   without --precision double. The interpreter computes in double and rounds: the two agree
   within an ulp or two of float (docs/language.md, "Precision of math functions"). */
bool em_float_math(KType t) {
  return !rt_config.double_precision && em_kclass(t) == K_REAL;
}

static char *math_real(Em *E, const char *fn, char *x, KType t) {
  if (em_float_math(t)) return em_sf(E, "%sf((float)%s)", fn, x);
  return em_sf(E, "((oq_real)%s((double)%s))", fn, x);
}

static char *map1(Em *E, int id, char *a, KType t, KKind rc, Node *at) {
  KKind c = em_kclass(t);
  bool dp = rt_config.double_precision;
  static const struct { int id; const char *fn, *cfn; } m[] = {
    {KB_EXP, "exp", "cexp"}, {KB_LOG, "log", "clog"}, {KB_LOG2, "log2", NULL}, {KB_LOG10, "log10", NULL},
    {KB_SIN, "sin", "csin"}, {KB_COS, "cos", "ccos"}, {KB_TAN, "tan", "ctan"}, {KB_ASIN, "asin", NULL},
    {KB_ACOS, "acos", NULL}, {KB_ATAN, "atan", NULL}, {KB_SINH, "sinh", "csinh"}, {KB_COSH, "cosh", "ccosh"},
    {KB_TANH, "tanh", "ctanh"}, {KB_SQRT, "sqrt", "csqrt"},
  };
  for (size_t i = 0; i < sizeof m / sizeof *m; i++)
    if (m[i].id == id) {
      if (c == K_CPLX && em_cfns(E)) return em_sf(E, "oq_tc_%s(%s)", m[i].cfn, a);
      if (c == K_CPLX) return em_sf(E, "((oq_cplx)%s((oq_c128)%s))", m[i].cfn, a);
      if (id == KB_SQRT) return em_sf(E, dp ? "sqrt((double)%s)" : "sqrtf((float)%s)", a);
      return math_real(E, m[i].fn, a, t);
    }
  switch (id) {
  case KB_ABS:
    if (c == K_INT) return em_sf(E, "oq_iabs(%s)", a);
    if (c == K_REAL) return em_sf(E, dp ? "fabs(%s)" : "fabsf(%s)", a);
    if (em_cfns(E)) return em_sf(E, "((oq_real)oq_tc_cabs(%s))", em_vname(E, a, t));
    return em_sf(E, "((oq_real)cabs((oq_c128)%s))", a);
  case KB_FLOOR: case KB_CEIL: case KB_ROUND:
    if (c == K_INT) return a;
    return em_sf(E, "%s%s(%s)", id == KB_FLOOR ? "floor" : id == KB_CEIL ? "ceil" : "round", dp ? "" : "f", a);
  case KB_FRAC:
    if (c == K_INT) return "0";
    return em_sf(E, "((oq_real)((double)%s - floor((double)%s)))", a, a);
  case KB_SIGN:
    if (c == K_INT) return em_sf(E, "((%s > 0) - (%s < 0))", a, a);
    return em_sf(E, "oq_rsign(%s)", a);
  case KB_FLOAT: return em_conv(E, a, t, K_REAL);
  case KB_INT:
    if (c == K_INT) return a;
    return em_sf(E, "((int32_t)oq_trunc64((double)%s))", a);
  case KB_NOT:
    if (c == K_INT) return em_sf(E, "(~%s)", a);
    return em_sf(E, "(~(int32_t)oq_trunc64((double)%s))", a);
  case KB_REAL: return c == K_CPLX ? em_sf(E, "((oq_real)creal(%s))", a) : a;
  case KB_IMAG: return c == K_CPLX ? em_sf(E, "((oq_real)cimag(%s))", a) : (c == K_INT ? "0" : "((oq_real)0)");
  case KB_CONJ:
    if (c == K_CPLX && em_cfns(E)) {
      char *v = em_vname(E, a, t), *t0 = em_tmp(E);
      em_line(E, "oq_cplx %s; oq_tc_conj(%s, %s);", t0, t0, v);
      return t0;
    }
    return c == K_CPLX ? em_sf(E, "((oq_cplx)conj(%s))", a) : a;
  case KB_ANGLE:
    if (c == K_CPLX && em_cfns(E)) return em_sf(E, "((oq_real)oq_tc_carg(%s))", a);
    if (c == K_CPLX) return em_sf(E, "((oq_real)carg((oq_c128)%s))", a);
    return em_sf(E, "((oq_real)atan2(0.0, (double)%s))", a);
  case KB_ISNAN: case KB_ISINF: case KB_ISFINITE: {
    const char *fn = id == KB_ISNAN ? "isnan" : id == KB_ISINF ? "isinf" : "isfinite";
    if (c == K_INT) return id == KB_ISFINITE ? "1" : "0";
    if (c == K_REAL) return em_sf(E, "(%s(%s) != 0)", fn, a);
    if (id == KB_ISFINITE) return em_sf(E, "(isfinite(creal(%s)) && isfinite(cimag(%s)))", a, a);
    return em_sf(E, "(%s(creal(%s)) || %s(cimag(%s)))", fn, a, fn, a);
  }
  default: break;
  }
  (void)rc;
  em_efail(E, at->loc, "internal: built-in %d", id);
}

static char *vec_reduce(Em *E, int id, char *a, KType t, KType r) {
  if (t.kind != K_VEC) {
    if (id == KB_MEAN) return em_conv(E, a, t, K_REAL);
    return a;
  }
  char *v = em_vname(E, a, t);
  Buf b = {0};
  char *res;
  if (id == KB_MIN || id == KB_MAX) {
    char *m = em_tmp(E);
    em_line(E, "%s %s = %s.v[0];", em_ctype(E, r), m, v);
    for (int k = 0; k < t.len; k++) {
      if (t.elem == K_INT) em_line(E, "if (%s.v[%d] %s %s) %s = %s.v[%d];", v, k, id == KB_MIN ? "<" : ">", m, m, v, k);
      else em_line(E, "if (%s != %s || %s.v[%d] %s %s) %s = %s.v[%d];", m, m, v, k, id == KB_MIN ? "<" : ">", m, m, v, k);
    }
    return m;
  }
  bool real = t.elem == K_REAL || id == KB_MEAN;
  /* an int product of three or more components may pass int64: unsigned where that is UB */
  const char *acc = real ? "double" : E->D->int_wrap_fns && id == KB_PROD ? "uint64_t" : "int64_t";
  em_bputs(&b, id == KB_PROD ? (real ? "1.0" : "(int64_t)1") : (real ? "0.0" : "(int64_t)0"));
  for (int k = 0; k < t.len; k++) {
    char *prev = em_sf(E, "%s", b.s);
    b.len = 0;
    em_bprintf(&b, "(%s %s (%s)%s.v[%d])", prev, id == KB_PROD ? "*" : "+", acc, v, k);
  }
  if (id == KB_MEAN) res = em_sf(E, "((oq_real)(%s / %d.0))", b.s, t.len);
  else res = em_sf(E, "((%s)%s)", em_ctype(E, r), b.s);
  free(b.s);
  return res;
}

static char *dims_vec(Em *E, char *a, KType t) {
  /* the sizes of a value as size() gives them */
  char *t0 = em_tmp(E);
  if (t.kind == K_ARRAY) {
    em_line(E, "oqv_i%d %s;", t.rank, t0);
    for (int d = 0; d < t.rank; d++) em_line(E, "%s.v[%d] = (int32_t)%s;", t0, d, em_adim(E, a, t, d));
  } else if (t.kind == K_VEC) {
    em_line(E, "oqv_i1 %s = {{%d}};", t0, t.len);
  } else {
    em_line(E, "oqv_i2 %s = {{1, 1}};", t0);
  }
  return t0;
}

static char *dim_of(Em *E, char *a, KType t, char *d) {
  char *end;
  long long cd = strtoll(d, &end, 10);
  if (t.kind == K_ARRAY && t.cdims && *d && !*end && cd >= 0) return em_sf(E, "(int32_t)%s", em_adim(E, a, t, (int)cd));
  if (t.kind == K_ARRAY) return em_sf(E, "((int32_t)oq_dim(%s.d, %d, %s))", a, t.rank, d);
  if (t.kind == K_VEC) return em_sf(E, "((%s) == 0 ? %d : 1)", d, t.len);
  return "1";
}

static char *ex_size(Em *E, Node *n, char **a, KType *t) {
  char *x = t[0].kind == K_ARRAY || t[0].kind == K_VEC ? em_vname(E, a[0], t[0]) : a[0];
  if (n->list.n == 1) return dims_vec(E, x, t[0]);
  KType r = em_T(E, n);
  if (r.kind == K_VEC) {
    char *dv = em_vname(E, a[1], t[1]), *t0 = em_tmp(E);
    em_line(E, "%s %s;", em_ctype(E, r), t0);
    for (int k = 0; k < r.len; k++)
      em_line(E, "%s.v[%d] = %s;", t0, k, dim_of(E, x, t[0], em_idx64(E, em_sf(E, "%s.v[%d]", dv, k), em_kt(t[1].elem))));
    return t0;
  }
  return dim_of(E, x, t[0], em_idx64(E, a[1], t[1]));
}

static char *ex_numel(Em *E, char *a, KType t) {
  if (t.kind == K_VEC) return em_sf(E, "%d", t.len);
  if (t.kind != K_ARRAY) return "1";
  char *x = em_vname(E, a, t);
  Buf b = {0};
  for (int d = 0; d < t.rank; d++) em_bprintf(&b, "%s%s", d ? " * " : "", em_adim(E, x, t, d));
  char *r = em_sf(E, "((int32_t)(%s))", b.s);
  free(b.s);
  return r;
}

/* A number or vector as a list of int64 components (for pos2ind/ind2pos). */
static int int_parts(Em *E, char *a, KType t, char **out) {
  if (t.kind != K_VEC) { out[0] = em_idx64(E, a, t); return 1; }
  char *v = em_vname(E, a, t);
  for (int k = 0; k < t.len; k++)
    out[k] = t.elem == K_INT ? em_sf(E, "(int64_t)%s.v[%d]", v, k) : em_sf(E, "oq_trunc64((double)%s.v[%d])", v, k);
  return t.len;
}

static char *ex_pos2ind(Em *E, char **a, KType *t) {
  char *d[K_MAX_VEC], *p[K_MAX_VEC];
  int nd = int_parts(E, a[0], t[0], d), np = int_parts(E, a[1], t[1], p);
  int n = nd > np ? nd : np;
  char *acc = E->D->int_wrap_fns ? "(uint64_t)0" : "(int64_t)0";   /* huge sizes wrap, without UB */
  for (int k = 0; k < n; k++)
    acc = em_sf(E, "(%s * %s + %s)", acc, k < nd ? d[k] : "1", k < np ? p[k] : "0");
  return em_sf(E, "((int32_t)%s)", acc);
}

static char *ex_ind2pos(Em *E, char **a, KType *t, KType r) {
  char *d[K_MAX_VEC];
  int nd = int_parts(E, a[0], t[0], d);
  char *ind = em_tmp(E), *t0 = em_tmp(E);
  em_line(E, "int64_t %s = %s;", ind, em_idx64(E, a[1], t[1]));
  em_line(E, "%s %s;", em_ctype(E, r), t0);
  for (int k = nd - 1; k > 0; k--) {
    char *dk = em_tmp(E);
    em_line(E, "int64_t %s = %s;", dk, d[k]);
    em_line(E, "%s.v[%d] = (int32_t)(%s > 0 ? %s %% %s : 0);", t0, k, dk, ind, dk);
    em_line(E, "%s = %s > 0 ? %s / %s : 0;", ind, dk, ind, dk);
  }
  em_line(E, "%s.v[0] = (int32_t)%s;", t0, ind);
  return t0;
}

static char *ex_shared(Em *E, Node *n, char **a, KType *t) {
  NodeInfo *ni = I(E, n);
  KType r = ni->t;
  int k = ni->site;
  char *sh = em_sf(E, "sh%d", k);
  if (E->D->shared_needs_barrier && (!E->S->barrier || E->f != E->S->kspec))
    em_efail(E, n->loc, "shared memory without syncthreads in the kernel is not compiled for %s", E->D->name);
  char *dims[OQ_MAX_RANK];
  int rank = 0;
  for (int i = 0; i < n->list.n; i++) {
    if (t[i].kind == K_VEC) {
      char *v = em_vname(E, a[i], t[i]);
      for (int j = 0; j < t[i].len; j++) dims[rank++] = em_sf(E, "(int64_t)%s.v[%d]", v, j);
    } else {
      dims[rank++] = em_idx64(E, a[i], t[i]);
    }
  }
  Buf dl = {0}, same = {0};
  for (int d = 0; d < rank; d++) {
    em_bprintf(&dl, "%s%s", d ? ", " : "", dims[d]);
    em_bprintf(&same, "%s%s.d[%d] == %s", d ? " && " : "", sh, d, dims[d]);
  }
  char *dv = em_tmp(E);
  em_line(E, "const int64_t %s[%d] = {%s};", dv, rank, dl.s);
  E->D->shared_alloc(E, n, k, sh, rank, dv, same.s);
  free(dl.s);
  free(same.s);
  (void)r;
  return sh;
}

static char *ex_builtin(Em *E, Node *n, int id) {
  int argc = n->list.n;
  char *a[OQ_MAX_RANK + 2] = {0};   /* (GCC cannot see that argc covers the reads) */
  KType t[OQ_MAX_RANK + 2];
  KType r = em_T(E, n);
  for (int i = 0; i < argc; i++) {
    a[i] = em_ex(E, n->list.items[i]);
    t[i] = em_T(E, n->list.items[i]);
  }
  switch (id) {
  case KB_ZEROS: {
    char *t0 = em_tmp(E);
    em_line(E, "%s %s = {0};", em_ctype(E, r), t0);
    return t0;
  }
  case KB_SHARED: return ex_shared(E, n, a, t);
  case KB_ASSERT:
    em_line(E, "if (!%s) oq_fail(%s, %d);", em_truthy(E, a[0], t[0]), E->L, I(E, n)->site);
    return "0";
  case KB_NUMEL: return ex_numel(E, a[0], t[0]);
  case KB_NDIMS: return em_sf(E, "%d", t[0].kind == K_ARRAY ? t[0].rank : t[0].kind == K_VEC ? 1 : 2);
  case KB_SIZE: return ex_size(E, n, a, t);
  case KB_POS2IND: return ex_pos2ind(E, a, t);
  case KB_IND2POS: return ex_ind2pos(E, a, t, r);
  case KB_SUM: case KB_PROD: case KB_MEAN: return vec_reduce(E, id, a[0], t[0], r);
  case KB_MIN: case KB_MAX:
    if (argc == 1) return vec_reduce(E, id, a[0], t[0], r);
    return any_op(E, id == KB_MIN ? OP_MIN : OP_MAX, a[0], t[0], a[1], t[1], r, n);
  case KB_CLAMP: {
    KType lo = r;
    if (t[0].kind != K_VEC && t[1].kind != K_VEC) lo = em_kt(em_kclass(t[0]) > em_kclass(t[1]) ? em_kclass(t[0]) : em_kclass(t[1]));
    else lo.elem = em_kclass(t[0]) > em_kclass(t[1]) ? em_kclass(t[0]) : em_kclass(t[1]);
    char *m = any_op(E, OP_MAX, a[0], t[0], a[1], t[1], lo, n);
    return any_op(E, OP_MIN, m, lo, a[2], t[2], r, n);
  }
  case KB_MOD: return any_op(E, OP_MOD, a[0], t[0], a[1], t[1], r, n);
  case KB_POW: return any_op(E, OP_EPOW, a[0], t[0], a[1], t[1], r, n);
  case KB_DOTPROD: return any_op(E, OP_MUL, a[0], t[0], a[1], t[1], r, n);
  case KB_AND: return any_op(E, OP_BAND, a[0], t[0], a[1], t[1], r, n);
  case KB_OR: return any_op(E, OP_BOR, a[0], t[0], a[1], t[1], r, n);
  case KB_XOR: return any_op(E, OP_BXOR, a[0], t[0], a[1], t[1], r, n);
  case KB_SHL: case KB_SHR: {
    if (t[0].kind == K_VEC || t[1].kind == K_VEC) em_efail(E, n->loc, "shl/shr of vectors");
    char *x = em_idx64(E, a[0], t[0]), *y = em_idx64(E, a[1], t[1]);
    return em_sf(E, "((int32_t)oq_shift(%s, %s, %d))", x, y, id == KB_SHL);
  }
  case KB_ATAN2:
    if (em_float_math(t[0]) && em_float_math(t[1])) return em_sf(E, "atan2f((float)%s, (float)%s)", a[0], a[1]);
    return em_sf(E, "((oq_real)atan2((double)%s, (double)%s))", a[0], a[1]);
  case KB_COMPLEX:
    em_cfns(E);
    return em_sf(E, "oq_mkc((double)%s, (double)%s)", a[0], argc > 1 ? a[1] : "0");
  default:
    if (t[0].kind == K_VEC) {
      char *v = em_vname(E, a[0], t[0]), *t0 = em_tmp(E);
      em_line(E, "%s %s;", em_ctype(E, r), t0);
      for (int k = 0; k < t[0].len; k++)
        em_line(E, "%s.v[%d] = %s;", t0, k, map1(E, id, em_sf(E, "%s.v[%d]", v, k), em_kt(t[0].elem), r.elem, n));
      return t0;
    }
    return map1(E, id, a[0], t[0], em_kclass(r), n);
  }
}

/* ---- cooperative groups ---- */

/* The threads of a launch block (an int32 expression of its size). */
char *em_block_threads(Em *E) {
  Buf b = {0};
  for (int d = 0; d < E->S->D; d++) em_bprintf(&b, "%sb%d", d ? " * " : "", d);
  char *r = em_sf(E, "((int32_t)(%s))", b.s);
  free(b.s);
  return r;
}

char *em_warp_lane(Em *E, char *lin) { return em_sf(E, "((%s) & 31)", lin); }

/* The threads of the thread's warp: 32, fewer in a block's last partial warp. */
char *em_warp_size(Em *E, char *lin) {
  char *rest = em_sf(E, "(%s - ((%s) & ~31))", em_block_threads(E), lin);
  return em_sf(E, "(%s < 32 ? %s : 32)", rest, rest);
}

/* g.thread_idx and g.size (g: coalesced_threads, the thread's warp, or this_thread_block);
   g's value is the thread's linear index in its block (emit_kernel.c). Collectives are
   the CUDA dialect's (S->coop). */
static char *ex_group(Em *E, Node *n) {
  bool warp;
  GroupOp op = group_op(n, &warp);
  Node *fld = n->kind == N_CALL ? n->a : n;
  char *lin = em_ex_ident(E, fld->a);
  if (op == G_THREAD_IDX) return warp ? em_warp_lane(E, lin) : lin;
  if (op == G_SIZE) return warp ? em_warp_size(E, lin) : em_block_threads(E);
  if (!E->D->collective) em_efail(E, n->loc, "internal: a warp collective in %s", E->D->name);
  return E->D->collective(E, n, op, lin);
}

/* ---- calls to device functions ---- */

static char *ex_call(Em *E, Node *n) {
  if (n->a->kind == N_FIELD) return ex_group(E, n);
  NodeInfo *ni = I(E, n);
  if (ni->builtin) return ex_builtin(E, n, ni->builtin);
  FSpec *g = ni->callee;
  if (!g) em_efail(E, n->loc, "internal: call without a target");
  Buf args = {0};
  em_bputs(&args, "cx");
  for (int i = 0; i < n->list.n; i++) {
    KType want = g->params[i], have = em_T(E, n->list.items[i]);
    char *a = em_ex(E, n->list.items[i]);
    if (!em_has_repr(want)) continue;
    if (want.kind == K_VEC && have.kind == K_VEC && want.elem != have.elem) {
      char *v = em_vname(E, a, have), *t0 = em_tmp(E);
      em_line(E, "%s %s;", em_ctype(E, want), t0);
      for (int k = 0; k < want.len; k++) em_line(E, "%s.v[%d] = %s;", t0, k, comp(E, v, have, k, want.elem));
      a = t0;
    } else if (want.kind != K_VEC && want.kind != K_ARRAY) {
      a = em_conv(E, a, have, want.kind);
    }
    em_bprintf(&args, ", %s", a);
  }
  char *call = em_sf(E, "oqf%d(%s)", g->id, args.s);
  free(args.s);
  if (!em_has_repr(g->result)) {
    em_line(E, "%s;", call);
    return "0";
  }
  char *t0 = em_tmp(E);
  em_line(E, "%s %s = %s;", em_ctype(E, g->result), t0, call);
  return t0;
}

/* A small array where a vector is wanted: its elements read into one. */
char *em_ex(Em *E, Node *n) {
  char *e = ex_node(E, n);
  NodeInfo *ni = ksema_info(E->f, n);
  if (!ni || !ni->as_vec) return e;
  char *a = em_vname(E, e, em_kt(K_NONE)), *t0 = em_tmp(E);
  KType v = ni->t;
  em_line(E, "%s %s;", em_ctype(E, v), t0);
  for (int k = 0; k < v.len; k++)
    em_line(E, "%s.v[%d] = (%s)%s.p[%d];", t0, k, v.elem == K_INT ? "int32_t" : "oq_real", a, k);
  return t0;
}

static char *ex_node(Em *E, Node *n) {
  switch (n->kind) {
  case N_INT: return em_sf(E, "%lld", (long long)n->ival);
  case N_REAL: return real_lit(E, n->rval);
  case N_IMAG: return imag_lit(E, n->rval);
  case N_IDENT: return em_ex_ident(E, n);
  case N_UNARY: return ex_unary(E, n);
  case N_BINARY: return ex_binary(E, n);
  case N_RANGE: case N_COLON: return em_ex_range_value(E, n);
  case N_COND: return ex_cond(E, n);
  case N_CALL: return ex_call(E, n);
  case N_FIELD: return ex_group(E, n);
  case N_INDEX: return em_index_read(E, n);
  case N_MATRIX: return ex_matrix(E, n);
  case N_LAMBDA: return "0";
  case N_EXCHANGE: return em_ex_exchange(E, n);
  case N_ASSIGN: {
    char *r = NULL;
    st_assign(E, n, true, &r);
    return r ? r : "0";
  }
  default: em_efail(E, n->loc, "internal: %s", node_kind_name(n->kind));
  }
}

/* ---- statements ---- */

void em_loc_comment(Em *E, Node *n) {
  const char *path = n->loc.file && n->loc.file->path ? n->loc.file->path : "?";
  const char *base = strrchr(path, '/');
  em_line(E, "/* %s:%d */", base ? base + 1 : path, n->loc.line);
}

/* Stores v into a local slot, converting to the slot's type. */
static void store_slot(Em *E, int slot, char *v, KType vt) {
  KType st_ = E->f->slots[slot];
  if (!em_has_repr(st_)) return;
  if (E->konst && E->konst[slot]) return;   /* a constant: its reads use the literal */
  char *lv = em_slot_ref(E, slot);
  if (st_.kind == K_VEC) {
    if (vt.kind == K_VEC && vt.elem == st_.elem) { em_line(E, "%s = %s;", lv, v); return; }
    char *x = em_vname(E, v, vt);
    for (int k = 0; k < st_.len; k++) em_line(E, "%s.v[%d] = %s;", lv, k, comp(E, x, vt, k, st_.elem));
    return;
  }
  if (st_.kind == K_ARRAY || st_.kind == K_TUPLE) { em_line(E, "%s = %s;", lv, v); return; }
  if (st_.kind == K_BOOL) { em_line(E, "%s = %s;", lv, em_truthy(E, v, vt)); return; }
  if (st_.kind == K_CPLX && em_cfns(E)) {   /* by part: TinyCC copies a struct with memmove */
    char *x = em_vname(E, em_conv(E, v, vt, K_CPLX), em_kt(K_CPLX));
    em_line(E, "%s.re = %s.re; %s.im = %s.im;", lv, x, lv, x);
    return;
  }
  em_line(E, "%s = %s;", lv, em_conv(E, v, vt, st_.kind));
}

/* The value of a declared conversion (x : T = v): bool declarations take truthiness. */
static char *decl_conv(Em *E, Node *n, char *v, KType vt) {
  if (n->type && n->type->kind == TY_BOOL) return em_truthy(E, v, vt);
  return v;
}

static void assign_target(Em *E, Node *n, Node *t, char *v, KType vt, bool want, char **res) {
  if (t->kind == N_INDEX) {
    char *r = em_index_store(E, n, t, n->op, v, vt, want);
    if (res) *res = r;
    return;
  }
  int slot = t->slot;
  if (n->op == OP_NONE) {
    store_slot(E, slot, decl_conv(E, n, v, vt), vt);
  } else {
    KType old = E->f->slots[slot], r = em_T(E, n);
    char *o = em_slot_ref(E, slot);
    bool intlike = em_kclass(old) == K_INT && em_kclass(vt) == K_INT && old.kind != K_VEC && vt.kind != K_VEC;
    char *nv;
    if (intlike && (n->op == OP_DIV || n->op == OP_EDIV))
      nv = em_sf(E, "oq_idiv(%s, %d, %s, %s)", E->L, em_div_site(E, n, KE_DIVZERO), o, v);
    else if (intlike && (n->op == OP_POW || n->op == OP_EPOW))
      nv = em_sf(E, "oq_ipow(%s, %s)", o, v);
    else {
      KType rr = r;
      if (rr.kind != K_VEC) rr = em_kt((KKind)I(E, n)->builtin);
      nv = any_op(E, n->op, o, old, v, vt, rr, n);
      r = rr;
    }
    store_slot(E, slot, nv, r);
  }
  if (res) *res = em_slot_ref(E, slot);
}

static void st_assign(Em *E, Node *n, bool want, char **res) {
  if (!n->b) {
    Node *t = n->list.items[0];
    store_slot(E, t->slot, "0", em_kt(K_INT));
    return;
  }
  if (n->list.n == 1) {
    Node *t = n->list.items[0];
    if (t->kind == N_IDENT && !em_has_repr(E->f->slots[t->slot])) return;   /* function values */
    char *v = em_ex(E, n->b);
    assign_target(E, n, t, v, em_T(E, n->b), want, res);
    return;
  }
  int count = n->list.n;
  char **vals = calloc(count, sizeof *vals);
  KType *types = calloc(count, sizeof *types);
  if (n->b->kind == N_MATRIX && n->b->list.n == count) {
    for (int i = 0; i < count; i++) {
      types[i] = em_T(E, n->b->list.items[i]);
      char *v = em_ex(E, n->b->list.items[i]);
      char *t0 = em_tmp(E);
      em_line(E, "%s %s = %s;", em_ctype(E, types[i]), t0, v);
      vals[i] = t0;
    }
  } else {
    KType vt = em_T(E, n->b);
    char *v = em_vname(E, em_ex(E, n->b), vt);
    for (int i = 0; i < count; i++) {
      if (vt.kind == K_VEC) { vals[i] = em_sf(E, "%s.v[%d]", v, i); types[i] = em_kt(vt.elem); }
      else {
        FSpec *g = vt.tuple;
        vals[i] = em_sf(E, "%s.o%d", v, i);
        types[i] = g->slots[g->func->ngenerics + g->func->nparams + i];
      }
    }
  }
  for (int i = 0; i < count; i++) assign_target(E, n, n->list.items[i], vals[i], types[i], false, NULL);
  free(vals);
  free(types);
}

bool em_is_barrier_stmt(Node *n) { return is_barrier(barrier_stmt_kind(n)); }

bool em_is_grid_barrier(Node *n) { return barrier_stmt_kind(n) == BK_GRID; }

static bool is_memfence_stmt(Node *n) { return barrier_stmt_kind(n) == BK_FENCE; }

static void err_check_loop(Em *E) {
  if (E->S->nsites) em_line(E, "if (__atomic_load_n(&%s->err, __ATOMIC_RELAXED)) break;", E->L);
}

/* A loop of warp collectives whose range may differ between lanes (NodeInfo.warp_trips):
   the CUDA dialect runs it only when every lane of the warp counts the same trips (else an
   error, and no lane runs it: a lane left waiting at a shuffle would hang the warp). The
   prefix of the loop's `for`. */
static const char *warp_trips(Em *E, Node *n, const char *trips) {
  if (!E->D->warps || !I(E, n)->warp_trips) return "";
  em_line(E, "const bool _wu = oq_warp_uniform(%s);", trips);
  em_line(E, "if (!_wu) oq_fail(%s, %d);", E->L, em_div_site(E, n, KE_WARP_TRIPS));
  return "if (_wu) ";
}

/* for i = a..b / a..s..b / over a vector */
static void st_for(Em *E, Node *n) {
  int slot = n->slot;
  KType lv = E->f->slots[slot];
  em_line(E, "{");
  E->ind++;
  if (n->a->kind == N_RANGE) {
    Node *r = n->a;
    KType rt = em_T(E, r);
    char *a = em_ex(E, r->a), *c = em_ex(E, r->c);
    KType ta = em_T(E, r->a), tc = em_T(E, r->c);
    char *s = r->b ? em_ex(E, r->b) : "1";
    KType ts = r->b ? em_T(E, r->b) : em_kt(K_INT);
    if (rt.kind == K_INT) {
      int64_t cs = 0;
      bool const_step = !r->b || r->b->kind == N_INT;
      if (const_step) cs = r->b ? r->b->ival : 1;
      int l = n->loc.line;
      em_line(E, "const int64_t _a%d = %s, _c%d = %s;", l, a, l, c);
      if (const_step && cs > 0) {
        const char *w = warp_trips(E, n, em_sf(E, "_c%d >= _a%d ? (_c%d - _a%d) / %lld + 1 : 0", l, l, l, l, (long long)cs));
        em_line(E, "%sfor (int64_t _i = _a%d; _i <= _c%d; _i += %lld) {", w, l, l, (long long)cs);
      } else if (const_step && cs < 0) {
        const char *w = warp_trips(E, n, em_sf(E, "_a%d >= _c%d ? (_a%d - _c%d) / %lld + 1 : 0", l, l, l, l, -(long long)cs));
        em_line(E, "%sfor (int64_t _i = _a%d; _i >= _c%d; _i += %lld) {", w, l, l, (long long)cs);
      } else {
        /* a + k*s for k = 0.. while it does not pass c: the same values as the count
           (c - a) / s + 1 without a division (ints are 32-bit: no overflow in 64) */
        em_line(E, "const int64_t _s = %s;", s);
        em_line(E, "if (_s == 0) oq_fail(%s, %d);", E->L, em_div_site(E, n->a, KE_RANGE));
        const char *w = warp_trips(E, n, em_sf(E, "_s > 0 ? (_c%d >= _a%d ? (_c%d - _a%d) / _s + 1 : 0) : _s < 0 && _a%d >= _c%d ? (_a%d - _c%d) / -_s + 1 : 0",
                                               l, l, l, l, l, l, l, l));
        em_line(E, "%sfor (int64_t _i = _a%d; _s > 0 ? _i <= _c%d : _s < 0 && _i >= _c%d; _i += _s) {", w, l, l, l);
      }
      E->ind++;
      em_line(E, "%s = %s;", em_slot_ref(E, slot), em_conv(E, "(int32_t)_i", em_kt(K_INT), lv.kind));
    } else {
      em_line(E, "const double _r0 = (double)%s, _rs = (double)%s, _re = (double)%s;", em_conv(E, a, ta, K_REAL),
           em_conv(E, s, ts, K_REAL), em_conv(E, c, tc, K_REAL));
      em_line(E, "if (_rs == 0 || _rs != _rs) oq_fail(%s, %d);", E->L, em_div_site(E, n->a, KE_RANGE));
      em_line(E, "const double _q = (_re - _r0) / _rs;");
      /* interp.c range_spec's count: up to the next integer only from within rounding below it */
      em_line(E, "const double _kf = floor(_q);");
      em_line(E, "const double _kk = _rs == 0 || _rs != _rs ? -1 : _q != _kf && _kf + 1 - _q <= fabs(_q) * %s + 1e-9 ? _kf + 1 : _kf;",
           rt_config.double_precision ? "1e-12" : "4e-7");
      em_line(E, "const int64_t _n = _kk >= 0 ? (int64_t)_kk + 1 : 0;");
      em_line(E, "%sfor (int64_t _k = 0; _k < _n; _k++) {", warp_trips(E, n, "_n"));
      E->ind++;
      em_line(E, "%s = (oq_real)(_r0 + (double)_k * _rs);", em_slot_ref(E, slot));
    }
  } else {
    KType it = em_T(E, n->a);
    char *v = em_ex(E, n->a);
    if (it.kind == K_VEC) {
      v = em_vname(E, v, it);
      em_line(E, "for (int _k = 0; _k < %d; _k++) {", it.len);
      E->ind++;
      em_line(E, "%s = %s;", em_slot_ref(E, slot), em_conv(E, em_sf(E, "%s.v[_k]", v), em_kt(it.elem), lv.kind));
    } else {
      em_line(E, "for (int _k = 0; _k < 1; _k++) {");
      E->ind++;
      store_slot(E, slot, v, it);
    }
  }
  em_block(E, &n->list);
  E->ind--;
  em_line(E, "}");
  E->ind--;
  em_line(E, "}");
}

static void st_match(Em *E, Node *n) {
  KType st_ = em_T(E, n->a);
  char *s = em_tmp(E);
  em_line(E, "%s %s = %s;", em_ctype(E, st_), s, em_ex(E, n->a));
  bool first = true;
  int opened = 0;
  for (int i = 0; i < n->ncases; i++) {
    MatchCase *mc = &n->cases[i];
    if (!mc->pattern) {
      em_line(E, first ? "{" : "{ /* _ */");
      E->ind++;
      em_block(E, &mc->body);
      E->ind--;
      em_line(E, "}");
      break;
    }
    char *pre;
    char *p = ex_apart(E, mc->pattern, &pre);
    if (pre) em_efail(E, mc->loc, "a match pattern that needs statements");
    char *cond = em_num_op(E, OP_EQ, s, st_, p, em_T(E, mc->pattern), n);
    em_line(E, "if (%s) {", cond);
    E->ind++;
    em_block(E, &mc->body);
    E->ind--;
    em_line(E, "} else {");
    E->ind++;
    opened++;
    first = false;
  }
  for (int i = 0; i < opened; i++) {
    E->ind--;
    em_line(E, "}");
  }
}

void em_st(Em *E, Node *n) {
  switch (n->kind) {
  case N_FUNCDEF: case N_ATTR: case N_MACRO: case N_TYPEDEF: case N_IMPORT: return;
  default: break;
  }
  if (E->ndead && E->f->is_kernel) {
    if (em_is_dead(E, n)) return;
    if (n->kind == N_FOR && n->a->kind == N_RANGE && em_T(E, n->a).kind == K_INT && em_all_dead(E, &n->list)) {
      /* nothing left to run; a zero step is still an error */
      em_loc_comment(E, n);
      if (n->a->b) em_line(E, "if ((%s) == 0) oq_fail(%s, %d);", em_ex(E, n->a->b), E->L, em_div_site(E, n->a, KE_RANGE));
      return;
    }
  }
  em_loc_comment(E, n);
  switch (n->kind) {
  case N_EXPR:
    if (em_is_barrier_stmt(n) || is_memfence_stmt(n)) {
      E->D->barrier(E, n);
      return;
    }
    {
      char *e = em_ex(E, n->a);
      if (strcmp(e, "0") && em_T(E, n->a).kind != K_VEC && em_T(E, n->a).kind != K_ARRAY) em_line(E, "(void)%s;", e);
    }
    return;
  case N_ASSIGN: st_assign(E, n, false, NULL); return;
  case N_IF:
    em_line(E, "if (%s) {", em_truthy(E, em_ex(E, n->a), em_T(E, n->a)));
    E->ind++;
    em_block(E, &n->list);
    E->ind--;
    if (n->list2.n) {
      em_line(E, "} else {");
      E->ind++;
      em_block(E, &n->list2);
      E->ind--;
    }
    em_line(E, "}");
    return;
  case N_FOR: st_for(E, n); return;
  case N_WHILE: {
    em_line(E, "for (;;) {");
    E->ind++;
    err_check_loop(E);
    char *c = em_truthy(E, em_ex(E, n->a), em_T(E, n->a));
    em_line(E, "if (!%s) break;", c);
    em_block(E, &n->list);
    E->ind--;
    em_line(E, "}");
    return;
  }
  case N_REPEAT: {
    em_line(E, "do {");
    E->ind++;
    err_check_loop(E);
    em_block(E, &n->list);
    E->ind--;
    char *pre;
    char *c = ex_apart(E, n->a, &pre);
    c = em_truthy(E, c, em_T(E, n->a));
    if (!pre) em_line(E, "} while (!%s);", c);
    else {
      Buf b = {0};
      Buf *saved = E->b;
      int ind = E->ind;
      E->b = &b;
      E->ind = 0;
      em_put_pre(E, pre);
      E->b = saved;
      E->ind = ind;
      for (char *p = b.s; *p; p++)
        if (*p == '\n') *p = ' ';
      em_line(E, "} while (!({ %s %s; }));", b.s, c);
      free(b.s);
    }
    return;
  }
  case N_MATCH: st_match(E, n); return;
  case N_BREAK: em_line(E, "break;"); return;
  case N_CONTINUE: em_line(E, "continue;"); return;
  case N_RETURN: st_return(E, n); return;
  case N_BLOCK: em_block(E, &n->list); return;
  default: {
    char *e = em_ex(E, n);
    (void)e;
    return;
  }
  }
}

void em_block(Em *E, NodeList *l) {
  for (int i = 0; i < l->n; i++) em_st(E, l->items[i]);
}

/* A block-stride loop (em_block_stride_loop) as one loop over its iterations for the whole
   block: this thread takes first, first + step, ... (C: "0", "1": all of them). */
void em_block_stride_phase(Em *E, Node *n, const char *first, const char *step) {
  FSpec *k = E->S->kspec;
  em_loc_comment(E, n);
  em_line(E, "{   /* block-stride loop: all threads' iterations as one loop */");
  E->ind++;
  em_line(E, "const int64_t _bs = %s;", em_conv(E, em_ex(E, n->a->c), em_T(E, n->a->c), K_INT));
  em_line(E, "%s %s = 0;", em_ctype(E, k->slots[n->slot]), em_slot_name(E, k, n->slot));
  em_line(E, "for (int64_t _bi = %s; _bi <= _bs; _bi += %s) {", first, step);
  E->ind++;
  em_line(E, "%s = %s;", em_slot_name(E, k, n->slot), em_conv(E, "(int32_t)_bi", em_kt(K_INT), k->slots[n->slot].kind));
  em_block(E, &n->list);
  E->ind--;
  em_line(E, "}");
  E->ind--;
  em_line(E, "}");
}

/* ---- device functions ---- */

static void func_result_expr(Em *E, FSpec *g, Buf *out) {
  Func *f = g->func;
  int base = f->ngenerics + f->nparams;
  if (g->result.kind == K_TUPLE) {
    em_bprintf(out, "%s", em_lit_open(E, em_sf(E, "oqt_%d", g->id)));
    for (int o = 0; o < f->nouts; o++) em_bprintf(out, "%s%s", o ? ", " : "", em_slot_name(E, g, base + o));
    em_bputs(out, "}");
  } else {
    em_bputs(out, em_slot_name(E, g, base));
  }
}

static void st_return(Em *E, Node *n) {
  (void)n;
  if (E->f->is_kernel) {
    em_line(E, "goto %s;", E->ret_label ? E->ret_label : "_next");
    E->has_return = true;
    return;
  }
  if (!em_has_repr(E->f->result)) { em_line(E, "return;"); return; }
  Buf b = {0};
  func_result_expr(E, E->f, &b);
  em_line(E, "return %s;", b.s);
  free(b.s);
}

void em_func_signature(Em *E, FSpec *g, Buf *out) {
  Func *f = g->func;
  const char *rt = em_has_repr(g->result) ? em_ctype(E, g->result) : "void";
  em_bprintf(out, "%s %s oqf%d(Cx *cx", E->D->func_qual, rt, g->id);
  for (int i = 0; i < f->nparams; i++)
    if (em_has_repr(g->params[i])) em_bprintf(out, ", %s %s", em_ctype(E, g->params[i]), em_slot_name(E, g, f->ngenerics + i));
  em_bputs(out, ")");
}

void em_emit_device(Em *E, FSpec *g, Buf *out) {
  Func *f = g->func;
  FuncInfo *fi = func_info(f);
  Buf body = {0};
  E->f = g;
  E->b = &body;
  E->ind = 1;
  E->phases = false;
  E->L = "cx->L";
  em_func_signature(E, g, &body);
  em_bputs(&body, " {\n");
  em_line(E, "(void)cx;");
  em_find_konst(E, g);
  int pbase = f->ngenerics, pend = pbase + f->nparams;
  for (int s = 0; s < fi->nslots; s++) {
    if (s >= pbase && s < pend) continue;
    if (!em_has_repr(g->slots[s])) continue;
    em_line(E, "%s %s = {0};", em_ctype(E, g->slots[s]), em_slot_name(E, g, s));
  }
  if (f->is_lambda) {
    int n = f->body.n;
    for (int i = 0; i < n - 1; i++) em_st(E, f->body.items[i]);
    Node *last = n ? f->body.items[n - 1] : NULL;
    if (last && last->kind == N_EXPR && em_has_repr(g->result)) {
      em_loc_comment(E, last);
      char *v = em_ex(E, last->a);
      em_line(E, "return %s;", v);
    } else if (last) {
      em_st(E, last);
    }
  } else {
    em_block(E, &f->body);
    if (em_has_repr(g->result)) {
      Buf r = {0};
      func_result_expr(E, g, &r);
      em_line(E, "return %s;", r.s);
      free(r.s);
    }
  }
  em_bputs(&body, "}\n\n");
  em_bputs(out, body.s);
  free(body.s);
  free(E->konst);
  E->konst = NULL;
}
