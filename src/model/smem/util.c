/* Table 2 of seed 002: from the counters of one kernel to the utilization of the shared-memory atomic unit. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "atomlab/error.h"
#include "atomlab/model.h"

int atl_smem__unit(const struct atl_smem_table *table, enum atl_smem_variant v, const struct atl_smem_counters *in,
                   double jobs, double lanes, double e, struct atl_smem_unit *u, unsigned *assumed, char *why,
                   size_t why_len); /* unit.c */

int atl_smem_utilization(const struct atl_smem_table *table, enum atl_smem_variant v,
                         const struct atl_smem_counters *in, struct atl_smem_util *out, char *why, size_t why_len)
{
  memset(out, 0, sizeof *out);
  if (!(in->sm_count >= 1) || !(in->warps_per_sm >= 1)) {
    snprintf(why, why_len, "the SM count (%g) and warps per SM (%g) must be at least 1", in->sm_count,
             in->warps_per_sm);
    return ATL_EINVAL;
  }
  if (!(in->fao_jobs >= 0) || !(in->cas_jobs >= 0) || !(in->ops >= 0) || !isfinite(in->fao_jobs) ||
      !isfinite(in->cas_jobs) || !isfinite(in->ops)) {
    snprintf(why, why_len, "atomic counters must be finite and not negative (N_f=%g N_c=%g O=%g)", in->fao_jobs,
             in->cas_jobs, in->ops);
    return ATL_EINVAL;
  }
  if (!(in->occupancy >= 0) || in->occupancy > 1 + 1e-9) {
    snprintf(why, why_len, "achieved occupancy %g is outside 0..1", in->occupancy);
    return ATL_EINVAL;
  }
  const double total = in->fao_jobs + in->cas_jobs; /* sum over SMs of N(i) = N_f(i) + N_c(i) */
  out->time = in->active_cycles;
  if (total == 0) /* no shared atomics: the unit is idle */
    return 0;
  if (!(in->active_cycles > 0) || !isfinite(in->active_cycles)) {
    snprintf(why, why_len, "active cycles per SM must be > 0 (got %g)", in->active_cycles);
    return ATL_EINVAL;
  }
  if (!in->have_ops && !in->have_words) {
    snprintf(why, why_len, "neither O (thread-level shared atomic operations) nor the distinct words of shared atomics "
                           "is in the counters, so e cannot be derived");
    return ATL_EINVAL;
  }
  /* NCU reports totals: the average SM gets an equal share (docs/design/model.md, assumptions) */
  out->jobs = total / in->sm_count;
  out->n_hat = in->occupancy * in->warps_per_sm;
  out->c = out->n_hat * in->cas_jobs / total;
  if (out->c > out->n_hat) /* all CAS: the share's rounding may put c an ulp above n (H100 scatter block kernel) */
    out->c = out->n_hat;
  if (!in->have_cas)
    out->assumed |= ATL_SMEM_NO_CAS_COUNT;
  /*
   * e is the table's axis: lanes that hit ONE word (the calibration put all e lanes of a warp on one
   * word, so S(e) is the cost of e-way serialization). Lanes per job / distinct words per job gives
   * that for a real kernel; without a lane count every job is taken as a full warp, without a word
   * count all lanes as one word (the seed's e = O / N).
   */
  double lanes = in->have_ops ? in->ops / total : ATL_SMEM_MAX_E;
  if (!in->have_ops)
    out->assumed |= ATL_SMEM_ASSUME_FULL_WARPS;
  if (lanes > ATL_SMEM_MAX_E + 1e-9) {
    snprintf(why, why_len, "O / N = %g lanes per job exceeds a warp's %d lanes: the counters disagree", lanes,
             ATL_SMEM_MAX_E);
    return ATL_EINVAL;
  }
  if (in->have_words) {
    double words = in->words / total;
    if (!(words > 0) || !isfinite(words)) {
      snprintf(why, why_len, "%g distinct words per job: shared atomics ran but touched no words, the counters "
                             "disagree", words);
      return ATL_EINVAL;
    }
    /* the byte counter counts payload: a 64-bit or two-word atomic (CAS compare and swap values of a float
     * CAS loop: the scatter block kernel's 47 "words" per job) has more words than lanes; a lane touches
     * one word, so words above the lanes are capped and said */
    if (words > lanes) {
      words = lanes;
      out->assumed |= ATL_SMEM_PAYLOAD_WORDS;
    }
    out->e = lanes / words;
  } else {
    out->e = lanes;
    out->assumed |= ATL_SMEM_ASSUME_ONE_WORD;
  }
  if (out->e < 2)
    out->assumed |= ATL_SMEM_LATENCY_BOUND;
  if (out->n_hat <= 0) {
    snprintf(why, why_len, "n-hat = occupancy x warps per SM is 0 although the kernel ran shared atomics");
    return ATL_EINVAL;
  }
  int err = atl_smem__unit(table, v, in, out->jobs, lanes, out->e, &out->unit, &out->assumed, why, why_len);
  if (err)
    return err;
  err = atl_smem_S(table, v, out->n_hat, out->e < 1 ? 1 : out->e, out->c, &out->service, &out->clamped, why,
                       why_len);
  if (err)
    return err;
  out->busy = out->jobs * out->service;
  out->utilization = out->busy / out->time;
  /* the pipelined alternative, reported beside the seed's where the table allows (n = 1 measured) */
  char ignored[160];
  int clamp2 = 0;
  if (atl_smem_S_pipelined(table, v, out->n_hat, out->e < 1 ? 1 : out->e, out->c, &out->service_pipelined, &clamp2,
                           ignored, sizeof ignored) == 0)
    out->busy_pipelined = out->jobs * out->service_pipelined;
  else
    out->service_pipelined = out->busy_pipelined = NAN;
  return 0;
}

void atl_smem_assumptions_text(unsigned assumed, char *buf, size_t len)
{
  static const struct {
    unsigned bit;
    const char *text;
  } notes[] = {
      {ATL_SMEM_ASSUME_FULL_WARPS, "no thread-level atomic count: every job taken as 32 active lanes"},
      {ATL_SMEM_ASSUME_ONE_WORD, "no distinct-word count: all lanes of a job taken to hit one word"},
      {ATL_SMEM_LATENCY_BOUND, "e < 2: the table's S is mostly one atomic's latency / n there, U is an upper bound"},
      {ATL_SMEM_NO_CAS_COUNT, "no CAS count: CAS modelled as fetch-and-op"},
      {ATL_SMEM_PAYLOAD_WORDS, "more payload words than lanes per job (64-bit or CAS payloads): words capped at the lanes"},
      {ATL_SMEM_NO_PASSES, "no wavefront count: passes per job bounded (lanes per word .. lanes), U is a range"},
  };
  size_t used = 0;
  if (len)
    buf[0] = '\0';
  for (size_t i = 0; i < sizeof notes / sizeof notes[0]; i++)
    if ((assumed & notes[i].bit) && used < len) {
      int w = snprintf(buf + used, len - used, "%s%s", used ? "; " : "", notes[i].text);
      if (w < 0)
        break;
      used += (size_t)w;
    }
}
