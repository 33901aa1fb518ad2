/*
 * The histogram case study read back as a whole (seed 002, section 4): the
 * model's prediction per profiled launch (predict.csv), the timings without
 * the profiler (hist-case.csv) and the validation kernels' verdicts
 * (validate.csv), as scripts/gpu-smem.sh leaves them in one folder. From
 * them: whether the seed's three findings hold on this GPU (the summary) and
 * the data of its figures (the .dat files `atomlab plot` draws).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomlab/error.h"
#include "atomlab/model.h"
#include "core/output_internal.h"
#include "csv.h"
#include "text.h"

#define MAX_FIELDS 64

static const char *const kernels[] = {"histogram", "histogram2"};
static const char *const images[] = {"solid", "uniform"};
/* the panels' order: ATOMS.ADD (the dummy read) first, as the seed's figures */
static const enum atl_smem_variant results[] = {ATL_SMEM_USED, ATL_SMEM_UNUSED};
static const char *const instr[] = {"ATOMS.POPC.INC", "ATOMS.ADD"}; /* by enum atl_smem_variant */

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
 * Reads @p r->path record by record; row() takes each after the header.
 * Returns 0 (ENOENT: the file is not there, *present 0), or ATL_EIO/EINVAL with
 * a reason naming the file.
 */
static int read_rows(struct reader *r, int *present, int (*row)(struct reader *, char **, void *, char *, size_t),
                     void *arg, char *why, size_t why_len)
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
  size_t rows = 0;
  int err = 0, nh = -1;
  for (int nf; err == 0 && (nf = atl__csv_record(&p, line, sizeof line, f, MAX_FIELDS, &lineno, r->path, why,
                                                   why_len)) != 0;) {
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
    } else {
      rows++;
      err = row(r, f, arg, why, why_len);
    }
  }
  free(text);
  if (err == 0 && rows == 0) {
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

static int grow(void **rows, size_t *cap, size_t n, size_t size, char *why, size_t why_len)
{
  void *grown = atl__grow_rows(*rows, cap, n, size, 64);
  if (grown == NULL) {
    snprintf(why, why_len, "out of memory");
    return ATL_ENOMEM;
  }
  *rows = grown;
  return 0;
}

struct grown {
  struct atl_smem_case_study *s;
  size_t cap;
};

static int launch_row(struct reader *r, char **f, void *arg, char *why, size_t why_len)
{
  struct grown *g = arg;
  struct atl_smem_case_study *s = g->s;
  int err = grow((void **)&s->launches, &g->cap, s->nlaunches, sizeof *s->launches, why, why_len);
  if (err)
    return err;
  struct atl_smem_case_point *x = &s->launches[s->nlaunches];
  memset(x, 0, sizeof *x);
  x->passes = x->ratio_pipelined = NAN;
  /* by column of predict_cols from 5 on; the verdict (11) is text */
  double *num[] = {&x->utilization, &x->e, &x->passes, &x->busy_us, &x->measured_us, &x->ratio, NULL,
                   &x->ratio_pipelined};
  if ((err = labels(r, f, x, why, why_len)))
    return err;
  for (int c = 5; c < 13; c++) /* passes and B'/measured may be empty or absent: not counted, not derived */
    if (num[c - 5] && ((c != 7 && c != 12) || (r->col[c] >= 0 && f[r->col[c]][0])))
      if ((err = field_number(r, f, c, num[c - 5], why, why_len)))
        return err;
  x->bottleneck = strcmp(f[r->col[11]], "bottleneck") == 0;
  s->nlaunches++;
  return 0;
}

static int timing_row(struct reader *r, char **f, void *arg, char *why, size_t why_len)
{
  struct grown *g = arg;
  struct atl_smem_case_study *s = g->s;
  int err = grow((void **)&s->timings, &g->cap, s->ntimings, sizeof *s->timings, why, why_len);
  if (err)
    return err;
  struct atl_smem_case_point *x = &s->timings[s->ntimings];
  memset(x, 0, sizeof *x);
  if ((err = labels(r, f, x, why, why_len)) || (err = field_number(r, f, 5, &x->median_ms, why, why_len)))
    return err;
  s->ntimings++;
  return 0;
}

static int check_row(struct reader *r, char **f, void *arg, char *why, size_t why_len)
{
  struct grown *g = arg;
  struct atl_smem_case_study *s = g->s;
  int err = grow((void **)&s->checks, &g->cap, s->nchecks, sizeof *s->checks, why, why_len);
  if (err)
    return err;
  struct atl_smem_case_check *x = &s->checks[s->nchecks++];
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
  int (*rows[3])(struct reader *, char **, void *, char *, size_t) = {launch_row, timing_row, check_row};
  int present[3] = {0, 0, 0}, err = 0;
  for (int i = 0; i < 3 && err == 0; i++) {
    struct grown g = {s, 0};
    err = read_rows(&rd[i], &present[i], rows[i], &g, why, why_len);
  }
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

/* The last row of @p rows with these labels (a later row of the same run replaces an earlier one), or NULL. */
static const struct atl_smem_case_point *find(const struct atl_smem_case_point *rows, size_t n, unsigned k,
                                              unsigned image, enum atl_smem_variant v, unsigned wg, unsigned px)
{
  for (size_t i = n; i-- > 0;)
    if (rows[i].variant == v && rows[i].wg_size == wg && rows[i].pixels == px &&
        strcmp(rows[i].kernel, kernels[k]) == 0 && strcmp(rows[i].image, images[image]) == 0)
      return &rows[i];
  return NULL;
}

/* histogram's median time over histogram2's at one point; NAN where either is missing. */
static double speedup(const struct atl_smem_case_study *s, unsigned image, enum atl_smem_variant v, unsigned wg,
                      unsigned px)
{
  const struct atl_smem_case_point *a = find(s->timings, s->ntimings, 0, image, v, wg, px),
                                   *b = find(s->timings, s->ntimings, 1, image, v, wg, px);
  return a && b && a->median_ms > 0 && b->median_ms > 0 ? a->median_ms / b->median_ms : NAN;
}

int atl_smem_case_study_write_dat(FILE *f, const struct atl_smem_case_study *s, enum atl_smem_case_figure fig)
{
  if (fig == ATL_SMEM_CASE_PRED) {
    fprintf(f, "# measured_us busy_us U   (block 0: bottleneck verdicts, block 1: the others)\n");
    for (int want = 1; want >= 0; want--) {
      for (size_t i = 0; i < s->nlaunches; i++)
        if (s->launches[i].bottleneck == want)
          fprintf(f, "%.6g %.6g %.6g\n", s->launches[i].measured_us, s->launches[i].busy_us,
                  s->launches[i].utilization);
      fprintf(f, "\n\n");
    }
    return ferror(f) ? ATL_EIO : 0;
  }
  const int util = fig == ATL_SMEM_CASE_UTIL;
  fprintf(f, util ? "# U of the shared-memory atomic unit; series:"
                  : "# speedup of histogram2 over histogram (median time ratio); series:");
  for (unsigned k = 0; k < (util ? 2u : 1u); k++)
    for (size_t w = 0; w < s->nwgs; w++)
      fprintf(f, " %s%swg%u", util ? kernels[k] : "", util ? "/" : "", s->wgs[w]);
  fputc('\n', f);
  /* one block per panel (result x image), columns: pixels, then one series per (kernel,) block size */
  for (int r = 0; r < 2; r++)
    for (unsigned i = 0; i < 2; i++) {
      fprintf(f, "# panel %s %s (%s)\n", images[i], atl_smem_variant_name(results[r]), instr[results[r]]);
      for (size_t p = 0; p < s->nsizes; p++) {
        fprintf(f, "%u", s->sizes[p]);
        for (unsigned k = 0; k < (util ? 2u : 1u); k++)
          for (size_t w = 0; w < s->nwgs; w++) {
            const struct atl_smem_case_point *x =
                util ? find(s->launches, s->nlaunches, k, i, results[r], s->wgs[w], s->sizes[p]) : NULL;
            const double v = util ? (x ? x->utilization : NAN) : speedup(s, i, results[r], s->wgs[w], s->sizes[p]);
            isnan(v) ? fprintf(f, " NaN") : fprintf(f, " %.6g", v);
          }
        fputc('\n', f);
      }
      fprintf(f, "\n\n");
    }
  return ferror(f) ? ATL_EIO : 0;
}

/* A list of values and its statistics (count, min, max, median). */
struct list {
  double *v;
  size_t n;
  struct atl_stats st;
};

static void list_done(struct list *l) { atl_stats_compute(l->v, l->n, &l->st); }

enum quantity { Q_UTIL, Q_E, Q_PASSES, Q_PIPE };

/* A quantity of kernel @p k's launches on @p image with @p v over every block size and the large images. */
static void collect(const struct atl_smem_case_study *s, unsigned k, unsigned image, enum atl_smem_variant v,
                    enum quantity q, unsigned large, struct list *out)
{
  out->n = 0;
  for (size_t w = 0; w < s->nwgs; w++)
    for (size_t p = 0; p < s->nsizes; p++) {
      const struct atl_smem_case_point *x =
          s->sizes[p] >= large ? find(s->launches, s->nlaunches, k, image, v, s->wgs[w], s->sizes[p]) : NULL;
      const double val = !x ? NAN : q == Q_UTIL ? x->utilization : q == Q_E ? x->e : q == Q_PASSES ? x->passes
                                                                                                  : x->ratio_pipelined;
      if (!isnan(val))
        out->v[out->n++] = val;
    }
  list_done(out);
}

static void span(FILE *f, const struct list *l)
{
  l->n ? fprintf(f, "%.2f..%.2f", l->st.min, l->st.max) : fprintf(f, "-");
}

/* Findings 1 and 2 of the seed for one result use: solid images saturate the unit, uniform ones do not. */
static void findings_1_2(FILE *f, const struct atl_smem_case_study *s, enum atl_smem_variant v, unsigned large,
                         double threshold, int finding, struct list *l)
{
  struct list *u = &l[0], *e = &l[1], *passes = &l[2], *pipe = &l[3];
  const unsigned image = finding == 1 ? 0 : 1;
  collect(s, 0, image, v, Q_UTIL, large, u);
  collect(s, 0, image, v, Q_E, large, e);
  collect(s, 0, image, v, Q_PASSES, large, passes);
  collect(s, 0, image, v, Q_PIPE, large, pipe);
  if (u->n == 0) {
    fprintf(f, finding == 1 ? "1. solid saturates with e = 32 (%s): NO DATA\n"
                            : "2. uniform stays below saturation with e near 3 (%s): NO DATA\n", instr[v]);
    return;
  }
  if (finding == 1) {
    const int holds = e->st.min >= 31 && u->st.min >= threshold;
    fprintf(f, "1. solid images saturate the unit with e = 32 (%s, histogram): %s: e %.1f..%.1f, U %.2f..%.2f on "
               "large images; B'/measured (pipelined S') ", instr[v], holds ? "HOLDS" : "DOES NOT HOLD", e->st.min,
            e->st.max, u->st.min, u->st.max);
    span(f, pipe);
    fputc('\n', f);
    return;
  }
  /* the seed's e near 3 is bank-conflict passes per job: only ncu's wavefront count shows it */
  const int below = u->st.max < threshold, near3 = passes->n && passes->st.median >= 2 && passes->st.median <= 4;
  const int upper = e->st.median < 2; /* the table's S there is mostly latency: U only an upper bound */
  fprintf(f, "2. uniform images stay below saturation with e near 3 (%s, histogram): %s: U %.2f..%.2f on large "
             "images (%s %g); B'/measured (pipelined S') ", instr[v],
          below && near3 ? "HOLDS" : below ? "HOLDS IN PART" : upper ? "UNDECIDED (U is only an upper bound at e < 2)"
                                                                     : "DOES NOT HOLD",
          u->st.min, u->st.max, below ? "below" : "NOT below", threshold);
  span(f, pipe);
  if (passes->n)
    fprintf(f, "; passes per job (the seed's e: bank-conflict passes) %.2f..%.2f: %s\n", passes->st.min,
            passes->st.max, near3 ? "near 3" : "not near 3");
  else
    fprintf(f, "; e near 3 NOT CHECKABLE: ncu offered no shared-atomic wavefront count; atomlab's e (lanes per "
               "distinct word) is %.2f..%.2f\n", e->st.min, e->st.max);
}

/* Finding 3: reordering the channels (histogram2) lowers the utilization on solid images, and runs faster. */
static void finding_3(FILE *f, const struct atl_smem_case_study *s, enum atl_smem_variant v, unsigned large,
                      struct list *l)
{
  struct list *a = &l[0], *b = &l[1], *sp = &l[2];
  a->n = b->n = sp->n = 0;
  size_t lower = 0;
  for (size_t w = 0; w < s->nwgs; w++)
    for (size_t p = 0; p < s->nsizes; p++) {
      if (s->sizes[p] < large)
        continue;
      const struct atl_smem_case_point *x = find(s->launches, s->nlaunches, 0, 0, v, s->wgs[w], s->sizes[p]),
                                       *y = find(s->launches, s->nlaunches, 1, 0, v, s->wgs[w], s->sizes[p]);
      if (x && y) {
        a->v[a->n++] = x->utilization;
        b->v[b->n++] = y->utilization;
        lower += y->utilization < x->utilization;
      }
      const double r = speedup(s, 0, v, s->wgs[w], s->sizes[p]);
      if (!isnan(r))
        sp->v[sp->n++] = r;
    }
  list_done(a);
  list_done(b);
  list_done(sp);
  if (a->n == 0) {
    fprintf(f, "3. reordering lowers utilization (%s): NO DATA\n", instr[v]);
    return;
  }
  fprintf(f, "3. reordering (histogram2) lowers utilization on solid images (%s): %s: lower in %zu of %zu "
             "large-image runs, median U %.2f -> %.2f; speedup of histogram2 (runs without the profiler) ", instr[v],
          lower == a->n ? "HOLDS" : lower ? "HOLDS IN PART" : "DOES NOT HOLD", lower, a->n, a->st.median,
          b->st.median);
  sp->n ? fprintf(f, "%.2f..%.2f, median %.2f\n", sp->st.min, sp->st.max, sp->st.median) : fprintf(f, "-\n");
}

/* B against the measured time over every profiled launch, and the validation kernels' verdicts. */
static void predictions(FILE *f, const struct atl_smem_case_study *s, struct list *l)
{
  struct list *bott = &l[0], *rest = &l[1], *pipe = &l[2];
  bott->n = rest->n = pipe->n = 0;
  for (size_t i = 0; i < s->nlaunches; i++) {
    const struct atl_smem_case_point *x = &s->launches[i];
    if (x->bottleneck)
      bott->v[bott->n++] = fabs(x->ratio - 1);
    else
      rest->v[rest->n++] = x->ratio;
    if (x->bottleneck && !isnan(x->ratio_pipelined))
      pipe->v[pipe->n++] = fabs(x->ratio_pipelined - 1);
  }
  list_done(bott);
  list_done(rest);
  list_done(pipe);
  if (s->nlaunches == 0)
    fprintf(f, "predicted busy time B vs measured kernel time: NO DATA\n");
  else {
    fprintf(f, "predicted busy time B vs measured kernel time (%zu profiled launches, predict.md): ", s->nlaunches);
    bott->n ? fprintf(f, "bottleneck launches %zu: median |B/measured - 1| %.0f %%, largest %.0f %%; ", bott->n,
                      bott->st.median * 100, bott->st.max * 100)
            : fprintf(f, "no bottleneck launch; ");
    if (rest->n)
      fprintf(f, "other launches %zu: B/measured median %.2f", rest->n, rest->st.median);
    fputc('\n', f);
  }
  if (pipe->n)
    fprintf(f, "  with atomlab's pipelined S' = (T(n) - T(1)) / (n - 1) instead of T(n) / n: bottleneck launches "
               "median |B'/measured - 1| %.0f %%, largest %.0f %%\n", pipe->st.median * 100, pipe->st.max * 100);
  if (!s->have_checks) {
    fprintf(f, "validation: no validate.csv (not run)\n");
    return;
  }
  for (unsigned w = 0; w < ATL_SMEM_VALIDATIONS; w++) {
    const char *name = atl_smem_validation_kernel((enum atl_smem_validation)w);
    const char *want = w == ATL_SMEM_VALIDATE_ATOMICS ? "bottleneck" : "not a bottleneck";
    size_t runs = 0, right = 0;
    for (size_t i = 0; i < s->nchecks; i++)
      if (strcmp(s->checks[i].kernel, name) == 0)
        runs++, right += strcmp(s->checks[i].verdict, want) == 0;
    fprintf(f, "validation %s: expected '%s': %s", name, want, !runs ? "NOT RUN" : right == runs ? "RIGHT" : "WRONG");
    for (size_t i = 0, n = 0; i < s->nchecks; i++)
      if (strcmp(s->checks[i].kernel, name) == 0)
        fprintf(f, "%s%s", n++ ? ", " : " (U ", s->checks[i].utilization);
    fprintf(f, "%s\n", runs ? ")" : "");
  }
}

int atl_smem_case_study_write_summary(FILE *f, const struct atl_smem_case_study *s, double threshold)
{
  const size_t room = s->nwgs * s->nsizes + s->nlaunches + 1;
  double *buf = malloc(4 * room * sizeof *buf);
  if (buf == NULL)
    return ATL_ENOMEM;
  struct list l[4];
  for (int i = 0; i < 4; i++)
    l[i] = (struct list){.v = buf + i * room};
  /* the large images: where the seed's curves settle */
  const unsigned large = s->nsizes ? s->sizes[s->nsizes - 1] / 4 : 0;
  fprintf(f, "# The seed's histogram findings on this GPU (computed by atomlab model case-summary from %s)\n", s->dir);
  if (s->nlaunches == 0)
    fprintf(f, "# NO predict.csv: the profiled case study did not complete (see gpu-smem-log.txt); the findings on "
               "U cannot be computed\n");
  if (s->ntimings == 0)
    fprintf(f, "# NO hist-case.csv: the timings did not complete; no speedups\n");
  fprintf(f, "# U >= %g is a bottleneck; 'large' = the sizes", threshold);
  for (size_t p = 0, n = 0; p < s->nsizes; p++)
    if (s->sizes[p] >= large)
      fprintf(f, "%s %u", n++ ? "," : "", s->sizes[p]);
  fprintf(f, " px; block sizes");
  for (size_t w = 0; w < s->nwgs; w++)
    fprintf(f, "%s %u", w ? "," : "", s->wgs[w]);
  fprintf(f, "\n\n");
  for (int finding = 1; finding <= 3; finding++)
    for (int r = 0; r < 2; r++)
      finding < 3 ? findings_1_2(f, s, results[r], large, threshold, finding, l)
                  : finding_3(f, s, results[r], large, l);
  fputc('\n', f);
  predictions(f, s, l);
  free(buf);
  return ferror(f) ? ATL_EIO : 0;
}
