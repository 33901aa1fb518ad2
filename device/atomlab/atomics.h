/*
 * atomlab/atomics.h: atomlab's device library, written once over
 * atomlab/port.h for CUDA C and OpenCL C 1.2. docs/design/strategies.md gives the
 * design and the proof of each primitive. A user's kernel includes it
 * through atomlab/atomics.cuh or atomlab/atomics.clh, whose comments list
 * each language's primitives with an example; a kernel written once over
 * port.h (src/kernels/) includes it directly.
 *
 * Most of it is one text for both languages: the algebra of the ops, the
 * native fetch, privatization, the histogram columns and their merges, the
 * CAS loops, the bounded locks and the software atomic's coordinator. What
 * the two ISAs do differently has a section per language:
 *   CUDA    warp aggregation (__match_any_sync, shuffles) and the block
 *           aggregation over it, the warp-serialised lock, the software
 *           atomic's requester (any subset of a warp calls it), the byte
 *           histograms' PRMT (__byte_perm);
 *   OpenCL  aggregation in local memory (OpenCL C 1.2 has no sub-group vote
 *           or shuffle) and the software atomic's requester over barriers.
 *
 * The portable calling rule, the one a kernel written once follows, is
 * OpenCL's: every work-item of the work-group calls, `participate` says
 * which ones update, and the scratch is work-group memory at kernel scope:
 *   ATL_SHARED atl_block_scratch s;      ATL_SHARED atl_sw_scratch ss;
 *   atl_wave_fetch(op, p, v, participate, &s)    one atomic per address per wave
 *   atl_block_fetch(op, p, v, participate, &s)   one atomic per address per work-group
 *   atl_sw_fetch(op, mem, idx, v, participate, &ss, &sw), atl_sw_add, atl_sw_inc
 *   atl_sw_finish(&sw), atl_sw_coordinate(mem, &coord, &sw, atl_sw_waves(lsize))
 * On CUDA these are thin: a thread with participate = 0 does not call the
 * warp primitive under it (atl_warp_fetch, or the atl_sw_fetch that takes
 * the atl_sw by reference), which any subset of a warp may call, and the
 * scratch of atl_wave_fetch and atl_sw_* is unused (the compiler drops it).
 * Every other primitive may be called by any subset of work-items, except
 * those with a barrier inside (atl_priv_begin / _end, the histogram merges,
 * the software atomic's coordinator), which every work-item calls.
 *
 * The functions are declared as each language's header had them: CUDA's
 * __device__ __forceinline__ (the software atomic's plain __device__),
 * OpenCL's plain functions, so that no kernel compiles differently for being
 * over this one text.
 */
#ifndef ATOMLAB_ATOMICS_H
#define ATOMLAB_ATOMICS_H

#include "atomlab/port.h"

#if defined(__CUDACC__)
#define ATL__DEV __device__ __forceinline__
#define ATL__DEVFN __device__
#else
#define ATL__DEV
#define ATL__DEVFN
#endif

/** The operations. Sub aggregates its operands by addition. */
enum atl_opc { ATL_ADD, ATL_SUB, ATL_MIN, ATL_MAX, ATL_AND, ATL_OR, ATL_XOR };

/* ---- the algebra of each op ------------------------------------------------ */

/** The value x with x op v == v for every v (what a work-item with no predecessor combines). */
ATL__DEV uint atl_identity(int op) { return op == ATL_MIN || op == ATL_AND ? 0xffffffffu : 0u; }

/* CUDA's header wrote the select, which NVVM folds into a conditional
 * combine (warp aggregation's prefix) otherwise than min(); OpenCL's had
 * its builtin. */
#if defined(__CUDACC__)
#define ATL__MIN(a, b) ((a) < (b) ? (a) : (b))
#define ATL__MAX(a, b) ((a) > (b) ? (a) : (b))
#else
#define ATL__MIN(a, b) min(a, b)
#define ATL__MAX(a, b) max(a, b)
#endif

/** How two operands aggregate (sub: operands add up). */
ATL__DEV uint atl_combine(int op, uint a, uint b)
{
  switch (op) {
  case ATL_MIN: return ATL__MIN(a, b);
  case ATL_MAX: return ATL__MAX(a, b);
  case ATL_AND: return a & b;
  case ATL_OR: return a | b;
  case ATL_XOR: return a ^ b;
  default: return a + b; /* add, sub */
  }
}

/** The word after applying an aggregate of operands to @p x. */
ATL__DEV uint atl_apply(int op, uint x, uint agg) { return op == ATL_SUB ? x - agg : atl_combine(op, x, agg); }

/** One hardware atomic on global memory (CUDA: any memory), returning the old value. */
ATL__DEV uint atl_native_fetch(int op, volatile ATL_GLOBAL uint *p, uint v)
{
  switch (op) {
  case ATL_SUB: return atl_atomic_sub(p, v);
  case ATL_MIN: return atl_atomic_min(p, v);
  case ATL_MAX: return atl_atomic_max(p, v);
  case ATL_AND: return atl_atomic_and(p, v);
  case ATL_OR: return atl_atomic_or(p, v);
  case ATL_XOR: return atl_atomic_xor(p, v);
  default: return atl_atomic_add(p, v);
  }
}

#if defined(__CUDACC__)

/** The work-group-memory atomic that aggregates operands (sub: add); CUDA's pointers are generic. */
ATL__DEV uint atl__local_combine(int op, volatile uint *p, uint v)
{
  return atl_native_fetch(op == ATL_SUB ? ATL_ADD : op, p, v);
}

ATL__DEV int atl__block_tid(void) { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
ATL__DEV uint atl__flat_lid(void) { return atl__block_tid(); }
ATL__DEV uint atl__flat_lsize(void) { return blockDim.x * blockDim.y * blockDim.z; }

/* ---- warp aggregation (CUDA) ------------------------------------------------ */

/** Rounds of block aggregation before the remaining addresses fall back to one atomic per warp group. */
#ifndef ATL_BLOCK_ROUNDS
#define ATL_BLOCK_ROUNDS 4
#endif

ATL__DEV unsigned atl__lane(void)
{
  unsigned r;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}

ATL__DEV unsigned atl__lanemask_lt(void)
{
  unsigned r;
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(r));
  return r;
}

/** A thread's view of the lanes of its warp that target the same word. */
struct atl_warp_group {
  unsigned peers;  /**< lanes calling with the same address (this one included) */
  unsigned leader; /**< lowest lane of peers: it issues the atomic */
  unsigned excl;   /**< combination of the operands of lower peers (identity for the leader) */
  unsigned total;  /**< combination of every peer's operand */
};

/**
 * Groups the active lanes by address and computes each lane's exclusive
 * prefix and the group total. Every lane of a group computes with the same
 * mask, so groups may proceed independently.
 */
ATL__DEV struct atl_warp_group atl_warp_group_of(int op, const void *p, unsigned v)
{
  struct atl_warp_group g;
  const unsigned mask = __activemask();
  g.peers = __match_any_sync(mask, (unsigned long long)p);
  g.leader = __ffs(g.peers) - 1;
  const unsigned rank = __popc(g.peers & atl__lanemask_lt()), n = __popc(g.peers);
  int uniform = 0;
  __match_all_sync(g.peers, v, &uniform);
  if (uniform) { /* the common case (counters): closed forms, no shuffles */
    switch (op) {
    case ATL_ADD:
    case ATL_SUB:
      g.excl = rank * v;
      g.total = n * v;
      break;
    case ATL_XOR:
      g.excl = rank & 1u ? v : 0u;
      g.total = n & 1u ? v : 0u;
      break;
    default: /* min, max, and, or are idempotent */
      g.excl = rank ? v : atl_identity(op);
      g.total = v;
    }
    return g;
  }
  /* Different operands: each peer reads every peer's operand in lane order. */
  const unsigned lane = atl__lane();
  g.excl = atl_identity(op);
  g.total = atl_identity(op);
  for (unsigned m = g.peers; m; m &= m - 1) {
    const unsigned src = __ffs(m) - 1;
    const unsigned x = __shfl_sync(g.peers, v, src);
    if (src < lane)
      g.excl = atl_combine(op, g.excl, x);
    g.total = atl_combine(op, g.total, x);
  }
  return g;
}

/**
 * Warp-aggregated fetch-and-op: the lowest lane of each address group issues
 * one atomic with the group's total, and every lane gets base op (its
 * exclusive prefix). Any subset of the warp may call; lanes may pass
 * different addresses and operands.
 */
ATL__DEV unsigned atl_warp_fetch(int op, unsigned *p, unsigned v)
{
  const struct atl_warp_group g = atl_warp_group_of(op, p, v);
  unsigned base = 0;
  if (atl__lane() == g.leader)
    base = atl_native_fetch(op, p, g.total);
  base = __shfl_sync(g.peers, base, g.leader);
  return atl_apply(op, base, g.excl);
}

/**
 * The warp-aggregated increment of one counter that every active lane adds
 * @p v to (the caller promises the same address): no match, one popc and
 * one shuffle. Old values as atl_warp_fetch.
 */
ATL__DEV unsigned atl_warp_inc_same(unsigned *counter, unsigned v)
{
  const unsigned mask = __activemask();
  const unsigned leader = __ffs(mask) - 1, rank = __popc(mask & atl__lanemask_lt());
  unsigned base = 0;
  if (atl__lane() == leader)
    base = atomicAdd(counter, __popc(mask) * v);
  return __shfl_sync(mask, base, leader) + rank * v;
}

/** Sum of @p v over the active lanes that share @p p (one instruction on sm_80+). */
ATL__DEV unsigned atl_warp_sum(const void *p, unsigned v)
{
  const unsigned peers = __match_any_sync(__activemask(), (unsigned long long)p);
#if __CUDA_ARCH__ >= 800
  return __reduce_add_sync(peers, v);
#else
  unsigned s = 0;
  for (unsigned m = peers; m; m &= m - 1)
    s += __shfl_sync(peers, v, __ffs(m) - 1);
  return s;
#endif
}

/* ---- block aggregation (seed 001; CUDA) ------------------------------------- */

/** Shared memory one atl_block_fetch call site needs: declare it __shared__. */
struct atl_block_scratch {
  unsigned long long addr; /**< the address of this round */
  unsigned agg;            /**< the block's aggregate for it */
  unsigned base;           /**< what the one global atomic returned */
  int cand;                /**< the thread that issues it (first by atomicMin) */
};

/**
 * Block-aggregated fetch-and-op. Every thread of the block must call it
 * (it synchronises the block); threads with @p participate false take no
 * part and get 0. Warps aggregate first; then, in up to ATL_BLOCK_ROUNDS
 * rounds, the block picks one pending address, the warp groups on it add
 * their totals in shared memory (the shared atomic hands each its offset)
 * and one thread issues the global atomic. Addresses left after the rounds
 * use one atomic per warp group.
 */
ATL__DEV unsigned atl_block_fetch(int op, unsigned *p, unsigned v, bool participate, struct atl_block_scratch *s)
{
  const int tid = atl__block_tid();
  struct atl_warp_group g = {0u, 0u, 0u, 0u};
  bool pending = false;
  unsigned base = 0;
  if (participate) {
    g = atl_warp_group_of(op, p, v);
    pending = atl__lane() == g.leader;
  }
  __syncthreads(); /* the previous call's readers of *s are done */
  if (tid == 0)
    s->cand = 0x7fffffff;
  __syncthreads();
  for (int round = 0; round < ATL_BLOCK_ROUNDS; round++) {
    if (pending)
      atomicMin(&s->cand, tid);
    __syncthreads();
    const int cand = s->cand;
    if (cand == 0x7fffffff)
      break; /* uniform: every thread read the same value */
    if (tid == cand) {
      s->addr = (unsigned long long)p;
      s->agg = atl_identity(op);
    }
    __syncthreads();
    if (tid == 0)
      s->cand = 0x7fffffff; /* for the next round; everyone has read it */
    const bool mine = pending && s->addr == (unsigned long long)p;
    unsigned off = 0;
    if (mine)
      off = atl__local_combine(op, &s->agg, g.total);
    __syncthreads();
    if (tid == cand)
      s->base = atl_native_fetch(op, p, s->agg);
    __syncthreads();
    if (mine) {
      base = atl_apply(op, s->base, off);
      pending = false;
    }
  }
  if (pending) /* more addresses than rounds: this group goes alone */
    base = atl_native_fetch(op, p, g.total);
  if (!participate)
    return 0;
  base = __shfl_sync(g.peers, base, g.leader);
  return atl_apply(op, base, g.excl);
}

/**
 * The portable form of warp aggregation (every thread calls, @p participate
 * says who updates; see the top of this file): atl_warp_fetch by the
 * threads that take part, 0 for the others. @p s is unused.
 */
ATL__DEV unsigned atl_wave_fetch(int op, volatile unsigned *p, unsigned v, int participate,
                                 struct atl_block_scratch *s)
{
  (void)s;
  return participate ? atl_warp_fetch(op, (unsigned *)p, v) : 0u;
}

#else /* OpenCL C */

/** Work-items per aggregation group of atl_wave_fetch (the SIMD width to imitate). */
#ifndef ATL_WAVEFRONT
#define ATL_WAVEFRONT 32
#endif
/** Groups one scratch holds: work-groups up to ATL_MAX_GROUPS * ATL_WAVEFRONT work-items. */
#ifndef ATL_MAX_GROUPS
#define ATL_MAX_GROUPS 32
#endif
/** Distinct addresses aggregated per call and group; the rest use one atomic each. */
#ifndef ATL_GROUP_ROUNDS
#define ATL_GROUP_ROUNDS 4
#endif
#define ATL__NONE 0x7fffffff

/** The local-memory atomic that aggregates operands (sub: add). */
uint atl__local_combine(int op, volatile __local uint *p, uint v)
{
  switch (op) {
  case ATL_MIN: return atomic_min(p, v);
  case ATL_MAX: return atomic_max(p, v);
  case ATL_AND: return atomic_and(p, v);
  case ATL_OR: return atomic_or(p, v);
  case ATL_XOR: return atomic_xor(p, v);
  default: return atomic_add(p, v);
  }
}

uint atl__flat_lid(void)
{
  return (uint)(get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2)));
}

uint atl__flat_lsize(void) { return (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2)); }

/* ---- group aggregation: wavefront- and work-group-sized (OpenCL) ------------- */

/** Local memory for atl_wave_fetch / atl_block_fetch: declare it __local at kernel scope. */
struct atl_group_scratch {
  ulong addr[ATL_MAX_GROUPS]; /**< each group's address of this round */
  uint agg[ATL_MAX_GROUPS];   /**< the group's aggregate for it */
  uint base[ATL_MAX_GROUPS];  /**< what the group's one global atomic returned */
  int cand[ATL_MAX_GROUPS];   /**< the dominant work-item: the first to claim the slot */
  int any;                    /**< whether any work-item is still pending */
};
/** The name CUDA's scratch has, for kernels written once. */
typedef struct atl_group_scratch atl_block_scratch;

/**
 * Aggregation in groups of @p group_size consecutive work-items. Each round,
 * the first pending work-item of a group to claim its slot (a local
 * cmpxchg) becomes dominant and names the address; the pending work-items
 * on that address combine their operands with a local atomic (which hands
 * each the combination of those before it), the dominant one issues the
 * global atomic, and everyone applies its offset to the returned base.
 * Every work-item of the work-group must call it.
 */
uint atl_group_fetch(int op, volatile __global uint *p, uint v, int participate, __local struct atl_group_scratch *s,
                     uint group_size)
{
  const uint tid = atl__flat_lid(), lsize = atl__flat_lsize(), g = tid / group_size;
  int pending = participate;
  uint result = 0;
  barrier(CLK_LOCAL_MEM_FENCE); /* the previous call's readers of *s are done */
  for (uint b = 0; b < ATL_MAX_GROUPS; b += lsize) /* trip count uniform over the group */
    if (b + tid < ATL_MAX_GROUPS)
      s->cand[b + tid] = ATL__NONE;
  if (tid == 0)
    s->any = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int round = 0; round < ATL_GROUP_ROUNDS; round++) {
    if (pending) {
      atomic_cmpxchg((volatile __local int *)&s->cand[g], ATL__NONE, (int)tid);
      atomic_xchg(&s->any, 1);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int any = s->any, cand = s->cand[g];
    if (!any)
      break; /* uniform: every work-item read the same flag */
    if ((int)tid == cand) {
      s->addr[g] = (ulong)p;
      s->agg[g] = atl_identity(op);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (tid == 0)
      s->any = 0; /* for the next round: everyone has read it */
    if ((int)tid == cand)
      s->cand[g] = ATL__NONE;
    const int mine = pending && s->addr[g] == (ulong)p;
    uint off = 0;
    if (mine)
      off = atl__local_combine(op, &s->agg[g], v);
    barrier(CLK_LOCAL_MEM_FENCE);
    if ((int)tid == cand)
      s->base[g] = atl_native_fetch(op, p, s->agg[g]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (mine) {
      result = atl_apply(op, s->base[g], off);
      pending = 0;
    }
  }
  if (pending) /* more addresses than rounds: one atomic each */
    result = atl_native_fetch(op, p, v);
  return participate ? result : 0u;
}

/** One atomic per address per ATL_WAVEFRONT work-items (work-groups of at most ATL_MAX_GROUPS wavefronts). */
#define atl_wave_fetch(op, p, v, participate, s) atl_group_fetch((op), (p), (v), (participate), (s), ATL_WAVEFRONT)

/** One atomic per address per work-group. */
#define atl_block_fetch(op, p, v, participate, s) atl_group_fetch((op), (p), (v), (participate), (s), atl__flat_lsize())

#endif /* group aggregation */

/* ---- privatization (histograms) -------------------------------------------- */

/** Sets the work-group's @p n bins in work-group memory to the op's identity. Every work-item calls it. */
ATL__DEV void atl_priv_begin(int op, ATL_LOCAL uint *bins, uint n)
{
#if defined(__CUDACC__)
  const uint lsize = atl__flat_lsize();
  for (uint i = atl__flat_lid(); i < n; i += lsize)
    bins[i] = atl_identity(op);
#else
  const uint tid = atl__flat_lid(), lsize = atl__flat_lsize();
  for (uint b = 0; b < n; b += lsize) /* OpenCL's header kept the trip count uniform over the group */
    if (b + tid < n)
      bins[b + tid] = atl_identity(op);
#endif
  atl_barrier_local();
}

/** Updates the work-group's copy of bin @p i; returns the work-group-local old value (see atl_priv_old). */
ATL__DEV uint atl_priv_fetch(int op, volatile ATL_LOCAL uint *bins, uint i, uint v)
{
  return atl__local_combine(op, &bins[i], v);
}

/**
 * Merges the work-group's bins into @p dst with one atomic per bin. With
 * @p keep_old each bin then holds the global value before the work-group's
 * updates, for atl_priv_old; without it untouched (identity) bins are
 * skipped. Every work-item calls it.
 */
ATL__DEV void atl_priv_end(int op, ATL_LOCAL uint *bins, volatile ATL_GLOBAL uint *dst, uint n, int keep_old)
{
#if defined(__CUDACC__)
  const uint lsize = atl__flat_lsize();
  atl_barrier_local();
  for (uint i = atl__flat_lid(); i < n; i += lsize)
    if (keep_old || bins[i] != atl_identity(op))
      bins[i] = atl_native_fetch(op, &dst[i], bins[i]);
#else
  const uint tid = atl__flat_lid(), lsize = atl__flat_lsize();
  atl_barrier_local();
  for (uint b = 0; b < n; b += lsize) { /* as in atl_priv_begin */
    const uint i = b + tid;
    if (i < n && (keep_old || bins[i] != atl_identity(op)))
      bins[i] = atl_native_fetch(op, &dst[i], bins[i]);
  }
#endif
  atl_barrier_local();
}

/** The global old value of an update whose atl_priv_fetch returned @p local_old (after atl_priv_end with keep_old). */
ATL__DEV uint atl_priv_old(int op, ATL_LOCAL const uint *bins, uint i, uint local_old)
{
  return atl_apply(op, bins[i], local_old);
}

/* ---- histograms at memory speed (docs/design/histogram.md measures them) ---------- */

/**
 * Per-lane columns for up to a few hundred bins: @p cols holds bins x 32
 * words of work-group memory, zeroed; bin b of lane l (the local id % 32) is
 * word b * 32 + l, shared by every warp of the work-group. 32 consecutive
 * work-items always hit 32 different banks, whatever the keys, and on CUDA
 * the constant increment compiles to ATOMS.POPC.INC, so solid and uniform
 * keys cost the same (0.93x the read bandwidth of an H200 for 8-bit keys;
 * atl_hist_bytes_add4 below is faster for those).
 */
ATL__DEV void atl_hist_lane_add(volatile ATL_LOCAL uint *cols, uint bin)
{
  atl_atomic_inc(&cols[bin * 32u + (atl_local_id() & 31u)]);
}

/**
 * Adds the columns into @p hist (global bins) and zeroes them; every
 * work-item of the work-group calls it. Work-item t's j-th read is column
 * (j + t) % 32, so 32 consecutive work-items read 32 banks.
 */
ATL__DEV void atl_hist_lane_merge(ATL_LOCAL uint *cols, ATL_GLOBAL uint *hist, uint bins)
{
  atl_barrier_local();
  const uint lid = atl_local_id();
  for (uint b = lid; b < bins; b += atl_local_size()) {
    uint sum = 0;
    for (uint j = 0; j < 32u; j++) {
      const uint idx = b * 32u + ((j + lid) & 31u);
      sum += cols[idx];
      cols[idx] = 0;
    }
    if (sum)
      atl_atomic_add(&hist[b], sum);
  }
  atl_barrier_local();
}

/**
 * 8-bit keys at one byte permute (CUDA; OpenCL: a shift and an or) and one
 * atomic per key. @p cols is ATL_HIST_BYTES_SIZE bytes of work-group memory,
 * zeroed: 256 bins x 64 columns of 32-bit counters, bin b of column c at
 * byte offset b * 256 + c * 4. So a key's address is the key itself as the
 * second byte above the column's byte offset, which one PRMT (__byte_perm)
 * builds; per-lane's b * 128 + lane * 4 took a shift, a mask and an add per
 * key, and those integer instructions, not the atomics, capped it on an
 * H200. A work-item's column is its local id % 64 (lane plus 32 for odd
 * warps: atl_hist_bytes_column): 32 consecutive work-items hit 32 different
 * banks whatever the keys, and each column is shared by half the warps. A
 * work-group may count up to 2^32 - 1 keys between merges.
 */
#define ATL_HIST_BYTES_SIZE 65536u

/** The calling work-item's column (local id % 64) as a byte offset (below 256). */
ATL__DEV uint atl_hist_bytes_column(void) { return (atl_local_id() & 63u) * 4u; }

/**
 * RGBA pixels (4 channels x 256 bins, bin c * 256 + b) with the same one
 * permute per key: @p cols is ATL_HIST_RGBA_SIZE bytes of work-group memory,
 * zeroed, 32 lane columns per channel. Channel c's bin b of lane l (local id
 * % 32) is at byte offset (c >> 1) * 65536 + b * 256 + (c & 1) * 128 + l * 4:
 * channels 0 and 1 share the 256-byte rows of the first 64 KiB, 2 and 3 of
 * the second, so the address is again the key as the second byte above a
 * column byte (lane * 4, plus 128 for odd channels) plus a constant. Every
 * warp shares the columns. A work-group may count up to 2^32 - 1 pixels
 * between merges.
 */
#define ATL_HIST_RGBA_SIZE 131072u

#if defined(__CUDACC__)
/** Counts the four 8-bit keys of @p w; @p col is atl_hist_bytes_column(). */
ATL__DEV void atl_hist_bytes_add4(unsigned *cols, unsigned col, unsigned w)
{
  char *base = (char *)cols;
  /* selector nibbles, low byte first: col's byte 0, w's byte k, then col's byte 1 (zero) twice */
  atomicAdd((unsigned *)(base + __byte_perm(w, col, 0x5504u)), 1u);
  atomicAdd((unsigned *)(base + __byte_perm(w, col, 0x5514u)), 1u);
  atomicAdd((unsigned *)(base + __byte_perm(w, col, 0x5524u)), 1u);
  atomicAdd((unsigned *)(base + __byte_perm(w, col, 0x5534u)), 1u);
}

/** Counts the four channels of pixel @p px (R in byte 0); @p lane4 is (threadIdx.x % 32) * 4. */
ATL__DEV void atl_hist_rgba_add(unsigned *cols, unsigned lane4, unsigned px)
{
  char *base = (char *)cols;
  const unsigned odd = lane4 | 128u; /* the odd channels' column byte */
  atomicAdd((unsigned *)(base + __byte_perm(px, lane4, 0x5504u)), 1u);
  atomicAdd((unsigned *)(base + __byte_perm(px, odd, 0x5514u)), 1u);
  atomicAdd((unsigned *)(base + 65536u + __byte_perm(px, lane4, 0x5524u)), 1u);
  atomicAdd((unsigned *)(base + 65536u + __byte_perm(px, odd, 0x5534u)), 1u);
}
#else
/** Counts the four 8-bit keys of @p w; @p col is atl_hist_bytes_column(). */
void atl_hist_bytes_add4(volatile __local uint *cols, uint col, uint w)
{
  volatile __local uchar *base = (volatile __local uchar *)cols;
  atomic_inc((volatile __local uint *)(base + (((w << 8) & 0xff00u) | col)));
  atomic_inc((volatile __local uint *)(base + ((w & 0xff00u) | col)));
  atomic_inc((volatile __local uint *)(base + (((w >> 8) & 0xff00u) | col)));
  atomic_inc((volatile __local uint *)(base + (((w >> 16) & 0xff00u) | col)));
}

/** Counts the four channels of pixel @p px (R in byte 0); @p lane4 is (local id % 32) * 4. */
void atl_hist_rgba_add(volatile __local uint *cols, uint lane4, uint px)
{
  volatile __local uchar *base = (volatile __local uchar *)cols;
  atomic_inc((volatile __local uint *)(base + (((px << 8) & 0xff00u) | lane4)));
  atomic_inc((volatile __local uint *)(base + ((px & 0xff00u) | 128u | lane4)));
  atomic_inc((volatile __local uint *)(base + 65536u + (((px >> 8) & 0xff00u) | lane4)));
  atomic_inc((volatile __local uint *)(base + 65536u + (((px >> 16) & 0xff00u) | 128u | lane4)));
}
#endif

/**
 * Adds the 64 columns into @p hist (256 global bins); every work-item of the
 * work-group calls it. Item i sums half i % 2 of bin i / 2, its j-th read at
 * column (j + i) % 32 of that half, so 32 consecutive items read 32 banks.
 */
ATL__DEV void atl_hist_bytes_merge(ATL_LOCAL const uint *cols, ATL_GLOBAL uint *hist)
{
  atl_barrier_local();
  for (uint i = atl_local_id(); i < 512u; i += atl_local_size()) {
    ATL_LOCAL const uint *part = cols + (i >> 1) * 64u + (i & 1u) * 32u;
    uint sum = 0;
    for (uint j = 0; j < 32u; j++)
      sum += part[(j + i) & 31u];
    if (sum)
      atl_atomic_add(&hist[i >> 1], sum);
  }
}

/** Adds the columns into @p hist (1024 global bins, channel-major); every work-item of the work-group calls it. */
ATL__DEV void atl_hist_rgba_merge(ATL_LOCAL const uint *cols, ATL_GLOBAL uint *hist)
{
  atl_barrier_local();
  for (uint i = atl_local_id(); i < 1024u; i += atl_local_size()) {
    const uint c = i >> 8, b = i & 255u;
    ATL_LOCAL const uint *row = cols + (c >> 1) * 16384u + b * 64u + (c & 1u) * 32u;
    uint sum = 0;
    for (uint j = 0; j < 32u; j++)
      sum += row[(j + i) & 31u];
    if (sum)
      atl_atomic_add(&hist[i], sum);
  }
}

/**
 * 16-bit work-group counters for large bin counts (65,536 bins in 128 KiB
 * of work-group memory sized at launch): bin b is half (b & 1) of
 * @p halves[b / 2]. The add that takes a counter from 0x7fff to 0x8000
 * (exactly one: atomics return distinct old values) moves 0x8000 to the
 * global bin, so no counter overflows and none is flushed early.
 */
ATL__DEV void atl_hist16_add(volatile ATL_LOCAL uint *halves, ATL_GLOBAL uint *hist, uint bin)
{
  const uint sh = (bin & 1u) << 4;
  const uint old = atl_atomic_add(&halves[bin >> 1], 1u << sh);
  if (((old >> sh) & 0xffffu) == 0x7fffu) {
    atl_atomic_sub(&halves[bin >> 1], 0x8000u << sh);
    atl_atomic_add(&hist[bin], 0x8000u);
  }
}

/** Adds the 16-bit counters into @p hist; every work-item of the work-group calls it. */
ATL__DEV void atl_hist16_merge(ATL_LOCAL const uint *halves, ATL_GLOBAL uint *hist, uint bins)
{
  atl_barrier_local();
  for (uint w = atl_local_id(); w < bins / 2; w += atl_local_size()) {
    const uint c = halves[w];
    if (c & 0xffffu)
      atl_atomic_add(&hist[2 * w], c & 0xffffu);
    if (c >> 16)
      atl_atomic_add(&hist[2 * w + 1], c >> 16);
  }
}

/* ---- compare-and-swap loops -------------------------------------------------- */

/* The loop's first, plain read of the word: CUDA reads through volatile (L1
 * is not coherent); OpenCL's pointer carries its own qualifiers (and may be
 * __local), so it reads *p as it is. */
#if defined(__CUDACC__)
#define ATL__FIRST_READ(UT, p) (*(volatile UT *)(p))
#else
#define ATL__FIRST_READ(UT, p) (*(p))
#endif

/**
 * A CAS loop for any 32- or 64-bit type: @p UT is the unsigned integer type
 * of the word's bits (uint or atl_u64), @p CAS its compare-and-swap
 * (atl_atomic_cas or atl_atomic_cas64), @p old receives the old bits and NEW
 * is an expression of `old` giving the new bits:
 *   atl_u64 ob;
 *   ATL_CAS_LOOP(atl_u64, atl_atomic_cas64, w, ob, atl_as_ulong(atl_as_double(ob) * 2.0));
 * Each language's header also keeps its own form (ATL_CAS_FETCH).
 */
#define ATL_CAS_LOOP(UT, CAS, p, old, NEW)                                                                             \
  do {                                                                                                                 \
    UT atl__seen = ATL__FIRST_READ(UT, p);                                                                             \
    do {                                                                                                               \
      (old) = atl__seen;                                                                                               \
      atl__seen = CAS((p), (old), (NEW));                                                                              \
    } while (atl__seen != (old));                                                                                      \
  } while (0)

#if defined(__CUDACC__)
/** CUDA's form: ATL_CAS_FETCH(UT, p, old, NEW), the compare-and-swap chosen by the type. */
#define ATL_CAS_FETCH(UT, p, old, NEW) ATL_CAS_LOOP(UT, atl_atomic_cas, p, old, NEW)
#else
/** OpenCL's form: ATL_CAS_FETCH(UT, CMPXCHG, p, old, NEW), CMPXCHG atomic_cmpxchg or atom_cmpxchg. */
#define ATL_CAS_FETCH(UT, CMPXCHG, p, old, NEW) ATL_CAS_LOOP(UT, CMPXCHG, p, old, NEW)
#endif

/** Fetch-and-op by a CAS loop (lock-free: some work-item's CAS always succeeds). */
ATL__DEV uint atl_cas_fetch(int op, volatile ATL_GLOBAL uint *p, uint v)
{
  uint old;
  ATL_CAS_LOOP(uint, atl_atomic_cas, p, old, atl_apply(op, old, v));
  return old;
}

/** Float max by CAS on the bits (any sign, unlike the integer-ordering trick). */
ATL__DEV float atl_cas_max_f32(volatile ATL_GLOBAL float *p, float v)
{
  uint old;
  volatile ATL_GLOBAL uint *w = (volatile ATL_GLOBAL uint *)p;
  ATL_CAS_LOOP(uint, atl_atomic_cas, w, old, atl_as_uint(fmax(atl_as_float(old), v)));
  return atl_as_float(old);
}

#if defined(__CUDACC__) || (defined(cl_khr_int64_base_atomics) && defined(cl_khr_fp64))
#if !defined(__CUDACC__)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#define ATL_HAVE_CAS_F64 1
/**
 * Double add by CAS on the bits (the GTC 2013 slide; compares bits, so NaN
 * cannot loop forever). OpenCL: needs cl_khr_int64_base_atomics and
 * cl_khr_fp64 (ATL_HAVE_CAS_F64 says whether it is there).
 */
ATL__DEV double atl_cas_add_f64(volatile ATL_GLOBAL double *p, double v)
{
  atl_u64 old;
  volatile ATL_GLOBAL atl_u64 *w = (volatile ATL_GLOBAL atl_u64 *)p;
  ATL_CAS_LOOP(atl_u64, atl_atomic_cas64, w, old, atl_as_ulong(atl_as_double(old) + v));
  return atl_as_double(old);
}
#endif

/* ---- locks --------------------------------------------------------------------- */

/*
 * A lock word is a version: even = free, odd = held, and every release
 * moves it on by 2. So a waiter can tell a lock that changes hands (it sees
 * new values: progress, keep waiting) from one that is stuck (the same held
 * value for `bound` tries in a row: give up). Start every lock at 0.
 */

/** The bound on every wait: after @p bound tries that saw no progress a waiter sets *abort and gives up. */
struct atl_spin {
  volatile ATL_GLOBAL uint *abort; /**< 0 at launch; non-zero once any waiter gave up */
  uint bound;                      /**< tries in a row that see the same held value before giving up */
};

/** What one waiter has seen so far. */
struct atl_wait {
  uint tries; /**< tries since the lock word last changed */
  uint last;  /**< the lock word then */
};

/**
 * One try; on success the fence orders the critical section after the
 * acquire. The plain read is volatile (CUDA: L1 is not coherent).
 */
ATL__DEV int atl_try_lock(volatile ATL_GLOBAL uint *lock, uint *seen)
{
  const uint cur = *lock;
  *seen = cur;
  if ((cur & 1u) || atl_atomic_cas(lock, cur, cur + 1u) != cur)
    return 0;
  atl_fence_device();
  return 1;
}

ATL__DEV void atl_unlock(volatile ATL_GLOBAL uint *lock)
{
  atl_fence_device();        /* the critical section's stores are visible before the lock is free */
  atl_atomic_add(lock, 1u); /* odd (held) -> the next even version (free) */
}

/** After a failed try that saw @p seen: 1 (and the abort flag set) once the wait is hopeless. */
ATL__DEV int atl_spin_expired(const struct atl_spin *sp, struct atl_wait *w, uint seen)
{
  if (seen != w->last) { /* the lock changed hands: progress */
    w->last = seen;
    w->tries = 0;
  }
  if (++w->tries < sp->bound && *sp->abort == 0u)
    return 0;
  atl_atomic_xchg(sp->abort, 1u);
  return 1;
}

/** The read-modify-write a lock protects: a plain (volatile: CUDA's L1 is not coherent) load and store. */
ATL__DEV uint atl__locked_update(int op, volatile ATL_GLOBAL uint *p, uint v)
{
  const uint old = *p;
  *p = atl_apply(op, old, v);
  return old;
}

/**
 * The naive spin lock: `while (!try_lock()) ;` around a plain update. It
 * deadlocks where the lock holder cannot run while others spin (a warp
 * without independent thread scheduling, before sm_70, keeps spinning with
 * the losers and the winner never reaches its unlock; lockstep SIMD
 * elsewhere). Here the spin is bounded: 0 means it gave up (*old untouched).
 */
ATL__DEV int atl_spin_lock_fetch(int op, volatile ATL_GLOBAL uint *p, uint v, volatile ATL_GLOBAL uint *lock,
                                 const struct atl_spin *sp, uint *old)
{
  struct atl_wait w = {0u, 0u};
  uint seen;
  while (!atl_try_lock(lock, &seen))
    if (atl_spin_expired(sp, &w, seen))
      return 0;
  *old = atl__locked_update(op, p, v);
  atl_unlock(lock);
  return 1;
}

/**
 * Lock per work-item with a done flag (GTC 2013): the whole critical section
 * is inside the branch that won the try, so the winner finishes and unlocks
 * before its warp loops again, whatever the scheduler does.
 */
ATL__DEV int atl_lock_thread_fetch(int op, volatile ATL_GLOBAL uint *p, uint v, volatile ATL_GLOBAL uint *lock,
                                   const struct atl_spin *sp, uint *old)
{
  struct atl_wait w = {0u, 0u};
  uint seen;
  int done = 0;
  while (!done) {
    if (atl_try_lock(lock, &seen)) {
      *old = atl__locked_update(op, p, v);
      atl_unlock(lock);
      done = 1;
    } else if (atl_spin_expired(sp, &w, seen)) {
      return 0;
    }
  }
  return 1;
}

#if defined(__CUDACC__)
/**
 * Serialise per warp (GTC 2013; CUDA): the lowest lane of each address group
 * takes the group's lock, the lanes update one after another in lane order
 * (__syncwarp orders their memory accesses), and the leader unlocks.
 */
ATL__DEV int atl_lock_warp_fetch(int op, unsigned *p, unsigned v, unsigned *lock, const struct atl_spin *sp,
                                 unsigned *old)
{
  const unsigned peers = __match_any_sync(__activemask(), (unsigned long long)p);
  const unsigned leader = __ffs(peers) - 1, lane = atl__lane();
  int ok = 1;
  if (lane == leader) {
    struct atl_wait w = {0u, 0u};
    unsigned seen;
    while (ok && !atl_try_lock(lock, &seen))
      if (atl_spin_expired(sp, &w, seen))
        ok = 0;
  }
  ok = __shfl_sync(peers, ok, leader);
  if (!ok)
    return 0;
  for (unsigned m = peers; m; m &= m - 1) {
    if (lane == (unsigned)(__ffs(m) - 1))
      *old = atl__locked_update(op, p, v);
    __syncwarp(peers);
  }
  if (lane == leader)
    atl_unlock(lock);
  return 1;
}
#endif

/* ---- software atomic (seed 000, Section IV) ------------------------------------ */

#if defined(__CUDACC__) || defined(cl_khr_int64_base_atomics)
#define ATL_HAVE_SW_ADD 1
/** Coordinator work-group size the work-group arrays are sized for. */
#ifndef ATL_SW_COORD
#define ATL_SW_COORD 256
#endif
#define ATL__SW_ANSWER 0xffffffffu

/*
 * Seed 000's software atomic add (docs/design/software-atomics.md). The LAST
 * work-group is the coordinator and calls only atl_sw_coordinate; the other
 * work-groups call atl_sw_add (CUDA: any subset of a warp; portable and
 * OpenCL: every work-item, `participate` says who adds) and finally
 * atl_sw_finish (every work-item). The grid must be co-resident (the host
 * checks it against occupancy discovery); every update of a target word
 * during the kernel must go through atl_sw_add. One 64-bit word per wave
 * (a CUDA warp; ATL_WAVEFRONT work-items on OpenCL) carries each message, so
 * no message depends on the order of two stores, and none needs a
 * cross-work-group fence (OpenCL 1.2's mem_fence is CTA-scope on NVIDIA):
 *   free     0                                   (the wave collected its answer)
 *   request  (index + 1) << 32 | wave sum        WavefrontsAddresses + WavefrontsSums
 *   answer   0xffffffff << 32 | old value       WavefrontsPrefixsums (the wave is released)
 * Where the device fence is device-scope (ATL_FENCE_DEVICE_SCOPE: CUDA's
 * __threadfence) it is added before each post and release as the CUDA idiom.
 * Finished[g] (one per work-group) is set with an atomic exchange and
 * carries no data.
 */
struct atl_sw {
  volatile ATL_GLOBAL atl_u64 *req;    /**< one word per wave of the grid, zeroed */
  volatile ATL_GLOBAL uint *finished; /**< one flag per work-group, zeroed */
  volatile ATL_GLOBAL uint *abort;    /**< 0 at launch; set by any wait that passed `bound` */
  uint bound;                         /**< polls a wait may make without progress */
};

/** Work-group memory of the coordinator (kernel scope). */
struct atl_sw_coord {
  uint idx[ATL_SW_COORD], sum[ATL_SW_COORD], agg[ATL_SW_COORD], base[ATL_SW_COORD], off[ATL_SW_COORD];
  uint dom[ATL_SW_COORD];
  int progress, done, stop;
};

/** The names without `struct`, as CUDA has them. */
typedef struct atl_sw atl_sw;
typedef struct atl_sw_coord atl_sw_coord;

/**
 * The coordinator work-group (seed 000, Figure 7): passes over the waves'
 * words in chunks of its size until every other work-group finished. Per
 * chunk: each work-item reads one word; the first wave of the chunk with an
 * address is that address's dominant one, and each requester adds its sum
 * into the dominant one's slot with a work-group atomic (which returns its
 * offset); the dominant work-item updates the word with a plain load and
 * store (only this work-group touches it, and barriers order its accesses);
 * each requester's answer is old + offset, written with an atomic exchange
 * (which also releases the wave). 1-D grids; the coordinator's size is at
 * most ATL_SW_COORD; @p waves_per_group is atl_sw_waves of the workers'
 * size. For another @p op than add the sums are combinations (atl_combine,
 * in atomic order), the word becomes atl_apply(op, old, combination) and each
 * answer atl_apply(op, old, offset): the requesters must use the same @p op
 * (one op per kernel).
 */
ATL__DEVFN void atl_sw_coordinate_op(int op, volatile ATL_GLOBAL uint *mem, ATL_LOCAL struct atl_sw_coord *c,
                                     const struct atl_sw *sw, uint waves_per_group)
{
  const uint tid = (uint)atl_local_id(), lsize = (uint)atl_local_size();
  const uint workers = (uint)atl_num_groups() - 1u, nwaves = workers * waves_per_group;
  uint idle = 0, last_done = 0;
  for (;;) {
    if (tid == 0) {
      c->progress = 0;
      c->done = 0;
    }
    atl_barrier_local();
    for (uint chunk = 0; chunk < nwaves; chunk += lsize) {
      const uint w = chunk + tid;
      const atl_u64 r = w < nwaves ? sw->req[w] : (atl_u64)0; /* volatile: a stale word only waits a pass */
      const uint tag = (uint)(r >> 32), hi = tag == ATL__SW_ANSWER ? 0u : tag; /* 0: free or answered */
      c->idx[tid] = hi;
      c->sum[tid] = (uint)r;
      c->agg[tid] = atl_identity(op);
      atl_barrier_local();
      if (hi != 0u) {
        uint d = 0;
        while (c->idx[d] != hi) /* the first requester of this address in the chunk */
          d++;
        c->dom[tid] = d;
        c->off[tid] = atl__local_combine(op, &c->agg[d], c->sum[tid]);
      }
      atl_barrier_local();
      if (hi != 0u && c->dom[tid] == tid) {
        const uint old = mem[hi - 1u];
        mem[hi - 1u] = atl_apply(op, old, c->agg[tid]);
        c->base[tid] = old;
      }
      atl_barrier(); /* orders the next chunk's load of the word */
      if (hi != 0u) {
#if ATL_FENCE_DEVICE_SCOPE
        atl_fence_device();
#endif
        atl_atomic_xchg64(&sw->req[w], ((atl_u64)ATL__SW_ANSWER << 32) |
                                           atl_apply(op, c->base[c->dom[tid]], c->off[tid])); /* release */
        c->progress = 1;
      }
      atl_barrier_local();
    }
    uint mine = 0;
    for (uint g = tid; g < workers; g += lsize)
      mine += sw->finished[g] != 0u;
    if (mine)
      atl_atomic_add(&c->done, (int)mine);
    atl_barrier_local();
    if (tid == 0) {
      const uint done = (uint)c->done;
      if (c->progress || done != last_done)
        idle = 0;
      else if (++idle >= sw->bound)
        atl_atomic_xchg(sw->abort, 1u);
      last_done = done;
      c->stop = done == workers || *sw->abort != 0u;
    }
    atl_barrier_local();
    if (c->stop)
      break;
    atl_barrier_local(); /* everyone read stop before work-item 0 rewrites the flags */
  }
}

/** The coordinator of atl_sw_add / atl_sw_inc: atl_sw_coordinate_op with ATL_ADD. */
ATL__DEVFN void atl_sw_coordinate(volatile ATL_GLOBAL uint *mem, ATL_LOCAL struct atl_sw_coord *c,
                                  const struct atl_sw *sw, uint waves_per_group)
{
  atl_sw_coordinate_op(ATL_ADD, mem, c, sw, waves_per_group);
}

/* The work-item that tells: CUDA's header tested threadIdx.x, OpenCL's the flattened id (the same one in
 * the 1-D work-groups the software atomic takes). */
#if defined(__CUDACC__)
#define ATL__SW_TELLER() (threadIdx.x == 0)
#else
#define ATL__SW_TELLER() (atl__flat_lid() == 0)
#endif

/** Tells the coordinator that this work-group will post no more requests. Every work-item calls it, last. */
ATL__DEVFN void atl_sw_finish(const struct atl_sw *sw)
{
  atl_barrier_local();
  if (ATL__SW_TELLER()) { /* 1-D grids */
#if ATL_FENCE_DEVICE_SCOPE
    atl_fence_device();
#endif
    atl_atomic_xchg(&sw->finished[atl_group_id()], 1u);
  }
}

#if defined(__CUDACC__)
/** Work-items per wave of the requesters: the warp. */
#define ATL_SW_WAVE 32u

/**
 * Applies @p op (ATL_ADD, ATL_SUB, ATL_MIN, ATL_MAX, ATL_AND, ATL_OR,
 * ATL_XOR) with @p v to mem[idx] and returns the old value, as the native
 * atomic would. Any subset of a warp may call. Each round the lowest pending
 * lane leads the lanes on its address: it posts the combination of their
 * operands (atl_combine; sub: the sum), waits for the coordinator's answer
 * and shares it; each lane applies its exclusive prefix in lane order
 * (atl_apply). The coordinator must be atl_sw_coordinate_op with the same
 * @p op (one op per kernel). Returns 0 if a wait gave up (the abort flag is
 * then set).
 */
ATL__DEVFN unsigned atl_sw_fetch(int op, volatile unsigned *mem, unsigned idx, unsigned v, const atl_sw &sw)
{
  const unsigned lane = threadIdx.x & 31u, wave = blockIdx.x * ((blockDim.x + 31u) / 32u) + threadIdx.x / 32u;
  unsigned pending = __activemask();
  (void)mem; /* only the coordinator touches the words */
  for (;;) {
    const unsigned leader = __ffs(pending) - 1u;
    const unsigned target = __shfl_sync(pending, idx, leader);
    const unsigned peers = __ballot_sync(pending, idx == target);
    unsigned off = atl_identity(op), total = atl_identity(op);
    for (unsigned m = peers; m; m &= m - 1u) { /* lane order: the warp's serial order of its updates */
      const unsigned src = __ffs(m) - 1u, x = __shfl_sync(pending, v, src);
      if (src < lane)
        off = atl_combine(op, off, x);
      total = atl_combine(op, total, x);
    }
    unsigned base = 0, failed = 0;
    if (lane == leader) {
      /* another converged subset of this warp may hold the slot: wait until it is free */
      const unsigned long long request = ((unsigned long long)(target + 1u) << 32) | total;
      unsigned polls = 0;
      __threadfence();
      while (atl_atomic_cas64(&sw.req[wave], 0ull, request) != 0ull)
        if (++polls >= sw.bound || *sw.abort) {
          failed = 1;
          break;
        }
      unsigned long long r = 0;
      polls = 0;
      while (!failed && ((r = sw.req[wave]) >> 32) != ATL__SW_ANSWER)
        if (++polls >= sw.bound || *sw.abort)
          failed = 1;
      if (failed) {
        atl_atomic_xchg(sw.abort, 1u);
      } else {
        base = (unsigned)r;
        atl_atomic_xchg64(&sw.req[wave], 0ull); /* collected: the slot is free again */
      }
    }
    base = __shfl_sync(pending, base, leader);
    failed = __shfl_sync(pending, failed, leader);
    if (failed)
      return 0u;
    if (idx == target)
      return atl_apply(op, base, off);
    pending &= ~peers;
  }
}

/** The software atomic add: atl_sw_fetch with ATL_ADD. */
ATL__DEVFN unsigned atl_sw_add(volatile unsigned *mem, unsigned idx, unsigned v, const atl_sw &sw)
{
  return atl_sw_fetch(ATL_ADD, mem, idx, v, sw);
}

/** The software atomic increment without a wrap limit (atomicAdd of 1, not atomicInc). */
ATL__DEVFN unsigned atl_sw_inc(volatile unsigned *mem, unsigned idx, const atl_sw &sw)
{
  return atl_sw_fetch(ATL_ADD, mem, idx, 1u, sw);
}

/** CUDA's forms of the coordinator and of finish, which take the atl_sw by reference. */
ATL__DEVFN void atl_sw_finish(const atl_sw &sw) { atl_sw_finish(&sw); }
ATL__DEVFN void atl_sw_coordinate_op(int op, volatile unsigned *mem, atl_sw_coord *c, const atl_sw &sw,
                                     unsigned warps_per_block)
{
  atl_sw_coordinate_op(op, mem, c, &sw, warps_per_block);
}
ATL__DEVFN void atl_sw_coordinate(volatile unsigned *mem, atl_sw_coord *c, const atl_sw &sw, unsigned warps_per_block)
{
  atl_sw_coordinate_op(ATL_ADD, mem, c, &sw, warps_per_block);
}

/** The portable requester's work-group memory: CUDA's needs none. */
typedef struct atl_sw_scratch {
  int unused;
} atl_sw_scratch;

/* The portable forms (see the top of this file): the threads that take part call CUDA's. */
ATL__DEVFN unsigned atl_sw_fetch(int op, volatile unsigned *mem, unsigned idx, unsigned v, int participate,
                                 atl_sw_scratch *s, const atl_sw *sw)
{
  (void)s;
  return participate ? atl_sw_fetch(op, mem, idx, v, *sw) : 0u;
}
ATL__DEVFN unsigned atl_sw_add(volatile unsigned *mem, unsigned idx, unsigned v, int participate, atl_sw_scratch *s,
                               const atl_sw *sw)
{
  (void)s;
  return participate ? atl_sw_fetch(ATL_ADD, mem, idx, v, *sw) : 0u;
}
ATL__DEVFN unsigned atl_sw_inc(volatile unsigned *mem, unsigned idx, int participate, atl_sw_scratch *s,
                               const atl_sw *sw)
{
  (void)s;
  return participate ? atl_sw_fetch(ATL_ADD, mem, idx, 1u, *sw) : 0u;
}

#else /* OpenCL C */
#define ATL_SW_WAVE ATL_WAVEFRONT

/** Local memory of a requesting work-group (kernel scope). */
struct atl_sw_scratch {
  uint idx[ATL_MAX_GROUPS];  /**< each wavefront's address of this round */
  uint agg[ATL_MAX_GROUPS];  /**< its sum */
  uint base[ATL_MAX_GROUPS]; /**< the coordinator's answer: the word before the wavefront's sum */
  int cand[ATL_MAX_GROUPS];  /**< the dominant work-item */
  int any, failed;
};
typedef struct atl_sw_scratch atl_sw_scratch;

/**
 * Applies @p op (ATL_ADD, ATL_SUB, ATL_MIN, ATL_MAX, ATL_AND, ATL_OR,
 * ATL_XOR) with @p v to mem[idx] and returns the old value, as the native
 * fetch-and-op would, for the work-items with @p participate != 0. Every
 * work-item of the work-group calls it. Wavefronts are ATL_WAVEFRONT
 * consecutive work-items; each round a wavefront's dominant work-item posts
 * one address with the combination of the wavefront's operands (atl_combine;
 * sub: their sum); each work-item's old value is the wavefront's old value
 * with the combination of the operands before it applied (atl_apply). Several
 * addresses per wavefront: one round each. The coordinator must be
 * atl_sw_coordinate_op with the same @p op: one op per kernel. Returns 0 if
 * a wait gave up (the abort flag is then set).
 */
uint atl_sw_fetch(int op, volatile __global uint *mem, uint idx, uint v, int participate,
                  __local struct atl_sw_scratch *s, const struct atl_sw *sw)
{
  const uint tid = atl__flat_lid(), lsize = atl__flat_lsize(), g = tid / ATL_WAVEFRONT;
  const uint waves = (lsize + ATL_WAVEFRONT - 1) / ATL_WAVEFRONT;
  const uint group = (uint)(get_group_id(0) + get_num_groups(0) * (get_group_id(1) + get_num_groups(1) * get_group_id(2)));
  const uint wave = group * waves + g;
  int pending = participate;
  uint result = 0;
  (void)mem; /* only the coordinator touches the words */
  for (;;) {
    barrier(CLK_LOCAL_MEM_FENCE); /* the previous round's readers of *s are done */
    for (uint b = 0; b < ATL_MAX_GROUPS; b += lsize)
      if (b + tid < ATL_MAX_GROUPS)
        s->cand[b + tid] = ATL__NONE;
    if (tid == 0)
      s->any = s->failed = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (pending) {
      atomic_cmpxchg((volatile __local int *)&s->cand[g], ATL__NONE, (int)tid); /* first caller: dominant */
      atomic_xchg(&s->any, 1);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int cand = s->cand[g];
    if (!s->any)
      break; /* uniform */
    if ((int)tid == cand) {
      s->idx[g] = idx;
      s->agg[g] = atl_identity(op);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int mine = pending && s->idx[g] == idx;
    uint off = 0;
    if (mine)
      off = atl__local_combine(op, &s->agg[g], v); /* the work-item's exclusive prefix within its wavefront */
    barrier(CLK_LOCAL_MEM_FENCE);
    /* Post every wavefront's request before anyone waits: a CPU runtime runs
     * the work-items of a group one after another, so the coordinator can
     * then answer the whole group in one pass. */
    if ((int)tid == cand) /* the slot is free (0): this wavefront collected its last answer */
      atom_cmpxchg(&sw->req[wave], (ulong)0, ((ulong)(s->idx[g] + 1u) << 32) | s->agg[g]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if ((int)tid == cand) {
      uint polls = 0;
      ulong r;
      /* An atomic read: the answer is the word itself, so no fence is needed. */
      while (((r = atom_add(&sw->req[wave], (ulong)0)) >> 32) != ATL__SW_ANSWER) {
        if (++polls >= sw->bound || *sw->abort != 0u) {
          atomic_xchg(sw->abort, 1u);
          s->failed = 1;
          break;
        }
      }
      s->base[g] = (uint)r;
      atom_xchg(&sw->req[wave], (ulong)0); /* collected: the slot is free again */
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (mine) {
      result = atl_apply(op, s->base[g], off);
      pending = 0;
    }
    if (s->failed)
      return 0u; /* uniform: the kernel ends, the host reports deadlock */
  }
  return participate ? result : 0u;
}

/** The software atomic add: atl_sw_fetch with ATL_ADD. */
uint atl_sw_add(volatile __global uint *mem, uint idx, uint v, int participate, __local struct atl_sw_scratch *s,
                const struct atl_sw *sw)
{
  return atl_sw_fetch(ATL_ADD, mem, idx, v, participate, s, sw);
}

/** The software atomic increment (OpenCL's atomic_inc: add 1, no wrap limit). */
uint atl_sw_inc(volatile __global uint *mem, uint idx, int participate, __local struct atl_sw_scratch *s,
                const struct atl_sw *sw)
{
  return atl_sw_fetch(ATL_ADD, mem, idx, 1u, participate, s, sw);
}
#endif /* requesters */

/**
 * ATL_WHERE(participate) before a block of portable calls: on CUDA only the
 * threads that take part run it (they alone call the warp primitives under
 * the portable forms, which any subset of a warp may call: what a CUDA
 * kernel writes), on OpenCL every work-item does (each must reach the
 * barriers inside; participate tells the calls who updates). So both
 * languages compile what each one's own kernel had.
 */
#if defined(__CUDACC__)
#define ATL_WHERE(participate) if (participate)
#else
#define ATL_WHERE(participate)
#endif

/** Waves per work-group of @p lsize work-items: the coordinator's waves_per_group. */
#define atl_sw_waves(lsize) (((lsize) + ATL_SW_WAVE - 1u) / ATL_SW_WAVE)

#endif /* ATL_HAVE_SW_ADD */

#endif /* ATOMLAB_ATOMICS_H */
