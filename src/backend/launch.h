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

/* The launch's positions: the product of its dimensions. */
static inline int64_t launch_positions(const KLaunch *cl) {
  int64_t n = 1;
  for (int d = 0; d < cl->D; d++) n *= cl->dims[d];
  return n;
}

/* A specialization as both back ends keep it, at the head of their own records (rt_cpu.c
   Compiled, rt_gpu.c GSpec): its key, and why it failed or what its compiled code needs at
   every launch: the kernel outputs' types and operators, the error sites its code reports,
   its shared() calls and the transforms the emitter chose (KTransforms, copied whole). */
typedef struct LaunchSpec {
  char *key;
  bool failed;
  char reason[256];
  char *name;               /* the kernel's, for messages */
  int nouts;
  bool out_int[OQK_MAX_OUTS];
  Op out_op[OQK_MAX_OUTS];
  bool small_launch;        /* valid only for launch extents below 2^23 */
  int nshared;              /* its shared() calls (KFacts.nshared) */
  KSite *sites; int nsites;
  KTransforms tr;
} LaunchSpec;

/* Records what the compiled code of S needs at its launches in h. */
void launch_spec_compiled(LaunchSpec *h, const KSpec *S);
/* Records that h is not compiled, and why. Returns false. */
bool launch_spec_fail(LaunchSpec *h, const char *why);

/* An argument as generated code reads it; the identity and combination of kernel outputs
   (op: FuncInfo.out_op's OP_ADD, OP_MUL, OP_MAX or OP_MIN; OP_NONE adds); the message of an
   error compiled code set. */
void launch_fill_arg(OqkArg *a, Value v);
double launch_identity_r(Op op);
int64_t launch_identity_i(Op op);
double launch_combine_r(Op op, double a, double b);
int64_t launch_combine_i(Op op, int64_t a, int64_t b);
_Noreturn void launch_report(const LaunchSpec *h, const OqkLaunch *L, SrcLoc at);

#endif
