/* atomlab plot on app results (`atomlab app ...`): one bar chart per group of
 * rows. A group is the app and the variant up to its last '/' (the histogram's
 * "u8/uniform/shared" is bar "shared" of group "u8/uniform"); the bar is the
 * app's rate where every row of the group has one (GB/s, M keys/s, ...), else
 * the time per launch, with the IQR of the timed samples as error bars. A
 * group with a read-ceiling row draws it as a dashed line, so the ratio the
 * issue targets is read off the figure. */
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"
#include "cli.h"
#include "escape.h"
#include "plot.h"

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

/* The group of @p row, created if new. */
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
    die("out of memory");
  *groups = g;
  g = &(*groups)[(*n)++];
  memset(g, 0, sizeof *g);
  memcpy(g->app, app, sizeof app);
  memcpy(g->prefix, prefix, sizeof prefix);
  if ((g->rows = malloc(max_rows * sizeof *g->rows)) == NULL)
    die("out of memory");
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

/* Writes NAME.dat and NAME.gp of one group. */
static void write_group(const struct app_group *g, const char *path, const char *device, const char *dir,
                        const char *name, int png, int svg)
{
  const int rate = group_rate(g);
  char *dat_text = NULL, *gp_text = NULL;
  size_t dat_len = 0, gp_len = 0;
  FILE *dat = open_memstream(&dat_text, &dat_len), *gp = open_memstream(&gp_text, &gp_len);
  if (dat == NULL || gp == NULL)
    die("out of memory");
  plot_dat_head(dat, name, path, device);
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
    esc_gp_datum(dat, label);
    fprintf(dat, " %.6g %.6g %.6g %.6g %.6g %.6g\n", v, lo, hi, med, q1, q3);
  }
  fclose(dat);
  char title[300];
  snprintf(title, sizeof title, "atomlab app %s%s%s", g->app, g->prefix[0] ? ": " : "", g->prefix);
  plot_gp_head(gp, name, title, device, png);
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
  plot_gp_file(gp, name, "dat");
  fputs(" using 1:3:xtic(2) with boxes notitle, \\\n"
        "     \"\" using 1:3:4:5 with yerrorbars pointtype 0 linecolor rgb \"black\" notitle\n",
        gp);
  plot_gp_tail(gp, name, png, svg);
  fclose(gp);
  char file[2200];
  snprintf(file, sizeof file, "%s/%s.dat", dir, name);
  plot_write_text(file, dat_text, dat_len);
  snprintf(file, sizeof file, "%s/%s.gp", dir, name);
  plot_write_text(file, gp_text, gp_len);
}

int plot_app_file(const struct atl_result_set *set, const char *path, const char *dir, int png, int svg)
{
  if (strcmp(set->kind, "app") != 0)
    return -1;
  char device[300];
  snprintf(device, sizeof device, "%s (%s)", set->meta.device.name, set->meta.device.backend);
  size_t total = set->count, ngroups = 0, skipped = 0;
  struct app_group *groups = NULL;
  for (size_t r = 0; r < set->count; r++) {
    const struct atl_row *row = &set->rows[r];
    if (!drawable(row)) {
      skipped++;
      continue;
    }
    struct app_group *g = group_of(&groups, &ngroups, row, total);
    g->rows[g->count++] = row;
  }
  if (ngroups == 0)
    die("'%s' has nothing to draw: none of its %zu rows is ok, verified and timed", path, total);
  char gp_buf[4096];
  const char *gnuplot = plot_find_gnuplot(gp_buf, sizeof gp_buf);
  int failed = 0;
  for (size_t i = 0; i < ngroups; i++) {
    char name[256];
    snprintf(name, sizeof name, "bars-%s%s%s", groups[i].app, groups[i].prefix[0] ? "-" : "", groups[i].prefix);
    safe_name(name);
    write_group(&groups[i], path, device, dir, name, png, svg);
    failed += plot_draw(gnuplot, dir, name, png, svg);
    free(groups[i].rows);
  }
  free(groups);
  if (gnuplot == NULL)
    fprintf(stderr,
            "warning: gnuplot not found (install gnuplot-nox, or set ATL_GNUPLOT): wrote the data (.dat) and scripts "
            "(.gp) of %zu figures to %s; draw them there with `gnuplot NAME.gp`\n",
            ngroups, dir);
  if (skipped)
    fprintf(stderr, "note: %zu rows not ok, not verified or not timed are not drawn\n", skipped);
  return failed;
}
