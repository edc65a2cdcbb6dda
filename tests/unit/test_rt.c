/* test_rt.c: unit tests of the runtime library (src/rt_*.c) against independent
   references: plain loops, closed forms and hand-computed tables. Error cases run in a
   forked child; the child must exit with status 1 and print the expected message. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "runtime/value.h"
#include "runtime/rt_cache.h"
#include "front/funcinfo.h"
#include "base/oqk_abi.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define __SANITIZE_ADDRESS__ 1   /* clang spells it this way */
#endif
#endif
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
/* Leaks are checked once, before the summary line, not at exit (children exit through
   rt_error with live values). */
const char *__asan_default_options(void) { return "leak_check_at_exit=0"; }
#endif

RtConfig rt_config;
/* value.h releases functions through the interpreter; none are made here. */
void callable_free(Callable *c) { (void)c; }

#include "check.h"
static const SrcLoc L;

/* ---- value pool: everything made with T() is released by gc() ---- */

static Value pool[8192];
static int npool;

static Value T(Value v) {
  if (npool == 8192) { fprintf(stderr, "pool full\n"); exit(2); }
  return pool[npool++] = v;
}

static void gc(void) {
  while (npool) val_release(pool[--npool]);
}

/* ---- builders and readers ---- */

#define DIMS(...) ((const int64_t[]){ __VA_ARGS__ })
#define RANK(...) ((int)(sizeof((int64_t[]){ __VA_ARGS__ }) / sizeof(int64_t)))
#define NVALS(...) ((int64_t)(sizeof((double[]){ __VA_ARGS__ }) / sizeof(double)))
/* VEC(EL_I32, 1, 2, 3) */
#define VEC(e, ...) mk(e, 1, DIMS(NVALS(__VA_ARGS__)), (const double[]){ __VA_ARGS__ })

static Value mk(ElemType e, int rank, const int64_t *dims, const double *vals) {
  Array *a = arr_new(e, rank, dims);
  for (int64_t k = 0; vals && k < a->numel; k++) arr_store(a, k, vals[k]);
  return T(v_array(a));
}

/* An array whose element k is f(k). */
static Value mkf(ElemType e, int rank, const int64_t *dims, double (*f)(int64_t)) {
  Array *a = arr_new(e, rank, dims);
  for (int64_t k = 0; k < a->numel; k++) arr_store(a, k, f(k));
  return T(v_array(a));
}

static Value S(const char *s) { return T(v_string(s, (int)strlen(s))); }
static double at(Value v, int64_t k) { return arr_load(v.arr, k); }

static bool fmt_is(Value v, const char *expect) {
  char *s = rt_format(v);
  bool ok = !strcmp(s, expect);
  if (!ok) printf("  formatted as \"%s\", expected \"%s\"\n", s, expect);
  free(s);
  return ok;
}

static bool dims_are(Value v, int rank, const int64_t *dims) {
  if (v.kind != V_ARRAY || v.arr->rank != rank) return false;
  for (int d = 0; d < rank; d++)
    if (v.arr->dims[d] != dims[d]) return false;
  return true;
}

static float fl(double x) { return (float)x; }

#define RT_TEST_PI 3.14159265358979323846

/* Operator symbols for messages (ast.c's op_name is not linked into this test). */
static const char *opname(Op op) {
  static const char *sym[OP_COUNT] = {
    [OP_ADD] = "+", [OP_SUB] = "-", [OP_MUL] = "*", [OP_DIV] = "/", [OP_POW] = "^",
    [OP_EMUL] = ".*", [OP_EDIV] = "./", [OP_EPOW] = ".^", [OP_MOD] = "mod", [OP_EQ] = "==",
    [OP_NE] = "!=", [OP_LT] = "<", [OP_LE] = "<=", [OP_GT] = ">", [OP_GE] = ">=",
    [OP_AND] = "&&", [OP_OR] = "||", [OP_BAND] = "&", [OP_BOR] = "|", [OP_BXOR] = "~",
    [OP_MAX] = "^^", [OP_MIN] = "__",
  };
  return sym[op] ? sym[op] : "?";
}

/* ---- error cases in a child ---- */

static void check_child(int line, pid_t pid, int fd, const char *expect) {
  char buf[8192];
  size_t n = 0;
  for (ssize_t got; n < sizeof buf - 1 && (got = read(fd, buf + n, sizeof buf - 1 - n)) > 0;)
    n += (size_t)got;
  buf[n] = 0;
  close(fd);
  int status = 0;
  waitpid(pid, &status, 0);
  bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 1 && strstr(buf, expect);
  if (ok) passed++;
  else {
    failed++;
    printf("FAIL %s:%d: expected exit 1 with \"%s\"; got status %d, stderr: %s\n", __FILE__,
           line, expect, WIFEXITED(status) ? WEXITSTATUS(status) : -1, buf);
  }
}

#define EXPECT_ERROR(expect, ...)                                        \
  do {                                                                   \
    int fd_[2];                                                          \
    fflush(stdout);                                                      \
    fflush(stderr);                                                      \
    if (pipe(fd_)) abort();                                              \
    pid_t pid_ = fork();                                                 \
    if (pid_ == 0) {                                                     \
      close(fd_[0]);                                                     \
      dup2(fd_[1], 2);                                                   \
      { __VA_ARGS__; }                                                   \
      _exit(0);                                                          \
    }                                                                    \
    close(fd_[1]);                                                       \
    check_child(__LINE__, pid_, fd_[0], expect);                         \
  } while (0)

/* Runs a builtin by name. */
static Value call(const char *name, int argc, const Value *argv) {
  const Builtin *b = rt_builtin_lookup(name);
  if (!b) {
    printf("no builtin %s\n", name);
    exit(2);
  }
  return T(b->fn(argc, argv, L));
}
#define CALL(name, ...) call(name, (int)(sizeof((Value[]){ __VA_ARGS__ }) / sizeof(Value)), (const Value[]){ __VA_ARGS__ })

static Value B(Op op, Value a, Value b) { return T(rt_binary(op, a, b, L)); }

/* ---- element types, arrays, conversions ---- */

static void test_elements(void) {
  CHECK(el_scalar() == EL_F32 && el_cscalar() == EL_C64, "single precision element types");
  rt_config.double_precision = true;
  CHECK(el_scalar() == EL_F64 && el_cscalar() == EL_C128, "double precision element types");
  rt_config.double_precision = false;
  static const struct { ElemType e; size_t size; const char *name; bool cplx, integer; } tab[] = {
    { EL_F32, 4, "scalar", false, false }, { EL_F64, 8, "scalar'double", false, false },
    { EL_C64, 8, "cscalar", true, false }, { EL_C128, 16, "cscalar'double", true, false },
    { EL_I32, 4, "int", false, true }, { EL_I8, 1, "int8", false, true },
    { EL_U8, 1, "uint8", false, true }, { EL_I16, 2, "int16", false, true },
    { EL_U16, 2, "uint16", false, true }, { EL_U32, 4, "uint32", false, true },
    { EL_I64, 8, "int64", false, true },
  };
  for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
    CHECK(el_size(tab[i].e) == tab[i].size, "el_size(%s)", tab[i].name);
    CHECK(!strcmp(el_name(tab[i].e), tab[i].name), "el_name %s: %s", tab[i].name, el_name(tab[i].e));
    CHECK(el_is_complex(tab[i].e) == tab[i].cplx, "el_is_complex(%s)", tab[i].name);
    CHECK(el_is_integer(tab[i].e) == tab[i].integer, "el_is_integer(%s)", tab[i].name);
  }
  Type ts = { .kind = TY_SCALAR, .name = "scalar" }, ti = { .kind = TY_INT, .name = "int" };
  Type tu8 = { .kind = TY_UINT8, .name = "uint8" }, tc = { .kind = TY_CSCALAR };
  Type td = { .kind = TY_SCALAR, .mods = TM_DOUBLE };
  Type tcube = { .kind = TY_ARRAY, .name = "cube[uint8]", .rank = 3, .elem = &tu8 };
  Type tvec = { .kind = TY_ARRAY, .name = "vec", .rank = 1, .elem = &ts };
  CHECK(el_from_type(&ts, L) == EL_F32, "el_from_type scalar");
  CHECK(el_from_type(&ti, L) == EL_I32, "el_from_type int");
  CHECK(el_from_type(&tc, L) == EL_C64, "el_from_type cscalar");
  CHECK(el_from_type(&td, L) == EL_F64, "el_from_type scalar'double");
  CHECK(el_from_type(&tcube, L) == EL_U8, "el_from_type cube[uint8]");
  CHECK(el_from_type(&tvec, L) == EL_F32, "el_from_type vec");
  Type tstr = { .kind = TY_STRING, .name = "string" };
  EXPECT_ERROR("arrays of 'string' elements are not supported", el_from_type(&tstr, L));
}

static void test_arrays(void) {
  Array *a = arr_new(EL_F32, 3, DIMS(2, 3, 4));
  CHECK(a->numel == 24 && a->refcount == 1 && a->rank == 3, "arr_new fields");
  CHECK(arr_dim(a, 2) == 4 && arr_dim(a, 3) == 1 && arr_dim(a, 15) == 1, "arr_dim past rank");
  bool zero = true;
  for (int64_t k = 0; k < 24; k++) zero = zero && arr_load(a, k) == 0;
  CHECK(zero, "arr_new zero-fills");
  arr_store(a, 5, 0.1);
  CHECK(arr_load(a, 5) == (double)0.1f, "F32 store rounds to float");
  Array *b = arr_copy(a);
  arr_store(b, 5, 2);
  CHECK(arr_load(a, 5) == (double)0.1f && arr_load(b, 5) == 2, "arr_copy is independent");
  val_release(v_array(b));
  Value v = v_array(a);
  val_retain(v);
  CHECK(a->refcount == 2, "retain");
  val_release(v);
  CHECK(a->refcount == 1, "release");
  val_release(v);
  Array *vv = arr_vec(EL_I32, 7);
  CHECK(vv->rank == 1 && vv->dims[0] == 7 && vv->numel == 7, "arr_vec");
  val_release(v_array(vv));
  Array *e = arr_new(EL_F32, 2, DIMS(0, 3));
  CHECK(e->numel == 0, "empty array");
  val_release(v_array(e));

  /* integer stores: truncation toward zero, then a C cast of the int64 */
  static const struct { ElemType e; double x; double expect; } st[] = {
    { EL_I32, 2.7, 2 }, { EL_I32, -2.7, -2 }, { EL_I32, NAN, 0 }, { EL_I32, 1e30, -1 },
    { EL_I32, 2147483648.0, -2147483648.0 }, { EL_U8, 300, 44 }, { EL_U8, -1, 255 },
    { EL_U8, 255.9, 255 }, { EL_I8, 200, -56 }, { EL_I8, -129, 127 }, { EL_I16, 40000, -25536 },
    { EL_U16, 70000, 4464 }, { EL_U16, -1, 65535 }, { EL_U32, -1, 4294967295.0 },
    { EL_I64, -5.5, -5 }, { EL_F64, 0.1, 0.1 }, { EL_F32, 0.1, (float)0.1 },
  };
  for (size_t i = 0; i < sizeof st / sizeof st[0]; i++) {
    Array *t = arr_vec(st[i].e, 1);
    arr_store(t, 0, st[i].x);
    CHECK(arr_load(t, 0) == st[i].expect, "store %g as %s gives %g, expected %g", st[i].x,
          el_name(st[i].e), arr_load(t, 0), st[i].expect);
    val_release(v_array(t));
  }
  Array *i64 = arr_vec(EL_I64, 1);
  arr_set(i64, 0, v_int(INT64_MAX - 1), L);
  Value g = arr_get(i64, 0);
  CHECK(g.kind == V_INT && g.i == INT64_MAX - 1, "int64 set/get exact");
  val_release(v_array(i64));

  Value vi = VEC(EL_I32, 4, 5), vs = VEC(EL_F32, 1.5), vc = T(v_array(arr_vec(EL_C64, 1)));
  CHECK(arr_get(vi.arr, 1).kind == V_INT && arr_get(vi.arr, 1).i == 5, "arr_get int");
  CHECK(arr_get(vs.arr, 0).kind == V_SCALAR && arr_get(vs.arr, 0).s == 1.5, "arr_get scalar");
  arr_set(vc.arr, 0, v_cscalar(1, -2), L);
  Value gc_ = arr_get(vc.arr, 0);
  CHECK(gc_.kind == V_CSCALAR && gc_.c.re == 1 && gc_.c.im == -2, "arr_get cscalar");
  arr_set(vi.arr, 0, v_scalar(-3.9), L);
  CHECK(arr_get(vi.arr, 0).i == -3, "arr_set scalar into int truncates");
  arr_set(vs.arr, 0, v_bool(true), L);
  CHECK(at(vs, 0) == 1, "arr_set bool");
  EXPECT_ERROR("cannot store a cscalar in an element of a vec", arr_set(vs.arr, 0, v_cscalar(1, 1), L));
  EXPECT_ERROR("cannot store a string in an element of a vec[int]", arr_set(vi.arr, 0, S("x"), L));

  Value conv = T(v_array(arr_convert(VEC(EL_F32, 1.5, -2.5, 3).arr, EL_I32)));
  CHECK(conv.arr->elem == EL_I32 && at(conv, 0) == 1 && at(conv, 1) == -2 && at(conv, 2) == 3,
        "arr_convert to int");
  Value conv2 = T(v_array(arr_convert(VEC(EL_I32, 7, 8).arr, EL_C128)));
  CHECK(conv2.arr->elem == EL_C128 && at(conv2, 1) == 8, "arr_convert to complex");
  CHECK(arr_same_shape(mk(EL_F32, 1, DIMS(3), NULL).arr, mk(EL_F32, 2, DIMS(3, 1), NULL).arr),
        "[3] and [3,1] have the same shape");
  CHECK(!arr_same_shape(mk(EL_F32, 1, DIMS(3), NULL).arr, mk(EL_F32, 2, DIMS(1, 3), NULL).arr),
        "[3] and [1,3] differ");
  CHECK(!arr_same_shape(mk(EL_F32, 1, DIMS(3), NULL).arr, mk(EL_F32, 1, DIMS(4), NULL).arr),
        "[3] and [4] differ");

  Value s = T(v_string("hello", 5));
  CHECK(s.kind == V_STRING && s.str->len == 5 && !strcmp(s.str->s, "hello"), "v_string");
  Value tup = T(v_tuple(2));
  tup.tup->v[0] = v_array(arr_vec(EL_F32, 3));   /* released with the tuple */
  tup.tup->v[1] = v_int(3);
  CHECK(tup.tup->n == 2, "v_tuple");
  gc();
}

static void test_conversions(void) {
  CHECK(rt_to_int(v_scalar(-2.9), L) == -2 && rt_to_int(v_bool(true), L) == 1 &&
        rt_to_int(v_int(-7), L) == -7, "rt_to_int");
  CHECK(rt_to_real(v_int(3), L) == 3 && rt_to_real(v_scalar(0.5), L) == 0.5, "rt_to_real");
  EXPECT_ERROR("expected an integer, got a string", rt_to_int(S("x"), L));
  EXPECT_ERROR("expected a real number, got a cscalar", rt_to_real(v_cscalar(1, 1), L));
  EXPECT_ERROR("expected a real number, got a vec", rt_to_real(VEC(EL_F32, 1), L));

  CHECK(rt_truthy(v_int(2), L) && !rt_truthy(v_int(0), L) && rt_truthy(v_scalar(0.1), L) &&
        !rt_truthy(v_scalar(0), L) && rt_truthy(v_cscalar(0, 1), L) && !rt_truthy(v_bool(false), L),
        "rt_truthy numbers");
  CHECK(rt_truthy(VEC(EL_F32, 1, 2, 3), L) && !rt_truthy(VEC(EL_F32, 1, 0, 3), L) &&
        !rt_truthy(mk(EL_F32, 1, DIMS(0), NULL), L), "rt_truthy arrays (empty is false)");
  EXPECT_ERROR("a string cannot be used as a condition", rt_truthy(S("x"), L));

  static const struct { ElemType e; int rank; const char *name; } kn[] = {
    { EL_F32, 1, "vec" }, { EL_F32, 2, "mat" }, { EL_F32, 3, "cube" }, { EL_F32, 4, "cube{4}" },
    { EL_I32, 1, "vec[int]" }, { EL_U8, 3, "cube[uint8]" }, { EL_C64, 1, "cvec" },
    { EL_C64, 2, "cmat" }, { EL_C64, 3, "ccube" }, { EL_I32, 5, "cube{5}[int]" },
  };
  for (size_t i = 0; i < sizeof kn / sizeof kn[0]; i++) {
    Value v = mk(kn[i].e, kn[i].rank, DIMS(1, 1, 1, 1, 1), NULL);
    CHECK(!strcmp(rt_kind_name(v), kn[i].name), "kind name %s: %s", kn[i].name, rt_kind_name(v));
  }
  CHECK(!strcmp(rt_kind_name(v_int(1)), "int") && !strcmp(rt_kind_name(v_scalar(1)), "scalar") &&
        !strcmp(rt_kind_name(v_cscalar(1, 0)), "cscalar") && !strcmp(rt_kind_name(v_bool(1)), "bool") &&
        !strcmp(rt_kind_name(S("")), "string") && !strcmp(rt_kind_name(v_func(NULL)), "function") &&
        !strcmp(rt_kind_name(v_none()), "none"), "kind names of non-arrays");

  /* rt_convert */
  Type ts = { .kind = TY_SCALAR, .name = "scalar" }, ti = { .kind = TY_INT, .name = "int" };
  Type tc = { .kind = TY_CSCALAR, .name = "cscalar" }, tu = { .kind = TY_UNKNOWN };
  Type tu8 = { .kind = TY_UINT8, .name = "uint8" }, tb = { .kind = TY_BOOL, .name = "bool" };
  Type tvec = { .kind = TY_ARRAY, .name = "vec", .rank = 1, .elem = &ts };
  Type tmat = { .kind = TY_ARRAY, .name = "mat", .rank = 2, .elem = &ts };
  Type tivec = { .kind = TY_ARRAY, .name = "vec[int]", .rank = 1, .elem = &ti };
  Type tivec3 = { .kind = TY_ARRAY, .name = "ivec3", .rank = 1, .fixed_len = 3, .elem = &ti };
  Value r = rt_convert(v_int(3), &ts, "x", L);
  CHECK(r.kind == V_SCALAR && r.s == 3, "int -> scalar");
  r = rt_convert(v_scalar(4), &ti, "x", L);
  CHECK(r.kind == V_INT && r.i == 4, "integral scalar -> int");
  r = rt_convert(v_int(2), &tc, "x", L);
  CHECK(r.kind == V_CSCALAR && r.c.re == 2 && r.c.im == 0, "int -> cscalar");
  r = rt_convert(v_int(300), &tu8, "x", L);
  CHECK(r.kind == V_INT && r.i == 44, "int -> uint8 wraps");
  r = rt_convert(v_int(5), &tb, "x", L);
  CHECK(r.kind == V_BOOL && r.i == 1, "int -> bool");
  Value arr = VEC(EL_F32, 1, 2, 3);
  r = rt_convert(arr, &tvec, "x", L);
  CHECK(r.kind == V_ARRAY && r.arr == arr.arr && arr.arr->refcount == 2, "vec -> vec retains");
  val_release(r);
  r = T(rt_convert(arr, &tu, "x", L));
  CHECK(r.arr == arr.arr, "unknown type accepts anything");
  Value iv = VEC(EL_I32, 1, 2, 3);
  r = T(rt_convert(iv, &tvec, "x", L));
  CHECK(r.arr != iv.arr && r.arr->elem == EL_F32 && at(r, 2) == 3, "vec[int] -> vec converts");
  r = T(rt_convert(arr, &tivec, "x", L));
  CHECK(r.arr->elem == EL_I32 && at(r, 0) == 1, "vec -> vec[int] converts");
  r = T(rt_convert(mk(EL_F32, 2, DIMS(3, 1), NULL), &tvec, "x", L));
  CHECK(r.kind == V_ARRAY, "a [3,1] matrix is accepted as vec");
  r = T(rt_convert(arr, &tmat, "x", L));
  CHECK(r.arr == arr.arr, "vec accepted as mat");
  EXPECT_ERROR("type mismatch: argument 'x' of 'f' expects int, got scalar (not an integer)",
               rt_convert(v_scalar(2.5), &ti, "argument 'x' of 'f'", L));
  EXPECT_ERROR("type mismatch: argument 'y' expects vec, got mat",
               rt_convert(mk(EL_F32, 2, DIMS(2, 2), NULL), &tvec, "argument 'y'", L));
  EXPECT_ERROR("expects scalar, got string", rt_convert(S("s"), &ts, "x", L));
  EXPECT_ERROR("expects scalar, got cscalar", rt_convert(v_cscalar(1, 1), &ts, "x", L));
  EXPECT_ERROR("expects vec, got scalar", rt_convert(v_scalar(1), &tvec, "x", L));
  EXPECT_ERROR("expects vec, got cvec", rt_convert(mk(EL_C64, 1, DIMS(2), NULL), &tvec, "x", L));
  EXPECT_ERROR("expects ivec3, got vec[int] of 4 elements",
               rt_convert(VEC(EL_I32, 1, 2, 3, 4), &tivec3, "x", L));
  gc();
}

/* ---- operators on numbers ---- */

static void test_number_ops(void) {
  static const struct { Op op; Value a, b; ValueKind kind; double expect; } tab[] = {
    { OP_ADD, { V_INT, .i = 2 }, { V_INT, .i = 3 }, V_INT, 5 },
    { OP_SUB, { V_INT, .i = 2 }, { V_INT, .i = 3 }, V_INT, -1 },
    { OP_MUL, { V_INT, .i = -4 }, { V_INT, .i = 3 }, V_INT, -12 },
    { OP_EMUL, { V_INT, .i = -4 }, { V_INT, .i = 3 }, V_INT, -12 },
    { OP_DIV, { V_INT, .i = 7 }, { V_INT, .i = 2 }, V_SCALAR, 3.5 },
    { OP_EDIV, { V_INT, .i = 1 }, { V_INT, .i = 4 }, V_SCALAR, 0.25 },
    { OP_POW, { V_INT, .i = 2 }, { V_INT, .i = 10 }, V_SCALAR, 1024 },
    { OP_POW, { V_INT, .i = 2 }, { V_INT, .i = -1 }, V_SCALAR, 0.5 },
    { OP_EPOW, { V_SCALAR, .s = 9 }, { V_SCALAR, .s = 0.5 }, V_SCALAR, 3 },
    { OP_MOD, { V_INT, .i = 7 }, { V_INT, .i = 3 }, V_INT, 1 },
    { OP_MOD, { V_INT, .i = -7 }, { V_INT, .i = 3 }, V_INT, -1 },
    { OP_MOD, { V_INT, .i = 7 }, { V_INT, .i = -3 }, V_INT, 1 },
    { OP_MOD, { V_INT, .i = -7 }, { V_INT, .i = -3 }, V_INT, -1 },
    { OP_MOD, { V_SCALAR, .s = -7.5 }, { V_INT, .i = 2 }, V_SCALAR, -1.5 },
    { OP_MOD, { V_SCALAR, .s = 7.5 }, { V_SCALAR, .s = -2 }, V_SCALAR, 1.5 },
    { OP_ADD, { V_BOOL, .i = 1 }, { V_BOOL, .i = 1 }, V_INT, 2 },
    { OP_ADD, { V_INT, .i = 1 }, { V_SCALAR, .s = 0.5 }, V_SCALAR, 1.5 },
    { OP_BAND, { V_INT, .i = 6 }, { V_INT, .i = 3 }, V_INT, 2 },
    { OP_BOR, { V_INT, .i = 6 }, { V_INT, .i = 3 }, V_INT, 7 },
    { OP_BXOR, { V_INT, .i = 6 }, { V_INT, .i = 3 }, V_INT, 5 },
    { OP_BAND, { V_SCALAR, .s = 6.7 }, { V_INT, .i = 3 }, V_INT, 2 },
    { OP_MAX, { V_INT, .i = 6 }, { V_INT, .i = 3 }, V_INT, 6 },
    { OP_MIN, { V_INT, .i = 6 }, { V_INT, .i = 3 }, V_INT, 3 },
    { OP_MAX, { V_INT, .i = 6 }, { V_SCALAR, .s = 6.5 }, V_SCALAR, 6.5 },
    { OP_MIN, { V_SCALAR, .s = -1 }, { V_INT, .i = 3 }, V_SCALAR, -1 },
    { OP_EQ, { V_INT, .i = 1 }, { V_SCALAR, .s = 1 }, V_BOOL, 1 },
    { OP_NE, { V_INT, .i = 1 }, { V_SCALAR, .s = 1 }, V_BOOL, 0 },
    { OP_LT, { V_INT, .i = 1 }, { V_INT, .i = 2 }, V_BOOL, 1 },
    { OP_LE, { V_INT, .i = 2 }, { V_INT, .i = 2 }, V_BOOL, 1 },
    { OP_GT, { V_SCALAR, .s = 2.5 }, { V_INT, .i = 2 }, V_BOOL, 1 },
    { OP_GE, { V_SCALAR, .s = 1.5 }, { V_INT, .i = 2 }, V_BOOL, 0 },
    { OP_AND, { V_INT, .i = 1 }, { V_SCALAR, .s = 0 }, V_BOOL, 0 },
    { OP_OR, { V_INT, .i = 0 }, { V_SCALAR, .s = 2 }, V_BOOL, 1 },
    { OP_AND, { V_BOOL, .i = 1 }, { V_INT, .i = 5 }, V_BOOL, 1 },
  };
  for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
    Value r = rt_binary(tab[i].op, tab[i].a, tab[i].b, L);
    double got = r.kind == V_SCALAR ? r.s : (double)r.i;
    CHECK(r.kind == tab[i].kind && got == tab[i].expect, "case %zu: '%s' gave %s %g, expected %g",
          i, opname(tab[i].op), rt_kind_name(r), got, tab[i].expect);
  }
  /* every pair of a few ints and reals, against C arithmetic */
  static const double vals[] = { -7, -2.5, -1, 0, 0.5, 1, 3, 4.25 };
  static const Op ops[] = { OP_ADD, OP_SUB, OP_MUL, OP_EMUL, OP_DIV, OP_EDIV, OP_LT, OP_LE,
                            OP_GT, OP_GE, OP_EQ, OP_NE, OP_MAX, OP_MIN };
  int bad = 0;
  for (size_t i = 0; i < 8; i++)
    for (size_t j = 0; j < 8; j++)
      for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
        double x = vals[i], y = vals[j];
        bool xi = x == floor(x), yi = y == floor(y);
        Value a = xi ? v_int((int64_t)x) : v_scalar(x), b = yi ? v_int((int64_t)y) : v_scalar(y);
        Value r = rt_binary(ops[o], a, b, L);
        double e;
        ValueKind k = xi && yi ? V_INT : V_SCALAR;
        switch (ops[o]) {
        case OP_ADD: e = x + y; break;
        case OP_SUB: e = x - y; break;
        case OP_MUL: case OP_EMUL: e = x * y; break;
        case OP_DIV: case OP_EDIV: e = (float)(x / y); k = V_SCALAR; break;
        case OP_LT: e = x < y; k = V_BOOL; break;
        case OP_LE: e = x <= y; k = V_BOOL; break;
        case OP_GT: e = x > y; k = V_BOOL; break;
        case OP_GE: e = x >= y; k = V_BOOL; break;
        case OP_EQ: e = x == y; k = V_BOOL; break;
        case OP_NE: e = x != y; k = V_BOOL; break;
        case OP_MAX: e = x > y ? x : y; break;
        default: e = x < y ? x : y; break;
        }
        double got = r.kind == V_SCALAR ? r.s : (double)r.i;
        if (r.kind != k || !(got == e || (isnan(got) && isnan(e)))) {
          bad++;
          printf("  %g %s %g gave %s %g, expected %g\n", x, opname(ops[o]), y, rt_kind_name(r), got, e);
        }
      }
  CHECK(bad == 0, "operator table over int and scalar pairs: %d wrong", bad);

  Value r = rt_binary(OP_ADD, v_int(INT64_MAX), v_int(1), L);
  CHECK(r.kind == V_INT && r.i == INT64_MIN, "int overflow wraps");
  r = rt_binary(OP_MOD, v_scalar(1), v_scalar(0), L);
  CHECK(r.kind == V_SCALAR && isnan(r.s), "scalar mod 0 is NaN");
  r = rt_binary(OP_DIV, v_int(1), v_int(0), L);
  CHECK(r.kind == V_SCALAR && isinf(r.s), "1/0 is Inf");
  EXPECT_ERROR("division by zero in mod", rt_binary(OP_MOD, v_int(1), v_int(0), L));

  /* single precision: every result is rounded to float */
  r = rt_binary(OP_ADD, v_scalar(0.1), v_scalar(0.2), L);
  CHECK(r.s == (double)(0.1f + 0.2f), "0.1+0.2 in single precision: %.17g", r.s);
  r = rt_binary(OP_DIV, v_int(1), v_int(3), L);
  CHECK(r.s == (double)(1.0f / 3.0f), "1/3 rounded to float");
  rt_config.double_precision = true;
  r = rt_binary(OP_ADD, v_scalar(0.1), v_scalar(0.2), L);
  CHECK(r.s == 0.1 + 0.2, "0.1+0.2 in double precision");
  rt_config.double_precision = false;

  /* complex */
  Value z1 = v_cscalar(1, 2), z2 = v_cscalar(3, -1);
  r = rt_binary(OP_MUL, z1, z2, L);
  CHECK(r.kind == V_CSCALAR && r.c.re == 5 && r.c.im == 5, "(1+2i)(3-i) = 5+5i");
  r = rt_binary(OP_DIV, z1, z2, L);
  CHECK(r.kind == V_CSCALAR && r.c.re == fl(0.1) && r.c.im == fl(0.7), "(1+2i)/(3-i) = 0.1+0.7i: %g %g", r.c.re, r.c.im);
  r = rt_binary(OP_POW, z1, v_int(2), L);
  CHECK(r.kind == V_CSCALAR && r.c.re == -3 && r.c.im == 4, "(1+2i)^2 = -3+4i");
  r = rt_binary(OP_POW, z1, v_int(-1), L);
  CHECK(fabs(r.c.re - 0.2) < 1e-7 && fabs(r.c.im + 0.4) < 1e-7, "(1+2i)^-1 = 0.2-0.4i");
  r = rt_binary(OP_POW, v_cscalar(0, 1), v_scalar(0.5), L);
  CHECK(fabs(r.c.re - sqrt(0.5)) < 1e-6 && fabs(r.c.im - sqrt(0.5)) < 1e-6, "i^0.5");
  r = rt_binary(OP_ADD, v_int(1), z1, L);
  CHECK(r.kind == V_CSCALAR && r.c.re == 2 && r.c.im == 2, "int + complex");
  r = rt_binary(OP_SUB, z1, v_scalar(0.5), L);
  CHECK(r.kind == V_CSCALAR && r.c.re == 0.5 && r.c.im == 2, "complex - scalar");
  r = rt_binary(OP_EQ, z1, v_cscalar(1, 2), L);
  CHECK(r.kind == V_BOOL && r.i == 1, "complex ==");
  r = rt_binary(OP_NE, z1, v_int(1), L);
  CHECK(r.kind == V_BOOL && r.i == 1, "complex != int");
  EXPECT_ERROR("operator '<' is not defined for complex numbers", rt_binary(OP_LT, z1, z2, L));
  EXPECT_ERROR("operator 'mod' is not defined for complex numbers", rt_binary(OP_MOD, z1, z2, L));

  /* unary */
  r = rt_unary(OP_NEG, v_int(5), L);
  CHECK(r.kind == V_INT && r.i == -5, "-int");
  r = rt_unary(OP_NEG, v_bool(true), L);
  CHECK(r.kind == V_INT && r.i == -1, "-true");
  r = rt_unary(OP_NEG, v_scalar(2.5), L);
  CHECK(r.kind == V_SCALAR && r.s == -2.5, "-scalar");
  r = rt_unary(OP_NEG, z1, L);
  CHECK(r.kind == V_CSCALAR && r.c.re == -1 && r.c.im == -2, "-complex");
  r = rt_unary(OP_NOT, v_int(0), L);
  CHECK(r.kind == V_BOOL && r.i == 1, "!0");
  r = rt_unary(OP_NOT, v_scalar(0.5), L);
  CHECK(r.kind == V_BOOL && r.i == 0, "!0.5");
  r = rt_unary(OP_NOT, VEC(EL_F32, 1, 0), L);
  CHECK(r.kind == V_BOOL && r.i == 1, "!array: not all nonzero");
  r = rt_unary(OP_PLUS, v_int(3), L);
  CHECK(r.kind == V_INT && r.i == 3, "+int");
  Value a = VEC(EL_F32, 1);
  r = rt_unary(OP_PLUS, a, L);
  CHECK(r.arr == a.arr && a.arr->refcount == 2, "+array retains");
  val_release(r);
  EXPECT_ERROR("operator '-' cannot be applied to a string", rt_unary(OP_NEG, S("x"), L));

  /* strings */
  CHECK(fmt_is(B(OP_ADD, S("ab"), S("cd")), "abcd"), "string + string");
  CHECK(fmt_is(B(OP_ADD, S("x="), v_int(5)), "x=5"), "string + int");
  CHECK(fmt_is(B(OP_ADD, v_scalar(2.5), S("s")), "2.5s"), "scalar + string");
  EXPECT_ERROR("operator '+' cannot be applied to string and vec[int]", rt_binary(OP_ADD, S("v="), VEC(EL_I32, 1, 2), L));
  r = rt_binary(OP_EQ, S("abc"), S("abc"), L);
  CHECK(r.kind == V_BOOL && r.i == 1, "string ==");
  r = rt_binary(OP_EQ, S("abc"), S("abd"), L);
  CHECK(r.kind == V_BOOL && r.i == 0, "string == differs");
  r = rt_binary(OP_NE, S("abc"), S("ab"), L);
  CHECK(r.kind == V_BOOL && r.i == 1, "string !=");
  r = rt_binary(OP_EQ, S("1"), v_int(1), L);
  CHECK(r.kind == V_BOOL && r.i == 0, "string == number is false");
  EXPECT_ERROR("operator '-' cannot be applied to string and string", rt_binary(OP_SUB, S("a"), S("b"), L));
  EXPECT_ERROR("operator '+' cannot be applied to function and int", rt_binary(OP_ADD, v_func(NULL), v_int(1), L));
  gc();
}

/* ---- operators on arrays ---- */

static double f_a(int64_t k) { return (double)((k * 37) % 23) / 4.0 - 2.0; }
static double f_b(int64_t k) { return (double)((k * 13) % 17) / 8.0 + 0.5; }
static double f_int(int64_t k) { return (double)((k * 7) % 11) - 5; }
static double f_k(int64_t k) { return (double)k; }

static void test_array_ops(void) {
  const int64_t *dims = DIMS(3, 4);
  Value A = mkf(EL_F32, 2, dims, f_a), Bv = mkf(EL_F32, 2, dims, f_b);
  static const Op ops[] = { OP_ADD, OP_SUB, OP_EMUL, OP_EDIV, OP_EPOW, OP_MOD, OP_MAX, OP_MIN };
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    Value r = B(ops[i], A, Bv);
    bool ok = r.kind == V_ARRAY && r.arr->elem == EL_F32 && dims_are(r, 2, dims);
    for (int64_t k = 0; ok && k < 12; k++) {
      float x = (float)f_a(k), y = (float)f_b(k), e;
      switch (ops[i]) {
      case OP_ADD: e = x + y; break;
      case OP_SUB: e = x - y; break;
      case OP_EMUL: e = x * y; break;
      case OP_EDIV: e = x / y; break;
      case OP_EPOW: e = (float)pow(x, y); break;
      case OP_MOD: e = (float)fmod(x, y); break;
      case OP_MAX: e = x > y ? x : y; break;
      default: e = x < y ? x : y; break;
      }
      ok = at(r, k) == e || (isnan(at(r, k)) && isnan(e));
      if (!ok) printf("  element %lld: %.9g vs %.9g\n", (long long)k, at(r, k), (double)e);
    }
    CHECK(ok, "array '%s' array", opname(ops[i]));
    /* broadcasting a number on either side */
    Value r1 = B(ops[i], A, v_scalar(1.5)), r2 = B(ops[i], v_int(3), A);
    bool ok1 = dims_are(r1, 2, dims) && dims_are(r2, 2, dims);
    for (int64_t k = 0; ok1 && k < 12; k++) {
      Value e1 = rt_binary(ops[i], v_scalar(f_a(k)), v_scalar(1.5), L);
      Value e2 = rt_binary(ops[i], v_int(3), v_scalar(f_a(k)), L);
      ok1 = (at(r1, k) == e1.s || (isnan(e1.s) && isnan(at(r1, k)))) &&
            (at(r2, k) == e2.s || (isnan(e2.s) && isnan(at(r2, k))));
    }
    CHECK(ok1, "broadcast '%s' matches the scalar operator", opname(ops[i]));
  }
  /* '/' and '^' of an array with a number are element-wise */
  Value d1 = B(OP_DIV, A, v_int(2)), d2 = B(OP_DIV, v_int(2), Bv), p1 = B(OP_POW, Bv, v_int(2));
  bool ok = true;
  for (int64_t k = 0; k < 12; k++)
    ok = ok && at(d1, k) == (float)f_a(k) / 2 && at(d2, k) == (float)(2 / (float)f_b(k)) &&
         at(p1, k) == (float)((float)f_b(k) * (float)f_b(k));
  CHECK(ok, "array/number, number/array, array^number");
  EXPECT_ERROR("use ./ for element-wise division", rt_binary(OP_DIV, A, Bv, L));
  EXPECT_ERROR("use .^ for element-wise power", rt_binary(OP_POW, A, Bv, L));
  EXPECT_ERROR("shape mismatch in '+': [3] and [4]",
               rt_binary(OP_ADD, VEC(EL_F32, 1, 2, 3), VEC(EL_F32, 1, 2, 3, 4), L));
  EXPECT_ERROR("shape mismatch in '.*': [3,4] and [4,3]",
               rt_binary(OP_EMUL, A, mk(EL_F32, 2, DIMS(4, 3), NULL), L));
  Value col = B(OP_ADD, VEC(EL_F32, 1, 2, 3), mk(EL_F32, 2, DIMS(3, 1), (const double[]){ 10, 20, 30 }));
  CHECK(col.arr->numel == 3 && at(col, 2) == 33, "[3] + [3,1]");

  /* result element types */
  Value I = mkf(EL_I32, 1, DIMS(6), f_int), I2 = mkf(EL_I32, 1, DIMS(6), f_k);
  Value r = B(OP_ADD, I, I2);
  ok = r.arr->elem == EL_I32;
  for (int64_t k = 0; k < 6; k++) ok = ok && at(r, k) == f_int(k) + k;
  CHECK(ok, "int array + int array is an int array");
  r = B(OP_MUL, I, v_int(3));
  CHECK(r.arr->elem == EL_I32 && at(r, 1) == f_int(1) * 3, "int array * int");
  r = B(OP_MOD, I, v_int(4));
  ok = r.arr->elem == EL_I32;
  for (int64_t k = 0; k < 6; k++) ok = ok && at(r, k) == (double)((int)f_int(k) % 4);
  CHECK(ok, "int array mod int: sign of the dividend");
  EXPECT_ERROR("division by zero in mod", rt_binary(OP_MOD, I, v_int(0), L));
  r = B(OP_MUL, I, v_scalar(0.5));
  CHECK(r.arr->elem == EL_F32 && at(r, 0) == f_int(0) * 0.5, "int array * scalar is real");
  r = B(OP_DIV, I, v_int(2));
  CHECK(r.arr->elem == EL_F32 && at(r, 1) == f_int(1) / 2, "int array / int is real");
  r = B(OP_EPOW, I, v_int(2));
  CHECK(r.arr->elem == EL_F32 && at(r, 1) == f_int(1) * f_int(1), "int array .^ int is real");
  r = B(OP_ADD, I, mkf(EL_F32, 1, DIMS(6), f_a));
  CHECK(r.arr->elem == EL_F32 && at(r, 3) == (float)(f_int(3) + (float)f_a(3)), "int array + vec");
  r = B(OP_ADD, mk(EL_U8, 1, DIMS(2), (const double[]){ 200, 100 }), v_int(100));
  CHECK(r.arr->elem == EL_I32 && at(r, 0) == 300, "uint8 array + int is an int array");
  r = B(OP_BAND, I2, v_int(3));
  CHECK(r.arr->elem == EL_I32 && at(r, 5) == 1, "int array & int");
  r = B(OP_LT, I, v_int(0));
  ok = r.arr->elem == EL_I32;
  for (int64_t k = 0; k < 6; k++) ok = ok && at(r, k) == (f_int(k) < 0);
  CHECK(ok, "comparison of an array gives an int array of 0/1");
  r = B(OP_EQ, A, A);
  CHECK(r.arr->elem == EL_I32 && rt_truthy(r, L), "A == A");
  r = B(OP_AND, VEC(EL_F32, 1, 2), VEC(EL_F32, 3, 0));
  CHECK(r.kind == V_BOOL && r.i == 0, "&& of arrays is one bool");
  r = B(OP_OR, VEC(EL_F32, 1, 2), v_int(0));
  CHECK(r.kind == V_BOOL && r.i == 1, "|| of array and number");

  /* complex arrays */
  Value C = mk(EL_C64, 1, DIMS(2), NULL);
  arr_set(C.arr, 0, v_cscalar(1, 2), L);
  arr_set(C.arr, 1, v_cscalar(-1, 0.5), L);
  r = B(OP_EMUL, C, v_cscalar(0, 1));
  Value e0 = arr_get(r.arr, 0), e1 = arr_get(r.arr, 1);
  CHECK(r.arr->elem == EL_C64 && e0.c.re == -2 && e0.c.im == 1 && e1.c.re == -0.5 && e1.c.im == -1,
        "cvec .* i");
  r = B(OP_ADD, C, VEC(EL_F32, 10, 20));
  e1 = arr_get(r.arr, 1);
  CHECK(r.arr->elem == EL_C64 && e1.c.re == 19 && e1.c.im == 0.5, "cvec + vec");
  r = B(OP_EQ, C, C);
  CHECK(r.arr->elem == EL_I32 && at(r, 0) == 1 && at(r, 1) == 1, "cvec == cvec");
  EXPECT_ERROR("not defined for complex numbers", rt_binary(OP_GT, C, v_int(0), L));

  /* negation */
  r = T(rt_unary(OP_NEG, I, L));
  CHECK(r.arr->elem == EL_I32 && at(r, 0) == -f_int(0), "-int array stays int");
  r = T(rt_unary(OP_NEG, A, L));
  CHECK(r.arr->elem == EL_F32 && at(r, 4) == -(float)f_a(4), "-vec");
  r = T(rt_unary(OP_NEG, C, L));
  e0 = arr_get(r.arr, 0);
  CHECK(r.arr->elem == EL_C64 && e0.c.re == -1 && e0.c.im == -2, "-cvec");
  r = T(rt_unary(OP_NEG, mk(EL_U8, 1, DIMS(1), (const double[]){ 5 }), L));
  CHECK(r.arr->elem == EL_I32 && at(r, 0) == -5, "-uint8 array is int");

  /* double precision arrays */
  rt_config.double_precision = true;
  Value D = mkf(EL_F64, 1, DIMS(5), f_a);
  r = B(OP_ADD, D, v_scalar(0.1));
  CHECK(r.arr->elem == EL_F64 && at(r, 2) == f_a(2) + 0.1, "double precision array op");
  rt_config.double_precision = false;
  gc();
}

static void test_matmul(void) {
  Value A = mkf(EL_F32, 2, DIMS(3, 4), f_a), Bm = mkf(EL_F32, 2, DIMS(4, 2), f_b);
  Value R = B(OP_MUL, A, Bm);
  bool ok = dims_are(R, 2, DIMS(3, 2)) && R.arr->elem == EL_F32;
  for (int i = 0; ok && i < 3; i++)
    for (int j = 0; j < 2; j++) {
      double s = 0;
      for (int k = 0; k < 4; k++) s += (double)(float)f_a(i * 4 + k) * (double)(float)f_b(k * 2 + j);
      ok = ok && fabs(at(R, i * 2 + j) - s) < 1e-5;
    }
  CHECK(ok, "mat * mat against a triple loop");
  Value v3 = VEC(EL_F32, 1, 2, 3), v4 = VEC(EL_F32, 1, -1, 2, 0.5);
  Value r = B(OP_MUL, v3, A);   /* [3] as 1x3 row times 3x4 */
  ok = dims_are(r, 1, DIMS(4));
  for (int j = 0; ok && j < 4; j++) {
    double s = 0;
    for (int k = 0; k < 3; k++) s += (k + 1) * (double)(float)f_a(k * 4 + j);
    ok = fabs(at(r, j) - s) < 1e-5;
  }
  CHECK(ok, "vec * mat is a vec");
  Value c4 = CALL("transpose", v4);   /* a vec is a row: the column is its transpose */
  r = B(OP_MUL, A, c4);
  ok = dims_are(r, 2, DIMS(3, 1));
  for (int i = 0; ok && i < 3; i++) {
    double s = 0;
    for (int k = 0; k < 4; k++) s += (double)(float)f_a(i * 4 + k) * arr_load(v4.arr, k);
    ok = fabs(at(r, i) - s) < 1e-5;
  }
  CHECK(ok, "mat * transpose(vec) is a column");
  r = B(OP_MUL, c4, v4);
  CHECK(dims_are(r, 2, DIMS(4, 4)) && at(r, 2 * 4 + 1) == -2, "transpose(vec) * vec is the outer product");
  EXPECT_ERROR("inner dimensions disagree in '*': [3,4] and [4]", rt_binary(OP_MUL, A, v4, L));
  r = B(OP_MUL, v3, VEC(EL_F32, 4, 5, 6));
  CHECK(r.kind == V_SCALAR && r.s == 32, "vec * vec is the inner product");
  r = B(OP_MUL, VEC(EL_I32, 1, 2), mk(EL_I32, 2, DIMS(2, 2), (const double[]){ 1, 2, 3, 4 }));
  CHECK(r.arr->elem == EL_I32 && at(r, 0) == 7 && at(r, 1) == 10, "int matrix product stays int");
  Value C = mk(EL_C64, 2, DIMS(1, 1), NULL);
  arr_set(C.arr, 0, v_cscalar(0, 1), L);
  r = B(OP_MUL, C, C);
  Value e = arr_get(r.arr, 0);
  CHECK(r.arr->elem == EL_C64 && e.c.re == -1 && e.c.im == 0, "complex matrix product");
  r = B(OP_MUL, A, v_int(2));
  CHECK(dims_are(r, 2, DIMS(3, 4)) && at(r, 5) == 2 * (float)f_a(5), "mat * number is element-wise");
  EXPECT_ERROR("inner dimensions disagree in '*': [3,4] and [3,4]", rt_binary(OP_MUL, A, A, L));
  EXPECT_ERROR("inner dimensions disagree in '*': [3] and [4]", rt_binary(OP_MUL, v3, v4, L));
  EXPECT_ERROR("matrix product '*' needs vectors or matrices, got cube and mat",
               rt_binary(OP_MUL, mk(EL_F32, 3, DIMS(2, 2, 2), NULL), A, L));
  gc();
}

/* ---- indexing ---- */

static double f_m(int64_t k) { return (double)(10 * (k / 5) + k % 5); }               /* 4x5 */
static double f_c(int64_t k) { return (double)(100 * (k / 8) + 10 * (k / 2 % 4) + k % 2); } /* 3x4x2 */

static Value get(Value a, int n, const Value *idx, const IndexCtx *ctx) {
  return T(rt_index_get(a, n, idx, ctx));
}
#define GET(a, ctx, ...) get(a, (int)(sizeof((Value[]){ __VA_ARGS__ }) / sizeof(Value)), (const Value[]){ __VA_ARGS__ }, ctx)
#define SET(a, ctx, v, ...) rt_index_set(a, (int)(sizeof((Value[]){ __VA_ARGS__ }) / sizeof(Value)), (const Value[]){ __VA_ARGS__ }, v, ctx)
#define UPD(a, ctx, op, v, ...) T(rt_index_update(a, (int)(sizeof((Value[]){ __VA_ARGS__ }) / sizeof(Value)), (const Value[]){ __VA_ARGS__ }, op, v, ctx))

static double num(Value v) {
  return v.kind == V_SCALAR ? v.s : v.kind == V_CSCALAR ? v.c.re : (double)v.i;
}

/* Independent references of the boundary rules. */
static int64_t ref_circular(int64_t i, int64_t n) { return ((i % n) + n) % n; }
static int64_t ref_mirror(int64_t i, int64_t n) {   /* x[-i] = x[i]; past the end the edge repeats */
  if (i < 0) i = -i;
  while (i >= n) i = i >= 2 * n ? i - 2 * n : 2 * n - 1 - i;
  return i;
}
static int64_t ref_clamp(int64_t i, int64_t n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }

static void test_index_basic(void) {
  IndexCtx host = { 0 };
  Value M = mkf(EL_F32, 2, DIMS(4, 5), f_m), Cb = mkf(EL_F32, 3, DIMS(3, 4, 2), f_c);
  Value r = GET(M, &host, v_int(2), v_int(3));
  CHECK(r.kind == V_SCALAR && r.s == 23, "M[2,3]");
  r = GET(M, &host, v_scalar(2.9), v_scalar(3.2));
  CHECK(r.kind == V_SCALAR && r.s == 23, "scalar indices truncate");
  r = GET(M, &host, v_scalar(-0.5), v_bool(true));
  CHECK(r.s == 1, "M[-0.5, true] is M[0,1]");
  r = GET(M, &host, v_int(7));
  CHECK(r.s == 12, "linear M[7] = M[1,2]");
  r = GET(Cb, &host, v_int(1), v_int(5));
  CHECK(r.s == 121, "C[1,5]: last index linear over [4,2]");
  r = GET(M, &host, v_int(2), v_int(3), v_int(0));
  CHECK(r.s == 23, "extra index 0 of a trailing dim");
  r = GET(Cb, &host, v_int(2), v_int(3), v_int(1));
  CHECK(r.s == 231, "C[2,3,1]");
  Value MI = mkf(EL_I32, 2, DIMS(4, 5), f_m);
  r = GET(MI, &host, v_int(3), v_int(4));
  CHECK(r.kind == V_INT && r.i == 34, "element of an int array is V_INT");
  Value MC = mk(EL_C64, 1, DIMS(2), NULL);
  arr_set(MC.arr, 1, v_cscalar(3, 4), L);
  r = GET(MC, &host, v_int(1));
  CHECK(r.kind == V_CSCALAR && r.c.re == 3 && r.c.im == 4, "element of a complex array");

  /* positions */
  r = GET(M, &host, VEC(EL_I32, 2, 3));
  CHECK(r.kind == V_SCALAR && r.s == 23, "M[[2,3]] is a position");
  r = GET(Cb, &host, VEC(EL_I32, 1, 2));
  CHECK(r.s == 120, "C[[1,2]]: missing dims are 0");
  r = GET(Cb, &host, VEC(EL_F32, 1, 2, 1, 0));
  CHECK(r.s == 121, "C[[1,2,1,0]]: extra component in a trailing dim");
  EXPECT_ERROR("index [1,2,1,1] out of range for array of size [3,4,2]", GET(Cb, &host, VEC(EL_I32, 1, 2, 1, 1)));

  /* gathers and slices against loops */
  Value v = mkf(EL_F32, 1, DIMS(6), f_k);
  r = GET(v, &host, VEC(EL_I32, 5, 0, 2, 2));
  CHECK(fmt_is(r, "[5,0,2,2]"), "gather on a vec");
  r = GET(M, &host, v_int(1), v_colon());
  CHECK(fmt_is(r, "[10,11,12,13,14]") && r.arr->elem == EL_F32, "M[1,:]");
  r = GET(M, &host, v_colon(), v_int(2));
  CHECK(dims_are(r, 2, DIMS(4, 1)) && at(r, 1) == 12 && at(r, 3) == 32, "M[:,2] is a 4x1 column");
  r = GET(M, &host, VEC(EL_I32, 3, 0), VEC(EL_I32, 4, 1));
  CHECK(fmt_is(r, "[[34,31],\n [4,1]]"), "M[[3,0],[4,1]]");
  r = GET(M, &host, v_colon());
  CHECK(dims_are(r, 1, DIMS(20)) && at(r, 13) == f_m(13), "M[:] is all elements, linearly");
  r = GET(Cb, &host, v_colon(), v_int(1), v_colon());
  bool ok = dims_are(r, 3, DIMS(3, 1, 2));   /* Quasar's shapes: only leading numbers drop */
  for (int i = 0; ok && i < 3; i++)
    for (int k = 0; k < 2; k++) ok = ok && at(r, i * 2 + k) == 100 * i + 10 + k;
  CHECK(ok, "C[:,1,:] is a 3x1x2 cube");
  r = GET(Cb, &host, v_int(2), v_colon(), v_colon());
  ok = dims_are(r, 2, DIMS(4, 2));
  for (int j = 0; ok && j < 4; j++)
    for (int k = 0; k < 2; k++) ok = ok && at(r, j * 2 + k) == 200 + 10 * j + k;
  CHECK(ok, "C[2,:,:] is a 4x2 matrix");
  r = GET(Cb, &host, VEC(EL_I32, 0, 2), v_colon());   /* 2 indices on a cube: [3, 8] view */
  ok = dims_are(r, 2, DIMS(2, 8));
  for (int i = 0; ok && i < 2; i++)
    for (int j = 0; j < 8; j++) ok = ok && at(r, i * 8 + j) == f_c(i * 2 * 8 + j);
  CHECK(ok, "C[[0,2],:] is linear over the last two dims");
  r = GET(MI, &host, v_int(0), mk(EL_I32, 1, DIMS(0), NULL));
  CHECK(dims_are(r, 1, DIMS(0)) && r.arr->elem == EL_I32, "empty gather");
  r = GET(M, &host);
  CHECK(r.arr == M.arr, "a[] is a itself");

  EXPECT_ERROR("cannot index a scalar", GET(v_scalar(1), &host, v_int(0)));
  EXPECT_ERROR("cannot index a string", GET(S("abc"), &host, v_int(0)));
  EXPECT_ERROR("cannot index with a string", GET(M, &host, S("a")));
  EXPECT_ERROR("cannot index with complex numbers", GET(v, &host, MC));
  gc();
}

static void test_boundaries(void) {
  const int64_t N = 5;
  Value v = mk(EL_F32, 1, DIMS(5), (const double[]){ 1, 2, 3, 4, 5 });
  IndexCtx circ = { .mods = TM_CIRCULAR }, mirr = { .mods = TM_MIRROR }, clam = { .mods = TM_CLAMPED };
  IndexCtx safe = { .mods = TM_SAFE }, kern = { .in_kernel = true };
  for (int64_t i = -12; i <= 16; i++) {
    Value ix = v_int(i);
    double c = num(GET(v, &circ, ix)), m = num(GET(v, &mirr, ix)), cl = num(GET(v, &clam, ix));
    double s = num(GET(v, &safe, ix)), k = num(GET(v, &kern, ix));
    bool inside = i >= 0 && i < N;
    CHECK(c == ref_circular(i, N) + 1, "circular read %lld: %g", (long long)i, c);
    CHECK(m == ref_mirror(i, N) + 1, "mirror read %lld: %g", (long long)i, m);
    CHECK(cl == ref_clamp(i, N) + 1, "clamped read %lld: %g", (long long)i, cl);
    CHECK(s == (inside ? i + 1 : 0), "safe read %lld: %g", (long long)i, s);
    CHECK(k == (inside ? i + 1 : 0), "kernel default read %lld: %g", (long long)i, k);
  }
  /* the examples of the spec */
  CHECK(num(GET(v, &mirr, v_int(-1))) == 2 && num(GET(v, &mirr, v_int(-2))) == 3 &&
        num(GET(v, &mirr, v_int(5))) == 5 && num(GET(v, &mirr, v_int(6))) == 4 &&
        num(GET(v, &mirr, v_int(10))) == 1 && num(GET(v, &mirr, v_int(-5))) == 5, "mirror table");
  Value one = VEC(EL_F32, 7);
  CHECK(num(GET(one, &mirr, v_int(-3))) == 7 && num(GET(one, &circ, v_int(4))) == 7, "size 1");
  Value vi = VEC(EL_I32, 1, 2);
  Value z = GET(vi, &safe, v_int(9));
  CHECK(z.kind == V_INT && z.i == 0, "safe read of an int array gives int 0");

  /* 2D: the rule applies per dimension */
  Value M = mkf(EL_F32, 2, DIMS(4, 5), f_m);
  CHECK(num(GET(M, &circ, v_int(-1), v_int(7))) == 32, "circular M[-1,7] = M[3,2]");
  CHECK(num(GET(M, &mirr, v_int(4), v_int(-1))) == 31, "mirror M[4,-1] = M[3,1]");
  CHECK(num(GET(M, &clam, v_int(9), v_int(-3))) == 30, "clamped M[9,-3] = M[3,0]");
  CHECK(num(GET(M, &safe, v_int(1), v_int(5))) == 0, "safe M[1,5]");
  CHECK(num(GET(M, &circ, VEC(EL_I32, 5, -1))) == 14, "circular position M[[5,-1]]");

  /* slices reaching outside: the rule per element */
  Value idx = VEC(EL_I32, -2, -1, 0, 4, 5, 6);
  CHECK(fmt_is(GET(v, &safe, idx), "[0,0,1,5,0,0]"), "safe gather");
  CHECK(fmt_is(GET(v, &circ, idx), "[4,5,1,5,1,2]"), "circular gather");
  CHECK(fmt_is(GET(v, &mirr, idx), "[3,2,1,5,5,4]"), "mirror gather");
  CHECK(fmt_is(GET(v, &clam, idx), "[1,1,1,5,5,5]"), "clamped gather");
  CHECK(fmt_is(GET(M, &safe, VEC(EL_I32, 3, 4), v_colon()), "[[30,31,32,33,34],\n [0,0,0,0,0]]"),
        "safe rows");

  /* errors: host default, 'checked and 'unchecked, in and out of kernels */
  IndexCtx host = { 0 }, checked_k = { .mods = TM_CHECKED, .in_kernel = true };
  IndexCtx named = { .mods = TM_CHECKED, .in_kernel = true, .array_name = "y", .func_name = "kernel" };
  IndexCtx unch = { .mods = TM_UNCHECKED, .array_name = "x", .func_name = "f" };
  EXPECT_ERROR("index [5] out of range for array of size [5]", GET(v, &host, v_int(5)));
  EXPECT_ERROR("index [-1] out of range for array of size [5]", GET(v, &host, v_int(-1)));
  EXPECT_ERROR("index [-1] out of range", GET(v, &checked_k, v_int(-1)));
  EXPECT_ERROR("index [3,300] out of range for array 'y' of size [4,256] in kernel 'kernel'",
               GET(mk(EL_F32, 2, DIMS(4, 256), NULL), &named, v_int(3), v_int(300)));
  EXPECT_ERROR("index [0,9] out of range for array 'x' of size [4,5] in function 'f'",
               GET(M, &unch, v_int(0), v_int(9)));
  EXPECT_ERROR("index [20] out of range for array of size [4,5]", GET(M, &host, v_int(20)));
  EXPECT_ERROR("index [2,0,7] out of range for array of size [4,5]", GET(M, &host, v_int(2), v_colon(), v_int(7)));
  EXPECT_ERROR("index [7] out of range for array of size [5]", GET(v, NULL, VEC(EL_I32, 1, 2, 7)));

  /* writes */
  static const struct { unsigned mods; bool kernel; int64_t i; int64_t expect; } wr[] = {
    { TM_CIRCULAR, false, -1, 4 }, { TM_CIRCULAR, false, 12, 2 }, { TM_MIRROR, false, 5, 4 },
    { TM_MIRROR, false, -2, 2 }, { TM_CLAMPED, false, 100, 4 }, { TM_CLAMPED, false, -3, 0 },
    { TM_SAFE, false, 5, -1 }, { 0, true, -1, -1 }, { TM_SAFE, true, 2, 2 },
  };
  for (size_t t = 0; t < sizeof wr / sizeof wr[0]; t++) {
    Value w = mk(EL_F32, 1, DIMS(5), NULL);
    IndexCtx ctx = { .mods = wr[t].mods, .in_kernel = wr[t].kernel };
    SET(w, &ctx, v_int(9), v_int(wr[t].i));
    bool good = true;
    for (int64_t k = 0; k < 5; k++) good = good && at(w, k) == (k == wr[t].expect ? 9 : 0);
    CHECK(good, "write case %zu at %lld", t, (long long)wr[t].i);
  }
  Value w = mk(EL_F32, 1, DIMS(5), NULL);
  SET(w, &circ, VEC(EL_I32, 1, 2), VEC(EL_I32, -1, 5));
  CHECK(fmt_is(w, "[2,0,0,0,1]"), "circular slice write");
  SET(w, &safe, v_int(7), VEC(EL_I32, -1, 3, 5));
  CHECK(fmt_is(w, "[2,0,0,7,1]"), "safe slice write drops the outside elements");
  EXPECT_ERROR("index [5] out of range for array of size [5]", SET(w, &host, v_int(1), v_int(5)));
  EXPECT_ERROR("index [5] out of range", SET(w, &checked_k, v_int(1), v_int(5)));
  gc();
}

static void test_index_set_update(void) {
  IndexCtx host = { 0 };
  Value M = mkf(EL_F32, 2, DIMS(4, 5), f_m);
  SET(M, &host, v_scalar(-1), v_int(1), v_colon());
  CHECK(fmt_is(GET(M, &host, v_int(1), v_colon()), "[-1,-1,-1,-1,-1]"), "broadcast a number over a row");
  SET(M, &host, VEC(EL_I32, 1, 2, 3, 4), VEC(EL_I32, 0, 1), VEC(EL_I32, 0, 1));
  CHECK(fmt_is(GET(M, &host, VEC(EL_I32, 0, 1), VEC(EL_I32, 0, 1)), "[[1,2],\n [3,4]]"),
        "a vec of 4 fills a 2x2 slice in row-major order");
  SET(M, &host, v_scalar(0.5), v_int(3), v_int(4));
  CHECK(num(GET(M, &host, v_int(3), v_int(4))) == 0.5, "element write");
  SET(M, &host, v_int(8), VEC(EL_I32, 3, 4));
  CHECK(num(GET(M, &host, v_int(3), v_int(4))) == 8, "position write");
  EXPECT_ERROR("cannot assign 3 elements to a slice of 4 elements",
               SET(M, &host, VEC(EL_F32, 1, 2, 3), v_int(0), VEC(EL_I32, 0, 1, 2, 3)));
  EXPECT_ERROR("cannot store a cscalar in an element of a mat", SET(M, &host, v_cscalar(1, 1), v_int(0)));
  EXPECT_ERROR("cannot store a cvec in a mat", SET(M, &host, mk(EL_C64, 1, DIMS(5), NULL), v_int(0), v_colon()));
  EXPECT_ERROR("cannot store a string in an element of a mat", SET(M, &host, S("x"), v_int(0)));
  EXPECT_ERROR("cannot index a int", SET(v_int(3), &host, v_int(1), v_int(0)));

  Value v = mkf(EL_F32, 1, DIMS(5), f_k);
  SET(v, &host, v, VEC(EL_I32, 4, 3, 2, 1, 0));
  CHECK(fmt_is(v, "[4,3,2,1,0]"), "v[perm] = v reads the old values");
  SET(v, NULL, v_int(7));
  CHECK(fmt_is(v, "[7,7,7,7,7]"), "v[] = 7 fills");
  Value vi = mk(EL_I32, 1, DIMS(3), NULL), vu = mk(EL_U8, 1, DIMS(2), NULL);
  SET(vi, &host, v_scalar(2.7), v_int(0));
  SET(vi, &host, v_scalar(-2.7), v_int(1));
  SET(vu, &host, VEC(EL_F32, 300, -1), v_colon());
  CHECK(fmt_is(vi, "[2,-2,0]") && fmt_is(vu, "[44,255]"), "writes convert to the element type");
  Value vc = mk(EL_C64, 1, DIMS(2), NULL);
  SET(vc, &host, v_int(3), v_int(0));
  SET(vc, &host, v_cscalar(1, -1), v_int(1));
  CHECK(fmt_is(vc, "[3+0i,1-1i]"), "writes into a complex array");

  /* compound assignment */
  Value a = mk(EL_F32, 1, DIMS(4), (const double[]){ 1, 2, 3, 4 });
  Value r = UPD(a, &host, OP_ADD, v_int(1), v_int(2));
  CHECK(r.kind == V_SCALAR && r.s == 4 && at(a, 2) == 4, "a[2] += 1 returns the new value");
  r = UPD(a, &host, OP_MAX, v_int(10), v_int(0));
  CHECK(r.s == 10 && at(a, 0) == 10, "a[0] ^^= 10");
  r = UPD(a, &host, OP_MIN, v_int(0), v_int(1));
  CHECK(r.s == 0 && at(a, 1) == 0, "a[1] __= 0");
  r = UPD(a, &host, OP_MUL, v_scalar(0.5), v_int(3));
  CHECK(r.s == 2 && at(a, 3) == 2, "a[3] *= 0.5");
  r = UPD(a, &host, OP_SUB, v_int(1), v_colon());
  CHECK(r.kind == V_ARRAY && fmt_is(r, "[9,-1,3,1]") && fmt_is(a, "[9,-1,3,1]"), "a[:] -= 1 returns the slice");
  Value ia = mk(EL_I32, 1, DIMS(3), (const double[]){ 6, 7, 5 });
  r = UPD(ia, &host, OP_BAND, v_int(3), v_int(0));
  CHECK(r.kind == V_INT && r.i == 2 && at(ia, 0) == 2, "&= on an int array");
  r = UPD(ia, &host, OP_BOR, v_int(8), v_int(1));
  CHECK(r.i == 15, "|= on an int array");
  r = UPD(ia, &host, OP_BXOR, v_int(1), v_int(2));
  CHECK(r.i == 4, "~= on an int array");
  r = UPD(ia, &host, OP_DIV, v_int(2), v_int(1));
  CHECK(r.kind == V_INT && r.i == 7 && at(ia, 1) == 7, "int a[1] /= 2 stores and returns 7");
  r = UPD(ia, &host, OP_ADD, v_scalar(0.9), v_int(2));
  CHECK(r.kind == V_INT && r.i == 4 && at(ia, 2) == 4, "int a[2] += 0.9 truncates");
  IndexCtx safe = { .mods = TM_SAFE };
  r = UPD(a, &safe, OP_ADD, v_int(5), v_int(10));
  CHECK(r.s == 5 && fmt_is(a, "[9,-1,3,1]"), "safe update outside: reads 0, drops the write");
  IndexCtx circ = { .mods = TM_CIRCULAR };
  r = UPD(a, &circ, OP_ADD, v_int(5), v_int(-1));
  CHECK(r.s == 6 && at(a, 3) == 6, "circular update");
  EXPECT_ERROR("index [4] out of range", UPD(a, &host, OP_ADD, v_int(1), v_int(4)));
  EXPECT_ERROR("cannot store a cscalar in an element of a vec", UPD(a, &host, OP_ADD, v_cscalar(0, 1), v_int(0)));
  r = UPD(mk(EL_C64, 1, DIMS(1), NULL), &host, OP_ADD, v_cscalar(0, 1), v_int(0));
  CHECK(r.kind == V_CSCALAR && r.c.im == 1, "update of a complex element");
  r = UPD(mk(EL_U8, 1, DIMS(1), (const double[]){ 250 }), &host, OP_ADD, v_int(10), v_int(0));
  CHECK(r.kind == V_INT && r.i == 4, "uint8 a[0] += 10 wraps and returns the stored 4");
  r = UPD(a, &host, OP_ADD, v_int(1), VEC(EL_I32, 1));
  CHECK(r.kind == V_ARRAY && r.arr->numel == 1 && at(r, 0) == 0, "update of a one-element gather");
  EXPECT_ERROR("division by zero in mod", UPD(ia, &host, OP_MOD, v_int(0), v_int(0)));
  gc();
}

/* ---- printing ---- */

static void test_print(void) {
  static const struct { double x; const char *s; } reals[] = {
    { 0.5, "0.5" }, { RT_TEST_PI, "3.14159" }, { 1e6, "1e+06" }, { 5, "5" }, { -0.0, "0" },
    { 123456, "123456" }, { 1234567, "1.23457e+06" }, { 1e-5, "1e-05" }, { -2.25, "-2.25" },
    { NAN, "NaN" }, { INFINITY, "Inf" }, { -INFINITY, "-Inf" }, { 0.1, "0.1" }, { 100, "100" },
  };
  for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++)
    CHECK(fmt_is(v_scalar(reals[i].x), reals[i].s), "format %g", reals[i].x);
  CHECK(fmt_is(v_int(-42), "-42") && fmt_is(v_int(INT64_MIN), "-9223372036854775808"), "format int");
  CHECK(fmt_is(v_bool(true), "true") && fmt_is(v_bool(false), "false"), "format bool");
  CHECK(fmt_is(v_cscalar(1, 2), "1+2i") && fmt_is(v_cscalar(1, -2), "1-2i") &&
        fmt_is(v_cscalar(0, 1), "0+1i") && fmt_is(v_cscalar(-1.5, 0), "-1.5+0i") &&
        fmt_is(v_cscalar(0, -0.0), "0+0i"), "format complex");
  CHECK(fmt_is(S("raw \"text\""), "raw \"text\""), "format string");
  CHECK(fmt_is(VEC(EL_F32, 1, 2, 3), "[1,2,3]"), "format vec");
  CHECK(fmt_is(VEC(EL_F32, 0.5, -1, 1e6), "[0.5,-1,1e+06]"), "format vec of reals");
  CHECK(fmt_is(VEC(EL_I32, -1, 2), "[-1,2]"), "format int vec");
  CHECK(fmt_is(mk(EL_F32, 2, DIMS(2, 2), (const double[]){ 1, 2, 3, 4 }), "[[1,2],\n [3,4]]"), "format mat");
  CHECK(fmt_is(mk(EL_F32, 2, DIMS(2, 3), (const double[]){ 1, 2, 3, 4, 5, 6 }), "[[1,2,3],\n [4,5,6]]"), "format 2x3");
  CHECK(fmt_is(mk(EL_F32, 3, DIMS(2, 2, 2), (const double[]){ 1, 2, 3, 4, 5, 6, 7, 8 }),
               "[[[1,2],\n  [3,4]],\n [[5,6],\n  [7,8]]]"), "format cube");
  CHECK(fmt_is(mk(EL_F32, 2, DIMS(1, 3), (const double[]){ 1, 2, 3 }), "[[1,2,3]]"), "format 1x3");
  CHECK(fmt_is(mk(EL_F32, 1, DIMS(0), NULL), "[]") && fmt_is(mk(EL_F32, 2, DIMS(3, 0), NULL), "[]"), "format empty");
  Value c = mk(EL_C64, 1, DIMS(2), NULL);
  arr_set(c.arr, 0, v_cscalar(1, 2), L);
  arr_set(c.arr, 1, v_cscalar(3, -4), L);
  CHECK(fmt_is(c, "[1+2i,3-4i]"), "format cvec");
  Value tup = T(v_tuple(2));
  tup.tup->v[0] = v_int(1);
  tup.tup->v[1] = v_string("a", 1);
  CHECK(fmt_is(tup, "(1, a)"), "format tuple");
  CHECK(fmt_is(v_none(), "none") && fmt_is(v_colon(), ":"), "format none and colon");
  rt_config.double_precision = true;
  CHECK(fmt_is(v_scalar(0.1), "0.1") && fmt_is(v_scalar(1.0 / 3), "0.333333"), "double precision format");
  rt_config.double_precision = false;

  FILE *f = tmpfile();
  rt_print(f, mk(EL_I32, 2, DIMS(2, 1), (const double[]){ 7, 8 }));
  rewind(f);
  char buf[64] = { 0 };
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  CHECK(n == 11 && !strcmp(buf, "[[7],\n [8]]"), "rt_print writes the format without a newline: '%s'", buf);

  SrcFile *sf = srcfile_from_string("prog.q", "x = 1\ny = x[5]\n");
  SrcLoc loc = { sf, 2, 6 };
  IndexCtx ctx = { .loc = loc, .array_name = "x" };
  EXPECT_ERROR("prog.q:2:6: runtime error: index [5] out of range for array 'x' of size [1]\ny = x[5]\n     ^",
               GET(VEC(EL_F32, 1), &ctx, v_int(5)));
  free((void *)sf->path);
  free((void *)sf->text);
  free(sf);
  gc();
}

/* ---- builtins ---- */

static bool near(double a, double b, double tol) { return fabs(a - b) <= tol * (1 + fabs(b)); }

static void test_builtin_table(void) {
  static const char *names[] = {
    "size", "numel", "ndims", "zeros", "ones", "uninit", "copy", "sum", "prod", "mean", "min",
    "max", "abs", "sqrt", "exp", "log", "log2", "log10", "sin", "cos", "tan", "asin", "acos",
    "atan", "atan2", "sinh", "cosh", "tanh", "floor", "ceil", "round", "frac", "sign", "mod",
    "float", "int", "complex", "real", "imag", "conj", "angle", "isnan", "isinf", "isfinite",
    "clamp", "and", "or", "xor", "not", "shl", "shr", "pos2ind", "ind2pos", "linspace",
    "cumsum", "reshape", "transpose", "repmat", "rand", "randn", "prevpow2", "nextpow2",
    "isempty", "isscalar", "sprintf", "printf", "string", "num2str", "strcat",
  };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    const Builtin *b = rt_builtin_lookup(names[i]);
    CHECK(b && !strcmp(b->name, names[i]) && b->fn && b->min_args >= 0 &&
          (b->max_args == -1 || b->max_args >= b->min_args), "builtin %s", names[i]);
  }
  CHECK(!rt_builtin_lookup("nosuch") && !rt_builtin_lookup("vec") && !rt_builtin_lookup("pi"), "unknown builtins");
  const Builtin *b = rt_builtin_lookup("clamp");
  CHECK(b->min_args == 3 && b->max_args == 3, "clamp arity");
  b = rt_builtin_lookup("zeros");
  CHECK(b->min_args == 1 && b->max_args == -1, "zeros arity");

  bool found;
  Value c = rt_constant("pi", &found);
  CHECK(found && c.kind == V_SCALAR && c.s == (float)RT_TEST_PI, "pi");
  c = rt_constant("e", &found);
  CHECK(found && c.s == (float)exp(1.0), "e");
  c = rt_constant("Inf", &found);
  CHECK(found && isinf(c.s) && c.s > 0, "Inf");
  c = rt_constant("NaN", &found);
  CHECK(found && isnan(c.s), "NaN");
  c = rt_constant("eps", &found);
  CHECK(found && c.s == FLT_EPSILON, "eps single");
  rt_config.double_precision = true;
  c = rt_constant("eps", &found);
  CHECK(found && c.s == DBL_EPSILON, "eps double");
  c = rt_constant("pi", &found);
  CHECK(c.s == RT_TEST_PI, "pi double");
  rt_config.double_precision = false;
  c = rt_constant("true", &found);
  CHECK(found && c.kind == V_BOOL && c.i == 1, "true");
  c = rt_constant("false", &found);
  CHECK(found && c.kind == V_BOOL && c.i == 0, "false");
  c = rt_constant("x", &found);
  CHECK(!found && c.kind == V_NONE, "not a constant");
}

static void test_builtin_sizes(void) {
  Value M = mkf(EL_F32, 2, DIMS(4, 5), f_m), Cb = mkf(EL_F32, 3, DIMS(3, 4, 2), f_c);
  Value v = mkf(EL_F32, 1, DIMS(6), f_k);
  Value r = CALL("size", M);
  CHECK(r.arr->elem == EL_I32 && fmt_is(r, "[4,5]"), "size(mat)");
  CHECK(fmt_is(CALL("size", v), "[6]") && fmt_is(CALL("size", v_scalar(2)), "[1,1]") &&
        fmt_is(CALL("size", Cb), "[3,4,2]"), "size of vec, scalar, cube");
  r = CALL("size", M, v_int(0));
  CHECK(r.kind == V_INT && r.i == 4, "size(M, 0)");
  r = CALL("size", M, v_int(4));
  CHECK(r.kind == V_INT && r.i == 1, "size(M, 4) past the rank");
  CHECK(fmt_is(CALL("size", Cb, VEC(EL_I32, 0, 1)), "[3,4]"), "size(C, 0..1)");
  CHECK(fmt_is(CALL("size", Cb, VEC(EL_I32, 2, 3)), "[2,1]"), "size(C, [2,3])");
  EXPECT_ERROR("size: negative dimension -1", CALL("size", M, v_int(-1)));
  EXPECT_ERROR("size: expected an array, got function", CALL("size", v_func(NULL)));
  CHECK(CALL("numel", Cb).i == 24 && CALL("numel", v_int(3)).i == 1 && CALL("numel", S("abc")).i == 3, "numel");
  CHECK(CALL("ndims", Cb).i == 3 && CALL("ndims", v).i == 1 && CALL("ndims", v_scalar(1)).i == 2, "ndims");
  CHECK(CALL("isempty", mk(EL_F32, 1, DIMS(0), NULL)).i == 1 && CALL("isempty", v).i == 0 &&
        CALL("isempty", S("")).i == 1 && CALL("isempty", v_int(0)).i == 0, "isempty");
  CHECK(CALL("isscalar", v_int(1)).i == 1 && CALL("isscalar", v).i == 0, "isscalar");

  r = CALL("zeros", v_int(3));
  CHECK(r.arr->elem == EL_F32 && dims_are(r, 1, DIMS(3)) && fmt_is(r, "[0,0,0]"), "zeros(3)");
  r = CALL("zeros", v_int(2), v_scalar(3));
  CHECK(dims_are(r, 2, DIMS(2, 3)), "zeros(2, 3)");
  r = CALL("zeros", VEC(EL_I32, 2, 3, 4));
  CHECK(dims_are(r, 3, DIMS(2, 3, 4)) && r.arr->numel == 24, "zeros([2,3,4])");
  r = CALL("zeros", CALL("size", M));
  CHECK(dims_are(r, 2, DIMS(4, 5)), "zeros(size(M))");
  r = CALL("ones", v_int(2), v_int(2));
  CHECK(fmt_is(r, "[[1,1],\n [1,1]]"), "ones(2,2)");
  r = CALL("uninit", v_int(2), v_int(1), v_int(3));
  CHECK(dims_are(r, 3, DIMS(2, 1, 3)), "uninit(2,1,3)");
  rt_config.double_precision = true;
  r = CALL("zeros", v_int(2));
  CHECK(r.arr->elem == EL_F64, "zeros in double precision");
  rt_config.double_precision = false;
  EXPECT_ERROR("zeros: expected sizes, got string", CALL("zeros", S("a")));
  EXPECT_ERROR("zeros: negative size -1", CALL("zeros", v_int(-1)));
  EXPECT_ERROR("ones: expected sizes, got vec", CALL("ones", v_int(2), VEC(EL_F32, 1)));

  r = CALL("copy", M);
  arr_store(r.arr, 0, 99);
  CHECK(r.arr != M.arr && at(M, 0) == 0 && at(r, 0) == 99 && r.arr->refcount == 1, "copy is deep");
  r = CALL("copy", v_int(3));
  CHECK(r.kind == V_INT && r.i == 3, "copy of a number");
  gc();
}

static void test_builtin_reductions(void) {
  Value M = mkf(EL_F32, 2, DIMS(4, 5), f_a), MI = mkf(EL_I32, 2, DIMS(4, 5), f_int);
  double s = 0, p = 1, mn = INFINITY, mx = -INFINITY;
  int64_t si = 0, pi = 1, mni = INT64_MAX;
  for (int k = 0; k < 20; k++) {
    double x = (float)f_a(k);
    s += x; p *= x; mn = fmin(mn, x); mx = fmax(mx, x);
    si += (int64_t)f_int(k); pi *= (int64_t)f_int(k) ? (int64_t)f_int(k) : 1;
    mni = (int64_t)f_int(k) < mni ? (int64_t)f_int(k) : mni;
  }
  Value r = CALL("sum", M);
  CHECK(r.kind == V_SCALAR && r.s == (float)s, "sum of a mat: %g vs %g", r.s, s);
  r = CALL("prod", M);
  CHECK(r.kind == V_SCALAR && near(r.s, p, 1e-6), "prod");
  r = CALL("mean", M);
  CHECK(r.kind == V_SCALAR && r.s == (float)(s / 20), "mean");
  r = CALL("min", M);
  CHECK(r.kind == V_SCALAR && r.s == mn, "min");
  r = CALL("max", M);
  CHECK(r.kind == V_SCALAR && r.s == mx, "max");
  r = CALL("sum", MI);
  CHECK(r.kind == V_INT && r.i == si, "sum of an int array is int");
  r = CALL("min", MI);
  CHECK(r.kind == V_INT && r.i == mni, "min of an int array is int");
  r = CALL("mean", VEC(EL_I32, 1, 2));
  CHECK(r.kind == V_SCALAR && r.s == 1.5, "mean of ints is real");
  r = CALL("prod", VEC(EL_I32, 2, 3, 4));
  CHECK(r.kind == V_INT && r.i == 24, "prod of ints");
  (void)pi;
  CHECK(CALL("sum", v_int(3)).i == 3 && CALL("max", v_scalar(2.5)).s == 2.5, "reductions of a number");
  CHECK(CALL("sum", mk(EL_F32, 1, DIMS(0), NULL)).s == 0 && CALL("prod", mk(EL_F32, 1, DIMS(0), NULL)).s == 1,
        "empty sum and prod");
  EXPECT_ERROR("max: empty array", CALL("max", mk(EL_F32, 1, DIMS(0), NULL)));
  r = CALL("max", VEC(EL_F32, NAN, 1, 3, NAN));
  CHECK(r.s == 3, "max skips NaN");

  /* along a dimension */
  r = CALL("sum", M, v_int(0));
  bool ok = dims_are(r, 1, DIMS(5));
  for (int j = 0; ok && j < 5; j++) {
    double t = 0;
    for (int i = 0; i < 4; i++) t += (float)f_a(i * 5 + j);
    ok = at(r, j) == (float)t;
  }
  CHECK(ok, "sum(M, 0): column sums");
  r = CALL("sum", M, v_int(1));
  ok = dims_are(r, 2, DIMS(4, 1));
  for (int i = 0; ok && i < 4; i++) {
    double t = 0;
    for (int j = 0; j < 5; j++) t += (float)f_a(i * 5 + j);
    ok = at(r, i) == (float)t;
  }
  CHECK(ok, "sum(M, 1): row sums");
  Value Cb = mkf(EL_F32, 3, DIMS(3, 4, 2), f_c);
  r = CALL("max", Cb);
  CHECK(r.s == 231, "max of a cube");
  r = CALL("mean", Cb, v_int(2));
  ok = dims_are(r, 2, DIMS(3, 4));
  for (int i = 0; ok && i < 3; i++)
    for (int j = 0; j < 4; j++) ok = ok && at(r, i * 4 + j) == 100 * i + 10 * j + 0.5;
  CHECK(ok, "mean(C, 2)");
  r = CALL("prod", MI, v_int(1));
  CHECK(r.arr->elem == EL_I32 && dims_are(r, 2, DIMS(4, 1)), "prod(int mat, 1) is an int column");
  r = CALL("sum", VEC(EL_F32, 1, 2, 3), v_int(1));   /* a vec is a 1 x N row */
  CHECK(dims_are(r, 1, DIMS(1)) && at(r, 0) == 6, "sum(vec, 1) sums the row");
  r = CALL("sum", VEC(EL_F32, 1, 2, 3), v_int(0));
  CHECK(dims_are(r, 1, DIMS(3)) && at(r, 2) == 3, "sum(vec, 0) is the vec");
  r = CALL("sum", M, v_int(2));
  CHECK(dims_are(r, 2, DIMS(4, 5)) && at(r, 7) == (float)f_a(7), "sum along a dimension of size 1");

  /* element-wise min/max */
  r = CALL("max", VEC(EL_I32, 1, 5, 3), v_int(2));
  CHECK(r.arr->elem == EL_I32 && fmt_is(r, "[2,5,3]"), "max(ivec, 2)");
  r = CALL("min", VEC(EL_F32, 1, 5, 3), VEC(EL_F32, 4, 0, 3));
  CHECK(fmt_is(r, "[1,0,3]"), "min(a, b)");
  r = CALL("max", v_int(3), v_scalar(2.5));
  CHECK(r.kind == V_SCALAR && r.s == 3, "max(int, scalar) is scalar");
  EXPECT_ERROR("max: shape mismatch: [2] and [3]", CALL("max", VEC(EL_F32, 1, 2), VEC(EL_F32, 1, 2, 3)));

  /* complex sums */
  Value C = mk(EL_C64, 1, DIMS(2), NULL);
  arr_set(C.arr, 0, v_cscalar(1, 2), L);
  arr_set(C.arr, 1, v_cscalar(3, -1), L);
  r = CALL("sum", C);
  CHECK(r.kind == V_CSCALAR && r.c.re == 4 && r.c.im == 1, "sum of a cvec");
  r = CALL("prod", C);
  CHECK(r.kind == V_CSCALAR && r.c.re == 5 && r.c.im == 5, "prod of a cvec");
  EXPECT_ERROR("max: complex numbers have no order", CALL("max", C));

  /* cumsum */
  r = CALL("cumsum", VEC(EL_I32, 1, 2, 3, 4));
  CHECK(r.arr->elem == EL_I32 && fmt_is(r, "[1,3,6,10]"), "cumsum of an int vec");
  r = CALL("cumsum", VEC(EL_F32, 0.5, 0.25));
  CHECK(fmt_is(r, "[0.5,0.75]"), "cumsum of a vec");
  Value M2 = mk(EL_F32, 2, DIMS(2, 3), (const double[]){ 1, 2, 3, 4, 5, 6 });
  CHECK(fmt_is(CALL("cumsum", M2), "[[1,2,3],\n [5,7,9]]"), "cumsum(mat) down the columns");
  CHECK(fmt_is(CALL("cumsum", M2, v_int(1)), "[[1,3,6],\n [4,9,15]]"), "cumsum(mat, 1) along rows");
  CHECK(fmt_is(CALL("cumsum", mk(EL_F32, 2, DIMS(1, 3), (const double[]){ 1, 1, 1 })), "[[1,2,3]]"),
        "cumsum of a 1xN matrix along its long dim");
  gc();
}

static void test_builtin_math(void) {
  static const double xs[] = { -2.5, -1, -0.5, 0, 0.3, 0.5, 1, 2, 2.5, 10 };
  static const struct { const char *name; double (*f)(double); } fns[] = {
    { "sqrt", sqrt }, { "exp", exp }, { "log", log }, { "log2", log2 }, { "log10", log10 },
    { "sin", sin }, { "cos", cos }, { "tan", tan }, { "asin", asin }, { "acos", acos },
    { "atan", atan }, { "sinh", sinh }, { "cosh", cosh }, { "tanh", tanh }, { "floor", floor },
    { "ceil", ceil }, { "round", round }, { "abs", fabs },
  };
  Value arr = mk(EL_F32, 1, DIMS(10), xs);
  for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) {
    Value r = CALL(fns[i].name, arr);
    bool ok = r.kind == V_ARRAY && r.arr->elem == EL_F32 && dims_are(r, 1, DIMS(10));
    for (int k = 0; ok && k < 10; k++) {
      double e = (float)fns[i].f((float)xs[k]);
      Value one = CALL(fns[i].name, v_scalar(xs[k]));
      ok = (at(r, k) == e || (isnan(e) && isnan(at(r, k)))) && one.kind == V_SCALAR &&
           (one.s == e || (isnan(e) && isnan(one.s)));
      if (!ok) printf("  %s(%g) = %g, expected %g\n", fns[i].name, xs[k], at(r, k), e);
    }
    CHECK(ok, "%s element-wise against libm", fns[i].name);
  }
  Value r = CALL("sqrt", v_int(-4));
  CHECK(r.kind == V_SCALAR && isnan(r.s), "sqrt of a negative real is NaN");
  r = CALL("sqrt", v_int(16));
  CHECK(r.kind == V_SCALAR && r.s == 4, "sqrt(int) is scalar");
  r = CALL("abs", v_int(-3));
  CHECK(r.kind == V_INT && r.i == 3, "abs(int) stays int");
  r = CALL("abs", v_cscalar(3, -4));
  CHECK(r.kind == V_SCALAR && r.s == 5, "abs(complex) is the magnitude");
  r = CALL("abs", VEC(EL_I32, -2, 2));
  CHECK(r.arr->elem == EL_I32 && fmt_is(r, "[2,2]"), "abs(int vec)");
  r = CALL("round", VEC(EL_F32, 2.5, -2.5, 0.5, -0.5, 1.49));
  CHECK(fmt_is(r, "[3,-3,1,-1,1]"), "round halves away from zero");
  r = CALL("floor", v_int(7));
  CHECK(r.kind == V_INT && r.i == 7, "floor(int) is int");
  r = CALL("floor", v_scalar(-2.5));
  CHECK(r.kind == V_SCALAR && r.s == -3, "floor(-2.5)");
  r = CALL("frac", VEC(EL_F32, -1.25, 2.75, 3));
  CHECK(fmt_is(r, "[0.75,0.75,0]"), "frac = x - floor(x)");
  r = CALL("sign", VEC(EL_F32, -3, 0, 2));
  CHECK(fmt_is(r, "[-1,0,1]"), "sign");
  r = CALL("sign", v_int(-9));
  CHECK(r.kind == V_INT && r.i == -1, "sign(int)");
  r = CALL("float", v_int(3));
  CHECK(r.kind == V_SCALAR && r.s == 3, "float(int)");
  r = CALL("float", VEC(EL_I32, 1, 2));
  CHECK(r.arr->elem == EL_F32, "float(int vec) is a vec");
  r = CALL("int", v_scalar(-2.7));
  CHECK(r.kind == V_INT && r.i == -2, "int(-2.7)");
  r = CALL("int", VEC(EL_F32, 2.9, -2.9));
  CHECK(r.arr->elem == EL_I32 && fmt_is(r, "[2,-2]"), "int(vec)");
  EXPECT_ERROR("int: expected a real number, got cscalar", CALL("int", v_cscalar(1, 1)));
  EXPECT_ERROR("floor: expected a real number, got cscalar", CALL("floor", v_cscalar(1, 1)));
  EXPECT_ERROR("sqrt: expected a number or an array, got string", CALL("sqrt", S("x")));

  /* complex functions */
  r = CALL("complex", v_int(1), v_scalar(2));
  CHECK(r.kind == V_CSCALAR && r.c.re == 1 && r.c.im == 2, "complex(1, 2)");
  r = CALL("complex", v_scalar(0), v_scalar(INFINITY));
  CHECK(r.c.re == 0 && isinf(r.c.im), "complex(0, Inf) has no NaN");
  r = CALL("complex", v_int(3));
  CHECK(r.kind == V_CSCALAR && r.c.re == 3 && r.c.im == 0, "complex(3)");
  r = CALL("complex", VEC(EL_F32, 1, 2), v_int(-1));
  CHECK(r.arr->elem == EL_C64 && fmt_is(r, "[1-1i,2-1i]"), "complex(vec, int)");
  Value z = v_cscalar(3, -4);
  CHECK(CALL("real", z).s == 3 && CALL("imag", z).s == -4, "real, imag");
  r = CALL("conj", z);
  CHECK(r.kind == V_CSCALAR && r.c.re == 3 && r.c.im == 4, "conj");
  r = CALL("angle", v_cscalar(0, 1));
  CHECK(r.s == (float)(RT_TEST_PI / 2), "angle(i)");
  r = CALL("angle", v_scalar(-1));
  CHECK(r.s == (float)RT_TEST_PI, "angle(-1)");
  r = CALL("real", VEC(EL_F32, 5));
  CHECK(fmt_is(r, "[5]"), "real of a real vec");
  r = CALL("imag", VEC(EL_I32, 5));
  CHECK(fmt_is(r, "[0]"), "imag of an int vec");
  r = CALL("sqrt", v_cscalar(-4, 0));
  CHECK(r.kind == V_CSCALAR && r.c.re == 0 && r.c.im == 2, "sqrt(complex -4) = 2i");
  r = CALL("exp", v_cscalar(0, RT_TEST_PI));
  CHECK(near(r.c.re, -1, 1e-6) && fabs(r.c.im) < 1e-6, "exp(i pi) = -1");

  /* tests */
  CHECK(CALL("isnan", v_scalar(NAN)).kind == V_BOOL && CALL("isnan", v_scalar(NAN)).i == 1 &&
        CALL("isnan", v_int(1)).i == 0, "isnan");
  CHECK(CALL("isinf", v_scalar(-INFINITY)).i == 1 && CALL("isfinite", v_scalar(INFINITY)).i == 0 &&
        CALL("isfinite", v_int(3)).i == 1, "isinf, isfinite");
  r = CALL("isnan", VEC(EL_F32, 1, NAN, INFINITY));
  CHECK(r.arr->elem == EL_I32 && fmt_is(r, "[0,1,0]"), "isnan(vec)");
  CHECK(fmt_is(CALL("isfinite", VEC(EL_F32, 1, NAN, INFINITY)), "[1,0,0]"), "isfinite(vec)");
  CHECK(CALL("isnan", v_cscalar(1, NAN)).i == 1, "isnan(complex)");

  /* two arguments */
  r = CALL("atan2", v_int(1), v_int(-1));
  CHECK(r.kind == V_SCALAR && r.s == (float)atan2(1, -1), "atan2");
  r = CALL("atan2", VEC(EL_F32, 1, -1), v_int(0));
  CHECK(r.arr->elem == EL_F32 && at(r, 1) == (float)atan2(-1, 0), "atan2(vec, 0)");
  r = CALL("mod", v_int(-7), v_int(3));
  CHECK(r.kind == V_INT && r.i == -1, "mod(-7, 3)");
  r = CALL("mod", VEC(EL_F32, 5.5, -5.5), v_int(2));
  CHECK(fmt_is(r, "[1.5,-1.5]"), "mod(vec, 2)");
  EXPECT_ERROR("division by zero in mod", CALL("mod", v_int(3), v_int(0)));
  CHECK(CALL("and", v_int(5), v_int(3)).i == 1 && CALL("or", v_int(5), v_int(3)).i == 7 &&
        CALL("xor", v_int(6), v_int(3)).i == 5 && CALL("not", v_int(5)).i == -6, "bitwise functions");
  r = CALL("and", VEC(EL_I32, 12, 10), v_int(6));
  CHECK(r.arr->elem == EL_I32 && fmt_is(r, "[4,2]"), "and(ivec, 6)");
  r = CALL("xor", v_scalar(6.9), v_int(3));
  CHECK(r.kind == V_INT && r.i == 5, "xor truncates reals");
  CHECK(fmt_is(CALL("not", VEC(EL_I32, 0, -1)), "[-1,0]"), "not(ivec)");
  CHECK(CALL("shl", v_int(1), v_int(4)).i == 16 && CALL("shr", v_int(-16), v_int(2)).i == -4 &&
        CALL("shr", v_int(256), v_int(4)).i == 16 && CALL("shl", v_int(1), v_int(70)).i == 0, "shl, shr");
  CHECK(fmt_is(CALL("shl", VEC(EL_I32, 1, 2, 3), v_int(2)), "[4,8,12]"), "shl(ivec, 2)");
  EXPECT_ERROR("and: expected real numbers, got cscalar", CALL("and", v_cscalar(1, 0), v_int(1)));
  r = CALL("clamp", v_int(5), v_int(0), v_int(3));
  CHECK(r.kind == V_INT && r.i == 3, "clamp(5, 0, 3)");
  r = CALL("clamp", v_scalar(-0.5), v_int(0), v_int(1));
  CHECK(r.kind == V_SCALAR && r.s == 0, "clamp(-0.5, 0, 1)");
  r = CALL("clamp", VEC(EL_F32, -1, 0.5, 2), v_int(0), v_int(1));
  CHECK(fmt_is(r, "[0,0.5,1]"), "clamp(vec, 0, 1)");
  CHECK(CALL("prevpow2", v_int(100)).i == 64 && CALL("prevpow2", v_int(64)).i == 64 &&
        CALL("prevpow2", v_scalar(1.5)).i == 1 && CALL("nextpow2", v_int(100)).i == 128 &&
        CALL("nextpow2", v_int(64)).i == 64 && CALL("nextpow2", v_int(1)).i == 1 &&
        CALL("nextpow2", v_scalar(0.3)).i == 1, "prevpow2, nextpow2");
  CHECK(fmt_is(CALL("nextpow2", VEC(EL_I32, 3, 17)), "[4,32]"), "nextpow2(vec)");
  EXPECT_ERROR("prevpow2: argument must be in [1, 2^63), got 0", CALL("prevpow2", v_int(0)));
  gc();
}

static void test_builtin_arrays(void) {
  /* pos2ind / ind2pos: row-major, the last index fastest */
  Value dims = VEC(EL_I32, 3, 4, 5);
  Value r = CALL("pos2ind", dims, VEC(EL_I32, 1, 2, 3));
  CHECK(r.kind == V_INT && r.i == 1 * 20 + 2 * 5 + 3, "pos2ind([3,4,5], [1,2,3])");
  r = CALL("ind2pos", dims, v_int(23));
  CHECK(r.arr->elem == EL_I32 && fmt_is(r, "[1,0,3]"), "ind2pos([3,4,5], 23)");
  bool ok = true;
  for (int64_t ind = 0; ind < 60; ind++) {
    Value pos = CALL("ind2pos", dims, v_int(ind));
    Value back = CALL("pos2ind", dims, pos);
    ok = ok && back.i == ind && at(pos, 0) == ind / 20 && at(pos, 1) == ind / 5 % 4 && at(pos, 2) == ind % 5;
  }
  CHECK(ok, "ind2pos / pos2ind round trip over [3,4,5]");
  CHECK(CALL("pos2ind", VEC(EL_I32, 4, 5), VEC(EL_I32, 2)).i == 10, "pos2ind with a short position");
  CHECK(fmt_is(CALL("ind2pos", VEC(EL_I32, 2, 16), v_int(35)), "[2,3]"), "ind2pos: first dim takes the rest");
  Value M = mkf(EL_F32, 2, DIMS(4, 5), f_m);
  IndexCtx host = { 0 };
  ok = true;
  for (int64_t ind = 0; ind < 20; ind++)
    ok = ok && num(GET(M, &host, CALL("ind2pos", CALL("size", M), v_int(ind)))) == num(GET(M, &host, v_int(ind)));
  CHECK(ok, "x[ind2pos(size(x), i)] == x[i]");

  r = CALL("linspace", v_int(0), v_int(1), v_int(5));
  CHECK(r.arr->elem == EL_F32 && fmt_is(r, "[0,0.25,0.5,0.75,1]"), "linspace(0,1,5)");
  CHECK(fmt_is(CALL("linspace", v_int(2), v_int(3), v_int(1)), "[3]"), "linspace with one point");
  CHECK(fmt_is(CALL("linspace", v_int(2), v_int(3), v_int(0)), "[]"), "linspace with none");

  Value v6 = mkf(EL_F32, 1, DIMS(6), f_k);
  r = CALL("reshape", v6, v_int(2), v_int(3));
  CHECK(fmt_is(r, "[[0,1,2],\n [3,4,5]]"), "reshape(v, 2, 3)");
  r = CALL("reshape", v6, VEC(EL_I32, 3, 2));
  CHECK(dims_are(r, 2, DIMS(3, 2)) && at(r, 5) == 5, "reshape(v, [3,2])");
  EXPECT_ERROR("reshape: cannot reshape 6 elements to [4,2]", CALL("reshape", v6, v_int(4), v_int(2)));

  Value A = mkf(EL_F32, 2, DIMS(3, 4), f_a);
  r = CALL("transpose", A);
  ok = dims_are(r, 2, DIMS(4, 3));
  for (int i = 0; ok && i < 3; i++)
    for (int j = 0; j < 4; j++) ok = ok && at(r, j * 3 + i) == at(A, i * 4 + j);
  CHECK(ok, "transpose(mat)");
  r = CALL("transpose", VEC(EL_I32, 1, 2, 3));
  CHECK(dims_are(r, 2, DIMS(3, 1)) && r.arr->elem == EL_I32, "transpose(vec) is a column");
  EXPECT_ERROR("transpose: expected a vector or a matrix, got cube", CALL("transpose", mk(EL_F32, 3, DIMS(1, 1, 2), NULL)));

  r = CALL("repmat", mk(EL_F32, 2, DIMS(1, 2), (const double[]){ 1, 2 }), VEC(EL_I32, 2, 3));
  CHECK(fmt_is(r, "[[1,2,1,2,1,2],\n [1,2,1,2,1,2]]"), "repmat([[1,2]], [2,3])");
  r = CALL("repmat", VEC(EL_I32, 1, 2), v_int(2), v_int(2));
  CHECK(r.arr->elem == EL_I32 && fmt_is(r, "[[1,2,1,2],\n [1,2,1,2]]"), "repmat(vec, 2, 2): a vec is a row");
  r = CALL("repmat", VEC(EL_F32, 1, 2), v_int(3));
  CHECK(fmt_is(r, "[1,2,1,2,1,2]"), "repmat(vec, 3)");
  r = CALL("repmat", mk(EL_F32, 2, DIMS(2, 1), (const double[]){ 1, 2 }), VEC(EL_I32, 1, 3));
  CHECK(fmt_is(r, "[[1,1,1],\n [2,2,2]]"), "repmat(column, [1,3])");
  r = CALL("repmat", v_scalar(0.5), VEC(EL_I32, 2, 2));
  CHECK(fmt_is(r, "[[0.5,0.5],\n [0.5,0.5]]"), "repmat(number, [2,2])");
  Value Cb = mkf(EL_F32, 3, DIMS(3, 4, 2), f_c);
  r = CALL("repmat", Cb, VEC(EL_I32, 1, 2, 3));
  ok = dims_are(r, 3, DIMS(3, 8, 6));
  for (int i = 0; ok && i < 3; i++)
    for (int j = 0; j < 8; j++)
      for (int k = 0; k < 6; k++) ok = ok && at(r, (i * 8 + j) * 6 + k) == 100 * i + 10 * (j % 4) + k % 2;
  CHECK(ok, "repmat(cube, [1,2,3])");

  /* random numbers */
  rt_seed_random(42);
  Value u = CALL("rand", v_int(10000));
  rt_seed_random(42);
  Value u2 = CALL("rand", v_int(100), v_int(100));
  ok = u.arr->elem == EL_F32 && dims_are(u2, 2, DIMS(100, 100));
  double sum = 0;
  for (int k = 0; ok && k < 10000; k++) {
    ok = at(u, k) >= 0 && at(u, k) < 1 && at(u, k) == at(u2, k);
    sum += at(u, k);
  }
  CHECK(ok, "rand in [0,1) and repeatable from the seed");
  CHECK(fabs(sum / 10000 - 0.5) < 0.02, "rand mean %g", sum / 10000);
  Value g = CALL("randn", v_int(20000));
  double m = 0, var = 0;
  for (int k = 0; k < 20000; k++) m += at(g, k);
  m /= 20000;
  for (int k = 0; k < 20000; k++) var += (at(g, k) - m) * (at(g, k) - m);
  var /= 20000;
  CHECK(fabs(m) < 0.03 && fabs(var - 1) < 0.05, "randn mean %g variance %g", m, var);
  r = CALL("rand");
  CHECK(r.kind == V_SCALAR && r.s >= 0 && r.s < 1, "rand() is a number");
  r = CALL("randn", v_int(2), v_int(3), v_int(4));
  CHECK(dims_are(r, 3, DIMS(2, 3, 4)), "randn(2,3,4)");
  rt_seed_random(7);
  double a1 = CALL("rand").s;
  rt_seed_random(8);
  double a2 = CALL("rand").s;
  CHECK(a1 != a2, "different seeds differ");
  gc();
}

static void test_builtin_strings(void) {
  static const struct { const char *fmt; Value arg; const char *expect; } tab[] = {
    { "%d", { V_INT, .i = 42 }, "42" }, { "%i", { V_INT, .i = -7 }, "-7" },
    { "%5d|", { V_INT, .i = 42 }, "   42|" }, { "%-5d|", { V_INT, .i = 42 }, "42   |" },
    { "%03d", { V_INT, .i = 7 }, "007" }, { "%d", { V_SCALAR, .s = 3.9 }, "3" },
    { "%x", { V_INT, .i = 255 }, "ff" }, { "%X", { V_INT, .i = 255 }, "FF" },
    { "%o", { V_INT, .i = 8 }, "10" }, { "%u", { V_INT, .i = 5 }, "5" },
    { "%c", { V_INT, .i = 65 }, "A" }, { "%f", { V_SCALAR, .s = 1.5 }, "1.500000" },
    { "%.2f", { V_SCALAR, .s = 3.14159 }, "3.14" }, { "%8.3f|", { V_INT, .i = 2 }, "   2.000|" },
    { "%e", { V_SCALAR, .s = 1234.5 }, "1.234500e+03" }, { "%g", { V_SCALAR, .s = 0.0001 }, "0.0001" },
    { "%G", { V_SCALAR, .s = 1e-10 }, "1E-10" }, { "%d", { V_BOOL, .i = 1 }, "1" },
    { "%s", { V_INT, .i = 12 }, "12" }, { "%s", { V_SCALAR, .s = 0.5 }, "0.5" },
    { "%+d", { V_INT, .i = 3 }, "+3" },
  };
  for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
    Value r = CALL("sprintf", S(tab[i].fmt), tab[i].arg);
    CHECK(r.kind == V_STRING && fmt_is(r, tab[i].expect), "sprintf(\"%s\")", tab[i].fmt);
  }
  CHECK(fmt_is(CALL("sprintf", S("a=%d, b=%s, %%, c=%.1f"), v_int(1), S("two"), v_scalar(2.25)),
               "a=1, b=two, %, c=2.2"), "sprintf with several arguments");
  CHECK(fmt_is(CALL("sprintf", S("%s|%5s|%-4s|"), S("x"), S("ab"), S("c")), "x|   ab|c   |"), "sprintf %%s widths");
  CHECK(fmt_is(CALL("sprintf", S("v=%s"), VEC(EL_I32, 1, 2)), "v=[1,2]"), "sprintf %%s of an array");
  CHECK(fmt_is(CALL("sprintf", S("plain")), "plain"), "sprintf without conversions");
  EXPECT_ERROR("sprintf: '%d' expects a number, got string", CALL("sprintf", S("%d"), S("x")));
  EXPECT_ERROR("sprintf: '%f' expects a number, got vec", CALL("sprintf", S("%f"), VEC(EL_F32, 1)));
  EXPECT_ERROR("sprintf: '%f' expects a number, got cscalar", CALL("sprintf", S("%f"), v_cscalar(1, 1)));
  EXPECT_ERROR("sprintf: not enough arguments for the format", CALL("sprintf", S("%d %d"), v_int(1)));
  EXPECT_ERROR("sprintf: too many arguments for the format", CALL("sprintf", S("%d"), v_int(1), v_int(2)));
  EXPECT_ERROR("sprintf: unsupported conversion '%q'", CALL("sprintf", S("%q"), v_int(1)));
  EXPECT_ERROR("sprintf: expected a format string, got int", CALL("sprintf", v_int(1)));
  EXPECT_ERROR("printf: not enough arguments", CALL("printf", S("%s")));

  /* printf writes to stdout: run it in a child with stdout in a pipe */
  int fd[2];
  fflush(stdout);
  if (pipe(fd)) abort();
  pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    dup2(fd[1], 1);
    Value r = CALL("printf", S("n=%d s=%s\n"), v_int(3), S("ok"));
    fflush(stdout);
    _exit(r.kind == V_NONE ? 0 : 3);
  }
  close(fd[1]);
  char buf[256] = { 0 };
  size_t n = 0;
  for (ssize_t got; n < sizeof buf - 1 && (got = read(fd[0], buf + n, sizeof buf - 1 - n)) > 0;) n += (size_t)got;
  close(fd[0]);
  int status;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0 && !strcmp(buf, "n=3 s=ok\n"), "printf output '%s'", buf);

  CHECK(fmt_is(CALL("string", v_scalar(3.5)), "3.5") && fmt_is(CALL("num2str", v_int(-2)), "-2") &&
        fmt_is(CALL("string", VEC(EL_F32, 1, 2)), "[1,2]") && CALL("num2str", v_int(1)).kind == V_STRING,
        "string, num2str");
  Value r = CALL("strcat", S("ab"), S("cd"), v_int(1));
  CHECK(r.kind == V_STRING && r.str->len == 5 && fmt_is(r, "abcd1"), "strcat");
  CHECK(fmt_is(CALL("strcat"), ""), "strcat()");
  gc();
}

/* The launch part of the idx32 key bit: padded extents, and their product, up to 2^29. */
static void test_idx32_launch(void) {
  const int64_t M = (int64_t)1 << 29;
  struct { int D; int64_t dims[3], blk[3], cnt[3]; int want; } c[] = {
    {3, {8192, 8192, 3}, {1, 16, 3}, {8192, 512, 1}, 1},    /* seed 000's image: 3 * 2^26 */
    {3, {8192, 8192, 3}, {1, 16, 16}, {8192, 512, 1}, 0},   /* padded to 2^30 */
    {1, {M}, {256}, {M / 256}, 1},                           /* exactly the limit */
    {1, {M + 1}, {1}, {M + 1}, 0},                           /* one more position */
    {1, {M}, {512}, {M / 512 + 1}, 0},                       /* the padding passes it */
    {2, {1 << 15, 1 << 14}, {1, 1}, {1 << 15, 1 << 14}, 1},  /* a product of 2^29 */
    {2, {1 << 15, 1 << 15}, {1, 1}, {1 << 15, 1 << 15}, 0},  /* 2^30 */
    {3, {1 << 20, 1 << 20, 1 << 20}, {1, 1, 1}, {1 << 20, 1 << 20, 1 << 20}, 0},   /* would overflow int64 */
    {2, {0, (int64_t)1 << 40}, {1, 1}, {0, (int64_t)1 << 40}, 0},   /* empty, but one extent is too long */
    {2, {0, 5}, {1, 1}, {0, 5}, 1},
    {0, {0}, {0}, {0}, 1},                                   /* no dimensions: one position */
  };
  for (size_t i = 0; i < sizeof c / sizeof *c; i++)
    CHECK(oqk_idx32_launch(c[i].D, c[i].dims, c[i].blk, c[i].cnt) == c[i].want, "oqk_idx32_launch case %zu", i);
}

/* rt_largest_divisor against a plain search from cap down, twice over (the second pass
   answers from the sizes it keeps, interleaved with others so that slots are reused). */
static void test_largest_divisor(void) {
  int64_t caps[] = {0, 1, 16, 32, 512};
  int bad = 0, n_checked = 0;
  for (int pass = 0; pass < 2; pass++)
    for (int64_t n = -3; n < 3000; n += 1 + (n > 600) * 6)
      for (int c = 0; c < 5; c++) {
        int64_t want = n < 1 ? 1 : n;
        if (n > caps[c])
          for (want = caps[c] > 1 ? caps[c] : 1; want > 1 && n % want; want--) {}
        bad += rt_largest_divisor(n, caps[c]) != want;
        n_checked++;
      }
  CHECK(rt_largest_divisor(1000003, 512) == 1 && rt_largest_divisor(1000003, 512) == 1, "a prime");
  CHECK(rt_largest_divisor(6220800, 512) == 512 && rt_largest_divisor(4095, 512) == 455, "4095 = 455 * 9");
  CHECK(bad == 0, "%d of %d largest divisors differ from the plain search", bad, n_checked);
}

/* ---- ast_kids: every child once, in source order ---- */

static void test_ast_kids(void) {
  Node k[12] = {0}, n = {0}, none = {0};
  Node *items[2] = {&k[3], &k[4]}, *items2[1] = {&k[5]}, *body0[2] = {&k[7], &k[8]};
  Node *body2[1] = {&k[10]};
  MatchCase cases[3] = {{.pattern = &k[6], .body = {body0, 2}}, {.pattern = NULL, .body = {NULL, 0}},
                        {.pattern = NULL, .body = {body2, 1}}};
  n.a = &k[0];
  n.c = &k[2];   /* b stays NULL: skipped */
  n.list = (NodeList){items, 2};
  n.list2 = (NodeList){items2, 1};
  n.cases = cases;
  n.ncases = 3;
  Node *want[] = {&k[0], &k[2], &k[3], &k[4], &k[5], &k[6], &k[7], &k[8], &k[10]};
  int got = 0;
  bool order = true;
  for (AstKids c = ast_kids(&n); c.node && got < 20; ast_next(&c), got++)
    order &= got < 9 && c.node == want[got];
  CHECK(got == 9 && order, "ast_kids: %d children (want 9), in order: %d", got, order);
  CHECK(!ast_kids(&none).node && !ast_kids(NULL).node, "ast_kids of a leaf or NULL: none");
}

/* ---- barrier_kind: the one reader of syncthreads' and memfence's names ---- */

static void test_barrier_kind(void) {
  Node sync = {.kind = N_IDENT, .name = "syncthreads"}, fence = {.kind = N_IDENT, .name = "memfence"};
  Node other = {.kind = N_IDENT, .name = "sync"}, num = {.kind = N_INT, .ival = 1};
  Node scope[4] = {{.kind = N_IDENT, .name = "grid"}, {.kind = N_IDENT, .name = "warp"},
                   {.kind = N_IDENT, .name = "block"}, {.kind = N_IDENT, .name = "host"}};
  BarrierKind want[4] = {BK_GRID, BK_WARP, BK_BLOCK, BK_SCOPE};
  for (int i = 0; i < 4; i++) {
    Node *arg[2] = {&scope[i], &num};
    Node call = {.kind = N_CALL, .a = &sync, .list = {arg, 1}}, call2 = call;
    call2.list.n = 2;
    CHECK(barrier_kind(&call) == want[i] && barrier_kind(&call2) == want[i], "syncthreads(%s)", scope[i].name);
  }
  Node *arg[1] = {&num};
  Node bare = {.kind = N_CALL, .a = &sync}, of_num = {.kind = N_CALL, .a = &sync, .list = {arg, 1}};
  Node fcall = {.kind = N_CALL, .a = &fence}, ocall = {.kind = N_CALL, .a = &other};
  Node stmt = {.kind = N_EXPR, .a = &sync}, ret = {.kind = N_RETURN, .a = &sync};
  CHECK(barrier_kind(&sync) == BK_BLOCK && barrier_kind(&bare) == BK_BLOCK && barrier_kind(&of_num) == BK_BLOCK,
        "syncthreads, syncthreads(), syncthreads(1): the block");
  CHECK(barrier_kind(&fence) == BK_FENCE && barrier_kind(&fcall) == BK_FENCE && !is_barrier(BK_FENCE), "memfence");
  CHECK(!barrier_kind(&other) && !barrier_kind(&ocall) && !barrier_kind(&num) && !barrier_kind(NULL), "not barriers");
  CHECK(barrier_stmt_kind(&stmt) == BK_BLOCK && !barrier_stmt_kind(&ret), "statements");
}

/* ---- the kernel cache's one writer ---- */

static void test_cache_write(void) {
  char dir[] = "/tmp/oq_cache_testXXXXXX";
  CHECK(mkdtemp(dir) != NULL, "mkdtemp");
  char path[256], tmp[300], tmp2[300], got[16] = {0};
  snprintf(path, sizeof path, "%s/oqk_00ff.so", dir);
  rt_cache_temp(tmp, sizeof tmp, path);
  rt_cache_temp(tmp2, sizeof tmp2, path);
  char want[300];
  snprintf(want, sizeof want, "%s/oqk_00ff.tmp%d_", dir, (int)getpid());
  CHECK(!strncmp(tmp, want, strlen(want)) && !strcmp(tmp + strlen(tmp) - 3, ".so") && strcmp(tmp, tmp2),
        "rt_cache_temp: %s, then %s", tmp, tmp2);
  CHECK(rt_cache_write(path, "abc", 3, RT_CACHE_ENTRY), "rt_cache_write");
  FILE *f = fopen(path, "rb");
  size_t n = f ? fread(got, 1, sizeof got, f) : 0;
  if (f) fclose(f);
  CHECK(n == 3 && !memcmp(got, "abc", 3), "the entry holds what was written (%zu bytes)", n);
  /* the file that completes an entry keeps the cache in bounds (cache_written's stamp);
     a part written before it does not (its entry is not whole yet) */
  char stamp[300], part[300];
  snprintf(stamp, sizeof stamp, "%s/prune.stamp", dir);
  CHECK(access(stamp, F_OK) == 0 && access(path, F_OK) == 0, "a new entry prunes the cache and is kept: %s", stamp);
  unlink(stamp);
  snprintf(part, sizeof part, "%s/oqk_00ff.c", dir);
  CHECK(rt_cache_write(part, "int x;", 6, RT_CACHE_PART) && access(stamp, F_OK) != 0,
        "a part of an entry is written without a prune");
  unlink(part);
  snprintf(tmp, sizeof tmp, "%s/missing/oqk.so", dir);
  CHECK(!rt_cache_write(tmp, "abc", 3, RT_CACHE_ENTRY), "rt_cache_write into a missing folder fails");
  CHECK(!rt_cache_publish(path, tmp, RT_CACHE_ENTRY) && access(path, F_OK) != 0 && access(stamp, F_OK) != 0,
        "a failed publish removes the temporary and prunes nothing");
  rmdir(dir);
  CHECK(access(dir, F_OK) != 0, "nothing left behind in %s", dir);
}

/* ---- objects and cell arrays (rt_object.c) ---- */

static void test_objects(void) {
  static Type t_int = {.kind = TY_INT, .name = "int"}, t_scalar = {.kind = TY_SCALAR, .name = "scalar"};
  static Type t_ptr = {.kind = TY_NAMED, .name = "node", .pointer = true};
  static Param fields[] = {{.name = "val", .type = &t_int}, {.name = "w", .type = &t_scalar},
                           {.name = "next", .type = &t_ptr}};
  static Type node = {.kind = TY_NAMED, .name = "node", .class_kind = CLASS_MUTABLE,
                      .fields = fields, .nfields = 3};
  Object *o = obj_new(&node);
  for (int i = 0; i < 3; i++) obj_init_field(o, i, obj_empty_value(fields[i].type, L), L);
  Value ov = T(v_object(o));
  CHECK(fmt_is(ov, "node(val:=0, w:=0, next:=nullptr)"), "format an object");
  obj_set(ov, "val", v_scalar(3), NULL, L);          /* an integral scalar converts to int */
  obj_set(ov, "w", v_int(2), NULL, L);
  Value val = T(obj_get(ov, "val", L)), w = T(obj_get(ov, "w", L));
  CHECK(val.kind == V_INT && val.i == 3 && w.kind == V_SCALAR && w.s == 2, "fields converted to their types");
  Object *o2 = obj_new(&node);
  for (int i = 0; i < 3; i++) obj_init_field(o2, i, obj_empty_value(fields[i].type, L), L);
  obj_set(ov, "next", v_object(o2), NULL, L);       /* o holds o2's only reference */
  CHECK(fmt_is(ov, "node(val:=3, w:=2, next:=node(val:=0, w:=0, next:=nullptr))"), "format nested objects");
  Value eq = B(OP_EQ, ov, ov), ne = B(OP_NE, ov, T(v_null()));
  CHECK(eq.i == 1 && ne.i == 1, "objects compare by identity");
  EXPECT_ERROR("class 'node' has no field 'z'", obj_get(ov, "z", L));
  EXPECT_ERROR("field 'val' of 'node' expects int", obj_set(ov, "val", v_scalar(0.5), NULL, L));
  static Type frozen = {.kind = TY_NAMED, .name = "frozen", .class_kind = CLASS_IMMUTABLE};
  Value fv = T(v_object(obj_new(&frozen)));
  EXPECT_ERROR("class 'frozen' is immutable", obj_set(fv, "a", v_int(1), NULL, L));
  Value dyn = T(v_object(obj_new_dynamic()));
  obj_set(dyn, "a", v_int(1), &t_scalar, L);
  obj_set(dyn, "b", v_string("s", 1), NULL, L);
  CHECK(fmt_is(dyn, "object(a:=1, b:=\"s\")"), "a dynamic object gets fields by assignment");

  Cell *c = cell_new(2, DIMS(2, 3), NULL, L);
  Value cv = T(v_cell(c));
  CHECK(c->numel == 6 && c->v[5].kind == V_ARRAY && c->v[5].arr->numel == 0, "cell elements start as []");
  Value ix[2] = {v_int(1), v_scalar(2.7)};
  cell_set(cv, 2, ix, v_string("x", 1), L);
  Value got = T(cell_get(cv, 1, (Value[]){v_int(5)}, L));
  CHECK(got.kind == V_STRING && !strcmp(got.str->s, "x"), "cell index row-major, scalars truncate");
  CHECK(CALL("numel", cv).i == 6 && CALL("isempty", cv).i == 0 && CALL("isempty", T(v_null())).i == 1,
        "numel and isempty of cells");
  EXPECT_ERROR("index 2 is out of bounds for dimension 0 of a cell array of size [2,3]",
               cell_get(cv, 2, (Value[]){v_int(2), v_int(0)}, L));
  Value typed = T(v_cell(cell_new(1, DIMS(2), &t_int, L)));
  cell_set(typed, 1, (Value[]){v_int(0)}, v_scalar(4), L);
  CHECK(typed.cell->v[0].kind == V_INT && typed.cell->v[0].i == 4, "typed cell converts stores");
  CHECK(fmt_is(typed, "{4, 0}"), "format a cell array");
}

/* ---- arrays and statistics (rt_stats.c), under the sanitizers: every function on
   ordinary, empty, NaN and integer inputs, and the several-output forms ---- */

static Value call_outs(const char *name, int argc, const Value *argv) {
  BuiltinFn f = rt_builtin_outputs(name);
  if (!f) {
    printf("no several-output form of %s\n", name);
    exit(2);
  }
  return T(f(argc, argv, L));
}
#define OUTS(name, ...) call_outs(name, (int)(sizeof((Value[]){ __VA_ARGS__ }) / sizeof(Value)), (const Value[]){ __VA_ARGS__ })

static double f_noise(int64_t k) { return (double)((k * 7919) % 1009) - 504.5; }

static void test_stats(void) {
  Value x = mkf(EL_F32, 1, DIMS(1000), f_noise), none = mk(EL_F32, 1, DIMS(0), NULL);
  Value t = OUTS("sort", x);
  bool ok = t.kind == V_TUPLE && t.tup->n == 2;
  for (int64_t k = 1; ok && k < 1000; k++) ok = at(t.tup->v[0], k - 1) <= at(t.tup->v[0], k);
  for (int64_t k = 0; ok && k < 1000; k++) ok = at(x, (int64_t)at(t.tup->v[1], k)) == at(t.tup->v[0], k);
  CHECK(ok, "[s, i] = sort(x): ordered, s == x[i]");
  CHECK(fmt_is(CALL("sort", VEC(EL_F32, 3, NAN, 1)), "[1,3,NaN]"), "sort: NaN last");
  CHECK(fmt_is(CALL("sort", VEC(EL_F32, 3, NAN, 1), S("descend")), "[NaN,3,1]"), "sort descend: NaN first");
  CHECK(fmt_is(CALL("sort", none), "[]") && fmt_is(OUTS("sort", none), "([], [])"), "sort of []");
  Value m = mk(EL_I32, 2, DIMS(2, 3), (const double[]){ 5, 1, 4, 2, 6, 0 });
  CHECK(fmt_is(CALL("sort", m), "[[2,1,0],\n [5,6,4]]") && CALL("sort", m).arr->elem == EL_I32, "sort of an int matrix down columns");
  CHECK(fmt_is(OUTS("sort", m, v_int(1), S("descend")), "([[5,4,1],\n [6,2,0]], [[0,2,1],\n [1,0,2]])"), "sort along rows, descending");

  CHECK(CALL("median", x).s == 1 && isnan(CALL("median", none).s), "median, median of []");
  CHECK(CALL("median", VEC(EL_F32, 1, 2, 3, 4)).s == 2.5 && isnan(CALL("median", VEC(EL_F32, 1, NAN)).s), "median: even count, NaN");
  CHECK(fmt_is(CALL("median", m, v_int(1)), "[[4],\n [2]]"), "median along rows");
  CHECK(CALL("mode", VEC(EL_I32, 3, 1, 3, 1, 2)).i == 1 && fmt_is(OUTS("mode", VEC(EL_F32, 2, 2, NAN, NAN, NAN)), "(2, 2)"), "mode");
  CHECK(fabs(CALL("var", VEC(EL_F32, 1, 2, 3, 4)).s - 5.0 / 3) < 1e-6 && CALL("std", VEC(EL_F32, 2, 4), v_int(1)).s == 1, "var, std");
  CHECK(isnan(CALL("var", none).s) && CALL("var", VEC(EL_F32, 7)).s == 0, "var of [] and of one element");
  CHECK(fmt_is(OUTS("max", x), "(503.5, 765)") && fmt_is(OUTS("min", m, none, v_int(0)), "([2,1,0], [1,0,1])"), "[m, i] = max / min");
  CHECK(fmt_is(CALL("max", m, none, v_int(1)), "[[5],\n [6]]"), "max(x, [], 1)");
  CHECK(CALL("any", none).i == 0 && CALL("all", none).i == 1 && fmt_is(CALL("any", m, v_int(0)), "[1,1,1]"), "any, all");
  CHECK(fmt_is(CALL("find", m), "[0,1,2,3,4]") && fmt_is(OUTS("find", m), "([0,0,0,1,1], [0,1,2,0,1], [5,1,4,2,6])"), "find");
  CHECK(fmt_is(CALL("cumsum", m, v_int(1)), "[[5,6,10],\n [2,8,8]]") && fmt_is(CALL("cumprod", m), "[[5,1,4],\n [10,6,0]]"), "cumsum, cumprod");
  CHECK(fmt_is(CALL("diff", m), "[-3,5,-4]") && fmt_is(CALL("diff", m, v_int(2), v_int(1)), "[[7],\n [-10]]"), "diff");
  CHECK(fmt_is(CALL("diff", none), "[]") && fmt_is(CALL("diff", v_int(3)), "[]"), "diff of [] and of a number");
  CHECK(fmt_is(CALL("circshift", m, VEC(EL_I32, 1, -1)), "[[6,0,2],\n [1,4,5]]"), "circshift");
  CHECK(fmt_is(CALL("fliplr", m), "[[4,1,5],\n [0,6,2]]") && fmt_is(CALL("flipud", m), "[[2,6,0],\n [5,1,4]]"), "fliplr, flipud");
  CHECK(fmt_is(CALL("vertcat", VEC(EL_I32, 1, 2), VEC(EL_F32, 3.5, 4)), "[[1,2],\n [3.5,4]]"), "vertcat of vecs");
  CHECK(fmt_is(CALL("horzcat", none, v_int(1), VEC(EL_I32, 2, 3)), "[1,2,3]") && fmt_is(CALL("cat", v_int(2), m, m), "[[[5,5],\n  [1,1],\n  [4,4]],\n [[2,2],\n  [6,6],\n  [0,0]]]"), "horzcat, cat");
  CHECK(fmt_is(OUTS("meshgrid", VEC(EL_I32, 1, 2), VEC(EL_I32, 7, 8, 9)), "([[1,2],\n [1,2],\n [1,2]], [[7,7],\n [8,8],\n [9,9]])"), "meshgrid");
  CHECK(fmt_is(OUTS("unique", VEC(EL_I32, 3, 1, 3, 2)), "([1,2,3], [1,3,0], [2,0,2,1])") && fmt_is(CALL("unique", none), "[]"), "unique");
  CHECK(fmt_is(OUTS("histc", VEC(EL_F32, 0, 1, 1.5, 2, 9, NAN), VEC(EL_F32, 0, 1, 2)), "([1,2,1], [0,1,1,2,-1,-1])"), "histc");
  CHECK(CALL("dotprod", m, VEC(EL_I32, 1, 1, 1, 1, 1, 1)).i == 18 && CALL("pow", v_int(2), v_int(5)).s == 32, "dotprod, pow");
  CALL("seed", v_int(9));
  Value r1 = CALL("randi", VEC(EL_I32, -1, 1), v_int(50));
  CALL("seed", v_int(9));
  Value r2 = CALL("randi", VEC(EL_I32, -1, 1), v_int(50));
  ok = true;
  for (int64_t k = 0; k < 50; k++) ok = ok && at(r1, k) == at(r2, k) && at(r1, k) >= -1 && at(r1, k) <= 1;
  CHECK(ok && r1.arr->elem == EL_I32, "seed and randi");
  CHECK(!rt_builtin_outputs("sum") && rt_builtin_outputs("max"), "rt_builtin_outputs");
  EXPECT_ERROR("sort: complex numbers have no order", CALL("sort", T(v_cscalar(1, 1))));
  EXPECT_ERROR("cat: the sizes disagree", CALL("cat", v_int(0), m, VEC(EL_I32, 1)));
  EXPECT_ERROR("max: empty array", OUTS("max", none));
  gc();
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  test_objects();
  test_barrier_kind();
  test_cache_write();
  test_ast_kids();
  test_idx32_launch();
  test_largest_divisor();
  test_elements();
  test_arrays();
  test_conversions();
  test_number_ops();
  test_array_ops();
  test_matmul();
  test_index_basic();
  test_boundaries();
  test_index_set_update();
  test_print();
  test_builtin_table();
  test_builtin_sizes();
  test_builtin_reductions();
  test_builtin_math();
  test_builtin_arrays();
  test_builtin_strings();
  test_stats();
#ifdef __SANITIZE_ADDRESS__
  CHECK(__lsan_do_recoverable_leak_check() == 0, "memory leaks (see the report above)");
#endif
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
