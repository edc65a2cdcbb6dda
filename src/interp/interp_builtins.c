/* interp_builtins.c: the globals a program can name — built-ins that need the interpreter
   (print, assert, tic/toc, parallel_do, shared, ...), the runtime library's pure functions
   and constants, and the built-in type names — and their lookup. */
#include <stdlib.h>
#include <string.h>
#include "interp/interp_priv.h"
#include "front/types.h"
#include "runtime/rt_image.h"
#include "backend/rt_profile.h"
#include "backend/cuda/rt_gpu.h"
#include "runtime/rt_show.h"
#include "runtime/rt_video.h"
#include "runtime/rt_plot.h"

/* ---- built-ins that need the interpreter ---- */

static Value ib_print(Interp *I, Node *call, int argc, Value *argv) {
  (void)I; (void)call;
  for (int i = 0; i < argc; i++) rt_print(stdout, argv[i]);
  fputc('\n', stdout);
  return v_none();
}

static Value ib_assert(Interp *I, Node *call, int argc, Value *argv) {
  (void)I;
  if (argc < 1 || argc > 2) rt_error(call->loc, "assert takes a condition and an optional message");
  if (rt_truthy(argv[0], call->loc)) return v_none();
  char text[256];
  diag_call_arg_text(call->loc, text, sizeof text);
  if (argc == 2 && argv[1].kind == V_STRING)
    rt_error(call->loc, "assertion failed: %s (%s)", text, argv[1].str->s);
  rt_error(call->loc, "assertion failed: %s", text);
}

/* error("text ", x) joins its arguments as print does (published code passes several). */
static Value ib_error(Interp *I, Node *call, int argc, Value *argv) {
  (void)I;
  if (!argc) rt_error(call->loc, "error");
  size_t len = 0;
  char *msg = NULL;
  for (int i = 0; i < argc; i++) {
    char *part = rt_format(argv[i]);
    size_t n = strlen(part);
    msg = realloc(msg, len + n + 1);
    memcpy(msg + len, part, n + 1);
    len += n;
    free(part);
  }
  rt_error(call->loc, "%s", msg);
}

/* tic and toc wait for the kernels in flight on the GPU: toc measures finished work. */
static Value ib_tic(Interp *I, Node *call, int argc, Value *argv) {
  (void)argc; (void)argv;
  gpu_sync(call->loc);
  numlib_sync(I->prog, call->loc);
  I->prog->tic_time = rt_now_ms();
  return v_none();
}

/* toc() and toc("label") print the time since tic() in milliseconds and return it. */
static Value ib_toc(Interp *I, Node *call, int argc, Value *argv) {
  gpu_sync(call->loc);
  numlib_sync(I->prog, call->loc);
  double ms = rt_now_ms() - I->prog->tic_time;
  if (argc >= 1 && argv[0].kind == V_STRING) printf("%s: %.4f ms\n", argv[0].str->s, ms);
  else printf("Elapsed time: %.4f ms\n", ms);
  return v_scalar(ms);
}

/* oq_bare_launch_us(n): the launch floor that tests/gpu/launch.q compares parallel_do with. */
static Value ib_bare_launch_us(Interp *I, Node *call, int argc, Value *argv) {
  (void)I;
  if (argc != 1 || !v_is_real(argv[0])) rt_error(call->loc, "oq_bare_launch_us takes a launch count");
  return v_scalar(gpu_bare_launch_us(rt_to_int(argv[0], call->loc), call->loc));
}

static Value ib_parallel_do(Interp *I, Node *call, int argc, Value *argv) {
  return kernel_parallel_do(I, call, argc, argv);
}

static Value ib_max_block_size(Interp *I, Node *call, int argc, Value *argv) {
  return kernel_block_size(I, call, argc, argv, false);
}

static Value ib_opt_block_cnt(Interp *I, Node *call, int argc, Value *argv) {
  return kernel_block_size(I, call, argc, argv, true);
}

static Value ib_shared(Interp *I, Node *call, int argc, Value *argv) {
  return kernel_shared(I, call, argc, argv, false);
}

static Value ib_shared_zeros(Interp *I, Node *call, int argc, Value *argv) {
  return kernel_shared(I, call, argc, argv, true);
}

/* ---- images ---- */

static const char *path_arg(Node *call, int argc, Value *argv, const char *fname) {
  if (argc < 1 || argv[0].kind != V_STRING)
    rt_error(call->loc, "%s: the first argument must be a file name", fname);
  return argv[0].str->s;
}

static const Array *image_arg(Node *call, int argc, Value *argv, int i, const char *fname) {
  if (argc <= i || argv[i].kind != V_ARRAY)
    rt_error(call->loc, "%s: expected an image (a mat or cube)", fname);
  return argv[i].arr;
}

static Value ib_imread(Interp *I, Node *call, int argc, Value *argv) {
  (void)I;
  if (argc != 1) rt_error(call->loc, "imread takes one file name");
  return v_array(rt_imread(path_arg(call, argc, argv, "imread"), call->loc));
}

static Value ib_imwrite(Interp *I, Node *call, int argc, Value *argv) {
  (void)I;
  if (argc != 2) rt_error(call->loc, "imwrite takes a file name and an image");
  rt_imwrite(path_arg(call, argc, argv, "imwrite"), image_arg(call, argc, argv, 1, "imwrite"), call->loc);
  return v_none();
}

static Value ib_imwrite16(Interp *I, Node *call, int argc, Value *argv) {
  (void)I;
  if (argc != 2) rt_error(call->loc, "imwrite16 takes a file name and an image");
  rt_imwrite16(path_arg(call, argc, argv, "imwrite16"), image_arg(call, argc, argv, 1, "imwrite16"), call->loc);
  return v_none();
}

/* connect(h1, h2), h1.connect(h2): links two figures' zoom in Quasar. Figures here are
   not zoomed (files, or windows scaled to their size), so there is nothing to link. */
static Value ib_connect(Interp *I, Node *call, int argc, Value *argv) {
  (void)I; (void)argv;
  if (argc < 1 || argc > 2) rt_error(call->loc, "connect takes a figure (h1.connect(h2))");
  return v_none();
}

/* What imshow returns: a figure handle, an object() with a `connect` method, as published
   programs use it (`fig0 = imshow(x)`, `fig0.connect(fig1)`). */
static Value figure_handle(SrcLoc loc) {
  Value h = v_object(obj_new_dynamic());
  Value connect = global_lookup("connect")->value;
  val_retain(connect);
  obj_set(h, "connect", connect, NULL, loc);
  return h;
}

/* imshow(x), imshow(x, [lo, hi]), imshow(x, []): a window, or a PNG file (rt_show.c). */
static Value ib_imshow(Interp *I, Node *call, int argc, Value *argv) {
  const Array *img = image_arg(call, argc, argv, 0, "imshow");
  if (argc > 2) rt_error(call->loc, "imshow takes an image and an optional range [lo, hi]");
  const Array *range = NULL;
  if (argc == 2) {
    Value r = argv[1];
    if (r.kind != V_ARRAY || (r.arr->numel != 0 && r.arr->numel != 2))
      rt_error(call->loc, "imshow: the range must be [] or [lo, hi]");
    range = r.arr;
  }
  const char *prog = I->prog->root->loc.file ? I->prog->root->loc.file->path : "oq";
  rt_imshow(img, range, prog, call->loc);
  return figure_handle(call->loc);
}

/* hold("on") / hold("off"), also hold(true) / hold(false). */
static Value ib_hold(Interp *I, Node *call, int argc, Value *argv) {
  (void)I;
  if (argc != 1) rt_error(call->loc, "hold takes \"on\" or \"off\"");
  if (argv[0].kind == V_STRING && (!strcmp(argv[0].str->s, "on") || !strcmp(argv[0].str->s, "off")))
    rt_show_hold(!strcmp(argv[0].str->s, "on"));
  else if (argv[0].kind != V_STRING) rt_show_hold(rt_truthy(argv[0], call->loc));
  else rt_error(call->loc, "hold: expected \"on\" or \"off\", not \"%s\"", argv[0].str->s);
  return v_bool(rt_show_open());
}

static Value ib_title(Interp *I, Node *call, int argc, Value *argv) {
  (void)I;
  if (argc != 1 || argv[0].kind != V_STRING) rt_error(call->loc, "title takes a string");
  rt_show_title(argv[0].str->s);
  return v_none();
}

/* ---- plots, pause, sync_framerate (rt_show.c); video and EXR are rt_media_lookup's ---- */

static const char *program_path(Interp *I) {
  return I->prog->root->loc.file ? I->prog->root->loc.file->path : "oq";
}

/* A real vector's elements as doubles (malloc'ed); n gets their count. */
static double *real_vector(Value v, const char *fname, const char *what, int64_t *n, SrcLoc loc) {
  if (v_is_real(v)) {
    double *d = malloc(sizeof *d);
    *d = rt_to_real(v, loc);
    *n = 1;
    return d;
  }
  if (v.kind != V_ARRAY || el_is_complex(v.arr->elem) || v.arr->numel < 1)
    rt_error(loc, "%s: %s must be a real vector, not %s", fname, what, rt_kind_name(v));
  int nontrivial = 0;
  for (int d = 0; d < v.arr->rank; d++) nontrivial += v.arr->dims[d] > 1;
  if (nontrivial > 1) rt_error(loc, "%s: %s must be a vector, not %s", fname, what, rt_kind_name(v));
  double *d = malloc(v.arr->numel * sizeof *d);
  for (int64_t i = 0; i < v.arr->numel; i++) d[i] = arr_load(v.arr, i);
  *n = v.arr->numel;
  return d;
}

/* plot(y), plot(x, y), plot(x, y, style), plot(y, style). */
static Value ib_plot(Interp *I, Node *call, int argc, Value *argv) {
  SrcLoc loc = call->loc;
  const char *style = "";
  if (argc >= 2 && argv[argc - 1].kind == V_STRING) style = argv[--argc].str->s;
  if (argc < 1 || argc > 2) rt_error(loc, "plot takes y, or x and y, and an optional style string");
  for (const char *p = style; *p; p++) {
    unsigned char rgb[3];
    if (*p != '.' && *p != '-' && !plot_color_letter(*p, rgb))
      rt_error(loc, "plot: unknown style '%c' (colours r g b c m y k w, '-' lines, '.' dots)", *p);
  }
  int64_t nx, ny;
  double *y = real_vector(argv[argc - 1], "plot", "y", &ny, loc);
  double *x = NULL;
  if (argc == 2) {
    x = real_vector(argv[0], "plot", "x", &nx, loc);
    if (nx != ny) rt_error(loc, "plot: x and y have %lld and %lld elements", (long long)nx, (long long)ny);
  } else {
    x = malloc(ny * sizeof *x);
    for (int64_t i = 0; i < ny; i++) x[i] = (double)i;
  }
  rt_plot(x, y, ny, style, program_path(I), loc);
  free(x);
  free(y);
  return v_none();
}

static Value ib_subplot(Interp *I, Node *call, int argc, Value *argv) {
  (void)I;
  if (argc != 3) rt_error(call->loc, "subplot takes rows, columns and a panel index (from 0)");
  rt_subplot((int)rt_to_int(argv[0], call->loc), (int)rt_to_int(argv[1], call->loc), (int)rt_to_int(argv[2], call->loc),
             call->loc);
  return v_none();
}

static Value ib_pause(Interp *I, Node *call, int argc, Value *argv) {
  (void)I;
  if (argc != 1) rt_error(call->loc, "pause takes a time in milliseconds");
  double ms = rt_to_real(argv[0], call->loc);
  if (!(ms >= 0) || ms > 864e5) rt_error(call->loc, "pause: the time must be 0..86400000 ms, not %g", ms);
  gpu_sync(call->loc);
  rt_show_pause(ms);
  return v_none();
}

static Value ib_sync_framerate(Interp *I, Node *call, int argc, Value *argv) {
  (void)I;
  if (argc != 1) rt_error(call->loc, "sync_framerate takes a frame rate (frames per second)");
  double fps = rt_to_real(argv[0], call->loc);
  if (!(fps >= 0) || !(fps < 1e6)) rt_error(call->loc, "sync_framerate: the rate must be >= 0 frames per second, not %g", fps);
  rt_show_sync_framerate(fps);
  return v_none();
}

static const struct { const char *name; InterpBuiltinFn fn; } interp_fns[] = {
  {"plot", ib_plot}, {"subplot", ib_subplot}, {"pause", ib_pause}, {"sync_framerate", ib_sync_framerate},
  {"imread", ib_imread}, {"imwrite", ib_imwrite}, {"imwrite16", ib_imwrite16},
  {"imshow", ib_imshow}, {"hold", ib_hold}, {"title", ib_title}, {"connect", ib_connect},
  {"print", ib_print}, {"disp", ib_print}, {"assert", ib_assert}, {"error", ib_error},
  {"tic", ib_tic}, {"toc", ib_toc}, {"oq_bare_launch_us", ib_bare_launch_us},
  {"parallel_do", ib_parallel_do}, {"serial_do", ib_parallel_do},
  {"max_block_size", ib_max_block_size}, {"opt_block_size", ib_max_block_size},
  {"opt_block_cnt", ib_opt_block_cnt},
  {"shared", ib_shared}, {"shared_zeros", ib_shared_zeros},
};

/* ---- built-in type names ---- */

static Type *make_type(TypeKind kind, const char *name, int rank, int fixed_len, TypeKind elem) {
  Type *t = calloc(1, sizeof *t);
  t->kind = kind;
  t->name = name;
  t->rank = rank;
  t->fixed_len = fixed_len;
  if (elem != TY_UNKNOWN) t->elem = make_type(elem, NULL, 0, 0, TY_UNKNOWN);
  return t;
}

/* ---- the table of globals ---- */

/* The globals named so far (global_lookup adds each at its first use); one table for the
   process: a name means the same in every program. */
static struct { Global **v; int n; } globals;

static const Global *global_add(const char *name, Value v) {
  Global *g = malloc(sizeof *g);
  g->name = name;
  g->value = v;
  globals.v = realloc(globals.v, (globals.n + 1) * sizeof *globals.v);
  globals.v[globals.n++] = g;
  return g;
}

static Value builtin_callable(CallableKind kind, const char *name) {
  Callable *c = callable_new(kind, name);
  c->refcount = 1 << 30;   /* globals live as long as the program */
  return v_func(c);
}


const char *global_name(size_t i) {
  static const char *const constants[] = {"pi", "e", "Inf", "NaN", "eps", "true", "false"};
  size_t nf = sizeof interp_fns / sizeof *interp_fns, nc = sizeof constants / sizeof *constants;
  if (i < nf) return interp_fns[i].name;
  if (i < nf + nc) return constants[i - nf];
  i -= nf + nc;
  const char *b = rt_builtin_name(i);
  if (b) return b;
  size_t nb = 0;
  while (rt_builtin_name(nb)) nb++;
  return builtin_type_name(i - nb);
}

/* Finds (and on first use creates) the global called name; NULL if there is none. Order:
   interpreter built-ins, constants, runtime functions, types. */
const Global *global_lookup(const char *name) {
  for (int i = 0; i < globals.n; i++)
    if (!strcmp(globals.v[i]->name, name)) return globals.v[i];
  for (size_t i = 0; i < sizeof interp_fns / sizeof *interp_fns; i++)
    if (!strcmp(interp_fns[i].name, name)) {
      Value v = builtin_callable(CALL_IBUILTIN, interp_fns[i].name);
      v.fn->ibuiltin = interp_fns[i].fn;
      return global_add(interp_fns[i].name, v);
    }
  const char *stored;
  InterpBuiltinFn nf = numlib_lookup(name, &stored);
  if (nf) {
    Value v = builtin_callable(CALL_IBUILTIN, stored);
    v.fn->ibuiltin = nf;
    return global_add(stored, v);
  }
  bool found = false;
  Value c = rt_constant(name, &found);
  if (found) return global_add(strdup(name), c);
  const Builtin *b = rt_builtin_lookup(name);
  if (!b) b = rt_media_lookup(name);   /* video and EXR (rt_video.h) */
  if (b) {
    Value v = builtin_callable(CALL_BUILTIN, b->name);
    v.fn->builtin = b;
    return global_add(b->name, v);
  }
  const BuiltinType *t = builtin_type(name);
  if (t) return global_add(t->name, v_type(make_type(t->kind, t->name, t->rank, t->fixed_len, t->elem)));
  return NULL;
}
