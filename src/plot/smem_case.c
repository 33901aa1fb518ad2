/* atl_plot on a case-study folder (what `atomlab model case-summary` reads): seed 002's Figures 3-5 as
 * four panels (image x result) of U and of histogram2's speedup per image size, and the model's busy time
 * against the measured time. The library writes the data (atl_smem_case_study_write_dat); this file the
 * scripts. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomlab.h"
#include "plot_internal.h"

static const char *const names[] = {"smem-case-util", "smem-case-speedup", "smem-case-pred"};
static const char *const panels[] = {"solid/ATOMS.ADD", "uniform/ATOMS.ADD", "solid/ATOMS.POPC.INC",
                                     "uniform/ATOMS.POPC.INC"};

/* The terminal of one format: the panels need a larger canvas than plot_gp_head's single figures. */
static void terminal(FILE *gp, const char *name, int svg)
{
  if (svg)
    fputs("set terminal svg size 1200,900 font \",10\" noenhanced\n", gp);
  else
    fputs("if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
          "  set terminal pngcairo size 1200,900 font \",10\" noenhanced\n"
          "} else {\n  set terminal png size 1200,900 noenhanced\n}\n", gp);
  fputs("set output ", gp);
  atl__plot_gp_file(gp, name, svg ? "svg" : "png");
  fputs("\nreset\nset datafile missing \"NaN\"\nset key top left font \",8\"\nset grid\n", gp);
}

/* One figure in one format (a multiplot cannot be replotted into the second). */
static void figure(FILE *gp, enum atl_smem_case_figure fig, const struct atl_smem_case_study *s)
{
  const char *name = names[fig];
  if (fig == ATL_SMEM_CASE_PRED) {
    fputs("set title \"Predicted atomic busy time B against the measured kernel time (ncu, same launch)\"\n"
          "set logscale xy\nset xlabel \"measured kernel time (us)\"\nset ylabel \"predicted busy time B (us)\"\nplot ",
          gp);
    atl__plot_gp_file(gp, name, "dat");
    fputs(" index 0 using 1:2 with points pt 7 ps 0.6 title \"verdict: bottleneck\", \\\n"
          "  \"\" index 1 using 1:2 with points pt 6 ps 0.6 title \"not a bottleneck\", \\\n"
          "  x with lines dt 2 lc rgb \"black\" title \"B = measured\"\n", gp);
    return;
  }
  const int util = fig == ATL_SMEM_CASE_UTIL;
  fprintf(gp, "set multiplot layout 2,2 title \"%s\"\nset logscale x 2\nset format x \"2^%%L\"\n"
              "set xlabel \"image size (pixels)\"\nset ylabel \"%s\"\n%s",
          util ? "Estimated utilization of the shared-memory atomic unit (histogram: solid lines, histogram2: dashed)"
               : "Speedup of histogram2 (Listing 2) over histogram (Listing 1)",
          util ? "U" : "speedup", util ? "set yrange [0:*]\n" : "");
  for (int p = 0; p < 4; p++) {
    fprintf(gp, "set title \"%s\"\nplot ", panels[p]);
    for (size_t k = 0; k < (util ? 2u : 1u); k++)
      for (size_t w = 0; w < s->nwgs; w++) {
        if (k || w)
          fputs(", \\\n  \"\"", gp);
        else
          atl__plot_gp_file(gp, name, "dat");
        fprintf(gp, " index %d using 1:%zu with linespoints lt %zu dt %zu title \"%s%swg %u\"", p,
                k * s->nwgs + w + 2, w + 1, k + 1, util ? (k ? "histogram2" : "histogram") : "", util ? " " : "",
                s->wgs[w]);
      }
    fputs(util ? ", \\\n  0.8 with lines lc rgb \"red\" dt 3 title \"bottleneck threshold 0.8\"\n"
               : ", \\\n  1 with lines lc rgb \"red\" dt 3 notitle\n", gp);
  }
  fputs("unset multiplot\n", gp);
}

int atl__plot_smem_case(struct atl__plot *p, const char *path, const char *dir)
{
  const int png = p->png, svg = p->svg;
  char file[2200];
  struct stat st;
  int found = 0;
  for (int i = 0; i < 2; i++) { /* a folder with neither file is not a case study: plot's reader refuses it */
    snprintf(file, sizeof file, "%s/%s", path, i ? "hist-case.csv" : "predict.csv");
    found |= stat(file, &st) == 0;
  }
  if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode) || !found)
    return 1;
  struct atl_smem_case_study s;
  if (atl_smem_case_study_read(path, &s, p->why, p->why_len))
    return ATL_EINVAL;
  int rc = atl__plot_mkdir(p, dir);
  for (int fig = 0; fig < 3 && rc == 0; fig++) {
    if (fig == ATL_SMEM_CASE_SPEEDUP ? s.ntimings == 0 : s.nlaunches == 0)
      continue; /* a figure without data: its step of the run did not finish */
    struct atl__plot_texts t;
    if ((rc = atl__plot_texts_open(p, &t)) != 0)
      break;
    FILE *df = t.dat, *gf = t.gp;
    atl_smem_case_study_write_dat(df, &s, (enum atl_smem_case_figure)fig);
    fprintf(gf, "# %s: drawn by `atomlab plot`; run `gnuplot %s.gp` in this folder to redraw.\n", names[fig],
            names[fig]);
    for (int k = 0; k < 2; k++)
      if (k ? svg : png) {
        terminal(gf, names[fig], k);
        figure(gf, (enum atl_smem_case_figure)fig, &s);
      }
    fputs("unset output\n", gf);
    if ((rc = atl__plot_texts_write(p, &t, dir, names[fig], 0)) != 0)
      break;
    atl__plot_draw(p, dir, names[fig]);
  }
  if (rc == 0)
    atl__plot_no_gnuplot(p, dir, "the data (.dat) and scripts (.gp) of the case study's figures", 0);
  atl_smem_case_study_release(&s);
  return rc;
}
