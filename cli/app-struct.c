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

/* Both apps' params; each app reads its own. Ranges and sizes are the library's (src/apps/double_add.c, list.c). */
struct struct_cli {
  struct atl_dadd_params d;
  struct atl_list_params l;
};

static void on_option(int code, const char *arg, void *user)
{
  struct struct_cli *c = user;
  switch (code) {
  case O_THREADS:
    c->d.threads = c->l.threads = (uint32_t)app_number("--threads", arg, 1, UINT32_MAX);
    break;
  case O_ADDS:
    c->d.adds = (uint32_t)app_number("--adds", arg, 1, UINT32_MAX);
    break;
  case O_TARGETS:
    c->d.targets = (uint32_t)app_number("--targets", arg, 1, UINT32_MAX);
    break;
  case O_NODES:
    c->l.nodes = (uint32_t)app_number("--nodes", arg, 1, UINT32_MAX);
    break;
  case O_LISTS:
    c->l.lists = (uint32_t)app_number("--lists", arg, 1, UINT32_MAX);
    break;
  case O_SEED:
    c->l.seed = app_number("--seed", arg, 0, UINT64_MAX);
    break;
  case O_NOCUB:
    c->l.want_cub = 0;
    break;
  }
}

/* Parses, opens, completes and checks the params of @p name, runs it and writes its rows. */
static int run_app(const char *name, int argc, char **argv, const char *usage, const struct option *extra)
{
  const struct atl_app_info *app = atl_app_find(name);
  struct struct_cli c;
  struct app_opts o;
  struct atl_app_set set;
  const int dadd = strcmp(name, "double-add") == 0;
  memset(&c, 0, sizeof c);
  app->defaults(NULL, dadd ? (void *)&c.d : (void *)&c.l);
  if (app_parse(argc, argv, usage, extra, on_option, &c, &o))
    return EXIT_OK;
  atl_context_t ctx = app_open(&o, &set, argc, argv);
  c.d.wg_size = c.l.wg_size = o.wg_size;
  app_prepare(app, ctx, dadd ? (void *)&c.d : (void *)&c.l, NULL);
  app_run(&o, app, ctx, dadd ? (void *)&c.d : (void *)&c.l, &set);
  return app_finish(&o, &set, ctx);
}

int app_double_add(int argc, char **argv)
{
  static const struct option extra[] = {{"threads", required_argument, NULL, O_THREADS},
                                        {"adds", required_argument, NULL, O_ADDS},
                                        {"targets", required_argument, NULL, O_TARGETS},
                                        {0}};
  return run_app("double-add", argc, argv, dadd_usage, extra);
}

int app_list(int argc, char **argv)
{
  static const struct option extra[] = {{"nodes", required_argument, NULL, O_NODES},
                                        {"threads", required_argument, NULL, O_THREADS},
                                        {"lists", required_argument, NULL, O_LISTS},
                                        {0}};
  return run_app("list", argc, argv, list_usage, extra);
}

int app_skiplist(int argc, char **argv)
{
  static const struct option extra[] = {{"nodes", required_argument, NULL, O_NODES},
                                        {"threads", required_argument, NULL, O_THREADS},
                                        {"seed", required_argument, NULL, O_SEED},
                                        {"no-cub", no_argument, NULL, O_NOCUB},
                                        {0}};
  return run_app("skiplist", argc, argv, skip_usage, extra);
}
