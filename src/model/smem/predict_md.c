/* The prediction table of `atomlab model predict` as Markdown. It carries
 * kernel names and paths from untrusted files: core/escape.c escapes them, so
 * that no '|', newline or HTML from an ncu export reaches the table. */
#include <math.h>
#include <stdio.h>

#include "atomlab.h"
#include "core/escape.h"

int atl_smem_predict_write_md(FILE *f, const struct atl_smem_predict_set *set, const char *table, const char *counters,
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
             "service time S' = (T(n) - T(1)) / (n - 1) instead of the seed's T(n) / n (docs/design/model.md).\n\n",
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
  return ferror(f) ? ATL_EIO : 0;
}

