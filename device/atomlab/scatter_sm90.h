/*
 * atomlab/scatter_sm90.h: the sm_90 instructions of src/kernels/app_scatter.k.c, which includes this header only
 * where __CUDA_ARCH__ >= 900 (OpenCL and older GPUs never compile it): 16-byte vector reductions
 * (red.global.add.v4.f32, red.global.v4.bf16x2 / .f16x2.add.noftz: SASS REDG.E.ADD.F32x4 / .BF16x8) for
 * VARIANT_vector and the part path's units, and the bulk reductions of --part-add bulk (cp.reduce.async.bulk, the
 * TMA unit). It uses the kernel's T, IDX_T, D, LANES, PACKED and RED_V4.
 *
 *   RED_UNIT   the values one vector reduction adds: 4 (f32, D a multiple of 4) or 8 (bf16 / f16, D a multiple
 *              of 8); not defined where a row is no whole number of 16-byte chunks
 */
#ifndef ATOMLAB_SCATTER_SM90_H
#define ATOMLAB_SCATTER_SM90_H

#if defined(TYPE_f32) && D % 4 == 0
#define RED_UNIT 4u
#elif defined(PACKED) && D % 8 == 0
#define RED_UNIT 8u
#endif

/* p[0..3] += a, b, c, d: one 16-byte reduction */
ATL_INLINE void red_f32x4(float *p, float a, float b, float c, float d)
{
  asm volatile("red.global.add.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(p), "f"(a), "f"(b), "f"(c), "f"(d) : "memory");
}

#if defined(PACKED)
/* the 8 16-bit values at p += the pairs in the words a, b, c, d (RED_V4: bf16x2 or f16x2, added as they are) */
ATL_INLINE void red_16x8(T *p, uint a, uint b, uint c, uint d)
{
  asm volatile(RED_V4 " [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(a), "r"(b), "r"(c), "r"(d) : "memory");
}
#endif

#if defined(VARIANT_vector) && defined(RED_UNIT)
/* The warp's (row, 16-byte chunk) pairs of its n rows from @p first in order, lane l on the l-th, l+32-th, ...:
 * every lane busy whatever D is (a row of 64 f32 is 16 chunks: two rows per step). */
ATL_INLINE void vector_rows(const T *ATL_RESTRICT src, const IDX_T *ATL_RESTRICT idx, T *out, ulong first, uint n,
                            uint lane)
{
#define CHUNKS (D / RED_UNIT)
  for (uint t = lane; t < n * CHUNKS; t += LANES) {
    const ulong i = first + t / CHUNKS, k = idx[i];
    const uint c = t % CHUNKS * RED_UNIT;
#if RED_UNIT == 4
    const float4 v = *(const float4 *)&src[i * D + c];
    red_f32x4(&out[k * D + c], v.x, v.y, v.z, v.w);
#else /* 8 16-bit values, added as stored (no rounding of the operand) */
    const uint4 v = *(const uint4 *)&src[i * D + c];
    red_16x8(&out[k * D + c], v.x, v.y, v.z, v.w);
#endif
  }
#undef CHUNKS
}
#endif

/* --part-add bulk: a row of @p bytes from the staging ring at @p stage (shared memory) added to @p dst by one bulk
 * reduction of the TMA unit, in the lane's current bulk group */
ATL_INLINE void bulk_red_f32(float *dst, const float4 *stage, uint bytes)
{
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%0], [%1], %2;" ::"l"(dst),
               "r"((uint)__cvta_generic_to_shared(stage)), "r"(bytes)
               : "memory");
}

/* until at most the lane's last bulk group still reads its half of the ring */
ATL_INLINE void bulk_wait_read(void)
{
  asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
}

/* the ring's stores seen by the bulk copies' proxy */
ATL_INLINE void bulk_fence(void)
{
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

ATL_INLINE void bulk_commit(void)
{
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}

/* every bulk reduction of the lane done */
ATL_INLINE void bulk_wait_all(void)
{
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

#endif
