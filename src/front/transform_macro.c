/* transform_macro.c: macros and `$target`, expanded in the syntax tree before name
   resolution.

   `macro [outs] = name(params) ... endmacro` at the top level of a file defines a macro.
   Three uses expand it in place, as a copy of its body:
     !name key=value; ...   a code attribute naming the macro: arguments bound by name
     name(args)             a statement: arguments bound in order
     [a, b] = name(args)    the same, and the outputs renamed to the targets
   A parameter is replaced by a copy of its argument expression, an output by the target.
   `$target("cpu" | "gpu" | "nvidia_cuda")` becomes 1 or 0 for the run's target, and an `if`
   whose condition is then a constant keeps only the branch it takes (so attributes inside
   reach the loop the macro was expanded in). The interpreter counts as "cpu".
   Reductions with nested patterns are replaced here too (below).

   Imports are loaded here, before anything is resolved, so that a macro an imported file
   defines expands in the importing file too (seed 000's hist_profile kept in a library).
   Each file is loaded once per program, by its real path: a second import of it, and an
   import cycle, add nothing. The parsed file hangs on its N_IMPORT node (a); name
   resolution splices its definitions into the top level (interp_resolve.c). */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "front/libpath.h"
#include "front/parse.h"
#include "front/transform.h"

#define MAX_DEPTH 16   /* nested expansions: a macro that expands itself stops here */

typedef struct Mx {
  Arena *arena;
  Target target;
  Node **macros; int nmacros, cap;   /* of every file loaded */
  Node **files; int nfiles, fcap;    /* the program, then the imported files */
  char **real; int rcap;             /* each file's real path (NULL: unknown) */
  Node *nested[32]; int nnested;   /* reductions with nested patterns defined so far */
  int depth;
} Mx;

/* What a macro's parameters and outputs are replaced by in one expansion. */
typedef struct Subst { const char *from[32]; Node *to[32]; int n; } Subst;

static void expand_list(Mx *M, NodeList *l);

static Func *find_macro(Mx *M, const char *name) {
  for (int i = M->nmacros - 1; i >= 0; i--)
    if (!strcmp(M->macros[i]->func->name, name)) return M->macros[i]->func;
  return NULL;
}

static Func *called_macro(Mx *M, Node *e) {
  if (!e || e->kind != N_CALL || e->a->kind != N_IDENT) return NULL;
  return find_macro(M, e->a->name);
}

/* ---- $target ---- */

static bool target_is(Mx *M, const char *name, SrcLoc loc) {
  if (!strcmp(name, "cpu")) return M->target != TARGET_CUDA;
  if (!strcmp(name, "gpu") || !strcmp(name, "nvidia_cuda")) return M->target == TARGET_CUDA;
  diag_error(loc, "unknown target \"%s\" (expected \"cpu\", \"gpu\" or \"nvidia_cuda\")", name);
  return false;
}

static Node *fold_target(Mx *M, Node *call) {
  Node *k = arena_alloc(M->arena, sizeof *k);
  k->kind = N_INT;
  k->loc = call->loc;
  if (call->list.n != 1 || call->list.items[0]->kind != N_STRING)
    diag_error(call->loc, "$target takes one string: \"cpu\", \"gpu\" or \"nvidia_cuda\"");
  else
    k->ival = target_is(M, call->list.items[0]->str, call->list.items[0]->loc);
  return k;
}

/* Whether e is an int constant made of literals, unary minus, + - * (no overflow); *v its
   value. A macro's literal arguments make such expressions (`r - m < K`). */
static bool const_int(const Node *e, int64_t *v) {
  int64_t a, b;
  if (e->kind == N_INT) { *v = e->ival; return true; }
  if (e->kind == N_UNARY && e->op == OP_NEG && const_int(e->a, &a) && a != INT64_MIN) {
    *v = -a;
    return true;
  }
  if (e->kind != N_BINARY || !const_int(e->a, &a) || !const_int(e->b, &b)) return false;
  switch (e->op) {
  case OP_ADD: return !__builtin_add_overflow(a, b, v);
  case OP_SUB: return !__builtin_sub_overflow(a, b, v);
  case OP_MUL: return !__builtin_mul_overflow(a, b, v);
  default: return false;
  }
}

/* 1 or 0 when the comparison c is of two int constants, else -1. */
static int const_compare(const Node *c) {
  int64_t a, b;
  if (c->kind != N_BINARY || !const_int(c->a, &a) || !const_int(c->b, &b)) return -1;
  switch (c->op) {
  case OP_LT: return a < b;
  case OP_LE: return a <= b;
  case OP_GT: return a > b;
  case OP_GE: return a >= b;
  case OP_EQ: return a == b;
  case OP_NE: return a != b;
  default: return -1;
  }
}

/* 1 or 0 when the condition is a constant of ints, comparisons of them and logic, else -1.
   (A && or || is constant only when both sides are: a side that is not may have effects.) */
static int const_cond(const Node *c) {
  if (c->kind == N_INT) return c->ival != 0;
  int compared = const_compare(c);
  if (compared >= 0) return compared;
  if (c->kind == N_UNARY && c->op == OP_NOT) {
    int a = const_cond(c->a);
    return a < 0 ? -1 : !a;
  }
  if (c->kind == N_BINARY && (c->op == OP_AND || c->op == OP_OR)) {
    int a = const_cond(c->a), b = const_cond(c->b);
    if (a < 0 || b < 0) return -1;
    return c->op == OP_AND ? a && b : a || b;
  }
  return -1;
}

/* ---- reductions with nested patterns ----
   `reduction x -> real(ifft3(x)) -> irealfft3(x)`: a call whose shape is the pattern's is
   replaced where it is written, from the definition on (the interpreter replaces calls
   whose arguments are the parameters themselves, `sum(x)`, at run time, where it checks
   their types: interp.c, find_reduction). */

bool reduction_is_nested(const Node *red) {
  const Node *pat = red->a;
  if (!pat || pat->kind != N_CALL) return false;
  for (int i = 0; i < pat->list.n; i++)
    if (pat->list.items[i]->kind != N_IDENT) return true;
  return false;
}

static bool match(const Func *f, const Node *pat, Node *e, Node **bound) {
  if (pat->kind == N_IDENT)
    for (int p = 0; p < f->nparams; p++)
      if (!strcmp(f->params[p].name, pat->name)) {
        if (bound[p]) return false;
        bound[p] = e;
        return true;
      }
  if (pat->kind != e->kind) return false;
  switch (pat->kind) {
  case N_IDENT: return !strcmp(pat->name, e->name);
  case N_INT: return pat->ival == e->ival;
  case N_CALL:
    if (pat->list.n != e->list.n || !match(f, pat->a, e->a, bound)) return false;
    for (int i = 0; i < pat->list.n; i++)
      if (!match(f, pat->list.items[i], e->list.items[i], bound)) return false;
    return true;
  default: return false;
  }
}

static Node *subst_copy(Mx *M, const Node *n, const Subst *s);

static Node *replace_nested(Mx *M, Node *call) {
  for (int r = M->nnested - 1; r >= 0; r--) {
    Node *red = M->nested[r];
    Func *f = red->func;
    Node *bound[32] = {0};
    if (f->nparams > 32 || !match(f, red->a, call, bound)) continue;
    Subst s = {0};
    for (int p = 0; p < f->nparams; p++)
      if (bound[p]) { s.from[s.n] = f->params[p].name; s.to[s.n++] = bound[p]; }
    Node *c = subst_copy(M, red->b, &s);
    c->loc = call->loc;
    return c;
  }
  return call;
}

/* ---- walking ---- */

static bool has_statements(NodeKind k) {
  return k == N_IF || k == N_FOR || k == N_WHILE || k == N_REPEAT || k == N_BLOCK ||
         k == N_PROGRAM;
}

/* Folds $target in n and expands macros in the statement lists below it. */
static Node *walk(Mx *M, Node *n) {
  if (!n) return NULL;
  if (n->kind == N_MACRO) return n;   /* expanded where it is used */
  if (n->kind == N_CALL && n->a->kind == N_IDENT && !strcmp(n->a->name, "$target"))
    return fold_target(M, n);
  if (n->kind == N_REDUCTION) {
    if (reduction_is_nested(n) && M->nnested < 32) M->nested[M->nnested++] = n;
    return n;
  }
  n->a = walk(M, n->a);
  n->b = walk(M, n->b);
  n->c = walk(M, n->c);
  if (has_statements(n->kind)) {
    expand_list(M, &n->list);
    expand_list(M, &n->list2);
  } else {
    for (int i = 0; i < n->list.n; i++) n->list.items[i] = walk(M, n->list.items[i]);
    for (int i = 0; i < n->list2.n; i++) n->list2.items[i] = walk(M, n->list2.items[i]);
  }
  for (int i = 0; i < n->ncases; i++) {
    n->cases[i].pattern = walk(M, n->cases[i].pattern);
    expand_list(M, &n->cases[i].body);
  }
  if (n->func && (n->kind == N_FUNCDEF || n->kind == N_LAMBDA)) {
    for (int i = 0; i < n->func->nparams; i++)
      n->func->params[i].defval = walk(M, n->func->params[i].defval);
    expand_list(M, &n->func->body);
  }
  if (n->kind == N_CALL && M->nnested) return replace_nested(M, n);
  return n;
}

static void push(Mx *M, NodeList *l, int *cap, Node *n) {
  if (l->n == *cap) {
    *cap = *cap ? 2 * *cap : 8;
    Node **items = arena_alloc(M->arena, *cap * sizeof *items);
    if (l->n) memcpy(items, l->items, l->n * sizeof *items);
    l->items = items;
  }
  l->items[l->n++] = n;
}


/* Appends to out a copy of the statements `from` with the parameters replaced (subst_copy);
   an `if` whose condition becomes a constant (a literal argument: `if 2 < C`) contributes
   only the branch it takes, and its other branch is never copied: expansions of the
   library's fixed-size filters are mostly such branches. */
static void subst_copy_stmts(Mx *M, const NodeList *from, NodeList *out, int *cap, const Subst *s) {
  for (int i = 0; i < from->n; i++) {
    const Node *n = from->items[i];
    if (n->kind != N_IF) { push(M, out, cap, subst_copy(M, n, s)); continue; }
    Node *cond = subst_copy(M, n->a, s);
    int taken = const_cond(cond);
    if (taken >= 0) { subst_copy_stmts(M, taken ? &n->list : &n->list2, out, cap, s); continue; }
    Node without_cond = *n;
    without_cond.a = NULL;
    Node *c = subst_copy(M, &without_cond, s);
    c->a = cond;
    push(M, out, cap, c);
  }
}

static void subst_copy_exprs(Mx *M, NodeList *l, const Subst *s) {
  Node **items = arena_alloc(M->arena, (size_t)(l->n + 1) * sizeof *items);
  for (int i = 0; i < l->n; i++) items[i] = subst_copy(M, l->items[i], s);
  l->items = items;
}

/* A copy of n (ast_clone's rules: functions, types and attributes shared) with each
   identifier named like a parameter or output replaced by a copy of its argument, and a
   loop variable so named renamed with it; statement lists through subst_copy_stmts. */
static Node *subst_copy(Mx *M, const Node *n, const Subst *s) {
  if (!n) return NULL;
  if (n->kind == N_IDENT)
    for (int i = 0; i < s->n; i++)
      if (!strcmp(n->name, s->from[i])) {
        Node *c = ast_clone(M->arena, s->to[i]);
        c->loc = n->loc;
        return c;
      }
  Node *c = arena_copy(M->arena, n, sizeof *c);
  if (c->kind == N_ASSIGN || c->kind == N_FOR) c->aux = NULL;   /* (as ast_clone) */
  if (c->kind == N_FOR)   /* a loop variable named like an output is renamed with it */
    for (int i = 0; i < s->n; i++)
      if (!strcmp(c->name, s->from[i]) && s->to[i]->kind == N_IDENT) c->name = s->to[i]->name;
  c->a = subst_copy(M, n->a, s);
  c->b = subst_copy(M, n->b, s);
  c->c = subst_copy(M, n->c, s);
  if (has_statements(n->kind)) {
    int cap = 0, cap2 = 0;
    c->list = (NodeList){0};
    c->list2 = (NodeList){0};
    subst_copy_stmts(M, &n->list, &c->list, &cap, s);
    subst_copy_stmts(M, &n->list2, &c->list2, &cap2, s);
  } else {
    subst_copy_exprs(M, &c->list, s);
    subst_copy_exprs(M, &c->list2, s);
  }
  if (n->ncases) {
    c->cases = arena_alloc(M->arena, (size_t)n->ncases * sizeof *c->cases);
    for (int i = 0; i < n->ncases; i++) {
      int cap = 0;
      c->cases[i] = n->cases[i];
      c->cases[i].pattern = subst_copy(M, n->cases[i].pattern, s);
      c->cases[i].body = (NodeList){0};
      subst_copy_stmts(M, &n->cases[i].body, &c->cases[i].body, &cap, s);
    }
  }
  return c;
}

static void bind(Subst *s, const char *from, Node *to) {
  if (s->n < 32) { s->from[s->n] = from; s->to[s->n] = to; s->n++; }
}

/* Binds the macro's parameters: by key (an attribute) or in order (a call). */
static bool bind_params(Func *m, Node *use, Subst *s) {
  for (int p = 0; p < m->nparams; p++) {
    Node *arg = NULL;
    if (use->kind == N_ATTR) {
      for (int i = 0; i < use->nattrs; i++)
        if (!strcmp(use->attrs[i].key, m->params[p].name)) arg = use->attrs[i].value;
    } else if (p < use->list.n) {
      arg = use->list.items[p];
    }
    if (!arg) arg = m->params[p].defval;
    if (!arg) {
      diag_error(use->loc, "macro '%s' needs its parameter '%s'", m->name, m->params[p].name);
      return false;
    }
    bind(s, m->params[p].name, arg);
  }
  if (use->kind == N_ATTR) {
    for (int i = 0; i < use->nattrs; i++) {
      bool known = false;
      for (int p = 0; p < m->nparams; p++) known |= !strcmp(use->attrs[i].key, m->params[p].name);
      if (!known || !use->attrs[i].value) {
        diag_error(use->attrs[i].loc, "macro '%s' has no parameter '%s'", m->name, use->attrs[i].key);
        return false;
      }
    }
  } else if (use->list.n > m->nparams) {
    diag_error(use->loc, "too many arguments to macro '%s' (expected %d, got %d)", m->name,
               m->nparams, use->list.n);
    return false;
  }
  return true;
}

/* Appends the expansion of macro m at `use` (an N_ATTR or N_CALL); targets: the outputs. */
static void expand_use(Mx *M, NodeList *out, int *cap, Func *m, Node *use, NodeList *targets) {
  if (M->depth >= MAX_DEPTH) {
    diag_error(use->loc, "macro '%s' expands itself more than %d levels deep", m->name, MAX_DEPTH);
    return;
  }
  Subst s = {0};
  if (!bind_params(m, use, &s)) return;
  if (targets) {
    if (targets->n != m->nouts) {
      diag_error(use->loc, "macro '%s' has %d output%s, assigned to %d", m->name, m->nouts,
                 m->nouts == 1 ? "" : "s", targets->n);
      return;
    }
    for (int i = 0; i < targets->n; i++) {
      if (targets->items[i]->kind != N_IDENT) {
        diag_error(targets->items[i]->loc, "a macro's output can only be assigned to a variable");
        return;
      }
      bind(&s, m->outs[i].name, targets->items[i]);
    }
  }
  NodeList body = {0};
  int bcap = 0;
  subst_copy_stmts(M, &m->body, &body, &bcap, &s);
  M->depth++;
  expand_list(M, &body);
  M->depth--;
  for (int i = 0; i < body.n; i++) push(M, out, cap, body.items[i]);
}

static void expand_list(Mx *M, NodeList *l) {
  NodeList out = {0};
  int cap = 0;
  for (int i = 0; i < l->n; i++) {
    Node *s = l->items[i];
    if (s->kind == N_IF) {   /* a constant condition: only the branch taken is expanded */
      Node *cond = walk(M, s->a);
      int taken = const_cond(cond);
      if (taken >= 0) {
        NodeList branch = taken ? s->list : s->list2;
        expand_list(M, &branch);
        for (int j = 0; j < branch.n; j++) push(M, &out, &cap, branch.items[j]);
        continue;
      }
      s->a = NULL;   /* (walked once) */
      s = walk(M, s);
      s->a = cond;
      push(M, &out, &cap, s);
      continue;
    }
    s = walk(M, s);
    Func *m;
    if (s->kind == N_ATTR && (m = find_macro(M, s->name))) {
      expand_use(M, &out, &cap, m, s, NULL);
    } else if (s->kind == N_EXPR && (m = called_macro(M, s->a))) {
      expand_use(M, &out, &cap, m, s->a, NULL);
    } else if (s->kind == N_ASSIGN && s->op == OP_NONE && (m = called_macro(M, s->b))) {
      expand_use(M, &out, &cap, m, s->b, &s->list);
    } else {
      push(M, &out, &cap, s);
    }
  }
  *l = out;
}

static void *grow_array(Mx *M, void *items, int n, int *cap) {
  if (n < *cap) return items;
  *cap = *cap ? 2 * *cap : 16;
  void **bigger = arena_alloc(M->arena, *cap * sizeof *bigger);
  if (n) memcpy(bigger, items, n * sizeof *bigger);
  return bigger;
}

/* f's real path in the arena, or NULL. */
static char *real_path(Mx *M, const SrcFile *f) {
  char buf[PATH_MAX];
  return f && f->path && realpath(f->path, buf) ? arena_strdup(M->arena, buf) : NULL;
}

static bool loaded_already(Mx *M, const char *real) {
  for (int i = 0; i < M->nfiles && real; i++)
    if (M->real[i] && !strcmp(M->real[i], real)) return true;
  return false;
}

/* A library module (libpath.h): Quasar's native modules (`import "Quasar.Video.dll"`) are
   Quasar.Video.q there, which says what OpenQuasar provides of them. */
static SrcFile *library_source(const char *name) {
  size_t n = strlen(name);
  if (n <= 4 || strcmp(name + n - 4, ".dll")) return libpath_load(name);
  char q[PATH_MAX];
  snprintf(q, sizeof q, "%.*s.q", (int)(n - 4), name);
  return libpath_load(q);
}

/* The file an import names: an absolute path as it is; else next to the importing file,
   else a library module (libpath.h). */
static SrcFile *import_source(const Node *program, const Node *imp) {
  if (imp->str[0] == '/') return srcfile_load(imp->str);
  const SrcFile *from = program->loc.file;
  char *dir = strdup(from && from->path ? from->path : ".");
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/%s", dirname(dir), imp->str);
  free(dir);
  SrcFile *f = srcfile_load(path);
  return f ? f : library_source(imp->str);
}

/* An imported file moved into the program's arena: it lives as long as the trees that point
   into it, and goes with them when loading fails (make asan's leak check). */
static SrcFile *arena_file(Mx *M, SrcFile *f) {
  SrcFile *g = arena_alloc(M->arena, sizeof *g);
  *g = *f;
  g->path = arena_strdup(M->arena, f->path);
  g->text = arena_strndup(M->arena, f->text, (size_t)f->len);
  srcfile_free(f);
  return g;
}

/* Takes in program's macros, then loads the files it imports, theirs too. */
static void load_file(Mx *M, Node *program, char *real) {
  M->files = grow_array(M, M->files, M->nfiles, &M->fcap);
  M->real = grow_array(M, M->real, M->nfiles, &M->rcap);
  M->real[M->nfiles] = real;
  M->files[M->nfiles++] = program;
  for (int i = 0; i < program->list.n; i++) {
    Node *n = program->list.items[i];
    if (n->kind == N_MACRO) {
      M->macros = grow_array(M, M->macros, M->nmacros, &M->cap);
      M->macros[M->nmacros++] = n;
    }
    if (n->kind != N_IMPORT) continue;
    SrcFile *f = import_source(program, n);
    if (!f) {
      diag_error(n->loc, "cannot import '%s': file not found", n->str);
      M->files[0]->ival = 1;
      continue;
    }
    f = arena_file(M, f);
    char *real = real_path(M, f);
    if (loaded_already(M, real)) continue;   /* imported twice: the first load's tree is used */
    int before = diag_error_count();
    n->a = parse_file(M->arena, f);
    if (diag_error_count() > before) M->files[0]->ival = 1;   /* what parsed is still used */
    load_file(M, n->a, real);
  }
}

int macro_expand(Arena *arena, Node *program, Target target) {
  int before = diag_error_count();
  Mx M = {.arena = arena, .target = target};
  load_file(&M, program, real_path(&M, program->loc.file));
  for (int i = 0; i < M.nfiles; i++) expand_list(&M, &M.files[i]->list);
  return diag_error_count() - before;
}
