/* interp_arrayexpr.c: host array expressions run as one generated kernel each
   (transform_arrayexpr.c marked them; arrayexpr.h).

   When a marked node runs: its leaves are evaluated (once, in source order); when at least
   one is an array, every array has the same shape, and every operator is element-wise for
   these values (no matrix product, no && of arrays), the expression becomes the body of a
   kernel over the arrays' elements:
       x = a .* b + 0.5*cos(a)   ->   ax_out[pos] = ax0[pos] .* ax1[pos] + 0.5*cos(ax0[pos])
       s = sum((a - b).^2)       ->   ax_s += (ax0[pos] - ax1[pos]).^2
       m = sum(a .* b, d)        ->   one thread per element of m, looping along d
                                      (build_along_kernel), or lanes per element and a
                                      kernel combining them (launch_along)
   launched by kernel_parallel_do over numel(a) positions, so it is specialized on the
   arguments' types, cached, and run on the active back end like every kernel, and the
   arrays stay where they are (on the GPU: nothing moves). A kernel is made per node and
   per pattern of array and number leaves (its RunNote keeps them). The result's element
   type is the one the runtime's operators give: they compute it on one-element arrays of
   the leaves' types (probe), so the two cannot disagree. Otherwise, and for arrays of fewer
   than OQ_ARRAY_KERNEL_MIN elements that are not on the GPU, the original node runs (after
   the statements fused into it: arrayexpr.h, unfuse). A complex sum adds its real and
   imaginary parts as two real outputs. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "interp/arrayexpr.h"
#include "runtime/rt_internal.h"
#include "device/rt_cuda.h"
#include "base/config.h"

#define MAX_LEAVES 32

/* A kernel made for one pattern of leaves, and what the leaves' types gave. */
typedef struct AxKernel {
  const ArrayExpr *E;              /* the node's expression it computes (fusion makes several) */
  unsigned char sig[MAX_LEAVES];   /* per leaf: 1 + element type of an array, 100 + kind of a number */
  uint32_t view[MAX_LEAVES];       /* per slice leaf: its indices (AxSlice.code), else 0 */
  int rank;                 /* of the launch: 2 or 3 (pos : ivec2, ivec3); 0: flat (pos : int) */
  ElemType elem;            /* of the expression's array result */
  ValueKind red;            /* reductions: V_INT or V_SCALAR */
  Func *func;
  Callable *fn;             /* func as the launch's kernel argument (kept for every launch) */
  /* a reduction along a dimension in lanes (launch_along): the lanes' kernel (func, or mean's
     without its division), the kernel that combines their partial results (of element type
     part_elem), and its launch site (the GPU keeps a memo per site) */
  Func *lanes_func, *fold_func, *mid_func;   /* mid: a fold of folds (mean's without division) */
  Callable *lanes_fn, *fold_fn, *mid_fn;
  Node *fold_site, *mid_site;
  ElemType part_elem;
  struct AxKernel *next;
} AxKernel;

/* A slice leaf x[i, a..s..b, :] read in place: each index a number (start) or a range
   (start, step, count; ':' is 0, 1, size), all inside the array. */
typedef struct AxSlice {
  int nidx;
  bool kept[OQ_MAX_RANK];   /* a range or ':' */
  int64_t start[OQ_MAX_RANK], step[OQ_MAX_RANK], count[OQ_MAX_RANK];
  int first;                /* the result's dimension o comes from index first + o */
  uint32_t code;            /* nidx and the kept bits: what the kernel's text depends on */
} AxSlice;

/* What one run of the node found. */
typedef struct AxRun {
  Value leaf[MAX_LEAVES];   /* a slice leaf: the array it reads */
  int n;
  unsigned arrays;          /* bit k: leaf k is an array or a slice */
  unsigned char sig[MAX_LEAVES];
  uint32_t view[MAX_LEAVES];
  AxSlice slice[MAX_LEAVES];
  bool have_shape;
  int srank;                /* the shape every array leaf has */
  int64_t sdims[OQ_MAX_RANK], numel;
  bool on_device;           /* some array leaf is current on the GPU */
  int rank;                 /* of the launch (AxKernel.rank) */
  /* a reduction along a dimension: the arrays as outer x n x inner around it (a vec is a
     1 x N row), and the result's shape (runtime's reduce: that dimension becomes 1) */
  int64_t outer, n_along, inner;
  int orank;
  int64_t odims[OQ_MAX_RANK];
  /* a launch fused in (ArrayExpr.launch): its size and its arguments (none for g, whose
     leaf holds it) */
  Value kdims;
  Value karg[MAX_LEAVES];
  int nkargs;
} AxRun;

static void run_release(AxRun *R) {
  for (int k = 0; k < R->n; k++) val_release(R->leaf[k]);
  for (int a = 0; a < R->nkargs; a++) val_release(R->karg[a]);
  val_release(R->kdims);
}

/* Cheap test before anything is evaluated: a statement whose leaves are all variables that
   hold no array (scalar code in a loop) goes back at once. */
static bool may_have_arrays(Interp *I, const ArrayExpr *E) {
  if (I->prog->opt->target == TARGET_INTERP) return false;   /* (marked for --explain only) */
  if (I->thread) return false;   /* a plain function run by a kernel thread of the oracle */
  for (int k = 0; k < E->nleaves; k++) {
    const Node *l = E->leaves[k];
    if (l->kind == N_ARRAYEXPR) continue;   /* a reduction: a number */
    if (l->kind != N_IDENT) return true;
    if (l->slot >= 0 && slot_ref(I, l)->kind == V_ARRAY) return true;
  }
  return false;
}

/* Index d of slice leaf ix into dimension size n: a number or a range inside it. */
static bool slice_index(Interp *I, Node *ix, int64_t n, AxSlice *S, int d) {
  S->kept[d] = ix->kind == N_COLON || ix->kind == N_RANGE;
  S->count[d] = 1;
  S->step[d] = 1;
  if (ix->kind == N_COLON) {
    S->start[d] = 0;
    S->count[d] = n;
    return n > 0;
  }
  if (ix->kind == N_RANGE) {
    RangeSpec r = range_spec(I, ix);
    S->start[d] = r.i0, S->step[d] = r.istep, S->count[d] = r.count;
    int64_t last = r.i0 + (r.count - 1) * r.istep;
    return r.is_int && r.count > 0 && r.i0 >= 0 && r.i0 < n && last >= 0 && last < n;
  }
  Value v = eval(I, ix);
  bool ok = v.kind == V_INT || v.kind == V_BOOL;
  S->start[d] = ok ? v.i : 0;
  val_release(v);
  return ok && S->start[d] >= 0 && S->start[d] < n;
}

/* Slice leaf x[...] as a view of x (*base), or false (then it is read into a copy). */
static bool eval_slice(Interp *I, Node *leaf, AxSlice *S, Value *base) {
  *base = eval(I, leaf->a);
  int nidx = leaf->list.n;
  if (base->kind != V_ARRAY || (nidx != base->arr->rank && nidx != 1) || nidx > 15) return false;
  const Array *a = base->arr;
  S->nidx = nidx;
  S->code = (uint32_t)nidx;
  for (int d = 0; d < nidx; d++) {
    if (!slice_index(I, leaf->list.items[d], nidx == 1 ? a->numel : a->dims[d], S, d)) return false;
    S->code |= (uint32_t)S->kept[d] << (d + 4);
  }
  S->first = 0;
  return S->code >> 4 != 0;   /* some index kept (else it is one element) */
}

static void leaf_shape(AxSlice *S, const Array *a, bool slice, int *rank, int64_t *dims) {
  if (!slice) {
    *rank = a->rank;
    memcpy(dims, a->dims, sizeof(int64_t) * (size_t)a->rank);
  } else if (S->nidx == 1) {
    *rank = 1;
    dims[0] = S->count[0];
  } else {
    *rank = rt_slice_shape(S->nidx, S->kept, S->count, dims, &S->first);
  }
}

/* Equal shapes, dimensions past the rank being 1 (arr_same_shape's rule). */
static bool same_dims(int ra, const int64_t *a, int rb, const int64_t *b) {
  for (int d = 0; d < OQ_MAX_RANK && (d < ra || d < rb); d++)
    if ((d < ra ? a[d] : 1) != (d < rb ? b[d] : 1)) return false;
  return true;
}

static bool add_leaf_shape(AxRun *R, int rank, const int64_t *dims) {
  if (R->have_shape) return same_dims(R->srank, R->sdims, rank, dims);   /* else the runtime says why */
  R->have_shape = true;
  R->srank = rank;
  memcpy(R->sdims, dims, sizeof(int64_t) * (size_t)rank);
  R->numel = 1;
  for (int d = 0; d < rank; d++) R->numel *= dims[d];
  return true;
}

static bool eval_leaves(Interp *I, const ArrayExpr *E, AxRun *R) {
  memset(R, 0, sizeof *R);
  for (int k = 0; k < E->nleaves; k++) {
    Node *l = E->leaves[k];
    Value v;
    bool slice = false;
    if (l->kind == N_INDEX) {
      slice = eval_slice(I, l, &R->slice[k], &v);
      if (!slice) {
        val_release(v);
        v = eval(I, l);
      }
    } else {
      v = eval(I, l);
    }
    R->leaf[R->n++] = v;
    R->sig[k] = v.kind == V_ARRAY ? 1 + v.arr->elem : 100 + v.kind;
    R->view[k] = slice ? R->slice[k].code : 0;
    if (v.kind == V_ARRAY) {
      int rank;
      int64_t dims[OQ_MAX_RANK];
      leaf_shape(&R->slice[k], v.arr, slice, &rank, dims);
      if (!add_leaf_shape(R, rank, dims)) return false;
      R->arrays |= 1u << k;
      R->on_device |= (v.arr->state & ARR_DEVICE_VALID) != 0;
    } else if (!v_is_num(v)) {
      return false;
    }
  }
  if (!R->have_shape) return false;
  /* maps launch over the arrays' shape like user kernels; a reduction without slices is
     one flat loop (a grid-stride loop with no coordinates to carry) */
  bool slices = false;
  for (int k = 0; k < R->n; k++) slices |= R->view[k] != 0;
  R->rank = (R->srank == 2 || R->srank == 3) && (slices || E->red == OP_NONE) ? R->srank : 0;
  return !slices || R->srank <= 3;   /* a slice's coordinates come from pos: rank 1 to 3 */
}

/* Whether the operators of e are element-wise when the leaves in `arrays` are arrays;
   *is_array tells whether e is array-valued. */
static bool elementwise_for(const Node *e, unsigned arrays, bool *is_array) {
  bool a = false, b = false;
  switch (e->kind) {
  case N_IDENT: *is_array = arrays >> e->ival & 1; return true;
  case N_UNARY:
    if (!elementwise_for(e->a, arrays, &a)) return false;
    *is_array = a;
    return !(a && e->op == OP_NOT);   /* !array is one bool */
  case N_BINARY:
    if (!elementwise_for(e->a, arrays, &a) || !elementwise_for(e->b, arrays, &b)) return false;
    *is_array = a || b;
    if (a && b && (e->op == OP_MUL || e->op == OP_DIV || e->op == OP_POW)) return false;
    return !((a || b) && (e->op == OP_AND || e->op == OP_OR));
  case N_COND: {
    bool c = false;
    if (!elementwise_for(e->a, arrays, &c) || !elementwise_for(e->b, arrays, &a) || !elementwise_for(e->c, arrays, &b))
      return false;
    *is_array = a || b || c;
    return c;   /* a number chooses one branch, unevaluated the other, and aliases it: the runtime's */
  }
  case N_CALL:
    *is_array = false;
    for (int i = 0; i < e->list.n; i++) {
      if (!elementwise_for(e->list.items[i], arrays, &a)) return false;
      *is_array |= a;
    }
    return true;
  default:
    *is_array = false;
    return true;
  }
}

/* ---- c ? a : b with an array condition: element by element ---- */

static void select_operand(Value v, const Array *c, SrcLoc loc) {
  char sa[200], sb[200];
  if (v.kind == V_ARRAY && !same_dims(v.arr->rank, v.arr->dims, c->rank, c->dims))
    rt_error(loc, "shape mismatch in '?:': %s and %s", rt_dims_str(sa, sizeof sa, c->rank, c->dims),
             rt_dims_str(sb, sizeof sb, v.arr->rank, v.arr->dims));
  if (v.kind != V_ARRAY && !v_is_num(v))
    rt_error(loc, "'?:' with an array condition takes numbers or arrays, not a %s", rt_kind_name(v));
}

/* The element type of the result: that of a + b (ints stay ints, int and scalar give
   scalar, anything and complex complex), asked of the runtime on one-element arrays. */
static ElemType select_type(Value a, Value b, SrcLoc loc) {
  static const int64_t one = 1;
  Value p[2] = {a, b};
  for (int i = 0; i < 2; i++) {
    if (p[i].kind != V_ARRAY) { val_retain(p[i]); continue; }
    Array *t = arr_new(p[i].arr->elem, 1, &one);
    arr_store(t, 0, 1);
    p[i] = v_array(t);
  }
  Value r = rt_binary(OP_ADD, p[0], p[1], loc);
  ElemType e = r.kind == V_ARRAY ? r.arr->elem : r.kind == V_CSCALAR ? el_cscalar() : r.kind == V_SCALAR ? el_scalar() : EL_I32;
  val_release(r);
  val_release(p[0]);
  val_release(p[1]);
  return e;
}

static void select_copy(Array *r, int64_t i, Value v) {
  if (v.kind == V_ARRAY) {
    double re, im;
    if (el_is_integer(r->elem)) arr_store_i(r, i, arr_load_i(v.arr, i));
    else arr_load_c(v.arr, i, &re, &im), arr_store_c(r, i, re, im);
  } else if (v.kind == V_CSCALAR) {
    arr_store_c(r, i, v.c.re, v.c.im);
  } else if (v.kind == V_SCALAR) {
    arr_store(r, i, v.s);
  } else {
    arr_store_i(r, i, v.i);
  }
}

Value arrayexpr_select(Value cond, Value a, Value b, SrcLoc loc) {
  const Array *c = cond.arr;
  select_operand(a, c, loc);
  select_operand(b, c, loc);
  Array *r = arr_new_uninit(select_type(a, b, loc), c->rank, c->dims);
  for (int64_t i = 0; i < c->numel; i++) {
    double re, im;
    arr_load_c(c, i, &re, &im);
    select_copy(r, i, re != 0 || im != 0 ? a : b);
  }
  return v_array(r);
}

/* ---- the result's type: the runtime's operators on one-element arrays ---- */

static Value probe(const Node *e, const Value *leaf) {
  switch (e->kind) {
  case N_IDENT: val_retain(leaf[e->ival]); return leaf[e->ival];
  case N_INT: return v_int(e->ival);
  case N_REAL: return v_scalar(e->rval);
  case N_IMAG: return v_cscalar(0, e->rval);
  case N_UNARY: {
    Value a = probe(e->a, leaf), r = rt_unary(e->op, a, e->loc);
    val_release(a);
    return r;
  }
  case N_BINARY: {
    Value a = probe(e->a, leaf), b = probe(e->b, leaf), r = rt_binary(e->op, a, b, e->loc);
    val_release(a);
    val_release(b);
    return r;
  }
  case N_COND: {
    Value c = probe(e->a, leaf), a = probe(e->b, leaf), b = probe(e->c, leaf);
    Value r;
    if (c.kind == V_ARRAY) {
      r = arrayexpr_select(c, a, b, e->loc);   /* a new array: ours already */
    } else {
      r = rt_truthy(c, e->loc) ? a : b;
      val_retain(r);
    }
    val_release(c);
    val_release(a);
    val_release(b);
    return r;
  }
  case N_CALL: {
    Value args[4];
    int n = e->list.n;
    for (int i = 0; i < n; i++) args[i] = probe(e->list.items[i], leaf);
    Value r = rt_builtin_lookup(e->a->name)->fn(n, args, e->loc);
    for (int i = 0; i < n; i++) val_release(args[i]);
    return r;
  }
  default:
    rt_error(e->loc, "internal error: %s in an array expression", node_kind_name(e->kind));
  }
}

/* The element type of the expression's array result, and for a reduction the kind of its
   value (V_INT, V_SCALAR, V_CSCALAR). */
static ElemType result_type(const ArrayExpr *E, const AxRun *R, ValueKind *red_kind) {
  Value pv[MAX_LEAVES];
  static const int64_t one = 1;
  ElemType elem = EL_COUNT;
  for (int k = 0; k < R->n; k++) {
    if (!(R->arrays >> k & 1)) { pv[k] = R->leaf[k]; val_retain(pv[k]); continue; }
    Array *a = arr_new(R->leaf[k].arr->elem, 1, &one);
    arr_store(a, 0, 1);
    pv[k] = v_array(a);
  }
  Value r = probe(E->expr, pv);
  elem = r.kind == V_ARRAY ? r.arr->elem : EL_COUNT;
  if (E->target_leaf >= 0 && v_is_num(r))   /* x[slice] = number: a fill */
    elem = r.kind == V_CSCALAR ? el_cscalar() : r.kind == V_SCALAR ? el_scalar() : EL_I64;
  for (int f = 0; f < E->nfused; f++) {   /* a fused t: an array whose elements the kernel computes alike */
    Value t = probe(E->fused[f], pv);
    ElemType te = t.kind == V_ARRAY ? t.arr->elem : EL_COUNT;
    if (te != el_scalar() && te != el_cscalar() && te != EL_I32) elem = EL_COUNT;
    val_release(t);
  }
  bool ordered = E->red == OP_MIN || E->red == OP_MAX;
  if (ordered && r.kind == V_ARRAY && el_is_complex(r.arr->elem)) {
    elem = EL_COUNT;   /* complex values have no order: the runtime says so, at the call */
  } else if (E->red != OP_NONE && r.kind == V_ARRAY) {
    Value s = rt_builtin_lookup(E->red == OP_ADD ? "sum" : E->redname)->fn(1, &r, E->expr->loc);
    *red_kind = s.kind;
    val_release(s);
  }
  val_release(r);
  for (int k = 0; k < R->n; k++) val_release(pv[k]);
  return elem;
}

/* ---- the kernel ---- */

static Node *at_pos(Program *P, Node *array) {
  Node *ix = ast_node(P->arena, N_INDEX, array->loc);
  ix->a = array;
  ix->list.n = 1;
  ix->list.items = arena_alloc(P->arena, sizeof *ix->list.items);
  ix->list.items[0] = ast_ident(P->arena, "pos", array->loc);
  return ix;
}

static const char *leaf_name(Program *P, int k) {
  char name[16];
  snprintf(name, sizeof name, "ax%d", k);
  return arena_strdup(P->arena, name);
}

static const char *slice_param(Program *P, int k, char what, int d) {
  char name[32];
  snprintf(name, sizeof name, "ax%d_%c%d", k, what, d);
  return arena_strdup(P->arena, name);
}

static Node *binary(Program *P, Op op, Node *a, Node *b) {
  Node *n = ast_node(P->arena, N_BINARY, a->loc);
  n->op = op;
  n->a = a;
  n->b = b;
  return n;
}

/* Coordinate o of the launch: pos[o], or pos itself in a flat launch. */
static Node *coordinate(Program *P, int rank, int o, SrcLoc loc) {
  if (!rank) return ast_ident(P->arena, "pos", loc);
  Node *c = at_pos(P, ast_ident(P->arena, "pos", loc));
  c->list.items[0] = ast_node(P->arena, N_INT, loc);
  c->list.items[0]->ival = o;
  c->a = ast_ident(P->arena, "pos", loc);
  return c;
}

/* Slice leaf k as the kernel reads it: axk[axk_s0, axk_s1 + axk_t1 * pos[0], ...]. */
static Node *slice_read(Program *P, int k, uint32_t code, int rank, SrcLoc loc) {
  int nidx = (int)(code & 15), first = 0;
  while (first < nidx - 1 && !(code >> (first + 4) & 1)) first++;
  Node *ix = ast_node(P->arena, N_INDEX, loc);
  ix->a = ast_ident(P->arena, leaf_name(P, k), loc);
  ix->list.n = nidx;
  ix->list.items = arena_alloc(P->arena, nidx * sizeof *ix->list.items);
  for (int d = 0; d < nidx; d++) {
    Node *e = ast_ident(P->arena, slice_param(P, k, 's', d), loc);
    if (code >> (d + 4) & 1)
      e = binary(P, OP_ADD, e, binary(P, OP_MUL, ast_ident(P->arena, slice_param(P, k, 't', d), loc),
                                      coordinate(P, rank, nidx == 1 ? 0 : d - first, loc)));
    ix->list.items[d] = e;
  }
  return ix;
}

/* The kernel's copy of the expression: array leaf k is axk[pos], a slice leaf reads its
   view, a number leaf is axk. */
static Node *kernel_expr_at(Program *P, const Node *e, unsigned arrays, const uint32_t *view, int rank,
                            const Node *at);

static Node *kernel_expr(Program *P, const Node *e, unsigned arrays, const uint32_t *view, int rank) {
  return kernel_expr_at(P, e, arrays, view, rank, NULL);
}

/* The same with the array leaves read at index `at` (NULL: pos). */
static Node *kernel_expr_at(Program *P, const Node *e, unsigned arrays, const uint32_t *view, int rank,
                            const Node *at) {
  if (e->kind == N_IDENT && e->name[0] == '$') {
    int k = (int)e->ival;
    if (view[k]) return slice_read(P, k, view[k], rank, e->loc);
    Node *id = ast_ident(P->arena, leaf_name(P, k), e->loc);
    if (!(arrays >> k & 1)) return id;
    Node *ix = at_pos(P, id);
    if (at) ix->list.items[0] = ast_clone(P->arena, at);
    return ix;
  }
  Node *c = ast_node(P->arena, e->kind, e->loc);
  *c = *e;
  if (e->kind == N_CALL) {
    c->a = ast_clone(P->arena, e->a);
    c->list.items = arena_alloc(P->arena, (e->list.n + 1) * sizeof *c->list.items);
    for (int i = 0; i < e->list.n; i++) c->list.items[i] = kernel_expr_at(P, e->list.items[i], arrays, view, rank, at);
    return c;
  }
  if (e->a) c->a = kernel_expr_at(P, e->a, arrays, view, rank, at);
  if (e->b) c->b = kernel_expr_at(P, e->b, arrays, view, rank, at);
  if (e->c) c->c = kernel_expr_at(P, e->c, arrays, view, rank, at);
  return c;
}

static Type *new_type(Program *P, TypeKind kind, const char *name, unsigned mods) {
  Type *t = arena_alloc(P->arena, sizeof *t);
  memset(t, 0, sizeof *t);
  t->kind = kind;
  t->name = name;
  t->mods = mods;
  return t;
}

static void add_param(Program *P, Param *ps, int *n, const char *name, Type *t, SrcLoc loc) {
  (void)P;
  ps[*n] = (Param){.name = name, .type = t, .loc = loc};
  ++*n;
}

/* function [] = __kernel__ expr_F_L(ax_out, ax0, ..., pos : int): ax_out[pos] = e
   function ax_s = __kernel__ ... : ax_s += e   (^^= / __= for max / min, *= for prod)
   Array parameters are 'unchecked: every position is inside every array. */
static Type *pos_type(Program *P, int rank) {
  if (!rank) return new_type(P, TY_INT, "int", 0);
  Type *t = new_type(P, TY_ARRAY, rank == 2 ? "ivec2" : "ivec3", 0);
  t->rank = 1;
  t->fixed_len = rank;
  t->elem = new_type(P, TY_INT, "int", 0);
  return t;
}

static Node *call1(Program *P, const char *fn, Node *arg) {
  Node *c = ast_node(P->arena, N_CALL, arg->loc);
  c->a = ast_ident(P->arena, fn, arg->loc);
  c->list.n = 1;
  c->list.items = arena_alloc(P->arena, sizeof *c->list.items);
  c->list.items[0] = arg;
  return c;
}

/* A complex sum adds two real outputs (the compiled back ends reduce reals):
       ax_t = e;  ax_re += real(ax_t);  ax_im += imag(ax_t)
   `body` (ax_s = e) gives its right side. */
static void complex_sum_body(Program *P, Func *k, Node *body) {
  SrcLoc loc = body->loc;
  Type *scalar = new_type(P, TY_SCALAR, "scalar", 0);
  k->outs = arena_alloc(P->arena, 2 * sizeof *k->outs);
  k->nouts = 2;
  k->outs[0] = (Param){.name = "ax_re", .loc = loc, .type = scalar};
  k->outs[1] = (Param){.name = "ax_im", .loc = loc, .type = scalar};
  k->body.n = 3;
  k->body.items = arena_alloc(P->arena, 3 * sizeof *k->body.items);
  body->list.items[0] = ast_ident(P->arena, "ax_t", loc);
  k->body.items[0] = body;
  for (int i = 0; i < 2; i++) {
    Node *s = ast_node(P->arena, N_ASSIGN, loc);
    s->op = OP_ADD;
    s->list.n = 1;
    s->list.items = arena_alloc(P->arena, sizeof *s->list.items);
    s->list.items[0] = ast_ident(P->arena, i ? "ax_im" : "ax_re", loc);
    s->b = call1(P, i ? "imag" : "real", ast_ident(P->arena, "ax_t", loc));
    k->body.items[1 + i] = s;
  }
}

/* An empty kernel for the statement at n, named expr_<function>_<line><suffix>, with room
   for maxparams parameters. */
static Func *new_expr_kernel(Program *P, const Node *n, const ArrayExpr *E, size_t maxparams, const char *suffix) {
  Func *k = arena_alloc(P->arena, sizeof *k);
  memset(k, 0, sizeof *k);
  k->kind = FK_KERNEL;
  k->loc = n->loc;
  char name[160];
  const Func *host = E->chain[E->nchain - 1];
  snprintf(name, sizeof name, "expr_%s_%d%s", host == P->script ? "top" : host->name, n->loc.line, suffix);
  k->name = arena_strdup(P->arena, name);
  k->params = arena_alloc(P->arena, maxparams * sizeof *k->params);
  return k;
}

/* Whether array leaf i of a statement fused with a launch is read through k's parameter
   (KernelFusion.leaf_param: the same variable, passed to k unconverted). */
static bool read_via_k(const KernelFusion *L, int i, unsigned arrays) {
  return L && i != L->gleaf && L->leaf_param[i] >= 0 && (arrays >> i & 1);
}

static void rename_ident(Node *n, const char *from, const char *to) {
  if (!n) return;
  if (n->kind == N_IDENT && !strcmp(n->name, from)) n->name = to;
  for (AstKids k = ast_kids(n); k.node; ast_next(&k)) rename_ident(k.node, from, to);
}

/* The body of a kernel fused with k's launch (arrayexpr.h, KernelFusion): k's statements,
   its last one `g[pos] = e` made `ax_kv : scalar = e` (g's elements are the scalars the
   guards checked; `g[pos] = ax_kv` after it where g is read later), then `body`, whose
   expression reads ax_kv in place of g. */
static void launch_body(Program *P, Func *k, const KernelFusion *L, Node *body) {
  const NodeList *kb = &L->kernel->body;
  k->body.n = kb->n + 1 + L->write_g;
  k->body.items = arena_alloc(P->arena, (size_t)k->body.n * sizeof *k->body.items);
  for (int i = 0; i + 1 < kb->n; i++) k->body.items[i] = ast_clone(P->arena, kb->items[i]);
  const Node *last = kb->items[kb->n - 1];
  Node *kv = ast_node(P->arena, N_ASSIGN, last->loc);
  kv->list.n = 1;
  kv->list.items = arena_alloc(P->arena, sizeof *kv->list.items);
  kv->list.items[0] = ast_ident(P->arena, "ax_kv", last->loc);
  kv->type = new_type(P, TY_SCALAR, "scalar", 0);
  kv->b = ast_clone(P->arena, last->b);
  k->body.items[kb->n - 1] = kv;
  if (L->write_g) {
    Node *w = ast_clone(P->arena, last);
    w->b = ast_ident(P->arena, "ax_kv", last->loc);
    k->body.items[kb->n] = w;
  }
  k->body.items[kb->n + L->write_g] = body;
}

static Func *build_kernel(Interp *I, Node *n, const ArrayExpr *E, unsigned arrays, const uint32_t *view,
                          ValueKind out, int rank) {
  int tl = E->target_leaf;
  Program *P = I->prog;
  SrcLoc loc = n->loc;
  const KernelFusion *L = E->launch;
  char suffix[128] = "";
  if (L) snprintf(suffix, sizeof suffix, "_%s", L->kernel->name);
  Func *k = new_expr_kernel(P, n, E, (size_t)E->nleaves * (1 + 2 * OQ_MAX_RANK) + 2 + (L ? (size_t)L->kernel->nparams : 0),
                            suffix);
  Type *unchecked = new_type(P, TY_UNKNOWN, NULL, TM_UNCHECKED), *any = new_type(P, TY_UNKNOWN, NULL, 0);
  Node *body = ast_node(P->arena, N_ASSIGN, loc);
  body->list.n = 1;
  body->list.items = arena_alloc(P->arena, sizeof *body->list.items);
  body->b = kernel_expr(P, E->expr, arrays, view, rank);
  if (tl >= 0) {   /* a slice written in place */
    body->list.items[0] = slice_read(P, tl, view[tl], rank, loc);
  } else if (E->red == OP_NONE) {
    add_param(P, k->params, &k->nparams, "ax_out", unchecked, loc);
    body->list.items[0] = at_pos(P, ast_ident(P->arena, "ax_out", loc));
  } else if (out == V_CSCALAR) {
    complex_sum_body(P, k, body);
  } else {
    k->outs = arena_alloc(P->arena, sizeof *k->outs);
    k->nouts = 1;
    k->outs[0] = (Param){.name = "ax_s", .loc = loc,
                         .type = out == V_INT ? new_type(P, TY_INT, "int", 0) : new_type(P, TY_SCALAR, "scalar", 0)};
    body->op = E->red;
    body->list.items[0] = ast_ident(P->arena, "ax_s", loc);
  }
  for (int i = 0; i < E->nleaves; i++)
    if (!L || (i != L->gleaf && !read_via_k(L, i, arrays)))   /* (g: its value is k's, ax_kv) */
      add_param(P, k->params, &k->nparams, leaf_name(P, i), arrays >> i & 1 ? unchecked : any, loc);
  Type *int_type = new_type(P, TY_INT, "int", 0);
  for (int i = 0; i < E->nleaves; i++)   /* the slices' starts and steps (slice_args) */
    for (int d = 0; view[i] && d < (int)(view[i] & 15); d++) {
      add_param(P, k->params, &k->nparams, slice_param(P, i, 's', d), int_type, loc);
      if (view[i] >> (d + 4) & 1) add_param(P, k->params, &k->nparams, slice_param(P, i, 't', d), int_type, loc);
    }
  if (L) {
    for (int i = 0; i < E->nleaves; i++)
      if (read_via_k(L, i, arrays)) rename_ident(body->b, leaf_name(P, i), L->kernel->params[L->leaf_param[i]].name);
    for (int i = 0; i < L->kernel->nparams; i++)   /* k's, as declared (their modifiers too) */
      if ((i != L->gparam || L->write_g) && !is_special_kernel_param(L->kernel->params[i].name)) {
        k->params[k->nparams] = L->kernel->params[i];
        k->params[k->nparams++].defval = NULL;   /* (every argument is passed) */
      }
    launch_body(P, k, L, body);
  }
  add_param(P, k->params, &k->nparams, "pos", pos_type(P, rank), loc);
  if (!k->body.n) {
    k->body.n = 1;
    k->body.items = arena_alloc(P->arena, sizeof *k->body.items);
    k->body.items[0] = body;
  }
  resolve_nested(P, E->chain, E->nchain, k);
  func_note_transform(k, E->red == OP_NONE ? "array expression" : "array reduction");
  if (L) func_note_transform(k, "fused with a kernel's launch");
  return k;
}

/* ---- reductions along a dimension ---- */

static Node *int_lit(Program *P, int64_t v, SrcLoc loc) {
  Node *n = ast_node(P->arena, N_INT, loc);
  n->ival = v;
  return n;
}

static Node *assign(Program *P, Node *target, Node *value) {
  Node *s = ast_node(P->arena, N_ASSIGN, value->loc);
  s->list.n = 1;
  s->list.items = arena_alloc(P->arena, sizeof *s->list.items);
  s->list.items[0] = target;
  s->b = value;
  return s;
}

static Node *cond(Program *P, Node *c, Node *a, Node *b) {
  Node *n = ast_node(P->arena, N_COND, c->loc);
  n->a = c, n->b = a, n->c = b;
  return n;
}

/* How ax_acc takes in the value named v: + for sum and mean, * for prod; min and max skip
   NaNs as the runtime does: v == v && (acc != acc || v < acc) ? v : acc, written
   (acc != acc && v == v) ? v : (v < acc ? v : acc), the same in every case: the compiled
   loop tests the common case with one comparison (the first form took 4 vector comparisons
   a step: max(x, [], 1) of 2048^2 floats, one core, 0.9 ms -> 0.62 ms). */
static Node *combine(Program *P, const ArrayExpr *E, const char *v, SrcLoc loc) {
  Node *acc = ast_ident(P->arena, "ax_acc", loc);
  if (E->red == OP_ADD || E->red == OP_MUL) return binary(P, E->red, acc, ast_ident(P->arena, v, loc));
  Node *better = binary(P, E->red == OP_MAX ? OP_GT : OP_LT, ast_ident(P->arena, v, loc), ast_ident(P->arena, "ax_acc", loc));
  Node *acc_nan = binary(P, OP_NE, ast_ident(P->arena, "ax_acc", loc), ast_ident(P->arena, "ax_acc", loc));
  Node *v_num = binary(P, OP_EQ, ast_ident(P->arena, v, loc), ast_ident(P->arena, v, loc));
  Node *kept = cond(P, better, ast_ident(P->arena, v, loc), acc);
  return cond(P, binary(P, OP_AND, acc_nan, v_num), ast_ident(P->arena, v, loc), kept);
}

/* a * b + c * d of named ints (c NULL: a * b + d) */
static Node *affine(Program *P, Node *a, const char *b, Node *c, const char *d, SrcLoc loc) {
  Node *ab = binary(P, OP_MUL, a, ast_ident(P->arena, b, loc));
  return binary(P, OP_ADD, ab, c ? binary(P, OP_MUL, c, ast_ident(P->arena, d, loc)) : ast_ident(P->arena, d, loc));
}

/* for K = from..to: v = value; ax_acc = combine(ax_acc, v) */
static Node *fold_loop(Program *P, const ArrayExpr *E, const char *k, Node *from, Node *to, const char *v,
                       Node *value) {
  SrcLoc loc = value->loc;
  Node *loop = ast_node(P->arena, N_FOR, loc);
  loop->name = k;
  loop->a = ast_node(P->arena, N_RANGE, loc);
  loop->a->a = from;
  loop->a->c = to;
  loop->list.n = 2;
  loop->list.items = arena_alloc(P->arena, 2 * sizeof *loop->list.items);
  loop->list.items[0] = assign(P, ast_ident(P->arena, v, loc), value);
  loop->list.items[1] = assign(P, ast_ident(P->arena, "ax_acc", loc), combine(P, E, v, loc));
  return loop;
}

static Node *at_index(Program *P, const char *array, Node *index) {
  Node *ix = at_pos(P, ast_ident(P->arena, array, index->loc));
  ix->list.items[0] = index;
  return ix;
}

/* The body's statements, kept: body[0..n) */
static void set_body(Program *P, Func *k, Node **body, int n) {
  k->body.n = n;
  k->body.items = arena_alloc(P->arena, (size_t)n * sizeof *k->body.items);
  memcpy(k->body.items, body, (size_t)n * sizeof *body);
}

/* The parameters of a kernel along a dimension: ax_out ('nocopy: every element is written),
   the arrays `extra` (here ax_part), the leaves, the int parameters `ints`, pos : ivec2. */
static void add_along_params(Program *P, Func *k, const ArrayExpr *E, unsigned arrays, const char *extra,
                             const char *const *ints, int nints, SrcLoc loc) {
  Type *unchecked = new_type(P, TY_UNKNOWN, NULL, TM_UNCHECKED), *any = new_type(P, TY_UNKNOWN, NULL, 0);
  Type *int_type = new_type(P, TY_INT, "int", 0);
  add_param(P, k->params, &k->nparams, "ax_out", new_type(P, TY_UNKNOWN, NULL, TM_UNCHECKED | TM_NOCOPY), loc);
  if (extra) add_param(P, k->params, &k->nparams, extra, unchecked, loc);
  for (int i = 0; i < E->nleaves; i++)
    add_param(P, k->params, &k->nparams, leaf_name(P, i), arrays >> i & 1 ? unchecked : any, loc);
  for (int i = 0; i < nints; i++) add_param(P, k->params, &k->nparams, ints[i], int_type, loc);
  add_param(P, k->params, &k->nparams, "pos", pos_type(P, 2), loc);
}

/* function [] = __kernel__ expr_F_L(ax_out, ax0, ..., ax_n, ax_inner, ax_s0, ax_s1, ax_o0,
                                      ax_o1 : int, pos : ivec2)
       ax_b = pos[0] * ax_s0 + pos[1] * ax_s1
       ax_acc = e(ax_b)
       for ax_k = 1..ax_n - 1
           ax_v = e(ax_b + ax_k * ax_inner)
           ax_acc = ax_acc + ax_v            (combine)
       endfor
       ax_out[pos[0] * ax_o0 + pos[1] * ax_o1] = ax_acc   (/ ax_n for mean, when `divide`)
   Each thread walks one run of ax_n elements ax_inner apart, from ax_b: the arrays are seen
   as outer x n x inner (row-major) around the reduced dimension, element (o, k, i) at
   (o * n + k) * inner + i, and launch_along picks the runs, the strides and the launch's
   order (along_pass): a whole run per element of the result, or lanes that take every C-th
   element of a run, whose partial results build_fold_kernel's kernel combines. ax_out is
   'nocopy: every element is written (nothing is uploaded to the GPU first). */
static Func *build_along_kernel(Interp *I, Node *n, const ArrayExpr *E, unsigned arrays, bool divide) {
  Program *P = I->prog;
  SrcLoc loc = n->loc;
  Func *k = new_expr_kernel(P, n, E, (size_t)E->nleaves + 8, divide ? "" : "_lanes");
  static const char *const ints[] = {"ax_n", "ax_inner", "ax_s0", "ax_s1", "ax_o0", "ax_o1"};
  add_along_params(P, k, E, arrays, NULL, ints, 6, loc);
  uint32_t view[MAX_LEAVES] = {0};
  Node *base = affine(P, coordinate(P, 2, 0, loc), "ax_s0", coordinate(P, 2, 1, loc), "ax_s1", loc);
  Node *at_k = affine(P, ast_ident(P->arena, "ax_k", loc), "ax_inner", NULL, "ax_b", loc);
  Node *loop = fold_loop(P, E, "ax_k", int_lit(P, 1, loc), binary(P, OP_SUB, ast_ident(P->arena, "ax_n", loc), int_lit(P, 1, loc)),
                         "ax_v", kernel_expr_at(P, E->expr, arrays, view, 2, at_k));
  Node *result = ast_ident(P->arena, "ax_acc", loc);
  if (divide && !strcmp(E->redname, "mean")) result = binary(P, OP_DIV, result, ast_ident(P->arena, "ax_n", loc));
  Node *out_at = affine(P, coordinate(P, 2, 0, loc), "ax_o0", coordinate(P, 2, 1, loc), "ax_o1", loc);
  Node *body[] = {
      assign(P, ast_ident(P->arena, "ax_b", loc), base),
      assign(P, ast_ident(P->arena, "ax_acc", loc), kernel_expr_at(P, E->expr, arrays, view, 2, ast_ident(P->arena, "ax_b", loc))),
      loop,
      assign(P, at_index(P, "ax_out", out_at), result),
  };
  set_body(P, k, body, 4);   /* (emit_c.c's along_kernel knows this shape) */
  resolve_nested(P, E->chain, E->nchain, k);
  func_note_transform(k, "array reduction along a dimension");
  return k;
}

/* function [] = __kernel__ expr_F_L_fold(ax_out, ax_part, ax0, ..., ax_c, ax_f0, ax_f1, ax_fl,
                                           ax_inner, ax_s, ax_tb, ax_tn, ax_n : int, pos : ivec2)
       ax_b = pos[0] * ax_f0 + pos[1] * ax_f1
       ax_acc = ax_part[ax_b]
       for ax_k = 1..ax_c - 1
           ax_p = ax_part[ax_b + ax_k * ax_fl]
           ax_acc = ax_acc + ax_p            (combine)
       endfor
       ax_e = pos[0] * ax_s + pos[1] + ax_tb
       for ax_j = 0..ax_tn - 1
           ax_v = e(ax_e + ax_j * ax_inner)
           ax_acc = ax_acc + ax_v
       endfor
       ax_out[pos[0] * ax_inner + pos[1]] = ax_acc   (/ ax_n for mean)
   The second kernel of a reduction in lanes: per element (o, i) of the result, its C lanes'
   partial results in lane order (lane c of (o, i) at ax_b + c * ax_fl), then the run's last
   n mod C elements (from ax_tb in the run), which no lane took: a fixed order, so every run
   gives the same bits. Where C is large, folds of folds first (launch_along: no tail, mean's
   without its division when not `divide`) leave fewer lanes. */
static Func *build_fold_kernel(Interp *I, Node *n, const ArrayExpr *E, unsigned arrays, bool divide) {
  Program *P = I->prog;
  SrcLoc loc = n->loc;
  Func *k = new_expr_kernel(P, n, E, (size_t)E->nleaves + 12, divide ? "_fold" : "_mid");
  static const char *const ints[] = {"ax_c", "ax_f0", "ax_f1", "ax_fl", "ax_inner", "ax_s", "ax_tb", "ax_tn", "ax_n"};
  add_along_params(P, k, E, arrays, "ax_part", ints, 9, loc);
  uint32_t view[MAX_LEAVES] = {0};
  Node *lane = affine(P, ast_ident(P->arena, "ax_k", loc), "ax_fl", NULL, "ax_b", loc);
  Node *tail = affine(P, ast_ident(P->arena, "ax_j", loc), "ax_inner", NULL, "ax_e", loc);
  Node *first_tail = binary(P, OP_ADD, affine(P, coordinate(P, 2, 0, loc), "ax_s", NULL, "ax_tb", loc), coordinate(P, 2, 1, loc));
  Node *result = ast_ident(P->arena, "ax_acc", loc);
  if (divide && !strcmp(E->redname, "mean")) result = binary(P, OP_DIV, result, ast_ident(P->arena, "ax_n", loc));
  Node *out_at = binary(P, OP_ADD, binary(P, OP_MUL, coordinate(P, 2, 0, loc), ast_ident(P->arena, "ax_inner", loc)),
                        coordinate(P, 2, 1, loc));
  Node *body[] = {
      assign(P, ast_ident(P->arena, "ax_b", loc), affine(P, coordinate(P, 2, 0, loc), "ax_f0", coordinate(P, 2, 1, loc), "ax_f1", loc)),
      assign(P, ast_ident(P->arena, "ax_acc", loc), at_index(P, "ax_part", ast_ident(P->arena, "ax_b", loc))),
      fold_loop(P, E, "ax_k", int_lit(P, 1, loc), binary(P, OP_SUB, ast_ident(P->arena, "ax_c", loc), int_lit(P, 1, loc)), "ax_p",
                at_index(P, "ax_part", lane)),
      assign(P, ast_ident(P->arena, "ax_e", loc), first_tail),
      fold_loop(P, E, "ax_j", int_lit(P, 0, loc), binary(P, OP_SUB, ast_ident(P->arena, "ax_tn", loc), int_lit(P, 1, loc)), "ax_v",
                kernel_expr_at(P, E->expr, arrays, view, 2, tail)),
      assign(P, at_index(P, "ax_out", out_at), result),
  };
  set_body(P, k, body, 6);
  resolve_nested(P, E->chain, E->nchain, k);
  func_note_transform(k, "array reduction along a dimension: lanes combined");
  return k;
}

/* The element type of reduction `red` (E's, or "sum" for mean's partial sums) of E along a
   dimension, asked of the runtime's built-in on a one-element array of the expression's
   type (EL_COUNT: not an array). */
static ElemType along_type(const ArrayExpr *E, const AxRun *R, const char *red) {
  Value pv[MAX_LEAVES];
  static const int64_t one = 1, none = 0;
  for (int k = 0; k < R->n; k++) {
    if (!(R->arrays >> k & 1)) { pv[k] = R->leaf[k]; val_retain(pv[k]); continue; }
    Array *a = arr_new(R->leaf[k].arr->elem, 1, &one);
    arr_store(a, 0, 1);
    pv[k] = v_array(a);
  }
  Value r = probe(E->expr, pv), res = v_none();
  if (r.kind == V_ARRAY) {
    bool three = E->red == OP_MIN || E->red == OP_MAX;   /* max(x, [], dim); sum(x, dim) */
    Value args[3] = {r, three ? v_array(arr_new(EL_F64, 1, &none)) : v_int(0), v_int(0)};
    res = rt_builtin_lookup(red)->fn(three ? 3 : 2, args, E->expr->loc);
    val_release(args[1]);
  }
  ElemType elem = res.kind == V_ARRAY ? res.arr->elem : EL_COUNT;
  val_release(res);
  val_release(r);
  for (int k = 0; k < R->n; k++) val_release(pv[k]);
  return elem;
}

static bool same_sig(const AxKernel *k, const ArrayExpr *E, const AxRun *R) {
  return k->E == E && k->rank == R->rank && !memcmp(k->sig, R->sig, (size_t)R->n) &&
         !memcmp(k->view, R->view, sizeof(uint32_t) * (size_t)R->n);
}

static Callable *kernel_value(Func *f) {
  Callable *c = callable_new(CALL_USER, f->name);
  c->func = f;
  return c;
}

/* The kernel for this run's leaves, made (and its result type probed) the first time. */
static const AxKernel *kernel_for(Interp *I, Node *n, const ArrayExpr *E, const AxRun *R) {
  RunNote *note = run_note(I->prog, n);
  for (AxKernel *k = note->arrayexpr; k; k = k->next)
    if (same_sig(k, E, R)) return k;
  AxKernel *k = arena_alloc(I->prog->arena, sizeof *k);
  memset(k, 0, sizeof *k);
  k->E = E;
  memcpy(k->sig, R->sig, sizeof k->sig);
  memcpy(k->view, R->view, sizeof k->view);
  k->rank = R->rank;
  k->elem = result_type(E, R, &k->red);
  bool complex_sum = k->red == V_CSCALAR && E->red == OP_ADD;   /* (prod: the runtime's) */
  bool usable = k->elem != EL_COUNT && (E->red == OP_NONE || k->red == V_INT || k->red == V_SCALAR || complex_sum);
  if (E->dim && usable) {   /* (result_type checked the fused statements) */
    k->elem = along_type(E, R, E->redname);
    k->part_elem = !strcmp(E->redname, "mean") ? along_type(E, R, "sum") : k->elem;
    usable = k->elem != EL_COUNT && k->part_elem != EL_COUNT && (!el_is_complex(k->elem) || E->red == OP_ADD);
  }
  for (AxKernel *o = note->arrayexpr; o && usable && !k->func; o = o->next) {
    unsigned arrays = 0;   /* the same parameters: the same Func, specialized anew at launch */
    for (int i = 0; i < R->n; i++) arrays |= (unsigned)(o->sig[i] < 100) << i;
    if (o->func && o->E == E && arrays == R->arrays && o->rank == k->rank && o->red == k->red &&
        !memcmp(o->view, R->view, sizeof(uint32_t) * (size_t)R->n)) {
      k->func = o->func;
      k->lanes_func = o->lanes_func;
      k->fold_func = o->fold_func;
      k->mid_func = o->mid_func;
      k->fold_site = o->fold_site;
      k->mid_site = o->mid_site;
    }
  }
  if (usable && !k->func && E->dim) {
    k->func = build_along_kernel(I, n, E, R->arrays, true);
    k->lanes_func = strcmp(E->redname, "mean") ? k->func : build_along_kernel(I, n, E, R->arrays, false);
    k->fold_func = build_fold_kernel(I, n, E, R->arrays, true);
    k->mid_func = strcmp(E->redname, "mean") ? k->fold_func : build_fold_kernel(I, n, E, R->arrays, false);
    k->fold_site = ast_node(I->prog->arena, n->kind, n->loc);
    k->mid_site = ast_node(I->prog->arena, n->kind, n->loc);
  } else if (usable && !k->func) {
    k->func = build_kernel(I, n, E, R->arrays, R->view, k->red, k->rank);
  }
  k->fn = k->func ? kernel_value(k->func) : NULL;
  k->lanes_fn = k->lanes_func ? kernel_value(k->lanes_func) : NULL;
  k->fold_fn = k->fold_func ? kernel_value(k->fold_func) : NULL;
  k->mid_fn = k->mid_func ? kernel_value(k->mid_func) : NULL;
  note = run_note(I->prog, n);   /* (building may have added notes) */
  k->next = note->arrayexpr;
  note->arrayexpr = k;
  return k;
}

/* Launches k over every element of R's arrays, with `first` (the output array, or none)
   before the leaves. */
static Value launch(Interp *I, Node *n, const AxKernel *k, const AxRun *R, Value first) {
  Value argv[MAX_LEAVES * (2 + 2 * OQ_MAX_RANK) + 3];
  const KernelFusion *L = k->E->launch;
  int argc = 0;
  if (R->rank) {
    Array *dims = arr_vec(EL_I32, R->rank);
    for (int d = 0; d < R->rank; d++) arr_store(dims, d, (double)R->sdims[d]);
    argv[argc++] = v_array(dims);
  } else {
    argv[argc++] = v_int(R->numel);
  }
  if (first.kind != V_NONE) argv[argc++] = first;
  for (int i = 0; i < R->n; i++)
    if (!L || (i != L->gleaf && !read_via_k(L, i, R->arrays))) argv[argc++] = R->leaf[i];
  for (int i = 0; i < R->n; i++)   /* (build_kernel's order) */
    for (int d = 0; R->view[i] && d < R->slice[i].nidx; d++) {
      argv[argc++] = v_int(R->slice[i].start[d]);
      if (R->slice[i].kept[d]) argv[argc++] = v_int(R->slice[i].step[d]);
    }
  for (int a = 0; L && a < R->nkargs; a++)
    if (a != L->garg) argv[argc++] = R->karg[a];
    else if (L->write_g) argv[argc++] = R->leaf[L->gleaf];
  argv[argc++] = v_func(k->fn);
  Value r = kernel_parallel_do(I, n, argc, argv);
  val_release(argv[0]);
  return r;
}

/* ---- reductions along a dimension: the launches ----
   The arrays are outer x n x inner around the reduced dimension (along_ready), the result
   outer x inner. One thread per element of the result walking its run of n elements (one
   pass of build_along_kernel's kernel) leaves the GPU idle where the result is small (sum(x,
   0) of a 2048 x 2048 matrix: 2048 threads of 2048 steps) and reads a run per thread where
   inner == 1 (sum(x, 1): each load of a warp a line of its own), and on the CPU such a run
   is one chain of dependent adds. So C lanes share each run: lane c takes elements c, c + C,
   c + 2C, ... (m = n / C of them), a pass of the same kernel over outer x C*inner threads
   with a run of m elements C*inner apart, which writes C partial results per element of the
   result; build_fold_kernel's kernel combines them in lane order, then the n mod C elements
   left. The lanes of a warp (GPU) or of a vector (CPU: emit_c.c's along_loop runs the C *
   inner positions of a row of the launch as lanes) read consecutive elements at each step.
   The order of the operations depends on C (and C on the target and the shape), never on
   the run: the same arguments give the same bits. */

/* GPU: threads of a pass, at least (before each lane has 8 elements or fewer); an H100
   holds 270336 at once */
#define ALONG_GPU_THREADS (1 << 17)
/* CPU: lanes of a run of contiguous elements (inner == 1): 32 floats, 4 AVX vectors */
#define ALONG_CPU_LANES 32
/* CPU: positions of a pass, at least, when inner > 1 (each lane at least 32 elements) */
#define ALONG_CPU_POSITIONS 2048

/* The lanes per run C (1: one thread walks each run). */
static int64_t along_lanes(const AxRun *R, bool gpu) {
  int64_t n = R->n_along, inner = R->inner, outputs = R->outer * inner, C = 1;
  int want = config()->dev.along_lanes;
  if (want) return want < n ? want : n;
  if (gpu) {
    while (outputs * C < ALONG_GPU_THREADS) C *= 2;
    while (C * inner < 32) C *= 2;   /* a warp's loads: 128 consecutive bytes */
    while (C > 1 && n < 8 * C) C /= 2;
    return C;
  }
  if (inner == 1) {
    C = ALONG_CPU_LANES;
    while (C >= 8 && n < 8 * C) C /= 2;
    return C >= 8 ? C : 1;   /* fewer lanes than a vector: rows of lanes (along_loop) */
  }
  while (outputs * C < ALONG_CPU_POSITIONS && n >= 64 * C) C *= 2;
  return C;
}

/* Launches fn over [d0, d1] with the arrays `first`, the leaves and the ints. */
static void along_launch(Interp *I, Node *site, Callable *fn, int64_t d0, int64_t d1, const Value *first, int nfirst,
                         const AxRun *R, const int64_t *ints, int nints) {
  Value argv[MAX_LEAVES + 16];
  int argc = 0;
  Array *dims = arr_vec(EL_I32, 2);
  arr_store(dims, 0, (double)d0);
  arr_store(dims, 1, (double)d1);
  argv[argc++] = v_array(dims);
  for (int i = 0; i < nfirst; i++) argv[argc++] = first[i];
  for (int i = 0; i < R->n; i++) argv[argc++] = R->leaf[i];
  for (int i = 0; i < nints; i++) argv[argc++] = v_int(ints[i]);
  argv[argc++] = v_func(fn);
  val_release(kernel_parallel_do(I, site, argc, argv));
  val_release(argv[0]);
}

/* Where lane q = c * inner + i of result element o leaves its partial result: [outer, C *
   inner] row-major (CPU: along_loop's lanes store consecutive elements; GPU with inner >= 32)
   or [C * inner, outer] (GPU: the fold's threads, consecutive o, read consecutive elements). */
typedef struct AlongLayout {
  bool gpu;            /* the launch: [outer, Q] (CUDA's x is Q) or [Q, outer] */
  bool lane_major;     /* partial results [Q, outer] */
} AlongLayout;

/* The pass over runs of m = n / C elements, C lanes per run, into dst. */
static void along_pass(Interp *I, Node *n, Callable *fn, Array *dst, const AxRun *R, int64_t C, AlongLayout lay) {
  int64_t len = R->n_along, inner = R->inner, outer = R->outer, Q = C * inner, m = len / C, slab = len * inner;
  Value first = v_array(dst);
  if (C == 1 && inner == 1) {   /* a run per thread: pos = [o, 0] (along_loop: rows of lanes) */
    int64_t ints[6] = {len, 1, len, 0, 1, 0};
    along_launch(I, n, fn, outer, 1, &first, 1, R, ints, 6);
    return;
  }
  /* ax_n, ax_inner, ax_s0, ax_s1, ax_o0, ax_o1: pos = [o, q] or [q, o] */
  int64_t o_out = lay.lane_major ? 1 : Q, q_out = lay.lane_major ? outer : 1;
  if (lay.gpu) {
    int64_t ints[6] = {m, Q, slab, 1, o_out, q_out};
    along_launch(I, n, fn, outer, Q, &first, 1, R, ints, 6);
  } else {
    int64_t ints[6] = {m, Q, 1, slab, q_out, o_out};
    along_launch(I, n, fn, Q, outer, &first, 1, R, ints, 6);
  }
}

/* A fresh array of the result or the partial results (OQ_DEV_ALONG_POISON: filled with a
   value no test expects, so that an element the kernels leave unwritten shows). */
static Array *along_array(ElemType elem, int rank, const int64_t *dims) {
  Array *a = arr_new_uninit(elem, rank, dims);
  for (int64_t i = 0; config()->dev.along_poison && i < a->numel; i++) {
    if (el_is_integer(elem)) arr_store_i(a, i, INT32_MIN + 7);
    else arr_store(a, i, 1e30);
  }
  return a;
}

/* A fold leaves most this many lanes' partial results to the final fold: a fold of C
   lanes is a serial walk of C partial results per thread, and few outputs (sum(t, 0) of a
   tall n x 16 t) make few threads. Each fold of folds divides the lanes by ALONG_FOLD_BY. */
#define ALONG_FOLD_MOST 256
#define ALONG_FOLD_BY 64

/* Partial results: C lanes per element of the result, in the layout `lane_major`, of the
   pass whose lanes took `taken` elements of each run. */
typedef struct AlongParts {
  Array *a;
  int64_t C;
  bool lane_major;
  int64_t taken;
} AlongParts;

/* A fold of src into dst, C2 lanes per element of the result left (1: the final fold, which
   takes in the run's tail and divides for mean). Thread (o, q2 = c2 * inner + i) combines
   the lanes c2, c2 + C2, ... of element (o, i) in that order. */
static void along_fold(Interp *I, const AxKernel *k, const AxRun *R, const AlongParts *src, Array *dst, int64_t C2) {
  int64_t inner = R->inner, outer = R->outer, len = R->n_along, C = src->C;
  int64_t lane = src->lane_major ? inner * outer : inner;   /* from lane c to c + 1 */
  bool last = C2 == 1;
  /* ax_c, ax_f0, ax_f1, ax_fl, ax_inner, ax_s, ax_tb, ax_tn, ax_n: pos = [o, q2] */
  int64_t ints[9] = {C / C2, src->lane_major ? 1 : C * inner, src->lane_major ? outer : 1, C2 * lane, C2 * inner,
                     last ? len * inner : 0, last ? src->taken * inner : 0, last ? len - src->taken : 0, last ? len : 1};
  Value first[2] = {v_array(dst), v_array(src->a)};
  along_launch(I, last ? k->fold_site : k->mid_site, last ? k->fold_fn : k->mid_fn, outer, C2 * inner, first, 2, R, ints, 9);
}

/* A reduction along a dimension: one pass, or lanes and their folds. */
static Value launch_along(Interp *I, Node *n, const AxKernel *k, const AxRun *R) {
  bool gpu = I->prog->opt->target == TARGET_CUDA || config()->dev.along_gpu;
  int64_t C = along_lanes(R, gpu), inner = R->inner, outer = R->outer;
  AlongLayout lay = {gpu, gpu && inner < 32};
  Array *out = along_array(k->elem, R->orank, R->odims);
  if (C == 1) {   /* into the result: row-major */
    along_pass(I, n, k->fn, out, R, 1, (AlongLayout){gpu, false});
    return v_array(out);
  }
  int64_t parts = outer * C * inner;
  AlongParts p = {along_array(k->part_elem, 1, &parts), C, lay.lane_major, R->n_along / C * C};
  along_pass(I, n, k->lanes_fn, p.a, R, C, lay);
  while (p.C > ALONG_FOLD_MOST && p.C % ALONG_FOLD_BY == 0) {
    int64_t C2 = p.C / ALONG_FOLD_BY, fewer = outer * C2 * inner;
    AlongParts q = {along_array(k->part_elem, 1, &fewer), C2, false, p.taken};
    along_fold(I, k, R, &p, q.a, C2);
    val_release(v_array(p.a));
    p = q;
  }
  along_fold(I, k, R, &p, out, 1);
  val_release(v_array(p.a));
  return v_array(out);
}

/* How many of R's leaves and of its fused launch's arguments hold array a (each holds a
   reference); with around, only those read elsewhere than at pos: slices and the fused
   launch's arguments (its kernel reads them around pos). */
static int holders_of(const AxRun *R, const Array *a, bool around) {
  int n = 0;
  for (int k = 0; k < R->n; k++) n += R->leaf[k].kind == V_ARRAY && R->leaf[k].arr == a && (!around || R->view[k]);
  for (int b = 0; b < R->nkargs; b++) n += R->karg[b].kind == V_ARRAY && R->karg[b].arr == a;
  return n;
}

static int holders(const AxRun *R, const Array *a) { return holders_of(R, a, false); }

/* The array the statement's result goes to: the target's own, when nothing else holds it
   and leaves read it only at pos (each position is then read and written by one thread: x
   = x - a*(x - y) runs in place; a new array each time cost a page fault per page on the
   CPU and made bench/arrayexpr/tvparts.q's "update only" 5x slower on the GPU), else a
   new one. */
static Array *output_array(Interp *I, const ArrayExpr *E, const AxRun *R, ElemType elem) {
  Value old = *slot_ref(I, E->target);
  if (old.kind == V_ARRAY && old.arr->refcount == 1 + holders(R, old.arr) && old.arr->elem == elem &&
      old.arr->rank == R->srank && same_dims(old.arr->rank, old.arr->dims, R->srank, R->sdims) &&
      !holders_of(R, old.arr, true)) {
    old.arr->refcount++;
    return old.arr;
  }
  return arr_new_uninit(elem, R->srank, R->sdims);
}

/* A fused launch's output (x = e(g) of a KernelFusion): g's own array, when x's array can
   take its place in g: g's value is dead and only g holds its array (launch_ready), and only
   x holds x's array, of the same element type and shape. The two swap after the launch
   (arrayexpr_exec): no array is made (in the TV loop, every iteration after the first).
   Else NULL: output_array's new array. */
static Array *launch_output(Interp *I, const ArrayExpr *E, const AxRun *R, ElemType elem) {
  if (!E->launch || E->launch->write_g || E->target_leaf >= 0) return NULL;
  Array *g = R->leaf[E->launch->gleaf].arr;
  Value old = *slot_ref(I, E->target);
  if (old.kind != V_ARRAY || old.arr == g || g->elem != elem || old.arr->elem != elem ||
      !same_dims(old.arr->rank, old.arr->dims, g->rank, g->dims))
    return NULL;
  if (old.arr->refcount != 1 + holders(R, old.arr)) return NULL;   /* (1: x's own) */
  g->refcount++;
  return g;
}

/* sum(e, d) and friends: d a dimension the runtime takes, no slice read in place, and a
   reduced dimension of at least one element (else the runtime's rules: zeros, errors). */
static bool along_ready(Interp *I, const ArrayExpr *E, AxRun *R) {
  for (int k = 0; k < R->n; k++)
    if (R->view[k]) return false;
  Value d = eval(I, E->dim);
  bool ok = d.kind == V_INT && d.i >= 0 && d.i < OQ_MAX_RANK;
  int64_t dim = ok ? d.i : 0;
  val_release(d);
  if (!ok) return false;
  int rank = R->srank;
  int64_t dims[OQ_MAX_RANK];
  memcpy(dims, R->sdims, sizeof(int64_t) * (size_t)rank);
  if (rank == 1) rank = 2, dims[1] = dims[0], dims[0] = 1;   /* a vec is a 1 x N row */
  R->outer = R->inner = 1;
  for (int k = 0; k < rank; k++) {
    if (k < dim) R->outer *= dims[k];
    else if (k > dim) R->inner *= dims[k];
  }
  R->n_along = dim < rank ? dims[dim] : 1;
  R->orank = rank;
  for (int k = 0; k < rank; k++) R->odims[k] = k == dim ? 1 : dims[k];
  rt_shape_normalize(&R->orank, R->odims);
  R->rank = 2;   /* the launch: [outer, inner] */
  /* (the kernels' indices are ints) */
  return R->n_along > 0 && R->outer * R->inner > 0 && R->numel < INT32_MAX;
}

/* Whether a node with these leaves runs as a kernel: big enough, or already on the GPU. */
static bool worth_a_kernel(const AxRun *R) {
  long long min = config()->array_kernel_min;
  return min >= 0 && (R->on_device || R->numel >= min);
}

/* x[slice] = e in place: the slice must be read in place, and a complex value is not
   stored into a real array here (the runtime drops the imaginary part). */
static bool slice_target_ok(const ArrayExpr *E, const AxRun *R, const AxKernel *k) {
  int tl = E->target_leaf;
  if (tl < 0) return true;
  ElemType t = R->leaf[tl].arr->elem;
  bool complex_into_real = el_is_complex(k->elem) && !el_is_complex(t);
  return R->view[tl] && !complex_into_real;
}

/* Whether parallel_do passes v to a parameter of type t as it is: no conversion (that would
   make a copy or say the kernel's name in an error), so the fused kernel sees what k would. */
static bool arg_fits(Value v, const Type *t, SrcLoc loc) {
  switch (t->kind) {
  case TY_UNKNOWN: return v.kind == V_ARRAY || v.kind == V_INT || v.kind == V_SCALAR;
  case TY_SCALAR: return v.kind == V_SCALAR || v.kind == V_INT;
  case TY_INT: return v.kind == V_INT;
  case TY_ARRAY: {
    if (v.kind != V_ARRAY) return false;
    const Array *a = v.arr;
    if ((t->rank > 0 && a->rank > t->rank) || (t->fixed_len > 0 && a->numel != t->fixed_len)) return false;
    const Type *et = t->elem;
    if (!et || et->kind == TY_UNKNOWN) return true;
    if (et->kind != TY_SCALAR && et->kind != TY_INT && et->kind != TY_CSCALAR) return false;
    return el_from_type(et, loc) == a->elem;
  }
  default: return false;
  }
}

/* Whether k's launch over R->kdims visits the positions of the expression's kernel, in the
   same coordinates: pos : ivec2 / ivec3 over the arrays' shape, or pos : int over a vector. */
static bool launch_positions_match(const Func *k, const AxRun *R, SrcLoc loc) {
  const Type *pt = NULL;
  for (int i = 0; i < k->nparams; i++)
    if (!strcmp(k->params[i].name, "pos")) pt = k->params[i].type;
  Value d = R->kdims;
  if (!R->rank) {   /* flat: a vector only (an array of rank above 3 is flat too) */
    return R->srank == 1 && pt->kind == TY_INT && d.kind == V_INT && d.i == R->numel;
  }
  if (pt->kind != TY_ARRAY || pt->fixed_len != R->rank || !pt->elem || pt->elem->kind != TY_INT ||   /* (ivecN) */
      d.kind != V_ARRAY || d.arr->numel != R->rank ||
      (d.arr->rank == 2 && d.arr->dims[0] == 2))   /* ([dims, blkdims]: blocks of its own) */
    return false;
  cuda_host_read(d.arr, loc);
  for (int i = 0; i < R->rank; i++)
    if (arr_load(d.arr, i) != (double)R->sdims[i]) return false;
  return true;
}

/* The guards of a launch fused in (arrayexpr.h, KernelFusion), after the leaves: its size
   and arguments are evaluated into R (in the launch's order), the kernel is k, g's array is
   a scalar array that only the variable holds (the write skipped is seen by no one), every
   argument reaches k unconverted, and the launch's positions are the expression's; a slice
   the statement writes in place is no argument k reads. */
static bool launch_ready(Interp *I, const ArrayExpr *E, AxRun *R) {
  const KernelFusion *L = E->launch;
  if (!L) return true;
  R->kdims = eval(I, L->dims);
  for (int a = 0; a < L->nargs; a++) R->karg[R->nkargs++] = a == L->garg ? v_none() : eval(I, L->args[a]);
  Value kv = eval(I, L->call->list.items[L->call->list.n - 1]);
  bool ok = kv.kind == V_FUNC && kv.fn->kind == CALL_USER && kv.fn->func == L->kernel;
  val_release(kv);
  Value g = R->leaf[L->gleaf];
  SrcLoc loc = L->call->loc;
  if (!ok || g.kind != V_ARRAY || g.arr->elem != el_scalar() || !arg_fits(g, L->kernel->params[L->gparam].type, loc))
    return false;
  if (holders(R, g.arr) != 1) return false;   /* no other leaf or argument reads g's array */
  if (!L->write_g && g.arr->refcount != 2) return false;   /* the variable's and its leaf's */
  int a = 0;
  for (int i = 0; i < L->kernel->nparams; i++) {
    const Param *p = &L->kernel->params[i];
    if (is_special_kernel_param(p->name)) continue;
    if (a != L->garg && !arg_fits(R->karg[a], p->type, loc)) return false;
    a++;
  }
  int tl = E->target_leaf;
  for (int b = 0; tl >= 0 && b < R->nkargs; b++)
    if (R->karg[b].kind == V_ARRAY && R->leaf[tl].kind == V_ARRAY && R->karg[b].arr == R->leaf[tl].arr) return false;
  return launch_positions_match(L->kernel, R, loc);
}

/* The kernel node n runs as with the leaves evaluated into *R, or NULL (R released): the
   original node runs instead. */
static const AxKernel *ready(Interp *I, Node *n, const ArrayExpr *E, AxRun *R) {
  if (!may_have_arrays(I, E)) return NULL;
  bool is_array, ok = eval_leaves(I, E, R) && launch_ready(I, E, R) && worth_a_kernel(R) &&
                     elementwise_for(E->expr, R->arrays, &is_array);
  if (ok && E->red != OP_NONE && !E->dim)   /* a matrix's norm is its largest singular value */
    ok = R->numel > 0 && !(!strcmp(E->redname, "norm") && R->srank != 1);
  if (ok && E->dim) ok = along_ready(I, E, R);
  const AxKernel *k = ok ? kernel_for(I, n, E, R) : NULL;
  if (k && k->func && slice_target_ok(E, R, k)) return k;
  run_release(R);
  return NULL;
}

/* The guards said no to E: its producer runs (arrayexpr.h), and the node as it was before
   that fusion is tried next; false at the end of the chain (the original runs). */
static const ArrayExpr *unfuse(Interp *I, const ArrayExpr *E) {
  if (!E->unfused) return NULL;
  NodeList producer = {.items = (Node **)&E->producer, .n = 1};
  exec_block(I, &producer);
  return E->unfused;
}

bool arrayexpr_exec(Interp *I, Node *n) {
  const ArrayExpr *E = n->aux;
  AxRun R;
  const AxKernel *k;
  while (!(k = ready(I, n, E, &R)))
    if (!(E = unfuse(I, E))) return false;
  if (E->target_leaf >= 0) {
    val_release(launch(I, n, k, &R, v_none()));
    run_release(&R);
    return true;
  }
  Array *out = launch_output(I, E, &R, k->elem);
  bool swap = out != NULL;
  if (!out) out = output_array(I, E, &R, k->elem);
  val_release(launch(I, n, k, &R, v_array(out)));
  run_release(&R);
  if (swap) {   /* g takes the target's old array */
    Value old = *slot_ref(I, E->target);
    val_retain(old);
    interp_store(I, E->leaves[E->launch->gleaf], old);
  }
  interp_store(I, E->target, v_array(out));
  return true;
}

bool arrayexpr_eval(Interp *I, Node *n, Value *out) {
  const ArrayExpr *E = n->aux;
  AxRun R;
  const AxKernel *k;
  while (!(k = ready(I, n, E, &R)))
    if (!(E = unfuse(I, E))) return false;
  if (E->dim) {
    *out = launch_along(I, n, k, &R);
    run_release(&R);
    return true;
  }
  Value r = launch(I, n, k, &R, v_none());
  if (r.kind == V_TUPLE) {   /* a complex sum: its real and imaginary parts */
    Value z = v_cscalar(rt_to_real(r.tup->v[0], n->loc), rt_to_real(r.tup->v[1], n->loc));
    val_release(r);
    r = z;
  }
  bool norm = !strcmp(E->redname, "norm");
  if (!strcmp(E->redname, "mean") || norm) {
    Value m = norm ? v_scalar(sqrt(rt_to_real(r, n->loc))) : rt_binary(OP_DIV, r, v_int(R.numel), n->loc);
    val_release(r);
    r = m;
  }
  run_release(&R);
  *out = r;
  return true;
}
