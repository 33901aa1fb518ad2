/*
 * The scatter app's host work (src/apps/scatter_host.c): the det variant's order computed in the expectation's pass
 * over the rows (det_tile set) must give the bits the separate emulation walks to, and leave the sums as they are;
 * the source rows must be the same bytes on 1 and 4 host threads (ATL_HOST_THREADS).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "apps/scatter_host.h"
#include "apps/scatter_keys.h"
#include "check.h"

enum { E = 6000, V = 40, D = 12, TILE = 16 };

static void *source(int type, const char *threads)
{
  const size_t es = type == ATL__HOST_F32 ? 4 : 2;
  void *src = malloc((size_t)E * D * es);
  setenv("ATL_HOST_THREADS", threads, 1);
  if (src)
    atl__scatter_source(type, 0, 3, (uint64_t)E * D, src);
  return src;
}

static void one(int type, int dist, const char *threads)
{
  const size_t es = type == ATL__HOST_F32 ? 4 : 2, out = (size_t)V * D * es;
  void *src = source(type, "1"), *src4 = source(type, "4");
  uint32_t *idx = malloc(E * sizeof *idx);
  unsigned char *got = malloc(out);
  struct atl__scatter_expected walk = {0}, fused = {.det_tile = TILE};
  if (!CHECK(src && src4 && idx && got))
    goto out;
  CHECK(memcmp(src, src4, (size_t)E * D * es) == 0);
  setenv("ATL_HOST_THREADS", threads, 1); /* the expectation and the checks on this many */
  CHECK(atl__scatter_keys(dist, E, V, 1.1, 32, 5, idx) == 0);
  const struct atl__scatter_host h = {E, V, D, type, src, idx};
  if (!CHECK(atl__scatter_expect(&h, &walk) == 0 && atl__scatter_expect(&h, &fused) == 0 && fused.det))
    goto out;
  CHECK(walk.det == NULL);
  CHECK(memcmp(walk.sum, fused.sum, (size_t)V * D * sizeof *walk.sum) == 0);
  CHECK(memcmp(walk.mag, fused.mag, (size_t)V * D * sizeof *walk.mag) == 0);
  memcpy(got, fused.det, out);
  CHECK(atl__scatter_det_mismatches(&h, &walk, TILE, got) == 0);  /* the rows walked again */
  CHECK(atl__scatter_det_mismatches(&h, &fused, TILE, got) == 0); /* the bits of the pass compared */
  got[es * (D + 3)] ^= 1; /* one element's lowest bit */
  CHECK(atl__scatter_det_mismatches(&h, &walk, TILE, got) == 1);
  CHECK(atl__scatter_det_mismatches(&h, &fused, TILE, got) == 1);
  /* another tile than the pass's: emulated, so plain row order differs from the cut order somewhere */
  CHECK(atl__scatter_det_mismatches(&h, &fused, UINT64_MAX, fused.det) ==
        atl__scatter_det_mismatches(&h, &walk, UINT64_MAX, fused.det));
out:
  atl__scatter_expected_free(&walk);
  atl__scatter_expected_free(&fused);
  free(src);
  free(src4);
  free(idx);
  free(got);
}

int main(void)
{
  const int types[] = {ATL__HOST_F32, ATL__HOST_BF16, ATL__HOST_F16};
  const int dists[] = {ATL__SCATTER_UNIFORM, ATL__SCATTER_ZIPF, ATL__SCATTER_HOT};
  for (unsigned t = 0; t < 3; t++)
    for (unsigned d = 0; d < 3; d++)
      for (unsigned n = 0; n < 2; n++)
        one(types[t], dists[d], n ? "4" : "1");
  return check_exit("test_scatter_det_fused");
}
