/*
 * An independent cross-check of atomlab's rmw rows (issue [truth]): the
 * seed's contention x padding kernel written again as a plain CUDA runtime
 * program, with its own launch, its own timing (CUDA events, median of
 * REPS launches after a warm-up, the array zeroed before each outside the
 * timed region) and its own check of every word (probe.cuh's cell). It
 * shares no code with atomlab, so a fault in atomlab's host side, NVRTC
 * path or timing shows as a difference. tests/cli/gpu_crosscheck.sh runs it
 * beside `atomlab rmw` at the same grid and iteration count.
 *
 *   standalone_rmw contiguous|cross-warp CONTENTION PADDING WG WORKGROUPS ITERS [REPS]
 *
 * Prints one line: "ops_per_us X median_ms M verified 1|0". fetch_add on u32
 * with the result unused (atomicAdd compiles to RED), as atomlab's default row.
 */
#include "probe.cuh"

int main(int argc, char **argv)
{
  const cell r = parse_cell(argc - 1, argv + 1, 15, 0xffffffffULL,
                            "usage: standalone_rmw contiguous|cross-warp CONTENTION PADDING WG WORKGROUPS ITERS [REPS]\n");
  unsigned *array;
  CHECK(cudaMalloc(&array, r.words * sizeof(unsigned)));
  int verified;
  const double median = measure_cell(r, array, 0, &verified);
  printf("ops_per_us %.6g median_ms %.6g verified %d\n", (double)r.threads * r.iters / (median * 1000.0), median,
         verified);
  cudaFree(array);
  return verified ? 0 : 1;
}
