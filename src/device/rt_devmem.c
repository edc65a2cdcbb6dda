/* rt_devmem.c: device copies of arrays. Each array has a host copy (Array.data) and, once a
   kernel needs it, a device copy (Array.device); Array.state says which is current, so that
   data crosses the bus only when the other side is stale. Device blocks come from a pool of
   size classes: a program that makes zeros(256) a thousand times in a loop allocates from
   the driver once. rt_cuda.h has the protocol. */
#include <stdlib.h>
#include <string.h>
#include "device/rt_cuda.h"

CudaStats cuda_stats;
void (*cuda_on_transfer)(size_t up, size_t down);
void (*cuda_wait_hook)(SrcLoc loc);

/* ---- the back end: the driver unless a test installs a fake ---- */

static bool drv_alloc(CudaPtr *p, size_t n, SrcLoc loc) { return cuda_raw_alloc(p, n, loc); }

static const CudaMemOps driver_ops = {
  drv_alloc, cuda_raw_free, cuda_raw_htod, cuda_raw_dtoh, cuda_raw_pin, cuda_raw_unpin,
};
static const CudaMemOps *ops = &driver_ops;

void cuda_mem_set_ops(const CudaMemOps *o) { ops = o ? o : &driver_ops; }

/* ---- size classes ---- */

#define MIN_BLOCK_LOG 8             /* 256 bytes */
#define FINE_FROM_LOG 20            /* above 1 MiB: four classes per doubling */
#define NCLASS 128

static int log2_ceil(size_t n) {    /* smallest k with 2^k >= n, n >= 1 */
  int k = 0;
  while (((size_t)1 << k) < n) k++;
  return k;
}

/* The class of a request of n bytes, and the bytes a block of that class has. */
static int size_class(size_t n, size_t *bytes) {
  int k = log2_ceil(n < 2 ? 1 : n);
  if (k <= FINE_FROM_LOG) {
    if (k < MIN_BLOCK_LOG) k = MIN_BLOCK_LOG;
    *bytes = (size_t)1 << k;
    return k - MIN_BLOCK_LOG;
  }
  size_t base = (size_t)1 << (k - 1), step = base / 4;   /* base < n <= 2 * base */
  size_t q = (n - base + step - 1) / step;               /* 1..4 */
  *bytes = base + q * step;
  return FINE_FROM_LOG - MIN_BLOCK_LOG + (k - 1 - FINE_FROM_LOG) * 4 + (int)q;
}

size_t cuda_pool_class_size(size_t n) {
  size_t b;
  size_class(n, &b);
  return b;
}

/* ---- the pool ---- */

typedef struct Block { CudaPtr p; struct Block *next; } Block;
static struct Pool {
  Block *free_list[NCLASS];
  size_t class_bytes[NCLASS];   /* a block's bytes, by class */
} pool;

void cuda_pool_trim(void) {
  for (int c = 0; c < NCLASS; c++)
    while (pool.free_list[c]) {
      Block *b = pool.free_list[c];
      pool.free_list[c] = b->next;
      ops->free(b->p);
      cuda_stats.dev_frees++;
      cuda_stats.dev_bytes -= pool.class_bytes[c];
      cuda_stats.pool_bytes -= pool.class_bytes[c];
      free(b);
    }
}

CudaPtr cuda_mem_alloc(size_t n, SrcLoc loc) {
  if (!n) return 0;
  if (n > (size_t)1 << 46) rt_error(loc, "CUDA: a device block of %zu bytes is too large", n);
  size_t bytes;
  int c = size_class(n, &bytes);
  pool.class_bytes[c] = bytes;
  if (pool.free_list[c]) {
    Block *b = pool.free_list[c];
    CudaPtr p = b->p;
    pool.free_list[c] = b->next;
    free(b);
    cuda_stats.pool_hits++;
    cuda_stats.pool_bytes -= bytes;
    return p;
  }
  CudaPtr p = 0;
  if (!ops->alloc(&p, bytes, loc)) {
    cuda_pool_trim();   /* free blocks of other classes may make room */
    if (!ops->alloc(&p, bytes, loc))
      rt_error(loc, "CUDA: out of device memory allocating %zu bytes (%zu bytes in use)",
               bytes, cuda_stats.dev_bytes);
  }
  cuda_stats.dev_allocs++;
  cuda_stats.dev_bytes += bytes;
  return p;
}

void cuda_mem_free(CudaPtr p, size_t n) {
  if (!p) return;
  size_t bytes;
  int c = size_class(n, &bytes);
  Block *b = malloc(sizeof *b);
  if (!b) {   /* no room to remember it: give it back */
    ops->free(p);
    cuda_stats.dev_frees++;
    cuda_stats.dev_bytes -= bytes;
    return;
  }
  b->p = p;
  b->next = pool.free_list[c];
  pool.class_bytes[c] = bytes;
  pool.free_list[c] = b;
  cuda_stats.pool_bytes += bytes;
}

/* ---- transfers ---- */

static CudaTransfer transfer = XFER_REGISTER;

CudaTransfer cuda_get_transfer(void) { return transfer; }

void cuda_set_transfer(CudaTransfer t) {
  transfer = t;
}

static size_t array_bytes(const Array *a) { return (size_t)a->numel * el_size(a->elem); }

/* Page-locks a's host buffer once it pays (rt_cuda.h: CUDA_PIN_EAGER, CUDA_PIN_MIN). */
static void maybe_pin(Array *a, size_t n) {
  if (cuda_get_transfer() != XFER_REGISTER || n < CUDA_PIN_MIN) return;
  if (a->state & (ARR_HOST_PINNED | ARR_PIN_FAILED)) return;
  if (n < CUDA_PIN_EAGER && !(a->state & ARR_TRANSFERRED)) return;
  if (ops->pin(a->data, n)) {
    a->state |= ARR_HOST_PINNED;
    cuda_stats.pins++;
  } else {   /* e.g. a page shared with a pinned neighbour: copy it pageable */
    a->state |= ARR_PIN_FAILED;
    cuda_stats.pin_failures++;
  }
}

static void upload(Array *a, size_t n, SrcLoc loc) {
  maybe_pin(a, n);
  ops->htod((CudaPtr)(uintptr_t)a->device, a->data, n, loc);
  a->state |= ARR_TRANSFERRED;
  cuda_stats.uploads++;
  cuda_stats.bytes_up += n;
  if (cuda_on_transfer) cuda_on_transfer(n, 0);
}

static void download(Array *a, size_t n, SrcLoc loc) {
  maybe_pin(a, n);
  ops->dtoh(a->data, (CudaPtr)(uintptr_t)a->device, n, loc);
  a->state |= ARR_TRANSFERRED;
  cuda_stats.downloads++;
  cuda_stats.bytes_down += n;
  if (cuda_on_transfer) cuda_on_transfer(0, n);
}

/* ---- arrays ---- */

void *cuda_array_device(Array *a, bool upload_it, SrcLoc loc) {
  size_t n = array_bytes(a);
  if (!n) return NULL;
  if (!a->device) {
    a->device = (void *)(uintptr_t)cuda_mem_alloc(n, loc);
    a->state &= ~(ARR_DEVICE_VALID | ARR_HOST_STALE);
  }
  if (upload_it && !(a->state & ARR_DEVICE_VALID)) {
    upload(a, n, loc);
    a->state |= ARR_DEVICE_VALID;
  }
  return a->device;
}

void cuda_array_written(Array *a) {
  if (a->device) a->state |= ARR_DEVICE_VALID | ARR_HOST_STALE;
}

void cuda_array_host(Array *a, SrcLoc loc) {
  if (!(a->state & ARR_HOST_STALE)) return;
  if (cuda_wait_hook) cuda_wait_hook(loc);   /* the kernels that write a, and their errors */
  download(a, array_bytes(a), loc);
  a->state &= ~ARR_HOST_STALE;
}

void cuda_array_host_written(Array *a) { a->state &= ~(ARR_DEVICE_VALID | ARR_HOST_STALE); }

void cuda_array_free(Array *a) {
  if (a->device) cuda_mem_free((CudaPtr)(uintptr_t)a->device, array_bytes(a));
  if (a->state & ARR_HOST_PINNED) ops->unpin(a->data);
  a->device = NULL;
  a->state = 0;
}
