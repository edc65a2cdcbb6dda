/* cunum_priv.h: the state of the CUDA numerical libraries (rt_cunum.h), shared by
   rt_cufft.c and rt_cublas.c. */
#ifndef OQ_CUNUM_PRIV_H
#define OQ_CUNUM_PRIV_H
#include "base/config.h"
#include "device/rt_cunum.h"

#define CUFFT_PLANS_MAX 16   /* plans kept (each holds device work memory) */

typedef struct FftPlanKey {
  bool dbl;                  /* Z2Z, else C2C */
  int rank, n[3], stride, dist, batch;
} FftPlanKey;

typedef struct CufftPlan { FftPlanKey key; int handle; uint64_t used; } CufftPlan;

typedef struct CufftApi {
  int state;                 /* 0 not tried, 1 loaded, -1 missing (why) */
  char why[300];
  int (*plan_many)(int *, int, int *, int *, int, int, int *, int, int, int, int);
  int (*exec_c2c)(int, void *, void *, int);
  int (*exec_z2z)(int, void *, void *, int);
  int (*destroy)(int);
  CufftPlan plans[CUFFT_PLANS_MAX];
  int nplans;
  uint64_t clock;
} CufftApi;

typedef struct CublasApi {
  int state;
  char why[300];
  void *handle;              /* cublasHandle_t, made at the first use */
  int (*create)(void **);
  int (*destroy)(void *);
  int (*gemm[4])(void *, int, int, int, int, int, const void *, const void *, int,
                 const void *, int, const void *, void *, int);   /* S, D, C, Z */
} CublasApi;

struct CuNum {
  CufftApi fft;
  CublasApi blas;
  CudaModule *helpers;       /* scaling and real-part kernels (rt_cufft.c) */
  bool pending;              /* library work not waited for */
};

#endif
