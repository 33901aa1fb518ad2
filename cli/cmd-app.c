/* atomlab app: the applications of atomics (seeds 001 and 004), one file per app. */
#include <string.h>

#include "app.h"

static const struct {
  const char *name, *summary;
  int (*fn)(int, char **);
} apps[] = {
    {"count", "seed 001: containers over a limit, one atomic per thread / warp / block, vs read bandwidth and CUB",
     app_count},
    {"access-table", "seed 004: same address / same line / scattered throughput of every op (via rmw)",
     app_access_table},
    {"double-add", "seed 004: double add under contention through a spin lock or a CAS loop", app_double_add},
    {"list", "seed 004: lock-free linked-list insertion with CAS, checked for loss and cycles", app_list},
    {"skiplist", "seed 004: skiplist sort by concurrent CAS insertion, vs CUB radix sort", app_skiplist},
    {"histogram", "u8 / rgba / u32 histograms: global, shared, per-warp, match-any, packed, vs read and CUB",
     app_histogram},
    {"swatomic", "seed 000: software atomic add (coordinator work-group) vs system and warp-aggregated atomics",
     app_swatomic},
    {"swapps", "seed 000: scalar product, string match and MapReduce on system / warp / software atomics",
     app_swapps},
};
#define NAPPS (sizeof apps / sizeof apps[0])

static void usage(FILE *f)
{
  fprintf(f, "usage: atomlab app <name> [options]\n\nApplications of atomics; every result is checked exactly "
             "against the host.\n\napps:\n");
  for (size_t i = 0; i < NAPPS; i++)
    fprintf(f, "  %-13s %s\n", apps[i].name, apps[i].summary);
  fprintf(f, "\nRun `atomlab app <name> --help` for the options of one app (docs/apps.md).\n");
}

/* The app names, comma separated, from the table (so a new app is named in every message). */
static const char *app_names(void)
{
  static char buf[256];
  buf[0] = '\0';
  for (size_t i = 0; i < NAPPS; i++)
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? ", " : "", apps[i].name);
  return buf;
}

int cmd_app(int argc, char **argv)
{
  if (argc < 2) /* a usage error like any other: one line, exit 2 (--help prints the list) */
    die_usage("app needs a subcommand: allowed: %s", app_names());
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    usage(stdout);
    return EXIT_OK;
  }
  for (size_t i = 0; i < NAPPS; i++)
    if (strcmp(argv[1], apps[i].name) == 0)
      return apps[i].fn(argc - 1, argv + 1);
  die_usage("app '%s' is not known: allowed: %s", argv[1], app_names());
}
