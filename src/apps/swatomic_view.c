/*
 * app swatomic --experiment for people: the speedup model's constants with
 * predicted against measured time per grid, and the instruction classes of
 * every kernel (the seed's FastPath / CompletePath counts, ALU:Fetch). The
 * numbers are the rows' metrics; this only lays them out.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"

static const struct atl_row *find(const struct atl_result_set *set, const char *variant)
{
  for (size_t i = 0; i < set->count; i++)
    if (atl_row_config_is(&set->rows[i], "variant", variant))
      return &set->rows[i];
  return NULL;
}

static int by_value(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median of |v[i]| (sorts @p v's absolute values in place). */
static double median_abs(double *v, size_t n)
{
  for (size_t i = 0; i < n; i++)
    v[i] = fabs(v[i]);
  qsort(v, n, sizeof *v, by_value);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The model's constants, then predicted against measured per grid (one atomic round each). */
static void write_model(FILE *f, const struct atl_result_set *set, const struct atl_row *m)
{
  if (m->status != ATL_STATUS_OK) {
    fprintf(f, "\nspeedup model: no constants (%s)\n", m->reason);
    return;
  }
  fprintf(f,
          "\nspeedup model (seed 000, eq. 1-4): t_fast %.2f ns, t_l %.3f ns, t_comp %.3f ns (x = %.3g, x_l = %.3g)\n",
          atl_row_metric(m, "t_fast_ns", 0), atl_row_metric(m, "t_l_ns", 0),
          atl_row_metric(m, "t_comp_ns", 0), atl_row_metric(m, "x", 0), atl_row_metric(m, "x_l", 0));
  fprintf(f, "%6s %12s %12s %8s %12s %12s %8s %8s %8s %8s\n", "wgs", "sys pred ns", "sys meas ns", "sys err",
          "sw pred ns", "sw meas ns", "sw err", "pred x", "meas x", "x err");
  double err[3][ATL__SW_MAX_GRIDS];
  size_t n = 0;
  for (size_t i = 0; i < set->count && n < ATL__SW_MAX_GRIDS; i++) {
    const struct atl_row *r = &set->rows[i];
    if (!atl_row_config_is(r, "variant", "software") || atl_row_metric(r, "predicted_speedup", -1) < 0)
      continue;
    err[0][n] = atl_row_metric(r, "system_model_error", 0);
    err[1][n] = atl_row_metric(r, "software_model_error", 0);
    err[2][n] = atl_row_metric(r, "speedup_model_error", 0);
    fprintf(f, "%6.0f %12.1f %12.1f %+7.0f%% %12.1f %12.1f %+7.0f%% %8.3f %8.3f %+7.0f%%\n",
            atl_row_metric(r, "workgroups", 0), atl_row_metric(r, "t_a_system_pred_ns", 0),
            atl_row_metric(r, "t_a_system_meas_ns", 0), 100 * err[0][n], atl_row_metric(r, "t_a_software_pred_ns", 0),
            atl_row_metric(r, "t_a_software_meas_ns", 0), 100 * err[1][n], atl_row_metric(r, "predicted_speedup", 0),
            atl_row_metric(r, "measured_speedup", 0), 100 * err[2][n]);
    n++;
  }
  if (n)
    fprintf(f, "median |error|: system %.0f%%, software %.0f%%, speedup %.0f%% (over %zu grids)\n",
            100 * median_abs(err[0], n), 100 * median_abs(err[1], n), 100 * median_abs(err[2], n), n);
}

/* One line per kernel: its instruction classes. */
static void write_isa(FILE *f, const struct atl_result_set *set)
{
  static const char *const kernels[] = {"mem", "system", "system+mem", "warp", "warp+mem", "software", "software+mem"};
  fprintf(f, "\ninstruction view (machine code of each kernel):\n%-13s %6s %8s %8s %8s %8s %6s %8s\n", "kernel",
          "total", "glob mem", "shr mem", "glob atom", "shr atom", "alu", "alu:mem");
  for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
    const struct atl_row *r = find(set, kernels[k]);
    if (r == NULL)
      continue;
    if (atl_row_metric(r, "isa_total", -1) < 0) {
      fprintf(f, "%-13s %s\n", kernels[k], r->instructions[0] ? r->instructions : "unavailable");
      continue;
    }
    fprintf(f, "%-13s %6.0f %8.0f %8.0f %8.0f %8.0f %6.0f %8.2f\n", kernels[k], atl_row_metric(r, "isa_total", 0),
            atl_row_metric(r, "isa_global_mem", 0), atl_row_metric(r, "isa_shared_mem", 0),
            atl_row_metric(r, "isa_atomic_global", 0), atl_row_metric(r, "isa_atomic_shared", 0),
            atl_row_metric(r, "isa_alu", 0), atl_row_metric(r, "isa_alu_mem_ratio", 0));
  }
}

void atl__swatomic_view(FILE *f, const void *params, const struct atl_result_set *set)
{
  const struct atl_swatomic_params *p = params;
  const struct atl_row *m = find(set, "model");
  if (!p->experiment) /* the view is of the experiment's rows */
    return;
  if (m)
    write_model(f, set, m);
  write_isa(f, set);
}
