/*
 * The speedup model's report (`atomlab model swatomic`): FILE's grids against seed 000's equations, with the
 * coordinator's pass fitted on a chosen file's chosen grids where asked; the table and the median errors.
 */
#include <stdio.h>
#include <string.h>

#include "atomlab/result.h"
#include "atomlab/swmodel.h"

#define MAX_GRIDS 64

static int in_list(const uint32_t *list, size_t n, double g)
{
  for (size_t i = 0; i < n; i++)
    if (list[i] == g)
      return 1;
  return n == 0;
}

static int read_points(const char *path, struct atl_result_set *set, struct atl_swmodel *m,
                       struct atl_swmodel_point *pt, size_t *n, char *why, size_t why_len)
{
  char reason[300];
  memset(set, 0, sizeof *set);
  if (atl_read_json(path, set, reason, sizeof reason) == 0 &&
      atl_swmodel_points(set, m, pt, MAX_GRIDS, n, reason, sizeof reason) == 0)
    return 0;
  snprintf(why, why_len, "'%s': %s", path, reason);
  atl_result_set_release(set);
  return -1;
}

/* Fits equations (1') and (2'') of @p m on the request's fit file and grids; marks FILE's in-sample points. */
static int fit_pass(const struct atl_swmodel_request *rq, struct atl_swmodel *m, const struct atl_swmodel_point *pt,
                    size_t n, int *in, char *why, size_t why_len)
{
  const char *fit_path = rq->fit_path ? rq->fit_path : rq->path;
  const int same = strcmp(fit_path, rq->path) == 0;
  struct atl_result_set fset;
  struct atl_swmodel fm;
  struct atl_swmodel_point fpt[MAX_GRIDS];
  struct atl_swmodel_point sel[MAX_GRIDS];
  size_t fn = 0, k = 0;
  if (read_points(fit_path, &fset, &fm, fpt, &fn, why, why_len))
    return ATL_SWMODEL_BAD_FILE;
  atl_result_set_release(&fset);
  for (size_t i = 0; i < fn; i++)
    if (in_list(rq->grids, rq->ngrids, fpt[i].workgroups))
      sel[k++] = fpt[i];
  if (atl_swmodel_fit(&fm, sel, k)) {
    snprintf(why, why_len, "%zu grid(s) of '%s' leave no fit (need two or more beyond the floor, constants >= 0)",
             k, fit_path);
    return ATL_SWMODEL_NO_FIT;
  }
  m->k_chunk = fm.k_chunk;
  m->k_queue = fm.k_queue;
  m->k_floor = fm.k_floor;
  m->k_launch = fm.k_launch;
  for (size_t i = 0; i < n; i++)
    in[i] = same && in_list(rq->grids, rq->ngrids, pt[i].workgroups);
  return 0;
}

static void print_median(FILE *out, const char *label, struct atl_swmodel_error e)
{
  if (e.n)
    fprintf(out, "%s (%zu grids): system %.0f%%, software %.0f%%, speedup %.0f%%\n", label, e.n, 100 * e.system,
            100 * e.software, 100 * e.speedup);
}

int atl_swmodel_report(FILE *out, const struct atl_swmodel_request *rq, char *why, size_t why_len)
{
  struct atl_result_set set;
  struct atl_swmodel m;
  struct atl_swmodel_point pt[MAX_GRIDS];
  size_t n = 0;
  int in[MAX_GRIDS] = {0};
  const int fit = rq->fit;
  if (read_points(rq->path, &set, &m, pt, &n, why, why_len))
    return ATL_SWMODEL_BAD_FILE;
  atl_result_set_release(&set);
  if (fit) {
    const int err = fit_pass(rq, &m, pt, n, in, why, why_len);
    if (err)
      return err;
  }
  fprintf(out, "speedup model (seed 000): t_fast %.2f ns, t_l %.3f ns, t_comp %.3f ns", m.t_fast, m.t_l, m.t_comp);
  if (fit)
    fprintf(out, "; equation (2'') k_floor %.2f, k_chunk %.3f, k_queue %.6f, (1') k_launch %.2f (t_fast) fitted on %s",
            m.k_floor, m.k_chunk, m.k_queue, m.k_launch,
            rq->fit_path == NULL || strcmp(rq->fit_path, rq->path) == 0 ? "this file" : rq->fit_path);
  fprintf(out, "\n   wgs  chunks bound  sw pred ns   sw meas ns   sw err   pred x   meas x    x err  sample\n");
  for (size_t i = 0; i < n; i++) {
    struct atl_swmodel_parts p;
    const double sw = atl_swmodel_software(&m, &pt[i].load, &p), sys = atl_swmodel_system(&m, &pt[i].all);
    const double px = sys / sw, mx = pt[i].sys_meas / pt[i].sw_meas;
    fprintf(out, "%6.0f %7.0f %5s %11.1f %12.1f %+7.0f%% %8.3f %8.3f %+7.0f%%  %s\n", pt[i].workgroups, p.chunks,
            !fit ? "-" : p.pass > p.floor ? "pass" : "floor", sw, pt[i].sw_meas, 100 * (sw / pt[i].sw_meas - 1), px,
            mx, 100 * (px / mx - 1), !fit ? "-" : in[i] ? "in" : "out");
  }
  if (!fit)
    print_median(out, "median |error|, the seed's equation (2)", atl_swmodel_evaluate(&m, pt, n, NULL, 0));
  else {
    print_median(out, "median |error| in-sample", atl_swmodel_evaluate(&m, pt, n, in, 1));
    print_median(out, "median |error| out-of-sample", atl_swmodel_evaluate(&m, pt, n, in, 0));
  }
  return 0;
}
