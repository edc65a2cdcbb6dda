/* facts.h: what a kernel does with its variables, found by one walker of variable uses.

   uses_var answers "does this code mention / may it write variable v?" for every analysis
   that asks it: the parallel-loop transform on host code before any specialization exists
   (variables by name), the emitters on specialized code (variables by slot). kfacts_compute
   runs it once per specialization (ksema_run) and records in KSpec.facts what the emitters
   and the CUDA launcher read about the kernel's arrays and shared memory. */
#ifndef OQ_FACTS_H
#define OQ_FACTS_H
#include "kernel/kernel_ir.h"

/* A variable a walk looks for: by name, anywhere (host code, or a name as nested functions
   see it), or, when name is NULL, slot `slot` of the walked function's own frame (an N_IDENT
   of depth 0). A loop over it (N_FOR) is a use of every kind but USE_STORE. */
typedef struct VarRef { const char *name; int slot; } VarRef;

static inline VarRef var_named(const char *name) { return (VarRef){name, -1}; }
static inline VarRef var_slot(int slot) { return (VarRef){NULL, slot}; }

typedef enum UseKind {
  USE_ANY,      /* any mention */
  USE_WRITE,    /* any use that may change the array: every use but reading its elements
                   (the base of an index that is read) or passing it to a built-in function;
                   stores, exchanges, aliasing (q = p) and passing it to a user function all
                   count (a conservative 'const analysis) */
  USE_STORE,    /* a store into the variable itself: the base of an assignment's or
                   exchange's target (x of x, x[i], x.f) */
  USE_ASSIGN,   /* a store (USE_STORE) or a loop over the variable */
} UseKind;

/* What a walk does at a nested function definition (N_LAMBDA, N_FUNCDEF). */
typedef enum NestedFuncs {
  NESTED_SKIP,  /* nothing there counts */
  NESTED_WALK,  /* its parameter defaults and body are walked (sensible by name only) */
  NESTED_USE,   /* it counts as a use */
} NestedFuncs;

typedef struct UseWalk {
  VarRef var;
  UseKind kind;
  NestedFuncs nested;
  const FSpec *typed;   /* USE_WRITE: built-in calls are those the specialization typed as
                           one (shared() not counted), or, NULL, the callees that name
                           resolution bound to a built-in */
} UseWalk;

/* Whether n (a statement or expression; NULL: no) uses w->var as w asks. */
bool uses_var(const Node *n, const UseWalk *w);
bool list_uses_var(const NodeList *l, const UseWalk *w);
bool func_uses_var(const Func *f, const UseWalk *w);     /* its parameter defaults and body */
int func_count_uses(const Func *f, const UseWalk *w);    /* how many uses */
int count_uses(const Node *n, const UseWalk *w);         /* ... in n */
/* Any mention of v in n, nested functions aside. */
bool mentions_var(const Node *n, VarRef v);

/* Fills S->facts from the specialized kernel (after its types are known); numbers its
   shared() calls (NodeInfo.site). Fails (ksema_fail: S->reason, longjmp to S->fail) on a shared()
   call inside a loop or condition. */
void kfacts_compute(KSpec *S);
/* Whether the kernel's own body stores into the array that base (an N_IDENT of the
   kernel's body) names: KFacts.stored or stored_cap. */
bool kfacts_stored(const KSpec *S, const Node *base);
void kfacts_free(KFacts *k);

#endif
