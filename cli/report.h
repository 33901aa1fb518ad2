/* The documents of `atomlab report`: report.md and a self-contained report.html. */
#ifndef ATOMLAB_CLI_REPORT_H
#define ATOMLAB_CLI_REPORT_H

#include <stddef.h>

/** What the command prints when the report is written. */
struct report_summary {
  char device[256];
  size_t rows, verified;
  char best_pattern[32]; /**< the fastest pattern at the lowest contention and padding */
  double best_gops;
};

/**
 * Writes DIR/report.md and DIR/report.html from the sweep @p json and the
 * images in @p figures (@p plot_log is named where there are none).
 * Returns 0, or -1 with a one-line reason in @p why.
 */
int report_write(const char *dir, const char *json, const char *figures, const char *plot_log,
                 struct report_summary *sum, char *why, size_t why_len);

#endif
