/**
 * @file grid.h
 * The launch shape of a sweep (work-group size x work-groups). The default,
 * `auto`, measures a few shapes once at the uncontended point and keeps the
 * fastest: on an H200, NVIDIA's OpenCL ran contiguous fetch_add at 564 Gop/s
 * with 1056 work-groups of 256 and at 669 Gop/s with 264 of 1024 (issue
 * [truth]), so one fixed shape can report a device well below its peak.
 * Threads: a context is used by one thread at a time (one context per thread); the functions that take
 * no context are reentrant (include/atomlab/context.h). Stable API: exported by libatomlab.so.1.
 */
#ifndef ATOMLAB_GRID_H
#define ATOMLAB_GRID_H

#include "device.h"
#include "experiment.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How the shape is chosen. */
enum atl_grid_mode {
  ATL_GRID_AUTO,      /**< the fastest of the shapes tried (GPUs); the occupancy shape on CPU devices */
  ATL_GRID_OCCUPANCY, /**< 256 work-items (or the device maximum) x the co-resident count discovered */
};

/** "auto", "occupancy"; -1 if unknown. */
int atl_grid_mode_parse(const char *s);
const char *atl_grid_mode_name(enum atl_grid_mode m);

#define ATL_GRID_MAX_TRIED 8

/** The shape chosen, and what was tried to choose it. */
struct atl_grid {
  enum atl_grid_mode mode;
  unsigned wg_size, workgroups;
  struct atl_occupancy occupancy; /**< the discovery at the chosen work-group size */
  struct {
    unsigned wg_size, workgroups;
    double gops; /**< contiguous fetch_add u32, contention 1, padding 1; 0 if it did not run or verify */
  } tried[ATL_GRID_MAX_TRIED];
  unsigned ntried;
  char note[160]; /**< how it was chosen, in words */
};

/**
 * Chooses the shape on the open device. @p wg_size / @p workgroups given
 * (non-zero) are kept: only what is left 0 is chosen (a work-group size
 * alone gets its co-resident count). Auto on a GPU tries work-group sizes
 * 128, 256, 512 and 1024 (up to the device maximum), each at the
 * co-resident count occupancy discovery finds for it, timed with @p timing's
 * noise rule under a short budget, every row verified; a CPU device gets the
 * occupancy shape (one work-group per compute unit where discovery sees
 * fewer). Returns 0, or an ATL_E* code with the context's error set.
 */
int atl_grid_choose(atl_context_t ctx, enum atl_grid_mode mode, unsigned wg_size, unsigned workgroups,
                    const struct atl_timing *timing, struct atl_grid *out);

#ifdef __cplusplus
}
#endif
#endif
