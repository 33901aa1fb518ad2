/* atl_plot on app results (`atomlab app ...`): one bar chart per group of
 * rows. A group is the app and the variant up to its last '/' (the histogram's
 * "u8/uniform/shared" is bar "shared" of group "u8/uniform"); the bar is the
 * app's rate where every row of the group has one (GB/s, M keys/s, ...), else
 * the time per launch, with the IQR of the timed samples as error bars. A
 * group with a read-ceiling row draws it as a dashed line, so the ratio the
 * issue targets is read off the figure. */
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"
#include "core/escape.h"
#include "plot_internal.h"

/* Rates in the order they are preferred, with their axis labels. */
static const char *const rate_keys[] = {"gbps", "gops", "mkeys_per_s", "madds_per_s", "minserts_per_s", "mops_per_s"};
static const char *const rate_labels[] = {"GB/s", "Gop/s", "M keys/s", "M adds/s", "M inserts/s", "M op/s"};
#define N_RATES (sizeof rate_keys / sizeof rate_keys[0])

struct app_group {
  char app[64], prefix[128];
  const struct atl_row **rows;
  size_t count;
};

static const char *config(const struct atl_row *row, const char *name)
{
  const char *v = atl_row_config(row, name);
  return v ? v : "";
}

static int drawable(const struct atl_row *row)
{
  return row->status == ATL_STATUS_OK && row->verified && row->time_ms.median > 0;
}

/* The group of @p row, created if new; NULL if out of memory. */
static struct app_group *group_of(struct app_group **groups, size_t *n, const struct atl_row *row, size_t max_rows)
{
  const char *variant = config(row, "variant"), *slash = strrchr(variant, '/');
  char app[sizeof (*groups)->app], prefix[sizeof (*groups)->prefix];
  /* compared as stored, truncated: a long name still finds its group */
  snprintf(app, sizeof app, "%s", config(row, "app"));
  snprintf(prefix, sizeof prefix, "%.*s", slash ? (int)(slash - variant) : 0, variant);
  for (size_t i = 0; i < *n; i++)
    if (strcmp((*groups)[i].app, app) == 0 && strcmp((*groups)[i].prefix, prefix) == 0)
      return &(*groups)[i];
  struct app_group *g = realloc(*groups, (*n + 1) * sizeof **groups);
  if (g == NULL)
    return NULL;
  *groups = g;
  g = &(*groups)[*n];
  memset(g, 0, sizeof *g);
  memcpy(g->app, app, sizeof app);
  memcpy(g->prefix, prefix, sizeof prefix);
  if ((g->rows = malloc(max_rows * sizeof *g->rows)) == NULL)
    return NULL;
  (*n)++;
  return g;
}

/* The rate every row of the group reports, or -1 (then bars show ms per launch). */
static int group_rate(const struct app_group *g)
{
  for (size_t k = 0; k < N_RATES; k++) {
    size_t have = 0;
    for (size_t i = 0; i < g->count; i++)
      have += atl_row_metric(g->rows[i], rate_keys[k], 0) > 0;
    if (have == g->count)
      return (int)k;
  }
  return -1;
}

static void safe_name(char *s)
{
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '-'))
      *s = '-';
}

/* Writes NAME.dat and NAME.gp of one group; 0 or a negative ATL_E* code. */
static int write_group(struct atl__plot *p, const struct app_group *g, const char *path, const char *device,
                       const char *dir, const char *name)
{
  const int png = p->png, svg = p->svg;
  const int rate = group_rate(g);
  struct atl__plot_texts t;
  if (atl__plot_texts_open(p, &t) != 0)
    return ATL_ENOMEM;
  FILE *dat = t.dat, *gp = t.gp;
  atl__plot_dat_head(dat, name, path, device);
  fprintf(dat, "# index variant %s low high median_ms q1_ms q3_ms\n", rate >= 0 ? rate_keys[rate] : "median_ms");
  double ceiling = 0;
  for (size_t i = 0; i < g->count; i++) {
    const struct atl_row *row = g->rows[i];
    const struct atl_stats *t = &row->time_ms;
    const double med = t->median, q1 = t->q1 > 0 ? t->q1 : med, q3 = t->q3 > 0 ? t->q3 : med;
    const char *variant = config(row, "variant"), *slash = strrchr(variant, '/');
    char label[64];
    snprintf(label, sizeof label, "%s", slash ? slash + 1 : variant);
    safe_name(label);
    double v = med, lo = q1, hi = q3;
    if (rate >= 0) { /* a rate is work / time: the IQR of times maps inverted */
      v = atl_row_metric(row, rate_keys[rate], 0);
      lo = v * med / q3;
      hi = v * med / q1;
    }
    if (strcmp(label, "read-ceiling") == 0)
      ceiling = v;
    fprintf(dat, "%zu ", i);
    atl__esc_gp_datum(dat, label);
    fprintf(dat, " %.6g %.6g %.6g %.6g %.6g %.6g\n", v, lo, hi, med, q1, q3);
  }
  char title[300];
  snprintf(title, sizeof title, "atomlab app %s%s%s", g->app, g->prefix[0] ? ": " : "", g->prefix);
  atl__plot_gp_head(gp, name, title, device, png);
  fprintf(gp, "set ylabel \"%s (median, IQR bars)\"\nset xlabel \"variant\"\n",
          rate >= 0 ? rate_labels[rate] : "ms per launch");
  fprintf(gp, "set yrange [0:*]\nset xrange [-0.6:%zu.6]\nset boxwidth 0.7\nset style fill solid 0.6\nset grid ytics\n",
          g->count - 1);
  fprintf(gp, "set xtics rotate by -30\n");
  if (ceiling > 0 && rate >= 0)
    fprintf(gp, "set arrow from graph 0, first %.6g to graph 1, first %.6g nohead dashtype 2 linecolor rgb \"red\"\n"
                "set label \"read ceiling\" at graph 0.01, first %.6g offset 0,0.6 textcolor rgb \"red\"\n",
            ceiling, ceiling, ceiling);
  fputs("plot ", gp);
  atl__plot_gp_file(gp, name, "dat");
  fputs(" using 1:3:xtic(2) with boxes notitle, \\\n"
        "     \"\" using 1:3:4:5 with yerrorbars pointtype 0 linecolor rgb \"black\" notitle\n",
        gp);
  atl__plot_gp_tail(gp, name, png, svg);
  return atl__plot_texts_write(p, &t, dir, name, 0);
}

int atl__plot_app(struct atl__plot *p, const struct atl_result_set *set, const char *path, const char *dir)
{
  if (strcmp(set->kind, "app") != 0)
    return 1;
  int rc = atl__plot_mkdir(p, dir);
  if (rc != 0)
    return rc;
  char device[300];
  snprintf(device, sizeof device, "%s (%s)", set->meta.device.name, set->meta.device.backend);
  size_t total = set->count, ngroups = 0, skipped = 0;
  struct app_group *groups = NULL;
  for (size_t r = 0; r < set->count && rc == 0; r++) {
    const struct atl_row *row = &set->rows[r];
    if (!drawable(row)) {
      skipped++;
      continue;
    }
    struct app_group *g = group_of(&groups, &ngroups, row, total);
    if (g == NULL)
      rc = atl__plot_fail(p, ATL_ENOMEM, "out of memory");
    else
      g->rows[g->count++] = row;
  }
  if (rc == 0 && ngroups == 0)
    rc = atl__plot_fail(p, ATL_ENOTSUP, "'%s' has nothing to draw: none of its %zu rows is ok, verified and timed",
                        path, total);
  for (size_t i = 0; i < ngroups && rc == 0; i++) {
    char name[256];
    snprintf(name, sizeof name, "bars-%s%s%s", groups[i].app, groups[i].prefix[0] ? "-" : "", groups[i].prefix);
    safe_name(name);
    rc = write_group(p, &groups[i], path, device, dir, name);
    if (rc == 0)
      atl__plot_draw(p, dir, name);
  }
  for (size_t i = 0; i < ngroups; i++)
    free(groups[i].rows);
  free(groups);
  if (rc != 0)
    return rc;
  char what[96];
  snprintf(what, sizeof what, "the data (.dat) and scripts (.gp) of %zu figures", ngroups);
  atl__plot_no_gnuplot(p, dir, what, 1);
  if (skipped)
    atl__plot_say(p, ATL_PLOT_NOTE, "%zu rows not ok, not verified or not timed are not drawn", skipped);
  return 0;
}
