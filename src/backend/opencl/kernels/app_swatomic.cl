/*
 * app_swatomic.cl: seed 000's micro-benchmark 1 (atomic only) with the
 * system atomic_add, the wavefront-aggregated atl_wave_fetch and the
 * software atomic add atl_sw_add of device/atomlab/atomics.clh.
 *
 * The last work-group is the coordinator in every variant (it idles for
 * system and wave), so each variant does the same work: every work-item of
 * the other work-groups adds 1 to mem[gid % targets] `iters` times (only
 * every work-item with gid % 3 != 1 when `divergent`), and with `record`
 * stores each old value at olds[it * worker_items + gid] (0xffffffff where
 * it sat out). variant: 0 system, 1 wave-aggregated, 2 software.
 */
#include "atomlab/atomics.clh"

__kernel void swatomic(volatile __global uint *mem, uint targets, uint iters, uint variant, uint divergent,
                       uint record, __global uint *olds, volatile __global ulong *req,
                       volatile __global uint *finished, volatile __global uint *abort_flag, uint bound)
{
  __local struct atl_group_scratch ws;
  __local struct atl_sw_scratch ss;
  __local struct atl_sw_coord cs;
  const struct atl_sw sw = {req, finished, abort_flag, bound};
  const uint workers = (uint)get_num_groups(0) - 1u, lsize = (uint)get_local_size(0);
  const uint worker_items = workers * lsize;
  if (get_group_id(0) == workers) {
    if (variant == 2u)
      atl_sw_coordinate(mem, &cs, &sw, (lsize + ATL_WAVEFRONT - 1u) / ATL_WAVEFRONT);
    return;
  }
  const uint gid = (uint)get_global_id(0), t = gid % targets;
  const int part = !divergent || gid % 3u != 1u;
  for (uint it = 0; it < iters; it++) {
    uint old;
    if (variant == 2u)
      old = atl_sw_add(mem, t, 1u, part, &ss, &sw);
    else if (variant == 1u)
      old = atl_wave_fetch(ATL_ADD, mem + t, 1u, part, &ws);
    else
      old = part ? atomic_add(mem + t, 1u) : 0u;
    if (record)
      olds[it * worker_items + gid] = part ? old : 0xffffffffu;
  }
  if (variant == 2u)
    atl_sw_finish(&sw);
}
