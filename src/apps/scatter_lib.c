/*
 * The library's scatter-add (include/atomlab/scatter.h): the app's kernels without the measurement. The
 * atomic mode runs the method the app's `auto` rule picks (scatter_auto.c: from dim, the output against the
 * L2 and two shares of the keys, measured here on a sample of the keys unless the caller's hint says
 * what they are), through the launches the app's rows measured (scatter_launch.c); the deterministic mode is
 * the det variant's passes (scatter_det.c).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab/scatter.h"
#include "core/fields.h"
#include "core/timing.h"
#include "scatter_auto.h"
#include "scatter_det.h"
#include "scatter_guard.h"
#include "scatter_launch.h"
#include "scatter_lib.h"
#include "scatter_variants.h"

int atl_buffer_new(atl_context_t ctx, size_t bytes, atl_buffer_t *out)
{
  if (ctx == NULL)
    return ATL_EINVAL;
  if (out == NULL)
    return atl__seterr(ctx, ATL_EINVAL, "buffer: out is NULL: a place for the buffer is needed");
  *out = NULL;
  const struct atl_device_info *dev = atl_device_current(ctx);
  if (dev == NULL)
    return atl__seterr(ctx, ATL_ENODEV, "buffer: no device open");
  if (dev->max_alloc && bytes > dev->max_alloc)
    return atl__seterr(ctx, ATL_EINVAL, "buffer: bytes %zu is not allowed: at most the device's largest allocation, "
                       "%llu", bytes, (unsigned long long)dev->max_alloc);
  struct atl_buffer *b = calloc(1, sizeof *b);
  if (b == NULL)
    return atl__seterr(ctx, ATL_ENOMEM, "buffer: out of host memory");
  int err = atl__ops(ctx)->alloc(atl__dev(ctx), bytes ? bytes : 4, &b->handle);
  if (err) {
    free(b);
    return err;
  }
  b->bytes = bytes, b->ctx = ctx, b->opened = ctx->opened;
  b->next = ctx->buffers; /* on the device's list: its close releases the handle */
  if (b->next)
    b->next->prev = b;
  ctx->buffers = b;
  *out = b;
  return 0;
}

/* @p buf (named @p what in the message) is a buffer of this context's open device: 0, else ATL_EINVAL (NULL, of
 * another context, of a device since closed) or ATL_ENODEV (none open). */
static int buffer_owned(atl_context_t ctx, atl_buffer_t buf, const char *what)
{
  if (atl_device_current(ctx) == NULL)
    return atl__seterr(ctx, ATL_ENODEV, "%s: no device open", what);
  if (buf == NULL)
    return atl__seterr(ctx, ATL_EINVAL, "%s is NULL: a buffer of atl_buffer_new is needed", what);
  if (buf->ctx != ctx || buf->opened != ctx->opened || buf->handle == NULL)
    return atl__seterr(ctx, ATL_EINVAL, "%s is not allowed: a buffer of %s; only the open device's are",
                       what, buf->ctx != ctx ? "another context" : "a device since closed");
  return 0;
}

static int transfer_check(atl_context_t ctx, atl_buffer_t buf, const void *host, size_t bytes)
{
  if (ctx == NULL)
    return ATL_EINVAL;
  const int err = buffer_owned(ctx, buf, "buffer");
  if (err)
    return err;
  if (host == NULL)
    return atl__seterr(ctx, ATL_EINVAL, "buffer: host is NULL: host memory of the bytes is needed");
  if (bytes > buf->bytes)
    return atl__seterr(ctx, ATL_EINVAL, "buffer: bytes %zu is not allowed: at most the buffer's %zu", bytes,
                       buf->bytes);
  return 0;
}

int atl_buffer_write(atl_context_t ctx, atl_buffer_t buf, const void *host, size_t bytes)
{
  const int err = transfer_check(ctx, buf, host, bytes);
  if (err)
    return err;
  buf->writes++; /* a pick's shares of its keys are stale from here */
  return atl__ops(ctx)->write(atl__dev(ctx), buf->handle, host, bytes);
}

int atl_buffer_read(atl_context_t ctx, atl_buffer_t buf, void *host, size_t bytes)
{
  const int err = transfer_check(ctx, buf, host, bytes);
  return err ? err : atl__ops(ctx)->read(atl__dev(ctx), buf->handle, host, bytes);
}

void atl_buffer_free(atl_context_t ctx, atl_buffer_t buf)
{
  (void)ctx; /* the buffer's own context frees it: a buffer given with another is not left on its list */
  /* a buffer of a closed device has no handle left: the device's close released it */
  if (buf && buf->handle) {
    atl_context_t owner = buf->ctx;
    if (buf->wrapped) /* the program's memory: only atomlab's handle goes */
      atl__buffer_unwrap(owner, buf);
    else
      atl__ops(owner)->free(atl__dev(owner), buf->handle);
    if (buf->prev)
      buf->prev->next = buf->next;
    else
      owner->buffers = buf->next;
    if (buf->next)
      buf->next->prev = buf->prev;
  }
  free(buf);
}

/* The descriptor's fields and what each allows (core/fields.h). */
#define DESC_FIELD(member, lo, hi, text) ATL__FIELD(struct atl_scatter_desc, member, lo, hi, text)
static const struct atl__field desc_fields[] = {
    DESC_FIELD(type, 0, ATL_SCATTER_F16, "f32, u32, i32, bf16 or f16 (0 to 4)"),
    {"index_bytes", offsetof(struct atl_scatter_desc, index_bytes), sizeof(unsigned), 4, 8, 1u << 4 | 1u << 8,
     "4 or 8"},
    DESC_FIELD(rows, 1, UINT32_MAX, "1 to 2^32 - 1"),
    DESC_FIELD(targets, 1, UINT32_MAX, "1 to 2^32 - 1"),
    DESC_FIELD(dim, 1, 512, "1 to 512"),
    DESC_FIELD(deterministic, 0, 1, "0 or 1"),
    DESC_FIELD(keys, 0, ATL_SCATTER_KEYS_RUNS, "sample, spread, head or runs (0 to 3)"),
    DESC_FIELD(method, 0, ATL_SCATTER_BUCKET, "auto, atomic, run, block, bins, part, part1, dsm, sweep or bucket (0 to 9)"),
    DESC_FIELD(unchecked_keys, 0, 1, "0 or 1"),
};

/* The first field of @p d out of its range: a one-line reason naming it, else 0. */
static int desc_checked(atl_context_t ctx, const struct atl_scatter_desc *d)
{
  char why[200];
  if (atl__fields_check(d, desc_fields, sizeof desc_fields / sizeof desc_fields[0], why, sizeof why) == 0)
    return 0;
  return atl__seterr(ctx, ATL_EINVAL, "scatter_add: %s", why);
}

/* The descriptor against the buffers (the keys' only where @p keys_only: atl_scatter_method_for reads no other):
 * a one-line reason naming the field or buffer, else 0. */
static int scatter_checked(atl_context_t ctx, const struct atl_scatter_desc *d, atl_buffer_t out, atl_buffer_t src,
                           atl_buffer_t idx, int keys_only)
{
  if (d == NULL)
    return atl__seterr(ctx, ATL_EINVAL, "scatter_add: d is NULL: a descriptor is needed");
  int err = desc_checked(ctx, d);
  const struct {
    atl_buffer_t buf;
    const char *name;
    uint64_t need;
  } bufs[] = {{idx, "scatter_add: idx", d->rows * d->index_bytes},
              {src, "scatter_add: src", d->rows * d->dim * (d->type >= ATL_SCATTER_BF16 ? 2u : 4u)},
              {out, "scatter_add: out", d->targets * d->dim * (d->type >= ATL_SCATTER_BF16 ? 2u : 4u)}};
  for (size_t i = 0; !err && i < (keys_only ? 1u : 3u); i++) {
    if ((err = buffer_owned(ctx, bufs[i].buf, bufs[i].name)))
      break;
    if (bufs[i].buf->bytes < bufs[i].need)
      err = atl__seterr(ctx, ATL_EINVAL,
                        "%s %zu bytes is not allowed: rows, targets, dim, type and index_bytes need %llu",
                        bufs[i].name, bufs[i].buf->bytes, (unsigned long long)bufs[i].need);
  }
  if (!err && !keys_only && (out == src || out->handle == src->handle || out == idx || out->handle == idx->handle))
    err = atl__seterr(ctx, ATL_EINVAL, "scatter_add: out is not allowed: the same buffer as %s (out must be its own)",
                      out == src || out->handle == src->handle ? "src" : "idx");
  return err;
}

const char *atl_scatter_method_name(enum atl_scatter_method m)
{
  return (unsigned)m <= ATL_SCATTER_BUCKET ? atl__scatter_methods[m].name : "?";
}

#define NOT_COUNTED 0xffffffffu /* a share's host word before the count writes it: a count is at most the pairs */
#define SPIN_S 0.002              /* the host's spin on those words before it waits for the device instead */

/* The sample's count launched (src/kernels/scatter_shares.k.c); *mapped where its two words come back through
 * atl__host_words (written once, when the count is done), so that the wait for them is not a wait for what follows it
 * in the queue (the keys' check). One launch and two words, where a host count read 256 KiB back and hashed them
 * (0.5 to 0.75 ms a call on an H200's host). */
static int sample_start(atl_context_t ctx, const struct atl_scatter_desc *d, atl_buffer_t idx, int *mapped_out)
{
  const uint32_t wg = 64, slots = 2 * ATL__SCATTER_SAMPLE_PAIRS, least = ATL__SCATTER_SAMPLE_LEAST;
  const size_t bytes = (4 + 2 * (4 + 2 * (size_t)slots)) * 4; /* 4 words, then two tables (the kernel's layout) */
  const int fresh = ctx->device_buffers[ATL__SCATTER_SLOT_SHARES].ptr == NULL;
  void *kernel = NULL, *tables = NULL, *mapped = NULL;
  volatile uint32_t *host = NULL;
  int err = atl__app_build(ctx, "scatter_shares", "scatter_shares", d->index_bytes == 8 ? "IDX_T=ulong" : "IDX_T=uint",
                           &kernel, NULL);
  if (!err)
    err = atl__device_buffer(ctx, ATL__SCATTER_SLOT_SHARES, bytes, &tables);
  if (!err && fresh) /* both tables zeroed once; from here each call zeroes the next one's */
    err = atl__app_fill32(ctx, tables, 0, bytes);
  if (!err && !ctx->external)
    err = atl__host_words(ctx, &mapped, &host);
  if (host)
    host[ATL__SCATTER_HOST_SHARES] = host[ATL__SCATTER_HOST_SHARES + 1] = NOT_COUNTED;
  struct atl_arg args[] = {{ATL_ARG_BUFFER, idx->handle, 0},
                           {ATL_ARG_U64, NULL, d->rows},
                           {ATL_ARG_U32, NULL, ATL__SCATTER_SAMPLE_PAIRS},
                           {ATL_ARG_U32, NULL, slots},
                           {ATL_ARG_U32, NULL, least},
                           {ATL_ARG_BUFFER, tables, 0},
                           {ATL_ARG_U32, NULL, ctx->shares_turn},
                           {ATL_ARG_BUFFER, mapped ? mapped : tables, 0}};
  const size_t threads = (ATL__SCATTER_SAMPLE_PAIRS + wg - 1) / wg * wg;
  /* untimed: enqueued, and sample_wait waits for it */
  if (!err && !(err = atl__ops(ctx)->launch(atl__dev(ctx), kernel, &(struct atl_launch){threads, wg, args, 8}, NULL)))
    ctx->shares_turn ^= 1u; /* the launch zeroes the other table: the next call counts into it */
  *mapped_out = mapped != NULL;
  return err;
}

/* both of the sample's host words written by its count */
static int counted(const volatile uint32_t *w) { return w[0] != NOT_COUNTED && w[1] != NOT_COUNTED; }

/* The sample's two words: spun for in the host words where they come there (SPIN_S, then the device's wait), else
 * read from the tables' first words. */
static int sample_wait(atl_context_t ctx, int mapped, uint32_t w[2])
{
  const struct atl_backend_ops *ops = atl__ops(ctx);
  if (!mapped)
    return ops->read(atl__dev(ctx), ctx->device_buffers[ATL__SCATTER_SLOT_SHARES].ptr, w, 2 * sizeof *w);
  const volatile uint32_t *host = (const volatile uint32_t *)ctx->host_words.host + ATL__SCATTER_HOST_SHARES;
  for (const double until = atl__now_s() + SPIN_S; !counted(host) && atl__now_s() < until;)
    ;
  int err = counted(host) ? 0 : ops->finish(atl__dev(ctx));
  if (!err && !counted(host))
    err = atl__seterr(ctx, ATL_EBACKEND, "scatter_add: the pick's count of the keys ran without writing its shares");
  w[0] = host[0], w[1] = host[1];
  return err;
}

int atl__scatter_sample_shares(atl_context_t ctx, const struct atl_scatter_desc *d, atl_buffer_t idx, uint32_t w[2])
{
  int mapped = 0;
  const int err = sample_start(ctx, d, idx, &mapped);
  return err ? err : sample_wait(ctx, mapped, w);
}

/* A pick under way: the rule's facts, and the sample's count where the shares are still coming from the device. */
struct pick {
  struct atl__scatter_tuning tuning;
  struct atl__scatter_stats st;
  int sampling, mapped; /* the sample's count launched (sample_start), its words in the host words */
};

/* @p run and @p head kept as @p idx's shares while it is not written again; a wrapped buffer's memory is the
 * program's to write, so its shares are measured every call. */
static void keep_shares(const struct atl_scatter_desc *d, atl_buffer_t idx, double run, double head)
{
  if (!idx->wrapped)
    idx->shares = (struct atl__key_shares){1, idx->writes, d->rows, d->index_bytes, run, head};
}

/* The shares of every key, read back and counted on the host. */
static int shares_on_host(atl_context_t ctx, const struct atl_scatter_desc *d, atl_buffer_t idx, double *run,
                          double *head)
{
  const size_t n = (size_t)d->rows;
  uint64_t *k = malloc(n * sizeof *k);
  if (k == NULL)
    return atl__seterr(ctx, ATL_ENOMEM, "scatter_add: out of host memory for the keys");
  int err = atl__ops(ctx)->read(atl__dev(ctx), idx->handle, k, n * d->index_bytes);
  for (size_t i = n; !err && d->index_bytes == 4 && i-- > 0;) /* u32 keys widened in place, from the top down */
    k[i] = ((const uint32_t *)k)[i];
  if (err) {
    free(k);
    return err;
  }
  uint64_t same = 0, recur = 0;
  for (size_t i = 1; i < n; i++)
    same += k[i] == k[i - 1];
  /* each distinct key's count c in a hash table (a sort took 5 ms a call on the H100's host): the rows of the
   * head keys, c x ATL__SCATTER_BLOCK_ROWS >= 2 n */
  size_t slots = 1;
  while (slots < 2 * n)
    slots *= 2;
  uint64_t *key = malloc(slots * sizeof *key);
  uint32_t *count = calloc(slots, sizeof *count);
  if (key == NULL || count == NULL) {
    free(k), free(key), free(count);
    return atl__seterr(ctx, ATL_ENOMEM, "scatter_add: out of host memory for the keys' counts");
  }
  for (size_t i = 0; i < n; i++) {
    size_t s = (size_t)((k[i] * 0x9e3779b97f4a7c15ull) >> 32) & (slots - 1);
    while (count[s] && key[s] != k[i]) /* linear probing; at most half full */
      s = (s + 1) & (slots - 1);
    key[s] = k[i], count[s]++;
  }
  for (size_t s = 0; s < slots; s++)
    recur += (uint64_t)count[s] * ATL__SCATTER_BLOCK_ROWS >= 2ull * n ? count[s] : 0;
  free(k), free(key), free(count);
  *run = (double)same / (double)n, *head = (double)recur / (double)n;
  return 0;
}

/* The keys' shares the auto rule takes, from the hint, from the device's count over a sample (sample_start, then
 * shares_finish) where there are more than 2 x ATL__SCATTER_SAMPLE_PAIRS rows, else from every key read back: rows
 * whose key equals the previous row's (the pairs' equal share), and rows whose key is expected at least twice in a
 * block's ATL__SCATTER_BLOCK_ROWS rows (the pairs' first keys, spread over the array, so a cluster of equal keys
 * counts once): the app's measure on all the keys (src/apps/scatter.c's auto_pick). */
static int shares_start(atl_context_t ctx, const struct atl_scatter_desc *d, atl_buffer_t idx, struct pick *p)
{
  double *run = &p->st.run_share, *head = &p->st.head_share;
  *run = d->keys == ATL_SCATTER_KEYS_RUNS, *head = d->keys == ATL_SCATTER_KEYS_HEAD;
  if (d->keys != ATL_SCATTER_KEYS_SAMPLE)
    return 0;
  struct atl__key_shares *kept = &idx->shares;
  if (kept->valid && kept->writes == idx->writes && kept->rows == d->rows && kept->index_bytes == d->index_bytes) {
    *run = kept->run, *head = kept->head; /* these keys' own shares: no write into them since */
    return 0;
  }
  if (d->rows > 2ull * ATL__SCATTER_SAMPLE_PAIRS) {
    p->sampling = 1;
    return sample_start(ctx, d, idx, &p->mapped);
  }
  const int err = shares_on_host(ctx, d, idx, run, head);
  if (!err)
    keep_shares(d, idx, *run, *head);
  return err;
}

/* The sample's shares, waited for where shares_start launched its count, kept with the keys' buffer. */
static int shares_finish(atl_context_t ctx, const struct atl_scatter_desc *d, atl_buffer_t idx, struct pick *p)
{
  if (!p->sampling)
    return 0;
  uint32_t w[2] = {0, 0};
  const int err = sample_wait(ctx, p->mapped, w);
  p->sampling = 0;
  p->st.run_share = (double)w[0] / ATL__SCATTER_SAMPLE_PAIRS;
  p->st.head_share = (double)w[1] / ATL__SCATTER_SAMPLE_PAIRS;
  if (!err)
    keep_shares(d, idx, p->st.run_share, p->st.head_share);
  return err;
}

/* The auto rule's facts of the device and the call, and the keys' shares started (shares_start). */
static int pick_start(atl_context_t ctx, const struct atl_scatter_desc *d, atl_buffer_t idx, struct pick *p)
{
  const struct atl_device_info *dev = atl_device_current(ctx);
  *p = (struct pick){0};
  atl__scatter_tuning_for(dev, &p->tuning);
  const unsigned es = d->type >= ATL_SCATTER_BF16 ? 2u : 4u;
  p->st = (struct atl__scatter_stats){.dim = d->dim, .l2_bytes = dev->l2_cache, .tuning = &p->tuning,
                                      .targets = d->targets, .index_bytes = d->index_bytes, .rows = d->rows,
                                      .units = dev->compute_units, .out_bytes = d->targets * d->dim * es};
  /* the variants' fast paths, as the app's auto_pick states them */
  p->st.part_fast = atl__scatter_part_fast(dev, es, d->dim);
  p->st.dsm_fast = atl__scatter_dsm_fast(dev, d->type == ATL_SCATTER_U32 || d->type == ATL_SCATTER_I32);
  return shares_start(ctx, d, idx, p);
}

/* The rule's method, once the shares are in. */
static int pick_finish(atl_context_t ctx, const struct atl_scatter_desc *d, atl_buffer_t idx, struct pick *p,
                       enum atl_scatter_method *method)
{
  const int err = shares_finish(ctx, d, idx, p);
  if (err)
    return err;
  const struct atl__scatter_pick pick = atl__scatter_auto_rule(&p->st);
  *method = atl__scatter_method_of(pick.variant, pick.partitions); /* the table's method of the variant */
  return 0;
}

int atl_scatter_method_for(atl_context_t ctx, const struct atl_scatter_desc *d, atl_buffer_t idx,
                           enum atl_scatter_method *method)
{
  if (ctx == NULL)
    return ATL_EINVAL;
  if (atl_device_current(ctx) == NULL)
    return atl__seterr(ctx, ATL_ENODEV, "scatter_add: no device open");
  if (method == NULL)
    return atl__seterr(ctx, ATL_EINVAL, "scatter_add: no place for the method");
  int err = scatter_checked(ctx, d, NULL, NULL, idx, 1);
  if (err)
    return err;
  if (d->method != ATL_SCATTER_AUTO) {
    *method = d->method;
    return 0;
  }
  struct pick p;
  return (err = pick_start(ctx, d, idx, &p)) ? err : pick_finish(ctx, d, idx, &p, method);
}

int atl__scatter_add_now(atl_context_t ctx, const struct atl_scatter_desc *d, atl_buffer_t out, atl_buffer_t src,
                         atl_buffer_t idx, double *device_ms)
{
  if (ctx == NULL)
    return ATL_EINVAL;
  const struct atl_device_info *dev = atl_device_current(ctx);
  if (dev == NULL)
    return atl__seterr(ctx, ATL_ENODEV, "scatter_add: no device open");
  int err = scatter_checked(ctx, d, out, src, idx, 0);
  if (err)
    return err;
  uint32_t wg = atl__app_default_wg(dev, 1);
  if (wg < 32)
    return atl__seterr(ctx, ATL_ENOTSUP, "scatter_add: %s allows work-groups of %zu, fewer than a warp (32)",
                       dev->name, dev->max_wg_size);
  /* the atomic mode's pick started before the keys' check and finished after it: the check's launch then costs the
   * host nothing while the pick's count runs, and the wait for the count is not one for the check (the pick only
   * reads the keys, whatever they are) */
  enum atl_scatter_method m = d->method == ATL_SCATTER_AUTO ? ATL_SCATTER_ATOMIC : d->method;
  struct pick p = {.sampling = 0};
  const int auto_pick = !d->deterministic && d->method == ATL_SCATTER_AUTO;
  if (auto_pick && (err = pick_start(ctx, d, idx, &p)))
    return err;
  /* the keys' check enqueued before the operation's launches; each returns at its start where it found a bad key */
  const struct atl__keys keys = {"scatter_add", idx->handle, d->index_bytes, d->rows, d->targets, wg};
  void *guard = NULL;
  if (!d->unchecked_keys)
    err = atl__keys_guard(ctx, &keys, &guard);
  if (auto_pick) { /* waited for even after a failed check's launch: its words would come into a later call's */
    const int perr = pick_finish(ctx, d, idx, &p, &m);
    err = err ? err : perr;
  }
  if (err)
    return err;
  out->writes++; /* written by either mode: a pick's shares of its contents are stale from here */
  const struct atl__scatter_method_row *row = NULL;
  double ms = 0;
  if (d->deterministic) {
    struct atl__app_buffers scratch = {{0}, 0};
    struct atl__scatter_det det = {.rows = d->rows, .targets = d->targets, .dim = d->dim, .wg = wg,
                                   .src = src->handle, .idx = idx->handle, .out = out->handle, .guard = guard,
                                   .unsorted_kept = 1}; /* no fill's wait: a stale word only sorts keys in order */
    err = atl__scatter_det_prepare(ctx, &scratch, &det, atl__scatter_type_defines[d->type], d->index_bytes, NULL);
    if (!err)
      err = atl__scatter_det_launch(ctx, &det, device_ms, NULL, NULL);
    atl__app_free_all(ctx, &scratch);
    goto out;
  }
  row = &atl__scatter_methods[m];
  if (atl__scatter_unsupported(row->variant, dev, d->type, d->dim)) { /* the variant table's needs: dim 1, integers */
    err = atl__seterr(ctx, ATL_EINVAL,
                      "scatter_add: method %s is not allowed for dim %u and type %d: it is the "
                      "weighted bincount's (dim 1%s)",
                      row->name, d->dim, (int)d->type,
                      atl__scatter_variants[row->variant].needs & ATL__SV_NEED_INT ? ", u32 or i32" : "");
    goto out;
  }
  const struct atl__scatter_job job = {.variant = row->variant, .parts = row->ranges,
                                       .rows = d->rows, .targets = d->targets, .dim = d->dim, .wg = wg,
                                       .type = d->type, .elem_bytes = d->type >= ATL_SCATTER_BF16 ? 2u : 4u,
                                       .idx_bytes = d->index_bytes, .src = src->handle, .idx = idx->handle,
                                       .out = out->handle, .guard = guard};
  err = atl__scatter_job_run(ctx, &job, &ms);
  if (!err && device_ms)
    *device_ms = ms;
out:
  /* the one place the keys' check is read: every path after the guard reports what it found */
  return atl__keys_report(ctx, &keys, guard, err);
}
