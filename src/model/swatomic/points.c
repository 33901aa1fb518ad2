/* The swatomic experiment's rows as the speedup model's points, and the model's error over them
 * (atomlab model swatomic; tests/unit/test_swmodel_data.c recomputes the committed figures). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab/result.h"
#include "atomlab/row_layout.h"
#include "atomlab/swmodel.h"

static const struct atl_row *find(const struct atl_result_set *set, const char *variant, double groups)
{
  for (size_t i = 0; i < set->count; i++) {
    const struct atl_row *r = &set->rows[i];
    if (atl_row_config_is(r, "app", "swatomic") && atl_row_config_is(r, "variant", variant) &&
        atl_row_metric(r, "workgroups", -1) == groups && r->status == ATL_STATUS_OK && r->verified)
      return r;
  }
  return NULL;
}

/* A setting of the run: the row's metric (wg_size: rows since 0.1.0 of diag5), else the recorded command's flag. */
static double setting(const struct atl_result_set *set, const struct atl_row *r, const char *metric, const char *flag)
{
  const double w = atl_row_metric(r, metric, 0);
  const char *at = strstr(set->meta.command, flag);
  if (w > 0)
    return w;
  if (at == NULL)
    return 0;
  at += strlen(flag);
  if (*at == '=' || *at == ' ')
    at++;
  return strtod(at, NULL);
}

int atl_swmodel_points(const struct atl_result_set *set, struct atl_swmodel *m, struct atl_swmodel_point *pt,
                       size_t max, size_t *n, char *why, size_t why_len)
{
  const struct atl_row *model = NULL;
  *n = 0;
  for (size_t i = 0; i < set->count && model == NULL; i++)
    if (atl_row_config_is(&set->rows[i], "app", "swatomic") &&
        atl_row_config_is(&set->rows[i], "variant", "model") && set->rows[i].status == ATL_STATUS_OK)
      model = &set->rows[i];
  if (model == NULL) {
    snprintf(why, why_len, "no swatomic model row with status ok (a file of `atomlab app swatomic --experiment`)");
    return -1;
  }
  m->t_fast = atl_row_metric(model, "t_fast_ns", 0);
  m->t_l = atl_row_metric(model, "t_l_ns", 0);
  m->t_comp = atl_row_metric(model, "t_comp_ns", 0);
  m->k_chunk = m->k_queue = m->k_floor = m->k_launch = 0;
  if (!(m->t_fast > 0 && m->t_l > 0 && m->t_comp > 0)) {
    snprintf(why, why_len, "the model row lacks t_fast_ns, t_l_ns or t_comp_ns");
    return -1;
  }
  for (size_t i = 0; i < set->count; i++) {
    const struct atl_row *sw = &set->rows[i];
    if (!atl_row_config_is(sw, "app", "swatomic") || !atl_row_config_is(sw, "variant", "software") ||
        sw->status != ATL_STATUS_OK || !sw->verified || atl_row_metric(sw, "t_a_software_meas_ns", 0) <= 0)
      continue;
    const double g = atl_row_metric(sw, "workgroups", 0), wg = setting(set, sw, "wg_size", "--wg-size");
    const struct atl_row *sys = find(set, "system", g);
    if (sys == NULL || atl_row_metric(sw, "t_a_system_meas_ns", 0) <= 0)
      continue;
    if (!(wg > 0)) {
      snprintf(why, why_len, "the work-group size is unknown: no wg_size metric and no --wg-size in the command");
      return -1;
    }
    if (*n == max) {
      snprintf(why, why_len, "more than %zu grids", max);
      return -1;
    }
    /* as the app's derive(): a wavefront of 32 is one requester; divergent kernels call with 2 of 3 */
    const double waves = ceil(wg / 32), per_wave = wg < 32 ? wg : 32;
    const double n_c = per_wave * (atl_row_metric(sw, "divergent", 0) != 0 ? 2.0 / 3.0 : 1.0);
    const double targets = atl_row_metric(sw, "targets", 1);
    /* a row's time is one launch's over its --iters rounds (0 where not recorded: no launch term) */
    const double rounds = setting(set, sw, "iters", "--iters");
    struct atl_swmodel_point *p = &pt[(*n)++];
    p->workgroups = g;
    p->load = (struct atl_swmodel_load){n_c, (g - 1) * waves, (g - 1) * waves, targets, wg, rounds};
    p->all = (struct atl_swmodel_load){n_c, g * waves, g * waves, targets, wg, rounds};
    p->sw_meas = atl_row_metric(sw, "t_a_software_meas_ns", 0);
    p->sys_meas = atl_row_metric(sw, "t_a_system_meas_ns", 0);
  }
  if (*n == 0) {
    snprintf(why, why_len, "no grid with a verified software and system row");
    return -1;
  }
  return 0;
}

static int by_value(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
  if (n == 0)
    return NAN;
  qsort(v, n, sizeof *v, by_value);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct atl_swmodel_error atl_swmodel_evaluate(const struct atl_swmodel *m, const struct atl_swmodel_point *pt,
                                              size_t n, const int *in, int want)
{
  struct atl_swmodel_error e = {0, NAN, NAN, NAN};
  double *sw = malloc((n ? n : 1) * 3 * sizeof *sw), *sys = sw + n, *x = sys + n;
  if (sw == NULL)
    return e;
  for (size_t i = 0; i < n; i++) {
    if (in && (in[i] != 0) != (want != 0))
      continue;
    const double sw_pred = atl_swmodel_software(m, &pt[i].load, NULL), sys_pred = atl_swmodel_system(m, &pt[i].all);
    sw[e.n] = fabs(sw_pred / pt[i].sw_meas - 1);
    sys[e.n] = fabs(sys_pred / pt[i].sys_meas - 1);
    x[e.n] = fabs((sys_pred / sw_pred) / (pt[i].sys_meas / pt[i].sw_meas) - 1);
    e.n++;
  }
  e.software = median(sw, e.n);
  e.system = median(sys, e.n);
  e.speedup = median(x, e.n);
  free(sw);
  return e;
}
