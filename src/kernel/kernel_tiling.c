/* kernel_tiling.c: the `!kernel_tiling dims=[...]; mode="global"|"local"; target="gpu"|"cpu"`
   attribute of seed 001 ("Kernel tiling"). Name resolution checks every such attribute
   (ktiling_check); the back ends read those at the top of a kernel's body that apply to
   them (ktiling_of) and decide what to do with them (emit_cuda.c, emit_c.c). Only the order
   in which positions run changes: results are the oracle's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/config.h"
#include "base/diag.h"
#include "kernel/kernel_ir.h"

/* One attribute, decoded; NULL when valid, else why not (at *where). */
typedef struct TileAttr {
  bool local;       /* mode="local" */
  bool is_auto;     /* dims=auto */
  int64_t dims[3];  /* padded with 1 */
  int target;       /* 0 both, 1 gpu, 2 cpu */
} TileAttr;

static const char *decode_dims(const Node *v, TileAttr *a, SrcLoc *where) {
  if (v->kind == N_IDENT && !strcmp(v->name, "auto")) {
    a->is_auto = true;
    return NULL;
  }
  if (v->kind != N_MATRIX || v->list.n < 1 || v->list.n > 3)
    return "dims must be auto or a list of 1 to 3 positive integers, such as [32,16,1]";
  for (int d = 0; d < v->list.n; d++) {
    const Node *e = v->list.items[d];
    *where = e->loc;
    if (e->kind != N_INT || e->ival < 1 || e->ival > (1 << 20))
      return "each of dims must be an integer literal from 1 to 2^20";
    a->dims[d] = e->ival;
  }
  return NULL;
}

/* the index of v's string among words, or -1 */
static int pick(const Node *v, const char *const *words) {
  for (int i = 0; v && v->kind == N_STRING && words[i]; i++)
    if (!strcmp(v->str, words[i])) return i;
  return -1;
}

static const char *decode(const Node *attr, TileAttr *a, SrcLoc *where) {
  static const char *const modes[] = {"global", "local", NULL};
  static const char *const targets[] = {"gpu", "cpu", "nvidia_cuda", NULL};
  *a = (TileAttr){.dims = {1, 1, 1}};
  bool have_dims = false;
  *where = attr->loc;
  for (int i = 0; i < attr->nattrs; i++) {
    const AttrArg *g = &attr->attrs[i];
    const char *why = NULL;
    *where = g->value ? g->value->loc : g->loc;
    if (!strcmp(g->key, "dims") && g->value) {
      have_dims = true;
      why = decode_dims(g->value, a, where);
    } else if (!strcmp(g->key, "mode")) {
      int w = pick(g->value, modes);
      if (w < 0) why = "mode must be \"global\" or \"local\"";
      a->local = w == 1;
    } else if (!strcmp(g->key, "target")) {
      int w = pick(g->value, targets);
      if (w < 0) why = "target must be \"gpu\" or \"cpu\"";
      a->target = w == 1 ? 2 : 1;
    } else {
      why = "unknown argument of kernel_tiling (dims, mode and target are known)";
    }
    if (why) return why;
  }
  *where = attr->loc;
  if (!have_dims) return "kernel_tiling needs dims=[...] or dims=auto";
  if (a->local && a->is_auto) return "local tiling needs literal dims, such as [1,1,4]";
  return NULL;
}

void ktiling_check(const Node *attr) {
  if (strcmp(attr->name, "kernel_tiling")) return;
  TileAttr a;
  SrcLoc where;
  const char *why = decode(attr, &a, &where);
  if (why) diag_error(where, "%s", why);
}

bool ktiling_of(const Func *k, bool gpu, KTiling *t) {
  *t = (KTiling){.box = {1, 1, 1}};
  bool any = false;
  for (int i = 0; i < k->body.n; i++) {
    const Node *s = k->body.items[i];
    TileAttr a;
    SrcLoc where;
    if (s->kind != N_ATTR || strcmp(s->name, "kernel_tiling") || decode(s, &a, &where)) continue;
    if (a.target == (gpu ? 2 : 1)) continue;   /* for the other back end */
    any = true;
    if (a.local) memcpy(t->box, a.dims, sizeof t->box);
    else if (a.is_auto) t->global_auto = true, memset(t->grid, 0, sizeof t->grid);
    else t->global_auto = false, memcpy(t->grid, a.dims, sizeof t->grid);
  }
  return any;
}

bool ktiling_box(const KTiling *t) { return t->box[0] * t->box[1] * t->box[2] > 1; }

/* A literal global grid without a box on a streaming kernel (each use of pos is the launch's
   own element of an array of its shape: the emitters' find_linear) becomes global auto, the
   back end's own order: tiles buy locality only to kernels that read neighbours, and a
   grid sized for another machine costs the others (seed 000's [128,256,1]: 0.94-0.96 of
   the H100's bandwidth against 0.97-0.99; on the CPU tiles ran a histogram 2.3x and a map
   4.5x slower than the linear loop). OQ_DEV_TILE_LITERAL=1 keeps the grid. note: what
   --profile says in tiling(...), "global 128x256x1: streaming, as global auto" (empty when
   kept). */
bool ktiling_streaming(KTiling *t, bool streaming, char *note, size_t n) {
  note[0] = 0;
  if (!streaming || !t->grid[0] || ktiling_box(t) || config()->dev.tile_literal) return false;
  size_t k = strlen(ktiling_str(t, note, n));
  snprintf(note + k, n - k, ": streaming, as global auto");
  t->global_auto = true;
  memset(t->grid, 0, sizeof t->grid);
  return true;
}

bool ktiling_cpu_tile(const KTiling *t, int64_t tile[3]) {
  for (int d = 0; d < 3; d++) tile[d] = (t->grid[0] ? t->grid[d] : 1) * t->box[d];
  return tile[0] * tile[1] * tile[2] > 1;
}

/* "global 128x256x1", "local 1x1x4", both, or "global auto" */
const char *ktiling_str(const KTiling *t, char *buf, size_t n) {
  size_t k = 0;
  buf[0] = 0;
  if (t->grid[0]) k += snprintf(buf, n, "global %lldx%lldx%lld", (long long)t->grid[0], (long long)t->grid[1], (long long)t->grid[2]);
  else if (t->global_auto) k += snprintf(buf, n, "global auto");
  if (ktiling_box(t) && k < n)
    snprintf(buf + k, n - k, "%slocal %lldx%lldx%lld", k ? ", " : "", (long long)t->box[0], (long long)t->box[1], (long long)t->box[2]);
  return buf;
}
