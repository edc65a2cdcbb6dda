/* parse.h: source text -> AST. */
#ifndef OQ_PARSE_H
#define OQ_PARSE_H
#include "front/ast.h"

/* Parses a whole file into an N_PROGRAM node. Syntax errors are reported with diag_error
   (file:line:col, source line, caret); the parser recovers at the next statement and goes
   on, so several errors can be reported. Check diag_error_count() afterwards. Never returns
   NULL. */
Node *parse_file(Arena *arena, SrcFile *file);

#endif
