/* The scatter app's key distributions (src/apps/scatter_keys.c), drawn by the app and by the tests of the
 * library's atl_scatter_add (tests/unit/scatter_keys.h). */
#ifndef ATOMLAB_APPS_SCATTER_KEYS_H
#define ATOMLAB_APPS_SCATTER_KEYS_H

#include <stdint.h>

/* In the order of the app's --dist names. */
enum { ATL__SCATTER_UNIFORM, ATL__SCATTER_ZIPF, ATL__SCATTER_SORTED, ATL__SCATTER_CLUSTERED, ATL__SCATTER_HOT };

/* @p rows keys in [0, targets) of distribution @p dist into @p idx, deterministic from @p seed: uniform; zipf
 * (rank r, 0-based, with probability ~ 1 / (r + 1)^zipf); sorted (uniform, ascending); clustered (runs of
 * @p run equal keys); hot (every key 0). 0, or ATL_ENOMEM. */
int atl__scatter_keys(int dist, uint64_t rows, uint64_t targets, double zipf, uint32_t run, uint64_t seed,
                      uint32_t *idx);

#endif
