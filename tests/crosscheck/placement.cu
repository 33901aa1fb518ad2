/*
 * Does where the words lie in memory move a contended cell's rate? Two experiments on one CUDA runtime program,
 * with no atomlab code (probe.cuh):
 *
 *   placement rmw contiguous|cross-warp CONTENTION PADDING WG WORKGROUPS ITERS [REPS]
 *     -> "placement NAME ops_per_us X median_ms M verified 1|0"
 *
 * (issue 19: cells where Vulkan and CUDA differ by 11-34% with alike instructions, docs/design/crosscheck.md.) The cell
 * of standalone_rmw (atomicAdd of 1 on u32, result unused: RED), the same grid and iteration count, run on the
 * same array placed several ways in one process, one line per placement: cudaMalloc at offsets 0, 4 KiB, 64 KiB,
 * 1 MiB + 4 KiB into a larger allocation (other L2 slices / DRAM channels under the same pages), after a 512 MiB
 * allocation (other physical pages), and in managed memory prefetched to the GPU (the driver's other page sizes);
 * last, "unroll1": the loop kept at one RED per iteration (nvcc otherwise unrolls it by 4), the body a SPIR-V
 * compiler that does not unroll would give. If the CUDA rate moves across these by about as much as Vulkan differs
 * from CUDA, placement (or the loop body) explains the difference; if it stays within a few percent, it is
 * excluded. Median of REPS after a warm-up, every word checked.
 *
 *   placement probe add|cas CONTENTION PADDING WG WORKGROUPS ITERS OFFSETS STRIDE_MB ROUNDS TOUCH [ORDER]
 *     -> "round R offset_mb O gops G verified V" per offset (median of 5 launches)
 *
 * (issue [truth]: rows of one `atomlab rmw` process agree within 1-3% pass after pass, while eight processes
 * measuring the same cell spread by up to 64%: docs/design/method.md.) One contiguous cell at several
 * offsets of one large allocation (OFFSETS x STRIDE_MB), in ROUNDS rounds, a 1 GiB memset between rounds when
 * TOUCH is 1, so it tells whether the rate follows the words' placement (the same offsets agree across rounds) or
 * the device's state (they do not). ORDER: up (offset after offset, the default), down (the offsets in reverse: a
 * pattern that follows the address stays, one that follows time turns), rotate (one launch at each offset in
 * turn, five times, as a sample of `atomlab rmw --placements` does).
 *
 *   placement blocks add|cas CONTENTION PADDING WG WORKGROUPS ITERS OFFSETS STRIDE_MB ROTATIONS ROUNDS
 *     -> per launch "launch R O K gops G verified V fill F", then "smid ...", "cycles ...", "start_ns ..." (one value a
 *        block, in block order)
 *
 * (a contended contiguous cell's level moves between processes at every placement.) Which
 * SM ran each block (%smid), how long each block took (clock64 cycles) and when it started (globaltimer), at
 * OFFSETS offsets STRIDE_MB apart, each at ROTATIONS rotations of the work over the blocks (block b does block
 * (b + k x ceil(WORKGROUPS / ROTATIONS)) mod WORKGROUPS's work, as atomlab --rotate), under three ways of
 * re-initialising the cell before a launch (fill memset: cudaMemset, as atomlab; own: each word zeroed by the
 * block that will update it, so its line was last written from that SM; none: the counts accumulate), ROUNDS
 * rounds with a 1 GiB memset before each. It tells whether a slow block is slow because of its SM, of its line,
 * or of the pair, whether the fill (which SMs last wrote the lines) sets the level, and whether the blocks' SMs
 * change between launches, rounds and processes.
 */
#include "probe.cuh"

static const char usage[] =
    "usage: placement rmw contiguous|cross-warp CONTENTION PADDING WG WORKGROUPS ITERS [REPS]\n"
    "       placement probe add|cas CONTENTION PADDING WG WORKGROUPS ITERS OFFSETS STRIDE_MB ROUNDS TOUCH "
    "[up|down|rotate]\n"
    "       placement blocks add|cas CONTENTION PADDING WG WORKGROUPS ITERS OFFSETS STRIDE_MB ROTATIONS ROUNDS\n";

// Times the cell on @p array (after a warm-up), checks every word, prints the line.
static void measure(const cell &r, const char *name, unsigned *array, int unroll1 = 0)
{
  int verified;
  const double median = measure_cell(r, placements{array, 0, 1, 0}, unroll1, &verified);
  printf("placement %-14s ops_per_us %.6g median_ms %.6g verified %d\n", name,
         (double)r.threads * r.iters / (median * 1000.0), median, verified);
  fflush(stdout);
}

// placement rmw: the cell on the array placed several ways.
static int rmw_placements(int argc, char **argv)
{
  const cell r = parse_cell(argc, argv, 7, 0xffffffffULL / 2, usage);
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

// CONTENTION consecutive threads share a word, words PADDING apart; add: atomicAdd (RED), cas: a CAS loop.
// ITERS adds of 1 to the word at @p w: atomicAdd, or a CAS loop that retries until its own value went in.
__device__ __forceinline__ void rmw_loop(unsigned *w, int cas, unsigned iters)
{
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

__global__ void rmw_op(unsigned *array, int cas, unsigned contention, unsigned padding, unsigned iters)
{
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned *w = array + (t / contention) * padding;
  rmw_loop(w, cas, iters);
}

static unsigned parse(const char *s, const char *name) { return parse_whole(s, name, 0); }

// OP C P WG GROUPS ITERS OFFSETS STRIDE_MB: how both probes' arguments start (exit 2 on a bad one).
struct probe_args {
  int cas;
  unsigned c, p, wg, groups, iters, offsets, stride_mb;
};
static probe_args parse_probe(char **argv)
{
  probe_args a;
  a.cas = std::string_view(argv[0]) == "cas";
  if (!a.cas && std::string_view(argv[0]) != "add") {
    fprintf(stderr, "error: op '%s': allowed: add, cas\n", argv[0]);
    exit(2);
  }
  a.c = parse_whole(argv[1], "contention", 1), a.p = parse_whole(argv[2], "padding", 1);
  a.wg = parse_whole(argv[3], "wg", 1), a.groups = parse_whole(argv[4], "workgroups", 1);
  a.iters = parse_whole(argv[5], "iters", 1), a.offsets = parse_whole(argv[6], "offsets", 1);
  a.stride_mb = parse(argv[7], "stride_mb");
  return a;
}

// placement probe: one cell at several offsets, round after round.
static int probe_offsets(int argc, char **argv)
{
  if (argc != 10 && argc != 11) {
    fputs(usage, stderr);
    return 2;
  }
  const std::string_view order = argc == 11 ? argv[10] : "up";
  if (order != "up" && order != "down" && order != "rotate") {
    fprintf(stderr, "error: order '%s': allowed: up, down, rotate\n", argv[10]);
    return 2;
  }
  const probe_args a = parse_probe(argv);
  const int cas = a.cas;
  const unsigned c = a.c, p = a.p, wg = a.wg, groups = a.groups, iters = a.iters, offsets = a.offsets,
                 stride_mb = a.stride_mb, rounds = parse_whole(argv[8], "rounds", 1), touch = parse(argv[9], "touch");
  const unsigned long long threads = (unsigned long long)wg * groups;
  const size_t cell_bytes = (threads + c - 1) / c * p * sizeof(unsigned);
  const size_t stride = (size_t)stride_mb << 20, pool = stride * (offsets - 1) + cell_bytes, big = (size_t)1 << 30;
  unsigned *array, *scratch;
  CHECK(cudaMalloc(&array, pool));
  CHECK(cudaMalloc(&scratch, big));
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
      const float t = timed_ms([&] { rmw_op<<<groups, wg>>>(cell, cas, c, p, iters); });
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

// rmw_op with block b doing block (b + rot) mod blocks' work, and each block's SM, start time and cycles in @p rec
// (three values a block). The barriers around the loop make a block's cycles its slowest warp's.
__global__ void rmw_rec(unsigned *array, int cas, unsigned contention, unsigned padding, unsigned iters, unsigned rot,
                        unsigned long long *rec)
{
  const unsigned t = (blockIdx.x + rot) % gridDim.x * blockDim.x + threadIdx.x;
  unsigned *w = array + (t / contention) * padding;
  __syncthreads();
  unsigned long long start_ns, c0 = clock64();
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start_ns));
  rmw_loop(w, cas, iters);
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    rec[3 * blockIdx.x] = smid;
    rec[3 * blockIdx.x + 1] = start_ns;
    rec[3 * blockIdx.x + 2] = clock64() - c0;
  }
}

// Zeroes the words of rmw_rec's threads with the same blocks doing the same work (rotation @p rot): the lines are
// last written by the SMs that will update them (placement blocks, fill "own").
__global__ void zero_own(unsigned *array, unsigned contention, unsigned padding, unsigned rot)
{
  const unsigned t = (blockIdx.x + rot) % gridDim.x * blockDim.x + threadIdx.x;
  array[(t / contention) * padding] = 0;
}

// placement blocks: per launch, each block's SM, start and cycles, over rounds x fills x offsets x rotations.
static int probe_blocks(int argc, char **argv)
{
  if (argc != 10) {
    fputs(usage, stderr);
    return 2;
  }
  const probe_args a = parse_probe(argv);
  const int cas = a.cas;
  const unsigned c = a.c, p = a.p, wg = a.wg, groups = a.groups, iters = a.iters, offsets = a.offsets,
                 stride_mb = a.stride_mb, rotations = parse_whole(argv[8], "rotations", 1),
                 rounds = parse_whole(argv[9], "rounds", 1);
  const unsigned long long threads = (unsigned long long)wg * groups;
  const size_t cell_bytes = (threads + c - 1) / c * p * sizeof(unsigned);
  const size_t stride = (size_t)stride_mb << 20, pool = stride * (offsets - 1) + cell_bytes, big = (size_t)1 << 30;
  unsigned *array, *scratch;
  unsigned long long *rec;
  CHECK(cudaMalloc(&array, pool));
  CHECK(cudaMalloc(&scratch, big));
  CHECK(cudaMalloc(&rec, 3 * sizeof(unsigned long long) * groups));
  std::vector<unsigned> got(cell_bytes / sizeof(unsigned));
  std::vector<unsigned long long> host(3 * groups);
  const unsigned step = (groups + rotations - 1) / rotations;
  printf("blocks %s c %u p %u wg %u groups %u iters %u rotation_step %u\n", argv[0], c, p, wg, groups, iters, step);
  // How the cell is re-initialised before each launch: memset (cudaMemset, as atomlab's fill), own (zero_own: each
  // line last written by the SM that updates it), none (no re-initialisation: the counts accumulate).
  const char *fills[] = {"memset", "own", "none"};
  for (unsigned r = 0; r < rounds; r++) {
    CHECK(cudaMemset(scratch, r & 0xff, big));
    for (int fill = 0; fill < 3; fill++)
      for (unsigned o = 0; o < offsets; o++) {
        unsigned *cell = array + o * stride / sizeof(unsigned);
        CHECK(cudaMemset(cell, 0, cell_bytes));
        unsigned since_zero = 0; // launches since the cell was last zeroed
        for (unsigned k = 0; k < rotations; k++) {
          const unsigned rot = k * step % groups;
          float t = 0;
          for (int warm = 0; warm < 2; warm++) { // the first launch at each point warms up; the second is kept
            if (fill == 0)
              CHECK(cudaMemset(cell, 0, cell_bytes));
            else if (fill == 1)
              zero_own<<<groups, wg>>>(cell, c, p, rot);
            since_zero = fill == 2 ? since_zero + 1 : 1;
            CHECK(cudaDeviceSynchronize());
            t = timed_ms([&] { rmw_rec<<<groups, wg>>>(cell, cas, c, p, iters, rot, rec); });
          }
          CHECK(cudaMemcpy(got.data(), cell, cell_bytes, cudaMemcpyDeviceToHost));
          CHECK(cudaMemcpy(host.data(), rec, host.size() * sizeof host[0], cudaMemcpyDeviceToHost));
          int ok = 1; // every word: iters per sharing thread per launch since the cell was zeroed
          for (size_t w = 0; w < got.size(); w++) {
            const unsigned long long slot = w / p, first = slot * c;
            const unsigned long long sharers = w % p ? 0 : std::min<unsigned long long>(c, threads - first);
            ok = ok && got[w] == (unsigned)(sharers * iters * since_zero);
          }
          printf("launch %u %zu %u gops %.3f verified %d fill %s\n", r, (size_t)o * stride_mb, k,
                 threads * (double)iters / (t * 1e6), ok, fills[fill]);
          unsigned long long t0 = ~0ULL;
          for (unsigned b = 0; b < groups; b++)
            t0 = std::min(t0, host[3 * b + 1]);
          const char *names[] = {"smid", "start_ns", "cycles"};
          for (int f = 0; f < 3; f++) {
            printf("%s", names[f]);
            for (unsigned b = 0; b < groups; b++)
              printf(" %llu", host[3 * b + f] - (f == 1 ? t0 : 0));
            printf("\n");
          }
        }
      }
    fflush(stdout);
  }
  return 0;
}

int main(int argc, char **argv)
{
  const std::string_view mode = argc > 1 ? argv[1] : "";
  if (mode == "rmw")
    return rmw_placements(argc - 2, argv + 2);
  if (mode == "probe")
    return probe_offsets(argc - 2, argv + 2);
  if (mode == "blocks")
    return probe_blocks(argc - 2, argv + 2);
  fputs(usage, stderr);
  return 2;
}
