// bench/gpu/bench.cu: `make bench-gpu`. oq's kernels against CUB and hand-written CUDA, in
// one process on one device: the Quasar programs of cases.q run through the interpreter API
// (oqrun.c, linked with build/liboq.a) on --target cuda; their kernels are timed by the
// launcher's CUDA events (the fastest launch of each; a kernel whose first launch takes
// more than a second is launched once); the peers are timed with CUDA events here, fastest
// of REPS. The histograms are seed 000's three methods as the seed writes them (hist_naive
// and hist_auto are host loops), in rounds alternating with their peers. Prints per case the
// oq time, the peer's time, their ratio and the target. Data: the same formula on both sides for the gradient and constant images; for
// "uniform" oq uses rand() on the host and the peers a hash on the device (the same
// distribution, not the same values). Every oq program checks its own results (assert).
#include <cub/cub.cuh>
#include <cstdio>
#include <cstdlib>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
int oqb_run(const char *src, char *out, size_t n, int profile);
double oqb_value(const char *out, const char *label);
double oqb_kernel_best_ms(const char *name, long *launches);
void oqb_reset(void);
}

#define REPS 10
#define CK(x) ck((x), #x, __LINE__)
static void ck(cudaError_t e, const char *what, int line) {
  if (e == cudaSuccess) return;
  fprintf(stderr, "bench.cu:%d: %s: %s\n", line, what, cudaGetErrorString(e));
  exit(1);
}

static std::string cases;   // cases.q
static int failures;

// ---- the oq side ----

static std::vector<char> out_buf(1 << 20);

// Runs cases.q with `call` appended; false (and a FAIL line) when the program failed.
static bool oq(const char *call, bool profile = true) {
  std::string src = cases + "\n" + call + "\n";
  oqb_reset();
  int status = oqb_run(src.c_str(), out_buf.data(), out_buf.size(), profile);
  if (status != 0) {
    printf("FAIL oq %s: status %d\n%s\n", call, status, out_buf.data());
    failures++;
    return false;
  }
  return true;
}

static double oq_kernel(const char *name) {
  long n = 0;
  double ms = oqb_kernel_best_ms(name, &n);
  if (ms < 0) {
    printf("FAIL no GPU launches of kernel %s (did it fall back to the CPU?)\n", name);
    failures++;
  }
  return ms;
}

// ---- timing the peers ----

template <class F> static double best_ms(F f) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  f();   // warm-up
  double best = 1e30;
  for (int r = 0; r < REPS; r++) {
    CK(cudaEventRecord(a));
    f();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    if (ms < best) best = ms;
  }
  CK(cudaGetLastError());
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return best;
}

// One line: case, oq ms, peer, peer ms, peer/oq (throughput relative to the peer), target.
static void row(const char *what, double oq_ms, const char *peer, double peer_ms, const char *target) {
  if (oq_ms <= 0 || peer_ms <= 0) {
    printf("%-34s %10s  %-22s %10.4f %8s  %s\n", what, "-", peer, peer_ms, "-", target);
    return;
  }
  printf("%-34s %10.4f  %-22s %10.4f %7.1f%%  %s\n", what, oq_ms, peer, peer_ms, 100 * peer_ms / oq_ms, target);
  fflush(stdout);
}

// ---- peer kernels ----

__global__ void fill_image(float *im, long long n, int w, int dist) {
  for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < n; k += (long long)gridDim.x * blockDim.x) {
    long long i = k / (3LL * w), j = (k / 3) % w, c = k % 3;
    unsigned hsh = (unsigned)k * 2654435761u;
    hsh ^= hsh >> 15;
    hsh *= 2246822519u;
    hsh ^= hsh >> 13;
    im[k] = dist == 0 ? (float)((i * 7 + j * 3 + c * 101 + j / 17) % 256) : dist == 1 ? (float)(hsh >> 24) : 128.f;
  }
}

// A read-only pass over the image: the bandwidth floor of any histogram of it.
__global__ void read_pass(const float4 *x, long long n4, float *sink) {
  float s = 0;
  for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < n4; k += (long long)gridDim.x * blockDim.x) {
    float4 v = x[k];
    s += v.x + v.y + v.z + v.w;
  }
  if (s == -1.f) *sink = s;   // never: keeps the loads
}

// Seed 002's tiled transpose through shared memory, K x K threads per K x K tile.
template <int K> __global__ void transpose_shared(const float *in, float *out, int n) {
  __shared__ float tile[K][K + 1];
  int i = blockIdx.y * K + threadIdx.y, j = blockIdx.x * K + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = in[(size_t)i * n + j];
  __syncthreads();
  int oi = blockIdx.x * K + threadIdx.y, oj = blockIdx.y * K + threadIdx.x;
  out[(size_t)oi * n + oj] = tile[threadIdx.x][threadIdx.y];
}

// The same, K x R threads per K x K tile, each thread K / R rows (NVIDIA's coalesced
// transpose): what giving each thread several elements gains by hand.
template <int K, int R> __global__ void transpose_rows(const float *in, float *out, int n) {
  __shared__ float tile[K][K + 1];
  int i = blockIdx.y * K + threadIdx.y, j = blockIdx.x * K + threadIdx.x;
  for (int r = 0; r < K; r += R) tile[threadIdx.y + r][threadIdx.x] = in[(size_t)(i + r) * n + j];
  __syncthreads();
  int oi = blockIdx.x * K + threadIdx.y, oj = blockIdx.y * K + threadIdx.x;
  for (int r = 0; r < K; r += R) out[(size_t)(oi + r) * n + oj] = tile[threadIdx.x][threadIdx.y + r];
}

// The same in dynamic shared memory with oq's bounds tests on every access (rows m, columns
// n): what oq's generated kernel does beyond the hand-written one.
template <int K, int R> __global__ void transpose_rows_checked(const float *in, float *out, int m, int n) {
  extern __shared__ float dtile[];   // K x (K + 1)
  int i = blockIdx.y * K + threadIdx.y, j = blockIdx.x * K + threadIdx.x;
  for (int r = 0; r < K; r += R) dtile[(threadIdx.y + r) * (K + 1) + threadIdx.x] = (unsigned)(i + r) < (unsigned)m && (unsigned)j < (unsigned)n ? in[(i + r) * n + j] : 0.f;
  __syncthreads();
  int oi = blockIdx.x * K + threadIdx.y, oj = blockIdx.y * K + threadIdx.x;
  for (int r = 0; r < K; r += R)
    if ((unsigned)(oi + r) < (unsigned)n && (unsigned)oj < (unsigned)m) out[(oi + r) * m + oj] = dtile[threadIdx.x * (K + 1) + threadIdx.y + r];
}

__global__ void empty_kernel(float *x) {
  if (threadIdx.x == 1000) x[0] = 1;
}

// ---- cases ----

// Seed 000's three methods (cases.q's run_hist; which: 1 hist_naive, 2 hist_shared, 4
// hist_auto) on one image, in ROUNDS rounds (env BENCH_GPU_ROUNDS, default 3): each round
// runs oq's methods, then CUB and the read pass, so that all of them see the same state of
// the device. Rows give the fastest time over all rounds and, in the last column, the ratio
// of each round (its fastest against the peer's fastest of that round).
static void hist_case(int h, int w, int dist, const char *dname, int which) {
  static const struct { int bit; const char *name, *kernel; } methods[] = {
    {1, "hist_naive", "parloop:hist_naive"}, {4, "hist_auto", "parloop:hist_auto"}, {2, "hist_shared", "k_hist_shared"}};
  const char *env = getenv("BENCH_GPU_ROUNDS");
  int rounds = env && atoi(env) > 0 ? atoi(env) : 3;
  char call[200];
  snprintf(call, sizeof call, "run_hist(%d, %d, %d, %d, %d)", h, w, dist, which, REPS);
  long long n = 3LL * h * w;
  float *im, *sink;
  int *hist;
  CK(cudaMalloc(&im, n * sizeof(float)));
  CK(cudaMalloc(&hist, 256 * sizeof(int)));
  CK(cudaMalloc(&sink, sizeof(float)));
  fill_image<<<1024, 256>>>(im, n, w, dist);
  CK(cudaDeviceSynchronize());
  size_t temp_bytes = 0;
  void *temp = nullptr;
  CK(cub::DeviceHistogram::HistogramEven(temp, temp_bytes, im, hist, 257, 0.f, 256.f, (int)n));
  CK(cudaMalloc(&temp, temp_bytes));
  int sms;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  double best[3] = {1e30, 1e30, 1e30}, cub_best = 1e30, read_best = 1e30;
  std::string vs_cub[3], vs_read[3];
  for (int r = 0; r < rounds; r++) {
    if (!oq(call)) break;
    double t[3];
    for (int k = 0; k < 3; k++) t[k] = which & methods[k].bit ? oq_kernel(methods[k].kernel) : -1;
    double cub_ms = best_ms([&] { cub::DeviceHistogram::HistogramEven(temp, temp_bytes, im, hist, 257, 0.f, 256.f, (int)n); });
    double read_ms = best_ms([&] { read_pass<<<sms * 8, 256>>>((const float4 *)im, n / 4, sink); });
    cub_best = cub_ms < cub_best ? cub_ms : cub_best;
    read_best = read_ms < read_best ? read_ms : read_best;
    for (int k = 0; k < 3; k++) {
      if (t[k] <= 0) continue;
      char b[32];
      best[k] = t[k] < best[k] ? t[k] : best[k];
      snprintf(b, sizeof b, " %.1f", 100 * cub_ms / t[k]);
      vs_cub[k] += b;
      snprintf(b, sizeof b, " %.1f", 100 * read_ms / t[k]);
      vs_read[k] += b;
    }
  }
  for (int k = 0; k < 3; k++) {
    if (!(which & methods[k].bit) || best[k] >= 1e30) continue;
    char what[120], target[160];
    const bool big = h == 8192;
    snprintf(what, sizeof what, "%s %dx%dx3 %s", methods[k].name, w, h, dname);
    snprintf(target, sizeof target, "%s (rounds:%s)", big && k == 2 ? ">= 100%" : big ? "-" : "within 1.2x", vs_cub[k].c_str());
    row(what, best[k], "CUB HistogramEven", cub_best, target);
    snprintf(target, sizeof target, "%s (rounds:%s)", big ? ">= 97%" : "-", vs_read[k].c_str());
    row("", best[k], "read-only pass", read_best, target);
  }
  cudaFree(temp);
  cudaFree(im);
  cudaFree(hist);
  cudaFree(sink);
}

static void sum_case(long long n) {
  char call[200];
  snprintf(call, sizeof call, "run_sum(%lld, %d)", n, REPS);
  if (!oq(call)) return;
  double oq_ms = oq_kernel("k_sum");
  float *x, *s;
  CK(cudaMalloc(&x, n * sizeof(float)));
  CK(cudaMalloc(&s, sizeof(float)));
  CK(cudaMemset(x, 0, n * sizeof(float)));
  size_t temp_bytes = 0;
  void *temp = nullptr;
  CK(cub::DeviceReduce::Sum(temp, temp_bytes, x, s, n));
  CK(cudaMalloc(&temp, temp_bytes));
  double cub_ms = best_ms([&] { cub::DeviceReduce::Sum(temp, temp_bytes, x, s, n); });
  row("sum of 2^28 floats (y += x[pos])", oq_ms, "CUB DeviceReduce::Sum", cub_ms, ">= 95%");
  cudaFree(temp);
  cudaFree(x);
  cudaFree(s);
}

static void transpose_case(int n) {
  float *a, *b;
  size_t bytes = (size_t)n * n * sizeof(float);
  CK(cudaMalloc(&a, bytes));
  CK(cudaMalloc(&b, bytes));
  CK(cudaMemset(a, 0, bytes));
  double copy_ms = best_ms([&] { cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice); });
  double hand16 = best_ms([&] { transpose_shared<16><<<dim3(n / 16, n / 16), dim3(16, 16)>>>(a, b, n); });
  double hand32 = best_ms([&] { transpose_shared<32><<<dim3(n / 32, n / 32), dim3(32, 32)>>>(a, b, n); });
  double rows32 = best_ms([&] { transpose_rows<32, 8><<<dim3(n / 32, n / 32), dim3(32, 8)>>>(a, b, n); });
  double rows16 = best_ms([&] { transpose_rows<16, 8><<<dim3(n / 16, n / 16), dim3(16, 8)>>>(a, b, n); });
  double checked32 = best_ms([&] { transpose_rows_checked<32, 4><<<dim3(n / 32, n / 32), dim3(32, 4), 32 * 33 * 4>>>(a, b, n, n); });
  cudaFree(a);
  cudaFree(b);
  // each tile size with oq's choice of virtual threads and blocks (or OQ_DEV_CUDA_VTHREADS's and
  // OQ_DEV_CUDA_VBLOCKS's), then without virtual threads, then without virtual blocks
  for (int k = 16; k <= 32; k *= 2)
    for (int vt = 0; vt < 3; vt++) {
      char call[200], what[120];
      snprintf(call, sizeof call, "run_transpose(%d, %d, %d)", n, k, REPS);
      const char *knob = vt == 2 ? "OQ_DEV_CUDA_VBLOCKS" : "OQ_DEV_CUDA_VTHREADS";
      const char *was = getenv(knob);
      std::string keep = was ? was : "";
      if (vt) setenv(knob, "1", 1);
      bool ok = oq(call);
      if (was) setenv(knob, keep.c_str(), 1);
      else unsetenv(knob);
      if (!ok) continue;
      double oq_ms = oq_kernel("k_transpose");
      snprintf(what, sizeof what, "transpose %d^2, %dx%d tiles%s", n, k, k, vt == 1 ? ", 1 thread" : vt == 2 ? ", 1 block" : "");
      row(what, oq_ms, "cuMemcpyDtoD", copy_ms, vt ? "-" : ">= 95%");
      if (vt) continue;
      row("", oq_ms, k == 16 ? "CUDA tiled (seed 002)" : "CUDA tiled, 32x32", k == 16 ? hand16 : hand32, "-");
      row("", oq_ms, k == 16 ? "CUDA 16x8 threads" : "CUDA 32x8 threads", k == 16 ? rows16 : rows32, "-");
      if (k == 32) row("", oq_ms, "CUDA 32x4, dyn, tests", checked32, "-");
    }
}

static void launch_case(int n) {
  char call[200];
  snprintf(call, sizeof call, "run_launch(%d)", n);
  if (!oq(call, false)) return;
  double oq_ms = oqb_value(out_buf.data(), "launches");
  float *x;
  CK(cudaMalloc(&x, sizeof(float)));
  cudaEvent_t b;
  CK(cudaEventCreate(&b));
  empty_kernel<<<1, 1>>>(x);
  CK(cudaDeviceSynchronize());
  double best = 1e30;
  for (int r = 0; r < 3; r++) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; i++) empty_kernel<<<1, 1>>>(x);
    CK(cudaDeviceSynchronize());
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (ms < best) best = ms;
  }
  cudaFree(x);
  char what[120];
  snprintf(what, sizeof what, "launch overhead (us per launch)");
  printf("%-34s %10.3f  %-22s %10.3f %7.1f%%  %s\n", what, 1e3 * oq_ms / n, "CUDA <<<>>> empty", 1e3 * best / n,
         100 * best / oq_ms, "<= 5 us");
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "bench/gpu/cases.q";
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "bench-gpu: cannot read %s\n", path);
    return 2;
  }
  char buf[4096];
  size_t got;
  while ((got = fread(buf, 1, sizeof buf, f)) > 0) cases.append(buf, got);
  fclose(f);
  auto t_start = std::chrono::steady_clock::now();
  CK(cudaFree(0));
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  printf("bench-gpu on %s (%d SMs); oq: the fastest launch of each kernel (device time, CUDA events)\n",
         p.name, p.multiProcessorCount);
  printf("%-34s %10s  %-22s %10s %8s  %s\n", "case", "oq ms", "peer", "peer ms", "peer/oq", "target");
  // the targets first: a run cut short still reports them; BENCH_GPU_CASES (words among
  // hist sum transpose launch more) runs only those
  const char *only = getenv("BENCH_GPU_CASES");
  auto want = [&](const char *c) { return !only || strstr(only, c); };
  if (want("hist")) hist_case(8192, 8192, 0, "gradient", 7);
  if (want("sum")) sum_case(1LL << 28);
  if (want("transpose")) transpose_case(8192);
  if (want("launch")) launch_case(100000);
  // then the rest, slowest last, while the time budget lasts
  const char *budget = getenv("BENCH_GPU_BUDGET_S");
  double limit = budget ? atof(budget) : 200;
  struct { int h, w, dist, which; const char *name; } more[] = {
    {8192, 8192, 1, 7, "uniform"}, {8192, 8192, 2, 7, "constant"}, {1080, 1920, 0, 7, "gradient"},
    {1080, 1920, 1, 7, "uniform"}, {1080, 1920, 2, 7, "constant"},
  };
  for (auto &c : more) {
    if (!want("more")) break;
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
    if (s > limit) {
      printf("hist %dx%dx3 %s: skipped, %.0f s of the %.0f s budget (BENCH_GPU_BUDGET_S) spent\n", c.w, c.h, c.name, s,
             limit);
      continue;
    }
    hist_case(c.h, c.w, c.dist, c.name, c.which);
  }
  printf("bench-gpu: %d failures\n", failures);
  return failures != 0;
}
