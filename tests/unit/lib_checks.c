/*
 * The library's argument checks on a device (OpenCL: PoCL in CI). atl_scatter_add with a key outside
 * [0, targets) at row k, by every method and the deterministic mode, u32 keys at or past targets and int64 keys
 * of -1: ATL_ERANGE naming row k (the lowest bad row) and its key, and the output byte for byte as it was; the
 * skip flag runs valid keys unchecked. Then each class of caller's mistake in atl_scatter_add, the buffers,
 * atl_rmw_run, atl_strategy_run, the device calls and atl_sweep (NULL, an enum of 42, a flag of 7, aliased
 * buffers, sizes past the device or the buffer, timing out of range, a buffer of another context or of a
 * device since closed): ATL_EINVAL naming the field, nothing run.
 *   lib_checks [GROUP [BACKEND]]   GROUP: keys, unchecked, scatter, rmw, strategy, device, buffers or all (the
 *                                  default); BACKEND: opencl (the default) or cuda on a GPU
 * Exits 77 without a device of BACKEND.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"
#include "check.h"

#define ROWS 5000u
#define TARGETS 1000u
#define DIM 4u
#define FILL 0xa5u /* the output's bytes before a refused call */

/* Whether atl_errmsg() holds @p text (printed where not, so a failure shows the message). */
static int says(atl_context_t ctx, const char *text)
{
  if (strstr(atl_errmsg(ctx), text) != NULL)
    return 1;
  fprintf(stderr, "    message '%s' lacks '%s'\n", atl_errmsg(ctx), text);
  return 0;
}

struct bufs {
  atl_buffer_t out, src, idx;
};

static int bufs_new(atl_context_t ctx, struct bufs *b, uint32_t dim, unsigned index_bytes)
{
  *b = (struct bufs){NULL, NULL, NULL};
  return atl_buffer_new(ctx, (size_t)TARGETS * dim * 4, &b->out) ||
         atl_buffer_new(ctx, (size_t)ROWS * dim * 4, &b->src) ||
         atl_buffer_new(ctx, (size_t)ROWS * index_bytes, &b->idx);
}

static void bufs_free(atl_context_t ctx, struct bufs *b)
{
  atl_buffer_free(ctx, b->out), atl_buffer_free(ctx, b->src), atl_buffer_free(ctx, b->idx);
}

/* Keys valid but at rows @p k1 and @p k2 (k1 < k2), where they are @p bad; out filled with FILL; the call must
 * give ATL_ERANGE naming row k1 and leave out as it was. */
static void bad_key(atl_context_t ctx, enum atl_scatter_method m, int det, enum atl_scatter_type type, uint32_t dim,
                    unsigned index_bytes, uint64_t bad, uint32_t k1, uint32_t k2)
{
  struct bufs b;
  uint64_t *k64 = malloc(ROWS * sizeof *k64);
  uint32_t *k32 = malloc(ROWS * sizeof *k32), *src = malloc((size_t)ROWS * dim * 4);
  unsigned char *out = malloc((size_t)TARGETS * dim * 4), *back = malloc((size_t)TARGETS * dim * 4);
  if (!CHECK(k64 && k32 && src && out && back && bufs_new(ctx, &b, dim, index_bytes) == 0))
    goto done;
  for (uint32_t i = 0; i < ROWS; i++)
    k64[i] = k32[i] = (i * 2654435761u) % TARGETS;
  k64[k1] = k64[k2] = bad, k32[k1] = k32[k2] = (uint32_t)bad;
  for (uint32_t i = 0; i < ROWS * dim; i++)
    src[i] = type == ATL_SCATTER_F32 ? 0x3f800000u : 1u;
  memset(out, FILL, (size_t)TARGETS * dim * 4);
  const struct atl_scatter_desc d = {.type = type, .index_bytes = index_bytes, .rows = ROWS, .targets = TARGETS,
                                     .dim = dim, .deterministic = det, .method = m};
  if (!CHECK(atl_buffer_write(ctx, b.idx, index_bytes == 8 ? (void *)k64 : (void *)k32, ROWS * index_bytes) == 0 &&
             atl_buffer_write(ctx, b.src, src, (size_t)ROWS * dim * 4) == 0 &&
             atl_buffer_write(ctx, b.out, out, (size_t)TARGETS * dim * 4) == 0))
    goto done;
  const int err = atl_scatter_add(ctx, &d, b.out, b.src, b.idx, NULL);
  char row[64], key[64];
  snprintf(row, sizeof row, "row %u ", k1);
  snprintf(key, sizeof key, "key %lld,", index_bytes == 8 ? (long long)bad : (long long)(uint32_t)bad);
  printf("%-6s %s keys, bad %s at rows %u and %u: %s: %s\n", det ? "det" : atl_scatter_method_name(m),
         index_bytes == 8 ? "i64" : "u32", key, k1, k2, atl_err_name(err), atl_errmsg(ctx));
  CHECK_EQ(err, ATL_ERANGE);
  CHECK(says(ctx, row) && says(ctx, key));
  CHECK(atl_buffer_read(ctx, b.out, back, (size_t)TARGETS * dim * 4) == 0 &&
        memcmp(out, back, (size_t)TARGETS * dim * 4) == 0);
done:
  bufs_free(ctx, &b);
  free(k64), free(k32), free(src), free(out), free(back);
}

#ifdef ATL_SCATTER_KEYS_CHECKED
/* The skip flag: valid keys run unchecked and sum as they do checked (each row's count of 1s). */
static void unchecked(atl_context_t ctx)
{
  struct bufs b;
  uint32_t *k = malloc(ROWS * 4), *src = malloc(ROWS * 4), *out = calloc(TARGETS, 4), *want = calloc(TARGETS, 4);
  if (!CHECK(k && src && out && want && bufs_new(ctx, &b, 1, 4) == 0))
    goto done;
  for (uint32_t i = 0; i < ROWS; i++)
    k[i] = (i * 7u) % TARGETS, src[i] = 1, want[k[i]]++;
  struct atl_scatter_desc d = {.type = ATL_SCATTER_U32, .index_bytes = 4, .rows = ROWS, .targets = TARGETS,
                               .dim = 1, .unchecked_keys = ATL_SCATTER_KEYS_CHECKED};
  CHECK(atl_buffer_write(ctx, b.idx, k, ROWS * 4) == 0 && atl_buffer_write(ctx, b.src, src, ROWS * 4) == 0 &&
        atl_buffer_write(ctx, b.out, out, TARGETS * 4) == 0);
  CHECK(atl_scatter_add(ctx, &d, b.out, b.src, b.idx, NULL) == 0);
  CHECK(atl_buffer_read(ctx, b.out, out, TARGETS * 4) == 0 && memcmp(out, want, TARGETS * 4) == 0);
  d.unchecked_keys = 2;
  CHECK(atl_scatter_add(ctx, &d, b.out, b.src, b.idx, NULL) == ATL_EINVAL && says(ctx, "unchecked_keys 2"));
done:
  bufs_free(ctx, &b);
  free(k), free(src), free(out), free(want);
}
#endif

/* Each field and buffer of atl_scatter_add refused with its name, before anything runs. */
static void scatter_refusals(atl_context_t ctx)
{
  struct bufs b;
  if (!CHECK(bufs_new(ctx, &b, DIM, 8) == 0))
    return;
  const struct atl_scatter_desc ok = {.type = ATL_SCATTER_F32, .index_bytes = 8, .rows = ROWS, .targets = TARGETS,
                                      .dim = DIM};
  struct atl_scatter_desc d = ok;
  CHECK(atl_scatter_add(NULL, &d, b.out, b.src, b.idx, NULL) == ATL_EINVAL);
  CHECK(atl_scatter_add(ctx, NULL, b.out, b.src, b.idx, NULL) == ATL_EINVAL && says(ctx, "d is NULL"));
  CHECK(atl_scatter_add(ctx, &d, NULL, b.src, b.idx, NULL) == ATL_EINVAL && says(ctx, "out is NULL"));
  CHECK(atl_scatter_add(ctx, &d, b.out, NULL, b.idx, NULL) == ATL_EINVAL && says(ctx, "src is NULL"));
  CHECK(atl_scatter_add(ctx, &d, b.out, b.src, NULL, NULL) == ATL_EINVAL && says(ctx, "idx is NULL"));
  CHECK(atl_scatter_method_for(ctx, &d, b.idx, NULL) == ATL_EINVAL);
  d.type = 42;
  CHECK(atl_scatter_add(ctx, &d, b.out, b.src, b.idx, NULL) == ATL_EINVAL && says(ctx, "type 42"));
  d = ok, d.method = 42;
  CHECK(atl_scatter_add(ctx, &d, b.out, b.src, b.idx, NULL) == ATL_EINVAL && says(ctx, "method 42"));
  d = ok, d.keys = (enum atl_scatter_keys)-1;
  CHECK(atl_scatter_add(ctx, &d, b.out, b.src, b.idx, NULL) == ATL_EINVAL && says(ctx, "keys -1"));
  d = ok, d.deterministic = 7;
  CHECK(atl_scatter_add(ctx, &d, b.out, b.src, b.idx, NULL) == ATL_EINVAL && says(ctx, "deterministic 7"));
  d = ok, d.index_bytes = 6;
  CHECK(atl_scatter_add(ctx, &d, b.out, b.src, b.idx, NULL) == ATL_EINVAL && says(ctx, "index_bytes 6"));
  d = ok, d.dim = 0;
  CHECK(atl_scatter_add(ctx, &d, b.out, b.src, b.idx, NULL) == ATL_EINVAL && says(ctx, "dim 0"));
  d = ok, d.targets = 1ull << 32;
  CHECK(atl_scatter_add(ctx, &d, b.out, b.src, b.idx, NULL) == ATL_EINVAL && says(ctx, "targets 4294967296"));
  d = ok, d.rows = ROWS + 1; /* more rows than the buffers hold */
  CHECK(atl_scatter_add(ctx, &d, b.out, b.src, b.idx, NULL) == ATL_EINVAL && says(ctx, "idx 40000 bytes"));
  d = ok, d.targets = TARGETS + 1;
  CHECK(atl_scatter_add(ctx, &d, b.out, b.src, b.idx, NULL) == ATL_EINVAL && says(ctx, "out 16000 bytes"));
  d = ok; /* aliasing: out must be its own */
  CHECK(atl_scatter_add(ctx, &d, b.src, b.src, b.idx, NULL) == ATL_EINVAL && says(ctx, "same buffer as src"));
  d.targets = ROWS * 2, d.dim = 1; /* out == idx where its bytes would do */
  CHECK(atl_scatter_add(ctx, &d, b.idx, b.src, b.idx, NULL) == ATL_EINVAL && says(ctx, "same buffer as idx"));
  bufs_free(ctx, &b);
}

/* The buffers: NULLs, a size past the device's largest allocation, a transfer past the buffer, a buffer of
 * another context and one of a device since closed (the same device opened again). */
static void buffer_refusals(atl_context_t ctx)
{
  atl_buffer_t b = NULL, stale = NULL, other_buf = NULL;
  char host[64] = {0};
  const struct atl_device_info *dev = atl_device_current(ctx);
  CHECK(atl_buffer_new(ctx, 64, NULL) == ATL_EINVAL && says(ctx, "out is NULL"));
  CHECK(atl_buffer_new(ctx, (size_t)dev->max_alloc + 1, &b) == ATL_EINVAL && b == NULL && says(ctx, "bytes "));
  if (!CHECK(atl_buffer_new(ctx, 64, &b) == 0))
    return;
  CHECK(atl_buffer_write(ctx, b, NULL, 1) == ATL_EINVAL && says(ctx, "host is NULL"));
  CHECK(atl_buffer_read(ctx, b, host, 65) == ATL_EINVAL && says(ctx, "bytes 65"));
  CHECK(atl_buffer_read(ctx, NULL, host, 1) == ATL_EINVAL && says(ctx, "buffer is NULL"));
  atl_context_t other = NULL;
  if (CHECK(atl_context_new(&other) == 0 && atl_device_open(other, dev->id, NULL) == 0 &&
            atl_buffer_new(other, 64, &other_buf) == 0))
    CHECK(atl_buffer_write(ctx, other_buf, host, 1) == ATL_EINVAL && says(ctx, "another context"));
  atl_buffer_free(other, other_buf);
  atl_context_free(other);
  char id[32];
  snprintf(id, sizeof id, "%s", dev->id);
  stale = b;
  CHECK(atl_device_open(ctx, id, NULL) == 0);
  CHECK(atl_buffer_write(ctx, stale, host, 1) == ATL_EINVAL && says(ctx, "a device since closed"));
  const struct atl_scatter_desc d = {.type = ATL_SCATTER_U32, .index_bytes = 4, .rows = 4, .targets = 4, .dim = 1};
  atl_buffer_t fresh = NULL;
  if (CHECK(atl_buffer_new(ctx, 64, &fresh) == 0))
    CHECK(atl_scatter_add(ctx, &d, fresh, stale, stale, NULL) == ATL_EINVAL &&
          says(ctx, "a device since closed"));
  atl_buffer_free(ctx, fresh);
  atl_buffer_free(ctx, stale);
}

/* atl_rmw_run and atl_rmw_check: NULLs, enums of 42, a zero count, timing out of range: ATL_EINVAL naming it. */
static void rmw_refusals(atl_context_t ctx)
{
  const struct atl_spec ok = {.op = ATL_OP_FETCH_ADD, .type = ATL_TYPE_U32, .space = ATL_SPACE_GLOBAL,
                              .pattern = ATL_PATTERN_CONTIGUOUS, .contention = 1, .padding = 1, .wg_size = 32,
                              .workgroups = 2};
  struct atl_timing tm, t;
  atl_timing_defaults(&tm);
  struct atl_row row;
  struct atl_spec s = ok;
  char why[256];
  CHECK(atl_rmw_run(NULL, &s, &tm, &row) == ATL_EINVAL);
  CHECK(atl_rmw_run(ctx, &s, &tm, NULL) == ATL_EINVAL && says(ctx, "row is NULL"));
  CHECK(atl_rmw_run(ctx, NULL, &tm, &row) == ATL_EINVAL && says(ctx, "spec is NULL"));
  atl_row_release(&row);
  CHECK(atl_rmw_run(ctx, &s, NULL, &row) == ATL_EINVAL && says(ctx, "timing is NULL"));
  atl_row_release(&row);
  const struct {
    size_t offset;
    const char *name;
  } fields[] = {{offsetof(struct atl_spec, pattern), "pattern 42"}, {offsetof(struct atl_spec, op), "op 42"},
                {offsetof(struct atl_spec, type), "type 42"},       {offsetof(struct atl_spec, space), "space 42"},
                {offsetof(struct atl_spec, result), "result 42"},   {offsetof(struct atl_spec, scope), "scope 42"},
                {offsetof(struct atl_spec, order), "order 42"}};
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
    s = ok;
    const int v = 42;
    memcpy((char *)&s + fields[i].offset, &v, sizeof v);
    CHECK(atl_rmw_run(ctx, &s, &tm, &row) == ATL_EINVAL && says(ctx, fields[i].name) &&
          row.status == ATL_STATUS_ERROR);
    atl_row_release(&row);
    CHECK(atl_rmw_check(ctx, &s, why, sizeof why) == ATL_EINVAL && strstr(why, fields[i].name) != NULL);
  }
  s = ok, s.contention = 0;
  CHECK(atl_rmw_run(ctx, &s, &tm, &row) == ATL_EINVAL && says(ctx, "contention 0"));
  atl_row_release(&row);
  s = ok;
  t = tm, t.target_ms = -1;
  CHECK(atl_rmw_run(ctx, &s, &t, &row) == ATL_EINVAL && says(ctx, "target-ms -1"));
  atl_row_release(&row);
  t = tm, t.noise = NAN;
  CHECK(atl_rmw_run(ctx, &s, &t, &row) == ATL_EINVAL && says(ctx, "noise nan"));
  atl_row_release(&row);
  t = tm, t.discard_throttled = 7;
  CHECK(atl_rmw_run(ctx, &s, &t, &row) == ATL_EINVAL && says(ctx, "discard-on-throttle 7"));
  atl_row_release(&row);
  t = tm, t.max_samples = 0;
  CHECK(atl_rmw_run(ctx, &s, &t, &row) == ATL_EINVAL && says(ctx, "max-samples 0"));
  atl_row_release(&row);
  t = tm, t.placements = 0;
  CHECK(atl_rmw_run(ctx, &s, &t, &row) == ATL_EINVAL && says(ctx, "placements 0"));
  atl_row_release(&row);
  CHECK(atl_rmw_check(ctx, NULL, why, sizeof why) == ATL_EINVAL && strstr(why, "spec is NULL") != NULL);
  CHECK(atl_rmw_check(NULL, &s, why, sizeof why) == ATL_EINVAL);
}

/* atl_strategy_run and atl_strategy_check: the same classes as rmw's, and the flags of 7. */
static void strategy_refusals(atl_context_t ctx)
{
  const struct atl_strategy_spec ok = {.strategy = ATL_STRATEGY_NATIVE, .access = ATL_ACCESS_SCATTERED,
                                       .op = ATL_OP_FETCH_ADD, .wg_size = 32, .workgroups = 2};
  struct atl_timing tm, t;
  atl_timing_defaults(&tm);
  struct atl_row row;
  struct atl_strategy_spec s = ok;
  char why[256];
  CHECK(atl_strategy_run(NULL, &s, &tm, &row) == ATL_EINVAL);
  CHECK(atl_strategy_run(ctx, &s, &tm, NULL) == ATL_EINVAL && says(ctx, "row is NULL"));
  CHECK(atl_strategy_run(ctx, NULL, &tm, &row) == ATL_EINVAL && says(ctx, "spec is NULL"));
  atl_row_release(&row);
  CHECK(atl_strategy_run(ctx, &s, NULL, &row) == ATL_EINVAL && says(ctx, "timing is NULL"));
  atl_row_release(&row);
  const struct {
    size_t offset;
    int value;
    const char *name;
  } fields[] = {{offsetof(struct atl_strategy_spec, strategy), 42, "strategy 42"},
                {offsetof(struct atl_strategy_spec, access), 42, "access 42"},
                {offsetof(struct atl_strategy_spec, op), 42, "op 42"},
                {offsetof(struct atl_strategy_spec, result), -1, "result -1"},
                {offsetof(struct atl_strategy_spec, divergent), 7, "divergent 7"},
                {offsetof(struct atl_strategy_spec, stuck_lock), 7, "stuck_lock 7"},
                {offsetof(struct atl_strategy_spec, runtime_select), 7, "runtime_select 7"},
                {offsetof(struct atl_strategy_spec, workgroups), 0, "workgroups 0"}};
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
    s = ok;
    memcpy((char *)&s + fields[i].offset, &fields[i].value, sizeof(int));
    CHECK(atl_strategy_run(ctx, &s, &tm, &row) == ATL_EINVAL && says(ctx, fields[i].name) &&
          row.status == ATL_STATUS_ERROR);
    atl_row_release(&row);
    CHECK(atl_strategy_check(ctx, &s, why, sizeof why) == ATL_EINVAL && strstr(why, fields[i].name) != NULL);
  }
  s = ok, t = tm, t.rotate = 7;
  CHECK(atl_strategy_run(ctx, &s, &t, &row) == ATL_EINVAL && says(ctx, "rotate 7"));
  atl_row_release(&row);
  CHECK(atl_strategy_check(ctx, NULL, why, sizeof why) == ATL_EINVAL && strstr(why, "spec is NULL") != NULL);
}

static int measure_none(atl_context_t ctx, const void *arg, size_t i, const struct atl_timing *timing,
                        struct atl_row *row)
{
  (void)ctx, (void)arg, (void)i, (void)timing, (void)row;
  return 0;
}

/* The context, the device calls, the rows and sets, the apps' configurations and atl_sweep: NULLs where a place or
 * an argument is needed. */
static void device_refusals(atl_context_t ctx)
{
  const struct atl_device_info *list = NULL;
  size_t n = 0;
  struct atl_occupancy occ;
  struct atl_timing tm;
  atl_timing_defaults(&tm);
  CHECK(atl_context_new(NULL) == ATL_EINVAL);
  CHECK(atl_device_open(NULL, NULL, NULL) == ATL_EINVAL && atl_device_current(NULL) == NULL);
  CHECK(strcmp(atl_errmsg(NULL), "") == 0 && strcmp(atl_backend_notes(NULL), "") == 0);
  CHECK(atl_devices(ctx, NULL, &n) == ATL_EINVAL && says(ctx, "list is NULL"));
  CHECK(atl_devices(ctx, &list, NULL) == ATL_EINVAL && says(ctx, "count is NULL"));
  CHECK(atl_device_clocks(ctx, NULL) == ATL_EINVAL && says(ctx, "out is NULL"));
  CHECK(atl_device_peer_info(ctx, 0, 0, NULL) == ATL_EINVAL && says(ctx, "out is NULL"));
  CHECK(atl_occupancy_discover(ctx, 64, NULL) == ATL_EINVAL && says(ctx, "out is NULL"));
  CHECK(atl_occupancy_discover(ctx, 0, &occ) == ATL_EINVAL && says(ctx, "wg_size 0"));
  CHECK(atl_device_list_parse(ctx, NULL, NULL, NULL, 0, &n) == ATL_EINVAL && says(ctx, "text is NULL"));
  CHECK(atl_row_config_set(NULL, "op", "x") == ATL_EINVAL && atl_result_set_add(NULL, NULL) == ATL_EINVAL);
  CHECK(atl_row_config(NULL, "op") == NULL && atl_row_metric(NULL, "gops", 3.0) == 3.0);
  atl_row_init(NULL, "rmw"), atl_row_release(NULL), atl_result_set_release(NULL); /* nothing, no crash */
  atl_app_config_t cfg = NULL;
  char why[200];
  CHECK(atl_app_config_new(NULL, &cfg) == ATL_EINVAL && cfg == NULL);
  CHECK(atl_app_config_set(NULL, "size", "1", why, sizeof why) == ATL_EINVAL && strstr(why, "cfg is NULL") != NULL);
  CHECK(atl_app_check(NULL, atl_device_current(ctx), NULL, why, sizeof why) == ATL_EINVAL &&
        strstr(why, "app is NULL") != NULL);
  CHECK(atl_app_config_run(NULL, ctx, NULL) == ATL_EINVAL && says(ctx, "cfg is NULL"));
  CHECK(atl_app_config_option(NULL, "size") == NULL && atl_app_config_option_at(NULL, 0) == NULL);
  struct atl_sweep_spec spec = {.kind = "rmw", .count = 1, .measure = measure_none};
  struct atl_sweep_run run = {.timing = &tm};
  struct atl_result_set set;
  struct atl_sweep_report rep;
  memset(&set, 0, sizeof set);
  CHECK(atl_sweep(ctx, NULL, &run, &set, &rep) == ATL_EINVAL && says(ctx, "spec is NULL"));
  spec.measure = NULL;
  CHECK(atl_sweep(ctx, &spec, &run, &set, &rep) == ATL_EINVAL && says(ctx, "spec->measure is NULL"));
  spec.measure = measure_none, run.timing = NULL;
  CHECK(atl_sweep(ctx, &spec, &run, &set, &rep) == ATL_EINVAL && says(ctx, "run->timing is NULL"));
  run.timing = &tm, run.drop_others = 7;
  CHECK(atl_sweep(ctx, &spec, &run, &set, &rep) == ATL_EINVAL && says(ctx, "drop_others"));
  tm.min_samples = 0, run.drop_others = 0;
  CHECK(atl_sweep(ctx, &spec, &run, &set, &rep) == ATL_EINVAL && says(ctx, "min-samples 0"));
}

static void bad_keys(atl_context_t ctx)
{
  static const enum atl_scatter_method methods[] = {ATL_SCATTER_AUTO,  ATL_SCATTER_ATOMIC, ATL_SCATTER_RUN,
                                                    ATL_SCATTER_BLOCK, ATL_SCATTER_PART,   ATL_SCATTER_PART1,
                                                    ATL_SCATTER_SWEEP, ATL_SCATTER_BUCKET};
  for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
    bad_key(ctx, methods[i], 0, ATL_SCATTER_F32, DIM, 4, TARGETS, 1234, 4000);
    bad_key(ctx, methods[i], 0, ATL_SCATTER_F32, DIM, 8, UINT64_MAX, 17, 4999);
  }
  /* the weighted bincount's methods (dim 1), the deterministic mode, a bad key in row 0 and in the last row */
  bad_key(ctx, ATL_SCATTER_BINS, 0, ATL_SCATTER_U32, 1, 4, UINT32_MAX, 0, 10);
  bad_key(ctx, ATL_SCATTER_DSM, 0, ATL_SCATTER_I32, 1, 8, (uint64_t)-5, 2500, 2501);
  bad_key(ctx, ATL_SCATTER_AUTO, 1, ATL_SCATTER_F32, DIM, 4, TARGETS + 7, 4998, 4999);
  bad_key(ctx, ATL_SCATTER_AUTO, 1, ATL_SCATTER_F32, DIM, 8, UINT64_MAX, 333, 334);
  bad_key(ctx, ATL_SCATTER_ATOMIC, 0, ATL_SCATTER_F32, DIM, 8, 1ull << 32, 4999, 4999);
}

/* The groups, each on its own where named on the command line (all by default): the buffers' last, as they
 * open the device again. */
static const struct {
  const char *name;
  void (*fn)(atl_context_t);
} groups[] = {{"keys", bad_keys},
#ifdef ATL_SCATTER_KEYS_CHECKED
              {"unchecked", unchecked},
#endif
              {"scatter", scatter_refusals}, {"rmw", rmw_refusals}, {"strategy", strategy_refusals},
              {"device", device_refusals},   {"buffers", buffer_refusals}};

int main(int argc, char **argv)
{
  atl_context_t ctx = NULL;
  if (atl_context_new(&ctx))
    return 1;
  const char *backend = argc > 2 ? argv[2] : "opencl";
  if (atl_device_open(ctx, NULL, backend) != 0) {
    printf("no %s device: %s\n", backend, atl_errmsg(ctx));
    atl_context_free(ctx);
    return 77;
  }
  for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
    if (argc < 2 || strcmp(argv[1], "all") == 0 || strcmp(argv[1], groups[g].name) == 0)
      groups[g].fn(ctx);
  atl_context_free(ctx);
  return check_exit("lib_checks");
}
