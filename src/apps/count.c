/*
 * Seed 001: count the containers whose float sum exceeds a limit, with one
 * atomic per thread, per warp (sub-group) and per block (work-group), against
 * the device's read bandwidth measured in the same run (the ceiling) and,
 * on CUDA, CUB's DeviceReduce over the same predicate.
 *
 * Inputs are small integers stored as floats, so every sum is exact in any
 * order and the GPU's count must equal the host's exactly.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"

/* Its registry entry, at the end of this file: the run checks its params with the entry's check. */
extern const struct atl_app_info atl__app_count;

struct count_run {
  atl_context_t ctx;
  const struct atl_count_params *p;
  void *vals, *count, *cub_count;
  uint32_t expected_count, expected_xor;
  size_t bytes;
  double read_gbps;
};

static int reset_count(atl_context_t ctx, void *arg)
{
  struct count_run *r = arg;
  return atl__app_fill32(ctx, r->count, 0, sizeof(uint32_t));
}

/* Value i of container c: an integer from -8 to 8, as a float. */
static float input_value(uint64_t seed, uint64_t index)
{
  return (float)((int)(atl__splitmix64(seed ^ (index * 0x2545f4914f6cdd1dull)) % 17) - 8);
}

/* Generates the item-major input and the expected count and xor of all words. */
static int make_input(const struct atl_count_params *p, float *vals, uint32_t *count, uint32_t *xor_all)
{
  const uint64_t C = p->containers;
  int32_t *sums = calloc(C, sizeof *sums);
  if (sums == NULL)
    return ATL_ENOMEM;
  uint32_t x = 0;
  for (uint64_t i = 0; i < p->items; i++)
    for (uint64_t c = 0; c < C; c++) {
      float v = input_value(p->seed, i * C + c);
      vals[i * C + c] = v;
      sums[c] += (int32_t)v;
      uint32_t bits;
      memcpy(&bits, &v, sizeof bits);
      x ^= bits;
    }
  uint32_t n = 0;
  for (uint64_t c = 0; c < C; c++)
    n += (double)sums[c] > (double)p->limit;
  free(sums);
  *count = n;
  *xor_all = x;
  return 0;
}

static void add_throughput(struct atl_row *row, const struct count_run *r)
{
  if (row->time_ms.median <= 0)
    return;
  double gbps = (double)r->bytes / (row->time_ms.median * 1e6);
  atl_row_metric_set(row, "gbps", gbps);
  if (r->read_gbps > 0)
    atl_row_metric_set(row, "ratio_to_read", gbps / r->read_gbps);
}

static int run_ceiling(struct count_run *r, const struct atl_app_timing *tm, struct atl_result_set *out)
{
  atl_context_t ctx = r->ctx;
  struct atl_row row;
  void *kernel = NULL;
  uint32_t got = 0;
  char defines[64];
  atl__app_row_init(&row, "count", "read-ceiling");
  snprintf(defines, sizeof defines, "ITEMS=1 WG=%u STRATEGY_thread", r->p->wg_size);
  int err = atl__app_build(ctx, "app_count", "read_all", defines, &kernel, NULL);
  struct atl_arg args[] = {{ATL_ARG_BUFFER, r->vals, 0},
                           {ATL_ARG_U32, NULL, r->p->containers * r->p->items},
                           {ATL_ARG_BUFFER, r->count, 0}};
  struct atl_launch launch = {atl__app_resident_threads(atl_device_current(ctx), r->p->wg_size), r->p->wg_size, args, 3};
  const struct atl__app_readback rb = {r->count, &got, sizeof got};
  if (!err)
    err = atl__app_time_read(ctx, kernel, &launch, reset_count, r, tm, &row, &rb, 1);
  if (err) {
    atl__app_row_failed(ctx, &row);
  } else {
    atl__app_row_verdict(&row, got == r->expected_xor, "xor of the words read differs");
    add_throughput(&row, r);
    r->read_gbps = row.verified ? atl_row_metric(&row, "gbps", 0) : 0;
    if (r->read_gbps > 0)
      atl_row_metric_set(&row, "ratio_to_read", 1.0);
  }
  return atl__app_row_add(out, &row, err);
}

static int run_strategy(struct count_run *r, const char *strategy, const struct atl_app_timing *tm,
                        struct atl_result_set *out)
{
  atl_context_t ctx = r->ctx;
  const struct atl_count_params *p = r->p;
  struct atl_row row;
  void *kernel = NULL;
  uint32_t got = 0, limit_bits;
  char defines[96];
  memcpy(&limit_bits, &p->limit, sizeof limit_bits);
  atl__app_row_init(&row, "count", strategy);
  snprintf(defines, sizeof defines, "ITEMS=%u WG=%u STRATEGY_%s", p->items, p->wg_size, strategy);
  int err = atl__app_build(ctx, "app_count", "count_containers", defines, &kernel, &row);
  struct atl_arg args[] = {{ATL_ARG_BUFFER, r->vals, 0},
                           {ATL_ARG_U32, NULL, p->containers},
                           {ATL_ARG_U32, NULL, limit_bits},
                           {ATL_ARG_BUFFER, r->count, 0}};
  size_t global = (p->containers + p->wg_size - 1) / p->wg_size * p->wg_size;
  struct atl_launch launch = {global, p->wg_size, args, 4};
  const struct atl__app_readback rb = {r->count, &got, sizeof got};
  if (!err)
    err = atl__app_time_read(ctx, kernel, &launch, reset_count, r, tm, &row, &rb, 1);
  if (err) {
    atl__app_row_failed(ctx, &row);
  } else if (got == 0xffffffffu && strcmp(strategy, "warp") == 0) {
    memset(&row.time_ms, 0, sizeof row.time_ms);
    atl__app_row_status(&row, ATL_STATUS_UNSUPPORTED, "the device has no sub-groups (cl_khr_subgroups)");
  } else {
    atl__app_row_verdict(&row, got == r->expected_count, "counted %u, expected %u", got, r->expected_count);
    atl_row_metric_set(&row, "count", got);
    add_throughput(&row, r);
  }
  return atl__app_row_add(out, &row, err);
}

/* CUB's count of the containers over the limit, @p reps timed runs (atl__app_cub_time samples it). */
static int cub_count_if(void *arg, unsigned reps, float *times, char *why, size_t len)
{
  const struct atl__cub_call *c = arg;
  const struct count_run *r = c->run;
  return c->cub->count_if(c->ordinal, (uint64_t)(uintptr_t)r->vals, r->p->containers, r->p->items, r->p->limit,
                          (uint64_t)(uintptr_t)r->cub_count, reps, times, why, len);
}

static int run_cub(struct count_run *r, const struct atl_app_timing *tm, struct atl_result_set *out)
{
  atl_context_t ctx = r->ctx;
  struct atl_row row;
  char why[256];
  atl__app_row_init(&row, "count", "cub");
  int ordinal;
  const struct atl__cub *cub = atl__app_cub_for(ctx, &row, &ordinal);
  if (cub == NULL)
    return atl__app_row_add(out, &row, 0);
  snprintf(row.instructions, sizeof row.instructions, "cub::DeviceReduce::Sum, %s", cub->info);
  uint64_t got = 0;
  struct atl__cub_call call = {cub, r, ordinal};
  int err = atl__ops(ctx)->fill(atl__dev(ctx), r->cub_count, &(uint32_t){0}, 4, sizeof got);
  if (!err && atl__app_cub_time(cub_count_if, &call, tm, &row, why, sizeof why) != 0) {
    atl__app_row_status(&row, ATL_STATUS_ERROR, "%s", why);
    return atl__app_row_add(out, &row, 0);
  }
  if (!err)
    err = atl__app_read(ctx, r->cub_count, &got, sizeof got);
  if (err) {
    atl__app_row_failed(ctx, &row);
  } else {
    atl__app_row_verdict(&row, got == r->expected_count, "CUB counted %llu, expected %u", (unsigned long long)got,
                         r->expected_count);
    atl_row_metric_set(&row, "count", (double)got);
    add_throughput(&row, r);
  }
  return atl__app_row_add(out, &row, 0);
}

int atl_app_count(atl_context_t ctx, const struct atl_count_params *p, const struct atl_app_timing *tm,
                  struct atl_result_set *out)
{
  struct atl__app_buffers bufs = {{0}, 0};
  struct count_run r = {ctx, p, NULL, NULL, NULL, 0, 0, 0, 0};
  float *vals = NULL;
  int err = atl__app_checked(ctx, &atl__app_count, p);
  if (err)
    return err;
  r.bytes = (size_t)p->containers * p->items * sizeof(float);
  if ((vals = malloc(r.bytes)) == NULL)
    return atl__seterr(ctx, ATL_ENOMEM, "count: out of host memory for %zu bytes", r.bytes);
  if ((err = make_input(p, vals, &r.expected_count, &r.expected_xor)))
    goto out;
  if ((err = atl__app_alloc(ctx, &bufs, r.bytes, &r.vals)) || (err = atl__app_alloc(ctx, &bufs, 8, &r.count)) ||
      (err = atl__app_alloc(ctx, &bufs, 8, &r.cub_count)) ||
      (err = atl__ops(ctx)->write(atl__dev(ctx), r.vals, vals, r.bytes)))
    goto out;
  free(vals);
  vals = NULL;
  if ((err = run_ceiling(&r, tm, out)))
    goto out;
  static const char *const strategies[] = {"thread", "warp", "block"};
  for (size_t s = 0; s < 3 && ATL_APP_GO_ON(err); s++)
    err = run_strategy(&r, strategies[s], tm, out);
  if (!err && p->want_cub)
    err = run_cub(&r, tm, out);
  for (size_t i = 0; i < out->count; i++)
    if (atl_row_config_is(&out->rows[i], "app", "count")) {
      atl_row_metric_set(&out->rows[i], "containers", (double)p->containers);
      atl_row_metric_set(&out->rows[i], "items", p->items);
      atl_row_metric_set(&out->rows[i], "bytes", (double)r.bytes);
    }
out:
  free(vals);
  atl__app_free_all(ctx, &bufs);
  return err;
}

static void count_defaults(const struct atl_device_info *d, void *params)
{
  struct atl_count_params *p = params;
  atl__app_wg_default(d, &p->wg_size, 1);
  if (p->containers == 0 && p->items > 0) {
    /* GPUs: input several times the L2, so the read ceiling is DRAM's; CPUs: small enough for PoCL's pace. */
    uint64_t bytes = d->type == ATL_DEVICE_CPU ? 16384ull * 4 * p->items : 512ull << 20;
    if (bytes > d->max_alloc / 2)
      bytes = d->max_alloc / 2;
    p->containers = bytes / (4ull * p->items);
    if (p->containers == 0)
      p->containers = 1;
  }
}

/* Beyond the ranges of its options: what the block reduction and the device allow. */
static int count_check(const struct atl_device_info *d, const void *params, char *why, size_t len)
{
  const struct atl_count_params *p = params;
  if (atl__app_wg_check(d, p->wg_size, 1, "the block reduction halves it", why, len))
    return ATL_EINVAL;
  if (p->containers == 0 || p->items == 0)
    return atl__app_why(why, len, "containers %llu with items %u is not allowed: at least one of each",
                        (unsigned long long)p->containers, p->items);
  if (p->containers * p->items > UINT32_MAX)
    return atl__app_why(why, len, "containers %llu with items %u is more than 2^32 - 1 floats",
                        (unsigned long long)p->containers, p->items);
  if (p->containers * p->items * 4 > d->max_alloc)
    return atl__app_why(why, len, "containers %llu x items %u floats exceed the max allocation of %llu bytes on %s",
                        (unsigned long long)p->containers, p->items, (unsigned long long)d->max_alloc, d->name);
  return 0;
}

ATL__APP_RUN(count, atl_app_count)

#define P(field) .offset = offsetof(struct atl_count_params, field)
static const struct atl_app_option count_options[] = {
    ATL__APP_OPT_WG(struct atl_count_params, 65536, "work-items per work-group, a power of two"),
    {"containers", ATL_APP_OPT_U64, P(containers), .min = 1, .max = 4294967295.0, .arg = "N",
     .def_help = "GPU: 512 MiB of input, several times L2; CPU: 16384", .help = "containers (one thread each)"},
    {"items", ATL_APP_OPT_U32, P(items), .min = 1, .max = 4096, .def = "32", .arg = "N",
     .help = "floats per container"},
    {"limit", ATL_APP_OPT_FLOAT, P(limit), .min = -1e30, .max = 1e30, .def = "0", .arg = "X",
     .help = "a container counts if its sum is above X"},
    {"seed", ATL_APP_OPT_U64, P(seed), .max = 0x1p64, .def = "1", .arg = "N", .help = "input generator seed"},
    {"no-cub", ATL_APP_OPT_UNFLAG, P(want_cub), .bits = 1, .help = "skip the CUB baseline"},
    {0}};
#undef P

/* What a run allocates (atl_app_info.bytes_needed): the values on the host and the device, the sums. */
static void count_bytes(const struct atl_device_info *d, const void *params, struct atl_app_bytes *need)
{
  const struct atl_count_params *p = params;
  const uint64_t vals = p->containers * p->items * sizeof(float);
  (void)d;
  *need = (struct atl_app_bytes){vals + p->containers * 4, vals + 16, "containers"};
}

const struct atl_app_info atl__app_count = {
    .name = "count",
    .summary = "seed 001: containers over a limit, one atomic per thread / warp / block, vs read bandwidth and CUB",
    .description =
        "Counts the containers whose sum of floats exceeds a limit, one thread per\n"
        "container, with one atomic per thread, per warp (OpenCL: sub-group) and per\n"
        "block (work-group). Reports input read in GB/s and its ratio to the read\n"
        "bandwidth of a read-only kernel over the same bytes in the same run; on CUDA\n"
        "CUB's DeviceReduce is the baseline. Inputs are small integers as floats, so\n"
        "the count is exact and checked against the host's.",
    ATL__APP_ENTRY(struct atl_count_params, count),
    .bytes_needed = count_bytes,
};
