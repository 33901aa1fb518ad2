/* libFuzzer harness: calibration tables as `model util`, `model query` and `profile` read them (--table). */
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
  struct atl_smem_table t;
  char why[256];
  why[0] = '\0';
  if (atl_smem_table_parse_csv(text, "fuzz", &t, why, sizeof why) == 0) {
    /* what the reader accepts is a table the model can use: points in range, times finite and >= 0 */
    if (t.nmax < 1 || t.nmax > ATL_SMEM_MAX_N || (t.t[0] == NULL && t.t[1] == NULL))
      abort();
    for (int v = 0; v < ATL_SMEM_VARIANTS; v++) {
      if (t.t[v] == NULL)
        continue;
      for (unsigned n = 1; n <= t.nmax; n++)
        for (unsigned e = 1; e <= t.emax; e++)
          for (unsigned c = 0; c <= n; c++) {
            double x = atl_smem_table_get(&t, (enum atl_smem_variant)v, n, e, c);
            if (!isnan(x) && !(x >= 0 && isfinite(x)))
              abort();
          }
      /* interpolation anywhere in range gives a finite, non-negative time or a reason */
      double T = 0;
      const double probes[][3] = {{0.5, 1, 0}, {1, 32, 1}, {2.5, 7.5, 1.25}, {200, 3, 100}, {3, 0.2, 0}};
      for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
        why[0] = '\0';
        int err = atl_smem_T(&t, (enum atl_smem_variant)v, probes[i][0], probes[i][1], probes[i][2], &T, NULL, why,
                             sizeof why);
        if ((err == 0 && !(T >= 0 && isfinite(T))) || (err != 0 && why[0] == '\0'))
          abort();
      }
    }
    atl_smem_table_release(&t);
  } else if (t.t[0] != NULL || t.t[1] != NULL || why[0] == '\0') {
    abort();
  }
  free(text);
  return 0;
}
