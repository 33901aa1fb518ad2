/*
 * histogram_lib.k.c: atl_histogram's two small steps around the histogram app's kernel (src/apps/histogram_lib.c),
 * written once for CUDA and OpenCL: the last bytes of an input whose length is not a multiple of 16 (the app's
 * kernel reads 16 bytes a work-item), and 32-bit counts added into 64-bit bins.
 */
#include "atomlab/port.h"

/* Bytes from .. bytes - 1 (fewer than 16) counted into the 32-bit bins, one work-item each. */
ATL_KERNEL void hist_tail(ATL_GLOBAL const uchar *in, ulong from, ulong bytes, ATL_GLOBAL uint *hist)
{
  const ulong i = from + atl_global_id();
  if (i < bytes)
    atl_atomic_inc(&hist[in[i]]);
}

/* out[b] += counts[b] for the 256 bins. */
ATL_KERNEL void hist_widen(ATL_GLOBAL const uint *counts, ATL_GLOBAL ulong *out)
{
  const uint b = atl_global_id();
  if (b < 256u)
    out[b] += counts[b];
}
