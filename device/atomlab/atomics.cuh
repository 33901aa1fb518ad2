/*
 * atomlab/atomics.cuh: atomic strategies for your own CUDA kernels.
 *
 * Every primitive has fetch-and-op semantics: each calling thread gets back
 * the value the word held just before "its" update, as if its own atomic had
 * run; the old values of all threads on one word are exactly those of some
 * serial order of their updates. Ops (enum atl_opc): add, sub, min, max, and,
 * or, xor on unsigned 32-bit words (inc is add 1). docs/design/strategies.md gives
 * the design and the proof of each primitive.
 *
 *   atl_native_fetch(op, p, v)          one hardware atomic per thread
 *   atl_warp_fetch(op, p, v)            one atomic per distinct address per warp
 *   atl_block_fetch(op, p, v, participate, &scratch)
 *                                       one atomic per distinct address per block;
 *                                       EVERY thread of the block must call it
 *                                       (pass participate = false to opt out)
 *   atl_priv_begin / atl_priv_fetch / atl_priv_end / atl_priv_old
 *                                       per-block shared copies (histograms),
 *                                       merged with one atomic per bin
 *   atl_cas_fetch(op, p, v), atl_cas_add_f64, atl_cas_max_f32,
 *   ATL_CAS_FETCH(UT, p, old, NEW)      compare-and-swap loop, any op and type
 *   atl_lock_warp_fetch, atl_lock_thread_fetch, atl_spin_lock_fetch
 *                                       lock-protected plain read-modify-write
 *
 * Divergence: atl_native/warp/cas/lock_* may be called by any subset of a
 * warp (they use __activemask()). atl_block_* and atl_priv_* contain
 * __syncthreads(): all threads of the block must reach them.
 *
 * Waiting is bounded: the lock primitives take a struct atl_spin (a spin
 * bound and a global abort flag). A thread that sees the lock stuck (the
 * same held version) for `bound` tries in a row sets the flag, every
 * spinner that sees it gives up, and the primitive returns 0 (false): the
 * kernel finishes and the host reports `deadlock` instead of hanging.
 * Lock words start at 0 (even = free; see "locks" in atomics.h).
 *
 * Example (a counter where each thread needs its own ticket):
 *
 *   #include "atomlab/atomics.cuh"
 *   __global__ void tickets(unsigned *counter, unsigned *out, const int *want)
 *   {
 *     unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
 *     if (want[i])                                  // divergent is fine
 *       out[i] = atl_warp_fetch(ATL_ADD, counter, 1u);
 *     __shared__ atl_block_scratch s;               // block: everyone calls
 *     unsigned t = atl_block_fetch(ATL_ADD, counter, 1u, want[i] != 0, &s);
 *     if (want[i]) out[i] = t;
 *   }
 *
 * Needs sm_70 or newer (__match_any_sync); __reduce_*_sync is used on sm_80+.
 *
 * The library itself is atomlab/atomics.h, written once for CUDA and OpenCL
 * over atomlab/port.h (which this header brings in: with nvcc, ulong stays
 * glibc's unsigned long and atl_u64 is the 64-bit word); this header is
 * CUDA's entry to it. atomics.h also has the portable forms a kernel written
 * once for both languages calls (atl_wave_fetch, and atl_sw_* with
 * participate, scratch and a pointer to the atl_sw).
 */
#ifndef ATOMLAB_ATOMICS_CUH
#define ATOMLAB_ATOMICS_CUH

#if !defined(__CUDACC__)
#error "atomlab/atomics.cuh is for CUDA C (nvcc, NVRTC); an OpenCL C kernel includes atomlab/atomics.clh"
#endif
#include "atomlab/atomics.h"

#endif /* ATOMLAB_ATOMICS_CUH */
