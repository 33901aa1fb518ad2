/*
 * app_scatter.k.c: scatter-add of rows, out[idx[i]][:] += src[i][:] (issue [scatter]), written once for
 * CUDA and OpenCL. One warp (sub-group of 32 work-items, or 32 neighbouring work-items on OpenCL) owns
 * ROWS consecutive source rows; lane l covers columns l, l + 32, ... of each row, so a row's D updates
 * are neighbouring words (coalesced atomics).
 *
 *   D=N              columns per row
 *   TYPE_f32 | TYPE_u32 | TYPE_i32 | TYPE_bf16 | TYPE_f16 (16-bit floats stored as their bits, summed in f32,
 *                    added by atomlab/scatter_device.h's atl_atomic_add_bf16 / _f16)
 *   IDX_T=uint|ulong the keys' type (--index i32 | i64)
 *   VARIANT_atomic   one atomic per element; the warp's (row, column) pairs in order over its lanes, so
 *                    every lane is busy when D < 32; 16-bit types: one packed bf16x2 / f16x2 reduction per
 *                    pair of columns (the scalar 16-bit reductions are CAS loops on sm_90)
 *   VARIANT_run      the warp sums runs of equal consecutive keys in registers and flushes a run's sums
 *                    with one atomic per column when its key changes: a hot row or clustered keys cost one
 *                    atomic per run instead of one per row (uniform keys: the same as atomic)
 *   VARIANT_block    a work-group owns BLOCK_ROWS consecutive rows and sums them in local memory by key (a
 *                    hash table of SLOTS keys x D columns, filled by compare-and-swap, linear probing up to
 *                    8 slots), then adds each slot's sums to the output with one atomic per column: a key
 *                    that recurs within the block (a zipf head, a hot row) costs one global atomic per block
 *                    instead of one per row; rows whose key finds no slot go straight to the output
 *   VARIANT_vector   CUDA on sm_90, f32 with D a multiple of 4 or bf16 / f16 with D a multiple of 8: as
 *                    atomic, but a lane adds 16 neighbouring bytes with one vector reduction
 *                    (red.global.add.v4.f32, red.global.v4.bf16x2.add.noftz: SASS REDG.E.ADD.F32x4 /
 *                    .BF16x8), the warp's (row, chunk) pairs over its lanes
 *   VARIANT_bins     D = 1 (weighted bincount): a work-item per row, a work-group per BIN_ROWS rows summing
 *                    its frequent keys in a local hash table before one atomic per slot (below)
 *   VARIANT_part     entry scatter_part, one launch per range [lo, hi) of keys: only the rows whose key is in
 *                    range, so the range's output rows stay in the L2 (below)
 *   VARIANT_copy     the ceiling: copies src to dst as one flat array (no index, no atomic, every
 *                    work-item on neighbouring words whatever D is): the bandwidth of moving the same bytes
 *
 * Floats on OpenCL 1.2 have no atomic add: a CAS loop on the word's bits (what users write there); 16-bit
 * floats a CAS loop on the 32-bit word that holds a pair (atomlab/scatter_device.h). The 16-bit run and block
 * variants sum in f32 and flush a pair of columns per packed reduction; an odd D's last column goes with
 * -0.0f in the other half (which leaves it as it is), and a pair that straddles two words (odd D, odd row)
 * as two packed reductions.
 */
#include "atomlab/port.h"
#include "atomlab/scatter_device.h"

/* T: the stored value; A: what a lane sums in (f32 for the 16-bit floats); LOAD: a stored value as A. */
#if defined(TYPE_f32)
typedef float T;
typedef float A;
#define LOAD(x) (x)
#define ADD(p, v) atl_atomic_add_f32((p), (v))
#elif defined(TYPE_bf16) || defined(TYPE_f16)
typedef ushort T;
typedef float A;
#define PACKED 1 /* added in pairs of columns: one bf16x2 / f16x2 reduction per pair */
#if defined(TYPE_bf16)
#define LOAD(x) atl_bf16_to_float(x)
#define ADD(p, v) atl_atomic_add_bf16((p), (v))
#define ADD_PAIR_AT(p, lo, hi) atl_atomic_add_bf16_pair((p), (lo), (hi))
#define ADD_WORD(w, lo, hi) atl_atomic_add_bf16x2((w), (lo), (hi))
#define RED_V4 "red.global.v4.bf16x2.add.noftz"
#else
#define LOAD(x) atl_f16_to_float(x)
#define ADD(p, v) atl_atomic_add_f16((p), (v))
#define ADD_PAIR_AT(p, lo, hi) atl_atomic_add_f16_pair((p), (lo), (hi))
#define ADD_WORD(w, lo, hi) atl_atomic_add_f16x2((w), (lo), (hi))
#define RED_V4 "red.global.v4.f16x2.add.noftz"
#endif
/* lo, hi added to the 16-bit words p[0], p[1]: with an even D every pair starts a 32-bit word (the buffers are
 * allocated aligned), so one packed reduction with no test of the address. */
#if D % 2 == 0
#define ADD_PAIR(p, lo, hi) ADD_WORD((ATL_GLOBAL uint *)(p), (lo), (hi))
#else
#define ADD_PAIR(p, lo, hi) ADD_PAIR_AT((p), (lo), (hi))
#endif
#else
#if defined(TYPE_i32)
typedef int T;
#else
typedef uint T;
#endif
typedef T A;
#define LOAD(x) (x)
#define ADD(p, v) atl_atomic_add((p), (v))
#endif
#if !defined(IDX_T)
#define IDX_T uint
#endif
/* Local sums (the block variant) are A: f32 by the hardware on CUDA, a CAS loop on OpenCL 1.2. */
#if defined(__CUDACC__)
#define ADD_LOCAL(p, v) atomicAdd((p), (v))
#elif defined(TYPE_u32) || defined(TYPE_i32)
#define ADD_LOCAL(p, v) atl_atomic_add((p), (v))
#else
ATL_INLINE void ADD_LOCAL(__local float *p, float v)
{
  volatile __local uint *w = (volatile __local uint *)p;
  uint old = *w, seen;
  while ((seen = atomic_cmpxchg(w, old, as_uint(as_float(old) + v))) != old)
    old = seen;
}
#endif

#define LANES 32u
#define COLS ((D + LANES - 1) / LANES) /* columns each lane covers */
#define PAIRS ((D + 1) / 2)             /* column pairs of a row (16-bit types): 2p and 2p + 1 */
#define PCOLS ((PAIRS + LANES - 1) / LANES) /* pairs each lane covers (the run variant) */

#if defined(VARIANT_block) || defined(VARIANT_part)
#define EMPTY 0xffffffffu
/* The slot of key @p k in the work-group's table (inserting it), or SLOTS where 8 probes find none. Every lane
 * of a row probes the same sequence, so all find the one slot whichever of them inserts the key. */
ATL_INLINE uint slot_of(volatile ATL_LOCAL uint *keys, uint k)
{
  uint s = (k * 2654435761u) % SLOTS;
  for (uint probe = 0; probe < 8; probe++, s = (s + 1) % SLOTS) {
    uint cur = keys[s];
    if (cur == EMPTY)
      cur = atl_atomic_cas(&keys[s], EMPTY, k);
    if (cur == EMPTY || cur == k)
      return s;
  }
  return SLOTS;
}
#endif

#if defined(VARIANT_part) && defined(__CUDACC__) && __CUDA_ARCH__ >= 700 && !defined(PACKED)
/*
 * VARIANT_part: launch p of P adds only the rows whose key lies in [lo, hi), a slice of the output the host
 * sizes to stay in the L2 while every update of it arrives (src/apps/scatter.c: half the L2). Uniform keys
 * into an output larger than the L2 otherwise read and write a whole output row in DRAM per update (E x D x 8
 * bytes against the counted 2 V x D x 4); here each output row moves about once. Every launch reads all the
 * keys (E x 4 bytes a pass, streamed), a source row is read in the one launch whose range holds its key, and
 * both are loaded with the evict-first hint (ld.global.cs) so they do not push the slice out.
 * A warp takes 32 rows a step: the lanes' keys in one coalesced load, the rows in range found by a vote, rows
 * with equal keys (match-any) summed in registers by their group's first lane, the warp's (group, unit)
 * pairs over its lanes (a unit: 4 floats added by one red.global.add.v4.f32 on sm_90 with D a multiple of 4,
 * else one value). A key that recurs within a step (a zipf head, a hot row) takes a slot of the work-group's
 * local table (as the block variant's: SLOTS keys x D sums, CAS inserts) and goes out once per work-group at
 * the end; keys that do not recur (uniform) never touch it.
 */
#if __CUDA_ARCH__ >= 900 && defined(TYPE_f32) && D % 4 == 0
#define UNIT 4u
#else
#define UNIT 1u
#endif
#define UNITS (D / UNIT)
#define FULL 0xffffffffu

/* v += the UNIT values at p, loaded evict-first (they are read once) */
ATL_INLINE void unit_load(const T *p, A *v)
{
#if UNIT == 4
  const float4 x = __ldcs((const float4 *)p);
  v[0] += x.x, v[1] += x.y, v[2] += x.z, v[3] += x.w;
#else
  v[0] += __ldcs(p);
#endif
}

/* out p += the UNIT values of v: one vector reduction (sm_90, f32) or one atomic */
ATL_INLINE void unit_red(T *p, const A *v)
{
#if UNIT == 4
  asm volatile("red.global.add.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(p), "f"(v[0]), "f"(v[1]), "f"(v[2]), "f"(v[3])
               : "memory");
#else
  ADD(p, v[0]);
#endif
}

ATL_KERNEL void scatter_part(const T *ATL_RESTRICT src, const IDX_T *ATL_RESTRICT idx, T *out, ulong rows, uint lo,
                             uint hi)
{
  ATL_SHARED uint keys[SLOTS];
  ATL_SHARED A sums[SLOTS * D];
  const uint lid = atl_local_id(), wg = atl_local_size(), lane = lid % LANES;
  for (uint s = lid; s < SLOTS; s += wg)
    keys[s] = EMPTY;
  for (uint e = lid; e < SLOTS * D; e += wg)
    sums[e] = (A)0;
  atl_barrier_local();
  /* Steps of 32 rows, step s by warp s mod the warps (one wave of them): sorted keys, whose rows of a range are
   * neighbours, spread over every warp too. The same steps for every lane: the votes need them all. */
  const ulong stride = atl_global_size64() / LANES * LANES;
  for (ulong base = atl_global_id64() / LANES * LANES; base < rows; base += stride) {
    const ulong i = base + lane;
    const uint k = i < rows ? (uint)__ldcs(&idx[i]) : hi;
    const bool in = k - lo < hi - lo;
    const uint grp = __match_any_sync(FULL, in ? k : EMPTY); /* the lanes whose row has this key */
    const uint lead = __ballot_sync(FULL, in && lane == (uint)__ffs(grp) - 1u);
    if (lead == 0)
      continue;
    uint slot = SLOTS; /* a recurring key's place in the table */
    if ((lead >> lane & 1u) && __popc(grp) > 1)
      slot = slot_of(keys, k);
    const uint n = (uint)__popc(lead) * UNITS;
    for (uint t0 = 0; t0 < n; t0 += LANES) {
      const uint t = t0 + lane;
      uint m = lead; /* the lane of the (t / UNITS)-th group's leader */
      for (uint j = t < n ? t / UNITS : 0; j > 0; j--)
        m &= m - 1u;
      const uint from = (uint)__ffs(m) - 1u;
      const uint key = __shfl_sync(FULL, k, from), g = __shfl_sync(FULL, grp, from), s = __shfl_sync(FULL, slot, from);
      if (t >= n)
        continue;
      const uint c = t % UNITS * UNIT;
      A v[UNIT];
      for (uint u = 0; u < UNIT; u++)
        v[u] = (A)0;
      for (uint r = g; r; r &= r - 1u)
        unit_load(&src[(base + (uint)__ffs(r) - 1u) * D + c], v);
      if (s < SLOTS)
        for (uint u = 0; u < UNIT; u++)
          ADD_LOCAL(&sums[s * D + c + u], v[u]);
      else
        unit_red(&out[(ulong)key * D + c], v);
    }
  }
  atl_barrier_local();
  for (uint e = lid; e < SLOTS * UNITS; e += wg) {
    const uint s = e / UNITS, c = e % UNITS * UNIT, k = keys[s];
    if (k != EMPTY)
      unit_red(&out[(ulong)k * D + c], &sums[s * D + c]);
  }
}
#elif defined(VARIANT_part)
/* VARIANT_part elsewhere (OpenCL, 16-bit types, CUDA before sm_70): the same passes over key ranges, each row
 * in range added as the atomic variant adds it (no vote or match-any in OpenCL C 1.2, no local table). */
ATL_KERNEL void scatter_part(ATL_GLOBAL const T *ATL_RESTRICT src, ATL_GLOBAL const IDX_T *ATL_RESTRICT idx,
                             ATL_GLOBAL T *out, ulong rows, uint lo, uint hi)
{
  const uint lane = (uint)(atl_global_id64() % LANES);
  const ulong stride = atl_global_size64() / LANES * LANES; /* steps of 32 rows over the warps, as above */
  for (ulong base = atl_global_id64() / LANES * LANES; base < rows; base += stride) {
    const uint n = rows - base < LANES ? (uint)(rows - base) : LANES;
#if defined(PACKED)
    for (uint t = lane; t < n * PAIRS; t += LANES) {
      const ulong i = base + t / PAIRS, k = idx[i];
      const uint c = t % PAIRS * 2u;
      if (k >= lo && k < hi)
        ADD_PAIR(&out[k * D + c], LOAD(src[i * D + c]), c + 1 < D ? LOAD(src[i * D + c + 1]) : -0.0f);
    }
#else
    for (uint t = lane; t < n * D; t += LANES) {
      const ulong i = base + t / D, k = idx[i];
      if (k >= lo && k < hi)
        ADD(&out[k * D + t % D], LOAD(src[i * D + t % D]));
    }
#endif
  }
}
#elif defined(VARIANT_bins)
/* D = 1 (a weighted bincount): a work-item per row, one wave of work-groups taking chunks of BIN_ROWS rows in
 * turn, each group's frequent keys summed in a local table of BIN_SLOTS (key, sum) slots (32 KiB), filled by
 * CAS with up to BIN_PROBES linear probes from a Fibonacci hash; a key that finds no slot goes straight to the
 * output. A zipf head or a hot key costs one global atomic per group, uniform keys one each (as atomic, with
 * every lane busy). Loads of BIN_UNROLL rows are issued before their adds, so the atomics do not serialize
 * the reads. */
#if D != 1
#error "VARIANT_bins is for D = 1"
#endif
#define EMPTY 0xffffffffu
#define BIN_PROBES 4u
#define BIN_UNROLL 4u
ATL_KERNEL void scatter_add(ATL_GLOBAL const T *ATL_RESTRICT src, ATL_GLOBAL const IDX_T *ATL_RESTRICT idx,
                            ATL_GLOBAL T *out, ulong rows, uint rows_per_warp)
{
  ATL_SHARED uint keys[BIN_SLOTS];
  ATL_SHARED A sums[BIN_SLOTS];
  volatile ATL_LOCAL uint *vkeys = keys;
  const uint lid = atl_local_id(), wg = atl_local_size();
  (void)rows_per_warp;
  for (uint s = lid; s < BIN_SLOTS; s += wg) {
    keys[s] = EMPTY;
    sums[s] = (A)0;
  }
  atl_barrier_local();
  /* Chunks of BIN_ROWS rows, chunk c by work-group c mod the groups (as many as are resident at once: the
   * launch is one wave, the table lives for all of a group's chunks and goes out once) */
  for (ulong first = (ulong)atl_group_id() * BIN_ROWS; first < rows; first += (ulong)atl_num_groups() * BIN_ROWS) {
    const ulong last = first + BIN_ROWS < rows ? first + BIN_ROWS : rows;
    for (ulong base = first + lid; base < last; base += BIN_UNROLL * wg) {
      uint k[BIN_UNROLL];
      A v[BIN_UNROLL];
      for (uint u = 0; u < BIN_UNROLL; u++) {
        const ulong i = base + (ulong)u * wg;
        k[u] = i < last ? (uint)idx[i] : EMPTY;
        v[u] = i < last ? LOAD(src[i]) : (A)0;
      }
      for (uint u = 0; u < BIN_UNROLL; u++) {
  #if defined(__CUDACC__)
        /* A warp whose lanes all hold one key (a hot key) sums it with shuffles and sends one lane to the
         * table: 32 adds on one local word would serialize. */
        const uint m = __activemask(); /* a full warp only: the tree below sums 32 lanes into lane 0 */
        if (m == 0xffffffffu && __all_sync(m, k[u] == __shfl_sync(m, k[u], 0))) {
          for (uint off = 16; off > 0; off >>= 1)
            v[u] += __shfl_down_sync(m, v[u], off);
          if ((atl_local_id() & 31u) != 0)
            continue;
        }
  #endif
        if (k[u] == EMPTY)
          continue;
        uint s = (k[u] * 2654435761u) >> (32u - BIN_LOG2_SLOTS), probe = 0;
        for (; probe < BIN_PROBES; probe++, s = (s + 1u) & (BIN_SLOTS - 1u)) {
          uint cur = vkeys[s];
          if (cur == EMPTY)
            cur = atl_atomic_cas(&vkeys[s], EMPTY, k[u]);
          if (cur == EMPTY || cur == k[u])
            break;
        }
        if (probe < BIN_PROBES)
          ADD_LOCAL(&sums[s], v[u]);
        else
          ADD(&out[k[u]], v[u]);
      }
    }
  }
  atl_barrier_local();
  for (uint s = lid; s < BIN_SLOTS; s += wg) {
    const uint k = keys[s];
    if (k != EMPTY)
      ADD(&out[k], sums[s]);
  }
}
#elif defined(VARIANT_block)
ATL_KERNEL void scatter_add(ATL_GLOBAL const T *ATL_RESTRICT src, ATL_GLOBAL const IDX_T *ATL_RESTRICT idx,
                            ATL_GLOBAL T *out, ulong rows, uint rows_per_warp)
{
  ATL_SHARED uint keys[SLOTS];
  ATL_SHARED A sums[SLOTS * D];
  const uint lid = atl_local_id(), wg = atl_local_size();
  (void)rows_per_warp;
  for (uint s = lid; s < SLOTS; s += wg)
    keys[s] = EMPTY;
  for (uint e = lid; e < SLOTS * D; e += wg)
    sums[e] = (A)0;
  atl_barrier_local();
  const ulong first = (ulong)atl_group_id() * BLOCK_ROWS;
  ulong last = first + BLOCK_ROWS;
  if (last > rows)
    last = rows;
  const uint lane = lid % LANES, warps = wg / LANES;
  for (ulong i = first + lid / LANES; i < last; i += warps) {
    const uint k = (uint)idx[i];
    const uint s = slot_of(keys, k);
    for (uint c = lane; c < D; c += LANES)
      if (s < SLOTS)
        ADD_LOCAL(&sums[s * D + c], LOAD(src[i * D + c]));
      else
        ADD(&out[(ulong)k * D + c], LOAD(src[i * D + c]));
  }
  atl_barrier_local();
#if defined(PACKED) /* each slot's f32 sums go out a pair of columns at a time */
  for (uint e = lid; e < SLOTS * PAIRS; e += wg) {
    const uint s = e / PAIRS, c = 2 * (e % PAIRS), k = keys[s];
    if (k != EMPTY)
      ADD_PAIR(&out[(ulong)k * D + c], sums[s * D + c], c + 1 < D ? sums[s * D + c + 1] : -0.0f);
  }
#else
  for (uint e = lid; e < SLOTS * D; e += wg) {
    const uint k = keys[e / D];
    if (k != EMPTY)
      ADD(&out[(ulong)k * D + e % D], sums[e]);
  }
#endif
}
#else
ATL_KERNEL void scatter_add(ATL_GLOBAL const T *ATL_RESTRICT src, ATL_GLOBAL const IDX_T *ATL_RESTRICT idx,
                            ATL_GLOBAL T *out, ulong rows, uint rows_per_warp)
{
  const ulong warp = atl_global_id64() / LANES;
  const uint lane = (uint)(atl_global_id64() % LANES);
  const ulong first = warp * rows_per_warp;
  ulong last = first + rows_per_warp;
  if (last > rows)
    last = rows;
  const uint n = first < last ? (uint)(last - first) : 0u; /* rows of this warp (rows_per_warp <= 2^20) */
#if defined(VARIANT_copy)
  (void)first, (void)last, (void)n;
  for (ulong e = atl_global_id64(); e < rows * D; e += atl_global_size64())
    out[e] = src[e];
#elif defined(VARIANT_vector)
  /* The warp's (row, 16-byte chunk) pairs in order, lane l on the l-th, l+32-th, ...: every lane busy
   * whatever D is (a row of 64 f32 is 16 chunks: two rows per step). */
#if defined(__CUDACC__) && __CUDA_ARCH__ >= 900 && defined(TYPE_f32) && D % 4 == 0
#define CHUNKS (D / 4)
  for (uint t = lane; t < n * CHUNKS; t += LANES) {
    const ulong i = first + t / CHUNKS, k = idx[i];
    const uint c = t % CHUNKS * 4;
    const float4 v = *(const float4 *)&src[i * D + c];
    asm volatile("red.global.add.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(&out[k * D + c]), "f"(v.x), "f"(v.y),
                 "f"(v.z), "f"(v.w)
                 : "memory");
  }
#elif defined(__CUDACC__) && __CUDA_ARCH__ >= 900 && defined(PACKED) && D % 8 == 0
#define CHUNKS (D / 8) /* 8 16-bit values, added as stored (no rounding of the operand) */
  for (uint t = lane; t < n * CHUNKS; t += LANES) {
    const ulong i = first + t / CHUNKS, k = idx[i];
    const uint c = t % CHUNKS * 8;
    const uint4 v = *(const uint4 *)&src[i * D + c];
    asm volatile(RED_V4 " [%0], {%1, %2, %3, %4};" ::"l"(&out[k * D + c]), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
                 : "memory");
  }
#else
#error "VARIANT_vector needs CUDA on sm_90 and f32 with D a multiple of 4 or bf16 / f16 with D a multiple of 8"
#endif
#elif defined(VARIANT_atomic) && defined(PACKED)
  /* The warp's (row, column pair) pairs in order: one packed reduction per pair, every lane busy. */
  for (uint t = lane; t < n * PAIRS; t += LANES) {
    const ulong i = first + t / PAIRS, k = idx[i];
    const uint c = t % PAIRS * 2;
    ADD_PAIR(&out[k * D + c], LOAD(src[i * D + c]), c + 1 < D ? LOAD(src[i * D + c + 1]) : -0.0f);
  }
#elif defined(VARIANT_atomic)
  /* The warp's (row, column) pairs in order, lane l on the l-th, l+32-th, ...: one atomic per element, a
   * row's columns neighbouring words, and every lane busy when D < 32 (D = 1: 32 rows per step). */
  for (uint t = lane; t < n * D; t += LANES) {
    const ulong i = first + t / D, k = idx[i];
    const uint c = t % D;
    ADD(&out[k * D + c], LOAD(src[i * D + c]));
  }
#elif defined(PACKED) /* VARIANT_run, 16-bit: lane l sums column pairs l, l + 32, ... in f32 */
  float lo[PCOLS], hi[PCOLS];
  (void)n;
  ulong key = first < last ? idx[first] : 0;
  for (uint j = 0; j < PCOLS; j++)
    lo[j] = hi[j] = 0.0f;
  for (ulong i = first; i < last; i++) {
    const ulong k = idx[i];
    if (k != key) { /* the run ends: its sums go out, one packed reduction per pair */
      for (uint j = 0, c = 2 * lane; c < D; j++, c += 2 * LANES) {
        ADD_PAIR(&out[key * D + c], lo[j], c + 1 < D ? hi[j] : -0.0f);
        lo[j] = hi[j] = 0.0f;
      }
      key = k;
    }
    for (uint j = 0, c = 2 * lane; c < D; j++, c += 2 * LANES) {
      lo[j] += LOAD(src[i * D + c]);
      if (c + 1 < D)
        hi[j] += LOAD(src[i * D + c + 1]);
    }
  }
  if (first < last)
    for (uint j = 0, c = 2 * lane; c < D; j++, c += 2 * LANES)
      ADD_PAIR(&out[key * D + c], lo[j], c + 1 < D ? hi[j] : -0.0f);
#else /* VARIANT_run */
  A sum[COLS];
  (void)n;
  ulong key = first < last ? idx[first] : 0;
  for (uint j = 0; j < COLS; j++)
    sum[j] = (A)0;
  for (ulong i = first; i < last; i++) {
    const ulong k = idx[i];
    if (k != key) { /* the run ends: its sums go out, one atomic per column */
      for (uint j = 0, c = lane; c < D; j++, c += LANES) {
        ADD(&out[key * D + c], sum[j]);
        sum[j] = (A)0;
      }
      key = k;
    }
    for (uint j = 0, c = lane; c < D; j++, c += LANES)
      sum[j] += LOAD(src[i * D + c]);
  }
  if (first < last)
    for (uint j = 0, c = lane; c < D; j++, c += LANES)
      ADD(&out[key * D + c], sum[j]);
#endif
}
#endif
