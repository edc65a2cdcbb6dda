/* cunum_priv.h: the state of the CUDA numerical libraries (rt_cunum.h), shared by
   rt_cunum.c, rt_cufft.c, rt_cublas.c and rt_cusolver.c, and their one loader. */
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

/* cuSOLVER's dense functions used, [0] float (S), [1] double (D), [2] complex float (C),
   [3] complex double (Z); device pointers as void *. orgqr, ormqr and syevd are ungqr,
   unmqr and heevd for the complex ones (the same arguments). The 64-bit API's Xgeev (CUDA
   12.6 and later) is optional: geev_state says whether the loaded library has it. */
typedef struct CusolverApi {
  int state;
  char why[300];
  void *handle;              /* cusolverDnHandle_t, made at the first use */
  CudaModule *kernels;       /* the layout kernels of resident operands (rt_cusolver.c) */
  int (*create)(void **);
  int (*destroy)(void *);
  int (*potrf_size[4])(void *, int, int, void *, int, int *);
  int (*potrf[4])(void *, int, int, void *, int, void *, int, int *);
  int (*getrf_size[4])(void *, int, int, void *, int, int *);
  int (*getrf[4])(void *, int, int, void *, int, void *, int *, int *);
  int (*getrs[4])(void *, int, int, int, const void *, int, const int *, void *, int, int *);
  int (*geqrf_size[4])(void *, int, int, void *, int, int *);
  int (*geqrf[4])(void *, int, int, void *, int, void *, void *, int, int *);
  int (*orgqr_size[4])(void *, int, int, int, const void *, int, const void *, int *);
  int (*orgqr[4])(void *, int, int, int, void *, int, const void *, void *, int, int *);
  int (*gesvd_size[4])(void *, int, int, int *);
  int (*gesvd[4])(void *, signed char, signed char, int, int, void *, int, void *, void *, int,
                  void *, int, void *, int, void *, int *);
  int (*syevd_size[4])(void *, int, int, int, const void *, int, const void *, int *);
  int (*syevd[4])(void *, int, int, int, void *, int, void *, void *, int, int *);
  int (*ormqr_size[4])(void *, int, int, int, int, int, const void *, int, const void *,
                       const void *, int, int *);
  int (*ormqr[4])(void *, int, int, int, int, int, const void *, int, const void *, void *, int,
                  void *, int, int *);
  /* non-symmetric eigenproblems: cusolverDnXgeev with its parameter object */
  int geev_state;            /* 0 not looked up, 1 present, -1 absent */
  void *params;              /* cusolverDnParams_t, made at the first use */
  int (*create_params)(void **);
  int (*destroy_params)(void *);
  int (*geev_size)(void *, void *, int, int, int64_t, int, const void *, int64_t, int,
                   const void *, int, const void *, int64_t, int, const void *, int64_t, int,
                   size_t *, size_t *);
  int (*geev)(void *, void *, int, int, int64_t, int, void *, int64_t, int, void *, int, void *,
              int64_t, int, void *, int64_t, int, void *, size_t, void *, size_t, int *);
  void *lib;                 /* the dlopen handle (for the optional symbols) */
} CusolverApi;

struct CuNum {
  CufftApi fft;
  CublasApi blas;
  CusolverApi solver;
  CudaModule *helpers;       /* scaling and real-part kernels (rt_cufft.c) */
  bool pending;              /* library work not waited for */
};

/* A library to load: its title in messages, the file names to try (cunum_open) and the
   symbols to bind (each into its slot). */
typedef struct CunumSym { const char *name; void **slot; } CunumSym;
typedef struct CunumLib {
  const char *title;
  const char *const *names;
  size_t nnames;
  const CunumSym *syms;
  size_t nsyms;
  void **handle;             /* not NULL: gets the library's handle (for optional symbols) */
} CunumLib;

/* Loads lib once the GPU is usable and binds every symbol; false with the reason (no GPU,
   the library missing, a symbol missing) in why (n bytes). */
bool cunum_load(const CunumLib *lib, char *why, size_t n);

/* Whether a library is usable, loading it at the first ask (*state: 0 not tried, 1 loaded,
   -1 missing, with its reason in lib_why, copied to why (n bytes) when why is not NULL). */
bool cunum_available(CuNum *C, int *state, bool (*load)(CuNum *), const char *lib_why, char *why, size_t n);

#endif
