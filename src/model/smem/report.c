/*
 * Table 2 of seed 002 for every kernel of a counter export, the verdicts and
 * their checks, and the one writer of the result in each format: `model util`
 * and `profile` only pick the format and the file.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab/error.h"
#include "atomlab/model.h"
#include "core/output_internal.h"

void atl_smem_settings_init(struct atl_smem_settings *s)
{
  memset(s, 0, sizeof *s);
  s->variant = ATL_SMEM_USED; /* what a plain atomicAdd whose result is read compiles to */
  s->threshold = 0.8;
}

int atl_smem_profile_device(atl_context_t ctx, struct atl_smem_settings *s, struct atl_device_info *device)
{
  const struct atl_device_info *devs = NULL;
  size_t ndev = 0;
  if (atl_devices(ctx, &devs, &ndev) != 0)
    return ATL_ENODEV;
  for (size_t i = 0; i < ndev; i++) {
    const struct atl_device_info *d = &devs[i];
    if (!d->has_ncu_counters)
      continue;
    /* only what the user left unset: a --sms or --warps-per-sm given wins over the probe */
    if (s->sm_count <= 0)
      s->sm_count = d->compute_units;
    if (s->warps_per_sm <= 0 && d->warp_size)
      s->warps_per_sm = (double)d->max_threads_per_cu / d->warp_size;
    if (device)
      *device = *d;
    return 0;
  }
  return ATL_ENODEV;
}

const char *atl_smem_verdict(double utilization, double threshold)
{
  return utilization >= threshold ? "bottleneck" : "not a bottleneck";
}

int atl_smem_kernel_is(const char *kernel, const char *want, size_t len)
{
  return strncmp(kernel, want, len) == 0 && (kernel[len] == '\0' || kernel[len] == '(');
}

int atl_smem_util_derive(const struct atl_smem_table *table, const struct atl_smem_settings *settings,
                         const struct atl_ncu_report *report, struct atl_smem_util_set *set)
{
  memset(set, 0, sizeof *set);
  set->settings = *settings;
  set->kernels = calloc(report->count ? report->count : 1, sizeof *set->kernels);
  if (set->kernels == NULL)
    return ATL_ENOMEM;
  set->count = report->count;
  for (size_t i = 0; i < report->count; i++) {
    struct atl_smem_kernel_util *x = &set->kernels[i];
    x->counters = report->kernels[i];
    /* the settings fill only what the export lacks: a file's own device attributes win */
    if (!(x->counters.sm_count >= 1) && settings->sm_count > 0)
      x->counters.sm_count = settings->sm_count;
    if (!(x->counters.warps_per_sm >= 1) && settings->warps_per_sm > 0)
      x->counters.warps_per_sm = settings->warps_per_sm;
    x->err = atl_smem_utilization(table, settings->variant, &x->counters, &x->util, x->why, sizeof x->why);
    if (x->err)
      set->failures++;
    else
      set->assumed |= x->util.assumed;
  }
  return 0;
}

void atl_smem_util_set_release(struct atl_smem_util_set *set)
{
  free(set->kernels);
  set->kernels = NULL;
  set->count = 0;
}

int atl_smem_expectation_parse(const char *text, struct atl_smem_expectation *out)
{
  const char *eq = strrchr(text, '=');
  if (eq == NULL || eq == text ||
      (strcmp(eq + 1, "bottleneck") != 0 && strcmp(eq + 1, "not") != 0 && strcmp(eq + 1, "not a bottleneck") != 0))
    return ATL_EINVAL;
  *out = (struct atl_smem_expectation){text, (size_t)(eq - text), strcmp(eq + 1, "bottleneck") == 0};
  return 0;
}

void atl_smem_expect_check(const struct atl_smem_util_set *set, const char *kernel, size_t len, int bottleneck,
                           struct atl_smem_expect *out)
{
  const char *want = bottleneck ? "bottleneck" : "not a bottleneck";
  out->seen = out->wrong = 0;
  out->lo = INFINITY;
  out->hi = -INFINITY;
  for (size_t i = 0; i < set->count; i++) {
    const struct atl_smem_kernel_util *x = &set->kernels[i];
    if (!atl_smem_kernel_is(x->counters.kernel, kernel, len))
      continue;
    out->seen++;
    if (x->err) { /* no utilization is no verdict: never the one expected */
      out->wrong++;
      continue;
    }
    const double u = x->util.unit.u;
    out->lo = u < out->lo ? u : out->lo;
    out->hi = u > out->hi ? u : out->hi;
    out->wrong += strcmp(atl_smem_unit_verdict(&x->util.unit, set->settings.threshold), want) != 0;
  }
}

static cJSON *kernel_json(const struct atl_smem_kernel_util *x, enum atl_smem_variant variant, double threshold,
                          double dram_achievable)
{
  const struct atl_smem_counters *k = &x->counters;
  const struct atl_smem_util *u = &x->util;
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "id", k->id);
  cJSON_AddStringToObject(o, "kernel", k->kernel);
  cJSON *in = cJSON_AddObjectToObject(o, "counters");
  const struct atl__json_num counters[] = {{"O", k->ops},
                                           {"N_f_total", k->fao_jobs},
                                           {"N_c_total", k->cas_jobs},
                                           {"active_cycles_avg_sm", k->active_cycles},
                                           {"achieved_occupancy", k->occupancy},
                                           {"sm_count", k->sm_count},
                                           {"warps_per_sm", k->warps_per_sm}};
  atl__json_add_numbers(in, counters, sizeof counters / sizeof counters[0]);
  if (k->have_duration)
    cJSON_AddNumberToObject(in, "duration_ns", k->duration_ns);
  if (!x->err) {
    char assumed[512];
    atl_smem_assumptions_text(u->assumed, assumed, sizeof assumed);
    cJSON_AddNumberToObject(o, "N", u->jobs);
    cJSON_AddNumberToObject(o, "n_hat", u->n_hat);
    cJSON_AddNumberToObject(o, "e", u->e);
    cJSON_AddNumberToObject(o, "c", u->c);
    cJSON_AddNumberToObject(o, "S_cycles", u->service);
    cJSON_AddNumberToObject(o, "B_cycles", u->busy);
    cJSON_AddNumberToObject(o, "T_cycles", u->time);
    cJSON_AddNumberToObject(o, "U_seed", u->utilization);
    const struct atl_smem_unit *un = &u->unit;
    const char *verdict = atl_smem_unit_verdict(un, threshold);
    cJSON_AddNumberToObject(o, "U", un->u);
    /* the range as a utilization (capped at 1); the counters' raw B / T beside it, not as a utilization */
    cJSON_AddNumberToObject(o, "U_lo", un->u_lo > 1 ? 1 : un->u_lo);
    cJSON_AddNumberToObject(o, "U_hi", un->u_hi > 1 ? 1 : un->u_hi);
    cJSON_AddNumberToObject(o, "B_over_T_lo", un->u_lo);
    cJSON_AddNumberToObject(o, "B_over_T_hi", un->u_hi);
    cJSON_AddBoolToObject(o, "bound", strcmp(verdict, "bound") == 0);
    cJSON_AddNumberToObject(o, "passes_per_job", un->passes);
    cJSON_AddNumberToObject(o, "passes_per_job_max", un->passes_hi);
    cJSON_AddBoolToObject(o, "passes_counted", un->measured);
    cJSON_AddStringToObject(o, "class", atl_smem_unit_class(u, variant));
    cJSON_AddNumberToObject(o, "fao_jobs_per_sm", un->fao_jobs);
    cJSON_AddNumberToObject(o, "cas_jobs_per_sm", un->cas_jobs);
    cJSON_AddNumberToObject(o, "s_pass_fao_cycles", un->s_fao);
    cJSON_AddNumberToObject(o, "s_pass_cas_cycles", un->s_cas);
    cJSON_AddNumberToObject(o, "B_unit_cycles", un->busy);
    cJSON_AddBoolToObject(o, "clamped", u->clamped);
    cJSON_AddStringToObject(o, "assumed", assumed);
    struct atl_smem_advice adv;
    atl_smem_advise(u, &x->counters, variant, threshold, dram_achievable, &adv);
    if (adv.strategy) {
      cJSON *a = cJSON_AddObjectToObject(o, "advice");
      cJSON_AddStringToObject(a, "strategy", adv.strategy);
      cJSON_AddStringToObject(a, "why", adv.why);
      cJSON_AddNumberToObject(a, "busy_factor", adv.factor);
      cJSON_AddNumberToObject(a, "predicted_speedup", adv.speedup);
      cJSON_AddBoolToObject(a, "issue_floor", adv.floored);
    }
  }
  cJSON_AddStringToObject(o, "verdict", x->err ? "error" : atl_smem_unit_verdict(&u->unit, threshold));
  if (x->err)
    cJSON_AddStringToObject(o, "reason", x->why);
  return o;
}

static int write_json(FILE *f, const struct atl_smem_util_set *set, const struct atl_smem_util_labels *labels)
{
  if (labels->meta == NULL)
    return ATL_EINVAL;
  cJSON *root = atl__json_provenance(labels->meta);
  if (root == NULL)
    return ATL_ENOMEM;
  cJSON *dev = cJSON_AddObjectToObject(root, "device");
  cJSON_AddStringToObject(dev, "name", labels->meta->device.name);
  cJSON_AddStringToObject(dev, "driver", labels->meta->device.driver);
  cJSON_AddStringToObject(root, "counters", labels->counters);
  cJSON_AddStringToObject(root, "table", labels->table);
  cJSON_AddStringToObject(root, "result", atl_smem_variant_name(set->settings.variant));
  cJSON_AddNumberToObject(root, "threshold", set->settings.threshold);
  /* the advice's DRAM floor: the achievable share of peak (1: not calibrated) */
  cJSON_AddNumberToObject(root, "dram_achievable",
                          set->settings.dram_achievable > 0 ? set->settings.dram_achievable : 1);
  cJSON_AddStringToObject(root, "assumptions",
                          "per-SM quantities are the average SM's: totals divided by the SM count, T = "
                          "sm__cycles_active.avg, n-hat = achieved occupancy x warps per SM, N = all ATOMS "
                          "(CAS counted once), e = lanes per job / distinct words per job; U = the unit model's "
                          "passes x calibrated cycles per pass / T, U_seed = the seed's N x S(n, e, c) / T "
                          "(docs/design/model.md)");
  cJSON *kernels = cJSON_AddArrayToObject(root, "kernels");
  for (size_t i = 0; i < set->count; i++)
    cJSON_AddItemToArray(kernels, kernel_json(&set->kernels[i], set->settings.variant, set->settings.threshold,
                                                     set->settings.dram_achievable));
  char *text = cJSON_Print(root);
  cJSON_Delete(root);
  if (text == NULL)
    return ATL_ENOMEM;
  fprintf(f, "%s\n", text);
  free(text);
  return 0;
}

static void write_csv(FILE *f, const struct atl_smem_util_set *set)
{
  fprintf(f, "id,kernel,jobs_per_sm,n_hat,e,c,s_cycles,busy_cycles,active_cycles,utilization,verdict,duration_ns,"
             "clamped,reason,assumptions,u_lo,u_hi,passes_per_job,passes_counted,cas_jobs_per_sm,s_pass_fao,"
             "s_pass_cas,u_seed,advice,predicted_speedup,busy_unit_cycles,class\n");
  for (size_t i = 0; i < set->count; i++) {
    const struct atl_smem_kernel_util *x = &set->kernels[i];
    const struct atl_smem_util *u = &x->util;
    char assumed[512];
    atl_smem_assumptions_text(x->err ? 0 : u->assumed, assumed, sizeof assumed);
    fprintf(f, "%s,", x->counters.id);
    atl_csv_field(f, x->counters.kernel);
    const struct atl_smem_unit *un = &u->unit;
    if (x->err)
      fprintf(f, ",,,,,,,,,error,%.0f,0,", x->counters.duration_ns);
    else
      fprintf(f, ",%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%s,%.0f,%d,", u->jobs, u->n_hat, u->e, u->c, u->service,
              u->busy, u->time, un->u, atl_smem_unit_verdict(un, set->settings.threshold), x->counters.duration_ns,
              u->clamped);
    atl_csv_field(f, x->why);
    fputc(',', f);
    atl_csv_field(f, assumed);
    if (x->err) {
      fprintf(f, ",,,,,,,,,,,,\n");
      continue;
    }
    struct atl_smem_advice adv;
    atl_smem_advise(u, &x->counters, set->settings.variant, set->settings.threshold, set->settings.dram_achievable,
                    &adv);
    fprintf(f, ",%.6g,%.6g,%.6g,%d,%.6g,%.6g,%.6g,%.6g,", un->u_lo > 1 ? 1 : un->u_lo, un->u_hi > 1 ? 1 : un->u_hi,
            un->passes, un->measured, un->cas_jobs, un->s_fao, un->s_cas, u->utilization);
    if (adv.strategy) {
      char text[400];
      snprintf(text, sizeof text, "%s: %s", adv.strategy, adv.why);
      atl_csv_field(f, text);
      fprintf(f, ",%.4g,%.6g,%s\n", adv.speedup, un->busy, atl_smem_unit_class(u, set->settings.variant));
    } else {
      fprintf(f, ",,%.6g,%s\n", un->busy, atl_smem_unit_class(u, set->settings.variant));
    }
  }
}

static void write_table(FILE *f, const struct atl_smem_util_set *set, const char *table)
{
  const double threshold = set->settings.threshold;
  fprintf(f, "shared-memory atomic unit utilization (table %s, %s fetch-and-add, bottleneck at U >= %g; U = passes x "
             "cycles per pass / T)\n", table, atl_smem_variant_name(set->settings.variant), threshold);
  fprintf(f, "%-4s %-32s %11s %6s %6s %6s %-8s %8s %12s %12s %7s %13s  %s\n", "id", "kernel", "N/SM", "n_hat", "e",
          "CAS%", "class", "passes", "B_cyc", "T_cyc", "U", "U range", "verdict");
  int any_bound = 0;
  for (size_t i = 0; i < set->count; i++) {
    const struct atl_smem_kernel_util *x = &set->kernels[i];
    const struct atl_smem_util *u = &x->util;
    const struct atl_smem_unit *un = &u->unit;
    if (x->err) {
      fprintf(f, "%-4s %-32.32s error: %s\n", x->counters.id, x->counters.kernel, x->why);
      continue;
    }
    const char *verdict = atl_smem_unit_verdict(un, threshold);
    any_bound |= strcmp(verdict, "bound") == 0;
    char range[32];
    /* the range as a utilization: its top capped at 1 (a unit is at most always busy) */
    snprintf(range, sizeof range, "%.2f-%.2f", un->u_lo > 1 ? 1.0 : un->u_lo, un->u_hi > 1 ? 1.0 : un->u_hi);
    const double cas_pct = u->jobs > 0 ? 100 * un->cas_jobs / u->jobs : 0;
    fprintf(f, "%-4s %-32.32s %11.4g %6.2f %6.2f %6.1f %-8s %8.2f %12.6g %12.6g %7.3f %13s  %s%s%s%s%s%s%s%s\n",
            x->counters.id, x->counters.kernel, u->jobs, u->n_hat, u->e, cas_pct,
            atl_smem_unit_class(u, set->settings.variant), un->passes, un->busy, u->time,
            un->u, range, verdict, un->bound ? " (U capped: the counters give more than 1.15)" : "",
            u->assumed ? " [" : "", u->assumed & ATL_SMEM_ASSUME_FULL_WARPS ? "F" : "",
            u->assumed & ATL_SMEM_NO_PASSES ? "P" : "", u->assumed & ATL_SMEM_PAYLOAD_WORDS ? "W" : "",
            u->assumed & ATL_SMEM_LATENCY_BOUND ? "L" : "", u->assumed ? "]" : "");
  }
  int advised = 0;
  for (size_t i = 0; i < set->count; i++) {
    const struct atl_smem_kernel_util *x = &set->kernels[i];
    struct atl_smem_advice adv;
    if (x->err)
      continue;
    atl_smem_advise(&x->util, &x->counters, set->settings.variant, threshold, set->settings.dram_achievable, &adv);
    if (!adv.strategy)
      continue;
    if (!advised++)
      fprintf(f, "advice (shared-memory atomic bottlenecks; speedup = T / max(T ((1 - U) + U r), issue floor, DRAM "
                 "floor at %.1f%% of peak%s), r from the pass costs):\n",
              100 * (set->settings.dram_achievable > 0 ? set->settings.dram_achievable : 1),
              set->settings.dram_achievable > 0 ? ", achievable" : ": not calibrated");
    fprintf(f, "  %s %.60s (U %.2f, %.1f passes/job, e %.1f): %s - %s; r %.3g, predicted speedup %.2fx%s\n",
            x->counters.id, x->counters.kernel, x->util.unit.u, x->util.unit.passes, x->util.e, adv.strategy, adv.why,
            adv.factor, adv.speedup, adv.floored ? " (the issue floor)" : "");
  }
  if (any_bound)
    fprintf(f, "bound: the counters cannot give U as one utilization: U is the fewest passes' value (or the cap 1), "
               "the range what the counters allow; the verdict needs a wavefront count or a narrower range\n");
  if (!set->assumed)
    return;
  /* the letters above are the frequent ones; every assumption in full once below the table */
  if (set->assumed & ATL_SMEM_ASSUME_FULL_WARPS)
    fprintf(f, "assumed: [F] no thread-level atomic count: every job taken as 32 active lanes\n");
  if (set->assumed & ATL_SMEM_NO_PASSES)
    fprintf(f, "assumed: [P] no wavefront count: passes per job between the lanes per word and the lanes\n");
  if (set->assumed & ATL_SMEM_PAYLOAD_WORDS)
    fprintf(f, "assumed: [W] more payload words than lanes (64-bit or CAS payloads): words capped at the lanes\n");
  if (set->assumed & ATL_SMEM_LATENCY_BOUND)
    fprintf(f, "assumed: [L] e < 2: the seed's S (U_seed in CSV/JSON) is mostly latency there; U here counts passes\n");
  char rest[512];
  atl_smem_assumptions_text(set->assumed & ~(unsigned)(ATL_SMEM_ASSUME_FULL_WARPS | ATL_SMEM_LATENCY_BOUND |
                                                       ATL_SMEM_NO_PASSES | ATL_SMEM_PAYLOAD_WORDS),
                            rest, sizeof rest);
  if (rest[0])
    fprintf(f, "assumed (all kernels): %s\n", rest);
}

int atl_smem_util_write(FILE *f, enum atl_format fmt, const struct atl_smem_util_set *set,
                        const struct atl_smem_util_labels *labels)
{
  int err = 0;
  if (fmt == ATL_FORMAT_JSON)
    err = write_json(f, set, labels);
  else if (fmt == ATL_FORMAT_CSV)
    write_csv(f, set);
  else
    write_table(f, set, labels->table);
  return err ? err : ferror(f) ? ATL_EIO : 0;
}
