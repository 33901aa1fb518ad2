/*
 * Does a contended cell's rate depend on where its words lie in memory (issue [truth])? Rows of one
 * `atomlab rmw` process agree within 1-3% pass after pass, while eight processes measuring the same cell spread
 * by up to 64% (results/nvidia-h100/truth/drift/). This probe measures one contiguous cell at several offsets
 * of one large allocation (OFFSETS x STRIDE_MB), in ROUNDS rounds, a 1 GiB memset between rounds when
 * TOUCH is 1, so it tells whether the rate follows the words' placement (the same offsets agree across rounds)
 * or the device's state (they do not). It shares no code with atomlab.
 *
 *   placement_probe add|cas CONTENTION PADDING WG WORKGROUPS ITERS OFFSETS STRIDE_MB ROUNDS TOUCH [ORDER]
 *
 * ORDER: up (offset after offset, the default), down (the offsets in reverse: a pattern that follows the
 * address stays, one that follows time turns), rotate (one launch at each offset in turn, five times, as a
 * sample of `atomlab rmw --placements` does). Prints "round R offset_mb O gops G verified V" per offset
 * (median of 5 launches).
 */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "probe.cuh"

// CONTENTION consecutive threads share a word, words PADDING apart; add: atomicAdd (RED), cas: a CAS loop.
__global__ void rmw(unsigned *array, int cas, unsigned contention, unsigned padding, unsigned iters)
{
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned *w = array + (t / contention) * padding;
  for (unsigned i = 0; i < iters; i++) {
    if (cas) {
      unsigned old = *(volatile unsigned *)w, seen;
      while ((seen = atomicCAS(w, old, old + 1)) != old)
        old = seen;
    } else {
      atomicAdd(w, 1u);
    }
  }
}

static unsigned parse(const char *s, const char *name) { return parse_whole(s, name, 0); }

int main(int argc, char **argv)
{
  if (argc != 11 && argc != 12) {
    fprintf(stderr, "usage: placement_probe add|cas CONTENTION PADDING WG WORKGROUPS ITERS OFFSETS STRIDE_MB ROUNDS "
                    "TOUCH [up|down|rotate]\n");
    return 2;
  }
  const std::string_view order = argc == 12 ? argv[11] : "up";
  if (order != "up" && order != "down" && order != "rotate") {
    fprintf(stderr, "error: order '%s': allowed: up, down, rotate\n", argv[11]);
    return 2;
  }
  const int cas = std::string_view(argv[1]) == "cas";
  if (!cas && std::string_view(argv[1]) != "add") {
    fprintf(stderr, "error: op '%s': allowed: add, cas\n", argv[1]);
    return 2;
  }
  const unsigned c = parse(argv[2], "contention"), p = parse(argv[3], "padding"), wg = parse(argv[4], "wg"),
                 groups = parse(argv[5], "workgroups"), iters = parse(argv[6], "iters"),
                 offsets = parse(argv[7], "offsets"), stride_mb = parse(argv[8], "stride_mb"),
                 rounds = parse(argv[9], "rounds"), touch = parse(argv[10], "touch");
  if (c == 0 || p == 0 || wg == 0 || groups == 0 || iters == 0 || offsets == 0 || rounds == 0) {
    fprintf(stderr, "error: contention, padding, wg, workgroups, iters, offsets and rounds must be at least 1\n");
    return 2;
  }
  const unsigned long long threads = (unsigned long long)wg * groups;
  const size_t cell_bytes = (threads + c - 1) / c * p * sizeof(unsigned);
  const size_t stride = (size_t)stride_mb << 20, pool = stride * (offsets - 1) + cell_bytes, big = (size_t)1 << 30;
  unsigned *array, *scratch;
  CHECK(cudaMalloc(&array, pool));
  CHECK(cudaMalloc(&scratch, big));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<unsigned> got(cell_bytes / sizeof(unsigned));
  for (unsigned r = 0; r < rounds; r++) {
    if (touch)
      CHECK(cudaMemset(scratch, r & 0xff, big));
    // ms[o]: offset o's launch times; the launches run offset after offset (up, down) or in turn (rotate).
    std::vector<std::vector<float>> ms(offsets);
    std::vector<int> ok(offsets, 1);
    const unsigned total = offsets * 6;
    for (unsigned n = 0; n < total; n++) {
      const unsigned o = order == "rotate" ? n % offsets : order == "up" ? n / 6 : offsets - 1 - n / 6;
      const bool warmup = order == "rotate" ? n < offsets : n % 6 == 0; // each offset's first launch
      unsigned *cell = array + o * stride / sizeof(unsigned);
      CHECK(cudaMemset(cell, 0, cell_bytes));
      CHECK(cudaEventRecord(start));
      rmw<<<groups, wg>>>(cell, cas, c, p, iters);
      CHECK(cudaGetLastError());
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      float t;
      CHECK(cudaEventElapsedTime(&t, start, stop));
      if (!warmup)
        ms[o].push_back(t);
      // Every word of the cell: c x iters on each word a group of threads shares, 0 in the padding.
      CHECK(cudaMemcpy(got.data(), cell, cell_bytes, cudaMemcpyDeviceToHost));
      for (size_t w = 0; w < got.size(); w++) {
        const unsigned long long slot = w / p, first = slot * c;
        const unsigned long long sharers = w % p ? 0 : std::min<unsigned long long>(c, threads - first);
        ok[o] = ok[o] && got[w] == sharers * iters;
      }
    }
    for (unsigned o = 0; o < offsets; o++) {
      std::sort(ms[o].begin(), ms[o].end());
      printf("round %u offset_mb %zu gops %.3f verified %d\n", r, (size_t)o * stride_mb,
             threads * (double)iters / (ms[o][2] * 1e6), ok[o]);
    }
    fflush(stdout);
  }
  return 0;
}
