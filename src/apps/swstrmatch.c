/*
 * Seed 000's string match on the software atomic: every position of the
 * text where a keyword starts adds 1 to that keyword's counter, so one
 * kernel updates several words. The counters must equal the host's counts
 * of the same rule (a keyword at every position, overlaps included; none is
 * a prefix of another, so at most one starts at a position).
 */
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"

#define KW_MAX 32 /* bytes per keyword, as the kernels' KW_MAX */
#define KW_COUNT 4

/* The host's counts: the same rule as the kernel's match_at. */
static void host_counts(const struct atl_swapps_params *p, const uint32_t *len, uint32_t *counts)
{
  const uint8_t *t = p->text;
  const uint64_t n = p->text_bytes;
  for (uint64_t i = 0; i < n; i++)
    for (unsigned k = 0; k < p->nkeywords; k++)
      if (t[i] == (uint8_t)p->keywords[k][0] && i + len[k] <= n && memcmp(t + i, p->keywords[k], len[k]) == 0) {
        counts[k]++;
        break;
      }
}

static int run_row(atl_context_t ctx, const struct atl_swapps_params *p, const struct atl_app_timing *tm,
                   struct atl__sw_run *r, void *kernel, void *text, void *kw, void *kwlen, unsigned variant,
                   uint32_t groups, const uint32_t *expect, struct atl_result_set *out)
{
  struct atl_row row;
  atl__app_row_init(&row, "strmatch", atl__sw_variant_names[variant]);
  if (!atl__sw_grid_refused(p, r->cap, groups, &row)) {
    atl_row_metric_set(&row, "bytes", (double)p->text_bytes);
    struct atl_arg args[11] = {{ATL_ARG_BUFFER, text, 0},          {ATL_ARG_U64, NULL, p->text_bytes},
                               {ATL_ARG_BUFFER, kw, 0},            {ATL_ARG_BUFFER, kwlen, 0},
                               {ATL_ARG_U32, NULL, p->nkeywords},  {ATL_ARG_BUFFER, r->result, 0},
                               {ATL_ARG_U32, NULL, variant}};
    const int st = atl__sw_run_time(ctx, kernel, args, 11, groups, p, r, tm, &row);
    if (st == ATL_ENOMEM)
      return st;
    uint32_t got[KW_COUNT] = {0};
    if (st == 0) {
      if (atl__app_read(ctx, r->result, got, sizeof got)) {
        atl__app_row_failed(ctx, &row);
      } else {
        double matches = 0;
        row.status = ATL_STATUS_OK;
        row.verified = 1;
        for (unsigned k = 0; k < p->nkeywords; k++) {
          char name[32];
          snprintf(name, sizeof name, "count%u", k);
          atl_row_metric_set(&row, name, got[k]);
          matches += got[k];
          if (got[k] != expect[k] && row.verified) {
            row.verified = 0;
            atl__app_row_status(&row, ATL_STATUS_OK, "verification failed: '%s' counted %u, the host %u",
                                p->keywords[k], got[k], expect[k]);
          }
        }
        atl_row_metric_set(&row, "atomics", matches);
        if (row.time_ms.median > 0)
          atl_row_metric_set(&row, "gbps", (double)p->text_bytes / (row.time_ms.median * 1e6));
      }
    }
  }
  return atl__app_row_add(out, &row, 0);
}

int atl_app_swstrmatch(atl_context_t ctx, const struct atl_swapps_params *p, const struct atl_app_timing *tm,
                       struct atl_result_set *out)
{
  struct atl__app_buffers bufs = {{0}, 0};
  struct atl__sw_run r = {.result_bytes = KW_COUNT * 4};
  void *kernel = NULL, *dtext = NULL, *dkw = NULL, *dlen = NULL;
  uint8_t kw[KW_COUNT * KW_MAX] = {0};
  uint32_t len[KW_COUNT] = {0}, expect[KW_COUNT] = {0};
  struct atl_swapps_params q = *p;
  uint8_t *own = NULL; /* the text read from text_path where the caller gave none */
  char why[512];
  int err = atl__swapps_check(ctx, p, "strmatch");
  if (err)
    return err;
  if (q.text == NULL) {
    if ((own = malloc(q.text_bytes)) == NULL)
      return atl__seterr(ctx, ATL_ENOMEM, "strmatch: out of host memory for the text");
    if ((err = atl__text_read(q.text_path, own, q.text_bytes, &q.text_bytes, why, sizeof why)) != 0) {
      free(own);
      return atl__seterr(ctx, err, "strmatch: %s", why);
    }
    q.text = own;
  }
  p = &q;
  for (unsigned k = 0; k < p->nkeywords; k++) { /* lengths and prefixes: the check's */
    len[k] = (uint32_t)strlen(p->keywords[k]);
    memcpy(kw + k * KW_MAX, p->keywords[k], len[k]);
  }
  host_counts(p, len, expect);
  if (p->skew_reference)
    expect[0]++;
  if ((err = atl__app_alloc(ctx, &bufs, (size_t)p->text_bytes, &dtext)) ||
      (err = atl__app_alloc(ctx, &bufs, sizeof kw, &dkw)) || (err = atl__app_alloc(ctx, &bufs, sizeof len, &dlen)) ||
      (err = atl__app_alloc(ctx, &bufs, r.result_bytes, &r.result)) ||
      (err = atl__sw_sync_alloc(ctx, &bufs, p, &r.sync)) ||
      (err = atl__ops(ctx)->write(atl__dev(ctx), dtext, p->text, (size_t)p->text_bytes)) ||
      (err = atl__ops(ctx)->write(atl__dev(ctx), dkw, kw, sizeof kw)) ||
      (err = atl__ops(ctx)->write(atl__dev(ctx), dlen, len, sizeof len)) ||
      (err = atl__sw_build(ctx, p, "strmatch", "app_swstrmatch", "swstrmatch", &kernel, &r, out)) || kernel == NULL)
    goto out;
  for (unsigned i = 0; i < p->ngroups && ATL_APP_GO_ON(err); i++)
    for (unsigned v = 0; v < 3 && ATL_APP_GO_ON(err); v++)
      if (p->variants & (1u << v))
        err = run_row(ctx, p, tm, &r, kernel, dtext, dkw, dlen, v, p->groups[i], expect, out);
out:
  atl__app_free_all(ctx, &bufs);
  free(own);
  return err;
}
