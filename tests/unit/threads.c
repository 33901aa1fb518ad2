/* Contexts opened from 8 threads at once (include/atomlab/context.h: one context per thread, the runtimes loaded
 * once per process under pthread_once). Built with ThreadSanitizer (tests/unit/CMakeLists.txt), so a race on a
 * loader's state fails it as well as its result: every thread must list the same devices as one thread alone (a
 * loader seen half-loaded read as "unavailable"), and each scatters on its own queue of one shared OpenCL context
 * into its own cl_mem, with the right sums. Exit 77 without an OpenCL device. */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* clCreateCommandQueue: every platform has it */
#include <CL/cl.h>
#include <atomlab.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

enum { THREADS = 8, E = 4096, V = 97, D = 4 };

static pthread_barrier_t start;
static cl_context shared;
static cl_device_id device;

struct part {
  int index;
  size_t devices; /* what atl_devices listed on this thread */
  char notes[1024];
  int scatter_ok;
  char why[512];
};

/* Its own atomlab context over its own queue and buffers of the shared OpenCL context: out must equal the sums. */
static int scatter_own(struct part *p)
{
  static const size_t sizes[3] = {sizeof(float) * E * D, sizeof(unsigned) * E, sizeof(float) * V * D};
  float src[E * D], out[V * D], want[V * D];
  unsigned idx[E];
  memset(want, 0, sizeof want);
  memset(out, 0, sizeof out);
  for (int i = 0; i < E; i++) {
    idx[i] = (unsigned)((i * 7919 + p->index) % V);
    for (int c = 0; c < D; c++) {
      src[i * D + c] = (float)((i + c + p->index) % 5); /* small integers: every order sums them exactly */
      want[idx[i] * D + c] += src[i * D + c];
    }
  }
  cl_int rc = CL_SUCCESS;
  cl_command_queue q = clCreateCommandQueue(shared, device, CL_QUEUE_PROFILING_ENABLE, &rc);
  cl_mem mem[3] = {NULL, NULL, NULL};
  const void *host[3] = {src, idx, out};
  for (int b = 0; b < 3 && rc == CL_SUCCESS; b++)
    mem[b] = clCreateBuffer(shared, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizes[b], (void *)host[b], &rc);
  atl_context_t ctx = NULL;
  atl_buffer_t buf[3] = {NULL, NULL, NULL};
  int err = rc != CL_SUCCESS ? ATL_EBACKEND : atl_context_from_opencl(shared, device, q, 0, &ctx);
  for (int b = 0; b < 3 && !err; b++)
    err = atl_buffer_wrap_opencl(ctx, mem[b], &buf[b]);
  const struct atl_scatter_desc d = {.type = ATL_SCATTER_F32, .index_bytes = 4, .rows = E, .targets = V, .dim = D,
                                     .keys = ATL_SCATTER_KEYS_SPREAD};
  if (!err)
    err = atl_scatter_add(ctx, &d, buf[2], buf[0], buf[1], NULL);
  /* once more on a second queue of the thread's: after the first queue's work, with the same kernels and scratch */
  cl_command_queue q2 = rc == CL_SUCCESS ? clCreateCommandQueue(shared, device, 0, &rc) : NULL;
  if (!err)
    err = rc != CL_SUCCESS ? ATL_EBACKEND : atl_context_set_queue(ctx, q2);
  if (!err)
    err = atl_scatter_add(ctx, &d, buf[2], buf[0], buf[1], NULL);
  for (int v = 0; v < V * D; v++)
    want[v] *= 2;
  if (!err && clEnqueueReadBuffer(q2, mem[2], CL_TRUE, 0, sizeof out, out, 0, NULL, NULL) != CL_SUCCESS)
    err = ATL_EBACKEND;
  snprintf(p->why, sizeof p->why, "%s", err ? (ctx ? atl_errmsg(ctx) : "no OpenCL queue or buffer") : "");
  p->scatter_ok = !err && memcmp(out, want, sizeof out) == 0;
  if (!err && !p->scatter_ok)
    snprintf(p->why, sizeof p->why, "wrong sums");
  for (int b = 0; b < 3; b++)
    atl_buffer_free(ctx, buf[b]);
  atl_context_free(ctx);
  for (int b = 0; b < 3; b++)
    if (mem[b])
      clReleaseMemObject(mem[b]);
  if (q)
    clReleaseCommandQueue(q);
  if (q2)
    clReleaseCommandQueue(q2);
  return p->scatter_ok;
}

static void *run(void *arg)
{
  struct part *p = arg;
  pthread_barrier_wait(&start); /* every thread loads the runtimes at the same moment */
  atl_context_t ctx = NULL;
  const struct atl_device_info *list = NULL;
  if (atl_context_new(&ctx) == 0 && atl_devices(ctx, &list, &p->devices) == 0)
    snprintf(p->notes, sizeof p->notes, "%s", atl_backend_notes(ctx));
  atl_context_free(ctx);
  pthread_barrier_wait(&start);
  scatter_own(p);
  return NULL;
}

int main(void)
{
  cl_platform_id platform;
  cl_uint n = 0;
  if (clGetPlatformIDs(1, &platform, &n) != CL_SUCCESS || n == 0 ||
      clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
    printf("skip: no OpenCL device\n");
    return 77;
  }
  cl_int rc = CL_SUCCESS;
  shared = clCreateContext(NULL, 1, &device, NULL, NULL, &rc);
  if (rc != CL_SUCCESS)
    return 77;
  struct part parts[THREADS];
  pthread_t threads[THREADS];
  pthread_barrier_init(&start, NULL, THREADS);
  for (int t = 0; t < THREADS; t++) {
    memset(&parts[t], 0, sizeof parts[t]);
    parts[t].index = t;
    pthread_create(&threads[t], NULL, run, &parts[t]);
  }
  for (int t = 0; t < THREADS; t++)
    pthread_join(threads[t], NULL);
  /* one thread alone, now that every runtime is loaded: what each thread must have seen */
  atl_context_t ctx = NULL;
  const struct atl_device_info *list = NULL;
  size_t alone = 0;
  atl_context_new(&ctx);
  atl_devices(ctx, &list, &alone);
  int failed = 0;
  for (int t = 0; t < THREADS; t++) {
    const int same = parts[t].devices == alone && strcmp(parts[t].notes, atl_backend_notes(ctx)) == 0;
    printf("%s thread %d: %zu devices (alone: %zu)%s%s\n", same ? "ok  " : "FAIL", t, parts[t].devices, alone,
           same ? "" : ", notes: ", same ? "" : parts[t].notes);
    printf("%s thread %d: scatter-adds on its own two queues and cl_mem%s%s\n", parts[t].scatter_ok ? "ok  " : "FAIL",
           t, parts[t].scatter_ok ? "" : ": ", parts[t].why);
    failed += !same + !parts[t].scatter_ok;
  }
  atl_context_free(ctx);
  clReleaseContext(shared);
  pthread_barrier_destroy(&start);
  printf("%s\n", failed ? "FAILED" : "all passed");
  return failed ? 1 : 0;
}
