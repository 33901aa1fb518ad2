/*
 * The scatter-add's variant table (scatter_variants.h): the app's rows and the library's methods both read it.
 */
#include <stdio.h>

#include "scatter_launch.h"
#include "scatter_variants.h"

#define VEC_WHY "red.global.add.v4.f32 / .v4.bf16x2 / .v4.f16x2 need CUDA on sm_90 or later and f32 with dim a " \
                "multiple of 4 or bf16 / f16 with dim a multiple of 8"
#define TMA_WHY "tma needs CUDA on sm_90 or later (cp.async.bulk, cp.reduce.async.bulk), f32, bf16, u32 or i32 and " \
                "rows of a multiple of 16 bytes"

const struct atl__scatter_variant atl__scatter_variants[ATL__SV_COUNT] = {
    [ATL__SV_ATOMIC] = {0, NULL, "app_scatter", "scatter_add", "atomic", ATL__SV_LAUNCH_ROWS},
    [ATL__SV_RUN] = {0, NULL, "app_scatter", "scatter_add", "run", ATL__SV_LAUNCH_ROWS},
    [ATL__SV_BLOCK] = {0, NULL, "app_scatter", "scatter_add", "block", ATL__SV_LAUNCH_BLOCK},
    [ATL__SV_VECTOR] = {ATL__SV_NEED_SM90 | ATL__SV_NEED_FLOAT | ATL__SV_NEED_ROW16, VEC_WHY, "app_scatter",
                        "scatter_add", "vector", ATL__SV_LAUNCH_ROWS},
    [ATL__SV_DET] = {0, NULL, NULL, NULL, NULL, ATL__SV_LAUNCH_OWN},
    [ATL__SV_BINS] = {ATL__SV_NEED_DIM1, "bins is the weighted bincount's variant: dim 1 only", "app_scatter",
                      "scatter_add", "bins", ATL__SV_LAUNCH_BINS},
    [ATL__SV_PART] = {0, NULL, "app_scatter", "scatter_part", "part", ATL__SV_LAUNCH_PART},
    [ATL__SV_DSM] = {ATL__SV_NEED_DIM1 | ATL__SV_NEED_INT,
                     "dsm is the weighted bincount's variant: dim 1 only, u32 or i32 weights (16-bit counters)", NULL,
                     NULL, NULL, ATL__SV_LAUNCH_OWN},
    [ATL__SV_CUB] = {0, NULL, NULL, NULL, NULL, ATL__SV_LAUNCH_OWN},
    [ATL__SV_AUTO] = {0, NULL, NULL, NULL, NULL, ATL__SV_LAUNCH_OWN},
    [ATL__SV_SWEEP] = {0, NULL, "app_scatter", "scatter_part_sweep", "part", ATL__SV_LAUNCH_SWEEP},
    [ATL__SV_TMA] = {ATL__SV_NEED_SM90 | ATL__SV_NEED_NOT_F16 | ATL__SV_NEED_ROW16, TMA_WHY, "scatter_tma",
                     "scatter_tma", "tma", ATL__SV_LAUNCH_ROWS},
    [ATL__SV_BUCKET] = {0, NULL, NULL, NULL, NULL, ATL__SV_LAUNCH_OWN},
};

const char *const atl__scatter_variant_names[ATL__SV_COUNT] = {
    "atomic", "run", "block", "vector", "det", "bins", "part", "dsm", "cub", "auto", "sweep", "tma", "bucket"};

const char *const atl__scatter_type_defines[ATL_SCATTER_F16 + 1] = {"TYPE_f32", "TYPE_u32", "TYPE_i32", "TYPE_bf16",
                                                                    "TYPE_f16"};

const struct atl__scatter_method_row atl__scatter_methods[ATL_SCATTER_BUCKET + 1] = {
    [ATL_SCATTER_AUTO] = {"auto", ATL__SV_AUTO, 0},   [ATL_SCATTER_ATOMIC] = {"atomic", ATL__SV_ATOMIC, 0},
    [ATL_SCATTER_RUN] = {"run", ATL__SV_RUN, 0},      [ATL_SCATTER_BLOCK] = {"block", ATL__SV_BLOCK, 0},
    [ATL_SCATTER_BINS] = {"bins", ATL__SV_BINS, 0},   [ATL_SCATTER_PART] = {"part", ATL__SV_PART, 0},
    [ATL_SCATTER_PART1] = {"part1", ATL__SV_PART, 1}, [ATL_SCATTER_DSM] = {"dsm", ATL__SV_DSM, 0},
    [ATL_SCATTER_SWEEP] = {"sweep", ATL__SV_SWEEP, 0}, [ATL_SCATTER_BUCKET] = {"bucket", ATL__SV_BUCKET, 0},
};

const char *atl__scatter_unsupported(enum atl__scatter_variant_id v, const struct atl_device_info *dev,
                                     enum atl_scatter_type type, uint32_t dim)
{
  const unsigned need = atl__scatter_variants[v].needs, es = type >= ATL_SCATTER_BF16 ? 2u : 4u;
  const int integer = type == ATL_SCATTER_U32 || type == ATL_SCATTER_I32;
  const unsigned missing = (dev->has_vector_f32_red ? 0 : ATL__SV_NEED_SM90) | (integer ? ATL__SV_NEED_FLOAT : 0) |
                           (type == ATL_SCATTER_F16 ? ATL__SV_NEED_NOT_F16 : 0) |
                           (dim * es % 16 ? ATL__SV_NEED_ROW16 : 0) | (dim != 1 ? ATL__SV_NEED_DIM1 : 0) |
                           (integer ? 0 : ATL__SV_NEED_INT);
  return need & missing ? atl__scatter_variants[v].why : NULL;
}

enum atl_scatter_method atl__scatter_method_of(enum atl__scatter_variant_id variant, uint32_t ranges)
{
  /* part in one range is a method of its own (part1) */
  for (int m = ATL_SCATTER_ATOMIC; m <= ATL_SCATTER_BUCKET; m++)
    if (atl__scatter_methods[m].variant == variant &&
        atl__scatter_methods[m].ranges == (variant == ATL__SV_PART && ranges == 1))
      return (enum atl_scatter_method)m;
  return ATL_SCATTER_ATOMIC;
}

void atl__scatter_defines(char *buf, size_t len, const struct atl__scatter_knobs *k)
{
  snprintf(buf, len,
           "D=%u %s IDX_T=%s VARIANT_%s SLOTS=%uu BLOCK_ROWS=%uu BIN_ROWS=%uu BIN_SLOTS=%uu BIN_LOG2_SLOTS=%uu "
           "WARPS=%uu PART_BATCH=%uu PART_SEEN=%d PART_HOT=%d PART_PREFETCH=%d PART_BULK=%d PART_CHUNK_STEPS=%uu "
           "PART_NARROW=%d PART_SPLIT=%d PART_POS_BITS=%uu PART_GROUP=%uu PART_MIN_THREADS=%uu",
           k->dim, k->type_define, k->idx_bytes == 8 ? "ulong" : "uint", atl__scatter_variants[k->variant].define,
           k->slots, k->block_rows, k->bin_rows, 1u << ATL__SCATTER_BIN_LOG2_SLOTS, ATL__SCATTER_BIN_LOG2_SLOTS,
           k->warps, k->batch, k->seen, k->hot, k->prefetch, k->bulk, k->chunk_steps, k->narrow, k->split,
           k->pos_bits, k->group, k->min_threads);
}
