/* atomlab app access-table: seed 004's access patterns per op (src/apps/access_table.c measures them). */
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

/* Names and numbers are parsed here; what a device can run is the library's check. */
static void on_option(int code, const char *arg, void *user)
{
  struct atl_access_params *p = user;
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
    p->nops = 0;
    for (size_t i = 0; i < n && p->nops < ATL_ACCESS_MAX_OPS; i++)
      p->ops[p->nops++] = names[i];
    break;
  }
  case O_TYPE:
    p->type = atl_type_parse(arg);
    if (p->type != ATL_TYPE_U32 && p->type != ATL_TYPE_I32 && p->type != ATL_TYPE_U64)
      die_usage("--type '%s' is not allowed: u32, i32 or u64 (every op is defined for them)", arg);
    break;
  case O_WGS:
    p->workgroups = (uint32_t)app_number("--workgroups", arg, 1, UINT32_MAX);
    break;
  case O_SAME:
    p->same_address_threads = (uint32_t)app_number("--same-address-threads", arg, 1, UINT32_MAX);
    break;
  case O_TARGET:
    p->target_ms = strtod(arg, &end);
    if (*arg == '\0' || *end != '\0')
      die_usage("--target-ms '%s' is not allowed: a number from 0.001 to 60000", arg);
    break;
  }
}

/* The threads of the rows of configuration @p config ("same-address", ...): the table's heading. */
static double threads_of(const struct atl_result_set *set, const char *config)
{
  for (size_t i = 0; i < set->count; i++) {
    const char *slash = strchr(atl_row_config(&set->rows[i], "variant"), '/');
    if (slash && strcmp(slash + 1, config) == 0)
      return atl_row_metric(&set->rows[i], "threads", 0);
  }
  return 0;
}

/* The rows as the seed's table: one line per op, Gop/s per configuration. */
static void print_table(const struct atl_result_set *set, const struct atl_access_params *p)
{
  static const char *const configs[] = {"same-address", "same-line", "scattered"};
  printf("%-10s %16s %16s %16s  (Gop/s, %s; %.0f threads on one word, else %.0f threads; * = not verified)\n", "op",
         configs[0], configs[1], configs[2], atl_type_name((enum atl_type)p->type), threads_of(set, configs[0]),
         threads_of(set, configs[1]));
  for (size_t i = 0; i < set->count; i += 3) {
    char op[48];
    snprintf(op, sizeof op, "%s", atl_row_config(&set->rows[i], "variant"));
    if (strchr(op, '/'))
      *strchr(op, '/') = '\0';
    printf("%-10s", op);
    for (size_t k = i; k < i + 3 && k < set->count; k++) {
      const struct atl_row *ar = &set->rows[k];
      if (ar->status == ATL_STATUS_OK)
        printf(" %15.3f%s", atl_row_metric(ar, "gops", 0), ar->verified ? " " : "*");
      else
        printf(" %16s", atl_status_name(ar->status));
    }
    putchar('\n');
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
  const struct atl_app_info *app = atl_app_find("access-table");
  static const char *const flags[] = {"op", "--op", NULL};
  struct atl_access_params p;
  struct app_opts o;
  struct atl_result_set set;
  memset(&p, 0, sizeof p);
  app->defaults(NULL, &p);
  if (app_parse(argc, argv, usage, extra, on_option, &p, &o))
    return EXIT_OK;
  atl_context_t ctx = app_open(&o, &set, argc, argv);
  p.wg_size = o.wg_size;
  app_prepare(app, ctx, &p, flags);
  app_run(&o, app, ctx, &p, &set);
  if (o.out_path ? !o.quiet : o.format < 0 || o.format == ATL_FORMAT_TABLE)
    print_table(&set, &p);
  o.table_printed = 1;
  return app_finish(&o, &set, ctx);
}
