/* types.c: the built-in type names (types.h). */
#include "front/types.h"
#include <string.h>

static const BuiltinType builtin_types[] = {
  {"scalar", TY_SCALAR, 0, 0, 0}, {"int", TY_INT, 0, 0, 0}, {"cscalar", TY_CSCALAR, 0, 0, 0},
  {"bool", TY_BOOL, 0, 0, 0}, {"string", TY_STRING, 0, 0, 0}, {"int8", TY_INT8, 0, 0, 0},
  {"uint8", TY_UINT8, 0, 0, 0}, {"int16", TY_INT16, 0, 0, 0}, {"uint16", TY_UINT16, 0, 0, 0},
  {"int32", TY_INT32, 0, 0, 0}, {"uint32", TY_UINT32, 0, 0, 0}, {"int64", TY_INT64, 0, 0, 0},
  {"vec", TY_ARRAY, 1, 0, TY_SCALAR}, {"mat", TY_ARRAY, 2, 0, TY_SCALAR},
  {"cube", TY_ARRAY, 3, 0, TY_SCALAR}, {"cvec", TY_ARRAY, 1, 0, TY_CSCALAR},
  {"cmat", TY_ARRAY, 2, 0, TY_CSCALAR}, {"ccube", TY_ARRAY, 3, 0, TY_CSCALAR},
  {"ivec", TY_ARRAY, 1, 0, TY_INT}, {"ivec2", TY_ARRAY, 1, 2, TY_INT},
  {"ivec3", TY_ARRAY, 1, 3, TY_INT}, {"ivec4", TY_ARRAY, 1, 4, TY_INT},
  {"vec2", TY_ARRAY, 1, 2, TY_SCALAR}, {"vec3", TY_ARRAY, 1, 3, TY_SCALAR},
  {"vec4", TY_ARRAY, 1, 4, TY_SCALAR}, {"mat2x2", TY_ARRAY, 2, 0, TY_SCALAR},
  {"mat3x3", TY_ARRAY, 2, 0, TY_SCALAR}, {"mat4x4", TY_ARRAY, 2, 0, TY_SCALAR},
  {"thread_block", TY_THREAD_BLOCK, 0, 0, 0},
};

const char *builtin_type_name(size_t i) {
  return i < sizeof builtin_types / sizeof *builtin_types ? builtin_types[i].name : NULL;
}

const BuiltinType *builtin_type(const char *name) {
  for (size_t i = 0; i < sizeof builtin_types / sizeof *builtin_types; i++)
    if (!strcmp(name, builtin_types[i].name)) return &builtin_types[i];
  return NULL;
}
