/* Internal: what the apps share (timing loop, buffers, input generator, CUB plugin, checkers). */
#ifndef ATOMLAB_APPS_INTERNAL_H
#define ATOMLAB_APPS_INTERNAL_H

#include <stdint.h>

#include "atomlab/app.h"
#include "atomlab/backend.h"
#include "atomlab/stop.h"
#include "core/context.h"
#include "core/timing.h"

/* The condition of an app's row loops: no error yet, and nobody asked to stop
 * (atomlab/stop.h: a signal). A stopped app returns the rows it completed;
 * the caller sees atl_stop_requested() and writes them. */
#define ATL_APP_GO_ON(err) (!(err) && !atl_stop_requested())

/* The checkpoints of a run (atl_app_config_checkpoint): @p write every @p seconds (0: only for an urgent stop). */
struct atl__app_checkpoint {
  double seconds;
  void (*write)(void *arg, const struct atl_result_set *rows);
  void *arg;
};

/* @p app's run with checkpoints of @p out while it runs (checkpoint.c); ck->write NULL: the run alone. */
int atl__app_run_checkpointed(const struct atl_app_info *app, atl_context_t ctx, const void *params,
                              const struct atl_app_timing *tm, struct atl_result_set *out,
                              const struct atl__app_checkpoint *ck);

/* Bytes of host memory available now (/proc/meminfo MemAvailable, else sysconf); 0 where unknown. */
uint64_t atl__host_available(void);

/* 0, or ATL_EINVAL with "PARAM: the run needs X GiB of host (device) memory, ..." where app->bytes_needed says
 * a run of @p params on @p dev needs more than there is (memory.c). */
int atl__app_memory_check(const struct atl_app_info *app, const struct atl_device_info *dev, const void *params,
                          char *why, size_t len);

/* A fresh row of @p app / @p variant: status error until it is measured and checked. */
void atl__app_row_init(struct atl_row *row, const char *app, const char *variant);

/* Each app's registry entry is atl__app_<name>, defined at the end of its file and listed in registry.c. */

/* Writes a check's one-line reason into @p why and returns ATL_EINVAL. */
int atl__app_why(char *why, size_t len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The option wg-size of an app whose params struct is @p type: up to @p max, @p help its sentence; its default is
 * atl__app_default_wg's. */
#define ATL__APP_OPT_WG(type, max_, help_)                                                                             \
  {"wg-size", ATL_APP_OPT_U32, .offset = offsetof(type, wg_size), .min = 1, .max = (max_), .arg = "N",                \
   .def_help = "256, or the device maximum", .help = (help_)}

/* The registry's run of an app, x_run: its public entry @p fn with the params as they come. */
#define ATL__APP_RUN(x, fn)                                                                                            \
  static int x##_run(atl_context_t ctx, const void *params, const struct atl_app_timing *tm,                          \
                     struct atl_result_set *out)                                                                       \
  {                                                                                                                    \
    return fn(ctx, params, tm, out);                                                                                   \
  }

/* The fields of a registry entry that follow from its file's names (PoCL's INIT_DEV): the params struct @p type and
 * x_options, x_defaults, x_check, x_run. */
#define ATL__APP_ENTRY(type, x) ATL__APP_ENTRY_CHECK(type, x, x##_check)
/* ATL__APP_ENTRY with a check shared with other apps. */
#define ATL__APP_ENTRY_CHECK(type, x, check_)                                                                          \
  .params_size = sizeof(type), .options = x##_options, .defaults = x##_defaults, .check = (check_), .run = x##_run

/* The default work-group size on @p d: 256 or the device maximum, rounded down to a power of two if @p pow2. */
uint32_t atl__app_default_wg(const struct atl_device_info *d, int pow2);

/* Fills *@p wg where it is 0 with atl__app_default_wg (the defaults() of every app with ATL__APP_OPT_WG). */
void atl__app_wg_default(const struct atl_device_info *d, uint32_t *wg, int pow2);

/* wg-size @p wg on @p d: 1 to the device maximum (@p pow2: a power of two), else ATL_EINVAL and the reason in
 * @p why, which ends in " (@p note)" where @p note is not NULL. */
int atl__app_wg_check(const struct atl_device_info *d, uint32_t wg, int pow2, const char *note, char *why, size_t len);

/* atl_app_check of @p info on the open device, as the error of @p ctx ("APP: reason") when it refuses. */
int atl__app_checked(atl_context_t ctx, const struct atl_app_info *info, const void *params);

/* Sets the row's status and reason (printf-style). */
void atl__app_row_status(struct atl_row *row, enum atl_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The row failed on the device or the host: status error, the context's last message as the reason. */
void atl__app_row_failed(atl_context_t ctx, struct atl_row *row);

/* The row measured and checked: status ok, verified as @p ok, and where it is not, the reason (printf-style). */
void atl__app_row_verdict(struct atl_row *row, int ok, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Metric @p name: @p count per median time in millions per second; nothing where no time was measured. */
void atl__app_row_per_s(struct atl_row *row, const char *name, double count);

/*
 * Adds @p row to @p out and says what the app returns: ATL_ENOMEM where the
 * row cannot be added or @p err is ATL_ENOMEM (the host ran out), else 0
 * (a device error lives on in the row's status).
 */
int atl__app_row_add(struct atl_result_set *out, struct atl_row *row, int err);

/* Called before every launch of a timed kernel (refills what the kernel consumes); may be NULL. */
typedef int (*atl__app_reset_fn)(atl_context_t ctx, void *arg);

/* ---- timing: docs/design/method.md's sampling through the core's (core/timing.c) ---- */

/* The sampling settings of @p tm as the core's (min, max, noise, budget; rmw's defaults for the rest). */
void atl__app_sampling(const struct atl_app_timing *tm, struct atl_timing *t);

/* Samples @p fn (no warm-up here; its iters argument is 0) as @p tm says; the statistics go to @p stats. */
int atl__app_sample(atl__launch_fn fn, void *arg, const struct atl_app_timing *tm, struct atl_stats *stats);

/*
 * One warm-up launch of @p kernel, then timed launches as @p tm says, each
 * after @p reset; statistics of the device times go to row->time_ms. The
 * last launch's results stay in device memory for the caller to verify.
 */
int atl__app_time(atl_context_t ctx, void *kernel, const struct atl_launch *launch, atl__app_reset_fn reset,
                  void *reset_arg, const struct atl_app_timing *tm, struct atl_row *row);

/* A device buffer read back into host memory after a timed launch. */
struct atl__app_readback {
  void *buf, *host;
  size_t bytes;
};

/* atl__app_time, then the @p n read-backs in order; the first error (the row's status is the caller's). */
int atl__app_time_read(atl_context_t ctx, void *kernel, const struct atl_launch *launch, atl__app_reset_fn reset,
                       void *reset_arg, const struct atl_app_timing *tm, struct atl_row *row,
                       const struct atl__app_readback *rb, unsigned n);

/* Reads @p bytes of device buffer @p buf into @p host. */
int atl__app_read(atl_context_t ctx, void *buf, void *host, size_t bytes);

/* One call of a CUB plugin function: @p reps timed runs (after its own warm-up); 0, else the reason in @p why. */
typedef int (*atl__cub_call_fn)(void *arg, unsigned reps, float *times_ms, char *why, size_t len);

/*
 * The CUB plugin for a baseline row, with *@p ordinal its CUDA device; NULL
 * with @p row's status unsupported and the reason (not a CUDA device, or
 * why the plugin did not load) where CUB cannot run.
 */
const struct atl__cub *atl__app_cub_for(atl_context_t ctx, struct atl_row *row, int *ordinal);

/* What a CUB call of a baseline row (an atl__cub_call_fn's argument) needs: the plugin, the app's run, the device. */
struct atl__cub_call {
  const struct atl__cub *cub;
  const void *run;
  int ordinal;
};

/* The CUB baseline's times, sampled as @p tm says in batches of calls, into row->time_ms; non-zero: @p why. */
int atl__app_cub_time(atl__cub_call_fn call, void *arg, const struct atl_app_timing *tm, struct atl_row *row,
                      char *why, size_t len);

/* ---- configurations (config.c) and option values (option.c) ---- */

/* @p bytes that live as long as @p cfg (lists, texts, an input file), or NULL. */
void *atl__app_config_alloc(atl_app_config_t cfg, size_t bytes);

/* The text option @p name was set from ("" for a flag), or NULL where it keeps its default. */
const char *atl__app_config_given(atl_app_config_t cfg, const char *name);

/* Adds a note for the user to what atl_app_config_prepare() returns (printf-style). */
void atl__app_config_note(atl_app_config_t cfg, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/*
 * Reads @p text into the field of option @p o in @p base (params, or the
 * timing for its options) by the option's kind; lists and texts take their
 * memory from @p cfg (NULL: numbers and names only). 0 or ATL_EINVAL with
 * "NAME 'TEXT' is not allowed: ..." in @p why.
 */
int atl__app_opt_parse(atl_app_config_t cfg, const struct atl_app_option *o, void *base, const char *text, char *why,
                       size_t len);

/* The ranges and names of every option of @p opts in @p base: 0 or ATL_EINVAL ("NAME V is not allowed: ..."). */
int atl__app_opt_check(const struct atl_app_option *opts, const void *base, char *why, size_t len);

/* A strict whole number (digits only); 0 or ATL_EINVAL. */
int atl__app_whole(const char *text, uint64_t *v);

/* Whether the comma list @p text names @p name itself. */
int atl__app_list_has(const char *text, const char *name);

/* Builds source/entry with @p defines; records the kernel's atomic instructions on @p row. */
int atl__app_build(atl_context_t ctx, const char *source, const char *entry, const char *defines, void **kernel,
                   struct atl_row *row);

/* Device buffers of one app run, freed together. */
#define ATL__APP_MAX_BUFFERS 20 /* scatter with every variant: 3 + det's 7 + part's 2 + dsm's 1 + pairs, meta, the read ceiling's word */
struct atl__app_buffers {
  void *buf[ATL__APP_MAX_BUFFERS];
  unsigned n;
};
int atl__app_alloc(atl_context_t ctx, struct atl__app_buffers *b, size_t bytes, void **out);

/* A stretch of enqueued work timed by two events on the device's stream or queue, where @p on and the backend records
 * events: atl__span_start records the first; atl__span_stop, unless @p err, the second, waits for it and puts the
 * milliseconds between them into @p ms, then frees both and returns the first error. */
struct atl__span {
  void *event[2];
  int on;
};
int atl__span_start(atl_context_t ctx, struct atl__span *s, int on);
int atl__span_stop(atl_context_t ctx, struct atl__span *s, int err, double *ms);

/** Work-items the device holds resident (its threads per compute unit x units), a multiple of @p wg, at least @p wg. */
size_t atl__app_resident_threads(const struct atl_device_info *d, uint32_t wg);
void atl__app_free_all(atl_context_t ctx, struct atl__app_buffers *b);

/* Fills @p bytes of @p buf with a 32-bit word. */
int atl__app_fill32(atl_context_t ctx, void *buf, uint32_t word, size_t bytes);

/* splitmix64: the deterministic input generator (same numbers on every machine). */
static inline uint64_t atl__splitmix64(uint64_t x)
{
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* Whether the open device is a CUDA device, and its ordinal. */
int atl__app_cuda_ordinal(atl_context_t ctx);

/* The CUB plugin's entry points (see src/backend/cuda/cub/atomlab_cub.h). */
struct atl__cub {
  int (*count_if)(int, uint64_t, uint64_t, uint32_t, float, uint64_t, unsigned, float *, char *, size_t);
  int (*sort_u32)(int, uint64_t, uint64_t, uint64_t, unsigned, float *, char *, size_t);
  int (*histogram_u8)(int, uint64_t, uint64_t, uint64_t, unsigned, float *, char *, size_t);
  int (*histogram_rgba)(int, uint64_t, uint64_t, uint64_t, unsigned, float *, char *, size_t);
  int (*histogram_u32)(int, uint64_t, uint64_t, uint32_t, uint64_t, unsigned, float *, char *, size_t);
  int (*scatter_add_f32x64)(int, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, unsigned, float *, char *, size_t);
  char info[64];
};

/*
 * Loads libatomlab_cub.so: $ATL_CUB_PLUGIN if set, else next to the running
 * binary. Returns NULL with the reason in @p why when it is missing or of
 * another ABI version.
 */
const struct atl__cub *atl__cub_load(char *why, size_t why_len);

/* A decoded photograph of the histogram app's photo distribution (src/apps/photo.c). */
struct atl__photo {
  uint8_t *rgba;         /* width x height pixels, bytes R, G, B, A (A = 0xff: JPEG has no alpha) */
  uint32_t width, height;
  char name[128];        /* the file name without its folder, for the rows */
};

/* @p path, or the default photo where it is NULL or empty. */
const char *atl__photo_path(const char *path);

/* Decodes the JPEG at @p path (NULL: the default); a negative code with a one-line reason in @p why. */
int atl__photo_load(const char *path, struct atl__photo *ph, char *why, size_t why_len);
void atl__photo_release(struct atl__photo *ph);

/* The device buffers of one list or skiplist run that a launch consumes. */
struct atl__link_run {
  void *next, *abort_flag, *retries;
  size_t next_bytes;
  uint32_t aborted; /* any launch's abort flag, collected by atl__link_reset */
};

/* Reset before each timed launch (atl__app_time): every link back to NIL and
 * the abort flag cleared, after noting whether the last launch aborted. */
int atl__link_reset(atl_context_t ctx, void *arg);

/*
 * The timed launches of a list or skiplist kernel (atl__link_reset before
 * each), then the links into @p next, the retries of every work-item of the
 * launch into @p retries (the sum of the first @p threads into *@p total) and
 * the last launch's abort flag into r->aborted. 0, else the error code with
 * the row's status error.
 */
int atl__link_time(atl_context_t ctx, void *kernel, const struct atl_launch *launch, struct atl__link_run *r,
                   const struct atl_app_timing *tm, uint32_t *next, uint32_t *retries, uint32_t threads,
                   uint64_t *total, struct atl_row *row);

/* The defaults (@p skiplist: its larger GPU sizes) and the check the list and skiplist share. */
void atl__list_defaults(const struct atl_device_info *d, struct atl_list_params *p, int skiplist);
int atl__list_params_check(const struct atl_device_info *d, const void *params, char *why, size_t len);

/* One recorded update of app swatomic --op: the word, the old value it returned, its operand. */
struct atl__sw_update {
  uint32_t word, old, v;
};
/*
 * Whether the @p n updates of min, max, and, or or xor (enum atl_swop) are
 * those of some serial order per word starting at @p init, and each of the
 * @p words words (@p mem) ends where that order does and at the op-reduction
 * of its operands (serial_order.c). Sorts @p u. 0 if so, else 1 with the
 * reason in @p why.
 */
int atl__sw_check_serial(int op, uint32_t init, struct atl__sw_update *u, size_t n, const uint32_t *mem,
                         uint32_t words, char *why, size_t why_len);

/* Host-side checkers of the lock-free structures (list_check.c); 0 if sound, else -1 and a reason. */
#define ATL__NIL 0xffffffffu
int atl__list_check(const uint32_t *next, uint32_t nodes, uint32_t nheads, char *why, size_t why_len);
int atl__skiplist_check(const uint32_t *next, const uint32_t *keys, const uint8_t *height, uint32_t nodes,
                        uint32_t levels, char *why, size_t why_len);

/* ---- seed 000's applications on the software atomic (swapps_common.c) ---- */

/* The names of variant bits 0, 1, 2 of atl_swapps_params.variants. */
extern const char *const atl__sw_variant_names[3];

/* The software atomic's protocol buffers of one run: one request word per
 * wavefront, one finished flag per work-group, the abort flag. */
struct atl__sw_sync {
  void *req, *finished, *abort_flag;
  size_t req_bytes, fin_bytes;
  uint32_t aborted; /* any launch's abort flag, collected by atl__sw_sync_reset */
};

/* The check of the swapps params for application @p app ("dot", "strmatch", "mapreduce") as @p ctx's error. */
int atl__swapps_check(atl_context_t ctx, const struct atl_swapps_params *p, const char *app);

/* Most grids one software-atomic run takes (the default ones: a doubling ladder up to the co-resident count). */
#define ATL__SW_MAX_GRIDS 32

/*
 * The grids of a software-atomic run, into @p buf (ATL__SW_MAX_GRIDS
 * entries): @p coresident, where 0, by occupancy discovery at @p wg (or the
 * test hook ATL_SW_ASSUME_CORESIDENT=N: PoCL's discovery often finds 1 on a
 * busy 2-core machine although its pool runs 2); ATL_SW_GROUPS_MAX and
 * ATL_SW_GROUPS_LADDER entries resolved; with *@p ngroups 0 the defaults: on
 * GPUs the ladder from @p first, on CPUs the co-resident count alone.
 */
int atl__sw_grids(atl_context_t ctx, uint32_t wg, uint32_t first, uint32_t *coresident, const uint32_t **groups,
                  unsigned *ngroups, uint32_t *buf);

/* The check the software-atomic apps share: work-group size, grids (0 of them: the defaults) and variants. */
int atl__sw_grid_check(const struct atl_device_info *d, uint32_t wg, const uint32_t *groups, unsigned ngroups,
                       unsigned variants, char *why, size_t len);

/* The option workgroups of the software-atomic apps: counts, max, LO:HI:x2 and LO:max:x2 (ATL_SW_GROUPS_*). */
int atl__sw_parse_groups(atl_app_config_t cfg, const struct atl_app_option *o, const char *text, char *why,
                         size_t len);

/*
 * What the software-atomic apps' prepare shares: the CPU's spin bound
 * (2^26 unless spin-bound was given), discovery and the grids (atl__sw_grids,
 * kept in @p cfg), a grid beyond the co-resident count refused (ATL_EINVAL),
 * fewer than 2 co-resident work-groups ATL_ENOTSUP. Nothing where @p wg is
 * one the check refuses.
 */
int atl__sw_prepare(atl_context_t ctx, atl_app_config_t cfg, uint32_t wg, uint32_t first, uint32_t *coresident,
                    const uint32_t **groups, unsigned *ngroups, char *why, size_t len);

/* The first @p want bytes of the text at @p path (.dz / .gz decompressed) into @p buf; ATL_EINVAL and why. */
int atl__text_read(const char *path, uint8_t *buf, uint64_t want, uint64_t *got, char *why, size_t len);

/* swatomic --experiment's model and instruction tables (swatomic_view.c): its registry entry's write_view. */
void atl__swatomic_view(FILE *f, const void *params, const struct atl_result_set *set);

/* The names of enum atl_swop. */
extern const char *const atl__swop_names[ATL_SWOP_COUNT];

/* 1 where the environment variable @p name (an app's test hook) is set to anything but "" or "0". */
int atl__app_hook(const char *name);

/* Sized for the largest grid of @p p that is not refused. */
int atl__sw_sync_alloc(atl_context_t ctx, struct atl__app_buffers *b, const struct atl_swapps_params *p,
                       struct atl__sw_sync *s);

/* Notes the last launch's abort flag, then zeroes every protocol buffer (call it from a reset). */
int atl__sw_sync_reset(atl_context_t ctx, struct atl__sw_sync *s);

/* One run of an application whose kernel adds into one array of result words (dot: the sum, strmatch: the counts). */
struct atl__sw_run {
  void *result;
  size_t result_bytes;
  struct atl__sw_sync sync;
  uint32_t cap; /* the largest co-resident grid of the kernel (atl__sw_cap) */
};

/* The reset of an atl__sw_run (@p arg) before each launch: the protocol's buffers and the result words zeroed. */
int atl__sw_run_reset(atl_context_t ctx, void *arg);

/*
 * Fills the protocol's four arguments that end @p args (@p nargs in all) and
 * times @p kernel on @p groups work-groups (atl__sw_time, atl__sw_run_reset
 * before each launch); returns atl__sw_time's code.
 */
int atl__sw_run_time(atl_context_t ctx, void *kernel, struct atl_arg *args, unsigned nargs, uint32_t groups,
                     const struct atl_swapps_params *p, struct atl__sw_run *r, const struct atl_app_timing *tm,
                     struct atl_row *row);

/* The row "build" of an application whose kernel did not build: status error, added to @p out (atl__app_row_add). */
int atl__sw_build_failed(atl_context_t ctx, struct atl_row *brow, struct atl_result_set *out);

/*
 * Builds the kernel @p entry of @p source with the protocol's defines and
 * sets r->cap (atl__sw_cap); where the build fails, the row "build" of @p app
 * goes to @p out (atl__sw_build_failed) and *@p kernel stays NULL. 0, or what
 * the application returns (ATL_ENOMEM).
 */
int atl__sw_build(atl_context_t ctx, const struct atl_swapps_params *p, const char *app, const char *source,
                  const char *entry, void **kernel, struct atl__sw_run *r, struct atl_result_set *out);

/*
 * The largest co-resident grid of @p kernel: discovery's count, lowered to
 * the backend's estimate for this kernel where that is smaller (CUDA counts
 * its registers and shared memory; the discovery kernel uses few).
 */
uint32_t atl__sw_cap(atl_context_t ctx, void *kernel, const struct atl_swapps_params *p);

/* 1 (and @p row set to a refusal) if @p groups is not a grid of 2 to @p cap work-groups, else 0. */
int atl__sw_grid_refused(const struct atl_swapps_params *p, uint32_t cap, uint32_t groups, struct atl_row *row);

/* The protocol's four kernel arguments, in the order every swapps kernel ends with. */
void atl__sw_args(struct atl_arg *args, const struct atl__sw_sync *s, const struct atl_app_timing *tm);

/*
 * Times @p n launches in sequence per sample (their device times summed),
 * each sample after @p reset, which must call atl__sw_sync_reset. Returns
 * 0 when no launch gave up (the last sample's results stay for the caller
 * to verify), 1 with @p row set to status deadlock when one did, or an
 * error code with @p row set to status error.
 */
int atl__sw_time(atl_context_t ctx, void *const *kernels, const struct atl_launch *launches, unsigned n,
                 atl__app_reset_fn reset, void *reset_arg, struct atl__sw_sync *s, const struct atl_app_timing *tm,
                 struct atl_row *row);


#endif
