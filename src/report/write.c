/* report.md and report.html from one sweep file and its figures. Both carry
 * the same sections; the HTML embeds its images (base64) so it can be mailed
 * or attached as one file. Every number comes from the sweep's rows. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/escape.h"
#include "report_internal.h"
#include "core/resultfile.h"

static const char *const patterns[] = {"contiguous", "cross-warp", "branched", "random"};
#define NPATTERNS 4

/* One row of the access-pattern table. */
struct pattern_line {
  size_t rows, verified;
  const struct atl__rf_row *base, *best, *worst; /* lowest contention and padding; fastest; slowest */
  char figure[512];                         /* file name of its heatmap PNG, "" if none */
};

static void find_figure(const char *figures, const char *pattern, char *out, size_t len)
{
  char prefix[96];
  snprintf(prefix, sizeof prefix, "heatmap-%s-fetch_add-", pattern);
  out[0] = '\0';
  DIR *d = opendir(figures);
  if (d == NULL)
    return;
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    size_t n = strlen(e->d_name);
    /* The smallest matching name: deterministic whatever order readdir gives. */
    if (strncmp(e->d_name, prefix, strlen(prefix)) == 0 && n > 4 && strcmp(e->d_name + n - 4, ".png") == 0 &&
        (out[0] == '\0' || strcmp(e->d_name, out) < 0))
      snprintf(out, len, "%s", e->d_name);
  }
  closedir(d);
}

static void tabulate(const struct atl__rf_file *f, const char *figures, struct pattern_line *lines)
{
  for (int p = 0; p < NPATTERNS; p++) {
    struct pattern_line *l = &lines[p];
    memset(l, 0, sizeof *l);
    for (size_t i = 0; i < f->count; i++) {
      const struct atl__rf_row *r = &f->rows[i];
      char buf[64];
      if (strcmp(atl__rf_field(r, "pattern", buf, sizeof buf), patterns[p]) != 0)
        continue;
      l->rows++;
      if (!atl__rf_row_timed(r) || r->verified != 1 || !(r->gops > 0))
        continue;
      l->verified++;
      double c = atl__rf_number(r, "contention", 0), pad = atl__rf_number(r, "padding", 0);
      if (!l->base || c < atl__rf_number(l->base, "contention", 0) ||
          (c == atl__rf_number(l->base, "contention", 0) && pad < atl__rf_number(l->base, "padding", 0)))
        l->base = r;
      if (!l->best || r->gops > l->best->gops)
        l->best = r;
      if (!l->worst || r->gops < l->worst->gops)
        l->worst = r;
    }
    find_figure(figures, patterns[p], l->figure, sizeof l->figure);
  }
}

/* "123 ±0.4% (c=4, p=16)": the rate with its noise (IQR / median), "noisy" where that stayed above the target. */
static const char *at(const struct atl__rf_row *r, char *buf, size_t len)
{
  if (r == NULL)
    return "-";
  snprintf(buf, len, "%.4g ±%.2g%%%s (c=%g, p=%g)", r->gops, r->row->time_ms.noise * 100,
           r->row->time_ms.noisy ? " noisy" : "", atl__rf_number(r, "contention", 0), atl__rf_number(r, "padding", 0));
  return buf;
}

/* The facts of the device section, as label/value pairs for both documents. */
struct fact {
  const char *label;
  char value[300];
};

static size_t device_facts(const struct atl__rf_file *f, struct fact *facts)
{
  const struct atl_device_info *d = &f->set.meta.device;
  const struct atl_occupancy *occ = &f->set.meta.occupancy;
  static const char *const types[] = {"other", "cpu", "gpu", "accelerator"};
  size_t n = 0;
#define FACT(L, ...) (facts[n].label = (L), snprintf(facts[n].value, sizeof facts[n].value, __VA_ARGS__), n++)
  FACT("device", "%s (%s, %s)", d->name, d->vendor, types[(unsigned)d->type < 4 ? d->type : 0]);
  FACT("backend", "%s: %s, driver %s", d->backend, d->platform, d->driver);
  FACT("version", "%s %s", d->version, d->lang_version);
  FACT("compute units", "%u at %u MHz", d->compute_units, d->clock_mhz);
  const double local_kib = (double)d->local_mem / 1024.0; /* a CPU's local memory runs to megabytes */
  FACT("memory", "%.3g GiB global, %.4g %s local per work-group", (double)d->global_mem / 1073741824.0,
       local_kib >= 1024 ? local_kib / 1024 : local_kib, local_kib >= 1024 ? "MiB" : "KiB");
  FACT("max work-group", "%zu", d->max_wg_size);
  FACT("co-resident work-groups", "%u discovered, %u estimated at work-group size %u (%s)", occ->discovered,
       occ->estimated, occ->wg_size, occ->estimate_method);
  const struct atl_grid *g = &f->set.meta.grid;
  if (g->wg_size) { /* the peak shape, and what it beat */
    char tried[200] = "";
    for (unsigned i = 0; i < g->ntried; i++) {
      const size_t used = strlen(tried);
      snprintf(tried + used, sizeof tried - used, "%s%u x %u: %.4g Gop/s", i ? ", " : "; tried ",
               g->tried[i].wg_size, g->tried[i].workgroups, g->tried[i].gops);
    }
    /* written in two steps with the length used: the note and the shapes tried may be cut, not overrun */
    facts[n].label = "launch shape";
    const int w = snprintf(facts[n].value, sizeof facts[n].value, "%u work-items x %u work-groups (%.160s",
                           g->wg_size, g->workgroups, g->note);
    const size_t used = w > 0 && (size_t)w < sizeof facts[n].value ? (size_t)w : sizeof facts[n].value - 1;
    if (snprintf(facts[n].value + used, sizeof facts[n].value - used, "%.100s)", tried) < 0)
      facts[n].value[used] = '\0';
    n++;
  }
  FACT("measured", "%s with atomlab %s (commit %s)", f->set.meta.date, f->set.meta.tool_version,
       f->set.meta.git_commit);
#undef FACT
  return n;
}

/* The terms the report uses, defined once, and the documents it cites by title: one list for both documents. */
static const char *const terms[][2] = {
    {"contention (c)", "threads that update one word; the access patterns differ in which threads share it"},
    {"padding (p)", "words between two neighbouring targets: at 32 or more each target has a 128-byte line"},
    {"Gop/s", "atomic operations per second, in billions, at the median launch time"},
    {"noise", "the interquartile range of a row's launch times over their median; a row whose noise stayed above "
              "the run's target is flagged noisy"},
    {"RED and ATOM", "NVIDIA's atomic instructions without and with a returned value (result unused and used)"},
    {"verified", "the memory after the last launch (and every returned value, where used) matched the exact "
                 "expected state"},
    {"GTC 2013 figures", "Nyland and Jones, \"Understanding and Using Atomic Memory Operations\" (GTC 2013): "
                         "rates of the Kepler generation the findings compare with"},
    {"access patterns", "from the Atomic-RMW GPU microbenchmark (contiguous, cross-warp, branched, random)"},
};

static void write_terms(FILE *o, int html)
{
  fputs(html ? "<h2 id=\"terms\">Terms</h2>\n<dl>\n" : "## Terms\n\n", o);
  for (size_t i = 0; i < sizeof terms / sizeof terms[0]; i++) {
    fputs(html ? "<dt>" : "- **", o);
    (html ? atl__esc_html : atl__esc_md)(o, terms[i][0]);
    fputs(html ? "</dt><dd>" : "**: ", o);
    (html ? atl__esc_html : atl__esc_md)(o, terms[i][1]);
    fputs(html ? "</dd>\n" : "\n", o);
  }
  fputs(html ? "</dl>\n" : "\n", o);
}

/* The datasheet (datasheet.h): peak and same-address rate per op, type, space and result use. */
static void write_datasheet(FILE *o, int html, const struct atl_result_set *ds)
{
  if (ds == NULL || ds->count == 0)
    return;
  fputs(html ? "<h2 id=\"datasheet\">Datasheet</h2>\n<p>The device's atomics at one thread per word (peak) and at "
               "the most threads per word measured (contiguous, padding 1), in Gop/s (data/datasheet.json, "
               ".csv).</p>\n<table>\n<tr><th>op</th><th>type</th><th>space</th><th>result</th><th>peak</th>"
               "<th>same address</th><th>threads per word</th><th>slowdown</th></tr>\n"
             : "## Datasheet\n\nThe device's atomics at one thread per word (peak) and at the most threads per word "
               "measured (contiguous, padding 1), in Gop/s (data/datasheet.json, .csv).\n\n"
               "| op | type | space | result | peak | same address | threads per word | slowdown |\n"
               "|---|---|---|---|---|---|---|---|\n",
        o);
  for (size_t i = 0; i < ds->count; i++) {
    const struct atl_row *r = &ds->rows[i];
    char cells[4][32];
    const double v[4] = {atl_row_metric(r, "peak_gops", -1), atl_row_metric(r, "same_address_gops", -1),
                         atl_row_metric(r, "same_address_threads", -1), atl_row_metric(r, "same_address_slowdown", -1)};
    /* each rate with its noise (IQR / median of its row); "-" where the row has no such rate */
    const double noise[2] = {r->time_ms.noise, atl_row_metric(r, "same_address_noise", -1)};
    for (int k = 0; k < 4; k++)
      if (v[k] < 0)
        snprintf(cells[k], sizeof cells[k], "-");
      else if (k < 2 && noise[k] >= 0)
        snprintf(cells[k], sizeof cells[k], "%.4g ±%.2g%%", v[k], noise[k] * 100);
      else
        snprintf(cells[k], sizeof cells[k], k == 3 ? "%.3gx" : "%.4g", v[k]);
    if (r->status != ATL_STATUS_OK)
      snprintf(cells[0], sizeof cells[0], "%s", atl_status_name(r->status));
    /* the configuration comes from a file: escaped like every other text from the data */
    static const char *const keys[] = {"op", "type", "space", "result"};
    fputs(html ? "<tr>" : "|", o);
    for (int k = 0; k < 4; k++) {
      fputs(html ? "<td>" : " ", o);
      (html ? atl__esc_html : atl__esc_md)(o, atl_row_config(r, keys[k]) ? atl_row_config(r, keys[k]) : "");
      fputs(html ? "</td>" : " |", o);
    }
    fprintf(o, html ? "<td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n" : " %s | %s | %s | %s |\n", cells[0],
            cells[1], cells[2], cells[3]);
  }
  fputs(html ? "</table>\n" : "\n", o);
}

/* The findings of the sweep, the strategies and the histogram (findings.h), first in the report. */
static void write_findings(FILE *o, int html, const struct atl_result_set *rmw, const struct atl_report_inputs *x)
{
  struct atl_findings fs = {0};
  struct atl_result_set set;
  char why[400];
  atl_findings_rmw(rmw, &fs);
  const char *more[] = {x->strategy_json, x->hist_json};
  for (int k = 0; k < 2; k++)
    if (more[k] && access(more[k], R_OK) == 0 && atl_read_json(more[k], &set, why, sizeof why) == 0) {
      (k == 0 ? atl_findings_strategy : atl_findings_histogram)(&set, &fs);
      atl_result_set_release(&set);
    }
  if (x->datasheet)
    atl_findings_datasheet(x->datasheet, &fs);
  fputs(html ? "<h2 id=\"findings\">Findings</h2>\n<p>What the rows below show, each with its numbers and their "
               "spread (the rates at the rows' quartile times); a difference is stated only where that spread keeps "
               "it more than 5% from none.</p>\n"
             : "## Findings\n\nWhat the rows below show, each with its numbers and their spread (the rates at the "
               "rows' quartile times); a difference is stated only where that spread keeps it more than 5% from "
               "none.\n\n",
        o);
  if (rmw->meta.timing.repeats > 1) { /* --repeat: which differences held in every pass */
    size_t unstable = 0, differences = 0;
    for (size_t i = 0; i < fs.count; i++) {
      unstable += strcmp(fs.items[i].topic, "unstable") == 0;
      differences += fs.items[i].ratio > 0;
    }
    fprintf(o, html ? "<p>Measured in %u passes (--repeat): %zu of the %zu differences below held in every pass; "
                      "the others say so.</p>\n"
                    : "Measured in %u passes (--repeat): %zu of the %zu differences below held in every pass; the "
                      "others say so.\n\n",
            rmw->meta.timing.repeats, differences - unstable, differences);
  }
  if (html)
    fputs("<ul>\n", o);
  for (size_t i = 0; i < fs.count; i++) {
    fputs(html ? "<li>" : "- ", o);
    (html ? atl__esc_html : atl__esc_md)(o, fs.items[i].text);
    fputs(html ? "</li>\n" : "\n", o);
  }
  if (fs.count == 0)
    fputs(html ? "<li>none: no row pair differs by more than its noise</li>\n" : "- none: no row pair differs by more "
                                                                               "than its noise\n", o);
  fputs(html ? "</ul>\n" : "\n", o);
  atl_findings_release(&fs);
}

/* The device's facts: a Markdown or HTML heading and table. */
static void write_facts(FILE *o, int html, const struct fact *facts, size_t nfacts)
{
  fputs(html ? "<h2 id=\"device\">Device</h2>\n<table>\n" : "## Device\n\n| fact | value |\n|---|---|\n", o);
  for (size_t i = 0; i < nfacts; i++) {
    fprintf(o, html ? "<tr><th>%s</th><td>" : "| %s | ", facts[i].label);
    (html ? atl__esc_html : atl__esc_md)(o, facts[i].value);
    fputs(html ? "</td></tr>\n" : " |\n", o);
  }
  fputs(html ? "</table>\n" : "\n", o);
}

/* The access-pattern table: per pattern its verified rows and its least-contended, fastest and slowest row. */
static void write_patterns(FILE *o, int html, const struct pattern_line *lines)
{
  static const char intro[] =
      "fetch_add on u32 in global memory, result unused; Gop/s at the median time ± its noise, the interquartile "
      "range over the median (c = threads per word, p = words between targets; noisy: the noise stayed above the "
      "run's target).";
  fprintf(o, html ? "<h2 id=\"patterns\">Access patterns</h2>\n<p>%s</p>\n<table>\n<tr><th>pattern</th><th>verified "
                    "rows</th><th>least contention and padding</th><th>fastest</th><th>slowest</th></tr>\n"
                  : "## Access patterns\n\n%s\n\n| pattern | verified rows | least contention and padding | fastest | "
                    "slowest |\n|---|---|---|---|---|\n",
          intro);
  for (int p = 0; p < NPATTERNS; p++) {
    char a[96], b[96], c[96];
    fprintf(o, html ? "<tr><td>%s</td><td>%zu of %zu</td><td>%s</td><td>%s</td><td>%s</td></tr>\n"
                    : "| %s | %zu of %zu | %s | %s | %s |\n",
            patterns[p], lines[p].verified, lines[p].rows, at(lines[p].base, a, sizeof a),
            at(lines[p].best, b, sizeof b), at(lines[p].worst, c, sizeof c));
  }
  fputs(html ? "</table>\n" : "\n", o);
}

/* The sections both documents carry between their introduction and their heatmaps, in this order. */
static void write_tables(FILE *o, int html, const struct atl__rf_file *f, const struct fact *facts, size_t nfacts,
                         const struct pattern_line *lines, const struct atl_report_inputs *x)
{
  write_findings(o, html, &f->set, x);
  write_facts(o, html, facts, nfacts);
  write_patterns(o, html, lines);
  write_datasheet(o, html, x->datasheet);
}

static void write_md(FILE *o, const struct atl__rf_file *f, const struct fact *facts, size_t nfacts,
                     const struct pattern_line *lines, const char *plot_log, const struct atl_report_inputs *x)
{
  /* Every text from the data is escaped (escape.h): report.md may be rendered where raw HTML runs. */
  fputs("# atomlab report: ", o);
  atl__esc_md(o, f->device);
  fputs("\n\n", o);
  fprintf(o,
          "Atomic read-modify-write throughput on this device, measured by `atomlab rmw`\n"
          "and drawn by `atomlab plot` (data/rmw.json holds every row). Every number\n"
          "below is from a row whose final memory state was verified exactly.\n"
          "`atomlab rmw --describe` explains each field; docs/design/method.md the method.\n\n");
  write_tables(o, 0, f, facts, nfacts, lines, x);
  fprintf(o, "## Heatmaps\n\nContention on x, padding on y, Gop/s as a log colour scale.\n\n");
  int any = 0;
  for (int p = 0; p < NPATTERNS; p++)
    if (lines[p].figure[0]) {
      fprintf(o, "![fetch_add, %s](figures/", patterns[p]);
      atl__esc_url(o, lines[p].figure); /* a file name found in figures/: whatever another hand put there */
      fputs(")\n\n", o);
      any = 1;
    }
  if (!any) {
    fputs("No images: gnuplot did not draw them (see ", o);
    atl__esc_md(o, plot_log);
    fputs("); figures/ holds their data and scripts.\n\n", o);
  }
  atl__report_sections(o, 0, x);
  write_terms(o, 0);
  fprintf(o,
          "## Files\n\n- data/rmw.json, data/rmw.csv: every row (settings, samples, verification)\n"
          "- data/strategy.json, data/strategy.csv, data/histogram.json: the strategy and histogram\n"
          "  rows\n"
          "- data/datasheet.json, data/datasheet.csv: the datasheet (from data/datasheet-rmw.json)\n"
          "- figures/: PNG and SVG images, each with its .dat data and .gp gnuplot script\n"
          "- data/*.log: the output of each step\n");
}

static void write_html(FILE *o, const struct atl__rf_file *f, const struct fact *facts, size_t nfacts,
                       const struct pattern_line *lines, const char *figures, const char *plot_log,
                       const struct atl_report_inputs *x)
{
  fprintf(o, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>atomlab report: ");
  atl__esc_html(o, f->device);
  fprintf(o,
          "</title>\n<style>\nbody{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em;color:#222}\n"
          "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:.3em .6em;text-align:left}\n"
          "th{background:#eee}figure{margin:1.5em 0}img{max-width:100%%;height:auto}\n"
          "figcaption{font-size:.9em;color:#555}.later{color:#777}\n</style>\n</head>\n<body>\n");
  fprintf(o, "<h1>atomlab report: ");
  atl__esc_html(o, f->device);
  fprintf(o,
          "</h1>\n<p>Atomic read-modify-write throughput on this device, measured by <code>atomlab rmw</code> and "
          "drawn by <code>atomlab plot</code> (data/rmw.json holds every row). Every number below is from a row "
          "whose final memory state was verified exactly.</p>\n");
  write_tables(o, 1, f, facts, nfacts, lines, x);
  fprintf(o, "<h2 id=\"heatmaps\">Heatmaps</h2>\n<p>Contention on x, padding on y, Gop/s as a log colour "
             "scale.</p>\n");
  int any = 0;
  for (int p = 0; p < NPATTERNS; p++) {
    char path[1200];
    if (!lines[p].figure[0])
      continue;
    snprintf(path, sizeof path, "%s/%s", figures, lines[p].figure);
    fprintf(o, "<figure class=\"heatmap\" id=\"fig-%s\">\n<img alt=\"fetch_add, %s\" src=\"data:image/png;base64,",
            patterns[p], patterns[p]);
    if (atl__report_base64_file(o, path) != 0)
      return;
    fprintf(o, "\">\n<figcaption>fetch_add, %s (figures/", patterns[p]);
    atl__esc_html(o, lines[p].figure);
    fprintf(o, ")</figcaption>\n</figure>\n");
    any = 1;
  }
  if (!any) {
    fprintf(o, "<p>No images: gnuplot did not draw them (see ");
    atl__esc_html(o, plot_log);
    fprintf(o, "); figures/ holds their data and scripts.</p>\n");
  }
  atl__report_sections(o, 1, x);
  write_terms(o, 1);
  fprintf(o,
          "<h2>Files</h2>\n<ul><li>data/rmw.json, data/rmw.csv: every row (settings, samples, verification)</li>\n"
          "<li>data/strategy.json, data/strategy.csv, data/histogram.json: the strategy and histogram "
          "rows</li>\n<li>data/datasheet.json, data/datasheet.csv: the datasheet (from data/datasheet-rmw.json)</li>\n"
          "<li>figures/: PNG and SVG images, each with its .dat data and .gp gnuplot script</li>\n"
          "<li>data/*.log: the output of each step</li></ul>\n");
  /* Lets a headless browser test see that every figure decoded (tests/cli/report.sh). */
  fprintf(o,
          "<script>\nwindow.addEventListener('load', function () {\n"
          "  var imgs = document.querySelectorAll('img'), ok = 0;\n"
          "  imgs.forEach(function (i) { if (i.complete && i.naturalWidth > 0) ok++; });\n"
          "  document.body.setAttribute('data-figures-loaded', ok + '/' + imgs.length);\n"
          "});\n</script>\n</body>\n</html>\n");
}

int atl__report_write_text(atl_report_notify notify, void *arg, const char *path, const char *text, size_t len)
{
  char why[512], line[5000];
  if (atl_file_write_text_nofollow(path, text, len, why, sizeof why) == 0) /* a report folder's file */
    return 0;
  snprintf(line, sizeof line, "unable to write '%s': %s", path, why);
  if (notify)
    notify(arg, line);
  return -1;
}

/* DIR/NAME as @p format through the library's writers (a file not written leaves the report without it). */
static void write_set_file(const char *dir, const char *name, enum atl_format format, const struct atl_result_set *set,
                           const struct atl_report_inputs *x)
{
  char path[1300], *text = NULL;
  size_t len = 0;
  FILE *o = open_memstream(&text, &len);
  if (o == NULL)
    return;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  const int err = format == ATL_FORMAT_CSV ? atl_write_csv(o, set) : atl_write_json(o, set);
  if (fclose(o) == 0 && err == 0)
    atl__report_write_text(x->notify, x->arg, path, text, len);
  free(text);
}

static int write_doc(const char *path, int html, const struct atl__rf_file *f, const struct fact *facts, size_t nfacts,
                     const struct pattern_line *lines, const char *figures, const char *plot_log,
                       const struct atl_report_inputs *x)
{
  char *text = NULL;
  size_t len = 0;
  FILE *o = open_memstream(&text, &len);
  if (o == NULL)
    return -1;
  if (html)
    write_html(o, f, facts, nfacts, lines, figures, plot_log, x);
  else
    write_md(o, f, facts, nfacts, lines, plot_log, x);
  int err = fclose(o) != 0 || atl__report_write_text(x->notify, x->arg, path, text, len) != 0;
  free(text);
  return err ? -1 : 0;
}

int atl_report_write(const char *dir, const char *json, const char *figures, const char *plot_log,
                     const struct atl_report_inputs *extra, struct atl_report_summary *sum, char *why, size_t why_len)
{
  struct atl__rf_file f;
  if (atl__rf_load(json, &f, why, why_len) != 0)
    return ATL_EINVAL;
  struct pattern_line lines[NPATTERNS];
  struct fact facts[12];
  tabulate(&f, figures, lines);
  size_t nfacts = device_facts(&f, facts);
  memset(sum, 0, sizeof *sum);
  snprintf(sum->device, sizeof sum->device, "%s", f.device);
  for (int p = 0; p < NPATTERNS; p++) {
    sum->rows += lines[p].rows;
    sum->verified += lines[p].verified;
    if (lines[p].base && lines[p].base->gops > sum->best_gops) {
      sum->best_gops = lines[p].base->gops;
      snprintf(sum->best_pattern, sizeof sum->best_pattern, "%s", patterns[p]);
    }
  }
  /* The datasheet from its sweep, written beside the documents as its own JSON and CSV. */
  struct atl_report_inputs xd = *extra;
  struct atl_result_set dsrows, ds = {0};
  char dwhy[400];
  if (extra->datasheet_rmw && access(extra->datasheet_rmw, R_OK) == 0 &&
      atl_read_json(extra->datasheet_rmw, &dsrows, dwhy, sizeof dwhy) == 0) {
    if (atl_datasheet(&dsrows, &ds) == 0) {
      xd.datasheet = &ds;
      write_set_file(dir, "data/datasheet.json", ATL_FORMAT_JSON, &ds, extra);
      write_set_file(dir, "data/datasheet.csv", ATL_FORMAT_CSV, &ds, extra);
    }
    atl_result_set_release(&dsrows);
  }
  extra = &xd;
  char md[1200], html[1200];
  snprintf(md, sizeof md, "%s/report.md", dir);
  snprintf(html, sizeof html, "%s/report.html", dir);
  int err = 0;
  if (write_doc(md, 0, &f, facts, nfacts, lines, figures, plot_log, extra) != 0 ||
      write_doc(html, 1, &f, facts, nfacts, lines, figures, plot_log, extra) != 0) {
    snprintf(why, why_len, "unable to write the report into '%s'", dir);
    err = ATL_EIO;
  }
  atl__rf_free(&f);
  atl_result_set_release(&ds);
  return err;
}
