/* The steps of a report (atomlab report): the sweeps, the strategies and
 * the histogram, each a run of the atomlab program itself inside the
 * staging folder, so the report measures exactly what a user running them
 * by hand would; then the figures (atomlab plot) and the documents. The
 * library prints nothing: progress and failed steps go to the caller's
 * callbacks. */
#undef _POSIX_C_SOURCE
#define _XOPEN_SOURCE 700 /* realpath, setenv */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomlab.h"

/* Most arguments of one step. */
#define MAX_ARGS 40

/* The steps run inside the report folder: a relative ATL_GNUPLOT would name another file there. */
static void absolute_gnuplot(void)
{
  const char *gp = getenv("ATL_GNUPLOT");
  char *gp_abs = gp && gp[0] && gp[0] != '/' ? realpath(gp, NULL) : NULL;
  if (gp_abs)
    setenv("ATL_GNUPLOT", gp_abs, 1);
  free(gp_abs);
}

const char *atl_report_self(const char *argv0)
{
  /* argv[0] where it names a path (it stays right under valgrind, where /proc/self/exe is the tool),
   * made absolute: the steps run in another folder */
  static char self[4096];
  if (self[0] == '\0') {
    char *abs = strchr(argv0, '/') ? realpath(argv0, NULL) : NULL;
    snprintf(self, sizeof self, "%s", abs && strlen(abs) < sizeof self ? abs : "/proc/self/exe");
    free(abs);
  }
  return self;
}

static void progress(const struct atl_report_run *run, int step, int steps, const char *what)
{
  if (run->progress)
    run->progress(run->arg, step, steps, what);
}

/* One line to the caller (no "error: ": the caller says how it prints). */
static void tell(const struct atl_report_run *run, const char *fmt, ...)
{
  if (!run->notify) /* no one listens: nothing to format */
    return;
  char text[4600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  run->notify(run->arg, text);
}

/* Runs the program with @p args inside @p dir (the steps name their files relative to it, as the commands
 * they record in their files say); stdout and stderr go to @p log (relative to @p dir too). As atl_spawn. */
static int run_self(const struct atl_report_run *run, char *const *args, const char *dir, const char *log)
{
  return atl_spawn(run->self, args, &(struct atl_spawn_io){.dir = dir, .out = log, .err = log, .append = 1});
}

/* Appends the timing every sweep of the report shares (quick: fixed iterations), --repeat where asked, the NULL. */
static void end_args(const struct atl_report_run *run, char **args, int n)
{
  static char *timing_quick[] = {"--iters", "20", "--min-samples", "3", "--max-samples", "3"};
  static char *timing_full[] = {"--target-ms", "10", "--budget", "0.5", "--max-samples", "20"};
  for (size_t i = 0; i < 6; i++)
    args[n++] = run->quick ? timing_quick[i] : timing_full[i];
  if (run->repeat) {
    args[n++] = "--repeat";
    args[n++] = (char *)run->repeat;
  }
  args[n] = NULL;
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

/* Steps 5 and 6 in the report folder @p dir (@p f: its files; @p shown: its name in messages): the figures
 * (atomlab plot) of the sweep and the strategies, then report.md and report.html into out->summary (@p s_args,
 * @p h_args: the strategy and histogram settings the text names). Sets out->written, out->failed. */
static void draw_and_write(const struct atl_report_run *run, const char *dir, const char *shown,
                           const struct atl_report_files *f, const char *device_slug, const char *s_args,
                           const char *h_args, int cuda, int steps, struct atl_report_outcome *out)
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
                                .notify = run->notify,
                                .arg = run->arg};
  char diagnosis[4300];
  snprintf(diagnosis, sizeof diagnosis, "%s/diagnosis.json", f->data);
  x.diagnosis_json = diagnosis;
  char log[4300];
  const char *rel_log = "data/plot.log";
  snprintf(log, sizeof log, "%s/%s", dir, rel_log);
  unlink(log);
  char *plot_args[] = {"atomlab", "plot", rel.json, "-o", rel.figures, "--format", "both", NULL};
  int rc = run_self(run, plot_args, dir, rel_log);
  if (atl_stop_requested())
    return;
  if (rc != 0) {
    tell(run, "plot exited %d (see %s/%s)", rc, shown, rel_log);
    out->failed = 1;
  }
  if (access(f->s_json, R_OK) == 0 && any_row_ok(f->s_json)) {
    plot_args[2] = rel.s_json;
    rc = run_self(run, plot_args, dir, rel_log);
    if (atl_stop_requested())
      return;
    if (rc != 0) {
      tell(run, "plot of the strategies exited %d (see %s/%s)", rc, shown, rel_log);
      out->failed = 1;
    }
  }

  progress(run, 6, steps, "report.md and report.html");
  /* The user's calibration (where `atomlab calibrate smem` writes), else the one shipped for this device. */
  char smem_table[4000];
  atl_smem_table_find(device_slug, smem_table, sizeof smem_table);
  x.smem_table = smem_table;
  char why[1200];
  if (atl_report_write(dir, f->json, f->figures, rel_log, &x, &out->summary, why, sizeof why) != 0) {
    tell(run, "%s", why);
    return;
  }
  out->written = 1;
  out->failed |= out->summary.verified < out->summary.rows;
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

/* A report folder with a manifest names what --render wrote too: the documents, the datasheet, the plot's log
 * and the images drawn from the scripts the manifest names (figures/NAME.gp: NAME.png, NAME.svg). */
static void adopt_rendered(const struct atl_report_run *run, const char *dir)
{
  struct atl_manifest m;
  char why[4600], path[4400];
  if (atl_manifest_check(dir, dir, &m, why, sizeof why) != 0 || m.count == 0) {
    atl_manifest_release(&m);
    return; /* no manifest (a report older than it): nothing to keep up to date */
  }
  static const char *const written[] = {"report.md", "report.html", "data/datasheet.json", "data/datasheet.csv",
                                        "data/plot.log"};
  struct atl_manifest now = {0};
  int err = 0;
  for (size_t i = 0; i < m.count && !err; i++)
    err = atl_manifest_add(&now, m.files[i]);
  for (size_t i = 0; i < sizeof written / sizeof written[0] && !err; i++)
    err = atl_manifest_add(&now, written[i]);
  for (size_t i = 0; i < m.count && !err; i++) {
    size_t n = strlen(m.files[i]);
    if (strncmp(m.files[i], "figures/", 8) != 0 || n < 4 || strcmp(m.files[i] + n - 3, ".gp") != 0)
      continue;
    for (int k = 0; k < 2 && !err; k++) {
      struct stat st;
      snprintf(path, sizeof path, "%.*s.%s", (int)(n - 3), m.files[i], k ? "svg" : "png");
      char full[4600];
      snprintf(full, sizeof full, "%s/%s", dir, path);
      if (lstat(full, &st) == 0 && S_ISREG(st.st_mode))
        err = atl_manifest_add(&now, path);
    }
  }
  if (err || atl_manifest_install(NULL, dir, &m, &now, why, sizeof why) != 0)
    tell(run, "unable to update the manifest of '%s'%s%s", dir, err ? "" : ": ", err ? "" : why);
  atl_manifest_release(&m);
  atl_manifest_release(&now);
}

int atl_report_render(const struct atl_report_run *run, const char *dir, struct atl_report_outcome *out, char *why,
                      size_t why_len)
{
  struct atl_report_files f;
  struct atl_result_set rmw;
  char rwhy[1200];
  memset(out, 0, sizeof *out);
  absolute_gnuplot();
  atl_report_files(dir, &f);
  if (atl_read_json(f.json, &rmw, rwhy, sizeof rwhy) != 0) {
    snprintf(why, why_len, "'%s': no readable data/rmw.json there, so not a report folder (%s)", dir, rwhy);
    return ATL_EINVAL;
  }
  struct atl_device_info info = rmw.meta.device;
  /* A recorded file carries the backend's name, not the device's capabilities:
   * the calibration (has_sm_clock) runs on CUDA devices, so the name stands for it. */
  const int cuda = strcmp(info.backend, "cuda") == 0;
  atl_result_set_release(&rmw);
  char device_slug[160], s_args[300], h_args[300];
  atl_device_slug(&info, device_slug, sizeof device_slug);
  recorded_command(f.s_json, s_args, sizeof s_args, "(settings not recorded)");
  recorded_command(f.h_json, h_args, sizeof h_args, "(settings not recorded)");
  struct stat st;
  if ((mkdir(f.figures, 0777) != 0 && errno != EEXIST) || lstat(f.figures, &st) != 0 || !S_ISDIR(st.st_mode)) {
    snprintf(why, why_len, "'%s': unable to create the folder, or it is a symbolic link (not written through)",
             f.figures);
    return ATL_EIO;
  }
  if (lstat(f.data, &st) != 0 || !S_ISDIR(st.st_mode)) {
    snprintf(why, why_len, "'%s' is a symbolic link or not a folder: not written through", f.data);
    return ATL_EIO;
  }
  progress(run, 4, 5, "figures (atomlab plot): heatmaps and strategy bar charts (--render: nothing measured)");
  draw_and_write(run, dir, dir, &f, device_slug, s_args, h_args, cuda, 5, out);
  if (!out->written && atl_stop_requested())
    out->stopped = "the figures";
  adopt_rendered(run, dir);
  return 0;
}

/* Runs one step: its progress line, the run, and what its failure means. 1 where it stopped the report. */
static int step(const struct atl_report_run *run, int n, const char *what, char **args, const char *staging,
                const char *shown, const char *log, const char *name, const char *stopped,
                struct atl_report_outcome *out)
{
  progress(run, n, 6, what);
  const int rc = run_self(run, args, staging, log);
  if (atl_stop_requested()) {
    out->stopped = stopped;
    return 1;
  }
  if (rc != 0) {
    tell(run, "%s exited %d (see %s/%s)", name, rc, shown, log);
    out->failed = 1; /* rows that did not verify: the report still shows them, flagged */
  }
  return 0;
}

int atl_report_measure(const struct atl_report_run *run, const struct atl_device_info *dev, const char *staging,
                       const char *shown, struct atl_report_outcome *out, char *why, size_t why_len)
{
  memset(out, 0, sizeof *out);
  absolute_gnuplot();
  /* The device decides the grid: GPUs get the seed's range, CPUs a smaller one (5 minutes on 2 cores). */
  const int gpu = dev->type == ATL_DEVICE_GPU, quick = run->quick;
  char device_id[128], device_slug[160];
  snprintf(device_id, sizeof device_id, "%s", dev->id);
  atl_device_slug(dev, device_slug, sizeof device_slug);

  /* A new folder (never an earlier run's): the one with the same PID would be a crash's leftover. */
  if (mkdir(staging, 0777) != 0) {
    snprintf(why, why_len, "unable to create the staging folder '%s': %s", staging, strerror(errno));
    return ATL_EIO;
  }
  struct atl_report_files f, rel; /* as this process names the files; as the steps, running in staging, do */
  atl_report_files(staging, &f);
  atl_report_files(NULL, &rel);
  if (mkdir(f.data, 0777) != 0 || mkdir(f.figures, 0777) != 0) {
    snprintf(why, why_len, "unable to create '%s' and '%s': %s", f.data, f.figures, strerror(errno));
    return ATL_EIO;
  }

  const char *grid = quick ? "1,4" : gpu ? "1:1024:x4" : "1:64:x2";
  char what[400];
  snprintf(what, sizeof what, "fetch_add, four patterns, contention and padding %s on %s", grid, device_id);
  progress(run, 1, 6, what);
  const char *log = "data/rmw.log";
  char *args[MAX_ARGS]; /* the argv of each child step */
  int n = 0;
  char *fixed[] = {"atomlab",      "rmw",        "--pattern", "all",        "--op",     "fetch_add",
                   "--contention", (char *)grid, "--padding", (char *)grid, "--device", device_id,
                   "-o",           rel.json,     "-o",        rel.csv,      "--quiet"};
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    args[n++] = fixed[i];
  end_args(run, args, n);
  int rc = run_self(run, args, staging, log);
  if (atl_stop_requested()) {
    out->stopped = "the sweep (step 1 of 6)";
    return 0;
  }
  if (rc != 0) {
    if (access(f.json, R_OK) != 0) {
      tell(run, "the sweep exited %d and wrote no rows: no report; its log is '%s/%s' ('%s' was left as it was)", rc,
           staging, log, shown);
      out->no_rows = rc;
      return 0;
    }
    tell(run, "the sweep exited %d (see %s/%s)", rc, shown, log);
    out->failed = 1; /* rows that did not verify: the report still shows them, flagged */
  }

  /* The datasheet: every common op on u32 and u64 in global and local memory, result unused and used, at one
   * thread per word and at the grid's most threads per word (contiguous, padding 1); the report turns the
   * rows into data/datasheet.json and .csv (atl_datasheet). */
  const char *d_cont = quick ? "1,4" : gpu ? "1,1024" : "1,64";
  snprintf(what, sizeof what, "datasheet: fetch_add, exchange, cas, fetch_min, and, inc on u32 and u64, global and "
           "local, result unused and used, contention %s", d_cont);
  n = 0;
  char *d_fixed[] = {"atomlab",  "rmw",     "--pattern", "contiguous", "--op",
                     quick ? "fetch_add,cas" : "fetch_add,exchange,cas,fetch_min,and,inc",
                     "--type",   quick ? "u32" : "u32,u64", "--space", "global,local", "--result", "unused,used",
                     "--contention", (char *)d_cont, "--padding", "1", "--device", device_id, "-o", rel.d_json,
                     "--quiet"};
  for (size_t i = 0; i < sizeof d_fixed / sizeof d_fixed[0]; i++)
    args[n++] = d_fixed[i];
  end_args(run, args, n);
  if (step(run, 2, what, args, staging, shown, rel.d_log, "the datasheet sweep", "the datasheet (step 2 of 6)", out))
    return 0;

  /* Strategies: every strategy on the three patterns, fetch_add with the result used (the case the
   * aggregating strategies must get right). CPUs get 2 work-groups: PoCL runs them on 2 cores anyway.
   * GPUs get 2 per compute unit: at full occupancy one launch of a lock strategy on one address takes
   * seconds (every lock serialized), which no report budget holds. */
  char s_args[300], s_groups[32];
  snprintf(s_groups, sizeof s_groups, "%u", gpu ? 2 * dev->compute_units : 2);
  snprintf(s_args, sizeof s_args, "--pattern all --op fetch_add --result used --strategy all --workgroups %s, %s",
           s_groups, quick ? "20 fixed iterations, 3 samples" : "calibrated to 10 ms, at most 0.5 s and 20 samples per row");
  snprintf(what, sizeof what, "strategies: %s", s_args);
  n = 0;
  char *s_fixed[] = {"atomlab",    "strategy", "--pattern", "all",     "--op", "fetch_add", "--result", "used",
                     "--strategy", "all",      "--device",  device_id, "-o",   rel.s_json,  "-o",       rel.s_csv,
                     "--quiet",    "--workgroups", s_groups};
  for (size_t i = 0; i < sizeof s_fixed / sizeof s_fixed[0]; i++)
    args[n++] = s_fixed[i];
  end_args(run, args, n);
  if (step(run, 3, what, args, staging, shown, rel.s_log, "strategy", "the strategies (step 3 of 6)", out))
    return 0;

  /* Histogram: u8 keys in every distribution; the app's own size (1 GiB on GPUs) except on CPUs. */
  char h_args[200]; /* app takes one -o: JSON only */
  /* GPUs: 256 MiB, five times an H100's L2 (memory-bound like 1 GiB, in a quarter of the time) */
  const char *h_bytes = quick ? "65536" : gpu ? "268435456" : "1048576";
  snprintf(h_args, sizeof h_args, "--input u8 --dist all --bytes %s%s", h_bytes, quick ? " --samples 3" : "");
  snprintf(what, sizeof what, "histogram: %s", h_args);
  n = 0;
  char *h_fixed[] = {"atomlab",  "app", "histogram", "--input", "u8",      "--dist",  "all", "--device",
                     device_id,  "-o",  rel.h_json,  "--quiet", "--bytes", (char *)h_bytes};
  for (size_t i = 0; i < sizeof h_fixed / sizeof h_fixed[0]; i++)
    args[n++] = h_fixed[i];
  if (quick) {
    args[n++] = "--samples";
    args[n++] = "3";
  }
  args[n] = NULL;
  if (step(run, 4, what, args, staging, shown, rel.h_log, "app histogram", "the histogram (step 4 of 6)", out))
    return 0;

  progress(run, 5, 6, "figures (atomlab plot): heatmaps and strategy bar charts");
  draw_and_write(run, staging, shown, &f, device_slug, s_args, h_args, dev->has_sm_clock, 6, out);
  if (!out->written && atl_stop_requested())
    out->stopped = "the figures (step 5 of 6)";
  return 0;
}

int atl_report_devices(const struct atl_report_run *run, const char (*ids)[32], size_t n, const char *backend,
                       const char *dir, char (*dirs)[4200], size_t *ndone)
{
  int status = 0;
  *ndone = 0;
  absolute_gnuplot();
  for (size_t i = 0; i < n && !atl_stop_requested(); i++) {
    char sub[4200];
    atl_report_device_folder(dir, ids[i], sub, sizeof sub);
    tell(run, "device %zu of %zu: %s into %s", i + 1, n, ids[i], sub);
    char *args[12] = {"atomlab", "report", "-o", sub, "--device", (char *)ids[i]};
    int na = 6;
    if (backend)
      args[na++] = "--backend", args[na++] = (char *)backend;
    if (run->quick)
      args[na++] = "--quick";
    if (run->repeat)
      args[na++] = "--repeat", args[na++] = (char *)run->repeat;
    args[na] = NULL;
    const int rc = atl_spawn(run->self, args, &(struct atl_spawn_io){.dir = ".", .append = 1});
    if (rc != 0)
      status = rc == 2 ? 2 : rc > 128 ? rc : 1;
    if (rc == 0 || rc == 1) /* a report with a failed row is still a report */
      memcpy(dirs[(*ndone)++], sub, sizeof sub);
  }
  return status;
}
