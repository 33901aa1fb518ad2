/*
 * The rows of a case-study run (the CSV `atomlab hist-case -o` writes), read
 * to label the kernels of an ncu export taken of that same run: row r of the
 * CSV launched warmup + reps kernels, in order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab/error.h"
#include "atomlab/model.h"
#include "core/output_internal.h"
#include "core/csv.h"
#include "core/text.h"

#define MAX_FIELDS 64

int atl_smem_cases_parse_csv(const char *text, const char *name, struct atl_smem_case **cases, size_t *count,
                             char *why, size_t why_len)
{
  static const char *const wanted[] = {"kernel", "image", "result", "pixels", "wg_size", "reps", "warmup"};
  enum { W_KERNEL, W_IMAGE, W_RESULT, W_PIXELS, W_WG, W_REPS, W_WARMUP, W_COUNT };
  int col[W_COUNT];
  char line[4096];
  char *f[MAX_FIELDS];
  struct atl_smem_case *rows = NULL;
  size_t n = 0, cap = 0;
  unsigned lineno = 0;
  int err = ATL_EINVAL, have_header = 0, nh = 0;
  *cases = NULL;
  *count = 0;
  for (int w = 0; w < W_COUNT; w++)
    col[w] = -1;
  for (int nf; (nf = atl__csv_record(&text, line, sizeof line, f, MAX_FIELDS, &lineno, name, why, why_len)) != 0;) {
    if (nf < 0)
      goto out;
    if (!have_header) {
      for (int i = 0; i < nf; i++)
        for (int w = 0; w < W_COUNT; w++)
          if (strcmp(f[i], wanted[w]) == 0 && col[w] < 0)
            col[w] = i;
      for (int w = 0; w < W_WARMUP; w++) /* warmup is optional: files before it had one warm-up launch */
        if (col[w] < 0) {
          snprintf(why, why_len, "%s:%u: the header lacks the column '%s' (a CSV from 'atomlab hist-case -o')", name,
                   lineno, wanted[w]);
          goto out;
        }
      have_header = 1;
      nh = nf;
      continue;
    }
    if (nf != nh) {
      snprintf(why, why_len, "%s:%u: %d fields where the header has %d", name, lineno, nf, nh);
      goto out;
    }
    struct atl_smem_case c;
    memset(&c, 0, sizeof c);
    unsigned reps = 0, warmup = 1;
    if (atl__text_whole(f[col[W_PIXELS]], 1, 0xffffffffu, &c.pixels) ||
        atl__text_whole(f[col[W_WG]], 1, 1024, &c.wg_size) || atl__text_whole(f[col[W_REPS]], 1, 1000, &reps) ||
        (col[W_WARMUP] >= 0 && atl__text_whole(f[col[W_WARMUP]], 0, 1000, &warmup))) {
      snprintf(why, why_len, "%s:%u: pixels, wg_size (1..1024), reps (1..1000) and warmup must be whole numbers", name,
               lineno);
      goto out;
    }
    if (strlen(f[col[W_KERNEL]]) >= sizeof c.kernel || strlen(f[col[W_IMAGE]]) >= sizeof c.image ||
        atl_smem_variant_parse(f[col[W_RESULT]]) < 0) {
      snprintf(why, why_len, "%s:%u: kernel or image too long, or result '%.20s' is not used or unused", name, lineno,
               f[col[W_RESULT]]);
      goto out;
    }
    snprintf(c.kernel, sizeof c.kernel, "%s", f[col[W_KERNEL]]);
    snprintf(c.image, sizeof c.image, "%s", f[col[W_IMAGE]]);
    c.variant = (enum atl_smem_variant)atl_smem_variant_parse(f[col[W_RESULT]]);
    c.launches = warmup + reps;
    struct atl_smem_case *grown = atl__grow_rows(rows, &cap, n, sizeof *rows, 64);
    if (grown == NULL) {
      err = ATL_ENOMEM;
      snprintf(why, why_len, "%s: out of memory", name);
      goto out;
    }
    rows = grown;
    rows[n++] = c;
  }
  if (!have_header || n == 0) {
    snprintf(why, why_len, "%s: no %s (a CSV from 'atomlab hist-case -o')", name, have_header ? "rows" : "header");
    goto out;
  }
  *cases = rows;
  *count = n;
  rows = NULL;
  err = 0;
out:
  free(rows);
  return err;
}

int atl_smem_cases_read_csv(const char *path, struct atl_smem_case **cases, size_t *count, char *why, size_t why_len)
{
  *cases = NULL;
  *count = 0;
  char *text = atl__read_model_file(path, (size_t)1 << 26, why, why_len);
  if (text == NULL)
    return ATL_EIO;
  int err = atl_smem_cases_parse_csv(text, path, cases, count, why, why_len);
  free(text);
  return err;
}

/* The writers of the rows atl_smem_cases_parse_csv() reads back (`model predict --runs`): one format, one file. */

void atl_smem_histogram_write_csv_header(FILE *f)
{
  fprintf(f, "kernel,image,result,pixels,wg_size,workgroups,warmup,reps,median_ms,min_ms,max_ms,gpixels_per_s,"
             "verified,wrong_bins,instructions\n");
}

void atl_smem_histogram_write_csv_row(FILE *f, const struct atl_smem_histogram_spec *spec,
                                      const struct atl_smem_run_result *res)
{
  const double gpx = res->median_ms > 0 ? spec->pixels / (res->median_ms * 1e6) : 0;
  fprintf(f, "%s,%s,%s,%u,%u,%u,%u,%u,%.6f,%.6f,%.6f,%.5f,%d,%u,\"%s\"\n", spec->reorder ? "histogram2" : "histogram",
          spec->solid ? "solid" : "uniform", atl_smem_variant_name(spec->result_used ? ATL_SMEM_USED : ATL_SMEM_UNUSED),
          spec->pixels, spec->wg_size, spec->workgroups, spec->warmup, spec->reps, res->median_ms, res->min_ms,
          res->max_ms, gpx, res->verified, res->wrong, res->instructions);
}

void atl_smem_validation_write_csv_header(FILE *f)
{
  fprintf(f, "kernel,expect,wg_size,workgroups,iters,bytes,warmup,reps,median_ms,atomics,verified,wrong,"
             "instructions\n");
}

void atl_smem_validation_write_csv_row(FILE *f, const struct atl_smem_validation_spec *spec,
                                       const struct atl_smem_run_result *res)
{
  const int atomics_only = spec->which == ATL_SMEM_VALIDATE_ATOMICS;
  fprintf(f, "%s,%s,%u,%u,%u,%zu,%u,%u,%.6f,%.0f,%d,%u,\"%s\"\n", atl_smem_validation_kernel(spec->which),
          atomics_only ? "bottleneck" : "not a bottleneck", spec->wg_size, spec->workgroups, spec->iters,
          atomics_only ? (size_t)0 : spec->bytes, spec->warmup, spec->reps, res->median_ms, res->atomics,
          res->verified, res->wrong, res->instructions);
}
