/* libFuzzer harness: Nsight Compute CSV exports as `model util --counters` and `profile` read them. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *text = malloc(size + 1);
  if (text == NULL)
    return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  struct atl_ncu_report r;
  char why[256];
  why[0] = '\0';
  if (atl_ncu_parse_csv(text, "fuzz", 64, 132, &r, why, sizeof why) == 0) {
    if (r.count == 0 || r.kernels == NULL)
      abort();
    for (size_t i = 0; i < r.count; i++) {
      const struct atl_smem_counters *k = &r.kernels[i];
      /* every value the reader hands on is a finite number; names are terminated */
      if (!isfinite(k->ops) || !isfinite(k->fao_jobs) || !isfinite(k->cas_jobs) || !isfinite(k->active_cycles) ||
          !isfinite(k->occupancy) || !isfinite(k->duration_ns) || !isfinite(k->sm_count) ||
          !isfinite(k->warps_per_sm) || memchr(k->kernel, '\0', sizeof k->kernel) == NULL ||
          memchr(k->id, '\0', sizeof k->id) == NULL)
        abort();
    }
    atl_ncu_report_release(&r);
  } else if (r.count != 0 || r.kernels != NULL || why[0] == '\0') {
    abort();
  }
  free(text);
  return 0;
}
