/* Internal: the library's buffers, shared by its operations (scatter_lib.c) and their entry on a program's own
 * objects (scatter_interop.c). */
#ifndef ATOMLAB_APPS_SCATTER_LIB_H
#define ATOMLAB_APPS_SCATTER_LIB_H

#include <stddef.h>
#include <stdint.h>

#include "atomlab/scatter.h"
#include "scatter_launch.h" /* ATL__SCATTER_BLOCK_ROWS */

/* Releases the handle of a wrapped buffer (not the memory, the program's). */
void atl__buffer_unwrap(atl_context_t ctx, atl_buffer_t buf);

/* atl_scatter_add on the open device, its device time (where @p device_ms) the sum of its launches'. */
int atl__scatter_add_now(atl_context_t ctx, const struct atl_scatter_desc *d, atl_buffer_t out, atl_buffer_t src,
                         atl_buffer_t idx, double *device_ms);

#define ATL__SCATTER_SAMPLE_PAIRS 32768u /* neighbouring pairs of keys the pick samples, where there are more rows */
/* the count a sample's first key needs to be a head's: twice in a block's rows */
#define ATL__SCATTER_SAMPLE_LEAST \
  ((2u * ATL__SCATTER_SAMPLE_PAIRS + ATL__SCATTER_BLOCK_ROWS - 1u) / ATL__SCATTER_BLOCK_ROWS)

/* The pick's count of ATL__SCATTER_SAMPLE_PAIRS pairs of neighbouring keys of @p idx (more rows than twice that), one
 * pair in each of as many equal strata of the rows, on the device (src/kernels/scatter_shares.k.c): into @p w the
 * pairs whose keys are equal and the pairs whose first key is counted ATL__SCATTER_SAMPLE_LEAST times or more among
 * the pairs' first keys. */
int atl__scatter_sample_shares(atl_context_t ctx, const struct atl_scatter_desc *d, atl_buffer_t idx, uint32_t w[2]);

#endif
