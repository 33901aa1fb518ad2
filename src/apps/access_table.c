/*
 * Seed 004's "atomic access patterns" slide as a table. The rmw benchmark
 * already measures these configurations (contiguous pattern, contention,
 * padding), so each row is one atl_rmw_run() rather than a new kernel:
 *
 *   same-address  every thread of a smaller grid on one word (same_address_threads;
 *                 a CAS loop there costs attempts in proportion to the contending
 *                 threads, so a full grid on one word would take seconds per launch)
 *   same-line     each thread its own word, neighbours adjacent (contention 1, padding 1)
 *   scattered     each thread its own 128-byte line       (contention 1, padding 128 / word size)
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "app_internal.h"

/* Its registry entry, at the end of this file: the run checks its params with the entry's check. */
extern const struct atl_app_info atl__app_access_table;
#include "atomlab/rmw.h"

static const char *const configs[] = {"same-address", "same-line", "scattered"};

/* One op in one configuration as an app row (the rmw row's timing, status and instructions). */
static int measure(atl_context_t ctx, const struct atl_spec *s, const struct atl_timing *timing, int k,
                   struct atl_result_set *out)
{
  struct atl_row row;
  struct atl_row ar;
  int err = atl_rmw_run(ctx, s, timing, &row);
  if (err)
    return atl__seterr(ctx, err, "access-table: out of host memory while measuring");
  char variant[64];
  snprintf(variant, sizeof variant, "%s/%s", atl_op_name(s->op), configs[k]);
  atl__app_row_init(&ar, "access-table", variant);
  ar.status = row.status;
  ar.verified = row.verified;
  ar.time_ms = row.time_ms;
  snprintf(ar.reason, sizeof ar.reason, "%s", row.reason);
  snprintf(ar.instructions, sizeof ar.instructions, "%s", row.instructions);
  atl_row_metric_set(&ar, "gops", atl_row_metric(&row, "gops", 0));
  atl_row_metric_set(&ar, "contention", s->contention);
  atl_row_metric_set(&ar, "padding", s->padding);
  atl_row_metric_set(&ar, "threads", (double)s->wg_size * s->workgroups);
  atl_row_metric_set(&ar, "iters", atl_row_metric(&row, "iters", 0));
  atl_row_release(&row);
  if (atl_result_set_add(out, &ar) != 0)
    return atl__seterr(ctx, ATL_ENOMEM, "access-table: out of host memory");
  return 0;
}

int atl_app_access_table(atl_context_t ctx, const struct atl_access_params *p, const struct atl_app_timing *tm,
                         struct atl_result_set *out)
{
  int err = atl__app_checked(ctx, &atl__app_access_table, p);
  if (err)
    return err;
  const struct atl_device_info *dev = atl_device_current(ctx);
  uint32_t workgroups = p->workgroups;
  if (workgroups == 0) {
    struct atl_occupancy occ;
    if ((err = atl_occupancy_discover(ctx, p->wg_size, &occ)) != 0)
      return err;
    workgroups = occ.discovered;
    if (dev->type == ATL_DEVICE_CPU && occ.estimated > workgroups)
      workgroups = occ.estimated; /* CPU runtimes run work-groups one after another (see cmd-rmw.c) */
  }
  /* rmw's calibration to this app's target time, then the app's sampling */
  struct atl_timing timing;
  atl__app_sampling(tm, &timing);
  timing.target_ms = p->target_ms;
  const uint32_t esize = (uint32_t)atl_type_size((enum atl_type)p->type);
  uint32_t same_groups = (p->same_address_threads + p->wg_size - 1) / p->wg_size;
  if (same_groups > workgroups)
    same_groups = workgroups;
  for (unsigned i = 0; i < p->nops && ATL_APP_GO_ON(err); i++)
    for (int k = 0; k < 3 && ATL_APP_GO_ON(err); k++) {
      struct atl_spec s = {.op = (enum atl_op)p->ops[i],
                           .type = (enum atl_type)p->type,
                           .space = ATL_SPACE_GLOBAL,
                           .pattern = ATL_PATTERN_CONTIGUOUS,
                           .result = ATL_RESULT_UNUSED,
                           .contention = k == 0 ? same_groups * p->wg_size : 1,
                           .padding = k == 2 ? 128 / esize : 1,
                           .wg_size = p->wg_size,
                           .workgroups = k == 0 ? same_groups : workgroups};
      err = measure(ctx, &s, &timing, k, out);
    }
  return err;
}

static void access_defaults(const struct atl_device_info *d, void *params)
{
  struct atl_access_params *p = params;
  atl__app_wg_default(d, &p->wg_size, 0);
}

/* Beyond the ranges of its options: the device's work-group size and 64-bit atomics. */
static int access_check(const struct atl_device_info *d, const void *params, char *why, size_t len)
{
  const struct atl_access_params *p = params;
  if (atl__app_wg_check(d, p->wg_size, 0, NULL, why, len))
    return ATL_EINVAL;
  if (!atl_device_has_type(d, p->type))
    return atl__app_why(why, len, "type %s is not available on %s", atl_type_name((enum atl_type)p->type), d->name);
  return 0;
}

ATL__APP_RUN(access, atl_app_access_table)

/* The threads of the rows of configuration @p config ("same-address", ...): the table's heading. */
static double threads_of(const struct atl_result_set *set, const char *config)
{
  for (size_t i = 0; i < set->count; i++) {
    const char *slash = strchr(atl_row_config_or(&set->rows[i], "variant", ""), '/');
    if (slash && strcmp(slash + 1, config) == 0)
      return atl_row_metric(&set->rows[i], "threads", 0);
  }
  return 0;
}

/* The rows as the seed's table: one line per op, Gop/s per configuration. */
static void access_view(FILE *f, const void *params, const struct atl_result_set *set)
{
  const struct atl_access_params *p = params;
  fprintf(f, "%-10s %16s %16s %16s  (Gop/s, %s; %.0f threads on one word, else %.0f threads; * = not verified)\n",
          "op", configs[0], configs[1], configs[2], atl_type_name((enum atl_type)p->type),
          threads_of(set, configs[0]), threads_of(set, configs[1]));
  for (size_t i = 0; i < set->count; i += 3) {
    const char *slash = strchr(atl_row_config_or(&set->rows[i], "variant", ""), '/');
    const char *variant = atl_row_config_or(&set->rows[i], "variant", "");
    fprintf(f, "%-10.*s", slash ? (int)(slash - variant) : 48, variant);
    for (size_t k = i; k < i + 3 && k < set->count; k++) {
      const struct atl_row *ar = &set->rows[k];
      if (ar->status == ATL_STATUS_OK)
        fprintf(f, " %15.3f%s", atl_row_metric(ar, "gops", 0), ar->verified ? " " : "*");
      else
        fprintf(f, " %16s", atl_status_name(ar->status));
    }
    fputc('\n', f);
  }
}

/* Every op but the non-atomic control (the last one), as the rmw benchmark names them. */
#define OP_NAME(e, name, help) name,
static const char *const op_names[] = {ATL_OP_MAP(OP_NAME)};
#undef OP_NAME
static const char *const type_names[] = {"u32", "i32", "u64"}; /* enum atl_type's first three: every op's types */

#define P(field) .offset = offsetof(struct atl_access_params, field)
static const struct atl_app_option access_options[] = {
    ATL__APP_OPT_WG(struct atl_access_params, 65536, "work-items per work-group"),
    {"op", ATL_APP_OPT_CHOICES, P(ops), .count_offset = offsetof(struct atl_access_params, nops),
     .names = op_names, .nnames = ATL_OP_PLAIN_ADD, .def = "all", .arg = "LIST", .help = "comma list of ops, or all"},
    {"type", ATL_APP_OPT_CHOICE, P(type), .names = type_names, .nnames = 3, .def = "u32", .arg = "T",
     .help = "u32, i32 or u64 (every op is defined for them)"},
    {"workgroups", ATL_APP_OPT_U32, P(workgroups), .max = 0x1p24, .arg = "N",
     .def_help = "co-resident count found by occupancy discovery", .help = "work-groups"},
    {"target-ms", ATL_APP_OPT_DOUBLE, P(target_ms), .min = 0.001, .max = 60000, .def = "5", .arg = "X",
     .help = "calibrate iterations until a launch takes X ms"},
    {"same-address-threads", ATL_APP_OPT_U32, P(same_address_threads), .min = 1, .max = 0x1p24, .def = "1024",
     .arg = "N", .help = "threads of the same-address grid, all on one word"},
    {0}};
#undef P

/* What a run allocates at most (atl_app_info.bytes_needed): the scattered rows' grid, each thread's own 128-byte
 * line on the host (the reference) and the device, with its target, its branch flag and, for cas, its attempts
 * (4 bytes each). Where the grid is discovered (workgroups 0) it is co-resident and small. */
static void access_bytes(const struct atl_device_info *d, const void *params, struct atl_app_bytes *need)
{
  const struct atl_access_params *p = params;
  const uint64_t per_thread = 128 + 3 * 4, threads = (uint64_t)p->wg_size * p->workgroups;
  (void)d;
  *need = (struct atl_app_bytes){threads * per_thread, threads * per_thread, "workgroups"};
}

const struct atl_app_info atl__app_access_table = {
    .name = "access-table",
    .summary = "seed 004: same address / same line / scattered throughput of every op (via rmw)",
    .description = "Throughput of every atomic op with all threads on one address, on adjacent\n"
                   "words (same cache line per warp) and on one word per 128-byte line, each\n"
                   "row calibrated, timed and verified by the rmw benchmark.",
    ATL__APP_ENTRY(struct atl_access_params, access),
    .write_view = access_view,
    .view_replaces_table = 1,
    .bytes_needed = access_bytes,
};
