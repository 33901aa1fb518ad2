/*
 * app_swmapreduce.cu: seed 000's MapReduce comparison with Mars for CUDA,
 * as app_swmapreduce.cl (variants, workloads and grid are the same):
 * 6 count, mr_scan, 3 write (two passes); 0 / 1 / 2 one reservation per
 * thread (atomicAdd, atl_warp_fetch, atl_sw_add); 4 / 5 one per warp
 * (its lanes' counts summed with shuffles; atomicAdd or atl_sw_add).
 */
#include "atomlab/atomics.cuh"

struct mr_rec {
  unsigned key, value;
};

__device__ mr_rec map_record(unsigned mode, const int *a, const int *b, unsigned n, unsigned t)
{
  if (mode == 0u) {
    const unsigned i = t / n, j = t % n;
    unsigned acc = 0;
    for (unsigned k = 0; k < n; k++)
      acc += (unsigned)a[i * n + k] * (unsigned)b[k * n + j];
    return mr_rec{t, acc};
  }
  const int4 p = reinterpret_cast<const int4 *>(a)[t];
  unsigned best = 0, bestd = 0xffffffffu;
  for (unsigned c = 0; c < n; c++) {
    const int4 q = reinterpret_cast<const int4 *>(b)[c];
    const int dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z, dw = p.w - q.w;
    const unsigned dist = (unsigned)(dx * dx + dy * dy + dz * dz + dw * dw);
    if (dist < bestd) {
      bestd = dist;
      best = c;
    }
  }
  return mr_rec{best, t};
}

/* At most 32 registers (launch bounds: 8 blocks of 256): with 40, fewer blocks fit an SM than
 * occupancy discovery found, and the software atomic's grid would not be co-resident. */
extern "C" __global__ void __launch_bounds__(256, 8)
    mr_map(unsigned mode, const int *a, const int *b, unsigned n, unsigned ntasks, unsigned variant,
           unsigned *offsets, unsigned *counter, unsigned *out, unsigned long long *req, unsigned *finished,
           unsigned *abort_flag, unsigned bound)
{
  __shared__ atl_sw_coord cs;
  const atl_sw sw = {req, finished, abort_flag, bound};
  const unsigned workers = gridDim.x - 1u, lsize = blockDim.x, lane = threadIdx.x & 31u;
  const bool software = variant == 2u || variant == 5u;
  if (blockIdx.x == workers) {
    if (software)
      atl_sw_coordinate(counter, &cs, sw, (lsize + 31u) / 32u);
    return;
  }
  const unsigned stride = workers * lsize, steps = (ntasks + stride - 1u) / stride;
  for (unsigned it = 0; it < steps; it++) { /* uniform: whole warps reach the shuffles */
    const unsigned t = it * stride + blockIdx.x * lsize + threadIdx.x;
    const bool valid = t < ntasks;
    const unsigned emits = valid ? 1u : 0u; /* Mars's MAP_COUNT */
    if (variant == 6u) {
      if (valid)
        offsets[t] = emits;
      continue;
    }
    unsigned slot = 0;
    if (variant == 3u) {
      slot = valid ? offsets[t] : 0u;
    } else if (variant <= 2u) {
      if (valid)
        slot = variant == 2u ? atl_sw_add(counter, 0u, emits, sw)
               : variant == 1u ? atl_warp_fetch(ATL_ADD, counter, emits)
                               : atomicAdd(counter, emits);
    } else { /* 4, 5: the warp's exclusive prefix, one reservation by lane 0 */
      /* the warp's lanes that exist (a last partial warp: lanes 0..k); the _sync calls converge them */
      const unsigned in_warp = min(32u, lsize - (threadIdx.x & ~31u));
      const unsigned mask = in_warp == 32u ? 0xffffffffu : (1u << in_warp) - 1u;
      unsigned incl = emits;
      for (unsigned d = 1; d < 32u; d <<= 1) {
        const unsigned x = __shfl_up_sync(mask, incl, d);
        if (lane >= d)
          incl += x;
      }
      const unsigned total = __shfl_sync(mask, incl, in_warp - 1u), lead = 0u;
      unsigned base = 0;
      if (lane == lead && total != 0u)
        base = variant == 5u ? atl_sw_add(counter, 0u, total, sw) : atomicAdd(counter, total);
      slot = __shfl_sync(mask, base, lead) + incl - emits;
    }
    if (valid && slot < ntasks) {
      const mr_rec r = map_record(mode, a, b, n, t);
      out[2u * slot] = r.key;
      out[2u * slot + 1u] = r.value;
    }
  }
  if (software)
    atl_sw_finish(sw);
}

/* Mars's prefix sum, one block: offsets[i] = counts[0] + ... + counts[i - 1] in place; *total the sum. */
extern "C" __global__ void mr_scan(unsigned *offsets, unsigned n, unsigned *total)
{
  __shared__ unsigned part[ATL_SW_COORD];
  const unsigned lid = threadIdx.x, lsize = blockDim.x;
  const unsigned chunk = (n + lsize - 1u) / lsize, lo = min(n, lid * chunk), hi = min(n, lo + chunk);
  unsigned s = 0;
  for (unsigned i = lo; i < hi; i++)
    s += offsets[i];
  part[lid] = s;
  __syncthreads();
  if (lid == 0u) {
    unsigned run = 0;
    for (unsigned i = 0; i < lsize; i++) {
      const unsigned x = part[i];
      part[i] = run;
      run += x;
    }
    *total = run;
  }
  __syncthreads();
  unsigned run = part[lid];
  for (unsigned i = lo; i < hi; i++) {
    const unsigned x = offsets[i];
    offsets[i] = run;
    run += x;
  }
}
