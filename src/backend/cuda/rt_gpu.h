/* rt_gpu.h: the CUDA back end as the kernel launcher (interp_kernel.c) sees it. A launch is
   specialized as for the CPU (kernel_sema.c), emitted as CUDA C++ (emit_cuda.c),
   compiled by NVRTC for the device's arch (cached on disk by rt_nvrtc.c) and launched with
   the oracle's block dimensions. */
#ifndef OQ_RT_GPU_H
#define OQ_RT_GPU_H
#include "backend/launch.h"

/* Runs the launch on the GPU. False when the kernel (or this launch's shape) is not compiled
   for CUDA: nothing has run, the caller tries the CPU back end. With --verbose the first
   fallback of each kernel is reported with its reason. */
bool gpu_launch(const KLaunch *c, Value *result);

/* Waits for the launches in flight and reports the first error one of them recorded (or a
   device fault) as an rt_error at its Quasar line. Nothing to do when no launch is pending
   (also without a GPU). Called before the host reads data a kernel wrote (through
   cuda_wait_hook), for kernel outputs, by tic/toc and at the end of the program. */
void gpu_sync(SrcLoc loc);

/* oq_bare_launch_us(n): microseconds per launch of n back-to-back launches of an empty
   kernel (cuLaunchKernel, no oq launch path), ending in a wait; an rt_error without a GPU. */
double gpu_bare_launch_us(int64_t n, SrcLoc loc);

/* max_block_size/opt_block_size on --target cuda: the most threads a block of kernel f may
   have on the device (the fewest its compiled specializations allow, else the device's
   limit); 0 without a GPU. */
int gpu_max_block_threads(Func *f);

/* opt_block_cnt on --target cuda: how many blocks of `threads` threads of kernel f the device
   holds at once (occupancy x SMs), the fewest over its compiled specializations; before
   one is compiled, the device's thread and register limits at 64 registers a thread. 0
   without a GPU. */
int64_t gpu_resident_blocks(Func *f, int64_t threads);

/* --profile: per specialization, launches, device time (CUDA events around each launch) and
   host time per launch; then the counters of rt_cuda.h (cuMemAlloc calls, pool hits,
   transfers). Nothing when no kernel ran on the GPU. */
void gpu_profile_report(FILE *out);
/* For benchmarks (bench/gpu): the launches, total and fastest device milliseconds of the
   kernels named `name` since the last reset (needs InterpOptions.profile); false when none
   ran. */
bool gpu_kernel_time(const char *name, long *launches, double *device_ms, double *best_ms);
void gpu_profile_reset(void);

/* OQ_CUDA_CHECK=1 (CI without a GPU; plan.c's STEP_CUDA_CHECK): generates the CUDA source
   of the launch's specialization and compiles it with NVRTC for sm_90, without running it. A
   source that does not compile is an rt_error with NVRTC's message and the generated line.
   Without the variable (or NVRTC) it only prints the source, for `oq emit --target cuda`. */
void gpu_check(const KLaunch *c);

#endif
