/* The scatter app's key distributions (scatter_keys.h). Each key is drawn from its row's number alone, so the
 * rows are cut among the host's threads (scatter_host.h) and the keys do not depend on their count. */
#include <math.h>
#include <stdlib.h>

#include "app_internal.h"
#include "scatter_host.h"
#include "scatter_keys.h"

struct keys_job {
  int dist;
  uint64_t targets, seed;
  uint32_t run;
  const double *cdf; /* zipf: the ranks' cumulative weights */
  double total, zipf;
  uint32_t *idx;
};

/* Rank r (0-based) with probability ~ 1/(r+1)^s, by the inverse of its CDF. */
static void zipf_range(void *arg, unsigned t, uint64_t lo, uint64_t hi)
{
  const struct keys_job *j = arg;
  (void)t;
  for (uint64_t i = lo; i < hi; i++) {
    const double u = (double)(atl__splitmix64(j->seed ^ (i * 0x9e37ull)) >> 11) * 0x1p-53 * j->total;
    uint64_t a = 0, b = j->targets - 1;
    while (a < b) {
      const uint64_t mid = (a + b) / 2;
      if (j->cdf[mid] < u)
        a = mid + 1;
      else
        b = mid;
    }
    j->idx[i] = (uint32_t)a;
  }
}

/* The weights 1/(r+1)^s of ranks [lo, hi) into cdf, summed in order afterwards. */
static void zipf_weights(void *arg, unsigned t, uint64_t lo, uint64_t hi)
{
  const struct keys_job *j = arg;
  double *cdf = (double *)j->cdf;
  (void)t;
  for (uint64_t r = lo; r < hi; r++)
    cdf[r] = pow((double)(r + 1), -j->zipf);
}

static void draw_range(void *arg, unsigned t, uint64_t lo, uint64_t hi)
{
  const struct keys_job *j = arg;
  (void)t;
  for (uint64_t i = lo; i < hi; i++) {
    const uint64_t draw = j->dist == ATL__SCATTER_CLUSTERED ? i / j->run : i;
    j->idx[i] = j->dist == ATL__SCATTER_HOT ? 0
                                            : (uint32_t)(atl__splitmix64(j->seed ^ (draw * 0x2545f4914f6cdd1dull)) %
                                                         j->targets);
  }
}

int atl__scatter_keys(int dist, uint64_t rows, uint64_t targets, double zipf, uint32_t run, uint64_t seed,
                      uint32_t *idx)
{
  const uint64_t E = rows, V = targets;
  struct keys_job j = {dist, targets, seed, run, NULL, 0, zipf, idx};
  if (dist == ATL__SCATTER_ZIPF) {
    double *cdf = malloc(V * sizeof *cdf);
    if (cdf == NULL)
      return ATL_ENOMEM;
    j.cdf = cdf;
    atl__host_for(V, zipf_weights, &j);
    for (uint64_t r = 0; r < V; r++)
      cdf[r] = (j.total += cdf[r]);
    atl__host_for(E, zipf_range, &j);
    free(cdf);
    return 0;
  }
  atl__host_for(E, draw_range, &j);
  if (dist == ATL__SCATTER_SORTED) { /* uniform keys in ascending order: a counting sort, O(E + V) */
    uint64_t *count = calloc(V, sizeof *count);
    if (count == NULL)
      return ATL_ENOMEM;
    for (uint64_t i = 0; i < E; i++)
      count[idx[i]]++;
    for (uint64_t k = 0, i = 0; k < V; k++)
      for (uint64_t c = 0; c < count[k]; c++)
        idx[i++] = (uint32_t)k;
    free(count);
  }
  return 0;
}
