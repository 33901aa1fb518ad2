/* The bank conflicts a key distribution leaves (src/model/smem/banks.c) and what the advice makes of them:
 * the L2 privatized strategy's shared passes from the L2 requests per warp-instruction, and the shared
 * privatized strategy's gain (none where the passes are the keys' own). Values a 32-lane warp must give:
 * one word: 1 pass merged, 32 unmerged, 32 requests; many words: 3.5 passes, a request per lane. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "atomlab/l2model.h"
#include "atomlab/model.h"

static void expectations(void)
{
  /* one word: merged lanes 1 pass, ATOMS.ADD 32; every lane its own request */
  CHECK(atl_smem_bank_passes(1, 32, 1) == 1 && atl_smem_bank_passes(1, 32, 0) == 32);
  CHECK(atl_l2_requests_per_instruction(1, 32) == 32);
  /* 32 words (one line, one word a bank): distinct words never conflict; lanes pile up as balls in 32 bins
   * (E max of 32 balls in 32 bins is 3.53) */
  CHECK(atl_smem_bank_passes(32, 32, 1) == 1);
  CHECK(fabs(atl_smem_bank_passes(32, 32, 0) - 3.53) < 0.1);
  /* many words: both tend to the balls-in-bins maximum; requests to one per lane */
  CHECK(fabs(atl_smem_bank_passes(0x1p20, 32, 1) - 3.53) < 0.1);
  CHECK(atl_l2_requests_per_instruction(0x1p20, 32) > 31);
  /* 256 words (the u8 histogram): 8 per bank; 3.1-3.2 passes merged (H200: 3.26 counted), 9.6 requests
   * (H200: 10.1 counted) */
  const double p256 = atl_smem_bank_passes(256, 32, 1);
  CHECK(p256 > 3.0 && p256 < 3.3);
  CHECK(fabs(atl_l2_requests_per_instruction(256, 32) - 9.6) < 0.3);
  /* the same numbers every call, and fewer lanes fewer passes */
  CHECK(atl_smem_bank_passes(256, 32, 1) == p256);
  CHECK(atl_smem_bank_passes(256, 8, 1) < p256);
  /* the inversion: each branch gives back its W (to a line: a partial last line makes R step, not rise smoothly) */
  const double w = atl_l2_words_from_requests(atl_l2_requests_per_instruction(256, 32), 32, 1);
  CHECK(w > 256 - 32 && w < 256 + 32);
  const double w4 = atl_l2_words_from_requests(atl_l2_requests_per_instruction(4, 32), 32, 0);
  CHECK(w4 > 3.8 && w4 < 4.2);
  /* beyond a branch's range: its end */
  CHECK(atl_l2_words_from_requests(1, 32, 1) == 32 && atl_l2_words_from_requests(40, 32, 0) == 1);
}

/* The L2 privatized strategy on the H200's uniform u8 histogram (hist-uniform-global, counters copied
 * by hand): 2,097,152 RED warp-instructions, 21,202,821 L2 set accesses (10.1 per instruction), the busiest
 * slice a third of the requests (8 lines): keys over ~260 words, 3.1-3.2 passes a warp-instruction, where the
 * one-pass-per-word fallback counted 1 (it predicted 745x, measured 499x). */
static void l2_privatized(void)
{
  struct atl_l2_calibration cal = {{1.393, 1.371}, {1.411, 1.090}, .dram_share = 0.72, .s_pass = 1.04};
  struct atl_l2_counters k = {.duration_ns = 17254592, .l2_cycles = 29500000, .requests = 31835984,
                              .requests_max = 10601685, .red_max = 10601685, .requests_avg = 338680.68,
                              .red_requests = 31835984, .input_active_max = -1, .dram_pct = 0.2, .dram_bytes = -1,
                              .issue_max = 22784, .sm_elapsed = 34400000, .l1_requests = 2097152,
                              .l1_set_accesses = 21202821, .grid_size = 1056, .block_size = 256, .sm_count = 132,
                              .warp_size = 32, .clock_khz = 1980000};
  struct atl_l2_util u;
  struct atl_l2_prediction p;
  atl_l2_utilization(&cal, &k, &u);
  atl_l2_predict(&cal, &k, &u, &p);
  CHECK(p.count == 3 && p.lanes_counted);
  CHECK(p.words > 230 && p.words < 300);
  CHECK(p.bank_passes > 3.0 && p.bank_passes < 3.3);
  const struct atl_l2_strategy *pv = NULL;
  for (size_t i = 0; i < p.count; i++)
    pv = strcmp(p.s[i].name, "privatized") == 0 ? &p.s[i] : pv;
  if (CHECK(pv != NULL))
    CHECK_NEAR(pv->smem_ns, 2097152 * p.bank_passes / 132 * 1.04 / (34400000 / 17254592.0));
  /* all 32 lanes separate requests: lanes on one word (the solid histogram): one merged pass */
  k.l1_set_accesses = 32 * k.l1_requests;
  k.requests_max = k.red_max = k.requests / 1.5;
  atl_l2_utilization(&cal, &k, &u);
  atl_l2_predict(&cal, &k, &u, &p);
  CHECK(p.words == 1 && p.bank_passes == 1);
  /* one request per warp-instruction: coalesced lanes on distinct words of a line, one pass */
  k.l1_set_accesses = k.l1_requests;
  atl_l2_predict(&cal, &k, &u, &p);
  CHECK(p.words == 0 && p.bank_passes == 1);
}

/* The shared privatized strategy: passes the keys explain (3.26 a job, the uniform histogram) stay, so it is not
 * advised (byte-lanes is); passes beyond random keys' (a layout's conflicts, 8 a job) fall to theirs. */
static void smem_privatized(void)
{
  struct atl_smem_util u;
  memset(&u, 0, sizeof u);
  u.jobs = 50000, u.e = 1.05, u.time = 68000;
  u.unit.fao_jobs = 50000, u.unit.passes = 3.26, u.unit.passes_hi = 3.26, u.unit.s_fao = 1.04, u.unit.s_cas = 2;
  u.unit.u = u.unit.u_lo = u.unit.u_hi = 0.88, u.unit.measured = 1;
  struct atl_smem_advice a;
  atl_smem_advise(&u, NULL, ATL_SMEM_UNUSED, 0.8, 0, &a);
  CHECK(a.strategy && strcmp(a.strategy, "byte-lanes") == 0);
  u.unit.passes = u.unit.passes_hi = 8;
  atl_smem_advise(&u, NULL, ATL_SMEM_UNUSED, 0.8, 0, &a);
  CHECK(a.strategy && strcmp(a.strategy, "privatized") == 0);
  CHECK(fabs(a.factor - atl_smem_bank_passes(0x1p20, 32, 1) / 8) < 1e-12);
}

int main(void)
{
  expectations();
  l2_privatized();
  smem_privatized();
  return check_exit("test_banks");
}
