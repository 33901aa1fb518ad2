/*
 * app_count.cl: seed 001, count the containers whose float sum exceeds a
 * limit, one thread per container, and the read ceiling over the same bytes.
 *
 *   ITEMS=N          floats per container (compiled in so the walk unrolls)
 *   WG=N             work-group size (a power of two)
 *   STRATEGY_thread  one atomic per thread whose container is over the limit
 *   STRATEGY_warp    one atomic per sub-group (sub_group_reduce_add); without
 *                    cl_khr_subgroups the kernel writes 0xffffffff, which the
 *                    host reports as unsupported
 *   STRATEGY_block   one atomic per work-group after a local-memory tree reduction
 *
 * Layout is item-major: value i of container c is vals[i * containers + c],
 * so neighbouring work-items read neighbouring words (coalesced).
 */
#if defined(STRATEGY_warp) && defined(cl_khr_subgroups)
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif

__kernel void count_containers(__global const float *vals, uint containers, uint limit_bits, __global uint *count)
{
  const uint c = get_global_id(0);
  const float limit = as_float(limit_bits);
  uint over = 0;
  if (c < containers) {
    float sum = 0.0f;
#pragma unroll
    for (uint i = 0; i < ITEMS; i++)
      sum += vals[(size_t)i * containers + c];
    over = sum > limit;
  }
#if defined(STRATEGY_thread)
  if (over)
    atomic_inc(count);
#elif defined(STRATEGY_warp)
#if defined(cl_khr_subgroups)
  uint n = sub_group_reduce_add(over);
  if (get_sub_group_local_id() == 0 && n)
    atomic_add(count, n);
#else
  if (c == 0)
    atomic_xchg(count, 0xffffffffu); /* no sub-groups here: tell the host */
#endif
#elif defined(STRATEGY_block)
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
#else
#error "define STRATEGY_thread, STRATEGY_warp or STRATEGY_block"
#endif
}

/*
 * The read ceiling: every work-item xors 16-byte words over a grid-stride
 * loop and folds its result into *out with one atomic, so every byte is read
 * and the result (the xor of all words) is checked exactly by the host.
 */
__kernel void read_all(__global const uint *words, uint nwords, __global uint *out)
{
  __global const uint4 *v = (__global const uint4 *)words;
  const size_t stride = get_global_size(0);
  const uint n4 = nwords / 4;
  uint4 acc = (uint4)(0);
  for (size_t i = get_global_id(0); i < n4; i += stride)
    acc ^= v[i];
  for (size_t i = (size_t)n4 * 4 + get_global_id(0); i < nwords; i += stride)
    acc.x ^= words[i];
  const uint x = acc.x ^ acc.y ^ acc.z ^ acc.w;
  if (x)
    atomic_xor(out, x);
}
