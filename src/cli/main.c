/* main.c: the `oq` command line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include "base/config.h"
#include "cli/cli.h"
#include "interp/interp.h"
#include "front/parse.h"
#include "backend/cpu/rt_cpu.h"
#include "device/rt_cuda.h"
#include "backend/cuda/rt_gpu.h"
#include "backend/rt_profile.h"
#include "runtime/rt_show.h"
#include "runtime/rt_video.h"

#define OQ_VERSION "0.1.0"

RtConfig rt_config;

/* Each command's synopsis, as `oq help` lists them and `oq COMMAND --help` shows its own. */
static const struct { const char *name, *synopsis; } commands[] = {
  { "run",   "oq run [options] FILE.q [ARGS...]\n"
             "                                   run a program (top level, then main(ARGS...))\n"
             "       oq [options] FILE.q [ARGS...]   the same\n"
             "       oq run [options] - [ARGS...]   the program read from standard input\n" },
  { "check", "oq check [options] FILE.q   parse and check only (the kernels whose parameters all\n"
             "                                   have types are typed on them)\n" },
  { "emit",  "oq emit --target c FILE.q [ARGS...]\n"
             "                                   run, printing the C of every kernel as it is compiled\n"
             "       oq emit --target cuda FILE.q [ARGS...]\n"
             "                                   the same with the CUDA C++ of every kernel (runs on the CPU)\n" },
  { "parse", "oq parse --dump FILE.q      print the syntax tree\n" },
  { "cache", "oq cache info|clear|prune   the kernel cache: what it holds, emptied, cut to its limit\n" },
};
#define NCOMMANDS (int)(sizeof commands / sizeof *commands)

static const char options_help[] =
  "options:\n"
  "  --target auto|cpu|cuda|interp    where kernels run (default auto)\n"
  "  --precision single|double        the type `scalar` (default single)\n"
  "  --verbose                        say which back end is used\n"
  "  --profile[=wide|json]            print per-kernel statistics after the run (wide: every\n"
  "                                   column and whole notes; json: one JSON object)\n"
  "  --emit-c                         print the C source of each compiled kernel\n"
  "  --show-dir DIR                   imshow and plot write PNG files into DIR (no window)\n"
  "  --no-parloop                     keep host loops serial (no automatic parallel loops)\n"
  "  --explain                        say for every host loop nest whether it runs as a\n"
  "                                   kernel, and why not (check and run)\n"
  "  --help                           this help\n"
  "environment: CC (kernel compiler), OQ_CACHE_DIR (compiled kernels), OQ_CACHE_MAX (its\n"
  "  size limit), OQ_PATH (folders of imported modules), OQ_THREADS,\n"
  "  OQ_SHOW_DIR (as --show-dir), OQ_SHOW_WAIT=0 (do not wait for imshow windows at the end),\n"
  "  OQ_NO_PARLOOP=1 (as --no-parloop),\n"
  "  OQ_CUDA_CHECK=1 (also compile every kernel's CUDA with NVRTC), OQ_CUDA_EAGER=1;\n"
  "  docs/config.md (and `man oq`) lists them all\n";

static int command_index(const char *name) {
  for (int i = 0; i < NCOMMANDS; i++)
    if (!strcmp(commands[i].name, name)) return i;
  return -1;
}

/* `oq help`: every command; `oq COMMAND --help`: that one (index cmd). */
static void usage_of(FILE *out, int cmd) {
  for (int i = 0; i < NCOMMANDS; i++) {
    if (cmd >= 0 && i != cmd) continue;
    fprintf(out, "%s %s", i == (cmd < 0 ? 0 : cmd) ? "usage:" : "      ", commands[i].synopsis);
  }
  if (cmd < 0) fputs("       oq --version | oq help | oq COMMAND --help\n", out);
  fputs(options_help, out);
}

static void usage(FILE *out) { usage_of(out, -1); }

static int usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "oq: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n");
  usage(stderr);
  return 2;
}

/* `oq FILE.q ...` runs FILE.q: a first word that is no command but a program (a .q file,
   `-` for standard input, an existing file) or an option of run's. */
static bool runs_as_program(const char *word) {
  size_t n = strlen(word);
  struct stat st;
  return (n > 2 && !strcmp(word + n - 2, ".q")) || word[0] == '-' ||
         (stat(word, &st) == 0 && S_ISREG(st.st_mode));
}

/* The program: the file at path, or standard input for `-` (named <stdin> in messages). */
static SrcFile *load_program(const char *path) {
  if (strcmp(path, "-")) return srcfile_load(path);
  size_t cap = 4096, n = 0;
  char *text = malloc(cap);
  for (size_t got; (got = fread(text + n, 1, cap - n - 1, stdin)) > 0;) {
    n += got;
    if (n + 1 >= cap) text = realloc(text, cap *= 2);
  }
  text[n] = 0;
  if (ferror(stdin)) { free(text); errno = EIO; return NULL; }
  SrcFile *f = srcfile_from_string("<stdin>", text);
  free(text);
  return f;
}

/* Errors before the program runs: what was loaded goes (make asan checks for leaks). */
/* Frees the parse tree and the source of a program that is not run (an error, `oq parse`,
   no GPU for --target cuda): a loaded program lives until exit, these would be leaks. */
static int drop_source(Arena *arena, SrcFile *file, int status) {
  arena_free(arena);
  srcfile_free(file);
  return status;
}

static int load_failed(Arena *arena, SrcFile *file) { return drop_source(arena, file, 1); }

int main(int argc, char **argv) {
  if (argc < 2) { usage(stderr); return 2; }
  if (!strcmp(argv[1], CUDA_BUILD_COMMAND)) {   /* a CUDA build in the background (rt_nvrtc.c) */
    config_load();
    return cuda_build_main(argc - 2, argv + 2);
  }
  cuda_builds_here();   /* this binary runs CUDA_BUILD_COMMAND: tiers may use children */
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
    printf("oq (OpenQuasar) %s\n", OQ_VERSION);
    return 0;
  }
  if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
    usage(stdout);
    return 0;
  }
  config_load();
  if (!strcmp(cmd, "cache")) return cache_command(argc - 2, argv + 2);
  int first = 2;   /* the first argument after the command */
  if (command_index(cmd) < 0) {
    if (!runs_as_program(cmd)) return usage_error("unknown command '%s'", cmd);
    cmd = "run";
    first = 1;
  }

  InterpOptions opt = { .target = TARGET_AUTO, .argv0 = argv[0] };
  const char *path = NULL;
  bool dump = false;
  for (int i = first; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--target") && i + 1 < argc) {
      const char *t = argv[++i];
      if (!strcmp(cmd, "emit") && (!strcmp(t, "c") || !strcmp(t, "cpu"))) opt.target = TARGET_CPU;
      else if (!strcmp(cmd, "emit") && !strcmp(t, "cuda")) opt.emit_cuda = true;
      else if (!strcmp(cmd, "emit")) return usage_error("emit: unknown target '%s' (c or cuda)", t);
      else if (!strcmp(t, "auto")) opt.target = TARGET_AUTO;
      else if (!strcmp(t, "cpu")) opt.target = TARGET_CPU;
      else if (!strcmp(t, "cuda")) opt.target = TARGET_CUDA;
      else if (!strcmp(t, "interp")) opt.target = TARGET_INTERP;
      else return usage_error("unknown target '%s'", t);
    } else if (!strcmp(a, "--precision") && i + 1 < argc) {
      const char *p = argv[++i];
      if (!strcmp(p, "single")) rt_config.double_precision = false;
      else if (!strcmp(p, "double")) rt_config.double_precision = true;
      else return usage_error("unknown precision '%s'", p);
    } else if (!strcmp(a, "--verbose")) opt.verbose = true;
    else if (!strcmp(a, "--profile") || !strncmp(a, "--profile=", 10)) {
      const char *f = a[9] ? a + 10 : "short";
      if (!strcmp(f, "short")) opt.profile_format = PROFILE_SHORT;
      else if (!strcmp(f, "wide")) opt.profile_format = PROFILE_WIDE;
      else if (!strcmp(f, "json")) opt.profile_format = PROFILE_JSON;
      else return usage_error("unknown profile format '%s' (wide or json)", f);
      opt.profile = true;
      prof_enable(true);
    }
    else if (!strcmp(a, "--emit-c")) opt.emit_c = true;
    else if (!strcmp(a, "--show-dir") && i + 1 < argc) rt_show_set_dir(argv[++i]);
    else if (!strcmp(a, "--no-parloop")) opt.no_parloop = true;
    else if (!strcmp(a, "--explain")) opt.explain = true;
    else if (!strcmp(a, "--dump")) dump = true;
    else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage_of(stdout, command_index(cmd));
      return 0;
    } else if (a[0] == '-' && a[1]) return usage_error("unknown option '%s'", a);
    else if (!path) {
      path = a;
      if (!strcmp(cmd, "run") || !strcmp(cmd, "emit")) {   /* the rest belongs to the program */
        opt.args = argv + i + 1;
        opt.nargs = argc - i - 1;
        break;
      }
    } else return usage_error("unexpected argument '%s'", a);
  }
  if (!path) return usage_error("%s: no input file", cmd);

  SrcFile *file = load_program(path);
  if (!file) {
    fprintf(stderr, "oq: error: cannot read '%s': %s\n", strcmp(path, "-") ? path : "<stdin>",
            strerror(errno));
    return 1;
  }
  Arena arena = {0};
  Node *program = parse_file(&arena, file);
  if (diag_error_count()) return load_failed(&arena, file);
  if (!strcmp(cmd, "parse")) {
    if (dump) ast_dump(program, 0);
    return drop_source(&arena, file, 0);
  }
  if (config()->no_parloop) opt.no_parloop = true;
  if (!strcmp(cmd, "emit")) {
    opt.emit_c = !opt.emit_cuda;
    opt.target = TARGET_CPU;
  }
  /* the target is known before loading: $target("gpu") is decided at compile time */
  if (opt.target == TARGET_CUDA || opt.target == TARGET_AUTO) {
    char why[512];
    bool gpu = cuda_available(why, sizeof why);
    if (!gpu && opt.target == TARGET_CUDA && strcmp(cmd, "check")) {
      fprintf(stderr, "oq: error: --target cuda: %s\n", why);
      return load_failed(&arena, file);
    }
    if (opt.target == TARGET_AUTO && opt.verbose)
      fprintf(stderr, "oq: --target auto: kernels run %s\n", gpu ? "on the GPU (cuda)" : "on the CPU (no usable GPU)");
    if (opt.target == TARGET_AUTO) opt.target = gpu ? TARGET_CUDA : TARGET_CPU;
  }
  Program *prog = interp_load(&arena, program, &opt);
  if (!prog) return load_failed(&arena, file);
  /* kernels whose parameters all have types: their type errors, without running */
  if (!strcmp(cmd, "check")) return interp_check(prog) ? 1 : 0;
  int status = interp_run(prog, &opt);
  gpu_sync(program->loc);   /* the last launches' errors */
  rt_video_finish();
  rt_show_finish();
  if (opt.profile) {
    prof_report(stderr, opt.profile_format);
    if (opt.profile_format != PROFILE_JSON)
      gpu_profile_report(stderr);   /* GPU details: host time per launch, memory counters */
  }
  return status;
}
