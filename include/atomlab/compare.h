/**
 * @file compare.h
 * Two sets of rows (any kind, any file version) paired by configuration,
 * with a verdict per pair that respects the noise the samples show
 * (docs/design/metrics.md states the rule), and a summary.
 */
#ifndef ATOMLAB_COMPARE_H
#define ATOMLAB_COMPARE_H

#include "experimental.h" /* not the stable API */

#include <stddef.h>
#include <stdio.h>

#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What B is against A. */
enum atl_verdict { ATL_VERDICT_SAME, ATL_VERDICT_FASTER, ATL_VERDICT_SLOWER, ATL_VERDICT_UNCLEAR, ATL_VERDICT_NA,
                   ATL_VERDICT_COUNT };

/** "same", "faster", "slower", "unclear", "n/a". */
const char *atl_verdict_name(enum atl_verdict v);

/** A row's times as a comparison uses them: from its raw samples where recorded, else as the row states them. */
struct atl_row_times {
  int timed;             /**< status ok and a positive, ordered median and quartiles */
  double median, q1, q3; /**< ms per launch */
  size_t samples;        /**< raw samples they come from (0: the row's statistics as recorded) */
  double spread;         /**< the row's repeat_spread (--repeat), 0 where measured once */
  const char *implausible; /**< why its time or rate cannot be a measurement (then not timed), or NULL */
};

void atl_row_times(const struct atl_row *row, struct atl_row_times *out);

/** One row of A with the row of B of the same configuration (either may be NULL: a row only one set has). */
struct atl_compare_pair {
  const struct atl_row *a, *b;
  struct atl_row_times ta, tb;
  enum atl_verdict verdict; /**< both present */
  double ratio;             /**< B median / A median (time): below 1 means B is faster; 0 for n/a */
  char flags[128];          /**< "A:error", "B:not-verified", then the notes: "instructions-differ", "iters-differ", "noisy" */
  int flagged;              /**< a side not ok or not verified */
  unsigned notes;           /**< ATL_COMPARE_* : the two rows did not run the same work */
  unsigned duplicate;       /**< 1: a, 2: b has the configuration of an earlier row of its own set */
};

/** Notes of a pair: other atomic instructions, iteration counts more than 25% apart, or a side whose noise
 *  stayed above its run's target (its verdict is the weaker for it). */
enum { ATL_COMPARE_INSTRUCTIONS = 1, ATL_COMPARE_ITERS = 2, ATL_COMPARE_NOISY = 4 };

/** A comparison: the pairs (A's rows in order, then B's unmatched ones) and their summary. An unmatched row that
 *  repeats an earlier row's configuration of its own set counts as a duplicate, not as only_a / only_b. */
struct atl_comparison {
  double threshold; /**< relative difference of the medians that counts */
  struct atl_compare_pair *pairs;
  size_t count;
  size_t counts[ATL_VERDICT_COUNT], only_a, only_b, flagged, timed, instructions_differ, iters_differ,
      noisy;
  double geomean; /**< of B/A time ratios over the pairs both timed (0 if none) */
  size_t duplicates_a, duplicates_b; /**< rows with the configuration of an earlier row of the same set */
  size_t implausible;                /**< rows of either set whose time or rate is no measurement */
};

/**
 * Pairs each row of @p a with the first unused row of @p b of the same
 * configuration (atl_row_key: repeats pair up in order) and decides: faster
 * or slower where the medians differ by more than @p threshold and the IQRs
 * do not overlap, unclear where they overlap, same within the threshold,
 * n/a where a row has no time. @p ignore (a comma list, or NULL) names
 * configuration fields left out of the match (two backends size their
 * grids by their own occupancy). Pairs that did not run the same work are
 * noted: other atomic instructions, or iteration counts more than 25%
 * apart. The pairs point into the sets, which must outlive @p out.
 * Returns 0 or ATL_ENOMEM.
 */
int atl_compare(const struct atl_result_set *a, const struct atl_result_set *b, double threshold, const char *ignore,
                struct atl_comparison *out);

void atl_comparison_release(struct atl_comparison *c);

/** Whether the @p n bytes at @p name are a configuration field of some row kind (atl_row_kinds). */
int atl_config_field_known(const char *name, size_t n);

/**
 * Writes @p c as @p format: ATL_FORMAT_TABLE (one line per pair, the rows
 * only one set has, a summary), ATL_FORMAT_CSV or ATL_FORMAT_JSON (with
 * both files' provenance; @p paths names them), the configuration fields
 * either of @p a and @p b has as columns. Returns 0, or ATL_EIO if @p out
 * reports an error.
 */
int atl_comparison_write(FILE *out, enum atl_format format, const struct atl_comparison *c,
                         const struct atl_result_set *a, const struct atl_result_set *b, const char *const paths[2]);

#ifdef __cplusplus
}
#endif
#endif
