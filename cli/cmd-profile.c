/*
 * atomlab profile -- PROGRAM [ARGS]: runs a program under Nsight Compute (or
 * reads a saved export, --counters) and prints the diagnosis of every kernel
 * it launches. The library runs ncu (atl_ncu_profile_run) and diagnoses
 * (atl_diagnose: rows whose advice is data); this parses the options and
 * prints, the advice's words generated from the rows.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab/diagnose.h"
#include "atomlab/file.h"
#include "atomlab/l2model.h"
#include "cli.h"

static const char usage[] =
    "usage: atomlab profile [options] -- PROGRAM [ARGS...]\n"
    "       atomlab profile [options] --counters EXPORT.csv\n\n"
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
    "  --counters FILE        diagnose a saved ncu export (--page raw) instead of running a program\n"
    "  --sass FILE            the program's SASS (cuobjdump -sass): each kernel's float and CAS shares of its\n"
    "                         global atomics (--types, where given, overrides the float shares)\n"
    "  --diagnosis FILE       the diagnosis rows (kind diagnosis: verdict, strategy, call, speedup) as JSON or CSV\n"
    "  --table T.csv          the shared-memory calibration; without it, the one found for the profiled device\n"
    "                         (the user's cache $XDG_CACHE_HOME/atomlab/<slug>/, then the shipped data), else\n"
    "                         the shared-memory model is skipped (noted) and the L2 advice still given\n"
    "Without --l2-same and --l2-spread the profiled device's L2 calibration is looked up the same way\n"
    "(l2-same.csv, l2-spread.csv, l2-same-f32.csv, l2-cas-chain.csv).\n"
    "The diagnosis ends the output: for every launch its verdict and, for a bottleneck, the strategy, the\n"
    "atomlab call and its predicted speedup (\"floor\" where only a lower bound is known); the source is the\n"
    "NVTX range \"op@file:line\" open at the launch (ncu --nvtx; scripts/gpu/atl_nvtx.py names torch ops so).\n"

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

/* What profile was asked: the options besides the shared ones. */
struct profile_args {
  struct smem_opts opts;
  const char *ncu_given, *save, *kernel, *extra, *types, *counters, *sass, *diagnosis;
  const char *paths[ATL_L2_FILES];
  double table_bytes;
  int with_advice;
  char **program;
  int argc;
  char **argv; /* the command line the run's metadata records */
};

static void parse_args(int argc, char **argv, struct profile_args *a)
{
  /* O_FILE + k: the L2 model's calibration file k (atl_l2_calibration_file_names) */
  enum { O_NCU = 256, O_SAVE, O_KERNEL, O_TIMEOUT, O_ADVICE, O_EXTRA, O_TYPES, O_PRIVATE_TABLE, O_COUNTERS, O_SASS,
         O_DIAGNOSIS, O_FILE };
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
                                           {"counters", required_argument, NULL, O_COUNTERS},
                                           {"sass", required_argument, NULL, O_SASS},
                                           {"diagnosis", required_argument, NULL, O_DIAGNOSIS},
                                           {"help", no_argument, NULL, 'h'},
                                           {0}};
  int ch;
  cli_options_begin();
  while ((ch = getopt_long(argc, argv, "+:ho:", longopts, NULL)) != -1) {
    if (ch != SMEM_O_EXPECT) /* --expect accumulates: one expectation each */
      cli_option_once(longopts, ch, -1);
    if (smem_opts_parse(&a->opts, ch, optarg, "profile"))
      continue;
    if (ch >= O_FILE && ch < O_FILE + ATL_L2_FILES) {
      a->paths[ch - O_FILE] = optarg, cli_note_input("", optarg); /* an input: no output may be it */
      continue;
    }
    switch (ch) {
    case O_NCU: a->ncu_given = optarg; break;
    case O_SAVE: a->save = optarg; break;
    case O_KERNEL: a->kernel = optarg; break;
    case O_TIMEOUT: timeout_s = cli_parse_real("--timeout", optarg, 0, 7 * 86400); break;
    case O_TYPES: a->types = optarg, cli_note_input("", optarg); break;
    case O_COUNTERS: a->counters = optarg, cli_note_input("", optarg); break;
    case O_SASS: a->sass = optarg, cli_note_input("", optarg); break;
    case O_DIAGNOSIS: a->diagnosis = optarg; break;
    case O_PRIVATE_TABLE: a->table_bytes = cli_parse_real("--private-table", optarg, 0, 1 << 30); break;
    case O_ADVICE: a->with_advice = 1; break;
    case O_EXTRA:
      if (strspn(optarg, "abcdefghijklmnopqrstuvwxyz0123456789_.,") != strlen(optarg) || strlen(optarg) > 1000)
        die_usage("--extra-metrics '%s' is not allowed: ncu metric names (a-z, 0-9, _ and .), comma-separated", optarg);
      a->extra = optarg;
      break;
    case 'h':
      fputs(usage, stdout);
      fputs(smem_opts_help, stdout);
      exit(EXIT_OK);
    case ':': die_usage("option '%s' needs a value (see 'atomlab profile --help')", argv[optind - 1]);
    default: die_usage("unknown option '%s' for profile (see 'atomlab profile --help')", argv[optind - 1]);
    }
  }
  if (a->counters && optind < argc)
    die_usage("--counters: a saved export is diagnosed without running a program (drop the program or --counters)");
  if (!a->counters && optind >= argc)
    die_usage("profile needs a program to run: atomlab profile [options] -- PROGRAM [ARGS], or --counters FILE");
  a->program = argv + optind;
}

/* A whole input file, or exit 2 naming its option. */
static char *read_input(const char *option, const char *path)
{
  char *text = atl_file_read_text(path, (size_t)256 << 20);
  if (!text)
    die_usage("%s: '%s' cannot be read: a readable text file of at most 256 MiB", option, path);
  return text;
}

/* The diagnosis section: one line per launch, the advice's words made from each row's fields. */
static int print_diagnosis(const struct atl_diagnose_input *in, const struct atl_ncu_export *e, const char *path)
{
  struct atl_result_set rows = {0};
  char why[512], text[512];
  if (atl_diagnose_export(in, e, &rows, why, sizeof why) != 0) {
    fprintf(stderr, "error: the diagnosis: %s\n", why);
    return 1;
  }
  printf("\ndiagnosis:\n");
  if (rows.count && rows.rows[0].reason[0])
    printf("  note: %s\n", rows.rows[0].reason);
  for (size_t i = 0; i < rows.count; i++) {
    const struct atl_row *r = &rows.rows[i];
    printf("  %s %.60s: %s (%s U %.2f)", atl_row_config(r, "id"), atl_row_config(r, "kernel"),
           atl_row_config(r, "verdict"), atl_row_config(r, "model")[0] ? atl_row_config(r, "model") : "no model",
           atl_row_metric(r, strcmp(atl_row_config(r, "model"), "smem") == 0 ? "u_smem" : "u_l2", 0));
    if (atl_row_metric(r, "f32_share", 0) > 0)
      printf(", float adds %.0f%%", 100 * atl_row_metric(r, "f32_share", 0));
    atl_diagnosis_advice_text(r, text, sizeof text);
    printf("%s%s\n", text[0] ? ": " : "", text);
  }
  int failed = path && atl_write_file(path, atl_format_from_path(path, ATL_FORMAT_JSON), &rows) != 0;
  if (failed)
    fprintf(stderr, "error: --diagnosis %s could not be written\n", path);
  atl_result_set_release(&rows);
  return failed;
}

/* ncu's run of the program: its export's text into *text (owned by @p got), or the exit status to return. */
static int run_ncu(const struct profile_args *a, struct atl_ncu_profile_outcome *got, const char **text)
{
  char ncu[4096], why[512];
  if (atl_ncu_find(a->ncu_given, ncu, sizeof ncu) != 0)
    die("ncu (Nsight Compute CLI) not found%s%s: install Nsight Compute or pass --ncu PATH", a->ncu_given ? " at " : "",
        a->ncu_given ? a->ncu_given : "");
  const struct atl_ncu_profile run = {ncu, a->program, a->kernel, a->extra, timeout_s, notify, NULL};
  const int err = atl_ncu_profile_run(&run, got, why, sizeof why);
  if (got->warning[0]) /* ncu's temporary folder is gone, or said to be left */
    fprintf(stderr, "warning: %s\n", got->warning);
  if (err == ATL_EINTR || (err == ATL_EIO && got->during)) {
    int status = EXIT_MEASURE;
    if (err == ATL_EINTR)
      status = stopped(got);
    else
      print_failure(got);
    if (got->tail) /* what ncu said in the run that failed, or in the program's run that was stopped */
      fputs(got->tail, stderr);
    return status;
  }
  if (err)
    die("%s", why);
  *text = got->text;
  return -1;
}

/* The shared-memory table: --table, else the profiled device's (the product's lookup); 0 where none. */
static int load_table(struct profile_args *a, const struct atl_ncu_export *e, struct atl_smem_table *table)
{
  static char path[4096]; /* the found table's path names it in the report, as --table's would */
  char device[96];
  if (a->opts.table_path) {
    smem_table_load(a->opts.table_path, table);
    return 1;
  }
  atl_diagnose_device_of(e, device, sizeof device);
  if (device[0] && atl_diagnose_table_for(device, path, sizeof path) == 0) {
    char why[512];
    if (atl_smem_table_read_csv(path, table, why, sizeof why) == 0) {
      fprintf(stderr, "note: the shared-memory table of %s: %s\n", device, path);
      a->opts.table_path = path;
      return 1;
    }
  }
  return 0;
}

/* The shared-memory and L2 tables, then the diagnosis. Returns nonzero where a part failed. */
static int report(struct profile_args *a, const struct atl_ncu_export *e, const struct atl_l2_calibration *l2_cal)
{
  char why[512];
  struct atl_smem_table table;
  memset(&table, 0, sizeof table);
  const int have_table = load_table(a, e, &table);
  atl_context_t ctx = NULL;
  if (atl_context_new(&ctx))
    die("out of memory");
  struct atl_run_meta meta;
  atl_run_meta_init(&meta, ctx, a->argc + 1, a->argv - 1);
  int failures = 0;
  struct atl_ncu_report rep;
  if (have_table) {
    int err = atl_ncu_report_from_export(e, a->opts.settings.warps_per_sm, a->opts.settings.sm_count, &rep, why,
                                         sizeof why);
    /* an export without the device's SM count or warps: this machine's profiled device fills them (the counters'
     * own device attributes come first: ncu writes them for the device each launch ran on) */
    if (err && !a->counters && atl_smem_profile_device(ctx, &a->opts.settings, &meta.device) == 0)
      err = atl_ncu_report_from_export(e, a->opts.settings.warps_per_sm, a->opts.settings.sm_count, &rep, why,
                                       sizeof why);
    if (err)
      die("the counters could not be read: %s", why);
    failures = smem_report(&a->opts, &table, &rep, &meta, a->counters ? a->counters : "ncu (this run)", 0);
    atl_ncu_report_release(&rep);
  }
  char *sass = a->sass ? read_input("--sass", a->sass) : NULL;
  struct atl_l2_report l2 = {NULL, 0};
  if (atl_l2_report_from_export(e, &l2, why, sizeof why) == 0) {
    if (a->types && atl_l2_types_apply_file(&l2, a->types, why, sizeof why))
      die("--types %s", why);
    /* the diagnosis's own rule: the table and the diagnosis price every launch's float adds alike */
    atl_diagnose_float_shares(&l2, sass, a->types != NULL, a->paths[ATL_L2_FILE_SAME] ? l2_cal : NULL,
                              a->opts.settings.threshold);
    fputc('\n', stdout);
    failures |= atl_l2_write_table(stdout, a->paths[ATL_L2_FILE_SAME] ? l2_cal : NULL, &l2, a->opts.settings.threshold,
                                   0, a->with_advice) != 0;
    atl_l2_report_release(&l2);
  }
  char *types = a->types ? read_input("--types", a->types) : NULL;
  const struct atl_diagnose_input in = {NULL, a->counters ? a->counters : "ncu export", sass, types,
                                        have_table ? &table : NULL, &a->opts.settings,
                                        a->paths[ATL_L2_FILE_SAME] ? l2_cal : NULL};
  failures |= print_diagnosis(&in, e, a->diagnosis);
  free(sass);
  free(types);
  if (have_table)
    atl_smem_table_release(&table);
  atl_context_free(ctx);
  return failures;
}

/* Without --l2-same and --l2-spread: the profiled device's L2 calibration where the lookup finds one (the user's
 * cache, else beside the shipped table), read into @p cal; a file that cannot be read is said and left out. */
static void find_l2_calibration(struct profile_args *a, const struct atl_ncu_export *e, struct atl_l2_calibration *cal)
{
  static const struct { int which; const char *file; } files[] = {{ATL_L2_FILE_SAME, "l2-same.csv"},
      {ATL_L2_FILE_SPREAD, "l2-spread.csv"}, {ATL_L2_FILE_SAME_F32, "l2-same-f32.csv"},
      {ATL_L2_FILE_CAS_CHAIN, "l2-cas-chain.csv"}};
  static char found[4][4096];
  char device[96], why[512];
  if (a->paths[ATL_L2_FILE_SAME] || a->paths[ATL_L2_FILE_SPREAD] || atl_diagnose_device_of(e, device, sizeof device) ||
      atl_diagnose_l2_file_for(device, files[0].file, found[0], sizeof found[0]) ||
      atl_diagnose_l2_file_for(device, files[1].file, found[1], sizeof found[1]))
    return;
  const struct atl_l2_calibration before = *cal;
  for (int i = 0; i < 4; i++) {
    if (i >= 2 && (a->paths[files[i].which] || atl_diagnose_l2_file_for(device, files[i].file, found[i], sizeof found[i])))
      continue;
    struct atl_l2_calibration c = *cal;
    if (atl_l2_calibration_read_file(&c, (enum atl_l2_calibration_file)files[i].which, found[i], why, sizeof why)) {
      fprintf(stderr, "note: the L2 calibration %s of %s is left out: %s\n", found[i], device, why);
      if (i < 2) { /* the two go together */
        *cal = before;
        a->paths[ATL_L2_FILE_SAME] = a->paths[ATL_L2_FILE_SPREAD] = NULL;
        return;
      }
      continue;
    }
    *cal = c;
    a->paths[files[i].which] = found[i];
    fprintf(stderr, "note: the L2 calibration of %s: %s\n", device, found[i]);
  }
}

int cmd_profile(int argc, char **argv)
{
  struct profile_args a;
  memset(&a, 0, sizeof a);
  smem_opts_init(&a.opts);
  parse_args(argc, argv, &a);
  a.argc = argc;
  a.argv = argv;
  char why[512];
  if (a.diagnosis)
    cli_check_output("--diagnosis", a.diagnosis);
  if (a.save)
    cli_check_output("--save-counters", a.save); /* a folder or a missing parent: said now, not after ncu's run */
  if (a.opts.table_path) { /* a bad table said before ncu runs */
    struct atl_smem_table t;
    smem_table_load(a.opts.table_path, &t);
    atl_smem_table_release(&t);
  }
  const char *l2_same = a.paths[ATL_L2_FILE_SAME];
  if ((l2_same != NULL) != (a.paths[ATL_L2_FILE_SPREAD] != NULL))
    die_usage("--l2-same and --l2-spread go together: the L2 model's two calibration exports");
  struct atl_l2_calibration l2_cal = a.opts.dram; /* --dram: the shared options' */
  l2_cal.table_bytes = a.table_bytes;
  int which;
  if (atl_l2_calibration_read(&l2_cal, a.paths, &which, why, sizeof why))
    die_usage("--%s%s: %s", which < ATL_L2_FILE_DRAM ? "l2-" : "", atl_l2_calibration_file_names[which], why);
  struct atl_l2_report l2 = {NULL, 0}; /* --types read now (no launch to match yet): a bad file said before ncu runs */
  if (a.types && atl_l2_types_apply_file(&l2, a.types, why, sizeof why))
    die_usage("--types %s", why);
  free(a.sass ? read_input("--sass", a.sass) : NULL);
  char *saved = a.counters ? read_input("--counters", a.counters) : NULL;
  if (l2_same && a.opts.table_path) { /* the strategies that move element updates to shared memory pay its pass cost */
    struct atl_smem_table t;
    double s_cas;
    smem_table_load(a.opts.table_path, &t);
    if (atl_smem_pass_costs(&t, &l2_cal.s_pass, &s_cas, why, sizeof why))
      l2_cal.s_pass = 0;
    atl_smem_table_release(&t);
  }
  /* SIGINT/SIGTERM reach ncu and the program (atl_spawn), then the temporary folder goes */
  cli_catch_stop_signals();
  struct atl_ncu_profile_outcome got;
  memset(&got, 0, sizeof got);
  const char *text = saved;
  int status = saved ? -1 : run_ncu(&a, &got, &text);
  if (status < 0) {
    /* the safe way: a failed write keeps the old file and puts the export into a rescue file */
    int save_failed = a.save && cli_write_output(a.save, "ncu's counters", write_counters, text) != 0;
    /* the export parsed once: the device lookups, both models' tables and the diagnosis read it */
    struct atl_ncu_export *e;
    if (atl_ncu_export_parse(text, a.counters ? a.counters : "ncu export", &e, why, sizeof why) != 0)
      die("%s", why);
    find_l2_calibration(&a, e, &l2_cal);
    status = report(&a, e, &l2_cal) == 0 && !save_failed ? EXIT_OK : EXIT_MEASURE;
    atl_ncu_export_free(e);
  }
  free(saved);
  if (!saved)
    atl_ncu_profile_release(&got);
  return status;
}
