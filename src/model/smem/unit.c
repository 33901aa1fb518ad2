/*
 * The unit model (docs/design/model.md, "The unit model"): the shared-memory atomic unit's work counted in
 * passes, each at the calibrated cost of its class, so that U = B / T is a utilization. The seed's
 * S(n, e, c) = T / n charges every job a share of the first job's latency and the start skew of the
 * calibration (U 16.6 on a CAS loop); the slope of T at e = 32 is the unit's own cost per pass.
 */
#include <math.h>
#include <stdio.h>

#include "atomlab/error.h"
#include "atomlab/model.h"

/* The marginal cycles per lane-pass of 32-lane one-word jobs between n/2 and n warps (c = 0 or c = n). */
static int slope(const struct atl_smem_table *t, int cas, double *out, char *why, size_t why_len)
{
  const enum atl_smem_variant v = t->t[ATL_SMEM_USED] ? ATL_SMEM_USED : ATL_SMEM_UNUSED;
  /* one block per SM (n <= 32): above it the second block's start skew is inside T (docs/design/model.md) */
  unsigned n2 = t->nmax < 32 ? t->nmax : 32;
  while (n2 >= 2 && isnan(atl_smem_table_get(t, v, n2, t->emax, cas ? n2 : 0)))
    n2--;
  unsigned n1 = n2 / 2;
  while (n1 >= 1 && isnan(atl_smem_table_get(t, v, n1, t->emax, cas ? n1 : 0)))
    n1--;
  if (n2 < 2 || n1 < 1 || t->emax < 1) {
    snprintf(why, why_len, "the table has no two measured n at e = %u (c = %s) to give the cost of a pass", t->emax,
             cas ? "n" : "0");
    return ATL_EINVAL;
  }
  const double d = atl_smem_table_get(t, v, n2, t->emax, cas ? n2 : 0) - atl_smem_table_get(t, v, n1, t->emax,
                                                                                               cas ? n1 : 0);
  *out = d / ((double)(n2 - n1) * t->emax);
  if (!(*out > 0) || !isfinite(*out)) {
    snprintf(why, why_len, "the table's T does not grow with n at e = %u (c = %s): no cost of a pass", t->emax,
             cas ? "n" : "0");
    return ATL_EINVAL;
  }
  return 0;
}

int atl_smem_pass_costs(const struct atl_smem_table *table, double *s_fao, double *s_cas, char *why, size_t why_len)
{
  int err = slope(table, 0, s_fao, why, why_len);
  if (err)
    return err;
  /* a table without CAS points: CAS passes cost what fetch-and-op passes do (said by the caller's flags) */
  if (slope(table, 1, s_cas, why, why_len) != 0)
    *s_cas = *s_fao;
  return 0;
}

const char *atl_smem_unit_class(const struct atl_smem_util *u, enum atl_smem_variant v)
{
  if (!(u->jobs > 0))
    return "-";
  if (u->unit.cas_jobs >= 0.5 * u->jobs)
    return "CAS";
  return u->unit.merged || (!u->unit.measured && v == ATL_SMEM_UNUSED) ? "POPC.INC" : "ADD";
}

const char *atl_smem_unit_verdict(const struct atl_smem_unit *u, double threshold)
{
  if (u->bound) /* the counters put U above a utilization: it is bounded, not measured */
    return "bound";
  if (u->measured || u->u_lo >= threshold)
    return u->u_lo >= threshold ? "bottleneck" : "not a bottleneck";
  /* passes not counted: the verdict holds only where the whole range lies on one side */
  return u->u_hi < threshold ? "not a bottleneck" : "bound";
}

/* Called by atl_smem_utilization once N, e and the lanes per job are known. */
int atl_smem__unit(const struct atl_smem_table *table, enum atl_smem_variant v, const struct atl_smem_counters *in,
                   double jobs, double lanes, double e, struct atl_smem_unit *u, unsigned *assumed, char *why,
                   size_t why_len)
{
  int err = atl_smem_pass_costs(table, &u->s_fao, &u->s_cas, why, why_len);
  if (err)
    return err;
  const double total = in->fao_jobs + in->cas_jobs;
  const double cas_share = total > 0 ? in->cas_jobs / total : 0;
  u->fao_jobs = jobs * (1 - cas_share);
  u->cas_jobs = jobs * cas_share;
  /* cycles per pass: a counted pass (wavefront) costs s_fao whatever its class (the H100's shared CAS loop on one
   * word: 36.7 wavefronts and 37.5 cycles a job); s_cas is the cost of a CAS *lane* (about two wavefronts), used
   * where the passes are estimated from lanes */
  const double s_job = in->have_wavefronts ? u->s_fao : cas_share * u->s_cas + (1 - cas_share) * u->s_fao;
  if (in->have_wavefronts && !(in->wavefronts >= 0 && isfinite(in->wavefronts))) {
    snprintf(why, why_len, "shared-atomic wavefronts %g: not a count", in->wavefronts);
    return ATL_EINVAL;
  }
  if (in->have_wavefronts) {
    u->measured = 1;
    /* a CAS instruction takes one pass beyond its data wavefronts (the compare before the write): the H100's
     * float add loop (ATOMS.CAST.SPIN, 32 lanes on a word) counts 2 wavefronts an instruction and takes 3.0
     * cycles, the u32 CAS loop on a word 36.7 and 37.5 (docs/design/model.md, "The unit model") */
    u->passes = u->passes_hi = (in->wavefronts + in->cas_jobs) / total;
    /* 32 lanes of ATOMS.ADD on a word take 32 passes, of ATOMS.POPC.INC one (the H200's hist-case export) */
    u->merged = e >= 2 && u->passes < 0.75 * e && cas_share < 0.5;
  } else {
    /* the fewest: a fetch-and-add or CAS serializes the lanes of a word (at least e passes); POPC.INC merges
     * them (at least one); the most: one pass per lane (every lane on its own bank conflict) */
    *assumed |= ATL_SMEM_NO_PASSES;
    const double fao_lo = v == ATL_SMEM_UNUSED ? 1 : (e > 1 ? e : 1);
    /* a CAS loop's retries run with ever fewer lanes (e, e - 1, .. 1 on a word: (e + 1) / 2 on average); where the
     * lanes are not counted, that is the fewest a CAS job can have */
    const double cas_lo = (in->have_ops ? e : (e + 1) / 2) > 1 ? (in->have_ops ? e : (e + 1) / 2) : 1;
    u->passes = (1 - cas_share) * fao_lo + cas_share * cas_lo;
    u->passes_hi = lanes > u->passes ? lanes : u->passes;
  }
  u->busy = jobs * u->passes * s_job;
  u->u_lo = u->busy / in->active_cycles;
  u->u_hi = jobs * u->passes_hi * s_job / in->active_cycles;
  /* above ATL_SMEM_U_MAX the counters contradict the pass costs (a class the calibration lacks): U is only
   * known to be high, and is printed as the cap 1 with verdict "bound", never as a utilization above 1 */
  u->bound = u->u_lo > ATL_SMEM_U_MAX;
  u->u = u->bound ? 1.0 : u->u_lo;
  return 0;
}
