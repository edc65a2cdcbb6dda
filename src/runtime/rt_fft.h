/* rt_fft.h: the FFT on the host, on FFTW (Debian libfftw3-single3 / libfftw3-double3: the
   libraries libfftw3f.so.3 and libfftw3.so.3, loaded with dlopen; no header needed), and the
   axis rules that the CUDA side (device/rt_cunum.h) shares.

   Arrays are row-major (the last index varies fastest). A transform runs along a set of the
   array's dimensions (FftAxes); every other dimension is a batch. Seed 001's rules: fft1
   along the last dimension, fft2 along the first two, fft3 along the first three (each
   limited to the array's rank), fftn along the dimensions it is given. The inverse is
   scaled by 1/N (N: the product of the transformed lengths), so ifft(fft(x)) = x. */
#ifndef OQ_RT_FFT_H
#define OQ_RT_FFT_H
#include "runtime/value.h"

/* The transformed dimensions of an array, in increasing order, each below the rank. */
typedef struct FftAxes { int n; int axis[OQ_MAX_RANK]; } FftAxes;

/* fft1/fft2/fft3 (k = 1, 2, 3) of an array of rank `rank`. */
FftAxes fft_axes_k(int k, int rank);
/* fftn's list of dimensions (a number or a vector of 0-based dimensions), checked against the
   rank: an error naming fn for a repeated, negative or too large dimension. */
FftAxes fft_axes_list(const char *fn, Value dims, int rank, SrcLoc loc);
/* The product of the transformed lengths. */
int64_t fft_axes_count(const Array *x, const FftAxes *ax);

/* What kind of transform: the direction, and for the inverse whether only the real part is
   kept (irealfft: real(ifft(x))). */
typedef enum FftKind { FFT_FORWARD, FFT_INVERSE, FFT_INVERSE_REAL } FftKind;

/* The result's element type: cscalar (real part: scalar), in the working precision. */
ElemType fft_result_elem(FftKind k);

/* FFTW: the loaded libraries (one per precision) and their plans, kept while the program
   runs (plans are keyed by precision, direction, layout, alignment and threads). */
typedef struct FftwLib FftwLib;
FftwLib *fftw_lib_new(int threads);            /* threads: for large transforms; >= 1 */
void fftw_lib_free(FftwLib *L);
/* Whether FFTW of the working precision loads. */
bool fftw_available(FftwLib *L);
/* The transform of x (any element type: converted to cscalar first) along ax. fn names the
   function in errors (FFTW missing: which package to install). A new array. */
Array *fftw_transform(FftwLib *L, const Array *x, const FftAxes *ax, FftKind kind,
                      const char *fn, SrcLoc loc);

#endif
