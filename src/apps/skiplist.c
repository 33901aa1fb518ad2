/*
 * Seed 004: skiplist sort. p threads insert n keys into one lock-free
 * skiplist (CAS on each level's link, bottom level first); the bottom-level
 * walk is the sorted order. The host checks every level (bounded walk,
 * sorted, each node once, every node of the level's height present) and
 * compares the bottom level's keys with its own sort. On CUDA, CUB's radix
 * sort of the same keys is the baseline.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"
#include "core/verify.h"

/* Its registry entry, at the end of this file: the run checks its params with the entry's check. */
extern const struct atl_app_info atl__app_skiplist;

#define LEVELS 24 /* enough for 2^24 keys at p = 1/2 */

/* One call of CUB's radix sort of the keys, @p reps timed runs (atl__app_cub_time samples it). */
struct cub_sort {
  const struct atl__cub *cub;
  int ordinal;
  void *keys, *keys_out;
  uint32_t n;
};

static int cub_sort_u32(void *arg, unsigned reps, float *times, char *why, size_t len)
{
  const struct cub_sort *c = arg;
  return c->cub->sort_u32(c->ordinal, (uint64_t)(uintptr_t)c->keys, (uint64_t)(uintptr_t)c->keys_out, c->n, reps,
                          times, why, len);
}

/* The CUB radix sort of the same keys, checked against the host's sort. */
static int run_cub(atl_context_t ctx, const struct atl_list_params *p, const struct atl_app_timing *tm, void *keys,
                   const uint32_t *sorted, struct atl_result_set *out)
{
  struct atl_row row;
  struct atl__app_buffers bufs = {{0}, 0};
  char why[256];
  void *keys_out = NULL;
  uint32_t *got = NULL;
  int err = 0;
  atl__app_row_init(&row, "skiplist", "cub-radix-sort");
  int ordinal;
  const struct atl__cub *cub = atl__app_cub_for(ctx, &row, &ordinal);
  if (cub == NULL)
    goto out;
  snprintf(row.instructions, sizeof row.instructions, "cub::DeviceRadixSort::SortKeys, %s", cub->info);
  if ((got = malloc((size_t)p->nodes * 4)) == NULL) {
    err = atl__seterr(ctx, ATL_ENOMEM, "out of host memory");
    goto out;
  }
  if ((err = atl__app_alloc(ctx, &bufs, (size_t)p->nodes * 4, &keys_out))) {
    atl__app_row_failed(ctx, &row);
    goto out;
  }
  struct cub_sort call = {cub, ordinal, keys, keys_out, p->nodes};
  if (atl__app_cub_time(cub_sort_u32, &call, tm, &row, why, sizeof why) != 0) {
    atl__app_row_status(&row, ATL_STATUS_ERROR, "%s", why);
    goto out;
  }
  if ((err = atl__app_read(ctx, keys_out, got, (size_t)p->nodes * 4))) {
    atl__app_row_failed(ctx, &row);
    goto out;
  }
  atl__app_row_verdict(&row, memcmp(got, sorted, (size_t)p->nodes * 4) == 0,
                       "CUB's output differs from the host's sort");
  atl_row_metric_set(&row, "keys", p->nodes);
  atl__app_row_per_s(&row, "mkeys_per_s", p->nodes);
out:
  free(got);
  atl__app_free_all(ctx, &bufs);
  return atl__app_row_add(out, &row, err);
}

int atl_app_skiplist(atl_context_t ctx, const struct atl_list_params *p, const struct atl_app_timing *tm,
                     struct atl_result_set *out)
{
  struct atl__app_buffers bufs = {{0}, 0};
  struct atl__link_run r = {0};
  void *d_keys = NULL, *d_height = NULL;
  struct atl_row row;
  uint32_t *keys = NULL, *next = NULL, *retries = NULL, *sorted = NULL;
  uint8_t *height = NULL;
  void *kernel = NULL;
  char why[256], defines[32];
  int err = atl__app_checked(ctx, &atl__app_skiplist, p);
  if (err)
    return err;
  atl__app_row_init(&row, "skiplist", "cas-insert");
  const size_t n = p->nodes, global = ((size_t)p->threads + p->wg_size - 1) / p->wg_size * p->wg_size;
  r.next_bytes = (n + 1) * LEVELS * sizeof(uint32_t);
  keys = malloc(n * 4);
  sorted = malloc(n * 4);
  height = malloc(n);
  next = malloc(r.next_bytes);
  retries = malloc(global * 4);
  if (!keys || !sorted || !height || !next || !retries) {
    err = atl__seterr(ctx, ATL_ENOMEM, "out of host memory");
    goto out;
  }
  /* Random keys (duplicates allowed) and geometric heights, p = 1/2. */
  for (size_t i = 0; i < n; i++) {
    uint64_t h = atl__splitmix64(p->seed * 0x100000001b3ull + i);
    keys[i] = (uint32_t)h;
    unsigned lvl = 1;
    for (uint32_t bits = (uint32_t)(h >> 32); (bits & 1) && lvl < LEVELS; bits >>= 1)
      lvl++;
    height[i] = (uint8_t)lvl;
  }
  memcpy(sorted, keys, n * 4);
  qsort(sorted, n, sizeof *sorted, atl__cmp_u32);
  snprintf(defines, sizeof defines, "LEVELS=%d", LEVELS);
  if ((err = atl__app_alloc(ctx, &bufs, r.next_bytes, &r.next)) || (err = atl__app_alloc(ctx, &bufs, n * 4, &d_keys)) ||
      (err = atl__app_alloc(ctx, &bufs, n, &d_height)) || (err = atl__app_alloc(ctx, &bufs, 4, &r.abort_flag)) ||
      (err = atl__app_alloc(ctx, &bufs, global * 4, &r.retries)) ||
      (err = atl__ops(ctx)->write(atl__dev(ctx), d_keys, keys, n * 4)) ||
      (err = atl__ops(ctx)->write(atl__dev(ctx), d_height, height, n)) ||
      (err = atl__app_fill32(ctx, r.abort_flag, 0, 4)) || (err = atl__app_fill32(ctx, r.retries, 0, global * 4)) ||
      (err = atl__app_build(ctx, "app_skiplist", "skiplist_insert", defines, &kernel, &row))) {
    atl__app_row_failed(ctx, &row);
    goto out;
  }
  struct atl_arg args[] = {{ATL_ARG_BUFFER, r.next, 0},       {ATL_ARG_BUFFER, d_keys, 0},
                           {ATL_ARG_BUFFER, d_height, 0},     {ATL_ARG_U32, NULL, p->nodes},
                           {ATL_ARG_U32, NULL, p->threads},   {ATL_ARG_U32, NULL, tm->spin_bound},
                           {ATL_ARG_BUFFER, r.abort_flag, 0}, {ATL_ARG_BUFFER, r.retries, 0}};
  struct atl_launch launch = {global, p->wg_size, args, 8};
  uint64_t total = 0;
  if ((err = atl__link_time(ctx, kernel, &launch, &r, tm, next, retries, p->threads, &total, &row)))
    goto out;
  atl_row_metric_set(&row, "keys", p->nodes);
  atl_row_metric_set(&row, "threads", p->threads);
  atl_row_metric_set(&row, "retries_per_insert", (double)total / p->nodes);
  if (r.aborted) {
    atl__app_row_status(&row, ATL_STATUS_DEADLOCK, "a walk or CAS loop passed spin_bound %u", tm->spin_bound);
    goto out;
  }
  row.status = ATL_STATUS_OK;
  row.verified = atl__skiplist_check(next, keys, height, p->nodes, LEVELS, why, sizeof why) == 0;
  if (row.verified) { /* the bottom level in order is the host's sort */
    uint32_t cur = next[n * LEVELS];
    for (size_t i = 0; i < n && row.verified; i++, cur = next[(size_t)cur * LEVELS])
      if (keys[cur] != sorted[i]) {
        row.verified = 0;
        snprintf(why, sizeof why, "key %zu of the bottom-level walk is %u, the host's sort has %u", i, keys[cur],
                 sorted[i]);
      }
  }
  if (!row.verified)
    atl__app_row_status(&row, ATL_STATUS_OK, "%s", why);
  atl__app_row_per_s(&row, "mkeys_per_s", p->nodes);
out:
  if (atl_result_set_add(out, &row))
    err = ATL_ENOMEM;
  if (err != ATL_ENOMEM && p->want_cub && d_keys)
    err = run_cub(ctx, p, tm, d_keys, sorted, out);
  free(keys);
  free(sorted);
  free(height);
  free(next);
  free(retries);
  atl__app_free_all(ctx, &bufs);
  return err == ATL_ENOMEM ? err : 0;
}

static void skiplist_defaults(const struct atl_device_info *d, void *params)
{
  atl__list_defaults(d, params, 1);
}

ATL__APP_RUN(skiplist, atl_app_skiplist)

#define P(field) .offset = offsetof(struct atl_list_params, field)
static const struct atl_app_option skiplist_options[] = {
    ATL__APP_OPT_WG(struct atl_list_params, 65536, "work-items per work-group"),
    {"nodes", ATL_APP_OPT_U32, P(nodes), .min = 1, .max = 0x1p26, .arg = "N", .def_help = "GPU: 1048576; CPU: 4096",
     .help = "keys inserted"},
    {"threads", ATL_APP_OPT_U32, P(threads), .min = 1, .max = 0x1p26, .arg = "N",
     .def_help = "GPU: 65536; CPU: 256", .help = "inserting threads"},
    {"seed", ATL_APP_OPT_U64, P(seed), .max = 0x1p64, .def = "1", .arg = "N", .help = "key generator seed"},
    {"no-cub", ATL_APP_OPT_UNFLAG, P(want_cub), .bits = 1, .help = "skip the CUB baseline"},
    {0}};
#undef P

/* What a run allocates (atl_app_info.bytes_needed): keys, their sorted copy, heights, the links of every
 * level and the keys read back on the host; links, keys, heights and retries on the device. */
static void skiplist_bytes(const struct atl_device_info *d, const void *params, struct atl_app_bytes *need)
{
  const struct atl_list_params *p = params;
  const uint64_t n = p->nodes, links = (n + 1) * LEVELS * 4, retries = ((uint64_t)p->threads + p->wg_size) * 4;
  (void)d;
  *need = (struct atl_app_bytes){13 * n + links + retries, 9 * n + links + retries + 4, "nodes"};
}

const struct atl_app_info atl__app_skiplist = {
    .name = "skiplist",
    .summary = "seed 004: skiplist sort by concurrent CAS insertion, vs CUB radix sort",
    .description = "p threads insert n random keys into one lock-free skiplist (CAS on each\n"
                   "level's link, bottom level first). The host checks every level (sorted,\n"
                   "complete, no cycle) and compares the bottom-level walk with its own sort;\n"
                   "reports CAS retries per insert. On CUDA CUB's radix sort of the same keys\n"
                   "is the baseline.",
    ATL__APP_ENTRY_CHECK(struct atl_list_params, skiplist, atl__list_params_check),
    .bytes_needed = skiplist_bytes,
};
