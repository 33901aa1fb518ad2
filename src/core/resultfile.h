/* Result files as compare and plot pair and draw them: the library's rows
 * (atl_read_json: every kind, both format versions) with each row's key,
 * its times from its samples, and a file's provenance at hand. */
#ifndef ATOMLAB_CLI_RESULTFILE_H
#define ATOMLAB_CLI_RESULTFILE_H

#include <stddef.h>

#include "atomlab.h"

/** Every kind's configuration fields, in the order labels and CSV columns list them
 *  (a row has those of its kind: strategy rows have no type, app rows only app and variant). */
extern const char *const atl__rf_config_fields[];
extern const size_t atl__rf_config_count;

/** One row of a result file. */
struct atl__rf_row {
  const struct atl_row *row; /**< the row (owned by the file's set) */
  char key[640];             /**< its configuration, "field=value;..." (atl_row_key) */
  const char *status;        /**< "ok", "error", ... */
  int verified;              /**< 1 true, 0 false */
  int has_time;              /**< a positive, plausible median (from the samples where recorded; atl_row_times) */
  double median, q1, q3;     /**< ms per launch; from the samples when present */
  double gops;               /**< the row's gops, 0 when absent */
  size_t nsamples;
};

/** A result file. */
struct atl__rf_file {
  char path[1024];
  struct atl_result_set set;
  int format_version;
  const char *device;  /**< device.name ("?" when absent) */
  const char *backend; /**< device.backend ("?" when absent) */
  const char *commit;  /**< tool.commit ("" when absent) */
  const char *date;
  struct atl__rf_row *rows;
  size_t count;
};

/** Loads @p path. Returns 0, or -1 with the reader's one-line reason in @p why. */
int atl__rf_load(const char *path, struct atl__rf_file *f, char *why, size_t why_len);

/** Frees what atl__rf_load allocated. */
void atl__rf_free(struct atl__rf_file *f);

/** The row's configuration value or metric named @p field as text ("" when it has neither). */
const char *atl__rf_field(const struct atl__rf_row *r, const char *field, char *buf, size_t len);

/** A configuration value or metric of the row as a number, or @p fallback. */
double atl__rf_number(const struct atl__rf_row *r, const char *field, double fallback);

/** Whether the row has a usable time: status ok and a positive median. */
int atl__rf_row_timed(const struct atl__rf_row *r);

#endif
