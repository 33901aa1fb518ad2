/*
 * atomlab model l2: the model of global (L2) atomics offline, from ncu exports
 * (include/atomlab/l2model.h, docs/model.md "Global atomics"). The library
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
    "The utilization of the L2 atomic units per kernel launch: U = R_max x S / C, where R_max is the\n"
    "busiest L2 slice's atomic requests, C the kernel's L2 cycles and S the L2 cycles one request\n"
    "occupies a saturated slice: S_same for requests to a few hot words (the busiest slice gets at\n"
    "least 1.5x the average's), S_spread for requests to distinct lines; U is at least the share of\n"
    "the kernel the busiest slice's atomic input was active (lts__d_atomic_input_cycles_active.max,\n"
    "the 'input' column; -1 where the export lacks it). S comes from two calibration\n"
    "exports of atomlab's own rmw kernels (scripts/gpu-l2-counters.sh makes them), each with launches\n"
    "of result unused (RED) and used (ATOM), or is given.\n"
    "Every export: ncu --csv --page raw --print-units base, with lts__cycles_elapsed.avg,\n"
    "gpu__time_duration.sum and lts__t_requests_op_atom / _op_red with .sum, .max and .avg.\n\n"
    "  --counters FILE     the export of the program to model\n"
    "  --same FILE         calibration: same-address rmw launches (contiguous, contention = work-group)\n"
    "  --spread FILE       calibration: one word per line (contiguous, contention 1, padding 32)\n"
    "  --s-same A,R, --s-spread A,R   the calibration as numbers instead: L2 cycles per ATOM and\n"
    "                      per RED request\n"
    "  --dram FILE         the achievable DRAM share: an export of a streaming kernel (no atomics, with\n"
    "                      dram__throughput.avg.pct_of_peak_sustained_elapsed): the advice's DRAM floor [peak]\n"
    "  --same-f32 FILE     calibration: same-address rmw launches of f32 fetch_add (as --same, --type f32):\n"
    "                      S_same of hot words whose adds are floats (--types says which)\n"
    "  --cas-chain FILE    calibration: one warp a SM of shared f32 fetch_add on one word (rmw --space local\n"
    "                      --type f32 --contention 32 --wg-size 32 --workgroups <SMs>): the CAS loop's round\n"
    "                      trip, the chain of a private table's hot word where the adds are floats\n"
    "  --types FILE        CSV kernel,f32_share: the share of a kernel's global atomics that are float adds (its\n"
    "                      SASS: RED/ATOM .ADD.F32); a kernel takes the first line that is a prefix of its name\n"
    "  --table FILE        the shared-memory calibration table: the pass cost of the strategies that move\n"
    "                      element updates to shared memory (without it they are not counted)\n"
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
  enum { O_COUNTERS = 256, O_SAME, O_SPREAD, O_S_SAME, O_S_SPREAD, O_THRESHOLD, O_FORMAT, O_ADVICE, O_DRAM, O_TABLE,
         O_SAME_F32, O_TYPES, O_CAS_CHAIN };
  static const struct option longopts[] = {{"counters", required_argument, NULL, O_COUNTERS},
                                           {"same", required_argument, NULL, O_SAME},
                                           {"spread", required_argument, NULL, O_SPREAD},
                                           {"s-same", required_argument, NULL, O_S_SAME},
                                           {"s-spread", required_argument, NULL, O_S_SPREAD},
                                           {"threshold", required_argument, NULL, O_THRESHOLD},
                                           {"format", required_argument, NULL, O_FORMAT},
                                           {"advice", no_argument, NULL, O_ADVICE},
                                           {"dram", required_argument, NULL, O_DRAM},
                                           {"table", required_argument, NULL, O_TABLE},
                                           {"same-f32", required_argument, NULL, O_SAME_F32},
                                           {"cas-chain", required_argument, NULL, O_CAS_CHAIN},
                                           {"types", required_argument, NULL, O_TYPES},
                                           {"help", no_argument, NULL, 'h'},
                                           {0}};
  const char *counters = NULL, *same = NULL, *spread = NULL, *out = NULL, *dram = NULL, *table = NULL;
  const char *same_f32 = NULL, *types = NULL, *cas_chain = NULL;
  struct atl_l2_calibration cal = {{0, 0}, {0, 0}, 0, 0, 0, {0, 0}, 0};
  int have_same = 0, have_spread = 0;
  double threshold = 0.8;
  int csv = 0, with_advice = 0, ch;
  cli_options_begin();
  while ((ch = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
    switch (ch) {
    case O_COUNTERS: counters = optarg; break;
    case O_SAME: same = optarg; break;
    case O_SPREAD: spread = optarg; break;
    case O_S_SAME: parse_pair("--s-same", optarg, cal.s_same), have_same = 1; break;
    case O_S_SPREAD: parse_pair("--s-spread", optarg, cal.s_dist), have_spread = 1; break;
    case O_THRESHOLD: threshold = cli_parse_real("--threshold", optarg, 0, 10); break;
    case O_FORMAT:
      if (strcmp(optarg, "table") && strcmp(optarg, "csv"))
        die_usage("--format '%s' for model l2: allowed: table, csv", optarg);
      csv = strcmp(optarg, "csv") == 0;
      break;
    case O_ADVICE: with_advice = 1; break;
    case O_DRAM: dram = optarg; break;
    case O_TABLE: table = optarg; break;
    case O_SAME_F32: same_f32 = optarg; break;
    case O_TYPES: types = optarg; break;
    case O_CAS_CHAIN: cas_chain = optarg; break;
    case 'o': out = optarg; break;
    default: return cli_help_or_bad(ch, usage, "model l2", argv);
    }
  }
  if (optind < argc)
    die_usage("unexpected argument '%s' for model l2", argv[optind]);
  if (counters == NULL)
    die_usage("--counters is required: the ncu export (--csv --page raw) of the program to model");
  if ((same != NULL) == have_same)
    die_usage("give the same-address calibration once: --same FILE or --s-same X");
  if ((spread != NULL) == have_spread)
    die_usage("give the spread calibration once: --spread FILE or --s-spread Y");
  if (out)
    cli_check_output("-o", out);
  char why[600];
  static const char *const flags[ATL_L2_FILES] = {"--same", "--spread", "--dram", "--table", "--same-f32",
                                                  "--cas-chain"};
  const char *const paths[ATL_L2_FILES] = {same, spread, dram, table, same_f32, cas_chain};
  int which;
  if (atl_l2_calibration_read(&cal, paths, &which, why, sizeof why))
    die_usage("%s: %s", flags[which], why);
  struct atl_l2_report r;
  if (atl_l2_read_file(counters, &r, why, sizeof why))
    die_usage("--counters: %s", why);
  if (types && atl_l2_types_apply_file(&r, types, why, sizeof why))
    die_usage("--types %s", why);
  struct cli_buffer buf;
  FILE *f = out ? cli_buffer_open(&buf) : stdout;
  const int err = atl_l2_write_table(f, &cal, &r, threshold, csv, with_advice);
  atl_l2_report_release(&r);
  if (out)
    return cli_buffer_write(&buf, out, "the L2 model's table") ? EXIT_MEASURE : EXIT_OK;
  return !err && fflush(stdout) == 0 ? EXIT_OK : EXIT_MEASURE;
}
