/*
 * Does where the array lies in memory move the fetch_add rate? (issue 19: cells where Vulkan and CUDA differ by
 * 11-34% with alike instructions, docs/crosscheck.md.) The kernel of standalone_rmw.cu (atomicAdd of 1 on u32,
 * result unused: RED), the same grid and iteration count, run on the same array placed several ways in one
 * process; one line per placement:
 *
 *   placement_rmw contiguous|cross-warp CONTENTION PADDING WG WORKGROUPS ITERS [REPS]
 *   -> "placement NAME ops_per_us X median_ms M verified 1|0"
 *
 * Placements: cudaMalloc at offsets 0, 4 KiB, 64 KiB, 1 MiB + 4 KiB into a larger allocation (other L2 slices /
 * DRAM channels under the same pages), after a 512 MiB allocation (other physical pages), and in managed memory
 * prefetched to the GPU (the driver's other page sizes); last, "unroll1": the loop kept at one RED per iteration
 * (nvcc otherwise unrolls it by 4), the body a SPIR-V compiler that does not unroll would give. If the CUDA rate
 * moves across these by about as much as Vulkan differs from CUDA, placement (or the loop body) explains the
 * difference; if it stays within a few percent, it is excluded. No atomlab code; CUDA events around each launch, median of REPS after a warm-up, every word checked.
 */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "probe.cuh"

// contiguous: CONTENTION consecutive threads share a word, words PADDING apart.
// cross-warp: thread t updates word (t * PADDING) mod WORDS, so threads WORDS/PADDING apart share one.
// UNROLL 0 leaves the loop to nvcc (it unrolls by 4: REDG x5, as atomlab's CUDA kernel); 1 keeps one RED per
// iteration, the loop body a SPIR-V compiler that does not unroll would give.
template <int UNROLL>
__global__ void rmw(unsigned *array, int cross, unsigned contention, unsigned padding, unsigned words,
                    unsigned iters)
{
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned *w = array + (cross ? (unsigned)(((unsigned long long)t * padding) % words) : (t / contention) * padding);
  if (UNROLL == 1) {
#pragma unroll 1
    for (unsigned i = 0; i < iters; i++)
      atomicAdd(w, 1u);
  } else {
    for (unsigned i = 0; i < iters; i++)
      atomicAdd(w, 1u);
  }
}

static unsigned parse(const char *s, const char *name) { return parse_whole(s, name, 1); }

struct run {
  int cross;
  unsigned c, p, wg, groups, iters, reps, words;
  unsigned long long threads;
};

// Times REPS launches on @p array (after a warm-up), checks every word, prints the line.
static void measure(const run &r, const char *name, unsigned *array, int unroll1 = 0)
{
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<float> ms;
  for (unsigned k = 0; k <= r.reps; k++) {
    CHECK(cudaMemset(array, 0, r.words * sizeof(unsigned)));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventRecord(start));
    if (unroll1)
      rmw<1><<<r.groups, r.wg>>>(array, r.cross, r.c, r.p, r.words, r.iters);
    else
      rmw<0><<<r.groups, r.wg>>>(array, r.cross, r.c, r.p, r.words, r.iters);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float t;
    CHECK(cudaEventElapsedTime(&t, start, stop));
    if (k > 0)
      ms.push_back(t);
  }
  std::vector<unsigned> got(r.words), want(r.words, 0);
  CHECK(cudaMemcpy(got.data(), array, r.words * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (unsigned long long t = 0; t < r.threads; t++)
    want[r.cross ? (unsigned)((t * r.p) % r.words) : (unsigned)(t / r.c) * r.p] += r.iters;
  std::sort(ms.begin(), ms.end());
  const double median = ms.size() % 2 ? ms[ms.size() / 2] : (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]) / 2;
  printf("placement %-14s ops_per_us %.6g median_ms %.6g verified %d\n", name,
         (double)r.threads * r.iters / (median * 1000.0), median, got == want ? 1 : 0);
  fflush(stdout);
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
}

int main(int argc, char **argv)
{
  if (argc < 7 || argc > 8) {
    fprintf(stderr, "usage: placement_rmw contiguous|cross-warp CONTENTION PADDING WG WORKGROUPS ITERS [REPS]\n");
    return 2;
  }
  run r{};
  r.cross = std::string_view(argv[1]) == "cross-warp";
  if (!r.cross && std::string_view(argv[1]) != "contiguous") {
    fprintf(stderr, "error: pattern '%s': allowed: contiguous, cross-warp\n", argv[1]);
    return 2;
  }
  r.c = parse(argv[2], "contention");
  r.p = parse(argv[3], "padding");
  r.wg = parse(argv[4], "wg");
  r.groups = parse(argv[5], "workgroups");
  r.iters = parse(argv[6], "iters");
  r.reps = argc > 7 ? parse(argv[7], "reps") : 7;
  r.threads = (unsigned long long)r.wg * r.groups;
  const unsigned long long words64 = (r.threads + r.c - 1) / r.c * r.p;
  if (words64 > 0xffffffffULL / 2) {
    fprintf(stderr, "error: padding: %llu words do not fit 32-bit indices\n", words64);
    return 2;
  }
  r.words = (unsigned)words64;
  const size_t bytes = (size_t)r.words * sizeof(unsigned);

  // Offsets into one allocation 2 MiB larger than the array.
  const size_t offsets[] = {0, 4096, 65536, (1 << 20) + 4096};
  const char *names[] = {"malloc+0", "malloc+4K", "malloc+64K", "malloc+1M4K"};
  char *big;
  CHECK(cudaMalloc(&big, bytes + (2 << 20)));
  for (int i = 0; i < 4; i++)
    measure(r, names[i], (unsigned *)(big + offsets[i]));
  CHECK(cudaFree(big));

  // Other physical pages: the array allocated after 512 MiB already taken.
  char *dummy;
  unsigned *array;
  CHECK(cudaMalloc(&dummy, (size_t)512 << 20));
  CHECK(cudaMalloc(&array, bytes));
  measure(r, "after-512M", array);
  CHECK(cudaFree(array));
  CHECK(cudaFree(dummy));

  // Managed memory resident on the GPU: the driver maps it with its own page sizes.
  int dev = 0;
  CHECK(cudaGetDevice(&dev));
  CHECK(cudaMallocManaged(&array, bytes));
  cudaMemLocation gpu{};
  gpu.type = cudaMemLocationTypeDevice;
  gpu.id = dev;
  CHECK(cudaMemAdvise(array, bytes, cudaMemAdviseSetPreferredLocation, gpu)); // CUDA 13: locations, not ids
  CHECK(cudaMemPrefetchAsync(array, bytes, gpu, 0, 0));
  CHECK(cudaDeviceSynchronize());
  measure(r, "managed", array);
  CHECK(cudaFree(array));

  // cudaMalloc at offset 0 again: the spread between the first and this line is the run-to-run noise; then the
  // loop not unrolled on the same array.
  CHECK(cudaMalloc(&array, bytes));
  measure(r, "malloc+0-again", array);
  measure(r, "unroll1", array, 1);
  CHECK(cudaFree(array));
  return 0;
}
