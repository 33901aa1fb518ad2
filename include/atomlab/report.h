/**
 * @file report.h
 * The documents of a report folder: report.md and a self-contained
 * report.html (figures embedded) from a contention x padding sweep, the
 * figures atl_plot() drew, and the other steps' files (strategies, the
 * histogram, the smem model's table, the datasheet sweep); and several
 * report folders side by side. The library prints nothing: a file that
 * could not be written is told through the notify callback.
 */
#ifndef ATOMLAB_REPORT_H
#define ATOMLAB_REPORT_H

#include "experimental.h" /* not the stable API */

#include <stddef.h>
#include <stdio.h>

#include "device.h"
#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Receives one line (no newline) about a file that could not be written. */
typedef void (*atl_report_notify)(void *arg, const char *text);

/** What a written report says in short (a caller prints it). */
struct atl_report_summary {
  char device[256];
  size_t rows, verified;
  char best_pattern[32]; /**< the fastest pattern at the lowest contention and padding */
  double best_gops;
};

/** The other steps' files, for the Strategies, Histogram and Model sections (any may be missing). */
struct atl_report_inputs {
  const char *strategy_json, *strategy_log, *strategy_args; /**< args: the settings, for the text */
  const char *hist_json, *hist_log, *hist_args;
  const char *figures;
  const char *smem_table;    /**< the device's calibration table (atl_smem_table_find()); "" or NULL: none */
  const char *datasheet_rmw; /**< the datasheet's rmw rows (data/datasheet-rmw.json), or NULL */
  const struct atl_result_set *datasheet; /**< set by atl_report_write from datasheet_rmw: leave NULL */
  int cuda;
  atl_report_notify notify; /**< may be NULL */
  void *arg;                /**< passed to @p notify */
  const char *diagnosis_json; /**< rows of kind diagnosis (`atomlab profile --diagnosis DIR/data/diagnosis.json`):
                                   a Diagnosis section; NULL or no such file: none */
};

/**
 * Writes DIR/report.md and DIR/report.html from the sweep @p json and the
 * images in @p figures (@p plot_log is named where there are none), and the
 * sections of @p in; the datasheet, where @p in names its sweep, as
 * DIR/data/datasheet.json and .csv. Fills @p sum.
 * Returns 0, or ATL_EINVAL (the sweep does not read) or ATL_EIO with a
 * one-line reason in @p why.
 */
int atl_report_write(const char *dir, const char *json, const char *figures, const char *plot_log,
                     const struct atl_report_inputs *in, struct atl_report_summary *sum, char *why, size_t why_len);

/** The files of a report folder: what the steps write and the documents read. */
struct atl_report_files {
  char data[4200], figures[4200], json[4300], csv[4300], s_json[4300], s_csv[4300], s_log[4300], h_json[4300],
      h_log[4300], d_json[4300], d_log[4300];
};

/** The files inside @p dir, or (NULL) relative to the report folder, as the steps running in it name them. */
void atl_report_files(const char *dir, struct atl_report_files *f);

/**
 * Checks, before anything is measured, that @p dir can take a report: new,
 * empty or a folder atomlab wrote (its manifest, file.h), its data/ and
 * figures/ (where there) folders and not links, not a folder the current one
 * is inside, its parent writable. A symbolic link @p dir is followed and the
 * same rule applies to its target. Gives
 * gives @p target, the folder the report becomes (absolute, symbolic links
 * followed), and @p staging, the new folder beside it that the steps write
 * into. Returns 0, or ATL_EINVAL with the reason (starting with the quoted
 * @p dir) in @p why.
 */
int atl_report_target(const char *dir, char *target, size_t tlen, char *staging, size_t slen, char *why,
                      size_t why_len);

/**
 * Puts the files of the finished @p staging folder into @p target (@p shown:
 * its name in messages) and removes the files of the earlier report's
 * manifest that this one does not write (atl_manifest_install()): any other
 * file in @p target is left as it is. Then removes @p staging. Returns 0, or
 * ATL_EIO with the reason in @p why (what was not moved still in @p staging).
 * A staging folder that could not be removed is named in @p warning (empty
 * when none).
 */
int atl_report_replace(const char *target, const char *staging, const char *shown, char *why, size_t why_len,
                       char *warning, size_t warning_len);

/** The report folder of device @p id inside @p dir (report --device all): "DIR/opencl-0" for "opencl:0". */
void atl_report_device_folder(const char *dir, const char *id, char *out, size_t len);

/**
 * Writes the manifest of @p dir, a folder of the @p n report folders @p subs
 * (each with its own manifest) and the files @p files (relative to @p dir):
 * the files of @p dir's earlier manifest that none of them names are removed
 * (atl_manifest_install()). 0, or ATL_EINVAL/ATL_EIO with the reason.
 */
int atl_report_index(const char *dir, const char *const *subs, size_t n, const char *const *files, size_t nfiles,
                     char *why, size_t why_len);

/** Most report folders atl_report_compare() puts side by side. */
#define ATL_REPORT_COMPARE_MAX 8

/**
 * The report folders @p dirs (2 to ATL_REPORT_COMPARE_MAX) side by side as
 * Markdown on @p o: each device's facts, the datasheets in one table with
 * every rate's ratio to the first device's, and each device's findings.
 * Every folder is read before anything is written. Returns 0, or ATL_EINVAL
 * (a folder without a readable data/rmw.json; the reason, naming the folder,
 * in @p why) or ATL_ENOMEM.
 */
int atl_report_compare_write(FILE *o, const char *const *dirs, size_t ndirs, char *why, size_t why_len);

/**
 * atl_report_compare_write() into the file @p out of a report folder (a
 * symbolic link under its name is replaced, never followed). Returns 0, or
 * ATL_EINVAL as that, ATL_EIO (told to @p notify too) or ATL_ENOMEM.
 */
int atl_report_compare(const char *const *dirs, size_t ndirs, const char *out, atl_report_notify notify, void *arg,
                       char *why, size_t why_len);

/** Receives the progress of a report: step @p step of @p steps and what it does. */
typedef void (*atl_report_progress)(void *arg, int step, int steps, const char *what);

/**
 * The atomlab program as a report's steps run it, from @p argv0 (main's
 * argv[0]): absolute where it names a path (right under valgrind), else
 * /proc/self/exe. Kept after the first call.
 */
const char *atl_report_self(const char *argv0);

/** How a report is measured and drawn: its steps are runs of the atomlab program itself. */
struct atl_report_run {
  const char *self;   /**< the atomlab program each step runs (an absolute path: steps run in the folder) */
  int quick;          /**< a 2x2 grid with fixed iterations: checks the pipeline in seconds */
  const char *repeat; /**< passes of every sweep ("3"), or NULL for one */
  atl_report_progress progress; /**< may be NULL */
  /** a step that failed, a file not written (one line each; atl_report_devices(): what it does); may be NULL */
  atl_report_notify notify;
  void *arg;                    /**< passed to both */
};

/** How a report run ended. */
struct atl_report_outcome {
  int failed;          /**< a step failed or a row did not verify (the report says which) */
  const char *stopped; /**< the step a stop request ended ("the sweep (step 1 of 6)"), or NULL */
  int no_rows;         /**< the sweep's exit status where it wrote no rows (no report), else 0 */
  int written;         /**< report.md and report.html were written */
  struct atl_report_summary summary; /**< when written */
};

/**
 * Measures a report of device @p dev into the new folder @p staging
 * (atl_report_target(); @p shown: the report folder as messages name it):
 * the contention x padding sweep, the datasheet, the strategies and the
 * histogram, each a run of run->self logged in data/, then the figures and
 * the documents (atl_report_write()). A stop request ends it after the
 * running step (which gets the signal too). Returns 0 with @p out filled,
 * or ATL_EIO (the folders could not be made) with the reason in @p why.
 */
int atl_report_measure(const struct atl_report_run *run, const struct atl_device_info *dev, const char *staging,
                       const char *shown, struct atl_report_outcome *out, char *why, size_t why_len);

/**
 * Draws the figures of report folder @p dir written where gnuplot was
 * missing and writes its documents again from its data/, measuring nothing.
 * Returns 0 with @p out filled, ATL_EINVAL (no readable data/rmw.json: not a
 * report folder) or ATL_EIO (no figures folder) with the reason, which
 * starts with the quoted @p dir, in @p why.
 */
int atl_report_render(const struct atl_report_run *run, const char *dir, struct atl_report_outcome *out, char *why,
                      size_t why_len);

/**
 * One whole report per device of @p ids (@p n), each in DIR/<id> (":" and
 * "/" as "-"), one after another so that devices sharing a host do not
 * disturb each other's numbers: each is run->self run again with one
 * --device (and @p backend, run's quick and repeat), its progress on the
 * terminal; run->notify hears which device goes where. The folders of the
 * reports written (a report with a failed row is one) go to @p dirs, their
 * count to @p ndone. A stop request ends it after the running report.
 * Returns 0, or the status of the last run that failed (2 a usage error,
 * above 128 a signal, else 1).
 */
int atl_report_devices(const struct atl_report_run *run, const char (*ids)[32], size_t n, const char *backend,
                       const char *dir, char (*dirs)[4200], size_t *ndone);

/** What atl_results_index() found, for the caller's summary line. */
struct atl_results_index_counts {
  size_t rows;     /**< headline rows written (one per headline and device that measured its entry) */
  size_t missing;  /**< of those, rows whose file, row or number was not found */
  size_t unproven; /**< rows whose file names a dirty or unknown commit */
};

/**
 * The index of reference results: a Markdown table of headline numbers
 * (capability, figure, ratio against its yardstick, device, commit, date,
 * link) from the files under @p results/reference/<device slug>/<entry>/
 * and the headlines the plan @p plan_path names (experiments/reference.json:
 * which number in which file is a headline is the plan's data). Written to
 * @p out; links are relative to @p results. Returns 0, or -1 with a one-line
 * reason in @p why (the plan does not read, or there is no reference/ folder).
 */
int atl_results_index(const char *plan_path, const char *results, FILE *out, struct atl_results_index_counts *counts,
                      char *why, size_t why_len);

#ifdef __cplusplus
}
#endif
#endif
