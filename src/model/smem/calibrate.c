/*
 * T(n, e, c): the calibration run of the shared-memory atomic model
 * (seed 002, section 3.2). The kernel (kernels/smem_calibrate.cu) lets every
 * SM measure its own point in the same launch; this driver hands out points
 * to SMs, checks each measurement (all n warps ran, none late, every word and
 * returned value right) and repeats a point until it has `reps` good samples.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atomlab/error.h"
#include "atomlab/experiment.h"
#include "atomlab/model.h"
#include "atomlab/stop.h"
#include "core/context.h"
#include "core/output_internal.h"

#define SLOT_WORDS 8
#define FLAG_LATE 1u
#define FLAG_SPIN 2u
#define FLAG_SMID 4u
/* A point that fails this often in a row (late, or a block on another SM) is an error, not bad luck. */
#define MAX_RETRIES 50

struct cal_point {
  unsigned n, e, c;
  unsigned got, retries;
  double *samples; /* reps of them */
};

unsigned atl_smem_max_warps(atl_context_t ctx)
{
  const struct atl_device_info *d = atl_device_current(ctx);
  if (d == NULL || d->warp_size == 0 || d->max_threads_per_cu == 0)
    return 0;
  return d->max_threads_per_cu / d->warp_size;
}

int atl_smem_calibration_axes(atl_context_t ctx, struct atl_smem_calibration *cfg, unsigned *const values[3],
                              const size_t counts[3], char *why, size_t why_len)
{
  cfg->nmax = atl_smem_max_warps(ctx);
  if (cfg->nmax == 0 || cfg->nmax > ATL_SMEM_MAX_N) {
    snprintf(why, why_len, "unable to tell the resident warps per SM of this device");
    return ATL_ENOTSUP;
  }
  for (size_t i = 0; i < counts[0]; i++)
    if (values[0][i] > cfg->nmax) {
      snprintf(why, why_len, "n %u is above this device's %u resident warps per SM", values[0][i], cfg->nmax);
      return ATL_EINVAL;
    }
  cfg->n_values = values[0], cfg->n_count = counts[0];
  cfg->e_values = values[1], cfg->e_count = counts[1];
  cfg->c_values = values[2], cfg->c_count = counts[2];
  return 0;
}

static double now_seconds(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int atl_smem_grid_axis_parse(const char *text, unsigned max, int zero_ok, unsigned **values, size_t *count,
                             char *why, size_t why_len)
{
  *values = NULL;
  *count = 0;
  if (strcmp(text, "all") == 0)
    return 0;
  /* atl_axis_parse() takes no 0; c may start at 0 (no CAS warp): "0" alone or "0,..." is taken apart here */
  const int with_zero = zero_ok && (strcmp(text, "0") == 0 || strncmp(text, "0,", 2) == 0);
  struct atl_axis axis = {0};
  if (!(with_zero && text[1] == '\0')) {
    int err = atl_axis_parse(with_zero ? text + 2 : text, max, &axis, why, why_len);
    if (err)
      return err;
  }
  *values = malloc((axis.count + 1) * sizeof **values);
  if (*values == NULL) {
    atl_axis_release(&axis);
    snprintf(why, why_len, "out of memory");
    return ATL_ENOMEM;
  }
  if (with_zero)
    (*values)[(*count)++] = 0;
  for (size_t i = 0; i < axis.count; i++)
    (*values)[(*count)++] = axis.values[i];
  atl_axis_release(&axis);
  return 0;
}

/* The points of one variant: the cartesian product (every n and e where the grid leaves them out), c
 * limited to 0..n. */
static int plan_points(const struct atl_smem_calibration *cfg, struct cal_point **out, size_t *count)
{
  size_t cap = 0, n_points = 0;
  struct cal_point *pts = NULL;
  const size_t n_count = cfg->n_values ? cfg->n_count : cfg->nmax;
  const size_t e_count = cfg->e_values ? cfg->e_count : ATL_SMEM_MAX_E;
  for (size_t a = 0; a < n_count; a++)
    for (size_t b = 0; b < e_count; b++) {
      unsigned n = cfg->n_values ? cfg->n_values[a] : (unsigned)a + 1;
      unsigned e = cfg->e_values ? cfg->e_values[b] : (unsigned)b + 1;
      size_t ncs = cfg->c_values ? cfg->c_count : (size_t)n + 1;
      for (size_t k = 0; k < ncs; k++) {
        unsigned c = cfg->c_values ? cfg->c_values[k] : (unsigned)k;
        if (c > n)
          continue;
        struct cal_point *grown = atl__grow_rows(pts, &cap, n_points, sizeof *pts, 1024);
        if (grown == NULL) {
          free(pts);
          return ATL_ENOMEM;
        }
        pts = grown;
        pts[n_points++] = (struct cal_point){.n = n, .e = e, .c = c};
      }
    }
  *out = pts;
  *count = n_points;
  return 0;
}

int atl_smem_calibrate(atl_context_t ctx, const struct atl_smem_calibration *cfg, struct atl_smem_table *table,
                       struct atl_smem_spread *spread, struct atl_smem_calibration_info *info)
{
  const struct atl_backend_ops *ops = atl__ops(ctx);
  void *dev = atl__dev(ctx);
  const struct atl_device_info *d = atl_device_current(ctx);
  void *cfg_buf = NULL, *state_buf = NULL;
  unsigned *slot_cfg = NULL, *slot_point = NULL, *live = NULL;
  uint64_t *state = NULL;
  double *all_samples = NULL;
  struct cal_point *pts = NULL;
  size_t npts = 0;
  int err = 0, stopped = 0;
  memset(info, 0, sizeof *info);
  const double t0 = now_seconds();
  if (ops == NULL || d == NULL)
    return atl__seterr(ctx, ATL_ENODEV, "no device is open");
  if (!d->has_sm_clock)
    return atl__seterr(ctx, ATL_ENOTSUP,
                       "the shared-memory calibration needs the CUDA backend (per-SM clock64 and %%smid), not %s",
                       d->backend);
  const unsigned max_warps = atl_smem_max_warps(ctx);
  const unsigned block = max_warps >= 2 ? (max_warps / 2) * d->warp_size : 0;
  if (block == 0 || block > d->max_wg_size || cfg->nmax > max_warps || cfg->nmax > table->nmax)
    return atl__seterr(ctx, ATL_EINVAL, "n up to %u does not fit this device (%u resident warps per SM)", cfg->nmax,
                       max_warps);
  for (size_t i = 0; cfg->n_values && i < cfg->n_count; i++)
    if (cfg->n_values[i] < 1 || cfg->n_values[i] > cfg->nmax || cfg->n_values[i] > 255)
      return atl__seterr(ctx, ATL_EINVAL, "n=%u is outside 1..%u", cfg->n_values[i], cfg->nmax);
  for (size_t i = 0; cfg->e_values && i < cfg->e_count; i++)
    if (cfg->e_values[i] < 1 || cfg->e_values[i] > d->warp_size || cfg->e_values[i] > ATL_SMEM_MAX_E)
      return atl__seterr(ctx, ATL_EINVAL, "e=%u is outside 1..%u", cfg->e_values[i], d->warp_size);
  if (cfg->reps < 1)
    return atl__seterr(ctx, ATL_EINVAL, "reps must be at least 1");
  const unsigned nslots = d->compute_units * 2; /* SM ids beyond the SM count are possible; room for them */
  info->clock_mhz = d->clock_mhz;
  slot_cfg = calloc(nslots, sizeof *slot_cfg);
  slot_point = calloc(nslots, sizeof *slot_point);
  live = calloc(nslots, sizeof *live);
  state = calloc((size_t)(nslots + 1) * SLOT_WORDS, sizeof *state);
  if (!slot_cfg || !slot_point || !live || !state) {
    err = ATL_ENOMEM;
    goto out;
  }
  const size_t state_bytes = (size_t)(nslots + 1) * SLOT_WORDS * sizeof(uint64_t);
  if ((err = ops->alloc(dev, nslots * sizeof(unsigned), &cfg_buf)) || (err = ops->alloc(dev, state_bytes, &state_buf)))
    goto out;
  const uint32_t zero = 0;
  size_t total_planned = 0, done = 0;
  for (int v = 0; v < ATL_SMEM_VARIANTS; v++)
    if (cfg->variants[v]) {
      struct cal_point *p = NULL;
      size_t k = 0;
      if ((err = plan_points(cfg, &p, &k)))
        goto out;
      free(p);
      total_planned += k * cfg->reps;
    }
  for (int v = 0; v < ATL_SMEM_VARIANTS; v++) {
    if (!cfg->variants[v])
      continue;
    char defines[64];
    snprintf(defines, sizeof defines, "RESULT_USED=%d", v == ATL_SMEM_USED);
    struct atl_build req = {.source = "smem_calibrate", .entry = "smem_calibrate", .defines = defines};
    void *kernel = NULL;
    if ((err = ops->build(dev, &req, &kernel)))
      goto out;
    if (ops->describe_kernel)
      ops->describe_kernel(dev, kernel, info->instructions[v], sizeof info->instructions[v]);
    free(pts);
    free(all_samples);
    pts = NULL;
    all_samples = NULL;
    if ((err = plan_points(cfg, &pts, &npts)))
      goto out;
    all_samples = malloc((npts ? npts : 1) * cfg->reps * sizeof *all_samples);
    if (all_samples == NULL) {
      err = ATL_ENOMEM;
      goto out;
    }
    for (size_t i = 0; i < npts; i++)
      pts[i].samples = all_samples + i * cfg->reps;
    struct atl_arg args[5] = {{ATL_ARG_BUFFER, cfg_buf, 0},
                              {ATL_ARG_BUFFER, state_buf, 0},
                              {ATL_ARG_U32, NULL, nslots},
                              {ATL_ARG_U32, NULL, 1},
                              {ATL_ARG_U32, NULL, cfg->delay_cycles}};
    /* two blocks per SM: together they hold every warp an SM can */
    struct atl_launch launch = {.global = (size_t)d->compute_units * 2 * block, .local = block, .args = args,
                                .nargs = 5};
    size_t next = 0; /* the first point that may still need samples */
    unsigned nlive = 0;
    for (int probe = 1;; probe = 0) {
      if (atl_stop_requested()) { /* between launches: the points completed so far go into the table below */
        stopped = 1;
        break;
      }
      memset(slot_cfg, 0, nslots * sizeof *slot_cfg);
      size_t assigned = 0;
      if (!probe) {
        /* hand out the points still short of samples: one slot per missing sample */
        size_t p = next;
        while (p < npts && pts[p].got >= cfg->reps)
          p++;
        next = p;
        unsigned want_extra = 0;
        for (unsigned s = 0; s < nslots && p < npts; s++) {
          if (!live[s])
            continue;
          slot_cfg[s] = pts[p].n | pts[p].e << 8 | pts[p].c << 16;
          slot_point[s] = (unsigned)p;
          assigned++;
          if (++want_extra >= cfg->reps - pts[p].got) {
            want_extra = 0;
            do
              p++;
            while (p < npts && pts[p].got >= cfg->reps);
          }
        }
        if (assigned == 0)
          break;
      }
      double ms = 0;
      if ((err = ops->write(dev, cfg_buf, slot_cfg, nslots * sizeof *slot_cfg)) ||
          (err = ops->fill(dev, state_buf, &zero, sizeof zero, state_bytes)) ||
          (err = ops->launch(dev, kernel, &launch, &ms)) || (err = ops->read(dev, state_buf, state, state_bytes)))
        goto out;
      info->launches++;
      if (probe) {
        for (unsigned s = 0; s < nslots; s++) {
          /* an SM that exists; whether both of its blocks land together is checked per measurement
           * (a probe's blocks leave at once, so a third block may take a second one's place here) */
          live[s] = state[s * SLOT_WORDS + 3] > 0;
          nlive += live[s];
        }
        if (nlive == 0) {
          err = atl__seterr(ctx, ATL_EBACKEND, "calibration: no block reported its SM");
          goto out;
        }
        info->slots = nlive;
        continue;
      }
      for (unsigned s = 0; s < nslots; s++) {
        if (slot_cfg[s] == 0)
          continue;
        const uint64_t *st = state + (size_t)s * SLOT_WORDS;
        struct cal_point *p = &pts[slot_point[s]];
        if (st[5] & FLAG_SPIN) {
          err = atl__seterr(ctx, ATL_EDEADLOCK, "calibration: the start gate's spin bound expired (n=%u e=%u c=%u)",
                            p->n, p->e, p->c);
          goto out;
        }
        if (st[6] != 0) {
          err = atl__seterr(ctx, ATL_EVERIFY,
                            "calibration: %llu warps left a wrong shared word or returned value (%s n=%u e=%u c=%u)",
                            (unsigned long long)st[6], atl_smem_variant_name((enum atl_smem_variant)v), p->n, p->e,
                            p->c);
          goto out;
        }
        if ((st[5] & FLAG_LATE) || st[4] != p->n || p->got >= cfg->reps) {
          if (p->got < cfg->reps && ++p->retries > MAX_RETRIES) {
            err = atl__seterr(ctx, ATL_EBACKEND,
                              "calibration: n=%u e=%u c=%u never ran with all warps on one SM in time "
                              "(%llu of %u warps, flags %llu): is another process using the GPU?",
                              p->n, p->e, p->c, (unsigned long long)st[4], p->n, (unsigned long long)st[5]);
            goto out;
          }
          info->retried += p->got < cfg->reps;
          continue;
        }
        const uint64_t first = UINT64_MAX - st[1], last = st[2];
        p->samples[p->got++] = last > first ? (double)(last - first) : 0.0;
        done++;
      }
      if (state[(size_t)nslots * SLOT_WORDS + 5] & FLAG_SMID) {
        err = atl__seterr(ctx, ATL_EBACKEND, "calibration: an SM id is at least %u (twice the SM count)", nslots);
        goto out;
      }
      if (cfg->progress)
        cfg->progress(cfg->progress_arg, done, total_planned);
    }
    for (size_t i = 0; i < npts; i++) {
      struct cal_point *p = &pts[i];
      if (p->got < cfg->reps)
        continue; /* stopped before its last rep: a median of fewer samples would not be the table's */
      qsort(p->samples, p->got, sizeof *p->samples, cmp_double);
      double median = p->got % 2 ? p->samples[p->got / 2] : (p->samples[p->got / 2 - 1] + p->samples[p->got / 2]) / 2;
      if ((err = atl_smem_table_set(table, (enum atl_smem_variant)v, p->n, p->e, p->c, median)))
        goto out;
      if (spread && ((err = atl_smem_table_set(&spread->min, (enum atl_smem_variant)v, p->n, p->e, p->c,
                                               p->samples[0])) ||
                     (err = atl_smem_table_set(&spread->max, (enum atl_smem_variant)v, p->n, p->e, p->c,
                                               p->samples[p->got - 1]))))
        goto out;
      info->points++;
    }
    if (stopped) {
      err = atl__seterr(ctx, ATL_EINTR, "calibration stopped (signal %d) after %zu complete points",
                        atl_stop_requested(), info->points);
      goto out;
    }
  }
out:
  info->seconds = now_seconds() - t0;
  atl__device_free_all(ctx, (void *[]){cfg_buf, state_buf}, 2);
  free(slot_cfg);
  free(slot_point);
  free(live);
  free(state);
  free(pts);
  free(all_samples);
  return err;
}
