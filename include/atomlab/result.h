/**
 * @file result.h
 * Result rows with statistics, and the writers that turn one set of rows
 * into a table, CSV or JSON (one row struct feeds all three). A row's layout
 * is the library's own: a program makes rows with atl_row_new() and reads
 * them, and a set's (atl_result_set_row()), through the functions here.
 * Threads: a context is used by one thread at a time (one context per thread); the functions that take
 * no context are reentrant (include/atomlab/context.h). Stable API: exported by libatomlab.so.1.
 */
#ifndef ATOMLAB_RESULT_H
#define ATOMLAB_RESULT_H

#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#include "device.h"
#include "experiment.h"
#include "grid.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Version of the JSON/CSV layout; bump on any incompatible change. Version 2
 * is the one result model (every command's rows: configuration as named
 * values, metrics with units); the reader migrates version 1 files.
 */
#define ATL_FORMAT_VERSION 2

/** Status of one row. */
enum atl_status { ATL_STATUS_OK, ATL_STATUS_UNSUPPORTED, ATL_STATUS_SKIPPED, ATL_STATUS_DEADLOCK, ATL_STATUS_ERROR };

/** "ok", "unsupported", ... */
const char *atl_status_name(enum atl_status s);

/** Parses a status name; -1 if unknown. */
int atl_status_parse(const char *s);

/** Summary statistics of a sample of times. */
struct atl_stats {
  unsigned samples;
  double median, min, max, mean, q1, q3;
  double iqr;   /**< q3 - q1 */
  double noise; /**< relative IQR: iqr / median */
  int noisy;    /**< sampling ended (budget or most samples) with noise still above its target: the row is flagged */
};

/** Computes statistics of @p n values (n may be 0: all fields zero; noisy is left 0). Quartiles by linear interpolation. */
void atl_stats_compute(const double *values, size_t n, struct atl_stats *out);

/**
 * One row of any command (rmw, strategy, every app, calibration, the models): what was measured (the
 * configuration as named values), whether it ran and was right, how long it took, and what it yielded.
 * Its layout is private to the library, so its limits (how many values and metrics a row holds, how long
 * its texts are) can change within major version 1: a program makes a row with atl_row_new(), gets the rows
 * of a set with atl_result_set_row(), and reads them with the functions below. (The library's own code sees
 * the layout in atomlab/row_layout.h, an experimental header.)
 */
struct atl_row;

/** A row kind: its name, its configuration fields in order, and the metrics its table and CSV show as columns. */
struct atl_row_kind {
  const char *name;
  const char *const *config;  /**< NULL-terminated */
  const char *const *table;   /**< the configuration the table shows (a sweep's fixed axes are left out), NULL-terminated */
  const char *const *columns; /**< metrics shown as columns, NULL-terminated; the others go to one "metrics" cell */
  int list_metrics;           /**< the table lists the other metrics as name=value */
};

/** Every row kind, ending with a NULL name. */
const struct atl_row_kind *atl_row_kinds(void);

/** The kind named @p name, or NULL. */
const struct atl_row_kind *atl_row_kind_find(const char *name);

/**
 * The kind @p name as a run on several devices writes it: the configuration
 * ends with "device" (a CSV column), the table shows the device first; the
 * kind itself where it has no such form, NULL for an unknown name. Writers
 * take it for a set whose rows name their device.
 */
const struct atl_row_kind *atl_row_kind_devices(const char *name);

/** Which way a metric is better, for readers that rank or colour. */
enum atl_hint { ATL_HINT_NONE, ATL_HINT_HIGHER, ATL_HINT_LOWER };

/** A metric every writer knows: its unit, its better direction and one line on what it is. */
struct atl_metric_info {
  const char *name, *unit;
  enum atl_hint hint;
  const char *help;
};

/** The known metric @p name, or NULL (a row may carry others: no unit, no hint). */
const struct atl_metric_info *atl_metric_info(const char *name);

/**
 * What each metric of @p command ("rmw", "compare", ...) means and how it is
 * measured: its section of docs/design/metrics.md (embedded at build time), without
 * the blank lines around it, @p len bytes long (not NUL-terminated). NULL where
 * the page has no section for it.
 */
const char *atl_describe(const char *command, size_t *len);

/**
 * A new row (no kind, status error until measured) for the functions that fill one (atl_rmw_run(), ...);
 * NULL when out of memory. Free it with atl_row_free(). A row may be filled again: each filling starts it
 * afresh, so call atl_row_release() before (its samples would leak otherwise).
 */
struct atl_row *atl_row_new(void);

/** Frees @p row of atl_row_new() and what it owns (NULL: nothing). */
void atl_row_free(struct atl_row *row);

/** Starts @p row of @p kind: zeroed, status error until measured, kind set. A NULL row, set or name given to
 *  the row and set functions below: the ones that return a code return ATL_EINVAL, atl_row_config() NULL,
 *  atl_row_metric() its fallback, the others do nothing; the readers of one field return "" for a text,
 *  NULL for atl_row_time_ms() and atl_row_samples(), and 0 for a number. */
void atl_row_init(struct atl_row *row, const char *kind);

/** The row's kind (atl_row_kind_find() of it describes it): "rmw", "strategy", "app", ... */
const char *atl_row_kind_name(const struct atl_row *row);

/** Whether it ran: ATL_STATUS_OK, or why not (atl_row_reason()). */
enum atl_status atl_row_status(const struct atl_row *row);

/** Why a row is not ok, or a note; "" where there is none. */
const char *atl_row_reason(const struct atl_row *row);

/** 1 if the result matched the exact expected state. */
int atl_row_verified(const struct atl_row *row);

/** The words (and checks) that differed from the expected state. */
uint64_t atl_row_wrong(const struct atl_row *row);

/** The statistics of the device time per launch, in milliseconds (lives as long as the row). */
const struct atl_stats *atl_row_time_ms(const struct atl_row *row);

/** The raw samples those statistics came from, in milliseconds; their count in *@p n (@p n may be NULL). */
const double *atl_row_samples(const struct atl_row *row, size_t *n);

/** The atomic machine instructions of the kernel; "" where the backend cannot tell. */
const char *atl_row_instructions(const struct atl_row *row);

/** The wall time the whole row took, in seconds: build, calibration, samples, verification. */
double atl_row_seconds(const struct atl_row *row);

/** How many metrics the row carries; atl_row_metric_name() and atl_row_metric_value() read the i-th. */
size_t atl_row_metric_count(const struct atl_row *row);

/** The name of the metric @p i (atl_metric_info() of it gives its unit and meaning), or NULL past the last. */
const char *atl_row_metric_name(const struct atl_row *row, size_t i);

/** The value of the metric @p i, or 0 past the last. */
double atl_row_metric_value(const struct atl_row *row, size_t i);

/* What a measure callback of atl_sweep() (or a program building its own set) sets beyond the configuration and
 * metrics: the setters of the fields the readers above read. */

/** Sets the row's status and why (@p reason NULL: none; a longer one is cut to the room the row has). */
void atl_row_set_status(struct atl_row *row, enum atl_status status, const char *reason);

/** Sets whether the row's result matched the exact expected state, and the words that differed. */
void atl_row_set_verified(struct atl_row *row, int verified, uint64_t wrong);

/**
 * Sets the row's device times per launch: a copy of the @p n samples @p ms (milliseconds) and their statistics
 * (atl_stats_compute()); the row's earlier samples are freed. 0, or ATL_EINVAL (NULL row, or NULL @p ms with
 * @p n > 0), ATL_ENOMEM (the row keeps its earlier samples).
 */
int atl_row_set_samples(struct atl_row *row, const double *ms, size_t n);

/** Sets (or adds) the configuration value @p name as text or as a number. 0, or ATL_ENOMEM when full. */
int atl_row_config_set(struct atl_row *row, const char *name, const char *text);
int atl_row_config_number(struct atl_row *row, const char *name, double value);

/** The configuration value @p name as text, or NULL when the row has none. */
const char *atl_row_config(const struct atl_row *row, const char *name);

/** Whether the row has the configuration value @p name and it is @p value (a row read from a file may lack any
 *  field: a row of another kind). */
int atl_row_config_is(const struct atl_row *row, const char *name, const char *value);

/** The configuration value @p name as text, or @p fallback when the row has none (for printing). */
const char *atl_row_config_or(const struct atl_row *row, const char *name, const char *fallback);

/** Sets (or adds) the metric @p name; the unit and hint come from atl_metric_info(). */
void atl_row_metric_set(struct atl_row *row, const char *name, double value);

/** The metric @p name of @p row, or @p fallback if it has none. */
double atl_row_metric(const struct atl_row *row, const char *name, double fallback);

/**
 * Whether @p row counts as a failure: status error, or measured and not
 * verified where it is not a control (rmw's plain_add, an app row with the
 * metric control = 1) that is expected not to verify.
 */
int atl_row_failed(const struct atl_row *row);

/** A configuration value or metric named @p name as a number (config text parsed), or @p fallback. */
double atl_row_number(const struct atl_row *row, const char *name, double fallback);

/** The row's configuration as "name=value;..." in its order (what compare pairs rows by). */
void atl_row_key(const struct atl_row *row, char *out, size_t len);

/** Frees what a row owns (its samples). */
void atl_row_release(struct atl_row *row);

/** Run-wide facts recorded with every result file. */
struct atl_run_meta {
  char tool_version[32];
  char git_commit[48];
  char date[40];           /**< ISO 8601 UTC */
  char command[512];       /**< the command line */
  struct atl_device_info device;
  struct atl_occupancy occupancy;
  struct atl_grid grid;    /**< how the launch shape was chosen (rmw; wg_size 0 where no sweep chose one) */
  struct atl_timing timing;
  int complete;            /**< 1 once every planned row was measured; 0 in a checkpoint or an interrupted run */
  size_t rows_planned;     /**< rows the sweep was to measure */
  double elapsed_s;        /**< wall time of the command so far, device set-up included (resumed: this process) */
  int timing_recorded;     /**< read back: 1 if the file held its timing settings (@p timing), 0 if not */
  char clocks[160];        /**< how the rows' clocks were read, or why they were not ("" if no sweep ran) */
  double repeat_s[64];     /**< seconds each repeat of a one-device sweep took, all its rounds (the first with the
                                calibrations); written as summary.repeat_seconds, not read back */
  unsigned nrepeat_s;
};

/**
 * Starts @p meta of a run: this library's version and commit, the date (UTC),
 * the command line (@p argc words of @p argv joined by spaces) and the device
 * @p ctx has open (none, or @p ctx NULL: left empty); everything else zero.
 */
void atl_run_meta_init(struct atl_run_meta *meta, atl_context_t ctx, int argc, char **argv);

/** A set of rows of one kind with the run's facts (owns them). */
struct atl_result_set {
  struct atl_run_meta meta;
  char kind[16];      /**< the kind of its rows ("" until the first row is added) */
  int format_version; /**< read back: the version the file was written in (1 files are migrated) */
  struct atl_row *rows; /**< the rows, for the library's own code: a program reads them with atl_result_set_row() */
  size_t count, cap;    /**< rows in the set, and room for them */
};

/** The row @p i of @p set (it lives as long as the set holds it), or NULL where @p i >= set->count. */
const struct atl_row *atl_result_set_row(const struct atl_result_set *set, size_t i);

/** Appends a copy of @p row (its samples are moved into the set). */
int atl_result_set_add(struct atl_result_set *set, struct atl_row *row);

/** Frees the rows and their samples. */
void atl_result_set_release(struct atl_result_set *set);

/** Output formats. */
enum atl_format { ATL_FORMAT_TABLE, ATL_FORMAT_CSV, ATL_FORMAT_JSON };

/** Parses "table", "csv" or "json"; -1 if unknown. */
int atl_format_parse(const char *s);

/**
 * The format of output file @p path from its extension (.json, .csv, .txt);
 * a name without one (/dev/null, a FIFO) takes @p fallback; -1 for any other
 * extension.
 */
int atl_format_from_path(const char *path, int fallback);

/**
 * Writers: one for every kind. The table is written a row at a time (a
 * sweep prints each row as it is measured): the header names the kind's
 * configuration, the median, noise, the kind's metric columns, verified and
 * status.
 */
int atl_write_table_header(FILE *f, const struct atl_row_kind *kind);
int atl_write_table_row(FILE *f, const struct atl_row_kind *kind, const struct atl_row *row);
int atl_write_csv(FILE *f, const struct atl_result_set *set);

/** Writes one CSV field, quoted (with quotes doubled) when it holds a comma, quote or newline. */
void atl_csv_field(FILE *f, const char *s);

/**
 * Writes text that came from a file (a device name, a configuration value, a path) for a terminal: printable
 * ASCII and whole UTF-8 characters stay, every control character (escape sequences, carriage returns, newlines,
 * C1 controls) and every byte of a broken UTF-8 sequence becomes '?'.
 */
void atl_esc_terminal(FILE *f, const char *s);

/** atl_esc_terminal() into @p buf (terminated where @p len > 0, whole characters only); returns @p buf. */
char *atl_esc_terminal_str(char *buf, size_t len, const char *s);

int atl_write_json(FILE *f, const struct atl_result_set *set);

/**
 * Reads any atomlab result file (every kind; format_version 2, and version 1
 * files migrated: rmw, strategy and app rows): the run's facts, the device,
 * and every row (configuration, status, statistics, samples, metrics).
 * A file over the size cap (atl_max_input()) is refused before it is read.
 * Returns 0, or ATL_EIO / ATL_EINVAL with a one-line reason in @p why.
 */
int atl_read_json(const char *path, struct atl_result_set *set, char *why, size_t why_len);

/** The default of the size cap every reader of a whole file applies (1 GiB: a sweep of 100,000 rows, the
 *  --max-rows default, writes about 200 MB of JSON). */
#define ATL_MAX_INPUT_DEFAULT (1ull << 30)

/**
 * The size cap of result files: the environment variable ATL_MAX_INPUT (bytes) where set, else
 * ATL_MAX_INPUT_DEFAULT. A file over it is refused before it is read, with a reason naming the size and the cap.
 * Returns 0, or ATL_EINVAL where ATL_MAX_INPUT is set but not a whole number from 1 to 2^62 (@p bytes then holds
 * the default, which the readers use).
 */
int atl_max_input(unsigned long long *bytes);

/** atl_read_json() on text in memory; @p name labels the reasons. */
int atl_parse_json(const char *text, const char *name, struct atl_result_set *set, char *why, size_t why_len);

/**
 * Whether @p row (an rmw row), read back from a file, can stand for a new
 * measurement (what a resumed sweep reuses): its configuration is a valid
 * spec; status ok or unsupported; an ok row verified
 * (plain_add, the non-atomic control, excepted), with iters > 0, ops =
 * active threads x iters, samples that are finite positive times, a recorded
 * median that is the median of those samples (within rounding), and
 * ops_per_us and gops that follow from them. Returns 0, or ATL_EINVAL with
 * the first failed check (field and value) in @p why.
 */
int atl_row_validate(const struct atl_row *row, char *why, size_t why_len);

/**
 * Whether a file's timing settings @p recorded match a new run's @p now
 * (target time, noise threshold, sample counts, budget, fixed and maximum
 * iterations): rows timed otherwise are not comparable. Returns 0, or
 * ATL_EINVAL naming the first option that differs with both values in @p why.
 */
int atl_timing_match(const struct atl_timing *recorded, const struct atl_timing *now, char *why, size_t why_len);

/** Whether two specs measure the same configuration (every spec field). */
int atl_spec_equal(const struct atl_spec *a, const struct atl_spec *b);

/** Writes the CSV header line of @p kind (what atl_write_csv() starts with). */
int atl_csv_header_write(FILE *f, const struct atl_row_kind *kind);

/** A set and the format to write it in: the argument of atl_write_set(). */
struct atl_set_writer {
  enum atl_format fmt;
  const struct atl_result_set *set;
};

/** Writes the set of @p writer (a struct atl_set_writer) to @p f: an atl_file_writer. */
int atl_write_set(FILE *f, const void *writer);

/**
 * Writes @p set to @p path the safe way of atomlab/file.h (a temporary file
 * renamed over the target, or a device written in place). A failure leaves
 * the target as it was.
 */
int atl_write_file(const char *path, enum atl_format fmt, const struct atl_result_set *set);

#ifdef __cplusplus
}
#endif
#endif
