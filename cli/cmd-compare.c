/* atomlab compare: two result files, row by row, with a verdict that
 * respects the noise the samples show (docs/metrics.md states the rule). */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include <cjson/cJSON.h>

#include "resultfile.h"

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
    "(iters-differ). A summary counts the verdicts and gives the geometric mean of\n"
    "the B/A time ratios. Different devices or format versions give a warning line.\n\n"
    "  --threshold PCT  relative difference of the medians that counts  [5]\n"
    "  --ignore FIELDS  configuration fields left out of the match, e.g. wg_size,workgroups\n"
    "                   (two backends size their grids by their own occupancy)\n"
    "  --format F       table, csv or json  [table; with -o: from the extension]\n"
    "  -o FILE          write there (through a temporary name) instead of stdout\n"
    "  --describe       what each output field means (docs/metrics.md)\n\n"
    "Exit status: 0 compared; 2 bad usage or a file that is not an atomlab result.\n";

enum verdict { V_SAME, V_FASTER, V_SLOWER, V_UNCLEAR, V_NA, V_COUNT };
static const char *const verdict_names[V_COUNT] = {"same", "faster", "slower", "unclear", "n/a"};

struct pair {
  const struct rf_row *a, *b; /* one may be NULL: an unmatched row */
  enum verdict verdict;
  double ratio; /* B median / A median (time): below 1 means B is faster */
  char flags[128];
  int flagged;  /* a side not ok or not verified (the notes below aside) */
  unsigned notes; /* NOTE_* */
};

/* Where the two rows did not run the same work, whatever their configuration says. */
enum { NOTE_INSTRUCTIONS = 1, NOTE_ITERS = 2 };

/* The rule of docs/metrics.md: a difference beyond the threshold counts only
 * where the IQR intervals are apart, so noise alone never reads as a change. */
static enum verdict decide(const struct rf_row *a, const struct rf_row *b, double threshold, double *ratio)
{
  *ratio = 0;
  if (!rf_row_timed(a) || !rf_row_timed(b))
    return V_NA;
  *ratio = b->median / a->median;
  if (fabs(*ratio - 1) <= threshold)
    return V_SAME;
  if (b->q3 < a->q1)
    return V_FASTER;
  if (b->q1 > a->q3)
    return V_SLOWER;
  return V_UNCLEAR;
}

static void add_flags(char *flags, size_t len, const char *side, const struct rf_row *r)
{
  size_t used = strlen(flags);
  if (strcmp(r->status, "ok") != 0)
    used += (size_t)snprintf(flags + used, len - used, "%s%s:%s", used ? "," : "", side, r->status);
  else if (r->verified == 0)
    snprintf(flags + used, len - used, "%s%s:not-verified", used ? "," : "", side);
}

/* Whether two rows' atomic instructions differ, their counts aside ("REDG.E.ADD x5, ATOMG.E.CAS x1"):
 * what decides whether two backends or builds ran the same code. Unknown on either side is no difference. */
static int instructions_differ(const char *a, const char *b)
{
  if (!a[0] || !b[0] || strncmp(a, "unknown", 7) == 0 || strncmp(b, "unknown", 7) == 0)
    return 0;
  for (int side = 0; side < 2; side++) /* every mnemonic of one is among the other's */
    for (const char *p = side ? b : a, *other = side ? a : b; *p;) {
      size_t n = strcspn(p, ","), m = n;
      while (m > 0 && p[m - 1] != 'x' && p[m - 1] != ' ')
        m--; /* " xN" off the end */
      m = m > 1 && p[m - 1] == 'x' && p[m - 2] == ' ' ? m - 2 : n;
      int found = 0;
      for (const char *q = other; *q && !found; q += strcspn(q, ","), q += *q == ',', q += *q == ' ')
        found = strncmp(q, p, m) == 0 && (q[m] == ' ' || q[m] == ',' || q[m] == '\0');
      if (!found)
        return 1;
      p += n;
      p += *p == ',';
      p += *p == ' ';
    }
  return 0;
}

/* The notes of a matched pair: each backend (or run) calibrates its own iteration count, and for some
 * patterns the count changes the experiment (docs/crosscheck.md): more than 25% apart is other work. */
static void add_notes(struct pair *p)
{
  const double ia = rf_number(p->a, "iters", 0), ib = rf_number(p->b, "iters", 0);
  if (instructions_differ(p->a->row->instructions, p->b->row->instructions))
    p->notes |= NOTE_INSTRUCTIONS;
  if (ia > 0 && ib > 0 && (ia / ib > 1.25 || ib / ia > 1.25))
    p->notes |= NOTE_ITERS;
  size_t used = strlen(p->flags);
  if (p->notes & NOTE_INSTRUCTIONS)
    used += (size_t)snprintf(p->flags + used, sizeof p->flags - used, "%sinstructions-differ", used ? "," : "");
  if (p->notes & NOTE_ITERS)
    snprintf(p->flags + used, sizeof p->flags - used, "%siters-differ", used ? "," : "");
}

/* "contiguous fetch_add u32 ... c=4 p=1 wg=256x2": the configuration, short. */
static void label(const struct rf_row *r, char *out, size_t len)
{
  size_t used = 0;
  out[0] = '\0';
  for (size_t i = 0; i < rf_config_count && used + 1 < len; i++) {
    char buf[64];
    const char *f = rf_config_fields[i], *v = rf_field(r, f, buf, sizeof buf);
    if (!v[0] || strcmp(f, "workgroups") == 0)
      continue;
    const char *prefix = strcmp(f, "contention") == 0 ? "c="
                         : strcmp(f, "padding") == 0  ? "p="
                         : strcmp(f, "wg_size") == 0  ? "wg="
                                                      : "";
    int n = snprintf(out + used, len - used, "%s%s%s", used ? " " : "", prefix, v);
    if (n > 0)
      used = used + (size_t)n < len ? used + (size_t)n : len - 1;
    const char *wgs = strcmp(f, "wg_size") == 0 ? rf_field(r, "workgroups", buf, sizeof buf) : "";
    if (wgs[0] && used + 1 < len) {
      n = snprintf(out + used, len - used, "x%s", wgs);
      if (n > 0)
        used = used + (size_t)n < len ? used + (size_t)n : len - 1;
    }
  }
}

/* The row's key without the fields --ignore names, so that rows differing only there pair up. */
static void match_key(const struct rf_row *r, const char *ignore, char *out, size_t len)
{
  size_t used = 0;
  out[0] = '\0';
  for (const char *p = r->key; *p; p += *p == ';') {
    const size_t n = strcspn(p, ";"), name = strcspn(p, "=");
    char field[64];
    snprintf(field, sizeof field, "%.*s", (int)(name < n ? name : n), p);
    if (!ignore || !cli_list_has(ignore, field)) {
      int k = snprintf(out + used, len - used, "%s%.*s", used ? ";" : "", (int)n, p);
      used = k > 0 && used + (size_t)k < len ? used + (size_t)k : used;
    }
    p += n;
  }
}

/* Which configuration fields any row of either file has: the CSV and JSON columns. */
static void present_fields(const struct rf_file *a, const struct rf_file *b, int *present)
{
  for (size_t i = 0; i < rf_config_count; i++) {
    present[i] = 0;
    for (const struct rf_file *f = a; f; f = f == a ? b : NULL)
      for (size_t r = 0; r < f->count && !present[i]; r++)
        present[i] = atl_row_config(f->rows[r].row, rf_config_fields[i]) != NULL;
  }
}

struct summary {
  size_t counts[V_COUNT], only_a, only_b, flagged, timed, instructions_differ, iters_differ;
  double geomean; /* of B/A time ratios over the rows both timed */
};

static void summarize(const struct pair *pairs, size_t n, struct summary *s)
{
  memset(s, 0, sizeof *s);
  double logsum = 0;
  for (size_t i = 0; i < n; i++) {
    const struct pair *p = &pairs[i];
    if (!p->b)
      s->only_a++;
    else if (!p->a)
      s->only_b++;
    else {
      s->counts[p->verdict]++;
      s->flagged += p->flagged;
      s->instructions_differ += (p->notes & NOTE_INSTRUCTIONS) != 0;
      s->iters_differ += (p->notes & NOTE_ITERS) != 0;
      if (p->verdict != V_NA) {
        logsum += log(p->ratio);
        s->timed++;
      }
    }
  }
  s->geomean = s->timed ? exp(logsum / (double)s->timed) : 0;
}

static void write_table(FILE *out, const struct pair *pairs, size_t n, const struct summary *s, double threshold)
{
  /* The configuration column is as wide as its longest label. */
  int width = 13;
  for (size_t i = 0; i < n; i++) {
    char lab[256];
    if (pairs[i].a && pairs[i].b) {
      label(pairs[i].a, lab, sizeof lab);
      width = (int)strlen(lab) > width ? (int)strlen(lab) : width;
    }
  }
  fprintf(out, "%-*s %10s %9s %10s %9s %8s %-8s %s\n", width, "configuration", "A_ms", "A_iqr", "B_ms", "B_iqr", "B/A",
          "verdict", "flags");
  for (size_t i = 0; i < n; i++) {
    const struct pair *p = &pairs[i];
    if (!p->a || !p->b)
      continue;
    char lab[256];
    label(p->a, lab, sizeof lab);
    if (p->verdict == V_NA)
      fprintf(out, "%-*s %10s %9s %10s %9s %8s %-8s %s\n", width, lab, "-", "-", "-", "-", "-", "n/a", p->flags);
    else
      fprintf(out, "%-*s %10.4f %9.4f %10.4f %9.4f %8.3f %-8s %s\n", width, lab, p->a->median, p->a->q3 - p->a->q1,
              p->b->median, p->b->q3 - p->b->q1, p->ratio, verdict_names[p->verdict], p->flags);
  }
  for (size_t i = 0; i < n; i++) {
    const struct pair *p = &pairs[i];
    if (p->a && p->b)
      continue;
    char lab[256];
    label(p->a ? p->a : p->b, lab, sizeof lab);
    fprintf(out, "only in %s: %s\n", p->a ? "A" : "B", lab);
  }
  fprintf(out, "summary: %zu matched (",
          s->counts[V_SAME] + s->counts[V_FASTER] + s->counts[V_SLOWER] + s->counts[V_UNCLEAR] + s->counts[V_NA]);
  for (int v = 0; v < V_COUNT; v++)
    fprintf(out, "%s%zu %s", v ? ", " : "", s->counts[v], verdict_names[v]);
  fprintf(out, "), %zu only in A, %zu only in B, %zu flagged; threshold %g%%\n", s->only_a, s->only_b, s->flagged,
          threshold * 100);
  if (s->timed)
    fprintf(out, "geometric mean of B/A time over %zu rows: %.4f (B is %.3fx the speed of A)\n", s->timed, s->geomean,
            1 / s->geomean);
  if (s->instructions_differ || s->iters_differ)
    fprintf(out, "not the same work: %zu pairs emitted other atomic instructions (instructions-differ), %zu ran "
                 "iteration counts more than 25%% apart (iters-differ)\n", s->instructions_differ, s->iters_differ);
}

static void csv_cell(FILE *out, const char *s)
{
  if (strpbrk(s, ",\"\n") == NULL) {
    fputs(s, out);
    return;
  }
  fputc('"', out);
  for (; *s; s++) {
    if (*s == '"')
      fputc('"', out);
    fputc(*s == '\n' ? ' ' : *s, out);
  }
  fputc('"', out);
}

static void write_csv(FILE *out, const struct pair *pairs, size_t n, const int *present)
{
  for (size_t i = 0; i < rf_config_count; i++)
    if (present[i])
      fprintf(out, "%s,", rf_config_fields[i]);
  fprintf(out,
          "a_status,a_verified,a_median_ms,a_q1_ms,a_q3_ms,b_status,b_verified,b_median_ms,b_q1_ms,b_q3_ms,"
          "time_ratio,verdict,flags\n");
  for (size_t i = 0; i < n; i++) {
    const struct pair *p = &pairs[i];
    const struct rf_row *any = p->a ? p->a : p->b;
    for (size_t f = 0; f < rf_config_count; f++) {
      char buf[64];
      if (!present[f])
        continue;
      csv_cell(out, rf_field(any, rf_config_fields[f], buf, sizeof buf));
      fputc(',', out);
    }
    const struct rf_row *sides[2] = {p->a, p->b};
    for (int k = 0; k < 2; k++) {
      const struct rf_row *r = sides[k];
      if (r)
        fprintf(out, "%s,%s,%.6f,%.6f,%.6f,", r->status,
                r->verified < 0 ? ""
                : r->verified   ? "1"
                                : "0",
                r->median, r->q1, r->q3);
      else
        fprintf(out, ",,,,,");
    }
    const char *v = !p->b ? "only_a" : !p->a ? "only_b" : verdict_names[p->verdict];
    if (p->a && p->b && p->verdict != V_NA)
      fprintf(out, "%.6f,%s,", p->ratio, v);
    else
      fprintf(out, ",%s,", v);
    csv_cell(out, p->flags);
    fputc('\n', out);
  }
}

static cJSON *side_json(const struct rf_file *f)
{
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "path", f->path);
  cJSON_AddStringToObject(o, "device", f->device);
  cJSON_AddStringToObject(o, "backend", f->backend);
  cJSON_AddStringToObject(o, "commit", f->commit);
  cJSON_AddStringToObject(o, "date", f->date);
  cJSON_AddNumberToObject(o, "format_version", f->format_version);
  return o;
}

static cJSON *row_side_json(const struct rf_row *r)
{
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "status", r->status);
  if (r->verified >= 0)
    cJSON_AddBoolToObject(o, "verified", r->verified);
  cJSON_AddNumberToObject(o, "median_ms", r->median);
  cJSON_AddNumberToObject(o, "q1_ms", r->q1);
  cJSON_AddNumberToObject(o, "q3_ms", r->q3);
  cJSON_AddNumberToObject(o, "samples", (double)r->nsamples);
  return o;
}

static void write_json(FILE *out, const struct rf_file *a, const struct rf_file *b, const struct pair *pairs, size_t n,
                       const int *present, const struct summary *s, double threshold)
{
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "kind", "compare");
  cJSON_AddNumberToObject(root, "threshold_pct", threshold * 100);
  cJSON_AddStringToObject(root, "rule",
                          "faster/slower: |B/A - 1| > threshold and the IQRs do not overlap; "
                          "unclear: beyond the threshold but overlapping; same: within the threshold");
  cJSON_AddItemToObject(root, "a", side_json(a));
  cJSON_AddItemToObject(root, "b", side_json(b));
  cJSON *rows = cJSON_AddArrayToObject(root, "rows");
  cJSON *only_a = cJSON_AddArrayToObject(root, "only_a"), *only_b = cJSON_AddArrayToObject(root, "only_b");
  for (size_t i = 0; i < n; i++) {
    const struct pair *p = &pairs[i];
    const struct rf_row *any = p->a ? p->a : p->b;
    cJSON *o = cJSON_CreateObject();
    for (size_t f = 0; f < rf_config_count; f++) {
      const struct atl_value *v = NULL;
      for (unsigned c = 0; c < any->row->nconfig; c++)
        if (strcmp(any->row->config[c].name, rf_config_fields[f]) == 0)
          v = &any->row->config[c];
      if (present[f] && v)
        cJSON_AddItemToObject(o, rf_config_fields[f],
                              v->is_number ? cJSON_CreateNumber(strtod(v->text, NULL)) : cJSON_CreateString(v->text));
    }
    if (!p->a || !p->b) {
      cJSON_AddItemToArray(p->a ? only_a : only_b, o);
      continue;
    }
    cJSON_AddItemToObject(o, "a", row_side_json(p->a));
    cJSON_AddItemToObject(o, "b", row_side_json(p->b));
    if (p->verdict != V_NA)
      cJSON_AddNumberToObject(o, "time_ratio", p->ratio);
    cJSON_AddStringToObject(o, "verdict", verdict_names[p->verdict]);
    cJSON_AddStringToObject(o, "flags", p->flags);
    cJSON_AddItemToArray(rows, o);
  }
  cJSON *sum = cJSON_AddObjectToObject(root, "summary");
  for (int v = 0; v < V_COUNT; v++)
    cJSON_AddNumberToObject(sum, verdict_names[v], (double)s->counts[v]);
  cJSON_AddNumberToObject(sum, "only_a", (double)s->only_a);
  cJSON_AddNumberToObject(sum, "only_b", (double)s->only_b);
  cJSON_AddNumberToObject(sum, "flagged", (double)s->flagged);
  cJSON_AddNumberToObject(sum, "instructions_differ", (double)s->instructions_differ);
  cJSON_AddNumberToObject(sum, "iters_differ", (double)s->iters_differ);
  cJSON_AddNumberToObject(sum, "timed", (double)s->timed);
  if (s->timed)
    cJSON_AddNumberToObject(sum, "geomean_time_ratio", s->geomean);
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
        size_t n = strcspn(p, ","), i = 0;
        while (i < rf_config_count && (strlen(rf_config_fields[i]) != n || strncmp(rf_config_fields[i], p, n)))
          i++;
        if (i == rf_config_count)
          die_usage("--ignore '%.*s' is not a configuration field (see 'atomlab compare --help')", (int)n, p);
        p += n;
      }
      ignore = optarg;
      break;
    case 'h':
      fputs(usage, stdout);
      return EXIT_OK;
    case ':':
      die_usage("option '%s' needs a value (see 'atomlab compare --help')", argv[optind - 1]);
    default:
      die_usage("unknown option '%s' for compare (see 'atomlab compare --help')", argv[optind - 1]);
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

  struct rf_file a, b;
  char why[1200];
  if (rf_load(argv[optind], &a, why, sizeof why))
    die_usage("%s", why);
  if (rf_load(argv[optind + 1], &b, why, sizeof why)) {
    rf_free(&a);
    die_usage("%s", why);
  }
  if (strcmp(a.device, b.device) != 0 || strcmp(a.backend, b.backend) != 0)
    fprintf(stderr, "warning: A was measured on %s (%s), B on %s (%s): the ratios compare devices, not variants\n",
            a.device, a.backend, b.device, b.backend);
  if (a.format_version != b.format_version)
    fprintf(stderr,
            "warning: A has format_version %d, B %d: fields new in one are compared only where both have them\n",
            a.format_version, b.format_version);

  /* Each A row takes the first unused B row of the same configuration (repeats pair up in order). */
  struct pair *pairs = calloc(a.count + b.count + 1, sizeof *pairs);
  char *taken = calloc(b.count + 1, 1), (*keys)[sizeof a.rows[0].key] = calloc(a.count + b.count + 1, sizeof *keys);
  if (pairs == NULL || taken == NULL || keys == NULL)
    die("out of memory");
  for (size_t i = 0; i < a.count + b.count; i++)
    match_key(i < a.count ? &a.rows[i] : &b.rows[i - a.count], ignore, keys[i], sizeof keys[i]);
  size_t n = 0;
  for (size_t i = 0; i < a.count; i++) {
    struct pair *p = &pairs[n++];
    p->a = &a.rows[i];
    for (size_t j = 0; j < b.count && !p->b; j++)
      if (!taken[j] && strcmp(keys[i], keys[a.count + j]) == 0) {
        taken[j] = 1;
        p->b = &b.rows[j];
      }
    if (p->b) {
      p->verdict = decide(p->a, p->b, threshold, &p->ratio);
      add_flags(p->flags, sizeof p->flags, "A", p->a);
      add_flags(p->flags, sizeof p->flags, "B", p->b);
      p->flagged = p->flags[0] != '\0';
      add_notes(p);
    }
  }
  for (size_t j = 0; j < b.count; j++)
    if (!taken[j])
      pairs[n++].b = &b.rows[j];

  struct summary s;
  summarize(pairs, n, &s);
  int present[32];
  present_fields(&a, &b, present);

  char *text = NULL;
  size_t len = 0;
  FILE *out = out_path ? open_memstream(&text, &len) : stdout;
  if (out == NULL)
    die("out of memory");
  if (format == ATL_FORMAT_CSV)
    write_csv(out, pairs, n, present);
  else if (format == ATL_FORMAT_JSON)
    write_json(out, &a, &b, pairs, n, present, &s, threshold);
  else
    write_table(out, pairs, n, &s, threshold);
  int rc = EXIT_OK;
  if (out_path) {
    fclose(out);
    if (cli_write_text(out_path, text, len) != 0) {
      rc = EXIT_MEASURE;
    } else {
      fprintf(stderr,
              "wrote %s: %zu same, %zu faster, %zu slower, %zu unclear, %zu n/a, %zu only in A, %zu only in B\n",
              out_path, s.counts[V_SAME], s.counts[V_FASTER], s.counts[V_SLOWER], s.counts[V_UNCLEAR], s.counts[V_NA],
              s.only_a, s.only_b);
    }
    free(text);
  }
  free(pairs);
  free(taken);
  free(keys);
  rf_free(&a);
  rf_free(&b);
  return rc;
}
