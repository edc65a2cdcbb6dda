/* callable.h: function values (value.h's V_FUNC) and the frames closures keep alive. The
   interpreter makes and calls them; the kernel compiler reads a launch's function values
   and the frames its captured names live in. */
#ifndef OQ_CALLABLE_H
#define OQ_CALLABLE_H
#include "runtime/value.h"

/* Links of a doubly linked ring (the interpreter's frames that outlived their call). */
typedef struct FrameLink { struct FrameLink *prev, *next; } FrameLink;

/* A call frame: the slots of one activation of a function. Frames are reference-counted
   because closures created in them keep them alive. */
typedef struct Frame {
  int refcount;
  struct Frame *parent;     /* lexical parent: the frame the closure was created in */
  FrameLink escaped;        /* in the ring of frames that outlived their call (next != NULL):
                               the interpreter's cycle collector starts there */
  int nslots;
  Value slots[];
} Frame;

typedef struct Interp Interp;
typedef Value (*InterpBuiltinFn)(Interp *I, Node *call, int argc, Value *argv);

typedef enum CallableKind { CALL_USER, CALL_BUILTIN, CALL_IBUILTIN } CallableKind;

struct Callable {
  int refcount;             /* first field: value.h's val_retain/val_release count it */
  CallableKind kind;
  Func *func;               /* CALL_USER */
  Frame *env;               /* CALL_USER: captured frame (NULL when it captures nothing) */
  Value *generic_args;      /* f[2]: values bound to the generic parameters */
  int ngeneric_args;
  const Builtin *builtin;   /* CALL_BUILTIN: pure runtime function */
  InterpBuiltinFn ibuiltin; /* CALL_IBUILTIN: needs the interpreter (print, parallel_do) */
  const char *name;
};

/* A named global: built-in function, constant or type (a resolved name's Node.aux points
   to it). */
typedef struct Global {
  const char *name;
  Value value;
} Global;

/* What messages call c: its name, or "(lambda)". */
const char *callable_name(const Callable *c);

#endif
