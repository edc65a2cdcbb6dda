/* diag.c: error reporting with source line and caret. */
#include "base/diag.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* errors reported so far (the exit status); where rt_error says an error without a location
   happened (diag_set_where) */
static struct { int errors; SrcLoc where; void (*on_rt_error)(void); } diag;

SrcFile *srcfile_from_string(const char *path, const char *text) {
  SrcFile *f = calloc(1, sizeof *f);
  f->path = strdup(path);
  f->text = strdup(text);
  f->len = (int)strlen(text);
  return f;
}

SrcFile *srcfile_load(const char *path) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return NULL;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  for (size_t got; (got = fread(buf + n, 1, cap - n - 1, fp)) > 0;) {
    n += got;
    if (n + 1 >= cap) buf = realloc(buf, cap *= 2);
  }
  int err = ferror(fp);
  fclose(fp);
  if (err) { free(buf); errno = EIO; return NULL; }
  buf[n] = 0;
  SrcFile *f = calloc(1, sizeof *f);
  f->path = strdup(path);
  f->text = buf;
  f->len = (int)strlen(buf);   /* a NUL byte ends the text; the lexer sees no further */
  return f;
}

void srcfile_free(SrcFile *f) {
  if (!f) return;
  free((void *)f->path);
  free((void *)f->text);
  free(f);
}

/* Prints the source line of loc and a caret under its column. */
static void show_line(SrcLoc loc) {
  if (!loc.file || loc.line < 1) return;
  const char *p = loc.file->text;
  for (int l = 1; l < loc.line && *p; p++)
    if (*p == '\n') l++;
  const char *end = strchr(p, '\n');
  int n = end ? (int)(end - p) : (int)strlen(p);
  if (n > 0 && p[n - 1] == '\r') n--;
  fprintf(stderr, "%.*s\n", n, p);
  for (int i = 1; i < loc.col && i <= n; i++) fputc(p[i - 1] == '\t' ? '\t' : ' ', stderr);
  fputs("^\n", stderr);
}

/* See diag.h. */
void diag_call_arg_text(SrcLoc call, char *buf, size_t size) {
  const SrcFile *f = call.file;
  buf[0] = 0;
  if (!f) return;
  const char *p = f->text;
  for (int l = 1; l < call.line && *p; p++)
    if (*p == '\n') l++;
  p += call.col - 1;
  while (*p && *p != '\n' && *p != '(') p++;
  if (*p != '(') return;
  p++;
  int depth = 0;
  size_t n = 0;
  for (; *p && *p != '\n' && n + 1 < size; p++) {
    if (*p == '(' || *p == '[') depth++;
    if ((*p == ')' || *p == ']') && --depth < 0) break;
    if (*p == ',' && depth == 0) break;
    buf[n++] = *p;
  }
  while (n > 0 && (buf[n - 1] == ' ' || buf[n - 1] == '\t')) n--;
  buf[n] = 0;
}

void diag_verror(SrcLoc loc, const char *kind, const char *fmt, va_list ap) {
  fflush(stdout);
  if (loc.file) fprintf(stderr, "%s:%d:%d: %s: ", loc.file->path, loc.line, loc.col, kind);
  else fprintf(stderr, "oq: %s: ", kind);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  show_line(loc);
}

void diag_error(SrcLoc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_verror(loc, "error", fmt, ap);
  va_end(ap);
  diag.errors++;
}

void diag_note(SrcLoc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_verror(loc, "note", fmt, ap);
  va_end(ap);
}

int diag_error_count(void) { return diag.errors; }

SrcLoc diag_set_where(SrcLoc loc) {
  SrcLoc was = diag.where;
  diag.where = loc;
  return was;
}

void rt_error(SrcLoc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_verror(loc.file ? loc : diag.where, "runtime error", fmt, ap);
  va_end(ap);
  if (diag.on_rt_error) diag.on_rt_error();   /* does not return (a fuzzer's longjmp) */
  exit(1);
}

void diag_on_rt_error(void (*fn)(void)) { diag.on_rt_error = fn; }
