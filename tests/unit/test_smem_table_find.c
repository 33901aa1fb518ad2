/* Where report and calibrate look for a device's smem calibration table: the user's cache folder
 * ($XDG_CACHE_HOME/atomlab/<slug>/, else ~/.cache/atomlab/<slug>/) first, then the tables shipped per device
 * (ATL_DATA_DIR/<slug>/, the installed share/atomlab/<slug>/, the source tree's data/calibrations/<slug>/);
 * never results/ under the working folder. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomlab.h"
#include "check.h"

static int ends_with(const char *s, const char *tail)
{
  size_t n = strlen(s), m = strlen(tail);
  return n >= m && strcmp(s + n - m, tail) == 0;
}

static void touch(const char *path)
{
  FILE *f = fopen(path, "w");
  if (f) {
    fputs("result,n,e,c,t_cycles\n", f);
    fclose(f);
  }
}

int main(void)
{
  char tmp[] = "/tmp/atl-find-XXXXXX", dir[512], path[4096];
  CHECK(mkdtemp(tmp) != NULL);
  unsetenv("ATL_DATA_DIR");
  snprintf(dir, sizeof dir, "%s/cache", tmp);
  setenv("XDG_CACHE_HOME", dir, 1);

  CHECK(atl_cache_dir("nvidia-h100", path, sizeof path) == 0);
  CHECK(strcmp(path + strlen(tmp), "/cache/atomlab/nvidia-h100") == 0);
  /* a relative XDG_CACHE_HOME is ignored (the XDG rule): HOME's .cache */
  setenv("XDG_CACHE_HOME", "rel", 1);
  setenv("HOME", tmp, 1);
  CHECK(atl_cache_dir("x", path, sizeof path) == 0 && ends_with(path, "/.cache/atomlab/x"));
  CHECK(atl_cache_dir("x", path, 8) == ATL_EINVAL); /* does not fit */
  setenv("XDG_CACHE_HOME", dir, 1);

  /* the shipped H100 table of the source tree, found by a build-tree binary */
  CHECK(atl_smem_table_find("nvidia-h100", path, sizeof path) == 0 &&
        ends_with(path, "/data/calibrations/nvidia-h100/smem-table.csv"));
  CHECK(atl_smem_table_find("no-such-device", path, sizeof path) == ATL_EINVAL && path[0] == '\0');

  /* results/<slug>/ under the working folder is not a place to look */
  char cwd[512];
  CHECK(getcwd(cwd, sizeof cwd) != NULL && chdir(tmp) == 0);
  mkdir("results", 0777);
  mkdir("results/no-such-device", 0777);
  touch("results/no-such-device/smem-table.csv");
  CHECK(atl_smem_table_find("no-such-device", path, sizeof path) == ATL_EINVAL);

  /* ATL_DATA_DIR before the shipped copies, the cache before both */
  snprintf(dir, sizeof dir, "%s/data", tmp);
  mkdir(dir, 0777);
  snprintf(dir, sizeof dir, "%s/data/nvidia-h100", tmp);
  mkdir(dir, 0777);
  snprintf(dir, sizeof dir, "%s/data/nvidia-h100/smem-table.csv", tmp);
  touch(dir);
  snprintf(dir, sizeof dir, "%s/data", tmp);
  setenv("ATL_DATA_DIR", dir, 1);
  CHECK(atl_smem_table_find("nvidia-h100", path, sizeof path) == 0 && strncmp(path, tmp, strlen(tmp)) == 0 &&
        ends_with(path, "/data/nvidia-h100/smem-table.csv"));
  mkdir("cache", 0777);
  mkdir("cache/atomlab", 0777);
  mkdir("cache/atomlab/nvidia-h100", 0777);
  touch("cache/atomlab/nvidia-h100/smem-table.csv");
  CHECK(atl_smem_table_find("nvidia-h100", path, sizeof path) == 0 &&
        ends_with(path, "/cache/atomlab/nvidia-h100/smem-table.csv"));

  CHECK(chdir(cwd) == 0);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
  CHECK(system(cmd) == 0);
  return check_exit("test_smem_table_find");
}
