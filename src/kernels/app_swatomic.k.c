/*
 * app_swatomic.k.c: seed 000's experiments with the native atomic, the
 * wave-aggregated atl_wave_fetch (CUDA: atl_warp_fetch) and the software
 * atomic atl_sw_* of the device library, written once for CUDA and OpenCL.
 *
 * One kernel per variant (compile-time, so that the machine code of each can
 * be counted on its own, the analogue of the seed's FastPath/CompletePath
 * counts): ATL_SW_VARIANT 0 native, 1 wave-aggregated, 2 software, 3 none
 * (memory only); ATL_SW_MEM 1 adds the memory transaction (Figure 3's copy,
 * micro-benchmark 2).
 *
 * The last work-group is the coordinator in every variant (it idles unless
 * the variant is software), so each variant does the same work: every
 * work-item of the other work-groups applies the op ATL_SW_OP with
 * sw_operand(k) to mem[gid % targets] `iters` times (only every work-item
 * with gid % 3 != 1 when `divergent`), and with `record` stores each old
 * value at olds[k] (0xffffffff where it sat out), k = it * worker_items +
 * gid. With ATL_SW_MEM each iteration also copies src[k] to dst[k]
 * (coalesced). The aggregating variants follow the library's portable rule:
 * every work-item calls, `part` says who updates.
 *
 * ATL_SW_OP (the app's --op): 0 add 1, 1 sub 1, 2 inc, 3 min, 4 max, 5 and,
 * 6 or, 7 xor; the operands of 3..7 come from a hash of k that the host
 * repeats (src/apps/swatomic.c: sw_operand): min, max and xor a 32-bit hash
 * (xor: odd), and one bit cleared, or one bit set.
 */
#include "atomlab/atomics.h"

#ifndef ATL_SW_OP
#define ATL_SW_OP 0
#endif
#if ATL_SW_OP == 1
#define SW_DEV_OP ATL_SUB
#elif ATL_SW_OP == 3
#define SW_DEV_OP ATL_MIN
#elif ATL_SW_OP == 4
#define SW_DEV_OP ATL_MAX
#elif ATL_SW_OP == 5
#define SW_DEV_OP ATL_AND
#elif ATL_SW_OP == 6
#define SW_DEV_OP ATL_OR
#elif ATL_SW_OP == 7
#define SW_DEV_OP ATL_XOR
#else
#define SW_DEV_OP ATL_ADD /* add, inc */
#endif

ATL_INLINE uint sw_operand(uint k)
{
  uint h = k * 2654435761u + 0x9e3779b9u;
  h ^= h >> 15;
  h *= 0x2c1b3c6du;
  h ^= h >> 12;
#if ATL_SW_OP <= 2
  return 1u;
#elif ATL_SW_OP == 5
  return ~(1u << (h & 31u));
#elif ATL_SW_OP == 6
  return 1u << (h & 31u);
#elif ATL_SW_OP == 7
  return h | 1u;
#else
  return h;
#endif
}

/* Whether a work-item takes part: bool as the CUDA twin had it, int as the OpenCL one (each compiler
 * keeps the other type in other registers: a port changes no instruction). */
#if defined(__CUDACC__)
typedef bool sw_flag;
#else
typedef int sw_flag;
#endif

#ifndef ATL_SW_VARIANT
#define ATL_SW_VARIANT 2
#endif
#ifndef ATL_SW_MEM
#define ATL_SW_MEM 0
#endif

ATL_KERNEL void swatomic(volatile ATL_GLOBAL uint *mem, uint targets, uint iters, uint divergent, uint record,
                         ATL_GLOBAL uint *olds, volatile ATL_GLOBAL atl_u64 *req, volatile ATL_GLOBAL uint *finished,
                         volatile ATL_GLOBAL uint *abort_flag, uint bound, ATL_GLOBAL const uint *src,
                         ATL_GLOBAL uint *dst)
{
  ATL_SHARED atl_block_scratch ws; /* CUDA leaves ws and ss unused: the compiler drops them */
  ATL_SHARED atl_sw_scratch ss;
  ATL_SHARED struct atl_sw_coord cs;
  const struct atl_sw sw = {req, finished, abort_flag, bound};
  const uint workers = (uint)atl_num_groups() - 1u, lsize = (uint)atl_local_size();
  const uint worker_items = workers * lsize;
  if (atl_group_id() == workers) {
#if ATL_SW_VARIANT == 2
    atl_sw_coordinate_op(SW_DEV_OP, mem, &cs, &sw, atl_sw_waves(lsize));
#endif
    return;
  }
  const uint gid = (uint)atl_global_id(), t = gid % targets;
  const sw_flag part = !divergent || gid % 3u != 1u;
  for (uint it = 0; it < iters; it++) {
    uint old = 0xffffffffu;
    ATL_WHERE(part) /* CUDA: the threads that take part; OpenCL: every work-item, for the barriers inside */
    {
      const uint v = sw_operand(it * worker_items + gid);
      (void)v;
#if ATL_SW_VARIANT == 2 && ATL_SW_OP == 0
      old = atl_sw_add(mem, t, v, part, &ss, &sw);
#elif ATL_SW_VARIANT == 2 && ATL_SW_OP == 2
      old = atl_sw_inc(mem, t, part, &ss, &sw);
#elif ATL_SW_VARIANT == 2
      old = atl_sw_fetch(SW_DEV_OP, mem, t, v, part, &ss, &sw);
#elif ATL_SW_VARIANT == 1
      old = atl_wave_fetch(SW_DEV_OP, mem + t, v, part, &ws);
#elif ATL_SW_VARIANT == 0 && defined(__CUDACC__) /* only the threads that take part are here */
#if ATL_SW_OP == 2
      old = atomicInc((uint *)mem + t, 0xffffffffu); /* CUDA's increment: at this bound it wraps as add 1 */
#else
      old = atl_native_fetch(SW_DEV_OP, mem + t, v);
#endif
#elif ATL_SW_VARIANT == 0 && ATL_SW_OP == 2
      old = part ? atomic_inc(mem + t) : 0u;
#elif ATL_SW_VARIANT == 0
      old = part ? atl_native_fetch(SW_DEV_OP, mem + t, v) : 0u;
#endif
      old = part ? old : 0xffffffffu; /* OpenCL's calls give 0 to the work-items that sat out */
    }
#if ATL_SW_MEM
    dst[it * worker_items + gid] = src[it * worker_items + gid];
#endif
    if (record)
      olds[it * worker_items + gid] = old;
  }
#if ATL_SW_VARIANT == 2
  atl_sw_finish(&sw);
#endif
  (void)ws;
  (void)ss;
  (void)cs;
}

/*
 * The speedup model's device constants (seed 000, Section V), each timed at
 * two iteration counts so that the launch overhead cancels in the slope:
 *   mode 0, t_fast: one work-item chases `iters` dependent loads through
 *           `ring` (a random cycle larger than L1): one plain global access.
 *   mode 1, t_l:    one wave, every work-item adds 1 to one work-group word
 *           `iters` times: one serialized work-group atomic (the seed's N_c * t_l).
 *   mode 2, t_comp: the whole grid adds 1 to one global word `iters` times,
 *           each result used: one serialized global atomic (the seed's N * t_comp);
 *           each work-group's sum of the old values goes to sink[group].
 */
ATL_KERNEL void swcal(uint mode, uint iters, ATL_GLOBAL const uint *ring, volatile ATL_GLOBAL uint *word,
                      ATL_GLOBAL uint *sink)
{
  ATL_SHARED uint l;
  if (mode == 0u) {
#if defined(__CUDACC__) /* each twin's test for its one work-item (the same one) */
    if (blockIdx.x == 0 && threadIdx.x == 0) {
#else
    if (get_global_id(0) == 0) {
#endif
      uint i = 0;
      for (uint it = 0; it < iters; it++)
        i = ring[i];
      sink[0] = i;
    }
  } else if (mode == 1u) {
    if (atl_local_id() == 0)
      l = 0;
    atl_barrier_local();
    for (uint it = 0; it < iters; it++)
      atl_atomic_add(&l, 1u);
    atl_barrier_local();
    if (atl_local_id() == 0)
      sink[atl_group_id()] = l;
  } else {
    /* As the system variant's atomics: the returned values used (summed, the sum added to the work-group's
     * sink word at the end) and the address not provably uniform (mode - 1 is 1 here, but only at run time).
     * A uniform address with a constant operand lets the compiler aggregate a warp's 32 adds into one
     * (measured on an H200: t_comp 0.023 ns, 32x below the system kernel's same-word atomic). */
    uint olds = 0;
    const uint lane_word = (uint)atl_global_id() % (mode - 1u);
    for (uint it = 0; it < iters; it++)
      olds += atl_atomic_add(&word[lane_word], 1u);
    atl_atomic_add(&sink[atl_group_id()], olds);
  }
}
