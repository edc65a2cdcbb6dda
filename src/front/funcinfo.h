/* funcinfo.h: what name resolution (interp_resolve.c) learns about each function and
   records in Func.sema, and the names the kernel language gives a meaning of their own
   (special kernel parameters, cooperative groups). The kernel compiler and the parallel-loop
   transform read these facts; nothing here depends on running code. */
#ifndef OQ_FUNCINFO_H
#define OQ_FUNCINFO_H
#include "front/ast.h"

/* What name resolution learned about a function (Func.sema). */
typedef struct FuncInfo {
  int nslots;
  const char **slot_names;
  unsigned *slot_mods;      /* boundary modifiers declared for each slot */
  bool captures;            /* reads or writes a slot of an enclosing function */
  bool uses_barrier;        /* its body calls syncthreads (runs threads as fibers) */
  bool uses_grid_barrier;   /* syncthreads(grid): the whole grid runs as fibers */
  bool block_params;        /* has blkpos, blkdim, blkidx or blkcnt parameters (sees blocks) */
  bool shared_by_block;     /* calls a user function or shared() of non-literal sizes: may
                               size shared memory by the block (3-D default blocks) */
  bool *special_params;     /* per parameter: pos, blkpos, ... (parallel_do passes no argument) */
  Op *out_op;               /* per kernel output: how the threads' values combine (OP_ADD for
                               += and -=, OP_MUL, OP_MAX, OP_MIN; OP_NONE: never updated) */
  int *out_param;           /* per output: the parameter it starts as (same name), or -1 */
  NodeList hoisted;         /* nested function definitions, bound at entry */
  NodeList typedefs;        /* `type` definitions of this function, bound at entry (N_TYPEDEF) */
  struct KOuterRefs *outer; /* kernel/kernel_sema.c's notes of the body, made at its first launch */
} FuncInfo;

/* Cooperative groups (docs/language.md): a field or method of the kernel parameter
   coalesced_threads (the thread's warp) or this_thread_block. */
typedef enum GroupOp {
  G_NONE, G_THREAD_IDX, G_SIZE,                          /* fields */
  G_SHFL, G_SHFL_UP, G_SHFL_DOWN, G_SHFL_XOR, G_SYNC, G_ALL, G_ANY, G_BALLOT   /* methods */
} GroupOp;

/* n: g.name (N_FIELD) or g.name(...) (N_CALL): the operation, G_NONE when g is not one of
   the two groups or name is no such member; *warp: g is coalesced_threads. Resolution has
   checked that g is the kernel's parameter and the argument count. */
GroupOp group_op(const Node *n, bool *warp);
const char *group_op_name(GroupOp op);
/* What a barrier-like name does (docs/language.md): syncthreads waits for the threads of
   the block, syncthreads(warp) for the warp's, syncthreads(grid) for the whole grid's;
   memfence orders memory and waits for no one. */
typedef enum BarrierKind {
  BK_NONE,    /* neither syncthreads nor memfence */
  BK_BLOCK,   /* syncthreads, syncthreads(block), syncthreads(e) of an e that is no name */
  BK_WARP,    /* syncthreads(warp) */
  BK_GRID,    /* syncthreads(grid) */
  BK_SCOPE,   /* syncthreads(x) of another name x: compiled kernels refuse it, the
                 interpreter waits for the block (only the first argument is read) */
  BK_FENCE,   /* memfence, memfence(...) */
} BarrierKind;

/* e: an expression (`syncthreads`, a call `syncthreads(grid)`): what it waits for. The one
   place that reads these names; resolution, specialization, the emitters and the
   interpreter ask it. */
BarrierKind barrier_kind(const Node *e);
/* The same of a statement: an expression statement's, else BK_NONE. */
BarrierKind barrier_stmt_kind(const Node *stmt);
/* k waits for other threads (a syncthreads of any scope; not a memfence). */
bool is_barrier(BarrierKind k);

FuncInfo *func_info(Func *f);
/* pos, blkpos, blkdim, blkidx, blkcnt, warpsize and the cooperative groups: kernel
   parameters that parallel_do fills itself. */
bool is_special_kernel_param(const char *name);

#endif
