// tools/hist_variants.cu: where a 256-bin float histogram loses time against a read-only pass,
// by hand-written variants of the kernel oq generates for hist_naive (emit_cuda.c, "privatize"
// and "vector-loads"), all in one process, interleaved round by round, CUDA events.
//   nvcc -O3 -arch=sm_90 -o /tmp/hv tools/hist_variants.cu && /tmp/hv
// Each variant: 2^LGR replicas of the 256 counters per block in shared memory (lane l updates
// replica l mod 2^LGR), U float4 per thread per step (DB: the next step's loads issued before
// this step's bodies), EPI 0 no merge (timing only), 1 merge into 8 copies of 64-bit counters,
// 2 that and the last block's pass. Prints per image and variant the best and median time and
// the throughput as a fraction of the read pass's best; checks every counted histogram against
// a host loop.
#include <cub/cub.cuh>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)

__global__ void fill(float *im, long long n, int kind) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    float v;
    if (kind == 0) v = floorf(128 + 100 * sinf(i * 1e-6f) * cosf((i % 3) + i * 3e-5f));
    else if (kind == 1) v = (float)((unsigned)(i * 2654435761u) >> 24);
    else v = 77;
    im[i] = v;
  }
}

#include "readpass.cuh"

// one element, as oq writes it: the bin's validity as a float range test, no branch
template <int LGR> __device__ __forceinline__ void count(unsigned *sh, unsigned ln, float v) {
  const bool ok = v > -1 && v < 256.f;
  atomicAdd(sh + (((ok ? (unsigned)(int)v : 0u) << LGR) + ln), (unsigned)ok);
}

template <int LGR> __device__ __forceinline__ void count4(unsigned *sh, unsigned ln, float4 q) {
  count<LGR>(sh, ln, q.x); count<LGR>(sh, ln, q.y); count<LGR>(sh, ln, q.z); count<LGR>(sh, ln, q.w);
}

// The grid-stride loop of oq's tiled kernels over the float4 of im: U per thread per step
// (DB: the next step's loads issued before this step's work), then single float4, then the
// last n mod 4 floats; f(float4) and g(float) do the work.
template <int U, int DB, class F, class G>
__device__ __forceinline__ void stream(const float *im, long long n, F f, G g) {
  const float4 *x4 = (const float4 *)im;
  const long long n4 = n / 4, st = (long long)gridDim.x * blockDim.x;
  const long long full = n4 / (U * st) * (U * st);
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (DB) {
    float4 q[U];
    if (i < full) for (int u = 0; u < U; u++) q[u] = x4[i + u * st];
    for (; i < full; i += U * st) {
      float4 c[U];
      for (int u = 0; u < U; u++) c[u] = q[u];
      if (i + U * st < full) for (int u = 0; u < U; u++) q[u] = x4[i + U * st + u * st];
      for (int u = 0; u < U; u++) f(c[u]);
    }
  } else {
    for (; i < full; i += U * st) {
      float4 c[U];
      for (int u = 0; u < U; u++) c[u] = x4[i + u * st];
      for (int u = 0; u < U; u++) f(c[u]);
    }
  }
  for (; i < n4; i += st) f(x4[i]);
  for (long long e = 4 * n4 + blockIdx.x * (long long)blockDim.x + threadIdx.x; e < n; e += st) g(im[e]);
}

template <int LGR, int U, int DB, int EPI>
__global__ void hv(const float *im, long long n, unsigned long long *gc, unsigned long long *y) {
  extern __shared__ unsigned sh[];
  const unsigned ln = threadIdx.x & ((1u << LGR) - 1);
  for (int i = threadIdx.x; i < (256 << LGR); i += blockDim.x) sh[i] = 0;
  __syncthreads();
  stream<U, DB>(im, n, [&](float4 q) { count4<LGR>(sh, ln, q); }, [&](float v) { count<LGR>(sh, ln, v); });
  if (EPI == 0) return;
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) {
    unsigned long long s = 0;
    for (unsigned j = 0; j < (1u << LGR); j++) s += sh[(b << LGR) + ((j + b) & ((1u << LGR) - 1))];
    if (s) atomicAdd(gc + 1 + (blockIdx.x & 7) * 256 + b, s);
  }
  if (EPI == 1) return;
  __shared__ int last;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) last = atomicAdd(gc, 1ull) == gridDim.x - 1;
  __syncthreads();
  if (!last) return;
  __threadfence();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) {
    unsigned long long k = 0;
    for (int c = 0; c < 8; c++) { k += ((volatile unsigned long long *)gc)[1 + c * 256 + b]; gc[1 + c * 256 + b] = 0; }
    y[b] += k;
  }
  if (threadIdx.x == 0) *gc = 0;
}

// the same loads and loop, no histogram: what the load structure alone reaches
template <int U, int DB>
__global__ void ro(const float *im, long long n, unsigned long long *gc, unsigned long long *y) {
  float s = 0;
  stream<U, DB>(im, n, [&](float4 q) { s += q.x + q.y + q.z + q.w; }, [&](float v) { s += v; });
  if (s == 1234567.f) y[0] = (unsigned long long)s;
}

// seed 000's hist_shared as oq runs it (persistent blocks, emit_cuda's coarse loop): blocks of
// 2 x 64 x 3 threads on an H x W x 3 image, 4 consecutive elements per GPU thread (96 per
// block), 8 blocks' loads per step, counts in y_sh[256, 4] (column: the element's place in its
// float4), swizzled as oq stores it. RUNS: resident block b takes a contiguous run of the
// blocks (as oq does); else blocks b, b + G, b + 2G... (the grid sweeps the image together).
// W3 = 3 W must be a multiple of 192 and H of 2.
// R > 1: R hidden copies of y_sh (lane l adds into copy l mod R, copy r at 1025 r: another
// bank), summed at the end: what more copies than the program's 4 columns would give.
// DB: the next step's 8 loads issued before this step's counts (as oq's tiled loop does).
// EPI: 0 each bin's count added to y (64-bit integer atomics); 1 no merge (timing only);
// 2 oq's merge: double atomics into 8 copies of double shadows (gc + 1, copy blockIdx mod 8),
// then the last block adds their sums to a float histogram (y read as float) and zeroes them.
// V: groups of 96 threads per GPU block, each taking its own launch blocks (grid-stride: block
// V b + g, then a grid of V blocks further) and all adding into the one y_sh, so that a GPU
// block merges V times as many counts at once (V = 1: the program's shape).
template <int RUNS, int R = 1, int DB = 0, int EPI = 0, int V = 1>
__global__ void coarse(const float *im, long long n, unsigned long long *gc, unsigned long long *y) {
  __shared__ unsigned shr[R * 1025];
  unsigned *sh = shr + (threadIdx.x & (R - 1)) * 1025;
  for (int i = threadIdx.x; i < R * 1025; i += blockDim.x) shr[i] = 0;
  __syncthreads();
  const long long W3 = 8192 * 3, c1 = W3 / 192, nvb = n / W3 / 2 * c1;
  const long long G = gridDim.x, per = (nvb + G - 1) / G;
  long long vb = RUNS ? blockIdx.x * per : blockIdx.x * V + threadIdx.x / 96;
  const long long end = RUNS ? (vb + per < nvb ? vb + per : nvb) : nvb, step = RUNS ? 1 : G * V;
  const int t = threadIdx.x % 96, r = t / 48, c = (t % 48) * 4;
  auto load = [&](long long b) { return __ldg((const float4 *)(im + (2 * (b / c1) + r) * W3 + (b % c1) * 192 + c)); };
  auto count4 = [&](float4 q) {
    float e[4] = {q.x, q.y, q.z, q.w};
    for (int j = 0; j < 4; j++) {
      unsigned o = (unsigned)__float2int_rz(e[j]) * 4 + j;
      if (e[j] > -1 && e[j] < 256) atomicAdd(&sh[o ^ ((o >> 5) & 31)], 1u);
    }
  };
  float4 q[8];
  if (DB && vb + 7 * step < end) for (int u = 0; u < 8; u++) q[u] = load(vb + u * step);
  for (; vb + 7 * step < end; vb += 8 * step) {
    float4 cur[8];
    for (int u = 0; u < 8; u++) cur[u] = DB ? q[u] : load(vb + u * step);
    if (DB && vb + 15 * step < end) for (int u = 0; u < 8; u++) q[u] = load(vb + (8 + u) * step);
    for (int u = 0; u < 8; u++) count4(cur[u]);
  }
  for (; vb < end; vb += step) count4(load(vb));
  if (EPI == 1) return;
  __syncthreads();
  double *shd = (double *)(gc + 1);
  for (int b = threadIdx.x; b < 256; b += blockDim.x) {
    unsigned long long s = 0;
    for (int j = 0; j < 4; j++) {
      unsigned o = b * 4 + j;
      for (int c = 0; c < R; c++) s += shr[c * 1025 + (o ^ ((o >> 5) & 31))];
    }
    if (EPI == 0 && s) atomicAdd(y + b, s);
    if (EPI >= 2 && EPI <= 7 && s) atomicAdd(shd + (blockIdx.x & 7) * 256 + b, (double)s);
    if (EPI == 11 && s) atomicAdd(shd + b, (double)s);
    const unsigned long long one = 1ull << 40, low = one - 1;
    float *yf = (float *)y;
    if (EPI == 8) {   // packed: contributors in bits 40-63, the count below; the last one writes y
      unsigned long long *pk = gc + 2400, old = atomicAdd(pk + b, one + s);
      if ((old >> 40) == gridDim.x - 1) { pk[b] = 0; yf[b] = (float)((double)yf[b] + (double)((old & low) + s)); }
    }
    if (EPI == 9) {   // packed in 8 copies (blockIdx mod 8), each copy's last contributor adds it to one more
      const unsigned c = blockIdx.x & 7, members = (gridDim.x - c + 7) / 8;
      unsigned long long *l1 = gc + 3000 + c * 256, *l2 = gc + 2700, old = atomicAdd(l1 + b, one + s);
      if ((old >> 40) == members - 1) {
        const unsigned long long tot = (old & low) + s;
        l1[b] = 0;
        const unsigned long long old2 = atomicAdd(l2 + b, one + tot);
        if ((old2 >> 40) == 7) { l2[b] = 0; yf[b] = (float)((double)yf[b] + (double)((old2 & low) + tot)); }
      }
    }
  }
  if (EPI == 6 || EPI >= 8) return;
  __shared__ int last;
  if (EPI == 3 || EPI == 7) {   // release by thread 0 after the barrier (cumulative), no full fence
    __syncthreads();
    if (threadIdx.x == 0) {
      unsigned long long old;
      asm volatile("atom.add.acq_rel.gpu.u64 %0, [%1], 1;" : "=l"(old) : "l"(gc) : "memory");
      last = old == gridDim.x - 1;
    }
  } else if (EPI == 4) {   // 8 group counters (gc + 1 + 2048 + 32 g), then one
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) {
      const unsigned g = blockIdx.x & 7, members = (gridDim.x - g + 7) / 8;
      last = 0;
      if (atomicAdd(gc + 2049 + 32 * g, 1ull) == members - 1) {
        gc[2049 + 32 * g] = 0;
        last = atomicAdd(gc, 1ull) == 7;
      }
    }
  } else {
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) last = atomicAdd(gc, 1ull) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  if (EPI == 3 || EPI == 7) asm volatile("fence.acq_rel.gpu;" ::: "memory");
  else __threadfence();
  if (EPI != 5 && EPI != 7) for (int b = threadIdx.x; b < 256; b += blockDim.x) {
    double k = 0;
    for (int c = 0; c < 8; c++) { k += __ldcg(shd + c * 256 + b); shd[c * 256 + b] = 0; }
    float *yf = (float *)y;
    if (k != 0) yf[b] = (float)((double)yf[b] + k);
  }
  if (threadIdx.x == 0) *gc = 0;
}

typedef void (*Kern)(const float *, long long, unsigned long long *, unsigned long long *);
struct Variant { const char *name; Kern k; int lgr, bs, counts; int grid; std::vector<float> t; };

static int sms;

static void add(std::vector<Variant> &v, const char *name, Kern k, int lgr, int bs, int counts) {
  Variant x{name, k, lgr, bs, counts, 0, {}};
  v.push_back(x);
}

static float timed(cudaEvent_t a, cudaEvent_t b) {
  float ms;
  CK(cudaEventSynchronize(b));
  CK(cudaEventElapsedTime(&ms, a, b));
  return ms;
}

static void run_image(long long h, long long w, int kind, int reps, std::vector<Variant> &vs) {
  const long long n = h * w * 3;
  float *im; unsigned long long *gc, *y; int *cy; float *dummy;
  CK(cudaMalloc(&im, n * 4)); CK(cudaMalloc(&gc, 6000 * 8)); CK(cudaMalloc(&y, 256 * 8));
  CK(cudaMalloc(&cy, 257 * 4)); CK(cudaMalloc(&dummy, 4));
  CK(cudaMemset(gc, 0, 6000 * 8));
  fill<<<sms * 8, 256>>>(im, n, kind);
  CK(cudaDeviceSynchronize());
  std::vector<float> host(n);
  CK(cudaMemcpy(host.data(), im, n * 4, cudaMemcpyDeviceToHost));
  std::vector<unsigned long long> ref(256, 0);
  for (long long i = 0; i < n; i++) if (host[i] > -1 && host[i] < 256) ref[(int)host[i]]++;
  size_t tb = 0;
  cub::DeviceHistogram::HistogramEven(nullptr, tb, im, cy, 257, 0.f, 256.f, (int)n);
  void *tmp; CK(cudaMalloc(&tmp, tb));
  cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  std::vector<float> tread, tcub;
  for (auto &v : vs) {
    int nb = 0;
    CK(cudaFuncSetAttribute(v.k, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 << 10));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, v.k, v.bs, v.counts && v.lgr > 0 ? (256 << v.lgr) * 4 : 0));
    v.grid = nb * sms;
    v.t.clear();
  }
  for (int r = 0; r < reps; r++) {
    CK(cudaEventRecord(a)); readpass<<<sms * 8, 256>>>((const float4 *)im, n / 4, dummy); CK(cudaEventRecord(b));
    tread.push_back(timed(a, b));
    CK(cudaEventRecord(a)); cub::DeviceHistogram::HistogramEven(tmp, tb, im, cy, 257, 0.f, 256.f, (int)n); CK(cudaEventRecord(b));
    tcub.push_back(timed(a, b));
    for (auto &v : vs) {
      CK(cudaMemset(y, 0, 256 * 8));
      CK(cudaEventRecord(a));
      v.k<<<v.grid, v.bs, v.counts && v.lgr > 0 ? (256 << v.lgr) * 4 : 0>>>(im, n, gc, y);
      CK(cudaEventRecord(b));
      v.t.push_back(timed(a, b));
      CK(cudaGetLastError());
      if (v.counts == 2 && r == 0) {
        std::vector<unsigned long long> got(256);
        CK(cudaMemcpy(got.data(), y, 256 * 8, cudaMemcpyDeviceToHost));
        for (int k = 0; k < 256; k++)
          if (got[k] != ref[k]) { printf("WRONG %s bin %d: %llu, expected %llu\n", v.name, k, got[k], ref[k]); break; }
      }
      if (v.counts == 3 && r == 0) {
        std::vector<float> got(256);
        CK(cudaMemcpy(got.data(), y, 256 * 4, cudaMemcpyDeviceToHost));
        for (int k = 0; k < 256; k++)
          if (got[k] != (float)ref[k]) { printf("WRONG %s bin %d: %.0f, expected %llu\n", v.name, k, got[k], ref[k]); break; }
      }
      if (v.counts == 1) CK(cudaMemset(gc, 0, 6000 * 8));
    }
  }
  std::sort(tread.begin(), tread.end()); std::sort(tcub.begin(), tcub.end());
  printf("\n%lldx%lldx3 kind %d: read %.4f ms (median %.4f), cub %.4f ms: %.3f of read\n", w, h, kind, tread[0], tread[reps / 2], tcub[0], tread[0] / tcub[0]);
  for (auto &v : vs) {
    std::sort(v.t.begin(), v.t.end());
    printf("  %-28s grid %5d x %4d  best %.4f  median %.4f  read/this %.3f  cub/this %.3f\n", v.name, v.grid, v.bs, v.t[0], v.t[reps / 2], tread[0] / v.t[0], tcub[0] / v.t[0]);
  }
  CK(cudaFree(im)); CK(cudaFree(gc)); CK(cudaFree(y)); CK(cudaFree(cy)); CK(cudaFree(dummy)); CK(cudaFree(tmp));
}

int main() {
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  std::vector<Variant> vs;
  add(vs, "ro U4 DB (oq's loads)", ro<4, 1>, 0, 256, 0);
  add(vs, "ro U1", ro<1, 0>, 0, 256, 0);
  add(vs, "ro U4", ro<4, 0>, 0, 256, 0);
  add(vs, "ro U4 DB bs512", ro<4, 1>, 0, 512, 0);
  add(vs, "R32 U4 DB epi2 (oq)", hv<5, 4, 1, 2>, 5, 256, 2);
  add(vs, "R32 U4 DB epi0", hv<5, 4, 1, 0>, 5, 256, 1);
  add(vs, "R32 U4 DB epi1", hv<5, 4, 1, 1>, 5, 256, 1);
  add(vs, "R32 U4 DB epi2 bs512", hv<5, 4, 1, 2>, 5, 512, 2);
  add(vs, "R32 U4 DB epi2 bs1024", hv<5, 4, 1, 2>, 5, 1024, 2);
  add(vs, "R32 U2 DB epi2", hv<5, 2, 1, 2>, 5, 256, 2);
  add(vs, "R32 U4 epi2", hv<5, 4, 0, 2>, 5, 256, 2);
  add(vs, "R32 U8 epi2", hv<5, 8, 0, 2>, 5, 256, 2);
  add(vs, "R16 U4 DB epi2", hv<4, 4, 1, 2>, 4, 256, 2);
  add(vs, "R8 U4 DB epi2", hv<3, 4, 1, 2>, 3, 256, 2);
  add(vs, "R16 U4 DB epi2 bs512", hv<4, 4, 1, 2>, 4, 512, 2);
  add(vs, "coarse runs (oq's order)", coarse<1>, 0, 96, 2);
  add(vs, "coarse grid-stride", coarse<0>, 0, 96, 2);
  add(vs, "coarse runs, 2 hidden copies", coarse<1, 2>, 0, 96, 2);
  add(vs, "coarse runs, 4 hidden copies", coarse<1, 4>, 0, 96, 2);
  add(vs, "coarse runs, loads a step ahead", coarse<1, 1, 1>, 0, 96, 2);
  add(vs, "coarse grid-stride, loads ahead", coarse<0, 1, 1>, 0, 96, 2);
  add(vs, "coarse gs ahead, no merge", coarse<0, 1, 1, 1>, 0, 96, 1);
  add(vs, "coarse gs ahead, oq's merge", coarse<0, 1, 1, 2>, 0, 96, 3);
  add(vs, "gs merge, release counter", coarse<0, 1, 1, 3>, 0, 96, 3);
  add(vs, "gs merge, 8 group counters", coarse<0, 1, 1, 4>, 0, 96, 3);
  add(vs, "gs merge, counter, no pass", coarse<0, 1, 1, 5>, 0, 96, 1);
  add(vs, "gs merge, shadows only", coarse<0, 1, 1, 6>, 0, 96, 1);
  add(vs, "gs merge, release, no pass", coarse<0, 1, 1, 7>, 0, 96, 1);
  add(vs, "gs packed, 1 copy", coarse<0, 1, 1, 8>, 0, 96, 3);
  add(vs, "gs packed, 8 copies", coarse<0, 1, 1, 9>, 0, 96, 3);
  add(vs, "gs double REDs, 1 copy", coarse<0, 1, 1, 11>, 0, 96, 1);
  add(vs, "gs oq's merge, V=2 (192)", coarse<0, 1, 1, 2, 2>, 0, 192, 3);
  add(vs, "gs oq's merge, V=4 (384)", coarse<0, 1, 1, 2, 4>, 0, 384, 3);
  add(vs, "gs oq's merge, V=8 (768)", coarse<0, 1, 1, 2, 8>, 0, 768, 3);
  add(vs, "gs no merge, V=4 (384)", coarse<0, 1, 1, 1, 4>, 0, 384, 1);
  add(vs, "gs packed 1 copy, V=4 (384)", coarse<0, 1, 1, 8, 4>, 0, 384, 3);
  add(vs, "gs shadows only, V=4 (384)", coarse<0, 1, 1, 6, 4>, 0, 384, 1);
  add(vs, "gs counter no pass, V=4 (384)", coarse<0, 1, 1, 5, 4>, 0, 384, 1);
  for (int kind = 0; kind < 3; kind++) run_image(8192, 8192, kind, 15, vs);
  if (getenv("HV_1080")) for (int kind = 0; kind < 3; kind++) run_image(1080, 1920, kind, 30, vs);
  return 0;
}
