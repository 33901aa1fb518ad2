/* The random pattern's visit counts come from the cycle structure of the LCG
 * map rather than a replay; a replay here must agree with them exactly, or
 * the verifier would flag correct devices (or pass broken ones). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"
#include "check.h"
#include "patterns/patterns.h"

/* xorshift64*: deterministic seeds, so a failure reproduces. */
static uint64_t rng_state = 0x243f6a8885a308d3ull;
static uint32_t rng32(void)
{
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (uint32_t)((rng_state * 0x2545F4914F6CDD1Dull) >> 32);
}

/* What the kernel does: first visit lcg(seed), then lcg of the previous slot. */
static void brute_counts(uint32_t slots, const uint32_t *seeds, uint64_t n, uint32_t iters, uint64_t *counts)
{
  memset(counts, 0, slots * sizeof *counts);
  for (uint64_t t = 0; t < n; t++) {
    uint32_t x = seeds[t];
    for (uint32_t i = 0; i < iters; i++) {
      x = atl__lcg_next(x, slots);
      counts[x]++;
    }
  }
}

static int brute_visits(uint32_t slots, uint32_t seed, uint32_t iters, uint32_t slot)
{
  uint32_t x = seed;
  for (uint32_t i = 0; i < iters; i++) {
    x = atl__lcg_next(x, slots);
    if (x == slot)
      return 1;
  }
  return 0;
}

static void compare_counts(uint32_t slots, const uint32_t *seeds, uint64_t n, uint32_t iters)
{
  uint64_t *want = malloc(slots * sizeof *want), *got = malloc(slots * sizeof *got);
  memset(got, 0xab, slots * sizeof *got); /* stale contents must be overwritten */
  brute_counts(slots, seeds, n, iters, want);
  int err = atl__walk_counts(slots, seeds, n, iters, got);
  CHECK(err == 0);
  uint64_t total = 0;
  for (uint32_t k = 0; k < slots; k++) {
    total += got[k];
    if (!CHECK(got[k] == want[k])) {
      CHECK_CONTEXT("slots %u iters %u walkers %llu: slot %u counted %llu, replay %llu", slots, iters,
                    (unsigned long long)n, k, (unsigned long long)got[k], (unsigned long long)want[k]);
      break;
    }
  }
  /* Conservation: every walker makes exactly iters visits. */
  CHECK_EQ(total, n * iters);
  free(want);
  free(got);
}

int main(void)
{
  /* The LCG step itself, against hand-computed values (32-bit wrap-around). */
  CHECK_EQ(atl__lcg_next(0, 1000), 223);       /* 1013904223 % 1000 */
  CHECK_EQ(atl__lcg_next(1, 1u << 31), 1015568748u & 0x7fffffffu);
  /* 0xffffffff * 1664525 + 1013904223 wraps to 1012239698 in 32 bits. */
  CHECK_EQ(atl__lcg_next(0xffffffffu, 2000000000u), 1012239698u);
  CHECK_EQ(atl__lcg_next(12345, 1), 0);

  const uint32_t slot_set[] = {1, 2, 3, 7, 64, 100, 1000, 1024};
  const uint32_t iter_set[] = {1, 2, 5, 97, 1000};
  enum { WALKERS = 50 };
  uint32_t seeds[WALKERS];
  for (size_t si = 0; si < sizeof slot_set / sizeof slot_set[0]; si++)
    for (size_t ii = 0; ii < sizeof iter_set / sizeof iter_set[0]; ii++) {
      for (int w = 0; w < WALKERS; w++)
        seeds[w] = rng32();
      /* Extreme seeds: the kernel's multiply wraps in 32 bits. */
      seeds[0] = 0;
      seeds[1] = UINT32_MAX;
      compare_counts(slot_set[si], seeds, WALKERS, iter_set[ii]);
      /* A single walker exercises arcs that do not overlap with others. */
      compare_counts(slot_set[si], seeds + 2, 1, iter_set[ii]);
    }
  /* Many walkers that share seeds (several threads starting together),
   * tails longer than one step, and long walks over a bigger map. */
  {
    uint32_t many[400];
    for (int w = 0; w < 400; w++)
      many[w] = w < 200 ? rng32() : many[w % 7];
    compare_counts(4093, many, 400, 3);
    compare_counts(4093, many, 400, 10007);
    compare_counts(65536, many, 40, 200000);
    compare_counts(1000, many, 400, 0); /* no iterations: no visits */
    compare_counts(1000, many, 0, 50);  /* no walkers */
  }

  /* Visits: every (seed, iters, slot) answer against a replay. */
  const uint32_t visit_slots[] = {1, 2, 3, 7, 64, 100};
  const uint32_t visit_iters[] = {0, 1, 2, 3, 5, 97, 1000};
  for (size_t si = 0; si < sizeof visit_slots / sizeof visit_slots[0]; si++)
    for (size_t ii = 0; ii < sizeof visit_iters / sizeof visit_iters[0]; ii++)
      for (int w = 0; w < 20; w++) {
        uint32_t slots = visit_slots[si], iters = visit_iters[ii], seed = w == 0 ? 0 : rng32();
        for (uint32_t k = 0; k < slots; k++) {
          int want = brute_visits(slots, seed, iters, k), got = atl__walk_visits(slots, seed, iters, k);
          if (!CHECK(got == want)) {
            CHECK_CONTEXT("visits(slots %u, seed %u, iters %u, slot %u) = %d, replay %d", slots, seed, iters, k, got,
                          want);
            break;
          }
        }
      }
  return check_exit("test_walk");
}
