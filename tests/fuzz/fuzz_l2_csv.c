/* libFuzzer harness: Nsight Compute raw exports as `model l2 --counters/--same/--spread` read them. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"
#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *text = fuzz_text(data, size);
  if (text == NULL)
    return 0;
  struct atl_l2_report r;
  char why[256];
  why[0] = '\0';
  if (atl_l2_read_csv(text, "fuzz", &r, why, sizeof why) == 0) {
    if (r.count == 0 || r.kernels == NULL)
      abort();
    const struct atl_l2_calibration cal = {{1.4, 1.4}, {1.4, 1.1}, .dram_share = 0.72, .dram_bytes_per_ns = 2500,
                                           .s_pass = 1.04};
    for (size_t i = 0; i < r.count; i++) {
      const struct atl_l2_counters *k = &r.kernels[i];
      struct atl_l2_util u;
      /* every value the reader hands on is a finite, non-negative number; names are terminated */
      if (!isfinite(k->duration_ns) || !isfinite(k->l2_cycles) || !isfinite(k->requests_max) || k->requests < 0 ||
          memchr(k->kernel, '\0', sizeof k->kernel) == NULL || memchr(k->id, '\0', sizeof k->id) == NULL)
        abort();
      atl_l2_utilization(&cal, k, &u);
      if (u.access != ATL_L2_NONE && !(u.u_low <= u.u && u.u <= u.u_high))
        abort();
      /* the advice's predictions: at most every strategy, best first, no speedup negative or NaN */
      struct atl_l2_prediction p;
      atl_l2_predict(&cal, k, &u, &p);
      if (p.count > ATL_L2_STRATEGIES || (p.count && !(p.lanes >= 1)))
        abort();
      for (size_t j = 0; j < p.count; j++)
        if (!(p.s[j].speedup >= 0) || (j && p.s[j].speedup > p.s[j - 1].speedup))
          abort();
    }
    double s[ATL_L2_KINDS], share, bw;
    (void)atl_l2_cycles_per_request(&r, s, why, sizeof why);
    if (atl_l2_dram_achievable(&r, &share, &bw, why, sizeof why) == 0 && !(share > 0 && share <= 1 && bw >= 0))
      abort();
    atl_l2_report_release(&r);
  } else if (r.count != 0 || r.kernels != NULL || why[0] == '\0') {
    abort();
  }
  free(text);
  return 0;
}
