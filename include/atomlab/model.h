/**
 * @file model.h
 * The shared-memory atomic queuing model (seed 002, Dong and Pai, GPGPU'25):
 * a load-dependent single-server queue whose service time S(n, e, c) comes
 * from a calibration table T(n, e, c), and whose inputs come from hardware
 * counters. docs/design/model.md states the method, the counter mapping and every assumption.
 *
 * Quantities: n is the number of atomic warp-instructions (jobs) queued or in
 * service, e the active threads per job, c how many of the n are CAS; T the
 * time in SM clock cycles from the first arrival to the last completion.
 */
#ifndef ATOMLAB_MODEL_H
#define ATOMLAB_MODEL_H

#include <stddef.h>
#include <stdio.h>

#include "device.h"
#include "experimental.h" /* not the stable API */
#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Which fetch-and-add a calibration measured: the result unused (ATOMS.POPC.INC on sm_80+) or used (ATOMS.ADD). */
enum atl_smem_variant { ATL_SMEM_UNUSED = 0, ATL_SMEM_USED = 1, ATL_SMEM_VARIANTS = 2 };

/** "unused" or "used". */
const char *atl_smem_variant_name(enum atl_smem_variant v);

/** Parses "unused" or "used"; -1 if neither. */
int atl_smem_variant_parse(const char *s);

/** Largest n and e a table may hold (a warp has at most 32 lanes; no GPU holds more than 64 warps per SM yet). */
#define ATL_SMEM_MAX_N 128
#define ATL_SMEM_MAX_E 32

/**
 * A calibration table: T-hat(n, e, c) in cycles per variant, for integral
 * 1 <= n <= nmax, 1 <= e <= emax, 0 <= c <= n. Points not measured are NaN.
 */
struct atl_smem_table {
  unsigned nmax, emax;
  double *t[ATL_SMEM_VARIANTS]; /**< dense [n][e][c]; NULL where the variant has no point */
};

/** Sets up an empty table for n up to @p nmax and e up to @p emax. */
int atl_smem_table_init(struct atl_smem_table *table, unsigned nmax, unsigned emax);

/** Frees the table's arrays. */
void atl_smem_table_release(struct atl_smem_table *table);

/** Records one measured point (ATL_ERANGE outside the table). */
int atl_smem_table_set(struct atl_smem_table *table, enum atl_smem_variant v, unsigned n, unsigned e, unsigned c,
                       double cycles);

/** Equation (1): T-hat(n, e, c): 0 for n = 0, the measured value for 0 < n <= nmax, NaN if not measured. */
double atl_smem_table_get(const struct atl_smem_table *table, enum atl_smem_variant v, unsigned n, unsigned e,
                          unsigned c);

/** Number of measured points of a variant. */
size_t atl_smem_table_count(const struct atl_smem_table *table, enum atl_smem_variant v);

/**
 * Equation (2): T(n, e, c) by linear interpolation of T-hat over n, e and c,
 * between the nearest measured points (on a full grid: the integers around
 * the value). c is taken as the fraction c/n of the n jobs, so that at the
 * integral n on either side the CAS share is the same. n above the largest
 * measured n and e outside the measured range are clamped (and @p clamped
 * set, if not NULL). Returns 0, or ATL_EINVAL with a reason in @p why.
 */
int atl_smem_T(const struct atl_smem_table *table, enum atl_smem_variant v, double n, double e, double c,
               double *cycles, int *clamped, char *why, size_t why_len);

/** Equation (3): S(n, e, c) = T(n, e, c) / n (n > 0). */
int atl_smem_S(const struct atl_smem_table *table, enum atl_smem_variant v, double n, double e, double c,
               double *cycles, int *clamped, char *why, size_t why_len);

/**
 * `atomlab model query`: one line "result=R n= e= c= T= S=" with T(n, e, c)
 * and S(n, e, c) (S 0 at n = 0), and whether the point was clamped to the
 * table. Returns 0, or ATL_EINVAL with a reason in @p why (nothing written).
 */
int atl_smem_query_write(FILE *out, const struct atl_smem_table *table, enum atl_smem_variant v, double n, double e,
                         double c, char *why, size_t why_len);

/**
 * atomlab's alternative to equation (3) for a unit that pipelines: the time
 * between completions once the first job is through, S' = (T(n, e, c) -
 * T(1, e, c/n)) / (n - 1). Equation (3) divides the first job's whole latency
 * (about 175 cycles on the H100) among the n jobs, which a loop that keeps the
 * unit busy never pays per job. n below 2 is taken as 2; beyond the table as
 * its largest n. Needs measured points at n = 1. Returns 0 or ATL_EINVAL.
 */
int atl_smem_S_pipelined(const struct atl_smem_table *table, enum atl_smem_variant v, double n, double e, double c,
                         double *cycles, int *clamped, char *why, size_t why_len);

/**
 * Reads a calibration table from CSV text: a header naming at least the
 * columns result, n, e, c and t_cycles (others are ignored), then one row per
 * point. Returns 0, or ATL_EINVAL with "name:line: reason" in @p why.
 */
int atl_smem_table_parse_csv(const char *text, const char *name, struct atl_smem_table *table, char *why,
                             size_t why_len);

/** atl_smem_table_parse_csv() on a file; ATL_EIO if it cannot be read. */
int atl_smem_table_read_csv(const char *path, struct atl_smem_table *table, char *why, size_t why_len);

struct atl_smem_spread;

/**
 * Writes a table as the CSV atl_smem_table_parse_csv() reads: columns result,
 * n, e, c, t_cycles, t_min_cycles, t_max_cycles, s_cycles (= t / n), one row
 * per measured point. @p spread (min and max over the reps) may be NULL: the
 * min and max columns then repeat t. Returns 0, or ATL_EIO if @p f failed.
 */
int atl_smem_table_write_csv(FILE *f, const struct atl_smem_table *table, const struct atl_smem_spread *spread);

/** Counters of one kernel, as Table 1 of the seed names them (NCU gives totals over SMs and per-SM averages). */
struct atl_smem_counters {
  char kernel[256];         /**< kernel name */
  char id[32];              /**< the profiler's launch id */
  double ops;               /**< O: thread-level shared-memory atomic operations (active lanes), all SMs */
  double words;             /**< distinct 32-bit words the atomic instructions touched (summed per instruction), all SMs */
  double fao_jobs;          /**< sum over SMs of N_f: fetch-and-op warp instructions (CAS excluded) */
  double cas_jobs;          /**< sum over SMs of N_c: CAS warp instructions */
  double active_cycles;     /**< T(i) of the average SM: cycles with at least one warp resident */
  double occupancy;         /**< o(i) of the average SM: achieved occupancy, 0..1 */
  double duration_ns;       /**< kernel duration (reported, not used by the model) */
  double sm_count;          /**< SMs the totals are spread over */
  double warps_per_sm;      /**< resident warps an SM holds at most */
  double elapsed_cycles;    /**< cycles of the average SM from the kernel's start to its end (sm__cycles_elapsed.avg) */
  double clock_mhz;         /**< the device's SM clock (device__attribute_clock_rate), MHz */
  double wavefronts;        /**< shared-memory pipeline passes of the atomics, all SMs (bank-conflict replays included) */
  double issue_cycles;      /**< warp-instructions of the busiest SM sub-partition: it issues at most one a cycle, so
                                 the kernel needs at least this many cycles whatever its atomics cost (smsp__inst_executed.max) */
  double dram_share;        /**< DRAM throughput, share of peak (0..1): the kernel needs at least this share of its time */
  int have_ops, have_words, have_cas, have_duration, have_elapsed, have_clock, have_wavefronts, have_issue, have_dram;
};

/** Assumptions a derivation had to make because the counters lack something (bits of atl_smem_util.assumed). */
enum atl_smem_assumption {
  ATL_SMEM_ASSUME_FULL_WARPS = 1,   /**< no thread-level count: every atomic warp-instruction taken to have 32 active lanes */
  ATL_SMEM_ASSUME_ONE_WORD = 2,     /**< no distinct-word count: all active lanes of a job taken to hit one word */
  ATL_SMEM_LATENCY_BOUND = 4,       /**< e < 2: the table's S there is mostly one atomic's latency / n, U is an upper bound */
  ATL_SMEM_NO_CAS_COUNT = 8,        /**< no CAS count: CAS instructions are modelled as fetch-and-op */
  ATL_SMEM_PAYLOAD_WORDS = 16,      /**< more data words than lanes per job (64-bit or two-word payloads): words capped at the lanes */
  ATL_SMEM_NO_PASSES = 32           /**< no wavefront count: the unit's passes per job are bounded, not counted */
};

/**
 * The unit model (atomlab, issue [diagnose]): what the shared-memory atomic unit of the average SM
 * really served. Its work is counted in passes (wavefronts of the shared pipe: a fetch-and-add pays one
 * per lane on one word and one per extra bank conflict, a POPC.INC one per bank, a CAS loop one per retry
 * as its own instruction); a pass costs the calibrated cycles of its class. U = B / T is then a
 * utilization: at most about 1 where the passes are counted; where they are not, the counters only bound
 * it and the verdict says so ("bound").
 */
struct atl_smem_unit {
  double fao_jobs, cas_jobs; /**< per SM: fetch-and-op (ADD or POPC.INC, the --result) and CAS jobs (loop retries included) */
  double passes;             /**< passes per job: wavefronts / N where counted, else the fewest the counters allow */
  double passes_hi;          /**< the most per job the counters allow (equal to passes where counted) */
  double s_fao, s_cas;       /**< cycles one pass of each class holds the unit (atl_smem_pass_costs) */
  double busy;               /**< B = N x passes x (class-weighted s), cycles */
  double u_lo, u_hi;         /**< B / T with the fewest and the most passes (equal where counted) */
  double u;                  /**< the reported utilization: u_lo, capped at 1 where bound */
  int measured;              /**< passes counted by ncu (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom) */
  int merged;                /**< counted passes well below the lanes per word (< 0.75 e, e >= 2): the fetch-and-ops merge
                                  a word's lanes in one pass (ATOMS.POPC.INC), whatever --result says */
  int bound;                 /**< the counters cannot give U: u is a bound (verdict "bound") */
};

/** Largest U reported as a utilization; above it the counters contradict the pass costs and U is a bound. */
#define ATL_SMEM_U_MAX 1.15

/**
 * The cycles one pass of the unit costs, from a calibration table: the marginal cost of one more
 * 32-lane one-word job (e = emax, where every lane is a pass: the wavefront counter confirms 32 passes)
 * between n = nmax' / 2 and nmax' (nmax' = the largest measured n up to 32, one block per SM), divided
 * by emax; from the used variant (ATOMS.ADD; POPC.INC merges a word's lanes and gives no per-pass
 * slope), c = 0 for fetch-and-op and c = n for CAS. Returns 0 or ATL_EINVAL.
 */
int atl_smem_pass_costs(const struct atl_smem_table *table, double *s_fao, double *s_cas, char *why, size_t why_len);

struct atl_smem_util;

/**
 * The expected shared-memory passes of one warp-instruction of @p lanes lanes (at most 64) whose keys are uniform
 * over @p words consecutive 4-byte words (32 banks): its busiest bank's distinct words where the unit merges a
 * word's lanes (@p merge: ATOMS.POPC.INC, results unused), else its busiest bank's lanes (ATOMS.ADD, CAS).
 * 32 lanes: 1 at one word; 3.5 over many words (src/model/smem/banks.c).
 */
double atl_smem_bank_passes(double words, unsigned lanes, int merge);

/** The expected L2 requests of such a warp-instruction on global words: per 128-byte line touched, the most lanes
 * on one of its words (the L2 merges lanes on distinct words of a line, not lanes on one word). */
double atl_l2_requests_per_instruction(double words, unsigned lanes);

/** The W whose atl_l2_requests_per_instruction is @p requests: within one line (@p several_lines 0: 1 to 32
 * words) or over several (32 words and up); the branch's end where @p requests lies beyond its range. */
double atl_l2_words_from_requests(double requests, unsigned lanes, int several_lines);

/** The device-library strategy for a shared-memory atomic bottleneck and its predicted speedup. */
struct atl_smem_advice {
  const char *strategy; /**< warp-aggregated, native, privatized or byte-lanes; NULL: no advice (not a bottleneck) */
  const char *why;      /**< what the counters show that the strategy removes */
  double factor;        /**< r: the unit's busy time after the strategy over before, from the pass costs */
  double speedup;       /**< T / max(issue floor, DRAM floor, T x ((1 - u) + u x r)), u = min(U, 1): the unit's share
                             shrinks by r, the rest stays; no kernel issues faster than its busiest sub-partition
                             nor moves its DRAM bytes faster than the achievable share of peak (where counted) */
  int floored;          /**< the issue or the DRAM floor, not Amdahl, set the prediction */
};

/**
 * The advice for one kernel (atomlab's diagnose, docs/design/model.md "Advice"): lanes on one word (e >= 2,
 * ATOMS.ADD or CAS) -> warp-aggregated, r = 1 / e (one lane per distinct word: the word's passes merge);
 * a CAS loop without such contention -> a native atomic, r = s_fao / s_cas; passes above the lanes per word
 * (bank conflicts) -> privatized copies per warp, r = max(1, e) / passes; otherwise one pass per job
 * saturates the unit -> byte-lanes (4 counters per word), r = 1 / 4. Only for verdicts bottleneck and bound.
 */
void atl_smem_advise(const struct atl_smem_util *u, const struct atl_smem_counters *in, enum atl_smem_variant v,
                     double threshold, double dram_achievable, struct atl_smem_advice *out);

/** The instruction class that dominates a kernel's jobs: "CAS" (CAS share >= 0.5, loop retries included),
 * "POPC.INC" (merged, or the unused variant without a pass count), "ADD", or "-" without shared atomics. */
const char *atl_smem_unit_class(const struct atl_smem_util *u, enum atl_smem_variant v);

/** "bottleneck", "not a bottleneck" or "bound" (the counters cannot decide: docs/design/model.md). */
const char *atl_smem_unit_verdict(const struct atl_smem_unit *u, double threshold);

/** One line per bit of @p assumed, for reports; empty string if none. */
void atl_smem_assumptions_text(unsigned assumed, char *buf, size_t len);

/** Table 2 for one kernel, on the average SM. */
struct atl_smem_util {
  double jobs;        /**< N: atomic jobs per SM ((sum N_f + N_c) / SMs) */
  double n_hat;       /**< n-hat = occupancy x warps per SM */
  double e;           /**< lanes per distinct word of a job (the table's e): (O / N) / (words / N) */
  double c;           /**< n-hat x N_c / (N_c + N_f) */
  double service;     /**< S(n-hat, e, c), cycles */
  double busy;        /**< B = N x S, cycles */
  double service_pipelined; /**< S'(n-hat, e, c) (atl_smem_S_pipelined), NAN if the table cannot give it */
  double busy_pipelined;    /**< B' = N x S', cycles (NAN likewise) */
  double time;        /**< T: active cycles per SM */
  double utilization; /**< U = B / T */
  int clamped;        /**< an input lay outside the table and was clamped */
  unsigned assumed;   /**< enum atl_smem_assumption bits */
  struct atl_smem_unit unit; /**< the unit model: the U and verdict reports print (utilization above is the seed's B / T) */
};

/**
 * Derives Table 2 from @p in with the table's variant @p v. A kernel without
 * shared atomics has N = 0, B = 0, U = 0. Returns 0, or ATL_EINVAL with a
 * reason (missing or impossible counters, a table without that variant).
 */
int atl_smem_utilization(const struct atl_smem_table *table, enum atl_smem_variant v,
                         const struct atl_smem_counters *in, struct atl_smem_util *out, char *why, size_t why_len);

/** Where the clock that turns B into time came from (atl_smem_prediction.clock_source). */
enum atl_smem_clock_source {
  ATL_SMEM_CLOCK_ELAPSED = 1, /**< the kernel's own: elapsed SM cycles / duration */
  ATL_SMEM_CLOCK_DEVICE = 2   /**< the device's rated clock (device__attribute_clock_rate) */
};

/** The model's predicted busy time against the measured kernel time, for one kernel. */
struct atl_smem_prediction {
  double clock_mhz;   /**< SM clock used to turn cycles into time */
  int clock_source;   /**< enum atl_smem_clock_source */
  double busy_ns;     /**< B (the average SM's atomic busy time) in nanoseconds */
  double measured_ns; /**< the kernel's duration (gpu__time_duration) */
  double ratio;       /**< busy_ns / measured_ns: what fraction of the kernel the unit was busy */
  double error;       /**< ratio - 1: the prediction's error where the unit is the bottleneck (B should equal the time) */
  double busy_pipelined_ns; /**< B' (pipelined service time) in nanoseconds, NAN if not derived */
  double ratio_pipelined;   /**< busy_pipelined_ns / measured_ns */
  double passes;      /**< shared-memory passes per atomic job (wavefronts / N), 0 if not counted */
  int have_passes;
};

/**
 * Compares the busy time B of @p u (from atl_smem_utilization() on @p in)
 * with the measured duration of the kernel. The clock is the kernel's own
 * (elapsed cycles / duration) where the counters have both, else the device's
 * rated clock. Returns 0, or ATL_EINVAL with a reason (no duration, no clock).
 */
int atl_smem_predict(const struct atl_smem_counters *in, const struct atl_smem_util *u, struct atl_smem_prediction *out,
                     char *why, size_t why_len);

/** One row of a case-study run (a CSV from `atomlab hist-case -o`). */
struct atl_smem_case {
  char kernel[32];               /**< histogram or histogram2 */
  char image[16];                /**< solid or uniform */
  enum atl_smem_variant variant; /**< result: unused (ATOMS.POPC.INC) or used (ATOMS.ADD) */
  unsigned pixels, wg_size;
  unsigned launches;             /**< kernel launches of the row: warmup + reps (warmup 1 where the file has none) */
};

/**
 * Reads the rows of a case-study CSV (columns kernel, image, result, pixels,
 * wg_size, reps and optionally warmup; others ignored) into a malloc'ed array.
 * Returns 0, or ATL_EINVAL with a reason naming the file and line.
 */
int atl_smem_cases_parse_csv(const char *text, const char *name, struct atl_smem_case **cases, size_t *count,
                             char *why, size_t why_len);

/** atl_smem_cases_parse_csv() on a file; ATL_EIO with "'path': reason" in @p why if it cannot be read. */
int atl_smem_cases_read_csv(const char *path, struct atl_smem_case **cases, size_t *count, char *why, size_t why_len);

/** The counters a profile needs: per quantity, the metric names tried in order (NULL-terminated lists). */
enum atl_ncu_quantity {
  ATL_NCU_FAO, ATL_NCU_CAS, ATL_NCU_OPS, ATL_NCU_ACTIVE_CYCLES, ATL_NCU_OCCUPANCY, ATL_NCU_DURATION,
  ATL_NCU_SM_COUNT, ATL_NCU_WARPS_PER_SM, ATL_NCU_WORDS, ATL_NCU_ELAPSED, ATL_NCU_CLOCK, ATL_NCU_WAVEFRONTS,
  ATL_NCU_ISSUE, ATL_NCU_DRAM, ATL_NCU_QUANTITIES
};

/** Whether a profile asks ncu for a quantity only when ncu lists it (an optional extra, never required). */
int atl_ncu_optional(enum atl_ncu_quantity q);

/** A FAO metric that counts every ATOMS instruction, CAS included: N_f is its value minus N_c. */
#define ATL_NCU_INCLUDES_CAS 1u

/** One way to read a quantity: a metric, what its value is divided by, ATL_NCU_* flags. */
struct atl_ncu_metric {
  const char *name;
  double divisor;
  unsigned flags;
};

/** The candidate metrics of a quantity, best first, ending with {NULL, 0}. */
const struct atl_ncu_metric *atl_ncu_candidates(enum atl_ncu_quantity q);

/** A short name of the quantity ("N_f", "O", ...). */
const char *atl_ncu_quantity_name(enum atl_ncu_quantity q);

/** Whether @p metric appears as a whole metric name in the output of `ncu --query-metrics`. */
int atl_ncu_listed(const char *listing, const char *metric);

/**
 * The metrics a profile asks ncu for, comma-separated into @p out: per
 * quantity the first candidate @p listing (the output of `ncu
 * --query-metrics`; NULL: unknown, then every first candidate and no optional
 * extra) names. Quantities from the device (SMs, warps per SM, clock) are not
 * asked for. Returns 0; ATL_ENOTSUP with the quantity in @p missing where a
 * required one (N_f, active cycles, occupancy) has no candidate listed;
 * ATL_ERANGE if @p out is too small.
 */
int atl_ncu_select_metrics(const char *listing, char *out, size_t len, enum atl_ncu_quantity *missing);

/**
 * The ncu to run: @p given where not NULL, else $NCU, else the first ncu on
 * PATH, else /usr/local/cuda/bin/ncu, written to @p path. Returns 0 where it
 * is executable, else -1 (@p path holds the last one tried).
 */
int atl_ncu_find(const char *given, char *path, size_t len);

/** What a line atl_ncu_profile_run() tells is: a note on what it does instead, or the ncu command it runs now. */
enum atl_ncu_note { ATL_NCU_NOTE, ATL_NCU_RUNNING };

/** A program to profile under ncu with the metrics the models read. */
struct atl_ncu_profile {
  const char *ncu;      /**< the ncu binary (atl_ncu_find) */
  char *const *program; /**< the program and its arguments, NULL-terminated */
  const char *kernel;   /**< only kernels whose name matches this regex (NULL: every kernel) */
  const char *extra;    /**< more ncu metrics to collect, comma-separated (NULL: none) */
  double timeout;       /**< seconds every ncu run together may take before it is stopped; 0: no limit */
  void (*notify)(void *arg, enum atl_ncu_note kind, const char *text); /**< NULL: nothing is told */
  void *arg;
};

/** What atl_ncu_profile_run() got; atl_ncu_profile_release() frees it. */
struct atl_ncu_profile_outcome {
  char *text;         /**< ncu's CSV export (--page raw, base units) of every profiled kernel */
  const char *during; /**< the run that was stopped or failed, in words ("'ncu --import'"); NULL: none */
  int signal;         /**< the stop request (stop.h) that stopped it; 0: none */
  int timed_out;      /**< the time bound stopped it */
  int rc;             /**< the failed run's exit status */
  int no_report;      /**< ncu's run of the program wrote no report */
  char *tail;         /**< the last 1500 bytes of what ncu said (stderr) in the run that failed or stopped */
  char warning[4400]; /**< why the temporary folder could not be removed ("": it was) */
};

/**
 * Profiles @p p's program: asks ncu which metrics it offers (the first
 * candidate of each quantity it lists, atl_ncu_select_metrics(), and the L2
 * model's, atl_l2_metric_names()), runs the program under ncu --clock-control
 * none with them and exports the report as CSV into @p out->text. ncu's files
 * go to a temporary folder in $TMPDIR (else /tmp), removed before this
 * returns; a stop request (stop.h) reaches ncu and the program. Returns 0;
 * ATL_EINTR stopped by a signal or the time bound (@p out says which and
 * during what); ATL_EIO a run failed (@p out: which, its exit status, what
 * ncu said) or, with @p out->during NULL, no temporary folder (@p why);
 * ATL_ENOTSUP ncu lacks a required metric, ATL_ERANGE a metric list too long
 * (@p why); ATL_ENOMEM.
 */
int atl_ncu_profile_run(const struct atl_ncu_profile *p, struct atl_ncu_profile_outcome *out, char *why,
                        size_t why_len);

/** Frees what an outcome holds. */
void atl_ncu_profile_release(struct atl_ncu_profile_outcome *out);

/** Kernels read from an ncu CSV export. */
struct atl_ncu_report {
  struct atl_smem_counters *kernels;
  size_t count;
};

/**
 * Parses ncu's CSV: the raw page (`--page raw`: a header, a units row, one row
 * per kernel) or the details page (one row per metric with "Metric Name",
 * "Metric Unit", "Metric Value"), quoted fields, thousands separators, SI unit
 * prefixes; lines before the header (==PROF== notes, program output) are
 * skipped. @p warps_per_sm and @p sm_count fill quantities the file lacks (0:
 * none). Returns 0, or ATL_EINVAL with a reason naming what is missing.
 */
int atl_ncu_parse_csv(const char *text, const char *name, double warps_per_sm, double sm_count,
                      struct atl_ncu_report *report, char *why, size_t why_len);

/** atl_ncu_parse_csv() on a file; ATL_EIO with "'path': reason" in @p why if it cannot be read. */
int atl_ncu_read_csv(const char *path, double warps_per_sm, double sm_count, struct atl_ncu_report *report, char *why,
                     size_t why_len);

/** Frees a report. */
void atl_ncu_report_release(struct atl_ncu_report *report);

/** How the kernels of a counter export are judged: what `model util`, `profile` and `model predict` share. */
struct atl_smem_settings {
  enum atl_smem_variant variant; /**< the table's variant that models the kernels' fetch-and-adds */
  double threshold;              /**< U at or above it is a bottleneck */
  double sm_count;               /**< SMs, where the counters lack them (0: none) */
  double warps_per_sm;           /**< resident warps per SM, where the counters lack them (0: none) */
  double dram_achievable;        /**< the DRAM share of peak a streaming kernel achieves (atl_l2_dram_achievable):
                                      the advice's DRAM floor; 0: not calibrated, peak taken */
};

/** The defaults: the used variant (ATOMS.ADD), threshold 0.8, nothing filled in. */
void atl_smem_settings_init(struct atl_smem_settings *s);

/**
 * The device a profile runs on: the first that Nsight Compute can profile.
 * Fills the settings' SM count and warps per SM where they are unset (the
 * fallbacks for an export that lacks them) and @p device (may be NULL).
 * Returns 0, or ATL_ENODEV if no device has ncu counters (nothing changed).
 */
int atl_smem_profile_device(atl_context_t ctx, struct atl_smem_settings *settings, struct atl_device_info *device);

/** The verdict on a utilization: "bottleneck" at or above @p threshold, else "not a bottleneck". */
const char *atl_smem_verdict(double utilization, double threshold);

/** Whether an ncu kernel name is the first @p len bytes of @p want, alone or followed by a C++ parameter list. */
int atl_smem_kernel_is(const char *kernel, const char *want, size_t len);

/** Table 2 of one kernel of an export, or why the counters could not give it. */
struct atl_smem_kernel_util {
  struct atl_smem_counters counters; /**< as read, with the settings' SM count and warps per SM where they lacked them */
  struct atl_smem_util util;         /**< valid where @p err is 0 */
  int err;                           /**< 0, or ATL_EINVAL with the reason in @p why */
  char why[512];
};

/** Table 2 of every kernel of an export, in the export's order. */
struct atl_smem_util_set {
  struct atl_smem_settings settings;
  struct atl_smem_kernel_util *kernels;
  size_t count;
  size_t failures;  /**< kernels whose utilization could not be derived */
  unsigned assumed; /**< the union of the derived kernels' enum atl_smem_assumption bits */
};

/**
 * Derives Table 2 for every kernel of @p report. A kernel whose counters
 * cannot give it is a row with its reason (counted in set->failures), not a
 * failure of the call. Returns 0 or ATL_ENOMEM.
 */
int atl_smem_util_derive(const struct atl_smem_table *table, const struct atl_smem_settings *settings,
                         const struct atl_ncu_report *report, struct atl_smem_util_set *set);

/** Frees the rows of a set. */
void atl_smem_util_set_release(struct atl_smem_util_set *set);

/** What a utilization file names besides its rows. */
struct atl_smem_util_labels {
  const struct atl_run_meta *meta; /**< provenance and device of the JSON (may be NULL for table and CSV) */
  const char *table;               /**< the calibration table's name */
  const char *counters;            /**< where the counters came from */
};

/**
 * Writes a set as a table (with the assumptions in full below it), CSV (one
 * row per kernel, every column) or JSON (provenance, settings, counters and
 * derivations per kernel). Returns 0, or ATL_EIO if @p f failed.
 */
int atl_smem_util_write(FILE *f, enum atl_format fmt, const struct atl_smem_util_set *set,
                        const struct atl_smem_util_labels *labels);

/** A verdict a kernel is expected to get. */
struct atl_smem_expectation {
  const char *kernel; /**< the kernel's name: its first @p len bytes (it points into the parsed text) */
  size_t len;
  int bottleneck;     /**< 1: bottleneck; 0: not a bottleneck */
};

/**
 * Parses "KERNEL=bottleneck", "KERNEL=not" or "KERNEL=not a bottleneck" (the
 * last '=' splits); @p text must outlive @p out. Returns 0 or ATL_EINVAL.
 */
int atl_smem_expectation_parse(const char *text, struct atl_smem_expectation *out);

/** How the launches of one kernel name met an expected verdict. */
struct atl_smem_expect {
  unsigned seen;  /**< launches of that name */
  unsigned wrong; /**< of them, those with another verdict or no utilization */
  double lo, hi;  /**< the range of their utilizations (INFINITY, -INFINITY if none derived) */
};

/** Checks the verdict of every launch of kernel @p kernel (its first @p len bytes) against @p bottleneck. */
void atl_smem_expect_check(const struct atl_smem_util_set *set, const char *kernel, size_t len, int bottleneck,
                           struct atl_smem_expect *out);

/** One kernel of `model predict`: its labels, Table 2, and B against the measured time. */
struct atl_smem_predicted {
  struct atl_smem_counters counters;   /**< as read, with the settings' SM count and warps per SM filled in */
  struct atl_smem_case run;            /**< the case-study row the launch belongs to, where @p have_run */
  int have_run;
  struct atl_smem_util util;
  struct atl_smem_prediction prediction;
  int bottleneck;                      /**< U at or above the threshold */
};

/** Which input of atl_smem_predict_all() was wrong (atl_smem_predict_set.bad_input). */
enum atl_smem_predict_input {
  ATL_SMEM_INPUT_KERNEL = 1, /**< no kernel of the name asked for */
  ATL_SMEM_INPUT_RUNS = 2,   /**< the case-study rows launched another number of kernels */
  ATL_SMEM_INPUT_COUNTERS = 3 /**< a kernel's counters give no utilization or no prediction */
};

/** Every predicted kernel and the summary of the errors. */
struct atl_smem_predict_set {
  struct atl_smem_settings settings;
  struct atl_smem_predicted *kernels;
  size_t count;
  struct atl_stats error;           /**< |B / measured - 1| over the bottleneck kernels (samples 0: none) */
  struct atl_stats error_pipelined; /**< |B' / measured - 1| over the bottleneck kernels that have B' */
  struct atl_stats others;          /**< B / measured over the other kernels: the share of the kernel the unit was busy */
  int bad_input;                    /**< on ATL_EINVAL: enum atl_smem_predict_input */
};

/**
 * Predicts B against the measured time for every kernel of @p report named
 * @p kernel (NULL: all; with @p cases: "smem_histogram" where NULL). With
 * @p cases (the rows of the profiled case-study run, @p ncases of them), row
 * r owns its next warmup + reps launches and the last of them stands for it,
 * modelled with the row's own variant; their launches must add up to the
 * kernels of that name. Nothing is returned half: any wrong input is
 * ATL_EINVAL with the reason in @p why and set->bad_input naming the input;
 * ATL_ENOMEM otherwise.
 */
int atl_smem_predict_all(const struct atl_smem_table *table, const struct atl_smem_settings *settings,
                         const struct atl_ncu_report *report, const struct atl_smem_case *cases, size_t ncases,
                         const char *kernel, struct atl_smem_predict_set *set, char *why, size_t why_len);

/**
 * atl_smem_predict_all() with the case-study rows of the file @p runs_path
 * (atl_smem_cases_read_csv(); NULL: no rows, every kernel on its own; a file
 * without rows matches no launch). A file that cannot be read is
 * set->bad_input ATL_SMEM_INPUT_RUNS with its error (ATL_EIO: the reason
 * starts with the path).
 */
int atl_smem_predict_file(const struct atl_smem_table *table, const struct atl_smem_settings *settings,
                          const struct atl_ncu_report *report, const char *runs_path, const char *kernel,
                          struct atl_smem_predict_set *set, char *why, size_t why_len);

/** Frees the rows of a set. */
void atl_smem_predict_set_release(struct atl_smem_predict_set *set);

/**
 * Writes the summary of a set, one sentence a line: the median and largest
 * |error| of the bottleneck kernels with B and with B', and B / measured of the
 * others (where the unit was busy part of the time). 0, or ATL_EIO.
 */
int atl_smem_predict_write_summary(FILE *f, const struct atl_smem_predict_set *set);

/** Writes a set as CSV, every column (the case-study labels empty without rows). 0, or ATL_EIO if @p f failed. */
int atl_smem_predict_write_csv(FILE *f, const struct atl_smem_predict_set *set);

/**
 * Writes a set as a Markdown table with its summary: the paths of the
 * calibration @p table, the @p counters and the case rows @p runs (may be
 * NULL) name the inputs; every name from a file is escaped (no '|', newline
 * or HTML reaches the table). 0, or ATL_EIO if @p f failed.
 */
int atl_smem_predict_write_md(FILE *f, const struct atl_smem_predict_set *set, const char *table, const char *counters,
                              const char *runs);

/**
 * Parses one axis of a calibration grid: a value, a list, A:B (powers of
 * two), A:B:xK or A:B:+K (atl_axis_parse()), values 1..@p max, into a
 * malloc'ed array; with @p zero_ok 0 may stand alone or first in a list (c:
 * no CAS warp). "all" gives NULL and 0: every value, the calibration's
 * default. Returns 0, or ATL_EINVAL, ATL_ERANGE or ATL_ENOMEM with a reason.
 */
int atl_smem_grid_axis_parse(const char *text, unsigned max, int zero_ok, unsigned **values, size_t *count,
                             char *why, size_t why_len);

/** Settings of a calibration run. */
struct atl_smem_calibration {
  unsigned nmax;             /**< resident warps per SM (the largest n) */
  const unsigned *n_values;  /**< n to measure (each 1..nmax), or NULL for every n from 1 to nmax */
  size_t n_count;
  const unsigned *e_values;  /**< e to measure (each 1..32), or NULL for every e from 1 to 32 */
  size_t e_count;
  const unsigned *c_values;  /**< c to measure, or NULL for every c from 0 to n */
  size_t c_count;
  int variants[ATL_SMEM_VARIANTS]; /**< which variants to measure */
  unsigned reps;             /**< launches per point; the table keeps the median */
  unsigned delay_cycles;     /**< the start gate's distance from the first arrival */
  void (*progress)(void *arg, size_t done, size_t total); /**< may be NULL */
  void *progress_arg;
};

/** What a calibration run produced besides the table. */
struct atl_smem_calibration_info {
  char instructions[ATL_SMEM_VARIANTS][256]; /**< the atomic machine instructions of each variant's kernel */
  size_t points;          /**< points measured (all variants) */
  size_t launches;        /**< kernel launches */
  size_t retried;         /**< point measurements repeated (a late or missing block) */
  double seconds;         /**< wall time */
  unsigned slots;         /**< SMs that took part */
  double clock_mhz;       /**< the device's reported clock */
};

/** Per point: min and max over the repetitions (same layout as the table). */
struct atl_smem_spread {
  struct atl_smem_table min, max;
};

/** What the metadata of a calibration names besides the run's settings and counts. */
struct atl_smem_calibration_labels {
  const struct atl_run_meta *meta; /**< provenance and device */
  const char *table;               /**< the CSV's file name, as the JSON refers to it */
  const char *grid;                /**< the grid as the user asked for it ("n 1:64, e every 1..32, c all") */
  int complete;                    /**< 0 for the points of an interrupted run */
};

/** Writes the JSON beside a calibration table: provenance, device, grid, counts, the SASS of each variant. */
int atl_smem_calibration_write_json(FILE *f, const struct atl_smem_calibration *cfg,
                                    const struct atl_smem_calibration_info *info,
                                    const struct atl_smem_calibration_labels *labels);

/** The files of a calibration: PREFIX.csv (the table) and PREFIX.json (its metadata). */
struct atl_smem_calibration_files {
  char prefix[3900];
  char csv[4000], json[4000];
};

/**
 * Names the files of a calibration and makes their folder: PREFIX.csv and
 * .json, PREFIX.interrupted.csv and .json for the points of an interrupted
 * run (never over a complete table). @p prefix NULL: smem-table in the
 * user's cache folder of @p device (atl_cache_dir()). Returns 0, or
 * ATL_EINVAL (a prefix too long, no cache folder) or ATL_EIO (the folder)
 * with a reason.
 */
int atl_smem_calibration_files(const char *prefix, const struct atl_device_info *device, int interrupted,
                               struct atl_smem_calibration_files *files, char *why, size_t why_len);

/**
 * The user's cache folder of the device @p slug (atl_device_slug()):
 * $XDG_CACHE_HOME/atomlab/SLUG, else $HOME/.cache/atomlab/SLUG, where
 * `atomlab calibrate` writes its tables. Returns 0, or ATL_EINVAL where
 * neither variable is set or the path does not fit @p len.
 */
int atl_cache_dir(const char *slug, char *buf, size_t len);

/**
 * The shared-memory calibration table of the device @p slug: smem-table.csv
 * in the user's cache folder (atl_cache_dir()), else the one shipped for
 * that device: under $ATL_DATA_DIR/SLUG, the installed share/atomlab/SLUG,
 * then the source tree's data/calibrations/SLUG (a build-tree run). Returns
 * 0 with the path in @p path, or ATL_EINVAL where there is none.
 */
int atl_smem_table_find(const char *slug, char *path, size_t len);

/**
 * Writes what a run did: its points, reps, launches, SMs, repeated samples and
 * time on one line, then each variant's atomic instructions, with a note where
 * they are not the ones its kernel is built for (ATOMS.ADD, ATOMS.POPC.INC).
 */
int atl_smem_calibration_write_summary(FILE *f, const struct atl_smem_calibration *cfg,
                                       const struct atl_smem_calibration_info *info);

/** Sets up a table and its spread for n up to @p nmax and every e; ATL_ERANGE for @p nmax outside 1..ATL_SMEM_MAX_N. */
int atl_smem_spread_init(struct atl_smem_table *table, struct atl_smem_spread *spread, unsigned nmax);

/** Frees what atl_smem_spread_init() set up. */
void atl_smem_spread_release(struct atl_smem_table *table, struct atl_smem_spread *spread);

/**
 * Measures T(n, e, c) on the open device (CUDA only: ATL_ENOTSUP elsewhere).
 * Every measurement verifies the final shared-memory words and the returned
 * values; ATL_EVERIFY if any is wrong, ATL_EDEADLOCK if the start gate's
 * bound expired. @p table (initialised by the caller for nmax) receives the
 * medians, @p spread (may be NULL; initialised likewise) min and max.
 * Polls atl_stop_requested() between launches: once it is set, the table
 * holds the points that got every rep (info->points of them) and the
 * function returns ATL_EINTR.
 */
int atl_smem_calibrate(atl_context_t ctx, const struct atl_smem_calibration *cfg, struct atl_smem_table *table,
                       struct atl_smem_spread *spread, struct atl_smem_calibration_info *info);

/** One run of the seed's histogram case study (Listings 1 and 2) on an RGBA image. */
struct atl_smem_histogram_spec {
  int reorder;         /**< 0: histogram (Listing 1); 1: histogram2 (Listing 2, channels reordered by thread) */
  int result_used;     /**< 1: the result of atomicAdd is read (ATOMS.ADD); 0: unused (ATOMS.POPC.INC on sm_80+) */
  int solid;           /**< 1: every pixel one colour (labelled "solid"); 0: uniformly random channels */
  unsigned pixels;     /**< image size */
  unsigned wg_size;    /**< threads per block */
  unsigned workgroups; /**< blocks (the kernel strides over the image) */
  unsigned reps;       /**< timed launches; the median is reported */
  unsigned warmup;     /**< untimed launches before them (0 under a profiler: one launch per row) */
};

/** What one run of a case-study or validation kernel measured. */
struct atl_smem_run_result {
  double median_ms, min_ms, max_ms; /**< device time per launch */
  double atomics;         /**< validation: shared atomic warp-instructions per launch (the known answer for N) */
  int verified;           /**< histogram: every launch's 1024 bins equal the host's histogram; validation: final
                               words, returned values, atomic count and data sum as expected */
  unsigned wrong;         /**< bins or values that differed (in the worst launch) */
  char instructions[256]; /**< the kernel's atomic machine instructions */
};

/** Runs the case study on the open CUDA device (ATL_ENOTSUP elsewhere); ATL_EVERIFY if a bin is wrong. */
int atl_smem_histogram_run(atl_context_t ctx, const struct atl_smem_histogram_spec *spec,
                           struct atl_smem_run_result *out);

/** The header of the case study's CSV (what atl_smem_cases_parse_csv() reads). */
void atl_smem_histogram_write_csv_header(FILE *f);

/** One row of the case study's CSV: the run's labels, its times and Gpixel/s, verification, instructions. */
void atl_smem_histogram_write_csv_row(FILE *f, const struct atl_smem_histogram_spec *spec,
                                      const struct atl_smem_run_result *res);

/** The two validation kernels of the model (src/backend/cuda/kernels/smem_validate.cu). */
enum atl_smem_validation {
  ATL_SMEM_VALIDATE_ATOMICS = 0, /**< shared atomics only, e = 32 on one word per warp: U near 1 (a bottleneck) */
  ATL_SMEM_VALIDATE_STREAM = 1,  /**< a global-memory stream with one shared atomic per `iters` loads: U low */
  ATL_SMEM_VALIDATIONS = 2
};

/** The kernel name of a validation kernel ("smem_validate_atomics", "smem_validate_stream"). */
const char *atl_smem_validation_kernel(enum atl_smem_validation which);

/** One run of a validation kernel. */
struct atl_smem_validation_spec {
  enum atl_smem_validation which;
  unsigned wg_size;    /**< threads per block (a multiple of 32, at most 1024) */
  unsigned workgroups; /**< blocks */
  unsigned iters;      /**< atomics: atomics per thread; stream: loads per shared atomic (the period) */
  size_t bytes;        /**< stream: bytes read (16 per load) */
  unsigned warmup, reps;
};

/** Runs a validation kernel on the open CUDA device (ATL_ENOTSUP elsewhere); ATL_EVERIFY if a value is wrong. */
int atl_smem_validation_run(atl_context_t ctx, const struct atl_smem_validation_spec *spec,
                            struct atl_smem_run_result *out);

/** The header of the validation runs' CSV. */
void atl_smem_validation_write_csv_header(FILE *f);

/** One row of the validation runs' CSV, with the verdict the kernel is built to get. */
void atl_smem_validation_write_csv_row(FILE *f, const struct atl_smem_validation_spec *spec,
                                       const struct atl_smem_run_result *res);

/** The case study's kernel by name: 0 histogram (Listing 1), 1 histogram2 (Listing 2); -1 if neither. */
int atl_smem_case_kernel_parse(const char *s);

/** The case study's image by name: 0 solid, 1 uniform; -1 if neither. */
int atl_smem_case_image_parse(const char *s);

/** A case-study sweep: every kernel x image x result of the masks, over every image size and block size. */
struct atl_smem_case_plan {
  unsigned kernels;         /**< bit 0: histogram, bit 1: histogram2 */
  unsigned images;          /**< bit 0: solid, bit 1: uniform */
  unsigned results;         /**< bit ATL_SMEM_UNUSED, bit ATL_SMEM_USED */
  const uint32_t *pixels;   /**< image sizes */
  size_t npixels;
  const uint32_t *wg_sizes; /**< threads per block */
  size_t nwg;
  unsigned workgroups;      /**< blocks; 0: as many of wg_size as fit on every SM at once */
  unsigned reps, warmup;    /**< as in struct atl_smem_histogram_spec */
};

/** The rows of a plan. */
size_t atl_smem_case_plan_rows(const struct atl_smem_case_plan *plan);

/**
 * Runs every row of @p plan (kernel, image, result, size, block, in that
 * order: the order `model predict --runs` pairs with an export's launches)
 * and writes each as it is measured: a line of the table to @p table and a
 * row of the CSV atl_smem_cases_parse_csv() reads to @p csv, headers first
 * (either may be NULL). A row that cannot run is an "error:" line of the table
 * and the sweep goes on. atl_stop_requested() is polled between rows:
 * ATL_EINTR once it is set. Returns 0 if every row verified, else
 * ATL_EVERIFY; @p done counts the rows run.
 */
int atl_smem_case_sweep(atl_context_t ctx, const struct atl_smem_case_plan *plan, FILE *table, FILE *csv,
                        size_t *done);

/**
 * The model's two validation kernels as atl_smem_case_sweep() runs its rows:
 * blocks of @p wg_size (a multiple of 32), @p workgroups of them (0: the
 * device's full occupancy). Returns 0, ATL_EVERIFY or ATL_EINTR likewise.
 */
int atl_smem_validation_sweep(atl_context_t ctx, unsigned wg_size, unsigned workgroups, unsigned warmup,
                              unsigned reps, FILE *table, FILE *csv, size_t *done);

/** One run of the case study as its files record it: a profiled launch (predict.csv) or a timing (hist-case.csv). */
struct atl_smem_case_point {
  char kernel[32];               /**< histogram or histogram2 */
  char image[16];                /**< solid or uniform */
  enum atl_smem_variant variant; /**< the result unused (ATOMS.POPC.INC) or used (ATOMS.ADD) */
  unsigned pixels, wg_size;
  double utilization, e;         /**< launches: the model's U and e */
  double passes;                 /**< launches: shared-memory passes per atomic job, NAN where not counted */
  double busy_us, measured_us;   /**< launches: B and the kernel's measured time */
  double ratio, ratio_pipelined; /**< launches: B / measured, B' / measured (NAN where not derived) */
  int bottleneck;                /**< launches: the verdict was "bottleneck" */
  double median_ms;              /**< timings: the median time per launch */
};

/** A validation kernel's verdict as validate.csv (`atomlab profile ... -o`) records it. */
struct atl_smem_case_check {
  char kernel[64], verdict[32];
  char utilization[32]; /**< U as the file writes it */
};

/** The files of a case-study folder: the calibration, the case study's rows and exports, the predictions. */
struct atl_smem_case_study {
  char dir[1024];
  struct atl_smem_case_point *launches; /**< predict.csv (`model predict --runs ... -o`): none where absent */
  size_t nlaunches;
  struct atl_smem_case_point *timings;  /**< hist-case.csv (`hist-case -o`, without the profiler) */
  size_t ntimings;
  struct atl_smem_case_check *checks;   /**< validate.csv (`profile ... -- hist-case --validate`) */
  size_t nchecks;
  int have_checks;                      /**< validate.csv is there */
  unsigned *wgs, *sizes;                /**< the block sizes and image sizes of either file, ascending */
  size_t nwgs, nsizes;
};

/**
 * Reads DIR/predict.csv, DIR/hist-case.csv and DIR/validate.csv; any of them
 * may be missing (a step of the run that did not finish), but not both of the
 * first two. Returns 0, or ATL_EIO, ATL_EINVAL or ATL_ENOMEM with a reason
 * naming the file (a file without rows or a column, a field not a number).
 */
int atl_smem_case_study_read(const char *dir, struct atl_smem_case_study *study, char *why, size_t why_len);

/** Frees what atl_smem_case_study_read() allocated. */
void atl_smem_case_study_release(struct atl_smem_case_study *study);

/**
 * Writes whether the seed's findings hold on this GPU, each computed from the
 * files on the large images (a quarter of the largest and above): (1) solid
 * images saturate the unit with e = 32, (2) uniform ones stay below @p
 * threshold with e (bank-conflict passes) near 3, (3) histogram2 lowers U and
 * runs faster; then B against the measured time and the validation verdicts.
 * A finding without data says NO DATA. 0, ATL_ENOMEM or ATL_EIO.
 */
int atl_smem_case_study_write_summary(FILE *f, const struct atl_smem_case_study *study, double threshold);

/** The case study's figures (seed 002, Figures 3-5, and the prediction). */
enum atl_smem_case_figure {
  ATL_SMEM_CASE_UTIL,    /**< U per image size: 4 panels (image x result), a series per kernel and block size */
  ATL_SMEM_CASE_SPEEDUP, /**< histogram2's speedup per image size: 4 panels, a series per block size */
  ATL_SMEM_CASE_PRED     /**< B against the measured time: block 0 the bottleneck launches, block 1 the others */
};

/** Writes a figure's gnuplot data (panels as blocks two blank lines apart, NaN where not measured). */
int atl_smem_case_study_write_dat(FILE *f, const struct atl_smem_case_study *study, enum atl_smem_case_figure fig);

/** Resident warps per SM of the open device (max threads per SM / warp size); 0 if unknown. */
unsigned atl_smem_max_warps(atl_context_t ctx);

/**
 * Sets @p cfg's nmax from the open device and its n, e and c axes from
 * @p values (NULL: every value) and @p counts, in that order. Returns 0;
 * ATL_ENOTSUP where the device's resident warps per SM are unknown;
 * ATL_EINVAL with a reason that starts with the parameter's name ("n 99 is
 * above ...") where an n exceeds them.
 */
int atl_smem_calibration_axes(atl_context_t ctx, struct atl_smem_calibration *cfg, unsigned *const values[3],
                              const size_t counts[3], char *why, size_t why_len);

#ifdef __cplusplus
}
#endif
#endif
