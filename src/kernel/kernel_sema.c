/* kernel_sema.c: specialization and type inference of a kernel for one set of launch facts.

   Every local gets one type for the whole function: the join of the types assigned to it
   (bool < int < scalar < cscalar; vectors join component-wise when their lengths agree).
   Joining int into scalar changes nothing the interpreter would compute, except for
   `/=` and `^=` between ints, which stay int in the interpreter: those fail when the
   variable is mixed. Types are found by repeating the analysis of a function until no
   slot widens, then once more in strict mode, where a value still unknown is an error.

   Device functions are specialized per argument types; function values are known at
   specialization time (FnRef), so calls through parameters and closures are direct.
   Anything compiled code does not do fails the specialization with a reason: the launch
   then runs in the interpreter. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/config.h"
#include "kernel/kernel_ir.h"
#include "kernel/facts.h"
#include "base/oqk_abi.h"

/* ---- failing ---- */

/* S->reason for a failed specialization: "msg (line N)"; the emitter fails the same way. */
void ksema_reason(KSpec *S, SrcLoc loc, const char *fmt, va_list ap) {
  char msg[200];
  vsnprintf(msg, sizeof msg, fmt, ap);
  if (loc.file) snprintf(S->reason, sizeof S->reason, "%s (line %d)", msg, loc.line);
  else snprintf(S->reason, sizeof S->reason, "%s", msg);
}

_Noreturn void ksema_fail(KSpec *S, SrcLoc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ksema_reason(S, loc, fmt, ap);
  va_end(ap);
  longjmp(S->fail, 1);
}

_Noreturn void ksema_type_error(KSpec *S, SrcLoc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(S->error_msg, sizeof S->error_msg, fmt, ap);
  va_end(ap);
  S->type_error = true;
  S->error_loc = loc;
  ksema_fail(S, loc, "%s", S->error_msg);
}

/* ---- types ---- */

static KType kt(KKind k) { KType t = {0}; t.kind = k; return t; }
static KType kt_vec(KKind elem, int len) { KType t = kt(K_VEC); t.elem = elem; t.len = len; return t; }
static KType kt_arr(ElemType el, int rank) { KType t = kt(K_ARRAY); t.el = el; t.rank = rank; return t; }

bool ktype_eq(KType a, KType b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
  case K_VEC: return a.elem == b.elem && a.len == b.len;
  case K_ARRAY:
    if (a.el != b.el || a.rank != b.rank || a.shared != b.shared || a.fixlen != b.fixlen) return false;
    if (!a.cdims || !b.cdims) return a.cdims == b.cdims;
    return !memcmp(a.cdims, b.cdims, a.rank * sizeof *a.cdims);
  case K_FUNC: return a.fn == b.fn;
  case K_TUPLE: return a.tuple == b.tuple;
  default: return true;
  }
}

const char *ktype_str(KType t, char *buf, size_t n) {
  switch (t.kind) {
  case K_NONE: snprintf(buf, n, "none"); break;
  case K_BOOL: snprintf(buf, n, "bool"); break;
  case K_INT: snprintf(buf, n, "int"); break;
  case K_REAL: snprintf(buf, n, "scalar"); break;
  case K_CPLX: snprintf(buf, n, "cscalar"); break;
  case K_VEC: snprintf(buf, n, "%s%d", t.elem == K_INT ? "ivec" : "vec", t.len); break;
  case K_ARRAY: snprintf(buf, n, "array[%s]{%d}", el_name(t.el), t.rank); break;
  case K_FUNC: snprintf(buf, n, "function"); break;
  case K_TUPLE: snprintf(buf, n, "tuple"); break;
  }
  return buf;
}

static bool is_num(KType t) { return t.kind >= K_BOOL && t.kind <= K_CPLX; }
static bool is_real_num(KType t) { return t.kind >= K_BOOL && t.kind <= K_REAL; }

/* Arithmetic class of a number or vector: K_INT (bools count as int), K_REAL, K_CPLX. */
static KKind kclass(KType t) {
  if (t.kind == K_VEC) return t.elem;
  return t.kind == K_BOOL ? K_INT : t.kind;
}

static KKind kmax(KKind a, KKind b) { return a > b ? a : b; }

/* The type a variable takes when it is assigned b after a; false when they don't join. */
static bool kjoin(KType a, KType b, KType *out) {
  if (a.kind == K_NONE) { *out = b; return true; }
  if (b.kind == K_NONE) { *out = a; return true; }
  if (is_num(a) && is_num(b)) { *out = kt(kmax(a.kind, b.kind)); return true; }
  if (a.kind == K_VEC && b.kind == K_VEC && a.len == b.len) {
    *out = kt_vec(kmax(a.elem, b.elem), a.len);
    return true;
  }
  if (a.kind == K_ARRAY && b.kind == K_ARRAY && a.el == b.el && a.rank == b.rank) {
    *out = a;
    out->shared = a.shared && b.shared;
    if (a.fixlen != b.fixlen) out->fixlen = 0;
    if (!a.cdims || !b.cdims || memcmp(a.cdims, b.cdims, a.rank * sizeof *a.cdims)) out->cdims = NULL;
    return true;
  }
  if (ktype_eq(a, b)) { *out = a; return true; }
  return false;
}

/* The type of an element of an array with elements el. */
static KType elem_ktype(ElemType el) {
  if (el_is_complex(el)) return kt(K_CPLX);
  if (el_is_integer(el)) return kt(K_INT);
  return kt(K_REAL);
}

/* ---- node info ---- */

static size_t ptr_hash(const void *p) {
  uintptr_t x = (uintptr_t)p;
  x ^= x >> 17;
  x *= 0xed5ad4bbu;
  x ^= x >> 11;
  return (size_t)x;
}

NodeInfo *ksema_info(FSpec *f, const Node *n) {
  NodeMap *m = &f->info;
  if (!m->cap) return NULL;
  for (size_t i = ptr_hash(n) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
    if (m->items[i].node == n) return &m->items[i];
    if (!m->items[i].node) return NULL;
  }
}

static NodeInfo *info_put(FSpec *f, const Node *n) {
  NodeMap *m = &f->info;
  if (2 * (m->n + 1) > m->cap) {
    NodeMap old = *m;
    m->cap = old.cap ? 2 * old.cap : 64;
    m->items = calloc(m->cap, sizeof *m->items);
    m->n = 0;
    for (int i = 0; i < old.cap; i++)
      if (old.items[i].node) *info_put(f, old.items[i].node) = old.items[i];
    free(old.items);
  }
  size_t i = ptr_hash(n) & (m->cap - 1);
  while (m->items[i].node && m->items[i].node != n) i = (i + 1) & (m->cap - 1);
  if (!m->items[i].node) {
    m->n++;
    m->items[i] = (NodeInfo){.node = n, .site = -1, .cap = -1};
  }
  return &m->items[i];
}

/* ---- captured variables ---- */

static int capture_find(KSpec *S, Frame *fr, int slot) {
  for (int i = 0; i < S->ncaps; i++)
    if (S->caps[i].frame == fr && S->caps[i].slot == slot) return i;
  return -1;
}

static int capture_add(KSpec *S, Frame *fr, int slot, Value v) {
  int i = capture_find(S, fr, slot);
  if (i >= 0) return i;
  if (S->ncaps == S->capcap) {
    S->capcap = S->capcap ? 2 * S->capcap : 8;
    S->caps = realloc(S->caps, S->capcap * sizeof *S->caps);
  }
  S->caps[S->ncaps] = (Capture){.frame = fr, .slot = slot, .value = v};
  return S->ncaps++;
}

static Frame *frame_up(Frame *f, int n) {
  while (f && n-- > 0) f = f->parent;
  return f;
}

/* A function body the gathering walked already, with the frames it sees. */
typedef struct Seen { Func *f; Frame *env; } Seen;
typedef struct Gather { KSpec *S; Seen *seen; int nseen, cap; char *refs; size_t nrefs, refcap; } Gather;

static void gather_func(Gather *G, Func *f, Frame *env);

static void gather_ref(Gather *G, int cap) {
  char buf[16];
  int n = snprintf(buf, sizeof buf, "%d,", cap);
  if (G->nrefs + n + 1 > G->refcap) {
    G->refcap = G->refcap ? 2 * G->refcap + n : 64;
    G->refs = realloc(G->refs, G->refcap);
  }
  memcpy(G->refs + G->nrefs, buf, n + 1);
  G->nrefs += n;
}

static void gather_value(Gather *G, Value v) {
  if (v.kind == V_FUNC && v.fn->kind == CALL_USER) gather_func(G, v.fn->func, v.fn->env);
}

/* What gathering needs of a function's body, found by one walk at its first launch (a walk at
   every launch cost 2 ms for the library's unrolled filters, 20 times their GPU time): the
   names it reads from enclosing frames in the walk's order, each with the nesting depth of
   the function it is read in (nested lambdas and functions included), and whether it slices. */
typedef struct OuterRef { const Node *id; int nvirt; } OuterRef;
struct KOuterRefs { OuterRef *refs; int n, cap; bool slices; };

static void outer_walk(struct KOuterRefs *o, Node *n, int nvirt) {
  if (!n) return;
  if (n->kind == N_COLON) o->slices = true;
  switch (n->kind) {
  case N_IDENT:
    if (n->slot < 0 || n->depth <= nvirt) return;
    if (o->n == o->cap) {
      o->cap = o->cap ? 2 * o->cap : 8;
      o->refs = realloc(o->refs, o->cap * sizeof *o->refs);
    }
    o->refs[o->n++] = (OuterRef){n, nvirt};
    return;
  case N_LAMBDA: case N_FUNCDEF:
    for (int i = 0; i < n->func->body.n; i++) outer_walk(o, n->func->body.items[i], nvirt + 1);
    return;
  case N_TYPE: case N_ATTR: case N_MACRO: case N_REDUCTION: case N_TYPEDEF: case N_IMPORT: return;
  default:
    for (AstKids it = ast_kids(n); it.node; ast_next(&it)) outer_walk(o, it.node, nvirt);
    return;
  }
}

/* f's notes, kept in its FuncInfo (a function without one gets them in *tmp, freed by the
   caller). */
static const struct KOuterRefs *outer_refs(Func *f, struct KOuterRefs *tmp) {
  FuncInfo *fi = func_info(f);
  if (fi && fi->outer) return fi->outer;
  struct KOuterRefs *o = fi ? calloc(1, sizeof *o) : tmp;
  if (!o) o = tmp;
  for (int i = 0; i < f->body.n; i++) outer_walk(o, f->body.items[i], 0);
  if (fi && o != tmp) fi->outer = o;
  return o;
}

static void gather_ref_at(Gather *G, OuterRef r, Frame *env) {
  const Node *n = r.id;
  Frame *fr = frame_up(env, n->depth - r.nvirt - 1);
  if (!fr || n->slot >= fr->nslots) return;
  int before = G->S->ncaps;
  int k = capture_add(G->S, fr, n->slot, fr->slots[n->slot]);
  gather_ref(G, k);
  if (k == before) gather_value(G, fr->slots[n->slot]);
}

static void gather_func(Gather *G, Func *f, Frame *env) {
  for (int i = 0; i < G->nseen; i++)
    if (G->seen[i].f == f && G->seen[i].env == env) return;
  if (G->nseen == G->cap) {
    G->cap = G->cap ? 2 * G->cap : 8;
    G->seen = realloc(G->seen, G->cap * sizeof *G->seen);
  }
  G->seen[G->nseen++] = (Seen){f, env};
  struct KOuterRefs tmp = {0};
  const struct KOuterRefs *o = outer_refs(f, &tmp);
  if (o->slices) G->S->slices = true;
  for (int i = 0; i < o->n; i++) gather_ref_at(G, o->refs[i], env);
  free(tmp.refs);
}

/* Captures in a fixed order: the kernel's generic arguments (frame NULL), then the names its
   body and the bodies of the functions it can reach read from enclosing frames. */
static char *gather(KSpec *S, Value *args) {
  Gather G = {.S = S};
  Callable *k = S->kernel;
  S->ncaps = 0;
  S->slices = false;
  for (int g = 0; g < S->kfunc->ngenerics; g++)
    capture_add(S, NULL, g, g < k->ngeneric_args ? k->generic_args[g] : v_none());
  for (int i = 0; i < S->kfunc->nparams; i++) gather_value(&G, args[i]);
  gather_func(&G, S->kfunc, k->env);
  free(G.seen);
  return G.refs ? G.refs : strdup("");
}

void ksema_gather(KSpec *S, Value *args) { free(gather(S, args)); }

/* Dimension d of an array when it is short enough to be a vector's length, else -1. */
static int64_t small_dim(const Array *a, int d) {
  return a->dims[d] >= 1 && a->dims[d] <= K_MAX_VEC ? a->dims[d] : -1;
}

/* ---- launch facts as text ---- */

/* The key is built at every launch: appended by hand, not by snprintf (a third of a
   launch's host time). A value's description has at most 40 bytes, and 3 more per array
   dimension where the kernel slices. */
static void put_s(char **p, const char *s, size_t most) {
  size_t n = strnlen(s, most);
  memcpy(*p, s, n);
  *p += n;
}

static void put_u(char **p, unsigned long long u, unsigned base) {
  char t[24];
  int n = 0;
  do t[n++] = "0123456789abcdef"[u % base]; while (u /= base);
  while (n) *(*p)++ = t[--n];
}

static void put_i(char **p, long long v) {
  if (v < 0) *(*p)++ = '-';
  put_u(p, v < 0 ? -(unsigned long long)v : (unsigned long long)v, 10);
}

static void value_desc(KSpec *S, char **p, Value v) {
  switch (v.kind) {
  case V_BOOL: *(*p)++ = 'b'; break;
  case V_INT: *(*p)++ = 'i'; break;
  case V_SCALAR: *(*p)++ = 'r'; break;
  case V_CSCALAR: *(*p)++ = 'c'; break;
  case V_ARRAY:
    *(*p)++ = 'a';
    put_i(p, (int)v.arr->elem);
    *(*p)++ = '.';
    put_i(p, v.arr->rank);
    *(*p)++ = '.';
    put_i(p, v.arr->rank == 1 && v.arr->numel <= K_MAX_VEC ? (long long)v.arr->numel : -1LL);
    for (int d = 0; S->slices && d < v.arr->rank; d++) {
      *(*p)++ = d ? 'x' : ':';
      put_i(p, small_dim(v.arr, d));
    }
    break;
  case V_FUNC:
    if (v.fn->kind == CALL_USER) {
      *(*p)++ = 'f';
      put_u(p, (uintptr_t)v.fn->func, 16);
      *(*p)++ = '.';
      *(*p)++ = v.fn->env ? '1' : '0';
    } else {
      *(*p)++ = 'B';
      put_s(p, callable_name(v.fn), 38);
    }
    break;
  case V_TYPE: *(*p)++ = 't'; put_u(p, (uintptr_t)v.type, 16); break;
  case V_STRING: *(*p)++ = 's'; break;
  default: *(*p)++ = 'n'; break;
  }
}

void ksema_launch(KSpec *S, const int64_t *dims, const int64_t *blk, const int64_t *cnt) {
  /* OQ_DEV_NO_IDX32=1: always the 64-bit code (tests compare the two) */
  S->idx32 = !config()->dev.no_idx32 && oqk_idx32_launch(S->D, dims, blk, cnt);
  S->ldims = dims;
  S->one_block = 0;
  for (int d = 0; d < S->D; d++) {
    if (cnt[d] * blk[d] != dims[d]) S->ldims = NULL;
    if (d < 3 && cnt[d] == 1 && blk[d] == dims[d]) S->one_block |= 1u << d;
  }
}

/* Whether value v is an array of the launch's rank and dimensions (S->ldims). */
static bool launch_shaped(KSpec *S, Value v) {
  if (!S->ldims || v.kind != V_ARRAY || v.arr->rank != S->D) return false;
  for (int d = 0; d < S->D; d++)
    if (v.arr->dims[d] != S->ldims[d]) return false;
  return true;
}

size_t ksema_shared_bytes(const struct KShSize *z, int nshared, bool sized, int D, const int64_t *blk) {
  if (!nshared || !sized) return nshared ? OQ_SHARED_MAX : 0;
  size_t total = 0;
  int64_t nthr = 1;
  for (int d = 0; d < D; d++) nthr *= blk[d];
  for (int s = 0; s < nshared; s++, z++) {
    size_t n = 1;
    for (int d = 0; d < z->rank; d++) {
      int64_t b = z->k[d] < 0 ? 0 : z->k[d] >= D ? nthr : blk[z->k[d]];
      int64_t v = z->mul[d] * b + z->add[d];
      if (v < 0 || v > (1 << 24)) return OQ_SHARED_MAX;
      n *= (size_t)v;
      if (n > OQ_SHARED_MAX) return OQ_SHARED_MAX;
    }
    total += (n * z->esz + 15) & ~(size_t)15;
  }
  return total < OQ_SHARED_MAX ? total : OQ_SHARED_MAX;
}

/* A generic argument that is a whole number (an int, or a scalar from a loop over a vector):
   its value is part of the key, so that code may use it as a constant (spec_const). */
static bool generic_int(const Capture *c, int64_t *v) {
  if (c->frame || !(c->value.kind == V_INT || (c->value.kind == V_SCALAR && c->value.s == floor(c->value.s) &&
                                               fabs(c->value.s) < 2147483648.0)))
    return false;
  *v = c->value.kind == V_INT ? c->value.i : (int64_t)c->value.s;
  return true;
}

/* Argument i (parameters, then captures) of a launch. */
static Value launch_arg(KSpec *S, Value *args, int i) {
  return i < S->kfunc->nparams ? args[i] : S->caps[i - S->kfunc->nparams].value;
}

unsigned ksema_aliased(KSpec *S, Value *args) {
  int n = S->kfunc->nparams + S->ncaps;
  unsigned bits = 0;
  for (int i = 0; i < n && i < 32; i++)
    for (int j = 0; j < i; j++) {
      Value a = launch_arg(S, args, i), b = launch_arg(S, args, j);
      if (a.kind == V_ARRAY && b.kind == V_ARRAY && a.arr == b.arr) bits |= 1u << i | 1u << j;
    }
  return bits;
}

char *ksema_key(KSpec *S, Value *args) {
  char *refs = gather(S, args);
  size_t nrefs = strlen(refs);
  size_t each = 41 + (S->slices ? 3 * OQ_MAX_RANK : 0);
  char *key = malloc(64 + 4 * 21 + nrefs + 1 + each * (S->kfunc->nparams + S->ncaps)), *p = key;
  put_u(&p, (uintptr_t)S->kfunc, 16);
  *p++ = '|';
  put_i(&p, S->D);
  *p++ = '|';
  put_i(&p, rt_config.double_precision);
  *p++ = '|';
  for (int i = 0; i < S->kfunc->nparams; i++) {
    value_desc(S, &p, args[i]);
    *p++ = ',';
    S->idx32 &= args[i].kind != V_ARRAY || args[i].arr->numel < INT32_MAX;
    if (i < 32 && launch_shaped(S, args[i])) S->at_launch |= 1u << i;
  }
  *p++ = '|';
  for (int i = 0; i < S->ncaps; i++) {
    value_desc(S, &p, S->caps[i].value);
    int64_t g;
    if (generic_int(&S->caps[i], &g)) put_i(&p, g);
    *p++ = ',';
    S->idx32 &= S->caps[i].value.kind != V_ARRAY || S->caps[i].value.arr->numel < INT32_MAX;
    int a = S->kfunc->nparams + i;
    if (a < 32 && launch_shaped(S, S->caps[i].value)) S->at_launch |= 1u << a;
  }
  *p++ = '|';
  if (S->idx32) *p++ = 'w';   /* 32-bit indices */
  if (S->at_launch) put_u(&p, S->at_launch, 16);
  S->aliased = ksema_aliased(S, args);
  if (S->aliased) {
    *p++ = 'A';
    put_u(&p, S->aliased, 16);
  }
  for (int d = 0; d < S->D && d < 3 && S->cblk[0]; d++) {
    put_i(&p, S->cblk[d]);
    *p++ = S->one_block >> d & 1 ? '!' : ',';
  }
  *p++ = '|';
  memcpy(p, refs, nrefs + 1);
  free(refs);
  return key;
}

/* ---- function references ---- */

static FnRef *fnref(KSpec *S, Func *f, Frame *env, int nvirt, FSpec *vparent, Value *gargs, int ng) {
  for (FnRef *r = S->refs; r; r = r->next)
    if (r->func == f && r->env == env && r->nvirtual == nvirt && r->vparent == vparent &&
        r->generic_args == gargs)
      return r;
  FnRef *r = arena_alloc(S->arena, sizeof *r);
  *r = (FnRef){f, env, nvirt, vparent, gargs, ng, S->refs};
  S->refs = r;
  return r;
}

/* The compile-time type of a run-time value (argument, capture). */
static KType value_ktype(KSpec *S, Value v, bool *ok) {
  *ok = true;
  switch (v.kind) {
  case V_BOOL: return kt(K_BOOL);
  case V_INT: return kt(K_INT);
  case V_SCALAR: return kt(K_REAL);
  case V_CSCALAR: return kt(K_CPLX);
  case V_ARRAY: {
    KType t = kt_arr(v.arr->elem, v.arr->rank);
    if (v.arr->rank == 1 && v.arr->numel >= 1 && v.arr->numel <= K_MAX_VEC && !el_is_complex(v.arr->elem))
      t.fixlen = (int)v.arr->numel;
    if (S->slices) {   /* the lengths of x[i, :] */
      int64_t *cd = arena_alloc(S->arena, OQ_MAX_RANK * sizeof *cd);
      for (int d = 0; d < v.arr->rank; d++) cd[d] = small_dim(v.arr, d);
      t.cdims = cd;
    }
    return t;
  }
  case V_FUNC:
    if (v.fn->kind == CALL_USER) {
      KType t = kt(K_FUNC);
      t.fn = fnref(S, v.fn->func, v.fn->env, 0, NULL, v.fn->generic_args, v.fn->ngeneric_args);
      return t;
    }
    break;
  default: break;
  }
  *ok = false;
  return kt(K_NONE);
}

/* ---- analysis ---- */

typedef struct Sx {
  KSpec *S;
  FSpec *f;
  bool strict;       /* last pass: unknown values are errors */
} Sx;

static KType ex(Sx *C, Node *n);
static void st_block(Sx *C, NodeList *l);
static FSpec *spec_device(Sx *C, FnRef *r, KType *args, int nargs, SrcLoc loc);

static NodeInfo *note(Sx *C, Node *n, KType t) {
  NodeInfo *ni = info_put(C->f, n);
  ni->t = t;
  return ni;
}

static const char *fname(Func *f) { return func_shown_name(f); }

/* An unknown operand (a variable first assigned later in a loop): the result is unknown
   too, until a later pass knows it. */
static bool unknown(Sx *C, KType t, Node *n) {
  if (t.kind != K_NONE) return false;
  if (C->strict) ksema_fail(C->S, n->loc, "'%s' has no value here", n->kind == N_IDENT ? n->name : "expression");
  C->f->changed = true;
  return true;
}

static int add_site(KSpec *S, KErrKind kind, SrcLoc loc, const char *array, const char *text) {
  for (int i = 0; i < S->nsites; i++)
    if (S->sites[i].kind == kind && S->sites[i].loc.file == loc.file &&
        S->sites[i].loc.line == loc.line && S->sites[i].loc.col == loc.col)
      return i;
  if (S->nsites == S->sitecap) {
    S->sitecap = S->sitecap ? 2 * S->sitecap : 8;
    S->sites = realloc(S->sites, S->sitecap * sizeof *S->sites);
  }
  S->sites[S->nsites] = (KSite){kind, loc, array, text};
  return S->nsites++;
}

/* Assigns t to slot: widens the slot's type. */
static void slot_assign(Sx *C, int slot, KType t, Node *at) {
  FSpec *f = C->f;
  KType old = f->slots[slot], j;
  if (t.kind == K_NONE) return;
  if (t.kind == K_TUPLE) ksema_fail(C->S, at->loc, "a function with several outputs used as one value");
  if (!kjoin(old, t, &j)) {
    char a[48], b[48];
    ksema_fail(C->S, at->loc, "'%s' holds a %s and a %s", func_info(f->func)->slot_names[slot],
          ktype_str(old, a, sizeof a), ktype_str(t, b, sizeof b));
  }
  if (old.kind != K_NONE && kclass(t) < kclass(j) && is_real_num(j)) f->slot_mixed[slot] = 1;
  if (old.kind != K_NONE && kclass(old) < kclass(j) && is_real_num(j)) f->slot_mixed[slot] = 1;
  if (!ktype_eq(old, j)) {
    f->slots[slot] = j;
    f->changed = true;
  }
}

/* The value of a constant integer expression (literals, + - *, unary minus). */
static bool const_int(Node *n, int64_t *v) {
  int64_t a, b;
  switch (n->kind) {
  case N_INT: *v = n->ival; return true;
  case N_UNARY:
    if (n->op == OP_NEG && const_int(n->a, &a)) { *v = -a; return true; }
    if (n->op == OP_PLUS) return const_int(n->a, v);
    return false;
  case N_BINARY:
    if (!const_int(n->a, &a) || !const_int(n->b, &b)) return false;
    switch (n->op) {
    case OP_ADD: *v = a + b; return true;
    case OP_SUB: *v = a - b; return true;
    case OP_MUL: case OP_EMUL: *v = a * b; return true;
    default: return false;
    }
  default: return false;
  }
}

/* Number of elements of a range with constant bounds, or -1. */
static int64_t const_range_len(Node *r) {
  int64_t a, s = 1, c;
  if (!const_int(r->a, &a) || !const_int(r->c, &c)) return -1;
  if (r->b && !const_int(r->b, &s)) return -1;
  if (s == 0) return -1;
  int64_t span = c - a;
  return (s > 0 ? span >= 0 : span <= 0) ? span / s + 1 : 0;
}

/* ---- identifiers ---- */

static const Global *ident_global(Node *n) { return n->slot < 0 ? n->aux : NULL; }

static KType ex_ident(Sx *C, Node *n) {
  FSpec *f = C->f;
  KSpec *S = C->S;
  NodeInfo *ni;
  if (n->slot < 0) {
    const Global *g = ident_global(n);
    if (!g) ksema_fail(S, n->loc, "unknown name '%s'", n->name);
    switch (g->value.kind) {
    case V_SCALAR: return note(C, n, kt(K_REAL))->t;
    case V_BOOL: return note(C, n, kt(K_BOOL))->t;
    case V_INT: return note(C, n, kt(K_INT))->t;
    default: ksema_fail(S, n->loc, "'%s' cannot be used as a value in compiled kernels", n->name);
    }
  }
  if (n->depth == 0) {
    if (f->is_kernel && n->slot < f->func->ngenerics) {
      int k = capture_find(S, NULL, n->slot);
      bool ok;
      KType t = value_ktype(S, S->caps[k].value, &ok);
      if (!ok) ksema_fail(S, n->loc, "generic argument '%s' is not supported", n->name);
      S->caps[k].type = t;   /* what the kernel's start loads (emit_kernel.c) */
      ni = note(C, n, t);
      ni->cap = k;
      return t;
    }
    if (n->slot < f->func->ngenerics) ksema_fail(S, n->loc, "generic device functions are not supported");
    return note(C, n, f->slots[n->slot])->t;
  }
  FnRef *r = f->ref;
  if (n->depth <= r->nvirtual) {
    FSpec *p = r->vparent;
    for (int d = 1; d < n->depth; d++) p = p->ref->vparent;
    KType t = p->slots[n->slot];
    if (t.kind == K_NONE && !C->strict) { C->f->changed = true; return note(C, n, t)->t; }
    if (t.kind != K_FUNC)
      ksema_fail(S, n->loc, "nested function '%s' reads '%s' of its enclosing kernel function", fname(f->func), n->name);
    return note(C, n, t)->t;
  }
  Frame *fr = frame_up(r->env, n->depth - r->nvirtual - 1);
  int k = fr ? capture_find(S, fr, n->slot) : -1;
  if (k < 0) ksema_fail(S, n->loc, "captured variable '%s' was not found", n->name);
  Capture *c = &S->caps[k];
  bool ok;
  KType t = value_ktype(S, c->value, &ok);
  if (!ok) ksema_fail(S, n->loc, "captured variable '%s' is a %s", n->name, rt_kind_name(c->value));
  c->type = t;
  ni = note(C, n, t);
  ni->cap = k;
  return t;
}

/* ---- operators ---- */

/* A small array (known length) where a vector is wanted: read into one. */
static KType vecish(Sx *C, Node *n, KType t) {
  if (t.kind != K_ARRAY || !t.fixlen) return t;
  KType v = kt_vec(el_is_integer(t.el) ? K_INT : K_REAL, t.fixlen);
  NodeInfo *ni = note(C, n, v);
  ni->as_vec = true;
  return v;
}

static bool is_cmp(Op op) { return op >= OP_EQ && op <= OP_GE; }

/* Result type of a op b (numbers and small vectors), as rt_binary gives it. */
static KType binary_type(Sx *C, Op op, KType a, KType b, Node *at) {
  KSpec *S = C->S;
  if (op == OP_AND || op == OP_OR) return kt(K_BOOL);
  bool va = a.kind == K_VEC, vb = b.kind == K_VEC;
  if ((!is_num(a) && !va) || (!is_num(b) && !vb)) {
    char x[48], y[48];
    ksema_fail(S, at->loc, "operator '%s' on %s and %s is not supported in compiled kernels", op_name(op),
          ktype_str(a, x, sizeof x), ktype_str(b, y, sizeof y));
  }
  KKind ca = kclass(a), cb = kclass(b), c = kmax(ca, cb);
  if (c == K_CPLX && (va || vb)) ksema_fail(S, at->loc, "complex vectors are not supported in compiled kernels");
  if (c == K_CPLX) {
    bool ordered = op == OP_LT || op == OP_LE || op == OP_GT || op == OP_GE;
    if (ordered || op == OP_MOD || op == OP_MAX || op == OP_MIN || op == OP_BAND || op == OP_BOR || op == OP_BXOR)
      ksema_type_error(S, at->loc, "operator '%s' on complex numbers", op_name(op));
  }
  if (va && vb && a.len != b.len) ksema_type_error(S, at->loc, "vectors of lengths %d and %d do not combine", a.len, b.len);
  if (va && vb && op == OP_MUL) return kt(c);   /* inner product */
  if (va && vb && (op == OP_DIV || op == OP_POW))
    ksema_type_error(S, at->loc, "'%s' between vectors", op_name(op));
  KKind r;
  if (is_cmp(op)) r = va || vb ? K_INT : K_BOOL;
  else if (op == OP_BAND || op == OP_BOR || op == OP_BXOR) r = K_INT;
  else if ((op == OP_DIV || op == OP_EDIV || op == OP_POW || op == OP_EPOW) && c == K_INT) r = K_REAL;
  else r = c;
  if (va || vb) return kt_vec(r, va ? a.len : b.len);
  return kt(r);
}

static KType ex_binary(Sx *C, Node *n) {
  KType a = ex(C, n->a), b = ex(C, n->b);
  if (n->op != OP_AND && n->op != OP_OR) {
    a = vecish(C, n->a, a);
    b = vecish(C, n->b, b);
  }
  if (unknown(C, a, n->a) || unknown(C, b, n->b)) return note(C, n, kt(K_NONE))->t;
  if (n->op == OP_AND || n->op == OP_OR) {
    if (a.kind == K_ARRAY || b.kind == K_ARRAY) ksema_fail(C->S, n->loc, "an array as a condition");
    return note(C, n, kt(K_BOOL))->t;
  }
  return note(C, n, binary_type(C, n->op, a, b, n))->t;
}

static KType ex_unary(Sx *C, Node *n) {
  KType a = vecish(C, n->a, ex(C, n->a));
  if (unknown(C, a, n->a)) return note(C, n, a)->t;
  if (n->op == OP_NOT) {
    if (a.kind == K_ARRAY) ksema_fail(C->S, n->loc, "an array as a condition");
    return note(C, n, kt(K_BOOL))->t;
  }
  if (!is_num(a) && a.kind != K_VEC) ksema_fail(C->S, n->loc, "unary '%s' on this value", op_name(n->op));
  if (a.kind == K_BOOL) a = kt(K_INT);
  return note(C, n, a)->t;
}

/* ---- vectors and ranges ---- */

static KType ex_range_value(Sx *C, Node *n) {
  int64_t len = const_range_len(n);
  KType a = ex(C, n->a), c = ex(C, n->c), s = n->b ? ex(C, n->b) : kt(K_INT);
  if (len < 0 || len > K_MAX_VEC)
    ksema_fail(C->S, n->loc, "a range of variable or large length as a value");
  if (len == 0) ksema_fail(C->S, n->loc, "an empty range as a value");
  (void)a; (void)c; (void)s;
  return note(C, n, kt_vec(K_REAL, (int)len))->t;   /* a range as a value is a vec of scalars */
}

static KType ex_matrix(Sx *C, Node *n) {
  int len = 0;
  KKind e = K_INT;
  bool any_vec = false, all_vec = n->list.n > 0;
  for (int i = 0; i < n->list.n; i++) {
    KType t = vecish(C, n->list.items[i], ex(C, n->list.items[i]));
    if (unknown(C, t, n->list.items[i])) return note(C, n, kt(K_NONE))->t;
    if (t.kind == K_VEC) { any_vec = true; len += t.len; e = kmax(e, t.elem); continue; }
    all_vec = false;
    if (!is_num(t)) ksema_fail(C->S, n->loc, "a %s inside a vector literal", t.kind == K_ARRAY ? "array" : "value");
    if (kclass(t) == K_CPLX) ksema_fail(C->S, n->loc, "complex vectors are not supported in compiled kernels");
    e = K_REAL;   /* numbers in a literal make a vec of scalars */
    len++;
  }
  if (any_vec && all_vec) ksema_fail(C->S, n->loc, "a matrix literal in a kernel");
  if (len == 0) ksema_fail(C->S, n->loc, "an empty vector in a kernel");
  if (len > K_MAX_VEC) ksema_fail(C->S, n->loc, "a vector of %d elements in a kernel", len);
  return note(C, n, kt_vec(e, len))->t;
}

/* ---- indexing ---- */

/* How one index of an index list reads: a number, or a vector of known length; `colon` is
   the length a ':' has there (-1: not known when the kernel is specialized). */
static KType index_kind(Sx *C, Node *e, int64_t colon, int *len) {
  *len = 0;
  if (e->kind == N_COLON) {
    if (colon < 0) ksema_fail(C->S, e->loc, "':' slices longer than %d elements or of a run-time length", K_MAX_VEC);
    if (colon == 0 || colon > K_MAX_VEC) ksema_fail(C->S, e->loc, "a ':' slice of %lld elements in a kernel", (long long)colon);
    *len = (int)colon;
    return note(C, e, kt_vec(K_INT, *len))->t;   /* 0, 1, ..., colon - 1 */
  }
  if (e->kind == N_RANGE) {
    KType t = ex_range_value(C, e);
    *len = t.len;
    return t;
  }
  KType t = ex(C, e);
  if (t.kind == K_VEC) { *len = t.len; return t; }
  if (t.kind == K_NONE) return t;
  if (!is_real_num(t)) ksema_fail(C->S, e->loc, "cannot index with a %s", t.kind == K_CPLX ? "complex number" : "value of this type");
  return t;
}

/* The length of ':' as index i of nidx on an array of type a: dimension i, or for the last
   index the dimensions from i on (rt_index.c); -1 when one is not known. */
static int64_t colon_len(KType a, int i, int nidx) {
  int64_t len = 1;
  for (int d = i; d < (i == nidx - 1 ? a.rank : i + 1); d++) {
    if (!a.cdims || a.cdims[d] < 0) return -1;
    len *= a.cdims[d];
  }
  return len;
}

/* Type of x[...] for an array x of type a. */
static KType index_type(Sx *C, Node *n, KType a, bool *unk) {
  KSpec *S = C->S;
  int nvec = 0, vlen = 0;
  *unk = false;
  if (n->list.n == 0) ksema_fail(S, n->loc, "x[] in a kernel");
  for (int i = 0; i < n->list.n; i++) {
    int len;
    KType t = index_kind(C, n->list.items[i], colon_len(a, i, n->list.n), &len);
    if (t.kind == K_NONE) { *unk = !C->strict; if (C->strict) unknown(C, t, n->list.items[i]); C->f->changed = true; return t; }
    if (len) { nvec++; vlen = len; }
  }
  KType e = elem_ktype(a.el);
  if (n->list.n == 1 && nvec == 1 && a.rank >= 2 && n->list.items[0]->kind != N_COLON) return e;   /* position */
  if (nvec == 0) return e;
  if (nvec > 1) ksema_fail(S, n->loc, "indexing with several vectors gives a matrix");
  if (e.kind == K_CPLX) ksema_fail(S, n->loc, "complex vectors are not supported in compiled kernels");
  return kt_vec(e.kind, vlen);
}

static KType ex_index(Sx *C, Node *n) {
  KType b = ex(C, n->a);
  if (unknown(C, b, n->a)) return note(C, n, b)->t;
  if (b.kind == K_VEC) {
    if (n->list.n != 1) ksema_fail(C->S, n->loc, "a vector indexed with %d indices", n->list.n);
    int len;
    KType t = index_kind(C, n->list.items[0], b.len, &len);
    if (unknown(C, t, n->list.items[0])) return note(C, n, t)->t;
    if (len) return note(C, n, kt_vec(b.elem, len))->t;
    return note(C, n, kt(b.elem))->t;
  }
  if (b.kind != K_ARRAY) ksema_fail(C->S, n->loc, "indexing a value that is not an array");
  if (n->a->kind == N_IDENT && ((unsigned)n->a->ival & TM_HWTEX_LINEAR) && (el_is_integer(b.el) || el_is_complex(b.el)))
    ksema_fail(C->S, n->loc, "'hwtex_linear on an array of %s (a run-time error)", el_name(b.el));
  bool unk;
  KType t = index_type(C, n, b, &unk);
  /* the emitters interpolate single elements only */
  if (!unk && t.kind == K_VEC && n->a->kind == N_IDENT && ((unsigned)n->a->ival & (TM_HWTEX_LINEAR | TM_HWTEX_NEAREST)))
    ksema_fail(C->S, n->loc, "a texture read of a slice (run in the interpreter: an error at non-integer coordinates)");
  return note(C, n, t)->t;
}

/* ---- calls ---- */

static const struct { const char *name; int id, min, max; } builtin_tab[] = {
  {"abs", KB_ABS, 1, 1}, {"sqrt", KB_SQRT, 1, 1}, {"exp", KB_EXP, 1, 1}, {"log", KB_LOG, 1, 1},
  {"log2", KB_LOG2, 1, 1}, {"log10", KB_LOG10, 1, 1}, {"sin", KB_SIN, 1, 1}, {"cos", KB_COS, 1, 1},
  {"tan", KB_TAN, 1, 1}, {"asin", KB_ASIN, 1, 1}, {"acos", KB_ACOS, 1, 1}, {"atan", KB_ATAN, 1, 1},
  {"sinh", KB_SINH, 1, 1}, {"cosh", KB_COSH, 1, 1}, {"tanh", KB_TANH, 1, 1},
  {"floor", KB_FLOOR, 1, 1}, {"ceil", KB_CEIL, 1, 1}, {"round", KB_ROUND, 1, 1},
  {"frac", KB_FRAC, 1, 1}, {"sign", KB_SIGN, 1, 1}, {"float", KB_FLOAT, 1, 1}, {"int", KB_INT, 1, 1},
  {"real", KB_REAL, 1, 1}, {"imag", KB_IMAG, 1, 1}, {"conj", KB_CONJ, 1, 1}, {"angle", KB_ANGLE, 1, 1},
  {"atan2", KB_ATAN2, 2, 2}, {"complex", KB_COMPLEX, 1, 2}, {"mod", KB_MOD, 2, 2},
  {"and", KB_AND, 2, 2}, {"or", KB_OR, 2, 2}, {"xor", KB_XOR, 2, 2}, {"not", KB_NOT, 1, 1},
  {"shl", KB_SHL, 2, 2}, {"shr", KB_SHR, 2, 2}, {"min", KB_MIN, 1, 2}, {"max", KB_MAX, 1, 2},
  {"clamp", KB_CLAMP, 3, 3}, {"sum", KB_SUM, 1, 1}, {"prod", KB_PROD, 1, 1}, {"mean", KB_MEAN, 1, 1},
  {"numel", KB_NUMEL, 1, 1}, {"size", KB_SIZE, 1, 2}, {"ndims", KB_NDIMS, 1, 1},
  {"pos2ind", KB_POS2IND, 2, 2}, {"ind2pos", KB_IND2POS, 2, 2}, {"isnan", KB_ISNAN, 1, 1},
  {"isinf", KB_ISINF, 1, 1}, {"isfinite", KB_ISFINITE, 1, 1}, {"shared", KB_SHARED, 1, OQ_MAX_RANK},
  {"shared_zeros", KB_SHARED, 1, OQ_MAX_RANK}, {"assert", KB_ASSERT, 1, 1},
  {"pow", KB_POW, 2, 2}, {"dotprod", KB_DOTPROD, 2, 2},
};

static int builtin_id(const char *name, int *min, int *max) {
  for (size_t i = 0; i < sizeof builtin_tab / sizeof *builtin_tab; i++)
    if (!strcmp(builtin_tab[i].name, name)) {
      *min = builtin_tab[i].min;
      *max = builtin_tab[i].max;
      return builtin_tab[i].id;
    }
  return KB_NONE;
}

bool ksema_device_builtin(const char *name) {
  int min, max;
  return builtin_id(name, &min, &max) != KB_NONE;
}

/* Element-wise functions of one argument: the result class for an argument class. */
static KKind map1_class(Sx *C, int id, KKind c, Node *at) {
  switch (id) {
  case KB_ABS: return c == K_CPLX ? K_REAL : c;
  case KB_SQRT: case KB_EXP: case KB_LOG: case KB_SIN: case KB_COS: case KB_TAN:
  case KB_SINH: case KB_COSH: case KB_TANH:
    return c == K_CPLX ? K_CPLX : K_REAL;
  case KB_LOG2: case KB_LOG10: case KB_ASIN: case KB_ACOS: case KB_ATAN: case KB_FLOAT:
    if (c == K_CPLX) break;
    return K_REAL;
  case KB_FLOOR: case KB_CEIL: case KB_ROUND: case KB_FRAC: case KB_SIGN:
    if (c == K_CPLX) break;
    return c;
  case KB_INT: case KB_NOT:
    if (c == K_CPLX) break;
    return K_INT;
  case KB_REAL: case KB_IMAG: return c == K_CPLX ? K_REAL : c;
  case KB_CONJ: return c;
  case KB_ANGLE: return K_REAL;
  case KB_ISNAN: case KB_ISINF: case KB_ISFINITE: return K_BOOL;
  default: break;
  }
  ksema_type_error(C->S, at->loc, "this function of a complex number");
}

static KType ex_shared(Sx *C, Node *n, KType *args) {
  KSpec *S = C->S;
  if (!C->f->is_kernel) ksema_fail(S, n->loc, "shared memory allocated in a device function");
  int rank = 0;
  for (int i = 0; i < n->list.n; i++) {
    if (args[i].kind == K_VEC) { if (args[i].elem != K_INT) ksema_fail(S, n->loc, "shared memory size is not an int vector"); rank += args[i].len; }
    else if (is_real_num(args[i])) rank++;
    else ksema_fail(S, n->loc, "shared memory size of this type");
  }
  if (rank > OQ_MAX_RANK) ksema_fail(S, n->loc, "shared memory of rank %d", rank);
  KType t = kt_arr(el_scalar(), rank);
  t.shared = true;
  /* literal sizes: the array's dimensions are constants of the generated code */
  int64_t *cd = arena_alloc(S->arena, OQ_MAX_RANK * sizeof *cd);
  bool known = true;
  for (int i = 0; i < n->list.n && known; i++)
    known = args[i].kind != K_VEC && const_int(n->list.items[i], &cd[i]) && cd[i] >= 0 && cd[i] <= (1 << 24);
  if (known) t.cdims = cd;
  return t;
}

static KType ex_builtin(Sx *C, Node *n, int id, KType *a, int argc) {
  KSpec *S = C->S;
  switch (id) {
  case KB_SHARED: return ex_shared(C, n, a);
  case KB_ASSERT:
    if (!is_num(a[0]) && a[0].kind != K_VEC) ksema_fail(S, n->loc, "assert of this value");
    return kt(K_NONE);
  case KB_NUMEL: case KB_NDIMS:
    if (a[0].kind == K_FUNC || a[0].kind == K_TUPLE) ksema_fail(S, n->loc, "numel of a function");
    return kt(K_INT);
  case KB_SIZE:
    if (a[0].kind == K_FUNC || a[0].kind == K_TUPLE) ksema_fail(S, n->loc, "size of a function");
    if (argc == 1) {
      int r = a[0].kind == K_ARRAY ? a[0].rank : a[0].kind == K_VEC ? 1 : 2;
      return kt_vec(K_INT, r);
    }
    if (a[1].kind == K_VEC) return kt_vec(K_INT, a[1].len);
    if (!is_real_num(a[1])) ksema_fail(S, n->loc, "size with this dimension");
    return kt(K_INT);
  case KB_POS2IND:
    for (int i = 0; i < 2; i++)
      if (!(a[i].kind == K_VEC || is_real_num(a[i]))) ksema_fail(S, n->loc, "pos2ind of this value");
    return kt(K_INT);
  case KB_IND2POS:
    if (a[0].kind != K_VEC && !is_real_num(a[0])) ksema_fail(S, n->loc, "ind2pos of this size");
    if (!is_real_num(a[1])) ksema_fail(S, n->loc, "ind2pos of this index");
    return kt_vec(K_INT, a[0].kind == K_VEC ? a[0].len : 1);
  case KB_SUM: case KB_PROD: case KB_MEAN:
    if (a[0].kind == K_VEC) return kt(id == KB_MEAN ? K_REAL : a[0].elem);
    if (!is_num(a[0])) ksema_fail(S, n->loc, "%s of an array in a kernel", id == KB_SUM ? "sum" : id == KB_PROD ? "prod" : "mean");
    if (id == KB_MEAN && kclass(a[0]) == K_INT) return kt(K_REAL);
    return a[0].kind == K_BOOL ? kt(K_BOOL) : a[0];
  case KB_MIN: case KB_MAX:
    if (argc == 1) {
      if (a[0].kind == K_VEC) return kt(a[0].elem);
      if (!is_real_num(a[0])) ksema_fail(S, n->loc, "min/max of this value");
      return a[0];
    }
    return binary_type(C, id == KB_MIN ? OP_MIN : OP_MAX, a[0], a[1], n);
  case KB_CLAMP: {
    KType lo = binary_type(C, OP_MAX, a[0], a[1], n);
    return binary_type(C, OP_MIN, lo, a[2], n);
  }
  case KB_MOD: return binary_type(C, OP_MOD, a[0], a[1], n);
  case KB_POW: return binary_type(C, OP_EPOW, a[0], a[1], n);   /* a .^ b */
  case KB_DOTPROD:   /* two numbers, or two vectors of one length: the inner product */
    if (!(is_num(a[0]) && is_num(a[1])) && !(a[0].kind == K_VEC && a[1].kind == K_VEC))
      ksema_fail(S, n->loc, "dotprod of this value in a kernel");
    return binary_type(C, OP_MUL, a[0], a[1], n);
  case KB_AND: case KB_OR: case KB_XOR: case KB_SHL: case KB_SHR:
    if (kclass(a[0]) == K_CPLX || kclass(a[1]) == K_CPLX || !(is_num(a[0]) || a[0].kind == K_VEC) ||
        !(is_num(a[1]) || a[1].kind == K_VEC))
      ksema_fail(S, n->loc, "bit operation on this value");
    return binary_type(C, OP_BAND, a[0], a[1], n);
  case KB_ATAN2:
    if (!is_real_num(a[0]) || !is_real_num(a[1])) ksema_fail(S, n->loc, "atan2 of this value");
    return kt(K_REAL);
  case KB_COMPLEX:
    if (!is_real_num(a[0]) || (argc > 1 && !is_real_num(a[1]))) ksema_fail(S, n->loc, "complex of this value");
    return kt(K_CPLX);
  default:
    if (a[0].kind == K_VEC) {
      KKind c = map1_class(C, id, a[0].elem, n);
      return kt_vec(c == K_BOOL ? K_INT : c, a[0].len);
    }
    if (!is_num(a[0])) ksema_fail(S, n->loc, "this function of a non-number in a kernel");
    return kt(map1_class(C, id, kclass(a[0]), n));
  }
}

/* The source text of an expression (for assertion messages): up to the ',' or ')' that ends
   it on its line. */
static const char *source_text(KSpec *S, Node *call) {
  char buf[256];
  diag_call_arg_text(call->loc, buf, sizeof buf);
  return arena_strdup(S->arena, buf);
}

static bool is_ident(Node *n, const char *name) { return n->kind == N_IDENT && !strcmp(n->name, name); }

static KType convert_to_decl(Sx *C, KType v, const Type *t, Node *at);

/* An int known when the kernel is specialized: a literal, or a generic argument (its value
   is in the key: ksema_key). */
static bool spec_const(Sx *C, Node *n, int64_t *v) {
  if (const_int(n, v)) return true;
  Func *f = C->f->func;
  if (n->kind != N_IDENT || n->depth || !C->f->is_kernel || n->slot < 0 || n->slot >= f->ngenerics) return false;
  return generic_int(&C->S->caps[capture_find(C->S, NULL, n->slot)], v);
}

/* zeros(n) of a length known at specialization (seed 001's x_warp = zeros(N) with N a
   generic argument): a vector in registers. Not a device built-in for the parallel-loop
   transform: a host loop's zeros(n) keeps it serial. */
static KType ex_zeros(Sx *C, Node *n) {
  int64_t len;
  for (int i = 0; i < n->list.n; i++) ex(C, n->list.items[i]);   /* (the emitter evaluates them) */
  if (n->list.n != 1 || !spec_const(C, n->list.items[0], &len) || len < 1 || len > K_MAX_VEC)
    ksema_fail(C->S, n->loc, "zeros in a kernel other than a vector of a constant length up to %d", K_MAX_VEC);
  NodeInfo *ni = note(C, n, kt_vec(K_REAL, (int)len));
  ni->builtin = KB_ZEROS;
  return ni->t;
}

/* A warp collective's value operand: an int, a scalar or a vector (a shuffle moves each
   component); a vote's predicate: a real number. */
static KType collective_operand(Sx *C, Node *n, GroupOp op) {
  Node *a = n->list.items[0];
  KType v = ex(C, a);
  if (unknown(C, v, a)) return v;
  v = vecish(C, a, v);
  bool shfl = op <= G_SHFL_XOR;
  if (!is_real_num(v) && !(shfl && v.kind == K_VEC))
    ksema_fail(C->S, n->loc, "%s of this value in compiled kernels", group_op_name(op));
  if (shfl) {
    KType d = ex(C, n->list.items[1]);
    if (unknown(C, d, n->list.items[1])) return kt(K_NONE);
    if (d.kind != K_INT && d.kind != K_BOOL) ksema_fail(C->S, n->loc, "%s with a lane argument that is not an int", group_op_name(op));
  }
  if (op == G_ALL || op == G_ANY) return kt(K_BOOL);
  return op == G_BALLOT || v.kind == K_BOOL ? kt(K_INT) : v;
}

/* g.thread_idx, g.size, g.shfl(v, d), ... (resolution checked g and the arguments). g's
   value is the thread's linear index in its block (emit_kernel.c); the fields are arithmetic
   on it, the collectives (S->coop) are compiled for CUDA only. */
static KType ex_group(Sx *C, Node *n) {
  KSpec *S = C->S;
  bool warp;
  GroupOp op = group_op(n, &warp);
  Node *fld = n->kind == N_CALL ? n->a : n;
  if (!op) ksema_fail(S, n->loc, "field access '.%s' in compiled kernels", fld->name);
  ex(C, fld->a);
  if (op == G_THREAD_IDX || op == G_SIZE) return note(C, n, kt(K_INT))->t;
  S->coop = true;
  return note(C, n, op == G_SYNC ? kt(K_NONE) : collective_operand(C, n, op))->t;
}

static KType ex_call(Sx *C, Node *n) {
  KSpec *S = C->S;
  Node *callee = n->a;
  int argc = n->list.n;
  if (callee->kind == N_FIELD) return ex_group(C, n);
  if (is_ident(callee, "zeros") && callee->slot < 0) return ex_zeros(C, n);
  if (barrier_kind(n)) ksema_fail(S, n->loc, "syncthreads used as a value");
  if (callee->kind == N_IDENT && callee->slot < 0) {
    const Global *g = ident_global(callee);
    if (!g || g->value.kind != V_FUNC) ksema_fail(S, n->loc, "'%s' cannot be called in compiled kernels", callee->name);
    int min, max, id = builtin_id(callee->name, &min, &max);
    if (!id) ksema_fail(S, n->loc, "built-in '%s' is not supported in compiled kernels", callee->name);
    if (argc < min || argc > max) ksema_fail(S, n->loc, "'%s' with %d arguments in a kernel", callee->name, argc);
    if (id == KB_ASSERT) {
      /* the message needs the condition's text */
      NodeInfo *ni = info_put(C->f, n);
      ni->site = add_site(S, KE_ASSERT, n->loc, NULL, source_text(S, n));
    }
    KType a[OQ_MAX_RANK + 2];
    for (int i = 0; i < argc; i++) {
      a[i] = ex(C, n->list.items[i]);
      if (unknown(C, a[i], n->list.items[i])) return note(C, n, kt(K_NONE))->t;
      if (id != KB_SIZE && id != KB_NUMEL && id != KB_NDIMS) a[i] = vecish(C, n->list.items[i], a[i]);
    }
    KType t = ex_builtin(C, n, id, a, argc);
    NodeInfo *ni = note(C, n, t);
    ni->builtin = id;
    return t;
  }
  KType ft = ex(C, callee);
  if (unknown(C, ft, callee)) return note(C, n, ft)->t;
  if (ft.kind != K_FUNC) ksema_fail(S, n->loc, "calling a value that is not a known function");
  Func *f = ft.fn->func;
  if (f->kind == FK_KERNEL) ksema_fail(S, n->loc, "calling a __kernel__ function");
  if (argc > f->nparams) ksema_type_error(S, n->loc, "too many arguments to '%s'", fname(f));
  if (argc < f->nparams) ksema_fail(S, n->loc, "default arguments of device functions are not supported yet");
  /* in the spec's arena (zeroed): a ksema_fail below (a rejected kernel) jumps past any free */
  KType *a = arena_alloc(S->arena, (f->nparams + 1) * sizeof *a);
  for (int i = 0; i < argc; i++) {
    a[i] = ex(C, n->list.items[i]);
    if (unknown(C, a[i], n->list.items[i])) return note(C, n, kt(K_NONE))->t;
    a[i] = convert_to_decl(C, a[i], f->params[i].type, n->list.items[i]);
  }
  FSpec *callee_spec = spec_device(C, ft.fn, a, f->nparams, n->loc);
  NodeInfo *ni = note(C, n, callee_spec->result);
  ni->callee = callee_spec;
  return ni->t;
}

/* ---- the value of a declared type ---- */

static KKind type_class(const Type *t) {
  switch (t->kind) {
  case TY_SCALAR: return K_REAL;
  case TY_CSCALAR: return K_CPLX;
  case TY_BOOL: return K_BOOL;
  case TY_INT: case TY_INT8: case TY_UINT8: case TY_INT16: case TY_UINT16: case TY_INT32:
  case TY_UINT32: case TY_INT64:
    return K_INT;
  default: return K_NONE;
  }
}

/* rt_convert at compile time: what a value of type v becomes when converted to t. */
static KType convert_to_decl(Sx *C, KType v, const Type *t, Node *at) {
  KSpec *S = C->S;
  if (v.kind == K_NONE) return v;
  switch (t->kind) {
  case TY_UNKNOWN: case TY_NAMED: case TY_CELL: case TY_THREAD_BLOCK: return v;
  case TY_SCALAR:
    if (!is_real_num(v)) ksema_fail(S, at->loc, "conversion to scalar of this value");
    return kt(K_REAL);
  case TY_CSCALAR:
    if (!is_num(v)) ksema_fail(S, at->loc, "conversion to cscalar of this value");
    return kt(K_CPLX);
  case TY_BOOL:
    if (!is_real_num(v)) ksema_fail(S, at->loc, "conversion to bool of this value");
    return kt(K_BOOL);
  case TY_INT: case TY_INT32:
    if (v.kind != K_INT && v.kind != K_BOOL)
      ksema_fail(S, at->loc, "conversion of a %s to int (checked at run time)", v.kind == K_REAL ? "scalar" : "value");
    return kt(K_INT);
  case TY_FUNC:
    if (v.kind != K_FUNC) ksema_type_error(S, at->loc, "a function parameter given a non-function");
    return v;
  case TY_ARRAY: {
    KKind ec = t->elem ? type_class(t->elem) : K_NONE;
    /* arrays convert element by element (reals to ints truncate, as arr_convert does) */
    if (t->fixed_len) {
      /* (an array's length is known at run time only) */
      if (v.kind == K_VEC && v.len != t->fixed_len)
        ksema_type_error(S, at->loc, "a %s given a vector of %d elements", t->name ? t->name : "vector", v.len);
      if (v.kind != K_VEC) ksema_fail(S, at->loc, "a %s given a value of another length", t->name ? t->name : "vector");
      return ec == K_REAL || ec == K_INT ? kt_vec(ec, v.len) : v;
    }
    if (v.kind == K_VEC) {
      if (ec == K_CPLX) ksema_fail(S, at->loc, "conversion to a complex vector");
      return ec == K_REAL || ec == K_INT ? kt_vec(ec, v.len) : v;
    }
    if (v.kind != K_ARRAY) ksema_fail(S, at->loc, "an array parameter given a non-array");
    if (t->rank > 0 && v.rank > t->rank) ksema_fail(S, at->loc, "an array of rank %d given to a %s", v.rank, t->name ? t->name : "array");
    if (t->elem && t->elem->kind != TY_UNKNOWN && t->elem->kind != TY_NAMED) {
      ElemType e = el_from_type(t->elem, at->loc);
      if (e != v.el) ksema_fail(S, at->loc, "an array converted to another element type (a copy)");
    }
    return v;
  }
  default:
    ksema_fail(S, at->loc, "a value of type '%s'", t->name ? t->name : "?");
  }
}

/* ---- expressions ---- */

static KType ex_exchange(Sx *C, Node *n) {
  Node *target = n->a;
  if (target->kind != N_INDEX) ksema_fail(C->S, n->loc, "'<-' needs an array element");
  KType b = ex(C, target->a);
  if (unknown(C, b, target->a)) return note(C, n, b)->t;
  if (b.kind != K_ARRAY) ksema_type_error(C->S, n->loc, "'<-' on a value that is not an array");
  bool unk;
  KType e = index_type(C, target, b, &unk);
  if (unk || unknown(C, e, target)) return note(C, n, kt(K_NONE))->t;
  note(C, target, e);
  if (e.kind != K_INT && e.kind != K_REAL) ksema_fail(C->S, n->loc, "'<-' on a slice or complex element");
  Node *vals[2] = {n->b, NULL};
  int nv = 1;
  if (n->b->kind == N_TUPLE) {
    if (n->b->list.n != 2) ksema_fail(C->S, n->loc, "compare-exchange takes (expected, new)");
    vals[0] = n->b->list.items[0];
    vals[1] = n->b->list.items[1];
    nv = 2;
  }
  for (int i = 0; i < nv; i++) {
    KType v = ex(C, vals[i]);
    if (unknown(C, v, vals[i])) return note(C, n, kt(K_NONE))->t;
    if (!is_real_num(v)) ksema_fail(C->S, n->loc, "'<-' with a value of this type");
  }
  return note(C, n, e)->t;
}

static void st_assign(Sx *C, Node *n);

static KType ex(Sx *C, Node *n) {
  KSpec *S = C->S;
  switch (n->kind) {
  case N_INT:
    if (n->ival > INT32_MAX || n->ival < INT32_MIN) ksema_fail(S, n->loc, "integer literal beyond 32 bits");
    return note(C, n, kt(K_INT))->t;
  case N_REAL: return note(C, n, kt(K_REAL))->t;
  case N_IMAG: return note(C, n, kt(K_CPLX))->t;
  case N_IDENT:
    if (barrier_kind(n)) ksema_fail(S, n->loc, "syncthreads used as a value");
    return ex_ident(C, n);
  case N_BINARY: return ex_binary(C, n);
  case N_UNARY: return ex_unary(C, n);
  case N_RANGE: return ex_range_value(C, n);
  case N_COND: {
    KType c = ex(C, n->a), a = ex(C, n->b), b = ex(C, n->c), j;
    if (unknown(C, c, n->a)) return note(C, n, c)->t;
    if (c.kind == K_ARRAY) ksema_fail(S, n->loc, "an array as a condition");
    if (a.kind == K_NONE || b.kind == K_NONE) {
      if (C->strict) unknown(C, kt(K_NONE), a.kind == K_NONE ? n->b : n->c);
      C->f->changed = true;
      return note(C, n, a.kind == K_NONE ? b : a)->t;
    }
    if (!kjoin(a, b, &j) || (j.kind != K_VEC && !is_num(j)))
      ksema_fail(S, n->loc, "the branches of '?:' have different types");
    if (j.kind == K_BOOL && (a.kind != K_BOOL || b.kind != K_BOOL)) j = kt(K_INT);
    return note(C, n, j)->t;
  }
  case N_CALL: return ex_call(C, n);
  case N_FIELD: return ex_group(C, n);
  case N_INDEX: return ex_index(C, n);
  case N_MATRIX: return ex_matrix(C, n);
  case N_LAMBDA: {
    FnRef *r = C->f->ref;
    KType t = kt(K_FUNC);
    t.fn = fnref(S, n->func, r->env, r->nvirtual + 1, C->f, NULL, 0);
    return note(C, n, t)->t;
  }
  case N_EXCHANGE: return ex_exchange(C, n);
  case N_ASSIGN:
    st_assign(C, n);
    {
      NodeInfo *ni = ksema_info(C->f, n);
      return ni ? ni->t : kt(K_NONE);
    }
  case N_STRING: ksema_fail(S, n->loc, "strings in compiled kernels");
  default: ksema_fail(S, n->loc, "%s in compiled kernels", node_kind_name(n->kind));
  }
}

/* ---- statements ---- */

/* Type of `x op= v` for a local x: int op= int stays int for / and ^. */
static KType compound_type(Sx *C, Op op, KType old, KType v, Node *at, int slot) {
  bool intlike = (old.kind == K_INT || old.kind == K_BOOL) && (v.kind == K_INT || v.kind == K_BOOL);
  if ((op == OP_DIV || op == OP_EDIV || op == OP_POW || op == OP_EPOW) && slot >= 0 && C->f->slot_mixed[slot])
    ksema_fail(C->S, at->loc, "'%s=' on a variable that holds ints and scalars", op_name(op));
  if (intlike && (op == OP_DIV || op == OP_EDIV)) return kt(K_INT);
  if (intlike && (op == OP_POW || op == OP_EPOW)) {
    int64_t e;
    if (!const_int(at->b, &e) || e < 0) ksema_fail(C->S, at->loc, "int ^= with a non-constant exponent");
    return kt(K_INT);
  }
  return binary_type(C, op, old, v, at);
}

/* Checks x[...] (op)= v and records the element type on the target node. */
static void assign_index(Sx *C, Node *n, Node *target, KType v) {
  KSpec *S = C->S;
  KType b = ex(C, target->a);
  if (unknown(C, b, target->a)) return;
  if (b.kind == K_VEC) {
    /* a component of a local vector */
    if (target->a->kind != N_IDENT || target->a->slot < 0 || target->a->depth != 0)
      ksema_fail(S, n->loc, "assignment to a component of a captured or temporary vector");
    if (target->list.n != 1) ksema_fail(S, n->loc, "a vector indexed with %d indices", target->list.n);
    int len;
    KType it = index_kind(C, target->list.items[0], b.len, &len);
    if (unknown(C, it, target->list.items[0])) return;
    if (len) ksema_fail(S, n->loc, "assignment to several components of a vector");
    if (!is_real_num(v)) ksema_fail(S, n->loc, "a %s stored in a vector component", v.kind == K_CPLX ? "cscalar" : "value");
    KType r = v;
    if (n->op != OP_NONE) r = binary_type(C, n->op, kt(b.elem), v, n);
    if (kclass(r) > b.elem) {
      /* storing a scalar into an int vector makes it a real vector */
      slot_assign(C, target->a->slot, kt_vec(kclass(r), b.len), n);
    }
    note(C, target, kt(b.elem));
    note(C, n, r);
    return;
  }
  if (b.kind != K_ARRAY) ksema_fail(S, n->loc, "assignment into a value that is not an array");
  if (C->f->is_kernel == false && b.shared) { /* fine: shared arrays passed to device functions */ }
  bool unk;
  KType e = index_type(C, target, b, &unk);
  if (unk || e.kind == K_NONE) return;
  note(C, target, e);
  KType ev = e.kind == K_VEC ? kt(e.elem) : e;
  if (v.kind == K_VEC) {
    if (e.kind != K_VEC) ksema_fail(S, n->loc, "a vector stored in one array element");
    if (v.len != e.len) ksema_fail(S, n->loc, "%d values stored in a slice of %d elements", v.len, e.len);
  } else if (!is_num(v)) {
    ksema_fail(S, n->loc, "a %s stored in an array element", v.kind == K_ARRAY ? "array" : "value");
  }
  if (kclass(v) == K_CPLX && ev.kind != K_CPLX) ksema_fail(S, n->loc, "a cscalar stored in a real array (a run-time error)");
  KType r = v;   /* `(x[i] = v)` yields v itself */
  if (n->op != OP_NONE) {
    KType old = e;
    r = binary_type(C, n->op, old, v, n);   /* fails the operators complex numbers lack */
    if (ev.kind == K_CPLX && n->op != OP_ADD && n->op != OP_SUB) S->cplx_whole = true;
    if (kclass(r) == K_CPLX && ev.kind != K_CPLX) ksema_fail(S, n->loc, "a cscalar stored in a real array (a run-time error)");
    r = e;   /* the value as stored */
  }
  note(C, n, r);
}

static void assign_ident(Sx *C, Node *n, Node *target, KType v) {
  KSpec *S = C->S;
  if (target->slot < 0) ksema_fail(S, n->loc, "assignment to built-in '%s'", target->name);
  if (target->depth > 0) ksema_fail(S, n->loc, "assignment to '%s' of an enclosing function", target->name);
  FSpec *f = C->f;
  if (f->is_kernel && target->slot < f->func->ngenerics) ksema_fail(S, n->loc, "assignment to a generic parameter");
  for (int i = 0; f->is_kernel && i < S->nspecial; i++)   /* compiled code reads them as the thread's own */
    if (S->special[i].param == target->slot - f->func->ngenerics)
      ksema_fail(S, n->loc, "assignment to the special parameter '%s'", target->name);
  if (n->op == OP_NONE) {
    if (n->type && n->list.n == 1) v = convert_to_decl(C, v, n->type, n);
    if (v.kind == K_TUPLE) ksema_fail(S, n->loc, "a function with several outputs assigned to one variable");
    slot_assign(C, target->slot, v, n);
    note(C, target, f->slots[target->slot]);
    note(C, n, f->slots[target->slot]);
    return;
  }
  KType old = f->slots[target->slot];
  if (unknown(C, old, target)) return;
  KType r = compound_type(C, n->op, old, v, n, target->slot);
  slot_assign(C, target->slot, r, n);
  note(C, target, f->slots[target->slot]);
  note(C, n, f->slots[target->slot]);
  info_put(f, n)->builtin = (int)r.kind;   /* the operator's own result class, for emission */
}

static void assign_one(Sx *C, Node *n, Node *target, KType v) {
  if (v.kind == K_NONE) { C->f->changed = true; if (C->strict) unknown(C, v, n->b); return; }
  if (target->kind == N_IDENT) assign_ident(C, n, target, v);
  else if (target->kind == N_INDEX) assign_index(C, n, target, v);
  else ksema_fail(C->S, n->loc, "assignment to this expression in a kernel");
}

static void st_assign(Sx *C, Node *n) {
  KSpec *S = C->S;
  if (!n->b) {   /* x : T */
    Node *t = n->list.items[0];
    if (t->kind != N_IDENT || !n->type) ksema_fail(S, n->loc, "a bare declaration of this form");
    KType v = convert_to_decl(C, kt(K_INT), n->type, n);
    assign_ident(C, n, t, v);
    return;
  }
  if (n->list.n == 1) {
    KType v = ex(C, n->b);
    assign_one(C, n, n->list.items[0], v);
    return;
  }
  /* [a, b] = ...: a literal of as many values, a vector, or a tuple of outputs */
  int count = n->list.n;
  if (n->b->kind == N_MATRIX && n->b->list.n == count) {
    KType *vs = arena_alloc(S->arena, count * sizeof *vs);   /* (ksema_fail jumps past a free) */
    for (int i = 0; i < count; i++) vs[i] = ex(C, n->b->list.items[i]);
    for (int i = 0; i < count; i++) {
      if (vs[i].kind == K_TUPLE) ksema_fail(S, n->loc, "several outputs inside a literal");
      assign_one(C, n, n->list.items[i], vs[i]);
    }
    note(C, n, kt(K_NONE));
    return;
  }
  KType v = ex(C, n->b);
  if (unknown(C, v, n->b)) return;
  if (v.kind == K_VEC) {
    if (v.len != count) ksema_fail(S, n->loc, "%d values assigned from a vector of %d elements", count, v.len);
    for (int i = 0; i < count; i++) assign_one(C, n, n->list.items[i], kt(v.elem));
  } else if (v.kind == K_TUPLE) {
    FSpec *t = v.tuple;
    if (t->func->nouts < count) ksema_fail(S, n->loc, "%d values assigned from %d outputs", count, t->func->nouts);
    int base = t->func->ngenerics + t->func->nparams;
    for (int i = 0; i < count; i++) assign_one(C, n, n->list.items[i], t->slots[base + i]);
  } else {
    ksema_fail(S, n->loc, "cannot assign this value to %d variables", count);
  }
  note(C, n, v);
}

static void condition(Sx *C, Node *c) {
  KType t = ex(C, c);
  if (unknown(C, t, c)) return;
  if (!is_num(t) && t.kind != K_VEC) ksema_fail(C->S, c->loc, "a condition of this type");
}

static void st_for(Sx *C, Node *n) {
  KSpec *S = C->S;
  KType lv;
  if (n->a->kind == N_RANGE) {
    Node *r = n->a;
    KType a = ex(C, r->a), c = ex(C, r->c), s = r->b ? ex(C, r->b) : kt(K_INT);
    if (unknown(C, a, r->a) || unknown(C, c, r->c) || unknown(C, s, r)) { st_block(C, &n->list); return; }
    if (!is_real_num(a) || !is_real_num(c) || !is_real_num(s)) ksema_fail(S, n->loc, "a for range of this type");
    lv = kclass(a) == K_INT && kclass(c) == K_INT && kclass(s) == K_INT ? kt(K_INT) : kt(K_REAL);
    note(C, r, lv);
  } else {
    KType it = ex(C, n->a);
    if (unknown(C, it, n->a)) { st_block(C, &n->list); return; }
    if (it.kind == K_VEC) lv = kt(it.elem);
    else if (is_num(it)) lv = it;
    else ksema_fail(S, n->loc, "a for loop over an array");
  }
  int slot = n->slot;
  Node tmp = {.kind = N_IDENT, .loc = n->loc, .name = n->name};
  slot_assign(C, slot, lv, &tmp);
  note(C, n, C->f->slots[slot]);
  st_block(C, &n->list);
}

static void st(Sx *C, Node *n) {
  KSpec *S = C->S;
  switch (n->kind) {
  case N_EXPR:
    if (is_barrier(barrier_stmt_kind(n))) {
      BarrierKind k = barrier_stmt_kind(n);
      if (!C->f->is_kernel) ksema_fail(S, n->loc, "syncthreads in a device function");
      if (k == BK_SCOPE) ksema_fail(S, n->loc, "syncthreads(%s) in compiled kernels", n->a->list.items[0]->name);
      if (k == BK_GRID) S->grid_barrier = true;
      S->barrier = true;
      return;
    }
    if (barrier_stmt_kind(n) == BK_FENCE) return;
    {
      KType t = ex(C, n->a);
      (void)t;
    }
    return;
  case N_ASSIGN: st_assign(C, n); return;
  case N_IF: condition(C, n->a); st_block(C, &n->list); st_block(C, &n->list2); return;
  case N_FOR: st_for(C, n); return;
  case N_WHILE: case N_REPEAT: condition(C, n->a); st_block(C, &n->list); return;
  case N_MATCH: {
    KType t = ex(C, n->a);
    if (!unknown(C, t, n->a) && !is_real_num(t)) ksema_fail(S, n->loc, "match on a value of this type");
    for (int i = 0; i < n->ncases; i++) {
      if (n->cases[i].pattern) {
        KType p = ex(C, n->cases[i].pattern);
        if (!unknown(C, p, n->cases[i].pattern) && !is_real_num(p)) ksema_fail(S, n->cases[i].loc, "match pattern of this type");
      }
      st_block(C, &n->cases[i].body);
    }
    return;
  }
  case N_BREAK: case N_CONTINUE: return;
  case N_RETURN:
    if (n->a) ksema_fail(S, n->loc, "return with a value");
    if (C->f->func->is_lambda) ksema_fail(S, n->loc, "return in a lambda");
    return;
  case N_FUNCDEF: case N_ATTR: case N_MACRO: case N_TYPEDEF: case N_IMPORT: return;
  case N_BLOCK: st_block(C, &n->list); return;
  default: ex(C, n); return;
  }
}

static void st_block(Sx *C, NodeList *l) {
  for (int i = 0; i < l->n; i++) st(C, l->items[i]);
}

/* ---- specializations ---- */

static FSpec *fspec_new(KSpec *S, Func *f, FnRef *r) {
  FSpec *s = calloc(1, sizeof *s);
  FuncInfo *fi = func_info(f);
  s->func = f;
  s->ref = r;
  s->params = calloc(f->nparams + 1, sizeof *s->params);
  s->slots = calloc(fi->nslots + 1, sizeof *s->slots);
  s->slot_mixed = calloc(fi->nslots + 1, 1);
  s->id = S->nfuncs++;
  s->next = S->funcs;
  S->funcs = s;
  return s;
}

/* Starts a pass: parameters and hoisted functions have their types. */
static void fspec_init_slots(KSpec *S, FSpec *s) {
  Func *f = s->func;
  FuncInfo *fi = func_info(f);
  int base = f->ngenerics;
  for (int i = 0; i < f->nparams; i++) s->slots[base + i] = s->params[i];
  for (int i = 0; i < fi->hoisted.n; i++) {
    Node *def = fi->hoisted.items[i];
    KType t = kt(K_FUNC);
    t.fn = fnref(S, def->func, s->ref->env, s->ref->nvirtual + 1, s, NULL, 0);
    if (def->slot >= 0) s->slots[def->slot] = t;
  }
}

/* The result of a function: its one output, a tuple of them, or a lambda's last value. */
static KType fspec_result(Sx *C, FSpec *s) {
  Func *f = s->func;
  if (f->is_lambda) {
    if (!f->body.n) return kt(K_NONE);
    Node *last = f->body.items[f->body.n - 1];
    if (last->kind != N_EXPR) return kt(K_NONE);
    NodeInfo *ni = ksema_info(s, last->a);
    return ni ? ni->t : kt(K_NONE);
  }
  if (f->nouts == 0) return kt(K_NONE);
  int base = f->ngenerics + f->nparams;
  for (int o = 0; o < f->nouts; o++)
    if (s->slots[base + o].kind == K_NONE && C->strict)
      ksema_fail(C->S, f->loc, "output '%s' of '%s' is never assigned", f->outs[o].name, fname(f));
  if (f->nouts == 1) return s->slots[base];
  KType t = kt(K_TUPLE);
  t.tuple = s;
  return t;
}

/* Analyzes s until its slot types settle, then once more strictly. */
static void fspec_analyze(KSpec *S, FSpec *s) {
  Sx C = {.S = S, .f = s};
  s->analyzing = true;
  for (int pass = 0;; pass++) {
    if (pass > 40) ksema_fail(S, s->func->loc, "types of '%s' do not settle", fname(s->func));
    s->changed = false;
    fspec_init_slots(S, s);
    st_block(&C, &s->func->body);
    if (!s->changed) break;
  }
  C.strict = true;
  st_block(&C, &s->func->body);
  s->result = fspec_result(&C, s);
  s->analyzing = false;
}

static FSpec *spec_device(Sx *C, FnRef *r, KType *args, int nargs, SrcLoc loc) {
  KSpec *S = C->S;
  Func *f = r->func;
  if (f->ngenerics) ksema_fail(S, loc, "generic device function '%s'", fname(f));
  for (FSpec *s = S->funcs; s; s = s->next) {
    if (s->ref != r || s->is_kernel) continue;
    bool same = true;
    for (int i = 0; i < nargs && same; i++) same = ktype_eq(s->params[i], args[i]);
    if (!same) continue;
    if (s->analyzing) ksema_fail(S, loc, "recursive device function '%s'", fname(f));
    return s;
  }
  FSpec *s = fspec_new(S, f, r);
  for (int i = 0; i < nargs; i++) s->params[i] = args[i];
  fspec_analyze(S, s);
  return s;
}

/* ---- the kernel ---- */

static KType special_type(KSpec *S, const Param *p) {
  const Type *ty = p->type;
  int D = S->D;
  if (!strcmp(p->name, "warpsize")) return kt(K_INT);
  /* the thread's linear index in its block (emit_kernel.c), which its group's members read */
  if (!strcmp(p->name, "coalesced_threads") || !strcmp(p->name, "this_thread_block")) return kt(K_INT);
  bool is_kernel_special = !strcmp(p->name, "pos") || !strcmp(p->name, "blkpos") ||
                           !strcmp(p->name, "blkdim") || !strcmp(p->name, "blkidx") ||
                           !strcmp(p->name, "blkcnt");
  if (!is_kernel_special) ksema_fail(S, p->loc, "kernel parameter '%s' (cooperative groups)", p->name);
  if (ty->kind == TY_INT || ty->kind == TY_SCALAR || (ty->kind == TY_UNKNOWN && D == 1)) return kt(K_INT);
  if (ty->kind == TY_UNKNOWN) return kt_vec(K_INT, D);
  if (ty->kind == TY_ARRAY) {
    int len = ty->fixed_len ? ty->fixed_len : D;
    if (len > K_MAX_VEC) ksema_fail(S, p->loc, "'%s' is too long", p->name);
    KKind e = ty->elem ? type_class(ty->elem) : K_INT;
    if (e == K_CPLX || e == K_BOOL) ksema_fail(S, p->loc, "'%s' of this element type", p->name);
    return kt_vec(e == K_NONE ? K_INT : e, len);
  }
  ksema_fail(S, p->loc, "special parameter '%s' of this type", p->name);
}

static KType arg_type(KSpec *S, const Param *p, Value v) {
  bool ok;
  const Type *ty = p->type;
  if (v.kind == V_ARRAY && ty->kind == TY_ARRAY && ty->fixed_len && v.arr->rank == 1 &&
      v.arr->numel == ty->fixed_len && !el_is_complex(v.arr->elem) && ty->fixed_len <= K_MAX_VEC)
    return kt_vec(el_is_integer(v.arr->elem) ? K_INT : K_REAL, ty->fixed_len);
  KType t = value_ktype(S, v, &ok);
  if (!ok) ksema_fail(S, p->loc, "argument '%s' is a %s", p->name, rt_kind_name(v));
  return t;
}

static void kernel_outputs(KSpec *S, FSpec *k) {
  Func *f = S->kfunc;
  int base = f->ngenerics + f->nparams;
  S->out_op = func_info(f)->out_op;
  for (int o = 0; o < f->nouts; o++) {
    const Type *t = f->outs[o].type;
    if (t->kind != TY_INT && t->kind != TY_SCALAR && t->kind != TY_UNKNOWN)
      ksema_fail(S, f->outs[o].loc, "kernel output '%s' of type '%s'", f->outs[o].name, t->name ? t->name : "?");
    k->slots[base + o] = kt(t->kind == TY_INT ? K_INT : K_REAL);
  }
}

/* ---- barriers: which statements hold one, and whether their conditions are uniform ---- */

/* The kinds of barrier (bit 1 << BarrierKind) that statement n holds in its statement lists
   (a barrier is a statement: syncthreads used as a value fails). */
static unsigned held_barriers(Node *n);

static unsigned list_barriers(NodeList *l) {
  unsigned held = 0;
  for (int i = 0; i < l->n; i++) held |= held_barriers(l->items[i]);
  return held;
}

static unsigned held_barriers(Node *n) {
  switch (n->kind) {
  case N_EXPR: {
    BarrierKind k = barrier_stmt_kind(n);
    return is_barrier(k) ? 1u << k : 0;
  }
  case N_IF: return list_barriers(&n->list) | list_barriers(&n->list2);
  case N_FOR: case N_WHILE: case N_REPEAT: case N_BLOCK: return list_barriers(&n->list);
  case N_MATCH: {
    unsigned held = 0;
    for (int i = 0; i < n->ncases; i++) held |= list_barriers(&n->cases[i].body);
    return held;
  }
  default: return 0;
  }
}

typedef struct Uni { KSpec *S; FSpec *k; unsigned char *nonuni; bool changed; } Uni;

/* Whether a special parameter has one value for every thread that meets a barrier: a block's
   threads share blkidx, but a grid barrier (S->grid_barrier) also needs the blocks to agree. */
static bool uniform_special(Uni *U, const char *name) {
  if (!strcmp(name, "pos") || !strcmp(name, "blkpos")) return false;
  return !(U->S->grid_barrier && !strcmp(name, "blkidx"));
}

static bool uniform_expr(Uni *U, Node *n);

static bool uniform_list(Uni *U, NodeList *l) {
  for (int i = 0; i < l->n; i++)
    if (!uniform_expr(U, l->items[i])) return false;
  return true;
}

/* Conservative: true only when every thread of a block computes the same value. */
static bool uniform_expr(Uni *U, Node *n) {
  if (!n) return true;
  switch (n->kind) {
  case N_INT: case N_REAL: case N_IMAG: return true;
  case N_IDENT:
    if (n->slot < 0 || n->depth > 0) return true;
    if (n->slot < U->k->func->ngenerics) return true;
    {
      Func *f = U->k->func;
      int pi = n->slot - f->ngenerics;
      if (pi >= 0 && pi < f->nparams && is_special_kernel_param(f->params[pi].name))
        return uniform_special(U, f->params[pi].name);
    }
    return !U->nonuni[n->slot];
  case N_UNARY: return uniform_expr(U, n->a);
  case N_BINARY: return uniform_expr(U, n->a) && uniform_expr(U, n->b);
  case N_RANGE: return uniform_expr(U, n->a) && uniform_expr(U, n->b) && uniform_expr(U, n->c);
  case N_COND: return uniform_expr(U, n->a) && uniform_expr(U, n->b) && uniform_expr(U, n->c);
  case N_MATRIX: return uniform_list(U, &n->list);
  case N_CALL: {
    NodeInfo *ni = ksema_info(U->k, n);
    if (!ni || !ni->builtin || ni->builtin == KB_SHARED || ni->builtin == KB_ASSERT) return false;
    return uniform_list(U, &n->list);
  }
  case N_INDEX: {
    /* a component of a uniform small vector; array elements may differ between threads */
    NodeInfo *ni = ksema_info(U->k, n->a);
    if (!ni || ni->t.kind != K_VEC) return false;
    return uniform_expr(U, n->a) && uniform_list(U, &n->list);
  }
  default: return false;
  }
}

static void uni_mark(Uni *U, Node *target) {
  if (target->kind == N_IDENT && target->slot >= 0 && target->depth == 0 && !U->nonuni[target->slot]) {
    U->nonuni[target->slot] = 1;
    U->changed = true;
  }
}

static void uni_block(Uni *U, NodeList *l, bool divergent);

static void uni_stmt(Uni *U, Node *n, bool divergent) {
  switch (n->kind) {
  case N_ASSIGN:
    for (int i = 0; i < n->list.n; i++) {
      Node *t = n->list.items[i];
      if (t->kind != N_IDENT) continue;
      bool u = !divergent && (!n->b || uniform_expr(U, n->b));
      if (n->op != OP_NONE) u = u && uniform_expr(U, t);
      /* shared arrays are the same object for every thread of the block */
      NodeInfo *ni = ksema_info(U->k, t);
      if (ni && ni->t.kind == K_ARRAY && ni->t.shared && !divergent) u = true;
      if (!u) uni_mark(U, t);
    }
    return;
  case N_IF: {
    bool d = divergent || !uniform_expr(U, n->a);
    uni_block(U, &n->list, d);
    uni_block(U, &n->list2, d);
    return;
  }
  case N_FOR: {
    bool d = divergent || !uniform_expr(U, n->a);
    if (d && n->slot >= 0 && !U->nonuni[n->slot]) { U->nonuni[n->slot] = 1; U->changed = true; }
    uni_block(U, &n->list, d);
    return;
  }
  case N_WHILE: case N_REPEAT: {
    bool d = divergent || !uniform_expr(U, n->a);
    uni_block(U, &n->list, d);
    return;
  }
  case N_MATCH: {
    bool d = divergent || !uniform_expr(U, n->a);
    for (int i = 0; i < n->ncases; i++) uni_block(U, &n->cases[i].body, d);
    return;
  }
  case N_BLOCK: uni_block(U, &n->list, divergent); return;
  default: return;
  }
}

static void uni_block(Uni *U, NodeList *l, bool divergent) {
  for (int i = 0; i < l->n; i++) uni_stmt(U, l->items[i], divergent);
}

static bool list_has_jump(NodeList *l, bool in_loop);

static bool has_jump(Node *n, bool in_loop) {
  switch (n->kind) {
  case N_BREAK: case N_CONTINUE: return !in_loop;
  case N_RETURN: return true;
  case N_IF: return list_has_jump(&n->list, in_loop) || list_has_jump(&n->list2, in_loop);
  case N_FOR: case N_WHILE: case N_REPEAT: return list_has_jump(&n->list, true);
  case N_BLOCK: return list_has_jump(&n->list, in_loop);
  case N_MATCH:
    for (int i = 0; i < n->ncases; i++)
      if (list_has_jump(&n->cases[i].body, in_loop)) return true;
    return false;
  default: return false;
  }
}

static bool list_has_jump(NodeList *l, bool in_loop) {
  for (int i = 0; i < l->n; i++)
    if (has_jump(l->items[i], in_loop)) return true;
  return false;
}

/* A barrier that not every thread may reach: fine for block barriers on the GPU (threads
   that finished do not hold a barrier back there, as in the oracle), not for grid barriers. */
static void divergent(Uni *U, Node *n, const char *why) {
  if (U->S->grid_barrier) ksema_fail(U->S, n->loc, "%s", why);
  if (!U->S->divergent) {
    U->S->divergent = why;
    U->S->divergent_loc = n->loc;
    U->S->divergent_at = n;
  }
}

/* Every statement holding a barrier must be reached by all threads of a block alike. */
static void check_barriers(Uni *U, NodeList *l) {
  KSpec *S = U->S;
  for (int i = 0; i < l->n; i++) {
    Node *n = l->items[i];
    unsigned held = held_barriers(n);
    if (!held) {
      if (n->kind == N_RETURN) ksema_fail(S, n->loc, "return in a kernel with barriers");
      if (has_jump(n, false)) ksema_fail(S, n->loc, "break, continue or return beside a barrier");
      continue;
    }
    NodeInfo *ni = info_put(U->k, n);
    ni->barrier = true;
    ni->grid_barrier = held & 1u << BK_GRID;
    switch (n->kind) {
    case N_EXPR: break;
    case N_IF:
      if (!uniform_expr(U, n->a)) divergent(U, n, "barrier under a condition that may differ between threads");
      check_barriers(U, &n->list);
      check_barriers(U, &n->list2);
      break;
    case N_WHILE: case N_REPEAT:
      if (!uniform_expr(U, n->a)) divergent(U, n, "barrier in a loop whose condition may differ between threads");
      check_barriers(U, &n->list);
      break;
    case N_FOR:
      if (!uniform_expr(U, n->a)) divergent(U, n, "barrier in a loop whose range may differ between threads");
      check_barriers(U, &n->list);
      break;
    case N_BLOCK: check_barriers(U, &n->list); break;
    default: ksema_fail(S, n->loc, "barrier inside a %s", node_kind_name(n->kind));
    }
  }
}

/* ---- warp collectives (S->coop) ----
   Every lane of a warp must reach each collective together (CUDA's *_sync with the warp's
   mask): one under a condition the lanes may disagree on, beside a jump, or in an operand
   that is not always evaluated is left to the interpreter, which reports the lanes that
   did not meet; a loop whose range may differ between lanes is checked per warp at run time
   (warp_trips), since seed 001's reduce_sum strides over its data from pos. */

static bool is_collective(Node *n) {
  bool warp;
  return n->kind == N_CALL && n->a->kind == N_FIELD && group_op(n, &warp) >= G_SHFL;
}

static bool is_jump(Node *n) { return n->kind == N_BREAK || n->kind == N_CONTINUE || n->kind == N_RETURN; }

/* Whether n holds a node that is(), outside nested functions. */
static bool contains(Node *n, bool (*is)(Node *)) {
  if (!n) return false;
  if (is(n)) return true;
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return false;
  for (AstKids it = ast_kids(n); it.node; ast_next(&it))
    if (contains(it.node, is)) return true;
  return false;
}

static bool has_collective(Node *n) { return contains(n, is_collective); }

/* A collective in an operand that only some lanes may evaluate (?:, && and ||). */
static void collective_operands(KSpec *S, Node *n) {
  if (!n || n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return;
  bool lazy = n->kind == N_COND || (n->kind == N_BINARY && (n->op == OP_AND || n->op == OP_OR));
  if (lazy && (has_collective(n->b) || (n->kind == N_COND && has_collective(n->c))))
    ksema_fail(S, n->loc, "a warp collective in an operand not every lane evaluates");
  for (AstKids it = ast_kids(n); it.node; ast_next(&it)) collective_operands(S, it.node);
}

static void check_collectives(Uni *U, NodeList *l) {
  KSpec *S = U->S;
  for (int i = 0; i < l->n; i++) {
    Node *n = l->items[i];
    if (n->kind == N_RETURN) ksema_fail(S, n->loc, "return in a kernel with warp collectives");
    if (!has_collective(n)) continue;
    if (contains(n, is_jump)) ksema_fail(S, n->loc, "break, continue or return beside a warp collective");
    switch (n->kind) {
    case N_IF: case N_WHILE: case N_REPEAT: case N_MATCH:
      if (!uniform_expr(U, n->a)) ksema_fail(S, n->loc, "a warp collective under a condition the lanes may disagree on");
      if (n->kind == N_MATCH)
        for (int c = 0; c < n->ncases; c++) check_collectives(U, &n->cases[c].body);
      check_collectives(U, &n->list);
      check_collectives(U, &n->list2);
      break;
    case N_FOR:
      if (has_collective(n->a)) ksema_fail(S, n->loc, "a warp collective in a loop's range");
      info_put(U->k, n)->warp_trips = !uniform_expr(U, n->a);
      check_collectives(U, &n->list);
      break;
    case N_BLOCK: check_collectives(U, &n->list); break;
    default: collective_operands(S, n); break;
    }
  }
}

bool ksema_run(KSpec *S, Value *args) {
  if (setjmp(S->fail)) return false;
  Func *f = S->kfunc;
  S->name = func_shown_name(f);
  free(gather(S, args));
  FnRef *r = fnref(S, f, S->kernel->env, 0, NULL, S->kernel->generic_args, S->kernel->ngeneric_args);
  FSpec *k = fspec_new(S, f, r);
  k->is_kernel = true;
  S->kspec = k;
  for (int i = 0; i < f->nparams; i++) {
    const Param *p = &f->params[i];
    if (is_special_kernel_param(p->name)) {
      KType t = special_type(S, p);
      k->params[i] = t;
      S->special[S->nspecial++] = (KSpecial){i, p->name, t};
      if (strcmp(p->name, "pos") && strcmp(p->name, "warpsize")) S->uses_block = true;
    } else {
      k->params[i] = arg_type(S, p, args[i]);
    }
  }
  kernel_outputs(S, k);
  /* outputs keep their types: a pass may not widen them */
  int obase = f->ngenerics + f->nparams;
  /* in the spec's arena: a ksema_fail (a rejected kernel) jumps past any free (issue 23) */
  KType *outs = arena_alloc(S->arena, (f->nouts + 1) * sizeof *outs);
  for (int o = 0; o < f->nouts; o++) outs[o] = k->slots[obase + o];
  fspec_analyze(S, k);
  for (int o = 0; o < f->nouts; o++)
    if (!ktype_eq(outs[o], k->slots[obase + o]))
      ksema_fail(S, f->outs[o].loc, "kernel output '%s' changes type", f->outs[o].name);
  kfacts_compute(S);   /* (fails on a shared() call inside a loop or condition) */
  if (S->facts.nshared) S->uses_block = true;
  if (S->barrier) S->uses_block = true;
  if (S->barrier || S->coop) {
    Uni U = {.S = S, .k = k, .nonuni = arena_alloc(S->arena, func_info(f)->nslots + 1)};
    do {
      U.changed = false;
      uni_block(&U, &f->body, false);
    } while (U.changed);
    if (S->barrier) check_barriers(&U, &f->body);
    if (S->coop) check_collectives(&U, &f->body);
  }
  return true;
}

void kspec_free(KSpec *S) {
  for (FSpec *s = S->funcs, *next; s; s = next) {
    next = s->next;
    free(s->params);
    free(s->slots);
    free(s->slot_mixed);
    free(s->info.items);
    free(s);
  }
  S->funcs = NULL;
  free(S->caps);
  free(S->sites);
  S->caps = NULL;
  S->sites = NULL;
  kfacts_free(&S->facts);
  if (S->arena) arena_free(S->arena);
}

KType kspec_arg_type(const KSpec *S, int i) {
  return i < S->kfunc->nparams ? S->kspec->params[i] : S->caps[i - S->kfunc->nparams].type;
}
