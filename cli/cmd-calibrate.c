/* atomlab calibrate smem: the T(n, e, c) table of the shared-memory atomic model (seed 002). */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
    "word and returned value). CUDA only. docs/model.md describes the method.\n\n"
    "  --result R    used (ATOMS.ADD), unused (ATOMS.POPC.INC on sm_80+) or all  [all]\n"
    "  --n AXIS      warps, 1..resident warps per SM  [every n]\n"
    "  --e AXIS      active lanes per warp, 1..32  [every e]\n"
    "  --c AXIS      CAS warps (values above n are skipped) or all  [all: 0..n]\n"
    "                axes: a value, a list, A:B (powers of two), A:B:xK or A:B:+K\n"
    "  --reps N      good samples per point  [5]\n"
    "  --delay N     cycles from the first block's arrival to the common start  [20000]\n"
    "  --device ID   a CUDA device id or row number from 'atomlab devices'  [the best CUDA device]\n"
    "  --out PREFIX  write PREFIX.csv (the table) and PREFIX.json (metadata)\n"
    "                [results/<device>/smem-table]\n"
    "  --quiet       no progress line\n\n"
    "On SIGINT or SIGTERM the points complete so far (every rep) are written to\n"
    "PREFIX.interrupted.csv and .json (\"complete\": false), never over the table of\n"
    "a complete run.\n"
    "Exit status: 0 the table was written; 1 a measurement failed or did not verify; 2 bad usage;\n"
    "128+N stopped by signal N.\n";

static int parse_axis_values(const char *opt, const char *text, uint32_t max, unsigned **values, size_t *count)
{
  struct atl_axis axis;
  char why[160];
  if (atl_axis_parse(text, max, &axis, why, sizeof why) != 0)
    die_usage("%s: %s", opt, why);
  *values = malloc(axis.count * sizeof **values);
  if (*values == NULL)
    die("out of memory");
  for (size_t i = 0; i < axis.count; i++)
    (*values)[i] = axis.values[i];
  *count = axis.count;
  atl_axis_release(&axis);
  return 0;
}

static unsigned *range(unsigned lo, unsigned hi, size_t *count)
{
  unsigned *v = malloc((hi - lo + 1) * sizeof *v);
  if (v == NULL)
    die("out of memory");
  for (unsigned i = lo; i <= hi; i++)
    v[i - lo] = i;
  *count = hi - lo + 1;
  return v;
}

static void progress(void *arg, size_t done, size_t total)
{
  (void)arg;
  fprintf(stderr, "\rcalibrate smem: %zu of %zu samples", done, total);
}

/* mkdir -p for the parent folder of @p path. */
static int make_parents(const char *path)
{
  char buf[4096];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/')
      continue;
    *p = '\0';
    if (mkdir(buf, 0777) != 0 && errno != EEXIST)
      return -1;
    *p = '/';
  }
  return 0;
}

/* The library's writers, in the shape cli_write_output() calls. */
struct calibration_out {
  const struct atl_smem_table *table;
  const struct atl_smem_spread *spread;
  const struct atl_smem_calibration *cfg;
  const struct atl_smem_calibration_info *info;
  struct atl_smem_calibration_labels labels;
};

static int write_table(FILE *f, const void *arg)
{
  const struct calibration_out *o = arg;
  return atl_smem_table_write_csv(f, o->table, o->spread);
}

static int write_metadata(FILE *f, const void *arg)
{
  const struct calibration_out *o = arg;
  return atl_smem_calibration_write_json(f, o->cfg, o->info, &o->labels);
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
  const char *n_text = NULL, *e_text = NULL, *c_text = NULL, *device = NULL, *out = NULL;
  int variants[ATL_SMEM_VARIANTS] = {1, 1}, quiet = 0, c;
  unsigned reps = 5, delay = 20000;
  unsigned *n_values = NULL, *e_values = NULL, *c_values = NULL;
  size_t n_count = 0, e_count = 0, c_count = 0;
  optind = 1;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
    switch (c) {
    case O_RESULT:
      if (strcmp(optarg, "all") == 0) {
        variants[0] = variants[1] = 1;
      } else {
        variants[0] = variants[1] = cli_list_has(optarg, "all"); /* "all" inside a list */
        char *copy = strdup(optarg);
        if (copy == NULL)
          die("out of memory");
        for (char *save = NULL, *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
          int v = atl_smem_variant_parse(item);
          if (v < 0 && strcmp(item, "all") == 0)
            continue;
          if (v < 0)
            die_usage("--result '%s' is not known: allowed: used, unused, all", item);
          variants[v] = 1;
        }
        free(copy);
        if (!variants[0] && !variants[1])
          die_usage("--result is empty: allowed: used, unused, all");
      }
      break;
    case O_N: /* axes are checked at once: they need only their own bounds, not the device */
      free(n_values);
      n_text = optarg;
      parse_axis_values("--n", n_text, ATL_SMEM_MAX_N, &n_values, &n_count);
      break;
    case O_E:
      free(e_values);
      e_text = optarg;
      parse_axis_values("--e", e_text, ATL_SMEM_MAX_E, &e_values, &e_count);
      break;
    case O_C: c_text = optarg; break;
    case O_REPS: {
      char *end;
      unsigned long v = strtoul(optarg, &end, 10);
      if (*optarg < '0' || *optarg > '9' || *end || v < 1 || v > 101)
        die_usage("--reps '%s' is not allowed: a whole number from 1 to 101", optarg);
      reps = (unsigned)v;
      break;
    }
    case O_DELAY: {
      char *end;
      unsigned long v = strtoul(optarg, &end, 10);
      if (*optarg < '0' || *optarg > '9' || *end || v < 1000 || v > 100000000)
        die_usage("--delay '%s' is not allowed: cycles from 1000 to 100000000", optarg);
      delay = (unsigned)v;
      break;
    }
    case O_DEVICE: device = optarg; break;
    case O_OUT:
      if (!*optarg)
        die_usage("--out is empty: a path prefix such as results/nvidia-h100/smem-table");
      out = optarg;
      break;
    case O_QUIET: quiet = 1; break;
    case 'h': fputs(usage, stdout); return EXIT_OK;
    case ':': die_usage("option '%s' needs a value (see 'atomlab calibrate smem --help')", argv[optind - 1]);
    default: die_usage("unknown option '%s' for calibrate smem (see 'atomlab calibrate smem --help')", argv[optind - 1]);
    }
  }
  if (optind < argc)
    die_usage("unexpected argument '%s' for calibrate smem", argv[optind]);
  if (c_text && strcmp(c_text, "all") != 0) {
    if (strcmp(c_text, "0") == 0) {
      c_values = range(0, 0, &c_count);
    } else {
      /* c may be 0: parse "0,..." by hand, the rest as an axis */
      int with_zero = strncmp(c_text, "0,", 2) == 0;
      parse_axis_values("--c", with_zero ? c_text + 2 : c_text, ATL_SMEM_MAX_N, &c_values, &c_count);
      if (with_zero) {
        unsigned *grown = realloc(c_values, (c_count + 1) * sizeof *grown);
        if (grown == NULL)
          die("out of memory");
        memmove(grown + 1, grown, c_count * sizeof *grown);
        grown[0] = 0;
        c_values = grown;
        c_count++;
      }
    }
  }
  atl_context_t ctx = cli_open_device(device, "cuda");
  unsigned nmax = atl_smem_max_warps(ctx);
  if (nmax == 0 || nmax > ATL_SMEM_MAX_N)
    die("unable to tell the resident warps per SM of this device");
  for (size_t i = 0; i < n_count; i++)
    if (n_values[i] > nmax)
      die_usage("--n %u is above this device's %u resident warps per SM", n_values[i], nmax);
  if (!n_values)
    n_values = range(1, nmax, &n_count);
  if (!e_values)
    e_values = range(1, ATL_SMEM_MAX_E, &e_count);
  char grid[256];
  snprintf(grid, sizeof grid, "n %s, e %s, c %s", n_text ? n_text : "every 1..max", e_text ? e_text : "every 1..32",
           c_text ? c_text : "every 0..n");
  struct atl_run_meta meta;
  cli_fill_meta(ctx, argc + 2, argv - 2, &meta); /* from "atomlab" on */
  char prefix[3900];
  if (out) {
    snprintf(prefix, sizeof prefix, "%s", out);
  } else {
    char slug[64];
    atl_device_slug(&meta.device, slug, sizeof slug);
    snprintf(prefix, sizeof prefix, "results/%s/smem-table", slug);
  }
  struct atl_smem_calibration cfg = {.nmax = nmax, .n_values = n_values, .n_count = n_count, .e_values = e_values,
                                     .e_count = e_count, .c_values = c_values, .c_count = c_count, .reps = reps,
                                     .delay_cycles = delay, .progress = quiet || !isatty(2) ? NULL : progress};
  cfg.variants[0] = variants[0];
  cfg.variants[1] = variants[1];
  struct atl_smem_table table;
  struct atl_smem_spread spread;
  struct atl_smem_calibration_info info;
  if (atl_smem_table_init(&table, nmax, ATL_SMEM_MAX_E) || atl_smem_table_init(&spread.min, nmax, ATL_SMEM_MAX_E) ||
      atl_smem_table_init(&spread.max, nmax, ATL_SMEM_MAX_E))
    die("unable to set up a table for %u warps", nmax);
  /* The outputs are checked before anything is measured (their folder made first: results/<device>/ is new
   * on a new device). An interrupted run writes beside them: a partial table must never replace a
   * complete one that `atomlab profile` and `model` read, and the CSV has no place to say "partial". */
  char csv_path[4000], json_path[4000];
  snprintf(csv_path, sizeof csv_path, "%s.csv", prefix);
  snprintf(json_path, sizeof json_path, "%s.json", prefix);
  if (make_parents(csv_path) != 0)
    die_usage("--out '%s': unable to create its folder: %s", prefix, strerror(errno));
  cli_check_output("--out", csv_path);
  cli_check_output("--out", json_path);
  cli_catch_stop_signals(); /* between launches: the complete points are written, then exit 128+N */
  int err = atl_smem_calibrate(ctx, &cfg, &table, &spread, &info);
  if (cfg.progress)
    fputc('\n', stderr);
  const int sig = err == ATL_EINTR ? atl_stop_requested() : 0;
  if (sig && info.points == 0) {
    atl_context_free(ctx);
    fprintf(stderr, "error: calibrate smem interrupted (signal %d) before any point had all its reps: nothing was "
                    "written\n", sig);
    return 128 + sig;
  }
  if (sig) {
    snprintf(csv_path, sizeof csv_path, "%s.interrupted.csv", prefix);
    snprintf(json_path, sizeof json_path, "%s.interrupted.json", prefix);
  } else if (err) {
    char msg[2048];
    snprintf(msg, sizeof msg, "%s", atl_errmsg(ctx)[0] ? atl_errmsg(ctx) : atl_strerror(err));
    atl_context_free(ctx);
    die("calibrate smem: %s", msg);
  }
  const char *csv_name = strrchr(csv_path, '/') ? strrchr(csv_path, '/') + 1 : csv_path;
  const struct calibration_out o = {&table, &spread, &cfg, &info, {&meta, csv_name, grid, sig == 0}};
  /* the safe way: never half a table; where a file cannot be written its text goes to a rescue file */
  int write_failed = cli_write_output(csv_path, "the table", write_table, &o);
  write_failed |= cli_write_output(json_path, "the table's metadata", write_metadata, &o);
  if (sig) {
    fprintf(stderr, "error: calibrate smem interrupted (signal %d) after %zu complete points: they are in '%s' (not a "
                    "complete table: '%s.csv' was left as it was)\n", sig, info.points, csv_path, prefix);
    atl_context_free(ctx);
    return 128 + sig;
  }
  printf("calibrate smem: %zu points (%u reps each, %zu launches on %u SMs, %zu samples repeated) in %.1f s\n",
         info.points, reps, info.launches, info.slots, info.retried, info.seconds);
  for (int v = 0; v < ATL_SMEM_VARIANTS; v++) {
    if (!variants[v])
      continue;
    const char *want = v == ATL_SMEM_USED ? "ATOMS.ADD" : "ATOMS.POPC.INC";
    printf("  %-6s kernel: %s\n", atl_smem_variant_name((enum atl_smem_variant)v), info.instructions[v]);
    if (!strstr(info.instructions[v], want))
      printf("  note: the %s kernel's SASS summary does not show %s\n", atl_smem_variant_name((enum atl_smem_variant)v),
             want);
  }
  if (!write_failed)
    printf("wrote %s and %s\n", csv_path, json_path);
  free(n_values);
  free(e_values);
  free(c_values);
  atl_smem_table_release(&table);
  atl_smem_table_release(&spread.min);
  atl_smem_table_release(&spread.max);
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
