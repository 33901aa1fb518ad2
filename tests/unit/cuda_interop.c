/* atomlab on a program's own CUDA objects (include/atomlab/context.h): the program's primary context, two streams
 * of its own and memory it allocated, handed over with atl_context_from_cuda, atl_buffer_wrap_cuda and
 * atl_context_set_queue; the scatter-adds enqueued there must give the sums once the program synchronizes, and the
 * second call is seen still running when it returns (printed: a note, not a failure, where the GPU was faster than
 * the host). The driver through dlopen, as atomlab itself: exit 77 without an NVIDIA driver or GPU. */
#include <atomlab.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*fn_i)(unsigned);
typedef int (*fn_get)(int *, int);
typedef int (*fn_retain)(void **, int);
typedef int (*fn_ptr)(void *);
typedef int (*fn_stream)(void **, unsigned);
typedef int (*fn_alloc)(unsigned long long *, size_t);
typedef int (*fn_h2d)(unsigned long long, const void *, size_t);
typedef int (*fn_d2h)(void *, unsigned long long, size_t);
typedef int (*fn_query)(void *);

enum { E = 1 << 20, V = 4096, D = 8 };

int main(void)
{
  void *cu = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  int count = 0;
  if (cu == NULL || ((fn_i)dlsym(cu, "cuInit"))(0) != 0 ||
      ((int (*)(int *))dlsym(cu, "cuDeviceGetCount"))(&count) != 0 || count == 0) {
    printf("skip: no NVIDIA driver or GPU\n");
    return 77;
  }
  int dev = 0;
  void *context = NULL, *stream = NULL, *stream2 = NULL;
  unsigned long long d_src = 0, d_idx = 0, d_out = 0;
  static float src[E * D], out[V * D], want[V * D];
  static unsigned idx[E];
  for (int i = 0; i < E; i++) {
    idx[i] = (unsigned)((i * 2654435761u) % V);
    for (int c = 0; c < D; c++) {
      src[i * D + c] = (float)((i + c) % 3); /* small integers: every order is exact */
      want[idx[i] * D + c] += 2 * src[i * D + c];
    }
  }
  int bad = ((fn_get)dlsym(cu, "cuDeviceGet"))(&dev, 0) ||
            ((fn_retain)dlsym(cu, "cuDevicePrimaryCtxRetain"))(&context, dev) ||
            ((fn_ptr)dlsym(cu, "cuCtxSetCurrent"))(context) || ((fn_stream)dlsym(cu, "cuStreamCreate"))(&stream, 1) ||
            ((fn_stream)dlsym(cu, "cuStreamCreate"))(&stream2, 1) ||
            ((fn_alloc)dlsym(cu, "cuMemAlloc_v2"))(&d_src, sizeof src) ||
            ((fn_alloc)dlsym(cu, "cuMemAlloc_v2"))(&d_idx, sizeof idx) ||
            ((fn_alloc)dlsym(cu, "cuMemAlloc_v2"))(&d_out, sizeof out) ||
            ((fn_h2d)dlsym(cu, "cuMemcpyHtoD_v2"))(d_src, src, sizeof src) ||
            ((fn_h2d)dlsym(cu, "cuMemcpyHtoD_v2"))(d_idx, idx, sizeof idx) ||
            ((fn_h2d)dlsym(cu, "cuMemcpyHtoD_v2"))(d_out, out, sizeof out);
  if (bad) {
    printf("FAIL: the program's own CUDA objects\n");
    return 1;
  }
  atl_context_t ctx = NULL;
  atl_buffer_t b_src = NULL, b_idx = NULL, b_out = NULL;
  int err = atl_context_from_cuda(context, stream, 0, &ctx);
  if (!err)
    err = atl_buffer_wrap_cuda(ctx, d_src, sizeof src, &b_src);
  if (!err)
    err = atl_buffer_wrap_cuda(ctx, d_idx, 0, &b_idx); /* 0: to the allocation's end */
  if (!err)
    err = atl_buffer_wrap_cuda(ctx, d_out, sizeof out, &b_out);
  const struct atl_scatter_desc d = {.type = ATL_SCATTER_F32, .index_bytes = 4, .rows = E, .targets = V, .dim = D,
                                     .keys = ATL_SCATTER_KEYS_SPREAD};
  if (!err) /* warm: kernels built, scratch sized */
    err = atl_scatter_add(ctx, &d, b_out, b_src, b_idx, NULL);
  if (!err)
    err = atl_context_set_queue(ctx, stream2);
  if (!err)
    err = atl_scatter_add(ctx, &d, b_out, b_src, b_idx, NULL);
  int pending = 0;
  if (!err) /* the call came back before the stream had run it: no host synchronization */
    pending = ((fn_query)dlsym(cu, "cuStreamQuery"))(stream2) != 0;
  if (!err)
    err = atl_context_finish(ctx);
  if (!err && ((fn_d2h)dlsym(cu, "cuMemcpyDtoH_v2"))(out, d_out, sizeof out) != 0)
    err = ATL_EBACKEND;
  const int same = !err && memcmp(out, want, sizeof out) == 0;
  printf("%s: two scatter-adds on the program's streams and memory give the sums%s%s\n", same ? "ok" : "FAIL",
         err ? ": " : "", err ? atl_errmsg(ctx) : "");
  printf("%s: the call returned before its stream ran it\n", pending ? "ok" : "note");
  atl_buffer_free(ctx, b_src), atl_buffer_free(ctx, b_idx), atl_buffer_free(ctx, b_out);
  atl_context_free(ctx);
  return same ? 0 : 1;
}
