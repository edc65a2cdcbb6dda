/* interp_cycles.c: frees the reference cycles that pass through a frame whose call has ended
   (finding 23 of docs/reliability.md). A closure keeps the frame it was made in; when that
   frame also holds the closure (a slot, an object's field, an event's list of callbacks:
   `ev.add = (cb) -> ui_event_add(ev, cb)`), reference counts never reach zero.

   Every frame that outlives its call (frame_end) joins the Program's ring. After enough of
   them, and when the program ends, the graph reachable from the ring is checked by trial
   deletion (synchronous cycle collection, Bacon and Rajan 2001): each node's count less
   the references that come from inside the graph says whether something outside (a running
   frame, the top level, a C local of the interpreter, an array of a launch) still holds it.
   Such a node, and everything it reaches, lives; the rest can be reached by nothing and is
   freed. The nodes are ring frames, closures and other function values, objects, cell
   arrays and tuples; a frame outside the ring (a call still running, the top level) is not
   entered: it is alive, so what it holds counts as held from outside. Arrays, strings and
   native handles hold no such node. The interpreter is one OS thread: nothing changes a
   count while a collection runs. */
#include <stdlib.h>
#include "interp/interp_priv.h"

/* At least this many frames outlive their calls between two collections (and at least as
   many as the nodes the last one kept): the work stays proportional to the escapes. */
#define CYCLES_MIN_ESCAPES 1000

typedef enum GcKind { GC_FRAME, GC_FUNC, GC_OBJECT, GC_CELL, GC_TUPLE } GcKind;

typedef struct GcNode {
  void *p;
  GcKind kind;
  int refs;                 /* its count, less the references from inside the graph */
  bool live;
} GcNode;

/* What an edge of the graph does in the current pass. */
typedef enum Pass { PASS_FIND, PASS_SUBTRACT, PASS_MARK } Pass;

typedef struct Gc {
  GcNode *nodes;
  size_t n, cap;
  size_t *index;            /* open addressing by address: node number + 1, 0 empty */
  size_t index_cap;
  size_t *work;             /* nodes whose edges are still to follow */
  size_t nwork, work_cap;
  Pass pass;
} Gc;

static void *gc_grow(void *p, size_t *cap, size_t size) {
  *cap = *cap ? 2 * *cap : 64;
  void *q = realloc(p, *cap * size);
  if (!q) rt_error((SrcLoc){0}, "out of memory (collecting reference cycles)");
  return q;
}

static void ring_init(FrameLink *head) {
  if (!head->next) head->prev = head->next = head;
}

static Frame *frame_of_link(FrameLink *l) {
  return (Frame *)((char *)l - offsetof(Frame, escaped));
}

static bool frame_escaped(const Frame *f) { return f->escaped.next != NULL; }

void frame_unlink(Frame *f) {
  if (!frame_escaped(f)) return;
  f->escaped.prev->next = f->escaped.next;
  f->escaped.next->prev = f->escaped.prev;
  f->escaped.prev = f->escaped.next = NULL;
}

void cycles_escaped(Program *P, Frame *f) {
  ring_init(&P->escaped);
  if (frame_escaped(f)) return;
  f->escaped.next = P->escaped.next;
  f->escaped.prev = &P->escaped;
  P->escaped.next->prev = &f->escaped;
  P->escaped.next = &f->escaped;
  P->escapes++;
}

/* ---- the graph ---- */

static int *node_count(const GcNode *g) {
  switch (g->kind) {
  case GC_FRAME: return &((Frame *)g->p)->refcount;
  case GC_FUNC: return &((Callable *)g->p)->refcount;
  case GC_OBJECT: return &((Object *)g->p)->refcount;
  case GC_CELL: return &((Cell *)g->p)->refcount;
  default: return &((Tuple *)g->p)->refcount;
  }
}

static size_t addr_hash(const void *p, size_t cap) {
  uint64_t x = (uint64_t)(uintptr_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)x & (cap - 1);
}

/* The number of p's node, or -1. */
static long gc_find(const Gc *g, const void *p) {
  if (!g->index_cap) return -1;
  for (size_t h = addr_hash(p, g->index_cap);; h = (h + 1) & (g->index_cap - 1)) {
    if (!g->index[h]) return -1;
    if (g->nodes[g->index[h] - 1].p == p) return (long)(g->index[h] - 1);
  }
}

static void gc_index_put(Gc *g, size_t i) {
  size_t h = addr_hash(g->nodes[i].p, g->index_cap);
  while (g->index[h]) h = (h + 1) & (g->index_cap - 1);
  g->index[h] = i + 1;
}

static void gc_push(Gc *g, size_t i) {
  if (g->nwork == g->work_cap) g->work = gc_grow(g->work, &g->work_cap, sizeof *g->work);
  g->work[g->nwork++] = i;
}

static void gc_add(Gc *g, void *p, GcKind kind) {
  if (gc_find(g, p) >= 0) return;
  if (2 * (g->n + 1) > g->index_cap) {   /* at most half full */
    free(g->index);
    g->index_cap = g->index_cap ? 2 * g->index_cap : 256;
    g->index = calloc(g->index_cap, sizeof *g->index);
    if (!g->index) rt_error((SrcLoc){0}, "out of memory (collecting reference cycles)");
    for (size_t i = 0; i < g->n; i++) gc_index_put(g, i);
  }
  if (g->n == g->cap) g->nodes = gc_grow(g->nodes, &g->cap, sizeof *g->nodes);
  g->nodes[g->n] = (GcNode){.p = p, .kind = kind};
  g->nodes[g->n].refs = *node_count(&g->nodes[g->n]);
  gc_index_put(g, g->n);
  gc_push(g, g->n++);
}

/* One reference, from a node of the graph to p. */
static void gc_edge(Gc *g, void *p, GcKind kind) {
  if (g->pass == PASS_FIND) { gc_add(g, p, kind); return; }
  long i = gc_find(g, p);
  if (i < 0) return;
  if (g->pass == PASS_SUBTRACT) g->nodes[i].refs--;
  else if (!g->nodes[i].live) { g->nodes[i].live = true; gc_push(g, (size_t)i); }
}

static void gc_value(Gc *g, Value v) {
  switch (v.kind) {
  case V_FUNC: gc_edge(g, v.fn, GC_FUNC); break;
  case V_OBJECT: gc_edge(g, v.obj, GC_OBJECT); break;
  case V_CELL: gc_edge(g, v.cell, GC_CELL); break;
  case V_TUPLE: gc_edge(g, v.tup, GC_TUPLE); break;
  default: break;
  }
}

static void gc_frame(Gc *g, Frame *f) {
  if (f && frame_escaped(f)) gc_edge(g, f, GC_FRAME);
}

/* Follows every reference node i holds. */
static void gc_edges(Gc *g, size_t i) {
  void *p = g->nodes[i].p;
  switch (g->nodes[i].kind) {
  case GC_FRAME: {
    Frame *f = p;
    gc_frame(g, f->parent);
    for (int k = 0; k < f->nslots; k++) gc_value(g, f->slots[k]);
    break;
  }
  case GC_FUNC: {
    Callable *c = p;
    gc_frame(g, c->env);
    for (int k = 0; k < c->ngeneric_args; k++) gc_value(g, c->generic_args[k]);
    break;
  }
  case GC_OBJECT:
    for (int k = 0; k < ((Object *)p)->n; k++) gc_value(g, ((Object *)p)->vals[k]);
    break;
  case GC_CELL:
    for (int64_t k = 0; k < ((Cell *)p)->numel; k++) gc_value(g, ((Cell *)p)->v[k]);
    break;
  case GC_TUPLE:
    for (int k = 0; k < ((Tuple *)p)->n; k++) gc_value(g, ((Tuple *)p)->v[k]);
    break;
  }
}

static void gc_drain(Gc *g) {
  while (g->nwork) gc_edges(g, g->work[--g->nwork]);
}

/* ---- freeing the garbage ---- */

static void drop_value(Value *v) {
  Value old = *v;
  *v = v_none();
  val_release(old);
}

/* Drops every reference node i holds (the node itself stays, held by the collector). */
static void gc_clear(GcNode *n) {
  switch (n->kind) {
  case GC_FRAME: {
    Frame *f = n->p, *parent = f->parent;
    f->parent = NULL;
    for (int k = 0; k < f->nslots; k++) drop_value(&f->slots[k]);
    if (parent) frame_release(parent);
    break;
  }
  case GC_FUNC: {
    Callable *c = n->p;
    Frame *env = c->env;
    c->env = NULL;
    for (int k = 0; k < c->ngeneric_args; k++) drop_value(&c->generic_args[k]);
    if (env) frame_release(env);
    break;
  }
  case GC_OBJECT:
    for (int k = 0; k < ((Object *)n->p)->n; k++) drop_value(&((Object *)n->p)->vals[k]);
    break;
  case GC_CELL:
    for (int64_t k = 0; k < ((Cell *)n->p)->numel; k++) drop_value(&((Cell *)n->p)->v[k]);
    break;
  case GC_TUPLE:
    for (int k = 0; k < ((Tuple *)n->p)->n; k++) drop_value(&((Tuple *)n->p)->v[k]);
    break;
  }
}

static void gc_release(GcNode *n) {
  switch (n->kind) {
  case GC_FRAME: frame_release(n->p); break;
  case GC_FUNC: val_release(v_func(n->p)); break;
  case GC_OBJECT: val_release(v_object(n->p)); break;
  case GC_CELL: val_release(v_cell(n->p)); break;
  case GC_TUPLE: {
    Value t = {.kind = V_TUPLE, .tup = n->p};
    val_release(t);
    break;
  }
  }
}

/* Frees the nodes that nothing live reaches. Each is held once more first, so that none is
   freed while the others drop their references to it; then, its references dropped, that
   hold is its last, and releasing it frees it. */
static size_t gc_free_garbage(Gc *g) {
  size_t dead = 0;
  for (size_t i = 0; i < g->n; i++)
    if (!g->nodes[i].live) { g->nodes[dead++] = g->nodes[i]; ++*node_count(&g->nodes[i]); }
  for (size_t i = 0; i < dead; i++) gc_clear(&g->nodes[i]);
  for (size_t i = 0; i < dead; i++) gc_release(&g->nodes[i]);
  return dead;
}

size_t cycles_collect(Program *P) {
  ring_init(&P->escaped);
  Gc g = {.pass = PASS_FIND};
  for (FrameLink *l = P->escaped.next; l != &P->escaped; l = l->next)
    gc_add(&g, frame_of_link(l), GC_FRAME);
  gc_drain(&g);
  g.pass = PASS_SUBTRACT;
  for (size_t i = 0; i < g.n; i++) gc_edges(&g, i);
  g.pass = PASS_MARK;   /* held from outside: alive, and so is what it reaches */
  for (size_t i = 0; i < g.n; i++)
    if (g.nodes[i].refs > 0) { g.nodes[i].live = true; gc_push(&g, i); }
  gc_drain(&g);
  size_t kept = g.n;
  size_t freed = gc_free_garbage(&g);
  kept -= freed;
  P->escapes = 0;
  P->collect_after = kept > CYCLES_MIN_ESCAPES ? kept : CYCLES_MIN_ESCAPES;
  free(g.nodes);
  free(g.index);
  free(g.work);
  return freed;
}

void cycles_maybe_collect(Program *P) {
  size_t after = P->collect_after ? P->collect_after : CYCLES_MIN_ESCAPES;
  if (P->escapes >= after) cycles_collect(P);
}

void cycles_end(Program *P) {
  cycles_collect(P);
  while (P->escaped.next != &P->escaped) frame_unlink(frame_of_link(P->escaped.next));
}
