/*
 * The shared-memory atomic model on REAL counters: the ncu export of `atomlab rmw --space local,global`
 * and the calibration table of the first H100 run (tests/data/README.md). Kernels whose answer is known:
 * - global-memory kernels run no shared atomic: U = 0, not a bottleneck;
 * - loops of shared fetch_add with 32 lanes on one word: every warp-instruction holds the unit for
 *   ~32 cycles, the loop does nothing else, so U must be near 1 (docs/design/model.md gives the band and why
 *   it sits above 1);
 * - CAS loops: each CAS counted once (the profile before this test counted it twice);
 * - loops with one lane per word: e = 1, flagged latency-bound (U only an upper bound).
 * Launch ids follow the run's log (each configuration launched twice).
 */
#include <stdlib.h>
#include <string.h>

#include "atomlab/model.h"
#include "check.h"
#include "core/text.h"

/* The verdicts on one kernel whose answer is known (ids as in gpu-smem-log.txt). */
static void check_kernel(const struct atl_smem_counters *k, int id, const struct atl_smem_util *u, double threshold)
{
  if (id == 0 || id >= 17) { /* discovery and the global-memory kernels: no shared atomic at all */
    CHECK(u->jobs == 0 && u->utilization == 0 && u->utilization < threshold);
    return;
  }
  /* 264 blocks x 8 warps x 2048 atomics / 132 SMs = 32,768 jobs per SM; the 32-lane CAS loops retry 32 times */
  const int cas = id >= 9 && id <= 16, cas_retry = id == 11 || id == 12 || id == 15 || id == 16;
  CHECK_NEAR(u->jobs, cas_retry ? 32768.0 * 32 : 32768.0);
  if (cas) {
    CHECK(k->fao_jobs == 0);    /* every ATOMS is a CAS, counted once */
    CHECK_NEAR(u->c, u->n_hat); /* all queued jobs are CAS */
  } else {
    CHECK(k->cas_jobs == 0 && u->c == 0);
  }
  CHECK(u->n_hat > 14 && u->n_hat <= 16.01);      /* 2 blocks of 8 warps per SM */
  CHECK(u->assumed & ATL_SMEM_ASSUME_FULL_WARPS); /* ncu 2025.3 has no lane count on the H100 */
  const int one_word = id == 3 || id == 4 || id == 7 || id == 8 || cas_retry;
  if (one_word) {
    CHECK_NEAR(u->e, 32);
    CHECK(!(u->assumed & ATL_SMEM_LATENCY_BOUND));
  } else {
    CHECK_NEAR(u->e, 1);
    CHECK(u->assumed & ATL_SMEM_LATENCY_BOUND);
  }
  if (id == 3 || id == 4 || id == 7 || id == 8) { /* the fetch_add loops with a known answer: near 1 */
    CHECK(u->utilization >= 0.9 && u->utilization <= 1.5);
    CHECK(u->utilization >= threshold);
  }
}

int main(void)
{
  char why[512] = "";
  struct atl_smem_table table;
  if (!CHECK(atl_smem_table_read_csv(ATL_TEST_DATA_DIR "/smem-table-h100-trim.csv", &table, why, sizeof why) == 0)) {
    CHECK_CONTEXT("%s", why);
    return check_exit("test_smem_h100");
  }
  char *text = atl__read_text_file(ATL_TEST_DATA_DIR "/ncu-h100-rmw.csv", 1 << 22);
  struct atl_ncu_report r = {0};
  if (!CHECK(text != NULL) || !CHECK(atl_ncu_parse_csv(text, "ncu-h100-rmw.csv", 0, 0, &r, why, sizeof why) == 0)) {
    CHECK_CONTEXT("%s", why);
    free(text);
    atl_smem_table_release(&table);
    return check_exit("test_smem_h100");
  }
  CHECK(r.count == 33);
  const double threshold = 0.8; /* the default of model util and profile */
  for (size_t i = 0; i < r.count; i++) {
    const struct atl_smem_counters *k = &r.kernels[i];
    struct atl_smem_util u;
    CHECK_NEAR(k->sm_count, 132); /* from the file's device attributes */
    CHECK_NEAR(k->warps_per_sm, 64);
    if (!CHECK(atl_smem_utilization(&table, ATL_SMEM_USED, k, &u, why, sizeof why) == 0)) {
      CHECK_CONTEXT("kernel %s: %s", k->id, why);
      continue;
    }
    const unsigned long failed_before = check_failures;
    check_kernel(k, atoi(k->id), &u, threshold);
    if (check_failures > failed_before)
      CHECK_CONTEXT("kernel %s: N %g n-hat %g e %g c %g S %g T %g U %g", k->id, u.jobs, u.n_hat, u.e, u.c,
                    u.service, u.time, u.utilization);
  }
  atl_ncu_report_release(&r);
  free(text);
  atl_smem_table_release(&table);
  return check_exit("test_smem_h100");
}
