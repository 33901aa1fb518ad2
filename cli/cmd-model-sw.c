/*
 * atomlab model swatomic: seed 000's speedup model against a swatomic --experiment file, with the
 * coordinator's pass calibrated on chosen grids (include/atomlab/swmodel.h, docs/software-atomics.md).
 * The library reads, fits and evaluates; this parses the options and prints the table.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "atomlab/result.h"
#include "atomlab/swmodel.h"
#include "cli.h"

#define MAX_GRIDS 64

static const char usage[] =
    "usage: atomlab model swatomic FILE.json [--fit FIT.json] [--fit-grids LIST]\n\n"
    "Seed 000's speedup model (equations (1)-(4)) against FILE's measured times per grid. With --fit\n"
    "or --fit-grids, equation (2)'s coordinator term is the coordinator's pass, P ((C + 1) k_chunk +\n"
    "C N k_queue) t_fast, with k_chunk and k_queue fitted by least squares on FIT's grids in LIST\n"
    "(FIT: FILE itself where not given; LIST: all of FIT's grids where not given); t_fast, t_l and\n"
    "t_comp are always FILE's own. A grid of FILE is in-sample when FIT is FILE and LIST has it.\n\n"
    "  --fit FILE        the swatomic --experiment file to calibrate k_chunk and k_queue on\n"
    "  --fit-grids LIST  its grids to fit on, e.g. 8,128,1024 (work-groups, coordinator included)\n";

static int in_list(const uint32_t *list, size_t n, double g)
{
  for (size_t i = 0; i < n; i++)
    if (list[i] == g)
      return 1;
  return n == 0;
}

static void read_points(const char *path, struct atl_result_set *set, struct atl_swmodel *m,
                        struct atl_swmodel_point *pt, size_t *n)
{
  char why[300];
  memset(set, 0, sizeof *set);
  if (atl_read_json(path, set, why, sizeof why))
    die_usage("model swatomic '%s': %s", path, why);
  if (atl_swmodel_points(set, m, pt, MAX_GRIDS, n, why, sizeof why))
    die_usage("model swatomic '%s': %s", path, why);
}

static void print_median(const char *label, struct atl_swmodel_error e)
{
  if (e.n)
    printf("%s (%zu grids): system %.0f%%, software %.0f%%, speedup %.0f%%\n", label, e.n, 100 * e.system,
           100 * e.software, 100 * e.speedup);
}

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
  while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
    if (ch == 'h') {
      fputs(usage, stdout);
      return EXIT_OK;
    }
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
      die_usage("model swatomic: unknown option (see 'atomlab model swatomic --help')");
  }
  if (argc - optind != 1)
    die_usage("model swatomic takes one file, FILE.json (see 'atomlab model swatomic --help')");
  const char *path = argv[optind];
  struct atl_result_set set, fset;
  struct atl_swmodel m, fm;
  struct atl_swmodel_point pt[MAX_GRIDS], fpt[MAX_GRIDS];
  size_t n = 0, fn = 0;
  int in[MAX_GRIDS] = {0};
  read_points(path, &set, &m, pt, &n);
  const int same = fit_path == NULL || strcmp(fit_path, path) == 0;
  if (fit) {
    struct atl_swmodel_load loads[MAX_GRIDS];
    double meas[MAX_GRIDS];
    size_t k = 0;
    read_points(same ? path : fit_path, &fset, &fm, fpt, &fn);
    for (size_t i = 0; i < fn; i++)
      if (in_list(grids, ngrids, fpt[i].workgroups)) {
        loads[k] = fpt[i].load;
        meas[k++] = fpt[i].sw_meas;
      }
    if (atl_swmodel_fit(&fm, loads, meas, k))
      die_usage("--fit-grids: %zu grid(s) of '%s' leave no fit (need two or more, giving k_chunk, k_queue >= 0)",
                k, same ? path : fit_path);
    m.k_chunk = fm.k_chunk;
    m.k_queue = fm.k_queue;
    atl_result_set_release(&fset);
    for (size_t i = 0; i < n; i++)
      in[i] = same && in_list(grids, ngrids, pt[i].workgroups);
  }
  printf("speedup model (seed 000): t_fast %.2f ns, t_l %.3f ns, t_comp %.3f ns", m.t_fast, m.t_l, m.t_comp);
  if (fit)
    printf("; coordinator pass k_chunk %.3f, k_queue %.6f (t_fast) fitted on %s", m.k_chunk, m.k_queue,
           same ? "this file" : fit_path);
  printf("\n   wgs  chunks passes  sw pred ns   sw meas ns   sw err   pred x   meas x    x err  sample\n");
  for (size_t i = 0; i < n; i++) {
    struct atl_swmodel_parts p;
    const double sw = atl_swmodel_software(&m, &pt[i].load, &p), sys = atl_swmodel_system(&m, &pt[i].all);
    const double px = sys / sw, mx = pt[i].sys_meas / pt[i].sw_meas;
    printf("%6.0f %7.0f %6.0f %11.1f %12.1f %+7.0f%% %8.3f %8.3f %+7.0f%%  %s\n", pt[i].workgroups, p.chunks,
           p.passes, sw, pt[i].sw_meas, 100 * (sw / pt[i].sw_meas - 1), px, mx, 100 * (px / mx - 1),
           !fit ? "-" : in[i] ? "in" : "out");
  }
  if (!fit)
    print_median("median |error|, the seed's equation (2)", atl_swmodel_evaluate(&m, pt, n, NULL, 0));
  else {
    print_median("median |error| in-sample", atl_swmodel_evaluate(&m, pt, n, in, 1));
    print_median("median |error| out-of-sample", atl_swmodel_evaluate(&m, pt, n, in, 0));
  }
  atl_result_set_release(&set);
  return EXIT_OK;
}
