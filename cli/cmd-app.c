/* atomlab app: the applications of atomics, listed by the library's registry (src/apps/registry.c). */
#include <string.h>

#include "app.h"

/* The apps whose options need a parser of their own (lists of names, a text file, their own tables); every
 * other app's options are in its registry entry and app_generic reads them. */
static const struct {
  const char *name;
  int (*fn)(int, char **);
} commands[] = {
    {"access-table", app_access_table},
    {"histogram", app_histogram},
    {"swatomic", app_swatomic},
    {"swapps", app_swapps},
};

static int (*command_of(const char *name))(int, char **)
{
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (strcmp(commands[i].name, name) == 0)
      return commands[i].fn;
  return NULL;
}

static void usage(FILE *f)
{
  size_t n;
  const struct atl_app_info *const *apps = atl_apps(&n);
  fprintf(f, "usage: atomlab app <name> [options]\n\nApplications of atomics; every result is checked exactly "
             "against the host.\n\napps:\n");
  for (size_t i = 0; i < n; i++)
    fprintf(f, "  %-13s %s\n", apps[i]->name, apps[i]->summary);
  fprintf(f, "\nRun `atomlab app <name> --help` for the options of one app (docs/apps.md).\n");
}

const char *cli_app_names(void)
{
  static char buf[256];
  size_t n;
  const struct atl_app_info *const *apps = atl_apps(&n);
  buf[0] = '\0';
  for (size_t i = 0; i < n; i++)
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? ", " : "", apps[i]->name);
  return buf;
}

int cmd_app(int argc, char **argv)
{
  if (argc < 2) /* a usage error like any other: one line, exit 2 (--help prints the list) */
    die_usage("app needs a subcommand: allowed: %s", cli_app_names());
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    usage(stdout);
    return EXIT_OK;
  }
  const struct atl_app_info *app = atl_app_find(argv[1]);
  int (*fn)(int, char **) = app ? command_of(app->name) : NULL;
  if (fn)
    return fn(argc - 1, argv + 1);
  if (app && app->options)
    return app_generic(app, argc - 1, argv + 1);
  die_usage("app '%s' is not known: allowed: %s", argv[1], cli_app_names());
}
