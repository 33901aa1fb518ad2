/*
 * The files of a histogram case-study folder read back (seed 002, section 4):
 * the model's prediction per profiled launch (predict.csv), the timings
 * without the profiler (hist-case.csv) and the validation kernels' verdicts
 * (validate.csv), as the GPU case study writes them. study.c draws the
 * findings and the figures' data from them.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomlab/error.h"
#include "atomlab/model.h"
#include "core/output_internal.h"
#include "core/csv.h"
#include "core/text.h"

#define MAX_FIELDS 64

/* One file's columns by name: the first @p nrequired of @p names must be there, the rest may not. */
struct reader {
  const char *path;
  const char *const *names;
  int nnames, nrequired;
  int col[16];
};

/* A whole number or a finite number of a field, or an error naming the file, the column and the text. */
static int field_number(const struct reader *r, char **f, int i, double *out, char *why, size_t why_len)
{
  char *end;
  const char *text = f[r->col[i]];
  errno = 0;
  *out = strtod(text, &end);
  if (*text == '\0' || *end != '\0' || errno || !isfinite(*out)) {
    snprintf(why, why_len, "'%s': %s = '%.40s' is not a number", r->path, r->names[i], text);
    return ATL_EINVAL;
  }
  return 0;
}

/*
 * Reads @p r->path record by record into @p *rows (grown as needed, @p size
 * bytes each); row() fills each zeroed element after the header. Returns 0
 * (*present 0 where the file is not there), or ATL_EIO/EINVAL/ENOMEM with a
 * reason naming the file.
 */
static int read_rows(struct reader *r, int *present, void **rows, size_t *count, size_t size,
                     int (*row)(const struct reader *, char **, void *, char *, size_t), char *why, size_t why_len)
{
  struct stat st;
  *present = stat(r->path, &st) == 0;
  if (!*present)
    return 0; /* a step of the run that did not finish: the summary says so */
  char detail[200], line[8192], *f[MAX_FIELDS];
  char *text = atl__read_text_input(r->path, (size_t)1 << 26, detail, sizeof detail);
  if (text == NULL) {
    snprintf(why, why_len, "unable to read '%s': %s", r->path, detail);
    return ATL_EIO;
  }
  const char *p = text;
  unsigned lineno = 0;
  size_t cap = 0;
  int err = 0, nh = -1;
  for (int nf; err == 0 && (nf = atl__csv_record(&p, line, sizeof line, f, MAX_FIELDS, &lineno, r->path, why,
                                                   why_len)) != 0;) {
    void *grown = NULL;
    if (nf < 0) {
      err = ATL_EINVAL;
    } else if (nh < 0) {
      nh = nf;
      for (int w = 0; w < r->nnames; w++) {
        r->col[w] = -1;
        for (int i = 0; i < nf && r->col[w] < 0; i++)
          r->col[w] = strcmp(f[i], r->names[w]) == 0 ? i : -1;
        if (r->col[w] < 0 && w < r->nrequired) {
          snprintf(why, why_len, "'%s' lacks the column '%s'", r->path, r->names[w]);
          err = ATL_EINVAL;
          break;
        }
      }
    } else if (nf != nh) {
      snprintf(why, why_len, "%s:%u: %d fields where the header has %d", r->path, lineno, nf, nh);
      err = ATL_EINVAL;
    } else if ((grown = atl__grow_rows(*rows, &cap, *count, size, 64)) == NULL) {
      snprintf(why, why_len, "out of memory");
      err = ATL_ENOMEM;
    } else {
      *rows = grown;
      void *elem = (char *)grown + *count * size;
      memset(elem, 0, size);
      if ((err = row(r, f, elem, why, why_len)) == 0)
        ++*count;
    }
  }
  free(text);
  if (err == 0 && *count == 0) {
    snprintf(why, why_len, "'%s' has no rows", r->path);
    err = ATL_EINVAL;
  }
  return err;
}

/* The labels every row of predict.csv and hist-case.csv has: kernel, image, result, pixels, wg_size. */
static int labels(const struct reader *r, char **f, struct atl_smem_case_point *x, char *why, size_t why_len)
{
  double px, wg;
  int err = field_number(r, f, 3, &px, why, why_len);
  if (err || (err = field_number(r, f, 4, &wg, why, why_len)))
    return err;
  int v = atl_smem_variant_parse(f[r->col[2]]);
  if (v < 0 || strlen(f[r->col[0]]) >= sizeof x->kernel || strlen(f[r->col[1]]) >= sizeof x->image) {
    snprintf(why, why_len, "'%s': a row's %s, %s or %s is not one of the case study's", r->path, r->names[0],
             r->names[1], r->names[2]);
    return ATL_EINVAL;
  }
  snprintf(x->kernel, sizeof x->kernel, "%s", f[r->col[0]]);
  snprintf(x->image, sizeof x->image, "%s", f[r->col[1]]);
  x->variant = (enum atl_smem_variant)v;
  x->pixels = (unsigned)px;
  x->wg_size = (unsigned)wg;
  return 0;
}

static int launch_row(const struct reader *r, char **f, void *elem, char *why, size_t why_len)
{
  struct atl_smem_case_point *x = elem;
  x->passes = x->ratio_pipelined = NAN;
  /* by column of predict_cols from 5 on; the verdict (11) is text */
  double *num[] = {&x->utilization, &x->e, &x->passes, &x->busy_us, &x->measured_us, &x->ratio, NULL,
                   &x->ratio_pipelined};
  int err = labels(r, f, x, why, why_len);
  for (int c = 5; err == 0 && c < 13; c++) /* passes and B'/measured may be empty or absent: not counted */
    if (num[c - 5] && ((c != 7 && c != 12) || (r->col[c] >= 0 && f[r->col[c]][0])))
      err = field_number(r, f, c, num[c - 5], why, why_len);
  x->bottleneck = strcmp(f[r->col[11]], "bottleneck") == 0;
  return err;
}

static int timing_row(const struct reader *r, char **f, void *elem, char *why, size_t why_len)
{
  struct atl_smem_case_point *x = elem;
  int err = labels(r, f, x, why, why_len);
  return err ? err : field_number(r, f, 5, &x->median_ms, why, why_len);
}

static int check_row(const struct reader *r, char **f, void *elem, char *why, size_t why_len)
{
  struct atl_smem_case_check *x = elem;
  (void)why, (void)why_len; /* any text is a kernel name, a U and a verdict: the summary only compares them */
  snprintf(x->kernel, sizeof x->kernel, "%s", f[r->col[0]]);
  snprintf(x->utilization, sizeof x->utilization, "%s", f[r->col[1]]); /* as the file has it */
  snprintf(x->verdict, sizeof x->verdict, "%s", f[r->col[2]]);
  return 0;
}

/* Adds @p v to the ascending set @p set of @p n values (room for one more is there). */
static void add_sorted(unsigned *set, size_t *n, unsigned v)
{
  size_t at = 0;
  while (at < *n && set[at] < v)
    at++;
  if (at < *n && set[at] == v)
    return;
  memmove(set + at + 1, set + at, (*n - at) * sizeof *set);
  set[at] = v;
  ++*n;
}

int atl_smem_case_study_read(const char *dir, struct atl_smem_case_study *s, char *why, size_t why_len)
{
  /* pipelined_over_measured, the last, came later than the rest: the one column a file may lack */
  static const char *const predict_cols[] = {"case_kernel", "image",  "result",      "pixels",
                                             "wg_size",     "utilization", "e",     "passes_per_job",
                                             "busy_us",     "measured_us", "busy_over_measured", "verdict",
                                             "pipelined_over_measured"};
  static const char *const timing_cols[] = {"kernel", "image", "result", "pixels", "wg_size", "median_ms"};
  static const char *const check_cols[] = {"kernel", "utilization", "verdict"};
  char paths[3][1100];
  memset(s, 0, sizeof *s);
  snprintf(s->dir, sizeof s->dir, "%s", dir);
  snprintf(paths[0], sizeof paths[0], "%s/predict.csv", dir);
  snprintf(paths[1], sizeof paths[1], "%s/hist-case.csv", dir);
  snprintf(paths[2], sizeof paths[2], "%s/validate.csv", dir);
  struct reader rd[3] = {{paths[0], predict_cols, 13, 12, {0}}, {paths[1], timing_cols, 6, 6, {0}},
                         {paths[2], check_cols, 3, 3, {0}}};
  int present[3] = {0, 0, 0};
  int err = read_rows(&rd[0], &present[0], (void **)&s->launches, &s->nlaunches, sizeof *s->launches, launch_row,
                      why, why_len);
  if (err == 0)
    err = read_rows(&rd[1], &present[1], (void **)&s->timings, &s->ntimings, sizeof *s->timings, timing_row, why,
                    why_len);
  if (err == 0)
    err = read_rows(&rd[2], &present[2], (void **)&s->checks, &s->nchecks, sizeof *s->checks, check_row, why,
                    why_len);
  if (err == 0 && !present[0] && !present[1]) {
    snprintf(why, why_len, "neither predict.csv nor hist-case.csv in '%s': nothing to report", dir);
    err = ATL_EINVAL;
  }
  s->have_checks = present[2];
  const size_t most = s->nlaunches + s->ntimings + 1;
  if (err == 0 && ((s->wgs = malloc(most * sizeof *s->wgs)) == NULL || (s->sizes = malloc(most * sizeof *s->sizes)) == NULL)) {
    snprintf(why, why_len, "out of memory");
    err = ATL_ENOMEM;
  }
  for (size_t i = 0; err == 0 && i < s->nlaunches + s->ntimings; i++) {
    const struct atl_smem_case_point *x = i < s->nlaunches ? &s->launches[i] : &s->timings[i - s->nlaunches];
    add_sorted(s->wgs, &s->nwgs, x->wg_size);
    add_sorted(s->sizes, &s->nsizes, x->pixels);
  }
  if (err)
    atl_smem_case_study_release(s);
  return err;
}

void atl_smem_case_study_release(struct atl_smem_case_study *s)
{
  free(s->launches);
  free(s->timings);
  free(s->checks);
  free(s->wgs);
  free(s->sizes);
  s->launches = s->timings = NULL;
  s->checks = NULL;
  s->wgs = s->sizes = NULL;
  s->nlaunches = s->ntimings = s->nchecks = s->nwgs = s->nsizes = 0;
}
