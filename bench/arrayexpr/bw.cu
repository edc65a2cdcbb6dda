// bench/arrayexpr/bw.cu: what limits oq's element-wise and TV-gradient kernels at 4096^2
// (session 15, tv20). Hand-written copies of the code oq generates (emit_cuda: 2-D grid,
// block from the occupancy calculator, int32 indexes, no __restrict__) next to variants:
// other block shapes, __restrict__, several elements per thread, float4 loads, the TV
// update fused into the gradient. Compiled by bench/arrayexpr/bw.sh with the flags oq gives
// NVRTC (--fmad=false) and with others; prints "variant: ms GB/s regs".
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

__device__ __forceinline__ int clampx(int i, int n) { if (n <= 0) return -1; return i < 0 ? 0 : i >= n ? n - 1 : i; }

// ---- element-wise: y = x .* h + 0.5*cos(x) ----
__global__ void map_gen(float *y, float *x, float *h, int n0, int n1) {   // as generated
  int P0 = blockIdx.y * blockDim.y + threadIdx.y, P1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (P0 < n0 && P1 < n1) {
    float a = x[P0 * n1 + P1], b = h[P0 * n1 + P1], c = x[P0 * n1 + P1];
    y[P0 * n1 + P1] = a * b + 0.5f * cosf(c);
  }
}
__global__ void map_restrict(float *__restrict__ y, const float *__restrict__ x, const float *__restrict__ h, int n0, int n1) {
  int P0 = blockIdx.y * blockDim.y + threadIdx.y, P1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (P0 < n0 && P1 < n1) { int i = P0 * n1 + P1; y[i] = x[i] * h[i] + 0.5f * cosf(x[i]); }
}
template <int U> __global__ void map_unroll(float *__restrict__ y, const float *__restrict__ x, const float *__restrict__ h, int n0, int n1) {
  // U positions per thread along the row, blockDim.x apart (each load stays coalesced)
  int P0 = blockIdx.y * blockDim.y + threadIdx.y, base = blockIdx.x * blockDim.x * U + threadIdx.x;
  if (P0 >= n0) return;
  float a[U], b[U];
#pragma unroll
  for (int u = 0; u < U; u++) { int P1 = base + u * blockDim.x; if (P1 < n1) a[u] = x[P0 * n1 + P1], b[u] = h[P0 * n1 + P1]; }
#pragma unroll
  for (int u = 0; u < U; u++) { int P1 = base + u * blockDim.x; if (P1 < n1) y[P0 * n1 + P1] = a[u] * b[u] + 0.5f * cosf(a[u]); }
}
__global__ void map_v4(float *__restrict__ y, const float *__restrict__ x, const float *__restrict__ h, int n0, int n1) {
  int P0 = blockIdx.y * blockDim.y + threadIdx.y, P1 = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (P0 < n0 && P1 < n1) {
    int i = P0 * n1 + P1;
    float4 a = *(const float4 *)(x + i), b = *(const float4 *)(h + i), r;
    r.x = a.x * b.x + 0.5f * cosf(a.x); r.y = a.y * b.y + 0.5f * cosf(a.y);
    r.z = a.z * b.z + 0.5f * cosf(a.z); r.w = a.w * b.w + 0.5f * cosf(a.w);
    *(float4 *)(y + i) = r;
  }
}
__global__ void copy_gen(float *y, float *x, int n0, int n1) {
  int P0 = blockIdx.y * blockDim.y + threadIdx.y, P1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (P0 < n0 && P1 < n1) y[P0 * n1 + P1] = x[P0 * n1 + P1];
}
__global__ void copy_v4(float4 *__restrict__ y, const float4 *__restrict__ x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i];
}
__global__ void maxsqrt_gen(float *y, float *x, float *h, int n0, int n1) {
  int P0 = blockIdx.y * blockDim.y + threadIdx.y, P1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (P0 < n0 && P1 < n1) {
    float a = x[P0 * n1 + P1], b = h[P0 * n1 + P1];
    float s = sqrtf(a * a + b * b);
    y[P0 * n1 + P1] = s > 1e-10f || 1e-10f != 1e-10f ? s : 1e-10f;
  }
}

// ---- TV: g = tv_grad(x) (clamped), then u' = u - 0.05*((u - f) - 0.2*g) ----
__device__ __forceinline__ float tv_at(const float *x, int P0, int P1, int n0, int n1) {
  float c = x[P0 * n1 + P1];
  float dx = x[P0 * n1 + clampx(P1 + 1, n1)] - c, dy = x[clampx(P0 + 1, n0) * n1 + P1] - c;
  float dxm = c - x[P0 * n1 + clampx(P1 - 1, n1)], dym = c - x[clampx(P0 - 1, n0) * n1 + P1];
  return dx / sqrtf(dx * dx + dy * dy + 0.01f) - dxm / sqrtf(dxm * dxm + dym * dym + 0.01f) +
         dy / sqrtf(dx * dx + dy * dy + 0.01f) - dym / sqrtf(dxm * dxm + dym * dym + 0.01f);
}
__global__ void tv_gen(float *x, float *g, int n0, int n1) {
  int P0 = blockIdx.y * blockDim.y + threadIdx.y, P1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (P0 < n0 && P1 < n1) g[P0 * n1 + P1] = tv_at(x, P0, P1, n0, n1);
}
__global__ void tv_restrict(const float *__restrict__ x, float *__restrict__ g, int n0, int n1) {
  int P0 = blockIdx.y * blockDim.y + threadIdx.y, P1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (P0 < n0 && P1 < n1) g[P0 * n1 + P1] = tv_at(x, P0, P1, n0, n1);
}
__global__ void tv_rsqrt(const float *__restrict__ x, float *__restrict__ g, int n0, int n1) {
  // the same formula as one reciprocal square root per pair (not bit-identical)
  int P0 = blockIdx.y * blockDim.y + threadIdx.y, P1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (P0 < n0 && P1 < n1) {
    const float *r = x + P0 * n1;
    float c = r[P1];
    float dx = r[clampx(P1 + 1, n1)] - c, dy = x[clampx(P0 + 1, n0) * n1 + P1] - c;
    float dxm = c - r[clampx(P1 - 1, n1)], dym = c - x[clampx(P0 - 1, n0) * n1 + P1];
    g[P0 * n1 + P1] = (dx + dy) * rsqrtf(dx * dx + dy * dy + 0.01f) - (dxm + dym) * rsqrtf(dxm * dxm + dym * dym + 0.01f);
  }
}
template <int U> __global__ void tv_rows(const float *__restrict__ x, float *__restrict__ g, int n0, int n1) {
  // U rows per thread, blockDim.y * gridDim.y * ... : rows P0 = U*(blockrow) + u
  int P1 = blockIdx.x * blockDim.x + threadIdx.x, P0b = (blockIdx.y * blockDim.y + threadIdx.y) * U;
  if (P1 >= n1) return;
#pragma unroll
  for (int u = 0; u < U; u++) if (P0b + u < n0) g[(P0b + u) * n1 + P1] = tv_at(x, P0b + u, P1, n0, n1);
}
template <int U> __global__ void tv_rows_nr(float *x, float *g, int n0, int n1) {   // tv_rows, may alias
  int P1 = blockIdx.x * blockDim.x + threadIdx.x, P0b = (blockIdx.y * blockDim.y + threadIdx.y) * U;
  if (P1 >= n1) return;
#pragma unroll
  for (int u = 0; u < U; u++) if (P0b + u < n0) g[(P0b + u) * n1 + P1] = tv_at(x, P0b + u, P1, n0, n1);
}
__global__ void upd_gen(float *o, float *u, float *f, float *g, int n0, int n1) {
  int P0 = blockIdx.y * blockDim.y + threadIdx.y, P1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (P0 < n0 && P1 < n1) {
    int i = P0 * n1 + P1;
    o[i] = u[i] - 0.05f * ((u[i] - f[i]) - 0.2f * g[i]);
  }
}
__global__ void tv_fused(const float *__restrict__ x, const float *__restrict__ f, float *__restrict__ g, float *__restrict__ o, int n0, int n1) {
  int P0 = blockIdx.y * blockDim.y + threadIdx.y, P1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (P0 < n0 && P1 < n1) {
    int i = P0 * n1 + P1;
    float gv = tv_at(x, P0, P1, n0, n1);
    g[i] = gv;
    o[i] = x[i] - 0.05f * ((x[i] - f[i]) - 0.2f * gv);
  }
}
__global__ void tv_fused_nog(const float *__restrict__ x, const float *__restrict__ f, float *__restrict__ o, int n0, int n1) {
  int P0 = blockIdx.y * blockDim.y + threadIdx.y, P1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (P0 < n0 && P1 < n1) {
    int i = P0 * n1 + P1;
    float gv = tv_at(x, P0, P1, n0, n1);
    o[i] = x[i] - 0.05f * ((x[i] - f[i]) - 0.2f * gv);
  }
}

static cudaEvent_t e0, e1;
static int reps = 50;
template <class F> static void timeit(const char *name, const void *fn, double bytes, F launch) {
  cudaFuncAttributes at;
  CK(cudaFuncGetAttributes(&at, fn));
  launch();
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  float best = 1e30f;
  for (int r = 0; r < 3; r++) {
    CK(cudaEventRecord(e0));
    for (int i = 0; i < reps; i++) launch();
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    if (ms / reps < best) best = ms / reps;
  }
  printf("%-34s %8.4f ms %8.1f GB/s  regs %d\n", name, best, bytes / best / 1e6, at.numRegs);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4096;
  size_t N = (size_t)n * n, B = N * sizeof(float);
  float *x, *h, *y, *f, *g, *o;
  CK(cudaMalloc(&x, B)); CK(cudaMalloc(&h, B)); CK(cudaMalloc(&y, B));
  CK(cudaMalloc(&f, B)); CK(cudaMalloc(&g, B)); CK(cudaMalloc(&o, B));
  float *hx = (float *)malloc(B);
  for (size_t i = 0; i < N; i++) hx[i] = (float)((i * 2654435761u) % 1000) / 1000.0f;
  CK(cudaMemcpy(x, hx, B, cudaMemcpyHostToDevice)); CK(cudaMemcpy(h, hx, B, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(f, hx, B, cudaMemcpyHostToDevice));
  CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  printf("device %s, n = %d, %d SMs\n", p.name, n, p.multiProcessorCount);
  char nm[96];
  timeit("copy float4 1-D", (const void *)copy_v4, 2.0 * B, [&] { copy_v4<<<(unsigned)(N / 4 + 255) / 256, 256>>>((float4 *)y, (const float4 *)x, (int)(N / 4)); });
  cudaMemcpyAsync(y, x, B, cudaMemcpyDeviceToDevice);
  timeit("cudaMemcpy DtoD", (const void *)copy_v4, 2.0 * B, [&] { CK(cudaMemcpyAsync(y, x, B, cudaMemcpyDeviceToDevice)); });
  int shapes[][2] = {{1024, 1}, {512, 1}, {256, 1}, {128, 1}, {32, 8}, {64, 4}, {32, 16}};
  for (auto &s : shapes) {
    dim3 blk(s[0], s[1]), grd((n + s[0] - 1) / s[0], (n + s[1] - 1) / s[1]);
    snprintf(nm, sizeof nm, "copy gen %dx%d", s[0], s[1]);
    timeit(nm, (const void *)copy_gen, 2.0 * B, [&] { copy_gen<<<grd, blk>>>(y, x, n, n); });
    snprintf(nm, sizeof nm, "map gen %dx%d", s[0], s[1]);
    timeit(nm, (const void *)map_gen, 3.0 * B, [&] { map_gen<<<grd, blk>>>(y, x, h, n, n); });
    snprintf(nm, sizeof nm, "map restrict %dx%d", s[0], s[1]);
    timeit(nm, (const void *)map_restrict, 3.0 * B, [&] { map_restrict<<<grd, blk>>>(y, x, h, n, n); });
    snprintf(nm, sizeof nm, "maxsqrt gen %dx%d", s[0], s[1]);
    timeit(nm, (const void *)maxsqrt_gen, 3.0 * B, [&] { maxsqrt_gen<<<grd, blk>>>(y, x, h, n, n); });
    snprintf(nm, sizeof nm, "tv gen %dx%d", s[0], s[1]);
    timeit(nm, (const void *)tv_gen, 2.0 * B, [&] { tv_gen<<<grd, blk>>>(x, g, n, n); });
    snprintf(nm, sizeof nm, "tv restrict %dx%d", s[0], s[1]);
    timeit(nm, (const void *)tv_restrict, 2.0 * B, [&] { tv_restrict<<<grd, blk>>>(x, g, n, n); });
    snprintf(nm, sizeof nm, "tv rsqrt %dx%d", s[0], s[1]);
    timeit(nm, (const void *)tv_rsqrt, 2.0 * B, [&] { tv_rsqrt<<<grd, blk>>>(x, g, n, n); });
    snprintf(nm, sizeof nm, "update gen %dx%d", s[0], s[1]);
    timeit(nm, (const void *)upd_gen, 4.0 * B, [&] { upd_gen<<<grd, blk>>>(o, x, f, g, n, n); });
    snprintf(nm, sizeof nm, "tv fused (g kept) %dx%d", s[0], s[1]);
    timeit(nm, (const void *)tv_fused, 4.0 * B, [&] { tv_fused<<<grd, blk>>>(x, f, g, o, n, n); });
    snprintf(nm, sizeof nm, "tv fused (no g) %dx%d", s[0], s[1]);
    timeit(nm, (const void *)tv_fused_nog, 3.0 * B, [&] { tv_fused_nog<<<grd, blk>>>(x, f, o, n, n); });
  }
  for (int bx : {256, 128}) {
    dim3 blk(bx, 1);
    dim3 g2((n + 2 * bx - 1) / (2 * bx), n), g4((n + 4 * bx - 1) / (4 * bx), n);
    snprintf(nm, sizeof nm, "map unroll2 %dx1", bx);
    timeit(nm, (const void *)map_unroll<2>, 3.0 * B, [&] { map_unroll<2><<<g2, blk>>>(y, x, h, n, n); });
    snprintf(nm, sizeof nm, "map unroll4 %dx1", bx);
    timeit(nm, (const void *)map_unroll<4>, 3.0 * B, [&] { map_unroll<4><<<g4, blk>>>(y, x, h, n, n); });
    snprintf(nm, sizeof nm, "map float4 %dx1", bx);
    timeit(nm, (const void *)map_v4, 3.0 * B, [&] { map_v4<<<g4, blk>>>(y, x, h, n, n); });
    dim3 r2((n + bx - 1) / bx, n / 2), r4((n + bx - 1) / bx, n / 4);
    snprintf(nm, sizeof nm, "tv rows2 %dx1", bx);
    timeit(nm, (const void *)tv_rows<2>, 2.0 * B, [&] { tv_rows<2><<<r2, blk>>>(x, g, n, n); });
    snprintf(nm, sizeof nm, "tv rows4 %dx1", bx);
    timeit(nm, (const void *)tv_rows<4>, 2.0 * B, [&] { tv_rows<4><<<r4, blk>>>(x, g, n, n); });
    snprintf(nm, sizeof nm, "tv rows4, may alias %dx1", bx);
    timeit(nm, (const void *)tv_rows_nr<4>, 2.0 * B, [&] { tv_rows_nr<4><<<r4, blk>>>(x, g, n, n); });
    snprintf(nm, sizeof nm, "tv rows2, may alias %dx1", bx);
    timeit(nm, (const void *)tv_rows_nr<2>, 2.0 * B, [&] { tv_rows_nr<2><<<r2, blk>>>(x, g, n, n); });
  }
  CK(cudaDeviceSynchronize());
  return 0;
}
