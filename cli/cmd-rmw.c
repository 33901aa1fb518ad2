/* atomlab rmw: the contention x padding sweep of seed 003. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
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
    CLI_DEVICES_HELP
    "  --grid G       auto: on a GPU the fastest of 128, 256, 512 and 1024 work-items, each at its\n"
    "                 co-resident count, measured once at contiguous fetch_add c=1 p=1 (the file's \"grid\"\n"
    "                 records them); occupancy: 256 work-items at the co-resident count. CPU devices,\n"
    "                 --wg-size/--workgroups given and --resume take the occupancy or given shape  [auto]\n"
    "  --wg-size N    work-items per work-group  [chosen by --grid]\n"
    "  --workgroups N work-groups  [the co-resident count found by occupancy discovery]\n"
    CLI_MAX_ROWS_HELP "\n"
    CLI_TIMING_HELP
    "output:\n"
    CLI_OUTPUTS_HELP
    "  --describe     what each field of a row means and how it is measured\n"
    "  --resume FILE  reuse the rows FILE (an earlier JSON result on this device, timed with\n"
    "                 the same timing options) already holds and measure only the rest; a row\n"
    "                 that fails validation is measured again; write the whole set with -o\n"
    "  --drop-others  with --resume: leave out FILE's rows outside this sweep (by default\n"
    "                 they are kept, after this sweep's rows)\n\n"
    "With -o the files are rewritten every 30 s while the sweep runs (\"complete\": false),\n"
    "and SIGINT, SIGTERM or SIGHUP stops after the current row, writes every completed\n"
    "row and says how to resume; a second signal stops at once, writing the rows done.\n\n"
    "Exit status: 0 all rows verified or unsupported; 1 a row failed or did not verify\n"
    "(plain_add rows are expected not to verify and do not count); 2 bad usage.\n";


enum { O_PATTERN = 256, O_OP, O_TYPE, O_SPACE, O_RESULT, O_CONT, O_PAD, O_SCOPE, O_ORDER, O_RESUME, O_DROP_OTHERS, O_GRID };

/* What rmw's own options set (the shared ones go to struct cli_sweep_opts). */
struct rmw_args {
  struct atl_rmw_axes ax; /* the named axes as the library's registries spell them (atl_rmw_axes_set) */
  const char *cont_text, *pad_text, *resume_path;
  int types_explicit, drop_others, grid_mode;
};

static int rmw_option(void *state, int c, const char *name, const char *arg)
{
  struct rmw_args *a = state;
  char why[1600];
  switch (c) {
  case O_TYPE:
    a->types_explicit = !cli_list_has(arg, "all");
    /* fall through */
  case O_PATTERN:
  case O_OP:
  case O_SPACE:
  case O_RESULT:
  case O_SCOPE:
  case O_ORDER:
    if (atl_rmw_axes_set(&a->ax, name, arg, why, sizeof why) != 0)
      die_usage("--%s", why);
    return 1;
  case O_CONT:
    a->cont_text = arg;
    return 1;
  case O_PAD:
    a->pad_text = arg;
    return 1;
  case O_RESUME:
    a->resume_path = arg;
    return 1;
  case O_DROP_OTHERS:
    a->drop_others = 1;
    return 1;
  case O_GRID:
    if ((a->grid_mode = atl_grid_mode_parse(arg)) < 0)
      die_usage("--grid '%s' is not known: allowed: auto, occupancy", arg);
    return 1;
  default:
    return 0;
  }
}

int cmd_rmw(int argc, char **argv)
{
  const double command_start = atl_sweep_clock();
  static const struct option longopts[] = {
      {"pattern", required_argument, NULL, O_PATTERN}, {"op", required_argument, NULL, O_OP},
      {"type", required_argument, NULL, O_TYPE},       {"space", required_argument, NULL, O_SPACE},
      {"result", required_argument, NULL, O_RESULT},   {"contention", required_argument, NULL, O_CONT},
      {"padding", required_argument, NULL, O_PAD},     {"scope", required_argument, NULL, O_SCOPE},
      {"order", required_argument, NULL, O_ORDER},     {"resume", required_argument, NULL, O_RESUME},
      {"drop-others", no_argument, NULL, O_DROP_OTHERS}, {"grid", required_argument, NULL, O_GRID},
      CLI_SWEEP_LONGOPTS, {0}};
  struct rmw_args a = {.cont_text = "1:64:x4", .pad_text = "1,16", .grid_mode = ATL_GRID_AUTO};
  atl_rmw_axes_init(&a.ax);
  struct cli_sweep_opts opt; /* device, grid, timing and outputs: what every sweep command takes */
  if (cli_sweep_parse(argc, argv, longopts, usage, "rmw", &opt, rmw_option, &a))
    return EXIT_OK;
  struct atl_rmw_axes ax = a.ax;
  const char *resume_path = a.resume_path;
  char why[1600];

  ax.contention = cli_parse_axis("--contention", a.cont_text, UINT32_MAX);
  ax.padding = cli_parse_axis("--padding", a.pad_text, UINT32_MAX);
  const size_t total = atl_rmw_axes_rows(&ax);
  cli_sweep_plan(&opt, "rmw", total);
  if (a.drop_others && resume_path == NULL)
    die_usage("--drop-others is allowed only with --resume FILE");

  /* The resume file before the devices: a bad one is a usage error found before anything is set up. Then one
   * context a device, each given its grid and every configuration checked before any is measured. */
  struct atl_result_set done = {0};
  if (resume_path && atl_rmw_resume_open(resume_path, &opt.timing, &done, why, sizeof why))
    die_usage("--resume%s", why);
  atl_context_t ctxs[ATL_MAX_DEVICES];
  const size_t ndev = cli_open_devices(opt.device, opt.backend, ctxs, ATL_MAX_DEVICES);
  const int multi = atl_device_list_is_multi(opt.device); /* rows name their device, even where "all" is one */
  struct atl_result_set set;
  struct atl_spec *specs = cli_sweep_start(&set, "rmw", ctxs[0], &opt, argc, argv, total * ndev, sizeof *specs);
  const struct atl_rmw_plan plan = {&ax, a.types_explicit, a.grid_mode, opt.wg_size, opt.workgroups, &opt.timing,
                                    resume_path ? &done : NULL, multi};
  const int err = atl_rmw_plan_devices(ctxs, ndev, &plan, specs, &set.meta, why, sizeof why);
  if (err == ATL_EINVAL || err == ATL_ENOTSUP) /* ENOTSUP: the reason starts with the parameter's name */
    die_usage("%s%s", err == ATL_ENOTSUP ? "--" : "", why);
  if (err)
    die("%s (pass --workgroups to skip occupancy discovery)", why);
  atl_axis_release(&ax.contention);
  atl_axis_release(&ax.padding);

  /* The sweep (sweep.h): each configuration reuses the first row of its
   * configuration in the --resume file that passes atl_row_validate(); the
   * others are measured again (and said so), rows outside it kept or dropped. */
  const struct atl_sweep_job job = {ctxs, ndev, multi, atl_rmw_sweep_spec(specs, total),
                                    opt.nout ? !opt.quiet ? stdout : NULL : opt.format == ATL_FORMAT_TABLE ? stdout : NULL,
                                    isatty(STDERR_FILENO) ? stderr : NULL, atl_rmw_describe, opt.out_paths, opt.out_formats,
                                    opt.nout, cli_checkpoint_s(30), NULL, command_start};
  struct atl_sweep_outcome res;
  cli_catch_stop_signals();
  if (atl_sweep_command(&job, &opt.timing, resume_path ? &done : NULL, a.drop_others, &set, &res) != 0)
    die(multi ? "measuring on several devices failed: out of host memory" : "out of host memory while measuring");
  free(specs);
  const struct atl_sweep_report rep = res.report;
  if (rep.invalid) {
    char first[sizeof rep.first_invalid]; /* quotes the file's values: shown without their control characters */
    fprintf(stderr, "measuring again %zu row%s of %s that fail%s validation (first: %s)\n", rep.invalid,
            rep.invalid == 1 ? "" : "s", resume_path, rep.invalid == 1 ? "s" : "",
            atl_esc_terminal_str(first, sizeof first, rep.first_invalid));
  }
  if (rep.reused)
    fprintf(stderr, "reused %zu rows from %s\n", rep.reused, resume_path);
  if (rep.kept || rep.dropped)
    fprintf(stderr, "%s %zu rows of %s outside this sweep%s\n", rep.dropped ? "dropped" : "kept",
            rep.dropped ? rep.dropped : rep.kept, resume_path,
            rep.dropped ? " (--drop-others)" : " (after its rows; --drop-others leaves them out)");

  /* Every output holds the sweep's rows, then the rows kept from the resume file. */
  const int unwritten = cli_sweep_write(&opt, &set);
  if (!opt.quiet)
    fprintf(stderr, "%zu rows in %.1f s\n", set.count, set.meta.elapsed_s);
  const int complete = set.meta.complete; /* a signal during the last row stops nothing: the run is whole */
  atl_result_set_release(&done);
  atl_result_set_release(&set);
  for (size_t d = 0; d < ndev; d++)
    atl_context_free(ctxs[d]);
  if (atl_stop_requested() && !complete) {
    char hint[4200] = "with -o FILE.json a rerun could --resume from it";
    for (size_t i = 0; i < opt.nout; i++)
      if (opt.out_formats[i] == ATL_FORMAT_JSON) {
        char quoted[4100]; /* pasted into a shell, the name stays one argument */
        atl_shell_quote(opt.out_paths[i], quoted, sizeof quoted);
        snprintf(hint, sizeof hint, "to finish, run the same command with --resume %s", quoted);
        break;
      }
    return cli_interrupted("rmw", rep.measured + rep.reused, res.planned, hint);
  }
  cli_print_failures(res.failures);
  return res.failures || unwritten ? EXIT_MEASURE : EXIT_OK;
}
