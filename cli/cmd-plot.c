/* atomlab plot: the figures of a result file, drawn by gnuplot (atl_plot,
 * src/plot/). This file parses the options and prints what the library tells. */
#include <getopt.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: atomlab plot FILE.json|CASE-DIR [-o DIR] [--format png|svg|both] [--timeout S]\n\n"
    "Draws the figures of a result file (from `atomlab rmw` or a command with a\n"
    "strategy per row, or `atomlab app swatomic`) with gnuplot, from the rows that\n"
    "are ok and verified:\n"
    "  heatmap-*   contention on x, padding on y, Gop/s as a log colour scale: one per\n"
    "              (pattern, op, type, space, result, scope, order) where both vary\n"
    "  line-*      Gop/s at the median with the IQR as error bars, where only one of\n"
    "              contention and padding varies\n"
    "  bars-*      one bar per strategy (median, IQR error bars), per configuration\n"
    "  swatomic-*  from `app swatomic --experiment`: seed 000's Figures 4, 8, 9 and the\n"
    "              model's predicted against measured speedup, over the work-groups\n"
    "  smem-case-* from a case-study folder (see 'atomlab model case-summary'): seed\n"
    "              002's U and speedup per image size, B against the measured time\n"
    "Each figure is written as NAME.dat (its data), NAME.gp (its gnuplot script) and\n"
    "the images; names come from the configuration, so a rerun overwrites the same\n"
    "files. The image paths are printed on stdout. Without gnuplot (or with\n"
    "ATL_GNUPLOT pointing nowhere) the data and scripts are still written.\n\n"
    "  -o DIR        the folder for the figures (created if missing)  [FILE-figures]\n"
    "  --format F    png, svg or both  [png]\n"
    "  --timeout S   seconds one gnuplot run may take before it is stopped (and no\n"
    "                further figure is drawn); 0: no limit  [60]\n"
    "  --describe    what the figures show (docs/design/metrics.md)\n"
    "Environment: ATL_GNUPLOT=PATH the gnuplot to run  [gnuplot on PATH]\n\n"
    "Exit status: 0 drawn (or data written without gnuplot); 1 gnuplot failed, timed\n"
    "out or nothing to draw; 2 bad usage or a file that is not an atomlab result;\n"
    "128+N stopped by signal N (SIGINT, SIGTERM): gnuplot is stopped too.\n";

/* The library prints nothing: its events become the lines the command always printed. */
static void notify(void *arg, enum atl_plot_event ev, const char *text)
{
  (void)arg;
  static const char *const prefix[] = {"", "error: ", "warning: ", "note: "};
  FILE *to = ev == ATL_PLOT_IMAGE ? stdout : stderr;
  fputs(prefix[ev], to);
  atl_esc_terminal(to, text); /* the notes quote the file's names */
  fputc('\n', to);
}

static int plot_command(int argc, char **argv)
{
  enum { O_TIMEOUT = 256 };
  static const struct option longopts[] = {{"format", required_argument, NULL, 'f'},
                                           {"output", required_argument, NULL, 'o'},
                                           {"timeout", required_argument, NULL, O_TIMEOUT},
                                           {"help", no_argument, NULL, 'h'},
                                           {0}};
  struct atl_plot_options opts;
  atl_plot_options_init(&opts);
  int c;
  const char *dir = NULL;
  cli_options_begin();
  while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
    cli_option_once(longopts, c, -1);
    switch (c) {
    case 'f':
      if (strcmp(optarg, "png") == 0)
        opts.png = 1, opts.svg = 0;
      else if (strcmp(optarg, "svg") == 0)
        opts.png = 0, opts.svg = 1;
      else if (strcmp(optarg, "both") == 0)
        opts.png = 1, opts.svg = 1;
      else
        die_usage("--format '%s' is not known: allowed: png, svg, both", optarg);
      break;
    case 'o':
      dir = optarg;
      break;
    case O_TIMEOUT:
      opts.timeout = cli_parse_real("--timeout", optarg, 0, 7 * 86400);
      break;
    default:
      return cli_help_or_bad(c, usage, "plot", argv);
    }
  }
  if (argc - optind != 1)
    die_usage("plot takes one result file, FILE.json (see 'atomlab plot --help')");
  const char *path = argv[optind];
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) { /* a case study's folder: its figures may join it */
    static const char *const read[] = {"predict.csv", "hist-case.csv", "validate.csv"};
    static char inputs[3][4200];
    for (int i = 0; i < 3; i++)
      snprintf(inputs[i], sizeof inputs[i], "%s/%s", path, read[i]), cli_note_input("", inputs[i]);
  } else
    cli_note_input("", path);
  if (dir) /* the figure folder: never an input, one plot at a time */
    cli_claim_output("-o", dir, dir);
  struct atl_plot_outcome out;
  char why[1200];
  opts.notify = notify;
  int rc = atl_plot(path, dir, &opts, &out, why, sizeof why);
  if (rc == ATL_EINVAL)
    die_usage("%s%s", out.bad_folder ? "-o " : "", why);
  if (rc != 0)
    die("%s", why);
  return out.failed ? EXIT_MEASURE : EXIT_OK;
}

int cmd_plot(int argc, char **argv)
{
  /* SIGINT/SIGTERM reach the running gnuplot too (atl_spawn); no further one starts. */
  cli_catch_stop_signals();
  int rc = plot_command(argc, argv);
  int sig = atl_stop_requested();
  if (sig == 0)
    return rc;
  fprintf(stderr,
          "error: plot interrupted (signal %d): every figure's .dat and .gp are written; the images printed above "
          "were drawn\n",
          sig);
  return 128 + sig;
}
