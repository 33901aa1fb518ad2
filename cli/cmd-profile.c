/*
 * atomlab profile -- PROGRAM [ARGS]: runs a program under Nsight Compute,
 * reads the counters of Table 1 (seed 002) for every kernel it launches and
 * prints the utilization of the shared-memory atomic unit with a verdict.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "atomlab/l2model.h"
#include "cli.h"

static const char usage[] =
    "usage: atomlab profile --table T.csv [options] -- PROGRAM [ARGS...]\n\n"
    "Runs PROGRAM under Nsight Compute (ncu --clock-control none), collects for every\n"
    "kernel the shared-memory atomic instructions (fetch-and-op and CAS), the atomic\n"
    "thread operations, the active cycles, the achieved occupancy and the duration,\n"
    "and prints the model's inputs n, e, c and the utilization U of the shared-memory\n"
    "atomic unit with a verdict (docs/model.md).\n\n"
    "  --ncu PATH             the ncu binary  [$NCU, ncu on PATH, /usr/local/cuda/bin/ncu]\n"
    "  --save-counters FILE   keep ncu's raw CSV export (for 'atomlab model util --counters')\n"
    "  --kernel REGEX         profile only kernels whose name matches (ncu --kernel-name regex:...)\n"
    "  --timeout S            seconds all ncu runs together may take before ncu and the\n"
    "                         program are stopped; 0: no limit  [1800]\n"
    "  --l2-same F, --l2-spread F  the L2 atomic model's calibration exports (see 'atomlab model l2\n"
    "                         --help'); without them the L2 table's U is the input share alone\n"
    "  --advice               for every L2 atomic bottleneck, its access and the strategies for it,\n"
    "                         each with its predicted speedup (hot words; --dram sets the DRAM floor)\n"
    "  --extra-metrics LIST   more ncu metrics to collect into --save-counters (comma-separated)\n"
    "Where ncu offers the L2 counters (docs/model.md, \"Global (L2) atomics\"), the global atomics of\n"
    "every kernel are modelled too and printed after the shared-memory table.\n"
    "ncu's files go to a temporary folder in $TMPDIR (else /tmp), removed on every exit.\n"
    "Exit status: 0 ok; 1 ncu or the program failed or timed out, or an expectation\n"
    "was not met; 2 bad usage; 128+N stopped by signal N (SIGINT, SIGTERM): ncu and\n"
    "the program are stopped too.\n";

/* The first executable of: @p given, $NCU, PATH, the CUDA default. */
static int find_ncu(const char *given, char *path, size_t len)
{
  if (given) {
    snprintf(path, len, "%s", given);
    return access(path, X_OK);
  }
  const char *env = getenv("NCU");
  if (env && *env) {
    snprintf(path, len, "%s", env);
    return access(path, X_OK);
  }
  const char *p = getenv("PATH");
  while (p && *p) {
    const char *end = strchr(p, ':');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    snprintf(path, len, "%.*s/ncu", (int)n, p);
    if (n && access(path, X_OK) == 0)
      return 0;
    p = end ? end + 1 : NULL;
  }
  snprintf(path, len, "/usr/local/cuda/bin/ncu");
  return access(path, X_OK);
}

/* The temporary folder of ncu's files while it exists: removed on every way out, die() included (atexit). */
static char tmp_dir[4096];

static void remove_tmp_dir(void)
{
  if (tmp_dir[0] && atl_remove_tree(tmp_dir) != 0)
    fprintf(stderr, "warning: unable to remove the temporary folder '%s': %s\n", tmp_dir, strerror(errno));
  tmp_dir[0] = '\0';
}

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* --timeout bounds the whole profile (every ncu run together), the way a user reads it. */
static double timeout_s = 1800, deadline;

/* Runs argv, stdout to @p out_path (NULL: inherited), stderr to @p err_path (NULL: inherited), within
 * what is left of --timeout; as atl_spawn returns. */
static int run(char *const *argv, const char *out_path, const char *err_path)
{
  double left = timeout_s > 0 ? deadline - now_s() : 0;
  if (timeout_s > 0 && left <= 0)
    return ATL_SPAWN_TIMEOUT;
  return atl_spawn(argv[0], argv, &(struct atl_spawn_io){.out = out_path, .err = err_path, .timeout = left});
}

/* After a run stopped by a signal or the timeout: the line that says so and the exit status (0: neither). */
static int stopped(int rc, const char *what)
{
  int sig = atl_stop_requested();
  if (sig) {
    fprintf(stderr, "error: profile interrupted (signal %d) during %s: ncu and the program were stopped; nothing was "
                    "written\n", sig, what);
    return 128 + sig;
  }
  if (rc == ATL_SPAWN_TIMEOUT) {
    fprintf(stderr, "error: ncu timed out after %g s (see --timeout) during %s: ncu and the program were stopped\n",
            timeout_s, what);
    return EXIT_MEASURE;
  }
  return 0;
}

/* Writes the text of ncu's export (cli_write_output's writer). */
static int write_counters(FILE *f, const void *text) { return fputs(text, f) < 0 ? ATL_EIO : 0; }

static void print_tail(const char *path)
{
  char *text = cli_read_text(path, (size_t)1 << 24);
  if (text == NULL)
    return;
  size_t len = strlen(text);
  const char *start = len > 1500 ? text + len - 1500 : text;
  fprintf(stderr, "%s%s", start, len && text[len - 1] != '\n' ? "\n" : "");
  free(text);
}

/* The L2 model's calibration from one export (model l2's --same / --spread). */
static void l2_calibrate(const char *opt, const char *path, double s[ATL_L2_KINDS])
{
  struct atl_l2_report r;
  char why[600];
  if (atl_l2_read_file(path, &r, why, sizeof why) || atl_l2_cycles_per_request(&r, s, why, sizeof why))
    die_usage("%s: %s", opt, why);
  atl_l2_report_release(&r);
}

/* The L2 atomic model's counters (the library's list), appended to ncu's metric list where this ncu lists
 * them (all of them when the listing could not be read); the model says which are missing after the run. */
static void add_l2_metrics(const char *listing, char *metrics, size_t len)
{
  size_t n;
  const char *const *want = atl_l2_metric_names(&n);
  for (size_t i = 0; i < n; i++) {
    char base[64];
    snprintf(base, sizeof base, "%.*s", (int)strcspn(want[i], "."), want[i]);
    size_t used = strlen(metrics);
    if ((listing == NULL || atl_ncu_listed(listing, base)) && strstr(metrics, want[i]) == NULL &&
        used + strlen(want[i]) + 2 < len)
      snprintf(metrics + used, len - used, "%s%s", used ? "," : "", want[i]);
  }
}

int cmd_profile(int argc, char **argv)
{
  enum { O_NCU = 256, O_SAVE, O_KERNEL, O_TIMEOUT, O_L2_SAME, O_L2_SPREAD, O_ADVICE, O_EXTRA };
  static const struct option longopts[] = {SMEM_LONGOPTS,
                                           {"ncu", required_argument, NULL, O_NCU},
                                           {"save-counters", required_argument, NULL, O_SAVE},
                                           {"kernel", required_argument, NULL, O_KERNEL},
                                           {"timeout", required_argument, NULL, O_TIMEOUT},
                                           {"l2-same", required_argument, NULL, O_L2_SAME},
                                           {"l2-spread", required_argument, NULL, O_L2_SPREAD},
                                           {"advice", no_argument, NULL, O_ADVICE},
                                           {"extra-metrics", required_argument, NULL, O_EXTRA},
                                           {"help", no_argument, NULL, 'h'},
                                           {0}};
  struct smem_opts opts;
  smem_opts_init(&opts);
  const char *ncu_given = NULL, *save = NULL, *kernel = NULL, *l2_same = NULL, *l2_spread = NULL, *extra = NULL;
  int with_advice = 0;
  int ch;
  optind = 1;
  opterr = 0;
  while ((ch = getopt_long(argc, argv, "+:ho:", longopts, NULL)) != -1) {
    if (smem_opts_parse(&opts, ch, optarg, "profile"))
      continue;
    switch (ch) {
    case O_NCU: ncu_given = optarg; break;
    case O_SAVE: save = optarg; break;
    case O_KERNEL: kernel = optarg; break;
    case O_TIMEOUT: timeout_s = cli_parse_real("--timeout", optarg, 0, 7 * 86400); break;
    case O_L2_SAME: l2_same = optarg; break;
    case O_L2_SPREAD: l2_spread = optarg; break;
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
  if (opts.table_path == NULL)
    die_usage("--table is required: the CSV written by 'atomlab calibrate smem'");
  if (atl_smem_table_read_csv(opts.table_path, &table, why, sizeof why))
    die_usage("--table: %s", why);
  if (save)
    cli_check_output("--save-counters", save); /* a folder or a missing parent: said now, not after ncu's run */
  if ((l2_same != NULL) != (l2_spread != NULL))
    die_usage("--l2-same and --l2-spread go together: the L2 model's two calibration exports");
  struct atl_l2_calibration l2_cal = {.dram_share = opts.settings.dram_achievable,
                                      .dram_bytes_per_ns = opts.dram_bytes_per_ns};
  if (l2_same) {
    double s_cas;
    l2_calibrate("--l2-same", l2_same, l2_cal.s_same);
    l2_calibrate("--l2-spread", l2_spread, l2_cal.s_dist);
    /* the strategies that move element updates to shared memory pay its pass cost */
    if (atl_smem_pass_costs(&table, &l2_cal.s_pass, &s_cas, why, sizeof why))
      l2_cal.s_pass = 0;
  }
  /* SIGINT/SIGTERM reach ncu and the program (atl_spawn), then the temporary folder goes */
  cli_catch_stop_signals();
  char ncu[4096];
  if (find_ncu(ncu_given, ncu, sizeof ncu) != 0)
    die("ncu (Nsight Compute CLI) not found%s%s: install Nsight Compute or pass --ncu PATH", ncu_given ? " at " : "",
        ncu_given ? ncu_given : "");
  /* the device's SM count and warps per SM, from atomlab's own probe (fallbacks for the counters) */
  atl_context_t ctx = NULL;
  if (atl_context_new(&ctx))
    die("out of memory");
  struct atl_run_meta meta;
  cli_fill_meta(ctx, argc + 1, argv - 1, &meta);
  atl_smem_profile_device(ctx, &opts.settings, &meta.device);
  const char *tmp = getenv("TMPDIR");
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/atomlab-profile-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (mkdtemp(dir) == NULL)
    die("unable to create a temporary folder in '%s': %s", tmp && *tmp ? tmp : "/tmp", strerror(errno));
  snprintf(tmp_dir, sizeof tmp_dir, "%s", dir);
  atexit(remove_tmp_dir);
  deadline = now_s() + timeout_s;
  char query[4200], query_err[4200], report[4200], ncu_err[4200], csv[4200], import_err[4200];
  snprintf(query, sizeof query, "%s/query.txt", dir);
  snprintf(query_err, sizeof query_err, "%s/query.err", dir);
  snprintf(report, sizeof report, "%s/profile.ncu-rep", dir);
  snprintf(ncu_err, sizeof ncu_err, "%s/ncu.err", dir);
  snprintf(csv, sizeof csv, "%s/counters.csv", dir);
  snprintf(import_err, sizeof import_err, "%s/import.err", dir);
  /* which candidate metrics this ncu and GPU know: the first listed per quantity */
  char *qargv[] = {ncu, "--query-metrics", NULL};
  int rc = run(qargv, query, query_err);
  int status = stopped(rc, "'ncu --query-metrics'");
  char *listing = NULL, *text = NULL;
  if (status)
    goto out;
  listing = rc == 0 ? cli_read_text(query, (size_t)1 << 26) : NULL;
  if (listing && !atl_ncu_listed(listing, "sm__cycles_active")) {
    /* a listing that lacks even this basic metric is in a form we do not read: ask for the first candidates */
    fprintf(stderr, "note: 'ncu --query-metrics' lists no sm__cycles_active: asking for the first candidate metrics\n");
    free(listing);
    listing = NULL;
  }
  char metrics[4096];
  enum atl_ncu_quantity missing;
  int picked = atl_ncu_select_metrics(listing, metrics, sizeof metrics, &missing);
  if (picked != 0) {
    remove_tmp_dir();
    if (picked == ATL_ENOTSUP)
      die("ncu does not offer %s on this GPU (tried %s)", atl_ncu_quantity_name(missing),
          atl_ncu_candidates(missing)[0].name);
    die("the metric list for ncu is longer than %zu bytes", sizeof metrics);
  }
  if (rc != 0)
    fprintf(stderr, "note: 'ncu --query-metrics' failed (exit %d): asking for the first candidate metrics\n", rc);
  add_l2_metrics(listing, metrics, sizeof metrics);
  if (extra && strlen(metrics) + strlen(extra) + 2 < sizeof metrics)
    snprintf(metrics + strlen(metrics), sizeof metrics - strlen(metrics), ",%s", extra);
  char kernel_filter[600], report_base[4200];
  snprintf(kernel_filter, sizeof kernel_filter, "regex:%s", kernel ? kernel : "");
  snprintf(report_base, sizeof report_base, "%s/profile", dir);
  char *pargv[] = {ncu, "--clock-control", "none", "--metrics", metrics, "--force-overwrite", "-o", report_base,
                   "--kernel-name", kernel_filter, "--"};
  size_t np = sizeof pargv / sizeof *pargv, nprog = 0;
  if (!kernel) /* no filter: drop --kernel-name and its value, keep "--" */
    pargv[np - 3] = "--", np -= 2;
  while (program[nprog])
    nprog++;
  char **full = malloc((np + nprog + 1) * sizeof *full);
  if (full == NULL)
    die("out of memory");
  memcpy(full, pargv, np * sizeof *full);
  memcpy(full + np, program, (nprog + 1) * sizeof *full);
  fprintf(stderr, "profile: %s --clock-control none --metrics %s -- %s ...\n", ncu, metrics, program[0]);
  rc = run(full, NULL, ncu_err); /* the program's output stays on the terminal; ncu's notes go to a file */
  free(full);
  if ((status = stopped(rc, "ncu's run of the program")) != 0 || rc != 0 || access(report, R_OK) != 0) {
    if (!status)
      fprintf(stderr, "error: ncu or the program failed (exit %d)%s; ncu said:\n", rc,
              access(report, R_OK) ? ", no report was written" : "");
    print_tail(ncu_err);
    status = status ? status : EXIT_MEASURE;
    goto out;
  }
  char *iargv[] = {ncu, "--import", report, "--csv", "--page", "raw", "--print-units", "base", NULL};
  rc = run(iargv, csv, import_err);
  if ((status = stopped(rc, "'ncu --import'")) != 0)
    goto out;
  text = rc == 0 ? cli_read_text(csv, (size_t)1 << 28) : NULL;
  if (text == NULL) {
    fprintf(stderr, "error: unable to export the counters (ncu --import ... --csv exit %d):\n", rc);
    print_tail(import_err);
    status = EXIT_MEASURE;
    goto out;
  }
  /* the safe way: a failed write keeps the old file and puts the export into a rescue file */
  int save_failed = save && cli_write_output(save, "ncu's counters", write_counters, text) != 0;
  struct atl_ncu_report rep;
  if (atl_ncu_parse_csv(text, "ncu export", opts.settings.warps_per_sm, opts.settings.sm_count, &rep, why,
                        sizeof why)) {
    remove_tmp_dir();
    die("the counters could not be read: %s", why);
  }
  int failures = smem_report(&opts, &table, &rep, &meta, "ncu (this run)", 0);
  atl_ncu_report_release(&rep);
  struct atl_l2_report l2;
  if (atl_l2_read_csv(text, "ncu export", &l2, why, sizeof why) == 0) {
    fputc('\n', stdout);
    failures |= atl_l2_write_table(stdout, l2_same ? &l2_cal : NULL, &l2, opts.settings.threshold, 0, with_advice) != 0;
    atl_l2_report_release(&l2);
  } else {
    fprintf(stderr, "note: no L2 atomic model: %s\n", why);
  }
  status = failures == 0 && !save_failed ? EXIT_OK : EXIT_MEASURE;
out:
  free(listing);
  free(text);
  remove_tmp_dir();
  atl_smem_table_release(&table);
  atl_context_free(ctx);
  return status;
}
