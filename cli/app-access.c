/*
 * atomlab app access-table: seed 004's "atomic access patterns" slide as a
 * table. The rmw benchmark already measures these configurations
 * (contiguous pattern, contention, padding), so this runs atl_rmw_run() three
 * times per op rather than new kernels:
 *
 *   same-address  every thread of a smaller grid on one word (--same-address-threads;
 *                 a CAS loop there costs attempts in proportion to the contending
 *                 threads, so a full grid on one word would take seconds per launch)
 *   same-line     each thread its own word, neighbours adjacent (contention 1, padding 1)
 *   scattered     each thread its own 128-byte line       (contention 1, padding 128 / word size)
 */
#include <stdlib.h>
#include <string.h>

#include "app.h"

static const char usage[] =
    "usage: atomlab app access-table [options]\n\n"
    "Throughput of every atomic op with all threads on one address, on adjacent\n"
    "words (same cache line per warp) and on one word per 128-byte line, each\n"
    "row calibrated, timed and verified by the rmw benchmark.\n\n"
    "  --op LIST       comma list of ops, or all  [all atomic ops]\n"
    "  --type T        u32, i32 or u64  [u32]\n"
    "  --workgroups N  work-groups  [co-resident count found by occupancy discovery]\n"
    "  --target-ms X   calibrate iterations until a launch takes X ms  [5]\n"
    "  --same-address-threads N  threads of the same-address grid, all on one word  [1024]\n\n";

enum { O_OP = APP_OPT_FIRST, O_TYPE, O_WGS, O_TARGET, O_SAME };

#define MAX_OPS ATL_OP_COUNT

struct access_cli {
  int ops[MAX_OPS];
  size_t nops;
  int type;
  uint32_t workgroups;
  uint32_t same_threads;
  double target_ms;
};

static void on_option(int code, const char *arg, void *user)
{
  struct access_cli *c = user;
  static const char allowed[] = "fetch_add, fetch_sub, inc, dec, fetch_min, fetch_max, and, or, xor, exchange, cas, "
                                "cas_fail, all";
  char *end;
  switch (code) {
  case O_OP: {
    /* Every op but the non-atomic control; a name given twice is one row. */
    if (cli_list_has(arg, "plain_add"))
      die_usage("--op 'plain_add' is not allowed: %s", allowed);
    int all[ATL_OP_PLAIN_ADD], names[MAX_LIST];
    for (int op = 0; op < ATL_OP_PLAIN_ADD; op++)
      all[op] = op;
    size_t n = cli_parse_names("--op", arg, atl_op_parse, all, ATL_OP_PLAIN_ADD, allowed, names);
    c->nops = 0;
    for (size_t i = 0; i < n && c->nops < MAX_OPS; i++)
      c->ops[c->nops++] = names[i];
    break;
  }
  case O_TYPE:
    c->type = atl_type_parse(arg);
    if (c->type != ATL_TYPE_U32 && c->type != ATL_TYPE_I32 && c->type != ATL_TYPE_U64)
      die_usage("--type '%s' is not allowed: u32, i32 or u64 (every op is defined for them)", arg);
    break;
  case O_WGS:
    c->workgroups = (uint32_t)app_number("--workgroups", arg, 1, 1u << 24);
    break;
  case O_SAME:
    c->same_threads = (uint32_t)app_number("--same-address-threads", arg, 1, 1u << 24);
    break;
  case O_TARGET:
    c->target_ms = strtod(arg, &end);
    if (*arg == '\0' || *end != '\0' || !(c->target_ms >= 0.001 && c->target_ms <= 60000))
      die_usage("--target-ms '%s' is not allowed: a number from 0.001 to 60000", arg);
    break;
  }
}

int app_access_table(int argc, char **argv)
{
  static const struct option extra[] = {{"op", required_argument, NULL, O_OP},
                                        {"type", required_argument, NULL, O_TYPE},
                                        {"workgroups", required_argument, NULL, O_WGS},
                                        {"target-ms", required_argument, NULL, O_TARGET},
                                        {"same-address-threads", required_argument, NULL, O_SAME},
                                        {0}};
  static const char *const configs[] = {"same-address", "same-line", "scattered"};
  struct access_cli c = {.type = ATL_TYPE_U32, .target_ms = 5, .same_threads = 1024};
  for (int op = 0; op < ATL_OP_PLAIN_ADD; op++)
    c.ops[c.nops++] = op;
  struct app_opts o;
  struct atl_app_set set;
  if (app_parse(argc, argv, usage, extra, on_option, &c, &o))
    return EXIT_OK;
  atl_context_t ctx = app_open(&o, &set, argc, argv);
  const struct atl_device_info *dev = atl_device_current(ctx);
  if (!atl_device_has_type(dev, c.type))
    die_usage("--type %s is not available on %s", atl_type_name((enum atl_type)c.type), dev->name);
  if (c.workgroups == 0) {
    struct atl_occupancy occ;
    if (atl_occupancy_discover(ctx, o.wg_size, &occ) != 0)
      die("occupancy discovery failed: %s (pass --workgroups to skip it)", atl_errmsg(ctx));
    c.workgroups = occ.discovered;
    if (dev->type == ATL_DEVICE_CPU && occ.estimated > c.workgroups)
      c.workgroups = occ.estimated; /* CPU runtimes run work-groups one after another (see cmd-rmw.c) */
  }
  struct atl_timing timing;
  atl_timing_defaults(&timing);
  timing.target_ms = c.target_ms;
  timing.min_samples = o.timing.samples < 3 ? o.timing.samples : 3;
  timing.max_samples = o.timing.samples;
  timing.budget_s = 1;
  const uint32_t threads = o.wg_size * c.workgroups, esize = (uint32_t)atl_type_size((enum atl_type)c.type);
  uint32_t same_groups = (c.same_threads + o.wg_size - 1) / o.wg_size;
  if (same_groups > c.workgroups)
    same_groups = c.workgroups;
  int print = o.out_path ? !o.quiet : o.format < 0 || o.format == ATL_FORMAT_TABLE;
  if (print)
    printf("%-10s %16s %16s %16s  (Gop/s, %s; %u threads on one word, else %u threads; * = not verified)\n", "op",
           configs[0], configs[1], configs[2], atl_type_name((enum atl_type)c.type), same_groups * o.wg_size,
           threads);
  for (size_t i = 0; i < c.nops && !atl_stop_requested(); i++) {
    if (print)
      printf("%-10s", atl_op_name((enum atl_op)c.ops[i]));
    for (int k = 0; k < 3; k++) {
      struct atl_spec s = {.op = (enum atl_op)c.ops[i],
                           .type = (enum atl_type)c.type,
                           .space = ATL_SPACE_GLOBAL,
                           .pattern = ATL_PATTERN_CONTIGUOUS,
                           .result = ATL_RESULT_UNUSED,
                           .contention = k == 0 ? same_groups * o.wg_size : 1,
                           .padding = k == 2 ? 128 / esize : 1,
                           .wg_size = o.wg_size,
                           .workgroups = k == 0 ? same_groups : c.workgroups};
      struct atl_row row;
      struct atl_app_row ar;
      if (atl_rmw_run(ctx, &s, &timing, &row) != 0)
        die("out of host memory while measuring");
      memset(&ar, 0, sizeof ar);
      snprintf(ar.app, sizeof ar.app, "access-table");
      snprintf(ar.variant, sizeof ar.variant, "%s/%s", atl_op_name(s.op), configs[k]);
      ar.status = row.status;
      ar.verified = row.verified;
      ar.time_ms = row.time_ms;
      snprintf(ar.reason, sizeof ar.reason, "%s", row.reason);
      snprintf(ar.instructions, sizeof ar.instructions, "%s", row.instructions);
      atl_app_metric_set(&ar, "gops", row.gops);
      atl_app_metric_set(&ar, "contention", s.contention);
      atl_app_metric_set(&ar, "padding", s.padding);
      atl_app_metric_set(&ar, "threads", (double)s.wg_size * s.workgroups);
      atl_app_metric_set(&ar, "iters", row.iters);
      atl_row_release(&row);
      if (print) {
        if (ar.status == ATL_STATUS_OK)
          printf(" %15.3f%s", ar.metrics[0].value, ar.verified ? " " : "*");
        else
          printf(" %16s", atl_status_name(ar.status));
        fflush(stdout);
      }
      if (atl_app_set_add(&set, &ar) != 0)
        die("out of memory");
    }
    if (print)
      putchar('\n');
  }
  o.table_printed = 1;
  return app_finish(&o, &set, ctx);
}
