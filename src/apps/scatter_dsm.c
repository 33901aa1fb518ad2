/*
 * The weighted bincount with its bins in work-group memory (app scatter --variants dsm): the host picks the
 * table's shape and lays out one launch per range of bins the table covers. The kernel and why it is exact:
 * src/kernels/app_scatter_dsm.k.c.
 */
#include <stdio.h>

#include "scatter_dsm.h"
#include "scatter_guard.h"
#include "tuning/scatter_tuning.h"

#define DSM_CHUNK_ITEMS 16u /* rows a work-item takes per claimed chunk (CHUNK = 16 x the work-group) */

/* The largest power of two <= n (n >= 1). */
static uint64_t floor_pow2(uint64_t n)
{
  uint64_t p = 1;
  while (p * 2 <= n)
    p *= 2;
  return p;
}

int atl__scatter_dsm_prepare(atl_context_t ctx, struct atl__app_buffers *bufs, struct atl__scatter_dsm *m,
                             struct atl_row *row)
{
  const struct atl_device_info *d = atl_device_current(ctx);
  /* One work-group per compute unit holds a slice of the table, so its work-items are the unit's: the largest
   * group up to 1024 on CUDA; elsewhere the caller's. */
  const uint32_t wg = d->kernels_cuda_c && d->max_wg_size >= 1024 ? 1024 : m->wg;
  /* Clusters are sm_90's (the generation that brought the vector reductions): 16 work-groups, the most a
   * cluster may span (non-portable: the backend allows it), so 2^20 bins fit one launch on an H100. */
  const uint32_t cluster = m->cluster ? m->cluster : d->kernels_cuda_c && d->has_vector_f32_red ? 16 : 1;
  const uint64_t local = (d->local_mem_optin > d->local_mem ? d->local_mem_optin : d->local_mem) - 64 -
                         8ull * m->cache; /* claimed, the key cache */
  const uint64_t cap = floor_pow2(local / 4);
  uint64_t words = m->words;
  if (words == 0) { /* tables that hold every bin (the fewest launches), else the largest that fit; with the bins
                     * past the tables by L2 atomics, tables that hold the tuning's share of the bins */
    struct atl__scatter_tuning t;
    atl__scatter_tuning_for(d, &t);
    const uint64_t bins = m->beyond ? (uint64_t)((double)m->targets * t.dsm_bin_share) : m->targets;
    const uint64_t per = m->wide ? cluster : 2 * cluster, need = bins ? (bins + per - 1) / per : 1;
    words = floor_pow2(need) < need ? floor_pow2(need) * 2 : need;
    words = words > cap ? cap : words < 32 ? 32 : words; /* a warp's worth at least (PoCL fails on 1) */
  }
  if (words > cap)
    return atl__seterr(ctx, ATL_EINVAL, "dsm-words %llu is not allowed: at most %llu on %s (its local memory)",
                       (unsigned long long)words, (unsigned long long)cap, d->name);
  unsigned log2w = 0;
  while ((1ull << log2w) < words)
    log2w++;
  m->cluster = cluster, m->words = (uint32_t)words;
  const uint64_t span = (m->wide ? 1 : 2) * words * cluster;
  m->passes = m->beyond ? 1 : (uint32_t)((m->targets + span - 1) / span);
  unsigned log2c = 0;
  while ((1u << log2c) < m->cache)
    log2c++;
  char defines[192];
  snprintf(defines, sizeof defines,
           "IDX_T=%s CLUSTER=%u LOG2_WORDS=%u CHUNK=%uu WG=%u CACHE_LOG2=%u BEYOND=%d WIDE=%d%s",
           m->idx_bytes == 8 ? "ulong" : "uint", cluster, log2w, wg * DSM_CHUNK_ITEMS, wg, log2c, m->beyond != 0,
           m->wide != 0, ATL__KEY_GUARD_DEFINE(m->guard));
  int err = atl__app_build(ctx, "app_scatter_dsm", "bincount_dsm", defines, &m->kernel, row);
  if (!err && m->cursor_words < m->passes) {
    err = atl__app_alloc(ctx, bufs, (size_t)m->passes * 4, &m->cursor);
    m->cursor_words = err ? 0 : m->passes;
  }
  if (err)
    return err;
  /* A wave of clusters, rounded up to whole clusters: each group claims its rows, so a cluster that cannot be
   * resident with the others costs only its zero flush. A table of more than half the local memory leaves
   * one group per compute unit (the occupancy estimate does not count memory given at launch). */
  const struct atl_backend_ops *ops = atl__ops(ctx);
  unsigned groups = 0;
  char method[160];
  if (words * 8 > local || !ops->occupancy_estimate ||
      ops->occupancy_estimate(atl__dev(ctx), m->kernel, wg, &groups, method, sizeof method) != 0 || groups == 0)
    groups = d->compute_units ? d->compute_units : 1;
  groups = (groups + cluster - 1) / cluster * cluster;
  struct atl_arg *a = m->args;
  a[0] = (struct atl_arg){ATL_ARG_BUFFER, m->src, 0}, a[1] = (struct atl_arg){ATL_ARG_BUFFER, m->idx, 0};
  a[2] = (struct atl_arg){ATL_ARG_BUFFER, m->out, 0}, a[3] = (struct atl_arg){ATL_ARG_U64, NULL, m->rows};
  a[4] = (struct atl_arg){ATL_ARG_U32, NULL, 0}, a[5] = (struct atl_arg){ATL_ARG_U64, NULL, m->targets};
  a[6] = (struct atl_arg){ATL_ARG_BUFFER, m->cursor, 0}, a[7] = (struct atl_arg){ATL_ARG_U32, NULL, 0};
  unsigned n = 8;
  if (m->guard)
    a[n++] = (struct atl_arg){ATL_ARG_BUFFER, m->guard, 0};
  a[n++] = (struct atl_arg){ATL_ARG_LOCAL, NULL, words * 4};
  m->launch = (struct atl_launch){(size_t)groups * wg, wg, a, n};
  return 0;
}

int atl__scatter_dsm_launch(atl_context_t ctx, struct atl__scatter_dsm *m, double *ms)
{
  double total = 0;
  int err = atl__app_fill32(ctx, m->cursor, 0, (size_t)m->passes * 4); /* each launch's claims from 0 */
  for (uint32_t q = 0; q < m->passes && !err; q++) {
    double t = 0;
    m->args[4].value = (uint64_t)q * (m->wide ? 1 : 2) * m->words * m->cluster; /* lo: the range's first bin */
    m->args[7].value = q;
    err = atl__ops(ctx)->launch(atl__dev(ctx), m->kernel, &m->launch, &t);
    total += t;
  }
  if (ms)
    *ms = total;
  return err;
}
