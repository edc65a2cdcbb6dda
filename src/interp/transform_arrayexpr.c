/* transform_arrayexpr.c: marks the host statements and reduction calls that may run as one
   generated kernel (arrayexpr.h; docs/language.md, "Host array expressions").

   Runs on the resolved tree after the parallel-loop transform, over the bodies of host
   functions. Two forms are marked, each by an N_ARRAYEXPR node that keeps the original:
   - a reduction call `sum(e)`, `mean(e)`, `prod(e)`, `min(e)`, `max(e)` (one argument) of
     an element-wise expression e, anywhere in an expression, or along a dimension
     (`sum(e, d)`, `mean(e, d)`, `prod(e, d)`, `max(e, [], d)`, `min(e, [], d)`);
   - an assignment `x = e` or `x op= e` (op one of + - * / .* ./) to a variable, where e
     is element-wise and has at least one operator or call (`y = x` aliases, it copies
     nothing).
   Then consecutive marked statements fuse (fuse_next, below).
   An element-wise expression is made of literals, leaves, the operators + - * / ^ .* ./ .^
   mod, comparisons, && || !, unary minus, c ? a : b, and calls of the element-wise
   built-ins. Leaves
   are what the host evaluates before the launch: variables, named constants, marked
   reductions, and slices `x[...]` of a variable with pure indices. Whether a leaf is an
   array is known only at run time: there the guards check that the operators are
   element-wise for the values at hand (no matrix product, no && of arrays), and run the
   original node otherwise. Since leaves are pure, evaluating them twice is harmless. */
#include <stdio.h>
#include <string.h>
#include "interp/arrayexpr.h"

#define MAX_LEAVES 32

/* The built-ins applied element by element that compiled kernels implement, with the
   argument counts for which they are element-wise (min and max of one argument reduce). */
static const struct { const char *name; int nargs; } elementwise_builtins[] = {
  {"abs", 1}, {"sqrt", 1}, {"exp", 1}, {"log", 1}, {"log2", 1}, {"log10", 1},
  {"sin", 1}, {"cos", 1}, {"tan", 1}, {"asin", 1}, {"acos", 1}, {"atan", 1},
  {"sinh", 1}, {"cosh", 1}, {"tanh", 1}, {"floor", 1}, {"ceil", 1}, {"round", 1},
  {"frac", 1}, {"sign", 1}, {"float", 1}, {"int", 1}, {"real", 1}, {"imag", 1},
  {"conj", 1}, {"isnan", 1}, {"isinf", 1}, {"isfinite", 1}, {"atan2", 2}, {"mod", 2},
  {"min", 2}, {"max", 2}, {"clamp", 3}, {"complex", 2},
};

/* dim: the argument that is a dimension (the reduction then runs along it: sum(e, d),
   max(e, [], d)), else -1. */
static const struct { const char *name; Op op; int nargs, dim; } reductions[] = {
  {"sum", OP_ADD, 1, -1}, {"mean", OP_ADD, 1, -1}, {"prod", OP_MUL, 1, -1}, {"min", OP_MIN, 1, -1},
  {"max", OP_MAX, 1, -1}, {"dotprod", OP_ADD, 2, -1}, {"norm", OP_ADD, 1, -1},
  {"sum", OP_ADD, 2, 1}, {"mean", OP_ADD, 2, 1}, {"prod", OP_MUL, 2, 1}, {"min", OP_MIN, 3, 2},
  {"max", OP_MAX, 3, 2},
};

/* Names of the functions that kernels may call (a plain function called from a kernel runs
   as device code: its statements stay as written). */
typedef struct Names { const char *v[512]; int n; } Names;

/* A statement list being walked, for fusion's liveness (live_after): the statement at i is
   the one being walked (the one holding the inner lists); owner is the loop or function
   whose body it is. */
typedef enum ListKind { LK_PLAIN, LK_LOOP, LK_FUNC } ListKind;
typedef struct LFrame {
  NodeList *l;
  int i;
  ListKind kind;
  const Node *owner;   /* LK_LOOP: the loop (its test runs before each iteration) */
} LFrame;

typedef struct Ax {
  Program *P;
  const InterpOptions *opt;
  Names device;
  Func *chain[64];
  int nchain;
  int count;           /* N_ARRAYEXPR nodes made (their ids) */
  LFrame frames[256];
  int nframes;
  /* liveness of a launch's g (launch_obstacle): the launch `kill_call` itself, run again (the
     next iteration of a loop), kills g; NULL: no launch kills */
  const Node *kill_call;
  const Node *kill_stmt;   /* the statement it fuses with */
} Ax;

/* A call's callee when it is a built-in function of the runtime (not a user function
   of the same name). */
static const char *builtin_callee(const Node *call) {
  const Node *f = call->a;
  if (call->kind != N_CALL || f->kind != N_IDENT || f->slot >= 0 || !f->aux) return NULL;
  const Global *g = f->aux;
  if (g->value.kind != V_FUNC || g->value.fn->kind != CALL_BUILTIN) return NULL;
  return f->name;
}

static bool is_elementwise_call(const Node *call) {
  const char *name = builtin_callee(call);
  if (!name) return false;
  for (size_t i = 0; i < sizeof elementwise_builtins / sizeof *elementwise_builtins; i++)
    if (!strcmp(name, elementwise_builtins[i].name) && call->list.n == elementwise_builtins[i].nargs)
      return true;
  return false;
}

static bool is_elementwise_op(Op op) {
  switch (op) {
  case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_POW: case OP_EMUL:
  case OP_EDIV: case OP_EPOW: case OP_MOD: case OP_EQ: case OP_NE: case OP_LT: case OP_LE:
  case OP_GT: case OP_GE: case OP_AND: case OP_OR:
    return true;
  default:
    return false;
  }
}

/* Index expressions a slice leaf may have: evaluating them has no effect. */
static bool pure_index(const Node *n) {
  switch (n->kind) {
  case N_INT: case N_REAL: case N_COLON: return true;
  case N_IDENT: return n->slot >= 0 || n->aux;
  case N_UNARY: return pure_index(n->a);
  case N_BINARY: return pure_index(n->a) && pure_index(n->b);
  case N_RANGE: return pure_index(n->a) && (!n->b || pure_index(n->b)) && (!n->c || pure_index(n->c));
  case N_CALL: {
    const char *f = builtin_callee(n);
    if (!f || (strcmp(f, "size") && strcmp(f, "numel") && strcmp(f, "ndims"))) return false;
    for (int i = 0; i < n->list.n; i++)
      if (!pure_index(n->list.items[i])) return false;
    return true;
  }
  default: return false;
  }
}

static bool is_leaf(const Node *n) {
  switch (n->kind) {
  case N_IDENT: return n->slot >= 0 || (n->aux && ((const Global *)n->aux)->value.kind != V_FUNC);
  case N_ARRAYEXPR: return true;
  case N_INDEX: {   /* a slice: some index is a range or ':' (x[i, j] is one element) */
    if (n->a->kind != N_IDENT || n->a->slot < 0 || !n->list.n) return false;
    bool kept = false;
    for (int i = 0; i < n->list.n; i++) {
      if (!pure_index(n->list.items[i])) return false;
      kept |= n->list.items[i]->kind == N_COLON || n->list.items[i]->kind == N_RANGE;
    }
    return kept;
  }
  default: return false;
  }
}

/* Whether n is an element-wise expression, counting its leaves. */
static bool elementwise(const Node *n, int *nleaves) {
  if (is_leaf(n)) return ++*nleaves <= MAX_LEAVES;
  switch (n->kind) {
  case N_INT: case N_REAL: case N_IMAG: return true;
  case N_UNARY: return (n->op == OP_NEG || n->op == OP_PLUS || n->op == OP_NOT) && elementwise(n->a, nleaves);
  case N_BINARY: return is_elementwise_op(n->op) && elementwise(n->a, nleaves) && elementwise(n->b, nleaves);
  case N_COND: return elementwise(n->a, nleaves) && elementwise(n->b, nleaves) && elementwise(n->c, nleaves);
  case N_CALL:
    if (!is_elementwise_call(n)) return false;
    for (int i = 0; i < n->list.n; i++)
      if (!elementwise(n->list.items[i], nleaves)) return false;
    return true;
  default: return false;
  }
}

/* ---- building the marked node ---- */

static bool same_variable(const Node *a, const Node *b) {
  return a->kind == N_IDENT && b->kind == N_IDENT && a->slot == b->slot && a->depth == b->depth &&
         a->aux == b->aux && !strcmp(a->name, b->name);
}

/* "$k" for a leaf; a variable named twice is one leaf (one kernel parameter, one load). */
static Node *leaf_ref(Ax *X, ArrayExpr *E, Node *leaf) {
  Node *id = ast_node(X->P->arena, N_IDENT, leaf->loc);
  id->slot = -1;   /* "$k": no variable */
  int k = 0;
  while (k < E->nleaves && !same_variable(E->leaves[k], leaf)) k++;
  char name[16];
  snprintf(name, sizeof name, "$%d", k);
  id->name = arena_strdup(X->P->arena, name);
  id->ival = k;
  if (k < E->nleaves) return id;
  E->leaves[E->nleaves++] = leaf;
  E->nslices += leaf->kind == N_INDEX;
  return id;
}

/* A copy of the element-wise expression n with its leaves replaced by "$k". */
static Node *template_of(Ax *X, ArrayExpr *E, Node *n) {
  if (is_leaf(n)) return leaf_ref(X, E, n);
  if (n->kind != N_UNARY && n->kind != N_BINARY && n->kind != N_CALL && n->kind != N_COND) return ast_clone(X->P->arena, n);
  Node *c = ast_node(X->P->arena, n->kind, n->loc);
  c->op = n->op;
  if (n->kind == N_CALL) {
    c->a = ast_clone(X->P->arena, n->a);
    c->list.n = n->list.n;
    c->list.items = arena_alloc(X->P->arena, n->list.n * sizeof *c->list.items);
    for (int i = 0; i < n->list.n; i++) c->list.items[i] = template_of(X, E, n->list.items[i]);
    return c;
  }
  c->a = template_of(X, E, n->a);
  if (n->b) c->b = template_of(X, E, n->b);
  if (n->c) c->c = template_of(X, E, n->c);
  return c;
}

static ArrayExpr *new_arrayexpr(Ax *X, int nleaves) {
  ArrayExpr *E = arena_alloc(X->P->arena, sizeof *E);
  memset(E, 0, sizeof *E);
  E->leaves = arena_alloc(X->P->arena, (nleaves + 1) * sizeof *E->leaves);
  E->chain = arena_alloc(X->P->arena, X->nchain * sizeof *E->chain);
  memcpy(E->chain, X->chain, X->nchain * sizeof *E->chain);
  E->nchain = X->nchain;
  E->id = X->count++;
  E->target_leaf = -1;
  return E;
}

/* --explain: one line per marked node. */
static void explain(Ax *X, const Node *n, const ArrayExpr *E) {
  if (!X->opt->explain) return;
  const char *path = n->loc.file && n->loc.file->path ? n->loc.file->path : "?";
  char what[64];
  if (E->dim) snprintf(what, sizeof what, "%s along a dimension of an element-wise expression", E->redname);
  else if (E->red != OP_NONE) snprintf(what, sizeof what, "%s of an element-wise expression", E->redname);
  else snprintf(what, sizeof what, "element-wise assignment to %s", E->target->name);
  printf("%s:%d:%d: %s: one kernel when its operands are arrays (%d operand%s%s)\n", path, n->loc.line,
         n->loc.col, what, E->nleaves, E->nleaves == 1 ? "" : "s", E->nslices ? ", slices read in place" : "");
}

static Node *mark(Ax *X, Node *original, ArrayExpr *E) {
  explain(X, original, E);
  Node *m = ast_node(X->P->arena, N_ARRAYEXPR, original->loc);
  m->slot = -1;
  m->a = original;
  m->aux = E;
  return m;
}

/* abs(e) .^ 2: what norm(e) adds up (its square root is taken on the host). */
static Node *squared_magnitude(Ax *X, Node *e) {
  Node *abs = ast_node(X->P->arena, N_CALL, e->loc), *sq = ast_node(X->P->arena, N_BINARY, e->loc), *two = ast_node(X->P->arena, N_INT, e->loc);
  abs->a = ast_ident(X->P->arena, "abs", e->loc);
  abs->a->slot = -1;   /* resolved: the built-in */
  abs->a->aux = (void *)global_lookup("abs");
  abs->list.n = 1;
  abs->list.items = arena_alloc(X->P->arena, sizeof *abs->list.items);
  abs->list.items[0] = e;
  two->ival = 2;
  sq->op = OP_EPOW;
  sq->a = abs;
  sq->b = two;
  return sq;
}

/* A reduction call of element-wise arguments, or NULL: sum(e) adds e up, dotprod(a, b)
   adds up a .* b, norm(e) abs(e) .^ 2. */
static Node *mark_reduction(Ax *X, Node *call) {
  const char *name = builtin_callee(call);
  if (!name) return NULL;
  Op op = OP_NONE;
  int dim = -1;
  for (size_t i = 0; i < sizeof reductions / sizeof *reductions; i++)
    if (!strcmp(name, reductions[i].name) && call->list.n == reductions[i].nargs)
      op = reductions[i].op, dim = reductions[i].dim;
  int nleaves = 0;
  if (dim >= 0 && !pure_index(call->list.items[dim])) op = OP_NONE;
  if (dim == 2 && (call->list.items[1]->kind != N_MATRIX || call->list.items[1]->list.n)) op = OP_NONE;
  if (op != OP_NONE && !elementwise(call->list.items[0], &nleaves)) op = OP_NONE;
  if (op != OP_NONE && dim < 0 && call->list.n == 2 && !elementwise(call->list.items[1], &nleaves)) op = OP_NONE;
  if (op == OP_NONE || !nleaves) return NULL;
  ArrayExpr *E = new_arrayexpr(X, nleaves);
  E->red = op;
  E->redname = name;
  E->expr = template_of(X, E, call->list.items[0]);
  if (dim >= 0) {
    E->dim = call->list.items[dim];
  } else if (call->list.n == 2) {
    Node *m = ast_node(X->P->arena, N_BINARY, call->loc);
    m->op = OP_EMUL;
    m->a = E->expr;
    m->b = template_of(X, E, call->list.items[1]);
    E->expr = m;
  }
  if (!strcmp(name, "norm")) E->expr = squared_magnitude(X, E->expr);
  return mark(X, call, E);
}

/* Marks the reductions inside expression n (innermost first); returns n or its mark. */
static Node *walk_expr(Ax *X, Node *n) {
  if (!n || n->kind == N_LAMBDA || n->kind == N_ARRAYEXPR) return n;
  if (n->a) n->a = walk_expr(X, n->a);
  if (n->b) n->b = walk_expr(X, n->b);
  if (n->c) n->c = walk_expr(X, n->c);
  for (int i = 0; i < n->list.n; i++) n->list.items[i] = walk_expr(X, n->list.items[i]);
  for (int i = 0; i < n->list2.n; i++) n->list2.items[i] = walk_expr(X, n->list2.items[i]);
  if (n->kind == N_CALL) {
    Node *m = mark_reduction(X, n);
    if (m) return m;
  }
  return n;
}

static Op compound_op(Op op) {
  switch (op) {
  case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_EMUL: case OP_EDIV: return op;
  default: return OP_COUNT;
  }
}

/* x = e, x op= e, x[slice] = e, x[slice] op= e; or NULL. */
static Node *mark_assign(Ax *X, Node *s) {
  if (s->list.n != 1 || !s->b || s->type) return NULL;
  Node *t = s->list.items[0], *e = s->b;
  bool slice = t->kind == N_INDEX && is_leaf(t);
  if (!slice && (t->kind != N_IDENT || t->slot < 0)) return NULL;
  if (s->op != OP_NONE && compound_op(s->op) == OP_COUNT) return NULL;
  int nleaves = s->op != OP_NONE || slice;
  if (is_leaf(e) && s->op == OP_NONE && !slice) return NULL;
  if (!elementwise(e, &nleaves) || !nleaves) return NULL;
  ArrayExpr *E = new_arrayexpr(X, nleaves + 1);
  E->target = t;
  if (s->op == OP_NONE) {
    E->expr = template_of(X, E, e);
    if (slice) {   /* the slice written: a leaf of its own, evaluated after the right side */
      E->target_leaf = E->nleaves;
      leaf_ref(X, E, t);
    }
  } else {   /* x op= e is x = x op (e) */
    if (slice) E->target_leaf = 0;
    Node *b = ast_node(X->P->arena, N_BINARY, s->loc);
    b->op = s->op;
    b->a = leaf_ref(X, E, t);
    b->b = template_of(X, E, e);
    E->expr = b;
  }
  return mark(X, s, E);
}

/* ---- the functions kernels call ---- */

static bool has_name(const Names *s, const char *name) {
  for (int i = 0; i < s->n; i++)
    if (!strcmp(s->v[i], name)) return true;
  return false;
}

static void add_name(Names *s, const char *name) {
  if (name && !has_name(s, name) && s->n < (int)(sizeof s->v / sizeof *s->v)) s->v[s->n++] = name;
}

/* The names n calls (functions defined inside it included). */
static void calls_in(const Node *n, Names *out) {
  if (!n) return;
  if (n->kind == N_CALL && n->a->kind == N_IDENT) add_name(out, n->a->name);
  if ((n->kind == N_FUNCDEF || n->kind == N_LAMBDA) && n->func)
    for (int i = 0; i < n->func->body.n; i++) calls_in(n->func->body.items[i], out);
  for (AstKids k = ast_kids(n); k.node; ast_next(&k)) calls_in(k.node, out);
}

/* Adds to out what the kernels and device functions under n call; with `host`, also what
   the plain functions named in out call (the functions those reach in turn). */
static void device_calls(const Node *n, Names *out, bool host) {
  if (!n) return;
  if ((n->kind == N_FUNCDEF || n->kind == N_LAMBDA) && n->func) {
    const Func *f = n->func;
    bool device = f->kind == FK_KERNEL || f->kind == FK_DEVICE || (host && f->name && has_name(out, f->name));
    for (int i = 0; i < f->body.n; i++) {
      if (device) calls_in(f->body.items[i], out);
      device_calls(f->body.items[i], out, host);
    }
  }
  for (AstKids k = ast_kids(n); k.node; ast_next(&k)) device_calls(k.node, out, host);
}

static void find_device_functions(Ax *X) {
  const Node *roots[2] = {X->P->root, NULL};
  for (int pass = 0; pass < 4; pass++) {   /* a few levels of plain functions called in turn */
    int before = X->device.n;
    for (int r = 0; roots[r]; r++) {
      for (int i = 0; i < roots[r]->list.n; i++) device_calls(roots[r]->list.items[i], &X->device, pass > 0);
      for (int i = 0; i < roots[r]->list2.n; i++) device_calls(roots[r]->list2.items[i], &X->device, pass > 0);
    }
    if (pass > 0 && X->device.n == before) break;
  }
}

/* ---- walking the host functions ---- */

static void walk_list(Ax *X, NodeList *l, ListKind kind, const Node *owner);

static void walk_func(Ax *X, Func *f) {
  if (f->kind != FK_HOST || X->nchain == (int)(sizeof X->chain / sizeof *X->chain)) return;
  if (f->name && has_name(&X->device, f->name)) return;   /* kernels may call it */
  X->chain[X->nchain++] = f;
  walk_list(X, &f->body, LK_FUNC, NULL);
  X->nchain--;
}

static Node *walk_stmt(Ax *X, Node *s) {
  switch (s->kind) {
  case N_ASSIGN: {
    for (int i = 0; i < s->list.n; i++)
      if (s->list.items[i]->kind == N_INDEX) s->list.items[i] = walk_expr(X, s->list.items[i]);
    if (s->b && s->list.n > 1 && s->b->kind == N_CALL) {   /* [m, i] = max(x): several outputs */
      for (int i = 0; i < s->b->list.n; i++) s->b->list.items[i] = walk_expr(X, s->b->list.items[i]);
    } else if (s->b) {
      s->b = walk_expr(X, s->b);
    }
    Node *m = mark_assign(X, s);
    return m ? m : s;
  }
  case N_EXPR: case N_RETURN:
    if (s->a) s->a = walk_expr(X, s->a);
    return s;
  case N_IF:
    s->a = walk_expr(X, s->a);
    walk_list(X, &s->list, LK_PLAIN, NULL);
    walk_list(X, &s->list2, LK_PLAIN, NULL);
    return s;
  case N_WHILE: case N_REPEAT: case N_FOR:
    s->a = walk_expr(X, s->a);
    walk_list(X, &s->list, LK_LOOP, s);
    return s;
  case N_PARLOOP:   /* the serial loop it keeps for its guards is host code */
    s->a = walk_stmt(X, s->a);
    return s;
  case N_BLOCK: walk_list(X, &s->list, LK_PLAIN, NULL); return s;
  case N_MATCH:
    for (int j = 0; j < s->ncases; j++) walk_list(X, &s->cases[j].body, LK_PLAIN, NULL);
    return s;
  case N_FUNCDEF: walk_func(X, s->func); return s;
  default: return s;
  }
}

/* ---- fusing consecutive statements ----

   `t = e1` (a marked statement, P) followed by a statement C whose marked node (C itself,
   or a reduction inside it) reads t as an operand: when t is a local read nowhere else in
   the function (its one read is C's, so no later statement nor the next iteration of a loop
   sees it), is no output, and C cannot change e1's operands before its kernel reads them,
   e1 replaces t's leaf in C's expression and P moves into C's ArrayExpr (producer, with
   C's expression before the fusion kept as unfused): P runs first when the guards say no.
   t never exists. Chains fuse one link at a time. */

/* Reads of the variable called `name` under n: every mention but a plain assignment's
   target; the bodies of functions and lambdas defined inside count (they may capture it). */
static int reads_of(const Node *n, const char *name) {
  if (!n) return 0;
  if (n->kind == N_IDENT) return n->name && !strcmp(n->name, name);
  int c = 0;
  if (n->kind == N_ARRAYEXPR) {   /* with the statements fused into it */
    for (const ArrayExpr *E = n->aux; E; E = E->unfused) c += reads_of(E->producer, name);
    return c + reads_of(n->a, name);
  }
  if ((n->kind == N_FUNCDEF || n->kind == N_LAMBDA) && n->func)
    for (int i = 0; i < n->func->body.n; i++) c += reads_of(n->func->body.items[i], name);
  for (AstKids k = ast_kids(n); k.node; ast_next(&k)) {
    bool written = false;
    for (int i = 0; n->kind == N_ASSIGN && n->op == OP_NONE && i < n->list.n; i++)
      written |= n->list.items[i] == k.node && k.node->kind == N_IDENT;
    if (!written) c += reads_of(k.node, name);
  }
  return c;
}

/* The variable `t = e1` assigns when s is such a marked statement (no slice, no op=). */
static const Node *producer_target(const Node *s) {
  if (s->kind != N_ARRAYEXPR || s->a->kind != N_ASSIGN) return NULL;
  const ArrayExpr *E = s->aux;
  if (E->launch) return NULL;   /* its expression reads a kernel's local (ax_kv) */
  if (E->red != OP_NONE || E->target_leaf >= 0 || s->a->op != OP_NONE) return NULL;
  return E->target->kind == N_IDENT && E->target->slot >= 0 ? E->target : NULL;
}

/* The marked node under n that reads variable t as an operand, or NULL. */
static Node *consumer_of(Node *n, const Node *t) {
  if (!n || n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return NULL;
  if (n->kind == N_ARRAYEXPR) {
    const ArrayExpr *E = n->aux;
    for (int k = 0; k < E->nleaves; k++)
      if (same_variable(E->leaves[k], t)) return n;
    return consumer_of(n->a, t);
  }
  for (AstKids k = ast_kids(n); k.node; ast_next(&k)) {
    Node *c = consumer_of(k.node, t);
    if (c) return c;
  }
  return NULL;
}

/* Whether call's callee is a built-in of the runtime or of the interpreter (print, assert). */
static bool is_builtin_call(const Node *call) {
  const Node *f = call->a;
  if (f->kind != N_IDENT || f->slot >= 0 || !f->aux) return false;
  const Value *v = &((const Global *)f->aux)->value;
  return v->kind == V_FUNC && v->fn->kind != CALL_USER;
}

/* Whether evaluating n may run code that assigns variables (user functions, lambdas,
   assignments inside expressions). */
static bool may_assign(const Node *n, bool top) {
  if (!n) return false;
  if (n->kind == N_LAMBDA || (n->kind == N_ASSIGN && !top)) return true;
  if (n->kind == N_CALL && !is_builtin_call(n)) return true;
  if (n->kind == N_ARRAYEXPR) return may_assign(n->a, top);
  for (AstKids k = ast_kids(n); k.node; ast_next(&k))
    if (may_assign(k.node, false)) return true;
  return false;
}

/* Whether statement c writes, inside its kernel, an array that e1's statement p reads: a
   slice target x[...] = ... is written in place while the kernel runs (any other target is
   written after its right side is computed, and output_array sees the alias). */
static bool writes_operand(const Node *c, const Node *p) {
  if (c->kind != N_ARRAYEXPR) return false;
  const ArrayExpr *C = c->aux, *P = p->aux;
  if (C->target_leaf < 0) return false;
  const Node *t = C->target->a;
  for (int k = 0; k < P->nleaves; k++)
    if (reads_of(P->leaves[k], t->name)) return true;
  return false;
}

static bool launch_kills(const Ax *X, const Node *s, const char *name);

/* Whether s assigns the variable `name` a value computed without it (`t = e`), or, for the
   liveness of a launch's g (whose array still exists: a fused `t` does not), is a launch
   whose kernel writes g at every position without reading it (launch_kills). */
static bool kills(const Ax *X, const Node *s, const char *name) {
  const Node *a = s->kind == N_ARRAYEXPR ? s->a : s;
  if (launch_kills(X, s, name)) return true;
  return a->kind == N_ASSIGN && a->op == OP_NONE && a->list.n == 1 && a->list.items[0]->kind == N_IDENT &&
         !strcmp(a->list.items[0]->name, name) && !reads_of(s, name);
}

static bool has_return(const Node *n) {
  if (!n || n->kind == N_FUNCDEF || n->kind == N_LAMBDA) return false;
  if (n->kind == N_RETURN) return true;
  if (n->kind == N_ARRAYEXPR) return has_return(n->a);
  for (AstKids k = ast_kids(n); k.node; ast_next(&k))
    if (has_return(k.node)) return true;
  return false;
}

typedef enum Scan { SCAN_ON, SCAN_LIVE, SCAN_DEAD } Scan;

static Scan scan(const Ax *X, const NodeList *l, int from, int to, const char *name);

/* One statement: a kill, a read, or neither. A loop reads the value only if its test does or
   its body reads it before a kill (no iteration at all: on after it); an if reads it if its
   test or a branch does, and kills it when both branches do. */
static Scan scan_stmt(const Ax *X, const Node *s, const char *name) {
  if (kills(X, s, name)) return SCAN_DEAD;
  if (!reads_of(s, name)) return SCAN_ON;
  switch (s->kind) {
  case N_FOR: case N_WHILE:
    if (reads_of(s->a, name) || scan(X, &s->list, 0, s->list.n, name) == SCAN_LIVE) return SCAN_LIVE;
    return SCAN_ON;
  case N_IF: {
    if (reads_of(s->a, name)) return SCAN_LIVE;
    Scan a = scan(X, &s->list, 0, s->list.n, name), b = scan(X, &s->list2, 0, s->list2.n, name);
    if (a == SCAN_LIVE || b == SCAN_LIVE) return SCAN_LIVE;
    return a == SCAN_DEAD && b == SCAN_DEAD ? SCAN_DEAD : SCAN_ON;
  }
  default:
    return SCAN_LIVE;
  }
}

/* Statements from..to-1 of l in order: which comes first, a read of name or a kill. */
static Scan scan(const Ax *X, const NodeList *l, int from, int to, const char *name) {
  for (int j = from; j < to && j < l->n; j++) {
    Scan r = scan_stmt(X, l->items[j], name);
    if (r != SCAN_ON) return r;
  }
  return SCAN_ON;
}

/* Whether the value that the statement at the innermost list's position i gives `name` may
   be read after the statement at i + 1: by the statements after it, then (a loop body) the
   loop's test and the next iteration up to the statement itself, then (an if's branch, a
   block) those after the statement holding the list, outward; at the function's end, when
   it is an output. Conservative: a statement that reads it anywhere reads it. */
static bool live_after(const Ax *X, const char *name, bool output) {
  for (int f = X->nframes - 1; f >= 0; f--) {
    const LFrame *F = &X->frames[f];
    int from = F->i + (f == X->nframes - 1 ? 2 : 1);
    for (int j = from; output && j < F->l->n; j++)   /* a return there ends the function */
      if (has_return(F->l->items[j])) return true;
    Scan r = scan(X, F->l, from, F->l->n, name);
    if (r != SCAN_ON) return r == SCAN_LIVE;
    if (F->kind == LK_LOOP) {   /* the next iteration, or the loop ends: both paths */
      if (reads_of(F->owner->a, name) || scan(X, F->l, 0, F->i + 1, name) == SCAN_LIVE) return true;
    }
    if (F->kind == LK_FUNC) return output;
  }
  return output;
}

/* Whether a function or lambda defined in the statements of l mentions `name` (a closure
   may read it whenever it is called). */
static bool captured(const Node *n, const char *name) {
  if (!n) return false;
  if ((n->kind == N_FUNCDEF || n->kind == N_LAMBDA) && reads_of(n, name)) return true;
  if (n->kind == N_ARRAYEXPR) return captured(n->a, name);
  for (AstKids k = ast_kids(n); k.node; ast_next(&k))
    if (captured(k.node, name)) return true;
  return false;
}

/* Why p's `t = e1` cannot fuse into statement c (its consumer), or NULL. */
static const char *fusion_obstacle(Ax *X, const Node *p, const Node *c, const Node *t) {
  const Func *f = X->chain[X->nchain - 1];
  bool output = false;
  for (int i = 0; i < f->nouts; i++) output |= !strcmp(f->outs[i].name, t->name);
  if (t->depth != 0) return "it is a variable of an enclosing function";
  for (int i = 0; i < f->body.n; i++)
    if (captured(f->body.items[i], t->name)) return "a function or lambda defined here mentions it";
  int reads = reads_of(c, t->name);
  if (reads != 1) {
    char why[64];
    snprintf(why, sizeof why, "the statement reads it %d times", reads);
    return arena_strdup(X->P->arena, why);
  }
  const Node *ca = c->kind == N_ARRAYEXPR ? c->a : c;   /* t = f(t): c's own value replaces it */
  bool c_assigns_t = ca->kind == N_ASSIGN && ca->op == OP_NONE && ca->list.n == 1 &&
                     ca->list.items[0]->kind == N_IDENT && !strcmp(ca->list.items[0]->name, t->name);
  if (!c_assigns_t && live_after(X, t->name, output))
    return output ? "it may be the function's output" : "its value may be read later";
  if (may_assign(c, true)) return "the statement calls a function";
  if (writes_operand(c, p)) return "the statement assigns an operand of the first";
  return NULL;
}

/* A copy of template e with leaf "$k" numbered map[k] ("$skip" becomes `with`); the copies
   of the nodes in roots[] are stored in copies[]. */
static Node *renumber(Ax *X, const Node *e, const int *map, int skip, Node *with, Node **roots, Node **copies, int nroots) {
  if (e->kind == N_IDENT && e->name[0] == '$') {
    if ((int)e->ival == skip) return with;
    Node *id = ast_node(X->P->arena, N_IDENT, e->loc);
    char name[16];
    snprintf(name, sizeof name, "$%d", map[e->ival]);
    id->name = arena_strdup(X->P->arena, name);
    id->slot = -1;
    id->ival = map[e->ival];
    return id;
  }
  Node *c = ast_node(X->P->arena, e->kind, e->loc);
  *c = *e;
  if (e->a) c->a = renumber(X, e->a, map, skip, with, roots, copies, nroots);
  if (e->b) c->b = renumber(X, e->b, map, skip, with, roots, copies, nroots);
  if (e->c) c->c = renumber(X, e->c, map, skip, with, roots, copies, nroots);
  if (e->list.n) {
    c->list.items = arena_alloc(X->P->arena, e->list.n * sizeof *c->list.items);
    for (int i = 0; i < e->list.n; i++)
      c->list.items[i] = renumber(X, e->list.items[i], map, skip, with, roots, copies, nroots);
  }
  for (int i = 0; i < nroots; i++)
    if (roots[i] == e) copies[i] = c;
  return c;
}

/* Makes consumer node m (whose leaf kt is t) compute producer p's expression in place of t. */
static bool fuse_into(Ax *X, Node *m, int kt, Node *p) {
  ArrayExpr *C = m->aux;
  const ArrayExpr *P = p->aux;
  int mapc[MAX_LEAVES], mapp[MAX_LEAVES], n = 0;
  Node **leaves = arena_alloc(X->P->arena, (size_t)(C->nleaves + P->nleaves) * sizeof *leaves);
  for (int k = 0; k < C->nleaves; k++)
    if (k != kt) leaves[mapc[k] = n++] = C->leaves[k];
  for (int k = 0; k < P->nleaves; k++) {
    int j = 0;
    while (j < n && !same_variable(leaves[j], P->leaves[k])) j++;
    if (j == n) leaves[n++] = P->leaves[k];
    mapp[k] = j;
  }
  if (n > MAX_LEAVES) return false;
  ArrayExpr *before_fusion = arena_alloc(X->P->arena, sizeof *before_fusion);
  *before_fusion = *C;
  Node **fused = arena_alloc(X->P->arena, (size_t)(C->nfused + P->nfused + 1) * sizeof *fused);
  Node *e1 = renumber(X, P->expr, mapp, -1, NULL, P->fused, fused, P->nfused);
  /* C's fused expressions as they were (a chain of fusions has more of them than leaves;
     none at C's first fusion, and memcpy takes no NULL) */
  Node **before = arena_alloc(X->P->arena, (size_t)(C->nfused + 1) * sizeof *before);
  if (C->nfused) memcpy(before, C->fused, (size_t)C->nfused * sizeof *before);
  C->expr = renumber(X, C->expr, mapc, kt, e1, before, fused + P->nfused, C->nfused);
  fused[P->nfused + C->nfused] = e1;
  C->fused = fused;
  C->nfused += P->nfused + 1;
  if (C->target_leaf >= 0) C->target_leaf = mapc[C->target_leaf];
  C->leaves = leaves;
  C->nleaves = n;
  C->nslices = 0;
  for (int k = 0; k < n; k++) C->nslices += leaves[k]->kind == N_INDEX;
  C->producer = p;
  C->unfused = before_fusion;
  return true;
}

static void explain_fusion(Ax *X, const Node *c, const Node *p, const Node *t, const char *obstacle) {
  if (!X->opt->explain) return;
  const char *path = c->loc.file && c->loc.file->path ? c->loc.file->path : "?";
  if (obstacle)
    printf("%s:%d:%d: not fused with line %d: %s is not inlined (%s)\n", path, c->loc.line, c->loc.col,
           p->loc.line, t->name, obstacle);
  else
    printf("%s:%d:%d: fused with line %d: its kernel computes %s in place; %s never exists\n", path,
           c->loc.line, c->loc.col, p->loc.line, t->name, t->name);
}

/* Removes statement i of l (it now runs inside the next one), into a new array: another
   NodeList may share the old one (the script's body is the root's). */
static void drop_statement(Ax *X, NodeList *l, int i) {
  Node **items = arena_alloc(X->P->arena, (size_t)(l->n - 1) * sizeof *items);
  memcpy(items, l->items, (size_t)i * sizeof *items);
  memcpy(items + i, l->items + i + 1, (size_t)(l->n - i - 1) * sizeof *items);
  l->items = items;
  l->n--;
}

/* Fuses l->items[i] into l->items[i + 1] when it can; true when item i is gone. */
static bool fuse_next(Ax *X, NodeList *l, int i) {
  Node *p = l->items[i], *c = l->items[i + 1];
  const Node *t = producer_target(p);
  bool once = c->kind == N_ARRAYEXPR || c->kind == N_ASSIGN || c->kind == N_EXPR;   /* (not a loop's test) */
  Node *m = t && once ? consumer_of(c, t) : NULL;
  if (!m) return false;
  const char *obstacle = fusion_obstacle(X, p, c, t);
  int kt = 0;
  const ArrayExpr *C = m->aux;
  while (!same_variable(C->leaves[kt], t)) kt++;
  if (!obstacle && !fuse_into(X, m, kt, p)) obstacle = "too many operands";
  ArrayExpr *P = p->aux;
  if (!obstacle || !P->miss_told) explain_fusion(X, c, p, t, obstacle);
  P->miss_told |= obstacle != NULL;   /* (the pair is tried again after a fusion before it) */
  if (obstacle) return false;   /* (a statement fused into c before stays fused) */
  drop_statement(X, l, i);
  return true;
}

/* ---- fusing a kernel's launch with the statement after it ----

   `parallel_do(dims, args..., k)` followed by a marked statement C that reads k's written
   argument g: when k writes only g, as its last statement `g[pos] = e` (fusible_kernel), g
   is a local variable whose value dies in C (the liveness rule of `t` above: C reads it
   once, nothing after it before a kill; such a launch is a kill of g, launch_kills), and C
   cannot change the launch's arguments, C's kernel runs k's statements with e kept in a
   local and C's expression reading that local in place of g: one pass, g never written.
   The launch becomes C's producer: when the run-time guards say no, it runs first, then C as
   it was. */

static bool is_param(const Func *k, const char *name) {
  for (int i = 0; i < k->nparams; i++)
    if (!strcmp(k->params[i].name, name)) return true;
  return false;
}

/* A name the fused kernel gives its own variables (ax_out, ax0, ax_kv, ...). */
static bool is_ax_name(const char *name) {
  return name && name[0] == 'a' && name[1] == 'x' && (name[2] == '_' || (name[2] >= '0' && name[2] <= '9'));
}

/* Whether host function f (or one around it in the chain) has a variable of this name: a
   global that k reads would be that variable in a kernel resolved inside f. */
static bool shadowed(const Ax *X, const char *name) {
  for (int c = 0; c < X->nchain; c++) {
    const FuncInfo *fi = func_info(X->chain[c]);
    for (int s = 0; s < fi->nslots; s++)
      if (fi->slot_names[s] && !strcmp(fi->slot_names[s], name)) return true;
  }
  return false;
}

/* Why node n of k's body (not its last statement) keeps k from fusing, or NULL: it writes
   an array, a field or a parameter, returns, calls what is not a built-in of the runtime
   (user functions, syncthreads, shared memory, atomics), or names what the fused kernel
   would resolve otherwise. */
static const char *kernel_node_obstacle(const Ax *X, const Func *k, const Node *n) {
  if (!n) return NULL;
  switch (n->kind) {
  case N_INT: case N_REAL: case N_IMAG: case N_UNARY: case N_BINARY: case N_RANGE: case N_COND: case N_INDEX:
  case N_FIELD: case N_MATRIX: case N_TUPLE: case N_IF: case N_WHILE: case N_REPEAT: case N_BLOCK: case N_BREAK:
  case N_CONTINUE: case N_EXPR:
    break;
  case N_IDENT:
    if (barrier_kind(n) != BK_NONE) return "it waits for other threads";
    if (is_ax_name(n->name)) return "it has a name that starts with ax";
    if (n->slot < 0 && shadowed(X, n->name)) return "a name it reads is a variable of this function";
    break;
  case N_FOR:
    if (is_param(k, n->name) || is_ax_name(n->name)) return "a loop variable is a parameter or starts with ax";
    break;
  case N_ASSIGN:
    if (n->type && (n->type->mods & TM_CHECKED)) return "it checks indices (its errors name the kernel)";
    for (int i = 0; i < n->list.n; i++) {
      const Node *t = n->list.items[i];
      if (t->kind != N_IDENT) return "it writes another array";
      if (is_param(k, t->name)) return "it assigns a parameter";
    }
    break;
  case N_CALL:
    if (!builtin_callee(n)) return "it calls a function that is not a built-in";
    if (shadowed(X, n->a->name)) return "a name it reads is a variable of this function";
    for (int i = 0; i < n->list.n; i++) {
      const char *why = kernel_node_obstacle(X, k, n->list.items[i]);
      if (why) return why;
    }
    return NULL;   /* (its callee is a built-in's name) */
  case N_RETURN: return "it returns";
  default: return "it has a statement that fusion does not take";
  }
  for (AstKids c = ast_kids(n); c.node; ast_next(&c)) {
    const char *why = kernel_node_obstacle(X, k, c.node);
    if (why) return why;
  }
  return NULL;
}

/* Why kernel k cannot be fused with the statement after its launch, or NULL with *gparam
   the parameter g of its last statement `g[pos] = e`, which nothing else in k mentions. */
static const char *kernel_obstacle(const Ax *X, const Func *k, int *gparam) {
  if (k->nouts) return "it has outputs";
  if (k->ngenerics) return "it is generic";
  if (func_info((Func *)k)->captures) return "it reads variables of an enclosing function";
  bool pos = false;
  for (int i = 0; i < k->nparams; i++) {
    unsigned mods = k->params[i].type->mods;
    if (mods & TM_CHECKED) return "it checks indices (its errors name the kernel)";
    if (mods & ~(TM_BOUNDARY | TM_CONST | TM_NOCOPY))   /* (textures, half: reads differ) */
      return "a parameter has a texture, precision or memory modifier";
    if (!is_special_kernel_param(k->params[i].name)) continue;
    if (strcmp(k->params[i].name, "pos")) return "it takes blkpos, blkdim or another block parameter";
    pos = true;
  }
  if (!pos || !k->body.n) return "it has no pos parameter or no statement";
  const Node *last = k->body.items[k->body.n - 1];
  const Node *t = last->kind == N_ASSIGN && last->list.n == 1 ? last->list.items[0] : NULL;
  if (!t || last->op != OP_NONE || last->type || t->kind != N_INDEX || t->a->kind != N_IDENT || t->list.n != 1 ||
      t->list.items[0]->kind != N_IDENT || strcmp(t->list.items[0]->name, "pos"))
    return "its last statement is not g[pos] = e";
  const char *g = t->a->name;
  *gparam = -1;
  for (int i = 0; i < k->nparams; i++)
    if (!strcmp(k->params[i].name, g) && !is_special_kernel_param(g)) *gparam = i;
  if (*gparam < 0) return "its last statement writes no parameter";
  for (int i = 0; i + 1 < k->body.n; i++) {
    const char *why = kernel_node_obstacle(X, k, k->body.items[i]);
    if (why) return why;
    if (reads_of(k->body.items[i], g)) return "it reads the array it writes";
  }
  if (reads_of(last->b, g)) return "it reads the array it writes";
  return kernel_node_obstacle(X, k, last->b);
}

/* The function a launch's kernel argument names: a definition hoisted in one of the host
   functions around (slot), or a global. */
static Func *named_kernel(const Ax *X, const Node *id) {
  if (id->kind != N_IDENT) return NULL;
  if (id->slot < 0) {
    const Global *g = id->aux;
    if (!g || g->value.kind != V_FUNC || g->value.fn->kind != CALL_USER) return NULL;
    return g->value.fn->func;
  }
  int level = X->nchain - 1 - (int)id->depth;
  if (level < 0) return NULL;
  const FuncInfo *fi = func_info(X->chain[level]);
  for (int h = 0; h < fi->hoisted.n; h++)
    if (fi->hoisted.items[h]->slot == id->slot) return fi->hoisted.items[h]->func;
  return NULL;
}

/* Statement s's call when it is `parallel_do(dims, args..., k)` of a named __kernel__ k. */
static Node *launch_call(const Ax *X, const Node *s, Func **kernel) {
  if (s->kind != N_EXPR || !s->a || s->a->kind != N_CALL) return NULL;
  Node *call = s->a;
  const Node *f = call->a;
  if (f->kind != N_IDENT || f->slot >= 0 || !f->aux || strcmp(f->name, "parallel_do") || call->list.n < 2)
    return NULL;
  const Global *g = f->aux;
  if (g->value.kind != V_FUNC || g->value.fn->kind != CALL_IBUILTIN) return NULL;
  *kernel = named_kernel(X, call->list.items[call->list.n - 1]);
  return *kernel && (*kernel)->kind == FK_KERNEL ? call : NULL;
}

/* The launch's argument for k's parameter p (its arguments skip pos), or -1 when the
   launch's argument count is not k's. */
static int launch_arg_of(const Func *k, const Node *call, int p) {
  int a = 0, at = -1;
  for (int i = 0; i < k->nparams; i++) {
    if (is_special_kernel_param(k->params[i].name)) continue;
    if (i == p) at = a;
    a++;
  }
  return a == call->list.n - 2 ? at : -1;
}

/* The variable that a fusible kernel's launch in statement s writes, or NULL. */
static const Node *launch_target(const Ax *X, const Node *s, Func **kernel, Node **call) {
  int gparam;
  *call = launch_call(X, s, kernel);
  if (!*call || kernel_obstacle(X, *kernel, &gparam)) return NULL;
  int a = launch_arg_of(*kernel, *call, gparam);
  const Node *g = a >= 0 ? (*call)->list.items[1 + a] : NULL;
  return g && g->kind == N_IDENT && g->slot >= 0 ? g : NULL;
}

/* Whether statement s is the fusing launch `parallel_do(size(v), ...)` itself, run again (the
   next iteration of the TV loop): its kernel writes g at every position of the launch without
   reading it, so, as `g = e` does, it kills g's value, provided the launch covers all of g.
   It does whenever the statement it fuses with runs: that statement reads v as a whole array
   beside g, so a v of another shape stops it with its shape error before g is read (and
   nothing runs between the two). A different launch is no kill: it may cover part of g only,
   and the rest would then hold what the skipped write never wrote. */
static bool launch_kills(const Ax *X, const Node *s, const char *name) {
  Func *k;
  Node *call;
  if (!X->kill_call) return false;
  const Node *g = launch_target(X, s, &k, &call);
  if (!g || call != X->kill_call || strcmp(g->name, name) || reads_of(s, name) != 1) return false;
  const Node *dims = call->list.items[0];
  const char *f = dims->kind == N_CALL ? builtin_callee(dims) : NULL;
  if (!f || strcmp(f, "size") || dims->list.n != 1 || dims->list.items[0]->kind != N_IDENT) return false;
  const ArrayExpr *C = X->kill_stmt->aux;
  for (int i = 0; i < C->nleaves; i++)
    if (C->leaves[i]->kind == N_IDENT && same_variable(C->leaves[i], dims->list.items[0])) return true;
  return false;
}

/* Whether k names a variable `name` (a parameter, an assigned local, a loop variable). */
static bool kernel_variable(const Func *k, const Node *n, const char *name) {
  if (!n) return false;
  if (n->kind == N_FOR && !strcmp(n->name, name)) return true;
  if (n->kind == N_ASSIGN)
    for (int i = 0; i < n->list.n; i++)
      if (n->list.items[i]->kind == N_IDENT && !strcmp(n->list.items[i]->name, name)) return true;
  for (AstKids c = ast_kids(n); c.node; ast_next(&c))
    if (kernel_variable(k, c.node, name)) return true;
  return false;
}

/* A function that expression e calls whose name is a variable of k (in the fused kernel,
   k's variable would hide it), or NULL. */
static const char *hidden_call(const Func *k, const Node *e) {
  if (!e) return NULL;
  if (e->kind == N_CALL && e->a->kind == N_IDENT) {
    if (is_param(k, e->a->name)) return e->a->name;
    for (int i = 0; i < k->body.n; i++)
      if (kernel_variable(k, k->body.items[i], e->a->name)) return e->a->name;
  }
  for (AstKids c = ast_kids(e); c.node; ast_next(&c)) {
    const char *h = hidden_call(k, c.node);
    if (h) return h;
  }
  return NULL;
}

/* Why launch `call` of k cannot fuse with statement c (marked node, reads g: launch argument
   garg), or NULL; *write_g: g's value may be read after c (the kernel writes g too). */
static const char *launch_obstacle(Ax *X, const Func *k, const Node *call, const Node *c, int garg, const Node *g,
                                   bool *write_g) {
  const Func *f = X->chain[X->nchain - 1];
  if (g->kind != N_IDENT || g->slot < 0 || g->depth != 0) return "its array is not a variable of this function";
  if (call->list.n - 2 > MAX_LEAVES) return "too many arguments";
  if (!pure_index(call->list.items[0])) return "its size is not a plain expression";
  for (int a = 0; a < call->list.n - 2; a++) {
    const Node *arg = call->list.items[1 + a];
    bool plain = arg->kind == N_INT || arg->kind == N_REAL || (arg->kind == N_IDENT && is_leaf(arg));
    if (!plain) return "an argument is not a variable or a number";
    if (a != garg && same_variable(arg, g)) return "its array is passed twice";
  }
  if (reads_of(call->list.items[0], g->name)) return "its size reads the array";
  bool output = false;
  for (int i = 0; i < f->nouts; i++) output |= !strcmp(f->outs[i].name, g->name);
  *write_g = false;
  for (int i = 0; i < f->body.n; i++)
    *write_g |= captured(f->body.items[i], g->name);   /* (a closure may read it any time) */
  if (reads_of(c, g->name) != 1) return "the statement reads its array more than once";
  const Node *ca = c->a;
  bool c_assigns_g = ca->op == OP_NONE && ca->list.n == 1 && ca->list.items[0]->kind == N_IDENT &&
                     !strcmp(ca->list.items[0]->name, g->name);
  X->kill_call = call;
  X->kill_stmt = c;
  bool live = !c_assigns_g && live_after(X, g->name, output);
  X->kill_call = X->kill_stmt = NULL;
  *write_g |= live;
  if (may_assign(c, true)) return "the statement calls a function";
  const ArrayExpr *C = c->aux;
  if (hidden_call(k, C->expr)) return "the statement calls a function whose name is a variable of the kernel";
  if (C->target_leaf >= 0)
    for (int a = 0; a < call->list.n - 2; a++)
      if (reads_of(call->list.items[1 + a], C->target->a->name)) return "the statement writes an argument in place";
  return NULL;
}

static void explain_launch(Ax *X, const Node *c, const Node *call, const Func *k, const Node *g, const char *obstacle,
                           bool write_g) {
  if (!X->opt->explain) return;
  const char *path = c->loc.file && c->loc.file->path ? c->loc.file->path : "?";
  if (obstacle)
    printf("%s:%d:%d: not fused with parallel_do of %s (line %d): %s\n", path, c->loc.line, c->loc.col, k->name,
           call->loc.line, obstacle);
  else if (write_g)
    printf("%s:%d:%d: fused with parallel_do of %s (line %d): one kernel writes %s (read later) and reads it in "
           "place\n", path, c->loc.line, c->loc.col, k->name, call->loc.line, g->name);
  else
    printf("%s:%d:%d: fused with parallel_do of %s (line %d): one kernel computes %s's elements in place; %s is "
           "not written\n", path, c->loc.line, c->loc.col, k->name, call->loc.line, g->name, g->name);
}

/* C's expression with g's leaf (kt) read from the kernel's local ax_kv (ival kt: probes and
   guards see g's leaf). */
static void launch_expr(Ax *X, ArrayExpr *C, int kt) {
  int map[MAX_LEAVES];
  for (int k = 0; k < C->nleaves; k++) map[k] = k;
  Node *kv = ast_ident(X->P->arena, "ax_kv", C->expr->loc);
  kv->slot = -1;
  kv->ival = kt;
  Node **fused = arena_alloc(X->P->arena, (size_t)(C->nfused + 1) * sizeof *fused);
  C->expr = renumber(X, C->expr, map, kt, kv, C->fused, fused, C->nfused);
  C->fused = fused;
}

/* Fuses the launch at l->items[i] into the statement after it when it can; true when the
   launch is gone. */
static bool fuse_launch(Ax *X, NodeList *l, int i) {
  Node *s = l->items[i], *c = l->items[i + 1];
  Func *k;
  Node *call = launch_call(X, s, &k);
  if (!call || c->kind != N_ARRAYEXPR || c->a->kind != N_ASSIGN) return false;
  ArrayExpr *C = c->aux;
  if (C->launch || C->red != OP_NONE) return false;
  int nargs = call->list.n - 2, gparam = -1, garg = -1, kt = -1;
  for (int a = 0; a < nargs && kt < 0; a++)   /* the statement reads an argument: say why */
    for (int j = 0; j < C->nleaves; j++)
      if (same_variable(C->leaves[j], call->list.items[1 + a])) kt = j, garg = a;
  if (kt < 0) return false;
  const char *obstacle = kernel_obstacle(X, k, &gparam);
  int written = obstacle ? garg : launch_arg_of(k, call, gparam);   /* the argument k writes */
  if (written < 0) obstacle = "its argument count is not the kernel's";
  const Node *g = call->list.items[1 + garg];
  if (!obstacle && written != garg) {   /* the array k writes, if C reads it */
    garg = written;
    g = call->list.items[1 + garg];
    for (kt = 0; kt < C->nleaves && !same_variable(C->leaves[kt], g); kt++) {}
    if (kt == C->nleaves) return false;
  }
  bool write_g = false;
  if (!obstacle) obstacle = launch_obstacle(X, k, call, c, garg, g, &write_g);
  if (!obstacle || !C->launch_miss_told) explain_launch(X, c, call, k, g, obstacle, write_g);
  C->launch_miss_told |= obstacle != NULL;
  if (obstacle) return false;
  ArrayExpr *before = arena_alloc(X->P->arena, sizeof *before);
  *before = *C;
  KernelFusion *L = arena_alloc(X->P->arena, sizeof *L);
  *L = (KernelFusion){.kernel = k, .call = call, .dims = call->list.items[0], .args = call->list.items + 1,
                      .nargs = nargs, .garg = garg, .gparam = gparam, .gleaf = kt, .write_g = write_g};
  L->leaf_param = arena_alloc(X->P->arena, (size_t)C->nleaves * sizeof *L->leaf_param);
  for (int j = 0; j < C->nleaves; j++) {
    L->leaf_param[j] = -1;
    for (int p = 0; p < k->nparams && j != kt && C->leaves[j]->kind == N_IDENT; p++) {
      int a = launch_arg_of(k, call, p);
      if (a >= 0 && a != garg && !is_special_kernel_param(k->params[p].name) &&
          same_variable(C->leaves[j], call->list.items[1 + a]))
        L->leaf_param[j] = p;
    }
  }
  launch_expr(X, C, kt);
  C->launch = L;
  C->producer = s;
  C->unfused = before;
  drop_statement(X, l, i);
  return true;
}

static void walk_list(Ax *X, NodeList *l, ListKind kind, const Node *owner) {
  if (X->nframes == (int)(sizeof X->frames / sizeof *X->frames)) return;
  LFrame *F = &X->frames[X->nframes++];
  *F = (LFrame){.l = l, .kind = kind, .owner = owner};
  for (F->i = 0; F->i < l->n; F->i++) l->items[F->i] = walk_stmt(X, l->items[F->i]);
  for (F->i = 0; F->i + 1 < l->n; F->i++)
    if (fuse_launch(X, l, F->i) || fuse_next(X, l, F->i))
      F->i = F->i > 0 ? F->i - 2 : F->i - 1;   /* the pair before it may fuse now */
  X->nframes--;
}

void arrayexpr_transform(Program *P, const InterpOptions *opt) {
  if (opt->target == TARGET_INTERP && !opt->explain) return;
  if (P->nreductions) return;   /* a `reduction` may replace any call, at run time */
  Ax X = {.P = P, .opt = opt};
  find_device_functions(&X);
  X.chain[X.nchain++] = P->script;
  walk_list(&X, &P->script->body, LK_FUNC, NULL);
  walk_list(&X, &P->root->list2, LK_FUNC, NULL);   /* imported definitions */
}
