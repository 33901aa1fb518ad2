/* The device's atomics datasheet from an rmw sweep (datasheet.h). */
#include <string.h>

#include "atomlab.h"
#include "atomlab/datasheet.h"

static const char *const keys[] = {"op", "type", "space", "result"};

static int same_key(const struct atl_row *a, const struct atl_row *b)
{
  for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
    const char *x = atl_row_config(a, keys[k]), *y = atl_row_config(b, keys[k]);
    if (!x || !y || strcmp(x, y) != 0)
      return 0;
  }
  return 1;
}

/* Rows of the contiguous pattern only: a sweep of all four would mix what the datasheet compares. */
static int contiguous(const struct atl_row *r)
{
  const char *p = atl_row_config(r, "pattern");
  return p && strcmp(p, "contiguous") == 0;
}

static int good(const struct atl_row *r) { return r->status == ATL_STATUS_OK && r->verified && contiguous(r); }

int atl_datasheet(const struct atl_result_set *rmw, struct atl_result_set *out)
{
  memset(out, 0, sizeof *out);
  out->meta = rmw->meta;
  snprintf(out->kind, sizeof out->kind, "datasheet");
  for (size_t i = 0; i < rmw->count; i++) {
    const struct atl_row *r = &rmw->rows[i];
    if (!contiguous(r))
      continue;
    int seen = 0; /* the first row of its key makes the datasheet row */
    for (size_t j = 0; j < i && !seen; j++)
      seen = contiguous(&rmw->rows[j]) && same_key(&rmw->rows[j], r);
    if (seen)
      continue;
    const struct atl_row *peak = NULL, *hot = NULL;
    for (size_t j = i; j < rmw->count; j++) {
      const struct atl_row *o = &rmw->rows[j];
      if (!good(o) || !same_key(o, r))
        continue;
      const double c = atl_row_number(o, "contention", 0), g = atl_row_metric(o, "gops", 0);
      if (c == 1 && (peak == NULL || g > atl_row_metric(peak, "gops", 0)))
        peak = o;
      if (atl_row_number(o, "padding", 0) == 1 && c > 1 &&
          (hot == NULL || c > atl_row_number(hot, "contention", 0)))
        hot = o;
    }
    struct atl_row d;
    atl_row_init(&d, "datasheet");
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
      atl_row_config_set(&d, keys[k], atl_row_config(r, keys[k]) ? atl_row_config(r, keys[k]) : "");
    d.status = peak ? ATL_STATUS_OK : r->status == ATL_STATUS_OK ? ATL_STATUS_ERROR : r->status;
    d.verified = peak != NULL;
    snprintf(d.reason, sizeof d.reason, "%s", peak ? "" : r->reason[0] ? r->reason : "no verified row");
    if (peak) {
      d.time_ms = peak->time_ms; /* its samples stay with the sweep's file */
      d.time_ms.samples = 0;
      atl_row_metric_set(&d, "peak_gops", atl_row_metric(peak, "gops", 0));
      snprintf(d.instructions, sizeof d.instructions, "%s", peak->instructions);
    }
    if (peak && hot && atl_row_metric(hot, "gops", 0) > 0) {
      atl_row_metric_set(&d, "same_address_gops", atl_row_metric(hot, "gops", 0));
      atl_row_metric_set(&d, "same_address_threads", atl_row_number(hot, "contention", 0));
      atl_row_metric_set(&d, "same_address_noise", hot->time_ms.noise);
      atl_row_metric_set(&d, "same_address_slowdown", atl_row_metric(peak, "gops", 0) / atl_row_metric(hot, "gops", 0));
    }
    if (atl_result_set_add(out, &d) != 0) {
      atl_result_set_release(out);
      return ATL_ENOMEM;
    }
  }
  return 0;
}
