/* The scatter app's host work over threads (src/apps/scatter_host.c): the expected output, the check of a
 * variant's output against it, the det variant's fixed order emulated, the output's hash. Each thread owns a
 * contiguous range of output elements (or of rows, keys), so no two threads write one place and every result
 * is bit-identical for every thread count. */
#ifndef ATOMLAB_APPS_SCATTER_HOST_H
#define ATOMLAB_APPS_SCATTER_HOST_H

#include <stddef.h>
#include <stdint.h>

/* Threads for the host work: ATL_HOST_THREADS (1 to 256) where set, else the online CPUs, at most 32. */
unsigned atl__host_threads(void);

/* malloc's memory, from 2 MiB up aligned to and advised into huge pages (fewer page faults and TLB misses in
 * the random reads of the expected sums); free() releases it. */
void *atl__host_alloc(size_t bytes);

/* fn(arg, t, lo, hi) over [0, n) cut into atl__host_threads() contiguous ranges t (fewer where n is small), run
 * on threads; a range whose thread does not start runs on the caller. */
void atl__host_for(uint64_t n, void (*fn)(void *arg, unsigned t, uint64_t lo, uint64_t hi), void *arg);

/* The check's and the output hash's shares of @p threads where the hash runs beside the check: they add up to
 * @p threads, so the two together run no more threads than the host work may use (the cores, or
 * ATL_HOST_THREADS); the hash takes half, at most one a 1 MiB block of its @p hash_bytes, and none (it runs after
 * the check) where @p threads is 1. */
void atl__host_split(unsigned threads, size_t hash_bytes, unsigned *check, unsigned *hash);

/* What the check needs of a run: the shape, the source rows and the keys. */
enum { ATL__HOST_F32, ATL__HOST_INT, ATL__HOST_BF16, ATL__HOST_F16 }; /* INT: u32 and i32 (sums mod 2^32) */
struct atl__scatter_host {
  uint64_t rows, targets;
  uint32_t dim;
  int type;
  const void *src;
  const uint32_t *idx;
};

/* @p n source values of kind @p type (ATL__HOST_*; INT: i32 where @p is_signed, else u32), never zero: floats of
 * magnitude [0.5, 1) and either sign (16-bit ones rounded to their type: [0.5, 1]); u32 1 to 16; i32 -16 to -1 and
 * 1 to 16. Each element from @p seed and its index alone, so the bytes do not depend on the thread count. */
void atl__scatter_source(int type, int is_signed, uint64_t seed, uint64_t n, void *src);

/* The expected output: float64 sums and sums of magnitudes (floats) or exact sums (integers), the rows of each
 * target (depth), and the rows in key order (a stable counting sort: order[place[k] .. place[k + 1]) are key
 * k's rows, ascending), which the sums and the det emulation walk. */
struct atl__scatter_expected {
  double *sum, *mag;
  uint64_t *isum;
  uint32_t *depth;
  uint64_t *place;
  uint32_t *order;
  uint64_t touched; /* output rows at least one key names: the rows the fewest bytes read and write */
  /* With det_tile set before atl__scatter_expect (floats, dim up to 512): the det variant's result in its fixed
   * order cut at the multiples of det_tile, computed in the same pass over the rows as the sums (V x dim values
   * of the type), which atl__scatter_det_mismatches then compares; else 0. */
  uint64_t det_tile;
  void *det;
};

/* 0, or ATL_ENOMEM (what was allocated is in @p x for atl__scatter_expected_free). The arrays already in @p x
 * (from a call with the same rows, targets, dim and type) are reused: zero @p x before the first call. */
int atl__scatter_expect(const struct atl__scatter_host *h, struct atl__scatter_expected *x);
void atl__scatter_expected_free(struct atl__scatter_expected *x);

/* Every element of @p got against @p x (@p counts: each target's rows, CUB's unweighted bincount): the count
 * of wrong ones, the first described in @p first; the output's hash (bytes_hash53) into @p hash, computed
 * meanwhile on its share of the host's threads (atl__host_split). */
uint64_t atl__scatter_check(const struct atl__scatter_host *h, const void *got, const struct atl__scatter_expected *x,
                            int counts, char *first, size_t len, double *hash);

/* The det variant's second cut: a key's tile partials are summed in groups of this many tiles, then the groups' sums
 * (src/kernels/app_scatter_det.k.c: det_group, det_combine). Fixed, like the tile: the result's bits depend on it. */
#define ATL__SCATTER_HOST_DET_GROUP 64u

/* The det variant's fixed order emulated (floats), cut at the multiples of @p tile of the sorted places: the
 * count of elements of @p got whose bits differ, or -1 without the memory. Compared with x->det where it was
 * computed for @p tile, else emulated here. */
int64_t atl__scatter_det_mismatches(const struct atl__scatter_host *h, const struct atl__scatter_expected *x,
                                     uint64_t tile, const void *got);

/* FNV-1a of @p n bytes up to 1 MiB, past it of their 1 MiB blocks' FNV-1a values (hashed on the host's threads),
 * cut to 53 bits so that a double metric holds it exactly. */
double atl__bytes_hash53(const void *data, size_t n);

#endif
