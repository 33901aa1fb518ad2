/* The gnuplot frame every figure of `atomlab plot` shares (cmd-plot.c for
 * result files, plot-app.c for app files, plot-swatomic.c for seed 000's
 * figures): the script head and tail, the .dat comment, finding gnuplot and
 * running it with a timeout. It calls none of them back, so the plot files
 * depend on it one way. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "escape.h"
#include "plot.h"

/* --timeout: a gnuplot that hangs (a terminal waiting for a display, a huge SVG) must not
 * hang `atomlab plot`, nor `atomlab report` above it. */
static double gnuplot_timeout = 60;
/* Set by the first timeout: a gnuplot that hung once would hang for every figure. */
static int gnuplot_gave_up;

void plot_set_timeout(double seconds) { gnuplot_timeout = seconds; }

void plot_gp_file(FILE *gp, const char *name, const char *ext)
{
  char file[300];
  snprintf(file, sizeof file, "%s.%s", name, ext);
  esc_gp_string(gp, file);
}

void plot_dat_head(FILE *dat, const char *name, const char *path, const char *device)
{
  fputs("# ", dat);
  esc_comment(dat, name);
  fputs(" from ", dat);
  esc_comment(dat, path);
  fputs(" (", dat);
  esc_comment(dat, device);
  fputs(")\n", dat);
}

/* Shared head of every script: a clean state, the PNG terminal it has. */
void plot_gp_head(FILE *gp, const char *name, const char *title, const char *device, int png)
{
  fputs("# ", gp);
  esc_comment(gp, name);
  fputs(": drawn by `atomlab plot`; run `gnuplot ", gp);
  esc_comment(gp, name);
  fputs(".gp` in this folder to redraw.\n", gp);
  fprintf(gp, "reset\n");
  if (png) {
    fprintf(gp,
            "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
            "  set terminal pngcairo size 900,700 font \",11\" noenhanced\n"
            "} else {\n"
            "  set terminal png size 900,700 noenhanced\n"
            "}\n");
    fputs("set output ", gp);
    plot_gp_file(gp, name, "png");
  } else {
    fputs("set terminal svg size 900,700 font \",11\" noenhanced\nset output ", gp);
    plot_gp_file(gp, name, "svg");
  }
  /* Data only in single quotes (escape.h): the line break is the one double-quoted string. */
  fputs("\nset title ", gp);
  esc_gp_string(gp, title);
  fputs(" . \"\\n\" . ", gp);
  esc_gp_string(gp, device);
  fputs(" noenhanced\n", gp);
}

/* The second format, when both are asked for, is a replot into SVG. */
void plot_gp_tail(FILE *gp, const char *name, int png, int svg)
{
  if (png && svg) {
    fputs("set terminal svg size 900,700 font \",11\" noenhanced\nset output ", gp);
    plot_gp_file(gp, name, "svg");
    fputs("\nreplot\n", gp);
  }
  fprintf(gp, "unset output\n");
}

/* gnuplot from ATL_GNUPLOT or PATH; NULL when there is none to run. */
const char *plot_find_gnuplot(char *buf, size_t len)
{
  const char *env = getenv("ATL_GNUPLOT");
  if (env && env[0]) {
    /* made absolute: gnuplot runs inside the figure folder, where a relative name means another file */
    char cwd[2048];
    int n = env[0] == '/' ? snprintf(buf, len, "%s", env)
            : getcwd(cwd, sizeof cwd) ? snprintf(buf, len, "%s/%s", cwd, env)
                                      : -1;
    return n > 0 && (size_t)n < len && access(buf, X_OK) == 0 ? buf : NULL;
  }
  const char *path = getenv("PATH");
  if (path == NULL)
    return NULL;
  for (const char *p = path; *p;) {
    size_t n = strcspn(p, ":");
    if (n && snprintf(buf, len, "%.*s/gnuplot", (int)n, p) < (int)len && access(buf, X_OK) == 0)
      return buf;
    p += n + (p[n] == ':');
  }
  return NULL;
}

int plot_file_nonempty(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

int plot_draw(const char *gnuplot, const char *dir, const char *name, int png, int svg)
{
  char file[2200];
  if (gnuplot == NULL) { /* the script is what there is to draw from */
    printf("%s/%s.gp\n", dir, name);
    return 0;
  }
  char script[300];
  snprintf(script, sizeof script, "%s.gp", name);
  if (gnuplot_gave_up || atl_stop_requested()) /* said once already: the script is there to draw from */
    return png + svg;
  /* inside the figure folder: the scripts name their files relative to it */
  char *gnuplot_argv[] = {(char *)gnuplot, script, NULL};
  int rc = cli_spawn(gnuplot, gnuplot_argv, &(struct cli_spawn_io){.dir = dir, .timeout = gnuplot_timeout});
  if (rc == CLI_SPAWN_TIMEOUT) {
    fprintf(stderr, "error: gnuplot timed out after %g s drawing '%s/%s' (see --timeout); no further figure is drawn\n",
            gnuplot_timeout, dir, script);
    gnuplot_gave_up = 1;
  }
  int ok = rc == 0, failed = 0;
  for (int k = 0; k < 2; k++) {
    if (!(k == 0 ? png : svg))
      continue;
    snprintf(file, sizeof file, "%s/%s.%s", dir, name, k == 0 ? "png" : "svg");
    if (ok && plot_file_nonempty(file))
      printf("%s\n", file);
    else {
      fprintf(stderr, "error: gnuplot did not draw '%s' (script: %s/%s)\n", file, dir, script);
      failed++;
    }
  }
  return failed;
}

/* Writes one text file built in memory, through a temporary name. */
void plot_write_text(const char *path, char *text, size_t len)
{
  if (cli_write_text(path, text, len) != 0)
    die("unable to write '%s'", path);
  free(text);
}
