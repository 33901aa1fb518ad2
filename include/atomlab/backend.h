/**
 * @file backend.h
 * The contract for backend authors. API users do not need this header.
 *
 * A backend fills a struct atl_backend_ops in atl_<name>_backend_init(). The
 * core calls only through this table and never includes a vendor header;
 * backends never print: they report detail with atl__seterr().
 */
#ifndef ATOMLAB_BACKEND_H
#define ATOMLAB_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "device.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Kinds of kernel argument. ATL_ARG_LOCAL asks for `value` bytes of local
 * memory sized at launch: an OpenCL `__local` pointer parameter in its place,
 * or on CUDA the block's dynamic shared memory (`extern __shared__`, no
 * parameter; at most one per launch).
 */
enum atl_arg_kind { ATL_ARG_BUFFER, ATL_ARG_U32, ATL_ARG_U64, ATL_ARG_LOCAL };

/** One kernel argument. */
struct atl_arg {
  enum atl_arg_kind kind;
  void *buffer;   /**< ATL_ARG_BUFFER: a handle from alloc */
  /** ATL_ARG_U32 / ATL_ARG_U64; ATL_ARG_LOCAL: bytes; ATL_ARG_BUFFER: 0, or what the host last wrote to a
   * one-word buffer, for a backend that passes it by value instead (Vulkan's ATL_VULKAN_ITERS=push) */
  uint64_t value;
};

/** A one-dimensional launch. */
struct atl_launch {
  size_t global;              /**< total work-items (multiple of local) */
  size_t local;               /**< work-group size */
  const struct atl_arg *args;
  size_t nargs;
};

/** A kernel build request: which kernel source and which -D defines. */
struct atl_build {
  const char *source;   /**< logical source name: "rmw", "discovery" */
  const char *entry;    /**< kernel function name */
  const char *defines;  /**< space-separated NAME=VALUE pairs */
};

/**
 * The version of struct atl_backend_ops: a backend built against another layout is refused (the table's abi
 * member, which ATL_BACKEND_OPS_INIT sets). Raised whenever a member is added, moved or changes meaning.
 */
#define ATL_BACKEND_ABI 3

/** A program's own objects a device is opened over (atl_context_from_cuda / _from_opencl). */
struct atl_native {
  void *context; /**< CUcontext, or cl_context */
  void *device;  /**< cl_device_id (CUDA: unused, the context's device) */
  void *queue;   /**< CUstream (NULL: the legacy default stream), or cl_command_queue */
};

/**
 * The operations a backend provides. Members marked "may be NULL" are
 * optional; every other member must be set. All functions return 0 or a
 * negative ATL_E* code and describe failures with atl__seterr().
 */
struct atl_backend_ops {
  /** ATL_BACKEND_ABI of the header the backend was built with. */
  unsigned abi;
  /** Short name, as --backend takes it. */
  const char *name;
  /** Lists devices into a malloc'ed array; ATL_ENODEV if the runtime is missing. */
  int (*probe)(atl_context_t ctx, struct atl_device_info **list, size_t *count);
  /** Opens the device described by @p info (one of probe's entries). */
  int (*open)(atl_context_t ctx, const struct atl_device_info *info, void **dev);
  /** Closes a device handle and everything allocated on it. */
  void (*close)(void *dev);
  /** Allocates @p bytes of device global memory. */
  int (*alloc)(void *dev, size_t bytes, void **buf);
  /** Frees a buffer (NULL is fine). */
  void (*free)(void *dev, void *buf);
  /** Fills @p bytes with a repeating pattern of 4 or 8 bytes. */
  int (*fill)(void *dev, void *buf, const void *pattern, size_t pattern_size, size_t bytes);
  /** Copies host memory to the device. */
  int (*write)(void *dev, void *buf, const void *src, size_t bytes);
  /** Copies device memory to the host. */
  int (*read)(void *dev, void *buf, void *dst, size_t bytes);
  /** Compiles a kernel; the result is cached by the backend per (source, entry, defines). */
  int (*build)(void *dev, const struct atl_build *req, void **kernel);
  /** Runs a kernel to completion and returns its device time in milliseconds; with @p device_ms NULL (untimed) it
   *  may return once the kernel is enqueued, ordered before the device's later fills, reads, writes and launches. */
  int (*launch)(void *dev, void *kernel, const struct atl_launch *launch, double *device_ms);
  /** The atomic machine instructions a built kernel contains, e.g. "REDG.E.ADD.STRONG.GPU x1" (may be NULL). */
  int (*describe_kernel)(void *dev, void *kernel, char *buf, size_t len);
  /**
   * The whole machine code of a built kernel as SASS text, malloc'ed; NULL
   * with the reason in @p why where the backend cannot read it (may be NULL).
   */
  char *(*kernel_isa)(void *dev, void *kernel, char *why, size_t why_len);
  /** Occupancy estimate from API limits for a kernel and work-group size (may be NULL). */
  int (*occupancy_estimate)(void *dev, void *kernel, size_t wg_size, unsigned *groups, char *method, size_t method_len);
  /** The device's clocks now; ATL_ENOTSUP with the reason in @p why where they cannot be read (may be NULL). */
  int (*clocks)(void *dev, struct atl_clocks *out, char *why, size_t why_len);
  /* Several devices of one backend sharing memory (the crossgpu app). */
  /** Facts of the link from device @p a to device @p b, two entries of this backend's probe (may be NULL). */
  int (*peer_info)(atl_context_t ctx, const struct atl_device_info *a, const struct atl_device_info *b,
                   struct atl_peer_info *out);
  /** Lets @p dev's kernels access memory allocated on @p peer, a handle of the same backend; ATL_ENOTSUP with the
   *  reason where the link does not allow it (may be NULL). */
  int (*peer_enable)(void *dev, void *peer);
  /** Pinned host memory mapped into every device of the backend: @p buf for kernels, @p host for the host (may be
   *  NULL). The host reads and writes it through @p host once the launches that touch it returned. */
  int (*host_alloc)(void *dev, size_t bytes, void **buf, void **host);
  /** Frees what host_alloc gave (NULL is fine; set where host_alloc is). */
  void (*host_free)(void *dev, void *host);
  /** A buffer handle for @p bytes of @p buf from byte @p offset on (a multiple of 2 MiB), usable wherever a buffer
   *  is: the rmw driver's placements (docs/design/method.md). NULL where the backend cannot place an array inside a
   *  buffer; then every array starts at its buffer's start. */
  int (*view)(void *dev, void *buf, size_t offset, size_t bytes, void **view);
  /** Releases what view gave (NULL is fine; set where view is); the buffer itself stays. */
  void (*view_free)(void *dev, void *view);
  /** Copies @p bytes from @p src to @p dst on the device with the vendor's own device-to-device copy
   *  (clEnqueueCopyBuffer, cuMemcpyDtoDAsync), the bandwidth yardstick users know, and its device time in
   *  @p device_ms (may be NULL: then ratios name only the read ceiling). */
  int (*copy)(void *dev, void *dst, void *src, size_t bytes, double *device_ms);
  /* A program's own objects (include/atomlab/context.h). */
  /** Opens a device over @p native and fills @p info (may be NULL). On such a handle launch, fill and alloc
   *  enqueue on the program's stream or queue and return without waiting (launch's device_ms is 0); read and
   *  write wait for it; close releases only what the backend made or retained. */
  int (*adopt)(atl_context_t ctx, const struct atl_native *native, struct atl_device_info *info, void **dev);
  /** A buffer handle over the program's memory @p native (a CUdeviceptr's value, or a cl_mem), usable wherever a
   *  buffer is; *@p bytes: its size where the caller gave 0 and the API can tell (may be NULL). */
  int (*wrap)(void *dev, void *native, size_t *bytes, void **buf);
  /** Releases what wrap gave, never the memory (may be NULL: nothing to release). */
  void (*unwrap)(void *dev, void *buf);
  /** An event recorded on the device's stream or queue now, after what was enqueued (may be NULL). */
  int (*record)(void *dev, void **event);
  /** Milliseconds from event @p start to @p end, waiting for @p end (set where record is). */
  int (*elapsed)(void *dev, void *start, void *end, double *ms);
  /** Frees an event of record (NULL is fine; set where record is). */
  void (*event_free)(void *dev, void *event);
  /** Waits until everything enqueued on the device's stream or queue has run (may be NULL: launches wait). */
  int (*finish)(void *dev);
  /** Moves an adopted device to the program's stream or queue @p queue (of its context and device), the new one
   *  waiting on the device for what the old one had (the scratch they share), not the host (may be NULL). */
  int (*set_queue)(void *dev, void *queue);
};

/** Records the detail of an error on the context and returns @p err. */
int atl__seterr(atl_context_t ctx, int err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/**
 * The name and the ops every backend has, from its functions PREFIX_probe,
 * PREFIX_open, PREFIX_close, PREFIX_alloc, PREFIX_free, PREFIX_fill,
 * PREFIX_write, PREFIX_read, PREFIX_build, PREFIX_launch,
 * PREFIX_occupancy_estimate, PREFIX_describe_kernel and PREFIX_kernel_isa
 * (PoCL's init_device_ops): a backend's init clears @p ops, names it with this
 * and sets the optional ops it has by hand.
 */
#define ATL_BACKEND_OPS_INIT(ops, name_, prefix)                                                                       \
  do {                                                                                                                 \
    memset((ops), 0, sizeof *(ops));                                                                                   \
    (ops)->abi = ATL_BACKEND_ABI;                                                                                      \
    (ops)->name = (name_);                                                                                             \
    (ops)->probe = prefix##_probe, (ops)->open = prefix##_open, (ops)->close = prefix##_close;                         \
    (ops)->alloc = prefix##_alloc, (ops)->free = prefix##_free, (ops)->fill = prefix##_fill;                           \
    (ops)->write = prefix##_write, (ops)->read = prefix##_read;                                                        \
    (ops)->build = prefix##_build, (ops)->launch = prefix##_launch;                                                    \
    (ops)->occupancy_estimate = prefix##_occupancy_estimate;                                                           \
    (ops)->describe_kernel = prefix##_describe_kernel, (ops)->kernel_isa = prefix##_kernel_isa;                        \
  } while (0)

/** Backend initialisers, one per backend compiled in. */
int atl_opencl_backend_init(struct atl_backend_ops *ops);
int atl_cuda_backend_init(struct atl_backend_ops *ops);
int atl_vulkan_backend_init(struct atl_backend_ops *ops);

#ifdef __cplusplus
}
#endif
#endif
