/* The index of reference results (atl_results_index in atomlab/report.h). A headline of the plan:
 *
 *   {"capability": TEXT, "file": "PATH.json" (relative to the entry's folder),
 *    "select": {"FIELD": VALUE, ...}  a row whose configuration (or, in files without one, the row itself) has
 *                                     every FIELD equal to VALUE; the first such row
 *    "metric": NAME                   that row's metric NAME ("time_ms": its median), or
 *    "field": "A.B.C"                 instead of select and metric: a number of the document itself
 *    "unit": TEXT, "scale": N (the figure is shown times N: 100 for a share in %), "better": "higher" | "lower",
 *    "yardstick": {"label": TEXT, "file", "select", "metric" or "field"}}  the same lookups; file defaults to the
 *                                     headline's file
 *
 * The ratio is the headline's speed against the yardstick's: value / yardstick where higher is better, yardstick /
 * value where lower is. The commit, date and device are the file's own (tool.commit, date, device.name), else those
 * the runner recorded beside it (run.json). */
#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "atomlab/file.h"
#include "core/escape.h"
#include "atomlab/report.h"

enum { INDEX_FILE_LIMIT = 64 << 20, INDEX_MAX_SLUGS = 64 };

/** A JSON file read whole, or NULL (missing, not JSON, too large). */
static cJSON *read_json(const char *path)
{
  char *text = atl_file_read_text(path, INDEX_FILE_LIMIT);
  if (text == NULL)
    return NULL;
  cJSON *doc = cJSON_Parse(text);
  free(text);
  return doc;
}

static const cJSON *item(const cJSON *o, const char *key)
{
  return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
}

static const char *string_of(const cJSON *o, const char *key)
{
  const cJSON *v = item(o, key);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

/** The document's value at a dotted path ("summary.shared.median_error"). */
static const cJSON *at_path(const cJSON *doc, const char *path)
{
  char key[128];
  const cJSON *v = doc;
  while (v && *path) {
    size_t n = strcspn(path, ".");
    if (n == 0 || n >= sizeof key)
      return NULL;
    memcpy(key, path, n);
    key[n] = '\0';
    v = item(v, key);
    path += n + (path[n] == '.');
  }
  return v;
}

/** A row's field: its configuration's (format 2) or its own (format 1 rows, peers' rows). */
static const cJSON *row_field(const cJSON *row, const char *key)
{
  const cJSON *v = item(item(row, "config"), key);
  return v ? v : item(row, key);
}

/** Whether the row's @p have equals the plan's @p want (a string or a number). */
static int value_matches(const cJSON *have, const cJSON *want)
{
  if (cJSON_IsString(have) && cJSON_IsString(want))
    return strcmp(have->valuestring, want->valuestring) == 0;
  double w;
  if (cJSON_IsNumber(want))
    w = want->valuedouble;
  else if (cJSON_IsString(want) && *want->valuestring) {
    char *end;
    w = strtod(want->valuestring, &end);
    if (*end)
      return 0;
  } else
    return 0;
  return cJSON_IsNumber(have) && have->valuedouble == w;
}

static const cJSON *find_row(const cJSON *doc, const cJSON *select)
{
  const cJSON *rows = item(doc, "rows");
  if (!cJSON_IsArray(rows))
    rows = item(doc, "results");
  const cJSON *row;
  cJSON_ArrayForEach(row, rows)
  {
    int all = 1;
    const cJSON *want;
    cJSON_ArrayForEach(want, select) all = all && value_matches(row_field(row, want->string), want);
    if (all)
      return row;
  }
  return NULL;
}

/** A row's metric @p name as a number: "time_ms" its median; a metrics object's or list's entry; a field. */
static int row_metric(const cJSON *row, const char *name, double *out)
{
  const cJSON *v = item(row, name);
  if (cJSON_IsObject(v))
    v = item(v, "median");
  const cJSON *m = item(row, "metrics");
  if (!cJSON_IsNumber(v) && cJSON_IsObject(m))
    v = item(m, name);
  if (!cJSON_IsNumber(v) && cJSON_IsArray(m)) {
    const cJSON *e;
    cJSON_ArrayForEach(e, m)
    {
      const char *n = string_of(e, "name");
      if (n && strcmp(n, name) == 0)
        v = item(e, "value");
    }
  }
  if (!cJSON_IsNumber(v))
    v = row_field(row, name);
  if (!cJSON_IsNumber(v))
    return -1;
  *out = v->valuedouble;
  return 0;
}

/** One number the plan names (@p spec: select and metric, or field) in @p doc; -1 with the reason in @p why. */
static int lookup(const cJSON *doc, const cJSON *spec, double *out, char *why, size_t why_len)
{
  const char *field = string_of(spec, "field"), *metric = string_of(spec, "metric");
  if (field) {
    const cJSON *v = at_path(doc, field);
    if (!cJSON_IsNumber(v))
      return snprintf(why, why_len, "no number at %s", field), -1;
    *out = v->valuedouble;
    return 0;
  }
  const cJSON *row = find_row(doc, item(spec, "select"));
  if (row == NULL)
    return snprintf(why, why_len, "no row matches the selection"), -1;
  if (metric == NULL || row_metric(row, metric, out))
    return snprintf(why, why_len, "the row has no metric %s", metric ? metric : "(none named)"), -1;
  return 0;
}

/** Where a file came from: its own record, else the runner's run.json beside it. */
struct provenance {
  char commit[64], date[16], device[160];
};

static void provenance_of(const cJSON *doc, const cJSON *run, struct provenance *p)
{
  const char *commit = string_of(item(doc, "tool"), "commit");
  const char *date = string_of(doc, "date");
  const char *device = string_of(item(doc, "device"), "name");
  if (device == NULL)
    device = string_of(doc, "device");
  if (commit == NULL || *commit == '\0')
    commit = string_of(run, "commit");
  if (date == NULL)
    date = string_of(run, "date");
  snprintf(p->commit, sizeof p->commit, "%s", commit && *commit ? commit : "unknown");
  snprintf(p->date, sizeof p->date, "%.10s", date ? date : "?");
  if (device) /* else the device folder's slug, set by the caller */
    snprintf(p->device, sizeof p->device, "%s", device);
}

/** A number as the index prints it: four significant digits, no exponent above 1000. */
static const char *fmt_num(char *buf, size_t len, double v)
{
  if (fabs(v) >= 1000)
    snprintf(buf, len, "%.0f", v);
  else
    snprintf(buf, len, "%.4g", v);
  return buf;
}

static int proven(const char *commit)
{
  if (strcmp(commit, "unknown") == 0 || strstr(commit, "dirty"))
    return 0;
  for (const char *c = commit; *c; c++)
    if (!isxdigit((unsigned char)*c))
      return 0;
  return *commit != '\0';
}

struct entry_ctx {
  const char *results, *slug, *name;
  char dir[1024];
  cJSON *run; /* run.json, or NULL */
};

/** The headline's figure and ratio cells for one device; 0, or -1 with the reason in @p why. */
static int headline_cells(const struct entry_ctx *e, const cJSON *h, struct provenance *p, char *figure,
                          size_t flen, char *ratio, size_t rlen, char *why, size_t why_len)
{
  const char *file = string_of(h, "file");
  char path[1400], num[64];
  snprintf(path, sizeof path, "%s/%s", e->dir, file ? file : "");
  cJSON *doc = read_json(path);
  if (doc == NULL)
    return snprintf(why, why_len, "%s: missing or not JSON", file ? file : "(no file named)"), -1;
  provenance_of(doc, e->run, p);
  double v = 0, y = 0;
  int rc = lookup(doc, h, &v, why, why_len);
  const char *unit = string_of(h, "unit");
  const cJSON *scale = item(h, "scale");
  const double shown = cJSON_IsNumber(scale) ? v * scale->valuedouble : v;
  snprintf(figure, flen, "%s%s%s", rc ? "" : fmt_num(num, sizeof num, shown), unit && *unit ? " " : "", unit ? unit : "");
  const cJSON *ys = item(h, "yardstick");
  *ratio = '\0';
  if (rc == 0 && ys) {
    const char *yfile = string_of(ys, "file");
    cJSON *ydoc = doc;
    if (yfile) {
      snprintf(path, sizeof path, "%s/%s", e->dir, yfile);
      ydoc = read_json(path);
    }
    if (ydoc == NULL) {
      snprintf(why, why_len, "%s: missing or not JSON", yfile);
      rc = -1;
    } else
      rc = lookup(ydoc, ys, &y, why, why_len);
    if (ydoc != doc)
      cJSON_Delete(ydoc);
    const char *better = string_of(h, "better"), *label = string_of(ys, "label");
    const int lower = better && strcmp(better, "lower") == 0;
    if (rc == 0 && (lower ? v : y) != 0)
      snprintf(ratio, rlen, "%.2fx %s", lower ? y / v : v / y, label ? label : "the yardstick");
    else if (rc == 0) {
      snprintf(why, why_len, "a zero divisor");
      rc = -1;
    }
  }
  cJSON_Delete(doc);
  return rc;
}

/** One table row: the headline @p h on device @p e->slug. */
static void write_row(FILE *out, const struct entry_ctx *e, const cJSON *h, struct atl_results_index_counts *counts)
{
  struct provenance p = {"unknown", "?", "?"};
  char figure[128], ratio[256], why[256] = "";
  const char *cap = string_of(h, "capability"), *file = string_of(h, "file");
  snprintf(p.device, sizeof p.device, "%s", e->slug);
  if (headline_cells(e, h, &p, figure, sizeof figure, ratio, sizeof ratio, why, sizeof why)) {
    snprintf(figure, sizeof figure, "not found");
    snprintf(ratio, sizeof ratio, "%s", why);
    counts->missing++;
  }
  counts->rows++;
  const int ok = proven(p.commit);
  counts->unproven += !ok;
  fputs("| ", out);
  atl__esc_md(out, cap ? cap : e->name);
  fputs(" | ", out);
  atl__esc_md(out, figure);
  fputs(" | ", out);
  atl__esc_md(out, ratio);
  fputs(" | ", out);
  atl__esc_md(out, p.device);
  fputs(" | ", out);
  atl__esc_md(out, p.commit);
  fputs(ok ? "" : " (not a clean commit)", out);
  fputs(" | ", out);
  atl__esc_md(out, p.date);
  fputs(" | [", out);
  atl__esc_md(out, file ? file : "?");
  fputs("](", out);
  char link[1400];
  snprintf(link, sizeof link, "reference/%s/%s/%s", e->slug, e->name, file ? file : "");
  atl__esc_url(out, link);
  fputs(") |\n", out);
}

static int cmp_str(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/** The device folders under RESULTS/reference, sorted; their count, or -1 when the folder does not open. */
static int list_slugs(const char *results, char **slugs, int max)
{
  char path[1100];
  snprintf(path, sizeof path, "%s/reference", results);
  DIR *d = opendir(path);
  if (d == NULL)
    return -1;
  int n = 0;
  struct dirent *de;
  while ((de = readdir(d)) != NULL && n < max) {
    if (de->d_name[0] == '.')
      continue;
    char sub[1400];
    snprintf(sub, sizeof sub, "%s/%s", path, de->d_name);
    DIR *s = opendir(sub);
    if (s == NULL)
      continue;
    closedir(s);
    slugs[n] = strdup(de->d_name);
    n += slugs[n] != NULL;
  }
  closedir(d);
  qsort(slugs, (size_t)n, sizeof *slugs, cmp_str);
  return n;
}

static void write_head(FILE *out, const char *plan_path)
{
  fputs("# Reference results\n\n"
        "Written by `atomlab results index` from the files under `reference/<device>/<measurement>/` and the\n"
        "headlines that ",
        out);
  atl__esc_md(out, plan_path);
  fputs(" names; do not edit it by hand. `atomlab results index --check` fails when\n"
        "this page and the files disagree. `bash scripts/gpu/reference.sh` measures every entry of the plan on a GPU\n"
        "machine (each folder holds its command's log.txt and run.json).\n\n"
        "The ratio is the figure's speed against its yardstick, measured in the same run (above 1: faster). A commit\n"
        "marked \"not a clean commit\" is dirty or unknown: that number names no source.\n\n"
        "| capability | figure | against its yardstick | device | commit | date | file |\n"
        "|---|---|---|---|---|---|---|\n",
        out);
}

int atl_results_index(const char *plan_path, const char *results, FILE *out, struct atl_results_index_counts *counts,
                       char *why, size_t why_len)
{
  memset(counts, 0, sizeof *counts);
  cJSON *plan = read_json(plan_path);
  const cJSON *entries = item(plan, "entries");
  if (!cJSON_IsArray(entries)) {
    cJSON_Delete(plan);
    return snprintf(why, why_len, "%s: not a plan (a JSON object with an \"entries\" list)", plan_path), -1;
  }
  char *slugs[INDEX_MAX_SLUGS];
  const int n = list_slugs(results, slugs, INDEX_MAX_SLUGS);
  if (n < 0) {
    cJSON_Delete(plan);
    return snprintf(why, why_len, "%s/reference: not a folder", results), -1;
  }
  write_head(out, plan_path);
  const cJSON *e;
  cJSON_ArrayForEach(e, entries)
  {
    const cJSON *hs = item(e, "headlines"), *h;
    cJSON_ArrayForEach(h, hs) for (int i = 0; i < n; i++)
    {
      struct entry_ctx ctx = {results, slugs[i], string_of(e, "name"), "", NULL};
      if (ctx.name == NULL)
        continue;
      snprintf(ctx.dir, sizeof ctx.dir, "%s/reference/%s/%s", results, ctx.slug, ctx.name);
      DIR *d = opendir(ctx.dir);
      if (d == NULL) /* not measured on this device */
        continue;
      closedir(d);
      char run[1100];
      snprintf(run, sizeof run, "%s/run.json", ctx.dir);
      ctx.run = read_json(run);
      write_row(out, &ctx, h, counts);
      cJSON_Delete(ctx.run);
    }
  }
  if (counts->rows == 0)
    fputs("| (no reference results yet) | | | | | | |\n", out);
  for (int i = 0; i < n; i++)
    free(slugs[i]);
  cJSON_Delete(plan);
  return 0;
}
