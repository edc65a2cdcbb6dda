/* rt_cunum.c: what the CUDA numerical libraries share (rt_cunum.h): their state's life, the
   one loader (the GPU checked, the library searched, its symbols bound, one message per
   failure) and the wait for their work. The libraries themselves: rt_cufft.c (cuFFT),
   rt_cublas.c (cuBLAS), rt_cusolver.c (cuSOLVER). */
#include "device/rt_cunum.h"
#include "device/cunum_priv.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

CuNum *cunum_new(void) { return calloc(1, sizeof(CuNum)); }

void cunum_free(CuNum *C) {
  if (!C) return;
  for (int i = 0; i < C->fft.nplans; i++) C->fft.destroy(C->fft.plans[i].handle);
  if (C->blas.handle) C->blas.destroy(C->blas.handle);
  if (C->solver.params) C->solver.destroy_params(C->solver.params);
  if (C->solver.handle) C->solver.destroy(C->solver.handle);
  if (C->solver.kernels) cuda_module_unload(C->solver.kernels);
  free(C);
}

void *cunum_open(const char *const *names, size_t n) {
  const char *homes[] = { config()->cuda_homes[0], config()->cuda_homes[1], "/usr/local/cuda" };
  char path[4200];
  for (size_t h = 0; h < sizeof homes / sizeof *homes; h++) {
    if (!homes[h] || !*homes[h]) continue;
    for (size_t i = 0; i < n; i++) {
      snprintf(path, sizeof path, "%s/lib64/%s", homes[h], names[i]);
      void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
      if (lib) return lib;
    }
  }
  for (size_t i = 0; i < n; i++) {
    void *lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (lib) return lib;
  }
  return NULL;
}

bool cunum_available(CuNum *C, int *state, bool (*load)(CuNum *), const char *lib_why, char *why, size_t n) {
  if (!*state) *state = load(C) ? 1 : -1;
  if (*state < 0 && why) snprintf(why, n, "%s", lib_why);
  return *state > 0;
}

bool cunum_load(const CunumLib *lib, char *why, size_t n) {
  char gpu[256];
  if (!cuda_available(gpu, sizeof gpu)) {
    snprintf(why, n, "no GPU: %s", gpu);
    return false;
  }
  void *h = cunum_open(lib->names, lib->nnames);
  if (!h) {
    snprintf(why, n, "%s (%s) is not installed (looked in $CUDA_HOME/lib64, "
             "/usr/local/cuda/lib64 and the loader's path)", lib->title, lib->names[0]);
    return false;
  }
  for (size_t i = 0; i < lib->nsyms; i++) {
    *lib->syms[i].slot = dlsym(h, lib->syms[i].name);
    if (!*lib->syms[i].slot) {
      snprintf(why, n, "%s lacks %s (a version too old?)", lib->names[0], lib->syms[i].name);
      dlclose(h);
      return false;
    }
  }
  if (lib->handle) *lib->handle = h;
  return true;
}

void cunum_sync(CuNum *C, SrcLoc loc) {
  if (!C || !C->pending) return;
  C->pending = false;
  cuda_sync(loc);
}
