/*
 * Scatter-reduce by max or min: the library call atl_scatter_reduce (scatter.h) and the app scatter-reduce that
 * times and verifies it (PyTorch's scatter_reduce_ amax / amin, the op the diagnosis advises for a hot key's max).
 * Max and min are exact in any order, so the app checks every output element bit for bit.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"
#include "atomlab/scatter.h"
#include "core/context.h"
#include "scatter_guard.h"
#include "scatter_keys.h"

static const char *const type_names[] = {"f32", "u32", "i32"};
static const char *const reduce_names[] = {"max", "min"};
static const char *const dist_names[] = {"uniform", "hot", "zipf"};
static const int dist_keys[] = {ATL__SCATTER_UNIFORM, ATL__SCATTER_HOT, ATL__SCATTER_ZIPF};
/* The kernels (app_scatter_reduce.k.c): group aggregates equal keys in a work-group before its atomics, atomic is
 * one atomic per element; auto (the app's) picks one as the library does (reduce_pick). */
static const char *const variant_names[] = {"group", "atomic", "auto"};
static const char *const variant_entries[] = {"scatter_reduce_group", "scatter_reduce"};

/* The rows of a work-group of the group kernel: 2048 elements (its table: twice the rows in slots of D words). */
static uint32_t group_rows(uint32_t dim)
{
  return 2048u / dim;
}

/* The kernel of one type, key width, op and variant (@p guarded: taking the keys' guard word, scatter_guard.h);
 * the row (NULL: none) records its atomic instructions. */
static int reduce_kernel(atl_context_t ctx, int type, unsigned idx_bytes, int op, uint32_t dim, int variant,
                         int guarded, void **kernel, struct atl_row *row)
{
  char defines[128];
  snprintf(defines, sizeof defines, "TYPE_%s OP_%s IDX_T=%s D=%uu GROUP_ROWS=%uu%s", type_names[type], reduce_names[op],
           idx_bytes == 8 ? "ulong" : "uint", dim, group_rows(dim), ATL__KEY_GUARD_DEFINE(guarded));
  return atl__app_build(ctx, "app_scatter_reduce", variant_entries[variant], defines, kernel, row);
}

/* The global size of a variant's launch over @p rows of @p dim columns in work-groups of @p wg. */
static size_t reduce_global(int variant, uint64_t rows, uint32_t dim, uint32_t wg)
{
  const uint64_t items = variant == 0 ? (rows + group_rows(dim) - 1) / group_rows(dim) * wg : rows * dim;
  return (size_t)((items + wg - 1) / wg * wg);
}

/* The kernel for the keys in @p idx (0: group, 1: atomic). Keys that repeat (a hot key, a zipf head, runs) queue
 * on their words, one atomic per element, where the group kernel sends one per work-group; keys that do not repeat
 * gain nothing from its table. The caller's hint says which (d->keys); else the keys' shares decide as they do
 * atl_scatter_add's pick (a sample counted on the device, kept with the keys' buffer until its next write; a
 * wrapped buffer's counted on every call, scatter.h): the methods that pick aggregates equal keys first (bins,
 * block, part in one range, run) for these keys. */
static int reduce_pick(atl_context_t ctx, const struct atl_scatter_desc *d, atl_buffer_t idx, int *variant)
{
  if (d->keys != ATL_SCATTER_KEYS_SAMPLE) {
    *variant = d->keys == ATL_SCATTER_KEYS_SPREAD;
    return 0;
  }
  struct atl_scatter_desc add = *d;
  add.method = ATL_SCATTER_AUTO, add.deterministic = 0;
  enum atl_scatter_method m = ATL_SCATTER_ATOMIC;
  const int err = atl_scatter_method_for(ctx, &add, idx, &m);
  *variant = !(m == ATL_SCATTER_BINS || m == ATL_SCATTER_BLOCK || m == ATL_SCATTER_PART1 || m == ATL_SCATTER_RUN);
  return err;
}

static int lib_check(atl_context_t ctx, const struct atl_scatter_desc *d, int op, atl_buffer_t out, atl_buffer_t src,
                     atl_buffer_t idx)
{
  if (d == NULL || out == NULL || src == NULL || idx == NULL)
    return atl__seterr(ctx, ATL_EINVAL, "scatter_reduce: a descriptor and three buffers are needed");
  const atl_buffer_t bufs[] = {out, src, idx};
  for (int i = 0; i < 3; i++) /* the open device's buffers only (scatter_lib.c's rule) */
    if (bufs[i]->ctx != ctx || bufs[i]->opened != ctx->opened || bufs[i]->handle == NULL)
      return atl__seterr(ctx, ATL_EINVAL, "scatter_reduce: a buffer of %s is not allowed; only the open device's are",
                         bufs[i]->ctx != ctx ? "another context" : "a device since closed");
  if ((unsigned)d->type > ATL_SCATTER_I32 || (op != ATL_SCATTER_REDUCE_MAX && op != ATL_SCATTER_REDUCE_MIN))
    return atl__seterr(ctx, ATL_EINVAL, "scatter_reduce: type %d, op %d are not allowed: f32, u32 or i32; max or min",
                       (int)d->type, op);
  if ((d->index_bytes != 4 && d->index_bytes != 8) || d->rows == 0 || d->targets == 0 || d->targets >= (1ull << 32) ||
      d->dim == 0 || d->dim > 512)
    return atl__seterr(ctx, ATL_EINVAL, "scatter_reduce: index_bytes 4 or 8, rows >= 1, targets 1 to 2^32 - 1, dim "
                                        "1 to 512 are allowed");
  if (out->bytes < d->targets * d->dim * 4 || src->bytes < d->rows * d->dim * 4 || idx->bytes < d->rows * d->index_bytes)
    return atl__seterr(ctx, ATL_EINVAL, "scatter_reduce: a buffer is smaller than the descriptor says");
  return 0;
}

int atl_scatter_reduce(atl_context_t ctx, const struct atl_scatter_desc *d, enum atl_scatter_reduce_op op,
                       atl_buffer_t out, atl_buffer_t src, atl_buffer_t idx, double *device_ms)
{
  if (ctx == NULL)
    return ATL_EINVAL;
  const struct atl_device_info *dev = atl_device_current(ctx);
  if (dev == NULL)
    return atl__seterr(ctx, ATL_ENODEV, "scatter_reduce: no device open");
  int err = lib_check(ctx, d, op, out, src, idx), variant = 0;
  void *kernel = NULL;
  if (err || (err = reduce_pick(ctx, d, idx, &variant)) ||
      (err = reduce_kernel(ctx, (int)d->type, d->index_bytes, op, d->dim, variant, !d->unchecked_keys, &kernel, NULL)))
    return err;
  const uint32_t wg = atl__app_default_wg(dev, 1);
  /* the keys' check enqueued first; the kernel returns at its start where it found a bad key */
  const struct atl__keys keys = {"scatter_reduce", idx->handle, d->index_bytes, d->rows, d->targets, wg};
  void *guard = NULL;
  if (!d->unchecked_keys && (err = atl__keys_guard(ctx, &keys, &guard)))
    return err;
  struct atl_arg args[] = {{ATL_ARG_BUFFER, src->handle, 0}, {ATL_ARG_BUFFER, idx->handle, 0},
                           {ATL_ARG_BUFFER, out->handle, 0}, {ATL_ARG_U64, NULL, d->rows},
                           {ATL_ARG_BUFFER, guard, 0}};
  struct atl_launch launch = {reduce_global(variant, d->rows, d->dim, wg), wg, args, guard ? 5u : 4u};
  double t = 0;
  out->writes++; /* a pick's shares of its contents are stale from here (scatter_lib.c) */
  err = atl__ops(ctx)->launch(atl__dev(ctx), kernel, &launch, &t);
  if (!err && device_ms)
    *device_ms = t;
  return atl__keys_report(ctx, &keys, guard, err);
}

/* The app's parameters (its options below). */
struct reduce_params {
  uint32_t rows, targets, dim, wg_size;
  int type, reduce, dist, variant;
};

/* A 32-bit value of element @p i in column @p c: distinct signs and magnitudes, exact in every type. f32 columns
 * 4k + 3 hold -0.75 to -0.0 and a rare +0.0, columns 4k + 2 hold +0.0 to 0.75 and a rare -0.0 (a max, a min that
 * the sign of a zero decides); sources in columns 8k + 5 are a NaN of either sign in about one row of 64. */
static uint32_t value_bits(int type, uint64_t i, uint32_t c, int init)
{
  uint32_t h = (uint32_t)((i + (init ? 0x9e3779b9u : 0)) * 2654435761u);
  h ^= h >> 15;
  if (type == 0) {
    const uint32_t q = h % 64u;
    const float f = c % 4 >= 2 ? (c % 4 == 3 ? -0.25f : 0.25f) * (float)(q % 4u)
                               : ((float)(int)(h % 4001u) - 2000.0f) * 0.25f;
    memcpy(&h, &f, 4);
    if (c % 4 >= 2 && q == 0)
      h ^= 0x80000000u;
    if (c % 8 == 5 && !init && q == 1)
      h = (h & 1u) ? 0x7fc00000u : 0xffc00000u;
  } else if (type == 2) {
    h = (uint32_t)((int32_t)(h % 2000001u) - 1000000);
  }
  return h;
}

/* A value's rank in the kernels' order (app_scatter_reduce.k.c): floats by IEEE order with -0.0 below +0.0 and
 * NaNs by their bits, i32 as signed, u32 as unsigned. */
static uint32_t order_of(int type, uint32_t b)
{
  return type == 0 ? b ^ (b >> 31 ? 0xffffffffu : 0x80000000u) : type == 2 ? b ^ 0x80000000u : b;
}

static int keeps(int type, int op, uint32_t stored, uint32_t v)
{
  const uint32_t s = order_of(type, stored), x = order_of(type, v);
  return op == 0 ? x <= s : x >= s;
}

struct reduce_run {
  void *out;
  const uint32_t *init;
  size_t bytes;
};

static int reset(atl_context_t ctx, void *arg)
{
  const struct reduce_run *r = arg;
  return atl__ops(ctx)->write(atl__dev(ctx), r->out, r->init, r->bytes);
}

/* The inputs, the expected output and the buffers (the keys in a library buffer, @p keys, that the pick reads);
 * the caller frees host (one block), bufs and keys. */
static int prepare(atl_context_t ctx, const struct reduce_params *p, struct atl__app_buffers *bufs, void *dev_buf[3],
                   atl_buffer_t *keys, uint32_t **host)
{
  const size_t n = (size_t)p->rows * p->dim, t = (size_t)p->targets * p->dim;
  uint32_t *h = malloc((n + p->rows + 2 * t) * 4);
  if ((*host = h) == NULL)
    return atl__seterr(ctx, ATL_ENOMEM, "out of host memory");
  uint32_t *src = h, *idx = h + n, *init = idx + p->rows, *want = init + t;
  for (size_t i = 0; i < t; i++)
    want[i] = init[i] = value_bits(p->type, i, (uint32_t)(i % p->dim), 1);
  if (atl__scatter_keys(dist_keys[p->dist], p->rows, p->targets, 1.1, 1, 1, idx))
    return atl__seterr(ctx, ATL_ENOMEM, "out of host memory");
  for (size_t r = 0; r < p->rows; r++) {
    for (size_t c = 0; c < p->dim; c++) {
      src[r * p->dim + c] = value_bits(p->type, r * p->dim + c, (uint32_t)c, 0);
      uint32_t *w = &want[(size_t)idx[r] * p->dim + c];
      if (!keeps(p->type, p->reduce, *w, src[r * p->dim + c]))
        *w = src[r * p->dim + c];
    }
  }
  int err;
  if ((err = atl__app_alloc(ctx, bufs, n * 4, &dev_buf[0])) || (err = atl_buffer_new(ctx, p->rows * 4, keys)) ||
      (err = atl__app_alloc(ctx, bufs, t * 4, &dev_buf[2])))
    return err;
  dev_buf[1] = (*keys)->handle;
  if ((err = atl__ops(ctx)->write(atl__dev(ctx), dev_buf[0], src, n * 4)))
    return err;
  return atl_buffer_write(ctx, *keys, idx, p->rows * 4);
}

/* --variant auto: the library's pick for these keys (reduce_pick, from a sample of them). */
static int app_pick(atl_context_t ctx, const struct reduce_params *p, atl_buffer_t keys, int *variant)
{
  if (p->variant != 2) {
    *variant = p->variant;
    return 0;
  }
  const struct atl_scatter_desc d = {.type = (enum atl_scatter_type)p->type, .index_bytes = 4, .rows = p->rows,
                                     .targets = p->targets, .dim = p->dim};
  return reduce_pick(ctx, &d, keys, variant);
}

static int reduce_app(atl_context_t ctx, const void *params, const struct atl_app_timing *tm, struct atl_result_set *out)
{
  extern const struct atl_app_info atl__app_scatter_reduce;
  const struct reduce_params *p = params;
  struct atl__app_buffers bufs = {{0}, 0};
  void *buf[3] = {NULL};
  uint32_t *host = NULL, *got = NULL;
  atl_buffer_t keys = NULL;
  int err = atl__app_checked(ctx, &atl__app_scatter_reduce, p), v = p->variant;
  if (err)
    return err;
  const size_t n = (size_t)p->rows * p->dim, t = (size_t)p->targets * p->dim;
  void *kernel = NULL;
  if (!(err = prepare(ctx, p, &bufs, buf, &keys, &host)) && !(err = app_pick(ctx, p, keys, &v)) &&
      !(got = malloc(t * 4)))
    err = atl__seterr(ctx, ATL_ENOMEM, "out of host memory");
  char variant[40]; /* the kernel that ran (auto: the one it picked) */
  snprintf(variant, sizeof variant, "%s/%s/%s/%s", type_names[p->type], dist_names[p->dist], reduce_names[p->reduce],
           variant_names[v]);
  struct atl_row row;
  atl__app_row_init(&row, "scatter-reduce", variant);
  if (!err)
    err = reduce_kernel(ctx, p->type, 4, p->reduce, p->dim, v, 0, &kernel, &row);
  struct atl_arg args[] = {{ATL_ARG_BUFFER, buf[0], 0}, {ATL_ARG_BUFFER, buf[1], 0}, {ATL_ARG_BUFFER, buf[2], 0},
                           {ATL_ARG_U64, NULL, p->rows}};
  struct atl_launch launch = {reduce_global(v, p->rows, p->dim, p->wg_size), p->wg_size, args, 4};
  struct reduce_run r = {buf[2], host ? host + n + p->rows : NULL, t * 4};
  const struct atl__app_readback rb[] = {{buf[2], got, t * 4}};
  if (!err)
    err = atl__app_time_read(ctx, kernel, &launch, reset, &r, tm, &row, rb, 1);
  if (err) {
    atl__app_row_failed(ctx, &row);
  } else {
    const uint32_t *want = host + n + p->rows + t;
    uint64_t wrong = 0;
    size_t first = 0;
    for (size_t i = 0; i < t; i++)
      if (got[i] != want[i] && wrong++ == 0)
        first = i;
    atl_row_metric_set(&row, "rows", p->rows);
    atl_row_metric_set(&row, "targets", p->targets);
    atl__app_row_verdict(&row, wrong == 0, "%llu of %zu outputs wrong, first: element %zu = 0x%08x, expected 0x%08x",
                         (unsigned long long)wrong, t, first, got[first], want[first]);
    atl__app_row_per_s(&row, "melems_per_s", (double)n);
  }
  free(host);
  free(got);
  atl_buffer_free(ctx, keys);
  atl__app_free_all(ctx, &bufs);
  return atl__app_row_add(out, &row, err);
}

static void reduce_defaults(const struct atl_device_info *d, void *params)
{
  struct reduce_params *p = params;
  atl__app_wg_default(d, &p->wg_size, 0);
  if (p->rows == 0)
    p->rows = d->type == ATL_DEVICE_CPU ? 16384 : 8388608;
}

static int reduce_check(const struct atl_device_info *d, const void *params, char *why, size_t len)
{
  const struct reduce_params *p = params;
  if (atl__app_wg_check(d, p->wg_size, 0, NULL, why, len))
    return ATL_EINVAL;
  if ((uint64_t)p->rows * p->dim > (1ull << 28) || (uint64_t)p->targets * p->dim > (1ull << 28))
    return atl__app_why(why, len, "rows x dim and targets x dim are allowed up to 2^28 (%u x %u, %u x %u)", p->rows,
                        p->dim, p->targets, p->dim);
  return 0;
}

#define P(field) .offset = offsetof(struct reduce_params, field)
static const struct atl_app_option reduce_options[] = {
    ATL__APP_OPT_WG(struct reduce_params, 65536, "work-items per work-group"),
    {"rows", ATL_APP_OPT_U32, P(rows), .min = 1, .max = 0x1p28, .arg = "N", .def_help = "GPU: 8388608; CPU: 16384",
     .help = "source rows"},
    {"targets", ATL_APP_OPT_U32, P(targets), .min = 1, .max = 0x1p28, .def = "4096", .arg = "N", .help = "output rows"},
    {"dim", ATL_APP_OPT_U32, P(dim), .min = 1, .max = 512, .def = "1", .arg = "D", .help = "columns of a row"},
    {"type", ATL_APP_OPT_CHOICE, P(type), .names = type_names, .nnames = 3, .def = "f32", .arg = "T",
     .help = "f32 (integer max/min on the bit pattern), u32 or i32"},
    {"reduce", ATL_APP_OPT_CHOICE, P(reduce), .names = reduce_names, .nnames = 2, .def = "max", .arg = "OP",
     .help = "max or min (PyTorch's amax, amin)"},
    {"dist", ATL_APP_OPT_CHOICE, P(dist), .names = dist_names, .nnames = 3, .def = "uniform", .arg = "D",
     .help = "uniform keys, hot (every key 0) or zipf (rank r with probability ~ 1/(r+1)^1.1)"},
    {"variant", ATL_APP_OPT_CHOICE, P(variant), .names = variant_names, .nnames = 3, .def = "auto", .arg = "V",
     .help = "group (equal keys aggregated in a work-group first), atomic (one atomic per element) or auto "
             "(the library's pick from a sample of the keys: group where they repeat)"},
    {0}};
#undef P

/* What a run allocates (atl_app_info.bytes_needed): on the host the sources, keys, initial and expected outputs,
 * the read-back and a zipf draw's CDF; on the device the sources, keys and outputs. */
static void reduce_bytes(const struct atl_device_info *d, const void *params, struct atl_app_bytes *need)
{
  const struct reduce_params *p = params;
  const uint64_t n = (uint64_t)p->rows * p->dim, t = (uint64_t)p->targets * p->dim;
  (void)d;
  *need = (struct atl_app_bytes){(n + p->rows + 3 * t) * 4 + (uint64_t)p->targets * 8, (n + p->rows + t) * 4,
                                 n + p->rows >= 3 * t ? "rows" : "targets"};
}

const struct atl_app_info atl__app_scatter_reduce = {
    .name = "scatter-reduce",
    .summary = "scatter-reduce of rows by max or min (PyTorch's scatter_reduce_ amax / amin)",
    .description = "out[key[i]][c] = max (or min) of itself and src[i][c], through atl_scatter_reduce's kernels:\n"
                   "integer atomic max / min, floats on their bit pattern (no CAS loop). The group variant\n"
                   "first takes the max of equal keys in a work-group: one atomic per work-group, key and\n"
                   "column; auto picks it where the keys repeat, as the library does. Every output element\n"
                   "is checked bit for bit (max and min are exact in any order; floats in IEEE order with\n"
                   "-0.0 below +0.0, NaNs by their bits).",
    .params_size = sizeof(struct reduce_params), .options = reduce_options, .defaults = reduce_defaults,
    .check = reduce_check, .run = reduce_app, .bytes_needed = reduce_bytes,
};
