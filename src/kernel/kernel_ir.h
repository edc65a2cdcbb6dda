/* kernel_ir.h: what kernel specialization (kernel_sema.c) learns about a kernel launch and
   what the C emitter (emit*.c) reads: a type for every expression of every specialized
   function, the captured values, the device functions each call reaches, and the error
   sites compiled code reports through.

   A specialization is made for one set of launch facts: the run-time types of the kernel's
   arguments and captured variables, the launch dimensionality, and the identity of every
   function value the kernel can call. Nothing about sizes is baked in, so one compiled
   specialization serves every launch with the same facts. */
#ifndef OQ_KERNEL_IR_H
#define OQ_KERNEL_IR_H
#include <setjmp.h>
#include <stdarg.h>
#include "base/options.h"
#include "front/funcinfo.h"
#include "runtime/callable.h"

/* Types of values in compiled kernel code. */
typedef enum KKind {
  K_NONE,     /* no value (a function without outputs), or not known yet */
  K_BOOL,     /* int32_t 0/1 */
  K_INT,      /* int32_t */
  K_REAL,     /* float, or double with --precision double */
  K_CPLX,     /* float/double _Complex */
  K_VEC,      /* small vector of compile-time length of K_INT or K_REAL components */
  K_ARRAY,    /* array: element type and rank; dimensions are run-time values */
  K_FUNC,     /* a function known at specialization time (no run-time representation) */
  K_TUPLE,    /* several outputs of a device function (only in multiple assignment) */
} KKind;

#define K_MAX_VEC 16

typedef struct FnRef FnRef;
typedef struct FSpec FSpec;

typedef struct KType {
  KKind kind;
  KKind elem;        /* K_VEC: K_INT or K_REAL */
  int len;           /* K_VEC: number of components */
  ElemType el;       /* K_ARRAY: element type */
  int rank;          /* K_ARRAY */
  bool shared;       /* K_ARRAY: block shared memory (one worker owns the block: no atomics) */
  const int64_t *cdims;  /* K_ARRAY: dimensions known at specialization (shared(256, 4)), or
                            NULL; -1 for one that is not (arguments, see KSpec.slices) */
  int fixlen;        /* K_ARRAY of rank 1 passed in with few elements: its length (0: unknown);
                        such arrays also act as vectors in arithmetic */
  FnRef *fn;         /* K_FUNC */
  FSpec *tuple;      /* K_TUPLE: the device function whose outputs these are */
} KType;

/* A function value known at specialization time: a user function and where its captured
   names live. Functions defined inside compiled code have no run-time frame: their
   enclosing frames up to `nvirtual` levels are compiled functions (vparent and its
   ancestors); past those, `env` is the interpreter frame that holds the captures. */
struct FnRef {
  Func *func;
  Frame *env;
  int nvirtual;
  FSpec *vparent;
  Value *generic_args;
  int ngeneric;
  FnRef *next;       /* interned list */
};

/* A captured variable: slot `slot` of interpreter frame `frame`, read at every launch. */
typedef struct Capture {
  Frame *frame;
  int slot;
  Value value;       /* at this launch (borrowed) */
  KType type;
} Capture;

/* What sema records for one expression or statement node of one specialization. */
typedef struct NodeInfo {
  const Node *node;
  KType t;           /* value type */
  FSpec *callee;     /* N_CALL of a device function */
  int builtin;       /* N_CALL of a built-in: its KB_* id */
  int site;          /* error site (index into KSpec.sites), -1 if none */
  int cap;           /* N_IDENT of a captured name: capture index, else -1 */
  bool barrier;      /* statement contains a barrier (kernel body only; check_barriers) */
  bool grid_barrier; /* ... a grid barrier, syncthreads(grid) */
  bool warp_trips;   /* a loop holding warp collectives whose range may differ between
                        threads: CUDA checks that the lanes of each warp run it equally often */
  bool as_vec;       /* a small array used as a vector: t is the K_VEC it is read into */
} NodeInfo;

typedef struct NodeMap { NodeInfo *items; int cap, n; } NodeMap;

/* One specialization of a function (the kernel, or a device function for given argument
   types). Emitted as one C function. */
struct FSpec {
  Func *func;
  FnRef *ref;
  KType *params;     /* by parameter index (special kernel params included) */
  KType *slots;      /* type of every frame slot */
  unsigned char *slot_mixed;  /* the slot was assigned both int and real values */
  KType result;      /* K_NONE, one output, or K_TUPLE */
  NodeMap info;
  int id;
  bool is_kernel;
  bool analyzing;    /* recursion guard */
  bool changed;      /* a slot type widened during this pass */
  FSpec *next;
};

/* Kinds of run-time errors compiled code reports; the launcher formats the message. */
typedef enum KErrKind { KE_INDEX, KE_ASSERT, KE_DIVZERO, KE_MODZERO, KE_BARRIER, KE_SHARED, KE_RANGE,
                       KE_GRID_BARRIER, KE_WARP_TRIPS } KErrKind;

typedef struct KSite {
  KErrKind kind;
  SrcLoc loc;
  const char *array;   /* KE_INDEX: the array's name, or NULL */
  const char *text;    /* KE_ASSERT: the condition's source text */
} KSite;

/* Which special parameters a kernel uses, and how. */
typedef struct KSpecial {
  int param;         /* parameter index */
  const char *name;  /* pos, blkpos, blkdim, blkidx, blkcnt, warpsize */
  KType t;           /* K_INT (linear index / product) or K_VEC */
} KSpecial;

/* What the `!kernel_tiling` attributes of a kernel ask of one back end (kernel_tiling.c). */
typedef struct KTiling {
  bool global_auto;   /* mode="global", dims=auto: the run-time picks the grid */
  int64_t grid[3];    /* mode="global", dims=[a,b,c]: the thread grid's shape (0: not given) */
  int64_t box[3];     /* mode="local": the positions each thread runs (1,1,1: not given) */
} KTiling;

#define OQ_SHARED_MAX 49152   /* CUDA dynamic shared memory without the opt-in attribute */
#define K_CMEM_BYTES 65536   /* constant memory for 'hwconst arrays (CUDA's 64 KiB bank) */

/* CUDA shared memory (emit_analysis.c, em_shared_plan): a shared() call's dimensions as
   mul * blk[k] + add (k -1: a constant, D: the block's thread count), so that the launcher
   reserves what the launch needs. */
struct KShSize { int rank, esz; signed char k[OQ_MAX_RANK]; int64_t mul[OQ_MAX_RANK], add[OQ_MAX_RANK]; };

/* How the generated code runs a launch: what the emitters (emit_analysis.c, emit_c.c,
   emit_cuda.c) decide and the launchers (rt_cpu.c, rt_gpu.c) must know to start it. The
   emitter fills KSpec.tr; a launcher keeps a copy of the whole in its record of the
   specialization. */
typedef struct KTransforms {
  /* private copies */
  int priv_arg[8];           /* arrays only updated with += / -=: their index in the arguments
                                (parameters, then captures); the launcher decides whether
                                each gets per-worker private copies */
  int npriv;
  int64_t priv_count[8];     /* nonzero: every update adds this int to a real array, and the
                                private copy counts the updates */
  int priv_esz[8];           /* CUDA, per private array: bytes of an element of its
                                shared-memory copy (0: its updates stay global atomics) */
  int merge_copies;          /* CUDA, counted private arrays: copies of their counts in the
                                launch's scratch; block b adds into copy b mod merge_copies */
  /* tiling */
  KTiling tiling;            /* the kernel's !kernel_tiling for this back end, when honoured:
                                CUDA sweeps (cuda_sweep_body) when grid or box are given,
                                C runs tiles of grid * box positions (emit_c.c) */
  bool tiled;                /* CUDA: a grid-stride loop over the positions: the launcher
                                picks the grid */
  bool tiling_swept;         /* CUDA: the sweep of tiles/boxes, not the plain tiled loop */
  int tile_ppt;              /* CUDA: the least positions per thread of a tiled launch (a step
                                of vector loads), so that small launches run whole steps */
  bool block_reduce;         /* CUDA: kernel outputs reduced per block: one atomic per block */
  bool grid_stride;          /* CUDA: a syncthreads(grid) kernel cut into phases at its
                                top-level grid barriers, each a loop of the resident blocks
                                over the launch's blocks (any grid size) */
  unsigned cmem_params;      /* CUDA: kernel parameters (bit i) read from constant memory */
  /* CUDA shared memory: each shared() call's size (KShSize); shsized false: the whole 48 KiB */
  struct KShSize shsize[4];
  bool shsized;
  /* persistent blocks (em_coarsen_ok): the resident blocks run every block's body between
     one prologue and one epilogue; the epilogue's float += go through a double shadow of
     these arguments in OqkGrid.scr, added in by the launch's last block */
  bool coarse;
  int coarse_arg[4], ncoarse;
  int64_t coarse_inc;        /* every body update adds this int literal (0: not so): the
                                launcher keeps each block's counts below 2^24 */
  int cvec;                  /* ... Quasar threads per GPU thread, consecutive in the block
                                (em_cuda_coarse_ahead): the launcher proposes F (plan.c,
                                in the key) and starts 1-D blocks of cvec times fewer threads */
  int cgroups;               /* ... and at most this many such blocks' threads per GPU block,
                                sharing one accumulator (coarse groups; 1: one), group g
                                taking the block g further along dimension cgroup_dim */
  int cgroup_dim;
  int vthreads;              /* CUDA virtual threads: the launcher proposes F (plan.c; with
                                cblk, both in the key); emit_cuda keeps it when every GPU
                                thread can run F of the block's threads along dimension 0
                                (docs/cuda.md), else sets 1 */
  int rows;                  /* CUDA: rows per GPU thread of a flat 2-D kernel (the launcher
                                proposes R, in the key; emit_cuda keeps it for a kernel that
                                runs one GPU thread per position): thread row r runs rows
                                R r .. R r + R - 1 of blocks; 0 or 1: none */
  int vblocks;               /* ... and up to V virtual blocks (emit_cuda's cuda_vblocks): a
                                GPU block runs V of the launch's blocks, consecutive along
                                dimension 0; the launch says how many (OqkGrid.xf) */
} KTransforms;

/* What the kernel does with its arrays and its shared memory (facts.c, kfacts_compute: once
   per specialization, in ksema_run); the emitters and the CUDA launcher read them. */
typedef struct KFacts {
  bool *param_written;    /* per kernel parameter: the kernel may write the array (any use of
                             its name but reading elements or passing it to a built-in,
                             nested functions included): the CUDA launcher keeps the host
                             copy of the others valid */
  bool *param_read_only;  /* per kernel parameter: the kernel's own body only reads its
                             elements or passes it to built-ins, and defines no function:
                             emit_cuda may read it from constant memory or through __ldg */
  bool *stored;           /* per slot of the kernel's frame: an assignment or exchange of the
                             kernel's own body (nested functions aside) stores into it
                             (x of x[i] = e): emit_cuda loads ahead only arrays that are not */
  bool *stored_cap;       /* the same per capture (KSpec.caps) */
  char *param_fill;       /* per kernel parameter: every thread stores its own element,
                             p[pos] (1) or p[pos[0], ..] (2), and nothing reads p; else 0
                             (the CUDA launcher's 'nocopy analysis: no upload) */
  unsigned own_elems;     /* kernel parameters p < 32 (bit p) that the kernel's own body uses
                             only as p[pos] or in numel/size/ndims(p) (no nested function):
                             p[pos] is an element no other thread touches unless another
                             argument is the same array (KSpec.aliased): em_own_update */
  int nshared;            /* shared() call sites of the kernel's body, each at its top level
                             (numbered in NodeInfo.site): the block's shared arrays, which
                             both emitters allocate and the CUDA launcher sizes */
} KFacts;

/* The whole specialization of one kernel launch. */
typedef struct KSpec {
  Callable *kernel;
  Func *kfunc;
  int D;                     /* launch dimensionality */
  int64_t cblk[3];           /* launches of kernels with block parameters (CUDA: with barriers
                                too): the block size, part of the key, so the compiler sees
                                constant thread loops and blkdim */
  FSpec *kspec;              /* the kernel itself */
  FSpec *funcs;              /* every specialization, the kernel included */
  int nfuncs;
  FnRef *refs;
  Capture *caps; int ncaps, capcap;
  KSite *sites; int nsites, sitecap;
  KSpecial special[8]; int nspecial;
  bool barrier;              /* the kernel calls syncthreads: phases */
  bool grid_barrier;         /* syncthreads(grid): only the CUDA dialect compiles it (a
                                cooperative launch); its conditions must agree across blocks */
  bool coop;                 /* warp collectives of cooperative groups (g.shfl_down(v, d),
                                g.sync(), votes): only the CUDA dialect compiles them, one
                                GPU thread per Quasar thread (no transform regroups threads) */
  bool uses_block;           /* blkpos/blkidx/blkdim/blkcnt/shared: run by blocks */
  bool slices;               /* x[i, :] in reachable code: array dimensions of at most
                                K_MAX_VEC are facts of the launch (KType.cdims) */
  bool small_launch;         /* the code assumes launch extents below 2^23 (exact in float) */
  bool idx32;                /* index arithmetic in int32 (a bit of the key): ksema_launch
                                sets it when the extents allow (oqk_idx32_launch), ksema_key
                                clears it for arrays of 2^31 elements or more */
  const int64_t *ldims;      /* the launch's dimensions (ksema_launch), when its blocks tile
                                them exactly (cnt * blk == dims: no thread outside), else NULL */
  unsigned one_block;         /* dimensions d (bit d) that one block covers exactly (dims ==
                                blk: ksema_launch; in the key with cblk): n<d> and c<d> of
                                the code are then constants (seed 000's 3 channels) */
  unsigned at_launch;        /* arguments (bit i: parameter, then capture, i < 32) that are
                                arrays of exactly those dimensions (ksema_key; in the key):
                                x[pos] is inside them for every thread */
  unsigned aliased;          /* array arguments (bit i as at_launch) whose array another
                                argument also is (ksema_key; in the key): em_own_update */
  bool cplx_whole;           /* a compound assignment other than += / -= on a complex element:
                                every atomic update of complex elements is one of the whole
                                element (emit_index.c, store_elem), += and -= included, so
                                that none races with an atomic of a part alone */
  const char *divergent;     /* a block barrier under a condition the threads may disagree
                                on (why, at divergent_loc, the statement divergent_at): the
                                CPU runs the block's threads as fibers (emit_c), CUDA only
                                the shapes cuda_divergent_ok accepts */
  SrcLoc divergent_loc;
  const Node *divergent_at;
  bool no_cmem;              /* emit_cuda: leave 'hwconst arrays in global memory (too large) */
  bool fast;                 /* emit_cuda: a first build (rt_gpu.c's tiers), quick to compile and
                                computing the same: no unrolled steps, and no persistent blocks
                                where they only schedule (no shadows, no counts) */
  const Op *out_op;          /* per kernel output: its operator (FuncInfo.out_op) */
  KTransforms tr;            /* the emitter's transforms, which the launcher copies whole */
  char xforms[160];          /* the transforms applied, for --profile ("privatize(y), tiling") */
  bool tiling_ignored;       /* the kernel has blocks, shared memory or barriers: the
                                attributes are ignored (said with --verbose) */

  KFacts facts;              /* what it does with its arrays (facts.c, kfacts_compute) */
  const char *name;          /* kernel name for messages */
  /* failure */
  char reason[256];
  bool type_error;           /* the failure is an error of the program, whatever the values of
                                the declared types (ksema_type_error): `oq check` reports it */
  SrcLoc error_loc;          /* where (the message is reason's) */
  char error_msg[200];
  jmp_buf fail;
  Arena *arena;
} KSpec;

/* kernel_sema.c */
/* Gathers the captured variables a launch reads (in a fixed order) and builds the key that
   identifies the specialization: equal keys give equal generated code. */
void ksema_gather(KSpec *S, Value *args);
char *ksema_key(KSpec *S, Value *args);     /* malloc'ed */
/* The array arguments (bit i: parameter, then capture, i < 32) whose array another argument
   also is: KSpec.aliased, which ksema_key sets and puts in the key. */
unsigned ksema_aliased(KSpec *S, Value *args);
/* The launch's facts that ksema_key completes: idx32 (the extents allow it and OQ_DEV_NO_IDX32 is
   not set) and ldims. Called before ksema_key; dims must outlive S. */
void ksema_launch(KSpec *S, const int64_t *dims, const int64_t *blk, const int64_t *cnt);
/* The dynamic shared memory that a block of blk (D dimensions) takes for the nshared
   shared() calls (KFacts.nshared) of z, each rounded to 16 bytes as emit_cuda's oq_shared_take takes them;
   OQ_SHARED_MAX when a size is unknown (!sized) or bad. */
size_t ksema_shared_bytes(const struct KShSize *z, int nshared, bool sized, int D, const int64_t *blk);
/* Specializes the kernel. Returns false with S->reason set when something is not
   supported by compiled code (the launch then runs in the interpreter). */
bool ksema_run(KSpec *S, Value *args);
void ksema_reason(KSpec *S, SrcLoc loc, const char *fmt, va_list ap);   /* then longjmp(S->fail) */
/* Records why the specialization failed (S->reason, with loc's line) and longjmps to S->fail. */
_Noreturn void ksema_fail(KSpec *S, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
NodeInfo *ksema_info(FSpec *f, const Node *n);   /* NULL when the node was not typed */
bool ksema_device_builtin(const char *name);
/* A failure that is an error of the program (a run-time error in the interpreter too, for
   any values of the declared types): as ksema_fail, and S->type_error. */
_Noreturn void ksema_type_error(KSpec *S, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* kernel_check.c: `oq check` specializes kernel k, when its parameters all have types, on
   those types, without running the program, and reports a type error (file:line:col:
   error: with the caret; diag_error). Returns the number reported (0 or 1). */
int ksema_check_kernel(Callable *k);     /* compiled code implements this built-in */
bool ktype_eq(KType a, KType b);
const char *ktype_str(KType t, char *buf, size_t n);
void kspec_free(KSpec *S);
/* The type of launch argument i: a kernel parameter, then (i >= nparams) a capture. */
KType kspec_arg_type(const KSpec *S, int i);

/* Built-in functions that compiled code implements (NodeInfo.builtin). */
enum {
  KB_NONE, KB_ABS, KB_SQRT, KB_EXP, KB_LOG, KB_LOG2, KB_LOG10, KB_SIN, KB_COS, KB_TAN,
  KB_ASIN, KB_ACOS, KB_ATAN, KB_SINH, KB_COSH, KB_TANH, KB_FLOOR, KB_CEIL, KB_ROUND,
  KB_FRAC, KB_SIGN, KB_FLOAT, KB_INT, KB_REAL, KB_IMAG, KB_CONJ, KB_ANGLE, KB_ATAN2,
  KB_COMPLEX, KB_MOD, KB_AND, KB_OR, KB_XOR, KB_NOT, KB_SHL, KB_SHR, KB_MIN, KB_MAX,
  KB_CLAMP, KB_SUM, KB_PROD, KB_MEAN, KB_NUMEL, KB_SIZE, KB_NDIMS, KB_POS2IND,
  KB_IND2POS, KB_ISNAN, KB_ISINF, KB_ISFINITE, KB_SHARED, KB_ASSERT, KB_SYNC,
  KB_MEMFENCE, KB_PREVPOW2, KB_NEXTPOW2, KB_ZEROS, KB_POW, KB_DOTPROD, KB_COUNT
};

/* kernel_tiling.c */
void ktiling_check(const Node *attr);   /* resolution: an error for bad kernel_tiling values */
/* The kernel_tiling attributes at the top of k's body for CUDA (gpu) or C; false: none. */
bool ktiling_of(const Func *k, bool gpu, KTiling *t);
bool ktiling_box(const KTiling *t);     /* a local box of more than one position */
bool ktiling_streaming(KTiling *t, bool streaming, char *note, size_t n);   /* a grid as auto */
const char *ktiling_str(const KTiling *t, char *buf, size_t n);
/* The C back end's tile: grid times box per dimension (a worker runs whole tiles, in
   row-major order); false when that is one position (no attribute, or global auto). */
bool ktiling_cpu_tile(const KTiling *t, int64_t tile[3]);


#endif
