/* atomlab strategy: every atomic strategy of the device library per access
 * pattern and op, in one run on one device, with the winner and its margin. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
    "  --backend B    @BACKENDS@  [any]\n"
    "  --device ID    an id or row number from 'atomlab devices'; 'all' or a comma list (0,1): every\n"
    "                 device named at once, one thread each, rows naming their device  [best device]\n"
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
    "  --format F     table, csv or json  [table; with -o: from the file extension]\n"
    "  -o FILE        write results to FILE (through a temporary name: never half a file);\n"
    "                 up to 4 times, each in the format of its extension (.json .csv .txt)\n"
    "  --quiet        no table on stdout when writing to a file\n"
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

/* What the sweep calls back: the specs, the table, the checkpoints (ranked first). */
struct strategy_sweep {
  const struct atl_strategy_spec *specs;
  const char *const *out_paths;
  const int *out_formats;
  size_t nout;
  const struct atl_row_kind *kind; /* the table's columns (a run on several devices shows the device) */
  int live_table, failures;
  struct atl_result_set *set;
};

static int measure(atl_context_t ctx, const void *arg, size_t i, const struct atl_timing *timing, struct atl_row *row)
{
  return atl_strategy_run(ctx, &((const struct strategy_sweep *)arg)->specs[i], timing, row);
}

static void after_row(void *arg, size_t i, const struct atl_row *row, int reused)
{
  struct strategy_sweep *w = arg;
  (void)i, (void)reused;
  if (row->status == ATL_STATUS_ERROR || (row->status == ATL_STATUS_OK && !row->verified))
    w->failures++;
  if (w->live_table) /* a closed stdout (EPIPE) ends the table, not the run */
    w->live_table = atl_write_table_row(stdout, w->kind, row) == 0 && fflush(stdout) == 0;
}

static void on_checkpoint(void *arg, const struct atl_result_set *rows)
{
  struct strategy_sweep *w = arg;
  atl_strategy_rank(w->set->rows, w->set->count);
  cli_checkpoint_outputs(rows, w->out_paths, w->out_formats, w->nout);
}

/* The winners, one line per pattern, op and result. */
static void print_winners(FILE *f, const struct atl_result_set *set)
{
  int header = 0;
  for (size_t i = 0; i < set->count; i++) {
    const struct atl_row *w = &set->rows[i];
    if (atl_row_metric(w, "winner", 0) == 0)
      continue;
    if (!header++)
      fprintf(f, "\nwinners (fastest verified strategy; margin = its Gop/s over the runner-up's):\n");
    const char *device = atl_row_config(w, "device"); /* a run on several devices: each device's winners */
    if (device)
      fprintf(f, "  %-12s", device);
    fprintf(f, "  %-12s %-9s %-6s %-11s %10.3f Gop/s", atl_row_config(w, "pattern"), atl_row_config(w, "op"),
            atl_row_config(w, "result"), atl_row_config(w, "strategy"), atl_row_metric(w, "gops", 0));
    const double margin = atl_row_metric(w, "margin", 0);
    if (margin > 0)
      fprintf(f, "  %.2fx\n", margin);
    else
      fprintf(f, "  (no runner-up)\n");
  }
}

int cmd_strategy(int argc, char **argv)
{
  enum {
    O_PATTERN = 256, O_OP, O_STRATEGY, O_RESULT, O_DIVERGENT, O_SPIN, O_STUCK
  };
  static const struct option longopts[] = {
      {"pattern", required_argument, NULL, O_PATTERN},   {"op", required_argument, NULL, O_OP},
      {"strategy", required_argument, NULL, O_STRATEGY}, {"result", required_argument, NULL, O_RESULT},
      {"divergent", no_argument, NULL, O_DIVERGENT},     {"spin-bound", required_argument, NULL, O_SPIN},
      {"stuck-lock", no_argument, NULL, O_STUCK},        CLI_SWEEP_LONGOPTS,
      {0}};
  static const int all_patterns[] = {ATL_ACCESS_SAME_ADDRESS, ATL_ACCESS_SAME_LINE, ATL_ACCESS_SCATTERED};
  static const int all_results[] = {ATL_RESULT_USED, ATL_RESULT_UNUSED};
  static const int all_ops[] = {ATL_OP_FETCH_ADD, ATL_OP_FETCH_SUB, ATL_OP_INC, ATL_OP_FETCH_MIN,
                                ATL_OP_FETCH_MAX, ATL_OP_AND,       ATL_OP_OR,  ATL_OP_XOR};
  int all_strategies[ATL_STRATEGY_COUNT];
  for (int s = 0; s < ATL_STRATEGY_COUNT; s++)
    all_strategies[s] = s;

  int patterns[MAX_LIST] = {ATL_ACCESS_SAME_ADDRESS, ATL_ACCESS_SAME_LINE, ATL_ACCESS_SCATTERED};
  int ops[MAX_LIST] = {ATL_OP_FETCH_ADD}, results[MAX_LIST] = {ATL_RESULT_USED}, strategies[MAX_LIST];
  size_t npat = 3, nop = 1, nresult = 1, nstrat = ATL_STRATEGY_COUNT;
  memcpy(strategies, all_strategies, sizeof all_strategies);
  uint32_t spin_bound = 0;
  int divergent = 0, stuck = 0, c;
  struct cli_sweep_opts opt; /* device, grid, timing and outputs: what every sweep command takes */
  cli_sweep_defaults(&opt);

  optind = 1;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
    switch (c) {
    case O_PATTERN:
      npat = cli_parse_names("--pattern", optarg, atl_access_parse, all_patterns, 3,
                             "same-address, same-line, scattered, all", patterns);
      break;
    case O_OP:
      nop = cli_parse_names("--op", optarg, atl_op_parse, all_ops, 8,
                            "fetch_add, fetch_sub, inc, fetch_min, fetch_max, and, or, xor, all", ops);
      for (size_t i = 0; i < nop; i++)
        if (!atl_strategy_op_supported((enum atl_op)ops[i]))
          die_usage("--op %s is not allowed: fetch_add, fetch_sub, inc, fetch_min, fetch_max, and, or, xor, all",
                    atl_op_name((enum atl_op)ops[i]));
      break;
    case O_STRATEGY:
      if (strcmp(optarg, "list") == 0) {
        list_strategies();
        return EXIT_OK;
      }
      nstrat = cli_parse_names("--strategy", optarg, atl_strategy_parse, all_strategies, ATL_STRATEGY_COUNT,
                               "native, warp, block, privatized, cas, lock_warp, lock_thread, spin_lock, all, list",
                               strategies);
      break;
    case O_RESULT:
      nresult = cli_parse_names("--result", optarg, atl_result_parse, all_results, 2, "used, unused, all", results);
      break;
    case O_DIVERGENT:
      divergent = 1;
      break;
    case O_SPIN:
      spin_bound = cli_parse_count("--spin-bound", optarg, UINT32_MAX);
      break;
    case O_STUCK:
      stuck = 1;
      break;
    case 'h':
      cli_print_usage(usage);
      return EXIT_OK;
    default:
      if (cli_sweep_option(c, optarg, &opt))
        break;
      cli_bad_option("strategy", "strategy", c, argv);
    }
  }
  if (optind < argc)
    die_usage("unexpected argument '%s' for strategy (see 'atomlab strategy --help')", argv[optind]);
  cli_timing_check(&opt.timing);
  const size_t axis_counts[] = {nresult, npat, nop, nstrat};
  const size_t total = cli_plan_rows(axis_counts, sizeof axis_counts / sizeof axis_counts[0]);
  cli_check_plan("strategy", total, opt.max_rows, &opt.timing); /* before anything is allocated or measured */
  cli_sweep_outputs(&opt);

  /* Several devices: one context each, every one checked and given its grid before any is measured. */
  atl_context_t ctxs[ATL_MAX_DEVICES];
  const size_t ndev = cli_open_devices(opt.device, opt.backend, ctxs, ATL_MAX_DEVICES);
  const int multi = atl_device_list_is_multi(opt.device); /* rows name their device, even where "all" is one */
  atl_context_t ctx = ctxs[0];
  struct atl_result_set set = {.kind = "strategy"};
  cli_fill_meta(ctx, argc + 1, argv - 1, &set.meta);
  set.meta.timing = opt.timing;
  struct atl_strategy_spec *specs = calloc(total * ndev, sizeof *specs);
  if (specs == NULL)
    die("out of memory");
  size_t n = 0;
  char why[256];
  for (size_t d = 0; d < ndev; d++) {
    const struct atl_device_info *dev = atl_device_current(ctxs[d]);
    uint32_t wg_size = opt.wg_size, workgroups = opt.workgroups;
    if (wg_size == 0)
      wg_size = dev->max_wg_size < 256 ? (uint32_t)dev->max_wg_size : 256;
    if (wg_size > dev->max_wg_size)
      die_usage("--wg-size %u is not allowed: 1 to %zu on %s", wg_size, dev->max_wg_size, dev->name);
    /* With --workgroups the grid is given: no discovery (it spins, which costs
     * much under compute-sanitizer). The file records the first device's. */
    struct atl_occupancy occ = {0};
    if (workgroups) {
      occ.wg_size = wg_size;
      snprintf(occ.estimate_method, sizeof occ.estimate_method, "not measured: --workgroups given");
    } else if (atl_occupancy_discover(ctxs[d], wg_size, &occ) != 0) {
      die("occupancy discovery failed on %s: %s (pass --workgroups to skip it)", dev->id, atl_errmsg(ctxs[d]));
    }
    if (d == 0)
      set.meta.occupancy = occ;
    if (workgroups == 0) {
      /* as rmw: CPU runtimes run one work-group per core at a time */
      workgroups = occ.discovered;
      if (dev->type == ATL_DEVICE_CPU && occ.estimated > workgroups)
        workgroups = occ.estimated;
    }

    /* Check every configuration first: bad input fails fast and writes nothing. */
    /* Strategy-major: the slow lock strategies come last, so a run cut short
     * (the checkpoints below) keeps every faster strategy's rows. */
    n = 0;
    for (size_t r = 0; r < nresult; r++)
      for (size_t k = 0; k < nstrat; k++)
        for (size_t p = 0; p < npat; p++)
          for (size_t o = 0; o < nop; o++) {
            struct atl_strategy_spec s = {.strategy = (enum atl_strategy)strategies[k],
                                          .access = (enum atl_access)patterns[p],
                                          .op = (enum atl_op)ops[o],
                                          .result = (enum atl_result_use)results[r],
                                          .wg_size = wg_size,
                                          .workgroups = workgroups,
                                          .divergent = divergent,
                                          .stuck_lock = stuck,
                                          .spin_bound = spin_bound};
            if (atl_strategy_check(ctxs[d], &s, why, sizeof why) == ATL_EINVAL)
              die_usage("%s", why);
            specs[d * total + n++] = s;
          }
  }

  int live_table = opt.nout ? !opt.quiet : opt.format == ATL_FORMAT_TABLE;
  const struct atl_row_kind *kind = multi ? atl_row_kind_devices("strategy") : atl_row_kind_find("strategy");
  if (live_table)
    atl_write_table_header(stdout, kind);
  struct strategy_sweep w = {specs, opt.out_paths, opt.out_formats, opt.nout, kind, live_table, 0, &set};
  const struct atl_sweep_spec sweep = {"strategy", n, NULL, measure, NULL, &w};
  const struct atl_sweep_run run = {&opt.timing, NULL, 0, opt.nout ? 10 : 0, on_checkpoint, NULL, after_row, &w};
  struct atl_sweep_report rep;
  cli_catch_stop_signals();
  if (!multi) {
    if (atl_sweep(ctx, &sweep, &run, &set, &rep) != 0)
      die("out of host memory while measuring");
  } else {
    /* Each device measures its own specs; the table and checkpoints (run's callbacks, on w) are one writer. A
     * checkpoint is ranked only by the final write: its rows are the writer's copies, not the set. */
    struct strategy_sweep wd[ATL_MAX_DEVICES];
    struct atl_sweep_part parts[ATL_MAX_DEVICES];
    for (size_t d = 0; d < ndev; d++) {
      wd[d] = w;
      wd[d].specs = specs + d * total;
      parts[d] = (struct atl_sweep_part){ctxs[d], sweep};
      parts[d].spec.arg = &wd[d];
    }
    if (atl_sweep_devices(parts, ndev, &run, &set, &rep) != 0)
      die("measuring on several devices failed: out of host memory");
    n *= ndev;
  }
  const int failures = w.failures;
  free(specs);
  set.meta.complete = set.count == n;
  atl_strategy_rank(set.rows, set.count);
  if (w.live_table)
    print_winners(stdout, &set);

  /* a file not written where asked (its rows rescued, the error printed) is a failure, not a failed row */
  const int unwritten = opt.nout ? cli_write_outputs(&set, opt.out_paths, opt.out_formats, opt.nout) : 0;
  if (opt.nout == 0 && opt.format != ATL_FORMAT_TABLE)
    atl_write_set(stdout, &(struct atl_set_writer){(enum atl_format)opt.format, &set});
  if (failures)
    fprintf(stderr, "error: %d row%s failed or did not verify\n", failures, failures == 1 ? "" : "s");
  if (atl_stop_requested()) {
    const size_t done_rows = set.count;
    atl_result_set_release(&set);
    for (size_t d = 0; d < ndev; d++)
      atl_context_free(ctxs[d]);
    return cli_interrupted("strategy", done_rows, n,
                           opt.nout ? "every completed row was written (\"complete\": false); a rerun measures them all" : NULL);
  }
  atl_result_set_release(&set);
  for (size_t d = 0; d < ndev; d++)
    atl_context_free(ctxs[d]);
  return failures || unwritten ? EXIT_MEASURE : EXIT_OK;
}
