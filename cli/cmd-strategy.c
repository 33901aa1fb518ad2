/* atomlab strategy: every atomic strategy of the device library per access
 * pattern and op, in one run on one device, with the winner and its margin. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: atomlab strategy [options]\n\n"
    "Compares the atomic strategies of the device library (device/atomlab/atomics.cuh\n"
    "and atomics.clh) on each access pattern and op, in one run on one device. Each\n"
    "row is calibrated and sampled like rmw and verified: the final memory exactly\n"
    "and, with --result used, every old value the threads got back (per word they\n"
    "must be the values x_0, x_1, ... of some serial order of its updates). The\n"
    "fastest verified strategy of each pattern and op wins; its margin is its\n"
    "throughput over the runner-up's (other rows: the winner's over theirs).\n\n"
    "axes (comma lists):\n"
    "  --pattern P    same-address (every thread one word), same-line (32 words of\n"
    "                 one 128-byte line), scattered (a line per thread) or all  [all]\n"
    "  --op O         fetch_add, fetch_sub, inc, fetch_min, fetch_max, and, or, xor\n"
    "                 or all (u32)  [fetch_add]\n"
    "  --strategy S   native, warp, block, privatized, cas, lock_warp, lock_thread,\n"
    "                 spin_lock, all, or list (print what each one is)  [all]\n"
    "  --result R     used, unused or all  [used]\n"
    "  --divergent    every third thread does not call (divergent warps)\n\n"
    "device and grid:\n"
    CLI_DEVICES_HELP
    "  --wg-size N    threads per block  [256, or the device maximum]\n"
    "  --workgroups N blocks  [co-resident count found by occupancy discovery]\n"
    CLI_MAX_ROWS_HELP "\n"
    "waiting (locks):\n"
    "  --spin-bound N tries a waiter makes while the lock stays held by the same\n"
    "                 holder before it gives up and the row becomes `deadlock`\n"
    "                 [2^22 on GPUs, 2^26 on CPUs]\n"
    "  --stuck-lock   start every lock held by a thread that never runs: forces\n"
    "                 `deadlock` rows (a test of the hang safety)\n\n"
    CLI_TIMING_HELP
    "output:\n"
    CLI_OUTPUTS_HELP
    "With -o the files are rewritten every 10 s while the run goes on (\"complete\": false);\n"
    "rows come strategy by strategy, the lock strategies last.\n\n"
    "Exit status: 0 every row verified, unsupported or deadlock (a deadlock is a\n"
    "finding: the row says where a strategy would hang); 1 a row failed or did not\n"
    "verify; 2 bad usage.\n";


static void list_strategies(void)
{
  for (int s = 0; s < ATL_STRATEGY_COUNT; s++)
    printf("%-12s %s\n", atl_strategy_name((enum atl_strategy)s), atl_strategy_help((enum atl_strategy)s));
}

enum { O_PATTERN = 256, O_OP, O_STRATEGY, O_RESULT, O_DIVERGENT, O_SPIN, O_STUCK };

/* What strategy's own options set (the shared ones go to struct cli_sweep_opts). */
struct strategy_args {
  struct atl_strategy_axes ax; /* the axes as the library's registries spell them (atl_strategy_axes_set) */
  uint32_t spin_bound;
  int divergent, stuck;
};

static int strategy_option(void *state, int c, const char *name, const char *arg)
{
  struct strategy_args *a = state;
  char why[256];
  switch (c) {
  case O_STRATEGY:
    if (strcmp(arg, "list") == 0) {
      list_strategies();
      return -1; /* done: the command exits 0 */
    }
    /* fall through */
  case O_PATTERN:
  case O_OP:
  case O_RESULT:
    if (atl_strategy_axes_set(&a->ax, name, arg, why, sizeof why) != 0)
      die_usage("--%s", why);
    return 1;
  case O_DIVERGENT:
    a->divergent = 1;
    return 1;
  case O_SPIN:
    a->spin_bound = cli_parse_count("--spin-bound", arg, UINT32_MAX);
    return 1;
  case O_STUCK:
    a->stuck = 1;
    return 1;
  default:
    return 0;
  }
}

int cmd_strategy(int argc, char **argv)
{
  static const struct option longopts[] = {
      {"pattern", required_argument, NULL, O_PATTERN},   {"op", required_argument, NULL, O_OP},
      {"strategy", required_argument, NULL, O_STRATEGY}, {"result", required_argument, NULL, O_RESULT},
      {"divergent", no_argument, NULL, O_DIVERGENT},     {"spin-bound", required_argument, NULL, O_SPIN},
      {"stuck-lock", no_argument, NULL, O_STUCK},        CLI_SWEEP_LONGOPTS,
      {0}};
  struct strategy_args a = {.spin_bound = 0};
  atl_strategy_axes_init(&a.ax);
  struct cli_sweep_opts opt; /* device, grid, timing and outputs: what every sweep command takes */
  if (cli_sweep_parse(argc, argv, longopts, usage, "strategy", &opt, strategy_option, &a))
    return EXIT_OK;
  if (opt.timing.placements > 1) /* only rmw moves its array (docs/design/method.md, "Placements") */
    die_usage("--placements %u is not allowed: strategy measures at one placement (1); rmw takes more",
              opt.timing.placements);
  const struct atl_strategy_axes ax = a.ax;
  char why[256];
  const size_t total = atl_strategy_axes_rows(&ax);
  cli_sweep_plan(&opt, "strategy", total);

  /* Several devices: one context each, every one checked and given its grid before any is measured. */
  atl_context_t ctxs[ATL_MAX_DEVICES];
  const size_t ndev = cli_open_devices(opt.device, opt.backend, ctxs, ATL_MAX_DEVICES);
  const int multi = atl_device_list_is_multi(opt.device); /* rows name their device, even where "all" is one */
  struct atl_result_set set;
  struct atl_strategy_spec *specs = cli_sweep_start(&set, "strategy", ctxs[0], &opt, argc, argv, total * ndev,
                                                    sizeof *specs);
  /* Every configuration checked on every device first: bad input fails fast and writes nothing. */
  const struct atl_strategy_spec base = {.wg_size = opt.wg_size, .workgroups = opt.workgroups,
                                         .divergent = a.divergent, .stuck_lock = a.stuck, .spin_bound = a.spin_bound};
  const int err = atl_strategy_plan_devices(ctxs, ndev, &ax, &base, specs, &set.meta.occupancy, why, sizeof why);
  if (err == ATL_EINVAL || err == ATL_ENOTSUP) /* ENOTSUP: the reason starts with the parameter's name */
    die_usage("%s%s", err == ATL_ENOTSUP ? "--" : "", why);
  if (err)
    die("%s (pass --workgroups to skip it)", why);

  const struct atl_sweep_job job = {ctxs, ndev, multi, atl_strategy_sweep_spec(specs, total),
                                    opt.nout ? !opt.quiet ? stdout : NULL : opt.format == ATL_FORMAT_TABLE ? stdout : NULL,
                                    NULL, NULL, opt.out_paths, opt.out_formats, opt.nout, cli_checkpoint_s(10), atl_strategy_rank_set, 0};
  struct atl_sweep_outcome res;
  cli_catch_stop_signals();
  if (atl_sweep_command(&job, &opt.timing, NULL, 0, &set, &res) != 0)
    die(multi ? "measuring on several devices failed: out of host memory" : "out of host memory while measuring");
  const int failures = res.failures;
  free(specs);
  atl_strategy_rank(set.rows, set.count);
  /* winners compare every strategy of a pattern: from part of the set they would name the wrong ones */
  if (res.table_open && !set.meta.complete)
    printf("no winners: %zu of %zu rows were measured, and the winners need the full set\n", set.count, res.planned);
  else if (res.table_open)
    atl_strategy_winners_write(stdout, &set);

  const int unwritten = cli_sweep_write(&opt, &set);
  cli_print_failures(failures);
  if (atl_stop_requested() && !set.meta.complete) { /* a signal during the last row stops nothing */
    const size_t done_rows = set.count;
    atl_result_set_release(&set);
    for (size_t d = 0; d < ndev; d++)
      atl_context_free(ctxs[d]);
    return cli_interrupted("strategy", done_rows, res.planned,
                           opt.nout ? "every completed row was written (\"complete\": false); a rerun measures them all" : NULL);
  }
  atl_result_set_release(&set);
  for (size_t d = 0; d < ndev; d++)
    atl_context_free(ctxs[d]);
  return failures || unwritten ? EXIT_MEASURE : EXIT_OK;
}
