/* emit.h: what the emitter's files share: the emitter state (Em), text buffers, the
   dialects' interface (EmDialect), and the functions one file calls in another (prefixed
   em_). Private to src/codegen; codegen.h declares the two entry points, emit_c and
   emit_cuda.

   emit.c           C expressions and statements of typed kernel code (both dialects)
   emit_index.c     array indexing: index plans, boundary rules, element loads and stores
   emit_analysis.c  analyses of a kernel body that decide how it is emitted
   emit_kernel.c    the kernel frame both dialects share: special parameters, argument
                    loads, outputs, declarations, the file's tail
   c/emit_c.c       the C dialect: the CPU entry (flat, block and barrier modes)
   cuda/emit_cuda.c the CUDA dialect: one GPU thread per Quasar thread
   cuda/coarse.c    ... its persistent blocks (cuda/cuda_priv.h: what those two share) */
#ifndef OQ_EMIT_H
#define OQ_EMIT_H
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/kernel_ir.h"
#include "kernel/facts.h"
#include "base/oqk_abi.h"

typedef struct Buf { char *s; size_t len, cap; } Buf;

/* Slot storage in the kernel function. */
enum { SC_NONE, SC_LOCAL, SC_PARAM, SC_SPECIAL };

/* A read x[pos + c] that the rows of a CUDA kernel load first (em_rows_ahead_read): the
   node, x's kernel parameter and c. */
typedef struct RowRead { Node *n; int param; int64_t c[OQ_MAX_RANK]; } RowRead;

typedef struct Em {
  KSpec *S;
  FSpec *f;             /* function being emitted */
  Buf *b;               /* where statements go */
  int ind;
  int ntmp;
  bool phases;          /* kernel body of a barrier kernel: locals are per-thread arrays */
  unsigned char *sc;    /* kernel: storage class per slot */
  Buf arrtypes, tuptypes;
  bool arrdone[EL_COUNT][OQ_MAX_RANK + 1];
  bool has_return;      /* kernel: `return` jumps to the end of the thread */
  const char *L;        /* C expression of the OqkLaunch pointer here */
  FSpec **reach; int nreach;
  int priv_slot[8], priv_cap[8];   /* private arrays: kernel slot or capture (-1 for neither) */
  const char *ret_label; /* kernel: where `return` goes (the end of the thread) */
  const char *lbl_tag;  /* CUDA: appended to those labels in a second copy of the loops */
  bool row_fast;        /* emitting the row copy where x[pos + c] accesses are known inside */
  int lin_slot;         /* `pos`, when it only ever indexes whole argument arrays (else -1) */
  bool lin;             /* emitting the linear loop: those accesses are x.p[_r] */
  Buf lin_test;         /* at the entry: the arrays have the launch's dimensions */
  char **konst;         /* per slot of the function being emitted: its constant value, or NULL */
  unsigned char *pphase;  /* kernel with barriers: 1: a plain local of each phase (never carries a
                             value over a barrier); 2: one variable per block (a shared array) */
  Node **dead; int ndead;   /* statements that do nothing: zeros stored into fresh shared memory */
  const struct EmDialect *D;  /* the dialect written: C (emit_c.c) or CUDA C++ for NVRTC (emit_cuda.c) */
  char *pf_arr[4]; ElemType pf_el[4]; int npf, pf_k;  /* CUDA tiling: arrays read at pos, loaded ahead */
  const char *defer_bad; int ndefer;  /* CUDA linear loop: a failed 'checked test sets this flag (emit_cuda.c pf_step) */
  unsigned char *tconst;  /* kernel with barriers: the slot's konst is the thread's index or count */
  unsigned ldg_params;  /* CUDA: kernel parameters read through __ldg ('hwtex_const), bit i */
  Node **posdef;        /* kernel: per slot, the value of a local set once to pos[k] + c (see find_pos_locals) */
  bool pos_vars;        /* C flat loops: P0.. hold pos as int64 (em_pos_affine) */
  bool lin_pos;         /* emitting linear_pos_loop: x[pos + c] accesses (c zero there) are x.p[_r] */
  const char *pmask;    /* C: the launch's private-copy mask here (NULL: L->priv_mask) */
  bool fiber;           /* C, barriers not every thread may reach: each thread is a fiber (emit_c.c) */
  bool cas16;           /* some 16-byte element is updated atomically (emit_index.c, cas_open):
                           C's oq_lock16, CUDA's oq_acas overload */
  unsigned sh_nosync;   /* CUDA: shared() sites (bit) whose zeroing needs no barrier of its own */
  unsigned sh_owned;    /* ... that zero only elements no thread of the block writes (owner_store) */
  unsigned sh_unread;   /* ... of which nothing reads those elements (owned_reads): no zeroing */
  size_t vb_shared;     /* ... a block's bytes under virtual blocks (cuda_vblocks) */
  int coarse_split[2];  /* CUDA persistent blocks: the body's two barrier statements */
  const char *shadow_arr[4];  /* ... while emitting the epilogue: += into these go to shadows */
  bool packed;          /* ... and that += is a packed merge (em_cuda_shadow_update) */
  int coarse_slot;      /* ... the shared accumulator */
  const char *count_arr; /* CUDA: a shared accumulator held as unsigned counts (coarse.c) */
  bool count_swz;       /* ... its elements stored at oq_swz(offset) */
  bool coarse_gs;       /* ... the resident blocks take the launch's blocks grid-stride */
  Node *ahead[4]; int nahead;  /* CUDA persistent blocks: x[pos] reads loaded ahead (em_at_pos);
                                  while set, read k of the body (pf_k) is register _la<j>_<k> */
  RowRead rahead[8]; int nrahead;  /* CUDA rows: reads x[pos + c] that every row loads first
                                  (em_rows_ahead_read, one per x and c; cuda_rows_body);
                                  while set, such a read is register _ra<j>[_w] */
  const char *lpos;     /* ... the thread's row-major position in the launch: the offset of x[pos]
                           in launch-shaped arguments (KSpec.at_launch) */
  bool cplx;            /* the code has complex values (em_cfns): emit_c writes TinyCC's variant */
} Em;

/* ---- locals that are constants: assigned once, a literal ---- */

typedef struct KonstScan { int *nassign; Node **value; } KonstScan;

/* ---- array indexing ---- */

typedef enum Rule { R_ZERO, R_CHECKED, R_UNCHECKED, R_CIRC, R_MIRROR, R_CLAMP } Rule;

/* An index list resolved to plan dimensions. */
typedef struct Plan {
  int ndim;
  char *size[OQ_MAX_RANK];     /* size of each plan dimension */
  char *idx[OQ_MAX_RANK];      /* int64 index (named) of each plan dimension; vdim: NULL */
  char *ridx[OQ_MAX_RANK];     /* or a scalar index, for the zero/unchecked rules (idx NULL);
                                  checked: the scalar whose cvtt idx is, for error reports */
  int vdim;                    /* dimension indexed by a vector, or -1 */
  int vlen;
  char *vec; KType vt;         /* that vector */
  Rule rule;
  int site;                    /* 'checked: error site */
  char *arr;                   /* the array (a name) */
  int rank;
  int priv;                    /* private-copy candidate k (see find_private), or -1 */
  bool lin;                    /* x[pos] in the linear loop: element _r, always inside */
  const char *linoff;          /* lin: the element's offset when not _r (Em.lpos) */
  bool inside;                 /* x[pos + c] in a row known to be inside x */
  unsigned dim_in;             /* dimensions d (bit d) whose index is pos[d] on an array of
                                  the launch's dimensions: inside, whatever the rule */
  bool at_launch;              /* the array has the launch's dimensions (every extent is
                                  positive where a thread runs) and one index per dimension */
  char *off32;                 /* a 1-D scalar index's offset as int32 (valid only where the
                                  element is: its array is shorter than 2^31), or NULL */
  bool own;                    /* a compound assignment into the thread's own element
                                  (em_own_update) of an array that drops positions outside */
} Plan;

/* ---- the dialects ----
   What the shared emitter (emit*.c) writes differently in C (emit_c.c) and in CUDA C++
   (emit_cuda.c), each one EmDialect that its entry sets in Em.D: spellings, capabilities of
   the target, and hooks. A hook left NULL is one the dialect does without. */

/* An element update *lv op= v of store_elem (emit_index.c), for the dialect's hooks. */
typedef struct Update {
  Plan *P;
  const char *off, *valid;   /* the element's offset in P->arr, and whether it is inside */
  char *lv;                  /* the element, an lvalue */
  ElemType el;
  Op op;
  char *v;
  KType vt;
  KType et, rc;              /* the element's class; the class op computes in (rmw_class) */
  char *res;                 /* where the new value goes, or NULL */
  Node *at;                  /* the assignment (error sites) */
} Update;

typedef struct EmDialect {
  const char *name;          /* in messages: "C", "CUDA" */
  /* ---- spellings ---- */
  const char *lit_fmt;       /* the start of a struct literal of type %s: C's compound literal,
                                C++'s braced temporary */
  const char *func_qual;     /* before a device function's result type */
  const char *launch_at;     /* the launch's sizes (dims, blk, cnt) are members of this */
  const char *arg_fmt;       /* argument %d of the launch */
  const char *trunc32, *trunc64;  /* a real index (%s) that passed its test as an int32 /
                                     int64, which a cast to the index type then takes */
  const char *off32_fmt;     /* ... as an int32 offset */
  const char *fadd;          /* atomic addition of a float or double returning the old value,
                                or NULL: a compare-and-swap loop */
  /* ---- capabilities ---- */
  bool cvtt;                 /* oq_cvtt: a truncation that gives INT64_MIN for NaN and out-of-
                                range reals (x86-64 only) */
  bool real_checked;         /* a 'checked real index is tested as a real and converted after
                                (no 64-bit conversion before the test) */
  bool cas16;                /* compare-and-swap of 16 bytes (else oq_lock16's locks) */
  bool xchg16;               /* '<-' (an exchange) of 16-byte elements */
  bool serial_blocks;        /* a block's threads run one after another: an update of shared
                                memory is a plain read-modify-write */
  bool warps;                /* threads run in warps of 32 in lockstep: a loop around a warp
                                collective must run the same trips in every lane */
  bool shared_needs_barrier; /* shared() only in the kernel function of a barrier kernel */
  bool shared_zeroed;        /* shared() memory is zeroed where it is allocated: zeros stored
                                into it are dead (find_dead_zero_stores); else em_shared_plan
                                decides its zeroing */
  bool block_phases;         /* a barrier kernel runs its block phase by phase between barriers
                                (locals that cross one become per-thread arrays); else each
                                thread keeps its own locals (GPU threads, or fibers) */
  bool vthreads;             /* ... though a thread may run several Quasar threads phase by
                                phase (transforms decides): the phase locals are found */
  bool row_tests;            /* accesses x[pos + c] are tested once per row of positions
                                (em_row_tests): locals set to pos[k] + c are found for them */
  bool out_identity;         /* the entry's output accumulators start at the operator's identity
                                (else at the worker's, W->out_i / W->out_r) */
  bool int_wrap_fns;         /* signed overflow is undefined in the target's compiler (NVRTC has
                                no -fwrapv): the ints' + - * and unary minus call the dialect's
                                oq_wadd, oq_wsub, oq_wmul, oq_wneg, which compute in unsigned
                                (two's complement, docs/language.md "Integers"); else plain C
                                operators, which the C compiler's -fwrapv makes wrap */
  bool rsqrt_div;            /* a / sqrt(b) of floats is a * rsqrtf(b) (em_num_op) */
  bool cplx_fns;             /* complex numbers are structs (TinyCC, which has no _Complex):
                                their operators, casts and functions are calls of the
                                preamble's oq_tc_* (emit_c.c's TinyCC variant of the source) */
  /* ---- hooks ---- */
  void (*transforms)(Em *E);             /* last of em_kernel_analysis */
  void (*barrier)(Em *E, Node *n);       /* a statement syncthreads or memfence */
  void (*shared_alloc)(Em *E, Node *n, int site, const char *sh, int rank, const char *dims,
                       const char *same);  /* shared() call site `site`: sh takes dims[rank];
                                              same: sh already has them */
  char *(*collective)(Em *E, Node *n, GroupOp op, char *lin);  /* a warp's shuffle or vote */
  char *(*param_load)(Em *E, int i, KType t, const char *arg);   /* kernel parameter i, when
                                                                    not the usual load (NULL) */
  void (*priv_loads)(Em *E);             /* the entry's private copies (KSpec.priv_arg) */
  /* store_elem's atomic update, in order; each true when it emitted the update */
  bool (*count_update)(Em *E, const Update *u);   /* before valid is tested */
  bool (*priv_count)(Em *E, const Update *u);     /* a count into private copy P->priv where
                                                     valid may fail: tests valid itself and
                                                     opens its block */
  bool (*priv_update)(Em *E, const Update *u);    /* into private copy P->priv, then opens the
                                                     `else {` of the update of the array (false:
                                                     the copy cannot take it) */
  bool (*shadow_update)(Em *E, const Update *u);  /* persistent blocks: the epilogue's += into
                                                     a float array's shadow */
  bool (*native_update)(Em *E, const Update *u);  /* a native atomic */
} EmDialect;

/* ---- exact integer views of scalar index arithmetic ----
   `x[pos + [0,1,0]]` adds ints to a vec of scalars: the interpreter rounds every scalar
   result to float. While every such result is an integer below 2^24 in magnitude the
   rounding changes nothing, and the index can be computed in integers. Values known to be
   that small need no test (positions: the launcher checks the launch extents); others are
   tested, and the scalar computation runs when a test fails. */

#define F24 ((int64_t)1 << 24)

typedef struct IView {
  int len;                       /* components; 0 for a number */
  char *c[K_MAX_VEC];            /* int64 C expression of each component */
  int64_t bound[K_MAX_VEC];      /* |value| <= bound, or -1 when not known */
  bool launch[K_MAX_VEC];        /* the bound holds for launch extents below 2^23 only */
} IView;

/* Offsets of an access from pos, per dimension: a literal c plus, where not NULL, a
   kernel-invariant int64 C expression inv (a parameter such as a parallel loop's m_lo). */
typedef struct PosOff {
  int64_t c[OQ_MAX_RANK];
  char *inv[OQ_MAX_RANK];
} PosOff;

/* Locals assigned exactly once, by a top-level statement of the body to pos[k] + c (+ an
   invariant), and not read before it: every later read sees that value. */
typedef struct PosScan {
  int *nassign;   /* assignments per slot, or NULL */
  int slot;       /* reads of this slot set `read` */
  bool read;
} PosScan;

typedef struct PrivCount { int slot, cap, all, ok; } PrivCount;

/* ---- the linear loop ----
   When `pos` is only ever the whole index of argument arrays (x[pos]) and, at a launch,
   those arrays have exactly the launch's dimensions, every x[pos] is element _r of x (the
   thread's row-major position) and inside x: the thread loop runs over _r directly. */

typedef struct LinScan { int slot, uses, ok; Buf *test; Em *E; bool bad; } LinScan;

/* emit.c */
void em_bputs(Buf *b, const char *s);
void em_bprintf(Buf *b, const char *fmt, ...);
/* Abandons the specialization: ksema_fail of E's (S->reason, longjmp to S->fail). */
#define em_efail(E, loc, ...) ksema_fail((E)->S, loc, __VA_ARGS__)
char *em_sf(Em *E, const char *fmt, ...);
void em_line(Em *E, const char *fmt, ...);
char *em_tmp(Em *E);
KType em_T(Em *E, Node *n);
KType em_kt(KKind k);
KKind em_kclass(KType t);
bool em_cfns(Em *E);
bool em_float_math(KType t);
const char *em_el_ctype(ElemType e);
const char *em_ctype(Em *E, KType t);
char *em_lit_open(Em *E, const char *type);
bool em_has_repr(KType t);
char *em_slot_name(Em *E, FSpec *f, int slot);
char *em_slot_ref(Em *E, int slot);
void em_find_konst(Em *E, FSpec *f);
char *em_conv(Em *E, char *e, KType from, KKind to);
char *em_vname(Em *E, char *e, KType t);
char *em_truthy(Em *E, char *e, KType t);
int em_div_site(Em *E, Node *at, KErrKind k);
char *em_num_op(Em *E, Op op, char *a, KType ta, char *b, KType tb, Node *at);
void em_put_pre(Em *E, const char *pre);
char *em_ex_ident(Em *E, Node *n);
char *em_ex_range_value(Em *E, Node *n);
char *em_ex(Em *E, Node *n);
void em_loc_comment(Em *E, Node *n);
/* A statement that is a syncthreads of any scope / of the grid (funcinfo's barrier_kind). */
bool em_is_barrier_stmt(Node *n);
bool em_is_grid_barrier(Node *n);
void em_st(Em *E, Node *n);
void em_block(Em *E, NodeList *l);
void em_block_stride_phase(Em *E, Node *n, const char *first, const char *step);
void em_func_signature(Em *E, FSpec *g, Buf *out);
void em_emit_device(Em *E, FSpec *g, Buf *out);
char *em_block_threads(Em *E);
/* cooperative groups: lin the thread's linear index in its block */
char *em_warp_lane(Em *E, char *lin);
char *em_warp_size(Em *E, char *lin);

/* emit_index.c */
void em_index_types(KSpec *S, Buf *out);
char *em_adim(Em *E, const char *arr, KType t, int d);
char *em_idx64(Em *E, char *e, KType t);
bool em_pos_comp(Em *E, Node *e, int d, int64_t *c, char **inv);
bool em_fast_access(Em *E, Node *n, PosOff *o, char **name);
char *em_pos_affine(Em *E, Node *e);
bool em_has_pos_affine(Em *E, Node *n);
void em_row_tests(Em *E, Node *n, int in, Buf *t, Buf *r);
char *em_load(Em *E, ElemType el, char *lv);
char *em_store_conv(Em *E, ElemType el, char *v, KType t);
char *em_prefetched(Em *E, const char *arr);
bool em_at_pos(Em *E, Node *n);
bool em_rows_ahead_read(Em *E, Node *n, int *p, int64_t *c);
int em_rows_ahead_find(const Em *E, int p, const int64_t *c);
int em_pos_index(const Em *E, const Node *n, int slot);
char *em_index_read(Em *E, Node *n);
char *em_index_store(Em *E, Node *n, Node *target, Op op, char *v, KType vt, bool want);
char *em_ex_exchange(Em *E, Node *n);

/* emit_analysis.c */
int em_private_of(Em *E, Node *id);
int em_phase_end(Em *E, const NodeList *l, int i);
void em_phase_scan(Em *E, NodeList *l, unsigned char *bad, int first, int nslots);
bool em_is_dead(Em *E, Node *n);
bool em_all_dead(Em *E, NodeList *l);
void em_emit_private_hooks(Em *E, Buf *out);
bool em_block_stride_loop(Em *E, Node *n);
bool em_packed_merge_ok(Em *E, Node *n, int y);
bool em_own_update(Em *E, Node *target);
void em_xform_note(KSpec *S, const char *fmt, const char *name);
const char *em_priv_name(KSpec *S, int k);
int em_priv_shared_esz(KSpec *S, int k);
void em_shared_plan(Em *E);
bool em_coarsen_ok(Em *E);
void em_kernel_analysis(Em *E, Buf *body);
void em_thread_consts(Em *E, const char *ind, const char *cnt);

/* emit_kernel.c */
const KSpecial *em_special_of(KSpec *S, int param);
char *em_array_literal(Em *E, KType t, const char *data, const char *a);
void em_thread_prelude(Em *E, bool locals);
void em_phase_body(Em *E, NodeList *l, int from, int to);
bool em_shared_type(Em *E, int s, KType *t);
void em_thread_outputs(Em *E);
void em_thread_outputs_into(Em *E, const char *fmt);
void em_kernel_loads(Em *E);
void em_kernel_end(Em *E);
extern const char *const em_preamble_fmt;
extern const char *const em_helpers_common;
void em_reach(Em *E, FSpec *f);
void em_emit_decls(Em *E, Buf *protos, Buf *cx);
void em_vec_types(Buf *out);
void em_emit_tail(Em *E, Buf *out, Buf *protos, Buf *cx, Buf *funcs);

/* emit_c.c */
KType em_k_params_type(KSpec *S, int a);

#endif
