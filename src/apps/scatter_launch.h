/*
 * The scatter kernels' launch shapes and the library's launch of one variant (src/apps/scatter_launch.c): one
 * place for how many work-items a variant takes and how the part variant walks its key ranges, shared by the
 * app (src/apps/scatter.c, which times them) and the library (scatter_lib.c, which just runs them).
 */
#ifndef ATOMLAB_APPS_SCATTER_LAUNCH_H
#define ATOMLAB_APPS_SCATTER_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#include "app_internal.h"
#include "scatter_variants.h"
#include "tuning/scatter_tuning.h"

/* The block and bins variants' rows a work-group takes at a time where the library launches them (the app's
 * --block-rows and --bin-rows defaults): the pick's head counts the keys that recur within as many. */
#define ATL__SCATTER_BLOCK_ROWS 4096u

/* The bins variant's local table: 4096 (key, sum) slots, 32 KiB a work-group. */
#define ATL__SCATTER_BIN_LOG2_SLOTS 12u

/* Keys a block (and part) work-group's local table holds: @p table_bytes of sums (the tuning's; and a key each), at
 * most 2048. */
unsigned atl__scatter_block_slots(uint32_t dim, unsigned table_bytes);

/* One wave of @p kernel's work-groups of @p wg: as many as the device holds at once (the backend's estimate for
 * the compiled kernel counts its local memory; without one, the resident threads), at least one. */
uint64_t atl__scatter_wave_groups(atl_context_t ctx, void *kernel, uint32_t wg);

/* The part variant's ranges: @p partitions, else as many as make a range's @p out_bytes fit @p t's part_l2_share of
 * the L2 (@p sweep 1: its sweep_l2_share, for the sweep, whose neighbouring ranges share the L2 for a while; 2: its
 * split_l2_share for the sweep's split; one where the L2 is unknown or the output fits); never more than the
 * targets. */
uint32_t atl__scatter_part_count(uint32_t partitions, uint64_t targets, uint64_t out_bytes, uint64_t l2_bytes,
                                 int sweep, const struct atl__scatter_tuning *t);

/* Whether part's CUDA warp path runs (vote, match-any; 32-bit values, or 16-bit floats with an even dim): what
 * auto's rule asks of part, and where the sweep narrows i64 keys. */
int atl__scatter_part_fast(const struct atl_device_info *dev, unsigned elem_bytes, uint32_t dim);

/* Whether the dsm variant's cluster path runs (CUDA sm_90: what has_vector_f32_red marks; integer weights): what
 * auto's rule asks of dsm. */
int atl__scatter_dsm_fast(const struct atl_device_info *dev, int integer);

/* The sweep's split (app_scatter.k.c's PART_SPLIT: range 0's pass sorts the later ranges' keys by range, a u32 each:
 * the row's place in its chunk over the key's place in its range): the bits of a row's place, the log2 of the chunk's
 * @p wg x @p chunk_steps rows; 0 where it does not run: no CUDA warp path, 1 or more than ATL__SCATTER_SPLIT_MAX
 * ranges, a chunk that is not a power of two, or a range's keys beyond the bits left. */
#define ATL__SCATTER_SPLIT_MAX 32u
unsigned atl__scatter_split_bits(const struct atl_device_info *dev, unsigned elem_bytes, uint32_t dim, uint32_t parts,
                                 uint64_t targets, uint32_t wg, uint32_t chunk_steps);

/* How the sweep reads its keys, for the app and the library alike: its ranges (@p partitions, else from the L2);
 * where @p split_on and it fits, its split's bits (else 0), a range's output then fitting the tuning's split_l2_share
 * of the L2, else its sweep_l2_share (H100, reference run: scatter; uniform keys, V = 1 M rows of 256 bytes, with the split: 13 ranges 1.392 ms, 15 1.351, 16
 * 1.329, 17 1.322, 19 1.345; a later range reads only its own keys, so more and smaller ranges cost little); without
 * the split, whether range 0's pass narrows i64 keys (@p idx_bytes 8) to u32 (the CUDA warp path, several ranges). */
struct atl__scatter_sweep {
  uint32_t parts;
  unsigned split_bits;
  int narrow;
};
struct atl__scatter_sweep atl__scatter_sweep_plan(const struct atl_device_info *dev, unsigned elem_bytes, uint32_t dim,
                                                  unsigned idx_bytes, uint32_t partitions, uint64_t targets,
                                                  uint32_t wg, uint32_t chunk_steps, int split_on);

/* The split's chunks a later range's ticket takes: @p requested, else (0) as many as leave each later range at least
 * two tickets a work-group the device can hold at once (H100, reference run: scatter; 13 ranges of 2048 chunks, about 660 groups
 * resident: tickets of 2 chunks 1.406 ms, 4 1.567, 8 1.893: fewer tickets than groups put ranges side by side in
 * the L2), at most 16. */
uint32_t atl__scatter_split_group(const struct atl_device_info *dev, uint64_t rows, uint32_t wg, uint32_t chunk_steps,
                                  uint32_t requested);

/* The bytes of the part and sweep variants' meta words: ATL__SCATTER_META_WORDS, then a flag for each of the
 * sweep's chunks of @p wg x @p chunk_steps rows, then the split's ATL__SCATTER_SPLIT_MAX bucket ends a chunk. */
size_t atl__scatter_meta_bytes(uint64_t rows, uint32_t wg, uint32_t chunk_steps);

/* The part variant's work-items: one wave of work-groups, no more than the steps of 32 rows need. */
size_t atl__scatter_part_threads(atl_context_t ctx, void *kernel, uint64_t rows, uint32_t wg);

/* The bins variant's work-groups: one wave, no more than there are chunks of @p bin_rows rows. */
size_t atl__scatter_bins_groups(atl_context_t ctx, void *kernel, uint64_t rows, uint32_t bin_rows, uint32_t wg);

/* The atomic, run, vector and copy variants' work-items (a warp per @p rows_per_warp rows), or the block
 * variant's (@p block_rows > 0: a work-group per block of rows), a multiple of @p wg. */
size_t atl__scatter_rows_threads(uint64_t rows, uint32_t rows_per_warp, uint32_t block_rows, uint32_t wg);

/* The part variant's launches over ranges [V q / P, V (q + 1) / P) of keys in order (@p args, the launch's,
 * 4 and 5 set per range), device times summed into @p ms. */
int atl__scatter_part_ranges(atl_context_t ctx, void *kernel, const struct atl_launch *launch,
                             struct atl_arg *args, uint64_t targets, uint32_t parts, double *ms);

/* The library's scratch, kept by the context from call to call in atl__device_buffer's slots (grown when a call needs
 * more, freed when the device closes): a user's loop of atl_scatter_add calls then allocates it once. */
enum {
  ATL__SCATTER_SLOT_META, ATL__SCATTER_SLOT_KEYS32, ATL__SCATTER_SLOT_CHECK,
  ATL__SCATTER_SLOT_SHARES, ATL__SCATTER_SLOTS /* the pick's tables of key counts (scatter_shares.k.c); the count */
};
/* The words of atl__host_words the library's scatter kernels write: the pick's two shares (scatter_shares.k.c writes
 * them at its buffer's start), and the keys' check's lowest bad row (scatter_check.k.c). */
enum { ATL__SCATTER_HOST_SHARES = 0, ATL__SCATTER_HOST_KEYS_BAD = 2 };

/* The part and sweep variants' meta words before the sweep's per-chunk flags (app_scatter.k.c's PART_MAX, TICKET,
 * READY: the bucketing's counts, cursors and bounds, then the ticket counter) */
#define ATL__SCATTER_META_WORDS (3u * 1024u + 2u)

/* One run of a variant on the caller's buffers with the app's default knobs (what its measured rows used):
 * variant is atomic, run, block, bins, part, sweep or dsm (auto's picks); parts: part's ranges (0: from the L2). */
struct atl__scatter_job {
  enum atl__scatter_variant_id variant;
  uint32_t parts;
  uint64_t rows, targets;
  uint32_t dim, wg;
  enum atl_scatter_type type;
  unsigned elem_bytes; /* 4, or 2 for the 16-bit floats */
  unsigned idx_bytes;
  void *src, *idx, *out;
  void *guard; /* the keys' guard word (scatter_guard.h), the kernels' last argument; NULL: built without it */
};
int atl__scatter_job_run(atl_context_t ctx, const struct atl__scatter_job *j, double *ms);

#endif
