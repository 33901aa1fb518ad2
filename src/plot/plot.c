/* atl_plot: the figures of a result file, drawn by gnuplot. Every figure
 * is a .dat (its data) and a .gp (its script) first, so a machine without
 * gnuplot still gets the numbers, and anyone can redraw with `gnuplot X.gp`.
 * This file groups rmw and strategy rows into heatmaps, lines and bar charts
 * and tries the writers of the other kinds first (app.c, swatomic.c,
 * smem_case.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"
#include "core/escape.h"
#include "core/output_internal.h"
#include "core/resultfile.h"
#include "plot_internal.h"

enum kind { HEATMAP, LINE_CONTENTION, LINE_PADDING, BARS };
static const char *const kind_prefix[] = {"heatmap", "line-contention", "line-padding", "bars"};

struct figure {
  enum kind kind;
  char key[640];       /* the rows' configuration without the plotted axes */
  char name[256];      /* file name stem */
  size_t *rows, count; /* indices into the file's rows */
};

struct figures {
  struct figure *list;
  size_t count, cap;
};

/* The value each figure shows: Gop/s where every row has it, else ms per launch. */
struct value {
  double v, lo, hi;
};

static int uses_gops(const struct atl__rf_file *f, const struct figure *fig)
{
  for (size_t i = 0; i < fig->count; i++)
    if (!(f->rows[fig->rows[i]].gops > 0))
      return 0;
  return 1;
}

/* Gop/s scales as 1/time: the slow quartile (q3) gives the low end. */
static struct value row_value(const struct atl__rf_row *r, int gops)
{
  if (gops)
    return (struct value){r->gops, r->gops * r->median / r->q3, r->gops * r->median / r->q1};
  return (struct value){r->median, r->q1, r->q3};
}

static int is_excluded(const char *field, const char *const *excluded)
{
  for (; *excluded; excluded++)
    if (strcmp(field, *excluded) == 0)
      return 1;
  return 0;
}

/* "field=value;..." over the configuration fields, leaving out `excluded`. */
static void key_without(const struct atl__rf_row *r, const char *const *excluded, char *out, size_t len)
{
  size_t used = 0;
  out[0] = '\0';
  for (size_t i = 0; i < atl__rf_config_count; i++) {
    char buf[64];
    const char *f = atl__rf_config_fields[i], *v = atl__rf_field(r, f, buf, sizeof buf);
    if (!v[0] || is_excluded(f, excluded))
      continue;
    int n = snprintf(out + used, len - used, "%s%s=%s", used ? ";" : "", f, v);
    if (n > 0)
      used = used + (size_t)n < len ? used + (size_t)n : len - 1;
  }
}

/* The figure of @p kind and @p key, created if new; NULL if out of memory. */
static struct figure *figure_for(struct figures *figs, enum kind kind, const char *key)
{
  for (size_t i = 0; i < figs->count; i++)
    if (figs->list[i].kind == kind && strcmp(figs->list[i].key, key) == 0)
      return &figs->list[i];
  struct figure *fig = atl__grow_slot(&figs->list, &figs->count, &figs->cap, sizeof *fig, 16);
  if (fig == NULL)
    return NULL;
  fig->kind = kind;
  snprintf(fig->key, sizeof fig->key, "%s", key);
  return fig;
}

/* 0, or -1 if out of memory. */
static int figure_add(struct figure *fig, size_t row, size_t total)
{
  if (fig == NULL || (fig->rows == NULL && (fig->rows = malloc(total * sizeof *fig->rows)) == NULL))
    return -1;
  fig->rows[fig->count++] = row;
  return 0;
}

/* Sorted distinct values of a number field over a figure's rows. */
static size_t distinct(const struct atl__rf_file *f, const struct figure *fig, const char *field, double *out)
{
  size_t n = 0;
  for (size_t i = 0; i < fig->count; i++) {
    double v = atl__rf_number(&f->rows[fig->rows[i]], field, -1);
    size_t at = 0;
    while (at < n && out[at] < v)
      at++;
    if (at < n && out[at] == v)
      continue;
    memmove(out + at + 1, out + at, (n - at) * sizeof *out);
    out[at] = v;
    n++;
  }
  return n;
}

static size_t index_of(const double *values, size_t n, double v)
{
  for (size_t i = 0; i < n; i++)
    if (values[i] == v)
      return i;
  return 0;
}

/* File names keep letters, digits, '.', '_' and '-': the rest becomes '_'. */
static void append_name(char *name, size_t len, const char *part)
{
  size_t used = strlen(name);
  if (used && used + 1 < len)
    name[used++] = '-';
  for (; *part && used + 1 < len; part++) {
    char c = *part;
    int keep =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    name[used++] = keep ? c : '_';
  }
  name[used] = '\0';
}

/* The stem of a figure: its kind, then every configuration value it fixes
 * (numbers with a short prefix), in the fixed field order: deterministic. */
static void figure_name(const struct atl__rf_file *f, struct figure *fig, const char *const *excluded, int one_grid)
{
  const struct atl__rf_row *r = &f->rows[fig->rows[0]];
  fig->name[0] = '\0';
  append_name(fig->name, sizeof fig->name, kind_prefix[fig->kind]);
  for (size_t i = 0; i < atl__rf_config_count; i++) {
    char buf[64], part[96];
    const char *field = atl__rf_config_fields[i], *v = atl__rf_field(r, field, buf, sizeof buf);
    if (!v[0] || is_excluded(field, excluded) ||
        (one_grid && (strcmp(field, "wg_size") == 0 || strcmp(field, "workgroups") == 0)))
      continue;
    const char *prefix = strcmp(field, "contention") == 0   ? "c"
                         : strcmp(field, "padding") == 0    ? "p"
                         : strcmp(field, "wg_size") == 0    ? "wg"
                         : strcmp(field, "workgroups") == 0 ? "wgs"
                                                            : "";
    snprintf(part, sizeof part, "%s%s", prefix, v);
    append_name(fig->name, sizeof fig->name, part);
  }
}

/* A title without the field names: "contiguous fetch_add u32 ... (device)". */
static void figure_title(const struct atl__rf_file *f, const struct figure *fig, const char *const *excluded, char *out,
                         size_t len)
{
  const struct atl__rf_row *r = &f->rows[fig->rows[0]];
  size_t used = 0;
  out[0] = '\0';
  for (size_t i = 0; i < atl__rf_config_count; i++) {
    char buf[64];
    const char *field = atl__rf_config_fields[i], *v = atl__rf_field(r, field, buf, sizeof buf);
    if (!v[0] || is_excluded(field, excluded) || strcmp(field, "workgroups") == 0)
      continue;
    const char *prefix = strcmp(field, "contention") == 0 ? "c="
                         : strcmp(field, "padding") == 0  ? "p="
                         : strcmp(field, "wg_size") == 0  ? "wg="
                                                          : "";
    int n = snprintf(out + used, len - used, "%s%s%s", used ? " " : "", prefix, v);
    if (n > 0)
      used = used + (size_t)n < len ? used + (size_t)n : len - 1;
  }
}

static void tics(FILE *gp, const char *axis, const double *values, size_t n)
{
  fprintf(gp, "set %stics (", axis);
  for (size_t i = 0; i < n; i++)
    fprintf(gp, "%s\"%g\" %zu", i ? ", " : "", values[i], i);
  fprintf(gp, ")\n");
}

/* One colour scale for every heatmap of a file (issue [report-findings]): the same colour is the same rate in
 * each, and the scale's ticks name every decade and both ends, so a range of less than a decade still reads. */
struct colour_scale {
  double lo, hi;
};

static void colour_ticks(FILE *gp, struct colour_scale s)
{
  fprintf(gp, "set cbtics (\"%.3g\" %.6g", s.lo, s.lo);
  for (double d = pow(10, ceil(log10(s.lo))); d < s.hi; d *= 10)
    if (d > s.lo * 1.15 && d < s.hi / 1.15) /* a decade too close to an end would overprint it */
      fprintf(gp, ", \"%g\" %.6g", d, d);
  fprintf(gp, ", \"%.3g\" %.6g)\n", s.hi, s.hi);
}

/* 0, or -1 if out of memory. */
static int write_heatmap(const struct atl__rf_file *f, const struct figure *fig, FILE *dat, FILE *gp, const char *title,
                         int png, int svg, struct colour_scale scale)
{
  double *cont = malloc(fig->count * sizeof *cont), *pad = malloc(fig->count * sizeof *pad);
  if (cont == NULL || pad == NULL) {
    free(cont);
    free(pad);
    return -1;
  }
  size_t nc = distinct(f, fig, "contention", cont), np = distinct(f, fig, "padding", pad);
  int gops = uses_gops(f, fig);
  double lo = 0, hi = 0;
  fprintf(dat, "# x_index y_index contention padding %s low high median_ms q1_ms q3_ms\n", gops ? "gops" : "median_ms");
  for (size_t i = 0; i < fig->count; i++) {
    const struct atl__rf_row *r = &f->rows[fig->rows[i]];
    double c = atl__rf_number(r, "contention", 0), p = atl__rf_number(r, "padding", 0);
    struct value v = row_value(r, gops);
    fprintf(dat, "%zu %zu %g %g %.6g %.6g %.6g %.6g %.6g %.6g\n", index_of(cont, nc, c), index_of(pad, np, p), c, p,
            v.v, v.lo, v.hi, r->median, r->q1, r->q3);
    lo = i == 0 || v.v < lo ? v.v : lo;
    hi = i == 0 || v.v > hi ? v.v : hi;
  }
  const char *pattern = atl_row_config(f->rows[fig->rows[0]].row, "pattern");
  atl__plot_gp_head(gp, fig->name, title, f->device, png);
  /* Every pattern's contention is threads per word (random: on average), so
   * one label fits all; older files used distinct words for random, which
   * their results README states. */
  (void)pattern;
  fprintf(gp, "set xlabel \"contention (threads per word)\"\n");
  fprintf(gp, "set ylabel \"padding (words between targets)\"\n");
  fprintf(gp, "set cblabel \"%s\"\nset logscale cb\n", gops ? "Gop/s (median)" : "ms per launch (median)");
  /* An explicit range, the file's (a log scale cannot autoscale a single value); one figure alone keeps its own. */
  if (!(scale.lo > 0 && scale.hi > scale.lo))
    scale = (struct colour_scale){lo * 0.95, hi * 1.05};
  fprintf(gp, "set cbrange [%.6g:%.6g]\n", scale.lo, scale.hi);
  colour_ticks(gp, scale);
  fprintf(gp, "set palette rgbformulae 33,13,10\nset xrange [-0.5:%zu.5]\nset yrange [-0.5:%zu.5]\n", nc - 1, np - 1);
  tics(gp, "x", cont, nc);
  tics(gp, "y", pad, np);
  fprintf(gp, "set style fill solid 1.0 noborder\n");
  fputs("plot ", gp);
  atl__plot_gp_file(gp, fig->name, "dat");
  fprintf(gp,
          " using 1:2:(0.5):(0.5):5 with boxxyerror fillcolor palette notitle, \\\n"
          "     \"\" using 1:2:(sprintf(\"%%.3g\", $5)) with labels font \",%d\" notitle\n",
          nc * np > 64 ? 7 : 9);
  atl__plot_gp_tail(gp, fig->name, png, svg);
  free(cont);
  free(pad);
  return 0;
}

/* 0, or -1 if out of memory. */
static int write_line(const struct atl__rf_file *f, const struct figure *fig, FILE *dat, FILE *gp, const char *title,
                      int png, int svg)
{
  const char *axis = fig->kind == LINE_CONTENTION ? "contention" : "padding";
  int gops = uses_gops(f, fig);
  /* Rows in the order of the varying axis: a line joins neighbours. */
  double *xs = malloc(fig->count * sizeof *xs);
  if (xs == NULL)
    return -1;
  size_t nx = distinct(f, fig, axis, xs);
  fprintf(dat, "# %s %s low high median_ms q1_ms q3_ms\n", axis, gops ? "gops" : "median_ms");
  for (size_t k = 0; k < nx; k++)
    for (size_t i = 0; i < fig->count; i++) {
      const struct atl__rf_row *r = &f->rows[fig->rows[i]];
      if (atl__rf_number(r, axis, 0) != xs[k])
        continue;
      struct value v = row_value(r, gops);
      fprintf(dat, "%g %.6g %.6g %.6g %.6g %.6g %.6g\n", xs[k], v.v, v.lo, v.hi, r->median, r->q1, r->q3);
    }
  atl__plot_gp_head(gp, fig->name, title, f->device, png);
  fprintf(gp, "set xlabel \"%s\"\n",
          fig->kind == LINE_CONTENTION ? "contention (threads per word)" : "padding (words between targets)");
  fprintf(gp, "set ylabel \"%s\"\n", gops ? "Gop/s (median, IQR bars)" : "ms per launch (median, IQR bars)");
  fprintf(gp,
          "set logscale x 2\nset logscale y\nset grid\nset autoscale fix\nset offsets graph 0.05, graph 0.05, graph "
          "0.1, graph 0.1\n");
  fputs("plot ", gp);
  atl__plot_gp_file(gp, fig->name, "dat");
  fputs(" using 1:2:3:4 with yerrorlines pointtype 7 linewidth 2 notitle\n", gp);
  atl__plot_gp_tail(gp, fig->name, png, svg);
  free(xs);
  return 0;
}

static void write_bars(const struct atl__rf_file *f, const struct figure *fig, FILE *dat, FILE *gp, const char *title,
                       int png, int svg)
{
  int gops = uses_gops(f, fig);
  fprintf(dat, "# index strategy %s low high median_ms q1_ms q3_ms\n", gops ? "gops" : "median_ms");
  for (size_t i = 0; i < fig->count; i++) {
    const struct atl__rf_row *r = &f->rows[fig->rows[i]];
    char buf[64];
    struct value v = row_value(r, gops);
    fprintf(dat, "%zu ", i);
    atl__esc_gp_datum(dat, atl__rf_field(r, "strategy", buf, sizeof buf)); /* xtic(2) reads it: one field, whatever the name */
    fprintf(dat, " %.6g %.6g %.6g %.6g %.6g %.6g\n", v.v, v.lo, v.hi, r->median, r->q1, r->q3);
  }
  atl__plot_gp_head(gp, fig->name, title, f->device, png);
  fprintf(gp, "set ylabel \"%s\"\nset xlabel \"strategy\"\n",
          gops ? "Gop/s (median, IQR bars)" : "ms per launch (median, IQR bars)");
  fprintf(gp, "set yrange [0:*]\nset xrange [-0.6:%zu.6]\nset boxwidth 0.7\nset style fill solid 0.6\nset grid ytics\n",
          fig->count - 1);
  fprintf(gp, "set xtics rotate by -30\n");
  /* The strategies of this configuration that have no bar, named with why (their status): a bar that is
   * missing without a word reads as a strategy never tried. */
  /* matched by what the chart is of (pattern, op, result): a row that did not run lacks the rest */
  static const char *const what[] = {"pattern", "op", "result"};
  const struct atl__rf_row *drawn = &f->rows[fig->rows[0]];
  char missing[400] = "";
  for (size_t i = 0; i < f->count; i++) {
    const struct atl__rf_row *r = &f->rows[i];
    char buf[64], a[64], b[64];
    if (atl_row_config(r->row, "strategy") == NULL || (atl__rf_row_timed(r) && r->verified != 0))
      continue;
    int same = 1;
    for (int k = 0; k < 3 && same; k++)
      same = strcmp(atl__rf_field(r, what[k], a, sizeof a), atl__rf_field(drawn, what[k], b, sizeof b)) == 0;
    if (!same)
      continue;
    const size_t used = strlen(missing);
    snprintf(missing + used, sizeof missing - used, "%s%s (%s)", used ? ", " : "",
             atl__rf_field(r, "strategy", buf, sizeof buf),
             r->verified == 0 && atl__rf_row_timed(r) ? "not verified" : r->status);
  }
  if (missing[0]) {
    fputs("set label 1 ", gp);
    char label[440];
    snprintf(label, sizeof label, "no bar: %s", missing);
    atl__esc_gp_string(gp, label);
    fputs(" at graph 0.02, graph 0.96 left front font \",9\"\n", gp);
  }
  fputs("plot ", gp);
  atl__plot_gp_file(gp, fig->name, "dat");
  fputs(" using 1:3:xtic(2) with boxes notitle, \\\n"
        "     \"\" using 1:3:4:5 with yerrorbars pointtype 0 linecolor rgb \"black\" notitle\n",
        gp);
  atl__plot_gp_tail(gp, fig->name, png, svg);
}

void atl_plot_options_init(struct atl_plot_options *o)
{
  memset(o, 0, sizeof *o);
  o->png = 1;
  /* a gnuplot that hangs (a terminal waiting for a display, a huge SVG) must not hang the caller */
  o->timeout = 60;
}

static void free_figures(struct figures *figs)
{
  for (size_t i = 0; i < figs->count; i++)
    free(figs->list[i].rows);
  free(figs->list);
}

/* The heatmaps, lines and bar charts of rmw and strategy rows. */
static int plot_rows(struct atl__plot *p, const struct atl__rf_file *f, const char *path, const char *dir)
{
  const int png = p->png, svg = p->svg;
  int rc = 0;
  /* Groups: strategy rows make bar charts; the rest heatmaps or lines. */
  static const char *const no_axes[] = {"contention", "padding", NULL};
  static const char *const no_strategy[] = {"strategy", NULL};
  static const char *const no_contention[] = {"contention", NULL}, *const no_padding[] = {"padding", NULL};
  struct figures figs = {0};
  size_t skipped = 0;
  for (size_t i = 0; i < f->count; i++) {
    const struct atl__rf_row *r = &f->rows[i];
    if (!atl__rf_row_timed(r) || r->verified == 0) {
      skipped++;
      continue;
    }
    char key[640];
    int strategy = atl_row_config(r->row, "strategy") != NULL;
    key_without(r, strategy ? no_strategy : no_axes, key, sizeof key);
    if (figure_add(figure_for(&figs, strategy ? BARS : HEATMAP, key), i, f->count) != 0) {
      free_figures(&figs);
      return atl__plot_fail(p, ATL_ENOMEM, "out of memory");
    }
  }
  /* A heatmap needs both axes to vary; with one it is a line, with none no figure. */
  size_t single = 0;
  for (size_t i = 0; i < figs.count; i++) {
    struct figure *fig = &figs.list[i];
    if (fig->kind == BARS)
      continue;
    double *tmp = malloc(fig->count * sizeof *tmp);
    if (tmp == NULL) {
      free_figures(&figs);
      return atl__plot_fail(p, ATL_ENOMEM, "out of memory");
    }
    size_t nc = distinct(f, fig, "contention", tmp), np = distinct(f, fig, "padding", tmp);
    free(tmp);
    if (nc > 1 && np > 1)
      fig->kind = HEATMAP;
    else if (nc > 1)
      fig->kind = LINE_CONTENTION;
    else if (np > 1)
      fig->kind = LINE_PADDING;
    else {
      single += fig->count;
      fig->count = 0; /* one point: nothing to draw */
    }
  }
  /* The grid goes into file names only where the file has more than one. */
  int one_grid = 1;
  for (size_t i = 0; i < f->count && figs.count; i++) {
    const struct atl__rf_row *r = &f->rows[i], *first = &f->rows[figs.list[0].rows[0]];
    if (atl__rf_row_timed(r) && (atl__rf_number(r, "wg_size", 0) != atl__rf_number(first, "wg_size", 0) ||
                            atl__rf_number(r, "workgroups", 0) != atl__rf_number(first, "workgroups", 0)))
      one_grid = 0;
  }
  size_t drawable = 0;
  for (size_t i = 0; i < figs.count; i++)
    drawable += figs.list[i].count > 0;
  if (drawable == 0) {
    free_figures(&figs);
    return atl__plot_fail(p, ATL_ENOTSUP, "'%s' has nothing to draw: %zu rows not ok, not verified or implausible, "
                          "%zu in groups of one point", path, skipped, single);
  }
  if ((rc = atl__plot_mkdir(p, dir)) != 0) {
    free_figures(&figs);
    return rc;
  }

  /* The one colour scale: the range of every heatmap's values, where all of them show Gop/s. */
  struct colour_scale scale = {0, 0};
  int all_gops = 1;
  for (size_t i = 0; i < figs.count; i++)
    if (figs.list[i].kind == HEATMAP && figs.list[i].count)
      all_gops &= uses_gops(f, &figs.list[i]);
  for (size_t i = 0; all_gops && i < figs.count; i++)
    for (size_t k = 0; figs.list[i].kind == HEATMAP && k < figs.list[i].count; k++) {
      const double v = row_value(&f->rows[figs.list[i].rows[k]], 1).v;
      scale.lo = scale.lo == 0 || v * 0.95 < scale.lo ? v * 0.95 : scale.lo;
      scale.hi = v * 1.05 > scale.hi ? v * 1.05 : scale.hi;
    }
  size_t written = 0;
  for (size_t i = 0; i < figs.count && rc == 0; i++) {
    struct figure *fig = &figs.list[i];
    if (fig->count == 0)
      continue;
    const char *const *excluded = fig->kind == BARS              ? no_strategy
                                  : fig->kind == HEATMAP         ? no_axes
                                  : fig->kind == LINE_CONTENTION ? no_contention
                                                                 : no_padding;
    figure_name(f, fig, excluded, one_grid);
    char title[400];
    figure_title(f, fig, excluded, title, sizeof title);
    struct atl__plot_texts t;
    if ((rc = atl__plot_texts_open(p, &t)) != 0)
      break;
    int oom = 0;
    atl__plot_dat_head(t.dat, fig->name, path, f->device);
    if (fig->kind == HEATMAP)
      oom = write_heatmap(f, fig, t.dat, t.gp, title, png, svg, scale) != 0;
    else if (fig->kind == BARS)
      write_bars(f, fig, t.dat, t.gp, title, png, svg);
    else
      oom = write_line(f, fig, t.dat, t.gp, title, png, svg) != 0;
    if ((rc = atl__plot_texts_write(p, &t, dir, fig->name, oom)) == 0) {
      written++;
      atl__plot_draw(p, dir, fig->name);
    }
  }
  free_figures(&figs);
  if (rc != 0)
    return rc;
  char what[96];
  snprintf(what, sizeof what, "the data (.dat) and scripts (.gp) of %zu figures", written);
  atl__plot_no_gnuplot(p, dir, what, 1);
  if (skipped || single)
    atl__plot_say(p, ATL_PLOT_NOTE, "%zu rows not ok, not verified or implausible and %zu rows in groups of one "
                  "point are not drawn", skipped, single);
  return 0;
}

int atl_plot(const char *path, const char *dir, const struct atl_plot_options *o, struct atl_plot_outcome *out,
             char *why, size_t why_len)
{
  char default_dir[1100];
  if (dir == NULL) { /* FILE-figures in the current folder (as basename(1) names FILE): a rerun overwrites them */
    size_t end = strlen(path), start, len;
    while (end > 1 && path[end - 1] == '/')
      end--;
    for (start = end; start > 0 && path[start - 1] != '/';)
      start--;
    for (len = end - start; len > 1 && path[start + len - 1] != '.';)
      len--;
    len = len > 1 ? len - 1 : end - start; /* without its extension, where it has one after its first byte */
    snprintf(default_dir, sizeof default_dir, "%.*s-figures", (int)(len < 1000 ? len : 1000), path + start);
    dir = default_dir;
  }
  struct atl__plot p;
  int rc = atl__plot_start(&p, o, dir, why, why_len);
  if (rc != 0)
    goto out;
  p.gnuplot = atl__plot_find_gnuplot(p.gnuplot_buf, sizeof p.gnuplot_buf);
  /* a folder: seed 002's case study */
  if ((rc = atl__plot_smem_case(&p, path, dir)) <= 0)
    goto out;
  struct atl__rf_file f;
  if (atl__rf_load(path, &f, why, why_len)) {
    rc = ATL_EINVAL;
    goto out;
  }
  /* seed 000's figures come from `atomlab app swatomic` files; app rows get bar charts of their own */
  if ((rc = atl__plot_swatomic(&p, &f.set, path, dir)) > 0 && (rc = atl__plot_app(&p, &f.set, path, dir)) > 0)
    rc = plot_rows(&p, &f, path, dir);
  atl__rf_free(&f);
out:
  return atl__plot_finish(&p, out, rc);
}
