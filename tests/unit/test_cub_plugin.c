/*
 * The CUB plugin, where the build made one, loads through the same loader
 * the apps use (ATL_CUB_PLUGIN points at it): right ABI version, every entry
 * point present. No GPU is needed to load it. Exits 77 where it was not built.
 */
#include <stdlib.h>
#include <unistd.h>

#include "apps/app_internal.h"
#include "check.h"

int main(int argc, char **argv)
{
  if (argc < 2 || access(argv[1], R_OK) != 0) {
    printf("no CUB plugin built: skipped\n");
    return 77;
  }
  char why[512] = "";
  setenv("ATL_CUB_PLUGIN", argv[1], 1);
  const struct atl__cub *cub = atl__cub_load(why, sizeof why);
  if (!CHECK(cub != NULL))
    printf("  %s\n", why);
  else
    printf("loaded %s: %s\n", argv[1], cub->info);
  return check_exit("test_cub_plugin");
}
