/*
 * app_dadd.cl: seed 004's double-precision add under contention, built from
 * what OpenCL 1.2 offers (no native double atomic):
 *
 *   VARIANT_lock        spin lock per target with a per-thread done flag: the
 *                       thread that wins the lock runs the critical section
 *                       and releases it in the same branch (warp-safe)
 *   VARIANT_lock_naive  `while (xchg(lock, 1)) ;` then the critical section:
 *                       the seed's "don't use this code" (deadlocks where a
 *                       warp's lanes cannot make independent progress)
 *   VARIANT_cas         CAS loop on the 64-bit pattern of the double
 *
 * Every thread adds addend(gid) `adds` times to data[gid % targets]. Every
 * wait is bounded by spin_bound; a thread that gives up sets *abort_flag and
 * every other waiter leaves too, so a deadlock becomes a reported status.
 * Inside the lock the double is read and written with 64-bit atomics, which
 * are performed where every work-group sees them (no stale cached copy).
 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

/* Multiples of 0.5 up to 4: every partial sum is exact in double. */
inline double addend(uint gid) { return (double)((gid % 8u) + 1u) * 0.5; }

__kernel void double_add(volatile __global ulong *data, volatile __global uint *locks, uint targets, uint adds,
                         uint spin_bound, volatile __global uint *abort_flag, __global uint *retries)
{
  const uint gid = get_global_id(0), t = gid % targets;
  const double v = addend(gid);
  uint tries = 0;
  for (uint k = 0; k < adds; k++) {
#if defined(VARIANT_lock)
    int done = 0;
    uint spins = 0;
    while (!done) {
      if (atomic_cmpxchg(&locks[t], 0u, 1u) == 0u) {
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        ulong old = atom_add(&data[t], 0ul);
        atom_xchg(&data[t], as_ulong(as_double(old) + v));
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        atomic_xchg(&locks[t], 0u);
        done = 1;
      } else {
        tries++;
        if (++spins >= spin_bound || *abort_flag) {
          atomic_xchg(abort_flag, 1u);
          break;
        }
      }
    }
    if (!done)
      break;
#elif defined(VARIANT_lock_naive)
    uint spins = 0;
    while (atomic_xchg(&locks[t], 1u) != 0u) {
      tries++;
      if (++spins >= spin_bound || *abort_flag) {
        atomic_xchg(abort_flag, 1u);
        break;
      }
    }
    if (spins >= spin_bound || *abort_flag)
      break;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    ulong old = atom_add(&data[t], 0ul);
    atom_xchg(&data[t], as_ulong(as_double(old) + v));
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    atomic_xchg(&locks[t], 0u);
#elif defined(VARIANT_cas)
    ulong cur = atom_add(&data[t], 0ul), old;
    uint spins = 0;
    do {
      old = cur;
      cur = atom_cmpxchg(&data[t], old, as_ulong(as_double(old) + v));
      if (cur != old)
        tries++;
    } while (cur != old && ++spins < spin_bound);
    if (cur != old) {
      atomic_xchg(abort_flag, 1u);
      break;
    }
#else
#error "define VARIANT_lock, VARIANT_lock_naive or VARIANT_cas"
#endif
  }
  retries[gid] = tries;
}
