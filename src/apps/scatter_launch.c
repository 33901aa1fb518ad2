/*
 * The scatter kernels' launch shapes (scatter_launch.h), and one run of a variant for the library: the app's
 * kernels (src/kernels/app_scatter.k.c, app_scatter_dsm.k.c) with the knobs at the app's defaults, so that the
 * library runs what the app measured (results/nvidia-h100/scatter, docs/design/scatter.md).
 */
#include <stdio.h>
#include <string.h>

#include "scatter_bucket.h"
#include "scatter_dsm.h"
#include "scatter_guard.h"
#include "scatter_launch.h"

unsigned atl__scatter_block_slots(uint32_t dim, unsigned table_bytes)
{
  const unsigned s = table_bytes / (4u * dim);
  return s > 2048 ? 2048 : s ? s : 1;
}

uint64_t atl__scatter_wave_groups(atl_context_t ctx, void *kernel, uint32_t wg)
{
  const struct atl_backend_ops *ops = atl__ops(ctx);
  unsigned est = 0;
  char method[160];
  uint64_t groups = atl__app_resident_threads(atl_device_current(ctx), wg) / wg;
  if (ops->occupancy_estimate &&
      ops->occupancy_estimate(atl__dev(ctx), kernel, wg, &est, method, sizeof method) == 0 && est > 0)
    groups = est;
  return groups ? groups : 1;
}

/* A range's share of the L2 is the tuning's: part_l2_share (the rest holds the keys and source lines streaming past;
 * H100's L2 is two halves of 25 MiB); the sweep's ranges sweep_l2_share, two of them sharing the L2 while one's last
 * chunks and the next's first run (H100, uniform keys: 13 ranges 1.421 / 1.422 ms against 11's 1.441 / 1.441 / 1.442,
 * 15 as 13, 17 as 11); split_l2_share with the split, whose later passes read only their own keys (17 ranges 1.322
 * ms, 13 1.392). */
uint32_t atl__scatter_part_count(uint32_t partitions, uint64_t targets, uint64_t out_bytes, uint64_t l2_bytes,
                                 int sweep, const struct atl__scatter_tuning *t)
{
  uint64_t n = partitions;
  const double share = sweep == 2 ? t->split_l2_share : sweep ? t->sweep_l2_share : t->part_l2_share;
  const uint64_t slice = (uint64_t)((double)l2_bytes * share + 1e-6); /* 2/5 of 50 MiB is 20971520, not one less */
  if (n == 0 && l2_bytes >= 2 && slice > 0)
    n = (out_bytes + slice - 1) / slice;
  return (uint32_t)(n > targets ? targets : n ? n : 1);
}

int atl__scatter_part_fast(const struct atl_device_info *dev, unsigned elem_bytes, uint32_t dim)
{
  return dev->kernels_cuda_c && dev->has_warp_vote && (elem_bytes == 4 || dim % 2 == 0);
}

int atl__scatter_dsm_fast(const struct atl_device_info *dev, int integer)
{
  return dev->kernels_cuda_c && dev->has_vector_f32_red && integer;
}

unsigned atl__scatter_split_bits(const struct atl_device_info *dev, unsigned elem_bytes, uint32_t dim, uint32_t parts,
                                 uint64_t targets, uint32_t wg, uint32_t chunk_steps)
{
  const uint64_t chunk = (uint64_t)wg * chunk_steps, range = (targets + parts - 1) / (parts ? parts : 1);
  if (!atl__scatter_part_fast(dev, elem_bytes, dim) || parts < 2 || parts > ATL__SCATTER_SPLIT_MAX ||
      (chunk & (chunk - 1)) || chunk >= 1u << 31)
    return 0;
  unsigned bits = 0;
  while ((1ull << bits) < chunk)
    bits++;
  return range <= 1ull << (32 - bits) ? bits : 0; /* a key's place in its range is below its range's size */
}

struct atl__scatter_sweep atl__scatter_sweep_plan(const struct atl_device_info *dev, unsigned elem_bytes, uint32_t dim,
                                                  unsigned idx_bytes, uint32_t partitions, uint64_t targets,
                                                  uint32_t wg, uint32_t chunk_steps, int split_on)
{
  const uint64_t out_bytes = targets * dim * elem_bytes;
  struct atl__scatter_sweep s = {0, 0, 0};
  struct atl__scatter_tuning t;
  atl__scatter_tuning_for(dev, &t);
  s.parts = atl__scatter_part_count(partitions, targets, out_bytes, dev->l2_cache, split_on ? 2 : 1, &t);
  s.split_bits = split_on ? atl__scatter_split_bits(dev, elem_bytes, dim, s.parts, targets, wg, chunk_steps) : 0;
  if (!s.split_bits) {
    s.parts = atl__scatter_part_count(partitions, targets, out_bytes, dev->l2_cache, 1, &t);
    s.narrow = idx_bytes == 8 && s.parts > 1 && atl__scatter_part_fast(dev, elem_bytes, dim);
  }
  return s;
}

uint32_t atl__scatter_split_group(const struct atl_device_info *dev, uint64_t rows, uint32_t wg, uint32_t chunk_steps,
                                  uint32_t requested)
{
  const uint64_t chunk = (uint64_t)wg * chunk_steps, chunks = (rows + chunk - 1) / chunk;
  const uint64_t groups = atl__app_resident_threads(dev, wg) / wg, g = chunks / (2 * (groups ? groups : 1));
  return requested ? requested : g < 1 ? 1 : g > 16 ? 16 : (uint32_t)g;
}

size_t atl__scatter_meta_bytes(uint64_t rows, uint32_t wg, uint32_t chunk_steps)
{
  const uint64_t chunk_rows = (uint64_t)wg * chunk_steps, chunks = (rows + chunk_rows - 1) / chunk_rows;
  return (size_t)(ATL__SCATTER_META_WORDS + chunks * (1 + ATL__SCATTER_SPLIT_MAX)) * 4;
}

/* Its warps take the steps in turn, so each work-group's table sees as many rows of a pass as it can. */
size_t atl__scatter_part_threads(atl_context_t ctx, void *kernel, uint64_t rows, uint32_t wg)
{
  const uint64_t groups = atl__scatter_wave_groups(ctx, kernel, wg);
  const uint64_t steps = (rows + 31) / 32, per_group = wg / 32;
  const uint64_t need = (steps + per_group - 1) / per_group;
  return (size_t)((groups < need ? groups : need) * wg);
}

size_t atl__scatter_bins_groups(atl_context_t ctx, void *kernel, uint64_t rows, uint32_t bin_rows, uint32_t wg)
{
  const uint64_t groups = atl__scatter_wave_groups(ctx, kernel, wg), chunks = (rows + bin_rows - 1) / bin_rows;
  return (size_t)(groups > chunks ? chunks : groups);
}

size_t atl__scatter_rows_threads(uint64_t rows, uint32_t rows_per_warp, uint32_t block_rows, uint32_t wg)
{
  if (block_rows) /* a work-group per block of rows */
    return (size_t)((rows + block_rows - 1) / block_rows * wg);
  const uint64_t threads = (rows + rows_per_warp - 1) / rows_per_warp * 32;
  return (size_t)((threads + wg - 1) / wg * wg);
}

int atl__scatter_part_ranges(atl_context_t ctx, void *kernel, const struct atl_launch *launch,
                             struct atl_arg *args, uint64_t targets, uint32_t parts, double *ms)
{
  double total = 0;
  int err = 0;
  for (uint32_t q = 0; q < parts && !err; q++) {
    double t = 0;
    args[4].value = targets * q / parts;
    args[5].value = targets * (q + 1) / parts;
    err = atl__ops(ctx)->launch(atl__dev(ctx), kernel, launch, &t);
    total += t;
  }
  if (ms)
    *ms = total;
  return err;
}

/* The dsm variant at the app's defaults (32-bit counters, the bins past the table straight to the output in
 * the one launch, no key cache): its cursor words are this call's. */
static int dsm_run(atl_context_t ctx, const struct atl__scatter_job *j, double *ms)
{
  struct atl__app_buffers scratch = {{0}, 0};
  struct atl__scatter_dsm m = {.rows = j->rows, .targets = j->targets, .wg = j->wg, .beyond = 1, .wide = 1,
                               .idx_bytes = j->idx_bytes, .src = j->src, .idx = j->idx, .out = j->out,
                               .guard = j->guard};
  int err = atl__scatter_dsm_prepare(ctx, &scratch, &m, NULL);
  if (!err)
    err = atl__scatter_dsm_launch(ctx, &m, ms);
  atl__app_free_all(ctx, &scratch);
  return err;
}

/* The bucket variant (scatter_bucket.c): its buckets from the tuning's span and the device's local memory. */
static int bucket_run(atl_context_t ctx, const struct atl__scatter_job *j, double *ms)
{
  struct atl__app_buffers scratch = {{0}, 0};
  struct atl__scatter_tuning t;
  atl__scatter_tuning_for(atl_device_current(ctx), &t);
  struct atl__scatter_bucket b = {.rows = j->rows, .targets = j->targets, .dim = j->dim, .wg = j->wg,
                                  .src = j->src, .idx = j->idx, .out = j->out, .guard = j->guard};
  const char *why =
      atl__scatter_bucket_shape(atl_device_current(ctx), j->targets, j->wg, t.bucket_span, &b.span, &b.nb);
  int err = why ? atl__seterr(ctx, ATL_EINVAL, "scatter_add: %s", why)
                : atl__scatter_bucket_prepare(ctx, &scratch, &b, atl__scatter_type_defines[j->type], j->idx_bytes,
                                              NULL);
  if (!err)
    err = atl__scatter_bucket_launch(ctx, &b, ms);
  atl__app_free_all(ctx, &scratch);
  return err;
}

#define ROWS_PER_WARP 32u /* the app's --rows-per-warp default */
#define SWEEP_CHUNK_STEPS 16u /* the app's --part-chunk default: a ticket's steps of 32 rows a warp */

/* The sweep's one launch: src, idx, out, rows, parts, targets, meta (the ticket counter zeroed first, untimed, and
 * a flag a chunk), the u32 keys where @p keys32_used (the narrowed keys or the split's buckets; else meta again), as
 * the app's sweep rows. */
static int sweep_run(atl_context_t ctx, void *kernel, const struct atl__scatter_job *j, uint32_t parts,
                     int keys32_used, double *ms)
{
  const size_t meta_bytes = atl__scatter_meta_bytes(j->rows, j->wg, SWEEP_CHUNK_STEPS);
  void *meta = NULL, *keys32 = NULL;
  int err = atl__device_buffer(ctx, ATL__SCATTER_SLOT_META, meta_bytes, &meta);
  if (!err && keys32_used)
    err = atl__device_buffer(ctx, ATL__SCATTER_SLOT_KEYS32, j->rows * 4, &keys32);
  if (!err)
    err = atl__app_fill32(ctx, meta, 0, meta_bytes);
  struct atl_arg args[9] = {{ATL_ARG_BUFFER, j->src, 0},     {ATL_ARG_BUFFER, j->idx, 0},
                            {ATL_ARG_BUFFER, j->out, 0},     {ATL_ARG_U64, NULL, j->rows},
                            {ATL_ARG_U32, NULL, parts},      {ATL_ARG_U32, NULL, j->targets},
                            {ATL_ARG_BUFFER, meta, 0},       {ATL_ARG_BUFFER, keys32_used ? keys32 : meta, 0},
                            {ATL_ARG_BUFFER, j->guard, 0}};
  struct atl_launch launch = {atl__scatter_part_threads(ctx, kernel, j->rows, j->wg), j->wg, args,
                              j->guard ? 9u : 8u};
  double t = 0;
  if (!err)
    err = atl__ops(ctx)->launch(atl__dev(ctx), kernel, &launch, &t);
  if (!err && ms)
    *ms = t;
  return err;
}

/* The kernel's knobs at the app's defaults: part's table holds the keys seen recur (--part-table seen), no hot key of
 * a warp, its range's output asked into the L2 first over several ranges, the tuning's units in flight a lane over
 * several. */
static void job_defines(const struct atl__scatter_job *j, const struct atl_device_info *dev,
                        const struct atl__scatter_tuning *t, const struct atl__scatter_sweep *sw, uint32_t parts,
                        char *buf, size_t len)
{
  const struct atl__scatter_knobs k = {
      .dim = j->dim, .type_define = atl__scatter_type_defines[j->type], .idx_bytes = j->idx_bytes,
      .variant = j->variant,
      .slots = atl__scatter_block_slots(j->dim, t->table_bytes), .block_rows = ATL__SCATTER_BLOCK_ROWS,
      .bin_rows = ATL__SCATTER_BLOCK_ROWS,
      .warps = j->wg / 32, .batch = parts > 1 ? t->part_batch : 1u, .seen = 1, .prefetch = parts > 1,
      .chunk_steps = SWEEP_CHUNK_STEPS, .narrow = sw->narrow, .split = sw->split_bits != 0,
      .pos_bits = sw->split_bits, .group = atl__scatter_split_group(dev, j->rows, j->wg, SWEEP_CHUNK_STEPS, 0),
      .min_threads = t->min_threads};
  atl__scatter_defines(buf, len, &k);
  const size_t n = strlen(buf);
  if (n < len) /* the library's builds: the kernels return where the keys' check found a bad key */
    snprintf(buf + n, len - n, "%s", ATL__KEY_GUARD_DEFINE(j->guard));
}

/* The variants that launch passes of their own (ATL__SV_LAUNCH_OWN) and that the library runs; the others' own
 * launches are the app's (det, cub, tma). */
static int (*const own_runs[ATL__SV_COUNT])(atl_context_t, const struct atl__scatter_job *, double *) = {
    [ATL__SV_DSM] = dsm_run, [ATL__SV_BUCKET] = bucket_run};

int atl__scatter_job_run(atl_context_t ctx, const struct atl__scatter_job *j, double *ms)
{
  const struct atl_device_info *dev = atl_device_current(ctx);
  const struct atl__scatter_variant *v = &atl__scatter_variants[j->variant];
  const char *why = atl__scatter_unsupported(j->variant, dev, j->type, j->dim);
  const int own = v->launch == ATL__SV_LAUNCH_OWN;
  if (why || (own && own_runs[j->variant] == NULL))
    return atl__seterr(ctx, ATL_EINVAL, "scatter_add: %s", why ? why : "no launch of the library's for this variant");
  if (own)
    return own_runs[j->variant](ctx, j, ms);
  struct atl__scatter_tuning t;
  atl__scatter_tuning_for(dev, &t);
  const int sweep = v->launch == ATL__SV_LAUNCH_SWEEP, part = v->launch == ATL__SV_LAUNCH_PART;
  /* the sweep's range 0 sorts the later ranges' keys by range where that fits, else narrows i64 keys to u32 where
   * the CUDA warp path runs (the app's rules) */
  const struct atl__scatter_sweep sw =
      sweep ? atl__scatter_sweep_plan(dev, j->elem_bytes, j->dim, j->idx_bytes, j->parts, j->targets, j->wg,
                                      SWEEP_CHUNK_STEPS, 1)
            : (struct atl__scatter_sweep){0, 0, 0};
  const uint32_t parts =
      sweep  ? sw.parts
      : part ? atl__scatter_part_count(j->parts, j->targets, j->targets * j->dim * j->elem_bytes, dev->l2_cache, 0,
                                       &t)
             : 1;
  char defines[512];
  job_defines(j, dev, &t, &sw, parts, defines, sizeof defines);
  void *kernel = NULL;
  int err = atl__app_build(ctx, v->source, v->entry, defines, &kernel, NULL);
  if (err)
    return err;
  struct atl_arg args[7] = {{ATL_ARG_BUFFER, j->src, 0}, {ATL_ARG_BUFFER, j->idx, 0}, {ATL_ARG_BUFFER, j->out, 0},
                            {ATL_ARG_U64, NULL, j->rows}, {ATL_ARG_U32, NULL, ROWS_PER_WARP}, {ATL_ARG_U32, NULL, 0}};
  struct atl_launch launch = {0, j->wg, args, part ? 6 : 5};
  if (j->guard) /* after the kernel's own arguments (part's lo, hi) */
    args[launch.nargs++] = (struct atl_arg){ATL_ARG_BUFFER, j->guard, 0};
  if (sweep)
    return sweep_run(ctx, kernel, j, parts, sw.narrow || sw.split_bits, ms);
  if (part) {
    launch.global = atl__scatter_part_threads(ctx, kernel, j->rows, j->wg);
    return atl__scatter_part_ranges(ctx, kernel, &launch, args, j->targets, parts, ms);
  }
  const unsigned block_rows = v->launch == ATL__SV_LAUNCH_BLOCK ? ATL__SCATTER_BLOCK_ROWS : 0;
  launch.global = v->launch == ATL__SV_LAUNCH_BINS
                      ? atl__scatter_bins_groups(ctx, kernel, j->rows, ATL__SCATTER_BLOCK_ROWS, j->wg) * j->wg
                      : atl__scatter_rows_threads(j->rows, ROWS_PER_WARP, block_rows, j->wg);
  double t_ms = 0;
  err = atl__ops(ctx)->launch(atl__dev(ctx), kernel, &launch, &t_ms);
  if (!err && ms)
    *ms = t_ms;
  return err;
}
