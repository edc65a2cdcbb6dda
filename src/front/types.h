/* types.h: the built-in type names (`scalar`, `int`, `vec`, `ivec3`, `cube` ...), the one
   list that the parser (parse.c: type syntax, C-style declarations `int n = 5`) and the
   interpreter (interp_builtins.c: type names as values, `vec[int](4)`) both read. */
#ifndef OQ_TYPES_H
#define OQ_TYPES_H
#include "front/ast.h"

typedef struct BuiltinType {
  const char *name;
  TypeKind kind;
  int rank, fixed_len;   /* TY_ARRAY: as Type.rank and Type.fixed_len */
  TypeKind elem;         /* TY_ARRAY: the element type; else TY_UNKNOWN */
} BuiltinType;

/* The built-in type called name, or NULL. */
const BuiltinType *builtin_type(const char *name);
/* The i-th built-in type's name; NULL past the last ("did you mean" lists them). */
const char *builtin_type_name(size_t i);

#endif
