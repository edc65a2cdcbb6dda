/* test_cuda.c: tests of the CUDA run-time layer (src/rt_cuda.c, rt_nvrtc.c, rt_devmem.c).

   test_cuda host: what needs no GPU: the availability report (false with a reason on a
     machine without one), NVRTC (a kernel source to an sm_90 cubin, a compile error naming
     its line, the disk cache, the PTX fallback), and the memory manager over a fake device
     in host memory (state bits, pool reuse, trimming on out-of-memory, pinning).
     NVRTC checks say "skipped" when NVRTC is not installed.
   test_cuda gpu: on a real device: kernels from NVRTC run and are compared with host loops,
     transfers happen only when a side is stale, the pool reuses device blocks, faults and
     failed launches are reported naming the kernel; it prints the launch overhead and
     host<->device bandwidths (pageable and registered host memory). Without a GPU: "skipped".

   Error cases run in a forked child that must exit with status 1 and print the expected
   message. The last line is "N passed, N failed". */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "base/config.h"
#include "device/rt_cuda.h"

RtConfig rt_config;
void callable_free(Callable *c) { (void)c; }

#include "check.h"
static const SrcLoc L;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

/* Runs body in a child whose stderr is captured; it must exit 1 with `expect` in stderr. */
#define EXPECT_ERROR(expect, ...)                                        \
  do {                                                                   \
    int fds_[2];                                                         \
    fflush(stdout);                                                      \
    if (pipe(fds_)) { perror("pipe"); exit(2); }                         \
    pid_t pid_ = fork();                                                 \
    if (pid_ == 0) {                                                     \
      close(fds_[0]);                                                    \
      dup2(fds_[1], 2);                                                  \
      __VA_ARGS__;                                                       \
      _exit(0);                                                          \
    }                                                                    \
    close(fds_[1]);                                                      \
    check_child(__LINE__, pid_, fds_[0], expect);                        \
  } while (0)

static void check_child(int line, pid_t pid, int fd, const char *expect) {
  char buf[8192];
  size_t len = 0;
  ssize_t r;
  while ((r = read(fd, buf + len, sizeof buf - 1 - len)) > 0) len += (size_t)r;
  buf[len] = 0;
  close(fd);
  int st = 0;
  waitpid(pid, &st, 0);
  bool ok = WIFEXITED(st) && WEXITSTATUS(st) == 1 && strstr(buf, expect);
  if (ok) passed++;
  else {
    failed++;
    printf("FAIL %s:%d: expected exit 1 with \"%s\"; got status %d, stderr: %s\n", __FILE__,
           line, expect, WIFEXITED(st) ? WEXITSTATUS(st) : -1, buf);
  }
}

static char *make_cache_dir(void) {
  char tmpl[] = "/tmp/oq-cuda-test.XXXXXX";
  char *d = mkdtemp(tmpl);
  if (!d) { perror("mkdtemp"); exit(2); }
  setenv("OQ_CACHE_DIR", d, 1);
  config_load();
  return strdup(d);
}

static void remove_dir(const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *e;
  char path[4096];
  while (d && (e = readdir(d)))
    if (e->d_name[0] != '.') {
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      unlink(path);
    }
  if (d) closedir(d);
  rmdir(dir);
}

/* Files in dir whose names start with prefix and end with suffix. */
static int count_files(const char *dir, const char *prefix, const char *suffix) {
  DIR *d = opendir(dir);
  struct dirent *e;
  int n = 0;
  while (d && (e = readdir(d))) {
    size_t l = strlen(e->d_name), s = strlen(suffix);
    if (!strncmp(e->d_name, prefix, strlen(prefix)) && l >= s &&
        !strcmp(e->d_name + l - s, suffix))
      n++;
  }
  if (d) closedir(d);
  return n;
}

/* ---- the kernels (hand-written CUDA C++) ---- */

static const char *kernels_src =
  "extern \"C\" __global__ void scale_add(const float *x, float *y, int n) {\n"
  "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
  "  if (i < n) y[i] = 2.0f * x[i] + (float)i;\n"
  "}\n"
  "extern \"C\" __global__ void histogram(const int *v, int n, int *bins) {\n"
  "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)\n"
  "    atomicAdd(&bins[v[i] & 255], 1);\n"
  "}\n"
  "extern \"C\" __global__ void empty(void) {}\n"
  "extern \"C\" __global__ void add_at(int *a, int i, int v) { a[i] += v; }\n"
  "extern \"C\" __global__ void shared_rev_sum(const int *x, long long *out, int n) {\n"
  "  extern __shared__ int buf[];\n"
  "  for (int i = threadIdx.x; i < n; i += blockDim.x) buf[i] = x[i];\n"
  "  __syncthreads();\n"
  "  if (threadIdx.x == 0) {\n"
  "    long long s = 0;\n"
  "    for (int i = 0; i < n; i++) s += (long long)buf[n - 1 - i] * (i + 1);\n"
  "    out[0] = s;\n"
  "  }\n"
  "}\n"
  "extern \"C\" __global__ void bad_write(int *p) { p[threadIdx.x] = 1; }\n"
  /* A grid-wide barrier: valid only when every block is resident (cooperative launch). */
  "__device__ void grid_barrier(unsigned *count, volatile unsigned *gen) {\n"
  "  __syncthreads();\n"
  "  if (threadIdx.x == 0) {\n"
  "    unsigned g = *gen;\n"
  "    __threadfence();\n"
  "    if (atomicAdd(count, 1u) == gridDim.x - 1) {\n"
  "      atomicExch(count, 0u);\n"
  "      __threadfence();\n"
  "      *gen = g + 1;\n"
  "    } else {\n"
  "      while (*gen == g) {}\n"
  "    }\n"
  "    __threadfence();\n"
  "  }\n"
  "  __syncthreads();\n"
  "}\n"
  "extern \"C\" __global__ void reverse_grid(int *a, int *b, int n, unsigned *sync) {\n"
  "  int stride = gridDim.x * blockDim.x;\n"
  "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) a[i] = 3 * i;\n"
  "  grid_barrier(sync, sync + 1);\n"
  "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)\n"
  "    b[i] = __ldcg(&a[n - 1 - i]);\n"
  "}\n";

static const char *bad_src =
  "extern \"C\" __global__ void k(float *y) {\n"
  "  int i = threadIdx.x;\n"
  "  y[i] = undefined_name + 1.0f;\n"
  "}\n";

/* ---- host mode ---- */

static void test_availability(void) {
  /* Children first: the answer is cached per process. */
  EXPECT_ERROR("CUDA is not available", {
    setenv("OQ_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
    unsetenv("OQ_CUDA_DISABLE");
    config_load();
    char why[256];
    if (cuda_available(why, sizeof why) || !strstr(why, "not installed")) _exit(3);
    if (cuda_device()) _exit(4);
    size_t f, t;
    cuda_mem_info(&f, &t, L);   /* must be an error, not a crash */
  });
  EXPECT_ERROR("CUDA is not available: CUDA is disabled", {
    setenv("OQ_CUDA_DISABLE", "1", 1);
    config_load();
    char why[256];
    if (cuda_available(why, sizeof why) || !strstr(why, "disabled")) _exit(3);
    cuda_event_new(L);
  });
  char why[512] = "x";
  bool ok = cuda_available(why, sizeof why);
  if (!ok) {
    CHECK(why[0] != 0, "cuda_available() is false without a reason");
    CHECK(cuda_device() == NULL, "cuda_device() without CUDA");
    CHECK(!cuda_available(NULL, 0), "the answer changes");
    printf("NOTE cuda_available: false: %s\n", why);
  } else {
    const CudaDevice *d = cuda_device();
    CHECK(d && d->cc_major >= 3 && d->sm_count > 0 && !strncmp(d->arch, "sm_", 3),
          "implausible device");
    CHECK(rt_array_free_hook == cuda_array_free, "free hook not installed");
    printf("NOTE cuda_available: true: %s (%s)\n", d ? d->name : "?", d ? d->arch : "?");
  }
}

static void test_nvrtc(void) {
  char why[512];
  if (!nvrtc_available(why, sizeof why)) {
    printf("NOTE NVRTC checks skipped: %s\n", why);
    return;
  }
  int maj, min;
  nvrtc_version(&maj, &min);
  printf("NOTE NVRTC %d.%d\n", maj, min);
  char *dir = make_cache_dir();
  void *img = NULL, *img2 = NULL;
  size_t size = 0, size2 = 0;
  char *log = NULL;
  long c0 = cuda_stats.compiles, h0 = cuda_stats.cache_hits;

  double t = now();
  bool ok = cuda_compile(kernels_src, "kernels.cu", "sm_90", &img, &size, &log, L);
  t = now() - t;
  CHECK(ok, "compiling the test kernels failed: %s", log ? log : "(no log)");
  CHECK(ok && size > 64 && !memcmp(img, "\177ELF", 4), "not a cubin (size %zu)", size);
  CHECK(cuda_stats.compiles == c0 + 1 && cuda_stats.cache_hits == h0, "counted wrong");
  CHECK(count_files(dir, "oqcu_", ".cubin") == 1, "no cubin in the cache");
  CHECK(count_files(dir, "oqcu_", "") == 1, "stray files in the cache");
  free(log);

  double t2 = now();
  ok = cuda_compile(kernels_src, "kernels.cu", "sm_90", &img2, &size2, &log, L);
  t2 = now() - t2;
  CHECK(ok && cuda_stats.cache_hits == h0 + 1 && cuda_stats.compiles == c0 + 1,
        "second compile is not a cache hit");
  CHECK(ok && size2 == size && !memcmp(img, img2, size), "cached cubin differs");
  CHECK(log == NULL, "a cache hit has a log");
  printf("NOTE NVRTC compile of the test kernels: %.1f ms; from the cache: %.3f ms\n",
         t * 1e3, t2 * 1e3);
  free(img2);

  /* Another architecture is another entry. */
  ok = cuda_compile(kernels_src, "kernels.cu", "sm_80", &img2, &size2, &log, L);
  CHECK(ok && cuda_stats.compiles == c0 + 2 && count_files(dir, "oqcu_", ".cubin") == 2,
        "sm_80 did not compile separately");
  free(img2);
  free(log);
  free(img);

  /* A compile error: false, and the log names the program and the line. */
  ok = cuda_compile(bad_src, "bad.cu", "sm_90", &img, &size, &log, L);
  CHECK(!ok && img == NULL, "a bad source compiled");
  CHECK(log && strstr(log, "bad.cu(3): error") && strstr(log, "undefined_name"),
        "log does not name line 3: %s", log ? log : "(none)");
  CHECK(count_files(dir, "oqcu_", "") == 2, "a failed compile left a cache file");
  free(log);

  /* An architecture newer than this NVRTC knows: PTX for the newest it knows. */
  ok = cuda_compile(kernels_src, "kernels.cu", "sm_990", &img, &size, &log, L);
  CHECK(ok && size > 0 && strstr((char *)img, ".version") && strstr((char *)img, ".entry"),
        "no PTX fallback for sm_990");
  CHECK(ok && ((char *)img)[size] == 0, "PTX is not NUL-terminated");
  CHECK(count_files(dir, "oqcu_", ".ptx") == 1, "PTX not cached");
  free(img);
  free(log);

  /* A cache that cannot be written costs only the caching. */
  setenv("OQ_CACHE_DIR", "/proc/oq-no-such-dir", 1);
  config_load();
  ok = cuda_compile(kernels_src, "kernels.cu", "sm_90", &img, &size, &log, L);
  CHECK(ok && size > 64, "compile with an unwritable cache failed");
  free(img);
  free(log);
  setenv("OQ_CACHE_DIR", dir, 1);
  config_load();
  remove_dir(dir);
  free(dir);

  EXPECT_ERROR("cannot compile for CUDA: NVRTC", {
    /* a fresh process: NVRTC is looked up again */
    execl("/proc/self/exe", "test_cuda", "nvrtc-missing", (char *)NULL);
  });
}

/* A child process of test_nvrtc: NVRTC missing must be an error, not a crash. */
static void nvrtc_missing(void) {
  setenv("OQ_NVRTC", "/nonexistent/libnvrtc.so", 1);
  config_load();
  void *img;
  size_t size;
  char *log;
  cuda_compile(kernels_src, "kernels.cu", "sm_90", &img, &size, &log, L);
}

/* The fake device: blocks of host memory, a budget, and counters. */
static struct {
  size_t budget, used;
  int allocs, frees, htod, dtoh, pins, unpins;
  bool refuse_pin;
} fake;

static size_t *fake_size(CudaPtr p) { return (size_t *)(uintptr_t)p - 2; }

static bool fake_alloc(CudaPtr *p, size_t n, SrcLoc loc) {
  (void)loc;
  if (fake.used + n > fake.budget) return false;
  size_t *b = malloc(n + 2 * sizeof(size_t));
  b[0] = n;
  fake.used += n;
  fake.allocs++;
  *p = (CudaPtr)(uintptr_t)(b + 2);
  return true;
}
static void fake_free(CudaPtr p) {
  fake.used -= *fake_size(p);
  fake.frees++;
  free(fake_size(p));
}
static void fake_htod(CudaPtr d, const void *s, size_t n, SrcLoc loc) {
  (void)loc;
  memcpy((void *)(uintptr_t)d, s, n);
  fake.htod++;
}
static void fake_dtoh(void *d, CudaPtr s, size_t n, SrcLoc loc) {
  (void)loc;
  memcpy(d, (void *)(uintptr_t)s, n);
  fake.dtoh++;
}
static bool fake_pin(void *h, size_t n) { (void)h; (void)n; fake.pins++; return !fake.refuse_pin; }
static void fake_unpin(void *h) { (void)h; fake.unpins++; }
static const CudaMemOps fake_ops = {
  fake_alloc, fake_free, fake_htod, fake_dtoh, fake_pin, fake_unpin,
};

static void test_size_classes(void) {
  static const size_t in[][2] = {
    {1, 256}, {256, 256}, {257, 512}, {1000, 1024}, {1 << 20, 1 << 20},
    {(1 << 20) + 1, (1 << 20) + (1 << 18)}, {3 << 20, 3 << 20}, {(3 << 20) + 1, 7 << 19},
    {(size_t)1 << 30, (size_t)1 << 30}, {((size_t)1 << 30) + 1, ((size_t)5 << 28)},
  };
  for (size_t i = 0; i < sizeof in / sizeof *in; i++)
    CHECK(cuda_pool_class_size(in[i][0]) == in[i][1], "class of %zu is %zu, want %zu",
          in[i][0], cuda_pool_class_size(in[i][0]), in[i][1]);
}

/* The validity bits of an array's state (the others concern pinning). */
#define VALIDITY(a) ((a)->state & (ARR_DEVICE_VALID | ARR_HOST_STALE))

static void test_fake_device(void) {
  cuda_mem_set_ops(&fake_ops);
  rt_array_free_hook = cuda_array_free;
  cuda_set_transfer(XFER_REGISTER);
  fake.budget = 8 << 20;

  /* State bits: transfers only when the other side is stale. */
  Array *a = arr_vec(EL_F32, 1000);
  for (int i = 0; i < 1000; i++) ((float *)a->data)[i] = (float)i;
  CHECK(a->state == 0 && a->device == NULL, "fresh array has device state");
  float *d = cuda_array_device(a, true, L);
  CHECK(d && fake.htod == 1 && VALIDITY(a) == ARR_DEVICE_VALID && d[999] == 999.0f,
        "first use does not upload");
  cuda_array_device(a, true, L);
  cuda_array_host(a, L);
  CHECK(fake.htod == 1 && fake.dtoh == 0, "transfer although both copies are valid");
  for (int i = 0; i < 1000; i++) d[i] = -(float)i;   /* a "kernel" writes */
  cuda_array_written(a);
  CHECK(VALIDITY(a) == (ARR_DEVICE_VALID | ARR_HOST_STALE), "written: state %u", a->state);
  cuda_array_device(a, true, L);
  CHECK(fake.htod == 1, "upload over a newer device copy");
  cuda_array_host(a, L);
  CHECK(fake.dtoh == 1 && ((float *)a->data)[7] == -7.0f && VALIDITY(a) == ARR_DEVICE_VALID,
        "host read does not download");
  cuda_array_host(a, L);
  CHECK(fake.dtoh == 1, "second host read downloads again");
  ((float *)a->data)[3] = 42;
  cuda_array_host_written(a);
  CHECK(VALIDITY(a) == 0, "host write leaves the device valid");
  cuda_array_device(a, true, L);
  CHECK(fake.htod == 2 && d[3] == 42.0f, "device copy not refreshed after a host write");
  Array *b = arr_vec(EL_F64, 10);
  cuda_array_device(b, false, L);   /* 'nocopy: the kernel overwrites it */
  CHECK(fake.htod == 2 && b->device, "nocopy uploads");
  Array *e = arr_vec(EL_F32, 0);
  CHECK(cuda_array_device(e, true, L) == NULL && fake.htod == 2, "empty array");
  val_release(v_array(e));
  val_release(v_array(b));
  val_release(v_array(a));
  CHECK(cuda_stats.pool_bytes == 4096 + 256, "freed blocks not pooled: %zu",
        cuda_stats.pool_bytes);

  /* The pool: zeros(256) a thousand times allocates once. */
  int allocs = fake.allocs;
  long hits = cuda_stats.pool_hits;
  for (int i = 0; i < 1000; i++) {
    Array *z = arr_vec(EL_F32, i % 2 ? 256 : 200);   /* one class: 1 KiB */
    cuda_array_device(z, false, L);
    val_release(v_array(z));
  }
  CHECK(fake.allocs - allocs <= 1 && cuda_stats.pool_hits - hits >= 999,
        "pool: %d allocations, %ld hits", fake.allocs - allocs, cuda_stats.pool_hits - hits);

  /* Out of memory: the free lists are emptied and the allocation retried. */
  cuda_pool_trim();
  CHECK(fake.used == 0 && cuda_stats.pool_bytes == 0 && cuda_stats.dev_bytes == 0,
        "trim left %zu bytes", fake.used);
  CudaPtr p[6];
  for (int i = 0; i < 6; i++) p[i] = cuda_mem_alloc(1 << 20, L);
  for (int i = 0; i < 6; i++) cuda_mem_free(p[i], 1 << 20);
  int frees = fake.frees;
  CudaPtr big = cuda_mem_alloc(4 << 20, L);   /* fits only after a trim */
  CHECK(big && fake.frees == frees + 6 && cuda_stats.pool_bytes == 0, "no trim and retry");
  cuda_mem_free(big, 4 << 20);
  EXPECT_ERROR("out of device memory allocating 16777216 bytes", {
    cuda_mem_alloc(16 << 20, L);
  });
  cuda_pool_trim();

  /* Pinning: large arrays at the first transfer, middle ones at the second, small ones
     never; undone at free; a refused pin is not retried. */
  fake.budget = 64 << 20;
  cuda_set_transfer(XFER_REGISTER);
  Array *s = arr_vec(EL_F32, 1000), *m = arr_vec(EL_F32, 1 << 18), *l = arr_vec(EL_F32, 1 << 22);
  cuda_array_device(s, true, L);
  cuda_array_device(m, true, L);
  cuda_array_device(l, true, L);
  CHECK(fake.pins == 1 && (l->state & ARR_HOST_PINNED) && !(m->state & ARR_HOST_PINNED) &&
        !(s->state & ARR_HOST_PINNED), "first transfers: %d pins", fake.pins);
  cuda_array_written(s);
  cuda_array_written(m);
  cuda_array_written(l);
  cuda_array_host(s, L);
  cuda_array_host(m, L);
  cuda_array_host(l, L);
  CHECK(fake.pins == 2 && (m->state & ARR_HOST_PINNED) && !(s->state & ARR_HOST_PINNED),
        "second transfers: %d pins", fake.pins);
  val_release(v_array(l));
  val_release(v_array(m));
  CHECK(fake.unpins == 2, "freeing does not unpin (%d)", fake.unpins);
  fake.refuse_pin = true;
  l = arr_vec(EL_F32, 1 << 22);
  cuda_array_device(l, true, L);
  cuda_array_written(l);
  cuda_array_host(l, L);
  CHECK(fake.pins == 3 && (l->state & ARR_PIN_FAILED) && !(l->state & ARR_HOST_PINNED),
        "refused pin retried or marked pinned");
  val_release(v_array(l));
  CHECK(fake.unpins == 2, "unpinned what was not pinned");
  fake.refuse_pin = false;

  /* Pageable: never pins. */
  cuda_set_transfer(XFER_PAGEABLE);
  l = arr_vec(EL_F32, 1 << 22);
  cuda_array_device(l, true, L);
  cuda_array_written(l);
  cuda_array_host(l, L);
  CHECK(fake.pins == 3 && !(l->state & ARR_HOST_PINNED), "pageable mode pins");
  val_release(v_array(l));
  val_release(v_array(s));
  cuda_pool_trim();
  CHECK(fake.used == 0, "device memory leaked: %zu bytes", fake.used);
  cuda_set_transfer(XFER_REGISTER);
  cuda_mem_set_ops(NULL);
  rt_array_free_hook = NULL;
}

/* ---- GPU mode ---- */

static CudaModule *mod;

static CudaModule *load_kernels(const CudaDevice *d) {
  void *img;
  size_t size;
  char *log;
  if (!cuda_compile(kernels_src, "kernels.cu", d->arch, &img, &size, &log, L)) {
    printf("FAIL compiling the kernels for %s: %s\n", d->arch, log ? log : "");
    exit(1);
  }
  free(log);
  CudaModule *m = cuda_module_load(img, size, "test kernels", L);
  free(img);
  return m;
}

/* Fault and launch-failure reports, each in a fresh process (CUDA does not survive fork). */
static void gpu_child(const char *what) {
  char why[256];
  if (!cuda_available(why, sizeof why)) _exit(5);
  CudaModule *m = load_kernels(cuda_device());
  unsigned g[3] = {1, 1, 1}, b[3] = {32, 1, 1};
  if (!strcmp(what, "fault")) {
    int *bad = (int *)(uintptr_t)8;
    void *params[] = { &bad };
    cuda_launch(cuda_kernel(m, "bad_write", L), g, b, 0, false, params, L);
    cuda_sync(L);
  } else if (!strcmp(what, "launch")) {
    b[0] = 4096;   /* more than any device allows */
    cuda_launch(cuda_kernel(m, "empty", L), g, b, 0, false, NULL, L);
  } else if (!strcmp(what, "nokernel")) {
    cuda_kernel(m, "no_such_kernel", L);
  }
}

static void test_gpu_errors(void) {
  EXPECT_ERROR("CUDA: kernel 'bad_write' failed (seen while waiting for the device)",
               execl("/proc/self/exe", "test_cuda", "gpu-child", "fault", (char *)NULL));
  EXPECT_ERROR("CUDA: launch of kernel 'empty' (grid 1x1x1, block 4096x1x1",
               execl("/proc/self/exe", "test_cuda", "gpu-child", "launch", (char *)NULL));
  EXPECT_ERROR("looking up kernel 'no_such_kernel'",
               execl("/proc/self/exe", "test_cuda", "gpu-child", "nokernel", (char *)NULL));
}

static unsigned blocks_for(int64_t n, unsigned block) { return (unsigned)((n + block - 1) / block); }

static void test_scale_add(void) {
  CudaKernel *k = cuda_kernel(mod, "scale_add", L);
  CHECK(k->max_threads >= 256 && k->num_regs > 0 && k->binary_version >= 30,
        "kernel attributes: %d threads, %d regs, version %d", k->max_threads, k->num_regs,
        k->binary_version);
  int min_grid = 0;
  int block = cuda_occupancy_block_size(k, 0, 0, &min_grid, L);
  CHECK(block >= 32 && block <= k->max_threads && min_grid > 0, "occupancy block %d", block);
  int per_sm = cuda_occupancy_blocks_per_sm(k, block, 0, L);
  CHECK(per_sm >= 1, "blocks per SM %d", per_sm);
  printf("NOTE scale_add: %d registers, occupancy block size %d, min grid %d, %d blocks/SM\n",
         k->num_regs, block, min_grid, per_sm);

  int n = 1 << 20;
  Array *x = arr_vec(EL_F32, n), *y = arr_vec(EL_F32, n);
  for (int i = 0; i < n; i++) ((float *)x->data)[i] = (float)((unsigned)i * 7919u % 1000u) * 0.25f;
  long up = cuda_stats.uploads, down = cuda_stats.downloads;
  void *dx = cuda_array_device(x, true, L), *dy = cuda_array_device(y, false, L);
  unsigned g[3] = {blocks_for(n, (unsigned)block), 1, 1}, b[3] = {(unsigned)block, 1, 1};
  void *params[] = { &dx, &dy, &n };
  cuda_launch(k, g, b, 0, false, params, L);
  cuda_array_written(y);
  CHECK(cuda_stats.uploads == up + 1, "uploads: %ld (y is nocopy)", cuda_stats.uploads - up);
  cuda_array_host(y, L);
  cuda_array_host(x, L);
  CHECK(cuda_stats.downloads == down + 1, "downloads: %ld (x was only read)",
        cuda_stats.downloads - down);
  int bad = 0;
  for (int i = 0; i < n; i++) {
    float want = 2.0f * ((float *)x->data)[i] + (float)i;
    if (((float *)y->data)[i] != want) bad++;
  }
  CHECK(bad == 0, "scale_add: %d of %d elements differ", bad, n);

  /* A second launch with x unchanged: nothing to upload; the host reads y once. */
  cuda_launch(k, g, b, 0, false, params, L);
  cuda_array_device(x, true, L);
  cuda_array_written(y);
  cuda_array_host(y, L);
  cuda_array_host(y, L);
  CHECK(cuda_stats.uploads == up + 1 && cuda_stats.downloads == down + 2,
        "second launch: %ld uploads, %ld downloads", cuda_stats.uploads - up,
        cuda_stats.downloads - down);
  /* The host writes x: the next launch uploads it again. */
  ((float *)x->data)[5] = 1000;
  cuda_array_host_written(x);
  cuda_array_device(x, true, L);
  cuda_launch(k, g, b, 0, false, params, L);
  cuda_array_written(y);
  cuda_array_host(y, L);
  CHECK(cuda_stats.uploads == up + 2 && ((float *)y->data)[5] == 2005.0f,
        "host write not uploaded: y[5] = %g", ((float *)y->data)[5]);
  val_release(v_array(x));
  val_release(v_array(y));
}

static void test_histogram(void) {
  CudaKernel *k = cuda_kernel(mod, "histogram", L);
  int n = 1 << 22;
  Array *v = arr_vec(EL_I32, n), *bins = arr_vec(EL_I32, 256);
  uint32_t s = 12345;
  for (int i = 0; i < n; i++) {
    s = s * 1664525u + 1013904223u;
    ((int *)v->data)[i] = (int)(s >> 24) % 200;   /* skewed: bins 200..255 stay empty */
  }
  void *dv = cuda_array_device(v, true, L), *db = cuda_array_device(bins, true, L);
  const CudaDevice *d = cuda_device();
  unsigned g[3] = {(unsigned)d->sm_count * 4, 1, 1}, b[3] = {256, 1, 1};
  void *params[] = { &dv, &n, &db };
  cuda_launch(k, g, b, 0, false, params, L);
  cuda_array_written(bins);
  cuda_array_host(bins, L);
  int want[256] = {0}, bad = 0;
  for (int i = 0; i < n; i++) want[((int *)v->data)[i] & 255]++;
  for (int i = 0; i < 256; i++) bad += ((int *)bins->data)[i] != want[i];
  CHECK(bad == 0, "histogram: %d bins differ", bad);
  val_release(v_array(v));
  val_release(v_array(bins));
}

static void test_cooperative(void) {
  const CudaDevice *d = cuda_device();
  if (!d->cooperative) {
    printf("NOTE cooperative launch not supported: skipped\n");
    return;
  }
  CudaKernel *k = cuda_kernel(mod, "reverse_grid", L);
  int per_sm = cuda_occupancy_blocks_per_sm(k, 256, 0, L);
  int n = 1 << 20;
  Array *a = arr_vec(EL_I32, n), *b = arr_vec(EL_I32, n), *sync = arr_vec(EL_U32, 2);
  void *da = cuda_array_device(a, false, L), *db = cuda_array_device(b, false, L);
  void *ds = cuda_array_device(sync, true, L);
  unsigned g[3] = {(unsigned)(per_sm * d->sm_count), 1, 1}, bl[3] = {256, 1, 1};
  void *params[] = { &da, &db, &n, &ds };
  cuda_launch(k, g, bl, 0, true, params, L);
  cuda_array_written(b);
  cuda_array_host(b, L);
  int bad = 0;
  for (int i = 0; i < n; i++) bad += ((int *)b->data)[i] != 3 * (n - 1 - i);
  CHECK(bad == 0, "grid barrier: %d of %d elements wrong (%u blocks)", bad, n, g[0]);
  val_release(v_array(a));
  val_release(v_array(b));
  val_release(v_array(sync));
}

/* 64 KiB of dynamic shared memory: more than the default 48 KiB, so the launch opts in. */
static void test_big_shared(void) {
  const CudaDevice *d = cuda_device();
  int n = 16384;
  if ((size_t)d->shared_per_block_optin < n * sizeof(int)) {
    printf("NOTE 64 KiB of shared memory not supported: skipped\n");
    return;
  }
  CudaKernel *k = cuda_kernel(mod, "shared_rev_sum", L);
  Array *x = arr_vec(EL_I32, n), *out = arr_vec(EL_I64, 1);
  long long want = 0;
  for (int i = 0; i < n; i++) ((int *)x->data)[i] = i % 1000 - 500;
  for (int i = 0; i < n; i++) want += (long long)((int *)x->data)[n - 1 - i] * (i + 1);
  void *dx = cuda_array_device(x, true, L), *dout = cuda_array_device(out, false, L);
  unsigned g[3] = {1, 1, 1}, b[3] = {256, 1, 1};
  void *params[] = { &dx, &dout, &n };
  cuda_launch(k, g, b, n * sizeof(int), false, params, L);
  cuda_array_written(out);
  cuda_array_host(out, L);
  CHECK(((long long *)out->data)[0] == want && k->dyn_shared_set == n * 4,
        "64 KiB shared: got %lld, want %lld", ((long long *)out->data)[0], want);
  val_release(v_array(x));
  val_release(v_array(out));
}

static void test_gpu_pool(void) {
  long allocs = cuda_stats.dev_allocs;
  double t = now();
  for (int i = 0; i < 1000; i++) {
    Array *z = arr_vec(EL_F32, 256);
    cuda_array_device(z, true, L);
    val_release(v_array(z));
  }
  t = now() - t;
  CHECK(cuda_stats.dev_allocs - allocs <= 1, "pool: %ld real allocations for 1000 arrays",
        cuda_stats.dev_allocs - allocs);
  printf("NOTE zeros(256) + upload + free, 1000 times: %.1f us each, %ld cuMemAlloc\n",
         t * 1e3, cuda_stats.dev_allocs - allocs);
  size_t before = cuda_stats.dev_bytes;
  cuda_pool_trim();
  CHECK(cuda_stats.pool_bytes == 0 && cuda_stats.dev_bytes < before, "trim freed nothing");
}

static void measure_launches(void) {
  bool was = cuda_set_batching(false);   /* the driver's launches, one by one */
  CudaKernel *k = cuda_kernel(mod, "empty", L);
  unsigned g[3] = {1, 1, 1}, b[3] = {32, 1, 1};
  for (int i = 0; i < 100; i++) cuda_launch(k, g, b, 0, false, NULL, L);
  cuda_sync(L);
  int n = 20000;
  double t = now();
  for (int i = 0; i < n; i++) cuda_launch(k, g, b, 0, false, NULL, L);
  cuda_sync(L);
  t = now() - t;
  int m = 2000;
  double t2 = now();
  for (int i = 0; i < m; i++) {
    cuda_launch(k, g, b, 0, false, NULL, L);
    cuda_sync(L);
  }
  t2 = now() - t2;
  CudaEvent *e0 = cuda_event_new(L), *e1 = cuda_event_new(L);
  cuda_event_record(e0, L);
  for (int i = 0; i < n; i++) cuda_launch(k, g, b, 0, false, NULL, L);
  cuda_event_record(e1, L);
  double ms = cuda_event_ms(e0, e1, L);
  CHECK(ms > 0, "event timing %g ms", ms);
  printf("NOTE empty kernel: %.2f us/launch (asynchronous, %d launches), %.2f us launch+sync, "
         "%.2f us/launch on the device's clock\n", t / n * 1e6, n, t2 / m * 1e6, ms / n * 1e3);
  cuda_event_free(e0);
  cuda_event_free(e1);
  cuda_set_batching(was);
}

/* Batched launches on the device: rounds of single-thread updates of one array, the same
   kernel and shapes each round (a graph from the second round on) with other values, a read
   back in the middle; the array must match the same updates made by a host loop. */
enum { BATCH_N = 37, BATCH_ROUNDS = 12, BATCH_PER = 20 };
static void batch_round(CudaKernel *k, CudaPtr d, int *ref, int r) {
  unsigned g[3] = {1, 1, 1}, b[3] = {1, 1, 1};
  for (int j = 0; j < BATCH_PER; j++) {
    int i = (r * 7 + j * 3) % BATCH_N, v = j + 100 * r;
    void *params[] = {&d, &i, &v};
    cuda_launch(k, g, b, 0, false, params, L);
    ref[i] += v;
  }
}

static void test_batched(void) {
  bool was = cuda_set_batching(true);
  CudaKernel *k = cuda_kernel(mod, "add_at", L);
  cuda_kernel_params(k, 3);
  int ref[BATCH_N] = {0}, got[BATCH_N];
  CudaPtr d = cuda_mem_alloc(sizeof got, L);
  cuda_raw_memset(d, 0, sizeof got, L);
  long made = cuda_stats.graphs_made, sent = cuda_stats.graph_launches;
  int bad = 0;
  for (int r = 0; r < BATCH_ROUNDS; r++) {
    batch_round(k, d, ref, r);
    if (r == BATCH_ROUNDS / 2 || r == BATCH_ROUNDS - 1) {   /* the copy submits the queue first */
      memset(got, 0x7f, sizeof got);
      cuda_raw_dtoh(got, d, sizeof got, L);
      for (int i = 0; i < BATCH_N; i++) bad += got[i] != ref[i];
    } else if (r % 2) {
      cuda_sync(L);   /* each round its own queue: same shape */
    }
  }
  CHECK(bad == 0, "batched launches: %d elements differ from the host loop", bad);
  CHECK(cuda_stats.graphs_made > made && cuda_stats.graph_launches > sent,
        "batched launches: %ld graphs made, %ld submitted", cuda_stats.graphs_made - made,
        cuda_stats.graph_launches - sent);
  cuda_mem_free(d, sizeof got);
  cuda_set_batching(was);
}

/* Bandwidth of array transfers in one mode, on a fresh array (in REGISTER mode the first
   transfer includes the page-locking from CUDA_PIN_EAGER bytes, the second below that).
   Checks the data on the way back. */
static void measure_transfers(CudaTransfer mode, const char *name, size_t bytes) {
  cuda_set_transfer(mode);
  int64_t n = (int64_t)(bytes / 4);
  Array *a = arr_vec(EL_I32, n);
  for (int64_t i = 0; i < n; i++) ((int *)a->data)[i] = (int)(i * 2654435761u);
  double up_first = 0, up_best = 1e9, down_first = 0, down_best = 1e9;
  int bad = 0;
  for (int r = 0; r < 5; r++) {
    cuda_sync(L);
    double t = now();
    cuda_array_device(a, true, L);
    cuda_sync(L);
    t = now() - t;
    if (r == 0) up_first = t;
    if (t < up_best) up_best = t;
    memset(a->data, 0, bytes);   /* the device copy is now the only right one */
    cuda_array_written(a);
    t = now();
    cuda_array_host(a, L);
    t = now() - t;
    if (r == 0) down_first = t;
    if (t < down_best) down_best = t;
    for (int64_t i = 0; i < n; i += 4097) bad += ((int *)a->data)[i] != (int)(i * 2654435761u);
    cuda_array_host_written(a);
  }
  CHECK(bad == 0, "%s transfers corrupt data (%d samples)", name, bad);
  double gb = bytes / 1e9;
  printf("NOTE %-8s %4zu MiB: host->device %.1f GB/s (first %.1f), device->host %.1f GB/s "
         "(first %.1f)\n", name, bytes >> 20, gb / up_best, gb / up_first, gb / down_best,
         gb / down_first);
  val_release(v_array(a));
  cuda_set_transfer(XFER_REGISTER);
}

static int gpu_mode(void) {
  char why[512];
  if (!cuda_available(why, sizeof why)) {
    printf("NOTE GPU checks skipped: %s\n", why);
    return 0;
  }
  if (!nvrtc_available(why, sizeof why)) {
    printf("NOTE GPU checks skipped: %s\n", why);
    return 0;
  }
  const CudaDevice *d = cuda_device();
  printf("NOTE device %d: %s, %s, %d SMs, %d threads/block, %d KiB shared/block "
         "(%d opt-in), warp %d, %.1f GiB, driver %d\n", d->ordinal, d->name, d->arch,
         d->sm_count, d->max_threads_per_block, d->shared_per_block / 1024,
         d->shared_per_block_optin / 1024, d->warp_size, d->total_mem / 1073741824.0,
         d->driver_version);
  char *dir = make_cache_dir();
  test_gpu_errors();
  mod = load_kernels(d);
  test_scale_add();
  test_histogram();
  test_cooperative();
  test_big_shared();
  test_gpu_pool();
  test_batched();
  measure_launches();
  size_t sizes[] = { (size_t)1 << 20, (size_t)64 << 20, (size_t)256 << 20 };
  for (int i = 0; i < 3; i++) {
    measure_transfers(XFER_PAGEABLE, "pageable", sizes[i]);
    measure_transfers(XFER_REGISTER, "register", sizes[i]);
  }
  cuda_module_unload(mod);
  remove_dir(dir);
  free(dir);
  return 0;
}

/* ---- stub mode: batching over tools/cuda_stub.c ($OQ_LIBCUDA), which runs no kernel but
   logs each launch's first parameter (stub_ran), from direct launches and graph nodes ---- */

static void stub_mode(void) {
  char why[512];
  if (!cuda_available(why, sizeof why) || !nvrtc_available(why, sizeof why)) {
    printf("NOTE stub checks skipped: %s\n", why);
    return;
  }
  void *lib = dlopen(getenv("OQ_LIBCUDA"), RTLD_NOW | RTLD_NOLOAD);
  volatile long *ran = lib ? dlsym(lib, "launches") : NULL;
  long long *log = lib ? dlsym(lib, "stub_ran") : NULL;
  long *sets = lib ? dlsym(lib, "stub_node_sets") : NULL;
  if (!ran || !log || !sets) {
    printf("FAIL stub mode: OQ_LIBCUDA is not tools/cuda_stub.c\n");
    failed++;
    return;
  }
  char *dir = make_cache_dir();
  mod = load_kernels(cuda_device());
  CudaKernel *k = cuda_kernel(mod, "scale_add", L);
  cuda_kernel_params(k, 1);   /* the stub reports one 8-byte parameter per kernel */
  cuda_set_batching(true);
  CudaPtr buf = cuda_mem_alloc(256, L);
  unsigned g[3] = {1, 1, 1}, b[3] = {32, 1, 1};
  long long want[400];
  int nwant = 0;
  long long v;
  void *params[] = {&v, &v, &v};
  int sizes[] = {10, 10, 10, 3, 10, 70};   /* queue lengths: new shape, graph, update, short, ... */
  for (int r = 0; r < 6; r++) {
    long before = *ran;
    for (int j = 0; j < sizes[r]; j++) {
      v = r == 2 && j == 4 ? 999 : 1000 + j;   /* round 2 changes one node's value */
      cuda_launch(k, g, b, 0, false, params, L);
      want[nwant++] = v;
    }
    if (r < 5) CHECK(*ran - before == (sizes[r] > 64 ? 64 : 0), "round %d: %ld launches before the wait", r, *ran - before);
    if (r == 4) cuda_raw_memset(buf, 0, 256, L);   /* a memset submits the queue too */
    else cuda_sync(L);
    CHECK(*ran - before == sizes[r], "round %d: %ld of %d launches submitted", r, *ran - before, sizes[r]);
  }
  int bad = 0;
  for (int i = 0; i < nwant; i++) bad += log[*ran - nwant + i] != want[i];
  CHECK(bad == 0, "%d launches ran other values or in another order", bad);
  CHECK(cuda_stats.graphs_made == 1 && cuda_stats.graph_launches == 3 && *sets == 2,
        "graphs: %ld made, %ld submitted, %ld node updates (1, 3, 2 expected)", cuda_stats.graphs_made,
        cuda_stats.graph_launches, *sets);
  cuda_set_batching(false);
  long before = *ran;
  cuda_launch(k, g, b, 0, false, params, L);
  CHECK(*ran - before == 1, "batching off: the launch was not submitted at once");
  cuda_mem_free(buf, 256);
  cuda_module_unload(mod);
  remove_dir(dir);
  free(dir);
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  const char *mode = argc > 1 ? argv[1] : "host";
  if (!strcmp(mode, "nvrtc-missing")) { nvrtc_missing(); return 0; }
  if (!strcmp(mode, "gpu-child")) { gpu_child(argc > 2 ? argv[2] : ""); return 0; }
  if (!strcmp(mode, "host")) {
    char *dir = make_cache_dir();   /* children inherit it */
    test_availability();
    test_nvrtc();
    test_size_classes();
    test_fake_device();
    remove_dir(dir);
    free(dir);
  } else if (!strcmp(mode, "gpu")) {
    gpu_mode();
  } else if (!strcmp(mode, "stub")) {
    stub_mode();
  } else {
    fprintf(stderr, "usage: test_cuda host|gpu|stub\n");
    return 2;
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
