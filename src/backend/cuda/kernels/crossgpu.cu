/*
 * crossgpu.cu: k GPUs adding 1 to the same words (the crossgpu app,
 * src/apps/crossgpu.c). Every GPU runs this kernel at once with its own
 * RANK; global thread ids interleave the GPUs (g = tid * ngpus + rank), so
 * threads g and g+1, which the contention groups together, sit on different
 * GPUs. Thread g updates word (g / contention) * padding, iters times.
 *
 *   SCOPE_system | SCOPE_device   atomicAdd_system (atom/red .sys) or atomicAdd (.gpu), the control that is not
 *                                 meant to be atomic across GPUs
 *   RESULT_USED                   the old values are used (ATOM): folded per thread into their sum and sum of
 *                                 squares, which the host checks against a permutation of 0..h-1 per word;
 *                                 otherwise the compiler emits a reduction (RED)
 */
typedef unsigned int u32;
typedef unsigned long long u64;

/* ADD1: the add whose old value is used (ATOM); RED1: the reduction, written as PTX so that RED is what runs
 * whatever the compiler would make of an atomic whose result is dropped. */
#if defined(SCOPE_system)
#define ADD1(p) atomicAdd_system(p, 1u)
#define RED1(p) asm volatile("red.relaxed.sys.global.add.u32 [%0], 1;" ::"l"(p) : "memory")
#elif defined(SCOPE_device)
#define ADD1(p) atomicAdd(p, 1u)
#define RED1(p) asm volatile("red.relaxed.gpu.global.add.u32 [%0], 1;" ::"l"(p) : "memory")
#else
#error "define SCOPE_system or SCOPE_device"
#endif

extern "C" __global__ void crossgpu(u32 *words, u64 *sink, u32 iters, u32 rank, u32 ngpus, u32 contention,
                                    u32 padding)
{
  const u32 tid = blockIdx.x * blockDim.x + threadIdx.x;
  const u64 g = (u64)tid * ngpus + rank;
  u32 *p = words + (g / contention) * padding;
#if RESULT_USED
  u64 s1 = 0, s2 = 0;
  for (u32 i = 0; i < iters; i++) {
    const u64 old = ADD1(p);
    s1 += old;
    s2 += old * old;
  }
  sink[2 * (u64)tid] = s1;
  sink[2 * (u64)tid + 1] = s2;
#else
  for (u32 i = 0; i < iters; i++)
    RED1(p);
  (void)sink;
#endif
}
