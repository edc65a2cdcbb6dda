/* ast.c: names of operators and node kinds, deep copies, the children iterator, and the
   tree dump of `oq parse --dump`.
   The dump is an S-expression: statements one per line, indented by nesting; expressions
   inline. Names, numbers and strings print as themselves, so `(assign += (index y v) 1)`
   reads as the source did. */
#include "front/ast.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *op_name(Op op) {
  static const char *names[OP_COUNT] = {
    [OP_NONE] = "", [OP_ADD] = "+", [OP_SUB] = "-", [OP_MUL] = "*", [OP_DIV] = "/",
    [OP_POW] = "^", [OP_EMUL] = ".*", [OP_EDIV] = "./", [OP_EPOW] = ".^", [OP_MOD] = "mod",
    [OP_EQ] = "==", [OP_NE] = "!=", [OP_LT] = "<", [OP_LE] = "<=", [OP_GT] = ">",
    [OP_GE] = ">=", [OP_AND] = "&&", [OP_OR] = "||", [OP_NEG] = "-", [OP_PLUS] = "+",
    [OP_NOT] = "!", [OP_BAND] = "&", [OP_BOR] = "|", [OP_BXOR] = "~", [OP_MAX] = "^^",
    [OP_MIN] = "__",
  };
  return op >= 0 && op < OP_COUNT && names[op] ? names[op] : "?";
}

const char *node_kind_name(NodeKind k) {
  static const char *names[N_KIND_COUNT] = {
    [N_INT] = "int", [N_REAL] = "real", [N_IMAG] = "imag", [N_STRING] = "string",
    [N_IDENT] = "ident", [N_COLON] = "colon", [N_UNARY] = "unary", [N_BINARY] = "binary",
    [N_RANGE] = "range", [N_COND] = "cond", [N_CALL] = "call", [N_INDEX] = "index",
    [N_FIELD] = "field", [N_MATRIX] = "matrix", [N_LAMBDA] = "lambda",
    [N_EXCHANGE] = "exchange", [N_TUPLE] = "tuple", [N_TYPE] = "type", [N_NAMEDARG] = "namedarg", [N_EXPR] = "expr",
    [N_ASSIGN] = "assign", [N_IF] = "if", [N_FOR] = "for", [N_WHILE] = "while",
    [N_REPEAT] = "repeat", [N_MATCH] = "match", [N_BREAK] = "break",
    [N_CONTINUE] = "continue", [N_RETURN] = "return", [N_FUNCDEF] = "function",
    [N_MACRO] = "macro", [N_REDUCTION] = "reduction", [N_TYPEDEF] = "typedef",
    [N_ATTR] = "attr", [N_IMPORT] = "import", [N_BLOCK] = "block", [N_PROGRAM] = "program",
    [N_PARLOOP] = "parloop", [N_ARRAYEXPR] = "arrayexpr",
  };
  return k >= 0 && k < N_KIND_COUNT && names[k] ? names[k] : "?";
}

/* ---- children ----
   part: 0-2 a, b, c; 3 list; 4 list2; 5 the cases (i the case, j: 0 its pattern, 1+ its
   body's items). */

static Node *kid_at(AstKids *k) {
  const Node *n = k->parent;
  switch (k->part) {
  case 0: return n->a;
  case 1: return n->b;
  case 2: return n->c;
  case 3: return k->i < n->list.n ? n->list.items[k->i] : NULL;
  case 4: return k->i < n->list2.n ? n->list2.items[k->i] : NULL;
  default: {
    const MatchCase *mc = &n->cases[k->i];
    return k->j == 0 ? mc->pattern : mc->body.items[k->j - 1];
  }
  }
}

/* Whether position k is past the end of its part (and the part must move on). */
static bool kid_past(const AstKids *k) {
  const Node *n = k->parent;
  switch (k->part) {
  case 0: case 1: case 2: return k->i > 0;
  case 3: return k->i >= n->list.n;
  case 4: return k->i >= n->list2.n;
  default: return k->i >= n->ncases;
  }
}

/* Moves k to the next position that holds a child, or sets k->node to NULL. */
static void kid_seek(AstKids *k) {
  for (;;) {
    while (k->part < 6 && kid_past(k)) k->part++, k->i = k->j = 0;
    if (k->part == 6 || !k->parent) { k->node = NULL; return; }
    if (k->part == 5 && k->j > k->parent->cases[k->i].body.n) { k->i++, k->j = 0; continue; }
    if ((k->node = kid_at(k))) return;
    if (k->part == 5) k->j++; else k->i++;
  }
}

AstKids ast_kids(const Node *n) {
  AstKids k = {.parent = n};
  if (!n) k.part = 6;
  kid_seek(&k);
  return k;
}

void ast_next(AstKids *k) {
  if (k->part == 5) k->j++; else k->i++;
  kid_seek(k);
}

static void dump(const Node *n, int indent);

/* ---- copies (the transforms copy code they move: macros, loop bodies) ---- */

static void clone_list(Arena *arena, NodeList *l) {
  Node **items = arena_alloc(arena, (l->n + 1) * sizeof *items);
  for (int i = 0; i < l->n; i++) items[i] = ast_clone(arena, l->items[i]);
  l->items = items;
}

/* Functions (lambdas) inside are shared, not copied: the transforms move no code that
   defines one. Types and attribute arguments are shared too: no stage changes them. */
Node *ast_node(Arena *arena, NodeKind kind, SrcLoc loc) {
  Node *n = arena_alloc(arena, sizeof *n);
  n->kind = kind;
  n->loc = loc;
  return n;
}

Node *ast_ident(Arena *arena, const char *name, SrcLoc loc) {
  Node *n = ast_node(arena, N_IDENT, loc);
  n->name = name;
  return n;
}

Node *ast_clone(Arena *arena, const Node *n) {
  if (!n) return NULL;
  Node *c = arena_copy(arena, n, sizeof *c);
  if (c->kind == N_ASSIGN || c->kind == N_FOR) c->aux = NULL;   /* notes of one loop (AccumNote) */
  c->a = ast_clone(arena, n->a);
  c->b = ast_clone(arena, n->b);
  c->c = ast_clone(arena, n->c);
  clone_list(arena, &c->list);
  clone_list(arena, &c->list2);
  if (n->ncases) {
    c->cases = arena_alloc(arena, n->ncases * sizeof *c->cases);
    for (int i = 0; i < n->ncases; i++) {
      c->cases[i] = n->cases[i];
      c->cases[i].pattern = ast_clone(arena, n->cases[i].pattern);
      clone_list(arena, &c->cases[i].body);
    }
  }
  return c;
}

void func_note_transform(Func *f, const char *name) {
  for (int i = 0; i < f->ntransforms; i++)
    if (!strcmp(f->transforms[i], name)) return;
  if (f->ntransforms < (int)(sizeof f->transforms / sizeof *f->transforms))
    f->transforms[f->ntransforms++] = name;
}

static const char *const modifier_names[] = {
  "unchecked", "checked", "safe", "circular", "mirror", "clamped", "const", "nocopy",
  "hwconst", "hwtex_const", "hwtex_nearest", "hwtex_linear", "shared", "half", "single",
  "double", "static",
};

static const char *fkind_name(FuncKind k) {
  return k == FK_KERNEL ? "__kernel__" : k == FK_DEVICE ? "__device__" :
         k == FK_MACRO ? "macro" : "";
}

/* The element type an array name implies (vec: scalar, ivec3: int); others print it. */
static bool default_elem(const Type *t) {
  const Type *e = t->elem;
  if (!e || e->mods || !t->name) return !e;
  if (!strncmp(t->name, "ivec", 4)) return e->kind == TY_INT;
  if (!strcmp(t->name, "cvec") || !strcmp(t->name, "cmat") || !strcmp(t->name, "ccube"))
    return e->kind == TY_CSCALAR;
  return e->kind == TY_SCALAR;
}

/* A type as it would be written: cube[uint8]'unchecked, [__device__ (T, T) -> T] */
static void print_type(const Type *t) {
  if (!t) { fputs("?", stdout); return; }
  if (t->kind == TY_FUNC) {
    printf("[%s%s(", fkind_name(t->fkind), t->fkind == FK_HOST ? "" : " ");
    for (int i = 0; i < t->nparams; i++) {
      if (i) fputs(", ", stdout);
      print_type(t->params[i]);
    }
    fputs(") -> ", stdout);
    if (t->nresults != 1) fputs("(", stdout);
    for (int i = 0; i < t->nresults; i++) {
      if (i) fputs(", ", stdout);
      print_type(t->results[i]);
    }
    fputs(t->nresults != 1 ? ")]" : "]", stdout);
  } else if (t->name) {
    if (t->pointer) fputs("^", stdout);
    fputs(t->name, stdout);
    if ((t->kind == TY_ARRAY || t->kind == TY_CELL) && t->rank > 3) printf("{%d}", t->rank);
    if ((t->kind == TY_ARRAY || t->kind == TY_CELL) && !default_elem(t)) {
      fputs("[", stdout);
      print_type(t->elem);
      fputs("]", stdout);
    }
    size_t len = strlen(t->name);
    if (t->fixed_len && len && (t->name[len - 1] < '0' || t->name[len - 1] > '9'))
      printf("(%d)", t->fixed_len);
  }
  for (size_t i = 0; i < sizeof modifier_names / sizeof *modifier_names; i++)
    if (t->mods & (1u << i)) printf("'%s", modifier_names[i]);
}

static void print_real(double v) {
  char buf[40];
  for (int prec = 6; prec <= 17; prec++) {   /* the shortest form that reads back the same */
    snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (strtod(buf, NULL) == v) break;
  }
  fputs(buf, stdout);
  if (!strpbrk(buf, ".eninf")) fputs(".0", stdout);
}

static void print_string(const char *s) {
  putchar('"');
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') printf("\\%c", *s);
    else if (*s == '\n') fputs("\\n", stdout);
    else if (*s == '\t') fputs("\\t", stdout);
    else putchar(*s);
  }
  putchar('"');
}

/* name, name : type, name : type = default */
static bool type_written(const Type *t) {
  return t && (t->kind != TY_UNKNOWN || t->mods || t->name);
}

static void print_param(const Param *p) {
  if (!type_written(p->type) && !p->defval) {
    fputs(p->name ? p->name : "?", stdout);
    return;
  }
  printf("(%s", p->name ? p->name : "?");
  if (type_written(p->type)) {
    fputs(" : ", stdout);
    print_type(p->type);
  }
  if (p->defval) {
    fputs(" = ", stdout);
    dump(p->defval, 0);
  }
  fputs(")", stdout);
}

static void print_params(const char *label, const Param *ps, int n) {
  printf(" (%s", label);
  for (int i = 0; i < n; i++) {
    fputs(" ", stdout);
    print_param(&ps[i]);
  }
  fputs(")", stdout);
}

static void newline(int indent) { printf("\n%*s", indent, ""); }

/* Statements of a body, each on its own line. */
static void dump_list(const NodeList *l, int indent) {
  for (int i = 0; i < l->n; i++) {
    newline(indent);
    dump(l->items[i], indent);
  }
}

/* Expression children, inline. */
static void dump_inline(const NodeList *l, int indent) {
  for (int i = 0; i < l->n; i++) {
    fputs(" ", stdout);
    dump(l->items[i], indent);
  }
}

static void dump_func(const char *head, const Func *f, int indent) {
  printf("(%s", head);
  if (f->name) printf(" %s", f->name);
  if (f->kind != FK_HOST && f->kind != FK_MACRO) printf(" %s", fkind_name(f->kind));
  if (f->ngenerics) print_params("generics", f->generics, f->ngenerics);
  if (!f->is_lambda) print_params("outs", f->outs, f->nouts);
  print_params("params", f->params, f->nparams);
  if (f->concealed) fputs(" concealed", stdout);
  bool one_line = f->is_lambda && f->body.n == 1 &&
                  (f->body.items[0]->kind == N_EXPR || f->body.items[0]->kind == N_ASSIGN);
  if (one_line) {
    fputs(" ", stdout);
    dump(f->body.items[0], indent);
  } else {
    dump_list(&f->body, indent + 2);
  }
  fputs(")", stdout);
}

static void dump_assign(const Node *n, int indent) {
  fputs("(assign", stdout);
  if (n->b) printf(" %s=", op_name(n->op));
  if (n->list.n == 1) {
    fputs(" ", stdout);
    dump(n->list.items[0], indent);
  } else {
    fputs(" (targets", stdout);
    dump_inline(&n->list, indent);
    fputs(")", stdout);
  }
  if (n->type) {
    fputs(" : ", stdout);
    print_type(n->type);
  }
  if (n->b) {
    fputs(" ", stdout);
    dump(n->b, indent);
  }
  fputs(")", stdout);
}

static void dump_if(const Node *n, int indent) {
  fputs("(if ", stdout);
  dump(n->a, indent);
  dump_list(&n->list, indent + 2);
  if (n->list2.n) {
    newline(indent + 2);
    fputs("(else", stdout);
    dump_list(&n->list2, indent + 4);
    fputs(")", stdout);
  }
  fputs(")", stdout);
}

static void dump_match(const Node *n, int indent) {
  fputs("(match ", stdout);
  dump(n->a, indent);
  for (int i = 0; i < n->ncases; i++) {
    newline(indent + 2);
    fputs("(case ", stdout);
    if (n->cases[i].pattern) dump(n->cases[i].pattern, indent);
    else fputs("_", stdout);
    dump_list(&n->cases[i].body, indent + 4);
    fputs(")", stdout);
  }
  fputs(")", stdout);
}

static void dump_attr(const Node *n, int indent) {
  printf("(attr %s", n->name);
  for (int i = 0; i < n->nattrs; i++) {
    printf(" %s", n->attrs[i].key);
    if (n->attrs[i].value) {
      fputs("=", stdout);
      dump(n->attrs[i].value, indent);
    }
  }
  fputs(")", stdout);
}

static void dump_typedef(const Node *n, int indent) {
  printf("(typedef %s", n->name);
  if (n->str) {   /* a class: its fields */
    printf(" %s", n->str);
    for (int i = 0; i < n->nparams; i++) {
      newline(indent + 2);
      fputs("(field ", stdout);
      print_param(&n->params[i]);
      fputs(")", stdout);
    }
  } else {
    fputs(" ", stdout);
    print_type(n->type);
  }
  fputs(")", stdout);
}

/* (head child...) for nodes whose children are all expressions */
static void dump_op(const char *head, const Node *a, const Node *b, const Node *c, int indent) {
  printf("(%s", head);
  const Node *kids[] = { a, b, c };
  for (int i = 0; i < 3; i++) {
    if (!kids[i]) continue;
    fputs(" ", stdout);
    dump(kids[i], indent);
  }
  fputs(")", stdout);
}

static void dump(const Node *n, int indent) {
  if (!n) { fputs("?", stdout); return; }
  switch (n->kind) {
  case N_INT: printf("%lld", (long long)n->ival); break;
  case N_REAL: print_real(n->rval); break;
  case N_IMAG: print_real(n->rval); fputs("i", stdout); break;
  case N_STRING: print_string(n->str); break;
  case N_IDENT: fputs(n->name, stdout); break;
  case N_COLON: fputs(":", stdout); break;
  case N_UNARY: dump_op(op_name(n->op), n->a, NULL, NULL, indent); break;
  case N_BINARY: dump_op(op_name(n->op), n->a, n->b, NULL, indent); break;
  case N_RANGE:
    fputs("(range ", stdout);
    dump(n->a, indent);
    if (n->b) { fputs(" .. ", stdout); dump(n->b, indent); }
    fputs(" .. ", stdout);
    dump(n->c, indent);
    fputs(")", stdout);
    break;
  case N_COND: dump_op("?", n->a, n->b, n->c, indent); break;
  case N_CALL: case N_INDEX:
    printf("(%s ", node_kind_name(n->kind));
    dump(n->a, indent);
    dump_inline(&n->list, indent);
    fputs(")", stdout);
    break;
  case N_FIELD:
    fputs("(field ", stdout);
    dump(n->a, indent);
    printf(" %s)", n->name);
    break;
  case N_MATRIX: case N_TUPLE: case N_BLOCK:
    printf("(%s", node_kind_name(n->kind));
    if (n->kind == N_BLOCK) dump_list(&n->list, indent + 2);
    else dump_inline(&n->list, indent);
    fputs(")", stdout);
    break;
  case N_LAMBDA: dump_func("lambda", n->func, indent); break;
  case N_EXCHANGE: dump_op("<-", n->a, n->b, NULL, indent); break;
  case N_TYPE: fputs("(type ", stdout); print_type(n->type); fputs(")", stdout); break;
  case N_NAMEDARG: printf("(%s := ", n->name); dump(n->a, indent); fputs(")", stdout); break;
  case N_EXPR: dump_op("expr", n->a, NULL, NULL, indent); break;
  case N_ASSIGN: dump_assign(n, indent); break;
  case N_IF: dump_if(n, indent); break;
  case N_FOR:
    printf("(for %s ", n->name ? n->name : "?");
    dump(n->a, indent);
    dump_list(&n->list, indent + 2);
    fputs(")", stdout);
    break;
  case N_WHILE:
    fputs("(while ", stdout);
    dump(n->a, indent);
    dump_list(&n->list, indent + 2);
    fputs(")", stdout);
    break;
  case N_REPEAT:
    fputs("(repeat", stdout);
    dump_list(&n->list, indent + 2);
    newline(indent + 2);
    dump_op("until", n->a, NULL, NULL, indent);
    fputs(")", stdout);
    break;
  case N_MATCH: dump_match(n, indent); break;
  case N_BREAK: case N_CONTINUE: printf("(%s)", node_kind_name(n->kind)); break;
  case N_RETURN: dump_op("return", n->a, NULL, NULL, indent); break;
  case N_FUNCDEF: dump_func("function", n->func, indent); break;
  case N_MACRO: dump_func("macro", n->func, indent); break;
  case N_REDUCTION:
    fputs("(reduction", stdout);
    print_params("params", n->func->params, n->func->nparams);
    fputs(" ", stdout);
    dump(n->a, indent);
    fputs(" ", stdout);
    dump(n->b, indent);
    fputs(")", stdout);
    break;
  case N_TYPEDEF: dump_typedef(n, indent); break;
  case N_ATTR: dump_attr(n, indent); break;
  case N_IMPORT: fputs("(import ", stdout); print_string(n->str); fputs(")", stdout); break;
  case N_PROGRAM:
    fputs("(program ", stdout);
    print_string(n->str ? n->str : "");
    dump_list(&n->list, indent + 2);
    fputs(")", stdout);
    break;
  default: printf("(%s)", node_kind_name(n->kind)); break;
  }
}

void ast_dump(const Node *n, int indent) {
  printf("%*s", indent, "");
  dump(n, indent);
  putchar('\n');
}

const char *func_shown_name(const Func *f) { return f && f->name ? f->name : "(lambda)"; }
