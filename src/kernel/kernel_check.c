/* kernel_check.c: type errors of kernels found by `oq check`, without running the program.
   A kernel whose parameters all have types (and no generic parameters) is specialized as a
   launch would (ksema_run) on values of those types: numbers, and arrays of 17 elements
   per dimension (longer than a kernel's vectors, so no slice is taken for one). A failure
   that ksema_type_error marks is an error of the program for any values of the declared
   types; any other failure is something compiled code leaves to the interpreter (or a
   variable of the host program, whose value is not known here), not an error. The
   interpreter (interp_check) binds the top level's functions first, as a run does. */
#include <string.h>
#include "base/diag.h"
#include "front/funcinfo.h"
#include "kernel/kernel_ir.h"

#define CHECK_DIM 17   /* > K_MAX_VEC */

/* The element type of an array of declared element type t; false when check has none. */
static bool check_elem(const Type *t, ElemType *e) {
  switch (t ? t->kind : TY_UNKNOWN) {
  case TY_SCALAR: *e = t->mods & TM_DOUBLE ? EL_F64 : t->mods & (TM_SINGLE | TM_HALF) ? EL_F32 : el_scalar(); return true;
  case TY_CSCALAR: *e = t->mods & TM_DOUBLE ? EL_C128 : t->mods & (TM_SINGLE | TM_HALF) ? EL_C64 : el_cscalar(); return true;
  case TY_INT: case TY_INT32: case TY_BOOL: *e = EL_I32; return true;
  case TY_UINT8: *e = EL_U8; return true;
  case TY_INT8: *e = EL_I8; return true;
  case TY_INT16: *e = EL_I16; return true;
  case TY_UINT16: *e = EL_U16; return true;
  case TY_UINT32: *e = EL_U32; return true;
  case TY_INT64: *e = EL_I64; return true;
  default: return false;
  }
}

/* A value of declared type t; false when t says too little (no type, a function, a class). */
static bool check_value(const Type *t, Value *v) {
  switch (t->kind) {
  case TY_SCALAR: *v = v_scalar(0); return true;
  case TY_CSCALAR: *v = v_cscalar(0, 0); return true;
  case TY_INT: case TY_INT32: *v = v_int(0); return true;
  case TY_BOOL: *v = v_bool(false); return true;
  case TY_ARRAY: {
    ElemType e;
    if (t->rank < 1 || t->rank > 3 || !check_elem(t->elem, &e)) return false;
    int64_t dims[3] = {CHECK_DIM, CHECK_DIM, CHECK_DIM};
    if (t->fixed_len) dims[0] = t->fixed_len;
    *v = v_array(arr_new(e, t->rank, dims));
    return true;
  }
  default: return false;
  }
}

/* The launch's rank: that of the first special parameter typed as a vector (pos : ivec2),
   else 1; 0 when a special parameter has no type (its type would follow the launch). */
static int check_rank(const Func *f) {
  int D = 1;
  bool found = false;
  for (int i = f->nparams - 1; i >= 0; i--) {
    const Param *p = &f->params[i];
    if (!is_special_kernel_param(p->name) || !strcmp(p->name, "warpsize")) continue;
    if (p->type->kind == TY_UNKNOWN) return 0;
    if (p->type->kind == TY_ARRAY && p->type->fixed_len && !found) D = p->type->fixed_len;
    if (p->type->kind == TY_ARRAY) found = true;
  }
  return D >= 1 && D <= 3 ? D : 0;
}

int ksema_check_kernel(Callable *k) {
  Func *f = k->func;
  int D = check_rank(f);
  if (k->kind != CALL_USER || f->kind != FK_KERNEL || f->ngenerics || !D || f->nparams > 64) return 0;
  Value args[64];
  int made = 0;
  bool typed = true;
  for (int i = 0; i < f->nparams && typed; i++, made = i) {
    args[i] = v_none();
    if (!is_special_kernel_param(f->params[i].name)) typed = check_value(f->params[i].type, &args[i]);
  }
  int reported = 0;
  if (typed) {
    Arena arena = {0};
    KSpec S = {.kernel = k, .kfunc = f, .D = D, .arena = &arena};
    int64_t dims[3] = {CHECK_DIM, CHECK_DIM, CHECK_DIM}, blk[3] = {1, 1, 1}, cnt[3] = {CHECK_DIM, CHECK_DIM, CHECK_DIM};
    ksema_launch(&S, dims, blk, cnt);
    if (!ksema_run(&S, args) && S.type_error) {
      diag_error(S.error_loc, "%s (in kernel '%s')", S.error_msg, func_shown_name(f));
      reported = 1;
    }
    kspec_free(&S);
  }
  for (int i = 0; i < made; i++) val_release(args[i]);
  return reported;
}
