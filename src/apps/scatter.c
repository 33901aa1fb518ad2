/*
 * Scatter-add of rows: out[idx[i]][:] += src[i][:], the operation of graph aggregation, embedding backward, weighted
 * bincount and mixture-of-experts combine. Variants: one atomic per element (atomic), runs of equal consecutive keys
 * summed in registers before one atomic per column (run), one launch per range of keys whose output rows fit the L2
 * (part: P from the device's L2 size), the keys sorted into buckets of targets and each target row summed once
 * (bucket: scatter_bucket.c), and a deterministic variant (det: scatter_det.c; bit-identical on every grid,
 * checked bit for bit against a host emulation of its order and by the output's hash in tests/cli/scatter.sh). Every
 * element of the output is checked: integers exactly; floats against a float64 host sum within the bound of recursive
 * summation in any order, |got - sum| <= g(n) * sum|x| with g(n) = (n-1)u / (1-(n-1)u), u = 2^-24, n the element's
 * number of contributions (docs/design/scatter.md). The run's yardsticks (yardsticks.c) come first: the vendor's copy
 * of the source rows and a read ceiling over them; every row's ratios are against both.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app_internal.h"
#include "scatter_auto.h"
#include "scatter_bucket.h"
#include "scatter_cub.h"
#include "scatter_det.h"
#include "scatter_io.h"
#include "yardsticks.h"
#include "scatter_dsm.h"
#include "scatter_host.h"
#include "scatter_keys.h"
#include "scatter_launch.h"
#include "scatter_variants.h"

extern const struct atl_app_info atl__app_scatter;

enum { DIST_UNIFORM, DIST_ZIPF, DIST_SORTED, DIST_CLUSTERED, DIST_HOT, DIST_COUNT };
static const char *const dist_names[] = {"uniform", "zipf", "sorted", "clustered", "hot"};
#define variant_names atl__scatter_variant_names /* the variant table's (scatter_variants.c), as VAR_* its ids */
enum { TYPE_F32, TYPE_U32, TYPE_I32, TYPE_BF16, TYPE_F16, TYPE_COUNT };
static const char *const type_names[] = {"f32", "u32", "i32", "bf16", "f16"};
#define type_defines atl__scatter_type_defines /* the variant table's, in --type's order */
enum { INDEX_I32, INDEX_I64 };
static const char *const index_names[] = {"i32", "i64"};
enum { PART_REREAD, PART_BUCKET };
static const char *const part_key_names[] = {"reread", "bucket"};
enum { PART_TABLE_RECUR, PART_TABLE_SEEN };
static const char *const part_table_names[] = {"recur", "seen"};
enum { PART_HOT_NONE, PART_HOT_WARP };
static const char *const part_hot_names[] = {"none", "warp"};
static const char *const part_prefetch_names[] = {"none", "l2"};
static const char *const part_add_names[] = {"red", "bulk"};
static const char *const part_split_names[] = {"off", "on"};
static const char *const dsm_beyond_names[] = {"launch", "global"};
static const char *const dsm_counter_names[] = {"16", "32"};
#define PART_MAX 1024u /* ranges the bucketing takes (app_scatter.k.c's PART_MAX): its local counters */

struct scatter_params {
  uint32_t wg_size, dim, run, rows_per_warp, block_rows, groups, bin_rows, partitions, part_batch, part_chunk,
      part_group, dsm_cluster, dsm_words, dsm_cache;
  uint64_t rows, targets, seed;
  unsigned dists, variants;
  int type, index, part_keys, part_table, part_hot, part_prefetch, part_add, part_split, dsm_beyond, dsm_counters;
  double zipf;
  const char *dump;
};

static int is_int(const struct scatter_params *p) { return p->type == TYPE_U32 || p->type == TYPE_I32; }
static size_t elem_bytes(const struct scatter_params *p) { return p->type >= TYPE_BF16 ? 2 : 4; }
static size_t index_bytes(const struct scatter_params *p) { return p->index == INDEX_I64 ? 8 : 4; }

struct scatter_run {
  atl_context_t ctx;
  const struct scatter_params *p;
  void *src, *idx, *out;
  const void *host_src; /* the source rows, which the yardsticks copy and read */
  const uint32_t *host_idx; /* the keys of the distribution being run */
  size_t src_bytes, out_bytes;
  struct atl__yardsticks yard; /* the vendor copy's and the read kernel's bandwidths in this run */
  struct atl__scatter_det det; /* the det variant's passes, prepared once per run */
  struct atl__scatter_dsm dsm; /* the dsm variant's launches, prepared per distribution */
  struct atl__scatter_bucket bucket; /* the bucket variant's passes, prepared on its first row */
  int own;                     /* which of det, dsm and bucket own_once runs */
  struct atl__app_buffers *bufs;
  void *part_kernel; /* the part variant: its kernel, launch and arguments (lo and hi, or q, set per pass) */
  struct atl_launch part_launch;
  struct atl_arg part_args[8];
  uint32_t parts;
  int bucketed; /* --part-keys bucket: the pre-pass (count, scan, fill) first, then a launch per range */
  int sweep;    /* the sweep variant: every range in one launch, its work-groups taking tickets from meta's last word */
  int narrow;   /* the sweep with i64 keys: range 0's pass narrows them to u32 in pairs, later ranges read those */
  unsigned split; /* the sweep's split (range 0 sorts the later ranges' keys into pairs): a row's place bits, or 0 */
  size_t meta_bytes;
  void *pairs, *meta; /* its (row, key) pairs and its counts, cursors and bounds */
  void *pre_kernel[3];
  struct atl_launch pre_launch[3];
  struct atl_arg pre_args[3][6];
  char det_instructions[sizeof ((struct atl_row *)0)->instructions];
  struct atl__scatter_tuning tuning; /* the device's tuned constants (data/tuning/scatter.json, or derived) */
  double det_sort_ms, det_sum_ms; /* the det variant's last sample: its radix passes, its tile and combine passes */
};

static int reset_out(atl_context_t ctx, void *arg)
{
  struct scatter_run *r = arg;
  return atl__app_fill32(ctx, r->out, 0, r->out_bytes);
}

/* The keys of distribution @p dist: in [0, targets), deterministic from the seed (scatter_keys.c, which the
 * library's tests draw from too). */
static int make_keys(const struct scatter_params *p, int dist, uint32_t *idx)
{
  return atl__scatter_keys(dist, p->rows, p->targets, p->zipf, p->run, p->seed, idx);
}

/* The run's shape, source rows and keys as the host check sees them (scatter_host.c). */
static struct atl__scatter_host host_view(const struct scatter_params *p, const uint32_t *idx, const void *src)
{
  static const int kinds[TYPE_COUNT] = {ATL__HOST_F32, ATL__HOST_INT, ATL__HOST_INT, ATL__HOST_BF16, ATL__HOST_F16};
  return (struct atl__scatter_host){p->rows, p->targets, p->dim, kinds[p->type], src, idx};
}

/* One timed sample of a variant with passes of its own (r->own: det, dsm or bucket): the output zeroed (untimed, as
 * for the others), then every pass. */
static int own_once(void *arg, uint32_t iters, double *ms)
{
  struct scatter_run *r = arg;
  int err = reset_out(r->ctx, r);
  (void)iters;
  if (err || r->own == ATL__SV_BUCKET)
    return err ? err : atl__scatter_bucket_launch(r->ctx, &r->bucket, ms);
  return r->own == ATL__SV_DET ? atl__scatter_det_launch(r->ctx, &r->det, ms, &r->det_sort_ms, &r->det_sum_ms)
                               : atl__scatter_dsm_launch(r->ctx, &r->dsm, ms);
}

/* The bucket variant's passes and scratch, laid out on its first row of the run (auto may pick it): NULL, or why the
 * device cannot run it. */
static const char *bucket_ready(struct scatter_run *r, struct atl_row *row, int *err)
{
  const struct scatter_params *p = r->p;
  if (r->bucket.kernels[0])
    return NULL;
  r->bucket = (struct atl__scatter_bucket){.rows = p->rows, .targets = p->targets, .dim = p->dim, .wg = p->wg_size,
                                           .src = r->src, .idx = r->idx, .out = r->out};
  const char *why = atl__scatter_bucket_shape(atl_device_current(r->ctx), p->targets, p->wg_size,
                                              r->tuning.bucket_span, &r->bucket.span, &r->bucket.nb);
  if (!why && (*err = atl__scatter_bucket_prepare(r->ctx, r->bufs, &r->bucket, type_defines[p->type],
                                                  (unsigned)index_bytes(p), row)))
    r->bucket.kernels[0] = NULL;
  return why;
}

/* One timed sample of the part variant: the output (and the bucketing's counts) zeroed (untimed), the
 * bucketing's three launches where it runs, then one launch per range of keys, in order; the time is their
 * sum. Range q is [V q / P, V (q + 1) / P). */
static int part_once(void *arg, uint32_t iters, double *ms)
{
  struct scatter_run *r = arg;
  double total = 0;
  int err = reset_out(r->ctx, r);
  (void)iters;
  if (!err && (r->bucketed || r->sweep)) /* the bucketing's counts, the sweep's ticket counter */
    err = atl__app_fill32(r->ctx, r->meta, 0, r->meta_bytes);
  for (unsigned i = 0; i < 3 && r->bucketed && !err; i++) {
    double t = 0;
    err = atl__ops(r->ctx)->launch(atl__dev(r->ctx), r->pre_kernel[i], &r->pre_launch[i], &t);
    total += t;
  }
  for (uint32_t q = 0; q < (r->sweep ? 1 : r->parts) && !err; q++) { /* the sweep: one launch for every range */
    double t = 0;
    if (r->bucketed)
      r->part_args[4].value = q;
    else if (!r->sweep) {
      r->part_args[4].value = r->p->targets * q / r->parts;
      r->part_args[5].value = r->p->targets * (q + 1) / r->parts;
    }
    err = atl__ops(r->ctx)->launch(atl__dev(r->ctx), r->part_kernel, &r->part_launch, &t);
    total += t;
  }
  if (ms)
    *ms = total;
  return err;
}

/* The part variant's ranges: --partitions, else as many as make a range's output rows fit the tuning's share of the
 * device's L2 (scatter_launch.c), one where the backend does not know its L2 or the output fits; never more than the
 * targets. */
static uint32_t part_count(const struct scatter_run *r, const struct atl_device_info *d)
{
  return atl__scatter_part_count(r->p->partitions, r->p->targets, r->out_bytes, d->l2_cache, 0, &r->tuning);
}

static size_t part_threads(atl_context_t ctx, void *kernel, const struct scatter_params *p)
{
  return atl__scatter_part_threads(ctx, kernel, p->rows, p->wg_size); /* scatter_launch.c's, the library's too */
}

/* The bucketing's launches (--part-keys bucket; app_scatter.k.c's part_count, part_scan, part_fill) with the
 * same defines as the ranges' kernel: count and fill over one wave, the scan on one work-item. */
static int part_prepare_buckets(struct scatter_run *r, const char *defines)
{
  static const char *const entries[3] = {"part_count", "part_scan", "part_fill"};
  const struct scatter_params *p = r->p;
  const uint64_t fill_chunks = (p->rows + p->wg_size * 8ull - 1) / (p->wg_size * 8ull); /* FILL_ROWS 8 */
  const uint64_t count_groups = (p->rows + p->wg_size - 1) / p->wg_size;
  int err = 0;
  for (unsigned i = 0; i < 3 && !err; i++)
    err = atl__app_build(r->ctx, "app_scatter", entries[i], defines, &r->pre_kernel[i], NULL);
  if (err)
    return err;
  uint64_t g = atl__scatter_wave_groups(r->ctx, r->pre_kernel[0], p->wg_size);
  struct atl_arg *a = r->pre_args[0];
  a[0] = (struct atl_arg){ATL_ARG_BUFFER, r->idx, 0}, a[1] = (struct atl_arg){ATL_ARG_BUFFER, r->meta, 0};
  a[2] = (struct atl_arg){ATL_ARG_U64, NULL, p->rows}, a[3] = (struct atl_arg){ATL_ARG_U32, NULL, r->parts};
  a[4] = (struct atl_arg){ATL_ARG_U32, NULL, p->targets};
  r->pre_launch[0] = (struct atl_launch){(size_t)(g < count_groups ? g : count_groups) * p->wg_size, p->wg_size, a, 5};
  a = r->pre_args[1];
  a[0] = (struct atl_arg){ATL_ARG_BUFFER, r->meta, 0}, a[1] = (struct atl_arg){ATL_ARG_U32, NULL, r->parts};
  r->pre_launch[1] = (struct atl_launch){p->wg_size, p->wg_size, a, 2};
  g = atl__scatter_wave_groups(r->ctx, r->pre_kernel[2], p->wg_size);
  a = r->pre_args[2];
  a[0] = (struct atl_arg){ATL_ARG_BUFFER, r->idx, 0}, a[1] = (struct atl_arg){ATL_ARG_BUFFER, r->meta, 0};
  a[2] = (struct atl_arg){ATL_ARG_BUFFER, r->pairs, 0}, a[3] = (struct atl_arg){ATL_ARG_U64, NULL, p->rows};
  a[4] = (struct atl_arg){ATL_ARG_U32, NULL, r->parts}, a[5] = (struct atl_arg){ATL_ARG_U32, NULL, p->targets};
  r->pre_launch[2] = (struct atl_launch){(size_t)(g < fill_chunks ? g : fill_chunks) * p->wg_size, p->wg_size, a, 6};
  return 0;
}

static size_t launch_threads(const struct scatter_params *p, int variant)
{
  return atl__scatter_rows_threads(p->rows, p->rows_per_warp, variant == ATL__SV_BLOCK ? p->block_rows : 0, p->wg_size);
}

/*
 * What `auto` runs for these keys (scatter_auto.c's rule; never det, whose point is its order): from the shape
 * and two shares of the keys measured on the host, each a pass over them: runs of equal consecutive keys
 * (what the run variant removes: sorted, clustered, hot) and a head of keys that each recur in a block
 * variant's work-group (expected at least twice in its --block-rows rows: a zipf head, a hot row). Part's
 * ranges where it picks part into *parts (1, or 0: from the L2's size).
 */
static int auto_pick(const struct scatter_run *r, const struct atl__scatter_expected *x, uint32_t *parts, char *why, size_t len)
{
  const struct scatter_params *p = r->p;
  const struct atl_device_info *d = atl_device_current(r->ctx);
  uint64_t same = 0, head = 0;
  for (uint64_t i = 1; i < p->rows; i++)
    same += r->host_idx[i] == r->host_idx[i - 1];
  for (uint64_t k = 0; k < p->targets; k++)
    head += (double)x->depth[k] * p->block_rows >= 2.0 * (double)p->rows ? x->depth[k] : 0; /* 2 a block */
  const struct atl__scatter_stats st = {.dim = p->dim, .run_share = (double)same / (double)p->rows,
                                        .head_share = (double)head / (double)p->rows, .out_bytes = r->out_bytes,
                                        .l2_bytes = d->l2_cache,
                                        .part_fast = atl__scatter_part_fast(d, (unsigned)elem_bytes(p), p->dim),
                                        .dsm_fast = atl__scatter_dsm_fast(d, is_int(p)), .tuning = &r->tuning,
                                        .targets = p->targets, .index_bytes = (unsigned)index_bytes(p),
                                        .rows = p->rows, .units = d->compute_units};
  const struct atl__scatter_pick pick = atl__scatter_auto_rule(&st);
  const int v = pick.variant, derived = r->tuning.derived;
  const char *ranges = v != ATL__SV_PART && v != ATL__SV_SWEEP ? "" : pick.partitions == 1 ? " in one range"
                                                                                           : " in L2-sized ranges";
  *parts = pick.partitions;
  snprintf(why, len, "auto ran %s%s (equal neighbouring keys %.3f, head keys' share %.3f, dim %u; tuning %s%s%.200s)",
           variant_names[v], ranges, st.run_share, st.head_share, p->dim, r->tuning.row, derived ? ": " : "",
           derived ? r->tuning.note : "");
  return v;
}

/* det's tile as its check emulates it (the test hook that proves the check can fail: no cuts, plain row order). */
static uint64_t det_check_tile(void)
{
  return atl__app_hook("ATL_SCATTER_SKEW_DET_ORDER") ? UINT64_MAX : ATL__SCATTER_DET_TILE;
}

/* The tile with which the expectation's pass over the rows computes det's order too (no second pass for its check),
 * or 0: det runs on floats and its V x D values fit the host's memory beside the run's. */
static uint64_t det_fused_tile(const struct scatter_params *p)
{
  struct atl_app_bytes need = {0, 0, NULL};
  if (!(p->variants & (1u << ATL__SV_DET)) || is_int(p))
    return 0;
  atl__app_scatter.bytes_needed(NULL, p, &need);
  const uint64_t avail = atl__host_available();
  return avail && need.host + p->targets * p->dim * elem_bytes(p) <= avail ? det_check_tile() : 0;
}

/* A variant's output against the expectation (every element; det's bits against its order's emulation too): the
 * count of wrong elements, the first in @p first, the output's hash (FNV-1a, 53 bits) in @p hash. */
static uint64_t check_row(const struct scatter_run *r, const struct atl__scatter_expected *x, int variant,
                          const void *host_out, char *first, size_t len, double *hash)
{
  const struct scatter_params *p = r->p;
  const struct atl__scatter_host h = host_view(p, r->host_idx, r->host_src);
  uint64_t wrong = atl__scatter_check(&h, host_out, x, variant == ATL__SV_CUB && p->dim == 1, first, len, hash);
  if (variant == ATL__SV_DET && !is_int(p) && wrong == 0) { /* the order, not only the bound */
    const int64_t off = atl__scatter_det_mismatches(&h, x, det_check_tile(), host_out);
    wrong = off < 0 ? p->targets * p->dim : (uint64_t)off;
    if (off)
      snprintf(first, len, "%s", off < 0 ? "no host memory to emulate the fixed order"
                                         : "bits other than the fixed order's (host emulation)");
  }
  return wrong;
}

/* One variant of one distribution: timed, read back and checked. */
/* The metrics of a variant with passes of its own: where its time goes, its shape. */
static void own_metrics(const struct scatter_run *r, int variant, struct atl_row *row)
{
  const char *names[] = {"det_sort_ms", "det_sum_ms", "dsm_cluster", "dsm_words", "dsm_passes", "dsm_cache",
                         "dsm_beyond", "dsm_counter_bits", "bucket_span", "buckets"};
  const double values[] = {r->det_sort_ms, r->det_sum_ms, r->dsm.cluster, r->dsm.words, r->dsm.passes, r->dsm.cache,
                           r->dsm.beyond, r->dsm.wide ? 32 : 16, r->bucket.span, r->bucket.nb};
  const unsigned from = variant == ATL__SV_DET ? 0 : variant == ATL__SV_DSM ? 2 : 8;
  const unsigned to = from == 0 ? 2 : from == 2 ? 8 : 10;
  for (unsigned i = from; i < to; i++)
    atl_row_metric_set(row, names[i], values[i]);
}

static int run_variant(struct scatter_run *r, int dist, int variant, const struct atl__scatter_expected *x, void *host_out,
                       const struct atl_app_timing *tm, struct atl_result_set *out)
{
  char picked[384] = "";
  const int as_auto = variant == ATL__SV_AUTO;
  uint32_t auto_parts = 0; /* auto's ranges for part: 1, or 0 as --partitions says */
  if (as_auto)
    variant = auto_pick(r, x, &auto_parts, picked, sizeof picked);
  atl_context_t ctx = r->ctx;
  const struct scatter_params *p = r->p;
  struct atl_row row;
  void *kernel = NULL;
  char label[96], defines[512];
  snprintf(label, sizeof label, "%s%s/%s/%s", type_names[p->type], p->index == INDEX_I64 ? "-i64" : "",
           dist_names[dist],
           as_auto ? "auto" : variant_names[variant]);
  atl__app_row_init(&row, "scatter", label);
  if (as_auto) {
    atl__app_row_status(&row, ATL_STATUS_OK, "%s", picked);
    atl_row_metric_set(&row, "auto_variant", variant);
  }
  /* What the variant needs of the device and the shape, from the variant table: its rows say so where it is missing */
  const struct atl_device_info *dev = atl_device_current(ctx);
  const char *unsupported = atl__scatter_unsupported(variant, dev, (enum atl_scatter_type)p->type, p->dim);
  if (unsupported) {
    atl__app_row_status(&row, ATL_STATUS_UNSUPPORTED, "%s", unsupported);
    return atl_result_set_add(out, &row) ? ATL_ENOMEM : 0;
  }
  int err = 0;
  const struct atl__scatter_cub_job cub = {p->type == TYPE_F32, is_int(p), p->index == INDEX_I32, p->dim, p->rows,
                                           p->targets, r->src, r->idx, r->out, r->out_bytes};
  if (variant == ATL__SV_CUB && (err = atl__scatter_cub_row(ctx, &cub, &row, tm, host_out)) == 1) /* checked as all */
    return atl_result_set_add(out, &row) ? ATL_ENOMEM : 0;
  /* part: the ranges, whether the bucketing runs (it takes at most PART_MAX ranges; more reread the keys) and
   * the batch (H100, reference run: scatter; uniform keys over 11 ranges 1.545 ms at 2 against 1.599 at 1
   * and 1.553 at 4; a hot row in one range 0.825 ms at 1 against 1.025 at 4, zipf keys 1.689 and 1.683) */
  uint32_t batch = p->part_batch;
  const int parted = variant == ATL__SV_PART || variant == ATL__SV_SWEEP; /* the sweep: part's kernel, one launch */
  if (parted) {
    r->sweep = variant == ATL__SV_SWEEP;
    /* auto names the sweep without ranges of its own (scatter_auto.c), so the plan's are the sweep's */
    const struct atl__scatter_sweep sw =
        r->sweep ? atl__scatter_sweep_plan(dev, (unsigned)elem_bytes(p), p->dim, (unsigned)index_bytes(p),
                                           p->partitions, p->targets, p->wg_size, p->part_chunk, p->part_split)
                 : (struct atl__scatter_sweep){auto_parts ? auto_parts : part_count(r, dev), 0, 0};
    r->parts = sw.parts, r->split = sw.split_bits, r->narrow = sw.narrow;
    r->bucketed = !r->sweep && p->part_keys == PART_BUCKET && r->parts <= PART_MAX;
    if (batch == 0)
      batch = r->parts > 1 ? r->tuning.part_batch : 1;
  }
  /* The sweep's tickets (ranges x chunks, a u32 counter that every work-group passes once more at the end) */
  const double chunk_rows = (double)p->wg_size * p->part_chunk;
  if (variant == ATL__SV_SWEEP && (double)r->parts * ceil((double)p->rows / chunk_rows) >= 0x1p31) {
    atl__app_row_status(&row, ATL_STATUS_UNSUPPORTED, "sweep: %u ranges of %llu rows make 2^31 tickets or more",
                        r->parts, (unsigned long long)p->rows);
    return atl_result_set_add(out, &row) ? ATL_ENOMEM : 0;
  }
  const uint32_t group = atl__scatter_split_group(dev, p->rows, p->wg_size, p->part_chunk, p->part_group);
  /* --part-add bulk runs where the kernel has it: CUDA sm_90, f32, a row's 16-byte units dividing a warp */
  int bulk = parted && p->part_add == 1 && dev->kernels_cuda_c && dev->has_vector_f32_red && p->type == TYPE_F32 &&
             p->dim % 4 == 0 && 32 % (p->dim / 4) == 0;
  /* Its staging ring (two halves of a batch's 16-byte units a warp) takes its bytes from the local table, so the
   * work-group's local memory, and its occupancy, stay the red path's (a table of at least one slot: else red) */
  unsigned slots = atl__scatter_block_slots(p->dim, r->tuning.table_bytes);
  const unsigned stage_slots = (unsigned)((p->wg_size / 32 * 2ull * 32 * (batch ? batch : 1) * 16 + 4 * p->dim + 3) /
                                          (4 * p->dim + 4));
  if (bulk && parted)
    slots = stage_slots < slots ? slots - stage_slots : (bulk = 0, slots);
  const struct atl__scatter_knobs knobs = {
      p->dim, type_defines[p->type], (unsigned)index_bytes(p), variant, slots, p->block_rows, p->bin_rows,
      p->wg_size / 32, batch ? batch : 1, p->part_table == PART_TABLE_SEEN, p->part_hot == PART_HOT_WARP,
      p->part_prefetch && r->parts > 1, bulk, p->part_chunk, parted && r->narrow, parted && r->split,
      parted ? r->split : 0u, group, r->tuning.min_threads};
  atl__scatter_defines(defines, sizeof defines, &knobs);
  const int passes = variant == ATL__SV_DET || variant == ATL__SV_DSM || variant == ATL__SV_BUCKET; /* own_once's */
  r->own = variant;
  if (variant == ATL__SV_DET) { /* built once per run (scatter_run); timed over all its passes */
    snprintf(row.instructions, sizeof row.instructions, "%s", r->det_instructions);
  } else if (variant == ATL__SV_DSM) { /* its launches over the ranges of bins its table covers */
    r->dsm.cluster = p->dsm_cluster, r->dsm.words = p->dsm_words, r->dsm.cache = p->dsm_cache;
    r->dsm.beyond = (uint32_t)p->dsm_beyond, r->dsm.wide = (uint32_t)p->dsm_counters;
    err = atl__scatter_dsm_prepare(ctx, r->bufs, &r->dsm, &row);
  } else if (variant == ATL__SV_BUCKET && (unsupported = bucket_ready(r, &row, &err))) {
    atl__app_row_status(&row, ATL_STATUS_UNSUPPORTED, "%s", unsupported);
    return atl_result_set_add(out, &row) ? ATL_ENOMEM : 0;
  } else if (variant != ATL__SV_CUB && variant != ATL__SV_BUCKET) { /* the table's kernel, or part's bucketed one */
    const struct atl__scatter_variant *v = &atl__scatter_variants[variant];
    const int own = r->bucketed && variant == ATL__SV_PART;
    err = atl__app_build(ctx, v->source, own ? "scatter_part_bucketed" : v->entry, defines, &kernel, &row);
  }
  struct atl_arg args[] = {{ATL_ARG_BUFFER, r->src, 0},
                           {ATL_ARG_BUFFER, r->idx, 0},
                           {ATL_ARG_BUFFER, r->out, 0},
                           {ATL_ARG_U64, NULL, p->rows},
                           {ATL_ARG_U32, NULL, p->rows_per_warp}};
  struct atl_launch launch = {variant == ATL__SV_BINS ? 0 : launch_threads(p, variant), p->wg_size, args, 5};
  if (!err && variant == ATL__SV_BINS)
    launch.global = atl__scatter_bins_groups(ctx, kernel, p->rows, p->bin_rows, p->wg_size) * p->wg_size;
  if (!err && parted) { /* P launches a sample, each over every row, adding the keys of its range (sweep: one) */
    double warm = 0;
    r->part_kernel = kernel;
    memcpy(r->part_args, args, 4 * sizeof *args); /* src, idx, out, rows; then the range [lo, hi) */
    r->part_args[4] = (struct atl_arg){ATL_ARG_U32, NULL, 0};
    r->part_args[5] = (struct atl_arg){ATL_ARG_U32, NULL, 0};
    r->part_launch = (struct atl_launch){part_threads(ctx, kernel, p), p->wg_size, r->part_args, 6};
    if (r->sweep) { /* src, idx, out, rows, parts, targets, meta (ticket, flags), the narrowed keys */
      r->part_args[4].value = r->parts;
      r->part_args[5].value = p->targets;
      r->part_args[6] = (struct atl_arg){ATL_ARG_BUFFER, r->meta, 0};
      r->part_args[7] = (struct atl_arg){ATL_ARG_BUFFER, r->narrow || r->split ? r->pairs : r->meta, 0};
      r->part_launch.nargs = 8;
    } else if (r->bucketed) { /* src, pairs, out, meta, q */
      r->part_args[1] = (struct atl_arg){ATL_ARG_BUFFER, r->pairs, 0};
      r->part_args[3] = (struct atl_arg){ATL_ARG_BUFFER, r->meta, 0};
      r->part_launch.nargs = 5;
      err = part_prepare_buckets(r, defines);
    }
    atl_row_metric_set(&row, "partitions", r->parts);
    atl_row_metric_set(&row, "part_bucketed", r->bucketed);
    atl_row_metric_set(&row, "part_batch", batch);
    atl_row_metric_set(&row, "part_seen", p->part_table == PART_TABLE_SEEN);
    atl_row_metric_set(&row, "part_hot", p->part_hot == PART_HOT_WARP);
    atl_row_metric_set(&row, "part_prefetch", p->part_prefetch && r->parts > 1);
    atl_row_metric_set(&row, "part_bulk", bulk);
    atl_row_metric_set(&row, "part_sweep", r->sweep);
    atl_row_metric_set(&row, "part_narrow", r->narrow);
    if (r->sweep) {
      atl_row_metric_set(&row, "part_chunk", p->part_chunk);
      atl_row_metric_set(&row, "part_split", r->split != 0);
      if (r->split)
        atl_row_metric_set(&row, "part_group", group);
    }
    atl_row_metric_set(&row, "l2_bytes", (double)dev->l2_cache);
    if (!err && !(err = part_once(r, 0, &warm)))
      err = atl__app_sample(part_once, r, tm, &row.time_ms);
  } else if (!err && passes) {
    double warm = 0;
    if (!(err = own_once(r, 0, &warm)) && !(err = atl__app_sample(own_once, r, tm, &row.time_ms)))
      own_metrics(r, variant, &row);
  } else if (!err && variant != ATL__SV_CUB)
    err = atl__app_time(ctx, kernel, &launch, reset_out, r, tm, &row);
  if (!err && variant != ATL__SV_CUB)
    err = atl__ops(ctx)->read(atl__dev(ctx), r->out, host_out, r->out_bytes);
  if (err) {
    atl__app_row_status(&row, ATL_STATUS_ERROR, "%s", atl_errmsg(ctx));
    return atl_result_set_add(out, &row) ? ATL_ENOMEM : err == ATL_ENOMEM ? err : 0;
  }
  row.status = ATL_STATUS_OK;
  const double t = row.time_ms.median;
  const size_t es = elem_bytes(p);
  char first[200] = "";
  double hash = 0;
  row.wrong = check_row(r, x, variant, host_out, first, sizeof first, &hash);
  atl_row_metric_set(&row, "out_hash53", hash);
  row.verified = row.wrong == 0;
  if (!row.verified)
    atl__app_row_status(&row, ATL_STATUS_OK, "%s%s%llu of %llu elements wrong: first %s", picked,
                        *picked ? ": " : "", (unsigned long long)row.wrong,
                        (unsigned long long)(p->targets * p->dim), first);
  /* the fewest bytes: src and idx read once, each output row a key names read and written once */
  const double bytes = (double)r->src_bytes + (double)index_bytes(p) * (double)p->rows +
                       2.0 * (double)x->touched * p->dim * es;
  if (t > 0) {
    atl_row_metric_set(&row, "gbps", bytes / (t * 1e6));
    atl_row_metric_set(&row, "melem_per_s", (double)p->rows * p->dim / (t * 1e3));
  }
  atl__app_yardstick_ratios(&row, &r->yard, bytes);
  atl_row_metric_set(&row, "rows", (double)p->rows);
  atl_row_metric_set(&row, "dim", p->dim);
  atl_row_metric_set(&row, "targets", (double)p->targets);
  return atl_result_set_add(out, &row) ? ATL_ENOMEM : 0;
}

static int scatter_run(atl_context_t ctx, const void *params, const struct atl_app_timing *tm,
                       struct atl_result_set *out)
{
  const struct scatter_params *p = params;
  struct atl__app_buffers bufs = {{0}, 0};
  struct scatter_run r = {0};
  struct atl__scatter_expected x = {0};
  int err = atl__app_checked(ctx, &atl__app_scatter, p);
  if (err)
    return err;
  r.src_bytes = (size_t)(p->rows * p->dim * elem_bytes(p));
  r.out_bytes = (size_t)(p->targets * p->dim * elem_bytes(p));
  uint32_t *idx = malloc(p->rows * sizeof *idx);
  uint64_t *idx64 = p->index == INDEX_I64 ? malloc(p->rows * sizeof *idx64) : NULL; /* the keys as i64 */
  void *src = atl__host_alloc(r.src_bytes), *host_out = atl__host_alloc(r.out_bytes);
  if (idx == NULL || src == NULL || host_out == NULL || (p->index == INDEX_I64 && idx64 == NULL)) {
    err = atl__seterr(ctx, ATL_ENOMEM, "scatter: out of host memory for %zu + %zu bytes", r.src_bytes, r.out_bytes);
    goto out;
  }
  r.ctx = ctx;
  r.p = p;
  atl__scatter_tuning_for(atl_device_current(ctx), &r.tuning);
  r.bufs = &bufs;
  atl__scatter_source(host_view(p, NULL, NULL).type, p->type == TYPE_I32, p->seed, p->rows * p->dim, src);
  r.host_src = src;
  r.host_idx = idx;
  if ((err = atl__app_alloc(ctx, &bufs, r.src_bytes, &r.src)) ||
      (err = atl__app_alloc(ctx, &bufs, p->rows * index_bytes(p), &r.idx)) ||
      (err = atl__app_alloc(ctx, &bufs, r.src_bytes > r.out_bytes ? r.src_bytes : r.out_bytes, &r.out)) ||
      (err = atl__ops(ctx)->write(atl__dev(ctx), r.src, src, r.src_bytes)))
    goto out;
  if (p->variants & (1u << ATL__SV_DET)) { /* the det passes' kernels and scratch, once for every distribution */
    struct atl_row probe;
    r.det = (struct atl__scatter_det){.rows = p->rows, .targets = p->targets, .dim = p->dim, .wg = p->wg_size,
                                      .groups = p->groups, .src = r.src, .idx = r.idx, .out = r.out};
    atl__app_row_init(&probe, "scatter", "det");
    if ((err = atl__scatter_det_prepare(ctx, &bufs, &r.det, type_defines[p->type], (unsigned)index_bytes(p),
                                        &probe)))
      goto out;
    snprintf(r.det_instructions, sizeof r.det_instructions, "%s", probe.instructions);
  }
  r.dsm = (struct atl__scatter_dsm){.rows = p->rows, .targets = p->targets, .wg = p->wg_size,
                                    .idx_bytes = (unsigned)index_bytes(p), .src = r.src, .idx = r.idx, .out = r.out};
  /* pairs: the bucketing's (row, key) pairs, or the sweep's narrowed i64 keys or split buckets (never two in a row) */
  const int bucket = (p->variants & (1u << ATL__SV_PART | 1u << ATL__SV_AUTO)) && p->part_keys == PART_BUCKET;
  const int keys32 = (p->variants & (1u << ATL__SV_SWEEP | 1u << ATL__SV_AUTO)) && (p->index == INDEX_I64 || p->part_split);
  if ((bucket || keys32) && (err = atl__app_alloc(ctx, &bufs, p->rows * (bucket ? 8 : 4), &r.pairs)))
    goto out;
  r.meta_bytes = atl__scatter_meta_bytes(p->rows, p->wg_size, p->part_chunk);
  if ((bucket || (p->variants & (1u << ATL__SV_SWEEP | 1u << ATL__SV_AUTO))) &&
      (err = atl__app_alloc(ctx, &bufs, r.meta_bytes, &r.meta)))
    goto out;
  if (p->dump && mkdir(p->dump, 0777) != 0 && access(p->dump, W_OK) != 0) {
    err = atl__seterr(ctx, ATL_EINVAL, "dump: unable to create or write the folder '%s'", p->dump);
    goto out;
  }
  if (p->dump && (err = atl__scatter_dump(ctx, p->dump, "src", type_names[p->type], src, r.src_bytes)))
    goto out;
  /* the yardsticks first: the ratios need them */
  err = atl__app_yardsticks(&(struct atl__yardstick_call){ctx, &bufs, "scatter", type_names[p->type], r.src, r.out,
                                                         src, r.src_bytes, p->wg_size, tm},
                            &r.yard, out);
  x.det_tile = det_fused_tile(p);
  for (int d = 0; d < DIST_COUNT && ATL_APP_GO_ON(err); d++) {
    if (!(p->dists & (1u << d)))
      continue;
    if ((err = make_keys(p, d, idx)))
      break;
    for (uint64_t i = 0; idx64 && i < p->rows; i++)
      idx64[i] = idx[i];
    if ((err = atl__ops(ctx)->write(atl__dev(ctx), r.idx, idx64 ? (void *)idx64 : (void *)idx,
                                    p->rows * index_bytes(p))))
      break;
    const struct atl__scatter_host hv = host_view(p, idx, src);
    if ((err = atl__scatter_expect(&hv, &x))) {
      atl__seterr(ctx, ATL_ENOMEM, "scatter: out of host memory for the expected output");
      break;
    }
    /* The test hook that proves the check can fail: one expected element off by one. */
    if (atl__app_hook("ATL_SCATTER_SKEW_REFERENCE")) {
      const uint64_t e = (uint64_t)idx[0] * p->dim;
      if (!is_int(p))
        x.sum[e] += 1.0;
      else
        x.isum[e] += 1;
    }
    if (p->dump && (err = atl__scatter_dump(ctx, p->dump, "idx", dist_names[d], idx, p->rows * 4)))
      break;
    for (int v = 0; v < ATL__SV_COUNT && ATL_APP_GO_ON(err); v++)
      if (p->variants & (1u << v)) {
        err = run_variant(&r, d, v, &x, host_out, tm, out);
        if (!err && p->dump && v == ATL__SV_ATOMIC)
          err = atl__scatter_dump(ctx, p->dump, "out", dist_names[d], host_out, r.out_bytes);
      }
  }
out:
  atl__scatter_expected_free(&x);
  free(idx);
  free(idx64);
  free(src);
  free(host_out);
  atl__app_free_all(ctx, &bufs);
  return err;
}

static void scatter_defaults(const struct atl_device_info *d, void *params)
{
  struct scatter_params *p = params;
  const int cpu = d->type == ATL_DEVICE_CPU;
  if (p->wg_size == 0)
    p->wg_size = atl__app_default_wg(d, 1);
  if (p->rows == 0)
    p->rows = cpu ? 16384 : 8u << 20;
  if (p->targets == 0)
    p->targets = cpu ? 4096 : 1u << 20;
}

/* What scatter_run allocates at most (atl_app_info.bytes_needed): on the host the keys (and their i64 copy),
 * src, the output read back, src read back once, the expected sums (float64 sum and magnitude, or exact
 * integers) with each target's depth, the key generator's table and the rows in key order; on
 * the device src, the keys, the output, the bucketing's pairs and the det variant's sort scratch. The det
 * variant's expected values (V x D) come on top only where the host has room for them (det_fused_tile). */
static void scatter_bytes(const struct atl_device_info *d, const void *params, struct atl_app_bytes *need)
{
  const struct scatter_params *p = params;
  const uint64_t E = p->rows, V = p->targets, D = p->dim, src = E * D * elem_bytes(p), dst = V * D * elem_bytes(p);
  (void)d;
  need->host = E * 4 + (p->index == INDEX_I64 ? E * 8 : 0) + 2 * src + dst + V * 4 + V * D * (is_int(p) ? 8 : 16) +
               V * 8 + E * 4 + V * 8;
  need->device = src + E * index_bytes(p) + (src > dst ? src : dst) +
                 (p->variants & (1u << ATL__SV_PART | 1u << ATL__SV_SWEEP | 1u << ATL__SV_AUTO) ? E * 8 : 0) +
                 (p->variants & (1u << ATL__SV_DET) ? E * 16 : 0) +
                 (p->variants & (1u << ATL__SV_BUCKET | 1u << ATL__SV_AUTO) ? E * 8 + V : 0); /* pairs, counts */
  need->param = E * (D * elem_bytes(p) + 4) >= V * D * elem_bytes(p) ? "rows" : "targets";
}

static int scatter_check(const struct atl_device_info *d, const void *params, char *why, size_t len)
{
  const struct scatter_params *p = params;
  if (p->wg_size % 32 || p->wg_size > d->max_wg_size)
    return atl__app_why(why, len, "wg-size %u is not allowed: a multiple of 32 (a warp owns rows) up to %zu on %s",
                        p->wg_size, d->max_wg_size, d->name);
  if (p->targets > UINT32_MAX)
    return atl__app_why(why, len, "targets %llu is not allowed: at most 2^32 - 1 (the keys are u32)",
                        (unsigned long long)p->targets);
  const double src = (double)p->rows * p->dim * elem_bytes(p), dst = (double)p->targets * p->dim * elem_bytes(p);
  if (src > (double)d->max_alloc || dst > (double)d->max_alloc)
    return atl__app_why(why, len, "rows %llu x dim %u (%.3g GB) or targets x dim (%.3g GB) exceed the max allocation "
                        "of %.3g GB on %s", (unsigned long long)p->rows, p->dim, src / 1e9, dst / 1e9,
                        (double)d->max_alloc / 1e9, d->name);
  if (p->partitions > p->targets)
    return atl__app_why(why, len, "partitions %u is not allowed: 0 (from the L2's size) or 1 to targets (%llu)",
                        p->partitions, (unsigned long long)p->targets);
  if (p->dists == 0 || p->variants == 0)
    return atl__app_why(why, len, "dist and variants: name at least one of each");
  const int clusters = d->kernels_cuda_c && d->has_vector_f32_red; /* sm_90 */
  if ((p->dsm_cluster & (p->dsm_cluster - 1)) || (p->dsm_cluster > 1 && !clusters))
    return atl__app_why(why, len, "dsm-cluster %u is not allowed: 0 (from the device) or a power of two up to 16, "
                        "more than 1 only on CUDA sm_90 or later (%s)", p->dsm_cluster, d->name);
  if ((p->dsm_cache & (p->dsm_cache - 1)) || p->dsm_cache == 1)
    return atl__app_why(why, len, "dsm-cache %u is not allowed: 0 (none) or a power of two from 2", p->dsm_cache);
  if ((p->dsm_words & (p->dsm_words - 1)) || p->dsm_words == 1) /* 1: PoCL 3.1 fails to compile the table's loops */
    return atl__app_why(why, len, "dsm-words %u is not allowed: 0 (from the bins and the local memory) or a power "
                        "of two from 2", p->dsm_words);
  return 0;
}

#define P(field) .offset = offsetof(struct scatter_params, field)
static const struct atl_app_option scatter_options[] = {
    ATL__APP_OPT_WG(struct scatter_params, 65536, "work-items per work-group, a multiple of 32"),
    {"rows", ATL_APP_OPT_U64, P(rows), .min = 1, .max = 4294967295.0, .arg = "N",
     .def_help = "GPU: 8388608; CPU: 16384", .help = "source rows E (src is E x dim)"},
    {"dim", ATL_APP_OPT_U32, P(dim), .min = 1, .max = 512, .def = "64", .arg = "D", .help = "columns of a row"},
    {"targets", ATL_APP_OPT_U64, P(targets), .min = 1, .max = 4294967295.0, .arg = "N",
     .def_help = "GPU: 1048576; CPU: 4096", .help = "output rows V (out is V x dim)"},
    {"dist", ATL_APP_OPT_SET, P(dists), .names = dist_names, .nnames = DIST_COUNT, .def = "all", .arg = "LIST",
     .help = "uniform, zipf (rank r with probability ~ 1/(r+1)^s), sorted (uniform keys ascending), clustered "
             "(runs of --run equal keys), hot (every key 0) or all"},
    {"zipf", ATL_APP_OPT_DOUBLE, P(zipf), .min = 0.01, .max = 10, .def = "1.1", .arg = "S",
     .help = "the exponent s of the zipf distribution"},
    {"run", ATL_APP_OPT_U32, P(run), .min = 1, .max = 1u << 30, .def = "32", .arg = "N",
     .help = "equal keys per run of the clustered distribution"},
    {"type", ATL_APP_OPT_CHOICE, P(type), .names = type_names, .nnames = TYPE_COUNT, .def = "f32", .arg = "T",
     .help = "f32 (float atomics; OpenCL: a CAS loop), u32 or i32 (integer weights: exact), bf16 or f16 (16-bit "
             "floats summed in f32; CUDA's red.add.noftz.bf16 on sm_90 / .f16 on sm_70, elsewhere a CAS loop on the "
             "32-bit word that holds them)"},
    {"index", ATL_APP_OPT_CHOICE, P(index), .names = index_names, .nnames = 2, .def = "i32", .arg = "T",
     .help = "the keys' type in device memory: i32 or i64 (PyTorch's; twice the key bytes)"},
    {"variants", ATL_APP_OPT_SET, P(variants), .names = variant_names, .nnames = ATL__SV_COUNT, .def = "all",
     .arg = "LIST", .help = "atomic (one atomic per element), run (runs of equal keys summed first), block (a "
                            "work-group sums its rows by key in local memory first), vector (sm_90's "
                            "red.global.add.v4.f32), det (deterministic: a stable radix sort of the keys, then "
                            "each output row summed by one warp in row order; bit-identical on every grid), bins "
                            "(dim 1: a work-item per row, a work-group's frequent keys summed in a local hash "
                            "table first), dsm (dim 1, integer weights: counters in local memory, on sm_90 spread over "
                            "a thread-block cluster's distributed shared memory, the bins past them by L2 atomics "
                            "beside them), part (one launch per range of keys whose output rows fit the L2, "
                            "--partitions), sweep (part's ranges in one launch: work-groups take range-major chunks "
                            "from a counter), cub (CUB's radix sort of the keys and reduce-by-key of the rows: the "
                            "in-run baseline on CUDA, f32 at dim 64 with i32 keys; at dim 1 with integer weights "
                            "HistogramEven's counts), auto (one of atomic, run, block, bins, part, sweep, bucket, dsm, picked "
                            "by dim, the output against the L2 and the keys' measured runs and head), tma (the baseline "
                            "for PyTorch's sm_90 method: a warp per row, a bulk copy of the row into shared memory, "
                            "cp.reduce.async.bulk into its output row; CUDA sm_90), bucket (no atomic on a value: the "
                            "keys sorted into buckets of targets, a work-group a bucket sums each target row once) "
                            "or all; the two "
                            "yardsticks (the vendor's copy and the read ceiling) always run"},
    {"rows-per-warp", ATL_APP_OPT_U32, P(rows_per_warp), .min = 1, .max = 1u << 20, .def = "32", .arg = "N",
     .help = "consecutive source rows a warp (32 work-items) owns"},
    {"block-rows", ATL_APP_OPT_U32, P(block_rows), .min = 1, .max = 1u << 24, .def = "4096", .arg = "N",
     .help = "consecutive source rows a work-group of the block variant sums by key in local memory"},
    {"bin-rows", ATL_APP_OPT_U32, P(bin_rows), .min = 1, .max = 1u << 30, .def = "4096", .arg = "N",
     .help = "consecutive source rows a work-group of the bins variant (dim 1) takes at a time (one wave of "
             "work-groups takes the chunks in turn, each summing its keys in its local table)"},
    {"groups", ATL_APP_OPT_U32, P(groups), .max = 1u << 24, .def = "0", .arg = "N",
     .help = "work-groups of the det variant's passes (grid-stride loops; 0: one per chunk or tile of the data): "
             "the result's bits must not depend on it"},
    {"partitions", ATL_APP_OPT_U32, P(partitions), .max = 1u << 24, .def = "0", .arg = "P",
     .help = "ranges of keys the part variant adds one launch each (0: as many as make a range's output rows fit "
             "half the device's L2, 0.4 of it for the sweep, 5/16 with its split, 1 where its size is unknown)"},
    {"part-keys", ATL_APP_OPT_CHOICE, P(part_keys), .names = part_key_names, .nnames = 2, .def = "reread",
     .arg = "HOW", .help = "how the part variant's launches find their rows: reread (each launch reads every key) or "
                           "bucket (one pass first writes each range's (row, key) pairs: a launch reads only its "
                           "own; at most 1024 ranges, more reread)"},
    {"part-batch", ATL_APP_OPT_U32, P(part_batch), .max = 8, .def = "0", .arg = "B",
     .help = "units (4 floats or 8 16-bit values on sm_90) a lane of the part variant loads before it adds any "
             "(CUDA; 0: 2 over several ranges, 1 in one range, the fastest on an H100)"},
    {"part-table", ATL_APP_OPT_CHOICE, P(part_table), .names = part_table_names, .nnames = 2, .def = "seen",
     .arg = "HOW", .help = "which keys the part variant sums in its work-group's local table (CUDA): recur (keys that "
                           "recur within a warp's 32 rows) or seen (those, and any key already in the table: on "
                           "an H100, zipf 1.171 ms against 1.660, uniform 1.568 against 1.581)"},
    {"part-hot", ATL_APP_OPT_CHOICE, P(part_hot), .names = part_hot_names, .nnames = 2, .def = "none", .arg = "HOW",
     .help = "the part variant's hot key (CUDA): none, or warp (each warp sums the first key it sees recur in its "
             "registers, every later row of it without an atomic, and adds it once at its end)"},
    {"part-prefetch", ATL_APP_OPT_CHOICE, P(part_prefetch), .names = part_prefetch_names, .nnames = 2, .def = "l2",
     .arg = "HOW", .help = "the part variant's output rows (CUDA, over several ranges): none, or l2 (each launch first "
                           "asks its range's output rows into the L2 in address order, kept there; on an H100, "
                           "uniform keys over 11 ranges: 1.532 ms against 1.569)"},
    {"part-add", ATL_APP_OPT_CHOICE, P(part_add), .names = part_add_names, .nnames = 2, .def = "red", .arg = "HOW",
     .help = "how the part and sweep variants add a row sum to the output: red (16-byte red.global.add.v4.f32 on "
             "sm_90) or bulk (CUDA sm_90, f32 with dim / 4 dividing 32: the row staged in shared memory, then one "
             "cp.reduce.async.bulk add of the whole row; elsewhere red)"},
    {"part-chunk", ATL_APP_OPT_U32, P(part_chunk), .min = 1, .max = 1u << 16, .def = "16", .arg = "STEPS",
     .help = "the sweep variant's chunk, a ticket's rows: STEPS steps of 32 rows for each warp of a work-group"},
    {"part-split", ATL_APP_OPT_CHOICE, P(part_split), .names = part_split_names, .nnames = 2, .def = "on",
     .arg = "HOW", .help = "the sweep's range 0 sorts each chunk's other keys by range, so later ranges read only "
                           "their own (CUDA warp path, 2 to 32 ranges, a power-of-two chunk): on or off"},
    {"part-group", ATL_APP_OPT_U32, P(part_group), .max = 16, .def = "0", .arg = "N",
     .help = "chunks a later range's ticket takes in the sweep's split (0: as many as leave two tickets a resident "
             "work-group in each range)"},
    {"dsm-cluster", ATL_APP_OPT_U32, P(dsm_cluster), .max = 16, .def = "0", .arg = "N",
     .help = "work-groups of a thread-block cluster the dsm variant spreads its table over (0: 16 on CUDA sm_90, "
             "else 1)"},
    {"dsm-cache", ATL_APP_OPT_U32, P(dsm_cache), .max = 1u << 14, .def = "0", .arg = "N",
     .help = "slots of the dsm variant's per-work-group cache of keys (a power of two, 8 bytes each; 0: none): the "
             "first keys that hash to a free slot are summed in local memory, a zipf head's hot bins among them"},
    {"dsm-beyond", ATL_APP_OPT_CHOICE, P(dsm_beyond), .names = dsm_beyond_names, .nnames = 2, .def = "global",
     .arg = "HOW", .help = "the bins past the dsm variant's table: launch (one more launch per range of bins, each "
                           "reading every key) or global (the one launch adds them to the output with L2 atomics, "
                           "beside the table's: --dsm-words sets the share; on an H100, 2^20 bins, uniform keys: "
                           "0.657 ms against atomic's 0.829)"},
    {"dsm-counters", ATL_APP_OPT_CHOICE, P(dsm_counters), .names = dsm_counter_names, .nnames = 2, .def = "32",
     .arg = "BITS", .help = "the dsm variant's counters: 16 (two bins a word, atomics that return the old word to "
                            "track carries) or 32 (a bin a word, reductions that return nothing; half the bins)"},
    {"dsm-words", ATL_APP_OPT_U32, P(dsm_words), .max = 1u << 30, .def = "0", .arg = "N",
     .help = "32-bit words (two 16-bit counters each) of the dsm variant's table a work-group holds, a power of two "
             "(0: with --dsm-beyond global, tables for the tuning's share of the bins, dsm_bin_share; else enough for "
             "every bin in one launch, at most its local memory; fewer: more launches)"},
    {"seed", ATL_APP_OPT_U64, P(seed), .max = 0x1p64, .def = "1", .arg = "N", .help = "input generator seed"},
    {"dump", ATL_APP_OPT_TEXT, P(dump), .arg = "DIR",
     .help = "write src-TYPE.bin, idx-DIST.bin and out-DIST.bin (the atomic variant's verified output; raw "
             "little-endian) into DIR for a peer (scripts/gpu/torch_scatter.py)"},
    {0}};
#undef P

const struct atl_app_info atl__app_scatter = {
    .name = "scatter",
    .summary = "scatter-add of rows, out[idx[i]][:] += src[i][:], per key distribution, vs copy and read ceilings",
    .params_size = sizeof(struct scatter_params),
    .description =
        "Scatter-add of E source rows of D values into V output rows by a key per row\n"
        "(graph aggregation, embedding backward, weighted bincount), one row per\n"
        "distribution x variant (variant column TYPE/DIST/VARIANT): one atomic per\n"
        "element, or runs of equal keys summed in registers first. Reports GB/s of the\n"
        "fewest bytes (src and keys read once, each output row a key names read and\n"
        "written once) and its ratios to the vendor's device-to-device copy and to a\n"
        "read ceiling over the same bytes in the same run. Every output\n"
        "element is checked: integers exactly, floats against a float64 sum within the\n"
        "bound of summation in any order (docs/design/scatter.md).",
    .options = scatter_options,
    .defaults = scatter_defaults,
    .check = scatter_check,
    .run = scatter_run,
    .bytes_needed = scatter_bytes,
};
