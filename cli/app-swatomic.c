/* atomlab app swatomic: seed 000's software atomic add (src/apps/swatomic.c). */
#include <stdlib.h>
#include <string.h>

#include "app.h"

static const char usage[] =
    "usage: atomlab app swatomic [options]\n\n"
    "Seed 000's micro-benchmark 1 (atomic only): every work-item adds 1 to one of\n"
    "--targets words --iters times through the system atomic, warp aggregation\n"
    "(OpenCL: groups of 32 in local memory) and the software atomic add, whose\n"
    "last work-group is a coordinator that applies every wavefront's sum. The\n"
    "coordinator idles in the other variants, so all do the same work. Every row\n"
    "is verified: the old values per word are exactly 0..n-1 and the words end\n"
    "at n. The software atomic needs a co-resident grid: counts above what\n"
    "occupancy discovery finds are refused (exit 2). Waits are bounded\n"
    "(--spin-bound; CPU default 2^26) and report status deadlock.\n\n"
    "  --workgroups LIST  grids incl. the coordinator, e.g. 8,16,32  [8, 16, ... up to\n"
    "                     the co-resident count, and that count; CPU: the count]\n"
    "  --targets N        words the work-items spread over (gid %% N)  [1]\n"
    "  --iters N          atomics per work-item  [GPU: 16; CPU: 2]\n"
    "  --divergent        every work-item with gid %% 3 == 1 sits out\n"
    "  --variants LIST    of system, warp, software  [all]\n\n";

enum { O_WGS = APP_OPT_FIRST, O_TARGETS, O_ITERS, O_DIVERGENT, O_VARIANTS };

#define MAX_GRIDS 32

struct sw_cli {
  struct atl_swatomic_params p;
  uint32_t groups[MAX_GRIDS];
  int iters_given;
};

static void parse_list(const char *opt, const char *arg, struct sw_cli *c)
{
  char *copy = strdup(arg), *save = NULL;
  if (copy == NULL)
    die("out of memory");
  c->p.ngroups = 0;
  for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    if (c->p.ngroups == MAX_GRIDS)
      die_usage("%s '%s' is not allowed: at most %d grids", opt, arg, MAX_GRIDS);
    c->groups[c->p.ngroups++] = (uint32_t)app_number(opt, tok, 2, 65535);
  }
  free(copy);
  if (c->p.ngroups == 0)
    die_usage("%s '%s' is not allowed: a comma-separated list of work-group counts, 2 to 65535", opt, arg);
}

static void on_option(int code, const char *arg, void *user)
{
  struct sw_cli *c = user;
  switch (code) {
  case O_WGS:
    parse_list("--workgroups", arg, c);
    break;
  case O_TARGETS:
    c->p.targets = (uint32_t)app_number("--targets", arg, 1, 1u << 20);
    break;
  case O_ITERS:
    c->p.iters = (uint32_t)app_number("--iters", arg, 1, 1024);
    c->iters_given = 1;
    break;
  case O_DIVERGENT:
    c->p.divergent = 1;
    break;
  case O_VARIANTS: {
    static const char *const names[] = {"system", "warp", "software"};
    char *copy = strdup(arg), *save = NULL;
    if (copy == NULL)
      die("out of memory");
    c->p.variants = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
      unsigned v = 0;
      while (v < 3 && strcmp(tok, names[v]) != 0)
        v++;
      if (v == 3)
        die_usage("--variants '%s' is not allowed: a list of system, warp, software", arg);
      c->p.variants |= 1u << v;
    }
    free(copy);
    if (c->p.variants == 0)
      die_usage("--variants '%s' is not allowed: a list of system, warp, software", arg);
    break;
  }
  }
}

int app_swatomic(int argc, char **argv)
{
  static const struct option extra[] = {{"workgroups", required_argument, NULL, O_WGS},
                                        {"targets", required_argument, NULL, O_TARGETS},
                                        {"iters", required_argument, NULL, O_ITERS},
                                        {"divergent", no_argument, NULL, O_DIVERGENT},
                                        {"variants", required_argument, NULL, O_VARIANTS},
                                        {0}};
  struct sw_cli c;
  memset(&c, 0, sizeof c);
  c.p.targets = 1;
  c.p.variants = 7;
  struct app_opts o;
  struct atl_app_set set;
  if (app_parse(argc, argv, usage, extra, on_option, &c, &o))
    return EXIT_OK;
  if (o.wg_size > 256)
    die_usage("--wg-size %u is not allowed: 1 to 256 (the coordinator's local arrays)", o.wg_size);
  atl_context_t ctx = app_open(&o, &set, argc, argv);
  const struct atl_device_info *dev = atl_device_current(ctx);
  const int cpu = dev->type == ATL_DEVICE_CPU;
  if (cpu && o.timing.spin_bound == 1u << 22) /* the common default: a CPU poll is nanoseconds, preemption ms */
    o.timing.spin_bound = 1u << 26;
  if (!c.iters_given)
    c.p.iters = cpu ? 2 : 16;
  c.p.wg_size = o.wg_size;
  struct atl_occupancy occ;
  if (atl_occupancy_discover(ctx, o.wg_size, &occ) != 0)
    die("occupancy discovery failed: %s", atl_errmsg(ctx));
  c.p.coresident = occ.discovered;
  /* A test hook: PoCL's discovery often finds 1 work-group on a busy 2-core
   * machine although its thread pool runs 2; the tests assume 2 to exercise
   * the protocol (a wrong assumption ends as status deadlock, not a hang). */
  const char *assume = getenv("ATL_SW_ASSUME_CORESIDENT");
  if (assume && *assume)
    c.p.coresident = (uint32_t)app_number("ATL_SW_ASSUME_CORESIDENT", assume, 1, 65535);
  for (unsigned i = 0; i < c.p.ngroups; i++)
    if (c.groups[i] > c.p.coresident)
      die_usage("--workgroups %u is not allowed: the software atomic needs a co-resident grid, and occupancy "
                "discovery found %u work-groups of %u work-items on %s", c.groups[i], c.p.coresident, o.wg_size,
                dev->name);
  if (c.p.coresident < 2)
    die("the software atomic needs 2 co-resident work-groups (one coordinator); occupancy discovery found %u "
        "at %u work-items on %s", c.p.coresident, o.wg_size, dev->name);
  if (c.p.ngroups == 0) {
    if (!cpu)
      for (uint32_t g = 8; g < c.p.coresident && c.p.ngroups < MAX_GRIDS - 1; g *= 2)
        c.groups[c.p.ngroups++] = g;
    c.groups[c.p.ngroups++] = c.p.coresident;
  }
  c.p.groups = c.groups;
  if (!o.quiet)
    fprintf(stderr, "swatomic: %u co-resident work-groups of %u (discovery), %u grid(s), %u target(s)\n",
            c.p.coresident, o.wg_size, c.p.ngroups, c.p.targets);
  int err = atl_app_swatomic(ctx, &c.p, &o.timing, &set);
  if (err)
    die("swatomic failed: %s", atl_errmsg(ctx)[0] ? atl_errmsg(ctx) : atl_strerror(err));
  return app_finish(&o, &set, ctx);
}
