/*
 * atomlab model predict: the model's predicted atomic busy time B against the
 * measured time of each kernel (issue [smem-model], item 5). Where the unit is
 * the bottleneck, B should be the kernel's time; elsewhere B / time is the
 * fraction of the kernel the unit was busy. With --runs, the kernels are the
 * case study's and each gets its row's labels and table variant.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "escape.h"

/* One reported kernel: the launch, its labels, the model's numbers. */
struct line {
  const struct atl_smem_counters *k;
  const struct atl_smem_case *c; /* NULL without --runs */
  struct atl_smem_util u;
  struct atl_smem_prediction p;
};

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
  qsort(v, n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Reads --runs; dies (exit 2) naming the option on any problem. */
static void load_cases(const char *path, struct atl_smem_case **cases, size_t *count)
{
  char why[512];
  char *text = atl_read_text_input(path, (size_t)1 << 26, why, sizeof why);
  if (text == NULL)
    die_usage("--runs '%s': %s", path, why);
  int err = atl_smem_cases_parse_csv(text, path, cases, count, why, sizeof why);
  free(text);
  if (err)
    die_usage("--runs: %s", why);
}

static void write_csv(FILE *f, const struct line *l, size_t n, double threshold)
{
  fprintf(f, "id,kernel,case_kernel,image,result,pixels,wg_size,jobs_per_sm,n_hat,e,c,passes_per_job,s_cycles,"
             "busy_cycles,active_cycles,utilization,verdict,clock_mhz,clock_source,busy_us,measured_us,"
             "busy_over_measured,error_pct,s_pipelined_cycles,busy_pipelined_us,pipelined_over_measured\n");
  for (size_t i = 0; i < n; i++) {
    const struct line *x = &l[i];
    fprintf(f, "%s,", x->k->id);
    atl_csv_field(f, x->k->kernel);
    if (x->c)
      fprintf(f, ",%s,%s,%s,%u,%u", x->c->kernel, x->c->image, atl_smem_variant_name(x->c->variant), x->c->pixels,
              x->c->wg_size);
    else
      fprintf(f, ",,,,,");
    fprintf(f, ",%.6g,%.6g,%.6g,%.6g,", x->u.jobs, x->u.n_hat, x->u.e, x->u.c);
    if (x->p.have_passes)
      fprintf(f, "%.6g", x->p.passes);
    fprintf(f, ",%.6g,%.6g,%.6g,%.6g,%s,%.6g,%s,%.6g,%.6g,%.6g,%.3f", x->u.service, x->u.busy, x->u.time,
            x->u.utilization, x->u.utilization >= threshold ? "bottleneck" : "not a bottleneck", x->p.clock_mhz,
            x->p.clock_source == ATL_SMEM_CLOCK_ELAPSED ? "elapsed" : "device", x->p.busy_ns / 1e3,
            x->p.measured_ns / 1e3, x->p.ratio, x->p.error * 100);
    if (isnan(x->u.busy_pipelined))
      fprintf(f, ",,,\n"); /* the table has no n = 1 */
    else
      fprintf(f, ",%.6g,%.6g,%.6g\n", x->u.service_pipelined, x->p.busy_pipelined_ns / 1e3, x->p.ratio_pipelined);
  }
}

static void write_md(FILE *f, const struct line *l, size_t n, const struct smem_opts *opts, const char *counters,
                     const char *runs)
{
  /* Paths from the command line, kernel names and ids from ncu's CSV: escaped (escape.h), so the
   * Markdown carries no HTML and no '|' or newline that splits a row. */
  char table_md[1024], counters_md[1024], runs_md[1024];
  esc_md_str(table_md, sizeof table_md, opts->table_path);
  esc_md_str(counters_md, sizeof counters_md, counters);
  esc_md_str(runs_md, sizeof runs_md, runs ? runs : "");
  fprintf(f, "# Predicted atomic busy time against measured kernel time\n\n");
  fprintf(f, "Table `%s`, counters `%s`%s%s%s. B = N x S(n-hat, e, c) cycles of the average SM, turned into time "
             "with the SM clock; measured = ncu's gpu__time_duration of the same launch. Where the unit is the "
             "bottleneck (U >= %g) B should equal the measured time: error = B / measured - 1. Elsewhere B / "
             "measured is the share of the kernel the unit was busy, not an error. B' uses atomlab's pipelined "
             "service time S' = (T(n) - T(1)) / (n - 1) instead of the seed's T(n) / n (docs/model.md).\n\n",
          table_md, counters_md, runs ? ", case rows `" : "", runs_md, runs ? "`" : "", opts->threshold);
  fprintf(f, "| id | case | N/SM | n-hat | e | passes | S cyc | B us | measured us | B/measured | U | verdict | "
             "S' cyc | B'/measured |\n");
  fprintf(f, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|\n");
  double *bott = malloc((n ? n : 1) * sizeof *bott), *rest = malloc((n ? n : 1) * sizeof *rest),
         *pipe = malloc((n ? n : 1) * sizeof *pipe);
  size_t nb = 0, nr = 0, np = 0;
  if (bott == NULL || rest == NULL || pipe == NULL)
    die("out of memory");
  for (size_t i = 0; i < n; i++) {
    const struct line *x = &l[i];
    char label[160], passes[32] = "-";
    if (x->c)
      snprintf(label, sizeof label, "%s %s %s %u px wg %u", x->c->kernel, x->c->image,
               atl_smem_variant_name(x->c->variant), x->c->pixels, x->c->wg_size);
    else
      snprintf(label, sizeof label, "%.60s", x->k->kernel);
    if (x->p.have_passes)
      snprintf(passes, sizeof passes, "%.2f", x->p.passes);
    const int b = x->u.utilization >= opts->threshold;
    char id_md[256], label_md[1024];
    fprintf(f, "| %s | %s | %.4g | %.2f | %.2f | %s | %.2f | %.4g | %.4g | %.3f | %.3f | %s |",
            esc_md_str(id_md, sizeof id_md, x->k->id), esc_md_str(label_md, sizeof label_md, label), x->u.jobs,
            x->u.n_hat, x->u.e, passes, x->u.service, x->p.busy_ns / 1e3, x->p.measured_ns / 1e3, x->p.ratio,
            x->u.utilization, b ? "bottleneck" : "not");
    if (isnan(x->u.busy_pipelined))
      fprintf(f, " - | - |\n");
    else
      fprintf(f, " %.2f | %.3f |\n", x->u.service_pipelined, x->p.ratio_pipelined);
    if (b && !isnan(x->u.busy_pipelined))
      pipe[np++] = fabs(x->p.ratio_pipelined - 1);
    if (b)
      bott[nb++] = fabs(x->p.error);
    else
      rest[nr++] = x->p.ratio;
  }
  fprintf(f, "\n");
  /* median() sorts, so the largest is read after it (never in the same call's arguments) */
  if (nb) {
    const double m = median(bott, nb);
    fprintf(f, "Bottleneck kernels (%zu): median |error| %.1f %%, largest %.1f %%.\n", nb, m * 100, bott[nb - 1] * 100);
  } else {
    fprintf(f, "No kernel reached U >= %g.\n", opts->threshold);
  }
  if (np) {
    const double m = median(pipe, np);
    fprintf(f, "The same kernels with B' (pipelined S'): median |error| %.1f %%, largest %.1f %%.\n", m * 100,
            pipe[np - 1] * 100);
  }
  if (nr) {
    const double m = median(rest, nr);
    fprintf(f, "Other kernels (%zu): B / measured median %.3f, largest %.3f.\n", nr, m, rest[nr - 1]);
  }
  free(pipe);
  free(bott);
  free(rest);
}

int smem_predict(const struct smem_opts *opts, const struct atl_smem_table *table, const struct atl_ncu_report *report,
                 const char *counters, const char *runs_path, const char *kernel)
{
  struct atl_smem_case *cases = NULL;
  size_t ncases = 0, launches = 0;
  if (runs_path) {
    load_cases(runs_path, &cases, &ncases);
    if (kernel == NULL)
      kernel = "smem_histogram"; /* the case study's kernel; others (none today) are not its rows */
  }
  size_t nk = 0;
  for (size_t i = 0; i < report->count; i++)
    nk += kernel == NULL || smem_kernel_is(report->kernels[i].kernel, kernel, strlen(kernel));
  for (size_t r = 0; r < ncases; r++)
    launches += cases[r].launches;
  if (nk == 0)
    die_usage("--kernel: no kernel named %s in the counters", kernel ? kernel : "?");
  if (runs_path && launches != nk)
    die_usage("--runs: its %zu rows launched %zu kernels (warmup + reps each), the counters have %zu named %s: not "
              "the same run",
              ncases, launches, nk, kernel);
  struct line *lines = calloc(nk, sizeof *lines);
  if (lines == NULL)
    die("out of memory");
  size_t n = 0, seen = 0, row = 0, row_end = ncases ? cases[0].launches : 0;
  for (size_t i = 0; i < report->count; i++) {
    const struct atl_smem_counters *k = &report->kernels[i];
    if (kernel && !smem_kernel_is(k->kernel, kernel, strlen(kernel)))
      continue;
    seen++;
    const struct atl_smem_case *c = NULL;
    if (runs_path) {
      if (seen < row_end)
        continue; /* a warm-up or an earlier repetition: the row's last launch stands for it */
      c = &cases[row++];
      row_end += row < ncases ? cases[row].launches : 0;
    }
    struct atl_smem_counters kk = *k;
    if (!(kk.sm_count >= 1) && opts->sms > 0)
      kk.sm_count = opts->sms;
    if (!(kk.warps_per_sm >= 1) && opts->warps > 0)
      kk.warps_per_sm = opts->warps;
    struct line *x = &lines[n++];
    x->k = k;
    x->c = c;
    char why[512];
    const enum atl_smem_variant v = c ? c->variant : (enum atl_smem_variant)opts->variant;
    if (atl_smem_utilization(table, v, &kk, &x->u, why, sizeof why) ||
        atl_smem_predict(&kk, &x->u, &x->p, why, sizeof why))
      die_usage("--counters: kernel %s (%s): %s", k->id, k->kernel, why);
  }
  const char *dot = opts->out ? strrchr(opts->out, '.') : NULL;
  int csv = opts->format == ATL_FORMAT_CSV || (opts->format < 0 && dot && strcmp(dot, ".csv") == 0);
  struct cli_buffer buf;
  FILE *f = opts->out ? cli_buffer_open(&buf) : stdout;
  if (csv)
    write_csv(f, lines, n, opts->threshold);
  else
    write_md(f, lines, n, opts, counters, runs_path);
  int status = EXIT_OK;
  if (opts->out && cli_buffer_write(&buf, opts->out, "the prediction table") != 0)
    status = EXIT_MEASURE;
  free(lines);
  free(cases);
  return status;
}
