/* atomlab model: the shared-memory atomic queuing model offline (seed 002). */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: atomlab model util --table T.csv --counters C.csv [options]\n"
    "       atomlab model query --table T.csv --n N --e E --c C [--result R]\n"
    "       atomlab model predict --table T.csv --counters C.csv [--runs R.csv] [--kernel K] [-o F.csv|F.md]\n"
    "       atomlab model case-summary DIR [--threshold X] [-o FILE]\n"
    "       atomlab model l2 --counters C.csv --same S.csv --spread D.csv  (global atomics: model l2 --help)\n"
    "       atomlab model swatomic FILE.json [--fit FIT.json] [--fit-grids LIST]  (seed 000: --help)\n\n"
    "util: the utilization of the shared-memory atomic unit per kernel, from a\n"
    "calibration table and an Nsight Compute CSV export (ncu --csv --page raw, or\n"
    "the details page; --print-units base is best). Table 2 of the model: N, n-hat,\n"
    "e, c, S(n-hat, e, c), B = N x S, U = B / T, and a verdict.\n\n"
    "query: T(n, e, c) and S = T / n from the table (linear interpolation for\n"
    "non-integral n, e, c).\n\n"
    "predict: per kernel, the busy time B = N x S predicted by the model against the\n"
    "kernel's measured duration (gpu__time_duration) in the same export, as CSV or a\n"
    "Markdown table with the error of the bottleneck kernels (docs/design/model.md). With\n"
    "--runs, the export is of 'atomlab hist-case -o R.csv' and each row's last launch\n"
    "is reported with its labels, modelled with its own result (used or unused).\n\n"
    "case-summary: whether the seed's histogram findings hold on this GPU, from the\n"
    "case-study files in DIR: predict.csv (model predict --runs -o),\n"
    "hist-case.csv (hist-case -o, without the profiler) and validate.csv (profile\n"
    "-o ... -- hist-case --validate); any may be missing. 'atomlab plot DIR' draws\n"
    "the figures.\n\n"
    "  --counters FILE   the ncu CSV export (util)\n"
    "  --n X --e X --c X the model's inputs (query)\n"
    "  --runs FILE       the case-study CSV of the profiled run (predict)\n"
    "  --kernel NAME     only kernels of this name (predict)  [all; smem_histogram with --runs]\n";

static int help(void)
{
  fputs(usage, stdout);
  fputs(smem_opts_help, stdout);
  return EXIT_OK;
}

/* model predict: the prediction of every kernel with --runs' rows (atl_smem_predict_file), CSV or Markdown. */
static int predict(const struct smem_opts *opts, const struct atl_smem_table *table, const struct atl_ncu_report *report,
                 const char *counters, const char *runs_path, const char *kernel)
{
  static const char *const input_opt[] = {"", "--kernel", "--runs", "--counters"};
  char why[1024];
  struct atl_smem_predict_set set;
  const int err = atl_smem_predict_file(table, &opts->settings, report, runs_path, kernel, &set, why, sizeof why);
  if (err && set.bad_input == ATL_SMEM_INPUT_RUNS)
    die_usage(err == ATL_EIO ? "--runs %s" : "--runs: %s", why); /* EIO's reason starts with the path */
  if (err == ATL_EINVAL && set.bad_input > 0 && set.bad_input <= ATL_SMEM_INPUT_COUNTERS)
    die_usage("%s: %s", input_opt[set.bad_input], why);
  if (err)
    die("model predict: %s", atl_strerror(err));
  struct cli_buffer buf;
  FILE *f = opts->out ? cli_buffer_open(&buf) : stdout;
  if (smem_format(opts) == ATL_FORMAT_CSV)
    atl_smem_predict_write_csv(f, &set);
  else
    atl_smem_predict_write_md(f, &set, opts->table_path, counters, runs_path);
  int status = EXIT_OK;
  if (opts->out && cli_buffer_write(&buf, opts->out, "the prediction table") != 0)
    status = EXIT_MEASURE;
  atl_smem_predict_set_release(&set);
  return status;
}

/* model case-summary DIR: the findings on stdout, or in -o's file. */
static int case_summary(const struct smem_opts *opts, int argc, char **argv)
{
  if (argc != 1)
    die_usage("model case-summary takes one folder, DIR (see 'atomlab model --help')");
  if (opts->table_path || opts->nexpect || opts->format >= 0)
    die_usage("--table, --expect and --format do not apply to model case-summary: it takes DIR, --threshold, -o");
  static const char *const read[] = {"predict.csv", "hist-case.csv", "validate.csv"}; /* what the study reads */
  static char inputs[3][4200];
  for (int i = 0; i < 3; i++) {
    snprintf(inputs[i], sizeof inputs[i], "%s/%s", argv[0], read[i]);
    cli_note_input("", inputs[i]);
  }
  struct atl_smem_case_study study;
  char why[1200];
  if (atl_smem_case_study_read(argv[0], &study, why, sizeof why))
    die_usage("%s", why);
  struct cli_buffer buf;
  int err = atl_smem_case_study_write_summary(opts->out ? cli_buffer_open(&buf) : stdout, &study,
                                              opts->settings.threshold);
  if (opts->out)
    err |= cli_buffer_write(&buf, opts->out, "the summary");
  atl_smem_case_study_release(&study);
  return err ? EXIT_MEASURE : EXIT_OK;
}

int cmd_model(int argc, char **argv)
{
  enum { O_COUNTERS = 256, O_N, O_E, O_C, O_RUNS, O_KERNEL };
  static const struct option longopts[] = {SMEM_LONGOPTS,
                                           {"counters", required_argument, NULL, O_COUNTERS},
                                           {"n", required_argument, NULL, O_N},
                                           {"e", required_argument, NULL, O_E},
                                           {"c", required_argument, NULL, O_C},
                                           {"runs", required_argument, NULL, O_RUNS},
                                           {"kernel", required_argument, NULL, O_KERNEL},
                                           {"help", no_argument, NULL, 'h'},
                                           {0}};
  if (argc < 2) /* a usage error like any other: one line, exit 2 (--help prints the usage) */
    die_usage("model needs a subcommand: allowed: util, query, predict, case-summary, l2, swatomic");
  const char *sub = argv[1];
  if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0)
    return help();
  if (strcmp(sub, "l2") == 0)
    return cmd_model_l2(argc - 1, argv + 1);
  if (strcmp(sub, "swatomic") == 0)
    return cmd_model_sw(argc - 1, argv + 1);
  if (strcmp(sub, "util") && strcmp(sub, "query") && strcmp(sub, "predict") && strcmp(sub, "case-summary"))
    die_usage("model: unknown subcommand '%s': allowed: util, query, predict, case-summary, l2, swatomic", sub);
  struct smem_opts opts;
  smem_opts_init(&opts);
  const char *counters = NULL, *runs = NULL, *kernel = NULL;
  double n = -1, e = -1, c = -1;
  int ch;
  cli_options_begin();
  argc--;
  argv++;
  while ((ch = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
    if (ch != SMEM_O_EXPECT) /* --expect accumulates: one expectation each */
      cli_option_once(longopts, ch, -1);
    if (smem_opts_parse(&opts, ch, optarg, "model"))
      continue;
    switch (ch) {
    case O_COUNTERS: counters = optarg, cli_note_input("--counters", optarg); break;
    case O_N: n = cli_parse_real("--n", optarg, 0, 1e6); break;
    case O_E: e = cli_parse_real("--e", optarg, 0, 1e6); break;
    case O_C: c = cli_parse_real("--c", optarg, 0, 1e6); break;
    case O_RUNS: runs = optarg, cli_note_input("--runs", optarg); break;
    case O_KERNEL:
      if (*optarg == '\0')
        die_usage("--kernel is empty: a kernel name");
      kernel = optarg;
      break;
    case 'h': return help();
    case ':': die_usage("option '%s' needs a value (see 'atomlab model --help')", argv[optind - 1]);
    default: die_usage("unknown option '%s' for model %s (see 'atomlab model --help')", argv[optind - 1], sub);
    }
  }
  if ((runs || kernel) && strcmp(sub, "predict") != 0)
    die_usage("%s applies to model predict only", runs ? "--runs" : "--kernel");
  if (strcmp(sub, "case-summary") == 0)
    return case_summary(&opts, argc - optind, argv + optind);
  if (optind < argc)
    die_usage("unexpected argument '%s' for model %s", argv[optind], sub);
  if (strcmp(sub, "predict") == 0 && opts.format != -1 && opts.format != ATL_FORMAT_CSV &&
      opts.format != ATL_FORMAT_TABLE)
    die_usage("--format for model predict is csv or table (Markdown)");
  if (strcmp(sub, "predict") == 0 && opts.nexpect)
    die_usage("--expect applies to model util and profile");
  struct atl_smem_table table;
  char why[512];
  if (strcmp(sub, "query") == 0) {
    if (n < 0 || e < 0 || c < 0)
      die_usage("model query needs --n, --e and --c");
    smem_table_load(opts.table_path, &table);
    const int err = atl_smem_query_write(stdout, &table, opts.settings.variant, n, e, c, why, sizeof why);
    atl_smem_table_release(&table);
    if (err)
      die_usage("model query: %s", why);
    return EXIT_OK;
  }
  if (counters == NULL)
    die_usage("--counters is required: an ncu CSV export (ncu --csv --page raw --metrics ...)");
  smem_table_load(opts.table_path, &table);
  struct atl_ncu_report report;
  int err = atl_ncu_read_csv(counters, opts.settings.warps_per_sm, opts.settings.sm_count, &report, why, sizeof why);
  if (err)
    die_usage(err == ATL_EIO ? "--counters %s" : "--counters: %s", why); /* EIO's reason starts with the path */
  int status;
  if (strcmp(sub, "predict") == 0) {
    status = predict(&opts, &table, &report, counters, runs, kernel);
  } else {
    atl_context_t ctx = NULL;
    if (atl_context_new(&ctx))
      die("out of memory");
    struct atl_run_meta meta;
    atl_run_meta_init(&meta, ctx, argc + 2, argv - 2); /* from "atomlab" on */
    status = smem_report(&opts, &table, &report, &meta, counters, 1) == 0 ? EXIT_OK : EXIT_MEASURE;
    atl_context_free(ctx);
  }
  atl_ncu_report_release(&report);
  atl_smem_table_release(&table);
  return status;
}
