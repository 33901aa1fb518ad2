/*
 * Atomics across GPUs: k GPUs add 1 to the same words at once, with
 * system-scope atomics (the ones meant to be atomic across devices) or
 * device-scope ones (the control: not meant to be), the words in the first
 * GPU's memory reached by the others over the link (peer access), in pinned
 * host memory mapped into every GPU, or on the first GPU alone (the
 * baseline of the same pattern). Every GPU's kernel is started by a thread
 * of its own behind one barrier, so the launches overlap; a sample is the
 * slowest GPU's device time. Each row is verified exactly: every word's
 * final value, and (result used) the sum and sum of squares of the old
 * values each word returned, which a permutation of 0..h-1 has.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"

extern const struct atl_app_info atl__app_crossgpu;

enum { MEM_PEER, MEM_HOST, MEM_LOCAL, NMEM };
enum { PAT_WORD, PAT_LINE, PAT_SCATTERED, NPAT };
enum { SCOPE_SYSTEM, SCOPE_DEVICE, NSCOPE };
enum { RES_UNUSED, RES_USED, NRES };
static const char *const mem_names[] = {"peer", "host", "local"};
static const char *const pat_names[] = {"word", "line", "scattered"};
static const char *const scope_names[] = {"system", "device"};
static const char *const res_names[] = {"unused", "used"};

#define LINE_WORDS 32u /* 128-byte lines of 4-byte words */

/* One GPU of the run: its context, kernel, launch and the time of its last launch. */
struct gpu {
  atl_context_t ctx;
  int own; /* opened here (the first is the caller's) */
  void *kernel, *sink;
  struct atl_arg args[7];
  struct atl_launch launch;
  double ms;
  int err;
};

struct xrun {
  struct gpu *gpus;
  unsigned n;              /* GPUs of this row */
  void *words, *host;      /* the words as kernels see them; host: their host address (host memory) */
  size_t word_bytes;
  atomic_int go; /* the launches of one sample start together: 0 wait, 1 go, -1 give up */
  const char *not_native; /* why the driver does not promise atomics on these words across the GPUs, or NULL */
};

struct launch_arg {
  struct xrun *x;
  unsigned k;
};

static void *launch_one(void *arg)
{
  struct launch_arg *a = arg;
  struct gpu *g = &a->x->gpus[a->k];
  int go;
  while ((go = atomic_load(&a->x->go)) == 0)
    ; /* microseconds: until the last GPU's thread exists */
  if (go < 0)
    return NULL;
  g->err = atl__ops(g->ctx)->launch(atl__dev(g->ctx), g->kernel, &g->launch, &g->ms);
  return NULL;
}

/* One sample: the words zeroed, then every GPU's launch at @p iters at once; *ms: the slowest GPU's time. */
static int launch_all(void *arg, uint32_t iters, double *ms)
{
  struct xrun *x = arg;
  struct gpu *g0 = &x->gpus[0];
  int err = 0;
  if (x->host)
    memset(x->host, 0, x->word_bytes);
  else
    err = atl__app_fill32(g0->ctx, x->words, 0, x->word_bytes);
  if (err)
    return err;
  for (unsigned k = 0; k < x->n; k++)
    x->gpus[k].args[2].value = iters;
  pthread_t th[ATL_MAX_DEVICES];
  struct launch_arg la[ATL_MAX_DEVICES];
  unsigned started = 0;
  atomic_store(&x->go, 0);
  for (unsigned k = 1; k < x->n; k++) {
    la[k] = (struct launch_arg){x, k};
    if (pthread_create(&th[k], NULL, launch_one, &la[k]) != 0)
      break;
    started++;
  }
  if (started + 1 < x->n) { /* a thread is missing: the launches would not overlap */
    atomic_store(&x->go, -1);
    for (unsigned k = 1; k <= started; k++)
      pthread_join(th[k], NULL);
    return atl__seterr(g0->ctx, ATL_ENOMEM, "crossgpu: no thread for every GPU");
  }
  atomic_store(&x->go, 1);
  la[0] = (struct launch_arg){x, 0};
  launch_one(&la[0]);
  for (unsigned k = 1; k < x->n; k++)
    pthread_join(th[k], NULL);
  *ms = 0;
  for (unsigned k = 0; k < x->n; k++) {
    if (x->gpus[k].err)
      return x->gpus[k].err;
    if (x->gpus[k].ms > *ms)
      *ms = x->gpus[k].ms;
  }
  return 0;
}

/* h(h-1)/2 and (h-1)h(2h-1)/6 modulo 2^64: the sum and sum of squares of 0..h-1, divided before multiplying. */
static uint64_t sum0(uint64_t h) { return h == 0 ? 0 : (h % 2 ? h * ((h - 1) / 2) : (h / 2) * (h - 1)); }
static uint64_t sumsq0(uint64_t h)
{
  if (h == 0)
    return 0;
  uint64_t f[3] = {h - 1, h, 2 * h - 1};
  for (int i = 0; i < 3; i++)
    if (f[i] % 2 == 0) {
      f[i] /= 2;
      break;
    }
  for (int i = 0; i < 3; i++)
    if (f[i] % 3 == 0) {
      f[i] /= 3;
      break;
    }
  return f[0] * f[1] * f[2];
}

/* The shape of pattern @p pat for @p total threads: threads per word and words between targets. */
static void shape(int pat, uint64_t total, uint32_t *contention, uint32_t *padding)
{
  *padding = pat == PAT_SCATTERED ? LINE_WORDS : 1;
  *contention = pat == PAT_WORD        ? (uint32_t)total
                : pat == PAT_LINE      ? (uint32_t)((total + LINE_WORDS - 1) / LINE_WORDS)
                                       : 2; /* scattered: pairs, one thread of each of two GPUs */
}

/* Checks the last launch: each word's final value, the gaps, and (used) the returned values' sums. */
static int verify(struct xrun *x, const struct atl_crossgpu_params *p, int used, uint64_t threads_per_gpu,
                  uint32_t contention, uint32_t padding, uint32_t iters, struct atl_row *row)
{
  const uint64_t total = threads_per_gpu * x->n, nwords = (total + contention - 1) / contention;
  const size_t span = (size_t)((nwords - 1) * padding + 1);
  uint32_t *words = x->host ? NULL : malloc(span * 4);
  uint64_t *sink = used ? malloc(threads_per_gpu * 16) : NULL;
  int err = 0;
  if ((!x->host && words == NULL) || (used && sink == NULL))
    err = atl__seterr(x->gpus[0].ctx, ATL_ENOMEM, "out of host memory");
  if (!err && !x->host)
    err = atl__ops(x->gpus[0].ctx)->read(atl__dev(x->gpus[0].ctx), x->words, words, span * 4);
  const uint32_t *got = x->host ? x->host : words;
  uint64_t wrong = 0, expected_total = 0, got_total = 0, e1 = 0, e2 = 0, s1 = 0, s2 = 0;
  char first[160] = "";
  for (size_t i = 0; !err && i < span; i++) {
    uint64_t want = 0;
    if (i % padding == 0) {
      const uint64_t w = i / padding, lo = w * contention;
      const uint64_t hitters = total - lo < contention ? total - lo : contention;
      want = hitters * iters;
      e1 += sum0(want);
      e2 += sumsq0(want);
    }
    expected_total += want;
    got_total += got[i];
    if (got[i] != (uint32_t)want && wrong++ == 0)
      snprintf(first, sizeof first, "word %zu holds %u, expected %llu", i, got[i], (unsigned long long)want);
  }
  for (unsigned k = 0; !err && used && k < x->n; k++) {
    struct gpu *g = &x->gpus[k];
    err = atl__ops(g->ctx)->read(atl__dev(g->ctx), g->sink, sink, threads_per_gpu * 16);
    for (uint64_t t = 0; !err && t < threads_per_gpu; t++) {
      s1 += sink[2 * t];
      s2 += sink[2 * t + 1];
    }
  }
  free(words);
  free(sink);
  if (err)
    return err;
  const int sums_ok = !used || (s1 == e1 && s2 == e2);
  row->wrong = wrong + !sums_ok;
  row->verified = wrong == 0 && sums_ok;
  atl_row_metric_set(row, "lost_updates", (double)expected_total - (double)got_total);
  if (used)
    atl_row_metric_set(row, "olds_checked", (double)expected_total);
  if (!row->verified)
    snprintf(row->reason, sizeof row->reason, "%llu of %zu words wrong%s%s%s; %.0f of %llu updates lost",
             (unsigned long long)wrong, span, first[0] ? " (first: " : "", first, first[0] ? ")" : "",
             (double)expected_total - (double)got_total, (unsigned long long)expected_total);
  if (!sums_ok)
    snprintf(row->reason + strlen(row->reason), sizeof row->reason - strlen(row->reason),
             "%sthe old values returned are not a permutation of 0..h-1 per word (sum %llu, expected %llu)",
             row->reason[0] ? "; " : "", (unsigned long long)s1, (unsigned long long)e1);
  (void)p;
  return 0;
}

/* One row: memory @p mem, pattern, scope and result use, on x->n GPUs whose words are already placed. */
static int run_row(struct xrun *x, const struct atl_crossgpu_params *p, const struct atl_app_timing *tm, int mem,
                   int pat, int scope, int used, struct atl_result_set *out)
{
  char variant[64], defines[64];
  snprintf(variant, sizeof variant, "%s-%s-%s-%s", mem_names[mem], scope_names[scope], pat_names[pat],
           res_names[used]);
  struct atl_row row;
  atl__app_row_init(&row, "crossgpu", variant);
  const uint64_t per_gpu = (uint64_t)p->workgroups * p->wg_size, total = per_gpu * x->n;
  uint32_t contention, padding;
  shape(pat, total, &contention, &padding);
  snprintf(defines, sizeof defines, "SCOPE_%s RESULT_USED=%d", scope_names[scope], used);
  int err = 0;
  for (unsigned k = 0; !err && k < x->n; k++) {
    struct gpu *g = &x->gpus[k];
    err = atl__app_build(g->ctx, "crossgpu", "crossgpu", defines, &g->kernel, k == 0 ? &row : NULL);
    g->args[0] = (struct atl_arg){ATL_ARG_BUFFER, x->words, 0};
    g->args[1] = (struct atl_arg){ATL_ARG_BUFFER, g->sink, 0};
    g->args[2] = (struct atl_arg){ATL_ARG_U32, NULL, 1};
    g->args[3] = (struct atl_arg){ATL_ARG_U32, NULL, k};
    g->args[4] = (struct atl_arg){ATL_ARG_U32, NULL, x->n};
    g->args[5] = (struct atl_arg){ATL_ARG_U32, NULL, contention};
    g->args[6] = (struct atl_arg){ATL_ARG_U32, NULL, padding};
    g->launch = (struct atl_launch){(size_t)per_gpu, p->wg_size, g->args, 7};
  }
  struct atl_timing t;
  atl__app_sampling(tm, &t);
  t.target_ms = p->target_ms;
  uint32_t iters = 1;
  double first = 0;
  /* iters x the hits of one word must fit its 32 bits: the cap keeps the most contended word below 2^31 */
  const uint64_t cap64 = (UINT32_MAX / 2) / contention;
  const uint32_t cap = cap64 < 1 ? 1 : cap64 > t.max_iters ? t.max_iters : (uint32_t)cap64;
  if (!err)
    err = atl__calibrate(launch_all, x, &t, cap, &iters, &first);
  if (!err)
    err = atl__sample(launch_all, x, &t, iters, first, &row);
  if (!err)
    err = verify(x, p, used, per_gpu, contention, padding, iters, &row);
  if (err) {
    atl__app_row_status(&row, ATL_STATUS_ERROR, "%s", atl_errmsg(x->gpus[0].ctx));
  } else {
    row.status = ATL_STATUS_OK;
    const double ops = (double)total * iters;
    atl_row_metric_set(&row, "gpus", x->n);
    atl_row_metric_set(&row, "threads", (double)total);
    atl_row_metric_set(&row, "contention", contention);
    atl_row_metric_set(&row, "padding", padding);
    atl_row_metric_set(&row, "iters", iters);
    atl_row_metric_set(&row, "ops", ops);
    if (row.time_ms.median > 0)
      atl_row_metric_set(&row, "gops", ops / (row.time_ms.median * 1e6));
    /* Device scope across GPUs is the control, and so is memory whose atomics the driver says are not native
     * (host memory without CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED, a link without native atomics):
     * what they do is reported, never a failure of the run. */
    if (x->n > 1 && scope == SCOPE_SYSTEM && x->not_native) {
      atl_row_metric_set(&row, "control", 1);
      char why[sizeof row.reason];
      snprintf(why, sizeof why, "%s", row.reason);
      snprintf(row.reason, sizeof row.reason, "control: %s%s%.250s", x->not_native, why[0] ? ": " : "", why);
    } else if (scope == SCOPE_DEVICE && x->n > 1) {
      atl_row_metric_set(&row, "control", 1);
      if (row.verified)
        snprintf(row.reason, sizeof row.reason, "control: device-scope atomics across %u GPUs lost no update in "
                 "this run (not guaranteed)", x->n);
      else {
        char why[sizeof row.reason];
        snprintf(why, sizeof why, "%s", row.reason);
        snprintf(row.reason, sizeof row.reason, "control: device-scope atomics are not atomic across GPUs: %.300s",
                 why);
      }
    }
  }
  err = err == ATL_ENOMEM ? err : 0;
  return atl_result_set_add(out, &row) ? ATL_ENOMEM : err;
}

/* Rows of memory @p mem that cannot run, each with the reason. */
static int unsupported(const struct atl_crossgpu_params *p, int mem, const char *why, struct atl_result_set *out)
{
  for (int pat = 0; pat < NPAT; pat++)
    for (int sc = 0; sc < NSCOPE; sc++)
      for (int r = 0; r < NRES; r++) {
        if (!(p->patterns >> pat & 1) || !(p->scopes >> sc & 1) || !(p->results >> r & 1))
          continue;
        char variant[64];
        struct atl_row row;
        snprintf(variant, sizeof variant, "%s-%s-%s-%s", mem_names[mem], scope_names[sc], pat_names[pat],
                 res_names[r]);
        atl__app_row_init(&row, "crossgpu", variant);
        atl__app_row_status(&row, ATL_STATUS_UNSUPPORTED, "%s", why);
        if (atl_result_set_add(out, &row))
          return ATL_ENOMEM;
      }
  return 0;
}

/* Opens the other GPUs: the CUDA devices after the open one, in order, until @p want are open. */
static unsigned open_gpus(atl_context_t ctx, struct gpu *gpus, unsigned want, char *why, size_t len,
                          struct atl_peer_info *links)
{
  const struct atl_device_info *me = atl_device_current(ctx), *list = NULL;
  size_t n = 0;
  unsigned have = 1;
  gpus[0].ctx = ctx;
  atl_context_t probe = NULL;
  if (atl_context_new(&probe) != 0 || atl_devices(probe, &list, &n) != 0) {
    snprintf(why, len, "listing the devices failed");
    atl_context_free(probe);
    return have;
  }
  size_t mine = 0;
  while (mine < n && strcmp(list[mine].id, me->id) != 0)
    mine++;
  if (mine < n) /* the first GPU's own facts: its atomics on host memory */
    atl_device_peer_info(probe, mine, mine, &links[0]);
  for (size_t i = 0; i < n && have < want; i++) {
    if (strcmp(list[i].backend, me->backend) != 0 || strcmp(list[i].id, me->id) == 0)
      continue;
    if (mine < n) /* the link from this GPU to the first, whose memory the peer rows use */
      atl_device_peer_info(probe, i, mine, &links[have]);
    atl_context_t c = NULL;
    if (atl_context_new(&c) != 0)
      break;
    if (atl_device_open(c, list[i].id, me->backend) != 0) {
      snprintf(why, len, "opening %s failed: %s", list[i].id, atl_errmsg(c));
      atl_context_free(c);
      continue;
    }
    gpus[have].ctx = c;
    gpus[have++].own = 1;
  }
  atl_context_free(probe);
  return have;
}

int atl_app_crossgpu(atl_context_t ctx, const struct atl_crossgpu_params *p, const struct atl_app_timing *tm,
                     struct atl_result_set *out)
{
  int err = atl__app_checked(ctx, &atl__app_crossgpu, p);
  if (err)
    return err;
  const struct atl_device_info *dev = atl_device_current(ctx);
  const struct atl_backend_ops *ops = atl__ops(ctx);
  if (!dev->kernels_cuda_c || ops->peer_enable == NULL || ops->host_alloc == NULL) {
    for (int m = 0; m < NMEM && !err; m++)
      if (p->memory >> m & 1)
        err = unsupported(p, m, "crossgpu needs the CUDA backend: system-scope atomics, peer access and mapped host "
                          "memory", out);
    return err;
  }
  struct gpu gpus[ATL_MAX_DEVICES];
  struct atl_peer_info links[ATL_MAX_DEVICES];
  memset(gpus, 0, sizeof gpus);
  memset(links, 0, sizeof links);
  char why[200] = "";
  const unsigned ngpus = open_gpus(ctx, gpus, p->gpus, why, sizeof why, links);
  const uint64_t per_gpu = (uint64_t)p->workgroups * p->wg_size;
  /* The largest span any row touches: scattered on every GPU (pairs of threads, a line apart). */
  const size_t word_bytes = (size_t)((per_gpu * p->gpus / 2 + 1) * LINE_WORDS * 4);
  for (unsigned k = 0; !err && k < ngpus; k++)
    err = atl__ops(gpus[k].ctx)->alloc(atl__dev(gpus[k].ctx), (size_t)per_gpu * 16, &gpus[k].sink);
  for (int m = 0; !err && m < NMEM && !atl_stop_requested(); m++) {
    if (!(p->memory >> m & 1))
      continue;
    struct xrun x = {gpus, m == MEM_LOCAL ? 1 : p->gpus, NULL, NULL, 0, 0, NULL};
    if (m == MEM_HOST && !links[0].host_native_atomics)
      x.not_native = "the driver reports no native atomics on host memory (HOST_NATIVE_ATOMIC_SUPPORTED 0)";
    for (unsigned k = 1; m == MEM_PEER && k < ngpus && k < x.n; k++)
      if (!links[k].native_atomics)
        x.not_native = "the driver reports no native atomics over the link (P2P NATIVE_ATOMIC_SUPPORTED 0)";
    char reason[300] = "";
    if (m != MEM_LOCAL && ngpus < p->gpus)
      snprintf(reason, sizeof reason, "needs %u GPUs of the %s backend, found %u%s%s", p->gpus, dev->backend, ngpus,
               why[0] ? ": " : "", why);
    for (unsigned k = 1; !reason[0] && m == MEM_PEER && k < x.n; k++)
      if (atl__ops(gpus[k].ctx)->peer_enable(atl__dev(gpus[k].ctx), atl__dev(ctx)) != 0)
        snprintf(reason, sizeof reason, "peer access: %s", atl_errmsg(gpus[k].ctx));
    if (reason[0]) {
      err = unsupported(p, m, reason, out);
      continue;
    }
    x.word_bytes = word_bytes;
    err = m == MEM_HOST ? ops->host_alloc(atl__dev(ctx), word_bytes, &x.words, &x.host)
                        : ops->alloc(atl__dev(ctx), word_bytes, &x.words);
    if (err)
      break;
    for (int pat = 0; pat < NPAT && ATL_APP_GO_ON(err); pat++)
      for (int sc = 0; sc < NSCOPE && ATL_APP_GO_ON(err); sc++)
        for (int r = 0; r < NRES && ATL_APP_GO_ON(err); r++)
          if ((p->patterns >> pat & 1) && (p->scopes >> sc & 1) && (p->results >> r & 1))
            err = run_row(&x, p, tm, m, pat, sc, r, out);
    if (m == MEM_HOST)
      ops->host_free(atl__dev(ctx), x.host);
    else
      ops->free(atl__dev(ctx), x.words);
  }
  for (unsigned k = 0; k < ngpus; k++) {
    if (gpus[k].sink)
      atl__ops(gpus[k].ctx)->free(atl__dev(gpus[k].ctx), gpus[k].sink);
    if (gpus[k].own)
      atl_context_free(gpus[k].ctx);
  }
  return err;
}

static void crossgpu_defaults(const struct atl_device_info *d, void *params)
{
  struct atl_crossgpu_params *p = params;
  if (p->wg_size == 0)
    p->wg_size = atl__app_default_wg(d, 0);
  if (p->workgroups == 0)
    p->workgroups = d->compute_units ? 2 * d->compute_units : 2;
}

static int crossgpu_check(const struct atl_device_info *d, const void *params, char *why, size_t len)
{
  const struct atl_crossgpu_params *p = params;
  if (p->wg_size == 0 || p->wg_size > d->max_wg_size)
    return atl__app_why(why, len, "wg-size %u is not allowed: 1 to %zu on %s", p->wg_size, d->max_wg_size, d->name);
  if ((uint64_t)p->workgroups * p->wg_size * p->gpus > (1u << 26))
    return atl__app_why(why, len, "workgroups %u is not allowed: workgroups x wg-size x gpus up to 2^26",
                        p->workgroups);
  return 0;
}

/* What a run allocates at most (atl_app_info.bytes_needed): the words of the scattered rows on every GPU's threads
 * (pairs a 128-byte line apart) on the first GPU, pinned on the host for --memory host, and read back to verify;
 * each GPU's sink of 16 bytes a thread, read back too (the device figure is the first GPU's). */
static void crossgpu_bytes(const struct atl_device_info *d, const void *params, struct atl_app_bytes *need)
{
  const struct atl_crossgpu_params *p = params;
  const uint64_t per_gpu = (uint64_t)p->workgroups * p->wg_size, sink = per_gpu * 16;
  const uint64_t words = (per_gpu * p->gpus / 2 + 1) * LINE_WORDS * 4;
  (void)d;
  *need = (struct atl_app_bytes){words * ((p->memory >> MEM_HOST & 1) + 1) + sink, words + sink,
                                 "workgroups"};
}

static int crossgpu_run(atl_context_t ctx, const void *params, const struct atl_app_timing *tm,
                        struct atl_result_set *out)
{
  return atl_app_crossgpu(ctx, params, tm, out);
}

#define P(field) .offset = offsetof(struct atl_crossgpu_params, field)
static const struct atl_app_option crossgpu_options[] = {
    {"gpus", ATL_APP_OPT_U32, P(gpus), .min = 2, .max = ATL_MAX_DEVICES, .def = "2", .arg = "N",
     .help = "GPUs that update the same words: the open device and the next ones of its backend"},
    {"memory", ATL_APP_OPT_SET, P(memory), .names = mem_names, .nnames = NMEM, .def = "all", .arg = "LIST",
     .help = "where the words are: peer (the first GPU's memory, the others over the link), host (pinned and "
             "mapped), local (the first GPU alone: the baseline), or all"},
    {"pattern", ATL_APP_OPT_SET, P(patterns), .names = pat_names, .nnames = NPAT, .def = "all", .arg = "LIST",
     .help = "word (every thread of every GPU on one word), line (one 128-byte line), scattered (pairs of threads "
             "of two GPUs per word, a line apart), or all"},
    {"scope", ATL_APP_OPT_SET, P(scopes), .names = scope_names, .nnames = NSCOPE, .def = "all", .arg = "LIST",
     .help = "system (atomicAdd_system) or device (atomicAdd: the control across GPUs), or all"},
    {"result", ATL_APP_OPT_SET, P(results), .names = res_names, .nnames = NRES, .def = "all", .arg = "LIST",
     .help = "unused (a reduction, RED) or used (ATOM, the old values checked), or all"},
    ATL__APP_OPT_WG(struct atl_crossgpu_params, 1024, "threads per block"),
    {"workgroups", ATL_APP_OPT_U32, P(workgroups), .min = 1, .max = 0x1p20, .arg = "N",
     .def_help = "2 per SM", .help = "blocks per GPU"},
    {"target-ms", ATL_APP_OPT_DOUBLE, P(target_ms), .min = 0.01, .max = 10000, .def = "10", .arg = "X",
     .help = "calibrate iterations until one launch takes X ms"},
    {0}};
#undef P

const struct atl_app_info atl__app_crossgpu = {
    .name = "crossgpu",
    .summary = "atomics across GPUs: system vs device scope, peer vs host memory, against one GPU",
    .params_size = sizeof(struct atl_crossgpu_params),
    .description =
        "--gpus GPUs add 1 to the same words at once (their launches start behind one\n"
        "barrier; a sample is the slowest GPU's time), with system-scope atomics or\n"
        "device-scope ones (the control, not meant to be atomic across GPUs: its rows\n"
        "say what happened and never fail the run), the words in the first GPU's memory\n"
        "(peer access over NVLink or PCIe), in pinned mapped host memory, or on the\n"
        "first GPU alone (the baseline). Every row is verified: each word's final value,\n"
        "and with --result used the old values each word returned (their sum and sum of\n"
        "squares, those of 0..h-1). CUDA only; elsewhere the rows are unsupported.",
    .options = crossgpu_options,
    .defaults = crossgpu_defaults,
    .check = crossgpu_check,
    .run = crossgpu_run,
    .spans_devices = 1,
    .bytes_needed = crossgpu_bytes,
};
