/*
 * The unit model (docs/design/model.md, "The unit model") on recorded exports, kernels whose answer is known:
 * - REAL H100 rmw loops (no wavefront count): shared fetch_add with 32 lanes on one word and CAS loops that
 *   retry on one word are bottlenecks with U <= 1.15 (the seed's model gave 1.3-1.9); CAS on distinct words is
 *   "bound" (without a pass count the range straddles the threshold); global kernels U = 0; every U <= 1.15;
 * - REAL H200 hist-case rows (wavefronts counted): solid ATOMS.ADD saturates (32 passes a job, U 0.95-1.05),
 *   POPC.INC on the same image merges the lanes (1 pass, U < 0.5), the seed's U there was 3.9;
 * - SYNTHETIC many-words CAS loop (47.5 words per job, as the H200 scatter block kernel): derived, not an
 *   error, words capped and said; with 40 passes a job it is "bound" with U printed as the cap 1;
 * - advice: warp-aggregated for one-word ADD and CAS with r = 1 / e; native for CAS on distinct words.
 */
#include <stdlib.h>
#include <string.h>

#include "atomlab/model.h"
#include "check.h"
#include "core/text.h"

static int load(const char *table_path, const char *csv, struct atl_smem_table *t, struct atl_ncu_report *r)
{
  char why[512] = "";
  if (!CHECK(atl_smem_table_read_csv(table_path, t, why, sizeof why) == 0)) {
    CHECK_CONTEXT("%s", why);
    return -1;
  }
  char *text = atl__read_text_file(csv, 1 << 22);
  int ok = CHECK(text != NULL) && CHECK(atl_ncu_parse_csv(text, csv, 0, 0, r, why, sizeof why) == 0);
  if (!ok)
    CHECK_CONTEXT("%s: %s", csv, why);
  free(text);
  if (!ok)
    atl_smem_table_release(t);
  return ok ? 0 : -1;
}

/* The unit model of one kernel; 1, or 0 (a failed check) with the library's reason. */
static int util_of(const struct atl_smem_table *t, enum atl_smem_variant v, const struct atl_smem_counters *k,
                   struct atl_smem_util *u)
{
  char why[512] = "";
  if (CHECK(atl_smem_utilization(t, v, k, u, why, sizeof why) == 0))
    return 1;
  CHECK_CONTEXT("kernel %s: %s", k->id, why);
  return 0;
}

/* @p check on each of the @p count kernels of the export @p csv (the ATOMS.ADD model) against @p table. */
static void each_kernel(const char *table, const char *csv, size_t count,
                        void (*check)(const struct atl_smem_counters *k, size_t i, const struct atl_smem_util *u))
{
  struct atl_smem_table t;
  struct atl_ncu_report r;
  if (load(table, csv, &t, &r))
    return;
  CHECK(r.count == count);
  for (size_t i = 0; i < r.count; i++) {
    struct atl_smem_util u;
    if (util_of(&t, ATL_SMEM_USED, &r.kernels[i], &u))
      check(&r.kernels[i], i, &u);
  }
  atl_ncu_report_release(&r);
  atl_smem_table_release(&t);
}

static void h100_rmw(void)
{
  struct atl_smem_table t;
  struct atl_ncu_report r;
  if (load(ATL_TEST_DATA_DIR "/smem-table-h100-trim.csv", ATL_TEST_DATA_DIR "/ncu-h100-rmw.csv", &t, &r))
    return;
  for (size_t i = 0; i < r.count; i++) {
    struct atl_smem_util u;
    if (!util_of(&t, ATL_SMEM_USED, &r.kernels[i], &u))
      continue;
    const int id = atoi(r.kernels[i].id);
    const char *v = atl_smem_unit_verdict(&u.unit, 0.8);
    struct atl_smem_advice a;
    atl_smem_advise(&u, &r.kernels[i], ATL_SMEM_USED, 0.8, 0, &a);
    CHECK(u.unit.u <= ATL_SMEM_U_MAX && u.unit.u >= 0);
    CHECK(!u.unit.measured && (id == 0 || id >= 17 || (u.assumed & ATL_SMEM_NO_PASSES)));
    if (id == 0 || id >= 17) {
      CHECK(u.unit.u == 0 && strcmp(v, "not a bottleneck") == 0 && a.strategy == NULL);
    } else if (id == 3 || id == 4 || id == 7 || id == 8) { /* fetch_add, 32 lanes on one word */
      CHECK(u.unit.u >= 0.9 && u.unit.u <= 1.15 && strcmp(v, "bottleneck") == 0);
      CHECK_NEAR(u.unit.passes, 32);
      CHECK(a.strategy && strcmp(a.strategy, "warp-aggregated") == 0);
      CHECK_NEAR(a.factor, 1.0 / 32);
    } else if (id == 11 || id == 12 || id == 15 || id == 16) { /* CAS loop retrying on one word */
      CHECK(u.unit.u >= 0.8 && u.unit.u <= 1.15 && strcmp(v, "bottleneck") == 0);
      CHECK_NEAR(u.unit.passes, 16.5); /* (32 + 1) / 2 lanes a retry on average */
      CHECK(strcmp(atl_smem_unit_class(&u, ATL_SMEM_USED), "CAS") == 0);
      CHECK_NEAR(u.unit.cas_jobs, u.jobs);
      CHECK(u.utilization > 1.15); /* the seed's B / T, which this model replaces */
    } else if (id >= 9 && id <= 14) { /* CAS on 32 distinct words: 1 to 32 passes, the counters cannot tell */
      CHECK(strcmp(v, "bound") == 0 && u.unit.u_lo < 0.8 && u.unit.u_hi >= 0.8);
      CHECK(a.strategy && strcmp(a.strategy, "native") == 0 && a.speedup > 1);
    }
    if (check_failures)
      CHECK_CONTEXT("kernel %d: U %g [%g, %g] passes %g verdict %s", id, u.unit.u, u.unit.u_lo, u.unit.u_hi,
                    u.unit.passes, v);
  }
  atl_ncu_report_release(&r);
  atl_smem_table_release(&t);
}

static void h200_hist(void)
{
  struct atl_smem_table t;
  struct atl_ncu_report r;
  if (load(ATL_TEST_DATA_DIR "/smem-table-h200-trim.csv", ATL_TEST_DATA_DIR "/ncu-h200-hist-case-trim.csv", &t, &r))
    return;
  CHECK(r.count == 8);
  for (size_t i = 0; i < r.count; i++) {
    /* the rows alternate POPC.INC (unused) and ATOMS.ADD (used): ids 27, 55, ... (tests/data/README.md) */
    const int used = (i % 2) == 1;
    struct atl_smem_util u;
    if (!util_of(&t, used ? ATL_SMEM_USED : ATL_SMEM_UNUSED, &r.kernels[i], &u))
      continue;
    CHECK(u.unit.measured && u.unit.u <= ATL_SMEM_U_MAX && u.unit.u_lo == u.unit.u_hi);
    if (i == 1) { /* histogram, solid, ATOMS.ADD */
      CHECK_NEAR(u.unit.passes, 32);
      CHECK(u.unit.u >= 0.95 && u.unit.u <= 1.05);
      CHECK(strcmp(atl_smem_unit_verdict(&u.unit, 0.8), "bottleneck") == 0);
    }
    /* the class from the counters alone (the variant given is ADD): POPC.INC where a word's lanes took one pass */
    CHECK(strcmp(atl_smem_unit_class(&u, ATL_SMEM_USED), (i == 0 || i == 4) ? "POPC.INC" : "ADD") == 0);
    if (i == 0) { /* histogram, solid, POPC.INC: one pass, the unit is not what bounds it */
      CHECK_NEAR(u.unit.passes, 1);
      CHECK(u.unit.u < 0.5 && u.utilization > 2);
    }
  }
  atl_ncu_report_release(&r);
  atl_smem_table_release(&t);
}

static void many_words(const struct atl_smem_counters *k, size_t i, const struct atl_smem_util *u)
{
  (void)k;
  CHECK(u->assumed & ATL_SMEM_PAYLOAD_WORDS);
  CHECK_NEAR(u->e, 1);
  CHECK(u->unit.u <= 1.0);
  const char *v = atl_smem_unit_verdict(&u->unit, 0.8);
  CHECK(strcmp(v, i == 0 ? "not a bottleneck" : "bound") == 0);
  CHECK(i == 0 || (u->unit.bound && u->unit.u_lo > ATL_SMEM_U_MAX));
}

/* REAL H100 exports (wavefronts counted): a CAS instruction takes one pass beyond its wavefronts. The
 * float add loop (ATOMS.CAST.SPIN, 32 lanes on one word: 2 wavefronts, 3.0 cycles an instruction) is a bottleneck
 * only with it (2 passes: U 0.67); PyTorch's float histc on one key (the same loop) too; on uniform keys it is not. */
static void h100_cas_pass(const struct atl_smem_counters *k, size_t i, const struct atl_smem_util *u)
{
  (void)i;
  const int id = atoi(k->id);
  const char *v = atl_smem_unit_verdict(&u->unit, 0.8);
  CHECK(u->unit.measured && u->unit.u <= ATL_SMEM_U_MAX);
  CHECK(strcmp(atl_smem_unit_class(u, ATL_SMEM_USED), "CAS") == 0);
  CHECK_NEAR(u->unit.passes, k->wavefronts / (k->fao_jobs + k->cas_jobs) + 1);
  if (id == 6 || id == 8 || id == 20 || id == 21) /* u32 CAS / f32 adds on one word; torch's histc, one key */
    CHECK(strcmp(v, "bottleneck") == 0 && u->unit.u >= 0.85);
  else /* torch's histc on uniform keys; u32 CAS on distinct words (U 0.66: 5.7 cycles an instruction) */
    CHECK(strcmp(v, "not a bottleneck") == 0);
  if (id == 8)
    CHECK(u->unit.passes > 2.99 && u->unit.passes < 3.01 && u->unit.u >= 0.95);
  if (check_failures)
    CHECK_CONTEXT("kernel %d: U %g passes %g verdict %s", id, u->unit.u, u->unit.passes, v);
}

int main(void)
{
  h100_rmw();
  each_kernel(ATL_TEST_DATA_DIR "/smem-table-h100-trim.csv", ATL_TEST_DATA_DIR "/ncu-h100-shared-cas-r5b.csv", 7,
              h100_cas_pass);
  h200_hist();
  each_kernel(ATL_TEST_DATA_DIR "/smem-table-h200-trim.csv", ATL_TEST_DATA_DIR "/ncu-many-words-synthetic.csv", 2,
              many_words);
  return check_exit("test_smem_unit");
}
