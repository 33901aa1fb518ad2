/*
 * strategy.k.c: every strategy of the device library (device/atomlab/
 * atomics.h, inlined here at build time) on one access pattern, for
 * `atomlab strategy`, written once for CUDA and OpenCL. Defines:
 *
 *   STRATEGY=0..7   native, warp (OpenCL: groups of ATL_WAVEFRONT work-items
 *                   in local memory), block, privatized, cas, lock_warp (CUDA
 *                   only), lock_thread, spin_lock (leave it out to choose at
 *                   run time)
 *   OPC=0..6        ATL_ADD ... ATL_XOR (leave it out to choose at run time)
 *   RESULT_USED=0|1 consume the old values (fold them into sink[], and record
 *                   each one when record_on is set, for the permutation check)
 *   PRIV_WORDS=N    work-group bins the privatized strategy has room for; it
 *                   uses priv_words of them (the array's words)
 *
 * Each work-item updates words[targets[gid]] `iters` times if active[gid] is
 * set; targets come from the host so the compiler cannot fold the pattern.
 * warp and block follow the library's portable rule (every work-item calls,
 * `act` says who updates); on CUDA warp is atl_warp_fetch by the active
 * threads. The lock of word i is locks[i]; state[0] is the abort flag every
 * bounded wait sets when it gives up.
 */
#include "atomlab/atomics.h"

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

ATL_KERNEL void strategy(ATL_GLOBAL uint *words, ATL_GLOBAL uint *locks, ATL_GLOBAL const uint *targets,
                         ATL_GLOBAL const uint *active, ATL_GLOBAL const uint *iters_p, ATL_GLOBAL uint *sink,
                         ATL_GLOBAL uint *record, ATL_GLOBAL uint *state, uint spin_bound, uint record_on,
                         uint strategy_arg, uint op_arg, uint operand, uint priv_words)
{
  const uint gid = atl_global_id(), threads = atl_global_size();
  const uint t = targets[gid], iters = *iters_p;
  const int act = active[gid] != 0u;
  ATL_GLOBAL uint *p = words + t;
  const struct atl_spin sp = {state, spin_bound};
  uint acc = 0;
#if !defined(STRATEGY) || STRATEGY == 1 || STRATEGY == 2
  ATL_SHARED atl_block_scratch scratch; /* CUDA's warp leaves it unused: the compiler drops it */
#endif
#if !defined(STRATEGY) || STRATEGY == 3
  ATL_SHARED uint bins[PRIV_WORDS];
  if (SEL == S_PRIVATIZED)
    atl_priv_begin(OPV, bins, priv_words);
#endif
  (void)locks;
  (void)sp;
  (void)priv_words;
  for (uint i = 0; i < iters; i++) {
    uint old = 0;
    int ok = 1;
    switch (SEL) {
    case S_NATIVE:
      if (act)
        old = atl_native_fetch(OPV, p, operand);
      break;
#if !defined(STRATEGY) || STRATEGY == 1 || STRATEGY == 2
    case S_WARP: /* every work-item calls (OpenCL: barriers inside) */
      old = atl_wave_fetch(OPV, p, operand, act, &scratch);
      break;
    case S_BLOCK:
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
    case S_LOCK_WARP: /* warp primitives OpenCL C 1.2 lacks: the host refuses it there */
#if defined(__CUDACC__)
      if (act)
        ok = atl_lock_warp_fetch(OPV, p, operand, locks + t, &sp, &old);
#endif
      break;
    case S_LOCK_THREAD:
      if (act)
        ok = atl_lock_thread_fetch(OPV, p, operand, locks + t, &sp, &old);
      break;
    default: /* S_SPIN_LOCK */
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
      for (uint i = 0; i < iters; i++)
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
 * cas_types: the CAS loops on other types, for the tests. Work-item gid
 * updates slot targets[gid] of each array once and records the old value:
 * a double add of 1.0 (where the device has 64-bit atomics and doubles), a
 * float max with (gid % 7) - 3, and a user-supplied combine through
 * ATL_CAS_LOOP (x * 3 + 1).
 */
ATL_KERNEL void cas_types(ATL_GLOBAL double *dbl, ATL_GLOBAL float *flt, ATL_GLOBAL uint *usr,
                          ATL_GLOBAL const uint *targets, ATL_GLOBAL double *old_dbl, ATL_GLOBAL float *old_flt,
                          ATL_GLOBAL uint *old_usr)
{
  const uint gid = atl_global_id(), t = targets[gid];
#ifdef ATL_HAVE_CAS_F64
  old_dbl[gid] = atl_cas_add_f64(dbl + t, 1.0);
#else
  (void)dbl;
  (void)old_dbl;
#endif
  old_flt[gid] = atl_cas_max_f32(flt + t, (float)(gid % 7u) - 3.0f);
  volatile ATL_GLOBAL uint *u = usr + t;
  uint old;
  ATL_CAS_LOOP(uint, atl_atomic_cas, u, old, old * 3u + 1u);
  old_usr[gid] = old;
}
