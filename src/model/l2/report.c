/*
 * The L2 atomic model's table and advice (atomlab model l2, atomlab profile):
 * one line per launch, then, for every launch the model calls a bottleneck,
 * what the counters say of its access and which device-library strategy
 * addresses it (docs/design/strategies.md).
 */
#include <stdio.h>
#include <string.h>

#include "atomlab/error.h"
#include "atomlab/l2model.h"

static const char *verdict(const struct atl_l2_util *u, double threshold)
{
  if (u->access == ATL_L2_NONE)
    return "no global atomics";
  return u->u >= threshold ? "bottleneck" : "not a bottleneck";
}

/* The advice for a bottleneck launch in words, from the advice table (the one atl_diagnose reads). */
static const char *advice(const struct atl_l2_util *u, char *buf, size_t len)
{
  return atl_l2_advice_text(atl_l2_advice_of(u->access), buf, len);
}

/* "name=speedup;..." best first, for the CSV (empty where nothing is priced) */
static void strategies_field(FILE *f, const struct atl_l2_prediction *p)
{
  fputc('"', f);
  for (size_t i = 0; i < p->count; i++)
    fprintf(f, "%s%s=%.4g", i ? ";" : "", p->s[i].name, p->s[i].speedup);
  fputc('"', f);
}

/* The priced strategies under a bottleneck's advice line: each with its speedup and what bounds it. */
static void print_prediction(FILE *f, const struct atl_l2_calibration *cal, const struct atl_l2_prediction *p)
{
  char dram[96];
  if (p->dram_bytes)
    snprintf(dram, sizeof dram, "its bytes at the achieved %.4g GB/s", cal->dram_bytes_per_ns);
  else
    snprintf(dram, sizeof dram, "at %.0f%% of peak%s", 100 * (cal->dram_share > 0 ? cal->dram_share : 1),
             cal->dram_share > 0 ? ", achievable" : ", peak: not calibrated");
  fprintf(f, "      predicted (lanes per hot request %.3g, %s; DRAM floor %.4g us %s; issue floor %.4g us; shared "
             "passes at %.3g cycles%s):\n",
          p->lanes, p->lanes_counted ? "counted" : "the launch's bound", p->dram_ns / 1e3, dram, p->issue_ns / 1e3,
          cal->s_pass, cal->s_pass > 0 ? "" : ": unknown, not counted");
  if (p->bank_passes > 0)
    fprintf(f, "      privatized: keys over %.4g words (from the lanes per request), %.3g shared passes per "
               "warp-instruction (bank conflicts)\n", p->words, p->bank_passes);
  if (p->chain_updates > 0)
    fprintf(f, "      private float adds: the hot word's %.4g updates, %.3g tables resident a SM%s, %.3g SM cycles an update "
               "by %.3g contending warps: the warps' loads %.4g us, their CAS loops %.4g us, the tables' clears and "
               "flushes %.4g us\n", p->chain_updates, p->tables, cal->table_bytes > 0 ? " with the table" : "",
            p->chain_cycles, p->contenders > 0 ? p->contenders : p->chain_warps, p->load_ns / 1e3, p->loop_ns / 1e3,
            p->table_ns / 1e3);
  if (p->steps > 0)
    fprintf(f, "      (round trips: a warp's rows one after another, each %.3g loads of %.4g SM cycles and %.3g CAS loops, "
               "%.3g warps in their loops at a time)\n", 1 + p->steps, cal->round_trip, p->steps, p->contenders);
  for (size_t i = 0; i < p->count; i++)
    fprintf(f, "        %-17s %9.3gx  after %.4g us (bound by %s; L2 %.4g us, shared %.4g us, latency %.4g us)%s\n",
            p->s[i].name, p->s[i].speedup, p->s[i].after_ns / 1e3, p->s[i].bound_by, p->s[i].l2_ns / 1e3,
            p->s[i].smem_ns / 1e3, p->s[i].chain_ns / 1e3,
            i == 0 ? "  <- recommended" : "");
}

int atl_l2_write_table(FILE *f, const struct atl_l2_calibration *cal, const struct atl_l2_report *r, double threshold,
                       int csv, int with_advice)
{
  const struct atl_l2_calibration none = {{0, 0}, {0, 0}, 0, 0, 0, 0, {0, 0}, {{0, 0}}, 0, 0, 0, {0, 0}, ""};
  if (csv)
    fprintf(f, "id,kernel,duration_us,l2_requests,atom_requests,red_requests,busiest_slice_requests,imbalance,access,"
               "u,u_low,u_high,u_input,busy_us,verdict%s\n", with_advice ? ",advice,predicted_speedup,strategies" : "");
  else if (cal)
    fprintf(f, "L2 atomic model, L2 cycles per request: S_same ATOM %.3f RED %.3f, S_spread ATOM %.3f RED %.3f "
               "(threshold %.2f); achievable DRAM %s%.1f%% of peak, %.4g GB/s\n",
            cal->s_same[ATL_L2_ATOM], cal->s_same[ATL_L2_RED], cal->s_dist[ATL_L2_ATOM], cal->s_dist[ATL_L2_RED],
            threshold, cal->dram_share > 0 ? "" : "not calibrated, taken as ",
            100 * (cal->dram_share > 0 ? cal->dram_share : 1), cal->dram_bytes_per_ns);
  if (!csv && cal && cal->chain_count) { /* the private float adds' calibration: SM cycles an update by E warps */
    fprintf(f, "chain of a shared word's CAS loop (SM cycles an update) by E warps:");
    for (size_t i = 0; i < cal->chain_count; i++)
      fprintf(f, " E=%g %.4g", cal->chain[i].warps, cal->chain[i].cycles);
    fprintf(f, "; private table %.0f bytes a block", cal->table_bytes);
    if (cal->round_trip > 0)
      fprintf(f, "; a dependent load's round trip %.4g SM cycles", cal->round_trip);
    fputc('\n', f);
  }
  if (!csv && cal && cal->f32_rule[0] && !(cal->s_same_f32[ATL_L2_ATOM] > 0 && cal->s_same_f32[ATL_L2_RED] > 0))
    fprintf(f, "float adds on hot words (no f32 calibration of this device): %s%s\n",
            cal->f32_ratio[ATL_L2_RED] > 0 ? "S_same times " : "priced as integer adds, ", cal->f32_rule);
  if (!csv && !cal)
    fprintf(f, "L2 atomic model without a calibration: U is the busiest slice's atomic input share alone, a floor "
               "(threshold %.2f)\n", threshold);
  if (!csv)
    fprintf(f, "%-5s %-28s %10s %12s %12s %6s %-9s %6s %13s %6s %10s %s\n", "id", "kernel", "time us", "requests",
            "busiest", "imbal", "access", "U", "U range", "input", "busy us", "verdict");
  for (size_t i = 0; i < r->count; i++) {
    const struct atl_l2_counters *k = &r->kernels[i];
    struct atl_l2_util u;
    atl_l2_utilization(cal ? cal : &none, k, &u);
    if (csv)
      fprintf(f, "%s,\"%s\",%.6g,%.0f,%.0f,%.0f,%.0f,%.4g,%s,%.4g,%.4g,%.4g,%.4g,%.6g,%s", k->id, k->kernel,
              k->duration_ns / 1e3, k->requests, k->atom_requests, k->red_requests, k->requests_max, u.imbalance,
              atl_l2_access_name(u.access), u.u, u.u_low, u.u_high, u.u_input, u.busy_ns / 1e3, verdict(&u, threshold));
    else
      fprintf(f, "%-5s %-28.28s %10.2f %12.0f %12.0f %6.2f %-9s %6.2f %6.2f-%-6.2f %6.2f %10.2f %s", k->id, k->kernel,
              k->duration_ns / 1e3, k->requests, k->requests_max, u.imbalance, atl_l2_access_name(u.access), u.u,
              u.u_low, u.u_high, u.u_input, u.busy_ns / 1e3, verdict(&u, threshold));
    if (csv && with_advice) {
      const int b = strcmp(verdict(&u, threshold), "bottleneck") == 0;
      struct atl_l2_prediction p = {0};
      if (b && cal)
        atl_l2_predict(cal, k, &u, &p);
      char words[512];
      fprintf(f, ",\"%s\",", b ? advice(&u, words, sizeof words) : "");
      if (p.count) /* the recommended (best) strategy's; every priced one in the next column */
        fprintf(f, "%.4g", p.s[0].speedup);
      fputc(',', f);
      strategies_field(f, &p);
    }
    fputc('\n', f);
  }
  if (with_advice && !csv) {
    int any = 0;
    for (size_t i = 0; i < r->count; i++) {
      struct atl_l2_util u;
      atl_l2_utilization(cal ? cal : &none, &r->kernels[i], &u);
      if (strcmp(verdict(&u, threshold), "bottleneck") != 0)
        continue;
      if (!any++)
        fprintf(f, "\nadvice (L2 atomic bottlenecks):\n");
      char words[512];
      fprintf(f, "  %s %.60s (U %.2f, %s, busiest slice %.3gx the average): %s", r->kernels[i].id,
              r->kernels[i].kernel, u.u, atl_l2_access_name(u.access), u.imbalance, advice(&u, words, sizeof words));
      fputc('\n', f);
      struct atl_l2_prediction p = {0};
      if (cal)
        atl_l2_predict(cal, &r->kernels[i], &u, &p);
      if (p.count)
        print_prediction(f, cal, &p);
    }
    if (!any)
      fprintf(f, "\nadvice: no launch is bound by the L2's atomic units\n");
  }
  return ferror(f) ? ATL_EIO : 0;
}
