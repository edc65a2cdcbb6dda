// bench/xform/ref.cu: the references of bench/xform/run.sh, in one process: a read-only pass
// over an image (float4 loads, grid-stride), CUB DeviceHistogram::HistogramEven (256 bins of
// width 1 over [0, 256)) on the same three image kinds as gpu.q, CUB DeviceReduce::Sum of
// 2^26 and 2^28 floats, and a hand-written shared-memory histogram (replicated per warp) for
// the per-call time at 512x512x3. Prints "LABEL: T ms" per repetition (CUDA events).
#include <cub/cub.cuh>
#include <cstdio>
#include <cstdlib>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)

__global__ void fill(float *im, int h, int w, int kind) {
  long long n = (long long)h * w * 3;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    int k = i % 3, nn = (i / 3) % w, m = i / 3 / w;
    float v;
    if (kind == 0) {
      v = 128 + 100 * sinf(m * 0.0011f + k) * cosf(nn * 0.0007f) + 20 * sinf(m * 0.05f + nn * 0.03f);
      v = floorf(fmaxf(0.f, fminf(255.f, v)));
    } else if (kind == 1) {
      long long x = i % 65521;
      long long q = (long long)((float)i / 65521.0f) % 65521;
      v = (float)(((x * 32749 + q * 7) % 65521) % 256);
    } else v = 77;
    im[i] = v;
  }
}

__global__ void readpass(const float4 *x, long long n4, float *out) {
  float s = 0;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n4; i += (long long)gridDim.x * blockDim.x) {
    float4 v = x[i];
    s += v.x + v.y + v.z + v.w;
  }
  if (s == 1234567.f) *out = s;   // never true: keeps the loads
}

__global__ void hist_hand(const float *im, long long n, unsigned *y) {
  __shared__ unsigned h[256 * 8];
  for (int i = threadIdx.x; i < 256 * 8; i += blockDim.x) h[i] = 0;
  __syncthreads();
  unsigned w = (threadIdx.x >> 5) & 7;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    int v = (int)im[i];
    if ((unsigned)v < 256) atomicAdd(&h[v * 8 + w], 1u);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += blockDim.x) {
    unsigned s = 0;
    for (int j = 0; j < 8; j++) s += h[i * 8 + j];
    if (s) atomicAdd(&y[i], s);
  }
}

static cudaEvent_t e0, e1;
static void start() { CK(cudaEventRecord(e0)); }
static void stop(const char *label) {
  CK(cudaEventRecord(e1));
  CK(cudaEventSynchronize(e1));
  float ms;
  CK(cudaEventElapsedTime(&ms, e0, e1));
  printf("%s: %.4f ms\n", label, ms);
}

static int sms;

static void hists(int h, int w, int kind, int reps) {
  long long n = (long long)h * w * 3;
  float *im;
  int *hist;
  float *dummy;
  CK(cudaMalloc(&im, n * 4));
  CK(cudaMalloc(&hist, 256 * 4));
  CK(cudaMalloc(&dummy, 4));
  fill<<<sms * 8, 256>>>(im, h, w, kind);
  CK(cudaDeviceSynchronize());
  size_t tb = 0;
  cub::DeviceHistogram::HistogramEven(nullptr, tb, im, hist, 257, 0.f, 256.f, (int)n);
  void *tmp;
  CK(cudaMalloc(&tmp, tb));
  char label[128];
  for (int r = 0; r < reps; r++) {
    start();
    readpass<<<sms * 8, 256>>>((const float4 *)im, n / 4, dummy);
    snprintf(label, sizeof label, "readpass %dx%dx3 kind %d", w, h, kind);
    stop(label);
  }
  for (int r = 0; r < reps; r++) {
    start();
    cub::DeviceHistogram::HistogramEven(tmp, tb, im, hist, 257, 0.f, 256.f, (int)n);
    snprintf(label, sizeof label, "cub_hist %dx%dx3 kind %d", w, h, kind);
    stop(label);
  }
  for (int r = 0; r < reps; r++) {
    start();
    CK(cudaMemset(hist, 0, 256 * 4));
    hist_hand<<<sms * 4, 256>>>(im, n, (unsigned *)hist);
    snprintf(label, sizeof label, "hand_hist %dx%dx3 kind %d", w, h, kind);
    stop(label);
  }
  int hh[256];
  CK(cudaMemcpy(hh, hist, sizeof hh, cudaMemcpyDeviceToHost));
  long long s = 0;
  for (int b = 0; b < 256; b++) s += hh[b];
  printf("checksum %dx%dx3 kind %d %lld %d\n", w, h, kind, s, hh[77]);
  CK(cudaFree(im)); CK(cudaFree(hist)); CK(cudaFree(tmp)); CK(cudaFree(dummy));
}

__global__ void fillv(float *x, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) x[i] = (i % 8) * 0.125f;
}

static void sums(long long n, int reps, const char *label) {
  float *x, *out;
  CK(cudaMalloc(&x, n * 4));
  CK(cudaMalloc(&out, 4));
  fillv<<<sms * 8, 256>>>(x, n);
  size_t tb = 0;
  cub::DeviceReduce::Sum(nullptr, tb, x, out, (int)n);
  void *tmp;
  CK(cudaMalloc(&tmp, tb));
  for (int r = 0; r < reps; r++) {
    start();
    cub::DeviceReduce::Sum(tmp, tb, x, out, (int)n);
    stop(label);
  }
  float s;
  CK(cudaMemcpy(&s, out, 4, cudaMemcpyDeviceToHost));
  printf("checksum %s %g\n", label, s);
  CK(cudaFree(x)); CK(cudaFree(out)); CK(cudaFree(tmp));
}

int main() {
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  for (int k = 0; k < 3; k++) hists(1080, 1920, k, 20);
  for (int k = 0; k < 3; k++) hists(8192, 8192, k, 10);
  hists(512, 512, 0, 100);
  sums(1LL << 26, 20, "cub_sum 2^26");
  sums(1LL << 28, 10, "cub_sum 2^28");
  return 0;
}
