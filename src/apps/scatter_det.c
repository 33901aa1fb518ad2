/*
 * The deterministic scatter-add's host side: whether the keys are in order already, a stable LSD radix sort of
 * (key, row) by 8-bit digits where they are not, then a warp per tile of sorted places, a warp per crossing key's
 * tiles in a group of tiles, and a warp per key crossing groups (src/kernels/app_scatter_det.k.c says why
 * the bits cannot depend on the grid). Only the keys' significant digits are sorted: ceil(bits(targets-1)
 * / 8) passes, at least one.
 */
#include <stdio.h>
#include <string.h>

#include "scatter_det.h"
#include "scatter_guard.h"

static const char *const entries[ATL__SCATTER_DET_KERNELS] = {
    "det_hist", "det_scan", "det_place", "det_tile", "det_combine", "det_sums", "det_spread", "det_group"};
enum { K_HIST, K_SCAN, K_PLACE, K_TILE, K_COMBINE, K_SUMS, K_SPREAD, K_GROUP };
#define ORDER_LAUNCH 0u /* the first det_hist, which also checks the keys' order: the host reads its word */

static void buf_arg(struct atl_arg *a, void *buf) { *a = (struct atl_arg){ATL_ARG_BUFFER, buf, 0}; }
static void u32_arg(struct atl_arg *a, uint32_t v) { *a = (struct atl_arg){ATL_ARG_U32, NULL, v}; }
static void u64_arg(struct atl_arg *a, uint64_t v) { *a = (struct atl_arg){ATL_ARG_U64, NULL, v}; }

/* A launch of kernel @p k over the caller's work-groups, or @p need where it gave none. */
static struct atl_arg *add_launch(struct atl__scatter_det *d, unsigned k, uint64_t need, unsigned nargs)
{
  const unsigned n = d->n++;
  const uint64_t groups = k == K_SCAN ? 1 : d->groups ? d->groups : need ? need : 1;
  d->launch[n] = (struct atl_launch){(size_t)groups * d->wg, d->wg, d->args[n], nargs + (d->guard != NULL)};
  if (d->guard) /* after the pass's own arguments, which the caller fills */
    d->args[n][nargs] = (struct atl_arg){ATL_ARG_BUFFER, d->guard, 0};
  d->kernel_of[n] = d->kernels[k];
  return d->args[n];
}

int atl__scatter_det_prepare(atl_context_t ctx, struct atl__app_buffers *bufs, struct atl__scatter_det *d,
                             const char *type_define, unsigned idx_bytes, struct atl_row *row)
{
  const uint64_t E = d->rows, chunks = (E + ATL__SCATTER_DET_CHUNK - 1) / ATL__SCATTER_DET_CHUNK;
  const uint64_t tiles = (E + ATL__SCATTER_DET_TILE - 1) / ATL__SCATTER_DET_TILE;
  const uint64_t groups = (tiles + ATL__SCATTER_DET_GROUP - 1) / ATL__SCATTER_DET_GROUP;
  char defines[208], instr[sizeof row->instructions] = "";
  snprintf(defines, sizeof defines, "D=%u %s IDX_T=%s CHUNK=%uu TILE=%uu GROUP=%uu WG=%u%s", d->dim, type_define,
           idx_bytes == 8 ? "ulong" : "uint", ATL__SCATTER_DET_CHUNK, ATL__SCATTER_DET_TILE, ATL__SCATTER_DET_GROUP, d->wg,
           ATL__KEY_GUARD_DEFINE(d->guard));
  int err = 0;
  for (unsigned k = 0; k < ATL__SCATTER_DET_KERNELS && !err; k++) {
    err = atl__app_build(ctx, "app_scatter_det", entries[k], defines, &d->kernels[k], row);
    if (!err && row && row->instructions[0]) { /* every pass's atomics on the row, not only the last's */
      const char *parts[4] = {instr[0] ? "; " : "", entries[k], ": ", row->instructions};
      for (int i = 0; i < 4; i++) {
        const size_t used = strlen(instr), room = sizeof instr - 1 - used, len = strlen(parts[i]);
        memcpy(instr + used, parts[i], len < room ? len : room);
        instr[used + (len < room ? len : room)] = 0;
      }
    }
  }
  if (row)
    snprintf(row->instructions, sizeof row->instructions, "%s", instr);
  for (int i = 0; i < 2 && !err; i++)
    if (!(err = atl__app_alloc(ctx, bufs, E * 4, &d->keys[i])))
      err = atl__app_alloc(ctx, bufs, E * 4, &d->ids[i]);
  if (!err)
    err = atl__app_alloc(ctx, bufs, chunks * 256 * 4, &d->counts);
  const uint64_t block = (uint64_t)d->wg * ATL__SCATTER_DET_SCAN_ITEMS, blocks = (chunks * 256 + block - 1) / block;
  if (!err)
    err = atl__app_alloc(ctx, bufs, blocks * 4, &d->sums);
  if (!err)
    err = atl__app_alloc(ctx, bufs, tiles * 2 * d->dim * 4, &d->part); /* partials are f32 or 32-bit ints */
  if (!err)
    err = atl__app_alloc(ctx, bufs, groups * 2 * d->dim * 4, &d->gpart);
  if (!err && !(err = atl__app_alloc(ctx, bufs, 4, &d->unsorted)) && !d->unsorted_kept)
    err = atl__app_fill32(ctx, d->unsorted, 0, 4); /* then each call's det_combine zeroes it for the next */
  if (err)
    return err;
  unsigned bits = 0; /* the significant bits of the largest key */
  while (bits < 32 && ((d->targets - 1) >> bits))
    bits++;
  const unsigned passes = bits ? (bits + 7) / 8 : 1;
  d->n = 0;
  struct atl_arg *a;
  for (unsigned pass = 0, from = 0; pass < passes; pass++, from ^= 1) {
    const uint32_t first = pass == 0, last = pass + 1 == passes, shift = 8 * pass;
    a = add_launch(d, K_HIST, chunks, 7); /* the first is ORDER_LAUNCH */
    buf_arg(&a[0], d->idx), buf_arg(&a[1], d->keys[from]), buf_arg(&a[2], d->counts), buf_arg(&a[3], d->unsorted);
    u64_arg(&a[4], E), u32_arg(&a[5], shift), u32_arg(&a[6], first);
    a = add_launch(d, K_SUMS, blocks, 4); /* the counts' scan: blocks' sums, their scan, each block from its sum */
    buf_arg(&a[0], d->counts), buf_arg(&a[1], d->sums), u64_arg(&a[2], chunks * 256), u64_arg(&a[3], block);
    a = add_launch(d, K_SCAN, 1, 2);
    buf_arg(&a[0], d->sums), u64_arg(&a[1], blocks);
    a = add_launch(d, K_SPREAD, blocks, 4);
    buf_arg(&a[0], d->counts), buf_arg(&a[1], d->sums), u64_arg(&a[2], chunks * 256), u64_arg(&a[3], block);
    d->last_place = d->n;
    a = add_launch(d, K_PLACE, chunks, 11);
    buf_arg(&a[0], d->idx), buf_arg(&a[1], d->keys[from]), buf_arg(&a[2], d->ids[from]), buf_arg(&a[3], d->counts);
    buf_arg(&a[4], d->keys[from ^ 1]), buf_arg(&a[5], d->ids[from ^ 1]), buf_arg(&a[6], d->unsorted);
    u64_arg(&a[7], E), u32_arg(&a[8], shift), u32_arg(&a[9], first), u32_arg(&a[10], last);
  }
  const unsigned sorted = passes % 2; /* where the last pass put the pairs */
  const uint64_t warp_groups = (tiles * 32 + d->wg - 1) / d->wg;
  a = add_launch(d, K_TILE, warp_groups, 6);
  buf_arg(&a[0], d->src), buf_arg(&a[1], d->keys[sorted]), buf_arg(&a[2], d->ids[sorted]), buf_arg(&a[3], d->out);
  buf_arg(&a[4], d->part), u64_arg(&a[5], E);
  a = add_launch(d, K_GROUP, warp_groups, 5);
  buf_arg(&a[0], d->keys[sorted]), buf_arg(&a[1], d->part), buf_arg(&a[2], d->gpart), buf_arg(&a[3], d->out);
  u64_arg(&a[4], E);
  a = add_launch(d, K_COMBINE, (groups * 32 + d->wg - 1) / d->wg, 5);
  buf_arg(&a[0], d->keys[sorted]), buf_arg(&a[1], d->gpart), buf_arg(&a[2], d->out), buf_arg(&a[3], d->unsorted);
  u64_arg(&a[4], E);
  return 0;
}

/* Whether launch @p i sums rows (tile, group, combine) rather than orders them (the radix passes). */
static int sums_rows(const struct atl__scatter_det *d, unsigned i)
{
  const void *k = d->kernel_of[i];
  return k == d->kernels[K_TILE] || k == d->kernels[K_GROUP] || k == d->kernels[K_COMBINE];
}

/* Whether launch @p i is one that keys in order do not need: every radix launch but the order check and the last
 * pass's det_place, which copies the keys and row ids as they are. */
static int sort_only(const struct atl__scatter_det *d, unsigned i)
{
  return !sums_rows(d, i) && i != ORDER_LAUNCH && i != d->last_place;
}

int atl__scatter_det_launch(atl_context_t ctx, const struct atl__scatter_det *d, double *ms, double *sort_ms,
                            double *sum_ms)
{
  const struct atl_backend_ops *ops = atl__ops(ctx);
  double total = 0, sums = 0;
  uint32_t unsorted = 1;
  for (unsigned i = 0; i < d->n; i++) {
    if (!unsorted && sort_only(d, i))
      continue;
    double t = 0;
    int err = ops->launch(atl__dev(ctx), d->kernel_of[i], &d->launch[i], &t);
    /* the order word read back: keys in order (sorted, one hot key) launch no other radix pass; launched and
     * returning at once, the passes took 0.16 ms of device time at E = 8 M on an H200 (3c3ee15) */
    if (!err && i == ORDER_LAUNCH)
      err = ops->read(atl__dev(ctx), d->unsorted, &unsorted, sizeof unsorted);
    if (err)
      return err;
    total += t;
    if (sums_rows(d, i))
      sums += t;
  }
  if (ms)
    *ms = total;
  if (sort_ms)
    *sort_ms = total - sums;
  if (sum_ms)
    *sum_ms = sums;
  return 0;
}
