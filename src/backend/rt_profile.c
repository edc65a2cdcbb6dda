/* rt_profile.c: per-kernel statistics and the --profile table. Rows live in one list,
   oldest first in the report; columns are a table of cell functions, so a new column is a
   field, a function and a line in `columns`. GPU rows get their time from the CUDA events
   that rt_gpu.c records around each launch (when --profile is on) and reads at a wait;
   main() waits for the GPU before the report. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "device/rt_cuda.h"
#include "backend/rt_profile.h"

struct ProfRow {
  Func *func;
  const char *name;         /* name@file:line: kernels of one name in several places stay apart */
  const char *backend;
  long launches;
  double run_ms, compile_ms;
  int compiled, cached;     /* specializations compiled now / found in the disk cache */
  uint64_t bytes_up, bytes_down;
  char note[256];           /* why the kernel ran on this back end (or did not) */
  char xforms[160];         /* the transforms its last specialization got (emit_c.c, emit_cuda.c) */
  bool told;
  ProfRow *next;
};

/* A host array operation that the runtime ran (one host thread), by place and name. */
typedef struct HostOp {
  const char *file;
  int line;
  const char *what;         /* "'+'", "sum", "slice" */
  long count;
  double ms;
  int64_t elements;         /* of the largest operand or result */
  struct HostOp *next;
} HostOp;

typedef struct Profile {
  bool on;
  double start_ms;          /* when --profile was turned on: the wall clock's zero */
  HostOp *host_ops;
  bool in_oracle;           /* the interpreter runs a kernel: its operations are the kernel's */
  ProfRow *rows, **tail;
  ProfRow *current;         /* transfers are charged to it */
  bool progress_shown;
} Profile;

static Profile prof = {.tail = &prof.rows};

void prof_enable(bool on) {
  prof.on = on;
  prof.start_ms = rt_now_ms();
  cuda_on_transfer = on ? prof_bytes : NULL;
}

ProfRow *prof_row(Callable *k, const char *backend) {
  for (ProfRow *r = prof.rows; r; r = r->next)
    if (r->func == k->func && !strcmp(r->backend, backend)) return r;
  ProfRow *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  r->func = k->func;
  r->backend = backend;
  const char *path = k->func->loc.file && k->func->loc.file->path ? k->func->loc.file->path : "?";
  const char *base = strrchr(path, '/');
  char buf[256];
  snprintf(buf, sizeof buf, "%s@%s:%d", callable_name(k), base ? base + 1 : path, k->func->loc.line);
  r->name = strdup(buf);
  *prof.tail = r;
  prof.tail = &r->next;
  return r;
}

void prof_launch(ProfRow *r, double ms) {
  if (!r) return;
  r->launches++;
  r->run_ms += ms;
}

void prof_compile(ProfRow *r, double ms, bool cached) {
  if (!r) return;
  r->compile_ms += ms;
  if (cached) r->cached++;
  else r->compiled++;
}

void prof_xforms(ProfRow *r, const char *xforms) {
  if (r) snprintf(r->xforms, sizeof r->xforms, "%s", xforms);
}

void prof_note(ProfRow *r, const char *why) {
  if (r && !r->note[0]) snprintf(r->note, sizeof r->note, "%s", why);
}

bool prof_told(ProfRow *r) {
  if (!r || r->told) return true;
  r->told = true;
  return false;
}

void prof_add_time(ProfRow *r, double ms) {
  if (r) r->run_ms += ms;
}

/* ---- transfers ---- */

void prof_set_current(ProfRow *r) { prof.current = r; }

void prof_bytes(size_t up, size_t down) {
  if (!prof.current) return;
  prof.current->bytes_up += up;
  prof.current->bytes_down += down;
}

/* ---- progress ---- */

bool prof_on(void) { return prof.on; }

void prof_in_oracle(bool on) { prof.in_oracle = on; }

void prof_host_op(const char *what, SrcLoc loc, double ms, int64_t elements) {
  if (prof.in_oracle) return;
  const char *file = loc.file && loc.file->path ? loc.file->path : "?";
  HostOp *h = prof.host_ops;
  while (h && !(h->line == loc.line && h->file == file && !strcmp(h->what, what))) h = h->next;
  if (!h) {
    h = calloc(1, sizeof *h);
    if (!h) return;
    *h = (HostOp){file, loc.line, strdup(what), 0, 0, 0, prof.host_ops};
    prof.host_ops = h;
  }
  h->count++;
  h->ms += ms;
  if (elements > h->elements) h->elements = elements;
}

void prof_progress(const char *kernel, const char *backend) {
  if (!isatty(STDERR_FILENO)) return;
  fprintf(stderr, "compiling kernel %s (%s)...", kernel, backend);
  fflush(stderr);
  prof.progress_shown = true;
}

void prof_progress_done(void) {
  if (!prof.progress_shown) return;
  fputs("\r\033[K", stderr);   /* back to the line's start, erase it */
  fflush(stderr);
  prof.progress_shown = false;
}

/* ---- the table ---- */

typedef void CellFn(const ProfRow *r, char *buf, size_t n);

static void cell_kernel(const ProfRow *r, char *b, size_t n) { snprintf(b, n, "%s", r->name); }
static void cell_backend(const ProfRow *r, char *b, size_t n) { snprintf(b, n, "%s", r->backend); }
static void cell_launches(const ProfRow *r, char *b, size_t n) { snprintf(b, n, "%ld", r->launches); }
static void cell_total(const ProfRow *r, char *b, size_t n) { snprintf(b, n, "%.3f", r->run_ms); }
static void cell_mean(const ProfRow *r, char *b, size_t n) {
  snprintf(b, n, "%.4f", r->launches ? r->run_ms / r->launches : 0.0);
}
static void cell_compile(const ProfRow *r, char *b, size_t n) { snprintf(b, n, "%.1f", r->compile_ms); }
static bool on_gpu(const ProfRow *r) { return !strcmp(r->backend, "cuda"); }
static void cell_up(const ProfRow *r, char *b, size_t n) {
  snprintf(b, n, on_gpu(r) ? "%llu" : "-", (unsigned long long)r->bytes_up);
}
static void cell_down(const ProfRow *r, char *b, size_t n) {
  snprintf(b, n, on_gpu(r) ? "%llu" : "-", (unsigned long long)r->bytes_down);
}
static void cell_notes(const ProfRow *r, char *b, size_t n) {
  b[0] = 0;
  if (r->compiled || r->cached) snprintf(b, n, "%d compiled, %d from cache", r->compiled, r->cached);
  if (r->note[0]) snprintf(b + strlen(b), n - strlen(b), "%s%s", b[0] ? "; " : "", r->note);
  const char *sep = b[0] ? "; transforms: " : "transforms: ";
  for (int t = 0; t < r->func->ntransforms; t++, sep = ", ")   /* the front end's, then the emitter's */
    snprintf(b + strlen(b), n - strlen(b), "%s%s", sep, r->func->transforms[t]);
  if (r->xforms[0]) snprintf(b + strlen(b), n - strlen(b), "%s%s", sep, r->xforms);
}

/* The short table's notes: specializations compiled now ("new") and found in the cache,
   and why the kernel ran here; the transforms are in the wide table. */
static void cell_notes_short(const ProfRow *r, char *b, size_t n) {
  b[0] = 0;
  if (r->compiled) snprintf(b, n, "%d new", r->compiled);
  if (r->cached) snprintf(b + strlen(b), n - strlen(b), "%s%d cached", b[0] ? ", " : "", r->cached);
  if (r->note[0]) snprintf(b + strlen(b), n - strlen(b), "%s%s", b[0] ? "; " : "", r->note);
}

/* width > 0: right-aligned, < 0: left-aligned, at least that wide; 0: the last, free.
   wide: only in --profile=wide (the short table fits 100 columns). */
static const struct Column { const char *head; int width; CellFn *cell; bool wide; CellFn *short_cell; } columns[] = {
  {"kernel", -6, cell_kernel, false, NULL},   {"backend", -7, cell_backend, false, NULL},
  {"launches", 8, cell_launches, false, NULL}, {"total ms", 10, cell_total, false, NULL},
  {"mean ms", 10, cell_mean, false, NULL},     {"compile ms", 10, cell_compile, false, NULL},
  {"bytes up", 10, cell_up, true, NULL},       {"bytes down", 10, cell_down, true, NULL},
  {"notes", 0, cell_notes, false, cell_notes_short},
};
#define NCOLS (sizeof columns / sizeof *columns)
#define CELL 512
#define SHORT_COLS 100      /* the short table's rows fit this many columns */
#define SHORT_NAME 40       /* and its kernel names this many (cut in the middle beyond) */

/* Cuts cell to at most n characters, "..." marking what went; keep_end: the middle goes
   (a kernel name keeps its file:line), else the end. */
static void cut_cell(char *cell, int n, bool keep_end) {
  int len = (int)strlen(cell);
  if (n < 4 || len <= n) return;
  if (keep_end) {
    int head = (n - 3) / 2, tail = n - 3 - head;
    memmove(cell + head + 3, cell + len - tail, tail + 1);
    memcpy(cell + head, "...", 3);
  } else {
    memcpy(cell + n - 3, "...", 4);
  }
}

static void print_cells(FILE *out, char (*cells)[CELL], const int *width, bool wide) {
  int used = 0;
  for (size_t c = 0; c < NCOLS; c++) {
    if (columns[c].wide && !wide) continue;
    if (width[c]) {
      used += fprintf(out, "%*s ", width[c], cells[c]);
    } else {
      if (!wide) cut_cell(cells[c], SHORT_COLS - used - 1, false);
      fprintf(out, " %s", cells[c]);
    }
  }
  fputc('\n', out);
}

/* The table, one row per kernel and back end (columns as wide as their widest cell), then
   the transfer totals when anything crossed the bus. */
static bool shown(const ProfRow *r) { return r->launches || r->compiled || r->cached || r->note[0]; }

static int by_time(const void *a, const void *b) {
  double x = (*(HostOp *const *)a)->ms, y = (*(HostOp *const *)b)->ms;
  return x < y ? 1 : x > y ? -1 : 0;
}

/* The host operations, most time first: an array of them sorted (*n of them; NULL when
   none). */
static HostOp **host_ops_sorted(int *n) {
  *n = 0;
  for (HostOp *h = prof.host_ops; h; h = h->next) (*n)++;
  if (!*n) return NULL;
  HostOp **v = malloc(*n * sizeof *v);
  if (!v) return *n = 0, NULL;
  int i = 0;
  for (HostOp *h = prof.host_ops; h; h = h->next) v[i++] = h;
  qsort(v, *n, sizeof *v, by_time);
  return v;
}

static const char *base_name(const char *path) {
  const char *b = strrchr(path, '/');
  return b ? b + 1 : path;
}

/* The host array operations, most time first (at most 20 rows). */
static void report_host_ops(FILE *out) {
  int n;
  HostOp **v = host_ops_sorted(&n);
  if (!v) return;
  fprintf(out, "host array operations in the runtime (one host thread):\n");
  fprintf(out, "  %-32s %8s %10s %10s\n", "operation", "count", "total ms", "elements");
  for (int i = 0; i < n && i < 20; i++) {
    char where[300];
    snprintf(where, sizeof where, "%s@%s:%d", v[i]->what, base_name(v[i]->file), v[i]->line);
    fprintf(out, "  %-32s %8ld %10.3f %10lld\n", where, v[i]->count, v[i]->ms, (long long)v[i]->elements);
  }
  if (n > 20) fprintf(out, "  (%d more)\n", n - 20);
  free(v);
}

/* Where the wall time went. Kernels on the CPU and in the interpreter and compiles take
   host time, the rest is the host program's own (its array operations among it); GPU
   kernels run beside the host (their device time apart). */
typedef struct Totals { double wall, host, kernels, gpu, compile, host_ops; } Totals;

static Totals totals(void) {
  Totals t = {.wall = rt_now_ms() - prof.start_ms};
  for (ProfRow *r = prof.rows; r; r = r->next) {
    if (on_gpu(r)) t.gpu += r->run_ms;
    else t.kernels += r->run_ms;
    t.compile += r->compile_ms;
  }
  for (HostOp *h = prof.host_ops; h; h = h->next) t.host_ops += h->ms;
  t.host = t.wall - t.kernels - t.compile;
  if (t.host < 0) t.host = 0;
  return t;
}

static void report_total(FILE *out) {
  Totals t = totals();
  fprintf(out, "total: wall %.1f ms | host %.1f | kernels %.1f | compile %.1f | GPU %.1f | up/down %.1f/%.1f MiB\n",
          t.wall, t.host, t.kernels, t.compile, t.gpu, cuda_stats.bytes_up / 1048576.0,
          cuda_stats.bytes_down / 1048576.0);
  if (t.host_ops > 0) fprintf(out, "       (host: %.1f ms of array operations in the runtime)\n", t.host_ops);
}

static void report_kernels(FILE *out, bool wide) {
  int n = 1;
  for (ProfRow *r = prof.rows; r; r = r->next) n += shown(r);
  if (n == 1) return;
  char (*cells)[NCOLS][CELL] = calloc(n, sizeof *cells);
  if (!cells) return;
  for (size_t c = 0; c < NCOLS; c++) snprintf(cells[0][c], CELL, "%s", columns[c].head);
  int i = 1;
  for (ProfRow *r = prof.rows; r; r = r->next) {
    if (!shown(r)) continue;
    for (size_t c = 0; c < NCOLS; c++)
      (wide || !columns[c].short_cell ? columns[c].cell : columns[c].short_cell)(r, cells[i][c], CELL);
    if (!wide) cut_cell(cells[i][0], SHORT_NAME, true);
    i++;
  }
  int width[NCOLS];
  for (size_t c = 0; c < NCOLS; c++) {
    int w = abs(columns[c].width);
    for (i = 0; i < n; i++) w = (int)strlen(cells[i][c]) > w ? (int)strlen(cells[i][c]) : w;
    width[c] = columns[c].width < 0 ? -w : columns[c].width ? w : 0;
  }
  for (i = 0; i < n; i++) print_cells(out, cells[i], width, wide);
  free(cells);
  if (cuda_stats.uploads || cuda_stats.downloads)
    fprintf(out, "host<->device: %llu bytes up in %ld transfers, %llu bytes down in %ld transfers\n",
            (unsigned long long)cuda_stats.bytes_up, cuda_stats.uploads,
            (unsigned long long)cuda_stats.bytes_down, cuda_stats.downloads);
}

/* ---- --profile=json ---- */

static void json_str(FILE *out, const char *s) {
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
    else if (*p < 0x20) fprintf(out, "\\u%04x", *p);
    else fputc(*p, out);
  }
  fputc('"', out);
}

/* A number JSON can hold (no NaN or infinity). */
static void json_num(FILE *out, double x) {
  if (x != x || x - x != 0) x = 0;
  fprintf(out, "%.4f", x);
}

static void json_kernel(FILE *out, const ProfRow *r) {
  const Func *f = r->func;
  const char *file = f->loc.file && f->loc.file->path ? f->loc.file->path : "?";
  fputs("    {\"name\": ", out);
  json_str(out, r->name);
  fputs(", \"function\": ", out);
  json_str(out, func_shown_name(f));
  fputs(", \"file\": ", out);
  json_str(out, file);
  fprintf(out, ", \"line\": %d, \"backend\": ", f->loc.line);
  json_str(out, r->backend);
  fprintf(out, ", \"launches\": %ld, \"total_ms\": ", r->launches);
  json_num(out, r->run_ms);
  fputs(", \"mean_ms\": ", out);
  json_num(out, r->launches ? r->run_ms / r->launches : 0);
  fputs(", \"compile_ms\": ", out);
  json_num(out, r->compile_ms);
  fprintf(out, ", \"compiled\": %d, \"cached\": %d, \"bytes_up\": %llu, \"bytes_down\": %llu, \"note\": ",
          r->compiled, r->cached, (unsigned long long)r->bytes_up, (unsigned long long)r->bytes_down);
  json_str(out, r->note);
  fputs(", \"transforms\": [", out);
  const char *sep = "";
  for (int t = 0; t < f->ntransforms; t++, sep = ", ") {
    fputs(sep, out);
    json_str(out, f->transforms[t]);
  }
  if (r->xforms[0]) {
    fputs(sep, out);
    json_str(out, r->xforms);
  }
  fputs("]}", out);
}

/* A number of the report's total object: milliseconds, or a count (is_count). */
typedef struct JsonField {
  const char *name;
  double ms;
  unsigned long long count;
  bool is_count;
} JsonField;

static JsonField json_ms(const char *name, double ms) { return (JsonField){.name = name, .ms = ms}; }
static JsonField json_count(const char *name, unsigned long long n) {
  return (JsonField){.name = name, .count = n, .is_count = true};
}

static void json_object(FILE *out, const JsonField *f, int n) {
  fputc('{', out);
  for (int i = 0; i < n; i++) {
    fprintf(out, "%s\"%s\": ", i ? ", " : "", f[i].name);
    if (f[i].is_count) fprintf(out, "%llu", f[i].count);
    else json_num(out, f[i].ms);
  }
  fputc('}', out);
}

static void report_json(FILE *out) {
  Totals t = totals();
  const CudaStats *c = &cuda_stats;
  const JsonField total[] = {
    json_ms("wall_ms", t.wall), json_ms("host_ms", t.host), json_ms("kernels_ms", t.kernels),
    json_ms("compile_ms", t.compile), json_ms("gpu_ms", t.gpu), json_ms("host_ops_ms", t.host_ops),
    json_count("bytes_up", c->bytes_up), json_count("bytes_down", c->bytes_down),
    json_count("uploads", (unsigned long long)c->uploads), json_count("downloads", (unsigned long long)c->downloads),
  };
  fputs("{\n  \"total\": ", out);
  json_object(out, total, (int)(sizeof total / sizeof *total));
  fputs(",\n  \"kernels\": [", out);
  const char *sep = "\n";
  for (ProfRow *r = prof.rows; r; r = r->next) {
    if (!shown(r)) continue;
    fputs(sep, out);
    json_kernel(out, r);
    sep = ",\n";
  }
  fputs("\n  ],\n  \"host_ops\": [", out);
  int n;
  HostOp **v = host_ops_sorted(&n);
  for (int i = 0; i < n; i++) {
    fputs(i ? ",\n    {\"what\": " : "\n    {\"what\": ", out);
    json_str(out, v[i]->what);
    fputs(", \"file\": ", out);
    json_str(out, v[i]->file);
    fprintf(out, ", \"line\": %d, \"count\": %ld, \"ms\": ", v[i]->line, v[i]->count);
    json_num(out, v[i]->ms);
    fprintf(out, ", \"elements\": %lld}", (long long)v[i]->elements);
  }
  free(v);
  fputs("\n  ]\n}\n", out);
}

void prof_report(FILE *out, ProfileFormat format) {
  if (format == PROFILE_JSON) {
    report_json(out);
    return;
  }
  report_kernels(out, format == PROFILE_WIDE);
  report_host_ops(out);
  report_total(out);
}

double rt_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
