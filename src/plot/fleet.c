/* atl_fleet_plot (fleet.h): the fleet's figure, drawn with the frame every atl_plot figure shares: per op (x)
 * every node's deviation from the fleet's median in % (y), the node's band as a grey bar around 0, nodes inside
 * it in blue, flagged ones in red with their names. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "atomlab.h"
#include "atomlab/fleet.h"
#include "core/escape.h"
#include "plot_internal.h"

/* "peak fetch_add u32 global unused": the measure and the configuration's values, short enough for a tic. */
static void tic_label(const struct atl_fleet_op *op, char *out, size_t len)
{
  const char *gops = strstr(op->measure, "_gops"); /* every rate is Gop/s but the axis says what it is */
  size_t used = (size_t)snprintf(out, len, "%.*s", gops ? (int)(gops - op->measure) : (int)strlen(op->measure),
                                 op->measure);
  for (const char *p = op->key; *p && used + 1 < len;) {
    const char *eq = strchr(p, '='), *end = strchr(p, ';');
    if (eq == NULL)
      break;
    if (end == NULL)
      end = p + strlen(p);
    const int w = snprintf(out + used, len - used, " %.*s", (int)(end - eq - 1), eq + 1);
    used = w > 0 && used + (size_t)w < len ? used + (size_t)w : len - 1;
    p = *end ? end + 1 : end;
  }
}

static void write_dat(FILE *dat, const struct atl_fleet *fl)
{
  fputs("# op deviation_pct band_pct flagged node label\n", dat);
  for (size_t k = 0; k < fl->nops; k++) {
    const struct atl_fleet_op *op = &fl->ops[k];
    char label[200];
    tic_label(op, label, sizeof label);
    for (size_t i = 0; i < fl->nnodes; i++) {
      const struct atl_fleet_cell *c = &op->cells[i];
      if (c->mark != ATL_FLEET_IN && c->mark != ATL_FLEET_SLOW && c->mark != ATL_FLEET_FAST)
        continue;
      fprintf(dat, "%zu %.6g %.6g %d ", k, 100 * c->deviation, 100 * c->band, atl_fleet_mark_flagged(c->mark));
      atl__esc_gp_datum(dat, fl->nodes[i].name);
      fputc(' ', dat);
      atl__esc_gp_datum(dat, label);
      fputc('\n', dat);
    }
  }
}

static void write_gp(FILE *gp, const struct atl_fleet *fl, int png, int svg)
{
  char title[96];
  snprintf(title, sizeof title, "atomlab fleet: %zu nodes, %zu flagged", fl->nnodes, fl->flagged);
  atl__plot_gp_head(gp, "fleet", title, fl->nnodes ? fl->nodes[0].device : "", png);
  fprintf(gp, "set ylabel \"deviation from the fleet median (%%)\"\nset xlabel \"op\"\nset grid ytics\n"
              "set xrange [-0.6:%zu.6]\nset xtics rotate by 90 right font \",8\"\nset bmargin 16\nset key outside top\n",
          fl->nops ? fl->nops - 1 : 0);
  fputs("plot ", gp);
  atl__plot_gp_file(gp, "fleet", "dat");
  fputs(" using 1:(0):3:xtic(6) with yerrorbars pointtype 0 linecolor rgb \"#bbbbbb\" title \"band\", \\\n"
        "     \"\" using 1:($4 == 0 ? $2 : 1/0) with points pointtype 7 linecolor rgb \"#3060c0\" title \"node\", \\\n"
        "     \"\" using 1:($4 == 1 ? $2 : 1/0) with points pointtype 7 pointsize 1.5 linecolor rgb \"#d02020\" "
        "title \"flagged\", \\\n"
        "     \"\" using 1:($4 == 1 ? $2 : 1/0):5 with labels offset 1.5,0 left textcolor rgb \"#d02020\" notitle\n",
        gp);
  atl__plot_gp_tail(gp, "fleet", png, svg);
}

int atl_fleet_plot(const struct atl_fleet *fleet, const char *dir, const struct atl_plot_options *o,
                   struct atl_plot_outcome *out, char *why, size_t why_len)
{
  struct atl__plot p;
  int rc = atl__plot_start(&p, o, dir, why, why_len);
  if (rc != 0 || (rc = atl__plot_mkdir(&p, dir)) != 0)
    goto out;
  p.gnuplot = atl__plot_find_gnuplot(p.gnuplot_buf, sizeof p.gnuplot_buf);
  struct atl__plot_texts t;
  if ((rc = atl__plot_texts_open(&p, &t)) != 0)
    goto out;
  atl__plot_dat_head(t.dat, "fleet", fleet->nnodes ? fleet->nodes[0].dir : "", fleet->nnodes ? fleet->nodes[0].device : "");
  write_dat(t.dat, fleet);
  write_gp(t.gp, fleet, p.png, p.svg);
  if ((rc = atl__plot_texts_write(&p, &t, dir, "fleet", 0)) != 0)
    goto out;
  atl__plot_draw(&p, dir, "fleet");
  atl__plot_no_gnuplot(&p, dir, "the data (.dat) and script (.gp) of the figure", 1);
out:
  return atl__plot_finish(&p, out, rc);
}
