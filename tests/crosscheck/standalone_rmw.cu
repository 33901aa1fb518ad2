/*
 * An independent cross-check of atomlab's rmw rows (issue [truth]): the
 * seed's contention x padding kernel written again as a plain CUDA runtime
 * program, with its own launch, its own timing (CUDA events, median of
 * REPS launches after a warm-up, the array zeroed before each outside the
 * timed region) and its own check of every word. It shares no code with
 * atomlab, so a fault in atomlab's host side, NVRTC path or timing shows as
 * a difference. tests/cli/gpu_crosscheck.sh runs it beside `atomlab rmw` at
 * the same grid and iteration count.
 *
 *   standalone_rmw contiguous|cross-warp CONTENTION PADDING WG WORKGROUPS ITERS [REPS]
 *
 * Prints one line: "ops_per_us X median_ms M verified 1|0". fetch_add on u32
 * with the result unused (atomicAdd compiles to RED), as atomlab's default row.
 */
#include <algorithm>
#include <string_view>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "probe.cuh"

// contiguous: CONTENTION consecutive threads share a word, words PADDING apart.
// cross-warp: thread t updates word (t * PADDING) mod WORDS, so threads WORDS/PADDING apart share one.
__global__ void rmw(unsigned *array, int cross, unsigned contention, unsigned padding, unsigned words,
                    unsigned iters)
{
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned *w = array + (cross ? (unsigned)(((unsigned long long)t * padding) % words) : (t / contention) * padding);
  for (unsigned i = 0; i < iters; i++)
    atomicAdd(w, 1u);
}

static unsigned parse(const char *s, const char *name) { return parse_whole(s, name, 1); }

int main(int argc, char **argv)
{
  if (argc < 7 || argc > 8) {
    fprintf(stderr, "usage: standalone_rmw contiguous|cross-warp CONTENTION PADDING WG WORKGROUPS ITERS [REPS]\n");
    return 2;
  }
  const int cross = std::string_view(argv[1]) == "cross-warp";
  if (!cross && std::string_view(argv[1]) != "contiguous") {
    fprintf(stderr, "error: pattern '%s': allowed: contiguous, cross-warp\n", argv[1]);
    return 2;
  }
  const unsigned c = parse(argv[2], "contention"), p = parse(argv[3], "padding"), wg = parse(argv[4], "wg"),
                 groups = parse(argv[5], "workgroups"), iters = parse(argv[6], "iters"),
                 reps = argc > 7 ? parse(argv[7], "reps") : 15;
  const unsigned long long threads = (unsigned long long)wg * groups;
  const unsigned long long words64 = (threads + c - 1) / c * p; // slots (threads / contention, rounded up) x padding
  if (words64 > 0xffffffffULL) {
    fprintf(stderr, "error: padding: %llu words do not fit 32-bit indices\n", words64);
    return 2;
  }
  const unsigned words = (unsigned)words64;
  unsigned *array;
  CHECK(cudaMalloc(&array, words * sizeof(unsigned)));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<float> ms;
  for (unsigned r = 0; r <= reps; r++) { // launch 0 is the warm-up
    CHECK(cudaMemset(array, 0, words * sizeof(unsigned)));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventRecord(start));
    rmw<<<groups, wg>>>(array, cross, c, p, words, iters);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float t;
    CHECK(cudaEventElapsedTime(&t, start, stop));
    if (r > 0)
      ms.push_back(t);
  }
  // Every word against its count: iters per thread that maps to it, 0 elsewhere.
  std::vector<unsigned> got(words), want(words, 0);
  CHECK(cudaMemcpy(got.data(), array, words * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (unsigned long long t = 0; t < threads; t++)
    want[cross ? (unsigned)((t * p) % words) : (unsigned)(t / c) * p] += iters;
  const int verified = got == want;
  std::sort(ms.begin(), ms.end());
  const double median = ms.size() % 2 ? ms[ms.size() / 2] : (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]) / 2;
  printf("ops_per_us %.6g median_ms %.6g verified %d\n", (double)threads * iters / (median * 1000.0), median, verified);
  cudaFree(array);
  return verified ? 0 : 1;
}
