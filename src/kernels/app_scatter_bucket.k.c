/*
 * app_scatter_bucket.k.c: the bucket scatter-add (app scatter --variants bucket, atl_scatter_add's
 * ATL_SCATTER_BUCKET), written once for CUDA and OpenCL. It adds no value with an atomic and moves each output row
 * once:
 *
 *   1. bucket_hist counts the rows in each bucket of SPAN consecutive targets (key / SPAN) into counts[bucket x
 *      LINE] (zeroed by a fill before; a line a bucket: scatter_bucket.h says why); det's three scan passes
 *      (app_scatter_det.k.c: det_sums, det_scan, det_spread) turn the counts into each bucket's first place.
 *   2. bucket_place writes each row's (key, id) pair at its bucket's frontier, taken by a global atomic a row: every
 *      work-group writes a bucket at the one sector being filled, so the L2 holds a sector being filled a bucket, not
 *      one a bucket a work-group (docs/design/scatter.md, "The bucket variant", has the figures).
 *   3. bucket_sum: a work-group per bucket sorts its (key, id) pairs by key in local memory (@p cap at a time: the
 *      launch's local memory), then a warp per target row sums that row's source rows in registers and
 *      adds the sum to out: the work-group is the one writer of its SPAN output rows, so a plain load and store.
 *
 * The source rows are read once, in the buckets' order: a gather of whole rows, which on an H200 reads at the speed
 * of a streaming read (2 GiB of 256-byte rows in a random order: 0.522 ms against 0.486 in order, a gather kernel in
 * CuPy; docs/design/scatter.md, "The bucket variant"). The sums are in an order the placement picks, as an atomic
 * variant's are: not deterministic (det is).
 *
 *   D=N  TYPE_f32 | TYPE_u32 | TYPE_i32 | TYPE_bf16 | TYPE_f16  IDX_T=uint|ulong  NB=N (buckets)  SPAN=N (targets a
 *   bucket)  WG=N (bucket_sum's work-group size)  PWG=N (bucket_hist's and bucket_place's)  HIST_LOCAL=0|1
 *   (bucket_hist's counts in local memory first)  LINE=N (the counts' words a bucket)
 *   PACKED=0|1 (4-byte pairs)
 */
#include "atomlab/port.h"
#include "atomlab/group_scan.h"
#include "atomlab/scatter_types.h" /* T, A (what a warp sums in: f32 for the 16-bit floats), LOAD, STORE */
#include "atomlab/key_guard.h"     /* KEY_GUARD: the library's builds return where its check found a bad key */

#define LANES 32u
#define COLS ((D + LANES - 1) / LANES)
#define BATCH 8u /* keys a work-item of bucket_hist and bucket_place has in flight */
#define AHEAD 4u /* source rows a warp of bucket_sum has in flight */
#define PER ((SPAN + WG - 1) / WG) /* a work-item's stretch of a bucket's key counts in the local scan */

/* A row's pair: its id and its key's place in its bucket, in 4 bytes where rows x SPAN fit them (PACKED), else its id
 * above its key in 8 */
#if PACKED
#define PAIR_T uint
#define PAIR(i, k) ((uint)(i) * SPAN + (k) % SPAN)
#define PAIR_KEY(p) ((p) % SPAN)
#define PAIR_ID(p) ((p) / SPAN)
#else
#define PAIR_T ulong
#define PAIR(i, k) ((ulong)(i) << 32 | (k))
#define PAIR_KEY(p) ((uint)(p) % SPAN)
#define PAIR_ID(p) ((uint)((p) >> 32))
#endif

#if defined(__CUDACC__)
#define BUCKET_BOUNDS __launch_bounds__(WG)
#define PLACE_BOUNDS __launch_bounds__(PWG)
#else
#define BUCKET_BOUNDS
#define PLACE_BOUNDS
#endif

ATL_INLINE ulong end_of(ulong lo, ulong n, ulong rows) { return lo + n < rows ? lo + n : rows; }

/* The BATCH keys a work-item takes from row @p i0 on, @p wg apart (0 from @p end on), all loaded before any is used:
 * one wait a batch, not one a key. */
ATL_INLINE void load_batch(ATL_GLOBAL const IDX_T *idx, ulong i0, uint wg, ulong end, uint *k)
{
  for (uint b = 0; b < BATCH; b++) {
    const ulong i = i0 + (ulong)b * wg;
    k[b] = i < end ? (uint)idx[i] : 0u;
  }
}

/* counts[bucket x LINE] += the rows whose key is in the bucket: with HIST_LOCAL, a work-group's counts in local memory
 * first, added once a bucket (fewer global atomics where the buckets are few), else an atomic a row */
ATL_KERNEL void PLACE_BOUNDS bucket_hist(ATL_GLOBAL const IDX_T *idx, ATL_GLOBAL uint *counts, ulong rows
                                         KEY_GUARD_PARAM)
{
#if HIST_LOCAL
  ATL_SHARED uint h[NB];
#define HIST h
#else
#define HIST counts
#endif
#define HIST_AT(b) ((ulong)(b) * (HIST_LOCAL ? 1u : LINE))
  KEY_GUARD_RETURN();
  const uint lid = atl_local_id(), wg = atl_local_size(), step = atl_global_size();
#if HIST_LOCAL
  for (uint b = lid; b < NB; b += wg)
    h[b] = 0u;
  atl_barrier_local();
#endif
  for (ulong i0 = atl_global_id(); i0 < rows; i0 += (ulong)BATCH * step) {
    uint k[BATCH];
    load_batch(idx, i0, step, rows, k);
    for (uint b = 0; b < BATCH; b++)
      if (i0 + (ulong)b * step < rows)
        atl_atomic_add(&HIST[HIST_AT(k[b] / SPAN)], 1u);
  }
#if HIST_LOCAL
  atl_barrier_local();
  for (uint b = lid; b < NB; b += wg)
    if (h[b])
      atl_atomic_add(&counts[(ulong)b * LINE], h[b]);
#endif
  (void)wg, (void)lid;
}

/* Each row's (key, id) at its bucket's next place, as one word (PAIR): the bucket's frontier, counts[bucket x LINE]
 * (the scan left there the bucket's first place), taken by a global atomic a row, so that every work-group writes
 * each bucket at the one sector being filled (the order within a bucket is any). After the pass a bucket's frontier
 * is its end. */
ATL_KERNEL void PLACE_BOUNDS bucket_place(ATL_GLOBAL const IDX_T *idx, ATL_GLOBAL uint *counts,
                                          ATL_GLOBAL PAIR_T *pairs, ulong rows KEY_GUARD_PARAM)
{
  KEY_GUARD_RETURN();
  const uint step = atl_global_size();
  for (ulong i0 = atl_global_id(); i0 < rows; i0 += (ulong)BATCH * step) {
    uint k[BATCH];
    load_batch(idx, i0, step, rows, k);
    for (uint b = 0; b < BATCH; b++) {
      const ulong i = i0 + (ulong)b * step;
      if (i < rows)
        pairs[atl_atomic_add(&counts[(ulong)(k[b] / SPAN) * LINE], 1u)] = PAIR(i, k[b]);
    }
  }
}

/* at[t + 1], key t's count among the pairs, becomes its first place (at[0] stays 0): each work-item scans a stretch of
 * PER counts in place, the stretches' sums scanned in @p part */
ATL_INLINE void key_starts(ATL_LOCAL uint *at, ATL_LOCAL uint *part, uint lid, uint wg)
{
  const uint lo = lid * PER < SPAN ? lid * PER : SPAN, hi = lo + PER < SPAN ? lo + PER : SPAN;
  uint s = 0;
  for (uint t = lo; t < hi; t++)
    s += at[t + 1];
  part[lid] = s;
  atl_barrier_local();
  atl_group_scan_parts(part, lid, wg);
  for (uint t = lo, run = part[lid] - s; t < hi; t++) {
    const uint n = at[t + 1];
    at[t + 1] = run;
    run += n;
  }
  atl_barrier_local();
}

/* Source row @p id's columns of this lane into @p x (zeros where @p ok is false). */
ATL_INLINE void load_row(ATL_GLOBAL const T *src, uint id, bool ok, uint lane, A *x)
{
  for (uint j = 0, c = lane; j < COLS; j++, c += LANES)
    x[j] = ok && c < D ? LOAD(src[(ulong)id * D + c]) : (A)0;
}

/* Target row lo + t's rows, ids[a .. z), summed by one warp and added to out (the work-group is its one writer). */
ATL_INLINE void sum_target(ATL_GLOBAL const T *ATL_RESTRICT src, ATL_LOCAL const uint *ids, uint a, uint z,
                           ATL_GLOBAL T *out, ulong row, uint lane)
{
  A sum[COLS], x[AHEAD][COLS];
  for (uint j = 0; j < COLS; j++)
    sum[j] = (A)0;
  for (uint i = a; i < z; i += AHEAD) {
    for (uint u = 0; u < AHEAD; u++) /* AHEAD rows' loads in flight before any is added */
      load_row(src, i + u < z ? ids[i + u] : 0u, i + u < z, lane, x[u]);
    for (uint u = 0; u < AHEAD; u++)
      for (uint j = 0; j < COLS; j++)
        sum[j] += x[u][j];
  }
  for (uint j = 0, c = lane; c < D; j++, c += LANES)
    out[row * D + c] = STORE(LOAD(out[row * D + c]) + sum[j]);
}

/* A work-group per bucket: its pairs @p cap at a time (ids: the launch's local memory), counted and placed by key in
 * local memory (integer atomics), then a warp per target row of the bucket. */
ATL_KERNEL void BUCKET_BOUNDS bucket_sum(ATL_GLOBAL const T *ATL_RESTRICT src, ATL_GLOBAL const PAIR_T *pairs,
                                         ATL_GLOBAL const uint *counts, ATL_GLOBAL T *out, ulong targets, uint cap
                                             ATL_DYNAMIC_SHARED_PARAM(uint, ids) KEY_GUARD_PARAM)
{
  ATL_DYNAMIC_SHARED(uint, ids);
  ATL_SHARED uint at[SPAN + 1];
  ATL_SHARED uint part[WG];
  KEY_GUARD_RETURN();
  const uint lid = atl_local_id(), wg = atl_local_size(), lane = lid % LANES, warps = wg / LANES;
  for (ulong b = atl_group_id(); b < NB && b * SPAN < targets; b += atl_num_groups()) {
    const ulong lo = b * SPAN;
    const uint n = (uint)end_of(0, SPAN, targets - lo);
    const uint s = b ? counts[(b - 1) * LINE] : 0u, e = counts[b * LINE]; /* bucket_place left each at its end */
    for (uint s0 = s; s0 < e; s0 += cap) {
      const uint m = e - s0 < cap ? e - s0 : cap;
      for (uint t = lid; t <= SPAN; t += wg)
        at[t] = 0u;
      atl_barrier_local();
      for (uint i = lid; i < m; i += wg)
        atl_atomic_add(&at[PAIR_KEY(pairs[s0 + i]) + 1u], 1u);
      atl_barrier_local();
      key_starts(at, part, lid, wg);
      for (uint i = lid; i < m; i += wg) { /* at[t + 1] ends at key t's end: key t + 1's start */
        const PAIR_T pair = pairs[s0 + i];
        ids[atl_atomic_add(&at[PAIR_KEY(pair) + 1u], 1u)] = PAIR_ID(pair);
      }
      atl_barrier_local();
      for (uint t = lid / LANES; t < n; t += warps) {
        const uint a = at[t], z = at[t + 1];
        if (a < z)
          sum_target(src, ids, a, z, out, lo + t, lane);
      }
      atl_barrier_local();
    }
  }
}
