/*
 * atomlab/atomics.cuh: atomic strategies for your own CUDA kernels.
 *
 * Every primitive has fetch-and-op semantics: each calling thread gets back
 * the value the word held just before "its" update, as if its own atomic had
 * run; the old values of all threads on one word are exactly those of some
 * serial order of their updates. Ops (enum atl_opc): add, sub, min, max, and,
 * or, xor on unsigned 32-bit words (inc is add 1). docs/strategies.md gives
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
 * spinner that sees it gives up, and the primitive returns false: the
 * kernel finishes and the host reports `deadlock` instead of hanging.
 * Lock words start at 0 (even = free; see "locks" below).
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
 */
#ifndef ATOMLAB_ATOMICS_CUH
#define ATOMLAB_ATOMICS_CUH

/** The operations. Sub aggregates its operands by addition. */
enum atl_opc { ATL_ADD, ATL_SUB, ATL_MIN, ATL_MAX, ATL_AND, ATL_OR, ATL_XOR };

/** Rounds of block aggregation before the remaining addresses fall back to one atomic per warp group. */
#ifndef ATL_BLOCK_ROUNDS
#define ATL_BLOCK_ROUNDS 4
#endif

/* ---- the algebra of each op ------------------------------------------------ */

/** The value x with x op v == v for every v (what a thread with no predecessor combines). */
__device__ __forceinline__ unsigned atl_identity(int op)
{
  return op == ATL_MIN || op == ATL_AND ? 0xffffffffu : 0u;
}

/** How two operands aggregate (sub: operands add up). */
__device__ __forceinline__ unsigned atl_combine(int op, unsigned a, unsigned b)
{
  switch (op) {
  case ATL_MIN: return a < b ? a : b;
  case ATL_MAX: return a > b ? a : b;
  case ATL_AND: return a & b;
  case ATL_OR: return a | b;
  case ATL_XOR: return a ^ b;
  default: return a + b; /* add, sub */
  }
}

/** The word after applying an aggregate of operands to @p x. */
__device__ __forceinline__ unsigned atl_apply(int op, unsigned x, unsigned agg)
{
  return op == ATL_SUB ? x - agg : atl_combine(op, x, agg);
}

/** One hardware atomic (global or shared memory), returning the old value. */
__device__ __forceinline__ unsigned atl_native_fetch(int op, unsigned *p, unsigned v)
{
  switch (op) {
  case ATL_SUB: return atomicSub(p, v);
  case ATL_MIN: return atomicMin(p, v);
  case ATL_MAX: return atomicMax(p, v);
  case ATL_AND: return atomicAnd(p, v);
  case ATL_OR: return atomicOr(p, v);
  case ATL_XOR: return atomicXor(p, v);
  default: return atomicAdd(p, v);
  }
}

/** The hardware atomic that aggregates operands (sub: add). */
__device__ __forceinline__ unsigned atl__native_combine(int op, unsigned *p, unsigned v)
{
  return atl_native_fetch(op == ATL_SUB ? ATL_ADD : op, p, v);
}

__device__ __forceinline__ unsigned atl__lane(void)
{
  unsigned r;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}

__device__ __forceinline__ unsigned atl__lanemask_lt(void)
{
  unsigned r;
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(r));
  return r;
}

/* ---- warp aggregation ------------------------------------------------------- */

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
__device__ __forceinline__ struct atl_warp_group atl_warp_group_of(int op, const void *p, unsigned v)
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
__device__ __forceinline__ unsigned atl_warp_fetch(int op, unsigned *p, unsigned v)
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
__device__ __forceinline__ unsigned atl_warp_inc_same(unsigned *counter, unsigned v)
{
  const unsigned mask = __activemask();
  const unsigned leader = __ffs(mask) - 1, rank = __popc(mask & atl__lanemask_lt());
  unsigned base = 0;
  if (atl__lane() == leader)
    base = atomicAdd(counter, __popc(mask) * v);
  return __shfl_sync(mask, base, leader) + rank * v;
}

/** Sum of @p v over the active lanes that share @p p (one instruction on sm_80+). */
__device__ __forceinline__ unsigned atl_warp_sum(const void *p, unsigned v)
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

/* ---- block aggregation (seed 001) ------------------------------------------ */

/** Shared memory one atl_block_fetch call site needs: declare it __shared__. */
struct atl_block_scratch {
  unsigned long long addr; /**< the address of this round */
  unsigned agg;            /**< the block's aggregate for it */
  unsigned base;           /**< what the one global atomic returned */
  int cand;                /**< the thread that issues it (first by atomicMin) */
};

__device__ __forceinline__ int atl__block_tid(void)
{
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

/**
 * Block-aggregated fetch-and-op. Every thread of the block must call it
 * (it synchronises the block); threads with @p participate false take no
 * part and get 0. Warps aggregate first; then, in up to ATL_BLOCK_ROUNDS
 * rounds, the block picks one pending address, the warp groups on it add
 * their totals in shared memory (the shared atomic hands each its offset)
 * and one thread issues the global atomic. Addresses left after the rounds
 * use one atomic per warp group.
 */
__device__ __forceinline__ unsigned atl_block_fetch(int op, unsigned *p, unsigned v, bool participate,
                                                    struct atl_block_scratch *s)
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
      off = atl__native_combine(op, &s->agg, g.total);
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

/* ---- privatization (histograms) -------------------------------------------- */

/** Sets the block's @p n shared bins to the op's identity. All threads of the block call it. */
__device__ __forceinline__ void atl_priv_begin(int op, unsigned *bins, unsigned n)
{
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  for (unsigned i = atl__block_tid(); i < n; i += threads)
    bins[i] = atl_identity(op);
  __syncthreads();
}

/** Updates the block's copy of bin @p i; returns the block-local old value (see atl_priv_old). */
__device__ __forceinline__ unsigned atl_priv_fetch(int op, unsigned *bins, unsigned i, unsigned v)
{
  return atl__native_combine(op, &bins[i], v);
}

/**
 * Merges the block's bins into @p global with one atomic per bin. With
 * @p keep_old each bin then holds the global value before the block's
 * updates, for atl_priv_old; without it untouched (identity) bins are
 * skipped. All threads of the block call it.
 */
__device__ __forceinline__ void atl_priv_end(int op, unsigned *bins, unsigned *global, unsigned n, bool keep_old)
{
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  __syncthreads();
  for (unsigned i = atl__block_tid(); i < n; i += threads)
    if (keep_old || bins[i] != atl_identity(op))
      bins[i] = atl_native_fetch(op, &global[i], bins[i]);
  __syncthreads();
}

/** The global old value of an update whose atl_priv_fetch returned @p local_old (after atl_priv_end with keep_old). */
__device__ __forceinline__ unsigned atl_priv_old(int op, const unsigned *bins, unsigned i, unsigned local_old)
{
  return atl_apply(op, bins[i], local_old);
}

/* ---- histograms at memory speed (docs/histogram.md measures them) ---------- */

/**
 * Per-lane columns for up to a few hundred bins: @p cols holds bins x 32
 * words of shared memory, zeroed; bin b of lane l is word b * 32 + l, shared
 * by every warp of the block. A warp's lanes always hit 32 different banks,
 * whatever the keys, and the constant increment compiles to ATOMS.POPC.INC,
 * so solid and uniform keys cost the same (0.93x the read bandwidth of an
 * H200 for 8-bit keys; atl_hist_bytes_add4 below is faster for those).
 */
__device__ __forceinline__ void atl_hist_lane_add(unsigned *cols, unsigned bin)
{
  atomicAdd(&cols[bin * 32u + (threadIdx.x & 31u)], 1u);
}

/**
 * Adds the columns into @p hist (global bins) and zeroes them; every thread
 * of the block calls it. Thread t's j-th read is column (j + t) % 32, so a
 * warp reads 32 banks.
 */
__device__ __forceinline__ void atl_hist_lane_merge(unsigned *cols, unsigned *hist, unsigned bins)
{
  __syncthreads();
  for (unsigned b = threadIdx.x; b < bins; b += blockDim.x) {
    unsigned sum = 0;
    for (unsigned j = 0; j < 32u; j++) {
      const unsigned idx = b * 32u + ((j + threadIdx.x) & 31u);
      sum += cols[idx];
      cols[idx] = 0;
    }
    if (sum)
      atomicAdd(&hist[b], sum);
  }
  __syncthreads();
}

/**
 * 8-bit keys at one byte permute and one atomic per key. @p cols is
 * ATL_HIST_BYTES_SIZE bytes of shared memory, zeroed: 256 bins x 64 columns
 * of 32-bit counters, bin b of column c at byte offset b * 256 + c * 4. So a
 * key's address is the key itself as the second byte above the column's byte
 * offset, which one PRMT (__byte_perm) builds; per-lane's b * 128 + lane * 4
 * took a shift, a mask and an add per key, and those integer instructions,
 * not the atomics, capped it on an H200. A thread's column is its lane plus 32
 * for odd warps (atl_hist_bytes_column): a warp's lanes hit 32 different
 * banks whatever the keys, and each column is shared by half the block's
 * warps. A block may count up to 2^32 - 1 keys between merges.
 */
#define ATL_HIST_BYTES_SIZE 65536u

/** The calling thread's column (lane + 32 x (warp & 1), that is threadIdx.x % 64) as a byte offset. */
__device__ __forceinline__ unsigned atl_hist_bytes_column(void) { return (threadIdx.x & 63u) * 4u; }

/** Counts the four 8-bit keys of @p w; @p col is atl_hist_bytes_column(). */
__device__ __forceinline__ void atl_hist_bytes_add4(unsigned *cols, unsigned col, unsigned w)
{
  char *base = (char *)cols;
  /* selector nibbles, low byte first: col's byte 0, w's byte k, then col's byte 1 (zero) twice */
  atomicAdd((unsigned *)(base + __byte_perm(w, col, 0x5504u)), 1u);
  atomicAdd((unsigned *)(base + __byte_perm(w, col, 0x5514u)), 1u);
  atomicAdd((unsigned *)(base + __byte_perm(w, col, 0x5524u)), 1u);
  atomicAdd((unsigned *)(base + __byte_perm(w, col, 0x5534u)), 1u);
}

/**
 * Adds the 64 columns into @p hist (256 global bins); every thread of the
 * block calls it. Item i sums half i % 2 of bin i / 2, its j-th read at column
 * (j + i) % 32 of that half, so a warp reads 32 banks.
 */
__device__ __forceinline__ void atl_hist_bytes_merge(const unsigned *cols, unsigned *hist)
{
  __syncthreads();
  for (unsigned i = threadIdx.x; i < 512u; i += blockDim.x) {
    const unsigned *part = cols + (i >> 1) * 64u + (i & 1u) * 32u;
    unsigned sum = 0;
    for (unsigned j = 0; j < 32u; j++)
      sum += part[(j + i) & 31u];
    if (sum)
      atomicAdd(&hist[i >> 1], sum);
  }
}

/**
 * RGBA pixels (4 channels x 256 bins, bin c * 256 + b) with the same one
 * permute per key: @p cols is ATL_HIST_RGBA_SIZE bytes of shared memory,
 * zeroed, 32 lane columns per channel. Channel c's bin b of lane l is at
 * byte offset (c >> 1) * 65536 + b * 256 + (c & 1) * 128 + l * 4: channels
 * 0 and 1 share the 256-byte rows of the first 64 KiB, 2 and 3 of the
 * second, so the address is again the key as the second byte above a
 * column byte (lane * 4, plus 128 for odd channels) plus a constant. Every
 * warp of the block shares the columns. A block may count up to 2^32 - 1
 * pixels between merges.
 */
#define ATL_HIST_RGBA_SIZE 131072u

/** Counts the four channels of pixel @p px (R in byte 0); @p lane4 is (threadIdx.x % 32) * 4. */
__device__ __forceinline__ void atl_hist_rgba_add(unsigned *cols, unsigned lane4, unsigned px)
{
  char *base = (char *)cols;
  const unsigned odd = lane4 | 128u; /* the odd channels' column byte */
  atomicAdd((unsigned *)(base + __byte_perm(px, lane4, 0x5504u)), 1u);
  atomicAdd((unsigned *)(base + __byte_perm(px, odd, 0x5514u)), 1u);
  atomicAdd((unsigned *)(base + 65536u + __byte_perm(px, lane4, 0x5524u)), 1u);
  atomicAdd((unsigned *)(base + 65536u + __byte_perm(px, odd, 0x5534u)), 1u);
}

/** Adds the columns into @p hist (1024 global bins, channel-major); every thread of the block calls it. */
__device__ __forceinline__ void atl_hist_rgba_merge(const unsigned *cols, unsigned *hist)
{
  __syncthreads();
  for (unsigned i = threadIdx.x; i < 1024u; i += blockDim.x) {
    const unsigned c = i >> 8, b = i & 255u;
    const unsigned *row = cols + (c >> 1) * 16384u + b * 64u + (c & 1u) * 32u;
    unsigned sum = 0;
    for (unsigned j = 0; j < 32u; j++)
      sum += row[(j + i) & 31u];
    if (sum)
      atomicAdd(&hist[i], sum);
  }
}

/**
 * 16-bit block counters for large bin counts (65,536 bins in 128 KiB of
 * dynamic shared memory): bin b is half (b & 1) of @p halves[b / 2]. The add
 * that takes a counter from 0x7fff to 0x8000 (exactly one: atomics return
 * distinct old values) moves 0x8000 to the global bin, so no counter
 * overflows and none is flushed early.
 */
__device__ __forceinline__ void atl_hist16_add(unsigned *halves, unsigned *hist, unsigned bin)
{
  const unsigned sh = (bin & 1u) << 4;
  const unsigned old = atomicAdd(&halves[bin >> 1], 1u << sh);
  if (((old >> sh) & 0xffffu) == 0x7fffu) {
    atomicSub(&halves[bin >> 1], 0x8000u << sh);
    atomicAdd(&hist[bin], 0x8000u);
  }
}

/** Adds the 16-bit counters into @p hist; every thread of the block calls it. */
__device__ __forceinline__ void atl_hist16_merge(const unsigned *halves, unsigned *hist, unsigned bins)
{
  __syncthreads();
  for (unsigned w = threadIdx.x; w < bins / 2; w += blockDim.x) {
    const unsigned c = halves[w];
    if (c & 0xffffu)
      atomicAdd(&hist[2 * w], c & 0xffffu);
    if (c >> 16)
      atomicAdd(&hist[2 * w + 1], c >> 16);
  }
}

/* ---- compare-and-swap loops -------------------------------------------------- */

/**
 * A CAS loop for any 32- or 64-bit type: @p UT is the unsigned integer type
 * of the word's bits (unsigned or unsigned long long), @p old receives the
 * old bits and NEW is an expression of `old` giving the new bits.
 *   unsigned long long ob;
 *   ATL_CAS_FETCH(unsigned long long, (unsigned long long *)d, ob,
 *                 __double_as_longlong(__longlong_as_double(ob) * 2.0));
 */
#define ATL_CAS_FETCH(UT, p, old, NEW)                                                                                \
  do {                                                                                                                 \
    UT atl__seen = *(volatile UT *)(p);                                                                                \
    do {                                                                                                               \
      (old) = atl__seen;                                                                                               \
      atl__seen = atomicCAS((p), (old), (NEW));                                                                        \
    } while (atl__seen != (old));                                                                                      \
  } while (0)

/** Fetch-and-op by a CAS loop (lock-free: some thread's CAS always succeeds). */
__device__ __forceinline__ unsigned atl_cas_fetch(int op, unsigned *p, unsigned v)
{
  unsigned old;
  ATL_CAS_FETCH(unsigned, p, old, atl_apply(op, old, v));
  return old;
}

/** Double add by CAS on the bits (the GTC 2013 slide; compares bits, so NaN cannot loop forever). */
__device__ __forceinline__ double atl_cas_add_f64(double *p, double v)
{
  unsigned long long old;
  ATL_CAS_FETCH(unsigned long long, (unsigned long long *)p, old, __double_as_longlong(__longlong_as_double(old) + v));
  return __longlong_as_double(old);
}

/** Float max by CAS on the bits (any sign, unlike the integer-ordering trick). */
__device__ __forceinline__ float atl_cas_max_f32(float *p, float v)
{
  unsigned old;
  ATL_CAS_FETCH(unsigned, (unsigned *)p, old, __float_as_uint(fmaxf(__uint_as_float(old), v)));
  return __uint_as_float(old);
}

/* ---- locks --------------------------------------------------------------------- */

/*
 * A lock word is a version: even = free, odd = held, and every release
 * moves it on by 2. So a waiter can tell a lock that changes hands (it sees
 * new values: progress, keep waiting) from one that is stuck (the same held
 * value for `bound` tries in a row: give up). Start every lock at 0.
 */

/** The bound on every wait: after @p bound tries that saw no progress a waiter sets *abort and gives up. */
struct atl_spin {
  unsigned *abort; /**< global flag, 0 at launch; non-zero once any waiter gave up */
  unsigned bound;  /**< tries in a row that see the same held value before giving up */
};

/** What one waiter has seen so far. */
struct atl_wait {
  unsigned tries; /**< tries since the lock word last changed */
  unsigned last;  /**< the lock word then */
};

/** One try; on success the fence orders the critical section after the acquire. */
__device__ __forceinline__ bool atl_try_lock(unsigned *lock, unsigned *seen)
{
  const unsigned cur = *(volatile unsigned *)lock;
  *seen = cur;
  if ((cur & 1u) || atomicCAS(lock, cur, cur + 1u) != cur)
    return false;
  __threadfence();
  return true;
}

__device__ __forceinline__ void atl_unlock(unsigned *lock)
{
  __threadfence(); /* the critical section's stores are visible before the lock is free */
  atomicAdd(lock, 1u); /* odd (held) -> the next even version (free) */
}

/** After a failed try that saw @p seen: true (and the abort flag set) once the wait is hopeless. */
__device__ __forceinline__ bool atl_spin_expired(const struct atl_spin *sp, struct atl_wait *w, unsigned seen)
{
  if (seen != w->last) { /* the lock changed hands: progress */
    w->last = seen;
    w->tries = 0;
  }
  if (++w->tries < sp->bound && *(volatile unsigned *)sp->abort == 0u)
    return false;
  atomicExch(sp->abort, 1u);
  return true;
}

/** The read-modify-write a lock protects: plain (volatile: L1 is not coherent) load and store. */
__device__ __forceinline__ unsigned atl__locked_update(int op, unsigned *p, unsigned v)
{
  volatile unsigned *vp = p;
  const unsigned old = *vp;
  *vp = atl_apply(op, old, v);
  return old;
}

/**
 * The naive spin lock: `while (!try_lock()) ;` around a plain update. Without
 * independent thread scheduling (before sm_70) the warp keeps spinning with
 * the losers and the winner never reaches its unlock: deadlock. Here the
 * spin is bounded; false means it gave up (*old untouched).
 */
__device__ __forceinline__ bool atl_spin_lock_fetch(int op, unsigned *p, unsigned v, unsigned *lock,
                                                    const struct atl_spin *sp, unsigned *old)
{
  struct atl_wait w = {0u, 0u};
  unsigned seen;
  while (!atl_try_lock(lock, &seen))
    if (atl_spin_expired(sp, &w, seen))
      return false;
  *old = atl__locked_update(op, p, v);
  atl_unlock(lock);
  return true;
}

/**
 * Lock per thread with a done flag (GTC 2013): the whole critical section is
 * inside the branch that won the try, so the winner finishes and unlocks
 * before its warp loops again, whatever the scheduler does.
 */
__device__ __forceinline__ bool atl_lock_thread_fetch(int op, unsigned *p, unsigned v, unsigned *lock,
                                                      const struct atl_spin *sp, unsigned *old)
{
  struct atl_wait w = {0u, 0u};
  unsigned seen;
  bool done = false;
  while (!done) {
    if (atl_try_lock(lock, &seen)) {
      *old = atl__locked_update(op, p, v);
      atl_unlock(lock);
      done = true;
    } else if (atl_spin_expired(sp, &w, seen)) {
      return false;
    }
  }
  return true;
}

/**
 * Serialise per warp (GTC 2013): the lowest lane of each address group takes
 * the group's lock, the lanes update one after another in lane order
 * (__syncwarp orders their memory accesses), and the leader unlocks.
 */
__device__ __forceinline__ bool atl_lock_warp_fetch(int op, unsigned *p, unsigned v, unsigned *lock,
                                                    const struct atl_spin *sp, unsigned *old)
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
    return false;
  for (unsigned m = peers; m; m &= m - 1) {
    if (lane == (unsigned)(__ffs(m) - 1))
      *old = atl__locked_update(op, p, v);
    __syncwarp(peers);
  }
  if (lane == leader)
    atl_unlock(lock);
  return true;
}


/* ---- software atomic add (seed 000, Section IV) --------------------------------- */

/** Coordinator block size the shared arrays are sized for. */
#ifndef ATL_SW_COORD
#define ATL_SW_COORD 256
#endif
#define ATL__SW_ANSWER 0xffffffffu

/*
 * Seed 000's software atomic add (docs/software-atomics.md). The LAST block
 * is the coordinator and calls only atl_sw_coordinate; the other blocks call
 * atl_sw_add (any subset of a warp) and finally atl_sw_finish (every
 * thread). The grid must be co-resident (the host checks it against
 * occupancy discovery); every update of a target word during the kernel
 * must go through atl_sw_add. One 64-bit word per warp carries each message:
 *   free     0
 *   request  (index + 1) << 32 | warp sum        WavefrontsAddresses + WavefrontsSums
 *   answer   0xffffffff << 32 | old value       WavefrontsPrefixsums (the warp is released)
 * so no message depends on the order of two stores; __threadfence() is
 * added before each post and release as the CUDA idiom (docs).
 */
struct atl_sw {
  unsigned long long *req;     /**< one word per warp of the grid, zeroed */
  unsigned *finished;          /**< one flag per block, zeroed */
  volatile unsigned *abort;    /**< 0 at launch; set by any wait that passed `bound` */
  unsigned bound;              /**< polls a wait may make without progress */
};

/** Shared memory of the coordinator block. */
struct atl_sw_coord {
  unsigned idx[ATL_SW_COORD], sum[ATL_SW_COORD], agg[ATL_SW_COORD], base[ATL_SW_COORD], off[ATL_SW_COORD];
  unsigned dom[ATL_SW_COORD];
  int progress, done, stop;
};

__device__ __forceinline__ unsigned long long atl__sw_read(unsigned long long *p)
{
  return *(volatile unsigned long long *)p;
}

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
__device__ unsigned atl_sw_fetch(int op, unsigned *mem, unsigned idx, unsigned v, const atl_sw &sw)
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
      while (atomicCAS(&sw.req[wave], 0ull, request) != 0ull)
        if (++polls >= sw.bound || *sw.abort) {
          failed = 1;
          break;
        }
      unsigned long long r = 0;
      polls = 0;
      while (!failed && ((r = atl__sw_read(&sw.req[wave])) >> 32) != ATL__SW_ANSWER)
        if (++polls >= sw.bound || *sw.abort)
          failed = 1;
      if (failed) {
        atomicExch((unsigned *)sw.abort, 1u);
      } else {
        base = (unsigned)r;
        atomicExch(&sw.req[wave], 0ull); /* collected: the slot is free again */
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
__device__ unsigned atl_sw_add(unsigned *mem, unsigned idx, unsigned v, const atl_sw &sw)
{
  return atl_sw_fetch(ATL_ADD, mem, idx, v, sw);
}

/** The software atomic increment without a wrap limit (atomicAdd of 1, not atomicInc). */
__device__ unsigned atl_sw_inc(unsigned *mem, unsigned idx, const atl_sw &sw)
{
  return atl_sw_fetch(ATL_ADD, mem, idx, 1u, sw);
}

/** Tells the coordinator that this block will post no more requests. Every thread calls it, last. */
__device__ void atl_sw_finish(const atl_sw &sw)
{
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicExch(&sw.finished[blockIdx.x], 1u);
  }
}

/**
 * The coordinator block (seed 000, Figure 7): passes over the warps' words
 * in chunks of its size until every other block finished. Per chunk: each
 * thread reads one word; the first warp of the chunk with an address is that
 * address's dominant one; each requester adds its sum into the dominant
 * slot with a shared atomic (which returns its offset); the dominant thread
 * updates the word with a plain load and store (only this block touches it;
 * __syncthreads orders its accesses); each requester's answer is old +
 * offset, released with atomicExch. Block size at most ATL_SW_COORD. For
 * another @p op than add the sums are combinations (atl_combine), the word
 * becomes atl_apply(op, old, combination) and each answer
 * atl_apply(op, old, offset): the requesters must use the same @p op.
 */
__device__ void atl_sw_coordinate_op(int op, unsigned *mem, atl_sw_coord *c, const atl_sw &sw,
                                     unsigned warps_per_block)
{
  volatile unsigned *vm = mem;
  const unsigned tid = threadIdx.x, lsize = blockDim.x;
  const unsigned workers = gridDim.x - 1u, nwaves = workers * warps_per_block;
  unsigned idle = 0, last_done = 0;
  for (;;) {
    if (tid == 0) {
      c->progress = 0;
      c->done = 0;
    }
    __syncthreads();
    for (unsigned chunk = 0; chunk < nwaves; chunk += lsize) {
      const unsigned w = chunk + tid;
      const unsigned long long r = w < nwaves ? atl__sw_read(&sw.req[w]) : 0ull;
      const unsigned tag = (unsigned)(r >> 32), hi = tag == ATL__SW_ANSWER ? 0u : tag;
      c->idx[tid] = hi;
      c->sum[tid] = (unsigned)r;
      c->agg[tid] = atl_identity(op);
      __syncthreads();
      if (hi != 0u) {
        unsigned d = 0;
        while (c->idx[d] != hi)
          d++;
        c->dom[tid] = d;
        c->off[tid] = atl__native_combine(op, &c->agg[d], c->sum[tid]);
      }
      __syncthreads();
      if (hi != 0u && c->dom[tid] == tid) {
        const unsigned old = vm[hi - 1u];
        vm[hi - 1u] = atl_apply(op, old, c->agg[tid]);
        c->base[tid] = old;
      }
      __syncthreads();
      if (hi != 0u) {
        __threadfence();
        atomicExch(&sw.req[w], ((unsigned long long)ATL__SW_ANSWER << 32) |
                                   atl_apply(op, c->base[c->dom[tid]], c->off[tid]));
        c->progress = 1;
      }
      __syncthreads();
    }
    unsigned mine = 0;
    for (unsigned g = tid; g < workers; g += lsize)
      mine += ((volatile unsigned *)sw.finished)[g] != 0u;
    if (mine)
      atomicAdd(&c->done, (int)mine);
    __syncthreads();
    if (tid == 0) {
      const unsigned done = (unsigned)c->done;
      if (c->progress || done != last_done)
        idle = 0;
      else if (++idle >= sw.bound)
        atomicExch((unsigned *)sw.abort, 1u);
      last_done = done;
      c->stop = done == workers || *sw.abort != 0u;
    }
    __syncthreads();
    if (c->stop)
      break;
    __syncthreads();
  }
}

/** The coordinator of atl_sw_add / atl_sw_inc: atl_sw_coordinate_op with ATL_ADD. */
__device__ void atl_sw_coordinate(unsigned *mem, atl_sw_coord *c, const atl_sw &sw, unsigned warps_per_block)
{
  atl_sw_coordinate_op(ATL_ADD, mem, c, sw, warps_per_block);
}

#endif /* ATOMLAB_ATOMICS_CUH */
