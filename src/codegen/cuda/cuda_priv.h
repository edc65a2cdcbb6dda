/* cuda_priv.h: what emit_cuda.c (the CUDA dialect) and coarse.c (its persistent blocks)
   share; private to src/codegen/cuda. */
#ifndef OQ_CUDA_PRIV_H
#define OQ_CUDA_PRIV_H
#include "codegen/emit.h"

/* emit_cuda.c */
extern const char *const em_cuda_axis[3];   /* CUDA's axis of each Quasar dimension, last first */
int64_t em_cuda_key_threads(const KSpec *S);
void em_cuda_transforms(Em *E);
void em_cuda_stride_digits(Em *E, int D, const char *radix, const char *q, const char *w);
void em_cuda_stride_step(Em *E, int D, const char *radix, bool lb);
void em_cuda_pf_walk(Em *E, Node *n, bool at_pos);
void em_cuda_count_offsets(Em *E);

/* coarse.c */
int64_t em_cuda_coarse_gblock(KSpec *S);
void em_cuda_coarse_ahead(Em *E, int want);
void em_cuda_coarse_packed(Em *E);
void em_cuda_coarse_kernel(Em *E);
bool em_cuda_shadow_update(Em *E, const Update *u);
bool em_cuda_count_update(Em *E, const Update *u);
void em_cuda_packed_merge(Em *E, const char *w, const char *v, const char *ety, const char *y, const char *store);
void em_cuda_packed_when(Em *E, const char *work, const char *least, int most);
/* em_cuda_last_pass's loop: what it sums, stores and clears for each element, LAST_U of a
   thread's elements at a time */
enum { LAST_U = 4 };
typedef struct { const char *ty, *var, *copy, *clear, *ety, *y, *store; } LastPass;
void em_cuda_last_pass(Em *E, const char *tid, const char *nt, const char *n, LastPass p);
void em_cuda_last_block_begin(Em *E, const char *tid, const char *ctr);
void em_cuda_last_block_end(Em *E, const char *tid, const char *ctr);

#endif
