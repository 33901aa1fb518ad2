/* A program that owns its OpenCL objects (context, in-order queue with profiling, cl_mem buffers) and hands
 * them to atomlab (include/atomlab/context.h): atl_context_from_opencl over its context, device and queue,
 * atl_buffer_wrap_opencl over its buffers, then scatter-adds out[idx[i]][:] += src[i][:] on its queue. atomlab
 * enqueues after the program's writes and returns without waiting; the program's own blocking read, later on
 * the same queue, sees the sums. Checked against the host's sum (small integers: every order is exact); once in
 * the deterministic mode, timed with events (device_ms).
 * Build: cc opencl_interop.c $(pkg-config --cflags --libs atomlab) -lOpenCL  (or CMake: examples/CMakeLists.txt). */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* clCreateCommandQueue: every platform has it */
#include <CL/cl.h>
#include <atomlab.h>
#include <stdio.h>
#include <string.h>

enum { E = 50000, V = 1000, D = 16 };

static float src[E * D], out[V * D], want[V * D];
static unsigned idx[E];

int main(void)
{
  if (atl_version() / 10000 != ATL_VERSION_MAJOR) {
    fprintf(stderr, "error: libatomlab %s is not of major version %d\n", atl_version_string(), ATL_VERSION_MAJOR);
    return 1;
  }
  for (int i = 0; i < E; i++) {
    idx[i] = (unsigned)((i * 7919u) % V);
    for (int c = 0; c < D; c++) {
      src[i * D + c] = (float)((i + c) % 7) - 3.0f;
      want[idx[i] * D + c] += 2 * src[i * D + c]; /* two scatter-adds below */
    }
  }
  /* the program's own objects */
  cl_platform_id platform;
  cl_device_id device;
  cl_int rc = clGetPlatformIDs(1, &platform, NULL);
  if (rc == CL_SUCCESS)
    rc = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
  if (rc != CL_SUCCESS) {
    fprintf(stderr, "error: no OpenCL device (%d)\n", rc);
    return 1;
  }
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &rc);
  cl_command_queue queue = clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &rc);
  cl_mem m_src = clCreateBuffer(context, CL_MEM_READ_ONLY, sizeof src, NULL, &rc);
  cl_mem m_idx = clCreateBuffer(context, CL_MEM_READ_ONLY, sizeof idx, NULL, &rc);
  cl_mem m_out = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof out, NULL, &rc);
  const float zero = 0;
  clEnqueueWriteBuffer(queue, m_src, CL_FALSE, 0, sizeof src, src, 0, NULL, NULL);
  clEnqueueWriteBuffer(queue, m_idx, CL_FALSE, 0, sizeof idx, idx, 0, NULL, NULL);
  clEnqueueFillBuffer(queue, m_out, &zero, sizeof zero, 0, sizeof out, 0, NULL, NULL);

  /* atomlab on them: nothing is copied, nothing waits */
  atl_context_t ctx = NULL;
  atl_buffer_t b_src = NULL, b_idx = NULL, b_out = NULL;
  int err = atl_context_from_opencl(context, device, queue, 0, &ctx);
  if (!err)
    err = atl_buffer_wrap_opencl(ctx, m_src, &b_src);
  if (!err)
    err = atl_buffer_wrap_opencl(ctx, m_idx, &b_idx);
  if (!err)
    err = atl_buffer_wrap_opencl(ctx, m_out, &b_out);
  struct atl_scatter_desc d = {.type = ATL_SCATTER_F32, .index_bytes = 4, .rows = E, .targets = V, .dim = D,
                               .keys = ATL_SCATTER_KEYS_SPREAD};
  double ms = -1;
  if (!err)
    err = atl_scatter_add(ctx, &d, b_out, b_src, b_idx, NULL); /* enqueued: returns at once */
  d.deterministic = 1;
  if (!err)
    err = atl_scatter_add(ctx, &d, b_out, b_src, b_idx, &ms); /* timed between two events on the queue */
  if (err) {
    fprintf(stderr, "error: atomlab: %s\n", ctx ? atl_errmsg(ctx) : atl_strerror(err));
    return 1;
  }
  printf("device: %s (%s), the program's queue\n", atl_device_current(ctx)->name, atl_device_current(ctx)->id);
  printf("deterministic scatter-add: %.3f ms of device time (events)\n", ms);

  /* the program reads its own buffer on its own queue, after atomlab's work */
  rc = clEnqueueReadBuffer(queue, m_out, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
  const int same = rc == CL_SUCCESS && memcmp(out, want, sizeof out) == 0;
  printf("%s: out equals the host's sums of two scatter-adds (%d x %d rows into %d)\n", same ? "ok" : "FAILED", E, D,
         V);
  /* a bincount of the same keys into the program's buffer of counts */
  static unsigned counts[V], want_counts[V];
  for (int i = 0; i < E; i++)
    want_counts[idx[i]]++;
  cl_mem m_counts = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof counts, NULL, &rc);
  const unsigned zero_count = 0;
  clEnqueueFillBuffer(queue, m_counts, &zero_count, sizeof zero_count, 0, sizeof counts, 0, NULL, NULL);
  atl_buffer_t b_counts = NULL;
  const struct atl_scatter_desc c = {.type = ATL_SCATTER_U32, .index_bytes = 4, .rows = E, .targets = V,
                                     .keys = ATL_SCATTER_KEYS_SPREAD};
  err = atl_buffer_wrap_opencl(ctx, m_counts, &b_counts);
  if (!err)
    err = atl_bincount(ctx, &c, b_counts, NULL, b_idx, NULL);
  if (!err)
    rc = clEnqueueReadBuffer(queue, m_counts, CL_TRUE, 0, sizeof counts, counts, 0, NULL, NULL);
  const int counted = !err && rc == CL_SUCCESS && memcmp(counts, want_counts, sizeof counts) == 0;
  printf("%s: bincount of the keys into the program's buffer%s%s\n", counted ? "ok" : "FAILED", err ? ": " : "",
         err ? atl_errmsg(ctx) : "");
  atl_buffer_free(ctx, b_counts);
  clReleaseMemObject(m_counts);
  atl_buffer_free(ctx, b_src), atl_buffer_free(ctx, b_idx), atl_buffer_free(ctx, b_out);
  atl_context_free(ctx);
  /* atomlab released only its own references: the program's objects are still the program's */
  cl_uint refs = 0;
  clGetMemObjectInfo(m_out, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL);
  printf("%s: the program's cl_mem is its own again (references %u)\n", refs == 1 ? "ok" : "FAILED", refs);
  clReleaseMemObject(m_src), clReleaseMemObject(m_idx), clReleaseMemObject(m_out);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return same && counted && refs == 1 ? 0 : 1;
}
