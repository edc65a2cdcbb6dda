/* ast.h: the syntax tree that parse.c builds and every later stage reads.
   One Node struct for all kinds (as in chibicc); the comment on each kind says which fields
   it uses. Lists are NodeList. All memory comes from the program's Arena. */
#ifndef OQ_AST_H
#define OQ_AST_H
#include <stdbool.h>
#include <stdint.h>
#include "base/arena.h"
#include "base/diag.h"

typedef struct Node Node;
typedef struct Type Type;
typedef struct Func Func;

typedef struct NodeList { Node **items; int n; } NodeList;

typedef enum Op {
  OP_NONE,
  /* binary arithmetic */
  OP_ADD, OP_SUB, OP_MUL /* '*' matrix product */, OP_DIV, OP_POW /* '^' */,
  OP_EMUL /* .* */, OP_EDIV /* ./ */, OP_EPOW /* .^ */, OP_MOD /* infix 'mod' */,
  /* comparison and logic */
  OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_AND /* && */, OP_OR /* || */,
  /* unary */
  OP_NEG, OP_PLUS, OP_NOT /* '!' and unary '~' */,
  /* only in compound assignments: &= |= ~= ^^= __= */
  OP_BAND, OP_BOR, OP_BXOR, OP_MAX, OP_MIN,
  OP_COUNT
} Op;

const char *op_name(Op op);   /* "+", ".*", "^^", ... for messages and dumps */

/* Type modifiers: the 'name suffixes of a type; they stack. */
enum {
  TM_UNCHECKED = 1 << 0, TM_CHECKED = 1 << 1, TM_SAFE = 1 << 2, TM_CIRCULAR = 1 << 3,
  TM_MIRROR = 1 << 4, TM_CLAMPED = 1 << 5, TM_CONST = 1 << 6, TM_NOCOPY = 1 << 7,
  TM_HWCONST = 1 << 8 /* 'hwconst and 'hw_const */, TM_HWTEX_CONST = 1 << 9,
  TM_HWTEX_NEAREST = 1 << 10, TM_HWTEX_LINEAR = 1 << 11, TM_SHARED = 1 << 12,
  TM_HALF = 1 << 13, TM_SINGLE = 1 << 14, TM_DOUBLE = 1 << 15, TM_STATIC = 1 << 16,
};
#define TM_BOUNDARY (TM_UNCHECKED | TM_CHECKED | TM_SAFE | TM_CIRCULAR | TM_MIRROR | TM_CLAMPED)

typedef enum TypeKind {
  TY_UNKNOWN,     /* no type written, '??', or only modifiers ("y : 'unchecked") */
  TY_SCALAR, TY_INT, TY_CSCALAR, TY_BOOL, TY_STRING,
  TY_INT8, TY_UINT8, TY_INT16, TY_UINT16, TY_INT32, TY_UINT32, TY_INT64,
  TY_ARRAY,       /* vec mat cube cube{N} ivecN vecN cvec cmat ccube, vec[T], cube[T]... */
  TY_FUNC,        /* [__device__ (scalar, scalar) -> scalar], [(int) -> ??] */
  TY_THREAD_BLOCK,
  TY_CELL,        /* cell arrays: `vec[??]` of mixed values; parsed, little else */
  TY_NAMED,       /* a name that is not built in: a generic parameter T or a `type` name */
} TypeKind;

typedef enum FuncKind { FK_HOST, FK_KERNEL, FK_DEVICE, FK_MACRO } FuncKind;

struct Type {
  TypeKind kind;
  const char *name;   /* as spelled: "vec", "ivec3", "cube", "T", "accumulator" */
  int rank;           /* TY_ARRAY: 1 vec, 2 mat, 3 cube, N for cube{N}; 0 not known */
  int fixed_len;      /* TY_ARRAY: ivec3/vec3 -> 3 (rank 1); 0 = any length */
  Type *elem;         /* TY_ARRAY: element type; TY_SCALAR for vec/mat/cube, TY_INT for ivecN,
                         TY_CSCALAR for cvec.. */
  unsigned mods;      /* TM_* bits */
  /* TY_FUNC */
  FuncKind fkind;     /* FK_HOST (plain), FK_DEVICE, FK_KERNEL */
  Type **params; int nparams;
  Type **results; int nresults;
  /* TY_NAMED class definitions (type p : mutable class ... end): the type the definition
     makes has class_kind CLASS_IMMUTABLE or CLASS_MUTABLE and its fields (their names,
     declared types and default values, in order); a name used as a type (`p : point`)
     is a plain TY_NAMED (class_kind CLASS_NONE) until the value is checked at run time. */
  int class_kind;
  struct Param *fields; int nfields;
  bool pointer;       /* `^point`: a pointer field (an object reference or nullptr) */
  SrcLoc loc;
};

enum { CLASS_NONE, CLASS_IMMUTABLE, CLASS_MUTABLE };

typedef struct Param Param;
struct Param {
  const char *name;
  Type *type;         /* never NULL: TY_UNKNOWN when not written */
  Node *defval;       /* default value expression, or NULL */
  SrcLoc loc;
};

struct Func {
  const char *name;   /* NULL for a lambda */
  FuncKind kind;
  Param *params; int nparams;
  Param *outs; int nouts;         /* function [a, b] = f(...): a, b; lambdas: 0 */
  Param *generics; int ngenerics; /* function y = f[T, N : int](...) */
  NodeList body;      /* statements; a lambda's value is the value of its last N_EXPR */
  bool is_lambda;
  bool concealed;     /* trailing `concealed` (and other trailing words) */
  SrcLoc loc;
  void *sema;         /* filled by later stages (resolution, slots) */
  /* The transforms applied to this kernel ("parallel-loop", "reduction(s)", ...), in the
     order applied, for `oq run --profile`: append with func_note_transform. */
  const char *transforms[8]; int ntransforms;
};

typedef struct AttrArg {
  const char *key;    /* `key=value`, or a bare word (value NULL): {!parallel for} -> "for" */
  Node *value;
  SrcLoc loc;
} AttrArg;

typedef struct MatchCase {
  Node *pattern;      /* NULL for `_` */
  NodeList body;
  SrcLoc loc;
} MatchCase;

typedef enum NodeKind {
  /* ---- expressions ---- */
  N_INT,        /* ival */
  N_REAL,       /* rval; `1e37`, `0.`, `.5` */
  N_IMAG,       /* rval: the imaginary literal rval*i (`0i`, `2.5j`) */
  N_STRING,     /* str (escapes decoded) */
  N_IDENT,      /* name; also `$target`-style names that start with '$' */
  N_COLON,      /* a lone ':' as an index (whole dimension) */
  N_UNARY,      /* op a */
  N_BINARY,     /* a op b */
  N_RANGE,      /* a .. c, or a .. b .. c (b is the step, else NULL) */
  N_COND,       /* a ? b : c */
  N_CALL,       /* a(list): a function call, or a type constructor `vec[int](4)`; params/
                   nparams: the types written after arguments (`f(x, n : int)`), one Param
                   per argument up to the last typed one, type NULL where none */
  N_INDEX,      /* a[list]: indexing (also generic instantiation f[2], vec[int]) */
  N_FIELD,      /* a.name */
  N_MATRIX,     /* [list]: elements; [[1,2],[3,4]] has N_MATRIX elements. Semicolons
                   inside brackets separate rows: [1,2;3,4] gives the same as [[1,2],[3,4]] */
  N_LAMBDA,     /* func (is_lambda), `x -> e`, `(a:int, b) -> (s1; s2)`, `__kernel__ (...) -> s` */
  N_EXCHANGE,   /* a <- b: atomic exchange; a <- (e, n): b is an N_TUPLE of 2 (compare-exchange) */
  N_TUPLE,      /* (e1, e2, ...) with 2 or more elements: list */
  N_TYPE,       /* type: a type in expression position, e.g. argument of typename() */
  N_NAMEDARG,   /* name := a: a named argument of a call, `point(x:=1, y:=2)` (class
                   constructors) */
  /* ---- statements ---- */
  N_EXPR,       /* a: an expression statement; `print a, b` is N_EXPR of an N_CALL to
                   `print`; a bare `syncthreads` is N_EXPR of N_IDENT */
  N_ASSIGN,     /* list = targets (1 for `x = e`, several for `[a, b] = e`); op = OP_NONE for
                   '=', else the compound operator (OP_ADD for +=, OP_MAX for ^^=, ...);
                   b = value (NULL for a bare declaration `x : T`); type = declared type of
                   the single target (`x : vec'unchecked = ...`), else NULL. Also an
                   expression: `b = (a += 1)` has the new value of a (seed 001) */
  N_IF,         /* a = condition, list = then-body, list2 = else-body (an elseif is an N_IF
                   alone in list2) */
  N_FOR,        /* name = loop variable, a = the range/iterated expression (usually N_RANGE),
                   list = body */
  N_WHILE,      /* a = condition, list = body */
  N_REPEAT,     /* list = body, a = `until` condition */
  N_MATCH,      /* a = subject, cases/ncases */
  N_BREAK, N_CONTINUE,
  N_RETURN,     /* a = value or NULL */
  N_FUNCDEF,    /* func: a named function definition (may nest) */
  N_MACRO,      /* func (kind FK_MACRO): macro [outs] = name(params) ... endmacro */
  N_REDUCTION,  /* func holds the parameters; a = pattern expression, b = replacement:
                   reduction (x : cube) -> sum(x) = r_sum(x) */
  N_TYPEDEF,    /* name, type; class fields (type p : mutable class ... end) in params,
                   str = "class" or "mutable class" (NULL for `type t : T`), type = TY_NAMED p */
  N_ATTR,       /* code attribute {!name args} or !name args: name, attrs/nattrs */
  N_IMPORT,     /* str = file name */
  N_BLOCK,      /* list: a statement sequence (lambda bodies in parentheses) */
  N_PARLOOP,    /* a host loop nest made a kernel (transform_parloop.c): a = the original
                   N_FOR (run when a run-time guard fails), list = the nest's N_FORs, outer
                   first, func = the kernel (parameters pos, then start and step of each
                   loop), list2 = the host variables its outputs (reductions) go to
                   (each by its output's operator, FuncInfo.out_op), b = N_LAMBDA: the
                   same kernel with int outputs (NULL without reductions), its list:
                   for each reduction an N_BLOCK of the values added to it (copies;
                   slot -2: a variable of the body, -3-d: loop variable d), from which
                   the launch guesses which outputs are ints as in the serial loop (what
                   it learns is in the interpreter's RunNote); c = N_BLOCK: list =
                   the arrays the loop writes,
                   list2 = the other arrays it uses (checked for aliasing before launch),
                   a = N_BLOCK: list = the variables it reads as a whole or in slices
                   (an array there means array arithmetic in each iteration: the loop
                   stays serial) */
  N_ARRAYEXPR,  /* a host statement or reduction call that may run as one kernel
                   (interp/transform_arrayexpr.c): a = the original node, aux = its
                   ArrayExpr (interp/arrayexpr.h) */
  N_PROGRAM,    /* list: top-level statements of one file; str = path; ival (of the file
                   that was run): 1 when one of its imports failed (not found, or syntax
                   errors), so that a name may be unknown because of it */
  N_KIND_COUNT
} NodeKind;

struct Node {
  NodeKind kind;
  SrcLoc loc;
  Op op;
  Node *a, *b, *c;
  NodeList list, list2;
  const char *name;
  const char *str;
  int64_t ival;
  double rval;
  Type *type;
  Func *func;
  AttrArg *attrs; int nattrs;
  MatchCase *cases; int ncases;
  Param *params; int nparams;      /* N_TYPEDEF class fields */
  /* Filled by name resolution (interp, sema). */
  int slot, depth;
  void *aux;
};

const char *node_kind_name(NodeKind k);

/* The children of n in source order: a, b, c, list, list2, then each match case's pattern
   and body; NULL children are skipped. One loop replaces the walk's tail of every analysis:
     for (AstKids it = ast_kids(n); it.node; ast_next(&it)) visit(it.node);  */
typedef struct AstKids { Node *node; const Node *parent; int part, i, j; } AstKids;
AstKids ast_kids(const Node *n);
void ast_next(AstKids *k);
Node *ast_clone(Arena *arena, const Node *n);   /* deep copy of a statement or expression */
Node *ast_node(Arena *arena, NodeKind kind, SrcLoc loc);   /* a new node, its other fields zero */
Node *ast_ident(Arena *arena, const char *name, SrcLoc loc);   /* a new N_IDENT (unresolved) */
void func_note_transform(Func *f, const char *name);
/* The one name of a function in messages, --verbose and --profile: its own, "(lambda)" for
   a lambda (kernel lambdas too). */
const char *func_shown_name(const Func *f);
void ast_dump(const Node *n, int indent);   /* to stdout; `oq parse --dump FILE` */

#endif
