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
 *
 * Floats on OpenCL 1.2 have no atomic add: a CAS loop on the word's bits (what users write there); 16-bit
 * floats a CAS loop on the 32-bit word that holds a pair (atomlab/scatter_device.h). The 16-bit run and block
 * variants sum in f32 and flush a pair of columns per packed reduction; an odd D's last column goes with -0.0f
 * in the other half (which leaves it as it is), and a pair that straddles two words (odd D, odd row) as two
 * packed reductions. */
#include "atomlab/port.h"
#include "atomlab/scatter_types.h" /* T, A (what a lane sums in: f32 for the 16-bit floats), LOAD */
#include "atomlab/key_guard.h"    /* KEY_GUARD: the library's builds return where its check found a bad key */

/* ADD: an atomic add of an A to a stored value; the 16-bit floats also by pairs of columns */
#if defined(TYPE_f32)
#define ADD(p, v) atl_atomic_add_f32((p), (v))
#elif defined(TYPE_bf16) || defined(TYPE_f16)
#define PACKED 1 /* added in pairs of columns: one bf16x2 / f16x2 reduction per pair */
#if defined(TYPE_bf16)
#define ADD(p, v) atl_atomic_add_bf16((p), (v))
#define ADD_PAIR_AT(p, lo, hi) atl_atomic_add_bf16_pair((p), (lo), (hi))
#define ADD_WORD(w, lo, hi) atl_atomic_add_bf16x2((w), (lo), (hi))
#define RED_V4 "red.global.v4.bf16x2.add.noftz"
#else
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
#define ADD(p, v) atl_atomic_add((p), (v))
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

#if defined(__CUDACC__) && __CUDA_ARCH__ >= 900
#include "atomlab/scatter_sm90.h" /* RED_UNIT, the vector and bulk reductions */
#endif

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

#if defined(VARIANT_part) && defined(PART_SEEN) && PART_SEEN
/* The slot that already holds key @p k (the probes of slot_of, no insert), or SLOTS: --part-table seen */
ATL_INLINE uint slot_find(volatile ATL_LOCAL uint *keys, uint k)
{
  uint s = (k * 2654435761u) % SLOTS;
  for (uint probe = 0; probe < 8; probe++, s = (s + 1) % SLOTS) {
    const uint cur = keys[s];
    if (cur == k)
      return s;
    if (cur == EMPTY)
      break;
  }
  return SLOTS;
}
#endif

#if defined(VARIANT_part)
/* VARIANT_part's bucketing (--part-keys bucket), one pass over the keys before the ranges: part_count counts
 * the rows of each range, part_scan turns the counts into each range's first place (bounds) and a cursor,
 * part_fill writes each row's (row, key) pair at its range's cursor. Launch q then reads only its own
 * bounds[q] .. bounds[q + 1] pairs instead of all E keys (P passes over the keys become one, plus 8 bytes a
 * row written and read once). meta holds counts at 0, cursors at PART_MAX, bounds at 2 PART_MAX. The order
 * of the pairs within a range is not fixed (nor is the order of a float sum: the bound covers any order). */
#define PART_MAX 1024u
#define FILL_ROWS 8u /* rows a work-item of part_fill holds between its two barriers */
#define TICKET (3u * PART_MAX + 1u) /* the sweep's ticket counter in meta, after the bucketing's bounds */
#define READY (TICKET + 1u)         /* then the sweep's flags: chunk c's keys narrowed (PART_NARROW) */
#if !defined(PART_NARROW)
#define PART_NARROW 0
#endif
#if !defined(PART_CHUNK_STEPS)
#define PART_CHUNK_STEPS 16u /* the sweep's chunk: steps of 32 rows per warp of a work-group (--part-chunk) */
#endif
#if !defined(PART_SPLIT)
#define PART_SPLIT 0 /* the sweep's range 0 sorts the later ranges' keys by range (--part-split; PART_POS_BITS) */
#endif
#if !defined(PART_GROUP)
#define PART_GROUP 4u /* PART_SPLIT: chunks a later range's ticket takes (--part-group) */
#endif

/* The range of key k: the largest q with floor(V q / P) <= k, for ranges [V q / P, V (q + 1) / P) */
ATL_INLINE uint range_of(uint k, uint parts, uint targets)
{
  return (uint)((((ulong)k + 1u) * parts - 1u) / targets);
}

/* hist[r] += 1, returning the old count; a warp's lanes of one range as one atomic on CUDA (a hot key's range
 * would otherwise take 32 serialized local atomics per warp) */
ATL_INLINE uint hist_add(volatile ATL_LOCAL uint *hist, uint r)
{
#if defined(__CUDACC__) && __CUDA_ARCH__ >= 700
  const uint m = __activemask(), grp = __match_any_sync(m, r), lane = atl_local_id() & 31u;
  const uint first = (uint)__ffs(grp) - 1u;
  uint old = 0;
  if (lane == first)
    old = atomicAdd((uint *)&hist[r], (uint)__popc(grp));
  return __shfl_sync(grp, old, first) + (uint)__popc(grp & ((1u << lane) - 1u));
#else
  return atl_atomic_add(&hist[r], 1u);
#endif
}

ATL_KERNEL void part_count(ATL_GLOBAL const IDX_T *ATL_RESTRICT idx, ATL_GLOBAL uint *meta, ulong rows, uint parts,
                           uint targets)
{
  ATL_SHARED uint hist[PART_MAX];
  const uint lid = atl_local_id(), wg = atl_local_size();
  for (uint s = lid; s < parts; s += wg)
    hist[s] = 0;
  atl_barrier_local();
  for (ulong i = atl_global_id64(); i < rows; i += atl_global_size64())
    hist_add(hist, range_of((uint)idx[i], parts, targets));
  atl_barrier_local();
  for (uint s = lid; s < parts; s += wg)
    if (hist[s])
      atl_atomic_add(&meta[s], hist[s]);
}

/* One work-item: P <= PART_MAX counts */
ATL_KERNEL void part_scan(ATL_GLOBAL uint *meta, uint parts)
{
  if (atl_global_id64() != 0)
    return;
  uint at = 0;
  for (uint q = 0; q < parts; q++) {
    meta[2 * PART_MAX + q] = meta[PART_MAX + q] = at;
    at += meta[q];
  }
  meta[2 * PART_MAX + parts] = at;
}

/* Chunks of wg x FILL_ROWS rows, one wave of work-groups taking them in turn: the chunk's counts per range
 * in local memory, one global atomic per range a chunk reserves its places, then each row's pair there. */
ATL_KERNEL void part_fill(ATL_GLOBAL const IDX_T *ATL_RESTRICT idx, ATL_GLOBAL uint *meta, ATL_GLOBAL uint2 *pairs,
                          ulong rows, uint parts, uint targets)
{
  ATL_SHARED uint hist[PART_MAX], at[PART_MAX];
  const uint lid = atl_local_id(), wg = atl_local_size();
  const ulong chunk = (ulong)wg * FILL_ROWS;
  for (ulong first = (ulong)atl_group_id() * chunk; first < rows; first += (ulong)atl_num_groups() * chunk) {
    uint k[FILL_ROWS], r[FILL_ROWS], pos[FILL_ROWS];
    for (uint s = lid; s < parts; s += wg)
      hist[s] = 0;
    atl_barrier_local();
    for (uint u = 0; u < FILL_ROWS; u++) {
      const ulong i = first + (ulong)u * wg + lid;
      k[u] = i < rows ? (uint)idx[i] : 0u;
      r[u] = i < rows ? range_of(k[u], parts, targets) : PART_MAX;
      pos[u] = r[u] < PART_MAX ? hist_add(hist, r[u]) : 0u;
    }
    atl_barrier_local();
    for (uint s = lid; s < parts; s += wg)
      at[s] = hist[s] ? atl_atomic_add(&meta[PART_MAX + s], hist[s]) : 0u;
    atl_barrier_local();
    for (uint u = 0; u < FILL_ROWS; u++)
      if (r[u] < PART_MAX) {
        uint2 pr;
        pr.x = (uint)(first + (ulong)u * wg + lid);
        pr.y = k[u];
        pairs[at[r[u]] + pos[u]] = pr;
      }
    atl_barrier_local();
  }
}
#endif

#if defined(VARIANT_part) && defined(__CUDACC__) && __CUDA_ARCH__ >= 700 && (!defined(PACKED) || D % 2 == 0)
/* VARIANT_part: launch p of P adds only the rows whose key lies in [lo, hi), a slice of the output the host
 * sizes to stay in the L2 while every update of it arrives (src/apps/scatter.c: half the L2). Uniform keys
 * into an output larger than the L2 otherwise read and write a whole output row in DRAM per update (E x D x 8
 * bytes against the counted 2 V x D x 4); here each output row moves about once. scatter_part reads all the
 * keys in every launch (E x 4 bytes a pass, streamed); scatter_part_bucketed reads only its range's (row, key)
 * pairs (part_fill above). A source row is read in the one launch whose range holds its key; keys and rows
 * are loaded with the evict-first hint (ld.global.cs) so they do not push the slice out.
 * A warp takes 32 rows a step (part_step): the rows in range found by a vote, rows with equal keys
 * (match-any) summed in registers, the warp's (group, unit) pairs over its lanes (a unit: 4 floats added by
 * one red.global.add.v4.f32 on sm_90 with D a multiple of 4, else one value), PART_BATCH units a lane
 * loaded before any is added (a lane's loads in flight together, not one DRAM latency per unit). A key
 * that recurs within a step (a zipf head, a hot row) takes a slot of the work-group's local table (as the
 * block variant's: SLOTS keys x D sums, CAS inserts) and goes out once per work-group at the end; keys that
 * do not recur (uniform) never touch it. With PART_SEEN (--part-table seen) a key alone in its step also
 * adds into the table where an earlier step put it (one shared read for a key that is not there): a zipf
 * head's less frequent keys then leave the L2's hot lines alone.
 * 16-bit floats (even D) take the same path: a lane sums a group's rows in f32 and rounds the sum to 16 bits
 * once for the packed reduction (a unit: 8 values, 16 bytes, one red.global.v4.bf16x2 / .f16x2 on sm_90 with
 * D a multiple of 8; else a pair, one bf16x2 / f16x2 reduction); the local table holds f32 sums, rounded when
 * the work-group's end adds them. Roundings per output element: at most its rows' count, as the block
 * variant's (the bound of docs/design/scatter.md). */
#if defined(RED_UNIT)
#define UNIT RED_UNIT
#elif defined(PACKED)
#define UNIT 2u
#else
#define UNIT 1u
#endif
#define UNITS (D / UNIT)
#define FULL 0xffffffffu
#if !defined(PART_BATCH)
#define PART_BATCH 1u
#endif
#if !defined(WARPS)
#define WARPS 32u
#endif
#if !defined(PART_SEEN)
#define PART_SEEN 0
#endif
#if !defined(PART_HOT)
#define PART_HOT 0
#endif
#if !defined(PART_PREFETCH)
#define PART_PREFETCH 0
#endif
#if !defined(PART_BULK)
#define PART_BULK 0
#endif
/* --part-add bulk (sm_90, f32, a row a whole number of a batch's lanes): a group's row sum goes out as ONE bulk
 * reduction of the row (cp.reduce.async.bulk .add.f32, the TMA unit) from a staging ring in shared memory,
 * instead of D / 4 16-byte red.global.add.v4.f32 (whether whole-row reductions relieve the L2's atomic units:
 * on the H100 they do not, 1.458 ms against red's 1.441; reference run: scatter). Elsewhere the red path runs
 * (the host's row metric part_bulk says which). */
#if PART_BULK && defined(RED_UNIT) && defined(TYPE_f32) && LANES % UNITS == 0
#define BULK 1
#else
#define BULK 0
#endif

/* --part-hot warp: a warp's own hot key, summed in its registers. The first key the warp sees recur within a
 * step (a zipf head's rank 0 most often, the hot row always) becomes its key; from the next step on, that key's
 * rows are added by the whole warp into registers (lane l holding units l, l + 32, ...: a row's loads
 * coalesced, PART_BATCH rows' loads in flight together, no atomic at all) and go out once, when the warp ends;
 * the rest go the usual way. */
#define HOTJ ((UNITS + LANES - 1) / LANES)
struct part_hot {
  uint key;
  A v[HOTJ][UNIT];
  uint ring; /* BULK: batches committed, whose parity names the staging half a batch writes */
};

/* v = (first) or += the UNIT values at p, loaded evict-first (they are read once) */
ATL_INLINE void unit_load(const T *p, A *v, bool first)
{
#if defined(PACKED) /* 16-bit values: a 32-bit word holds a pair (the unit starts a word: D is even) */
  uint w[UNIT / 2];
#if UNIT == 8
  const uint4 x = __ldcs((const uint4 *)p);
  w[0] = x.x, w[1] = x.y, w[2] = x.z, w[3] = x.w;
#else
  w[0] = __ldcs((const unsigned int *)p);
#endif
#pragma unroll
  for (uint u = 0; u < UNIT / 2; u++) {
    const A lo = LOAD(w[u] & 0xffffu), hi = LOAD(w[u] >> 16);
    v[2 * u] = first ? lo : v[2 * u] + lo;
    v[2 * u + 1] = first ? hi : v[2 * u + 1] + hi;
  }
#elif UNIT == 4
  const float4 x = __ldcs((const float4 *)p);
  if (first)
    v[0] = x.x, v[1] = x.y, v[2] = x.z, v[3] = x.w;
  else
    v[0] += x.x, v[1] += x.y, v[2] += x.z, v[3] += x.w;
#else
  const T x = __ldcs(p);
  v[0] = first ? x : v[0] + x;
#endif
}

/* out p += the UNIT values of v: one vector reduction (sm_90: f32, or 16-bit sums rounded to nearest) or one
 * atomic (16-bit: one packed reduction) */
ATL_INLINE void unit_red(T *p, const A *v)
{
#if defined(PACKED) && UNIT == 8
#if defined(TYPE_bf16)
#define TO16(f) atl_float_to_bf16(f)
#else
#define TO16(f) atl_float_to_f16(f)
#endif
  red_16x8(p, TO16(v[0]) | TO16(v[1]) << 16, TO16(v[2]) | TO16(v[3]) << 16, TO16(v[4]) | TO16(v[5]) << 16,
           TO16(v[6]) | TO16(v[7]) << 16);
#undef TO16
#elif defined(PACKED)
  ADD_WORD((uint *)p, v[0], v[1]);
#elif UNIT == 4
  red_f32x4(p, v[0], v[1], v[2], v[3]);
#else
  ADD(p, v[0]);
#endif
}

/* The work-group's table and its warps' step arrays: the rows of the step's lanes, and the first lane of each
 * group of equal keys in the order of those lanes (the rest of a group's data comes by shuffle) */
struct part_shared {
#if BULK /* two halves a warp, a batch's (group, unit) sums each: a batch writes one while the other's bulk
          * reductions may still read theirs */
  float4 stage[WARPS][2][LANES * PART_BATCH];
#endif
  uint keys[SLOTS];
  A sums[SLOTS * D];
  uint row[WARPS][LANES], first[WARPS][LANES];
};

/* One step of a warp: lane l's row @p row with key @p k, where @p in */
ATL_INLINE void part_step(struct part_shared *sh, struct part_hot *hot, const T *ATL_RESTRICT src, T *out, uint warp,
                          uint lane, bool in, uint k, uint row)
{
#if PART_HOT
  if (hot->key != EMPTY) { /* the same for every lane */
    /* PART_BATCH of the key's rows a time: their loads in flight together, then added (zeros past the last) */
    for (uint hm = __ballot_sync(FULL, in && k == hot->key); hm;) {
      A x[PART_BATCH][HOTJ][UNIT];
#pragma unroll
      for (uint b = 0; b < PART_BATCH; b++) {
        const uint r = __shfl_sync(FULL, row, hm ? (uint)__ffs(hm) - 1u : 0u);
#pragma unroll
        for (uint j = 0; j < HOTJ; j++)
          if (hm && lane + j * LANES < UNITS)
            unit_load(&src[(ulong)r * D + (lane + j * LANES) * UNIT], x[b][j], true);
          else
#pragma unroll
            for (uint u = 0; u < UNIT; u++)
              x[b][j][u] = (A)0;
        hm &= hm - 1u;
      }
#pragma unroll
      for (uint b = 0; b < PART_BATCH; b++)
#pragma unroll
        for (uint j = 0; j < HOTJ; j++)
#pragma unroll
          for (uint u = 0; u < UNIT; u++)
            hot->v[j][u] += x[b][j][u];
    }
    in = in && k != hot->key;
  }
#endif
  const uint grp = __match_any_sync(FULL, in ? k : EMPTY); /* the lanes whose row has this key */
#if PART_HOT
  if (hot->key == EMPTY) { /* this step's rows of the new key still go the usual way */
    const uint rec = __ballot_sync(FULL, in && __popc(grp) > 1);
    if (rec)
      hot->key = __shfl_sync(FULL, k, (uint)__ffs(rec) - 1u);
  }
#else
  (void)hot;
#endif
  const uint lead = __ballot_sync(FULL, in && lane == (uint)__ffs(grp) - 1u);
  if (lead == 0)
    return;
  sh->row[warp][lane] = row;
  uint slot = SLOTS; /* a recurring key's place in the table (its first lane's) */
  if (lead >> lane & 1u) {
    sh->first[warp][__popc(lead & ((1u << lane) - 1u))] = lane;
    if (__popc(grp) > 1)
      slot = slot_of(sh->keys, k);
#if PART_SEEN
    else /* a head key alone in this step still goes to its slot if an earlier step gave it one */
      slot = slot_find(sh->keys, k);
#endif
  }
  __syncwarp();
  const uint n = (uint)__popc(lead) * UNITS;
  for (uint t0 = 0; t0 < n; t0 += LANES * PART_BATCH) {
    A v[PART_BATCH][UNIT];
    uint g[PART_BATCH], key[PART_BATCH], s[PART_BATCH];
#pragma unroll
    for (uint b = 0; b < PART_BATCH; b++) { /* every group's first row's unit in flight before any add */
      const uint t = t0 + b * LANES + lane, from = t < n ? sh->first[warp][t / UNITS] : 0u;
      const uint r0 = __shfl_sync(FULL, row, from);
      key[b] = __shfl_sync(FULL, k, from);
      s[b] = __shfl_sync(FULL, slot, from);
      g[b] = __shfl_sync(FULL, grp, from);
      if (t < n) {
        unit_load(&src[(ulong)r0 * D + t % UNITS * UNIT], v[b], true);
        g[b] &= g[b] - 1u; /* the first lane is the group's lowest */
      } else
        g[b] = 0;
    }
#pragma unroll
    for (uint b = 0; b < PART_BATCH; b++) /* the other rows of a group of equal keys */
      for (uint r = g[b]; r; r &= r - 1u)
        unit_load(&src[(ulong)sh->row[warp][__ffs(r) - 1] * D + (t0 + b * LANES + lane) % UNITS * UNIT], v[b],
                  false);
#if BULK
    /* The batch's rows start at a multiple of UNITS (UNITS divides LANES), so each row's units are neighbours in
     * the stage: its first lane sends the whole row by one bulk reduction. Each lane waits for its own bulk groups:
     * at most the last one (the other half) still reading, then the warp writes this half. */
    float4 *stage = sh->stage[warp][hot->ring & 1u];
    bulk_wait_read();
    __syncwarp();
#pragma unroll
    for (uint b = 0; b < PART_BATCH; b++) {
      const uint t = t0 + b * LANES + lane;
      if (t >= n)
        break;
      if (s[b] < SLOTS)
        for (uint u = 0; u < UNIT; u++)
          ADD_LOCAL(&sh->sums[s[b] * D + t % UNITS * UNIT + u], v[b][u]);
      else
        stage[b * LANES + lane] = make_float4(v[b][0], v[b][1], v[b][2], v[b][3]);
    }
    bulk_fence();
    __syncwarp();
#pragma unroll
    for (uint b = 0; b < PART_BATCH; b++) {
      const uint t = t0 + b * LANES + lane;
      if (t < n && t % UNITS == 0 && s[b] >= SLOTS)
        bulk_red_f32(&out[(ulong)key[b] * D], &stage[b * LANES + lane], (uint)(D * sizeof(float)));
    }
    bulk_commit();
    hot->ring++;
#else
#pragma unroll
    for (uint b = 0; b < PART_BATCH; b++) {
      const uint t = t0 + b * LANES + lane;
      if (t >= n)
        break;
      const uint c = t % UNITS * UNIT;
      if (s[b] < SLOTS)
        for (uint u = 0; u < UNIT; u++)
          ADD_LOCAL(&sh->sums[s[b] * D + c + u], v[b][u]);
      else
        unit_red(&out[(ulong)key[b] * D + c], v[b]);
    }
#endif
  }
  __syncwarp(); /* the step's arrays are read before the next step writes them */
}

ATL_INLINE void part_begin(struct part_shared *sh, struct part_hot *hot)
{
  hot->key = EMPTY;
  hot->ring = 0;
#pragma unroll
  for (uint j = 0; j < HOTJ; j++)
#pragma unroll
    for (uint u = 0; u < UNIT; u++)
      hot->v[j][u] = (A)0;
  const uint lid = atl_local_id(), wg = atl_local_size();
  for (uint s = lid; s < SLOTS; s += wg)
    sh->keys[s] = EMPTY;
  for (uint e = lid; e < SLOTS * D; e += wg)
    sh->sums[e] = (A)0;
  atl_barrier_local();
}

/* the table's sums out, one reduction per slot and unit */
ATL_INLINE void part_end(struct part_shared *sh, const struct part_hot *hot, T *out)
{
  const uint lid = atl_local_id(), wg = atl_local_size();
#if BULK /* every bulk reduction done before the stage is left (and the work-group ends) */
  bulk_wait_all();
#endif
#if PART_HOT
  if (hot->key != EMPTY)
#pragma unroll
    for (uint j = 0; j < HOTJ; j++)
      if (lid % LANES + j * LANES < UNITS)
        unit_red(&out[(ulong)hot->key * D + (lid % LANES + j * LANES) * UNIT], hot->v[j]);
#else
  (void)hot;
#endif
  atl_barrier_local();
  for (uint e = lid; e < SLOTS * UNITS; e += wg) {
    const uint s = e / UNITS, c = e % UNITS * UNIT, k = sh->keys[s];
    if (k != EMPTY)
      unit_red(&out[(ulong)k * D + c], &sh->sums[s * D + c]);
  }
}

/* --part-prefetch l2: the bytes [from, to) of the output asked into the L2, a 128-byte line a work-item in address
 * order (work-item @p id of @p n), kept there (evict_last) while keys and rows stream past evict-first: without it
 * each output row comes from DRAM at its first update, in the keys' random order. */
ATL_INLINE void part_prefetch(const T *out, ulong from, ulong to, ulong id, ulong n)
{
  for (ulong e = from + id * 128u; e < to; e += n * 128u)
    asm volatile("prefetch.global.L2::evict_last [%0];" ::"l"((const char *)out + e));
}

/* launched with WARPS x 32 work-items a group: ptxas keeps the registers within what that many threads have (a
 * batch of 8 units at 1024 a group would otherwise not launch) */
ATL_KERNEL void __launch_bounds__(WARPS * LANES)
    scatter_part(const T *ATL_RESTRICT src, const IDX_T *ATL_RESTRICT idx, T *out, ulong rows, uint lo,
                 uint hi KEY_GUARD_PARAM)
{
  ATL_SHARED struct part_shared sh;
  KEY_GUARD_RETURN();
  const uint lane = atl_local_id() % LANES, warp = atl_local_id() / LANES;
  struct part_hot hot;
#if PART_PREFETCH
  part_prefetch(out, (ulong)lo * D * sizeof(T), (ulong)hi * D * sizeof(T), atl_global_id64(), atl_global_size64());
#endif
  part_begin(&sh, &hot);
  /* Steps of 32 rows, step s by warp s mod the warps (one wave of them): sorted keys, whose rows of a range are
   * neighbours, spread over every warp too. The same steps for every lane: the votes need them all. */
  const ulong stride = atl_global_size64() / LANES * LANES;
  ulong base = atl_global_id64() / LANES * LANES;
  uint k = base + lane < rows ? (uint)__ldcs(&idx[base + lane]) : hi;
  for (; base < rows; base += stride) { /* the next step's keys loaded before this step's rows */
    const ulong i = base + lane, next = i + stride;
    const uint k_next = next < rows ? (uint)__ldcs(&idx[next]) : hi;
    part_step(&sh, &hot, src, out, warp, lane, k - lo < hi - lo, k, (uint)i);
    k = k_next;
  }
  part_end(&sh, &hot, out);
}

ATL_KERNEL void __launch_bounds__(WARPS * LANES)
    scatter_part_bucketed(const T *ATL_RESTRICT src, const uint2 *ATL_RESTRICT pairs, T *out,
                          const uint *ATL_RESTRICT meta, uint q)
{
  ATL_SHARED struct part_shared sh;
  const uint lane = atl_local_id() % LANES, warp = atl_local_id() / LANES;
  const ulong b0 = meta[2 * PART_MAX + q], b1 = meta[2 * PART_MAX + q + 1];
  struct part_hot hot;
  part_begin(&sh, &hot);
  const ulong stride = atl_global_size64() / LANES * LANES;
  ulong base = b0 + atl_global_id64() / LANES * LANES;
  uint2 pr = base + lane < b1 ? __ldcs(&pairs[base + lane]) : make_uint2(0u, 0u);
  for (; base < b1; base += stride) { /* the next step's pairs loaded before this step's rows */
    const ulong i = base + lane, next = i + stride;
    const uint2 pr_next = next < b1 ? __ldcs(&pairs[next]) : make_uint2(0u, 0u);
    part_step(&sh, &hot, src, out, warp, lane, i < b1, pr.y, pr.x);
    pr = pr_next;
  }
  part_end(&sh, &hot, out);
}

/* Key @p i of a sweep's chunk (@p hi past its last row @p last). PART_NARROW (i64 keys): range 0's pass writes each
 * key as u32 into @p narrow (mode 1), later ranges read those where their chunk's flag says they are all there (mode
 * 2), else the i64 keys again (mode 0): the same values either way, so no one waits. */
ATL_INLINE uint sweep_key(const IDX_T *ATL_RESTRICT idx, uint *narrow, ulong i, ulong last, uint hi, uint mode)
{
  if (i >= last)
    return hi;
#if PART_NARROW
  if (mode == 2)
    return __ldcs(&narrow[i]);
  const uint k = (uint)__ldcs(&idx[i]);
  if (mode == 1)
    __stcs(&narrow[i], k);
  return k;
#else
  (void)narrow, (void)mode;
  return (uint)__ldcs(&idx[i]);
#endif
}

/* --part-prefetch l2 in the sweep: the ticket that is @p slice of its range's first @p slices asks its slice of the
 * range's output lines [lo, hi) into the L2 */
ATL_INLINE void sweep_prefetch(const T *out, uint lo, uint hi, ulong slice, ulong slices)
{
#if PART_PREFETCH
  if (slice < slices) {
    const ulong lines = ((ulong)(hi - lo) * D * sizeof(T) + 127u) / 128u, per = (lines + slices - 1) / slices;
    const ulong from = (ulong)lo * D * sizeof(T) + slice * per * 128u, end = (ulong)hi * D * sizeof(T);
    part_prefetch(out, from, from + per * 128u < end ? from + per * 128u : end, atl_local_id(), atl_local_size());
  }
#else
  (void)out, (void)lo, (void)hi, (void)slice, (void)slices;
#endif
}

/* A work-group's table goes out when its ticket's range @p q differs from the last one's (*range), then a clean one */
ATL_INLINE void sweep_enter(struct part_shared *sh, struct part_hot *hot, T *out, uint *range, uint q)
{
  if (q == *range)
    return;
  if (*range != EMPTY) {
    part_end(sh, hot, out);
    atl_barrier_local();
    part_begin(sh, hot);
  }
  *range = q;
}

/* The rows first .. last - 1 of a chunk in steps of 32 rows a warp, those with keys in [lo, hi) added (keys
 * read as sweep_key's @p mode says) */
ATL_INLINE void sweep_rows(struct part_shared *sh, struct part_hot *hot, const T *ATL_RESTRICT src,
                           const IDX_T *ATL_RESTRICT idx, T *out, uint *narrow, ulong first, ulong last, uint lo,
                           uint hi, uint mode)
{
  const uint lane = atl_local_id() % LANES, warp = atl_local_id() / LANES;
  ulong base = first + (ulong)warp * LANES;
  uint k = sweep_key(idx, narrow, base + lane, last, hi, mode);
  for (; base < last; base += (ulong)WARPS * LANES) { /* the next step's keys loaded before this step's rows */
    const ulong i = base + lane, next = i + (ulong)WARPS * LANES;
    const uint k_next = sweep_key(idx, narrow, next, last, hi, mode);
    part_step(sh, hot, src, out, warp, lane, k - lo < hi - lo, k, (uint)i);
    k = k_next;
  }
}

/* The sweep's work-groups a SM at least, PART_MIN_THREADS of resident threads (the tuning's min_threads: 1280 on
 * sm_90): the split's extra registers (54 against 47 at 8 warps, sm_90) would otherwise cost a work-group of the 5
 * that 47 leave (and its local memory, 35 KB at dim 64, allows 6) */
#if !defined(PART_MIN_THREADS)
#define PART_MIN_THREADS 1280u
#endif
#if PART_SPLIT && PART_MIN_THREADS / (WARPS * LANES) >= 2u
#define SWEEP_BOUNDS __launch_bounds__(WARPS * LANES, PART_MIN_THREADS / (WARPS * LANES))
#else
#define SWEEP_BOUNDS __launch_bounds__(WARPS * LANES)
#endif

#if PART_SPLIT
/* --part-split on (the sweep's default where it fits): range 0's pass, which reads every key anyway, also sorts
 * its chunk's other keys by range into the chunk's own stretch of @p narrow (a counting sort in local memory: the
 * chunk's keys read twice, the second time from the L2), each as one u32: its row's place in the chunk
 * (PART_POS_BITS) over its key's place in its range. Chunk c's bucket ends go to meta[SPLIT_ENDS + c SPLIT_MAX]
 * (word q: the end of range q's bucket, range 0's empty), then its flag. A later range's ticket takes
 * PART_GROUP chunks and reads only its own bucket of each, 4 bytes a row of its range, where the P - 1 later
 * passes read every key before (P - 1 times E x 4 bytes, the sweep's largest overhead: about 0.43 GB at E = 8 M
 * over 13 ranges against 2.7 GB moved in all). A chunk whose flag is not yet set is read as before: no wait. */
#define SPLIT_MAX 32u
#define SPLIT_KEY_BITS (32u - PART_POS_BITS)
#define SPLIT_ENDS(chunks) (READY + (chunks))
struct split_shared {
  uint lo[SPLIT_MAX + 1]; /* range q's first key */
  uint count[SPLIT_MAX], cursor[SPLIT_MAX];
  uint start[PART_GROUP], size[PART_GROUP], pre[PART_GROUP + 1]; /* a later range's ticket: its chunks' buckets
                                                                  * (size EMPTY: unsorted), their prefix */
  float per_key; /* parts / targets: a first guess of a key's range */
};

/* Key @p k's range, or @p parts where k is past the last (k >= targets): range_of's answer from a float guess and
 * the ranges' first keys in local memory, not its 64-bit division, which range 0's pass would run twice a key */
ATL_INLINE uint split_range(const struct split_shared *sp, uint k, uint parts)
{
  uint q = (uint)((float)k * sp->per_key); /* off by at most one (|q| < 2^5, float's error 2^-24 of it) */
  q = q < parts ? q : parts - 1u;
  if (k < sp->lo[q])
    q--;
  else if (k >= sp->lo[q + 1])
    q++;
  return q;
}

/* The chunk's keys of ranges 1 .. P - 1 counted (pass 1) or written at their bucket's cursor (pass 2) */
ATL_INLINE void split_key(struct split_shared *sp, uint *bucket, uint k, uint parts, ulong at, bool pass2)
{
  const uint lane = atl_local_id() % LANES, q = split_range(sp, k, parts);
  const bool mine = q - 1u < parts - 1u; /* 1 <= q < parts */
  const uint grp = __match_any_sync(FULL, mine ? q : EMPTY), lead = (uint)__ffs(grp) - 1u;
  uint base = 0;
  if (mine && lane == lead)
    base = atomicAdd(pass2 ? &sp->cursor[q] : &sp->count[q], (uint)__popc(grp));
  base = __shfl_sync(FULL, base, lead);
  if (mine && pass2)
    __stcg(&bucket[base + __popc(grp & ((1u << lane) - 1u))], (uint)at << SPLIT_KEY_BITS | (k - sp->lo[q]));
}

/* Range 0's ticket for chunk @p c (rows first .. last - 1): its own rows added, the others sorted by range */
ATL_INLINE void split_range0(struct part_shared *sh, struct split_shared *sp, struct part_hot *hot,
                             const T *ATL_RESTRICT src, const IDX_T *ATL_RESTRICT idx, T *out, uint *meta,
                             uint *narrow, ulong first, ulong last, ulong c, ulong chunks, uint parts)
{
  const uint lane = atl_local_id() % LANES, warp = atl_local_id() / LANES, hi = sp->lo[1];
  if (atl_local_id() < SPLIT_MAX)
    sp->count[atl_local_id()] = 0;
  atl_barrier_local();
  ulong i = first + (ulong)warp * LANES + lane;
  uint k = i < last ? (uint)__ldcg(&idx[i]) : EMPTY; /* kept in the L2 for pass 2 */
  for (; i - lane < last; i += (ulong)WARPS * LANES) { /* the next step's keys loaded before this step's rows */
    const ulong next = i + (ulong)WARPS * LANES;
    const uint k_next = next < last ? (uint)__ldcg(&idx[next]) : EMPTY;
    part_step(sh, hot, src, out, warp, lane, k < hi, k, (uint)i);
    split_key(sp, NULL, k, parts, 0, false);
    k = k_next;
  }
  atl_barrier_local();
  if (warp == 0) { /* the buckets' ends: an inclusive scan of the counts over the warp's lanes */
    const uint n = lane < parts ? sp->count[lane] : 0u;
    uint end = n;
    for (uint d = 1; d < LANES; d *= 2) {
      const uint x = __shfl_up_sync(FULL, end, d);
      end += lane >= d ? x : 0u;
    }
    sp->cursor[lane] = end - n;
    meta[SPLIT_ENDS(chunks) + c * SPLIT_MAX + lane] = end;
  }
  atl_barrier_local();
  i = first + (ulong)warp * LANES + lane;
  k = i < last ? (uint)__ldcs(&idx[i]) : EMPTY;
  for (; i - lane < last; i += (ulong)WARPS * LANES) {
    const ulong next = i + (ulong)WARPS * LANES;
    const uint k_next = next < last ? (uint)__ldcs(&idx[next]) : EMPTY;
    split_key(sp, narrow + first, k, parts, i - first, true);
    k = k_next;
  }
  __threadfence(); /* release: every bucket and end stored before the chunk's flag */
  atl_barrier_local();
  if (atl_local_id() == 0)
    atomicExch(&meta[READY + c], 1u);
}

/* Entry @p v of a later range's ticket (chunks from @p c0, sp->pre their prefix): its row and key (none past @p
 * total) */
ATL_INLINE void split_entry(const struct split_shared *sp, const uint *narrow, ulong c0, uint v, uint total, uint lo,
                            uint *row, uint *k)
{
  const ulong chunk = (ulong)WARPS * LANES * PART_CHUNK_STEPS;
  uint g = 0; /* v's chunk */
#pragma unroll
  for (uint h = 1; h < PART_GROUP; h++)
    g += v >= sp->pre[h];
  const uint e = v < total ? __ldcs(&narrow[(c0 + g) * chunk + sp->start[g] + v - sp->pre[g]]) : 0u;
  *row = (uint)((c0 + g) * chunk + (e >> SPLIT_KEY_BITS));
  *k = lo + (e & ((1u << SPLIT_KEY_BITS) - 1u));
}

/* A later range q's ticket: chunks c0 .. c1 - 1, the sorted ones by their bucket (a row a lane over all of
 * them), the others (flag not yet set) by their keys */
ATL_INLINE void split_later(struct part_shared *sh, struct split_shared *sp, struct part_hot *hot,
                            const T *ATL_RESTRICT src, const IDX_T *ATL_RESTRICT idx, T *out, uint *meta,
                            uint *narrow, ulong rows, ulong c0, ulong c1, ulong chunks, uint q)
{
  const uint lane = atl_local_id() % LANES, warp = atl_local_id() / LANES, lo = sp->lo[q], hi = sp->lo[q + 1];
  const ulong chunk = (ulong)WARPS * LANES * PART_CHUNK_STEPS;
  const uint j = atl_local_id();
  if (j < PART_GROUP) { /* acquire: the flag read before the bucket it announces */
    const ulong c = c0 + j;
    const bool sorted = c < c1 && atomicOr(&meta[READY + c], 0u) != 0u;
    __threadfence();
    const uint *ends = &meta[SPLIT_ENDS(chunks) + c * SPLIT_MAX];
    sp->start[j] = sorted ? ends[q - 1u] : 0u;
    sp->size[j] = sorted ? ends[q] - ends[q - 1u] : c < c1 ? EMPTY : 0u; /* EMPTY: read by its keys below */
  }
  atl_barrier_local();
  if (j == 0) { /* the buckets' prefix (an unsorted chunk's: 0) */
    sp->pre[0] = 0;
    for (uint g = 0; g < PART_GROUP; g++)
      sp->pre[g + 1] = sp->pre[g] + (sp->size[g] == EMPTY ? 0u : sp->size[g]);
  }
  atl_barrier_local();
  const uint total = sp->pre[PART_GROUP];
  uint v = warp * LANES + lane, row, k;
  split_entry(sp, narrow, c0, v, total, lo, &row, &k);
  for (; v - lane < total; v += WARPS * LANES) { /* the next step's entries loaded before this step's rows */
    uint row_next, k_next;
    split_entry(sp, narrow, c0, v + WARPS * LANES, total, lo, &row_next, &k_next);
    part_step(sh, hot, src, out, warp, lane, v < total, k, row);
    row = row_next, k = k_next;
  }
  for (uint g = 0; g < PART_GROUP; g++)
    if (sp->size[g] == EMPTY) {
      const ulong first = (c0 + g) * chunk;
      sweep_rows(sh, hot, src, idx, out, narrow, first, first + chunk < rows ? first + chunk : rows, lo, hi, 0u);
    }
  atl_barrier_local(); /* sp->size read by all before the next ticket's */
}
#endif

/* --variants sweep: every range in ONE launch (no drain and ramp-up between ranges). Tickets from a global counter
 * (meta[TICKET], zeroed before the launch) in range-major order: ticket t is chunk t mod C of range t / C, a chunk of
 * PART_CHUNK_STEPS steps of 32 rows per warp, so the work-groups move to range q + 1 as soon as range q's chunks are
 * all taken, and at most two ranges share the L2 for a while (PART_SPLIT: range 0's C tickets, then each later
 * range's ceil(C / PART_GROUP)). A work-group's local table goes out when its range changes (its keys' rows are
 * then still in the L2). With --part-prefetch l2 the groups that take a range's first tickets (as many as there are
 * groups) ask its output rows into the L2, a slice each. No order is needed for correctness: every add is an atomic.
 */
ATL_KERNEL void SWEEP_BOUNDS
    scatter_part_sweep(const T *ATL_RESTRICT src, const IDX_T *ATL_RESTRICT idx, T *out, ulong rows, uint parts,
                       uint targets, uint *meta, uint *narrow KEY_GUARD_PARAM)
{
  ATL_SHARED struct part_shared sh;
  ATL_SHARED uint taken, ready;
  KEY_GUARD_RETURN();
  const ulong chunk = (ulong)WARPS * LANES * PART_CHUNK_STEPS, chunks = (rows + chunk - 1) / chunk;
  struct part_hot hot;
  uint range = EMPTY;
#if PART_SPLIT
  ATL_SHARED struct split_shared sp;
  const ulong later = (chunks + PART_GROUP - 1) / PART_GROUP; /* a later range's tickets */
  for (uint q = atl_local_id(); q <= SPLIT_MAX; q += atl_local_size())
    sp.lo[q] = (uint)((ulong)targets * (q < parts ? q : parts) / parts);
  if (atl_local_id() == 0)
    sp.per_key = (float)parts / (float)targets;
  const ulong tickets = chunks + (parts - 1u) * later;
#else
  const ulong tickets = parts * chunks;
#endif
  part_begin(&sh, &hot);
  for (;;) {
    if (atl_local_id() == 0) {
      taken = atomicAdd(&meta[TICKET], 1u);
#if PART_NARROW /* acquire: the flag read before the narrowed keys it announces */
      ready = taken >= chunks && taken < parts * chunks ? atomicOr(&meta[READY + taken % chunks], 0u) : 0u;
      __threadfence();
#endif
    }
    atl_barrier_local();
    const ulong t = taken;
    const uint mode = !PART_NARROW ? 0u : t < chunks ? 1u : ready ? 2u : 0u;
    atl_barrier_local(); /* read by all before the next ticket overwrites them */
    if (t >= tickets)
      break;
#if PART_SPLIT
    const uint q = t < chunks ? 0u : (uint)(1u + (t - chunks) / later);
    const ulong c = t < chunks ? t : (t - chunks) % later;
    (void)mode;
    sweep_enter(&sh, &hot, out, &range, q);
    const ulong slices = q ? later : chunks;
    sweep_prefetch(out, sp.lo[q], sp.lo[q + 1], c, slices < atl_num_groups() ? slices : atl_num_groups());
    const ulong first = c * chunk, last = first + chunk < rows ? first + chunk : rows;
    if (q == 0)
      split_range0(&sh, &sp, &hot, src, idx, out, meta, narrow, first, last, c, chunks, parts);
    else
      split_later(&sh, &sp, &hot, src, idx, out, meta, narrow, rows, c * PART_GROUP,
                  c * PART_GROUP + PART_GROUP < chunks ? c * PART_GROUP + PART_GROUP : chunks, chunks, q);
#else
    const uint q = (uint)(t / chunks);
    const ulong c = t % chunks;
    const uint lo = (uint)((ulong)targets * q / parts), hi = (uint)((ulong)targets * (q + 1) / parts);
    sweep_enter(&sh, &hot, out, &range, q);
    sweep_prefetch(out, lo, hi, c, atl_num_groups());
    const ulong first = c * chunk;
    sweep_rows(&sh, &hot, src, idx, out, narrow, first, first + chunk < rows ? first + chunk : rows, lo, hi, mode);
#if PART_NARROW
    if (mode == 1) { /* release: every narrowed key of the chunk stored before its flag */
      __threadfence();
      atl_barrier_local();
      if (atl_local_id() == 0)
        atomicExch(&meta[READY + c], 1u);
    }
#endif
#endif
  }
  part_end(&sh, &hot, out);
}
#elif defined(VARIANT_part)
/* VARIANT_part elsewhere (OpenCL, 16-bit types, CUDA before sm_70): the same passes over key ranges, each row
 * in range added as the atomic variant adds it (no vote or match-any in OpenCL C 1.2, no local table). */

/* The rows first .. first + n - 1 whose key is in [lo, hi): their (row, column) pairs (16-bit: column pairs) from
 * t0 in steps of @p step, one atomic each */
ATL_INLINE void part_rows(ATL_GLOBAL const T *ATL_RESTRICT src, ATL_GLOBAL const IDX_T *ATL_RESTRICT idx,
                          ATL_GLOBAL T *out, ulong first, ulong n, ulong lo, ulong hi, ulong t0, ulong step)
{
#if defined(PACKED)
  for (ulong t = t0; t < n * PAIRS; t += step) {
    const ulong i = first + t / PAIRS, k = idx[i];
    const uint c = (uint)(t % PAIRS) * 2u;
    if (k >= lo && k < hi)
      ADD_PAIR(&out[k * D + c], LOAD(src[i * D + c]), c + 1 < D ? LOAD(src[i * D + c + 1]) : -0.0f);
  }
#else
  for (ulong t = t0; t < n * D; t += step) {
    const ulong i = first + t / D, k = idx[i];
    if (k >= lo && k < hi)
      ADD(&out[k * D + t % D], LOAD(src[i * D + t % D]));
  }
#endif
}

ATL_KERNEL void scatter_part(ATL_GLOBAL const T *ATL_RESTRICT src, ATL_GLOBAL const IDX_T *ATL_RESTRICT idx,
                             ATL_GLOBAL T *out, ulong rows, uint lo, uint hi KEY_GUARD_PARAM)
{
  KEY_GUARD_RETURN();
  const ulong stride = atl_global_size64() / LANES * LANES; /* steps of 32 rows over the warps, as above */
  for (ulong base = atl_global_id64() / LANES * LANES; base < rows; base += stride)
    part_rows(src, idx, out, base, rows - base < LANES ? rows - base : LANES, lo, hi, atl_global_id64() % LANES,
              LANES);
}

/* The bucketed launch: pairs bounds[q] .. bounds[q + 1]; a row's elements (or column pairs) on neighbouring items */
ATL_KERNEL void scatter_part_bucketed(ATL_GLOBAL const T *ATL_RESTRICT src, ATL_GLOBAL const uint2 *ATL_RESTRICT pairs,
                                      ATL_GLOBAL T *out, ATL_GLOBAL const uint *ATL_RESTRICT meta, uint q)
{
  const ulong b0 = meta[2 * PART_MAX + q], b1 = meta[2 * PART_MAX + q + 1];
#if defined(PACKED)
  for (ulong t = atl_global_id64(); t < (b1 - b0) * PAIRS; t += atl_global_size64()) {
    const uint2 pr = pairs[b0 + t / PAIRS];
    const ulong i = pr.x, k = pr.y;
    const uint c = (uint)(t % PAIRS) * 2u;
    ADD_PAIR(&out[k * D + c], LOAD(src[i * D + c]), c + 1 < D ? LOAD(src[i * D + c + 1]) : -0.0f);
  }
#else
  for (ulong t = atl_global_id64(); t < (b1 - b0) * D; t += atl_global_size64()) {
    const uint2 pr = pairs[b0 + t / D];
    const ulong i = pr.x, k = pr.y;
    ADD(&out[k * D + t % D], LOAD(src[i * D + t % D]));
  }
#endif
}

/* --variants sweep elsewhere: the same tickets (range-major chunks of a work-group's size x PART_CHUNK_STEPS rows),
 * each chunk's rows in range added as the atomic variant adds them */
ATL_KERNEL void scatter_part_sweep(ATL_GLOBAL const T *ATL_RESTRICT src, ATL_GLOBAL const IDX_T *ATL_RESTRICT idx,
                                   ATL_GLOBAL T *out, ulong rows, uint parts, uint targets, ATL_GLOBAL uint *meta,
                                   ATL_GLOBAL uint *narrow KEY_GUARD_PARAM)
{
  (void)narrow; /* the keys are read as they are here (the CUDA path narrows i64 keys) */
  ATL_SHARED uint taken;
  KEY_GUARD_RETURN();
  const uint lid = atl_local_id(), wg = atl_local_size();
  const ulong chunk = (ulong)wg * PART_CHUNK_STEPS, chunks = (rows + chunk - 1) / chunk;
  for (;;) {
    if (lid == 0)
      taken = atl_atomic_add(&meta[TICKET], 1u);
    atl_barrier_local();
    const ulong t = taken;
    atl_barrier_local();
    if (t >= parts * chunks)
      break;
    const ulong q = t / chunks, first = t % chunks * chunk;
    part_rows(src, idx, out, first, first + chunk < rows ? chunk : rows - first, targets * q / parts,
              targets * (q + 1) / parts, lid, wg);
  }
}
#elif defined(VARIANT_bins)
/* D = 1 (a weighted bincount): a work-item per row, one wave of work-groups taking chunks of BIN_ROWS rows in
 * turn, each group's frequent keys summed in a local table of BIN_SLOTS (key, sum) slots (32 KiB), filled by
 * CAS with up to BIN_PROBES linear probes from a Fibonacci hash; a key that finds no slot goes straight to the
 * output. A zipf head or a hot key costs one global atomic per group, uniform keys one each (as atomic, with
 * every lane busy). Loads of BIN_UNROLL rows are issued before their adds: the atomics do not serialize reads. */
#if D != 1
#error "VARIANT_bins is for D = 1"
#endif
#define EMPTY 0xffffffffu
#define BIN_PROBES 4u
#define BIN_UNROLL 4u
ATL_KERNEL void scatter_add(ATL_GLOBAL const T *ATL_RESTRICT src, ATL_GLOBAL const IDX_T *ATL_RESTRICT idx,
                            ATL_GLOBAL T *out, ulong rows, uint rows_per_warp KEY_GUARD_PARAM)
{
  ATL_SHARED uint keys[BIN_SLOTS];
  ATL_SHARED A sums[BIN_SLOTS];
  KEY_GUARD_RETURN();
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
                            ATL_GLOBAL T *out, ulong rows, uint rows_per_warp KEY_GUARD_PARAM)
{
  ATL_SHARED uint keys[SLOTS];
  ATL_SHARED A sums[SLOTS * D];
  KEY_GUARD_RETURN();
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
                            ATL_GLOBAL T *out, ulong rows, uint rows_per_warp KEY_GUARD_PARAM)
{
  KEY_GUARD_RETURN();
  const ulong warp = atl_global_id64() / LANES;
  const uint lane = (uint)(atl_global_id64() % LANES);
  const ulong first = warp * rows_per_warp;
  ulong last = first + rows_per_warp;
  if (last > rows)
    last = rows;
  const uint n = first < last ? (uint)(last - first) : 0u; /* rows of this warp (rows_per_warp <= 2^20) */
#if defined(VARIANT_vector)
#if !defined(RED_UNIT)
#error "VARIANT_vector needs CUDA on sm_90 and f32 with D a multiple of 4 or bf16 / f16 with D a multiple of 8"
#endif
  vector_rows(src, idx, out, first, n, lane);
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
