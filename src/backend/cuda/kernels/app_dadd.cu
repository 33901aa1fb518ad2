/*
 * app_dadd.cu: seed 004's double add under contention for CUDA (NVRTC), with
 * the variants of app_dadd.cl plus the native atomicAdd(double *):
 *
 *   VARIANT_lock        spin lock per target, per-thread done flag (warp-safe)
 *   VARIANT_lock_naive  `while (atomicExch(lock, 1)) ;` (the seed's "don't use
 *                       this code"; independent thread scheduling on sm_70+
 *                       lets it finish, older GPUs deadlock)
 *   VARIANT_cas         atomicCAS loop on the 64-bit pattern
 *   VARIANT_native      atomicAdd(double *) (sm_60+)
 *
 * Every wait is bounded by spin_bound and a shared abort flag (status deadlock).
 * Inside the lock the double is read and written through volatile with
 * __threadfence() after acquiring and before releasing.
 */
typedef unsigned long long u64;

/* Multiples of 0.5 up to 4: every partial sum is exact in double. */
__device__ __forceinline__ double addend(unsigned gid) { return (double)((gid % 8u) + 1u) * 0.5; }

extern "C" __global__ void double_add(u64 *data, unsigned *locks, unsigned targets, unsigned adds, unsigned spin_bound,
                                      volatile unsigned *abort_flag, unsigned *retries)
{
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x, t = gid % targets;
  const double v = addend(gid);
  unsigned tries = 0;
  for (unsigned k = 0; k < adds; k++) {
#if defined(VARIANT_lock)
    bool done = false;
    unsigned spins = 0;
    while (!done) {
      if (atomicCAS(&locks[t], 0u, 1u) == 0u) {
        __threadfence();
        volatile double *d = reinterpret_cast<volatile double *>(&data[t]);
        *d = *d + v;
        __threadfence();
        atomicExch(&locks[t], 0u);
        done = true;
      } else {
        tries++;
        if (++spins >= spin_bound || *abort_flag) {
          atomicExch((unsigned *)abort_flag, 1u);
          break;
        }
      }
    }
    if (!done)
      break;
#elif defined(VARIANT_lock_naive)
    unsigned spins = 0;
    bool gave_up = false;
    while (atomicExch(&locks[t], 1u) != 0u) {
      tries++;
      if (++spins >= spin_bound || *abort_flag) {
        atomicExch((unsigned *)abort_flag, 1u);
        gave_up = true;
        break;
      }
    }
    if (gave_up)
      break;
    __threadfence();
    volatile double *d = reinterpret_cast<volatile double *>(&data[t]);
    *d = *d + v;
    __threadfence();
    atomicExch(&locks[t], 0u);
#elif defined(VARIANT_cas)
    u64 cur = *reinterpret_cast<volatile u64 *>(&data[t]), old;
    unsigned spins = 0;
    do {
      old = cur;
      cur = atomicCAS(&data[t], old, (u64)__double_as_longlong(__longlong_as_double((long long)old) + v));
      if (cur != old)
        tries++;
    } while (cur != old && ++spins < spin_bound);
    if (cur != old) {
      atomicExch((unsigned *)abort_flag, 1u);
      break;
    }
#elif defined(VARIANT_native)
    atomicAdd(reinterpret_cast<double *>(&data[t]), v);
#else
#error "define VARIANT_lock, VARIANT_lock_naive, VARIANT_cas or VARIANT_native"
#endif
  }
  retries[gid] = tries;
}
