/*
 * The scatter-add's variants, one table shared by the app (src/apps/scatter.c, which measures each) and the library
 * (scatter_lib.c, whose methods name a variant by its id): what each needs of the device and the shape, why it is
 * unsupported where that is missing, its kernel, its VARIANT_ define and how it is launched. The kernels' defines
 * are written here once for both (atl__scatter_defines).
 */
#ifndef ATOMLAB_APPS_SCATTER_VARIANTS_H
#define ATOMLAB_APPS_SCATTER_VARIANTS_H

#include <stddef.h>
#include <stdint.h>

#include "atomlab/device.h"
#include "atomlab/scatter.h"

/* The variants in the app's --variants order (the rows' order). */
enum atl__scatter_variant_id {
  ATL__SV_ATOMIC, ATL__SV_RUN, ATL__SV_BLOCK, ATL__SV_VECTOR, ATL__SV_DET, ATL__SV_BINS, ATL__SV_PART, ATL__SV_DSM,
  ATL__SV_CUB, ATL__SV_AUTO, ATL__SV_SWEEP, ATL__SV_TMA, ATL__SV_BUCKET, ATL__SV_COUNT
};

/* What a variant needs; each bit missing makes its rows unsupported with the table's reason. */
enum {
  ATL__SV_NEED_SM90 = 1u << 0,  /* CUDA sm_90 or later: has_vector_f32_red */
  ATL__SV_NEED_FLOAT = 1u << 1, /* f32, bf16 or f16 */
  ATL__SV_NEED_NOT_F16 = 1u << 2,
  ATL__SV_NEED_ROW16 = 1u << 3, /* a row of a multiple of 16 bytes */
  ATL__SV_NEED_DIM1 = 1u << 4,  /* the weighted bincount */
  ATL__SV_NEED_INT = 1u << 5    /* u32 or i32 weights */
};

/* How a variant's work is launched. */
enum atl__scatter_launch_kind {
  ATL__SV_LAUNCH_ROWS,  /* a warp per --rows-per-warp rows */
  ATL__SV_LAUNCH_BLOCK, /* a work-group per --block-rows rows */
  ATL__SV_LAUNCH_BINS,  /* one wave of work-groups taking chunks of --bin-rows rows */
  ATL__SV_LAUNCH_PART,  /* one wave per range of keys */
  ATL__SV_LAUNCH_SWEEP, /* one wave for every range, tickets from a counter */
  ATL__SV_LAUNCH_OWN,   /* its own module's passes (det, dsm, bucket), CUB's, or auto's pick */
};

/* A variant's entry (its name: atl__scatter_variant_names[id]). */
struct atl__scatter_variant {
  unsigned needs;      /* ATL__SV_NEED_* */
  const char *why;     /* the unsupported rows' reason where a need is missing */
  const char *source;  /* the kernel's file (src/kernels/NAME.k.c); NULL: none of its own here */
  const char *entry;   /* its kernel */
  const char *define;  /* VARIANT_<define> */
  enum atl__scatter_launch_kind launch;
};

extern const struct atl__scatter_variant atl__scatter_variants[ATL__SV_COUNT];
/* The variants' names, for the app's --variants option and its rows. */
extern const char *const atl__scatter_variant_names[ATL__SV_COUNT];

/* The kernels' define of each value type (enum atl_scatter_type's order, the app's --type order). */
extern const char *const atl__scatter_type_defines[ATL_SCATTER_F16 + 1];

/* The reason variant @p v cannot run @p type at @p dim on @p dev (its table entry's), or NULL where it can. */
const char *atl__scatter_unsupported(enum atl__scatter_variant_id v, const struct atl_device_info *dev,
                                     enum atl_scatter_type type, uint32_t dim);

/* The library's methods (enum atl_scatter_method): each a variant of the table, part in one range or as many as
 * fit the L2 (ranges 1 or 0). */
struct atl__scatter_method_row {
  const char *name;
  enum atl__scatter_variant_id variant;
  uint32_t ranges;
};
extern const struct atl__scatter_method_row atl__scatter_methods[ATL_SCATTER_BUCKET + 1];

/* The method that runs @p variant over @p ranges (auto's pick); ATL_SCATTER_ATOMIC for a variant without one. */
enum atl_scatter_method atl__scatter_method_of(enum atl__scatter_variant_id variant, uint32_t ranges);

/* The knobs app_scatter.k.c takes, as the app and the library set them. */
struct atl__scatter_knobs {
  uint32_t dim;
  const char *type_define; /* TYPE_f32 .. TYPE_f16 */
  unsigned idx_bytes;
  enum atl__scatter_variant_id variant;
  unsigned slots, block_rows, bin_rows, warps, batch;
  int seen, hot, prefetch, bulk;
  unsigned chunk_steps;
  int narrow, split;
  unsigned pos_bits, group, min_threads;
};

/* The defines of app_scatter.k.c for @p k into @p buf. */
void atl__scatter_defines(char *buf, size_t len, const struct atl__scatter_knobs *k);

#endif
