/*
 * Seed 000's MapReduce comparison with Mars: map tasks emit (key, value)
 * records into one array, placed either by Mars's two passes (count, prefix
 * sum, write) or in one pass by an atomic that reserves the slots, per
 * thread (system, warp-aggregated, software) or per wavefront (system,
 * software; warp aggregation would be the same as per-wavefront system).
 * Workloads: matrix multiplication (a record per output element) and the
 * KMeans map phase (a record (nearest centroid, point) per point). The
 * records are sorted on the host and compared with the host's.
 */
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"

#define KMEANS_K 16  /* centroids */
#define KMEANS_RANGE 1024 /* coordinates 0..1023 in 4 dimensions: squared distances fit 32 bits */

/* The rows per grid: kernel variant codes of app_swmapreduce.cl and the variants bit each needs (-1: always). */
static const struct {
  const char *name;
  unsigned code;
  int bit;
} kinds[] = {{"twopass", 3, -1},       {"thread-system", 0, 0}, {"thread-warp", 1, 1},
             {"thread-software", 2, 2}, {"wave-system", 4, 0},   {"wave-software", 5, 2}};

struct mr_run {
  void *counter, *offsets, *out;
  size_t out_bytes;
  struct atl__sw_sync sync;
  uint32_t cap; /* the largest co-resident grid of the kernel (atl__sw_cap) */
};

static int reset(atl_context_t ctx, void *arg)
{
  struct mr_run *r = arg;
  int err = atl__sw_sync_reset(ctx, &r->sync);
  if (!err)
    err = atl__app_fill32(ctx, r->counter, 0, 4);
  if (!err) /* no record of an earlier row may stand in for a missing one */
    err = atl__app_fill32(ctx, r->out, 0xffffffffu, r->out_bytes);
  return err;
}

static int cmp_u64(const void *a, const void *b)
{
  const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* The workload's inputs and its records, sorted (key << 32 | value). */
struct mr_work {
  const char *name; /* "matmul" or "kmeans" */
  uint32_t mode, n, ntasks;
  int32_t *a, *b;
  size_t a_bytes, b_bytes;
  uint64_t *expect;
};

static int work_make(struct mr_work *w, int kmeans, uint32_t size, int skew)
{
  memset(w, 0, sizeof *w);
  w->name = kmeans ? "kmeans" : "matmul";
  w->mode = (uint32_t)kmeans;
  w->n = kmeans ? KMEANS_K : size;
  w->ntasks = kmeans ? size : size * size;
  w->a_bytes = kmeans ? (size_t)size * 16 : (size_t)size * size * 4;
  w->b_bytes = kmeans ? (size_t)KMEANS_K * 16 : w->a_bytes;
  w->a = malloc(w->a_bytes);
  w->b = malloc(w->b_bytes);
  w->expect = malloc((size_t)w->ntasks * 8);
  if (w->a == NULL || w->b == NULL || w->expect == NULL)
    return -1;
  for (size_t i = 0; i < w->a_bytes / 4; i++)
    w->a[i] = (int32_t)(atl__splitmix64(i) % (kmeans ? KMEANS_RANGE : 256));
  for (size_t i = 0; i < w->b_bytes / 4; i++)
    w->b[i] = (int32_t)(atl__splitmix64(i ^ 0xb0b0ull << 40) % (kmeans ? KMEANS_RANGE : 256));
  for (uint32_t t = 0; t < w->ntasks; t++) {
    uint32_t key = t, value = 0;
    if (kmeans) {
      uint32_t bestd = 0xffffffffu;
      for (uint32_t c = 0; c < KMEANS_K; c++) {
        uint32_t d = 0;
        for (int k = 0; k < 4; k++) {
          const int32_t x = w->a[t * 4 + k] - w->b[c * 4 + k];
          d += (uint32_t)(x * x);
        }
        if (d < bestd) { /* ties to the lowest centroid, as the kernels */
          bestd = d;
          key = c;
        }
      }
      value = t;
    } else {
      const uint32_t i = t / size, j = t % size;
      for (uint32_t k = 0; k < size; k++)
        value += (uint32_t)w->a[i * size + k] * (uint32_t)w->b[k * size + j];
    }
    w->expect[t] = (uint64_t)key << 32 | value;
  }
  if (skew)
    w->expect[0] ^= 1;
  qsort(w->expect, w->ntasks, 8, cmp_u64);
  return 0;
}

static void work_free(struct mr_work *w)
{
  free(w->a);
  free(w->b);
  free(w->expect);
}

/* Atomics a grid makes: one per task, or one per wavefront and step (-1: not counted). */
static double atomics_of(unsigned code, uint32_t ntasks, uint32_t workers, uint32_t wg)
{
  if (code == 3)
    return 0;
  if (code == 1)
    return -1; /* warp aggregation: one per address per converged group, which the hardware decides */
  if (code != 4 && code != 5)
    return ntasks;
  const uint64_t stride = (uint64_t)workers * wg, steps = (ntasks + stride - 1) / stride;
  return (double)steps * workers * ((wg + 31) / 32); /* a wavefront without records reserves 0 */
}

static int verify(const struct mr_work *w, const uint32_t *out, uint32_t total, char *why, size_t why_len)
{
  if (total != w->ntasks) {
    snprintf(why, why_len, "%u slots reserved, %u records emitted", total, w->ntasks);
    return 1;
  }
  uint64_t *got = malloc((size_t)w->ntasks * 8);
  if (got == NULL) {
    snprintf(why, why_len, "out of host memory");
    return 1;
  }
  for (uint32_t i = 0; i < w->ntasks; i++)
    got[i] = (uint64_t)out[2 * i] << 32 | out[2 * i + 1];
  qsort(got, w->ntasks, 8, cmp_u64);
  int bad = 0;
  for (uint32_t i = 0; i < w->ntasks && !bad; i++)
    if (got[i] != w->expect[i]) {
      snprintf(why, why_len, "sorted record %u is (%u, %u), the host's (%u, %u)", i, (uint32_t)(got[i] >> 32),
               (uint32_t)got[i], (uint32_t)(w->expect[i] >> 32), (uint32_t)w->expect[i]);
      bad = 1;
    }
  free(got);
  return bad;
}

static int run_row(atl_context_t ctx, const struct atl_swapps_params *p, const struct atl_app_timing *tm,
                   struct mr_run *r, void *const *kernels, const struct mr_work *w, void *da, void *db, unsigned kind,
                   uint32_t groups, struct atl_result_set *out)
{
  struct atl_row row;
  char variant[48];
  snprintf(variant, sizeof variant, "%s/%s", w->name, kinds[kind].name);
  atl__app_row_init(&row, "mapreduce", variant);
  if (atl__sw_grid_refused(p, r->cap, groups, &row))
    return atl_result_set_add(out, &row) ? ATL_ENOMEM : 0;
  const unsigned code = kinds[kind].code;
  atl_row_metric_set(&row, w->mode ? "points" : "n", w->mode ? w->ntasks : w->n);
  atl_row_metric_set(&row, "records", w->ntasks);
  const double atomics = atomics_of(code, w->ntasks, groups - 1, p->wg_size);
  if (atomics >= 0)
    atl_row_metric_set(&row, "atomics", atomics);
  struct atl_arg margs[13] = {{ATL_ARG_U32, NULL, w->mode},    {ATL_ARG_BUFFER, da, 0},
                              {ATL_ARG_BUFFER, db, 0},         {ATL_ARG_U32, NULL, w->n},
                              {ATL_ARG_U32, NULL, w->ntasks},  {ATL_ARG_U32, NULL, code},
                              {ATL_ARG_BUFFER, r->offsets, 0}, {ATL_ARG_BUFFER, r->counter, 0},
                              {ATL_ARG_BUFFER, r->out, 0}};
  atl__sw_args(margs + 9, &r->sync, tm);
  struct atl_arg cargs[13], sargs[3] = {{ATL_ARG_BUFFER, r->offsets, 0}, {ATL_ARG_U32, NULL, w->ntasks},
                                        {ATL_ARG_BUFFER, r->counter, 0}};
  memcpy(cargs, margs, sizeof cargs);
  cargs[5].value = 6; /* Mars's count pass */
  const size_t items = (size_t)groups * p->wg_size;
  struct atl_launch l[3] = {{items, p->wg_size, margs, 13}};
  void *k[3] = {kernels[0]};
  unsigned nl = 1;
  if (code == 3) { /* count, scan, write */
    l[0] = (struct atl_launch){items, p->wg_size, cargs, 13};
    l[1] = (struct atl_launch){p->wg_size, p->wg_size, sargs, 3};
    l[2] = (struct atl_launch){items, p->wg_size, margs, 13};
    k[1] = kernels[1];
    k[2] = kernels[0];
    nl = 3;
  }
  const int st = atl__sw_time(ctx, k, l, nl, reset, r, &r->sync, tm, &row);
  if (st == ATL_ENOMEM)
    return st;
  if (st == 0) {
    uint32_t total = 0, *recs = malloc(r->out_bytes);
    if (recs == NULL)
      return ATL_ENOMEM;
    if (atl__ops(ctx)->read(atl__dev(ctx), r->counter, &total, 4) ||
        atl__ops(ctx)->read(atl__dev(ctx), r->out, recs, r->out_bytes)) {
      atl__app_row_status(&row, ATL_STATUS_ERROR, "%s", atl_errmsg(ctx));
    } else {
      char why[256] = "";
      row.status = ATL_STATUS_OK;
      row.verified = !verify(w, recs, total, why, sizeof why);
      if (!row.verified)
        atl__app_row_status(&row, ATL_STATUS_OK, "verification failed: %s", why);
      if (row.time_ms.median > 0)
        atl_row_metric_set(&row, "mrecords_per_s", w->ntasks / (row.time_ms.median * 1e3));
    }
    free(recs);
  }
  return atl_result_set_add(out, &row) ? ATL_ENOMEM : 0;
}

/* Every grid and variant of one workload size. */
static int run_size(atl_context_t ctx, const struct atl_swapps_params *p, const struct atl_app_timing *tm,
                    struct mr_run *r, void *const *kernels, int kmeans, uint32_t size, struct atl_result_set *out)
{
  struct atl__app_buffers bufs = {{0}, 0};
  struct mr_work w;
  void *da = NULL, *db = NULL;
  int err = 0;
  if (work_make(&w, kmeans, size, p->skew_reference)) {
    err = atl__seterr(ctx, ATL_ENOMEM, "out of host memory");
    goto out;
  }
  r->out_bytes = (size_t)w.ntasks * 8;
  if ((err = atl__app_alloc(ctx, &bufs, w.a_bytes, &da)) || (err = atl__app_alloc(ctx, &bufs, w.b_bytes, &db)) ||
      (err = atl__app_alloc(ctx, &bufs, (size_t)w.ntasks * 4, &r->offsets)) ||
      (err = atl__app_alloc(ctx, &bufs, r->out_bytes, &r->out)) ||
      (err = atl__ops(ctx)->write(atl__dev(ctx), da, w.a, w.a_bytes)) ||
      (err = atl__ops(ctx)->write(atl__dev(ctx), db, w.b, w.b_bytes)))
    goto out;
  for (unsigned i = 0; i < p->ngroups && !err; i++)
    for (unsigned k = 0; k < sizeof kinds / sizeof kinds[0] && !err; k++)
      if (kinds[k].bit < 0 || (p->variants & (1u << kinds[k].bit)))
        err = run_row(ctx, p, tm, r, kernels, &w, da, db, k, p->groups[i], out);
out:
  work_free(&w);
  atl__app_free_all(ctx, &bufs);
  return err;
}

int atl_app_swmapreduce(atl_context_t ctx, const struct atl_swapps_params *p, const struct atl_app_timing *tm,
                        struct atl_result_set *out)
{
  struct atl__app_buffers bufs = {{0}, 0};
  struct mr_run r = {0};
  void *kernels[2] = {NULL, NULL};
  int err = atl__swapps_check(ctx, p, "mapreduce");
  if (err)
    return err;
  struct atl_row brow;
  atl__app_row_init(&brow, "mapreduce", "build");
  if ((err = atl__app_alloc(ctx, &bufs, 4, &r.counter)) || (err = atl__sw_sync_alloc(ctx, &bufs, p, &r.sync)))
    goto out;
  if ((err = atl__app_build(ctx, "app_swmapreduce", "mr_map", "ATL_WAVEFRONT=32 ATL_MAX_GROUPS=8", &kernels[0],
                            &brow)) ||
      (err = atl__app_build(ctx, "app_swmapreduce", "mr_scan", "ATL_WAVEFRONT=32 ATL_MAX_GROUPS=8", &kernels[1],
                            NULL))) {
    err = atl__sw_build_failed(ctx, &brow, out);
    goto out;
  }
  r.cap = atl__sw_cap(ctx, kernels[0], p);
  for (unsigned i = 0; i < p->nmatmul && ATL_APP_GO_ON(err); i++)
    err = run_size(ctx, p, tm, &r, kernels, 0, p->matmul_n[i], out);
  for (unsigned i = 0; i < p->nkmeans && ATL_APP_GO_ON(err); i++)
    err = run_size(ctx, p, tm, &r, kernels, 1, p->kmeans_points[i], out);
out:
  atl__app_free_all(ctx, &bufs);
  return err;
}
