/* What seed 000's applications share: the software atomic's buffers, the grid check and the timed sequence. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"

/* Its registry entry, at the end of this file: the run checks its params with the entry's check. */
extern const struct atl_app_info atl__app_swapps;

const char *const atl__sw_variant_names[3] = {"system", "warp", "software"};

/* Whether @p g is a work-group count (2 to 65535) or one of ATL_SW_GROUPS_MAX and ATL_SW_GROUPS_LADDER(2 ..). */
static int grid_entry_ok(uint32_t g)
{
  const uint32_t lo = g & ~ATL_SW_GROUPS_LADDER(0);
  return g == ATL_SW_GROUPS_MAX || (lo >= 2 && lo <= 65535);
}

int atl__sw_grid_check(const struct atl_device_info *d, uint32_t wg, const uint32_t *groups, unsigned ngroups,
                       unsigned variants, char *why, size_t len)
{
  if (wg == 0 || wg > 256 || wg > d->max_wg_size)
    return atl__app_why(why, len, "wg-size %u is not allowed: 1 to %u (the coordinator's local arrays)", wg,
                        d->max_wg_size < 256 ? (unsigned)d->max_wg_size : 256);
  if (ngroups > ATL__SW_MAX_GRIDS || (ngroups && groups == NULL))
    return atl__app_why(why, len, "workgroups: %u grids are not allowed: 0 (the defaults) to %d", ngroups,
                        ATL__SW_MAX_GRIDS);
  for (unsigned i = 0; i < ngroups; i++)
    if (!grid_entry_ok(groups[i]))
      return atl__app_why(why, len, "workgroups %u is not allowed: 2 to 65535 work-groups (one is the coordinator)",
                          groups[i]);
  if ((variants & 7u) == 0 || (variants & ~7u))
    return atl__app_why(why, len, "variants 0x%x is not allowed: a set of system, warp, software", variants);
  return 0;
}

/* Work-groups of @p wg the device holds co-resident: discovery, or the test hook ATL_SW_ASSUME_CORESIDENT=N. */
static int coresident_of(atl_context_t ctx, uint32_t wg, uint32_t *out)
{
  struct atl_occupancy occ;
  uint64_t n = 0;
  int err = atl_occupancy_discover(ctx, wg, &occ);
  if (err)
    return err;
  *out = occ.discovered;
  /* PoCL's discovery often finds 1 on a busy 2-core machine although its thread pool runs 2, and the tests
   * need 2; a wrong assumption ends as status deadlock, not a hang. */
  const char *assume = getenv("ATL_SW_ASSUME_CORESIDENT");
  if (assume && *assume && (atl__app_whole(assume, &n) || n < 1 || n > 65535))
    return atl__seterr(ctx, ATL_EINVAL, "ATL_SW_ASSUME_CORESIDENT '%s' is not allowed: 1 to 65535", assume);
  if (n)
    *out = (uint32_t)n;
  return 0;
}

int atl__sw_grids(atl_context_t ctx, uint32_t wg, uint32_t first, uint32_t *coresident, const uint32_t **groups,
                  unsigned *ngroups, uint32_t *buf)
{
  const struct atl_device_info *d = atl_device_current(ctx);
  int err = *coresident ? 0 : coresident_of(ctx, wg, coresident);
  /* GPUs: a doubling ladder shows how the software atomic scales; CPUs run few work-groups at a time. */
  const uint32_t def = d->type == ATL_DEVICE_CPU ? ATL_SW_GROUPS_MAX : ATL_SW_GROUPS_LADDER(first);
  const uint32_t *in = *ngroups ? *groups : &def;
  const unsigned nin = *ngroups ? *ngroups : 1;
  unsigned n = 0;
  for (unsigned i = 0; i < nin && !err; i++) {
    const uint32_t lo = in[i] & ~ATL_SW_GROUPS_LADDER(0);
    const int ladder = (in[i] & ATL_SW_GROUPS_LADDER(0)) != 0;
    for (uint32_t g = lo; ladder && g < *coresident && n < ATL__SW_MAX_GRIDS; g *= 2)
      buf[n++] = g; /* LO, 2 LO, ... below the count; the count follows */
    if (n == ATL__SW_MAX_GRIDS)
      err = atl__seterr(ctx, ATL_EINVAL, "workgroups: more than %d grids are not allowed", ATL__SW_MAX_GRIDS);
    else if (in[i] == ATL_SW_GROUPS_MAX || ladder)
      buf[n++] = ladder && lo > *coresident ? lo : *coresident; /* a ladder from above the count: refused */
    else
      buf[n++] = lo;
  }
  *groups = buf;
  *ngroups = n;
  return err;
}

int atl__sw_parse_groups(atl_app_config_t cfg, const struct atl_app_option *o, const char *text, char *why,
                         size_t len)
{
  uint32_t *vals = atl__app_config_alloc(cfg, ATL__SW_MAX_GRIDS * sizeof *vals);
  char *copy = atl__app_config_alloc(cfg, strlen(text) + 1), *save = NULL;
  unsigned n = 0;
  uint64_t lo = 0, hi = 0;
  if (vals == NULL || copy == NULL)
    return atl__app_why(why, len, "%s: out of memory", o->name);
  strcpy(copy, text);
  for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    char *colon = strchr(tok, ':'), *step = colon ? strchr(colon + 1, ':') : NULL, item[64];
    snprintf(item, sizeof item, "%s", tok); /* for the messages: tok is cut at its colons */
    if (colon && (step == NULL || strcmp(step, ":x2") != 0))
      return atl__app_why(why, len, "%s '%s' is not allowed: an axis is LO:HI:x2 (HI a number or max)", o->name,
                          item);
    if (colon)
      *colon = *step = '\0';
    const char *top = colon ? colon + 1 : tok;
    const int max = strcmp(top, "max") == 0;
    if ((colon && (atl__app_whole(tok, &lo) || lo < 2 || lo > 65535)) ||
        (!max && (atl__app_whole(top, &hi) || hi < (colon ? lo : 2) || hi > 65535)))
      return atl__app_why(why, len, "%s '%s' is not allowed: a work-group count from 2 to 65535, max, or LO:HI:x2",
                          o->name, item);
    /* LO:HI:x2 = LO, 2 LO, ... below HI, and HI; LO:max:x2 and max wait for the co-resident count */
    for (uint64_t g = colon && !max ? lo : hi; colon && !max && g < hi && n < ATL__SW_MAX_GRIDS; g *= 2)
      vals[n++] = (uint32_t)g;
    if (n == ATL__SW_MAX_GRIDS)
      return atl__app_why(why, len, "%s '%s' is not allowed: at most %d grids", o->name, text, ATL__SW_MAX_GRIDS);
    vals[n++] = max ? (colon ? ATL_SW_GROUPS_LADDER(lo) : ATL_SW_GROUPS_MAX) : (uint32_t)hi;
  }
  if (n == 0)
    return atl__app_why(why, len, "%s '%s' is not allowed: a comma list of work-group counts", o->name, text);
  void *params = atl_app_config_params(cfg);
  memcpy((char *)params + o->offset, &(const uint32_t *){vals}, sizeof vals);
  memcpy((char *)params + o->count_offset, &n, sizeof n);
  return 0;
}

int atl__sw_prepare(atl_context_t ctx, atl_app_config_t cfg, uint32_t wg, uint32_t first, uint32_t *coresident,
                    const uint32_t **groups, unsigned *ngroups, char *why, size_t len)
{
  const struct atl_device_info *d = atl_device_current(ctx);
  if (d->type == ATL_DEVICE_CPU && !atl__app_config_given(cfg, "spin-bound"))
    atl_app_config_timing(cfg)->spin_bound = 1u << 26; /* a CPU poll is nanoseconds, a preemption milliseconds */
  if (wg == 0 || wg > 256 || wg > d->max_wg_size)
    return 0; /* the check refuses it; discovery at it would only fail */
  uint32_t *buf = atl__app_config_alloc(cfg, ATL__SW_MAX_GRIDS * sizeof *buf);
  const uint32_t *asked = *groups;
  const unsigned nasked = *ngroups;
  int err = buf ? atl__sw_grids(ctx, wg, first, coresident, groups, ngroups, buf) : ATL_ENOMEM;
  if (err) {
    snprintf(why, len, "%s", err == ATL_ENOMEM ? "out of memory" : atl_errmsg(ctx));
    return err;
  }
  /* The library runs a grid beyond the co-resident count as a refused row; asking for one is a usage error,
   * named as it was asked for. */
  char grid[32] = "";
  for (unsigned i = 0; i < nasked && !grid[0]; i++)
    if ((asked[i] & ATL_SW_GROUPS_LADDER(0)) && (asked[i] & 0xffffu) > *coresident)
      snprintf(grid, sizeof grid, "%u:max:x2", asked[i] & 0xffffu);
  for (unsigned i = 0; i < *ngroups && !grid[0]; i++)
    if ((*groups)[i] > *coresident)
      snprintf(grid, sizeof grid, "%u", (*groups)[i]);
  if (grid[0])
    return atl__app_why(why, len, "workgroups %s is not allowed: the software atomic needs a co-resident grid, "
                        "and occupancy discovery found %u work-groups of %u work-items on %s", grid, *coresident, wg,
                        d->name);
  if (*coresident < 2) {
    snprintf(why, len, "the software atomic needs 2 co-resident work-groups (one coordinator); occupancy discovery "
             "found %u at %u work-items on %s", *coresident, wg, d->name);
    return ATL_ENOTSUP;
  }
  return 0;
}

int atl__swapps_check(atl_context_t ctx, const struct atl_swapps_params *p, const char *app)
{
  struct atl_swapps_params q = *p;
  q.apps = strcmp(app, "dot") == 0 ? 1u : strcmp(app, "strmatch") == 0 ? 2u : 4u; /* check this app's inputs only */
  int err = atl__app_checked(ctx, &atl__app_swapps, &q);
  if (err == 0 && (p->ngroups == 0 || p->coresident == 0)) /* the registry's run fills them for all three */
    err = atl__seterr(ctx, ATL_EINVAL, "%s: workgroups and coresident must be given (the registry's swapps finds them)",
                      app);
  return err;
}

int atl__sw_sync_alloc(atl_context_t ctx, struct atl__app_buffers *b, const struct atl_swapps_params *p,
                       struct atl__sw_sync *s)
{
  uint32_t most = 2; /* buffers for the refused grids are never used */
  for (unsigned i = 0; i < p->ngroups; i++)
    if (p->groups[i] <= p->coresident && p->groups[i] > most)
      most = p->groups[i];
  s->req_bytes = (size_t)most * ((p->wg_size + 31) / 32) * 8;
  s->fin_bytes = (size_t)most * 4;
  s->aborted = 0;
  int err = atl__app_alloc(ctx, b, s->req_bytes, &s->req);
  if (!err)
    err = atl__app_alloc(ctx, b, s->fin_bytes, &s->finished);
  if (!err)
    err = atl__app_alloc(ctx, b, 4, &s->abort_flag);
  if (!err)
    err = atl__app_fill32(ctx, s->abort_flag, 0, 4);
  return err;
}

int atl__sw_run_reset(atl_context_t ctx, void *arg)
{
  struct atl__sw_run *r = arg;
  int err = atl__sw_sync_reset(ctx, &r->sync);
  return err ? err : atl__app_fill32(ctx, r->result, 0, r->result_bytes);
}

int atl__sw_run_time(atl_context_t ctx, void *kernel, struct atl_arg *args, unsigned nargs, uint32_t groups,
                     const struct atl_swapps_params *p, struct atl__sw_run *r, const struct atl_app_timing *tm,
                     struct atl_row *row)
{
  atl__sw_args(args + nargs - 4, &r->sync, tm);
  const struct atl_launch launch = {(size_t)groups * p->wg_size, p->wg_size, args, nargs};
  return atl__sw_time(ctx, &kernel, &launch, 1, atl__sw_run_reset, r, &r->sync, tm, row);
}

int atl__sw_build_failed(atl_context_t ctx, struct atl_row *brow, struct atl_result_set *out)
{
  atl__app_row_status(brow, ATL_STATUS_ERROR, "kernel build failed: %s", atl_errmsg(ctx));
  return atl__app_row_add(out, brow, 0);
}

int atl__sw_build(atl_context_t ctx, const struct atl_swapps_params *p, const char *app, const char *source,
                  const char *entry, void **kernel, struct atl__sw_run *r, struct atl_result_set *out)
{
  struct atl_row brow;
  atl__app_row_init(&brow, app, "build");
  if (atl__app_build(ctx, source, entry, "ATL_WAVEFRONT=32 ATL_MAX_GROUPS=8", kernel, &brow)) {
    *kernel = NULL;
    return atl__sw_build_failed(ctx, &brow, out);
  }
  r->cap = atl__sw_cap(ctx, *kernel, p);
  return 0;
}

int atl__sw_sync_reset(atl_context_t ctx, struct atl__sw_sync *s)
{
  uint32_t flag = 0;
  int err = atl__ops(ctx)->read(atl__dev(ctx), s->abort_flag, &flag, sizeof flag);
  s->aborted |= flag;
  if (!err)
    err = atl__app_fill32(ctx, s->req, 0, s->req_bytes);
  if (!err)
    err = atl__app_fill32(ctx, s->finished, 0, s->fin_bytes);
  if (!err)
    err = atl__app_fill32(ctx, s->abort_flag, 0, 4);
  return err;
}

uint32_t atl__sw_cap(atl_context_t ctx, void *kernel, const struct atl_swapps_params *p)
{
  const struct atl_backend_ops *ops = atl__ops(ctx);
  const struct atl_device_info *dev = atl_device_current(ctx);
  unsigned est = 0;
  char method[160];
  if (dev->type == ATL_DEVICE_CPU)
    return p->coresident; /* a CPU's estimate is one group per core, a guess the test hook overrides */
  if (ops->occupancy_estimate && ops->occupancy_estimate(atl__dev(ctx), kernel, p->wg_size, &est, method,
                                                         sizeof method) == 0 && est > 0 && est < p->coresident)
    return est;
  return p->coresident;
}

int atl__sw_grid_refused(const struct atl_swapps_params *p, uint32_t cap, uint32_t groups, struct atl_row *row)
{
  atl_row_metric_set(row, "workgroups", groups);
  if (groups >= 2 && groups <= cap)
    return 0;
  atl__app_row_status(row, ATL_STATUS_ERROR,
                      "%u work-groups refused: the software atomic needs a co-resident grid of 2 to %u "
                      "(occupancy discovery found %u at %u work-items%s; one is the coordinator)",
                      groups, cap, p->coresident, p->wg_size,
                      cap < p->coresident ? ", this kernel's occupancy estimate fewer" : "");
  return 1;
}

void atl__sw_args(struct atl_arg *args, const struct atl__sw_sync *s, const struct atl_app_timing *tm)
{
  args[0] = (struct atl_arg){ATL_ARG_BUFFER, s->req, 0};
  args[1] = (struct atl_arg){ATL_ARG_BUFFER, s->finished, 0};
  args[2] = (struct atl_arg){ATL_ARG_BUFFER, s->abort_flag, 0};
  args[3] = (struct atl_arg){ATL_ARG_U32, NULL, tm->spin_bound};
}

/* One sample of a software-atomic row: the reset, then the kernels in sequence, their device times summed. */
struct sw_launch {
  atl_context_t ctx;
  void *const *kernels;
  const struct atl_launch *launches;
  unsigned n;
  atl__app_reset_fn reset;
  void *reset_arg;
  const struct atl__sw_sync *s;
};

enum { SW_GAVE_UP = 1 }; /* the last launch gave up a wait: more launches would each spin as long */

static int sw_launch(void *arg, uint32_t iters, double *ms)
{
  const struct sw_launch *l = arg;
  int err = l->reset(l->ctx, l->reset_arg);
  (void)iters;
  *ms = 0;
  if (!err && l->s->aborted)
    return SW_GAVE_UP;
  for (unsigned k = 0; k < l->n && !err; k++) {
    double one = 0;
    err = atl__ops(l->ctx)->launch(atl__dev(l->ctx), l->kernels[k], &l->launches[k], &one);
    *ms += one;
  }
  return err;
}

int atl__sw_time(atl_context_t ctx, void *const *kernels, const struct atl_launch *launches, unsigned n,
                 atl__app_reset_fn reset, void *reset_arg, struct atl__sw_sync *s, const struct atl_app_timing *tm,
                 struct atl_row *row)
{
  struct sw_launch l = {ctx, kernels, launches, n, reset, reset_arg, s};
  uint32_t flag = 0;
  double warm = 0;
  s->aborted = 0;
  int err = sw_launch(&l, 0, &warm); /* the warm-up, not kept */
  if (!err)
    err = atl__app_sample(sw_launch, &l, tm, &row->time_ms);
  if (err == SW_GAVE_UP)
    err = 0;
  if (!err)
    err = atl__ops(ctx)->read(atl__dev(ctx), s->abort_flag, &flag, sizeof flag);
  if (err) {
    atl__app_row_status(row, ATL_STATUS_ERROR, "%s", atl_errmsg(ctx));
    return err;
  }
  if (flag || s->aborted) {
    atl__app_row_status(row, ATL_STATUS_DEADLOCK, "a wait passed spin_bound %u polls and was abandoned",
                        tm->spin_bound);
    return 1;
  }
  return 0;
}

static const uint32_t gpu_matmul[] = {8, 32, 128, 256, 512}, cpu_matmul[] = {8, 32, 64};
static const uint32_t gpu_kmeans[] = {512, 2048, 8192, 131072, 1048576}, cpu_kmeans[] = {512, 2048, 8192};

static void swapps_defaults(const struct atl_device_info *d, void *params)
{
  struct atl_swapps_params *p = params;
  const int cpu = d->type == ATL_DEVICE_CPU;
  atl__app_wg_default(d, &p->wg_size, 0);
  if (p->dot_elements == 0)
    p->dot_elements = cpu ? 1u << 20 : 1u << 24;
  if (p->text_bytes == 0 && p->text == NULL) /* 4 MiB of the dictionary: seconds on PoCL */
    p->text_bytes = 4u << 20;
  /* CPUs: the MapReduce sizes PoCL finishes in seconds; GPUs: up to where the single pass pays off. */
  if (p->nmatmul == 0) {
    p->matmul_n = cpu ? cpu_matmul : gpu_matmul;
    p->nmatmul = cpu ? 3 : 5;
  }
  if (p->nkmeans == 0) {
    p->kmeans_points = cpu ? cpu_kmeans : gpu_kmeans;
    p->nkmeans = cpu ? 3 : 5;
  }
}

/* Beyond the ranges of its options: the grids, a text for string match, keywords the kernel can tell apart. */
static int swapps_check(const struct atl_device_info *d, const void *params, char *why, size_t len)
{
  const struct atl_swapps_params *p = params;
  int err = atl__sw_grid_check(d, p->wg_size, p->groups, p->ngroups, p->variants, why, len);
  if (err)
    return err;
  if ((p->apps & 1u) && p->dot_elements == 0)
    return atl__app_why(why, len, "elements 0 is not allowed: at least one element");
  if (!(p->apps & 2u))
    return 0;
  if (p->text_bytes == 0 || (p->text == NULL && (p->text_path == NULL || *p->text_path == '\0')))
    return atl__app_why(why, len, "text is not allowed empty: string match needs a text");
  if (p->nkeywords == 0 || p->nkeywords > 4 || p->keywords == NULL)
    return atl__app_why(why, len, "keywords: %u are not allowed: 1 to 4 keywords of 1 to 32 bytes", p->nkeywords);
  for (unsigned k = 0; k < p->nkeywords; k++) {
    const size_t a = strlen(p->keywords[k]);
    if (a == 0 || a > 32)
      return atl__app_why(why, len, "keywords '%s' is not allowed: 1 to 4 keywords of 1 to 32 bytes",
                          p->keywords[k]);
    for (unsigned j = 0; j < k; j++)
      if (strncmp(p->keywords[j], p->keywords[k], a < strlen(p->keywords[j]) ? a : strlen(p->keywords[j])) == 0)
        return atl__app_why(why, len, "keywords '%s' and '%s' are not allowed: one is a prefix of the other (both "
                            "could start at one position)", p->keywords[j], p->keywords[k]);
  }
  return 0;
}

/* Discovery and the grids once for the three applications, and string match's text (a missing one is a usage
 * error, not a failed row). */
static int swapps_prepare(atl_context_t ctx, atl_app_config_t cfg, char *why, size_t len)
{
  struct atl_swapps_params *p = atl_app_config_params(cfg);
  int err = 0;
  if ((p->apps & 2u) && p->text == NULL) { /* first: a missing text is a usage error, whatever the device */
    uint8_t *text = atl__app_config_alloc(cfg, p->text_bytes);
    if (text == NULL)
      return ATL_ENOMEM;
    if ((err = atl__text_read(p->text_path, text, p->text_bytes, &p->text_bytes, why, len)) != 0)
      return err;
    p->text = text;
  }
  err = atl__sw_prepare(ctx, cfg, p->wg_size, 2, &p->coresident, &p->groups, &p->ngroups, why, len);
  if (err || p->coresident == 0) /* coresident 0: a work-group size the check refuses */
    return err;
  p->skew_reference = atl__app_hook("ATL_SWAPPS_SKEW_REFERENCE");
  atl__app_config_note(cfg, "swapps: %u co-resident work-groups of %u (discovery), %u grid(s)", p->coresident,
                       p->wg_size, p->ngroups);
  return 0;
}

/* The three applications in order, on the grids resolved once (occupancy discovery is not repeated). */
static int swapps_run(atl_context_t ctx, const void *params, const struct atl_app_timing *tm,
                      struct atl_result_set *out)
{
  int (*const fns[])(atl_context_t, const struct atl_swapps_params *, const struct atl_app_timing *,
                     struct atl_result_set *) = {atl_app_swdot, atl_app_swstrmatch, atl_app_swmapreduce};
  struct atl_swapps_params q = *(const struct atl_swapps_params *)params;
  uint32_t grids[ATL__SW_MAX_GRIDS];
  int err = atl__app_checked(ctx, &atl__app_swapps, &q);
  if (err == 0)
    err = atl__sw_grids(ctx, q.wg_size, 2, &q.coresident, &q.groups, &q.ngroups, grids);
  for (unsigned a = 0; a < 3 && ATL_APP_GO_ON(err); a++)
    if (q.apps & (1u << a))
      err = fns[a](ctx, &q, tm, out);
  return err;
}

static const char *const app_names[] = {"dot", "strmatch", "mapreduce"};

#define P(field) .offset = offsetof(struct atl_swapps_params, field)
static const struct atl_app_option swapps_options[] = {
    ATL__APP_OPT_WG(struct atl_swapps_params, 256, "work-items per work-group"),
    {"apps", ATL_APP_OPT_SET, P(apps), .names = app_names, .nnames = 3, .def = "all", .arg = "LIST",
     .help = "of dot, strmatch, mapreduce"},
    {"workgroups", ATL_APP_OPT_LIST, P(groups), .count_offset = offsetof(struct atl_swapps_params, ngroups),
     .arg = "LIST", .parse = atl__sw_parse_groups,
     .def_help = "2, 4, 8, ... below the co-resident count, and that count; CPU: the count",
     .help = "grids incl. the coordinator, e.g. 2,8,max (max: the co-resident count) or LO:HI:x2 (HI a number or "
             "max)"},
    {"variants", ATL_APP_OPT_SET, P(variants), .names = atl__sw_variant_names, .nnames = 3, .def = "all",
     .arg = "LIST", .help = "of system, warp, software (mapreduce's twopass always runs)"},
    {"elements", ATL_APP_OPT_U64, P(dot_elements), .min = 1, .max = 0x1p28, .arg = "N",
     .def_help = "GPU: 16777216; CPU: 1048576", .help = "dot: elements per vector"},
    {"text", ATL_APP_OPT_TEXT, P(text_path), .def = "/usr/share/dictd/gcide.dict.dz", .arg = "FILE",
     .help = "strmatch: English text; .dz / .gz decompressed (zlib); the default is the Debian package dict-gcide"},
    {"text-bytes", ATL_APP_OPT_U64, P(text_bytes), .min = 1, .max = 0x1p30, .arg = "N", .def_help = "4194304",
     .help = "strmatch: bytes of the text to search"},
    {"keywords", ATL_APP_OPT_TEXTS, P(keywords), .count_offset = offsetof(struct atl_swapps_params, nkeywords),
     .def = "gravity,water,which,the", .arg = "LIST", .help = "strmatch: 1 to 4 keywords, none a prefix of another"},
    {"matmul", ATL_APP_OPT_LIST, P(matmul_n), .count_offset = offsetof(struct atl_swapps_params, nmatmul), .min = 1,
     .max = 4096, .arg = "LIST", .def_help = "GPU: 8,32,128,256,512; CPU: 8,32,64",
     .help = "mapreduce: n of each n x n matrix product"},
    {"kmeans", ATL_APP_OPT_LIST, P(kmeans_points), .count_offset = offsetof(struct atl_swapps_params, nkmeans),
     .min = 1, .max = 0x1p26, .arg = "LIST", .def_help = "GPU: 512,2048,8192,131072,1048576; CPU: 512,2048,8192",
     .help = "mapreduce: points of each KMeans map (16 centroids, 4-D)"},
    {0}};
#undef P

/* What a run allocates at most (atl_app_info.bytes_needed): the scalar product's two vectors and the string
 * match's text, on the host and the device (the MapReduce inputs are bounded by their options' ranges). */
static void swapps_bytes(const struct atl_device_info *d, const void *params, struct atl_app_bytes *need)
{
  const struct atl_swapps_params *p = params;
  const uint64_t dot = p->dot_elements * 8, text = p->text_bytes;
  (void)d;
  *need = (struct atl_app_bytes){dot + 2 * text, dot + text, dot >= text ? "elements" : "text-bytes"};
}

const struct atl_app_info atl__app_swapps = {
    .name = "swapps",
    .summary = "seed 000: scalar product, string match and MapReduce on system / warp / software atomics",
    .description =
        "Seed 000's applications (Section VI) with the system atomic, warp aggregation\n"
        "and the software atomic add, whose last work-group coordinates (it idles in\n"
        "the other variants, so all run on the same co-resident grid):\n"
        "  dot        scalar product: per-work-group partial sums, one atomic each\n"
        "  strmatch   four keywords in English text, one atomic per match on the\n"
        "             keyword's counter (several addresses in one kernel)\n"
        "  mapreduce  map tasks emit records into one array: Mars's two passes (count,\n"
        "             prefix sum, write) against one atomic reservation per thread or\n"
        "             per wavefront; matrix multiplication and the KMeans map phase\n"
        "Every row is verified against the host. Grids above what occupancy discovery\n"
        "finds co-resident are refused (exit 2); waits are bounded (--spin-bound; CPU\n"
        "default 2^26).",
    ATL__APP_ENTRY(struct atl_swapps_params, swapps),
    .prepare = swapps_prepare,
    .bytes_needed = swapps_bytes,
};
