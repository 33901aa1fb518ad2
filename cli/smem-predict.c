/*
 * atomlab model predict, presentation only: reads --runs, asks the library for
 * the prediction of every kernel (atl_smem_predict_all) and prints it as CSV
 * (the library's writer) or Markdown. The Markdown stays here because it
 * carries kernel names and paths from untrusted files: cli/escape.c escapes
 * them, so that no '|', newline or HTML from an ncu export reaches the table.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../src/core/escape.h" /* until the writers move into the library */

static void write_md(FILE *f, const struct atl_smem_predict_set *set, const char *table, const char *counters,
                     const char *runs)
{
  const double threshold = set->settings.threshold;
  char table_md[1024], counters_md[1024], runs_md[1024];
  atl__esc_md_str(table_md, sizeof table_md, table);
  atl__esc_md_str(counters_md, sizeof counters_md, counters);
  atl__esc_md_str(runs_md, sizeof runs_md, runs ? runs : "");
  fprintf(f, "# Predicted atomic busy time against measured kernel time\n\n");
  fprintf(f, "Table `%s`, counters `%s`%s%s%s. B = N x S(n-hat, e, c) cycles of the average SM, turned into time "
             "with the SM clock; measured = ncu's gpu__time_duration of the same launch. Where the unit is the "
             "bottleneck (U >= %g) B should equal the measured time: error = B / measured - 1. Elsewhere B / "
             "measured is the share of the kernel the unit was busy, not an error. B' uses atomlab's pipelined "
             "service time S' = (T(n) - T(1)) / (n - 1) instead of the seed's T(n) / n (docs/model.md).\n\n",
          table_md, counters_md, runs ? ", case rows `" : "", runs_md, runs ? "`" : "", threshold);
  fprintf(f, "| id | case | N/SM | n-hat | e | passes | S cyc | B us | measured us | B/measured | U | verdict | "
             "S' cyc | B'/measured |\n");
  fprintf(f, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|\n");
  for (size_t i = 0; i < set->count; i++) {
    const struct atl_smem_predicted *x = &set->kernels[i];
    const struct atl_smem_util *u = &x->util;
    const struct atl_smem_prediction *p = &x->prediction;
    char label[160], passes[32] = "-";
    if (x->have_run)
      snprintf(label, sizeof label, "%s %s %s %u px wg %u", x->run.kernel, x->run.image,
               atl_smem_variant_name(x->run.variant), x->run.pixels, x->run.wg_size);
    else
      snprintf(label, sizeof label, "%.60s", x->counters.kernel);
    if (p->have_passes)
      snprintf(passes, sizeof passes, "%.2f", p->passes);
    char id_md[256], label_md[1024];
    fprintf(f, "| %s | %s | %.4g | %.2f | %.2f | %s | %.2f | %.4g | %.4g | %.3f | %.3f | %s |",
            atl__esc_md_str(id_md, sizeof id_md, x->counters.id), atl__esc_md_str(label_md, sizeof label_md, label), u->jobs,
            u->n_hat, u->e, passes, u->service, p->busy_ns / 1e3, p->measured_ns / 1e3, p->ratio, u->utilization,
            x->bottleneck ? "bottleneck" : "not");
    if (isnan(u->busy_pipelined))
      fprintf(f, " - | - |\n");
    else
      fprintf(f, " %.2f | %.3f |\n", u->service_pipelined, p->ratio_pipelined);
  }
  fprintf(f, "\n");
  atl_smem_predict_write_summary(f, set);
}

int smem_predict(const struct smem_opts *opts, const struct atl_smem_table *table, const struct atl_ncu_report *report,
                 const char *counters, const char *runs_path, const char *kernel)
{
  static const char *const input_opt[] = {"", "--kernel", "--runs", "--counters"};
  struct atl_smem_case *cases = NULL;
  size_t ncases = 0;
  char why[1024];
  int err;
  if (runs_path && (err = atl_smem_cases_read_csv(runs_path, &cases, &ncases, why, sizeof why)) != 0)
    die_usage(err == ATL_EIO ? "--runs %s" : "--runs: %s", why); /* EIO's reason starts with the path */
  struct atl_smem_predict_set set;
  static const struct atl_smem_case no_rows; /* --runs without rows is still --runs: it matches no launch */
  err = atl_smem_predict_all(table, &opts->settings, report, runs_path ? (cases ? cases : &no_rows) : NULL, ncases,
                             kernel, &set, why, sizeof why);
  free(cases);
  if (err == ATL_EINVAL && set.bad_input > 0 && set.bad_input <= ATL_SMEM_INPUT_COUNTERS)
    die_usage("%s: %s", input_opt[set.bad_input], why);
  if (err)
    die("model predict: %s", atl_strerror(err));
  struct cli_buffer buf;
  FILE *f = opts->out ? cli_buffer_open(&buf) : stdout;
  if (smem_format(opts) == ATL_FORMAT_CSV)
    atl_smem_predict_write_csv(f, &set);
  else
    write_md(f, &set, opts->table_path, counters, runs_path);
  int status = EXIT_OK;
  if (opts->out && cli_buffer_write(&buf, opts->out, "the prediction table") != 0)
    status = EXIT_MEASURE;
  atl_smem_predict_set_release(&set);
  return status;
}
