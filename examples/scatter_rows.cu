// A CUDA kernel that scatter-adds rows with the device header atomlab/scatter_device.h: a warp per 32
// consecutive source rows, runs of equal keys summed in registers before one atomic per column
// (atl_scatter_add_rows_warp_run), or one atomic per element (atl_scatter_add_row_warp); bf16 rows with one
// packed reduction per column pair (atl_scatter_add_row_warp_bf16).
// Build: nvcc -I<prefix>/include -c scatter_rows.cu   (examples/CMakeLists.txt does it where nvcc is found).
#include <atomlab/scatter_device.h>

extern "C" __global__ void scatter_rows(const float *src, const unsigned *keys, float *out, unsigned long long rows,
                                        unsigned dim, int aggregate)
{
  const unsigned long long warp = (blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x) / 32;
  const unsigned lane = threadIdx.x % 32, per_warp = 32;
  const unsigned long long first = warp * per_warp;
  if (first >= rows)
    return;
  const unsigned n = rows - first < per_warp ? (unsigned)(rows - first) : per_warp;
  if (aggregate)
    atl_scatter_add_rows_warp_run(out, keys, src, dim, lane, first, n);
  else
    for (unsigned long long i = first; i < first + n; i++)
      atl_scatter_add_row_warp(out, keys[i], &src[i * dim], dim, lane);
}

// The same for bf16 rows (stored as their bits): a column pair per lane, one packed bf16x2 reduction each
// (red.global.add.noftz.bf16x2 on sm_90; a CAS loop on the 32-bit word elsewhere).
extern "C" __global__ void scatter_rows_bf16(const unsigned short *src, const unsigned *keys, unsigned short *out,
                                             unsigned long long rows, unsigned dim)
{
  const unsigned long long warp = (blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x) / 32;
  const unsigned lane = threadIdx.x % 32;
  for (unsigned long long i = warp * 32; i < rows && i < warp * 32 + 32; i++)
    atl_scatter_add_row_warp_bf16(out, keys[i], &src[i * dim], dim, lane);
}
