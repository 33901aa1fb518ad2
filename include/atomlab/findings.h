/**
 * @file findings.h
 * What a set of results found, in sentences with their numbers and spread
 * (the report's first section; issue [report-findings]). A finding is made
 * only where the difference it states is larger than the noise: each
 * rate's spread is its interquartile range (rate at q3 and q1 time), a
 * ratio's spread the ratio of the opposite ends, and a ratio whose spread
 * reaches within 5% of 1 is not stated as a difference.
 */
#ifndef ATOMLAB_FINDINGS_H
#define ATOMLAB_FINDINGS_H

#include "experimental.h" /* not the stable API */

#include <stddef.h>

#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One finding: a topic and a sentence; @p ratio with its spread [lo, hi] where it states one (else 0). */
struct atl_finding {
  char topic[24]; /**< "pattern", "same-line", "red-atom", "per-clock", "strategy", "histogram", "noise", "cpu", "knee",
                       "unstable" (a difference within one pass that did not hold in every --repeat pass) */
  char text[512];
  double ratio, lo, hi;
};

/** A growing list of findings (owns its items). */
struct atl_findings {
  struct atl_finding *items;
  size_t count, cap;
};

/**
 * Appends the findings of an rmw set: per pattern the cost of the highest
 * contention against one thread per word, neighbouring words against one
 * word per 128-byte line, result unused (RED) against used (ATOM), the
 * rates per clock and per compute unit beside the GTC 2013 figures, the
 * noise of the set, and on a CPU device what its numbers do not say.
 * 0, or ATL_ENOMEM.
 */
int atl_findings_rmw(const struct atl_result_set *set, struct atl_findings *out);

/** Appends the findings of a strategy set: per pattern, the winner and its margin over the runner-up. */
int atl_findings_strategy(const struct atl_result_set *set, struct atl_findings *out);

/** Appends the findings of a histogram app set: per input, the fastest variant against the read ceiling and CUB. */
int atl_findings_histogram(const struct atl_result_set *set, struct atl_findings *out);

/** Appends the findings of a datasheet (datasheet.h): result unused (RED) against used (ATOM) for add and CAS. */
int atl_findings_datasheet(const struct atl_result_set *set, struct atl_findings *out);

void atl_findings_release(struct atl_findings *f);

#ifdef __cplusplus
}
#endif
#endif
