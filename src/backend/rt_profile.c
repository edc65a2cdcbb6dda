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

/* width > 0: right-aligned, < 0: left-aligned, at least that wide; 0: the last, free */
static const struct Column { const char *head; int width; CellFn *cell; } columns[] = {
  {"kernel", -6, cell_kernel},   {"backend", -7, cell_backend}, {"launches", 8, cell_launches},
  {"total ms", 10, cell_total},  {"mean ms", 10, cell_mean},    {"compile ms", 10, cell_compile},
  {"bytes up", 10, cell_up},     {"bytes down", 10, cell_down}, {"notes", 0, cell_notes},
};
#define NCOLS (sizeof columns / sizeof *columns)
#define CELL 512

static void print_cells(FILE *out, char (*cells)[CELL], const int *width) {
  for (size_t c = 0; c < NCOLS; c++) {
    if (width[c]) fprintf(out, "%*s ", width[c], cells[c]);
    else fprintf(out, " %s", cells[c]);
  }
  fputc('\n', out);
}

/* The table, one row per kernel and back end (columns as wide as their widest cell), then
   the transfer totals when anything crossed the bus. */
static bool shown(const ProfRow *r) { return r->launches || r->compiled || r->cached || r->note[0]; }

/* The host array operations, most time first (at most 20 rows), and their total. */
static double report_host_ops(FILE *out) {
  double total = 0;
  int n = 0;
  for (HostOp *h = prof.host_ops; h; h = h->next) total += h->ms, n++;
  if (!n) return 0;
  fprintf(out, "host array operations in the runtime (one host thread):\n");
  fprintf(out, "  %-32s %8s %10s %10s\n", "operation", "count", "total ms", "elements");
  for (int shown_rows = 0; shown_rows < 20 && shown_rows < n; shown_rows++) {
    HostOp *best = NULL;
    for (HostOp *h = prof.host_ops; h; h = h->next)
      if (h->count >= 0 && (!best || h->ms > best->ms)) best = h;
    const char *base = strrchr(best->file, '/');
    char where[300];
    snprintf(where, sizeof where, "%s@%s:%d", best->what, base ? base + 1 : best->file, best->line);
    fprintf(out, "  %-32s %8ld %10.3f %10lld\n", where, best->count, best->ms, (long long)best->elements);
    best->count = -1 - best->count;   /* printed (undone below) */
  }
  if (n > 20) fprintf(out, "  (%d more)\n", n - 20);
  for (HostOp *h = prof.host_ops; h; h = h->next)
    if (h->count < 0) h->count = -1 - h->count;
  return total;
}

/* One line: where the wall time went. Kernels on the CPU and in the interpreter take host
   time; GPU kernels run beside the host (their device time is shown apart). */
static void report_total(FILE *out, double host_ops_ms) {
  double wall = rt_now_ms() - prof.start_ms, cpu = 0, gpu = 0, compile = 0;
  for (ProfRow *r = prof.rows; r; r = r->next) {
    if (on_gpu(r)) gpu += r->run_ms;
    else cpu += r->run_ms;
    compile += r->compile_ms;
  }
  fprintf(out, "total: %.1f ms wall; kernels %.1f ms on the host, %.1f ms on the GPU; compiles %.1f ms; "
               "host array operations %.1f ms; transfers %.1f MiB up, %.1f MiB down\n",
          wall, cpu, gpu, compile, host_ops_ms, cuda_stats.bytes_up / 1048576.0,
          cuda_stats.bytes_down / 1048576.0);
}

static void report_kernels(FILE *out);

void prof_report(FILE *out) {
  report_kernels(out);
  report_total(out, report_host_ops(out));
}

static void report_kernels(FILE *out) {
  int n = 1;
  for (ProfRow *r = prof.rows; r; r = r->next) n += shown(r);
  if (n == 1) return;
  char (*cells)[NCOLS][CELL] = calloc(n, sizeof *cells);
  if (!cells) return;
  for (size_t c = 0; c < NCOLS; c++) snprintf(cells[0][c], CELL, "%s", columns[c].head);
  int i = 1;
  for (ProfRow *r = prof.rows; r; r = r->next) {
    if (!shown(r)) continue;
    for (size_t c = 0; c < NCOLS; c++) columns[c].cell(r, cells[i][c], CELL);
    i++;
  }
  int width[NCOLS];
  for (size_t c = 0; c < NCOLS; c++) {
    int w = abs(columns[c].width);
    for (i = 0; i < n; i++) w = (int)strlen(cells[i][c]) > w ? (int)strlen(cells[i][c]) : w;
    width[c] = columns[c].width < 0 ? -w : columns[c].width ? w : 0;
  }
  for (i = 0; i < n; i++) print_cells(out, cells[i], width);
  free(cells);
  if (cuda_stats.uploads || cuda_stats.downloads)
    fprintf(out, "host<->device: %llu bytes up in %ld transfers, %llu bytes down in %ld transfers\n",
            (unsigned long long)cuda_stats.bytes_up, cuda_stats.uploads,
            (unsigned long long)cuda_stats.bytes_down, cuda_stats.downloads);
}

double rt_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
