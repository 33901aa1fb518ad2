/**
 * @file app.h
 * Applications of atomics (seeds 001 and 004): the container count with one
 * atomic per thread, warp or block; lock-based against CAS-loop double add;
 * lock-free linked-list insertion; skiplist sort. Each app measures its
 * variants on the open device, verifies every result exactly and returns one
 * row per variant: rows of the kind "app" (result.h), configuration app
 * and variant, whatever else the app measured as metrics.
 */
#ifndef ATOMLAB_APP_H
#define ATOMLAB_APP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "device.h"
#include "experiment.h"
#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How many timed launches each variant gets (median reported). */
struct atl_app_timing {
  unsigned samples;  /**< timed launches after one warm-up launch */
  uint32_t spin_bound; /**< iterations a waiting loop may spin before it gives up (status deadlock) */
};

/** Seed 001: count the containers whose float sum exceeds a limit. */
struct atl_count_params {
  uint64_t containers; /**< containers (one thread each) */
  uint32_t items;      /**< floats per container */
  float limit;         /**< a container counts if its sum is above this */
  uint32_t wg_size;    /**< work-group size (a power of two) */
  uint64_t seed;       /**< input generator seed */
  int want_cub;        /**< also run the CUB baseline (CUDA only) */
};

/**
 * Runs the read ceiling (a read-only kernel over the same bytes) and the
 * thread, warp, block and (CUDA) CUB variants. Returns a negative code only
 * when the device failed or the host ran out of memory.
 */
int atl_app_count(atl_context_t ctx, const struct atl_count_params *p, const struct atl_app_timing *tm,
                  struct atl_result_set *out);

/** Seed 004: many threads add doubles to one word, through a lock or a CAS loop. */
struct atl_dadd_params {
  uint32_t threads;  /**< threads in the grid */
  uint32_t wg_size;
  uint32_t adds;     /**< additions per thread */
  uint32_t targets;  /**< distinct doubles the threads spread over (1: all contend) */
};
int atl_app_double_add(atl_context_t ctx, const struct atl_dadd_params *p, const struct atl_app_timing *tm,
                       struct atl_result_set *out);

/** Seed 004: p threads insert n nodes into lock-free lists (or one skiplist) with CAS. */
struct atl_list_params {
  uint32_t nodes;    /**< nodes / keys inserted */
  uint32_t threads;  /**< inserting threads */
  uint32_t wg_size;
  uint32_t lists;    /**< list: heads the threads spread over (1: all insert after one head) */
  uint64_t seed;     /**< skiplist keys and heights */
  int want_cub;      /**< skiplist: CUB radix sort of the same keys as the baseline (CUDA only) */
};
int atl_app_list(atl_context_t ctx, const struct atl_list_params *p, const struct atl_app_timing *tm,
                 struct atl_result_set *out);
int atl_app_skiplist(atl_context_t ctx, const struct atl_list_params *p, const struct atl_app_timing *tm,
                     struct atl_result_set *out);

/** Issue [histogram]: histograms of 8-bit, RGBA and 32-bit keys with every privatization variant. */
enum atl_hist_input { ATL_HIST_U8, ATL_HIST_RGBA, ATL_HIST_U32, ATL_HIST_INPUT_COUNT };
enum atl_hist_dist { ATL_HIST_SOLID, ATL_HIST_UNIFORM, ATL_HIST_SKEWED, ATL_HIST_PHOTO, ATL_HIST_DIST_COUNT };
enum atl_hist_variant {
  ATL_HIST_READ_CEILING,
  ATL_HIST_GLOBAL,
  ATL_HIST_SHARED,
  ATL_HIST_WARP_PRIVATE,
  ATL_HIST_MATCH_ANY,
  ATL_HIST_PACKED,
  ATL_HIST_PER_LANE,
  ATL_HIST_BYTE_LANES, /**< 8-bit keys: 64 columns, bins 256 bytes apart (one byte permute per key) */
  ATL_HIST_BLOCK16,
  ATL_HIST_AUTO, /**< the variant chosen for the input and bins (atl_hist_auto_choice) */
  ATL_HIST_CUB,
  ATL_HIST_VARIANT_COUNT
};
/** Names as the command line and the rows spell them ("u8", "uniform", "warp-private", ...). */
extern const char *const atl_hist_input_names[ATL_HIST_INPUT_COUNT];
extern const char *const atl_hist_dist_names[ATL_HIST_DIST_COUNT];
extern const char *const atl_hist_variant_names[ATL_HIST_VARIANT_COUNT];
/** The variant `auto` runs for input @p in with @p bins on device @p d at work-group size @p wg. */
enum atl_hist_variant atl_hist_auto_choice(const struct atl_device_info *d, enum atl_hist_input in, uint32_t bins,
                                           uint32_t wg);

struct atl_histogram_params {
  unsigned inputs;   /**< bit (1 << atl_hist_input) per input to run */
  unsigned dists;    /**< bit per distribution */
  unsigned variants; /**< bit per variant (the read ceiling always runs: the ratios need it) */
  uint32_t u32_bins; /**< bins of the u32 input: a power of two, 256 to 65536; bin = key % bins */
  uint64_t bytes;    /**< input bytes: a multiple of 16, below 4 GiB */
  uint32_t wg_size;  /**< work-group size (a power of two) */
  uint64_t seed;     /**< input generator seed */
  const char *photo; /**< JPEG of the photo distribution; NULL: ATL_HIST_PHOTO_DEFAULT */
};

/**
 * The photograph the photo distribution decodes by default: a real photo
 * (a nuthatch, 6028 x 3391) that Debian 12 ships in ATL_HIST_PHOTO_PACKAGE.
 * gnome-backgrounds 43 in Debian 12 holds only rendered artwork (WebP, SVG).
 */
#define ATL_HIST_PHOTO_DEFAULT "/usr/share/backgrounds/Kleiber_by_Lukas_Baubkus.jpg"
#define ATL_HIST_PHOTO_PACKAGE "lomiri-wallpapers-20.04"

/**
 * 0 if the photo distribution can run with @p path (NULL: the default):
 * atomlab was built with libjpeg-turbo and the file is a readable JPEG.
 * Otherwise ATL_ENOTSUP (no decoder), ATL_EIO (no file) or ATL_EINVAL (not a
 * JPEG) with a one-line reason naming the Debian package in @p why.
 */
int atl_hist_photo_available(const char *path, char *why, size_t why_len);

/**
 * One row per input x distribution x variant, variant spelled
 * "INPUT/DIST/VARIANT" (e.g. "u8/uniform/shared"); each histogram is
 * compared bin for bin with the host's. Returns a negative code only when
 * the device failed or the host ran out of memory.
 */
int atl_app_histogram(atl_context_t ctx, const struct atl_histogram_params *p, const struct atl_app_timing *tm,
                      struct atl_result_set *out);

/**
 * Seed 000: the software atomic add against the system atomic and warp
 * aggregation. Micro-benchmark 1 (atomic only) always; with `experiment`
 * also the memory-only copy kernel and atomic + copy (Figure 3's kernel,
 * micro-benchmark 2), the ideal sum, the speedup model (its constants
 * measured on the device, equations (1)-(4) per grid) and the instruction
 * counts of each kernel.
 */
struct atl_swatomic_params {
  uint32_t wg_size;      /**< work-items per work-group, 1 to 256 */
  const uint32_t *groups;/**< grids to run (work-groups, the coordinator included) */
  unsigned ngroups;
  uint32_t coresident;   /**< work-groups occupancy discovery found co-resident: larger grids are refused */
  uint32_t targets;      /**< words the work-items spread over (gid % targets) */
  uint32_t iters;        /**< atomics per work-item */
  int divergent;         /**< every work-item with gid % 3 == 1 sits out */
  unsigned variants;     /**< bit 0 system, 1 warp, 2 software */
  int experiment;        /**< 1: also "mem", "VARIANT+mem" rows, the "model" row and predictions */
  int op;                /**< enum atl_swop: the fetch-and-op every atomic makes */
  int skew_reference;    /**< test hook: the host's reference starts one off, so every row must fail */
};
/** The ops of atl_app_swatomic (its kernels' ATL_SW_OP). */
enum atl_swop { ATL_SWOP_ADD, ATL_SWOP_SUB, ATL_SWOP_INC, ATL_SWOP_MIN, ATL_SWOP_MAX, ATL_SWOP_AND, ATL_SWOP_OR,
                ATL_SWOP_XOR, ATL_SWOP_COUNT };
/** "add", "sub", ... for an enum atl_swop; NULL out of range. */
const char *atl_swop_name(int op);
int atl_app_swatomic(atl_context_t ctx, const struct atl_swatomic_params *p, const struct atl_app_timing *tm,
                     struct atl_result_set *out);

/**
 * Seed 000's applications (Section VI) with system, warp-aggregated and
 * software atomics on a co-resident grid whose last work-group is the
 * software atomic's coordinator (idle in the other variants): scalar
 * product, string match and a small MapReduce framework. Every row is
 * checked exactly against the host.
 */
struct atl_swapps_params {
  uint32_t wg_size;        /**< work-items per work-group, 1 to 256 */
  const uint32_t *groups;  /**< grids to run (work-groups, the coordinator included) */
  unsigned ngroups;
  uint32_t coresident;     /**< co-resident work-groups (discovery): larger grids are refused */
  unsigned variants;       /**< bit 0 system, 1 warp, 2 software; MapReduce also runs its two-pass baseline */
  uint64_t dot_elements;   /**< scalar product: elements of each vector */
  const uint8_t *text;     /**< string match: the text (the caller owns it) */
  uint64_t text_bytes;
  const char *const *keywords; /**< 1 to 4 keywords of 1 to 32 bytes, none a prefix of another */
  unsigned nkeywords;
  const uint32_t *matmul_n;    /**< MapReduce matrix multiplication: n of each n x n run */
  unsigned nmatmul;
  const uint32_t *kmeans_points; /**< MapReduce KMeans map phase: points of each run */
  unsigned nkmeans;
  int skew_reference;      /**< test hook: the host reference is off by one, so every row must fail to verify */
  unsigned apps;           /**< what the registry's run runs: bit 0 dot, 1 strmatch, 2 mapreduce */
};
/** Scalar product: per-work-group partial sums, one atomic add per work-group ("dot"). */
int atl_app_swdot(atl_context_t ctx, const struct atl_swapps_params *p, const struct atl_app_timing *tm,
                  struct atl_result_set *out);
/** String match: one atomic add per match on its keyword's counter ("strmatch"). */
int atl_app_swstrmatch(atl_context_t ctx, const struct atl_swapps_params *p, const struct atl_app_timing *tm,
                       struct atl_result_set *out);
/** MapReduce: Mars-style two-pass output against single-pass atomic output ("mapreduce"). */
int atl_app_swmapreduce(atl_context_t ctx, const struct atl_swapps_params *p, const struct atl_app_timing *tm,
                        struct atl_result_set *out);

/**
 * Seed 004's access table: every atomic op with all threads on one word
 * (same-address), on adjacent words (same-line) and on one word per 128-byte
 * line (scattered), each row calibrated, timed and verified by atl_rmw_run().
 */
#define ATL_ACCESS_MAX_OPS ATL_OP_COUNT
struct atl_access_params {
  int ops[ATL_ACCESS_MAX_OPS]; /**< enum atl_op of each row, in order (plain_add is not an atomic) */
  unsigned nops;
  int type;                    /**< enum atl_type: u32, i32 or u64 */
  uint32_t wg_size;
  uint32_t workgroups;         /**< 0: the co-resident count occupancy discovery finds */
  uint32_t same_address_threads; /**< threads of the same-address grid, all on one word */
  double target_ms;            /**< calibrate iterations until a launch takes this long */
};
int atl_app_access_table(atl_context_t ctx, const struct atl_access_params *p, const struct atl_app_timing *tm,
                         struct atl_result_set *out);

/**
 * The app registry: every app once, with its defaults, its checks and its
 * run, so that the command line, the help, the tests and library users
 * iterate one list and validate in one place.
 *
 * A caller fills an app's params in three steps: zero them and call
 * defaults(NULL, params) for the values that do not depend on the device;
 * set what the user chose; call defaults(device, params), which fills every
 * device-sized field still 0 (work-group size, input sizes) and keeps the
 * rest. check() then says whether run() would accept them.
 */
/** How a command line reads an app option's value into its params field. */
enum atl_app_opt_kind {
  ATL_APP_OPT_U32,   /**< a uint32_t, a whole number from min */
  ATL_APP_OPT_U64,   /**< a uint64_t, a whole number from min */
  ATL_APP_OPT_FLOAT, /**< a float */
  ATL_APP_OPT_CLEAR  /**< no value: sets an int to 0 ("--no-cub") */
};

/** One option of an app that the generic command line parses (cli/app-generic.c). */
struct atl_app_option {
  const char *name;  /**< the option without "--"; where it sets a field check() names, the field's name */
  enum atl_app_opt_kind kind;
  size_t offset;     /**< offsetof the field in the params */
  uint64_t min;      /**< smallest value (whole numbers): 0 in a device-sized field means "the default" */
  const char *help;  /**< its line(s) in the app's --help, as printed */
};

struct atl_app_info {
  const char *name;    /**< "count", "histogram", ... (the rows' app column) */
  const char *summary; /**< one line for lists and help */
  size_t params_size;  /**< bytes of the app's params struct (struct atl_count_params, ...) */
  size_t wg_offset;    /**< offsetof its uint32_t work-group size (--wg-size) in the params */
  /** The paragraph of its --help and its options, ending in a zero entry; NULL where cli/ has its own parser. */
  const char *description;
  const struct atl_app_option *options;
  /** Names of the params' fields that check() may name, NULL-terminated (the CLI maps them to options). */
  const char *const *params;
  /** Fills the defaults: device-independent ones with @p dev NULL, then device-sized fields still 0. */
  void (*defaults)(const struct atl_device_info *dev, void *params);
  /**
   * 0 if run() accepts @p params on @p dev; else ATL_EINVAL with one line in
   * @p why that starts with the name of the parameter at fault (one of
   * params[]) and says what is allowed.
   */
  int (*check)(const struct atl_device_info *dev, const void *params, char *why, size_t len);
  /** Measures every variant into @p out (a negative code only when the device or the host failed). */
  int (*run)(atl_context_t ctx, const void *params, const struct atl_app_timing *tm, struct atl_result_set *out);
};

/** Every registered app, in the order of lists and help; @p n receives the count. */
const struct atl_app_info *const *atl_apps(size_t *n);

/** The app named @p name, or NULL. */
const struct atl_app_info *atl_app_find(const char *name);

#ifdef __cplusplus
}
#endif
#endif
