/**
 * @file context.h
 * The library's version, and contexts over a program's own CUDA or OpenCL objects.
 *
 * Stability: this header and device.h, error.h, result.h, experiment.h, grid.h, sweep.h, rmw.h, app.h,
 * scatter.h and histogram.h are atomlab's stable API: libatomlab.so.1 exports exactly their functions (a linker version
 * script), and a program built against major version 1 runs with any later 1.x. The layouts meant to change stay
 * out of a program's memory: struct atl_row is incomplete there (result.h reads it through functions; its layout
 * is the experimental row_layout.h). Everything else the umbrella
 * atomlab.h names (the models, plots, reports) is experimental: it is declared only with ATL_EXPERIMENTAL
 * defined and links only from the static libatomlab.a.
 *
 * Threads: a context is used by one thread at a time (open one per thread; they share nothing but the
 * runtimes loaded once per process, under pthread_once). Every function that takes no context is reentrant.
 *
 * A context made here drives the caller's objects: kernels are enqueued on the caller's CUDA stream or
 * OpenCL command queue, in its order, and the calls return without waiting for them (docs/guide/library.md,
 * "Using your own CUDA or OpenCL objects"). atomlab retains what it is given while the context lives and
 * never frees the caller's memory.
 */
#ifndef ATOMLAB_CONTEXT_H
#define ATOMLAB_CONTEXT_H

#include <stdint.h>

#include "device.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The version of these headers; CMakeLists.txt reads it from here, so it is written once. */
#define ATL_VERSION_MAJOR 1
#define ATL_VERSION_MINOR 0
#define ATL_VERSION_PATCH 0
/** The version as one number, major * 10000 + minor * 100 + patch, as atl_version() returns it. */
#define ATL_VERSION_NUMBER (ATL_VERSION_MAJOR * 10000 + ATL_VERSION_MINOR * 100 + ATL_VERSION_PATCH)

/**
 * The version of the library that runs (ATL_VERSION_NUMBER of the headers it was built from): a program
 * checks that atl_version() / 10000 equals the ATL_VERSION_MAJOR it was compiled with.
 */
unsigned atl_version(void);

/** The same as text, "1.0.0". */
const char *atl_version_string(void);

/**
 * A context whose device is the CUDA context @p cu_context (a CUcontext) and whose operations run on the
 * stream @p cu_stream (a CUstream; NULL is the context's legacy default stream). @p flags: 0 (kept for
 * later options). The context is made current on the calling thread whenever atomlab calls the driver.
 * 0, or ATL_ENODEV (no CUDA driver or backend), ATL_EINVAL; the reason in atl_errmsg() of *@p out, which is
 * set even on failure (free it with atl_context_free) unless out of memory.
 */
int atl_context_from_cuda(void *cu_context, void *cu_stream, unsigned flags, atl_context_t *out);

/**
 * A context over the OpenCL context @p cl_context (cl_context), its device @p cl_device (cl_device_id) and
 * the command queue @p cl_queue (cl_command_queue, in order, of that context and device). @p flags: 0. The
 * three are retained until atl_context_free. A device time (atl_scatter_add's device_ms) needs a queue made
 * with CL_QUEUE_PROFILING_ENABLE. Returns as atl_context_from_cuda.
 */
int atl_context_from_opencl(void *cl_context, void *cl_device, void *cl_queue, unsigned flags, atl_context_t *out);

/**
 * Moves a context of atl_context_from_cuda / _from_opencl to another stream (CUstream) or in-order queue
 * (cl_command_queue, of the same context and device): later operations enqueue there, after what the old one
 * had (the new one waits for it on the device, not the host: they share the context's scratch). Its built
 * kernels and scratch stay, so one context per thread serves every stream. 0, or ATL_EINVAL.
 */
int atl_context_set_queue(atl_context_t ctx, void *queue);

/** Whether @p ctx drives a caller's stream or queue (made by atl_context_from_cuda / _from_opencl). */
int atl_context_is_external(atl_context_t ctx);

/**
 * Waits until everything atomlab enqueued on the context's stream or queue has run (and what the caller
 * enqueued before it). Never needed between atomlab's calls and the caller's own work on the same stream.
 * It is where a bad key surfaces on a program's stream or queue: ATL_ERANGE, with atl_errmsg() naming the row,
 * the key and the targets of the first operation since the last finish whose keys were out of range (that
 * operation wrote nothing; the calls themselves returned 0 without a wait). Reported once; 0 where none was.
 */
int atl_context_finish(atl_context_t ctx);

#ifdef __cplusplus
}
#endif
#endif
