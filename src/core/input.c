/* Reading result files back: what --resume (and later compare and plot) stand on. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"

int atl_spec_equal(const struct atl_spec *a, const struct atl_spec *b)
{
  return a->op == b->op && a->type == b->type && a->space == b->space && a->pattern == b->pattern &&
         a->result == b->result && a->scope == b->scope && a->order == b->order && a->contention == b->contention &&
         a->padding == b->padding && a->wg_size == b->wg_size && a->workgroups == b->workgroups;
}

static char *read_file(const char *path, char *why, size_t why_len)
{
  /* Only a regular file: a FIFO would block the read, a folder's "size" is no size. */
  char detail[200];
  FILE *f = atl_file_open_input(path, detail, sizeof detail);
  if (f == NULL) {
    snprintf(why, why_len, "'%s': %s", path, detail);
    return NULL;
  }
  char *text = NULL;
  long size = -1;
  if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
      (text = malloc((size_t)size + 1)) != NULL && fread(text, 1, (size_t)size, f) == (size_t)size) {
    text[size] = '\0';
  } else {
    free(text);
    text = NULL;
    snprintf(why, why_len, "unable to read '%s'", path);
  }
  fclose(f);
  return text;
}

static const char *str(const cJSON *o, const char *key)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double num(const cJSON *o, const char *key, double fallback)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsNumber(v) ? v->valuedouble : fallback;
}

/* A count field: its value if a whole number from 0 to below @p limit, else 0. */
static double whole(const cJSON *o, const char *key, double limit)
{
  double v = num(o, key, 0);
  return v >= 0 && v < limit && v == floor(v) ? v : 0;
}

/* A name field: parsed with `parse`; `fallback` when absent (older files). */
static int name_field(const cJSON *o, const char *key, int (*parse)(const char *), int fallback)
{
  const char *s = str(o, key);
  return s ? parse(s) : fallback;
}

/* What field @p key of @p o holds, for a message: "missing", "'frob'", "0", "an array". */
static void field_text(const cJSON *o, const char *key, char *buf, size_t len)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  if (v == NULL)
    snprintf(buf, len, "missing");
  else if (cJSON_IsString(v))
    snprintf(buf, len, "'%.40s'", v->valuestring);
  else if (cJSON_IsNumber(v))
    snprintf(buf, len, "%.17g", v->valuedouble);
  else
    snprintf(buf, len, "%s", cJSON_IsBool(v) ? "a boolean" : cJSON_IsNull(v) ? "null" : cJSON_IsArray(v) ? "an array" : "an object");
}

static void copy_str(char *dst, size_t len, const char *src)
{
  snprintf(dst, len, "%s", src ? src : "");
}

static int parse_row(const cJSON *o, struct atl_row *r, char *why, size_t why_len, int index)
{
  memset(r, 0, sizeof *r);
  struct atl_spec *s = &r->spec;
  int op = name_field(o, "op", atl_op_parse, -1), type = name_field(o, "type", atl_type_parse, -1);
  int space = name_field(o, "space", atl_space_parse, -1), pattern = name_field(o, "pattern", atl_pattern_parse, -1);
  int result = name_field(o, "result", atl_result_parse, -1);
  int scope = name_field(o, "scope", atl_scope_parse, ATL_SCOPE_DEVICE);
  int order = name_field(o, "order", atl_order_parse, ATL_ORDER_RELAXED);
  double cont = num(o, "contention", -1), pad = num(o, "padding", -1), wg = num(o, "wg_size", -1),
         wgs = num(o, "workgroups", -1);
  /* Name the first bad field and what it holds: "a field is wrong" sends the reader hunting. */
  const struct {
    const char *key;
    int bad;
    const char *allowed;
  } fields[] = {
      {"op", op < 0, "an op name such as fetch_add"},
      {"type", type < 0, "u32, i32, u64, f32, f64, f16x2 or bf16x2"},
      {"space", space < 0, "global or local"},
      {"pattern", pattern < 0, "contiguous, cross-warp, branched or random"},
      {"result", result < 0, "unused or used"},
      {"scope", scope < 0, "device, block or system"},
      {"order", order < 0, "relaxed, acquire, release, acq_rel or seq_cst"},
      {"contention", !(cont >= 1 && cont <= UINT32_MAX && cont == (double)(uint32_t)cont), "a whole number >= 1"},
      {"padding", !(pad >= 1 && pad <= UINT32_MAX && pad == (double)(uint32_t)pad), "a whole number >= 1"},
      {"wg_size", !(wg >= 1 && wg <= UINT32_MAX && wg == (double)(uint32_t)wg), "a whole number >= 1"},
      {"workgroups", !(wgs >= 1 && wgs <= UINT32_MAX && wgs == (double)(uint32_t)wgs), "a whole number >= 1"},
  };
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
    if (fields[i].bad) {
      char found[64];
      field_text(o, fields[i].key, found, sizeof found);
      snprintf(why, why_len, "row %d: the configuration field '%s' is %s: allowed: %s", index, fields[i].key, found,
               fields[i].allowed);
      return ATL_EINVAL;
    }
  *s = (struct atl_spec){.op = (enum atl_op)op, .type = (enum atl_type)type, .space = (enum atl_space)space,
                         .pattern = (enum atl_pattern)pattern, .result = (enum atl_result_use)result,
                         .scope = (enum atl_scope)scope, .order = (enum atl_order)order,
                         .contention = (uint32_t)cont, .padding = (uint32_t)pad, .wg_size = (uint32_t)wg,
                         .workgroups = (uint32_t)wgs};
  static const char *const statuses[] = {"ok", "unsupported", "skipped", "deadlock", "error"};
  const char *status = str(o, "status");
  r->status = ATL_STATUS_ERROR;
  for (int i = 0; status && i < 5; i++)
    if (strcmp(status, statuses[i]) == 0)
      r->status = (enum atl_status)i;
  copy_str(r->reason, sizeof r->reason, str(o, "reason"));
  copy_str(r->instructions, sizeof r->instructions, str(o, "instructions"));
  r->verified = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "verified"));
  /* Counts outside their type (iters -1, 1e300 ops) read as 0: converting
   * them would be undefined, and 0 is what atl_row_validate() refuses. */
  r->wrong_words = (uint64_t)whole(o, "wrong_words", 0x1p64);
  r->iters = (uint32_t)whole(o, "iters", 0x1p32);
  r->ops = (uint64_t)whole(o, "ops", 0x1p64);
  r->array_words = (uint64_t)whole(o, "array_words", 0x1p64);
  r->ops_per_us = num(o, "ops_per_us", 0);
  r->gops = num(o, "gops", 0);
  r->cas_attempts = num(o, "cas_attempts_per_op", 0);
  r->row_seconds = num(o, "row_seconds", 0);
  const cJSON *samples = cJSON_GetObjectItemCaseSensitive(o, "samples_ms");
  int n = cJSON_IsArray(samples) ? cJSON_GetArraySize(samples) : 0;
  if (n > 0) {
    r->samples_ms = malloc((size_t)n * sizeof *r->samples_ms);
    if (r->samples_ms == NULL)
      return ATL_ENOMEM;
    for (int i = 0; i < n; i++) {
      const cJSON *v = cJSON_GetArrayItem(samples, i);
      if (!cJSON_IsNumber(v) || v->valuedouble < 0) {
        free(r->samples_ms);
        r->samples_ms = NULL;
        snprintf(why, why_len, "row %d: samples_ms holds a value that is not a time", index);
        return ATL_EINVAL;
      }
      r->samples_ms[i] = v->valuedouble;
    }
    atl_stats_compute(r->samples_ms, (size_t)n, &r->time_ms);
  }
  /* The statistics as recorded (what compare and plot show, and what
   * atl_row_validate() checks against the samples); time_ms.samples stays the
   * number of samples actually read, which is what samples_ms holds. */
  const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "time_ms");
  if (cJSON_IsObject(t)) {
    r->time_ms.median = num(t, "median", 0);
    r->time_ms.min = num(t, "min", 0);
    r->time_ms.max = num(t, "max", 0);
    r->time_ms.mean = num(t, "mean", 0);
    r->time_ms.q1 = num(t, "q1", 0);
    r->time_ms.q3 = num(t, "q3", 0);
    r->time_ms.iqr = num(t, "iqr", 0);
    r->time_ms.noise = num(t, "noise", 0);
  }
  return 0;
}

static void parse_device(const cJSON *d, struct atl_device_info *info)
{
  copy_str(info->id, sizeof info->id, str(d, "id"));
  copy_str(info->backend, sizeof info->backend, str(d, "backend"));
  copy_str(info->platform, sizeof info->platform, str(d, "platform"));
  copy_str(info->name, sizeof info->name, str(d, "name"));
  copy_str(info->vendor, sizeof info->vendor, str(d, "vendor"));
  copy_str(info->driver, sizeof info->driver, str(d, "driver"));
  copy_str(info->version, sizeof info->version, str(d, "version"));
  copy_str(info->lang_version, sizeof info->lang_version, str(d, "language_version"));
}

int atl_read_json(const char *path, struct atl_result_set *set, char *why, size_t why_len)
{
  memset(set, 0, sizeof *set);
  char *text = read_file(path, why, why_len);
  if (text == NULL)
    return ATL_EIO;
  int err = atl_parse_json(text, path, set, why, why_len);
  free(text);
  return err;
}

int atl_parse_json(const char *text, const char *path, struct atl_result_set *set, char *why, size_t why_len)
{
  memset(set, 0, sizeof *set);
  cJSON *root = cJSON_Parse(text);
  int err = 0;
  if (!cJSON_IsObject(root)) {
    snprintf(why, why_len, "'%s' is not a JSON object", path);
    err = ATL_EINVAL;
    goto out;
  }
  if (num(root, "format_version", -1) != ATL_FORMAT_VERSION) {
    char found[64];
    field_text(root, "format_version", found, sizeof found);
    snprintf(why, why_len, "'%s': the field 'format_version' is %s: this atomlab reads the number %d", path, found,
             ATL_FORMAT_VERSION);
    err = ATL_EINVAL;
    goto out;
  }
  struct atl_run_meta *m = &set->meta;
  const cJSON *tool = cJSON_GetObjectItemCaseSensitive(root, "tool");
  copy_str(m->tool_version, sizeof m->tool_version, str(tool, "version"));
  copy_str(m->git_commit, sizeof m->git_commit, str(tool, "commit"));
  copy_str(m->date, sizeof m->date, str(root, "date"));
  copy_str(m->command, sizeof m->command, str(root, "command"));
  m->complete = !cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(root, "complete"));
  m->rows_planned = (size_t)whole(root, "rows_planned", 0x1p52);
  /* The timing settings, which --resume compares with the new run's. */
  const cJSON *st = cJSON_GetObjectItemCaseSensitive(root, "settings");
  atl_timing_defaults(&m->timing);
  m->timing_recorded = cJSON_IsObject(st);
  if (m->timing_recorded) {
    m->timing.target_ms = num(st, "target_ms", -1);
    m->timing.noise = num(st, "noise_threshold", -1);
    m->timing.min_samples = (unsigned)whole(st, "min_samples", 0x1p32);
    m->timing.max_samples = (unsigned)whole(st, "max_samples", 0x1p32);
    m->timing.budget_s = num(st, "budget_s", -1);
    m->timing.fixed_iters = (uint32_t)whole(st, "fixed_iters", 0x1p32);
    /* Files before max_iters was recorded ran at the default cap. */
    if (cJSON_GetObjectItemCaseSensitive(st, "max_iters"))
      m->timing.max_iters = (uint32_t)whole(st, "max_iters", 0x1p32);
  }
  const cJSON *device = cJSON_GetObjectItemCaseSensitive(root, "device");
  if (!cJSON_IsObject(device) || str(device, "name") == NULL) {
    snprintf(why, why_len, "'%s' has no device", path);
    err = ATL_EINVAL;
    goto out;
  }
  parse_device(device, &m->device);
  const cJSON *rows = cJSON_GetObjectItemCaseSensitive(root, "rows");
  if (!cJSON_IsArray(rows)) {
    snprintf(why, why_len, "'%s' has no rows array", path);
    err = ATL_EINVAL;
    goto out;
  }
  int index = 0;
  const cJSON *o;
  cJSON_ArrayForEach(o, rows)
  {
    struct atl_row row;
    char detail[200];
    if ((err = parse_row(o, &row, detail, sizeof detail, index++))) {
      snprintf(why, why_len, "'%s': %s", path, detail);
      goto out;
    }
    if ((err = atl_result_set_add(set, &row))) {
      free(row.samples_ms);
      goto out;
    }
  }
out:
  cJSON_Delete(root);
  if (err)
    atl_result_set_release(set);
  return err;
}
