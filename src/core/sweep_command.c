/* A sweep command's run (atomlab rmw, strategy): one device or several at
 * once, with the live table, the progress line and the checkpoints of its
 * output files, so the commands only parse, build their configurations
 * and print. The caller's callbacks index every device's configurations
 * in one array; this file gives each device's part its offset. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atomlab.h"
#include "timing.h"

/* One device's view of the job: the caller's callbacks with its offset added. */
struct part {
  const struct atl_sweep_job *job;
  size_t first;
};

/* What the run's callbacks write to: one writer (atl_sweep_devices holds a lock around them). */
struct writer {
  const struct atl_sweep_job *job;
  struct atl_result_set *set;
  struct atl_sweep_outcome *out;
  const struct atl_row_kind *kind; /* the table's columns (a run on several devices shows the device) */
  time_t started;
};

static void configure(const void *arg, size_t i, struct atl_row *row)
{
  const struct part *p = arg;
  p->job->spec.configure(p->job->spec.arg, p->first + i, row);
}

static int measure(atl_context_t ctx, const void *arg, size_t i, const struct atl_timing *timing, struct atl_row *row)
{
  const struct part *p = arg;
  return p->job->spec.measure(ctx, p->job->spec.arg, p->first + i, timing, row);
}

/* The progress line waits 2 s: a short sweep leaves no trace of it. */
static int progress_due(const struct writer *w) { return w->job->progress && time(NULL) - w->started >= 2; }

static void before_row(void *arg, size_t i, size_t n)
{
  const struct writer *w = arg;
  char text[200];
  if (!progress_due(w) || w->job->describe == NULL)
    return;
  w->job->describe(w->job->spec.arg, i, text, sizeof text);
  fprintf(w->job->progress, "\r[%zu/%zu] %s ...   ", i + 1, n, text);
}

static void after_row(void *arg, size_t i, const struct atl_row *row, int reused)
{
  struct writer *w = arg;
  (void)i;
  if (!reused && progress_due(w) && w->job->describe)
    fprintf(w->job->progress, "\r%*s\r", 60, "");
  w->out->failures += atl_row_failed(row);
  if (w->out->table_open) /* a closed stdout (EPIPE) ends the table, not the sweep */
    w->out->table_open = atl_write_table_row(w->job->table, w->kind, row) == 0 && fflush(w->job->table) == 0;
}

/* Every output file rewritten quietly: the caller's last write reports (and rescues) each one. */
static void checkpoint(void *arg, const struct atl_result_set *rows)
{
  struct writer *w = arg;
  if (w->job->started_s > 0)
    w->set->meta.elapsed_s = atl_sweep_clock() - w->job->started_s;
  if (w->job->before_checkpoint)
    w->job->before_checkpoint(w->set);
  struct atl_result_set view = *rows;
  if (w->job->started_s > 0)
    view.meta = w->set->meta;
  for (size_t i = 0; i < w->job->nout; i++)
    atl_write_file(w->job->out_paths[i], (enum atl_format)w->job->out_formats[i], &view);
}

/* "3.2 h" for a number of seconds. */
static void human_time(double s, char *buf, size_t len)
{
  static const struct {
    double seconds;
    const char *unit;
  } units[] = {{365.25 * 86400, "years"}, {86400, "days"}, {3600, "h"}, {60, "min"}};
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
    if (s >= units[i].seconds) {
      snprintf(buf, len, "%.3g %s", s / units[i].seconds, units[i].unit);
      return;
    }
  snprintf(buf, len, "%.3g s", s);
}

int atl_plan_check(size_t rows, uint64_t max_rows, const struct atl_timing *t, char *why, size_t len)
{
  if (rows <= max_rows)
    return 0;
  /* A row costs at least its samples and a calibration launch or three at
   * about the target time: a floor, enough to show a plan cannot finish. */
  const double row_s = (t->min_samples + (t->fixed_iters ? 1 : 3)) * t->target_ms * 1e-3;
  char when[48], count[32];
  human_time((double)rows * row_s, when, sizeof when);
  if (rows == SIZE_MAX)
    snprintf(count, sizeof count, "more than %zu", SIZE_MAX - 1);
  else
    snprintf(count, sizeof count, "%zu", rows);
  snprintf(why, len, "%s rows, %s or more at %.3g s a row", count, when, row_s);
  return ATL_EINVAL;
}

double atl_sweep_clock(void) { return atl__now_s(); }

int atl_sweep_command(const struct atl_sweep_job *job, const struct atl_timing *timing, struct atl_result_set *resume,
                      int drop_others, struct atl_result_set *set, struct atl_sweep_outcome *out)
{
  const struct atl_row_kind *kind = job->multi ? atl_row_kind_devices(set->kind) : atl_row_kind_find(set->kind);
  memset(out, 0, sizeof *out);
  out->table_open = job->table != NULL;
  if (job->table)
    atl_write_table_header(job->table, kind);
  struct writer w = {job, set, out, kind, time(NULL)};
  const struct atl_sweep_run run = {timing,      resume,     drop_others, job->nout ? job->checkpoint_s : 0,
                                    checkpoint, before_row, after_row,   &w};
  struct part parts[ATL_MAX_DEVICES];
  struct atl_sweep_part sparts[ATL_MAX_DEVICES];
  const size_t nctx = job->nctx < ATL_MAX_DEVICES ? job->nctx : ATL_MAX_DEVICES;
  for (size_t d = 0; d < nctx; d++) {
    parts[d] = (struct part){job, d * job->spec.count};
    sparts[d] = (struct atl_sweep_part){job->ctxs[d], job->spec};
    sparts[d].spec.configure = job->spec.configure ? configure : NULL;
    sparts[d].spec.measure = measure;
    sparts[d].spec.arg = &parts[d];
  }
  int err = job->multi ? atl_sweep_devices(sparts, nctx, &run, set, &out->report)
                       : atl_sweep(job->ctxs[0], &sparts[0].spec, &run, set, &out->report);
  out->planned = job->spec.count * (job->multi ? nctx : 1);
  set->meta.complete = out->report.measured + out->report.reused == out->planned;
  if (job->started_s > 0)
    set->meta.elapsed_s = atl_sweep_clock() - job->started_s;
  /* the rows kept from the resume file follow the sweep's in the table too */
  if (out->table_open && !atl_stop_requested())
    for (size_t j = out->report.measured + out->report.reused; j < set->count; j++)
      atl_write_table_row(job->table, kind, &set->rows[j]);
  return err;
}
