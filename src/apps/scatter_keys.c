/* The scatter app's key distributions (scatter_keys.h). */
#include <math.h>
#include <stdlib.h>

#include "app_internal.h"
#include "scatter_keys.h"

int atl__scatter_keys(int dist, uint64_t rows, uint64_t targets, double zipf, uint32_t run, uint64_t seed,
                      uint32_t *idx)
{
  const uint64_t E = rows, V = targets;
  if (dist == ATL__SCATTER_ZIPF) { /* rank r (0-based) with probability ~ 1/(r+1)^s, by the inverse of its CDF */
    double *cdf = malloc(V * sizeof *cdf), total = 0;
    if (cdf == NULL)
      return ATL_ENOMEM;
    for (uint64_t r = 0; r < V; r++)
      cdf[r] = (total += pow((double)(r + 1), -zipf));
    for (uint64_t i = 0; i < E; i++) {
      const double u = (double)(atl__splitmix64(seed ^ (i * 0x9e37ull)) >> 11) * 0x1p-53 * total;
      uint64_t lo = 0, hi = V - 1;
      while (lo < hi) {
        const uint64_t mid = (lo + hi) / 2;
        if (cdf[mid] < u)
          lo = mid + 1;
        else
          hi = mid;
      }
      idx[i] = (uint32_t)lo;
    }
    free(cdf);
    return 0;
  }
  for (uint64_t i = 0; i < E; i++) {
    const uint64_t draw = dist == ATL__SCATTER_CLUSTERED ? i / run : i;
    idx[i] = dist == ATL__SCATTER_HOT ? 0 : (uint32_t)(atl__splitmix64(seed ^ (draw * 0x2545f4914f6cdd1dull)) % V);
  }
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
