/* interp_resolve.c: name resolution. Gives every variable a slot in its function's frame,
   links each identifier to (depth, slot) or to a global, hoists nested function definitions,
   loads imports, and reports unknown names, misplaced break/continue and wrong argument
   counts of direct calls before anything runs.

   Scoping rule: a name assigned with `=` (or declared, or a loop variable, parameter or
   nested function) anywhere in a function is local to it; any other name is looked up in
   the enclosing functions (closures), then among the globals (built-ins, constants, types).
   The top level of a file is itself a function that encloses every top-level function. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "interp/interp_priv.h"
#include "kernel/kernel_ir.h"
#include "front/parse.h"
#include "front/transform.h"
#include "front/types.h"

typedef struct Scope {
  struct Scope *parent;
  Func *func;
  FuncInfo *info;
  int cap;
  Func **slot_funcs;        /* the function a slot holds when it is a hoisted definition */
  int loop_depth;
} Scope;

typedef struct Resolver {
  Program *prog;
  Scope *scope;
  const char **unknown; int nunknown;   /* after a failed import: names reported once */
} Resolver;

static void resolve_expr(Resolver *R, Node *n);
static void resolve_block(Resolver *R, NodeList *body);
static void resolve_func(Resolver *R, Func *f, Node *hoist_list_owner);

/* ---- slots ---- */

/* The last slot of that name: an output named like a parameter has a slot of its own, after
   the parameter's, and the body means the output (resolve_outputs). */
static int slot_find(Scope *s, const char *name) {
  for (int i = s->info->nslots - 1; i >= 0; i--)
    if (!strcmp(s->info->slot_names[i], name)) return i;
  return -1;
}

static int slot_new(Scope *s, const char *name, unsigned mods) {
  FuncInfo *fi = s->info;
  if (fi->nslots == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 16;
    fi->slot_names = realloc(fi->slot_names, s->cap * sizeof *fi->slot_names);
    fi->slot_mods = realloc(fi->slot_mods, s->cap * sizeof *fi->slot_mods);
    s->slot_funcs = realloc(s->slot_funcs, s->cap * sizeof *s->slot_funcs);
  }
  fi->slot_names[fi->nslots] = name;
  fi->slot_mods[fi->nslots] = mods;
  s->slot_funcs[fi->nslots] = NULL;
  return fi->nslots++;
}

static int slot_add(Scope *s, const char *name, unsigned mods) {
  int i = slot_find(s, name);
  if (i >= 0) { s->info->slot_mods[i] |= mods; return i; }
  return slot_new(s, name, mods);
}

/* Outputs take the slots after the parameters (callers find them there). `function x = f(x)`
   is MATLAB's idiom: the output starts as the parameter (FuncInfo.out_param). Kernels and
   device functions are compiled with outputs as accumulators or return values: there the
   name must be new. */
static void resolve_outputs(Resolver *R, Scope *s, Func *f) {
  FuncInfo *fi = s->info;
  fi->out_param = calloc(f->nouts + 1, sizeof *fi->out_param);
  fi->out_op = calloc(f->nouts + 1, sizeof *fi->out_op);
  for (int i = 0; i < f->nouts; i++) {
    int prev = slot_find(s, f->outs[i].name), first = f->ngenerics + f->nparams;
    fi->out_param[i] = -1;
    if (prev >= first) diag_error(f->outs[i].loc, "output '%s' is named twice", f->outs[i].name);
    else if (prev >= f->ngenerics && f->kind != FK_HOST)
      diag_error(f->outs[i].loc, "output '%s' of a %s function has the name of a parameter",
                 f->outs[i].name, f->kind == FK_KERNEL ? "__kernel__" : "__device__");
    else if (prev >= f->ngenerics) fi->out_param[i] = prev - f->ngenerics;
    else if (prev >= 0) diag_error(f->outs[i].loc, "output '%s' has the name of a type parameter", f->outs[i].name);
    slot_new(s, f->outs[i].name, f->outs[i].type->mods);
  }
  (void)R;
}

static void nodelist_push(NodeList *l, Node *n) {
  l->items = realloc(l->items, (l->n + 1) * sizeof *l->items);
  l->items[l->n++] = n;
}

/* ---- pass 1: which names are local ---- */

static void import_file(Resolver *R, Node *imp);

static void collect_target(Scope *s, Node *t) {
  if (t->kind == N_IDENT) slot_add(s, t->name, 0);
}

static void collect_locals(Resolver *R, Scope *s, NodeList *body) {
  for (int i = 0; i < body->n; i++) {
    Node *n = body->items[i];
    switch (n->kind) {
    case N_ASSIGN:
      if (n->op == OP_NONE)
        for (int j = 0; j < n->list.n; j++) collect_target(s, n->list.items[j]);
      break;
    case N_FOR: slot_add(s, n->name, 0); collect_locals(R, s, &n->list); break;
    case N_IF: collect_locals(R, s, &n->list); collect_locals(R, s, &n->list2); break;
    case N_WHILE: case N_REPEAT: case N_BLOCK: collect_locals(R, s, &n->list); break;
    case N_MATCH:
      for (int j = 0; j < n->ncases; j++) collect_locals(R, s, &n->cases[j].body);
      break;
    case N_FUNCDEF: {
      int slot = slot_add(s, n->func->name, 0);
      s->slot_funcs[slot] = n->func;
      nodelist_push(&s->info->hoisted, n);
      break;
    }
    case N_IMPORT: import_file(R, n); break;
    case N_TYPEDEF:   /* the type's name holds the type, bound at entry like a function */
      if (slot_find(s, n->name) >= 0) {
        diag_error(n->loc, "'%s' is defined twice in this scope", n->name);
        break;
      }
      n->slot = slot_add(s, n->name, 0);
      nodelist_push(&s->info->typedefs, n);
      break;
    default: break;
    }
  }
}

/* Imports splice the imported file's function definitions into the top level. The file was
   loaded with the program (transform_macro.c): imp->a, NULL when another import of the
   same file brought it (or it was not found: said there). A module's own main() (library
   modules often carry a test main) stays out: only the main() of the file that was run
   runs (interp.c, find_main). */
static void import_file(Resolver *R, Node *imp) {
  Scope *s = R->scope;
  if (s->parent) { diag_error(imp->loc, "import is only allowed at the top level"); return; }
  Node *prog = imp->a;
  if (!prog) return;
  NodeList defs = {0};
  for (int i = 0; i < prog->list.n; i++) {
    Node *n = prog->list.items[i];
    if (n->kind == N_FUNCDEF && n->func->name && !strcmp(n->func->name, "main")) continue;
    if (n->kind == N_FUNCDEF || n->kind == N_IMPORT || n->kind == N_REDUCTION ||
        n->kind == N_TYPEDEF || n->kind == N_MACRO)
      nodelist_push(&defs, n);
  }
  collect_locals(R, s, &defs);
  /* Definitions are resolved with the rest of the top level: append them to it. */
  for (int i = 0; i < defs.n; i++)
    if (defs.items[i]->kind != N_IMPORT) nodelist_push(&R->prog->root->list2, defs.items[i]);
}

/* ---- pass 2: identifiers ---- */

static bool lookup(Resolver *R, Node *id) {
  int depth = 0;
  for (Scope *s = R->scope; s; s = s->parent, depth++) {
    int slot = slot_find(s, id->name);
    if (slot < 0) continue;
    id->slot = slot;
    id->depth = depth;
    id->ival = s->info->slot_mods[slot];
    for (Scope *t = R->scope; t != s; t = t->parent) t->info->captures = true;
    return true;
  }
  const Global *g = global_lookup(id->name);
  if (!g) return false;
  id->slot = -1;
  id->aux = (void *)g;
  return true;
}

/* ---- did you mean ---- */

/* The edit distance of a and b (insertions, deletions, substitutions and swaps of two
   neighbours count 1), or limit + 1 when it is more than limit. */
static int edit_distance(const char *a, const char *b, int limit) {
  int n = (int)strlen(a), m = (int)strlen(b);
  if (n > 63 || m > 63 || abs(n - m) > limit) return limit + 1;
  int d[64][64];
  for (int i = 0; i <= n; i++) d[i][0] = i;
  for (int j = 0; j <= m; j++) d[0][j] = j;
  for (int i = 1; i <= n; i++)
    for (int j = 1; j <= m; j++) {
      int sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
      int del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
      int best = sub < del ? sub : del;
      if (ins < best) best = ins;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
        best = d[i - 2][j - 2] + 1;
      d[i][j] = best;
    }
  return d[n][m] <= limit ? d[n][m] : limit + 1;
}

typedef struct Suggest {
  const char *name;         /* the unknown name */
  const char *best;         /* the nearest known name so far */
  int dist, limit;
} Suggest;

static size_t common_prefix(const char *a, const char *b) {
  size_t n = 0;
  while (a[n] && a[n] == b[n]) n++;
  return n;
}

/* Nearest first; between two as near, the one that begins like name (sqr: sqrt, not shr). */
static void suggest_try(Suggest *s, const char *cand) {
  /* not the name itself, nor a name the transforms made (they do not begin with a letter) */
  if (!cand || !(isalpha((unsigned char)cand[0]) || cand[0] == '_') || !strcmp(cand, s->name)) return;
  int d = strcasecmp(cand, s->name) == 0 ? 0 : edit_distance(s->name, cand, s->limit);
  if (d < s->dist || (d == s->dist && d <= s->limit && common_prefix(cand, s->name) > common_prefix(s->best, s->name)))
    s->dist = d, s->best = cand;
}

/* The known name nearest to name (the names in scope first, then the built-ins), or NULL
   when none is near: at most 1 edit for names of up to 4 characters, 2 up to 8, else 3. */
static const char *suggest_name(Resolver *R, const char *name, bool types_only) {
  size_t len = strlen(name);
  Suggest s = {name, NULL, 0, len <= 4 ? 1 : len <= 8 ? 2 : 3};
  s.dist = s.limit + 1;
  if (!types_only)
    for (Scope *sc = R->scope; sc; sc = sc->parent)
      for (int i = 0; i < sc->info->nslots; i++) suggest_try(&s, sc->info->slot_names[i]);
  for (size_t i = 0; global_name(i); i++)
    if (!types_only || builtin_type(global_name(i))) suggest_try(&s, global_name(i));
  return s.best;
}

/* "unknown name 'x'", with "; did you mean 'y'?" when a known name is near. */
static void unknown_error(Resolver *R, Node *id, const char *what, bool types_only) {
  const char *near = suggest_name(R, id->name, types_only);
  if (near) diag_error(id->loc, "unknown %s '%s'; did you mean '%s'?", what, id->name, near);
  else diag_error(id->loc, "unknown %s '%s'", what, id->name);
}

static Scope *scope_at(Resolver *R, int depth) {
  Scope *s = R->scope;
  while (depth-- > 0) s = s->parent;
  return s;
}

static Func *known_function(Resolver *R, Node *callee) {
  if (callee->kind != N_IDENT || callee->slot < 0) return NULL;
  Scope *s = scope_at(R, callee->depth);
  return s->slot_funcs ? s->slot_funcs[callee->slot] : NULL;
}

static void check_call(Resolver *R, Node *call) {
  Func *f = known_function(R, call->a);
  if (!f) return;
  for (int i = 0; i < call->list.n; i++)
    if (call->list.items[i]->kind == N_NAMEDARG) {
      diag_error(call->list.items[i]->loc, "named arguments (%s := ...) are not supported in calls of "
                 "functions, only in the construction of an object", call->list.items[i]->name);
      return;
    }
  if (f->kind == FK_KERNEL) {
    diag_error(call->loc, "'%s' is a __kernel__ function: launch it with parallel_do", f->name);
    return;
  }
  int required = 0;
  for (int i = 0; i < f->nparams; i++)
    if (!f->params[i].defval) required = i + 1;
  if (call->list.n > f->nparams)
    diag_error(call->loc, "too many arguments to '%s' (expected %d, got %d)", f->name,
               f->nparams, call->list.n);
  else if (call->list.n < required)
    diag_error(call->loc, "too few arguments to '%s' (expected %d, got %d)", f->name,
               required, call->list.n);
}

/* n, already resolved, names a built-in type (a local variable called `cube` does not). */
static bool is_type_global(Node *n) {
  if (n->kind != N_IDENT || n->slot >= 0) return false;
  const Global *g = global_lookup(n->name);
  return g && g->value.kind == V_TYPE;
}

static void resolve_list(Resolver *R, NodeList *l) {
  for (int i = 0; i < l->n; i++) resolve_expr(R, l->items[i]);
}

static void mark_barrier(Resolver *R, BarrierKind k) {
  FuncInfo *fi = R->scope->info;
  fi->uses_barrier = true;
  if (k == BK_GRID) fi->uses_grid_barrier = true;
}

/* A call that may size shared memory by the block: a user function, or shared() of sizes
   that are not literals (the 3-D default block depends on it, interp_kernel.c). */
static void note_shared_sizes(Resolver *R, Node *call) {
  Node *f = call->a;
  bool shared = f->kind == N_IDENT && f->slot < 0 && (!strcmp(f->name, "shared") || !strcmp(f->name, "shared_zeros"));
  if (f->kind != N_IDENT || f->slot >= 0) R->scope->info->shared_by_block = true;
  for (int i = 0; shared && i < call->list.n; i++)
    if (call->list.items[i]->kind != N_INT) R->scope->info->shared_by_block = true;
}

/* syncthreads, memfence and their keyword arguments (block, warp, grid) name no variable:
   no slot, so that no analysis of slots takes them for one */
static void no_slot(Node *n) {
  n->slot = -1;
  n->aux = NULL;
}

/* ---- cooperative groups ---- */

/* g.thread_idx, g.shfl(v, d), ... (n: the field, or the call of one): g must be the kernel's
   own parameter coalesced_threads (all of them) or this_thread_block (thread_idx, size,
   sync). Collectives make the kernel's threads fibers (interp_kernel.c). */
static void check_group(Resolver *R, Node *n) {
  Node *fld = n->kind == N_CALL ? n->a : n;
  if (fld->kind != N_FIELD || fld->a->kind != N_IDENT) return;
  const char *g = fld->a->name;
  if (!strcmp(g, "this_grid") || !strcmp(g, "this_multi_grid")) {
    diag_error(fld->loc, "cooperative group '%s' is not supported", g);
    return;
  }
  if (strcmp(g, "coalesced_threads") && strcmp(g, "this_thread_block")) return;
  bool warp;
  GroupOp op = group_op(n, &warp);
  Func *f = R->scope->func;
  int param = fld->a->slot - f->ngenerics;
  if (fld->a->depth != 0 || f->kind != FK_KERNEL || param < 0 || param >= f->nparams || strcmp(f->params[param].name, g)) {
    diag_error(fld->loc, "'%s' must be a parameter of the __kernel__ function that uses it", g);
    return;
  }
  if (!op || (!warp && op != G_THREAD_IDX && op != G_SIZE && op != G_SYNC)) {
    diag_error(fld->loc, "'%s.%s%s' is not supported", g, fld->name, n->kind == N_CALL ? "()" : "");
    return;
  }
  if (n->kind != N_CALL) return;
  int want = op == G_SYNC ? 0 : op <= G_SHFL_XOR ? 2 : 1;
  if (n->list.n != want)
    diag_error(n->loc, "'%s.%s' takes %d argument%s, got %d", g, fld->name, want, want == 1 ? "" : "s", n->list.n);
  if (!warp && op == G_SYNC) {   /* this_thread_block.sync() is syncthreads() for every stage after this one */
    fld->kind = N_IDENT;
    fld->name = "syncthreads";
    fld->a = NULL;
    no_slot(fld);
    mark_barrier(R, BK_BLOCK);
    return;
  }
  mark_barrier(R, BK_WARP);
}

/* An unknown name. After a failed import (N_PROGRAM's ival) it may be one the module
   defines: each name is reported once, with that possibility. */
static void report_unknown(Resolver *R, Node *n) {
  if (!R->prog->root->ival) {
    unknown_error(R, n, "name", false);
    return;
  }
  for (int i = 0; i < R->nunknown; i++)
    if (!strcmp(R->unknown[i], n->name)) return;
  R->unknown = realloc(R->unknown, (R->nunknown + 1) * sizeof *R->unknown);
  R->unknown[R->nunknown++] = n->name;
  diag_error(n->loc, "unknown name '%s' (an import failed: it may be defined there)", n->name);
}

static void resolve_expr(Resolver *R, Node *n) {
  if (!n) return;
  switch (n->kind) {
  case N_IDENT:
    if (barrier_kind(n)) {
      no_slot(n);
      if (is_barrier(barrier_kind(n))) mark_barrier(R, barrier_kind(n));
      return;
    }
    if (!lookup(R, n)) {
      n->slot = -1;   /* neither a slot nor a global: nothing may use it */
      n->aux = NULL;
      report_unknown(R, n);
    }
    return;
  case N_CALL:
    if (barrier_kind(n)) {
      no_slot(n->a);
      for (int i = 0; i < n->list.n; i++) no_slot(n->list.items[i]);
      if (is_barrier(barrier_kind(n))) mark_barrier(R, barrier_kind(n));
      return;   /* its argument (block, warp, grid) is a keyword, not a name */
    }
    resolve_expr(R, n->a->kind == N_FIELD ? n->a->a : n->a);   /* g.shfl(...): g's name */
    resolve_list(R, &n->list);
    if (n->a->kind == N_FIELD) { check_group(R, n); return; }
    check_call(R, n);
    note_shared_sizes(R, n);
    return;
  case N_INDEX:
    resolve_expr(R, n->a);
    if (is_type_global(n->a)) {   /* vec[int], cube[T]: type arguments */
      for (int i = 0; i < n->list.n; i++) {
        Node *a = n->list.items[i];
        if (a->kind == N_IDENT && !global_lookup(a->name)) {
          if (!lookup(R, a)) unknown_error(R, a, "type", true);
        } else if (a->kind == N_IDENT) {
          a->slot = -1;   /* a built-in type name */
          a->aux = (void *)global_lookup(a->name);
        }
      }
      return;
    }
    resolve_list(R, &n->list);
    return;
  case N_LAMBDA: resolve_func(R, n->func, NULL); return;
  case N_FIELD: resolve_expr(R, n->a); check_group(R, n); return;
  case N_TYPE: return;
  default:
    resolve_expr(R, n->a);
    resolve_expr(R, n->b);
    resolve_expr(R, n->c);
    resolve_list(R, &n->list);
    return;
  }
}

/* `B = A` gives B the boundary modifiers of A when B declares none. */
static void inherit_mods(Resolver *R, Node *assign) {
  Node *t = assign->list.items[0], *v = assign->b;
  if (t->kind != N_IDENT || !v || v->kind != N_IDENT || v->slot < 0 || !v->ival) return;
  Scope *s = scope_at(R, t->depth);
  if (!(s->info->slot_mods[t->slot] & TM_BOUNDARY))
    s->info->slot_mods[t->slot] |= v->ival & TM_BOUNDARY;
  t->ival = s->info->slot_mods[t->slot];
}

/* How kernel output o combines over the threads, from its update n: every update of one
   output must combine alike (`+=` and `-=` both add). */
static void note_output_op(FuncInfo *fi, const Node *n, const Node *t, int o) {
  Op c = n->op == OP_ADD || n->op == OP_SUB ? OP_ADD : n->op == OP_MUL || n->op == OP_EMUL ? OP_MUL
       : n->op == OP_MAX || n->op == OP_MIN ? n->op : OP_NONE;
  if (n->op == OP_NONE)   /* every thread's value is combined: `=` would mean nothing */
    diag_error(t->loc, "kernel output '%s' is combined over all threads: update it with a "
               "compound operator (+=, *=, ^^= for max, __= for min, ...)", t->name);
  else if (c == OP_NONE)
    diag_error(t->loc, "kernel output '%s' cannot be combined over threads with %s=: use +=, -=, "
               "*=, ^^= (max) or __= (min)", t->name, op_name(n->op));
  else if (fi->out_op[o] != OP_NONE && fi->out_op[o] != c)
    diag_error(t->loc, "kernel output '%s' is updated with both %s= and %s=: each output combines "
               "its threads' values with one operator", t->name, op_name(fi->out_op[o]), op_name(c));
  else fi->out_op[o] = c;
}

static void resolve_assign(Resolver *R, Node *n) {
  resolve_expr(R, n->b);
  if (n->type && n->list.n == 1 && n->list.items[0]->kind == N_IDENT) {
    int slot = slot_add(R->scope, n->list.items[0]->name, n->type->mods);
    (void)slot;
  }
  for (int i = 0; i < n->list.n; i++) {
    Node *t = n->list.items[i];
    if (t->kind == N_IDENT && n->op != OP_NONE && slot_find(R->scope, t->name) < 0) {
      /* compound assignment to a name assigned nowhere here: the enclosing variable, if
         there is one, else a local that is read before it is set (a run-time error) */
      if (!lookup(R, t)) slot_add(R->scope, t->name, 0);
    }
    if (t->kind != N_IDENT && t->kind != N_INDEX && t->kind != N_FIELD)
      diag_error(t->loc, "cannot assign to this expression");
    resolve_expr(R, t);
    if (t->kind == N_IDENT && t->depth > 0 && R->scope->func->kind == FK_KERNEL)
      /* its threads would race on the one variable, and a GPU cannot write host memory */
      diag_error(t->loc, "a kernel cannot assign '%s', a variable of the enclosing function: pass an "
                 "array and write its elements, or declare a kernel output", t->name);
    if (t->kind == N_IDENT && t->depth == 0 && t->slot >= 0) {
      Func *f = R->scope->func;
      for (int o = 0; o < f->nouts; o++)
        if (f->kind == FK_KERNEL && !strcmp(f->outs[o].name, t->name)) note_output_op(R->scope->info, n, t, o);
    }
  }
  if (n->op == OP_NONE && n->list.n == 1) inherit_mods(R, n);
}

/* The default values of a class's fields are evaluated wherever an object is made: they
   may use constants and built-in functions, not variables (a scope of their own, without
   slots, whose enclosing scope is none). */
static void resolve_field_defaults(Resolver *R, Node *def) {
  Scope *saved = R->scope;
  FuncInfo fi = {0};
  Func f = {.name = def->name, .kind = FK_HOST, .loc = def->loc};
  Scope s = {.func = &f, .info = &fi};
  R->scope = &s;
  for (int i = 0; i < def->nparams; i++) resolve_expr(R, def->params[i].defval);
  R->scope = saved;
  free(s.slot_funcs);
  if (fi.nslots || fi.hoisted.n)
    diag_error(def->loc, "the default values of the fields of '%s' may only use constants and built-in functions", def->name);
  free(fi.slot_names);
  free(fi.slot_mods);
}

static void resolve_stmt(Resolver *R, Node *n) {
  switch (n->kind) {
  case N_ASSIGN: resolve_assign(R, n); return;
  case N_FOR:
    resolve_expr(R, n->a);
    n->slot = slot_find(R->scope, n->name);
    R->scope->loop_depth++;
    resolve_block(R, &n->list);
    R->scope->loop_depth--;
    return;
  case N_WHILE: case N_REPEAT:
    resolve_expr(R, n->a);
    R->scope->loop_depth++;
    resolve_block(R, &n->list);
    R->scope->loop_depth--;
    return;
  case N_IF:
    resolve_expr(R, n->a);
    resolve_block(R, &n->list);
    resolve_block(R, &n->list2);
    return;
  case N_MATCH:
    resolve_expr(R, n->a);
    for (int i = 0; i < n->ncases; i++) {
      resolve_expr(R, n->cases[i].pattern);
      resolve_block(R, &n->cases[i].body);
    }
    return;
  case N_BREAK: case N_CONTINUE:
    if (!R->scope->loop_depth)
      diag_error(n->loc, "'%s' outside a loop", n->kind == N_BREAK ? "break" : "continue");
    return;
  case N_RETURN: resolve_expr(R, n->a); return;
  case N_FUNCDEF: {
    Scope *s = R->scope;
    int slot = slot_find(s, n->func->name);
    n->slot = slot;
    resolve_func(R, n->func, n);
    return;
  }
  case N_REDUCTION: {
    /* the replacement becomes the body of a lambda over the reduction's parameters */
    Program *P = R->prog;
    Func *f = n->func;
    Node *body = arena_alloc(P->arena, sizeof *body);
    body->kind = N_EXPR;
    body->a = n->b;
    body->loc = n->b ? n->b->loc : n->loc;
    f->body.items = arena_alloc(P->arena, sizeof(Node *));
    f->body.items[0] = body;
    f->body.n = 1;
    f->is_lambda = true;
    if (R->scope->parent) diag_error(n->loc, "a reduction must be defined at the top level");
    resolve_func(R, f, NULL);
    if (reduction_is_nested(n)) return;   /* replaced where it is called (transform_macro.c) */
    if (n->a && n->a->kind == N_CALL && n->a->a->kind == N_IDENT) {
      P->reductions = realloc(P->reductions, (P->nreductions + 1) * sizeof *P->reductions);
      P->reductions[P->nreductions++] = (Reduction){n, n->a->a->name, false};
    } else {
      diag_error(n->loc, "a reduction's pattern must be a function call such as sum(x)");
    }
    return;
  }
  case N_ATTR: ktiling_check(n); return;
  case N_TYPEDEF: resolve_field_defaults(R, n); return;
  case N_MACRO: case N_IMPORT: return;
  case N_BLOCK: resolve_block(R, &n->list); return;
  case N_EXPR: resolve_expr(R, n->a); return;
  default: resolve_expr(R, n); return;
  }
}

static void resolve_block(Resolver *R, NodeList *body) {
  for (int i = 0; i < body->n; i++) resolve_stmt(R, body->items[i]);
}

/* Resolves one function: its own scope nested in the current one. */
static void resolve_func(Resolver *R, Func *f, Node *def) {
  (void)def;
  FuncInfo *fi = calloc(1, sizeof *fi);
  f->sema = fi;
  Scope s = {.parent = R->scope, .func = f, .info = fi};
  for (int i = 0; i < f->ngenerics; i++) slot_add(&s, f->generics[i].name, 0);
  fi->special_params = calloc(f->nparams + 1, sizeof *fi->special_params);
  for (int i = 0; i < f->nparams; i++) {
    const char *n = f->params[i].name;
    slot_add(&s, n, f->params[i].type->mods);
    fi->special_params[i] = is_special_kernel_param(n);
    if (fi->special_params[i] && strcmp(n, "pos") && strcmp(n, "warpsize")) fi->block_params = true;
  }
  resolve_outputs(R, &s, f);
  R->scope = &s;
  for (int i = 0; i < f->nparams; i++) resolve_expr(R, f->params[i].defval);
  collect_locals(R, &s, &f->body);
  resolve_block(R, &f->body);
  R->scope = s.parent;
  free(s.slot_funcs);
}

/* Resolves f, a function the transforms made (transform_parloop.c), as if it were written
   inside chain[n-1], itself inside chain[n-2]...: their scopes are rebuilt from what
   resolution recorded (slot names, hoisted definitions). */
void resolve_nested(Program *P, Func **chain, int n, Func *f) {
  Scope *scopes = calloc(n, sizeof *scopes);
  for (int i = 0; i < n; i++) {
    Scope *s = &scopes[i];
    s->parent = i ? &scopes[i - 1] : NULL;
    s->func = chain[i];
    s->info = func_info(chain[i]);
    s->cap = s->info->nslots;
    s->slot_funcs = calloc(s->cap + 1, sizeof *s->slot_funcs);
    for (int h = 0; h < s->info->hoisted.n; h++) {
      Node *def = s->info->hoisted.items[h];
      if (def->slot >= 0 && def->slot < s->cap) s->slot_funcs[def->slot] = def->func;
    }
  }
  Resolver R = {.prog = P, .scope = &scopes[n - 1]};
  resolve_func(&R, f, NULL);
  for (int i = 0; i < n; i++) free(scopes[i].slot_funcs);
  free(scopes);
}

int resolve_program(Program *P) {
  int before = diag_error_count();
  Resolver R = {.prog = P};
  Func *script = arena_alloc(P->arena, sizeof *script);
  script->name = "(top level)";
  script->kind = FK_HOST;
  script->body = P->root->list;
  script->loc = P->root->loc;
  P->script = script;
  FuncInfo *fi = calloc(1, sizeof *fi);
  script->sema = fi;
  Scope s = {.func = script, .info = fi};
  R.scope = &s;
  collect_locals(&R, &s, &script->body);
  resolve_block(&R, &script->body);
  /* imported definitions other than functions (reductions) were queued in list2 */
  resolve_block(&R, &P->root->list2);
  R.scope = NULL;
  free(s.slot_funcs);
  free(R.unknown);
  return diag_error_count() - before;
}
