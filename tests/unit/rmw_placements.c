/*
 * rmw --placements on a real device (PoCL here; any OpenCL or CUDA device): a row at four placements launches
 * the kernel with its array at each of four offsets of one buffer, 4 MiB apart, twice each, is verified, and
 * keeps the median of all its samples. Read back from the context's array buffer after the row: every placement's
 * region holds the same final counts as the first (each was launched and left a whole result), and the memory
 * between them holds none (the launches did not all hit one place). With --rotate (docs/design/method.md, "Rotation"):
 * the device's target table after the row is the last placement's rotation of the host's (the rotation ran), and
 * exchange with its returned values used, whose check names the thread that wrote each word, verifies on every
 * pattern (the verifier was given the rotated table: the unrotated one fails it). Exits 77 without an OpenCL device.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"
#include "check.h"
#include "device_open.h"
#include "core/context.h"
#include "patterns/patterns.h"

/* The device's target table (rmw.c's SLOT_TARGET) is the host's for @p s rotated by @p shift of its @p threads. */
static void check_rotated_targets(atl_context_t ctx, const struct atl_spec *s, uint64_t threads, uint64_t shift)
{
  uint32_t want[64 * 8], got[64 * 8];
  if (!CHECK(threads <= 64 * 8))
    return;
  atl__pattern_targets(s, 0, want);
  const struct atl__scratch *tb = &ctx->device_buffers[1];
  CHECK(tb->ptr != NULL && atl__ops(ctx)->read(atl__dev(ctx), tb->ptr, got, threads * sizeof *got) == 0);
  unsigned same = 0;
  for (uint64_t t = 0; t < threads; t++)
    same += got[t] == want[(t + shift) % threads];
  CHECK_EQ(same, threads);
}

int main(void)
{
  atl_context_t ctx = NULL;
  const int opened = test_device_open("opencl", &ctx);
  if (opened)
    return opened;
  struct atl_spec s = {.op = ATL_OP_FETCH_ADD, .type = ATL_TYPE_U32, .space = ATL_SPACE_GLOBAL,
                       .pattern = ATL_PATTERN_CONTIGUOUS, .result = ATL_RESULT_UNUSED, .scope = ATL_SCOPE_DEVICE,
                       .order = ATL_ORDER_RELAXED, .contention = 4, .padding = 2, .wg_size = 64, .workgroups = 4};
  struct atl_timing tm;
  atl_timing_defaults(&tm);
  tm.fixed_iters = 3;
  tm.min_samples = tm.max_samples = 1; /* raised to two turns */
  tm.placements = 4;
  struct atl_row row;
  CHECK(atl_rmw_run(ctx, &s, &tm, &row) == 0);
  CHECK(row.status == ATL_STATUS_OK && row.verified);
  CHECK_EQ(row.time_ms.samples, 8);
  CHECK_EQ(atl_row_metric(&row, "placements", 0), 4);
  CHECK_EQ(atl_row_metric(&row, "placement_step_mib", 0), 4);
  CHECK(atl_row_metric(&row, "placement_spread", -1) >= 0);
  struct atl_stats all;
  atl_stats_compute(row.samples_ms, row.time_ms.samples, &all);
  CHECK(all.median == row.time_ms.median); /* the median over every placement's samples */

  const size_t words = 256 / 4 * 2, step = (size_t)4 << 20, bytes = 3 * step + words * 4;
  const struct atl__scratch *buf = &ctx->device_buffers[0]; /* rmw.c's SLOT_ARRAY */
  CHECK(buf->ptr != NULL && buf->cap >= bytes);
  uint32_t *mem = malloc(bytes);
  CHECK(mem != NULL);
  if (mem && buf->ptr && buf->cap >= bytes && atl__ops(ctx)->read(atl__dev(ctx), buf->ptr, mem, bytes) == 0) {
    /* Every even word took the same updates and the odd ones none: each holds the fill's initial value. */
    unsigned counted = 0;
    for (size_t w = 0; w < words; w++)
      counted += w % 2 ? mem[w] == mem[1] : mem[w] == mem[0] && mem[w] != mem[1];
    CHECK_EQ(counted, words);
    for (size_t k = 1; k < 4; k++)
      CHECK(memcmp(mem + k * step / 4, mem, words * 4) == 0);
    unsigned touched = 0;
    for (size_t k = 0; k < 3; k++) /* between the placements: the buffer as allocated (zero), untouched */
      for (size_t w = k * step / 4 + words; w < (k + 1) * step / 4; w++)
        touched += mem[w] != 0;
    CHECK_EQ(touched, 0);
  } else {
    CHECK(!"read the array buffer back");
  }
  free(mem);
  atl_row_release(&row);

  /* --rotate: 3 placements of 5 groups of 64, a shift of 2 groups a placement; 6 samples, so the last ran at
   * placement 2 (shift 4 groups). */
  tm.placements = 3;
  tm.rotate = 1;
  s.workgroups = 5;
  CHECK(atl_rmw_run(ctx, &s, &tm, &row) == 0);
  CHECK(row.status == ATL_STATUS_OK && row.verified);
  CHECK_EQ(atl_row_metric(&row, "rotation_groups", 0), 2);
  CHECK_EQ(row.time_ms.samples, 6);
  atl_row_release(&row);
  check_rotated_targets(ctx, &s, 64 * 5, 4 * 64);
  s.op = ATL_OP_EXCHANGE;
  s.result = ATL_RESULT_USED;
  const enum atl_pattern patterns[] = {ATL_PATTERN_CONTIGUOUS, ATL_PATTERN_CROSS_WARP, ATL_PATTERN_BRANCHED,
                                       ATL_PATTERN_RANDOM};
  for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++) {
    s.pattern = patterns[i];
    CHECK(atl_rmw_run(ctx, &s, &tm, &row) == 0);
    CHECK(row.status == ATL_STATUS_OK && row.verified);
    atl_row_release(&row);
  }
  /* The second pair of turns pairs the lines with other groups: 12 samples of 8 groups, the last at placement 2 of
   * rotation 5 = 2 x ceil(8 / 3) + 1 x ceil(3 / 4) = 7 groups. */
  s.op = ATL_OP_FETCH_ADD;
  s.result = ATL_RESULT_UNUSED;
  s.pattern = ATL_PATTERN_CONTIGUOUS;
  s.workgroups = 8;
  tm.min_samples = tm.max_samples = 12;
  CHECK(atl_rmw_run(ctx, &s, &tm, &row) == 0);
  CHECK(row.status == ATL_STATUS_OK && row.verified);
  CHECK_EQ(row.time_ms.samples, 12);
  CHECK_EQ(atl_row_metric(&row, "rotation_groups", 0), 3);
  atl_row_release(&row);
  check_rotated_targets(ctx, &s, 64 * 8, 7 * 64);
  tm.min_samples = tm.max_samples = 1;
  tm.rotate = 0;
  s.op = ATL_OP_FETCH_ADD;
  s.result = ATL_RESULT_UNUSED;
  s.pattern = ATL_PATTERN_CONTIGUOUS;
  s.workgroups = 4;

  /* A work-group local array has no placements: one, and no placement metrics. */
  s.space = ATL_SPACE_LOCAL;
  CHECK(atl_rmw_run(ctx, &s, &tm, &row) == 0);
  CHECK(row.status == ATL_STATUS_OK && row.verified);
  CHECK(atl_row_metric(&row, "placements", 0) == 0);
  atl_row_release(&row);
  atl_context_free(ctx);
  return check_exit("rmw_placements");
}
