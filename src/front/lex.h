/* lex.h: Quasar source text -> an array of tokens.
   The whole file is tokenized at once so that the parser can look ahead freely (lambda
   parameter lists, `(a; b)` lambda bodies). Lexical errors do not stop the lexer: they become
   TK_ERROR tokens that the parser reports where it meets them, in source order. */
#ifndef OQ_LEX_H
#define OQ_LEX_H
#include <stdbool.h>
#include <stdint.h>
#include "base/arena.h"
#include "base/diag.h"

typedef enum TokKind {
  TK_EOF, TK_NEWLINE, TK_SEMI, TK_COMMA,
  TK_INT, TK_REAL, TK_IMAG, TK_STRING, TK_IDENT,
  TK_ERROR,                 /* str holds the message */
  /* brackets */
  TK_LPAREN, TK_RPAREN, TK_LBRACK, TK_RBRACK, TK_LBRACE, TK_RBRACE,
  TK_ATTR_OPEN,             /* "{!" */
  /* punctuation */
  TK_DOT, TK_DOTDOT, TK_COLON, TK_QUESTION, TK_QQ /* ?? */, TK_APOS /* ' */, TK_BAR /* | */,
  TK_BANG, TK_TILDE, TK_ARROW /* -> */, TK_LARROW /* <- */,
  /* binary operators */
  TK_PLUS, TK_MINUS, TK_STAR, TK_SLASH, TK_CARET, TK_DOTSTAR, TK_DOTSLASH, TK_DOTCARET,
  TK_EQ, TK_NE, TK_LT, TK_LE, TK_GT, TK_GE, TK_ANDAND, TK_OROR,
  /* assignment: '=' and the compound (atomic in kernels) forms */
  TK_ASSIGN, TK_ADD_ASSIGN, TK_SUB_ASSIGN, TK_MUL_ASSIGN, TK_DIV_ASSIGN, TK_POW_ASSIGN,
  TK_EMUL_ASSIGN, TK_EDIV_ASSIGN, TK_EPOW_ASSIGN, TK_AND_ASSIGN, TK_OR_ASSIGN,
  TK_XOR_ASSIGN /* ~= */, TK_MAX_ASSIGN /* ^^= */, TK_MIN_ASSIGN /* __= */,
  /* keywords */
  TK_FUNCTION, TK_ENDFUNCTION, TK_END, TK_IF, TK_ELSEIF, TK_ELSE, TK_ENDIF, TK_FOR, TK_ENDFOR,
  TK_WHILE, TK_ENDWHILE, TK_REPEAT, TK_UNTIL, TK_MATCH, TK_WITH, TK_ENDMATCH, TK_BREAK,
  TK_CONTINUE, TK_RETURN, TK_IMPORT, TK_MACRO, TK_ENDMACRO, TK_REDUCTION, TK_TYPE, TK_ENDTYPE,
  TK_KERNEL /* __kernel__ */, TK_DEVICE /* __device__ */,
  TK_COUNT
} TokKind;

typedef struct Token {
  TokKind kind;
  SrcLoc loc;
  const char *text;   /* spelling in the source (not NUL-terminated) */
  int len;
  int64_t ival;       /* TK_INT */
  double rval;        /* TK_REAL, TK_IMAG */
  const char *str;    /* TK_STRING: decoded text; TK_ERROR: message */
  bool nl_before;     /* a line break (possibly one the lexer dropped) precedes this token */
} Token;

typedef struct TokenArray { Token *toks; int n; } TokenArray;

/* Tokenizes the whole file; the array always ends with TK_EOF. Free toks with free(). */
TokenArray lex_file(Arena *arena, const SrcFile *file);

/* "'+='", "end of line", ...: how a token kind is named in messages (no source text). */
const char *tok_kind_name(TokKind k);
bool tok_is_keyword(TokKind k);

#endif
