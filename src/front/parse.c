/* parse.c: recursive-descent parser, tokens (lex.h) -> syntax tree (ast.h).

   Statements end at a line break or ';'. Inside brackets a line break means nothing: the
   parser counts the brackets open around the current expression (Parser.nest) and skips
   TK_NEWLINE while it is above zero. A lambda body in parentheses, `(a; b)`, is a statement
   list again, so it parses with nest reset to zero.

   Errors: every statement parses under its own recovery point (guarded()). A syntax error
   reports once, longjmps back there, the rest of the statement is skipped up to the next
   line break or ';' at bracket depth 0 (or a block keyword), and parsing goes on. So each
   statement reports at most one error; after MAX_ERRORS the whole parse stops. Block
   headers (if, for, function ...) have their own recovery point, so that a broken header
   still lets its body and its `end` be parsed and no `end` is left over. */
#include "front/parse.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "front/lex.h"
#include "front/types.h"

enum { MAX_DEPTH = 256, MAX_ERRORS = 20 };

/* The open blocks, innermost last: which keywords close what. */
typedef enum BlockKind {
  BK_PROGRAM, BK_FUNCTION, BK_MACRO, BK_IF, BK_ELSE, BK_FOR, BK_WHILE, BK_REPEAT, BK_MATCH,
  BK_CLASS, BK_PAREN /* a lambda body `(s1; s2)`: closed by ')' */
} BlockKind;

typedef struct OpenBlock {
  BlockKind kind;
  int opener;           /* token index of the keyword or '(' that opened it */
} OpenBlock;

typedef struct Parser {
  Arena *arena;
  SrcFile *file;
  Token *toks;
  int ntoks;
  int *partner;         /* index of the matching bracket, or -1 */
  int pos;              /* next token */
  int nest;             /* brackets open around the current expression: newlines skipped */
  int depth;            /* recursion depth, capped at MAX_DEPTH */
  int nerrors;
  bool eof_reported;    /* "missing end at end of file" is said once, for the innermost block */
  bool in_pattern;      /* a match pattern: `x -> ...` there is not a lambda */
  bool in_line_attr;    /* `!name a=1; b=2`: there ';' separates arguments */
  bool fail_in_attr;    /* in_line_attr when the last syntax error was raised */
  bool in_condition;    /* an if/elseif/while/until condition: `(a[i] ~= 0)` compares there */
  int assign_from;      /* token index where a statement's left side starts, -1: none */
  int paren_from;       /* token index after the '(' of `(a[i] ~= m)`, -1: none (parse_cmp) */
  jmp_buf *on_error;    /* recovery point of the statement being parsed */
  jmp_buf *on_abort;    /* too many errors */
  OpenBlock open[MAX_DEPTH + 2];   /* each push but the program's and a `(s1; s2)` body's
                                     comes with enter(), and such a body with its lambda's */
  int nopen;
  char found[96];       /* text of the last "found ..." */
} Parser;

typedef void *ParseFn(Parser *P, void *arg);

static Node *parse_expr(Parser *P);
static Node *parse_unary(Parser *P);
static Node *parse_expr_or_assign(Parser *P);
static Node *finish_assign(Parser *P, Node *lhs);
static bool assignable(const Node *n);
static Node *parse_statement(Parser *P);
static Type *parse_type(Parser *P);
static void parse_body(Parser *P, NodeList *out);

/* ---------------------------------------------------------------- allocation */

static Node *new_node(Parser *P, NodeKind kind, SrcLoc loc) { return ast_node(P->arena, kind, loc); }

/* Arrays in the arena grow by doubling: capacity 4, 8, 16 ...; n is the element count. */
static void *grow(Parser *P, void *items, int n, size_t size) {
  if (n > 0 && (n < 4 || (n & (n - 1)))) return items;
  void *p = arena_alloc(P->arena, (size_t)(n ? 2 * n : 4) * size);
  if (n) memcpy(p, items, (size_t)n * size);
  return p;
}

static void list_push(Parser *P, NodeList *l, Node *x) {
  l->items = grow(P, l->items, l->n, sizeof *l->items);
  l->items[l->n++] = x;
}

static void param_push(Parser *P, Param **items, int *n, Param p) {
  *items = grow(P, *items, *n, sizeof **items);
  (*items)[(*n)++] = p;
}

/* ---------------------------------------------------------------- tokens */

/* Index of the current token; inside brackets a line break is skipped. */
static int cur(Parser *P) {
  int i = P->pos;
  if (P->nest > 0 && P->toks[i].kind == TK_NEWLINE) i++;
  return i;
}

static Token *peek(Parser *P) { return &P->toks[cur(P)]; }
static bool at(Parser *P, TokKind k) { return peek(P)->kind == k; }

/* The index of the token after token i, seen as the current nesting sees it. */
static int index_after(Parser *P, int i) {
  if (P->toks[i].kind == TK_EOF) return i;
  i++;
  if (P->nest > 0 && P->toks[i].kind == TK_NEWLINE) i++;
  return i;
}

static Token *after(Parser *P, int i) { return &P->toks[index_after(P, i)]; }

static Token *advance(Parser *P) {
  int i = cur(P);
  P->pos = P->toks[i].kind == TK_EOF ? i : i + 1;
  return &P->toks[i];
}

static bool accept(Parser *P, TokKind k) {
  if (!at(P, k)) return false;
  advance(P);
  return true;
}

/* A word: a name, or a keyword where only a word can stand (a.type, {!parallel for}). */
static bool is_word(const Token *t) { return t->kind == TK_IDENT || tok_is_keyword(t->kind); }

static const char *word_text(Parser *P, const Token *t) {
  return t->kind == TK_IDENT ? t->str : arena_strndup(P->arena, t->text, (size_t)t->len);
}

static bool is_ident(const Token *t, const char *name) {
  return t->kind == TK_IDENT && !strcmp(t->str, name);
}

static bool is_closer_keyword(TokKind k) {
  switch (k) {
  case TK_END: case TK_ENDFUNCTION: case TK_ENDIF: case TK_ENDFOR: case TK_ENDWHILE:
  case TK_ENDMATCH: case TK_ENDMACRO: case TK_ENDTYPE: case TK_UNTIL: case TK_ELSE:
  case TK_ELSEIF:
    return true;
  default:
    return false;
  }
}

/* Keywords that only start statements; recovery stops before them at a line start. */
static bool is_opener_keyword(TokKind k) {
  switch (k) {
  case TK_FUNCTION: case TK_IF: case TK_FOR: case TK_WHILE: case TK_REPEAT: case TK_MATCH:
  case TK_MACRO: case TK_REDUCTION: case TK_TYPE: case TK_IMPORT:
    return true;
  default:
    return false;
  }
}

static bool is_open_bracket(TokKind k) {
  return k == TK_LPAREN || k == TK_LBRACK || k == TK_LBRACE || k == TK_ATTR_OPEN;
}

static bool is_close_bracket(TokKind k) {
  return k == TK_RPAREN || k == TK_RBRACK || k == TK_RBRACE;
}

static bool brackets_pair(TokKind open, TokKind close) {
  return (open == TK_LPAREN && close == TK_RPAREN) || (open == TK_LBRACK && close == TK_RBRACK) ||
         ((open == TK_LBRACE || open == TK_ATTR_OPEN) && close == TK_RBRACE);
}

/* partner[i]: the index of the bracket that matches bracket i, or -1. Lets the parser see
   past a parenthesized list (is it a lambda's parameter list?) without parsing it. */
static int *match_brackets(const Token *toks, int n) {
  int *partner = malloc((size_t)n * sizeof *partner);
  int *stack = malloc((size_t)n * sizeof *stack);
  if (!partner || !stack) { fprintf(stderr, "oq: out of memory\n"); exit(1); }
  int sp = 0;
  for (int i = 0; i < n; i++) {
    partner[i] = -1;
    if (is_open_bracket(toks[i].kind)) {
      stack[sp++] = i;
    } else if (is_close_bracket(toks[i].kind) && sp > 0 &&
               brackets_pair(toks[stack[sp - 1]].kind, toks[i].kind)) {
      partner[i] = stack[--sp];
      partner[partner[i]] = i;
    }
  }
  free(stack);
  return partner;
}

/* ---------------------------------------------------------------- errors */

static _Noreturn void abort_parse(Parser *P, SrcLoc loc) {
  diag_note(loc, "too many errors; stopping here");
  longjmp(*P->on_abort, 1);
}

static void vreport(Parser *P, SrcLoc loc, const char *fmt, va_list ap) {
  char msg[512];
  vsnprintf(msg, sizeof msg, fmt, ap);
  diag_error(loc, "%s", msg);
  if (++P->nerrors >= MAX_ERRORS) abort_parse(P, loc);
}

/* Reports an error and goes on (missing `end`, stray `endfor`). */
static void report(Parser *P, SrcLoc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void report(Parser *P, SrcLoc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vreport(P, loc, fmt, ap);
  va_end(ap);
}

/* Reports an error and abandons the current statement. */
static _Noreturn void fail(Parser *P, SrcLoc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static _Noreturn void fail(Parser *P, SrcLoc loc, const char *fmt, ...) {
  P->fail_in_attr = P->in_line_attr;
  va_list ap;
  va_start(ap, fmt);
  vreport(P, loc, fmt, ap);
  va_end(ap);
  longjmp(*P->on_error, 1);
}

static const char *describe(Parser *P, const Token *t) {
  if (t->kind == TK_EOF || t->kind == TK_NEWLINE) return tok_kind_name(t->kind);
  int n = t->len > 40 ? 40 : t->len;
  const char *more = t->len > 40 ? "..." : "";
  if (t->kind == TK_STRING) snprintf(P->found, sizeof P->found, "string %.*s%s", n, t->text, more);
  else snprintf(P->found, sizeof P->found, "'%.*s%s'", n, t->text, more);
  return P->found;
}

/* "expected WHAT, found X" at the current token. A line break that was skipped inside
   brackets is what is named as found: most often the bracket was never closed. */
static _Noreturn void expected(Parser *P, const char *what) {
  const Token *t = &P->toks[P->pos];
  if (t->kind == TK_ERROR) fail(P, t->loc, "%s", t->str);   /* a lexical error says more */
  fail(P, t->loc, "expected %s, found %s", what, describe(P, t));
}

static Token *expect(Parser *P, TokKind k, const char *what) {
  if (!at(P, k)) expected(P, what);
  return advance(P);
}

static Token *expect_ident(Parser *P, const char *what) { return expect(P, TK_IDENT, what); }

/* The closing bracket of `open`; the message names where the bracket was opened. */
static void expect_close(Parser *P, TokKind close, const Token *open) {
  if (accept(P, close)) return;
  char what[96];
  snprintf(what, sizeof what, "%s to close '%.*s' at %d:%d", tok_kind_name(close), open->len,
           open->text, open->loc.line, open->loc.col);
  expected(P, what);
}

static void enter(Parser *P) {
  if (++P->depth > MAX_DEPTH)
    fail(P, peek(P)->loc, "nesting too deep (more than %d levels)", MAX_DEPTH);
}

static void leave(Parser *P) { P->depth--; }

static bool in_paren_block(Parser *P) {
  return P->nopen > 0 && P->open[P->nopen - 1].kind == BK_PAREN;
}

/* Skips the rest of a broken statement that began at token `from`: to the next line break
   (or ';' when `semis`) outside brackets, the ')' that closes an enclosing lambda body, a
   keyword that closes a block, or one that starts a statement on a new line. Each of these
   is handled by the statement loops without calling parse_statement on it, so the loops
   always progress. Brackets of the statement still open at the error are skipped whole
   when they close later ([1, 2 <newline> 3]); when one never closes, the rest of its line
   is inside it, so its ';' separate nothing. */
static void skip_to_boundary(Parser *P, int from, bool semis) {
  int limit = in_paren_block(P) ? P->partner[P->open[P->nopen - 1].opener] : -1;
  int inside_until = -1;
  for (int i = from; i < P->pos; i++) {
    if (!is_open_bracket(P->toks[i].kind)) continue;
    int close = P->partner[i];
    if (close < 0) semis = false;
    else if (close >= P->pos && close > inside_until) inside_until = close;
  }
  int depth = 0;
  for (;; P->pos++) {
    const Token *t = &P->toks[P->pos];
    if (t->kind == TK_EOF || P->pos == limit || is_closer_keyword(t->kind)) return;
    if (is_opener_keyword(t->kind) && t->nl_before && P->pos > from) return;
    if (P->pos <= inside_until) continue;
    if (depth <= 0 && (t->kind == TK_NEWLINE || (semis && t->kind == TK_SEMI))) return;
    if (is_open_bracket(t->kind)) depth++;
    if (is_close_bracket(t->kind)) depth--;
  }
}

/* Runs fn(P, arg) with its own recovery point: after a syntax error inside, the rest of the
   statement is skipped and NULL returned. The parser's state is restored as it was. */
static void *guarded(Parser *P, ParseFn *fn, void *arg) {
  jmp_buf here;
  jmp_buf *outer = P->on_error;
  int from = P->pos, nest = P->nest, depth = P->depth, nopen = P->nopen;
  int assign_from = P->assign_from, paren_from = P->paren_from;
  bool in_pattern = P->in_pattern, in_line_attr = P->in_line_attr;
  bool in_condition = P->in_condition;
  P->on_error = &here;
  if (setjmp(here)) {
    P->on_error = outer;
    P->nest = nest;
    P->depth = depth;
    P->nopen = nopen;
    P->in_pattern = in_pattern;
    P->in_line_attr = in_line_attr;
    P->in_condition = in_condition;
    P->assign_from = assign_from;
    P->paren_from = paren_from;
    skip_to_boundary(P, from, !P->fail_in_attr);
    return NULL;
  }
  void *result = fn(P, arg);
  P->on_error = outer;
  return result;
}

/* ---------------------------------------------------------------- types */

static Type *new_type(Parser *P, TypeKind kind, const char *name, SrcLoc loc) {
  Type *t = arena_alloc(P->arena, sizeof *t);
  t->kind = kind;
  t->name = name;
  t->loc = loc;
  return t;
}

static const struct { const char *name; unsigned bit; } type_modifiers[] = {
  {"unchecked", TM_UNCHECKED}, {"checked", TM_CHECKED}, {"safe", TM_SAFE},
  {"circular", TM_CIRCULAR}, {"mirror", TM_MIRROR}, {"clamped", TM_CLAMPED},
  {"const", TM_CONST}, {"nocopy", TM_NOCOPY}, {"hwconst", TM_HWCONST},
  {"hw_const", TM_HWCONST}, {"hwtex_const", TM_HWTEX_CONST},
  {"hwtex_nearest", TM_HWTEX_NEAREST}, {"hwtex_linear", TM_HWTEX_LINEAR},
  {"shared", TM_SHARED}, {"half", TM_HALF}, {"single", TM_SINGLE}, {"double", TM_DOUBLE},
  {"static", TM_STATIC},
};

/* 'mod'mod...: modifiers stack. `'hwtex_linear(4)` (texture components) is accepted; the
   component count is not kept in the tree. */
static void parse_modifiers(Parser *P, Type *ty) {
  while (accept(P, TK_APOS)) {
    Token *m = peek(P);
    if (m->kind != TK_IDENT)   /* `A'` is no transpose in Quasar: say so */
      expected(P, "a type modifier after \"'\" (a transpose is written transpose(x))");
    unsigned bit = 0;
    for (size_t i = 0; i < sizeof type_modifiers / sizeof *type_modifiers; i++)
      if (!strcmp(m->str, type_modifiers[i].name)) bit = type_modifiers[i].bit;
    if (!bit) fail(P, m->loc, "unknown type modifier '%s'", m->str);
    advance(P);
    ty->mods |= bit;
    if ((bit & (TM_HWTEX_NEAREST | TM_HWTEX_LINEAR)) && at(P, TK_LPAREN)) {
      Token *open = advance(P);
      P->nest++;
      parse_expr(P);
      expect_close(P, TK_RPAREN, open);
      P->nest--;
    }
  }
}

/* [__device__ (scalar, scalar) -> scalar], [(int) -> (int, int)] */
static Type *parse_func_type(Parser *P) {
  Token *open = advance(P);
  P->nest++;
  Type *ty = new_type(P, TY_FUNC, NULL, open->loc);
  ty->fkind = accept(P, TK_KERNEL) ? FK_KERNEL : accept(P, TK_DEVICE) ? FK_DEVICE : FK_HOST;
  Token *po = expect(P, TK_LPAREN, "'(' to start the parameter types of a function type");
  if (!at(P, TK_RPAREN)) {
    do {
      ty->params = grow(P, ty->params, ty->nparams, sizeof *ty->params);
      ty->params[ty->nparams++] = parse_type(P);
    } while (accept(P, TK_COMMA));
  }
  expect_close(P, TK_RPAREN, po);
  expect(P, TK_ARROW, "'->' in a function type");
  Token *ro = at(P, TK_LPAREN) ? advance(P) : NULL;
  do {
    ty->results = grow(P, ty->results, ty->nresults, sizeof *ty->results);
    ty->results[ty->nresults++] = parse_type(P);
  } while (ro && accept(P, TK_COMMA));
  if (ro) expect_close(P, TK_RPAREN, ro);
  expect_close(P, TK_RBRACK, open);
  P->nest--;
  return ty;
}

/* vec, cube{4}, cube[uint8], vec[int8](4), ivec(2), T, accumulator ... */
static Type *parse_named_type(Parser *P) {
  Token *t = advance(P);
  Type *ty = new_type(P, TY_NAMED, t->str, t->loc);
  const BuiltinType *b = builtin_type(t->str);
  if (b) {
    ty->kind = b->kind;
    ty->rank = b->rank;
    ty->fixed_len = b->fixed_len;
    if (ty->kind == TY_ARRAY) ty->elem = new_type(P, b->elem, NULL, t->loc);
  }
  if (ty->kind == TY_ARRAY && at(P, TK_LBRACE)) {
    Token *open = advance(P);
    Token *n = expect(P, TK_INT, "the rank of the array type, as in cube{4}");
    if (n->ival < 1 || n->ival > 16) fail(P, n->loc, "array rank must be between 1 and 16");
    ty->rank = (int)n->ival;
    expect_close(P, TK_RBRACE, open);
  }
  if (at(P, TK_LBRACK)) {
    if (ty->kind != TY_ARRAY) fail(P, peek(P)->loc, "type '%s' has no element type", t->str);
    Token *open = advance(P);
    P->nest++;
    ty->elem = parse_type(P);
    expect_close(P, TK_RBRACK, open);
    P->nest--;
    if (ty->elem->kind == TY_UNKNOWN && !ty->elem->mods) ty->kind = TY_CELL;   /* vec[??] */
  }
  /* a fixed length: ivec(2), vec[int8](4) */
  int open = cur(P), len = index_after(P, open);
  if (ty->kind == TY_ARRAY && P->toks[open].kind == TK_LPAREN && P->toks[len].kind == TK_INT &&
      after(P, len)->kind == TK_RPAREN) {
    advance(P);
    ty->fixed_len = (int)advance(P)->ival;
    advance(P);
  }
  return ty;
}

static Type *parse_type(Parser *P) {
  enter(P);
  Token *t = peek(P);
  Type *ty;
  if (t->kind == TK_APOS) ty = new_type(P, TY_UNKNOWN, NULL, t->loc);   /* y : 'unchecked */
  else if (t->kind == TK_QQ) ty = new_type(P, TY_UNKNOWN, "??", advance(P)->loc);
  else if (t->kind == TK_LBRACK) ty = parse_func_type(P);
  else if (t->kind == TK_IDENT) ty = parse_named_type(P);
  else if (t->kind == TK_CARET && after(P, cur(P))->kind == TK_IDENT) {   /* ^point */
    advance(P);
    ty = parse_named_type(P);
    ty->pointer = true;
  }
  else expected(P, "a type");
  parse_modifiers(P, ty);
  leave(P);
  return ty;
}

/* ---------------------------------------------------------------- parameters */

/* name [: type] [= default] */
static Param parse_param(Parser *P) {
  Token *name = expect_ident(P, "a parameter name");
  Param p = { name->str, NULL, NULL, name->loc };
  p.type = accept(P, TK_COLON) ? parse_type(P) : new_type(P, TY_UNKNOWN, NULL, name->loc);
  if (accept(P, TK_ASSIGN)) p.defval = parse_expr(P);
  return p;
}

/* The parameters up to `close`; the opening bracket is already consumed. */
static void parse_params(Parser *P, Param **items, int *n, TokKind close, const Token *open) {
  P->nest++;
  if (!at(P, close)) {
    do param_push(P, items, n, parse_param(P));
    while (accept(P, TK_COMMA));
  }
  expect_close(P, close, open);
  P->nest--;
}

/* ---------------------------------------------------------------- expressions */

static bool is_assign_op(TokKind k) { return k >= TK_ASSIGN && k <= TK_MIN_ASSIGN; }

static Op assign_op(TokKind k) {
  switch (k) {
  case TK_ADD_ASSIGN: return OP_ADD;
  case TK_SUB_ASSIGN: return OP_SUB;
  case TK_MUL_ASSIGN: return OP_MUL;
  case TK_DIV_ASSIGN: return OP_DIV;
  case TK_POW_ASSIGN: return OP_POW;
  case TK_EMUL_ASSIGN: return OP_EMUL;
  case TK_EDIV_ASSIGN: return OP_EDIV;
  case TK_EPOW_ASSIGN: return OP_EPOW;
  case TK_AND_ASSIGN: return OP_BAND;
  case TK_OR_ASSIGN: return OP_BOR;
  case TK_XOR_ASSIGN: return OP_BXOR;
  case TK_MAX_ASSIGN: return OP_MAX;
  case TK_MIN_ASSIGN: return OP_MIN;
  default: return OP_NONE;
  }
}

static Node *binary(Parser *P, Op op, const Token *t, Node *a, Node *b) {
  Node *n = new_node(P, N_BINARY, t->loc);
  n->op = op;
  n->a = a;
  n->b = b;
  return n;
}

static Node *expr_stmt(Parser *P, Node *e) {
  Node *s = new_node(P, N_EXPR, e->loc);
  s->a = e;
  return s;
}

/* A literal argument whose type annotation it cannot match: `f("a" : int)`, `f(2 : string)`.
   Other arguments are checked when the call runs (their values' types are known then). */
static void literal_arg_check(Parser *P, const Node *arg, const Type *t) {
  bool numeric = t->kind == TY_SCALAR || t->kind == TY_INT || t->kind == TY_CSCALAR ||
                 t->kind == TY_BOOL || (t->kind >= TY_INT8 && t->kind <= TY_INT64) || t->kind == TY_ARRAY;
  const char *got = NULL;
  if (arg->kind == N_STRING && numeric) got = "a string";
  else if ((arg->kind == N_INT || arg->kind == N_REAL) && (t->kind == TY_STRING || t->kind == TY_FUNC))
    got = "a number";
  if (got)
    report(P, arg->loc, "type mismatch: the argument is %s, but its annotation says %s", got,
           t->name ? t->name : "another type");
}

/* `f(img, n : int)`: published code writes a type after a call argument. The call keeps
   it in call->params[i] (one entry per argument, type NULL where none was written), and
   the interpreter converts the argument to it (docs/parser.md). */
static void parse_arg_type(Parser *P, Node *call) {
  SrcLoc loc = advance(P)->loc;   /* ':' */
  if (at(P, TK_ASSIGN))
    fail(P, peek(P)->loc, "a named argument takes a name before ':=' (point(x := 1))");
  Type *t = parse_type(P);
  literal_arg_check(P, call->list.items[call->list.n - 1], t);
  while (call->nparams < call->list.n) param_push(P, &call->params, &call->nparams, (Param){0});
  call->params[call->list.n - 1].type = t;
  call->params[call->list.n - 1].loc = loc;
}

/* Arguments of a call (`call`) or an index (call NULL), up to `close`; a lone ':' is
   N_COLON (whole dimension). */
static void parse_args(Parser *P, Node *call, NodeList *out, TokKind close, const Token *open) {
  P->nest++;
  if (!at(P, close)) {
    do {
      Token *t = peek(P);
      TokKind next = after(P, cur(P))->kind;
      if (t->kind == TK_COLON && (next == TK_COMMA || next == close)) {
        advance(P);
        list_push(P, out, new_node(P, N_COLON, t->loc));
      } else if (close == TK_RPAREN && t->kind == TK_IDENT && next == TK_COLON &&
                 after(P, index_after(P, cur(P)))->kind == TK_ASSIGN) {   /* name := value */
        Node *arg = new_node(P, N_NAMEDARG, t->loc);
        arg->name = advance(P)->str;
        advance(P);
        advance(P);
        arg->a = parse_expr(P);
        list_push(P, out, arg);
      } else {
        list_push(P, out, parse_expr(P));
        if (call && at(P, TK_COLON)) parse_arg_type(P, call);
      }
    } while (accept(P, TK_COMMA));
  }
  expect_close(P, close, open);
  P->nest--;
}

/* The '(' at index i opens a lambda's parameter list: `(x, y : int) -> ...`. */
static bool lambda_ahead(Parser *P, int i) {
  int close = P->partner[i];
  return close >= 0 && after(P, close)->kind == TK_ARROW;
}

/* After '->': the '(' at index i opens a statement list `(s1; s2)`, not an expression:
   it holds a ';', an assignment or a block keyword outside inner brackets. */
static bool block_ahead(Parser *P, int i) {
  int close = P->partner[i], depth = 0;
  for (int j = i + 1; j < close; j++) {
    TokKind k = P->toks[j].kind;
    if (is_open_bracket(k)) depth++;
    else if (is_close_bracket(k)) depth--;
    else if (depth == 0 && (k == TK_SEMI || is_assign_op(k) || is_opener_keyword(k))) return true;
  }
  return false;
}

/* `(s1; s2; ...)`: statements again, so line breaks separate them. */
static void parse_paren_block(Parser *P, NodeList *out) {
  int opener = cur(P);
  Token *open = advance(P);
  int nest = P->nest;
  bool in_condition = P->in_condition;
  P->nest = 0;
  P->in_condition = false;
  P->open[P->nopen++] = (OpenBlock){ BK_PAREN, opener };
  parse_body(P, out);
  P->nopen--;
  P->in_condition = in_condition;
  if (!at(P, TK_RPAREN)) expect_close(P, TK_RPAREN, open);
  P->nest = nest;
  advance(P);
}

/* x -> e, (x, y : int) -> e, __kernel__ (pos) -> y[pos] = e, (a) -> (s1; s2) */
static Node *parse_lambda(Parser *P, FuncKind kind, const Token *start) {
  Func *f = arena_alloc(P->arena, sizeof *f);
  f->kind = kind;
  f->is_lambda = true;
  f->loc = start->loc;
  if (at(P, TK_IDENT)) {
    param_push(P, &f->params, &f->nparams, parse_param(P));
  } else {
    Token *open = expect(P, TK_LPAREN, "'(' to start the lambda's parameters");
    parse_params(P, &f->params, &f->nparams, TK_RPAREN, open);
  }
  expect(P, TK_ARROW, "'->' after the lambda's parameters");
  enter(P);
  if (at(P, TK_LPAREN) && block_ahead(P, cur(P))) {
    parse_paren_block(P, &f->body);
  } else {
    Node *body = parse_expr_or_assign(P);
    list_push(P, &f->body, body->kind == N_ASSIGN ? body : expr_stmt(P, body));
  }
  /* `add(() -> (x = v);)`: published code ends the lambda's statement with ';' before the
     call's ')'. The ';' belongs to the lambda and separates nothing. */
  if (at(P, TK_SEMI) && after(P, cur(P))->kind == TK_RPAREN) advance(P);
  leave(P);
  Node *n = new_node(P, N_LAMBDA, start->loc);
  n->func = f;
  return n;
}

/* (e), (e1, e2) a tuple, (a += 1) an assignment used as a value */
static Node *parse_paren(Parser *P) {
  Token *open = advance(P);
  P->nest++;
  int paren_from = P->paren_from;
  P->paren_from = P->in_condition ? -1 : cur(P);
  Node *e = parse_expr(P);
  P->paren_from = paren_from;
  if (is_assign_op(peek(P)->kind) && (assignable(e) || e->kind == N_MATRIX)) {
    e = finish_assign(P, e);
  } else if (at(P, TK_COMMA)) {
    Node *tuple = new_node(P, N_TUPLE, open->loc);
    list_push(P, &tuple->list, e);
    while (accept(P, TK_COMMA)) list_push(P, &tuple->list, parse_expr(P));
    e = tuple;
  }
  expect_close(P, TK_RPAREN, open);
  P->nest--;
  return e;
}

/* [1, 2, 3], [[1,2],[3,4]], [1,2;3,4] (rows), [] */
static Node *parse_matrix(Parser *P) {
  Token *open = advance(P);
  P->nest++;
  Node *m = new_node(P, N_MATRIX, open->loc);
  Node *row = new_node(P, N_MATRIX, open->loc);
  bool has_rows = false;
  if (!at(P, TK_RBRACK)) {
    for (;;) {
      list_push(P, &row->list, parse_expr(P));
      if (accept(P, TK_COMMA)) continue;
      if (!accept(P, TK_SEMI)) break;
      has_rows = true;
      list_push(P, &m->list, row);
      row = new_node(P, N_MATRIX, peek(P)->loc);
      if (at(P, TK_RBRACK)) break;
    }
  }
  expect_close(P, TK_RBRACK, open);
  P->nest--;
  if (!has_rows) {
    row->loc = open->loc;
    return row;
  }
  if (row->list.n) list_push(P, &m->list, row);   /* no empty last row after [1;2;] */
  return m;
}

static Node *parse_primary(Parser *P) {
  Token *t = peek(P);
  Node *n;
  switch (t->kind) {
  case TK_INT:
    n = new_node(P, N_INT, advance(P)->loc);
    n->ival = t->ival;
    return n;
  case TK_REAL: case TK_IMAG:
    n = new_node(P, t->kind == TK_REAL ? N_REAL : N_IMAG, advance(P)->loc);
    n->rval = t->rval;
    return n;
  case TK_STRING:
    n = new_node(P, N_STRING, advance(P)->loc);
    n->str = t->str;
    return n;
  case TK_IDENT: {
    TokKind next = after(P, cur(P))->kind;
    if (next == TK_ARROW && !P->in_pattern) return parse_lambda(P, FK_HOST, t);
    if (next == TK_APOS) {   /* a type as a value: typename(mat[scalar'half]) */
      n = new_node(P, N_TYPE, t->loc);
      n->type = parse_type(P);
      return n;
    }
    n = new_node(P, N_IDENT, advance(P)->loc);
    n->name = t->str;
    return n;
  }
  case TK_QQ:
    n = new_node(P, N_TYPE, t->loc);
    n->type = parse_type(P);
    return n;
  case TK_LPAREN:
    if (lambda_ahead(P, cur(P))) return parse_lambda(P, FK_HOST, t);
    return parse_paren(P);
  case TK_LBRACK:
    return parse_matrix(P);
  case TK_KERNEL: case TK_DEVICE:
    advance(P);
    if (!at(P, TK_LPAREN))
      expected(P, t->kind == TK_KERNEL ? "'(' after '__kernel__'" : "'(' after '__device__'");
    return parse_lambda(P, t->kind == TK_KERNEL ? FK_KERNEL : FK_DEVICE, t);
  default:
    expected(P, "an expression");
  }
}

/* f(args), x[args], a.b, and chains of them: t.shfl_down(v, 16) */
static Node *parse_postfix(Parser *P) {
  Node *e = parse_primary(P);
  for (;;) {
    Token *t = peek(P);
    Node *n;
    if (t->kind == TK_LPAREN || t->kind == TK_LBRACK) {
      n = new_node(P, t->kind == TK_LPAREN ? N_CALL : N_INDEX, e->loc);
      advance(P);
      parse_args(P, t->kind == TK_LPAREN ? n : NULL, &n->list, t->kind == TK_LPAREN ? TK_RPAREN : TK_RBRACK, t);
    } else if (t->kind == TK_DOT) {
      advance(P);
      Token *name = peek(P);
      if (!is_word(name)) expected(P, "a field name after '.'");
      advance(P);
      n = new_node(P, N_FIELD, e->loc);
      n->name = word_text(P, name);
    } else {
      return e;
    }
    n->a = e;
    e = n;
  }
}

/* a ^ b and a .^ b: right associative; the exponent may carry a sign (2^-1). */
static Node *parse_power(Parser *P) {
  Node *base = parse_postfix(P);
  Token *t = peek(P);
  if (t->kind != TK_CARET && t->kind != TK_DOTCARET) return base;
  advance(P);
  enter(P);
  Node *n = binary(P, t->kind == TK_CARET ? OP_POW : OP_EPOW, t, base, parse_unary(P));
  leave(P);
  return n;
}

/* - + ! ~ bind looser than ^: -2^2 is -(2^2). */
static Node *parse_unary(Parser *P) {
  Token *t = peek(P);
  Op op = t->kind == TK_MINUS ? OP_NEG : t->kind == TK_PLUS ? OP_PLUS :
          t->kind == TK_BANG || t->kind == TK_TILDE ? OP_NOT : OP_NONE;
  if (op == OP_NONE) return parse_power(P);
  advance(P);
  enter(P);
  Node *n = new_node(P, N_UNARY, t->loc);
  n->op = op;
  n->a = parse_unary(P);
  leave(P);
  return n;
}

static Op mul_op(const Token *t) {
  switch (t->kind) {
  case TK_STAR: return OP_MUL;
  case TK_SLASH: return OP_DIV;
  case TK_DOTSTAR: return OP_EMUL;
  case TK_DOTSLASH: return OP_EDIV;
  default: return is_ident(t, "mod") ? OP_MOD : OP_NONE;   /* `a mod b`: a name in infix place */
  }
}

static Node *parse_mul(Parser *P) {
  Node *e = parse_unary(P);
  for (Op op; (op = mul_op(peek(P))) != OP_NONE;) {
    Token *t = advance(P);
    e = binary(P, op, t, e, parse_unary(P));
  }
  return e;
}

static Node *parse_add(Parser *P) {
  Node *e = parse_mul(P);
  while (at(P, TK_PLUS) || at(P, TK_MINUS)) {
    Token *t = advance(P);
    e = binary(P, t->kind == TK_PLUS ? OP_ADD : OP_SUB, t, e, parse_mul(P));
  }
  return e;
}

/* a..b and a..step..b */
static Node *parse_range(Parser *P) {
  Node *a = parse_add(P);
  if (!at(P, TK_DOTDOT)) return a;
  Token *t = advance(P);
  Node *r = new_node(P, N_RANGE, t->loc);
  r->a = a;
  r->c = parse_add(P);
  if (accept(P, TK_DOTDOT)) {
    r->b = r->c;
    r->c = parse_add(P);
  }
  return r;
}

static Op cmp_op(TokKind k) {
  switch (k) {
  case TK_EQ: return OP_EQ;
  case TK_NE: case TK_XOR_ASSIGN: return OP_NE;   /* `~=`: see parse_cmp */
  case TK_LT: return OP_LT;
  case TK_LE: return OP_LE;
  case TK_GT: return OP_GT;
  case TK_GE: return OP_GE;
  default: return OP_NONE;
  }
}

/* `~=` is not-equal (`if a~=0`, `b = a ~= 0`), except after the left side of a statement
   (`x ~= m`) and after an array element just inside '(' outside a condition
   (`b = (a[6] ~= m)`, the atomic form of seed 001): there it is the xor-assignment, which
   is left to the caller. */
static Node *parse_cmp(Parser *P) {
  int from = cur(P);
  Node *e = parse_range(P);
  for (Op op; (op = cmp_op(peek(P)->kind)) != OP_NONE;) {
    if (at(P, TK_XOR_ASSIGN) && ((from == P->assign_from && assignable(e)) ||
                                 (from == P->paren_from && e->kind == N_INDEX)))
      break;
    Token *t = advance(P);
    e = binary(P, op, t, e, parse_range(P));
  }
  return e;
}

static Node *parse_and(Parser *P) {
  Node *e = parse_cmp(P);
  while (at(P, TK_ANDAND)) {
    Token *t = advance(P);
    e = binary(P, OP_AND, t, e, parse_cmp(P));
  }
  return e;
}

static Node *parse_or(Parser *P) {
  Node *e = parse_and(P);
  while (at(P, TK_OROR)) {
    Token *t = advance(P);
    e = binary(P, OP_OR, t, e, parse_and(P));
  }
  return e;
}

/* cond ? a : b (right associative) */
static Node *parse_ternary(Parser *P) {
  Node *c = parse_or(P);
  if (!at(P, TK_QUESTION)) return c;
  Token *t = advance(P);
  enter(P);
  Node *n = new_node(P, N_COND, t->loc);
  n->a = c;
  n->b = parse_expr(P);
  expect(P, TK_COLON, "':' of the conditional expression");
  n->c = parse_ternary(P);
  leave(P);
  return n;
}

/* Where an expression begins in the source (binary nodes are located at their operator). */
static SrcLoc start_loc(const Node *n) {
  while (n->kind == N_BINARY || n->kind == N_RANGE || n->kind == N_COND || n->kind == N_EXCHANGE)
    n = n->a;
  return n->loc;
}

static bool assignable(const Node *n) {
  return n->kind == N_IDENT || n->kind == N_INDEX || n->kind == N_FIELD;
}

/* A full expression; `a <- b` (atomic exchange) binds loosest. */
static Node *parse_expr(Parser *P) {
  enter(P);
  Node *e = parse_ternary(P);
  if (at(P, TK_LARROW)) {
    Token *t = advance(P);
    if (!assignable(e))
      fail(P, start_loc(e), "the left side of '<-' must be a variable or an element");
    Node *x = new_node(P, N_EXCHANGE, t->loc);
    x->a = e;
    x->b = parse_expr(P);
    e = x;
  }
  leave(P);
  return e;
}

/* The targets of `lhs = ...`: one, or the elements of [a, b] for multiple assignment. */
static void assign_targets(Parser *P, Node *assign, Node *lhs) {
  if (lhs->kind == N_MATRIX && assign->op == OP_NONE) {
    if (!lhs->list.n) fail(P, lhs->loc, "nothing to assign to in '[]'");
    for (int i = 0; i < lhs->list.n; i++) {
      Node *t = lhs->list.items[i];
      if (!assignable(t)) fail(P, start_loc(t), "cannot assign to this expression");
      list_push(P, &assign->list, t);
    }
    return;
  }
  if (!assignable(lhs)) fail(P, start_loc(lhs), "cannot assign to this expression");
  list_push(P, &assign->list, lhs);
}

/* lhs OP= value, with the assignment operator current. */
static Node *finish_assign(Parser *P, Node *lhs) {
  Token *t = advance(P);
  Node *n = new_node(P, N_ASSIGN, lhs->loc);
  n->op = assign_op(t->kind);
  assign_targets(P, n, lhs);
  n->b = parse_expr(P);
  return n;
}

/* An expression, or an assignment when an assignment operator follows it. */
static Node *parse_expr_or_assign(Parser *P) {
  int assign_from = P->assign_from;
  P->assign_from = cur(P);
  Node *lhs = parse_expr(P);
  P->assign_from = assign_from;
  return is_assign_op(peek(P)->kind) ? finish_assign(P, lhs) : lhs;
}

/* ---------------------------------------------------------------- statements */

/* `beta = 2*3^2,` at the end of a line: published code (MATLAB habit) ends statements with a
   comma; it separates nothing. The lexer dropped the line break after the comma, so the
   token after it starts a new line. */
static bool at_trailing_comma(Parser *P) {
  if (!at(P, TK_COMMA)) return false;
  const Token *next = after(P, cur(P));
  return next->nl_before || next->kind == TK_EOF;
}

static bool at_statement_end(Parser *P) {
  Token *t = peek(P);
  return t->kind == TK_NEWLINE || t->kind == TK_SEMI || t->kind == TK_EOF ||
         t->kind == TK_BAR || is_closer_keyword(t->kind) ||
         (t->kind == TK_RPAREN && in_paren_block(P));
}

static void end_of_statement(Parser *P, Node *s) {
  if (at_trailing_comma(P)) { advance(P); return; }
  if (at_statement_end(P)) return;
  /* `{!a} {!b}` and `{!parallel for} for ...`: a braced attribute needs no separator */
  if (s && s->kind == N_ATTR && P->toks[P->pos - 1].kind == TK_RBRACE) return;
  Token *t = peek(P);
  if (is_close_bracket(t->kind) && P->partner[cur(P)] < 0)
    fail(P, t->loc, "unmatched '%.*s'", t->len, t->text);
  expected(P, "end of statement");
}

/* The end of a block header line (after an if condition, a function header ...). */
static void end_of_header(Parser *P, const char *what) {
  Token *t = peek(P);
  if (t->kind == TK_NEWLINE || t->kind == TK_SEMI || t->kind == TK_EOF) return;
  char msg[96];
  snprintf(msg, sizeof msg, "end of line after %s", what);
  expected(P, msg);
}

static Node *ident_node(Parser *P, const Token *name) {
  Node *n = new_node(P, N_IDENT, name->loc);
  n->name = name->str;
  return n;
}

/* target : T [= e], with the ':' current; target is a name or a field (`p.a : scalar = 1`) */
static Node *finish_declaration(Parser *P, Node *target) {
  advance(P);   /* ':' */
  Node *n = new_node(P, N_ASSIGN, target->loc);
  list_push(P, &n->list, target);
  n->type = parse_type(P);
  if (accept(P, TK_ASSIGN)) n->b = parse_expr(P);
  return n;
}

/* x : T and x : T = e */
static Node *parse_declaration(Parser *P) {
  return finish_declaration(P, ident_node(P, advance(P)));
}

/* `int pw = 5`, `scalar x = 1`: a C-style declaration with a built-in type name, the same
   tree as `pw : int = 5`. */
static bool c_declaration_ahead(Parser *P) {
  const Token *t = &P->toks[P->pos];
  return t->kind == TK_IDENT && builtin_type(t->str) && t[1].kind == TK_IDENT &&
         t[2].kind == TK_ASSIGN;
}

static Node *parse_c_declaration(Parser *P) {
  Type *type = parse_type(P);
  Node *n = new_node(P, N_ASSIGN, peek(P)->loc);
  list_push(P, &n->list, ident_node(P, advance(P)));
  n->type = type;
  advance(P);   /* '=' */
  n->b = parse_expr(P);
  return n;
}

/* print a, b: a name followed by an argument on the same line is a call. */
static Node *parse_command(Parser *P) {
  Token *name = advance(P);
  Node *callee = new_node(P, N_IDENT, name->loc);
  callee->name = name->str;
  Node *call = new_node(P, N_CALL, name->loc);
  call->a = callee;
  do list_push(P, &call->list, parse_expr(P));
  while (!at_trailing_comma(P) && accept(P, TK_COMMA));
  return expr_stmt(P, call);
}

static bool starts_command_arg(const Token *t) {
  return (t->kind == TK_IDENT && strcmp(t->str, "mod")) || t->kind == TK_INT ||
         t->kind == TK_REAL || t->kind == TK_IMAG || t->kind == TK_STRING;
}

/* `print -7`, `print !ok`, `print [1,2]`: after print (and disp) anything but the end of
   the statement, an assignment, a field (`disp.subplot(1,3,0)`: published code names a
   variable disp) or a '[' written against the name (`disp[0] = 1`) starts its argument
   list. */
static bool is_print_command(const Token *name, const Token *next) {
  if (strcmp(name->str, "print") && strcmp(name->str, "disp")) return false;
  bool glued = next->loc.line == name->loc.line && next->loc.col == name->loc.col + name->len;
  return next->kind != TK_NEWLINE && next->kind != TK_EOF && next->kind != TK_SEMI &&
         next->kind != TK_DOT && !(next->kind == TK_LBRACK && glued) &&
         !is_assign_op(next->kind);
}

static Node *parse_simple_statement(Parser *P) {
  Token *t = peek(P);
  if (t->kind == TK_IDENT) {
    Token *next = &P->toks[P->pos + 1];
    if (next->kind == TK_COLON) return parse_declaration(P);
    if (c_declaration_ahead(P)) return parse_c_declaration(P);
    if (starts_command_arg(next) || is_print_command(t, next)) return parse_command(P);
  }
  Node *e = parse_expr_or_assign(P);
  if (e->kind == N_FIELD && at(P, TK_COLON)) return finish_declaration(P, e);
  return e->kind == N_ASSIGN ? e : expr_stmt(P, e);
}

static bool is_line_end(const Token *t) { return t->kind == TK_NEWLINE || t->kind == TK_EOF; }

/* {!name key=value; word ...} or !name key=value; ... up to the end of the line */
static Node *parse_attr(Parser *P, bool braced) {
  Token *open = advance(P);
  Node *n = new_node(P, N_ATTR, open->loc);
  P->in_line_attr = !braced;
  Token *name = peek(P);
  if (!is_word(name))
    expected(P, braced ? "an attribute name after '{!'" : "an attribute name after '!'");
  advance(P);
  n->name = word_text(P, name);
  for (;;) {
    while (accept(P, TK_SEMI) || accept(P, TK_COMMA))
      if (braced) accept(P, TK_NEWLINE);   /* {!a x=1;  <newline>  y=2} */
    Token *t = peek(P);
    if (braced && t->kind == TK_RBRACE) break;
    if (!braced && (t->kind == TK_NEWLINE || t->kind == TK_EOF)) break;
    if (!braced && t->kind == TK_RBRACE && is_line_end(&P->toks[P->pos + 1])) {
      advance(P);   /* seed 000 writes `!kernel_tiling ... target="gpu"}`: tolerate it */
      break;
    }
    if (!is_word(t)) {
      if (braced) expect_close(P, TK_RBRACE, open);
      expected(P, "an attribute argument or end of line");
    }
    advance(P);
    n->attrs = grow(P, n->attrs, n->nattrs, sizeof *n->attrs);
    AttrArg *a = &n->attrs[n->nattrs++];
    a->key = word_text(P, t);
    a->loc = t->loc;
    if (accept(P, TK_ASSIGN)) a->value = parse_expr(P);
  }
  if (braced) advance(P);
  P->in_line_attr = false;
  return n;
}

/* ---- blocks */

static const char *block_end_words(BlockKind k) {
  switch (k) {
  case BK_FUNCTION: return "'endfunction' or 'end'";
  case BK_MACRO: return "'endmacro' or 'end'";
  case BK_IF: case BK_ELSE: return "'endif' or 'end'";
  case BK_FOR: return "'endfor' or 'end'";
  case BK_WHILE: return "'endwhile' or 'end'";
  case BK_REPEAT: return "'until'";
  case BK_MATCH: return "'endmatch' or 'end'";
  case BK_CLASS: return "'endtype' or 'end'";
  default: return "')'";
  }
}

/* The keyword that ends block kind k (consumed by close_block). */
static bool block_ends_with(BlockKind k, TokKind t) {
  switch (k) {
  case BK_FUNCTION: return t == TK_END || t == TK_ENDFUNCTION;
  case BK_MACRO: return t == TK_END || t == TK_ENDMACRO;
  case BK_IF: case BK_ELSE: return t == TK_END || t == TK_ENDIF;
  case BK_FOR: return t == TK_END || t == TK_ENDFOR;
  case BK_WHILE: return t == TK_END || t == TK_ENDWHILE;
  case BK_REPEAT: return t == TK_UNTIL;
  case BK_MATCH: return t == TK_END || t == TK_ENDMATCH;
  case BK_CLASS: return t == TK_END || t == TK_ENDTYPE;
  default: return false;
  }
}

/* The token ends the body of block kind k: its end, or a part inside it (else, '|'). */
static bool block_stops_at(BlockKind k, TokKind t) {
  return block_ends_with(k, t) || (k == BK_IF && (t == TK_ELSE || t == TK_ELSEIF)) ||
         (k == BK_MATCH && t == TK_BAR);
}

/* The index of the enclosing block that stops at t, or -1. */
static int outer_block_stopping_at(Parser *P, TokKind t) {
  for (int i = P->nopen - 2; i >= 0; i--)
    if (block_stops_at(P->open[i].kind, t)) return i;
  return -1;
}

static bool is_named_end(TokKind k) {
  return k == TK_ENDFUNCTION || k == TK_ENDIF || k == TK_ENDFOR || k == TK_ENDWHILE ||
         k == TK_ENDMATCH || k == TK_ENDMACRO || k == TK_ENDTYPE;
}

/* `for` ... `endwhile` with the endwhile under the for: most likely the wrong end word for
   this block, not a missing `endfor`; unless an enclosing block it fits is aligned too. */
static bool misspelled_end(Parser *P, const Token *t) {
  const OpenBlock *b = &P->open[P->nopen - 1];
  if (b->kind == BK_PROGRAM || b->kind == BK_PAREN || !is_named_end(t->kind) ||
      P->toks[b->opener].loc.col != t->loc.col)
    return false;
  int outer = outer_block_stopping_at(P, t->kind);
  return outer < 0 || P->toks[P->open[outer].opener].loc.col != t->loc.col;
}

static void open_block(Parser *P, BlockKind kind, int opener) {
  enter(P);
  P->open[P->nopen++] = (OpenBlock){ kind, opener };
}

/* Consumes the block's end keyword, or reports that it is missing (once at end of file). */
static void close_block(Parser *P) {
  OpenBlock *b = &P->open[P->nopen - 1];
  Token *t = peek(P);
  if (block_ends_with(b->kind, t->kind)) {
    advance(P);
  } else if (t->kind != TK_EOF || !P->eof_reported) {
    Token *kw = &P->toks[b->opener];
    bool take = misspelled_end(P, t);
    P->eof_reported |= t->kind == TK_EOF;
    P->nopen--;   /* the report may end the parse */
    leave(P);
    report(P, t->loc, "expected %s to close '%.*s' at %d:%d, found %s", block_end_words(b->kind),
           kw->len, kw->text, kw->loc.line, kw->loc.col, describe(P, t));
    if (take) advance(P);
    return;
  }
  P->nopen--;
  leave(P);
}

/* A closing keyword that no open block expects. */
static void stray_closer(Parser *P, Token *t) {
  int from = P->pos;
  switch (t->kind) {
  case TK_END: report(P, t->loc, "'end' without an open block"); break;
  case TK_ELSE: case TK_ELSEIF: report(P, t->loc, "'%.*s' without 'if'", t->len, t->text); break;
  case TK_UNTIL: report(P, t->loc, "'until' without 'repeat'"); break;
  case TK_BAR: report(P, t->loc, "'|' outside a 'match' block"); break;
  default:   /* endfor -> for */
    report(P, t->loc, "'%.*s' without an open '%.*s'", t->len, t->text, t->len - 3, t->text + 3);
  }
  advance(P);
  if (t->kind == TK_ELSEIF || t->kind == TK_UNTIL || t->kind == TK_BAR)
    skip_to_boundary(P, from, true);   /* and its condition or pattern */
}

static void *statement_fn(Parser *P, void *arg) {
  (void)arg;
  Node *s = parse_statement(P);
  end_of_statement(P, s);
  return s;
}

/* Statements up to a token that ends the innermost open block (left for the caller). */
static void parse_body(Parser *P, NodeList *out) {
  for (;;) {
    Token *t = peek(P);
    if (t->kind == TK_NEWLINE || t->kind == TK_SEMI) { advance(P); continue; }
    if (t->kind == TK_EOF) return;
    BlockKind kind = P->open[P->nopen - 1].kind;
    if (kind == BK_PAREN && t->kind == TK_RPAREN) return;
    if (is_closer_keyword(t->kind) || t->kind == TK_BAR) {
      if (block_stops_at(kind, t->kind) || outer_block_stopping_at(P, t->kind) >= 0 ||
          misspelled_end(P, t))
        return;
      stray_closer(P, t);
      continue;
    }
    Node *s = guarded(P, statement_fn, NULL);
    if (s) list_push(P, out, s);
  }
}

static void parse_block(Parser *P, BlockKind kind, int opener, NodeList *body) {
  open_block(P, kind, opener);
  parse_body(P, body);
  close_block(P);
}

static void *condition_fn(Parser *P, void *what) {
  P->in_condition = true;
  Node *c = parse_expr(P);
  P->in_condition = false;
  end_of_header(P, what);
  return c;
}

static Node *parse_if(Parser *P) {
  int opener = cur(P);
  Node *n = new_node(P, N_IF, advance(P)->loc);
  n->a = guarded(P, condition_fn, "the 'if' condition");
  open_block(P, BK_IF, opener);
  parse_body(P, &n->list);
  Node *last = n;
  while (at(P, TK_ELSEIF)) {
    Node *e = new_node(P, N_IF, advance(P)->loc);
    e->a = guarded(P, condition_fn, "the 'elseif' condition");
    parse_body(P, &e->list);
    list_push(P, &last->list2, e);
    last = e;
  }
  if (accept(P, TK_ELSE)) {
    P->open[P->nopen - 1].kind = BK_ELSE;
    parse_body(P, &last->list2);
  }
  close_block(P);
  return n;
}

static void *for_header_fn(Parser *P, void *node) {
  Node *n = node;
  Token *var = expect_ident(P, "the loop variable after 'for'");
  n->name = var->str;
  expect(P, TK_ASSIGN, "'=' after the loop variable");
  n->a = parse_expr(P);
  end_of_header(P, "the 'for' range");
  return n;
}

static Node *parse_for(Parser *P) {
  int opener = cur(P);
  Node *n = new_node(P, N_FOR, advance(P)->loc);
  guarded(P, for_header_fn, n);
  parse_block(P, BK_FOR, opener, &n->list);
  return n;
}

static Node *parse_while(Parser *P) {
  int opener = cur(P);
  Node *n = new_node(P, N_WHILE, advance(P)->loc);
  n->a = guarded(P, condition_fn, "the 'while' condition");
  parse_block(P, BK_WHILE, opener, &n->list);
  return n;
}

static void *until_fn(Parser *P, void *arg) {
  (void)arg;
  P->in_condition = true;
  Node *c = parse_expr(P);
  P->in_condition = false;
  return c;
}

static Node *parse_repeat(Parser *P) {
  int opener = cur(P);
  Node *n = new_node(P, N_REPEAT, advance(P)->loc);
  bool has_until = false;
  open_block(P, BK_REPEAT, opener);
  parse_body(P, &n->list);
  has_until = at(P, TK_UNTIL);
  close_block(P);
  if (has_until) n->a = guarded(P, until_fn, NULL);
  return n;
}

static void *match_header_fn(Parser *P, void *arg) {
  (void)arg;
  Node *subject = parse_expr(P);
  expect(P, TK_WITH, "'with' after the match subject");
  return subject;
}

static void *pattern_fn(Parser *P, void *arg) {
  (void)arg;
  P->in_pattern = true;
  Node *pattern = parse_expr(P);
  P->in_pattern = false;
  expect(P, TK_ARROW, "'->' after the match pattern");
  if (pattern->kind == N_IDENT && !strcmp(pattern->name, "_")) return NULL;   /* wildcard */
  return pattern;
}

/* match x with | 0 -> s ... | _ -> s endmatch */
static Node *parse_match(Parser *P) {
  int opener = cur(P);
  Node *n = new_node(P, N_MATCH, advance(P)->loc);
  n->a = guarded(P, match_header_fn, NULL);
  open_block(P, BK_MATCH, opener);
  for (;;) {
    Token *t = peek(P);
    if (t->kind == TK_NEWLINE || t->kind == TK_SEMI) { advance(P); continue; }
    if (t->kind == TK_EOF || (is_closer_keyword(t->kind) && t->kind != TK_ELSE &&
                              t->kind != TK_ELSEIF && t->kind != TK_UNTIL))
      break;
    if (t->kind != TK_BAR) {
      int from = P->pos;
      report(P, t->loc, "expected '|' to start a match case, found %s", describe(P, t));
      skip_to_boundary(P, from, true);
      continue;
    }
    advance(P);
    n->cases = grow(P, n->cases, n->ncases, sizeof *n->cases);
    MatchCase *c = &n->cases[n->ncases++];
    memset(c, 0, sizeof *c);
    c->loc = t->loc;
    c->pattern = guarded(P, pattern_fn, NULL);
    NodeList body = {0};
    parse_body(P, &body);
    c = &n->cases[n->ncases - 1];
    c->body = body;
  }
  close_block(P);
  return n;
}

/* function [outs] = __kernel__ name[generics](params) trailing-words */
static void *function_header_fn(Parser *P, void *func) {
  Func *f = func;
  if (at(P, TK_LBRACK)) {
    Token *open = advance(P);
    parse_params(P, &f->outs, &f->nouts, TK_RBRACK, open);
    /* seed 001 writes `function [] __kernel__ copy_kernel(...)`: no '=' after no outputs */
    bool bare = !f->nouts && (at(P, TK_KERNEL) || at(P, TK_DEVICE) || at(P, TK_IDENT));
    if (!bare) expect(P, TK_ASSIGN, "'=' after the function's outputs");
  } else if (at(P, TK_IDENT) && (after(P, cur(P))->kind == TK_ASSIGN ||
                                 after(P, cur(P))->kind == TK_COLON)) {
    Token *name = advance(P);
    Param out = { name->str, NULL, NULL, name->loc };
    out.type = accept(P, TK_COLON) ? parse_type(P) : new_type(P, TY_UNKNOWN, NULL, name->loc);
    param_push(P, &f->outs, &f->nouts, out);
    expect(P, TK_ASSIGN, "'=' after the function's output");
  }
  if (f->kind != FK_MACRO)
    f->kind = accept(P, TK_KERNEL) ? FK_KERNEL : accept(P, TK_DEVICE) ? FK_DEVICE : FK_HOST;
  f->name = expect_ident(P, "a function name")->str;
  if (at(P, TK_LBRACK)) {
    Token *open = advance(P);
    parse_params(P, &f->generics, &f->ngenerics, TK_RBRACK, open);
  }
  if (at(P, TK_LPAREN)) {
    Token *open = advance(P);
    parse_params(P, &f->params, &f->nparams, TK_RPAREN, open);
  }
  while (at(P, TK_IDENT)) {   /* `concealed` and other trailing words */
    advance(P);
    f->concealed = true;
  }
  end_of_header(P, "the function header");
  return f;
}

static Node *parse_function(Parser *P) {
  int opener = cur(P);
  Token *kw = advance(P);
  bool is_macro = kw->kind == TK_MACRO;
  Func *f = arena_alloc(P->arena, sizeof *f);
  f->kind = is_macro ? FK_MACRO : FK_HOST;
  f->loc = kw->loc;
  Node *n = new_node(P, is_macro ? N_MACRO : N_FUNCDEF, kw->loc);
  n->func = f;
  guarded(P, function_header_fn, f);
  parse_block(P, is_macro ? BK_MACRO : BK_FUNCTION, opener, &f->body);
  return n;
}

static Node *parse_return(Parser *P) {
  Node *n = new_node(P, N_RETURN, advance(P)->loc);
  if (!at_statement_end(P)) n->a = parse_expr(P);
  return n;
}

static Node *parse_import(Parser *P) {
  Node *n = new_node(P, N_IMPORT, advance(P)->loc);
  n->str = expect(P, TK_STRING, "a file name in quotes after 'import'")->str;
  return n;
}

/* reduction (x : cube) -> sum(x) = r_sum(x);  reduction x -> real(ifft3(x)) -> irealfft3(x) */
static Node *parse_reduction(Parser *P) {
  Token *kw = advance(P);
  Node *n = new_node(P, N_REDUCTION, kw->loc);
  Func *f = arena_alloc(P->arena, sizeof *f);
  f->loc = kw->loc;
  n->func = f;
  if (at(P, TK_LPAREN)) {
    Token *open = advance(P);
    parse_params(P, &f->params, &f->nparams, TK_RPAREN, open);
  } else {
    do param_push(P, &f->params, &f->nparams, parse_param(P));
    while (accept(P, TK_COMMA));
  }
  expect(P, TK_ARROW, "'->' after the reduction's parameters");
  P->in_pattern = true;
  n->a = parse_expr(P);
  P->in_pattern = false;
  if (!accept(P, TK_ASSIGN) && !accept(P, TK_ARROW))
    expected(P, "'=' or '->' before the reduction's replacement");
  n->b = parse_expr(P);
  return n;
}

static void *field_fn(Parser *P, void *arg) {
  (void)arg;
  Param *p = arena_alloc(P->arena, sizeof *p);
  *p = parse_param(P);
  end_of_header(P, "the field");
  return p;
}

/* type name : T;  type name : [mutable] class <fields> end */
static Node *parse_typedef(Parser *P) {
  int opener = cur(P);
  Token *kw = advance(P);
  Node *n = new_node(P, N_TYPEDEF, kw->loc);
  Token *name = expect_ident(P, "a type name after 'type'");
  n->name = name->str;
  expect(P, TK_COLON, "':' after the type name");
  Token *t = peek(P);
  bool is_mutable = is_ident(t, "mutable") && is_ident(after(P, cur(P)), "class");
  if (!is_mutable && !is_ident(t, "class")) {
    n->type = parse_type(P);
    return n;
  }
  if (is_mutable) advance(P);
  advance(P);
  n->str = is_mutable ? "mutable class" : "class";
  n->type = new_type(P, TY_NAMED, name->str, name->loc);
  end_of_header(P, "'class'");
  open_block(P, BK_CLASS, opener);
  for (;;) {
    Token *f = peek(P);
    if (f->kind == TK_NEWLINE || f->kind == TK_SEMI) { advance(P); continue; }
    if (f->kind == TK_EOF || is_closer_keyword(f->kind)) break;
    Param *p = guarded(P, field_fn, NULL);
    if (p) param_push(P, &n->params, &n->nparams, *p);
  }
  close_block(P);
  n->type->class_kind = is_mutable ? CLASS_MUTABLE : CLASS_IMMUTABLE;
  n->type->fields = n->params;
  n->type->nfields = n->nparams;
  for (int i = 0; i < n->nparams; i++)
    for (int j = 0; j < i; j++)
      if (!strcmp(n->params[i].name, n->params[j].name))
        report(P, n->params[i].loc, "field '%s' of class '%s' is declared twice", n->params[i].name, n->name);
  return n;
}

static Node *parse_statement(Parser *P) {
  Token *t = peek(P);
  switch (t->kind) {
  case TK_FUNCTION: case TK_MACRO: return parse_function(P);
  case TK_IF: return parse_if(P);
  case TK_FOR: return parse_for(P);
  case TK_WHILE: return parse_while(P);
  case TK_REPEAT: return parse_repeat(P);
  case TK_MATCH: return parse_match(P);
  case TK_BREAK: return new_node(P, N_BREAK, advance(P)->loc);
  case TK_CONTINUE: return new_node(P, N_CONTINUE, advance(P)->loc);
  case TK_RETURN: return parse_return(P);
  case TK_IMPORT: return parse_import(P);
  case TK_REDUCTION: return parse_reduction(P);
  case TK_TYPE: return parse_typedef(P);
  case TK_ATTR_OPEN: return parse_attr(P, true);
  case TK_BANG: {
    Token *next = &P->toks[P->pos + 1];
    if (is_word(next) && !next->nl_before) return parse_attr(P, false);
    return parse_simple_statement(P);
  }
  default:
    return parse_simple_statement(P);
  }
}

Node *parse_file(Arena *arena, SrcFile *file) {
  TokenArray tokens = lex_file(arena, file);
  Parser *P = calloc(1, sizeof *P);
  if (!P) { fprintf(stderr, "oq: out of memory\n"); exit(1); }
  P->arena = arena;
  P->file = file;
  P->toks = tokens.toks;
  P->ntoks = tokens.n;
  P->partner = match_brackets(tokens.toks, tokens.n);
  P->assign_from = P->paren_from = -1;
  Node *program = new_node(P, N_PROGRAM, (SrcLoc){ file, 1, 1 });
  program->str = file->path;
  jmp_buf stop;
  P->on_abort = &stop;
  P->on_error = &stop;   /* every statement installs its own; this is only a backstop */
  P->open[P->nopen++] = (OpenBlock){ BK_PROGRAM, 0 };
  if (!setjmp(stop)) {
    for (;;) {   /* the top level ends only at end of file: code is never dropped silently */
      parse_body(P, &program->list);
      Token *t = peek(P);
      if (t->kind == TK_EOF) break;
      report(P, t->loc, "unexpected %s", describe(P, t));
      advance(P);
    }
  }
  free(P->partner);
  free(P->toks);
  free(P);
  return program;
}
