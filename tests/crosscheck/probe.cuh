/*
 * What the standalone CUDA programs beside atomlab (standalone_rmw, placement) share: a CUDA error check, a
 * whole-number argument parser, the seed's rmw cell (kernel, arguments, timed launches, the check of every word)
 * and the time of one launch. Still no atomlab code: they stay independent of the tool they check.
 */
#ifndef ATL_CROSSCHECK_PROBE_CUH
#define ATL_CROSSCHECK_PROBE_CUH
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

/* A failed CUDA call: its text and the error on stderr, exit 1. */
#define CHECK(call)                                                                                                    \
  do {                                                                                                                 \
    cudaError_t e_ = (call);                                                                                           \
    if (e_ != cudaSuccess) {                                                                                           \
      fprintf(stderr, "error: %s: %s\n", #call, cudaGetErrorString(e_));                                              \
      exit(1);                                                                                                         \
    }                                                                                                                  \
  } while (0)

/* Argument @p s as a whole number from @p min to 2^32-1; anything else is a usage error naming @p name (exit 2). */
static inline unsigned parse_whole(const char *s, const char *name, unsigned long min)
{
  char *end;
  unsigned long v = strtoul(s, &end, 10);
  if (*s == '\0' || *s == '-' || *end != '\0' || v < min || v > 0xffffffffUL) {
    fprintf(stderr, "error: %s: '%s' is not a whole number from %lu to 2^32-1\n", name, s, min);
    exit(2);
  }
  return (unsigned)v;
}

/* The milliseconds of one launch on the default stream: CUDA events around @p launch (a kernel launch). */
template <class Launch> static float timed_ms(Launch launch)
{
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start));
  launch();
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  float t;
  CHECK(cudaEventElapsedTime(&t, start, stop));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  return t;
}

// contiguous: CONTENTION consecutive threads share a word, words PADDING apart.
// cross-warp: thread t updates word (t * PADDING) mod WORDS, so threads WORDS/PADDING apart share one.
// fetch_add on u32 with the result unused (atomicAdd compiles to RED), as atomlab's default row. UNROLL 0 leaves
// the loop to nvcc (it unrolls by 4: REDG x5, as atomlab's CUDA kernel); 1 keeps one RED per iteration, the loop
// body a SPIR-V compiler that does not unroll would give. ROT: block b does block (b + ROT) mod blocks' work (as
// atomlab --rotate: the same cell, its lines served by other SMs).
template <int UNROLL>
__global__ void rmw_cell(unsigned *array, int cross, unsigned contention, unsigned padding, unsigned words,
                         unsigned iters, unsigned rot)
{
  const unsigned t = (blockIdx.x + rot) % gridDim.x * blockDim.x + threadIdx.x;
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

/* One rmw cell: contiguous|cross-warp CONTENTION PADDING WG WORKGROUPS ITERS [REPS] on the command line. */
struct cell {
  int cross;
  unsigned c, p, wg, groups, iters, reps, words;
  unsigned long long threads;
};

/* The cell of @p argv[0..argc) (6 or 7 arguments; REPS defaults to @p reps), at most @p max_words words; exit 2
 * with @p usage or the reason otherwise. */
static inline cell parse_cell(int argc, char **argv, unsigned reps, unsigned long long max_words, const char *usage)
{
  if (argc < 6 || argc > 7) {
    fprintf(stderr, "%s", usage);
    exit(2);
  }
  cell r{};
  r.cross = std::string_view(argv[0]) == "cross-warp";
  if (!r.cross && std::string_view(argv[0]) != "contiguous") {
    fprintf(stderr, "error: pattern '%s': allowed: contiguous, cross-warp\n", argv[0]);
    exit(2);
  }
  r.c = parse_whole(argv[1], "contention", 1);
  r.p = parse_whole(argv[2], "padding", 1);
  r.wg = parse_whole(argv[3], "wg", 1);
  r.groups = parse_whole(argv[4], "workgroups", 1);
  r.iters = parse_whole(argv[5], "iters", 1);
  r.reps = argc > 6 ? parse_whole(argv[6], "reps", 1) : reps;
  r.threads = (unsigned long long)r.wg * r.groups;
  const unsigned long long words64 = (r.threads + r.c - 1) / r.c * r.p; // slots (threads / contention, rounded up) x padding
  if (words64 > max_words) {
    fprintf(stderr, "error: padding: %llu words do not fit 32-bit indices\n", words64);
    exit(2);
  }
  r.words = (unsigned)words64;
  return r;
}

/* The median of @p ms (launch times, or medians of them). */
template <class T> static inline double median_ms(std::vector<T> ms)
{
  std::sort(ms.begin(), ms.end());
  return ms.size() % 2 ? ms[ms.size() / 2] : ((double)ms[ms.size() / 2 - 1] + ms[ms.size() / 2]) / 2;
}

// Where a cell's launches put the array: launch n (after the warm-up) at buffer + ((n - 1) mod count) x step bytes
// (standalone_rmw --placements); count 1, step 0: always at buffer. rotate: launch n's blocks also shift their
// work by ((n - 1) mod count) x s + q x ceil(s / 4) blocks, s = ceil(blocks / count), q the launch's pair of turns
// ((n - 1) / count / 2) (standalone_rmw --rotate; atomlab rmw --rotate).
struct placements {
  unsigned *buffer;
  size_t step;
  unsigned count;
  int rotate;
};

/* REPS launches of @p r at @p at's placements after a warm-up, the array zeroed before each outside the timed
 * region; the median ms, and in @p verified whether every word of the last launch holds its count. */
static inline double measure_cell(const cell &r, const struct placements &at, int unroll1, int *verified)
{
  std::vector<float> ms;
  unsigned *array = at.buffer;
  for (unsigned k = 0; k <= r.reps; k++) { // launch 0 is the warm-up, at the first placement
    const unsigned place = k ? (k - 1) % at.count : 0, pair = k ? (k - 1) / at.count / 2 : 0;
    array = at.buffer + place * at.step / sizeof(unsigned);
    const unsigned step = (r.groups + at.count - 1) / at.count; // as atomlab's rotation_shift
    const unsigned rot = at.rotate ? (unsigned)(((unsigned long long)place * step + pair * ((step + 3) / 4)) % r.groups) : 0;
    CHECK(cudaMemset(array, 0, r.words * sizeof(unsigned)));
    CHECK(cudaDeviceSynchronize());
    const float t = timed_ms([&] {
      if (unroll1)
        rmw_cell<1><<<r.groups, r.wg>>>(array, r.cross, r.c, r.p, r.words, r.iters, rot);
      else
        rmw_cell<0><<<r.groups, r.wg>>>(array, r.cross, r.c, r.p, r.words, r.iters, rot);
    });
    if (k > 0)
      ms.push_back(t);
  }
  // Every word of the last launch against its count: iters per thread that maps to it, 0 elsewhere.
  std::vector<unsigned> got(r.words), want(r.words, 0);
  CHECK(cudaMemcpy(got.data(), array, r.words * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (unsigned long long t = 0; t < r.threads; t++)
    want[r.cross ? (unsigned)((t * r.p) % r.words) : (unsigned)(t / r.c) * r.p] += r.iters;
  *verified = got == want;
  return median_ms(ms);
}
#endif
