/* The context: backends compiled in, device enumeration and selection. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"

typedef int (*backend_init_fn)(struct atl_backend_ops *);

/* Every backend atomlab knows, in probing order; init is NULL for one not
 * compiled in, so ATL_BACKENDS and --backend still know its name (and say
 * "no device" rather than "not a backend"). ATL_BACKENDS (comma list)
 * narrows the compiled ones at run time. */
static const struct {
  const char *name;
  backend_init_fn init;
} backend_table[] = {
#ifdef ATL_HAVE_CUDA
    {"cuda", atl_cuda_backend_init},
#else
    {"cuda", NULL},
#endif
#ifdef ATL_HAVE_OPENCL
    {"opencl", atl_opencl_backend_init},
#else
    {"opencl", NULL},
#endif
#ifdef ATL_HAVE_VULKAN
    {"vulkan", atl_vulkan_backend_init},
#else
    {"vulkan", NULL},
#endif
};
#define NBACKENDS (sizeof backend_table / sizeof backend_table[0])

const char *atl_backend_name(size_t i) { return i < NBACKENDS ? backend_table[i].name : NULL; }

const char *atl_backend_list(const char *sep, char *buf, size_t len)
{
  buf[0] = '\0';
  for (size_t i = 0; i < NBACKENDS; i++)
    snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? sep : "", backend_table[i].name);
  return buf;
}

int atl_backend_known(const char *name)
{
  for (size_t i = 0; i < NBACKENDS; i++)
    if (strcmp(name, backend_table[i].name) == 0)
      return 1;
  return 0;
}

/* Whether @p n bytes at @p p are one of the known backend names. */
static int backend_known(const char *p, size_t n)
{
  for (size_t i = 0; i < NBACKENDS; i++)
    if (strlen(backend_table[i].name) == n && strncmp(p, backend_table[i].name, n) == 0)
      return 1;
  return 0;
}

static void add_note(atl_context_t ctx, const char *backend, const char *msg);

static int backend_enabled(const char *name)
{
  const char *list = getenv("ATL_BACKENDS");
  if (list == NULL || *list == '\0')
    return 1;
  size_t len = strlen(name);
  for (const char *p = list; *p;) {
    const char *end = strchr(p, ',');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    if (n == len && strncmp(p, name, n) == 0)
      return 1;
    if (!end)
      break;
    p = end + 1;
  }
  return 0;
}

unsigned atl_version(void) { return ATL_VERSION_NUMBER; }

#define ATL__STR_(x) #x
#define ATL__STR(x) ATL__STR_(x)
const char *atl_version_string(void)
{
  return ATL__STR(ATL_VERSION_MAJOR) "." ATL__STR(ATL_VERSION_MINOR) "." ATL__STR(ATL_VERSION_PATCH);
}

/* Backend @p i of the table into the context's next slot, where its ops table is of this build's layout. */
static void backend_add(atl_context_t ctx, size_t i)
{
  struct atl_backend_ops *ops = &ctx->backends[ctx->nbackends];
  if (backend_table[i].init(ops) != 0)
    return;
  if (ops->abi != ATL_BACKEND_ABI) {
    add_note(ctx, backend_table[i].name, "its ops table is of another ABI version than this library's");
    return;
  }
  ctx->nbackends++;
}

int atl_context_new(atl_context_t *out)
{
  if (out == NULL)
    return ATL_EINVAL;
  struct atl_context *ctx = calloc(1, sizeof *ctx);
  if (ctx == NULL)
    return ATL_ENOMEM;
  for (size_t i = 0; i < NBACKENDS && ctx->nbackends < ATL__MAX_BACKENDS; i++)
    if (backend_table[i].init != NULL && backend_enabled(backend_table[i].name))
      backend_add(ctx, i);
  *out = ctx;
  return 0;
}

void atl_context_free(atl_context_t ctx)
{
  if (ctx == NULL)
    return;
  atl__device_buffers_release(ctx);
  if (ctx->ops && ctx->dev)
    ctx->ops->close(ctx->dev);
  free(ctx->devices);
  free(ctx->device_backend);
  free(ctx->scratch_words.ptr);
  free(ctx->scratch_hits.ptr);
  free(ctx);
}

const char *atl_backend_notes(atl_context_t ctx) { return ctx ? ctx->notes : ""; }

static void add_note(atl_context_t ctx, const char *backend, const char *msg)
{
  size_t used = strlen(ctx->notes);
  snprintf(ctx->notes + used, sizeof ctx->notes - used, "%s%s: %s", used ? "\n" : "", backend, msg);
}

/* Every name in ATL_BACKENDS must be a backend atomlab knows (compiled in or
 * not): a typo such as "none" or "opencl," would otherwise quietly probe
 * nothing and read as "no device". 0, or ATL_EINVAL with the message set. */
static int check_backends_env(atl_context_t ctx)
{
  const char *list = getenv("ATL_BACKENDS");
  if (list == NULL || *list == '\0')
    return 0;
  for (const char *p = list;;) {
    const char *end = strchr(p, ',');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    if (!backend_known(p, n)) {
      char allowed[128] = "";
      for (size_t i = 0; i < NBACKENDS; i++)
        snprintf(allowed + strlen(allowed), sizeof allowed - strlen(allowed), "%s%s", i ? ", " : "",
                 backend_table[i].name);
      return atl__seterr(ctx, ATL_EINVAL, "ATL_BACKENDS '%s': '%.*s' is not a backend: allowed: %s", list,
                         (int)(n > 64 ? 64 : n), p, allowed);
    }
    if (!end)
      return 0;
    p = end + 1;
  }
}

static int probe_all(atl_context_t ctx)
{
  if (ctx->probed)
    return 0;
  int err = check_backends_env(ctx);
  if (err)
    return err;
  ctx->probed = 1;
  for (size_t b = 0; b < ctx->nbackends; b++) {
    struct atl_device_info *list = NULL;
    size_t n = 0;
    err = ctx->backends[b].probe(ctx, &list, &n);
    if (err) {
      add_note(ctx, ctx->backends[b].name, atl_errmsg(ctx)[0] ? atl_errmsg(ctx) : atl_strerror(err));
      continue;
    }
    struct atl_device_info *grown = realloc(ctx->devices, (ctx->ndevices + n) * sizeof *grown);
    size_t *owners = realloc(ctx->device_backend, (ctx->ndevices + n) * sizeof *owners);
    if (grown)
      ctx->devices = grown;
    if (owners)
      ctx->device_backend = owners;
    if (!grown || !owners) {
      free(list);
      return atl__seterr(ctx, ATL_ENOMEM, "out of memory listing devices");
    }
    for (size_t i = 0; i < n; i++) {
      ctx->devices[ctx->ndevices] = list[i];
      ctx->device_backend[ctx->ndevices] = b;
      ctx->ndevices++;
    }
    free(list);
  }
  ctx->errmsg[0] = '\0';
  return 0;
}

int atl_devices(atl_context_t ctx, const struct atl_device_info **list, size_t *count)
{
  if (ctx == NULL)
    return ATL_EINVAL;
  if (list == NULL || count == NULL)
    return atl__seterr(ctx, ATL_EINVAL, "devices: %s is NULL: a place for it is needed", list ? "count" : "list");
  int err = probe_all(ctx);
  *list = ctx->devices;
  *count = ctx->ndevices;
  return err;
}

/* Ranks devices for "the best device present": GPUs, then accelerators,
 * then CPUs; more compute units wins within a kind. */
static long device_rank(const struct atl_device_info *d)
{
  long kind = d->type == ATL_DEVICE_GPU ? 3 : d->type == ATL_DEVICE_ACCELERATOR ? 2 : d->type == ATL_DEVICE_CPU ? 1 : 0;
  return kind * 1000000L + (long)d->compute_units;
}

static int find_device(atl_context_t ctx, const char *id, const char *backend, size_t *index)
{
  long best = -1;
  for (size_t i = 0; i < ctx->ndevices; i++) {
    const struct atl_device_info *d = &ctx->devices[i];
    if (backend && strcmp(d->backend, backend) != 0)
      continue;
    if (id) {
      char *end;
      unsigned long n = strtoul(id, &end, 10);
      int by_index = *id != '\0' && *end == '\0';
      if ((by_index && n == i) || strcmp(id, d->id) == 0) {
        *index = i;
        return 0;
      }
      continue;
    }
    if (device_rank(d) > best) {
      best = device_rank(d);
      *index = i;
    }
  }
  return best >= 0 ? 0 : ATL_ENODEV;
}

int atl_device_open(atl_context_t ctx, const char *id, const char *backend)
{
  if (ctx == NULL)
    return ATL_EINVAL;
  if (ctx->external)
    return atl__seterr(ctx, ATL_EINVAL, "device_open: the context drives a program's own device");
  int err = probe_all(ctx);
  if (err)
    return err;
  size_t index = 0;
  if (find_device(ctx, id, backend, &index) != 0) {
    if (id)
      return atl__seterr(ctx, ATL_ENODEV, "no device '%s'%s%s (see 'atomlab devices')", id,
                         backend ? " on backend " : "", backend ? backend : "");
    return atl__seterr(ctx, ATL_ENODEV, "no %s%sdevice found%s%s", backend ? backend : "", backend ? " " : "",
                       ctx->notes[0] ? ": " : "", ctx->notes);
  }
  if (ctx->ops && ctx->dev) {
    atl__device_buffers_release(ctx);
    ctx->ops->close(ctx->dev);
    ctx->dev = NULL;
    ctx->ops = NULL;
  }
  const struct atl_backend_ops *ops = &ctx->backends[ctx->device_backend[index]];
  if ((err = atl__fault_wrap(ctx, ops, &ctx->wrapped)))
    return err;
  err = ops->open(ctx, &ctx->devices[index], &ctx->dev);
  if (err)
    return err;
  ctx->ops = &ctx->wrapped;
  ctx->current = ctx->devices[index];
  ctx->opened++;
  return 0;
}

int atl_device_peer_info(atl_context_t ctx, size_t a, size_t b, struct atl_peer_info *out)
{
  if (ctx == NULL || out == NULL)
    return ctx ? atl__seterr(ctx, ATL_EINVAL, "peer: out is NULL: a place for the link is needed") : ATL_EINVAL;
  memset(out, 0, sizeof *out);
  out->performance_rank = -1;
  int err = probe_all(ctx);
  if (err)
    return err;
  if (a >= ctx->ndevices || b >= ctx->ndevices)
    return atl__seterr(ctx, ATL_EINVAL, "peer of devices %zu and %zu: allowed: 0 to %zu", a, b,
                       ctx->ndevices ? ctx->ndevices - 1 : 0);
  const struct atl_backend_ops *ops = &ctx->backends[ctx->device_backend[a]];
  if (ctx->device_backend[a] != ctx->device_backend[b])
    return atl__seterr(ctx, ATL_ENOTSUP, "%s and %s are devices of different backends", ctx->devices[a].id,
                       ctx->devices[b].id);
  if (ops->peer_info == NULL)
    return atl__seterr(ctx, ATL_ENOTSUP, "the %s backend cannot tell the link between two devices", ops->name);
  return ops->peer_info(ctx, &ctx->devices[a], &ctx->devices[b], out);
}

/* A context with one backend, @p name's (whatever ATL_BACKENDS says: the program chose it), its device opened
 * over @p native. */
static int context_external(const char *name, const struct atl_native *native, unsigned flags, atl_context_t *out)
{
  if (out == NULL)
    return ATL_EINVAL;
  struct atl_context *ctx = calloc(1, sizeof *ctx);
  if ((*out = ctx) == NULL)
    return ATL_ENOMEM;
  ctx->probed = 1; /* nothing to list: the device is the program's */
  if (flags != 0)
    return atl__seterr(ctx, ATL_EINVAL, "flags %u is not allowed: 0", flags);
  for (size_t i = 0; i < NBACKENDS; i++)
    if (strcmp(backend_table[i].name, name) == 0 && backend_table[i].init)
      backend_add(ctx, i);
  const struct atl_backend_ops *ops = ctx->nbackends ? &ctx->backends[0] : NULL;
  if (ops == NULL || ops->adopt == NULL)
    return atl__seterr(ctx, ATL_ENODEV, "the %s backend is not in this build of atomlab%s%s", name,
                       ctx->notes[0] ? ": " : "", ctx->notes);
  int err = atl__fault_wrap(ctx, ops, &ctx->wrapped);
  if (!err)
    err = ops->adopt(ctx, native, &ctx->current, &ctx->dev);
  if (err)
    return err;
  ctx->ops = &ctx->wrapped;
  ctx->external = 1;
  return 0;
}

int atl_context_from_cuda(void *cu_context, void *cu_stream, unsigned flags, atl_context_t *out)
{
  const struct atl_native n = {.context = cu_context, .queue = cu_stream};
  return context_external("cuda", &n, flags, out);
}

int atl_context_from_opencl(void *cl_context, void *cl_device, void *cl_queue, unsigned flags, atl_context_t *out)
{
  const struct atl_native n = {.context = cl_context, .device = cl_device, .queue = cl_queue};
  return context_external("opencl", &n, flags, out);
}

int atl_context_set_queue(atl_context_t ctx, void *queue)
{
  if (ctx == NULL)
    return ATL_EINVAL;
  if (!ctx->external || ctx->ops->set_queue == NULL)
    return atl__seterr(ctx, ATL_EINVAL, "set_queue: the context is not over a program's stream or queue");
  return ctx->ops->set_queue(ctx->dev, queue);
}

int atl_context_is_external(atl_context_t ctx) { return ctx && ctx->external; }

int atl_context_finish(atl_context_t ctx)
{
  if (ctx == NULL)
    return ATL_EINVAL;
  if (ctx->ops == NULL)
    return atl__seterr(ctx, ATL_ENODEV, "finish: no device open");
  const int err = ctx->ops->finish ? ctx->ops->finish(ctx->dev) : 0;
  return err || ctx->finish_check == NULL ? err : ctx->finish_check(ctx);
}

const struct atl_device_info *atl_device_current(atl_context_t ctx)
{
  return ctx && ctx->ops ? &ctx->current : NULL;
}

int atl_device_clocks(atl_context_t ctx, struct atl_clocks *out)
{
  char why[160] = "";
  if (ctx == NULL || out == NULL)
    return ctx ? atl__seterr(ctx, ATL_EINVAL, "clocks: out is NULL: a place for the clocks is needed") : ATL_EINVAL;
  memset(out, 0, sizeof *out);
  if (ctx->ops == NULL)
    return atl__seterr(ctx, ATL_ENOTSUP, "no device is open");
  if (ctx->ops->clocks == NULL)
    return atl__seterr(ctx, ATL_ENOTSUP, "the %s backend cannot read clocks (its API reports only the maximum)",
                       ctx->current.backend);
  int err = ctx->ops->clocks(ctx->dev, out, why, sizeof why);
  return err ? atl__seterr(ctx, err, "%s", why) : 0;
}

void atl_device_slug(const struct atl_device_info *info, char *buf, size_t len)
{
  if (len == 0)
    return;
  if (strstr(info->platform, "Portable Computing Language")) {
    snprintf(buf, len, "pocl-%s", info->type == ATL_DEVICE_CPU ? "cpu" : "device");
    return;
  }
  size_t o = 0;
  int words = 0, in_word = 0;
  for (const char *p = info->name; *p && o + 1 < len; p++) {
    char c = *p;
    int alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (alnum) {
      if (!in_word) {
        if (words == 2)
          break;
        if (words > 0 && o + 1 < len)
          buf[o++] = '-';
        words++;
        in_word = 1;
      }
      if (o + 1 < len)
        buf[o++] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    } else {
      in_word = 0;
    }
  }
  buf[o] = '\0';
  if (o == 0)
    snprintf(buf, len, "device");
}

int atl_device_has_type(const struct atl_device_info *info, int type)
{
  switch ((enum atl_type)type) {
  case ATL_TYPE_U64:
    return (int)info->has_int64_atomics;
  case ATL_TYPE_F32:
    return (int)info->has_f32_atomic_add;
  case ATL_TYPE_F64:
    return (int)info->has_f64_atomic_add;
  case ATL_TYPE_F16X2:
    return (int)info->has_f16x2_atomic_add;
  case ATL_TYPE_BF16X2:
    return (int)info->has_bf16x2_atomic_add;
  default:
    return 1;
  }
}

void *atl__scratch(struct atl__scratch *s, size_t bytes)
{
  if (bytes <= s->cap)
    return s->ptr;
  free(s->ptr); /* the old contents are not needed: no realloc copy */
  s->ptr = malloc(bytes ? bytes : 1);
  s->cap = s->ptr ? bytes : 0;
  return s->ptr;
}

int atl__device_buffer(atl_context_t ctx, unsigned slot, size_t bytes, void **buf)
{
  struct atl__scratch *s = &ctx->device_buffers[slot];
  if (s->ptr && bytes <= s->cap) {
    *buf = s->ptr;
    return 0;
  }
  ctx->ops->free(ctx->dev, s->ptr);
  s->ptr = NULL;
  s->cap = 0;
  int err = ctx->ops->alloc(ctx->dev, bytes, &s->ptr);
  if (err)
    return err;
  s->cap = bytes;
  *buf = s->ptr;
  return 0;
}

int atl__host_words(atl_context_t ctx, void **buf, volatile uint32_t **host)
{
  *buf = NULL, *host = NULL;
  if (ctx->host_words.host == NULL && ctx->ops->host_alloc && ctx->ops->host_free) {
    const int err = ctx->ops->host_alloc(ctx->dev, ATL__HOST_WORDS * 4, &ctx->host_words.buf, &ctx->host_words.host);
    if (err) {
      ctx->host_words.buf = ctx->host_words.host = NULL;
      return err;
    }
  }
  *buf = ctx->host_words.buf, *host = ctx->host_words.host;
  return 0;
}

int atl__grid_check(const struct atl_device_info *dev, uint32_t wg, uint32_t workgroups, uint64_t max_threads,
                    char *why, size_t why_len)
{
  if (dev == NULL) {
    snprintf(why, why_len, "no device open");
    return ATL_ENODEV;
  }
  if (wg == 0 || wg > dev->max_wg_size) {
    snprintf(why, why_len, "wg_size %u is not allowed: 1 to %zu on %s", wg, dev->max_wg_size, dev->name);
    return ATL_EINVAL;
  }
  if (workgroups == 0 || (uint64_t)wg * workgroups > max_threads) {
    snprintf(why, why_len, "workgroups %u is not allowed: 1 to %llu with wg_size %u", workgroups,
             (unsigned long long)(max_threads / wg), wg);
    return ATL_EINVAL;
  }
  return 0;
}

void atl__device_free_all(atl_context_t ctx, void *const *bufs, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (bufs[i])
      ctx->ops->free(ctx->dev, bufs[i]);
}

void atl__device_buffers_release(atl_context_t ctx)
{
  for (struct atl_buffer *b = ctx->buffers, *next; b; b = next) {
    next = b->next;
    if (ctx->ops && b->handle && b->wrapped && ctx->ops->unwrap) /* the program's memory: only the handle */
      ctx->ops->unwrap(ctx->dev, b->handle);
    else if (ctx->ops && b->handle && !b->wrapped)
      ctx->ops->free(ctx->dev, b->handle);
    b->handle = NULL, b->prev = b->next = NULL;
  }
  ctx->buffers = NULL;
  if (ctx->ops && ctx->host_words.host)
    ctx->ops->host_free(ctx->dev, ctx->host_words.host);
  ctx->host_words.buf = ctx->host_words.host = NULL;
  for (unsigned i = 0; i < ATL__DEVICE_BUFFER_SLOTS; i++) {
    if (ctx->ops && ctx->device_buffers[i].ptr)
      ctx->ops->free(ctx->dev, ctx->device_buffers[i].ptr);
    ctx->device_buffers[i].ptr = NULL;
    ctx->device_buffers[i].cap = 0;
  }
}
