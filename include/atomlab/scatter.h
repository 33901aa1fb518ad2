/**
 * @file scatter.h
 * Scatter-add of rows on the open device, for users who want the operation rather than its measurement:
 * out[idx[i]][0..dim) += src[i][0..dim) for i < rows (PyTorch's index_add_ along dimension 0). Kernels
 * that do it inside users' own code: the device header atomlab/scatter_device.h.
 * Threads: a context is used by one thread at a time (one context per thread); the functions that take
 * no context are reentrant (include/atomlab/context.h). Stable API: exported by libatomlab.so.1.
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

/** @p bytes of device memory (contents undefined), at most the device's largest allocation; 0, or a negative code
 *  with atl_errmsg() (ATL_EINVAL for a size past it, or no @p out). */
int atl_buffer_new(atl_context_t ctx, size_t bytes, atl_buffer_t *out);
/** Host to device and device to host, @p bytes from the start of the buffer: ATL_EINVAL where @p host is NULL,
 *  @p bytes do not fit, or the buffer is of another context or of a device since closed (another opened). */
int atl_buffer_write(atl_context_t ctx, atl_buffer_t buf, const void *host, size_t bytes);
int atl_buffer_read(atl_context_t ctx, atl_buffer_t buf, void *host, size_t bytes);
/** Frees a buffer of atl_buffer_new, or releases one of atl_buffer_wrap_* (its memory stays the program's); NULL:
 *  nothing. It goes through the context it was made on. A device's close (atl_device_open of another,
 *  atl_context_free) releases its buffers' handles; freeing such a buffer afterwards frees what is left of it. */
void atl_buffer_free(atl_context_t ctx, atl_buffer_t buf);

/**
 * A buffer over a program's own CUDA memory: @p bytes from the device pointer @p cu_ptr (a CUdeviceptr; 0
 * bytes: to the end of its allocation), of the context's CUDA device. atomlab never frees it; atl_buffer_free
 * releases only the handle. 0, or ATL_EINVAL (not memory of the context, or past its allocation's end).
 */
int atl_buffer_wrap_cuda(atl_context_t ctx, uint64_t cu_ptr, size_t bytes, atl_buffer_t *out);

/**
 * A buffer over a program's cl_mem @p cl_mem, of the context's OpenCL context; its size is the memory
 * object's. The cl_mem is retained until atl_buffer_free, which releases it (the program's own reference
 * stays). 0, or ATL_EINVAL.
 */
int atl_buffer_wrap_opencl(atl_context_t ctx, void *cl_mem, atl_buffer_t *out);

/** The size in bytes of a buffer (of atl_buffer_new or atl_buffer_wrap_*); 0 for NULL. */
size_t atl_buffer_bytes(atl_buffer_t buf);

/** The value types of a scatter-add: 16-bit floats are their bits (uint16_t), summed in f32. */
enum atl_scatter_type { ATL_SCATTER_F32, ATL_SCATTER_U32, ATL_SCATTER_I32, ATL_SCATTER_BF16, ATL_SCATTER_F16 };

/**
 * How the atomic mode adds (docs/design/scatter.md, "The library", has the H100 figures behind each):
 * AUTO picks one as the app's `auto` does (from dim, the output against the L2, and the keys' shares of
 * equal neighbours and of a recurring head). The others force one: ATOMIC (one atomic per element), RUN
 * (runs of equal consecutive keys summed first: sorted, clustered keys), BLOCK (a work-group's rows summed
 * in a local table first: a zipf head or a hot row where PART has no warp path), BINS (dim 1: a local table
 * of the frequent keys), PART (a launch per range of keys whose output rows fit half the L2: uniform keys
 * into an output larger than the L2), PART1 (part in one range: its warp and table steps on a zipf head or a
 * hot row), DSM (dim 1, u32 / i32 weights: counters in local memory, on CUDA sm_90 spread over a
 * thread-block cluster's distributed shared memory), SWEEP (part's ranges in one launch, its work-groups taking
 * range-major chunks from a counter: uniform keys into an output larger than the L2), BUCKET (no value added by an
 * atomic: the rows' keys and ids sorted into buckets of consecutive targets, a work-group a bucket summing each
 * target row in registers and adding it once; keys without runs or a head, auto's pick there).
 */
enum atl_scatter_method {
  ATL_SCATTER_AUTO,
  ATL_SCATTER_ATOMIC,
  ATL_SCATTER_RUN,
  ATL_SCATTER_BLOCK,
  ATL_SCATTER_BINS,
  ATL_SCATTER_PART,
  ATL_SCATTER_PART1,
  ATL_SCATTER_DSM,
  ATL_SCATTER_SWEEP,
  ATL_SCATTER_BUCKET
};

/**
 * What the caller knows of the keys, for ATL_SCATTER_AUTO. SAMPLE: the library measures their two shares (rows whose
 * key equals the previous row's; rows whose key recurs within a block) before the launches, on every call: up to 65536
 * rows, every key read back and counted on the host; more, 32768 pairs of neighbouring keys drawn from as many equal
 * strata of the rows by a small kernel, both shares counted on the device in a hash table of the sampled keys (exact
 * counts: the same shares as a host count of the sample), and two words read back. That costs three small launches, a
 * fill and the two words' read, not the sample's copy and a host count (0.5 to 0.75 ms a call on an H200's host:
 * docs/design/scatter.md, "The library"). The shares are kept with the keys' buffer (of atl_buffer_new) until the next
 * write into it through atomlab (atl_buffer_write, or the buffer as the out of an atl_scatter_add, atl_bincount or
 * atl_scatter_reduce), so further calls on the same keys and rows measure nothing; a wrapped buffer's memory is the
 * program's to write, so its keys are measured on every call. A caller who knows says so and nothing is read or
 * launched: SPREAD (no runs, no recurring head: uniform keys), HEAD (a few keys take a large share: zipf, a hot row),
 * RUNS (equal keys next to each other: sorted, clustered).
 */
enum atl_scatter_keys {
  ATL_SCATTER_KEYS_SAMPLE,
  ATL_SCATTER_KEYS_SPREAD,
  ATL_SCATTER_KEYS_HEAD,
  ATL_SCATTER_KEYS_RUNS
};

/** What atl_scatter_add does. */
struct atl_scatter_desc {
  enum atl_scatter_type type;
  unsigned index_bytes; /**< 4 (uint32 keys) or 8 (int64 keys, each in [0, targets)) */
  uint64_t rows;        /**< source rows E: src holds rows x dim values, idx rows keys */
  uint64_t targets;     /**< output rows V (< 2^32): out holds targets x dim values */
  uint32_t dim;         /**< values per row, 1 to 512 */
  /** 0: atomics, by the method below (the order of float additions varies from run to run). 1:
   * deterministic, bit-identical on every run, grid and device of one backend (a stable sort of the keys,
   * then one writer per output row summing its rows in ascending row order; docs/design/scatter.md). */
  int deterministic;
  /** The atomic mode's method and the keys' hint for AUTO (0, 0: picked from a sample of the keys; both
   * checked but unused in the deterministic mode). Added at the end, so that a descriptor written before them (with
   * designated initializers: these zero) still compiles and gets the pick. */
  enum atl_scatter_keys keys;
  enum atl_scatter_method method;
  /** 0: the keys are checked on the device before anything is written (ATL_ERANGE naming the first bad row; see
   * atl_scatter_add for when it is reported). 1 (ATL_SCATTER_KEYS_CHECKED): the caller has checked them, and the
   * check's pass over the keys is skipped; a key outside [0, targets) then writes outside the output. At the end,
   * as keys and method are. */
  int unchecked_keys;
};

/** The value of atl_scatter_desc.unchecked_keys that skips the device's check of the keys. */
#define ATL_SCATTER_KEYS_CHECKED 1

/**
 * out += the scatter of src by idx on the open device (buffers of atl_buffer_new or atl_buffer_wrap_* on this
 * context's open device, sized as @p d says; out neither src nor idx). Every field of @p d and every buffer is
 * checked first: ATL_EINVAL, with atl_errmsg() naming the field and what is allowed, before anything runs. Then
 * the keys are checked on the device (unless d->unchecked_keys), by one launch over them before the operation's,
 * which writes the lowest row whose key is outside [0, targets) (an int64 key below 0 included) into a word every
 * later launch of the operation reads at its start: where it is set they return and out is left as it was.
 * Nothing waits for the check. On a context of atomlab's own device the call reads the word back after the
 * launches (which it waits for anyway) and returns ATL_ERANGE, with atl_errmsg() naming the lowest bad row and
 * its key. On a program's stream or queue (below) the call returns 0 and the error stays on the device:
 * atl_context_finish returns ATL_ERANGE naming the row, its key and the targets of the first such operation
 * since the last finish (later operations run as usual). The kernels are built on the
 * first call and cached by the backend; scratch (the deterministic mode's, about 16 bytes per row) is the
 * context's, sized on the first call and grown on demand. @p device_ms, if not NULL, receives the device time of
 * the launches (the check's not included). 0, or a negative code with atl_errmsg().
 *
 * On a context over a program's stream or queue (atl_context_from_cuda / _from_opencl) the launches are
 * enqueued there after the program's work and the call returns without waiting for them (a bad key is reported
 * by atl_context_finish, above), except: the AUTO method with keys SAMPLE reads the keys' two shares back (a
 * wait, on every call for a wrapped buffer; give a hint or a method to avoid it), and @p device_ms, where
 * not NULL, is timed between two events recorded around the launches, waiting for the second (pass NULL for no
 * wait); it includes host time between the launches (the first call's kernel builds).
 */
int atl_scatter_add(atl_context_t ctx, const struct atl_scatter_desc *d, atl_buffer_t out, atl_buffer_t src,
                    atl_buffer_t idx, double *device_ms);

/**
 * The weighted bincount: out[idx[i]] += weights[i] for i < d->rows, or += 1 where @p weights is NULL (counts:
 * d->type ATL_SCATTER_U32 or I32), into d->targets values of d->type: atl_scatter_add at dim 1 (d->dim is
 * taken as 1; its methods, bins and dsm among them), the ones of a count kept in the context's scratch and
 * filled on its stream or queue (no wait on a program's own). 0, or a negative code with atl_errmsg().
 */
int atl_bincount(atl_context_t ctx, const struct atl_scatter_desc *d, atl_buffer_t out, atl_buffer_t weights,
                 atl_buffer_t idx, double *device_ms);

/**
 * The method atl_scatter_add's atomic mode runs for @p d on the open device (d->method itself where it is not
 * AUTO; else the pick, which reads a sample of @p idx where d->keys is SAMPLE) into *@p method. 0, or a
 * negative code with atl_errmsg().
 */
int atl_scatter_method_for(atl_context_t ctx, const struct atl_scatter_desc *d, atl_buffer_t idx,
                           enum atl_scatter_method *method);

/** A method's name (auto, atomic, run, block, bins, part, part1, dsm, sweep, bucket), "?" where out of range. */
const char *atl_scatter_method_name(enum atl_scatter_method m);

/** What atl_scatter_reduce keeps of an output element and the values scattered to it. */
enum atl_scatter_reduce_op { ATL_SCATTER_REDUCE_MAX, ATL_SCATTER_REDUCE_MIN };

/**
 * out[idx[i]][c] = max (or min) of itself and src[i][c] for every source row i and column c (PyTorch's
 * scatter_reduce_ amax / amin with include_self): exact, the same in any order, so every run gives the same bits.
 * @p d as for atl_scatter_add, its type f32, u32 or i32 (method and deterministic are not read). Where the keys
 * repeat (a hot key, a zipf head, runs), equal keys are reduced in a work-group first, one atomic per work-group,
 * key and column; d->keys says whether they do (SPREAD: one atomic per element; HEAD, RUNS: aggregated), SAMPLE
 * judges them as atl_scatter_add's pick does and on its terms (atl_scatter_keys): the shares are kept with a keys'
 * buffer of atl_buffer_new until its next write through atomlab, but a wrapped buffer's memory (atl_buffer_wrap_*)
 * is the program's to write between calls, so its keys are counted on every call, and on a program's stream or queue
 * that count is a wait. d->method is not read here, so the hint is the way to skip the count: with SPREAD, HEAD or
 * RUNS nothing is read or launched for the choice. Floats take the integer atomic max and min on their bit pattern
 * (sign bit clear: signed; set: unsigned and reversed; no CAS loop), so they order as IEEE floats with -0.0 below
 * +0.0 and NaNs by their bits (a positive NaN above +inf, a negative one below -inf; PyTorch propagates any NaN).
 * The keys are checked as atl_scatter_add checks them (unless d->unchecked_keys; ATL_ERANGE, out left as it was). 0,
 * or a negative code with atl_errmsg().
 */
int atl_scatter_reduce(atl_context_t ctx, const struct atl_scatter_desc *d, enum atl_scatter_reduce_op op,
                       atl_buffer_t out, atl_buffer_t src, atl_buffer_t idx, double *device_ms);

#ifdef __cplusplus
}
#endif

#endif
