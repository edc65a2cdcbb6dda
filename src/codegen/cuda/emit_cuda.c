/* emit_cuda.c: the CUDA dialect: CUDA C++ for NVRTC from the same typed kernels, one GPU
   thread per Quasar thread (docs/cuda.md), run by rt_gpu.c. */
#include <ctype.h>
#include "codegen/cuda/cuda_priv.h"
#include "base/config.h"
#include "codegen/codegen.h"

static void cuda_one_position(Em *E, const char *label);

/* CUDA: the update of a private array goes to the block's copy in shared memory, lane
   _ln of its _R replicas (lanes of a warp never collide; pvq<k> is the copy's replica of
   this lane); false when this update must stay a global atomic (the copy's type cannot add
   it exactly: an int array and a real value). The copy fits in shared memory: its offsets
   are 32-bit. */
static void priv_count(Em *E, int k, const char *off, const char *valid);

static bool priv_update(Em *E, int k, const char *off, ElemType el, Op op, char *v, KType vt) {
  if (!E->S->tr.priv_esz[k]) return false;
  char *ix = em_sf(E, "(unsigned)(%s) << _lgR", off);
  if (E->S->tr.priv_count[k]) {
    priv_count(E, k, off, "1");
    return true;
  }
  if (el == EL_I32 && em_kclass(vt) != K_INT) return false;
  char *d = em_conv(E, v, vt, el == EL_I32 ? K_INT : K_REAL);
  em_line(E, "if (pv%d) atomicAdd(pvq%d + (%s), (%s)(%s(%s)));", k, k, ix, em_el_ctype(el), op == OP_SUB ? "-" : "", d);
  return true;
}

/* The dialect's priv_update: the update of private array P->priv, then the `else {` of the
   global update when the launcher made no copy. */
static bool cuda_priv_update(Em *E, const Update *u) {
  const Plan *P = u->P;
  if (!priv_update(E, P->priv, P->off32 ? P->off32 : u->off, u->el, u->op, u->v, u->vt)) return false;
  em_line(E, "else {");
  E->ind++;
  return true;
}

/* CUDA: one count of counted private array k at offset off when valid holds, without a
   branch: an invalid element adds 0 to element 0 (a branch per position costs more than
   the rare extra atomic). The offset is computed either way and then selected (a float
   bin's conversion under the condition became a branch). */
static void priv_count(Em *E, int k, const char *off, const char *valid) {
  if (!strcmp(valid, "1")) {
    em_line(E, "if (pv%d) atomicAdd(pvq%d + ((unsigned)(%s) << _lgR), 1u);", k, k, off);
    return;
  }
  char *ok = em_tmp(E), *bin = em_tmp(E);
  em_line(E, "const bool %s = %s;", ok, valid);
  em_line(E, "const unsigned %s = (unsigned)(%s);", bin, off);
  em_line(E, "if (pv%d) atomicAdd(pvq%d + ((%s ? %s : 0u) << _lgR), (unsigned)%s);", k, k, ok, bin, ok);
  em_line(E, "else if (%s) {", ok);
}

/* The dialect's priv_count: an update of a counted private array at an element that may be
   outside, which opens the test of valid itself. */
static bool cuda_priv_count(Em *E, const Update *u) {
  const Plan *P = u->P;
  int k = P->priv;
  if (!E->S->tr.priv_esz[k] || !E->S->tr.priv_count[k] || !strcmp(u->valid, "1")) return false;
  priv_count(E, k, P->off32 ? P->off32 : u->off, u->valid);
  return true;
}

/* CUDA: the native atomic for el op= v, when it computes exactly what the read-modify-write
   of num_op and store_conv computes: int32 elements with int values (add, sub, min, max, and,
   or, xor), and add/sub of numbers into elements of oq_real's own type (float in single,
   double in double precision; atomicAdd rounds once, like the C expression). NULL: use a
   compare-and-swap loop. The call returns the old value; *fix turns it into the new one. */
static const char *native_atomic(ElemType el, Op op, KType vt, const char **fix) {
  bool dp = rt_config.double_precision;
  KKind vc = em_kclass(vt);
  if (el == EL_I32 && vc == K_INT) {
    static const struct { Op op; const char *fn, *fix; } m[] = {
      {OP_ADD, "atomicAdd", "+"}, {OP_SUB, "atomicSub", "-"}, {OP_MAX, "atomicMax", "max"},
      {OP_MIN, "atomicMin", "min"}, {OP_BAND, "atomicAnd", "&"}, {OP_BOR, "atomicOr", "|"},
      {OP_BXOR, "atomicXor", "^"},
    };
    for (size_t i = 0; i < sizeof m / sizeof *m; i++)
      if (m[i].op == op) return *fix = m[i].fix, m[i].fn;
    return NULL;
  }
  if ((el == (dp ? EL_F64 : EL_F32)) && (vc == K_INT || vc == K_REAL) && (op == OP_ADD || op == OP_SUB))
    return *fix = op == OP_ADD ? "+" : "-", "atomicAdd";
  return NULL;
}

/* *lv op= v with the native atomic fn; the new value into res (or dropped). */
static void atomic_store(Em *E, ElemType el, const char *fn, const char *fix, char *lv, char *v, KType vt,
                         char *res) {
  const char *ct = em_el_ctype(el);
  char *x = em_tmp(E), *r0 = em_tmp(E);
  em_line(E, "const %s %s = %s;", ct, x, el == EL_I32 ? v : em_conv(E, v, vt, K_REAL));
  bool neg = !strcmp(fn, "atomicAdd") && !strcmp(fix, "-");   /* float subtraction: add -x */
  em_line(E, "const %s %s = %s(&%s, %s%s);", ct, r0, fn, lv, neg ? "-" : "", x);
  if (!res) em_line(E, "(void)%s;", r0);
  else if (!strcmp(fix, "max") || !strcmp(fix, "min")) em_line(E, "%s = %s(%s, %s);", res, fix, r0, x);
  else em_line(E, "%s = %s %s %s;", res, r0, fix, x);
}

/* The dialect's native_update. */
static bool cuda_native_update(Em *E, const Update *u) {
  const char *fix, *fn = native_atomic(u->el, u->op, u->vt, &fix);
  if (!fn) return false;
  atomic_store(E, u->el, fn, fix, u->lv, u->v, u->vt, u->res);
  return true;
}

/* ---- virtual threads ----
   A barrier kernel whose barriers are all statements of its body may run each block (the
   user's blkdim, constants of the key) with F times fewer GPU threads: GPU thread y of
   dimension 0 runs the Quasar threads T0 = y, y + b0/F, ... of each phase between two
   barriers in turn (a loop the compiler unrolls: their loads are independent), so a thread
   keeps several loads in flight. The phases are the CPU's (emit_c.c): a local that lives
   across a barrier is an array of F per GPU thread (registers), indexed by _t; the others
   are plain locals of their phase. The launcher proposes F (S->tr.vthreads, in the key) and
   starts blocks of b0/F GPU threads in dimension 0; blkpos, blkdim and pos stay the user's. */

/* Bytes of a value a GPU thread keeps for each of its Quasar threads (a rough register count). */
static int state_bytes(KType t) {
  int real = rt_config.double_precision ? 8 : 4;
  switch (t.kind) {
  case K_BOOL: case K_INT: return 4;
  case K_REAL: return real;
  case K_CPLX: return 2 * real;
  case K_VEC: return t.len * (t.elem == K_INT ? 4 : real);
  case K_ARRAY: return 8 + 8 * t.rank;
  default: return 8;
  }
}

/* Whether the kernel can run F = S->tr.vthreads Quasar threads per GPU thread; F halves while the
   state kept across barriers for F threads would pass 256 bytes (64 registers). */
static bool vthreads_ok(Em *E) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  if (S->tr.vthreads < 2 || !S->cblk[0] || S->cblk[0] % S->tr.vthreads || !S->barrier || S->grid_barrier || S->divergent ||
      S->tr.coarse || S->coop || f->nouts || S->D > 3)
    return false;
  for (int i = 0; i < f->body.n; i++) {
    NodeInfo *ni = ksema_info(E->f, f->body.items[i]);
    if (ni && ni->barrier && !em_is_barrier_stmt(f->body.items[i])) return false;
  }
  int bytes = 0;
  for (int s = f->ngenerics; s < func_info(f)->nslots; s++)
    if (E->sc[s] == SC_LOCAL && !E->pphase[s]) bytes += state_bytes(S->kspec->slots[s]);
  while (S->tr.vthreads >= 2 && S->tr.vthreads * bytes > 256) S->tr.vthreads /= 2;
  return S->tr.vthreads >= 2;
}

/* ---- cooperative groups ----
   A warp collective of coalesced_threads among the lanes of the thread's warp: 32
   consecutive threads of its block in row-major order, which are CUDA's own warps (Quasar's
   last dimension runs along x; S->coop keeps one GPU thread per Quasar thread), the block's
   last warp partial. Each shuffle is __shfl_sync from the source lane the interpreter reads
   (src mod size; lane - d, lane + d, lane ^ m, or its own lane outside the warp):
   __shfl_down_sync would read an absent lane of a partial warp, and takes no negative d. */
static char *cuda_collective(Em *E, Node *n, GroupOp op, char *lin) {
  char *lane = em_tmp(E), *size = em_tmp(E), *mask = em_tmp(E);
  em_line(E, "const int32_t %s = %s, %s = %s; (void)%s;", lane, em_warp_lane(E, lin), size, em_warp_size(E, lin), lane);
  em_line(E, "const unsigned %s = %s >= 32 ? 0xffffffffu : (1u << %s) - 1u;", mask, size, size);
  if (op == G_SYNC) {
    em_line(E, "__syncwarp(%s);", mask);
    return "0";
  }
  char *v = em_ex(E, n->list.items[0]);
  KType vt = em_T(E, n->list.items[0]), r = em_T(E, n);
  if (op >= G_ALL) {
    const char *fn = op == G_ALL ? "__all_sync" : op == G_ANY ? "__any_sync" : "__ballot_sync";
    return em_sf(E, "((int32_t)%s(%s, %s))", fn, mask, em_truthy(E, v, vt));
  }
  char *d = em_sf(E, "((int32_t)(%s))", em_ex(E, n->list.items[1])), *src = em_tmp(E);
  if (op == G_SHFL) em_line(E, "int32_t %s = (%s %% %s + %s) %% %s;", src, d, size, size, size);
  else em_line(E, "int32_t %s = %s %s %s;", src, lane, op == G_SHFL_UP ? "-" : op == G_SHFL_DOWN ? "+" : "^", d);
  em_line(E, "if (%s < 0 || %s >= %s) %s = %s;", src, src, size, src, lane);
  char *t0 = em_tmp(E);
  if (vt.kind == K_VEC) {   /* component by component */
    char *vv = em_vname(E, v, vt);
    em_line(E, "%s %s;", em_ctype(E, r), t0);
    for (int k = 0; k < vt.len; k++) em_line(E, "%s.v[%d] = __shfl_sync(%s, %s.v[%d], %s, 32);", t0, k, mask, vv, k, src);
    return t0;
  }
  em_line(E, "const %s %s = __shfl_sync(%s, %s, %s, 32);", em_ctype(E, r), t0, mask, em_conv(E, v, vt, r.kind), src);
  return t0;
}

/* The threads of one launch block (its size in the key, cblk; 0 when not there). */
int64_t em_cuda_key_threads(const KSpec *S) {
  int64_t n = 1;
  for (int d = 0; d < S->D; d++) n *= S->cblk[d];
  return n;
}

/* Virtual blocks: a GPU block of virtual threads runs up to V of the launch's blocks
   (consecutive along dimension 0), each with its own pieces of shared memory (E->vb_shared
   bytes apart) and one barrier for all, when the virtual threads stay as proposed (F), the
   GPU block stays at 256 threads or fewer and the shared memory is sized: S->tr.vblocks = V, 4
   or 2 (else 1); each launch runs as many as divide its grid along dimension 0, up to V
   (plan.c plan_cuda_vblocks, OqkGrid.xf). Seed 002's transpose with 16x16 tiles runs 64 GPU
   threads per block, and blocks that small cost in the block scheduler
   (tools/transpose_variants.cu, H100: 0.905 of a memcpy, 4 tiles per GPU block 0.941). */
static void cuda_vblocks(Em *E, int F) {
  KSpec *S = E->S;
  int V = 4;
  S->tr.vblocks = 1;
  if (S->tr.vthreads < 2 || S->tr.vthreads != F || (S->facts.nshared && !S->tr.shsized)) return;
  int64_t threads = em_cuda_key_threads(S);
  size_t sh = ksema_shared_bytes(S->tr.shsize, S->facts.nshared, S->tr.shsized, S->D, S->cblk);
  while (V > 1 && (threads / F * V > 256 || sh * V > OQ_SHARED_MAX)) V /= 2;
  if (V < 2) return;
  S->tr.vblocks = V;
  E->vb_shared = sh;
  em_xform_note(S, "virtual-blocks(%s)", em_sf(E, "%d", V));
}

/* CUDA's thread and block axes; Quasar's last dimension runs along x */
const char *const em_cuda_axis[3] = {"x", "y", "z"};

/* The thread's coordinates in dimension d: T (in its block), B (the block), P (position);
   boff: the first block of this chunk of a grid beyond the device's y/z limits. */
static void thread_coords(Em *E, int d) {
  const char *a = em_cuda_axis[E->S->D - 1 - d];
  em_line(E, "const oq_ix T%d = threadIdx.%s, B%d = blockIdx.%s + P.boff[%d], P%d = B%d * b%d + T%d;", d, a, d, a, d, d,
          d, d, d);
}

/* for (_t) over the Quasar threads of this GPU thread, with their T0 and P0 (_tv: the GPU
   thread's index along dimension 0 in its virtual block) */
static void vthread_open(Em *E) {
  em_line(E, "#pragma unroll");
  em_line(E, "for (int _t = 0; _t < %d; _t++) {", E->S->tr.vthreads);
  E->ind++;
  em_line(E, "const oq_ix T0 = _tv + _t * %lld, P0 = B0 * b0 + T0; (void)P0;", (long long)(E->S->cblk[0] / E->S->tr.vthreads));
}

static void vthread_close(Em *E) {
  E->ind--;
  em_line(E, "}");
}

/* Whether some private copy is in shared memory and counted (its merge: cuda_epilogue). */
static bool any_counted(KSpec *S) {
  for (int k = 0; k < S->tr.npriv; k++)
    if (S->tr.priv_esz[k] && S->tr.priv_count[k]) return true;
  return false;
}

/* With the block size in the key, the compiler may know each thread index's bound (index
   tests of blkpos and its products fold). */
static void block_facts(Em *E) {
  KSpec *S = E->S;
  if (!S->cblk[0] || S->tr.tiled) return;
  if (S->tr.coarse && S->tr.cvec > 1) {   /* 1-D blocks of F times fewer threads, cgroups at most */
    em_line(E, "__builtin_assume(threadIdx.x < %lld);", (long long)(em_cuda_coarse_gblock(S) * (S->tr.cgroups > 1 ? S->tr.cgroups : 1)));
    return;
  }
  for (int d = 0; d < S->D; d++)   /* (one assumption per axis: NVRTC folds more than with an `if`) */
    em_line(E, "__builtin_assume(threadIdx.%s < %lld);", em_cuda_axis[S->D - 1 - d],
            (long long)(d ? S->cblk[d] : S->cblk[0] / S->tr.vthreads * (S->tr.vblocks > 1 ? S->tr.vblocks : 1)));
}

static void cuda_vthread_body(Em *E) {
  KSpec *S = E->S;
  FSpec *k = S->kspec;
  Func *f = S->kfunc;
  const char *a = em_cuda_axis[S->D - 1];
  if (S->tr.vblocks > 1) {   /* virtual block threadIdx / R of the launch's P.xf, each with its own shared pieces */
    long long R = (long long)(S->cblk[0] / S->tr.vthreads);
    em_line(E, "const oq_ix _tv = threadIdx.%s %% %lld, B0 = (blockIdx.%s + P.boff[0]) * (oq_ix)P.xf + threadIdx.%s / %lld;", a, R,
            a, a, R);
    if (S->facts.nshared) em_line(E, "size_t _shoff = threadIdx.%s / %lld * %zu;", a, R, E->vb_shared);
  } else {
    em_line(E, "const oq_ix _tv = threadIdx.%s, B0 = blockIdx.%s + P.boff[0];", a, a);
    if (S->facts.nshared) em_line(E, "size_t _shoff = 0;");
  }
  for (int d = 1; d < S->D; d++) thread_coords(E, d);
  for (int s = f->ngenerics; s < func_info(f)->nslots; s++)
    if (E->sc[s] == SC_LOCAL && E->pphase[s] != 1)
      em_line(E, E->pphase[s] ? "%s %s = {};" : "%s %s[%d] = {};", em_ctype(E, k->slots[s]), em_slot_name(E, k, s), S->tr.vthreads);
  vthread_open(E);
  em_thread_prelude(E, true);
  vthread_close(E);
  NodeList *l = &f->body;
  for (int i = 0; i < l->n;) {
    int j = em_phase_end(E, l, i);
    vthread_open(E);
    em_phase_body(E, l, i, j);
    vthread_close(E);
    if (j < l->n) em_st(E, l->items[j]);   /* a barrier statement (vthreads_ok) */
    i = j + 1;
  }
}

static int pf_collect(Em *E);

/* The arrays an element-wise kernel would load ahead (pf_collect's), counted. */
static int stream_arrays(Em *E) {
  pf_collect(E);
  int n = E->npf;
  E->npf = 0;
  return n;
}

/* Whether private copy k's merge gives what plain atomics give, in any order: integer
   elements (sums wrap alike), or counts (every update adds one constant c: float atomics then
   give f^k(y) with f(x) = x + c rounded, which is what the counted merge computes). */
static bool priv_exact(const KSpec *S, int k) {
  int a = S->tr.priv_arg[k];
  KType t = a < S->kfunc->nparams ? S->kspec->params[a] : S->caps[a - S->kfunc->nparams].type;
  return S->tr.priv_count[k] > 0 || el_is_integer(t.el);
}

/* A first build (tiers, KSpec.fast) takes the simplest schedule that computes what the
   optimized build does, since NVRTC's time grows with the code: no !kernel_tiling sweep and
   no streaming (schedules only), and no private copies when every merge is exact without
   them (the launcher leaves them out too where an array does not fit: plan_cuda_tiling).
   A flat kernel without outputs is then one GPU thread per position, its `+=` atomics on
   the array. hist_000's hist_naive (NVRTC 13.0, 2 processors): 405 lines and 276 ms as a
   privatized grid-stride loop, 232 lines and 92 ms so (docs/cuda.md, "What a first build
   leaves out"). */
static void fast_schedule(KSpec *S, bool *attr, bool *stream) {
  *attr = *stream = false;
  bool exact = true;
  for (int k = 0; k < S->tr.npriv; k++) exact = exact && priv_exact(S, k);
  if (exact) S->tr.npriv = 0;
}

void em_cuda_transforms(Em *E) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  bool flat = !S->uses_block && !S->barrier;
  bool attr = ktiling_of(f, true, &S->tr.tiling);
  S->tiling_ignored = attr && !flat;   /* blocks and barriers tie threads to positions */
  attr = attr && flat;
  char tb[80] = "";
  if (attr) ktiling_streaming(&S->tr.tiling, E->lin_slot >= 0, tb, sizeof tb);
  /* element-wise kernels (every pos an x[pos] of the launch's shape: host array expressions,
     maps) that read 3 arrays or more stream too. Measured in oq at 4096^2 on the H200
     (bench/arrayexpr/knobs.sh): the TV update u - 0.05*((u - f) - 0.2*g) went from 0.082 to
     0.056 ms (84 % of DRAM bandwidth), but the maps of 2 arrays (x .* h + 0.5*cos(x),
     max(sqrt(x.^2 + h.^2), 1e-10)) from 0.080 to 0.100 ms, for a cause not found yet: they
     keep one GPU thread per position. OQ_DEV_CUDA_STREAM=1: every such kernel, 0: none. */
  int want = config()->dev.cuda_stream;
  bool stream = E->lin_slot >= 0 && want != 0 && (want == 1 || stream_arrays(E) >= 3);
  if (S->fast) fast_schedule(S, &attr, &stream);
  S->tr.tiled = flat && (attr || f->nouts > 0 || S->tr.npriv > 0 || stream);
  S->tr.tiling_swept = attr && (S->tr.tiling.grid[0] || ktiling_box(&S->tr.tiling));
  S->tr.block_reduce = f->nouts > 0 && S->facts.nshared == 0;   /* its scratch is static shared memory */
  S->xforms[0] = 0;
  S->tr.tile_ppt = 1;
  S->tr.merge_copies = config()->dev.cuda_merge;   /* a tuning knob: copies of the counts, a power of 2 */
  /* no linear loop over the positions, but for a grid's sweep without boxes (sweep_linear);
     a first build neither (the loop over the position's digits serves every shape) */
  if (!S->tr.tiled || S->fast || (S->tr.tiling_swept && (!S->tr.tiling.grid[0] || ktiling_box(&S->tr.tiling))))
    E->lin_slot = -1;
  if (!S->tr.tiled) {
    S->tr.npriv = 0;       /* private copies need the block's merge after all its positions */
  }
  for (int k = 0; k < S->tr.npriv; k++) {
    S->tr.priv_esz[k] = em_priv_shared_esz(S, k);
    if (S->tr.priv_esz[k]) em_xform_note(S, "privatize(%s)", em_priv_name(S, k));
  }
  if (any_counted(S)) em_xform_note(S, "%s", "packed-merge");
  for (int o = 0; o < f->nouts && S->tr.block_reduce; o++) em_xform_note(S, "block-reduce(%s)", f->outs[o].name);
  if (S->tr.tiled && attr && !tb[0]) ktiling_str(&S->tr.tiling, tb, sizeof tb);
  if (S->tr.tiled) em_xform_note(S, "%s", attr ? em_sf(E, "tiling(%s)", tb) : "tiling");
  if (S->facts.nshared) em_shared_plan(E);
  S->tr.coarse = S->facts.nshared && !config()->dev.no_coarsen && em_coarsen_ok(E);
  /* a first build (tiers) must compute what the optimized one does: it drops persistent
     blocks only where they are scheduling alone, not where the blocks' float += go through
     double shadows or their counts are kept below 2^24 (tests/gpu/persistent.q counts past
     2^24: plain float atomics differ there) */
  if (S->tr.coarse && S->fast && !S->tr.ncoarse && !S->tr.coarse_inc) S->tr.coarse = false;
  if (S->tr.coarse) em_xform_note(S, "%s", "persistent-blocks");
  /* arrays the kernel only reads through the read-only cache: its loads may then be issued
     ahead of the shared atomics of earlier bodies */
  for (int i = 0; i < f->nparams && i < 32 && S->tr.coarse && !config()->dev.coarse_noldg; i++) {
    KType t = S->kspec->params[i];
    bool ro = t.kind == K_ARRAY && !t.shared && !el_is_complex(t.el) && E->sc[f->ngenerics + i] == SC_PARAM;
    if (ro && S->facts.param_read_only[i] && !(S->aliased >> i & 1)) E->ldg_params |= 1u << i;
  }
  int cvec = S->tr.cvec;   /* the launcher's proposal (plan.c, cuda_cvec) */
  S->tr.cvec = 1;
  if (S->tr.coarse && !S->fast) em_cuda_coarse_ahead(E, cvec);   /* a first build: loads in order */
  if (S->tr.coarse) em_cuda_coarse_packed(E);
  int F = S->tr.vthreads;
  if (!vthreads_ok(E)) S->tr.vthreads = 1;
  cuda_vblocks(E, F);
  E->phases = S->tr.vthreads > 1 || S->tr.cvec > 1;   /* locals live across a barrier: an array per GPU thread */
  if (S->tr.cvec > 1) {   /* Quasar thread F g + t: its index is no array of digits' sums (registers) */
    em_thread_consts(E, em_sf(E, "((int32_t)(_g * %d + _t))", S->tr.cvec), em_block_threads(E));
  }
  if (S->tr.vthreads > 1) em_xform_note(S, "virtual-threads(%s)", em_sf(E, "%d", S->tr.vthreads));
  if (S->fast) S->tr.rows = 1;   /* a first build: one row per thread (rows are a schedule) */
  if (S->tr.rows > 1 && (S->D != 2 || !flat || S->coop || S->tr.tiled || S->tr.coarse || S->tr.vthreads > 1 ||
                         S->facts.nshared || S->tr.grid_stride))
    S->tr.rows = 1;
  if (S->tr.rows > 1) em_xform_note(S, "rows(%s)", em_sf(E, "%d", S->tr.rows));
}

/* ---- digits of a position, stepped by a stride with carries ----
   The tiled loop, the tile sweep and grid-stride persistent blocks walk a row-major space
   (extent radix<d> of dimension d, "n%d", "_V%d", "c%d") S at a time: digits _x of the
   start q, and _s of the stride w (NULL: none), last dimension fastest. */
void em_cuda_stride_digits(Em *E, int D, const char *radix, const char *q, const char *w) {
  em_line(E, w ? "{ oq_ix _q = %s, _w = %s;" : "{ oq_ix _q = %s;", q, w);
  for (int d = D - 1; d >= 0; d--) {
    char *r = em_sf(E, radix, d);
    if (w) em_line(E, "  _x[%d] = _q %% %s; _q /= %s; _s[%d] = _w %% %s; _w /= %s;", d, r, r, d, r, r);
    else em_line(E, "  _x[%d] = _q %% %s; _q /= %s;", d, r, r);
  }
  em_line(E, "}");
}

/* _x advanced by the stride _s, with carries (in its own scope: it may come twice). lb: also
   the row-major offset _lb, by _D (the stride's) and, where digit d wraps, _W<d> (one more of
   digit d - 1, c<d> fewer of d): additions where products of every digit were. Digit 0 then
   does not wrap: past its radix the position is past the launch's end, never run. */
void em_cuda_stride_step(Em *E, int D, const char *radix, bool lb) {
  em_line(E, lb ? "{ int _cy = 0; _lb += _D;" : "{ int _cy = 0;");
  for (int d = D - 1; d >= 0; d--) {
    char *r = em_sf(E, radix, d);
    if (lb && d == 0) em_line(E, "  _x[0] += _s[0] + _cy;");
    else if (lb) em_line(E, "  _x[%d] += _s[%d] + _cy; _cy = _x[%d] >= %s; if (_cy) { _x[%d] -= %s; _lb += _W%d; }", d, d, d, r, d, r, d);
    else em_line(E, "  _x[%d] += _s[%d] + _cy; _cy = _x[%d] >= %s; if (_cy) _x[%d] -= %s;", d, d, d, r, d, r);
  }
  em_line(E, "}");
}

/* ---- the CUDA dialect ---- */

/* ---- syncthreads(grid) over any number of blocks ----
   When every grid barrier is a statement of the kernel body itself and nothing but the
   thread's position carries over one (no local, output or shared array lives across it), the
   kernel runs as phases between the grid barriers: in each, the resident blocks loop over the
   launch's blocks (vb), and every Quasar thread starts the phase afresh. The launcher then
   starts only as many blocks as fit (rt_gpu.c). */

/* A statement of the kernel's body that holds a grid barrier (kernel_sema's NodeInfo). */
static bool holds_grid_barrier(Em *E, Node *n) {
  NodeInfo *ni = ksema_info(E->S->kspec, n);
  return ni && ni->grid_barrier;
}

static bool grid_stride_ok(Em *E) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  if (!S->grid_barrier || S->facts.nshared || f->nouts) return false;
  for (int i = 0; i < f->body.n; i++) {
    Node *n = f->body.items[i];
    if (holds_grid_barrier(E, n) && !em_is_barrier_stmt(n)) return false;
  }
  int nslots = func_info(f)->nslots, first = f->ngenerics + f->nparams + f->nouts;
  for (int s = f->ngenerics; s < first; s++)
    if (E->sc[s] == SC_LOCAL) return false;   /* an assigned parameter */
  unsigned char *bad = calloc(nslots + 1, 1);
  em_phase_scan(E, &f->body, bad, first, nslots);
  bool ok = true;
  for (int s = first; s < nslots && ok; s++) ok = E->sc[s] != SC_LOCAL || !bad[s];
  free(bad);
  return ok;
}

/* Statements from..to-1 of the body for every thread of blocks vb of this phase. */
static void grid_phase(Em *E, int from, int to) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  em_line(E, "for (oq_ix vb = blockIdx.x; vb < nvb; vb += gridDim.x) {");
  E->ind++;
  em_line(E, "oq_ix r_ = vb; (void)r_;");
  for (int d = S->D - 1; d >= 0; d--)
    em_line(E, "const oq_ix B%d = r_ %% c%d, P%d = B%d * b%d + T%d; r_ /= c%d; (void)P%d;", d, d, d, d, d, d, d, d);
  em_thread_prelude(E, true);
  em_line(E, "{");
  E->ind++;
  for (int i = from; i < to; i++) em_st(E, f->body.items[i]);
  E->ind--;
  em_line(E, "}");
  E->ind--;
  em_line(E, "}");
}

static void emit_grid_stride(Em *E) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  for (int d = 0; d < S->D; d++) em_line(E, "const oq_ix T%d = threadIdx.%s;", d, em_cuda_axis[S->D - 1 - d]);
  Buf nvb = {0};
  for (int d = 0; d < S->D; d++) em_bprintf(&nvb, "%sc%d", d ? " * " : "", d);
  em_line(E, "const oq_ix nvb = %s;", nvb.s);
  free(nvb.s);
  int from = 0;
  for (int i = 0; i <= f->body.n; i++) {
    if (i < f->body.n && !holds_grid_barrier(E, f->body.items[i])) continue;
    grid_phase(E, from, i);
    if (i < f->body.n) em_st(E, f->body.items[i]);   /* the grid barrier */
    from = i + 1;
  }
}

/* The kernel as one extern "C" __global__ entry: each GPU thread is one Quasar thread of the
   launch's blocks (P.blk: the oracle's, or the launcher's choice for kernels that do not see
   blocks). Quasar's last dimension runs on x, the one before on y, then z. Threads outside
   the data do nothing (no barriers here). Kernel outputs: each thread combines its value into
   W->out_* atomically. The launch (sizes and arguments) comes by value in the kernel's
   parameter space (OqkGrid, laid out as rt_gpu.c fills it); L is only the launch's error
   record in device memory. */
/* The entry's signature: the launch (sizes and arguments) by value in the parameter space:
   OqkGridHead, then per argument only what the kernel reads, as rt_gpu.c packs it
   (cuda_arg_words): a small parameter block launches faster than one of whole OqkArgs. */
static void entry_header(Em *E, Buf *body) {
  KSpec *S = E->S;
  em_bputs(body, "struct OqkGrid : OqkGridHead {\n");
  for (int i = 0; i < S->kfunc->nparams + S->ncaps; i++) {
    int w = cuda_arg_words(S, i);
    KType t = i < S->kfunc->nparams ? S->kspec->params[i] : S->caps[i - S->kfunc->nparams].type;
    if (!w) continue;
    if (t.kind == K_ARRAY) em_bprintf(body, "  struct { void *data; int64_t i, dims[%d]; } a%d;\n", w - 2, i);
    else if (t.kind == K_VEC) em_bprintf(body, "  struct { double v[%d]; } a%d;\n", w, i);
    else if (t.kind == K_CPLX) em_bprintf(body, "  struct { double re, im; } a%d;\n", i);
    else if (t.kind == K_REAL) em_bprintf(body, "  struct { double re; } a%d;\n", i);
    else em_bprintf(body, "  struct { int64_t i; } a%d;\n", i);
  }
  em_bputs(body, "};\n");
  em_bputs(body, "extern \"C\" __global__ void oqk_entry(const __grid_constant__ OqkGrid P, OqkLaunch *L, OqkWorker *W) {\n");
}

/* The reads the rows load first (em_rows_ahead_read), one node per array and offset
   (E->rahead), at most 8: none where device functions run (they may write anything). */
static void rows_ahead_walk(Em *E, Node *n) {
  if (!n || n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return;
  int p;
  int64_t c[OQ_MAX_RANK];
  if (em_rows_ahead_read(E, n, &p, c)) {   /* (its indices hold no other read) */
    if (E->nrahead < 8 && em_rows_ahead_find(E, p, c) < 0) {
      RowRead *r = &E->rahead[E->nrahead++];
      *r = (RowRead){.n = n, .param = p};
      memcpy(r->c, c, sizeof r->c);
    }
    return;
  }
  for (AstKids it = ast_kids(n); it.node; ast_next(&it)) rows_ahead_walk(E, it.node);
}

/* Opens the loop over the thread's rows with row _w's coordinates P0. `inside`: a thread
   whose rows are all inside the launch and consecutive (b0 == 1, rows_inside_flag), so the
   rows need no test and row _w + 1's x[pos] is row _w's x[pos + [1, 0]] (NVRTC loads it once). */
static void rows_open(Em *E, bool inside) {
  int R = E->S->tr.rows;
  em_line(E, "#pragma unroll");
  em_line(E, "for (int _w = 0; _w < %d; _w++) {", R);
  E->ind++;
  if (inside) em_line(E, "const oq_ix T0 = 0, B0 = (blockIdx.y + P.boff[0]) * %d + _w, P0 = B0; (void)T0;", R);
  else em_line(E, "const oq_ix T0 = threadIdx.y, B0 = (blockIdx.y + P.boff[0]) * %d + _w, P0 = B0 * b0 + T0;", R);
  em_line(E, inside ? "{" : "if (P0 < n0 && P1 < n1) {");
  E->ind++;
}

static void rows_close(Em *E) {
  E->ind--;
  em_line(E, "}");
  E->ind--;
  em_line(E, "}");
}

/* The tests that every read loaded ahead is inside its array for all the thread's rows, from
   _p0 (its first row) to _p1 (its last; P1 is the same for all): per array, the least offset
   along dimension 0 at _p0, the greatest at _p1, both ends of the others at P1 (the ones
   between follow). */
static void rows_inside_tests(Em *E, int nra, Buf *t) {
  for (int j = 0; j < nra; j++) {
    const RowRead *r = &E->rahead[j];
    bool seen = false;
    for (int i = 0; i < j; i++) seen |= E->rahead[i].param == r->param;
    if (seen) continue;   /* one test set per array, at its first read */
    int64_t lo[OQ_MAX_RANK], hi[OQ_MAX_RANK];
    memcpy(lo, r->c, sizeof lo);
    memcpy(hi, r->c, sizeof hi);
    for (int i = j + 1; i < nra; i++)
      for (int d = 0; d < E->S->D && E->rahead[i].param == r->param; d++) {
        if (E->rahead[i].c[d] < lo[d]) lo[d] = E->rahead[i].c[d];
        if (E->rahead[i].c[d] > hi[d]) hi[d] = E->rahead[i].c[d];
      }
    char *name;
    PosOff o;
    em_fast_access(E, r->n, &o, &name);
    em_bprintf(t, " && _p0 + (%lld) >= 0 && _p1 + (%lld) < %s.d[0]", (long long)lo[0], (long long)hi[0], name);
    for (int d = 1; d < E->S->D; d++)
      for (int end = 0; end < (lo[d] == hi[d] ? 1 : 2); end++)
        em_bprintf(t, " && (uint64_t)(P%d + (%lld)) < (uint64_t)%s.d[%d]", d, (long long)(end ? hi[d] : lo[d]), name, d);
  }
}

/* The flag of a thread whose rows are all inside the launch, consecutive (b0 == 1), and
   whose reads loaded ahead are all inside their arrays; NULL in a first build (smaller). Such
   a thread reads them without their boundary rules (E->row_fast) and runs its rows without
   tests: clamping each index of a stencil, and each row's tests, cost more instructions than
   its arithmetic (the TV kernel of bench/arrayexpr, 4096^2: 87 per position, 28 of them
   float). */
static const char *rows_inside_flag(Em *E, int nra) {
  if (E->S->fast || !nra) return NULL;
  int R = E->S->tr.rows;
  Buf tests = {0};
  rows_inside_tests(E, nra, &tests);
  const char *in = em_tmp(E);
  em_line(E, "bool %s = b0 == 1;", in);
  em_line(E, "if (%s) { const oq_ix _p0 = (blockIdx.y + P.boff[0]) * %d, _p1 = _p0 + %d; %s = _p1 < n0 && P1 < n1%s; }", in, R,
          R - 1, in, tests.s);
  free(tests.s);
  return in;
}

/* each(E, fast, nra) in the loop over the thread's rows: with `in`, a copy for the threads
   it holds (fast: rows_open's form for them) and one for the others; else one for all. */
static void rows_split(Em *E, const char *in, int nra, void (*each)(Em *E, bool fast, int nra)) {
  for (int fast = in ? 1 : 0; fast >= 0; fast--) {
    if (in) em_line(E, fast ? "if (%s) {" : "} else {", in);
    E->ind += in != NULL;
    rows_open(E, fast);
    each(E, fast, nra);
    rows_close(E);
    E->ind -= in != NULL;
  }
  if (in) em_line(E, "}");
}

/* A row's nra reads loaded ahead into _raJ[_w] (fast: without their boundary rules). */
static void rows_ahead_loads(Em *E, bool fast, int nra) {
  em_thread_prelude(E, false);
  E->row_fast = fast;
  for (int j = 0; j < nra; j++) em_line(E, "_ra%d[_w] = %s;", j, em_index_read(E, E->rahead[j].n));
  E->row_fast = false;
}

static void rows_position(Em *E, bool fast, int nra) {
  (void)nra;
  cuda_one_position(E, fast ? "_nextin" : "_next");
}

/* Rows (S->tr.rows = R, a flat 2-D kernel): GPU thread row r of the grid runs the rows of
   blocks R r .. R r + R - 1 (plan_cuda_dims divides the grid's y by R), one after the other.
   The x[pos] of arrays nothing writes are loaded for all R rows first: the body's stores
   would otherwise keep each row's loads behind the previous row's store (the compiler
   cannot tell they do not overlap), one row's latency after another. */
static void cuda_rows_body(Em *E) {
  int R = E->S->tr.rows;
  thread_coords(E, 1);
  E->nrahead = 0;
  for (int i = 0; i < E->S->kfunc->body.n && E->nreach <= 1 && !config()->dev.cuda_no_ahead; i++)
    rows_ahead_walk(E, E->S->kfunc->body.items[i]);
  int nra = E->nrahead;
  E->nrahead = 0;   /* the loads themselves */
  for (int j = 0; j < nra; j++) em_line(E, "%s _ra%d[%d];", em_ctype(E, em_T(E, E->rahead[j].n)), j, R);
  const char *in = rows_inside_flag(E, nra);
  if (nra) rows_split(E, in, nra, rows_ahead_loads);
  E->nrahead = nra;
  rows_split(E, in, nra, rows_position);
  E->nrahead = 0;
}

/* One GPU thread per Quasar thread of the launch's blocks: Quasar's last dimension runs on
   x, the one before on y, then z. Threads outside the data do nothing unless there are
   barriers or warp collectives (then they must reach them, as in the interpreter). */
static void cuda_thread_body(Em *E) {
  KSpec *S = E->S;
  int D = S->D;
  if (S->tr.rows > 1) {
    cuda_rows_body(E);
    return;
  }
  for (int d = 0; d < D; d++) thread_coords(E, d);
  if (S->facts.nshared) em_line(E, "size_t _shoff = 0;");
  Buf in = {0};
  for (int d = 0; d < D && !S->barrier && !S->coop; d++) em_bprintf(&in, " && P%d < n%d", d, d);
  em_line(E, "if (1%s) {", in.s ? in.s : "");
  free(in.s);
  E->ind++;
  cuda_one_position(E, "_next");
  E->ind--;
  em_line(E, "}");
}

/* The body for the current position, in its own scope: `return` jumps past its
   declarations (C++ forbids jumping into their scope); then its outputs are combined. */
static void cuda_one_position(Em *E, const char *label) {
  if (E->lbl_tag) label = em_sf(E, "%s%s", label, E->lbl_tag);
  E->ret_label = label;
  E->has_return = false;
  em_thread_prelude(E, true);
  em_line(E, "{");
  E->ind++;
  em_block(E, &E->S->kfunc->body);
  /* OQ_DEV_CUDA_BREAK=1: a line NVRTC rejects, after the last statement, so that tests can see
     how a failed compile is reported (tests/run.sh) */
  if (config()->dev.cuda_break == 1 || (config()->dev.cuda_break == 2 && !E->S->fast))
    em_line(E, "oq_no_such_function();");
  E->ind--;
  em_line(E, "}");
  if (E->has_return) em_line(E, "%s: ;", label);
  em_thread_outputs(E);
}

/* ---- loads ahead ----
   One load in flight per thread leaves HBM idle: the linear loop takes U positions at a time
   and first loads, for all U, the elements x[pos] of the arrays the kernel reads that way and
   never writes (so no update of this thread can change them; other threads' order is free). */

/* The reads to load ahead: of the linear loop, x[pos] as element _r (pf_arr); of persistent
   blocks (at_pos), x[pos] nodes (ahead). Only of arrays the kernel never writes. */
void em_cuda_pf_walk(Em *E, Node *n, bool at_pos) {
  if (!n) return;
  bool lin = !at_pos && em_pos_index(E, n, E->lin_slot);
  if ((lin || (at_pos && em_at_pos(E, n))) && n->a->kind == N_IDENT) {
    NodeInfo *bi = ksema_info(E->f, n->a);
    bool written = kfacts_stored(E->S, n->a);
    char *name = em_ex_ident(E, n->a);
    if (at_pos && !written && E->nahead < 4) E->ahead[E->nahead++] = n;
    else if (lin && bi && bi->t.kind == K_ARRAY && !written && !em_prefetched(E, name) && E->npf < 4) {
      E->pf_arr[E->npf] = name;
      E->pf_el[E->npf++] = bi->t.el;
    }
  }
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return;
  for (AstKids it = ast_kids(n); it.node; ast_next(&it)) em_cuda_pf_walk(E, it.node, at_pos);
}

/* The vector type of V elements el (8 or 16 bytes: one load), or NULL. */
static const char *pf_vec_type(ElemType el, int V) {
  static const struct { ElemType el; int V; const char *t; } m[] = {
    {EL_F32, 2, "float2"}, {EL_F32, 4, "float4"}, {EL_I32, 2, "int2"}, {EL_I32, 4, "int4"}, {EL_F64, 2, "double2"},
  };
  for (size_t i = 0; i < sizeof m / sizeof *m; i++)
    if (m[i].el == el && m[i].V == V) return m[i].t;
  return NULL;
}

/* Elements per vector load: 16 bytes of the widest array loaded ahead, when every such
   array has a vector type of that many elements; else 1. */
static int pf_width(Em *E) {
  size_t w = 0;
  for (int j = 0; j < E->npf; j++) w = el_size(E->pf_el[j]) > w ? el_size(E->pf_el[j]) : w;
  int V = w == 4 || w == 8 ? (int)(16 / w) : 1;
  for (int j = 0; j < E->npf && V > 1; j++)
    if (!pf_vec_type(E->pf_el[j], V)) V = 1;
  return V;
}

/* The load of vector i of array j (V elements) of the step at element base. */
static char *pf_load(Em *E, int j, int i, int V, const char *base) {
  const char *vt = pf_vec_type(E->pf_el[j], V);
  return em_sf(E, "*(const %s *)(%s.p + %s + %d * _st)", vt, E->pf_arr[j], base, i * V);
}

/* The n positions of a step of the linear loop (V elements per vector). */
static void pf_positions(Em *E, int n, int V, const char *label) {
  for (int k = 0; k < n; k++) {
    em_line(E, "{");
    E->ind++;
    em_line(E, "const int64_t _r = _rb + %d * _st + %d;", k / V * V, k % V);
    E->pf_k = k;
    cuda_one_position(E, em_sf(E, "%s%d", label, k));
    E->ind--;
    em_line(E, "}");
  }
}

/* One step of the linear loop from element _rb: m loads of V elements per array (vector i
   at _rb + i * V * _st), then the m * V positions, element e of vector i being
   _rb + i * V * _st + e (a `return` there jumps to label<e>). pipe: the vectors were loaded into _qn by the step before, and
   this step loads the next one's (up to _nv) before its positions, so that loads stay in
   flight while the positions run. */
static void pf_step(Em *E, int V, int m, int pipe, const char *label) {
  for (int j = 0; j < E->npf; j++) {
    const char *ct = em_el_ctype(E->pf_el[j]);
    for (int i = 0; i < m; i++) {
      if (V == 1) {
        em_line(E, "const %s _pf%d_%d = %s.p[_rb + %d * _st];", ct, j, i, E->pf_arr[j], i);
        continue;
      }
      const char *vt = pf_vec_type(E->pf_el[j], V);
      em_line(E, "const %s _pv%d_%d = %s;", vt, j, i, pipe ? em_sf(E, "_qn%d_%d", j, i) : pf_load(E, j, i, V, "_rb"));
      for (int e = 0; e < V; e++) em_line(E, "const %s _pf%d_%d = _pv%d_%d.%c;", ct, j, i * V + e, j, i, "xyzw"[e]);
    }
  }
  if (pipe) {
    em_line(E, "if (_rb + %d * _st < _nv) {", m * V);
    for (int j = 0; j < E->npf; j++)
      for (int i = 0; i < m; i++) em_line(E, "  _qn%d_%d = %s;", j, i, pf_load(E, j, i, V, em_sf(E, "_rb + %d * _st", m * V)));
    em_line(E, "}");
  }
  /* 'checked indexes of the step's positions set _bad instead of a branch each (their
     accesses are guarded); a step that failed runs its positions again with the branches,
     which report the index: the launch fails, so what the second run adds does not matter
     (measured: the branches cost hist_naive's loop 1-1.5 % of the read pass) */
  bool defer = m * V > 1;
  if (defer) {
    em_line(E, "bool _bad = false;");
    E->defer_bad = "_bad";
    E->ndefer = 0;
  }
  pf_positions(E, m * V, V, label);
  E->defer_bad = NULL;
  if (defer && E->ndefer) {
    em_line(E, "if (__builtin_expect(_bad, 0)) {");
    E->ind++;
    for (int j = 0; j < E->npf; j++)   /* loaded again (arrays nobody writes): fewer registers */
      for (int k = 0; k < m * V; k++)
        em_line(E, "const %s _pf%d_%d = %s.p[_rb + %d * _st + %d];", em_el_ctype(E->pf_el[j]), j, k, E->pf_arr[j],
                k / V * V, k % V);
    pf_positions(E, m * V, V, em_sf(E, "%s_bad", label));
    E->ind--;
    em_line(E, "}");
  }
}

/* The arrays of the linear loop to load ahead (E->npf) and the positions per step U; 0
   when none (device functions may write anything). */
static int pf_collect(Em *E) {
  E->npf = 0;
  if (E->nreach > 1) return 0;
  for (int i = 0; i < E->S->kfunc->body.n; i++) em_cuda_pf_walk(E, E->S->kfunc->body.items[i], false);
  if (!E->npf) return 0;
  /* a kernel tiled only as element-wise (em_cuda_transforms' stream: no outputs, no private
     copies, no !kernel_tiling) takes 4 positions a step: at 16, the map of bench/arrayexpr
     held 64 registers, half the H200's threads, and ran at 48 % of a copy's bandwidth */
  KTiling attr;
  bool stream = E->S->kfunc->nouts == 0 && E->S->tr.npriv == 0 && !ktiling_of(E->S->kfunc, true, &attr);
  int U = E->npf <= 2 && !stream ? 16 : 4;
  if (config()->dev.cuda_unroll) U = config()->dev.cuda_unroll;   /* a tuning knob: positions per step */
  if (E->S->fast) U = 1;   /* a first build: NVRTC took 2.7x as long on hist_000's loop at 16 */
  return U;
}

/* The linear loop U positions at a time, their elements loaded first, V at once (vector
   loads, when every such array is aligned for them): while the whole grid has U positions
   per thread left (_nv), thread t takes V consecutive elements at V * t + i * V * _st; then
   single vectors up to the last whole vector (_nq); _r ends at the first position left for
   the loop after it. Device functions may write anything: then none. */
static void cuda_unrolled(Em *E) {
  int U = pf_collect(E);
  if (!U) return;
  int V = pf_width(E);
  if (U % V) V = 1;
  if (U == 1) {
    E->npf = 0;
    return;
  }
  E->S->tr.tile_ppt = V > 1 ? U : 1;
  if (V > 1) em_xform_note(E->S, "%s", V == 4 ? "vector-loads(4)" : "vector-loads(2)");
  Buf al = {0};
  for (int j = 0; j < E->npf && V > 1; j++)
    em_bprintf(&al, " && ((size_t)%s.p & %zu) == 0", E->pf_arr[j], V * el_size(E->pf_el[j]) - 1);
  em_line(E, "const bool _va = 1%s;", al.s ? al.s : "");
  free(al.s);
  em_line(E, "const int64_t _nv = _va ? _np / (%d * _st) * (%d * _st) : 0, _nq = _va ? _np / %d * %d : 0;", U, U, V, V);
  em_line(E, "int64_t _rb = %d * _r;", V);
  /* vectors loaded a step ahead while at most 4 per step (registers); OQ_DEV_CUDA_PIPE=0|1: a tuning knob */
  int pipe = V > 1 && (config()->dev.cuda_pipe >= 0 ? config()->dev.cuda_pipe : E->npf * (U / V) <= 4);
  for (int j = 0; j < E->npf && pipe; j++)
    for (int i = 0; i < U / V; i++)
      em_line(E, "%s _qn%d_%d = _rb < _nv ? %s : %s{};", pf_vec_type(E->pf_el[j], V), j, i, pf_load(E, j, i, V, "_rb"),
              pf_vec_type(E->pf_el[j], V));
  em_line(E, "for (; _rb < _nv; _rb += %d * _st) {", U);
  E->ind++;
  pf_step(E, V, U / V, pipe, "_nextu");
  E->ind--;
  em_line(E, "}");
  if (V > 1) {
    em_line(E, "for (; _rb < _nq; _rb += %d * _st) {", V);
    E->ind++;
    pf_step(E, V, 1, 0, "_nextv");
    E->ind--;
    em_line(E, "}");
  }
  em_line(E, "_r += %s;", V > 1 ? "_nq" : "_nv");
  E->npf = 0;
}

/* Tiling: thread r of the grid runs positions r, r + S, r + 2S... (S the grid's threads), so
   consecutive threads read consecutive elements. The linear positions stay int64 under
   idx32 (measured: 1 % slower in int32, the addresses then extend each step's offset).
   When the arrays x[pos] reads have the launch's shape, pos is the linear index _r;
   otherwise its digits are carried along. */
static void cuda_tiled_body(Em *E) {
  KSpec *S = E->S;
  int D = S->D;
  Buf np = {0};
  em_bputs(&np, "(int64_t)1");
  for (int d = 0; d < D; d++) em_bprintf(&np, " * n%d", d);
  em_line(E, "const int64_t _np = %s, _st = (int64_t)gridDim.x * blockDim.x;", np.s);
  free(np.s);
  em_line(E, "int64_t _r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;");
  if (E->lin_slot >= 0) {
    em_line(E, "if (1%s) {", E->lin_test.s ? E->lin_test.s : "");
    E->ind++;
    E->lin = true;
    cuda_unrolled(E);
    em_line(E, "for (; _r < _np; _r += _st) {");
    E->ind++;
    cuda_one_position(E, "_nextl");
    E->ind--;
    em_line(E, "}");
    E->lin = false;
    E->ind--;
    em_line(E, "}");
    free(E->lin_test.s);
    E->lin_test = (Buf){0};
  }
  /* the position's digits (last dimension fastest) and the stride's, added with carries */
  em_line(E, "oq_ix _x[%d], _s[%d];", D, D);
  em_cuda_stride_digits(E, D, "n%d", "_r < _np ? _r : 0", "_st");
  em_line(E, "for (; _r < _np; _r += _st) {");
  E->ind++;
  for (int d = 0; d < D; d++) em_line(E, "const oq_ix P%d = _x[%d];", d, d);
  cuda_one_position(E, "_next");
  em_cuda_stride_step(E, D, "n%d", false);
  E->ind--;
  em_line(E, "}");
}

/* !kernel_tiling (kernel_tiling.c) with a grid or a box: the launch's extents, padded to 3
   with 1s, are cut into boxes of L positions (local mode; 1x1x1 without it), V per
   dimension. With grid dims G (global mode) thread t of the G threads runs box t of every
   tile of G boxes, the tiles in row-major order from the origin's; local mode alone runs
   one thread per box (G = V, one tile); global auto with a box runs the boxes as the plain
   tiled loop runs positions (thread r: boxes r, r + S, ...). Every position of a box
   that lies inside the launch runs the body. */
static void sweep_box(Em *E) {
  const int64_t *L = E->S->tr.tiling.box;
  for (int d = 0; d < 3; d++)
    if (L[d] > 1) em_line(E, "%sfor (oq_ix _l%d = 0; _l%d < %lld; _l%d++)", d ? "  " : "", d, d, (long long)L[d], d);
  em_line(E, "{");
  E->ind++;
  Buf in = {0};
  for (int d = 0; d < E->S->D; d++) {
    em_line(E, "const oq_ix P%d = (oq_ix)(_B%d * %lld%s);", d, d, (long long)L[d], L[d] > 1 ? em_sf(E, " + _l%d", d) : "");
    em_bprintf(&in, " && P%d < n%d", d, d);
  }
  em_line(E, "if (1%s) {", in.s);
  free(in.s);
  E->ind++;
  cuda_one_position(E, "_nexts");
  E->ind--;
  em_line(E, "}");
  E->ind--;
  em_line(E, "}");
}

/* The next tile's box of this thread (_B<u>_d, _ok<u>: inside the launch), digits advanced. */
static void sweep_next_box(Em *E, const char *u) {
  em_line(E, "const oq_ix _B0%s = _q0 * _G0 + _t0, _B1%s = _q1 * _G1 + _t1, _B2%s = _q2 * _G2 + _t2;", u, u, u);
  em_line(E, "const bool _ok%s = _B0%s < _V0 && _B1%s < _V1 && _B2%s < _V2; (void)_B1%s; (void)_B2%s;", u, u, u, u, u, u);
  em_line(E, "if (++_q2 == _Q2) { _q2 = 0; if (++_q1 == _Q1) { _q1 = 0; ++_q0; } }");
}

/* The launch's extent d as the sweep's row-major stride factor (1 past the launch's rank). */
static const char *sweep_n(Em *E, int d) {
  return d < E->S->D ? em_sf(E, "n%d", d) : "(oq_ix)1";
}

/* In sweep_linear: the thread's position in its next tile (_b digits, from the tile digits
   _q at the start) and its row-major element _rr, stepped by additions: a tile further
   adds G2; a wrap of a digit takes its span (W = Q G) off and steps the next digit. */
static void sweep_lin_start(Em *E) {
  em_line(E, "const oq_ix _W0 = _Q0 * _G0, _W1 = _Q1 * _G1, _W2 = _Q2 * _G2; (void)_W0;");
  em_line(E, "oq_ix _b0 = _q0 * _G0 + _t0, _b1 = _q1 * _G1 + _t1, _b2 = _q2 * _G2 + _t2;");
  em_line(E, "oq_ix _rr = (_b0 * %s + _b1) * %s + _b2;", sweep_n(E, 1), sweep_n(E, 2));
  em_line(E, "const oq_ix _d1 = _G1 * %s - _W2, _d0 = (_G0 * %s - _W1) * %s;", sweep_n(E, 2), sweep_n(E, 1), sweep_n(E, 2));
}

static void sweep_lin_next(Em *E, int k) {
  em_line(E, "const bool _ok_%d = _b0 < _V0 && _b1 < _V1 && _b2 < _V2;", k);
  em_line(E, "const oq_ix _r_%d = _ok_%d ? _rr : 0;", k, k);
  em_line(E, "_b2 += _G2; _rr += _G2;");
  em_line(E, "if (_b2 >= _W2) { _b2 -= _W2; _b1 += _G1; _rr += _d1; if (_b1 >= _W1) { _b1 -= _W1; _b0 += _G0; _rr += _d0; } }");
}

/* The column lengths n2 that sweep_columns runs whole (a case each of a switch). */
enum { SWEEP_COL_MIN = 2, SWEEP_COL_MAX = 4 };

/* Tiles one deep in the last of 3 dimensions (G2 == 1): a thread's tiles along it are a
   column of n2 consecutive elements, all inside the launch or none, and every tile of its
   run up to the column's end is the next element (_b2 stays 0). For n2 == N (a constant
   here: no test per element), C columns whole (_k >= C * N tiles left, from a column's
   start) run per step: their validity and first element (_r_c) once per column, by
   additions when no column of the step wraps dimension 1 (the usual case: a wrap every
   Q1 columns), else column by column; then the C * N loads, then the bodies in tile
   order. Seed 000's hist_auto (n2 = 3) ran 182M warp instructions with the per-tile steps,
   78.8M so (docs/cuda.md). */
static void sweep_columns(Em *E, int C, int N) {
  em_line(E, "for (; _k >= %d; _k -= %d) {", C * N, C * N);
  E->ind++;
  for (int c = 0; c < C; c++) em_line(E, "bool _ok_%d; oq_ix _r_%d;", c, c);
  em_line(E, "if (_b1 + %d * _G1 < _W1) {", C - 1);
  for (int c = 0; c < C; c++) {
    em_line(E, "  _ok_%d = _b0 < _V0 && _b1 + %d * _G1 < _V1;", c, c);
    em_line(E, "  _r_%d = _ok_%d ? _rr + %d * _dc : 0;", c, c, c);
  }
  em_line(E, "  _b1 += %d * _G1; _rr += %d * _dc;", C, C);
  em_line(E, "  if (_b1 >= _W1) { _b1 -= _W1; _b0 += _G0; _rr += _d0; }");
  em_line(E, "} else {");
  for (int c = 0; c < C; c++) {
    em_line(E, "  _ok_%d = _b0 < _V0 && _b1 < _V1; _r_%d = _ok_%d ? _rr : 0;", c, c, c);
    em_line(E, "  _b1 += _G1; _rr += _dc;");
    em_line(E, "  if (_b1 >= _W1) { _b1 -= _W1; _b0 += _G0; _rr += _d0; }");
  }
  em_line(E, "}");
  for (int j = 0; j < E->npf; j++)
    for (int k = 0; k < C * N; k++)
      em_line(E, "const %s _pf%d_%d = %s.p[_r_%d + %d];", em_el_ctype(E->pf_el[j]), j, k, E->pf_arr[j], k / N, k % N);
  for (int c = 0; c < C; c++) {
    em_line(E, "if (_ok_%d) {", c);
    E->ind++;
    for (int k = c * N; k < (c + 1) * N; k++) {
      em_line(E, "{");
      E->ind++;
      em_line(E, "const oq_ix _r = _r_%d + %d;", c, k % N);
      E->pf_k = k;
      cuda_one_position(E, em_sf(E, "_nextc%d_%d", N, k));
      E->ind--;
      em_line(E, "}");
    }
    E->ind--;
    em_line(E, "}");
  }
  E->ind--;
  em_line(E, "}");
}

/* sweep_linear's loop of u tiles per step while cond holds: their elements first
   (sweep_lin_next), then for u > 1 the elements of the arrays loaded ahead, then the u
   positions as element _r. */
static void sweep_lin_loop(Em *E, int u, const char *cond) {
  em_line(E, "for (; _k >= %d%s; _k -= %d) {", u, cond, u);
  E->ind++;
  for (int k = 0; k < u; k++) sweep_lin_next(E, k);
  for (int j = 0; j < E->npf && u > 1; j++)
    for (int k = 0; k < u; k++)
      em_line(E, "const %s _pf%d_%d = %s.p[_r_%d];", em_el_ctype(E->pf_el[j]), j, k, E->pf_arr[j], k);
  int npf = E->npf;
  if (u == 1) E->npf = 0;
  for (int k = 0; k < u; k++) {
    em_line(E, "if (_ok_%d) {", k);
    E->ind++;
    em_line(E, "const oq_ix _r = _r_%d;", k);
    E->pf_k = k;
    cuda_one_position(E, em_sf(E, "_nextl%d_%d%s", u, k, *cond ? "h" : ""));
    E->ind--;
    em_line(E, "}");
  }
  E->npf = npf;
  E->ind--;
  em_line(E, "}");
}

/* A grid without boxes whose arrays x[pos] have the launch's shape (E->lin_test): U tiles
   per step (sweep_lin_loop), the elements of the arrays loaded ahead (pf_collect) loaded
   for all U first; the tiles left, one at a time. With G2 == 1 in 3 dimensions and n2
   from SWEEP_COL_MIN to SWEEP_COL_MAX, whole columns instead (sweep_columns, about U tiles
   per step), from the first column's start on (the tiles before it one at a time). The
   loops of the columns stay outside the others: the values each keeps for all its steps
   (c * _dc...) then live in it alone (inside a loop of all tiles they took 14 more
   registers per thread). */
static void sweep_linear(Em *E) {
  int U = pf_collect(E);
  bool cols = E->S->D == 3 && E->S->tr.tiling.grid[2] == 1 && U > 1;
  em_line(E, "if (1%s) {", E->lin_test.s ? E->lin_test.s : "");
  E->ind++;
  E->lin = true;
  sweep_lin_start(E);
  const char *rest = "";   /* the condition of the U-tile loop */
  if (cols) {
    em_line(E, "const bool _cm = n2 >= %d && n2 <= %d;", SWEEP_COL_MIN, SWEEP_COL_MAX);
    em_line(E, "const oq_ix _dc = _G1 * n2;");
    sweep_lin_loop(E, 1, " && _cm && _b2 != 0");
    em_line(E, "switch (_cm ? n2 : 0) {");
    for (int N = SWEEP_COL_MIN; N <= SWEEP_COL_MAX; N++) {
      em_line(E, "case %d:", N);
      E->ind++;
      sweep_columns(E, U / N > 1 ? U / N : 1, N);
      em_line(E, "break;");
      E->ind--;
    }
    em_line(E, "}");
    rest = " && !_cm";
  }
  if (U > 1) sweep_lin_loop(E, U, rest);
  sweep_lin_loop(E, 1, "");
  E->npf = 0;
  E->lin = false;
  E->ind--;
  em_line(E, "}");
  free(E->lin_test.s);
  E->lin_test = (Buf){0};
}

static void cuda_sweep_body(Em *E) {
  KSpec *S = E->S;
  const KTiling *t = &S->tr.tiling;
  for (int d = 0; d < 3; d++) {
    em_line(E, "const oq_ix _V%d = (%s + %lld) / %lld;", d, d < S->D ? em_sf(E, "(oq_ix)n%d", d) : "(oq_ix)1",
            (long long)t->box[d] - 1, (long long)t->box[d]);
  }
  em_line(E, "oq_ix _th = (oq_ix)blockIdx.x * blockDim.x + threadIdx.x;");
  if (t->global_auto && !t->grid[0]) {
    em_line(E, "const oq_ix _nb = _V0 * _V1 * _V2, _st = (oq_ix)gridDim.x * blockDim.x;");
    em_line(E, "oq_ix _x[3], _s[3];");
    em_cuda_stride_digits(E, 3, "_V%d", "_th < _nb ? _th : 0", "_st");
    em_line(E, "for (; _th < _nb; _th += _st) {");
    E->ind++;
    em_line(E, "const oq_ix _B0 = _x[0], _B1 = _x[1], _B2 = _x[2]; (void)_B1; (void)_B2;");
    em_cuda_stride_step(E, 3, "_V%d", false);
  } else {
    for (int d = 0; d < 3; d++)
      em_line(E, "const oq_ix _G%d = %s, _Q%d = (_V%d + _G%d - 1) / _G%d;", d,
              t->grid[0] ? em_sf(E, "%lld", (long long)t->grid[d]) : em_sf(E, "_V%d", d), d, d, d, d);
    /* _K copies of the grid at once (the launcher fills the device: plan.c sweep_grid): copy _g
       runs the _g-th of _K runs of consecutive tiles (a thread's positions in consecutive
       tiles are often neighbours: the channels of a pixel) */
    em_line(E, "const oq_ix _GT = _G0 * _G1 * _G2, _QT = _Q0 * _Q1 * _Q2, _K = (oq_ix)gridDim.x * blockDim.x / _GT;");
    em_line(E, "const oq_ix _g = _th / _GT; _th -= _g * _GT;");
    em_line(E, "const oq_ix _t2 = _th %% _G2, _t1 = _th / _G2 %% _G1, _t0 = _th / _G2 / _G1;");
    em_line(E, "const oq_ix _lo = _g < _K ? (oq_ix)((int64_t)_g * _QT / _K) : 0;");
    em_line(E, "oq_ix _q0, _q1, _q2, _k = _g < _K ? (oq_ix)((int64_t)(_g + 1) * _QT / _K) - _lo : 0;");
    em_line(E, "{ oq_ix _a = _lo; _q2 = _a %% _Q2; _a /= _Q2; _q1 = _a %% _Q1; _q0 = _a / _Q1; }");
    if (E->lin_slot >= 0) sweep_linear(E);
    em_line(E, "for (; _k > 0; _k--) {");
    E->ind++;
    sweep_next_box(E, "");
    em_line(E, "if (!_ok) continue;");
  }
  sweep_box(E);
  E->ind--;
  em_line(E, "}");
}

/* The loops of the positions twice when the kernel has private copies: first with every
   copy's flag a constant 1 (the launcher made them all: the usual case), then as they are.
   A flag tested per position cost a branch per element: hist_naive ran 20 instructions per
   element, 14 without its bounds test. */
static void cuda_unswitched(Em *E, void (*loops)(Em *)) {
  KSpec *S = E->S;
  Buf all = {0}, one = {0};
  for (int k = 0; k < S->tr.npriv; k++)
    if (S->tr.priv_esz[k]) em_bprintf(&all, " && pv%d", k), em_bprintf(&one, "%spv%d = 1", one.s ? ", " : "", k);
  if (!all.s) {
    loops(E);
    return;
  }
  char *test = E->lin_test.s ? em_sf(E, "%s", E->lin_test.s) : NULL;   /* the loops use it up */
  em_line(E, "if (1%s) {", all.s);
  E->ind++;
  em_line(E, "const int %s;", one.s);
  E->lbl_tag = "_c";
  loops(E);
  E->lbl_tag = NULL;
  E->ind--;
  em_line(E, "} else {");
  E->ind++;
  char notes[sizeof S->xforms];
  memcpy(notes, S->xforms, sizeof notes);   /* the second copy notes the same transforms */
  free(E->lin_test.s);
  E->lin_test = (Buf){0};
  if (test) em_bputs(&E->lin_test, test);
  loops(E);
  memcpy(S->xforms, notes, sizeof notes);
  E->ind--;
  em_line(E, "}");
  free(all.s);
  free(one.s);
}

/* Counted private arrays: every block adds its counts into 64-bit integers in the launch's
   scratch (P.scr: [0] the blocks done, then each counted array's counts, merge_copies times:
   block b adds into copy b mod merge_copies, so that fewer blocks contend for one address;
   zero between launches); the last block to finish sums the copies, turns each total into
   the oracle's additions with plain stores and zeroes the scratch again. Integer atomics:
   exact. */
void em_cuda_count_offsets(Em *E) {
  KSpec *S = E->S;
  em_line(E, "unsigned long long *const _gc = (unsigned long long *)P.scr; (void)_gc;");
  em_line(E, "int64_t _gcn = 1;");
  for (int k = 0; k < S->tr.npriv; k++)
    if (S->tr.priv_esz[k] && S->tr.priv_count[k])
      em_line(E, "const int64_t _gco%d = _gcn; if (pv%d) _gcn += %d * pvn%d;", k, k, S->tr.merge_copies, k);
}

/* Private copy k's element as it was (yo) plus n of its counted additions, as the oracle's
   float additions of the constant one at a time give it. */
static char *count_sum(Em *E, int k, const char *yo, const char *n) {
  KSpec *S = E->S;
  int a = S->tr.priv_arg[k];
  KType t = a < S->kfunc->nparams ? S->kspec->params[a] : S->caps[a - S->kfunc->nparams].type;
  return em_sf(E, "oq_count_add(%s, %s, (oq_real)%lld, %s)", yo, n, (long long)S->tr.priv_count[k],
               t.el == EL_F32 || !rt_config.double_precision ? "16777216.0" : "9007199254740992.0");
}

static void cuda_count_finish(Em *E) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  if (!any_counted(S)) return;
  em_line(E, "if (!_pk) {   /* else the merges were packed */");
  E->ind++;
  em_cuda_last_block_begin(E, "threadIdx.x", "_gc");
  for (int k = 0; k < S->tr.npriv; k++) {
    if (!S->tr.priv_esz[k] || !S->tr.priv_count[k]) continue;
    int a = S->tr.priv_arg[k];
    KType t = a < f->nparams ? S->kspec->params[a] : S->caps[a - f->nparams].type;
    const char *ct = em_el_ctype(t.el);
    em_line(E, "if (pv%d) {", k);
    E->ind++;
    LastPass p = {"unsigned long long", "_k", em_sf(E, "__ldcg(_gc + _gco%d + _j * pvn%d + _i)", k, k),
                  em_sf(E, "_gc[_gco%d + _j * pvn%d + _i] = 0;", k, k), ct, em_sf(E, "(%s *)P.a%d.data", ct, a),
                  em_sf(E, "if (_k) *_y = %s;", count_sum(E, k, "_yo", "_k"))};
    em_cuda_last_pass(E, "threadIdx.x", "blockDim.x", em_sf(E, "pvn%d", k), p);
    E->ind--;
    em_line(E, "}");
  }
  em_cuda_last_block_end(E, "threadIdx.x", "_gc");
  E->ind--;
  em_line(E, "}");
}

/* The name part of an output operator's helpers: oq_out_r_max, oq_block_out_i_add, ... */
static const char *out_suffix(Op op) {
  return op == OP_MAX ? "max" : op == OP_MIN ? "min" : op == OP_MUL ? "mul" : "add";
}

/* After every position: the block's private copies are added into the arrays (replicas
   summed from a rotated start, so the lanes of a warp read distinct banks), and the kernel
   outputs are combined, per block when block_reduce, else per thread. */
static void cuda_epilogue(Em *E) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  int obase = f->ngenerics + f->nparams;
  bool any = false;
  for (int k = 0; k < S->tr.npriv; k++) any |= S->tr.priv_esz[k] > 0;
  if (any) {
    em_line(E, "__syncthreads();");
    /* counted copies merge packed (each block adds each element once, a count below 2^39:
       at most 2^7 replicas of unsigned counts) where each block ran 2^15 positions or more */
    Buf np = {0};
    em_bputs(&np, "(int64_t)1");
    for (int d = 0; d < S->D; d++) em_bprintf(&np, " * n%d", d);
    if (any_counted(S)) em_cuda_packed_when(E, np.s, "32768", 4095);
    free(np.s);
    for (int k = 0; k < S->tr.npriv; k++) {
      if (!S->tr.priv_esz[k]) continue;
      int a = S->tr.priv_arg[k];
      KType t = a < f->nparams ? S->kspec->params[a] : S->caps[a - f->nparams].type;
      const char *ct = em_el_ctype(t.el), *st = S->tr.priv_count[k] ? "unsigned" : ct;
      em_line(E, "if (pv%d) for (int64_t _i = threadIdx.x; _i < pvn%d; _i += blockDim.x) {", k, k);
      E->ind++;
      em_line(E, "%s _v = 0;", S->tr.priv_count[k] ? "unsigned long long" : st);
      em_line(E, "for (unsigned _j = 0; _j < (1u << _lgR); _j++) _v += pvp%d[(_i << _lgR) + ((_j + (unsigned)_i) & ((1u << _lgR) - 1))];", k);
      if (S->tr.priv_count[k]) {
        const char *y = em_sf(E, "((%s *)P.a%d.data)[_i]", ct, a);
        em_cuda_packed_merge(E, em_sf(E, "_gc + _gco%d + _i * %d", k, S->tr.merge_copies), "_v", ct, y, em_sf(E, "if (_sum) %s = %s;", y, count_sum(E, k, "_yo", "_sum")));
        em_line(E, "if (_v) atomicAdd(_gc + _gco%d + (blockIdx.x & %d) * pvn%d + _i, _v);", k, S->tr.merge_copies - 1, k);
      }
      else em_line(E, "if (_v != 0) atomicAdd((%s *)P.a%d.data + _i, _v);", ct, a);
      E->ind--;
      em_line(E, "}");
    }
    cuda_count_finish(E);
  }
  for (int o = 0; o < f->nouts; o++) {
    char c = S->kspec->slots[obase + o].kind == K_INT ? 'i' : 'r';
    em_line(E, "oq_%sout_%c_%s(&W->out_%c[%d], acc%d);", S->tr.block_reduce ? "block_" : "", c, out_suffix(S->out_op[o]),
            c, o, o);
  }
}

/* The kernel as one extern "C" __global__ entry. The launch (sizes and arguments) comes by
   value in the kernel's parameter space (OqkGrid, laid out as rt_gpu.c fills it: xf holds the
   private copies' mask and replicas, scr the counted copies' scratch); L is only the launch's
   error record in device memory. */
static void emit_cuda_kernel(Em *E, Buf *out) {
  KSpec *S = E->S;
  FSpec *k = S->kspec;
  Func *f = k->func;
  int D = S->D;
  if (D > 3) em_efail(E, f->loc, "launches of more than 3 dimensions are not compiled for CUDA");
  Buf body = {0};
  em_kernel_analysis(E, &body);
  S->tr.grid_stride = grid_stride_ok(E);
  if (S->tr.grid_stride) {
    S->tr.block_reduce = false;
    S->xforms[0] = 0;
    em_bprintf(&body, "/* kernel %s: phases between grid barriers, each over all blocks of the launch */\n", S->name);
    entry_header(E, &body);
    em_kernel_loads(E);
    emit_grid_stride(E);
    em_bputs(&body, "  (void)W;\n");
  } else {
    em_bprintf(&body, "/* kernel %s: %s */\n", S->name,
            S->tr.tiling_swept ? "tiles of boxes of positions (!kernel_tiling)"
            : S->tr.tiled ? "a grid-stride loop over the positions"
            : S->tr.coarse ? "persistent blocks, each runs the bodies of many blocks between one prologue and one epilogue"
            : S->tr.vthreads > 1 ? "each GPU thread runs several Quasar threads of its block, phase by phase"
            : S->tr.rows > 1 ? "each GPU thread runs one position in each of several rows"
                        : "one GPU thread per Quasar thread");
    if (S->xforms[0]) em_bprintf(&body, "/* transforms: %s */\n", S->xforms);
    entry_header(E, &body);
    em_kernel_loads(E);
    block_facts(E);
    if (S->tr.tiling_swept) cuda_unswitched(E, cuda_sweep_body);
    else if (S->tr.tiled) cuda_unswitched(E, cuda_tiled_body);
    else if (S->tr.coarse) em_cuda_coarse_kernel(E);
    else if (S->tr.vthreads > 1) cuda_vthread_body(E);
    else cuda_thread_body(E);
    cuda_epilogue(E);
  }
  em_bputs(&body, "}\n");
  em_bputs(out, body.s);
  free(body.s);
  em_kernel_end(E);
}

static const char *const cuda_preamble_fmt =
  "/* generated by oq (OpenQuasar) for CUDA from kernel %s */\n"
  "typedef signed char int8_t; typedef unsigned char uint8_t;\n"
  "typedef short int16_t; typedef unsigned short uint16_t;\n"
  "typedef int int32_t; typedef unsigned int uint32_t;\n"
  "typedef long long int64_t; typedef unsigned long long uint64_t;\n"
  "typedef unsigned long size_t;\n"
  "#define INT32_MIN (-2147483647 - 1)\n#define INT32_MAX 2147483647\n"
  "#define INT64_MIN (-9223372036854775807LL - 1)\n#define INT64_MAX 9223372036854775807LL\n"
  "#define INFINITY __int_as_float(0x7f800000)\n#define NAN __int_as_float(0x7fffffff)\n"
  "%s\n"
  "typedef %s oq_real;\n"
  "#define OQ_FN static __device__ inline\n";

/* Complex numbers: C's float/double _Complex as a struct with the operators and functions
   the statement code uses. Products and quotients as GCC computes them for finite values
   (the plain product; Smith's quotient), without C's recovery of infinities from NaN
   results; the functions in double, by the textbook formulas (glibc's differ in the last
   bits near branch cuts, as the real functions do between CPU and GPU). */
static const char *const cuda_complex_helpers =
  "template <class T> struct oq_cx {\n"
  "  T re, im;\n"
  "  __device__ oq_cx() : re(0), im(0) {}\n"
  "  __device__ oq_cx(double r) : re((T)r), im(0) {}\n"
  "  __device__ oq_cx(T r, T i) : re(r), im(i) {}\n"
  "  template <class U> __device__ oq_cx(oq_cx<U> z) : re((T)z.re), im((T)z.im) {}\n"
  "};\n"
  "typedef oq_cx<float> oq_c64;\ntypedef oq_cx<double> oq_c128;\n"
  "#define OQ_CX template <class T> static __device__ inline\n"
  "OQ_CX oq_cx<T> operator+(oq_cx<T> a, oq_cx<T> b) { return oq_cx<T>(a.re + b.re, a.im + b.im); }\n"
  "OQ_CX oq_cx<T> operator-(oq_cx<T> a, oq_cx<T> b) { return oq_cx<T>(a.re - b.re, a.im - b.im); }\n"
  "OQ_CX oq_cx<T> operator-(oq_cx<T> a) { return oq_cx<T>(-a.re, -a.im); }\n"
  "OQ_CX oq_cx<T> operator*(oq_cx<T> a, oq_cx<T> b) { return oq_cx<T>(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re); }\n"
  "OQ_CX oq_cx<T> operator/(oq_cx<T> a, oq_cx<T> b) {\n"
  "  T r, d;\n"
  "  if (fabs(b.re) < fabs(b.im)) {\n"
  "    r = b.re / b.im; d = b.re * r + b.im;\n"
  "    return oq_cx<T>((a.re * r + a.im) / d, (a.im * r - a.re) / d);\n"
  "  }\n"
  "  r = b.im / b.re; d = b.im * r + b.re;\n"
  "  return oq_cx<T>((a.im * r + a.re) / d, (a.im - a.re * r) / d);\n"
  "}\n"
  "OQ_CX T creal(oq_cx<T> z) { return z.re; }\n"
  "OQ_CX T cimag(oq_cx<T> z) { return z.im; }\n"
  "OQ_CX oq_cx<T> conj(oq_cx<T> z) { return oq_cx<T>(z.re, -z.im); }\n"
  "static __device__ inline double cabs(oq_c128 z) { return hypot(z.re, z.im); }\n"
  "static __device__ inline double carg(oq_c128 z) { return atan2(z.im, z.re); }\n"
  "static __device__ inline oq_c128 cexp(oq_c128 z) { double e = exp(z.re); return oq_c128(e * cos(z.im), e * sin(z.im)); }\n"
  "static __device__ inline oq_c128 clog(oq_c128 z) { return oq_c128(log(hypot(z.re, z.im)), atan2(z.im, z.re)); }\n"
  "static __device__ inline oq_c128 csqrt(oq_c128 z) {\n"
  "  if (z.re == 0 && z.im == 0) return oq_c128(0.0, z.im);\n"
  "  double t = sqrt((fabs(z.re) + hypot(z.re, z.im)) * 0.5);\n"
  "  if (z.re >= 0) return oq_c128(t, z.im / (2 * t));\n"
  "  return oq_c128(fabs(z.im) / (2 * t), copysign(t, z.im));\n"
  "}\n"
  "static __device__ inline oq_c128 csin(oq_c128 z) { return oq_c128(sin(z.re) * cosh(z.im), cos(z.re) * sinh(z.im)); }\n"
  "static __device__ inline oq_c128 ccos(oq_c128 z) { return oq_c128(cos(z.re) * cosh(z.im), -(sin(z.re) * sinh(z.im))); }\n"
  "static __device__ inline oq_c128 csinh(oq_c128 z) { return oq_c128(sinh(z.re) * cos(z.im), cosh(z.re) * sin(z.im)); }\n"
  "static __device__ inline oq_c128 ccosh(oq_c128 z) { return oq_c128(cosh(z.re) * cos(z.im), sinh(z.re) * sin(z.im)); }\n"
  "static __device__ inline oq_c128 ctan(oq_c128 z) { double d = cos(2 * z.re) + cosh(2 * z.im); return oq_c128(sin(2 * z.re) / d, sinh(2 * z.im) / d); }\n"
  "static __device__ inline oq_c128 ctanh(oq_c128 z) { double d = cosh(2 * z.re) + cos(2 * z.im); return oq_c128(sinh(2 * z.re) / d, sin(2 * z.im) / d); }\n"
  "static __device__ inline oq_c128 oq_cpow(oq_c128 z, oq_c128 w) {\n"
  "  double e = w.re;\n"
  "  if (w.im == 0 && e == floor(e) && fabs(e) <= 1024) {\n"
  "    oq_c128 r = 1, b = z;\n"
  "    for (int64_t n = (int64_t)fabs(e); n; n >>= 1) { if (n & 1) r = r * b; b = b * b; }\n"
  "    return e < 0 ? oq_c128(1) / r : r;\n  }\n"
  "  return cexp(w * clog(z));\n}\n";

/* Helpers over oq_cplx (after its typedef). */
static const char *const cuda_complex_more =
  "OQ_FN oq_cplx oq_mkc(double re, double im) { return oq_cplx((oq_real)re, (oq_real)im); }\n"
  "OQ_FN int oq_ceq(oq_cplx a, oq_cplx b) { return a.re == b.re && a.im == b.im; }\n"
  "OQ_FN int oq_ctruthy(oq_cplx a) { return a.re != 0 || a.im != 0; }\n";

/* GCC's __atomic builtins, which the shared statement code uses, on CUDA atomics: the
   fetch operations on int32 natively, loads as volatile reads, exchange and compare-exchange
   by the element's size (1 and 2 bytes through the aligned word that holds them; 16 bytes:
   cuda_cas16). */
static const char *const cuda_helpers =
  "/* ints wrap around (two's complement); NVRTC has no -fwrapv, so signed overflow would be\n"
  "   undefined: + - * and unary minus of ints compute in unsigned (the same instructions) */\n"
  "OQ_FN int32_t oq_wadd(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }\n"
  "OQ_FN int32_t oq_wsub(int32_t a, int32_t b) { return (int32_t)((uint32_t)a - (uint32_t)b); }\n"
  "OQ_FN int32_t oq_wmul(int32_t a, int32_t b) { return (int32_t)((uint32_t)a * (uint32_t)b); }\n"
  "OQ_FN int32_t oq_wneg(int32_t a) { return (int32_t)(0u - (uint32_t)a); }\n"
  "/* a scalar index as an int, by the conversion intrinsics: defined for every value (C's cast is\n"
  "   not outside the int's range), so the compiler may convert before the bounds test decides */\n"
  "OQ_FN int32_t oq_fix32(float x) { return __float2int_rz(x); }\n"
  "OQ_FN int32_t oq_fix32(double x) { return __double2int_rz(x); }\n"
  "OQ_FN int64_t oq_fix64(float x) { return __float2ll_rz(x); }\n"
  "OQ_FN int64_t oq_fix64(double x) { return __double2ll_rz(x); }\n"
  "template <class T> OQ_FN void oq_aload(T *p, T *o) {   /* by size: T may be a struct */\n"
  "  if (sizeof(T) == 8) *(unsigned long long *)o = *(volatile unsigned long long *)p;\n"
  "  else if (sizeof(T) == 4) *(unsigned *)o = *(volatile unsigned *)p;\n"
  "  else if (sizeof(T) == 2) *(unsigned short *)o = *(volatile unsigned short *)p;\n"
  "  else if (sizeof(T) == 1) *(unsigned char *)o = *(volatile unsigned char *)p;\n"
  "  else *o = *p;\n}\n"
  "OQ_FN unsigned oq_cas_word(unsigned *w, unsigned e, unsigned n) { return atomicCAS(w, e, n); }\n"
  "template <class T> OQ_FN bool oq_acas(T *p, T *o, T *n) {\n"
  "  if (sizeof(T) == 8) {\n"
  "    unsigned long long e = *(unsigned long long *)o, r = atomicCAS((unsigned long long *)p, e, *(unsigned long long *)n);\n"
  "    if (r == e) return true; *(unsigned long long *)o = r; return false;\n"
  "  }\n"
  "  if (sizeof(T) == 4) {\n"
  "    unsigned e = *(unsigned *)o, r = atomicCAS((unsigned *)p, e, *(unsigned *)n);\n"
  "    if (r == e) return true; *(unsigned *)o = r; return false;\n"
  "  }\n"
  "  /* 1 or 2 bytes: CAS on the word, retried while only the other bytes changed */\n"
  "  size_t a = (size_t)p, sh = (a & 3) * 8;\n"
  "  unsigned *w = (unsigned *)(a & ~(size_t)3), mask = (sizeof(T) == 1 ? 0xffu : 0xffffu) << sh;\n"
  "  unsigned ov = 0, nv = 0; for (size_t i = 0; i < sizeof(T); i++) { ov |= (unsigned)((unsigned char *)o)[i] << (8 * i); nv |= (unsigned)((unsigned char *)n)[i] << (8 * i); }\n"
  "  for (;;) {\n"
  "    unsigned cur = *(volatile unsigned *)w;\n"
  "    if (((cur & mask) >> sh) != ov) {\n"
  "      unsigned v = (cur & mask) >> sh; for (size_t i = 0; i < sizeof(T); i++) ((unsigned char *)o)[i] = (unsigned char)(v >> (8 * i));\n"
  "      return false;\n"
  "    }\n"
  "    if (atomicCAS(w, cur, (cur & ~mask) | (nv << sh)) == cur) return true;\n"
  "  }\n"
  "}\n"
  "template <class T> OQ_FN void oq_axchg(T *p, T *n, T *o) { oq_aload(p, o); while (!oq_acas(p, o, n)) {} }\n"
  "#define __atomic_load(p, o, m) oq_aload(p, o)\n"
  "#define __atomic_load_n(p, m) (*(volatile int *)(p))\n"
  "#define __atomic_compare_exchange(p, o, n, weak, m1, m2) oq_acas(p, o, n)\n"
  "#define __atomic_exchange(p, n, o, m) oq_axchg(p, n, o)\n"
  "#define __atomic_add_fetch(p, v, m) (atomicAdd((p), (v)) + (v))\n"
  "#define __atomic_sub_fetch(p, v, m) (atomicSub((p), (v)) - (v))\n"
  "#define __atomic_and_fetch(p, v, m) (atomicAnd((p), (v)) & (v))\n"
  "#define __atomic_or_fetch(p, v, m) (atomicOr((p), (v)) | (v))\n"
  "#define __atomic_xor_fetch(p, v, m) (atomicXor((p), (v)) ^ (v))\n"
  "OQ_FN int oq_claim(OqkLaunch *L, int site) {\n"
  "  if (atomicCAS(&L->err, 0, 1) != 0) return 0;\n"
  "  L->err_site = site;\n  return 1;\n}\n";

/* ... and, where a double complex element is updated atomically (Em.cas16), the overload of
   oq_acas for it: sm_90's 16-byte atomicCAS (elements of 16 bytes are 16-byte aligned). */
static const char *const cuda_cas16 =
  "#if __CUDA_ARCH__ < 900\n"
  "#error \"atomic updates of double complex elements need sm_90 (16-byte atomicCAS)\"\n"
  "#endif\n"
  "struct __align__(16) oq_w16 { unsigned long long lo, hi; };\n"
  "OQ_FN bool oq_acas(oq_c128 *p, oq_c128 *o, oq_c128 *n) {\n"
  "  oq_w16 e = *(oq_w16 *)o, r = atomicCAS((oq_w16 *)p, e, *(oq_w16 *)n);\n"
  "  if (r.lo == e.lo && r.hi == e.hi) return true;\n"
  "  *(oq_w16 *)o = r;\n"
  "  return false;\n}\n";

/* ... and, for warp collectives (S->coop: one GPU thread per Quasar thread, the launch's
   block), whether every lane of the caller's warp holds the same v (the lanes that exist:
   the block's last warp may be partial). Every lane of the warp must call it. */
static const char *const cuda_warp_helpers =
  "OQ_FN bool oq_warp_uniform(long long v) {\n"
  "  const unsigned lin = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);\n"
  "  const unsigned n = blockDim.x * blockDim.y * blockDim.z - (lin & ~31u);\n"
  "  const unsigned mask = n >= 32 ? 0xffffffffu : (1u << n) - 1u;\n"
  "  return __all_sync(mask, __shfl_sync(mask, v, 0) == v);\n"
  "}\n";

/* Block-shared memory: pieces of the launch's dynamic buffer (as many bytes as the launcher
   reserved: %dynamic_smem_size), in the order of the kernel's shared() calls (every thread
   makes them, with equal sizes); each piece is zeroed by the block's threads together, as
   the oracle zero-fills, then a barrier unless the program's next one does (sync 0, see
   em_shared_plan); sync 2: each Quasar thread stores its own element before that barrier, and
   only the elements outside the block's box are zeroed (vt virtual threads per GPU thread
   along dimension 0 make the box vt times the GPU block there); sync 3: nothing is zeroed,
   nothing reads those elements (owned_reads). Under vb virtual blocks (cuda_vblocks) along
   GPU axis vax each is one vb-th of the GPU block there, with its own pieces. A bad size
   (the same for every thread of the block) fails the launch, and the block's threads exit:
   the kernel then knows the array has its dimensions. Needs helpers_common (oq_fail). */
static const char *const cuda_shared_helpers =
  "OQ_FN oq_ix oq_swz(oq_ix e) { return e ^ ((e >> 5) & 31); }   /* emit_cuda: count_swizzled */\n"
  "extern __shared__ __align__(16) double oq_shbuf[];\n"
  "/* sync 2: GPU thread t zeroes the elements e with e = t mod the GPU block (in every dimension)\n"
  "   outside the box b: loops by strides, no division; the last dimension starts past the box\n"
  "   in rows inside it (b is a multiple of the stride) */\n"
  "OQ_FN void oq_shared_zero_rest(char *p, size_t esz, int rank, const int64_t *dims, int vt, int vb, int vax) {\n"
  "  unsigned bd[3] = {blockDim.x, blockDim.y, blockDim.z}, td[3] = {threadIdx.x, threadIdx.y, threadIdx.z};\n"
  "  bd[vax] /= vb; td[vax] %= bd[vax];\n"
  "  unsigned n[3] = {1, 1, 1}, s[3] = {1, 1, 1}, t[3] = {0, 0, 0}, b[3] = {1, 1, 1};\n"
  "  for (int k = 0; k < rank; k++) {   /* Quasar dimension k of rank runs on GPU axis rank-1-k */\n"
  "    int j = 3 - rank + k;\n"
  "    n[j] = (unsigned)dims[k]; s[j] = bd[rank - 1 - k]; t[j] = td[rank - 1 - k]; b[j] = s[j] * (k == 0 ? vt : 1);\n"
  "  }\n"
  "  for (unsigned i0 = t[0]; i0 < n[0]; i0 += s[0])\n"
  "    for (unsigned i1 = t[1]; i1 < n[1]; i1 += s[1])\n"
  "      for (unsigned i2 = i0 < b[0] && i1 < b[1] ? b[2] + t[2] : t[2]; i2 < n[2]; i2 += s[2]) {\n"
  "        char *e = p + ((size_t)(i0 * n[1] + i1) * n[2] + i2) * esz;\n"
  "        if (esz % 4 == 0) for (unsigned c = 0; c < esz; c += 4) *(unsigned *)(e + c) = 0;\n"
  "        else for (unsigned c = 0; c < esz; c++) e[c] = 0;\n"
  "      }\n"
  "}\n"
  "OQ_FN void oq_shared_take(OqkLaunch *L, int site, int rank, const int64_t *dims, void **pp, oq_ix *d, size_t esz, size_t *off, int sync, int vt, int vb, int vax) {\n"
  "  size_t n = 1; int bad = 0;\n"
  "  unsigned have; asm(\"mov.u32 %0, %%dynamic_smem_size;\" : \"=r\"(have));\n"
  "  for (int i = 0; i < rank; i++) { if (dims[i] < 0 || dims[i] > (1 << 24)) bad = 1; else n *= (size_t)dims[i]; }\n"
  "  size_t bytes = (n * esz + 15) & ~(size_t)15;\n"
  "  if (bad || *off + bytes > have) bad = 1;\n"
  "  char *p = (char *)oq_shbuf + *off;\n"
  "  unsigned nt = blockDim.x * blockDim.y * blockDim.z / vb;   /* vax is the outermost axis */\n"
  "  unsigned tid = (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % nt;\n"
  "  if (bad) {   /* every thread of the block alike: the launch fails, the block stops */\n"
  "    if (tid == 0) oq_fail(L, site);\n"
  "    asm volatile(\"exit;\");\n"
  "    __builtin_unreachable();\n"
  "  }\n"
  "  if (sync == 2) oq_shared_zero_rest(p, esz, rank, dims, vt, vb, vax);\n"
  "  else if (sync != 3) for (unsigned i = tid; i < bytes / 16; i += nt) ((uint4 *)p)[i] = make_uint4(0, 0, 0, 0);\n"
  "  if (sync == 1) __syncthreads();\n"
  "  for (int i = 0; i < rank; i++) d[i] = dims[i];\n"
  "  *off += bytes;\n  *pp = p;\n}\n";

/* k identical additions of c to o, as the oracle makes them one after the other: at once
   while every step is an exact integer, else one by one until adding c no longer changes the
   value (float saturation past 2^24); as the CPU's oqk_finish. */
static const char *const cuda_merge_count =
  "template <class T> OQ_FN T oq_count_add(T o, unsigned long long k, oq_real c, double lim) {\n"
  "  double v = (double)o;\n"
  "  if (v == trunc(v) && fabs(v) <= lim) {   /* the steps that stay exact integers, at once */\n"
  "    double j = floor(c > 0 ? (lim - v) / c : (lim + v) / -c);\n"
  "    if (j > (double)k) j = (double)k;\n"
  "    o = (T)(v + j * (double)c);\n"
  "    k -= (unsigned long long)j;\n"
  "  }\n"
  "  for (; k > 0; k--) { T m = (T)((oq_real)o + c); if (m == o || m != m) { o = m; break; } o = m; }\n"
  "  return o;\n"
  "}\n";

/* Block-reduce: the threads' values combined by shuffles within each warp (only the lanes
   that exist: the last warp of a block may be partial), the warps' results by the first
   warp, and one atomic per block. Every thread of the block must call it. */
static const char *const cuda_block_out =
  "#define OQ_BLOCK_OUT(NAME, T, COMB, OUT) \\\n"
  "OQ_FN void NAME(T *p, T v) { \\\n"
  "  __shared__ T part[32]; \\\n"
  "  unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); \\\n"
  "  unsigned nt = blockDim.x * blockDim.y * blockDim.z, lane = tid & 31, w = tid >> 5; \\\n"
  "  unsigned nl = nt - (w << 5) < 32 ? nt - (w << 5) : 32, nw = (nt + 31) >> 5; \\\n"
  "  unsigned m = nl == 32 ? 0xffffffffu : (1u << nl) - 1; \\\n"
  "  for (unsigned o = 16; o; o >>= 1) { T x = __shfl_down_sync(m, v, o); if (lane + o < nl) v = COMB(v, x); } \\\n"
  "  if (lane == 0) part[w] = v; \\\n"
  "  __syncthreads(); \\\n"
  "  if (w == 0) { \\\n"
  "    if (lane < nw) v = part[lane]; \\\n"
  "    for (unsigned o = 16; o; o >>= 1) { T x = __shfl_down_sync(m, v, o); if (lane + o < nw) v = COMB(v, x); } \\\n"
  "    if (lane == 0) OUT(p, v); \\\n"
  "  } \\\n"
  "  __syncthreads(); \\\n"
  "}\n";

/* Kernel outputs: one atomic per thread (or per block) into the launch's W->out_*, by the operator. */
/* syncthreads(grid) without cooperative groups (which need relocatable device code): the
   cooperative launch keeps every block resident; thread 0 of each block arrives at a counter
   in module memory, the last one resets it and bumps the generation that the others wait on.
   The counter is back at 0 after every barrier, so the next launch finds it clean. A wait
   longer than OQ_GRID_WAIT_NS fails the launch (blocks that disagree would otherwise hang). */
static const char *const cuda_grid_helpers =
  "#define OQ_GRID_WAIT_NS 20000000000ull\n"
  "__device__ unsigned oq_gridbar[2];   /* arrivals, generation */\n"
  "OQ_FN unsigned long long oq_nanotime(void) { unsigned long long t; asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(t)); return t; }\n"
  "OQ_FN void oq_grid_sync(OqkLaunch *L, int site) {\n"
  "  __syncthreads();\n"
  "  if (threadIdx.x + threadIdx.y + threadIdx.z == 0) {\n"
  "    unsigned nb = gridDim.x * gridDim.y * gridDim.z;\n"
  "    unsigned gen = atomicAdd(&oq_gridbar[1], 0);\n"
  "    __threadfence();\n"
  "    if (atomicAdd(&oq_gridbar[0], 1) == nb - 1) {\n"
  "      atomicExch(&oq_gridbar[0], 0);\n"
  "      __threadfence();\n"
  "      atomicAdd(&oq_gridbar[1], 1);\n"
  "    } else {\n"
  "      unsigned long long t0 = oq_nanotime();\n"
  "      while (*(volatile unsigned *)&oq_gridbar[1] == gen)\n"
  "        if (oq_nanotime() - t0 > OQ_GRID_WAIT_NS) { oq_fail(L, site); break; }\n"
  "    }\n"
  "    __threadfence();\n"
  "  }\n"
  "  __syncthreads();\n"
  "}\n";

/* The helpers of one output operator: an atomic per thread (or per block, after the block's
   reduction) into the launch's W->out_*. */
static void cuda_out_helper(KSpec *S, Op op, Buf *out) {
  const char *x = out_suffix(op);
  switch (op) {
  case OP_MAX: case OP_MIN:
    em_bprintf(out, "OQ_FN void oq_out_i_%s(int64_t *p, int64_t v) { %s((long long *)p, (long long)v); }\n",
               x, op == OP_MAX ? "atomicMax" : "atomicMin");
    em_bprintf(out, "OQ_FN void oq_out_r_%s(double *p, double v) {\n"
                 "  double o = *(volatile double *)p;\n"
                 "  while ((v %s o || o != o) && v == v && !oq_acas(p, &o, &v)) {}\n}\n", x, op == OP_MAX ? ">" : "<");
    break;
  case OP_MUL:
    em_bprintf(out, "OQ_FN void oq_out_i_%s(int64_t *p, int64_t v) { int64_t o = *(volatile int64_t *)p, n; do n = (int64_t)((uint64_t)o * (uint64_t)v); while (!oq_acas(p, &o, &n)); }\n"
               "OQ_FN void oq_out_r_%s(double *p, double v) { double o = *(volatile double *)p, n; do n = o * v; while (!oq_acas(p, &o, &n)); }\n", x, x);
    break;
  default:
    em_bprintf(out, "OQ_FN void oq_out_i_%s(int64_t *p, int64_t v) { atomicAdd((unsigned long long *)p, (unsigned long long)v); }\n"
               "OQ_FN void oq_out_r_%s(double *p, double v) { atomicAdd(p, v); }\n", x, x);
  }
  if (!S->tr.block_reduce) return;
  const char *ci, *cr;
  switch (op) {
  case OP_MAX: ci = "a > b ? a : b"; cr = "a > b || b != b ? a : b"; break;
  case OP_MIN: ci = "a < b ? a : b"; cr = "a < b || b != b ? a : b"; break;
  case OP_MUL: ci = "(int64_t)((uint64_t)a * (uint64_t)b)"; cr = "a * b"; break;
  default: ci = "(int64_t)((uint64_t)a + (uint64_t)b)"; cr = "a + b";
  }
  em_bprintf(out, "OQ_FN int64_t oq_comb_i_%s(int64_t a, int64_t b) { return %s; }\n"
               "OQ_FN double oq_comb_r_%s(double a, double b) { return %s; }\n"
               "OQ_BLOCK_OUT(oq_block_out_i_%s, int64_t, oq_comb_i_%s, oq_out_i_%s)\n"
               "OQ_BLOCK_OUT(oq_block_out_r_%s, double, oq_comb_r_%s, oq_out_r_%s)\n",
             x, ci, x, cr, x, x, x, x, x, x);
}

/* Kernel outputs: the helpers of each operator the outputs use, once. */
static void cuda_out_helpers(KSpec *S, Buf *out) {
  if (S->tr.block_reduce) em_bputs(out, cuda_block_out);
  for (int o = 0; o < S->kfunc->nouts; o++) {
    bool seen = false;
    for (int p = 0; p < o; p++) seen |= !strcmp(out_suffix(S->out_op[p]), out_suffix(S->out_op[o]));
    if (!seen) cuda_out_helper(S, S->out_op[o], out);
  }
}

/* True when some value of the specialization is complex (the struct and its functions are
   then part of the source: NVRTC compiles less without them). */
static bool is_complex(KType t) { return t.kind == K_CPLX || (t.kind == K_ARRAY && el_is_complex(t.el)); }

static bool uses_complex(KSpec *S) {
  for (FSpec *g = S->funcs; g; g = g->next) {
    for (int i = 0; i < g->info.cap; i++)
      if (g->info.items[i].node && is_complex(g->info.items[i].t)) return true;
    for (int i = 0; i < func_info(g->func)->nslots; i++)
      if (is_complex(g->slots[i])) return true;
    for (int i = 0; i < g->func->nparams; i++)
      if (is_complex(g->params[i])) return true;
  }
  for (int c = 0; c < S->ncaps; c++)
    if (is_complex(S->caps[c].type)) return true;
  return false;
}

/* 'hwconst arrays in constant memory, 'hwtex_const ones through __ldg (kernel parameters that
   the kernel only reads; the modifier is ignored elsewhere). */
static void cuda_memory_kinds(Em *E) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  S->tr.cmem_params = 0;
  for (int i = 0; i < f->nparams && i < 32; i++) {
    int slot = f->ngenerics + i;
    unsigned m = func_info(f)->slot_mods[slot];
    KType t = S->kspec->params[i];
    if (t.kind != K_ARRAY || !(m & (TM_HWCONST | TM_HWTEX_CONST))) continue;
    if (!S->facts.param_read_only[i]) continue;
    if ((m & TM_HWCONST) && !S->no_cmem) S->tr.cmem_params |= 1u << i;
    else if (!el_is_complex(t.el)) E->ldg_params |= 1u << i;   /* __ldg has no complex overload */
  }
}

/* ---- barriers the threads of a block may disagree on ----
   The GPU releases a block barrier once every thread that has not exited waits at it
   (seed 10.7's tree and a barrier only some threads reach ran so on the H100), but threads
   waiting at two different barrier instructions at once hung it (tests/cpu/fiber_barriers.q).
   So CUDA takes such a kernel only when no thread can wait elsewhere while others wait at
   the divergent barrier: the divergent statement holds exactly one barrier, no barrier
   follows it, and every other barrier is a statement of the body outside any loop (all
   threads pass those together, before it). Others run on the CPU back end, as fibers. */
typedef struct BarScan { const Node *div; int inside, after, looped; bool seen_div; } BarScan;

static void bar_scan(BarScan *b, Node *n, bool in_div, bool in_loop) {
  if (!n || n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return;
  if (n == b->div) in_div = b->seen_div = true;
  if (em_is_barrier_stmt(n)) {
    if (in_div) b->inside++;
    else if (b->seen_div) b->after++;
    else if (in_loop) b->looped++;
    return;
  }
  bool loop = in_loop || n->kind == N_WHILE || n->kind == N_REPEAT || n->kind == N_FOR;
  for (AstKids it = ast_kids(n); it.node; ast_next(&it)) bar_scan(b, it.node, in_div, loop);
}

static bool cuda_divergent_ok(KSpec *S) {
  BarScan b = {.div = S->divergent_at};
  for (int i = 0; i < S->kfunc->body.n; i++) bar_scan(&b, S->kfunc->body.items[i], false, false);
  return b.seen_div && b.inside == 1 && !b.after && !b.looped;
}

/* ---- the CUDA dialect's pieces of the shared emitter (EmDialect) ---- */

static void cuda_barrier(Em *E, Node *n) {
  if (em_is_barrier_stmt(n) && em_is_grid_barrier(n)) em_line(E, "oq_grid_sync(%s, %d);", E->L, em_div_site(E, n, KE_GRID_BARRIER));
  else em_line(E, em_is_barrier_stmt(n) ? "__syncthreads();" : "__threadfence();");
}

/* shared(): the next piece of the block's dynamic shared memory, zeroed by all threads
   (em_shared_plan says whether that needs a barrier of its own); virtual threads
   (E->phases): once per GPU thread. */
static void cuda_shared_alloc(Em *E, Node *n, int k, const char *sh, int rank, const char *dv, const char *same) {
  (void)same;
  int sync = k >= 32 ? 1 : (E->sh_unread >> k & 1) ? 3 : (E->sh_owned >> k & 1) ? 2 : !(E->sh_nosync >> k & 1);
  em_line(E, "%soq_shared_take(%s, %d, %d, %s, (void **)&%s.p, %s.d, sizeof *%s.p, &_shoff, %d, %d, %s, %d);",
          E->phases ? em_sf(E, "if (!%s_init++) ", sh) : "", E->L, em_div_site(E, n, KE_SHARED), rank, dv, sh, sh, sh,
          sync, E->S->tr.vthreads > 1 ? E->S->tr.vthreads : 1, E->S->tr.vblocks > 1 ? "(int)P.xf" : "1", E->S->D - 1);
}

/* An array parameter in constant memory (S->tr.cmem_params): the launcher copied it to offset
   a.i of oq_cmem. */
static char *cuda_param_load(Em *E, int i, KType t, const char *a) {
  if (i >= 32 || !(E->S->tr.cmem_params >> i & 1)) return NULL;
  return em_array_literal(E, t, em_sf(E, "(oq_cmem + %s.i)", a), a);
}

/* CUDA: private array k (argument a) in the block's dynamic shared memory when the launcher
   set its bit of P.xf: 2^_lgR replicas of every element, after the copies before it. */
static void cuda_priv_load(Em *E, int k, int a, KType t) {
  KSpec *S = E->S;
  int esz = S->tr.priv_esz[k];
  if (k == 0) {
    em_line(E, "const unsigned _lgR = (P.xf >> 8) & 7, _ln = threadIdx.x & ((1u << _lgR) - 1);");
    em_line(E, "size_t _po = 0;");
  }
  const char *ct = !esz ? em_el_ctype(t.el) : S->tr.priv_count[k] ? "unsigned" : em_el_ctype(t.el);
  em_line(E, "const int pv%d = %s;", k, esz ? em_sf(E, "(int)(P.xf >> %d) & 1", k) : "0");
  Buf n = {0};
  em_bputs(&n, "(int64_t)1");
  for (int d = 0; d < t.rank; d++) em_bprintf(&n, " * P.a%d.dims[%d]", a, d);
  em_line(E, "const int64_t pvn%d = %s; (void)pvn%d;", k, n.s, k);
  free(n.s);
  em_line(E, "%s *const pvp%d = (%s *)((char *)oq_shbuf + _po), *const pvq%d = pvp%d + _ln; (void)pvp%d; (void)pvq%d;",
          ct, k, ct, k, k, k, k);
  if (esz) em_line(E, "if (pv%d) _po += ((size_t)(pvn%d << _lgR) * %d + 15) & ~(size_t)15;", k, k, esz);
}

/* The private copies, which the block's threads zero before any update. */
static void cuda_priv_loads(Em *E) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  if (!S->tr.npriv) return;
  for (int k = 0; k < S->tr.npriv; k++) {
    int a = S->tr.priv_arg[k];
    cuda_priv_load(E, k, a, a < f->nparams ? em_k_params_type(S, a) : S->caps[a - f->nparams].type);
  }
  em_line(E, "for (size_t _i = threadIdx.x; _i < _po / 4; _i += blockDim.x) ((unsigned *)oq_shbuf)[_i] = 0;");
  em_line(E, "__syncthreads();");
  em_cuda_count_offsets(E);
}

static const EmDialect dialect_cuda = {
  .name = "CUDA",
  .lit_fmt = "%s{",
  .func_qual = "static __device__",
  .launch_at = "P.",
  .arg_fmt = "P.a%d",
  .trunc32 = "oq_fix32(%s)",
  .trunc64 = "oq_fix64(%s)",
  .off32_fmt = "oq_fix32(%s)",
  .fadd = "atomicAdd",
  .real_checked = true,
  .cas16 = true,      /* oq_acas's 16-byte overload (sm_90) */
  .warps = true,
  .shared_needs_barrier = true,
  .vthreads = true,
  .out_identity = true,
  .int_wrap_fns = true,
  .rsqrt_div = true,
  .transforms = em_cuda_transforms,
  .barrier = cuda_barrier,
  .shared_alloc = cuda_shared_alloc,
  .collective = cuda_collective,
  .param_load = cuda_param_load,
  .priv_loads = cuda_priv_loads,
  .count_update = em_cuda_count_update,
  .priv_count = cuda_priv_count,
  .priv_update = cuda_priv_update,
  .shadow_update = em_cuda_shadow_update,
  .native_update = cuda_native_update,
};

/* ---- a first build's preamble: the helpers its code uses ----
   NVRTC parses every helper of the preamble, used or not: about 10-15 ms of a first build's
   60-250 (hist_000's lambda: 101 -> 86 ms without the unused ones). A first build (tiers:
   emit_cuda_trim where it differs from the optimized source, which stays whole) drops each
   top-level helper (a function, a single-line typedef struct or an OQ_BLOCK_OUT
   instance) whose name appears nowhere else in the source, until none is left to drop:
   conservative (a name in a comment or a macro keeps its helper), and a name it dropped
   wrongly would be NVRTC's error, which cudacheck and tests/run.sh's tier block would show
   (a program then runs the whole source: rt_gpu.c first_build). */

typedef struct TrimItem { const char *name; int nlen, from, to; bool dropped; } TrimItem;

static bool trim_ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* The name a helper starting at line s defines (*n: its length), or NULL when s starts none. */
static const char *trim_item_name(const char *s, const char *eol, int *n) {
  const char *p = NULL;
  if (!strncmp(s, "OQ_BLOCK_OUT(", 13)) {   /* OQ_BLOCK_OUT(NAME, ...) */
    p = s + 13;
    const char *e = p;
    while (e < eol && trim_ident_char(*e)) e++;
    *n = (int)(e - p);
    return *n ? p : NULL;
  }
  if (!strncmp(s, "typedef struct {", 16) && eol - s > 2 && eol[-1] == ';') {   /* ... } NAME; */
    const char *e = eol - 1, *b = e;
    while (b > s && trim_ident_char(b[-1])) b--;
    *n = (int)(e - b);
    return *n && b[-1] == ' ' && b[-2] == '}' ? b : NULL;
  }
  if (strncmp(s, "OQ_FN ", 6) && strncmp(s, "template <class T> OQ_FN ", 25)) return NULL;
  const char *paren = memchr(s, '(', (size_t)(eol - s));
  if (!paren) return NULL;
  p = paren;
  while (p > s && trim_ident_char(p[-1])) p--;
  *n = (int)(paren - p);
  return *n ? p : NULL;
}

/* Whether name occurs as a whole identifier in [a, b). */
static bool trim_uses(const char *a, const char *b, const char *name, int n) {
  for (const char *p = a; p + n <= b; p++)
    if (!memcmp(p, name, (size_t)n) && (p == a || !trim_ident_char(p[-1])) && (p + n == b || !trim_ident_char(p[n])))
      return true;
  return false;
}

/* The helpers of src's lines (starts in line[], nlines of them) into items[] (at most cap). */
static int trim_items(const char *src, const int *line, int nlines, TrimItem *items, int cap) {
  int n = 0;
  for (int i = 0; i < nlines && n < cap; i++) {
    const char *s = src + line[i], *eol = src + line[i + 1] - 1;
    if (i > 0 && line[i] >= 2 && src[line[i] - 2] == '\\') continue;   /* inside a macro */
    int len;
    const char *name = trim_item_name(s, eol, &len);
    if (!name) continue;
    int depth = 0, j = i;
    bool opened = false;
    for (; j < nlines; j++) {   /* to the line that closes its braces */
      for (const char *p = src + line[j]; p < src + line[j + 1]; p++) {
        if (*p == '{') depth++, opened = true;
        if (*p == '}') depth--;
      }
      if (depth <= 0 && (opened || j == i)) break;
    }
    if (j == nlines) return n;   /* unbalanced: keep the rest */
    if (j == i && !opened && eol[-1] != ';' && eol[-1] != ')') continue;   /* its body below: keep */
    items[n++] = (TrimItem){name, len, i, j, false};
    i = j;
  }
  return n;
}

/* Whether item k's name appears in a line outside every kept item of that name. */
static bool trim_used(const char *src, const int *line, int nlines, const TrimItem *items, int nitems, int k) {
  int from = 0;
  for (int m = 0; m <= nitems; m++) {   /* the stretches between the items named alike */
    bool alike = m < nitems && items[m].nlen == items[k].nlen && !memcmp(items[m].name, items[k].name, (size_t)items[k].nlen);
    if (m < nitems && !alike && !items[m].dropped) continue;
    int to = m < nitems ? items[m].from : nlines;
    if (trim_uses(src + line[from], src + line[to], items[k].name, items[k].nlen)) return true;
    if (m < nitems) from = items[m].to + 1;
  }
  return false;
}

void emit_cuda_trim(char *src) {
  int nlines = 0;
  for (const char *p = src; *p; p++) nlines += *p == '\n';
  int *line = malloc(sizeof *line * (size_t)(nlines + 2));
  TrimItem *items = malloc(sizeof *items * (size_t)(nlines + 1));
  int n = 0;
  line[n++] = 0;
  for (const char *p = src; *p; p++)
    if (*p == '\n' && p[1]) line[n++] = (int)(p + 1 - src);
  nlines = n;
  line[n] = (int)strlen(src);
  int nitems = trim_items(src, line, nlines, items, nlines + 1);
  for (bool again = true; again;) {
    again = false;
    for (int k = 0; k < nitems; k++)
      if (!items[k].dropped && !trim_used(src, line, nlines, items, nitems, k)) items[k].dropped = again = true;
  }
  char *w = src;
  for (int i = 0, k = 0; i < nlines; i++) {
    while (k < nitems && items[k].to < i) k++;
    if (k < nitems && items[k].dropped && i >= items[k].from) continue;
    size_t len = (size_t)(line[i + 1] - line[i]);
    memmove(w, src + line[i], len);
    w += len;
  }
  *w = 0;
  free(items);
  free(line);
}

char *emit_cuda(KSpec *S) {
  Em E = {.S = S, .D = &dialect_cuda};
  if (setjmp(S->fail)) {
    free(E.arrtypes.s);
    free(E.tuptypes.s);
    free(E.reach);
    return NULL;
  }
  if (S->divergent && !cuda_divergent_ok(S))
    em_efail(&E, S->divergent_loc, "%s, and the GPU's barriers need every waiting thread at the same one",
             S->divergent);
  em_reach(&E, S->kspec);
  cuda_memory_kinds(&E);
  Buf funcs = {0}, out = {0};
  Buf protos = {0}, cx = {0};
  for (int i = E.nreach - 1; i >= 1; i--) em_emit_device(&E, E.reach[i], &funcs);
  emit_cuda_kernel(&E, &funcs);
  em_emit_decls(&E, &protos, &cx);
  bool dp = rt_config.double_precision;
  em_bprintf(&out, cuda_preamble_fmt, S->name, OQK_ABI_TEXT, dp ? "double" : "float");
  if (uses_complex(S)) {
    em_bputs(&out, cuda_complex_helpers);
    em_bprintf(&out, "typedef %s oq_cplx;\n", dp ? "oq_c128" : "oq_c64");
    em_bputs(&out, cuda_complex_more);
  }
  em_vec_types(&out);
  em_bputs(&out, cuda_helpers);
  if (E.cas16) em_bputs(&out, cuda_cas16);
  if (S->coop) em_bputs(&out, cuda_warp_helpers);
  em_index_types(S, &out);
  em_bputs(&out, em_helpers_common);
  if (S->facts.nshared) em_bputs(&out, cuda_shared_helpers);
  else if (S->tr.npriv) em_bputs(&out, "extern __shared__ double oq_shbuf[];\n");
  if (S->tr.npriv) em_bputs(&out, cuda_merge_count);
  if (S->grid_barrier) em_bputs(&out, cuda_grid_helpers);
  if (S->tr.cmem_params) em_bprintf(&out, "__constant__ __align__(16) unsigned char oq_cmem[%d];   /* 'hwconst arrays */\n", K_CMEM_BYTES);
  cuda_out_helpers(S, &out);
  em_emit_tail(&E, &out, &protos, &cx, &funcs);
  return out.s;
}

int cuda_arg_words(const KSpec *S, int i) {
  Func *f = S->kfunc;
  if (i < f->nparams && is_special_kernel_param(f->params[i].name)) return 0;
  KType t = kspec_arg_type(S, i);
  switch (t.kind) {
  case K_ARRAY: return 2 + (t.rank > 0 ? t.rank : 1);
  case K_BOOL: case K_INT: case K_REAL: return 1;
  case K_CPLX: return 2;
  case K_VEC: return t.len;
  default: return 0;
  }
}
