/*
 * Reading Nsight Compute's CSV exports into the counters of Table 1 (seed
 * 002). ncu names its metrics differently from nvprof, whose names the seed
 * uses; each quantity has a list of candidate metrics, best first, and the
 * first one present is used (docs/design/model.md gives the mapping).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab/error.h"
#include "atomlab/diagnose.h"
#include "atomlab/model.h"
#include "core/csv.h"
#include "core/ncu_export.h"
#include "core/text.h"

/*
 * N_f. ncu's op_shared_atom metrics count every ATOMS instruction, CAS included ("ATOMS.*" in
 * ncu --query-metrics on the H100), so N_f is their value minus N_c; only ..._dot_alu is
 * fetch-and-op alone. (Adding N_c to op_shared_atom counted each CAS twice.)
 */
static const struct atl_ncu_metric fao[] = {{"smsp__inst_executed_op_shared_atom.sum", 1, ATL_NCU_INCLUDES_CAS},
                                            {"smsp__inst_executed_op_shared_atom_dot_alu.sum", 1, 0},
                                            {"smsp__sass_inst_executed_op_shared_atom.sum", 1, ATL_NCU_INCLUDES_CAS},
                                            {"sm__sass_inst_executed_op_shared_atom.sum", 1, ATL_NCU_INCLUDES_CAS},
                                            {NULL, 0, 0}};
static const struct atl_ncu_metric cas[] = {{"smsp__inst_executed_op_shared_atom_dot_cas.sum", 1, 0},
                                            {"smsp__inst_executed_shared_atom_dot_cas.sum", 1, 0},
                                            {NULL, 0, 0}};
/* Thread-level operations (active lanes). ncu 2025.3 offers none of these on the H100. */
static const struct atl_ncu_metric ops[] = {{"smsp__sass_thread_inst_executed_op_shared_atom.sum", 1, 0},
                                            {NULL, 0, 0}};
/*
 * Distinct words: sm__sass_data_bytes_mem_shared_op_atom counts 4 bytes per distinct 32-bit word an
 * atomic instruction touches, not per lane (the H100 run: 32 lanes on one word give 4 bytes per
 * instruction, 32 lanes on 32 words 128), so it is NOT a thread count.
 */
static const struct atl_ncu_metric words[] = {{"sm__sass_data_bytes_mem_shared_op_atom.sum", 4, 0},
                                              {"smsp__sass_data_bytes_mem_shared_op_atom.sum", 4, 0},
                                              {NULL, 0, 0}};
static const struct atl_ncu_metric active[] = {{"sm__cycles_active.avg", 1, 0}, {NULL, 0, 0}};
static const struct atl_ncu_metric occupancy[] = {{"sm__warps_active.avg.pct_of_peak_sustained_active", 100, 0},
                                                  {NULL, 0, 0}};
static const struct atl_ncu_metric duration[] = {{"gpu__time_duration.sum", 1, 0}, {NULL, 0, 0}};
static const struct atl_ncu_metric sms[] = {{"device__attribute_multiprocessor_count", 1, 0}, {NULL, 0, 0}};
static const struct atl_ncu_metric warps[] = {{"device__attribute_max_warps_per_multiprocessor", 1, 0},
                                              {"sm__warps_active.avg.peak_sustained", 1, 0},
                                              {NULL, 0, 0}};

/* The kernel's elapsed cycles on the average SM: with the duration, the clock the kernel really ran at. */
static const struct atl_ncu_metric elapsed[] = {{"sm__cycles_elapsed.avg", 1, 0}, {NULL, 0, 0}};
/* kHz in the export: divided by 1000 to MHz. Device attributes are in every raw export, asked for or not. */
static const struct atl_ncu_metric clock[] = {{"device__attribute_clock_rate", 1000, 0}, {NULL, 0, 0}};
/*
 * The seed's O counter is an l1tex shared-atomic metric: passes of the shared-memory pipeline, where
 * lanes on different words of one bank need one pass each. Reported (passes per job) when ncu offers it.
 */
static const struct atl_ncu_metric wavefronts[] = {{"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum", 1, 0},
                                                   {NULL, 0, 0}};

/* The busiest sub-partition's warp-instructions: one issue a cycle at most, the floor under a predicted speedup. */
static const struct atl_ncu_metric issue[] = {{"smsp__inst_executed.max", 1, 0}, {NULL, 0, 0}};

/* DRAM throughput as a share of peak: the bytes a strategy leaves unchanged bound its speedup. */
static const struct atl_ncu_metric dram[] = {{"dram__throughput.avg.pct_of_peak_sustained_elapsed", 100, 0},
                                             {NULL, 0, 0}};

static const struct atl_ncu_metric *const candidates[ATL_NCU_QUANTITIES] = {
    fao, cas, ops, active, occupancy, duration, sms, warps, words, elapsed, clock, wavefronts, issue, dram};
static const char *const quantity_names[ATL_NCU_QUANTITIES] = {
    "N_f (shared fetch-and-op warp instructions)", "N_c (shared CAS warp instructions)",
    "O (shared atomic thread operations)",         "T (active cycles per SM)",
    "o (achieved occupancy)",                      "kernel duration",
    "SM count",                                    "warps per SM",
    "W (distinct 32-bit words of shared atomics)", "elapsed cycles per SM",
    "SM clock",                                    "shared-atomic wavefronts",
    "warp-instructions of the busiest sub-partition", "DRAM throughput share"};

int atl_ncu_optional(enum atl_ncu_quantity q)
{
  return q == ATL_NCU_ELAPSED || q == ATL_NCU_WAVEFRONTS || q == ATL_NCU_ISSUE || q == ATL_NCU_DRAM;
}

const struct atl_ncu_metric *atl_ncu_candidates(enum atl_ncu_quantity q)
{
  return (unsigned)q < ATL_NCU_QUANTITIES ? candidates[q] : NULL;
}

const char *atl_ncu_quantity_name(enum atl_ncu_quantity q)
{
  return (unsigned)q < ATL_NCU_QUANTITIES ? quantity_names[q] : "?";
}

/* The factor that turns a value in @p unit into the base unit (ns for times). */
static double unit_scale(const char *unit)
{
  static const struct {
    const char *name;
    double scale;
  } times[] = {{"nsecond", 1}, {"usecond", 1e3}, {"msecond", 1e6}, {"second", 1e9}, {"ns", 1}, {"us", 1e3},
               {"ms", 1e6}};
  for (size_t i = 0; i < sizeof times / sizeof times[0]; i++)
    if (strcmp(unit, times[i].name) == 0)
      return times[i].scale;
  /* SI prefixes of counts: Kcycle, Minst, Gwarp, Kbyte ... */
  if (unit[0] && unit[1] >= 'a' && unit[1] <= 'z') {
    switch (unit[0]) {
    case 'K':
    case 'k':
      return 1e3;
    case 'M':
      return 1e6;
    case 'G':
      return 1e9;
    case 'T':
      return 1e12;
    default:
      break;
    }
  }
  return 1;
}

/* Which quantity a metric name serves, and its rank among the candidates (-1 if none). */
static int match_metric(const char *name, int *rank)
{
  for (int q = 0; q < ATL_NCU_QUANTITIES; q++)
    for (int r = 0; candidates[q][r].name; r++)
      if (strcmp(name, candidates[q][r].name) == 0) {
        *rank = r;
        return q;
      }
  return -1;
}

/* A kernel being filled: the best candidate seen so far per quantity. */
struct building {
  struct atl_smem_counters k;
  double value[ATL_NCU_QUANTITIES];
  int rank[ATL_NCU_QUANTITIES]; /* -1: not seen */
};

static void building_init(struct building *b)
{
  memset(b, 0, sizeof *b);
  for (int q = 0; q < ATL_NCU_QUANTITIES; q++)
    b->rank[q] = -1;
}

/* Offers a metric's value; returns -1 if @p text is not a number (n/a counts as absent). */
static int offer(struct building *b, const char *metric, const char *text, const char *unit)
{
  int rank = 0, q = match_metric(metric, &rank);
  if (q < 0)
    return 0;
  double v;
  if (text[0] == '\0' || strcmp(text, "n/a") == 0)
    return 0;
  if (atl__csv_number(text, &v) != 0)
    return -1;
  if (b->rank[q] >= 0 && b->rank[q] <= rank)
    return 0;
  b->rank[q] = rank;
  b->value[q] = v * unit_scale(unit ? unit : "") / candidates[q][rank].divisor;
  return 0;
}

static int finish(struct building *b, double warps_per_sm, double sm_count, struct atl_ncu_report *r)
{
  struct atl_smem_counters *k = &b->k;
  k->cas_jobs = b->value[ATL_NCU_CAS];
  k->have_cas = b->rank[ATL_NCU_CAS] >= 0;
  k->fao_jobs = b->value[ATL_NCU_FAO];
  if (b->rank[ATL_NCU_FAO] >= 0 && (fao[b->rank[ATL_NCU_FAO]].flags & ATL_NCU_INCLUDES_CAS))
    k->fao_jobs = k->fao_jobs > k->cas_jobs ? k->fao_jobs - k->cas_jobs : 0; /* all ATOMS minus the CAS */
  k->ops = b->value[ATL_NCU_OPS];
  k->have_ops = b->rank[ATL_NCU_OPS] >= 0;
  k->words = b->value[ATL_NCU_WORDS];
  k->have_words = b->rank[ATL_NCU_WORDS] >= 0;
  k->active_cycles = b->value[ATL_NCU_ACTIVE_CYCLES];
  k->occupancy = b->value[ATL_NCU_OCCUPANCY];
  k->duration_ns = b->value[ATL_NCU_DURATION];
  k->have_duration = b->rank[ATL_NCU_DURATION] >= 0;
  k->elapsed_cycles = b->value[ATL_NCU_ELAPSED];
  k->have_elapsed = b->rank[ATL_NCU_ELAPSED] >= 0;
  k->clock_mhz = b->value[ATL_NCU_CLOCK];
  k->have_clock = b->rank[ATL_NCU_CLOCK] >= 0 && k->clock_mhz > 0;
  k->wavefronts = b->value[ATL_NCU_WAVEFRONTS];
  k->have_wavefronts = b->rank[ATL_NCU_WAVEFRONTS] >= 0;
  k->issue_cycles = b->value[ATL_NCU_ISSUE];
  k->have_issue = b->rank[ATL_NCU_ISSUE] >= 0 && k->issue_cycles > 0;
  k->dram_share = b->value[ATL_NCU_DRAM];
  k->have_dram = b->rank[ATL_NCU_DRAM] >= 0 && k->dram_share > 0 && k->dram_share <= 1;
  k->sm_count = b->rank[ATL_NCU_SM_COUNT] >= 0 ? b->value[ATL_NCU_SM_COUNT] : sm_count;
  k->warps_per_sm = b->rank[ATL_NCU_WARPS_PER_SM] >= 0 ? b->value[ATL_NCU_WARPS_PER_SM] : warps_per_sm;
  struct atl_smem_counters *grown = realloc(r->kernels, (r->count + 1) * sizeof *grown);
  if (grown == NULL)
    return ATL_ENOMEM;
  r->kernels = grown;
  r->kernels[r->count++] = *k;
  return 0;
}

/* Names the quantities no kernel of the file has (required: N_f, T, o). */
static int check_required(const struct building *seen_any, char *why, size_t why_len, const char *name)
{
  static const int required[] = {ATL_NCU_FAO, ATL_NCU_ACTIVE_CYCLES, ATL_NCU_OCCUPANCY};
  for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
    int q = required[i];
    if (seen_any->rank[q] < 0) {
      snprintf(why, why_len, "%s: no value of %s: the file needs one of the metrics %s%s%s", name,
               quantity_names[q], candidates[q][0].name, candidates[q][1].name ? ", " : "",
               candidates[q][1].name ? candidates[q][1].name : "");
      return ATL_EINVAL;
    }
  }
  return 0;
}

/* Offers every field of a raw page's row (a launch) and adds the launch. */
static int raw_row(const struct atl_ncu_export *e, const struct atl__ncu_row *r, int c_id, int c_kernel,
                   double warps_per_sm, double sm_count, struct building *any, struct atl_ncu_report *report, char *why,
                   size_t why_len)
{
  struct building b;
  building_init(&b);
  snprintf(b.k.id, sizeof b.k.id, "%s", r->f[c_id]);
  snprintf(b.k.kernel, sizeof b.k.kernel, "%s", r->f[c_kernel]);
  for (int i = 0; i < r->nf; i++)
    if (offer(&b, e->cols[i], r->f[i], atl__ncu_export_unit(e, i, r->nf)) != 0) {
      snprintf(why, why_len, "%s:%u: %s = '%.40s' is not a number", e->name, r->line, e->cols[i], r->f[i]);
      return ATL_EINVAL;
    }
  for (int q = 0; q < ATL_NCU_QUANTITIES; q++)
    if (b.rank[q] >= 0)
      any->rank[q] = 0;
  return finish(&b, warps_per_sm, sm_count, report);
}

/* The row's shape: 0, or ATL_EINVAL with @p why for a line too long, malformed or of the wrong field count. */
static int row_shape(const struct atl_ncu_export *e, const struct atl__ncu_row *r, char *why, size_t why_len)
{
  if (r->nf == -2)
    snprintf(why, why_len, "%s:%u: line too long", e->name, r->line);
  else if (r->nf < 0)
    snprintf(why, why_len, "%s:%u: malformed CSV (an open quote or more than %d fields)", e->name, r->line,
             ATL_NCU_EXPORT_MAX_FIELDS);
  else if (r->nf != e->ncols)
    snprintf(why, why_len, "%s:%u: %d fields where the header has %d", e->name, r->line, r->nf, e->ncols);
  else
    return 0;
  return ATL_EINVAL;
}

int atl_ncu_report_from_export(const struct atl_ncu_export *e, double warps_per_sm, double sm_count,
                               struct atl_ncu_report *report, char *why, size_t why_len)
{
  struct building b, any;
  int err = ATL_EINVAL, in_kernel = 0;
  memset(report, 0, sizeof *report);
  why[0] = '\0';
  building_init(&any);
  if (e->header <= 0) {
    if (e->header == 0)
      snprintf(why, why_len, "%s: no ncu CSV header (a line starting with \"ID\"): was it written with ncu --csv?",
               e->name);
    else
      snprintf(why, why_len, "%s:%u: malformed CSV header", e->name, e->header_line);
    return ATL_EINVAL;
  }
  const int c_id = atl__ncu_export_column(e, "ID"), c_kernel = atl__ncu_export_column(e, "Kernel Name");
  const int c_mname = atl__ncu_export_column(e, "Metric Name"), c_munit = atl__ncu_export_column(e, "Metric Unit");
  const int c_mvalue = atl__ncu_export_column(e, "Metric Value"), details = c_mname >= 0 && c_mvalue >= 0;
  if (c_kernel < 0 || c_id < 0) {
    snprintf(why, why_len, "%s:%u: the ncu header has no \"ID\" or no \"Kernel Name\" column", e->name,
             e->header_line);
    return ATL_EINVAL;
  }
  for (size_t i = 0; i < e->nrows; i++) {
    const struct atl__ncu_row *r = &e->rows[i];
    if ((err = row_shape(e, r, why, why_len)) != 0)
      goto out;
    if (!details) {
      if ((err = raw_row(e, r, c_id, c_kernel, warps_per_sm, sm_count, &any, report, why, why_len)) != 0)
        goto out;
      continue;
    }
    /* details page: one metric per row, rows of one launch share its ID */
    if (!in_kernel || strcmp(b.k.id, r->f[c_id]) != 0) {
      if (in_kernel && (err = finish(&b, warps_per_sm, sm_count, report)) != 0)
        goto out;
      building_init(&b);
      snprintf(b.k.id, sizeof b.k.id, "%s", r->f[c_id]);
      snprintf(b.k.kernel, sizeof b.k.kernel, "%s", r->f[c_kernel]);
      in_kernel = 1;
    }
    if (offer(&b, r->f[c_mname], r->f[c_mvalue], c_munit >= 0 ? r->f[c_munit] : "") != 0) {
      snprintf(why, why_len, "%s:%u: %s = '%.40s' is not a number", e->name, r->line, r->f[c_mname], r->f[c_mvalue]);
      err = ATL_EINVAL;
      goto out;
    }
    for (int q = 0; q < ATL_NCU_QUANTITIES; q++)
      if (b.rank[q] >= 0)
        any.rank[q] = 0;
  }
  if (in_kernel && (err = finish(&b, warps_per_sm, sm_count, report)) != 0)
    goto out;
  err = ATL_EINVAL;
  if (report->count == 0) {
    snprintf(why, why_len, "%s: the ncu CSV has a header but no kernel rows (did the program launch a kernel?)",
             e->name);
    goto out;
  }
  err = check_required(&any, why, why_len, e->name);
out:
  if (err == ATL_ENOMEM)
    snprintf(why, why_len, "%s: out of memory", e->name);
  if (err)
    atl_ncu_report_release(report);
  return err;
}

int atl_ncu_parse_csv(const char *text, const char *name, double warps_per_sm, double sm_count,
                      struct atl_ncu_report *report, char *why, size_t why_len)
{
  struct atl_ncu_export *e;
  memset(report, 0, sizeof *report);
  int err = atl_ncu_export_parse(text, name, &e, why, why_len);
  if (err == 0)
    err = atl_ncu_report_from_export(e, warps_per_sm, sm_count, report, why, why_len);
  atl_ncu_export_free(e);
  return err;
}

void atl_ncu_report_release(struct atl_ncu_report *report)
{
  free(report->kernels);
  report->kernels = NULL;
  report->count = 0;
}

int atl_ncu_read_csv(const char *path, double warps_per_sm, double sm_count, struct atl_ncu_report *report, char *why,
                     size_t why_len)
{
  memset(report, 0, sizeof *report);
  char *text = atl__read_model_file(path, (size_t)1 << 30, why, why_len);
  if (text == NULL)
    return ATL_EIO;
  int err = atl_ncu_parse_csv(text, path, warps_per_sm, sm_count, report, why, why_len);
  free(text);
  return err;
}

int atl_ncu_listed(const char *listing, const char *metric)
{
  /* a whole name: "sm__cycles_active" must not match "sm__cycles_active_x" or "xsm__cycles_active" */
  const size_t n = strlen(metric);
  for (const char *p = listing; (p = strstr(p, metric)) != NULL; p += n) {
    int before = p == listing || !(p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= '0' && p[-1] <= '9'));
    char after = p[n];
    if (before && !(after == '_' || (after >= 'a' && after <= 'z') || (after >= '0' && after <= '9')))
      return 1;
  }
  return 0;
}

int atl_ncu_select_metrics(const char *listing, char *out, size_t len, enum atl_ncu_quantity *missing)
{
  size_t used = 0;
  if (len)
    out[0] = '\0';
  for (int q = 0; q < ATL_NCU_QUANTITIES; q++) {
    if (q == ATL_NCU_SM_COUNT || q == ATL_NCU_WARPS_PER_SM || q == ATL_NCU_CLOCK)
      continue; /* from the probe or the options; the clock is a device attribute every export has */
    if (atl_ncu_optional((enum atl_ncu_quantity)q) && listing == NULL)
      continue; /* an extra is asked for only when ncu lists it: an unknown metric would fail the whole run */
    const char *pick = NULL;
    for (const struct atl_ncu_metric *c = atl_ncu_candidates((enum atl_ncu_quantity)q); c->name && !pick; c++) {
      char base[256]; /* the listing names metrics without their .sum / .avg suffix */
      snprintf(base, sizeof base, "%s", c->name);
      char *dot = strchr(base, '.');
      if (dot)
        *dot = '\0';
      if (listing == NULL || atl_ncu_listed(listing, base))
        pick = c->name;
    }
    if (pick == NULL && (q == ATL_NCU_FAO || q == ATL_NCU_ACTIVE_CYCLES || q == ATL_NCU_OCCUPANCY)) {
      *missing = (enum atl_ncu_quantity)q;
      return ATL_ENOTSUP;
    }
    if (pick && used < len) {
      int w = snprintf(out + used, len - used, "%s%s", used ? "," : "", pick);
      if (w < 0 || (size_t)w >= len - used)
        return ATL_ERANGE;
      used += (size_t)w;
    }
  }
  return 0;
}
