/* atomlab devices: every device of every backend, with its id. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] = "usage: atomlab devices [--format table|json] [--occupancy]\n\n"
                            "Lists every device atomlab can run on. The first column is the id that\n"
                            "--device takes (the row number works too).\n\n"
                            "  --format F    table (default) or json\n"
                            "  --occupancy   also run the occupancy discovery protocol on each device\n"
                            "                (work-group size 256, or the device maximum if smaller)\n"
                            "  --describe    what each field means (docs/design/metrics.md)\n";

int cmd_devices(int argc, char **argv)
{
  static const struct option longopts[] = {{"format", required_argument, NULL, 'f'},
                                           {"occupancy", no_argument, NULL, 'O'},
                                           {"help", no_argument, NULL, 'h'},
                                           {0}};
  int json = 0, occupancy = 0, c;
  cli_options_begin();
  while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
    cli_option_once(longopts, c, -1);
    switch (c) {
    case 'f':
      if (strcmp(optarg, "json") == 0)
        json = 1;
      else if (strcmp(optarg, "table") != 0)
        die_usage("--format '%s' is not allowed: table or json", optarg);
      break;
    case 'O':
      occupancy = 1;
      break;
    default:
      return cli_help_or_bad(c, usage, "devices", argv);
    }
  }
  if (optind < argc)
    die_usage("unexpected argument '%s' for devices", argv[optind]);
  atl_context_t ctx = NULL;
  if (atl_context_new(&ctx))
    die("out of memory");
  const struct atl_device_info *list;
  size_t n = 0;
  if (atl_devices(ctx, &list, &n) == ATL_EINVAL) /* a bad ATL_BACKENDS: a usage error */
    die_usage("%s", atl_errmsg(ctx));
  atl_devices_write(stdout, ctx, list, n, json, occupancy); /* a closed stdout ends the list, as any output */
  const char *notes = atl_backend_notes(ctx);
  if (notes[0])
    fprintf(stderr, "note: %s\n", notes);
  atl_context_free(ctx);
  return n ? EXIT_OK : EXIT_MEASURE;
}
