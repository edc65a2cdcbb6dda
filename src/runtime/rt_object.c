/* rt_object.c: objects (instances of `type p : [mutable] class` and dynamic `object()`s)
   and cell arrays (`cell(n)`, `vec[vec](n)`, `vec[point](n)`): creation, fields, elements
   and their text. Both are reference values, shared by assignment like arrays
   (docs/language.md, "Classes and cell arrays"). */
#include "runtime/rt_internal.h"
#include <stdlib.h>
#include <string.h>

static void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p) rt_error((SrcLoc){0}, "out of memory");
  return p;
}

static const char *class_name(const Object *o) {
  return o->cls && o->cls->name ? o->cls->name : "object";
}

/* ---- objects ---- */

Object *obj_new(const Type *cls) {
  Object *o = xcalloc(1, sizeof *o);
  o->refcount = 1;
  o->cls = cls;
  o->n = o->cap = cls->nfields;
  o->names = xcalloc((size_t)o->n, sizeof *o->names);
  o->vals = xcalloc((size_t)o->n, sizeof *o->vals);
  for (int i = 0; i < o->n; i++) {
    o->names[i] = cls->fields[i].name;
    o->vals[i] = v_none();
  }
  return o;
}

Object *obj_new_dynamic(void) {
  Object *o = xcalloc(1, sizeof *o);
  o->refcount = 1;
  return o;
}

int obj_field_index(const Object *o, const char *name) {
  for (int i = 0; i < o->n; i++)
    if (!strcmp(o->names[i], name)) return i;
  return -1;
}

static Object *object_of(Value o, const char *name, SrcLoc loc) {
  if (o.kind == V_NULL) rt_error(loc, "field '%s' of nullptr", name);
  if (o.kind != V_OBJECT) rt_error(loc, "a %s has no field '%s'", rt_kind_name(o), name);
  return o.obj;
}

Value obj_get(Value ov, const char *name, SrcLoc loc) {
  Object *o = object_of(ov, name, loc);
  int i = obj_field_index(o, name);
  if (i < 0) rt_error(loc, "%s '%s' has no field '%s'", o->cls ? "class" : "this", class_name(o), name);
  val_retain(o->vals[i]);
  return o->vals[i];
}

static Value convert_field(Object *o, const Type *t, const char *name, Value v, SrcLoc loc) {
  char what[160];
  snprintf(what, sizeof what, "field '%s' of '%s'", name, class_name(o));
  Value c = rt_convert(v, t, what, loc);
  val_release(v);
  return c;
}

void obj_init_field(Object *o, int i, Value v, SrcLoc loc) {
  v = convert_field(o, o->cls->fields[i].type, o->names[i], v, loc);
  val_release(o->vals[i]);
  o->vals[i] = v;
}

void obj_set(Value ov, const char *name, Value v, const Type *decl, SrcLoc loc) {
  Object *o = object_of(ov, name, loc);
  int i = obj_field_index(o, name);
  if (o->cls && o->cls->class_kind != CLASS_MUTABLE)
    rt_error(loc, "cannot assign field '%s': class '%s' is immutable (declare it "
             "'type %s : mutable class')", name, class_name(o), class_name(o));
  if (i < 0 && o->cls) rt_error(loc, "class '%s' has no field '%s'", class_name(o), name);
  if (decl) v = convert_field(o, decl, name, v, loc);
  if (o->cls) v = convert_field(o, o->cls->fields[i].type, name, v, loc);
  if (i < 0) {   /* a dynamic object gets a new field */
    if (o->n == o->cap) {
      o->cap = o->cap ? 2 * o->cap : 4;
      o->names = realloc(o->names, (size_t)o->cap * sizeof *o->names);
      o->vals = realloc(o->vals, (size_t)o->cap * sizeof *o->vals);
      if (!o->names || !o->vals) rt_error(loc, "out of memory");
    }
    i = o->n++;
    size_t len = strlen(name) + 1;
    char *copy = xcalloc(len, 1);
    memcpy(copy, name, len);
    o->names[i] = copy;
    o->vals[i] = v_none();
  }
  val_release(o->vals[i]);
  o->vals[i] = v;
}

bool type_is_cell_elem(const Type *t) {
  if (!t) return false;
  switch (t->kind) {
  case TY_ARRAY: case TY_CELL: case TY_STRING: case TY_FUNC: return true;
  case TY_NAMED: return t->class_kind != CLASS_NONE || t->pointer;
  case TY_UNKNOWN: return !t->mods;
  default: return false;
  }
}

Value obj_empty_value(const Type *t, SrcLoc loc) {
  if (!t) return v_null();
  switch (t->kind) {
  case TY_SCALAR: return v_scalar(0);
  case TY_CSCALAR: return v_cscalar(0, 0);
  case TY_BOOL: return v_bool(false);
  case TY_INT: case TY_INT8: case TY_UINT8: case TY_INT16: case TY_UINT16: case TY_INT32:
  case TY_UINT32: case TY_INT64: return v_int(0);
  case TY_STRING: return v_string("", 0);
  case TY_CELL: return v_cell(cell_new(1, (int64_t[]){0}, t->elem, loc));
  case TY_ARRAY: {
    int64_t dims[OQ_MAX_RANK] = {0};
    int rank = t->rank > 0 ? t->rank : 1;
    if (t->fixed_len) dims[0] = t->fixed_len;
    if (type_is_cell_elem(t->elem)) return v_cell(cell_new(rank, dims, t->elem, loc));
    return v_array(arr_new(el_from_type(t->elem, loc), rank, dims));
  }
  default: return v_null();
  }
}

/* ---- cell arrays ---- */

Cell *cell_new(int rank, const int64_t *dims, const Type *elem, SrcLoc loc) {
  Cell *c = xcalloc(1, sizeof *c);
  c->refcount = 1;
  c->rank = rank;
  c->numel = 1;
  for (int d = 0; d < rank; d++) {
    if (dims[d] < 0) rt_error(loc, "negative dimension %lld", (long long)dims[d]);
    c->dims[d] = dims[d];
    if (dims[d] && c->numel > ((int64_t)1 << 40) / dims[d]) rt_error(loc, "cell array too large");
    c->numel *= dims[d];
  }
  c->elem = elem && elem->kind != TY_UNKNOWN ? elem : NULL;
  c->v = xcalloc((size_t)c->numel, sizeof *c->v);
  /* elements start empty: [] (an empty vec) or the element type's empty value */
  for (int64_t i = 0; i < c->numel; i++)
    c->v[i] = c->elem ? obj_empty_value(c->elem, loc) : v_array(arr_vec(el_scalar(), 0));
  return c;
}

static int64_t cell_offset(const Cell *c, int nidx, const Value *idx, SrcLoc loc) {
  if (nidx < 1) rt_error(loc, "a cell array takes at least one index");
  int64_t off = 0;
  for (int k = 0; k < nidx; k++) {
    if (!v_is_real(idx[k]))
      rt_error(loc, "a cell array is indexed by numbers, not by a %s", rt_kind_name(idx[k]));
    int64_t i = rt_to_int(idx[k], loc);
    /* the last index runs over the remaining dimensions (row-major), as for arrays */
    int64_t extent = 1;
    if (k < nidx - 1) extent = k < c->rank ? c->dims[k] : 1;
    else for (int d = k; d < c->rank; d++) extent *= c->dims[d];
    if (i < 0 || i >= extent) {
      char buf[96];
      rt_error(loc, "index %lld is out of bounds for dimension %d of a cell array of size %s",
               (long long)i, k, rt_dims_str(buf, sizeof buf, c->rank, c->dims));
    }
    off = off * extent + i;
  }
  return off;
}

static Cell *cell_of(Value c, SrcLoc loc) {
  if (c.kind != V_CELL) rt_error(loc, "a %s is not a cell array", rt_kind_name(c));
  return c.cell;
}

Value cell_get(Value cv, int nidx, const Value *idx, SrcLoc loc) {
  Cell *c = cell_of(cv, loc);
  Value v = c->v[cell_offset(c, nidx, idx, loc)];
  val_retain(v);
  return v;
}

void cell_set(Value cv, int nidx, const Value *idx, Value v, SrcLoc loc) {
  Cell *c = cell_of(cv, loc);
  int64_t i = cell_offset(c, nidx, idx, loc);
  if (c->elem) {
    Value conv = rt_convert(v, c->elem, "an element of the cell array", loc);
    val_release(v);
    v = conv;
  }
  val_release(c->v[i]);
  c->v[i] = v;
}

/* ---- freeing and text ---- */

void obj_free_(Object *o) {
  for (int i = 0; i < o->n; i++) {
    val_release(o->vals[i]);
    if (!o->cls) free((char *)o->names[i]);
  }
  free(o->names);
  free(o->vals);
  free(o);
}

void cell_free_(Cell *c) {
  for (int64_t i = 0; i < c->numel; i++) val_release(c->v[i]);
  free(c->v);
  free(c);
}

/* Objects print as their construction would be written, point(x:=1, y:=2); cells as
   {e0, e1, ...}. Past 8 levels of nesting (a cycle of pointers) the rest is "...". */
void sb_format_composite(StrBuf *b, Value v, int depth) {
  if (depth > 8) { sb_puts(b, "..."); return; }
  if (v.kind == V_OBJECT) {
    sb_printf(b, "%s(", class_name(v.obj));
    for (int i = 0; i < v.obj->n; i++) {
      sb_printf(b, "%s%s:=", i ? ", " : "", v.obj->names[i]);
      sb_format_composite(b, v.obj->vals[i], depth + 1);
    }
    sb_putc(b, ')');
  } else if (v.kind == V_CELL) {
    sb_putc(b, '{');
    for (int64_t i = 0; i < v.cell->numel; i++) {
      if (i) sb_puts(b, ", ");
      sb_format_composite(b, v.cell->v[i], depth + 1);
    }
    sb_putc(b, '}');
  } else if (v.kind == V_STRING && depth > 0) {
    sb_printf(b, "\"%.*s\"", v.str->len, v.str->s);
  } else {
    sb_format_value(b, v);
  }
}
