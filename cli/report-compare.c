/* atomlab report --compare DIR...: reports of several devices side by side (issue [report-findings]): each
 * device's facts, the datasheets in one table with every rate's ratio to the first device's, and each
 * device's findings. Everything is computed from the folders' data/ through the library (atl_datasheet,
 * atl_findings_*), so reports written before the datasheet step get the datasheet rows their sweep has. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "../src/core/escape.h" /* until the writers move into the library */
#include "report.h"

#define MAX_REPORTS 8

struct one_report {
  const char *dir;
  struct atl_result_set rmw, datasheet, strategy, histogram;
  int has_strategy, has_histogram;
};

static int load(const char *dir, const char *name, struct atl_result_set *set)
{
  char path[4200], why[600];
  snprintf(path, sizeof path, "%s/data/%s", dir, name);
  return access(path, R_OK) == 0 && atl_read_json(path, set, why, sizeof why) == 0;
}

/* The datasheet of a folder: its own file, else built from its datasheet sweep, else from its main sweep. */
static void load_report(struct one_report *r)
{
  struct atl_result_set src;
  if (!load(r->dir, "rmw.json", &r->rmw))
    die_usage("--compare '%s': no readable data/rmw.json (a folder written by atomlab report)", r->dir);
  if (!load(r->dir, "datasheet.json", &r->datasheet)) {
    if (load(r->dir, "datasheet-rmw.json", &src)) {
      atl_datasheet(&src, &r->datasheet);
      atl_result_set_release(&src);
    } else
      atl_datasheet(&r->rmw, &r->datasheet);
  }
  r->has_strategy = load(r->dir, "strategy.json", &r->strategy);
  r->has_histogram = load(r->dir, "histogram.json", &r->histogram);
}

static const struct atl_row *datasheet_row(const struct atl_result_set *ds, const struct atl_row *like)
{
  char a[640], b[640];
  atl_row_key(like, a, sizeof a);
  for (size_t i = 0; i < ds->count; i++) {
    atl_row_key(&ds->rows[i], b, sizeof b);
    if (strcmp(a, b) == 0)
      return &ds->rows[i];
  }
  return NULL;
}

static void write_compare(FILE *o, struct one_report *reps, size_t n)
{
  fputs("# atomlab reports side by side\n\n", o);
  fputs("| report | device | backend | compute units | clock |\n|---|---|---|---|---|\n", o);
  for (size_t i = 0; i < n; i++) {
    const struct atl_device_info *d = &reps[i].rmw.meta.device;
    fputs("| ", o);
    atl__esc_md(o, reps[i].dir);
    fputs(" | ", o);
    atl__esc_md(o, d->name);
    fputs(" | ", o);
    atl__esc_md(o, d->backend);
    fprintf(o, " | %u | %u MHz |\n", d->compute_units, d->clock_mhz);
  }
  fputs("\n## Datasheets\n\nGop/s at one thread per word (peak) and at the most threads per word each report "
        "measured (same address), with the ratio to the first report's rate in parentheses; - where a report "
        "has no such row.\n\n| op | type | space | result |", o);
  for (size_t i = 0; i < n; i++)
    fprintf(o, " peak %zu | same address %zu |", i + 1, i + 1);
  fputs("\n|---|---|---|---|", o);
  for (size_t i = 0; i < n; i++)
    fputs("---|---|", o);
  fputs("\n", o);
  /* every configuration of any report, in the order first seen */
  for (size_t i = 0; i < n; i++)
    for (size_t k = 0; k < reps[i].datasheet.count; k++) {
      const struct atl_row *row = &reps[i].datasheet.rows[k];
      int earlier = 0;
      for (size_t j = 0; j < i && !earlier; j++)
        earlier = datasheet_row(&reps[j].datasheet, row) != NULL;
      if (earlier)
        continue;
      static const char *const keys[] = {"op", "type", "space", "result"}; /* from files: escaped */
      fputs("|", o);
      for (int k = 0; k < 4; k++) {
        fputs(" ", o);
        atl__esc_md(o, atl_row_config(row, keys[k]) ? atl_row_config(row, keys[k]) : "");
        fputs(" |", o);
      }
      const struct atl_row *first = datasheet_row(&reps[0].datasheet, row);
      for (size_t j = 0; j < n; j++) {
        const struct atl_row *r = datasheet_row(&reps[j].datasheet, row);
        static const char *const m[] = {"peak_gops", "same_address_gops"};
        for (int q = 0; q < 2; q++) {
          const double v = r ? atl_row_metric(r, m[q], -1) : -1, f = first ? atl_row_metric(first, m[q], -1) : -1;
          if (v < 0)
            fputs(" - |", o);
          else if (j > 0 && f > 0)
            fprintf(o, " %.4g (%.3gx) |", v, v / f);
          else
            fprintf(o, " %.4g |", v);
        }
      }
      fputs("\n", o);
    }
  fputs("\n", o);
  for (size_t i = 0; i < n; i++) {
    struct atl_findings fs = {0};
    atl_findings_rmw(&reps[i].rmw, &fs);
    if (reps[i].has_strategy)
      atl_findings_strategy(&reps[i].strategy, &fs);
    if (reps[i].has_histogram)
      atl_findings_histogram(&reps[i].histogram, &fs);
    fprintf(o, "## Findings %zu: ", i + 1);
    atl__esc_md(o, reps[i].rmw.meta.device.name);
    fputs("\n\n", o);
    for (size_t k = 0; k < fs.count; k++) {
      fputs("- ", o);
      atl__esc_md(o, fs.items[k].text);
      fputs("\n", o);
    }
    fputs("\n", o);
    atl_findings_release(&fs);
  }
}

int report_compare(char **dirs, int ndirs, const char *out)
{
  if (ndirs < 2 || ndirs > MAX_REPORTS)
    die_usage("--compare takes 2 to %d report folders, got %d", MAX_REPORTS, ndirs);
  cli_check_output("-o", out);
  struct one_report reps[MAX_REPORTS];
  memset(reps, 0, sizeof reps);
  for (int i = 0; i < ndirs; i++) {
    reps[i].dir = dirs[i];
    load_report(&reps[i]);
  }
  char *text = NULL;
  size_t len = 0;
  FILE *o = open_memstream(&text, &len);
  if (o == NULL)
    die("out of memory");
  write_compare(o, reps, (size_t)ndirs);
  if (fclose(o) != 0 || cli_write_text(out, text, len) != 0)
    die("unable to write '%s'", out);
  free(text);
  for (int i = 0; i < ndirs; i++) {
    atl_result_set_release(&reps[i].rmw);
    atl_result_set_release(&reps[i].datasheet);
    if (reps[i].has_strategy)
      atl_result_set_release(&reps[i].strategy);
    if (reps[i].has_histogram)
      atl_result_set_release(&reps[i].histogram);
  }
  printf("report: %s (%d reports side by side)\n", out, ndirs);
  return EXIT_OK;
}
