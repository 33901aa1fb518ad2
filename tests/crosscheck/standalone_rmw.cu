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
 *   standalone_rmw [--placements P [--rotate]] WG WORKGROUPS REPS ROUNDS CELL...
 *   CELL: contiguous|cross-warp:CONTENTION:PADDING:ITERS
 *
 * With --placements P (as atomlab's): launch n of a round runs with the array at offset (n mod P) x step of
 * the buffer, step = 16 MiB / P in whole 2 MiB, so that a round's median is over P placements of the hot
 * lines (docs/design/method.md, "Placements"); REPS should be a multiple of P. --rotate (as atomlab's): placement k also
 * shifts which block does which block's work by k x ceil(WORKGROUPS / P) blocks (docs/design/method.md, "Rotation").
 *
 * Measures every cell in ROUNDS rounds, cell after cell in each (as atomlab
 * --rounds does), and prints one line per cell:
 * "PATTERN C P ops_per_us X median_ms M rounds_ms A,B,... verified 1|0", the
 * rate at the median round. Why rounds: on an H100 a contended cell with few hot
 * cache lines runs at levels up to 30% apart set by where its lines fall among the
 * L2 slices and by a device state that other traffic (the large cells) moves
 * (docs/design/method.md); one measurement catches one level, several rounds with that
 * traffic between them sample the levels, as atomlab's rows do. One array of the
 * largest cell's size is allocated once and reused, as atomlab reuses its buffer.
 * The kernel, its launch and timing and the check of every word are probe.cuh's
 * rmw cell (fetch_add on u32 with the result unused, as atomlab's default row),
 * which placement.cu measures too.
 */
#include <algorithm>
#include <string>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "probe.cuh"

// A cell of the command line and what its rounds measured.
struct round_cell {
  cell r;
  std::vector<double> round_ms; // each round's median launch time
  int verified = 1;
};

// "contiguous:32:1:2443" at @p grid (WG WORKGROUPS REPS); exit 2 naming what is wrong.
static round_cell parse_round_cell(const char *text, char **grid)
{
  std::string s(text);
  std::vector<std::string> f;
  for (size_t a = 0, b; a <= s.size(); a = b + 1) {
    b = s.find(':', a);
    if (b == std::string::npos)
      b = s.size();
    f.push_back(s.substr(a, b - a));
  }
  if (f.size() != 4) {
    fprintf(stderr, "error: cell '%s': allowed: contiguous|cross-warp:CONTENTION:PADDING:ITERS\n", text);
    exit(2);
  }
  // probe.cuh's cell: PATTERN CONTENTION PADDING WG WORKGROUPS ITERS REPS
  char *args[] = {f[0].data(), f[1].data(), f[2].data(), grid[0], grid[1], f[3].data(), grid[2]};
  return {parse_cell(7, args, 1, 0xffffffffULL, "")};
}

int main(int argc, char **argv)
{
  unsigned placements = 1;
  if (argc > 2 && std::string(argv[1]) == "--placements") {
    placements = parse_whole(argv[2], "placements", 1);
    if (placements > 8) {
      fprintf(stderr, "error: placements %u is not allowed: 1 to 8\n", placements);
      return 2;
    }
    argv += 2, argc -= 2;
  }
  int rotate = 0;
  if (argc > 1 && std::string(argv[1]) == "--rotate") {
    if (placements < 2) {
      fprintf(stderr, "error: --rotate needs --placements of at least 2 (it has %u)\n", placements);
      return 2;
    }
    rotate = 1;
    argv += 1, argc -= 1;
  }
  if (argc < 6) {
    fprintf(stderr, "usage: standalone_rmw [--placements P [--rotate]] WG WORKGROUPS REPS ROUNDS "
                    "contiguous|cross-warp:C:P:ITERS...\n");
    return 2;
  }
  const size_t unit = (size_t)2 << 20, step = placements > 1 ? ((size_t)16 << 20) / placements / unit * unit : 0;
  const unsigned rounds = parse_whole(argv[4], "rounds", 1);
  std::vector<round_cell> cells;
  unsigned most = 1;
  for (int a = 5; a < argc; a++) {
    cells.push_back(parse_round_cell(argv[a], argv + 1));
    most = std::max(most, cells.back().r.words);
  }
  unsigned *buffer;
  CHECK(cudaMalloc(&buffer, (size_t)most * sizeof(unsigned) + (placements - 1) * step));
  const struct placements at = {buffer, step, placements, rotate};
  for (unsigned r = 0; r < rounds; r++)
    for (round_cell &x : cells) {
      int verified;
      x.round_ms.push_back(measure_cell(x.r, at, 0, &verified));
      x.verified &= verified;
    }
  int all = 1;
  for (const round_cell &x : cells) {
    const double m = median_ms(x.round_ms);
    printf("%s %u %u ops_per_us %.6g median_ms %.6g rounds_ms ", x.r.cross ? "cross-warp" : "contiguous", x.r.c, x.r.p,
           (double)x.r.threads * x.r.iters / (m * 1000.0), m);
    for (size_t k = 0; k < x.round_ms.size(); k++)
      printf("%s%.6g", k ? "," : "", x.round_ms[k]);
    printf(" verified %d\n", x.verified);
    all &= x.verified;
  }
  cudaFree(buffer);
  return all ? 0 : 1;
}
