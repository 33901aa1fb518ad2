/*
 * One sweep on several devices at once (sweep.h): each device's part runs
 * atl_sweep() on a thread of its own with its own context; what the command
 * writes while the parts run (the table, progress and checkpoints) goes
 * through one lock, so rows of different devices never interleave within a
 * line or a file. The parts' sets are joined in part order at the end; a
 * checkpoint in between is built from copies of the rows completed so far,
 * since a part's own set grows on its thread.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atomlab.h"
#include "atomlab/sweep.h"
#include "timing.h"

#define KEY_LEN 640

struct shared {
  pthread_mutex_t lock;
  const struct atl_sweep_run *run;
  struct atl_result_set live; /* copies of every completed row, for checkpoints */
  double last_checkpoint;
};

struct worker {
  struct shared *sh;
  const struct atl_sweep_part *part;
  char device[32];
  struct atl_sweep_spec spec; /* the part's, with the device tagged on each row */
  struct atl_sweep_run run;   /* the caller's, with its callbacks under the lock */
  struct atl_result_set resume, set;
  struct atl_sweep_report report;
  int err;
};

static void tag(const struct worker *w, struct atl_row *row) { atl_row_config_set(row, "device", w->device); }

static void w_configure(const void *arg, size_t i, struct atl_row *row)
{
  const struct worker *w = arg;
  w->part->spec.configure(w->part->spec.arg, i, row);
  tag(w, row);
}

static int w_measure(atl_context_t ctx, const void *arg, size_t i, const struct atl_timing *timing, struct atl_row *row)
{
  const struct worker *w = arg;
  int err = w->part->spec.measure(ctx, w->part->spec.arg, i, timing, row);
  tag(w, row);
  return err;
}

static int key_cmp(const void *a, const void *b) { return strcmp(a, b); }

/* The checkpoint (lock held): the completed rows, then the resume file's rows whose key none of them has. */
static void checkpoint(struct shared *sh)
{
  const struct atl_sweep_run *run = sh->run;
  struct atl_result_set view = sh->live;
  const struct atl_result_set *old = run->resume;
  char(*keys)[KEY_LEN] = NULL;
  if (old && old->count) {
    keys = malloc((sh->live.count ? sh->live.count : 1) * sizeof *keys);
    view.rows = malloc((sh->live.count + old->count) * sizeof *view.rows);
    if (keys == NULL || view.rows == NULL) { /* no checkpoint this time; the next one tries again */
      free(keys);
      free(view.rows);
      return;
    }
    for (size_t i = 0; i < sh->live.count; i++)
      atl_row_key(&sh->live.rows[i], keys[i], KEY_LEN);
    qsort(keys, sh->live.count, sizeof *keys, key_cmp);
    memcpy(view.rows, sh->live.rows, sh->live.count * sizeof *view.rows);
    for (size_t j = 0; j < old->count; j++) {
      char key[KEY_LEN];
      atl_row_key(&old->rows[j], key, sizeof key);
      if (bsearch(key, keys, sh->live.count, sizeof *keys, key_cmp) == NULL)
        view.rows[view.count++] = old->rows[j];
    }
    view.cap = view.count;
  }
  run->checkpoint(run->arg, &view);
  if (view.rows != sh->live.rows)
    free(view.rows);
  free(keys);
}

static void w_before_row(void *arg, size_t i, size_t count)
{
  struct worker *w = arg;
  pthread_mutex_lock(&w->sh->lock);
  w->sh->run->before_row(w->sh->run->arg, i, count);
  pthread_mutex_unlock(&w->sh->lock);
}

/* A copy of @p row whose samples the copy owns. */
static int row_copy(const struct atl_row *row, struct atl_row *out)
{
  *out = *row;
  out->samples_ms = NULL;
  if (row->samples_ms && row->time_ms.samples) {
    out->samples_ms = malloc(row->time_ms.samples * sizeof *out->samples_ms);
    if (out->samples_ms == NULL)
      return ATL_ENOMEM;
    memcpy(out->samples_ms, row->samples_ms, row->time_ms.samples * sizeof *out->samples_ms);
  }
  return 0;
}

static void w_after_row(void *arg, size_t i, const struct atl_row *row, int reused)
{
  struct worker *w = arg;
  struct shared *sh = w->sh;
  pthread_mutex_lock(&sh->lock);
  if (sh->run->checkpoint) {
    struct atl_row copy;
    if (row_copy(row, &copy) == 0 && atl_result_set_add(&sh->live, &copy) != 0)
      atl_row_release(&copy); /* out of memory: this row is missing from checkpoints, never from the result */
  }
  if (sh->run->after_row)
    sh->run->after_row(sh->run->arg, i, row, reused);
  if (sh->run->checkpoint && sh->run->checkpoint_s > 0 && atl__now_s() - sh->last_checkpoint >= sh->run->checkpoint_s) {
    checkpoint(sh);
    sh->last_checkpoint = atl__now_s();
  }
  pthread_mutex_unlock(&sh->lock);
}

/* An urgent stop (atl_stop_offer): the shared checkpoint, under the lock the parts take only between rows. */
static void urgent_write(void *arg)
{
  struct shared *sh = arg;
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += 5;
  if (pthread_mutex_timedlock(&sh->lock, &until) != 0)
    return;
  checkpoint(sh);
  pthread_mutex_unlock(&sh->lock);
}

static void *work(void *arg)
{
  struct worker *w = arg;
  w->err = atl_sweep(w->part->ctx, &w->spec, &w->run, &w->set, &w->report);
  return NULL;
}

/* Copies old row @p j into @p to (its samples copied: the caller's resume set stays whole for checkpoints). */
static int take_copy(struct atl_result_set *to, const struct atl_row *row)
{
  struct atl_row copy;
  int err = row_copy(row, &copy);
  if (!err && (err = atl_result_set_add(to, &copy)) != 0)
    atl_row_release(&copy);
  return err;
}

int atl_sweep_devices(struct atl_sweep_part *parts, size_t nparts, const struct atl_sweep_run *run,
                      struct atl_result_set *set, struct atl_sweep_report *report)
{
  memset(report, 0, sizeof *report);
  if (set->kind[0] == '\0' && nparts)
    snprintf(set->kind, sizeof set->kind, "%s", parts[0].spec.kind);
  struct shared sh = {.run = run, .last_checkpoint = atl__now_s()};
  snprintf(sh.live.kind, sizeof sh.live.kind, "%s", set->kind);
  sh.live.meta = set->meta;
  struct worker *w = calloc(nparts ? nparts : 1, sizeof *w);
  struct atl_result_set rest = {0}; /* resume rows of none of these devices */
  int err = w ? 0 : ATL_ENOMEM;
  pthread_mutex_init(&sh.lock, NULL);
  for (size_t p = 0; !err && p < nparts; p++) {
    const struct atl_device_info *dev = atl_device_current(parts[p].ctx);
    w[p].sh = &sh;
    w[p].part = &parts[p];
    snprintf(w[p].device, sizeof w[p].device, "%s", dev ? dev->id : "?");
    w[p].spec = parts[p].spec;
    w[p].spec.arg = &w[p];
    w[p].spec.configure = parts[p].spec.configure ? w_configure : NULL;
    w[p].spec.measure = w_measure;
    w[p].run = *run;
    w[p].run.before_row = run->before_row ? w_before_row : NULL;
    w[p].run.after_row = w_after_row;
    w[p].run.checkpoint = NULL; /* the shared checkpoint in w_after_row holds every device's rows */
    w[p].run.checkpoint_s = 0;
    w[p].run.resume = run->resume ? &w[p].resume : NULL;
    w[p].run.arg = &w[p];
    w[p].set.meta = set->meta;
    snprintf(w[p].set.kind, sizeof w[p].set.kind, "%s", set->kind);
  }
  for (size_t j = 0; !err && run->resume && j < run->resume->count; j++) {
    const char *d = atl_row_config(&run->resume->rows[j], "device");
    size_t p = 0;
    while (p < nparts && (d == NULL || strcmp(d, w[p].device) != 0))
      p++;
    if (p < nparts)
      err = take_copy(&w[p].resume, &run->resume->rows[j]);
    else if (run->drop_others)
      report->dropped++;
    else if ((err = take_copy(&rest, &run->resume->rows[j])) == 0)
      report->kept++;
  }
  if (!err && run->checkpoint)
    atl_stop_offer(urgent_write, &sh);
  if (!err) {
    pthread_t *threads = calloc(nparts ? nparts : 1, sizeof *threads);
    unsigned char *started = calloc(nparts ? nparts : 1, 1);
    for (size_t p = 0; threads && started && p < nparts; p++)
      started[p] = pthread_create(&threads[p], NULL, work, &w[p]) == 0;
    for (size_t p = 0; p < nparts; p++) {
      if (threads && started && started[p])
        pthread_join(threads[p], NULL);
      else
        work(&w[p]); /* no thread for it: measured after the others, on this one */
    }
    free(threads);
    free(started);
  }
  if (run->checkpoint)
    atl_stop_offer(NULL, NULL);
  /* The parts' rows in part order, then the kept ones; every row moves (samples and all). */
  set->meta.rows_planned = report->kept;
  for (size_t p = 0; w && p < nparts; p++) {
    if (w[p].err && !err)
      err = w[p].err;
    for (size_t i = 0; i < w[p].set.count; i++) {
      if (atl_result_set_add(set, &w[p].set.rows[i]) != 0 && !err)
        err = ATL_ENOMEM;
      else
        w[p].set.rows[i].samples_ms = NULL;
    }
    set->meta.rows_planned += w[p].set.meta.rows_planned;
    if (set->meta.clocks[0] == '\0')
      snprintf(set->meta.clocks, sizeof set->meta.clocks, "%s", w[p].set.meta.clocks);
    report->measured += w[p].report.measured;
    report->reused += w[p].report.reused;
    report->kept += w[p].report.kept;
    report->dropped += w[p].report.dropped;
    if (w[p].report.invalid && report->invalid == 0)
      snprintf(report->first_invalid, sizeof report->first_invalid, "%s", w[p].report.first_invalid);
    report->invalid += w[p].report.invalid;
    atl_result_set_release(&w[p].set);
    atl_result_set_release(&w[p].resume);
  }
  for (size_t i = 0; i < rest.count; i++) {
    if (atl_result_set_add(set, &rest.rows[i]) != 0 && !err)
      err = ATL_ENOMEM;
    else
      rest.rows[i].samples_ms = NULL;
  }
  atl_result_set_release(&rest);
  atl_result_set_release(&sh.live);
  pthread_mutex_destroy(&sh.lock);
  free(w);
  return err;
}
