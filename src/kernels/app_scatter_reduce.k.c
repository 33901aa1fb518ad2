/*
 * app_scatter_reduce.k.c: scatter-reduce of rows by max or min, out[idx[i]][c] = max(out[idx[i]][c], src[i][c])
 * (PyTorch's scatter_reduce_ amax / amin with include_self), written once for CUDA and OpenCL. Values travel as
 * their 32-bit patterns.
 *
 *   TYPE_f32 | TYPE_u32 | TYPE_i32, OP_max | OP_min, IDX_T=uint|ulong, D=N columns per row,
 *   GROUP_ROWS=N (entry scatter_reduce_group: rows per work-group, GROUP_ROWS x D <= 2048)
 *
 * scatter_reduce: a work-item per element (row, column), neighbouring work-items on neighbouring columns of a row,
 * one atomic each: a hot key's elements all queue on one word.
 * scatter_reduce_group: a work-group per GROUP_ROWS consecutive rows, its work-items over their elements in order.
 * A work-item keeps the max of a run of equal (key, column) pairs among its elements in a register (a hot key: its
 * whole share) and puts it into the work-group's table in local memory: 2 x GROUP_ROWS key slots of D columns,
 * a slot claimed by compare-and-swap with up to 8 linear probes from a multiplicative hash (a pair whose key finds
 * no slot goes straight to the output). After a barrier each column of each claimed slot goes out with one atomic:
 * one global atomic per (work-group, distinct key, column). Max and min are exact in any order, so the aggregation
 * changes no bit of the result.
 *
 * The order is one total order of the bits: integers as they are; floats by IEEE order with -0.0 below +0.0, and
 * NaNs by their bits (a positive NaN above +inf, a negative one below -inf; PyTorch propagates any NaN, so a NaN
 * source is the caller's to keep out). Floats take the integer atomics on their bit pattern, no CAS loop: a value
 * with the sign bit clear takes a signed atomic max (min), one with it set an unsigned atomic min (max). Each is
 * exact against any stored value: the sign-clear patterns order as signed integers and are the non-negative ones,
 * the sign-set patterns order in reverse as unsigned integers and are all above the sign-clear ones as unsigned.
 */
#include "atomlab/port.h"
#include "atomlab/key_guard.h" /* KEY_GUARD: the library's builds return where its check found a bad key */

/* ATOM_UP: the atomic toward the op's end of the order; ATOM_DOWN: the other (sign-set floats). */
#if defined(OP_max)
#define ATOM_UP atl_atomic_max
#define ATOM_DOWN atl_atomic_min
#else
#define ATOM_UP atl_atomic_min
#define ATOM_DOWN atl_atomic_max
#endif

/* ORD: a value's rank in the order as an unsigned integer (UNORD: back to the value); the group kernel keeps
 * ranks, so its registers and its table take one unsigned max (min) for every type. */
#if defined(TYPE_f32)
#define ORD(b) ((b) ^ ((uint)((int)(b) >> 31) | 0x80000000u))
#define UNORD(o) ((o) ^ ((o) >> 31 ? 0x80000000u : 0xffffffffu))
#define REDUCE_BITS(space, p, b)                                                                                       \
  do {                                                                                                                 \
    if ((int)(b) >= 0)                                                                                                 \
      ATOM_UP((volatile space int *)(p), (int)(b));                                                                    \
    else                                                                                                               \
      ATOM_DOWN((volatile space uint *)(p), (b));                                                                      \
  } while (0)
#elif defined(TYPE_i32)
#define ORD(b) ((b) ^ 0x80000000u)
#define UNORD(o) ((o) ^ 0x80000000u)
#define REDUCE_BITS(space, p, b) ATOM_UP((volatile space int *)(p), (int)(b))
#else
#define ORD(b) (b)
#define UNORD(o) (o)
#define REDUCE_BITS(space, p, b) ATOM_UP((volatile space uint *)(p), (b))
#endif
/* IDENT: the rank of the order's far end (the op's identity: reducing it changes nothing); KEEP: the op on ranks */
#if defined(OP_max)
#define IDENT 0u
#define KEEP(a, o) ((o) > (a) ? (o) : (a))
#else
#define IDENT 0xffffffffu
#define KEEP(a, o) ((o) < (a) ? (o) : (a))
#endif

ATL_KERNEL void scatter_reduce(ATL_GLOBAL const uint *src, ATL_GLOBAL const IDX_T *idx, ATL_GLOBAL uint *out,
                               ulong rows KEY_GUARD_PARAM)
{
  KEY_GUARD_RETURN();
  const ulong e = atl_global_id64();
  if (e >= rows * D)
    return;
  REDUCE_BITS(ATL_GLOBAL, out + (ulong)idx[e / D] * D + e % D, src[e]);
}

#if defined(GROUP_ROWS)
#define SLOTS (2u * GROUP_ROWS)
#define EMPTY 0xffffffffu /* no key: the keys are below the targets, < 2^32 - 1 */
#if GROUP_ROWS * D > 2048
#error "GROUP_ROWS x D is at most 2048 (16 KiB of local values)"
#endif

/* The slot of key @p key in the work-group's table (inserting it), or SLOTS where 8 probes find none. */
ATL_INLINE uint slot_of(volatile ATL_LOCAL uint *keys, ulong key)
{
  uint s = ((uint)key * 2654435761u) % SLOTS;
  for (uint probe = 0; key < EMPTY && probe < 8u; probe++, s = (s + 1u) % SLOTS) {
    uint cur = keys[s];
    if (cur == EMPTY)
      cur = atl_atomic_cas(&keys[s], EMPTY, (uint)key);
    if (cur == EMPTY || cur == (uint)key)
      return s;
  }
  return SLOTS;
}

/* A work-item's max (its rank o) of column col of key key into the key's slot, or into the output where there is
 * none (a macro: PoCL's LLVM 15 crashed inlining it as a function). */
#define FLUSH(key, col, o)                                                                                             \
  do {                                                                                                                 \
    const uint s_ = slot_of(keys, (key));                                                                              \
    if (s_ < SLOTS)                                                                                                    \
      ATOM_UP((volatile ATL_LOCAL uint *)&vals[s_ * D + (col)], (o));                                                  \
    else                                                                                                               \
      REDUCE_BITS(ATL_GLOBAL, out + (key) * D + (col), UNORD(o));                                                      \
  } while (0)

ATL_KERNEL void scatter_reduce_group(ATL_GLOBAL const uint *src, ATL_GLOBAL const IDX_T *idx, ATL_GLOBAL uint *out,
                                     ulong rows KEY_GUARD_PARAM)
{
  ATL_SHARED uint keys[SLOTS];
  ATL_SHARED uint vals[SLOTS * D]; /* ranks (ORD) */
  KEY_GUARD_RETURN();
  const uint lid = atl_local_id(), wg = atl_local_size();
  for (uint s = lid; s < SLOTS; s += wg)
    keys[s] = EMPTY;
  for (uint e = lid; e < SLOTS * D; e += wg)
    vals[e] = IDENT;
  atl_barrier_local();
  const ulong first = (ulong)atl_group_id() * GROUP_ROWS * D, all = rows * D;
  const ulong end = first + GROUP_ROWS * D < all ? first + GROUP_ROWS * D : all;
  ulong key = 0;
  uint col = 0, acc = IDENT, have = 0;
  for (ulong e = first + lid; e < end; e += wg) {
    const ulong k = (ulong)idx[e / D];
    const uint c = (uint)(e % D), b = src[e];
    if (k != key || c != col) {
      if (have)
        FLUSH(key, col, acc);
      key = k, col = c, acc = IDENT;
    }
    have = 1;
    acc = KEEP(acc, ORD(b));
  }
  if (have)
    FLUSH(key, col, acc);
  atl_barrier_local();
  for (uint e = lid; e < SLOTS * D; e += wg) {
    const uint k = keys[e / D], o = vals[e];
    if (k != EMPTY && o != IDENT)
      REDUCE_BITS(ATL_GLOBAL, out + (ulong)k * D + e % D, UNORD(o));
  }
}
#endif
