/*
 * The calibration driver (src/model/smem/calibrate.c) against a simulated GPU:
 * a mock backend whose "kernel" plays smem_calibrate.cu's protocol on the host
 * (per-SM slots, two blocks per SM, the state words) with a known T(n, e, c),
 * some SMs whose second block comes late and an SM id that never appears. The
 * table must hold exactly the known T for every point; late samples must be
 * measured again; a wrong word and an expired spin bound must be errors.
 * (The real kernel runs on the GPU: `atomlab calibrate smem`.)
 */
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"
#include "check.h"
#include "core/context.h"

#define SMS 6
#define SLOT_WORDS 8

static struct {
  unsigned launches, late_every, bad_at, spin_at;
  unsigned long long late_count;
} sim;

static double known_T(unsigned n, unsigned e, unsigned c, int used) { return 40 + 3 * n * e + 7 * c + (used ? 5 : 0); }

static int m_alloc(void *dev, size_t bytes, void **buf)
{
  (void)dev;
  *buf = calloc(1, bytes);
  return *buf ? 0 : ATL_ENOMEM;
}
static void m_free(void *dev, void *buf)
{
  (void)dev;
  free(buf);
}
static int m_fill(void *dev, void *buf, const void *pattern, size_t psize, size_t bytes)
{
  (void)dev;
  for (size_t i = 0; i < bytes; i += psize)
    memcpy((char *)buf + i, pattern, psize);
  return 0;
}
static int m_write(void *dev, void *buf, const void *src, size_t bytes)
{
  (void)dev;
  memcpy(buf, src, bytes);
  return 0;
}
static int m_read(void *dev, void *buf, void *dst, size_t bytes)
{
  (void)dev;
  memcpy(dst, buf, bytes);
  return 0;
}
static int used_variant;
static int m_build(void *dev, const struct atl_build *req, void **kernel)
{
  (void)dev;
  used_variant = strstr(req->defines, "RESULT_USED=1") != NULL;
  CHECK(strcmp(req->source, "smem_calibrate") == 0);
  *kernel = &used_variant;
  return 0;
}
static int m_describe(void *dev, void *kernel, char *buf, size_t len)
{
  (void)dev;
  snprintf(buf, len, "%s", *(int *)kernel ? "ATOMS.ADD x1, ATOMS.CAS x1" : "ATOMS.POPC.INC x1, ATOMS.CAS x1");
  return 0;
}

/* The kernel's protocol: SM ids 0, 1, 2, 4, 5, 6 exist (3 does not); per SM two blocks of 1024 threads. */
static int m_launch(void *dev, void *kernel, const struct atl_launch *l, double *ms)
{
  (void)dev;
  (void)kernel;
  const unsigned *cfg = l->args[0].buffer;
  unsigned long long *state = l->args[1].buffer;
  const unsigned nslots = (unsigned)l->args[2].value;
  CHECK_EQ(l->local, 1024);
  CHECK_EQ(l->global, 2 * SMS * 1024);
  CHECK_EQ(nslots, 2 * SMS);
  sim.launches++;
  static const unsigned smids[SMS] = {0, 1, 2, 4, 5, 6};
  for (unsigned k = 0; k < SMS; k++) {
    unsigned long long *s = state + smids[k] * SLOT_WORDS;
    const unsigned c = cfg[smids[k]], n = c & 0xff, e = (c >> 8) & 0xff, ncas = (c >> 16) & 0xff;
    s[3] = 2; /* both blocks arrived */
    if (n == 0)
      continue;
    const unsigned long long start = 1000 + 17 * sim.launches;
    s[0] = start;
    s[1] = ~start;
    s[2] = start + (unsigned long long)known_T(n, e, ncas, used_variant);
    s[4] = n;
    if (sim.late_every && n > 32 && sim.launches % sim.late_every == 0) {
      s[5] |= 1; /* the second block came after the gate */
      sim.late_count++;
    }
    if (sim.bad_at && sim.launches == sim.bad_at)
      s[6] = 1;
    if (sim.spin_at && sim.launches == sim.spin_at)
      s[5] |= 2;
  }
  *ms = 0.01;
  return 0;
}

static atl_context_t mock_context(struct atl_backend_ops *ops)
{
  atl_context_t ctx = NULL;
  if (atl_context_new(&ctx))
    return NULL;
  /* the ops the calibration calls; the others stay NULL */
  *ops = (struct atl_backend_ops){.name = "mock", .alloc = m_alloc, .free = m_free, .fill = m_fill, .write = m_write,
                                  .read = m_read, .build = m_build, .launch = m_launch, .describe_kernel = m_describe};
  ctx->ops = ops;
  ctx->dev = &sim;
  memset(&ctx->current, 0, sizeof ctx->current);
  snprintf(ctx->current.backend, sizeof ctx->current.backend, "cuda");
  ctx->current.has_sm_clock = 1; /* what the calibration asks, not the name */
  snprintf(ctx->current.name, sizeof ctx->current.name, "Simulated GPU");
  ctx->current.compute_units = SMS;
  ctx->current.warp_size = 32;
  ctx->current.max_threads_per_cu = 2048;
  ctx->current.max_wg_size = 1024;
  return ctx;
}

static unsigned *range(unsigned lo, unsigned hi, size_t *count)
{
  unsigned *v = malloc((hi - lo + 1) * sizeof *v);
  for (unsigned i = lo; i <= hi; i++)
    v[i - lo] = i;
  *count = hi - lo + 1;
  return v;
}

static void ctx_release(atl_context_t ctx)
{
  ctx->ops = NULL; /* the mock has no close */
  ctx->dev = NULL;
  atl_context_free(ctx);
}

int main(void)
{
  struct atl_backend_ops ops;
  atl_context_t ctx = mock_context(&ops);
  size_t nn, ne;
  unsigned *n_values = range(1, 64, &nn), e_values[] = {1, 7, 32};
  ne = 3;
  struct atl_smem_calibration cfg = {.nmax = 64, .n_values = n_values, .n_count = nn, .e_values = e_values,
                                     .e_count = ne, .reps = 3, .delay_cycles = 20000};
  cfg.variants[ATL_SMEM_UNUSED] = cfg.variants[ATL_SMEM_USED] = 1;
  struct atl_smem_table table;
  struct atl_smem_spread spread;
  struct atl_smem_calibration_info info;
  atl_smem_table_init(&table, 64, 32);
  atl_smem_table_init(&spread.min, 64, 32);
  atl_smem_table_init(&spread.max, 64, 32);
  sim.late_every = 3; /* every third launch, SMs measuring n > 32 report a late block */
  int err = atl_smem_calibrate(ctx, &cfg, &table, &spread, &info);
  if (!CHECK(err == 0))
    CHECK_CONTEXT("%s", atl_errmsg(ctx));
  const size_t per_variant = 3 * (64 * 65 / 2 + 64); /* e values x sum over n of (n + 1) c values */
  CHECK_EQ(info.points, 2 * per_variant);
  CHECK_EQ(info.slots, SMS);
  CHECK(info.retried > 0 && info.retried == sim.late_count);
  CHECK(strstr(info.instructions[ATL_SMEM_USED], "ATOMS.ADD") != NULL);
  CHECK(strstr(info.instructions[ATL_SMEM_UNUSED], "POPC.INC") != NULL);
  /* the two variants, every point exactly the simulated T (all reps agree, so min = median = max) */
  size_t wrong = 0;
  for (int v = 0; v < 2; v++)
    for (unsigned n = 1; n <= 64; n++)
      for (size_t k = 0; k < ne; k++)
        for (unsigned c = 0; c <= n; c++) {
          double want = known_T(n, e_values[k], c, v);
          wrong += atl_smem_table_get(&table, (enum atl_smem_variant)v, n, e_values[k], c) != want;
          wrong += atl_smem_table_get(&spread.min, (enum atl_smem_variant)v, n, e_values[k], c) != want;
        }
  CHECK_EQ(wrong, 0);
  CHECK_EQ(atl_smem_table_count(&table, ATL_SMEM_USED), per_variant);
  /* about points x reps / SMs launches per variant (plus the probe and the retries), not one per point */
  CHECK(info.launches < 2 * (per_variant * 3 / SMS + 2) + info.retried + 4);

  /* a wrong shared word is an error, not a row */
  atl_smem_table_release(&table);
  atl_smem_table_init(&table, 64, 32);
  memset(&sim, 0, sizeof sim);
  sim.bad_at = 5;
  err = atl_smem_calibrate(ctx, &cfg, &table, NULL, &info);
  CHECK(err == ATL_EVERIFY);
  CHECK(strstr(atl_errmsg(ctx), "wrong shared word") != NULL);
  /* an expired spin bound is a deadlock */
  memset(&sim, 0, sizeof sim);
  sim.spin_at = 7;
  CHECK(atl_smem_calibrate(ctx, &cfg, &table, NULL, &info) == ATL_EDEADLOCK);
  /* a point that never gets all its warps on one SM in time ends with an error, not a hang */
  memset(&sim, 0, sizeof sim);
  sim.late_every = 1;
  err = atl_smem_calibrate(ctx, &cfg, &table, NULL, &info);
  CHECK(err == ATL_EBACKEND);
  CHECK(strstr(atl_errmsg(ctx), "never ran with all warps") != NULL);
  /* n beyond the device, and a device without a per-SM clock (OpenCL's) */
  n_values[0] = 65;
  CHECK(atl_smem_calibrate(ctx, &cfg, &table, NULL, &info) == ATL_EINVAL);
  n_values[0] = 1;
  snprintf(ctx->current.backend, sizeof ctx->current.backend, "opencl");
  ctx->current.has_sm_clock = 0;
  CHECK(atl_smem_calibrate(ctx, &cfg, &table, NULL, &info) == ATL_ENOTSUP);
  /* e left out is every e from 1 to 32: one n, one c, 32 points */
  ctx->current.has_sm_clock = 1;
  memset(&sim, 0, sizeof sim);
  unsigned one = 4, zero = 0;
  struct atl_smem_calibration every_e = {.nmax = 64, .n_values = &one, .n_count = 1, .c_values = &zero,
                                         .c_count = 1, .reps = 1, .delay_cycles = 20000, .variants = {0, 1}};
  atl_smem_table_release(&table);
  atl_smem_table_init(&table, 64, 32);
  CHECK(atl_smem_calibrate(ctx, &every_e, &table, NULL, &info) == 0);
  CHECK_EQ(info.points, 32);
  CHECK(atl_smem_table_get(&table, ATL_SMEM_USED, 4, 32, 0) == known_T(4, 32, 0, 1));
  /* what a run prints: the counts, each variant's instructions, a note where they are not the expected ones */
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  snprintf(info.instructions[ATL_SMEM_USED], sizeof info.instructions[0], "ATOMS.CAS x1");
  CHECK(atl_smem_calibration_write_summary(f, &every_e, &info) == 0);
  fclose(f);
  CHECK(strncmp(text, "32 points (1 reps each, ", 24) == 0);
  CHECK(strstr(text, "  used   kernel: ATOMS.CAS x1\n  note: the used kernel's SASS summary does not show ATOMS.ADD") !=
        NULL);
  free(text);
  free(n_values);
  atl_smem_spread_release(&table, &spread);
  ctx_release(ctx);

  /* the grid's axes: "all" is every value; c may start at 0; the bounds are checked */
  unsigned *v = NULL;
  size_t nv = 0;
  char why[200];
  CHECK(atl_smem_grid_axis_parse("all", 64, 1, &v, &nv, why, sizeof why) == 0 && v == NULL && nv == 0);
  CHECK(atl_smem_grid_axis_parse("0", 64, 1, &v, &nv, why, sizeof why) == 0 && nv == 1 && v[0] == 0);
  free(v);
  CHECK(atl_smem_grid_axis_parse("0,2:8", 64, 1, &v, &nv, why, sizeof why) == 0 && nv == 4 && v[0] == 0 &&
        v[1] == 2 && v[3] == 8);
  free(v);
  CHECK(atl_smem_grid_axis_parse("0", 64, 0, &v, &nv, why, sizeof why) != 0 && v == NULL);
  CHECK(atl_smem_grid_axis_parse("1:33", 32, 0, &v, &nv, why, sizeof why) != 0 && strstr(why, "32") != NULL);

  /* the files: PREFIX.csv and .json, their folder made; an interrupted run beside them */
  char dir[] = "/tmp/atl-calfiles-XXXXXX", prefix[200];
  CHECK(mkdtemp(dir) != NULL);
  snprintf(prefix, sizeof prefix, "%s/new/deeper/t", dir);
  struct atl_smem_calibration_files files;
  CHECK(atl_smem_calibration_files(prefix, NULL, 0, &files, why, sizeof why) == 0);
  CHECK(strcmp(files.json + strlen(dir), "/new/deeper/t.json") == 0);
  f = fopen(files.csv, "w");
  CHECK(f != NULL);
  if (f)
    fclose(f);
  CHECK(atl_smem_calibration_files(prefix, NULL, 1, &files, why, sizeof why) == 0);
  CHECK(strcmp(files.csv + strlen(dir), "/new/deeper/t.interrupted.csv") == 0);
  snprintf(prefix, sizeof prefix, "%s/new/deeper/t.csv/x", dir); /* a file where a folder must go */
  CHECK(atl_smem_calibration_files(prefix, NULL, 0, &files, why, sizeof why) == ATL_EIO);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  CHECK(system(cmd) == 0);
  return check_exit("test_smem_calibrate");
}
