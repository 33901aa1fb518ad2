// A CUDA kernel that counts weighted keys into bins with the device header atomlab/bincount_device.h: the
// bins in a table of 32-bit counters spread over a thread-block cluster's shared memory (sm_90: 16 blocks of
// WORDS words, so 2^19 bins with 128 KiB a block), every block adding into any block's slice through the
// distributed shared memory, then each block adding its slice to the output; keys past the table go to the
// output by global atomics in the same pass (the app's dsm variant: 0.647 ms against global atomics' 0.828
// for 64 M uniform keys into 2^20 bins on an H100, docs/design/scatter.md). Before sm_90
// (and with ATL_DSM_CLUSTER 1) the same source keeps one table per block. bincount16 is the 16-bit form (two
// bins a word: twice the bins a table holds), exact for any weight.
// Launch: blocks a multiple of 16, BLOCK threads each, WORDS x 4 bytes of dynamic shared memory (opt in with
// cudaFuncSetAttribute(..., cudaFuncAttributeMaxDynamicSharedMemorySize, ...), and
// cudaFuncAttributeNonPortableClusterSizeAllowed for 16 blocks a cluster); out zeroed first.
// Build: nvcc -arch=sm_90 -I<prefix>/include -c bincount_dsm.cu   (examples/CMakeLists.txt does it where nvcc is
// found).
#define ATL_DSM_CLUSTER 16
#include <atomlab/bincount_device.h>

#define LOG2_WORDS 15u
#define WORDS (1u << LOG2_WORDS)
#define BLOCK 1024

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define CLUSTER __cluster_dims__(ATL_DSM_CLUSTER, 1, 1)
#else
#define CLUSTER
#endif

extern "C" __global__ void CLUSTER __launch_bounds__(BLOCK)
    bincount32(const unsigned *weights, const unsigned *keys, unsigned *out, unsigned long long rows,
               unsigned long long bins)
{
  extern __shared__ unsigned table[];
  const unsigned lid = threadIdx.x, span = WORDS * ATL_DSM_CLUSTER;
  for (unsigned w = lid; w < WORDS; w += blockDim.x)
    table[w] = 0;
  atl_dsm_sync(); // every slice of the table zero before any block adds into it
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + lid; i < rows;
       i += (unsigned long long)gridDim.x * blockDim.x) {
    const unsigned k = keys[i];
    if (k < span)
      atl_dsm_red(table, k >> LOG2_WORDS, k & (WORDS - 1u), weights[i]); // block k / WORDS's slice
    else if (k < bins)
      atomicAdd(&out[k], weights[i]); // past the table: the L2's atomics, side by side
  }
  atl_dsm_sync(); // every add into this block's slice done
  atl_bincount_flush(out, table, WORDS, 0, atl_dsm_rank(), bins < span ? bins : span, 1, lid, blockDim.x);
}

// The 16-bit table: 2 x WORDS x 16 bins; a weight's upper bits go straight to the output and what a counter
// loses to a carry or a wrap is put right from the old word (atl_bincount16_add_fixed).
extern "C" __global__ void CLUSTER __launch_bounds__(BLOCK)
    bincount16(const unsigned *weights, const unsigned *keys, unsigned *out, unsigned long long rows,
               unsigned long long bins)
{
  extern __shared__ unsigned table[];
  const unsigned lid = threadIdx.x, span = 2u * WORDS * ATL_DSM_CLUSTER;
  for (unsigned w = lid; w < WORDS; w += blockDim.x)
    table[w] = 0;
  atl_dsm_sync();
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + lid; i < rows;
       i += (unsigned long long)gridDim.x * blockDim.x) {
    const unsigned k = keys[i];
    if (k < span && k < bins)
      atl_bincount16_add_fixed(out, table, LOG2_WORDS, k, k, weights[i], bins);
    else if (k < bins)
      atomicAdd(&out[k], weights[i]);
  }
  atl_dsm_sync();
  atl_bincount_flush(out, table, WORDS, 0, atl_dsm_rank(), bins, 0, lid, blockDim.x);
}
