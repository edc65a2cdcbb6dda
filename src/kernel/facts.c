/* facts.c: the one walker of variable uses, and the facts of a kernel's arrays that it
   finds once per specialization (facts.h). */
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

static bool walk(const Node *n, const UseWalk *w, bool read_use);

static bool walk_list(const NodeList *l, const UseWalk *w, bool read_use) {
  for (int i = 0; i < l->n; i++)
    if (walk(l->items[i], w, read_use)) return true;
  return false;
}

static bool walk_func(const Func *f, const UseWalk *w) {
  if (!f) return false;
  for (int i = 0; i < f->nparams; i++)
    if (walk(f->params[i].defval, w, false)) return true;
  return walk_list(&f->body, w, false);
}

static bool walk_nested(const Node *n, const UseWalk *w) {
  switch (w->nested) {
  case NESTED_SKIP: return false;
  case NESTED_WALK: return walk_func(n->func, w);
  case NESTED_USE: return true;
  }
  return true;
}

/* USE_WRITE: a store into the variable itself (a target whose base it is). */
static bool stores(const Node *n, const UseWalk *w) {
  if (n->kind == N_EXCHANGE) return is_var(target_base(n->a), w->var);
  for (int i = 0; i < n->list.n; i++)
    if (is_var(target_base(n->list.items[i]), w->var)) return true;
  return false;
}

/* read_use (USE_WRITE): n sits where reading the array is harmless (the base of an index,
   an argument of a built-in function). */
static bool walk(const Node *n, const UseWalk *w, bool read_use) {
  if (!n) return false;
  bool write = w->kind == USE_WRITE;
  switch (n->kind) {
  case N_IDENT: return (!write || !read_use) && is_var(n, w->var);
  case N_FOR:
    if (loops_over(n, w->var)) return true;
    break;
  case N_INDEX:
    if (!write) break;
    return walk(n->a, w, true) || walk_list(&n->list, w, false);
  case N_CALL:
    if (!write) break;
    return walk(n->a, w, false) || walk_list(&n->list, w, is_builtin_call(n, w));
  case N_ASSIGN: case N_EXCHANGE:
    if (write && stores(n, w)) return true;
    break;
  case N_LAMBDA: case N_FUNCDEF: return walk_nested(n, w);
  case N_ATTR: case N_MACRO: case N_TYPEDEF: case N_IMPORT: return false;
  default: break;
  }
  for (AstKids it = ast_kids(n); it.node; ast_next(&it))
    if (walk(it.node, w, false)) return true;
  return false;
}

bool uses_var(const Node *n, const UseWalk *w) { return walk(n, w, false); }

bool list_uses_var(const NodeList *l, const UseWalk *w) { return walk_list(l, w, false); }

bool mentions_var(const Node *n, VarRef v) {
  return uses_var(n, &(UseWalk){.var = v, .kind = USE_ANY, .nested = NESTED_SKIP});
}

/* ---- the facts of one specialization ---- */

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
  k->param_written = calloc(f->nparams + 1, sizeof *k->param_written);
  k->param_read_only = calloc(f->nparams + 1, sizeof *k->param_read_only);
  for (int i = 0; i < f->nparams; i++) {
    UseWalk by_name = {var_named(f->params[i].name), USE_WRITE, NESTED_WALK, NULL};
    UseWalk by_slot = {var_slot(f->ngenerics + i), USE_WRITE, NESTED_USE, S->kspec};
    k->param_written[i] = walk_func(f, &by_name);
    k->param_read_only[i] = !list_uses_var(&f->body, &by_slot);
  }
  k->stored = calloc(func_info(f)->nslots + 1, sizeof *k->stored);
  k->stored_cap = calloc(S->ncaps + 1, sizeof *k->stored_cap);
  for (int i = 0; i < f->body.n; i++) find_stores(S, f->body.items[i]);
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
  *k = (KFacts){0};
}
