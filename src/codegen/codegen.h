/* codegen.h: code generation's interface: the source of a kernel specialization in each
   dialect (codegen/c, codegen/cuda), and the parameter layout a CUDA launch packs. */
#ifndef OQ_CODEGEN_H
#define OQ_CODEGEN_H
#include "kernel/kernel_ir.h"

/* emit_c.c, emit_cuda.c */
/* The C source of a specialization (malloc'ed); NULL with S->reason set on failure. With
   tcc_src: TinyCC's variant when it differs (complex numbers as structs), else NULL. */
char *emit_c(KSpec *S, char **tcc_src);
/* The CUDA C++ of a specialization for NVRTC (malloc'ed): `extern "C" __global__ void
   oqk_entry(const __grid_constant__ OqkGrid P, OqkLaunch *L, OqkWorker *W)`: the launch's
   sizes and arguments by value (struct OqkGrid { int64_t dims[3], blk[3], cnt[3]; OqkArg
   a[nargs]; }), L its error record; one GPU thread per Quasar thread, kernel outputs
   combined atomically into W->out_i/out_r. NULL with S->reason set when something is not
   compiled for CUDA (the launch then runs on the CPU back end). */
char *emit_cuda(KSpec *S);
/* src, emit_cuda's, without the preamble's helpers that nothing in it uses (a first build of
   tiers: NVRTC parses less) */
void emit_cuda_trim(char *src);

/* The 8-byte words argument i of S (a parameter, then a capture) takes in a CUDA launch's
   parameter block, after OqkGridHead, in order: an array: data, i (its 'hwconst offset),
   dims[rank]; an int, bool or real: i or re; a complex: re, im; a small vector: v[len];
   special parameters (pos, ...) and functions: none. emit_cuda declares them so, and the
   launcher (rt_gpu.c) packs them so. */
int cuda_arg_words(const KSpec *S, int i);

#endif
