/* A program that links libatomlab: a u8 histogram and a small fetch_add sweep
 * on the best device, every row verified by the library.
 * Build: cc host.c $(pkg-config --cflags --libs atomlab)  (or CMake: examples/CMakeLists.txt). */
#include <atomlab.h>
#include <stdio.h>

int main(void)
{
  atl_context_t ctx = NULL;
  if (atl_context_new(&ctx) != 0 || atl_device_open(ctx, NULL, NULL) != 0) {
    fprintf(stderr, "error: no device: %s\n", ctx ? atl_errmsg(ctx) : "out of memory");
    return 1;
  }
  printf("device: %s\n", atl_device_current(ctx)->name);
  struct atl_histogram_params hp = {.inputs = 1u << ATL_HIST_U8, .dists = 1u << ATL_HIST_UNIFORM,
                                    .variants = 1u << ATL_HIST_SHARED, .bytes = 1 << 20, .wg_size = 64, .seed = 1};
  struct atl_app_timing tm = {.samples = 3, .spin_bound = 1u << 22};
  struct atl_result_set hist = {0};
  int bad = atl_app_histogram(ctx, &hp, &tm, &hist) != 0;
  if (bad)
    fprintf(stderr, "error: histogram: %s\n", atl_errmsg(ctx));
  for (size_t i = 0; i < hist.count; i++) {
    printf("histogram %-22s %-5s verified=%d\n", atl_row_config(&hist.rows[i], "variant"), atl_status_name(hist.rows[i].status),
           hist.rows[i].verified);
    bad |= hist.rows[i].status != ATL_STATUS_OK || !hist.rows[i].verified;
  }
  atl_result_set_release(&hist);
  struct atl_timing timing;
  atl_timing_defaults(&timing);
  timing.fixed_iters = 10, timing.min_samples = timing.max_samples = 2;
  for (uint32_t contention = 1; contention <= 16; contention *= 4) {
    struct atl_spec s = {.op = ATL_OP_FETCH_ADD, .type = ATL_TYPE_U32, .pattern = ATL_PATTERN_CONTIGUOUS,
                         .contention = contention, .padding = 1, .wg_size = 64, .workgroups = 4};
    struct atl_row row;
    bad |= atl_rmw_run(ctx, &s, &timing, &row) != 0 || row.status != ATL_STATUS_OK || !row.verified;
    printf("fetch_add contention %2u: %.3f Gop/s, verified=%d\n", contention, atl_row_metric(&row, "gops", 0),
           row.verified);
    atl_row_release(&row);
  }
  atl_context_free(ctx);
  return bad;
}
