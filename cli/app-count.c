/* atomlab app count: seed 001's container count (src/apps/count.c). */
#include <stdlib.h>
#include <string.h>

#include "app.h"

static const char usage[] =
    "usage: atomlab app count [options]\n\n"
    "Counts the containers whose sum of floats exceeds a limit, one thread per\n"
    "container, with one atomic per thread, per warp (OpenCL: sub-group) and per\n"
    "block (work-group). Reports input read in GB/s and its ratio to the read\n"
    "bandwidth of a read-only kernel over the same bytes in the same run; on CUDA\n"
    "CUB's DeviceReduce is the baseline. Inputs are small integers as floats, so\n"
    "the count is exact and checked against the host's.\n\n"
    "  --containers N  containers  [GPU: 512 MiB of input, several times L2; CPU: 16384]\n"
    "  --items N       floats per container, 1 to 4096  [32]\n"
    "  --limit X       a container counts if its sum is above X  [0]\n"
    "  --seed N        input generator seed  [1]\n"
    "  --no-cub        skip the CUB baseline\n\n";

enum { O_CONTAINERS = APP_OPT_FIRST, O_ITEMS, O_LIMIT, O_SEED, O_NOCUB };

/* Ranges and sizes are the library's (src/apps/count.c): only the syntax is checked here. */
static void on_option(int code, const char *arg, void *user)
{
  struct atl_count_params *p = user;
  char *end;
  switch (code) {
  case O_CONTAINERS:
    p->containers = app_number("--containers", arg, 1, UINT32_MAX);
    break;
  case O_ITEMS:
    p->items = (uint32_t)app_number("--items", arg, 1, UINT32_MAX);
    break;
  case O_LIMIT:
    p->limit = strtof(arg, &end);
    if (*arg == '\0' || *end != '\0' || !(p->limit > -1e30f && p->limit < 1e30f))
      die_usage("--limit '%s' is not allowed: a number", arg);
    break;
  case O_SEED:
    p->seed = app_number("--seed", arg, 0, UINT64_MAX);
    break;
  case O_NOCUB:
    p->want_cub = 0;
    break;
  }
}

int app_count(int argc, char **argv)
{
  static const struct option extra[] = {{"containers", required_argument, NULL, O_CONTAINERS},
                                        {"items", required_argument, NULL, O_ITEMS},
                                        {"limit", required_argument, NULL, O_LIMIT},
                                        {"seed", required_argument, NULL, O_SEED},
                                        {"no-cub", no_argument, NULL, O_NOCUB},
                                        {0}};
  const struct atl_app_info *app = atl_app_find("count");
  struct atl_count_params p;
  struct app_opts o;
  struct atl_app_set set;
  memset(&p, 0, sizeof p);
  app->defaults(NULL, &p);
  if (app_parse(argc, argv, usage, extra, on_option, &p, &o))
    return EXIT_OK;
  atl_context_t ctx = app_open(&o, &set, argc, argv);
  p.wg_size = o.wg_size;
  app_prepare(app, ctx, &p, NULL);
  app_run(&o, app, ctx, &p, &set);
  return app_finish(&o, &set, ctx);
}
