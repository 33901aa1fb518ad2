/* Host-side index generation for the four access patterns of seed 003. */
#include "patterns.h"

/* splitmix64: a small, well-mixed generator for the random pattern's seeds. */
static uint64_t splitmix64(uint64_t x)
{
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

void atl__pattern_targets(const struct atl_spec *s, uint64_t seed_base, uint32_t *target)
{
  const uint64_t threads = atl_spec_domain_threads(s);
  const uint64_t words = atl_spec_domain_words(s);
  for (uint64_t t = 0; t < threads; t++) {
    switch (s->pattern) {
    case ATL_PATTERN_CONTIGUOUS:
      target[t] = (uint32_t)((t / s->contention) * s->padding);
      break;
    case ATL_PATTERN_CROSS_WARP:
    case ATL_PATTERN_BRANCHED:
      target[t] = (uint32_t)((t * s->padding) % words);
      break;
    case ATL_PATTERN_RANDOM:
    default:
      target[t] = (uint32_t)splitmix64(seed_base + t);
      break;
    }
  }
}
