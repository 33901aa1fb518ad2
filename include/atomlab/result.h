/**
 * @file result.h
 * Result rows with statistics, and the writers that turn one set of rows
 * into a table, CSV or JSON (one row struct feeds all three).
 */
#ifndef ATOMLAB_RESULT_H
#define ATOMLAB_RESULT_H

#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#include "device.h"
#include "experiment.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Version of the JSON/CSV layout; bump on any incompatible change. */
#define ATL_FORMAT_VERSION 1

/** Status of one row. */
enum atl_status { ATL_STATUS_OK, ATL_STATUS_UNSUPPORTED, ATL_STATUS_SKIPPED, ATL_STATUS_DEADLOCK, ATL_STATUS_ERROR };

/** "ok", "unsupported", ... */
const char *atl_status_name(enum atl_status s);

/** Summary statistics of a sample of times. */
struct atl_stats {
  unsigned samples;
  double median, min, max, mean, q1, q3;
  double iqr;   /**< q3 - q1 */
  double noise; /**< relative IQR: iqr / median */
};

/** Computes statistics of @p n values (n may be 0: all fields zero). Quartiles by linear interpolation. */
void atl_stats_compute(const double *values, size_t n, struct atl_stats *out);

/** One measured configuration. */
struct atl_row {
  struct atl_spec spec;
  enum atl_status status;
  char reason[384];        /**< why a row is not ok (or a note) */
  uint32_t iters;          /**< iterations per thread in each timed launch */
  uint64_t ops;            /**< atomic operations per launch (active threads x iters) */
  uint64_t array_words;    /**< words per domain */
  struct atl_stats time_ms;/**< device time per launch */
  double *samples_ms;      /**< the raw samples (owned by the row) */
  double ops_per_us;       /**< ops / median time */
  double gops;             /**< 1e9 ops per second at the median */
  int verified;            /**< 1 if the final memory state matched exactly */
  uint64_t wrong_words;    /**< words (and sink checks) that differed */
  double cas_attempts;     /**< cas: attempts per successful CAS (0 otherwise) */
  char instructions[256];  /**< atomic machine instructions of the kernel ("" where the backend cannot tell) */
  double row_seconds;      /**< wall time the whole row took: build, calibration, samples, verification */
};

/** Run-wide facts recorded with every result file. */
struct atl_run_meta {
  char tool_version[32];
  char git_commit[48];
  char date[40];           /**< ISO 8601 UTC */
  char command[512];       /**< the command line */
  struct atl_device_info device;
  struct atl_occupancy occupancy;
  struct atl_timing timing;
  int complete;            /**< 1 once every planned row was measured; 0 in a checkpoint or an interrupted run */
  size_t rows_planned;     /**< rows the sweep was to measure */
  double elapsed_s;        /**< wall time of the command so far, device set-up included (resumed: this process) */
  int timing_recorded;     /**< read back: 1 if the file held its timing settings (@p timing), 0 if not */
};

/** A set of rows (owns them). */
struct atl_result_set {
  struct atl_run_meta meta;
  struct atl_row *rows;
  size_t count, cap;
};

/** Appends a copy of @p row (its samples are moved into the set). */
int atl_result_set_add(struct atl_result_set *set, struct atl_row *row);

/** Frees the rows and their samples. */
void atl_result_set_release(struct atl_result_set *set);

/** Output formats. */
enum atl_format { ATL_FORMAT_TABLE, ATL_FORMAT_CSV, ATL_FORMAT_JSON };

/** Parses "table", "csv" or "json"; -1 if unknown. */
int atl_format_parse(const char *s);

/** Writers. The table header is printed by atl_write_table_header. */
int atl_write_table_header(FILE *f);
int atl_write_table_row(FILE *f, const struct atl_row *row);
int atl_write_csv(FILE *f, const struct atl_result_set *set);

/** Writes one CSV field, quoted (with quotes doubled) when it holds a comma, quote or newline. */
void atl_csv_field(FILE *f, const char *s);

int atl_write_json(FILE *f, const struct atl_result_set *set);

/**
 * Reads a result file written by atl_write_json(): the device facts, the
 * completion state and every row (spec, status, statistics, samples).
 * Returns 0, or ATL_EIO / ATL_EINVAL with a one-line reason in @p why.
 */
int atl_read_json(const char *path, struct atl_result_set *set, char *why, size_t why_len);

/** atl_read_json() on text in memory; @p name labels the reasons. */
int atl_parse_json(const char *text, const char *name, struct atl_result_set *set, char *why, size_t why_len);

/**
 * Whether @p row, read back from a file, can stand for a new measurement
 * (what --resume reuses): status ok or unsupported; an ok row verified
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

/** Whether two rows measure the same configuration (every spec field). */
int atl_spec_equal(const struct atl_spec *a, const struct atl_spec *b);

/** CSV column names, comma separated, in order (for tests and docs). */
const char *atl_csv_header(void);

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
