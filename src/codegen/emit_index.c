/* emit_index.c: array elements in kernel code: an index expression becomes a plan (one int64
   index per dimension, exact integer views of scalar arithmetic where possible), the
   boundary rule of the access applies to it, and the element is loaded, stored, updated
   atomically or exchanged. */
#include "codegen/emit.h"

static Rule rule_of(unsigned m) {
  if (m & TM_CIRCULAR) return R_CIRC;
  if (m & TM_MIRROR) return R_MIRROR;
  if (m & TM_CLAMPED) return R_CLAMP;
  if (m & TM_SAFE) return R_ZERO;
  if (m & TM_CHECKED) return R_CHECKED;
  if (m & TM_UNCHECKED) return R_UNCHECKED;
  return R_ZERO;
}

/* ---- index types ----
   Under KSpec.idx32 every array has fewer than 2^31 elements and every position and extent
   fits an int32 with room to spare (oqk_idx32_launch): array dimensions, positions and the
   indices of the zero, unchecked and clamp rules are oq_ix = int32_t, offsets int32
   arithmetic. An index an int32 does not hold becomes INT32_MIN under the zero and
   unchecked rules (outside every array) and saturates under clamp (the nearest edge is the
   same). Circular and mirror keep int64 indices (their values matter modulo the extent);
   checked ones too (the error reports them). Otherwise oq_ix is int64_t. The CPU
   launcher sets idx32 only for tests (OQ_DEV_CPU_IDX32, rt_cpu.c); the C dialect compiles it. */

void em_index_types(KSpec *S, Buf *out) {
  em_bprintf(out, "typedef %s oq_ix; typedef %s oq_ux;\n", S->idx32 ? "int32_t" : "int64_t",
             S->idx32 ? "uint32_t" : "uint64_t");
  if (!S->idx32) return;
  /* NaN and values an int32 does not hold give INT32_MIN: outside every array (float
     compares are exact against -2^31 and 2^31) */
  em_bputs(out, "OQ_FN oq_ix oq_ixf(oq_real x) { return x > (oq_real)-2147483648.0 && x < (oq_real)2147483648.0 ? (oq_ix)x : INT32_MIN; }\n"
                "OQ_FN oq_ix oq_ixl(int64_t x) { return x >= INT32_MIN && x <= INT32_MAX ? (oq_ix)x : INT32_MIN; }\n"
  /* the clamp rule's: saturated, NaN to INT32_MIN (as oq_idxf's INT64_MIN: the first element) */
                "OQ_FN oq_ix oq_ixfs(oq_real x) { return x != x || x <= (oq_real)-2147483648.0 ? INT32_MIN : x >= (oq_real)2147483648.0 ? INT32_MAX : (oq_ix)x; }\n"
                "OQ_FN oq_ix oq_ixls(int64_t x) { return x < INT32_MIN ? INT32_MIN : x > INT32_MAX ? INT32_MAX : (oq_ix)x; }\n"
                "OQ_FN oq_ix oq_clampx(oq_ix i, oq_ix n) { if (n <= 0) return -1; return i < 0 ? 0 : i >= n ? n - 1 : i; }\n");
}

/* How indices of a rule are held: int64_t (N_WIDE), or oq_ix when that is int32, a value
   outside int32 becoming INT32_MIN (N_OUT: outside every array) or the nearest int32
   (N_SAT: the clamp rule, whose nearest edge that keeps). */
typedef enum { N_WIDE, N_OUT, N_SAT } Narrow;

static Narrow narrow_rule(Em *E, Rule r) {
  if (!E->S->idx32) return N_WIDE;
  return r == R_ZERO || r == R_UNCHECKED ? N_OUT : r == R_CLAMP ? N_SAT : N_WIDE;
}

/* The conversion of an int64 (or a scalar) index to a narrow one. */
static const char *narrow_from64(Narrow nw) { return nw == N_SAT ? "oq_ixls" : "oq_ixl"; }
static const char *narrow_fromreal(Narrow nw) { return nw == N_SAT ? "oq_ixfs" : "oq_ixf"; }

/* Dimension d of array arr (of type t) as a C expression: a constant when known. */
char *em_adim(Em *E, const char *arr, KType t, int d) {
  if (d >= t.rank) return "1";
  if (t.cdims && t.cdims[d] >= 0) return em_sf(E, "(oq_ix)%lld", (long long)t.cdims[d]);
  return em_sf(E, "%s.d[%d]", arr, d);
}

char *em_idx64(Em *E, char *e, KType t) {
  if (em_kclass(t) == K_INT) return em_sf(E, "(int64_t)%s", e);
  return em_sf(E, "oq_idxf(%s)", e);
}

/* For the zero and unchecked rules only inside/outside matters: a cheaper conversion, and
   under idx32 one to int32 (a scalar through oq_ixf: truncation where it is an int32). */
static char *idx_rule(Em *E, char *e, KType t, bool cheap, Narrow narrow) {
  if (narrow && em_kclass(t) == K_INT)
    return narrow == N_SAT ? em_sf(E, "oq_ixls((int64_t)%s)", e) : em_sf(E, "(oq_ix)%s", e);
  if (narrow) return em_sf(E, "%s(%s)", narrow_fromreal(narrow), e);
  if (em_kclass(t) == K_INT || !cheap) return em_idx64(E, e, t);
  return em_sf(E, "oq_idxz((double)%s)", e);
}

static const char *func_display_name(FSpec *f) { return func_shown_name(f->func); }

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
  em_bprintf(tests, "%soq_f24(%s)", tests->len ? " && " : "", v->c[k]);
}

static bool iview(Em *E, Node *n, IView *v, Buf *tests) {
  KType t = em_T(E, n);
  NodeInfo *ni = ksema_info(E->f, n);
  if (ni && ni->as_vec) return false;
  memset(v, 0, sizeof *v);
  if (n->kind == N_INT) {
    v->c[0] = em_sf(E, "(int64_t)%lld", (long long)n->ival);
    v->bound[0] = n->ival < 0 ? -n->ival : n->ival;
    return true;
  }
  if (n->kind == N_UNARY && (n->op == OP_NEG || n->op == OP_PLUS) && em_kclass(t) == K_INT && t.kind != K_VEC) {
    if (!iview(E, n->a, v, tests)) return false;
    if (n->op == OP_NEG) v->c[0] = em_sf(E, "(-%s)", v->c[0]);
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
      v->c[k] = k < E->S->D ? em_sf(E, "%c%d", c, k) : (size ? "(int64_t)1" : "(int64_t)0");
      v->bound[k] = F24 / 2;
      v->launch[k] = true;
    }
    return true;
  }
  if (em_kclass(t) == K_INT && (t.kind == K_VEC || t.kind == K_INT || t.kind == K_BOOL)) {
    bool special = is_special_ident(E, n);
    char *e = em_ex(E, n);
    if (t.kind == K_VEC) {
      e = em_vname(E, e, t);
      v->len = t.len;
      for (int k = 0; k < t.len; k++) {
        v->c[k] = em_sf(E, "(int64_t)%s.v[%d]", e, k);
        v->bound[k] = special ? F24 / 2 : -1;
        v->launch[k] = special;
      }
    } else {
      v->c[0] = em_sf(E, "(int64_t)%s", e);
      v->bound[0] = special ? F24 / 2 : -1;
      v->launch[0] = special;
    }
    return true;
  }
  if (t.kind != K_REAL && !(t.kind == K_VEC && t.elem == K_REAL)) return false;
  switch (n->kind) {
  case N_INT:
    v->c[0] = em_sf(E, "(int64_t)%lld", (long long)n->ival);
    v->bound[0] = n->ival < 0 ? -n->ival : n->ival;
    return true;
  case N_REAL:
    if (n->rval != (double)(int64_t)n->rval || n->rval > F24 || n->rval < -F24) return false;
    v->c[0] = em_sf(E, "(int64_t)%lld", (long long)n->rval);
    v->bound[0] = (int64_t)(n->rval < 0 ? -n->rval : n->rval);
    return true;
  case N_UNARY:
    if (n->op == OP_PLUS) return iview(E, n->a, v, tests);
    if (n->op != OP_NEG || !iview(E, n->a, v, tests)) return false;
    for (int k = 0; k < (v->len ? v->len : 1); k++) v->c[k] = em_sf(E, "(-%s)", v->c[k]);
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
        v->c[k] = em_sf(E, "(%s * %s)", x, y);
        v->bound[k] = bx >= 0 && by >= 0 && bx <= F24 && by <= F24 && (bx == 0 || by <= INT64_MAX / bx) ? bx * by : -1;
      } else {
        v->c[k] = em_sf(E, "(%s %s %s)", x, op == OP_ADD ? "+" : "-", y);
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
   rout[k], out[k] NULL): inside the array exactly when -1 < x < n, truncated only then.
   On x86-64 out[k] is cvtt's int64 instead (INT64_MIN outside); for the checked rule
   (`checked`) rout[k] then names the scalar, which the error report converts exactly. */
static void index_ints(Em *E, Node *e, int len, char **out, bool cheap, bool checked, Narrow narrow, char **rout) {
  const char *ixt = narrow ? "oq_ix" : "int64_t";
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
    if (pre.len) em_put_pre(E, pre.s);
    for (int k = 0; k < len; k++) {
      out[k] = em_tmp(E);
      /* narrowed: the value is an int32, or its test below fails (a bound of 2^24), unless
         the bound is known and larger */
      if (narrow && v.bound[k] > INT32_MAX) em_line(E, "oq_ix %s = %s(%s);", out[k], narrow_from64(narrow), v.c[k]);
      else if (narrow) em_line(E, "oq_ix %s = (oq_ix)(%s);", out[k], v.c[k]);
      else em_line(E, "int64_t %s = %s;", out[k], v.c[k]);
    }
    if (tests.len) {
      em_line(E, "if (__builtin_expect(!(%s), 0)) {", tests.s);
      E->ind++;
    }
  }
#if defined(__x86_64__)
  /* x86-64: cvtt gives INT64_MIN for NaN and out-of-range scalars, outside any array */
  if (!ok && rout && ((cheap && !narrow) || checked) && E->D->cvtt && em_kclass(em_T(E, e)) == K_REAL) {
    KType t = em_T(E, e);
    char *x = em_ex(E, e);
    if (t.kind == K_VEC) x = em_vname(E, x, t);
    for (int k = 0; k < len; k++) {
      char *xk = t.kind == K_VEC ? em_sf(E, "%s.v[%d]", x, k) : x;
      rout[k] = NULL;
      if (checked) {
        rout[k] = em_tmp(E);
        em_line(E, "const oq_real %s = %s;", rout[k], xk);
        xk = rout[k];
      }
      out[k] = em_tmp(E);
      em_line(E, "const int64_t %s = oq_cvtt(%s);", out[k], xk);
    }
    free(tests.s);
    free(pre.s);
    return;
  }
#endif
  /* a scalar kept as it is (rout): plan_elem_at tests it in the scalar type and converts it
     after; on CUDA checked ones too (no 64-bit conversion before the test) */
  if (!ok && rout && (cheap || (checked && E->D->real_checked)) && em_kclass(em_T(E, e)) == K_REAL) {
    KType t = em_T(E, e);
    char *x = em_ex(E, e);
    if (t.kind == K_VEC) x = em_vname(E, x, t);
    for (int k = 0; k < len; k++) {
      rout[k] = em_tmp(E);
      out[k] = NULL;
      em_line(E, "const oq_real %s = %s;", rout[k], t.kind == K_VEC ? em_sf(E, "%s.v[%d]", x, k) : x);
    }
    free(tests.s);
    free(pre.s);
    return;
  }
  if (!ok || tests.len) {
    KType t = em_T(E, e);
    char *x = em_ex(E, e);
    if (t.kind == K_VEC) x = em_vname(E, x, t);
    for (int k = 0; k < len; k++) {
      char *c = t.kind == K_VEC ? idx_rule(E, em_sf(E, "%s.v[%d]", x, k), em_kt(t.elem), cheap, narrow)
                                : idx_rule(E, x, t, cheap, narrow);
      if (ok) em_line(E, "%s = %s;", out[k], c);
      else {
        out[k] = em_tmp(E);
        em_line(E, "%s %s = %s;", ixt, out[k], c);
      }
    }
  }
  if (ok && tests.len) {
    E->ind--;
    em_line(E, "}");
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
         em_T(E, x).kind == K_INT;
}

/* t added (sign +1) or subtracted (-1) to a pos component: a small literal or an invariant. */
static bool pos_term(Em *E, Node *t, int sign, int64_t *c, char **inv) {
  int64_t v;
  if (small_lit(t, &v)) {
    *c += sign * v;
    return true;
  }
  if (!invariant_int(E, t)) return false;
  char *x = em_sf(E, "%s(int64_t)%s", sign < 0 ? "-" : "", em_ex_ident(E, t));
  *inv = *inv ? em_sf(E, "%s + %s", *inv, x) : x;
  return true;
}

/* e is pos[d] + c + inv in int arithmetic: pos[d] itself, +/- literals and invariants, or
   a local that find_pos_locals knows to hold such a value. */
bool em_pos_comp(Em *E, Node *e, int d, int64_t *c, char **inv) {
  if (em_T(E, e).kind != K_INT) return false;
  if (e->kind == N_UNARY && e->op == OP_PLUS) return em_pos_comp(E, e->a, d, c, inv);
  if (e->kind == N_IDENT && e->slot >= 0 && e->depth == 0 && E->posdef && E->posdef[e->slot])
    return em_pos_comp(E, E->posdef[e->slot], d, c, inv);
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
  if (em_pos_comp(E, e->a, d, c, inv)) return pos_term(E, e->b, e->op == OP_ADD ? 1 : -1, c, inv);
  return e->op == OP_ADD && em_pos_comp(E, e->b, d, c, inv) && pos_term(E, e->a, 1, c, inv);
}

/* An invariant int term of an index: a small literal or an int parameter never assigned. */
static char *inv_term(Em *E, Node *t) {
  int64_t v;
  if (small_lit(t, &v)) return em_sf(E, "(int64_t)%lld", (long long)v);
  return invariant_int(E, t) ? em_sf(E, "(int64_t)%s", em_ex_ident(E, t)) : NULL;
}

/* e is a + b * pos[d] in int arithmetic (a, b invariant terms, either absent; + or -), in
   a loop where P0.. hold pos as int64 (Em.pos_vars): its value computed in int64 from P<d>,
   which C compilers see as affine in the loop counter (the int32 expression, which wraps,
   kept GCC from vectorizing a host slice's read: c3[:, :, 1] is ax0[s0 + t0 * pos[0], ...]).
   The two agree wherever the int32 arithmetic does not overflow. Only 'unchecked indices
   are asked: the program promises them inside the array, and one whose arithmetic wrapped
   reads what the int64 value gives (docs/cpu.md). NULL for other forms. */
char *em_pos_affine(Em *E, Node *e) {
  if (!E->pos_vars || em_T(E, e).kind != K_INT) return NULL;
  int64_t c;
  char *inv;
  for (int d = 0; d < E->S->D; d++)
    if (e->kind == N_INDEX && em_pos_comp(E, e, d, &c, &inv)) return em_sf(E, "P%d", d);
  if (e->kind == N_UNARY && e->op == OP_PLUS) return em_pos_affine(E, e->a);
  if (e->kind != N_BINARY || (e->op != OP_ADD && e->op != OP_SUB && e->op != OP_MUL)) return NULL;
  char *x = em_pos_affine(E, e->a), *y = x ? inv_term(E, e->b) : NULL;
  if (x && y) return em_sf(E, "(%s %s %s)", x, e->op == OP_ADD ? "+" : e->op == OP_SUB ? "-" : "*", y);
  if (e->op == OP_SUB) return NULL;
  x = em_pos_affine(E, e->b);
  y = x ? inv_term(E, e->a) : NULL;
  return x && y ? em_sf(E, "(%s %s %s)", y, e->op == OP_ADD ? "+" : "*", x) : NULL;
}

/* Whether the tree n holds an 'unchecked access with an index em_pos_affine computes from
   P<d>, other than an em_fast_access (with E->pos_vars set while it looks), outside loops:
   the accesses whose loop over positions may vectorize (matmul's A[pos[0], m] in a loop
   over m does not make the rows' loop any faster). */
bool em_has_pos_affine(Em *E, Node *n) {
  if (!n || n->kind == N_FOR || n->kind == N_WHILE || n->kind == N_REPEAT) return false;
  PosOff o;
  if (n->kind == N_INDEX && n->a->kind == N_IDENT && rule_of((unsigned)n->a->ival) == R_UNCHECKED &&
      em_T(E, n->a).kind == K_ARRAY && !em_fast_access(E, n, &o, NULL)) {
    bool saved = E->pos_vars, found = false;
    E->pos_vars = true;
    for (int d = 0; d < n->list.n && !found; d++) found = em_pos_affine(E, n->list.items[d]) != NULL;
    E->pos_vars = saved;
    if (found) return true;
  }
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return false;
  for (AstKids it = ast_kids(n); it.node; ast_next(&it))
    if (em_has_pos_affine(E, it.node)) return true;
  return false;
}

/* n is x[pos + c], or x[i0, .., iD-1] with every ik = pos[k] + ck (+ an invariant), on a
   parameter or captured array of rank D; *name gets x's C name. */
bool em_fast_access(Em *E, Node *n, PosOff *o, char **name) {
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
      if (!em_pos_comp(E, n->list.items[d], d, &o->c[d], &o->inv[d])) return false;
  }
  if (name) *name = em_ex_ident(E, b);
  return true;
}

/* For the row of dimension `in`: *t gets the tests of the other dimensions, *r narrows the
   interior [_fa, _fb) of the row where every such access is inside its array. */
void em_row_tests(Em *E, Node *n, int in, Buf *t, Buf *r) {
  if (!n) return;
  PosOff o;
  char *name;
  if (em_fast_access(E, n, &o, &name)) {
    for (int d = 0; d < E->S->D; d++) {
      char *c = o.inv[d] ? em_sf(E, "(%lld + %s)", (long long)o.c[d], o.inv[d]) : em_sf(E, "(%lld)", (long long)o.c[d]);
      /* with an invariant the int32 index equals P + c only while it does not overflow */
      if (o.inv[d]) em_bprintf(t, " && %s.d[%d] <= 2147483647", name, d);
      if (d == in) {
        em_bprintf(r, "if (_fa < -%s) _fa = -%s;\n", c, c);
        em_bprintf(r, "if (_fb > %s.d[%d] - %s) _fb = %s.d[%d] - %s;\n", name, d, c, name, d, c);
      } else {
        em_bprintf(t, " && (uint64_t)(P%d + %s) < (uint64_t)%s.d[%d]", d, c, name, d);
      }
    }
  }
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return;
  for (AstKids it = ast_kids(n); it.node; ast_next(&it)) em_row_tests(E, it.node, in, t, r);
}

static int kernel_param_of(Em *E, Node *n);

/* Whether access n is to an argument of exactly the launch's dimensions (KSpec.at_launch):
   every extent is positive where a thread runs. */
static bool launch_shaped(Em *E, Node *n) {
  if (!E->S->at_launch || n->a->kind != N_IDENT) return false;
  NodeInfo *bi = ksema_info(E->f, n->a);
  int a = bi && bi->cap >= 0 ? E->S->kfunc->nparams + bi->cap : kernel_param_of(E, n->a);
  return a >= 0 && a < 32 && (E->S->at_launch >> a & 1);
}

/* The dimensions d (bit d) where access n indexes with pos[d] itself an argument of the
   launch's dimensions, when no thread is outside the launch (KSpec.at_launch): there the
   index is inside, for every rule (x[pos + [0, 1]] needs its rule in dimension 1 only). */
static unsigned launch_dims_inside(Em *E, Node *n) {
  PosOff o;
  if (!E->S->at_launch || !em_fast_access(E, n, &o, NULL) || !launch_shaped(E, n)) return 0;
  unsigned in = 0;
  for (int d = 0; d < E->S->D; d++)
    if (!o.c[d] && !o.inv[d]) in |= 1u << d;
  return in;
}

/* x[pos] on an argument with the launch's dimensions: inside in every dimension. */
static bool launch_inside(Em *E, Node *n) {
  return E->S->D > 0 && launch_dims_inside(E, n) == (1u << E->S->D) - 1;
}

/* Whether access n of plan P is known inside its array (row_fast, launch_inside); only when
   every index is an int (a scalar index of a vec pos stays a scalar: ridx). */
static bool plan_inside(Em *E, Node *n, Plan *P) {
  PosOff o;
  for (int d = 0; d < P->ndim; d++)
    if (!P->idx[d]) return false;
  return P->vdim < 0 && ((E->row_fast && em_fast_access(E, n, &o, NULL)) || launch_inside(E, n));
}

/* The error site of 'checked access n. */
static int index_site(Em *E, Node *n) {
  KSpec *S = E->S;
  if (S->nsites == S->sitecap) {
    S->sitecap = S->sitecap ? 2 * S->sitecap : 8;
    S->sites = realloc(S->sites, S->sitecap * sizeof *S->sites);
  }
  S->sites[S->nsites] = (KSite){KE_INDEX, n->loc, n->a->kind == N_IDENT ? n->a->name : NULL, func_display_name(E->f)};
  return S->nsites++;
}

/* A plan of access n to arr (of type at) with nothing indexed yet. */
static void plan_start(Plan *P, Node *n, char *arr, KType at) {
  memset(P, 0, sizeof *P);
  P->vdim = -1;
  P->priv = -1;
  P->arr = arr;
  P->rank = at.rank;
  P->rule = rule_of(n->a->kind == N_IDENT ? (unsigned)n->a->ival : 0);
}

/* The extent of dimension d of a plan of nidx indices (not a position): the last index is
   linear over the remaining dimensions. */
static char *plan_size(Em *E, char *arr, KType at, int d, int nidx) {
  if (d < nidx - 1) return em_adim(E, arr, at, d);
  Buf b = {0};
  em_bputs(&b, d < at.rank ? "" : "1");
  for (int k = d; k < at.rank; k++) em_bprintf(&b, "%s%s", k > d ? " * " : "", em_adim(E, arr, at, k));
  char *s = em_sf(E, "(%s)", b.s);
  free(b.s);
  return s;
}

static void plan_build(Em *E, Node *n, char *arr, KType at, Plan *P) {
  int nidx = n->list.n, R = at.rank;
  plan_start(P, n, arr, at);
  bool cheap = P->rule == R_ZERO || P->rule == R_UNCHECKED;
  if (E->lin && em_pos_index(E, n, E->lin_slot) && E->f->is_kernel) {
    P->lin = true;
    P->ndim = 1;
    return;
  }
  PosOff po;
  if ((E->lin_pos && em_fast_access(E, n, &po, NULL)) || (E->lpos && launch_inside(E, n))) {
    P->lin = true;
    P->linoff = E->lin_pos ? NULL : E->lpos;
    P->ndim = 1;
    return;
  }
  if (P->rule == R_CHECKED) P->site = index_site(E, n);
  if (nidx == 1 && R >= 2 && em_T(E, n->list.items[0]).kind == K_VEC && n->list.items[0]->kind != N_COLON) {
    /* a position: its components index successive dimensions */
    KType vt = em_T(E, n->list.items[0]);
    char *ix[K_MAX_VEC];
    char *rx[K_MAX_VEC];
    index_ints(E, n->list.items[0], vt.len, ix, cheap, P->rule == R_CHECKED, narrow_rule(E, P->rule), rx);
    P->ndim = vt.len > R ? vt.len : R;
    for (int d = 0; d < P->ndim; d++) {
      P->size[d] = em_adim(E, arr, at, d);
      P->idx[d] = d < vt.len ? ix[d] : "0";
      P->ridx[d] = d < vt.len ? rx[d] : NULL;
    }
    P->inside = plan_inside(E, n, P);
    P->dim_in = P->ndim == E->S->D ? launch_dims_inside(E, n) : 0;
    P->at_launch = P->ndim == P->rank && launch_shaped(E, n);
    return;
  }
  P->ndim = nidx;
  for (int d = 0; d < nidx; d++) {
    P->size[d] = plan_size(E, arr, at, d, nidx);
    Node *e = n->list.items[d];
    KType t = em_T(E, e);
    if (t.kind == K_VEC) {
      P->vdim = d;
      P->vlen = t.len;
      P->vt = t;
      P->vec = e->kind == N_RANGE ? em_ex_range_value(E, e) : em_vname(E, em_ex(E, e), t);
      continue;
    }
    char *aff = P->rule == R_UNCHECKED ? em_pos_affine(E, e) : NULL;
    if (aff) {
      P->idx[d] = aff;
      P->ridx[d] = NULL;
      continue;
    }
    index_ints(E, e, 1, &P->idx[d], cheap, P->rule == R_CHECKED, narrow_rule(E, P->rule), &P->ridx[d]);
  }
  P->inside = plan_inside(E, n, P);
  P->dim_in = P->vdim < 0 && P->ndim == E->S->D ? launch_dims_inside(E, n) : 0;
  P->at_launch = P->ndim == P->rank && launch_shaped(E, n);
}

/* Offset and validity of element k of the plan (k: component of the vector dimension).
   For rules that resolve indices, the resolved indices are written first. */
static void plan_elem_at(Em *E, Plan *P, int k, char **off, char **valid) {
  char *ix[OQ_MAX_RANK];
  Narrow narrow = narrow_rule(E, P->rule);
  const char *ixt = narrow ? "oq_ix" : "int64_t", *uxt = narrow ? "oq_ux" : "uint64_t";
  P->off32 = NULL;
  if (P->lin) {
    *off = P->linoff ? (char *)P->linoff : "_r";
    *valid = "1";
    return;
  }
  if (P->inside) {
    Buf o = {0};
    em_bprintf(&o, "%s", P->idx[0]);
    for (int d = 1; d < P->ndim; d++) {
      char *prev = em_sf(E, "%s", o.s);
      o.len = 0;
      em_bprintf(&o, "(%s) * %s + %s", prev, P->size[d], P->idx[d]);
    }
    *off = em_sf(E, "%s", o.s);
    *valid = "1";
    free(o.s);
    return;
  }
  for (int d = 0; d < P->ndim; d++) {
    if (d == P->vdim) {
      char *t0 = em_tmp(E);
      bool cheap = P->rule == R_ZERO || P->rule == R_UNCHECKED;
      em_line(E, "%s %s = %s;", ixt, t0, idx_rule(E, em_sf(E, "%s.v[%d]", P->vec, k), em_kt(P->vt.elem), cheap, narrow));
      ix[d] = t0;
    } else {
      ix[d] = P->idx[d];
    }
  }
  Buf v = {0}, o = {0};
  char *res[OQ_MAX_RANK];
  for (int d = 0; d < P->ndim; d++) {
    if (d != P->vdim && P->idx[d] && (P->dim_in >> d & 1)) {   /* pos[d] of a launch-shaped array */
      res[d] = ix[d];
      continue;
    }
    if (d != P->vdim && P->ridx[d] && !P->idx[d]) {
      /* a scalar index: trunc(x) is in 0..n-1 exactly when -1 < x < n (NaN is not); comparing
         with (oq_real)n is exact: no scalar lies strictly between n and its nearest scalar */
      if (P->rule == R_ZERO || P->rule == R_CHECKED)
        em_bprintf(&v, "%s(%s > -1 && %s < (oq_real)%s)", v.len ? " && " : "", P->ridx[d], P->ridx[d], P->size[d]);
      /* checked: a value that passes is below an extent, an int32 under idx32 */
      bool fix32 = E->S->idx32 && (narrow || P->rule == R_CHECKED);
      res[d] = em_sf(E, "(%s)%s", ixt, em_sf(E, fix32 ? E->D->trunc32 : E->D->trunc64, P->ridx[d]));
      if (P->ndim == 1) P->off32 = em_sf(E, E->D->off32_fmt, P->ridx[d]);
      ix[d] = res[d];
      continue;
    }
    switch (P->rule) {
    case R_ZERO: case R_CHECKED:
      em_bprintf(&v, "%s(%s)%s < (%s)%s", v.len ? " && " : "", uxt, ix[d], uxt, P->size[d]);
      res[d] = ix[d];
      break;
    case R_UNCHECKED: res[d] = ix[d]; break;
    default: {
      char *t0 = em_tmp(E);
      const char *fn = P->rule == R_CIRC ? "oq_circ" : P->rule == R_MIRROR ? "oq_mirror" : narrow ? "oq_clampx" : "oq_clampi";
      em_line(E, "%s %s = %s(%s, %s);", ixt, t0, fn, ix[d], P->size[d]);
      if (!P->at_launch) em_bprintf(&v, "%s%s >= 0", v.len ? " && " : "", t0);   /* -1: an extent 0 */
      res[d] = t0;
    }
    }
  }
  for (int d = 0; d < P->ndim; d++) {
    if (d == 0) em_bprintf(&o, "%s", res[0]);
    else {
      char *prev = em_sf(E, "%s", o.s);
      o.len = 0;
      em_bprintf(&o, "(%s) * %s + %s", prev, P->size[d], res[d]);
    }
  }
  *off = em_sf(E, "%s", o.s);
  *valid = v.len ? em_sf(E, "(%s)", v.s) : "1";
  if (P->rule == R_CHECKED && E->defer_bad) {   /* the access below is guarded by valid: the step reports later */
    em_line(E, "%s |= !%s;", E->defer_bad, *valid);
    E->ndefer++;
  } else if (P->rule == R_CHECKED) {
    Buf ixs = {0};
    for (int d = 0; d < P->ndim; d++)
      em_bprintf(&ixs, "%s%s", d ? ", " : "", d != P->vdim && P->ridx[d] ? em_sf(E, "oq_idxf(%s)", P->ridx[d]) : ix[d]);
    em_line(E, "if (__builtin_expect(!%s, 0)) { const int64_t _ix[] = {%s}; oq_fail_index(%s, %d, %d, _ix, %d, %s.d); }",
            *valid, ixs.s, E->L, P->site, P->ndim, P->rank, P->arr);
    free(ixs.s);
  }
  free(v.s);
  free(o.s);
}

/* plan_elem_at, where the persistent blocks' accumulator of counts is stored swizzled
   (E->count_swz, coarse.c's count_swizzled). */
static void plan_elem(Em *E, Plan *P, int k, char **off, char **valid) {
  plan_elem_at(E, P, k, off, valid);
  if (E->count_swz && P->arr && !strcmp(E->count_arr, P->arr)) {
    *off = em_sf(E, "oq_swz(%s)", *off);
    P->off32 = NULL;
  }
}

/* An element of array type at, as the value a read gives. */
char *em_load(Em *E, ElemType el, char *lv) {
  bool dp = rt_config.double_precision;
  if (el_is_complex(el) && em_cfns(E)) {   /* structs: the parts converted */
    if (el == EL_C64) return dp ? em_sf(E, "oq_tc_wide(%s)", lv) : lv;
    return dp ? lv : em_sf(E, "oq_tc_narrow(%s)", lv);
  }
  switch (el) {
  case EL_F32: return dp ? em_sf(E, "((double)%s)", lv) : lv;
  case EL_F64: return dp ? lv : em_sf(E, "((float)%s)", lv);
  case EL_C64: return dp ? em_sf(E, "((oq_c128)%s)", lv) : lv;
  case EL_C128: return dp ? lv : em_sf(E, "((oq_c64)%s)", lv);
  default: return em_sf(E, "((int32_t)%s)", lv);
  }
}

/* A value of type t as array elements el store it. */
char *em_store_conv(Em *E, ElemType el, char *v, KType t) {
  KKind c = em_kclass(t);
  if (el_is_integer(el)) {
    if (c == K_INT) return em_sf(E, "((%s)%s)", em_el_ctype(el), v);
    return em_sf(E, "((%s)oq_trunc64((double)%s))", em_el_ctype(el), v);
  }
  if (el_is_complex(el) && em_cfns(E)) {   /* structs: oq_cplx converted to the element's */
    if (c != K_CPLX) v = em_conv(E, v, t, K_CPLX);
    bool same = (el == EL_C128) == rt_config.double_precision;
    return same ? v : em_sf(E, "oq_tc_%s(%s)", el == EL_C64 ? "narrow" : "wide", v);
  }
  if (el_is_complex(el)) {
    if (c == K_CPLX) return em_sf(E, "((%s)%s)", em_el_ctype(el), v);
    return em_sf(E, "((%s)(double)%s)", em_el_ctype(el), v);
  }
  if (c == K_INT) return em_sf(E, "((%s)(double)%s)", em_el_ctype(el), v);
  return em_sf(E, "((%s)%s)", em_el_ctype(el), v);
}

static char *zero_of(Em *E, KKind c) {
  if (c == K_CPLX && em_cfns(E)) return "oq_mkc(0, 0)";
  return c == K_CPLX ? "((oq_cplx)0)" : c == K_REAL ? "((oq_real)0)" : "0";
}

/* CUDA tiling: the register that holds arr's element of the current position, loaded ahead
   (NULL when arr is not loaded ahead). */
char *em_prefetched(Em *E, const char *arr) {
  for (int j = 0; j < E->npf; j++)
    if (!strcmp(E->pf_arr[j], arr)) return em_sf(E, "_pf%d_%d", j, E->pf_k);
  return NULL;
}

/* x[pos] (no offset) on a parameter or captured array of the launch's rank, read with the
   zero or unchecked rule: a load that raises no error, so it may run ahead of its statement. */
bool em_at_pos(Em *E, Node *n) {
  PosOff o;
  if (!em_fast_access(E, n, &o, NULL)) return false;
  Rule r = rule_of((unsigned)n->a->ival);
  for (int d = 0; d < E->S->D; d++)
    if (o.c[d] || o.inv[d]) return false;
  return r == R_ZERO || r == R_UNCHECKED;
}

/* The kernel parameter that identifier n names (at the kernel's top level), or -1. */
static int kernel_param_of(Em *E, Node *n) {
  if (E->f != E->S->kspec || n->kind != N_IDENT || n->slot < 0 || n->depth != 0) return -1;
  int i = n->slot - E->f->func->ngenerics;
  return i >= 0 && i < E->f->func->nparams ? i : -1;
}

/* Whether n reads x[pos + c] (c constant) of kernel parameter *p, an array the kernel only
   reads and no other argument is (a load no store of the launch changes), that never reads
   outside x: by its boundary rule (zero, clamped, circular, mirror), or at c = 0 because x
   has the launch's shape. Such a load may run ahead of its statement (em_rows_ahead). */
bool em_rows_ahead_read(Em *E, Node *n, int *p, int64_t *c) {
  PosOff o;
  if (n->kind != N_INDEX || !em_fast_access(E, n, &o, NULL)) return false;
  *p = kernel_param_of(E, n->a);
  if (*p < 0 || *p >= 32 || !E->S->facts.param_read_only[*p] || (E->S->aliased >> *p & 1) || kfacts_stored(E->S, n->a))
    return false;
  bool at = true;
  for (int d = 0; d < E->S->D; d++) {
    if (o.inv[d]) return false;
    c[d] = o.c[d];
    at &= !o.c[d];
  }
  Rule r = rule_of((unsigned)n->a->ival);
  return r == R_ZERO || r == R_CLAMP || r == R_CIRC || r == R_MIRROR || (at && launch_shaped(E, n));
}

/* The read of E->rahead of parameter p at offsets c, or -1. */
int em_rows_ahead_find(const Em *E, int p, const int64_t *c) {
  for (int j = 0; j < E->nrahead; j++)
    if (E->rahead[j].param == p && !memcmp(E->rahead[j].c, c, E->S->D * sizeof *c)) return j;
  return -1;
}

/* The register of read n when the rows loaded it ahead (E->rahead), or NULL. */
static char *rows_ahead_reg(Em *E, Node *n) {
  int p;
  int64_t c[OQ_MAX_RANK];
  if (!E->nrahead || !em_rows_ahead_read(E, n, &p, c)) return NULL;
  int j = em_rows_ahead_find(E, p, c);
  return j >= 0 ? em_sf(E, "_ra%d[_w]", j) : NULL;
}

static bool ldg_param(Em *E, Node *n) {
  int i = kernel_param_of(E, n);
  return i >= 0 && i < 32 && (E->ldg_params >> i & 1);   /* set by CUDA only */
}

/* ---- 'hwtex_nearest and 'hwtex_linear reads (rt_index.c's hwtex_get, the oracle) ----
   An element read with a scalar coordinate: nearest rounds it, floor(c + 0.5); linear
   sums the corners floor(c) and floor(c) + 1 of each such dimension times the products of
   their weights, a corner of weight 0 not read. Corners follow the array's boundary rule. */

/* Whether n reads one element at real coordinates; with c, the C expressions of its
   coordinates (NULL: 0) and in real which of them are scalars (the others are ints). */
static bool hwtex_coords(Em *E, Node *n, KType at, char **c, bool *real) {
  int nidx = n->list.n, R = at.rank;
  bool any = false;
  if (nidx == 1 && R >= 2 && em_T(E, n->list.items[0]).kind == K_VEC && n->list.items[0]->kind != N_COLON) {
    Node *e = n->list.items[0];
    KType vt = em_T(E, e);
    if (em_kclass(em_kt(vt.elem)) != K_REAL) return false;
    if (c) {
      char *pv = e->kind == N_RANGE ? em_ex_range_value(E, e) : em_vname(E, em_ex(E, e), vt);
      for (int d = 0; d < (vt.len > R ? vt.len : R); d++) {
        c[d] = d < vt.len ? em_sf(E, "%s.v[%d]", pv, d) : NULL;
        real[d] = d < vt.len;
      }
    }
    return true;
  }
  for (int d = 0; d < nidx; d++) {
    Node *e = n->list.items[d];
    KType t = em_T(E, e);
    if (e->kind == N_COLON || e->kind == N_RANGE || (t.kind != K_INT && t.kind != K_REAL)) return false;
    any |= t.kind == K_REAL;
  }
  for (int d = 0; c && d < nidx; d++) {
    real[d] = em_T(E, n->list.items[d]).kind == K_REAL;
    c[d] = em_ex(E, n->list.items[d]);
  }
  return any;
}

static char *hwtex_read(Em *E, Node *n, char *arr, KType at, const char *elem_fmt) {
  unsigned mods = (unsigned)n->a->ival;
  bool linear = mods & TM_HWTEX_LINEAR;
  bool pos = n->list.n == 1 && at.rank >= 2 && em_T(E, n->list.items[0]).kind == K_VEC;   /* else x[i] is linear */
  char *c[OQ_MAX_RANK] = {0}, *base[OQ_MAX_RANK], *w[OQ_MAX_RANK] = {0};
  bool real[OQ_MAX_RANK] = {0};
  hwtex_coords(E, n, at, c, real);
  Plan P;
  plan_start(&P, n, arr, at);
  P.ndim = pos ? (at.rank > n->list.n ? at.rank : n->list.n) : n->list.n;
  if (pos) {
    KType vt = em_T(E, n->list.items[0]);
    if (vt.len > P.ndim) P.ndim = vt.len;
  }
  if (P.rule == R_CHECKED) P.site = index_site(E, n);
  for (int d = 0; d < P.ndim; d++) {
    P.size[d] = pos ? em_adim(E, arr, at, d) : plan_size(E, arr, at, d, P.ndim);
    base[d] = em_tmp(E);
    if (!c[d]) em_line(E, "const int64_t %s = 0;", base[d]);
    else if (!real[d]) em_line(E, "const int64_t %s = (int64_t)%s;", base[d], c[d]);
    else {
      char *f = em_tmp(E);
      em_line(E, "const oq_real %s = floor(%s%s);", f, c[d], linear ? "" : " + (oq_real)0.5");
      em_line(E, "const int64_t %s = oq_idxf(%s);", base[d], f);
      if (linear) {
        w[d] = em_tmp(E);
        em_line(E, "const oq_real %s = %s - %s;", w[d], c[d], f);
      }
    }
  }
  const Narrow narrow = narrow_rule(E, P.rule);
  char *acc = em_tmp(E);
  KType r = em_T(E, n);
  em_line(E, "%s %s = %s;", em_ctype(E, r), acc, zero_of(E, em_kclass(r)));
  for (int corner = 0; corner < 1 << P.ndim; corner++) {
    Buf wt = {0};
    bool skip = false;
    for (int d = 0; d < P.ndim; d++) {
      int b = corner >> d & 1;
      if (b && !w[d]) skip = true;   /* an int coordinate: no second corner */
      if (w[d]) em_bprintf(&wt, "%s%s", wt.len ? " * " : "", b ? w[d] : em_sf(E, "((oq_real)1 - %s)", w[d]));
      char *ix = b ? em_sf(E, "(%s + 1)", base[d]) : base[d];
      P.idx[d] = narrow ? em_sf(E, "%s(%s)", narrow_from64(narrow), ix) : ix;
    }
    if (skip) {
      free(wt.s);
      continue;
    }
    char *off, *valid, *wv = wt.len ? em_sf(E, "(%s)", wt.s) : NULL;
    free(wt.s);
    if (wv) em_line(E, "if (%s != 0) {", wv);
    E->ind += wv != NULL;
    plan_elem_at(E, &P, 0, &off, &valid);
    char *lv = em_load(E, at.el, em_sf(E, elem_fmt, arr, off));
    if (!strcmp(valid, "1")) em_line(E, "%s += %s%s;", acc, wv ? em_sf(E, "%s * ", wv) : "", lv);
    else em_line(E, "if (%s) %s += %s%s;", valid, acc, wv ? em_sf(E, "%s * ", wv) : "", lv);
    E->ind -= wv != NULL;
    if (wv) em_line(E, "}");
  }
  return acc;
}

char *em_index_read(Em *E, Node *n) {
  for (int j = 0; j < E->nahead; j++)
    if (E->ahead[j] == n) return em_sf(E, "_la%d_%d", j, E->pf_k);
  char *reg = rows_ahead_reg(E, n);
  if (reg) return reg;
  KType at = em_T(E, n->a), r = em_T(E, n);
  char *arr = em_vname(E, em_ex(E, n->a), at);
  if (at.kind == K_VEC) {
    /* a component of a small vector (kernel code: reads outside give 0) */
    Node *e = n->list.items[0];
    KType it = em_T(E, e);
    Rule rule = rule_of(n->a->kind == N_IDENT ? (unsigned)n->a->ival : 0);
    char *iv = it.kind == K_VEC ? (e->kind == N_RANGE ? em_ex_range_value(E, e) : em_vname(E, em_ex(E, e), it)) : em_ex(E, e);
    int64_t c;
    int len = it.kind == K_VEC ? it.len : 1;
    char *t0 = it.kind == K_VEC ? em_tmp(E) : NULL;
    if (t0) em_line(E, "%s %s;", em_ctype(E, r), t0);
    for (int k = 0; k < len; k++) {
      char *ik = it.kind == K_VEC ? em_sf(E, "%s.v[%d]", iv, k) : iv;
      KType ikt = it.kind == K_VEC ? em_kt(it.elem) : it;
      char *val;
      if (it.kind != K_VEC && e->kind == N_INT && (c = e->ival) >= 0 && c < at.len) {
        val = em_sf(E, "%s.v[%d]", arr, (int)c);
      } else {
        char *j = em_tmp(E);
        em_line(E, "int64_t %s = %s;", j, em_idx64(E, ik, ikt));
        if (rule == R_CIRC || rule == R_MIRROR || rule == R_CLAMP)
          em_line(E, "%s = %s(%s, %d);", j, rule == R_CIRC ? "oq_circ" : rule == R_MIRROR ? "oq_mirror" : "oq_clampi", j,
               at.len);
        val = em_sf(E, "((uint64_t)%s < %d ? %s.v[%s] : 0)", j, at.len, arr, j);
      }
      if (!t0) return val;
      em_line(E, "%s.v[%d] = %s;", t0, k, val);
    }
    return t0;
  }
  const char *elem_fmt = ldg_param(E, n->a) ? "__ldg(&%s.p[%s])" : "%s.p[%s]";
  unsigned mods = n->a->kind == N_IDENT ? (unsigned)n->a->ival : 0;
  if ((mods & (TM_HWTEX_NEAREST | TM_HWTEX_LINEAR)) && hwtex_coords(E, n, at, NULL, NULL))
    return hwtex_read(E, n, arr, at, elem_fmt);
  Plan P;
  plan_build(E, n, arr, at, &P);
  KKind ec = el_is_complex(at.el) ? K_CPLX : el_is_integer(at.el) ? K_INT : K_REAL;
  if (E->count_arr && !strcmp(E->count_arr, arr)) elem_fmt = "(oq_real)((const unsigned *)%s.p)[%s]";   /* coarse.c */
  if (P.vdim < 0) {
    char *off, *valid;
    plan_elem(E, &P, 0, &off, &valid);
    char *lv = em_load(E, at.el, P.lin && em_prefetched(E, arr) ? em_prefetched(E, arr) : em_sf(E, elem_fmt, arr, off));
    /* read now, so the index temporaries die here */
    char *t0 = em_tmp(E);
    if (!strcmp(valid, "1")) em_line(E, "const %s %s = %s;", em_ctype(E, r), t0, lv);
    else em_line(E, "const %s %s = %s ? %s : %s;", em_ctype(E, r), t0, valid, lv, zero_of(E, ec));
    return t0;
  }
  char *t0 = em_tmp(E);
  em_line(E, "%s %s;", em_ctype(E, r), t0);
  for (int k = 0; k < P.vlen; k++) {
    char *off, *valid;
    plan_elem(E, &P, k, &off, &valid);
    char *lv = em_load(E, at.el, em_sf(E, elem_fmt, arr, off));
    em_line(E, "%s.v[%d] = %s ? %s : %s;", t0, k, valid, lv, zero_of(E, ec));
  }
  return t0;
}

/* The class of old op v for an element of class et (what rt_binary gives). */
static KType rmw_class(Op op, KType et, KType vt) {
  KKind c = em_kclass(vt) > em_kclass(et) ? em_kclass(vt) : em_kclass(et);
  if ((op == OP_DIV || op == OP_EDIV || op == OP_POW || op == OP_EPOW) && c == K_INT) c = K_REAL;
  if (op == OP_BAND || op == OP_BOR || op == OP_BXOR) c = K_INT;
  return em_kt(c);
}

/* A compare-and-swap loop on *p (an element of type el): cas_open declares the value read
   (*o) and the one to store (*nn) and opens the loop, where the caller computes *nn from *o;
   cas_close retries until the swap succeeds. In C, 16-byte elements take a lock instead
   (locked16): GCC's 16-byte compare-and-swap is a call into libatomic, which kernels do not
   link. */
static bool locked16(Em *E, ElemType el) { return !E->D->cas16 && el_size(el) == 16; }

static void cas_open(Em *E, ElemType el, const char *p, char **o, char **nn) {
  *o = em_tmp(E);
  *nn = em_tmp(E);
  em_line(E, "%s %s, %s;", em_el_ctype(el), *o, *nn);
  E->cas16 |= el_size(el) == 16;
  if (locked16(E, el)) {
    em_line(E, "int *const %s_lk = oq_lock16(%s);", *o, p);
    em_line(E, "%s = *%s;", *o, p);
    em_line(E, "{");
  } else {
    em_line(E, "__atomic_load(%s, &%s, __ATOMIC_RELAXED);", p, *o);
    em_line(E, "do {");
  }
  E->ind++;
}

static void cas_close(Em *E, ElemType el, const char *p, const char *o, const char *nn) {
  E->ind--;
  if (locked16(E, el)) {
    em_line(E, "}");
    em_line(E, "*%s = %s;", p, nn);
    em_line(E, "oq_unlock16(%s_lk);", o);
    return;
  }
  em_line(E, "} while (!__atomic_compare_exchange(%s, &%s, &%s, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));", p, o, nn);
}

/* *lv op= v (op + or -) on a complex element of type el as two atomic additions, one per
   part: each part ends at the serial sum's (additions commute, and a complex sum is the sums
   of its parts). The value, when res wants it: each part's old value as its atomic saw it,
   plus v's. */
static void complex_parts_add(Em *E, ElemType el, Op op, char *lv, char *v, KType vt, char *res) {
  ElemType pel = el == EL_C64 ? EL_F32 : EL_F64;
  const char *pt = em_el_ctype(pel), *sign = op == OP_SUB ? "-" : "";
  char *z = em_tmp(E), *p = em_tmp(E), *old[2];
  em_line(E, "const oq_cplx %s = %s;", z, em_conv(E, v, vt, K_CPLX));
  em_line(E, "%s *const %s = (%s *)&%s;", pt, p, pt, lv);
  for (int k = 0; k < 2; k++) {
    char *x = em_sf(E, "%s(%s)%s(%s)", sign, pt, k ? "cimag" : "creal", z), *part = em_sf(E, "%s + %d", p, k), *n;
    if (E->D->fadd) {
      old[k] = em_tmp(E);
      em_line(E, "const %s %s = %s(%s, %s);", pt, old[k], E->D->fadd, part, x);
      continue;
    }
    cas_open(E, pel, part, &old[k], &n);
    em_line(E, "%s = %s + %s;", n, old[k], x);
    cas_close(E, pel, part, old[k], n);
  }
  if (res) em_line(E, "%s = oq_mkc((double)%s + %s(double)creal(%s), (double)%s + %s(double)cimag(%s));", res, old[0], sign, z,
                   old[1], sign, z);
}

/* Stores v (type vt) into element k of the plan, optionally combining with op (atomically
   unless the array is block-shared: one worker runs a whole block). res: where the stored
   value goes (or NULL). */
static void store_elem(Em *E, Plan *P, KType at, int k, Op op, char *v, KType vt, char *res, Node *at_node) {
  char *off, *valid;
  plan_elem(E, P, k, &off, &valid);
  ElemType el = at.el;
  const char *ct = em_el_ctype(el);
  KType et = em_kt(el_is_complex(el) ? K_CPLX : el_is_integer(el) ? K_INT : K_REAL), rc = rmw_class(op, et, vt);
  char *lv = em_sf(E, "%s.p[%s]", P->arr, off);
  if (op == OP_NONE) {
    em_line(E, "if (%s) %s = %s;", valid, lv, em_store_conv(E, el, v, vt));
    if (res) em_line(E, "%s = %s;", res, v);
    return;
  }
  if (P->own) {   /* no other thread touches it: no atomic */
    em_line(E, "if (%s) %s = %s;", valid, lv, em_store_conv(E, el, em_num_op(E, op, em_load(E, el, lv), et, v, vt, at_node), rc));
    return;
  }
  const EmDialect *D = E->D;
  Update u = {P, off, valid, lv, el, op, v, vt, et, rc, res, at_node};
  /* persistent blocks' accumulator of counts (coarse.c): no branch on valid either */
  if (D->count_update && D->count_update(E, &u)) return;
  /* CUDA counts into a shared-memory copy: no branch on valid (the global path keeps it) */
  bool counted = P->priv >= 0 && D->priv_count && D->priv_count(E, &u);
  if (!counted) em_line(E, "if (%s) {", valid);
  E->ind++;
  bool priv = !counted && P->priv >= 0 && D->priv_update(E, &u);
  if (at.shared && D->serial_blocks && !res && op == OP_ADD && E->count_arr && !strcmp(E->count_arr, P->arr)) {
    em_line(E, "((unsigned *)%s.p)[%s] += (unsigned)(%s);", P->arr, off, v);   /* persistent blocks' counts (emit_c) */
  } else if (at.shared && D->serial_blocks) {   /* on the GPU the threads of a block run at once */
    em_line(E, "%s = %s;", lv, em_store_conv(E, el, em_num_op(E, op, em_load(E, el, lv), et, v, vt, at_node), rc));
    if (res) em_line(E, "%s = %s;", res, em_load(E, el, lv));
  } else if (el_is_complex(el) && (op == OP_ADD || op == OP_SUB) && !E->S->cplx_whole) {
    complex_parts_add(E, el, op, lv, v, vt, res);
  } else if (D->shadow_update && D->shadow_update(E, &u)) {
    /* persistent blocks: the epilogue's += goes to the array's shadow (coarse.c) */
  } else if (D->native_update(E, &u)) {
    /* one native atomic: CUDA's atomicAdd, atomicMax, ...; C's __atomic_*_fetch of int32 */
  } else {
    /* the whole element, complex included (CUDA: 8 bytes, or 16 on sm_90: oq_acas) */
    char *p = em_tmp(E), *o, *nn;
    em_line(E, "%s *%s = &%s;", ct, p, lv);
    cas_open(E, el, p, &o, &nn);
    em_line(E, "%s = %s;", nn, em_store_conv(E, el, em_num_op(E, op, em_load(E, el, o), et, v, vt, at_node), rc));
    cas_close(E, el, p, o, nn);
    if (res) em_line(E, "%s = %s;", res, em_load(E, el, nn));
  }
  if (priv) {
    E->ind--;
    em_line(E, "}");
  }
  E->ind--;
  if (res) {
    em_line(E, "} else {");
    E->ind++;
    em_line(E, "%s = %s;", res, em_load(E, el, em_store_conv(E, el, em_num_op(E, op, zero_of(E, et.kind), et, v, vt, at_node), rc)));
    E->ind--;
  }
  em_line(E, "}");
}

/* x[...] (op)= v; returns the stored value's C expression when want is set. */
char *em_index_store(Em *E, Node *n, Node *target, Op op, char *v, KType vt, bool want) {
  KType at = em_T(E, target->a);
  if (at.kind == K_VEC) {
    /* a component of a local vector */
    Node *e = target->list.items[0];
    char *lv = em_slot_ref(E, target->a->slot);
    KType cur = em_T(E, target->a);
    char *i0 = em_tmp(E);
    em_line(E, "int64_t %s = %s;", i0, em_idx64(E, em_ex(E, e), em_T(E, e)));
    char *old = em_sf(E, "%s.v[%s]", lv, i0);
    char *nv = op == OP_NONE ? em_conv(E, v, vt, cur.elem)
                             : em_conv(E, em_num_op(E, op, old, em_kt(cur.elem), v, vt, n), em_T(E, n), cur.elem);
    em_line(E, "if ((uint64_t)%s < %d) %s = %s;", i0, cur.len, old, nv);
    return want ? old : NULL;
  }
  char *arr = em_vname(E, em_ex(E, target->a), at);
  Plan P;
  plan_build(E, target, arr, at, &P);
  if (op != OP_NONE && !want) P.priv = em_private_of(E, target->a);
  P.own = op != OP_NONE && !want && !at.shared && P.rule <= R_UNCHECKED && em_own_update(E, target);
  char *res = NULL;
  KType et = op == OP_NONE ? vt : em_T(E, target);
  if (want) {
    res = em_tmp(E);
    em_line(E, "%s %s = {0};", em_ctype(E, et), res);
  }
  if (vt.kind == K_VEC) v = em_vname(E, v, vt);
  if (P.vdim < 0) {
    store_elem(E, &P, at, 0, op, v, vt, res, n);
    return res;
  }
  for (int k = 0; k < P.vlen; k++) {
    char *vk = vt.kind == K_VEC ? em_sf(E, "%s.v[%d]", v, k) : v;
    KType vkt = vt.kind == K_VEC ? em_kt(vt.elem) : vt;
    store_elem(E, &P, at, k, op, vk, vkt, res ? em_sf(E, "%s.v[%d]", res, k) : NULL, n);
  }
  return res;
}

char *em_ex_exchange(Em *E, Node *n) {
  Node *target = n->a;
  KType at = em_T(E, target->a), et = em_T(E, target);
  char *arr = em_vname(E, em_ex(E, target->a), at);
  bool cas = n->b->kind == N_TUPLE;
  Node *vn = cas ? n->b->list.items[1] : n->b;
  char *expected = cas ? em_ex(E, n->b->list.items[0]) : NULL;
  KType ext = cas ? em_T(E, n->b->list.items[0]) : em_kt(K_INT);
  char *v = em_ex(E, vn);
  KType vt = em_T(E, vn);
  Plan P;
  plan_build(E, target, arr, at, &P);
  char *off, *valid;
  plan_elem(E, &P, 0, &off, &valid);
  ElemType el = at.el;
  const char *ct = em_el_ctype(el);
  if (!E->D->xchg16 && el_size(el) > 8) em_efail(E, n->loc, "'<-' on 16-byte elements is not compiled for %s", E->D->name);
  char *res = em_tmp(E), *lv = em_sf(E, "%s.p[%s]", arr, off);
  em_line(E, "%s %s = 0;", em_ctype(E, et), res);
  em_line(E, "if (%s) {", valid);
  E->ind++;
  char *p = em_tmp(E), *o = em_tmp(E), *nn = em_tmp(E);
  em_line(E, "%s *%s = &%s;", ct, p, lv);
  em_line(E, "%s %s, %s = %s;", ct, o, nn, em_store_conv(E, el, v, vt));
  if (!cas) {
    em_line(E, "__atomic_exchange(%s, &%s, &%s, __ATOMIC_RELAXED);", p, nn, o);
    em_line(E, "%s = %s;", res, em_load(E, el, o));
  } else {
    em_line(E, "__atomic_load(%s, &%s, __ATOMIC_RELAXED);", p, o);
    em_line(E, "for (;;) {");
    E->ind++;
    em_line(E, "if (!%s) break;", em_num_op(E, OP_EQ, em_load(E, el, o), et, expected, ext, n));
    em_line(E, "if (__atomic_compare_exchange(%s, &%s, &%s, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) break;", p, o, nn);
    E->ind--;
    em_line(E, "}");
    em_line(E, "%s = %s;", res, em_load(E, el, o));
  }
  E->ind--;
  em_line(E, "}");
  return res;
}
