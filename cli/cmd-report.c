/* atomlab report: a default characterization of one device, written into one
 * folder (report.md, a self-contained report.html, figures, data). The
 * library runs the steps (src/report/steps.c: rmw, strategy, app histogram,
 * plot as child processes of this same binary, so the report measures
 * exactly what a user running them by hand would); this file parses the
 * options and prints. The steps write into a new staging folder beside the
 * report folder; when the report is done its files replace the earlier
 * report's, as the folder's manifest names them, and nothing else there. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"


static const char usage[] =
    "usage: atomlab report [-o DIR] [--device ID] [--backend B] [--quick]\n"
    "       atomlab report --render DIR\n"
    "       atomlab report --compare DIR DIR... [-o FILE.md]\n\n"
    "Characterizes one device (the best one unless --device says) with defaults\n"
    "and writes everything into DIR:\n"
    "  report.md, report.html  device facts, the access-pattern table, fetch_add\n"
    "                          heatmaps for the four patterns, the strategy winners\n"
    "                          with bar charts (atomlab strategy), the u8 histogram\n"
    "                          table (atomlab app histogram) and a summary of the\n"
    "                          device's smem calibration table where there is one\n"
    "                          (~/.cache/atomlab/<device>/, else shipped) (report.html\n"
    "                          holds its figures inline: one file to share)\n"
    "  figures/                the images with their .dat and .gp files\n"
    "  data/                   rmw and strategy .json and .csv, histogram.json: the rows\n"
    "                          behind every number, and the log of each step\n"
    "A progress line per step goes to stderr; stdout gets a short summary and the\n"
    "path of report.md.\n\n"
    "  -o DIR         the report folder: new, empty or an earlier report's (its manifest,\n"
    "                 .atomlab-manifest, names the files atomlab wrote there: only those are\n"
    "                 replaced or removed once this run is done; until then the run is in\n"
    "                 DIR.staging-PID beside it); a symbolic link is followed  [atomlab-report]\n"
    "  --device ID    an id or row number from 'atomlab devices'  [best device]; all or a\n"
    "                 comma list: one report per device in DIR/<id> (one after another), and\n"
    "                 DIR/side-by-side.md (as --compare) of them\n"
    "  --backend B    @BACKENDS@  [any]\n"
    "  --quick        a 2x2 grid with fixed iterations: checks the pipeline in seconds\n"
    "  --render DIR   measure nothing: draw the figures of a report folder written\n"
    "                 where gnuplot was missing (a GPU machine) and write its\n"
    "                 report.md and report.html again from its data/\n"
    "  --compare      measure nothing: write the reports in the folders DIR... (2 to 8) side by\n"
    "                 side into -o FILE.md: device facts, the datasheets with every rate's ratio\n"
    "                 to the first report's, and each device's findings  [atomlab-compare.md]\n"
    "  --repeat N     measure the sweeps and strategies N times, pass after pass (1 to 10): each\n"
    "                 finding says whether it held in every pass  [1]\n"
    "  --describe     what the report shows (docs/design/metrics.md)\n\n"
    "Exit status: 0 written; 1 a step failed or a row did not verify (the report\n"
    "says which); 2 bad usage; 128+N stopped by signal N (SIGINT, SIGTERM): the\n"
    "running step is stopped too and writes what it completed, no further step\n"
    "starts, DIR stays as it was and stderr names the staging folder with the data.\n";

static void progress(void *arg, int step, int steps, const char *what)
{
  (void)arg;
  fprintf(stderr, "report: [%d/%d] %s\n", step, steps, what);
}

static void make_dir(const char *path)
{
  if (mkdir(path, 0777) != 0 && errno != EEXIST)
    die_usage("-o '%s': unable to create the folder (does its parent exist?)", path);
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
    die_usage("-o '%s' is not a folder", path);
}

/* A line the library tells: @p prefix (a string) before it, "error: " (a file it could not write) without one. */
static void print_line(void *prefix, const char *text)
{
  fputs(prefix ? (const char *)prefix : "error: ", stderr);
  atl_esc_terminal(stderr, text); /* the lines quote the files' names */
  fputc('\n', stderr);
}

/* `report --compare`: the report folders @p dirs side by side in the Markdown file @p out; an exit status. */
static int compare_reports(char **dirs, int ndirs, const char *out)
{
  if (ndirs < 2 || ndirs > ATL_REPORT_COMPARE_MAX)
    die_usage("--compare takes 2 to %d report folders, got %d", ATL_REPORT_COMPARE_MAX, ndirs);
  static struct atl_report_files read[ATL_REPORT_COMPARE_MAX]; /* the files it reads: -o may be none of them */
  for (int i = 0; i < ndirs; i++) {
    atl_report_files(dirs[i], &read[i]);
    const char *files[] = {read[i].json, read[i].d_json, read[i].s_json, read[i].h_json};
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++)
      cli_note_input("--compare", files[k]);
  }
  cli_check_output("-o", out);
  char why[5000];
  struct cli_buffer buf; /* every folder read first; then the safe way, with a rescue file */
  const int rc = atl_report_compare_write(cli_buffer_open(&buf), (const char *const *)dirs, (size_t)ndirs, why,
                                          sizeof why);
  if (rc == ATL_EINVAL)
    die_usage("--compare %s", why);
  if (rc != 0)
    die("%s", why);
  if (cli_buffer_write(&buf, out, "the comparison") != 0)
    return EXIT_MEASURE;
  printf("report: %s (%d reports side by side)\n", out, ndirs);
  return EXIT_OK;
}

/* The folder of a multi-device report and each device's folder in it: new, empty or atomlab's, before any
 * measuring; the folder locked. */
static void check_devices_folder(const char *dir, const char (*ids)[32], size_t n)
{
  char why[4800], sub[4200];
  struct atl_manifest m;
  if (atl_manifest_check(dir, dir, &m, why, sizeof why) != 0)
    die_usage("-o %s", why);
  atl_manifest_release(&m);
  for (size_t i = 0; i < n; i++) {
    atl_report_device_folder(dir, ids[i], sub, sizeof sub);
    if (atl_manifest_check(sub, sub, &m, why, sizeof why) != 0)
      die_usage("-o %s", why);
    atl_manifest_release(&m);
  }
  cli_claim_output("-o", dir, dir);
}

/*
 * `report --device all` or a list: one whole report per device, each in DIR/<device id> (":" as "-"),
 * one after another so that devices sharing a host do not disturb each other's numbers, then
 * DIR/side-by-side.md (report --compare of those folders) and DIR's manifest, which names them: the
 * files of an earlier report in DIR that this one does not write are removed. Each report is this
 * binary run again with one --device; their progress goes to the terminal. Returns the exit status.
 */
static int report_devices(const char *devices, const char *backend, const char *dir, int quick, const char *repeat)
{
  atl_context_t ctx = NULL;
  if (atl_context_new(&ctx))
    die("out of memory");
  char ids[ATL_MAX_DEVICES][32];
  size_t n = 0;
  if (atl_device_list_parse(ctx, devices, backend, ids, ATL_MAX_DEVICES, &n) != 0)
    die_usage("--device: %s", atl_errmsg(ctx));
  atl_context_free(ctx);
  check_devices_folder(dir, (const char(*)[32])ids, n);
  make_dir(dir);
  char why[5000], out[4300];
  /* the folder marked atomlab's (its manifest, empty for now) before the device reports fill it */
  if (atl_report_index(dir, NULL, 0, NULL, 0, why, sizeof why) != 0)
    die("%s", why);
  static char sub[ATL_MAX_DEVICES][4200];
  const char *dirs[ATL_MAX_DEVICES];
  size_t done = 0;
  const struct atl_report_run run = {atl_report_self(cli_argv0), quick, repeat, NULL, print_line, (void *)"report: "};
  int status = atl_report_devices(&run, (const char(*)[32])ids, n, backend, dir, sub, &done);
  for (size_t i = 0; i < done; i++)
    dirs[i] = sub[i];
  if (atl_stop_requested())
    return cli_interrupted("report", done, n, NULL);
  const char *side = "side-by-side.md";
  snprintf(out, sizeof out, "%s/%s", dir, side);
  if (done >= 2 && atl_report_compare(dirs, done, out, print_line, NULL, why, sizeof why) != 0) {
    fprintf(stderr, "error: %s\n", why);
    status = status ? status : EXIT_MEASURE;
  } else if (done >= 2)
    printf("report: %s (%zu reports side by side)\n", out, done);
  /* no device report done: the earlier report's files stay, as after an interrupted run */
  if (done && atl_report_index(dir, dirs, done, &side, done >= 2 && access(out, F_OK) == 0, why, sizeof why) != 0) {
    fprintf(stderr, "error: %s\n", why);
    status = status ? status : EXIT_MEASURE;
  }
  return status;
}

/* What the command prints when the report is written. */
static void print_summary(const struct atl_report_summary *sum, const char *shown, time_t started)
{
  printf("%s: %zu of %zu rows verified; fastest pattern at contention 1, padding 1: %s (%.3g Gop/s)\n", sum->device,
         sum->verified, sum->rows, sum->best_pattern[0] ? sum->best_pattern : "-", sum->best_gops);
  printf("report: %s/report.md (and report.html), in %lld s\n", shown, (long long)(time(NULL) - started));
}

/* --render DIR: the figures and documents of a report measured where gnuplot was missing. */
static int render(const char *dir)
{
  const struct atl_report_run run = {.self = atl_report_self(cli_argv0), .progress = progress, .notify = print_line};
  struct atl_report_outcome out;
  char why[1600];
  time_t started = time(NULL);
  cli_claim_output("--render", dir, dir); /* rewritten in place: not while a report writes it */
  const int err = atl_report_render(&run, dir, &out, why, sizeof why);
  if (err)
    die_usage(err == ATL_EINVAL ? "--render %s" : "-o %s", why);
  if (out.stopped) {
    fprintf(stderr, "error: report --render interrupted (signal %d): report.md and report.html were not written again\n",
            atl_stop_requested());
    return 128 + atl_stop_requested();
  }
  if (!out.written)
    return EXIT_MEASURE;
  print_summary(&out.summary, dir, started);
  return out.failed ? EXIT_MEASURE : EXIT_OK;
}

/* The line of a run stopped by a signal; the exit status. */
static int interrupted(const char *step, const char *staging, const char *shown)
{
  int sig = atl_stop_requested();
  fprintf(stderr,
          "error: report interrupted (signal %d) during %s: no further step was started; what was completed is in "
          "'%s' (data/, with each step's log); '%s' was left as it was\n",
          sig, step, staging, shown);
  return 128 + sig;
}

int cmd_report(int argc, char **argv)
{
  enum { O_DEVICE = 256, O_BACKEND, O_QUICK, O_RENDER, O_COMPARE, O_REPEAT };
  static const struct option longopts[] = {{"output", required_argument, NULL, 'o'},
                                           {"device", required_argument, NULL, O_DEVICE},
                                           {"backend", required_argument, NULL, O_BACKEND},
                                           {"quick", no_argument, NULL, O_QUICK},
                                           {"render", required_argument, NULL, O_RENDER},
                                           {"compare", no_argument, NULL, O_COMPARE},
                                           {"repeat", required_argument, NULL, O_REPEAT},
                                           {"help", no_argument, NULL, 'h'},
                                           {0}};
  const char *dir = NULL, *device = NULL, *backend = NULL, *render_dir = NULL;
  int quick = 0, compare = 0, c;
  char *repeat = NULL; /* --repeat N for the sweeps: findings say which differences held in every pass */
  cli_options_begin();
  while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
    cli_option_once(longopts, c, -1);
    switch (c) {
    case 'o':
      dir = optarg;
      break;
    case O_DEVICE:
      device = optarg;
      break;
    case O_BACKEND:
      backend = optarg;
      break;
    case O_QUICK:
      quick = 1;
      break;
    case O_RENDER:
      render_dir = optarg;
      break;
    case O_COMPARE:
      compare = 1;
      break;
    case O_REPEAT:
      cli_parse_count("--repeat", optarg, 10); /* checked here; the sweeps take the text */
      repeat = optarg;
      break;
    default:
      return cli_help_or_bad(c, usage, "report", argv);
    }
  }
  if (compare) {
    if (device || backend || quick || render_dir || repeat)
      die_usage("--compare measures nothing: it takes no --device, --backend, --quick, --repeat or --render");
    return compare_reports(argv + optind, argc - optind, dir ? dir : "atomlab-compare.md");
  }
  if (dir == NULL)
    dir = "atomlab-report";
  if (optind < argc)
    die_usage("unexpected argument '%s' for report (see 'atomlab report --help')", argv[optind]);
  /* SIGINT/SIGTERM: the running step gets the signal too (atl_spawn), writes what it completed, and
   * no further step starts. */
  cli_catch_stop_signals();
  if (render_dir) {
    if (device || backend || quick || repeat)
      die_usage("--render measures nothing: it takes no --device, --backend, --quick or --repeat");
    return render(render_dir);
  }
  if (device && atl_device_list_is_multi(device))
    return report_devices(device, backend, dir, quick, repeat);
  char target[4096], staging[4200];
  char why[4400];
  if (atl_report_target(dir, target, sizeof target, staging, sizeof staging, why, sizeof why) != 0)
    die_usage("-o %s", why);
  cli_claim_output("-o", target, dir); /* one report into one folder at a time */

  time_t started = time(NULL);
  atl_context_t ctx = cli_open_device(device, backend);
  const struct atl_device_info dev = *atl_device_current(ctx);
  atl_context_free(ctx);
  const struct atl_report_run run = {atl_report_self(cli_argv0), quick, repeat, progress, print_line, NULL};
  struct atl_report_outcome out;
  if (atl_report_measure(&run, &dev, staging, dir, &out, why, sizeof why) != 0)
    die("%s", why);
  if (out.stopped)
    return interrupted(out.stopped, staging, dir);
  if (out.no_rows)
    return out.no_rows == EXIT_USAGE ? EXIT_USAGE : EXIT_MEASURE;
  if (!out.written) {
    fprintf(stderr, "error: no report.md: what was measured is in '%s'; '%s' was left as it was\n", staging, dir);
    return EXIT_MEASURE;
  }
  char warning[4400];
  const int replaced = atl_report_replace(target, staging, dir, why, sizeof why, warning, sizeof warning);
  if (warning[0])
    fprintf(stderr, "warning: %s\n", warning);
  if (replaced != 0) {
    fprintf(stderr, "error: %s\n", why);
    return EXIT_MEASURE;
  }
  print_summary(&out.summary, dir, started);
  return out.failed ? EXIT_MEASURE : EXIT_OK;
}
