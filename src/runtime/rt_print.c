/* rt_print.c: values as text, the way `print` shows them, and the string buffer the
   runtime formats into. */
#include "runtime/rt_internal.h"
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void sb_reserve(StrBuf *b, size_t extra) {
  if (b->len + extra + 1 <= b->cap) return;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < b->len + extra + 1) cap *= 2;
  char *s = realloc(b->s, cap);
  if (!s) {
    SrcLoc none = { 0 };
    rt_error(none, "out of memory");
  }
  b->s = s;
  b->cap = cap;
}

void sb_putn(StrBuf *b, const char *s, size_t n) {
  sb_reserve(b, n);
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = 0;
}

void sb_putc(StrBuf *b, char c) { sb_putn(b, &c, 1); }
void sb_puts(StrBuf *b, const char *s) { sb_putn(b, s, strlen(s)); }

void sb_printf(StrBuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  sb_reserve(b, (size_t)n);
  va_start(ap, fmt);
  vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

/* %.6g, except NaN, Inf, -Inf and -0 (shown as 0). */
void sb_format_real(StrBuf *b, double x) {
  if (isnan(x)) sb_puts(b, "NaN");
  else if (isinf(x)) sb_puts(b, x < 0 ? "-Inf" : "Inf");
  else sb_printf(b, "%.6g", x == 0 ? 0.0 : x);
}

static void format_complex(StrBuf *b, double re, double im) {
  sb_format_real(b, re);
  sb_putc(b, im < 0 ? '-' : '+');
  sb_format_real(b, im < 0 ? -im : im);
  sb_putc(b, 'i');
}

static void format_elem(StrBuf *b, const Array *a, int64_t i) {
  switch (el_class(a->elem)) {
  case NC_INT: sb_printf(b, "%lld", (long long)arr_load_i(a, i)); break;
  case NC_REAL: sb_format_real(b, arr_load(a, i)); break;
  default: {
    double re, im;
    arr_load_c(a, i, &re, &im);
    format_complex(b, re, im);
  }
  }
}

/* Dimension d of the block that starts at element *i; rows of a matrix go on their own
   lines, indented to line up under the outer bracket. */
static void format_block(StrBuf *b, const Array *a, int d, int64_t *i) {
  sb_putc(b, '[');
  for (int64_t k = 0; k < a->dims[d]; k++) {
    if (k > 0) {
      sb_putc(b, ',');
      if (d < a->rank - 1) {
        sb_putc(b, '\n');
        for (int s = 0; s <= d; s++) sb_putc(b, ' ');
      }
    }
    if (d == a->rank - 1) format_elem(b, a, (*i)++);
    else format_block(b, a, d + 1, i);
  }
  sb_putc(b, ']');
}

void sb_format_value(StrBuf *b, Value v) {
  switch (v.kind) {
  case V_NONE: sb_puts(b, "none"); break;
  case V_BOOL: sb_puts(b, v.i ? "true" : "false"); break;
  case V_INT: sb_printf(b, "%lld", (long long)v.i); break;
  case V_SCALAR: sb_format_real(b, v.s); break;
  case V_CSCALAR: format_complex(b, v.c.re, v.c.im); break;
  case V_STRING: sb_putn(b, v.str->s, (size_t)v.str->len); break;
  case V_ARRAY: {
    int64_t i = 0;
    if (v.arr->numel == 0) sb_puts(b, "[]");
    else format_block(b, v.arr, 0, &i);
    break;
  }
  case V_COLON: sb_putc(b, ':'); break;
  case V_FUNC: sb_puts(b, "function"); break;
  case V_TYPE: sb_puts(b, v.type && v.type->name ? v.type->name : "type"); break;
  case V_HANDLE: sb_printf(b, "<%s>", v.h->cls->name); break;
  case V_TUPLE:
    sb_putc(b, '(');
    for (int k = 0; k < v.tup->n; k++) {
      if (k) sb_puts(b, ", ");
      sb_format_value(b, v.tup->v[k]);
    }
    sb_putc(b, ')');
    break;
  case V_OBJECT: case V_CELL: sb_format_composite(b, v, 0); break;
  case V_NULL: sb_puts(b, "nullptr"); break;
  }
}

char *rt_format(Value v) {
  StrBuf b = { 0 };
  sb_reserve(&b, 0);
  b.s[0] = 0;
  sb_format_value(&b, v);
  return b.s;
}

/* Writes the text of v, without a newline (print adds its own separators). */
void rt_print(FILE *out, Value v) {
  char *s = rt_format(v);
  fputs(s, out);
  free(s);
}
