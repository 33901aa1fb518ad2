/*
 * An independent cross-check of atomlab's rmw rows (issue [truth]): the
 * seed's contention x padding kernel written again as a plain CUDA runtime
 * program, with its own launch, its own timing (CUDA events, median of
 * REPS launches after a warm-up, the array zeroed before each outside the
 * timed region) and its own check of every word. It shares no code with
 * atomlab, so a fault in atomlab's host side, NVRTC path or timing shows as
 * a difference. tests/cli/gpu_crosscheck.sh runs it beside `atomlab rmw` at
 * the same grid and iteration counts.
 *
 *   standalone_rmw [--placements P] WG WORKGROUPS REPS ROUNDS CELL...
 *   CELL: contiguous|cross-warp:CONTENTION:PADDING:ITERS
 *
 * With --placements P (as atomlab's): launch n of a round runs with the array at offset (n mod P) x step of
 * the buffer, step = 16 MiB / P in whole 2 MiB, so that a round's median is over P placements of the hot
 * lines (docs/method.md, "Placements"); REPS should be a multiple of P.
 *
 * Measures every cell in ROUNDS rounds, cell after cell in each (as atomlab
 * --rounds does), and prints one line per cell:
 * "PATTERN C P ops_per_us X median_ms M rounds_ms A,B,... verified 1|0", the
 * rate at the median round. Why rounds: on an H100 a contended cell with few hot
 * cache lines runs at levels up to 30% apart set by where its lines fall among the
 * L2 slices and by a device state that other traffic (the large cells) moves
 * (docs/method.md); one measurement catches one level, several rounds with that
 * traffic between them sample the levels, as atomlab's rows do. One array of the
 * largest cell's size is allocated once and reused, as atomlab reuses its buffer.
 * fetch_add on u32 with the result unused (atomicAdd compiles to RED), as
 * atomlab's default row.
 */
#include <algorithm>
#include <string>
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

struct round_cell {
  std::string pattern;
  int cross;
  unsigned c, p, iters, words;
  std::vector<double> round_ms; // each round's median launch time
  int verified = 1;
};

static double median(std::vector<double> v)
{
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// "contiguous:32:1:2443" into @p out; exit 2 naming what is wrong.
static round_cell parse_cell(const char *text, unsigned long long threads)
{
  std::string s(text);
  std::vector<std::string> f;
  for (size_t a = 0, b; a <= s.size(); a = b + 1) {
    b = s.find(':', a);
    if (b == std::string::npos)
      b = s.size();
    f.push_back(s.substr(a, b - a));
  }
  if (f.size() != 4 || (f[0] != "contiguous" && f[0] != "cross-warp")) {
    fprintf(stderr, "error: cell '%s': allowed: contiguous|cross-warp:CONTENTION:PADDING:ITERS\n", text);
    exit(2);
  }
  round_cell c;
  c.pattern = f[0];
  c.cross = f[0] == "cross-warp";
  c.c = parse_whole(f[1].c_str(), "contention", 1);
  c.p = parse_whole(f[2].c_str(), "padding", 1);
  c.iters = parse_whole(f[3].c_str(), "iters", 1);
  const unsigned long long words = (threads + c.c - 1) / c.c * c.p; // slots (threads / contention, rounded up) x padding
  if (words > 0xffffffffULL) {
    fprintf(stderr, "error: cell '%s': %llu words do not fit 32-bit indices\n", text, words);
    exit(2);
  }
  c.words = (unsigned)words;
  return c;
}

int main(int argc, char **argv)
{
  unsigned placements = 1;
  if (argc > 2 && std::string_view(argv[1]) == "--placements") {
    placements = parse_whole(argv[2], "placements", 1);
    if (placements > 8) {
      fprintf(stderr, "error: placements %u is not allowed: 1 to 8\n", placements);
      return 2;
    }
    argv += 2, argc -= 2;
  }
  if (argc < 6) {
    fprintf(stderr, "usage: standalone_rmw [--placements P] WG WORKGROUPS REPS ROUNDS "
                    "contiguous|cross-warp:C:P:ITERS...\n");
    return 2;
  }
  const size_t unit = (size_t)2 << 20, step = placements > 1 ? ((size_t)16 << 20) / placements / unit * unit : 0;
  const unsigned wg = parse_whole(argv[1], "wg", 1), groups = parse_whole(argv[2], "workgroups", 1),
                 reps = parse_whole(argv[3], "reps", 1), rounds = parse_whole(argv[4], "rounds", 1);
  const unsigned long long threads = (unsigned long long)wg * groups;
  std::vector<round_cell> cells;
  unsigned most = 1;
  for (int a = 5; a < argc; a++) {
    cells.push_back(parse_cell(argv[a], threads));
    most = std::max(most, cells.back().words);
  }
  unsigned *buffer, *array = nullptr;
  CHECK(cudaMalloc(&buffer, (size_t)most * sizeof(unsigned) + (placements - 1) * step));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<unsigned> got, want;
  for (unsigned r = 0; r < rounds; r++)
    for (round_cell &x : cells) {
      std::vector<double> ms;
      for (unsigned k = 0; k <= reps; k++) { // launch 0 is the warm-up, at the first placement
        array = buffer + (k ? (k - 1) % placements : 0) * step / sizeof(unsigned);
        CHECK(cudaMemset(array, 0, (size_t)x.words * sizeof(unsigned)));
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaEventRecord(start));
        rmw<<<groups, wg>>>(array, x.cross, x.c, x.p, x.words, x.iters);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        float t;
        CHECK(cudaEventElapsedTime(&t, start, stop));
        if (k > 0)
          ms.push_back(t);
      }
      x.round_ms.push_back(median(ms));
      // Every word of the last launch against its count: iters per thread that maps to it, 0 elsewhere.
      got.resize(x.words);
      want.assign(x.words, 0);
      CHECK(cudaMemcpy(got.data(), array, (size_t)x.words * sizeof(unsigned), cudaMemcpyDeviceToHost));
      for (unsigned long long t = 0; t < threads; t++)
        want[x.cross ? (unsigned)((t * x.p) % x.words) : (unsigned)(t / x.c) * x.p] += x.iters;
      x.verified &= got == want;
    }
  int all = 1;
  for (const round_cell &x : cells) {
    const double m = median(x.round_ms);
    printf("%s %u %u ops_per_us %.6g median_ms %.6g rounds_ms ", x.pattern.c_str(), x.c, x.p,
           (double)threads * x.iters / (m * 1000.0), m);
    for (size_t k = 0; k < x.round_ms.size(); k++)
      printf("%s%.6g", k ? "," : "", x.round_ms[k]);
    printf(" verified %d\n", x.verified);
    all &= x.verified;
  }
  cudaFree(buffer);
  return all ? 0 : 1;
}
