/* arrayexpr.h: host array expressions made kernels. transform_arrayexpr.c marks, on the
   resolved tree, the statements and reduction calls whose right side is element-wise;
   interp_arrayexpr.c runs them, when their operands turn out to be arrays, as ONE generated
   kernel through the same launch path as every kernel (kernel_parallel_do). */
#ifndef OQ_ARRAYEXPR_H
#define OQ_ARRAYEXPR_H
#include "interp/interp_priv.h"

/* A user kernel's launch `parallel_do(dims, args..., k)` fused into the statement after it
   (transform_arrayexpr.c, fuse_launch): k writes one array argument g, as its last statement
   `g[pos] = e`, and the statement reads g once, where g's value dies. The fused kernel runs
   k's statements with `g[pos] = e` made a local (ax_kv), then the statement's expression with
   g's leaf replaced by it: g is never written. */
typedef struct KernelFusion {
  Func *kernel;        /* k */
  Node *call;          /* the parallel_do call */
  Node *dims;          /* its size argument */
  Node **args;         /* its arguments for k's parameters (variables or numbers), in order */
  int nargs;
  int garg;            /* the argument g */
  int gparam;          /* k's parameter that g binds */
  int gleaf;           /* g's leaf in the statement (evaluated for the guards) */
  bool write_g;        /* g is read later: the kernel writes g[pos] too (passed as k's) */
  int *leaf_param;     /* per leaf of the statement: k's parameter that the same variable
                          is passed to, or -1; an array leaf is then read through it (one
                          array fewer for the C compiler to check for aliasing) */
} KernelFusion;

/* What N_ARRAYEXPR's aux holds. The node's `a` is the original node (an N_ASSIGN statement or
   a reduction's N_CALL): what runs when the guards say no. */
typedef struct ArrayExpr {
  Node *expr;          /* the element-wise expression with leaf k an N_IDENT "$k" (ival k) */
  Node **leaves;       /* the original leaves, in evaluation order */
  int nleaves;
  int nslices;         /* how many leaves are slices x[...] (read into copies here) */
  Op red;              /* OP_NONE: a statement; else how a reduction combines (OP_ADD sum, mean) */
  const char *redname; /* "sum", "mean", "prod", "min", "max"; NULL for a statement */
  Node *dim;           /* a reduction along a dimension (sum(e, d), max(e, [], d)): d; else NULL */
  Node *target;        /* statements: the variable assigned (an N_IDENT), or the slice */
  int target_leaf;     /* a slice target x[...] = e: its leaf (written in place), else -1 */
  Func **chain;        /* the host functions around it, outermost first (name resolution) */
  int nchain;
  int id;              /* numbers the kernels' names */
  /* Fusion of consecutive statements (transform_arrayexpr.c, fuse_next): `t = e1` (the
     marked statement `producer`) followed by this node's statement, which reads t once: e1
     replaced t's leaf in expr. When the guards say no, the producer runs (as a kernel when
     it can), then the node as it was before (`unfused`, which may fuse earlier statements
     in turn), then, at the end of the chain, the original. */
  Node *producer;
  const struct ArrayExpr *unfused;
  Node **fused;        /* the templates of the e1 in expr: each must be an array at run time */
  int nfused;
  bool miss_told;      /* --explain said why this statement does not fuse into the next */
  const KernelFusion *launch;   /* fused with a kernel's launch (its producer), else NULL */
  bool launch_miss_told;        /* --explain said why the launch before it does not fuse */
} ArrayExpr;

/* The transform (after parloop_transform). Nothing is marked for --target interp, whose
   host operators are the reference the kernels are tested against. */
void arrayexpr_transform(Program *P, const InterpOptions *opt);

/* Runs statement n (an N_ARRAYEXPR of an assignment) as a kernel; false when the guards
   send it back to the original statement (nothing was evaluated that matters). */
bool arrayexpr_exec(Interp *I, Node *n);
/* The same for a reduction in an expression: true with *out set when it ran as a kernel. */
bool arrayexpr_eval(Interp *I, Node *n, Value *out);

/* c ? a : b where c is an array: element by element, a and b numbers or arrays of c's
   shape (both evaluated); the element type is that of a + b. */
Value arrayexpr_select(Value cond, Value a, Value b, SrcLoc loc);

#endif
