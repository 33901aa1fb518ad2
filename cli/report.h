/* The documents of `atomlab report`: report.md and a self-contained report.html. */
#ifndef ATOMLAB_CLI_REPORT_H
#define ATOMLAB_CLI_REPORT_H

#include <stddef.h>
#include <stdio.h>

/** What the command prints when the report is written. */
struct report_summary {
  char device[256];
  size_t rows, verified;
  char best_pattern[32]; /**< the fastest pattern at the lowest contention and padding */
  double best_gops;
};

/** The other steps' files, for the Strategies, Histogram and Model sections (any may be missing). */
struct report_extra {
  const char *strategy_json, *strategy_log, *strategy_args; /**< args: the settings, for the text */
  const char *hist_json, *hist_log, *hist_args;
  const char *figures;
  const char *smem_table; /**< results/<device slug>/smem-table.csv */
  const char *datasheet_rmw; /**< the datasheet's rmw rows (data/datasheet-rmw.json), or NULL */
  const struct atl_result_set *datasheet; /**< filled by report_write from datasheet_rmw */
  int cuda;
};

/** Writes the Strategies, Histogram and Model sections as Markdown (@p html 0) or HTML. */
void report_sections(FILE *o, int html, const struct report_extra *x);

/** `report --compare`: the report folders @p dirs side by side in the Markdown file @p out; an exit status. */
int report_compare(char **dirs, int ndirs, const char *out);

/** The file's bytes in base64 (a data: URL's payload); -1 if it cannot be read. */
int report_base64_file(FILE *o, const char *path);

/**
 * Writes DIR/report.md and DIR/report.html from the sweep @p json and the
 * images in @p figures (@p plot_log is named where there are none), and
 * the sections of @p extra.
 * Returns 0, or -1 with a one-line reason in @p why.
 */
int report_write(const char *dir, const char *json, const char *figures, const char *plot_log,
                 const struct report_extra *extra, struct report_summary *sum, char *why, size_t why_len);

#endif
