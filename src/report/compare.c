/* atl_report_compare (`atomlab report --compare DIR...`): reports of several devices side by side (issue [report-findings]): each
 * device's facts, the datasheets in one table with every rate's ratio to the first device's, and each
 * device's findings. Everything is computed from the folders' data/ through the library (atl_datasheet,
 * atl_findings_*), so reports written before the datasheet step get the datasheet rows their sweep has. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/escape.h"
#include "report_internal.h"

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

/* The datasheet of a folder: its own file, else built from its datasheet sweep, else from its main sweep.
 * 0, or -1 if the folder has no sweep. */
static int load_report(struct one_report *r)
{
  struct atl_result_set src;
  if (!load(r->dir, "rmw.json", &r->rmw))
    return -1;
  if (!load(r->dir, "datasheet.json", &r->datasheet)) {
    if (load(r->dir, "datasheet-rmw.json", &src)) {
      atl_datasheet(&src, &r->datasheet);
      atl_result_set_release(&src);
    } else
      atl_datasheet(&r->rmw, &r->datasheet);
  }
  r->has_strategy = load(r->dir, "strategy.json", &r->strategy);
  r->has_histogram = load(r->dir, "histogram.json", &r->histogram);
  return 0;
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

static void release_reports(struct one_report *reps, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    atl_result_set_release(&reps[i].rmw);
    atl_result_set_release(&reps[i].datasheet);
    if (reps[i].has_strategy)
      atl_result_set_release(&reps[i].strategy);
    if (reps[i].has_histogram)
      atl_result_set_release(&reps[i].histogram);
  }
}

int atl_report_compare_write(FILE *o, const char *const *dirs, size_t ndirs, char *why, size_t why_len)
{
  if (ndirs < 2 || ndirs > ATL_REPORT_COMPARE_MAX) {
    snprintf(why, why_len, "takes 2 to %d report folders, got %zu", ATL_REPORT_COMPARE_MAX, ndirs);
    return ATL_EINVAL;
  }
  struct one_report reps[ATL_REPORT_COMPARE_MAX];
  memset(reps, 0, sizeof reps);
  for (size_t i = 0; i < ndirs; i++) {
    reps[i].dir = dirs[i];
    if (load_report(&reps[i]) != 0) {
      release_reports(reps, i);
      snprintf(why, why_len, "'%s': no readable data/rmw.json (a folder written by atomlab report)", dirs[i]);
      return ATL_EINVAL;
    }
  }
  write_compare(o, reps, ndirs);
  release_reports(reps, ndirs);
  return 0;
}

int atl_report_compare(const char *const *dirs, size_t ndirs, const char *out, atl_report_notify notify, void *arg,
                       char *why, size_t why_len)
{
  char *text = NULL;
  size_t len = 0;
  FILE *o = open_memstream(&text, &len);
  if (o == NULL) {
    snprintf(why, why_len, "out of memory");
    return ATL_ENOMEM;
  }
  int rc = atl_report_compare_write(o, dirs, ndirs, why, why_len);
  if (fclose(o) != 0 && rc == 0) {
    snprintf(why, why_len, "out of memory");
    rc = ATL_ENOMEM;
  }
  if (rc == 0 && atl__report_write_text(notify, arg, out, text, len) != 0) {
    snprintf(why, why_len, "unable to write '%s'", out);
    rc = ATL_EIO;
  }
  free(text);
  return rc;
}
