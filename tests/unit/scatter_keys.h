/*
 * Keys, rows and the host's reference for the tests of atl_scatter_add (scatter_lib.c, scatter_lib_bench.c):
 * the distributions the app measures (src/apps/scatter.c), drawn from splitmix64 so every run is the same.
 * The check: integers exact (sums mod 2^32), f32 within (depth - 1) u sum |x| of the double sum per element
 * (u = 2^-24: each of a row's depth additions rounds once, in whatever order the atomics took).
 */
#ifndef ATL_TESTS_SCATTER_KEYS_H
#define ATL_TESTS_SCATTER_KEYS_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

enum sk_dist { SK_UNIFORM, SK_ZIPF, SK_SORTED, SK_CLUSTERED, SK_HOT };
static const char *const sk_dist_names[] = {"uniform", "zipf", "sorted", "clustered", "hot"};

static inline uint64_t sk_mix(uint64_t x)
{
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* @p e keys in [0, v): zipf is rank r with weight 1 / (r + 1)^1.1 (the app's default exponent), the ranks
 * spread over the keys by an odd multiplier; sorted is uniform sorted; clustered runs of 32 equal keys; hot all
 * on key 0. 0, or -1 without host memory. */
static inline int sk_keys(enum sk_dist d, uint64_t e, uint64_t v, uint32_t *k)
{
  if (d == SK_ZIPF) {
    double *cdf = malloc(v * sizeof *cdf), t = 0;
    if (cdf == NULL)
      return -1;
    for (uint64_t r = 0; r < v; r++)
      cdf[r] = t += pow((double)r + 1, -1.1);
    for (uint64_t i = 0; i < e; i++) {
      const double u = (double)(sk_mix(i) >> 11) * 0x1p-53 * t;
      uint64_t lo = 0, hi = v - 1;
      while (lo < hi) {
        const uint64_t mid = (lo + hi) / 2;
        if (cdf[mid] < u)
          lo = mid + 1;
        else
          hi = mid;
      }
      k[i] = (uint32_t)(lo * 2654435761ull % v);
    }
    free(cdf);
    return 0;
  }
  for (uint64_t i = 0; i < e; i++)
    k[i] = d == SK_HOT ? 0 : d == SK_CLUSTERED ? (uint32_t)(sk_mix(i / 32) % v) : (uint32_t)(sk_mix(i) % v);
  if (d == SK_SORTED) { /* a counting sort */
    uint64_t *n = calloc(v, sizeof *n), i = 0;
    if (n == NULL)
      return -1;
    for (uint64_t j = 0; j < e; j++)
      n[k[j]]++;
    for (uint64_t key = 0; key < v; key++)
      for (uint64_t c = 0; c < n[key]; c++)
        k[i++] = (uint32_t)key;
    free(n);
  }
  return 0;
}

/* Source values: f32 in (-1, 1) never 0, or u32 weights up to 2^20 (some carry past a 16-bit counter). */
static inline void sk_src(int integer, uint64_t n, void *src)
{
  for (uint64_t i = 0; i < n; i++) {
    const uint64_t r = sk_mix(i + 0x5eed);
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
