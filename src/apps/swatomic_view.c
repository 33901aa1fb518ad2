/*
 * app swatomic --experiment for people: the speedup model's constants with
 * predicted against measured time per grid, and the instruction classes of
 * every kernel (the seed's FastPath / CompletePath counts, ALU:Fetch). The
 * numbers are the rows' metrics; this only lays them out.
 */
#include <string.h>

#include "app_internal.h"

static const struct atl_row *find(const struct atl_result_set *set, const char *variant)
{
  for (size_t i = 0; i < set->count; i++)
    if (strcmp(atl_row_config(&set->rows[i], "variant"), variant) == 0)
      return &set->rows[i];
  return NULL;
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
  fprintf(f, "%6s %14s %14s %14s %14s %10s %10s\n", "wgs", "sys pred ns", "sys meas ns", "sw pred ns", "sw meas ns",
          "pred x", "meas x");
  for (size_t i = 0; i < set->count; i++) {
    const struct atl_row *r = &set->rows[i];
    if (strcmp(atl_row_config(r, "variant"), "software") != 0 || atl_row_metric(r, "predicted_speedup", -1) < 0)
      continue;
    fprintf(f, "%6.0f %14.1f %14.1f %14.1f %14.1f %10.3f %10.3f\n", atl_row_metric(r, "workgroups", 0),
            atl_row_metric(r, "t_a_system_pred_ns", 0), atl_row_metric(r, "t_a_system_meas_ns", 0),
            atl_row_metric(r, "t_a_software_pred_ns", 0), atl_row_metric(r, "t_a_software_meas_ns", 0),
            atl_row_metric(r, "predicted_speedup", 0), atl_row_metric(r, "measured_speedup", 0));
  }
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
