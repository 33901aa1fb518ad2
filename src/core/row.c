/*
 * The one row model (result.h): row kinds, the metrics every writer knows,
 * and the few operations on a row and a set. Every command's rows are
 * built with these, so the writers, the reader, compare, plot and report
 * need to know no command.
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atomlab.h"
#include "output_internal.h"

static const char *const status_names[] = {"ok", "unsupported", "skipped", "deadlock", "error"};

const char *atl_status_name(enum atl_status s) { return (unsigned)s < 5 ? status_names[s] : "?"; }

int atl_status_parse(const char *s)
{
  for (int i = 0; i < 5; i++)
    if (strcmp(s, status_names[i]) == 0)
      return i;
  return -1;
}

/* The kinds. A kind's configuration order is the order rows are keyed and
 * printed in; version 1 files are migrated into the same order, so a new row
 * and an old one of the same configuration have the same key. */
static const char *const rmw_config[] = {"pattern", "op",      "type",    "space",      "result", "scope",
                                         "order",   "contention", "padding", "wg_size", "workgroups", NULL};
static const char *const rmw_table[] = {"pattern", "op",    "type",       "space",   "result",
                                        "scope",   "order", "contention", "padding", NULL};
static const char *const rmw_columns[] = {"iters", "gops", NULL};
static const char *const strategy_config[] = {"strategy",         "pattern",      "op",      "result",
                                              "divergent",        "stuck_lock",   "threads_per_word",
                                              "word_spacing",     "wg_size",      "workgroups", "spin_bound", NULL};
static const char *const strategy_table[] = {"pattern", "op", "strategy", "result", "divergent", NULL};
static const char *const strategy_columns[] = {"iters", "gops", "winner", "margin", "olds_checked", NULL};
static const char *const app_config[] = {"app", "variant", NULL};
static const char *const no_columns[] = {NULL};
/* The device's atomics datasheet (datasheet.h): one row per op, type, space and result use. */
static const char *const datasheet_config[] = {"op", "type", "space", "result", NULL};
static const char *const datasheet_columns[] = {"peak_gops", "same_address_gops", "same_address_slowdown", NULL};

/* The diagnosis of one profiled launch (diagnose.h): its advice is data, the words come from it when printed. */
static const char *const diagnosis_config[] = {"id",    "kernel",   "source", "op",   "device",       "verdict",
                                               "model", "access",   "strategy", "call", "speedup_kind", NULL};
static const char *const diagnosis_table[] = {"id", "kernel", "source", "verdict", "model", "strategy", "speedup_kind", NULL};
static const char *const diagnosis_columns[] = {"u_smem", "u_l2", "f32_share", "speedup", NULL};

static const struct atl_row_kind kinds[] = {
    {"rmw", rmw_config, rmw_table, rmw_columns, 0},
    {"strategy", strategy_config, strategy_table, strategy_columns, 0},
    {"app", app_config, app_config, no_columns, 1},
    {"datasheet", datasheet_config, datasheet_config, datasheet_columns, 0},
    {"diagnosis", diagnosis_config, diagnosis_table, diagnosis_columns, 0},
    {NULL, NULL, NULL, NULL, 0},
};

const struct atl_row_kind *atl_row_kinds(void) { return kinds; }

/* A run on several devices: each row's configuration ends with its device (so rows of one configuration on
 * two devices are two keys), and the table shows it first, so each line says where it was measured. */
static const char *const rmw_config_devices[] = {"pattern", "op",      "type",    "space",      "result", "scope",
                                                 "order",   "contention", "padding", "wg_size", "workgroups",
                                                 "device",  NULL};
static const char *const strategy_config_devices[] = {"strategy",     "pattern",    "op",      "result",
                                                      "divergent",    "stuck_lock", "threads_per_word",
                                                      "word_spacing", "wg_size",    "workgroups",
                                                      "spin_bound",   "device",     NULL};
static const char *const rmw_table_devices[] = {"device", "pattern", "op",    "type",       "space",   "result",
                                                "scope",  "order",   "contention", "padding", NULL};
static const char *const strategy_table_devices[] = {"device", "pattern", "op", "strategy", "result", "divergent", NULL};
static const char *const app_config_devices[] = {"app", "variant", "device", NULL};
static const char *const app_table_devices[] = {"device", "app", "variant", NULL};
static const struct atl_row_kind kinds_devices[] = {
    {"rmw", rmw_config_devices, rmw_table_devices, rmw_columns, 0},
    {"strategy", strategy_config_devices, strategy_table_devices, strategy_columns, 0},
    {"app", app_config_devices, app_table_devices, no_columns, 1},
    {NULL, NULL, NULL, NULL, 0},
};

const struct atl_row_kind *atl_row_kind_devices(const char *name)
{
  for (const struct atl_row_kind *k = kinds_devices; name && k->name; k++)
    if (strcmp(k->name, name) == 0)
      return k;
  return atl_row_kind_find(name);
}



const struct atl_row_kind *atl_row_kind_find(const char *name)
{
  for (const struct atl_row_kind *k = kinds; name && k->name; k++)
    if (strcmp(k->name, name) == 0)
      return k;
  return NULL;
}

/* Metrics with a unit and a direction. Apps may set others (their own
 * parameters and counts): those carry no unit and no hint. */
static const struct atl_metric_info metric_infos[] = {
    {"gops", "Gop/s", ATL_HINT_HIGHER, "atomic operations per second at the median time"},
    {"ops_per_us", "op/us", ATL_HINT_HIGHER, "operations per microsecond at the median time"},
    {"iters", "", ATL_HINT_NONE, "iterations per thread in each timed launch"},
    {"peak_gops", "Gop/s", ATL_HINT_HIGHER, "datasheet: the best rate with one thread per word"},
    {"same_address_gops", "Gop/s", ATL_HINT_HIGHER, "datasheet: the rate with the most threads per word measured"},
    {"same_address_threads", "", ATL_HINT_NONE, "datasheet: threads per word of the same-address rate"},
    {"same_address_slowdown", "x", ATL_HINT_LOWER, "datasheet: peak over same-address rate"},
    {"same_address_noise", "", ATL_HINT_LOWER, "datasheet: the same-address row's noise (IQR / median)"},
    {"lengthened", "", ATL_HINT_NONE, "times the launch was doubled because the noise target was not met"},
    {"repeats", "", ATL_HINT_NONE, "passes of the sweep that measured this row (--repeat); the row is the median one"},
    {"repeat_spread", "", ATL_HINT_LOWER, "(slowest - fastest) / median of the repeats' median times"},
    {"rounds", "", ATL_HINT_NONE, "visits of this configuration in the kept repeat (--rounds); the repeat is its median one"},
    {"round_spread", "", ATL_HINT_LOWER, "(slowest - fastest) / median of the kept repeat's rounds' median times"},
    {"placements", "", ATL_HINT_NONE, "offsets of the array (--placements) whose samples the row shares equally"},
    {"placement_step_mib", "MiB", ATL_HINT_NONE, "distance between neighbouring placements of the array"},
    {"placement_spread", "", ATL_HINT_LOWER, "(slowest - fastest) / median of the placements' median times"},
    {"rotation_groups", "", ATL_HINT_NONE, "work-groups between neighbouring placements' rotations (--rotate)"},
    {"repeat_deviation", "", ATL_HINT_LOWER, "largest distance of a repeat's median time from the row's, relative"},
    {"sm_clock_min_mhz", "MHz", ATL_HINT_NONE, "lowest SM clock read during the row (NVML: start, every sample, end)"},
    {"sm_clock_max_mhz", "MHz", ATL_HINT_NONE, "highest SM clock read during the row"},
    {"mem_clock_mhz", "MHz", ATL_HINT_NONE, "memory clock at the row's end"},
    {"temperature_max_c", "C", ATL_HINT_NONE, "highest GPU temperature read during the row"},
    {"power_max_w", "W", ATL_HINT_NONE, "highest board power read during the row"},
    {"throttle_reasons", "", ATL_HINT_NONE, "NVML clock-event reason bits seen during the row, ORed"},
    {"throttled_samples", "", ATL_HINT_LOWER, "samples after which a throttle reason (power, thermal, slowdown) was set"},
    {"retaken_samples", "", ATL_HINT_LOWER, "of those, samples taken again (--discard-on-throttle)"},
    {"ops", "", ATL_HINT_NONE, "atomic operations per launch (active threads x iters)"},
    {"array_words", "words", ATL_HINT_NONE, "words per domain"},
    {"cas_attempts_per_op", "", ATL_HINT_LOWER, "CAS attempts per successful CAS"},
    {"olds_checked", "", ATL_HINT_NONE, "old values compared with the expected sequence"},
    {"winner", "", ATL_HINT_NONE, "1 for the fastest verified strategy of its pattern, op and result"},
    {"margin", "x", ATL_HINT_NONE, "winner: its throughput over the runner-up's; others: the winner's over theirs"},
    {"gbps", "GB/s", ATL_HINT_HIGHER, "input bytes read per second"},
    {"copy_gbps", "GB/s", ATL_HINT_HIGHER, "bytes per second of a plain copy of the same data"},
    {"ratio_to_read", "", ATL_HINT_HIGHER, "bytes_moved at the read ceiling's bandwidth (same run), over the row's time"},
    {"ratio_to_memcpy", "", ATL_HINT_HIGHER, "bytes_moved at the vendor copy's bandwidth (same run), over the row's time"},
    {"bytes_moved", "B", ATL_HINT_NONE, "the fewest bytes the job reads and writes: what the ratios count"},
    {"read_groups", "", ATL_HINT_NONE, "work-groups of the read ceiling's fastest launch shape"},
    {"ratio_to_cub", "", ATL_HINT_HIGHER, "throughput over CUB's"},
    {"mkeys_per_s", "Mkey/s", ATL_HINT_HIGHER, "keys per second"},
    {"minserts_per_s", "Minsert/s", ATL_HINT_HIGHER, "insertions per second"},
    {"madds_per_s", "Madd/s", ATL_HINT_HIGHER, "additions per second"},
    {"matomics_per_s", "Matomic/s", ATL_HINT_HIGHER, "atomic updates per second"},
    {"mrecords_per_s", "Mrecord/s", ATL_HINT_HIGHER, "records per second"},
    {"retries_per_insert", "", ATL_HINT_LOWER, "failed CAS attempts per insertion"},
    {"retries_per_add", "", ATL_HINT_LOWER, "failed CAS attempts per addition"},
    {"measured_speedup", "x", ATL_HINT_HIGHER, "software over hardware atomics, measured"},
    {"predicted_speedup", "x", ATL_HINT_HIGHER, "software over hardware atomics, as the model predicts"},
    {"system_model_error", "", ATL_HINT_NONE, "equation (1)'s system-atomic time over the measured one, minus 1"},
    {"software_model_error", "", ATL_HINT_NONE, "equation (2)'s software-atomic time over the measured one, minus 1"},
    {"speedup_model_error", "", ATL_HINT_NONE, "predicted speedup over the measured one, minus 1"},
    {"ideal_ms", "ms", ATL_HINT_NONE, "the sum of the parts' times"},
    {"t_l_ns", "ns", ATL_HINT_NONE, "one serialized work-group (local) atomic (seed 000's t_l)"},
    {"t_fast_ns", "ns", ATL_HINT_NONE, "one dependent global load (seed 000's FastPath t_fast)"},
    {"t_comp_ns", "ns", ATL_HINT_NONE, "one serialized global atomic, result used (seed 000's t_comp)"},
    {"bytes", "B", ATL_HINT_NONE, "bytes the input holds"},
    {"lost_updates", "", ATL_HINT_LOWER, "crossgpu: updates the words should hold but do not (negative: extra ones)"},
    {"control", "", ATL_HINT_NONE, "1 for a control row (device scope across GPUs): it reports, never fails the run"},
    {"gpus", "", ATL_HINT_NONE, "GPUs whose threads updated the same words at once"},
};

const struct atl_metric_info *atl_metric_info(const char *name)
{
  for (size_t i = 0; i < sizeof metric_infos / sizeof metric_infos[0]; i++)
    if (strcmp(metric_infos[i].name, name) == 0)
      return &metric_infos[i];
  return NULL;
}

void atl_row_init(struct atl_row *row, const char *kind)
{
  if (row == NULL)
    return;
  memset(row, 0, sizeof *row);
  snprintf(row->kind, sizeof row->kind, "%s", kind ? kind : "");
  row->status = ATL_STATUS_ERROR; /* until it is measured and checked */
}

static struct atl_value *config_slot(struct atl_row *row, const char *name)
{
  for (unsigned i = 0; i < row->nconfig; i++)
    if (strcmp(row->config[i].name, name) == 0)
      return &row->config[i];
  if (row->nconfig == ATL_ROW_MAX_CONFIG)
    return NULL;
  struct atl_value *v = &row->config[row->nconfig++];
  snprintf(v->name, sizeof v->name, "%s", name);
  return v;
}

/* Sets value @p name to @p text, a number or not: the one place a configuration value is written. */
static int config_put(struct atl_row *row, const char *name, const char *text, int is_number)
{
  if (row == NULL || name == NULL || text == NULL)
    return ATL_EINVAL;
  struct atl_value *v = config_slot(row, name);
  if (v == NULL)
    return ATL_ENOMEM;
  snprintf(v->text, sizeof v->text, "%s", text);
  v->is_number = is_number;
  return 0;
}

int atl_row_config_set(struct atl_row *row, const char *name, const char *text)
{
  return config_put(row, name, text, 0);
}

int atl_row_config_number(struct atl_row *row, const char *name, double value)
{
  char text[sizeof row->config[0].text];
  snprintf(text, sizeof text, "%.15g", value); /* exact for every count a row holds */
  return config_put(row, name, text, 1);
}

const char *atl_row_config(const struct atl_row *row, const char *name)
{
  if (row == NULL || name == NULL)
    return NULL;
  for (unsigned i = 0; i < row->nconfig; i++)
    if (strcmp(row->config[i].name, name) == 0)
      return row->config[i].text;
  return NULL;
}

void atl_row_metric_set(struct atl_row *row, const char *name, double value)
{
  if (row == NULL || name == NULL)
    return;
  for (unsigned i = 0; i < row->nmetrics; i++)
    if (strcmp(row->metrics[i].name, name) == 0) {
      row->metrics[i].value = value;
      return;
    }
  if (row->nmetrics == ATL_ROW_MAX_METRICS)
    return;
  struct atl_metric *m = &row->metrics[row->nmetrics++];
  const struct atl_metric_info *info = atl_metric_info(name);
  snprintf(m->name, sizeof m->name, "%s", name);
  snprintf(m->unit, sizeof m->unit, "%s", info ? info->unit : "");
  m->hint = info ? info->hint : ATL_HINT_NONE;
  m->value = value;
}

double atl_row_metric(const struct atl_row *row, const char *name, double fallback)
{
  if (row == NULL || name == NULL)
    return fallback;
  for (unsigned i = 0; i < row->nmetrics; i++)
    if (strcmp(row->metrics[i].name, name) == 0)
      return row->metrics[i].value;
  return fallback;
}

int atl_row_failed(const struct atl_row *row)
{
  if (row->status == ATL_STATUS_ERROR)
    return 1;
  const char *op = atl_row_config(row, "op");
  const int control = (op && strcmp(op, "plain_add") == 0) || atl_row_metric(row, "control", 0) == 1;
  return row->status == ATL_STATUS_OK && !row->verified && !control;
}

double atl_row_number(const struct atl_row *row, const char *name, double fallback)
{
  const char *text = atl_row_config(row, name);
  if (text != NULL) {
    char *end;
    double v = strtod(text, &end);
    return end != text && *end == '\0' ? v : fallback;
  }
  return atl_row_metric(row, name, fallback);
}

void atl_row_key(const struct atl_row *row, char *out, size_t len)
{
  size_t used = 0;
  out[0] = '\0';
  for (unsigned i = 0; i < row->nconfig && used + 1 < len; i++) {
    int n = snprintf(out + used, len - used, "%s%s=%s", i ? ";" : "", row->config[i].name, row->config[i].text);
    if (n < 0)
      break;
    used = used + (size_t)n < len ? used + (size_t)n : len - 1;
  }
}

void atl_row_release(struct atl_row *row)
{
  if (row == NULL)
    return;
  free(row->samples_ms);
  row->samples_ms = NULL;
}

static pthread_mutex_t rows_mutex;
static pthread_once_t rows_once = PTHREAD_ONCE_INIT;

static void rows_init(void)
{
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&rows_mutex, &a);
  pthread_mutexattr_destroy(&a);
}

int atl__rows_lock_until(const struct timespec *until)
{
  pthread_once(&rows_once, rows_init);
  return until ? pthread_mutex_timedlock(&rows_mutex, until) : pthread_mutex_lock(&rows_mutex);
}

void atl__rows_unlock(void) { pthread_mutex_unlock(&rows_mutex); }

int atl_result_set_add(struct atl_result_set *set, struct atl_row *row)
{
  if (set == NULL || row == NULL)
    return ATL_EINVAL;
  atl__rows_lock_until(NULL);
  void *rows = atl__grow_rows(set->rows, &set->cap, set->count, sizeof *set->rows, 64);
  if (rows == NULL) {
    atl__rows_unlock();
    return ATL_ENOMEM;
  }
  set->rows = rows;
  if (set->kind[0] == '\0')
    snprintf(set->kind, sizeof set->kind, "%s", row->kind);
  set->rows[set->count++] = *row;
  row->samples_ms = NULL; /* moved */
  atl__rows_unlock();
  return 0;
}

void atl_result_set_release(struct atl_result_set *set)
{
  if (set == NULL)
    return;
  for (size_t i = 0; i < set->count; i++)
    free(set->rows[i].samples_ms);
  free(set->rows);
  set->rows = NULL;
  set->count = set->cap = 0;
}

void *atl__grow_slot(void *items_ptr, size_t *count, size_t *cap, size_t size, size_t first)
{
  void *items; /* the caller's typed pointer, read and written through memcpy: no aliasing through void ** */
  memcpy(&items, items_ptr, sizeof items);
  void *grown = atl__grow_rows(items, cap, *count, size, first);
  if (grown == NULL)
    return NULL;
  memcpy(items_ptr, &grown, sizeof grown);
  void *slot = (char *)grown + (*count)++ * size;
  memset(slot, 0, size);
  return slot;
}

void *atl__grow_rows(void *rows, size_t *cap, size_t count, size_t size, size_t first)
{
  if (count < *cap)
    return rows;
  size_t n = *cap ? *cap * 2 : first;
  void *grown = realloc(rows, n * size);
  if (grown != NULL)
    *cap = n;
  return grown;
}

int atl_row_config_is(const struct atl_row *row, const char *name, const char *value)
{
  const char *text = atl_row_config(row, name);
  return text != NULL && strcmp(text, value) == 0;
}

const char *atl_row_config_or(const struct atl_row *row, const char *name, const char *fallback)
{
  const char *text = atl_row_config(row, name);
  return text != NULL ? text : fallback;
}

/* The stable API's view of a row: a program outside the library never sees the layout (row_layout.h), so these
 * are how it makes and reads one. */
struct atl_row *atl_row_new(void)
{
  struct atl_row *row = malloc(sizeof *row);
  atl_row_init(row, "");
  return row;
}

void atl_row_free(struct atl_row *row)
{
  atl_row_release(row);
  free(row);
}

const char *atl_row_kind_name(const struct atl_row *row) { return row ? row->kind : ""; }
enum atl_status atl_row_status(const struct atl_row *row) { return row ? row->status : ATL_STATUS_ERROR; }
const char *atl_row_reason(const struct atl_row *row) { return row ? row->reason : ""; }
int atl_row_verified(const struct atl_row *row) { return row ? row->verified : 0; }
uint64_t atl_row_wrong(const struct atl_row *row) { return row ? row->wrong : 0; }
const struct atl_stats *atl_row_time_ms(const struct atl_row *row) { return row ? &row->time_ms : NULL; }
const char *atl_row_instructions(const struct atl_row *row) { return row ? row->instructions : ""; }
double atl_row_seconds(const struct atl_row *row) { return row ? row->row_seconds : 0; }
size_t atl_row_metric_count(const struct atl_row *row) { return row ? row->nmetrics : 0; }

const double *atl_row_samples(const struct atl_row *row, size_t *n)
{
  if (n != NULL)
    *n = row && row->samples_ms ? row->time_ms.samples : 0;
  return row ? row->samples_ms : NULL;
}

const char *atl_row_metric_name(const struct atl_row *row, size_t i)
{
  return row && i < row->nmetrics ? row->metrics[i].name : NULL;
}

double atl_row_metric_value(const struct atl_row *row, size_t i)
{
  return row && i < row->nmetrics ? row->metrics[i].value : 0;
}

const struct atl_row *atl_result_set_row(const struct atl_result_set *set, size_t i)
{
  return set && i < set->count ? &set->rows[i] : NULL;
}

void atl_row_set_status(struct atl_row *row, enum atl_status status, const char *reason)
{
  if (row == NULL)
    return;
  row->status = status;
  snprintf(row->reason, sizeof row->reason, "%s", reason ? reason : "");
}

void atl_row_set_verified(struct atl_row *row, int verified, uint64_t wrong)
{
  if (row == NULL)
    return;
  row->verified = verified;
  row->wrong = wrong;
}

int atl_row_set_samples(struct atl_row *row, const double *ms, size_t n)
{
  if (row == NULL || (ms == NULL && n > 0) || n > UINT_MAX)
    return ATL_EINVAL;
  double *copy = NULL;
  if (n > 0 && (copy = malloc(n * sizeof *copy)) == NULL)
    return ATL_ENOMEM;
  if (n > 0)
    memcpy(copy, ms, n * sizeof *copy);
  struct atl_stats stats;
  atl_stats_compute(copy, n, &stats);
  if (stats.samples != n) { /* its sort's memory */
    free(copy);
    return ATL_ENOMEM;
  }
  free(row->samples_ms);
  row->samples_ms = copy;
  row->time_ms = stats;
  return 0;
}
