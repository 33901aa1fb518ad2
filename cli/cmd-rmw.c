/* atomlab rmw: the contention x padding sweep of seed 003. */
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static const char usage[] =
    "usage: atomlab rmw [options]\n\n"
    "Measures atomic read-modify-write throughput over the cartesian product of\n"
    "the axes below. Each row is calibrated, sampled and verified against the\n"
    "exact expected memory state.\n\n"
    "axes (comma lists; numbers also as A:B (powers of two), A:B:xK or A:B:+K):\n"
    "  --pattern P    contiguous, cross-warp, branched, random or all  [contiguous]\n"
    "  --op O         fetch_add, fetch_sub, inc, dec, fetch_min, fetch_max, and, or,\n"
    "                 xor, exchange, cas, cas_fail, plain_add, or all (all atomic ops;\n"
    "                 plain_add is the non-atomic control and must be named)  [fetch_add]\n"
    "  --type T       u32, i32, u64, f32, f64, f16x2, bf16x2 or all (floats: fetch_add only)  [u32]\n"
    "  --space S      global, local or all  [global]\n"
    "  --result R     unused, used or all (whether the kernel consumes the old value)  [unused]\n"
    "  --scope S      device, block, system or all (CUDA; OpenCL: device; Vulkan: device, block)  [device]\n"
    "  --order O      relaxed, acquire, release, acq_rel, seq_cst or all (CUDA; OpenCL: relaxed)  [relaxed]\n"
    "  --contention N threads per word (random: on average; its walk runs over threads / N words)  [1:64:x4]\n"
    "  --padding N    words between neighbouring targets  [1,16]\n\n"
    "device and grid:\n"
    "  --backend B    @BACKENDS@  [any]\n"
    "  --device ID    an id or row number from 'atomlab devices'; 'all' or a comma list (0,1): every\n"
    "                 device named at once, one thread each, rows naming their device  [best device]\n"
    "  --grid G       auto: on a GPU the fastest of 128, 256, 512 and 1024 work-items, each at its\n"
    "                 co-resident count, measured once at contiguous fetch_add c=1 p=1 (the file's \"grid\"\n"
    "                 records them); occupancy: 256 work-items at the co-resident count. CPU devices,\n"
    "                 --wg-size/--workgroups given and --resume take the occupancy or given shape  [auto]\n"
    "  --wg-size N    work-items per work-group  [chosen by --grid]\n"
    "  --workgroups N work-groups  [the co-resident count found by occupancy discovery]\n"
    CLI_MAX_ROWS_HELP "\n"
    CLI_TIMING_HELP
    "output:\n"
    "  --format F     table, csv or json  [table; with -o: from the file extension]\n"
    "  -o FILE        write results to FILE (through a temporary name: never half a file);\n"
    "                 up to 4 times, each in the format of its extension (.json .csv .txt)\n"
    "  --quiet        no table on stdout when writing to a file\n"
    "  --describe     what each field of a row means and how it is measured\n"
    "  --resume FILE  reuse the rows FILE (an earlier JSON result on this device, timed with\n"
    "                 the same timing options) already holds and measure only the rest; a row\n"
    "                 that fails validation is measured again; write the whole set with -o\n"
    "  --drop-others  with --resume: leave out FILE's rows outside this sweep (by default\n"
    "                 they are kept, after this sweep's rows)\n\n"
    "With -o the files are rewritten every 30 s while the sweep runs (\"complete\": false),\n"
    "and SIGINT or SIGTERM stops after the current row, writes every completed row\n"
    "and says how to resume.\n\n"
    "Exit status: 0 all rows verified or unsupported; 1 a row failed or did not verify\n"
    "(plain_add rows are expected not to verify and do not count); 2 bad usage.\n";


/* The types this device offers, for error messages. */
static const char *device_types(const struct atl_device_info *dev)
{
  static char buf[96];
  buf[0] = '\0';
  for (int t = 0; t < ATL_TYPE_COUNT; t++)
    if (atl_device_has_type(dev, t))
      snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", buf[0] ? ", " : "", atl_type_name((enum atl_type)t));
  return buf;
}

static int progress_enabled(void) { return isatty(STDERR_FILENO); }

/* What the sweep calls back: the specs, and the table, progress and checkpoints of this command. */
struct rmw_sweep {
  const struct atl_spec *specs;
  const char *const *out_paths;
  const int *out_formats;
  size_t nout;
  const struct atl_row_kind *kind; /* the table's columns (a run on several devices shows the device) */
  int live_table, progress, failures;
  time_t started;
  double command_start;
  struct atl_result_set *set;
};

static double monotonic_s(void);

static void configure(const void *arg, size_t i, struct atl_row *row)
{
  atl_rmw_row_init(row, &((const struct rmw_sweep *)arg)->specs[i]);
}

static int measure(atl_context_t ctx, const void *arg, size_t i, const struct atl_timing *timing, struct atl_row *row)
{
  return atl_rmw_run(ctx, &((const struct rmw_sweep *)arg)->specs[i], timing, row) ? ATL_ENOMEM : 0;
}

static void before_row(void *arg, size_t i, size_t n)
{
  const struct rmw_sweep *w = arg;
  const struct atl_spec *s = &w->specs[i];
  if (w->progress && time(NULL) - w->started >= 2)
    fprintf(stderr, "\r[%zu/%zu] %s %s %s c=%u p=%u ...   ", i + 1, n, atl_pattern_name(s->pattern),
            atl_op_name(s->op), atl_type_name(s->type), s->contention, s->padding);
}

static void after_row(void *arg, size_t i, const struct atl_row *row, int reused)
{
  struct rmw_sweep *w = arg;
  if (!reused && w->progress && time(NULL) - w->started >= 2)
    fprintf(stderr, "\r%*s\r", 60, "");
  /* plain_add is the non-atomic control: it is expected not to verify */
  if (row->status == ATL_STATUS_ERROR ||
      (row->status == ATL_STATUS_OK && !row->verified && w->specs[i].op != ATL_OP_PLAIN_ADD))
    w->failures++;
  if (w->live_table) /* a closed stdout (EPIPE) ends the table, not the sweep */
    w->live_table = atl_write_table_row(stdout, w->kind, row) == 0 && fflush(stdout) == 0;
}

static void on_checkpoint(void *arg, const struct atl_result_set *rows)
{
  struct rmw_sweep *w = arg;
  w->set->meta.elapsed_s = monotonic_s() - w->command_start;
  struct atl_result_set view = *rows;
  view.meta = w->set->meta;
  cli_checkpoint_outputs(&view, w->out_paths, w->out_formats, w->nout);
}

static double monotonic_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int cmd_rmw(int argc, char **argv)
{
  int grid_mode = ATL_GRID_AUTO;
  const double command_start = monotonic_s();
  enum {
    O_PATTERN = 256, O_OP, O_TYPE, O_SPACE, O_RESULT, O_CONT, O_PAD, O_SCOPE, O_ORDER, O_RESUME, O_DROP_OTHERS, O_GRID
  };
  static const struct option longopts[] = {
      {"pattern", required_argument, NULL, O_PATTERN}, {"op", required_argument, NULL, O_OP},
      {"type", required_argument, NULL, O_TYPE},       {"space", required_argument, NULL, O_SPACE},
      {"result", required_argument, NULL, O_RESULT},   {"contention", required_argument, NULL, O_CONT},
      {"padding", required_argument, NULL, O_PAD},     {"scope", required_argument, NULL, O_SCOPE},
      {"order", required_argument, NULL, O_ORDER},     {"resume", required_argument, NULL, O_RESUME},
      {"drop-others", no_argument, NULL, O_DROP_OTHERS}, {"grid", required_argument, NULL, O_GRID},
      CLI_SWEEP_LONGOPTS, {0}};
  static const int all_patterns[] = {ATL_PATTERN_CONTIGUOUS, ATL_PATTERN_CROSS_WARP, ATL_PATTERN_BRANCHED,
                                     ATL_PATTERN_RANDOM};
  static const int all_types[] = {ATL_TYPE_U32, ATL_TYPE_I32,   ATL_TYPE_U64,   ATL_TYPE_F32,
                                  ATL_TYPE_F64, ATL_TYPE_F16X2, ATL_TYPE_BF16X2};
  static const int all_scopes[] = {ATL_SCOPE_DEVICE, ATL_SCOPE_BLOCK, ATL_SCOPE_SYSTEM};
  static const int all_orders[] = {ATL_ORDER_RELAXED, ATL_ORDER_ACQUIRE, ATL_ORDER_RELEASE, ATL_ORDER_ACQ_REL,
                                   ATL_ORDER_SEQ_CST};
  static const int all_spaces[] = {ATL_SPACE_GLOBAL, ATL_SPACE_LOCAL};
  static const int all_results[] = {ATL_RESULT_UNUSED, ATL_RESULT_USED};
  int all_ops[ATL_OP_COUNT];
  size_t nall_ops = 0;
  for (int o = 0; o < ATL_OP_COUNT; o++)
    if (o != ATL_OP_PLAIN_ADD)
      all_ops[nall_ops++] = o;

  int patterns[MAX_LIST] = {ATL_PATTERN_CONTIGUOUS}, ops[MAX_LIST] = {ATL_OP_FETCH_ADD}, types[MAX_LIST] = {ATL_TYPE_U32};
  int spaces[MAX_LIST] = {ATL_SPACE_GLOBAL}, results[MAX_LIST] = {ATL_RESULT_UNUSED};
  int scopes[MAX_LIST] = {ATL_SCOPE_DEVICE}, orders[MAX_LIST] = {ATL_ORDER_RELAXED};
  size_t npat = 1, nop = 1, ntype = 1, nspace = 1, nresult = 1, nscope = 1, norder = 1;
  const char *cont_text = "1:64:x4", *pad_text = "1,16", *resume_path = NULL;
  int types_explicit = 0, drop_others = 0, c;
  struct cli_sweep_opts opt; /* device, grid, timing and outputs: what every sweep command takes */
  cli_sweep_defaults(&opt);

  optind = 1;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
    switch (c) {
    case O_PATTERN:
      npat = cli_parse_names("--pattern", optarg, atl_pattern_parse, all_patterns, 4,
                         "contiguous, cross-warp, branched, random, all", patterns);
      break;
    case O_OP:
      nop = cli_parse_names("--op", optarg, atl_op_parse, all_ops, nall_ops,
                        "fetch_add, fetch_sub, inc, dec, fetch_min, fetch_max, and, or, xor, exchange, cas, "
                        "cas_fail, plain_add, all",
                        ops);
      break;
    case O_TYPE:
      types_explicit = !cli_list_has(optarg, "all");
      ntype = cli_parse_names("--type", optarg, atl_type_parse, all_types, 7, "u32, i32, u64, f32, f64, f16x2, bf16x2, all",
                          types);
      break;
    case O_SPACE:
      nspace = cli_parse_names("--space", optarg, atl_space_parse, all_spaces, 2, "global, local, all", spaces);
      break;
    case O_RESULT:
      nresult = cli_parse_names("--result", optarg, atl_result_parse, all_results, 2, "unused, used, all", results);
      break;
    case O_SCOPE:
      nscope = cli_parse_names("--scope", optarg, atl_scope_parse, all_scopes, 3, "device, block, system, all", scopes);
      break;
    case O_ORDER:
      norder = cli_parse_names("--order", optarg, atl_order_parse, all_orders, 5,
                           "relaxed, acquire, release, acq_rel, seq_cst, all", orders);
      break;
    case O_CONT:
      cont_text = optarg;
      break;
    case O_PAD:
      pad_text = optarg;
      break;
    case O_RESUME:
      resume_path = optarg;
      break;
    case O_DROP_OTHERS:
      drop_others = 1;
      break;
    case O_GRID:
      if ((grid_mode = atl_grid_mode_parse(optarg)) < 0)
        die_usage("--grid '%s' is not known: allowed: auto, occupancy", optarg);
      break;
    case 'h':
      cli_print_usage(usage);
      return EXIT_OK;
    default:
      if (cli_sweep_option(c, optarg, &opt))
        break;
      cli_bad_option("rmw", "rmw", c, argv);
    }
  }
  if (optind < argc)
    die_usage("unexpected argument '%s' for rmw (see 'atomlab rmw --help')", argv[optind]);
  cli_timing_check(&opt.timing);

  struct atl_axis cont, pad;
  char why[160];
  if (atl_axis_parse(cont_text, UINT32_MAX, &cont, why, sizeof why))
    die_usage("--contention: %s", why);
  if (atl_axis_parse(pad_text, UINT32_MAX, &pad, why, sizeof why))
    die_usage("--padding: %s", why);
  /* The plan's size before anything is allocated: a sweep that cannot finish
   * is refused with its size, not started (or ended by "out of memory"). */
  const size_t axis_counts[] = {npat, nop, ntype, nspace, nresult, nscope, norder, cont.count, pad.count};
  const size_t total = cli_plan_rows(axis_counts, sizeof axis_counts / sizeof axis_counts[0]);
  cli_check_plan("rmw", total, opt.max_rows, &opt.timing);
  cli_sweep_outputs(&opt);
  if (drop_others && resume_path == NULL)
    die_usage("--drop-others is allowed only with --resume FILE");

  /* The resume file before the device: a bad one is a usage error found
   * before anything is set up or measured. */
  struct atl_result_set done = {0};
  if (resume_path) {
    char rwhy[1400];
    if (atl_read_json(resume_path, &done, rwhy, sizeof rwhy) != 0)
      die_usage("--resume: %s", rwhy);
    if (strcmp(done.kind, "rmw") != 0)
      die_usage("--resume '%s' holds %s rows: allowed: a file of rmw rows", resume_path, done.kind);
    for (size_t j = 0; j < done.count; j++) { /* a configuration no spec has is a damaged file, not a row to redo */
      struct atl_spec spec;
      if (atl_spec_from_row(&done.rows[j], &spec, rwhy, sizeof rwhy) != 0)
        die_usage("--resume '%s': row %zu: %s", resume_path, j, rwhy);
    }
    if (!done.meta.timing_recorded)
      die_usage("--resume '%s' records no timing settings (\"settings\"): its rows cannot be compared with this run's",
                resume_path);
    if (atl_timing_match(&done.meta.timing, &opt.timing, rwhy, sizeof rwhy) != 0)
      die_usage("--resume '%s': %s (rows timed otherwise do not compare; use the same options or no --resume)",
                resume_path, rwhy);
  }

  /* Several devices: one context each, every device checked and given its grid before any is measured. */
  atl_context_t ctxs[ATL_MAX_DEVICES];
  const size_t ndev = cli_open_devices(opt.device, opt.backend, ctxs, ATL_MAX_DEVICES);
  const int multi = atl_device_list_is_multi(opt.device); /* rows name their device, even where "all" is one */
  atl_context_t ctx = ctxs[0];
  const struct atl_device_info *dev = atl_device_current(ctx);
  if (resume_path && !multi &&
      (strcmp(done.meta.device.name, dev->name) != 0 || strcmp(done.meta.device.backend, dev->backend) != 0))
    die_usage("--resume: '%s' was measured on %s (%s), not on %s (%s)", resume_path, done.meta.device.name,
              done.meta.device.backend, dev->name, dev->backend);

  struct atl_result_set set = {.kind = "rmw"};
  cli_fill_meta(ctx, argc + 1, argv - 1, &set.meta);
  set.meta.timing = opt.timing;
  /* Build and check every configuration before measuring anything, so bad input fails fast and writes nothing. */
  struct atl_spec *specs = calloc(total * ndev, sizeof *specs);
  if (specs == NULL)
    die("out of memory");
  size_t n = 0;
  for (size_t d = 0; d < ndev; d++) {
    dev = atl_device_current(ctxs[d]);
    if (opt.wg_size > dev->max_wg_size)
      die_usage("--wg-size %u is not allowed: 1 to %zu on %s", opt.wg_size, dev->max_wg_size, dev->name);
    /* A resumed sweep keeps its file's shape (each device's own): another shape is another configuration, and
     * nothing would be reused. */
    uint32_t wg_size = opt.wg_size, workgroups = opt.workgroups;
    for (size_t j = 0; resume_path && opt.wg_size == 0 && opt.workgroups == 0 && j < done.count; j++) {
      const char *on = atl_row_config(&done.rows[j], "device");
      if (!multi || (on && strcmp(on, dev->id) == 0)) {
        wg_size = (uint32_t)atl_row_number(&done.rows[j], "wg_size", 0);
        workgroups = (uint32_t)atl_row_number(&done.rows[j], "workgroups", 0);
        break;
      }
    }
    struct atl_grid grid;
    if (atl_grid_choose(ctxs[d], (enum atl_grid_mode)grid_mode, wg_size, workgroups, &opt.timing, &grid) != 0)
      die("choosing the grid on %s failed: %s (pass --workgroups to skip occupancy discovery)", dev->id,
          atl_errmsg(ctxs[d]));
    if (d == 0) { /* the file records the first device's grid; every row records its own shape */
      set.meta.grid = grid;
      set.meta.occupancy = grid.occupancy;
    }
    /* A type named explicitly must exist on the device; with "all" a missing one becomes unsupported rows. */
    if (types_explicit)
      for (size_t b = 0; b < ntype; b++)
        if (!atl_device_has_type(dev, types[b]))
          die_usage("--type %s is not available on %s: allowed: %s", atl_type_name((enum atl_type)types[b]), dev->name,
                    device_types(dev));
    n = 0;
    for (size_t a = 0; a < nspace; a++)
      for (size_t b = 0; b < ntype; b++)
        for (size_t p = 0; p < npat; p++)
          for (size_t o = 0; o < nop; o++)
            for (size_t r = 0; r < nresult; r++)
              for (size_t sc = 0; sc < nscope; sc++)
                for (size_t od = 0; od < norder; od++)
                  for (size_t ci = 0; ci < cont.count; ci++)
                    for (size_t pi = 0; pi < pad.count; pi++) {
                      struct atl_spec s = {.op = (enum atl_op)ops[o],
                                           .type = (enum atl_type)types[b],
                                           .space = (enum atl_space)spaces[a],
                                           .pattern = (enum atl_pattern)patterns[p],
                                           .result = (enum atl_result_use)results[r],
                                           .scope = (enum atl_scope)scopes[sc],
                                           .order = (enum atl_order)orders[od],
                                           .contention = cont.values[ci],
                                           .padding = pad.values[pi],
                                           .wg_size = grid.wg_size,
                                           .workgroups = grid.workgroups};
                      if (atl_rmw_check(ctxs[d], &s, why, sizeof why) == ATL_EINVAL)
                        die_usage("%s", why);
                      specs[d * total + n++] = s;
                    }
  }
  atl_axis_release(&cont);
  atl_axis_release(&pad);

  /* The sweep (sweep.h): each configuration reuses the first row of its
   * configuration in the --resume file that passes atl_row_validate(); the
   * others are measured again (and said so), rows outside it kept or dropped. */
  int live_table = opt.nout ? !opt.quiet : opt.format == ATL_FORMAT_TABLE;
  const struct atl_row_kind *kind = multi ? atl_row_kind_devices("rmw") : atl_row_kind_find("rmw");
  if (live_table)
    atl_write_table_header(stdout, kind);
  struct rmw_sweep w = {specs, opt.out_paths, opt.out_formats, opt.nout, kind, live_table, progress_enabled(), 0,
                        time(NULL), command_start, &set};
  const struct atl_sweep_spec sweep = {"rmw", n, configure, measure, atl_row_validate, &w};
  const struct atl_sweep_run run = {&opt.timing, resume_path ? &done : NULL, drop_others, opt.nout ? 30 : 0, on_checkpoint,
                                    before_row, after_row, &w};
  struct atl_sweep_report rep;
  cli_catch_stop_signals();
  if (!multi) {
    if (atl_sweep(ctx, &sweep, &run, &set, &rep) != 0)
      die("out of host memory while measuring");
  } else {
    /* Each device measures its own specs; the table, progress and checkpoints (run's callbacks, on w) are one writer. */
    struct rmw_sweep wd[ATL_MAX_DEVICES];
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
  free(specs);
  if (rep.invalid)
    fprintf(stderr, "measuring again %zu row%s of %s that fail%s validation (first: %s)\n", rep.invalid,
            rep.invalid == 1 ? "" : "s", resume_path, rep.invalid == 1 ? "s" : "", rep.first_invalid);
  set.meta.complete = rep.measured + rep.reused == n;
  set.meta.elapsed_s = monotonic_s() - command_start;
  if (rep.reused)
    fprintf(stderr, "reused %zu rows from %s\n", rep.reused, resume_path);
  if (rep.kept || rep.dropped)
    fprintf(stderr, "%s %zu rows of %s outside this sweep%s\n", rep.dropped ? "dropped" : "kept",
            rep.dropped ? rep.dropped : rep.kept, resume_path,
            rep.dropped ? " (--drop-others)" : " (after its rows; --drop-others leaves them out)");
  if (w.live_table && !atl_stop_requested()) /* the kept rows follow the sweep's */
    for (size_t j = rep.measured + rep.reused; j < set.count; j++)
      atl_write_table_row(stdout, kind, &set.rows[j]);

  /* Every output holds the sweep's rows, then the rows kept from the resume file. */
  /* a file not written where asked (its rows rescued, the error printed) is a failure, not a failed row */
  const int unwritten = opt.nout ? cli_write_outputs(&set, opt.out_paths, opt.out_formats, opt.nout) : 0;
  if (!opt.quiet)
    fprintf(stderr, "%zu rows in %.1f s\n", set.count, set.meta.elapsed_s);
  if (opt.nout == 0 && opt.format != ATL_FORMAT_TABLE)
    atl_write_set(stdout, &(struct atl_set_writer){(enum atl_format)opt.format, &set});
  atl_result_set_release(&done);
  const int failures = w.failures;
  if (atl_stop_requested()) {
    char hint[4200] = "with -o FILE.json a rerun could --resume from it";
    for (size_t i = 0; i < opt.nout; i++)
      if (opt.out_formats[i] == ATL_FORMAT_JSON) {
        snprintf(hint, sizeof hint, "to finish, run the same command with --resume %s", opt.out_paths[i]);
        break;
      }
    atl_result_set_release(&set);
    for (size_t d = 0; d < ndev; d++)
      atl_context_free(ctxs[d]);
    return cli_interrupted("rmw", rep.measured + rep.reused, n, hint);
  }
  if (failures)
    fprintf(stderr, "error: %d row%s failed or did not verify\n", failures, failures == 1 ? "" : "s");
  atl_result_set_release(&set);
  for (size_t d = 0; d < ndev; d++)
    atl_context_free(ctxs[d]);
  return failures || unwritten ? EXIT_MEASURE : EXIT_OK;
}
