/* The source tree's data folders beside the build (data_dir.h). */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data_dir.h"

static int is_folder(const char *path)
{
  struct stat st;
  return *path && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The folder of the file this code was loaded from: the library where a program loaded it (Python's ctypes), the
 * executable where it is linked in; "" where neither can be told. */
static void loaded_from(char *dir, size_t len)
{
  Dl_info info;
  char path[PATH_MAX] = "";
  if (dladdr((void *)loaded_from, &info) && info.dli_fname && strchr(info.dli_fname, '/'))
    snprintf(path, sizeof path, "%s", info.dli_fname);
  else if (readlink("/proc/self/exe", path, sizeof path - 1) < 0)
    path[0] = '\0';
  char real[PATH_MAX];
  const char *file = *path && realpath(path, real) ? real : "";
  const char *slash = strrchr(file, '/');
  snprintf(dir, len, "%.*s", slash ? (int)(slash - file) : 0, file);
}

const char *atl__source_data_dir(const char *compiled, const char *sub, char *buf, size_t len)
{
  const char *moved = getenv("ATL_TEST_MOVED_CHECKOUT");
  if (!(moved && *moved && strcmp(moved, "0") != 0) && is_folder(compiled)) {
    snprintf(buf, len, "%s", compiled);
    return buf;
  }
  char dir[PATH_MAX];
  loaded_from(dir, sizeof dir);
  const int n = snprintf(buf, len, "%s/../data/%s", dir, sub);
  if (!*dir || n < 0 || (size_t)n >= len || !is_folder(buf))
    *buf = '\0';
  return buf;
}
