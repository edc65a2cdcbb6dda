/* lex.c: the Quasar tokenizer.
   Line breaks are statement separators, so the lexer emits TK_NEWLINE tokens, except:
   after `_` at the end of a line (explicit continuation) and after a token that cannot end a
   statement (a binary operator, an assignment, a comma: published code breaks `g = (a) -`
   newline `(b)`). Newlines inside brackets are dropped by the parser, which knows the
   nesting; the lexer only marks every token that follows a line break (nl_before). */
#include "front/lex.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Lexer {
  Arena *arena;
  const SrcFile *file;
  const char *p;            /* next character */
  const char *line_start;
  int line;
  bool nl_pending;          /* a line break was seen since the last token */
  Token *toks; int n, cap;
} Lexer;

static const struct { const char *word; TokKind kind; } keywords[] = {
  {"function", TK_FUNCTION}, {"endfunction", TK_ENDFUNCTION}, {"end", TK_END},
  {"if", TK_IF}, {"elseif", TK_ELSEIF}, {"else", TK_ELSE}, {"endif", TK_ENDIF},
  {"for", TK_FOR}, {"endfor", TK_ENDFOR}, {"while", TK_WHILE}, {"endwhile", TK_ENDWHILE},
  {"repeat", TK_REPEAT}, {"until", TK_UNTIL}, {"match", TK_MATCH}, {"with", TK_WITH},
  {"endmatch", TK_ENDMATCH}, {"break", TK_BREAK}, {"continue", TK_CONTINUE},
  {"return", TK_RETURN}, {"import", TK_IMPORT}, {"macro", TK_MACRO},
  {"endmacro", TK_ENDMACRO}, {"reduction", TK_REDUCTION}, {"type", TK_TYPE},
  {"endtype", TK_ENDTYPE}, {"__kernel__", TK_KERNEL}, {"__device__", TK_DEVICE},
};

/* Longest first, so that the first prefix that matches is the right token. */
static const struct { const char *text; TokKind kind; } puncts[] = {
  {"^^=", TK_MAX_ASSIGN}, {"__=", TK_MIN_ASSIGN}, {".*=", TK_EMUL_ASSIGN},
  {"./=", TK_EDIV_ASSIGN}, {".^=", TK_EPOW_ASSIGN},
  {"..", TK_DOTDOT}, {".*", TK_DOTSTAR}, {"./", TK_DOTSLASH}, {".^", TK_DOTCARET},
  {"==", TK_EQ}, {"!=", TK_NE}, {"<=", TK_LE}, {">=", TK_GE}, {"&&", TK_ANDAND},
  {"||", TK_OROR}, {"+=", TK_ADD_ASSIGN}, {"-=", TK_SUB_ASSIGN}, {"*=", TK_MUL_ASSIGN},
  {"/=", TK_DIV_ASSIGN}, {"^=", TK_POW_ASSIGN}, {"&=", TK_AND_ASSIGN}, {"|=", TK_OR_ASSIGN},
  {"~=", TK_XOR_ASSIGN}, {"->", TK_ARROW}, {"<-", TK_LARROW}, {"??", TK_QQ},
  {"{!", TK_ATTR_OPEN},
  {"(", TK_LPAREN}, {")", TK_RPAREN}, {"[", TK_LBRACK}, {"]", TK_RBRACK},
  {"{", TK_LBRACE}, {"}", TK_RBRACE}, {".", TK_DOT}, {":", TK_COLON}, {"?", TK_QUESTION},
  {"'", TK_APOS}, {"|", TK_BAR}, {"!", TK_BANG}, {"~", TK_TILDE}, {"+", TK_PLUS},
  {"-", TK_MINUS}, {"*", TK_STAR}, {"/", TK_SLASH}, {"^", TK_CARET}, {"<", TK_LT},
  {">", TK_GT}, {"=", TK_ASSIGN}, {",", TK_COMMA}, {";", TK_SEMI},
};

static const char *const kind_names[TK_COUNT] = {
  [TK_EOF] = "end of file", [TK_NEWLINE] = "end of line", [TK_SEMI] = "';'",
  [TK_COMMA] = "','", [TK_INT] = "number", [TK_REAL] = "number", [TK_IMAG] = "number",
  [TK_STRING] = "string", [TK_IDENT] = "name", [TK_ERROR] = "invalid token",
};

const char *tok_kind_name(TokKind k) {
  static char buf[TK_COUNT][16];
  if (k < 0 || k >= TK_COUNT) return "token";
  if (kind_names[k]) return kind_names[k];
  if (!buf[k][0]) {   /* punctuation and keywords: their spelling in quotes */
    for (size_t i = 0; i < sizeof puncts / sizeof *puncts; i++)
      if (puncts[i].kind == k) snprintf(buf[k], sizeof buf[k], "'%s'", puncts[i].text);
    for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
      if (keywords[i].kind == k) snprintf(buf[k], sizeof buf[k], "'%s'", keywords[i].word);
  }
  return buf[k];
}

bool tok_is_keyword(TokKind k) { return k >= TK_FUNCTION && k <= TK_DEVICE; }

static bool is_ident_start(int c) { return isalpha(c) || c == '_' || c == '$'; }
static bool is_ident_char(int c) { return isalnum(c) || c == '_' || c == '$'; }

/* A token at the end of a line that cannot end a statement: the statement goes on. */
static bool continues_line(TokKind k) {
  return (k >= TK_PLUS && k <= TK_MIN_ASSIGN) || k == TK_COMMA || k == TK_DOTDOT ||
         k == TK_ARROW || k == TK_LARROW || k == TK_QUESTION || k == TK_COLON;
}

static SrcLoc loc_at(Lexer *L, const char *at) {
  return (SrcLoc){ L->file, L->line, (int)(at - L->line_start) + 1 };
}

static Token *push(Lexer *L, TokKind kind, const char *start, const char *end) {
  if (L->n == L->cap) {
    L->cap = L->cap ? 2 * L->cap : 256;
    L->toks = realloc(L->toks, (size_t)L->cap * sizeof *L->toks);
    if (!L->toks) { fprintf(stderr, "oq: out of memory\n"); exit(1); }
  }
  Token *t = &L->toks[L->n++];
  memset(t, 0, sizeof *t);
  t->kind = kind;
  t->loc = loc_at(L, start);
  t->text = start;
  t->len = (int)(end - start);
  t->nl_before = L->nl_pending;
  L->nl_pending = false;
  return t;
}

static Token *error_token(Lexer *L, const char *start, const char *end, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static Token *error_token(Lexer *L, const char *start, const char *end, const char *fmt, ...) {
  char buf[200];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  Token *t = push(L, TK_ERROR, start, end);
  t->str = arena_strdup(L->arena, buf);
  return t;
}

/* A line break: a separator unless the statement obviously goes on. */
static void newline(Lexer *L) {
  TokKind last = L->n ? L->toks[L->n - 1].kind : TK_NEWLINE;
  if (last != TK_NEWLINE && last != TK_SEMI && !continues_line(last)) {
    bool pending = L->nl_pending;
    push(L, TK_NEWLINE, L->p, L->p + 1);
    L->nl_pending = pending;
  }
  L->nl_pending = true;
  L->p++;
  L->line++;
  L->line_start = L->p;
}

/* `_` followed only by blanks or a comment up to the line end continues the line. */
static bool is_continuation(const char *p) {
  if (*p != '_' || is_ident_char((unsigned char)p[1])) return false;
  for (p++; *p == ' ' || *p == '\t' || *p == '\r'; p++) {}
  return *p == '\n' || *p == '%' || *p == 0;
}

static void skip_continuation(Lexer *L) {
  while (*L->p && *L->p != '\n') L->p++;
  if (*L->p == '\n') {
    L->p++;
    L->line++;
    L->line_start = L->p;
  }
  L->nl_pending = true;
}

static void lex_number(Lexer *L) {
  const char *start = L->p, *p = L->p;
  bool real = false;
  while (isdigit((unsigned char)*p)) p++;
  if (*p == '.' && isdigit((unsigned char)p[1])) {
    real = true;
    for (p++; isdigit((unsigned char)*p); p++) {}
  } else if (*p == '.' && p > start && (!p[1] || !strchr(".*/^", p[1])) &&
             !is_ident_start((unsigned char)p[1])) {
    real = true;   /* `0.`; but `0..3` is a range and `2.^x` an element-wise power */
    p++;
  }
  bool exponent = (*p == 'e' || *p == 'E') &&   /* p[1] and p[2] exist only past an 'e' */
                  (isdigit((unsigned char)p[1]) ||
                   ((p[1] == '+' || p[1] == '-') && isdigit((unsigned char)p[2])));
  if (exponent) {
    real = true;
    for (p += 2; isdigit((unsigned char)*p); p++) {}
  }
  const char *digits_end = p;
  bool imag = (*p == 'i' || *p == 'j') && !is_ident_char((unsigned char)p[1]);
  if (imag) p++;
  if (is_ident_char((unsigned char)*p)) {
    const char *q = p;
    while (is_ident_char((unsigned char)*q)) q++;
    error_token(L, start, q, "invalid number '%.*s'", (int)(q - start), start);
    L->p = q;
    return;
  }
  char small[64];
  size_t n = (size_t)(digits_end - start);
  char *copy = n < sizeof small ? small : arena_alloc(L->arena, n + 1);
  memcpy(copy, start, n);
  copy[n] = 0;
  Token *t = push(L, imag ? TK_IMAG : real ? TK_REAL : TK_INT, start, p);
  if (t->kind == TK_INT) {
    int64_t v = 0;
    for (const char *d = copy; *d; d++) {
      if (v > (INT64_MAX - (*d - '0')) / 10) { t->kind = TK_REAL; break; }   /* too big */
      v = v * 10 + (*d - '0');
    }
    t->ival = v;
  }
  if (t->kind != TK_INT) t->rval = strtod(copy, NULL);
  L->p = p;
}

/* Backslash is an ordinary character in a string literal: "H:\out\" and
   import "C:\Users\me\lib.q" are Windows paths in published code. Escapes such as \n are
   interpreted by the formats of printf and sprintf (rt_builtins.c), not here. */
static void lex_string(Lexer *L) {
  const char *start = L->p;
  const char *p = start + 1;
  for (; *p != '"'; p++) {
    if (*p == '\n' || *p == 0) {
      error_token(L, start, p, "unterminated string (missing '\"' before the end of the line)");
      L->p = p;
      return;
    }
  }
  Token *t = push(L, TK_STRING, start, p + 1);
  t->str = arena_strndup(L->arena, start + 1, (size_t)(p - start - 1));
  L->p = p + 1;
}

/* Length of the UTF-8 sequence at p and its code point, or 0 if it is not valid UTF-8. */
static int utf8_decode(const unsigned char *p, unsigned *cp) {
  int len = p[0] >= 0xF0 && p[0] < 0xF8 ? 4 : p[0] >= 0xE0 ? 3 : p[0] >= 0xC2 ? 2 : 0;
  if (!len || p[0] >= 0xF8) return 0;
  unsigned c = p[0] & (0x7F >> len);
  for (int i = 1; i < len; i++) {
    if ((p[i] & 0xC0) != 0x80) return 0;
    c = c << 6 | (p[i] & 0x3F);
  }
  *cp = c;
  return len;
}

/* One bad character (or a run of them) becomes one error token. */
static void lex_bad_char(Lexer *L) {
  const unsigned char *p = (const unsigned char *)L->p;
  const char *start = L->p;
  unsigned cp;
  int len = *p >= 0x80 ? utf8_decode(p, &cp) : 0;
  const char *end = start + (len ? len : 1);
  /* swallow the rest of a run of non-ASCII bytes: one message, not one per byte */
  while (*end && (unsigned char)*end >= 0x80) end++;
  if (len && (cp == 0x2018 || cp == 0x2019))
    error_token(L, start, end, "unexpected character '%.*s' (U+%04X): a type modifier is "
                "written with a plain apostrophe (')", len, start, cp);
  else if (len && (cp == 0x201C || cp == 0x201D))
    error_token(L, start, end, "unexpected character '%.*s' (U+%04X): strings are written "
                "with plain double quotes (\")", len, start, cp);
  else if (len)
    error_token(L, start, end, "unexpected character '%.*s' (U+%04X)", len, start, cp);
  else if (*p >= 0x80 || *p < 0x20 || *p == 0x7F)
    error_token(L, start, end, "unexpected byte 0x%02X", *p);
  else
    error_token(L, start, end, "unexpected character '%c'", *p);
  L->p = end;
}

static void lex_punct(Lexer *L) {
  for (size_t i = 0; i < sizeof puncts / sizeof *puncts; i++) {
    size_t n = strlen(puncts[i].text);
    if (!strncmp(L->p, puncts[i].text, n)) {
      push(L, puncts[i].kind, L->p, L->p + n);
      L->p += n;
      return;
    }
  }
  lex_bad_char(L);
}

static void lex_word(Lexer *L) {
  const char *start = L->p;
  while (is_ident_char((unsigned char)*L->p)) L->p++;
  size_t n = (size_t)(L->p - start);
  TokKind kind = TK_IDENT;
  for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
    if (strlen(keywords[i].word) == n && !strncmp(keywords[i].word, start, n))
      kind = keywords[i].kind;
  Token *t = push(L, kind, start, L->p);
  if (kind == TK_IDENT) t->str = arena_strndup(L->arena, start, n);
}

/* Where "end of file" is reported: the end of the line of the last token. */
static SrcLoc eof_loc(Lexer *L) {
  if (!L->n) return (SrcLoc){ L->file, 1, 1 };
  const Token *last = &L->toks[L->n - 1];
  if (last->kind == TK_NEWLINE) return last->loc;   /* it stands at that line's end */
  SrcLoc loc = last->loc;
  loc.col += (int)strcspn(last->text, "\n");   /* tokens never span lines */
  return loc;
}

TokenArray lex_file(Arena *arena, const SrcFile *file) {
  Lexer L = { .arena = arena, .file = file, .p = file->text, .line_start = file->text, .line = 1 };
  for (;;) {
    char c = *L.p;
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') { L.p++; continue; }
    if (c == '%') { while (*L.p && *L.p != '\n') L.p++; continue; }
    if (c == '\n') { newline(&L); continue; }
    if (c == 0) break;
    if (is_continuation(L.p)) { skip_continuation(&L); continue; }
    if (!strncmp(L.p, "__=", 3) && L.p[3] != '=') { lex_punct(&L); continue; }
    if (isdigit((unsigned char)c) || (c == '.' && isdigit((unsigned char)L.p[1]))) lex_number(&L);
    else if (is_ident_start((unsigned char)c)) lex_word(&L);
    else if (c == '"') lex_string(&L);
    else lex_punct(&L);
  }
  SrcLoc end = eof_loc(&L);
  Token *eof = push(&L, TK_EOF, L.p, L.p);
  eof->loc = end;
  return (TokenArray){ L.toks, L.n };
}
