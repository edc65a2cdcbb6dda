/* facts.c: the one walker of variable uses, and the facts of a kernel's arrays that it
   finds once per specialization (facts.h). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/facts.h"

static bool is_var(const Node *n, VarRef v) {
  if (n->kind != N_IDENT) return false;
  return v.name ? !strcmp(n->name, v.name) : n->slot == v.slot && n->depth == 0;
}

/* A loop whose variable is v. */
static bool loops_over(const Node *n, VarRef v) {
  return n->kind == N_FOR && (v.name ? !strcmp(n->name, v.name) : n->slot == v.slot);
}

/* The variable an assignment's target stores into: x of x, x[i], x.f, x[i].f[j]. */
static const Node *target_base(const Node *t) {
  while (t->kind == N_INDEX || t->kind == N_FIELD) t = t->a;
  return t;
}

static bool is_builtin_call(const Node *call, const UseWalk *w) {
  if (w->typed) {
    NodeInfo *ni = ksema_info((FSpec *)w->typed, call);
    return ni && ni->builtin && ni->builtin != KB_SHARED;
  }
  const Node *callee = call->a;
  return callee->kind == N_IDENT && callee->slot < 0 && callee->aux;
}

/* A walk in progress: the uses found so far, and how many end it. */
typedef struct Walk { const UseWalk *w; int found, enough; } Walk;

static bool found(Walk *k) { return ++k->found >= k->enough; }

static bool walk(const Node *n, Walk *k, bool read_use);

static bool walk_list(const NodeList *l, Walk *k, bool read_use) {
  for (int i = 0; i < l->n; i++)
    if (walk(l->items[i], k, read_use)) return true;
  return false;
}

static bool walk_func(const Func *f, Walk *k) {
  if (!f) return false;
  for (int i = 0; i < f->nparams; i++)
    if (walk(f->params[i].defval, k, false)) return true;
  return walk_list(&f->body, k, false);
}

static bool walk_nested(const Node *n, Walk *k) {
  switch (k->w->nested) {
  case NESTED_SKIP: return false;
  case NESTED_WALK: return walk_func(n->func, k);
  case NESTED_USE: return found(k);
  }
  return found(k);
}

/* The stores of an assignment or exchange into the variable itself (targets whose base it
   is). */
static bool stores(const Node *n, Walk *k) {
  if (n->kind == N_EXCHANGE) return is_var(target_base(n->a), k->w->var) && found(k);
  for (int i = 0; i < n->list.n; i++)
    if (is_var(target_base(n->list.items[i]), k->w->var) && found(k)) return true;
  return false;
}

/* Whether the walk is done (enough uses found). read_use (USE_WRITE): n sits where reading
   the array is harmless (the base of an index, an argument of a built-in function). */
static bool walk(const Node *n, Walk *k, bool read_use) {
  if (!n) return false;
  UseKind kind = k->w->kind;
  switch (n->kind) {
  case N_IDENT:
    return (kind == USE_ANY || (kind == USE_WRITE && !read_use)) && is_var(n, k->w->var) && found(k);
  case N_FOR:
    if (kind != USE_STORE && loops_over(n, k->w->var) && found(k)) return true;
    break;
  case N_INDEX:
    if (kind != USE_WRITE) break;
    return walk(n->a, k, true) || walk_list(&n->list, k, false);
  case N_CALL:
    if (kind != USE_WRITE) break;
    return walk(n->a, k, false) || walk_list(&n->list, k, is_builtin_call(n, k->w));
  case N_ASSIGN: case N_EXCHANGE:
    if (kind != USE_ANY && stores(n, k)) return true;
    break;
  case N_LAMBDA: case N_FUNCDEF: return walk_nested(n, k);
  case N_ATTR: case N_MACRO: case N_TYPEDEF: case N_IMPORT: return false;
  default: break;
  }
  for (AstKids it = ast_kids(n); it.node; ast_next(&it))
    if (walk(it.node, k, false)) return true;
  return false;
}

bool uses_var(const Node *n, const UseWalk *w) { return walk(n, &(Walk){w, 0, 1}, false); }

bool list_uses_var(const NodeList *l, const UseWalk *w) { return walk_list(l, &(Walk){w, 0, 1}, false); }

bool func_uses_var(const Func *f, const UseWalk *w) { return walk_func(f, &(Walk){w, 0, 1}); }

int func_count_uses(const Func *f, const UseWalk *w) {
  Walk k = {w, 0, INT_MAX};
  walk_func(f, &k);
  return k.found;
}

int count_uses(const Node *n, const UseWalk *w) {
  Walk k = {w, 0, INT_MAX};
  walk(n, &k, false);
  return k.found;
}

bool mentions_var(const Node *n, VarRef v) {
  return uses_var(n, &(UseWalk){.var = v, .kind = USE_ANY, .nested = NESTED_SKIP});
}

/* ---- the facts of one specialization ---- */

/* ---- own-element stores ('nocopy) ----
   A parameter p needs no upload when nothing in the kernel reads it and every thread writes
   its own element: a statement at the top level of the body is `p[pos] = e` (or
   p[pos[0], ..., pos[D-1]]), e does not mention p, no other use of p's name exists, `pos` is
   never assigned and the body has no `return`. The launch must then cover size(p) exactly
   and no other argument may be the same array (checked per launch: rt_gpu.c, fill_launch). */

static bool has_return(const Node *n) {
  if (!n) return false;
  if (n->kind == N_RETURN) return true;
  if (n->kind == N_ATTR || n->kind == N_MACRO || n->kind == N_TYPEDEF || n->kind == N_IMPORT) return false;
  if ((n->kind == N_LAMBDA || n->kind == N_FUNCDEF) && n->func) {
    for (int i = 0; i < n->func->nparams; i++)
      if (has_return(n->func->params[i].defval)) return true;
    for (int i = 0; i < n->func->body.n; i++)
      if (has_return(n->func->body.items[i])) return true;
    return false;
  }
  for (AstKids it = ast_kids(n); it.node; ast_next(&it))
    if (has_return(it.node)) return true;
  return false;
}

static bool is_ident(const Node *n, const char *name) {
  return n && n->kind == N_IDENT && !strcmp(n->name, name);
}

/* 1: ix is `pos`; 2: ix is `pos[0], ..., pos[n-1]` in order; 0: neither. */
static char pos_index(const NodeList *ix, const char *pos) {
  if (ix->n == 1 && is_ident(ix->items[0], pos)) return 1;
  for (int d = 0; d < ix->n; d++) {
    const Node *e = ix->items[d];
    if (e->kind != N_INDEX || !is_ident(e->a, pos) || e->list.n != 1 ||
        e->list.items[0]->kind != N_INT || e->list.items[0]->ival != d)
      return 0;
  }
  return ix->n > 0 ? 2 : 0;
}

/* The form (pos_index) of the statement that fills parameter i, or 0. */
static char fills(const Func *f, int i, bool has_pos, bool returns) {
  const char *name = f->params[i].name;
  UseWalk pos_stored = {var_named("pos"), USE_STORE, NESTED_WALK, NULL};
  UseWalk mention = {var_named(name), USE_ANY, NESTED_WALK, NULL};
  if (!has_pos || returns || func_uses_var(f, &pos_stored) || func_count_uses(f, &mention) != 1) return 0;
  for (int s = 0; s < f->body.n; s++) {
    const Node *n = f->body.items[s];
    if (n->kind != N_ASSIGN || n->op != OP_NONE || n->list.n != 1 || !n->b) continue;
    const Node *t = n->list.items[0];
    if (t->kind == N_INDEX && is_ident(t->a, name)) return pos_index(&t->list, "pos");
  }
  return 0;
}

static char *fill_params(const Func *f) {
  bool has_pos = false, returns = false;
  for (int k = 0; k < f->nparams; k++) has_pos |= !strcmp(f->params[k].name, "pos");
  for (int k = 0; k < f->nparams; k++) returns |= has_return(f->params[k].defval);
  for (int s = 0; s < f->body.n; s++) returns |= has_return(f->body.items[s]);
  char *fl = calloc(f->nparams + 1, 1);
  for (int i = 0; i < f->nparams; i++)
    fl[i] = is_special_kernel_param(f->params[i].name) ? 0 : fills(f, i, has_pos, returns);
  return fl;
}

/* ---- shared memory ----
   shared() may only be called where every thread calls it once, in the same order: at the
   top level of the kernel body. The k-th call is the block's k-th shared array
   (NodeInfo.site). */

static void count_shared(KSpec *S, Node *n, bool top) {
  if (!n) return;
  if (n->kind == N_CALL) {
    NodeInfo *ni = ksema_info(S->kspec, n);
    if (ni && ni->builtin == KB_SHARED) {
      if (!top) ksema_fail(S, n->loc, "shared() inside a loop or condition");
      ni->site = S->facts.nshared++;
    }
  }
  switch (n->kind) {
  case N_IF: case N_FOR: case N_WHILE: case N_REPEAT: case N_MATCH:
    for (AstKids it = ast_kids(n); it.node; ast_next(&it)) count_shared(S, it.node, false);
    return;
  case N_LAMBDA: case N_FUNCDEF: return;
  default:
    count_shared(S, n->a, top);
    count_shared(S, n->b, top);
    count_shared(S, n->c, top);
    for (int i = 0; i < n->list.n; i++) count_shared(S, n->list.items[i], top);
    return;
  }
}

/* ---- a thread's own elements ----
   pos is a different position in every thread of a launch, so p[pos] is an element no other
   thread touches when every use of p in the kernel is p[pos] (or its size) and no other
   argument is the same array: a compound assignment into it needs no atomic. */

/* Whether n is the kernel's special parameter `pos`. */
static bool is_pos(const KSpec *S, const Node *n) {
  Func *f = S->kfunc;
  if (n->kind != N_IDENT || n->depth != 0 || n->slot < f->ngenerics) return false;
  for (int i = 0; i < S->nspecial; i++)
    if (S->special[i].param == n->slot - f->ngenerics) return !strcmp(S->special[i].name, "pos");
  return false;
}

static bool builtin_call(const KSpec *S, const Node *n, int id, int nargs) {
  NodeInfo *ni = n && n->kind == N_CALL ? ksema_info(S->kspec, n) : NULL;
  return ni && ni->builtin == id && n->list.n == nargs;
}

/* Whether every use of slot in n is slot[pos] or numel/size/ndims(slot). */
static bool own_uses(const KSpec *S, const Node *n, int slot) {
  if (!n) return true;
  switch (n->kind) {
  case N_LAMBDA: case N_FUNCDEF: return false;
  case N_IDENT: return n->slot != slot || n->depth != 0;
  case N_INDEX:
    if (n->a->kind == N_IDENT && n->a->slot == slot && n->a->depth == 0)
      return n->list.n == 1 && is_pos(S, n->list.items[0]);
    break;
  case N_CALL:
    if (builtin_call(S, n, KB_NUMEL, 1) || builtin_call(S, n, KB_SIZE, n->list.n) || builtin_call(S, n, KB_NDIMS, 1))
      if (n->list.n && n->list.items[0]->kind == N_IDENT && n->list.items[0]->slot == slot) return true;
    break;
  default: break;
  }
  for (AstKids it = ast_kids(n); it.node; ast_next(&it))
    if (!own_uses(S, it.node, slot)) return false;
  return true;
}

static unsigned own_elems(const KSpec *S) {
  Func *f = S->kfunc;
  unsigned mask = 0;
  for (int p = 0; p < f->nparams && p < 32; p++) {
    bool own = true;
    for (int i = 0; i < f->body.n && own; i++) own = own_uses(S, f->body.items[i], f->ngenerics + p);
    if (own) mask |= 1u << p;
  }
  return mask;
}

/* ---- the facts ---- */

/* Records the variable that target t (of the kernel's own body) stores into. */
static void note_store(KSpec *S, const Node *t) {
  t = target_base(t);
  if (t->kind != N_IDENT) return;
  NodeInfo *ni = ksema_info(S->kspec, t);
  if (ni && ni->cap >= 0) S->facts.stored_cap[ni->cap] = true;
  else if (t->slot >= 0 && t->depth == 0) S->facts.stored[t->slot] = true;
}

static void find_stores(KSpec *S, const Node *n) {
  if (!n || n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return;
  if (n->kind == N_EXCHANGE) note_store(S, n->a);
  if (n->kind == N_ASSIGN)
    for (int i = 0; i < n->list.n; i++) note_store(S, n->list.items[i]);
  for (AstKids it = ast_kids(n); it.node; ast_next(&it)) find_stores(S, it.node);
}

void kfacts_compute(KSpec *S) {
  Func *f = S->kfunc;
  KFacts *k = &S->facts;
  for (int i = 0; i < f->body.n; i++) count_shared(S, f->body.items[i], true);
  k->param_written = calloc(f->nparams + 1, sizeof *k->param_written);
  k->param_read_only = calloc(f->nparams + 1, sizeof *k->param_read_only);
  for (int i = 0; i < f->nparams; i++) {
    UseWalk by_name = {var_named(f->params[i].name), USE_WRITE, NESTED_WALK, NULL};
    UseWalk by_slot = {var_slot(f->ngenerics + i), USE_WRITE, NESTED_USE, S->kspec};
    k->param_written[i] = func_uses_var(f, &by_name);
    k->param_read_only[i] = !list_uses_var(&f->body, &by_slot);
  }
  k->stored = calloc(func_info(f)->nslots + 1, sizeof *k->stored);
  k->stored_cap = calloc(S->ncaps + 1, sizeof *k->stored_cap);
  for (int i = 0; i < f->body.n; i++) find_stores(S, f->body.items[i]);
  k->param_fill = fill_params(f);
  k->own_elems = own_elems(S);
}

bool kfacts_stored(const KSpec *S, const Node *base) {
  NodeInfo *ni = ksema_info(S->kspec, base);
  if (ni && ni->cap >= 0) return S->facts.stored_cap[ni->cap];
  return base->slot >= 0 && base->depth == 0 && S->facts.stored[base->slot];
}

void kfacts_free(KFacts *k) {
  free(k->param_written);
  free(k->param_read_only);
  free(k->stored);
  free(k->stored_cap);
  free(k->param_fill);
  *k = (KFacts){0};
}
