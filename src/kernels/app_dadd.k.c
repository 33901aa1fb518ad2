/*
 * app_dadd.k.c: seed 004's double-precision add under contention, written
 * once for CUDA and OpenCL (OpenCL 1.2 has no native double atomic):
 *
 *   VARIANT_lock        spin lock per target with a per-thread done flag: the
 *                       thread that wins the lock runs the critical section
 *                       and releases it in the same branch (warp-safe)
 *   VARIANT_lock_naive  `while (xchg(lock, 1)) ;` then the critical section:
 *                       the seed's "don't use this code" (deadlocks where a
 *                       warp's lanes cannot make independent progress;
 *                       independent thread scheduling on sm_70+ lets it finish)
 *   VARIANT_cas         CAS loop on the 64-bit pattern of the double
 *   VARIANT_native      CUDA only: atomicAdd(double *) (sm_60+)
 *
 * Every thread adds addend(gid) `adds` times to data[gid % targets]. Every
 * wait is bounded by spin_bound; a thread that gives up sets *abort_flag and
 * every other waiter leaves too, so a deadlock becomes a reported status.
 * The lock is taken with a fence after acquiring and before releasing.
 *
 * Three things differ by language, by design (src/kernels/README.md), and
 * stay behind #if below: how the critical section reads and writes the
 * double, how the CAS loop first reads it, and how lock_naive learns that
 * its wait gave up.
 */
#include "atomlab/port.h"

#if !defined(__CUDACC__)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

/* Multiples of 0.5 up to 4: every partial sum is exact in double. */
ATL_INLINE double addend(uint gid) { return (double)((gid % 8u) + 1u) * 0.5; }

#if defined(__CUDACC__)
/* Inside the lock CUDA reads and writes the double through volatile, the
 * idiom its users write (__threadfence orders it, and L1 is bypassed).
 * Statements, not functions, in both languages: OpenCL's as a function
 * reorders the kernel's IR. */
#define LOCKED_ADD(p, v)                                                                                               \
  do {                                                                                                                 \
    volatile double *d_ = (volatile double *)(p);                                                                      \
    *d_ = *d_ + (v);                                                                                                   \
  } while (0)
/* The CAS loop's first read: a volatile load. */
#define FIRST_READ(p) (*(p))
/* lock_naive gave up: the flag its wait set. */
#define NAIVE_GAVE_UP(gave_up, spins) (gave_up)
#else
/* OpenCL reads and writes it with 64-bit atomics, performed where every
 * work-group sees them: its mem_fence is CTA-scope on NVIDIA (the
 * skiplist's reason), so a plain store would not publish the sum. */
#define LOCKED_ADD(p, v)                                                                                               \
  do {                                                                                                                 \
    ulong old_ = atom_add((p), 0ul);                                                                                   \
    atom_xchg((p), as_ulong(as_double(old_) + (v)));                                                                   \
  } while (0)
#define FIRST_READ(p) atom_add((p), 0ul)
/* lock_naive gave up: the bound or the abort flag, read again (a
 * work-item that took the lock just as another gave up leaves too, the lock
 * held: the row is a deadlock either way). One rule for both languages is a
 * decision for the app (it changes what runs on one side), not for a port. */
#define NAIVE_GAVE_UP(gave_up, spins) ((spins) >= spin_bound || *abort_flag)
#endif

ATL_KERNEL void double_add(volatile ATL_GLOBAL atl_u64 *data, volatile ATL_GLOBAL uint *locks, uint targets,
                           uint adds, uint spin_bound, volatile ATL_GLOBAL uint *abort_flag,
                           ATL_GLOBAL uint *retries)
{
  const uint gid = atl_global_id(), t = gid % targets;
  const double v = addend(gid);
  uint tries = 0;
  for (uint k = 0; k < adds; k++) {
#if defined(VARIANT_lock)
    int done = 0;
    uint spins = 0;
    while (!done) {
      if (atl_atomic_cas(&locks[t], 0u, 1u) == 0u) {
        atl_fence_device();
        LOCKED_ADD(&data[t], v);
        atl_fence_device();
        atl_atomic_xchg(&locks[t], 0u);
        done = 1;
      } else {
        tries++;
        if (++spins >= spin_bound || *abort_flag) {
          atl_atomic_xchg(abort_flag, 1u);
          break;
        }
      }
    }
    if (!done)
      break;
#elif defined(VARIANT_lock_naive)
    uint spins = 0;
    int gave_up = 0;
    while (atl_atomic_xchg(&locks[t], 1u) != 0u) {
      tries++;
      if (++spins >= spin_bound || *abort_flag) {
        atl_atomic_xchg(abort_flag, 1u);
        gave_up = 1;
        break;
      }
    }
    if (NAIVE_GAVE_UP(gave_up, spins))
      break;
    atl_fence_device();
    LOCKED_ADD(&data[t], v);
    atl_fence_device();
    atl_atomic_xchg(&locks[t], 0u);
#elif defined(VARIANT_cas)
    atl_u64 cur = FIRST_READ(&data[t]), old;
    uint spins = 0;
    do {
      old = cur;
      cur = atl_atomic_cas64(&data[t], old, atl_as_ulong(atl_as_double(old) + v));
      if (cur != old)
        tries++;
    } while (cur != old && ++spins < spin_bound);
    if (cur != old) {
      atl_atomic_xchg(abort_flag, 1u);
      break;
    }
#elif defined(VARIANT_native) && defined(__CUDACC__)
    atomicAdd((double *)&data[t], v);
#else
#error "define VARIANT_lock, VARIANT_lock_naive, VARIANT_cas or (CUDA) VARIANT_native"
#endif
  }
  retries[gid] = tries;
}
