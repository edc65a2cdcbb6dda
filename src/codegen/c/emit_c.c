/* emit_c.c: the C dialect: C source for a specialized kernel, run by rt_cpu.c.

   The generated file holds one exported entry, oqk_entry(L, W, lo, hi), that runs a range of
   work: in "flat" kernels (only `pos` is used) a range of linear positions, run by one of
   several loop functions whose innermost dimension the C compiler can vectorize; otherwise a
   range of blocks, each block running its threads in row-major order like the oracle.
   Kernels with syncthreads are cut at their barriers into phases, each a loop over the
   threads of the block; locals become per-thread arrays, and statements that hold a barrier
   (under conditions every thread agrees on) run once per block around their phases. When
   the threads may disagree, each thread of a block is a fiber instead. */
#include "base/config.h"
#include "codegen/emit.h"
#include "codegen/codegen.h"

static void block_level(Em *E, NodeList *l);

/* The threads of a block in row-major order, _t counting them: nested loops, so that the C
   compiler sees positions advance by one in the last dimension (per-thread locals are
   indexed by _t; `continue` in thread code still advances it). */
static void thread_loop_open(Em *E) {
  int D = E->S->D;
  em_line(E, "{ int64_t _t = 0;");
  for (int d = 0; d < D; d++)
    em_line(E, "for (int64_t T%d = 0; T%d < b%d; T%d++%s)", d, d, d, d, d == D - 1 ? ", _t++" : "");
  em_line(E, "{");
  E->ind++;
  for (int d = 0; d < D; d++) em_line(E, "const int64_t P%d = B%d * b%d + T%d;", d, d, d, d);
  /* (int32_t)_t is the thread index of the program: tell the compiler it is not negative,
     so that mod(ind, 4) is an and and the index test after it folds */
  em_line(E, "if (_t < 0 || _t > 2147483647) __builtin_unreachable();");
}

static void thread_loop_close(Em *E) {
  E->ind--;
  em_line(E, "} }");
}

/* The statements of a phase for every thread of the block in turn. */
static void phase_threads(Em *E, NodeList *l, int from, int to) {
  thread_loop_open(E);
  em_phase_body(E, l, from, to);
  thread_loop_close(E);
}

/* A phase. When it reads or writes arguments at pos + c (em_row_tests), a block whose first
   and last positions are inside them for every such access has every access inside: that
   block runs a copy of the phase without their bounds tests (E->row_fast). */
static void phase(Em *E, NodeList *l, int from, int to) {
  if (to - from == 1 && em_block_stride_loop(E, l->items[from])) {
    em_block_stride_phase(E, l->items[from], "0", "1");
    return;
  }
  Buf tests = {0}, unused = {0};
  for (int i = from; i < to; i++) em_row_tests(E, l->items[i], -1, &tests, &unused);
  free(unused.s);
  if (!tests.len) {
    phase_threads(E, l, from, to);
    return;
  }
  char *in = em_tmp(E);
  em_line(E, "int %s = 1;", in);
  for (int corner = 0; corner < 2; corner++) {
    em_line(E, "if (%s) {", in);
    for (int d = 0; d < E->S->D; d++)
      em_line(E, "  const int64_t P%d = B%d * b%d%s;", d, d, d, corner ? em_sf(E, " + b%d - 1", d) : "");
    em_line(E, "  %s = 1%s;", in, tests.s);
    em_line(E, "}");
  }
  free(tests.s);
  em_line(E, "if (%s) {", in);
  E->ind++;
  E->row_fast = true;
  phase_threads(E, l, from, to);
  E->row_fast = false;
  E->ind--;
  em_line(E, "} else {");
  E->ind++;
  phase_threads(E, l, from, to);
  E->ind--;
  em_line(E, "}");
}

/* Evaluates a condition (or range bounds) for every thread, requiring they all agree. */
static void uniform_eval(Em *E, Node *at, int nvals, Node **vals, bool cond, char **out) {
  int site = em_div_site(E, at, KE_BARRIER);
  for (int i = 0; i < nvals; i++) {
    out[i] = em_tmp(E);
    em_line(E, "%s %s = 0;", cond ? "int32_t" : "int64_t", out[i]);
  }
  thread_loop_open(E);
  em_thread_prelude(E, false);
  for (int i = 0; i < nvals; i++) {
    KType t = em_T(E, vals[i]);
    char *v = em_ex(E, vals[i]);
    char *c = cond ? em_truthy(E, v, t) : em_sf(E, "(int64_t)%s", em_conv(E, v, t, K_INT));
    char *x = em_tmp(E);
    em_line(E, "%s %s = %s;", cond ? "int32_t" : "int64_t", x, c);
    em_line(E, "if (_t == 0) %s = %s;", out[i], x);
    em_line(E, "else if (%s != %s) { oq_fail(L, %d); goto _done; }", x, out[i], site);
  }
  thread_loop_close(E);
}

static void block_stmt(Em *E, Node *n) {
  em_loc_comment(E, n);
  char *u[3];
  switch (n->kind) {
  case N_IF: {
    Node *c = n->a;
    uniform_eval(E, n, 1, &c, true, u);
    em_line(E, "if (%s) {", u[0]);
    E->ind++;
    block_level(E, &n->list);
    E->ind--;
    em_line(E, "} else {");
    E->ind++;
    block_level(E, &n->list2);
    E->ind--;
    em_line(E, "}");
    return;
  }
  case N_WHILE: case N_REPEAT: {
    Node *c = n->a;
    em_line(E, "for (;;) {");
    E->ind++;
    if (n->kind == N_WHILE) {
      uniform_eval(E, n, 1, &c, true, u);
      em_line(E, "if (!%s) break;", u[0]);
      block_level(E, &n->list);
    } else {
      block_level(E, &n->list);
      uniform_eval(E, n, 1, &c, true, u);
      em_line(E, "if (%s) break;", u[0]);
    }
    E->ind--;
    em_line(E, "}");
    return;
  }
  case N_FOR: {
    Node *r = n->a;
    KType lv = E->f->slots[n->slot];
    if (r->kind != N_RANGE || em_T(E, r).kind != K_INT) em_efail(E, n->loc, "a barrier in a loop that is not over an int range");
    Node *vals[3] = {r->a, r->b ? r->b : NULL, r->c};
    em_line(E, "{");
    E->ind++;
    if (r->b) uniform_eval(E, n, 3, vals, false, u);
    else {
      Node *v2[2] = {r->a, r->c};
      char *u2[2];
      uniform_eval(E, n, 2, v2, false, u2);
      u[0] = u2[0];
      u[1] = "1";
      u[2] = u2[1];
    }
    em_line(E, "const int64_t _sp%d = %s - %s;", n->loc.line, u[2], u[0]);
    em_line(E, "if (%s == 0) { oq_fail(L, %d); goto _done; }", u[1], em_div_site(E, r, KE_RANGE));
    em_line(E, "const int64_t _n%d = (%s > 0 ? _sp%d >= 0 : _sp%d <= 0) ? _sp%d / %s + 1 : 0;", n->loc.line, u[1],
         n->loc.line, n->loc.line, n->loc.line, u[1]);
    em_line(E, "for (int64_t _k%d = 0; _k%d < _n%d; _k%d++) {", n->loc.line, n->loc.line, n->loc.line, n->loc.line);
    E->ind++;
    em_line(E, "for (int64_t _t = 0; _t < _nthr; _t++) %s = %s;", em_slot_ref(E, n->slot),
         em_conv(E, em_sf(E, "(int32_t)(%s + _k%d * %s)", u[0], n->loc.line, u[1]), em_kt(K_INT), lv.kind));
    block_level(E, &n->list);
    E->ind--;
    em_line(E, "}");
    E->ind--;
    em_line(E, "}");
    return;
  }
  case N_BLOCK: block_level(E, &n->list); return;
  default: em_efail(E, n->loc, "internal: barrier in %s", node_kind_name(n->kind));
  }
}

/* Statements at block level: runs of barrier-free statements become phases. */
static void block_level(Em *E, NodeList *l) {
  int i = 0;
  while (i < l->n) {
    Node *n = l->items[i];
    NodeInfo *ni = ksema_info(E->f, n);
    if (ni && ni->barrier) {
      if (!em_is_barrier_stmt(n)) block_stmt(E, n);
      i++;
      continue;
    }
    int j = em_phase_end(E, l, i);
    phase(E, l, i, j);
    i = j;
  }
}

static const char *mode_name(Em *E) {
  KSpec *S = E->S;
  return E->fiber ? "fibers" : S->barrier ? "phases" : S->uses_block ? "blocks" : "flat";
}

KType em_k_params_type(KSpec *S, int a) { return S->kspec->params[a]; }

/* The end of an entry or variant function: the worker's output accumulators, then
   `return RET;`. */
static void entry_end(Em *E, const char *ret) {
  Func *f = E->S->kfunc;
  int obase = f->ngenerics + f->nparams;
  em_bputs(E->b, "_done:\n");
  for (int o = 0; o < f->nouts; o++) {
    KType t = E->S->kspec->slots[obase + o];
    em_line(E, "W->out_%c[%d] = acc%d;", t.kind == K_INT ? 'i' : 'r', o, o);
  }
  em_line(E, "return%s%s;", *ret ? " " : "", ret);
  em_bputs(E->b, "}\n");
}

/* ---- flat kernels: one function per loop variant ----
   Each loop (linear, linear with positions, rows along one dimension) is a function of its
   own with its own loads: with all of them in one function the C compiler kept the hot
   loop's pointers and bounds on the stack. A variant that needs a run-time condition (the
   C expression `test`, "" for none) returns 0 when it does not hold, before any work.
   With private copies, the variant's body takes the launch's mask as a parameter and is
   inlined twice, for the mask with every copy made (the usual launch: no test per update
   in the loop) and for any mask. */
static void variant_open(Em *E, int v, const char *test) {
  const char *sig = "(OqkLaunch *L, OqkWorker *W, int64_t lo, int64_t hi";
  if (E->S->tr.npriv) em_bprintf(E->b, "static inline __attribute__((always_inline)) int oqk_v%d_%s, const unsigned _pm) {\n", v, sig);
  else em_bprintf(E->b, "static __attribute__((noinline)) int oqk_v%d%s) {\n", v, sig);
  E->pmask = "_pm";
  E->ind = 1;
  em_line(E, "(void)W;");
  em_kernel_loads(E);
  E->pmask = NULL;
  if (*test) em_line(E, "if (!(1%s)) return 0;", test);
}

static void variant_close(Em *E, int v) {
  entry_end(E, "1");
  int n = E->S->tr.npriv;
  if (!n) return;
  unsigned all = (1u << n) - 1;
  em_bprintf(E->b, "static __attribute__((noinline)) int oqk_v%d(OqkLaunch *L, OqkWorker *W, int64_t lo, int64_t hi) {\n", v);
  em_line(E, "if (L->priv_mask == %uu) return oqk_v%d_(L, W, lo, hi, %uu);", all, v, all);
  em_line(E, "return oqk_v%d_(L, W, lo, hi, L->priv_mask);", v);
  em_bputs(E->b, "}\n");
}

/* ---- linear loop with positions ----
   When every x[pos + c] access of the body (see fast_access) has c zero and x has the
   launch's dimensions, it reads element _r of the flat loop, as x[pos] does in the linear
   loop, but pos may have other uses: it is carried along. *t gets the run-time conditions,
   *ok becomes false when some such access has a non-zero literal offset. */
static int lin_pos_tests(Em *E, Node *n, Buf *t, bool *ok) {
  if (!n) return 0;
  int found = 0;
  PosOff o;
  char *name;
  if (em_fast_access(E, n, &o, &name)) {
    found = 1;
    for (int d = 0; d < E->S->D; d++) {
      if (o.c[d]) *ok = false;
      em_bprintf(t, " && %s.d[%d] == n%d", name, d, d);
      if (o.inv[d]) em_bprintf(t, " && %s == 0", o.inv[d]);
    }
  }
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return found;
  for (AstKids it = ast_kids(n); it.node; ast_next(&it)) found += lin_pos_tests(E, it.node, t, ok);
  return found;
}

/* Whether the linear loop with positions needs pos: a read of pos or of a local set from it
   other than in an element _r access or in such a local's definition. */
static bool pos_needed(Em *E, Node *n, int pslot) {
  if (!n) return false;
  PosOff o;
  if (em_fast_access(E, n, &o, NULL)) return false;
  if (n->kind == N_LAMBDA || n->kind == N_FUNCDEF) return true;
  if (n->kind == N_ASSIGN && n->list.n == 1 && n->list.items[0]->kind == N_IDENT && n->list.items[0]->slot >= 0 &&
      n->b && E->posdef[n->list.items[0]->slot] == n->b)
    return false;
  if (n->kind == N_IDENT && n->depth == 0 && n->slot >= 0 && (n->slot == pslot || E->posdef[n->slot])) return true;
  for (AstKids it = ast_kids(n); it.node; ast_next(&it)) if (pos_needed(E, it.node, pslot)) return true;
  return false;
}

/* Positions lo..hi-1 one by one in row-major order, pos carried digit by digit
   where it is needed: variant v, when some access qualifies. */
static bool linear_pos_loop(Em *E, int v) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  int D = S->D;
  Buf t = {0};
  bool ok = true;
  int found = 0;
  for (int i = 0; i < f->body.n; i++) found += lin_pos_tests(E, f->body.items[i], &t, &ok);
  /* an index affine in pos (a host slice's read) vectorizes in the rows' loops, not here */
  for (int i = 0; i < f->body.n && ok; i++) ok = !em_has_pos_affine(E, f->body.items[i]);
  if (found && ok) {
    variant_open(E, v, t.s);
    bool need = false;
    for (int i = 0; i < S->nspecial; i++)
      if (!strcmp(S->special[i].name, "pos"))
        for (int j = 0; j < f->body.n; j++) need |= pos_needed(E, f->body.items[j], f->ngenerics + S->special[i].param);
    if (need) {
      em_line(E, "int64_t _q = lo, _x[%d];", D);
      for (int d = D - 1; d >= 0; d--) em_line(E, "_x[%d] = _q %% n%d; _q /= n%d;", d, d, d);
    }
    em_line(E, "for (int64_t _r = lo; _r < hi; _r++) {");
    E->ind++;
    for (int d = 0; d < D; d++)
      if (need) em_line(E, "const int64_t P%d = _x[%d];", d, d);
      else em_line(E, "const int64_t P%d = 0;   /* read by dead code only */", d);
    E->lin_pos = true;
    bool ret = E->has_return;
    E->has_return = false;
    E->ret_label = "_nextp";
    em_thread_prelude(E, true);
    em_block(E, &f->body);
    if (E->has_return) em_line(E, "_nextp: ;");
    em_thread_outputs(E);
    E->lin_pos = false;
    E->has_return = ret;
    if (need) {
      for (int d = D - 1; d > 0; d--) em_line(E, "if (++_x[%d] < n%d) continue; _x[%d] = 0;", d, d, d);
      em_line(E, "++_x[0];");
    }
    E->ind--;
    em_line(E, "}");
    variant_close(E, v);
  }
  free(t.s);
  return found && ok;
}

/* Positions lo..hi-1 of a flat kernel, counted in row-major order over the dimensions with
   dimension `in` moved innermost: decoded once, then carried row by row. */
static void flat_loop(Em *E, int in) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  int D = S->D, ord[OQ_MAX_RANK], k = 0;
  for (int d = 0; d < D; d++)
    if (d != in) ord[k++] = d;
  ord[k] = in;
  em_line(E, "{");
  E->ind++;
  em_line(E, "int64_t _q = lo, _x[%d];", D);
  for (int i = D - 1; i >= 0; i--) em_line(E, "_x[%d] = _q %% n%d; _q /= n%d;", ord[i], ord[i], ord[i]);
  em_line(E, "for (int64_t _r = lo; _r < hi;) {");
  E->ind++;
  em_line(E, "if (__atomic_load_n(&L->err, __ATOMIC_RELAXED)) goto _done;");
  em_line(E, "int64_t _len = n%d - _x[%d];", in, in);
  em_line(E, "if (_len > hi - _r) _len = hi - _r;");
  for (int d = 0; d < D; d++)
    if (d != in) em_line(E, "const int64_t P%d = _x[%d];", d, d);
  em_line(E, "const int64_t _s0 = _x[%d], _e0 = _s0 + _len;", in);
  Buf tests = {0}, narrow = {0};
  for (int i = 0; i < f->body.n; i++) em_row_tests(E, f->body.items[i], in, &tests, &narrow);
  bool split = narrow.len > 0;
  if (split) {
    /* the interior [_fa, _fb) runs without the tests; the two ends with them */
    em_line(E, "int64_t _fa = _s0, _fb = _e0;");
    em_line(E, "if (1%s) {", tests.len ? tests.s : "");
    E->ind++;
    for (char *p = narrow.s; *p;) {
      char *nl = strchr(p, '\n');
      *nl = 0;
      em_line(E, "%s", p);
      p = nl + 1;
    }
    em_line(E, "if (_fb < _fa) _fb = _fa;");
    E->ind--;
    em_line(E, "} else {");
    em_line(E, "  _fa = _fb = _e0;");
    em_line(E, "}");
  }
  for (int copy = split ? 0 : 1; copy < 2; copy++) {
    E->row_fast = copy == 0;
    if (copy == 0) em_line(E, "for (int64_t P%d = _fa; P%d < _fb; P%d++) {", in, in, in);
    else if (split) em_line(E, "for (int64_t P%d = _s0; P%d < _e0; P%d = P%d + 1 == _fa ? _fb : P%d + 1) {", in, in, in, in, in);
    else em_line(E, "for (int64_t P%d = _s0; P%d < _e0; P%d++) {", in, in, in);
    E->ind++;
    if (copy == 1 && split) em_line(E, "if (P%d == _fa && _fa < _fb) { P%d = _fb; if (P%d >= _e0) break; }", in, in, in);
    E->has_return = false;
    E->ret_label = em_sf(E, "_next%d_%d", in, copy);
    em_thread_prelude(E, true);
    E->pos_vars = true;
    em_block(E, &f->body);
    E->pos_vars = false;
    if (E->has_return) em_line(E, "%s: ;", E->ret_label);
    em_thread_outputs(E);
    E->ind--;
    em_line(E, "}");
  }
  E->row_fast = false;
  free(tests.s);
  free(narrow.s);
  em_line(E, "_r += _len;");
  em_line(E, "_x[%d] = 0;", in);
  for (int i = D - 2; i >= 0; i--) em_line(E, "if (++_x[%d] < n%d) continue; _x[%d] = 0;", ord[i], ord[i], ord[i]);
  E->ind--;
  em_line(E, "}");
  E->ind--;
  em_line(E, "}");
}

/* !kernel_tiling (kernel_tiling.c): lo..hi count tiles of C positions (ktiling_cpu_tile),
   row-major over the launch; each tile's positions inside the launch run in row-major
   order. */
static void tile_loop(Em *E, const int64_t *C) {
  int D = E->S->D;
  em_line(E, "int64_t _q = lo, _x[%d];", D);
  for (int d = D - 1; d >= 0; d--) {
    em_line(E, "const int64_t _Q%d = (n%d + %lld) / %lld;", d, d, (long long)C[d] - 1, (long long)C[d]);
    em_line(E, "_x[%d] = _q %% _Q%d; _q /= _Q%d;", d, d, d);
  }
  em_line(E, "for (int64_t _t = lo; _t < hi; _t++) {");
  E->ind++;
  em_line(E, "if (__atomic_load_n(&L->err, __ATOMIC_RELAXED)) goto _done;");
  for (int d = 0; d < D; d++) {
    em_line(E, "const int64_t _e%d = _x[%d] * %lld + %lld < n%d ? _x[%d] * %lld + %lld : n%d;", d, d, (long long)C[d],
            (long long)C[d], d, d, (long long)C[d], (long long)C[d], d);
    em_line(E, "for (int64_t P%d = _x[%d] * %lld; P%d < _e%d; P%d++) {", d, d, (long long)C[d], d, d, d);
    E->ind++;
  }
  E->ret_label = "_nextt";
  E->has_return = false;
  em_thread_prelude(E, true);
  em_block(E, &E->S->kfunc->body);
  if (E->has_return) em_line(E, "_nextt: ;");
  em_thread_outputs(E);
  for (int d = 0; d < D; d++) {
    E->ind--;
    em_line(E, "}");
  }
  for (int d = D - 1; d > 0; d--) em_line(E, "if (++_x[%d] < _Q%d) continue; _x[%d] = 0;", d, d, d);
  em_line(E, "++_x[0];");
  E->ind--;
  em_line(E, "}");
}

/* ---- reductions along a dimension: rows of lanes ----
   interp_arrayexpr.c's build_along_kernel gives every output element a thread that walks
   the reduced dimension: body `ax_b = ...; ax_acc = e(ax_b); for ax_k = 1..ax_n-1 (ax_v =
   e(ax_b + ax_k*ax_inner); ax_acc = ax_acc (+) ax_v); ax_out[...] = ax_acc`. Walked one
   position after another, sum(x, 0) reads a column with a stride of a row: no vector, a
   cache line per element. Here a tile of up to 256 positions (16 rows) along launch
   dimension 0 (consecutive elements of every array: inner > 1; rows otherwise) are lanes:
   their accumulators live in an array, and each step ax_k runs over all lanes, so the inner
   loop reads a contiguous run of each array and vectorizes. Every lane still takes its
   values in the order ax_k = 0, 1, ...: the same results, bit for bit, as the loop per
   position. Lane l sees the arrays shifted by l positions (l * ax_s0 elements; the output
   l * ax_o0): the body's index stays lane 0's, and is the same for all lanes. */
typedef struct Along {
  Node *init, *loop, *store;   /* ax_acc = e(ax_b); the for; the store */
  int acc_slot;
  int out, s0, o0;             /* parameter indices of ax_out, ax_s0, ax_o0 */
} Along;

static int param_named(Func *f, const char *name) {
  for (int i = 0; i < f->nparams; i++)
    if (!strcmp(f->params[i].name, name)) return i;
  return -1;
}

static bool along_kernel(Em *E, Along *A) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  bool marked = false;
  for (int i = 0; i < f->ntransforms; i++) marked |= !strcmp(f->transforms[i], "array reduction along a dimension");
  if (!marked || S->D != 2 || S->uses_block || S->barrier || E->fiber || f->nouts || S->tr.npriv || S->ncaps ||
      f->body.n != 4 || E->lin_slot >= 0)
    return false;
  Node *init = f->body.items[1], *loop = f->body.items[2];
  if (init->kind != N_ASSIGN || init->list.n != 1 || init->list.items[0]->kind != N_IDENT ||
      init->list.items[0]->slot < 0 || loop->kind != N_FOR || loop->a->kind != N_RANGE || loop->a->b ||
      em_T(E, loop->a).kind != K_INT)
    return false;
  *A = (Along){init, loop, f->body.items[3], init->list.items[0]->slot, param_named(f, "ax_out"),
               param_named(f, "ax_s0"), param_named(f, "ax_o0")};
  return A->out >= 0 && A->s0 >= 0 && A->o0 >= 0;
}

/* Lane _l's view of every array parameter (declared in an enclosing block as _baK). With
   `unit` (ax_s0 and ax_o0 are 1) the shift is _l itself: GCC vectorizes a stride it does
   not know with 16-byte vectors at most, a unit one with the widest. */
static void along_shift(Em *E, const Along *A, bool unit) {
  Func *f = E->S->kfunc;
  const char *s0 = em_slot_ref(E, f->ngenerics + A->s0), *o0 = em_slot_ref(E, f->ngenerics + A->o0);
  for (int i = 0; i < f->nparams; i++)
    if (em_k_params_type(E->S, i).kind == K_ARRAY && !em_special_of(E->S, i)) {
      const char *v = em_slot_ref(E, f->ngenerics + i);
      if (unit) em_line(E, "%s %s = _ba%d; %s.p += _l;", em_ctype(E, em_k_params_type(E->S, i)), v, i, v);
      else em_line(E, "%s %s = _ba%d; %s.p += _l * (int64_t)%s;", em_ctype(E, em_k_params_type(E->S, i)), v, i, v,
                   i == A->out ? o0 : s0);
    }
}

/* The lane loop: _tl lanes, or exactly `fixed` (a constant: GCC then keeps the lanes'
   accumulators in vector registers instead of the array _acc). */
static void along_lanes_open(Em *E, const Along *A, bool unit, int fixed) {
  if (fixed) em_line(E, "for (int64_t _l = 0; _l < %d; _l++) {", fixed);
  else em_line(E, "for (int64_t _l = 0; _l < _tl; _l++) {");
  E->ind++;
  along_shift(E, A, unit);
}

/* The lanes of sum(x, 1) and the like (launch_along: C lanes per contiguous run, a launch of
   [C, runs]): a whole row of the launch is one tile of ALONG_FIXED lanes. With the tile's
   width a variable, every step loaded and stored each lane's accumulator (a chain through
   memory per vector: 2048 x 2048 floats, one core, 0.88 ms); with the width a constant, the
   accumulators stay in registers (0.30 ms). oqk_entry gives this copy the whole rows of its
   range (when dimension 0 is ALONG_FIXED), the other copies the rest. */
#define ALONG_FIXED 32

static void along_loop(Em *E, int v, const Along *A, bool unit, int fixed) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  const int T = fixed ? fixed : unit ? 256 : 16;   /* (rows: 8 took 1.2x, 32 1.5x, 64 5x the time of 16) */
  const char *s0 = em_slot_ref(E, f->ngenerics + A->s0), *o0 = em_slot_ref(E, f->ngenerics + A->o0);
  variant_open(E, v, fixed ? em_sf(E, " && n0 == %d && %s == 1 && %s == 1", fixed, s0, o0)
                     : unit ? em_sf(E, " && %s == 1 && %s == 1", s0, o0) : "");
  for (int i = 0; i < f->nparams; i++)
    if (em_k_params_type(S, i).kind == K_ARRAY && !em_special_of(S, i))
      em_line(E, "const %s _ba%d = %s;", em_ctype(E, em_k_params_type(S, i)), i, em_slot_ref(E, f->ngenerics + i));
  if (fixed) {   /* (lo and hi are multiples of n0: whole rows) */
    em_line(E, "for (int64_t _p = lo; _p < hi; _p += %d) {", fixed);
    E->ind++;
    em_line(E, "if (__atomic_load_n(&L->err, __ATOMIC_RELAXED)) goto _done;");
    em_line(E, "const int64_t P0 = 0, P1 = _p / %d;", fixed);
  } else {
    em_line(E, "for (int64_t _p = lo; _p < hi;) {");
    E->ind++;
    em_line(E, "if (__atomic_load_n(&L->err, __ATOMIC_RELAXED)) goto _done;");
    /* a tile: positions _p.. along dimension 0, within one row of the launch and the range */
    em_line(E, "const int64_t P0 = _p %% n0, P1 = _p / n0;");
    em_line(E, "int64_t _tl = n0 - P0 < hi - _p ? n0 - P0 : hi - _p;");
    em_line(E, "if (_tl > %d) _tl = %d;", T, T);
    em_line(E, "_p += _tl;");
  }
  em_line(E, "%s _acc[%d];", em_ctype(E, S->kspec->slots[A->acc_slot]), T);
  E->has_return = false;
  E->ret_label = "_done";
  em_thread_prelude(E, true);
  E->pos_vars = true;
  em_st(E, f->body.items[0]);
  along_lanes_open(E, A, unit, fixed);
  em_st(E, A->init);
  em_line(E, "_acc[_l] = %s;", em_slot_ref(E, A->acc_slot));
  E->ind--;
  em_line(E, "}");
  Node *r = A->loop->a;
  em_line(E, "const int64_t _ka = %s, _kc = %s;", em_ex(E, r->a), em_ex(E, r->c));
  em_line(E, "for (int64_t _k = _ka; _k <= _kc; _k++) {");
  E->ind++;
  em_line(E, "%s = (int32_t)_k;", em_slot_ref(E, A->loop->slot));
  along_lanes_open(E, A, unit, fixed);
  em_line(E, "%s = _acc[_l];", em_slot_ref(E, A->acc_slot));
  em_block(E, &A->loop->list);
  em_line(E, "_acc[_l] = %s;", em_slot_ref(E, A->acc_slot));
  E->ind--;
  em_line(E, "}");
  E->ind--;
  em_line(E, "}");
  along_lanes_open(E, A, unit, fixed);
  em_line(E, "%s = _acc[_l];", em_slot_ref(E, A->acc_slot));
  em_st(E, A->store);
  E->ind--;
  em_line(E, "}");
  E->pos_vars = false;
  E->ind--;
  em_line(E, "}");
  variant_close(E, v);
}

/* oqk_entry's lines for a kernel along a dimension whose rows of lanes are oqk_v`v` (unit
   strides), v + 1 (any) and v + 2 (ALONG_FIXED lanes, whole rows of the launch only). */
static void along_entry(Em *E, int v) {
  em_line(E, "if (L->dims[0] == %d) {", ALONG_FIXED);
  E->ind++;
  em_line(E, "const int64_t a = (lo + %d) / %d * %d, b = hi / %d * %d;", ALONG_FIXED - 1, ALONG_FIXED, ALONG_FIXED,
          ALONG_FIXED, ALONG_FIXED);
  em_line(E, "if (a < b && oqk_v%d(L, W, a, b)) {", v + 2);
  E->ind++;
  em_line(E, "if (lo < a && !oqk_v%d(L, W, lo, a)) oqk_v%d(L, W, lo, a);", v, v + 1);
  em_line(E, "if (b < hi && !oqk_v%d(L, W, b, hi)) oqk_v%d(L, W, b, hi);", v, v + 1);
  em_line(E, "return;");
  E->ind--;
  em_line(E, "}");
  E->ind--;
  em_line(E, "}");
  em_line(E, "if (L->dims[0] >= 8) { if (!oqk_v%d(L, W, lo, hi)) oqk_v%d(L, W, lo, hi); return; }", v, v + 1);
}

/* One position of the linear loop (_r): the body, then its outputs into the accumulators
   fmt names; a return goes to label. */
static void linear_body(Em *E, const char *label, const char *fmt) {
  E->ind++;
  E->has_return = false;
  E->ret_label = label;
  em_thread_prelude(E, true);
  em_block(E, &E->S->kfunc->body);
  if (E->has_return) em_line(E, "%s: ;", label);
  em_thread_outputs_into(E, fmt);
  E->ind--;
}

/* Whether the kernel has outputs, all of them sums. */
static bool sums_only(const KSpec *S) {
  for (int o = 0; o < S->kfunc->nouts; o++)
    if (S->out_op[o] != OP_ADD) return false;
  return S->kfunc->nouts > 0;
}

/* A kernel whose outputs are all sums (a host sum, mean, dotprod, norm of an expression)
   adds each group of LANES consecutive positions into LANES partial sums: GCC vectorizes
   the lanes' loop (4 doubles a vector, 8 independent additions a step), where one
   accumulator took a dependent addition (4 cycles) per element. One thread, 2048^2 float,
   s = sum(x .* x): 2.9-3.7 ms before, 0.74-0.82 with 32 lanes (8: 2.1-2.3, 16: 1.2-1.4).
   The lanes are added into the worker's accumulator in order after its last whole group,
   then the positions left over (from _rg on: the loop the caller emits). Positions still
   run in order, one at a time. */
#define LANES 32
static void linear_lanes(Em *E) {
  Func *f = E->S->kfunc;
  int obase = f->ngenerics + f->nparams;
  for (int o = 0; o < f->nouts; o++) {   /* (-0.0: the thread's own start, thread_identity) */
    bool i = E->S->kspec->slots[obase + o].kind == K_INT;
    Buf init = {0};
    for (int l = 0; l < LANES; l++) em_bprintf(&init, "%s%s", l ? ", " : "", i ? "0" : "-0.0");
    em_line(E, "%s _lane%d[%d] = {%s};", i ? "int64_t" : "double", o, LANES, init.s);
    free(init.s);
  }
  em_line(E, "int64_t _rg = lo;   /* the group's first position */");
  em_line(E, "for (; _rg + %d <= hi; _rg += %d) {", LANES, LANES);
  E->ind++;
  em_line(E, "if (__atomic_load_n(&L->err, __ATOMIC_RELAXED)) goto _done;");
  /* (unrolled first, the lanes loop is not vectorized: its lanes then stay in memory) */
  em_line(E, "#pragma GCC unroll 1");
  em_line(E, "for (int _l = 0; _l < %d; _l++) {", LANES);
  E->ind++;
  em_line(E, "const int64_t _r = _rg + _l;");
  E->ind--;
  linear_body(E, "_nextk", "_lane%d[_l]");
  em_line(E, "}");
  E->ind--;
  em_line(E, "}");
  for (int o = 0; o < f->nouts; o++)
    em_line(E, "for (int _l = 0; _l < %d; _l++) acc%d = acc%d + _lane%d[_l];", LANES, o, o, o);
}

/* Flat kernels: the variants, then oqk_entry, which runs the first whose condition holds:
   the linear loop, else the one with positions, else rows along the last dimension, or
   along the one before (images are [h, w, 3]: a short last dimension makes a poor inner
   loop; flat kernels may run their threads in any order). */
static void flat_entry(Em *E) {
  KSpec *S = E->S;
  int D = S->D, nv = 0;
  int64_t C[3];
  if (ktiling_cpu_tile(&S->tr.tiling, C)) {
    variant_open(E, 0, "");
    tile_loop(E, C);
    variant_close(E, 0);
    em_bputs(E->b, "void oqk_entry(OqkLaunch *L, OqkWorker *W, int64_t lo, int64_t hi) { oqk_v0(L, W, lo, hi); }\n");
    return;
  }
  if (E->lin_slot >= 0) {
    variant_open(E, nv, E->lin_test.s ? E->lin_test.s : "");
    E->lin = true;
    bool ret = E->has_return, lanes = sums_only(S);
    if (lanes) linear_lanes(E);
    em_line(E, "for (int64_t _r = %s; _r < hi; _r++) {", lanes ? "_rg" : "lo");
    linear_body(E, "_nextl", "acc%d");
    em_line(E, "}");
    E->lin = false;
    E->has_return = ret;
    variant_close(E, nv++);
  } else if (!E->phases && linear_pos_loop(E, nv)) {
    nv++;
  }
  Along A;
  int along = -1;
  if (nv == 0 && along_kernel(E, &A)) {
    along_loop(E, along = nv++, &A, true, 0);
    along_loop(E, nv++, &A, false, 0);
    along_loop(E, nv++, &A, true, ALONG_FIXED);
  }
  int rows = nv;
  for (int in = D >= 2 ? D - 2 : 0; in < D; in++) {
    variant_open(E, nv, "");
    flat_loop(E, in);
    variant_close(E, nv++);
  }
  em_bputs(E->b, "void oqk_entry(OqkLaunch *L, OqkWorker *W, int64_t lo, int64_t hi) {\n");
  /* (lanes along dimension 0: fewer than 8 there, the loop per position) */
  if (along >= 0) along_entry(E, along);
  for (int v = along >= 0 ? along + 3 : 0; v < rows; v++) em_line(E, "if (oqk_v%d(L, W, lo, hi)) return;", v);
  if (D >= 2) {
    em_line(E, "if (L->dims[%d] < 16 && L->dims[%d] > L->dims[%d]) oqk_v%d(L, W, lo, hi);", D - 1, D - 2, D - 1, rows);
    em_line(E, "else oqk_v%d(L, W, lo, hi);", rows + 1);
  } else {
    em_line(E, "oqk_v%d(L, W, lo, hi);", rows);
  }
  em_bputs(E->b, "}\n");
}

/* ---- fibers: barriers that not every thread may reach ----
   As in the oracle, every thread of a block is a fiber (ucontext enters it, then
   _setjmp/_longjmp switch without a system call) that runs to its next barrier or its end;
   a round resumes every live thread once, in order: a barrier waits for all threads that
   have not finished. Shared arrays live in per-worker variables (all fibers of a block run
   on one worker); a thread adds its outputs into the worker's at its end. */
static const char *const helpers_fiber =
  "#define OQ_FSTACK ((size_t)256 << 10)\n"
  "typedef struct OqFib { jmp_buf jb; int started, done; int64_t b, t; } OqFib;\n"
  "static __thread jmp_buf oq_sched;   /* where a barrier or a thread's end returns to */\n"
  "static __thread OqFib *oq_cur;\n"
  "static __thread OqkLaunch *oq_fl;\n"
  "static __thread OqkWorker *oq_fw;\n"
  "static void oqk_fthread(OqkLaunch *L, OqkWorker *W, int64_t _b, int64_t _t);\n"
  "static void oq_fib_main(void) {\n"
  "  OqFib *f = oq_cur;\n"
  "  oqk_fthread(oq_fl, oq_fw, f->b, f->t);\n"
  "  f->done = 1;\n"
  "  _longjmp(oq_sched, 1);\n}\n"
  "static void oq_fib_resume(OqFib *f, char *stack) {\n"
  "  oq_cur = f;\n"
  "  if (_setjmp(oq_sched)) return;\n"
  "  if (f->started) _longjmp(f->jb, 1);\n"
  "  f->started = 1;\n"
  "  ucontext_t m, c;\n"
  "  getcontext(&c);\n"
  "  c.uc_stack.ss_sp = stack;\n  c.uc_stack.ss_size = OQ_FSTACK;\n  c.uc_link = NULL;\n"
  "  makecontext(&c, oq_fib_main, 0);\n"
  "  swapcontext(&m, &c);\n}\n"
  "static __attribute__((noinline)) void oq_yield(void) { if (!_setjmp(oq_cur->jb)) _longjmp(oq_sched, 1); }\n"
  "static void oq_run_block(OqkLaunch *L, OqFib *fib, char *stk, int64_t b, int64_t n) {\n"
  "  for (int64_t t = 0; t < n; t++) fib[t] = (OqFib){.b = b, .t = t};\n"
  "  for (int64_t live = n; live > 0 && !__atomic_load_n(&L->err, __ATOMIC_RELAXED);) {\n"
  "    live = 0;\n"
  "    for (int64_t t = 0; t < n; t++) {\n"
  "      if (fib[t].done) continue;\n"
  "      oq_fib_resume(&fib[t], stk + t * OQ_FSTACK);\n"
  "      live += !fib[t].done;\n    }\n  }\n}\n";

/* One thread of block _b as a function (thread _t in row-major order), then the entry that
   runs each block's threads as fibers. */
static void fiber_kernel(Em *E) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  int D = S->D;
  KType st;
  for (int s = 0; s < S->facts.nshared; s++)
    if (em_shared_type(E, s, &st)) em_bprintf(E->b, "static __thread %s sh%d;\nstatic __thread int sh%d_init;\n", em_ctype(E, st), s, s);
  em_bputs(E->b, "static void oqk_fthread(OqkLaunch *L, OqkWorker *W, int64_t _b, int64_t _t) {\n");
  em_line(E, "(void)W;");
  em_kernel_loads(E);
  em_line(E, "int64_t _q = _b;");
  for (int d = D - 1; d >= 0; d--) em_line(E, "const int64_t B%d = _q %% c%d; _q /= c%d;", d, d, d);
  em_line(E, "_q = _t;");
  for (int d = D - 1; d >= 0; d--) em_line(E, "const int64_t T%d = _q %% b%d; _q /= b%d;", d, d, d);
  for (int d = 0; d < D; d++) em_line(E, "const int64_t P%d = B%d * b%d + T%d;", d, d, d, d);
  E->ret_label = "_next";
  em_thread_prelude(E, true);
  em_block(E, &f->body);
  if (E->has_return) em_line(E, "_next: ;");
  int obase = f->ngenerics + f->nparams;
  for (int o = 0; o < f->nouts; o++)   /* other fibers added theirs since this one started */
    em_line(E, "acc%d = W->out_%c[%d];", o, S->kspec->slots[obase + o].kind == K_INT ? 'i' : 'r', o);
  em_thread_outputs(E);
  entry_end(E, "");
  em_bputs(E->b, "void oqk_entry(OqkLaunch *L, OqkWorker *W, int64_t lo, int64_t hi) {\n");
  em_line(E, "int64_t _nthr = 1;");
  for (int d = 0; d < D; d++) em_line(E, "_nthr *= L->blk[%d];", d);
  em_line(E, "char *_stk = oq_scratch(W, %d, (size_t)_nthr * OQ_FSTACK);", OQK_SHARED_SLOTS + 2);
  em_line(E, "OqFib *_fib = oq_scratch(W, %d, (size_t)_nthr * sizeof *_fib);", OQK_SHARED_SLOTS + 3);
  em_line(E, "if (!_stk || !_fib) { oq_fail(L, -1); return; }   /* no memory: \"kernel failed\" */");
  em_line(E, "oq_fl = L;");
  em_line(E, "oq_fw = W;");
  em_line(E, "for (int64_t _b = lo; _b < hi && !__atomic_load_n(&L->err, __ATOMIC_RELAXED); _b++) {");
  for (int s = 0; s < S->facts.nshared; s++) em_line(E, "  sh%d_init = 0;", s);
  em_line(E, "  oq_run_block(L, _fib, _stk, _b, _nthr);");
  em_line(E, "}");
  em_bputs(E->b, "}\n");
}

/* The names of what the C dialect does beyond one thread after another: per-worker private
   copies (the launcher makes them for small arrays), per-worker output accumulators, the
   linear loop, phases. */
static void cpu_transforms(Em *E) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  S->xforms[0] = 0;
  bool attr = ktiling_of(f, false, &S->tr.tiling);
  S->tiling_ignored = attr && (S->uses_block || S->barrier);   /* blocks tie threads to positions */
  int64_t C[3];
  if (S->tiling_ignored) S->tr.tiling = (KTiling){.box = {1, 1, 1}};
  char tb[80];
  if (attr && !S->tiling_ignored && ktiling_streaming(&S->tr.tiling, E->lin_slot >= 0, tb, sizeof tb))
    em_xform_note(S, "tiling(%s)", tb);
  if (ktiling_cpu_tile(&S->tr.tiling, C)) {
    em_xform_note(S, "tiling(%s)", ktiling_str(&S->tr.tiling, tb, sizeof tb));
    E->lin_slot = -1;
  }
  for (int k = 0; k < S->tr.npriv; k++) em_xform_note(S, "privatize(%s)", em_priv_name(S, k));
  for (int o = 0; o < f->nouts; o++) em_xform_note(S, "worker-reduce(%s)", f->outs[o].name);
  if (E->lin_slot >= 0) em_xform_note(S, "%s", "linear");
  if (S->barrier) em_xform_note(S, "%s", E->fiber ? "fibers" : "phases");
  S->tr.coarse = S->barrier && !E->fiber && S->facts.nshared && !config()->dev.no_coarsen && em_coarsen_ok(E);
  if (S->tr.coarse) em_xform_note(S, "%s", "persistent-blocks");
}

/* Persistent blocks (em_coarsen_ok, docs/cuda.md): the prologue once for up to _K blocks of
   the worker's range, each block's body, then the epilogue once: one zeroing and one merge of
   the shared accumulator per _K blocks instead of per block. */
static void coarse_block_level(Em *E) {
  NodeList *l = &E->S->kfunc->body;
  int b1 = E->coarse_split[0], b2 = E->coarse_split[1];
  NodeList pro = {l->items, b1}, body = {l->items + b1 + 1, b2 - b1 - 1}, epi = {l->items + b2 + 1, l->n - b2 - 1};
  /* an accumulator that only receives the same int: unsigned counts, an integer increment
     where a float one was (read back as the float the additions gave: below 2^24, _K) */
  if (E->S->tr.coarse_inc) E->count_arr = em_slot_name(E, E->S->kspec, E->coarse_slot);
  block_level(E, &pro);
  em_line(E, "for (int64_t _vb = _b; _vb < hi && _vb < _b + _K; _vb++) {");
  E->ind++;
  em_line(E, "int64_t _q = _vb;");
  for (int d = E->S->D - 1; d >= 0; d--) em_line(E, "const int64_t B%d = _q %% c%d; _q /= c%d;", d, d, d);
  block_level(E, &body);
  E->ind--;
  em_line(E, "}");
  block_level(E, &epi);
  E->count_arr = NULL;
}

static void emit_kernel(Em *E, Buf *out) {
  KSpec *S = E->S;
  FSpec *k = S->kspec;
  Func *f = k->func;
  FuncInfo *fi = func_info(f);
  int D = S->D;
  Buf body = {0};
  em_kernel_analysis(E, &body);
  cpu_transforms(E);
  em_bprintf(&body, "/* kernel %s: %s mode */\n", S->name, mode_name(E));
  if (S->xforms[0]) em_bprintf(&body, "/* transforms: %s */\n", S->xforms);
  if (!S->uses_block || E->fiber) {
    if (E->fiber) fiber_kernel(E);
    else flat_entry(E);
    em_bputs(out, body.s);
    free(body.s);
    em_kernel_end(E);
    return;
  }
  em_bputs(&body, "void oqk_entry(OqkLaunch *L, OqkWorker *W, int64_t lo, int64_t hi) {\n");
  em_line(E, "(void)W;");
  em_kernel_loads(E);
  if (!S->barrier) {
    /* blocks: each block's threads in row-major order; threads outside the data skip */
    em_line(E, "for (int64_t _b = lo; _b < hi; _b++) {");
    E->ind++;
    em_line(E, "if (__atomic_load_n(&L->err, __ATOMIC_RELAXED)) goto _done;");
    em_line(E, "int64_t _q = _b;");
    for (int d = D - 1; d >= 0; d--) em_line(E, "const int64_t B%d = _q %% c%d; _q /= c%d;", d, d, d);
    for (int s = 0; s < S->facts.nshared; s++) em_line(E, "sh%d_init = 0;", s);
    for (int d = 0; d < D; d++) {
      em_line(E, "for (int64_t T%d = 0; T%d < b%d; T%d++) {", d, d, d, d);
      E->ind++;
      em_line(E, "const int64_t P%d = B%d * b%d + T%d;", d, d, d, d);
      em_line(E, "if (P%d >= n%d) break;", d, d);
    }
    E->ret_label = "_next";
    em_thread_prelude(E, true);
    em_block(E, &f->body);
    if (E->has_return) em_line(E, "_next: ;");
    em_thread_outputs(E);
    for (int d = 0; d < D; d++) {
      E->ind--;
      em_line(E, "}");
    }
    E->ind--;
    em_line(E, "}");
  } else {
    /* phases: every thread of the block runs, per-thread locals live in scratch memory */
    em_line(E, "int64_t _nthr = 1;");
    for (int d = 0; d < D; d++) em_line(E, "_nthr *= b%d;", d);
    em_line(E, "size_t _need = 0;");
    for (int s = f->ngenerics; s < fi->nslots; s++)
      if (E->sc[s] == SC_LOCAL && !E->pphase[s])
        em_line(E, "_need += ((size_t)_nthr * sizeof(%s) + 15) & ~(size_t)15;", em_ctype(E, k->slots[s]));
    em_line(E, "char *_sp = oq_scratch(W, %d, _need + 16);", OQK_SHARED_SLOTS + 1);
    em_line(E, "if (!_sp) goto _done;");
    for (int s = f->ngenerics; s < fi->nslots; s++)
      if (E->sc[s] == SC_LOCAL && !E->pphase[s]) {
        const char *ct = em_ctype(E, k->slots[s]);
        em_line(E, "%s *%s = (%s *)_sp; _sp += ((size_t)_nthr * sizeof(%s) + 15) & ~(size_t)15;", ct, em_slot_name(E, k, s), ct, ct);
      }
    /* persistent blocks: _K blocks per prologue, few enough that no float count in the
       accumulator passes 2^24 when every update adds the same int */
    if (S->tr.coarse && S->tr.coarse_inc)
      em_line(E, "const int64_t _K = (int64_t)%lld * _nthr > (1 << 24) ? 1 : (1 << 24) / ((int64_t)%lld * _nthr);",
           (long long)S->tr.coarse_inc, (long long)S->tr.coarse_inc);
    else if (S->tr.coarse) em_line(E, "const int64_t _K = hi - lo;");
    em_line(E, "for (int64_t _b = lo; _b < hi; _b %s) {", S->tr.coarse ? "+= _K" : "++");
    E->ind++;
    em_line(E, "if (__atomic_load_n(&L->err, __ATOMIC_RELAXED)) goto _done;");
    em_line(E, "int64_t _q = _b;");
    for (int d = D - 1; d >= 0; d--) em_line(E, "const int64_t B%d = _q %% c%d; _q /= c%d;", d, d, d);
    for (int s = 0; s < S->facts.nshared; s++) em_line(E, "sh%d_init = 0;", s);
    for (int s = f->ngenerics; s < fi->nslots; s++)
      if (E->sc[s] == SC_LOCAL && E->pphase[s] == 2) em_line(E, "%s %s = {0};", em_ctype(E, k->slots[s]), em_slot_name(E, k, s));
    thread_loop_open(E);
    em_thread_prelude(E, true);
    thread_loop_close(E);
    if (S->tr.coarse) coarse_block_level(E);
    else block_level(E, &f->body);
    em_line(E, "for (int64_t _t = 0; _t < _nthr; _t++) {");
    E->ind++;
    em_thread_outputs(E);
    E->ind--;
    em_line(E, "}");
    E->ind--;
    em_line(E, "}");
  }
  entry_end(E, "");
  em_bputs(out, body.s);
  free(body.s);
  em_kernel_end(E);
}

/* Under TinyCC, the CPU back end's first build (rt_cpu.c), GCC's __atomic builtins the
   kernels use are x86-64 code: loads and stores are plain volatile ones (x86 loads are
   acquire, stores release, and TinyCC reorders nothing), exchanges and compare-and-exchanges
   locked instructions on the element's 1, 2, 4 or 8 bytes (16-byte ones take oq_lock16). The
   fetch ops are for int32 elements only, as native_update emits them. TinyCC has no
   __thread: the fiber state is then one per process, and rt_cpu.c runs TinyCC's build of a
   fiber kernel on the calling thread alone. */
static const char *const helpers_c_tcc =
  "#ifdef __TINYC__\n"
  "#define __builtin_expect(x, v) (x)\n#define __builtin_unreachable() ((void)0)\n"
  "#define __thread   /* no thread-local storage: rt_cpu.c runs fiber kernels on one worker */\n"
  "#define __atomic_load_n(p, m) (*(volatile __typeof__(*(p)) *)(p))\n"
  "#define __atomic_store_n(p, v, m) (*(volatile __typeof__(*(p)) *)(p) = (v))\n"
  "#define __atomic_load(p, r, m) (*(r) = *(volatile __typeof__(*(p)) *)(p))\n"
  "#define OQ_TCC_XCHG(T, sfx, c) { T x; memcpy(&x, v, sizeof x); \\\n"
  "  __asm__ volatile(\"xchg\" sfx \" %0, %1\" : \"+\" c(x), \"+m\"(*(T *)p) : : \"memory\"); memcpy(r, &x, sizeof x); }\n"
  "static inline void oq_tcc_xchg(void *p, void *v, void *r, int n) {\n"
  "  if (n == 1) OQ_TCC_XCHG(uint8_t, \"b\", \"q\") else if (n == 2) OQ_TCC_XCHG(uint16_t, \"w\", \"r\")\n"
  "  else if (n == 4) OQ_TCC_XCHG(uint32_t, \"l\", \"r\") else OQ_TCC_XCHG(uint64_t, \"q\", \"r\")\n"
  "}\n"
  "#define OQ_TCC_CAS(T, sfx, c) { T ev, dv, r; memcpy(&ev, e, sizeof ev); memcpy(&dv, d, sizeof dv); \\\n"
  "  __asm__ volatile(\"lock cmpxchg\" sfx \" %2, %1\" : \"=a\"(r), \"+m\"(*(T *)p) : c(dv), \"0\"(ev) : \"memory\"); \\\n"
  "  if (r == ev) return 1; memcpy(e, &r, sizeof r); return 0; }\n"
  "static inline int oq_tcc_cas(void *p, void *e, const void *d, int n) {\n"
  "  if (n == 1) OQ_TCC_CAS(uint8_t, \"b\", \"q\") if (n == 2) OQ_TCC_CAS(uint16_t, \"w\", \"r\")\n"
  "  if (n == 4) OQ_TCC_CAS(uint32_t, \"l\", \"r\") OQ_TCC_CAS(uint64_t, \"q\", \"r\")\n"
  "}\n"
  "static inline int oq_tcc_xchg_n(int *p, int v) { int r; oq_tcc_xchg(p, &v, &r, 4); return r; }\n"
  "static inline int oq_tcc_cas_n(int *p, int *e, int d) { return oq_tcc_cas(p, e, &d, 4); }\n"
  "#define __atomic_exchange(p, v, r, m) oq_tcc_xchg(p, v, r, sizeof *(p))\n"
  "#define __atomic_compare_exchange(p, e, d, w, s, f) oq_tcc_cas(p, e, d, sizeof *(p))\n"
  "#define __atomic_exchange_n(p, v, m) oq_tcc_xchg_n(p, v)\n"
  "#define __atomic_compare_exchange_n(p, e, d, w, s, f) oq_tcc_cas_n(p, e, d)\n"
  "static inline int32_t oq_tcc_fetch(int32_t *p, int32_t v, int op) {\n"
  "  int32_t o = *(volatile int32_t *)p, n;\n"
  "  do n = op == 0 ? (int32_t)((uint32_t)o + (uint32_t)v) : op == 1 ? (int32_t)((uint32_t)o - (uint32_t)v) :\n"
  "         op == 2 ? (o & v) : op == 3 ? (o | v) : (o ^ v);\n"
  "  while (!oq_tcc_cas(p, &o, &n, 4));\n"
  "  return n;\n}\n"
  "#define __atomic_add_fetch(p, v, m) oq_tcc_fetch(p, v, 0)\n"
  "#define __atomic_sub_fetch(p, v, m) oq_tcc_fetch(p, v, 1)\n"
  "#define __atomic_and_fetch(p, v, m) oq_tcc_fetch(p, v, 2)\n"
  "#define __atomic_or_fetch(p, v, m) oq_tcc_fetch(p, v, 3)\n"
  "#define __atomic_xor_fetch(p, v, m) oq_tcc_fetch(p, v, 4)\n"
  "/* TinyCC converts with cvttss2si and cvttsd2si: INT64_MIN for NaN and out of range */\n"
  "static inline int64_t oq_cvttf(float x) { return (int64_t)x; }\n"
  "static inline int64_t oq_cvttd(double x) { return (int64_t)x; }\n"
  "#define oq_cvtt(x) _Generic((x), float: oq_cvttf, default: oq_cvttd)(x)\n"
  "#endif\n";

/* Complex numbers under TinyCC, which has no _Complex: the TinyCC variant of the source
   (dialect_c with cplx_fns: emit_c) keeps them in structs of the same layout as the C
   compiler's float and double _Complex (arrays and the launch's arguments are shared as they are) and writes
   their operators, conversions and functions with these helpers (+ - * negation and conj
   as statements into a temporary: emit.c's tc_op). Each computes what the C compiler's
   code does: in double complex, rounded by part to oq_cplx; the product is GCC's formula,
   with Annex G's recovery from the process when both parts are NaN; quotients, powers and
   the functions are the process's, compiled by GCC (cpu_tcc.c registers them).
   OQ_TC_DP: --precision double. */
static const char *const helpers_c_tcc_cplx =
  "#ifdef __TINYC__\n"
  "#define OQ_TC_DP %d\n"
  "typedef struct { float re, im; } oq_c64;\n"
  "typedef struct { double re, im; } oq_c128;\n"
  "static inline oq_c128 oq_tc_wide(oq_c64 z) { oq_c128 r; r.re = z.re; r.im = z.im; return r; }\n"
  "static inline oq_c64 oq_tc_narrow(oq_c128 z) { oq_c64 r; r.re = (float)z.re; r.im = (float)z.im; return r; }\n"
  "#if OQ_TC_DP\n"
  "typedef oq_c128 oq_cplx;\n#define oq_tc_w(z) (z)\n#define oq_tc_n(z) (z)\n"
  "#else\n"
  "typedef oq_c64 oq_cplx;\n#define oq_tc_w(z) oq_tc_wide(z)\n#define oq_tc_n(z) oq_tc_narrow(z)\n"
  "#endif\n"
  "#define creal(z) ((double)(z).re)\n#define cimag(z) ((double)(z).im)\n"
  "static inline oq_cplx oq_mkc(double re, double im) { oq_cplx z; z.re = (oq_real)re; z.im = (oq_real)im; return z; }\n"
  "static inline int oq_ceq(oq_cplx a, oq_cplx b) { return a.re == b.re && a.im == b.im; }\n"
  "static inline int oq_ctruthy(oq_cplx a) { return a.re != 0 || a.im != 0; }\n"
  /* statements r = a op b on named values (tc_op in emit.c): no struct is copied */
  "#define oq_tc_add(r, a, b) ((r).re = (oq_real)((double)(a).re + (double)(b).re), (r).im = (oq_real)((double)(a).im + (double)(b).im))\n"
  "#define oq_tc_sub(r, a, b) ((r).re = (oq_real)((double)(a).re - (double)(b).re), (r).im = (oq_real)((double)(a).im - (double)(b).im))\n"
  /* GCC's product: the formula, and Annex G's recovery (the process's) when both parts are NaN */
  "void oq_tcc_cmul(oq_c128 *r, const oq_c128 *a, const oq_c128 *b);\n"
  "static void oq_tc_mulnan(double *re, double *im, double ar, double ai, double br, double bi) {\n"
  "  oq_c128 x, y, m; x.re = ar; x.im = ai; y.re = br; y.im = bi;\n"
  "  oq_tcc_cmul(&m, &x, &y); *re = m.re; *im = m.im;\n}\n"
  "#define oq_tc_mul(r, a, b) do {\\\n"
  "  double oq_re_ = (double)(a).re * (double)(b).re - (double)(a).im * (double)(b).im;\\\n"
  "  double oq_im_ = (double)(a).re * (double)(b).im + (double)(a).im * (double)(b).re;\\\n"
  "  if (oq_re_ != oq_re_ && oq_im_ != oq_im_) oq_tc_mulnan(&oq_re_, &oq_im_, (a).re, (a).im, (b).re, (b).im);\\\n"
  "  (r).re = (oq_real)oq_re_; (r).im = (oq_real)oq_im_; } while (0)\n"
  /* TinyCC's -x is 0 - x, which keeps a NaN's sign: negation flips the sign bit */
  "static inline float oq_tc_negf(float x) { uint32_t u; memcpy(&u, &x, 4); u ^= 0x80000000u; memcpy(&x, &u, 4); return x; }\n"
  "static inline double oq_tc_negd(double x) { uint64_t u; memcpy(&u, &x, 8); u ^= (uint64_t)1 << 63; memcpy(&x, &u, 8); return x; }\n"
  "#define oq_tc_negr(x) _Generic((x), float: oq_tc_negf, default: oq_tc_negd)(x)\n"
  "#define oq_tc_neg(r, a) ((r).re = oq_tc_negr((a).re), (r).im = oq_tc_negr((a).im))\n"
  "#define oq_tc_conj(r, a) ((r).re = (a).re, (r).im = oq_tc_negr((a).im))\n"
  /* glibc's cabs is hypot of the parts */
  "#define oq_tc_cabs(a) hypot((a).re, (a).im)\n"
  "#define OQ_TC_FN2(f) void oq_tcc_##f(oq_c128 *r, const oq_c128 *a, const oq_c128 *b); \\\n"
  "  static inline oq_cplx oq_tc_##f(oq_cplx a, oq_cplx b) { oq_c128 x = oq_tc_w(a), y = oq_tc_w(b), r; oq_tcc_##f(&r, &x, &y); return oq_tc_n(r); }\n"
  "#define OQ_TC_FN1(f) void oq_tcc_##f(oq_c128 *r, const oq_c128 *a); \\\n"
  "  static inline oq_cplx oq_tc_##f(oq_cplx a) { oq_c128 x = oq_tc_w(a), r; oq_tcc_##f(&r, &x); return oq_tc_n(r); }\n"
  "#define OQ_TC_FNR(f) double oq_tcc_##f(const oq_c128 *a); \\\n"
  "  static inline double oq_tc_##f(oq_cplx a) { oq_c128 x = oq_tc_w(a); return oq_tcc_##f(&x); }\n"
  "OQ_TC_FN2(div) OQ_TC_FN2(pow)\n"
  "OQ_TC_FN1(cexp) OQ_TC_FN1(clog) OQ_TC_FN1(csin) OQ_TC_FN1(ccos) OQ_TC_FN1(ctan)\n"
  "OQ_TC_FN1(csinh) OQ_TC_FN1(ccosh) OQ_TC_FN1(ctanh) OQ_TC_FN1(csqrt)\n"
  "OQ_TC_FNR(carg)\n"
  "#endif\n";

/* Helpers of the C dialect only: complex numbers (not under TinyCC), cvtt, errors through
   __atomic, scratch memory. cvtt in inline asm (no <immintrin.h>: it took
   0.3 s of every kernel's compile; GCC folds its intrinsics of a NaN constant to 0). */
static const char *const helpers_c =
  "#define OQ_FN static inline\n"
  "#ifndef __TINYC__\n"
  "static inline oq_cplx oq_mkc(double re, double im) { oq_cplx z; __real__ z = (oq_real)re; __imag__ z = (oq_real)im; return z; }\n"
  "static inline int oq_ceq(oq_cplx a, oq_cplx b) { return __real__ a == __real__ b && __imag__ a == __imag__ b; }\n"
  "static inline int oq_ctruthy(oq_cplx a) { return __real__ a != 0 || __imag__ a != 0; }\n"
  "#if defined(__x86_64__)\n"
  /* in asm: GCC folds the intrinsics of a constant like a C cast, NaN to 0 (issue 23) */
  "static inline int64_t oq_cvttf(float x) { int64_t r; __asm__(\"cvttss2si %1, %0\" : \"=r\"(r) : \"x\"(x)); return r; }\n"
  "static inline int64_t oq_cvttd(double x) { int64_t r; __asm__(\"cvttsd2si %1, %0\" : \"=r\"(r) : \"x\"(x)); return r; }\n"
  "#define oq_cvtt(x) _Generic((x), float: oq_cvttf, default: oq_cvttd)(x)\n#endif\n"
  "static inline double _Complex oq_cpow(double _Complex z, double _Complex w) {\n"
  "  double e = creal(w);\n"
  "  if (cimag(w) == 0 && e == floor(e) && fabs(e) <= 1024) {\n"
  "    double _Complex r = 1, b = z;\n"
  "    for (int64_t n = (int64_t)fabs(e); n; n >>= 1) { if (n & 1) r *= b; b *= b; }\n"
  "    return e < 0 ? 1 / r : r;\n  }\n"
  "  return cpow(z, w);\n}\n"
  "#endif\n"
  "static int oq_claim(OqkLaunch *L, int site) {\n"
  "  int z = 0;\n"
  "  if (!__atomic_compare_exchange_n(&L->err, &z, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) return 0;\n"
  "  L->err_site = site;\n  return 1;\n}\n";

/* ... and glibc's vector math (libmvec, linked through libm.so's AS_NEEDED): math.h
   declares the vector variants only under -ffast-math, which kernels do not use (IEEE
   + - * /). Declared here, GCC vectorizes a loop calling cosf, expf, powf, ... with
   `_ZGV*` calls, 8 or 16 floats at once (those that may set errno only with rt_cpu.c's
   -fno-math-errno): the map `x .* h + 0.5*cos(x)` at 2048^2 took 39 ms, now 2.8 ms on the
   2-core VM. glibc documents these within 4 ulps (its scalar float functions: 1-2);
   the interpreter rounds the double result, tests/lang/float_math_vector.q allows 6 ulps.
   Float functions only: the double ones must stay exactly the interpreter's (--precision
   double, ints). sin, cos, exp, log and pow are in glibc 2.22, the others in 2.35. */
static const char *const helpers_c_vmath =
  "#if defined(__x86_64__) && defined(__GLIBC__) && !defined(__TINYC__) && !defined(__FAST_MATH__)\n"
  "#define OQ_VEC __attribute__((__simd__(\"notinbranch\")))\n"
  "float sinf(float) OQ_VEC; float cosf(float) OQ_VEC; float expf(float) OQ_VEC; float logf(float) OQ_VEC;\n"
  "float powf(float, float) OQ_VEC;\n"
  "#if __GLIBC_PREREQ(2, 35)\n"
  "float tanf(float) OQ_VEC; float asinf(float) OQ_VEC; float acosf(float) OQ_VEC; float atanf(float) OQ_VEC;\n"
  "float sinhf(float) OQ_VEC; float coshf(float) OQ_VEC; float tanhf(float) OQ_VEC; float log2f(float) OQ_VEC;\n"
  "float log10f(float) OQ_VEC; float atan2f(float, float) OQ_VEC;\n"
  "#endif\n"
  "#endif\n";

/* ... and 16-byte elements (double complex) updated under one of 64 spin-locks picked by
   the address, a cache line each: GCC's 16-byte compare-and-swap is a call into libatomic,
   which kernels do not link. The locks are the module's: CPU launches run one at a time. */
static const char *const helpers_c_lock16 =
  "static struct { int held; char pad[60]; } oq_locks16[64];\n"
  "static inline int *oq_lock16(const void *p) {\n"
  "  int *l = &oq_locks16[((uintptr_t)p >> 4) & 63].held;\n"
  "  while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE))\n"
  "    while (__atomic_load_n(l, __ATOMIC_RELAXED)) {}\n"
  "  return l;\n}\n"
  "static inline void oq_unlock16(int *l) { __atomic_store_n(l, 0, __ATOMIC_RELEASE); }\n";

/* ... and, after helpers_common, block-shared memory in per-worker scratch. */
static const char *const helpers_c_shared =
  "/* whole cache lines: the workers' scratch memory must not share any */\n"
  "static void *oq_scratch(OqkWorker *W, int k, size_t bytes) {\n"
  "  bytes = (bytes + 127) & ~(size_t)63;\n"
  "  if (W->scrsz[k] < bytes) {\n"
  "    free(W->scr[k]);\n"
  "    W->scr[k] = aligned_alloc(64, bytes);\n"
  "    W->scrsz[k] = W->scr[k] ? bytes : 0;\n  }\n"
  "  return W->scr[k];\n}\n"
  "static int oq_shared_alloc(OqkLaunch *L, OqkWorker *W, int k, int site, int rank, const int64_t *dims, void *pp,\n"
  "                           oq_ix *d, size_t esz) {\n"
  "  size_t n = 1;\n"
  "  for (int i = 0; i < rank; i++) {\n"
  "    if (dims[i] < 0 || dims[i] > (1 << 24)) { oq_fail(L, site); return 0; }\n"
  "    d[i] = dims[i]; n *= (size_t)dims[i];\n  }\n"
  "  void *p = oq_scratch(W, k, n * esz + 1);\n"
  "  if (!p) { oq_fail(L, site); return 0; }\n"
  "  memset(p, 0, n * esz);\n"
  "  *(void **)pp = p;\n  return 1;\n}\n";

/* ---- the C dialect's pieces of the shared emitter (EmDialect) ---- */

/* A barrier passes to the next round of the block's fibers; with phases the barriers are
   the phases' ends, and a memory fence is nothing: a block runs on one core. */
static void c_barrier(Em *E, Node *n) {
  if (E->fiber && em_is_barrier_stmt(n)) em_line(E, "oq_yield();");
}

/* shared(): the worker's scratch memory, allocated at the site's first call in the block;
   later calls must ask for the same dimensions. */
static void c_shared_alloc(Em *E, Node *n, int site, const char *sh, int rank, const char *dims, const char *same) {
  em_line(E, "if (!%s_init) {", sh);
  E->ind++;
  em_line(E, "if (!oq_shared_alloc(%s, W, %d, %d, %d, %s, &%s.p, %s.d, sizeof *%s.p)) goto _done;", E->L, site,
       em_div_site(E, n, KE_SHARED), rank, dims, sh, sh, sh);
  em_line(E, "%s_init = 1;", sh);
  E->ind--;
  em_line(E, "} else if (!(%s)) {", same);
  E->ind++;
  em_line(E, "oq_fail(%s, %d);", E->L, em_div_site(E, n, KE_SHARED));
  em_line(E, "goto _done;");
  E->ind--;
  em_line(E, "}");
}

/* Private copies: the worker's scratch memory, when the launcher made one (its bit of the
   private-copy mask). */
static void c_priv_loads(Em *E) {
  KSpec *S = E->S;
  Func *f = S->kfunc;
  for (int k = 0; k < S->tr.npriv; k++) {
    int a = S->tr.priv_arg[k];
    KType t = a < f->nparams ? em_k_params_type(S, a) : S->caps[a - f->nparams].type;
    em_line(E, "const int pv%d = (%s >> %d) & 1;", k, E->pmask ? E->pmask : "L->priv_mask", k);
    em_line(E, "%s *const pvp%d = (%s *)W->scr[%d]; (void)pvp%d;", em_el_ctype(t.el), k, em_el_ctype(t.el), OQK_PRIV_BASE + k, k);
  }
}

/* The update into this worker's private copy, when the launcher made one: no atomic. */
static bool c_priv_update(Em *E, const Update *u) {
  int k = u->P->priv;
  if (E->S->tr.priv_count[k]) {
    /* this worker's private count of the (identical) additions */
    em_line(E, "if (pv%d) ((int64_t *)pvp%d)[%s]++;", k, k, u->off);
  } else {
    char *pl = em_sf(E, "pvp%d[%s]", k, u->off);
    em_line(E, "if (pv%d) %s = %s;", k, pl,
            em_store_conv(E, u->el, em_num_op(E, u->op, em_load(E, u->el, pl), u->et, u->v, u->vt, u->at), u->rc));
  }
  em_line(E, "else {");
  E->ind++;
  return true;
}

/* int32 elements with int values (add, sub, and, or, xor): GCC's __atomic builtins. */
static bool c_native_update(Em *E, const Update *u) {
  Op op = u->op;
  if (u->el != EL_I32 || em_kclass(u->vt) != K_INT ||
      !(op == OP_ADD || op == OP_SUB || op == OP_BAND || op == OP_BOR || op == OP_BXOR))
    return false;
  const char *fn = op == OP_ADD ? "add" : op == OP_SUB ? "sub" : op == OP_BAND ? "and" : op == OP_BOR ? "or" : "xor";
  char *r0 = em_tmp(E);
  em_line(E, "int32_t %s = __atomic_%s_fetch(&%s, %s, __ATOMIC_RELAXED);", r0, fn, u->lv, u->v);
  if (u->res) em_line(E, "%s = %s;", u->res, r0);
  else em_line(E, "(void)%s;", r0);
  return true;
}

static const EmDialect dialect_c = {
  .name = "C",
  .lit_fmt = "(%s){",
  .func_qual = "static",
  .launch_at = "L->",
  .arg_fmt = "L->args[%d]",
  .trunc32 = "%s",
  .trunc64 = "%s",
  .off32_fmt = "(int32_t)%s",
  .fadd = NULL,
#if defined(__x86_64__)
  .cvtt = true,
#endif
  .cas16 = false,
  .xchg16 = true,
  .serial_blocks = true,
  .shared_zeroed = true,
  .block_phases = true,
  .row_tests = true,
  .barrier = c_barrier,
  .shared_alloc = c_shared_alloc,
  .priv_loads = c_priv_loads,
  .priv_update = c_priv_update,
  .native_update = c_native_update,
};


/* S's source in dialect D; *cplx: it has complex values. */
static char *emit_source(KSpec *S, const EmDialect *D, bool *cplx) {
  Em E = {.S = S, .D = D};
  *cplx = false;
  if (setjmp(S->fail)) {
    free(E.arrtypes.s);
    free(E.tuptypes.s);
    free(E.reach);
    return NULL;
  }
  /* the blocks of a CPU launch run a few at a time: they cannot all wait for each other */
  if (S->grid_barrier) em_efail(&E, S->kfunc->loc, "syncthreads(grid) (compiled for CUDA only)");
  /* a warp's threads exchange values in registers: the C back end runs no warps */
  if (S->coop) em_efail(&E, S->kfunc->loc, "warp shuffles and votes of cooperative groups (compiled for CUDA only)");
  E.fiber = S->divergent != NULL;
  em_reach(&E, S->kspec);
  Buf funcs = {0}, protos = {0}, cx = {0}, out = {0};
  /* device functions first (they define types the prototypes need) */
  for (int i = E.nreach - 1; i >= 1; i--) em_emit_device(&E, E.reach[i], &funcs);
  emit_kernel(&E, &funcs);
  if (S->tr.npriv) em_emit_private_hooks(&E, &funcs);
  em_emit_decls(&E, &protos, &cx);
  bool dp = rt_config.double_precision;
  /* a fortified _longjmp refuses to switch stacks (see interp_kernel.c) */
  if (E.fiber) em_bputs(&out, "#undef _FORTIFY_SOURCE\n");
  em_bprintf(&out, em_preamble_fmt, S->name, OQK_ABI_TEXT, dp ? "double" : "float", dp ? "double" : "float");
  em_vec_types(&out);
  em_bputs(&out, helpers_c_tcc);
  if (E.cplx) em_bprintf(&out, helpers_c_tcc_cplx, dp);   /* only where needed: sources stay as they were */
  em_bputs(&out, helpers_c);
  em_bputs(&out, helpers_c_vmath);
  em_index_types(S, &out);
  em_bputs(&out, em_helpers_common);
  em_bputs(&out, helpers_c_shared);
  if (E.cas16) em_bputs(&out, helpers_c_lock16);
  if (E.fiber) em_bputs(&out, "#include <setjmp.h>\n#include <ucontext.h>\n");
  if (E.fiber) em_bputs(&out, helpers_fiber);
  em_emit_tail(&E, &out, &protos, &cx, &funcs);
  *cplx = E.cplx;
  return out.s;
}

/* The C compiler's source of S; with tcc_src, TinyCC's too when it differs (complex numbers:
   dialect_c with cplx_fns), else *tcc_src is NULL. Both emissions start from the same KSpec (what the
   emitter records in it, its transforms and error sites, comes out the same). */
char *emit_c(KSpec *S, char **tcc_src) {
  KTransforms tr0 = S->tr;
  int nsites0 = S->nsites;
  bool cplx;
  char *src = emit_source(S, &dialect_c, &cplx);
  if (!tcc_src) return src;
  *tcc_src = NULL;
  if (!src || !cplx) return src;
  KTransforms tr1 = S->tr;
  int nsites1 = S->nsites;
  S->tr = tr0;
  S->nsites = nsites0;
  EmDialect tcc = dialect_c;   /* TinyCC's variant: complex numbers are structs (helpers_c_tcc_cplx) */
  tcc.cplx_fns = true;
  *tcc_src = emit_source(S, &tcc, &cplx);
  S->tr = tr1;
  S->nsites = nsites1;
  return src;
}
