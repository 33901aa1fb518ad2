/*
 * atomlab model l2: the model of global (L2) atomics offline, from ncu exports
 * (include/atomlab/l2model.h, docs/design/model.md "Global atomics"). The library
 * reads and models; this parses the options and prints the table.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab/l2model.h"
#include "cli.h"

static const char usage[] =
    "usage: atomlab model l2 --counters C.csv --same S.csv --spread D.csv [options]\n"
    "       atomlab model l2 --counters C.csv --s-same X --s-spread Y [options]\n\n"
    "The utilization of the L2 atomic units per launch, U = R_max x S / C (docs/design/model.md, \"Global atomics\"):\n"
    "R_max the busiest slice's atomic requests, C the kernel's L2 cycles, S the L2 cycles a request takes\n"
    "(S_same for a few hot words, S_spread for distinct lines: calibration exports of atomlab's rmw kernels\n"
    "with result unused and used, or given); at least the busiest slice's atomic input share ('input').\n"
    "Every export: ncu --csv --page raw --print-units base, with lts__cycles_elapsed.avg,\n"
    "gpu__time_duration.sum and lts__t_requests_op_atom / _op_red with .sum, .max and .avg.\n\n"
    "  --counters FILE     the export of the program to model\n"
    "  --same FILE         calibration: same-address rmw launches (contiguous, contention = work-group)\n"
    "  --spread FILE       calibration: one word per line (contiguous, contention 1, padding 32)\n"
    "  --s-same A,R, --s-spread A,R   the calibration as numbers: L2 cycles per ATOM and per RED request\n"
    "  --dram FILE         the achievable DRAM share: an export of a streaming kernel (no atomics, with\n"
    "                      dram__throughput.avg.pct_of_peak_sustained_elapsed): the advice's DRAM floor [peak]\n"
    "  --same-f32 FILE     calibration: as --same with --type f32, S_same of float adds (--types says which)\n"
    "  --cas-chain FILE    calibration: one block a SM of shared f32 fetch_add (rmw --space local --pattern\n"
    "                      cross-warp --contention E --wg-size 32E, E = 1, 2, ...): a private hot word's chain\n"
    "  --private-table B   shared memory a block the privatized kernel's table takes [0: the hot words]\n"
    "  --types FILE        CSV kernel,f32_share: the share of a kernel's global atomics that are float adds (its\n"
    "                      SASS: RED/ATOM .ADD.F32); a kernel takes the first line that is a prefix of its name\n"
    "  --table FILE        the shared-memory table: the pass cost of the strategies' shared updates [none]\n"
    "  --threshold X       U from which a launch is an L2-atomic bottleneck  [0.8]\n"
    "  --format F          table or csv  [table]\n"
    "  --advice            for every bottleneck, the access the counters imply and the strategy for it\n"
    "  -o FILE             write there instead of stdout\n";

/* --s-same / --s-spread: "ATOM,RED", two L2-cycle counts. */
static void parse_pair(const char *opt, const char *text, double s[ATL_L2_KINDS])
{
  char a[64], b[64], extra;
  if (sscanf(text, "%63[^,],%63[^,]%c", a, b, &extra) != 2)
    die_usage("%s '%s': two numbers ATOM,RED (L2 cycles per request), e.g. 1.4,1.1", opt, text);
  s[ATL_L2_ATOM] = cli_parse_real(opt, a, 1e-3, 1e6);
  s[ATL_L2_RED] = cli_parse_real(opt, b, 1e-3, 1e6);
}

int cmd_model_l2(int argc, char **argv)
{
  /* O_FILE + k: the calibration file k (atl_l2_calibration_file_names) */
  enum { O_COUNTERS = 256, O_S_SAME, O_S_SPREAD, O_THRESHOLD, O_FORMAT, O_ADVICE, O_TYPES, O_PRIVATE_TABLE, O_FILE };
  static const struct option longopts[] = {{"counters", required_argument, NULL, O_COUNTERS},
                                           {"same", required_argument, NULL, O_FILE + ATL_L2_FILE_SAME},
                                           {"spread", required_argument, NULL, O_FILE + ATL_L2_FILE_SPREAD},
                                           {"s-same", required_argument, NULL, O_S_SAME},
                                           {"s-spread", required_argument, NULL, O_S_SPREAD},
                                           {"threshold", required_argument, NULL, O_THRESHOLD},
                                           {"format", required_argument, NULL, O_FORMAT},
                                           {"advice", no_argument, NULL, O_ADVICE},
                                           {"dram", required_argument, NULL, O_FILE + ATL_L2_FILE_DRAM},
                                           {"table", required_argument, NULL, O_FILE + ATL_L2_FILE_TABLE},
                                           {"same-f32", required_argument, NULL, O_FILE + ATL_L2_FILE_SAME_F32},
                                           {"cas-chain", required_argument, NULL, O_FILE + ATL_L2_FILE_CAS_CHAIN},
                                           {"types", required_argument, NULL, O_TYPES},
                                           {"private-table", required_argument, NULL, O_PRIVATE_TABLE},
                                           {"help", no_argument, NULL, 'h'},
                                           {0}};
  const char *counters = NULL, *out = NULL, *types = NULL, *paths[ATL_L2_FILES] = {NULL};
  struct atl_l2_calibration cal = {{0, 0}, {0, 0}, 0, 0, 0, 0, {0, 0}, {{0, 0}}, 0, 0, 0, {0, 0}, ""};
  int have_same = 0, have_spread = 0, csv = 0, with_advice = 0, ch;
  double threshold = 0.8;
  cli_options_begin();
  while ((ch = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
    cli_option_once(longopts, ch, -1);
    if (ch >= O_FILE && ch < O_FILE + ATL_L2_FILES) {
      paths[ch - O_FILE] = optarg;
      continue;
    }
    switch (ch) {
    case O_COUNTERS: counters = optarg; break;
    case O_S_SAME: parse_pair("--s-same", optarg, cal.s_same), have_same = 1; break;
    case O_S_SPREAD: parse_pair("--s-spread", optarg, cal.s_dist), have_spread = 1; break;
    case O_THRESHOLD: threshold = cli_parse_real("--threshold", optarg, 0, 10); break;
    case O_FORMAT:
      if (strcmp(optarg, "table") && strcmp(optarg, "csv"))
        die_usage("--format '%s' for model l2: allowed: table, csv", optarg);
      csv = strcmp(optarg, "csv") == 0;
      break;
    case O_ADVICE: with_advice = 1; break;
    case O_TYPES: types = optarg; break;
    case O_PRIVATE_TABLE: cal.table_bytes = cli_parse_real("--private-table", optarg, 0, 1 << 30); break;
    case 'o': out = optarg; break;
    default: return cli_help_or_bad(ch, usage, "model l2", argv);
    }
  }
  if (optind < argc)
    die_usage("unexpected argument '%s' for model l2", argv[optind]);
  if (counters == NULL)
    die_usage("--counters is required: the ncu export (--csv --page raw) of the program to model");
  if ((paths[ATL_L2_FILE_SAME] != NULL) == have_same)
    die_usage("give the same-address calibration once: --same FILE or --s-same X");
  if ((paths[ATL_L2_FILE_SPREAD] != NULL) == have_spread)
    die_usage("give the spread calibration once: --spread FILE or --s-spread Y");
  cli_note_input("--counters", counters);
  for (int i = 0; i < ATL_L2_FILES; i++)
    if (paths[i])
      cli_note_input("", paths[i]);
  if (out)
    cli_check_output("-o", out);
  char why[600];
  int which;
  if (atl_l2_calibration_read(&cal, paths, &which, why, sizeof why))
    die_usage("--%s: %s", atl_l2_calibration_file_names[which], why);
  struct atl_l2_report r;
  if (atl_l2_read_file(counters, &r, why, sizeof why))
    die_usage("--counters: %s", why);
  if (types && atl_l2_types_apply_file(&r, types, why, sizeof why))
    die_usage("--types %s", why);
  if (have_same) /* S_same as numbers: the float rule of the modelled device's architecture */
    atl_l2_calibration_f32_rule(&cal, r.kernels[0].cc_major, r.kernels[0].cc_minor);
  struct cli_buffer buf;
  FILE *f = out ? cli_buffer_open(&buf) : stdout;
  const int err = atl_l2_write_table(f, &cal, &r, threshold, csv, with_advice);
  atl_l2_report_release(&r);
  if (out)
    return cli_buffer_write(&buf, out, "the L2 model's table") ? EXIT_MEASURE : EXIT_OK;
  return !err && fflush(stdout) == 0 ? EXIT_OK : EXIT_MEASURE;
}
