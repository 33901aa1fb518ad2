/* Generic rows of an atomlab result file: tolerant of fields it does not
 * know (a new command's rows still load), strict about what makes a file
 * an atomlab result (format_version, rows, a configuration per row). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"
#include "resultfile.h"

/* app and variant name an app row (`atomlab app ...`), the rest rmw and strategy rows. */
const char *const rf_config_fields[] = {"app",    "variant",    "strategy", "pattern", "op",
                                        "type",   "space",      "result",   "scope",   "order",
                                        "contention", "padding", "wg_size", "workgroups"};
const size_t rf_config_count = sizeof rf_config_fields / sizeof rf_config_fields[0];

/* The oldest format_version this reader understands; the newest is ATL_FORMAT_VERSION. */
#define OLDEST_FORMAT 1

static const char *str_or(const cJSON *o, const char *key, const char *fallback)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsString(v) ? v->valuestring : fallback;
}

const char *rf_field(const struct rf_row *r, const char *field, char *buf, size_t len)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(r->obj, field);
  if (cJSON_IsString(v))
    return v->valuestring;
  if (cJSON_IsNumber(v)) {
    snprintf(buf, len, "%.15g", v->valuedouble);
    return buf;
  }
  return "";
}

double rf_number(const struct rf_row *r, const char *field, double fallback)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(r->obj, field);
  return cJSON_IsNumber(v) ? v->valuedouble : fallback;
}

int rf_row_timed(const struct rf_row *r) { return strcmp(r->status, "ok") == 0 && r->has_time; }

char *rf_slurp(const char *path, char *why, size_t why_len)
{
  /* Only a regular file: a FIFO would block the read, a folder's "size" is no size. */
  char detail[200];
  FILE *in = atl_file_open_input(path, detail, sizeof detail);
  if (in == NULL) {
    snprintf(why, why_len, "'%s': %s", path, detail);
    return NULL;
  }
  char *text = NULL;
  long size = -1;
  if (fseek(in, 0, SEEK_END) == 0 && (size = ftell(in)) >= 0 && fseek(in, 0, SEEK_SET) == 0 &&
      (text = malloc((size_t)size + 1)) != NULL && fread(text, 1, (size_t)size, in) == (size_t)size) {
    text[size] = '\0';
  } else {
    free(text);
    text = NULL;
    snprintf(why, why_len, "unable to read '%s'", path);
  }
  fclose(in);
  return text;
}

/*
 * The value a row without @p field measured, where an older atomlab wrote no
 * such field: rows of an op written before scopes and orders were recorded
 * ran device-scope relaxed atomics (CUDA's atomicAdd family, OpenCL 1.2's
 * atomic_*), so they match a new row that says so. NULL: no default.
 */
static const char *config_default(const cJSON *o, const char *field)
{
  if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, "op")))
    return NULL;
  return strcmp(field, "scope") == 0 ? "device" : strcmp(field, "order") == 0 ? "relaxed" : NULL;
}

/* Fills the configuration key, status and times of one row; -1 if it has no configuration. */
static int load_row(struct rf_row *r, const cJSON *o)
{
  memset(r, 0, sizeof *r);
  r->obj = o;
  r->verified = -1;
  size_t used = 0, present = 0;
  for (size_t i = 0; i < rf_config_count; i++) {
    char buf[64];
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, rf_config_fields[i]);
    const char *value = config_default(o, rf_config_fields[i]);
    if (cJSON_IsString(v) || cJSON_IsNumber(v))
      value = rf_field(r, rf_config_fields[i], buf, sizeof buf);
    else if (value == NULL)
      continue;
    present++;
    int n = snprintf(r->key + used, sizeof r->key - used, "%s%s=%s", used ? ";" : "", rf_config_fields[i], value);
    if (n > 0)
      used = used + (size_t)n < sizeof r->key ? used + (size_t)n : sizeof r->key - 1;
  }
  if (present == 0)
    return -1;
  r->status = str_or(o, "status", "?");
  const cJSON *ver = cJSON_GetObjectItemCaseSensitive(o, "verified");
  if (cJSON_IsBool(ver))
    r->verified = cJSON_IsTrue(ver);
  r->gops = rf_number(r, "gops", 0);
  const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "time_ms");
  const cJSON *med = cJSON_GetObjectItemCaseSensitive(t, "median");
  if (cJSON_IsNumber(med)) {
    r->median = med->valuedouble;
    r->q1 = cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(t, "q1"))
                ? cJSON_GetObjectItemCaseSensitive(t, "q1")->valuedouble
                : r->median;
    r->q3 = cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(t, "q3"))
                ? cJSON_GetObjectItemCaseSensitive(t, "q3")->valuedouble
                : r->median;
  }
  /* The raw samples, where recorded, decide the statistics (the summary could be rounded or stale). */
  const cJSON *samples = cJSON_GetObjectItemCaseSensitive(o, "samples_ms");
  int n = cJSON_IsArray(samples) ? cJSON_GetArraySize(samples) : 0;
  if (n > 0 && (r->samples = malloc((size_t)n * sizeof *r->samples)) != NULL) {
    const cJSON *v;
    cJSON_ArrayForEach(v, samples)
    {
      if (cJSON_IsNumber(v) && v->valuedouble > 0)
        r->samples[r->nsamples++] = v->valuedouble;
    }
    if (r->nsamples) {
      struct atl_stats st;
      atl_stats_compute(r->samples, r->nsamples, &st);
      r->median = st.median;
      r->q1 = st.q1;
      r->q3 = st.q3;
    }
  }
  r->has_time = r->median > 0 && r->q1 > 0 && r->q3 >= r->q1;
  return 0;
}

int rf_load(const char *path, struct rf_file *f, char *why, size_t why_len)
{
  memset(f, 0, sizeof *f);
  snprintf(f->path, sizeof f->path, "%s", path);
  char *text = rf_slurp(path, why, why_len);
  if (text == NULL)
    return -1;
  f->root = cJSON_Parse(text);
  free(text);
  const cJSON *version = cJSON_GetObjectItemCaseSensitive(f->root, "format_version");
  const cJSON *rows = cJSON_GetObjectItemCaseSensitive(f->root, "rows");
  const cJSON *tool = cJSON_GetObjectItemCaseSensitive(f->root, "tool");
  const cJSON *device = cJSON_GetObjectItemCaseSensitive(f->root, "device");
  if (!cJSON_IsObject(f->root)) {
    snprintf(why, why_len, "'%s' is not JSON (expected an atomlab result file)", path);
    goto fail;
  }
  if (!cJSON_IsArray(rows) || strcmp(str_or(tool, "name", "atomlab"), "atomlab") != 0) {
    snprintf(why, why_len, "'%s' is not an atomlab result file (no rows array)", path);
    goto fail;
  }
  if (!cJSON_IsNumber(version)) { /* name the field and what it holds, e.g. the string "1" */
    snprintf(why, why_len, "'%s': the field 'format_version' is %s%s%s: this atomlab reads the numbers %d to %d",
             path, version == NULL ? "missing" : cJSON_IsString(version) ? "the string '" : "not a number",
             cJSON_IsString(version) ? version->valuestring : "", cJSON_IsString(version) ? "'" : "", OLDEST_FORMAT,
             ATL_FORMAT_VERSION);
    goto fail;
  }
  f->format_version = version->valueint;
  if (version->valuedouble != (double)f->format_version || f->format_version < OLDEST_FORMAT ||
      f->format_version > ATL_FORMAT_VERSION) {
    snprintf(why, why_len, "'%s' has format_version %g: this atomlab reads %d to %d", path, version->valuedouble,
             OLDEST_FORMAT, ATL_FORMAT_VERSION);
    goto fail;
  }
  f->device = str_or(device, "name", "?");
  f->backend = str_or(device, "backend", "?");
  f->commit = str_or(tool, "commit", "");
  f->date = str_or(f->root, "date", "");
  int n = cJSON_GetArraySize(rows);
  f->rows = calloc(n ? (size_t)n : 1, sizeof *f->rows);
  if (f->rows == NULL) {
    snprintf(why, why_len, "out of memory reading '%s'", path);
    goto fail;
  }
  const cJSON *o;
  cJSON_ArrayForEach(o, rows)
  {
    if (!cJSON_IsObject(o) || load_row(&f->rows[f->count], o) != 0) {
      snprintf(why, why_len, "'%s': row %zu is not an object with a configuration (pattern, op, strategy, ...)", path,
               f->count);
      f->count += cJSON_IsObject(o); /* so rf_free frees its samples */
      goto fail;
    }
    f->count++;
  }
  return 0;
fail:
  rf_free(f);
  return -1;
}

void rf_free(struct rf_file *f)
{
  for (size_t i = 0; f->rows && i < f->count; i++)
    free(f->rows[i].samples);
  free(f->rows);
  cJSON_Delete(f->root);
  f->rows = NULL;
  f->root = NULL;
  f->count = 0;
}
