/* atomlab compare: two result files, row by row, with a verdict that
 * respects the noise the samples show (docs/design/metrics.md states the rule).
 * The library pairs (atl_compare) and writes (atl_comparison_write). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: atomlab compare A.json B.json [--threshold PCT] [--ignore FIELDS] [--format table|csv|json] [-o FILE]\n\n"
    "Matches the rows of two result files by configuration (pattern, op, type, space,\n"
    "result, scope, order, contention, padding, wg_size, workgroups, strategy) and\n"
    "says for each whether B is faster, slower, the same as A, or unclear:\n"
    "  faster/slower  the medians differ by more than PCT and the IQRs do not overlap\n"
    "  unclear        the medians differ by more than PCT but the IQRs overlap\n"
    "  same           the medians are within PCT of each other, or neither row has a time\n"
    "                 and both have one status (unsupported against unsupported)\n"
    "  n/a            a row has no time (status not ok) and the other another status\n"
    "Rows only one file holds are listed; rows that are not ok or not verified are\n"
    "flagged. Pairs that did not run the same work are noted: other atomic\n"
    "instructions (instructions-differ) or iteration counts more than 25% apart\n"
    "(iters-differ); a side above its run's noise target is noted (noisy). A summary counts the verdicts and gives the geometric mean of\n"
    "the B/A time ratios. Different devices or format versions give a warning line.\n\n"
    "  --threshold PCT  relative difference of the medians that counts  [5]\n"
    "  --ignore FIELDS  configuration fields left out of the match, e.g. wg_size,workgroups\n"
    "                   (two backends size their grids by their own occupancy)\n"
    "  --format F       table, csv or json  [table; with -o: from the extension]\n"
    "  -o FILE          write there (through a temporary name) instead of stdout\n"
    "  --describe       what each output field means (docs/design/metrics.md)\n\n"
    "A file over 1 GiB is refused before it is read (ATL_MAX_INPUT=BYTES raises the cap).\n"
    "Rows with a median under 1 ns or over a day per launch, or above 10^6 Gop/s, are\n"
    "flagged implausible and left out of the ratios; a row that repeats an earlier row's\n"
    "configuration of its file is listed as a duplicate.\n"
    "Exit status: 0 compared; 2 bad usage or a file that is not an atomlab result.\n";

int cmd_compare(int argc, char **argv)
{
  enum { O_THRESHOLD = 256, O_FORMAT, O_IGNORE };
  static const struct option longopts[] = {{"threshold", required_argument, NULL, O_THRESHOLD},
                                           {"ignore", required_argument, NULL, O_IGNORE},
                                           {"format", required_argument, NULL, O_FORMAT},
                                           {"output", required_argument, NULL, 'o'},
                                           {"help", no_argument, NULL, 'h'},
                                           {0}};
  double threshold = 0.05;
  int format = -1, c;
  const char *out_path = NULL, *ignore = NULL;
  cli_options_begin();
  while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
    cli_option_once(longopts, c, -1);
    switch (c) {
    case O_THRESHOLD: {
      char *end;
      double pct = strtod(optarg, &end);
      if (*optarg == '\0' || *end != '\0' || !(pct >= 0 && pct <= 1000))
        die_usage("--threshold '%s' is not allowed: a percentage from 0 to 1000", optarg);
      threshold = pct / 100;
      break;
    }
    case O_FORMAT:
      format = cli_parse_format(optarg);
      break;
    case 'o':
      out_path = optarg;
      break;
    case O_IGNORE:
      for (const char *p = optarg; *p; p += *p == ',') {
        const size_t n = strcspn(p, ",");
        if (!atl_config_field_known(p, n))
          die_usage("--ignore '%.*s' is not a configuration field (see 'atomlab compare --help')", (int)n, p);
        p += n;
      }
      ignore = optarg;
      break;
    default:
      return cli_help_or_bad(c, usage, "compare", argv);
    }
  }
  if (argc - optind != 2)
    die_usage("compare takes two result files, A.json and B.json (see 'atomlab compare --help')");
  cli_note_input("", argv[optind]);
  cli_note_input("", argv[optind + 1]);
  if (out_path) {
    cli_check_output("-o", out_path);
    format = cli_output_format("-o", out_path, format >= 0 ? format : ATL_FORMAT_TABLE);
  }
  if (format < 0)
    format = ATL_FORMAT_TABLE;

  struct atl_result_set a, b;
  const char *paths[2] = {argv[optind], argv[optind + 1]};
  char why[1200];
  if (atl_read_json(paths[0], &a, why, sizeof why))
    die_usage("%s", why);
  if (atl_read_json(paths[1], &b, why, sizeof why)) {
    atl_result_set_release(&a);
    die_usage("%s", why);
  }
  if (strcmp(a.meta.device.name, b.meta.device.name) != 0 ||
      strcmp(a.meta.device.backend, b.meta.device.backend) != 0) {
    char names[4][sizeof a.meta.device.name]; /* the files' text, shown without its control characters */
    fprintf(stderr, "warning: A was measured on %s (%s), B on %s (%s): the ratios compare devices, not variants\n",
            atl_esc_terminal_str(names[0], sizeof names[0], a.meta.device.name),
            atl_esc_terminal_str(names[1], sizeof names[1], a.meta.device.backend),
            atl_esc_terminal_str(names[2], sizeof names[2], b.meta.device.name),
            atl_esc_terminal_str(names[3], sizeof names[3], b.meta.device.backend));
  }
  if (a.format_version != b.format_version)
    fprintf(stderr, "note: A has format_version %d, B %d: both are read as version %d rows\n", a.format_version,
            b.format_version, ATL_FORMAT_VERSION);

  struct atl_comparison cmp;
  if (atl_compare(&a, &b, threshold, ignore, &cmp) != 0)
    die("out of memory");

  struct cli_buffer buf; /* the safe way: never half a file, a rescue file where it cannot be written */
  atl_comparison_write(out_path ? cli_buffer_open(&buf) : stdout, (enum atl_format)format, &cmp, &a, &b, paths);
  const int rc = out_path && cli_buffer_write(&buf, out_path, "the comparison") ? EXIT_MEASURE : EXIT_OK;
  if (out_path && rc == EXIT_OK)
    fprintf(stderr, "%zu same, %zu faster, %zu slower, %zu unclear, %zu n/a, %zu only in A, %zu only in B\n",
            cmp.counts[ATL_VERDICT_SAME], cmp.counts[ATL_VERDICT_FASTER], cmp.counts[ATL_VERDICT_SLOWER],
            cmp.counts[ATL_VERDICT_UNCLEAR], cmp.counts[ATL_VERDICT_NA], cmp.only_a, cmp.only_b);
  atl_comparison_release(&cmp);
  atl_result_set_release(&a);
  atl_result_set_release(&b);
  return rc;
}
