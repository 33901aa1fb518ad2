/*
 * The CUDA backend. The driver (libcuda.so.1) and NVRTC are loaded at run
 * time with dlopen, so the binary builds wherever the toolkit headers are and
 * starts (saying CUDA is unavailable) on a machine without an NVIDIA driver.
 * Kernels are real .cu files compiled per device by NVRTC to a CUBIN for the
 * device's exact architecture, with the same -D defines as the OpenCL ones;
 * the CUBIN is kept so the emitted machine instructions can be read back.
 */
#include <cuda.h>
#include <dlfcn.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab/backend.h"
#include "atomlab/error.h"
#include "kernels.h"
#include "nvml.h"
#include "../common.h"
#include "sass.h"

#define STR_(x) #x
#define STR(x) STR_(x) /* expands cuda.h's versioned names: cuMemAlloc -> "cuMemAlloc_v2" */

/* Every driver and NVRTC entry point atomlab uses. */
#define CU_FUNCS(X)                                                                                                    \
  X(cuInit) X(cuDriverGetVersion) X(cuDeviceGetCount) X(cuDeviceGet) X(cuDeviceGetName) X(cuDeviceGetAttribute)        \
  X(cuDeviceTotalMem) X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease) X(cuCtxSetCurrent)                      \
  X(cuCtxSynchronize) X(cuModuleLoadData) X(cuModuleUnload) X(cuModuleGetFunction) X(cuMemAlloc) X(cuMemFree)         \
  X(cuMemcpyHtoD) X(cuMemcpyDtoH) X(cuLaunchKernel) X(cuEventCreate)                                                \
  X(cuEventRecord) X(cuEventSynchronize) X(cuEventElapsedTime) X(cuEventDestroy) X(cuGetErrorName)                    \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor) X(cuFuncSetAttribute)                                                \
  X(cuDeviceGetPCIBusId) X(cuDeviceGetP2PAttribute) X(cuCtxEnablePeerAccess) X(cuMemHostAlloc)                      \
  X(cuMemHostGetDevicePointer) X(cuMemFreeHost) X(cuMemcpyDtoDAsync) X(cuCtxGetDevice) X(cuMemsetD32Async)          \
  X(cuMemsetD2D32Async) X(cuMemcpyHtoDAsync) X(cuMemcpyDtoHAsync) X(cuStreamSynchronize) X(cuMemGetAddressRange)     \
  X(cuStreamWaitEvent)
#define NVRTC_FUNCS(X)                                                                                                 \
  X(nvrtcCreateProgram) X(nvrtcCompileProgram) X(nvrtcGetProgramLogSize) X(nvrtcGetProgramLog) X(nvrtcGetCUBINSize)   \
  X(nvrtcGetCUBIN) X(nvrtcDestroyProgram) X(nvrtcGetErrorString) X(nvrtcVersion)

static struct {
  struct atl__runtime rt;
  void *libcuda, *libnvrtc;
#define X(name) __typeof__(name) *name;
  CU_FUNCS(X) NVRTC_FUNCS(X)
#undef X
} api = {.rt = ATL__RUNTIME_INIT};

/* The driver and NVRTC, once per process (through atl__runtime_load): reasons go to api.rt, not a context. */
static int load_api_now(atl_context_t ctx)
{
  const int go = atl__runtime_open(ctx, &api.rt, "libcuda.so.1", "CUDA is unavailable: no NVIDIA driver", &api.libcuda);
  if (go <= 0)
    return go;
  static const char *const nvrtc_names[] = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12",
                                            "/usr/local/cuda/lib64/libnvrtc.so", NULL};
  for (size_t i = 0; nvrtc_names[i] && !api.libnvrtc; i++)
    api.libnvrtc = dlopen(nvrtc_names[i], RTLD_NOW | RTLD_LOCAL);
  if (api.libnvrtc == NULL)
    return atl__runtime_fail(ctx, &api.rt, "CUDA is unavailable: NVRTC (libnvrtc.so) not found");
#define LOAD(lib, what, name)                                                                                          \
  if ((api.name = (__typeof__(api.name))dlsym(api.lib, STR(name))) == NULL)                                           \
    return atl__runtime_fail(ctx, &api.rt, "CUDA is unavailable: %s lacks %s", what, STR(name));
#define X(name) LOAD(libcuda, "the driver", name)
  CU_FUNCS(X)
#undef X
#define X(name) LOAD(libnvrtc, "NVRTC", name)
  NVRTC_FUNCS(X)
#undef X
#undef LOAD
  CUresult rc = api.cuInit(0);
  if (rc != CUDA_SUCCESS) {
    const char *name = "?";
    api.cuGetErrorName(rc, &name);
    return atl__runtime_fail(ctx, &api.rt, "CUDA is unavailable: cuInit failed: %s (%d)", name, (int)rc);
  }
  api.rt.loaded = 1;
  return 0;
}

static void load_api_once(void) { (void)load_api_now(NULL); }

static int load_api(atl_context_t ctx) { return atl__runtime_load(ctx, &api.rt, load_api_once); }

/* A built kernel, cached per (source, entry, defines), with its CUBIN. */
struct cu_kernel_entry {
  struct atl__built built; /* first: the build cache's link and key */
  CUmodule module;
  CUfunction function;
  void *cubin;
  size_t cubin_size;
  char instructions[ATL_INSTRUCTIONS_LEN];
  int disassembled;
  /* the launch attributes set on the function so far: each is set once, not at every launch (a driver call each) */
  unsigned shared_opted; /* the dynamic shared memory opted in to, above 48 KiB */
  int cluster_opted;     /* the non-portable cluster size allowed */
};

struct cu_dev {
  atl_context_t ctx;
  CUdevice device;
  CUcontext context;
  int cc_major, cc_minor, sm_count, threads_per_sm, max_blocks_per_sm;
  struct atl__built *kernels; /* struct cu_kernel_entry */
  CUstream stream; /* where launches go: NULL, or the program's stream */
  int adopted;     /* the program's context and stream: nothing waits but read, write and free */
  CUevent timer[2]; /* a timed launch's or copy's start and stop, made once: two creations cost a call host time */
};

static int cu_fail(struct cu_dev *d, const char *call, CUresult rc, const char *file, int line)
{
  const char *name = "?";
  if (api.cuGetErrorName)
    api.cuGetErrorName(rc, &name);
  return atl__seterr(d ? d->ctx : NULL, rc == CUDA_ERROR_OUT_OF_MEMORY ? ATL_ERANGE : ATL_EBACKEND,
                     "cuda: %s failed: %s (%d) at %s:%d", call, name, (int)rc, file, line);
}
#define CU_FAIL(d, call, rc) cu_fail(d, call, rc, __FILE__, __LINE__)

static int attr(CUdevice dev, CUdevice_attribute what)
{
  int v = 0;
  api.cuDeviceGetAttribute(&v, what, dev);
  return v;
}

static void fill_info(CUdevice dev, int i, int driver, int nvrtc_major, int nvrtc_minor, struct atl_device_info *info);

static int cu_probe(atl_context_t ctx, struct atl_device_info **list, size_t *count)
{
  *list = NULL;
  *count = 0;
  int err = load_api(ctx);
  if (err)
    return err;
  int n = 0, driver = 0, nvrtc_major = 0, nvrtc_minor = 0;
  if (api.cuDeviceGetCount(&n) != CUDA_SUCCESS || n == 0)
    return atl__seterr(ctx, ATL_ENODEV, "CUDA driver found, but no CUDA device");
  api.cuDriverGetVersion(&driver);
  api.nvrtcVersion(&nvrtc_major, &nvrtc_minor);
  struct atl_device_info *out = calloc((size_t)n, sizeof *out);
  if (out == NULL)
    return ATL_ENOMEM;
  for (int i = 0; i < n; i++) {
    CUdevice dev;
    api.cuDeviceGet(&dev, i);
    fill_info(dev, i, driver, nvrtc_major, nvrtc_minor, &out[i]);
  }
  *list = out;
  *count = (size_t)n;
  return 0;
}

/* Device @p i's facts, as the probe lists them. */
static void fill_info(CUdevice dev, int i, int driver, int nvrtc_major, int nvrtc_minor, struct atl_device_info *info)
{
  memset(info, 0, sizeof *info);
  snprintf(info->id, sizeof info->id, "cuda:%d", i);
  snprintf(info->backend, sizeof info->backend, "cuda");
  snprintf(info->platform, sizeof info->platform, "CUDA driver API %d.%d, NVRTC %d.%d", driver / 1000,
           (driver % 1000) / 10, nvrtc_major, nvrtc_minor);
  api.cuDeviceGetName(info->name, sizeof info->name, dev);
  snprintf(info->vendor, sizeof info->vendor, "NVIDIA Corporation");
  snprintf(info->driver, sizeof info->driver, "CUDA %d.%d", driver / 1000, (driver % 1000) / 10);
  int major = attr(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  int minor = attr(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  snprintf(info->version, sizeof info->version, "compute capability %d.%d", major, minor);
  snprintf(info->lang_version, sizeof info->lang_version, "CUDA C++ (NVRTC), sm_%d%d", major, minor);
  info->type = ATL_DEVICE_GPU;
  info->compute_units = (unsigned)attr(dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  info->clock_mhz = (unsigned)(attr(dev, CU_DEVICE_ATTRIBUTE_CLOCK_RATE) / 1000);
  info->max_wg_size = (size_t)attr(dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  size_t mem = 0;
  api.cuDeviceTotalMem(&mem, dev);
  info->global_mem = mem;
  info->max_alloc = mem;
  info->local_mem = (uint64_t)attr(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  info->local_mem_optin = (uint64_t)attr(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  if (info->local_mem_optin < info->local_mem)
    info->local_mem_optin = info->local_mem;
  info->warp_size = (unsigned)attr(dev, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
  info->l2_cache = (uint64_t)attr(dev, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
  info->max_threads_per_cu = (unsigned)attr(dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
  info->has_int64_atomics = 1;
  info->has_f32_atomic_add = 1;
  info->has_local_atomics = 1;
  info->has_f64_atomic_add = major >= 6;    /* atomicAdd(double *) needs sm_60 */
  info->has_f16x2_atomic_add = major >= 6;  /* atomicAdd(__half2 *) needs sm_60 */
  info->has_bf16x2_atomic_add = major >= 8; /* atomicAdd(__nv_bfloat162 *) needs sm_80 */
  info->has_vector_f32_red = major >= 9;    /* red.global.add.v4.f32 is sm_90's */
  info->has_scopes = major >= 6;            /* atomicAdd_block / _system need sm_60 */
  info->has_orders = major >= 7;            /* __nv_atomic_* with orders need sm_70 */
  info->kernels_cuda_c = 1;
  info->has_warp_vote = 1;
  info->has_sm_clock = 1;
  info->has_ncu_counters = 1;
  info->has_kernel_occupancy = 1; /* cuOccupancyMaxActiveBlocksPerMultiprocessor on the kernel itself */
  info->has_cub = 1;
  info->ordinal = (unsigned)i;
}

static void cu_close(void *handle)
{
  struct cu_dev *d = handle;
  if (d == NULL)
    return;
  if (d->context)
    api.cuCtxSetCurrent(d->context);
  for (int i = 0; i < 2; i++)
    if (d->timer[i])
      api.cuEventDestroy(d->timer[i]);
  for (struct atl__built *b = d->kernels, *next; b; b = next) {
    struct cu_kernel_entry *e = (struct cu_kernel_entry *)b;
    next = b->next;
    api.cuModuleUnload(e->module);
    free(e->cubin);
    free(b->key);
    free(e);
  }
  if (d->context && !d->adopted)
    api.cuDevicePrimaryCtxRelease(d->device);
  free(d);
}

static int cu_open(atl_context_t ctx, const struct atl_device_info *info, void **handle)
{
  int idx = 0, err = 0;
  *handle = NULL;
  if ((err = load_api(ctx)))
    return err;
  if (sscanf(info->id, "cuda:%d", &idx) != 1)
    return atl__seterr(ctx, ATL_ENODEV, "cuda: bad device id %s", info->id);
  struct cu_dev *d = calloc(1, sizeof *d);
  if (d == NULL)
    return ATL_ENOMEM;
  d->ctx = ctx;
  CUresult rc = api.cuDeviceGet(&d->device, idx);
  if (rc == CUDA_SUCCESS)
    rc = api.cuDevicePrimaryCtxRetain(&d->context, d->device);
  if (rc == CUDA_SUCCESS)
    rc = api.cuCtxSetCurrent(d->context);
  if (rc != CUDA_SUCCESS) {
    err = CU_FAIL(d, "opening the device", rc);
    cu_close(d);
    return err;
  }
  d->cc_major = attr(d->device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  d->cc_minor = attr(d->device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  d->sm_count = attr(d->device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  d->threads_per_sm = attr(d->device, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
  *handle = d;
  return 0;
}

static int cu_alloc(void *handle, size_t bytes, void **buf)
{
  struct cu_dev *d = handle;
  CUdeviceptr p = 0;
  *buf = NULL;
  api.cuCtxSetCurrent(d->context);
  CUresult rc = api.cuMemAlloc(&p, bytes ? bytes : 4);
  if (rc != CUDA_SUCCESS)
    return CU_FAIL(d, "cuMemAlloc", rc);
  *buf = (void *)(uintptr_t)p;
  return 0;
}

static void cu_free(void *handle, void *buf)
{
  struct cu_dev *d = handle;
  if (buf) {
    api.cuCtxSetCurrent(d->context);
    if (d->adopted) /* kernels enqueued on the program's stream may still use it */
      api.cuStreamSynchronize(d->stream);
    api.cuMemFree((CUdeviceptr)(uintptr_t)buf);
  }
}

static int cu_fill(void *handle, void *buf, const void *pattern, size_t pattern_size, size_t bytes)
{
  struct cu_dev *d = handle;
  CUdeviceptr p = (CUdeviceptr)(uintptr_t)buf;
  uint32_t words[2] = {0, 0};
  memcpy(words, pattern, pattern_size == 8 ? 8 : 4);
  /* Every call makes the device's context current: with --device all each device is driven by its own
   * thread, and a context is current per thread. */
  api.cuCtxSetCurrent(d->context);
  /* Enqueued in the stream's order (the program's, or the default stream, whose launches, copies and timing events
   * come after it in order), never waited for: a later launch or read sees the fill done without the host waiting
   * for every kernel before it. */
  CUresult rc = pattern_size == 8 ? api.cuMemsetD2D32Async(p, 8, words[0], 1, bytes / 8, d->stream)
                                  : api.cuMemsetD32Async(p, words[0], bytes / 4, d->stream);
  if (rc == CUDA_SUCCESS && pattern_size == 8) /* two strided 32-bit fills (8-byte pitch): low words, then high */
    rc = api.cuMemsetD2D32Async(p + 4, 8, words[1], 1, bytes / 8, d->stream);
  return rc == CUDA_SUCCESS ? 0 : CU_FAIL(d, "fill", rc);
}

static int cu_write(void *handle, void *buf, const void *src, size_t bytes)
{
  struct cu_dev *d = handle;
  api.cuCtxSetCurrent(d->context);
  CUresult rc = d->adopted ? api.cuMemcpyHtoDAsync((CUdeviceptr)(uintptr_t)buf, src, bytes, d->stream)
                           : api.cuMemcpyHtoD((CUdeviceptr)(uintptr_t)buf, src, bytes);
  if (rc == CUDA_SUCCESS && d->adopted) /* ordered on the program's stream; @p src is the caller's until done */
    rc = api.cuStreamSynchronize(d->stream);
  return rc == CUDA_SUCCESS ? 0 : CU_FAIL(d, "cuMemcpyHtoD", rc);
}

static int cu_read(void *handle, void *buf, void *dst, size_t bytes)
{
  struct cu_dev *d = handle;
  api.cuCtxSetCurrent(d->context);
  CUresult rc = d->adopted ? api.cuMemcpyDtoHAsync(dst, (CUdeviceptr)(uintptr_t)buf, bytes, d->stream)
                           : api.cuMemcpyDtoH(dst, (CUdeviceptr)(uintptr_t)buf, bytes);
  if (rc == CUDA_SUCCESS && d->adopted) /* after what was enqueued on the program's stream before */
    rc = api.cuStreamSynchronize(d->stream);
  return rc == CUDA_SUCCESS ? 0 : CU_FAIL(d, "cuMemcpyDtoH", rc);
}

/* Where the CUDA headers NVRTC needs (cuda_fp16.h, ...) live. */
static void cuda_include_option(char *opt, size_t len)
{
  const char *home = getenv("CUDA_HOME");
  snprintf(opt, len, "-I%s/include", home && *home ? home : "/usr/local/cuda");
}

static int cu_build(void *handle, const struct atl_build *req, void **kernel)
{
  struct cu_dev *d = handle;
  char *key = NULL, *log = NULL;
  nvrtcProgram prog = NULL;
  struct cu_kernel_entry *e = NULL;
  int err = atl__built_find(d->kernels, req, kernel, &key);
  if (err || *kernel)
    return err;
  const char *source = atl__cuda_kernel_source(req->source);
  if (source == NULL) {
    free(key);
    return atl__seterr(d->ctx, ATL_EINVAL, "cuda: no kernel source '%s'", req->source);
  }
  /* options: the architecture, the include dir, and one -D per define */
  const char *opts[64];
  char arch[32], include[600];
  int nopts = 0;
  snprintf(arch, sizeof arch, "--gpu-architecture=sm_%d%d", d->cc_major, d->cc_minor);
  cuda_include_option(include, sizeof include);
  opts[nopts++] = arch;
  opts[nopts++] = include;
  opts[nopts++] = "-default-device";
  char *defs = malloc(strlen(req->defines) * 2 + 2);
  if (defs == NULL) {
    free(key);
    return ATL_ENOMEM;
  }
  int ndefs = atl__define_options(req->defines, defs, opts + nopts, 64 - nopts);
  if (ndefs < 0) {
    err = atl__seterr(d->ctx, ATL_EINVAL, "cuda: too many defines for %s", req->source);
    goto out;
  }
  nopts += ndefs;
  nvrtcResult nr = api.nvrtcCreateProgram(&prog, source, req->source, 0, NULL, NULL);
  if (nr == NVRTC_SUCCESS)
    nr = api.nvrtcCompileProgram(prog, nopts, opts);
  if (nr != NVRTC_SUCCESS) {
    size_t loglen = 0;
    if (prog && api.nvrtcGetProgramLogSize(prog, &loglen) == NVRTC_SUCCESS && loglen > 1) {
      log = malloc(loglen);
      if (log && api.nvrtcGetProgramLog(prog, log) == NVRTC_SUCCESS)
        for (char *c = log; *c; c++)
          if (*c == '\n')
            *c = ' ';
    }
    err = atl__seterr(d->ctx, ATL_EBUILD, "cuda: NVRTC failed on %s with '%s': %s: %.900s", req->source, req->defines,
                      api.nvrtcGetErrorString(nr), log ? log : "");
    goto out;
  }
  e = calloc(1, sizeof *e);
  if (e == NULL || api.nvrtcGetCUBINSize(prog, &e->cubin_size) != NVRTC_SUCCESS ||
      (e->cubin = malloc(e->cubin_size)) == NULL || api.nvrtcGetCUBIN(prog, e->cubin) != NVRTC_SUCCESS) {
    err = atl__seterr(d->ctx, ATL_EBUILD, "cuda: no CUBIN from NVRTC for %s", req->source);
    goto out;
  }
  api.cuCtxSetCurrent(d->context);
  CUresult rc = api.cuModuleLoadData(&e->module, e->cubin);
  if (rc == CUDA_SUCCESS)
    rc = api.cuModuleGetFunction(&e->function, e->module, req->entry);
  if (rc != CUDA_SUCCESS) {
    err = CU_FAIL(d, "loading the module", rc);
    goto out;
  }
  e->built.key = key;
  key = NULL;
  e->built.next = d->kernels;
  d->kernels = &e->built;
  *kernel = e;
  e = NULL;
out:
  if (e) {
    if (e->module)
      api.cuModuleUnload(e->module);
    free(e->cubin);
    free(e);
  }
  if (prog)
    api.nvrtcDestroyProgram(&prog);
  free(defs);
  free(log);
  free(key);
  return err;
}

/* Device time of what is enqueued between timer_begin and timer_end on the default stream: the device's two events,
 * free again once timer_end waited for the stop. */
static CUresult timer_begin(struct cu_dev *d)
{
  CUresult rc = CUDA_SUCCESS;
  for (int i = 0; i < 2 && rc == CUDA_SUCCESS; i++)
    if (d->timer[i] == NULL)
      rc = api.cuEventCreate(&d->timer[i], CU_EVENT_DEFAULT);
  return rc == CUDA_SUCCESS ? api.cuEventRecord(d->timer[0], NULL) : rc;
}

/* The stop event recorded and waited for, the time into @p device_ms; @p rc the enqueue's status so far. */
static int timer_end(struct cu_dev *d, CUresult rc, const char *what, double *device_ms)
{
  float ms = 0;
  if (rc == CUDA_SUCCESS)
    rc = api.cuEventRecord(d->timer[1], NULL);
  if (rc == CUDA_SUCCESS)
    rc = api.cuEventSynchronize(d->timer[1]);
  if (rc == CUDA_SUCCESS)
    rc = api.cuEventElapsedTime(&ms, d->timer[0], d->timer[1]);
  if (rc != CUDA_SUCCESS)
    return CU_FAIL(d, what, rc);
  if (device_ms)
    *device_ms = ms;
  return 0;
}

static int cu_launch(void *handle, void *kernel, const struct atl_launch *launch, double *device_ms)
{
  struct cu_dev *d = handle;
  struct cu_kernel_entry *k = kernel;
  uint64_t values[16];
  uint32_t values32[16];
  void *params[16];
  if (launch->nargs > 16)
    return atl__seterr(d->ctx, ATL_EINVAL, "cuda: too many kernel arguments");
  size_t np = 0;          /* parameters passed: every argument but the local-memory one */
  unsigned dyn_shared = 0; /* bytes of dynamic shared memory */
  for (size_t i = 0; i < launch->nargs; i++) {
    const struct atl_arg *a = &launch->args[i];
    if (a->kind == ATL_ARG_LOCAL) {
      dyn_shared = (unsigned)a->value;
    } else if (a->kind == ATL_ARG_U32) {
      values32[np] = (uint32_t)a->value;
      params[np] = &values32[np];
      np++;
    } else {
      values[np] = a->kind == ATL_ARG_BUFFER ? (uint64_t)(uintptr_t)a->buffer : a->value;
      params[np] = &values[np];
      np++;
    }
  }
  api.cuCtxSetCurrent(d->context);
  /* Above 48 KiB a kernel must opt in to its dynamic shared memory. */
  CUresult rc = CUDA_SUCCESS;
  if (dyn_shared > 48u * 1024u && dyn_shared > k->shared_opted &&
      (rc = api.cuFuncSetAttribute(k->function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)dyn_shared)) ==
          CUDA_SUCCESS)
    k->shared_opted = dyn_shared;
  /* A kernel whose cluster spans more than 8 blocks (app_scatter_dsm.k.c's 16, __cluster_dims__) must opt in too. */
  if (rc == CUDA_SUCCESS && d->cc_major >= 9 && !k->cluster_opted &&
      (rc = api.cuFuncSetAttribute(k->function, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1)) ==
          CUDA_SUCCESS)
    k->cluster_opted = 1;
  if (device_ms)
    *device_ms = 0;
  /* on the program's stream, in its order (record and elapsed time it where asked); untimed: enqueued, not waited
   * for, so that a call's small launches ahead of a read cost one wait, not one each */
  if (d->adopted || device_ms == NULL) {
    if (rc == CUDA_SUCCESS)
      rc = api.cuLaunchKernel(k->function, (unsigned)(launch->global / launch->local), 1, 1, (unsigned)launch->local,
                              1, 1, dyn_shared, d->stream, params, NULL);
    return rc == CUDA_SUCCESS ? 0 : CU_FAIL(d, "kernel launch", rc);
  }
  if (rc == CUDA_SUCCESS)
    rc = timer_begin(d);
  if (rc == CUDA_SUCCESS)
    rc = api.cuLaunchKernel(k->function, (unsigned)(launch->global / launch->local), 1, 1, (unsigned)launch->local, 1,
                            1, dyn_shared, NULL, params, NULL);
  return timer_end(d, rc, "kernel launch", device_ms);
}

static int cu_occupancy_estimate(void *handle, void *kernel, size_t wg_size, unsigned *groups, char *method,
                                 size_t method_len)
{
  struct cu_dev *d = handle;
  struct cu_kernel_entry *k = kernel;
  int per_sm = 0;
  api.cuCtxSetCurrent(d->context);
  CUresult rc = api.cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k->function, (int)wg_size, 0);
  if (rc != CUDA_SUCCESS)
    return CU_FAIL(d, "cuOccupancyMaxActiveBlocksPerMultiprocessor", rc);
  *groups = (unsigned)(per_sm * d->sm_count);
  snprintf(method, method_len, "cuOccupancyMaxActiveBlocksPerMultiprocessor: %d blocks/SM x %d SMs", per_sm,
           d->sm_count);
  return 0;
}

static char *cu_kernel_isa(void *handle, void *kernel, char *why, size_t why_len)
{
  struct cu_kernel_entry *k = kernel;
  (void)handle;
  return atl__sass_text(k->cubin, k->cubin_size, why, why_len);
}

static int cu_describe_kernel(void *handle, void *kernel, char *buf, size_t len)
{
  struct cu_dev *d = handle;
  struct cu_kernel_entry *k = kernel;
  if (!k->disassembled) {
    k->disassembled = 1;
    atl__sass_atomics(k->cubin, k->cubin_size, k->instructions, sizeof k->instructions);
  }
  (void)d;
  snprintf(buf, len, "%s", k->instructions);
  return 0;
}

/* The clocks through NVML, which names GPUs by PCI bus id (CUDA's device order need not be NVML's). */
static int cu_clocks(void *dev, struct atl_clocks *out, char *why, size_t why_len)
{
  struct cu_dev *d = dev;
  char bus[32];
  if (api.cuDeviceGetPCIBusId(bus, sizeof bus, d->device) != CUDA_SUCCESS) {
    snprintf(why, why_len, "clocks unknown: cuDeviceGetPCIBusId failed");
    return ATL_ENOTSUP;
  }
  return atl__nvml_clocks(bus, out, why, why_len);
}

/* The link between two devices: the driver's P2P attributes, and whether NVML sees NVLinks active. */
static int cu_peer_info(atl_context_t ctx, const struct atl_device_info *a, const struct atl_device_info *b,
                        struct atl_peer_info *out)
{
  int err = load_api(ctx);
  if (err)
    return err;
  CUdevice da, db;
  if (api.cuDeviceGet(&da, (int)a->ordinal) != CUDA_SUCCESS || api.cuDeviceGet(&db, (int)b->ordinal) != CUDA_SUCCESS)
    return atl__seterr(ctx, ATL_ENODEV, "cuda: no device %u or %u", a->ordinal, b->ordinal);
  int v = 0;
  if (da != db) {
    if (api.cuDeviceGetP2PAttribute(&v, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, da, db) == CUDA_SUCCESS)
      out->access = v;
    if (api.cuDeviceGetP2PAttribute(&v, CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED, da, db) == CUDA_SUCCESS)
      out->native_atomics = v;
    if (api.cuDeviceGetP2PAttribute(&v, CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK, da, db) == CUDA_SUCCESS)
      out->performance_rank = v;
  }
  out->host_native_atomics = attr(da, CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED);
  char bus[32], why[160] = "";
  if (api.cuDeviceGetPCIBusId(bus, sizeof bus, da) != CUDA_SUCCESS)
    snprintf(out->link, sizeof out->link, "unknown: no PCI bus id");
  else if (atl__nvml_nvlinks(bus, &out->nvlinks_active, why, sizeof why) != 0)
    snprintf(out->link, sizeof out->link, "unknown: %.38s", why);
  else
    snprintf(out->link, sizeof out->link, "%s", out->nvlinks_active ? "NVLink" : "PCIe or other (no active NVLink)");
  return 0;
}

static int cu_peer_enable(void *handle, void *peer_handle)
{
  struct cu_dev *d = handle, *peer = peer_handle;
  int v = 0;
  if (d->device == peer->device)
    return 0;
  if (api.cuDeviceGetP2PAttribute(&v, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, d->device, peer->device) !=
          CUDA_SUCCESS ||
      !v)
    return atl__seterr(d->ctx, ATL_ENOTSUP, "cuda: device %d cannot access device %d's memory (no P2P access)",
                       (int)d->device, (int)peer->device);
  api.cuCtxSetCurrent(d->context);
  CUresult rc = api.cuCtxEnablePeerAccess(peer->context, 0);
  return rc == CUDA_SUCCESS || rc == CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED ? 0 : CU_FAIL(d, "cuCtxEnablePeerAccess", rc);
}

/* Portable (every context) and mapped (a device address) pinned host memory. */
static int cu_host_alloc(void *handle, size_t bytes, void **buf, void **host)
{
  struct cu_dev *d = handle;
  void *h = NULL;
  CUdeviceptr p = 0;
  *buf = *host = NULL;
  api.cuCtxSetCurrent(d->context);
  CUresult rc = api.cuMemHostAlloc(&h, bytes ? bytes : 4, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP);
  if (rc != CUDA_SUCCESS)
    return CU_FAIL(d, "cuMemHostAlloc", rc);
  if ((rc = api.cuMemHostGetDevicePointer(&p, h, 0)) != CUDA_SUCCESS) {
    api.cuMemFreeHost(h);
    return CU_FAIL(d, "cuMemHostGetDevicePointer", rc);
  }
  *host = h;
  *buf = (void *)(uintptr_t)p;
  return 0;
}

static void cu_host_free(void *handle, void *host)
{
  struct cu_dev *d = handle;
  if (host) {
    api.cuCtxSetCurrent(d->context);
    api.cuMemFreeHost(host);
  }
}

/* A device pointer inside the allocation is a buffer handle as good as its start. */
static int cu_view(void *handle, void *buf, size_t offset, size_t bytes, void **view)
{
  (void)handle, (void)bytes;
  *view = (void *)((uintptr_t)buf + offset);
  return 0;
}

static void cu_view_free(void *handle, void *view) { (void)handle, (void)view; }

/* A device over a program's context and stream. CUDA contexts are not counted: the program keeps its context
 * alive while the atomlab context lives. */
static int cu_adopt(atl_context_t ctx, const struct atl_native *native, struct atl_device_info *info, void **handle)
{
  int err = 0, driver = 0, nvrtc_major = 0, nvrtc_minor = 0, ordinal = -1, n = 0;
  *handle = NULL;
  if ((err = load_api(ctx)))
    return err;
  if (native->context == NULL)
    return atl__seterr(ctx, ATL_EINVAL, "cuda: a context is needed (the current one: cuCtxGetCurrent)");
  struct cu_dev *d = calloc(1, sizeof *d);
  if (d == NULL)
    return ATL_ENOMEM;
  *d = (struct cu_dev){.ctx = ctx, .context = native->context, .stream = native->queue, .adopted = 1};
  CUresult rc = api.cuCtxSetCurrent(d->context);
  if (rc == CUDA_SUCCESS)
    rc = api.cuCtxGetDevice(&d->device);
  if (rc != CUDA_SUCCESS) {
    err = CU_FAIL(d, "the program's context", rc);
    free(d);
    return err;
  }
  api.cuDeviceGetCount(&n);
  for (int i = 0; i < n && ordinal < 0; i++) {
    CUdevice dev;
    if (api.cuDeviceGet(&dev, i) == CUDA_SUCCESS && dev == d->device)
      ordinal = i;
  }
  api.cuDriverGetVersion(&driver);
  api.nvrtcVersion(&nvrtc_major, &nvrtc_minor);
  fill_info(d->device, ordinal < 0 ? 0 : ordinal, driver, nvrtc_major, nvrtc_minor, info);
  snprintf(info->id, sizeof info->id, "cuda:external");
  d->cc_major = attr(d->device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  d->cc_minor = attr(d->device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  d->sm_count = attr(d->device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  d->threads_per_sm = attr(d->device, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
  *handle = d;
  return 0;
}

/* A program's device pointer: the handle is the address itself (as alloc's); *bytes from its allocation. */
static int cu_wrap(void *handle, void *native, size_t *bytes, void **buf)
{
  struct cu_dev *d = handle;
  CUdeviceptr base = 0, p = (CUdeviceptr)(uintptr_t)native;
  size_t size = 0;
  *buf = NULL;
  api.cuCtxSetCurrent(d->context);
  CUresult rc = api.cuMemGetAddressRange(&base, &size, p);
  if (rc != CUDA_SUCCESS)
    return atl__seterr(d->ctx, ATL_EINVAL, "cuda: 0x%llx is not device memory of the context",
                       (unsigned long long)p);
  const size_t room = (size_t)(base + size - p);
  if (*bytes == 0)
    *bytes = room;
  if (*bytes > room)
    return atl__seterr(d->ctx, ATL_EINVAL, "cuda: %zu bytes from 0x%llx pass the end of its allocation (%zu bytes "
                       "left)", *bytes, (unsigned long long)p, room);
  *buf = native;
  return 0;
}

static int cu_record(void *handle, void **event)
{
  struct cu_dev *d = handle;
  CUevent ev = NULL;
  api.cuCtxSetCurrent(d->context);
  CUresult rc = api.cuEventCreate(&ev, CU_EVENT_DEFAULT);
  if (rc == CUDA_SUCCESS)
    rc = api.cuEventRecord(ev, d->stream);
  if (rc != CUDA_SUCCESS && ev)
    api.cuEventDestroy(ev);
  *event = rc == CUDA_SUCCESS ? ev : NULL;
  return rc == CUDA_SUCCESS ? 0 : CU_FAIL(d, "cuEventRecord", rc);
}

static int cu_elapsed(void *handle, void *start, void *end, double *ms)
{
  struct cu_dev *d = handle;
  float t = 0;
  api.cuCtxSetCurrent(d->context);
  CUresult rc = api.cuEventSynchronize((CUevent)end);
  if (rc == CUDA_SUCCESS)
    rc = api.cuEventElapsedTime(&t, (CUevent)start, (CUevent)end);
  *ms = t;
  return rc == CUDA_SUCCESS ? 0 : CU_FAIL(d, "cuEventElapsedTime", rc);
}

static void cu_event_free(void *handle, void *event)
{
  (void)handle;
  if (event)
    api.cuEventDestroy((CUevent)event);
}

static int cu_finish(void *handle)
{
  struct cu_dev *d = handle;
  api.cuCtxSetCurrent(d->context);
  CUresult rc = api.cuStreamSynchronize(d->stream);
  return rc == CUDA_SUCCESS ? 0 : CU_FAIL(d, "cuStreamSynchronize", rc);
}

static int cu_set_queue(void *handle, void *queue)
{
  struct cu_dev *d = handle;
  CUevent ev = NULL;
  if (!d->adopted || (CUstream)queue == d->stream)
    return 0;
  api.cuCtxSetCurrent(d->context);
  CUresult rc = api.cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING);
  if (rc == CUDA_SUCCESS)
    rc = api.cuEventRecord(ev, d->stream);
  if (rc == CUDA_SUCCESS)
    rc = api.cuStreamWaitEvent((CUstream)queue, ev, 0);
  if (ev)
    api.cuEventDestroy(ev);
  if (rc != CUDA_SUCCESS)
    return CU_FAIL(d, "moving to another stream", rc);
  d->stream = queue;
  return 0;
}

/* The driver's own device-to-device copy between two events, as kernels are timed. */
static int cu_copy(void *handle, void *dst, void *src, size_t bytes, double *device_ms)
{
  struct cu_dev *d = handle;
  api.cuCtxSetCurrent(d->context);
  CUresult rc = timer_begin(d);
  if (rc == CUDA_SUCCESS)
    rc = api.cuMemcpyDtoDAsync((CUdeviceptr)(uintptr_t)dst, (CUdeviceptr)(uintptr_t)src, bytes, NULL);
  return timer_end(d, rc, "cuMemcpyDtoDAsync", device_ms);
}

int atl_cuda_backend_init(struct atl_backend_ops *ops)
{
  ATL_BACKEND_OPS_INIT(ops, "cuda", cu);
  ops->clocks = cu_clocks; /* NVML's, where the driver has it */
  ops->peer_info = cu_peer_info;
  ops->peer_enable = cu_peer_enable;
  ops->host_alloc = cu_host_alloc;
  ops->host_free = cu_host_free;
  ops->view = cu_view;
  ops->view_free = cu_view_free;
  ops->adopt = cu_adopt;
  ops->wrap = cu_wrap;
  ops->record = cu_record;
  ops->elapsed = cu_elapsed;
  ops->event_free = cu_event_free;
  ops->finish = cu_finish;
  ops->set_queue = cu_set_queue;
  ops->copy = cu_copy;
  return 0;
}
