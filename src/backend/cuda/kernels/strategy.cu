/*
 * strategy.cu: every strategy of the device library (device/atomlab/
 * atomics.cuh, inlined here at build time) on one access pattern, for
 * `atomlab strategy`. Defines:
 *
 *   STRATEGY=0..7   native, warp, block, privatized, cas, lock_warp,
 *                   lock_thread, spin_lock (leave it out to choose at run time)
 *   OPC=0..6        ATL_ADD ... ATL_XOR (leave it out to choose at run time)
 *   RESULT_USED=0|1 consume the old values (fold them into sink[], and record
 *                   each one when record_on is set, for the permutation check)
 *   PRIV_WORDS=N    shared bins the privatized strategy has room for; it
 *                   uses priv_words of them (the array's words)
 *
 * Each thread updates words[targets[gid]] `iters` times if active[gid] is
 * set; targets come from the host so the compiler cannot fold the pattern.
 * The lock of word i is locks[i]; state[0] is the abort flag every bounded
 * wait sets when it gives up.
 */
#include "atomlab/atomics.cuh"

#ifdef STRATEGY
#define SEL STRATEGY
#else
#define SEL strategy_arg
#endif
#ifdef OPC
#define OPV OPC
#else
#define OPV ((int)op_arg)
#endif
#ifndef PRIV_WORDS
#define PRIV_WORDS 32
#endif
#ifndef RESULT_USED
#define RESULT_USED 1
#endif

enum { S_NATIVE, S_WARP, S_BLOCK, S_PRIVATIZED, S_CAS, S_LOCK_WARP, S_LOCK_THREAD, S_SPIN_LOCK };

extern "C" __global__ void strategy(unsigned *words, unsigned *locks, const unsigned *targets, const unsigned *active,
                                    const unsigned *iters_p, unsigned *sink, unsigned *record, unsigned *state,
                                    unsigned spin_bound, unsigned record_on, unsigned strategy_arg, unsigned op_arg,
                                    unsigned operand, unsigned priv_words)
{
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x, threads = gridDim.x * blockDim.x;
  const unsigned t = targets[gid], iters = *iters_p;
  const bool act = active[gid] != 0u;
  unsigned *p = words + t;
  const struct atl_spin sp = {state, spin_bound};
  unsigned acc = 0;
#if !defined(STRATEGY) || STRATEGY == 2
  __shared__ struct atl_block_scratch scratch;
#endif
#if !defined(STRATEGY) || STRATEGY == 3
  __shared__ unsigned bins[PRIV_WORDS];
  if (SEL == S_PRIVATIZED)
    atl_priv_begin(OPV, bins, priv_words);
#endif
  (void)locks;
  (void)sp;
  (void)priv_words;
  for (unsigned i = 0; i < iters; i++) {
    unsigned old = 0;
    bool ok = true;
    switch (SEL) {
    case S_NATIVE:
      if (act)
        old = atl_native_fetch(OPV, p, operand);
      break;
    case S_WARP:
      if (act)
        old = atl_warp_fetch(OPV, p, operand);
      break;
#if !defined(STRATEGY) || STRATEGY == 2
    case S_BLOCK: /* every thread calls: barriers inside */
      old = atl_block_fetch(OPV, p, operand, act, &scratch);
      break;
#endif
#if !defined(STRATEGY) || STRATEGY == 3
    case S_PRIVATIZED:
      if (act)
        old = atl_priv_fetch(OPV, bins, t, operand);
      break;
#endif
    case S_CAS:
      if (act)
        old = atl_cas_fetch(OPV, p, operand);
      break;
    case S_LOCK_WARP:
      if (act)
        ok = atl_lock_warp_fetch(OPV, p, operand, locks + t, &sp, &old);
      break;
    case S_LOCK_THREAD:
      if (act)
        ok = atl_lock_thread_fetch(OPV, p, operand, locks + t, &sp, &old);
      break;
    default:
      if (act)
        ok = atl_spin_lock_fetch(OPV, p, operand, locks + t, &sp, &old);
      break;
    }
    if (!ok)
      break; /* a bounded wait gave up: state[0] tells the host */
#if RESULT_USED
    if (act) {
      if (record_on)
        record[(size_t)i * threads + gid] = old;
      acc += old;
    }
#endif
  }
#if !defined(STRATEGY) || STRATEGY == 3
  if (SEL == S_PRIVATIZED) {
    atl_priv_end(OPV, bins, words, priv_words, RESULT_USED != 0);
#if RESULT_USED
    if (act && record_on) /* local old values become global ones */
      for (unsigned i = 0; i < iters; i++)
        record[(size_t)i * threads + gid] = atl_priv_old(OPV, bins, t, record[(size_t)i * threads + gid]);
    acc += bins[t];
#endif
  }
#endif
#if RESULT_USED
  if (act)
    sink[gid] = acc;
#else
  (void)sink;
  (void)record;
  (void)record_on;
  (void)acc;
  (void)threads;
#endif
}

/*
 * cas_types: the CAS loops on other types, for the tests. Thread gid
 * updates slot targets[gid] of each array once and records the old value:
 * a double add of 1.0, a float max with (gid % 7) - 3, and a user-supplied
 * combine through ATL_CAS_FETCH (x * 3 + 1).
 */
extern "C" __global__ void cas_types(double *dbl, float *flt, unsigned *usr, const unsigned *targets, double *old_dbl,
                                     float *old_flt, unsigned *old_usr)
{
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x, t = targets[gid];
  old_dbl[gid] = atl_cas_add_f64(dbl + t, 1.0);
  old_flt[gid] = atl_cas_max_f32(flt + t, (float)(gid % 7u) - 3.0f);
  unsigned old;
  ATL_CAS_FETCH(unsigned, usr + t, old, old * 3u + 1u);
  old_usr[gid] = old;
}
