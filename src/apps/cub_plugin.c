/* Loads the optional CUB plugin (libatomlab_cub.so) at run time. */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app_internal.h"

#define ATL_CUB_ABI_VERSION_EXPECTED 3 /* ATL_CUB_ABI_VERSION of backend/cuda/cub/atomlab_cub.h */

static struct atl__cub cub;
static int loaded; /* 0 not tried, 1 ok, -1 failed */
static char failure[512];
static pthread_once_t load_once = PTHREAD_ONCE_INIT; /* threads asking at once wait for the one load */

/* The folder of the running binary, where the build puts the plugin. */
static int plugin_path(char *path, size_t len)
{
  const char *env = getenv("ATL_CUB_PLUGIN");
  if (env && *env) {
    snprintf(path, len, "%s", env);
    return 0;
  }
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0)
    return -1;
  exe[n] = '\0';
  char *slash = strrchr(exe, '/');
  if (slash)
    *slash = '\0';
  snprintf(path, len, "%s/libatomlab_cub.so", exe);
  return 0;
}

static void load_plugin(void)
{
  {
    loaded = -1;
    char path[PATH_MAX + 32];
    void *lib = NULL;
    int (*version)(char *, size_t) = NULL;
    int abi = 0;
    if (plugin_path(path, sizeof path) != 0)
      snprintf(failure, sizeof failure, "CUB plugin not found: cannot locate the running binary");
    else if ((lib = dlopen(path, RTLD_NOW | RTLD_LOCAL)) == NULL)
      snprintf(failure, sizeof failure, "CUB plugin not available (%s): built only where nvcc is found", dlerror());
    else if ((*(void **)&version = dlsym(lib, "atl_cub_abi_version")) == NULL)
      snprintf(failure, sizeof failure, "CUB plugin %.160s has no atl_cub_abi_version: not an atomlab CUB plugin",
               path);
    else if ((abi = version(cub.info, sizeof cub.info)) != ATL_CUB_ABI_VERSION_EXPECTED)
      /* A stale plugin next to a newer binary (or one picked by ATL_CUB_PLUGIN): say which side to rebuild. */
      snprintf(failure, sizeof failure,
               "CUB plugin %.160s has ABI version %d, this atomlab needs %d: rebuild the plugin from the same "
               "commit (cmake --build build --target atomlab_cub)",
               path, abi, ATL_CUB_ABI_VERSION_EXPECTED);
    else {
      *(void **)&cub.count_if = dlsym(lib, "atl_cub_count_if");
      *(void **)&cub.sort_u32 = dlsym(lib, "atl_cub_sort_u32");
      *(void **)&cub.histogram_u8 = dlsym(lib, "atl_cub_histogram_u8");
      *(void **)&cub.histogram_rgba = dlsym(lib, "atl_cub_histogram_rgba");
      *(void **)&cub.histogram_u32 = dlsym(lib, "atl_cub_histogram_u32");
      *(void **)&cub.scatter_add_f32x64 = dlsym(lib, "atl_cub_scatter_add_f32x64");
      if (cub.count_if && cub.sort_u32 && cub.histogram_u8 && cub.histogram_rgba && cub.histogram_u32 &&
          cub.scatter_add_f32x64)
        loaded = 1;
      else
        snprintf(failure, sizeof failure, "CUB plugin %.160s lacks an entry point", path);
    }
    if (loaded != 1 && lib)
      dlclose(lib);
  }
}

const struct atl__cub *atl__cub_load(char *why, size_t why_len)
{
  pthread_once(&load_once, load_plugin);
  if (loaded == 1)
    return &cub;
  snprintf(why, why_len, "%s", failure);
  return NULL;
}
