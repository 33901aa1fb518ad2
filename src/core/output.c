/* One row struct, three views: a readable table, CSV and JSON. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomlab.h"
#include "output_internal.h"

static const char *const status_names[] = {"ok", "unsupported", "skipped", "deadlock", "error"};

const char *atl_status_name(enum atl_status s) { return (unsigned)s < 5 ? status_names[s] : "?"; }

int atl_format_parse(const char *s)
{
  if (strcmp(s, "table") == 0)
    return ATL_FORMAT_TABLE;
  if (strcmp(s, "csv") == 0)
    return ATL_FORMAT_CSV;
  if (strcmp(s, "json") == 0)
    return ATL_FORMAT_JSON;
  return -1;
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

int atl_result_set_add(struct atl_result_set *set, struct atl_row *row)
{
  void *rows = atl__grow_rows(set->rows, &set->cap, set->count, sizeof *set->rows, 64);
  if (rows == NULL)
    return ATL_ENOMEM;
  set->rows = rows;
  set->rows[set->count++] = *row;
  row->samples_ms = NULL; /* moved */
  return 0;
}

void atl_result_set_release(struct atl_result_set *set)
{
  for (size_t i = 0; i < set->count; i++)
    free(set->rows[i].samples_ms);
  free(set->rows);
  set->rows = NULL;
  set->count = set->cap = 0;
}

int atl_write_table_header(FILE *f)
{
  return fprintf(f, "%-10s %-9s %-6s %-6s %-6s %-6s %-7s %6s %5s %9s %10s %6s %10s %-8s %s\n", "pattern", "op", "type",
                 "space", "result", "scope", "order", "cont", "pad", "iters", "median_ms", "noise", "Gop/s", "verified",
                 "status") < 0;
}

int atl_write_table_row(FILE *f, const struct atl_row *r)
{
  const struct atl_spec *s = &r->spec;
  char note[700] = "";
  if (r->reason[0] || r->instructions[0])
    snprintf(note, sizeof note, "%s%s%s%s%s", r->reason[0] ? " (" : "", r->reason, r->reason[0] ? ")" : "",
             r->instructions[0] ? " [" : "", r->instructions[0] ? r->instructions : "");
  if (r->instructions[0])
    strncat(note, "]", sizeof note - strlen(note) - 1);
  int n = fprintf(f, "%-10s %-9s %-6s %-6s %-6s %-6s %-7s %6u %5u ", atl_pattern_name(s->pattern), atl_op_name(s->op),
                  atl_type_name(s->type), atl_space_name(s->space), atl_result_name(s->result),
                  atl_scope_name(s->scope), atl_order_name(s->order), s->contention, s->padding);
  if (n < 0)
    return 1;
  if (r->status != ATL_STATUS_OK)
    return fprintf(f, "%9s %10s %6s %10s %-8s %s%s\n", "-", "-", "-", "-", "-", atl_status_name(r->status), note) < 0;
  return fprintf(f, "%9u %10.3f %5.1f%% %10.3f %-8s %s%s\n", r->iters, r->time_ms.median, r->time_ms.noise * 100,
                 r->gops, r->verified ? "yes" : "NO", atl_status_name(r->status), note) < 0;
}

static const char csv_header[] =
    "pattern,op,type,space,result,contention,padding,wg_size,workgroups,array_words,iters,ops,status,verified,"
    "wrong_words,median_ms,min_ms,max_ms,q1_ms,q3_ms,iqr_ms,noise,samples,ops_per_us,gops,cas_attempts_per_op,scope,"
    "order,backend,instructions,reason";

const char *atl_csv_header(void) { return csv_header; }

/* A CSV field (result.h): quoted when it holds a comma, quote or newline. */
void atl_csv_field(FILE *f, const char *s)
{
  if (strpbrk(s, ",\"\n") == NULL) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"')
      fputc('"', f);
    fputc(*s == '\n' ? ' ' : *s, f);
  }
  fputc('"', f);
}

int atl_write_csv(FILE *f, const struct atl_result_set *set)
{
  fprintf(f, "%s\n", csv_header);
  for (size_t i = 0; i < set->count; i++) {
    const struct atl_row *r = &set->rows[i];
    const struct atl_spec *s = &r->spec;
    const struct atl_stats *t = &r->time_ms;
    fprintf(f, "%s,%s,%s,%s,%s,%u,%u,%u,%u,%llu,%u,%llu,%s,%d,%llu,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.5f,%u,%.3f,%.5f,%.4f,",
            atl_pattern_name(s->pattern), atl_op_name(s->op), atl_type_name(s->type), atl_space_name(s->space),
            atl_result_name(s->result), s->contention, s->padding, s->wg_size, s->workgroups,
            (unsigned long long)r->array_words, r->iters, (unsigned long long)r->ops, atl_status_name(r->status),
            r->verified, (unsigned long long)r->wrong_words, t->median, t->min, t->max, t->q1, t->q3, t->iqr,
            t->noise, t->samples, r->ops_per_us, r->gops, r->cas_attempts);
    fprintf(f, "%s,%s,%s,", atl_scope_name(s->scope), atl_order_name(s->order), set->meta.device.backend);
    atl_csv_field(f, r->instructions);
    fputc(',', f);
    atl_csv_field(f, r->reason); /* free text last */
    fputc('\n', f);
  }
  return ferror(f) ? ATL_EIO : 0;
}

cJSON *atl__device_json(const struct atl_device_info *d)
{
  cJSON *o = cJSON_CreateObject();
  static const char *const types[] = {"other", "cpu", "gpu", "accelerator"};
  cJSON_AddStringToObject(o, "id", d->id);
  cJSON_AddStringToObject(o, "backend", d->backend);
  cJSON_AddStringToObject(o, "platform", d->platform);
  cJSON_AddStringToObject(o, "name", d->name);
  cJSON_AddStringToObject(o, "vendor", d->vendor);
  cJSON_AddStringToObject(o, "driver", d->driver);
  cJSON_AddStringToObject(o, "version", d->version);
  cJSON_AddStringToObject(o, "language_version", d->lang_version);
  cJSON_AddStringToObject(o, "type", types[d->type < 4 ? d->type : 0]);
  cJSON *lim = cJSON_AddObjectToObject(o, "limits");
  cJSON_AddNumberToObject(lim, "compute_units", d->compute_units);
  cJSON_AddNumberToObject(lim, "clock_mhz", d->clock_mhz);
  cJSON_AddNumberToObject(lim, "max_work_group_size", (double)d->max_wg_size);
  cJSON_AddNumberToObject(lim, "max_alloc_bytes", (double)d->max_alloc);
  cJSON_AddNumberToObject(lim, "global_mem_bytes", (double)d->global_mem);
  cJSON_AddNumberToObject(lim, "local_mem_bytes", (double)d->local_mem);
  cJSON_AddNumberToObject(lim, "local_mem_optin_bytes", (double)d->local_mem_optin);
  cJSON_AddNumberToObject(lim, "warp_size", d->warp_size);
  cJSON_AddNumberToObject(lim, "max_threads_per_compute_unit", d->max_threads_per_cu);
  cJSON_AddBoolToObject(lim, "int64_atomics", d->has_int64_atomics);
  cJSON_AddBoolToObject(lim, "f32_atomic_add", d->has_f32_atomic_add);
  cJSON_AddBoolToObject(lim, "f64_atomic_add", d->has_f64_atomic_add);
  cJSON_AddBoolToObject(lim, "f16x2_atomic_add", d->has_f16x2_atomic_add);
  cJSON_AddBoolToObject(lim, "bf16x2_atomic_add", d->has_bf16x2_atomic_add);
  cJSON_AddBoolToObject(lim, "scopes", d->has_scopes);
  cJSON_AddBoolToObject(lim, "memory_orders", d->has_orders);
  cJSON_AddBoolToObject(lim, "local_atomics", d->has_local_atomics);
  return o;
}

cJSON *atl__row_json(const struct atl_row *r)
{
  const struct atl_spec *s = &r->spec;
  const struct atl_stats *t = &r->time_ms;
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "pattern", atl_pattern_name(s->pattern));
  cJSON_AddStringToObject(o, "op", atl_op_name(s->op));
  cJSON_AddStringToObject(o, "type", atl_type_name(s->type));
  cJSON_AddStringToObject(o, "space", atl_space_name(s->space));
  cJSON_AddStringToObject(o, "result", atl_result_name(s->result));
  cJSON_AddStringToObject(o, "scope", atl_scope_name(s->scope));
  cJSON_AddStringToObject(o, "order", atl_order_name(s->order));
  cJSON_AddNumberToObject(o, "contention", s->contention);
  cJSON_AddNumberToObject(o, "padding", s->padding);
  cJSON_AddNumberToObject(o, "wg_size", s->wg_size);
  cJSON_AddNumberToObject(o, "workgroups", s->workgroups);
  cJSON_AddNumberToObject(o, "array_words", (double)r->array_words);
  cJSON_AddStringToObject(o, "status", atl_status_name(r->status));
  cJSON_AddStringToObject(o, "reason", r->reason);
  cJSON_AddBoolToObject(o, "verified", r->verified);
  cJSON_AddNumberToObject(o, "wrong_words", (double)r->wrong_words);
  cJSON_AddNumberToObject(o, "iters", r->iters);
  cJSON_AddNumberToObject(o, "ops", (double)r->ops);
  cJSON *tj = cJSON_AddObjectToObject(o, "time_ms");
  cJSON_AddNumberToObject(tj, "median", t->median);
  cJSON_AddNumberToObject(tj, "min", t->min);
  cJSON_AddNumberToObject(tj, "max", t->max);
  cJSON_AddNumberToObject(tj, "mean", t->mean);
  cJSON_AddNumberToObject(tj, "q1", t->q1);
  cJSON_AddNumberToObject(tj, "q3", t->q3);
  cJSON_AddNumberToObject(tj, "iqr", t->iqr);
  cJSON_AddNumberToObject(tj, "noise", t->noise);
  cJSON_AddNumberToObject(tj, "samples", t->samples);
  cJSON *samples = cJSON_AddArrayToObject(o, "samples_ms");
  for (unsigned i = 0; r->samples_ms && i < t->samples; i++)
    cJSON_AddItemToArray(samples, cJSON_CreateNumber(r->samples_ms[i]));
  cJSON_AddNumberToObject(o, "ops_per_us", r->ops_per_us);
  cJSON_AddNumberToObject(o, "gops", r->gops);
  cJSON_AddNumberToObject(o, "row_seconds", r->row_seconds);
  if (s->op == ATL_OP_CAS)
    cJSON_AddNumberToObject(o, "cas_attempts_per_op", r->cas_attempts);
  if (r->instructions[0])
    cJSON_AddStringToObject(o, "instructions", r->instructions);
  return o;
}

static int compare_doubles(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The figures a benchmark target is stated in: how long the sweep took and
 * how noisy its rows were (median over measured rows of IQR / median). */
static cJSON *summary_json(const struct atl_result_set *set)
{
  cJSON *o = cJSON_CreateObject();
  size_t ok = 0, verified = 0;
  double row_seconds = 0;
  double *noise = malloc((set->count ? set->count : 1) * sizeof *noise);
  for (size_t i = 0; i < set->count; i++) {
    const struct atl_row *r = &set->rows[i];
    row_seconds += r->row_seconds;
    verified += r->verified != 0;
    if (r->status == ATL_STATUS_OK && noise)
      noise[ok++] = r->time_ms.noise;
  }
  cJSON_AddNumberToObject(o, "rows", (double)set->count);
  cJSON_AddNumberToObject(o, "rows_ok", (double)ok);
  cJSON_AddNumberToObject(o, "rows_verified", (double)verified);
  cJSON_AddNumberToObject(o, "elapsed_s", set->meta.elapsed_s);
  cJSON_AddNumberToObject(o, "row_seconds_total", row_seconds);
  if (ok) {
    qsort(noise, ok, sizeof *noise, compare_doubles);
    cJSON_AddNumberToObject(o, "noise_median", ok % 2 ? noise[ok / 2] : (noise[ok / 2 - 1] + noise[ok / 2]) / 2);
    cJSON_AddNumberToObject(o, "noise_max", noise[ok - 1]);
  }
  free(noise);
  return o;
}

cJSON *atl__json_provenance(const struct atl_run_meta *m)
{
  cJSON *root = cJSON_CreateObject();
  cJSON_AddNumberToObject(root, "format_version", ATL_FORMAT_VERSION);
  cJSON *tool = cJSON_AddObjectToObject(root, "tool");
  cJSON_AddStringToObject(tool, "name", "atomlab");
  cJSON_AddStringToObject(tool, "version", m->tool_version);
  cJSON_AddStringToObject(tool, "commit", m->git_commit);
  cJSON_AddStringToObject(root, "date", m->date);
  cJSON_AddStringToObject(root, "command", m->command);
  return root;
}

cJSON *atl__json_meta(const struct atl_run_meta *m)
{
  cJSON *root = atl__json_provenance(m);
  cJSON_AddBoolToObject(root, "complete", m->complete);
  cJSON_AddNumberToObject(root, "rows_planned", (double)m->rows_planned);
  cJSON_AddItemToObject(root, "device", atl__device_json(&m->device));
  cJSON *occ = cJSON_AddObjectToObject(root, "occupancy");
  cJSON_AddNumberToObject(occ, "wg_size", m->occupancy.wg_size);
  cJSON_AddNumberToObject(occ, "discovered_workgroups", m->occupancy.discovered);
  cJSON_AddNumberToObject(occ, "estimated_workgroups", m->occupancy.estimated);
  cJSON_AddStringToObject(occ, "estimate_method", m->occupancy.estimate_method);
  cJSON_AddNumberToObject(occ, "probe_workgroups", m->occupancy.launched);
  cJSON *st = cJSON_AddObjectToObject(root, "settings");
  cJSON_AddNumberToObject(st, "target_ms", m->timing.target_ms);
  cJSON_AddNumberToObject(st, "noise_threshold", m->timing.noise);
  cJSON_AddNumberToObject(st, "min_samples", m->timing.min_samples);
  cJSON_AddNumberToObject(st, "max_samples", m->timing.max_samples);
  cJSON_AddNumberToObject(st, "budget_s", m->timing.budget_s);
  cJSON_AddNumberToObject(st, "fixed_iters", m->timing.fixed_iters);
  cJSON_AddNumberToObject(st, "max_iters", m->timing.max_iters);
  cJSON_AddStringToObject(st, "cache", "hot: the array is re-initialised by a fill before each launch, L2 not flushed");
  return root;
}

int atl__json_print(FILE *f, cJSON *root)
{
  char *text = cJSON_Print(root);
  cJSON_Delete(root);
  if (text == NULL)
    return ATL_ENOMEM;
  int err = fputs(text, f) < 0 || fputc('\n', f) == EOF ? ATL_EIO : 0;
  free(text);
  return err;
}

int atl_write_json(FILE *f, const struct atl_result_set *set)
{
  cJSON *root = atl__json_meta(&set->meta);
  cJSON_AddItemToObject(root, "summary", summary_json(set));
  cJSON *rows = cJSON_AddArrayToObject(root, "rows");
  for (size_t i = 0; i < set->count; i++)
    cJSON_AddItemToArray(rows, atl__row_json(&set->rows[i]));
  return atl__json_print(f, root);
}

int atl_write_set(FILE *f, const void *arg)
{
  const struct atl_set_writer *w = arg;
  int err = 0;
  if (w->fmt == ATL_FORMAT_JSON)
    return atl_write_json(f, w->set);
  if (w->fmt == ATL_FORMAT_CSV)
    return atl_write_csv(f, w->set);
  err = atl_write_table_header(f) ? ATL_EIO : 0;
  for (size_t i = 0; !err && i < w->set->count; i++)
    err = atl_write_table_row(f, &w->set->rows[i]) ? ATL_EIO : 0;
  return err;
}

int atl_write_file(const char *path, enum atl_format fmt, const struct atl_result_set *set)
{
  struct atl_set_writer w = {fmt, set};
  return atl_file_write(path, atl_write_set, &w, NULL, 0);
}
