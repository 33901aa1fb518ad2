/*
 * app_swmapreduce.k.c: seed 000's MapReduce comparison with Mars, written
 * once for CUDA and OpenCL. Map tasks emit (key, value) records into one
 * output array; where a record goes is what the variants compare:
 *   6 count + mr_scan + 3 write   Mars's two passes: count each task's
 *                                 records, prefix-sum the counts, map again
 *                                 writing at the offsets (no atomics)
 *   0 / 1 / 2  thread granularity each task reserves its slots with one
 *              atomic: native, atl_wave_fetch (CUDA: atl_warp_fetch),
 *              atl_sw_add
 *   4 / 5      wave granularity: the wave (a CUDA warp; ATL_WAVEFRONT
 *              work-items on OpenCL) sums its tasks' counts and its first
 *              work-item reserves them all with one atomic (4 native, 5
 *              software); CUDA sums by warp shuffles, OpenCL in local memory
 * Workloads (mode): 0 matrix multiplication, task t = (t / n, t % n) emits
 * (t, row . column) of n x n uint matrices a and b; 1 KMeans map phase,
 * task t = point t of a (4 ints each) emits (nearest of the n centroids in
 * b, ties to the lowest, t). The worker work-groups (all but the last)
 * stride over the tasks in a step count uniform over the grid (every
 * work-item reaches the aggregating calls, the library's portable rule);
 * the last work-group is the software atomic's coordinator and idles in the
 * other variants.
 */
#include "atomlab/atomics.h"
#include "atomlab/group_scan.h"

#define MR_WAVES (ATL_SW_COORD / ATL_WAVEFRONT)

/* Four ints at p[4 i .. 4 i + 3] (OpenCL's vload4 needs only the ints' alignment), and the squared
 * distance of two such points (OpenCL subtracts the vectors). */
#if defined(__CUDACC__)
#define MR_REC(key, value) make_uint2((key), (value))
#define MR_LOAD4(i, p) (((const int4 *)(p))[i])
ATL_INLINE uint mr_dist2(int4 p, int4 q)
{
  const int dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z, dw = p.w - q.w;
  return (uint)(dx * dx + dy * dy + dz * dz + dw * dw);
}
#else
#define MR_REC(key, value) ((uint2)((key), (value)))
#define MR_LOAD4(i, p) vload4((i), (p))
ATL_INLINE uint mr_dist2(int4 p, int4 q)
{
  const int4 d = p - q;
  return (uint)(d.x * d.x + d.y * d.y + d.z * d.z + d.w * d.w);
}
#endif

/* The map function: the task's one record (key, value) (both workloads emit one per task). */
ATL_FUNC uint2 map_record(uint mode, ATL_GLOBAL const int *a, ATL_GLOBAL const int *b, uint n, uint t)
{
  if (mode == 0u) {
    const uint i = t / n, j = t % n;
    uint acc = 0;
    for (uint k = 0; k < n; k++)
      acc += (uint)a[i * n + k] * (uint)b[k * n + j];
    return MR_REC(t, acc);
  }
  const int4 p = MR_LOAD4(t, a);
  uint best = 0, bestd = 0xffffffffu;
  for (uint c = 0; c < n; c++) {
    const uint dist = mr_dist2(p, MR_LOAD4(c, b));
    if (dist < bestd) {
      bestd = dist;
      best = c;
    }
  }
  return MR_REC(best, t);
}

/* At most 32 registers on CUDA (launch bounds: 8 blocks of 256): with 40, fewer blocks fit an SM than
 * occupancy discovery found, and the software atomic's grid would not be co-resident. */
ATL_KERNEL void ATL_LAUNCH_BOUNDS(256, 8)
    mr_map(uint mode, ATL_GLOBAL const int *a, ATL_GLOBAL const int *b, uint n, uint ntasks, uint variant,
           ATL_GLOBAL uint *offsets, volatile ATL_GLOBAL uint *counter, ATL_GLOBAL uint *out,
           volatile ATL_GLOBAL atl_u64 *req, volatile ATL_GLOBAL uint *finished, volatile ATL_GLOBAL uint *abort_flag,
           uint bound)
{
  ATL_SHARED atl_block_scratch ws; /* CUDA leaves ws and ss unused: the compiler drops them */
  ATL_SHARED atl_sw_scratch ss;
  ATL_SHARED struct atl_sw_coord cs;
#if !defined(__CUDACC__)
  __local uint wsum[MR_WAVES], wbase[ATL_SW_COORD];
#endif
  const struct atl_sw sw = {req, finished, abort_flag, bound};
  const uint workers = (uint)atl_num_groups() - 1u, lsize = (uint)atl_local_size(), lid = (uint)atl_local_id();
  const int software = variant == 2u || variant == 5u;
  if (atl_group_id() == workers) {
    if (software)
      atl_sw_coordinate(counter, &cs, &sw, atl_sw_waves(lsize));
    return;
  }
  const uint stride = workers * lsize, steps = (ntasks + stride - 1u) / stride;
  const uint g = lid / ATL_SW_WAVE, lane = lid % ATL_SW_WAVE;
  (void)g; /* OpenCL's wave slot in local memory */
#if !defined(__CUDACC__)
  if (variant == 6u) { /* Mars's count pass (a loop of its own: PoCL wants one latch where barriers are) */
    for (uint t = (uint)atl_global_id(); t < ntasks; t += stride)
      offsets[t] = 1u; /* MAP_COUNT: the task's record count */
    return;
  }
#endif
  for (uint it = 0; it < steps; it++) {
    const uint t = it * stride + (uint)atl_global_id();
    const int valid = t < ntasks;
    const uint emits = valid ? 1u : 0u; /* the task's record count (Mars's MAP_COUNT) */
    /*
     * The reservation: where the task's record goes. It is each ISA's own
     * (a warp's shuffles, a wavefront's local memory) and follows each
     * language's calling rule, so it is a block per language: CUDA calls the
     * library's warp primitives from the threads that reserve (any subset of
     * a warp may), OpenCL from every work-item with `part` (each must reach
     * the barriers). Each is its twin's code as it was measured.
     */
#if defined(__CUDACC__)
    if (variant == 6u) { /* Mars's count pass: CUDA's twin took it in the task loop */
      if (valid)
        offsets[t] = emits;
      continue;
    }
    unsigned slot = 0;
    if (variant == 3u) {
      slot = valid ? offsets[t] : 0u;
    } else if (variant <= 2u) {
      if (valid)
        slot = variant == 2u   ? atl_sw_add(counter, 0u, emits, sw)
               : variant == 1u ? atl_warp_fetch(ATL_ADD, (unsigned *)counter, emits)
                               : atl_atomic_add(counter, emits);
    } else { /* 4, 5: the warp's exclusive prefix, one reservation by lane 0 */
      /* the warp's lanes that exist (a last partial warp: lanes 0..k); the _sync calls converge them */
      const unsigned in_warp = min(32u, lsize - (lid & ~31u));
      const unsigned mask = in_warp == 32u ? 0xffffffffu : (1u << in_warp) - 1u;
      unsigned incl = emits;
      for (unsigned d = 1; d < 32u; d <<= 1) {
        const unsigned x = __shfl_up_sync(mask, incl, d);
        if (lane >= d)
          incl += x;
      }
      const unsigned total = __shfl_sync(mask, incl, in_warp - 1u), lead = 0u;
      unsigned base = 0;
      if (lane == lead && total != 0u) /* a warp with no records reserves nothing */
        base = variant == 5u ? atl_sw_add(counter, 0u, total, sw) : atl_atomic_add(counter, total);
      slot = __shfl_sync(mask, base, lead) + incl - emits;
    }
#else
    /* what this work-item reserves: its own records, or (4, 5) the wavefront's, summed in local memory */
    const int wave = variant == 4u || variant == 5u;
    uint off = 0, base = 0;
    if (wave) {
      if (lane == 0u)
        wsum[g] = 0u;
      barrier(CLK_LOCAL_MEM_FENCE);
      off = valid ? atomic_add(&wsum[g], emits) : 0u;
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    /* Not `lane == 0u && wsum[g] != 0u`: PoCL 3 (LLVM) made every work-item a leader with it; a
     * wavefront with no records reserves 0 instead. */
    const int part = wave ? lane == 0u : valid;
    const uint v = wave ? wsum[g] : emits;
    if (variant == 3u)
      base = valid ? offsets[t] : 0u;
    else if (software)
      base = atl_sw_add(counter, 0u, v, part, &ss, &sw);
    else if (variant == 1u)
      base = atl_wave_fetch(ATL_ADD, counter, v, part, &ws);
    else if (part)
      base = atomic_add(counter, v);
    uint slot = base;
    if (wave) {
      wbase[lid] = base; /* every work-item stores: PoCL 3 lost a leader-only store after atl_sw_add */
      barrier(CLK_LOCAL_MEM_FENCE);
      slot = wbase[g * ATL_WAVEFRONT] + off;
    }
#endif
    if (valid && slot < ntasks) { /* a wrong slot is left for the host's check to find, never written out of bounds */
      const uint2 r = map_record(mode, a, b, n, t);
      out[2u * slot] = r.x;
      out[2u * slot + 1u] = r.y;
    }
  }
  if (software)
    atl_sw_finish(&sw);
}

/* Mars's prefix sum, one work-group: offsets[i] = counts[0] + ... + counts[i - 1] in place; *total the sum. */
ATL_KERNEL void mr_scan(ATL_GLOBAL uint *offsets, uint n, ATL_GLOBAL uint *total)
{
  ATL_SHARED uint part[ATL_SW_COORD + 1];
  const uint sum = atl_group_exclusive_scan(offsets, n, part);
  if (atl_local_id() == 0)
    *total = sum;
}
