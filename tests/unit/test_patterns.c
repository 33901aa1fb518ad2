/* Host-side index generation and the sizes derived from a spec, checked
 * against the closed forms of seed 003's four access patterns. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"
#include "check.h"
#include "spec.h"
#include "patterns/patterns.h"

/* A u32 fetch_add whose result is unused: the patterns depend on the rest. */
static struct atl_spec pattern_spec(enum atl_pattern pat, enum atl_space space, uint32_t c, uint32_t p, uint32_t wg,
                                    uint32_t groups)
{
  return make_spec(ATL_OP_FETCH_ADD, ATL_TYPE_U32, space, pat, ATL_RESULT_UNUSED, c, p, wg, groups);
}

static void check_targets(enum atl_pattern pat, enum atl_space space, uint32_t c, uint32_t p)
{
  const struct atl_spec s = pattern_spec(pat, space, c, p, 64, 4);
  const uint64_t threads = space == ATL_SPACE_LOCAL ? 64 : 256;
  CHECK_EQ(atl_spec_domain_threads(&s), threads);
  /* Written independently of spec.c: ceil(T / c) * p, for every pattern. */
  const uint64_t words = (threads + c - 1) / c * p;
  CHECK_EQ(atl_spec_slots(&s), (threads + c - 1) / c);
  CHECK_EQ(atl_spec_domain_words(&s), words);

  uint32_t *t = malloc(threads * sizeof *t);
  memset(t, 0xee, threads * sizeof *t);
  atl__pattern_targets(&s, 0, t);
  for (uint64_t i = 0; i < threads; i++) {
    uint64_t want;
    if (pat == ATL_PATTERN_CONTIGUOUS)
      want = (i / c) * p;
    else if (pat == ATL_PATTERN_RANDOM)
      continue; /* seeds: checked below */
    else
      want = (i * p) % words;
    if (!CHECK(t[i] == want)) {
      CHECK_CONTEXT("%s c=%u p=%u thread %llu: target %u, expected %llu", atl_pattern_name(pat), c, p,
                    (unsigned long long)i, t[i], (unsigned long long)want);
      break;
    }
    /* Every target must be inside the array the kernel indexes. */
    CHECK(t[i] < words);
    /* Targets are multiples of the padding: the gap words stay untouched. */
    CHECK(t[i] % p == 0);
  }
  if (pat == ATL_PATTERN_CONTIGUOUS || pat == ATL_PATTERN_CROSS_WARP) {
    /* Contention means what it says: each used word gets exactly c threads
     * (the last one fewer when c does not divide T). */
    uint32_t *per_word = calloc(words, sizeof *per_word);
    for (uint64_t i = 0; i < threads; i++)
      per_word[t[i]]++;
    uint64_t used = 0;
    for (uint64_t w = 0; w < words; w++)
      if (per_word[w]) {
        used++;
        CHECK(per_word[w] <= c);
      }
    CHECK_EQ(used, (threads + c - 1) / c);
    free(per_word);
  }
  if (pat == ATL_PATTERN_RANDOM) {
    /* Seeds must differ between threads, or walkers would move in lockstep
     * and "random" would be contiguous with extra steps. */
    int distinct = 1;
    for (uint64_t i = 0; i < threads && distinct; i++)
      for (uint64_t j = i + 1; j < threads; j++)
        if (t[i] == t[j]) {
          distinct = 0;
          break;
        }
    CHECK(distinct);
    /* Seeds do not depend on contention or padding, only on the thread. */
    struct atl_spec s2 = pattern_spec(pat, space, c + 1, p + 2, 64, 4);
    uint32_t *t2 = malloc(threads * sizeof *t2);
    atl__pattern_targets(&s2, 0, t2);
    CHECK(memcmp(t, t2, threads * sizeof *t) == 0);
    /* Another domain's base gives other seeds, and base b's thread i is
     * base 0's thread b + i: seeds are a function of the global id. */
    atl__pattern_targets(&s, 1000, t2);
    CHECK(t2[0] != t[0]);
    if (threads > 10) {
      atl__pattern_targets(&s, 10, t2);
      CHECK(t2[0] == t[10] && t2[threads - 11] == t[threads - 1]);
    }
    free(t2);
  }
  free(t);
}

int main(void)
{
  const uint32_t cs[] = {1, 2, 3, 4, 32, 64};
  const uint32_t ps[] = {1, 2, 5, 16};
  for (int pat = 0; pat < ATL_PATTERN_COUNT; pat++)
    for (int sp = 0; sp < ATL_SPACE_COUNT; sp++)
      for (size_t ci = 0; ci < sizeof cs / sizeof cs[0]; ci++)
        for (size_t pi = 0; pi < sizeof ps / sizeof ps[0]; pi++)
          check_targets((enum atl_pattern)pat, (enum atl_space)sp, cs[ci], ps[pi]);
  /* Contention equal to the whole grid: one word for everyone. */
  check_targets(ATL_PATTERN_CONTIGUOUS, ATL_SPACE_GLOBAL, 256, 1);
  check_targets(ATL_PATTERN_CROSS_WARP, ATL_SPACE_GLOBAL, 256, 7);

  /* A few sizes written out by hand, so that the formula above is not the
   * only witness. */
  struct atl_spec s = pattern_spec(ATL_PATTERN_CONTIGUOUS, ATL_SPACE_GLOBAL, 3, 2, 64, 4);
  CHECK_EQ(atl_spec_domain_words(&s), 172); /* ceil(256/3) = 86, x2 */
  CHECK_EQ(atl_spec_domains(&s), 1);
  CHECK_EQ(atl_spec_domain_threads(&s), 256);
  s.space = ATL_SPACE_LOCAL;
  CHECK_EQ(atl_spec_domain_words(&s), 44); /* one work-group: ceil(64/3) = 22, x2 */
  CHECK_EQ(atl_spec_domains(&s), 4);
  CHECK_EQ(atl_spec_domain_threads(&s), 64);
  s = pattern_spec(ATL_PATTERN_RANDOM, ATL_SPACE_GLOBAL, 5, 3, 64, 4);
  CHECK_EQ(atl_spec_domain_words(&s), 156); /* ceil(256/5) = 52 slots, x3 */
  s.space = ATL_SPACE_LOCAL;
  CHECK_EQ(atl_spec_domain_words(&s), 39); /* ceil(64/5) = 13 slots, x3 */
  s = pattern_spec(ATL_PATTERN_CROSS_WARP, ATL_SPACE_GLOBAL, 2, 1, 64, 4);
  uint32_t t[256];
  atl__pattern_targets(&s, 0, t);
  CHECK(t[0] == 0 && t[1] == 1 && t[127] == 127 && t[128] == 0 && t[255] == 127);
  s.padding = 3; /* words = 384: thread 128 wraps to 0 as well */
  atl__pattern_targets(&s, 0, t);
  CHECK(t[1] == 3 && t[127] == 381 && t[128] == 0 && t[129] == 3);

  /* 32-bit index limits: sizes that do not fit give 0 (the caller rejects). */
  s = pattern_spec(ATL_PATTERN_CONTIGUOUS, ATL_SPACE_GLOBAL, 1, UINT32_MAX, 64, 4);
  CHECK_EQ(atl_spec_domain_words(&s), 0);
  s = pattern_spec(ATL_PATTERN_RANDOM, ATL_SPACE_GLOBAL, 1, 16777216, 64, 4);
  CHECK_EQ(atl_spec_domain_words(&s), 0); /* 256 slots x 2^24: exactly 2^32 */
  s = pattern_spec(ATL_PATTERN_RANDOM, ATL_SPACE_GLOBAL, 1, 16777215, 64, 4);
  CHECK_EQ(atl_spec_domain_words(&s), 256ull * 16777215); /* below 2^32 still fits */
  s = pattern_spec(ATL_PATTERN_CONTIGUOUS, ATL_SPACE_GLOBAL, 256, UINT32_MAX, 64, 4);
  CHECK_EQ(atl_spec_domain_words(&s), UINT32_MAX); /* one slot of 2^32 - 1 */
  s = pattern_spec(ATL_PATTERN_CONTIGUOUS, ATL_SPACE_GLOBAL, 0, 1, 64, 4);
  CHECK_EQ(atl_spec_domain_words(&s), 0);
  s = pattern_spec(ATL_PATTERN_CONTIGUOUS, ATL_SPACE_GLOBAL, 1, 0, 64, 4);
  CHECK_EQ(atl_spec_domain_words(&s), 0);

  /* Active threads: branched issues updates from half of the grid. */
  for (int pat = 0; pat < ATL_PATTERN_COUNT; pat++) {
    s = pattern_spec((enum atl_pattern)pat, ATL_SPACE_GLOBAL, 1, 1, 64, 4);
    CHECK_EQ(atl_spec_active_threads(&s), pat == ATL_PATTERN_BRANCHED ? 128 : 256);
    s.space = ATL_SPACE_LOCAL; /* a grid-wide count in every space */
    CHECK_EQ(atl_spec_active_threads(&s), pat == ATL_PATTERN_BRANCHED ? 128 : 256);
    uint64_t active = 0;
    for (uint64_t tid = 0; tid < 256; tid++) {
      uint32_t a = atl__pattern_active(&s, tid);
      CHECK(a == (pat == ATL_PATTERN_BRANCHED ? (uint32_t)(tid & 1) : 1u));
      active += a;
    }
    /* The count and the bit vector must agree, or ops/s would be wrong. */
    CHECK_EQ(active, atl_spec_active_threads(&s));
  }
  /* Odd grids: 3 x 5 = 15 threads, odd ids 1..13 are 7 of them. */
  s = pattern_spec(ATL_PATTERN_BRANCHED, ATL_SPACE_GLOBAL, 1, 1, 3, 5);
  CHECK_EQ(atl_spec_active_threads(&s), 7);
  CHECK(atl__pattern_active(&s, (uint64_t)1 << 40 | 1) == 1 && atl__pattern_active(&s, (uint64_t)1 << 40) == 0);
  return check_exit("test_patterns");
}
