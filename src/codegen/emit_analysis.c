/* emit_analysis.c: what the emitter learns about a kernel body before it writes it: arrays
   updated only by += (private copies), locals of barrier kernels (per thread, per phase or per
   block), zeros stored into fresh shared memory, the linear loop, locals that are pos plus a
   constant, and values every thread of a block agrees on. */
#include "codegen/emit.h"

static bool assign_used_as_value(Node *n, PrivCount *c, Em *E);
static void mark_assigned(FSpec *f, Node *n, unsigned char *assigned);

static void pos_scan(PosScan *c, Node *n) {
  if (!n || n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return;
  if (n->kind == N_ASSIGN && c->nassign)
    for (int i = 0; i < n->list.n; i++) {
      Node *t = n->list.items[i];
      if (t->kind == N_IDENT && t->slot >= 0 && t->depth == 0) c->nassign[t->slot]++;
      if (t->kind == N_INDEX && t->a->kind == N_IDENT && t->a->slot >= 0 && t->a->depth == 0) c->nassign[t->a->slot]++;
    }
  if (n->kind == N_FOR && n->slot >= 0 && c->nassign) c->nassign[n->slot]++;
  if (n->kind == N_IDENT && n->slot == c->slot && n->depth == 0) c->read = true;
  for (AstKids it = ast_kids(n); it.node; ast_next(&it)) pos_scan(c, it.node);
}

static void find_pos_locals(Em *E) {
  Func *f = E->S->kfunc;
  int nslots = func_info(f)->nslots;
  E->posdef = calloc(nslots + 1, sizeof *E->posdef);
  if (E->phases || !E->D->row_tests) return;   /* only the CPU's flat rows use them */
  PosScan c = {calloc(nslots + 1, sizeof(int)), -1, false};
  for (int j = 0; j < f->body.n; j++) pos_scan(&c, f->body.items[j]);
  for (int j = 0; j < f->body.n; j++) {
    Node *a = f->body.items[j];
    if (a->kind != N_ASSIGN || a->op != OP_NONE || a->list.n != 1 || !a->b) continue;
    Node *t = a->list.items[0];
    if (t->kind != N_IDENT || t->slot < 0 || t->depth != 0 || E->sc[t->slot] != SC_LOCAL ||
        c.nassign[t->slot] != 1 || em_T(E, t).kind != K_INT)
      continue;
    PosScan r = {NULL, t->slot, false};
    for (int i = 0; i < j; i++) pos_scan(&r, f->body.items[i]);
    pos_scan(&r, a->b);
    int64_t off;
    char *inv;
    bool any = false;
    for (int d = 0; d < E->S->D && !any; d++) any = em_pos_comp(E, a->b, d, &off, &inv);
    if (!r.read && any) E->posdef[t->slot] = a->b;
  }
  free(c.nassign);
}

/* ---- arrays updated only by += and -= ----
   Such an array can be updated in a private copy per worker, added into the array after
   the launch, instead of atomically: the same sums in another order (atomics have no
   order either). The launcher does it for small arrays that no other argument aliases. */

int em_private_of(Em *E, Node *id) {
  if (!E->f->is_kernel || id->kind != N_IDENT) return -1;
  NodeInfo *ni = ksema_info(E->f, id);
  for (int k = 0; k < E->S->tr.npriv; k++) {
    if (E->priv_slot[k] >= 0 && id->slot == E->priv_slot[k] && id->depth == 0) return k;
    if (E->priv_cap[k] >= 0 && ni && ni->cap == E->priv_cap[k]) return k;
  }
  return -1;
}

static bool refers(Em *E, Node *n, PrivCount *c) {
  if (n->kind != N_IDENT) return false;
  if (c->slot >= 0) return n->slot == c->slot && n->depth == 0;
  NodeInfo *ni = ksema_info(E->f, n);
  return ni && ni->cap == c->cap;
}

static void priv_walk(Em *E, Node *n, PrivCount *c) {
  if (!n) return;
  if (n->kind == N_IDENT && refers(E, n, c)) c->all++;
  if (n->kind == N_ASSIGN && (n->op == OP_ADD || n->op == OP_SUB) && n->list.n == 1 &&
      n->list.items[0]->kind == N_INDEX && refers(E, n->list.items[0]->a, c))
    c->ok++;
  if (n->kind == N_CALL && n->list.n >= 1 && refers(E, n->list.items[0], c)) {
    NodeInfo *ni = ksema_info(E->f, n);
    if (ni && (ni->builtin == KB_SIZE || ni->builtin == KB_NUMEL || ni->builtin == KB_NDIMS)) c->ok++;
  }
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return;
  for (AstKids it = ast_kids(n); it.node; ast_next(&it)) priv_walk(E, it.node, c);
}

/* The int literal every update of the array adds (`h[v] += 1`), or 0. Identical additions
   give the same result in any order, so a private copy can count them. */
static void inc_walk(Em *E, Node *n, PrivCount *c, int64_t *lit) {
  if (!n || *lit == -1) return;
  if (n->kind == N_ASSIGN && n->list.n == 1 && n->list.items[0]->kind == N_INDEX && refers(E, n->list.items[0]->a, c)) {
    int64_t v = 0;
    if (n->op != OP_ADD || !n->b || n->b->kind != N_INT || n->b->ival == 0 || n->b->ival > (1 << 20) ||
        (*lit && *lit != n->b->ival))
      *lit = -1;
    else v = n->b->ival;
    if (*lit != -1) *lit = v;
  }
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return;
  for (AstKids it = ast_kids(n); it.node; ast_next(&it)) inc_walk(E, it.node, c, lit);
}

static int64_t same_int_increment(Em *E, NodeList *body, PrivCount *c) {
  int64_t lit = 0;
  for (int i = 0; i < body->n; i++) inc_walk(E, body->items[i], c, &lit);
  return lit > 0 ? lit : 0;
}

/* Statements use `x[...] += v` as statements only: an assignment used as a value reads. */

static void find_private(Em *E) {
  KSpec *S = E->S;
  FSpec *k = S->kspec;
  Func *f = k->func;
  S->tr.npriv = 0;
  int nargs = f->nparams + S->ncaps;
  for (int a = 0; a < nargs && S->tr.npriv < OQK_PRIV_SLOTS; a++) {
    PrivCount c = {.slot = -1, .cap = -1};
    KType t;
    if (a < f->nparams) {
      int s = f->ngenerics + a;
      if (E->sc[s] != SC_PARAM) continue;
      c.slot = s;
      t = k->params[a];
    } else {
      c.cap = a - f->nparams;
      t = S->caps[c.cap].type;
      /* device functions may use the captured array too */
      bool elsewhere = false;
      for (int i = 1; i < E->nreach && !elsewhere; i++)
        for (int j = 0; j < E->reach[i]->info.cap; j++)
          if (E->reach[i]->info.items[j].node && E->reach[i]->info.items[j].cap == c.cap) elsewhere = true;
      if (elsewhere) continue;
    }
    if (t.kind != K_ARRAY || t.shared || el_is_complex(t.el)) continue;
    for (int i = 0; i < f->body.n; i++) priv_walk(E, f->body.items[i], &c);
    bool as_value = false;
    for (int i = 0; i < f->body.n; i++) as_value |= assign_used_as_value(f->body.items[i], &c, E);
    if (c.all == 0 || c.all != c.ok || as_value) continue;
    E->priv_slot[S->tr.npriv] = c.slot;
    E->priv_cap[S->tr.npriv] = c.cap;
    S->tr.priv_count[S->tr.npriv] = el_is_integer(t.el) ? 0 : same_int_increment(E, &f->body, &c);
    S->tr.priv_arg[S->tr.npriv++] = a;
  }
}

static bool assign_used_as_value(Node *n, PrivCount *c, Em *E) {
  if (!n) return false;
  bool stmt_list_parent = false;
  (void)stmt_list_parent;
  /* an N_ASSIGN reached as an operand of an expression (not a statement) */
  switch (n->kind) {
  case N_ASSIGN:
    /* its own value is not used here; look inside its operands */
    for (int i = 0; i < n->list.n; i++)
      if (n->list.items[i]->kind == N_INDEX)
        for (int j = 0; j < n->list.items[i]->list.n; j++)
          if (assign_used_as_value(n->list.items[i]->list.items[j], c, E)) return true;
    if (n->b && n->b->kind == N_ASSIGN && n->b->list.n == 1 && n->b->list.items[0]->kind == N_INDEX &&
        refers(E, n->b->list.items[0]->a, c))
      return true;
    return assign_used_as_value(n->b, c, E);
  case N_IF: case N_WHILE: case N_REPEAT: case N_FOR: case N_BLOCK: case N_MATCH:
    for (AstKids it = ast_kids(n); it.node; ast_next(&it)) if (assign_used_as_value(it.node, c, E)) return true;
    return false;
  case N_EXPR:
    return n->a && n->a->kind == N_ASSIGN && n->a->list.n == 1 && n->a->list.items[0]->kind == N_INDEX &&
           refers(E, n->a->list.items[0]->a, c);
  default:
    if (n->kind == N_CALL || n->kind == N_BINARY || n->kind == N_UNARY || n->kind == N_COND ||
        n->kind == N_MATRIX || n->kind == N_INDEX) {
      Node *kids[3] = {n->a, n->b, n->c};
      for (int i = 0; i < 3; i++)
        if (kids[i] && kids[i]->kind == N_ASSIGN && kids[i]->list.n == 1 &&
            kids[i]->list.items[0]->kind == N_INDEX && refers(E, kids[i]->list.items[0]->a, c))
          return true;
      for (int i = 0; i < n->list.n; i++)
        if (n->list.items[i]->kind == N_ASSIGN && n->list.items[i]->list.n == 1 &&
            n->list.items[i]->list.items[0]->kind == N_INDEX && refers(E, n->list.items[i]->list.items[0]->a, c))
          return true;
    }
    return false;
  }
}

/* ---- locals of kernels with barriers ----
   A local lives in a per-thread array unless every phase that mentions it assigns it
   before reading it (then each phase has its own plain local), or it only ever holds the
   block's shared array (then the block has one). */

/* true when statements from..to-1 assign slot before any read of it (or never mention it) */
static bool defined_first(NodeList *l, int from, int to, int slot) {
  for (int i = from; i < to; i++) {
    Node *n = l->items[i];
    if (!mentions_var(n, var_slot(slot))) continue;
    if (n->kind == N_ASSIGN && n->op == OP_NONE && n->list.n == 1 && n->list.items[0]->kind == N_IDENT &&
        n->list.items[0]->slot == slot && n->b && !mentions_var(n->b, var_slot(slot)))
      return true;
    if (n->kind == N_FOR && n->slot == slot && !mentions_var(n->a, var_slot(slot))) {
      /* a loop that may run zero times leaves the old value for what follows */
      for (int j = i + 1; j < to; j++)
        if (mentions_var(l->items[j], var_slot(slot))) return false;
      return true;
    }
    return false;
  }
  return true;
}

/* The first statement of l from i on that holds a barrier (l->n if none): statements i..end-1
   are one phase. */
int em_phase_end(Em *E, const NodeList *l, int i) {
  while (i < l->n) {
    NodeInfo *ni = ksema_info(E->f, l->items[i]);
    if (ni && ni->barrier) break;
    i++;
  }
  return i;
}

void em_phase_scan(Em *E, NodeList *l, unsigned char *bad, int first, int nslots) {
  int i = 0;
  while (i < l->n) {
    Node *n = l->items[i];
    NodeInfo *ni = ksema_info(E->f, n);
    if (ni && ni->barrier) {
      if (n->kind != N_EXPR) {
        /* block-level statements: their conditions and loop variables are read per thread */
        for (int s = first; s < nslots; s++) {
          if (mentions_var(n->a, var_slot(s)) || (n->kind == N_FOR && n->slot == s)) bad[s] = 1;
        }
        em_phase_scan(E, &n->list, bad, first, nslots);
        em_phase_scan(E, &n->list2, bad, first, nslots);
      }
      i++;
      continue;
    }
    int j = em_phase_end(E, l, i);
    for (int s = first; s < nslots; s++)
      if (!defined_first(l, i, j, s)) bad[s] = 1;
    i = j;
  }
}

static bool only_shared(Node *n, int slot, bool *assigned) {
  if (!n) return true;
  if (n->kind == N_ASSIGN)
    for (int i = 0; i < n->list.n; i++) {
      Node *t = n->list.items[i];
      if (t->kind == N_IDENT && t->slot == slot && t->depth == 0) {
        if (n->op != OP_NONE || n->list.n != 1 || !n->b || n->b->kind != N_CALL || n->b->a->kind != N_IDENT ||
            strncmp(n->b->a->name, "shared", 6))
          return false;
        *assigned = true;
      }
    }
  if (n->kind == N_FOR && n->slot == slot) return false;
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return true;
  for (AstKids it = ast_kids(n); it.node; ast_next(&it)) if (!only_shared(it.node, slot, assigned)) return false;
  return true;
}

/* ---- zeros stored into fresh shared memory ----
   shared() memory is zero-filled for every block. In the phase that allocates it, before any
   barrier, `s[...] = 0` changes nothing when no thread does anything else with s there: such
   stores are dropped, and loops left without statements too (their range is still checked). */

static bool is_zero_lit(Node *v) {
  if (v->kind == N_UNARY && (v->op == OP_NEG || v->op == OP_PLUS)) return is_zero_lit(v->a);
  return (v->kind == N_INT && v->ival == 0) || (v->kind == N_REAL && v->rval == 0);
}

/* no side effects and no error can come from evaluating n (built-ins other than mod) */
static bool harmless(Node *n) {
  if (!n) return true;
  switch (n->kind) {
  case N_ASSIGN: case N_EXCHANGE: case N_LAMBDA: case N_FUNCDEF: return false;
  case N_BINARY: if (n->op == OP_MOD) return false; break;
  case N_CALL:
    if (n->a->kind != N_IDENT || n->a->slot >= 0 || !strcmp(n->a->name, "mod") || !strcmp(n->a->name, "assert"))
      return false;
    break;
  default: break;
  }
  if (!harmless(n->a) || !harmless(n->b) || !harmless(n->c)) return false;
  for (int i = 0; i < n->list.n; i++) if (!harmless(n->list.items[i])) return false;
  return true;
}

static bool is_zero_store(Node *n, int slot) {
  if (!(n->kind == N_ASSIGN && n->op == OP_NONE && n->list.n == 1 && n->b && is_zero_lit(n->b) &&
        n->list.items[0]->kind == N_INDEX && n->list.items[0]->a->kind == N_IDENT &&
        n->list.items[0]->a->slot == slot && n->list.items[0]->a->depth == 0))
    return false;
  Node *t = n->list.items[0];
  if ((unsigned)t->a->ival & (TM_CHECKED | TM_UNCHECKED)) return false;   /* stores outside are errors */
  for (int i = 0; i < t->list.n; i++)
    if (!harmless(t->list.items[i])) return false;
  return true;
}

/* slot is mentioned in n other than as the array of size() or numel() */
static bool mentions_data(Node *n, int slot) {
  if (!n) return false;
  if (n->kind == N_CALL && n->a->kind == N_IDENT && n->a->slot < 0 &&
      (!strcmp(n->a->name, "size") || !strcmp(n->a->name, "numel")) && n->list.n >= 1 &&
      n->list.items[0]->kind == N_IDENT && n->list.items[0]->slot == slot) {
    for (int i = 1; i < n->list.n; i++)
      if (mentions_data(n->list.items[i], slot)) return true;
    return false;
  }
  if (n->kind == N_IDENT) return n->slot == slot && n->depth == 0;
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return mentions_var(n, var_slot(slot));
  for (AstKids it = ast_kids(n); it.node; ast_next(&it)) if (mentions_data(it.node, slot)) return true;
  return false;
}

/* Every mention of slot in n is the base of a zero store (or its size); counts them. */
static bool only_zero_stores(Node *n, int slot, int *count) {
  if (!n) return true;
  if (is_zero_store(n, slot)) {
    (*count)++;
    for (int i = 0; i < n->list.items[0]->list.n; i++)
      if (mentions_data(n->list.items[0]->list.items[i], slot)) return false;
    return true;
  }
  if (n->kind == N_IDENT && n->slot == slot && n->depth == 0) return false;
  if (n->kind == N_CALL && !mentions_data(n, slot)) return true;
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return !mentions_var(n, var_slot(slot));
  for (AstKids it = ast_kids(n); it.node; ast_next(&it)) if (!only_zero_stores(it.node, slot, count)) return false;
  return true;
}

static void mark_dead(Em *E, Node *n, int slot) {
  if (!n) return;
  if (is_zero_store(n, slot)) {
    E->dead = realloc(E->dead, (E->ndead + 1) * sizeof *E->dead);
    E->dead[E->ndead++] = n;
    return;
  }
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return;
  for (AstKids it = ast_kids(n); it.node; ast_next(&it)) mark_dead(E, it.node, slot);
}

bool em_is_dead(Em *E, Node *n) {
  for (int i = 0; i < E->ndead; i++)
    if (E->dead[i] == n) return true;
  return false;
}

/* A statement list whose statements all do nothing. */
bool em_all_dead(Em *E, NodeList *l) {
  for (int i = 0; i < l->n; i++) {
    Node *n = l->items[i];
    if (em_is_dead(E, n) || n->kind == N_ATTR) continue;
    if (n->kind == N_FOR && em_all_dead(E, &n->list)) continue;
    return false;
  }
  return true;
}

static void find_dead_zero_stores(Em *E) {
  Func *f = E->S->kfunc;
  NodeList *l = &f->body;
  int nslots = func_info(f)->nslots;
  for (int s = 0; s < nslots; s++) {
    if (!E->pphase || E->pphase[s] != 2) continue;
    /* the allocation, then the rest of its phase */
    int i = 0;
    while (i < l->n && !(l->items[i]->kind == N_ASSIGN && l->items[i]->list.n == 1 &&
                         l->items[i]->list.items[0]->kind == N_IDENT && l->items[i]->list.items[0]->slot == s))
      i++;
    if (i == l->n) continue;
    int j = i + 1, count = 0;
    bool ok = true;
    for (; j < l->n; j++) {
      NodeInfo *nj = ksema_info(E->f, l->items[j]);
      if (nj && nj->barrier) break;
      ok = ok && only_zero_stores(l->items[j], s, &count);
    }
    if (!ok || !count) continue;
    for (int k = i + 1; k < j; k++) mark_dead(E, l->items[k], s);
  }
}

static void find_phase_locals(Em *E) {
  Func *f = E->S->kfunc;
  int nslots = func_info(f)->nslots, first = f->ngenerics + f->nparams + f->nouts;
  unsigned char *bad = calloc(nslots + 1, 1);
  em_phase_scan(E, &f->body, bad, first, nslots);
  E->pphase = calloc(nslots + 1, 1);
  for (int s = first; s < nslots; s++) {
    if (E->sc[s] != SC_LOCAL) continue;
    bool assigned = false, sh = true;
    for (int i = 0; i < f->body.n && sh; i++) sh = only_shared(f->body.items[i], s, &assigned);
    if (sh && assigned && E->f->slots[s].kind == K_ARRAY && E->f->slots[s].shared) E->pphase[s] = 2;
    else if (!bad[s]) E->pphase[s] = 1;
  }
  free(bad);
  if (E->D->shared_zeroed) find_dead_zero_stores(E);   /* CUDA: em_shared_plan decides its zeroing */
}

/* Identifier n is the kernel's top-level slot. */
static bool is_slot(const Node *n, int slot) {
  return n->kind == N_IDENT && n->slot == slot && n->depth == 0;
}

/* How many times index n names the position (slot: `pos`) when it is x[pos], or x[pos[0],
   ..., pos[D-1]] with D > 1 (a parallel loop's A[m, n, k] over loops from 0:
   transform_parloop); else 0. Either is the launch's own element when x has its shape. */
int em_pos_index(const Em *E, const Node *n, int slot) {
  if (n->kind != N_INDEX) return 0;
  if (n->list.n == 1 && is_slot(n->list.items[0], slot)) return 1;
  int D = E->S->D;
  if (D < 2 || n->list.n != D) return 0;
  for (int d = 0; d < D; d++) {
    const Node *c = n->list.items[d];
    if (c->kind != N_INDEX || !is_slot(c->a, slot) || c->list.n != 1 || c->list.items[0]->kind != N_INT ||
        c->list.items[0]->ival != d)
      return 0;
  }
  return D;
}

static void lin_walk(LinScan *c, Node *n) {
  if (!n) return;
  Em *E = c->E;
  if (is_slot(n, c->slot)) c->uses++;
  int named = em_pos_index(E, n, c->slot);
  if (named) {
    Node *b = n->a;
    NodeInfo *bi = ksema_info(E->f, b);
    bool arg = b->kind == N_IDENT && bi && bi->t.kind == K_ARRAY && !bi->t.shared &&
               (bi->cap >= 0 || (b->slot >= 0 && b->depth == 0 && E->sc[b->slot] == SC_PARAM));
    /* x[pos] of a 1-D launch over an array of more dimensions reads its elements in
       row-major order (a host reduction's flat loop): the element _r when the array has
       the launch's count of elements */
    bool flat = E->S->D == 1 && bi && bi->t.rank > 1;
    if (!arg || (bi->t.rank != E->S->D && !flat)) c->bad = true;
    else {
      c->ok += named;
      char *name = em_ex_ident(E, b);
      if (flat) {
        em_bprintf(c->test, " && (int64_t)%s.d[0]", name);
        for (int d = 1; d < bi->t.rank; d++) em_bprintf(c->test, " * %s.d[%d]", name, d);
        em_bputs(c->test, " == n0");
      } else {
        for (int d = 0; d < E->S->D; d++) em_bprintf(c->test, " && %s.d[%d] == n%d", name, d, d);
      }
    }
  }
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return;
  for (AstKids it = ast_kids(n); it.node; ast_next(&it)) lin_walk(c, it.node);
}

static void find_linear(Em *E) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  E->lin_slot = -1;
  if (S->uses_block || S->barrier) return;
  for (int i = 0; i < S->nspecial; i++) {
    const KSpecial *sp = &S->special[i];
    if (strcmp(sp->name, "pos")) continue;
    if (sp->t.kind == K_VEC ? sp->t.len != S->D : S->D != 1) return;
    int slot = f->ngenerics + sp->param;
    if (E->sc[slot] != SC_SPECIAL) return;
    Buf test = {0};
    LinScan c = {.slot = slot, .test = &test, .E = E};
    for (int j = 0; j < f->body.n; j++) lin_walk(&c, f->body.items[j]);
    if (!c.bad && c.ok > 0 && c.ok == c.uses) {
      E->lin_slot = slot;
      E->lin_test = test;
    } else {
      free(test.s);
    }
  }
}

/* The hooks around a launch with private copies: zero them before, add them in after. */
void em_emit_private_hooks(Em *E, Buf *out) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  for (int pass = 0; pass < 2; pass++) {
    em_bprintf(out, "void oqk_%s(OqkLaunch *L, OqkWorker *W) {\n", pass ? "finish" : "begin");
    for (int k = 0; k < S->tr.npriv; k++) {
      int a = S->tr.priv_arg[k];
      KType t = a < f->nparams ? S->kspec->params[a] : S->caps[a - f->nparams].type;
      const char *ct = em_el_ctype(t.el);
      int64_t cnt = S->tr.priv_count[k];
      em_bprintf(out, "  if ((L->priv_mask >> %d) & 1) {\n", k);
      em_bprintf(out, "    size_t n = 1;\n    for (int d = 0; d < %d; d++) n *= (size_t)L->args[%d].dims[d];\n", t.rank, a);
      if (cnt) ct = "int64_t";
      if (pass && cnt) {
        /* k additions of c: at once while every step is an exact integer, else one by one */
        bool narrow = t.el == EL_F32 || !rt_config.double_precision;
        em_bprintf(out, "    int64_t *p = (int64_t *)W->scr[%d];\n    %s *y = (%s *)L->args[%d].data;\n", OQK_PRIV_BASE + k,
                em_el_ctype(t.el), em_el_ctype(t.el), a);
        em_bprintf(out, "    for (size_t i = 0; i < n; i++) {\n      int64_t k = p[i];\n      if (!k) continue;\n");
        em_bprintf(out, "      const double v = (double)%s, c = %lld.0, lim = %s;\n", em_load(E, t.el, "y[i]"),
                (long long)cnt, narrow ? "16777216.0" : "9007199254740992.0");
        em_bprintf(out, "      if (v == trunc(v) && fabs(v) <= lim) {   /* the steps that stay exact integers */\n");
        em_bprintf(out, "        double j = floor(c > 0 ? (lim - v) / c : (lim + v) / -c);\n");
        em_bprintf(out, "        if (j > (double)k) j = (double)k;\n");
        em_bprintf(out, "        y[i] = %s;\n        k -= (int64_t)j;\n      }\n", em_store_conv(E, t.el, "(v + j * c)", em_kt(K_REAL)));
        em_bprintf(out, "      for (; k > 0; k--) {   /* then one by one, until adding no longer changes it */\n");
        em_bprintf(out, "        const %s m = %s;\n        if (m == y[i] || m != m) { y[i] = m; break; }\n        y[i] = m;\n      }\n    }\n",
                em_el_ctype(t.el), em_store_conv(E, t.el, em_sf(E, "(%s + (oq_real)%lld)", em_load(E, t.el, "y[i]"), (long long)cnt), em_kt(K_REAL)));
        em_bprintf(out, "  }\n");
        continue;
      }
      if (!pass) {
        em_bprintf(out, "    void *p = oq_scratch(W, %d, n * sizeof(%s) + 1);\n", OQK_PRIV_BASE + k, ct);
        em_bprintf(out, "    if (p) memset(p, 0, n * sizeof(%s));\n    else L->priv_mask = 0;\n", ct);
      } else {
        em_bprintf(out, "    %s *p = (%s *)W->scr[%d], *y = (%s *)L->args[%d].data;\n", ct, ct, OQK_PRIV_BASE + k, ct, a);
        if (el_is_integer(t.el))
          em_bprintf(out, "    for (size_t i = 0; i < n; i++) y[i] = (%s)((int64_t)y[i] + (int64_t)p[i]);\n", ct);
        else
          em_bprintf(out, "    for (size_t i = 0; i < n; i++) y[i] = (%s)(y[i] + p[i]);\n", ct);
      }
      em_bprintf(out, "  }\n");
    }
    em_bprintf(out, "  (void)L; (void)W;\n}\n");
  }
}

/* ---- the kernel ---- */

/* Slots a function assigns; `v[i] = x` assigns v when v is a local vector of f. */

static void mark_list(FSpec *f, NodeList *l, unsigned char *assigned) {
  for (int i = 0; i < l->n; i++) mark_assigned(f, l->items[i], assigned);
}

static void mark_assigned(FSpec *f, Node *n, unsigned char *assigned) {
  if (!n) return;
  switch (n->kind) {
  case N_ASSIGN:
    for (int i = 0; i < n->list.n; i++) {
      Node *t = n->list.items[i];
      if (t->kind == N_IDENT && t->slot >= 0 && t->depth == 0) assigned[t->slot] = 1;
      if (t->kind == N_INDEX && t->a->kind == N_IDENT && t->a->slot >= 0 && t->a->depth == 0 &&
          f->slots[t->a->slot].kind == K_VEC)
        assigned[t->a->slot] = 1;   /* a component of a local vector */
    }
    mark_assigned(f, n->b, assigned);
    return;
  case N_FOR: assigned[n->slot] = 1; mark_assigned(f, n->a, assigned); mark_list(f, &n->list, assigned); return;
  case N_IF: mark_assigned(f, n->a, assigned); mark_list(f, &n->list, assigned); mark_list(f, &n->list2, assigned); return;
  case N_WHILE: case N_REPEAT: case N_BLOCK: mark_assigned(f, n->a, assigned); mark_list(f, &n->list, assigned); return;
  case N_MATCH:
    for (int i = 0; i < n->ncases; i++) mark_list(f, &n->cases[i].body, assigned);
    return;
  case N_LAMBDA: case N_FUNCDEF: return;
  default:
    mark_assigned(f, n->a, assigned);
    mark_assigned(f, n->b, assigned);
    mark_assigned(f, n->c, assigned);
    mark_list(f, &n->list, assigned);
    return;
  }
}

/* ---- block-stride loops ----
   `for i = ind..cnt..e` with ind = pos2ind(blkdim, blkpos) and cnt = prod(blkdim) (each
   assigned once): over the threads of a block, i takes each value 0..e once. When nothing in
   the loop depends on its thread (it reads only i, arguments, captures, the block's shared
   arrays and constants; no break, continue or return), the phase is one loop over i per block
   instead of a loop per thread: the threads of a phase run in any order. */

static bool is_special_named(Em *E, Node *n, const char *name) {
  Func *f = E->S->kfunc;
  if (n->kind != N_IDENT || n->depth != 0 || n->slot < f->ngenerics) return false;
  const KSpecial *sp = em_special_of(E->S, n->slot - f->ngenerics);
  return sp && !strcmp(sp->name, name);
}

/* The assignments of slot in n: stores into it and loops over it (facts.c's walker). */
static int count_assign(Node *n, int slot) {
  return count_uses(n, &(UseWalk){.var = var_slot(slot), .kind = USE_ASSIGN, .nested = NESTED_SKIP});
}

/* The one value a local is given (a top-level `x = v` and no other assignment), or NULL. */
static Node *single_value(Em *E, Node *id) {
  Func *f = E->S->kfunc;
  if (id->kind != N_IDENT || id->depth != 0 || id->slot < 0) return NULL;
  int total = 0;
  Node *v = NULL;
  for (int i = 0; i < f->body.n; i++) {
    Node *n = f->body.items[i];
    total += count_assign(n, id->slot);
    if (n->kind == N_ASSIGN && n->op == OP_NONE && n->list.n == 1 && n->list.items[0]->kind == N_IDENT &&
        n->list.items[0]->slot == id->slot)
      v = n->b;
  }
  return total == 1 ? v : NULL;
}

static bool builtin_call(Em *E, Node *n, int id, int nargs) {
  NodeInfo *ni = n && n->kind == N_CALL ? ksema_info(E->f, n) : NULL;
  return ni && ni->builtin == id && n->list.n == nargs;
}

static bool thread_free(Em *E, Node *n, int islot) {
  if (!n) return true;
  switch (n->kind) {
  case N_BREAK: case N_CONTINUE: case N_RETURN: case N_LAMBDA: case N_FUNCDEF: return false;
  case N_IDENT: {
    NodeInfo *ni = ksema_info(E->f, n);
    if (ni && ni->cap >= 0) return true;
    if (n->slot < 0) return true;   /* a built-in's name */
    if (n->depth != 0) return false;
    int s = n->slot;
    return s == islot || E->sc[s] == SC_PARAM || E->pphase[s] == 2 || (E->konst && E->konst[s] && !E->tconst[s]);
  }
  case N_CALL: {
    NodeInfo *ni = ksema_info(E->f, n);
    if (!ni || ni->callee || ni->builtin == KB_SYNC || ni->builtin == KB_SHARED) return false;
    break;
  }
  default: break;
  }
  for (AstKids it = ast_kids(n); it.node; ast_next(&it)) if (!thread_free(E, it.node, islot)) return false;
  return true;
}

bool em_block_stride_loop(Em *E, Node *n) {
  if (n->kind != N_FOR || !n->a || n->a->kind != N_RANGE || !n->a->b || em_T(E, n->a).kind != K_INT) return false;
  Node *r = n->a, *ind = single_value(E, r->a), *cnt = single_value(E, r->b);
  if (!ind || !cnt || !builtin_call(E, ind, KB_POS2IND, 2) || !builtin_call(E, cnt, KB_PROD, 1)) return false;
  if (!is_special_named(E, ind->list.items[0], "blkdim") || !is_special_named(E, ind->list.items[1], "blkpos") ||
      !is_special_named(E, cnt->list.items[0], "blkdim"))
    return false;
  /* i is a plain local of its phases (each assigns it before reading it), and this phase
     is the loop alone: nobody reads what the threads' loops would leave in it */
  if (E->sc[n->slot] != SC_LOCAL || E->pphase[n->slot] != 1 || count_assign(n, n->slot) != 1) return false;
  for (int i = 0; i < n->list.n; i++)
    if (!thread_free(E, n->list.items[i], n->slot)) return false;
  return thread_free(E, r->c, n->slot);
}

/* ---- a thread's own elements ---- */

/* Whether target (x[...] of a compound assignment) is the thread's own element: x[pos] of a
   parameter the kernel uses only so (KFacts.own_elems) and no other argument is. */
bool em_own_update(Em *E, Node *target) {
  Func *f = E->S->kfunc;
  Node *x = target->a;
  int p = x->kind == N_IDENT && x->depth == 0 ? x->slot - f->ngenerics : -1;
  if (!E->f->is_kernel || p < 0 || p >= f->nparams || p >= 32 || (E->S->aliased >> p & 1)) return false;
  if (target->list.n != 1 || !is_special_named(E, target->list.items[0], "pos")) return false;
  return E->S->facts.own_elems >> p & 1;
}

/* ---- packed merges (coarse.c, em_cuda_shadow_update) ---- */

/* How many of the persistent blocks' counts v adds up (a count, a slice of them, sum() of
   either, + of such); -1: v is not such a sum, so not known to be a whole number. */
static int count_terms(Em *E, Node *v) {
  if (v->kind == N_INDEX && v->a->kind == N_IDENT && v->a->depth == 0 && v->a->slot == E->coarse_slot) {
    KType t = em_T(E, v);
    return t.kind == K_VEC ? t.len : t.kind == K_INT || t.kind == K_REAL ? 1 : -1;
  }
  if (builtin_call(E, v, KB_SUM, 1)) return count_terms(E, v->list.items[0]);
  if (v->kind != N_BINARY || v->op != OP_ADD) return -1;
  int a = count_terms(E, v->a), b = a < 0 ? -1 : count_terms(E, v->b);
  return b < 0 ? -1 : a + b;
}

/* Whether the epilogue's block-stride loop n (em_block_stride_loop) of a kernel whose
   accumulator holds counts adds into each element of array slot y at most once per block,
   and a whole number below 2^30: its body is the
   one statement `y[i] += v`, v the sum of at most 64 counts (each below 2^24: plan.c's
   plan_cuda_coarse), and nothing else in the kernel stores into y. */
bool em_packed_merge_ok(Em *E, Node *n, int y) {
  if (n->list.n != 1) return false;
  Node *s = n->list.items[0], *t = s->kind == N_ASSIGN && s->list.n == 1 ? s->list.items[0] : NULL;
  if (!t || s->op != OP_ADD || t->kind != N_INDEX || t->list.n != 1 || t->a->kind != N_IDENT ||
      t->a->depth != 0 || t->a->slot != y)
    return false;
  Node *i = t->list.items[0];
  if (i->kind != N_IDENT || i->depth != 0 || i->slot != n->slot) return false;
  int stores = 0;
  for (int j = 0; j < E->S->kfunc->body.n; j++) stores += count_assign(E->S->kfunc->body.items[j], y);
  int terms = count_terms(E, s->b);
  return stores == 1 && terms >= 1 && terms <= 64;
}

/* A local holding the thread's linear index in its block (pos2ind(blkdim, blkpos)) or the
   block's thread count (prod(blkdim)), assigned once, is the expression ind or cnt (NULL:
   left alone) of the code that runs the block's threads, not a per-thread value: the CPU's
   phase loops (_t, _nthr) and CUDA's virtual threads (emit_cuda.c) number the threads in
   the same row-major order. */
void em_thread_consts(Em *E, const char *ind, const char *cnt) {
  Func *f = E->S->kfunc;
  int n = func_info(f)->nslots, first = f->ngenerics + f->nparams + f->nouts;
  if (!E->tconst) E->tconst = calloc(n + 1, 1);
  for (int i = 0; i < E->S->nspecial; i++) {
    KType t = E->S->special[i].t;
    if ((!strcmp(E->S->special[i].name, "blkpos") || !strcmp(E->S->special[i].name, "blkdim")) &&
        !(t.kind == K_VEC ? t.len == E->S->D : E->S->D == 1))
      return;
  }
  for (int s = first; s < n; s++) {
    Node id = {.kind = N_IDENT, .slot = s};
    Node *v = E->konst[s] || E->f->slots[s].kind != K_INT ? NULL : single_value(E, &id);
    if (!v) continue;
    if (ind && builtin_call(E, v, KB_POS2IND, 2) && is_special_named(E, v->list.items[0], "blkdim") &&
        is_special_named(E, v->list.items[1], "blkpos"))
      E->konst[s] = (char *)ind;
    else if (cnt && builtin_call(E, v, KB_PROD, 1) && is_special_named(E, v->list.items[0], "blkdim"))
      E->konst[s] = (char *)cnt;
    E->tconst[s] = E->konst[s] != NULL;
    if (E->konst[s]) E->sc[s] = SC_NONE;
  }
}

/* ---- CUDA transforms of flat kernels ----
   A flat kernel's threads are independent, so the GPU may run its positions in any grouping:
   with kernel outputs or private arrays it runs a grid-stride loop (tiling: a few blocks per
   SM, many positions per thread), so that each block combines its outputs once (block-reduce)
   and merges its shared-memory copies of the private arrays once (privatize). */

void em_xform_note(KSpec *S, const char *fmt, const char *name) {
  size_t n = strlen(S->xforms);
  if (n + 2 < sizeof S->xforms) snprintf(S->xforms + n, sizeof S->xforms - n, n ? ", " : "");
  n = strlen(S->xforms);
  if (n + 1 < sizeof S->xforms) snprintf(S->xforms + n, sizeof S->xforms - n, fmt, name);
}

const char *em_priv_name(KSpec *S, int k) {
  int a = S->tr.priv_arg[k];
  Func *f = S->kfunc;
  if (a < f->nparams) return f->params[a].name;
  FSpec *ks = S->kspec;   /* a capture: the name of an identifier that reads it */
  for (int i = 0; i < ks->info.cap; i++)
    if (ks->info.items[i].node && ks->info.items[i].cap == a - f->nparams && ks->info.items[i].node->kind == N_IDENT)
      return ks->info.items[i].node->name;
  return "capture";
}

/* The element size of the shared copy of private array k (0: none): counters for identical
   additions, else the array's own int32/float/double. */
int em_priv_shared_esz(KSpec *S, int k) {
  int a = S->tr.priv_arg[k];
  KType t = a < S->kfunc->nparams ? S->kspec->params[a] : S->caps[a - S->kfunc->nparams].type;
  if (S->tr.priv_count[k]) return t.el == EL_F32 || t.el == EL_F64 ? 4 : 0;
  return t.el == EL_I32 || t.el == EL_F32 ? 4 : t.el == EL_F64 ? 8 : 0;
}

/* What both dialects learn about the kernel body before emitting it: storage classes,
   constants, barrier phases, private arrays, the linear loop. */
void em_kernel_analysis(Em *E, Buf *body) {
  KSpec *S = E->S;
  FSpec *k = S->kspec;
  Func *f = k->func;
  FuncInfo *fi = func_info(f);
  E->f = k;
  E->b = body;
  E->ind = 1;
  E->phases = S->barrier && E->D->block_phases && !E->fiber;   /* fibers and CUDA threads keep their own
                                                               locals (virtual ones do not: em_cuda_transforms) */
  E->L = "L";
  /* storage classes */
  unsigned char *assigned = calloc(fi->nslots + 1, 1);
  mark_list(k, &f->body, assigned);
  E->sc = calloc(fi->nslots + 1, 1);
  int obase = f->ngenerics + f->nparams;
  for (int s = f->ngenerics; s < fi->nslots; s++) {
    if (!em_has_repr(k->slots[s])) continue;
    int pi = s - f->ngenerics;
    if (pi < f->nparams && !assigned[s]) E->sc[s] = em_special_of(S, pi) ? SC_SPECIAL : SC_PARAM;
    else E->sc[s] = SC_LOCAL;
    (void)obase;
  }
  free(assigned);
  em_find_konst(E, k);
  if (E->phases) em_thread_consts(E, "((int32_t)_t)", "((int32_t)_nthr)");
  for (int s = f->ngenerics + f->nparams + f->nouts; s < fi->nslots; s++)
    if (E->konst[s]) E->sc[s] = SC_NONE;

  find_private(E);
  find_linear(E);
  find_pos_locals(E);
  if (E->phases || (E->D->vthreads && S->barrier)) find_phase_locals(E);   /* CUDA: for virtual threads */
  if (E->D->transforms) E->D->transforms(E);   /* CUDA's virtual threads set E->phases */
}

/* ---- CUDA shared memory: its size at the launch, its zeroing ----
   The launcher reserves what the launch's shared() calls take when every dimension is a
   constant or mul * blkdim[k] + add (else the whole 48 KiB, which limits the resident blocks).
   shared() memory reads zero until written (the oracle zero-fills it): the block zeroes it
   where it is allocated, and a barrier orders that before other threads' accesses. The
   program's next barrier does that job when no thread touches the array before it except
   with zero stores (dropped: they store what is already there). */

static bool blk_lin(Em *E, Node *n, int *k, int64_t *mul, int64_t *add) {
  int ka, kb;
  int64_t ma, mb, aa, ab;
  bool blkdim = is_special_named(E, n->kind == N_INDEX ? n->a : n, "blkdim") &&
                E->sc[(n->kind == N_INDEX ? n->a : n)->slot] == SC_SPECIAL;
  switch (n->kind) {
  case N_INT: *k = -1, *mul = 0, *add = n->ival; return true;
  case N_IDENT:   /* an int blkdim: the block's thread count */
    if (!blkdim || em_T(E, n).kind != K_INT) return false;
    *k = E->S->D, *mul = 1, *add = 0;
    return true;
  case N_INDEX:
    if (!blkdim || n->list.n != 1 || n->list.items[0]->kind != N_INT || n->list.items[0]->ival < 0 ||
        n->list.items[0]->ival >= E->S->D)
      return false;
    *k = (int)n->list.items[0]->ival, *mul = 1, *add = 0;
    return true;
  case N_BINARY:
    if (!blk_lin(E, n->a, &ka, &ma, &aa) || !blk_lin(E, n->b, &kb, &mb, &ab) || (ka >= 0 && kb >= 0 && ka != kb))
      return false;
    *k = ka >= 0 ? ka : kb;
    if (n->op == OP_ADD) *mul = ma + mb, *add = aa + ab;
    else if (n->op == OP_SUB) *mul = ma - mb, *add = aa - ab;
    else if (n->op == OP_MUL && (ma == 0 || mb == 0)) *mul = ma * ab + mb * aa, *add = aa * ab;
    else return false;
    return true;
  default: return false;
  }
}

static bool holds_return(Node *n) {
  if (!n) return false;
  if (n->kind == N_RETURN) return true;
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return false;
  for (AstKids it = ast_kids(n); it.node; ast_next(&it)) if (holds_return(it.node)) return true;
  return false;
}

/* The top-level statement of the body that allocates slot s (or -1). */
static int alloc_stmt(NodeList *l, int s) {
  for (int i = 0; i < l->n; i++)
    if (l->items[i]->kind == N_ASSIGN && l->items[i]->list.n == 1 && l->items[i]->list.items[0]->kind == N_IDENT &&
        l->items[i]->list.items[0]->slot == s && l->items[i]->b && l->items[i]->b->kind == N_CALL)
      return i;
  return -1;
}

/* Statements from..to-1 mention slot s's data only in one top-level statement
   `s[blkpos[0], .., blkpos[D-1]] = v` (v without s): every thread writes its own element,
   so zeroing the others cannot race with it. */
static bool owner_store(Em *E, NodeList *l, int from, int to, int s) {
  int found = 0;
  for (int i = from; i < to; i++) {
    Node *n = l->items[i];
    if (!mentions_data(n, s)) continue;
    if (found++ || n->kind != N_ASSIGN || n->op != OP_NONE || n->list.n != 1 || mentions_data(n->b, s)) return false;
    Node *t = n->list.items[0];
    if (t->kind != N_INDEX || t->a->kind != N_IDENT || t->a->slot != s || t->a->depth != 0 ||
        t->list.n != E->S->D || E->f->slots[s].rank != E->S->D)
      return false;
    for (int k = 0; k < t->list.n; k++) {
      Node *x = t->list.items[k];
      if (x->kind != N_INDEX || !is_special_named(E, x->a, "blkpos") || E->sc[x->a->slot] != SC_SPECIAL ||
          x->list.n != 1 || x->list.items[0]->kind != N_INT || x->list.items[0]->ival != k)
        return false;
    }
  }
  return found == 1;
}

/* blkpos[j] as the index of dimension k of an array the owner store wrote: the element
   [.., blkpos[j], ..] was stored by its owner when the block is no longer in dimension j than
   in k (the block size of the key), or is outside the array (it reads zero). */
static bool owned_index(Em *E, Node *x, int k) {
  KSpec *S = E->S;
  if (x->kind != N_INDEX || !is_special_named(E, x->a, "blkpos") || E->sc[x->a->slot] != SC_SPECIAL ||
      x->list.n != 1 || x->list.items[0]->kind != N_INT)
    return false;
  int64_t j = x->list.items[0]->ival;
  return j == k || (j >= 0 && j < S->D && S->cblk[0] && S->cblk[j] <= S->cblk[k]);
}

/* Every mention of slot s's data in n reads an element at owned indices (owned_index): none
   reads an element that only the zeroing set. No write, alias or exchange. */
static bool owned_reads(Em *E, Node *n, int s) {
  if (!n || !mentions_data(n, s)) return true;
  if (n->kind == N_INDEX && n->a->kind == N_IDENT && n->a->slot == s && n->a->depth == 0) {
    if (n->list.n != E->S->D) return false;
    for (int k = 0; k < n->list.n; k++)
      if (!owned_index(E, n->list.items[k], k)) return false;
    return true;
  }
  if (n->kind == N_IDENT || n->kind == N_EXCHANGE || n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return false;
  for (int i = 0; n->kind == N_ASSIGN && i < n->list.n; i++) {
    Node *t = n->list.items[i];
    while (t->kind == N_INDEX) t = t->a;
    if (t->kind == N_IDENT && t->slot == s && t->depth == 0) return false;
  }
  for (AstKids it = ast_kids(n); it.node; ast_next(&it)) if (!owned_reads(E, it.node, s)) return false;
  return true;
}

static void shared_zeroing(Em *E) {
  Func *f = E->S->kfunc;
  NodeList *l = &f->body;
  for (int i = 0; i < l->n; i++)
    if (holds_return(l->items[i])) return;   /* a finished thread does not order its stores */
  int nslots = func_info(f)->nslots;
  for (int s = f->ngenerics + f->nparams + f->nouts; s < nslots; s++) {
    bool assigned = false, sh = E->sc[s] == SC_LOCAL && E->f->slots[s].kind == K_ARRAY && E->f->slots[s].shared;
    for (int i = 0; i < l->n && sh; i++) sh = only_shared(l->items[i], s, &assigned);
    int i = sh && assigned ? alloc_stmt(l, s) : -1, j = i + 1, count = 0;
    NodeInfo *ci = i >= 0 ? ksema_info(E->f, l->items[i]->b) : NULL;
    if (!ci || ci->builtin != KB_SHARED || ci->site >= 32) continue;
    bool ok = true;
    for (; j < l->n && ok; j++) {
      NodeInfo *nj = ksema_info(E->f, l->items[j]);
      if (nj && nj->barrier) break;
      ok = only_zero_stores(l->items[j], s, &count);
    }
    if (j < l->n && em_is_barrier_stmt(l->items[j]) && !ok && owner_store(E, l, i + 1, j, s)) {
      E->sh_owned |= 1u << ci->site;   /* only what no thread writes is zeroed: no race */
      E->sh_nosync |= 1u << ci->site;
      bool unread = true;   /* ... and when nothing reads those elements, nothing is zeroed */
      for (int r = j + 1; r < l->n && unread; r++) unread = owned_reads(E, l->items[r], s);
      if (unread) E->sh_unread |= 1u << ci->site;
      continue;
    }
    if (!ok || j == l->n || !em_is_barrier_stmt(l->items[j])) continue;
    for (int k = i + 1; k < j; k++) mark_dead(E, l->items[k], s);
    E->sh_nosync |= 1u << ci->site;
  }
}

void em_shared_plan(Em *E) {
  KSpec *S = E->S;
  FSpec *k = S->kspec;
  int found = 0;
  bool ok = S->facts.nshared <= 4;
  for (int i = 0; i < k->info.cap && ok; i++) {
    NodeInfo *ni = &k->info.items[i];
    if (!ni->node || ni->builtin != KB_SHARED) continue;
    struct KShSize *z = &S->tr.shsize[ni->site];
    Node *n = (Node *)ni->node;
    z->rank = n->list.n;
    z->esz = (int)el_size(ni->t.el);
    for (int d = 0; d < n->list.n && ok; d++) {
      int kk;
      ok = blk_lin(E, n->list.items[d], &kk, &z->mul[d], &z->add[d]);
      z->k[d] = (signed char)kk;
    }
    found++;
  }
  S->tr.shsized = ok && found == S->facts.nshared;
  E->sh_nosync = E->sh_owned = E->sh_unread = 0;
  shared_zeroing(E);
  if (S->facts.nshared && S->tr.shsized) em_xform_note(S, "%s", "shared-sized");
  if (E->sh_nosync & ~E->sh_unread) em_xform_note(S, "%s", "shared-zero-nobarrier");
  if (E->sh_unread) em_xform_note(S, "%s", "shared-no-zeroing");
}

/* ---- persistent blocks (CUDA) ----
   A kernel `prologue; syncthreads; body; syncthreads; epilogue` with one shared array A
   that starts at zero, that the body only adds to and that the epilogue adds, as a linear
   function, into global memory: each block's epilogue adds L(A_b), and
   L(A_1) + L(A_2) = L(A_1 + A_2), so the resident blocks may run the bodies of many blocks
   between one prologue and one epilogue (docs/cuda.md lists the conditions checked here). */

typedef struct Coarse { Em *E; int a; int inc; bool ok; } Coarse;

static bool is_a(Node *n, int a) { return a >= 0 && n->kind == N_IDENT && n->slot == a && n->depth == 0; }

/* pos and blkidx differ between the blocks a resident block runs */
static bool reads_block(Em *E, Node *n) {
  if (!n) return false;
  if (n->kind == N_IDENT) return is_special_named(E, n, "pos") || is_special_named(E, n, "blkidx");
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return true;
  for (AstKids it = ast_kids(n); it.node; ast_next(&it)) if (reads_block(E, it.node)) return true;
  return false;
}

/* e is linear in A (no term without it): A's elements, sums, negations, sums and
   differences of linear terms, products and quotients by terms without A */
static bool linear_in(Em *E, Node *e, int a) {
  if (!mentions_data(e, a)) return false;
  switch (e->kind) {
  case N_INDEX:
    if (!is_a(e->a, a)) return false;
    for (int i = 0; i < e->list.n; i++) if (mentions_data(e->list.items[i], a)) return false;
    return true;
  case N_UNARY: return (e->op == OP_NEG || e->op == OP_PLUS) && linear_in(E, e->a, a);
  case N_BINARY:
    if (e->op == OP_ADD || e->op == OP_SUB) return linear_in(E, e->a, a) && linear_in(E, e->b, a);
    if (e->op == OP_MUL) return (linear_in(E, e->a, a) && !mentions_data(e->b, a)) || (linear_in(E, e->b, a) && !mentions_data(e->a, a));
    if (e->op == OP_DIV) return linear_in(E, e->a, a) && !mentions_data(e->b, a);
    return false;
  case N_CALL: return builtin_call(E, e, KB_SUM, 1) && linear_in(E, e->list.items[0], a);
  default: return false;
  }
}

/* What a part of the kernel may do (part 0 prologue, 1 body, 2 epilogue): its assignments
   are to locals, zero stores into A (0), `A[i] += v` (1), `y[j] += e` with e linear in A (2);
   no other mention of A; no device function, no exchange, no return. */
static bool part_ok(Coarse *c, Node *n, int part) {
  Em *E = c->E;
  if (!n) return true;
  NodeInfo *ni = ksema_info(E->f, n);
  if (n->kind == N_RETURN || n->kind == N_EXCHANGE || n->kind == N_LAMBDA || n->kind == N_FUNCDEF || (ni && ni->callee))
    return false;
  if (c->a >= 0 && n->kind == N_CALL && !mentions_data(n, c->a)) {   /* A only in size(A), numel(A) */
    Coarse d = *c;
    d.a = -1;
    return part_ok(&d, n, part);
  }
  if (is_a(n, c->a)) return false;   /* any use not accepted below */
  if (n->kind == N_ASSIGN) {
    if (n->list.n != 1 || (n->b && n->b->kind == N_ASSIGN)) return false;
    Node *t = n->list.items[0];
    if (t->kind == N_IDENT && t->slot == c->a) return part == 0;   /* the allocation (only_shared) */
    if (t->kind == N_IDENT && t->depth == 0 && E->sc[t->slot] != SC_PARAM && E->sc[t->slot] != SC_SPECIAL)
      return !mentions_data(n->b, c->a) && part_ok(c, n->b, part);
    if (t->kind != N_INDEX || t->a->kind != N_IDENT || t->a->depth != 0) return false;
    for (int i = 0; i < t->list.n; i++)
      if (mentions_data(t->list.items[i], c->a) || !part_ok(c, t->list.items[i], part)) return false;
    if (part == 0) return is_zero_store(n, c->a);
    if (part == 1) {
      if (!is_a(t->a, c->a) || n->op != OP_ADD || mentions_data(n->b, c->a) || !part_ok(c, n->b, part)) return false;
      bool lit = n->b->kind == N_INT && n->b->ival > 0 && n->b->ival <= (1 << 20);
      c->inc = !lit || c->inc == 0 ? 0 : c->inc > n->b->ival ? c->inc : (int)n->b->ival;
      return true;
    }
    NodeInfo *ti = ksema_info(E->f, t->a);
    bool real = ti && ti->t.kind == K_ARRAY && !ti->t.shared && (ti->t.el == EL_F32 || ti->t.el == EL_F64);
    if (!real || E->sc[t->a->slot] != SC_PARAM || n->op != OP_ADD || !linear_in(E, n->b, c->a)) return false;
    if (ti->t.el == EL_F32) {
      int p = t->a->slot - E->S->kfunc->ngenerics, k = 0;
      while (k < E->S->tr.ncoarse && E->S->tr.coarse_arg[k] != p) k++;
      if (k == 4) return false;
      E->S->tr.coarse_arg[k] = p;
      if (k == E->S->tr.ncoarse) E->S->tr.ncoarse++;
    }
    return true;
  }
  for (AstKids it = ast_kids(n); it.node; ast_next(&it)) if (!part_ok(c, it.node, part)) return false;
  return true;
}

/* a local the body assigns: it must start each block afresh (assigned before read there)
   and be no concern of the prologue's or epilogue's */
static bool body_locals_ok(Em *E, NodeList *l, int b1, int b2, int a) {
  Func *f = E->S->kfunc;
  int nslots = func_info(f)->nslots;
  for (int s = f->ngenerics + f->nparams + f->nouts; s < nslots; s++) {
    if (s == a) continue;
    bool in_body = false, elsewhere = false;
    for (int i = b1 + 1; i < b2; i++) in_body |= count_assign(l->items[i], s) > 0;
    if (!in_body) continue;
    for (int i = 0; i < l->n; i++) elsewhere |= (i < b1 || i > b2) && mentions_var(l->items[i], var_slot(s));
    if (elsewhere || !defined_first(l, b1 + 1, b2, s)) return false;
  }
  return true;
}

bool em_coarsen_ok(Em *E) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  NodeList *l = &f->body;
  S->tr.ncoarse = 0;
  if (!S->barrier || S->grid_barrier || S->coop || S->facts.nshared != 1 || f->nouts || S->D > 3 || E->nreach > 1 ||
      S->divergent)
    return false;
  int nb = 0, b[2] = {0, 0};
  for (int i = 0; i < l->n; i++) {
    NodeInfo *ni = ksema_info(E->f, l->items[i]);
    if (!ni || !ni->barrier) continue;
    if (nb == 2 || !em_is_barrier_stmt(l->items[i]) || em_is_grid_barrier(l->items[i])) return false;
    b[nb++] = i;
  }
  if (nb != 2) return false;
  Coarse c = {.E = E, .a = -1, .inc = -1, .ok = true};
  for (int i = 0; i < b[0] && c.a < 0; i++) {
    NodeInfo *ci = l->items[i]->kind == N_ASSIGN && l->items[i]->b ? ksema_info(E->f, l->items[i]->b) : NULL;
    if (ci && ci->builtin == KB_SHARED && l->items[i]->list.n == 1 && l->items[i]->list.items[0]->kind == N_IDENT)
      c.a = l->items[i]->list.items[0]->slot;
  }
  if (c.a < 0 || E->sc[c.a] != SC_LOCAL) return false;
  for (int i = 0; i < l->n; i++) {
    if (i == b[0] || i == b[1]) continue;
    int part = i < b[0] ? 0 : i < b[1] ? 1 : 2;
    if ((part != 1 && reads_block(E, l->items[i])) || !part_ok(&c, l->items[i], part)) return false;
  }
  bool assigned = false, sh = true;   /* A only ever holds the shared array */
  for (int i = 0; i < l->n && sh; i++) sh = only_shared(l->items[i], c.a, &assigned);
  if (!sh || !body_locals_ok(E, l, b[0], b[1], c.a)) return false;
  S->tr.coarse_inc = c.inc > 0 ? c.inc : 0;
  E->coarse_slot = c.a;
  E->coarse_split[0] = b[0];
  E->coarse_split[1] = b[1];
  return true;
}
