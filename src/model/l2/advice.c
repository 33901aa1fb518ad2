/*
 * The predicted speedup of each strategy the L2 advice names for hot words (include/atomlab/l2model.h,
 * docs/design/model.md "Advice"): not a fitted factor but what the strategy does to the counters. The time after is
 * the largest of the work it leaves on each unit, each at its calibrated cost, and of two floors that no
 * strategy moves: the kernel's DRAM bytes at the device's achievable share of peak, and its warp-instructions
 * at one a cycle on the busiest sub-partition.
 */
#include <math.h>
#include <string.h>

#include "atomlab/l2model.h"
#include "atomlab/model.h"

/* after = max(l2, smem, latency, dram, issue); the speedup and which term set it */
static void finish(struct atl_l2_strategy *s, double duration_ns, double dram_ns, double issue_ns)
{
  static const char *const names[] = {"L2", "shared", "latency", "DRAM", "issue"};
  const double terms[] = {s->l2_ns, s->smem_ns, s->chain_ns, dram_ns, issue_ns};
  s->after_ns = 0;
  s->bound_by = names[0];
  for (int i = 0; i < 5; i++)
    if (terms[i] > s->after_ns) {
      s->after_ns = terms[i];
      s->bound_by = names[i];
    }
  s->speedup = s->after_ns > 0 ? duration_ns / s->after_ns : 0;
}

/* A line lives on one slice, but a hot word's requests are counted on about 1.5 slices' worth (one hot word's
 * solid histogram, H100 and H200: sum / max 1.5); twice that comes from several lines (the uniform u8 histogram's
 * 8 lines: 3.0). Requests per warp-instruction from this share of the warp up are lanes on one word. */
#define SEVERAL_SLICES 2.0
#define ONE_WORD_LANES 0.9

double atl_l2_key_words(const struct atl_l2_counters *k)
{
  if (!(k->l1_requests > 0) || !(k->l1_set_accesses > 0))
    return -1;
  const double warp = k->warp_size > 0 ? k->warp_size : 32;
  const unsigned lanes = (unsigned)warp;
  const double r = fmin(fmax(k->l1_set_accesses / k->l1_requests, 1), warp);
  if (r < atl_l2_requests_per_instruction(32, lanes))
    return 0; /* fewer than random keys in one line give: coalesced lanes on distinct words */
  /* nearly every lane its own request: lanes on one word (a hot launch's lanes are not each on their own line) */
  const int several =
      r < ONE_WORD_LANES * warp && k->requests_max > 0 && k->requests / k->requests_max >= SEVERAL_SLICES;
  return atl_l2_words_from_requests(r, lanes, several);
}

double atl_l2_hot_updates(const struct atl_l2_counters *k)
{
  double updates = k->requests_max;
  if (k->sectors_max > 0 && k->sector_misses_max > 0) /* never above one update a request */
    updates = fmin(updates, k->sectors_max / k->sector_misses_max);
  return updates;
}

/*
 * The shared passes of the privatized table: each warp-instruction pays its busiest bank (src/model/smem/banks.c),
 * for keys uniform over atl_l2_key_words; coalesced lanes on distinct words take one pass. Without the L1
 * counters, one pass per ATOM request and per RED warp-instruction and word (the hot slice's requests).
 */
static double privatized_passes(const struct atl_l2_counters *k, struct atl_l2_prediction *out, double warp)
{
  const double w = atl_l2_key_words(k);
  if (w < 0 || !(k->atom_requests + k->red_requests > 0))
    return k->atom_max + k->red_max / out->lanes;
  double atom_pass = 1, red_pass = 1;
  if (w > 0) {
    out->words = w;
    atom_pass = atl_smem_bank_passes(w, (unsigned)warp, 0);
    red_pass = atl_smem_bank_passes(w, (unsigned)warp, 1);
  }
  const double atom_share = k->atom_requests / (k->atom_requests + k->red_requests);
  out->bank_passes = atom_share * atom_pass + (1 - atom_share) * red_pass;
  return k->l1_requests * out->bank_passes;
}

/*
 * Float adds moved to a private table are CAS loops in shared memory (sm_90: ATOMS.CAST.SPIN), and a warp waits for its
 * loop before its next row: its time is its rows' loads, then its loops, one after the other.
 *  - The loops: the block's warps contend for the table's words (every warp of a block adds to its table), E = the
 *    block's warps; with E contenders a word takes an update every c(E) SM cycles (atl_l2_chain_cycles), so a warp's
 *    loop takes E x c(E). Each warp-slot of the SM (tables resident a SM, atl_l2_private_blocks, the table's shared
 *    memory counted, x warps a block) runs its share of the launch's atomic warp-instructions (the L1's, else the L2's
 *    requests). At least the hot word's own chain: its updates (the hot slice's sector accesses over its distinct
 *    sectors where counted, else its requests), split over the grid's tables, in waves of SMs x tables.
 *  - The loads: the streaming calibration reached the DRAM floor's bandwidth with its resident warps (cal->dram_warps,
 *    Little's law: bytes in flight = warps x a warp's bytes); fewer warps with the same loads in flight reach that
 *    share of it, so the floor stretches by dram_warps / the table's warps (never below the floor).
 *  - The table: each block clears it and reads it back to flush it, its bytes twice in passes of 32 banks at the
 *    calibrated pass cost (cal->s_pass), the SM's blocks one after another.
 * With a load's round trip calibrated (cal->round_trip) a warp's time is its rows, one after another, each a
 * chain of dependent steps: the row's key (one round trip to find its slot), then per step the operand's load (a
 * round trip: the load sits in the slot's branch) and its CAS loop (E x c(E)). Steps a row: the launch's atomic
 * warp-instructions over the hot word's updates (a row of 64 floats: two lines, two loops), at least 1 (a row of 16
 * floats: one loop of half the lanes, two rows to an atomic instruction). Rows a warp: the hot word's updates over the
 * grid's warps; the blocks run in waves of SMs x tables, the last wave's blocks whole (the kernel ends with them). The
 * loads never beat the DRAM floor. A loop's contenders: the block's warps that are in their loops at the time, the
 * others waiting for their loads (with all E contending, E x c(E) overpriced the loops 2.6x against the H100's stall
 * samples of the hot-row scatter; reference run: diagnose). Loads are not priced by their bytes (Little's law at the
 * streaming calibration's warps): that gives a row of one line half the wait of a row of two, and both wait whole
 * round trips.
 * 0 where the adds are integers (ATOMS.ADD / POPC.INC: no loop, the warp does not wait) or a number is missing.
 */
static double chain_ns(const struct atl_l2_calibration *cal, const struct atl_l2_counters *k, double sm_per_ns,
                       double warp, struct atl_l2_prediction *out)
{
  if (cal->chain_count == 0 || !(k->f32_share > 0) || !(sm_per_ns > 0) || !(k->sm_count > 0) ||
      !(k->grid_size > 0) || !(k->block_size > 0))
    return 0;
  const double tables = atl_l2_private_blocks(k, cal->table_bytes);
  if (!(tables > 0))
    return 0;
  const double updates = atl_l2_hot_updates(k);
  out->chain_warps = ceil(k->block_size / warp);
  out->chain_cycles = atl_l2_chain_cycles(cal, out->chain_warps);
  out->chain_updates = updates;
  out->tables = tables;
  const double warps = tables * out->chain_warps; /* warp-slots a SM */
  const double instructions = k->l1_requests > 0 ? k->l1_requests : k->requests;
  const double waves = ceil(k->grid_size / (k->sm_count * tables));
  if (cal->round_trip > 0 && updates > 0) { /* a warp's rows, each (1 + steps) round trips and steps loops */
    out->steps = fmax(1, instructions / updates);
    const double rows = waves * updates / k->grid_size / out->chain_warps; /* a warp-slot's rows, one after another */
    /* a block's other warps contend for a word only while they are in their own loops, the rest of their row they
     * wait for loads: the contenders a loop meets are 1 + (E - 1) x the loops' share of a row, a fixed point (e x c(e)
     * rises with e in every calibration, so the map rises and stays in [1, E]: iterated from E it falls to it) */
    double e = out->chain_warps, loop = 0;
    for (int i = 0; i < 100; i++) {
      loop = k->f32_share * out->steps * e * atl_l2_chain_cycles(cal, e);
      e = 1 + (out->chain_warps - 1) * loop / ((1 + out->steps) * cal->round_trip + loop);
    }
    out->contenders = e;
    out->chain_cycles = atl_l2_chain_cycles(cal, e);
    out->loop_ns = rows * loop / sm_per_ns;
    out->load_ns = fmax(rows * (1 + out->steps) * cal->round_trip / sm_per_ns, out->dram_ns);
  } else {
    const double word = waves * (updates / k->grid_size) * out->chain_cycles;
    const double loop = instructions / (k->sm_count * warps) * out->chain_warps * out->chain_cycles;
    out->loop_ns = k->f32_share * fmax(word, loop) / sm_per_ns;
    out->load_ns = out->dram_ns * (cal->dram_warps > 0 ? fmax(1, cal->dram_warps / warps) : 1);
  }
  /* each block clears its table and reads it back to flush: its bytes twice through the 32 banks a block */
  out->table_ns = k->grid_size / k->sm_count * 2 * ceil(fmax(cal->table_bytes, 0) / (4 * warp)) * cal->s_pass /
                  sm_per_ns;
  return out->load_ns + out->loop_ns + out->table_ns;
}

void atl_l2_predict(const struct atl_l2_calibration *cal, const struct atl_l2_counters *k, const struct atl_l2_util *u,
                    struct atl_l2_prediction *out)
{
  memset(out, 0, sizeof *out);
  const double t = k->duration_ns, r_max = k->requests_max;
  if (u->access != ATL_L2_HOT || !(t > 0) || !(r_max > 0) || !(k->l2_cycles > 0) || !(u->busy > 0))
    return;
  const double l2_per_ns = k->l2_cycles / t;
  const double per_request = u->busy / r_max; /* this kernel's L2 cycles per hot-slice request (input floor included) */
  const double warp = k->warp_size > 0 ? k->warp_size : 32;
  /* Lanes of one warp-instruction that reach a hot word as separate requests: the L2 merges lanes on distinct
   * words of one line into one request but not lanes on one word (the rmw exports: 32 set accesses per
   * instruction at contention 32, 1 at contention 1), so the L1's set accesses per request count them where the
   * export has them; else the launch bounds them: a warp, or a smaller block. */
  if (k->l1_requests > 0 && k->l1_set_accesses > 0) {
    out->lanes = fmin(fmax(k->l1_set_accesses / k->l1_requests, 1), warp);
    out->lanes_counted = 1;
  } else {
    out->lanes = k->block_size > 0 && k->block_size < warp ? k->block_size : warp;
  }
  const double sm_per_ns = k->sm_elapsed > 0 ? k->sm_elapsed / t : k->clock_khz > 0 ? k->clock_khz / 1e6 : 0;
  const double share = cal->dram_share > 0 && cal->dram_share <= 1 ? cal->dram_share : 1;
  /* the bytes stay: counted, at the bandwidth the streaming kernel achieved (exact); else the share of peak
   * (ncu prints it with two decimals: 0.03% is 0.025-0.035) over the achievable share */
  if (k->dram_bytes > 0 && cal->dram_bytes_per_ns > 0) {
    out->dram_ns = fmin(k->dram_bytes / cal->dram_bytes_per_ns, t);
    out->dram_bytes = 1;
  } else {
    out->dram_ns = k->dram_pct > 0 ? fmin(t * k->dram_pct / 100 / share, t) : 0;
  }
  out->issue_ns = k->issue_max > 0 && sm_per_ns > 0 ? k->issue_max / sm_per_ns : 0;
  const int smem = cal->s_pass > 0 && k->sm_count > 0 && sm_per_ns > 0;
  /* shared-memory passes over the SMs, in ns */
#define SMEM_NS(passes) (smem ? (passes) / k->sm_count * cal->s_pass / sm_per_ns : 0)

  struct atl_l2_strategy *s = out->s;
  s[0] = (struct atl_l2_strategy){.name = "warp-aggregated", .l2_ns = r_max / out->lanes * per_request / l2_per_ns};
  out->count = 1;
  if (k->grid_size > 0) {
    /* one flush per block and hot word (a hot slice serves at least one), the chain of them at this kernel's cost */
    const double flush_ns = fmin(k->grid_size, r_max) * per_request / l2_per_ns;
    /* block-aggregated: the warp combines its lanes first, one shared atomic per warp-instruction and word */
    s[1] = (struct atl_l2_strategy){.name = "block-aggregated", .l2_ns = flush_ns,
                                    .smem_ns = SMEM_NS(r_max / out->lanes)};
    /* privatized: every element a shared atomic of the same kind; the table's used variant (ATOMS.ADD, an ATOM's
     * result used) pays a pass per lane of a word, its unused variant (ATOMS.POPC.INC, a RED) one per word */
    s[2] = (struct atl_l2_strategy){.name = "privatized", .l2_ns = flush_ns,
                                    .smem_ns = SMEM_NS(privatized_passes(k, out, warp))};
    s[1].chain_ns = s[2].chain_ns = chain_ns(cal, k, sm_per_ns, warp, out);
    out->count = 3;
  }
#undef SMEM_NS
  for (size_t i = 0; i < out->count; i++)
    finish(&s[i], t, out->dram_ns, out->issue_ns);
  for (size_t i = 1; i < out->count; i++) /* best first; ties keep the order above (stable) */
    for (size_t j = i; j > 0 && s[j].speedup > s[j - 1].speedup; j--) {
      const struct atl_l2_strategy x = s[j];
      s[j] = s[j - 1];
      s[j - 1] = x;
    }
}
