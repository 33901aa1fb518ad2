/* An OpenCL C kernel over atomlab's device library: every work-item that wants
 * one takes a ticket from one counter, with one atomic per work-group
 * (atl_block_fetch) instead of one per work-item. Built with -I <prefix>/include. */
#include "atomlab/atomics.clh"

__kernel void tickets(__global uint *counter, __global uint *out, __global const int *want)
{
  __local struct atl_group_scratch s; /* kernel scope, as OpenCL requires */
  uint i = get_global_id(0);
  uint t = atl_block_fetch(ATL_ADD, counter, 1u, want[i] != 0, &s); /* every work-item calls */
  out[i] = want[i] ? t : 0xffffffffu;
}
