/* Reading any atomlab result file (rmw, strategy, ...) as generic rows:
 * what plot and compare stand on. Rows keep their JSON object, so fields
 * this reader does not know are still there for whoever needs them. */
#ifndef ATOMLAB_CLI_RESULTFILE_H
#define ATOMLAB_CLI_RESULTFILE_H

#include <cjson/cJSON.h>
#include <stddef.h>

/** The configuration fields of a row, in the order keys and labels list them.
 *  A row has the ones its command measures (strategy rows may lack type...). */
extern const char *const rf_config_fields[];
extern const size_t rf_config_count;

/** One row of a result file. */
struct rf_row {
  const cJSON *obj;      /**< the row object (owned by the file) */
  char key[640];         /**< "field=value;..." over the configuration fields present */
  const char *status;    /**< "ok", "error", ... ("?" when absent) */
  int verified;          /**< 1 true, 0 false, -1 absent */
  int has_time;          /**< time_ms.median (or samples) is there and positive */
  double median, q1, q3; /**< ms per launch; from samples_ms when present */
  double gops;           /**< the row's gops, 0 when absent */
  double *samples;       /**< samples_ms (owned), NULL when absent */
  size_t nsamples;
};

/** A result file. */
struct rf_file {
  char path[1024];
  cJSON *root;
  int format_version;
  const char *device;  /**< device.name ("?" when absent) */
  const char *backend; /**< device.backend ("?" when absent) */
  const char *commit;  /**< tool.commit ("" when absent) */
  const char *date;
  struct rf_row *rows;
  size_t count;
};

/** Loads @p path. Returns 0, or -1 with a one-line reason in @p why:
 *  a missing file, text that is not JSON, a file that is not an atomlab result
 *  (no format_version or rows), a format_version this build does not read, or
 *  a row that is not an object or has no configuration field. */
int rf_load(const char *path, struct rf_file *f, char *why, size_t why_len);

/** The whole file as a NUL-terminated string (free it), or NULL with the reason in @p why. */
char *rf_slurp(const char *path, char *why, size_t why_len);

/** Frees what rf_load allocated. */
void rf_free(struct rf_file *f);

/** The row's value of a configuration field as text ("" when absent). */
const char *rf_field(const struct rf_row *r, const char *field, char *buf, size_t len);

/** A number field of the row, or @p fallback. */
double rf_number(const struct rf_row *r, const char *field, double fallback);

/** Whether the row has a usable time: status ok and a positive median. */
int rf_row_timed(const struct rf_row *r);

#endif
