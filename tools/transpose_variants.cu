// tools/transpose_variants.cu: where seed 002's transpose with 16x16 tiles loses time against a
// device memcpy, by hand-written variants of the kernel oq generates (16 x 4 GPU threads per
// 16 x 16 tile, 4 rows each, rows threadIdx.y + 4 r), all in one process, interleaved round by
// round, CUDA events. Variants change only which tile a block takes (the order in which the
// grid visits the tiles) or how many tiles a block takes.
//   nvcc -O3 -arch=sm_90 -o /tmp/tv tools/transpose_variants.cu && /tmp/tv [N] [ROUNDS]
// Prints per variant the best and median time and the best as a fraction of the memcpy's best;
// checks every output against the input on the host.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)

// the tile (by, bx) that block L of the grid takes. ORDER 0: row-major (blockIdx as launched);
// G > 1: groups of G x G tiles, the G^2 blocks of a group consecutive (a group's blocks read
// whole lines of a tile row together and write whole lines of a tile column together).
template <int G> __device__ __forceinline__ void tile_of(int nbx, int &by, int &bx) {
  if (G == 1) { by = blockIdx.y; bx = blockIdx.x; return; }
  const int L = blockIdx.y * gridDim.x + blockIdx.x, g = L / (G * G), r = L % (G * G);
  const int ngx = nbx / G;
  by = (g / ngx) * G + r / G;
  bx = (g % ngx) * G + r % G;
}

// K x K tile, K x R threads, K / R rows each (oq's virtual threads: R = K / 4)
template <int K, int R, int G> __global__ void tr(const float *in, float *out, int n) {
  __shared__ float tile[K][K + 1];
  int by, bx;
  tile_of<G>(n / K, by, bx);
  const int i = by * K + threadIdx.y, j = bx * K + threadIdx.x;
#pragma unroll
  for (int r = 0; r < K; r += R) tile[threadIdx.y + r][threadIdx.x] = in[(size_t)(i + r) * n + j];
  __syncthreads();
  const int oi = bx * K + threadIdx.y, oj = by * K + threadIdx.x;
#pragma unroll
  for (int r = 0; r < K; r += R) out[(size_t)(oi + r) * n + oj] = tile[threadIdx.x][threadIdx.y + r];
}

// T tiles of K x K stacked down the input (one block: T K rows, K columns; writes T K wide rows)
template <int K, int R, int T> __global__ void tr_stack(const float *in, float *out, int n) {
  __shared__ float tile[T * K][K + 1];
  const int by = blockIdx.y * T, bx = blockIdx.x;
  const int i = by * K + threadIdx.y, j = bx * K + threadIdx.x;
#pragma unroll
  for (int r = 0; r < T * K; r += R) tile[threadIdx.y + r][threadIdx.x] = in[(size_t)(i + r) * n + j];
  __syncthreads();
  // out rows bx K .. + K, columns by K .. + T K: thread (x, y) writes column x of each T K-wide
  // row piece in T steps of K
  const int oi = bx * K + threadIdx.y;
#pragma unroll
  for (int r = 0; r < K; r += R)
#pragma unroll
    for (int t = 0; t < T; t++) out[(size_t)(oi + r) * n + by * K + t * K + threadIdx.x] = tile[t * K + threadIdx.x][threadIdx.y + r];
}

// V blocks of K x K tiles per GPU block (virtual blocks): GPU block K x (R V), sub-block
// threadIdx.y / R takes tile row blockIdx.y V + v with its own tile, as oq would run V of the
// Quasar kernel's blocks in one GPU block (the warps of one tile are not those of the next)
template <int K, int R, int V> __global__ void tr_vblk(const float *in, float *out, int n) {
  __shared__ float tiles[V][K][K + 1];
  const int v = threadIdx.y / R, ty = threadIdx.y % R;
  float (*tile)[K + 1] = tiles[v];
  const int by = blockIdx.y * V + v, bx = blockIdx.x;
  const int i = by * K + ty, j = bx * K + threadIdx.x;
#pragma unroll
  for (int r = 0; r < K; r += R) tile[ty + r][threadIdx.x] = in[(size_t)(i + r) * n + j];
  __syncthreads();
  const int oi = bx * K + ty, oj = by * K + threadIdx.x;
#pragma unroll
  for (int r = 0; r < K; r += R) out[(size_t)(oi + r) * n + oj] = tile[threadIdx.x][ty + r];
}

typedef void (*Kern)(const float *, float *, int);
struct Variant { const char *name; Kern k; dim3 grid, block; std::vector<float> t; };

int main(int argc, char **argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 8192, rounds = argc > 2 ? atoi(argv[2]) : 20;
  const size_t bytes = (size_t)n * n * 4;
  float *a, *b;
  CK(cudaMalloc(&a, bytes));
  CK(cudaMalloc(&b, bytes));
  std::vector<float> h((size_t)n * n), o((size_t)n * n);
  for (size_t i = 0; i < h.size(); i++) h[i] = (float)(i % 65521);
  CK(cudaMemcpy(a, h.data(), bytes, cudaMemcpyHostToDevice));
  std::vector<Variant> vs = {
    {"16x16, 16x4 threads (oq's)", tr<16, 4, 1>, dim3(n / 16, n / 16), dim3(16, 4), {}},
    {"16x16, 16x4, 2x2 tile groups", tr<16, 4, 2>, dim3(n / 16, n / 16), dim3(16, 4), {}},
    {"16x16, 16x4, 4x4 tile groups", tr<16, 4, 4>, dim3(n / 16, n / 16), dim3(16, 4), {}},
    {"16x16, 16x4, 8x8 tile groups", tr<16, 4, 8>, dim3(n / 16, n / 16), dim3(16, 4), {}},
    {"16x16, 16x16 threads (seed 002)", tr<16, 16, 1>, dim3(n / 16, n / 16), dim3(16, 16), {}},
    {"16x16, 16x16, 2x2 tile groups", tr<16, 16, 2>, dim3(n / 16, n / 16), dim3(16, 16), {}},
    {"16x16 x2 stacked, 16x8 threads", tr_stack<16, 8, 2>, dim3(n / 16, n / 32), dim3(16, 8), {}},
    {"16x16 x2 stacked, 16x4 threads", tr_stack<16, 4, 2>, dim3(n / 16, n / 32), dim3(16, 4), {}},
    {"16x16 x2 virtual blocks, 16x8", tr_vblk<16, 4, 2>, dim3(n / 16, n / 32), dim3(16, 8), {}},
    {"16x16 x4 virtual blocks, 16x16", tr_vblk<16, 4, 4>, dim3(n / 16, n / 64), dim3(16, 16), {}},
    {"16x16 x2 virtual blocks, 16x4", tr_vblk<16, 2, 2>, dim3(n / 16, n / 32), dim3(16, 4), {}},
    {"16x16 x4 stacked, 16x8 threads", tr_stack<16, 8, 4>, dim3(n / 16, n / 64), dim3(16, 8), {}},
    {"16x16 x4 stacked, 16x16 threads", tr_stack<16, 16, 4>, dim3(n / 16, n / 64), dim3(16, 16), {}},
    {"16x16 x2 stacked, 16x16 threads", tr_stack<16, 16, 2>, dim3(n / 16, n / 32), dim3(16, 16), {}},
    {"32x32, 32x4 threads (oq's)", tr<32, 4, 1>, dim3(n / 32, n / 32), dim3(32, 4), {}},
    {"32x32, 32x8 threads", tr<32, 8, 1>, dim3(n / 32, n / 32), dim3(32, 8), {}},
    {"32x32, 32x8, 2x2 tile groups", tr<32, 8, 2>, dim3(n / 32, n / 32), dim3(32, 8), {}},
  };
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  std::vector<float> tcopy;
  auto timed = [&](auto f) { CK(cudaEventRecord(e0)); f(); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); return ms; };
  for (int r = 0; r < rounds; r++) {
    tcopy.push_back(timed([&] { CK(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice)); }));
    for (auto &v : vs) v.t.push_back(timed([&] { v.k<<<v.grid, v.block>>>(a, b, n); }));
  }
  for (auto &v : vs) {   // correctness of each (poisoned output first)
    CK(cudaMemset(b, 0xff, bytes));
    v.k<<<v.grid, v.block>>>(a, b, n);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(o.data(), b, bytes, cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) bad += o[(size_t)j * n + i] != h[(size_t)i * n + j];
    if (bad) printf("WRONG: %s: %zu elements\n", v.name, bad);
  }
  auto best = [](std::vector<float> t) { return *std::min_element(t.begin(), t.end()); };
  auto med = [](std::vector<float> t) { std::sort(t.begin(), t.end()); return t[t.size() / 2]; };
  const float c = best(tcopy);
  printf("%-36s %9s %9s %8s\n", "variant", "best ms", "median", "copy/v");
  printf("%-36s %9.4f %9.4f %8.3f\n", "cudaMemcpy DtoD", c, med(tcopy), 1.0);
  for (auto &v : vs) printf("%-36s %9.4f %9.4f %8.3f\n", v.name, best(v.t), med(v.t), c / best(v.t));
  return 0;
}
