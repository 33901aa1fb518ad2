/**
 * @file sweep.h
 * One sweep for every command: configurations measured in order into one
 * set of rows, rows of an earlier file reused where they validate (resume),
 * checkpoints while it runs, and a stop after the current row when a signal
 * asked for one (atomlab/stop.h). The command says what a configuration is
 * (its row's configuration, how to measure it, which old rows may stand for
 * it); the sweep does the rest, so every command resumes, checkpoints and
 * stops the same way.
 * Threads: a context is used by one thread at a time (one context per thread); the functions that take
 * no context are reentrant (include/atomlab/context.h). Stable API: exported by libatomlab.so.1.
 */
#ifndef ATOMLAB_SWEEP_H
#define ATOMLAB_SWEEP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "device.h"
#include "experiment.h"
#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a sweep measures: @p count configurations of one row kind. */
struct atl_sweep_spec {
  const char *kind; /**< the kind of its rows (result.h) */
  size_t count;     /**< configurations */
  /** Starts the row of configuration @p i: atl_row_init() and its configuration (what resumed rows are
   *  matched by); may be NULL when the run has no resume rows. */
  void (*configure)(const void *arg, size_t i, struct atl_row *row);
  /** Measures configuration @p i into @p row (result.h's setters: atl_row_set_status, _set_verified,
   *  _set_samples, atl_row_metric_set); a negative code stops the sweep (out of host memory). */
  int (*measure)(atl_context_t ctx, const void *arg, size_t i, const struct atl_timing *timing, struct atl_row *row);
  /** Whether an old row may stand for a new measurement (NULL: old rows are never reused). */
  int (*validate)(const struct atl_row *row, char *why, size_t why_len);
  const void *arg;
};

/** How a sweep runs. */
struct atl_sweep_run {
  const struct atl_timing *timing;
  struct atl_result_set *resume; /**< rows of an earlier file, or NULL; the rows reused are moved out of it */
  int drop_others;               /**< leave out the resume file's rows of configurations outside this sweep */
  double checkpoint_s;           /**< seconds between checkpoints (0: none) */
  /** Writes a checkpoint: the rows so far, then the resume file's rows still to reuse or kept. */
  void (*checkpoint)(void *arg, const struct atl_result_set *rows);
  /** Before configuration @p i is measured (not when it is reused): a progress line. */
  void (*before_row)(void *arg, size_t i, size_t count);
  /** After row @p i is in the set (measured, or reused when @p reused). */
  void (*after_row)(void *arg, size_t i, const struct atl_row *row, int reused);
  void *arg;
};

/** What a sweep did with the resume file's rows. */
struct atl_sweep_report {
  size_t measured;       /**< configurations measured */
  size_t reused;         /**< configurations taken from the resume file */
  size_t invalid;        /**< configurations whose old rows all failed validation, measured again */
  char first_invalid[600]; /**< the first of those: "row N: why" */
  size_t kept, dropped;  /**< old rows outside the sweep kept after its rows, or dropped */
};

/**
 * Runs @p spec into @p set (whose meta, kind and count the caller set up;
 * rows are appended): every configuration in order, reusing the first old
 * row of the same configuration that validates, then the kept old rows.
 * A stop request ends it after the current row, and the set then holds the
 * rows measured so far followed by every old row not yet reused (nothing
 * measured or read is lost). Returns 0, or a negative code (out of host
 * memory, or the measure callback's; ATL_EINVAL, the context's message naming
 * it, for a NULL spec, run, set, report, kind, measure or timing, timing
 * settings atl_timing_check() refuses, or drop_others not 0 or 1).
 */
int atl_sweep(atl_context_t ctx, const struct atl_sweep_spec *spec, const struct atl_sweep_run *run,
              struct atl_result_set *set, struct atl_sweep_report *report);

/** One device's part of a sweep over several devices (atl_sweep_devices()). */
struct atl_sweep_part {
  atl_context_t ctx;          /**< its own context with its device open: a context is used by one thread */
  struct atl_sweep_spec spec; /**< its configurations: the same count and order on every device (the launch
                                   shape may differ); its callbacks run on the part's thread */
};

/**
 * The sweep of atl_sweep() on several devices at once: one thread per part,
 * each part's rows tagged with the configuration value "device" (its
 * device's id), so rows of one configuration on two devices are two keys.
 * The run's before_row, after_row and checkpoint callbacks are called by one
 * thread at a time (a lock): they are the one writer of the table and the
 * checkpoints, which hold every row completed on any device so far, then
 * every row of the resume file not measured again. Rows of the resume file
 * go to the part of the device they name; rows that name none of the
 * devices are kept after the sweep's rows (dropped with drop_others). A stop
 * request ends every part after its current row. @p set receives each
 * part's rows in part order, then the kept rows; @p report sums the parts'.
 * Returns 0, or the first part's negative code (the other parts still run,
 * and every row completed is in @p set).
 */
int atl_sweep_devices(struct atl_sweep_part *parts, size_t nparts, const struct atl_sweep_run *run,
                      struct atl_result_set *set, struct atl_sweep_report *report);

/** Most devices and output files atl_sweep_command() drives. */
#define ATL_SWEEP_MAX_OUTPUTS 4

/**
 * A sweep command's whole run (rmw, strategy): the sweep on one device or
 * on several at once (atl_sweep_devices()), the live table, the progress
 * line, the quiet checkpoints of every output file and the count of rows
 * that failed. The caller parses, checks and builds the configurations
 * first, and prints and writes the final files after.
 */
struct atl_sweep_job {
  atl_context_t *ctxs; /**< one context per device, each with its device open */
  size_t nctx;
  int multi; /**< rows name their device (atl_sweep_devices()), even where the list is one device */
  /** count: configurations per device; the callbacks' @p i runs over nctx * count (device d's
   *  configuration i is d * count + i) */
  struct atl_sweep_spec spec;
  FILE *table; /**< the live table: header, each row as it completes, the resume file's kept rows; or NULL */
  FILE *progress; /**< a progress line once a sweep runs 2 s or more (a terminal), or NULL */
  /** The progress text of configuration @p i (without "[i/n]"); may be NULL when @p progress is. */
  void (*describe)(const void *arg, size_t i, char *buf, size_t len);
  const char *const *out_paths; /**< the -o files a checkpoint rewrites (quietly: the caller writes them last) */
  const int *out_formats;       /**< enum atl_format of each */
  size_t nout;
  double checkpoint_s; /**< seconds between checkpoints (0: none) */
  /** Called on the set being built before each checkpoint (ranks, totals); may be NULL. */
  void (*before_checkpoint)(struct atl_result_set *set);
  double started_s; /**< atl_sweep_clock() when the command started: meta.elapsed_s kept current; 0: not */
};

/** What atl_sweep_command() did. */
struct atl_sweep_outcome {
  struct atl_sweep_report report;
  size_t planned;  /**< configurations on every device */
  int failures;    /**< rows that failed or did not verify (atl_row_failed()) */
  int table_open;  /**< the live table still writes (a closed stdout ends it, not the sweep) */
};

/**
 * Whether a plan of @p rows may run: 0 where it has at most @p max_rows,
 * else ATL_EINVAL with "N rows, T or more at S s a row" in @p why (a floor
 * of its time under @p t: its samples and calibration at the target time),
 * so that a sweep that cannot finish is refused before it starts.
 */
int atl_plan_check(size_t rows, uint64_t max_rows, const struct atl_timing *t, char *why, size_t len);

/** Monotonic seconds (for atl_sweep_job's started_s). */
double atl_sweep_clock(void);

/**
 * Runs @p job into @p set (its kind and meta set by the caller) with the
 * timing, resume rows and drop_others of @p timing, @p resume, @p drop_others
 * as struct atl_sweep_run has them. meta.complete says whether every
 * configuration has its row. Returns 0, or a negative code (out of host
 * memory), with @p out filled either way.
 */
int atl_sweep_command(const struct atl_sweep_job *job, const struct atl_timing *timing, struct atl_result_set *resume,
                      int drop_others, struct atl_result_set *set, struct atl_sweep_outcome *out);

#ifdef __cplusplus
}
#endif
#endif
