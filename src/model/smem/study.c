/*
 * The histogram case study as a whole (seed 002, section 4), from the files
 * of its folder (study_read.c): whether the seed's three findings hold on this
 * GPU (the summary) and the data of its figures (the .dat files `atomlab plot`
 * draws).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab/error.h"
#include "atomlab/model.h"

static const char *const kernels[] = {"histogram", "histogram2"};
static const char *const images[] = {"solid", "uniform"};
/* the panels' order: ATOMS.ADD (the dummy read) first, as the seed's figures */
static const enum atl_smem_variant results[] = {ATL_SMEM_USED, ATL_SMEM_UNUSED};
static const char *const instr[] = {"ATOMS.POPC.INC", "ATOMS.ADD"}; /* by enum atl_smem_variant */

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
