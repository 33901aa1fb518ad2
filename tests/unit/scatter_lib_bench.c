/*
 * atl_scatter_add timed as a user calls it (to set beside the app's rows of the same shape): REPS calls on one input, each from a zeroed output (the zeroing untimed), the first checked as
 * scatter_lib.c checks (integers exact, f32 within the bound). One JSON object on stdout ("peer": the library
 * timed as a program beside the app's rows, as peer programs' files are): the method picked,
 * the median and least device time of the launches (what the app's rows time), the median wall time of the
 * whole call (the pick's sample of the keys included) and of the pick alone (atl_scatter_method_for, timed
 * before each call), each from an idle device, and the elements wrong.
 *   scatter_lib_bench BACKEND TYPE(f32|u32) DIM ROWS TARGETS DIST(uniform|zipf|sorted|clustered|hot) REPS [--unchecked]
 * --fresh-keys writes the keys again before the pick and before the call (untimed): a buffer's kept shares are
 * dropped when it is written, so each pick counts them on the device, as for a buffer wrapped over a program's memory.
 * --unchecked sets the descriptor's unchecked_keys: the device's check of the keys skipped, so the two runs' wall
 * times differ by the check's cost ("keys_checked" in the JSON says which ran).
 * Exits 77 without a device of BACKEND, 2 on bad arguments, 1 where a call fails or the first result is wrong.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atomlab.h"
#include "scatter_keys.h"

static int cmp_double(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double now_ms(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
  int unchecked = 0, fresh = 0; /* the flags after the 7 positional arguments, in any order */
  for (; argc > 8; argc--) {
    int *flag = strcmp(argv[argc - 1], "--unchecked") == 0 ? &unchecked
                : strcmp(argv[argc - 1], "--fresh-keys") == 0 ? &fresh : NULL;
    if (flag == NULL)
      break;
    *flag = 1;
  }
  int dist = -1;
  for (int i = 0; argc == 8 && i < 5; i++)
    dist = strcmp(argv[6], sk_dist_names[i]) == 0 ? i : dist;
  const int integer = argc == 8 && strcmp(argv[2], "u32") == 0;
  const unsigned long dim = argc == 8 ? strtoul(argv[3], NULL, 10) : 0;
  const unsigned long reps = argc == 8 ? strtoul(argv[7], NULL, 10) : 0;
  const unsigned long long rows = argc == 8 ? strtoull(argv[4], NULL, 10) : 0;
  const unsigned long long v = argc == 8 ? strtoull(argv[5], NULL, 10) : 0;
  if (argc != 8 || dist < 0 || (!integer && strcmp(argv[2], "f32") != 0) || dim < 1 || dim > 512 || rows < 1 ||
      v < 1 || v > UINT32_MAX || reps < 1 || reps > 1000) {
    fprintf(stderr, "usage: scatter_lib_bench BACKEND f32|u32 DIM(1..512) ROWS TARGETS(< 2^32) "
                    "uniform|zipf|sorted|clustered|hot REPS(1..1000) [--unchecked] [--fresh-keys]\n");
    return 2;
  }
  atl_context_t ctx = NULL;
  if (atl_context_new(&ctx))
    return 1;
  if (atl_device_open(ctx, NULL, argv[1]) != 0) {
    fprintf(stderr, "no %s device: %s\n", argv[1], atl_errmsg(ctx));
    atl_context_free(ctx);
    return 77;
  }
  const uint64_t n = rows * dim, m = v * dim;
  uint32_t *k = malloc(rows * sizeof *k);
  void *src = malloc(n * 4), *zero = calloc(m, 4), *out = malloc(m * 4);
  double *dev_ms = calloc(reps, sizeof *dev_ms), *wall_ms = calloc(reps, sizeof *wall_ms);
  double *pick_ms = calloc(reps, sizeof *pick_ms);
  atl_buffer_t b_src = NULL, b_idx = NULL, b_out = NULL;
  int bad = !k || !src || !zero || !out || !dev_ms || !wall_ms || !pick_ms || sk_keys((enum sk_dist)dist, rows, v, k) != 0;
  if (!bad)
    sk_src(integer, n, src);
  const struct atl_scatter_desc d = {.type = integer ? ATL_SCATTER_U32 : ATL_SCATTER_F32, .index_bytes = 4,
                                     .rows = rows, .targets = v, .dim = (uint32_t)dim,
                                     .unchecked_keys = unchecked};
  enum atl_scatter_method picked = ATL_SCATTER_AUTO;
  bad = bad || atl_buffer_new(ctx, n * 4, &b_src) || atl_buffer_new(ctx, rows * 4, &b_idx) ||
        atl_buffer_new(ctx, m * 4, &b_out) || atl_buffer_write(ctx, b_src, src, n * 4) ||
        atl_buffer_write(ctx, b_idx, k, rows * 4) || atl_scatter_method_for(ctx, &d, b_idx, &picked);
  uint32_t word = 0;
  for (unsigned long r = 0; r < reps && !bad; r++) {
    /* keys written (the kept shares dropped); each timed span then starts on an idle device: a write from pageable
     * memory returns before its last copy lands, which the span would otherwise wait for */
    if (fresh && (bad = atl_buffer_write(ctx, b_idx, k, rows * 4)))
      break;
    if ((bad = atl_buffer_read(ctx, b_idx, &word, sizeof word)))
      break;
    double t0 = now_ms(); /* the pick alone (its count of the keys' shares), then the whole call */
    bad = atl_scatter_method_for(ctx, &d, b_idx, &picked);
    pick_ms[r] = now_ms() - t0;
    if (bad || (fresh && (bad = atl_buffer_write(ctx, b_idx, k, rows * 4))) ||
        (bad = atl_buffer_write(ctx, b_out, zero, m * 4)) || (bad = atl_buffer_read(ctx, b_out, &word, sizeof word)))
      break;
    t0 = now_ms();
    bad = atl_scatter_add(ctx, &d, b_out, b_src, b_idx, &dev_ms[r]);
    wall_ms[r] = now_ms() - t0;
    if (!bad && r == 0)
      bad = atl_buffer_read(ctx, b_out, out, m * 4);
  }
  uint64_t first = 0, wrong = bad ? m : sk_wrong(integer, k, src, rows, v, (uint32_t)dim, out, &first);
  if (bad)
    fprintf(stderr, "error: %s\n", atl_errmsg(ctx));
  qsort(dev_ms, reps, sizeof *dev_ms, cmp_double);
  qsort(wall_ms, reps, sizeof *wall_ms, cmp_double);
  qsort(pick_ms, reps, sizeof *pick_ms, cmp_double);
  printf("{\"peer\": \"atl_scatter_add\", \"device\": \"%s\", \"type\": \"%s\", \"dim\": %lu, \"rows\": %llu, \"targets\": %llu, \"dist\": \"%s\", "
         "\"method\": \"%s\", \"keys_checked\": %s, \"fresh_keys\": %s, \"reps\": %lu, \"device_ms_median\": %.4f, \"device_ms_min\": %.4f, "
         "\"wall_ms_median\": %.4f, \"pick_ms_median\": %.4f, \"wrong\": %llu}\n",
         atl_device_current(ctx)->name, argv[2], dim, rows, v, argv[6], atl_scatter_method_name(picked), unchecked ? "false" : "true", fresh ? "true" : "false", reps,
         dev_ms[reps / 2], dev_ms[0], wall_ms[reps / 2], pick_ms[reps / 2], (unsigned long long)wrong);
  atl_buffer_free(ctx, b_src), atl_buffer_free(ctx, b_idx), atl_buffer_free(ctx, b_out);
  atl_context_free(ctx);
  free(k), free(src), free(zero), free(out), free(dev_ms), free(wall_ms), free(pick_ms);
  return bad || wrong;
}
