/*
 * app_swmapreduce.cl: seed 000's MapReduce comparison with Mars. Map tasks
 * emit (key, value) records into one output array; where a record goes is
 * what the variants compare:
 *   6 count + mr_scan + 3 write   Mars's two passes: count each task's
 *                                 records, prefix-sum the counts, map again
 *                                 writing at the offsets (no atomics)
 *   0 / 1 / 2  thread granularity each task reserves its slots with one
 *              atomic: system atomic_add, atl_wave_fetch, atl_sw_add
 *   4 / 5      wavefront granularity: the wavefront sums its tasks' counts
 *              in local memory and one work-item reserves them all with one
 *              atomic (4 system, 5 software)
 * Workloads (mode): 0 matrix multiplication, task t = (t / n, t % n) emits
 * (t, row . column) of n x n uint matrices a and b; 1 KMeans map phase,
 * task t = point t of a (4 ints each) emits (nearest of the n centroids in
 * b, ties to the lowest, t). The worker work-groups (all but the last)
 * stride over the tasks in a step count uniform over the grid (every
 * work-item calls the aggregating atomics); the last work-group is the
 * software atomic's coordinator and idles in the other variants.
 */
#include "atomlab/atomics.clh"

#define MR_WAVES (ATL_SW_COORD / ATL_WAVEFRONT)

/* The map function: the task's one record (both workloads emit one per task). */
uint2 map_record(uint mode, __global const int *a, __global const int *b, uint n, uint t)
{
  if (mode == 0u) {
    const uint i = t / n, j = t % n;
    uint acc = 0;
    for (uint k = 0; k < n; k++)
      acc += (uint)a[i * n + k] * (uint)b[k * n + j];
    return (uint2)(t, acc);
  }
  const int4 p = vload4(t, a);
  uint best = 0, bestd = 0xffffffffu;
  for (uint c = 0; c < n; c++) {
    const int4 d = p - vload4(c, b);
    const uint dist = (uint)(d.x * d.x + d.y * d.y + d.z * d.z + d.w * d.w);
    if (dist < bestd) {
      bestd = dist;
      best = c;
    }
  }
  return (uint2)(best, t);
}

__kernel void mr_map(uint mode, __global const int *a, __global const int *b, uint n, uint ntasks, uint variant,
                     __global uint *offsets, volatile __global uint *counter, __global uint *out,
                     volatile __global ulong *req, volatile __global uint *finished,
                     volatile __global uint *abort_flag, uint bound)
{
  __local struct atl_group_scratch ws;
  __local struct atl_sw_scratch ss;
  __local struct atl_sw_coord cs;
  __local uint wsum[MR_WAVES], wbase[ATL_SW_COORD];
  const struct atl_sw sw = {req, finished, abort_flag, bound};
  const uint workers = (uint)get_num_groups(0) - 1u, lsize = (uint)get_local_size(0), lid = (uint)get_local_id(0);
  const int software = variant == 2u || variant == 5u;
  if (get_group_id(0) == workers) {
    if (software)
      atl_sw_coordinate(counter, &cs, &sw, (lsize + ATL_WAVEFRONT - 1u) / ATL_WAVEFRONT);
    return;
  }
  const uint stride = workers * lsize, steps = (ntasks + stride - 1u) / stride;
  const uint g = lid / ATL_WAVEFRONT, lane = lid % ATL_WAVEFRONT;
  if (variant == 6u) { /* Mars's count pass (a loop of its own: PoCL wants one latch where barriers are) */
    for (uint t = (uint)get_global_id(0); t < ntasks; t += stride)
      offsets[t] = 1u; /* MAP_COUNT: the task's record count */
    return;
  }
  for (uint it = 0; it < steps; it++) {
    const uint t = it * stride + (uint)get_global_id(0);
    const int valid = t < ntasks;
    const uint emits = valid ? 1u : 0u; /* the task's record count, as the count pass */
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
    else if (variant == 2u || variant == 5u)
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
__kernel void mr_scan(__global uint *offsets, uint n, __global uint *total)
{
  __local uint part[ATL_SW_COORD];
  const uint lid = (uint)get_local_id(0), lsize = (uint)get_local_size(0);
  const uint chunk = (n + lsize - 1u) / lsize, lo = min(n, lid * chunk), hi = min(n, lo + chunk);
  uint s = 0;
  for (uint i = lo; i < hi; i++)
    s += offsets[i];
  part[lid] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0u) {
    uint run = 0;
    for (uint i = 0; i < lsize; i++) {
      const uint x = part[i];
      part[i] = run;
      run += x;
    }
    *total = run;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  uint run = part[lid];
  for (uint i = lo; i < hi; i++) {
    const uint x = offsets[i];
    offsets[i] = run;
    run += x;
  }
}
