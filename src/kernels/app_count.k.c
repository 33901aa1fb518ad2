/*
 * app_count.k.c: seed 001, count the containers whose float sum exceeds a
 * limit, one work-item per container, and the read ceiling over the same
 * bytes; written once for CUDA and OpenCL.
 *
 *   ITEMS=N          floats per container (compiled in so the walk unrolls)
 *   WG=N             work-group size (a power of two)
 *   STRATEGY_thread  one atomic per work-item whose container is over the
 *                    limit (CUDA's compiler may aggregate it per warp itself:
 *                    the row records the SASS)
 *   STRATEGY_warp    one atomic per warp or sub-group (atl_subgroup_count:
 *                    CUDA __ballot_sync + __popc, OpenCL sub_group_reduce_add);
 *                    without sub-groups (OpenCL without cl_khr_subgroups) the
 *                    kernel writes 0xffffffff, which the host reports as
 *                    unsupported
 *   STRATEGY_block   one atomic per work-group: CUDA counts with
 *                    __syncthreads_count (BAR.RED.POPC), OpenCL with a
 *                    local-memory tree reduction
 *
 * Layout is item-major: value i of container c is vals[i * containers + c],
 * so neighbouring work-items read neighbouring words (coalesced).
 */
#include "atomlab/port.h"

ATL_KERNEL void count_containers(ATL_GLOBAL const float *ATL_RESTRICT vals, uint containers, uint limit_bits,
                                 ATL_GLOBAL uint *count)
{
  const uint c = atl_global_id();
  const float limit = atl_as_float(limit_bits);
  uint over = 0;
  if (c < containers) {
    float sum = 0.0f;
#pragma unroll
    for (uint i = 0; i < ITEMS; i++)
      sum += atl_ldg(&vals[(size_t)i * containers + c]);
    over = sum > limit;
  }
#if defined(STRATEGY_thread)
  if (over)
    atl_atomic_inc(count);
#elif defined(STRATEGY_warp)
#if defined(ATL_HAVE_SUBGROUPS)
  const uint n = atl_subgroup_count(over); /* every lane is here: no work-item returned */
  if (atl_subgroup_local_id() == 0 && n)
    atl_atomic_add(count, n);
#else
  if (c == 0)
    atl_atomic_xchg(count, 0xffffffffu); /* no sub-groups here: tell the host */
#endif
#elif defined(STRATEGY_block)
#if defined(__CUDACC__)
  const int n = __syncthreads_count(over);
  if (threadIdx.x == 0 && n)
    atomicAdd(count, (unsigned)n);
#else
  __local uint part[WG];
  const uint l = get_local_id(0);
  part[l] = over;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = WG / 2; s > 0; s >>= 1) {
    if (l < s)
      part[l] += part[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0 && part[0])
    atomic_add(count, part[0]);
#endif
#else
#error "define STRATEGY_thread, STRATEGY_warp or STRATEGY_block"
#endif
}

/*
 * The read ceiling: every work-item xors 16-byte words over a grid-stride
 * loop and folds its result into *out with one atomic, so every byte is read
 * and the result (the xor of all words) is checked exactly by the host.
 */
ATL_KERNEL void read_all(ATL_GLOBAL const uint *ATL_RESTRICT words, uint nwords, ATL_GLOBAL uint *out)
{
  ATL_GLOBAL const uint4 *v = (ATL_GLOBAL const uint4 *)words;
  const size_t stride = atl_global_size64();
  const uint n4 = nwords / 4;
  uint4 acc = atl_uint4_zero();
  ATL_PRAGMA_CUDA(unroll 4)
  for (size_t i = atl_global_id64(); i < n4; i += stride) {
    const uint4 w = atl_ldg(&v[i]);
    acc.x ^= w.x;
    acc.y ^= w.y;
    acc.z ^= w.z;
    acc.w ^= w.w;
  }
  for (size_t i = (size_t)n4 * 4 + atl_global_id64(); i < nwords; i += stride)
    acc.x ^= words[i];
  const uint x = acc.x ^ acc.y ^ acc.z ^ acc.w;
  if (x)
    atl_atomic_xor(out, x);
}

/*
 * The data apps' read ceiling (src/apps/yardsticks.c): read_all's loop, but every work-item writes its xor to its
 * own word of @p partial instead of an atomic, so the launch is pure streaming (no atomic request: what the
 * profiler's DRAM calibration needs) and the host xors the partials to check that every byte was read.
 */
ATL_KERNEL void read_words(ATL_GLOBAL const uint *ATL_RESTRICT words, uint nwords, ATL_GLOBAL uint *partial)
{
  const size_t stride = atl_global_size64();
  const uint n4 = nwords / 4;
  ATL_GLOBAL const uint4 *v = (ATL_GLOBAL const uint4 *)words;
  uint x = 0;
  ATL_PRAGMA_CUDA(unroll 4)
  for (size_t i = atl_global_id64(); i < n4; i += stride) { /* the loop of read_all, folded as it goes */
    const uint4 w = atl_ldg(&v[i]);
    x ^= w.x ^ w.y ^ w.z ^ w.w;
  }
  for (size_t i = (size_t)n4 * 4 + atl_global_id64(); i < nwords; i += stride)
    x ^= words[i];
  partial[atl_global_id64()] = x;
}
