/*
 * strategy.cl: every strategy of the device library (device/atomlab/
 * atomics.clh, inlined here at build time) on one access pattern, for
 * `atomlab strategy`. Defines as strategy.cu:
 *
 *   STRATEGY=0..7   native, warp (wavefront groups in local memory), block,
 *                   privatized, cas, lock_warp (not in OpenCL), lock_thread,
 *                   spin_lock (leave it out to choose at run time)
 *   OPC=0..6        ATL_ADD ... ATL_XOR (leave it out to choose at run time)
 *   RESULT_USED=0|1 consume the old values (sink[], and record[] when record_on)
 *   PRIV_WORDS=N    local bins the privatized strategy has room for
 *
 * Each work-item updates words[targets[gid]] `iters` times if active[gid]
 * is set. The lock of word i is locks[i]; state[0] is the abort flag every
 * bounded wait sets when it gives up.
 */
#include "atomlab/atomics.clh"

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

__kernel void strategy(__global uint *words, __global uint *locks, __global const uint *targets,
                       __global const uint *active, __global const uint *iters_p, __global uint *sink,
                       __global uint *record, __global uint *state, uint spin_bound, uint record_on,
                       uint strategy_arg, uint op_arg, uint operand, uint priv_words)
{
  const uint gid = get_global_id(0), threads = get_global_size(0);
  const uint t = targets[gid], iters = *iters_p;
  const int act = active[gid] != 0u;
  volatile __global uint *p = words + t;
  struct atl_spin sp;
  sp.abort = state;
  sp.bound = spin_bound;
  uint acc = 0;
#if !defined(STRATEGY) || STRATEGY == 1 || STRATEGY == 2
  __local struct atl_group_scratch scratch;
#endif
#if !defined(STRATEGY) || STRATEGY == 3
  __local uint bins[PRIV_WORDS];
  if (SEL == S_PRIVATIZED)
    atl_priv_begin(OPV, bins, priv_words);
#endif
  for (uint i = 0; i < iters; i++) {
    uint old = 0;
    int ok = 1;
    switch (SEL) {
    case S_NATIVE:
      if (act)
        old = atl_native_fetch(OPV, p, operand);
      break;
#if !defined(STRATEGY) || STRATEGY == 1 || STRATEGY == 2
    case S_WARP: /* every work-item calls: barriers inside */
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
    case S_LOCK_THREAD:
      if (act)
        ok = atl_lock_thread_fetch(OPV, p, operand, locks + t, &sp, &old);
      break;
    case S_SPIN_LOCK:
      if (act)
        ok = atl_spin_lock_fetch(OPV, p, operand, locks + t, &sp, &old);
      break;
    default: /* lock_warp needs warp primitives OpenCL C 1.2 lacks (the host refuses it) */
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
#endif
}

/*
 * cas_types: the CAS loops on other types, for the tests. Work-item gid
 * updates slot targets[gid] of each array once and records the old value:
 * a double add of 1.0, a float max with (gid % 7) - 3, and a user-supplied
 * combine through ATL_CAS_FETCH (x * 3 + 1).
 */
__kernel void cas_types(__global double *dbl, __global float *flt, __global uint *usr, __global const uint *targets,
                        __global double *old_dbl, __global float *old_flt, __global uint *old_usr)
{
  const uint gid = get_global_id(0), t = targets[gid];
#ifdef ATL_HAVE_CAS_F64
  old_dbl[gid] = atl_cas_add_f64(dbl + t, 1.0);
#else
  (void)dbl;
  (void)old_dbl;
#endif
  old_flt[gid] = atl_cas_max_f32(flt + t, (float)(gid % 7u) - 3.0f);
  volatile __global uint *u = usr + t;
  uint old;
  ATL_CAS_FETCH(uint, atomic_cmpxchg, u, old, old * 3u + 1u);
  old_usr[gid] = old;
}
