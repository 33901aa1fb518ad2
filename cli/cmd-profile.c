/*
 * atomlab profile -- PROGRAM [ARGS]: runs a program under Nsight Compute,
 * reads the counters of Table 1 (seed 002) for every kernel it launches and
 * prints the utilization of the shared-memory atomic unit with a verdict.
 * The library runs ncu (atl_ncu_profile_run) and models; this parses the
 * options and prints.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab/l2model.h"
#include "cli.h"

static const char usage[] =
    "usage: atomlab profile --table T.csv [options] -- PROGRAM [ARGS...]\n\n"
    "Runs PROGRAM under Nsight Compute (ncu --clock-control none), collects for every\n"
    "kernel the shared-memory atomic instructions (fetch-and-op and CAS), the atomic\n"
    "thread operations, the active cycles, the achieved occupancy and the duration,\n"
    "and prints the model's inputs n, e, c and the utilization U of the shared-memory\n"
    "atomic unit with a verdict (docs/design/model.md).\n\n"
    "  --ncu PATH             the ncu binary  [$NCU, ncu on PATH, /usr/local/cuda/bin/ncu]\n"
    "  --save-counters FILE   keep ncu's raw CSV export (for 'atomlab model util --counters')\n"
    "  --kernel REGEX         profile only kernels whose name matches (ncu --kernel-name regex:...)\n"
    "  --timeout S            seconds all ncu runs together may take before ncu and the\n"
    "                         program are stopped; 0: no limit  [1800]\n"
    "  --l2-same F, --l2-spread F, --same-f32 F, --cas-chain F, --types F, --private-table B  the L2\n"
    "                         atomic model's inputs (as 'atomlab model l2 --help' says: --same, --spread,\n"
    "                         ...); without the first two the L2 table's U is the input share alone\n"
    "  --advice               for every L2 atomic bottleneck, its access and the strategies for it,\n"
    "                         each with its predicted speedup (hot words; --dram sets the DRAM floor)\n"
    "  --extra-metrics LIST   more ncu metrics to collect into --save-counters (comma-separated)\n"

    "Where ncu offers the L2 counters (docs/design/model.md, \"Global (L2) atomics\"), the global atomics of\n"
    "every kernel are modelled too and printed after the shared-memory table.\n"
    "ncu's files go to a temporary folder in $TMPDIR (else /tmp), removed on every exit.\n"
    "Exit status: 0 ok; 1 ncu or the program failed or timed out, or an expectation\n"
    "was not met; 2 bad usage; 128+N stopped by signal N (SIGINT, SIGTERM): ncu and\n"
    "the program are stopped too.\n";

/* --timeout bounds the whole profile (every ncu run together), the way a user reads it. */
static double timeout_s = 1800;

/* After a run stopped by a signal or the timeout: the line that says so and the exit status. */
static int stopped(const struct atl_ncu_profile_outcome *out)
{
  if (out->signal) {
    fprintf(stderr, "error: profile interrupted (signal %d) during %s: ncu and the program were stopped; nothing was "
                    "written\n", out->signal, out->during);
    return 128 + out->signal;
  }
  fprintf(stderr, "error: ncu timed out after %g s (see --timeout) during %s: ncu and the program were stopped\n",
          timeout_s, out->during);
  return EXIT_MEASURE;
}

/* A run that failed: the line that says which, then the last of what ncu said. */
static void print_failure(const struct atl_ncu_profile_outcome *out)
{
  if (strcmp(out->during, "'ncu --import'") == 0)
    fprintf(stderr, "error: unable to export the counters (ncu --import ... --csv exit %d):\n", out->rc);
  else
    fprintf(stderr, "error: ncu or the program failed (exit %d)%s; ncu said:\n", out->rc,
            out->no_report ? ", no report was written" : "");
}

/* What the library tells while it runs ncu. */
static void notify(void *arg, enum atl_ncu_note kind, const char *text)
{
  (void)arg;
  fprintf(stderr, "%s: %s\n", kind == ATL_NCU_NOTE ? "note" : "profile", text);
}

/* Writes the text of ncu's export (cli_write_output's writer). */
static int write_counters(FILE *f, const void *text) { return fputs(text, f) < 0 ? ATL_EIO : 0; }

int cmd_profile(int argc, char **argv)
{
  /* O_FILE + k: the L2 model's calibration file k (atl_l2_calibration_file_names) */
  enum { O_NCU = 256, O_SAVE, O_KERNEL, O_TIMEOUT, O_ADVICE, O_EXTRA, O_TYPES, O_PRIVATE_TABLE, O_FILE };
  static const struct option longopts[] = {SMEM_LONGOPTS,
                                           {"ncu", required_argument, NULL, O_NCU},
                                           {"save-counters", required_argument, NULL, O_SAVE},
                                           {"kernel", required_argument, NULL, O_KERNEL},
                                           {"timeout", required_argument, NULL, O_TIMEOUT},
                                           {"l2-same", required_argument, NULL, O_FILE + ATL_L2_FILE_SAME},
                                           {"l2-spread", required_argument, NULL, O_FILE + ATL_L2_FILE_SPREAD},
                                           {"same-f32", required_argument, NULL, O_FILE + ATL_L2_FILE_SAME_F32},
                                           {"cas-chain", required_argument, NULL, O_FILE + ATL_L2_FILE_CAS_CHAIN},
                                           {"types", required_argument, NULL, O_TYPES},
                                           {"private-table", required_argument, NULL, O_PRIVATE_TABLE},
                                           {"advice", no_argument, NULL, O_ADVICE},
                                           {"extra-metrics", required_argument, NULL, O_EXTRA},
                                           {"help", no_argument, NULL, 'h'},
                                           {0}};
  struct smem_opts opts;
  smem_opts_init(&opts);
  const char *ncu_given = NULL, *save = NULL, *kernel = NULL, *extra = NULL, *types = NULL;
  const char *paths[ATL_L2_FILES] = {NULL};
  double table_bytes = 0;
  int with_advice = 0, ch;
  cli_options_begin();
  while ((ch = getopt_long(argc, argv, "+:ho:", longopts, NULL)) != -1) {
    if (ch != SMEM_O_EXPECT) /* --expect accumulates: one expectation each */
      cli_option_once(longopts, ch, -1);
    if (smem_opts_parse(&opts, ch, optarg, "profile"))
      continue;
    if (ch >= O_FILE && ch < O_FILE + ATL_L2_FILES) {
      paths[ch - O_FILE] = optarg, cli_note_input("", optarg); /* an input: no output may be it */
      continue;
    }
    switch (ch) {
    case O_NCU: ncu_given = optarg; break;
    case O_SAVE: save = optarg; break;
    case O_KERNEL: kernel = optarg; break;
    case O_TIMEOUT: timeout_s = cli_parse_real("--timeout", optarg, 0, 7 * 86400); break;
    case O_TYPES: types = optarg; break;
    case O_PRIVATE_TABLE: table_bytes = cli_parse_real("--private-table", optarg, 0, 1 << 30); break;
    case O_ADVICE: with_advice = 1; break;
    case O_EXTRA:
      if (strspn(optarg, "abcdefghijklmnopqrstuvwxyz0123456789_.,") != strlen(optarg) || strlen(optarg) > 1000)
        die_usage("--extra-metrics '%s' is not allowed: ncu metric names (a-z, 0-9, _ and .), comma-separated", optarg);
      extra = optarg;
      break;
    case 'h':
      fputs(usage, stdout);
      fputs(smem_opts_help, stdout);
      return EXIT_OK;
    case ':': die_usage("option '%s' needs a value (see 'atomlab profile --help')", argv[optind - 1]);
    default: die_usage("unknown option '%s' for profile (see 'atomlab profile --help')", argv[optind - 1]);
    }
  }
  if (optind >= argc)
    die_usage("profile needs a program to run: atomlab profile --table T.csv -- PROGRAM [ARGS]");
  char **program = argv + optind;
  char why[512];
  struct atl_smem_table table;
  smem_table_load(opts.table_path, &table);
  if (save)
    cli_check_output("--save-counters", save); /* a folder or a missing parent: said now, not after ncu's run */
  const char *l2_same = paths[ATL_L2_FILE_SAME];
  if ((l2_same != NULL) != (paths[ATL_L2_FILE_SPREAD] != NULL))
    die_usage("--l2-same and --l2-spread go together: the L2 model's two calibration exports");
  struct atl_l2_calibration l2_cal = opts.dram; /* --dram: the shared options' */
  l2_cal.table_bytes = table_bytes;
  int which;
  if (atl_l2_calibration_read(&l2_cal, paths, &which, why, sizeof why))
    die_usage("--%s%s: %s", which < ATL_L2_FILE_DRAM ? "l2-" : "", atl_l2_calibration_file_names[which], why);
  struct atl_l2_report l2 = {NULL, 0}; /* --types read now (no launch to match yet): a bad file said before ncu runs */
  if (types && atl_l2_types_apply_file(&l2, types, why, sizeof why))
    die_usage("--types %s", why);
  double s_cas; /* the strategies that move element updates to shared memory pay its pass cost */
  if (l2_same && atl_smem_pass_costs(&table, &l2_cal.s_pass, &s_cas, why, sizeof why))
    l2_cal.s_pass = 0;
  /* SIGINT/SIGTERM reach ncu and the program (atl_spawn), then the temporary folder goes */
  cli_catch_stop_signals();
  char ncu[4096];
  if (atl_ncu_find(ncu_given, ncu, sizeof ncu) != 0)
    die("ncu (Nsight Compute CLI) not found%s%s: install Nsight Compute or pass --ncu PATH", ncu_given ? " at " : "",
        ncu_given ? ncu_given : "");
  /* the device's SM count and warps per SM, from atomlab's own probe (fallbacks for the counters) */
  atl_context_t ctx = NULL;
  if (atl_context_new(&ctx))
    die("out of memory");
  struct atl_run_meta meta;
  atl_run_meta_init(&meta, ctx, argc + 1, argv - 1);
  atl_smem_profile_device(ctx, &opts.settings, &meta.device);
  const struct atl_ncu_profile run = {ncu, program, kernel, extra, timeout_s, notify, NULL};
  struct atl_ncu_profile_outcome got;
  const int err = atl_ncu_profile_run(&run, &got, why, sizeof why);
  int status = EXIT_MEASURE;
  if (got.warning[0]) /* ncu's temporary folder is gone, or said to be left */
    fprintf(stderr, "warning: %s\n", got.warning);
  if (err == ATL_EINTR || (err == ATL_EIO && got.during)) {
    status = err == ATL_EINTR ? stopped(&got) : (print_failure(&got), EXIT_MEASURE);
    if (got.tail) /* what ncu said in the run that failed, or in the program's run that was stopped */
      fputs(got.tail, stderr);
    goto out;
  }
  if (err)
    die("%s", why);
  const char *text = got.text;
  /* the safe way: a failed write keeps the old file and puts the export into a rescue file */
  int save_failed = save && cli_write_output(save, "ncu's counters", write_counters, text) != 0;
  struct atl_ncu_report rep;
  if (atl_ncu_parse_csv(text, "ncu export", opts.settings.warps_per_sm, opts.settings.sm_count, &rep, why,
                        sizeof why))
    die("the counters could not be read: %s", why);
  int failures = smem_report(&opts, &table, &rep, &meta, "ncu (this run)", 0);
  atl_ncu_report_release(&rep);
  if (atl_l2_read_csv(text, "ncu export", &l2, why, sizeof why) == 0) {
    if (types && atl_l2_types_apply_file(&l2, types, why, sizeof why))
      die("--types %s", why);
    fputc('\n', stdout);
    failures |= atl_l2_write_table(stdout, l2_same ? &l2_cal : NULL, &l2, opts.settings.threshold, 0, with_advice) != 0;
    atl_l2_report_release(&l2);
  } else {
    fprintf(stderr, "note: no L2 atomic model: %s\n", why);
  }
  status = failures == 0 && !save_failed ? EXIT_OK : EXIT_MEASURE;
out:
  atl_ncu_profile_release(&got);
  atl_smem_table_release(&table);
  atl_context_free(ctx);
  return status;
}
