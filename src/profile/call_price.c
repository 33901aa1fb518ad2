/*
 * The price of atomlab's advised call on a profiled launch (call_price.h): data/tuning/diagnose-calls.json read with
 * cJSON once a process (found as the other tuning files are), the launch's key law and shape read from its counters.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "atomlab/error.h"
#include "atomlab/file.h"
#include "call_price.h"
#include "tuning/scatter_tuning.h"

/* A text field of @p o into @p to (@p size bytes), one of @p allowed where given (NULL-terminated): 0 or ATL_EINVAL. */
static int text_of(const cJSON *o, const char *name, char *to, size_t size, const char *const *allowed,
                   const char *where, char *why, size_t len)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
  int ok = cJSON_IsString(v) && *v->valuestring && strlen(v->valuestring) < size;
  for (size_t i = 0; ok && allowed && allowed[i]; i++)
    if (strcmp(v->valuestring, allowed[i]) == 0)
      break;
    else if (!allowed[i + 1])
      ok = 0;
  if (!ok)
    return snprintf(why, len, "%s.%s: %s%zu characters is needed", where, name,
                    allowed ? "one of the listed names (access: hot, head, spread, runs; shape: scalar, rows), at most "
                            : "a text of 1 to ", size - 1), ATL_EINVAL;
  memcpy(to, v->valuestring, strlen(v->valuestring) + 1);
  return 0;
}

static int number_of(const cJSON *o, const char *name, double lo, double hi, double *to, const char *where, char *why,
                     size_t len)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
  if (!cJSON_IsNumber(v) || !(v->valuedouble > lo && v->valuedouble <= hi))
    return snprintf(why, len, "%s.%s: a number above %g, at most %g is needed", where, name, lo, hi), ATL_EINVAL;
  *to = v->valuedouble;
  return 0;
}

/* One call's entry: its call, law, shape and efficiency, and the measurements it comes from (at least one). */
static int entry_parse(const cJSON *o, struct atl__call_entry *e, const char *where, char *why, size_t len)
{
  static const char *const access[] = {"hot", "head", "spread", "runs", NULL}, *const shape[] = {"scalar", "rows", NULL};
  const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "measured");
  int err = text_of(o, "call", e->call, sizeof e->call, NULL, where, why, len);
  err = err ? err : text_of(o, "access", e->access, sizeof e->access, access, where, why, len);
  err = err ? err : text_of(o, "shape", e->shape, sizeof e->shape, shape, where, why, len);
  err = err ? err : number_of(o, "efficiency", 0, 1, &e->efficiency, where, why, len);
  if (!err && (!cJSON_IsArray(m) || cJSON_GetArraySize(m) < 1 || !cJSON_IsString(m->child)))
    err = ATL_EINVAL, snprintf(why, len, "%s.measured: the measurements it comes from are needed (texts)", where);
  return err;
}

static int row_parse(const cJSON *o, unsigned i, struct atl__call_row *r, char *why, size_t len)
{
  char where[64];
  snprintf(where, sizeof where, "rows[%u]", i);
  const cJSON *calls = cJSON_GetObjectItemCaseSensitive(o, "calls");
  const cJSON *source = cJSON_GetObjectItemCaseSensitive(o, "source");
  int err = text_of(o, "name", r->name, sizeof r->name, NULL, where, why, len);
  err = err ? err : text_of(o, "arch", r->arch, sizeof r->arch, NULL, where, why, len);
  if (!err && (!cJSON_IsString(source) || !*source->valuestring))
    err = ATL_EINVAL, snprintf(why, len, "%s.source: the measurement the row comes from is needed (a text)", where);
  err = err ? err : number_of(o, "launch_us", 0, 1000, &r->launch_us, where, why, len);
  err = err ? err : number_of(o, "faster", 1, 100, &r->faster, where, why, len);
  if (!err && (!cJSON_IsArray(calls) || cJSON_GetArraySize(calls) > ATL__CALL_ENTRIES))
    err = ATL_EINVAL, snprintf(why, len, "%s.calls: an array of at most %d entries is needed", where, ATL__CALL_ENTRIES);
  for (const cJSON *c = calls ? calls->child : NULL; !err && c; c = c->next, r->n++) {
    snprintf(where, sizeof where, "rows[%u].calls[%u]", i, r->n);
    err = entry_parse(c, &r->e[r->n], where, why, len);
  }
  return err;
}

int atl__call_table_parse(const char *text, struct atl__call_table *t, char *why, size_t len)
{
  cJSON *root;
  const cJSON *list = atl__tuning_rows_of(text, ATL__CALL_ROWS, &root, why, len);
  int err = list ? 0 : ATL_EINVAL;
  memset(t, 0, sizeof *t);
  for (const cJSON *o = list ? list->child : NULL; !err && o; o = o->next, t->n++)
    err = row_parse(o, t->n, &t->row[t->n], why, len);
  cJSON_Delete(root);
  if (err)
    t->n = 0;
  return err;
}

static struct atl__call_table table;
static char table_note[320];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void table_load(void)
{
  char path[4096], why[240] = "";
  char *text = NULL;
  if (atl__tuning_file_find("diagnose-calls.json", path, sizeof path) != 0)
    snprintf(table_note, sizeof table_note, "no tuning file (data/tuning/diagnose-calls.json)");
  else if ((text = atl_file_read_text(path, 1 << 20)) == NULL)
    snprintf(table_note, sizeof table_note, "%.200s: unable to read it (at most 1 MiB)", path);
  else if (atl__call_table_parse(text, &table, why, sizeof why) != 0)
    snprintf(table_note, sizeof table_note, "%.100s: %.200s", path, why);
  free(text);
}

const struct atl__call_table *atl__call_table_get(const char **note)
{
  pthread_once(&table_once, table_load);
  *note = table_note;
  return &table;
}

const char *atl__call_access(const struct atl_l2_counters *k, const struct atl_l2_util *u, int smem_hot)
{
  if (smem_hot)
    return "hot";
  if (!k || !u || u->access == ATL_L2_NONE)
    return NULL;
  if (u->access == ATL_L2_SPREAD)
    return "spread";
  return k->requests_max >= 0.5 * k->requests ? "hot" : "head";
}

/* "rows" where a global atomic warp-instruction sends at most a quarter of a warp's L2 requests (its lanes, or their
 * vectors, on a few lines: consecutive elements of rows), "scalar" where it sends about one a lane; NULL where the
 * export lacks the L1 counters. */
static const char *shape_of(const struct atl_l2_counters *k)
{
  const double warp = k->warp_size > 0 ? k->warp_size : 32;
  if (!(k->l1_requests > 0) || !(k->requests > 0))
    return NULL;
  return k->requests / k->l1_requests <= warp / 4 ? "rows" : "scalar";
}

int atl__call_launch_is_job(const struct atl_l2_counters *k)
{
  return k && k->dram_bytes > 0 && k->requests * 32 >= k->dram_bytes / 4;
}

/* The entry of row @p r for @p call (an entry's call a prefix of it), @p access and @p shape (another shape's where
 * the row has none of it; NULL shape: the first); NULL where none. */
static const struct atl__call_entry *entry_of(const struct atl__call_row *r, const char *call, const char *access,
                                              const char *shape)
{
  const struct atl__call_entry *any = NULL;
  for (unsigned i = 0; i < r->n; i++) {
    const struct atl__call_entry *e = &r->e[i];
    if (strncmp(call, e->call, strlen(e->call)) != 0 || strcmp(access, e->access) != 0)
      continue;
    if (!shape || strcmp(shape, e->shape) == 0)
      return e;
    any = any ? any : e;
  }
  return any;
}

static const struct atl__call_row *row_of(const struct atl__call_table *t, const struct atl_l2_counters *k)
{
  char arch[16];
  if (!(k->cc_major >= 0 && k->cc_major < 100 && k->cc_minor >= 0 && k->cc_minor < 10))
    return NULL;
  snprintf(arch, sizeof arch, "sm_%d%d", (int)k->cc_major, (int)k->cc_minor);
  for (unsigned i = 0; i < t->n; i++)
    if (strcmp(t->row[i].arch, arch) == 0)
      return &t->row[i];
  return NULL;
}

void atl__call_price(const struct atl__call_table *t, const char *given_note, const char *call,
                     const struct atl_l2_counters *k, const struct atl_l2_util *u, int smem_hot,
                     const struct atl_l2_calibration *cal, struct atl__call_price *out)
{
  memset(out, 0, sizeof *out);
  const char *note = given_note ? given_note : "";
  if (!t)
    t = atl__call_table_get(&note);
  const struct atl__call_row *r = k ? row_of(t, k) : NULL;
  out->access = atl__call_access(k, u, smem_hot);
  out->shape = k ? shape_of(k) : NULL;
  const double t_ns = k ? k->duration_ns : 0;
  const double peak = k && k->dram_bytes > 0 && k->dram_pct > 0 && t_ns > 0 ? k->dram_bytes / (t_ns * k->dram_pct / 100)
                                                                             : 0;
  out->rate = cal && cal->dram_bytes_per_ns > 0 ? cal->dram_bytes_per_ns : peak;
  out->bytes = k ? k->dram_bytes : 0;
  const struct atl__call_entry *e = NULL;
  if (r && out->access) {
    e = entry_of(r, call ? call : "", out->access, out->shape);
    if (!e && strcmp(out->access, "head") == 0) /* hot words, not one, where the table holds none: the spread law */
      e = entry_of(r, call ? call : "", "spread", out->shape);
  }
  if (!r || !e || !(out->rate > 0) || !(out->bytes > 0)) {
    snprintf(out->note, sizeof out->note, "atomlab's call not priced: %.150s",
             !r ? (*note ? note : "no row of data/tuning/diagnose-calls.json for this architecture")
                : !e ? "no entry of data/tuning/diagnose-calls.json for this call and key law"
                     : "the export counts no DRAM bytes");
    return;
  }
  out->efficiency = e->efficiency;
  out->faster = r->faster;
  out->call_ns = r->launch_us * 1e3 + out->bytes / (out->rate * e->efficiency);
  out->priced = 1;
  snprintf(out->note, sizeof out->note, "atomlab's call priced %.3g us: %.4g MB at %.4g B/ns%s x %.3g (%s, %s) + %g us",
           out->call_ns / 1e3, out->bytes / 1e6, out->rate, cal && cal->dram_bytes_per_ns > 0 ? "" : " (peak)",
           e->efficiency, e->access, e->shape, r->launch_us);
}
