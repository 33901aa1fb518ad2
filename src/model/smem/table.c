/* The calibration table T-hat(n, e, c) and equations (1)-(3) of seed 002. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab/error.h"
#include "atomlab/file.h"
#include "atomlab/model.h"
#include "core/output_internal.h"
#include "core/csv.h"
#include "core/text.h"

static const char *const variant_names[] = {"unused", "used"};

const char *atl_smem_variant_name(enum atl_smem_variant v)
{
  return (unsigned)v < ATL_SMEM_VARIANTS ? variant_names[v] : "?";
}

int atl_smem_variant_parse(const char *s)
{
  for (int v = 0; v < ATL_SMEM_VARIANTS; v++)
    if (strcmp(s, variant_names[v]) == 0)
      return v;
  return -1;
}

static size_t table_size(const struct atl_smem_table *t) { return (size_t)t->nmax * t->emax * (t->nmax + 1); }

static size_t table_index(const struct atl_smem_table *t, unsigned n, unsigned e, unsigned c)
{
  return ((size_t)(n - 1) * t->emax + (e - 1)) * (t->nmax + 1) + c;
}

int atl_smem_table_init(struct atl_smem_table *t, unsigned nmax, unsigned emax)
{
  memset(t, 0, sizeof *t);
  if (nmax < 1 || nmax > ATL_SMEM_MAX_N || emax < 1 || emax > ATL_SMEM_MAX_E)
    return ATL_ERANGE;
  t->nmax = nmax;
  t->emax = emax;
  return 0;
}

void atl_smem_table_release(struct atl_smem_table *t)
{
  for (int v = 0; v < ATL_SMEM_VARIANTS; v++) {
    free(t->t[v]);
    t->t[v] = NULL;
  }
}

int atl_smem_table_set(struct atl_smem_table *t, enum atl_smem_variant v, unsigned n, unsigned e, unsigned c,
                       double cycles)
{
  if ((unsigned)v >= ATL_SMEM_VARIANTS || n < 1 || n > t->nmax || e < 1 || e > t->emax || c > n)
    return ATL_ERANGE;
  if (t->t[v] == NULL) {
    size_t size = table_size(t);
    t->t[v] = malloc(size * sizeof(double));
    if (t->t[v] == NULL)
      return ATL_ENOMEM;
    for (size_t i = 0; i < size; i++)
      t->t[v][i] = NAN;
  }
  t->t[v][table_index(t, n, e, c)] = cycles;
  return 0;
}

double atl_smem_table_get(const struct atl_smem_table *t, enum atl_smem_variant v, unsigned n, unsigned e,
                          unsigned c)
{
  if (n == 0)
    return 0.0; /* equation (1): no job, no time */
  if ((unsigned)v >= ATL_SMEM_VARIANTS || t->t[v] == NULL || n > t->nmax || e < 1 || e > t->emax || c > n)
    return NAN;
  return t->t[v][table_index(t, n, e, c)];
}

size_t atl_smem_table_count(const struct atl_smem_table *t, enum atl_smem_variant v)
{
  size_t count = 0;
  if ((unsigned)v >= ATL_SMEM_VARIANTS || t->t[v] == NULL)
    return 0;
  for (size_t i = 0, size = table_size(t); i < size; i++)
    count += !isnan(t->t[v][i]);
  return count;
}

/* Whether (n, e) has a measured point at any c. */
static int has_ne(const struct atl_smem_table *t, enum atl_smem_variant v, unsigned n, unsigned e)
{
  for (unsigned c = 0; c <= n; c++)
    if (!isnan(atl_smem_table_get(t, v, n, e, c)))
      return 1;
  return 0;
}

/* Whether n has a measured point at any e and c. */
static int has_n(const struct atl_smem_table *t, enum atl_smem_variant v, unsigned n)
{
  for (unsigned e = 1; e <= t->emax; e++)
    if (has_ne(t, v, n, e))
      return 1;
  return 0;
}

/* Linear interpolation between (x0, y0) and (x1, y1) at x (x0 == x1: y0). */
static double lerp(double x0, double y0, double x1, double y1, double x)
{
  if (x1 == x0)
    return y0;
  return y0 + (y1 - y0) * (x - x0) / (x1 - x0);
}

/* Where one axis of the table is probed: variant v at n (and e, for the c axis). */
struct probe {
  const struct atl_smem_table *t;
  enum atl_smem_variant v;
  unsigned n, e;
};

static int measured_c(const struct probe *p, unsigned c)
{
  return !isnan(atl_smem_table_get(p->t, p->v, p->n, p->e, c));
}

static int measured_e(const struct probe *p, unsigned e)
{
  return has_ne(p->t, p->v, p->n, e);
}

/*
 * The measured points around @p x among @p first..@p last on the axis that
 * @p measured tells: lo <= x <= hi. Where x lies beyond them both are the
 * nearest and *@p clamped is set; -1 where the axis has none.
 */
static int neighbours(const struct probe *p, int (*measured)(const struct probe *, unsigned), unsigned first,
                      unsigned last, double x, unsigned *lo, unsigned *hi, int *clamped)
{
  int l = -1, h = -1;
  for (unsigned k = first; k <= last; k++) {
    if (!measured(p, k))
      continue;
    if ((double)k <= x)
      l = (int)k;
    if ((double)k >= x && h < 0)
      h = (int)k;
  }
  if (l < 0 && h < 0)
    return -1;
  if (l < 0 || h < 0) {
    *clamped = 1;
    l = h = l < 0 ? h : l;
  }
  *lo = (unsigned)l;
  *hi = (unsigned)h;
  return 0;
}

/* T over c at integral (n, e), between the measured c around @p c. */
static double interp_c(const struct atl_smem_table *t, enum atl_smem_variant v, unsigned n, unsigned e, double c,
                       int *clamped)
{
  const struct probe p = {t, v, n, e};
  unsigned lo, hi;
  if (neighbours(&p, measured_c, 0, n, c, &lo, &hi, clamped))
    return NAN;
  return lerp(lo, atl_smem_table_get(t, v, n, e, lo), hi, atl_smem_table_get(t, v, n, e, hi), c);
}

/* T over e (and c) at integral n. */
static double interp_e(const struct atl_smem_table *t, enum atl_smem_variant v, unsigned n, double e, double c,
                       int *clamped)
{
  const struct probe p = {t, v, n, 0};
  unsigned lo, hi;
  if (neighbours(&p, measured_e, 1, t->emax, e, &lo, &hi, clamped))
    return NAN;
  double y0 = interp_c(t, v, n, lo, c, clamped);
  double y1 = lo == hi ? y0 : interp_c(t, v, n, hi, c, clamped);
  return lerp(lo, y0, hi, y1, e);
}

/* The largest n with a measured point (0: none). */
static unsigned measured_top(const struct atl_smem_table *t, enum atl_smem_variant v)
{
  unsigned top = 0;
  for (unsigned k = 1; k <= t->nmax; k++)
    if (has_n(t, v, k))
      top = k;
  return top;
}

int atl_smem_T(const struct atl_smem_table *t, enum atl_smem_variant v, double n, double e, double c,
               double *cycles, int *clamped, char *why, size_t why_len)
{
  int clamp = 0;
  if ((unsigned)v >= ATL_SMEM_VARIANTS || t->t[v] == NULL) {
    snprintf(why, why_len, "the calibration table has no '%s' points", atl_smem_variant_name(v));
    return ATL_EINVAL;
  }
  if (!isfinite(n) || !isfinite(e) || !isfinite(c) || n < 0 || e < 0 || c < 0) {
    snprintf(why, why_len, "n, e and c must be finite and not negative (n=%g e=%g c=%g)", n, e, c);
    return ATL_EINVAL;
  }
  if (c > n) {
    snprintf(why, why_len, "c (%g) cannot exceed n (%g)", c, n);
    return ATL_EINVAL;
  }
  if (n == 0) {
    *cycles = 0.0; /* equation (1) */
    if (clamped)
      *clamped = 0;
    return 0;
  }
  const double fraction = c / n; /* the CAS share of the jobs, kept at both integral n */
  const unsigned top = measured_top(t, v);
  if (top == 0) {
    snprintf(why, why_len, "the calibration table has no '%s' points", atl_smem_variant_name(v));
    return ATL_EINVAL;
  }
  if (n > top) {
    n = top;
    clamp = 1;
  }
  /* the measured n around n; n = 0 is always "measured" (T-hat(0) = 0) */
  unsigned lo = 0, hi = top;
  for (unsigned k = 1; k <= top; k++) {
    if (!has_n(t, v, k))
      continue;
    if ((double)k <= n)
      lo = k;
    if ((double)k >= n) {
      hi = k;
      break;
    }
  }
  double y0 = lo == 0 ? 0.0 : interp_e(t, v, lo, e, fraction * lo, &clamp);
  double y1 = hi == lo ? y0 : interp_e(t, v, hi, e, fraction * hi, &clamp);
  double result = lerp(lo, y0, hi, y1, n);
  if (isnan(result)) {
    snprintf(why, why_len, "the calibration table has no point near n=%g e=%g c=%g", n, e, c);
    return ATL_EINVAL;
  }
  *cycles = result;
  if (clamped)
    *clamped = clamp;
  return 0;
}

int atl_smem_S(const struct atl_smem_table *t, enum atl_smem_variant v, double n, double e, double c,
               double *cycles, int *clamped, char *why, size_t why_len)
{
  if (!(n > 0)) {
    snprintf(why, why_len, "S(n, e, c) needs n > 0 (n=%g)", n);
    return ATL_EINVAL;
  }
  double T = 0;
  int err = atl_smem_T(t, v, n, e, c, &T, clamped, why, why_len);
  if (err)
    return err;
  /* equation (3); beyond the table the unit is saturated: S stays at the largest measured n's */
  const unsigned top = measured_top(t, v);
  *cycles = T / (n > top ? top : n);
  return 0;
}

int atl_smem_query_write(FILE *out, const struct atl_smem_table *t, enum atl_smem_variant v, double n, double e,
                         double c, char *why, size_t why_len)
{
  double T = 0, S = 0;
  int clamped = 0;
  if (atl_smem_T(t, v, n, e, c, &T, &clamped, why, why_len) ||
      (n > 0 && atl_smem_S(t, v, n, e, c, &S, &clamped, why, why_len)))
    return ATL_EINVAL;
  fprintf(out, "result=%s n=%g e=%g c=%g T=%.6g S=%.6g%s\n", atl_smem_variant_name(v), n, e, c, T, S,
          clamped ? " (clamped to the table)" : "");
  return 0;
}

int atl_smem_S_pipelined(const struct atl_smem_table *t, enum atl_smem_variant v, double n, double e, double c,
                         double *cycles, int *clamped, char *why, size_t why_len)
{
  if (!(n > 0) || !isfinite(n) || c > n) {
    snprintf(why, why_len, "S'(n, e, c) needs n > 0 and c <= n (n=%g c=%g)", n, c);
    return ATL_EINVAL;
  }
  const unsigned top = measured_top(t, v);
  if (top < 2 || !has_n(t, v, 1)) {
    snprintf(why, why_len, "the pipelined service time needs measured points at n = 1 and above");
    return ATL_EINVAL;
  }
  const double share = c / n; /* the CAS share, kept at n = 1 and at the n used */
  int clamp = 0;
  if (n > top) {
    n = top;
    clamp = 1;
  }
  if (n < 2)
    n = 2; /* a single job has no time between completions: the first pair's stands for it */
  double Tn = 0, T1 = 0;
  int clamp_n = 0, clamp_1 = 0; /* atl_smem_T sets its flag, it does not add to it */
  int err = atl_smem_T(t, v, n, e, share * n, &Tn, &clamp_n, why, why_len);
  if (!err)
    err = atl_smem_T(t, v, 1, e, share, &T1, &clamp_1, why, why_len);
  if (err)
    return err;
  *cycles = (Tn - T1) / (n - 1);
  if (clamped)
    *clamped = clamp || clamp_n || clamp_1;
  return 0;
}

struct point {
  unsigned v, n, e, c;
  double t;
};

#define MAX_FIELDS 64

int atl_smem_table_parse_csv(const char *text, const char *name, struct atl_smem_table *table, char *why,
                             size_t why_len)
{
  static const char *const wanted[] = {"result", "n", "e", "c", "t_cycles"};
  int col[5] = {-1, -1, -1, -1, -1};
  char line[4096];
  char *f[MAX_FIELDS];
  struct point *pts = NULL;
  size_t npts = 0, cap = 0;
  unsigned nmax = 0, emax = 0, lineno = 0;
  int err = ATL_EINVAL, have_header = 0;
  memset(table, 0, sizeof *table);
  why[0] = '\0';
  for (int nf; (nf = atl__csv_record(&text, line, sizeof line, f, MAX_FIELDS, &lineno, name, why, why_len)) != 0;) {
    if (nf < 0)
      goto out;
    if (!have_header) {
      for (int i = 0; i < nf; i++)
        for (int w = 0; w < 5; w++)
          if (strcmp(f[i], wanted[w]) == 0 && col[w] < 0)
            col[w] = i;
      for (int w = 0; w < 5; w++)
        if (col[w] < 0) {
          snprintf(why, why_len, "%s:%u: the header lacks the column '%s' (needs result,n,e,c,t_cycles)", name,
                   lineno, wanted[w]);
          goto out;
        }
      have_header = 1;
      continue;
    }
    struct point p;
    int maxcol = 0;
    for (int w = 0; w < 5; w++)
      maxcol = col[w] > maxcol ? col[w] : maxcol;
    if (nf <= maxcol) {
      snprintf(why, why_len, "%s:%u: %d fields, the header needs at least %d", name, lineno, nf, maxcol + 1);
      goto out;
    }
    int v = atl_smem_variant_parse(f[col[0]]);
    if (v < 0) {
      snprintf(why, why_len, "%s:%u: result '%.40s' is not 'used' or 'unused'", name, lineno, f[col[0]]);
      goto out;
    }
    p.v = (unsigned)v;
    if (atl__text_whole(f[col[1]], 1, ATL_SMEM_MAX_N, &p.n) ||
        atl__text_whole(f[col[2]], 1, ATL_SMEM_MAX_E, &p.e) || atl__text_whole(f[col[3]], 0, p.n, &p.c)) {
      snprintf(why, why_len, "%s:%u: n must be 1..%d, e 1..%d and c 0..n (got n='%.20s' e='%.20s' c='%.20s')", name,
               lineno, ATL_SMEM_MAX_N, ATL_SMEM_MAX_E, f[col[1]], f[col[2]], f[col[3]]);
      goto out;
    }
    if (atl__csv_number(f[col[4]], &p.t) != 0 || p.t < 0) {
      snprintf(why, why_len, "%s:%u: t_cycles '%.40s' is not a number >= 0", name, lineno, f[col[4]]);
      goto out;
    }
    struct point *grown = atl__grow_rows(pts, &cap, npts, sizeof *pts, 256);
    if (grown == NULL) {
      err = ATL_ENOMEM;
      snprintf(why, why_len, "%s: out of memory", name);
      goto out;
    }
    pts = grown;
    pts[npts++] = p;
    nmax = p.n > nmax ? p.n : nmax;
    emax = p.e > emax ? p.e : emax;
  }
  if (!have_header) {
    snprintf(why, why_len, "%s: no header (needs the columns result,n,e,c,t_cycles)", name);
    goto out;
  }
  if (npts == 0) {
    snprintf(why, why_len, "%s: no points after the header", name);
    goto out;
  }
  if ((err = atl_smem_table_init(table, nmax, ATL_SMEM_MAX_E)) != 0)
    goto out;
  for (size_t i = 0; i < npts; i++) {
    const struct point *p = &pts[i];
    if (!isnan(atl_smem_table_get(table, (enum atl_smem_variant)p->v, p->n, p->e, p->c))) {
      snprintf(why, why_len, "%s: the point %s n=%u e=%u c=%u appears twice", name,
               atl_smem_variant_name((enum atl_smem_variant)p->v), p->n, p->e, p->c);
      err = ATL_EINVAL;
      goto out;
    }
    if ((err = atl_smem_table_set(table, (enum atl_smem_variant)p->v, p->n, p->e, p->c, p->t)) != 0) {
      snprintf(why, why_len, "%s: out of memory", name);
      goto out;
    }
  }
  err = 0;
out:
  free(pts);
  if (err)
    atl_smem_table_release(table);
  return err;
}

int atl_smem_table_read_csv(const char *path, struct atl_smem_table *table, char *why, size_t why_len)
{
  memset(table, 0, sizeof *table);
  char *text = atl__read_model_file(path, (size_t)1 << 30, why, why_len);
  if (text == NULL)
    return ATL_EIO;
  int err = atl_smem_table_parse_csv(text, path, table, why, why_len);
  free(text);
  return err;
}

int atl_smem_table_write_csv(FILE *f, const struct atl_smem_table *t, const struct atl_smem_spread *s)
{
  fprintf(f, "result,n,e,c,t_cycles,t_min_cycles,t_max_cycles,s_cycles\n");
  for (int v = 0; v < ATL_SMEM_VARIANTS; v++)
    for (unsigned n = 1; n <= t->nmax; n++)
      for (unsigned e = 1; e <= t->emax; e++)
        for (unsigned c = 0; c <= n; c++) {
          const enum atl_smem_variant var = (enum atl_smem_variant)v;
          const double T = atl_smem_table_get(t, var, n, e, c);
          if (isnan(T))
            continue;
          fprintf(f, "%s,%u,%u,%u,%.1f,%.0f,%.0f,%.3f\n", atl_smem_variant_name(var), n, e, c, T,
                  s ? atl_smem_table_get(&s->min, var, n, e, c) : T, s ? atl_smem_table_get(&s->max, var, n, e, c) : T,
                  T / n);
        }
  return ferror(f) ? ATL_EIO : 0;
}
