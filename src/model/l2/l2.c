/*
 * The model of global (L2) atomics: reading the counters it needs from an
 * ncu raw export, its calibration and its utilization (include/atomlab/l2model.h,
 * docs/design/model.md "Global atomics").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "core/ncu_export.h"
#include "core/text.h"
#include "atomlab/diagnose.h"
#include "atomlab/error.h"
#include "atomlab/file.h"
#include "atomlab/l2model.h"
#include "atomlab/model.h"
#include "atomlab/result.h"

/* The columns the model reads; the order is the one of `need` in read_row. Up to C_ASKED they are metrics
 * (profile asks ncu for them); the launch's and device's attributes after it are in every raw export. */
enum col {
  C_DURATION, C_CYCLES, C_ATOM_SUM, C_ATOM_MAX, C_ATOM_AVG, C_RED_SUM, C_RED_MAX, C_RED_AVG, C_INPUT_MAX, C_DRAM,
  C_ISSUE, C_SM_ELAPSED, C_L1_ATOM, C_L1_RED, C_L1SET_ATOM, C_L1SET_RED, C_DRAM_BYTES, C_ASKED,
  C_GRID = C_ASKED, C_BLOCK, C_SMS, C_WARP, C_CLOCK, C_SMEM_CAS, C_WARPS_ACTIVE, C_MAX_WARPS, C_OCC_REGS,
  C_OCC_WARPS, C_OCC_BLOCKS, C_SMEM_STATIC, C_SMEM_DYNAMIC, C_SMEM_DRIVER, C_SMEM_SM, C_SECT_ATOM, C_SECT_RED,
  C_MISS_ATOM, C_MISS_RED, C_CC_MAJOR, C_CC_MINOR, C_COUNT
};
static const char *const col_names[C_COUNT] = {
    "gpu__time_duration.sum",  "lts__cycles_elapsed.avg", "lts__t_requests_op_atom.sum",
    "lts__t_requests_op_atom.max", "lts__t_requests_op_atom.avg", "lts__t_requests_op_red.sum",
    "lts__t_requests_op_red.max",  "lts__t_requests_op_red.avg",  "lts__d_atomic_input_cycles_active.max",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed", "smsp__inst_executed.max", "sm__cycles_elapsed.avg",
    "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
    "l1tex__t_set_accesses_pipe_lsu_mem_global_op_atom.sum", "l1tex__t_set_accesses_pipe_lsu_mem_global_op_red.sum",
    "dram__bytes.sum",
    "launch__grid_size", "launch__block_size", "device__attribute_multiprocessor_count",
    "device__attribute_warp_size", "device__attribute_clock_rate",
    /* read where present, not asked: the shared-memory model's (the chain calibration, the strategies' residency) */
    "smsp__inst_executed_op_shared_atom_dot_cas.sum", "sm__warps_active.avg.pct_of_peak_sustained_active",
    "device__attribute_max_warps_per_multiprocessor",
    /* a private table's residency (the launch's limits and shared memory) and its hot word's updates (the sector
     * metrics are not asked: ncu refuses a launch on a name it does not know; scripts check them first) */
    "launch__occupancy_limit_registers", "launch__occupancy_limit_warps", "launch__occupancy_limit_blocks",
    "launch__shared_mem_per_block_static", "launch__shared_mem_per_block_dynamic",
    "launch__shared_mem_per_block_driver", "device__attribute_max_shared_memory_per_multiprocessor",
    "lts__t_sectors_op_atom.max", "lts__t_sectors_op_red.max", "lts__t_sectors_op_atom_lookup_miss.max",
    "lts__t_sectors_op_red_lookup_miss.max",
    /* the device's architecture: a calibration's float rule (float_rule.c) */
    "device__attribute_compute_capability_major", "device__attribute_compute_capability_minor"};

/* the sum of two optional columns: -1 where both are missing */
static double either(const double *v, int a, int b)
{
  return v[a] < 0 && v[b] < 0 ? -1 : fmax(v[a], 0) + fmax(v[b], 0);
}

const char *const *atl_l2_metric_names(size_t *count)
{
  *count = C_ASKED;
  return col_names;
}

/* ns per unit of a duration column; 0 for a unit that is not a time. */
static double ns_per(const char *unit)
{
  static const struct {
    const char *name;
    double ns;
  } units[] = {{"", 1}, {"nsecond", 1}, {"ns", 1}, {"usecond", 1e3}, {"us", 1e3},
               {"msecond", 1e6}, {"ms", 1e6}, {"second", 1e9}, {"s", 1e9}};
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
    if (strcmp(unit, units[i].name) == 0)
      return units[i].ns;
  return 0;
}

void atl_l2_report_release(struct atl_l2_report *r)
{
  free(r->kernels);
  r->kernels = NULL;
  r->count = 0;
}

/* The failure of a read: the report released, @p err returned. */
static int fail(struct atl_l2_report *out, int err)
{
  atl_l2_report_release(out);
  return err;
}

/* The counters of one launch's row into @p k; ATL_EINVAL with @p why for a field that is not a count. */
static int read_row(const struct atl_ncu_export *e, const struct atl__ncu_row *r, const int col[C_COUNT],
                    struct atl_l2_counters *k, char *why, size_t why_len)
{
  double v[C_COUNT];
  for (int c = 0; c < C_COUNT; c++) {
    v[c] = -1;
    if (col[c] >= 0 && atl__csv_number(r->f[col[c]], &v[c]) != 0) {
      snprintf(why, why_len, "%s:%u: %s = '%.40s' is not a number", e->name, r->line, col_names[c], r->f[col[c]]);
      return ATL_EINVAL;
    }
    if (col[c] >= 0 && v[c] < 0) {
      snprintf(why, why_len, "%s:%u: %s = %g is negative", e->name, r->line, col_names[c], v[c]);
      return ATL_EINVAL;
    }
  }
  const char *unit = atl__ncu_export_unit(e, col[C_DURATION], r->nf);
  const double scale = ns_per(unit);
  if (!(scale > 0)) {
    snprintf(why, why_len, "%s: gpu__time_duration.sum is in '%s', not a unit of time", e->name, unit);
    return ATL_EINVAL;
  }
  k->duration_ns = v[C_DURATION] * scale;
  k->l2_cycles = v[C_CYCLES];
  k->atom_requests = v[C_ATOM_SUM];
  k->red_requests = v[C_RED_SUM];
  k->requests = v[C_ATOM_SUM] + v[C_RED_SUM];
  k->requests_max = v[C_ATOM_MAX] + v[C_RED_MAX];
  k->atom_max = v[C_ATOM_MAX];
  k->red_max = v[C_RED_MAX];
  k->requests_avg = v[C_ATOM_AVG] + v[C_RED_AVG];
  k->input_active_max = v[C_INPUT_MAX];
  k->dram_pct = v[C_DRAM];
  k->issue_max = v[C_ISSUE];
  k->dram_bytes = v[C_DRAM_BYTES];
  k->sm_elapsed = v[C_SM_ELAPSED];
  /* both kinds or neither: a sum over one kind alone would undercount the other */
  k->l1_requests = col[C_L1_ATOM] >= 0 && col[C_L1_RED] >= 0 ? v[C_L1_ATOM] + v[C_L1_RED] : -1;
  k->l1_set_accesses = col[C_L1SET_ATOM] >= 0 && col[C_L1SET_RED] >= 0 ? v[C_L1SET_ATOM] + v[C_L1SET_RED] : -1;
  k->grid_size = v[C_GRID];
  k->block_size = v[C_BLOCK];
  k->sm_count = v[C_SMS];
  k->warp_size = v[C_WARP];
  k->clock_khz = v[C_CLOCK];
  k->smem_cas = v[C_SMEM_CAS];
  k->warps_active_pct = v[C_WARPS_ACTIVE];
  k->max_warps = v[C_MAX_WARPS];
  k->occ_limit_regs = v[C_OCC_REGS];
  k->occ_limit_warps = v[C_OCC_WARPS];
  k->occ_limit_blocks = v[C_OCC_BLOCKS];
  k->smem_block = either(v, C_SMEM_STATIC, C_SMEM_DYNAMIC);
  k->smem_driver = v[C_SMEM_DRIVER];
  k->smem_sm = v[C_SMEM_SM];
  k->sectors_max = either(v, C_SECT_ATOM, C_SECT_RED);
  k->sector_misses_max = either(v, C_MISS_ATOM, C_MISS_RED);
  k->cc_major = v[C_CC_MAJOR];
  k->cc_minor = v[C_CC_MINOR];
  return 0;
}

/* The columns of the model's counters; ATL_EINVAL with @p why where the header lacks one it needs. */
static int find_columns(const struct atl_ncu_export *e, int col[C_COUNT], char *why, size_t why_len)
{
  if (e->header <= 0) {
    if (e->header == 0)
      snprintf(why, why_len, "%s: no ncu CSV header (a line starting with \"ID\"): was it written with ncu --csv "
                             "--page raw?", e->name);
    else
      snprintf(why, why_len, "%s:%u: malformed CSV header", e->name, e->header_line);
    return ATL_EINVAL;
  }
  if (atl__ncu_export_column(e, "ID") < 0 || atl__ncu_export_column(e, "Kernel Name") < 0) {
    snprintf(why, why_len, "%s:%u: the header has no \"ID\" or \"Kernel Name\" column (ncu --page raw)", e->name,
             e->header_line);
    return ATL_EINVAL;
  }
  for (int c = 0; c < C_COUNT; c++)
    col[c] = atl__ncu_export_column(e, col_names[c]);
  for (int c = 0; c < C_INPUT_MAX; c++) /* all but the optional ones from the input cycles on */
    if (col[c] < 0) {
      snprintf(why, why_len, "%s:%u: no column %s (ask ncu for it: docs/design/model.md, \"Global atomics\")",
               e->name, e->header_line, col_names[c]);
      return ATL_EINVAL;
    }
  return 0;
}

int atl_l2_report_from_export(const struct atl_ncu_export *e, struct atl_l2_report *out, char *why, size_t why_len)
{
  int col[C_COUNT], err;
  size_t cap = 0;
  memset(out, 0, sizeof *out);
  if ((err = find_columns(e, col, why, why_len)) != 0)
    return err;
  const int c_id = atl__ncu_export_column(e, "ID"), c_kernel = atl__ncu_export_column(e, "Kernel Name");
  for (size_t i = 0; i < e->nrows; i++) {
    const struct atl__ncu_row *r = &e->rows[i];
    if (r->nf == -2) {
      snprintf(why, why_len, "%s:%u: line too long", e->name, r->line);
      return fail(out, ATL_EINVAL);
    }
    if (r->nf != e->ncols) {
      snprintf(why, why_len, "%s:%u: %d fields where the header has %d", e->name, r->line, r->nf, e->ncols);
      return fail(out, ATL_EINVAL);
    }
    if (out->count == cap) {
      cap = cap ? 2 * cap : 16;
      struct atl_l2_counters *k = realloc(out->kernels, cap * sizeof *k);
      if (k == NULL) {
        snprintf(why, why_len, "%s: out of memory", e->name);
        return fail(out, ATL_ENOMEM);
      }
      out->kernels = k;
    }
    struct atl_l2_counters *k = &out->kernels[out->count];
    memset(k, 0, sizeof *k);
    snprintf(k->id, sizeof k->id, "%s", r->f[c_id]);
    snprintf(k->kernel, sizeof k->kernel, "%s", r->f[c_kernel]);
    if ((err = read_row(e, r, col, k, why, why_len)) != 0)
      return fail(out, err);
    out->count++;
  }
  if (out->count == 0) {
    snprintf(why, why_len, "%s: no kernel launch in the export", e->name);
    return fail(out, ATL_EINVAL);
  }
  return 0;
}

int atl_l2_read_csv(const char *text, const char *name, struct atl_l2_report *out, char *why, size_t why_len)
{
  struct atl_ncu_export *e;
  memset(out, 0, sizeof *out);
  int err = atl_ncu_export_parse(text, name, &e, why, why_len);
  if (err == 0)
    err = atl_l2_report_from_export(e, out, why, why_len);
  atl_ncu_export_free(e);
  return err;
}

int atl_l2_read_file(const char *path, struct atl_l2_report *out, char *why, size_t why_len)
{
  memset(out, 0, sizeof *out);
  char reason[256];
  char *text = atl__read_text_input(path, (size_t)256 << 20, reason, sizeof reason);
  if (text == NULL) {
    snprintf(why, why_len, "%s: %s", path, reason);
    return ATL_EIO;
  }
  const int err = atl_l2_read_csv(text, path, out, why, why_len);
  free(text);
  return err;
}

const char *const atl_l2_calibration_file_names[ATL_L2_FILES] = {"same",  "spread",   "dram",
                                                                  "table", "same-f32", "cas-chain"};

int atl_l2_calibration_read_file(struct atl_l2_calibration *cal, enum atl_l2_calibration_file which,
                                 const char *path, char *why, size_t why_len)
{
  int err;
  if (which == ATL_L2_FILE_TABLE) {
    struct atl_smem_table table;
    double s_cas; /* the strategies' shared-memory updates are fetch-and-ops */
    err = atl_smem_table_read_csv(path, &table, why, why_len);
    if (!err) {
      err = atl_smem_pass_costs(&table, &cal->s_pass, &s_cas, why, why_len);
      atl_smem_table_release(&table);
    }
    return err;
  }
  struct atl_l2_report r;
  err = atl_l2_read_file(path, &r, why, why_len);
  if (err)
    return err;
  if (which == ATL_L2_FILE_DRAM) {
    err = atl_l2_dram_achievable(&r, &cal->dram_share, &cal->dram_bytes_per_ns, why, why_len);
    cal->dram_warps = 0; /* the streaming launches' resident warps: the memory parallelism behind that share */
    for (size_t i = 0, n = 0; i < r.count; i++)
      if (r.kernels[i].requests == 0 && r.kernels[i].dram_pct > 0 && atl_l2_launch_warps(&r.kernels[i]) > 0)
        cal->dram_warps = (cal->dram_warps * (double)n + atl_l2_launch_warps(&r.kernels[i])) / (double)(n + 1), n++;
  }
  else if (which == ATL_L2_FILE_CAS_CHAIN) {
    err = atl_l2_cas_chain(&r, cal->chain, &cal->chain_count, why, why_len);
    cal->round_trip = err ? 0 : atl_l2_round_trip(&r); /* its streaming launches, where the export has them */
  }
  else
    err = atl_l2_cycles_per_request(&r,
                                    which == ATL_L2_FILE_SAME       ? cal->s_same
                                    : which == ATL_L2_FILE_SAME_F32 ? cal->s_same_f32
                                                                    : cal->s_dist,
                                    why, why_len);
  /* the same-word export names the calibrated device's architecture: its ratio for float adds, used where no
   * f32 export is read */
  if (!err && which == ATL_L2_FILE_SAME)
    atl_l2_calibration_f32_rule(cal, r.kernels[0].cc_major, r.kernels[0].cc_minor);
  atl_l2_report_release(&r);
  return err;
}

int atl_l2_calibration_read(struct atl_l2_calibration *cal, const char *const paths[ATL_L2_FILES], int *which,
                            char *why, size_t why_len)
{
  for (int f = 0; f < ATL_L2_FILES; f++) {
    *which = f;
    const int err = paths[f] ? atl_l2_calibration_read_file(cal, f, paths[f], why, why_len) : 0;
    if (err)
      return err;
  }
  return 0;
}

static double median(const double *v, size_t n)
{
  struct atl_stats st;
  atl_stats_compute(v, n, &st);
  return st.median;
}

/* The median of the n values of @p v into @p out, and v freed; ATL_EINVAL with @p none where there are none. */
static int take_median(double *v, size_t n, double *out, const char *none, char *why, size_t why_len)
{
  if (n)
    *out = median(v, n);
  else
    snprintf(why, why_len, "%s", none);
  free(v);
  return n ? 0 : ATL_EINVAL;
}

int atl_l2_cycles_per_request(const struct atl_l2_report *r, double s[ATL_L2_KINDS], char *why, size_t why_len)
{
  double *v = malloc((r->count ? r->count : 1) * sizeof *v);
  if (v == NULL) {
    snprintf(why, why_len, "out of memory");
    return ATL_ENOMEM;
  }
  for (int kind = 0; kind < ATL_L2_KINDS; kind++) {
    size_t n = 0;
    for (size_t i = 0; i < r->count; i++) {
      const struct atl_l2_counters *k = &r->kernels[i];
      const double mine = kind == ATL_L2_ATOM ? k->atom_max : k->red_max;
      const double other = kind == ATL_L2_ATOM ? k->red_max : k->atom_max;
      if (mine > 0 && other == 0 && k->l2_cycles > 0)
        v[n++] = k->l2_cycles / mine;
    }
    if (n == 0) {
      free(v);
      snprintf(why, why_len, "no launch with only %s requests (result %s) to calibrate on: the export needs both",
               kind == ATL_L2_ATOM ? "ATOM" : "RED", kind == ATL_L2_ATOM ? "used" : "unused");
      return ATL_EINVAL;
    }
    s[kind] = median(v, n);
  }
  free(v);
  return 0;
}

int atl_l2_dram_achievable(const struct atl_l2_report *r, double *share, double *bytes_per_ns, char *why,
                           size_t why_len)
{
  double *v = malloc((r->count ? r->count : 1) * sizeof *v);
  size_t n = 0, nb = 0;
  if (v == NULL) {
    snprintf(why, why_len, "out of memory");
    return ATL_ENOMEM;
  }
  *bytes_per_ns = 0;
  for (size_t i = 0; i < r->count; i++) /* the streaming launches: no atomics, bytes counted */
    if (r->kernels[i].requests == 0 && r->kernels[i].dram_bytes > 0 && r->kernels[i].duration_ns > 0)
      v[nb++] = r->kernels[i].dram_bytes / r->kernels[i].duration_ns;
  if (nb)
    *bytes_per_ns = median(v, nb);
  for (size_t i = 0; i < r->count; i++) /* the streaming launches: no atomics, a DRAM share counted */
    if (r->kernels[i].requests == 0 && r->kernels[i].dram_pct > 0 && r->kernels[i].dram_pct <= 100)
      v[n++] = r->kernels[i].dram_pct / 100;
  return take_median(v, n, share, "no launch without atomic requests with "
                                  "dram__throughput.avg.pct_of_peak_sustained_elapsed (profile a streaming kernel, "
                                  "e.g. the scatter app's read ceiling)", why, why_len);
}

/* S_same of float adds of @p kind: the device's f32 calibration where read, else its integer S_same times the
 * architecture's ratio (*@p ratio set), else 0 (not known: the integer S serves) */
static double f32_same(const struct atl_l2_calibration *cal, int kind, int *ratio)
{
  if (cal->s_same_f32[kind] > 0)
    return cal->s_same_f32[kind];
  if (cal->f32_ratio[kind] > 0 && cal->s_same[kind] > 0)
    return *ratio = 1, cal->f32_ratio[kind] * cal->s_same[kind];
  return 0;
}

int atl_l2_f32_ratio_priced(const struct atl_l2_calibration *cal, const struct atl_l2_counters *k,
                            const struct atl_l2_util *u)
{
  int ratio = 0;
  if (u->access == ATL_L2_HOT && k->f32_share > 0)
    for (int kind = 0; kind < ATL_L2_KINDS; kind++)
      f32_same(cal, kind, &ratio);
  return ratio;
}

void atl_l2_utilization(const struct atl_l2_calibration *cal, const struct atl_l2_counters *k,
                        struct atl_l2_util *out)
{
  memset(out, 0, sizeof *out);
  if (!(k->requests_max > 0) || !(k->l2_cycles > 0)) {
    out->access = ATL_L2_NONE;
    return;
  }
  out->imbalance = k->requests_avg > 0 ? k->requests_max / k->requests_avg : 1;
  out->access = out->imbalance >= ATL_L2_HOT_IMBALANCE ? ATL_L2_HOT : ATL_L2_SPREAD;
  double s[ATL_L2_KINDS], f32[ATL_L2_KINDS];
  int ratio = 0; /* a float price from the architecture's ratio: U's range reaches down to the integer price */
  /* the words a warp-instruction's lanes spread over (src/model/smem/banks.c), where the L1 counters tell: a
   * float add waits for the one before on its word, so its chain binds on one word and hides behind others */
  const double key_words = atl_l2_key_words(k);
  const double words = key_words < 0 ? 1 : key_words == 0 ? 32 : fmax(key_words, 1); /* unknown: one word */
  for (int kind = 0; kind < ATL_L2_KINDS; kind++) {
    s[kind] = out->access == ATL_L2_HOT ? cal->s_same[kind] : cal->s_dist[kind];
    f32[kind] = out->access == ATL_L2_HOT && k->f32_share > 0 ? f32_same(cal, kind, &ratio) : 0;
    /* hot words of float adds: the f32 one-word chain (the calibration: the whole grid on one word) over the
     * words that interleave in it, never below the integer cost */
    if (f32[kind] > 0)
      s[kind] = (1 - k->f32_share) * s[kind] + k->f32_share * fmax(s[kind], f32[kind] / words);
  }
  out->busy = k->atom_max * s[ATL_L2_ATOM] + k->red_max * s[ATL_L2_RED];
  /* and at least the hot word's own float chain: each of its updates waits for the one before whatever
   * words the requests spread over. Its updates: the slice's sector accesses over its distinct sectors, where counted
   * (a row of 16 floats: two requests an instruction on the same 16 words, each word 4.2 M updates at 3.0 cycles:
   * 7.4 ms, the input active 66% of it). Only where the sectors are counted: the slice's requests may spread over
   * words, which the chain does not wait for */
  const double updates = k->sectors_max > 0 && k->sector_misses_max > 0 ? atl_l2_hot_updates(k) : 0;
  double chain = 0;
  if (out->access == ATL_L2_HOT && k->f32_share > 0 && updates > 0 && k->atom_max + k->red_max > 0) {
    const double atom = k->atom_max / (k->atom_max + k->red_max);
    chain = k->f32_share * updates * (atom * f32[ATL_L2_ATOM] + (1 - atom) * f32[ATL_L2_RED]);
    out->busy = fmax(out->busy, chain);
  }
  out->u = out->busy / k->l2_cycles;
  double lo = 0, hi = 0;
  for (int kind = 0; kind < ATL_L2_KINDS; kind++) {
    const double r = kind == ATL_L2_ATOM ? k->atom_max : k->red_max;
    const double same = out->access == ATL_L2_HOT ? s[kind] : cal->s_same[kind];
    lo += r * fmin(ratio ? cal->s_same[kind] : same, cal->s_dist[kind]); /* a ratio's price: low the integer's */
    hi += r * fmax(same, cal->s_dist[kind]);
  }
  out->u_low = fmax(lo, ratio ? 0 : chain) / k->l2_cycles;
  out->u_high = fmax(hi, chain) / k->l2_cycles;
  /* The busiest slice's atomic input stage was active at least this share of the kernel: a measured floor
   * under its busy time that needs no calibration. It is what binds where S does not fit the requests, e.g.
   * float adds to one line (the H200 run: a hot-row f32 scatter at 0.99 against 0.34 from S). */
  if (k->input_active_max >= 0) {
    out->u_input = fmin(k->input_active_max / k->l2_cycles, 1);
    out->u = fmax(out->u, out->u_input);
    out->u_low = fmax(out->u_low, out->u_input);
    out->u_high = fmax(out->u_high, out->u_input);
    out->busy = out->u * k->l2_cycles;
  } else {
    out->u_input = -1;
  }
  out->busy_ns = k->duration_ns > 0 ? out->u * k->duration_ns : 0;
}

/* The busiest slice cannot have been busy longer than its launch: a one-word float chain the integer price puts at
 * U 0.46 fills its launch at the float price (H200, PyTorch's, CuPy's and Triton's scatter_add on one key: U 1.00,
 * 29.40 of 29.45 ms), where an integer chain that saturates its slice would need 2.2 times its launch's time as floats.
 * The slack covers the ratio's error and unlocked clocks. */
int atl_l2_float_from_time(const struct atl_l2_calibration *cal, const struct atl_l2_counters *k, double threshold,
                           struct atl_l2_counters *typed, struct atl_l2_util *u)
{
  if (!cal || !k || !u || u->access != ATL_L2_HOT || k->f32_share > 0)
    return 0;
  struct atl_l2_counters f32 = *k;
  f32.f32_share = 1;
  struct atl_l2_util f;
  atl_l2_utilization(cal, &f32, &f);
  if (!(f.u > u->u) || f.u < threshold || f.u > ATL_L2_FLOAT_FITS_LAUNCH)
    return 0;
  f.u_low = fmin(f.u_low, u->u_low);
  *typed = f32;
  *u = f;
  return 1;
}

const char *atl_l2_access_name(enum atl_l2_access a)
{
  switch (a) {
  case ATL_L2_HOT: return "hot words";
  case ATL_L2_SPREAD: return "spread";
  default: return "none";
  }
}

int atl_l2_types_apply(struct atl_l2_report *r, const char *text, const char *name, char *why, size_t why_len)
{
  const char *line = text;
  int lineno = 0, bad = 0;
  for (size_t i = 0; i < r->count; i++)
    r->kernels[i].f32_share = -1; /* not matched yet: the first matching line sets it */
  while (line && *line) {
    const char *end = strchr(line, '\n');
    const size_t len = end ? (size_t)(end - line) : strlen(line);
    char buf[4096], *comma;
    lineno++;
    if (len >= sizeof buf) {
      snprintf(why, why_len, "%s:%d: a line longer than %zu characters", name, lineno, sizeof buf - 1);
      bad = 1;
      break;
    }
    memcpy(buf, line, len);
    buf[len] = 0;
    if (len && buf[len - 1] == '\r')
      buf[len - 1] = 0;
    line = end ? end + 1 : NULL;
    if (lineno == 1 || buf[0] == 0)
      continue; /* the header */
    comma = strrchr(buf, ',');
    char *rest = NULL;
    const double share = comma ? strtod(comma + 1, &rest) : -1;
    if (comma == NULL || comma == buf || rest == comma + 1 || *rest != 0 || !(share >= 0 && share <= 1)) {
      snprintf(why, why_len, "%s:%d: want KERNEL,F32_SHARE (a share 0 to 1): '%s'", name, lineno, buf);
      bad = 1;
      break;
    }
    *comma = 0;
    const char *kernel = buf[0] == '"' ? buf + 1 : buf;
    size_t klen = strlen(kernel);
    if (klen && kernel[klen - 1] == '"')
      klen--;
    for (size_t i = 0; i < r->count; i++) {
      /* a launch's name is kept to sizeof kernel - 1 characters (PyTorch's templates run past it): a line longer
       * than a name cut there matches on the characters kept */
      const size_t kept = strlen(r->kernels[i].kernel);
      const size_t n = kept == sizeof r->kernels[i].kernel - 1 && klen > kept ? kept : klen;
      if (r->kernels[i].f32_share < 0 && strncmp(r->kernels[i].kernel, kernel, n) == 0)
        r->kernels[i].f32_share = share;
    }
  }
  for (size_t i = 0; i < r->count; i++)
    r->kernels[i].f32_share = r->kernels[i].f32_share < 0 ? 0 : r->kernels[i].f32_share;
  return bad ? ATL_EINVAL : 0;
}

int atl_l2_types_apply_file(struct atl_l2_report *r, const char *path, char *why, size_t why_len)
{
  char reason[256];
  char *text = atl__read_text_input(path, 16u << 20, reason, sizeof reason);
  if (text == NULL) {
    snprintf(why, why_len, "'%s': %s (a CSV of kernel,f32_share lines)", path, reason);
    return ATL_EINVAL;
  }
  const int err = atl_l2_types_apply(r, text, path, why, why_len);
  free(text);
  return err;
}
