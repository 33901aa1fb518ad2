/*
 * Seed 000: the software atomic add (device/atomlab/atomics.{clh,cuh})
 * against the system atomic and warp aggregation on a co-resident grid.
 * Micro-benchmark 1 (atomic only) always; with `experiment` also the memory
 * transaction alone ("mem") and with each atomic ("VARIANT+mem": Figure 3's
 * copy kernel, micro-benchmark 2), the ideal sum, the speedup model of
 * Section V and the instruction counts of every kernel.
 *
 * Each row is timed, then one launch records every old value and every
 * copied word must equal its source. The op (--op) decides the check of the
 * old values: add, inc and sub (operand 1) per word exactly x_0 .. x_{n-1}
 * of the op in some order and the words end at x_n; min, max, and, or and
 * xor (operands from sw_operand, as the kernels compute them) must be the
 * old values of some serial order of the word's updates
 * (atl__sw_check_serial, serial_order.c), and the words end at the
 * op-reduction of every operand.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"
#include "backend/cuda/sass_count.h"

/* Its registry entry, at the end of this file: the run checks its params with the entry's check. */
extern const struct atl_app_info atl__app_swatomic;
#include "core/strategy_internal.h"
#include "atomlab/swmodel.h"

static const char *const variant_names[] = {"system", "warp", "software"};
enum { V_NONE = 3 }; /* the memory-only kernel: no atomic */

/* One kernel per (variant, memory): built on first use, its instruction counts read once. */
struct sw_kernel {
  void *kernel;
  int built, have_isa;
  struct atl_isa_counts isa;
  char instructions[256];
};

struct sw_run {
  uint32_t init; /* the target words' value at launch */
  void *mem, *olds, *req, *finished, *abort_flag, *src, *dst;
  size_t mem_bytes, req_bytes, fin_bytes, copy_bytes;
  uint32_t aborted;
  struct sw_kernel k[4][2];
};

/* Returned by reset when the previous launch gave up a wait: the row is a
 * deadlock, and more launches would each spin to --spin-bound again. */
enum { SW_ABORTED = 1 };

static int reset(atl_context_t ctx, void *arg)
{
  struct sw_run *r = arg;
  uint32_t flag = 0;
  int err = atl__ops(ctx)->read(atl__dev(ctx), r->abort_flag, &flag, sizeof flag);
  r->aborted |= flag;
  if (!err && r->aborted)
    return SW_ABORTED;
  if (!err)
    err = atl__app_fill32(ctx, r->mem, r->init, r->mem_bytes);
  if (!err)
    err = atl__app_fill32(ctx, r->req, 0, r->req_bytes);
  if (!err)
    err = atl__app_fill32(ctx, r->finished, 0, r->fin_bytes);
  if (!err)
    err = atl__app_fill32(ctx, r->abort_flag, 0, 4);
  return err;
}

/* The source words of the copy: distinct, so a word copied to the wrong place shows. */
static uint32_t src_word(uint64_t k)
{
  return (uint32_t)(k * 2654435761u) ^ 0x5a5a5a5au;
}

/* The target words' value at launch: the identity of min and and, else 0. */
static uint32_t swop_init(int op)
{
  return op == ATL_SWOP_MIN || op == ATL_SWOP_AND ? 0xffffffffu : 0u;
}

/* The operand of update k (it * worker_items + gid): sw_operand of the kernels. */
static uint32_t sw_operand(int op, uint32_t k)
{
  uint32_t h = k * 2654435761u + 0x9e3779b9u;
  h ^= h >> 15;
  h *= 0x2c1b3c6du;
  h ^= h >> 12;
  switch (op) {
  case ATL_SWOP_MIN:
  case ATL_SWOP_MAX: return h;
  case ATL_SWOP_AND: return ~(1u << (h & 31u));
  case ATL_SWOP_OR: return 1u << (h & 31u);
  case ATL_SWOP_XOR: return h | 1u;
  default: return 1u;
  }
}

/* Checks the recorded old values and the final words; 0 if exact, else a reason in @p why. */
static int verify(const struct atl_swatomic_params *p, uint32_t groups, const uint32_t *olds, const uint32_t *mem,
                  char *why, size_t why_len)
{
  const uint64_t items = (uint64_t)(groups - 1) * p->wg_size, n = items * p->iters;
  const int serial = p->op >= ATL_SWOP_MIN;
  /* the test hook: a reference that starts one off must fail every row */
  const uint32_t init = swop_init(p->op) ^ (p->skew_reference ? 1u : 0u);
  struct atl__old_record *rec = malloc((n ? n : 1) * sizeof *rec);
  struct atl__sw_update *upd = serial ? malloc((n ? n : 1) * sizeof *upd) : NULL;
  uint64_t *counts = calloc(p->targets, sizeof *counts);
  int bad = 0;
  size_t k = 0;
  if (rec == NULL || counts == NULL || (serial && upd == NULL)) {
    snprintf(why, why_len, "out of host memory");
    bad = 1;
    goto out;
  }
  for (uint64_t i = 0; i < n; i++) {
    const uint64_t gid = i % items;
    const int part = !p->divergent || gid % 3 != 1;
    if (!part) {
      if (olds[i] != 0xffffffffu && !bad++)
        snprintf(why, why_len, "work-item %llu sat out but recorded %u", (unsigned long long)gid, olds[i]);
      continue;
    }
    if (serial)
      upd[k] = (struct atl__sw_update){(uint32_t)(gid % p->targets), olds[i], sw_operand(p->op, (uint32_t)i)};
    rec[k].word = (uint32_t)(gid % p->targets);
    rec[k++].value = olds[i];
    counts[gid % p->targets]++;
  }
  if (bad)
    goto out;
  if (serial) {
    bad = atl__sw_check_serial(p->op, init, upd, k, mem, p->targets, why, why_len);
    goto out;
  }
  /* add and inc: add 1; sub: sub 1 */
  struct atl__strategy_op o = {p->op == ATL_SWOP_SUB ? ATL__OPC_SUB : ATL__OPC_ADD, init, 1};
  if (atl__strategy_check_olds(&o, rec, k, counts, p->targets, why, why_len)) {
    bad = 1;
    goto out;
  }
  for (uint32_t w = 0; w < p->targets; w++)
    if (mem[w] != atl__strategy_after(&o, counts[w])) {
      snprintf(why, why_len, "word %u ended at %u, expected %u after %llu updates", w, mem[w],
               atl__strategy_after(&o, counts[w]), (unsigned long long)counts[w]);
      bad = 1;
      break;
    }
out:
  free(upd);
  free(rec);
  free(counts);
  return bad;
}

/* Builds the kernel of (variant, memory) once and reads its machine code where the backend can. */
static int kernel_for(atl_context_t ctx, const struct atl_swatomic_params *p, struct sw_run *r, unsigned v,
                      unsigned memop, struct atl_row *row, struct sw_kernel **out)
{
  struct sw_kernel *k = &r->k[v][memop];
  *out = k;
  if (k->built)
    return 0;
  char defines[160];
  snprintf(defines, sizeof defines, "ATL_WAVEFRONT=32 ATL_MAX_GROUPS=8 ATL_SW_VARIANT=%u ATL_SW_MEM=%u ATL_SW_OP=%d",
           v, memop, p->op);
  int err = atl__app_build(ctx, "app_swatomic", "swatomic", defines, &k->kernel, row);
  if (err)
    return err;
  k->built = 1;
  snprintf(k->instructions, sizeof k->instructions, "%s", row->instructions);
  const struct atl_backend_ops *ops = atl__ops(ctx);
  char why[300] = "the backend reads no machine code";
  char *text = ops->kernel_isa ? ops->kernel_isa(atl__dev(ctx), k->kernel, why, sizeof why) : NULL;
  if (text) {
    k->have_isa = atl__sass_count(text, &k->isa) > 0;
    free(text);
  }
  if (!k->have_isa && !row->instructions[0])
    snprintf(k->instructions, sizeof k->instructions, "isa %.*s", (int)(sizeof k->instructions - 5), why);
  return 0;
}

static void isa_metrics(struct atl_row *row, const struct sw_kernel *k)
{
  if (!k->have_isa)
    return;
  atl_row_metric_set(row, "isa_total", k->isa.total);
  atl_row_metric_set(row, "isa_global_mem", k->isa.global_mem);
  atl_row_metric_set(row, "isa_shared_mem", k->isa.shared_mem + k->isa.local_mem);
  atl_row_metric_set(row, "isa_atomic_global", k->isa.atomic_global);
  atl_row_metric_set(row, "isa_atomic_shared", k->isa.atomic_shared);
  atl_row_metric_set(row, "isa_alu", k->isa.alu);
  atl_row_metric_set(row, "isa_alu_mem_ratio", atl__isa_alu_mem_ratio(&k->isa));
}

static int run_row(atl_context_t ctx, const struct atl_swatomic_params *p, const struct atl_app_timing *tm,
                   struct sw_run *r, unsigned variant, unsigned memop, uint32_t groups, struct atl_result_set *out)
{
  struct atl_row row;
  uint32_t *olds = NULL, *mem = NULL, *dst = NULL, aborted = 0;
  const uint64_t items = (uint64_t)(groups - 1) * p->wg_size;
  const size_t olds_bytes = (size_t)(items * p->iters * 4);
  struct sw_kernel *k = NULL;
  char name[48];
  int err = 0;
  if (variant == V_NONE)
    snprintf(name, sizeof name, "mem");
  else
    snprintf(name, sizeof name, "%s%s", variant_names[variant], memop ? "+mem" : "");
  atl__app_row_init(&row, "swatomic", name);
  atl_row_metric_set(&row, "workgroups", groups);
  atl_row_metric_set(&row, "targets", p->targets);
  atl_row_metric_set(&row, "divergent", p->divergent);
  if (p->op != ATL_SWOP_ADD) /* absent for add: rows of earlier runs stay comparable */
    atl_row_metric_set(&row, "op", p->op);
  if (groups < 2 || groups > p->coresident) {
    atl__app_row_status(&row, ATL_STATUS_ERROR,
                        "%u work-groups refused: the software atomic needs a co-resident grid of 2 to %u "
                        "(occupancy discovery at %u work-items; one is the coordinator)",
                        groups, p->coresident, p->wg_size);
    return atl_result_set_add(out, &row) ? ATL_ENOMEM : 0;
  }
  if ((err = kernel_for(ctx, p, r, variant, memop, &row, &k))) {
    atl__app_row_status(&row, ATL_STATUS_ERROR, "kernel build failed: %s", atl_errmsg(ctx));
    return atl_result_set_add(out, &row) ? ATL_ENOMEM : (err == ATL_ENOMEM ? err : 0);
  }
  snprintf(row.instructions, sizeof row.instructions, "%s", k->instructions);
  isa_metrics(&row, k);
  /* Discovery ran its own small kernel; the software kernel may need more
   * registers or shared memory, and a grid it cannot keep resident would only
   * end as a deadlock after --spin-bound polls. CUDA's occupancy API knows
   * this kernel (OpenCL's estimate is a bound from limits, too coarse to refuse on). */
  const struct atl_backend_ops *be = atl__ops(ctx);
  unsigned fit = 0;
  char method[200] = "";
  if (variant == 2 && be->occupancy_estimate && atl_device_current(ctx)->has_kernel_occupancy &&
      be->occupancy_estimate(atl__dev(ctx), k->kernel, p->wg_size, &fit, method, sizeof method) == 0 &&
      fit < groups) {
    atl__app_row_status(&row, ATL_STATUS_ERROR, "%u work-groups refused: this kernel fits %u co-resident (%s)", groups,
                        fit, method);
    return atl_result_set_add(out, &row) ? ATL_ENOMEM : 0;
  }
  struct atl_arg args[] = {{ATL_ARG_BUFFER, r->mem, 0},      {ATL_ARG_U32, NULL, p->targets},
                           {ATL_ARG_U32, NULL, p->iters},     {ATL_ARG_U32, NULL, p->divergent},
                           {ATL_ARG_U32, NULL, 0},            {ATL_ARG_BUFFER, r->olds, 0},
                           {ATL_ARG_BUFFER, r->req, 0},       {ATL_ARG_BUFFER, r->finished, 0},
                           {ATL_ARG_BUFFER, r->abort_flag, 0}, {ATL_ARG_U32, NULL, tm->spin_bound},
                           {ATL_ARG_BUFFER, r->src, 0},       {ATL_ARG_BUFFER, r->dst, 0}};
  struct atl_launch launch = {(size_t)groups * p->wg_size, p->wg_size, args, 12};
  r->aborted = 0;
  if ((olds = malloc(olds_bytes ? olds_bytes : 4)) == NULL || (mem = malloc(r->mem_bytes)) == NULL ||
      (memop && (dst = malloc(olds_bytes ? olds_bytes : 4)) == NULL)) {
    err = atl__seterr(ctx, ATL_ENOMEM, "out of host memory");
    goto out;
  }
  if ((err = atl__app_fill32(ctx, r->abort_flag, 0, 4)))
    goto fail;
  err = atl__app_time(ctx, k->kernel, &launch, reset, r, tm, &row);
  if (err == SW_ABORTED) {
    err = 0;
    atl__app_row_status(&row, ATL_STATUS_DEADLOCK, "a wait passed spin_bound %u polls and was abandoned",
                        tm->spin_bound);
    goto out;
  }
  if (err)
    goto fail;
  if ((err = atl__ops(ctx)->read(atl__dev(ctx), r->abort_flag, &aborted, 4)))
    goto fail;
  /* the verification launch records every old value into a cleared copy target */
  args[4].value = 1;
  double ms = 0;
  if ((err = reset(ctx, r)) == SW_ABORTED) {
    err = 0;
    atl__app_row_status(&row, ATL_STATUS_DEADLOCK, "a wait passed spin_bound %u polls and was abandoned",
                        tm->spin_bound);
    goto out;
  }
  if (err || (memop && (err = atl__app_fill32(ctx, r->dst, 0, olds_bytes ? olds_bytes : 4))) ||
      (err = atl__ops(ctx)->launch(atl__dev(ctx), k->kernel, &launch, &ms)))
    goto fail;
  if ((err = atl__ops(ctx)->read(atl__dev(ctx), r->abort_flag, &aborted, 4)) ||
      (err = atl__ops(ctx)->read(atl__dev(ctx), r->olds, olds, olds_bytes)) ||
      (err = atl__ops(ctx)->read(atl__dev(ctx), r->mem, mem, r->mem_bytes)) ||
      (memop && (err = atl__ops(ctx)->read(atl__dev(ctx), r->dst, dst, olds_bytes))))
    goto fail;
  if (aborted || r->aborted) {
    atl__app_row_status(&row, ATL_STATUS_DEADLOCK, "a wait passed spin_bound %u polls and was abandoned",
                        tm->spin_bound);
    goto out;
  }
  char why[256] = "";
  row.status = ATL_STATUS_OK;
  int bad = variant == V_NONE ? 0 : verify(p, groups, olds, mem, why, sizeof why);
  for (uint32_t w = 0; variant == V_NONE && w < p->targets && !bad; w++)
    if (mem[w] != r->init) {
      snprintf(why, sizeof why, "word %u changed to %u without an atomic", w, mem[w]);
      bad = 1;
    }
  for (uint64_t i = 0; memop && !bad && i < items * p->iters; i++)
    if (dst[i] != src_word(i)) {
      snprintf(why, sizeof why, "copied word %llu is %#x, expected %#x", (unsigned long long)i, dst[i],
               src_word(i));
      bad = 1;
    }
  row.verified = !bad;
  if (!row.verified)
    atl__app_row_status(&row, ATL_STATUS_OK, "verification failed: %s", why);
  const double ops = variant == V_NONE ? 0 : (double)items * p->iters * (p->divergent ? 2.0 / 3.0 : 1.0);
  atl_row_metric_set(&row, "atomics", ops);
  if (row.time_ms.median > 0 && ops > 0)
    atl_row_metric_set(&row, "matomics_per_s", ops / (row.time_ms.median * 1e3));
  if (memop && row.time_ms.median > 0)
    atl_row_metric_set(&row, "copy_gbps", (double)items * p->iters * 8 / (row.time_ms.median * 1e6));
  goto out;
fail:
  atl__app_row_status(&row, ATL_STATUS_ERROR, "%s", atl_errmsg(ctx));
out:
  free(olds);
  free(mem);
  free(dst);
  if (atl_result_set_add(out, &row))
    return ATL_ENOMEM;
  return err == ATL_ENOMEM ? err : 0;
}

/* ---- the speedup model's constants -------------------------------------- */

struct cal_run {
  void *word, *sink;
  uint32_t mode, groups;
};

static int cal_reset(atl_context_t ctx, void *arg)
{
  struct cal_run *c = arg;
  int err = atl__app_fill32(ctx, c->word, 0, 4);
  return err ? err : atl__app_fill32(ctx, c->sink, 0, (size_t)c->groups * 4);
}

/*
 * t_comp's atomics return 0..total-1 in some order, so the work-groups' sums of
 * the old values (mod 2^32) add up to total (total - 1) / 2: a check that the
 * results were really returned, not only that the word ended right. Returns
 * 1 with the reason in @p why when they do not; <0 on a failed read.
 */
static int cal_check_olds(atl_context_t ctx, const struct cal_run *c, uint64_t total, char *why, size_t why_len)
{
  uint32_t *sums = malloc((size_t)c->groups * 4), sum = 0;
  if (sums == NULL)
    return atl__seterr(ctx, ATL_ENOMEM, "out of host memory");
  int err = atl__ops(ctx)->read(atl__dev(ctx), c->sink, sums, (size_t)c->groups * 4);
  for (uint32_t g = 0; !err && g < c->groups; g++)
    sum += sums[g];
  free(sums);
  if (err)
    return err;
  const uint32_t want = (uint32_t)(total * (total - 1) / 2);
  if (sum != want) {
    snprintf(why, why_len, "calibration mode 2: the returned old values sum to %u, expected %u", sum, want);
    return 1;
  }
  return 0;
}

/*
 * Median time of swcal in @p mode at @p iters and at 2 * @p iters; the
 * difference is the time of @p iters steps with the launch overhead gone.
 * Each launch's result is checked: the ring walk ends where the host's does,
 * the counters at their exact sums. Returns ns per step (per @p per_step
 * work-items); 0 if the longer launch was no slower (noise), -1 if a result
 * was wrong or a launch failed, with the reason in @p why.
 */
static double cal_measure(atl_context_t ctx, void *kernel, struct cal_run *c, void *ring, const uint32_t *host_ring,
                          uint32_t mode, uint32_t iters, size_t global, size_t local, double per_step,
                          const struct atl_app_timing *tm, char *why, size_t why_len)
{
  double med[2];
  for (int pass = 0; pass < 2; pass++) {
    const uint32_t n = iters << pass;
    struct atl_arg args[] = {{ATL_ARG_U32, NULL, mode},
                             {ATL_ARG_U32, NULL, n},
                             {ATL_ARG_BUFFER, ring, 0},
                             {ATL_ARG_BUFFER, c->word, 0},
                             {ATL_ARG_BUFFER, c->sink, 0}};
    struct atl_launch launch = {global, local, args, 5};
    struct atl_row tmp;
    atl__app_row_init(&tmp, "swatomic", "model");
    c->mode = mode;
    c->groups = (uint32_t)(global / local);
    int err = atl__app_time(ctx, kernel, &launch, cal_reset, c, tm, &tmp);
    if (err) {
      snprintf(why, why_len, "%s", atl_errmsg(ctx));
      return -1;
    }
    uint32_t got = 0, want = 0;
    if (mode == 2) {
      err = atl__ops(ctx)->read(atl__dev(ctx), c->word, &got, 4);
      want = (uint32_t)(global * n);
      if (!err && got == want && (err = cal_check_olds(ctx, c, (uint64_t)global * n, why, why_len)) > 0)
        return -1;
    } else {
      err = atl__ops(ctx)->read(atl__dev(ctx), c->sink, &got, 4);
      if (mode == 1)
        want = (uint32_t)(local * n);
      else
        for (uint32_t i = 0; i < n; i++)
          want = host_ring[want];
    }
    if (err || got != want) {
      snprintf(why, why_len, "calibration mode %u at %u steps ended at %u, expected %u", mode, n, got, want);
      return -1;
    }
    med[pass] = tmp.time_ms.median;
  }
  const double d = med[1] - med[0];
  if (!(d > 0)) {
    snprintf(why, why_len, "calibration mode %u: %u more steps took no longer (%.4f vs %.4f ms)", mode, iters,
             med[1], med[0]);
    return 0; /* noise: the caller retries with more steps */
  }
  return d * 1e6 / ((double)iters * per_step);
}

/*
 * Measures t_fast, t_l and t_comp (ns) and adds the "model" row. The seed's
 * definitions on an AMD GPU: t_fast a FastPath memory transaction, t_l a
 * local-memory update, t_comp a CompletePath transaction (an atomic serialized
 * with the others, N t_comp in equation (1)). On GPUs without the two paths
 * t_comp is the time per global atomic when the whole grid hits one word.
 */
static int calibrate(atl_context_t ctx, const struct atl_swatomic_params *p, const struct atl_app_timing *tm,
                     struct atl__app_buffers *bufs, struct atl_swmodel *m, struct atl_result_set *out)
{
  const struct atl_device_info *dev = atl_device_current(ctx);
  const int cpu = dev->type == ATL_DEVICE_CPU;
  const uint32_t ring_words = 1u << 20; /* 4 MiB: beyond an L1 cache, so each step is a real access */
  struct atl_row row;
  struct cal_run c = {0};
  void *kernel = NULL, *ring = NULL;
  uint32_t *host = malloc((size_t)ring_words * 4);
  uint32_t most = 2;
  char why[300] = "";
  int err = 0;
  atl__app_row_init(&row, "swatomic", "model");
  for (unsigned i = 0; i < p->ngroups; i++)
    if (p->groups[i] <= p->coresident && p->groups[i] > most)
      most = p->groups[i];
  if (host == NULL)
    return atl__seterr(ctx, ATL_ENOMEM, "out of host memory");
  /* one random cycle through every word (Sattolo), so the prefetcher cannot guess the next */
  for (uint32_t i = 0; i < ring_words; i++)
    host[i] = i;
  uint64_t s = 0x5eed000ull;
  for (uint32_t i = ring_words - 1; i > 0; i--) {
    s = atl__splitmix64(s);
    const uint32_t j = (uint32_t)(s % i), t = host[i];
    host[i] = host[j];
    host[j] = t;
  }
  if ((err = atl__app_alloc(ctx, bufs, (size_t)ring_words * 4, &ring)) ||
      (err = atl__app_alloc(ctx, bufs, 4, &c.word)) ||
      (err = atl__app_alloc(ctx, bufs, (size_t)most * 4, &c.sink)) ||
      (err = atl__ops(ctx)->write(atl__dev(ctx), ring, host, (size_t)ring_words * 4)))
    goto fail;
  if ((err = atl__app_build(ctx, "app_swatomic", "swcal", "ATL_WAVEFRONT=32 ATL_MAX_GROUPS=8", &kernel, NULL)))
    goto fail;
  /* step counts: enough that the doubled launch takes clearly longer than the launch overhead */
  const uint32_t fast_steps = cpu ? 1u << 18 : 1u << 12, local_steps = cpu ? 1u << 14 : 1u << 11;
  const uint32_t comp_steps = cpu ? 1024 : 8;
  const size_t grid = (size_t)most * p->wg_size;
  /* a busy machine can make the longer launch no slower: up to 3 tries, with 4x the steps each time */
  m->t_fast = m->t_l = m->t_comp = 0;
  for (uint32_t t = 0, f = 1; t < 3 && m->t_fast == 0; t++, f *= 4)
    m->t_fast = cal_measure(ctx, kernel, &c, ring, host, 0, fast_steps * f, 1, 1, 1, tm, why, sizeof why);
  for (uint32_t t = 0, f = 1; t < 3 && m->t_fast > 0 && m->t_l == 0; t++, f *= 4)
    m->t_l = cal_measure(ctx, kernel, &c, ring, host, 1, local_steps * f, 32, 32, 32, tm, why, sizeof why);
  for (uint32_t t = 0, f = 1; t < 3 && m->t_fast > 0 && m->t_l > 0 && m->t_comp == 0; t++, f *= 4)
    m->t_comp = cal_measure(ctx, kernel, &c, ring, host, 2, comp_steps * f, grid, p->wg_size, (double)grid, tm,
                            why, sizeof why);
  if (!(m->t_fast > 0 && m->t_l > 0 && m->t_comp > 0)) {
    /* a wrong result is an error; three noisy tries only leave the model without numbers */
    const int noisy = m->t_fast >= 0 && m->t_l >= 0 && m->t_comp >= 0;
    atl__app_row_status(&row, noisy ? ATL_STATUS_SKIPPED : ATL_STATUS_ERROR, "%s", why);
    m->t_fast = m->t_l = m->t_comp = 0;
    goto done;
  }
  row.status = ATL_STATUS_OK;
  row.verified = 1; /* every calibration launch's result was checked in cal_measure */
  atl_row_metric_set(&row, "t_fast_ns", m->t_fast);
  atl_row_metric_set(&row, "t_l_ns", m->t_l);
  atl_row_metric_set(&row, "t_comp_ns", m->t_comp);
  atl_row_metric_set(&row, "x", m->t_comp / m->t_fast);
  atl_row_metric_set(&row, "x_l", m->t_l / m->t_fast);
  atl_row_metric_set(&row, "comp_workgroups", most);
  snprintf(row.reason, sizeof row.reason,
           "t_fast: dependent loads over a 4 MiB random ring, 1 work-item; t_l: 32 work-items add to one local "
           "word; t_comp: %zu work-items add to one global word; each the slope between n and 2n steps",
           grid);
  goto done;
fail:
  atl__app_row_status(&row, ATL_STATUS_ERROR, "%s", atl_errmsg(ctx));
done:
  free(host);
  if (atl_result_set_add(out, &row))
    return ATL_ENOMEM;
  return err == ATL_ENOMEM ? err : 0;
}

/* The row of @p variant at @p groups work-groups, if it was measured and verified. */
static struct atl_row *find_row(struct atl_result_set *set, size_t from, const char *variant, uint32_t groups)
{
  for (size_t i = from; i < set->count; i++) {
    struct atl_row *r = &set->rows[i];
    if (atl_row_config_is(r, "variant", variant) && atl_row_metric(r, "workgroups", 0) == groups &&
        r->status == ATL_STATUS_OK && r->verified && r->time_ms.median > 0)
      return r;
  }
  return NULL;
}

/*
 * The ideal time of each VARIANT+mem row (VARIANT's time + mem's time, the
 * seed's Figure 4 "Ideal"), and on each software row the model's prediction
 * next to the measured speedup over the system atomic.
 */
static void derive(const struct atl_swatomic_params *p, const struct atl_swmodel *m, struct atl_result_set *set,
                   size_t from)
{
  const double waves = (p->wg_size + 31) / 32, per_wave = p->wg_size < 32 ? p->wg_size : 32;
  for (unsigned i = 0; i < p->ngroups; i++) {
    const uint32_t g = p->groups[i];
    const struct atl_row *mem = find_row(set, from, "mem", g);
    for (unsigned v = 0; v < 3 && mem; v++) {
      char name[48];
      snprintf(name, sizeof name, "%s+mem", variant_names[v]);
      struct atl_row *both = find_row(set, from, name, g);
      const struct atl_row *alone = find_row(set, from, variant_names[v], g);
      if (both && alone)
        atl_row_metric_set(both, "ideal_ms", alone->time_ms.median + mem->time_ms.median);
    }
    struct atl_row *sw = find_row(set, from, "software", g), *swm = find_row(set, from, "software+mem", g);
    const struct atl_row *sys = find_row(set, from, "system", g), *sysm = find_row(set, from, "system+mem", g);
    if (sw && sys)
      atl_row_metric_set(sw, "measured_speedup", sys->time_ms.median / sw->time_ms.median);
    if (swm && sysm)
      atl_row_metric_set(swm, "measured_speedup", sysm->time_ms.median / swm->time_ms.median);
    if (sw && m->t_fast > 0) {
      /* the seed's model has one wavefront per work-group: here each wavefront of 32 is one requester */
      /* the software grid's requesters leave out the coordinator's work-group; the system kernel's callers
       * are every work-group's, as measured */
      const double n_c = per_wave * (p->divergent ? 2.0 / 3.0 : 1.0);
      const struct atl_swmodel_load l = {n_c, (g - 1) * waves, (g - 1) * waves, p->targets, p->wg_size, p->iters};
      const struct atl_swmodel_load all = {n_c, g * waves, g * waves, p->targets, p->wg_size, p->iters};
      const double sys_pred = atl_swmodel_system(m, &all), sw_pred = atl_swmodel_software(m, &l, NULL);
      const double sw_meas = sw->time_ms.median * 1e6 / p->iters;
      atl_row_metric_set(sw, "wg_size", p->wg_size); /* atomlab model swatomic reads the loads back */
      atl_row_metric_set(sw, "t_a_system_pred_ns", sys_pred);
      atl_row_metric_set(sw, "t_a_software_pred_ns", sw_pred);
      atl_row_metric_set(sw, "t_a_software_meas_ns", sw_meas);
      atl_row_metric_set(sw, "software_model_error", sw_pred / sw_meas - 1);
      if (sw_pred > 0)
        atl_row_metric_set(sw, "predicted_speedup", sys_pred / sw_pred);
      if (sys) {
        const double sys_meas = sys->time_ms.median * 1e6 / p->iters;
        atl_row_metric_set(sw, "t_a_system_meas_ns", sys_meas);
        atl_row_metric_set(sw, "system_model_error", sys_pred / sys_meas - 1);
        if (sw_pred > 0)
          atl_row_metric_set(sw, "speedup_model_error", (sys_pred / sw_pred) / (sys_meas / sw_meas) - 1);
      }
    }
  }
}

int atl_app_swatomic(atl_context_t ctx, const struct atl_swatomic_params *p, const struct atl_app_timing *tm,
                     struct atl_result_set *out)
{
  struct atl__app_buffers bufs = {{0}, 0};
  struct sw_run r;
  struct atl_swmodel m = {0, 0, 0, 0, 0, 0, 0};
  const size_t first = out->count;
  int err = 0;
  memset(&r, 0, sizeof r);
  r.init = swop_init(p->op);
  struct atl_swatomic_params q;
  uint32_t grids[ATL__SW_MAX_GRIDS];
  if ((err = atl__app_checked(ctx, &atl__app_swatomic, p)) != 0)
    return err;
  q = *p; /* grids and co-residency left 0 are found here: discovery needs the context */
  if ((err = atl__sw_grids(ctx, q.wg_size, 8, &q.coresident, &q.groups, &q.ngroups, grids)) != 0)
    return err;
  p = &q;
  if ((err = atl__app_checked(ctx, &atl__app_swatomic, p)) != 0)
    return err; /* the grids are known now: their memory */
  uint32_t most = 0;
  for (unsigned i = 0; i < p->ngroups; i++)
    if (p->groups[i] <= p->coresident && p->groups[i] > most)
      most = p->groups[i];
  if (most < 2)
    most = 2; /* buffers for the refused rows are never used */
  const uint64_t items = (uint64_t)(most - 1) * p->wg_size;
  r.mem_bytes = (size_t)p->targets * 4;
  r.req_bytes = (size_t)most * ((p->wg_size + 31) / 32) * 8;
  r.fin_bytes = (size_t)most * 4;
  r.copy_bytes = p->experiment ? (size_t)(items * p->iters * 4) : 4;
  if ((err = atl__app_alloc(ctx, &bufs, r.mem_bytes, &r.mem)) ||
      (err = atl__app_alloc(ctx, &bufs, (size_t)(items * p->iters * 4), &r.olds)) ||
      (err = atl__app_alloc(ctx, &bufs, r.req_bytes, &r.req)) ||
      (err = atl__app_alloc(ctx, &bufs, r.fin_bytes, &r.finished)) ||
      (err = atl__app_alloc(ctx, &bufs, 4, &r.abort_flag)) ||
      (err = atl__app_alloc(ctx, &bufs, r.copy_bytes, &r.src)) ||
      (err = atl__app_alloc(ctx, &bufs, r.copy_bytes, &r.dst)))
    goto out;
  if (p->experiment) {
    uint32_t *src = malloc(r.copy_bytes);
    if (src == NULL) {
      err = atl__seterr(ctx, ATL_ENOMEM, "out of host memory");
      goto out;
    }
    for (size_t i = 0; i < r.copy_bytes / 4; i++)
      src[i] = src_word(i);
    err = atl__ops(ctx)->write(atl__dev(ctx), r.src, src, r.copy_bytes);
    free(src);
    if (err)
      goto out;
    if ((err = calibrate(ctx, p, tm, &bufs, &m, out)))
      goto out;
  }
  for (unsigned i = 0; i < p->ngroups && ATL_APP_GO_ON(err); i++) {
    if (p->experiment)
      err = run_row(ctx, p, tm, &r, V_NONE, 1, p->groups[i], out);
    for (unsigned v = 0; v < 3 && ATL_APP_GO_ON(err); v++)
      if (p->variants & (1u << v)) {
        err = run_row(ctx, p, tm, &r, v, 0, p->groups[i], out);
        if (!err && p->experiment)
          err = run_row(ctx, p, tm, &r, v, 1, p->groups[i], out);
      }
  }
  if (!err && p->experiment)
    derive(p, &m, out, first);
out:
  atl__app_free_all(ctx, &bufs);
  return err;
}

static void swatomic_defaults(const struct atl_device_info *d, void *params)
{
  struct atl_swatomic_params *p = params;
  atl__app_wg_default(d, &p->wg_size, 0);
  if (p->iters == 0)
    p->iters = d->type == ATL_DEVICE_CPU ? 2 : 16;
}

static int swatomic_check(const struct atl_device_info *d, const void *params, char *why, size_t len)
{
  const struct atl_swatomic_params *p = params;
  int err = atl__sw_grid_check(d, p->wg_size, p->groups, p->ngroups, p->variants, why, len);
  if (!err && p->iters == 0)
    return atl__app_why(why, len, "iters 0 is not allowed: 1 to 1024");
  return err;
}

/* Discovery and the grids before anything runs: a grid beyond the co-resident count is a usage error. */
static int swatomic_prepare(atl_context_t ctx, atl_app_config_t cfg, char *why, size_t len)
{
  struct atl_swatomic_params *p = atl_app_config_params(cfg);
  int err = atl__sw_prepare(ctx, cfg, p->wg_size, 8, &p->coresident, &p->groups, &p->ngroups, why, len);
  if (err || p->coresident == 0) /* coresident 0: a work-group size the check refuses */
    return err;
  /* A test hook: the host's reference starts one off, so every atomic row must fail to verify (exit 1). */
  p->skew_reference = atl__app_hook("ATL_SWATOMIC_SKEW_REFERENCE");
  atl__app_config_note(cfg, "swatomic: %u co-resident work-groups of %u (discovery), %u grid(s), %u target(s), op %s",
                       p->coresident, p->wg_size, p->ngroups, p->targets, atl_swop_name(p->op));
  return 0;
}

ATL__APP_RUN(swatomic, atl_app_swatomic)

#define P(field) .offset = offsetof(struct atl_swatomic_params, field)
static const struct atl_app_option swatomic_options[] = {
    ATL__APP_OPT_WG(struct atl_swatomic_params, 256, "work-items per work-group"),
    {"workgroups", ATL_APP_OPT_LIST, P(groups), .count_offset = offsetof(struct atl_swatomic_params, ngroups),
     .arg = "LIST", .parse = atl__sw_parse_groups, .alias = "groups", .def_help = "8:max:x2; CPU: max",
     .help = "grids incl. the coordinator, e.g. 8,16,32,max (max: the co-resident count) or an axis LO:HI:x2 "
             "(8:max:x2 = 8, 16, ... below max, and max); --groups is the same"},
    {"experiment", ATL_APP_OPT_FLAG, P(experiment), .bits = 1,
     .help = "the seed's experiments per grid: also the memory transaction alone (mem: each iteration copies one "
             "word) and with each atomic (VARIANT+mem: Figure 3's copy kernel, micro-benchmark 2) with the ideal "
             "sum; the speedup model (t_fast, t_l, t_comp measured, equations (1)-(4) predicted against the "
             "measured speedup) and each kernel's instruction counts"},
    {"targets", ATL_APP_OPT_U32, P(targets), .min = 1, .max = 0x1p20, .def = "1", .arg = "N",
     .help = "words the work-items spread over (gid % N)"},
    {"iters", ATL_APP_OPT_U32, P(iters), .min = 1, .max = 1024, .arg = "N", .def_help = "GPU: 16; CPU: 2",
     .help = "atomics per work-item"},
    {"divergent", ATL_APP_OPT_FLAG, P(divergent), .bits = 1, .help = "every work-item with gid % 3 == 1 sits out"},
    {"variants", ATL_APP_OPT_SET, P(variants), .names = variant_names, .nnames = 3, .def = "all", .arg = "LIST",
     .help = "of system, warp, software"},
    {"op", ATL_APP_OPT_CHOICE, P(op), .names = atl__swop_names, .nnames = ATL_SWOP_COUNT, .def = "add", .arg = "OP",
     .help = "add, sub, inc (operand 1), min, max, and, or, xor (operands hashed from the update's index)"},
    {0}};
#undef P

/* What a run allocates at most (atl_app_info.bytes_needed), for its largest co-resident grid of n updates
 * (work-items x iters): every update's old value on the device and read back (with --experiment also the copy
 * kernel's source and target), and the verification's records of 8 bytes, 29 more for the serial order of min, max,
 * and, or and xor; the words and their counts. Before discovery (coresident 0) the grids are not known yet: the
 * check after it counts them. */
static void swatomic_bytes(const struct atl_device_info *d, const void *params, struct atl_app_bytes *need)
{
  const struct atl_swatomic_params *p = params;
  uint32_t most = 2;
  for (unsigned i = 0; i < p->ngroups; i++)
    if (p->groups[i] <= p->coresident && p->groups[i] > most)
      most = p->groups[i];
  const uint64_t n = (uint64_t)(most - 1) * p->wg_size * p->iters, copies = p->experiment ? 2 * n * 4 : 0;
  const uint64_t per_update = 4 + 8 + (p->op >= ATL_SWOP_MIN ? 29 : 0), ring = p->experiment ? 4u << 20 : 0;
  const uint64_t grid = (uint64_t)most * (((p->wg_size + 31) / 32) * 8 + 8);
  (void)d;
  *need = (struct atl_app_bytes){n * per_update + copies + (uint64_t)p->targets * 12 + ring,
                                 n * 4 + copies + (uint64_t)p->targets * 4 + grid + ring, "workgroups"};
}

const struct atl_app_info atl__app_swatomic = {
    .name = "swatomic",
    .summary = "seed 000: software atomic add (coordinator work-group) vs system and warp-aggregated atomics",
    .description =
        "Seed 000's micro-benchmark 1 (atomic only): every work-item adds 1 (--op) to\n"
        "one of --targets words --iters times through the system atomic, warp\n"
        "aggregation (OpenCL: groups of 32 in local memory) and the software atomic,\n"
        "whose last work-group is a coordinator that applies every wavefront's sum.\n"
        "The coordinator idles in the other variants, so all do the same work. Every\n"
        "row is verified: add, sub, inc: the old values per word are exactly those of\n"
        "the n updates in some order and the words end at the n-th; min, max, and, or,\n"
        "xor (hashed operands): the old values fit a serial order of the word's\n"
        "updates and the words end at the op-reduction of the operands. The software\n"
        "atomic needs a co-resident grid: counts above what occupancy discovery\n"
        "finds are refused (exit 2). Waits are bounded\n"
        "(--spin-bound; CPU default 2^26) and report status deadlock.",
    ATL__APP_ENTRY(struct atl_swatomic_params, swatomic),
    .prepare = swatomic_prepare,
    .write_view = atl__swatomic_view,
    .bytes_needed = swatomic_bytes,
};
