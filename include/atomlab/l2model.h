/*
 * The first model of global-memory (L2) atomics (issue [diagnose], docs/model.md, "Global atomics").
 *
 * NVIDIA GPUs execute global atomics (ATOMG, REDG) in the L2 slices: each request goes to the slice
 * that holds its line, and one slice serves its atomic requests one after another. A kernel is bound
 * by the L2 atomic units when its busiest slice is busy serving atomics for the whole kernel:
 *
 *   B = R_max,atom x S_atom + R_max,red x S_red    L2 cycles the busiest slice spends on atomics
 *   U = B / C                                      C = the kernel's L2 cycles (lts__cycles_elapsed.avg)
 *
 * R_max is the busiest slice's atomic request count (lts__t_requests_op_atom.max, ..._op_red.max: the
 * maxima of two kinds may lie on two slices, so B is an upper bound where a kernel has both), S the L2
 * cycles one request occupies a saturated slice, by kind (ATOM returns a value, RED does not),
 * calibrated on the device with atomlab's own rmw kernels: S_same where the slice's requests are to
 * one word (each waits for the one before: the same-address chain), S_spread where they are to
 * distinct lines. Which one applies is read from the
 * imbalance I = R_max / (R / slices): requests concentrated on a few slices (I >= ATL_L2_HOT_IMBALANCE)
 * come from a few hot words. U is given with its bounds (S_dist and S_same), so a kernel whose words
 * the counters cannot tell apart gets a range, not a number above 1. Where the export has
 * lts__d_atomic_input_cycles_active.max, the share of the kernel the busiest slice's atomic input was
 * active is a measured floor under U (it binds for requests S was not calibrated on, e.g. float adds).
 */
#ifndef ATOMLAB_L2MODEL_H
#define ATOMLAB_L2MODEL_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The busiest slice's share over the average's from which its requests are taken as hot words. */
#define ATL_L2_HOT_IMBALANCE 1.5

/** One kernel launch's global-atomic counters, from an ncu raw CSV export. */
struct atl_l2_counters {
  char id[32];
  char kernel[256];
  double duration_ns;      /**< gpu__time_duration.sum */
  double l2_cycles;        /**< lts__cycles_elapsed.avg */
  double requests;         /**< lts__t_requests_op_atom.sum + lts__t_requests_op_red.sum */
  double requests_max;     /**< lts__t_requests_op_atom.max + lts__t_requests_op_red.max (busiest slice) */
  double atom_max;         /**< lts__t_requests_op_atom.max */
  double red_max;          /**< lts__t_requests_op_red.max */
  double requests_avg;     /**< lts__t_requests_op_atom.avg + lts__t_requests_op_red.avg (per slice) */
  double atom_requests;    /**< lts__t_requests_op_atom.sum (results returned: ATOMG) */
  double red_requests;     /**< lts__t_requests_op_red.sum (no result: REDG) */
  double input_active_max; /**< lts__d_atomic_input_cycles_active.max, or -1 where the export lacks it */
  double dram_pct;         /**< dram__throughput.avg.pct_of_peak_sustained_elapsed, or -1 where the export lacks it */
};

/** A list of launches read from one export. */
struct atl_l2_report {
  struct atl_l2_counters *kernels;
  size_t count;
};

/** The two kinds of L2 atomic request. */
enum atl_l2_kind { ATL_L2_ATOM, ATL_L2_RED, ATL_L2_KINDS };

/** The device's calibration: L2 cycles per atomic request at a saturated slice, by kind. */
struct atl_l2_calibration {
  double s_same[ATL_L2_KINDS]; /**< requests to one word (the same-address chain) */
  double s_dist[ATL_L2_KINDS]; /**< requests to distinct lines */
};

/** Which access the counters imply at the busiest slice. */
enum atl_l2_access { ATL_L2_NONE, ATL_L2_SPREAD, ATL_L2_HOT };

/** The model's answer for one launch. */
struct atl_l2_util {
  enum atl_l2_access access;
  double imbalance;  /**< I = R_max / R_avg (0 without atomics) */
  double busy;       /**< B, L2 cycles, with s_same for ATL_L2_HOT, else s_dist */
  double u, u_low, u_high; /**< B / C, and with the smaller and the larger of s_same and s_dist; each at
                            least u_input */
  double u_input;    /**< lts__d_atomic_input_cycles_active.max / C: the busiest slice's atomic input was
                          active that share of the kernel (a floor under U); -1 where the export lacks it */
  double busy_ns;    /**< B at the kernel's own L2 clock (C / duration) */
};

/**
 * Reads an ncu CSV export written with `--page raw` (the units row and thousands separators allowed;
 * durations in any of ns, us, ms, s). Every launch needs lts__cycles_elapsed.avg,
 * gpu__time_duration.sum and lts__t_requests_op_{atom,red}.{sum,max,avg}; a missing column is an
 * error naming it (@p why, "NAME:LINE: reason"). Returns 0, ATL_EINVAL or ATL_ENOMEM.
 */
int atl_l2_read_csv(const char *text, const char *name, struct atl_l2_report *out, char *why, size_t why_len);

/** atl_l2_read_csv of the file @p path (a regular file of at most 256 MiB); ATL_EIO when it cannot be read. */
int atl_l2_read_file(const char *path, struct atl_l2_report *out, char *why, size_t why_len);

void atl_l2_report_release(struct atl_l2_report *r);

/**
 * S of one calibration export, by kind: the median over its launches of that kind only (ATOM or RED
 * requests, not both) of C / R_max (the busiest slice is saturated in a calibration kernel, so its
 * cycles are its requests' service). Returns 0, or ATL_EINVAL with the reason when the export has no
 * launch of one of the kinds.
 */
int atl_l2_cycles_per_request(const struct atl_l2_report *r, double s[ATL_L2_KINDS], char *why, size_t why_len);

/** S of the calibration export in the file @p path: atl_l2_read_file(), then atl_l2_cycles_per_request(). */
int atl_l2_calibrate_file(const char *path, double s[ATL_L2_KINDS], char *why, size_t why_len);

/** The model for one launch. */
void atl_l2_utilization(const struct atl_l2_calibration *cal, const struct atl_l2_counters *k,
                        struct atl_l2_util *out);

/**
 * The model's table, one line per launch of @p r (CSV with a header, or a table for people), and with
 * @p with_advice the strategy for every bottleneck (U >= @p threshold). @p cal NULL: no calibration, U is
 * the input share alone (a floor). Returns 0 or ATL_EIO when the stream failed.
 */
int atl_l2_write_table(FILE *f, const struct atl_l2_calibration *cal, const struct atl_l2_report *r, double threshold,
                       int csv, int with_advice);

/** The ncu metrics the model reads (what atl_l2_read_csv needs, and the optional input-cycles one). */
const char *const *atl_l2_metric_names(size_t *count);

/** "hot words", "spread" or "none". */
const char *atl_l2_access_name(enum atl_l2_access a);

#ifdef __cplusplus
}
#endif
#endif
