/* interp.c: the host interpreter. A tree walker over resolved slots (interp_resolve.c):
   identifiers are (depth, slot) pairs, scalars are unboxed Values, and int/scalar arithmetic
   takes a fast path before falling back to the runtime library (rt_binary). */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include "interp/interp_priv.h"
#include "device/rt_cuda.h"
#include "backend/rt_profile.h"
#include "front/transform.h"
#include "front/types.h"
#include "interp/parloop.h"
#include "interp/arrayexpr.h"
#include "kernel/kernel_ir.h"

/* Recursion in host code is bounded by the thread's real stack (docs/language.md,
   "Recursion"): a call is refused when fewer than STACK_MARGIN bytes are left, so that the
   deepest work between two calls (a built-in, an error message) still fits. Kernel threads
   (fibers of 1 MiB stacks) allow KERNEL_CALL_DEPTH nested calls. Without the stack's
   bounds, HOST_CALL_DEPTH calls. */
#define STACK_MARGIN (256 * 1024)
/* A range has at most this many elements (a loop over more never ends anyway); the count of
   1..1e30 would not fit an int64. */
#define MAX_RANGE ((int64_t)1 << 62)
#define KERNEL_CALL_DEPTH 64
#define HOST_CALL_DEPTH 2000
#define COLD __attribute__((noinline))

static void exec(Interp *I, Node *n);
static Value eval_assign(Interp *I, Node *n);

/* ---- frames and callables ---- */

Frame *frame_new(int nslots, Frame *parent) {
  Frame *f = calloc(1, sizeof *f + nslots * sizeof(Value));
  if (!f) rt_error((SrcLoc){0}, "out of memory");
  f->refcount = 1;
  f->parent = parent;
  if (parent) parent->refcount++;
  f->nslots = nslots;
  return f;
}

void frame_release(Frame *f) {
  while (f && --f->refcount == 0) {
    for (int i = 0; i < f->nslots; i++) val_release(f->slots[i]);
    Frame *parent = f->parent;
    frame_unlink(f);
    free(f);
    f = parent;
  }
}

/* Whether only closures kept in f's own slots (and held by those slots alone) hold f
   besides its call: `g = () -> ...` in a function that reads its own names. */
static bool frame_held_by_own_closures(const Frame *f) {
  int held = 0;
  for (int i = 0; i < f->nslots; i++) {
    Value v = f->slots[i];
    if (v.kind != V_FUNC || v.fn->env != f) continue;
    int seen = 0, here = 0;
    for (int j = 0; j < f->nslots; j++)
      if (f->slots[j].kind == V_FUNC && f->slots[j].fn == v.fn) { here++; seen += j < i; }
    if (seen) continue;   /* counted at its first slot */
    if (here != v.fn->refcount) return false;
    held++;
  }
  return held && f->refcount == 1 + held;
}

/* The end of a call. A closure kept in a slot of the frame it closes over holds that
   frame, which holds the closure: a cycle that reference counts never free. The common
   case is freed here at once: when only such closures hold the frame, nothing can reach
   the cycle any more, so the slots go first, which frees the closures and then the frame.
   A frame held otherwise (a closure returned, stored in an object, an event's callback)
   outlives the call and joins the ring of the cycle collector (interp_cycles.c), which
   frees it once nothing outside its cycles holds it. */
static void frame_end(Program *P, Frame *f) {
  if (frame_held_by_own_closures(f)) {
    for (int i = 0; i < f->nslots; i++) {
      Value v = f->slots[i];
      f->slots[i] = v_none();
      val_release(v);
    }
  } else if (f->refcount > 1) {
    cycles_escaped(P, f);
  }
  frame_release(f);
}

Callable *callable_new(CallableKind kind, const char *name) {
  Callable *c = calloc(1, sizeof *c);
  c->refcount = 1;
  c->kind = kind;
  c->name = name;
  return c;
}

void callable_free(Callable *c) {
  if (c->env) frame_release(c->env);
  for (int i = 0; i < c->ngeneric_args; i++) val_release(c->generic_args[i]);
  free(c->generic_args);
  free(c);
}

/* A closure over the current frame, kept only when the function reads enclosing names. */
static Value make_closure(Interp *I, Func *f) {
  Callable *c = callable_new(CALL_USER, f->name);
  c->func = f;
  if (func_info(f)->captures) {
    c->env = I->frame;
    I->frame->refcount++;
  }
  return v_func(c);
}

/* ---- variables ---- */

/* A variable's value as it is stored: naming an array moves nothing (its elements are made
   current on the host where host code reads them: host_reads). */
static Value eval_ident(Interp *I, Node *n) {
  if (n->slot < 0) {
    const Global *g = n->aux;
    if (!g) rt_error(n->loc, "'%s' is not a value", n->name);   /* syncthreads, memfence */
    val_retain(g->value);
    return g->value;
  }
  Value v = *slot_ref(I, n);
  if (v.kind == V_NONE) rt_error(n->loc, "'%s' is used before it is assigned", n->name);
  val_retain(v);
  return v;
}

/* Host code reads v's elements (an operand, an index, a built-in's argument): arrays, also
   inside tuples, get a current host copy; their device copy stays valid. */
static void host_reads(Value v, SrcLoc loc) {
  if (v.kind == V_ARRAY) cuda_host_read(v.arr, loc);
  else if (v.kind == V_TUPLE)
    for (int i = 0; i < v.tup->n; i++) host_reads(v.tup->v[i], loc);
}

/* Host code writes v's elements (an indexed assignment, an exchange): its device copy is
   dropped as well. */
static void host_writes(Value v, SrcLoc loc) {
  if (v.kind == V_ARRAY) cuda_host_touch(v.arr, loc);
}

static bool truthy(Value v, SrcLoc loc) {
  host_reads(v, loc);
  return rt_truthy(v, loc);
}

/* c ? a : b with an array c: both branches are evaluated, and each element chosen. */
static Value eval_select(Interp *I, const Node *n, Value c) {
  Value a = eval(I, n->b), b = eval(I, n->c);
  host_reads(c, n->loc);
  host_reads(a, n->loc);
  host_reads(b, n->loc);
  Value r = arrayexpr_select(c, a, b, n->loc);
  val_release(c);
  val_release(a);
  val_release(b);
  return r;
}

static bool is_launch(Value fn) {
  return fn.kind == V_FUNC && fn.fn->kind == CALL_IBUILTIN && fn.fn->name &&
         (!strcmp(fn.fn->name, "parallel_do") || !strcmp(fn.fn->name, "serial_do"));
}

/* size, numel and ndims read an array's shape, never its elements: an array that only the
   GPU holds current stays there (else each `size(im)` would copy im back, and a host copy
   made current costs a transfer per call). */
static bool is_shape_query(Value fn) {
  return fn.kind == V_FUNC && fn.fn->kind == CALL_BUILTIN && fn.fn->name &&
         (!strcmp(fn.fn->name, "size") || !strcmp(fn.fn->name, "numel") || !strcmp(fn.fn->name, "ndims"));
}

static void slot_store(Interp *I, Node *id, Value v) {
  Value *p = slot_ref(I, id);
  val_release(*p);
  *p = v;
}

void interp_store(Interp *I, Node *id, Value v) { slot_store(I, id, v); }

/* ---- operators ---- */

static inline bool is_intlike(Value v) { return v.kind == V_INT || v.kind == V_BOOL; }

/* Fast path for numbers; returns false when the runtime library must do it. */
static inline bool arith_fast(Op op, Value a, Value b, Value *out) {
  if (is_intlike(a) && is_intlike(b)) {
    int64_t x = a.i, y = b.i;
    /* ints wrap around (two's complement, docs/language.md): unsigned arithmetic, no UB */
    uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
    switch (op) {
    case OP_ADD: *out = v_int((int64_t)(ux + uy)); return true;
    case OP_SUB: *out = v_int((int64_t)(ux - uy)); return true;
    case OP_MUL: case OP_EMUL: *out = v_int((int64_t)(ux * uy)); return true;
    case OP_DIV: case OP_EDIV: *out = v_scalar((double)x / (double)y); return true;
    default:
      if (!op_is_comparison(op)) return false;
      *out = v_bool(rt_cmp_int(op, x, y));
      return true;
    }
  }
  if (v_is_real(a) && v_is_real(b)) {
    double x = a.kind == V_SCALAR ? a.s : (double)a.i;
    double y = b.kind == V_SCALAR ? b.s : (double)b.i;
    switch (op) {
    case OP_ADD: *out = v_scalar(x + y); return true;
    case OP_SUB: *out = v_scalar(x - y); return true;
    case OP_MUL: case OP_EMUL: *out = v_scalar(x * y); return true;
    case OP_DIV: case OP_EDIV: *out = v_scalar(x / y); return true;
    case OP_POW: case OP_EPOW: if (x < 0 && y != floor(y)) return false;
      *out = v_scalar(pow(x, y)); return true;
    default:
      if (!op_is_comparison(op)) return false;
      *out = v_bool(rt_cmp_real(op, x, y));
      return true;
    }
  }
  return false;
}

/* The elements of the largest array among v[0..n), or -1 when none is an array. */
static int64_t array_elements(const Value *v, int n) {
  int64_t most = -1;
  for (int i = 0; i < n; i++)
    if (v[i].kind == V_ARRAY && v[i].arr->numel > most) most = v[i].arr->numel;
  return most;
}

/* --profile: the runtime ran an operation on arrays (what `oq run --profile` lists as host
   array operations); t0 is when it started. */
static void note_host_op(const char *what, SrcLoc loc, double t0, Value result, const Value *args, int n) {
  int64_t most = array_elements(args, n), r = array_elements(&result, 1);
  if (most >= 0 || r >= 0) prof_host_op(what, loc, rt_now_ms() - t0, most > r ? most : r);
}

static Value binary(Op op, Value a, Value b, SrcLoc loc) {
  Value r;
  if (arith_fast(op, a, b, &r)) return r;
  double t0 = prof_on() ? rt_now_ms() : 0;
  host_reads(a, loc);
  host_reads(b, loc);
  r = rt_binary(op, a, b, loc);
  if (t0) {
    char what[16];
    snprintf(what, sizeof what, "'%s'", op_name(op));
    Value args[2] = {a, b};
    note_host_op(what, loc, t0, r, args, 2);
  }
  return r;
}

/* Inside a kernel an int is an int32 (as compiled kernels hold it): an int result wraps to
   32 bits, so that the interpreter computes what the CPU and the GPU compute. */
static inline Value kernel_int(const Interp *I, Value r) {
  if (I->thread && r.kind == V_INT) r.i = (int32_t)(uint32_t)(uint64_t)r.i;
  return r;
}

static Value eval_binary(Interp *I, Node *n) {
  if (n->op == OP_AND || n->op == OP_OR) {
    Value a = eval(I, n->a);
    bool ta = truthy(a, n->a->loc);
    val_release(a);
    if (n->op == OP_AND ? !ta : ta) return v_bool(ta);
    Value b = eval(I, n->b);
    bool tb = truthy(b, n->b->loc);
    val_release(b);
    return v_bool(tb);
  }
  Value a = eval(I, n->a);
  Value b = eval(I, n->b);
  Value r = v_none();
  if (n->op == OP_MUL && a.kind == V_ARRAY && b.kind == V_ARRAY) r = numlib_matmul(I, a, b, n->loc);   /* GEMM */
  if (r.kind == V_NONE) r = kernel_int(I, binary(n->op, a, b, n->loc));
  val_release(a);
  val_release(b);
  return r;
}

COLD static Value eval_unary(Interp *I, Node *n) {
  Value a = eval(I, n->a);
  if (n->op == OP_NEG && a.kind == V_INT) return kernel_int(I, v_int((int64_t)(0 - (uint64_t)a.i)));   /* wraps */
  if (n->op == OP_NEG && a.kind == V_SCALAR) return v_scalar(-a.s);
  if (n->op == OP_PLUS && v_is_num(a)) return a;
  double t0 = prof_on() ? rt_now_ms() : 0;
  host_reads(a, n->loc);
  Value r = rt_unary(n->op, a, n->loc);
  if (t0) note_host_op(n->op == OP_NEG ? "unary '-'" : "'!'", n->loc, t0, r, &a, 1);
  val_release(a);
  return r;
}

/* ---- ranges, literals ---- */

RangeSpec range_spec(Interp *I, Node *n) {
  Value a = eval(I, n->a);
  Value s = n->b ? eval(I, n->b) : v_int(1);
  Value c = eval(I, n->c);
  RangeSpec r = {0};
  if (is_intlike(a) && is_intlike(s) && is_intlike(c)) {
    r.is_int = true;
    r.i0 = a.i;
    r.istep = s.i;
    if (!s.i) rt_error(n->loc, "range step is zero");
    /* in unsigned arithmetic: the span of -2^62..2^62 does not fit an int64 */
    bool up = s.i > 0;
    if (up ? c.i < a.i : c.i > a.i) r.count = 0;
    else {
      uint64_t span = up ? (uint64_t)c.i - (uint64_t)a.i : (uint64_t)a.i - (uint64_t)c.i;
      uint64_t step = up ? (uint64_t)s.i : 0 - (uint64_t)s.i;
      uint64_t count = span / step + 1;   /* 0 after 2^64 - 1 + 1 */
      r.count = count == 0 || count > (uint64_t)MAX_RANGE ? MAX_RANGE : (int64_t)count;
    }
  } else {
    r.r0 = rt_to_real(a, n->a->loc);
    r.rstep = n->b ? rt_to_real(s, n->b->loc) : 1.0;
    double end = rt_to_real(c, n->c->loc);
    if (r.rstep == 0 || isnan(r.rstep)) rt_error(n->loc, "range step is zero");
    /* the end is included when the step count is within rounding below an integer:
       0..0.1..1 has 11 elements although 0.1 is not exact in float; a count that is an
       integer is exact (0..n-1 of n = 5997000.0 has n elements, where adding the
       tolerance to it would give n + 2). The kernels' loops count alike (emit.c). */
    double q = (end - r.r0) / r.rstep, k = floor(q);
    if (q != k && k + 1 - q <= fabs(q) * (rt_config.double_precision ? 1e-12 : 4e-7) + 1e-9) k += 1;
    r.count = k >= 0 ? (k < (double)MAX_RANGE ? (int64_t)k + 1 : MAX_RANGE) : 0;   /* k may be Inf */
    if (r.count > (int64_t)1 << 40) rt_error(n->loc, "range has too many elements");
  }
  val_release(a);
  val_release(s);
  val_release(c);
  return r;
}

COLD /* A range as a value is a vec (of scalars, as in Quasar). */
static Value eval_range(Interp *I, Node *n) {
  RangeSpec r = range_spec(I, n);
  Array *arr = arr_vec(el_scalar(), r.count);
  for (int64_t k = 0; k < r.count; k++)
    arr_store(arr, k, r.is_int ? (double)(r.i0 + k * r.istep) : r.r0 + (double)k * r.rstep);
  return v_array(arr);
}

static ElemType promote(ElemType a, ElemType b) {
  if (el_is_complex(a) || el_is_complex(b)) return el_cscalar();
  if (el_is_integer(a) && el_is_integer(b)) return a == b ? a : EL_I32;
  return el_scalar();
}

/* Numbers in a vector literal make a `vec` (as in Quasar, [1,2,3] is a vec of scalars),
   or a cvec when one is complex. */
static ElemType value_elem(Value v) {
  return v.kind == V_CSCALAR ? el_cscalar() : el_scalar();
}

/* [a, b, c]: numbers give a vector; arrays of one shape are stacked as rows ([[1,2],[3,4]],
   [dims, blkdims]); numbers mixed with vectors are concatenated. */
COLD static Value eval_matrix(Interp *I, Node *n) {
  int count = n->list.n;
  Value *el = malloc((count + 1) * sizeof *el);
  bool any_array = false, all_arrays = count > 0;
  ElemType et = EL_I32;
  for (int i = 0; i < count; i++) {
    el[i] = eval(I, n->list.items[i]);
    Value v = el[i];
    host_reads(v, n->loc);
    if (v.kind == V_ARRAY) { any_array = true; et = i ? promote(et, v.arr->elem) : v.arr->elem; }
    else if (v_is_num(v)) { all_arrays = false; et = i ? promote(et, value_elem(v)) : value_elem(v); }
    else rt_error(n->list.items[i]->loc, "a %s cannot be an element of a vector", rt_kind_name(v));
  }
  Array *arr;
  if (!any_array) {
    arr = arr_vec(count ? et : el_scalar(), count);
    for (int i = 0; i < count; i++) arr_set(arr, i, el[i], n->loc);
  } else if (all_arrays && (count == 1 || arr_same_shape(el[0].arr, el[1].arr))) {
    Array *first = el[0].arr;
    for (int i = 1; i < count; i++)
      if (!arr_same_shape(first, el[i].arr))
        rt_error(n->list.items[i]->loc, "rows of a matrix literal differ in size");
    if (first->rank + 1 > OQ_MAX_RANK) rt_error(n->loc, "too many dimensions");
    int64_t dims[OQ_MAX_RANK];
    dims[0] = count;
    for (int d = 0; d < first->rank; d++) dims[d + 1] = first->dims[d];
    arr = arr_new_uninit(et, first->rank + 1, dims);
    for (int i = 0; i < count; i++)
      for (int64_t k = 0; k < first->numel; k++) {
        Value x = arr_get(el[i].arr, k);
        arr_set(arr, i * first->numel + k, x, n->loc);
      }
  } else {
    int64_t total = 0;
    for (int i = 0; i < count; i++) {
      if (el[i].kind == V_ARRAY && el[i].arr->rank != 1)
        rt_error(n->list.items[i]->loc, "cannot concatenate a %s into a vector", rt_kind_name(el[i]));
      total += el[i].kind == V_ARRAY ? el[i].arr->numel : 1;
    }
    arr = arr_vec(et, total);
    int64_t k = 0;
    for (int i = 0; i < count; i++) {
      if (el[i].kind != V_ARRAY) { arr_set(arr, k++, el[i], n->loc); continue; }
      for (int64_t j = 0; j < el[i].arr->numel; j++) arr_set(arr, k++, arr_get(el[i].arr, j), n->loc);
    }
  }
  for (int i = 0; i < count; i++) val_release(el[i]);
  free(el);
  return v_array(arr);
}

/* ---- indexing ---- */

static IndexCtx index_ctx(Interp *I, Node *index) {
  IndexCtx c = {.in_kernel = I->in_kernel, .loc = index->loc};
  Node *base = index->a;
  if (base->kind == N_IDENT) { c.mods = (unsigned)base->ival; c.array_name = base->name; }
  if (I->in_kernel && I->func) c.func_name = func_shown_name(I->func);
  return c;
}

static int eval_indices(Interp *I, Node *index, Value *idx) {
  int n = index->list.n;
  if (n > OQ_MAX_RANK) rt_error(index->loc, "too many indices");
  for (int i = 0; i < n; i++) {
    Node *e = index->list.items[i];
    idx[i] = e->kind == N_COLON ? v_colon() : eval(I, e);
    host_reads(idx[i], e->loc);   /* an index array's elements */
  }
  return n;
}

static void release_all(Value *v, int n) {
  for (int i = 0; i < n; i++) val_release(v[i]);
}

static Type *type_with_elem(Interp *I, Type *base, Node *arg) {
  Type *t = arena_alloc(I->prog->arena, sizeof *t);
  *t = *base;
  if (arg->kind == N_IDENT && arg->slot >= 0 && !arg->aux) {
    Value v = *slot_ref(I, arg);   /* a generic parameter bound to a type */
    if (v.kind == V_TYPE) { t->elem = v.type; return t; }
  }
  if (arg->kind == N_IDENT) {
    const Global *g = global_lookup(arg->name);
    Type *named = arena_alloc(I->prog->arena, sizeof *named);
    named->kind = TY_NAMED;
    named->name = arg->name;
    /* the built-in number types, whose names are also functions (int, scalar) */
    const BuiltinType *prim = builtin_type(arg->name);
    if (prim && prim->kind != TY_ARRAY && prim->kind != TY_STRING && prim->kind != TY_THREAD_BLOCK)
      named->kind = prim->kind;
    if (named->kind == TY_NAMED && g && g->value.kind == V_TYPE) named = g->value.type;
    t->elem = named;
  } else if (arg->kind == N_TYPE) {
    t->elem = arg->type;
  }
  return t;
}

COLD static Value eval_index(Interp *I, Node *n) {
  Value base = eval(I, n->a);
  if (base.kind == V_TYPE) {
    if (n->list.n != 1) rt_error(n->loc, "a type takes one element type");
    return v_type(type_with_elem(I, base.type, n->list.items[0]));
  }
  if (base.kind == V_FUNC) {   /* f[2]: bind generic parameters */
    Callable *c = base.fn, *g = callable_new(CALL_USER, c->name);
    *g = *c;
    g->refcount = 1;
    if (g->env) g->env->refcount++;
    g->ngeneric_args = n->list.n;
    g->generic_args = calloc(n->list.n, sizeof(Value));
    for (int i = 0; i < n->list.n; i++) g->generic_args[i] = eval(I, n->list.items[i]);
    val_release(base);
    return v_func(g);
  }
  Value idx[OQ_MAX_RANK];
  int k = eval_indices(I, n, idx);
  IndexCtx ctx = index_ctx(I, n);
  double t0 = prof_on() ? rt_now_ms() : 0;
  host_reads(base, n->loc);
  Value r = base.kind == V_CELL ? cell_get(base, k, idx, n->loc) : rt_index_get(base, k, idx, &ctx);
  if (t0 && r.kind == V_ARRAY) note_host_op("slice", n->loc, t0, r, &base, 1);
  release_all(idx, k);
  val_release(base);
  return r;
}

/* ---- calls ---- */

static bool value_fits(Value v, const Type *t) {
  switch (t->kind) {
  case TY_UNKNOWN: case TY_NAMED: return true;
  case TY_SCALAR: case TY_INT: return v_is_real(v);
  case TY_CSCALAR: return v_is_num(v);
  case TY_STRING: return v.kind == V_STRING;
  case TY_ARRAY: return v.kind == V_ARRAY && (!t->rank || v.arr->rank <= t->rank);
  default: return true;
  }
}

/* A `reduction` whose pattern calls `name` and whose parameter types fit the arguments. */
static Reduction *find_reduction(Interp *I, const char *name, int argc, Value *argv) {
  Program *P = I->prog;
  for (int i = P->nreductions - 1; i >= 0; i--) {
    Reduction *r = &P->reductions[i];
    Func *f = r->node->func;
    if (r->active || strcmp(r->fname, name) || f->nparams != argc) continue;
    bool fits = true;
    for (int a = 0; a < argc && fits; a++) fits = value_fits(argv[a], f->params[a].type);
    if (fits) return r;
  }
  return NULL;
}

/* point(1, 2): the fields in order; the ones not given take their defaults. */
static Value construct_positional(Interp *I, Type *cls, int argc, Value *argv, Node *site) {
  if (argc > cls->nfields)
    rt_error(site->loc, "too many arguments to '%s' (it has %d fields)", cls->name, cls->nfields);
  Object *o = obj_new(cls);
  for (int i = 0; i < argc; i++) {
    val_retain(argv[i]);
    obj_init_field(o, i, argv[i], site->loc);
  }
  for (int i = argc; i < cls->nfields; i++) {
    Node *def = cls->fields[i].defval;
    obj_init_field(o, i, def ? eval(I, def) : obj_empty_value(cls->fields[i].type, site->loc), site->loc);
  }
  return v_object(o);
}

/* The field each argument of the construction call gives, into field[], or an error: before
   the object is made (an error exits; the object would be left unreferenced). */
static void construct_fields(Type *cls, Node *call, int *field) {
  bool named = false;
  for (int i = 0; i < call->list.n; i++) {
    Node *arg = call->list.items[i];
    int f = i;
    if (arg->kind == N_NAMEDARG) {
      named = true;
      f = -1;
      for (int j = 0; j < cls->nfields && f < 0; j++)
        if (!strcmp(cls->fields[j].name, arg->name)) f = j;
      if (f < 0) rt_error(arg->loc, "class '%s' has no field '%s'", cls->name, arg->name);
    } else if (named) {
      rt_error(arg->loc, "a positional argument after a named one in the construction of '%s'", cls->name);
    } else if (f >= cls->nfields) {
      rt_error(arg->loc, "too many arguments to '%s' (it has %d fields)", cls->name, cls->nfields);
    }
    for (int j = 0; j < i; j++)
      if (field[j] == f) rt_error(arg->loc, "field '%s' of '%s' is given twice", cls->fields[f].name, cls->name);
    field[i] = f;
  }
}

/* point(x := 1, y := 2), also with positional arguments first: each field at most once;
   the others take their default values (the empty value of their type without one). */
COLD static Value construct_object(Interp *I, Type *cls, Node *call) {
  int field[cls->nfields + 1];   /* each argument a field of its own: at most nfields */
  construct_fields(cls, call, field);
  Object *o = obj_new(cls);
  Value ov = v_object(o);
  for (int i = 0; i < call->list.n; i++) {
    Node *arg = call->list.items[i];
    obj_init_field(o, field[i], eval(I, arg->kind == N_NAMEDARG ? arg->a : arg), arg->loc);
  }
  for (int f = 0; f < cls->nfields; f++) {
    if (o->vals[f].kind != V_NONE) continue;
    Node *def = cls->fields[f].defval;
    obj_init_field(o, f, def ? eval(I, def) : obj_empty_value(cls->fields[f].type, call->loc), call->loc);
  }
  return ov;
}

static Value construct_type(Interp *I, Type *t, int argc, Value *argv, Node *site) {
  if (t->class_kind != CLASS_NONE) return construct_positional(I, t, argc, argv, site);
  if (t->kind != TY_ARRAY && t->kind != TY_CELL) rt_error(site->loc, "type '%s' cannot be constructed", t->name);
  int64_t dims[OQ_MAX_RANK];
  int rank = 0;
  for (int i = 0; i < argc; i++) {
    if (argv[i].kind == V_ARRAY) {
      host_reads(argv[i], site->loc);
      for (int64_t k = 0; k < argv[i].arr->numel && rank < OQ_MAX_RANK; k++)
        dims[rank++] = (int64_t)arr_load(argv[i].arr, k);
    } else if (rank < OQ_MAX_RANK) {
      dims[rank++] = rt_to_int(argv[i], site->loc);
    }
  }
  if (!rank) dims[rank++] = t->fixed_len ? t->fixed_len : 0;
  for (int d = 0; d < rank; d++)
    if (dims[d] < 0) rt_error(site->loc, "negative dimension %lld", (long long)dims[d]);
  if (t->kind == TY_CELL || type_is_cell_elem(t->elem))   /* vec[vec](n), vec[point](n) */
    return v_cell(cell_new(rank, dims, t->elem, site->loc));
  ElemType e = t->elem ? el_from_type(t->elem, site->loc) : el_scalar();
  return v_array(arr_new(e, rank, dims));
}

Value call_value(Interp *I, Value fn, int argc, Value *argv, Node *site) {
  int outs = I->outs_wanted;
  I->outs_wanted = 0;
  if (fn.kind == V_TYPE) return construct_type(I, fn.type, argc, argv, site);
  if (fn.kind != V_FUNC) rt_error(site->loc, "a %s is not a function", rt_kind_name(fn));
  Callable *c = fn.fn;
  switch (c->kind) {
  case CALL_BUILTIN: {
    const Builtin *b = c->builtin;
    Reduction *r = find_reduction(I, b->name, argc, argv);
    if (r) {
      Callable tmp = {.refcount = 1, .kind = CALL_USER, .func = r->node->func,
                      .env = I->prog->script_frame};
      r->active = true;
      Value v = call_user(I, &tmp, argc, argv, site, NULL);
      r->active = false;
      return v;
    }
    if (argc < b->min_args || (b->max_args >= 0 && argc > b->max_args))
      rt_error(site->loc, "wrong number of arguments to '%s' (got %d)", b->name, argc);
    if (is_shape_query(fn)) return b->fn(argc, argv, site->loc);
    double t0 = prof_on() ? rt_now_ms() : 0;
    for (int i = 0; i < argc; i++) host_reads(argv[i], site->loc);
    BuiltinFn outs_fn = outs > 1 ? rt_builtin_outputs(b->name) : NULL;   /* [m, i] = max(x) */
    Value v = (outs_fn ? outs_fn : b->fn)(argc, argv, site->loc);
    if (t0) note_host_op(b->name, site->loc, t0, v, argv, argc);
    return v;
  }
  case CALL_IBUILTIN:   /* print, imwrite, assert...; a launch moves its arguments itself */
    if (!is_launch(fn) && !numlib_moves_own(c->ibuiltin))
      for (int i = 0; i < argc; i++) host_reads(argv[i], site->loc);
    return c->ibuiltin(I, site, argc, argv);
  case CALL_USER:
    if (c->func->kind == FK_KERNEL)
      rt_error(site->loc, "'%s' is a __kernel__ function: launch it with parallel_do",
               callable_name(c));
    return call_user(I, c, argc, argv, site, NULL);
  }
  return v_none();
}

static Type *type_of_elem(ElemType e) {
  static Type types[EL_COUNT];
  static const TypeKind kinds[EL_COUNT] = {
    [EL_F32] = TY_SCALAR, [EL_F64] = TY_SCALAR, [EL_C64] = TY_CSCALAR, [EL_C128] = TY_CSCALAR,
    [EL_I32] = TY_INT, [EL_I8] = TY_INT8, [EL_U8] = TY_UINT8, [EL_I16] = TY_INT16,
    [EL_U16] = TY_UINT16, [EL_U32] = TY_UINT32, [EL_I64] = TY_INT64};
  types[e].kind = kinds[e];
  types[e].name = el_name(e);
  return &types[e];
}

/* Generic parameters not given explicitly (f[T] called as f(x)) take the types of the
   arguments whose declared types name them: x : cube[T] or v : T. */
static void infer_generics(Func *f, Frame *fr, int argc, Value *argv) {
  for (int g = 0; g < f->ngenerics; g++) {
    if (fr->slots[g].kind != V_NONE) continue;
    const char *name = f->generics[g].name;
    for (int i = 0; i < f->nparams && i < argc; i++) {
      const Type *t = f->params[i].type;
      Value a = argv[i];
      if (t->kind == TY_ARRAY && t->elem && t->elem->kind == TY_NAMED &&
          !strcmp(t->elem->name, name) && a.kind == V_ARRAY) {
        fr->slots[g] = v_type(type_of_elem(a.arr->elem));
        break;
      }
      if (t->kind == TY_NAMED && !strcmp(t->name, name) && v_is_num(a)) {
        fr->slots[g] = v_type(type_of_elem(a.kind == V_CSCALAR ? el_cscalar() :
                                           a.kind == V_SCALAR ? el_scalar() : EL_I32));
        break;
      }
    }
  }
}

static void bind_params(Interp *I, Callable *c, Frame *fr, int argc, Value *argv, Node *site) {
  Func *f = c->func;
  const char *fname = callable_name(c);
  if (argc > f->nparams)
    rt_error(site->loc, "too many arguments to '%s' (expected %d, got %d)", fname, f->nparams, argc);
  int base = f->ngenerics;
  for (int i = 0; i < f->ngenerics && i < c->ngeneric_args; i++) {
    val_retain(c->generic_args[i]);
    fr->slots[i] = c->generic_args[i];
  }
  Frame *saved = I->frame;
  I->frame = fr;
  for (int i = 0; i < f->nparams; i++) {
    Param *p = &f->params[i];
    Value v;
    if (i < argc) v = argv[i], val_retain(v);
    else if (p->defval) v = eval(I, p->defval);
    else rt_error(site->loc, "too few arguments to '%s': '%s' is missing", fname, p->name);
    fr->slots[base + i] = rt_convert_arg(v, p->type, p->name, "", fname, i < argc ? site->loc : p->loc);
    val_release(v);
  }
  I->frame = saved;
  FuncInfo *fi = func_info(f);
  for (int i = 0; i < f->nouts; i++)
    if (fi->out_param && fi->out_param[i] >= 0) {
      fr->slots[base + f->nparams + i] = fr->slots[base + fi->out_param[i]];
      val_retain(fr->slots[base + f->nparams + i]);
    }
  infer_generics(f, fr, argc, argv);
}

/* Binds nested function definitions at entry, so they can be called before their line. */
static void bind_hoisted(Interp *I, FuncInfo *fi) {
  for (int i = 0; i < fi->hoisted.n; i++) {
    Node *def = fi->hoisted.items[i];
    Value *p = &I->frame->slots[def->slot >= 0 ? def->slot : 0];
    val_release(*p);
    *p = make_closure(I, def->func);
  }
  for (int i = 0; i < fi->typedefs.n; i++) {   /* type names: their definitions */
    Node *def = fi->typedefs.items[i];
    Value *p = &I->frame->slots[def->slot];
    val_release(*p);
    *p = v_type(def->type);
  }
}

/* Drops closures of this frame that nothing else holds: they would keep it alive. */
static void unbind_hoisted(Frame *fr, FuncInfo *fi) {
  for (int i = 0; i < fi->hoisted.n; i++) {
    Value *p = &fr->slots[fi->hoisted.items[i]->slot];
    if (p->kind == V_FUNC && p->fn->env == fr && p->fn->refcount == 1) {
      val_release(*p);
      *p = v_none();
    }
  }
}

static Value lambda_result(Interp *I, Func *f) {
  int n = f->body.n;
  Node *last = n ? f->body.items[n - 1] : NULL;
  for (int i = 0; i < n - 1 && I->flow == FLOW_NORMAL; i++) exec(I, f->body.items[i]);
  if (last && last->kind == N_EXPR && I->flow == FLOW_NORMAL) return eval(I, last->a);
  if (last && I->flow == FLOW_NORMAL) exec(I, last);
  return v_none();
}

static Value collect_outputs(Interp *I, Func *f, Frame *fr, Node *site) {
  int base = f->ngenerics + f->nparams;
  if (f->nouts == 0) return v_none();
  for (int i = 0; i < f->nouts; i++)
    if (fr->slots[base + i].kind == V_NONE)
      rt_error(site->loc, "output '%s' of '%s' was not assigned", f->outs[i].name,
               f->name ? f->name : "(lambda)");
  (void)I;
  if (f->nouts == 1) { Value v = fr->slots[base]; val_retain(v); return v; }
  Value t = v_tuple(f->nouts);
  for (int i = 0; i < f->nouts; i++) { t.tup->v[i] = fr->slots[base + i]; val_retain(t.tup->v[i]); }
  return t;
}

/* Whether one more call would come too near the end of the stack. */
static bool call_too_deep(const Interp *I) {
  if (I->thread) return I->depth >= KERNEL_CALL_DEPTH;
  const char *low = I->prog->stack_low;
  if (!low) return I->depth >= HOST_CALL_DEPTH;
  char here;
  return &here < low;   /* the stack grows down (x86-64, AArch64) */
}

/* The main thread's stack grows on demand up to the soft RLIMIT_STACK, read when it grows:
   raising the soft limit (up to 8 times, at most MAIN_STACK_MOST, never past the hard limit)
   lets host code recurse 10000 deep at the default 8 MiB. The kernel leaves at least 128 MiB
   below the stack free, so the stack has room to grow there. */
#define MAIN_STACK_MOST (64LL << 20)
#define UNKNOWN_STACK ((size_t)1 << 30)   /* a stack without a limit: use this much */
static void raise_main_stack(void) {
  struct rlimit r;
  if (getpid() != (pid_t)syscall(SYS_gettid) || getrlimit(RLIMIT_STACK, &r) != 0 ||
      r.rlim_cur == RLIM_INFINITY || (long long)r.rlim_cur >= MAIN_STACK_MOST)
    return;
  rlim_t want = r.rlim_cur * 8 < (rlim_t)MAIN_STACK_MOST ? r.rlim_cur * 8 : (rlim_t)MAIN_STACK_MOST;
  if (r.rlim_max != RLIM_INFINITY && want > r.rlim_max) want = r.rlim_max;
  if (want <= r.rlim_cur) return;
  r.rlim_cur = want;
  setrlimit(RLIMIT_STACK, &r);   /* failing leaves the limit as it was */
}

/* The lowest address the calling thread's stack may reach before a call is refused, from
   the stack's real bounds (the main thread's follow `ulimit -s`); NULL when unknown. */
static const char *stack_low_bound(void) {
  raise_main_stack();
  pthread_attr_t a;
  void *addr;
  size_t size;
  if (pthread_getattr_np(pthread_self(), &a) != 0) return NULL;
  int r = pthread_attr_getstack(&a, &addr, &size);
  pthread_attr_destroy(&a);
  if (r != 0 || size < 2 * STACK_MARGIN) return NULL;
  if (size > UNKNOWN_STACK)   /* `ulimit -s unlimited`: UNKNOWN_STACK below this frame */
    return (const char *)__builtin_frame_address(0) - UNKNOWN_STACK;
  return (const char *)addr + STACK_MARGIN;
}

/* Calls a user function. `preset`: a frame the kernel launcher filled already. */
Value call_user(Interp *I, Callable *c, int argc, Value *argv, Node *site, Frame *preset) {
  Func *f = c->func;
  FuncInfo *fi = func_info(f);
  if (call_too_deep(I))
    rt_error(site->loc, "call depth limit reached in '%s' after %d nested calls: the stack is nearly full "
             "(runaway recursion? `ulimit -s` raises the limit)", callable_name(c), I->depth);
  Frame *fr = preset ? preset : frame_new(fi->nslots, c->env);
  if (!preset) bind_params(I, c, fr, argc, argv, site);
  Interp saved = *I;
  I->frame = fr;
  I->func = f;
  I->in_kernel = f->kind == FK_KERNEL || f->kind == FK_DEVICE || saved.in_kernel;
  I->flow = FLOW_NORMAL;
  I->depth++;
  bind_hoisted(I, fi);
  Value result;
  if (f->is_lambda) {
    result = lambda_result(I, f);
  } else {
    exec_block(I, &f->body);
    result = collect_outputs(I, f, fr, site);
  }
  unbind_hoisted(fr, fi);
  diag_set_where(site->loc);   /* back in the caller's statement */
  I->frame = saved.frame;
  I->func = saved.func;
  I->in_kernel = saved.in_kernel;
  I->flow = saved.flow;
  I->depth = saved.depth;
  if (!preset) {
    frame_end(I->prog, fr);
    /* in host code (a kernel's threads leave it to the host): safe inside an expression
       too, as every value a C local holds is counted */
    if (!I->thread) cycles_maybe_collect(I->prog);
  }
  return result;
}

/* g.thread_idx, g.shfl(v, d), ...: cooperative groups (interp_kernel.c). */
COLD static Value eval_group(Interp *I, Node *n) {
  bool warp;
  GroupOp op = group_op(n, &warp);
  Node *fld = n->kind == N_CALL ? n->a : n;
  if (!op) rt_error(fld->loc, "'%s.%s' is not supported", fld->a->name, fld->name);
  return kernel_group(I, n, op, warp);
}

static bool is_group(Node *fld) {
  return fld->a->kind == N_IDENT && fld->a->slot >= 0 &&
         (!strcmp(fld->a->name, "coalesced_threads") || !strcmp(fld->a->name, "this_thread_block"));
}

/* o.name: a field of an object (rt_object.c), of a native object of the runtime library
   (stream.rgb_data: value.h's Handle), or of a cooperative group. */
COLD static Value eval_field(Interp *I, Node *n) {
  if (is_group(n)) return eval_group(I, n);
  Value base = eval(I, n->a);
  Value r = base.kind == V_HANDLE ? base.h->cls->field(base.h, n->name, n->loc) : obj_get(base, n->name, n->loc);
  val_release(base);
  return r;
}

/* `f(img, n : int)`: an argument with a type written after it is converted to that type
   like a typed assignment (an integral scalar becomes an int; a string for an int is an
   error naming the argument). Host code only: kernels take their parameters' types. */
static void convert_typed_args(Node *call, Value *argv) {
  const char *fname = call->a->kind == N_IDENT || call->a->kind == N_FIELD ? call->a->name : "the function";
  for (int i = 0; i < call->nparams; i++) {
    if (!call->params[i].type) continue;
    const Node *arg = call->list.items[i];
    char what[160];
    if (arg->kind == N_IDENT)
      snprintf(what, sizeof what, "argument %d ('%s') of the call to '%s'", i + 1, arg->name, fname);
    else
      snprintf(what, sizeof what, "argument %d of the call to '%s'", i + 1, fname);
    Value v = rt_convert(argv[i], call->params[i].type, what, call->params[i].loc);
    val_release(argv[i]);
    argv[i] = v;
  }
}

COLD static Value eval_call(Interp *I, Node *n) {
  int outs = I->outs_wanted;   /* for this call, not for the calls in its arguments */
  I->outs_wanted = 0;
  if (n->a->kind == N_FIELD && is_group(n->a)) return eval_group(I, n);
  Value fn = eval(I, n->a);
  if (fn.kind == V_TYPE && fn.type->class_kind != CLASS_NONE) {
    Value o = construct_object(I, fn.type, n);
    val_release(fn);
    return o;
  }
  int argc = n->list.n;
  Value stack_args[8];
  Value *argv = argc <= 8 ? stack_args : malloc(argc * sizeof *argv);
  for (int i = 0; i < argc; i++) argv[i] = eval(I, n->list.items[i]);
  if (n->nparams && !I->in_kernel) convert_typed_args(n, argv);
  I->outs_wanted = outs;
  Value r = kernel_int(I, call_value(I, fn, argc, argv, n));   /* abs(-2^31), prod: wrap as compiled */
  release_all(argv, argc);
  if (argv != stack_args) free(argv);
  val_release(fn);
  return r;
}

/* a[i] <- v (exchange) and a[i] <- (expected, v) (compare-exchange): the old value. */
COLD static Value eval_exchange(Interp *I, Node *n) {
  if (n->a->kind != N_INDEX) rt_error(n->loc, "'<-' needs an array element on its left");
  Value base = eval(I, n->a->a);
  Value idx[OQ_MAX_RANK];
  int k = eval_indices(I, n->a, idx);
  IndexCtx ctx = index_ctx(I, n->a);
  host_writes(base, n->loc);
  Value old = rt_index_get(base, k, idx, &ctx);
  bool cas = n->b->kind == N_TUPLE;
  if (cas && n->b->list.n != 2) rt_error(n->b->loc, "compare-exchange takes (expected, new)");
  Value expected = cas ? eval(I, n->b->list.items[0]) : v_none();
  Value nv = eval(I, cas ? n->b->list.items[1] : n->b);
  bool swap = true;
  if (cas) {
    Value eq = binary(OP_EQ, old, expected, n->loc);
    swap = rt_truthy(eq, n->loc);
    val_release(eq);
  }
  if (swap) rt_index_set(base, k, idx, nv, &ctx);
  val_release(nv);
  val_release(expected);
  release_all(idx, k);
  val_release(base);
  return old;
}

Value eval(Interp *I, Node *n) {
  switch (n->kind) {
  case N_INT: return v_int(n->ival);
  case N_REAL: return v_scalar(n->rval);
  case N_IMAG: return v_cscalar(0, n->rval);
  case N_STRING: return v_string(n->str, (int)strlen(n->str));
  case N_IDENT: return eval_ident(I, n);
  case N_BINARY: return eval_binary(I, n);
  case N_UNARY: return eval_unary(I, n);
  case N_RANGE: return eval_range(I, n);
  case N_COND: {
    Value c = eval(I, n->a);
    if (c.kind == V_ARRAY) return eval_select(I, n, c);   /* element by element */
    bool t = truthy(c, n->a->loc);
    val_release(c);
    return eval(I, t ? n->b : n->c);
  }
  case N_CALL: return eval_call(I, n);
  case N_INDEX: return eval_index(I, n);
  case N_MATRIX: return eval_matrix(I, n);
  case N_LAMBDA: return make_closure(I, n->func);
  case N_EXCHANGE: return eval_exchange(I, n);
  case N_TYPE: return v_type(n->type);
  case N_ASSIGN: return eval_assign(I, n);
  case N_FIELD: return eval_field(I, n);
  case N_NAMEDARG: rt_error(n->loc, "a named argument (%s := ...) is only allowed in the construction of an object", n->name);
  case N_ARRAYEXPR: {
    Value v;
    return arrayexpr_eval(I, n, &v) ? v : eval(I, n->a);
  }
  case N_COLON: rt_error(n->loc, "':' is only allowed inside an index");
  case N_TUPLE: rt_error(n->loc, "a parenthesized list is not a value here");
  default: rt_error(n->loc, "%s is not an expression", node_kind_name(n->kind));
  }
}

/* ---- assignment ---- */

/* int op= int stays int (j /= 2 truncates); anything else takes the operator's result. */
static Value compound(Op op, Value old, Value v, SrcLoc loc) {
  if (is_intlike(old) && is_intlike(v) && (op == OP_DIV || op == OP_EDIV)) {
    if (!v.i) rt_error(loc, "integer division by zero");
    if (v.i == -1) return v_int((int64_t)(0 - (uint64_t)old.i));   /* INT64_MIN / -1 wraps */
    return v_int(old.i / v.i);
  }
  if (is_intlike(old) && is_intlike(v) && (op == OP_POW || op == OP_EPOW) && v.i >= 0) {
    uint64_t r = 1;   /* wraps */
    for (int64_t k = 0; k < v.i && k < 64; k++) r *= (uint64_t)old.i;
    return v_int((int64_t)r);
  }
  return binary(op, old, v, loc);
}

/* c[i] = v and c[i] op= v on a cell array (v consumed). */
static void assign_cell(Value c, int k, Value *idx, Op op, Value v, SrcLoc loc, Value *result) {
  if (op != OP_NONE) {
    Value old = cell_get(c, k, idx, loc);
    Value r = compound(op, old, v, loc);
    val_release(old);
    val_release(v);
    v = r;
  }
  if (result) { val_retain(v); *result = v; }
  cell_set(c, k, idx, v, loc);
}

/* Stores v (consumed) into target, applying op for compound assignments. When result is
   not NULL it receives a new reference to the value stored (an assignment used as an
   expression, `b = (a[0] += 1)`, yields it). */
static void assign_to(Interp *I, Node *target, Op op, Value v, const Type *decl, SrcLoc loc,
                      Value *result) {
  if (target->kind == N_IDENT) {
    if (op == OP_NONE && decl) {
      char what[128];
      snprintf(what, sizeof what, "'%s'", target->name);
      Value c = rt_convert(v, decl, what, loc);
      val_release(v);
      v = c;
    } else if (op != OP_NONE) {
      Value old = eval_ident(I, target);
      Value r = kernel_int(I, compound(op, old, v, loc));
      val_release(old);
      val_release(v);
      v = r;
    }
    if (result) { val_retain(v); *result = v; }
    slot_store(I, target, v);
    return;
  }
  if (target->kind == N_INDEX) {
    Value base = eval(I, target->a);
    Value idx[OQ_MAX_RANK];
    int k = eval_indices(I, target, idx);
    IndexCtx ctx = index_ctx(I, target);
    host_writes(base, loc);
    host_reads(v, loc);   /* an array stored into a slice */
    if (base.kind == V_CELL) {
      assign_cell(base, k, idx, op, v, loc, result);
    } else if (op == OP_NONE) {
      rt_index_set(base, k, idx, v, &ctx);
      if (result) { val_retain(v); *result = v; }
    } else {
      Value r = rt_index_update(base, k, idx, op, v, &ctx);
      if (result) *result = r;
      else val_release(r);
    }
    release_all(idx, k);
    val_release(base);
    if (base.kind != V_CELL) val_release(v);
    return;
  }
  if (target->kind == N_FIELD) {
    Value base = eval(I, target->a);
    if (op != OP_NONE) {
      Value old = obj_get(base, target->name, target->loc);
      Value r = compound(op, old, v, loc);
      val_release(old);
      val_release(v);
      v = r;
    }
    if (result) { val_retain(v); *result = v; }
    obj_set(base, target->name, v, op == OP_NONE ? decl : NULL, loc);
    val_release(base);
    return;
  }
  rt_error(target->loc, "cannot assign to this expression");
}

/* [a, b] = e: e is a tuple (several outputs), a literal (each element evaluated first), or
   an array (its elements). */
COLD static void exec_multi_assign(Interp *I, Node *n) {
  int count = n->list.n;
  Value vals[count > 0 ? count : 1];   /* on the stack: an error below exits past any free */
  if (n->b->kind == N_MATRIX && n->b->list.n == count) {
    for (int i = 0; i < count; i++) vals[i] = eval(I, n->b->list.items[i]);
  } else {
    if (n->b->kind == N_CALL) I->outs_wanted = count;   /* built-ins with several outputs */
    Value v = eval(I, n->b);
    I->outs_wanted = 0;
    if (v.kind == V_TUPLE) {
      if (v.tup->n < count)
        rt_error(n->loc, "%d values assigned from %d outputs", count, v.tup->n);
      for (int i = 0; i < count; i++) { vals[i] = v.tup->v[i]; val_retain(vals[i]); }
    } else if (v.kind == V_ARRAY) {
      host_reads(v, n->loc);
      if (v.arr->numel != count)
        rt_error(n->loc, "%d values assigned from a %s of %lld elements", count,
                 rt_kind_name(v), (long long)v.arr->numel);
      for (int i = 0; i < count; i++) vals[i] = arr_get(v.arr, i);
    } else {
      rt_error(n->loc, "cannot assign a %s to %d variables", rt_kind_name(v), count);
    }
    val_release(v);
  }
  for (int i = 0; i < count; i++) assign_to(I, n->list.items[i], n->op, vals[i], NULL, n->loc, NULL);
}

/* An update of a host loop's scalar sum or product (AccumNote, parloop.h): in double,
   rounded when the loop nest ends (exec_for). False when the variable does not hold a
   scalar yet (an int 0 to start, a vector): the plain assignment does it. */
static bool exec_accumulate(Interp *I, Node *n) {
  const AccumNote *a = n->aux;
  Node *t = n->list.items[0];
  if (slot_ref(I, t)->kind != V_SCALAR) return false;
  Value e = eval(I, a->e);
  Value *p = slot_ref(I, t);
  if (p->kind == V_SCALAR && v_is_real(e)) {
    double x = e.kind == V_SCALAR ? e.s : (double)e.i;
    p->s = a->op == OP_MUL ? p->s * x : a->negate ? p->s - x : p->s + x;
    return true;
  }
  Op op = a->op == OP_MUL ? OP_MUL : a->negate ? OP_SUB : OP_ADD;
  Value r = a->e_first ? binary(op, e, *p, n->loc) : binary(op, *p, e, n->loc);
  val_release(e);
  slot_store(I, t, r);
  return true;
}

static void exec_assign(Interp *I, Node *n) {
  if (n->aux && exec_accumulate(I, n)) return;
  if (n->list.n != 1) { exec_multi_assign(I, n); return; }
  Node *t = n->list.items[0];
  if (!n->b) {   /* bare declaration `x : T` */
    if (t->kind == N_IDENT && n->type) slot_store(I, t, rt_convert(v_int(0), n->type, t->name, n->loc));
    return;
  }
  /* fast path: x += <number> on a number */
  if (t->kind == N_IDENT && n->op != OP_NONE && t->slot >= 0) {
    Value *p = slot_ref(I, t);
    if (v_is_real(*p)) {
      Value v = eval(I, n->b);
      Value r;
      if (v_is_real(v) && !(is_intlike(*p) && is_intlike(v) &&
                            (n->op == OP_DIV || n->op == OP_POW || n->op == OP_EDIV || n->op == OP_EPOW)) &&
          arith_fast(n->op, *p, v, &r)) {
        p = slot_ref(I, t);
        *p = kernel_int(I, r);   /* s += n in a kernel wraps at 32 bits */
        return;
      }
      assign_to(I, t, n->op, v, NULL, n->loc, NULL);
      return;
    }
  }
  assign_to(I, t, n->op, eval(I, n->b), n->type, n->loc, NULL);
}

/* An assignment in an expression, `b = (a[0] += 1)`: yields the value stored. */
static Value eval_assign(Interp *I, Node *n) {
  if (n->list.n != 1 || !n->b) rt_error(n->loc, "this assignment has no value");
  Value r;
  assign_to(I, n->list.items[0], n->op, eval(I, n->b), n->type, n->loc, &r);
  return r;
}

/* ---- control flow ---- */

/* After a loop body: true when the loop must stop. */
static inline bool loop_exit(Interp *I) {
  if (I->flow == FLOW_NORMAL) return false;
  if (I->flow == FLOW_CONTINUE) { I->flow = FLOW_NORMAL; return false; }
  if (I->flow == FLOW_BREAK) I->flow = FLOW_NORMAL;
  return true;   /* break or return */
}

static void exec_for_loop(Interp *I, Node *n);

/* A loop nest whose reductions were added in double (exec_accumulate) rounds them to the
   declared precision once, at its end. */
COLD static void exec_for(Interp *I, Node *n) {
  exec_for_loop(I, n);
  const NodeList *sums = n->aux;
  for (int i = 0; sums && i < sums->n; i++) {
    Value *p = slot_ref(I, sums->items[i]);
    if (p->kind == V_SCALAR) p->s = rt_round(p->s);
  }
}

static void exec_for_loop(Interp *I, Node *n) {
  Node var = {.kind = N_IDENT, .slot = n->slot, .depth = 0, .name = n->name};
  if (n->a->kind == N_RANGE) {
    RangeSpec r = range_spec(I, n->a);
    for (int64_t k = 0; k < r.count; k++) {
      Value *p = &I->frame->slots[n->slot];
      val_release(*p);
      *p = r.is_int ? v_int(r.i0 + k * r.istep) : v_scalar(r.r0 + (double)k * r.rstep);
      exec_block(I, &n->list);
      if (loop_exit(I)) break;
    }
    return;
  }
  Value it = eval(I, n->a);
  if (it.kind != V_ARRAY) {
    slot_store(I, &var, it);
    exec_block(I, &n->list);
    loop_exit(I);
    return;
  }
  host_reads(it, n->a->loc);
  for (int64_t k = 0; k < it.arr->numel; k++) {
    slot_store(I, &var, arr_get(it.arr, k));
    exec_block(I, &n->list);
    if (loop_exit(I)) break;
  }
  val_release(it);
}

/* ---- run-time notes (RunNote) ---- */

static size_t note_home(const RunNotes *t, const Node *n) {
  return (size_t)(((uintptr_t)n >> 3) * 0x9E3779B97F4A7C15ull >> 20) & (t->cap - 1);
}

/* n's note, or NULL when none was made. */
static RunNote *run_note_find(Program *P, const Node *n) {
  RunNotes *t = &P->notes;
  for (size_t i = t->cap ? note_home(t, n) : 0; t->cap && t->v[i].node; i = (i + 1) & (t->cap - 1))
    if (t->v[i].node == n) return &t->v[i];
  return NULL;
}

static void run_notes_grow(RunNotes *t) {
  RunNotes old = *t;
  t->cap = old.cap ? 2 * old.cap : 64;
  t->v = calloc(t->cap, sizeof *t->v);
  for (size_t i = 0; i < old.cap; i++)
    if (old.v[i].node) {
      size_t j = note_home(t, old.v[i].node);
      while (t->v[j].node) j = (j + 1) & (t->cap - 1);
      t->v[j] = old.v[i];
    }
  free(old.v);
}

/* n's note, made (zero) at the first call. The pointer is good until the next new note. */
RunNote *run_note(Program *P, const Node *n) {
  RunNote *r = run_note_find(P, n);
  if (r) return r;
  RunNotes *t = &P->notes;
  if (2 * (t->n + 1) > t->cap) run_notes_grow(t);
  size_t i = note_home(t, n);
  while (t->v[i].node) i = (i + 1) & (t->cap - 1);
  t->n++;
  t->v[i].node = n;
  return &t->v[i];
}

/* ---- loop nests run as kernels (transform_parloop.c) ---- */

/* The analysis reasoned about names: two names for one array send the loop back to serial. */
static bool parloop_unaliased(Interp *I, Node *arrays) {
  NodeList *w = &arrays->list, *o = &arrays->list2;
  for (int i = 0; i < w->n; i++) {
    Value a = *slot_ref(I, w->items[i]);
    if (a.kind != V_ARRAY) return false;
    for (int j = 0; j < w->n + o->n; j++) {
      Node *id = j < w->n ? w->items[j] : o->items[j - w->n];
      Value b = *slot_ref(I, id);
      if (id != w->items[i] && b.kind == V_ARRAY && b.arr == a.arr) return false;
    }
  }
  for (int j = 0; j < o->n; j++) {   /* kernels take no cell arrays and objects */
    ValueKind k = slot_ref(I, o->items[j])->kind;
    if (k == V_CELL || k == V_OBJECT) return false;
  }
  return true;
}

/* The parallel loop's kernel whose outputs i are ints for the bits of ints: n->func (none),
   n->b->func (all), else a copy of n->func with those outputs' types taken from n->b->func
   (the body, its resolution and its FuncInfo are shared: only kernel_sema and the
   oracle read the outputs' types), kept in n's run note per mask. */
static Func *parloop_mix(Interp *I, Node *n, unsigned ints) {
  unsigned all = (1u << n->list2.n) - 1;
  if (!ints) return n->func;
  if (ints == all) return n->b->func;
  RunNote *note = run_note(I->prog, n);
  if (!note->mixes) note->mixes = arena_alloc(I->prog->arena, (all + 1) * sizeof *note->mixes);
  Func **mixes = note->mixes;
  if (!mixes[ints]) {
    Func *f = arena_alloc(I->prog->arena, sizeof *f);
    *f = *n->func;
    f->outs = arena_alloc(I->prog->arena, f->nouts * sizeof *f->outs);
    for (int i = 0; i < f->nouts; i++) f->outs[i] = (ints >> i & 1 ? n->b->func : n->func)->outs[i];
    mixes[ints] = f;
  }
  return mixes[ints];
}

/* The type of a value added to a reduction, guessed from the values of the variables it
   uses before the launch (0: unknown, 1: int, 2: scalar); see N_PARLOOP in ast.h. */
static int guess_type(Interp *I, Node *e, const RangeSpec *r) {
  switch (e->kind) {
  case N_INT: return 1;
  case N_REAL: return 2;
  case N_IDENT: {
    if (e->slot <= -3) return r[-3 - e->slot].is_int ? 1 : 2;
    if (e->slot == -2 || (e->slot < 0 && !e->aux)) return 0;
    Value v = e->slot < 0 ? ((const Global *)e->aux)->value : *slot_ref(I, e);
    return is_intlike(v) ? 1 : v.kind == V_SCALAR ? 2 : 0;
  }
  case N_INDEX: {   /* an element of an array: its element type */
    if (e->a->kind != N_IDENT || e->a->slot < 0) return 0;
    for (int i = 0; i < e->list.n; i++)
      if (e->list.items[i]->kind == N_COLON || e->list.items[i]->kind == N_RANGE) return 0;
    Value v = *slot_ref(I, e->a);
    if (v.kind != V_ARRAY || el_is_complex(v.arr->elem)) return 0;
    return el_is_integer(v.arr->elem) ? 1 : 2;
  }
  case N_UNARY: return e->op == OP_NEG ? guess_type(I, e->a, r) : 0;
  case N_BINARY: {
    int a = guess_type(I, e->a, r), b = guess_type(I, e->b, r);
    if (!a || !b) return 0;
    switch (e->op) {
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_EMUL: return a == 1 && b == 1 ? 1 : 2;
    case OP_DIV: case OP_EDIV: case OP_POW: case OP_EPOW: return 2;
    default: return op_is_comparison(e->op) ? 1 : 0;
    }
  }
  default: return 0;
  }
}

/* The kernel that gives the serial loop's types: output i is an int when reduction variable
   i holds an int and no value added to it is known to be a scalar, else a scalar. An int
   output runs in the interpreter if the loop adds scalars after all; once it came back a
   scalar (bit i of its run note's scalar_outs), it is a scalar output from then on. n->func has scalar
   outputs, n->b->func int ones; a mix is a copy of n->func with those outputs int, made at
   its first use (parloop_mix). */
static Func *parloop_kernel(Interp *I, Node *n, const RangeSpec *r) {
  unsigned ints = 0;
  const RunNote *note = run_note_find(I->prog, n);
  unsigned scalar_outs = note ? note->scalar_outs : 0;
  for (int i = 0; i < n->list2.n; i++) {
    Value v = *slot_ref(I, n->list2.items[i]);
    if (!is_intlike(v) || (scalar_outs >> i & 1)) continue;
    bool scalar = false;
    NodeList *adds = &n->b->list.items[i]->list;
    for (int j = 0; j < adds->n && !scalar; j++) scalar = guess_type(I, adds->items[j], r) == 2;
    if (!scalar) ints |= 1u << i;
  }
  return parloop_mix(I, n, ints);
}

/* Reduction variables hold numbers (ints, scalars or both). */
static bool parloop_numbers(Interp *I, Node *n) {
  for (int i = 0; i < n->list2.n; i++)
    if (!v_is_real(*slot_ref(I, n->list2.items[i]))) return false;
  return true;
}

/* A variable the loop reads as a whole that holds an array (more than a small vector, which
   kernels hold as a value): the body does array arithmetic, which the host runs as kernels
   of its own (interp_arrayexpr.c) and a kernel thread could only run in the interpreter. */
static bool parloop_array_math(Interp *I, Node *wholes) {
  for (int i = 0; i < wholes->list.n; i++) {
    Value v = *slot_ref(I, wholes->list.items[i]);
    if (v.kind == V_ARRAY && v.arr->numel > 16) return true;
  }
  return false;
}

COLD static void exec_parloop(Interp *I, Node *n) {
  if (!parloop_numbers(I, n) || !parloop_unaliased(I, n->c) || parloop_array_math(I, n->c->a)) {
    exec_for(I, n->a);
    return;
  }
  int D = n->list.n;
  RangeSpec r[OQ_MAX_RANK];
  bool empty = false;
  for (int d = 0; d < D && !empty; d++) {
    r[d] = range_spec(I, n->list.items[d]->a);
    empty = r[d].count == 0;
  }
  if (!empty) {
    Func *kernel = parloop_kernel(I, n, r);
    Value argv[2 * OQ_MAX_RANK + 2];
    int argc = 0;
    Array *dims = arr_vec(EL_I32, D);
    for (int d = 0; d < D; d++) arr_store(dims, d, (double)r[d].count);
    argv[argc++] = v_array(dims);
    for (int d = 0; d < D; d++) {
      argv[argc++] = r[d].is_int ? v_int(r[d].i0) : v_scalar(r[d].r0);
      argv[argc++] = r[d].is_int ? v_int(r[d].istep) : v_scalar(r[d].rstep);
    }
    argv[argc++] = make_closure(I, kernel);
    Value res = kernel_parallel_do(I, n, argc, argv);
    release_all(argv, argc);
    for (int i = 0; i < n->list2.n; i++) {
      Value *p = slot_ref(I, n->list2.items[i]);
      Value r = n->list2.n == 1 ? res : res.tup->v[i];
      if (kernel->outs[i].type->kind == TY_INT && r.kind == V_SCALAR)
        run_note(I->prog, n)->scalar_outs |= 1u << i;   /* next time: a scalar output */
      Value v = compound(func_info(kernel)->out_op[i], *p, r, n->loc);
      val_release(*p);
      *p = v;
    }
    val_release(res);
  }
  /* the loop variables keep their last values, as after the serial loop */
  for (int d = 0; d < D && r[d].count > 0; d++) {
    int64_t k = r[d].count - 1;
    Value *p = &I->frame->slots[n->list.items[d]->slot];
    val_release(*p);
    *p = r[d].is_int ? v_int(r[d].i0 + k * r[d].istep) : v_scalar(r[d].r0 + (double)k * r[d].rstep);
  }
}

static bool cond_true(Interp *I, Node *c) {
  Value v = eval(I, c);
  bool t = truthy(v, c->loc);
  val_release(v);
  return t;
}

static bool case_matches(Value subject, Value pattern, SrcLoc loc) {
  if (subject.kind == V_STRING || pattern.kind == V_STRING)
    return subject.kind == V_STRING && pattern.kind == V_STRING &&
           !strcmp(subject.str->s, pattern.str->s);
  Value eq = binary(OP_EQ, subject, pattern, loc);
  bool t = rt_truthy(eq, loc);
  val_release(eq);
  return t;
}

COLD static void exec_match(Interp *I, Node *n) {
  Value subject = eval(I, n->a);
  for (int i = 0; i < n->ncases; i++) {
    MatchCase *mc = &n->cases[i];
    bool hit = !mc->pattern;
    if (!hit) {
      Value p = eval(I, mc->pattern);
      hit = case_matches(subject, p, mc->loc);
      val_release(p);
    }
    if (hit) { exec_block(I, &mc->body); break; }
  }
  val_release(subject);
}

COLD static void exec_expr_stmt(Interp *I, Node *e) {
  BarrierKind k = barrier_kind(e);
  if (is_barrier(k)) kernel_syncthreads(I, e, k);
  if (k) return;   /* a memfence: the interpreter's threads see each other's stores at once */
  val_release(eval(I, e));
}

static void exec_loop(Interp *I, Node *n) {
  if (n->kind == N_FOR) {
    exec_for(I, n);
    return;
  }
  for (;;) {
    if (n->kind == N_WHILE && !cond_true(I, n->a)) break;
    exec_block(I, &n->list);
    if (loop_exit(I)) break;
    if (n->kind == N_REPEAT && cond_true(I, n->a)) break;
  }
}

static void exec(Interp *I, Node *n) {
  diag_set_where(n->loc);   /* errors of the runtime without a location name this statement */
  switch (n->kind) {
  case N_EXPR: exec_expr_stmt(I, n->a); return;
  case N_ASSIGN: exec_assign(I, n); return;
  case N_IF:
    if (cond_true(I, n->a)) exec_block(I, &n->list);
    else exec_block(I, &n->list2);
    return;
  case N_FOR: case N_WHILE: case N_REPEAT:
    if (!I->thread) cuda_submit();   /* what was queued runs while this loop does */
    I->prog->host_loops += !I->thread;
    exec_loop(I, n);
    I->prog->host_loops -= !I->thread;
    return;
  case N_PARLOOP: exec_parloop(I, n); return;
  case N_ARRAYEXPR: if (!arrayexpr_exec(I, n)) exec(I, n->a); return;
  case N_MATCH: exec_match(I, n); return;
  case N_BREAK: I->flow = FLOW_BREAK; return;
  case N_CONTINUE: I->flow = FLOW_CONTINUE; return;
  case N_RETURN:
    if (n->a) val_release(eval(I, n->a));
    I->flow = FLOW_RETURN;
    return;
  case N_BLOCK: exec_block(I, &n->list); return;
  case N_FUNCDEF: case N_MACRO: case N_REDUCTION: case N_TYPEDEF: case N_ATTR: case N_IMPORT:
    return;   /* definitions are bound at entry; attributes guide the compilers */
  default: val_release(eval(I, n)); return;
  }
}

/* Statement s of a host loop's body while launches wait in the queue: a statement that
   took more than 20 us the last time submits them first, so that they run during it (a
   long built-in call, array arithmetic); a quick one (size(), the next launch) leaves them
   batched. */
static void exec_timed(Interp *I, Node *s) {
  const RunNote *note = run_note_find(I->prog, s);
  bool was_slow = note && note->slow;
  if (was_slow) cuda_submit();
  double t0 = rt_now_ms();
  exec(I, s);
  bool slow = rt_now_ms() - t0 > 0.02;
  if (slow != was_slow) run_note(I->prog, s)->slow = slow;   /* (exec may have moved the notes) */
}

/* Batched GPU launches (rt_cuda.c) go when a host loop starts (exec) and, outside host
   loops, after each statement: a loop's launches are batched across its iterations, and
   the host work that follows a launch (a statement, a loop) runs while the device does;
   inside host loops, before the statements that take long (exec_timed). */
void exec_block(Interp *I, NodeList *body) {
  for (int i = 0; i < body->n && I->flow == FLOW_NORMAL; i++) {
    Node *s = body->items[i];
    if (I->prog->host_loops && !I->thread && cuda_queued()) exec_timed(I, s);
    else exec(I, s);
    if (!I->prog->host_loops && !I->thread) cuda_submit();
  }
}

/* ---- entry points ---- */

/* `make asan`: the program and what its frames hold live until exit (nothing frees them: the
   process ends), so LeakSanitizer takes them as reachable, and reports only what is lost. */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define LIVES_UNTIL_EXIT(p) __lsan_ignore_object(p)
#else
#define LIVES_UNTIL_EXIT(p) (void)(p)
#endif

static Program *program_new(Arena *arena, Node *root) {
  Program *P = calloc(1, sizeof *P);
  LIVES_UNTIL_EXIT(P);
  P->arena = arena;
  P->root = root;
  return P;
}

Program *interp_load(Arena *arena, Node *program, const InterpOptions *opt) {
  Program *P = program_new(arena, program);
  P->opt = opt;
  /* resolution runs after failed imports too: `oq check` reports every error at once */
  int errors = macro_expand(arena, program, opt->target);
  if (resolve_program(P) || errors) return NULL;
  parloop_transform(P, opt);
  arrayexpr_transform(P, opt);
  return P;
}

static Func *find_main(Program *P) {
  FuncInfo *fi = func_info(P->script);
  for (int i = 0; i < fi->hoisted.n; i++) {
    Func *f = fi->hoisted.items[i]->func;
    if (!strcmp(f->name, "main")) return f;
  }
  return NULL;
}

/* A program argument as main()'s parameter p gets it: a string for a `string` parameter,
   else a number when the whole text is one (bind_params converts it to p's type, or says
   why it cannot), else the string. */
static Value program_arg(const char *text, const Param *p) {
  if (p->type->kind != TY_STRING) {
    char *end;
    errno = 0;
    long long i = strtoll(text, &end, 10);
    if (*text && !*end && !errno) return v_int(i);
    double d = strtod(text, &end);
    if (*text && !*end) return v_scalar(d);
  }
  return v_string(text, (int)strlen(text));
}

static void run_main(Interp *I, Program *P, Func *main_fn, const InterpOptions *opt) {
  Callable c = {.refcount = 1, .kind = CALL_USER, .func = main_fn, .env = P->script_frame};
  Node site = {.kind = N_CALL, .loc = main_fn->loc};
  int argc = opt->nargs;
  if (argc > main_fn->nparams)
    rt_error(main_fn->loc, "%d program argument%s given, but main() takes %d (oq's options go before the file)",
             argc, argc == 1 ? "" : "s", main_fn->nparams);
  Value *argv = calloc(argc + 1, sizeof *argv);
  for (int i = 0; i < argc; i++) argv[i] = program_arg(opt->args[i], &main_fn->params[i]);
  val_release(call_user(I, &c, argc, argv, &site, NULL));
  for (int i = 0; i < argc; i++) val_release(argv[i]);
  free(argv);
}

int interp_check(Program *P) {
  FuncInfo *fi = func_info(P->script);
  Interp I = {.prog = P, .func = P->script};
  Frame *fr = frame_new(fi->nslots, NULL);
  P->script_frame = I.frame = fr;
  bind_hoisted(&I, fi);   /* the kernels' calls of top-level functions find them */
  int errors = 0;
  for (int i = 0; i < fi->hoisted.n; i++) {
    Value v = fr->slots[fi->hoisted.items[i]->slot >= 0 ? fi->hoisted.items[i]->slot : 0];
    if (v.kind == V_FUNC && v.fn->kind == CALL_USER && v.fn->func->kind == FK_KERNEL)
      errors += ksema_check_kernel(v.fn);
  }
  unbind_hoisted(fr, fi);
  return errors;
}

int interp_run(Program *P, const InterpOptions *opt) {
  P->opt = opt;
  P->stack_low = stack_low_bound();
  Func *main_fn = find_main(P);
  if (opt->nargs && !main_fn) {
    fprintf(stderr, "oq: error: program arguments given, but the program defines no main() to take them "
                    "(oq's options go before the file)\n");
    return 1;
  }
  FuncInfo *fi = func_info(P->script);
  Interp I = {.prog = P, .func = P->script};
  P->script_frame = frame_new(fi->nslots, NULL);
  I.frame = P->script_frame;
  bind_hoisted(&I, fi);
  exec_block(&I, &P->script->body);
  if (main_fn && I.flow == FLOW_NORMAL) run_main(&I, P, main_fn, opt);
  cycles_end(P);
  numlib_sync(P, P->root->loc);
  numlib_free(P);
  fflush(stdout);
  return 0;
}
