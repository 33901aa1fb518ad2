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

struct count_cli {
  struct atl_count_params p;
  int containers_given;
};

static void on_option(int code, const char *arg, void *user)
{
  struct count_cli *c = user;
  char *end;
  switch (code) {
  case O_CONTAINERS:
    c->p.containers = app_number("--containers", arg, 1, UINT32_MAX);
    c->containers_given = 1;
    break;
  case O_ITEMS:
    c->p.items = (uint32_t)app_number("--items", arg, 1, 4096);
    break;
  case O_LIMIT:
    c->p.limit = strtof(arg, &end);
    if (*arg == '\0' || *end != '\0' || !(c->p.limit > -1e30f && c->p.limit < 1e30f))
      die_usage("--limit '%s' is not allowed: a number", arg);
    break;
  case O_SEED:
    c->p.seed = app_number("--seed", arg, 0, UINT64_MAX);
    break;
  case O_NOCUB:
    c->p.want_cub = 0;
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
  struct count_cli c = {{.items = 32, .limit = 0.0f, .seed = 1, .want_cub = 1}, 0};
  struct app_opts o;
  struct atl_app_set set;
  if (app_parse(argc, argv, usage, extra, on_option, &c, &o))
    return EXIT_OK;
  if (o.wg_size && (o.wg_size & (o.wg_size - 1)))
    die_usage("--wg-size %u is not allowed: a power of two (the block reduction halves it)", o.wg_size);
  if (c.containers_given && c.p.containers * c.p.items > UINT32_MAX)
    die_usage("--containers %llu with --items %u is more than 2^32 - 1 floats", (unsigned long long)c.p.containers,
              c.p.items);
  atl_context_t ctx = app_open(&o, &set, argc, argv);
  const struct atl_device_info *dev = atl_device_current(ctx);
  while (o.wg_size & (o.wg_size - 1)) /* a device maximum that is not a power of two */
    o.wg_size &= o.wg_size - 1;
  c.p.wg_size = o.wg_size;
  if (!c.containers_given) {
    uint64_t bytes = dev->type == ATL_DEVICE_CPU ? 16384ull * 4 * c.p.items : 512ull << 20;
    if (bytes > dev->max_alloc / 2)
      bytes = dev->max_alloc / 2;
    c.p.containers = bytes / (4ull * c.p.items);
    if (c.p.containers == 0)
      c.p.containers = 1;
  }
  if (c.p.containers * c.p.items * 4 > dev->max_alloc)
    die_usage("--containers %llu x --items %u floats exceed the max allocation of %llu bytes on %s",
              (unsigned long long)c.p.containers, c.p.items, (unsigned long long)dev->max_alloc, dev->name);
  app_check(&o, ctx, atl_app_count(ctx, &c.p, &o.timing, &set), "count");
  return app_finish(&o, &set, ctx);
}
