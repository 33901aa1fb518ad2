/*
 * Seed 004: double-precision add under contention, through a spin lock
 * (warp-safe, and the seed's naive one), a CAS loop on the 64-bit pattern,
 * and (CUDA) the native atomicAdd. Addends are multiples of 0.5, so every
 * order of additions gives the same exact sum and the final values are
 * checked bit for bit.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"

/* Its registry entry, at the end of this file: the run checks its params with the entry's check. */
extern const struct atl_app_info atl__app_double_add;

struct dadd_run {
  void *data, *locks, *abort_flag, *retries;
  size_t data_bytes, lock_bytes;
  uint32_t aborted; /* some launch (not only the last) gave up a wait */
};

static int reset(atl_context_t ctx, void *arg)
{
  struct dadd_run *r = arg;
  uint32_t flag = 0;
  int err = atl__ops(ctx)->read(atl__dev(ctx), r->abort_flag, &flag, sizeof flag); /* the previous launch's */
  r->aborted |= flag;
  if (!err)
    err = atl__app_fill32(ctx, r->data, 0, r->data_bytes); /* 0.0 is all zero bits */
  if (!err)
    err = atl__app_fill32(ctx, r->locks, 0, r->lock_bytes);
  if (!err)
    err = atl__app_fill32(ctx, r->abort_flag, 0, 4);
  return err;
}

static double addend(uint32_t gid) { return (double)((gid % 8u) + 1u) * 0.5; }

static int run_variant(atl_context_t ctx, const struct atl_dadd_params *p, const struct atl_app_timing *tm,
                       struct dadd_run *r, const double *expected, const char *variant, const char *define,
                       struct atl_result_set *out)
{
  const struct atl_device_info *dev = atl_device_current(ctx);
  struct atl_row row;
  void *kernel = NULL;
  char defines[64];
  double *got = NULL;
  uint32_t *retries = NULL, aborted = 0;
  int err = 0;
  atl__app_row_init(&row, "double-add", variant);
  if (strcmp(variant, "native") == 0 && !(dev->kernels_cuda_c && dev->has_f64_atomic_add)) {
    atl__app_row_status(&row, ATL_STATUS_UNSUPPORTED, "%s has no native double atomic add in atomlab's kernels",
                        dev->name);
    return atl__app_row_add(out, &row, 0);
  }
  /* The OpenCL C kernel's CAS-loop variants work on 64-bit words; CUDA C has them always. */
  if (!dev->kernels_cuda_c && !dev->has_int64_atomics) {
    atl__app_row_status(&row, ATL_STATUS_UNSUPPORTED, "needs 64-bit atomics (cl_khr_int64_base_atomics)");
    return atl__app_row_add(out, &row, 0);
  }
  snprintf(defines, sizeof defines, "VARIANT_%s", define);
  err = atl__app_fill32(ctx, r->abort_flag, 0, 4); /* not the previous variant's flag */
  r->aborted = 0;
  got = malloc((size_t)p->targets * sizeof *got);
  retries = malloc((size_t)p->threads * sizeof *retries);
  if (got == NULL || retries == NULL) {
    err = atl__seterr(ctx, ATL_ENOMEM, "out of host memory");
    goto out;
  }
  if (!err)
    err = atl__app_build(ctx, "app_dadd", "double_add", defines, &kernel, &row);
  struct atl_arg args[] = {{ATL_ARG_BUFFER, r->data, 0},    {ATL_ARG_BUFFER, r->locks, 0},
                           {ATL_ARG_U32, NULL, p->targets},  {ATL_ARG_U32, NULL, p->adds},
                           {ATL_ARG_U32, NULL, tm->spin_bound}, {ATL_ARG_BUFFER, r->abort_flag, 0},
                           {ATL_ARG_BUFFER, r->retries, 0}};
  struct atl_launch launch = {p->threads, p->wg_size, args, 7};
  const struct atl__app_readback rb[] = {{r->abort_flag, &aborted, sizeof aborted},
                                         {r->data, got, r->data_bytes},
                                         {r->retries, retries, (size_t)p->threads * sizeof *retries}};
  if (!err)
    err = atl__app_time_read(ctx, kernel, &launch, reset, r, tm, &row, rb, 3);
  if (err) {
    atl__app_row_failed(ctx, &row);
    goto out;
  }
  uint64_t total_retries = 0, wrong = 0;
  for (uint32_t t = 0; t < p->threads; t++)
    total_retries += retries[t];
  uint32_t first_wrong = 0;
  for (uint32_t t = 0; t < p->targets; t++)
    if (memcmp(&got[t], &expected[t], sizeof got[t]) != 0 && wrong++ == 0)
      first_wrong = t;
  const double adds = (double)p->threads * p->adds;
  atl_row_metric_set(&row, "adds", adds);
  atl_row_metric_set(&row, "targets", p->targets);
  atl_row_metric_set(&row, "retries_per_add", (double)total_retries / adds);
  if (aborted || r->aborted) {
    atl__app_row_status(&row, ATL_STATUS_DEADLOCK, "a wait passed spin_bound %u spins and was abandoned",
                        tm->spin_bound);
    goto out;
  }
  atl__app_row_verdict(&row, wrong == 0, "%llu of %u sums wrong, first: target %u = %.17g, expected %.17g",
                       (unsigned long long)wrong, p->targets, first_wrong, got[first_wrong], expected[first_wrong]);
  atl__app_row_per_s(&row, "madds_per_s", adds);
out:
  free(got);
  free(retries);
  return atl__app_row_add(out, &row, err);
}

int atl_app_double_add(atl_context_t ctx, const struct atl_dadd_params *p, const struct atl_app_timing *tm,
                       struct atl_result_set *out)
{
  struct atl__app_buffers bufs = {{0}, 0};
  struct dadd_run r = {0};
  double *expected = NULL;
  int err = 0;
  if ((err = atl__app_checked(ctx, &atl__app_double_add, p)) != 0)
    return err;
  if ((expected = calloc(p->targets, sizeof *expected)) == NULL)
    return atl__seterr(ctx, ATL_ENOMEM, "out of host memory");
  for (uint32_t t = 0; t < p->threads; t++)
    expected[t % p->targets] += addend(t) * p->adds; /* exact: multiples of 0.5 far below 2^52 */
  r.data_bytes = (size_t)p->targets * 8;
  r.lock_bytes = (size_t)p->targets * 4;
  if ((err = atl__app_alloc(ctx, &bufs, r.data_bytes, &r.data)) ||
      (err = atl__app_alloc(ctx, &bufs, r.lock_bytes, &r.locks)) ||
      (err = atl__app_alloc(ctx, &bufs, 4, &r.abort_flag)) ||
      (err = atl__app_alloc(ctx, &bufs, (size_t)p->threads * 4, &r.retries)))
    goto out;
  static const char *const variants[][2] = {
      {"lock", "lock"}, {"lock-naive", "lock_naive"}, {"cas-loop", "cas"}, {"native", "native"}};
  if ((err = atl__app_fill32(ctx, r.abort_flag, 0, 4)))
    goto out;
  for (size_t v = 0; v < 4 && ATL_APP_GO_ON(err); v++)
    err = run_variant(ctx, p, tm, &r, expected, variants[v][0], variants[v][1], out);
out:
  free(expected);
  atl__app_free_all(ctx, &bufs);
  return err;
}

static void dadd_defaults(const struct atl_device_info *d, void *params)
{
  struct atl_dadd_params *p = params;
  atl__app_wg_default(d, &p->wg_size, 0);
  if (p->threads == 0)
    p->threads = d->type == ATL_DEVICE_CPU ? 1024 : 4096;
}

/* Beyond the ranges of its options: whole work-groups, targets the threads can cover. */
static int dadd_check(const struct atl_device_info *d, const void *params, char *why, size_t len)
{
  const struct atl_dadd_params *p = params;
  if (atl__app_wg_check(d, p->wg_size, 0, NULL, why, len))
    return ATL_EINVAL;
  if (p->threads == 0 || p->threads % p->wg_size)
    return atl__app_why(why, len, "threads %u is not allowed: a multiple of wg-size %u, up to 2^26", p->threads,
                        p->wg_size);
  if (p->targets > p->threads)
    return atl__app_why(why, len, "targets %u is not allowed: 1 to threads (%u)", p->targets, p->threads);
  return 0;
}

ATL__APP_RUN(dadd, atl_app_double_add)

#define P(field) .offset = offsetof(struct atl_dadd_params, field)
static const struct atl_app_option dadd_options[] = {
    ATL__APP_OPT_WG(struct atl_dadd_params, 65536, "work-items per work-group"),
    {"threads", ATL_APP_OPT_U32, P(threads), .min = 1, .max = 0x1p26, .arg = "N", .def_help = "GPU: 4096; CPU: 1024",
     .help = "threads in the grid, a multiple of --wg-size"},
    {"adds", ATL_APP_OPT_U32, P(adds), .min = 1, .max = 0x1p20, .def = "4", .arg = "N",
     .help = "additions per thread"},
    {"targets", ATL_APP_OPT_U32, P(targets), .min = 1, .max = 0x1p26, .def = "1", .arg = "N",
     .help = "distinct doubles (1: every thread contends)"},
    {0}};
#undef P

/* What a run allocates (atl_app_info.bytes_needed): the doubles, their locks, every thread's retries. */
static void dadd_bytes(const struct atl_device_info *d, const void *params, struct atl_app_bytes *need)
{
  const struct atl_dadd_params *p = params;
  (void)d;
  *need = (struct atl_app_bytes){(uint64_t)p->targets * 16 + (uint64_t)p->threads * 4,
                                 (uint64_t)p->targets * 12 + (uint64_t)p->threads * 4 + 4,
                                 p->targets >= p->threads ? "targets" : "threads"};
}

const struct atl_app_info atl__app_double_add = {
    .name = "double-add",
    .summary = "seed 004: double add under contention through a spin lock or a CAS loop",
    .description =
        "Every thread adds a double (a multiple of 0.5, so every order sums exactly)\n"
        "--adds times to one of --targets words, through a warp-safe spin lock (done\n"
        "flag per thread), the seed's naive lock, a CAS loop on the 64-bit pattern,\n"
        "and (CUDA) the native atomicAdd. The final sums are checked bit for bit;\n"
        "waits are bounded (--spin-bound) and report status deadlock.",
    ATL__APP_ENTRY(struct atl_dadd_params, dadd),
    .bytes_needed = dadd_bytes,
};
