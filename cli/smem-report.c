/* What `atomlab model util` and `atomlab profile` print: Table 2 of seed 002 per kernel, with a verdict. */
#include <stdlib.h>
#include <string.h>

#include "atomlab/l2model.h"
#include "cli.h"

const char smem_opts_help[] =
    "  --table FILE      the calibration table (CSV from 'atomlab calibrate smem'): model util needs\n"
    "                    it; profile, without it, finds the one for the profiled device\n"
    "  --result R        which table variant models the kernels' fetch-and-adds: used (ATOMS.ADD)\n"
    "                    or unused (ATOMS.POPC.INC)  [used]\n"
    "  --threshold X     utilization at or above X is a bottleneck, 0 < X <= 10  [0.8]\n"
    "  --sms N           SMs, where the counters lack device__attribute_multiprocessor_count\n"
    "  --warps-per-sm N  resident warps per SM, where the counters lack it\n"
    "  --format F        table, csv or json  [table; with -o: from the file extension]\n"
    "  --dram FILE       the achievable DRAM share: an ncu export (--page raw, the L2 model's metrics and\n"
    "                    dram__throughput.avg.pct_of_peak_sustained_elapsed) of a streaming kernel; the\n"
    "                    median over its launches without atomics is the advice's DRAM floor  [peak]\n"
    "  --expect K=V      kernel K must get verdict V (bottleneck or not); exit 1 if one does not (repeatable)\n"
    "  -o FILE           write the result to FILE (through a temporary name) instead of stdout\n";

void smem_opts_init(struct smem_opts *o)
{
  memset(o, 0, sizeof *o);
  atl_smem_settings_init(&o->settings);
  o->format = -1;
}

static double parse_positive(const char *opt, const char *arg, double hi)
{
  char *end;
  double v = strtod(arg, &end);
  if (*arg == '\0' || *end != '\0' || !(v > 0 && v <= hi))
    die_usage("%s '%s' is not allowed: a number above 0 and at most %g", opt, arg, hi);
  return v;
}

int smem_opts_parse(struct smem_opts *o, int c, const char *arg, const char *command)
{
  (void)command;
  switch (c) {
  case SMEM_O_TABLE:
    cli_note_input("--table", arg);
    o->table_path = arg;
    return 1;
  case SMEM_O_RESULT: {
    int v = atl_smem_variant_parse(arg);
    if (v < 0)
      die_usage("--result '%s' is not known: allowed: used, unused", arg);
    o->settings.variant = (enum atl_smem_variant)v;
    return 1;
  }
  case SMEM_O_THRESHOLD:
    o->settings.threshold = parse_positive("--threshold", arg, 10);
    return 1;
  case SMEM_O_FORMAT:
    if ((o->format = atl_format_parse(arg)) < 0)
      die_usage("--format '%s' is not allowed: table, csv or json", arg);
    return 1;
  case SMEM_O_SMS:
    o->settings.sm_count = parse_positive("--sms", arg, 100000);
    return 1;
  case SMEM_O_WARPS:
    o->settings.warps_per_sm = parse_positive("--warps-per-sm", arg, ATL_SMEM_MAX_N);
    return 1;
  case SMEM_O_EXPECT:
    if (o->nexpect == SMEM_MAX_EXPECT)
      die_usage("--expect is allowed at most %d times", SMEM_MAX_EXPECT);
    if (atl_smem_expectation_parse(arg, &o->expect[o->nexpect++])) /* argv outlives the command */
      die_usage("--expect '%s' is not allowed: KERNEL=bottleneck or KERNEL=not", arg);
    return 1;
  case SMEM_O_DRAM: {
    char why[600];
    cli_note_input("--dram", arg);
    if (atl_l2_calibration_read_file(&o->dram, ATL_L2_FILE_DRAM, arg, why, sizeof why))
      die_usage("--dram: %s", why);
    o->settings.dram_achievable = o->dram.dram_share;
    return 1;
  }
  case 'o':
    cli_check_output("-o", arg);
    o->out = arg;
    return 1;
  default:
    return 0;
  }
}

void smem_table_load(const char *path, struct atl_smem_table *table)
{
  char why[512];
  if (path == NULL)
    die_usage("--table is required: the CSV written by 'atomlab calibrate smem'");
  if (atl_smem_table_read_csv(path, table, why, sizeof why))
    die_usage("--table: %s", why);
}

int smem_format(const struct smem_opts *o)
{
  if (o->format >= 0 || o->out == NULL)
    return o->format >= 0 ? o->format : ATL_FORMAT_TABLE;
  const int format = atl_format_from_path(o->out, ATL_FORMAT_TABLE);
  return format < 0 ? ATL_FORMAT_TABLE : format; /* anything else (.md) is the table */
}

static int check_expect(const struct smem_opts *opts, const struct atl_smem_util_set *set)
{
  int unmet = 0;
  for (int x = 0; x < opts->nexpect; x++) {
    const struct atl_smem_expectation *e = &opts->expect[x];
    const char *want = e->bottleneck ? "bottleneck" : "not a bottleneck";
    struct atl_smem_expect r;
    atl_smem_expect_check(set, e->kernel, e->len, e->bottleneck, &r);
    const int nl = (int)e->len;
    const char *name = e->kernel;
    if (r.seen == 0)
      fprintf(stderr, "error: --expect %.*s: no kernel of that name in the counters\n", nl, name);
    else if (r.wrong)
      fprintf(stderr, "error: --expect %.*s=%s: %u of %u launches got another verdict (U %.3g to %.3g)\n", nl, name,
              want, r.wrong, r.seen, r.lo, r.hi);
    else
      fprintf(stderr, "expect: %.*s=%s: met by all %u launches (U %.3g to %.3g)\n", nl, name, want, r.seen, r.lo,
              r.hi);
    unmet += r.seen == 0 || r.wrong;
  }
  return unmet;
}

int smem_report(const struct smem_opts *opts, const struct atl_smem_table *table, const struct atl_ncu_report *report,
                const struct atl_run_meta *meta, const char *source, int strict)
{
  struct atl_smem_util_set set;
  if (atl_smem_util_derive(table, &opts->settings, report, &set) != 0)
    die("out of memory");
  for (size_t i = 0; i < set.count; i++) {
    const struct atl_smem_kernel_util *x = &set.kernels[i];
    if (x->err && strict) /* every kernel must derive before anything is written: a bad file writes nothing */
      die_usage("--counters: kernel %s (%s): %s", x->counters.id, x->counters.kernel, x->why);
    if (x->err)
      fprintf(stderr, "error: kernel %s (%s): %s\n", x->counters.id, x->counters.kernel, x->why);
  }
  const struct atl_smem_util_labels labels = {.meta = meta, .table = opts->table_path, .counters = source};
  struct cli_buffer buf;
  FILE *f = opts->out ? cli_buffer_open(&buf) : stdout;
  if (atl_smem_util_write(f, (enum atl_format)smem_format(opts), &set, &labels) != 0 && !opts->out)
    fprintf(stderr, "error: unable to write the utilization table\n");
  int failures = (int)set.failures;
  if (opts->out && cli_buffer_write(&buf, opts->out, "the utilization table") != 0)
    failures = -1;
  if (failures >= 0)
    failures += check_expect(opts, &set);
  atl_smem_util_set_release(&set);
  return failures;
}
