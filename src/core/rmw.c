/* The RMW benchmark driver: check, build, calibrate, sample, verify. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "context.h"
#include "fields.h"
#include "rmw_internal.h"
#include "verify.h"
#include "patterns/patterns.h"
#include "timing.h"

/* The spec's fields and what each allows (fields.h). */
#define SPEC_FIELD(member, lo, hi, text) ATL__FIELD(struct atl_spec, member, lo, hi, text)
static const struct atl__field spec_fields[] = {
    SPEC_FIELD(op, 0, ATL_OP_COUNT - 1, "an enum atl_op below ATL_OP_COUNT"),
    SPEC_FIELD(type, 0, ATL_TYPE_COUNT - 1, "an enum atl_type below ATL_TYPE_COUNT"),
    SPEC_FIELD(space, 0, ATL_SPACE_COUNT - 1, "global or local (0 or 1)"),
    SPEC_FIELD(pattern, 0, ATL_PATTERN_COUNT - 1, "contiguous, cross-warp, branched or random (0 to 3)"),
    SPEC_FIELD(result, 0, ATL_RESULT_COUNT - 1, "unused or used (0 or 1)"),
    SPEC_FIELD(scope, 0, ATL_SCOPE_COUNT - 1, "device, block or system (0 to 2)"),
    SPEC_FIELD(order, 0, ATL_ORDER_COUNT - 1, "relaxed, acquire, release, acq_rel or seq_cst (0 to 4)"),
    SPEC_FIELD(contention, 1, UINT32_MAX, "1 or more"),
    SPEC_FIELD(padding, 1, UINT32_MAX, "1 or more"),
    SPEC_FIELD(wg_size, 1, UINT32_MAX, "1 or more"),
    SPEC_FIELD(workgroups, 1, UINT32_MAX, "1 or more"),
};

/* The first field of @p s outside what it allows: ATL_EINVAL with the reason naming it in @p why, else 0. */
static int spec_fields_checked(const struct atl_spec *s, char *why, size_t why_len)
{
  if (s == NULL) {
    snprintf(why, why_len, "spec is NULL: a configuration is needed");
    return ATL_EINVAL;
  }
  return atl__fields_check(s, spec_fields, sizeof spec_fields / sizeof spec_fields[0], why, why_len) ? ATL_EINVAL
                                                                                                      : 0;
}

int atl_rmw_check(atl_context_t ctx, const struct atl_spec *s, char *why, size_t why_len)
{
  char none[1];
  if (why == NULL || why_len == 0)
    why = none, why_len = sizeof none;
  why[0] = '\0';
  if (ctx == NULL)
    return ATL_EINVAL;
  int err = spec_fields_checked(s, why, why_len);
  if (err)
    return err;
  const struct atl_device_info *dev = atl_device_current(ctx);
  const uint64_t domain_threads = atl_spec_domain_threads(s);
  err = atl__grid_check(dev, s->wg_size, s->workgroups, UINT32_MAX, why, why_len);
  if (err)
    return err;
  if (s->contention > domain_threads) {
    snprintf(why, why_len, "contention %u exceeds the %llu threads of a %s (allowed: 1 to %llu)", s->contention,
             (unsigned long long)domain_threads, s->space == ATL_SPACE_LOCAL ? "work-group" : "grid",
             (unsigned long long)domain_threads);
    return ATL_EINVAL;
  }
  const uint64_t words = atl_spec_domain_words(s);
  const size_t esize = atl_type_size(s->type);
  if (words == 0) {
    snprintf(why, why_len, "padding %u with contention %u needs more than 2^32 words: lower padding",
             s->padding, s->contention);
    return ATL_EINVAL;
  }
  if (s->space == ATL_SPACE_GLOBAL && words * esize > dev->max_alloc) {
    snprintf(why, why_len,
             "padding %u with contention %u needs an array of %llu bytes, above the device's max allocation of "
             "%llu bytes",
             s->padding, s->contention, (unsigned long long)(words * esize), (unsigned long long)dev->max_alloc);
    return ATL_EINVAL;
  }
  if (!atl_op_type_defined(s->op, s->type)) {
    snprintf(why, why_len, "%s is measured with fetch_add only", atl_type_name(s->type));
    return ATL_ENOTSUP;
  }
  if (!atl_device_has_type(dev, s->type)) {
    snprintf(why, why_len, "%s has no native %s atomic add%s", dev->name, atl_type_name(s->type),
             s->type == ATL_TYPE_U64 ? " (needs cl_khr_int64_base/extended_atomics)"
             : s->type == ATL_TYPE_F32 && !dev->kernels_cuda_c ? " (needs cl_ext_float_atomics)"
                                                                : "");
    return ATL_ENOTSUP;
  }
  if (s->scope != ATL_SCOPE_DEVICE && !dev->has_scopes) {
    snprintf(why, why_len, "the %s backend measures device scope only", dev->backend);
    return ATL_ENOTSUP;
  }
  if (s->order != ATL_ORDER_RELAXED && !dev->has_orders) {
    snprintf(why, why_len, "the %s backend measures relaxed atomics only", dev->backend);
    return ATL_ENOTSUP;
  }
  if (s->order != ATL_ORDER_RELAXED && atl_type_is_float(s->type)) {
    snprintf(why, why_len, "ordered atomics (__nv_atomic_*) are defined for integer types only");
    return ATL_ENOTSUP;
  }
  if (s->scope != ATL_SCOPE_DEVICE && (s->type == ATL_TYPE_F16X2 || s->type == ATL_TYPE_BF16X2)) {
    snprintf(why, why_len, "%s atomic add exists at device scope only", atl_type_name(s->type));
    return ATL_ENOTSUP;
  }
  if (s->order != ATL_ORDER_RELAXED && s->op == ATL_OP_PLAIN_ADD) {
    snprintf(why, why_len, "plain_add is not atomic, so it has no memory order");
    return ATL_ENOTSUP;
  }
  if (s->space == ATL_SPACE_LOCAL) {
    if (!dev->has_local_atomics) {
      snprintf(why, why_len, "device lacks local-memory atomics");
      return ATL_ENOTSUP;
    }
    if (words * esize > dev->local_mem) {
      snprintf(why, why_len, "local array of %llu bytes exceeds the %llu bytes of local memory",
               (unsigned long long)(words * esize), (unsigned long long)dev->local_mem);
      return ATL_ENOTSUP;
    }
    if ((uint64_t)words * s->workgroups * esize > dev->max_alloc) {
      snprintf(why, why_len, "the copy-out of %u local arrays exceeds the max allocation", s->workgroups);
      return ATL_ENOTSUP;
    }
  }
  return 0;
}

void atl__rmw_defines(const struct atl_spec *s, char *buf, size_t len)
{
  struct atl__op_values v;
  atl__op_values(s->op, s->type, &v);
  const uint64_t words = atl_spec_domain_words(s);
  const char *suffix = s->type == ATL_TYPE_U64 ? "UL" : "u";
  /* OpenCL reads INIT/OPERAND as typed literals, CUDA the raw bits; each ignores the other's.
   * Only the local array's size is compiled in: global-memory variants must
   * not depend on contention or padding, or every row would rebuild. */
  int n = snprintf(buf, len,
                   "TYPE_%s OP_%s SCOPE_%s ORDER_%s SPACE_LOCAL=%d LOCAL_WORDS=%llu RANDOM=%d BRANCHED=%d "
                   "RESULT_USED=%d INIT_BITS=0x%llxull OPERAND_BITS=0x%llxull",
                   atl_type_name(s->type), atl_op_name(s->op), atl_scope_name(s->scope), atl_order_name(s->order),
                   s->space == ATL_SPACE_LOCAL, (unsigned long long)(s->space == ATL_SPACE_LOCAL ? words : 1),
                   s->pattern == ATL_PATTERN_RANDOM,
                   s->pattern == ATL_PATTERN_BRANCHED, s->result == ATL_RESULT_USED, (unsigned long long)v.init,
                   (unsigned long long)v.operand);
  if (n < 0 || (size_t)n >= len)
    return;
  if (s->type == ATL_TYPE_F32)
    snprintf(buf + n, len - (size_t)n, " INIT=0.0f OPERAND=1.0f");
  else if (!atl_type_is_float(s->type))
    snprintf(buf + n, len - (size_t)n, " INIT=((T)0x%llx%s) OPERAND=((T)0x%llx%s)", (unsigned long long)v.init,
             suffix, (unsigned long long)v.operand, suffix);
}

/* Device buffers of one configuration (slots of the context's reused buffers). */
struct rmw_buffers {
  void *array, *target, *iters, *branch, *sink, *attempts;
};
enum { SLOT_ARRAY, SLOT_TARGET, SLOT_ITERS, SLOT_BRANCH, SLOT_SINK, SLOT_ATTEMPTS };

/* One timed launch from a freshly initialised array. */
static int timed_launch(atl_context_t ctx, void *kernel, const struct atl_spec *s, struct rmw_buffers *b,
                        uint32_t iters, double *ms)
{
  const struct atl_backend_ops *ops = atl__ops(ctx);
  void *dev = atl__dev(ctx);
  struct atl__op_values v;
  atl__op_values(s->op, s->type, &v);
  const size_t esize = atl_type_size(s->type);
  const uint64_t bytes = atl_spec_domain_words(s) * atl_spec_domains(s) * esize;
  int err;
  if (s->space == ATL_SPACE_GLOBAL) {
    uint32_t pat32 = (uint32_t)v.init;
    uint64_t pat64 = v.init;
    if ((err = ops->fill(dev, b->array, esize == 8 ? (const void *)&pat64 : (const void *)&pat32, esize, bytes)))
      return err;
  }
  if ((err = ops->write(dev, b->iters, &iters, sizeof iters)))
    return err;
  struct atl_arg args[] = {
      {ATL_ARG_BUFFER, b->array, 0},  {ATL_ARG_BUFFER, b->target, 0},   {ATL_ARG_BUFFER, b->iters, iters},
      {ATL_ARG_BUFFER, b->branch, 0}, {ATL_ARG_BUFFER, b->sink, 0},     {ATL_ARG_BUFFER, b->attempts, 0},
      {ATL_ARG_U32, NULL, (uint32_t)atl_spec_slots(s)}, {ATL_ARG_U32, NULL, s->padding},
  };
  struct atl_launch launch = {(size_t)s->wg_size * s->workgroups, s->wg_size, args, sizeof args / sizeof args[0]};
  return ops->launch(dev, kernel, &launch, ms);
}

/* The rmw launch as the shared timing code calls it: at placement @c last (the array's view there). */
struct rmw_launch {
  atl_context_t ctx;
  void *kernel;
  const struct atl_spec *spec;
  struct rmw_buffers *b;
  void *views[ATL_MAX_PLACEMENTS]; /* placement k's array, k * step into the array's buffer */
  unsigned last;                   /* the placement of the last launch, whose array the row verifies */
  /* --rotate: rotation r (placement r mod P in turn pair r / P) runs group g's work on group g - shift(r) mod
   * groups, through rotated copies of the per-thread tables (targets, branch) written before its launch; rot_groups
   * 0 is no rotation. */
  unsigned rot_groups, loaded;              /* loaded: the rotation the device's tables hold */
  unsigned placements, launches;            /* launches: of this sampling, to tell its pair of turns */
  const uint32_t *targets, *branch;         /* the host tables of rotation 0 (no rotation) */
  uint32_t *rot_targets, *rot_branch;       /* the loaded rotation's host tables (when loaded is not 0) */
};

/* Rotation @p r's shift in work-groups: placement r mod P's k x rot_groups, moved on by a quarter of rot_groups
 * (at least one) for each pair of turns, so that every pair of turns pairs the lines with other SMs. */
static uint64_t rotation_shift(const struct rmw_launch *l, unsigned r)
{
  const uint64_t quarter = (l->rot_groups + 3) / 4;
  return ((uint64_t)(r % l->placements) * l->rot_groups + (uint64_t)(r / l->placements) * quarter) %
         l->spec->workgroups;
}

/* Thread t's entry of @p src rotated for rotation @p k: src[(t + shift) mod threads], shift whole work-groups. */
static void rotate_table(const struct rmw_launch *l, unsigned k, const uint32_t *src, uint32_t *dst)
{
  const uint64_t threads = (uint64_t)l->spec->wg_size * l->spec->workgroups;
  const uint64_t shift = rotation_shift(l, k) * l->spec->wg_size;
  memcpy(dst, src + shift, (threads - shift) * sizeof *dst);
  memcpy(dst + (threads - shift), src, shift * sizeof *dst);
}

/* The targets of the last launch (the verifier's: each thread's word under the rotation that ran). */
static const uint32_t *launched_targets(const struct rmw_launch *l)
{
  return l->loaded ? l->rot_targets : l->targets;
}

/* Writes placement @p k's rotation of the per-thread tables to the device, unless they hold it already. */
static int load_rotation(struct rmw_launch *l, unsigned k)
{
  if (l->rot_groups == 0 || k == l->loaded)
    return 0;
  const struct atl_backend_ops *ops = atl__ops(l->ctx);
  const size_t bytes = (size_t)l->spec->wg_size * l->spec->workgroups * sizeof(uint32_t);
  const uint32_t *t = l->targets, *b = l->branch;
  if (k != 0) {
    rotate_table(l, k, l->targets, l->rot_targets);
    rotate_table(l, k, l->branch, l->rot_branch);
    t = l->rot_targets, b = l->rot_branch;
  }
  int err = ops->write(atl__dev(l->ctx), l->b->target, t, bytes);
  if (!err)
    err = ops->write(atl__dev(l->ctx), l->b->branch, b, bytes);
  if (!err)
    l->loaded = k;
  return err;
}

static int rmw_timed_launch(void *arg, uint32_t iters, double *ms)
{
  struct rmw_launch *l = arg;
  struct rmw_buffers at = *l->b;
  at.array = l->views[l->last];
  return timed_launch(l->ctx, l->kernel, l->spec, &at, iters, ms);
}

static int rmw_placed_launch(void *arg, unsigned placement, uint32_t iters, double *ms)
{
  struct rmw_launch *l = arg;
  const unsigned turn = l->launches++ / (l->placements ? l->placements : 1);
  int err = load_rotation(l, placement + l->placements * (turn / 2));
  if (err)
    return err;
  l->last = placement;
  return rmw_timed_launch(arg, iters, ms);
}

/* Placements (docs/design/method.md): how many a row of @p s gets (1 where the backend cannot view a buffer from an
 * offset, the array is work-group local, or the spread array would pass the device's max allocation), and the
 * step between them: the span over the count, in whole 2 MiB (the pattern's unit on an H100). */
static unsigned placements_of(atl_context_t ctx, const struct atl_spec *s, const struct atl_timing *tm,
                              size_t array_bytes, size_t *step)
{
  const struct atl_backend_ops *ops = atl__ops(ctx);
  const size_t unit = (size_t)2 << 20;
  unsigned p = tm->placements > ATL_MAX_PLACEMENTS ? ATL_MAX_PLACEMENTS : tm->placements;
  *step = p > 1 ? ATL_PLACEMENT_SPAN / p / unit * unit : 0;
  if (p <= 1 || s->space != ATL_SPACE_GLOBAL || ops->view == NULL || ops->view_free == NULL ||
      array_bytes + (p - 1) * *step > atl_device_current(ctx)->max_alloc) {
    *step = 0;
    return 1;
  }
  return p;
}

/* Samples the row: at the one placement as before, or in turn at each (atl__sample_placed). */
static int sample_row(struct rmw_launch *rl, unsigned placements, const struct atl_timing *tm, uint32_t iters,
                      double first_sample, struct atl_row *row)
{
  rl->placements = placements;
  rl->launches = 0; /* a sampling's first launch begins its first pair of turns */
  if (placements > 1)
    return atl__sample_placed(rmw_placed_launch, placements, rl, tm, iters, row);
  return atl__sample(rmw_timed_launch, rl, tm, iters, first_sample, row);
}

static int row_fail(atl_context_t ctx, struct atl_row *row, enum atl_status status, const char *why)
{
  row->status = status;
  snprintf(row->reason, sizeof row->reason, "%s", why && *why ? why : atl_errmsg(ctx));
  return 0;
}

/* Lowers *@p cap to the iterations per thread a row may run within its driver's loop limit
 * (atl_device_info.max_loop_passes), which counts the passes of a SIMD batch of threads: the update loop passes
 * once per iteration; a CAS loop once more without contention, and with it again for every retry of any thread of
 * the batch (measured on llvmpipe: up to c + 1 passes where c threads of one batch share a word, a stale guess and
 * one success per pass; 2 (c + 1) leaves room for the other batches' successes, twice that the random pattern,
 * whose words crowd beyond c as its walks fall into their cycles); local space adds its
 * initialisation and copy-out loops. 1, with the reason in @p why, where not even @p fixed iterations (or one)
 * fit. */
static int loop_capped(const struct atl_device_info *d, const struct atl_spec *s, uint32_t fixed, uint32_t *cap,
                       char *why, size_t len)
{
  if (d->max_loop_passes == 0)
    return 0;
  const uint64_t local = s->space == ATL_SPACE_LOCAL ? 2 * ((atl_spec_domain_words(s) + s->wg_size - 1) / s->wg_size)
                                                     : 0;
  const uint64_t c = s->contention, per = s->op != ATL_OP_CAS                 ? 1
                                       : s->pattern == ATL_PATTERN_RANDOM ? 4 * (c + 1)
                                       : c == 1                           ? 2
                                                                          : 2 * (c + 1);
  const uint64_t fit = d->max_loop_passes > local ? (d->max_loop_passes - local) / per : 0;
  if (fit < (fixed ? fixed : 1)) {
    snprintf(why, len, "%s ends a kernel's loops after %u passes, silently: at most %llu iterations of this row fit "
             "(docs/design/reliability.md)", d->name, d->max_loop_passes, (unsigned long long)fit);
    return 1;
  }
  if (*cap > fit)
    *cap = (uint32_t)fit;
  return 0;
}

/* A caller's mistake rather than a configuration's row (NULL, a field outside what it allows, timing settings
 * refused): ATL_EINVAL naming it, the row (where there is one) started with status error and the reason; else 0. */
static int run_args_checked(atl_context_t ctx, const struct atl_spec *s, const struct atl_timing *tm,
                            struct atl_row *row)
{
  char why[256];
  if (row == NULL)
    return atl__seterr(ctx, ATL_EINVAL, "rmw: row is NULL: a row to fill is needed");
  if (!spec_fields_checked(s, why, sizeof why) && !atl_timing_check(tm, why, sizeof why))
    return 0;
  if (s)
    atl_rmw_row_init(row, s);
  else
    atl_row_init(row, "rmw");
  row_fail(ctx, row, ATL_STATUS_ERROR, why);
  return atl__seterr(ctx, ATL_EINVAL, "rmw: %s", why);
}

/* The row's metrics beyond its rate: CAS attempts per update, the placements' spread, the rotation's groups. */
static void placement_metrics(struct atl_row *row, const uint32_t *attempts, uint64_t threads, uint64_t nops,
                              unsigned placements, size_t step, uint64_t rot_groups)
{
  if (attempts) {
    uint64_t total = 0;
    for (uint64_t t = 0; t < threads; t++)
      total += attempts[t];
    atl_row_metric_set(row, "cas_attempts_per_op", nops ? (double)total / (double)nops : 0);
  }
  if (placements > 1) {
    atl_row_metric_set(row, "placements", placements);
    atl_row_metric_set(row, "placement_step_mib", (double)step / (1 << 20));
    atl_row_metric_set(row, "placement_spread",
                       atl__placement_spread(row->samples_ms, row->time_ms.samples, placements));
  }
  if (rot_groups)
    atl_row_metric_set(row, "rotation_groups", (double)rot_groups);
}

static int rmw_run(atl_context_t ctx, const struct atl_spec *s, const struct atl_timing *tm, struct atl_row *row)
{
  const struct atl_backend_ops *ops = atl__ops(ctx);
  void *dev = atl__dev(ctx);
  struct rmw_buffers b = {0};
  struct rmw_launch rl = {ctx, NULL, s, &b, {NULL}, 0, 0, 0, 0, 0, NULL, NULL, NULL, NULL};
  unsigned placements = 1, nviews = 0;
  size_t step = 0;
  uint32_t *targets = NULL, *branch = NULL;
  void *words = NULL, *sink = NULL;
  uint32_t *attempts = NULL;
  void *kernel = NULL;
  char why[256], defines[512];
  int err = 0;

  const double row_start = atl__now_s();
  atl_rmw_row_init(row, s); /* status error until the row is measured and checked */
  const uint64_t array_words = atl_spec_domain_words(s);
  uint32_t iters = 0;
  int chk = atl_rmw_check(ctx, s, why, sizeof why);
  if (chk)
    return row_fail(ctx, row, chk == ATL_ENOTSUP ? ATL_STATUS_UNSUPPORTED : ATL_STATUS_ERROR, why);

  const uint64_t threads = (uint64_t)s->wg_size * s->workgroups, dt = atl_spec_domain_threads(s);
  const uint64_t domains = atl_spec_domains(s), words_total = array_words * domains;
  const size_t esize = atl_type_size(s->type);
  targets = malloc(threads * sizeof *targets);
  branch = malloc(threads * sizeof *branch);
  words = atl__scratch(&ctx->scratch_words, words_total * esize);
  sink = s->result == ATL_RESULT_USED ? malloc(threads * esize) : NULL;
  attempts = s->op == ATL_OP_CAS ? malloc(threads * sizeof *attempts) : NULL;
  if (!targets || !branch || !words || (s->result == ATL_RESULT_USED && !sink) || (s->op == ATL_OP_CAS && !attempts)) {
    err = atl__seterr(ctx, ATL_ENOMEM, "out of host memory for %llu words", (unsigned long long)words_total);
    row_fail(ctx, row, ATL_STATUS_ERROR, NULL);
    goto out;
  }
  for (uint64_t d = 0; d < domains; d++)
    atl__pattern_targets(s, d * dt, targets + d * dt);
  for (uint64_t t = 0; t < threads; t++)
    branch[t] = atl__pattern_active(s, t);

  placements = placements_of(ctx, s, tm, words_total * esize, &step);
  if ((err = atl__device_buffer(ctx, SLOT_ARRAY, words_total * esize + (placements - 1) * step, &b.array)) ||
      (err = atl__device_buffer(ctx, SLOT_TARGET, threads * sizeof *targets, &b.target)) ||
      (err = atl__device_buffer(ctx, SLOT_ITERS, sizeof(uint32_t), &b.iters)) ||
      (err = atl__device_buffer(ctx, SLOT_BRANCH, threads * sizeof *branch, &b.branch)) ||
      (err = atl__device_buffer(ctx, SLOT_SINK, sink ? threads * esize : esize, &b.sink)) ||
      (err = atl__device_buffer(ctx, SLOT_ATTEMPTS, attempts ? threads * sizeof *attempts : 4, &b.attempts)) ||
      (err = ops->write(dev, b.target, targets, threads * sizeof *targets)) ||
      (err = ops->write(dev, b.branch, branch, threads * sizeof *branch))) {
    row_fail(ctx, row, ATL_STATUS_ERROR, NULL);
    goto out;
  }
  rl.views[0] = b.array;
  rl.targets = targets, rl.branch = branch;
  /* --rotate (docs/design/method.md, "Rotation"): whole work-groups of an even size, so a thread keeps its parity (the
   * branched pattern's active half) and threads that share a word stay in the groups that shared it. */
  if (tm->rotate && placements > 1 && s->workgroups > 1 && s->wg_size % 2 == 0) {
    rl.rot_groups = (s->workgroups + placements - 1) / placements;
    rl.rot_targets = malloc(threads * sizeof *rl.rot_targets);
    rl.rot_branch = malloc(threads * sizeof *rl.rot_branch);
    if (!rl.rot_targets || !rl.rot_branch) {
      err = atl__seterr(ctx, ATL_ENOMEM, "out of host memory for the rotated tables of %llu threads",
                        (unsigned long long)threads);
      row_fail(ctx, row, ATL_STATUS_ERROR, NULL);
      goto out;
    }
  }
  for (nviews = 1; nviews < placements; nviews++)
    if ((err = ops->view(dev, b.array, nviews * step, words_total * esize, &rl.views[nviews]))) {
      row_fail(ctx, row, ATL_STATUS_ERROR, NULL);
      goto out;
    }
  atl__rmw_defines(s, defines, sizeof defines);
  struct atl_build req = {"rmw", "rmw", defines};
  if ((err = ops->build(dev, &req, &kernel))) {
    /* A backend that cannot build this variant on the device (ATL_ENOTSUP) says why: unsupported, not failed. */
    row_fail(ctx, row, err == ATL_ENOTSUP ? ATL_STATUS_UNSUPPORTED : ATL_STATUS_ERROR, NULL);
    goto out;
  }
  if (ops->describe_kernel)
    ops->describe_kernel(dev, kernel, row->instructions, sizeof row->instructions);

  uint32_t cap = tm->max_iters ? tm->max_iters : 1u << 24;
  if (loop_capped(atl_device_current(ctx), s, tm->fixed_iters, &cap, why, sizeof why)) {
    row_fail(ctx, row, ATL_STATUS_UNSUPPORTED, why);
    goto out;
  }
  double first_sample = 0;
  rl.kernel = kernel;
  if ((err = atl__calibrate(rmw_timed_launch, &rl, tm, cap, &iters, &first_sample))) {
    row_fail(ctx, row, ATL_STATUS_ERROR, NULL);
    goto out;
  }
  const double sampling_start = atl__now_s();
  if ((err = sample_row(&rl, placements, tm, iters, first_sample, row))) {
    row_fail(ctx, row, ATL_STATUS_ERROR, err == ATL_ENOMEM ? "out of host memory" : NULL);
    goto out;
  }
  /* Noise not met on the sample cap with budget left: a longer launch averages more of what varies between
   * launches (a CAS loop's retries, the warps' order, a CPU's other work), so the row is sampled again at
   * twice the iterations, at most twice, while the whole stays within twice its budget (docs/design/method.md). */
  for (int longer = 0; longer < 2 && row->time_ms.noisy && !tm->fixed_iters && iters <= cap / 2 &&
                       atl__now_s() - sampling_start < tm->budget_s;
       longer++) {
    free(row->samples_ms);
    row->samples_ms = NULL;
    iters *= 2;
    if ((err = sample_row(&rl, placements, tm, iters, 0, row))) {
      row_fail(ctx, row, ATL_STATUS_ERROR, err == ATL_ENOMEM ? "out of host memory" : NULL);
      goto out;
    }
    atl_row_metric_set(row, "lengthened", longer + 1);
  }

  /* The last timed launch left its final state in memory (at its placement): check it exactly. */
  if ((err = ops->read(dev, rl.views[rl.last], words, words_total * esize)) ||
      (sink && (err = ops->read(dev, b.sink, sink, threads * esize))) ||
      (attempts && (err = ops->read(dev, b.attempts, attempts, threads * sizeof *attempts)))) {
    row_fail(ctx, row, ATL_STATUS_ERROR, NULL);
    goto out;
  }
  struct atl__hit *hits = atl__scratch(&ctx->scratch_hits, dt * sizeof *hits);
  struct atl__verify_input vin = {s, iters, launched_targets(&rl), words, sink, hits};
  struct atl__verify_output vout;
  if ((err = atl__verify(&vin, &vout))) {
    row_fail(ctx, row, ATL_STATUS_ERROR, "out of host memory while verifying");
    goto out;
  }
  row->wrong = vout.wrong_words + (vout.sink_ok ? 0 : 1);
  row->verified = row->wrong == 0;
  const uint64_t nops = atl_spec_active_threads(s) * iters;
  atl__row_rate_metrics(row, iters, nops, array_words);
  placement_metrics(row, attempts, threads, nops, placements, step, rl.rot_groups);
  atl__row_measured(row, vout.first_error);
  err = 0;
out:
  for (unsigned k = 1; k < nviews; k++)
    ops->view_free(dev, rl.views[k]);
  row->row_seconds = atl__now_s() - row_start;
  free(targets);
  free(branch);
  free(sink);
  free(attempts);
  free(rl.rot_targets);
  free(rl.rot_branch);
  return err == ATL_ENOMEM ? err : 0;
}

/* The caller's arguments checked first (run_args_checked): a mistake is ATL_EINVAL, never a row. */
int atl_rmw_run(atl_context_t ctx, const struct atl_spec *s, const struct atl_timing *tm, struct atl_row *row)
{
  if (ctx == NULL)
    return ATL_EINVAL;
  const int invalid = run_args_checked(ctx, s, tm, row);
  return invalid ? invalid : rmw_run(ctx, s, tm, row);
}
