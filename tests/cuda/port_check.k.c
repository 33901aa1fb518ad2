/*
 * port_check.k.c: every word of atomlab/port.h in one kernel, so that a
 * mistake in a part no atomlab kernel uses yet (an atomic on int, the 64-bit
 * ops: templates compile only where called) fails here and not in the next
 * port. test_nvrtc_kernels compiles it for sm_80 and sm_90; it is OpenCL C
 * too (clang -x cl -cl-std=CL1.2 -Idevice).
 */
#include "atomlab/port.h"
ATL_INLINE uint twice(uint v) { return 2u * v; }
ATL_FUNC void ops32u(volatile ATL_GLOBAL uint *p, uint v)
{
  v += atl_atomic_add(p, v) + atl_atomic_sub(p, v) + atl_atomic_inc(p) + atl_atomic_dec(p) + atl_atomic_xchg(p, v);
  v += atl_atomic_cas(p, v, 1u) + atl_atomic_min(p, v) + atl_atomic_max(p, v) + atl_atomic_and(p, v);
  p[1] = v + atl_atomic_or(p, v) + atl_atomic_xor(p, 0u);
}
ATL_FUNC void ops32i(volatile ATL_GLOBAL int *p, int v)
{
  v += atl_atomic_add(p, v) + atl_atomic_sub(p, v) + atl_atomic_inc(p) + atl_atomic_dec(p) + atl_atomic_xchg(p, v);
  v += atl_atomic_cas(p, v, 1) + atl_atomic_min(p, v) + atl_atomic_max(p, v) + atl_atomic_and(p, v);
  p[1] = v + atl_atomic_or(p, v) + atl_atomic_xor(p, 0);
}
ATL_FUNC void ops64(volatile ATL_GLOBAL ulong *p, ulong v)
{
  v += atl_atomic_add64(p, v) + atl_atomic_sub64(p, v) + atl_atomic_xchg64(p, v) + atl_atomic_cas64(p, v, 1ul);
  v += atl_atomic_min64(p, v) + atl_atomic_max64(p, v) + atl_atomic_and64(p, v) + atl_atomic_or64(p, v);
  p[1] = v + atl_atomic_xor64(p, v);
}
ATL_KERNEL void port_check(volatile ATL_GLOBAL uint *u, volatile ATL_GLOBAL int *i, volatile ATL_GLOBAL ulong *l,
                           const ATL_GLOBAL uint *ATL_RESTRICT in, ATL_GLOBAL uint *out)
{
  ATL_SHARED uint scratch[64];
  ATL_LOCAL uint *s = scratch;
  const uint lid = atl_local_id(), gid = atl_global_id();
  s[lid % 64u] = atl_ldg(&in[gid]);
  atl_barrier_local();
  ops32u(u, s[(lid + 1u) % 64u]);
  ops32i(i, (int)lid);
  ops64(l, (ulong)gid);
  atl_fence_group();
  atl_fence_device();
  atl_barrier();
  out[gid] = twice(s[0]) + (uint)atl_group_id() + (uint)atl_num_groups() + (uint)atl_local_size() +
             (uint)atl_global_size() + ATL_FENCE_DEVICE_SCOPE;
}
