/*
 * scatter_tma.cu: the in-run baseline for PyTorch's newest scatter-add method (its main branch sends
 * index_add_ and scatter_add along dim 0 on sm_90+ to such a kernel): a warp per source row, the row loaded into
 * shared memory by the bulk copy engine (cp.async.bulk, completing on an mbarrier), then added into its output
 * row by cp.reduce.async.bulk. One lane of each warp issues; two stages per warp let the next row's load run
 * while the last row's reduction reads its buffer. Built for sm_90 only (the app marks the row unsupported
 * elsewhere), with the app's defines: D, TYPE_f32 | TYPE_bf16 | TYPE_u32 | TYPE_i32, IDX_T, WARPS.
 *
 * A row must be a multiple of 16 bytes (the bulk copies' granule), as PyTorch's path also requires.
 */
typedef unsigned int u32;
typedef unsigned long long u64;
typedef unsigned long ulong;
typedef unsigned int uint;

#if defined(TYPE_f32)
typedef float T;
#define RED_TYPE "add.f32"
#elif defined(TYPE_bf16)
typedef unsigned short T;
#define RED_TYPE "add.noftz.bf16"
#elif defined(TYPE_u32)
typedef unsigned int T;
#define RED_TYPE "add.u32"
#elif defined(TYPE_i32)
typedef int T;
#define RED_TYPE "add.s32"
#else
#error "scatter_tma: f32, bf16, u32 or i32"
#endif

#define ROW_BYTES (D * sizeof(T))
#define STAGES 2

static __device__ __forceinline__ u32 smem_addr(const void *p) { return (u32)__cvta_generic_to_shared(p); }

static __device__ __forceinline__ void wait_phase(u32 bar, u32 phase)
{
  u32 done = 0;
  while (!done)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done)
                 : "r"(bar), "r"(phase)
                 : "memory");
}

extern "C" __global__ void __launch_bounds__(WARPS * 32) scatter_tma(const T *src, const IDX_T *idx, T *out,
                                                                     u64 rows, u32 rows_per_warp)
{
  __shared__ __align__(128) unsigned char buf[WARPS][STAGES][ROW_BYTES];
  __shared__ __align__(8) u64 bars[WARPS][STAGES];
  (void)rows_per_warp;
  const u32 lane = threadIdx.x % 32, w = threadIdx.x / 32;
  if (lane != 0)
    return; /* one thread per warp issues every copy; the engine moves the bytes */
  for (u32 s = 0; s < STAGES; s++)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_addr(&bars[w][s])) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  const u64 warps = (u64)gridDim.x * WARPS;
  u32 phase[STAGES] = {0, 0};
  u32 s = 0;
  for (u64 i = (u64)blockIdx.x * WARPS + w; i < rows; i += warps, s ^= 1) {
    const u32 b = smem_addr(buf[w][s]), bar = smem_addr(&bars[w][s]);
    /* the reduction that last read this stage's buffer (two rows ago) must have read it */
    asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"((u32)ROW_BYTES)
                 : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(b),
                 "l"(src + i * D), "r"((u32)ROW_BYTES), "r"(bar)
                 : "memory");
    const u64 k = (u64)idx[i];
    wait_phase(bar, phase[s]);
    phase[s] ^= 1;
    asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group." RED_TYPE " [%0], [%1], %2;" ::"l"(out + k * D),
                 "r"(b), "r"((u32)ROW_BYTES)
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  }
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}
