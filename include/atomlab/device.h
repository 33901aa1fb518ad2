/**
 * @file device.h
 * The context, device enumeration and device selection.
 * Threads: a context is used by one thread at a time (one context per thread); the functions that take
 * no context are reentrant (include/atomlab/context.h). Stable API: exported by libatomlab.so.1.
 */
#ifndef ATOMLAB_DEVICE_H
#define ATOMLAB_DEVICE_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque library context: backends, the open device and the last error. */
typedef struct atl_context *atl_context_t;

/** What kind of processor a device is. */
enum atl_device_type { ATL_DEVICE_OTHER = 0, ATL_DEVICE_CPU, ATL_DEVICE_GPU, ATL_DEVICE_ACCELERATOR };

/** Facts about one device, as its backend reports them. */
struct atl_device_info {
  char id[32];          /**< what --device takes, e.g. "opencl:0.1" */
  char backend[16];     /**< "opencl", "cuda", "vulkan" */
  char platform[128];   /**< platform or runtime name */
  char name[128];       /**< device name */
  char vendor[128];     /**< device vendor */
  char driver[64];      /**< driver version string */
  char version[128];    /**< device API version (e.g. "OpenCL 3.0 ...") */
  char lang_version[64];/**< kernel language version (e.g. "OpenCL C 1.2") */
  enum atl_device_type type;
  unsigned compute_units;   /**< compute units / SMs */
  unsigned clock_mhz;       /**< maximum clock reported by the API (0 if unknown) */
  size_t max_wg_size;       /**< largest work-group the device accepts */
  uint64_t max_alloc;       /**< largest single allocation in bytes */
  uint64_t global_mem;      /**< global memory in bytes */
  uint64_t local_mem;       /**< local (shared) memory per work-group in bytes */
  uint64_t local_mem_optin; /**< local memory a work-group can opt into at launch (CUDA's dynamic
                                 shared memory above 48 KiB), at least local_mem */
  uint64_t l2_cache;        /**< the last-level cache the compute units share, in bytes (CUDA's L2; OpenCL's
                                 CL_DEVICE_GLOBAL_MEM_CACHE_SIZE), 0 if unknown */
  unsigned warp_size;       /**< SIMD width (warp / wavefront / sub-group), 0 if unknown */
  unsigned max_threads_per_cu; /**< resident threads per compute unit, 0 if unknown */
  unsigned has_int64_atomics;  /**< 64-bit integer atomics on global and local memory */
  unsigned has_f32_atomic_add; /**< native float atomic add on global memory */
  unsigned has_f64_atomic_add; /**< native double atomic add */
  unsigned has_f16x2_atomic_add;  /**< native half2 atomic add */
  unsigned has_bf16x2_atomic_add; /**< native bfloat162 atomic add */
  unsigned has_vector_f32_red;    /**< vector float reductions on global memory (PTX red.global.add.v4.f32, sm_90) */
  unsigned has_scopes;         /**< block and system scopes besides device */
  unsigned has_orders;         /**< acquire, release, acq_rel and seq_cst atomics besides relaxed */
  unsigned has_local_atomics;  /**< 32-bit atomics on local memory */
  /* What atomlab's code for this device can do. The library and the CLI ask
   * these instead of comparing backend names, so a new backend states what it
   * offers in one place. */
  unsigned kernels_cuda_c;     /**< atomlab's kernels for this device are CUDA C (NVRTC): the kernels written for
                                    CUDA only (histogram case study, shared-memory validation) can run */
  unsigned has_warp_vote;      /**< kernels have warp vote and shuffle (CUDA's __ballot_sync / __shfl_sync;
                                    OpenCL C 1.2 has neither), as lock_warp needs */
  unsigned has_sm_clock;       /**< kernels read a per-compute-unit cycle counter and their compute unit's id
                                    (clock64, %smid): the shared-memory calibration and its model apply */
  unsigned has_ncu_counters;   /**< NVIDIA Nsight Compute (ncu) can profile this device, so the shared-memory
                                    model's hardware counters apply (atomlab profile) */
  unsigned has_kernel_occupancy; /**< the backend's occupancy estimate answers for one compiled kernel (CUDA's
                                      occupancy API), not a bound from device limits: exact enough to refuse on */
  unsigned has_cub;            /**< the CUB baselines (CUDA runtime) run on this device, as device @ref ordinal */
  unsigned ordinal;            /**< CUDA's device ordinal; for OpenCL the device's index within its platform */
  char features[384];          /**< facts of the API that the fields above have no place for, one line ("" if
                                    none): Vulkan's conformance version, subgroup size, limits, atomic features */
  unsigned max_loop_passes;    /**< where the driver ends a kernel invocation's loops after this many passes, all
                                    its loops together, without an error (llvmpipe's loop limiter: 65535); 0 none */
};

/**
 * The name of backend @p i (0, 1, ...) of every backend atomlab knows,
 * compiled in or not, in the order devices are probed ("cuda", "opencl", "vulkan");
 * NULL past the last. The CLI's --backend, ATL_BACKENDS and help texts take
 * their names from it, so a new backend is named in one table.
 */
const char *atl_backend_name(size_t i);

/** The backends atomlab knows, joined by @p sep ("cuda, opencl") into @p buf; returns @p buf. */
const char *atl_backend_list(const char *sep, char *buf, size_t len);

/** Whether @p name is a backend atomlab knows (compiled in or not). */
int atl_backend_known(const char *name);

/** Creates a context and enumerates the backends compiled in (none is opened yet). */
int atl_context_new(atl_context_t *out);

/** Closes the open device and frees the context (NULL is fine). */
void atl_context_free(atl_context_t ctx);

/** Detail of the last error on this context ("" if none). */
const char *atl_errmsg(atl_context_t ctx);

/**
 * Lists every device of every available backend. The list stays valid until
 * the context is freed. Backends that fail to load are skipped (their reason
 * is kept in atl_backend_notes()).
 */
int atl_devices(atl_context_t ctx, const struct atl_device_info **list, size_t *count);

/** Newline-separated notes about backends that could not be used (may be ""). */
const char *atl_backend_notes(atl_context_t ctx);

/**
 * Opens a device. @p id is an id from atl_devices(), a plain index into that
 * list, or NULL for the best device (GPUs first, then most compute units).
 * @p backend restricts the choice to one backend name when not NULL.
 * Returns ATL_ENODEV if nothing matches.
 */
int atl_device_open(atl_context_t ctx, const char *id, const char *backend);

/** What the driver says of the link from one device to another (atl_device_peer_info()). */
struct atl_peer_info {
  int access;              /**< the first device's kernels can access the second's memory (P2P access) */
  int native_atomics;      /**< atomics on the second device's memory run natively over the link */
  int performance_rank;    /**< the driver's relative rank of the link (lower is better), -1 if unknown */
  int host_native_atomics; /**< the first device's atomics on pinned host memory are native (system-wide) */
  unsigned nvlinks_active; /**< NVLink links active on the first device (NVML), 0 where none or unknown */
  char link[48];           /**< "NVLink", "PCIe or other (no active NVLink)" or "unknown: why" */
};

/**
 * The link from device @p a to device @p b, entries @p a and @p b of
 * atl_devices(). ATL_ENOTSUP with the reason as the context's error where
 * their backend cannot tell (OpenCL) or they are of different backends.
 */
int atl_device_peer_info(atl_context_t ctx, size_t a, size_t b, struct atl_peer_info *out);

/** Most devices one command measures at once (--device all, or a list). */
#define ATL_MAX_DEVICES 16

/** Whether --device @p text asks for several devices: "all" or a comma list. */
int atl_device_list_is_multi(const char *text);

/**
 * Resolves --device for several devices: "all" (every device, of
 * @p backend when not NULL) or a comma list of ids and row numbers of
 * atl_devices(), each naming a distinct device. Writes the devices' ids, in
 * the list's order, to @p ids (at most @p max). Every item is checked before
 * any is used. Returns 0; ATL_ENODEV for an item that names no device (or
 * "all" finding none); ATL_EINVAL for an empty item, a device named twice or
 * more than @p max; the reason (naming what is allowed) is the context's error.
 */
int atl_device_list_parse(atl_context_t ctx, const char *text, const char *backend, char (*ids)[32], size_t max,
                          size_t *count);

/**
 * A short name for result folders: "pocl-cpu" for PoCL, otherwise the first
 * two words of the device name in lower case ("nvidia-h100").
 */
void atl_device_slug(const struct atl_device_info *info, char *buf, size_t len);

/** Whether the device has a native atomic for @p type (int enum atl_type). */
int atl_device_has_type(const struct atl_device_info *info, int type);

/** The open device, or NULL. */
const struct atl_device_info *atl_device_current(atl_context_t ctx);

/**
 * Clock-event reasons that lower the clocks under load (NVML's power cap,
 * hardware slowdown, thermal and power-brake bits): a sample taken under one
 * ran slower than the device can. Idle, application-clock and sync-boost
 * reasons are left out: they are not a loaded device slowing down.
 */
#define ATL_THROTTLE_MASK 0xECull

/** The clocks and state of the open device at one moment, where its backend can read them. */
struct atl_clocks {
  double sm_mhz, mem_mhz; /**< current SM and memory clocks */
  double temperature_c;   /**< GPU temperature */
  double power_w;         /**< board power draw */
  uint64_t reasons;       /**< clock-event (throttle) reason bits as NVML reports them */
};

/**
 * Reads the open device's clocks now (on NVIDIA through NVML, loaded at run
 * time). ATL_ENOTSUP, with the reason as the context's last error, where the
 * backend or the machine cannot tell (OpenCL has only the maximum clock).
 */
int atl_device_clocks(atl_context_t ctx, struct atl_clocks *out);

/** Result of the occupancy discovery protocol for one work-group size. */
struct atl_occupancy {
  unsigned wg_size;          /**< work-group size that was probed */
  unsigned launched;         /**< work-groups launched by the probe */
  unsigned discovered;       /**< work-groups found co-resident by the protocol */
  unsigned estimated;        /**< estimate from API limits */
  char estimate_method[96];  /**< how `estimated` was obtained */
};

/**
 * Runs the occupancy discovery protocol (Sorensen et al., OOPSLA 2016) on the
 * open device: a ticket lock guards an open/closed poll; every work-group that
 * arrives while the poll is open is counted as co-resident. Every spin is
 * bounded; ATL_EDEADLOCK if a bound expired.
 */
int atl_occupancy_discover(atl_context_t ctx, unsigned wg_size, struct atl_occupancy *out);

/** The value types @p dev offers for atomics, comma separated ("u32, i32, u64"), in @p buf. */
const char *atl_device_type_list(const struct atl_device_info *dev, char *buf, size_t len);

/**
 * Writes the devices @p list (@p n of them, from atl_devices() on @p ctx) to
 * @p out as atomlab devices shows them: a table with a line of features per
 * device, or (@p json) one JSON object; with @p occupancy, occupancy
 * discovery on each device (@p ctx opens each in turn); then the links
 * between devices a backend can tell (peers). Returns 0, or ATL_EIO.
 */
int atl_devices_write(FILE *out, atl_context_t ctx, const struct atl_device_info *list, size_t n, int json,
                      int occupancy);

#ifdef __cplusplus
}
#endif
#endif
