/* diag.h: source files, locations and the one way errors are reported.
   Format: "path:line:col: error: message", then the source line and a caret. */
#ifndef OQ_DIAG_H
#define OQ_DIAG_H
#include <stdarg.h>
#include <stddef.h>

typedef struct SrcFile {
  const char *path;
  const char *text;       /* whole file, NUL-terminated */
  int len;
} SrcFile;

typedef struct SrcLoc {
  const SrcFile *file;    /* NULL: no location known */
  int line, col;          /* 1-based */
} SrcLoc;

SrcFile *srcfile_load(const char *path);            /* NULL if unreadable (errno set) */
SrcFile *srcfile_from_string(const char *path, const char *text);
void srcfile_free(SrcFile *f);                      /* a file nothing points into any more */

/* The source text of the first argument of the call at loc (from the '(' after the callee
   to the matching ')' or a ',' at the same depth, on that line), for messages such as
   "assertion failed: x > 0". Writes "" when it cannot be found. */
void diag_call_arg_text(SrcLoc call, char *buf, size_t size);

/* Compile-time diagnostics: counted, printed to stderr. */
void diag_error(SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_verror(SrcLoc loc, const char *kind, const char *fmt, va_list ap);
void diag_note(SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int diag_error_count(void);

/* Run-time errors: print "path:line:col: runtime error: message" with the source line and
   caret, then exit with status 1. Never returns. */
_Noreturn void rt_error(SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Sets the location rt_error reports when it is given none (an allocation deep in the
   runtime: "out of memory", "array too large"); the interpreter sets the statement it runs.
   Returns the previous one. */
SrcLoc diag_set_where(SrcLoc loc);
/* For the fuzzers (tools/fuzz/): fn is called after a run-time error is printed, instead of
   exit(1); it must not return (it longjmps back to the harness). NULL: exit. */
void diag_on_rt_error(void (*fn)(void));

#endif
