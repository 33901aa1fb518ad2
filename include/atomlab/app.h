/**
 * @file app.h
 * Applications of atomics (seeds 001 and 004): the container count with one
 * atomic per thread, warp or block; lock-based against CAS-loop double add;
 * lock-free linked-list insertion; skiplist sort. Each app measures its
 * variants on the open device, verifies every result exactly and returns one
 * row per variant: rows of the kind "app" (result.h), configuration app
 * and variant, whatever else the app measured as metrics.
 * Threads: a context is used by one thread at a time (one context per thread); the functions that take
 * no context are reentrant (include/atomlab/context.h). Stable API: exported by libatomlab.so.1.
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

/**
 * How each variant is timed: one warm-up launch, then docs/design/method.md's
 * sampling, as rmw's (atl_timing_defaults): at least min_samples timed
 * launches, then until the relative IQR is at or below noise, or budget_s
 * of sampling is spent, or max_samples. An app's launch does a fixed amount
 * of work, so there is no calibration of iterations. The first two fields
 * keep the order of the fixed-count struct this one grew from.
 */
struct atl_app_timing {
  unsigned samples;     /**< non-zero: exactly this many timed launches (min = max = samples, noise ignored) */
  uint32_t spin_bound;  /**< iterations a waiting loop may spin before it gives up (status deadlock) */
  unsigned min_samples; /**< at least this many timed launches (0 counts as 1) */
  unsigned max_samples; /**< at most this many (below min_samples: min_samples) */
  double noise;         /**< stop once the relative IQR (iqr / median) is at or below this */
  double budget_s;      /**< stop once this many seconds of sampling are spent (after min_samples) */
};

/** The defaults of the app registry's timing options (atl_app_timing_options): rmw's sampling, spin bound 2^22. */
void atl_app_timing_defaults(struct atl_app_timing *tm);

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
  const uint32_t *groups;/**< grids to run (work-groups, the coordinator included; ATL_SW_GROUPS_*); none: the
                              default ladder */
  unsigned ngroups;
  uint32_t coresident;   /**< work-groups occupancy discovery found co-resident (0: discovered): larger grids are
                              refused */
  uint32_t targets;      /**< words the work-items spread over (gid % targets) */
  uint32_t iters;        /**< atomics per work-item */
  int divergent;         /**< every work-item with gid % 3 == 1 sits out */
  unsigned variants;     /**< bit 0 system, 1 warp, 2 software */
  int experiment;        /**< 1: also "mem", "VARIANT+mem" rows, the "model" row and predictions */
  int op;                /**< enum atl_swop: the fetch-and-op every atomic makes */
  int skew_reference;    /**< test hook: the host's reference starts one off, so every row must fail */
};
/**
 * Entries of a software-atomic app's groups besides a count of work-groups:
 * the co-resident count ("max"), and the ladder LO, 2 LO, 4 LO, ... below
 * the co-resident count, then the count ("LO:max:x2").
 */
#define ATL_SW_GROUPS_MAX 0u
#define ATL_SW_GROUPS_LADDER(lo) (0x80000000u | (uint32_t)(lo))

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
  const uint8_t *text;     /**< string match: the text (the caller owns it); NULL: read from text_path */
  uint64_t text_bytes;     /**< bytes of the text to search (read from text_path: at most this many) */
  const char *text_path;   /**< where text is NULL: a file of English text, .dz / .gz decompressed (zlib) */
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
 * Atomics across GPUs (the crossgpu app): @p gpus GPUs add 1 to the same
 * words at once. Bits of @p memory: 1 peer (the words in the open GPU's
 * memory, the others reach them over the link), 2 host (pinned, mapped), 4
 * local (the open GPU alone: the baseline); @p patterns: 1 word, 2 line,
 * 4 scattered; @p scopes: 1 system, 2 device (across GPUs the control: its
 * rows carry the metric control = 1 and say whether updates were lost, as
 * do system-scope rows on memory whose atomics the driver says are not
 * native);
 * @p results: 1 unused, 2 used. CUDA only: elsewhere every row is
 * unsupported with the reason, as are the peer and host rows with fewer
 * GPUs than @p gpus.
 */
struct atl_crossgpu_params {
  uint32_t gpus;
  unsigned memory, patterns, scopes, results;
  uint32_t wg_size;
  uint32_t workgroups; /**< blocks per GPU (0: two per SM) */
  double target_ms;    /**< calibrate iterations until one launch takes this long */
};
int atl_app_crossgpu(atl_context_t ctx, const struct atl_crossgpu_params *p, const struct atl_app_timing *tm,
                     struct atl_result_set *out);

/**
 * The app registry: every app once, with its options, defaults, checks and
 * run, so that the command line, the help, the tests and library users
 * iterate one list and validate in one place.
 *
 * Each app describes its parameters as data (struct atl_app_option): name,
 * kind, range or allowed names, default and help. A configuration
 * (atl_app_config_t) holds one app's params and timing: created with every
 * default that does not depend on the device, set option by option from
 * text (atl_app_config_set), completed and checked on the open device
 * (atl_app_config_prepare), then run. Every refusal is one line that starts
 * with the name of the parameter at fault and says what is allowed.
 */
enum atl_app_opt_kind {
  ATL_APP_OPT_U32,     /**< uint32_t (or unsigned): a whole number from min to max */
  ATL_APP_OPT_U64,     /**< uint64_t: a whole number from min to max */
  ATL_APP_OPT_FLOAT,   /**< float: a number from min to max */
  ATL_APP_OPT_DOUBLE,  /**< double: a number from min to max */
  ATL_APP_OPT_CHOICE,  /**< int: the index of one of names[min .. nnames - 1] */
  ATL_APP_OPT_SET,     /**< unsigned: bit i for names[i], from a comma list of them or "all" */
  ATL_APP_OPT_CHOICES, /**< int array (room for nnames) and its unsigned count: a comma list of names, in the
                            order given, each once, or "all" */
  ATL_APP_OPT_LIST,    /**< const uint32_t * and its unsigned count: a comma list of whole numbers, min to max */
  ATL_APP_OPT_TEXT,    /**< const char *: any text (a file name, ...) */
  ATL_APP_OPT_TEXTS,   /**< const char *const * and its unsigned count: a comma list of texts */
  ATL_APP_OPT_FLAG,    /**< no value: sets the bits `bits` of an int or unsigned */
  ATL_APP_OPT_UNFLAG   /**< no value: clears them (they are set by default); flags apply after every value */
};

/** Most values a list option takes. */
#define ATL_APP_LIST_MAX 32

typedef struct atl_app_config *atl_app_config_t;

/** One parameter of an app: what a command line offers as --NAME and a library user sets by name. */
struct atl_app_option {
  const char *name;       /**< the parameter's name, as messages spell it ("bytes", "wg-size") */
  enum atl_app_opt_kind kind;
  size_t offset;          /**< offsetof the field in the params (timing options: in struct atl_app_timing) */
  size_t count_offset;    /**< CHOICES, LIST, TEXTS: offsetof the unsigned count */
  double min, max;        /**< numbers and list values: the range; CHOICE, SET, CHOICES: min is the first name allowed */
  const char *const *names; /**< CHOICE, SET, CHOICES: the names, index = value or bit */
  unsigned nnames;
  unsigned bits;          /**< FLAG, UNFLAG: the bits they set or clear */
  /**
   * The default as it would be typed, applied by atl_app_config_new(); NULL:
   * 0 (nothing), which where the app's defaults() fills it means "sized for
   * the device" and def_help says how.
   */
  const char *def;
  const char *def_help;   /**< the default in the help where def is NULL ("GPU: 1 GiB; CPU: 1 MiB"), or NULL */
  const char *arg;        /**< the value in the help: "N", "LIST", "FILE", ... (NULL for flags) */
  const char *help;       /**< one sentence for the help, unwrapped */
  const char *alias;      /**< a second name accepted for it, or NULL */
  /** Reads @p text itself where the kind's syntax is not enough (NULL: the kind's); 0 or ATL_EINVAL and why. */
  int (*parse)(atl_app_config_t cfg, const struct atl_app_option *opt, const char *text, char *why, size_t len);
};

/** The options every app takes for its timing (fields of struct atl_app_timing), ending in a zero entry. */
extern const struct atl_app_option atl_app_timing_options[];

/** What a run allocates: bytes of host and of device memory, and the parameter they grow with most. */
struct atl_app_bytes {
  uint64_t host, device;
  const char *param; /**< an option name ("rows"), named in the refusal */
};

struct atl_app_info {
  const char *name;    /**< "count", "histogram", ... (the rows' app column) */
  const char *summary; /**< one line for lists and help */
  size_t params_size;  /**< bytes of the app's params struct (struct atl_count_params, ...) */
  const char *description; /**< the paragraph of its help, wrapped */
  const struct atl_app_option *options; /**< its parameters, ending in a zero entry */
  /** Fills the params' device-sized fields still 0 (work-group size, input sizes) and fields no option sets. */
  void (*defaults)(const struct atl_device_info *dev, void *params);
  /**
   * 0 if run() accepts @p params on @p dev beyond the ranges of its options
   * (atl_app_check checks both); else ATL_EINVAL with one line in @p why that
   * starts with the name of the parameter at fault and says what is allowed.
   */
  int (*check)(const struct atl_device_info *dev, const void *params, char *why, size_t len);
  /**
   * What only the open device or the whole configuration decides, after
   * defaults() and before the last check (NULL: nothing): occupancy
   * discovery, input files, options that apply only with others. 0, or
   * ATL_EINVAL with a reason naming the parameter, or another code where the
   * device failed or cannot run the app; a note for the user may be added
   * with atl__app_config_note.
   */
  int (*prepare)(atl_context_t ctx, atl_app_config_t cfg, char *why, size_t len);
  /** Measures every variant into @p out (a negative code only when the device or the host failed). */
  int (*run)(atl_context_t ctx, const void *params, const struct atl_app_timing *tm, struct atl_result_set *out);
  /**
   * The app's own view of its rows (the seed's table, the model's), printed
   * beside the rows' table; NULL: none. Writes nothing where the rows hold
   * nothing for it.
   */
  void (*write_view)(FILE *f, const void *params, const struct atl_result_set *set);
  int view_replaces_table; /**< 1: the view is printed instead of the rows' table */
  int spans_devices;       /**< 1: the app spreads itself over several devices (crossgpu): --device names one */
  /**
   * The memory a run of @p params allocates at most (NULL: not known):
   * atl_app_check refuses a run the machine cannot hold, before anything is
   * allocated (atl_app_bytes).
   */
  void (*bytes_needed)(const struct atl_device_info *dev, const void *params, struct atl_app_bytes *need);
};

/** Every registered app, in the order of lists and help; @p n receives the count. */
const struct atl_app_info *const *atl_apps(size_t *n);

/** The registered apps' names joined by @p sep ("count, histogram, ...") into @p buf; returns @p buf. */
const char *atl_app_names(const char *sep, char *buf, size_t len);

/** The app named @p name, or NULL. */
const struct atl_app_info *atl_app_find(const char *name);

/** The ranges of @p app's options and then its check(): 0, or ATL_EINVAL with the reason in @p why. */
int atl_app_check(const struct atl_app_info *app, const struct atl_device_info *dev, const void *params, char *why,
                  size_t len);

/** A configuration of @p app with every default its options give (ATL_ENOMEM if the host has no memory). The
 *  atl_app_config_* calls and atl_app_check() return ATL_EINVAL, the reason naming it, for a NULL app,
 *  configuration, params, context or result set (the lookups return NULL). */
int atl_app_config_new(const struct atl_app_info *app, atl_app_config_t *out);
void atl_app_config_free(atl_app_config_t cfg);

/** The option named @p name (or its alias) of @p cfg's app, else of the timing options; NULL if neither has it. */
const struct atl_app_option *atl_app_config_option(atl_app_config_t cfg, const char *name);

/** Option @p i of @p cfg: the app's options first, then the timing options; NULL past the last. */
const struct atl_app_option *atl_app_config_option_at(atl_app_config_t cfg, size_t i);

/**
 * Sets option @p name from @p text (NULL for a flag). 0, or ATL_EINVAL with
 * one line in @p why: "NAME 'TEXT' is not allowed: ..." or "NAME is not an
 * option of APP".
 */
int atl_app_config_set(atl_app_config_t cfg, const char *name, const char *text, char *why, size_t len);

/**
 * Completes the configuration for the device open in @p ctx (its flags,
 * the app's device-sized defaults and prepare(), the timing's) and checks
 * it. 0 with @p why empty, or with a note for the user in it; ATL_EINVAL
 * with the parameter at fault (a usage error); another code with the reason
 * where the device failed or cannot run the app.
 */
int atl_app_config_prepare(atl_app_config_t cfg, atl_context_t ctx, char *why, size_t len);

/**
 * Checkpoints of the runs of @p cfg: every @p seconds (0: none), @p write
 * gets the rows completed so far, from a thread of the run's own, with no
 * row being added meanwhile; the same writer is offered for an urgent stop
 * (atl_stop_offer, atomlab/stop.h). @p write NULL: neither.
 */
void atl_app_config_checkpoint(atl_app_config_t cfg, double seconds,
                               void (*write)(void *arg, const struct atl_result_set *rows), void *arg);

/** Runs the prepared configuration (the app's run). */
int atl_app_config_run(atl_app_config_t cfg, atl_context_t ctx, struct atl_result_set *out);

/** The app, its params (struct atl_count_params, ...) and its timing. */
const struct atl_app_info *atl_app_config_app(atl_app_config_t cfg);
void *atl_app_config_params(atl_app_config_t cfg);
struct atl_app_timing *atl_app_config_timing(atl_app_config_t cfg);

/**
 * @p why (a reason of atl_app_config_set() or _prepare()) with each
 * parameter of @p cfg written as @p prefix and the name it was set by (its
 * alias where the caller used that): "--items 2". A parameter's name counts
 * where it starts the reason or is followed by a value ("items 2",
 * "threads (64)"), not where it is a plain word ("16 bytes"). Returns @p msg.
 */
const char *atl_app_config_reason(atl_app_config_t cfg, const char *why, const char *prefix, char *msg, size_t cap);

/**
 * The help of @p app: its usage line, description, its options and the
 * timing options, each "--NAME ARG" with its sentence and default wrapped
 * beside it (what `atomlab app NAME --help` prints before its device options).
 */
void atl_app_help_write(FILE *f, const struct atl_app_info *app);

/** The help of `atomlab app`: every app of the registry with its summary. */
void atl_apps_help_write(FILE *f);

/**
 * Runs the prepared configurations @p cfgs on the devices of @p ctxs at once,
 * a thread each, and appends every device's rows, each naming its device
 * (configuration value "device"), to @p set in device order. @p errs
 * receives each device's code (its rows measured before a failure are
 * still added). Returns 0, or ATL_ENOMEM where rows could not be added.
 */
int atl_app_run_devices(atl_app_config_t *cfgs, atl_context_t *ctxs, size_t n, struct atl_result_set *set, int *errs);

#ifdef __cplusplus
}
#endif
#endif
