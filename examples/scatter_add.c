/* A program that scatter-adds rows with libatomlab on device buffers (include/atomlab/scatter.h):
 * out[idx[i]][:] += src[i][:], once with atomics (the method the library picks for these keys, printed:
 * atl_scatter_method_for) and twice in the deterministic mode, which must give the same bits both times; each
 * result checked against a double-precision sum on the host.
 * Build: cc scatter_add.c $(pkg-config --cflags --libs atomlab)  (or CMake: examples/CMakeLists.txt). */
#include <atomlab.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { E = 20000, V = 500, D = 8 };

/* The largest |got - sum| over the summation bound (n - 1) u sum|x| (u = 2^-24, to first order). */
static double worst(const float *got, const double *sum, const double *mag, const unsigned *depth)
{
  double w = 0;
  for (int e = 0; e < V * D; e++) {
    const double bound = (depth[e / D] > 1 ? depth[e / D] - 1 : 0) * 0x1.000002p-24 * mag[e];
    const double r = fabs(got[e] - sum[e]) / (bound > 0 ? bound : 1e-300);
    w = r > w ? r : w;
  }
  return w;
}

int main(void)
{
  static float src[E * D], out[V * D], det1[V * D], det2[V * D];
  static double sum[V * D], mag[V * D];
  static unsigned idx[E], depth[V];
  srand(1);
  for (int i = 0; i < E; i++) {
    idx[i] = (unsigned)(rand() % 7 ? rand() % V : 0); /* uniform keys, one of every seven rows on row 0 */
    depth[idx[i]]++;
    for (int c = 0; c < D; c++) {
      src[i * D + c] = (float)(rand() % 2000 - 1000) / 1000.0f + 0.0005f;
      sum[idx[i] * D + c] += src[i * D + c];
      mag[idx[i] * D + c] += fabs(src[i * D + c]);
    }
  }
  atl_context_t ctx = NULL;
  if (atl_context_new(&ctx) != 0 || atl_device_open(ctx, NULL, NULL) != 0) {
    fprintf(stderr, "error: no device: %s\n", ctx ? atl_errmsg(ctx) : "out of memory");
    return 1;
  }
  atl_buffer_t b_src = NULL, b_idx = NULL, b_out = NULL;
  struct atl_scatter_desc d = {.type = ATL_SCATTER_F32, .index_bytes = 4, .rows = E, .targets = V, .dim = D};
  int bad = atl_buffer_new(ctx, sizeof src, &b_src) || atl_buffer_new(ctx, sizeof idx, &b_idx) ||
            atl_buffer_new(ctx, sizeof out, &b_out) || atl_buffer_write(ctx, b_src, src, sizeof src) ||
            atl_buffer_write(ctx, b_idx, idx, sizeof idx);
  float *results[3] = {out, det1, det2};
  enum atl_scatter_method method = ATL_SCATTER_AUTO; /* d.method 0: the library picks, from a sample of the keys */
  bad = bad || atl_scatter_method_for(ctx, &d, b_idx, &method);
  if (!bad)
    printf("the atomic mode's method for these keys: %s\n", atl_scatter_method_name(method));
  for (int run = 0; run < 3 && !bad; run++) {
    double ms = 0;
    memset(results[run], 0, sizeof out); /* out += the scatter: start from zeros */
    d.deterministic = run > 0;
    bad = atl_buffer_write(ctx, b_out, results[run], sizeof out) || atl_scatter_add(ctx, &d, b_out, b_src, b_idx, &ms) ||
          atl_buffer_read(ctx, b_out, results[run], sizeof out);
    if (!bad) {
      const double w = worst(results[run], sum, mag, depth);
      printf("%-13s %.3f ms, error at most %.2f of the bound\n", run ? "deterministic" : "atomic", ms, w);
      bad = w > 1;
    }
  }
  if (bad)
    fprintf(stderr, "error: %s\n", atl_errmsg(ctx));
  else {
    bad = memcmp(det1, det2, sizeof det1) != 0;
    printf("deterministic runs %s\n", bad ? "DIFFER" : "bit-identical");
  }
  atl_buffer_free(ctx, b_src), atl_buffer_free(ctx, b_idx), atl_buffer_free(ctx, b_out);
  atl_context_free(ctx);
  return bad;
}
