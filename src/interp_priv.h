/* interp_priv.h: what the interpreter's files (interp.c, interp_resolve.c, interp_kernel.c,
   interp_builtins.c) share. Not for other modules. */
#ifndef OQ_INTERP_PRIV_H
#define OQ_INTERP_PRIV_H
#include "interp.h"
#include "value.h"

/* A call frame: the slots of one activation of a function. Frames are reference-counted
   because closures created in them keep them alive. */
typedef struct Frame {
  int refcount;
  struct Frame *parent;     /* lexical parent: the frame the closure was created in */
  int nslots;
  Value slots[];
} Frame;

typedef struct Interp Interp;
typedef Value (*InterpBuiltinFn)(Interp *I, Node *call, int argc, Value *argv);

typedef enum CallableKind { CALL_USER, CALL_BUILTIN, CALL_IBUILTIN } CallableKind;

struct Callable {
  int refcount;             /* first field: value.h's val_retain/val_release count it */
  CallableKind kind;
  Func *func;               /* CALL_USER */
  Frame *env;               /* CALL_USER: captured frame (NULL when it captures nothing) */
  Value *generic_args;      /* f[2]: values bound to the generic parameters */
  int ngeneric_args;
  const Builtin *builtin;   /* CALL_BUILTIN: pure runtime function */
  InterpBuiltinFn ibuiltin; /* CALL_IBUILTIN: needs the interpreter (print, parallel_do) */
  const char *name;
};

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
} FuncInfo;

/* A named global: built-in function, constant or type. */
typedef struct Global {
  const char *name;
  Value value;
} Global;

typedef struct Reduction {
  Node *node;               /* N_REDUCTION */
  const char *fname;        /* the function its pattern calls: "sum" */
  bool active;              /* guards against a replacement that calls itself */
} Reduction;

/* State shared by every thread of execution. */
typedef struct Program {
  Arena *arena;
  Node *root;               /* N_PROGRAM */
  Func *script;             /* the top level as a function */
  Frame *script_frame;
  Reduction *reductions; int nreductions;
  const InterpOptions *opt;
  double tic_time;
  int host_loops;           /* host loops running (across calls): outside them, each finished
                               statement submits the batched GPU launches (exec_block) */
} Program;

/* The kernel context of one thread, when running kernel code. */
typedef struct KernelThread KernelThread;

/* One thread of execution: the host program, or one kernel thread (fiber). */
struct Interp {
  Program *prog;
  Frame *frame;
  Func *func;
  bool in_kernel;           /* running kernel or device code */
  enum { FLOW_NORMAL, FLOW_BREAK, FLOW_CONTINUE, FLOW_RETURN } flow;
  KernelThread *thread;     /* non-NULL inside a kernel launch */
  int depth;                /* call depth, to report runaway recursion */
};

/* Cooperative groups (docs/language.md): a field or method of the kernel parameter
   coalesced_threads (the thread's warp) or this_thread_block. */
typedef enum GroupOp {
  G_NONE, G_THREAD_IDX, G_SIZE,                          /* fields */
  G_SHFL, G_SHFL_UP, G_SHFL_DOWN, G_SHFL_XOR, G_SYNC, G_ALL, G_ANY, G_BALLOT   /* methods */
} GroupOp;

/* interp_resolve.c */
/* n: g.name (N_FIELD) or g.name(...) (N_CALL): the operation, G_NONE when g is not one of
   the two groups or name is no such member; *warp: g is coalesced_threads. Resolution has
   checked that g is the kernel's parameter and the argument count. */
GroupOp group_op(const Node *n, bool *warp);
const char *group_op_name(GroupOp op);
int resolve_program(Program *P);
void resolve_nested(Program *P, Func **chain, int n, Func *f);
FuncInfo *func_info(Func *f);
const Global *global_lookup(const char *name);
bool is_special_kernel_param(const char *name);

/* interp.c */
Value eval(Interp *I, Node *n);
void exec_block(Interp *I, NodeList *body);
Value call_value(Interp *I, Value fn, int argc, Value *argv, Node *site);
Value call_user(Interp *I, Callable *c, int argc, Value *argv, Node *site, Frame *preset);
Callable *callable_new(CallableKind kind, const char *name);
Frame *frame_new(int nslots, Frame *parent);
void frame_release(Frame *f);
const char *callable_name(const Callable *c);

/* interp_builtins.c */

/* interp_kernel.c */
Value kernel_parallel_do(Interp *I, Node *site, int argc, Value *argv);
Value kernel_block_size(Interp *I, Node *site, int argc, Value *argv, bool count);
Value kernel_shared(Interp *I, Node *site, int argc, Value *argv, bool zeroed);
void kernel_syncthreads(Interp *I, Node *site, const char *scope);
Value kernel_group(Interp *I, Node *n, GroupOp op, bool warp);   /* g.thread_idx, g.shfl(v, d), ... */

#endif
