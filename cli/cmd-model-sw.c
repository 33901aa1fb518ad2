/*
 * atomlab model swatomic: seed 000's speedup model against a swatomic --experiment file, with the
 * coordinator's pass calibrated on chosen grids (include/atomlab/swmodel.h, docs/design/software-atomics.md).
 * The library reads, fits, evaluates and writes the table; this parses the options.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "atomlab/swmodel.h"
#include "cli.h"

#define MAX_GRIDS 64

static const char usage[] =
    "usage: atomlab model swatomic FILE.json [--fit FIT.json] [--fit-grids LIST]\n\n"
    "Seed 000's speedup model (equations (1)-(4)) against FILE's measured times per grid. With --fit\n"
    "or --fit-grids, equation (2'') replaces the coordinator's term: max(k_floor, C k_chunk + C N k_queue)\n"
    "t_fast, with a launch term k_launch in both, fitted by least squares on FIT's grids in LIST\n"
    "(FIT: FILE itself where not given; LIST: all of FIT's grids where not given); t_fast, t_l and\n"
    "t_comp are always FILE's own. A grid of FILE is in-sample when FIT is FILE and LIST has it.\n\n"
    "  --fit FILE        the swatomic --experiment file to calibrate the k_ constants on\n"
    "  --fit-grids LIST  its grids to fit on, e.g. 8,128,1024 (work-groups, coordinator included)\n";

int cmd_model_sw(int argc, char **argv)
{
  enum { O_FIT = 256, O_GRIDS };
  static const struct option longopts[] = {{"fit", required_argument, NULL, O_FIT},
                                           {"fit-grids", required_argument, NULL, O_GRIDS},
                                           {"help", no_argument, NULL, 'h'},
                                           {0}};
  const char *fit_path = NULL;
  uint32_t grids[MAX_GRIDS];
  size_t ngrids = 0;
  int ch, fit = 0;
  cli_options_begin();
  while ((ch = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
    if (ch != O_GRIDS) /* --fit-grids accumulates its lists */
      cli_option_once(longopts, ch, -1);
    if (ch == O_FIT) {
      fit_path = optarg;
      fit = 1;
    } else if (ch == O_GRIDS) {
      char copy[512], *save = NULL;
      snprintf(copy, sizeof copy, "%s", optarg);
      for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (ngrids == MAX_GRIDS)
          die_usage("--fit-grids '%s': at most %d grids", optarg, MAX_GRIDS);
        grids[ngrids++] = cli_parse_count("--fit-grids", t, 1u << 20);
      }
      fit = 1;
    } else
      return cli_help_or_bad(ch, usage, "model swatomic", argv);
  }
  if (argc - optind != 1)
    die_usage("model swatomic takes one file, FILE.json (see 'atomlab model swatomic --help')");
  const struct atl_swmodel_request rq = {argv[optind], fit_path, grids, ngrids, fit};
  char why[600];
  const int err = atl_swmodel_report(stdout, &rq, why, sizeof why);
  if (err)
    die_usage("%s%s", err == ATL_SWMODEL_NO_FIT ? "--fit-grids: " : "model swatomic ", why);
  return EXIT_OK;
}
