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
