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
    const struct atl_row *r = atl_result_set_row(&hist, i);
    printf("histogram %-22s %-5s verified=%d\n", atl_row_config(r, "variant"), atl_status_name(atl_row_status(r)),
           atl_row_verified(r));
    bad |= atl_row_status(r) != ATL_STATUS_OK || !atl_row_verified(r);
  }
  atl_result_set_release(&hist);
  struct atl_timing timing;
  atl_timing_defaults(&timing);
  timing.fixed_iters = 10, timing.min_samples = timing.max_samples = 2;
  /* A row's layout is the library's own (it may grow in any 1.x): a program makes one with atl_row_new() and
   * reads it through functions. */
  struct atl_row *row = atl_row_new();
  for (uint32_t contention = 1; row != NULL && contention <= 16; contention *= 4) {
    struct atl_spec s = {.op = ATL_OP_FETCH_ADD, .type = ATL_TYPE_U32, .pattern = ATL_PATTERN_CONTIGUOUS,
                         .contention = contention, .padding = 1, .wg_size = 64, .workgroups = 4};
    bad |= atl_rmw_run(ctx, &s, &timing, row) != 0 || atl_row_status(row) != ATL_STATUS_OK || !atl_row_verified(row);
    printf("fetch_add contention %2u: %.3f Gop/s, median %.4f ms, verified=%d\n", contention,
           atl_row_metric(row, "gops", 0), atl_row_time_ms(row)->median, atl_row_verified(row));
    atl_row_release(row); /* its samples, before the row is filled again */
  }
  bad |= row == NULL;
  atl_row_free(row);
  atl_context_free(ctx);
  return bad;
}
