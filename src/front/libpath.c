/* libpath.c: the library modules' folders (libpath.h). */
#include "front/libpath.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/config.h"

static bool is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The folder of the running binary (/proc/self/exe, links resolved), into buf. */
static bool binary_dir(char *buf, size_t size) {
  ssize_t n = readlink("/proc/self/exe", buf, size - 1);
  if (n <= 0) return false;
  buf[n] = 0;
  char *slash = strrchr(buf, '/');
  if (!slash) return false;
  *slash = 0;
  return true;
}

bool libpath_home(char *buf, size_t size) {
  char bin[PATH_MAX];
  if (!binary_dir(bin, sizeof bin)) return false;
  static const char *const beside[] = { "/../share/openquasar/lib", "/../lib" };
  for (size_t i = 0; i < sizeof beside / sizeof *beside; i++) {
    char dir[PATH_MAX], real[PATH_MAX];
    snprintf(dir, sizeof dir, "%s%s", bin, beside[i]);
    /* the folder without its "..": messages name /usr/share/..., not /usr/bin/../share */
    if (is_dir(dir) && realpath(dir, real)) {
      snprintf(buf, size, "%s", real);
      return true;
    }
  }
  return false;
}

static SrcFile *load_in(const char *dir, size_t dirlen, const char *name) {
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%.*s/%s", (int)dirlen, dir, name);
  return srcfile_load(path);
}

SrcFile *libpath_load(const char *name) {
  const char *p = config()->oq_path;
  while (p && *p) {
    size_t len = strcspn(p, ":");
    SrcFile *f = len ? load_in(p, len, name) : NULL;   /* an empty part names no folder */
    if (f) return f;
    p += len + (p[len] == ':');
  }
  char home[PATH_MAX];
  return libpath_home(home, sizeof home) ? load_in(home, strlen(home), name) : NULL;
}
