/*
 * Keys, rows and the host's reference for the tests of atl_scatter_add (scatter_lib.c, scatter_lib_bench.c):
 * the keys of the distributions the app measures (its own generator), rows from splitmix64: every run the same.
 * The check: integers exact (sums mod 2^32), f32 within (depth - 1) u sum |x| of the double sum per element
 * (u = 2^-24: each of a row's depth additions rounds once, in whatever order the atomics took).
 */
#ifndef ATL_TESTS_SCATTER_KEYS_H
#define ATL_TESTS_SCATTER_KEYS_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "apps/app_internal.h" /* atl__splitmix64 */
#include "apps/scatter_keys.h"

enum sk_dist { SK_UNIFORM, SK_ZIPF, SK_SORTED, SK_CLUSTERED, SK_HOT }; /* the app's order */
static const char *const sk_dist_names[] = {"uniform", "zipf", "sorted", "clustered", "hot"};

/* @p e keys in [0, v): the app's distributions (src/apps/scatter_keys.c) at its defaults (zipf exponent 1.1,
 * runs of 32, seed 1). 0, or -1 without host memory. */
static inline int sk_keys(enum sk_dist d, uint64_t e, uint64_t v, uint32_t *k)
{
  return atl__scatter_keys((int)d, e, v, 1.1, 32, 1, k) == 0 ? 0 : -1;
}

/* Source values: f32 in (-1, 1) never 0, or u32 weights up to 2^20 (some carry past a 16-bit counter). */
static inline void sk_src(int integer, uint64_t n, void *src)
{
  for (uint64_t i = 0; i < n; i++) {
    const uint64_t r = atl__splitmix64(i + 0x5eed);
    if (integer)
      ((uint32_t *)src)[i] = (uint32_t)(r % (1u << 20)) + 1;
    else
      ((float *)src)[i] = (float)((double)(r % 2000001) / 1e6 - 1.0) + 0x1p-12f;
  }
}

/* Elements of out (v x dim, after += from zeros) off the reference, the first one's index into *first. */
static inline uint64_t sk_wrong(int integer, const uint32_t *k, const void *src, uint64_t e, uint64_t v,
                                uint32_t dim, const void *out, uint64_t *first)
{
  double *sum = calloc(v * dim, sizeof *sum), *mag = calloc(v * dim, sizeof *mag);
  uint32_t *isum = calloc(v * dim, sizeof *isum), *depth = calloc(v, sizeof *depth);
  uint64_t wrong = 0;
  *first = UINT64_MAX;
  if (sum == NULL || mag == NULL || isum == NULL || depth == NULL)
    wrong = v * dim;
  for (uint64_t i = 0; i < e && wrong == 0; i++) {
    depth[k[i]]++;
    for (uint32_t c = 0; c < dim; c++) {
      const uint64_t o = (uint64_t)k[i] * dim + c;
      if (integer)
        isum[o] += ((const uint32_t *)src)[i * dim + c];
      else
        sum[o] += ((const float *)src)[i * dim + c], mag[o] += fabs(((const float *)src)[i * dim + c]);
    }
  }
  for (uint64_t o = 0; o < v * dim && sum && mag && isum && depth; o++) {
    const double bound = (depth[o / dim] > 1 ? depth[o / dim] - 1 : 0) * 0x1.000002p-24 * mag[o];
    const int bad = integer ? ((const uint32_t *)out)[o] != isum[o]
                            : !(fabs(((const float *)out)[o] - sum[o]) <= bound);
    if (bad && wrong++ == 0)
      *first = o;
  }
  free(sum), free(mag), free(isum), free(depth);
  return wrong;
}

#endif
