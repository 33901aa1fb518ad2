/* The writers of a comparison (atl_compare): a table for people, CSV and
 * JSON for tools, with the configuration fields either set has as columns. */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "atomlab.h"

/* Whether the @p n bytes at @p name are a configuration field of some row kind. */
int atl_config_field_known(const char *name, size_t n)
{
  for (const struct atl_row_kind *k = atl_row_kinds(); k->name; k++)
    for (const char *const *f = k->config; *f; f++)
      if (strlen(*f) == n && strncmp(*f, name, n) == 0)
        return 1;
  return 0;
}

/* "contiguous fetch_add u32 ... c=4 p=1 wg=256x2": the configuration, short. */
static void label(const struct atl_row *r, char *out, size_t len)
{
  size_t used = 0;
  out[0] = '\0';
  for (unsigned i = 0; i < r->nconfig && used + 1 < len; i++) {
    const char *f = r->config[i].name, *v = r->config[i].text;
    if (strcmp(f, "workgroups") == 0)
      continue;
    const char *prefix = strcmp(f, "contention") == 0 ? "c="
                         : strcmp(f, "padding") == 0  ? "p="
                         : strcmp(f, "wg_size") == 0  ? "wg="
                                                      : "";
    const char *groups = strcmp(f, "wg_size") == 0 ? atl_row_config(r, "workgroups") : NULL;
    int n = snprintf(out + used, len - used, "%s%s%s%s%s", used ? " " : "", prefix, v, groups ? "x" : "",
                     groups ? groups : "");
    if (n > 0)
      used = used + (size_t)n < len ? used + (size_t)n : len - 1;
  }
  char raw[256];
  snprintf(raw, sizeof raw, "%s", out);
  atl_esc_terminal_str(out, len, raw); /* a value from the file must not drive the terminal */
}

/* The configuration fields any row of either set has, in the order they first appear: the CSV and JSON columns. */
struct fields {
  const char *names[64];
  size_t count;
};

static void present_fields(const struct atl_result_set *a, const struct atl_result_set *b, struct fields *f)
{
  f->count = 0;
  for (const struct atl_result_set *s = a; s; s = s == a ? b : NULL)
    for (size_t r = 0; r < s->count; r++)
      for (unsigned c = 0; c < s->rows[r].nconfig; c++) {
        const char *name = s->rows[r].config[c].name;
        size_t k = 0;
        while (k < f->count && strcmp(f->names[k], name) != 0)
          k++;
        if (k == f->count && f->count < sizeof f->names / sizeof f->names[0])
          f->names[f->count++] = name;
      }
}

static void write_table(FILE *out, const struct atl_comparison *c)
{
  /* The configuration column is as wide as its longest label. */
  int width = 13;
  for (size_t i = 0; i < c->count; i++) {
    char lab[256];
    if (c->pairs[i].a && c->pairs[i].b) {
      label(c->pairs[i].a, lab, sizeof lab);
      width = (int)strlen(lab) > width ? (int)strlen(lab) : width;
    }
  }
  fprintf(out, "%-*s %10s %9s %10s %9s %8s %-8s %s\n", width, "configuration", "A_ms", "A_iqr", "B_ms", "B_iqr", "B/A",
          "verdict", "flags");
  for (size_t i = 0; i < c->count; i++) {
    const struct atl_compare_pair *p = &c->pairs[i];
    if (!p->a || !p->b)
      continue;
    char lab[256];
    label(p->a, lab, sizeof lab);
    if (!p->ta.timed || !p->tb.timed)
      fprintf(out, "%-*s %10s %9s %10s %9s %8s %-8s %s\n", width, lab, "-", "-", "-", "-", "-",
              atl_verdict_name(p->verdict), p->flags);
    else
      fprintf(out, "%-*s %10.4f %9.4f %10.4f %9.4f %8.3f %-8s %s\n", width, lab, p->ta.median, p->ta.q3 - p->ta.q1,
              p->tb.median, p->tb.q3 - p->tb.q1, p->ratio, atl_verdict_name(p->verdict), p->flags);
  }
  for (size_t i = 0; i < c->count; i++) {
    const struct atl_compare_pair *p = &c->pairs[i];
    if (p->a && p->b)
      continue;
    char lab[256];
    label(p->a ? p->a : p->b, lab, sizeof lab);
    fprintf(out, "%s %s: %s\n", p->duplicate ? "duplicate in" : "only in", p->a ? "A" : "B", lab);
  }
  size_t matched = 0;
  for (int v = 0; v < ATL_VERDICT_COUNT; v++)
    matched += c->counts[v];
  fprintf(out, "summary: %zu matched (", matched);
  for (int v = 0; v < ATL_VERDICT_COUNT; v++)
    fprintf(out, "%s%zu %s", v ? ", " : "", c->counts[v], atl_verdict_name((enum atl_verdict)v));
  fprintf(out, "), %zu only in A, %zu only in B, %zu flagged; threshold %g%%\n", c->only_a, c->only_b, c->flagged,
          c->threshold * 100);
  if (c->duplicates_a || c->duplicates_b)
    fprintf(out, "duplicates: %zu rows of A and %zu of B repeat the configuration of an earlier row of their file "
                 "(flag duplicate; unmatched ones are listed as duplicates, not as only in one file)\n",
            c->duplicates_a, c->duplicates_b);
  if (c->implausible)
    fprintf(out, "implausible: %zu rows have a median below 1 ns or above a day per launch, or a rate above 10^6 "
                 "Gop/s: no measurement, left out of the ratios (flag implausible)\n", c->implausible);
  if (c->timed)
    fprintf(out, "geometric mean of B/A time over %zu rows: %.4f (B is %.3fx the speed of A)\n", c->timed, c->geomean,
            1 / c->geomean);
  if (c->instructions_differ || c->iters_differ)
    fprintf(out, "not the same work: %zu pairs emitted other atomic instructions (instructions-differ), %zu ran "
                 "iteration counts more than 25%% apart (iters-differ)\n", c->instructions_differ, c->iters_differ);
  if (c->noisy)
    fprintf(out, "noisy: %zu pairs have a side whose noise stayed above its run's target: their verdicts are weaker\n",
            c->noisy);
}

static void write_csv(FILE *out, const struct atl_comparison *c, const struct fields *f)
{
  for (size_t i = 0; i < f->count; i++)
    fprintf(out, "%s,", f->names[i]);
  fprintf(out,
          "a_status,a_verified,a_median_ms,a_q1_ms,a_q3_ms,b_status,b_verified,b_median_ms,b_q1_ms,b_q3_ms,"
          "time_ratio,verdict,flags\n");
  for (size_t i = 0; i < c->count; i++) {
    const struct atl_compare_pair *p = &c->pairs[i];
    const struct atl_row *any = p->a ? p->a : p->b;
    for (size_t k = 0; k < f->count; k++) {
      const char *v = atl_row_config(any, f->names[k]);
      atl_csv_field(out, v ? v : "");
      fputc(',', out);
    }
    const struct atl_row *rows[2] = {p->a, p->b};
    const struct atl_row_times *times[2] = {&p->ta, &p->tb};
    for (int k = 0; k < 2; k++) {
      if (rows[k])
        fprintf(out, "%s,%d,%.6f,%.6f,%.6f,", atl_status_name(rows[k]->status), rows[k]->verified,
                times[k]->median, times[k]->q1, times[k]->q3);
      else
        fprintf(out, ",,,,,");
    }
    const char *v = !p->b ? (p->duplicate ? "duplicate_a" : "only_a")
                    : !p->a ? (p->duplicate ? "duplicate_b" : "only_b")
                            : atl_verdict_name(p->verdict);
    if (p->a && p->b && p->ta.timed && p->tb.timed)
      fprintf(out, "%.6f,%s,", p->ratio, v);
    else
      fprintf(out, ",%s,", v);
    atl_csv_field(out, p->flags);
    fputc('\n', out);
  }
}

static cJSON *side_json(const char *path, const struct atl_result_set *s)
{
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "path", path);
  cJSON_AddStringToObject(o, "device", s->meta.device.name);
  cJSON_AddStringToObject(o, "backend", s->meta.device.backend);
  cJSON_AddStringToObject(o, "commit", s->meta.git_commit);
  cJSON_AddStringToObject(o, "date", s->meta.date);
  cJSON_AddNumberToObject(o, "format_version", s->format_version);
  return o;
}

static cJSON *row_side_json(const struct atl_row *r, const struct atl_row_times *t)
{
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "status", atl_status_name(r->status));
  if (t->implausible)
    cJSON_AddStringToObject(o, "implausible", t->implausible);
  cJSON_AddBoolToObject(o, "verified", r->verified);
  cJSON_AddNumberToObject(o, "median_ms", t->median);
  cJSON_AddNumberToObject(o, "q1_ms", t->q1);
  cJSON_AddNumberToObject(o, "q3_ms", t->q3);
  cJSON_AddNumberToObject(o, "samples", (double)t->samples);
  return o;
}

static void write_json(FILE *out, const char *const *paths, const struct atl_result_set *a,
                       const struct atl_result_set *b, const struct atl_comparison *c, const struct fields *f)
{
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "kind", "compare");
  cJSON_AddNumberToObject(root, "threshold_pct", c->threshold * 100);
  cJSON_AddStringToObject(root, "rule",
                          "faster/slower: |B/A - 1| > threshold and the IQRs do not overlap; "
                          "unclear: beyond the threshold but overlapping; same: within the threshold");
  cJSON_AddItemToObject(root, "a", side_json(paths[0], a));
  cJSON_AddItemToObject(root, "b", side_json(paths[1], b));
  cJSON *rows = cJSON_AddArrayToObject(root, "rows");
  cJSON *only_a = cJSON_AddArrayToObject(root, "only_a"), *only_b = cJSON_AddArrayToObject(root, "only_b");
  cJSON *dup_a = cJSON_AddArrayToObject(root, "duplicate_a"), *dup_b = cJSON_AddArrayToObject(root, "duplicate_b");
  for (size_t i = 0; i < c->count; i++) {
    const struct atl_compare_pair *p = &c->pairs[i];
    const struct atl_row *any = p->a ? p->a : p->b;
    cJSON *o = cJSON_CreateObject();
    for (size_t k = 0; k < f->count; k++)
      for (unsigned v = 0; v < any->nconfig; v++)
        if (strcmp(any->config[v].name, f->names[k]) == 0)
          cJSON_AddItemToObject(o, f->names[k],
                                any->config[v].is_number ? cJSON_CreateNumber(strtod(any->config[v].text, NULL))
                                                         : cJSON_CreateString(any->config[v].text));
    if (!p->a || !p->b) {
      cJSON_AddItemToArray(p->a ? (p->duplicate ? dup_a : only_a) : (p->duplicate ? dup_b : only_b), o);
      continue;
    }
    cJSON_AddItemToObject(o, "a", row_side_json(p->a, &p->ta));
    cJSON_AddItemToObject(o, "b", row_side_json(p->b, &p->tb));
    if (p->ta.timed && p->tb.timed)
      cJSON_AddNumberToObject(o, "time_ratio", p->ratio);
    cJSON_AddStringToObject(o, "verdict", atl_verdict_name(p->verdict));
    cJSON_AddStringToObject(o, "flags", p->flags);
    cJSON_AddItemToArray(rows, o);
  }
  cJSON *sum = cJSON_AddObjectToObject(root, "summary");
  for (int v = 0; v < ATL_VERDICT_COUNT; v++)
    cJSON_AddNumberToObject(sum, atl_verdict_name((enum atl_verdict)v), (double)c->counts[v]);
  cJSON_AddNumberToObject(sum, "only_a", (double)c->only_a);
  cJSON_AddNumberToObject(sum, "only_b", (double)c->only_b);
  cJSON_AddNumberToObject(sum, "duplicate_a", (double)c->duplicates_a);
  cJSON_AddNumberToObject(sum, "duplicate_b", (double)c->duplicates_b);
  cJSON_AddNumberToObject(sum, "implausible", (double)c->implausible);
  cJSON_AddNumberToObject(sum, "flagged", (double)c->flagged);
  cJSON_AddNumberToObject(sum, "instructions_differ", (double)c->instructions_differ);
  cJSON_AddNumberToObject(sum, "iters_differ", (double)c->iters_differ);
  cJSON_AddNumberToObject(sum, "noisy", (double)c->noisy);
  cJSON_AddNumberToObject(sum, "timed", (double)c->timed);
  if (c->timed)
    cJSON_AddNumberToObject(sum, "geomean_time_ratio", c->geomean);
  else
    cJSON_AddNullToObject(sum, "geomean_time_ratio");
  char *text = cJSON_Print(root);
  if (text) {
    fputs(text, out);
    fputc('\n', out);
  }
  free(text);
  cJSON_Delete(root);
}

int atl_comparison_write(FILE *out, enum atl_format format, const struct atl_comparison *c,
                         const struct atl_result_set *a, const struct atl_result_set *b, const char *const paths[2])
{
  struct fields fields;
  present_fields(a, b, &fields);
  if (format == ATL_FORMAT_CSV)
    write_csv(out, c, &fields);
  else if (format == ATL_FORMAT_JSON)
    write_json(out, paths, a, b, c, &fields);
  else
    write_table(out, c);
  return ferror(out) ? ATL_EIO : 0;
}
