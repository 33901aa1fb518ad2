/* The Strategies, Histogram and Model sections of `atomlab report`. Each is
 * built once as a small table (title, intro, header, cells, bar charts) and
 * then written as Markdown or HTML, so the two documents cannot disagree.
 * Every number comes from a result file of this run, or from the device's
 * calibration table where one exists. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "atomlab/diagnose.h"
#include "core/escape.h"
#include "core/input_cap.h"
#include "report_internal.h"
#include "core/resultfile.h"

#define MAX_COLS 7
#define MAX_FIGS 24

struct section {
  const char *title, *id;
  char intro[1400]; /* Markdown: the data in it escaped with atl__esc_md_str (HTML gets it through atl__esc_md_to_html) */
  int ncols;
  const char *head[MAX_COLS];
  char (*cells)[MAX_COLS][128];
  size_t nrows;
  char figs[MAX_FIGS][256]; /* PNG names in figures/, sorted */
  size_t nfigs;
};

static char (*add_row(struct section *s))[128]
{
  void *grown = realloc(s->cells, (s->nrows + 1) * sizeof *s->cells);
  if (grown == NULL)
    return NULL;
  s->cells = grown;
  memset(s->cells[s->nrows], 0, sizeof s->cells[0]);
  return s->cells[s->nrows++];
}

static const cJSON *jget(const cJSON *o, const char *key)
{
  return cJSON_GetObjectItemCaseSensitive(o, key);
}

static const char *jtext(const cJSON *o, const char *key)
{
  const cJSON *v = jget(o, key);
  return cJSON_IsString(v) ? v->valuestring : "";
}

/* The buffer of an escaped text: 6 bytes per byte at most (&quot;), truncated at a whole escape. */
typedef char md_text[1024];

/* A JSON file that is not a result file (the calibration's metadata), or NULL. */
static cJSON *read_json(const char *path)
{
  FILE *in = atl_file_open_input(path, NULL, 0); /* a FIFO would block */
  if (in == NULL)
    return NULL;
  if (atl__input_check(in, ATL_MAX_INPUT_DEFAULT, NULL, 0) != 0) { /* as the other sections: left out */
    fclose(in);
    return NULL;
  }
  char *text = NULL, buf[65536];
  size_t cap = 0, used = 0, got;
  while ((got = fread(buf, 1, sizeof buf, in)) > 0) {
    if (used + got + 1 > cap) {
      char *grown = realloc(text, cap = 2 * (used + got + 1));
      if (grown == NULL)
        break;
      text = grown;
    }
    memcpy(text + used, buf, got);
    used += got;
  }
  fclose(in);
  if (text == NULL)
    return NULL;
  text[used] = '\0';
  cJSON *root = cJSON_Parse(text);
  free(text);
  return root;
}

static int cmp_names(const void *a, const void *b)
{
  return strcmp(a, b);
}

/* The bar charts `atomlab plot` drew from the strategy rows (bars-*.png). */
static void find_bars(const char *figures, struct section *s)
{
  DIR *d = opendir(figures);
  if (d == NULL)
    return;
  for (struct dirent *e; (e = readdir(d)) != NULL && s->nfigs < MAX_FIGS;) {
    size_t n = strlen(e->d_name);
    if (strncmp(e->d_name, "bars-", 5) == 0 && n > 4 && strcmp(e->d_name + n - 4, ".png") == 0)
      snprintf(s->figs[s->nfigs++], sizeof s->figs[0], "%s", e->d_name);
  }
  closedir(d);
  qsort(s->figs, s->nfigs, sizeof s->figs[0], cmp_names);
}

/* Whether a section's step left a result (@p loaded); where not, the intro says so and names its log. */
static int measured(struct section *s, int loaded, const char *command, const char *log_path)
{
  md_text log;
  if (!loaded)
    snprintf(s->intro, sizeof s->intro, "Not measured: `atomlab %s` wrote no result (see %s).", command,
             atl__esc_md_str(log, sizeof log, log_path));
  return loaded;
}

static void strategies(const struct atl_report_inputs *x, struct section *s)
{
  struct atl__rf_file f;
  char why[600];
  md_text args;
  if (!measured(s, access(x->strategy_json, R_OK) == 0 && atl__rf_load(x->strategy_json, &f, why, sizeof why) == 0,
                "strategy", x->strategy_log))
    return;
  size_t verified = 0, unsupported = 0, deadlock = 0;
  char which[300] = "", which_md[900]; /* the unsupported rows by name: a bar missing from a chart says why here */
  for (size_t i = 0; i < f.count; i++) {
    verified += f.rows[i].verified == 1;
    if (strcmp(f.rows[i].status, "unsupported") == 0 && unsupported++ < 6) {
      const size_t used = strlen(which);
      snprintf(which + used, sizeof which - used, "%s%s on %s", used ? ", " : " (",
               atl_row_config_or(f.rows[i].row, "strategy", "?"), atl_row_config_or(f.rows[i].row, "pattern", "?"));
    }
    deadlock += strcmp(f.rows[i].status, "deadlock") == 0;
  }
  if (unsupported)
    snprintf(which + strlen(which), sizeof which - strlen(which), "%s)", unsupported > 6 ? ", ..." : "");
  snprintf(s->intro, sizeof s->intro,
           "Every strategy of the device library (native atomic, warp- and block-aggregated, privatized, CAS loop, "
           "locks) on each access pattern, by `atomlab strategy` (%s; data/strategy.json). The winner is the fastest "
           "verified strategy; its margin is its Gop/s over the runner-up's. Of %zu rows, %zu verified, %zu "
           "unsupported on this device%s and %zu deadlock (a lock strategy that would hang here: a finding, not a "
           "failure).",
           atl__esc_md_str(args, sizeof args, x->strategy_args), f.count, verified, unsupported,
           atl__esc_md_str(which_md, sizeof which_md, which), deadlock);
  s->ncols = 6;
  static const char *const head[] = {"pattern", "op", "result", "winner", "Gop/s", "margin"};
  memcpy(s->head, head, sizeof head);
  static const char *const fields[] = {"pattern", "op", "result", "strategy"};
  for (size_t i = 0; i < f.count; i++) {
    const struct atl_row *w = f.rows[i].row;
    char(*c)[128];
    if (atl_row_metric(w, "winner", 0) == 0)
      continue;
    if ((c = add_row(s)) == NULL)
      break;
    for (int k = 0; k < 4; k++)
      snprintf(c[k], 128, "%s", atl_row_config(w, fields[k]) ? atl_row_config(w, fields[k]) : "-");
    snprintf(c[4], 128, "%.4g ±%.2g%%%s", atl_row_metric(w, "gops", 0), w->time_ms.noise * 100,
             w->time_ms.noisy ? " noisy" : "");
    double m = atl_row_metric(w, "margin", 0);
    snprintf(c[5], 128, m > 0 ? "%.2fx" : "-", m);
  }
  if (s->nrows == 0)
    snprintf(s->intro + strlen(s->intro), sizeof s->intro - strlen(s->intro), " No strategy verified: no winner.");
  atl__rf_free(&f);
  find_bars(x->figures, s);
}

static void ratio(char *out, const struct atl_row *r, const char *key)
{
  const double v = atl_row_metric(r, key, 0);
  if (v > 0)
    snprintf(out, 128, "%.3g", v);
  else
    snprintf(out, 128, "-");
}

static void histogram(const struct atl_report_inputs *x, struct section *s)
{
  struct atl_result_set set;
  char why[600];
  md_text args;
  if (!measured(s, access(x->hist_json, R_OK) == 0 && atl_read_json(x->hist_json, &set, why, sizeof why) == 0,
                "app histogram", x->hist_log))
    return;
  double bytes = NAN; /* the variants' input bytes (the yardsticks' rows count what they moved instead) */
  for (size_t i = 0; i < set.count && isnan(bytes); i++)
    bytes = atl_row_metric(&set.rows[i], "bytes", NAN);
  snprintf(s->intro, sizeof s->intro,
           "256-bin histograms of %.4g MiB of 8-bit keys in each distribution (solid: one value; uniform; skewed: "
           "~90%% of keys in 4 values; photo, where its JPEG is installed: the R, G and B planes of a photograph), "
           "one row per variant, by `atomlab app histogram` (%s; data/histogram.json). "
           "GB/s of input at the median time ± its noise; its ratios are to the vendor's device-to-device copy and to "
           "a read ceiling (a kernel that only reads the same bytes), both of the same bytes in the same run; CUB is "
           "DeviceHistogram::HistogramEven where the CUDA plugin is built. Verified: every bin equals the host's.",
           isnan(bytes) ? 0 : bytes / 1048576.0, atl__esc_md_str(args, sizeof args, x->hist_args));
  s->ncols = 6;
  static const char *const head[] = {"input/dist/variant", "GB/s", "to vendor copy", "to read ceiling", "to CUB",
                                     "verified"};
  memcpy(s->head, head, sizeof head);
  for (size_t i = 0; i < set.count; i++) {
    const struct atl_row *r = &set.rows[i];
    const double g = atl_row_metric(r, "gbps", NAN);
    const int ok = r->status == ATL_STATUS_OK;
    char(*c)[128] = add_row(s);
    if (c == NULL)
      break;
    snprintf(c[0], 128, "%s", atl_row_config(r, "variant") ? atl_row_config(r, "variant") : "-");
    if (ok && !isnan(g)) /* with its noise, as every rate of the report */
      snprintf(c[1], 128, "%.4g ±%.2g%%%s", g, r->time_ms.noise * 100, r->time_ms.noisy ? " noisy" : "");
    else
      snprintf(c[1], 128, "%s", atl_status_name(r->status));
    ratio(c[2], r, "ratio_to_memcpy");
    ratio(c[3], r, "ratio_to_read");
    ratio(c[4], r, "ratio_to_cub");
    snprintf(c[5], 128, "%s", r->verified ? "yes" : ok ? "NO" : "-");
  }
  atl_result_set_release(&set);
}

/* The instructions the calibration kernel ran, from the table's JSON (calibrate writes both). */
static void instructions(const char *csv, const char *variant, char *out, size_t len)
{
  char path[1200];
  size_t n = strlen(csv);
  snprintf(out, len, "-");
  if (n < 4 || strcmp(csv + n - 4, ".csv") != 0)
    return;
  snprintf(path, sizeof path, "%.*s.json", (int)(n - 4), csv);
  cJSON *root = read_json(path);
  const char *s = jtext(jget(jget(root, "calibration"), "instructions"), variant);
  if (*s)
    snprintf(out, len, "%s", s);
  cJSON_Delete(root);
}

static void model(const struct atl_report_inputs *x, struct section *s)
{
  md_text table;
  atl__esc_md_str(table, sizeof table, x->smem_table ? x->smem_table : "");
  if (x->smem_table == NULL || access(x->smem_table, R_OK) != 0) {
    if (x->cuda)
      snprintf(s->intro, sizeof s->intro,
               "No calibration table for this device (none in the user's cache folder, none shipped): `atomlab "
               "calibrate smem` measures it (seconds on a GPU), then `atomlab model query` and `atomlab profile` "
               "use it.");
    else
      snprintf(s->intro, sizeof s->intro,
               "No calibration table for this device (none in the user's cache folder, none shipped). The "
               "shared-memory atomic model is calibrated on CUDA devices: `atomlab calibrate smem` there writes "
               "the table.");
    return;
  }
  struct atl_smem_table t;
  char why[600];
  if (atl_smem_table_read_csv(x->smem_table, &t, why, sizeof why) != 0) {
    md_text reason;
    snprintf(s->intro, sizeof s->intro, "The calibration table %s does not read: %s.", table,
             atl__esc_md_str(reason, sizeof reason, why));
    return;
  }
  size_t pu = atl_smem_table_count(&t, ATL_SMEM_UNUSED), pc = atl_smem_table_count(&t, ATL_SMEM_USED);
  char iu[512], ic[512];
  md_text iu_md, ic_md;
  instructions(x->smem_table, "unused", iu, sizeof iu);
  instructions(x->smem_table, "used", ic, sizeof ic);
  snprintf(s->intro, sizeof s->intro,
           "The shared-memory atomic queuing model's calibration table %s (`atomlab calibrate smem`): %zu points "
           "(result unused), %zu (result used), n warps up to %u, e lanes up to %u. Instructions of the "
           "calibration kernel: unused: %s; used: %s. S(n, e, c) = T / n in SM cycles per warp-instruction, as "
           "`atomlab model query` gives it (c of the n warps use CAS).",
           table, pu, pc, t.nmax, t.emax, atl__esc_md_str(iu_md, sizeof iu_md, iu), atl__esc_md_str(ic_md, sizeof ic_md, ic));
  s->ncols = 5;
  static const char *const head[] = {"n", "e", "c", "S unused (cycles)", "S used (cycles)"};
  memcpy(s->head, head, sizeof head);
  static const double points[][3] = {{1, 1, 0}, {1, 32, 0}, {8, 32, 0}, {32, 1, 0}, {32, 32, 0}, {32, 32, 16}};
  for (size_t i = 0; i < sizeof points / sizeof points[0]; i++) {
    char(*c)[128] = add_row(s);
    if (c == NULL)
      break;
    for (int k = 0; k < 3; k++)
      snprintf(c[k], 128, "%g", points[i][k]);
    for (int v = 0; v < ATL_SMEM_VARIANTS; v++) {
      double cycles = NAN;
      int clamped = 0;
      char w[128];
      if (atl_smem_S(&t, (enum atl_smem_variant)v, points[i][0], points[i][1], points[i][2], &cycles, &clamped, w,
                     sizeof w) == 0 &&
          !isnan(cycles))
        snprintf(c[3 + v], 128, "%.4g%s", cycles, clamped ? " (clamped)" : "");
      else
        snprintf(c[3 + v], 128, "-");
    }
  }
  atl_smem_table_release(&t);
}

static void write_md(FILE *o, const struct section *s)
{
  fprintf(o, "## %s\n\n%s\n\n", s->title, s->intro);
  if (s->nrows) {
    for (int k = 0; k < s->ncols; k++)
      fprintf(o, "| %s ", s->head[k]);
    fprintf(o, "|\n");
    for (int k = 0; k < s->ncols; k++)
      fprintf(o, "|---");
    fprintf(o, "|\n");
    for (size_t r = 0; r < s->nrows; r++) {
      for (int k = 0; k < s->ncols; k++) {
        fputs("| ", o);
        atl__esc_md(o, s->cells[r][k]); /* from the data: no HTML, and no '|' or newline that splits the row */
        fputc(' ', o);
      }
      fprintf(o, "|\n");
    }
    fprintf(o, "\n");
  }
  for (size_t i = 0; i < s->nfigs; i++) {
    fputs("![", o);
    atl__esc_md(o, s->figs[i]);
    fputs("](figures/", o);
    atl__esc_url(o, s->figs[i]);
    fputs(")\n\n", o);
  }
}

static void write_html(FILE *o, const struct section *s, const char *figures)
{
  fprintf(o, "<h2 id=\"%s\">%s</h2>\n<p>", s->id, s->title);
  atl__esc_md_to_html(o, s->intro);
  fprintf(o, "</p>\n");
  if (s->nrows) {
    fprintf(o, "<table>\n<tr>");
    for (int k = 0; k < s->ncols; k++)
      fprintf(o, "<th>%s</th>", s->head[k]);
    fprintf(o, "</tr>\n");
    for (size_t r = 0; r < s->nrows; r++) {
      fprintf(o, "<tr>");
      for (int k = 0; k < s->ncols; k++) {
        fprintf(o, "<td>");
        atl__esc_html(o, s->cells[r][k]);
        fprintf(o, "</td>");
      }
      fprintf(o, "</tr>\n");
    }
    fprintf(o, "</table>\n");
  }
  for (size_t i = 0; i < s->nfigs; i++) {
    char path[1400];
    snprintf(path, sizeof path, "%s/%s", figures, s->figs[i]);
    fprintf(o, "<figure class=\"%s\">\n<img alt=\"", s->id);
    atl__esc_html(o, s->figs[i]);
    fprintf(o, "\" src=\"data:image/png;base64,");
    atl__report_base64_file(o, path);
    fprintf(o, "\">\n<figcaption>figures/");
    atl__esc_html(o, s->figs[i]);
    fprintf(o, "</figcaption>\n</figure>\n");
  }
}

/* The diagnosis of a program profiled into the folder (atomlab profile --diagnosis): each launch's verdict and the
 * advice made from its row; no section (no title) without the file. */
static void diagnosis(const struct atl_report_inputs *x, struct section *s)
{
  struct atl_result_set set;
  char why[600], text[512];
  if (!x->diagnosis_json || access(x->diagnosis_json, R_OK) != 0 ||
      atl_read_json(x->diagnosis_json, &set, why, sizeof why) != 0) {
    s->title = NULL;
    return;
  }
  snprintf(s->intro, sizeof s->intro,
           "The kernels of a program profiled by `atomlab profile --diagnosis data/diagnosis.json`: each launch's "
           "verdict by the model that gave it and, for a bottleneck, the strategy, the atomlab call and its "
           "predicted speedup (a floor where only a lower bound is known).");
  s->ncols = 4;
  static const char *const head[] = {"id", "kernel", "verdict", "advice"};
  memcpy(s->head, head, sizeof head);
  for (size_t i = 0; i < set.count; i++) {
    const struct atl_row *r = &set.rows[i];
    char(*c)[128] = add_row(s);
    if (c == NULL)
      break;
    const char *v = atl_row_config(r, "verdict"), *m = atl_row_config(r, "model");
    snprintf(c[0], 128, "%s", atl_row_config(r, "id") ? atl_row_config(r, "id") : "-");
    snprintf(c[1], 128, "%.60s", atl_row_config(r, "kernel") ? atl_row_config(r, "kernel") : "-");
    snprintf(c[2], 128, "%s%s%s%s", v ? v : "-", m && m[0] ? " (" : "", m && m[0] ? m : "", m && m[0] ? ")" : "");
    atl_diagnosis_advice_text(r, text, sizeof text);
    snprintf(c[3], 128, "%.127s", text[0] ? text : "-");
  }
  atl_result_set_release(&set);
}

void atl__report_sections(FILE *o, int html, const struct atl_report_inputs *x)
{
  /* each section's title, its anchor, and what fills it */
  static const struct {
    const char *title, *id;
    void (*build)(const struct atl_report_inputs *, struct section *);
  } sections[] = {{"Strategies", "strategies", strategies}, {"Histogram", "histogram", histogram}, {"Model", "model", model},
                  {"Diagnosis", "diagnosis", diagnosis}};
  for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) {
    struct section s;
    memset(&s, 0, sizeof s);
    s.title = sections[i].title;
    s.id = sections[i].id;
    sections[i].build(x, &s);
    if (s.title != NULL && html) /* no title: a section with nothing to show */
      write_html(o, &s, x->figures);
    else if (s.title != NULL)
      write_md(o, &s);
    free(s.cells);
  }
}
