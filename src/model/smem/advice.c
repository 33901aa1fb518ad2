/*
 * Advice for a shared-memory atomic bottleneck: which device-library strategy removes the passes the counters
 * show, and the speedup the pass costs predict (docs/design/model.md, "Advice"). Amdahl on the unit's share of the
 * kernel: the strategy scales the unit's busy time by r, the rest of the kernel is taken as unchanged; and no
 * faster than the busiest SM sub-partition can issue the kernel's warp-instructions, nor than its DRAM bytes move
 * at the device's achievable share of peak (where counted).
 */
#include <string.h>

#include "atomlab/model.h"

/* Per-warp copies (warp-private, padded) remove the conflicts of the layout and of other warps, not those of the
 * keys: a warp's lanes on distinct words of one bank still take a pass each. Random keys over many words leave
 * their busiest bank's words (atl_smem_bank_passes: 3.5 for 32 lanes), so passes up to that are the keys' own
 * (the uniform histogram's 3.3) and a copy leaves them; only passes above it are removed. */
#define PRIVATIZED_GAIN 0.8 /* below this factor privatizing is worth advising; else the next strategy is */

static double privatized_factor(double passes)
{
  const double keys = atl_smem_bank_passes(0x1p20, 32, 1);
  return passes > keys ? keys / passes : 1;
}

void atl_smem_advise(const struct atl_smem_util *u, const struct atl_smem_counters *in, enum atl_smem_variant v,
                     double threshold, double dram_achievable, struct atl_smem_advice *out)
{
  memset(out, 0, sizeof *out);
  const struct atl_smem_unit *un = &u->unit;
  if (u->jobs <= 0 || strcmp(atl_smem_unit_verdict(un, threshold), "not a bottleneck") == 0)
    return;
  const double cas_share = u->jobs > 0 ? un->cas_jobs / u->jobs : 0;
  const double e = u->e > 1 ? u->e : 1;
  if (e >= 2 && !un->merged && (v == ATL_SMEM_USED || cas_share >= 0.5)) {
    /* ATOMS.ADD and CAS pay a pass per lane of a word; POPC.INC merges them already (no gain there) */
    out->strategy = "warp-aggregated";
    out->why = "lanes of a warp hit one word and serialize: combine them first (match-any / atl_warp_fetch: one "
               "atomic per warp and word)";
    out->factor = 1 / e;
  } else if (cas_share >= 0.5) {
    out->strategy = "native";
    out->why = "a CAS loop (float add or a custom op): a native atomic (integer or fixed-point ATOMS.ADD) costs a "
               "fetch-and-add pass instead of a CAS pass and never retries";
    out->factor = un->s_cas > un->s_fao ? un->s_fao / un->s_cas : 1; /* never predicts a slowdown */
  } else if (un->passes > 1.5 * e && privatized_factor(un->passes) < PRIVATIZED_GAIN) {
    out->strategy = "privatized";
    out->why = "bank conflicts beyond what random keys give: per-warp copies (warp-private, padded) leave only the "
               "keys' own conflicts";
    out->factor = privatized_factor(un->passes);
  } else {
    out->strategy = "byte-lanes";
    out->why = "one pass per job and still saturated: fewer atomics (byte-lanes / packed counters: 4 per word, "
               "flushed on overflow)";
    out->factor = 0.25;
  }
  const double share = un->u > 1 ? 1 : un->u;
  double after = u->time * ((1 - share) + share * out->factor); /* active cycles of the average SM, afterwards */
  /* whatever the atomics cost, the busiest sub-partition issues its warp-instructions one a cycle at most */
  if (in && in->have_issue && in->issue_cycles > after && in->issue_cycles < u->time) {
    after = in->issue_cycles;
    out->floored = 1;
  }
  /* nor faster than its DRAM traffic at the share of peak a streaming kernel achieves (peak where not
   * calibrated): the strategy leaves the bytes as they are */
  const double achievable = dram_achievable > 0 && dram_achievable <= 1 ? dram_achievable : 1;
  const double dram = in && in->have_dram ? in->dram_share / achievable : 0;
  if (dram * u->time > after && dram < 1) {
    after = dram * u->time;
    out->floored = 1;
  }
  out->speedup = after > 0 ? u->time / after : 1;
}
