/* atomlab calibrate smem: the T(n, e, c) table of the shared-memory atomic model (seed 002). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char usage[] =
    "usage: atomlab calibrate smem [options]\n\n"
    "Measures T(n, e, c), the time one SM's shared-memory atomic unit takes for n\n"
    "warp-instructions issued together (c of them CAS, the others fetch-and-add),\n"
    "each with e active lanes on one word: from the first thread's start to the last\n"
    "thread's finish, in SM clock cycles (clock64; clocks of different SMs are never\n"
    "compared). Every SM measures its own point in the same launch; each point is\n"
    "measured --reps times (the table keeps the median) and verified (every shared\n"
    "word and returned value). CUDA only. docs/design/model.md describes the method.\n\n"
    "  --result R    used (ATOMS.ADD), unused (ATOMS.POPC.INC on sm_80+) or all  [all]\n"
    "  --n AXIS      warps, 1..resident warps per SM  [every n]\n"
    "  --e AXIS      active lanes per warp, 1..32  [every e]\n"
    "  --c AXIS      CAS warps (values above n are skipped) or all  [all: 0..n]\n"
    "                axes: a value, a list, A:B (powers of two), A:B:xK or A:B:+K\n"
    "  --reps N      good samples per point  [5]\n"
    "  --delay N     cycles from the first block's arrival to the common start  [20000]\n"
    "  --device ID   a CUDA device id or row number from 'atomlab devices'  [the best CUDA device]\n"
    "  --out PREFIX  write PREFIX.csv (the table) and PREFIX.json (metadata)\n"
    "                [$XDG_CACHE_HOME or ~/.cache: atomlab/<device>/smem-table, where\n"
    "                report finds it]\n"
    "  --quiet       no progress line\n\n"
    "On SIGINT or SIGTERM the points complete so far (every rep) are written to\n"
    "PREFIX.interrupted.csv and .json (\"complete\": false), never over the table of\n"
    "a complete run.\n"
    "Exit status: 0 the table was written; 1 a measurement failed or did not verify; 2 bad usage;\n"
    "128+N stopped by signal N.\n";

static void progress(void *arg, size_t done, size_t total)
{
  (void)arg;
  fprintf(stderr, "\rcalibrate smem: %zu of %zu samples", done, total);
}

static int calibrate_smem(int argc, char **argv)
{
  enum { O_RESULT = 256, O_N, O_E, O_C, O_REPS, O_DELAY, O_DEVICE, O_OUT, O_QUIET };
  static const struct option longopts[] = {
      {"result", required_argument, NULL, O_RESULT}, {"n", required_argument, NULL, O_N},
      {"e", required_argument, NULL, O_E},           {"c", required_argument, NULL, O_C},
      {"reps", required_argument, NULL, O_REPS},     {"delay", required_argument, NULL, O_DELAY},
      {"device", required_argument, NULL, O_DEVICE}, {"out", required_argument, NULL, O_OUT},
      {"quiet", no_argument, NULL, O_QUIET},         {"help", no_argument, NULL, 'h'},
      {0}};
  static const int both[] = {ATL_SMEM_UNUSED, ATL_SMEM_USED};
  static const char *const axis_opt[] = {"--n", "--e", "--c"};
  const char *text[3] = {"every 1..max", "every 1..32", "every 0..n"}, *device = NULL, *out = NULL;
  unsigned *values[3] = {NULL, NULL, NULL}; /* n, e, c: NULL is every value */
  size_t counts[3] = {0, 0, 0};
  struct atl_smem_calibration cfg = {.reps = 5, .delay_cycles = 20000, .variants = {1, 1}};
  int quiet = 0, c, list[MAX_LIST];
  char why[512];
  cli_options_begin();
  while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
    cli_option_once(longopts, c, -1);
    switch (c) {
    case O_RESULT:
      cfg.variants[0] = cfg.variants[1] = 0;
      for (size_t i = 0, n = cli_parse_names("--result", optarg, atl_smem_variant_parse, both, 2,
                                             "used, unused, all", list); i < n; i++)
        cfg.variants[list[i]] = 1;
      break;
    case O_N: /* axes are checked at once: they need only their own bounds, not the device */
    case O_E:
    case O_C: {
      const int a = c - O_N;
      free(values[a]);
      if (atl_smem_grid_axis_parse(optarg, a == 1 ? ATL_SMEM_MAX_E : ATL_SMEM_MAX_N, a == 2, &values[a], &counts[a],
                                   why, sizeof why))
        die_usage("%s: %s", axis_opt[a], why);
      text[a] = optarg;
      break;
    }
    case O_REPS: cfg.reps = cli_parse_count("--reps", optarg, 101); break;
    case O_DELAY:
      if ((cfg.delay_cycles = cli_parse_count("--delay", optarg, 100000000)) < 1000)
        die_usage("--delay '%s' is not allowed: cycles from 1000 to 100000000", optarg);
      break;
    case O_DEVICE: device = optarg; break;
    case O_OUT:
      if (!*optarg)
        die_usage("--out is empty: a path prefix such as out/smem-table");
      out = optarg;
      break;
    case O_QUIET: quiet = 1; break;
    default: return cli_help_or_bad(c, usage, "calibrate smem", argv);
    }
  }
  if (optind < argc)
    die_usage("unexpected argument '%s' for calibrate smem", argv[optind]);
  atl_context_t ctx = cli_open_device(device, "cuda");
  const int bad = atl_smem_calibration_axes(ctx, &cfg, values, counts, why, sizeof why);
  if (bad == ATL_EINVAL)
    die_usage("--%s", why);
  if (bad)
    die("%s", why);
  cfg.progress = quiet || !isatty(2) ? NULL : progress;
  char grid[256];
  snprintf(grid, sizeof grid, "n %s, e %s, c %s", text[0], text[1], text[2]);
  struct atl_run_meta meta;
  atl_run_meta_init(&meta, ctx, argc + 2, argv - 2); /* from "atomlab" on */
  /* The outputs are checked before anything is measured. */
  struct atl_smem_calibration_files files;
  if (atl_smem_calibration_files(out, &meta.device, 0, &files, why, sizeof why))
    die_usage("--out '%s': %s", out ? out : files.prefix, why);
  cli_check_output("--out", files.csv);
  cli_check_output("--out", files.json);
  struct atl_smem_table table;
  struct atl_smem_spread spread;
  struct atl_smem_calibration_info info;
  if (atl_smem_spread_init(&table, &spread, cfg.nmax))
    die("unable to set up a table for %u warps", cfg.nmax);
  cli_catch_stop_signals(); /* between launches: the complete points are written, then exit 128+N */
  int err = atl_smem_calibrate(ctx, &cfg, &table, &spread, &info);
  if (cfg.progress)
    fputc('\n', stderr);
  const int sig = err == ATL_EINTR ? atl_stop_requested() : 0;
  if (sig && info.points == 0) {
    fprintf(stderr, "error: calibrate smem interrupted (signal %d) before any point had all its reps: nothing was "
                    "written\n", sig);
    return 128 + sig;
  }
  if (sig)
    atl_smem_calibration_files(out, &meta.device, 1, &files, why, sizeof why);
  else if (err)
    die("calibrate smem: %s", atl_errmsg(ctx)[0] ? atl_errmsg(ctx) : atl_strerror(err));
  const char *csv_name = strrchr(files.csv, '/') ? strrchr(files.csv, '/') + 1 : files.csv;
  const struct atl_smem_calibration_labels labels = {&meta, csv_name, grid, sig == 0};
  /* the safe way: never half a table; where a file cannot be written its text goes to a rescue file */
  struct cli_buffer buf;
  atl_smem_table_write_csv(cli_buffer_open(&buf), &table, &spread);
  int write_failed = cli_buffer_write(&buf, files.csv, "the table");
  atl_smem_calibration_write_json(cli_buffer_open(&buf), &cfg, &info, &labels);
  write_failed |= cli_buffer_write(&buf, files.json, "the table's metadata");
  if (sig) {
    fprintf(stderr, "error: calibrate smem interrupted (signal %d) after %zu complete points: they are in '%s' (not a "
                    "complete table: '%s.csv' was left as it was)\n", sig, info.points, files.csv, files.prefix);
    return 128 + sig;
  }
  fputs("calibrate smem: ", stdout);
  atl_smem_calibration_write_summary(stdout, &cfg, &info);
  if (!write_failed)
    printf("wrote %s and %s\n", files.csv, files.json);
  for (int a = 0; a < 3; a++)
    free(values[a]);
  atl_smem_spread_release(&table, &spread);
  atl_context_free(ctx);
  return write_failed ? EXIT_MEASURE : EXIT_OK;
}

int cmd_calibrate(int argc, char **argv)
{
  static const char top[] = "usage: atomlab calibrate smem [options]\n\n"
                            "Calibration runs for the models:\n"
                            "  smem   T(n, e, c) of the shared-memory atomic unit (see 'atomlab calibrate smem --help')\n";
  if (argc < 2) /* a usage error like any other: one line, exit 2 (--help prints the list) */
    die_usage("calibrate needs a subcommand: allowed: smem");
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    fputs(top, stdout);
    return EXIT_OK;
  }
  if (strcmp(argv[1], "smem") != 0)
    die_usage("calibrate: unknown model '%s': allowed: smem", argv[1]);
  return calibrate_smem(argc - 1, argv + 1);
}
