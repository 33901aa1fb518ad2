/*
 * app_scatter_det.k.c: the deterministic scatter-add (app scatter --variants det, issue [scatter]), written
 * once for CUDA and OpenCL. The result is bit-identical across runs, grids and work-group sizes because
 * every output element is summed by one warp in an order fixed by the data alone:
 *
 *   0. The first det_hist also finds whether the keys are already in order (non-decreasing: sorted keys, one hot
 *      key), one word the host reads back. Then it launches no other radix pass but the last det_place, which
 *      reads the word too and copies the keys and row ids as they are: what the stable sort would give.
 *   1. det_hist / det_scan / det_place, once per 8-bit digit of the key (LSD radix sort): a stable sort
 *      of (key, row id) pairs. A chunk of CHUNK rows counts its digits (det_hist: the counts are
 *      integers, so the order of the local atomics does not matter), one work-group scans the counts
 *      digit-major (det_scan: each chunk's first place for each digit), and each chunk places its rows
 *      in order (det_place: a row's rank among the rows of its digit before it in the chunk is counted
 *      from the digits in local memory, never from the order of atomics; the chunk is ordered in local
 *      memory first, so a digit's rows go out as one contiguous run). A stable sort is unique, so
 *      the sorted ids depend on neither grid nor work-group size: row ids of one key in ascending order.
 *   2. det_tile: the sorted sequence is cut into tiles of TILE places (fixed: the tile boundaries depend
 *      on the data only). One warp per tile sums each key's rows in sorted order (ascending row id);
 *      a key whose rows lie wholly in the tile is added to the output (a plain load and store: one writer),
 *      a key that crosses the tile's start or end leaves its partial sum in part[tile][0] (the tile's
 *      first key) or part[tile][1] (its last key).
 *   3. det_group: one warp per crossing key's segment (its tiles within one group of GROUP tiles, fixed like the
 *      tiles) adds their partials in tile order; a key within one group is added to the output, a key that
 *      crosses groups leaves the segment's sum in gpart[group][0] (the group's first key) or [1] (its last).
 *   4. det_combine: one warp per key crossing groups (found at the first group boundary it crosses) adds its
 *      groups' sums in group order and adds the result to the output.
 *
 * No float is ever added by an atomic, so no order of threads can change a bit. Keys are u32 (targets
 * < 2^32); the input keys are IDX_T (uint or ulong: --index).
 *
 *   D=N  TYPE_f32 | TYPE_u32 | TYPE_i32 | TYPE_bf16 | TYPE_f16  IDX_T=uint|ulong  CHUNK=N  TILE=N  GROUP=N  WG=N (the launch's work-group
 *   size, for the local digit array)
 */
#include "atomlab/port.h"
#include "atomlab/group_scan.h"
#include "atomlab/scatter_types.h" /* T, A (what a warp sums in: f32 for the 16-bit floats), LOAD, STORE */
#include "atomlab/key_guard.h"     /* KEY_GUARD: the library's builds return where its check found a bad key */

#define BINS 256u
#define LANES 32u
#define COLS ((D + LANES - 1) / LANES)
#define NO_DIGIT BINS /* a work-item past the chunk's end: no row's digit */
#define HIST_BATCH 8u /* keys a work-item of det_hist has in flight */

/* CUDA: every pass is launched with WG work-items a group, so ptxas must keep each kernel within the registers
 * that many threads have (64 a thread at 1024): det_combine's partials in flight took 72 at D = 64 and its launch
 * of 1024 failed (CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES on an H100). */
#if defined(__CUDACC__)
#define DET_BOUNDS __launch_bounds__(WG)
/* det_tile's warps take a tile each (8192 at E = 8 M): with 36 registers at D = 64 they did not all fit on an H200 at
 * once and the pass took 1.21 ms, against 0.79 in 32 (ncu, 5d6fe56 and 3c3ee15). Up to D = 128 it is asked for a
 * whole SM's threads (2048) resident, which fits in 32 registers; past it that spilled. */
#if D <= 128
#define DET_TILE_BOUNDS __launch_bounds__(WG, (2048 / WG > 32 ? 32 : 2048 / WG))
#else
#define DET_TILE_BOUNDS __launch_bounds__(WG)
#endif
#else
#define DET_BOUNDS
#define DET_TILE_BOUNDS
#endif

ATL_INLINE ulong end_of(ulong lo, ulong n, ulong rows) { return lo + n < rows ? lo + n : rows; }

/* The key of sorted place @p i: the input key in the first pass, the previous pass's after it. */
ATL_INLINE uint key_at(ATL_GLOBAL const IDX_T *idx, ATL_GLOBAL const uint *keys, ulong i, uint first)
{
  return first ? (uint)idx[i] : keys[i];
}

/* counts[digit * chunks + chunk]: how many rows of each chunk have each digit of the key at @p shift. The first
 * pass also sets unsorted[0] = 1 where some input key is greater than the next: the host reads the word back and,
 * with the keys in order, launches no other radix pass but the last det_place. The word is 0 before: det_combine of
 * the call before zeroes it, and a stale 1 only sorts keys that are in order, which changes no bit. A pass of its
 * own over the keys for it took 18 us at E = 8 M on an H200 (ncu, e65551a). */
ATL_KERNEL void DET_BOUNDS det_hist(ATL_GLOBAL const IDX_T *idx, ATL_GLOBAL const uint *keys, ATL_GLOBAL uint *counts,
                                    ATL_GLOBAL uint *unsorted, ulong rows, uint shift, uint first KEY_GUARD_PARAM)
{
  ATL_SHARED uint h[BINS];
  ATL_SHARED uint seen; /* one write a work-group: a write by every work-item that saw a pair took 0.21 ms on an H200 */
  KEY_GUARD_RETURN();
  const uint lid = atl_local_id(), wg = atl_local_size();
  const ulong chunks = (rows + CHUNK - 1) / CHUNK;
  uint found = 0u;
  if (lid == 0)
    seen = 0u;
  for (ulong c = atl_group_id(); c < chunks; c += atl_num_groups()) {
    for (uint b = lid; b < BINS; b += wg)
      h[b] = 0;
    atl_barrier_local();
    const ulong end = end_of(c * CHUNK, CHUNK, rows);
    for (ulong i0 = c * CHUNK + lid; i0 < end; i0 += (ulong)HIST_BATCH * wg) {
      uint k[HIST_BATCH]; /* the batch's keys loaded before any is counted: one wait a batch, not one a key */
      for (uint b = 0; b < HIST_BATCH; b++) {
        const ulong i = i0 + (ulong)b * wg;
        k[b] = i < end ? key_at(idx, keys, i, first) : 0u;
        if (first && i < end && i + 1 < rows) /* past the chunk's end no key was loaded to compare */
          found |= k[b] > (uint)idx[i + 1];
      }
      for (uint b = 0; b < HIST_BATCH; b++)
        if (i0 + (ulong)b * wg < end)
          atl_atomic_add(&h[(k[b] >> shift) & (BINS - 1)], 1u);
    }
    atl_barrier_local();
    for (uint b = lid; b < BINS; b += wg)
      counts[(ulong)b * chunks + c] = h[b];
    atl_barrier_local();
  }
  if (found)
    seen = 1u;
  atl_barrier_local();
  if (lid == 0 && seen)
    unsorted[0] = 1u;
}

/*
 * The counts' exclusive prefix sum in three launches (on an H100 one work-group scanning all chunks x 256 counts,
 * 512 Ki at E = 8 M, took most of the sort's time): det_sums sums each block of @p block counts (a work-group
 * per block, reads coalesced), det_scan scans the blocks' sums in one work-group, det_spread scans each block
 * in place from its sum. Integers: the result does not depend on how the work is cut.
 */
ATL_KERNEL void DET_BOUNDS det_sums(ATL_GLOBAL const uint *counts, ATL_GLOBAL uint *sums, ulong n,
                                    ulong block KEY_GUARD_PARAM)
{
  ATL_SHARED uint part[WG];
  KEY_GUARD_RETURN();
  const uint lid = atl_local_id(), wg = atl_local_size();
  for (ulong g = atl_group_id(); g * block < n; g += atl_num_groups()) {
    const ulong hi = end_of(g * block, block, n);
    uint s = 0;
    for (ulong i = g * block + lid; i < hi; i += wg)
      s += counts[i];
    part[lid] = s;
    atl_barrier_local();
    atl_group_scan_parts(part, lid, wg); /* part[wg - 1]: the block's sum */
    if (lid == wg - 1)
      sums[g] = part[lid];
    atl_barrier_local();
  }
}

/* The exclusive prefix sum of @p n counts in place, by one work-group (launched as one). */
ATL_KERNEL void DET_BOUNDS det_scan(ATL_GLOBAL uint *counts, ulong n KEY_GUARD_PARAM)
{
  ATL_SHARED uint part[WG + 1];
  KEY_GUARD_RETURN();
  atl_group_exclusive_scan(counts, n, part);
}

ATL_KERNEL void DET_BOUNDS det_spread(ATL_GLOBAL uint *counts, ATL_GLOBAL const uint *sums, ulong n,
                                      ulong block KEY_GUARD_PARAM)
{
  ATL_SHARED uint part[WG + 1];
  KEY_GUARD_RETURN();
  for (ulong g = atl_group_id(); g * block < n; g += atl_num_groups()) {
    atl_group_exclusive_scan_from(counts + g * block, end_of(g * block, block, n) - g * block, part, sums[g]);
    atl_barrier_local(); /* part is read to the end before the next block's scan writes it */
  }
}

/* det_place ranks by warps and match-any on CUDA (whole warps: WG a multiple of 32), by rounds elsewhere */
#if defined(__CUDACC__) && __CUDA_ARCH__ >= 700 && WG % 32 == 0
#define DET_WARP_RANK 1
#else
#define DET_WARP_RANK 0
#endif

/* start[b] = the chunk's first local place of digit b, from its count in next[b] (which becomes start[b]): the
 * counts' exclusive scan by the first LANES work-items (WG >= 32) */
ATL_INLINE void chunk_starts(ATL_LOCAL uint *next, ATL_LOCAL uint *start, ATL_LOCAL uint *lane_sum, uint lid)
{
  const uint per = BINS / LANES;
  if (lid < LANES) {
    uint s = 0;
    for (uint j = 0; j < per; j++)
      s += next[lid * per + j];
    lane_sum[lid] = s;
  }
  atl_barrier_local();
  if (lid == 0)
    for (uint j = 0, run = 0; j < LANES; j++) {
      const uint s = lane_sum[j];
      lane_sum[j] = run;
      run += s;
    }
  atl_barrier_local();
  if (lid < LANES)
    for (uint j = 0, run = lane_sum[lid]; j < per; j++) {
      const uint n = next[lid * per + j];
      start[lid * per + j] = next[lid * per + j] = run;
      run += n;
    }
  atl_barrier_local();
}

#if DET_WARP_RANK
#define WARPS (WG / LANES)
#define SEG (((CHUNK + WG - 1) / WG) * LANES) /* rows of a chunk a warp ranks: a whole number of steps of LANES */
#define PLACE_BATCH 4u                        /* steps whose keys a warp has in flight */

/* d[j] = the digit of row b + j * LANES + lane: PLACE_BATCH steps' keys loaded before any is ranked (NO_DIGIT at
 * and past @p s1, the end of the warp's stretch) */
ATL_INLINE void batch_digits(ATL_GLOBAL const IDX_T *idx, ATL_GLOBAL const uint *keys_in, ulong b, ulong s1,
                             uint shift, uint first, uint lane, uint *d)
{
  for (uint j = 0; j < PLACE_BATCH; j++) {
    const ulong i = b + j * LANES + lane;
    d[j] = i < s1 ? (key_at(idx, keys_in, i, first) >> shift) & (BINS - 1) : NO_DIGIT;
  }
}

/*
 * CUDA: stage[local place] = the row's index in the chunk, by warps that never wait for each other inside a sweep.
 * Each warp takes a stretch of SEG consecutive rows. Sweep 1 counts each digit in the warp's stretch
 * (wcnt[warp][digit], by local atomics: integers); a scan over warps then makes
 * wcnt[warp][digit] the warp's first local place of the digit; sweep 2 reads the keys again and gives each row the
 * next place of its digit: lanes below it with the digit in the step, plus the warp's places taken before. Counts,
 * never an atomic's order. At D = 64, E = 8 M into 1M targets on an H200, the three passes on zipf 1.1 keys took
 * 282 us in rounds of the whole work-group (WG rows, three barriers a round; ncu, de87474) and take 247 this way
 * (80e04c0). Votes on the digit's bits in place of match-any took 103 to 108 us every pass (f86e3e9).
 */
ATL_INLINE void rank_chunk(ATL_GLOBAL const IDX_T *idx, ATL_GLOBAL const uint *keys_in, ulong lo, ulong end,
                           uint shift, uint first, ATL_LOCAL const uint *start, ATL_LOCAL uint *wcnt,
                           ATL_LOCAL ushort *stage, uint lid)
{
  const uint lane = lid % LANES, warp = lid / LANES, lower = (1u << lane) - 1u;
  ATL_LOCAL uint *mine = wcnt + warp * BINS;
  const ulong s0 = lo + (ulong)warp * SEG < end ? lo + (ulong)warp * SEG : end, s1 = end_of(s0, SEG, end);
  for (uint b = lane; b < BINS; b += LANES)
    mine[b] = 0u;
  __syncwarp();
  for (ulong b = s0; b < s1; b += PLACE_BATCH * LANES) {
    uint d[PLACE_BATCH];
    batch_digits(idx, keys_in, b, s1, shift, first, lane, d);
    for (uint j = 0; j < PLACE_BATCH; j++)
      if (d[j] < BINS)
        atl_atomic_add(&mine[d[j]], 1u); /* counts: any order; det_hist counts the same way */
  }
  atl_barrier_local();
  for (uint b = lid; b < BINS; b += WG) /* wcnt[w][b] = start[b] + the counts of b in the warps before w */
    for (uint w = 0, run = start[b]; w < WARPS; w++) {
      const uint n = wcnt[w * BINS + b];
      wcnt[w * BINS + b] = run;
      run += n;
    }
  atl_barrier_local();
  for (ulong b = s0; b < s1; b += PLACE_BATCH * LANES) {
    uint d[PLACE_BATCH];
    batch_digits(idx, keys_in, b, s1, shift, first, lane, d);
    for (uint j = 0; j < PLACE_BATCH; j++) {
      const uint grp = __match_any_sync(0xffffffffu, d[j]), below = (uint)__popc(grp & lower);
      const uint at = d[j] < BINS ? mine[d[j]] + below : 0u;
      __syncwarp();
      if (d[j] < BINS) {
        stage[at] = (ushort)(b + j * LANES + lane - lo);
        if (!below)
          mine[d[j]] = at + (uint)__popc(grp);
      }
      __syncwarp();
    }
  }
}
#else
/* Elsewhere: in rounds of WG rows, a row's rank among the round's rows of its digit counted from every digit
 * before it in the round (dig), then next[digit] moved on by the round's count. Counts, not an atomic's order. */
ATL_INLINE void rank_chunk(ATL_GLOBAL const IDX_T *idx, ATL_GLOBAL const uint *keys_in, ulong lo, ulong end,
                           uint shift, uint first, ATL_LOCAL uint *next, ATL_LOCAL uint *dig,
                           ATL_LOCAL ushort *stage, uint lid)
{
  const uint wg = atl_local_size();
  uint k_next = lo + lid < end ? key_at(idx, keys_in, lo + lid, first) : 0u;
  for (ulong base = lo; base < end; base += wg) { /* every work-item reaches the barriers */
    const ulong i = base + lid;
    const uint d = i < end ? (k_next >> shift) & (BINS - 1) : NO_DIGIT;
    if (i + wg < end) /* the next round's key in flight over this round's barriers */
      k_next = key_at(idx, keys_in, i + wg, first);
    dig[lid] = d;
    atl_barrier_local();
    uint rank = 0;
    for (uint j = 0; j < lid; j++)
      rank += dig[j] == d;
    const uint at = d < BINS ? next[d] + rank : 0;
    atl_barrier_local();
    if (d < BINS) {
      stage[at] = (ushort)(i - lo);
      atl_atomic_add(&next[d], 1u); /* the round's count of the digit: integers, any order */
    }
    atl_barrier_local();
  }
}
#endif

/* Each chunk's rows to their sorted places by the digit at @p shift, in row order within each digit: ranked into
 * local memory (stage: each local place's row in the chunk, rank_chunk), then written out place by place, so
 * that a digit's rows go to consecutive addresses (written straight to their places, 16 rows a digit at 256
 * digits, each row took a sector of its own). With the keys in order (unsorted[0] == 0) the last pass copies
 * them and their row ids as they are and the others do nothing. */
ATL_KERNEL void DET_BOUNDS det_place(ATL_GLOBAL const IDX_T *idx, ATL_GLOBAL const uint *keys_in, ATL_GLOBAL const uint *ids_in,
                          ATL_GLOBAL const uint *offsets, ATL_GLOBAL uint *keys_out, ATL_GLOBAL uint *ids_out,
                          ATL_GLOBAL const uint *unsorted, ulong rows, uint shift, uint first, uint last KEY_GUARD_PARAM)
{
  ATL_SHARED uint off[BINS];      /* this chunk's first sorted place of each digit */
  ATL_SHARED uint start[BINS];    /* its first local place of each digit */
  ATL_SHARED uint next[BINS];     /* the next free local place of each digit */
  ATL_SHARED uint lane_sum[LANES];
  ATL_SHARED ushort stage[CHUNK]; /* local place -> the row's index in the chunk */
#if DET_WARP_RANK
  ATL_SHARED uint wcnt[WARPS * BINS]; /* rank_chunk's per warp digit counts, then first places */
#else
  ATL_SHARED uint dig[WG];
#endif
  KEY_GUARD_RETURN();
  if (!unsorted[0]) {
    for (ulong i = atl_global_id64(); last && i < rows; i += atl_global_size64()) {
      keys_out[i] = (uint)idx[i];
      ids_out[i] = (uint)i;
    }
    return;
  }
  const uint lid = atl_local_id(), wg = atl_local_size();
  const ulong chunks = (rows + CHUNK - 1) / CHUNK;
  for (ulong c = atl_group_id(); c < chunks; c += atl_num_groups()) {
    for (uint b = lid; b < BINS; b += wg) { /* the scan is digit-major: the next entry ends this chunk's digit */
      const ulong e = (ulong)b * chunks + c;
      off[b] = offsets[e];
      next[b] = (e + 1 < BINS * chunks ? offsets[e + 1] : (uint)rows) - offsets[e];
    }
    atl_barrier_local();
    chunk_starts(next, start, lane_sum, lid);
    const ulong lo = c * CHUNK, end = end_of(lo, CHUNK, rows);
#if DET_WARP_RANK
    rank_chunk(idx, keys_in, lo, end, shift, first, start, wcnt, stage, lid);
#else
    rank_chunk(idx, keys_in, lo, end, shift, first, next, dig, stage, lid);
#endif
    atl_barrier_local();
    for (ulong p = lid; p < end - lo; p += wg) { /* local place p of digit d is sorted place off[d] + p - start[d] */
      const ulong i = lo + stage[p];
      const uint k = key_at(idx, keys_in, i, first), d = (k >> shift) & (BINS - 1);
      const ulong at = (ulong)off[d] + (p - start[d]);
      keys_out[at] = k;
      ids_out[at] = first ? (uint)i : ids_in[i];
    }
    atl_barrier_local(); /* stage and the digit arrays are read to the end before the next chunk's */
  }
}

/* Rows (det_tile) and partials (det_group, det_combine) whose loads a lane has in flight while it adds the earlier
 * ones: about 8 values a lane (D = 64: 4 rows), at least one. The order of the sums is the same: only loads move. */
#define AHEAD ((8u + COLS - 1u) / COLS)
/* det_group's and det_combine's partials in flight: 32 values a lane (D = 64: 16 tiles) */
#define COMBINE_AHEAD ((32u + COLS - 1u) / COLS)

/* x = row @p r's columns of this lane (zeros where @p ok is false: past the tile's end) */
ATL_INLINE void load_row(ATL_GLOBAL const T *ATL_RESTRICT src, ulong r, bool ok, uint lane, A *x)
{
  for (uint j = 0, c = lane; j < COLS; j++, c += LANES)
    x[j] = ok && c < D ? LOAD(src[r * D + c]) : (A)0;
}

/* One warp per tile of TILE sorted places: keys wholly inside are added, crossing keys leave partials. A key's
 * output row is loaded when the key starts, so its rows' loads cover the load's wait. The places' keys and ids
 * read in windows of 32 and shuffled to the lanes took 1.13 ms a pass at D = 64, E = 8 M on an H200, against 0.86
 * for a load a place (ncu, f86e3e9 and e65551a). */
ATL_KERNEL void DET_TILE_BOUNDS det_tile(ATL_GLOBAL const T *ATL_RESTRICT src, ATL_GLOBAL const uint *keys,
                         ATL_GLOBAL const uint *ids, ATL_GLOBAL T *out, ATL_GLOBAL A *part,
                         ulong rows KEY_GUARD_PARAM)
{
  KEY_GUARD_RETURN();
  const ulong tiles = (rows + TILE - 1) / TILE;
  const uint lane = (uint)(atl_global_id64() % LANES);
  for (ulong t = atl_global_id64() / LANES; t < tiles; t += atl_global_size64() / LANES) {
    const ulong lo = t * TILE, hi = end_of(lo, TILE, rows);
    const uint first_key = keys[lo], last_key = keys[hi - 1];
    const int open_start = lo > 0 && keys[lo - 1] == first_key, open_end = hi < rows && keys[hi] == last_key;
    A sum[COLS], o[COLS]; /* o: the key's output row, none where it leaves a partial */
    uint key = first_key;
    int open = open_start || (first_key == last_key && open_end);
    for (uint j = 0; j < COLS; j++)
      sum[j] = (A)0;
    load_row(out, key, !open, lane, o);
    A x[AHEAD][COLS]; /* rows i .. i + AHEAD - 1 */
    for (uint a = 0; a < AHEAD; a++)
      load_row(src, lo + a < hi ? ids[lo + a] : 0, lo + a < hi, lane, x[a]);
    for (ulong i = lo;; i++) {
      const uint k = i < hi ? keys[i] : 0;
      if (i == hi || k != key) { /* the key's rows in this tile end: store them or leave them for combine */
        const ulong at = open ? (t * 2 + (key == first_key ? 0 : 1)) * D : (ulong)key * D;
        for (uint j = 0, c = lane; c < D; j++, c += LANES) {
          if (open)
            part[at + c] = sum[j];
          else
            out[at + c] = STORE(o[j] + sum[j]); /* out += the sum: its one writer */
          sum[j] = (A)0;
        }
        if (i == hi)
          break;
        key = k;
        open = key == last_key && open_end;
        load_row(out, key, !open, lane, o);
      }
      for (uint j = 0, c = lane; c < D; j++, c += LANES)
        sum[j] += x[0][j];
      for (uint a = 0; a + 1 < AHEAD; a++)
        for (uint j = 0; j < COLS; j++)
          x[a][j] = x[a + 1][j];
      const ulong next = i + AHEAD;
      load_row(src, next < hi ? ids[next] : 0, next < hi, lane, x[AHEAD - 1]);
    }
  }
}

/* Whether the key @p k goes on past unit @p u of @p span sorted places (its rows reach the next unit). */
ATL_INLINE bool goes_on(ATL_GLOBAL const uint *keys, ulong u, ulong span, uint k, ulong rows)
{
  const ulong end = end_of(u * span, span, rows);
  return end < rows && keys[end] == k;
}

/* Adds to @p sum, in unit order, the partials in slot 0 (each unit's first key's) of units @p u0 .. @p last of @p span
 * sorted places while key @p k goes on past the unit before (@p more: past unit u0 - 1), COMBINE_AHEAD units'
 * partials and ends in flight before any is added: whether the key goes on past the last unit added. */
ATL_INLINE bool add_partials(ATL_GLOBAL const uint *keys, ATL_GLOBAL const A *part, ulong span, ulong u0, ulong last,
                             uint k, ulong rows, uint lane, A *sum, bool more)
{
  for (; more && u0 <= last; u0 += COMBINE_AHEAD) {
    A y[COMBINE_AHEAD][COLS];
    bool m[COMBINE_AHEAD];
    for (uint i = 0; i < COMBINE_AHEAD; i++) {
      const ulong u = u0 + i;
      m[i] = u <= last && goes_on(keys, u, span, k, rows);
      for (uint j = 0, c = lane; j < COLS; j++, c += LANES)
        y[i][j] = u <= last && c < D ? part[u * 2 * D + c] : (A)0;
    }
    for (uint i = 0; i < COMBINE_AHEAD && u0 + i <= last && more; i++) {
      for (uint j = 0, c = lane; c < D; j++, c += LANES)
        sum[j] += y[i][j];
      more = m[i];
    }
  }
  return more;
}

/* Key @p k's segment that starts in tile @p a (its partial in slot @p slot): the partials of its tiles within a's
 * group of GROUP tiles, in tile order, added to the output where the key lies in this group alone, else left in
 * the group's slot of gpart (0: the group's first key, 1: its last) for det_combine. @p from_before: the key's
 * rows start in an earlier group. */
ATL_INLINE void group_segment(ATL_GLOBAL const uint *keys, ATL_GLOBAL const A *part, ATL_GLOBAL A *gpart,
                              ATL_GLOBAL T *out, ulong rows, uint k, ulong a, uint slot, bool from_before, uint lane)
{
  const ulong tiles = (rows + TILE - 1) / TILE, g = a / GROUP;
  const ulong last = (g + 1) * GROUP < tiles ? (g + 1) * GROUP - 1 : tiles - 1; /* the group's last tile */
  A sum[COLS];
  for (uint j = 0, c = lane; j < COLS; j++, c += LANES)
    sum[j] = c < D ? part[(a * 2 + slot) * D + c] : (A)0;
  const bool more = add_partials(keys, part, TILE, a + 1, last, k, rows, lane, sum, goes_on(keys, a, TILE, k, rows));
  const bool alone = !from_before && !more; /* more: the key goes on past the group's last tile */
  const ulong at = alone ? (ulong)k * D : (g * 2 + (keys[g * GROUP * TILE] == k ? 0 : 1)) * D;
  for (uint j = 0, c = lane; c < D; j++, c += LANES) {
    if (alone)
      out[at + c] = STORE(LOAD(out[at + c]) + sum[j]); /* out += the sum: its one writer */
    else
      gpart[at + c] = sum[j];
  }
}

/* One warp per tile: the segments of crossing keys that start in it (a key's first tile, and the first tile of
 * each group the key reaches). A key's partials are summed per group first, then the groups' sums in order
 * (det_combine), so that a hot key's 8192 tiles are not added one after another by one warp. */
ATL_KERNEL void DET_BOUNDS det_group(ATL_GLOBAL const uint *keys, ATL_GLOBAL const A *part, ATL_GLOBAL A *gpart,
                                     ATL_GLOBAL T *out, ulong rows KEY_GUARD_PARAM)
{
  KEY_GUARD_RETURN();
  const ulong tiles = (rows + TILE - 1) / TILE;
  const uint lane = (uint)(atl_global_id64() % LANES);
  for (ulong a = atl_global_id64() / LANES; a < tiles; a += atl_global_size64() / LANES) {
    const ulong lo = a * TILE, hi = end_of(lo, TILE, rows);
    const uint first_key = keys[lo], last_key = keys[hi - 1];
    const bool open_start = lo > 0 && keys[lo - 1] == first_key, open_end = hi < rows && keys[hi] == last_key;
    if (open_start && a % GROUP == 0) /* the tile's first key comes in from the group before */
      group_segment(keys, part, gpart, out, rows, first_key, a, 0, true, lane);
    if (open_end && !(first_key == last_key && open_start)) /* the tile's last key starts here and goes on */
      group_segment(keys, part, gpart, out, rows, last_key, a, first_key == last_key ? 0 : 1, false, lane);
  }
}

/* One warp per group boundary; the first boundary a key crosses adds its groups' sums (gpart) in group order to
 * the output. It also zeroes the order word for the next call (the last launch: nothing after it reads the word). */
ATL_KERNEL void DET_BOUNDS det_combine(ATL_GLOBAL const uint *keys, ATL_GLOBAL const A *gpart, ATL_GLOBAL T *out,
                                       ATL_GLOBAL uint *unsorted, ulong rows KEY_GUARD_PARAM)
{
  KEY_GUARD_RETURN();
  if (atl_global_id64() == 0)
    unsorted[0] = 0u;
  const ulong span = (ulong)GROUP * TILE, groups = (rows + span - 1) / span;
  const uint lane = (uint)(atl_global_id64() % LANES);
  for (ulong t = 1 + atl_global_id64() / LANES; t < groups; t += atl_global_size64() / LANES) {
    const uint k = keys[t * span];
    const ulong start = (t - 1) * span; /* the group before the boundary */
    if (keys[t * span - 1] != k || (start > 0 && keys[start - 1] == k))
      continue; /* the boundary is inside no key, or the key crossed an earlier one */
    const ulong from = (t - 1) * 2 + (keys[start] == k ? 0 : 1);
    A sum[COLS];
    for (uint j = 0, c = lane; c < D; j++, c += LANES)
      sum[j] = gpart[from * D + c];
    add_partials(keys, gpart, span, t, groups - 1, k, rows, lane, sum, true); /* every later group it reaches */
    for (uint j = 0, c = lane; c < D; j++, c += LANES)
      out[(ulong)k * D + c] = STORE(LOAD(out[(ulong)k * D + c]) + sum[j]);
  }
}
