/* interp_priv.h: what the interpreter's files (interp.c, interp_resolve.c, interp_kernel.c,
   interp_builtins.c) share. Not for other modules. */
#ifndef OQ_INTERP_PRIV_H
#define OQ_INTERP_PRIV_H
#include "interp/interp.h"
#include "runtime/value.h"
#include "runtime/callable.h"
#include "front/funcinfo.h"

typedef struct Reduction {
  Node *node;               /* N_REDUCTION */
  const char *fname;        /* the function its pattern calls: "sum" */
  bool active;              /* guards against a replacement that calls itself */
} Reduction;

/* What the interpreter learns about a node while the program runs, kept beside the AST
   (which nothing writes after resolution and the transforms): found by the node's address
   (run_note). */
typedef struct RunNote {
  const Node *node;
  bool slow;                /* a statement that took long while GPU launches waited (exec_timed) */
  unsigned scalar_outs;     /* N_PARLOOP: bit i once its int output i came back a scalar */
  Func **mixes;             /* N_PARLOOP: its kernels with some int outputs, by mask (parloop_mix) */
  struct AxKernel *arrayexpr;   /* N_ARRAYEXPR: its kernels (interp_arrayexpr.c) */
} RunNote;

typedef struct RunNotes { RunNote *v; size_t cap, n; } RunNotes;   /* open addressing */

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
  RunNotes notes;
  struct NumLib *num;       /* numerical libraries, plans, handles (interp_numlib.c); NULL
                               until the first call needs them */
  const char *stack_low;    /* the lowest address the host thread's stack may reach, less a
                               margin (interp_run; NULL: unknown): calls stop there */
  FrameLink escaped;        /* the ring of frames that outlived their call (interp_cycles.c) */
  size_t escapes;           /* frames that joined it since the last collection */
  size_t collect_after;     /* ... that start the next one (0: CYCLES_MIN_ESCAPES) */
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
  int outs_wanted;          /* `[a, b] = f(...)`: how many outputs the call f(...) is asked
                               for (0: one); read and cleared by the call it is meant for */
};

/* interp_resolve.c */
int resolve_program(Program *P);
void resolve_nested(Program *P, Func **chain, int n, Func *f);
const Global *global_lookup(const char *name);
/* The i-th name global_lookup knows (built-ins, constants, types); NULL past the last. */
const char *global_name(size_t i);

/* The slot of variable id (resolved: slot >= 0) in the frame of its function. */
static inline Value *slot_ref(Interp *I, const Node *id) {
  Frame *f = I->frame;
  for (int d = id->depth; d > 0; d--) f = f->parent;
  return &f->slots[id->slot];
}

/* interp.c */
/* A range a..c or a..s..c evaluated: ints when all three are, else reals. */
typedef struct RangeSpec { bool is_int; int64_t i0, istep; double r0, rstep; int64_t count; } RangeSpec;
RangeSpec range_spec(Interp *I, Node *n);
Value eval(Interp *I, Node *n);
void exec_block(Interp *I, NodeList *body);
Value call_value(Interp *I, Value fn, int argc, Value *argv, Node *site);
Value call_user(Interp *I, Callable *c, int argc, Value *argv, Node *site, Frame *preset);
Callable *callable_new(CallableKind kind, const char *name);
Frame *frame_new(int nslots, Frame *parent);
void frame_release(Frame *f);
const char *callable_name(const Callable *c);
/* The run-time note of node n, made when missing (it may move when another is made). */
RunNote *run_note(Program *P, const Node *n);
/* Stores v (consumed) into variable id, as `id = v`. */
void interp_store(Interp *I, Node *id, Value v);

/* interp_builtins.c */

/* interp_numlib.c: FFT and linear-algebra built-ins, the GEMM path of '*' */
typedef struct NumLib NumLib;
InterpBuiltinFn numlib_lookup(const char *name, const char **stored_name);   /* NULL: none */
bool numlib_moves_own(InterpBuiltinFn fn);   /* moves its operands between host and GPU itself */
Value numlib_matmul(Interp *I, Value a, Value b, SrcLoc loc);   /* V_NONE: not through GEMM */
void numlib_sync(Program *P, SrcLoc loc);    /* waits for library work on the GPU */
void numlib_free(Program *P);

/* interp_cycles.c: the collector of reference cycles through ended frames */
void cycles_escaped(Program *P, Frame *f);   /* f outlived its call: it joins the ring */
void frame_unlink(Frame *f);                 /* leaves the ring (f is being freed) */
void cycles_maybe_collect(Program *P);       /* collects when enough frames joined */
size_t cycles_collect(Program *P);           /* frees unreachable cycles; returns the nodes freed */
/* At the program's end: collects, then empties the ring, so that LeakSanitizer judges what
   is left by the references the program holds alone (the ring would keep it reachable). */
void cycles_end(Program *P);

/* interp_kernel.c */
Value kernel_parallel_do(Interp *I, Node *site, int argc, Value *argv);
Value kernel_block_size(Interp *I, Node *site, int argc, Value *argv, bool count);
Value kernel_shared(Interp *I, Node *site, int argc, Value *argv, bool zeroed);
void kernel_syncthreads(Interp *I, Node *site, BarrierKind k);
Value kernel_group(Interp *I, Node *n, GroupOp op, bool warp);   /* g.thread_idx, g.shfl(v, d), ... */

#endif
