/* The gnuplot frame every figure of atl_plot shares (plot.c for result
 * files, app.c for app files, swatomic.c for seed 000's figures, smem_case.c
 * for seed 002's): the script head and tail, the .dat comment, finding
 * gnuplot and running it with a timeout, writing a figure's files. It calls
 * none of them back, so the plot files depend on it one way. */
#undef _POSIX_C_SOURCE
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/escape.h"
#include "plot_internal.h"

void atl__plot_say(struct atl__plot *p, enum atl_plot_event ev, const char *fmt, ...)
{
  char text[4600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  if (p->notify)
    p->notify(p->arg, ev, text);
}

void atl__plot_no_gnuplot(struct atl__plot *p, const char *dir, const char *what, int hint)
{
  if (p->gnuplot == NULL)
    atl__plot_say(p, ATL_PLOT_WARNING, "gnuplot not found (install gnuplot-nox, or set ATL_GNUPLOT): wrote %s to %s%s",
                  what, dir, hint ? "; draw them there with `gnuplot NAME.gp`" : "");
}

int atl__plot_texts_open(struct atl__plot *p, struct atl__plot_texts *t)
{
  memset(t, 0, sizeof *t);
  t->dat = open_memstream(&t->dat_text, &t->dat_len);
  t->gp = open_memstream(&t->gp_text, &t->gp_len);
  if (t->dat && t->gp)
    return 0;
  if (t->dat)
    fclose(t->dat), free(t->dat_text);
  if (t->gp)
    fclose(t->gp), free(t->gp_text);
  return atl__plot_fail(p, ATL_ENOMEM, "out of memory");
}

int atl__plot_texts_write(struct atl__plot *p, struct atl__plot_texts *t, const char *dir, const char *name,
                          int failed)
{
  fclose(t->dat);
  fclose(t->gp);
  if (failed) {
    free(t->dat_text);
    free(t->gp_text);
    return atl__plot_fail(p, ATL_ENOMEM, "out of memory");
  }
  int rc = atl__plot_write(p, dir, name, "dat", t->dat_text, t->dat_len);
  if (rc != 0) {
    free(t->gp_text); /* atl__plot_write frees the text it is given, written or not */
    return rc;
  }
  return atl__plot_write(p, dir, name, "gp", t->gp_text, t->gp_len);
}

int atl__plot_fail(struct atl__plot *p, int code, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  if (p->why && p->why_len)
    vsnprintf(p->why, p->why_len, fmt, ap);
  va_end(ap);
  return code;
}

int atl__plot_start(struct atl__plot *p, const struct atl_plot_options *o, const char *dir, char *why,
                    size_t why_len)
{
  struct atl_plot_options defaults;
  if (o == NULL) {
    atl_plot_options_init(&defaults);
    o = &defaults;
  }
  *p = (struct atl__plot){.png = o->png, .svg = o->svg, .timeout = o->timeout, .notify = o->notify, .arg = o->arg,
                          .why = why, .why_len = why_len};
  if (why && why_len)
    why[0] = '\0';
  struct stat st;
  if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
    p->bad_folder = 1;
    return atl__plot_fail(p, ATL_EINVAL, "'%s' is a file, not a folder", dir);
  }
  return 0;
}

int atl__plot_finish(const struct atl__plot *p, struct atl_plot_outcome *out, int rc)
{
  if (out) {
    out->failed = p->failed;
    out->bad_folder = p->bad_folder;
  }
  return rc;
}

int atl__plot_mkdir(struct atl__plot *p, const char *dir)
{
  if (mkdir(dir, 0777) == 0 || errno == EEXIST)
    return 0;
  p->bad_folder = 1;
  return atl__plot_fail(p, ATL_EINVAL, "'%s': unable to create the folder (does its parent exist?)", dir);
}

void atl__plot_gp_file(FILE *gp, const char *name, const char *ext)
{
  char file[300];
  snprintf(file, sizeof file, "%s.%s", name, ext);
  atl__esc_gp_string(gp, file);
}

void atl__plot_dat_head(FILE *dat, const char *name, const char *path, const char *device)
{
  fputs("# ", dat);
  atl__esc_comment(dat, name);
  fputs(" from ", dat);
  atl__esc_comment(dat, path);
  fputs(" (", dat);
  atl__esc_comment(dat, device);
  fputs(")\n", dat);
}

/* Shared head of every script: a clean state, the PNG terminal it has. */
void atl__plot_gp_head(FILE *gp, const char *name, const char *title, const char *device, int png)
{
  fputs("# ", gp);
  atl__esc_comment(gp, name);
  fputs(": drawn by `atomlab plot`; run `gnuplot ", gp);
  atl__esc_comment(gp, name);
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
    atl__plot_gp_file(gp, name, "png");
  } else {
    fputs("set terminal svg size 900,700 font \",11\" noenhanced\nset output ", gp);
    atl__plot_gp_file(gp, name, "svg");
  }
  /* Data only in single quotes (escape.h): the line break is the one double-quoted string. */
  fputs("\nset title ", gp);
  atl__esc_gp_string(gp, title);
  fputs(" . \"\\n\" . ", gp);
  atl__esc_gp_string(gp, device);
  fputs(" noenhanced\n", gp);
}

/* The second format, when both are asked for, is a replot into SVG. */
void atl__plot_gp_tail(FILE *gp, const char *name, int png, int svg)
{
  if (png && svg) {
    fputs("set terminal svg size 900,700 font \",11\" noenhanced\nset output ", gp);
    atl__plot_gp_file(gp, name, "svg");
    fputs("\nreplot\n", gp);
  }
  fprintf(gp, "unset output\n");
}

/* gnuplot from ATL_GNUPLOT or PATH; NULL when there is none to run. */
const char *atl__plot_find_gnuplot(char *buf, size_t len)
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

static int file_nonempty(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

/* Runs gnuplot on DIR/NAME.gp inside @p tmp, a new folder of DIR's (the script's files relative to it: its data
 * through the load path "..", its images into @p tmp): no image is written through a link planted in DIR. */
static int run_gnuplot(struct atl__plot *p, const char *tmp, const char *name)
{
  char script[300];
  snprintf(script, sizeof script, "../%s.gp", name);
  char *gnuplot_argv[] = {(char *)p->gnuplot, "-e", "set loadpath '..'", script, NULL};
  return atl_spawn(p->gnuplot, gnuplot_argv, &(struct atl_spawn_io){.dir = tmp, .timeout = p->timeout});
}

void atl__plot_draw(struct atl__plot *p, const char *dir, const char *name)
{
  char file[2200], drawn[2300], tmp[2200];
  if (p->gnuplot == NULL) { /* the script is what there is to draw from */
    atl__plot_say(p, ATL_PLOT_IMAGE, "%s/%s.gp", dir, name);
    return;
  }
  if (p->gave_up || atl_stop_requested()) { /* said once already: the script is there to draw from */
    p->failed += (size_t)(p->png + p->svg);
    return;
  }
  snprintf(tmp, sizeof tmp, "%s/.atl-XXXXXX", dir);
  const int made = mkdtemp(tmp) != NULL;
  int rc = made ? run_gnuplot(p, tmp, name) : -1;
  if (rc == ATL_SPAWN_TIMEOUT) {
    atl__plot_say(p, ATL_PLOT_ERROR,
                  "gnuplot timed out after %g s drawing '%s/%s.gp' (see --timeout); no further figure is drawn",
                  p->timeout, dir, name);
    p->gave_up = 1;
  }
  int ok = rc == 0;
  for (int k = 0; k < 2; k++) {
    if (!(k == 0 ? p->png : p->svg))
      continue;
    snprintf(file, sizeof file, "%s/%s.%s", dir, name, k == 0 ? "png" : "svg");
    snprintf(drawn, sizeof drawn, "%s/%s.%s", tmp, name, k == 0 ? "png" : "svg");
    /* rename replaces a link under the image's name itself, never its target */
    if (ok && file_nonempty(drawn) && rename(drawn, file) == 0)
      atl__plot_say(p, ATL_PLOT_IMAGE, "%s", file);
    else {
      atl__plot_say(p, ATL_PLOT_ERROR, "gnuplot did not draw '%s' (script: %s/%s.gp)", file, dir, name);
      p->failed++;
    }
  }
  if (made)
    atl_remove_tree(tmp);
}

/* Writes one text file built in memory, through a temporary name. */
int atl__plot_write(struct atl__plot *p, const char *dir, const char *name, const char *ext, char *text, size_t len)
{
  char path[2200], why[512];
  snprintf(path, sizeof path, "%s/%s.%s", dir, name, ext);
  int rc = atl_file_write_text_nofollow(path, text, len, why, sizeof why); /* a link planted there is replaced */
  free(text);
  if (rc == 0)
    return 0;
  atl__plot_say(p, ATL_PLOT_ERROR, "unable to write '%s': %s", path, why);
  return atl__plot_fail(p, ATL_EIO, "unable to write '%s'", path);
}
