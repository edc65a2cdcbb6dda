/* options.h: how a run was asked for: the command line's choices, which every layer may
   read (the target, verbosity, profiling, what to print). */
#ifndef OQ_OPTIONS_H
#define OQ_OPTIONS_H
#include <stdbool.h>

typedef enum Target { TARGET_AUTO, TARGET_CPU, TARGET_CUDA, TARGET_INTERP } Target;

/* --profile, --profile=wide, --profile=json (backend/rt_profile.c) */
typedef enum ProfileFormat { PROFILE_SHORT, PROFILE_WIDE, PROFILE_JSON } ProfileFormat;

typedef struct InterpOptions {
  Target target;
  bool verbose;
  bool profile;
  ProfileFormat profile_format;
  bool emit_c;              /* print the C source of every kernel specialization */
  bool emit_cuda;           /* print its CUDA source (oq emit --target cuda; needs no GPU) */
  bool no_parloop;          /* --no-parloop: host loops stay serial (transform_parloop.c) */
  bool explain;             /* --explain: say what was decided for every host loop nest */
  const char *argv0;
  char **args;              /* program arguments (after the file): main()'s arguments */
  int nargs;
} InterpOptions;

#endif
