/**
 * @file histogram.h
 * The 256-bin histogram of a buffer of bytes on the open device, for users who want the operation rather than its
 * measurement: the histogram app's kernel (its `auto` variant for 8-bit keys: docs/design/histogram.md) on the
 * caller's buffers, context and stream or queue.
 * Threads: a context is used by one thread at a time (one context per thread); the functions that take no context
 * are reentrant (include/atomlab/context.h). Stable API: exported by libatomlab.so.1.
 */
#ifndef ATOMLAB_HISTOGRAM_API_H
#define ATOMLAB_HISTOGRAM_API_H

#include <stdint.h>

#include "scatter.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What atl_histogram counts. */
struct atl_histogram_desc {
  uint64_t bytes;     /**< the input's bytes (8-bit keys) from the start of the buffer, 1 to 2^32 - 1 */
  unsigned bin_bytes; /**< 4 (uint32_t bins) or 8 (uint64_t bins) */
};

/**
 * out[b] += the number of the first d->bytes bytes of @p in that equal b, for b < 256 (out: 256 bins of
 * d->bin_bytes; in and out buffers of atl_buffer_new or atl_buffer_wrap_* on this context's open device, out not
 * in). Every field of @p d and both buffers are checked first: ATL_EINVAL, with atl_errmsg() naming the field or
 * buffer and what is allowed, before anything runs. 64-bit bins are counted in the context's 32-bit scratch first,
 * then added. On a context of atomlab's own device the call waits for its launches; on a program's stream or queue
 * (atl_context_from_cuda / _from_opencl) it enqueues them after the program's work and returns without a wait.
 * @p device_ms, if not NULL, receives the launches' device time (on a program's stream, timed between two events
 * and waiting for the second: pass NULL for no wait). 0, or a negative code with atl_errmsg().
 */
int atl_histogram(atl_context_t ctx, const struct atl_histogram_desc *d, atl_buffer_t out, atl_buffer_t in,
                  double *device_ms);

#ifdef __cplusplus
}
#endif

#endif
