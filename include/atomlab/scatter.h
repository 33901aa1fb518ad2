/**
 * @file scatter.h
 * Scatter-add of rows on the open device, for users who want the operation rather than its measurement:
 * out[idx[i]][0..dim) += src[i][0..dim) for i < rows (PyTorch's index_add_ along dimension 0). Kernels
 * that do it inside users' own code: the device header atomlab/scatter_device.h.
 */
#ifndef ATOMLAB_SCATTER_API_H
#define ATOMLAB_SCATTER_API_H

#include <stddef.h>
#include <stdint.h>

#include "device.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A buffer in the open device's memory (an OpenCL cl_mem or a CUDA allocation inside). */
typedef struct atl_buffer *atl_buffer_t;

/** @p bytes of device memory (contents undefined); 0, or a negative code with atl_errmsg(). */
int atl_buffer_new(atl_context_t ctx, size_t bytes, atl_buffer_t *out);
/** Host to device and device to host, @p bytes from the start of the buffer. */
int atl_buffer_write(atl_context_t ctx, atl_buffer_t buf, const void *host, size_t bytes);
int atl_buffer_read(atl_context_t ctx, atl_buffer_t buf, void *host, size_t bytes);
/** Frees a buffer of atl_buffer_new (NULL: nothing). */
void atl_buffer_free(atl_context_t ctx, atl_buffer_t buf);

/** The value types of a scatter-add: 16-bit floats are their bits (uint16_t), summed in f32. */
enum atl_scatter_type { ATL_SCATTER_F32, ATL_SCATTER_U32, ATL_SCATTER_I32, ATL_SCATTER_BF16, ATL_SCATTER_F16 };

/** What atl_scatter_add does. */
struct atl_scatter_desc {
  enum atl_scatter_type type;
  unsigned index_bytes; /**< 4 (uint32 keys) or 8 (int64 keys, each in [0, targets)) */
  uint64_t rows;        /**< source rows E: src holds rows x dim values, idx rows keys */
  uint64_t targets;     /**< output rows V (< 2^32): out holds targets x dim values */
  uint32_t dim;         /**< values per row, 1 to 512 */
  /** 0: atomics, runs of equal consecutive keys summed first (the fastest on sorted and hot keys; the
   * order of float additions varies from run to run). 1: deterministic, bit-identical on every run, grid
   * and device of one backend (a stable sort of the keys, then one writer per output row summing its
   * rows in ascending row order; docs/scatter.md). */
  int deterministic;
};

/**
 * out += the scatter of src by idx on the open device (the buffers of atl_buffer_new, sized as @p d
 * says). Keys must lie in [0, targets): they are not checked on the device. The kernels are built on the
 * first call and cached by the backend; the deterministic mode allocates its scratch (about 16 bytes per
 * row) on each call. @p device_ms, if not NULL, receives the device time of the launches. 0, or a negative
 * code (ATL_EINVAL for a descriptor out of range) with atl_errmsg().
 */
int atl_scatter_add(atl_context_t ctx, const struct atl_scatter_desc *d, atl_buffer_t out, atl_buffer_t src,
                    atl_buffer_t idx, double *device_ms);

#ifdef __cplusplus
}
#endif

#endif
