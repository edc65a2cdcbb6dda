/* launch.h: a kernel launch as the back ends (backend/cpu, backend/cuda) see it, and what
   both do alike with it: the arguments in the generated code's ABI (oqk_abi.h), the
   combination of kernel outputs, the messages of errors compiled code reports. */
#ifndef OQ_LAUNCH_H
#define OQ_LAUNCH_H
#include "base/oqk_abi.h"
#include "base/options.h"
#include "kernel/kernel_ir.h"

struct LaunchPlan;

/* What the launcher knows once the launch size and arguments are bound. */
typedef struct KLaunch {
  const InterpOptions *opt;
  Node *site;               /* the parallel_do call */
  Callable *kernel;
  int D;
  const int64_t *dims, *blk, *cnt;
  Value *args;              /* converted arguments by parameter index (V_NONE: special) */
  bool explicit_blk;        /* parallel_do([dims, blkdims], ...): the block size was given */
  const struct LaunchPlan *plan;   /* where and how it runs (plan.h, launch_plan) */
} KLaunch;

/* An argument as generated code reads it; the identity and combination of kernel outputs
   (op: FuncInfo.out_op's OP_ADD, OP_MUL, OP_MAX or OP_MIN; OP_NONE adds); the message of an
   error compiled code set. */
void launch_fill_arg(OqkArg *a, Value v);
double launch_identity_r(Op op);
int64_t launch_identity_i(Op op);
double launch_combine_r(Op op, double a, double b);
int64_t launch_combine_i(Op op, int64_t a, int64_t b);
_Noreturn void launch_report(const KSite *sites, int nsites, const char *name, const OqkLaunch *L, SrcLoc at);

#endif
