/* What `atomlab model util` and `atomlab profile` print: Table 2 of seed 002 per kernel, with a verdict. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char smem_opts_help[] =
    "  --table FILE      the calibration table (CSV from 'atomlab calibrate smem')  [required]\n"
    "  --result R        which table variant models the kernels' fetch-and-adds: used (ATOMS.ADD)\n"
    "                    or unused (ATOMS.POPC.INC)  [used]\n"
    "  --threshold X     utilization at or above X is a bottleneck, 0 < X <= 10  [0.8]\n"
    "  --sms N           SMs, where the counters lack device__attribute_multiprocessor_count\n"
    "  --warps-per-sm N  resident warps per SM, where the counters lack it\n"
    "  --format F        table, csv or json  [table; with -o: from the file extension]\n"
    "  --expect K=V      kernel K must get verdict V (bottleneck or not); exit 1 if one does not (repeatable)\n"
    "  -o FILE           write the result to FILE (through a temporary name) instead of stdout\n";

void smem_opts_init(struct smem_opts *o)
{
  memset(o, 0, sizeof *o);
  o->variant = ATL_SMEM_USED;
  o->threshold = 0.8;
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
    o->table_path = arg;
    return 1;
  case SMEM_O_RESULT: {
    int v = atl_smem_variant_parse(arg);
    if (v < 0)
      die_usage("--result '%s' is not known: allowed: used, unused", arg);
    o->variant = v;
    return 1;
  }
  case SMEM_O_THRESHOLD:
    o->threshold = parse_positive("--threshold", arg, 10);
    return 1;
  case SMEM_O_FORMAT:
    if ((o->format = atl_format_parse(arg)) < 0)
      die_usage("--format '%s' is not allowed: table, csv or json", arg);
    return 1;
  case SMEM_O_SMS:
    o->sms = parse_positive("--sms", arg, 100000);
    return 1;
  case SMEM_O_WARPS:
    o->warps = parse_positive("--warps-per-sm", arg, ATL_SMEM_MAX_N);
    return 1;
  case SMEM_O_EXPECT: {
    const char *eq = strrchr(arg, '=');
    if (eq == NULL || eq == arg || (strcmp(eq + 1, "bottleneck") != 0 && strcmp(eq + 1, "not") != 0 &&
                                    strcmp(eq + 1, "not a bottleneck") != 0))
      die_usage("--expect '%s' is not allowed: KERNEL=bottleneck or KERNEL=not", arg);
    if (o->nexpect == SMEM_MAX_EXPECT)
      die_usage("--expect is allowed at most %d times", SMEM_MAX_EXPECT);
    o->expect_kernel[o->nexpect] = arg; /* argv outlives the command */
    o->expect_len[o->nexpect] = (int)(eq - arg);
    o->expect_bottleneck[o->nexpect++] = strcmp(eq + 1, "bottleneck") == 0;
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

static const char *verdict(double u, double threshold) { return u >= threshold ? "bottleneck" : "not a bottleneck"; }

int smem_kernel_is(const char *kernel, const char *want, size_t len)
{
  return strncmp(kernel, want, len) == 0 && (kernel[len] == '\0' || kernel[len] == '(');
}

int smem_check_expect(const struct smem_opts *opts, const struct atl_smem_table *table,
                      const struct atl_ncu_report *report)
{
  int unmet = 0;
  for (int x = 0; x < opts->nexpect; x++) {
    const char *want = opts->expect_bottleneck[x] ? "bottleneck" : "not a bottleneck";
    unsigned seen = 0, wrong = 0;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < report->count; i++) {
      struct atl_smem_counters k = report->kernels[i];
      if (!smem_kernel_is(k.kernel, opts->expect_kernel[x], (size_t)opts->expect_len[x]))
        continue;
      if (!(k.sm_count >= 1) && opts->sms > 0)
        k.sm_count = opts->sms;
      if (!(k.warps_per_sm >= 1) && opts->warps > 0)
        k.warps_per_sm = opts->warps;
      struct atl_smem_util u;
      char why[512];
      seen++;
      if (atl_smem_utilization(table, (enum atl_smem_variant)opts->variant, &k, &u, why, sizeof why) != 0) {
        wrong++; /* its reason was printed with the table */
        continue;
      }
      lo = u.utilization < lo ? u.utilization : lo;
      hi = u.utilization > hi ? u.utilization : hi;
      wrong += strcmp(verdict(u.utilization, opts->threshold), want) != 0;
    }
    const int nl = opts->expect_len[x];
    const char *name = opts->expect_kernel[x];
    if (seen == 0)
      fprintf(stderr, "error: --expect %.*s: no kernel of that name in the counters\n", nl, name);
    else if (wrong)
      fprintf(stderr, "error: --expect %.*s=%s: %u of %u launches got another verdict (U %.3g to %.3g)\n", nl, name,
              want, wrong, seen, lo, hi);
    else
      fprintf(stderr, "expect: %.*s=%s: met by all %u launches (U %.3g to %.3g)\n", nl, name, want, seen, lo, hi);
    unmet += seen == 0 || wrong;
  }
  return unmet;
}

int smem_report(const struct smem_opts *opts, const struct atl_smem_table *table, const struct atl_ncu_report *report,
                const struct atl_run_meta *meta, const char *source)
{
  int format = opts->format;
  if (format < 0) {
    const char *dot = opts->out ? strrchr(opts->out, '.') : NULL;
    format = dot && strcmp(dot, ".csv") == 0 ? ATL_FORMAT_CSV : dot && strcmp(dot, ".json") == 0 ? ATL_FORMAT_JSON
                                                                                                    : ATL_FORMAT_TABLE;
  }
  struct cli_buffer buf;
  FILE *f = opts->out ? cli_buffer_open(&buf) : stdout;
  const enum atl_smem_variant v = (enum atl_smem_variant)opts->variant;
  int failures = 0;
  cJSON *root = NULL, *kernels = NULL;
  if (format == ATL_FORMAT_JSON) {
    root = cli_json_provenance(meta);
    cJSON *dev = cJSON_AddObjectToObject(root, "device");
    cJSON_AddStringToObject(dev, "name", meta->device.name);
    cJSON_AddStringToObject(dev, "driver", meta->device.driver);
    cJSON_AddStringToObject(root, "counters", source);
    cJSON_AddStringToObject(root, "table", opts->table_path);
    cJSON_AddStringToObject(root, "result", atl_smem_variant_name(v));
    cJSON_AddNumberToObject(root, "threshold", opts->threshold);
    cJSON_AddStringToObject(root, "assumptions",
                            "per-SM quantities are the average SM's: totals divided by the SM count, T = "
                            "sm__cycles_active.avg, n-hat = achieved occupancy x warps per SM, N = all ATOMS "
                            "(CAS counted once), e = lanes per job / distinct words per job (docs/model.md)");
    kernels = cJSON_AddArrayToObject(root, "kernels");
  } else if (format == ATL_FORMAT_CSV) {
    fprintf(f, "id,kernel,jobs_per_sm,n_hat,e,c,s_cycles,busy_cycles,active_cycles,utilization,verdict,duration_ns,"
               "clamped,reason,assumptions\n");
  } else {
    fprintf(f, "shared-memory atomic unit utilization (table %s, %s fetch-and-add, bottleneck at U >= %g)\n",
            opts->table_path, atl_smem_variant_name(v), opts->threshold);
    fprintf(f, "%-4s %-32s %11s %6s %6s %6s %8s %12s %12s %7s  %s\n", "id", "kernel", "N/SM", "n_hat", "e", "c",
            "S_cyc", "B_cyc", "T_cyc", "U", "verdict");
  }
  unsigned all_assumed = 0;
  for (size_t i = 0; i < report->count; i++) {
    struct atl_smem_counters k = report->kernels[i];
    if (!(k.sm_count >= 1) && opts->sms > 0)
      k.sm_count = opts->sms;
    if (!(k.warps_per_sm >= 1) && opts->warps > 0)
      k.warps_per_sm = opts->warps;
    struct atl_smem_util u;
    char why[512] = "";
    int err = atl_smem_utilization(table, v, &k, &u, why, sizeof why);
    if (err) {
      failures++;
      fprintf(stderr, "error: kernel %s (%s): %s\n", k.id, k.kernel, why);
    }
    const char *verdict_text = err ? "error" : verdict(u.utilization, opts->threshold);
    char assumed[512];
    atl_smem_assumptions_text(err ? 0 : u.assumed, assumed, sizeof assumed);
    all_assumed |= err ? 0 : u.assumed;
    if (format == ATL_FORMAT_JSON) {
      cJSON *o = cJSON_CreateObject();
      cJSON_AddStringToObject(o, "id", k.id);
      cJSON_AddStringToObject(o, "kernel", k.kernel);
      cJSON *in = cJSON_AddObjectToObject(o, "counters");
      cJSON_AddNumberToObject(in, "O", k.ops);
      cJSON_AddNumberToObject(in, "N_f_total", k.fao_jobs);
      cJSON_AddNumberToObject(in, "N_c_total", k.cas_jobs);
      cJSON_AddNumberToObject(in, "active_cycles_avg_sm", k.active_cycles);
      cJSON_AddNumberToObject(in, "achieved_occupancy", k.occupancy);
      cJSON_AddNumberToObject(in, "sm_count", k.sm_count);
      cJSON_AddNumberToObject(in, "warps_per_sm", k.warps_per_sm);
      if (k.have_duration)
        cJSON_AddNumberToObject(in, "duration_ns", k.duration_ns);
      if (!err) {
        cJSON_AddNumberToObject(o, "N", u.jobs);
        cJSON_AddNumberToObject(o, "n_hat", u.n_hat);
        cJSON_AddNumberToObject(o, "e", u.e);
        cJSON_AddNumberToObject(o, "c", u.c);
        cJSON_AddNumberToObject(o, "S_cycles", u.service);
        cJSON_AddNumberToObject(o, "B_cycles", u.busy);
        cJSON_AddNumberToObject(o, "T_cycles", u.time);
        cJSON_AddNumberToObject(o, "U", u.utilization);
        cJSON_AddBoolToObject(o, "clamped", u.clamped);
        cJSON_AddStringToObject(o, "assumed", assumed);
      }
      cJSON_AddStringToObject(o, "verdict", verdict_text);
      if (err)
        cJSON_AddStringToObject(o, "reason", why);
      cJSON_AddItemToArray(kernels, o);
    } else if (format == ATL_FORMAT_CSV) {
      fprintf(f, "%s,", k.id);
      atl_csv_field(f, k.kernel);
      if (err)
        fprintf(f, ",,,,,,,,,error,%.0f,0,", k.duration_ns);
      else
        fprintf(f, ",%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%s,%.0f,%d,", u.jobs, u.n_hat, u.e, u.c, u.service,
                u.busy, u.time, u.utilization, verdict_text, k.duration_ns, u.clamped);
      atl_csv_field(f, why);
      fputc(',', f);
      atl_csv_field(f, assumed);
      fputc('\n', f);
    } else if (err) {
      fprintf(f, "%-4s %-32.32s %s: %s\n", k.id, k.kernel, verdict_text, why);
    } else {
      fprintf(f, "%-4s %-32.32s %11.4g %6.2f %6.2f %6.2f %8.3f %12.6g %12.6g %7.3f  %s%s%s%s%s%s\n", k.id, k.kernel,
              u.jobs, u.n_hat, u.e, u.c, u.service, u.busy, u.time, u.utilization, verdict_text,
              u.clamped ? " (clamped to the table)" : "", u.assumed ? " [" : "",
              u.assumed & ATL_SMEM_ASSUME_FULL_WARPS ? "F" : "", u.assumed & ATL_SMEM_LATENCY_BOUND ? "L" : "",
              u.assumed ? "]" : "");
    }
  }
  if (format == ATL_FORMAT_TABLE && all_assumed) { /* the letters above; every assumption in full */
    if (all_assumed & ATL_SMEM_ASSUME_FULL_WARPS)
      fprintf(f, "assumed: [F] no thread-level atomic count: every job taken as 32 active lanes\n");
    if (all_assumed & ATL_SMEM_LATENCY_BOUND)
      fprintf(f, "assumed: [L] e < 2: the table's S is mostly one atomic's latency / n there, U is an upper bound\n");
    char rest[512];
    atl_smem_assumptions_text(all_assumed & ~(unsigned)(ATL_SMEM_ASSUME_FULL_WARPS | ATL_SMEM_LATENCY_BOUND), rest,
                              sizeof rest);
    if (rest[0])
      fprintf(f, "assumed (all kernels): %s\n", rest);
  }
  if (root) {
    char *text = cJSON_Print(root);
    if (text)
      fprintf(f, "%s\n", text);
    free(text);
    cJSON_Delete(root);
  }
  if (opts->out && cli_buffer_write(&buf, opts->out, "the utilization table") != 0)
    return -1;
  return failures;
}
