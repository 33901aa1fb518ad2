/*
 * libFuzzer harness: Nsight Compute CSV exports as `model util --counters` and `profile` read them, and the
 * derivations that follow the reader (the unit model, its verdict and advice, every writer): whatever the
 * counters, a derived U is at most ATL_SMEM_U_MAX, finite, and the advice's speedup finite and at least 1. The
 * diagnosis's launches (src/profile/launches.c: devices and NVTX ranges) are read off the same export.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"
#include "profile_internal.h"
#include "fuzz_text.h"

/* A small table (T = 100 + 2 n e + 3 c, n 1..4, e 1..32) that every kernel is derived against. */
static struct atl_smem_table *table(void)
{
  static struct atl_smem_table t;
  static int made;
  if (!made) {
    if (atl_smem_table_init(&t, 4, 32) != 0)
      abort();
    for (int v = 0; v < ATL_SMEM_VARIANTS; v++)
      for (unsigned n = 1; n <= 4; n++)
        for (unsigned e = 1; e <= 32; e++)
          for (unsigned c = 0; c <= n; c++)
            atl_smem_table_set(&t, (enum atl_smem_variant)v, n, e, c, 100 + 2.0 * n * e + 3.0 * c);
    made = 1;
  }
  return &t;
}

static void derive(const struct atl_ncu_report *r)
{
  struct atl_smem_settings s;
  atl_smem_settings_init(&s);
  struct atl_smem_util_set set;
  if (atl_smem_util_derive(table(), &s, r, &set) != 0)
    abort();
  for (size_t i = 0; i < set.count; i++) {
    const struct atl_smem_kernel_util *x = &set.kernels[i];
    if (x->err)
      continue;
    const struct atl_smem_unit *u = &x->util.unit;
    if (!(u->u >= 0 && u->u <= ATL_SMEM_U_MAX) || !isfinite(u->u_lo) || !isfinite(u->u_hi) || u->u_hi < u->u_lo)
      abort();
    struct atl_smem_advice a;
    atl_smem_advise(&x->util, &x->counters, s.variant, s.threshold, s.dram_achievable, &a);
    if (a.strategy && !(isfinite(a.speedup) && a.speedup >= 1 - 1e-9))
      abort();
  }
  FILE *f = fopen("/dev/null", "w");
  if (f) {
    atl_smem_util_write(f, ATL_FORMAT_CSV, &set, &(struct atl_smem_util_labels){NULL, "t", "c"});
    atl_smem_util_write(f, ATL_FORMAT_TABLE, &set, &(struct atl_smem_util_labels){NULL, "t", "c"});
    fclose(f);
  }
  atl_smem_util_set_release(&set);
}

/* The launches as atl_diagnose names them: every text terminated; a refusal allocates nothing and says why. */
static void launches(const char *text)
{
  struct atl_ncu_export *e;
  char why[256] = "";
  if (atl_ncu_export_parse(text, "fuzz", &e, why, sizeof why) != 0)
    abort();
  struct atl__launch *l;
  size_t n;
  why[0] = '\0';
  if (atl__launches_from_export(e, &l, &n, why, sizeof why) == 0) {
    for (size_t i = 0; i < n; i++)
      if (memchr(l[i].id, '\0', sizeof l[i].id) == NULL || memchr(l[i].nvtx, '\0', sizeof l[i].nvtx) == NULL ||
          memchr(l[i].device_name, '\0', sizeof l[i].device_name) == NULL)
        abort();
    free(l);
  } else if (l != NULL || n != 0 || why[0] == '\0') {
    abort();
  }
  atl_ncu_export_free(e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *text = fuzz_text(data, size);
  if (text == NULL)
    return 0;
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
    derive(&r);
    atl_ncu_report_release(&r);
  } else if (r.count != 0 || r.kernels != NULL || why[0] == '\0') {
    abort();
  }
  launches(text);
  free(text);
  return 0;
}
