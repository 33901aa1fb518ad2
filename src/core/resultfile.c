/* Rows of any atomlab result file as compare and plot use them: the
 * library reads and migrates the file; this adds each row's key and its
 * times recomputed from the raw samples. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resultfile.h"

const char *const atl__rf_config_fields[] = {"app",          "variant",    "strategy",   "pattern",     "op",
                                        "type",         "space",      "result",     "scope",       "order",
                                        "contention",   "padding",    "divergent",  "stuck_lock",  "threads_per_word",
                                        "word_spacing", "wg_size",    "workgroups", "spin_bound"};
const size_t atl__rf_config_count = sizeof atl__rf_config_fields / sizeof atl__rf_config_fields[0];

const char *atl__rf_field(const struct atl__rf_row *r, const char *field, char *buf, size_t len)
{
  const char *v = atl_row_config(r->row, field);
  if (v != NULL)
    return v;
  for (unsigned i = 0; i < r->row->nmetrics; i++)
    if (strcmp(r->row->metrics[i].name, field) == 0) {
      snprintf(buf, len, "%.15g", r->row->metrics[i].value);
      return buf;
    }
  return "";
}

double atl__rf_number(const struct atl__rf_row *r, const char *field, double fallback)
{
  return atl_row_number(r->row, field, fallback);
}

int atl__rf_row_timed(const struct atl__rf_row *r) { return strcmp(r->status, "ok") == 0 && r->has_time; }

static void load_row(struct atl__rf_row *r, const struct atl_row *row)
{
  struct atl_row_times t;
  memset(r, 0, sizeof *r);
  r->row = row;
  atl_row_key(row, r->key, sizeof r->key);
  r->status = atl_status_name(row->status);
  r->verified = row->verified;
  r->gops = atl_row_metric(row, "gops", 0);
  atl_row_times(row, &t); /* from the raw samples where recorded */
  r->median = t.median;
  r->q1 = t.q1;
  r->q3 = t.q3;
  r->nsamples = t.samples;
  r->has_time = r->median > 0 && r->q1 > 0 && r->q3 >= r->q1 && t.implausible == NULL; /* no forged time drawn */
}

int atl__rf_load(const char *path, struct atl__rf_file *f, char *why, size_t why_len)
{
  memset(f, 0, sizeof *f);
  snprintf(f->path, sizeof f->path, "%s", path);
  if (atl_read_json(path, &f->set, why, why_len) != 0)
    return -1;
  f->format_version = f->set.format_version;
  f->device = f->set.meta.device.name[0] ? f->set.meta.device.name : "?";
  f->backend = f->set.meta.device.backend[0] ? f->set.meta.device.backend : "?";
  f->commit = f->set.meta.git_commit;
  f->date = f->set.meta.date;
  f->rows = calloc(f->set.count ? f->set.count : 1, sizeof *f->rows);
  if (f->rows == NULL) {
    snprintf(why, why_len, "out of memory reading '%s'", path);
    atl__rf_free(f);
    return -1;
  }
  for (; f->count < f->set.count; f->count++)
    load_row(&f->rows[f->count], &f->set.rows[f->count]);
  return 0;
}

void atl__rf_free(struct atl__rf_file *f)
{
  free(f->rows);
  atl_result_set_release(&f->set);
  f->rows = NULL;
  f->count = 0;
}
