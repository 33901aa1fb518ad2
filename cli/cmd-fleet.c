/* atomlab fleet: the nodes of a fleet compared op by op, from one folder of result files per node (what a
 * ReFrame run of reframe/checks.py collects). The library reads and judges (atl_fleet_build), writes
 * (atl_fleet_write) and draws (atl_fleet_plot); this file parses and prints. */
#include <getopt.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomlab/fleet.h"
#include "cli.h"

static const char usage[] =
    "usage: atomlab fleet DIR... [-o FILE]... [--figures DIR] [--k K] [--noise-factor C] [--floor PCT]\n"
    "                            [--fail-on-outlier]\n\n"
    "Compares the nodes of a fleet. Each DIR is one node (named by the folder's last\n"
    "component) and holds its result files: DIR/*.json, or DIR/data/*.json of a report\n"
    "folder. An op is one rate of one row configuration of one file name on one device\n"
    "model (a datasheet row gives peak_gops and same_address_gops, other rows their gops,\n"
    "else the median time). Per op: the fleet's median and each node's deviation from\n"
    "it. A node is flagged where its value lies outside the band\n"
    "    |value - median| > max(K x 1.4826 x MAD, C x its row's noise (IQR/median), PCT% of the median)\n"
    "in an op that at least 3 nodes measured, or where its row failed or did not verify\n"
    "(docs/guide/fleet.md gives the reason of each constant). Nodes of different device\n"
    "models are allowed: each op compares one model's nodes, and a note says so.\n\n"
    "  -o FILE          write the comparison there (through a temporary name), in the form of\n"
    "                   its extension: .md, .html, .txt or .csv (a row per node and op); up\n"
    "                   to 4 times. Without -o the text form goes to stdout\n"
    "  --figures DIR    draw the figure there: fleet.png (gnuplot) with fleet.dat and fleet.gp\n"
    "  --k K            robust standard deviations allowed  [3]\n"
    "  --noise-factor C multiples of a row's own noise allowed  [2]\n"
    "  --floor PCT      the smallest deviation flagged, in %  [5]\n"
    "  --fail-on-outlier  exit 1 where a node is flagged (a gate for a scheduler's health check)\n"
    "  --describe       what each field means (docs/design/metrics.md)\n\n"
    "Exit status: 0 compared and written, whatever it found: a flagged node is a finding, listed\n"
    "in the output, not a failure of the command; 1 an output or the figure could not be\n"
    "written, or --fail-on-outlier and a node is flagged; 2 bad usage: no DIR, a DIR with no\n"
    "result files, a file that is not an atomlab result, two DIRs of one name.\n";

struct fleet_opts {
  const char *out[CLI_MAX_OUTPUTS];
  int formats[CLI_MAX_OUTPUTS];
  size_t nout;
  const char *figures;
  struct atl_fleet_rule rule;
  int fail_on_outlier;
};

/* Before anything is read: --figures is a folder, or a new one whose parent is a folder. */
static void check_figures(const char *dir)
{
  struct stat st;
  char parent[4096];
  if (*dir == '\0')
    die_usage("--figures '': a folder name is needed");
  if (stat(dir, &st) == 0) {
    if (!S_ISDIR(st.st_mode))
      die_usage("--figures '%s' is a file, not a folder", dir);
    return;
  }
  snprintf(parent, sizeof parent, "%s", dir);
  const char *up = dirname(parent);
  if (stat(up, &st) != 0 || !S_ISDIR(st.st_mode))
    die_usage("--figures '%s': its parent folder '%s' does not exist", dir, up);
}

static void parse(int argc, char **argv, struct fleet_opts *o)
{
  enum { O_FIGURES = 256, O_K, O_NOISE, O_FLOOR, O_FAIL };
  static const struct option longopts[] = {{"output", required_argument, NULL, 'o'},
                                           {"figures", required_argument, NULL, O_FIGURES},
                                           {"k", required_argument, NULL, O_K},
                                           {"noise-factor", required_argument, NULL, O_NOISE},
                                           {"floor", required_argument, NULL, O_FLOOR},
                                           {"fail-on-outlier", no_argument, NULL, O_FAIL},
                                           {"help", no_argument, NULL, 'h'},
                                           {0}};
  int c;
  cli_options_begin();
  while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
    switch (c) {
    case 'o':
      if (o->nout == CLI_MAX_OUTPUTS)
        die_usage("-o is allowed at most %d times", CLI_MAX_OUTPUTS);
      if ((o->formats[o->nout] = atl_fleet_format_from_path(optarg)) < 0)
        die_usage("-o '%s': the extension is not known: allowed: .md, .html, .txt, .csv", optarg);
      cli_check_output("-o", optarg);
      o->out[o->nout++] = optarg;
      break;
    case O_FIGURES:
      check_figures(optarg);
      o->figures = optarg;
      break;
    case O_K:
      o->rule.k = cli_parse_real("--k", optarg, 0, 100);
      break;
    case O_NOISE:
      o->rule.noise_factor = cli_parse_real("--noise-factor", optarg, 0, 100);
      break;
    case O_FLOOR:
      o->rule.floor = cli_parse_real("--floor", optarg, 0, 1000) / 100;
      break;
    case O_FAIL:
      o->fail_on_outlier = 1;
      break;
    default:
      if (cli_help_or_bad(c, usage, "fleet", argv) == EXIT_OK)
        exit(EXIT_OK);
    }
  }
  if (optind >= argc)
    die_usage("fleet takes one folder of result files per node, DIR... (see 'atomlab fleet --help')");
}

static void plot_notify(void *arg, enum atl_plot_event event, const char *text)
{
  (void)arg;
  if (event == ATL_PLOT_IMAGE)
    fprintf(stderr, "drew %s\n", text);
  else
    fprintf(stderr, "%s%s\n", event == ATL_PLOT_ERROR ? "error: " : event == ATL_PLOT_WARNING ? "warning: " : "note: ",
            text);
}

/* The figure into --figures; 0, or 1 where it could not be drawn. */
static int draw(const struct atl_fleet *fl, const char *dir)
{
  struct atl_plot_options po;
  atl_plot_options_init(&po);
  po.notify = plot_notify;
  struct atl_plot_outcome outcome = {0};
  char why[1200];
  const int rc = atl_fleet_plot(fl, dir, &po, &outcome, why, sizeof why);
  if (rc != 0)
    fprintf(stderr, "error: --figures '%s': %s\n", dir, why);
  return rc != 0 || outcome.failed > 0;
}

int cmd_fleet(int argc, char **argv)
{
  struct fleet_opts o = {0};
  atl_fleet_rule_init(&o.rule);
  parse(argc, argv, &o);
  struct atl_fleet fl;
  char why[5000];
  const int rc = atl_fleet_build((const char *const *)argv + optind, (size_t)(argc - optind), &o.rule, &fl, why,
                                 sizeof why);
  if (rc == ATL_EINVAL)
    die_usage("%s", why);
  if (rc != 0)
    die("%s", why);
  if (fl.devices > 1)
    fprintf(stderr, "note: the nodes hold %zu device models: each op compares the nodes of one model only\n",
            fl.devices);
  int failed = 0;
  for (size_t i = 0; i < o.nout; i++)
    failed |= cli_write_output(o.out[i], "the fleet comparison", atl_fleet_write_file,
                               &(struct atl_fleet_writer){(enum atl_fleet_format)o.formats[i], &fl});
  if (o.nout == 0)
    atl_fleet_write(stdout, ATL_FLEET_TEXT, &fl);
  else
    fprintf(stderr, "fleet: %zu nodes, %zu ops, %zu flagged cells on %zu nodes\n", fl.nnodes, fl.nops, fl.flagged,
            fl.flagged_nodes);
  if (o.figures)
    failed |= draw(&fl, o.figures);
  const int flagged = fl.flagged_nodes > 0;
  atl_fleet_release(&fl);
  return failed || (o.fail_on_outlier && flagged) ? EXIT_MEASURE : EXIT_OK;
}
