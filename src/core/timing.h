/* Internal: the timing method every benchmark shares (docs/design/method.md):
 * calibrate iterations to a target launch time, then sample to a noise
 * threshold or a time budget. */
#ifndef ATOMLAB_CORE_TIMING_H
#define ATOMLAB_CORE_TIMING_H

#include <stdint.h>

#include "atomlab.h"

/** One timed launch of @p iters iterations per thread from a fresh initial state; 0 or an ATL_E* code. */
typedef int (*atl__launch_fn)(void *arg, uint32_t iters, double *ms);

/** Monotonic seconds. */
double atl__now_s(void);

/** A row measured to the end: status ok, and where it did not verify, the first error as its reason. */
void atl__row_measured(struct atl_row *row, const char *first_error);

/**
 * The rate metrics of an rmw or strategy row: iters, ops (@p nops atomics in
 * all), array_words, and where a time was measured ops_per_us and gops.
 */
void atl__row_rate_metrics(struct atl_row *row, uint32_t iters, uint64_t nops, uint64_t array_words);

/**
 * Grows iters (by at least one per step, at most up to @p cap) until one
 * launch takes the target time. When that took more than one launch, the
 * last one was warm and ran at the final count, so it is handed back as the
 * first sample (*reusable_ms > 0) instead of being thrown away.
 */
int atl__calibrate(atl__launch_fn fn, void *arg, const struct atl_timing *tm, uint32_t cap, uint32_t *iters_out,
                   double *reusable_ms);

/**
 * Takes samples at @p iters until the relative IQR is at or below the
 * threshold (after min_samples) or the budget is spent; fills *@p samples_ms
 * (allocated here, the caller frees it) and @p stats. @p first_ms > 0 is a
 * sample already taken. stats->noisy says the threshold was not reached.
 */
int atl__sample_stats(atl__launch_fn fn, void *arg, const struct atl_timing *tm, uint32_t iters, double first_ms,
                      double **samples_ms, struct atl_stats *stats);

/**
 * The device's clocks watched while one row is measured (docs/design/method.md):
 * read at the start, after every sample and at the end. A sample read as
 * throttled (ATL_THROTTLE_MASK) is counted, and with @p discard taken again
 * (at most max_samples retakes a row, so sampling stays bounded). A watch is
 * per thread: the sweep of each device's worker watches its own device.
 */
struct atl__clock_watch {
  atl_context_t ctx;
  int discard, known, failed;
  unsigned reads, throttled, retaken;
  double sm_min, sm_max, mem_mhz, temperature_max, power_max;
  uint64_t reasons; /* every reason seen */
  char why[160];    /* where clocks are unknown: why */
};
void atl__clock_watch_begin(struct atl__clock_watch *w, atl_context_t ctx, int discard);
/** Stops watching and records what was seen as the row's metrics (nothing where clocks are unknown). */
void atl__clock_watch_end(struct atl__clock_watch *w, struct atl_row *row);

/** One timed launch as atl__launch_fn, with the array at placement @p placement (0 .. placements - 1). */
typedef int (*atl__placed_fn)(void *arg, unsigned placement, uint32_t iters, double *ms);

/**
 * atl__sample into @p row with sample n taken at placement n % @p placements (docs/design/method.md, "Placements"):
 * min_samples is raised to two turns and both bounds to whole turns, sampling stops only at a whole turn, and
 * row->time_ms is the statistics of all samples (so its median is the median across placements, which share
 * the samples equally) with its noise the spread within placements (atl__placement_noise). With one placement,
 * atl__sample without a first sample.
 */
int atl__sample_placed(atl__placed_fn fn, unsigned placements, void *arg, const struct atl_timing *tm,
                       uint32_t iters, struct atl_row *row);

/** Relative IQR of samples over their own placement's median (sample i at placement i % @p p): the noise within
 *  placements; -1 for p <= 1 or without memory. */
double atl__placement_noise(const double *ms, unsigned n, unsigned p);

/** With --rotate (docs/design/method.md, "Rotation"): the relative IQR of each sample over the mean of it and its partner,
 *  the same slot of the other turn of its pair of turns (the same placement and rotation); -1 for p <= 1. */
double atl__pair_noise(const double *ms, unsigned n, unsigned p);

/** The noise a row with @p p placements was sampled to: atl__pair_noise with @p rotate, else atl__placement_noise. */
double atl__sampling_noise(const double *ms, unsigned n, unsigned p, int rotate);

/** (slowest - fastest) / median of the @p p placements' median times; 0 for p <= 1. */
double atl__placement_spread(const double *ms, unsigned n, unsigned p);

/** atl__sample_stats into row->samples_ms and row->time_ms. */
int atl__sample(atl__launch_fn fn, void *arg, const struct atl_timing *tm, uint32_t iters, double first_ms,
                struct atl_row *row);

#endif
