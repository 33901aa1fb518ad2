/* The OpenCL backend: every platform and device through the ICD loader. */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* clCreateCommandQueue: every platform has it */
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab/backend.h"
#include "atomlab/error.h"
#include "../common.h"
#include "../cuda/sass.h"
#include "kernels.h"

#ifndef CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV
#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#define CL_DEVICE_WARP_SIZE_NV 0x4003
#endif

/* A built kernel, cached per (source, entry, defines): the handle a build returns. */
struct cl_kernel_entry {
  struct atl__built built; /* first: the build cache's link and key */
  cl_program program;
  cl_kernel kernel;
  char instructions[ATL_INSTRUCTIONS_LEN];
  int described;
};

struct cl_dev {
  atl_context_t ctx;
  cl_platform_id platform;
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  struct atl__built *kernels; /* struct cl_kernel_entry */
  int nv_cc_major, nv_cc_minor;
  unsigned compute_units;
  int adopted; /* the program's context and queue (retained): nothing waits for the queue but read and write */
};

static const char *cl_err_name(cl_int code)
{
  switch (code) {
#define NAME(c)                                                                                                        \
  case c:                                                                                                              \
    return #c;
    NAME(CL_DEVICE_NOT_FOUND) NAME(CL_OUT_OF_RESOURCES) NAME(CL_OUT_OF_HOST_MEMORY)
    NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE) NAME(CL_BUILD_PROGRAM_FAILURE) NAME(CL_INVALID_VALUE)
    NAME(CL_INVALID_DEVICE) NAME(CL_INVALID_KERNEL_ARGS) NAME(CL_INVALID_WORK_GROUP_SIZE)
    NAME(CL_INVALID_BUFFER_SIZE) NAME(CL_INVALID_KERNEL_NAME) NAME(CL_INVALID_BUILD_OPTIONS)
    NAME(CL_INVALID_ARG_SIZE) NAME(CL_INVALID_ARG_VALUE) NAME(CL_INVALID_WORK_ITEM_SIZE)
    NAME(CL_INVALID_GLOBAL_WORK_SIZE) NAME(CL_INVALID_COMMAND_QUEUE) NAME(CL_PROFILING_INFO_NOT_AVAILABLE)
#undef NAME
  case -1001:
    return "CL_PLATFORM_NOT_FOUND_KHR";
  default:
    return "CL_ERROR";
  }
}

#define CL_FAIL(d, call, code)                                                                                         \
  atl__seterr((d)->ctx, ATL_EBACKEND, "opencl: %s failed: %s (%d) at %s:%d", call, cl_err_name(code), (int)(code),      \
              __FILE__, __LINE__)

static void str_info(cl_device_id dev, cl_device_info what, char *buf, size_t len)
{
  buf[0] = '\0';
  if (clGetDeviceInfo(dev, what, len, buf, NULL) != CL_SUCCESS)
    buf[0] = '\0';
  buf[len - 1] = '\0';
}

static int has_extension(cl_device_id dev, const char *ext)
{
  size_t len = 0;
  if (clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, 0, NULL, &len) != CL_SUCCESS || len == 0)
    return 0;
  char *all = malloc(len + 2);
  if (all == NULL)
    return 0;
  int found = 0;
  if (clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, len, all, NULL) == CL_SUCCESS) {
    all[len] = '\0';
    size_t n = strlen(ext);
    for (const char *p = strstr(all, ext); p && !found; p = strstr(p + 1, ext))
      found = (p == all || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0');
  }
  free(all);
  return found;
}

/* Resident threads per SM by compute capability (CUDA programming guide, "Technical Specifications"). */
static unsigned nv_threads_per_sm(int major, int minor)
{
  if (major == 7 && minor == 5)
    return 1024;
  if (major == 8 && minor > 0)
    return 1536;
  if (major == 12)
    return 1536;
  return 2048;
}

static void fill_info(cl_platform_id platform, cl_device_id dev, unsigned p, unsigned d, struct atl_device_info *info)
{
  memset(info, 0, sizeof *info);
  snprintf(info->id, sizeof info->id, "opencl:%u.%u", p, d);
  snprintf(info->backend, sizeof info->backend, "opencl");
  clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof info->platform, info->platform, NULL);
  info->platform[sizeof info->platform - 1] = '\0';
  str_info(dev, CL_DEVICE_NAME, info->name, sizeof info->name);
  str_info(dev, CL_DEVICE_VENDOR, info->vendor, sizeof info->vendor);
  str_info(dev, CL_DRIVER_VERSION, info->driver, sizeof info->driver);
  str_info(dev, CL_DEVICE_VERSION, info->version, sizeof info->version);
  str_info(dev, CL_DEVICE_OPENCL_C_VERSION, info->lang_version, sizeof info->lang_version);
  cl_device_type type = 0;
  clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
  info->type = (type & CL_DEVICE_TYPE_GPU)           ? ATL_DEVICE_GPU
               : (type & CL_DEVICE_TYPE_CPU)         ? ATL_DEVICE_CPU
               : (type & CL_DEVICE_TYPE_ACCELERATOR) ? ATL_DEVICE_ACCELERATOR
                                                     : ATL_DEVICE_OTHER;
  cl_uint u = 0;
  size_t s = 0;
  cl_ulong l = 0;
  if (clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof u, &u, NULL) == CL_SUCCESS)
    info->compute_units = u;
  if (clGetDeviceInfo(dev, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof u, &u, NULL) == CL_SUCCESS)
    info->clock_mhz = u;
  if (clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof s, &s, NULL) == CL_SUCCESS)
    info->max_wg_size = s;
  if (clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof l, &l, NULL) == CL_SUCCESS)
    info->max_alloc = l;
  if (clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof l, &l, NULL) == CL_SUCCESS)
    info->global_mem = l;
  if (clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof l, &l, NULL) == CL_SUCCESS)
    info->local_mem = info->local_mem_optin = l;
  if (clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof l, &l, NULL) == CL_SUCCESS)
    info->l2_cache = l;
  info->has_int64_atomics =
      has_extension(dev, "cl_khr_int64_base_atomics") && has_extension(dev, "cl_khr_int64_extended_atomics");
  info->has_f32_atomic_add = has_extension(dev, "cl_ext_float_atomics");
  info->has_local_atomics = 1; /* 32-bit local atomics are core since OpenCL 1.1 */
  /* OpenCL C 1.2 has no warp vote or shuffle and no per-compute-unit clock;
   * the occupancy estimate is a bound from limits; ncu and CUB need CUDA. */
  info->ordinal = d;
  if (has_extension(dev, "cl_nv_device_attribute_query")) {
    cl_uint major = 0, minor = 0, warp = 0;
    clGetDeviceInfo(dev, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof major, &major, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof minor, &minor, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_WARP_SIZE_NV, sizeof warp, &warp, NULL);
    info->warp_size = warp;
    if (major)
      info->max_threads_per_cu = nv_threads_per_sm((int)major, (int)minor);
  }
}

static int cl_probe(atl_context_t ctx, struct atl_device_info **list, size_t *count)
{
  cl_uint nplat = 0;
  cl_int rc = clGetPlatformIDs(0, NULL, &nplat);
  *list = NULL;
  *count = 0;
  if (rc != CL_SUCCESS || nplat == 0)
    return atl__seterr(ctx, ATL_ENODEV, "no OpenCL platform found (%s); install an ICD such as pocl-opencl-icd",
                       rc == CL_SUCCESS ? "none listed" : cl_err_name(rc));
  cl_platform_id *plats = calloc(nplat, sizeof *plats);
  if (plats == NULL)
    return ATL_ENOMEM;
  clGetPlatformIDs(nplat, plats, NULL);
  struct atl_device_info *out = NULL;
  size_t n = 0;
  for (cl_uint p = 0; p < nplat; p++) {
    cl_uint ndev = 0;
    if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL, &ndev) != CL_SUCCESS || ndev == 0)
      continue;
    cl_device_id *devs = calloc(ndev, sizeof *devs);
    struct atl_device_info *grown = realloc(out, (n + ndev) * sizeof *out);
    if (devs == NULL || grown == NULL) {
      free(devs);
      free(grown ? grown : out);
      free(plats);
      return ATL_ENOMEM;
    }
    out = grown;
    clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, ndev, devs, NULL);
    for (cl_uint d = 0; d < ndev; d++)
      fill_info(plats[p], devs[d], p, d, &out[n++]);
    free(devs);
  }
  free(plats);
  *list = out;
  *count = n;
  return n ? 0 : atl__seterr(ctx, ATL_ENODEV, "OpenCL platforms found, but no devices");
}

/* Finds the platform and device behind an id "opencl:P.D". */
static int lookup(const struct atl_device_info *info, cl_platform_id *platform, cl_device_id *device)
{
  unsigned p = 0, d = 0;
  if (sscanf(info->id, "opencl:%u.%u", &p, &d) != 2)
    return ATL_ENODEV;
  cl_uint nplat = 0, ndev = 0;
  if (clGetPlatformIDs(0, NULL, &nplat) != CL_SUCCESS || p >= nplat)
    return ATL_ENODEV;
  cl_platform_id *plats = calloc(nplat, sizeof *plats);
  if (!plats)
    return ATL_ENOMEM;
  clGetPlatformIDs(nplat, plats, NULL);
  *platform = plats[p];
  free(plats);
  if (clGetDeviceIDs(*platform, CL_DEVICE_TYPE_ALL, 0, NULL, &ndev) != CL_SUCCESS || d >= ndev)
    return ATL_ENODEV;
  cl_device_id *devs = calloc(ndev, sizeof *devs);
  if (!devs)
    return ATL_ENOMEM;
  clGetDeviceIDs(*platform, CL_DEVICE_TYPE_ALL, ndev, devs, NULL);
  *device = devs[d];
  free(devs);
  return 0;
}

static void cl_close(void *handle)
{
  struct cl_dev *d = handle;
  if (d == NULL)
    return;
  for (struct atl__built *b = d->kernels, *next; b; b = next) {
    struct cl_kernel_entry *e = (struct cl_kernel_entry *)b;
    next = b->next;
    clReleaseKernel(e->kernel);
    clReleaseProgram(e->program);
    free(b->key);
    free(e);
  }
  if (d->queue)
    clReleaseCommandQueue(d->queue);
  if (d->context)
    clReleaseContext(d->context);
  free(d);
}

static int cl_open(atl_context_t ctx, const struct atl_device_info *info, void **handle)
{
  struct cl_dev *d = calloc(1, sizeof *d);
  cl_int rc = CL_SUCCESS;
  int err = 0;
  if (d == NULL)
    return ATL_ENOMEM;
  d->ctx = ctx;
  d->compute_units = info->compute_units;
  if (lookup(info, &d->platform, &d->device) != 0) {
    err = atl__seterr(ctx, ATL_ENODEV, "opencl: device %s disappeared", info->id);
    goto out;
  }
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)d->platform, 0};
  d->context = clCreateContext(props, 1, &d->device, NULL, NULL, &rc);
  if (rc != CL_SUCCESS) {
    err = CL_FAIL(d, "clCreateContext", rc);
    goto out;
  }
  d->queue = clCreateCommandQueue(d->context, d->device, CL_QUEUE_PROFILING_ENABLE, &rc);
  if (rc != CL_SUCCESS) {
    err = CL_FAIL(d, "clCreateCommandQueue", rc);
    goto out;
  }
  if (has_extension(d->device, "cl_nv_device_attribute_query")) {
    cl_uint v = 0;
    clGetDeviceInfo(d->device, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof v, &v, NULL);
    d->nv_cc_major = (int)v;
    clGetDeviceInfo(d->device, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof v, &v, NULL);
    d->nv_cc_minor = (int)v;
  }
out:
  if (err) {
    cl_close(d);
    d = NULL;
  }
  *handle = d;
  return err;
}

static int cl_alloc(void *handle, size_t bytes, void **buf)
{
  struct cl_dev *d = handle;
  cl_int rc = CL_SUCCESS;
  *buf = NULL;
  cl_mem mem = clCreateBuffer(d->context, CL_MEM_READ_WRITE, bytes ? bytes : 4, NULL, &rc);
  if (rc != CL_SUCCESS)
    return atl__seterr(d->ctx, rc == CL_INVALID_BUFFER_SIZE ? ATL_ERANGE : ATL_EBACKEND,
                       "opencl: clCreateBuffer of %zu bytes failed: %s (%d)", bytes, cl_err_name(rc), (int)rc);
  /* Buffers are allocated lazily by many drivers: touch the memory now so an
   * out-of-memory shows up here rather than at the first launch. */
  unsigned char zero = 0;
  rc = clEnqueueFillBuffer(d->queue, mem, &zero, 1, 0, bytes ? bytes : 4, 0, NULL, NULL);
  if (rc == CL_SUCCESS && !d->adopted) /* on a program's queue the fill stays enqueued: no host wait */
    rc = clFinish(d->queue);
  if (rc != CL_SUCCESS) {
    clReleaseMemObject(mem);
    return atl__seterr(d->ctx, ATL_EBACKEND, "opencl: allocating %zu bytes failed: %s (%d)", bytes, cl_err_name(rc),
                       (int)rc);
  }
  *buf = mem;
  return 0;
}

static void cl_free(void *handle, void *buf)
{
  (void)handle;
  if (buf)
    clReleaseMemObject((cl_mem)buf);
}

static int cl_fill(void *handle, void *buf, const void *pattern, size_t pattern_size, size_t bytes)
{
  struct cl_dev *d = handle;
  cl_int rc = clEnqueueFillBuffer(d->queue, (cl_mem)buf, pattern, pattern_size, 0, bytes, 0, NULL, NULL);
  if (rc == CL_SUCCESS && !d->adopted)
    rc = clFinish(d->queue);
  return rc == CL_SUCCESS ? 0 : CL_FAIL(d, "clEnqueueFillBuffer", rc);
}

static int cl_write(void *handle, void *buf, const void *src, size_t bytes)
{
  struct cl_dev *d = handle;
  cl_int rc = clEnqueueWriteBuffer(d->queue, (cl_mem)buf, CL_TRUE, 0, bytes, src, 0, NULL, NULL);
  return rc == CL_SUCCESS ? 0 : CL_FAIL(d, "clEnqueueWriteBuffer", rc);
}

static int cl_read(void *handle, void *buf, void *dst, size_t bytes)
{
  struct cl_dev *d = handle;
  cl_int rc = clEnqueueReadBuffer(d->queue, (cl_mem)buf, CL_TRUE, 0, bytes, dst, 0, NULL, NULL);
  return rc == CL_SUCCESS ? 0 : CL_FAIL(d, "clEnqueueReadBuffer", rc);
}

/* Waits for @p ev, then its device time (profiling start to end) into @p ms; @p ev released. */
static int event_ms(struct cl_dev *d, cl_event ev, const char *what, double *ms)
{
  cl_int rc = clWaitForEvents(1, &ev);
  cl_ulong start = 0, end = 0;
  if (rc == CL_SUCCESS)
    rc = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
  if (rc == CL_SUCCESS)
    rc = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
  clReleaseEvent(ev);
  if (rc != CL_SUCCESS)
    return CL_FAIL(d, what, rc);
  *ms = (double)(end - start) * 1e-6;
  return 0;
}

/* The driver's own copy, timed by its profiling event as kernels are. */
static int cl_copy(void *handle, void *dst, void *src, size_t bytes, double *device_ms)
{
  struct cl_dev *d = handle;
  cl_event ev = NULL;
  cl_int rc = clEnqueueCopyBuffer(d->queue, (cl_mem)src, (cl_mem)dst, 0, 0, bytes, 0, NULL, &ev);
  return rc != CL_SUCCESS ? CL_FAIL(d, "clEnqueueCopyBuffer", rc) : event_ms(d, ev, "buffer copy", device_ms);
}

/* A sub-buffer: its origin (a multiple of 2 MiB) meets any device's CL_DEVICE_MEM_BASE_ADDR_ALIGN. */
static int cl_view(void *handle, void *buf, size_t offset, size_t bytes, void **view)
{
  struct cl_dev *d = handle;
  cl_buffer_region region = {offset, bytes ? bytes : 4};
  cl_int rc = CL_SUCCESS;
  *view = NULL;
  cl_mem mem = clCreateSubBuffer((cl_mem)buf, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &rc);
  if (rc != CL_SUCCESS)
    return CL_FAIL(d, "clCreateSubBuffer", rc);
  *view = mem;
  return 0;
}

static void cl_view_free(void *handle, void *view) { cl_free(handle, view); }

/* "A=1 B=2" -> "-DA=1 -DB=2" (plus the language version the source needs). */
static char *build_options(const char *defines)
{
  enum { MAX_DEFINES = 64 };
  const char *argv[MAX_DEFINES];
  size_t len = strlen(defines);
  char *storage = malloc(len * 2 + 2), *opts = malloc(len * 3 + 32);
  int n = storage && opts ? atl__define_options(defines, storage, argv, MAX_DEFINES) : -1;
  if (n < 0) {
    free(storage);
    free(opts);
    return NULL;
  }
  char *o = opts;
  if (strstr(defines, "TYPE_f32"))
    o += sprintf(o, "-cl-std=CL3.0 "); /* float atomics need OpenCL C 3.0 atomics */
  for (int i = 0; i < n; i++)
    o += sprintf(o, "%s ", argv[i]);
  *o = '\0';
  free(storage);
  return opts;
}

static int cl_build(void *handle, const struct atl_build *req, void **kernel)
{
  struct cl_dev *d = handle;
  char *key = NULL, *opts = NULL;
  int err = atl__built_find(d->kernels, req, kernel, &key);
  if (err || *kernel)
    return err;
  const char *source = atl__opencl_kernel_source(req->source);
  if (source == NULL) {
    free(key);
    return atl__seterr(d->ctx, ATL_EINVAL, "opencl: no kernel source '%s'", req->source);
  }
  cl_int rc = CL_SUCCESS;
  cl_program prog = clCreateProgramWithSource(d->context, 1, &source, NULL, &rc);
  cl_kernel k = NULL;
  if (rc != CL_SUCCESS) {
    err = CL_FAIL(d, "clCreateProgramWithSource", rc);
    goto out;
  }
  opts = build_options(req->defines);
  if (opts == NULL) {
    err = ATL_ENOMEM;
    goto out;
  }
  rc = clBuildProgram(prog, 1, &d->device, opts, NULL, NULL);
  if (rc != CL_SUCCESS) {
    char log[1400] = "";
    clGetProgramBuildInfo(prog, d->device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
    for (char *c = log; *c; c++)
      if (*c == '\n')
        *c = ' ';
    err = atl__seterr(d->ctx, ATL_EBUILD, "opencl: building %s with '%s' failed: %s", req->source, opts, log);
    goto out;
  }
  k = clCreateKernel(prog, req->entry, &rc);
  if (rc != CL_SUCCESS) {
    err = CL_FAIL(d, "clCreateKernel", rc);
    goto out;
  }
  struct cl_kernel_entry *e = calloc(1, sizeof *e);
  if (e == NULL) {
    err = ATL_ENOMEM;
    goto out;
  }
  e->built.key = key;
  e->program = prog;
  e->kernel = k;
  e->built.next = d->kernels;
  d->kernels = &e->built;
  key = NULL;
  prog = NULL;
  *kernel = e;
  k = NULL;
out:
  if (k)
    clReleaseKernel(k);
  if (prog)
    clReleaseProgram(prog);
  free(opts);
  free(key);
  return err;
}

static int cl_launch(void *handle, void *kernel, const struct atl_launch *launch, double *device_ms)
{
  struct cl_dev *d = handle;
  cl_kernel k = ((struct cl_kernel_entry *)kernel)->kernel;
  cl_int rc = CL_SUCCESS;
  for (size_t i = 0; i < launch->nargs && rc == CL_SUCCESS; i++) {
    const struct atl_arg *a = &launch->args[i];
    cl_mem mem = a->buffer;
    cl_uint u32 = (cl_uint)a->value;
    cl_ulong u64 = a->value;
    switch (a->kind) {
    case ATL_ARG_BUFFER:
      rc = clSetKernelArg(k, (cl_uint)i, sizeof mem, &mem);
      break;
    case ATL_ARG_U32:
      rc = clSetKernelArg(k, (cl_uint)i, sizeof u32, &u32);
      break;
    case ATL_ARG_U64:
      rc = clSetKernelArg(k, (cl_uint)i, sizeof u64, &u64);
      break;
    case ATL_ARG_LOCAL:
      rc = clSetKernelArg(k, (cl_uint)i, (size_t)a->value, NULL);
      break;
    }
  }
  if (rc != CL_SUCCESS)
    return CL_FAIL(d, "clSetKernelArg", rc);
  cl_event ev = NULL;
  size_t global = launch->global, local = launch->local;
  const int timed = !d->adopted && device_ms != NULL;
  rc = clEnqueueNDRangeKernel(d->queue, k, 1, NULL, &global, &local, 0, NULL, timed ? &ev : NULL);
  if (rc != CL_SUCCESS)
    return CL_FAIL(d, "clEnqueueNDRangeKernel", rc);
  if (!timed) { /* the in-order queue runs it before what comes next; record and elapsed time it where asked */
    if (device_ms)
      *device_ms = 0;
    return 0;
  }
  return event_ms(d, ev, "kernel execution", device_ms);
}

static int cl_occupancy_estimate(void *handle, void *kernel, size_t wg_size, unsigned *groups, char *method,
                                 size_t method_len)
{
  struct cl_dev *d = handle;
  const struct cl_kernel_entry *e = kernel;
  size_t kernel_max = 0;
  clGetKernelWorkGroupInfo(e->kernel, d->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernel_max, &kernel_max, NULL);
  if (d->nv_cc_major > 0) {
    unsigned threads = nv_threads_per_sm(d->nv_cc_major, d->nv_cc_minor);
    unsigned per_sm = (unsigned)(threads / wg_size);
    if (per_sm > 32)
      per_sm = 32; /* resident blocks per SM on every architecture since Maxwell */
    *groups = d->compute_units * (per_sm ? per_sm : 1);
    snprintf(method, method_len, "sm_%d%d: %u SMs x min(32, %u threads / %zu)", d->nv_cc_major, d->nv_cc_minor,
             d->compute_units, threads, wg_size);
    return 0;
  }
  cl_device_type type = 0;
  clGetDeviceInfo(d->device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
  if (type & CL_DEVICE_TYPE_CPU) {
    *groups = d->compute_units;
    snprintf(method, method_len, "CPU: one work-group per compute unit (%u)", d->compute_units);
    return 0;
  }
  size_t max = kernel_max ? kernel_max : wg_size;
  unsigned per_cu = (unsigned)(max / wg_size);
  *groups = d->compute_units * (per_cu ? per_cu : 1);
  snprintf(method, method_len, "%u compute units x (kernel max work-group %zu / %zu)", d->compute_units, max, wg_size);
  return 0;
}

/* The machine instructions behind a kernel, where the driver keeps PTX as
 * its program binary (NVIDIA): assembled by ptxas and disassembled. Other
 * platforms keep formats atomlab cannot read; they report nothing. */
static int cl_describe_kernel(void *handle, void *kernel, char *buf, size_t len)
{
  struct cl_dev *d = handle;
  struct cl_kernel_entry *e = kernel;
  if (d->nv_cc_major == 0) {
    buf[0] = '\0';
    return 0;
  }
  if (!e->described) {
    e->described = 1;
    size_t size = 0;
    unsigned char *binary = NULL;
    if (clGetProgramInfo(e->program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) == CL_SUCCESS && size > 0 &&
        (binary = malloc(size + 1)) != NULL &&
        clGetProgramInfo(e->program, CL_PROGRAM_BINARIES, sizeof binary, &binary, NULL) == CL_SUCCESS) {
      binary[size] = '\0';
      atl__sass_from_ptx((const char *)binary, strlen((const char *)binary), e->instructions, sizeof e->instructions);
    } else {
      snprintf(e->instructions, sizeof e->instructions, "unknown (no program binary)");
    }
    free(binary);
  }
  snprintf(buf, len, "%s", e->instructions);
  return 0;
}

/* The SASS of a kernel where the driver keeps PTX (NVIDIA); other platforms
 * (PoCL keeps a native CPU object) report why there is none. */
static char *cl_kernel_isa(void *handle, void *kernel, char *why, size_t why_len)
{
  struct cl_dev *d = handle;
  struct cl_kernel_entry *e = kernel;
  if (d->nv_cc_major == 0) {
    snprintf(why, why_len, "unavailable: only NVIDIA's OpenCL keeps a program binary (PTX) atomlab can read");
    return NULL;
  }
  size_t size = 0;
  unsigned char *binary = NULL;
  char *text = NULL;
  if (clGetProgramInfo(e->program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) == CL_SUCCESS && size > 0 &&
      (binary = malloc(size + 1)) != NULL &&
      clGetProgramInfo(e->program, CL_PROGRAM_BINARIES, sizeof binary, &binary, NULL) == CL_SUCCESS) {
    binary[size] = '\0';
    text = atl__sass_text_ptx((const char *)binary, strlen((const char *)binary), why, why_len);
  } else {
    snprintf(why, why_len, "no program binary");
  }
  free(binary);
  return text;
}

/* A device over a program's context, device and queue: retained here, released by cl_close like atomlab's own. */
static int cl_adopt(atl_context_t ctx, const struct atl_native *native, struct atl_device_info *info, void **handle)
{
  *handle = NULL;
  cl_context context = native->context;
  cl_device_id device = native->device;
  cl_command_queue queue = native->queue;
  cl_context queue_context = NULL;
  cl_device_id queue_device = NULL;
  cl_command_queue_properties props = 0;
  if (context == NULL || device == NULL || queue == NULL)
    return atl__seterr(ctx, ATL_EINVAL, "opencl: a context, a device and a queue are needed");
  if (clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof queue_context, &queue_context, NULL) != CL_SUCCESS ||
      clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof queue_device, &queue_device, NULL) != CL_SUCCESS ||
      clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL) != CL_SUCCESS)
    return atl__seterr(ctx, ATL_EINVAL, "opencl: the queue is not a command queue");
  if (queue_context != context || queue_device != device)
    return atl__seterr(ctx, ATL_EINVAL, "opencl: the queue is not of the context and device given");
  if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
    return atl__seterr(ctx, ATL_EINVAL, "opencl: the queue is out of order: allowed: an in-order queue");
  struct cl_dev *d = calloc(1, sizeof *d);
  if (d == NULL)
    return ATL_ENOMEM;
  cl_platform_id platform = NULL;
  clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
  clRetainContext(context);
  clRetainCommandQueue(queue);
  *d = (struct cl_dev){.ctx = ctx, .platform = platform, .device = device, .context = context, .queue = queue,
                       .adopted = 1};
  fill_info(platform, device, 0, 0, info);
  snprintf(info->id, sizeof info->id, "opencl:external");
  d->compute_units = info->compute_units;
  if (has_extension(device, "cl_nv_device_attribute_query")) {
    cl_uint v = 0;
    clGetDeviceInfo(device, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof v, &v, NULL);
    d->nv_cc_major = (int)v;
    clGetDeviceInfo(device, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof v, &v, NULL);
    d->nv_cc_minor = (int)v;
  }
  *handle = d;
  return 0;
}

/* A program's cl_mem, retained (so it outlives a release by the program while atomlab holds it). */
static int cl_wrap(void *handle, void *native, size_t *bytes, void **buf)
{
  struct cl_dev *d = handle;
  cl_mem mem = native;
  cl_context owner = NULL;
  size_t size = 0;
  *buf = NULL;
  if (mem == NULL || clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof owner, &owner, NULL) != CL_SUCCESS ||
      clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof size, &size, NULL) != CL_SUCCESS)
    return atl__seterr(d->ctx, ATL_EINVAL, "opencl: not a memory object");
  if (owner != d->context)
    return atl__seterr(d->ctx, ATL_EINVAL, "opencl: the memory object is of another context than the device's");
  if (*bytes == 0 || *bytes > size)
    *bytes = size;
  clRetainMemObject(mem);
  *buf = mem;
  return 0;
}

static int cl_record(void *handle, void **event)
{
  struct cl_dev *d = handle;
  cl_event ev = NULL;
  cl_int rc = clEnqueueMarkerWithWaitList(d->queue, 0, NULL, &ev);
  *event = rc == CL_SUCCESS ? ev : NULL;
  return rc == CL_SUCCESS ? 0 : CL_FAIL(d, "clEnqueueMarkerWithWaitList", rc);
}

static int cl_elapsed(void *handle, void *start, void *end, double *ms)
{
  struct cl_dev *d = handle;
  cl_event ev[2] = {start, end};
  cl_ulong t[2] = {0, 0};
  cl_int rc = clWaitForEvents(1, &ev[1]);
  for (int i = 0; i < 2 && rc == CL_SUCCESS; i++)
    rc = clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_END, sizeof t[i], &t[i], NULL);
  *ms = 0;
  if (rc == CL_PROFILING_INFO_NOT_AVAILABLE)
    return atl__seterr(d->ctx, ATL_ENOTSUP, "opencl: no device time: the queue was made without "
                       "CL_QUEUE_PROFILING_ENABLE");
  if (rc != CL_SUCCESS)
    return CL_FAIL(d, "timing events", rc);
  *ms = t[1] > t[0] ? (double)(t[1] - t[0]) * 1e-6 : 0;
  return 0;
}

static void cl_event_free(void *handle, void *event)
{
  (void)handle;
  if (event)
    clReleaseEvent((cl_event)event);
}

static int cl_finish(void *handle)
{
  struct cl_dev *d = handle;
  cl_int rc = clFinish(d->queue);
  return rc == CL_SUCCESS ? 0 : CL_FAIL(d, "clFinish", rc);
}

static int cl_set_queue(void *handle, void *queue)
{
  struct cl_dev *d = handle;
  cl_command_queue q = queue;
  cl_context qc = NULL;
  cl_device_id qd = NULL;
  cl_command_queue_properties props = 0;
  if (!d->adopted || q == d->queue)
    return 0;
  if (q == NULL || clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof qc, &qc, NULL) != CL_SUCCESS ||
      clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof qd, &qd, NULL) != CL_SUCCESS ||
      clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL) != CL_SUCCESS || qc != d->context ||
      qd != d->device || (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))
    return atl__seterr(d->ctx, ATL_EINVAL, "opencl: not an in-order queue of the context's context and device");
  cl_event ev = NULL;
  cl_int rc = clEnqueueMarkerWithWaitList(d->queue, 0, NULL, &ev);
  if (rc == CL_SUCCESS)
    rc = clEnqueueBarrierWithWaitList(q, 1, &ev, NULL);
  if (ev)
    clReleaseEvent(ev);
  if (rc != CL_SUCCESS)
    return CL_FAIL(d, "moving to another queue", rc);
  clRetainCommandQueue(q);
  clReleaseCommandQueue(d->queue);
  d->queue = q;
  return 0;
}

int atl_opencl_backend_init(struct atl_backend_ops *ops)
{
  ATL_BACKEND_OPS_INIT(ops, "opencl", cl);
  ops->view = cl_view;
  ops->view_free = cl_view_free;
  ops->adopt = cl_adopt;
  ops->wrap = cl_wrap;
  ops->unwrap = cl_free;
  ops->record = cl_record;
  ops->elapsed = cl_elapsed;
  ops->event_free = cl_event_free;
  ops->finish = cl_finish;
  ops->set_queue = cl_set_queue;
  ops->copy = cl_copy;
  return 0;
}
