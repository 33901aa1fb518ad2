/* atomlab app double-add | list | skiplist: seed 004's locks and lock-free structures. */
#include <stdlib.h>
#include <string.h>

#include "app.h"

static const char dadd_usage[] =
    "usage: atomlab app double-add [options]\n\n"
    "Every thread adds a double (a multiple of 0.5, so every order sums exactly)\n"
    "--adds times to one of --targets words, through a warp-safe spin lock (done\n"
    "flag per thread), the seed's naive lock, a CAS loop on the 64-bit pattern,\n"
    "and (CUDA) the native atomicAdd. The final sums are checked bit for bit;\n"
    "waits are bounded (--spin-bound) and report status deadlock.\n\n"
    "  --threads N     threads in the grid, a multiple of --wg-size  [GPU: 4096; CPU: 1024]\n"
    "  --adds N        additions per thread  [4]\n"
    "  --targets N     distinct doubles (1: every thread contends)  [1]\n\n";

static const char list_usage[] =
    "usage: atomlab app list [options]\n\n"
    "p threads insert n nodes into lock-free linked lists with the seed's CAS\n"
    "loop, right after the head. The host then walks every list (bounded) and\n"
    "checks that each node is present exactly once and no list has a cycle;\n"
    "reports CAS retries per insert.\n\n"
    "  --nodes N       nodes inserted  [GPU: 65536; CPU: 4096]\n"
    "  --threads N     inserting threads  [GPU: 1024; CPU: 256]\n"
    "  --lists N       heads the nodes spread over (1: all contend on one)  [1]\n\n";

static const char skip_usage[] =
    "usage: atomlab app skiplist [options]\n\n"
    "p threads insert n random keys into one lock-free skiplist (CAS on each\n"
    "level's link, bottom level first). The host checks every level (sorted,\n"
    "complete, no cycle) and compares the bottom-level walk with its own sort;\n"
    "reports CAS retries per insert. On CUDA CUB's radix sort of the same keys\n"
    "is the baseline.\n\n"
    "  --nodes N       keys inserted  [GPU: 1048576; CPU: 4096]\n"
    "  --threads N     inserting threads  [GPU: 65536; CPU: 256]\n"
    "  --seed N        key generator seed  [1]\n"
    "  --no-cub        skip the CUB baseline\n\n";

enum { O_THREADS = APP_OPT_FIRST, O_ADDS, O_TARGETS, O_NODES, O_LISTS, O_SEED, O_NOCUB };

struct struct_cli {
  struct atl_dadd_params d;
  struct atl_list_params l;
  int threads_given, adds_given, nodes_given;
};

static void on_option(int code, const char *arg, void *user)
{
  struct struct_cli *c = user;
  switch (code) {
  case O_THREADS:
    c->d.threads = c->l.threads = (uint32_t)app_number("--threads", arg, 1, 1u << 26);
    c->threads_given = 1;
    break;
  case O_ADDS:
    c->d.adds = (uint32_t)app_number("--adds", arg, 1, 1u << 20);
    c->adds_given = 1;
    break;
  case O_TARGETS:
    c->d.targets = (uint32_t)app_number("--targets", arg, 1, 1u << 26);
    break;
  case O_NODES:
    c->l.nodes = (uint32_t)app_number("--nodes", arg, 1, 1u << 26);
    c->nodes_given = 1;
    break;
  case O_LISTS:
    c->l.lists = (uint32_t)app_number("--lists", arg, 1, 1u << 26);
    break;
  case O_SEED:
    c->l.seed = app_number("--seed", arg, 0, UINT64_MAX);
    break;
  case O_NOCUB:
    c->l.want_cub = 0;
    break;
  }
}

static void init(struct struct_cli *c)
{
  memset(c, 0, sizeof *c);
  c->d.targets = 1;
  c->l.lists = 1;
  c->l.seed = 1;
  c->l.want_cub = 1;
}

int app_double_add(int argc, char **argv)
{
  static const struct option extra[] = {{"threads", required_argument, NULL, O_THREADS},
                                        {"adds", required_argument, NULL, O_ADDS},
                                        {"targets", required_argument, NULL, O_TARGETS},
                                        {0}};
  struct struct_cli c;
  struct app_opts o;
  struct atl_app_set set;
  init(&c);
  if (app_parse(argc, argv, dadd_usage, extra, on_option, &c, &o))
    return EXIT_OK;
  if (c.threads_given && c.d.targets > c.d.threads)
    die_usage("--targets %u is not allowed: 1 to --threads (%u)", c.d.targets, c.d.threads);
  atl_context_t ctx = app_open(&o, &set, argc, argv);
  const int cpu = atl_device_current(ctx)->type == ATL_DEVICE_CPU;
  if (!c.threads_given)
    c.d.threads = cpu ? 1024 : 4096;
  if (!c.adds_given)
    c.d.adds = 4;
  if (c.d.threads % o.wg_size)
    die_usage("--threads %u is not allowed: a multiple of --wg-size %u", c.d.threads, o.wg_size);
  if (c.d.targets > c.d.threads)
    die_usage("--targets %u is not allowed: 1 to --threads (%u)", c.d.targets, c.d.threads);
  c.d.wg_size = o.wg_size;
  app_check(&o, ctx, atl_app_double_add(ctx, &c.d, &o.timing, &set), "double-add");
  return app_finish(&o, &set, ctx);
}

/* Defaults and checks the list and skiplist share. Every insertion after one
 * list head is a CAS on one word, and each success costs about as many
 * attempts as threads contend, so the list's GPU defaults are smaller than
 * the skiplist's, whose contention spreads out as it grows. */
static void list_sizes(struct struct_cli *c, atl_context_t ctx, const struct app_opts *o, int skiplist)
{
  const int cpu = atl_device_current(ctx)->type == ATL_DEVICE_CPU;
  if (!c->nodes_given)
    c->l.nodes = cpu ? 4096 : skiplist ? 1u << 20 : 1u << 16;
  if (!c->threads_given)
    c->l.threads = cpu ? 256 : skiplist ? 1u << 16 : 1024;
  if (c->l.lists > c->l.nodes)
    die_usage("--lists %u is not allowed: 1 to --nodes (%u)", c->l.lists, c->l.nodes);
  c->l.wg_size = o->wg_size;
}

int app_list(int argc, char **argv)
{
  static const struct option extra[] = {{"nodes", required_argument, NULL, O_NODES},
                                        {"threads", required_argument, NULL, O_THREADS},
                                        {"lists", required_argument, NULL, O_LISTS},
                                        {0}};
  struct struct_cli c;
  struct app_opts o;
  struct atl_app_set set;
  init(&c);
  if (app_parse(argc, argv, list_usage, extra, on_option, &c, &o))
    return EXIT_OK;
  if (c.nodes_given && c.l.lists > c.l.nodes)
    die_usage("--lists %u is not allowed: 1 to --nodes (%u)", c.l.lists, c.l.nodes);
  atl_context_t ctx = app_open(&o, &set, argc, argv);
  list_sizes(&c, ctx, &o, 0);
  app_check(&o, ctx, atl_app_list(ctx, &c.l, &o.timing, &set), "list");
  return app_finish(&o, &set, ctx);
}

int app_skiplist(int argc, char **argv)
{
  static const struct option extra[] = {{"nodes", required_argument, NULL, O_NODES},
                                        {"threads", required_argument, NULL, O_THREADS},
                                        {"seed", required_argument, NULL, O_SEED},
                                        {"no-cub", no_argument, NULL, O_NOCUB},
                                        {0}};
  struct struct_cli c;
  struct app_opts o;
  struct atl_app_set set;
  init(&c);
  if (app_parse(argc, argv, skip_usage, extra, on_option, &c, &o))
    return EXIT_OK;
  atl_context_t ctx = app_open(&o, &set, argc, argv);
  list_sizes(&c, ctx, &o, 1);
  app_check(&o, ctx, atl_app_skiplist(ctx, &c.l, &o.timing, &set), "skiplist");
  return app_finish(&o, &set, ctx);
}
