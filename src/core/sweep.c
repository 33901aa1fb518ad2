/*
 * The sweep every command runs (sweep.h): resume matching, the loop,
 * checkpoints and the stop after the current row. Rows of the resume file
 * are matched by their configuration key, so any kind resumes the same way.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atomlab.h"
#include "atomlab/backend.h"
#include "atomlab/sweep.h"
#include "timing.h"

/* What becomes of each row of the resume file. */
enum old_state {
  OLD_KEPT,    /* outside this sweep: written after the sweep's rows */
  OLD_DROPPED, /* outside this sweep, and drop_others */
  OLD_PENDING, /* reusable by a configuration of the sweep not measured yet */
  OLD_DONE,    /* reused (its samples moved into the new set), or superseded by a new measurement */
};

struct matching {
  unsigned char *state; /* per old row */
  size_t *reuse;        /* per configuration: the old row it reuses, or SIZE_MAX */
};

/* Pairs each configuration with the first old row of its key that validates. */
static int match_resume(const struct atl_sweep_spec *spec, const struct atl_sweep_run *run, struct matching *m,
                        struct atl_sweep_report *report)
{
  const struct atl_result_set *old = run->resume;
  const size_t nold = old ? old->count : 0;
  m->state = calloc(nold ? nold : 1, 1);
  m->reuse = malloc((spec->count ? spec->count : 1) * sizeof *m->reuse);
  char(*keys)[640] = malloc((nold ? nold : 1) * sizeof *keys);
  if (m->state == NULL || m->reuse == NULL || keys == NULL) {
    free(keys);
    return ATL_ENOMEM;
  }
  for (size_t j = 0; j < nold; j++) {
    m->state[j] = run->drop_others ? OLD_DROPPED : OLD_KEPT;
    atl_row_key(&old->rows[j], keys[j], sizeof keys[j]);
  }
  for (size_t i = 0; i < spec->count; i++) {
    m->reuse[i] = SIZE_MAX;
    if (nold == 0)
      continue;
    struct atl_row row;
    char key[640], bad[500] = ""; /* the first reason an old row of this configuration cannot be reused */
    spec->configure(spec->arg, i, &row);
    atl_row_key(&row, key, sizeof key);
    for (size_t j = 0; j < nold; j++) {
      if (m->state[j] == OLD_DONE || m->state[j] == OLD_PENDING || strcmp(keys[j], key) != 0)
        continue;
      char why[400] = "no validation for this kind";
      if (m->reuse[i] == SIZE_MAX && spec->validate && spec->validate(&old->rows[j], why, sizeof why) == 0) {
        m->reuse[i] = j;
        m->state[j] = OLD_PENDING;
        continue;
      }
      if (m->reuse[i] == SIZE_MAX && bad[0] == '\0')
        snprintf(bad, sizeof bad, "row %zu: %s", j, why);
      m->state[j] = OLD_DONE; /* a bad row, or a second row of one configuration: the new set has one */
    }
    /* Measured again: a configuration whose rows all failed (not one with a good row beside a bad one). */
    if (m->reuse[i] == SIZE_MAX && bad[0] && report->invalid++ == 0)
      snprintf(report->first_invalid, sizeof report->first_invalid, "%s", bad);
  }
  for (size_t j = 0; j < nold; j++) {
    report->kept += m->state[j] == OLD_KEPT;
    report->dropped += m->state[j] == OLD_DROPPED;
  }
  free(keys);
  return 0;
}

/* The rows a checkpoint holds: the sweep's so far, then the old rows still
 * pending or kept, so that a checkpoint written over the resume file loses
 * none of them. Shallow copies: only view->rows is freed. */
static int checkpoint(const struct atl_sweep_run *run, const struct atl_result_set *set, const struct matching *m)
{
  struct atl_result_set view = *set;
  const struct atl_result_set *old = run->resume;
  size_t extra = 0;
  for (size_t j = 0; old && j < old->count; j++)
    extra += m->state[j] == OLD_KEPT || m->state[j] == OLD_PENDING;
  if (extra) {
    view.rows = malloc((set->count + extra) * sizeof *view.rows);
    if (view.rows == NULL)
      return ATL_ENOMEM;
    memcpy(view.rows, set->rows, set->count * sizeof *view.rows);
    for (size_t j = 0; j < old->count; j++)
      if (m->state[j] == OLD_KEPT || m->state[j] == OLD_PENDING)
        view.rows[view.count++] = old->rows[j];
    view.cap = view.count;
  }
  run->checkpoint(run->arg, &view);
  if (view.rows != set->rows)
    free(view.rows);
  return 0;
}

/* An urgent stop (a second signal, atl_stop_offer) writes the checkpoint of
 * the rows so far from another thread. The sweep holds the lock except while
 * a configuration is measured, the long wait an urgent stop cuts short; the
 * writer waits at most URGENT_WAIT_S for it and otherwise writes nothing (the
 * last periodic checkpoint stays). */
#define URGENT_WAIT_S 5
struct urgent {
  pthread_mutex_t lock;
  const struct atl_sweep_run *run;
  const struct atl_result_set *set;
  const struct matching *m;
};

static void urgent_write(void *arg)
{
  struct urgent *u = arg;
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += URGENT_WAIT_S;
  if (pthread_mutex_timedlock(&u->lock, &until) != 0)
    return;
  checkpoint(u->run, u->set, u->m);
  pthread_mutex_unlock(&u->lock);
}

/* One configuration measured with the device's clocks watched (timing.h); the first reason clocks are
 * unknown goes to the run's facts. */
static int measure_watched(atl_context_t ctx, const struct atl_sweep_spec *spec, const struct atl_sweep_run *run,
                           size_t i, const struct atl_timing *timing, struct atl_row *row, struct atl_run_meta *meta,
                           struct urgent *u)
{
  struct atl__clock_watch w;
  atl__clock_watch_begin(&w, ctx, run->timing->discard_throttled);
  pthread_mutex_unlock(&u->lock);
  int err = spec->measure(ctx, spec->arg, i, timing, row);
  pthread_mutex_lock(&u->lock);
  atl__clock_watch_end(&w, err < 0 ? NULL : row);
  if (meta->clocks[0] == '\0')
    snprintf(meta->clocks, sizeof meta->clocks, "%s", w.known ? "read per row and sample (NVML)" : w.why);
  return err;
}

/* --repeat and --rounds: the passes after the first. A sweep runs repeats x rounds whole passes; each
 * configuration measured in the first pass (rows[slot[i]] of the set) is measured again in every later one,
 * so that drift shows as spread. Consecutive passes form a repeat, one round each; a repeat's row is its
 * round of median time, and the configuration's row the repeat of median time (the lower middle for an even
 * count), whole at both steps, so that its samples, statistics and metrics agree. A visit that is not ok or
 * not verified is kept instead: a failure is never voted away. */
static int is_bad(const struct atl_row *r)
{
  return r->status != ATL_STATUS_OK || !r->verified;
}

static int by_median(const void *a, const void *b)
{
  const struct atl_row *x = a, *y = b;
  return (x->time_ms.median > y->time_ms.median) - (x->time_ms.median < y->time_ms.median);
}

/* Moves the row of median time among rows[0..n) (n >= 1; reordered) into *out and releases the others;
 * where @p count_name is given, records n and the spread (and, with @p deviation_name, the largest
 * deviation) of their median times. */
static void keep_median(struct atl_row *rows, unsigned n, struct atl_row *out, const char *count_name,
                        const char *spread_name, const char *deviation_name)
{
  unsigned pick = 0;
  for (unsigned k = 0; k < n && !is_bad(&rows[pick]); k++)
    if (is_bad(&rows[k]))
      pick = k;
  double lo = rows[0].time_ms.median, hi = lo;
  for (unsigned k = 1; k < n; k++) {
    lo = rows[k].time_ms.median < lo ? rows[k].time_ms.median : lo;
    hi = rows[k].time_ms.median > hi ? rows[k].time_ms.median : hi;
  }
  if (!is_bad(&rows[pick])) {
    qsort(rows, n, sizeof *rows, by_median);
    pick = (n - 1) / 2;
  }
  *out = rows[pick];
  for (unsigned k = 0; k < n; k++)
    if (k != pick)
      atl_row_release(&rows[k]);
  if (count_name == NULL)
    return;
  atl_row_metric_set(out, count_name, n);
  if (out->time_ms.median > 0) {
    const double med = out->time_ms.median;
    atl_row_metric_set(out, spread_name, (hi - lo) / med);
    if (deviation_name)
      atl_row_metric_set(out, deviation_name, (hi - med > med - lo ? hi - med : med - lo) / med);
  }
}

/* Configuration @p i's @p n visits (visits[0] its first pass's row, moved out of the set): each run of
 * @p rounds consecutive visits is one repeat (the last one short where the sweep was stopped). */
static void keep_median_repeat(struct atl_row *kept, struct atl_row *visits, unsigned n, unsigned rounds,
                               unsigned repeats)
{
  struct atl_row groups[64];
  unsigned ngroups = 0;
  double visits_ms[64];
  const unsigned nvisits = n < 64 ? n : 64;
  for (unsigned k = 0; k < nvisits; k++)
    visits_ms[k] = visits[k].time_ms.median; /* before keep_median reorders them */
  for (unsigned g = 0; g * rounds < n && ngroups < 64; g++) {
    const unsigned in = n - g * rounds < rounds ? n - g * rounds : rounds;
    keep_median(visits + g * rounds, in, &groups[ngroups++], rounds > 1 ? "rounds" : NULL, "round_spread", NULL);
  }
  keep_median(groups, ngroups, kept, repeats > 1 ? "repeats" : NULL, "repeat_spread", "repeat_deviation");
  memcpy(kept->visits_ms, visits_ms, nvisits * sizeof *visits_ms);
  kept->nvisits = nvisits;
}

/* The order of later pass @p pass (rounds > 1): a permutation drawn from the pass number, so that the
 * traffic before a configuration (which moves a contended cell's level, docs/design/method.md) differs from round
 * to round; the same for every run. */
static void pass_order(size_t *order, size_t n, unsigned pass, unsigned rounds)
{
  for (size_t k = 0; k < n; k++)
    order[k] = k;
  if (rounds <= 1)
    return; /* --repeat alone: the first pass's order, as measured before rounds */
  uint64_t x = 0x9e3779b97f4a7c15ull * (pass + 1);
  for (size_t k = n; k > 1; k--) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift64 */
    const size_t j = (size_t)(x % k), t = order[k - 1];
    order[k - 1] = order[j];
    order[j] = t;
  }
}

/* Seconds of the repeat that pass @p pass ends (its last round), into the run's facts. */
static void repeat_time(struct atl_run_meta *meta, unsigned pass, unsigned rounds, double *repeat_start)
{
  if ((pass + 1) % rounds != 0 && !atl_stop_requested())
    return;
  const double now = atl__now_s();
  if (meta->nrepeat_s < 64)
    meta->repeat_s[meta->nrepeat_s++] = now - *repeat_start;
  *repeat_start = now;
}

static int repeat_passes(atl_context_t ctx, const struct atl_sweep_spec *spec, const struct atl_sweep_run *run,
                         struct atl_result_set *set, const size_t *slot, size_t first_passes, double *repeat_start,
                         struct urgent *u)
{
  const unsigned repeats = run->timing->repeats > 64 ? 64 : run->timing->repeats ? run->timing->repeats : 1;
  const unsigned rounds = run->timing->rounds > ATL_MAX_ROUNDS ? ATL_MAX_ROUNDS
                          : run->timing->rounds               ? run->timing->rounds
                                                              : 1;
  const unsigned passes = repeats * rounds;
  const size_t per = passes - 1;
  const size_t nextra = spec->count * per;
  struct atl_row *extra = calloc(nextra ? nextra : 1, sizeof *extra);
  unsigned *done = calloc(spec->count ? spec->count : 1, sizeof *done);
  size_t *order = malloc((first_passes ? first_passes : 1) * sizeof *order);
  int err = extra && done && order ? 0 : ATL_ENOMEM;
  for (unsigned p = 1; !err && p < passes && !atl_stop_requested(); p++) {
    pass_order(order, first_passes, p, rounds);
    for (size_t k = 0; !err && k < first_passes && !atl_stop_requested(); k++) {
      const size_t i = order[k];
      if (slot[i] == SIZE_MAX)
        continue; /* reused from the resume file: measured by its own run */
      if (run->before_row)
        run->before_row(run->arg, p * spec->count + k, passes * spec->count);
      /* The same work as the first pass: its iteration count, not a new calibration (a CAS loop's cost
       * per operation changes with the count, and a repeat must measure the same thing again). */
      struct atl_timing same = *run->timing;
      const double iters = atl_row_metric(&set->rows[slot[i]], "iters", 0);
      if (same.fixed_iters == 0 && iters >= 1 && iters <= same.max_iters)
        same.fixed_iters = (uint32_t)iters;
      if ((err = measure_watched(ctx, spec, run, i, &same, &extra[i * per + done[i]], &set->meta, u)) < 0)
        break;
      err = 0;
      done[i]++;
    }
    repeat_time(&set->meta, p, rounds, repeat_start);
  }
  struct atl_row *visits = err ? NULL : malloc(passes * sizeof *visits);
  if (!err && visits == NULL)
    err = ATL_ENOMEM;
  for (size_t i = 0; visits && i < first_passes; i++)
    if (slot[i] != SIZE_MAX && done[i]) {
      visits[0] = set->rows[slot[i]];
      memcpy(visits + 1, &extra[i * per], done[i] * sizeof *visits);
      keep_median_repeat(&set->rows[slot[i]], visits, done[i] + 1, rounds, repeats);
      memset(&extra[i * per], 0, done[i] * sizeof *extra); /* moved */
    }
  for (size_t j = 0; extra && j < nextra; j++)
    atl_row_release(&extra[j]); /* visits not combined (out of memory): nothing else owns them */
  free(visits);
  free(extra);
  free(done);
  free(order);
  return err;
}

/* Appends old row @p j (its samples move into the set). */
static int take_old(struct atl_result_set *set, struct atl_result_set *old, size_t j)
{
  struct atl_row row = old->rows[j];
  old->rows[j].samples_ms = NULL;
  int err = atl_result_set_add(set, &row);
  if (err)
    old->rows[j].samples_ms = row.samples_ms;
  return err;
}

/* NULLs where a spec, run, set, report, kind, measure or timing is needed, timing refused, a flag not 0 or 1:
 * ATL_EINVAL naming it (on @p ctx, which may be NULL: the measure callback is what needs one), else 0. */
static int sweep_args_checked(atl_context_t ctx, const struct atl_sweep_spec *spec, const struct atl_sweep_run *run,
                              const struct atl_result_set *set, const struct atl_sweep_report *report)
{
  const struct {
    const void *p;
    const char *name;
  } needed[] = {{spec, "spec"},
                {run, "run"},
                {set, "set"},
                {report, "report"},
                {spec ? spec->kind : NULL, "spec->kind"},
                {spec && spec->measure ? (const void *)spec : NULL, "spec->measure"},
                {run ? run->timing : NULL, "run->timing"}};
  for (size_t i = 0; i < sizeof needed / sizeof needed[0]; i++)
    if (needed[i].p == NULL)
      return atl__seterr(ctx, ATL_EINVAL, "sweep: %s is NULL: it is needed", needed[i].name);
  char why[200];
  if (atl_timing_check(run->timing, why, sizeof why))
    return atl__seterr(ctx, ATL_EINVAL, "sweep: %s", why);
  if ((run->drop_others != 0 && run->drop_others != 1) || !(run->checkpoint_s >= 0))
    return atl__seterr(ctx, ATL_EINVAL, "sweep: %s is not allowed: %s",
                       run->drop_others != 0 && run->drop_others != 1 ? "drop_others" : "checkpoint_s",
                       run->drop_others != 0 && run->drop_others != 1 ? "0 or 1" : "0 (none) or more seconds");
  return 0;
}

int atl_sweep(atl_context_t ctx, const struct atl_sweep_spec *spec, const struct atl_sweep_run *run,
              struct atl_result_set *set, struct atl_sweep_report *report)
{
  struct matching m = {0};
  const int invalid = sweep_args_checked(ctx, spec, run, set, report);
  if (invalid)
    return invalid;
  memset(report, 0, sizeof *report);
  if (set->kind[0] == '\0')
    snprintf(set->kind, sizeof set->kind, "%s", spec->kind);
  int err = match_resume(spec, run, &m, report);
  set->meta.rows_planned = spec->count + report->kept; /* a complete file holds the sweep and the kept rows */
  size_t *slot = malloc((spec->count ? spec->count : 1) * sizeof *slot); /* a measured configuration's row */
  if (!err && slot == NULL)
    err = ATL_ENOMEM;
  size_t i = 0;
  double last_checkpoint = atl__now_s(), repeat_start = last_checkpoint;
  struct urgent u = {PTHREAD_MUTEX_INITIALIZER, run, set, &m};
  pthread_mutex_lock(&u.lock);
  if (run->checkpoint && !err) /* a part of a sweep on several devices: the devices' sweep offers its own */
    atl_stop_offer(urgent_write, &u);
  for (; !err && i < spec->count && !atl_stop_requested(); i++) {
    struct atl_row row;
    const int reused = m.reuse[i] != SIZE_MAX;
    if (reused) {
      struct atl_row *old = &run->resume->rows[m.reuse[i]];
      row = *old;
      old->samples_ms = NULL; /* moved into the new set */
      m.state[m.reuse[i]] = OLD_DONE;
      /* Validated: the median is its samples'; the rest of the statistics are recomputed from them too. */
      if (row.samples_ms) {
        const int noisy = row.time_ms.noisy; /* judged against the target it was sampled to */
        atl_stats_compute(row.samples_ms, row.time_ms.samples, &row.time_ms);
        /* with placements, the noise is the spread within them, as it was sampled (docs/design/method.md) */
        const double within = atl__sampling_noise(row.samples_ms, row.time_ms.samples,
                                                  (unsigned)atl_row_metric(&row, "placements", 1),
                                                  run->timing->rotate);
        if (within >= 0)
          row.time_ms.noise = within;
        row.time_ms.noisy = noisy;
      }
      report->reused++;
    } else {
      if (run->before_row)
        run->before_row(run->arg, i, spec->count * (run->timing->repeats ? run->timing->repeats : 1) *
                                         (run->timing->rounds ? run->timing->rounds : 1));
      if ((err = measure_watched(ctx, spec, run, i, run->timing, &row, &set->meta, &u)) < 0)
        break;
      report->measured++;
    }
    if ((err = atl_result_set_add(set, &row)) != 0) {
      atl_row_release(&row);
      break;
    }
    slot[i] = reused ? SIZE_MAX : set->count - 1;
    if (run->after_row)
      run->after_row(run->arg, i, &set->rows[set->count - 1], reused);
    /* A checkpoint now and then: a run killed outright keeps what it measured. */
    if (run->checkpoint && run->checkpoint_s > 0 && atl__now_s() - last_checkpoint >= run->checkpoint_s &&
        i + 1 < spec->count) {
      err = checkpoint(run, set, &m);
      last_checkpoint = atl__now_s();
    }
  }
  repeat_time(&set->meta, 0, run->timing->rounds ? run->timing->rounds : 1, &repeat_start);
  if (!err && slot && (run->timing->repeats > 1 || run->timing->rounds > 1))
    err = repeat_passes(ctx, spec, run, set, slot, i, &repeat_start, &u);
  pthread_mutex_unlock(&u.lock); /* before the withdrawal: a writer waiting for the lock ends first */
  if (run->checkpoint)
    atl_stop_offer(NULL, NULL);
  pthread_mutex_destroy(&u.lock);
  free(slot);
  /* The old rows that stay: those outside the sweep, and (stopped early) those not reused yet. */
  for (size_t j = 0; !err && run->resume && j < run->resume->count; j++)
    if (m.state[j] == OLD_KEPT || m.state[j] == OLD_PENDING)
      err = take_old(set, run->resume, j);
  free(m.state);
  free(m.reuse);
  return err;
}
