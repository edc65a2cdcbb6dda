/* funcinfo.c: the kernel language's own names (funcinfo.h). */
#include <string.h>
#include "front/funcinfo.h"

FuncInfo *func_info(Func *f) { return f->sema; }

bool is_special_kernel_param(const char *name) {
  static const char *names[] = {"pos", "blkpos", "blkdim", "blkidx", "blkcnt", "warpsize",
                                "coalesced_threads", "this_thread_block", "this_grid",
                                "this_multi_grid"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (!strcmp(name, names[i])) return true;
  return false;
}

static const char *const group_names[] = {
  [G_THREAD_IDX] = "thread_idx", [G_SIZE] = "size", [G_SHFL] = "shfl", [G_SHFL_UP] = "shfl_up",
  [G_SHFL_DOWN] = "shfl_down", [G_SHFL_XOR] = "shfl_xor", [G_SYNC] = "sync", [G_ALL] = "all",
  [G_ANY] = "any", [G_BALLOT] = "ballot"};

const char *group_op_name(GroupOp op) { return group_names[op]; }

GroupOp group_op(const Node *n, bool *warp) {
  const Node *fld = n->kind == N_CALL ? n->a : n;
  if (fld->kind != N_FIELD || fld->a->kind != N_IDENT) return G_NONE;
  *warp = !strcmp(fld->a->name, "coalesced_threads");
  if (!*warp && strcmp(fld->a->name, "this_thread_block")) return G_NONE;
  GroupOp first = n->kind == N_CALL ? G_SHFL : G_THREAD_IDX, last = n->kind == N_CALL ? G_BALLOT : G_SIZE;
  for (GroupOp op = first; op <= last; op++)
    if (!strcmp(fld->name, group_names[op])) return op;
  return G_NONE;
}

static bool is_name(const Node *n, const char *name) {
  return n->kind == N_IDENT && !strcmp(n->name, name);
}

/* syncthreads(x, ...): the scope its first argument names (resolution leaves it a keyword,
   without a slot); an argument that is no name leaves the block's. */
static BarrierKind barrier_scope(const Node *call) {
  const Node *x = call->list.n ? call->list.items[0] : NULL;
  if (!x || x->kind != N_IDENT || !strcmp(x->name, "block")) return BK_BLOCK;
  if (!strcmp(x->name, "grid")) return BK_GRID;
  if (!strcmp(x->name, "warp")) return BK_WARP;
  return BK_SCOPE;
}

BarrierKind barrier_kind(const Node *e) {
  if (!e) return BK_NONE;
  const Node *name = e->kind == N_CALL ? e->a : e;
  if (is_name(name, "memfence")) return BK_FENCE;
  if (!is_name(name, "syncthreads")) return BK_NONE;
  return e->kind == N_CALL ? barrier_scope(e) : BK_BLOCK;
}

BarrierKind barrier_stmt_kind(const Node *stmt) {
  return stmt->kind == N_EXPR ? barrier_kind(stmt->a) : BK_NONE;
}

bool is_barrier(BarrierKind k) { return k != BK_NONE && k != BK_FENCE; }
