/*
 * The first model of global-memory (L2) atomics (issue [diagnose], docs/design/model.md, "Global atomics").
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
 * Hot words of float adds (f32_share from the kernel's SASS) take S_same of float adds where calibrated, else
 * S_same times the architecture's ratio of the tuning table (f32_ratio), U's range reaching down to the integer
 * price.
 */
#ifndef ATOMLAB_L2MODEL_H
#define ATOMLAB_L2MODEL_H

#include "experimental.h" /* not the stable API */

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
  double dram_bytes;       /**< dram__bytes.sum (read and written), or -1 where the export lacks it */
  /* what the advice's predictions read besides (each -1 where the export lacks it) */
  double issue_max;        /**< smsp__inst_executed.max: the busiest SM sub-partition's warp-instructions */
  double sm_elapsed;       /**< sm__cycles_elapsed.avg: the kernel's SM cycles (its SM clock with the duration) */
  double l1_requests;      /**< l1tex__t_requests_pipe_lsu_mem_global_op_{atom,red}.sum: global atomic warp-instructions */
  double l1_set_accesses;  /**< l1tex__t_set_accesses_pipe_lsu_mem_global_op_{atom,red}.sum: the L2 requests they split into */
  double grid_size;        /**< launch__grid_size: blocks of the launch */
  double block_size;       /**< launch__block_size: threads per block */
  double sm_count;         /**< device__attribute_multiprocessor_count */
  double warp_size;        /**< device__attribute_warp_size */
  double clock_khz;        /**< device__attribute_clock_rate (the SM clock where sm__cycles_elapsed is missing) */
  double f32_share;        /**< the share of its global atomic instructions that are float adds (RED/ATOM .ADD.F32),
                                from its SASS (atl_l2_types_apply); 0: none or not known */
  /* read where the export has them (the shared-memory model asks for them), each -1 where it lacks them */
  double smem_cas;         /**< smsp__inst_executed_op_shared_atom_dot_cas.sum: shared CAS instructions */
  double warps_active_pct; /**< sm__warps_active.avg.pct_of_peak_sustained_active */
  double max_warps;        /**< device__attribute_max_warps_per_multiprocessor */
  /* a private table's residency and its hot word's updates (atl_l2_private_blocks, the chain): -1 where missing */
  double occ_limit_regs;   /**< launch__occupancy_limit_registers: blocks a SM the launch's registers allow */
  double occ_limit_warps;  /**< launch__occupancy_limit_warps */
  double occ_limit_blocks; /**< launch__occupancy_limit_blocks */
  double smem_block;       /**< launch__shared_mem_per_block_static + _dynamic: the launch's own shared memory */
  double smem_driver;      /**< launch__shared_mem_per_block_driver: what the driver reserves a block */
  double smem_sm;          /**< device__attribute_max_shared_memory_per_multiprocessor */
  double sectors_max;      /**< lts__t_sectors_op_{atom,red}.max: the busiest slice's atomic sector accesses */
  double sector_misses_max; /**< lts__t_sectors_op_{atom,red}_lookup_miss.max: its distinct sectors (each misses
                                 once, ncu flushing the L2 before a pass) */
  double cc_major, cc_minor; /**< device__attribute_compute_capability_{major,minor}: the device's architecture (9, 0:
                                  sm_90), -1 where the export lacks them */
};

/** A list of launches read from one export. */
struct atl_l2_report {
  struct atl_l2_counters *kernels;
  size_t count;
};

/** The two kinds of L2 atomic request. */
enum atl_l2_kind { ATL_L2_ATOM, ATL_L2_RED, ATL_L2_KINDS };

/** Contender counts the chain calibration holds at most. */
#define ATL_L2_CHAIN_POINTS 8

/** The device's calibration: L2 cycles per atomic request at a saturated slice, by kind. */
struct atl_l2_calibration {
  double s_same[ATL_L2_KINDS]; /**< requests to one word (the same-address chain) */
  double s_dist[ATL_L2_KINDS]; /**< requests to distinct lines */
  double dram_share;           /**< the DRAM throughput a streaming kernel achieves, share of peak (0 < x <= 1;
                                    atl_l2_dram_achievable); 0: not calibrated, peak taken */
  double dram_warps;           /**< that streaming kernel's resident warps a SM (its launch limits: the memory
                                    parallelism behind dram_share; atl_l2_launch_warps); 0: not known */
  double dram_bytes_per_ns;    /**< the bandwidth that streaming kernel achieved (DRAM bytes / duration); 0: not
                                    counted (then the floor is the share of peak) */
  double s_pass;               /**< SM cycles one pass of the shared-memory atomic unit costs (atl_smem_pass_costs);
                                    0: unknown, the strategies' shared-memory work is not counted */
  double s_same_f32[ATL_L2_KINDS]; /**< requests to one word, float adds (the dependent add chain is longer than the
                                        integer one); 0: not calibrated, s_same x f32_ratio serves, else s_same */
  struct atl_l2_chain_point {
    double warps;  /**< E: warps of one block updating each word (every lane its own word) */
    double cycles; /**< SM cycles between two updates of one such word (atl_l2_cas_chain) */
  } chain[ATL_L2_CHAIN_POINTS]; /**< the CAS loop's chain on a shared word by E contenders, E ascending (a float add
                                     in shared memory); none: the chains on a private table's hot word not counted */
  size_t chain_count;
  double table_bytes;          /**< the private table the privatized and block-aggregated kernels allocate a block
                                    (not a calibration: the strategy's design, `--private-table`); its shared memory
                                    sets how many tables are resident a SM. 0: only the hot words, the launch's own
                                    residency */
  double round_trip;           /**< SM cycles of one dependent global load's round trip at a few warps a SM
                                    (atl_l2_round_trip: the cas-chain export's streaming launches); 0: not calibrated,
                                    a private table's loads priced by their bytes */
  double f32_ratio[ATL_L2_KINDS]; /**< where s_same_f32 is 0: S_same of float adds over s_same, by kind, from the row of
                                       the tuning table data/tuning/l2.json for the device's architecture
                                       (atl_l2_calibration_f32_rule); 0: no estimate, float adds priced as integer
                                       adds */
  char f32_rule[256];             /**< how float adds on hot words are priced where s_same_f32 is 0: the architecture's
                                       ratio and its row, or why there is none ("" where no rule was looked up) */
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

/** The calibration files, in this order (a NULL path leaves its part of the calibration as it is). */
enum atl_l2_calibration_file {
  ATL_L2_FILE_SAME,
  ATL_L2_FILE_SPREAD,
  ATL_L2_FILE_DRAM,
  ATL_L2_FILE_TABLE,
  ATL_L2_FILE_SAME_F32, /**< same-address rmw launches of f32 fetch_add: s_same_f32 */
  ATL_L2_FILE_CAS_CHAIN, /**< one block a SM of shared f32 fetch_add, E warps on each word: chain (atl_l2_cas_chain) */
  ATL_L2_FILES
};

/** Each calibration file's option name, in atl_l2_calibration_file order ("same", "spread", "dram", "table",
 * "same-f32", "cas-chain"): model l2 and profile take the files by these names. */
extern const char *const atl_l2_calibration_file_names[ATL_L2_FILES];

/**
 * Sets f32_share of the launches of @p r from a CSV @p text of `kernel,f32_share` lines (a header line first):
 * a launch takes the share of the first line whose kernel is a prefix of its name. Returns 0, or ATL_EINVAL
 * with @p why (NAME:LINE: reason).
 */
int atl_l2_types_apply(struct atl_l2_report *r, const char *text, const char *name, char *why, size_t why_len);

/** atl_l2_types_apply() of the file @p path (at most 16 MiB); ATL_EINVAL with @p why also where it cannot be read. */
int atl_l2_types_apply_file(struct atl_l2_report *r, const char *path, char *why, size_t why_len);

/**
 * Reads one calibration file into its part of @p cal: S of the same-address or the spread rmw export
 * (atl_l2_cycles_per_request), the DRAM share and bandwidth of a streaming kernel's export (atl_l2_dram_achievable),
 * or the pass cost of the shared-memory table (atl_smem_pass_costs), which prices the strategies that move updates to
 * shared memory. Returns 0, ATL_EIO where the file cannot be read, or ATL_EINVAL; @p why says why.
 */
int atl_l2_calibration_read_file(struct atl_l2_calibration *cal, enum atl_l2_calibration_file which,
                                 const char *path, char *why, size_t why_len);

/**
 * atl_l2_calibration_read_file of each file of @p paths that is not NULL. On failure *@p which names the file that
 * failed (an atl_l2_calibration_file) and @p why the reason.
 */
int atl_l2_calibration_read(struct atl_l2_calibration *cal, const char *const paths[ATL_L2_FILES], int *which,
                            char *why, size_t why_len);

/**
 * Where @p cal has no f32 same-word calibration, the ratio of float to integer adds on one word for the architecture
 * sm_<@p cc_major><@p cc_minor> (a negative major: not known) from the tuning table data/tuning/l2.json (found as
 * the scatter tuning's: the user's cache, $ATL_DATA_DIR/tuning/, the installed and the source tree's data): the
 * first row matching it sets @p cal->f32_ratio; a device no row matches, a missing or malformed table leave it 0.
 * @p cal->f32_rule says which (the row, or why none). atl_l2_calibration_read_file() calls it for the same-word
 * export, whose launches name the device's architecture; an s_same_f32 read from a file always wins over it.
 */
void atl_l2_calibration_f32_rule(struct atl_l2_calibration *cal, double cc_major, double cc_minor);

/**
 * The words a warp-instruction's keys spread over, from its L2 requests per warp-instruction (the L1 counters:
 * set accesses / requests) as keys uniform over W words (atl_l2_words_from_requests): within one line where the
 * requests sit on about one hot word's slices, else over several lines. 0: coalesced lanes on distinct words
 * (fewer requests than random keys in one line give); -1: the export lacks the L1 counters.
 */
double atl_l2_key_words(const struct atl_l2_counters *k);

/** The model for one launch. */
void atl_l2_utilization(const struct atl_l2_calibration *cal, const struct atl_l2_counters *k,
                        struct atl_l2_util *out);

/** 1 where atl_l2_utilization() priced launch @p k's float adds (@p u its answer) from the architecture's ratio
 * (@p cal->f32_ratio, no f32 calibration of the device), else 0. */
int atl_l2_f32_ratio_priced(const struct atl_l2_calibration *cal, const struct atl_l2_counters *k,
                            const struct atl_l2_util *u);

/** The slack over its launch's time that a hot launch's float price may need (atl_l2_float_from_time). */
#define ATL_L2_FLOAT_FITS_LAUNCH 1.1

/**
 * A hot launch @p k whose atomics' type neither the SASS nor a types file gives (the counters do not tell it): its
 * float price where that price reaches @p threshold (the type decides the verdict) and the launch's own time holds it
 * (the busiest slice busy at most ATL_L2_FLOAT_FITS_LAUNCH times the launch), else its integer one. @p u holds
 * atl_l2_utilization()'s integer answer for @p k; where the float price is taken, @p typed is @p k with float adds
 * only, @p u its answer (U's low end the integer price's) and 1 is returned; else 0 and nothing is changed
 * (docs/design/model.md, "Float adds of a type not known").
 */
int atl_l2_float_from_time(const struct atl_l2_calibration *cal, const struct atl_l2_counters *k, double threshold,
                           struct atl_l2_counters *typed, struct atl_l2_util *u);

/**
 * The achievable share of DRAM peak from a calibration export (a streaming kernel, e.g. the scatter app's
 * copy ceiling, profiled with the L2 metrics and dram__throughput.avg.pct_of_peak_sustained_elapsed): the
 * median over its launches without atomic requests; @p bytes_per_ns the median of their dram__bytes.sum /
 * duration where the export has it (else 0). Returns 0, or ATL_EINVAL with the reason.
 */
int atl_l2_dram_achievable(const struct atl_l2_report *r, double *share, double *bytes_per_ns, char *why,
                           size_t why_len);

/**
 * The chain of a CAS loop on a shared word (a float add in shared memory, sm_90's ATOMS.CAST.SPIN) by E contenders,
 * from an export of launches with ONE block a SM (at most the SMs' count of blocks: a second block would put the
 * unit's queue inside), no global atomics, shared CAS instructions, all with the same iterations:
 *  - E = 1 (one warp a block): SM cycles / (CAS instructions / warps): every CAS instruction one update of each word
 *    the warp's lanes are on (`rmw --space local --type f32 --contention 32 --wg-size 32`: 32 lanes on one word, one
 *    update an instruction; `--pattern cross-warp --contention 1 --wg-size 32`: each lane its own word, no failure);
 *  - E > 1 (`--pattern cross-warp --contention E --wg-size 32E`: the block's E warps on the same 32 words, as a
 *    private table's hot words): SM cycles / (E x the iterations), the iterations being the CAS instructions a warp
 *    of the E = 1 launches (no failed CAS there), which the export must hold.
 * One point per E (the median over its launches) into @p pts, E ascending, at most ATL_L2_CHAIN_POINTS; *@p count
 * their number. Returns 0, or ATL_EINVAL with the reason.
 */
int atl_l2_cas_chain(const struct atl_l2_report *r, struct atl_l2_chain_point *pts, size_t *count, char *why,
                     size_t why_len);

/**
 * A dependent global load's round trip, SM cycles, from the launches of @p r without atomics that count DRAM bytes (the
 * scatter app's copy at a few warps a SM, exported with the chain calibration): each work-item copies an element of 4
 * bytes read and 4 written an iteration, its next load independent of its store, so an iteration is one round trip:
 * SM cycles / (DRAM bytes / 8 / work-items x waves), waves = blocks / (SMs x blocks a SM), at least 1. The median over
 * those launches; 0 where there is none (not an error: the calibration is optional).
 */
double atl_l2_round_trip(const struct atl_l2_report *r);

/**
 * The chain between two updates of a shared word by @p warps contenders, SM cycles: linear between the calibrated
 * E, the nearest point's value below the first, the last segment's slope past the last (a contender more adds its
 * share of failed CAS); 0 without a calibration.
 */
double atl_l2_chain_cycles(const struct atl_l2_calibration *cal, double warps);

/**
 * Blocks a SM the privatized variant of launch @p k holds: the launch's own limits (registers, warps, blocks: ncu's
 * launch__occupancy_limit_*) and its shared memory with a table of @p table_bytes more a block (the device's shared
 * memory a SM over the block's own, the table and the driver's reservation). Without the limits, the launch's
 * achieved blocks (its active warps / warps a block). 0 where neither is known.
 */
double atl_l2_private_blocks(const struct atl_l2_counters *k, double table_bytes);

/** A hot word's updates in launch @p k: the busiest slice's sector accesses over its distinct sectors (each sector
 * misses once, ncu flushing the L2 before a pass) where counted, never above its requests; else its requests. */
double atl_l2_hot_updates(const struct atl_l2_counters *k);

/** Resident warps a SM of launch @p k: atl_l2_private_blocks without a table x its warps a block (0: unknown). */
double atl_l2_launch_warps(const struct atl_l2_counters *k);

/** The strategies the advice prices for hot words (docs/design/model.md, "Advice"). */
enum atl_l2_strategy_id { ATL_L2_WARP_AGGREGATED, ATL_L2_BLOCK_AGGREGATED, ATL_L2_PRIVATIZED, ATL_L2_STRATEGIES };

/** One strategy's predicted time after it is applied: the largest of what it leaves on each unit and the floors. */
struct atl_l2_strategy {
  const char *name;  /**< "warp-aggregated", "block-aggregated", "privatized" */
  double l2_ns;      /**< the hot slice's requests left, at this kernel's cycles per request */
  double smem_ns;    /**< the element updates moved to shared memory, at the calibrated pass cost (0: none or unknown) */
  double chain_ns;   /**< float adds moved to a private table: a warp's loads, then its CAS loops, and the blocks'
                          tables cleared and flushed (the prediction's load_ns + loop_ns + table_ns; "latency" in
                          bound_by); 0: integer adds, or not calibrated */
  double after_ns;   /**< max(l2_ns, smem_ns, chain_ns, dram_ns, issue_ns) */
  double speedup;    /**< the measured duration / after_ns */
  const char *bound_by; /**< which term set after_ns: "L2", "shared", "latency", "DRAM" or "issue" */
};

/** The predictions of one launch: the strategies for hot words, best first; what they rest on. */
struct atl_l2_prediction {
  size_t count;      /**< strategies priced (0: not a hot-word launch, or the export lacks the time or clocks) */
  struct atl_l2_strategy s[ATL_L2_STRATEGIES]; /**< best (largest speedup) first */
  double lanes;      /**< lanes one warp-instruction sends to a hot word as separate requests (1..warp size) */
  int lanes_counted; /**< lanes from the L1 counters (set accesses / requests); else the launch's bound
                          min(warp size, block size) */
  double dram_ns;    /**< the DRAM floor: the kernel's bytes at the achievable bandwidth (bytes counted) or share of peak */
  int dram_bytes;    /**< dram_ns from the kernel's DRAM bytes and the calibration's bandwidth */
  double issue_ns;   /**< the issue floor: the busiest sub-partition's warp-instructions, one a cycle (0: not counted) */
  double words;      /**< the words the keys spread over, from the L2 requests per warp-instruction (0: not estimated) */
  double chain_updates; /**< the hot word's updates (the hot slice's sector accesses over its distinct sectors where
                             counted, else its requests); 0: no chain priced */
  double chain_warps;   /**< contenders on a private word: the launch's warps a block */
  double chain_cycles;  /**< atl_l2_chain_cycles at chain_warps */
  double tables;        /**< private tables resident a SM (atl_l2_private_blocks) */
  double loop_ns;       /**< the warps' CAS loops: their atomic warp-instructions over the warp-slots, E x c(E)
                             each (at least the hot word's own chain) */
  double load_ns;       /**< their loads: with a round trip calibrated, (1 + steps) round trips a row (never below the
                             DRAM floor); else the DRAM floor stretched by the calibration's warps over the table's */
  double table_ns;      /**< the blocks' clears and flushes of their tables: its bytes twice at the pass cost */
  double contenders;    /**< with a round trip: the warps a loop meets on its word, 1 + (E - 1) x the loops' share of a
                             row (a fixed point; chain_cycles is c at it); 0 without */
  double steps;         /**< a warp's CAS loops a row: max(1, atomic warp-instructions / the hot word's updates); 0
                             where the loads are priced by bytes (no round trip calibrated) */
  double bank_passes; /**< privatized: shared passes per warp-instruction its keys leave (bank conflicts; 0: not
                           estimated, the fallback of one pass per request and word) */
};

/**
 * The speedup each strategy for hot words would give (docs/design/model.md, "Advice"), from what it does to the
 * counters: warp-aggregated leaves R_max / lanes requests on the hot slice; block-aggregated and privatized
 * leave one flush per block (launch__grid_size) and move the element updates to shared memory
 * (block-aggregated: one pass per warp-instruction and word; privatized: per warp-instruction its busiest
 * bank, for keys uniform over the words the L2 requests per warp-instruction imply: lanes for ATOM (the table's
 * used variant ATOMS.ADD), distinct words for RED (ATOMS.POPC.INC); where the L1 counters are missing one pass
 * per ATOM request and per RED warp-instruction and word; over the SMs at @p cal's pass cost). Each request left costs this kernel's busy cycles per
 * request; the time after is the largest of those and the DRAM and issue floors.
 */
void atl_l2_predict(const struct atl_l2_calibration *cal, const struct atl_l2_counters *k, const struct atl_l2_util *u,
                    struct atl_l2_prediction *out);

/**
 * The model's table, one line per launch of @p r (CSV with a header, or a table for people), and with
 * @p with_advice the strategy for every bottleneck (U >= @p threshold). @p cal NULL: no calibration, U is
 * the input share alone (a floor). Returns 0 or ATL_EIO when the stream failed.
 */
int atl_l2_write_table(FILE *f, const struct atl_l2_calibration *cal, const struct atl_l2_report *r, double threshold,
                       int csv, int with_advice);

/** The ncu metrics the model reads (what atl_l2_read_csv needs, and the optional input-cycles one). */
const char *const *atl_l2_metric_names(size_t *count);

/** A strategy the models advise: its name (as atl_l2_predict and atl_smem_advise name it), the atomlab call that
 * realizes it, and what it does, in words. */
struct atl_advice_strategy {
  const char *name, *call, *does;
};

/** The L2 model's advice for one access kind: what the counters show, the remedy, and the strategies for it, the
 * one advised where none is priced first (a NULL-terminated list). */
struct atl_l2_advice {
  enum atl_l2_access access;
  const char *cause, *remedy;
  const struct atl_advice_strategy *const *strategies;
};

/** The strategy named @p name (any model's), or NULL. */
const struct atl_advice_strategy *atl_advice_strategy(const char *name);

/** The atomlab call that realizes the strategy @p strategy, "" where the table has none. */
const char *atl_advice_call(const char *strategy);

/** The advice for launches of access @p access, NULL for ATL_L2_NONE. */
const struct atl_l2_advice *atl_l2_advice_of(enum atl_l2_access access);

/** The advice @p a in words ("cause: remedy - strategy (call: what it does), ..."), made from the table; returns
 * @p buf ("" for NULL). */
char *atl_l2_advice_text(const struct atl_l2_advice *a, char *buf, size_t len);

/** "hot words", "spread" or "none". */
const char *atl_l2_access_name(enum atl_l2_access a);

#ifdef __cplusplus
}
#endif
#endif
