/* transform_parloop.c: automatic parallelization of host loop nests, on the resolved tree.

   A nest is a `for` over a range whose body is one more `for` (code attributes aside), up
   to three deep; an inner range joins the nest only when it uses neither the outer loop
   variables nor anything the loop assigns, and calls nothing but built-ins. The nest runs
   as a kernel over its iteration space when the analysis below finds the iterations
   independent, or when `!parallel for` precedes it (the user asserts that the array
   accesses are independent; the other rules still hold). The kernel is a copy of the
   innermost body after the loop variables computed from `pos`; variables the body assigns
   become the kernel's locals, the others are captured, reductions become its outputs, and
   the nest's code attributes move to its start. An N_PARLOOP node replaces the nest; it
   keeps the original loop for the run-time guards (interp.c, exec_parloop).

   The rules (docs/language.md, "Parallel loops"), checked by name within the function:
   - calls: built-ins that compiled kernels implement, and __device__ functions;
   - no return, function definition, or break/continue of the nest itself;
   - a variable the body assigns is private: assigned before it is read in each iteration,
     and not read after the loop (before it is assigned again);
   - a variable only updated by `s += e` (-=, *=, ^^=, __=, s = s + e, s = s * e,
     s = max(s, e), s = min(s, e)) and read nowhere else in the loop is a reduction;
   - element assignments `A[i, j] = e`: every loop variable of the nest is an index by
     itself (plus a constant) in the first such assignment, and every other access to A in
     the loop has the same expression at those positions, so each iteration touches only
     elements no other iteration touches;
   - compound assignments to elements (`A[v] += 1`) are atomic: any index, as long as the
     loop reads A no other way. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/kernel_ir.h"
#include "kernel/facts.h"
#include "front/transform.h"
#include "interp/parloop.h"

#define MAX_NEST 3
#define MAX_RED 8      /* kernel outputs (OQK_MAX_OUTS) */

typedef struct Var {
  const char *name;
  Node *id;            /* an identifier of it in the loop, resolved in the host function */
  bool assigned;       /* assigned as a whole (not by a reduction form): private */
  bool accum;          /* updated by a reduction form */
  Op accum_op;         /* OP_ADD, OP_MUL, OP_MAX, OP_MIN; OP_NONE when they differ */
  int line;            /* first assignment or update */
} Var;

/* An access to an array the loop does not assign as a whole. */
typedef struct Access {
  int var;
  Node *index;         /* N_INDEX, or NULL: the array used as a whole */
  bool write;
  Op op;               /* writes: OP_NONE for `=`, else atomic */
  int line;
} Access;

typedef struct Nest {
  Node *fors[MAX_NEST]; int D;
  bool forced;
  Node *attrs[32]; int nattrs;
  Var vars[256]; int nvars;
  Access acc[512]; int nacc;
  int depth;           /* loops inside the body around the statement being walked */
  char inner[120];     /* why a loop right inside the nest did not join it */
  char why[320];       /* the first reason it stays serial */
} Nest;

/* Where the walk is in the current function: the statement lists around the loop. */
typedef struct Level { NodeList *list; int i; Node *owner; } Level;

typedef struct Px {
  Program *P;
  const InterpOptions *opt;
  Func *chain[64]; int nchain;
  Level path[128]; int npath;
  int base;            /* path[base] is the body of the current function */
  Nest *nest;          /* the nest being analyzed (large: off the stack of the recursive walk) */
} Px;

static void refuse(Nest *N, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void refuse(Nest *N, const char *fmt, ...) {
  if (N->why[0]) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(N->why, sizeof N->why, fmt, ap);
  va_end(ap);
}

/* ---- variables ---- */

static int var_of(Nest *N, Node *id) {
  for (int i = 0; i < N->nvars; i++)
    if (!strcmp(N->vars[i].name, id->name)) return i;
  if (N->nvars == (int)(sizeof N->vars / sizeof *N->vars)) {
    refuse(N, "the loop uses too many variables");
    return 0;
  }
  N->vars[N->nvars] = (Var){.name = id->name, .id = id, .line = id->loc.line};
  return N->nvars++;
}

static int nest_var(Nest *N, const char *name) {
  for (int d = 0; d < N->D; d++)
    if (!strcmp(N->fors[d]->name, name)) return d;
  return -1;
}

static bool is_reduction(const Var *v) { return v->accum && !v->assigned; }

/* `s += e` and the forms that mean the same; *op is the operator that combines. */
static bool accum_form(Node *s, Node **target, Op *op, Node **e, bool *negate) {
  if (s->kind != N_ASSIGN || s->list.n != 1 || !s->b || s->type) return false;
  Node *t = s->list.items[0], *b = s->b;
  if (t->kind != N_IDENT) return false;
  *target = t;
  *negate = false;
  switch (s->op) {
  case OP_ADD: case OP_MUL: case OP_MAX: case OP_MIN: *op = s->op; *e = b; return true;
  case OP_SUB: *op = OP_ADD; *e = b; *negate = true; return true;
  case OP_NONE: break;
  default: return false;
  }
  bool is_t_a = b->a && b->a->kind == N_IDENT && !strcmp(b->a->name, t->name);
  bool is_t_b = b->b && b->b->kind == N_IDENT && !strcmp(b->b->name, t->name);
  if (b->kind == N_BINARY && (b->op == OP_ADD || b->op == OP_MUL || b->op == OP_EMUL)) {
    if (!is_t_a && !is_t_b) return false;
    *op = b->op == OP_ADD ? OP_ADD : OP_MUL;
    *e = is_t_a ? b->b : b->a;
    return true;
  }
  if (b->kind == N_BINARY && b->op == OP_SUB && is_t_a) {
    *op = OP_ADD, *e = b->b, *negate = true;
    return true;
  }
  if (b->kind == N_CALL && b->a->kind == N_IDENT && b->a->slot < 0 && b->list.n == 2 &&
      (!strcmp(b->a->name, "max") || !strcmp(b->a->name, "min"))) {
    Node *x = b->list.items[0], *y = b->list.items[1];
    bool tx = x->kind == N_IDENT && !strcmp(x->name, t->name);
    bool ty = y->kind == N_IDENT && !strcmp(y->name, t->name);
    if (tx == ty) return false;
    *op = !strcmp(b->a->name, "max") ? OP_MAX : OP_MIN;
    *e = tx ? y : x;
    return true;
  }
  return false;
}

/* Pass 1: which variables the body assigns, and which it only accumulates into. */
static void collect(Nest *N, Node *n) {
  if (!n) return;
  Node *t, *e;
  Op op;
  bool neg;
  if (n->kind == N_ASSIGN && accum_form(n, &t, &op, &e, &neg) && !mentions_var(e, var_named(t->name))) {
    Var *v = &N->vars[var_of(N, t)];
    if (!v->accum) v->accum_op = op, v->line = n->loc.line;
    else if (v->accum_op != op) v->accum_op = OP_NONE;
    v->accum = true;
  } else if (n->kind == N_ASSIGN) {
    for (int i = 0; i < n->list.n; i++)
      if (n->list.items[i]->kind == N_IDENT) {
        Var *v = &N->vars[var_of(N, n->list.items[i])];
        if (!v->assigned && !v->accum) v->line = n->loc.line;
        v->assigned = true;
      }
  } else if (n->kind == N_FOR) {
    Node id = {.kind = N_IDENT, .name = n->name, .loc = n->loc};
    Var *v = &N->vars[var_of(N, &id)];
    if (v->id == &id) v->id = NULL;
    v->assigned = true;
  }
  for (AstKids it = ast_kids(n); it.node; ast_next(&it)) collect(N, it.node);
}

/* ---- pass 2: the body in order, with the private variables assigned so far ---- */

typedef struct Defs { bool d[256]; } Defs;

static void walk_list(Px *X, Nest *N, NodeList *l, Defs *def);
static void expr(Px *X, Nest *N, Node *n, Defs *def);

static void add_access(Nest *N, int var, Node *index, bool write, Op op, int line) {
  if (N->nacc == (int)(sizeof N->acc / sizeof *N->acc)) {
    refuse(N, "the loop has too many array accesses to analyze");
    return;
  }
  N->acc[N->nacc++] = (Access){var, index, write, op, line};
}

static void read_var(Nest *N, Node *id, Defs *def) {
  if (id->slot < 0 || nest_var(N, id->name) >= 0) return;
  int k = var_of(N, id);
  Var *v = &N->vars[k];
  if (is_reduction(v))
    refuse(N, "%s is accumulated (line %d) and also read (line %d): not a reduction", v->name,
           v->line, id->loc.line);
  else if (v->assigned && !def->d[k])
    refuse(N, "%s is read (line %d) before it is assigned in the iteration: it carries a value "
           "from one iteration to the next (assigned at line %d)", v->name, id->loc.line, v->line);
  else if (!v->assigned)
    add_access(N, k, NULL, false, OP_NONE, id->loc.line);
}

/* The function a call reaches, when it is a named function of the program. */
static Func *known_func(Px *X, Node *id) {
  if (id->kind != N_IDENT || id->slot < 0 || id->depth >= X->nchain) return NULL;
  FuncInfo *fi = func_info(X->chain[X->nchain - 1 - id->depth]);
  for (int i = 0; i < fi->hoisted.n; i++)
    if (fi->hoisted.items[i]->slot == id->slot) return fi->hoisted.items[i]->func;
  return NULL;
}

static bool is_shape_call(Node *call) {
  Node *f = call->a;
  return f->kind == N_IDENT && f->slot < 0 && call->list.n >= 1 &&
         call->list.items[0]->kind == N_IDENT &&
         (!strcmp(f->name, "size") || !strcmp(f->name, "numel") || !strcmp(f->name, "ndims"));
}

static void call(Px *X, Nest *N, Node *n, Defs *def) {
  Node *f = n->a;
  int line = n->loc.line;
  if (f->kind != N_IDENT) {
    refuse(N, "calls a computed function (line %d)", line);
  } else if (f->slot < 0) {
    if (is_barrier(barrier_kind(n)) || !strcmp(f->name, "shared") || !strcmp(f->name, "shared_zeros"))
      refuse(N, "uses %s (line %d), which belongs in kernels", f->name, line);
    else if (!ksema_device_builtin(f->name))
      refuse(N, "calls %s (line %d), which cannot run in a kernel", f->name, line);
    for (int i = 0; i < X->P->nreductions; i++)
      if (!strcmp(X->P->reductions[i].fname, f->name))
        refuse(N, "calls %s (line %d), which a `reduction` may replace by host code", f->name, line);
  } else {
    Func *fn = known_func(X, f);
    if (!fn || fn->kind == FK_HOST)
      refuse(N, "calls %s (line %d), which is not a __device__ function", f->name, line);
    else if (fn->kind != FK_DEVICE)
      refuse(N, "calls %s (line %d), which cannot run in a kernel", f->name, line);
  }
  int from = 0;
  if (is_shape_call(n)) {   /* size(A, d) reads no element: A may be written */
    Node *a = n->list.items[0];
    if (a->slot >= 0 && nest_var(N, a->name) < 0 && N->vars[var_of(N, a)].assigned) read_var(N, a, def);
    from = 1;
  }
  for (int i = from; i < n->list.n; i++) expr(X, N, n->list.items[i], def);
}

/* An element access A[...]: a read, or a write with op (OP_NONE for `=`). */
static void element(Px *X, Nest *N, Node *ix, bool write, Op op, Defs *def) {
  for (int i = 0; i < ix->list.n; i++)
    if (ix->list.items[i]->kind != N_COLON) expr(X, N, ix->list.items[i], def);
  Node *base = ix->a;
  if (base->kind != N_IDENT) {
    if (write) refuse(N, "assigns to an element of an expression (line %d)", ix->loc.line);
    else expr(X, N, base, def);
    return;
  }
  if (base->slot < 0) {
    if (write) refuse(N, "assigns to an element of %s (line %d)", base->name, ix->loc.line);
    return;
  }
  int k = var_of(N, base);
  if (N->vars[k].assigned || nest_var(N, base->name) >= 0) { read_var(N, base, def); return; }
  if (is_reduction(&N->vars[k]))
    refuse(N, "%s is accumulated (line %d) and also indexed (line %d)", base->name,
           N->vars[k].line, ix->loc.line);
  add_access(N, k, ix, write, op, ix->loc.line);
}

static void assign(Px *X, Nest *N, Node *n, Defs *def, bool as_expr) {
  Node *t, *e;
  Op op;
  bool neg;
  if (!as_expr && accum_form(n, &t, &op, &e, &neg) && is_reduction(&N->vars[var_of(N, t)])) {
    expr(X, N, e, def);
    return;
  }
  expr(X, N, n->b, def);
  for (int i = 0; i < n->list.n; i++) {
    Node *tg = n->list.items[i];
    if (tg->kind == N_INDEX) {
      element(X, N, tg, true, n->op, def);
    } else if (tg->kind == N_IDENT) {
      if (as_expr) refuse(N, "assigns %s inside an expression (line %d)", tg->name, n->loc.line);
      if (nest_var(N, tg->name) >= 0)
        refuse(N, "the loop variable %s is assigned in the body (line %d)", tg->name, n->loc.line);
      if (n->op != OP_NONE) read_var(N, tg, def);
      def->d[var_of(N, tg)] = true;
    } else {
      refuse(N, "assigns to a field (line %d)", n->loc.line);
    }
  }
}

static void expr(Px *X, Nest *N, Node *n, Defs *def) {
  if (!n) return;
  switch (n->kind) {
  case N_IDENT: read_var(N, n, def); return;
  case N_CALL: call(X, N, n, def); return;
  case N_INDEX: element(X, N, n, false, OP_NONE, def); return;
  case N_ASSIGN: assign(X, N, n, def, true); return;
  case N_EXCHANGE:
    expr(X, N, n->b, def);
    if (n->a->kind == N_INDEX) element(X, N, n->a, true, OP_BXOR /* atomic */, def);
    else refuse(N, "'<-' on a variable (line %d)", n->loc.line);
    return;
  case N_LAMBDA: refuse(N, "defines a function (line %d)", n->loc.line); return;
  case N_FIELD: refuse(N, "uses a field (line %d)", n->loc.line); return;
  default:
    expr(X, N, n->a, def);
    expr(X, N, n->b, def);
    expr(X, N, n->c, def);
    for (int i = 0; i < n->list.n; i++) expr(X, N, n->list.items[i], def);
    for (int i = 0; i < n->list2.n; i++) expr(X, N, n->list2.items[i], def);
    return;
  }
}

static void meet(Defs *a, const Defs *b) {
  for (int i = 0; i < 256; i++) a->d[i] = a->d[i] && b->d[i];
}

static void stmt(Px *X, Nest *N, Node *n, Defs *def) {
  switch (n->kind) {
  case N_ASSIGN: assign(X, N, n, def, false); return;
  case N_EXPR: expr(X, N, n->a, def); return;
  case N_IF: {
    expr(X, N, n->a, def);
    Defs other = *def;
    walk_list(X, N, &n->list, def);
    walk_list(X, N, &n->list2, &other);
    meet(def, &other);
    return;
  }
  case N_FOR: case N_WHILE: {   /* the body may not run: what it assigns is not assigned after */
    expr(X, N, n->a, def);
    Defs inner = *def;
    if (n->kind == N_FOR && nest_var(N, n->name) >= 0)   /* after it the name holds its last value */
      refuse(N, "the loop variable %s is assigned in the body: a loop over it (line %d)", n->name, n->loc.line);
    if (n->kind == N_FOR) {
      Node id = {.kind = N_IDENT, .name = n->name, .loc = n->loc};
      inner.d[var_of(N, &id)] = true;
    }
    N->depth++;
    walk_list(X, N, &n->list, &inner);
    N->depth--;
    return;
  }
  case N_REPEAT:
    N->depth++;
    walk_list(X, N, &n->list, def);
    N->depth--;
    expr(X, N, n->a, def);
    return;
  case N_MATCH: {   /* assigned after it: in every case, and before it when no `_` case */
    expr(X, N, n->a, def);
    Defs all = *def, before = *def;
    bool has_default = false;
    for (int i = 0; i < n->ncases; i++) {
      Defs c = before;
      expr(X, N, n->cases[i].pattern, &c);
      has_default |= !n->cases[i].pattern;
      walk_list(X, N, &n->cases[i].body, &c);
      if (i == 0) all = c;
      else meet(&all, &c);
    }
    if (!has_default) meet(&all, &before);
    *def = all;
    return;
  }
  case N_BREAK: case N_CONTINUE:   /* `continue` of the nest ends a thread (continue_returns) */
    if (!N->depth && n->kind == N_BREAK) refuse(N, "'break' (line %d) ends the loop early", n->loc.line);
    memset(def->d, 1, sizeof def->d);   /* nothing after it runs: every name counts as assigned */
    return;
  case N_RETURN: refuse(N, "returns from inside the loop (line %d)", n->loc.line); return;
  case N_BLOCK: walk_list(X, N, &n->list, def); return;
  case N_ATTR: return;
  case N_FUNCDEF: case N_MACRO: case N_REDUCTION: case N_TYPEDEF: case N_IMPORT: case N_PARLOOP:
    refuse(N, "holds a definition (line %d)", n->loc.line);
    return;
  default: expr(X, N, n, def); return;
  }
}

static void walk_list(Px *X, Nest *N, NodeList *l, Defs *def) {
  for (int i = 0; i < l->n; i++) stmt(X, N, l->items[i], def);
}

/* ---- the arrays ---- */

/* e uses no loop variable of the nest and nothing the body assigns. */
static bool invariant(Nest *N, const Node *e) {
  for (int d = 0; d < N->D; d++) if (mentions_var(e, var_named(N->fors[d]->name))) return false;
  for (int i = 0; i < N->nvars; i++) if (N->vars[i].assigned && mentions_var(e, var_named(N->vars[i].name))) return false;
  return true;
}

/* The nest variable that index expression e is, plus or minus an invariant term; -1 if none. */
static int pure_index(Nest *N, const Node *e) {
  if (e->kind == N_IDENT) return nest_var(N, e->name);
  if (e->kind != N_BINARY || (e->op != OP_ADD && e->op != OP_SUB)) return -1;
  if (e->a->kind == N_IDENT && nest_var(N, e->a->name) >= 0 && invariant(N, e->b))
    return nest_var(N, e->a->name);
  if (e->op == OP_ADD && e->b->kind == N_IDENT && nest_var(N, e->b->name) >= 0 && invariant(N, e->a))
    return nest_var(N, e->b->name);
  return -1;
}

static bool same_expr(const Node *a, const Node *b) {
  if (!a || !b) return a == b;
  if (a->kind != b->kind || a->op != b->op || a->list.n != b->list.n) return false;
  switch (a->kind) {
  case N_IDENT: return !strcmp(a->name, b->name);
  case N_INT: return a->ival == b->ival;
  case N_REAL: return a->rval == b->rval;
  case N_STRING: return !strcmp(a->str, b->str);
  default: break;
  }
  if (!same_expr(a->a, b->a) || !same_expr(a->b, b->b) || !same_expr(a->c, b->c)) return false;
  for (int i = 0; i < a->list.n; i++) if (!same_expr(a->list.items[i], b->list.items[i])) return false;
  return true;
}

static const char *loop_vars(Nest *N, char *buf, size_t size) {
  buf[0] = 0;
  for (int d = 0; d < N->D; d++)
    snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", d ? ", " : "", N->fors[d]->name);
  return buf;
}

/* e as loop variable + constant: *d the variable, *off the constant. */
static bool offset_form(Nest *N, const Node *e, int *d, int64_t *off) {
  if (e->kind == N_IDENT) { *off = 0; return (*d = nest_var(N, e->name)) >= 0; }
  if (e->kind != N_BINARY || (e->op != OP_ADD && e->op != OP_SUB)) return false;
  if (e->a->kind == N_IDENT && e->b->kind == N_INT) {
    *off = e->op == OP_ADD ? e->b->ival : -e->b->ival;
    return (*d = nest_var(N, e->a->name)) >= 0;
  }
  if (e->op == OP_ADD && e->a->kind == N_INT && e->b->kind == N_IDENT) {
    *off = e->a->ival;
    return (*d = nest_var(N, e->b->name)) >= 0;
  }
  return false;
}

/* Array `name` is written by w and accessed by a at another element of the same owner. */
static void carried(Nest *N, const char *name, Access *w, Access *a, const bool *owned) {
  const char *how = a->write ? "assigned again" : "read";
  for (int p = 0; p < w->index->list.n && p < OQ_MAX_RANK; p++) {
    int dw, da;
    int64_t ow, oa;
    if (!owned[p] || !offset_form(N, w->index->list.items[p], &dw, &ow) ||
        !offset_form(N, a->index->list.items[p], &da, &oa) || dw != da || ow == oa)
      continue;
    /* the element iteration v writes as v+ow, iteration v+ow-oa reaches as (v+ow-oa)+oa */
    const char *v = N->fors[dw]->name;
    refuse(N, "%s is assigned in iteration %s (line %d) and %s in iteration %s%+lld (line %d)",
           name, v, w->line, how, v, (long long)(ow - oa), a->line);
    return;
  }
  refuse(N, "%s is assigned in one iteration (line %d) and %s at another index (line %d): "
         "iterations depend on each other", name, w->line, how, a->line);
}

/* Each iteration touches only its own elements of array k. */
static void check_array(Nest *N, int k) {
  Access *w = NULL, *u = NULL;
  for (int i = 0; i < N->nacc; i++) {
    Access *a = &N->acc[i];
    if (a->var != k || !a->write) continue;
    if (a->op == OP_NONE && !w) w = a;
    if (a->op != OP_NONE && !u) u = a;
  }
  if (!w && !u) return;
  const char *name = N->vars[k].name;
  if (w && u) {
    refuse(N, "%s is assigned (line %d) and updated (line %d) in the loop", name, w->line, u->line);
    return;
  }
  bool owned[OQ_MAX_RANK] = {0}, covered[MAX_NEST] = {0};
  if (w) {
    for (int p = 0; p < w->index->list.n && p < OQ_MAX_RANK; p++) {
      int d = pure_index(N, w->index->list.items[p]);
      if (d >= 0) owned[p] = covered[d] = true;
    }
    char vars[64];
    for (int d = 0; d < N->D; d++)
      if (!covered[d]) {
        refuse(N, "the assignment to %s (line %d) is not indexed by each loop variable (%s) on its "
               "own: iterations may write the same element", name, w->line, loop_vars(N, vars, sizeof vars));
        return;
      }
  }
  for (int i = 0; i < N->nacc; i++) {
    Access *a = &N->acc[i];
    if (a->var != k || a == w) continue;
    if (!a->index) {
      refuse(N, "%s is used as a whole (line %d) while the loop writes its elements (line %d)",
             name, a->line, (w ? w : u)->line);
      return;
    }
    if (u && !a->write) {
      refuse(N, "%s is updated (line %d) and read (line %d): the read sees other iterations' updates",
             name, u->line, a->line);
      return;
    }
    if (!w) continue;
    bool same = a->index->list.n == w->index->list.n;
    for (int p = 0; same && p < w->index->list.n && p < OQ_MAX_RANK; p++)
      if (owned[p]) same = same_expr(a->index->list.items[p], w->index->list.items[p]);
    if (!same) {
      carried(N, name, w, a, owned);
      return;
    }
  }
}

/* Reductions: each variable with one operator (its kernel output combines by it). */
static void check_reductions(Nest *N) {
  int count = 0;
  for (int k = 0; k < N->nvars; k++) {
    Var *v = &N->vars[k];
    if (!is_reduction(v)) continue;
    if (v->accum_op == OP_NONE) {
      refuse(N, "%s is accumulated with different operators", v->name);
      return;
    }
    if (++count > MAX_RED) refuse(N, "more than %d reductions", MAX_RED);
  }
}

/* "s (+=), m (^^=)": the reduction variables of the loop and their operators, into buf. */
static void reductions_text(Nest *N, const NodeList *reds, char *buf, size_t size) {
  for (int i = 0; i < reds->n; i++)
    snprintf(buf + strlen(buf), size - strlen(buf), "%s%s (%s=)", i ? ", " : "", reds->items[i]->name,
             op_name(N->vars[var_of(N, reds->items[i])].accum_op));
}

/* ---- private variables are not read after the loop ---- */

/* A read of name in n; the bodies of loops over name don't count (they assign it first). */
static Node *read_in(const Node *n, const char *name) {
  if (!n) return NULL;
  if (n->kind == N_IDENT) return !strcmp(n->name, name) ? (Node *)n : NULL;
  Node *r;
  if (n->kind == N_FOR && !strcmp(n->name, name)) return read_in(n->a, name);
  if (n->kind == N_ASSIGN && n->op == OP_NONE) {   /* a plain target is not a read */
    for (int i = 0; i < n->list.n; i++)
      if (n->list.items[i]->kind != N_IDENT && (r = read_in(n->list.items[i], name))) return r;
  } else {
    for (int i = 0; i < n->list.n; i++) if ((r = read_in(n->list.items[i], name))) return r;
  }
  if ((r = read_in(n->a, name)) || (r = read_in(n->b, name)) || (r = read_in(n->c, name))) return r;
  for (int i = 0; i < n->list2.n; i++) if ((r = read_in(n->list2.items[i], name))) return r;
  for (int i = 0; i < n->ncases; i++) {
    if ((r = read_in(n->cases[i].pattern, name))) return r;
    for (int j = 0; j < n->cases[i].body.n; j++) if ((r = read_in(n->cases[i].body.items[j], name))) return r;
  }
  if (n->func && (n->kind == N_FUNCDEF || n->kind == N_LAMBDA))
    for (int i = 0; i < n->func->body.n; i++) if ((r = read_in(n->func->body.items[i], name))) return r;
  return NULL;
}

static bool kills(const Node *s, const char *name) {
  return s->kind == N_ASSIGN && s->op == OP_NONE && s->list.n == 1 && s->b &&
         s->list.items[0]->kind == N_IDENT && !strcmp(s->list.items[0]->name, name) &&
         !read_in(s->b, name);
}

static bool is_loop(const Node *n) {
  return n && (n->kind == N_FOR || n->kind == N_WHILE || n->kind == N_REPEAT || n->kind == N_PARLOOP);
}

/* A read of name that can run after the loop and see its value: later in an enclosing
   statement list before a plain assignment of name, or anywhere in an enclosing loop. */
static Node *read_after(Px *X, const char *name) {
  for (int lv = X->npath - 1; lv >= X->base; lv--) {
    Level *L = &X->path[lv];
    for (int i = L->i + 1; i < L->list->n; i++) {
      if (kills(L->list->items[i], name)) return NULL;
      Node *r = read_in(L->list->items[i], name);
      if (r) return r;
    }
    if (is_loop(L->owner)) {
      for (int i = 0; i < L->i; i++) {
        Node *r = read_in(L->list->items[i], name);
        if (r) return r;
      }
      Node *r = L->owner->kind == N_FOR ? NULL : read_in(L->owner->a, name);
      if (r) return r;
    }
  }
  return NULL;
}

static void check_private(Px *X, Nest *N) {
  Func *f = X->chain[X->nchain - 1];
  for (int k = 0; k < N->nvars && !N->why[0]; k++) {
    Var *v = &N->vars[k];
    if (!v->assigned) continue;
    for (int o = 0; o < f->nouts; o++)
      if (!strcmp(f->outs[o].name, v->name))
        refuse(N, "%s is assigned in the loop (line %d) and is an output of %s", v->name, v->line, f->name);
    Node *r = read_after(X, v->name);
    if (r)
      refuse(N, "%s is assigned in the loop (line %d) and read after it (line %d)", v->name,
             v->line, r->loc.line);
  }
}

/* ---- the nest ---- */

/* A range evaluated once before the launch: built-ins and loop-invariant names only. */
static bool invariant_range(Nest *N, Node *e, NodeList *outer_body) {
  if (!e) return true;
  if (e->kind == N_IDENT) {
    if (nest_var(N, e->name) >= 0) return false;
    for (int i = 0; i < outer_body->n; i++) {
      Nest tmp = {0};
      collect(&tmp, outer_body->items[i]);
      for (int k = 0; k < tmp.nvars; k++)
        if ((tmp.vars[k].assigned || tmp.vars[k].accum) && !strcmp(tmp.vars[k].name, e->name)) return false;
    }
    return true;
  }
  if (e->kind == N_CALL && (e->a->kind != N_IDENT || e->a->slot >= 0 || !ksema_device_builtin(e->a->name)))
    return false;
  if (e->kind == N_ASSIGN || e->kind == N_LAMBDA || e->kind == N_EXCHANGE) return false;
  if (e->kind != N_CALL && !invariant_range(N, e->a, outer_body)) return false;
  if (!invariant_range(N, e->b, outer_body) || !invariant_range(N, e->c, outer_body)) return false;
  for (int i = 0; i < e->list.n; i++) if (!invariant_range(N, e->list.items[i], outer_body)) return false;
  return true;
}

static void add_attr(Nest *N, Node *a) {
  if (N->nattrs < (int)(sizeof N->attrs / sizeof *N->attrs)) N->attrs[N->nattrs++] = a;
}

/* The loops of the nest, from the outer one; its attributes. */
static void build_nest(Nest *N, Node *outer) {
  Node *f = outer;
  for (;;) {
    N->fors[N->D++] = f;
    Node *inner = NULL;
    int others = 0;
    for (int i = 0; i < f->list.n; i++) {
      Node *s = f->list.items[i];
      if (s->kind == N_FOR && !inner) inner = s;
      else if (s->kind != N_ATTR) others++;
    }
    if (!inner || others) break;
    const char *why = N->D == MAX_NEST ? "the nest has 3 loops already" :
                      inner->a->kind != N_RANGE ? "it does not iterate over a range" :
                      !invariant_range(N, inner->a, &outer->list) ?
                      "its range changes with the outer loops" : NULL;
    if (why) {
      snprintf(N->inner, sizeof N->inner, "the loop over %s runs inside the kernel: %s", inner->name, why);
      break;
    }
    for (int i = 0; i < f->list.n; i++)
      if (f->list.items[i]->kind == N_ATTR) add_attr(N, f->list.items[i]);
    f = inner;
  }
  for (int i = 0; i < f->list.n; i++)
    if (f->list.items[i]->kind == N_ATTR) add_attr(N, f->list.items[i]);
}

/* `!parallel for` (or {!parallel for}) among the attributes just before statement i. */
static bool forced(NodeList *l, int i) {
  for (int j = i - 1; j >= 0 && l->items[j]->kind == N_ATTR; j--)
    if (!strcmp(l->items[j]->name, "parallel")) return true;
  return false;
}

static void analyze(Px *X, Nest *N, Node *outer) {
  if (outer->a->kind != N_RANGE) {
    refuse(N, "it iterates over the elements of a value, not over a range");
    return;
  }
  build_nest(N, outer);
  NodeList *body = &N->fors[N->D - 1]->list;
  for (int i = 0; i < body->n; i++) collect(N, body->items[i]);
  for (int d = 0; d < N->D; d++)
    if (is_special_kernel_param(N->fors[d]->name))
      refuse(N, "its loop variable is named %s, a kernel's special parameter", N->fors[d]->name);
  for (int k = 0; k < N->nvars; k++)
    if (is_special_kernel_param(N->vars[k].name))
      refuse(N, "it uses a variable named %s, a kernel's special parameter", N->vars[k].name);
  Defs def = {{0}};
  walk_list(X, N, body, &def);
  if (N->why[0]) return;
  check_reductions(N);
  if (!N->forced)
    for (int k = 0; k < N->nvars && !N->why[0]; k++)
      if (!N->vars[k].assigned && !is_reduction(&N->vars[k])) check_array(N, k);
  if (!N->why[0]) check_private(X, N);
}

/* ---- building the kernel ---- */

static Node *node(Px *X, NodeKind kind, SrcLoc loc) { return ast_node(X->P->arena, kind, loc); }

static Node *ident(Px *X, const char *name, SrcLoc loc) { return ast_ident(X->P->arena, name, loc); }

static void list_push(Px *X, NodeList *l, Node *n) {
  Node **items = arena_alloc(X->P->arena, (l->n + 1) * sizeof *items);
  if (l->n) memcpy(items, l->items, l->n * sizeof *items);
  items[l->n++] = n;
  l->items = items;
}

static Type *unknown_type(Px *X, SrcLoc loc) {
  Type *t = arena_alloc(X->P->arena, sizeof *t);
  t->kind = TY_UNKNOWN;
  t->loc = loc;
  return t;
}

static const char *xname(Px *X, const char *a, const char *b) {
  size_t n = strlen(a) + strlen(b) + 2;
  char *s = arena_alloc(X->P->arena, n);
  snprintf(s, n, "%s:%s", a, b);
  return s;
}

/* In the kernel's copy, reductions take the one compound form kernel outputs use. */
static void canon_reductions(Px *X, Nest *N, Node *n) {
  if (!n) return;
  Node *t, *e;
  Op op;
  bool neg;
  if (n->kind == N_ASSIGN && accum_form(n, &t, &op, &e, &neg) && is_reduction(&N->vars[var_of(N, t)])) {
    if (neg) {
      Node *m = node(X, N_UNARY, e->loc);
      m->op = OP_NEG;
      m->a = e;
      e = m;
    }
    n->op = op;
    n->b = e;
    return;
  }
  for (int i = 0; i < n->list.n; i++) canon_reductions(X, N, n->list.items[i]);
  for (int i = 0; i < n->list2.n; i++) canon_reductions(X, N, n->list2.items[i]);
  for (int i = 0; i < n->ncases; i++)
    for (int j = 0; j < n->cases[i].body.n; j++) canon_reductions(X, N, n->cases[i].body.items[j]);
}

/* Arrays the kernel captures keep the host's bounds errors ('checked) unless they have
   boundary modifiers of their own: a loop that fails serially fails in parallel too. */
static void keep_checks(Node *n) {
  if (!n) return;
  if (n->kind == N_INDEX && n->a->kind == N_IDENT && n->a->slot >= 0 && n->a->depth > 0 &&
      !(n->a->ival & TM_BOUNDARY))
    n->a->ival |= TM_CHECKED;
  if (n->kind == N_LAMBDA) return;
  for (AstKids it = ast_kids(n); it.node; ast_next(&it)) keep_checks(it.node);
}

/* Every loop of the nest runs from a literal 0 without a step: loop variable d is pos[d]
   throughout the body (a body that assigns one, also by an inner loop over it, keeps the
   nest serial: stmt). */
static bool nest_from_zero(const Nest *N) {
  for (int d = 0; d < N->D; d++) {
    const Node *r = N->fors[d]->a;
    if (r->kind != N_RANGE || r->b || r->a->kind != N_INT || r->a->ival != 0) return false;
  }
  return true;
}

/* In a nest from 0, an element A[m, n, k] indexed by the loop variables in their order is
   A[pos[0], pos[1], pos[2]] (A[pos] in one dimension): the form the emitters take for the
   launch's own element when A has the launch's shape (em_pos_index: vector loads, the
   linear loops), as x[pos] in a kernel written by hand. (Not A[pos] in several dimensions:
   with fewer indices than A has dimensions the last index runs over the rest, a vector
   index does not.) */
static void index_by_pos(Px *X, Nest *N, Node *n) {
  if (!n || n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return;
  if (n->kind == N_INDEX && n->list.n == N->D) {
    int d = 0;
    while (d < N->D && n->list.items[d]->kind == N_IDENT && !strcmp(n->list.items[d]->name, N->fors[d]->name)) d++;
    for (int k = 0; d == N->D && k < N->D; k++) {
      Node *c = ident(X, "pos", n->loc);
      if (N->D > 1) {
        Node *ix = node(X, N_INDEX, n->loc), *i = node(X, N_INT, n->loc);
        i->ival = k;
        ix->a = c;
        list_push(X, &ix->list, i);
        c = ix;
      }
      n->list.items[k] = c;
    }
  }
  for (AstKids it = ast_kids(n); it.node; ast_next(&it)) index_by_pos(X, N, it.node);
}

/* `m = m:lo + pos[d] * m:step` for each loop variable (`pos` alone in one dimension, where
   it is an int; no product when the range has no step). The sum stays in a nest from 0: m
   has the type of its range (0..n-1 with a scalar n is a scalar range). */
static Node *loop_var_init(Px *X, Node *f, int d, int D) {
  SrcLoc loc = f->loc;
  Node *ix = ident(X, "pos", loc);
  if (D > 1) {
    ix = node(X, N_INDEX, loc);
    ix->a = ident(X, "pos", loc);
    Node *k = node(X, N_INT, loc);
    k->ival = d;
    list_push(X, &ix->list, k);
  }
  Node *off = ix;
  if (f->a->b) {   /* a step is written: scale (a step of 1 leaves plain `lo + pos`) */
    off = node(X, N_BINARY, loc);
    off->op = OP_MUL;
    off->a = ix;
    off->b = ident(X, xname(X, f->name, "step"), loc);
  }
  Node *add = node(X, N_BINARY, loc);
  add->op = OP_ADD;
  add->a = ident(X, xname(X, f->name, "lo"), loc);
  add->b = off;
  Node *as = node(X, N_ASSIGN, loc);
  list_push(X, &as->list, ident(X, f->name, loc));
  as->b = add;
  return as;
}

static void add_param(Px *X, Param **ps, int *n, const char *name, SrcLoc loc) {
  Param *np = arena_alloc(X->P->arena, (*n + 1) * sizeof *np);
  if (*n) memcpy(np, *ps, *n * sizeof *np);
  np[*n] = (Param){.name = name, .type = unknown_type(X, loc), .loc = loc};
  *ps = np;
  (*n)++;
}

/* A `continue` of the nest's innermost loop (not of a loop inside its body) ends that
   iteration: in the kernel, the thread; n is a statement of the cloned body. */
static void continue_returns(Node *n) {
  if (n->kind == N_CONTINUE) {
    n->kind = N_RETURN;
    return;
  }
  if (n->kind == N_FOR || n->kind == N_WHILE || n->kind == N_REPEAT || n->kind == N_LAMBDA ||
      n->kind == N_FUNCDEF)
    return;
  for (AstKids it = ast_kids(n); it.node; ast_next(&it)) continue_returns(it.node);
}

/* int_outs: the outputs are declared int, for reduction variables that hold ints: an int
   sum stays an int, as serially. When the loop adds scalars to them, the specialization
   fails ("output changes type") and the interpreter runs the kernel, with the types the
   serial loop gives. */
static Func *make_kernel(Px *X, Nest *N, NodeList *reds, bool int_outs) {
  Node *outer = N->fors[0];
  Func *host = X->chain[X->nchain - 1];
  Func *k = arena_alloc(X->P->arena, sizeof *k);
  k->kind = FK_KERNEL;
  k->loc = outer->loc;
  k->name = xname(X, "parloop", host == X->P->script ? "top" : host->name);
  add_param(X, &k->params, &k->nparams, "pos", outer->loc);
  for (int d = 0; d < N->D; d++) {
    add_param(X, &k->params, &k->nparams, xname(X, N->fors[d]->name, "lo"), outer->loc);
    add_param(X, &k->params, &k->nparams, xname(X, N->fors[d]->name, "step"), outer->loc);
  }
  for (int i = 0; i < reds->n; i++) {
    add_param(X, &k->outs, &k->nouts, reds->items[i]->name, outer->loc);
    if (int_outs) k->outs[i].type->kind = TY_INT, k->outs[i].type->name = "int";
  }
  for (int i = 0; i < N->nattrs; i++) list_push(X, &k->body, N->attrs[i]);
  NodeList *body = &N->fors[N->D - 1]->list, copy = {0};
  bool from0 = nest_from_zero(N);
  for (int i = 0; i < body->n; i++) {
    if (body->items[i]->kind == N_ATTR) continue;
    Node *c = ast_clone(X->P->arena, body->items[i]);
    canon_reductions(X, N, c);
    continue_returns(c);
    if (from0) index_by_pos(X, N, c);
    list_push(X, &copy, c);
  }
  for (int d = 0; d < N->D; d++) {   /* a nest from 0 may no longer read a variable */
    bool read = !from0;
    for (int i = 0; i < copy.n && !read; i++) read = read_in(copy.items[i], N->fors[d]->name);
    if (read) list_push(X, &k->body, loop_var_init(X, N->fors[d], d, N->D));
  }
  for (int i = 0; i < copy.n; i++) list_push(X, &k->body, copy.items[i]);
  resolve_nested(X->P, X->chain, X->nchain, k);
  for (int i = 0; i < k->body.n; i++) keep_checks(k->body.items[i]);
  func_note_transform(k, "parallel-loop");
  if (reds->n) {
    char buf[256] = "reduction(";
    reductions_text(N, reds, buf, sizeof buf - 1);
    strcat(buf, ")");
    func_note_transform(k, arena_strdup(X->P->arena, buf));
  }
  return k;
}

/* A copy of a value added to a reduction, for the interpreter to guess its type at launch
   (interp.c, parloop_kernel): private variables get slot -2, loop variable d slot -3-d. */
static Node *guess_copy(Px *X, Nest *N, const Node *e) {
  Node *c = ast_clone(X->P->arena, e);
  Node *stack[256];
  int n = 0;
  stack[n++] = c;
  while (n) {
    Node *x = stack[--n];
    if (x->kind == N_IDENT && x->slot >= 0) {
      int d = nest_var(N, x->name);
      if (d >= 0) x->slot = -3 - d;
      else if (N->vars[var_of(N, x)].assigned) x->slot = -2;
    }
    Node *kids[3] = {x->a, x->b, x->c};
    for (int i = 0; i < 3; i++) if (kids[i] && n < 255) stack[n++] = kids[i];
    for (int i = 0; i < x->list.n && n < 255; i++) stack[n++] = x->list.items[i];
  }
  return c;
}

/* The values added to reduction variable k anywhere in n, as guess_copy copies. */
static void contributions(Px *X, Nest *N, Node *n, int k, NodeList *out) {
  if (!n) return;
  Node *t, *e;
  Op op;
  bool neg;
  if (n->kind == N_ASSIGN && accum_form(n, &t, &op, &e, &neg) && var_of(N, t) == k) {
    list_push(X, out, guess_copy(X, N, e));
    return;
  }
  for (int i = 0; i < n->list.n; i++) contributions(X, N, n->list.items[i], k, out);
  for (int i = 0; i < n->list2.n; i++) contributions(X, N, n->list2.items[i], k, out);
  for (int i = 0; i < n->ncases; i++)
    for (int j = 0; j < n->cases[i].body.n; j++) contributions(X, N, n->cases[i].body.items[j], k, out);
}

/* An index with a range or ':': a slice, an array of its own. */
static bool slices(const Node *ix) {
  for (int i = 0; i < ix->list.n; i++)
    if (ix->list.items[i]->kind == N_COLON || ix->list.items[i]->kind == N_RANGE) return true;
  return false;
}

static Node *make_parloop(Px *X, Nest *N) {
  Node *p = node(X, N_PARLOOP, N->fors[0]->loc);
  p->a = N->fors[0];
  for (int d = 0; d < N->D; d++) list_push(X, &p->list, N->fors[d]);
  p->c = node(X, N_BLOCK, p->loc);
  p->c->a = node(X, N_BLOCK, p->loc);
  for (int k = 0; k < N->nvars; k++) {
    Var *v = &N->vars[k];
    if (is_reduction(v)) { list_push(X, &p->list2, v->id); continue; }
    if (v->assigned || !v->id || v->id->slot < 0) continue;
    bool written = false, whole = false;
    for (int i = 0; i < N->nacc; i++) {
      written |= N->acc[i].var == k && N->acc[i].write;
      whole |= N->acc[i].var == k && (!N->acc[i].index || slices(N->acc[i].index));
    }
    list_push(X, written ? &p->c->list : &p->c->list2, v->id);
    if (whole) list_push(X, &p->c->a->list, v->id);
  }
  p->func = make_kernel(X, N, &p->list2, false);
  if (p->list2.n) {
    p->b = node(X, N_LAMBDA, p->loc);
    p->b->func = make_kernel(X, N, &p->list2, true);
    NodeList *body = &N->fors[N->D - 1]->list;
    for (int i = 0; i < p->list2.n; i++) {
      Node *blk = node(X, N_BLOCK, p->loc);
      for (int j = 0; j < body->n; j++) contributions(X, N, body->items[j], var_of(N, p->list2.items[i]), &blk->list);
      list_push(X, &p->b->list, blk);
    }
  }
  return p;
}

/* ---- explaining ---- */

static void explain(Px *X, Nest *N, Node *outer, bool parallel, Node *p) {
  if (!X->opt->explain) return;
  char vars[64], what[400] = "";
  if (!N->D) snprintf(vars, sizeof vars, "%s", outer->name);
  else loop_vars(N, vars, sizeof vars);
  if (parallel) {
    snprintf(what, sizeof what, "parallel%s: kernel %s over %d dimension%s", N->forced ? " (!parallel for)" : "",
             p->func->name, N->D, N->D == 1 ? "" : "s");
    const char *sep = "; atomic updates: ";
    for (int i = 0; i < N->nacc; i++) {
      Access *a = &N->acc[i];
      bool first = true;
      for (int j = 0; j < i; j++) first &= !(N->acc[j].var == a->var && N->acc[j].write && N->acc[j].op != OP_NONE);
      if (a->write && a->op != OP_NONE && first) {
        snprintf(what + strlen(what), sizeof what - strlen(what), "%s%s", sep, N->vars[a->var].name);
        sep = ", ";
      }
    }
    if (p->list2.n) snprintf(what + strlen(what), sizeof what - strlen(what), "; reductions: ");
    reductions_text(N, &p->list2, what, sizeof what);
    if (N->inner[0]) snprintf(what + strlen(what), sizeof what - strlen(what), "; %s", N->inner);
  } else {
    snprintf(what, sizeof what, "serial: %s", N->why);
  }
  const char *path = outer->loc.file && outer->loc.file->path ? outer->loc.file->path : "?";
  printf("%s:%d:%d: loop over %s: %s\n", path, outer->loc.line, outer->loc.col, vars, what);
}

/* ---- walking the host functions ---- */

static void xform_list(Px *X, NodeList *l, Node *owner);

static void xform_func(Px *X, Func *f) {
  if (f->kind != FK_HOST || X->nchain == (int)(sizeof X->chain / sizeof *X->chain)) return;
  int saved = X->base;
  X->base = X->npath;
  X->chain[X->nchain++] = f;
  xform_list(X, &f->body, NULL);
  X->nchain--;
  X->base = saved;
}

/* Marks the updates of the nest's sum and product reductions in the original loop, for
   the interpreter's serial run of it (AccumNote in parloop.h). An update already marked
   by an enclosing nest stays with that nest. */
static void mark_updates(Px *X, Nest *N, Node *n, NodeList *vars) {
  if (!n || n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return;
  Node *t, *e;
  Op op;
  bool neg;
  if (n->kind == N_ASSIGN && !n->aux && accum_form(n, &t, &op, &e, &neg) &&
      (op == OP_ADD || op == OP_MUL) && is_reduction(&N->vars[var_of(N, t)])) {
    AccumNote *a = arena_alloc(X->P->arena, sizeof *a);
    *a = (AccumNote){.e = e, .op = op, .negate = neg, .e_first = n->op == OP_NONE && n->b->a == e};
    n->aux = a;
    bool listed = false;
    for (int i = 0; i < vars->n; i++) listed |= !strcmp(vars->items[i]->name, t->name);
    if (!listed) list_push(X, vars, t);
    return;
  }
  for (AstKids it = ast_kids(n); it.node; ast_next(&it)) mark_updates(X, N, it.node, vars);
}

static void mark_serial_reductions(Px *X, Nest *N, Node *outer) {
  NodeList *vars = arena_alloc(X->P->arena, sizeof *vars);
  *vars = (NodeList){0};
  for (int i = 0; i < outer->list.n; i++) mark_updates(X, N, outer->list.items[i], vars);
  if (vars->n) outer->aux = vars;
}

static bool try_nest(Px *X, NodeList *l, int i) {
  Node *outer = l->items[i];
  Nest *N = X->nest;
  memset(N, 0, sizeof *N);
  N->forced = forced(l, i);
  analyze(X, N, outer);
  if (!N->why[0] && X->opt->no_parloop) {
    refuse(N, "--no-parloop is given");
    mark_serial_reductions(X, N, outer);
  }
  if (N->why[0]) {
    explain(X, N, outer, false, NULL);
    return false;
  }
  Node *p = make_parloop(X, N);
  mark_serial_reductions(X, N, outer);   /* after the kernel's copy was made */
  explain(X, N, outer, true, p);
  l->items[i] = p;
  return true;
}

static void xform_list(Px *X, NodeList *l, Node *owner) {
  if (X->npath == (int)(sizeof X->path / sizeof *X->path)) return;
  Level *L = &X->path[X->npath++];
  L->list = l;
  L->owner = owner;
  for (int i = 0; i < l->n; i++) {
    Node *s = l->items[i];
    L->i = i;
    switch (s->kind) {
    case N_FOR:
      if (!try_nest(X, l, i)) xform_list(X, &s->list, s);
      break;
    case N_IF: xform_list(X, &s->list, s); xform_list(X, &s->list2, s); break;
    case N_WHILE: case N_REPEAT: case N_BLOCK: xform_list(X, &s->list, s); break;
    case N_MATCH:
      for (int j = 0; j < s->ncases; j++) xform_list(X, &s->cases[j].body, s);
      break;
    case N_FUNCDEF: xform_func(X, s->func); break;
    default: break;
    }
  }
  X->npath--;
}

void parloop_transform(Program *P, const InterpOptions *opt) {
  Px X = {.P = P, .opt = opt, .nest = malloc(sizeof(Nest))};
  if (!X.nest) rt_error(P->script->loc, "out of memory");
  X.chain[X.nchain++] = P->script;
  xform_list(&X, &P->script->body, NULL);
  xform_list(&X, &P->root->list2, NULL);   /* imported definitions */
  free(X.nest);
}
