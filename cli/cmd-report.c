/* atomlab report: a default characterization of one device, written into one
 * folder (report.md, a self-contained report.html, figures, data). It runs
 * the other commands (rmw, strategy, app histogram, plot) as child processes of this same binary, so
 * the report measures exactly what a user running them by hand would.
 * A report folder holds one run: the steps write into a new staging folder
 * beside it, which replaces the folder whole only when the report is done. */
#undef _POSIX_C_SOURCE
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#include <cjson/cJSON.h>

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
    "                          device's smem calibration table where\n"
    "                          results/<device>/[smem/]smem-table.csv exists (report.html\n"
    "                          holds its figures inline: one file to share)\n"
    "  figures/                the images with their .dat and .gp files\n"
    "  data/                   rmw and strategy .json and .csv, histogram.json: the rows\n"
    "                          behind every number, and the log of each step\n"
    "A progress line per step goes to stderr; stdout gets a short summary and the\n"
    "path of report.md.\n\n"
    "  -o DIR         the report folder: new, or an earlier report's, which is replaced\n"
    "                 whole once this one is done (until then the run is in\n"
    "                 DIR.staging-PID beside it)  [atomlab-report]\n"
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
    "  --describe     what the report shows (docs/metrics.md)\n\n"
    "Exit status: 0 written; 1 a step failed or a row did not verify (the report\n"
    "says which); 2 bad usage; 128+N stopped by signal N (SIGINT, SIGTERM): the\n"
    "running step is stopped too and writes what it completed, no further step\n"
    "starts, DIR stays as it was and stderr names the staging folder with the data.\n";

/* Runs this binary with @p args inside the report folder @p dir (the steps name their files relative
 * to it, as the commands they record in their files say); stdout and stderr go to @p log (relative to
 * @p dir too). A stop request reaches the step (atl_spawn). As atl_spawn returns. */
static int run_self(char *const *args, const char *dir, const char *log)
{
  /* argv[0] where it names a path (it stays right under valgrind, where /proc/self/exe is the tool),
   * made absolute: the step runs in another folder */
  static char self[4096];
  if (self[0] == '\0') {
    char *abs = strchr(cli_argv0, '/') ? realpath(cli_argv0, NULL) : NULL;
    snprintf(self, sizeof self, "%s", abs && strlen(abs) < sizeof self ? abs : "/proc/self/exe");
    free(abs);
  }
  return atl_spawn(self, args, &(struct atl_spawn_io){.dir = dir, .out = log, .err = log, .append = 1});
}

static void progress(int step, int steps, const char *what)
{
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

/* A line the library tells (a file it could not write). */
static void print_error(void *arg, const char *text)
{
  (void)arg;
  fprintf(stderr, "error: %s\n", text);
}

/*
 * `report --device all` or a list: one whole report per device, each in DIR/<device id> (":" as "-"),
 * one after another so that devices sharing a host do not disturb each other's numbers, then
 * DIR/side-by-side.md (report --compare of those folders). Each report is this binary run again with
 * one --device; their progress goes to the terminal. Returns the exit status.
 */
static int compare_reports(char **dirs, int ndirs, const char *out);

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
  make_dir(dir);
  static char sub[ATL_MAX_DEVICES][4200];
  char *dirs[ATL_MAX_DEVICES];
  int status = EXIT_OK, done = 0;
  for (size_t i = 0; i < n && !atl_stop_requested(); i++) {
    char folder[32];
    snprintf(folder, sizeof folder, "%s", ids[i]);
    for (char *c = folder; *c; c++)
      if (*c == ':' || *c == '/')
        *c = '-';
    snprintf(sub[i], sizeof sub[i], "%s/%s", dir, folder);
    fprintf(stderr, "report: device %zu of %zu: %s into %s\n", i + 1, n, ids[i], sub[i]);
    char *args[12] = {"atomlab", "report", "-o", sub[i], "--device", ids[i]};
    int na = 6;
    if (backend)
      args[na++] = "--backend", args[na++] = (char *)backend;
    if (quick)
      args[na++] = "--quick";
    if (repeat)
      args[na++] = "--repeat", args[na++] = (char *)repeat;
    args[na] = NULL;
    const int rc = run_self(args, ".", NULL);
    if (rc != 0)
      status = rc == EXIT_USAGE ? EXIT_USAGE : rc > 128 ? rc : EXIT_MEASURE;
    if (rc == 0 || rc == EXIT_MEASURE) /* a report with a failed row is still a report */
      dirs[done++] = sub[i];
  }
  if (atl_stop_requested())
    return cli_interrupted("report", (size_t)done, n, NULL);
  if (done >= 2) {
    char out[4300];
    snprintf(out, sizeof out, "%s/side-by-side.md", dir);
    if (compare_reports(dirs, done, out) != EXIT_OK && status == EXIT_OK)
      status = EXIT_MEASURE;
  }
  return status;
}

/* `report --compare`: the report folders @p dirs side by side in the Markdown file @p out; an exit status. */
static int compare_reports(char **dirs, int ndirs, const char *out)
{
  if (ndirs < 2 || ndirs > ATL_REPORT_COMPARE_MAX)
    die_usage("--compare takes 2 to %d report folders, got %d", ATL_REPORT_COMPARE_MAX, ndirs);
  cli_check_output("-o", out);
  char why[5000];
  int rc = atl_report_compare((const char *const *)dirs, (size_t)ndirs, out, print_error, NULL, why, sizeof why);
  if (rc == ATL_EINVAL)
    die_usage("--compare %s", why);
  if (rc != 0)
    die("%s", why);
  printf("report: %s (%d reports side by side)\n", out, ndirs);
  return EXIT_OK;
}

/* Whether a result file has a measured row: a backend without strategy kernels (Vulkan) answers every
 * strategy row `unsupported`, and a chart of nothing is no figure, not a failed step. */
static int any_row_ok(const char *path)
{
  struct atl_result_set set;
  char why[300];
  if (atl_read_json(path, &set, why, sizeof why) != 0)
    return 1; /* unreadable: let the plot say why */
  int ok = 0;
  for (size_t i = 0; i < set.count && !ok; i++)
    ok = set.rows[i].status == ATL_STATUS_OK;
  atl_result_set_release(&set);
  return ok;
}

/* Steps 4 and 5 in the report folder @p dir (@p f: its files; @p shown: its name in messages): the figures
 * (atomlab plot) of the sweep and the strategies, then report.md and report.html into @p sum (@p s_args,
 * @p h_args: the strategy and histogram settings the text names). Returns 1 if a step failed or a row did
 * not verify, 0 if not, -1 if the documents were not written (a stop request; an "error:" line otherwise). */
static int draw_and_write(const char *dir, const char *shown, const struct atl_report_files *f, const char *device_slug,
                          const char *s_args, const char *h_args, int cuda, int steps, struct atl_report_summary *sum)
{
  struct atl_report_files rel; /* as the steps, running in @p dir, and the documents name them */
  atl_report_files(NULL, &rel);
  /* the documents name the logs relative to the folder: right wherever it goes (staging, DIR, a mail) */
  struct atl_report_inputs x = {.strategy_json = f->s_json,
                           .strategy_log = rel.s_log,
                           .strategy_args = s_args,
                           .hist_json = f->h_json,
                           .hist_log = rel.h_log,
                           .hist_args = h_args,
                           .figures = f->figures,
                           .datasheet_rmw = f->d_json,
                           .cuda = cuda,
                           .notify = print_error};
  int failed = 0, rc;
  char log[4300];
  const char *rel_log = "data/plot.log";
  snprintf(log, sizeof log, "%s/%s", dir, rel_log);
  unlink(log);
  char *plot_args[] = {"atomlab", "plot", rel.json, "-o", rel.figures, "--format", "both", NULL};
  rc = run_self(plot_args, dir, rel_log);
  if (atl_stop_requested())
    return -1;
  if (rc != 0) {
    fprintf(stderr, "error: plot exited %d (see %s/%s)\n", rc, shown, rel_log);
    failed = 1;
  }
  if (access(f->s_json, R_OK) == 0 && any_row_ok(f->s_json)) {
    plot_args[2] = rel.s_json;
    rc = run_self(plot_args, dir, rel_log);
    if (atl_stop_requested())
      return -1;
    if (rc != 0) {
      fprintf(stderr, "error: plot of the strategies exited %d (see %s/%s)\n", rc, shown, rel_log);
      failed = 1;
    }
  }

  progress(6, steps, "report.md and report.html");
  /* Where `atomlab calibrate smem` writes by default, else where the
   * committed reference runs keep it (relative to the current folder). */
  char smem_table[400];
  snprintf(smem_table, sizeof smem_table, "results/%s/smem-table.csv", device_slug);
  if (access(smem_table, R_OK) != 0)
    snprintf(smem_table, sizeof smem_table, "results/%s/smem/smem-table.csv", device_slug);
  x.smem_table = smem_table;
  char why[1200];
  if (atl_report_write(dir, f->json, f->figures, rel_log, &x, sum, why, sizeof why) != 0) {
    fprintf(stderr, "error: %s\n", why);
    return -1;
  }
  return failed || sum->verified < sum->rows;
}

/* What the command prints when the report is written. */
static void print_summary(const struct atl_report_summary *sum, const char *shown, time_t started)
{
  printf("%s: %zu of %zu rows verified; fastest pattern at contention 1, padding 1: %s (%.3g Gop/s)\n", sum->device,
         sum->verified, sum->rows, sum->best_pattern[0] ? sum->best_pattern : "-", sum->best_gops);
  printf("report: %s/report.md (and report.html), in %lld s\n", shown, (long long)(time(NULL) - started));
}

/* The `command` a step recorded in its JSON (the settings the report text names), or @p fallback. */
static void recorded_command(const char *path, char *out, size_t len, const char *fallback)
{
  struct atl_result_set set;
  char why[1200];
  const int read = atl_read_json(path, &set, why, sizeof why) == 0;
  const char *text = read && set.meta.command[0] ? set.meta.command : fallback;
  size_t n = strnlen(text, len - 1); /* a long command is cut, as the report shows it */
  memcpy(out, text, n);
  out[n] = '\0';
  if (read)
    atl_result_set_release(&set);
}

/* --render DIR: the figures and documents of a report measured where gnuplot was missing. */
static int render(const char *dir)
{
  struct atl_report_files f;
  struct atl_result_set rmw;
  char why[1200];
  atl_report_files(dir, &f);
  if (atl_read_json(f.json, &rmw, why, sizeof why) != 0)
    die_usage("--render '%s': no readable data/rmw.json there, so not a report folder (%s)", dir, why);
  struct atl_device_info info = rmw.meta.device;
  /* A recorded file carries the backend's name, not the device's capabilities:
   * the calibration (has_sm_clock) runs on CUDA devices, so the name stands for it. */
  const int cuda = strcmp(info.backend, "cuda") == 0;
  atl_result_set_release(&rmw);
  char device_slug[160], s_args[300], h_args[300];
  atl_device_slug(&info, device_slug, sizeof device_slug);
  recorded_command(f.s_json, s_args, sizeof s_args, "(settings not recorded)");
  recorded_command(f.h_json, h_args, sizeof h_args, "(settings not recorded)");
  make_dir(f.figures);
  time_t started = time(NULL);
  progress(4, 5, "figures (atomlab plot): heatmaps and strategy bar charts (--render: nothing measured)");
  struct atl_report_summary sum;
  int rc = draw_and_write(dir, dir, &f, device_slug, s_args, h_args, cuda, 5, &sum);
  if (rc < 0 && atl_stop_requested()) {
    fprintf(stderr, "error: report --render interrupted (signal %d): report.md and report.html were not written again\n",
            atl_stop_requested());
    return 128 + atl_stop_requested();
  }
  if (rc < 0)
    return EXIT_MEASURE;
  print_summary(&sum, dir, started);
  return rc ? EXIT_MEASURE : EXIT_OK;
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

/* Ends a timed step's argv at @p n: the timing every sweep of the report shares (quick: fixed iterations),
 * --repeat where asked, then the NULL. */
static void end_args(char **args, int n, int quick, char *repeat)
{
  static char *timing_quick[] = {"--iters", "20", "--min-samples", "3", "--max-samples", "3"};
  static char *timing_full[] = {"--target-ms", "10", "--budget", "0.5", "--max-samples", "20"};
  for (size_t i = 0; i < 6; i++)
    args[n++] = quick ? timing_quick[i] : timing_full[i];
  if (repeat) {
    args[n++] = "--repeat";
    args[n++] = repeat;
  }
  args[n] = NULL;
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
  optind = 1;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
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
    case 'h':
      cli_print_usage(usage);
      return EXIT_OK;
    default:
      cli_bad_option("report", "report", c, argv);
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
  /* The steps run inside the report folder: a relative ATL_GNUPLOT would name another file there. */
  const char *gp = getenv("ATL_GNUPLOT");
  char *gp_abs = gp && gp[0] && gp[0] != '/' ? realpath(gp, NULL) : NULL;
  if (gp_abs)
    setenv("ATL_GNUPLOT", gp_abs, 1);
  free(gp_abs);
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

  /* The device decides the grid: GPUs get the seed's range, CPUs a smaller one (5 minutes on 2 cores). */
  time_t started = time(NULL);
  atl_context_t ctx = cli_open_device(device, backend);
  const struct atl_device_info *dev = atl_device_current(ctx);
  int gpu = dev->type == ATL_DEVICE_GPU;
  int cuda = dev->has_sm_clock;
  char device_id[128], device_slug[160];
  snprintf(device_id, sizeof device_id, "%s", dev->id);
  atl_device_slug(dev, device_slug, sizeof device_slug);
  const unsigned compute_units = dev->compute_units;
  atl_context_free(ctx);

  /* A new folder (never an earlier run's): the one with the same PID would be a crash's leftover. */
  if (mkdir(staging, 0777) != 0)
    die("unable to create the staging folder '%s': %s", staging, strerror(errno));
  struct atl_report_files f, rel; /* as this process names the files; as the steps, running in staging, do */
  atl_report_files(staging, &f);
  atl_report_files(NULL, &rel);
  if (mkdir(f.data, 0777) != 0 || mkdir(f.figures, 0777) != 0)
    die("unable to create '%s' and '%s': %s", f.data, f.figures, strerror(errno));
  char *json = rel.json, *csv = rel.csv, *s_json = rel.s_json, *s_csv = rel.s_csv, *h_json = rel.h_json;

  const int steps = 6;
  int failed = 0;
  const char *grid = quick ? "1,4" : gpu ? "1:1024:x4" : "1:64:x2";
  char what[400];
  snprintf(what, sizeof what, "fetch_add, four patterns, contention and padding %s on %s", grid, device_id);
  progress(1, steps, what);
  const char *log = "data/rmw.log";
  char *args[40]; /* the argv of each child step */
  int n = 0;
  char *fixed[] = {"atomlab",      "rmw",        "--pattern", "all",        "--op",     "fetch_add",
                   "--contention", (char *)grid, "--padding", (char *)grid, "--device", device_id,
                   "-o",           json,         "-o",        csv,          "--quiet"};
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    args[n++] = fixed[i];
  end_args(args, n, quick, repeat);
  int rc = run_self(args, staging, log);
  if (atl_stop_requested())
    return interrupted("the sweep (step 1 of 6)", staging, dir);
  if (rc != 0) {
    if (access(f.json, R_OK) != 0) {
      fprintf(stderr, "error: the sweep exited %d and wrote no rows: no report; its log is '%s/%s' ('%s' was left as it was)\n",
              rc, staging, log, dir);
      return rc == EXIT_USAGE ? EXIT_USAGE : EXIT_MEASURE;
    }
    fprintf(stderr, "error: the sweep exited %d (see %s/%s)\n", rc, dir, log);
    failed = 1; /* rows that did not verify: the report still shows them, flagged */
  }

  /* The datasheet: every common op on u32 and u64 in global and local memory, result unused and used, at one
   * thread per word and at the grid's most threads per word (contiguous, padding 1); the report turns the
   * rows into data/datasheet.json and .csv (atl_datasheet). */
  const char *d_cont = quick ? "1,4" : gpu ? "1,1024" : "1,64";
  snprintf(what, sizeof what, "datasheet: fetch_add, exchange, cas, fetch_min, and, inc on u32 and u64, global and "
           "local, result unused and used, contention %s", d_cont);
  progress(2, steps, what);
  n = 0;
  char *d_fixed[] = {"atomlab",  "rmw",     "--pattern", "contiguous", "--op",
                     quick ? "fetch_add,cas" : "fetch_add,exchange,cas,fetch_min,and,inc",
                     "--type",   quick ? "u32" : "u32,u64", "--space", "global,local", "--result", "unused,used",
                     "--contention", (char *)d_cont, "--padding", "1", "--device", device_id, "-o", rel.d_json,
                     "--quiet"};
  for (size_t i = 0; i < sizeof d_fixed / sizeof d_fixed[0]; i++)
    args[n++] = d_fixed[i];
  end_args(args, n, quick, repeat);
  rc = run_self(args, staging, rel.d_log);
  if (atl_stop_requested())
    return interrupted("the datasheet (step 2 of 6)", staging, dir);
  if (rc != 0) {
    fprintf(stderr, "error: the datasheet sweep exited %d (see %s/%s)\n", rc, dir, rel.d_log);
    failed = 1;
  }

  /* Strategies: every strategy on the three patterns, fetch_add with the result used (the case the
   * aggregating strategies must get right). CPUs get 2 work-groups: PoCL runs them on 2 cores anyway.
   * GPUs get 2 per compute unit: at full occupancy one launch of a lock strategy on one address takes
   * seconds (every lock serialized), which no report budget holds. */
  char s_args[300];
  char gpu_groups[32];
  snprintf(gpu_groups, sizeof gpu_groups, "%u", 2 * compute_units);
  const char *s_groups = gpu ? gpu_groups : "2";
  snprintf(s_args, sizeof s_args, "--pattern all --op fetch_add --result used --strategy all%s%s, %s",
           s_groups ? " --workgroups " : "", s_groups ? s_groups : "",
           quick ? "20 fixed iterations, 3 samples" : "calibrated to 10 ms, at most 0.5 s and 20 samples per row");
  snprintf(what, sizeof what, "strategies: %s", s_args);
  progress(3, steps, what);
  n = 0;
  char *s_fixed[] = {"atomlab", "strategy", "--pattern", "all",    "--op", "fetch_add", "--result", "used",
                     "--strategy", "all",   "--device",  device_id, "-o",  s_json,      "-o",       s_csv,
                     "--quiet"};
  for (size_t i = 0; i < sizeof s_fixed / sizeof s_fixed[0]; i++)
    args[n++] = s_fixed[i];
  if (s_groups) {
    args[n++] = "--workgroups";
    args[n++] = (char *)s_groups;
  }
  end_args(args, n, quick, repeat);
  rc = run_self(args, staging, rel.s_log);
  if (atl_stop_requested())
    return interrupted("the strategies (step 3 of 6)", staging, dir);
  if (rc != 0) {
    fprintf(stderr, "error: strategy exited %d (see %s/%s)\n", rc, dir, rel.s_log);
    failed = 1;
  }

  /* Histogram: u8 keys in every distribution; the app's own size (1 GiB on GPUs) except on CPUs. */
  char h_args[200]; /* app takes one -o: JSON only */
  /* GPUs: 256 MiB, five times an H100's L2 (memory-bound like 1 GiB, in a quarter of the time) */
  const char *h_bytes = quick ? "65536" : gpu ? "268435456" : "1048576";
  snprintf(h_args, sizeof h_args, "--input u8 --dist all%s%s%s", h_bytes ? " --bytes " : "", h_bytes ? h_bytes : "",
           quick ? " --samples 3" : "");
  snprintf(what, sizeof what, "histogram: %s", h_args);
  progress(4, steps, what);
  n = 0;
  char *h_fixed[] = {"atomlab", "app", "histogram", "--input", "u8",   "--dist", "all",  "--device",
                     device_id, "-o",  h_json,      "--quiet"};
  for (size_t i = 0; i < sizeof h_fixed / sizeof h_fixed[0]; i++)
    args[n++] = h_fixed[i];
  if (h_bytes) {
    args[n++] = "--bytes";
    args[n++] = (char *)h_bytes;
  }
  if (quick) {
    args[n++] = "--samples";
    args[n++] = "3";
  }
  args[n] = NULL;
  rc = run_self(args, staging, rel.h_log);
  if (atl_stop_requested())
    return interrupted("the histogram (step 4 of 6)", staging, dir);
  if (rc != 0) {
    fprintf(stderr, "error: app histogram exited %d (see %s/%s)\n", rc, dir, rel.h_log);
    failed = 1;
  }

  progress(5, steps, "figures (atomlab plot): heatmaps and strategy bar charts");
  struct atl_report_summary sum;
  rc = draw_and_write(staging, dir, &f, device_slug, s_args, h_args, cuda, steps, &sum);
  if (rc < 0 && atl_stop_requested())
    return interrupted("the figures (step 5 of 6)", staging, dir);
  if (rc < 0) {
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
  print_summary(&sum, dir, started);
  return failed || rc ? EXIT_MEASURE : EXIT_OK;
}
