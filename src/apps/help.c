/* The help of an app, written from its registry entry: every option's
 * "--NAME ARG", its sentence and default, so the help cannot drift from
 * what the configuration accepts. */
#include <stdio.h>
#include <string.h>

#include "atomlab.h"

/* One option's help: "--NAME ARG", then its sentence and default wrapped beside it. */
static void write_option(FILE *f, const struct atl_app_option *o)
{
  enum { COLUMN = 22, WIDTH = 100 };
  char left[64], text[4096]; /* the longest help (app scatter's --variants) is over 1024 bytes */
  const char *def = o->def ? o->def : o->def_help;
  int col = snprintf(left, sizeof left, "  --%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
  snprintf(text, sizeof text, "%s%s%s%s", o->help, def ? "  [" : "", def ? def : "", def ? "]" : "");
  fputs(left, f);
  if (col + 1 >= COLUMN) {
    fputc('\n', f);
    col = 0;
  }
  for (const char *w = text; *w;) {
    const size_t len = strcspn(w, " ");
    if (col > COLUMN && col + 1 + (int)len > WIDTH) {
      fputc('\n', f);
      col = 0;
    }
    col += fprintf(f, "%*s%.*s", col < COLUMN ? COLUMN - col : 1, "", (int)len, w);
    w += len;
    while (*w == ' ')
      w++;
  }
  fputc('\n', f);
}

void atl_apps_help_write(FILE *f)
{
  size_t n;
  const struct atl_app_info *const *apps = atl_apps(&n);
  fprintf(f, "usage: atomlab app <name> [options]\n\nApplications of atomics; every result is checked exactly "
             "against the host.\n\napps:\n");
  for (size_t i = 0; i < n; i++)
    fprintf(f, "  %-13s %s\n", apps[i]->name, apps[i]->summary);
  fprintf(f, "\nRun `atomlab app <name> --help` for the options of one app (docs/design/apps.md).\n");
}

void atl_app_help_write(FILE *f, const struct atl_app_info *app)
{
  fprintf(f, "usage: atomlab app %s [options]\n\n%s\n\n%s options:\n", app->name, app->description, app->name);
  for (const struct atl_app_option *o = app->options; o->name; o++)
    write_option(f, o);
  fprintf(f, "\ntiming (docs/design/method.md: at least --min-samples, then until the noise or the budget):\n");
  for (const struct atl_app_option *o = atl_app_timing_options; o->name; o++)
    write_option(f, o);
  fputc('\n', f);
}
