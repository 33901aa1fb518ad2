/*
 * The launch shape of a sweep (grid.h): the occupancy shape, or the fastest
 * of a few full-occupancy shapes measured at the uncontended point.
 */
#include <stdio.h>
#include <string.h>

#include "atomlab.h"
#include "atomlab/grid.h"

static const char *const mode_names[] = {"auto", "occupancy"};

int atl_grid_mode_parse(const char *s)
{
  for (int m = 0; m < 2; m++)
    if (strcmp(s, mode_names[m]) == 0)
      return m;
  return -1;
}

const char *atl_grid_mode_name(enum atl_grid_mode m) { return (unsigned)m < 2 ? mode_names[m] : "?"; }

/* The co-resident count at @p wg: what discovery finds; on a CPU runtime, which runs a work-group to
 * completion on one core before taking the next (so the poll closes after the first arrivals), the API
 * count of one per compute unit where that is more. */
static int fill_count(atl_context_t ctx, unsigned wg, struct atl_occupancy *occ, unsigned *workgroups)
{
  int err = atl_occupancy_discover(ctx, wg, occ);
  if (err)
    return err;
  *workgroups = occ->discovered;
  if (atl_device_current(ctx)->type == ATL_DEVICE_CPU && occ->estimated > *workgroups)
    *workgroups = occ->estimated;
  return *workgroups ? 0 : ATL_EBACKEND;
}

/* The uncontended rate of one shape: contiguous fetch_add u32, contention 1, padding 1, verified. */
static double uncontended_gops(atl_context_t ctx, unsigned wg, unsigned workgroups, const struct atl_timing *timing)
{
  struct atl_spec s = {.op = ATL_OP_FETCH_ADD, .type = ATL_TYPE_U32, .space = ATL_SPACE_GLOBAL,
                       .pattern = ATL_PATTERN_CONTIGUOUS, .result = ATL_RESULT_UNUSED, .scope = ATL_SCOPE_DEVICE,
                       .order = ATL_ORDER_RELAXED, .contention = 1, .padding = 1, .wg_size = wg,
                       .workgroups = workgroups};
  struct atl_timing t = *timing;
  t.budget_s = t.budget_s < 0.3 ? t.budget_s : 0.3; /* a choice, not a row: short, still noise-driven */
  t.repeats = 1;
  struct atl_row row;
  char why[200];
  double gops = 0;
  if (atl_rmw_check(ctx, &s, why, sizeof why) == 0 && atl_rmw_run(ctx, &s, &t, &row) == 0) {
    if (row.status == ATL_STATUS_OK && row.verified)
      gops = atl_row_metric(&row, "gops", 0);
    atl_row_release(&row);
  }
  return gops;
}

int atl_grid_choose(atl_context_t ctx, enum atl_grid_mode mode, unsigned wg_size, unsigned workgroups,
                    const struct atl_timing *timing, struct atl_grid *out)
{
  const struct atl_device_info *dev = atl_device_current(ctx);
  memset(out, 0, sizeof *out);
  out->mode = mode;
  if (dev == NULL)
    return ATL_ENODEV;
  const unsigned max_wg = dev->max_wg_size < 65536 ? (unsigned)dev->max_wg_size : 65536;
  /* Auto measures only where nothing was given and the device is a GPU: a CPU runtime runs one
   * work-group per core whatever the shape. */
  if (mode == ATL_GRID_AUTO && wg_size == 0 && workgroups == 0 && dev->type != ATL_DEVICE_CPU) {
    static const unsigned sizes[] = {128, 256, 512, 1024};
    double best = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0] && out->ntried < ATL_GRID_MAX_TRIED; i++) {
      struct atl_occupancy occ;
      unsigned count;
      if (sizes[i] > max_wg || fill_count(ctx, sizes[i], &occ, &count) != 0)
        continue;
      const double gops = uncontended_gops(ctx, sizes[i], count, timing);
      out->tried[out->ntried].wg_size = sizes[i];
      out->tried[out->ntried].workgroups = count;
      out->tried[out->ntried++].gops = gops;
      if (gops > best) {
        best = gops;
        out->wg_size = sizes[i];
        out->workgroups = count;
        out->occupancy = occ;
      }
    }
    if (best > 0) {
      snprintf(out->note, sizeof out->note,
               "auto: the fastest of %u full-occupancy shapes at contiguous fetch_add, contention 1, padding 1",
               out->ntried);
      return 0;
    }
    /* none ran: fall back to the occupancy shape, which says why if it fails too */
  }
  out->wg_size = wg_size ? wg_size : max_wg < 256 ? max_wg : 256;
  int err = atl_occupancy_discover(ctx, out->wg_size, &out->occupancy);
  if (workgroups) {
    out->workgroups = workgroups;
    snprintf(out->note, sizeof out->note, "as given");
    return 0;
  }
  if (err)
    return err;
  err = fill_count(ctx, out->wg_size, &out->occupancy, &out->workgroups);
  snprintf(out->note, sizeof out->note, "%s: the co-resident count at %u work-items%s",
           mode == ATL_GRID_AUTO && dev->type == ATL_DEVICE_CPU ? "auto on a CPU device" : "occupancy",
           out->wg_size, dev->type == ATL_DEVICE_CPU ? " (a CPU: one work-group per compute unit)" : "");
  return err;
}
