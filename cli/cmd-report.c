/* atomlab report: a default characterization of one device, written into one
 * folder (report.md, a self-contained report.html, figures, data). It runs
 * the other commands (rmw, strategy, app histogram, plot) as child processes of this same binary, so
 * the report measures exactly what a user running them by hand would. */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "report.h"
#include "resultfile.h"

#include <cjson/cJSON.h>

static const char usage[] =
    "usage: atomlab report [-o DIR] [--device ID] [--backend B] [--quick]\n"
    "       atomlab report --render DIR\n\n"
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
    "  -o DIR         the report folder (created; files in it are replaced)  [atomlab-report]\n"
    "  --device ID    an id or row number from 'atomlab devices'  [best device]\n"
    "  --backend B    opencl or cuda  [any]\n"
    "  --quick        a 2x2 grid with fixed iterations: checks the pipeline in seconds\n"
    "  --render DIR   measure nothing: draw the figures of a report folder written\n"
    "                 where gnuplot was missing (a GPU machine) and write its\n"
    "                 report.md and report.html again from its data/\n"
    "  --describe     what the report shows (docs/metrics.md)\n\n"
    "Exit status: 0 written; 1 a step failed or a row did not verify (the report\n"
    "says which); 2 bad usage.\n";

/* Runs this binary with @p args; its stdout and stderr go to @p log. As cli_spawn returns. */
static int run_self(char *const *args, const char *log)
{
  /* argv[0] where it names a path (it stays right under valgrind, where /proc/self/exe is the tool). */
  const char *self = strchr(cli_argv0, '/') ? cli_argv0 : "/proc/self/exe";
  return cli_spawn(self, args, &(struct cli_spawn_io){.out = log, .err = log, .append = 1});
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

/* The files of a report folder: what the steps write and the documents read. */
struct report_files {
  char data[1100], figures[1100], json[1200], csv[1200], s_json[1200], s_csv[1200], s_log[1200], h_json[1200],
      h_log[1200];
};

static void report_files(const char *dir, struct report_files *f)
{
  snprintf(f->data, sizeof f->data, "%s/data", dir);
  snprintf(f->figures, sizeof f->figures, "%s/figures", dir);
  snprintf(f->json, sizeof f->json, "%s/rmw.json", f->data);
  snprintf(f->csv, sizeof f->csv, "%s/rmw.csv", f->data);
  snprintf(f->s_json, sizeof f->s_json, "%s/strategy.json", f->data);
  snprintf(f->s_csv, sizeof f->s_csv, "%s/strategy.csv", f->data);
  snprintf(f->s_log, sizeof f->s_log, "%s/strategy.log", f->data);
  snprintf(f->h_json, sizeof f->h_json, "%s/histogram.json", f->data);
  snprintf(f->h_log, sizeof f->h_log, "%s/histogram.log", f->data);
}

/* Steps 4 and 5: the figures (atomlab plot) of the sweep and the strategies, then report.md
 * and report.html (@p s_args, @p h_args: the strategy and histogram settings the text names).
 * Returns 1 if a step failed or a row did not verify, else 0. */
static int draw_and_write(const char *dir, const struct report_files *f, const char *device_slug, const char *s_args,
                          const char *h_args, int cuda, time_t started, int steps)
{
  struct report_extra x = {.strategy_json = f->s_json,
                           .strategy_log = f->s_log,
                           .strategy_args = s_args,
                           .hist_json = f->h_json,
                           .hist_log = f->h_log,
                           .hist_args = h_args,
                           .figures = f->figures,
                           .cuda = cuda};
  struct report_extra *extra = &x;
  const char *json = f->json;
  int failed = 0, rc;
  char log[1200];
  snprintf(log, sizeof log, "%s/data/plot.log", dir);
  unlink(log);
  char *plot_args[] = {"atomlab", "plot", (char *)json, "-o", (char *)extra->figures, "--format", "both", NULL};
  rc = run_self(plot_args, log);
  if (rc != 0) {
    fprintf(stderr, "error: plot exited %d (see %s)\n", rc, log);
    failed = 1;
  }
  if (access(extra->strategy_json, R_OK) == 0) {
    plot_args[2] = (char *)extra->strategy_json;
    rc = run_self(plot_args, log);
    if (rc != 0) {
      fprintf(stderr, "error: plot of the strategies exited %d (see %s)\n", rc, log);
      failed = 1;
    }
  }

  progress(5, steps, "report.md and report.html");
  /* Where `atomlab calibrate smem` writes by default, else where the
   * committed reference runs keep it (relative to the current folder). */
  char smem_table[400];
  snprintf(smem_table, sizeof smem_table, "results/%s/smem-table.csv", device_slug);
  if (access(smem_table, R_OK) != 0)
    snprintf(smem_table, sizeof smem_table, "results/%s/smem/smem-table.csv", device_slug);
  extra->smem_table = smem_table;
  struct report_summary sum;
  char why[1200];
  if (report_write(dir, json, extra->figures, log, extra, &sum, why, sizeof why) != 0)
    die("%s", why);
  printf("%s: %zu of %zu rows verified; fastest pattern at contention 1, padding 1: %s (%.3g Gop/s)\n", sum.device,
         sum.verified, sum.rows, sum.best_pattern[0] ? sum.best_pattern : "-", sum.best_gops);
  printf("report: %s/report.md (and report.html), in %lld s\n", dir, (long long)(time(NULL) - started));
  return failed || sum.verified < sum.rows;
}

/* The `command` a step recorded in its JSON (the settings the report text names), or @p fallback. */
static void recorded_command(const char *path, char *out, size_t len, const char *fallback)
{
  char why[1200];
  char *text = rf_slurp(path, why, sizeof why);
  cJSON *root = text ? cJSON_Parse(text) : NULL;
  free(text);
  const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(root, "command");
  snprintf(out, len, "%s", cJSON_IsString(cmd) ? cmd->valuestring : fallback);
  cJSON_Delete(root);
}

/* --render DIR: the figures and documents of a report measured where gnuplot was missing. */
static int render(const char *dir)
{
  struct report_files f;
  char why[1200];
  report_files(dir, &f);
  char *text = rf_slurp(f.json, why, sizeof why);
  if (text == NULL)
    die_usage("--render '%s': no data/rmw.json there, so not a report folder (%s)", dir, why);
  cJSON *root = cJSON_Parse(text);
  free(text);
  const cJSON *d = cJSON_GetObjectItemCaseSensitive(root, "device");
  struct atl_device_info info;
  memset(&info, 0, sizeof info);
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(d, "name"), *platform = cJSON_GetObjectItemCaseSensitive(d, "platform");
  const cJSON *backend = cJSON_GetObjectItemCaseSensitive(d, "backend"), *type = cJSON_GetObjectItemCaseSensitive(d, "type");
  if (!cJSON_IsString(name)) {
    cJSON_Delete(root);
    die_usage("--render '%s': data/rmw.json names no device", dir);
  }
  snprintf(info.name, sizeof info.name, "%s", name->valuestring);
  snprintf(info.platform, sizeof info.platform, "%s", cJSON_IsString(platform) ? platform->valuestring : "");
  info.type = cJSON_IsString(type) && strcmp(type->valuestring, "cpu") == 0 ? ATL_DEVICE_CPU : ATL_DEVICE_GPU;
  const int cuda = cJSON_IsString(backend) && strcmp(backend->valuestring, "cuda") == 0;
  cJSON_Delete(root);
  char device_slug[160], s_args[300], h_args[300];
  atl_device_slug(&info, device_slug, sizeof device_slug);
  recorded_command(f.s_json, s_args, sizeof s_args, "(settings not recorded)");
  recorded_command(f.h_json, h_args, sizeof h_args, "(settings not recorded)");
  make_dir(f.figures);
  progress(4, 5, "figures (atomlab plot): heatmaps and strategy bar charts (--render: nothing measured)");
  return draw_and_write(dir, &f, device_slug, s_args, h_args, cuda, time(NULL), 5) ? EXIT_MEASURE : EXIT_OK;
}

int cmd_report(int argc, char **argv)
{
  enum { O_DEVICE = 256, O_BACKEND, O_QUICK, O_RENDER };
  static const struct option longopts[] = {{"output", required_argument, NULL, 'o'},
                                           {"device", required_argument, NULL, O_DEVICE},
                                           {"backend", required_argument, NULL, O_BACKEND},
                                           {"quick", no_argument, NULL, O_QUICK},
                                           {"render", required_argument, NULL, O_RENDER},
                                           {"help", no_argument, NULL, 'h'},
                                           {0}};
  const char *dir = "atomlab-report", *device = NULL, *backend = NULL, *render_dir = NULL;
  int quick = 0, c;
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
    case 'h':
      fputs(usage, stdout);
      return EXIT_OK;
    case ':':
      die_usage("option '%s' needs a value (see 'atomlab report --help')", argv[optind - 1]);
    default:
      die_usage("unknown option '%s' for report (see 'atomlab report --help')", argv[optind - 1]);
    }
  }
  if (optind < argc)
    die_usage("unexpected argument '%s' for report (see 'atomlab report --help')", argv[optind]);
  if (render_dir) {
    if (device || backend || quick)
      die_usage("--render measures nothing: it takes no --device, --backend or --quick");
    return render(render_dir);
  }

  /* The device decides the grid: GPUs get the seed's range, CPUs a smaller one (5 minutes on 2 cores). */
  time_t started = time(NULL);
  atl_context_t ctx = cli_open_device(device, backend);
  const struct atl_device_info *dev = atl_device_current(ctx);
  int gpu = dev->type == ATL_DEVICE_GPU;
  int cuda = strcmp(dev->backend, "cuda") == 0;
  char device_id[128], device_slug[160];
  snprintf(device_id, sizeof device_id, "%s", dev->id);
  atl_device_slug(dev, device_slug, sizeof device_slug);
  const unsigned compute_units = dev->compute_units;
  atl_context_free(ctx);

  make_dir(dir);
  struct report_files f;
  report_files(dir, &f);
  make_dir(f.data);
  make_dir(f.figures);
  char *json = f.json, *csv = f.csv, *s_json = f.s_json, *s_csv = f.s_csv, *s_log = f.s_log, *h_json = f.h_json,
       *h_log = f.h_log, log[1200];

  const int steps = 5;
  int failed = 0;
  const char *grid = quick ? "1,4" : gpu ? "1:1024:x4" : "1:64:x2";
  char what[400];
  snprintf(what, sizeof what, "fetch_add, four patterns, contention and padding %s on %s", grid, device_id);
  progress(1, steps, what);
  snprintf(log, sizeof log, "%s/rmw.log", f.data);
  unlink(log);
  char *args[40]; /* the argv of each child step */
  int n = 0;
  char *fixed[] = {"atomlab",      "rmw",        "--pattern", "all",        "--op",     "fetch_add",
                   "--contention", (char *)grid, "--padding", (char *)grid, "--device", device_id,
                   "-o",           json,         "-o",        csv,          "--quiet"};
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    args[n++] = fixed[i];
  char *timing_quick[] = {"--iters", "20", "--min-samples", "3", "--max-samples", "3"};
  char *timing_full[] = {"--target-ms", "10", "--budget", "0.5", "--max-samples", "20"};
  for (size_t i = 0; i < 6; i++)
    args[n++] = quick ? timing_quick[i] : timing_full[i];
  args[n] = NULL;
  int rc = run_self(args, log);
  if (rc != 0) {
    fprintf(stderr, "error: the sweep exited %d (see %s)\n", rc, log);
    if (access(json, R_OK) != 0)
      return rc == EXIT_USAGE ? EXIT_USAGE : EXIT_MEASURE;
    failed = 1; /* rows that did not verify: the report still shows them, flagged */
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
  progress(2, steps, what);
  unlink(s_log);
  unlink(s_json);
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
  for (size_t i = 0; i < 6; i++)
    args[n++] = quick ? timing_quick[i] : timing_full[i];
  args[n] = NULL;
  rc = run_self(args, s_log);
  if (rc != 0) {
    fprintf(stderr, "error: strategy exited %d (see %s)\n", rc, s_log);
    failed = 1;
  }

  /* Histogram: u8 keys in every distribution; the app's own size (1 GiB on GPUs) except on CPUs. */
  char h_args[200]; /* app takes one -o: JSON only */
  /* GPUs: 256 MiB, five times an H100's L2 (memory-bound like 1 GiB, in a quarter of the time) */
  const char *h_bytes = quick ? "65536" : gpu ? "268435456" : "1048576";
  snprintf(h_args, sizeof h_args, "--input u8 --dist all%s%s%s", h_bytes ? " --bytes " : "", h_bytes ? h_bytes : "",
           quick ? " --samples 3" : "");
  snprintf(what, sizeof what, "histogram: %s", h_args);
  progress(3, steps, what);
  unlink(h_log);
  unlink(h_json);
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
  rc = run_self(args, h_log);
  if (rc != 0) {
    fprintf(stderr, "error: app histogram exited %d (see %s)\n", rc, h_log);
    failed = 1;
  }

  progress(4, steps, "figures (atomlab plot): heatmaps and strategy bar charts");
  failed |= draw_and_write(dir, &f, device_slug, s_args, h_args, cuda, started, steps);
  return failed ? EXIT_MEASURE : EXIT_OK;
}