/* interp.c: placeholder until the interpreter lands. */
#include "interp.h"
int interp_check(Arena *arena, Node *program) { (void)arena; (void)program; return 0; }
int interp_run(Arena *arena, Node *program, const InterpOptions *opt) {
  (void)arena; (void)program; (void)opt; return 0;
}
