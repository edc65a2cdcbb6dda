/* rt_gpu.h: the CUDA back end as the kernel launcher (interp_kernel.c) sees it. A launch is
   specialized as for the CPU (kernel_sema.c), emitted as CUDA C++ (emit_cuda in emit_c.c),
   compiled by NVRTC for the device's arch (cached on disk by rt_nvrtc.c) and launched with
   the oracle's block dimensions. */
#ifndef OQ_RT_GPU_H
#define OQ_RT_GPU_H
#include "rt_cpu.h"

/* Runs the launch on the GPU. False when the kernel (or this launch's shape) is not compiled
   for CUDA: nothing has run, the caller tries the CPU back end. With --verbose the first
   fallback of each kernel is reported with its reason. */
bool gpu_launch(const CpuLaunch *c, Value *result);

/* OQ_CUDA_CHECK=1 (CI without a GPU): generates the CUDA source of the launch's
   specialization and compiles it with NVRTC for sm_90, without running it. A source that
   does not compile is an rt_error with NVRTC's message and the generated line. Does nothing
   when the variable is unset or NVRTC is absent. */
bool gpu_check_enabled(void);
void gpu_check(const CpuLaunch *c);

#endif
