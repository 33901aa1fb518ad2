/* The strategy benchmark driver: every strategy of the device library on
 * one access pattern, timed like rmw and verified old value by old value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "verify.h"
#include "strategy_internal.h"
#include "timing.h"

static const char *const strategy_names[] = {"native", "warp", "block", "privatized",
                                             "cas", "lock_warp", "lock_thread", "spin_lock"};
static const char *const strategy_helps[] = {
    "one hardware atomic per thread",
    "one atomic per address per warp (__match_any_sync; OpenCL: per wavefront-sized group in local memory)",
    "one atomic per address per block: shared-memory aggregation, old values by prefix (seed 001)",
    "per-block shared copies of the array merged with one atomic per word (needs the array in shared memory)",
    "compare-and-swap loop computing the op",
    "a lock per address taken once per warp, lanes update in turn (CUDA only)",
    "a lock per address per thread with a done flag (GTC 2013)",
    "the naive spin lock: deadlocks without independent thread scheduling (bounded here)"};
static const char *const access_names[] = {"same-address", "same-line", "scattered"};

/* Words per 128-byte line: the unit of the same-line and scattered patterns. */
#define LINE_WORDS 32u
/* Iterations of the launch that records every old value. */
#define VERIFY_ITERS 2u

const char *atl_strategy_name(enum atl_strategy s) { return (unsigned)s < ATL_STRATEGY_COUNT ? strategy_names[s] : "?"; }
const char *atl_strategy_help(enum atl_strategy s) { return (unsigned)s < ATL_STRATEGY_COUNT ? strategy_helps[s] : "?"; }
const char *atl_access_name(enum atl_access a) { return (unsigned)a < ATL_ACCESS_COUNT ? access_names[a] : "?"; }

int atl_strategy_parse(const char *s)
{
  for (int i = 0; i < ATL_STRATEGY_COUNT; i++)
    if (strcmp(strategy_names[i], s) == 0)
      return i;
  return -1;
}

int atl_access_parse(const char *s)
{
  for (int i = 0; i < ATL_ACCESS_COUNT; i++)
    if (strcmp(access_names[i], s) == 0)
      return i;
  return -1;
}

int atl_strategy_op_supported(enum atl_op op)
{
  switch (op) {
  case ATL_OP_FETCH_ADD:
  case ATL_OP_FETCH_SUB:
  case ATL_OP_INC:
  case ATL_OP_FETCH_MIN:
  case ATL_OP_FETCH_MAX:
  case ATL_OP_AND:
  case ATL_OP_OR:
  case ATL_OP_XOR:
    return 1;
  default:
    return 0;
  }
}

uint32_t atl_strategy_default_spin_bound(const struct atl_device_info *dev)
{
  /* Tries that see the SAME held lock version in a row, so contention (the
   * lock changing hands) never counts against a waiter; only a holder that
   * makes no progress does. A GPU try is a load from L2 (about a
   * microsecond under load) and a critical section takes microseconds, so
   * 2^22 tries is a holder stuck for seconds: no false deadlock, even when
   * the scheduler lets a spinning branch of a warp run long before the
   * holder's. A CPU try takes a few nanoseconds, but the OS may preempt a
   * holder for tens of milliseconds: 2^26 tries is about 0.2 s on the
   * development machine, so a forced deadlock costs well under a second
   * (docs/design/strategies.md). */
  return dev && dev->type == ATL_DEVICE_CPU ? 1u << 26 : 1u << 22;
}

void atl__strategy_op(enum atl_op op, struct atl__strategy_op *o)
{
  struct atl__op_values v;
  atl__op_values(op, ATL_TYPE_U32, &v); /* the same start values and operands as rmw */
  o->init = (uint32_t)v.init;
  o->operand = (uint32_t)v.operand;
  switch (op) {
  case ATL_OP_FETCH_SUB: o->opc = ATL__OPC_SUB; break;
  case ATL_OP_INC: o->opc = ATL__OPC_ADD; o->operand = 1; break;
  case ATL_OP_FETCH_MIN: o->opc = ATL__OPC_MIN; break;
  case ATL_OP_FETCH_MAX: o->opc = ATL__OPC_MAX; break;
  case ATL_OP_AND: o->opc = ATL__OPC_AND; break;
  case ATL_OP_OR: o->opc = ATL__OPC_OR; break;
  case ATL_OP_XOR: o->opc = ATL__OPC_XOR; break;
  default: o->opc = ATL__OPC_ADD; break;
  }
}

uint32_t atl__opc_apply(enum atl__opc opc, uint32_t x, uint32_t v)
{
  switch (opc) {
  case ATL__OPC_SUB: return x - v;
  case ATL__OPC_MIN: return x < v ? x : v;
  case ATL__OPC_MAX: return x > v ? x : v;
  case ATL__OPC_AND: return x & v;
  case ATL__OPC_OR: return x | v;
  case ATL__OPC_XOR: return x ^ v;
  default: return x + v;
  }
}

uint32_t atl__strategy_after(const struct atl__strategy_op *o, uint64_t n)
{
  switch (o->opc) {
  case ATL__OPC_ADD: return o->init + (uint32_t)n * o->operand;
  case ATL__OPC_SUB: return o->init - (uint32_t)n * o->operand;
  case ATL__OPC_XOR: return n & 1 ? o->init ^ o->operand : o->init;
  default: return n ? atl__opc_apply(o->opc, o->init, o->operand) : o->init; /* idempotent ops */
  }
}

uint64_t atl__strategy_words(enum atl_access a, uint64_t threads)
{
  return a == ATL_ACCESS_SAME_ADDRESS ? 1 : a == ATL_ACCESS_SAME_LINE ? LINE_WORDS : threads * LINE_WORDS;
}

uint32_t atl__strategy_target(enum atl_access a, uint64_t gid)
{
  return a == ATL_ACCESS_SAME_ADDRESS ? 0u : a == ATL_ACCESS_SAME_LINE ? (uint32_t)(gid % LINE_WORDS)
                                                                       : (uint32_t)(gid * LINE_WORDS);
}

static int waits(enum atl_strategy s)
{
  return s == ATL_STRATEGY_LOCK_WARP || s == ATL_STRATEGY_LOCK_THREAD || s == ATL_STRATEGY_SPIN_LOCK;
}

/* OpenCL's group aggregation: groups of `warp` work-items, and room for every group of the work-group. */
static unsigned groups_of(uint32_t wg_size, unsigned warp) { return (wg_size + warp - 1) / warp; }

void atl__strategy_defines(const struct atl_strategy_spec *s, unsigned warp, char *buf, size_t len)
{
  struct atl__strategy_op o;
  atl__strategy_op(s->op, &o);
  uint64_t words = atl__strategy_words(s->access, (uint64_t)s->wg_size * s->workgroups);
  /* only the privatized kernel depends on the array size: the others are one build for every pattern */
  unsigned priv = s->runtime_select ? LINE_WORDS
                  : s->strategy == ATL_STRATEGY_PRIVATIZED && words <= LINE_WORDS ? (unsigned)words : 1u;
  int n = snprintf(buf, len, "RESULT_USED=%d PRIV_WORDS=%u ATL_WAVEFRONT=%u ATL_MAX_GROUPS=%u",
                   s->runtime_select || s->result == ATL_RESULT_USED, priv, warp, groups_of(s->wg_size, warp));
  if (!s->runtime_select && n > 0 && (size_t)n < len)
    snprintf(buf + n, len - (size_t)n, " STRATEGY=%d OPC=%d", (int)s->strategy, o.opc);
}

static int cmp_record(const void *a, const void *b)
{
  const struct atl__old_record *x = a, *y = b;
  if (x->word != y->word)
    return x->word < y->word ? -1 : 1;
  return x->value < y->value ? -1 : x->value > y->value;
}

uint64_t atl__strategy_check_olds(const struct atl__strategy_op *o, struct atl__old_record *rec, size_t n,
                                  const uint64_t *counts, uint64_t words, char *why, size_t why_len)
{
  uint64_t wrong = 0;
  size_t i = 0;
  uint32_t *expect = NULL;
  size_t expect_cap = 0;
  qsort(rec, n, sizeof *rec, cmp_record);
  for (uint64_t w = 0; w < words; w++) {
    size_t start = i;
    while (i < n && rec[i].word == w)
      i++;
    const size_t got = i - start;
    if (counts[w] == 0 && got == 0)
      continue;
    if (got != counts[w]) {
      if (!wrong++)
        snprintf(why, why_len, "word %llu: %zu old values for %llu updates", (unsigned long long)w, got,
                 (unsigned long long)counts[w]);
      continue;
    }
    if (got > expect_cap) {
      free(expect);
      expect_cap = got;
      if ((expect = malloc(expect_cap * sizeof *expect)) == NULL) {
        snprintf(why, why_len, "out of host memory");
        return wrong + 1;
      }
    }
    uint32_t x = o->init; /* x_0, x_1, ... as one thread after another would see them */
    for (size_t k = 0; k < got; k++) {
      expect[k] = x;
      x = atl__opc_apply(o->opc, x, o->operand);
    }
    qsort(expect, got, sizeof *expect, atl__cmp_u32);
    for (size_t k = 0; k < got; k++)
      if (rec[start + k].value != expect[k]) {
        if (!wrong++)
          snprintf(why, why_len, "word %llu: the old values are not x_0..x_%zu of the op (sorted, %zu-th is 0x%x, "
                   "expected 0x%x)", (unsigned long long)w, got - 1, k, rec[start + k].value, expect[k]);
        break;
      }
  }
  if (i != n && !wrong++)
    snprintf(why, why_len, "old values recorded for words that received no update");
  free(expect);
  return wrong;
}

int atl_strategy_check(atl_context_t ctx, const struct atl_strategy_spec *s, char *why, size_t why_len)
{
  const struct atl_device_info *dev = atl_device_current(ctx);
  const uint64_t threads = (uint64_t)s->wg_size * s->workgroups;
  why[0] = '\0';
  int err = atl__grid_check(dev, s->wg_size, s->workgroups, UINT32_MAX / LINE_WORDS, why, why_len);
  if (err)
    return err;
  if (!atl_strategy_op_supported(s->op)) {
    snprintf(why, why_len, "op %s is not allowed: fetch_add, fetch_sub, inc, fetch_min, fetch_max, and, or, xor",
             atl_op_name(s->op));
    return ATL_EINVAL;
  }
  const uint64_t words = atl__strategy_words(s->access, threads);
  if (words * 4 > dev->max_alloc) {
    snprintf(why, why_len, "the %s array of %llu bytes exceeds the device's max allocation: lower workgroups",
             atl_access_name(s->access), (unsigned long long)(words * 4));
    return ATL_EINVAL;
  }
  if (s->strategy == ATL_STRATEGY_LOCK_WARP && !dev->has_warp_vote) {
    snprintf(why, why_len, "lock_warp needs warp vote and shuffle, which OpenCL C 1.2 lacks");
    return ATL_ENOTSUP;
  }
  if ((s->strategy == ATL_STRATEGY_WARP || s->strategy == ATL_STRATEGY_BLOCK || s->strategy == ATL_STRATEGY_PRIVATIZED) &&
      !dev->has_local_atomics) {
    snprintf(why, why_len, "%s aggregates in local memory, and %s lacks local atomics", atl_strategy_name(s->strategy),
             dev->name);
    return ATL_ENOTSUP;
  }
  if (s->strategy == ATL_STRATEGY_PRIVATIZED && words > LINE_WORDS) {
    snprintf(why, why_len, "privatization keeps a copy of the array per block: the %s array's %llu words do not fit "
             "(this benchmark allows %u)", atl_access_name(s->access), (unsigned long long)words, LINE_WORDS);
    return ATL_ENOTSUP;
  }
  return 0;
}

/* Device buffers of one configuration (slots of the context's reused buffers). */
enum { SLOT_WORDS, SLOT_LOCKS, SLOT_TARGETS, SLOT_ACTIVE, SLOT_ITERS, SLOT_SINK, SLOT_RECORD, SLOT_STATE };

struct strategy_launch {
  atl_context_t ctx;
  void *kernel;
  const struct atl_strategy_spec *spec;
  void *buf[8];
  struct atl__strategy_op op;
  uint64_t words, threads;
  uint32_t record_on, spin_bound;
  int deadlocked;
};

static int strategy_timed_launch(void *arg, uint32_t iters, double *ms)
{
  struct strategy_launch *l = arg;
  const struct atl_backend_ops *ops = atl__ops(l->ctx);
  void *dev = atl__dev(l->ctx);
  const struct atl_strategy_spec *s = l->spec;
  const uint32_t zero = 0, held = 1;
  int err;
  if ((err = ops->fill(dev, l->buf[SLOT_WORDS], &l->op.init, 4, l->words * 4)) ||
      (waits(s->strategy) &&
       (err = ops->fill(dev, l->buf[SLOT_LOCKS], s->stuck_lock ? &held : &zero, 4, l->words * 4))) ||
      (err = ops->write(dev, l->buf[SLOT_STATE], &zero, 4)) || (err = ops->write(dev, l->buf[SLOT_ITERS], &iters, 4)))
    return err;
  struct atl_arg args[] = {
      {ATL_ARG_BUFFER, l->buf[SLOT_WORDS], 0},   {ATL_ARG_BUFFER, l->buf[SLOT_LOCKS], 0},
      {ATL_ARG_BUFFER, l->buf[SLOT_TARGETS], 0}, {ATL_ARG_BUFFER, l->buf[SLOT_ACTIVE], 0},
      {ATL_ARG_BUFFER, l->buf[SLOT_ITERS], 0},   {ATL_ARG_BUFFER, l->buf[SLOT_SINK], 0},
      {ATL_ARG_BUFFER, l->buf[SLOT_RECORD], 0},  {ATL_ARG_BUFFER, l->buf[SLOT_STATE], 0},
      {ATL_ARG_U32, NULL, l->spin_bound},        {ATL_ARG_U32, NULL, l->record_on},
      {ATL_ARG_U32, NULL, (uint64_t)s->strategy}, {ATL_ARG_U32, NULL, (uint64_t)l->op.opc},
      {ATL_ARG_U32, NULL, l->op.operand},        {ATL_ARG_U32, NULL, l->words <= LINE_WORDS ? l->words : LINE_WORDS},
  };
  struct atl_launch launch = {(size_t)l->threads, s->wg_size, args, sizeof args / sizeof args[0]};
  if ((err = ops->launch(dev, l->kernel, &launch, ms)))
    return err;
  if (waits(s->strategy)) {
    uint32_t abort_flag = 0;
    if ((err = ops->read(dev, l->buf[SLOT_STATE], &abort_flag, 4)))
      return err;
    if (abort_flag) {
      l->deadlocked = 1;
      return ATL_EDEADLOCK;
    }
  }
  return 0;
}

/* Compares the array with x_{counts[w] * iters} for every word; returns the wrong words. */
static uint64_t check_final(const struct atl__strategy_op *o, const uint32_t *words, const uint64_t *counts,
                            uint64_t nwords, uint32_t iters, char *why, size_t why_len)
{
  uint64_t wrong = 0;
  for (uint64_t w = 0; w < nwords; w++) {
    uint32_t expect = atl__strategy_after(o, counts[w] * iters);
    if (words[w] != expect && !wrong++)
      snprintf(why, why_len, "word %llu is 0x%x, expected 0x%x after %llu updates", (unsigned long long)w, words[w],
               expect, (unsigned long long)(counts[w] * iters));
  }
  return wrong;
}

static void row_set(struct atl_row *row, enum atl_status status, const char *why)
{
  row->status = status;
  snprintf(row->reason, sizeof row->reason, "%s", why);
}

/* A strategy row's configuration: the kind "strategy" of row.c, in its order. */
static void strategy_row_init(struct atl_row *row, const struct atl_strategy_spec *s, uint64_t threads,
                              uint32_t spin_bound)
{
  const uint32_t per_word = s->access == ATL_ACCESS_SAME_ADDRESS ? (uint32_t)threads
                            : s->access == ATL_ACCESS_SAME_LINE  ? (uint32_t)(threads / LINE_WORDS)
                                                                 : 1u;
  atl_row_init(row, "strategy");
  atl_row_config_set(row, "strategy", atl_strategy_name(s->strategy));
  atl_row_config_set(row, "pattern", atl_access_name(s->access));
  atl_row_config_set(row, "op", atl_op_name(s->op));
  atl_row_config_set(row, "result", atl_result_name(s->result));
  atl_row_config_set(row, "divergent", s->divergent ? "yes" : "no");
  atl_row_config_set(row, "stuck_lock", s->stuck_lock ? "yes" : "no");
  atl_row_config_number(row, "threads_per_word", per_word);
  atl_row_config_number(row, "word_spacing", s->access == ATL_ACCESS_SCATTERED ? LINE_WORDS : 1u);
  atl_row_config_number(row, "wg_size", s->wg_size);
  atl_row_config_number(row, "workgroups", s->workgroups);
  atl_row_config_number(row, "spin_bound", spin_bound);
}

int atl_strategy_run(atl_context_t ctx, const struct atl_strategy_spec *s, const struct atl_timing *tm,
                     struct atl_row *row)
{
  const struct atl_backend_ops *ops = atl__ops(ctx);
  void *dev = atl__dev(ctx);
  uint32_t *targets = NULL, *active = NULL, *words = NULL, *record = NULL;
  uint64_t *counts = NULL;
  struct atl__old_record *rec = NULL;
  char why[256], defines[256];
  int err = 0;

  const double row_start = atl__now_s();
  const uint64_t threads = (uint64_t)s->wg_size * s->workgroups;
  const uint64_t nwords = atl__strategy_words(s->access, threads);
  uint32_t iters = 0;
  uint64_t wrong_words = 0, olds_checked = 0;
  strategy_row_init(row, s, threads, 0); /* status error until the row is measured and checked */
  int chk = atl_strategy_check(ctx, s, why, sizeof why);
  if (chk) {
    row_set(row, chk == ATL_ENOTSUP ? ATL_STATUS_UNSUPPORTED : ATL_STATUS_ERROR, why);
    goto out;
  }
  const struct atl_device_info *info = atl_device_current(ctx);
  struct strategy_launch l = {.ctx = ctx, .spec = s, .words = nwords, .threads = threads};
  atl__strategy_op(s->op, &l.op);
  l.spin_bound = s->spin_bound ? s->spin_bound : atl_strategy_default_spin_bound(info);
  atl_row_config_number(row, "spin_bound", l.spin_bound);
  const int used = s->result == ATL_RESULT_USED;

  targets = malloc(threads * sizeof *targets);
  active = malloc(threads * sizeof *active);
  words = malloc(nwords * sizeof *words);
  counts = calloc(nwords, sizeof *counts);
  if (!targets || !active || !words || !counts) {
    err = ATL_ENOMEM;
    row_set(row, ATL_STATUS_ERROR, "out of host memory");
    goto out;
  }
  uint64_t active_threads = 0;
  for (uint64_t t = 0; t < threads; t++) {
    targets[t] = atl__strategy_target(s->access, t);
    active[t] = (uint32_t)atl__strategy_active(s, t);
    counts[targets[t]] += active[t];
    active_threads += active[t];
  }
  const size_t record_words = used ? (size_t)threads * VERIFY_ITERS : 1;
  if ((err = atl__device_buffer(ctx, SLOT_WORDS, nwords * 4, &l.buf[SLOT_WORDS])) ||
      (err = atl__device_buffer(ctx, SLOT_LOCKS, waits(s->strategy) ? nwords * 4 : 4, &l.buf[SLOT_LOCKS])) ||
      (err = atl__device_buffer(ctx, SLOT_TARGETS, threads * 4, &l.buf[SLOT_TARGETS])) ||
      (err = atl__device_buffer(ctx, SLOT_ACTIVE, threads * 4, &l.buf[SLOT_ACTIVE])) ||
      (err = atl__device_buffer(ctx, SLOT_ITERS, 4, &l.buf[SLOT_ITERS])) ||
      (err = atl__device_buffer(ctx, SLOT_SINK, used ? threads * 4 : 4, &l.buf[SLOT_SINK])) ||
      (err = atl__device_buffer(ctx, SLOT_RECORD, record_words * 4, &l.buf[SLOT_RECORD])) ||
      (err = atl__device_buffer(ctx, SLOT_STATE, 4, &l.buf[SLOT_STATE])) ||
      (err = ops->write(dev, l.buf[SLOT_TARGETS], targets, threads * 4)) ||
      (err = ops->write(dev, l.buf[SLOT_ACTIVE], active, threads * 4))) {
    row_set(row, ATL_STATUS_ERROR, atl_errmsg(ctx));
    goto out;
  }
  atl__strategy_defines(s, info->warp_size > 1 ? info->warp_size : 32, defines, sizeof defines);
  struct atl_build req = {"strategy", "strategy", defines};
  if ((err = ops->build(dev, &req, &l.kernel))) {
    row_set(row, err == ATL_ENOTSUP ? ATL_STATUS_UNSUPPORTED : ATL_STATUS_ERROR, atl_errmsg(ctx));
    goto out;
  }
  if (ops->describe_kernel)
    ops->describe_kernel(dev, l.kernel, row->instructions, sizeof row->instructions);

  uint32_t cap = tm->max_iters ? tm->max_iters : 1u << 24;
  double first = 0;
  if (!(err = atl__calibrate(strategy_timed_launch, &l, tm, cap, &iters, &first)))
    err = atl__sample(strategy_timed_launch, &l, tm, iters, first, row);
  if (err == ATL_EDEADLOCK) {
    snprintf(why, sizeof why, "a waiter saw the lock held without progress for %u tries in a row and gave up%s",
             l.spin_bound, s->stuck_lock ? " (stuck_lock: every lock starts held)" : "");
    row_set(row, ATL_STATUS_DEADLOCK, why);
    err = 0;
    goto out;
  }
  if (err) {
    row_set(row, ATL_STATUS_ERROR, err == ATL_ENOMEM ? "out of host memory" : atl_errmsg(ctx));
    goto out;
  }
  /* The last timed launch left its final state: every word exact. */
  if ((err = ops->read(dev, l.buf[SLOT_WORDS], words, nwords * 4))) {
    row_set(row, ATL_STATUS_ERROR, atl_errmsg(ctx));
    goto out;
  }
  why[0] = '\0';
  wrong_words = check_final(&l.op, words, counts, nwords, iters, why, sizeof why);
  if (used) {
    /* One more launch that records every old value: per word, they must be
     * x_0 .. x_{n-1} in some order (a serial order of the updates). */
    l.record_on = 1;
    double ms;
    record = malloc(record_words * sizeof *record);
    rec = malloc(active_threads * VERIFY_ITERS * sizeof *rec);
    if (!record || !rec) {
      err = ATL_ENOMEM;
      row_set(row, ATL_STATUS_ERROR, "out of host memory");
      goto out;
    }
    err = strategy_timed_launch(&l, VERIFY_ITERS, &ms);
    if (!err && !(err = ops->read(dev, l.buf[SLOT_WORDS], words, nwords * 4)))
      err = ops->read(dev, l.buf[SLOT_RECORD], record, record_words * 4);
    if (err) {
      row_set(row, err == ATL_EDEADLOCK ? ATL_STATUS_DEADLOCK : ATL_STATUS_ERROR,
              err == ATL_EDEADLOCK ? "a bounded wait gave up in the recording launch" : atl_errmsg(ctx));
      err = 0;
      goto out;
    }
    char why2[256] = "";
    uint64_t wrong = check_final(&l.op, words, counts, nwords, VERIFY_ITERS, why2, sizeof why2);
    size_t n = 0;
    for (uint32_t i = 0; i < VERIFY_ITERS; i++)
      for (uint64_t t = 0; t < threads; t++)
        if (active[t])
          rec[n++] = (struct atl__old_record){targets[t], record[(size_t)i * threads + t]};
    for (uint64_t w = 0; w < nwords; w++)
      counts[w] *= VERIFY_ITERS;
    wrong += atl__strategy_check_olds(&l.op, rec, n, counts, nwords, why2[0] ? why2 + strlen(why2) : why2,
                                      sizeof why2 - strlen(why2));
    olds_checked = n;
    if (!why[0])
      snprintf(why, sizeof why, "%s", why2);
    wrong_words += wrong;
  }
  row->wrong = wrong_words;
  row->verified = wrong_words == 0;
  const uint64_t nops = active_threads * iters;
  atl__row_rate_metrics(row, iters, nops, nwords);
  atl_row_metric_set(row, "olds_checked", (double)olds_checked);
  atl__row_measured(row, why);
  err = 0;
out:
  row->row_seconds = atl__now_s() - row_start;
  free(targets);
  free(active);
  free(words);
  free(counts);
  free(record);
  free(rec);
  return err == ATL_ENOMEM ? err : 0;
}

/* Whether two strategy rows compete: the same pattern, op and result. */
static int same_group(const struct atl_row *a, const struct atl_row *b)
{
  static const char *const keys[] = {"pattern", "op", "result"};
  for (size_t k = 0; k < 3; k++) {
    const char *x = atl_row_config(a, keys[k]), *y = atl_row_config(b, keys[k]);
    if (!x || !y || strcmp(x, y) != 0)
      return 0;
  }
  /* a run on several devices ranks each device's strategies among themselves */
  const char *x = atl_row_config(a, "device"), *y = atl_row_config(b, "device");
  return (!x && !y) || (x && y && strcmp(x, y) == 0);
}

static int ranked(const struct atl_row *r) { return r->status == ATL_STATUS_OK && r->verified; }

void atl_strategy_rank(struct atl_row *rows, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    atl_row_metric_set(&rows[i], "winner", 0);
    atl_row_metric_set(&rows[i], "margin", 0);
  }
  for (size_t i = 0; i < n; i++) {
    double best = 0, second = 0;
    size_t best_at = n;
    int first_of_group = 1;
    for (size_t j = 0; j < i && first_of_group; j++)
      if (same_group(&rows[j], &rows[i]))
        first_of_group = 0;
    if (!first_of_group)
      continue;
    for (size_t j = 0; j < n; j++) {
      if (!same_group(&rows[j], &rows[i]) || !ranked(&rows[j]))
        continue;
      const double gops = atl_row_metric(&rows[j], "gops", 0);
      if (gops > best) {
        second = best;
        best = gops;
        best_at = j;
      } else if (gops > second) {
        second = gops;
      }
    }
    if (best_at == n)
      continue;
    for (size_t j = 0; j < n; j++) {
      if (!same_group(&rows[j], &rows[i]) || !ranked(&rows[j]))
        continue;
      const double gops = atl_row_metric(&rows[j], "gops", 0);
      atl_row_metric_set(&rows[j], "winner", j == best_at);
      atl_row_metric_set(&rows[j], "margin", j == best_at ? (second > 0 ? best / second : 0) : gops > 0 ? best / gops : 0);
    }
  }
}
