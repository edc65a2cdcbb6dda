/* coarse.c: CUDA persistent blocks (em_coarsen_ok): resident blocks that each run the body
   of many launch blocks between one prologue and one epilogue, their shadows of float
   arrays, the last block's pass and the packed merge, which emit_cuda.c's epilogue of
   private copies shares. */
#include "base/config.h"
#include "codegen/cuda/cuda_priv.h"

enum { CGROUPS = 4 };   /* coarse groups, at most (em_cuda_coarse_ahead) */

/* ---- persistent blocks (em_coarsen_ok) ----
   The launcher starts only the resident blocks (1-D grid); each runs the prologue once, the
   body for its share of the launch's blocks (a contiguous run, or blocks a grid apart:
   coarse_loop; every thread of each, as the oracle), and the epilogue once. Its += into
   float arrays add into double shadows per element (OqkGrid.scr: [0] the blocks done, then
   merge_copies shadows per array: block b adds into copy b mod merge_copies, so that fewer
   blocks contend for one address: seed 000's hist_shared on the H100 lost 9 % with one copy,
   4-5 % with 2, and int64 shadows measured the same), and the last block to finish adds each
   element's shadows into its array once: the sums are the oracle's whenever its own
   additions were exact (integer counts), not rounded once per resident block. */

/* Persistent blocks under virtual threads: the GPU threads of one launch block (its
   constant size over cvec). */
int64_t em_cuda_coarse_gblock(KSpec *S) {
  return em_cuda_key_threads(S) / S->tr.cvec;
}

/* Whether the knobs leave persistent blocks under virtual threads their loads a step ahead
   and the grid-stride order (coarse_loop), which coarse groups need (em_cuda_coarse_ahead). */
static bool coarse_gs_knobs(void) {
  return config()->dev.coarse_pipe && config()->dev.coarse_gs;
}

/* A packed merge: when every block adds a whole number v into each element of an array
   exactly once (the epilogue's loop of em_packed_merge_ok; the flat kernels' merge of counted
   private copies), word w of the scratch holds the blocks that added (bits 52-63) and their
   sum (below, which the callers' bounds keep under 2^52 while fewer than 4096 blocks add);
   the block whose addition completes the word stores the element (store: a statement of
   _yo, the element as it was, and _sum) and clears the word. No blocks-done counter, no
   last block's pass (em_cuda_last_block_begin), whose loads wait for every block. The
   element is loaded before the atomic: no other block stores it. The words lie merge_copies apart (64
   bytes, like the shadows' copies: more L2 slices take the atomics; flat hist_naive at
   4096x4096x3 0.0737-0.0752 ms against 0.0765-0.0780 with adjacent words). Taken when _pk
   (em_cuda_packed_when); the caller's shadow update follows as its else. */
void em_cuda_packed_merge(Em *E, const char *w, const char *v, const char *ety, const char *y, const char *store) {
  em_line(E, "if (_pk) {");
  em_line(E, "  const %s _yo = %s;", ety, y);
  em_line(E, "  const unsigned long long _w = atomicAdd(%s, (1ull << 52) + (unsigned long long)(%s));", w, v);
  em_line(E, "  if (_w >> 52 == gridDim.x - 1) {");
  em_line(E, "    *(%s) = 0;", w);
  em_line(E, "    const unsigned long long _sum = (_w & ((1ull << 52) - 1)) + (unsigned long long)(%s);", v);
  em_line(E, "    %s", store);
  em_line(E, "  }");
  em_line(E, "} else");
}

/* When the launch merges packed (_pk, the same for the whole grid): at most `most` blocks
   (fewer than 4096: the sums fit), each with work enough: `work` (an expression of the
   kernel) at least `least` times the blocks. Every block adds every element, zero or not,
   with a returning atomic, and the blocks' atomics on one element wait in line: worth it
   when the blocks are few and finish apart, after long runs; the shadows skip zeros,
   spread over 8 copies and do not wait. H100, seed 000's hist_shared as persistent blocks
   (GPU blocks, launch blocks each), kernel ms packed against shadows, same process,
   alternating, in three machine starts: 8192x8192x3 (264, 1986) 0.2655-0.2682 against
   0.2686-0.2720; 4096x4096x3 (264, 496) 0.0720-0.0751 against 0.0737-0.0809; 2896x2896x3
   (2112, 32) 0.0609-0.0621 against 0.0478-0.0487 and 2048x2896x3 (2112, 22) 0.0496-0.0517
   against 0.0360-0.0373: many blocks queue on each word; 2048x2048x3 (528, 62) and
   1920x1080x3 (507, 32) within 1 us either way. Flat hist_naive (counted copies, 528
   blocks): 3-10 % faster packed at 2048x2896x3 to 4096x4096x3 (2^15 positions per block or
   more) in two starts, the same in a third, 4 % slower at 2048x2048x3. OQ_DEV_CUDA_PACKED=1:
   whenever the sums fit (tests). */
void em_cuda_packed_when(Em *E, const char *work, const char *least, int most) {
  bool always = config()->dev.cuda_packed == 1;
  em_line(E, "const bool _pk = gridDim.x <= %du%s;   /* packed_merge */", always ? 4095 : most,
          always ? "" : em_sf(E, " && %s >= %s * (int64_t)gridDim.x", work, least));
}

/* the epilogue's y[off] += v into y's shadow; false when y has none. A zero is not added
   (+0 and -0 leave a sum that started at +0 as it is): blocks of a flat image add few bins. */
bool em_cuda_shadow_update(Em *E, const Update *u) {
  const char *arr = u->P->arr, *off = u->off;
  Op op = u->op;
  char *v = u->v;
  KType vt = u->vt;
  if (u->res) return false;
  for (int k = 0; k < E->S->tr.ncoarse; k++)
    if (E->shadow_arr[k] && !strcmp(E->shadow_arr[k], arr)) {
      char *e = em_tmp(E);
      em_line(E, "const double %s = %s(double)(%s);", e, op == OP_SUB ? "-" : "", em_conv(E, v, vt, K_REAL));
      if (E->packed) {   /* v: a sum of counts (em_packed_merge_ok), below 2^30 */
        const char *y = em_sf(E, "((float *)P.a%d.data)[%s]", E->S->tr.coarse_arg[k], off);
        em_cuda_packed_merge(E, em_sf(E, "(unsigned long long *)_shd%d + (%s) * %d", k, off, E->S->tr.merge_copies), e, "float", y,
                     em_sf(E, "%s = (float)((double)_yo + (double)_sum);", y));
      }
      em_line(E, "if (%s != 0) atomicAdd(_shd%d + (blockIdx.x & %d) * _shn%d + (%s), %s);", e, k,
              E->S->tr.merge_copies - 1, k, off, e);
      return true;
    }
  return false;
}

/* the body's A[off] += c (an int literal) as an integer count: shared-memory float atomics
   are compare-and-swap loops, int ones are native; the counts stay below 2^24 (plan_cuda_coarse),
   so (float)count is what the float additions gave. An element outside A counts into the
   block's _oq_sink instead, without a branch; the same constant for every lane lets the
   compiler add each address's lanes at once (a selected 0 or 1 did not: the constant
   image, all lanes at one address, ran three times slower). */
bool em_cuda_count_update(Em *E, const Update *u) {
  const char *arr = u->P->arr, *off = u->off, *valid = u->valid;
  char *v = u->v;
  if (u->res || u->op != OP_ADD) return false;
  if (!E->count_arr || strcmp(E->count_arr, arr)) return false;
  if (!strcmp(valid, "1")) em_line(E, "atomicAdd((unsigned *)%s.p + (%s), (unsigned)(%s));", arr, off, v);
  else em_line(E, "atomicAdd(%s ? (unsigned *)%s.p + (%s) : &_oq_sink, (unsigned)(%s));", valid, arr, off, v);
  return true;
}

/* Whether the accumulator (the one shared array of a persistent-blocks kernel) is stored
   swizzled: element e at e ^ (bits 5-9 of e), a permutation within each 32 elements, so
   that threads adding to one column of a row-major [bins, c] array (virtual threads: every
   lane of a warp at once) spread over the 32 banks instead of 32 / c of them (H100, seed
   000's hist_shared on a uniform 8192x8192x3 image: 0.90-0.91 -> 0.93-0.94 of a read pass;
   without virtual threads the lanes spread already, and 1080p lost 10 %). Its size must be
   a constant multiple of 32. */
static bool count_swizzled(Em *E) {
  const struct KShSize *z = &E->S->tr.shsize[0];
  if (E->S->tr.cvec < 2 || !E->S->tr.shsized || E->S->facts.nshared != 1) return false;
  int64_t n = 1;
  for (int d = 0; d < z->rank; d++) {
    if (z->k[d] >= 0) return false;
    n *= z->add[d];
  }
  return n > 0 && n % 32 == 0;
}

static void coarse_statements(Em *E, int from, int to) {
  for (int i = from; i < to; i++) em_st(E, E->S->kfunc->body.items[i]);
}

/* In the last block, thread tid of nt: for each element _i of n (in groups of LAST_U per
   thread) var (of type ty) = the sum over its merge_copies copies _j of `copy` (an expression
   of _i and _j) and _yo = y[_i] (y: a pointer to elements of type ety), then `clear` (a
   statement of _i and _j) zeroes each copy for the next launch and `store` runs. Every load
   of a group in flight together: the last block runs alone while the other SMs idle, and a
   loop of one element at a time took a round trip through L2 for each. */
void em_cuda_last_pass(Em *E, const char *tid, const char *nt, const char *n, LastPass p) {
  int M = E->S->tr.merge_copies, U = E->S->fast ? 1 : LAST_U;   /* a first build: one (smaller) */
  em_line(E, "for (int64_t _i0 = %s; _i0 < %s; _i0 += %d * (int64_t)%s) {", tid, n, U, nt);
  E->ind++;
  em_line(E, "%s _sum[%d]; %s _old[%d];", p.ty, U, p.ety, U);
  em_line(E, "#pragma unroll");
  em_line(E, "for (int _u = 0; _u < %d; _u++) {", U);
  em_line(E, "  const int64_t _i = _i0 + _u * (int64_t)%s;", nt);
  em_line(E, "  _sum[_u] = 0; _old[_u] = 0;");
  em_line(E, "  if (_i >= %s) continue;", n);
  em_line(E, "  for (int _j = 0; _j < %d; _j++) _sum[_u] += %s;", M, p.copy);
  em_line(E, "  _old[_u] = (%s)[_i];", p.y);
  em_line(E, "}");
  em_line(E, "#pragma unroll");
  em_line(E, "for (int _u = 0; _u < %d; _u++) {", U);
  em_line(E, "  const int64_t _i = _i0 + _u * (int64_t)%s;", nt);
  em_line(E, "  if (_i >= %s) continue;", n);
  em_line(E, "  for (int _j = 0; _j < %d; _j++) { %s }", M, p.clear);
  em_line(E, "  const %s %s = _sum[_u]; const %s _yo = _old[_u]; %s *const _y = (%s) + _i;", p.ty, p.var, p.ety, p.ety, p.y);
  em_line(E, "  %s", p.store);
  em_line(E, "}");
  E->ind--;
  em_line(E, "}");
}

/* The last of the launch's blocks to get here goes into the `if (_last) {` this opens (and
   em_cuda_last_block_end closes), after every other block's writes: ctr counts the blocks that
   arrived (a word of the launch's scratch, which that block resets; NULL: no block goes
   in), tid is the thread's index in its block. Every thread of every block must reach it. */
void em_cuda_last_block_begin(Em *E, const char *tid, const char *ctr) {
  em_line(E, "__shared__ int _last;");
  em_line(E, "__threadfence();");
  em_line(E, "__syncthreads();");
  em_line(E, "if (%s == 0) _last = %s && atomicAdd(%s, 1ull) == gridDim.x - 1;", tid, ctr, ctr);
  em_line(E, "__syncthreads();");
  em_line(E, "if (_last) {");
  E->ind++;
  em_line(E, "__threadfence();");
}

void em_cuda_last_block_end(Em *E, const char *tid, const char *ctr) {
  em_line(E, "if (%s == 0) *%s = 0;", tid, ctr);
  E->ind--;
  em_line(E, "}");
}

static void coarse_finish(Em *E) {
  KSpec *S = E->S;
  if (!S->tr.ncoarse) return;
  if (E->packed) em_line(E, "if (!_pk) {   /* else the merge was packed */");
  E->ind += E->packed;
  em_cuda_last_block_begin(E, "_tid", "(unsigned long long *)P.scr");
  for (int k = 0; k < S->tr.ncoarse; k++) {
    LastPass p = {"double", "_v", em_sf(E, "__ldcg(_shd%d + _j * _shn%d + _i)", k, k), em_sf(E, "_shd%d[_j * _shn%d + _i] = 0;", k, k),
                  "float", em_sf(E, "(float *)P.a%d.data", S->tr.coarse_arg[k]), "if (_v != 0) *_y = (float)((double)_yo + _v);"};
    em_cuda_last_pass(E, "_tid", "_nt", em_sf(E, "_shn%d", k), p);
  }
  em_cuda_last_block_end(E, "_tid", "(unsigned long long *)P.scr");
  E->ind -= E->packed;
  if (E->packed) em_line(E, "}");
}

/* Virtual threads of persistent blocks (S->tr.cvec = F > 1, em_cuda_coarse_ahead): GPU thread g
   runs the block's Quasar threads F g, ..., F g + F - 1 (row-major in the block), so that
   their x[pos] reads are consecutive: one 16-byte load where the block's box and the array allow. Their
   locals that outlive a phase are arrays of F (indexed by _t: registers), as virtual threads'
   (emit_cuda.c's vthreads_ok); the shared array is taken once per GPU thread. */

/* Thread digit d of virtual thread t (T<d> with one Quasar thread per GPU thread). */
static char *coarse_tdigit(Em *E, int d, int t) {
  return E->S->tr.cvec > 1 ? em_sf(E, "_T%d_%d", d, t) : em_sf(E, "T%d", d);
}

/* In the scope of virtual thread t: its _t and thread digits; the position's digits. */
static void coarse_vthread(Em *E, int t) {
  KSpec *S = E->S;
  if (S->tr.cvec > 1) em_line(E, "const int _t = %d; (void)_t;", t);
  for (int d = 0; d < S->D && S->tr.cvec > 1; d++) em_line(E, "const oq_ix T%d = _T%d_%d;", d, d, t);
  for (int d = 0; d < S->D; d++) em_line(E, "const oq_ix P%d = B%d * b%d + T%d; (void)P%d;", d, d, d, d, d);
}

/* Statements [from, to) of the kernel for each virtual thread in turn (prologue, epilogue;
   locals: the thread's first assignments of special locals instead). */
static void coarse_phase(Em *E, int from, int to, bool locals) {
  for (int t = 0; t < E->S->tr.cvec; t++) {
    em_line(E, "{");
    E->ind++;
    coarse_vthread(E, t);
    if (locals) em_thread_prelude(E, true);
    else if (E->S->tr.cvec > 1) em_phase_body(E, &E->S->kfunc->body, from, to);
    else coarse_statements(E, from, to);
    E->ind--;
    em_line(E, "}");
  }
}

/* The body of virtual thread t in the block whose digits are B<d> = fmt(d), in its own scope. */
static void coarse_body(Em *E, const char *fmt, int t) {
  KSpec *S = E->S;
  int b1 = E->coarse_split[0], b2 = E->coarse_split[1];
  for (int d = 0; d < S->D; d++) em_line(E, "const oq_ix B%d = %s; (void)B%d;", d, em_sf(E, fmt, d), d);
  coarse_vthread(E, t);
  if (S->tr.cvec > 1) {
    em_phase_body(E, &S->kfunc->body, b1 + 1, b2);
    return;
  }
  em_thread_prelude(E, false);
  em_line(E, "{");
  E->ind++;
  coarse_statements(E, b1 + 1, b2);
  E->ind--;
  em_line(E, "}");
}

/* The digits _x of this resident block's next block (last dimension fastest): one added,
   with carries; the same for every thread of the block, so the branches are uniform. */
static void coarse_next(Em *E) {
  Buf b = {0};
  int D = E->S->D;
  if (E->coarse_gs) {   /* _G blocks further: the stride's digits _s added with carries */
    em_cuda_stride_step(E, D, "c%d", true);
    return;
  }
  /* _lb: the row-major position of the block's first thread, K<d> per digit, less c<d> K<d>
     where it wraps */
  em_bprintf(&b, "_lb += _K%d; ", D - 1);
  for (int d = D - 1; d >= 0; d--) {
    em_bprintf(&b, "if (++_x[%d] == c%d) { _x[%d] = 0; ", d, d, d);
    em_bprintf(&b, d ? "_lb += _K%d - c%d * _K%d; " : "_lb -= c%d * _K%d; ", d ? d - 1 : d, d, d);
  }
  for (int d = D - 1; d >= 0; d--) em_bputs(&b, "}");
  em_line(E, "%s", b.s);
  free(b.s);
}

/* Slot k's loads of virtual thread t: register _la<j>_<F k + t> of each read ahead. */
static void coarse_loads(Em *E, int k, int t, int nahead, const char *p) {
  KSpec *S = E->S;
  em_line(E, "{");
  E->ind++;
  for (int d = 0; d < S->D; d++) em_line(E, "const oq_ix B%d = _%sx%d_%d; (void)B%d;", d, p, k, d, d);
  coarse_vthread(E, t);
  em_thread_prelude(E, false);
  E->lpos = em_sf(E, "(_%slb%d + _lt%d)", p, k, t);
  E->nahead = 0;   /* the loads themselves */
  for (int j = 0; j < nahead; j++) em_line(E, "_%sla%d_%d = %s;", p, j, S->tr.cvec * k + t, em_index_read(E, E->ahead[j]));
  E->nahead = nahead;
  E->ind--;
  em_line(E, "}");
}

/* Slot k's loads of all virtual threads: one float4 per read when the thread's Quasar threads
   are consecutive in the array (_vok) and the first is 16-byte aligned, else one by one.
   (The registers of a step: digits _<p>x<k>_<d>, first element _<p>lb<k>, loaded values
   _<p>la<j>_<i>; p is "" for the step whose bodies run, "n" for the next one's, coarse_piped.) */
static void coarse_vloads(Em *E, int k, int nahead, const char *p) {
  KSpec *S = E->S;
  int F = S->tr.cvec;
  if (F < 2) {
    coarse_loads(E, k, 0, nahead, p);
    return;
  }
  em_line(E, "if (_vall || (_vok && ((_%slb%d + _lt0) & 3) == 0)) {", p, k);
  for (int j = 0; j < nahead; j++) {
    Node *a = E->ahead[j]->a;
    em_line(E, "  const float4 _v4_%d = __ldg((const float4 *)(%s.p + _%slb%d + _lt0));", j, em_slot_ref(E, a->slot), p, k);
    for (int t = 0; t < F; t++) em_line(E, "  _%sla%d_%d = _v4_%d.%c;", p, j, F * k + t, j, "xyzw"[t]);
  }
  em_line(E, "} else {");
  E->ind++;
  for (int t = 0; t < F; t++) coarse_loads(E, k, t, nahead, p);
  E->ind--;
  em_line(E, "}");
}

/* The digit along which the groups of a GPU block take consecutive blocks, or -1 (coarse
   groups, em_cuda_coarse_ahead; only in the grid-stride order). */
static int group_dim(Em *E) {
  return E->coarse_gs && E->S->tr.cgroups > 1 ? E->S->tr.cgroup_dim : -1;
}

/* Whether the m-th block from vb, in this resident block's order, is one of the launch's
   (under coarse groups vb is the GPU block's first of V, and V divides nvb). */
static char *coarse_has(Em *E, int m) {
  return E->coarse_gs ? em_sf(E, "vb + %d * _G < nvb", m) : em_sf(E, "vb + %d < _vb1", m);
}

/* The digits and first elements of the U blocks of a step from _x on, _x advanced past
   them: new constants (p "") or the next step's registers (p "n", coarse_piped). */
static void coarse_step_digits(Em *E, int U, const char *p) {
  const char *decl = *p ? "" : "const oq_ix ";
  int gd = group_dim(E);
  for (int k = 0; k < U; k++) {
    for (int d = 0; d < E->S->D; d++) em_line(E, "%s_%sx%d_%d = _x[%d]%s;", decl, p, k, d, d, d == gd ? " + _grp" : "");
    em_line(E, *p ? "%s_%slb%d = _lb;" : "%s_%slb%d = _lb; (void)_lb%d;", decl, p, k, k);
    coarse_next(E);
  }
}

/* The bodies of a step's U blocks (coarse_step), virtual thread by virtual thread. */
static void coarse_bodies(Em *E, int U, bool part) {
  for (int k = 0; k < U; k++)
    for (int t = 0; t < E->S->tr.cvec; t++) {
      E->pf_k = E->S->tr.cvec * k + t;
      E->lpos = em_sf(E, "(_lb%d + _lt%d)", k, t);
      em_line(E, part && k ? em_sf(E, "if (%s) {", coarse_has(E, k)) : "{");
      E->ind++;
      coarse_body(E, em_sf(E, "_x%d_%%d", k), t);
      E->ind--;
      em_line(E, "}");
    }
}

/* One step of U bodies of the blocks from the digits _x on: all present, or (part) only
   those that are the launch's (coarse_has: the last step; its bodies' loads are still in
   flight together, where single bodies would wait for one load each). The step's x[pos] reads
   (E->ahead) are all loaded before its bodies, so that U loads per thread are in flight
   instead of one: the digits of the step's blocks, the loads, then the bodies. A slot's test
   is the same for the whole block: uniform branches. */
static void coarse_step(Em *E, int U, bool part) {
  KSpec *S = E->S;
  int F = S->tr.cvec;
  coarse_step_digits(E, U, "");
  int nahead = E->nahead;
  for (int k = 0; k < U && nahead; k++) {
    for (int j = 0; j < nahead; j++)
      for (int t = 0; t < F; t++) em_line(E, "%s _la%d_%d;", em_ctype(E, em_T(E, E->ahead[j])), j, F * k + t);
    if (part && k) em_line(E, "if (%s)", coarse_has(E, k));
    coarse_vloads(E, k, nahead, "");
  }
  coarse_bodies(E, U, part);
}

/* The next step's digits and loads (coarse_piped): into the n-prefixed registers. */
static void coarse_next_step(Em *E, int U) {
  coarse_step_digits(E, U, "n");
  for (int k = 0; k < U; k++) coarse_vloads(E, k, E->nahead, "n");
}

/* Whole steps of U bodies as coarse_step runs them, but with the next step's loads in flight
   while this step's bodies run: each step's digits and loads go into the n-prefixed
   registers during the step before (the first before the loop), and the step copies them.
   (96 registers for seed 000's hist_shared, 7 blocks of 96 threads per SM.) */
static void coarse_piped(Em *E, int U) {
  KSpec *S = E->S;
  int F = S->tr.cvec, nahead = E->nahead;
  for (int k = 0; k < U; k++) {
    for (int d = 0; d < S->D; d++) em_line(E, "oq_ix _nx%d_%d = 0;", k, d);
    em_line(E, "oq_ix _nlb%d = 0;", k);
    for (int j = 0; j < nahead; j++)
      for (int t = 0; t < F; t++) em_line(E, "%s _nla%d_%d = 0;", em_ctype(E, em_T(E, E->ahead[j])), j, F * k + t);
  }
  em_line(E, "if (%s) {", coarse_has(E, U - 1));
  E->ind++;
  coarse_next_step(E, U);
  E->ind--;
  em_line(E, "}");
  em_line(E, "for (; %s; vb += %s) {", coarse_has(E, U - 1), E->coarse_gs ? em_sf(E, "%d * _G", U) : em_sf(E, "%d", U));
  E->ind++;
  for (int k = 0; k < U; k++) {
    for (int d = 0; d < S->D; d++) em_line(E, "const oq_ix _x%d_%d = _nx%d_%d;", k, d, k, d);
    em_line(E, "const oq_ix _lb%d = _nlb%d; (void)_lb%d;", k, k, k);
    for (int j = 0; j < nahead; j++)
      for (int t = 0; t < F; t++)
        em_line(E, "const %s _la%d_%d = _nla%d_%d;", em_ctype(E, em_T(E, E->ahead[j])), j, F * k + t, j, F * k + t);
  }
  em_line(E, "if (%s) {", coarse_has(E, 2 * U - 1));
  E->ind++;
  coarse_next_step(E, U);
  E->ind--;
  em_line(E, "}");
  coarse_bodies(E, U, false);
  E->ind--;
  em_line(E, "}");
}

/* The row-major element, over the launch's extents n<d>, whose digit d is digit[d]. */
static char *row_major(Em *E, char *const *digit) {
  char *r = "(oq_ix)0";
  for (int d = 0; d < E->S->D; d++) r = em_sf(E, "(%s) * n%d + %s", r, d, digit[d]);
  return r;
}

/* The bodies of the launch's blocks this resident block runs: whole steps of U, then one step
   of the rest. Under virtual threads (vector loads) the next step's loads are in flight
   while a step's bodies run (coarse_piped) and the resident blocks take the blocks
   grid-stride (blockIdx.x, + _G, ...: the grid sweeps the image together); else each takes
   a contiguous run [_vb0, _vb1). H100, seed 000's hist_shared on 8192x8192x3: 0.923-0.958
   of a read pass in runs, 0.946-0.965 with both (either alone: no gain; grid-stride alone
   lost 5-10 % at 1080p, where there are no virtual threads). OQ_DEV_CUDA_COARSE_PIPE=0,
   OQ_DEV_CUDA_COARSE_GS=0: without (tuning knobs). */
static void coarse_loop(Em *E, int U) {
  KSpec *S = E->S;
  bool piped = S->tr.cvec > 1 && E->nahead && config()->dev.coarse_pipe;
  E->coarse_gs = piped && coarse_gs_knobs();
  if (piped) em_xform_note(S, "%s", E->coarse_gs ? "pipelined-loads, grid-stride-blocks" : "pipelined-loads");
  if (E->coarse_gs && S->tr.cgroups > 1) {   /* GPU block b: blocks _V b, + _G...; group _grp the _grp-th after each */
    em_line(E, "const oq_ix _V = (oq_ix)blockDim.x / %lld, _G = (oq_ix)gridDim.x * _V;", (long long)em_cuda_coarse_gblock(S));
    em_line(E, "oq_ix _x[%d], _s[%d], vb = (oq_ix)blockIdx.x * _V;", S->D, S->D);
    em_cuda_stride_digits(E, S->D, "c%d", "vb", "_G");
  } else if (E->coarse_gs) {   /* blocks blockIdx.x, + _G, + 2 _G...: the stride's digits _s */
    em_line(E, "const oq_ix _G = (oq_ix)gridDim.x;");
    em_line(E, "oq_ix _x[%d], _s[%d], vb = (oq_ix)blockIdx.x;", S->D, S->D);
    em_cuda_stride_digits(E, S->D, "c%d", "vb", "_G");
  } else {
    em_line(E, "const oq_ix _per = (nvb + (oq_ix)gridDim.x - 1) / (oq_ix)gridDim.x, _vb0 = (oq_ix)blockIdx.x * _per;");
    em_line(E, "const oq_ix _vb1 = _vb0 + _per < nvb ? _vb0 + _per : nvb;");
    em_line(E, "oq_ix _x[%d], vb = _vb0;", S->D);
    em_cuda_stride_digits(E, S->D, "c%d", "_vb0", NULL);
  }
  /* row-major positions: each virtual thread's in its block (_lt<t>), the block's first
     (_lb), and what one more of digit d adds to that (_K<d>) */
  char *digit[OQ_MAX_RANK];
  Buf kd = {0};
  em_bputs(&kd, "1");
  for (int d = S->D - 1; d >= 0; d--) {
    em_line(E, "const oq_ix _K%d = b%d * (%s);", d, d, kd.s);
    em_bprintf(&kd, " * n%d", d);
  }
  int gd = group_dim(E);
  for (int t = 0; t < S->tr.cvec; t++) {
    for (int d = 0; d < S->D; d++) digit[d] = coarse_tdigit(E, d, t);
    em_line(E, "const oq_ix _lt%d = %s%s; (void)_lt%d;", t, row_major(E, digit), gd >= 0 ? em_sf(E, " + _grp * _K%d", gd) : "", t);
  }
  for (int d = 0; d < S->D; d++) digit[d] = em_sf(E, "_x[%d] * b%d", d, d);
  em_line(E, "oq_ix _lb = %s; (void)_lb;", row_major(E, digit));
  if (E->coarse_gs) {   /* em_cuda_stride_step's increments of _lb */
    Buf st = {0};
    for (int d = 0; d < S->D; d++) em_bprintf(&st, "%s_s[%d] * _K%d", d ? " + " : "", d, d);
    em_line(E, "const oq_ix _D = %s;", st.s);
    free(st.s);
    for (int d = 1; d < S->D; d++) em_line(E, "const oq_ix _W%d = _K%d - c%d * _K%d;", d, d - 1, d, d);
  }
  if (S->tr.cvec > 1) {   /* the thread's Quasar threads are consecutive in every array read ahead */
    Buf ok = {0};
    em_bprintf(&ok, "_lt%d - _lt0 == %d", S->tr.cvec - 1, S->tr.cvec - 1);
    for (int j = 0; j < E->nahead; j++) em_bprintf(&ok, " && ((size_t)%s.p & 15) == 0", em_slot_ref(E, E->ahead[j]->a->slot));
    em_line(E, "const bool _vok = %s;", ok.s);
    /* every block's first element aligned too when every digit that moves adds a multiple of
       4 (_lb is the sum of digit d times _K<d>): one test for the whole loop */
    Buf k4 = {0};
    for (int d = 0; d < S->D; d++) em_bprintf(&k4, "%s(c%d == 1 ? 0 : _K%d)", d ? " | " : "", d, d);
    em_line(E, "const bool _vall = _vok && ((_lb + _lt0) & 3) == 0 && ((%s) & 3) == 0;", k4.s);
    free(k4.s);
    free(ok.s);
  }
  free(kd.s);
  for (int part = 0; part < (U > 1 ? 2 : 1); part++) {
    if (!part && piped) {
      coarse_piped(E, U);
      continue;
    }
    em_line(E, part ? em_sf(E, "if (%s) {", coarse_has(E, 0))
                    : em_sf(E, "for (; %s; vb += %s) {", coarse_has(E, U - 1), E->coarse_gs ? em_sf(E, "%d * _G", U) : em_sf(E, "%d", U)));
    E->ind++;
    coarse_step(E, U, part);
    E->ind--;
    em_line(E, "}");
  }
  E->nahead = 0;
  E->lpos = NULL;
  E->coarse_gs = false;
}

/* The x[pos] reads of the body that are loaded ahead (E->ahead), and whether GPU threads run
   4 consecutive Quasar threads each (S->tr.cvec): when the launcher proposed it (want, plan.c's
   cuda_cvec), the block size is a constant of the key, its threads a multiple of 4 * 32, every
   read ahead is of a float parameter of the launch's shape (its offset is the position; single
   precision: the registers are floats) and no shared array is zeroed by its owners (that
   rule walks the GPU block's axes). */
void em_cuda_coarse_ahead(Em *E, int want) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  E->nahead = 0;
  for (int i = E->coarse_split[0] + 1; i < E->coarse_split[1]; i++) em_cuda_pf_walk(E, f->body.items[i], true);
  int64_t threads = em_cuda_key_threads(S);
  bool ok = want == 4 && threads > 0 && threads % 128 == 0 && E->nahead > 0 && !E->sh_owned &&
            !rt_config.double_precision;
  for (int j = 0; j < E->nahead && ok; j++) {
    Node *a = E->ahead[j]->a;
    int p = a->kind == N_IDENT && a->depth == 0 ? a->slot - f->ngenerics : -1;
    ok = p >= 0 && p < f->nparams && p < 32 && (S->at_launch >> p & 1) && (E->ldg_params >> p & 1) &&
         S->kspec->params[p].el == EL_F32;
  }
  S->tr.cvec = ok ? 4 : 1;
  if (ok) em_xform_note(S, "%s", "vector-loads(4)");
  /* coarse groups: up to CGROUPS launch blocks' threads per GPU block, each group taking its
     own blocks grid-stride (coarse_loop) and all adding into the one accumulator, which the
     first group's epilogue merges: V times fewer merges, the merge being what this kernel
     pays beyond its loads (H100, seed 000's hist_shared at 8192x8192x3, by hand: 0.2704-0.2720
     ms with 1 group, 0.2684-0.2700 with 4; tools/hist_variants.cu). The prologue (zero stores
     and locals) runs in every group: stores of zeros before the barrier are idempotent. The
     resident blocks step through the launch's blocks V at a time (vb, a multiple of V, stays
     the same for the whole GPU block: its digits live in uniform registers) and group g takes
     block vb + g, g further along digit cgroup_dim, which V divides: no carry. */
  S->tr.cgroup_dim = S->D - 1;   /* the last digit that can move (the launcher makes V divide its count) */
  while (S->tr.cgroup_dim >= 0 && (S->one_block >> S->tr.cgroup_dim & 1)) S->tr.cgroup_dim--;
  S->tr.cgroups = ok && S->tr.cgroup_dim >= 0 && coarse_gs_knobs() ? CGROUPS : 1;   /* (ok: coarse_loop's piped holds) */
  if (S->tr.cgroups > 1) em_xform_note(S, "%s", em_sf(E, "coarse-groups(%d)", S->tr.cgroups));
}

/* The epilogue when it is one block-stride loop (em_block_stride_loop), else NULL. */
static Node *epilogue_loop(Em *E) {
  Func *f = E->S->kfunc;
  int b2 = E->coarse_split[1];
  Node *n = b2 + 2 == f->body.n ? f->body.items[b2 + 1] : NULL;
  return n && em_block_stride_loop(E, n) ? n : NULL;
}

/* The epilogue, once per GPU block (one accumulator). A block-stride loop spreads over all of
   the GPU block's threads, one iteration each where it can (seed 000's merge of 256 bins in
   384 threads); else the first group runs it, each thread for its virtual threads in turn.
   A loop that adds a sum of counts into the one shadowed array merges packed. */
static void coarse_epilogue(Em *E) {
  KSpec *S = E->S;
  Node *n = epilogue_loop(E);
  if (n) {
    em_block_stride_phase(E, n, "_tid", "_nt");
    return;
  }
  if (S->tr.cgroups > 1) em_line(E, "if (_grp == 0) {   /* the epilogue once per accumulator */");
  E->ind += S->tr.cgroups > 1;
  coarse_phase(E, E->coarse_split[1] + 1, S->kfunc->body.n, false);
  E->ind -= S->tr.cgroups > 1;
  if (S->tr.cgroups > 1) em_line(E, "}");
}

/* Whether the accumulator is held as unsigned counts (every update adds an int constant). */
static bool coarse_counts(KSpec *S) {
  return S->tr.coarse_inc && !config()->dev.coarse_float;
}

/* Whether the epilogue merges packed (em_cuda_packed_merge): it is one block-stride loop, which
   coarse_epilogue spreads over the GPU block, adding a sum of counts into the one shadowed
   array. OQ_DEV_CUDA_PACKED=0: never (a knob, to compare); a first build neither (the other
   merge, which the launch picks where packing does not pay, sums the same integers). */
void em_cuda_coarse_packed(Em *E) {
  KSpec *S = E->S;
  Node *n = epilogue_loop(E);
  E->packed = n && !S->fast && coarse_counts(S) && S->tr.ncoarse == 1 &&
              em_packed_merge_ok(E, n, S->kfunc->ngenerics + S->tr.coarse_arg[0]) && config()->dev.cuda_packed != 0;
  if (E->packed) em_xform_note(S, "%s", "packed-merge");
}

void em_cuda_coarse_kernel(Em *E) {
  KSpec *S = E->S;
  FSpec *k = S->kspec;
  Func *f = S->kfunc;
  int b1 = E->coarse_split[0], b2 = E->coarse_split[1], F = S->tr.cvec;
  /* the GPU block's threads as one row (the epilogue's loop, the last block's pass) */
  em_line(E, "const unsigned _tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); (void)_tid;");
  em_line(E, "const unsigned _nt = blockDim.x * blockDim.y * blockDim.z; (void)_nt;");
  if (F > 1) {   /* the thread digits of Quasar thread F g + t, last dimension fastest */
    if (S->tr.cgroups > 1) {   /* group _grp of the GPU block (em_cuda_coarse_ahead) */
      long long gb = (long long)em_cuda_coarse_gblock(S);
      em_line(E, "const oq_ix _grp = threadIdx.x / %lld, _g = threadIdx.x - _grp * %lld;", gb, gb);
      em_line(E, "__builtin_assume(_g >= 0 && _g < %lld);   /* (the thread digits fold as with one group) */", gb);
    } else {
      em_line(E, "const oq_ix _g = threadIdx.x;");
    }
    for (int t = 0; t < F; t++) {
      em_line(E, "oq_ix _q%d = _g * %d + %d;", t, F, t);
      for (int d = S->D - 1; d >= 0; d--) em_line(E, "const oq_ix _T%d_%d = _q%d %% b%d; _q%d /= b%d;", d, t, t, d, t, d);
    }
    for (int s = f->ngenerics; s < func_info(f)->nslots; s++)
      if (E->sc[s] == SC_LOCAL && E->pphase[s] != 1)
        em_line(E, E->pphase[s] ? "%s %s = {};" : "%s %s[%d] = {};", em_ctype(E, k->slots[s]), em_slot_name(E, k, s), F);
  } else {
    for (int d = 0; d < S->D; d++) em_line(E, "const oq_ix T%d = threadIdx.%s;", d, em_cuda_axis[S->D - 1 - d]);
  }
  em_line(E, "size_t _shoff = 0;");
  Buf nvb = {0};
  for (int d = 0; d < S->D; d++) em_bprintf(&nvb, "%sc%d", d ? " * " : "", d);
  em_line(E, "const oq_ix nvb = %s;", nvb.s);
  free(nvb.s);
  if (E->packed) em_cuda_packed_when(E, "(int64_t)nvb", "256", 512);
  em_line(E, "double *_shd_next = (double *)P.scr + 1; (void)_shd_next;");
  for (int j = 0; j < S->tr.ncoarse; j++) {
    int a = S->tr.coarse_arg[j];
    Buf n = {0};
    em_bputs(&n, "(int64_t)1");
    for (int d = 0; d < k->params[a].rank; d++) em_bprintf(&n, " * P.a%d.dims[%d]", a, d);
    em_line(E, "double *const _shd%d = _shd_next; const int64_t _shn%d = %s; _shd_next += %d * _shn%d;", j, j, n.s, S->tr.merge_copies, j);
    free(n.s);
    E->shadow_arr[j] = em_slot_name(E, k, f->ngenerics + a);
  }
  /* prologue and epilogue see no block index: the first block's stands in */
  em_line(E, "oq_ix r_ = blockIdx.x; (void)r_;");
  for (int d = S->D - 1; d >= 0; d--) em_line(E, "const oq_ix B%d = r_ %% c%d; r_ /= c%d;", d, d, d);
  E->ret_label = "_next";
  E->has_return = false;
  if (coarse_counts(S)) E->count_arr = em_slot_name(E, k, E->coarse_slot);
  if (E->count_arr) em_line(E, "__shared__ unsigned _oq_sink;   /* counts of elements outside the accumulator */");
  E->count_swz = E->count_arr && count_swizzled(E);
  if (E->count_swz) em_xform_note(S, "%s", "swizzled-counts");
  if (F > 1) coarse_phase(E, 0, 0, true);
  else {
    for (int d = 0; d < S->D; d++) em_line(E, "const oq_ix P%d = B%d * b%d + T%d; (void)P%d;", d, d, d, d, d);
    em_thread_prelude(E, true);
  }
  em_line(E, "{");
  E->ind++;
  coarse_phase(E, 0, b1, false);
  coarse_statements(E, b1, b1 + 1);
  /* bodies per step: a tuning knob; a first build (tiers) takes one (hist_000's `kernel`:
     NVRTC 13.0 took 300 ms at 8, 190 at 1) */
  coarse_loop(E, E->S->fast ? 1 : config()->dev.coarse_unroll);
  for (int j = 0; j < S->tr.ncoarse; j++) E->shadow_arr[j] = NULL;
  coarse_statements(E, b2, b2 + 1);
  for (int j = 0; j < S->tr.ncoarse; j++) E->shadow_arr[j] = em_slot_name(E, k, f->ngenerics + S->tr.coarse_arg[j]);
  coarse_epilogue(E);
  for (int j = 0; j < S->tr.ncoarse; j++) E->shadow_arr[j] = NULL;
  E->count_arr = NULL;
  E->count_swz = false;
  E->ind--;
  em_line(E, "}");
  coarse_finish(E);
}

