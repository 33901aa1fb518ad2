/*
 * What a private table's float adds cost before the table exists (include/atomlab/l2model.h, docs/design/model.md
 * "Privatized float adds"): the chain of a CAS loop on one shared word by E contenders, calibrated on the device
 * (atl_l2_cas_chain, atl_l2_chain_cycles), and the tables resident a SM once the launch's blocks carry one
 * (atl_l2_private_blocks).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab/error.h"
#include "atomlab/l2model.h"
#include "atomlab/result.h"

/* the chain launches of one E: warps a block and SM cycles per update */
struct chain_launch {
  double warps, per_cas; /* per_cas: SM cycles / CAS instructions a warp */
  double elapsed;
  double cas_per_warp;
};

static int by_warps(const void *a, const void *b)
{
  const double x = ((const struct chain_launch *)a)->warps, y = ((const struct chain_launch *)b)->warps;
  return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
  struct atl_stats st;
  atl_stats_compute(v, n, &st);
  return st.median;
}

int atl_l2_cas_chain(const struct atl_l2_report *r, struct atl_l2_chain_point *pts, size_t *count, char *why,
                     size_t why_len)
{
  struct chain_launch *l = malloc((r->count ? r->count : 1) * sizeof *l);
  double *v = malloc((r->count ? r->count : 1) * sizeof *v);
  size_t n = 0, ones = 0;
  int err = 0;
  *count = 0;
  if (l == NULL || v == NULL) {
    free(l);
    free(v);
    snprintf(why, why_len, "out of memory");
    return ATL_ENOMEM;
  }
  for (size_t i = 0; i < r->count && !err; i++) {
    const struct atl_l2_counters *k = &r->kernels[i];
    if (!(k->smem_cas > 0) || k->requests > 0 || !(k->sm_elapsed > 0) || !(k->grid_size > 0) || !(k->block_size > 0))
      continue;
    const double warp = k->warp_size > 0 ? k->warp_size : 32, per_block = ceil(k->block_size / warp);
    if (k->sm_count > 0 && k->grid_size > k->sm_count) { /* a second block on an SM: the unit's queue inside */
      snprintf(why, why_len, "launch %s runs %.0f blocks on %.0f SMs: the chain calibration needs one block a SM "
                             "(--workgroups <SMs>)", k->id, k->grid_size, k->sm_count);
      err = ATL_EINVAL;
      break;
    }
    const double cas_per_warp = k->smem_cas / (k->grid_size * per_block);
    l[n++] = (struct chain_launch){per_block, k->sm_elapsed / cas_per_warp, k->sm_elapsed, cas_per_warp};
  }
  if (!err && n == 0) {
    snprintf(why, why_len, "no launch with shared CAS instructions (smsp__inst_executed_op_shared_atom_dot_cas.sum), "
                           "SM cycles and no global atomics: profile `rmw --space local --type f32 --pattern "
                           "cross-warp --contention E --wg-size 32E --workgroups <SMs>`");
    err = ATL_EINVAL;
  }
  qsort(l, n, sizeof *l, by_warps);
  /* the iterations: the one-warp launches' CAS instructions a warp (none of them fails) */
  for (size_t i = 0; i < n && l[i].warps == 1; i++)
    v[ones++] = l[i].cas_per_warp;
  const double iters = ones ? median(v, ones) : 0;
  if (!err && n > ones && ones == 0) {
    snprintf(why, why_len, "the chain launches of %.0f warps a block need a launch of one warp a block with the "
                           "same iterations (--contention 1 --wg-size 32): its CAS instructions are the iterations",
             l[0].warps);
    err = ATL_EINVAL;
  }
  for (size_t i = 0, j; i < n && !err; i = j) {
    size_t m = 0;
    for (j = i; j < n && l[j].warps == l[i].warps; j++)
      v[m++] = l[j].warps == 1 ? l[j].per_cas : l[j].elapsed / (l[j].warps * iters);
    if (*count == ATL_L2_CHAIN_POINTS) {
      snprintf(why, why_len, "more than %d block sizes in the chain calibration", ATL_L2_CHAIN_POINTS);
      err = ATL_EINVAL;
      break;
    }
    pts[(*count)++] = (struct atl_l2_chain_point){l[i].warps, median(v, m)};
  }
  free(l);
  free(v);
  if (err)
    *count = 0;
  return err;
}

double atl_l2_round_trip(const struct atl_l2_report *r)
{
  double *v = malloc((r->count ? r->count : 1) * sizeof *v);
  size_t n = 0;
  if (v == NULL)
    return 0;
  for (size_t i = 0; i < r->count; i++) {
    const struct atl_l2_counters *k = &r->kernels[i];
    const double items = k->grid_size * k->block_size;
    /* SM cycles: counted, else the duration at the device's clock (ncu's clock control off: its boost clock) */
    const double cycles = k->sm_elapsed > 0 ? k->sm_elapsed : k->duration_ns * fmax(k->clock_khz, 0) / 1e6;
    if (k->requests > 0 || k->smem_cas > 0 || !(k->dram_bytes > 0) || !(cycles > 0) || !(items > 0))
      continue;
    /* the copy: 4 bytes read and 4 written an element; a work-item's elements one after another, one round trip each
     * (its next load does not wait for its store); the launch's blocks in waves where they do not all fit at once */
    const double per_item = k->dram_bytes / 8 / items, per_sm = atl_l2_private_blocks(k, 0);
    const double waves = per_sm > 0 && k->sm_count > 0 ? fmax(1, ceil(k->grid_size / (k->sm_count * per_sm))) : 1;
    if (per_item >= 1)
      v[n++] = cycles / (per_item * waves);
  }
  const double rt = n ? median(v, n) : 0;
  free(v);
  return rt;
}

double atl_l2_chain_cycles(const struct atl_l2_calibration *cal, double warps)
{
  const struct atl_l2_chain_point *p = cal->chain;
  const size_t n = cal->chain_count;
  if (n == 0)
    return 0;
  if (n == 1 || warps <= p[0].warps)
    return p[0].cycles;
  size_t i = 1;
  while (i < n - 1 && warps > p[i].warps)
    i++;
  /* the segment [i-1, i] holds warps, or is the last one (extrapolated with its slope) */
  const double t = (warps - p[i - 1].warps) / (p[i].warps - p[i - 1].warps);
  return fmax(p[i - 1].cycles + t * (p[i].cycles - p[i - 1].cycles), 0);
}

double atl_l2_private_blocks(const struct atl_l2_counters *k, double table_bytes)
{
  const double warp = k->warp_size > 0 ? k->warp_size : 32;
  const double per_block = k->block_size > 0 ? ceil(k->block_size / warp) : 0;
  const double limits[] = {k->occ_limit_regs, k->occ_limit_warps, k->occ_limit_blocks};
  double blocks = INFINITY;
  for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
    if (limits[i] > 0)
      blocks = fmin(blocks, limits[i]);
  if (isfinite(blocks)) {
    const double per = fmax(k->smem_block, 0) + fmax(table_bytes, 0) + fmax(k->smem_driver, 0);
    if (k->smem_sm > 0 && per > 0) /* the table is shared memory: a block's share of the SM's */
      blocks = fmin(blocks, floor(k->smem_sm / per));
    return blocks;
  }
  /* no limits: the launch's achieved blocks (what a launch without limits takes), the table not counted */
  if (per_block > 0 && k->warps_active_pct > 0 && k->max_warps > 0)
    return fmax(1, floor(k->warps_active_pct / 100 * k->max_warps / per_block + 0.5));
  return 0;
}

double atl_l2_launch_warps(const struct atl_l2_counters *k)
{
  const double warp = k->warp_size > 0 ? k->warp_size : 32;
  return k->block_size > 0 ? atl_l2_private_blocks(k, 0) * ceil(k->block_size / warp) : 0;
}
