/*
 * scatter_check.k.c: the keys' check of the library's scatter operations (src/apps/scatter_guard.c), written once
 * for CUDA and OpenCL.
 *
 * The check (scatter_key_check) finds the lowest row whose key lies outside [0, targets) before any output word
 * is written: one read of the keys, a grid-stride loop whose work-items stop at their first bad key, and an
 * atomic min of that row into bad[0] (0xffffffff before it: no bad row) only where one was found, so valid keys
 * cost no atomic. The operation's kernels read bad[0] at their start and return where it is set
 * (atomlab/key_guard.h): nothing is written. scatter_key_bad then records the error for the host's message, the
 * first one only (bad[3] 0: none recorded yet): the row in bad[4], its key in bad[1] (low half) and bad[2] (high
 * half), the operation's targets in bad[5] and bad[6], then bad[3] = 1 (src/apps/scatter_guard.c). bad[7] counts the
 * check's work-groups done.
 *
 *   IDX_T=uint|ulong  the keys' type
 */
#include "atomlab/port.h"

/* A key is bad where, read as unsigned 64 bits, it is at or past targets: an int64 key below 0 is then past it. The
 * last work-group to finish (bad[7] counts them) copies bad[0] to seen[at] (pinned host memory where the backend maps
 * it, so the host reads it without a copy: src/apps/scatter_guard.c). */
ATL_KERNEL void scatter_key_check(ATL_GLOBAL const IDX_T *ATL_RESTRICT idx, ulong rows, ulong targets,
                                  ATL_GLOBAL volatile uint *bad, ATL_GLOBAL uint *seen, uint at)
{
  const ulong stride = atl_global_size64();
  for (ulong i = atl_global_id64(); i < rows; i += stride)
    if ((ulong)idx[i] >= targets) { /* this work-item's lowest: rows < 2^32, so the row fits */
      atl_atomic_min(&bad[0], (uint)i);
      break;
    }
  if (atl_last_group(&bad[7])) /* every work-item's min is in */
    seen[at] = atl_atomic_add(&bad[0], 0u);
}

ATL_KERNEL void scatter_key_bad(ATL_GLOBAL const IDX_T *ATL_RESTRICT idx, ATL_GLOBAL uint *bad, ulong targets)
{
  if (atl_global_id() != 0 || bad[0] == 0xffffffffu || bad[3] != 0u)
    return;
  const ulong k = (ulong)idx[bad[0]];
  bad[1] = (uint)k;
  bad[2] = (uint)(k >> 32);
  bad[4] = bad[0];
  bad[5] = (uint)targets;
  bad[6] = (uint)(targets >> 32);
  bad[3] = 1u;
}
