/* atl_plot on `atomlab app swatomic --experiment` files: seed 000's
 * Figures 4 (copy kernel), 8 (micro-benchmark 1), 9 (micro-benchmark 2) and
 * the speedup model, one swatomic.dat with a column per row variant. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"
#include "plot_internal.h"

/* The columns of swatomic.dat: one per row variant, then the derived numbers. */
static const char *const sw_cols[] = {"system", "warp", "software", "mem", "system+mem", "warp+mem", "software+mem"};
enum { SW_NCOLS = 7, SW_MAX_GRIDS = 64 };

struct sw_grid {
  double groups, ms[SW_NCOLS], ideal, pred, meas;
};

/* The figures of seed 000: Figure 4 (copy kernel), 8 (micro-benchmark 1), 9 (micro-benchmark 2) and the model. */
static const struct {
  const char *name, *title, *ylabel, *plot;
} sw_figs[] = {
    {"swatomic-fig4-copy", "Figure 4: copy kernel, system atomic", "ms per launch",
     "plot 'swatomic.dat' using 1:2 title 'atomic only' with linespoints, '' using 1:5 title 'memory only' with "
     "linespoints, '' using 1:6 title 'both' with linespoints, '' using 1:9 title 'ideal (atomic + memory)' with "
     "linespoints dashtype 2"},
    {"swatomic-fig8-mb1", "Figure 8: micro-benchmark 1 (atomic only)", "ms per launch",
     "plot 'swatomic.dat' using 1:2 title 'system' with linespoints, '' using 1:3 title 'warp-aggregated' with "
     "linespoints, '' using 1:4 title 'software' with linespoints"},
    {"swatomic-fig9-mb2", "Figure 9: micro-benchmark 2 (atomic + memory transaction)", "ms per launch",
     "plot 'swatomic.dat' using 1:6 title 'system' with linespoints, '' using 1:7 title 'warp-aggregated' with "
     "linespoints, '' using 1:8 title 'software' with linespoints"},
    {"swatomic-model", "Speedup of the software atomic over the system atomic (atomic only)",
     "t_system / t_software",
     "plot 'swatomic.dat' using 1:10 title 'predicted (equations 1-4)' with linespoints, '' using 1:11 title "
     "'measured' with linespoints"},
};

static double sw_metric(const struct atl_row *row, const char *name) { return atl_row_metric(row, name, NAN); }

int atl__plot_swatomic(struct atl__plot *p, const struct atl_result_set *set, const char *path, const char *dir)
{
  const int png = p->png, svg = p->svg;
  const char *app = set->count ? atl_row_config(&set->rows[0], "app") : NULL;
  if (strcmp(set->kind, "app") != 0 || app == NULL || strcmp(app, "swatomic") != 0)
    return 1;
  struct sw_grid grids[SW_MAX_GRIDS];
  size_t n = 0, skipped = 0;
  for (size_t k = 0; k < set->count; k++) {
    const struct atl_row *r = &set->rows[k];
    const char *variant = atl_row_config(r, "variant");
    const double g = sw_metric(r, "workgroups"), t = r->time_ms.median;
    if (variant == NULL || strcmp(variant, "model") == 0 || isnan(g))
      continue;
    if (r->status != ATL_STATUS_OK || !r->verified || !(t > 0)) {
      skipped++;
      continue;
    }
    size_t i = 0;
    while (i < n && grids[i].groups != g)
      i++;
    if (i == n) {
      if (n == SW_MAX_GRIDS)
        continue;
      grids[n].groups = g;
      for (size_t c = 0; c < SW_NCOLS; c++)
        grids[n].ms[c] = NAN;
      grids[n].ideal = grids[n].pred = grids[n].meas = NAN;
      n++;
    }
    for (size_t c = 0; c < SW_NCOLS; c++)
      if (strcmp(variant, sw_cols[c]) == 0)
        grids[i].ms[c] = t;
    if (strcmp(variant, "system+mem") == 0)
      grids[i].ideal = sw_metric(r, "ideal_ms");
    if (strcmp(variant, "software") == 0) {
      grids[i].pred = sw_metric(r, "predicted_speedup");
      grids[i].meas = sw_metric(r, "measured_speedup");
    }
  }
  char devtext[300];
  snprintf(devtext, sizeof devtext, "%s (%s)", set->meta.device.name, set->meta.device.backend);
  if (n == 0)
    return atl__plot_fail(p, ATL_ENOTSUP, "'%s' has nothing to draw: %zu swatomic rows not ok or not verified", path,
                          skipped);
  int rc = atl__plot_mkdir(p, dir);
  if (rc != 0)
    return rc;
  /* grids in increasing order: the lines run left to right */
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0 && grids[j - 1].groups > grids[j].groups; j--) {
      struct sw_grid tmp = grids[j];
      grids[j] = grids[j - 1];
      grids[j - 1] = tmp;
    }
  char *dat = NULL;
  size_t dat_len = 0;
  FILE *df = open_memstream(&dat, &dat_len);
  if (df == NULL)
    return atl__plot_fail(p, ATL_ENOMEM, "out of memory");
  atl__plot_dat_head(df, "seed 000 figures", path, devtext);
  fprintf(df, "# ms per launch at the median; ? = not measured or not verified\n"
              "# workgroups system warp software mem system+mem warp+mem software+mem ideal predicted_speedup "
              "measured_speedup\n");
  for (size_t i = 0; i < n; i++) {
    const double v[] = {grids[i].ms[0], grids[i].ms[1], grids[i].ms[2], grids[i].ms[3], grids[i].ms[4],
                        grids[i].ms[5], grids[i].ms[6], grids[i].ideal, grids[i].pred, grids[i].meas};
    fprintf(df, "%g", grids[i].groups);
    for (size_t c = 0; c < sizeof v / sizeof v[0]; c++)
      isnan(v[c]) ? fprintf(df, " ?") : fprintf(df, " %.6g", v[c]);
    fputc('\n', df);
  }
  fclose(df);
  if ((rc = atl__plot_write(p, dir, "swatomic", "dat", dat, dat_len)) != 0)
    return rc;
  for (size_t k = 0; k < sizeof sw_figs / sizeof sw_figs[0]; k++) {
    char *gp = NULL;
    size_t gp_len = 0;
    FILE *gf = open_memstream(&gp, &gp_len);
    if (gf == NULL)
      return atl__plot_fail(p, ATL_ENOMEM, "out of memory");
    atl__plot_gp_head(gf, sw_figs[k].name, sw_figs[k].title, devtext, png || !svg);
    fprintf(gf, "set datafile missing '?'\nset key top left\nset grid\nset logscale x 2\n"
                "set xlabel 'work-groups (the coordinator included)'\nset ylabel '%s'\n%s%s\n",
            sw_figs[k].ylabel, k < 3 ? "set logscale y 10 # the variants differ by orders of magnitude\n" : "",
            sw_figs[k].plot);
    atl__plot_gp_tail(gf, sw_figs[k].name, png, svg);
    fclose(gf);
    if ((rc = atl__plot_write(p, dir, sw_figs[k].name, "gp", gp, gp_len)) != 0)
      return rc;
    atl__plot_draw(p, dir, sw_figs[k].name);
  }
  atl__plot_no_gnuplot(p, dir, "swatomic.dat and the scripts (.gp) of seed 000's figures", 0);
  if (skipped)
    atl__plot_say(p, ATL_PLOT_NOTE, "%zu rows not ok or not verified are not drawn", skipped);
  return 0;
}
