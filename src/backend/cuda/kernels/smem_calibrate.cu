/*
 * smem_calibrate.cu: the micro-benchmark behind the shared-memory atomic
 * queuing model (seed 002, section 3.2). One configuration (n, e, c) per SM:
 * n warps each issue ONE shared-memory atomic warp-instruction with e active
 * lanes, c of the n warps a CAS and the others a fetch-and-add. T(n, e, c)
 * is the time from the first thread's start to the last thread's finish,
 * read with clock64 (a per-SM counter: only clocks of one SM are compared).
 *
 * Every SM of the device measures its own configuration in the same launch,
 * cfg[smid]; the grid is two blocks per SM of half the SM's resident threads
 * each (1024 on an H100), so every SM holds exactly two when the grid is
 * resident. Warps a configuration does not need exit at once, so only the
 * n measured warps are resident while the clock runs. n above one block's
 * warps needs both blocks of an SM: the first to arrive takes warps 0..W-1,
 * the second W..n-1 (W = warps per block).
 *
 * All measured warps start together: the first block to arrive on an SM
 * sets a per-SM gate (its clock plus `delay` cycles) and every measured warp
 * spins until the clock passes it. A warp that reaches the gate after it
 * opened marks the SM late, and the host measures that configuration again.
 *
 * Each warp targets its own word (lanes of a warp share it: the e lanes of a
 * job conflict fully, as in the seed's solid-colour histogram), so the final
 * state is exact: a fetch-and-add word holds e * inc, a CAS word holds 1.
 *
 * RESULT_USED=1: atomicAdd's old value is consumed (ATOMS.ADD). RESULT_USED=0:
 * the result is unused and inc is the constant 1, which sm_80+ compiles to
 * ATOMS.POPC.INC; its completion is observed by a load of the same word
 * (ordered after the atomic for the same thread), so T of this variant
 * includes that one load's latency.
 *
 * state, per SM slot (8 words): 0 gate, 1 UINT64_MAX - first start,
 * 2 last finish, 3 blocks arrived, 4 warps measured, 5 flags (1 late,
 * 2 spin bound, 4 an SM id beyond the slots), 6 wrong words, 7 unused.
 */
#ifndef RESULT_USED
#define RESULT_USED 1
#endif

#define SLOT_WORDS 8
#define FLAG_LATE 1ull
#define FLAG_SPIN 2ull
#define FLAG_SMID 4ull

__device__ static unsigned sm_id(void)
{
  unsigned r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}

__device__ static unsigned long long clock_now(void)
{
  unsigned long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}

extern "C" __global__ void __launch_bounds__(1024, 2)
    smem_calibrate(const unsigned *cfg, unsigned long long *state, unsigned nslots, unsigned inc, unsigned delay)
{
  __shared__ unsigned words[32];
  __shared__ unsigned long long gate_s;
  __shared__ unsigned slot_s;
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const unsigned sm = sm_id();
  if (sm >= nslots) { /* uniform for the block: no barrier is skipped by part of it */
    if (threadIdx.x == 0)
      atomicOr(&state[(unsigned long long)nslots * SLOT_WORDS + 5], FLAG_SMID);
    return;
  }
  unsigned long long *s = state + (unsigned long long)sm * SLOT_WORDS;
  if (threadIdx.x == 0) {
    const unsigned long long mine = clock_now() + delay;
    const unsigned long long g = atomicCAS(&s[0], 0ull, mine);
    gate_s = g == 0ull ? mine : g;
    slot_s = (unsigned)atomicAdd(&s[3], 1ull);
  }
  if (threadIdx.x < 32)
    words[threadIdx.x] = 0u;
  __syncthreads();
  const unsigned c = cfg[sm];
  const unsigned n = c & 0xffu, e = (c >> 8) & 0xffu, ncas = (c >> 16) & 0xffu;
  const unsigned slot = slot_s;
  const unsigned j = slot * (blockDim.x / 32u) + warp; /* this warp's index among the n */
  if (n == 0u || slot > 1u || j >= n)
    return;
  /* c CAS warps spread evenly over the n (Bresenham), not bunched in one block */
  const bool is_cas = ((j + 1u) * ncas) / n > (j * ncas) / n;
  const bool active = lane < e;
  const unsigned long long gate = gate_s;
  unsigned long long t = clock_now();
  const bool late = t >= gate;
  unsigned spins = 0;
  bool spun_out = false;
  while (t < gate) {
    t = clock_now();
    if (++spins > delay) { /* the clock advances at least once per read */
      spun_out = true;
      break;
    }
  }
  const unsigned long long start = clock_now();
#if RESULT_USED
  unsigned old = 0u;
  if (active)
    old = is_cas ? atomicCAS(&words[warp], 0u, 1u) : atomicAdd(&words[warp], inc);
  const unsigned seen = old;
#else
  if (active) {
    if (is_cas)
      atomicCAS(&words[warp], 0u, 1u);
    else
      atomicAdd(&words[warp], 1u);
  }
  const unsigned seen = *(volatile unsigned *)&words[warp];
#endif
  /* A branch on the value waits for it: the finish is read after the atomic completed. */
  if (seen > 0x7fffffffu)
    atomicOr(&s[5], FLAG_SPIN);
  const unsigned long long finish = clock_now();

  /* verification (after the clock stopped) */
  __syncwarp();
  const unsigned final_value = *(volatile unsigned *)&words[warp];
  unsigned long long bad = 0;
#if RESULT_USED
  unsigned long long sum = active ? old : 0u;
  for (int o = 16; o > 0; o /= 2)
    sum += __shfl_xor_sync(0xffffffffu, sum, o);
  const unsigned long long want_sum =
      is_cas ? (unsigned long long)(e - 1u) : (unsigned long long)inc * e * (e - 1u) / 2u;
  bad += sum != want_sum;
  const unsigned want_final = is_cas ? 1u : inc * e;
#else
  const unsigned want_final = is_cas ? 1u : e;
#endif
  bad += final_value != want_final;
  unsigned long long first = start, last = finish;
  for (int o = 16; o > 0; o /= 2) {
    const unsigned long long a = __shfl_xor_sync(0xffffffffu, first, o);
    const unsigned long long b = __shfl_xor_sync(0xffffffffu, last, o);
    first = a < first ? a : first;
    last = b > last ? b : last;
  }
  const bool flagged = __any_sync(0xffffffffu, late || spun_out);
  const bool spun_any = __any_sync(0xffffffffu, spun_out);
  if (lane == 0u) {
    atomicMax(&s[1], ~first);
    atomicMax(&s[2], last);
    atomicAdd(&s[4], 1ull);
    if (bad)
      atomicAdd(&s[6], 1ull);
    if (flagged)
      atomicOr(&s[5], spun_any ? FLAG_SPIN : FLAG_LATE);
  }
}
