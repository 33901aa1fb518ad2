/*
 * The scatter app's auto rule (src/apps/scatter_auto.c) on synthetic statistics: the shapes of the H100
 * runs (uniform, zipf, sorted, clustered, hot at f32 D = 64, V = 1 M: a 256 MiB output against a 50 MiB L2),
 * a small output, no warp path (OpenCL, 16-bit types), an unknown L2 and the bincount (dim 1).
 */
#include <string.h>

#include "apps/scatter_auto.h"
#include "check.h"

static int picks_dsm(uint32_t dim, double run, double head, uint64_t out, uint64_t l2, int fast, int dsm,
                     const char *variant, uint32_t parts)
{
  const struct atl__scatter_stats s = {dim, run, head, out, l2, fast, dsm};
  const struct atl__scatter_pick p = atl__scatter_auto_rule(&s);
  if (strcmp(p.variant, variant) == 0 && p.partitions == parts)
    return 1;
  printf("  dim %u run %.3f head %.3f out %llu l2 %llu fast %d dsm %d: %s/%u, expected %s/%u\n", dim, run, head,
         (unsigned long long)out, (unsigned long long)l2, fast, dsm, p.variant, p.partitions, variant, parts);
  return 0;
}

static int picks(uint32_t dim, double run, double head, uint64_t out, uint64_t l2, int fast, const char *variant,
                 uint32_t parts)
{
  return picks_dsm(dim, run, head, out, l2, fast, 0, variant, parts);
}

int main(void)
{
  const uint64_t out = 256ull << 20, l2 = 50ull << 20;
  /* the shares of an H100 run's auto rows */
  CHECK(picks(64, 0.000, 0.000, out, l2, 1, "sweep", 0)); /* uniform: L2-sized ranges, one launch */
  CHECK(picks(64, 0.023, 0.562, out, l2, 1, "part", 1));  /* zipf: its head in one range */
  CHECK(picks(64, 0.875, 0.000, out, l2, 1, "run", 0));   /* sorted */
  CHECK(picks(64, 0.969, 0.000, out, l2, 1, "run", 0));   /* clustered */
  CHECK(picks(64, 1.000, 1.000, out, l2, 1, "part", 1));  /* hot: the head before the runs */
  /* an output within half the L2: no ranges to cut, atomic for uniform keys */
  CHECK(picks(64, 0.0, 0.0, l2 / 2, l2, 1, "atomic", 0));
  CHECK(picks(64, 0.0, 0.0, l2 / 2 + 1, l2, 1, "sweep", 0));
  CHECK(picks(64, 0.0, 0.0, out, 0, 1, "atomic", 0));     /* the L2 unknown */
  /* no warp path: block for a head, atomic for uniform keys */
  CHECK(picks(64, 0.023, 0.562, out, l2, 0, "block", 0));
  CHECK(picks(64, 1.0, 1.0, out, l2, 0, "block", 0));
  CHECK(picks(64, 0.0, 0.0, out, l2, 0, "atomic", 0));
  CHECK(picks(64, 0.9, 0.0, out, l2, 0, "run", 0));
  /* the thresholds: a head from 5% of the rows, runs from half */
  CHECK(picks(64, 0.0, 0.049, out, l2, 1, "sweep", 0));
  CHECK(picks(64, 0.0, 0.05, out, l2, 1, "part", 1));
  CHECK(picks(64, 0.499, 0.0, l2 / 4, l2, 1, "atomic", 0));
  CHECK(picks(64, 0.5, 0.0, l2 / 4, l2, 1, "run", 0));
  /* dim 1: bins for a head or runs; uniform keys: part into counters beyond half the L2 (2^24 bins,
   * 64 MiB), atomic within it (2^20 bins, 4 MiB) or without part's warp path */
  CHECK(picks(1, 0.0, 0.562, 64ull << 20, l2, 1, "bins", 0));
  CHECK(picks(1, 1.0, 1.0, out, l2, 1, "bins", 0));
  CHECK(picks(1, 0.0, 0.0, 64ull << 20, l2, 1, "part", 0));
  CHECK(picks(1, 0.0, 0.0, 4ull << 20, l2, 1, "atomic", 0));
  CHECK(picks(1, 0.0, 0.0, 64ull << 20, l2, 0, "atomic", 0));
  /* dim 1 with clusters (sm_90, integer weights): dsm's table beside the L2 for uniform keys into 2^20 bins
   * on sm_90; the head still bins, beyond half the L2 still part */
  CHECK(picks_dsm(1, 0.0, 0.0, 4ull << 20, l2, 1, 1, "dsm", 0));
  CHECK(picks_dsm(1, 0.0, 0.562, 4ull << 20, l2, 1, 1, "bins", 0));
  CHECK(picks_dsm(1, 0.0, 0.0, 64ull << 20, l2, 1, 1, "part", 0));
  return check_exit("test_scatter_auto");
}
