/* atomlab compare: two result files, row by row, with a verdict that
 * respects the noise the samples show (docs/metrics.md states the rule). */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include <cjson/cJSON.h>


static const char usage[] =
    "usage: atomlab compare A.json B.json [--threshold PCT] [--ignore FIELDS] [--format table|csv|json] [-o FILE]\n\n"
    "Matches the rows of two result files by configuration (pattern, op, type, space,\n"
    "result, scope, order, contention, padding, wg_size, workgroups, strategy) and\n"
    "says for each whether B is faster, slower, the same as A, or unclear:\n"
    "  faster/slower  the medians differ by more than PCT and the IQRs do not overlap\n"
    "  unclear        the medians differ by more than PCT but the IQRs overlap\n"
    "  same           the medians are within PCT of each other\n"
    "  n/a            a row has no time (status not ok)\n"
    "Rows only one file holds are listed; rows that are not ok or not verified are\n"
    "flagged. Pairs that did not run the same work are noted: other atomic\n"
    "instructions (instructions-differ) or iteration counts more than 25% apart\n"
    "(iters-differ); a side above its run's noise target is noted (noisy). A summary counts the verdicts and gives the geometric mean of\n"
    "the B/A time ratios. Different devices or format versions give a warning line.\n\n"
    "  --threshold PCT  relative difference of the medians that counts  [5]\n"
    "  --ignore FIELDS  configuration fields left out of the match, e.g. wg_size,workgroups\n"
    "                   (two backends size their grids by their own occupancy)\n"
    "  --format F       table, csv or json  [table; with -o: from the extension]\n"
    "  -o FILE          write there (through a temporary name) instead of stdout\n"
    "  --describe       what each output field means (docs/metrics.md)\n\n"
    "Exit status: 0 compared; 2 bad usage or a file that is not an atomlab result.\n";

/* Whether the @p n bytes at @p name are a configuration field of some row kind. */
static int config_field(const char *name, size_t n)
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
    if (p->verdict == ATL_VERDICT_NA)
      fprintf(out, "%-*s %10s %9s %10s %9s %8s %-8s %s\n", width, lab, "-", "-", "-", "-", "-", "n/a", p->flags);
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
    fprintf(out, "only in %s: %s\n", p->a ? "A" : "B", lab);
  }
  size_t matched = 0;
  for (int v = 0; v < ATL_VERDICT_COUNT; v++)
    matched += c->counts[v];
  fprintf(out, "summary: %zu matched (", matched);
  for (int v = 0; v < ATL_VERDICT_COUNT; v++)
    fprintf(out, "%s%zu %s", v ? ", " : "", c->counts[v], atl_verdict_name((enum atl_verdict)v));
  fprintf(out, "), %zu only in A, %zu only in B, %zu flagged; threshold %g%%\n", c->only_a, c->only_b, c->flagged,
          c->threshold * 100);
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
    const char *v = !p->b ? "only_a" : !p->a ? "only_b" : atl_verdict_name(p->verdict);
    if (p->a && p->b && p->verdict != ATL_VERDICT_NA)
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
      cJSON_AddItemToArray(p->a ? only_a : only_b, o);
      continue;
    }
    cJSON_AddItemToObject(o, "a", row_side_json(p->a, &p->ta));
    cJSON_AddItemToObject(o, "b", row_side_json(p->b, &p->tb));
    if (p->verdict != ATL_VERDICT_NA)
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

int cmd_compare(int argc, char **argv)
{
  enum { O_THRESHOLD = 256, O_FORMAT, O_IGNORE };
  static const struct option longopts[] = {{"threshold", required_argument, NULL, O_THRESHOLD},
                                           {"ignore", required_argument, NULL, O_IGNORE},
                                           {"format", required_argument, NULL, O_FORMAT},
                                           {"output", required_argument, NULL, 'o'},
                                           {"help", no_argument, NULL, 'h'},
                                           {0}};
  double threshold = 0.05;
  int format = -1, c;
  const char *out_path = NULL, *ignore = NULL;
  optind = 1;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
    switch (c) {
    case O_THRESHOLD: {
      char *end;
      double pct = strtod(optarg, &end);
      if (*optarg == '\0' || *end != '\0' || !(pct >= 0 && pct <= 1000))
        die_usage("--threshold '%s' is not allowed: a percentage from 0 to 1000", optarg);
      threshold = pct / 100;
      break;
    }
    case O_FORMAT:
      if ((format = atl_format_parse(optarg)) < 0)
        die_usage("--format '%s' is not known: allowed: table, csv, json", optarg);
      break;
    case 'o':
      out_path = optarg;
      break;
    case O_IGNORE:
      for (const char *p = optarg; *p; p += *p == ',') {
        const size_t n = strcspn(p, ",");
        if (!config_field(p, n))
          die_usage("--ignore '%.*s' is not a configuration field (see 'atomlab compare --help')", (int)n, p);
        p += n;
      }
      ignore = optarg;
      break;
    case 'h':
      fputs(usage, stdout);
      return EXIT_OK;
    default:
      cli_bad_option("compare", "compare", c, argv);
    }
  }
  if (argc - optind != 2)
    die_usage("compare takes two result files, A.json and B.json (see 'atomlab compare --help')");
  if (out_path) {
    cli_check_output("-o", out_path);
    format = cli_output_format("-o", out_path, format >= 0 ? format : ATL_FORMAT_TABLE);
  }
  if (format < 0)
    format = ATL_FORMAT_TABLE;

  struct atl_result_set a, b;
  const char *paths[2] = {argv[optind], argv[optind + 1]};
  char why[1200];
  if (atl_read_json(paths[0], &a, why, sizeof why))
    die_usage("%s", why);
  if (atl_read_json(paths[1], &b, why, sizeof why)) {
    atl_result_set_release(&a);
    die_usage("%s", why);
  }
  if (strcmp(a.meta.device.name, b.meta.device.name) != 0 || strcmp(a.meta.device.backend, b.meta.device.backend) != 0)
    fprintf(stderr, "warning: A was measured on %s (%s), B on %s (%s): the ratios compare devices, not variants\n",
            a.meta.device.name, a.meta.device.backend, b.meta.device.name, b.meta.device.backend);
  if (a.format_version != b.format_version)
    fprintf(stderr, "note: A has format_version %d, B %d: both are read as version %d rows\n", a.format_version,
            b.format_version, ATL_FORMAT_VERSION);

  struct atl_comparison cmp;
  if (atl_compare(&a, &b, threshold, ignore, &cmp) != 0)
    die("out of memory");
  struct fields fields;
  present_fields(&a, &b, &fields);

  char *text = NULL;
  size_t len = 0;
  FILE *out = out_path ? open_memstream(&text, &len) : stdout;
  if (out == NULL)
    die("out of memory");
  if (format == ATL_FORMAT_CSV)
    write_csv(out, &cmp, &fields);
  else if (format == ATL_FORMAT_JSON)
    write_json(out, paths, &a, &b, &cmp, &fields);
  else
    write_table(out, &cmp);
  int rc = EXIT_OK;
  if (out_path) {
    fclose(out);
    if (cli_write_text(out_path, text, len) != 0) {
      rc = EXIT_MEASURE;
    } else {
      fprintf(stderr,
              "wrote %s: %zu same, %zu faster, %zu slower, %zu unclear, %zu n/a, %zu only in A, %zu only in B\n",
              out_path, cmp.counts[ATL_VERDICT_SAME], cmp.counts[ATL_VERDICT_FASTER], cmp.counts[ATL_VERDICT_SLOWER],
              cmp.counts[ATL_VERDICT_UNCLEAR], cmp.counts[ATL_VERDICT_NA], cmp.only_a, cmp.only_b);
    }
    free(text);
  }
  atl_comparison_release(&cmp);
  atl_result_set_release(&a);
  atl_result_set_release(&b);
  return rc;
}
