/* libpath.h: where `import "NAME"` finds OpenQuasar's library modules (the .q files of
   lib/) when NAME is not next to the importing file: each folder of $OQ_PATH
   (colon-separated), then the library of this oq, found relative to its binary (nothing
   is baked in at build time, so a checkout and an installed copy can be moved):
     BINDIR/../share/openquasar/lib   `make install PREFIX=P`: P/bin/oq, P/share/openquasar/lib
     BINDIR/../lib                    the source checkout, for build/oq */
#ifndef OQ_LIBPATH_H
#define OQ_LIBPATH_H
#include <stdbool.h>
#include <stddef.h>
#include "base/diag.h"

/* The library folder of this oq (without $OQ_PATH) into buf; false when none exists. */
bool libpath_home(char *buf, size_t size);

/* The module NAME from $OQ_PATH's folders, then the library folder; NULL if none has it. */
SrcFile *libpath_load(const char *name);

#endif
