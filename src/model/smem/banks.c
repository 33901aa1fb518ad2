/*
 * The bank conflicts a key distribution leaves in shared memory (docs/design/model.md, "The strategies' own costs"):
 * what a privatized table still pays per warp-instruction, and the key spread the L2 counters imply. Keys are
 * taken uniform over W consecutive 4-byte words (32 banks, 32 words a 128-byte line); the expectations are
 * Monte Carlo averages over a fixed sequence of draws, so every call gives the same number. R(W) is not smooth
 * at the scale of a line (a partial last line steps it), so the inversion is good to about a line.
 */
#include <math.h>

#include "atomlab/model.h"

#define BANKS 32
#define TRIALS 2048
#define MAX_LANES 64

static uint64_t next(uint64_t *s)
{
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* One warp-instruction's lanes on keys uniform over `words`: its shared passes (the busiest bank: distinct words
 * when the unit merges a word's lanes, else lanes) and its L2 requests (per 32-word line the most lanes on one of
 * its words: the L2 merges lanes on distinct words of a line, not lanes on one word). */
static void draw(uint64_t *s, double words, unsigned lanes, double *merged, double *unmerged, double *requests)
{
  uint64_t key[MAX_LANES];
  unsigned lanes_in_bank[BANKS] = {0}, words_in_bank[BANKS] = {0}, busiest = 0, busiest_words = 0, req = 0;
  for (unsigned i = 0; i < lanes; i++) {
    key[i] = (uint64_t)floor((double)(next(s) >> 11) * 0x1p-53 * words);
    int seen = 0;
    for (unsigned j = 0; j < i && !seen; j++)
      seen = key[j] == key[i];
    const unsigned b = (unsigned)(key[i] % BANKS);
    lanes_in_bank[b]++;
    words_in_bank[b] += !seen;
  }
  for (unsigned b = 0; b < BANKS; b++) {
    busiest = lanes_in_bank[b] > busiest ? lanes_in_bank[b] : busiest;
    busiest_words = words_in_bank[b] > busiest_words ? words_in_bank[b] : busiest_words;
  }
  /* requests: for each line (first lane on it), the most lanes on one of its words */
  for (unsigned i = 0; i < lanes; i++) {
    int first = 1;
    for (unsigned j = 0; j < i && first; j++)
      first = key[j] / BANKS != key[i] / BANKS;
    if (!first)
      continue;
    unsigned most = 0;
    for (unsigned j = i; j < lanes; j++) {
      if (key[j] / BANKS != key[i] / BANKS)
        continue;
      unsigned same = 0;
      for (unsigned m = 0; m < lanes; m++)
        same += key[m] == key[j];
      most = same > most ? same : most;
    }
    req += most;
  }
  *merged += busiest_words;
  *unmerged += busiest;
  *requests += req;
}

static void expect(double words, unsigned lanes, double *merged, double *unmerged, double *requests)
{
  uint64_t s = 0xa70b1ab5ull; /* the same draws for every W */
  double m = 0, u = 0, r = 0;
  if (lanes > MAX_LANES)
    lanes = MAX_LANES;
  if (lanes < 1)
    lanes = 1;
  if (words < 1)
    words = 1;
  for (unsigned t = 0; t < TRIALS; t++)
    draw(&s, words, lanes, &m, &u, &r);
  *merged = m / TRIALS;
  *unmerged = u / TRIALS;
  *requests = r / TRIALS;
}

double atl_smem_bank_passes(double words, unsigned lanes, int merge)
{
  double m, u, r;
  expect(words, lanes, &m, &u, &r);
  return merge ? m : u;
}

double atl_l2_requests_per_instruction(double words, unsigned lanes)
{
  double m, u, r;
  expect(words, lanes, &m, &u, &r);
  return r;
}

double atl_l2_words_from_requests(double requests, unsigned lanes, int several_lines)
{
  /* one line: R falls from `lanes` (one word) to its least at a full line; several: R rises from there to
   * `lanes` (every lane its own line). Bisect on log W within the branch. */
  double lo = several_lines ? BANKS : 1, hi = several_lines ? 0x1p24 : BANKS;
  const double r_lo = atl_l2_requests_per_instruction(lo, lanes), r_hi = atl_l2_requests_per_instruction(hi, lanes);
  const int rising = r_hi > r_lo;
  if (rising ? requests <= r_lo : requests >= r_lo)
    return lo;
  if (rising ? requests >= r_hi : requests <= r_hi)
    return hi;
  for (int i = 0; i < 24 && hi / lo > 1.01; i++) {
    const double mid = sqrt(lo * hi), r = atl_l2_requests_per_instruction(mid, lanes);
    if ((r < requests) == rising)
      lo = mid;
    else
      hi = mid;
  }
  return sqrt(lo * hi);
}
