/*
 * atomlab model predict: the model's busy time B against the measured time of
 * each kernel (issue [smem-model], item 5). Where the unit is the bottleneck,
 * B should be the kernel's time; elsewhere B / time is the share of the kernel
 * the unit was busy. With the case study's rows, each launch gets its row's
 * labels and table variant.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab/error.h"
#include "atomlab/model.h"

int atl_smem_predict(const struct atl_smem_counters *in, const struct atl_smem_util *u, struct atl_smem_prediction *out,
                     char *why, size_t why_len)
{
  memset(out, 0, sizeof *out);
  if (!in->have_duration || !(in->duration_ns > 0) || !isfinite(in->duration_ns)) {
    snprintf(why, why_len, "no kernel duration (gpu__time_duration.sum) to compare the busy time with");
    return ATL_EINVAL;
  }
  out->measured_ns = in->duration_ns;
  /*
   * The kernel's own clock where the counters allow: with --clock-control none the SM clock is whatever
   * the GPU chose, and short kernels also pay a launch tail in the duration that no SM cycle covers.
   */
  if (in->have_elapsed && in->elapsed_cycles > 0 && isfinite(in->elapsed_cycles)) {
    out->clock_mhz = in->elapsed_cycles / in->duration_ns * 1e3;
    out->clock_source = ATL_SMEM_CLOCK_ELAPSED;
  } else if (in->have_clock && in->clock_mhz > 0 && isfinite(in->clock_mhz)) {
    out->clock_mhz = in->clock_mhz;
    out->clock_source = ATL_SMEM_CLOCK_DEVICE;
  } else {
    snprintf(why, why_len, "no SM clock: the counters need sm__cycles_elapsed.avg or device__attribute_clock_rate");
    return ATL_EINVAL;
  }
  out->busy_ns = u->busy / out->clock_mhz * 1e3;
  out->ratio = out->busy_ns / out->measured_ns;
  out->error = out->ratio - 1;
  out->busy_pipelined_ns = u->busy_pipelined / out->clock_mhz * 1e3; /* NAN stays NAN */
  out->ratio_pipelined = out->busy_pipelined_ns / out->measured_ns;
  const double total = in->fao_jobs + in->cas_jobs;
  if (in->have_wavefronts && total > 0) {
    out->passes = in->wavefronts / total;
    out->have_passes = 1;
  }
  return 0;
}

/* Which kernels of the export are reported: the name asked for, the case study's with rows, else all. */
static int wanted(const struct atl_smem_counters *k, const char *kernel)
{
  return kernel == NULL || atl_smem_kernel_is(k->kernel, kernel, strlen(kernel));
}

static int fail(struct atl_smem_predict_set *set, int input, int err)
{
  set->bad_input = input;
  free(set->kernels);
  set->kernels = NULL;
  set->count = 0;
  return err;
}

/* The error summary: medians and maxima through the core's statistics, as every other result of atomlab. */
static int summarize(struct atl_smem_predict_set *set)
{
  const size_t n = set->count ? set->count : 1;
  double *bott = malloc(n * sizeof *bott), *pipe = malloc(n * sizeof *pipe), *rest = malloc(n * sizeof *rest);
  size_t nb = 0, np = 0, nr = 0;
  int err = bott && pipe && rest ? 0 : ATL_ENOMEM;
  for (size_t i = 0; !err && i < set->count; i++) {
    const struct atl_smem_predicted *x = &set->kernels[i];
    if (x->bottleneck && !isnan(x->util.busy_pipelined))
      pipe[np++] = fabs(x->prediction.ratio_pipelined - 1);
    if (x->bottleneck)
      bott[nb++] = fabs(x->prediction.error);
    else
      rest[nr++] = x->prediction.ratio;
  }
  if (!err) {
    atl_stats_compute(bott, nb, &set->error);
    atl_stats_compute(pipe, np, &set->error_pipelined);
    atl_stats_compute(rest, nr, &set->others);
    /* atl_stats_compute leaves 0 samples where it could not allocate: that must not read as "none" */
    if (set->error.samples != nb || set->error_pipelined.samples != np || set->others.samples != nr)
      err = ATL_ENOMEM;
  }
  free(bott);
  free(pipe);
  free(rest);
  return err;
}

int atl_smem_predict_all(const struct atl_smem_table *table, const struct atl_smem_settings *settings,
                         const struct atl_ncu_report *report, const struct atl_smem_case *cases, size_t ncases,
                         const char *kernel, struct atl_smem_predict_set *set, char *why, size_t why_len)
{
  memset(set, 0, sizeof *set);
  set->settings = *settings;
  if (cases && kernel == NULL)
    kernel = "smem_histogram"; /* the case study's kernel; others (none today) are not its rows */
  size_t nk = 0, launches = 0;
  for (size_t i = 0; i < report->count; i++)
    nk += wanted(&report->kernels[i], kernel);
  for (size_t r = 0; r < ncases; r++)
    launches += cases[r].launches;
  if (nk == 0) {
    snprintf(why, why_len, "no kernel named %s in the counters", kernel ? kernel : "?");
    return fail(set, ATL_SMEM_INPUT_KERNEL, ATL_EINVAL);
  }
  if (cases && launches != nk) {
    snprintf(why, why_len,
             "its %zu rows launched %zu kernels (warmup + reps each), the counters have %zu named %s: not the same run",
             ncases, launches, nk, kernel);
    return fail(set, ATL_SMEM_INPUT_RUNS, ATL_EINVAL);
  }
  set->kernels = calloc(nk, sizeof *set->kernels);
  if (set->kernels == NULL)
    return fail(set, 0, ATL_ENOMEM);
  size_t seen = 0, row = 0, row_end = ncases ? cases[0].launches : 0;
  for (size_t i = 0; i < report->count; i++) {
    const struct atl_smem_counters *k = &report->kernels[i];
    if (!wanted(k, kernel))
      continue;
    seen++;
    struct atl_smem_predicted *x = &set->kernels[set->count];
    if (cases) {
      if (seen < row_end)
        continue; /* a warm-up or an earlier repetition: the row's last launch stands for it */
      x->run = cases[row++];
      x->have_run = 1;
      row_end += row < ncases ? cases[row].launches : 0;
    }
    set->count++;
    x->counters = *k;
    if (!(x->counters.sm_count >= 1) && settings->sm_count > 0)
      x->counters.sm_count = settings->sm_count;
    if (!(x->counters.warps_per_sm >= 1) && settings->warps_per_sm > 0)
      x->counters.warps_per_sm = settings->warps_per_sm;
    const enum atl_smem_variant v = x->have_run ? x->run.variant : settings->variant;
    char reason[512];
    if (atl_smem_utilization(table, v, &x->counters, &x->util, reason, sizeof reason) ||
        atl_smem_predict(&x->counters, &x->util, &x->prediction, reason, sizeof reason)) {
      snprintf(why, why_len, "kernel %s (%s): %s", k->id, k->kernel, reason);
      return fail(set, ATL_SMEM_INPUT_COUNTERS, ATL_EINVAL);
    }
    x->bottleneck = x->util.utilization >= settings->threshold;
  }
  int err = summarize(set);
  return err ? fail(set, 0, err) : 0;
}

void atl_smem_predict_set_release(struct atl_smem_predict_set *set)
{
  free(set->kernels);
  set->kernels = NULL;
  set->count = 0;
}

int atl_smem_predict_write_summary(FILE *f, const struct atl_smem_predict_set *set)
{
  if (set->error.samples)
    fprintf(f, "Bottleneck kernels (%u): median |error| %.1f %%, largest %.1f %%.\n", set->error.samples,
            set->error.median * 100, set->error.max * 100);
  else
    fprintf(f, "No kernel reached U >= %g.\n", set->settings.threshold);
  if (set->error_pipelined.samples)
    fprintf(f, "The same kernels with B' (pipelined S'): median |error| %.1f %%, largest %.1f %%.\n",
            set->error_pipelined.median * 100, set->error_pipelined.max * 100);
  if (set->others.samples)
    fprintf(f, "Other kernels (%u): B / measured median %.3f, largest %.3f.\n", set->others.samples,
            set->others.median, set->others.max);
  return ferror(f) ? ATL_EIO : 0;
}

int atl_smem_predict_write_csv(FILE *f, const struct atl_smem_predict_set *set)
{
  fprintf(f, "id,kernel,case_kernel,image,result,pixels,wg_size,jobs_per_sm,n_hat,e,c,passes_per_job,s_cycles,"
             "busy_cycles,active_cycles,utilization,verdict,clock_mhz,clock_source,busy_us,measured_us,"
             "busy_over_measured,error_pct,s_pipelined_cycles,busy_pipelined_us,pipelined_over_measured\n");
  for (size_t i = 0; i < set->count; i++) {
    const struct atl_smem_predicted *x = &set->kernels[i];
    const struct atl_smem_util *u = &x->util;
    const struct atl_smem_prediction *p = &x->prediction;
    fprintf(f, "%s,", x->counters.id);
    atl_csv_field(f, x->counters.kernel);
    if (x->have_run)
      fprintf(f, ",%s,%s,%s,%u,%u", x->run.kernel, x->run.image, atl_smem_variant_name(x->run.variant),
              x->run.pixels, x->run.wg_size);
    else
      fprintf(f, ",,,,,");
    fprintf(f, ",%.6g,%.6g,%.6g,%.6g,", u->jobs, u->n_hat, u->e, u->c);
    if (p->have_passes)
      fprintf(f, "%.6g", p->passes);
    fprintf(f, ",%.6g,%.6g,%.6g,%.6g,%s,%.6g,%s,%.6g,%.6g,%.6g,%.3f", u->service, u->busy, u->time, u->utilization,
            atl_smem_verdict(u->utilization, set->settings.threshold), p->clock_mhz,
            p->clock_source == ATL_SMEM_CLOCK_ELAPSED ? "elapsed" : "device", p->busy_ns / 1e3, p->measured_ns / 1e3,
            p->ratio, p->error * 100);
    if (isnan(u->busy_pipelined))
      fprintf(f, ",,,\n"); /* the table has no n = 1 */
    else
      fprintf(f, ",%.6g,%.6g,%.6g\n", u->service_pipelined, p->busy_pipelined_ns / 1e3, p->ratio_pipelined);
  }
  return ferror(f) ? ATL_EIO : 0;
}

int atl_smem_predict_file(const struct atl_smem_table *table, const struct atl_smem_settings *settings,
                          const struct atl_ncu_report *report, const char *runs_path, const char *kernel,
                          struct atl_smem_predict_set *set, char *why, size_t why_len)
{
  static const struct atl_smem_case no_rows; /* a runs file without rows is still one: it matches no launch */
  struct atl_smem_case *cases = NULL;
  size_t ncases = 0;
  int err = runs_path ? atl_smem_cases_read_csv(runs_path, &cases, &ncases, why, why_len) : 0;
  if (err) {
    memset(set, 0, sizeof *set);
    set->bad_input = ATL_SMEM_INPUT_RUNS;
    return err;
  }
  err = atl_smem_predict_all(table, settings, report, runs_path ? (cases ? cases : &no_rows) : NULL, ncases, kernel,
                             set, why, why_len);
  free(cases);
  return err;
}
