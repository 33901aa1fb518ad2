/* Options, device opening and output shared by every `atomlab app`. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"

const char app_common_usage[] =
    "device and output:\n"
    "  --backend B     @BACKENDS@  [any]\n"
    "  --device ID     an id or row number from 'atomlab devices'  [best device]\n"
    "  --wg-size N     work-items per work-group  [256, or the device maximum]\n"
    "  --samples N     timed launches per variant after one warm-up (median reported)  [10; CPU: 3]\n"
    "  --spin-bound N  spins a waiting loop may make before giving up (status deadlock)  [4194304]\n"
    "  --format F      table, csv or json  [table; with -o: from the file extension]\n"
    "  -o FILE         write the rows to FILE (.json, .csv or .txt), through a temporary name\n"
    "  --quiet         no table on stdout when writing to a file\n\n"
    "Exit status: 0 every row verified, unsupported or deadlock (reported); 1 a row failed or\n"
    "did not verify; 2 bad usage.\n";

enum { O_BACKEND = 256, O_DEVICE, O_WG, O_SAMPLES, O_SPIN, O_FORMAT, O_QUIET };

uint64_t app_number(const char *opt, const char *text, uint64_t lo, uint64_t hi)
{
  char *end;
  errno = 0;
  unsigned long long v = strtoull(text, &end, 10);
  if (*text < '0' || *text > '9' || *end != '\0' || errno || v < lo || v > hi)
    die_usage("%s '%s' is not allowed: a whole number from %llu to %llu", opt, text, (unsigned long long)lo,
              (unsigned long long)hi);
  return v;
}

uint32_t app_coresident(atl_context_t ctx, uint32_t wg_size)
{
  struct atl_occupancy occ;
  if (atl_occupancy_discover(ctx, wg_size, &occ) != 0)
    die("occupancy discovery failed: %s", atl_errmsg(ctx));
  const char *assume = getenv("ATL_SW_ASSUME_CORESIDENT");
  if (assume && *assume)
    return (uint32_t)app_number("ATL_SW_ASSUME_CORESIDENT", assume, 1, 65535);
  return occ.discovered;
}

void app_check(struct app_opts *o, atl_context_t ctx, int err, const char *what)
{
  if (err == 0)
    return;
  /* not fatal here: the rows measured before the failure are still written by app_finish */
  fprintf(stderr, "error: %s failed: %s\n", what, atl_errmsg(ctx)[0] ? atl_errmsg(ctx) : atl_strerror(err));
  o->failed = 1;
}

int app_hook(const char *name)
{
  const char *v = getenv(name);
  return v && *v && strcmp(v, "0") != 0;
}

int app_parse(int argc, char **argv, const char *usage, const struct option *extra, app_option_fn fn, void *user,
              struct app_opts *o)
{
  static const struct option common[] = {
      {"backend", required_argument, NULL, O_BACKEND}, {"device", required_argument, NULL, O_DEVICE},
      {"wg-size", required_argument, NULL, O_WG},      {"samples", required_argument, NULL, O_SAMPLES},
      {"spin-bound", required_argument, NULL, O_SPIN}, {"format", required_argument, NULL, O_FORMAT},
      {"output", required_argument, NULL, 'o'},        {"quiet", no_argument, NULL, O_QUIET},
      {"help", no_argument, NULL, 'h'}};
  struct option all[40];
  size_t n = 0;
  for (size_t i = 0; i < sizeof common / sizeof common[0]; i++)
    all[n++] = common[i];
  for (size_t i = 0; extra && extra[i].name && n < 39; i++)
    all[n++] = extra[i];
  memset(&all[n], 0, sizeof all[n]);
  memset(o, 0, sizeof *o);
  o->format = -1;
  o->timing.samples = 10;
  o->timing.spin_bound = 1u << 22;
  const char *app = argv[0];
  int c;
  optind = 1;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":ho:", all, NULL)) != -1) {
    switch (c) {
    case O_BACKEND:
      cli_check_backend("--backend", optarg);
      o->backend = optarg;
      break;
    case O_DEVICE:
      o->device = optarg;
      break;
    case O_WG:
      o->wg_size = (uint32_t)app_number("--wg-size", optarg, 1, 1u << 16);
      break;
    case O_SAMPLES:
      o->timing.samples = (unsigned)app_number("--samples", optarg, 1, 256);
      o->samples_given = 1;
      break;
    case O_SPIN:
      o->timing.spin_bound = (uint32_t)app_number("--spin-bound", optarg, 1, UINT32_MAX);
      break;
    case O_FORMAT:
      if ((o->format = atl_format_parse(optarg)) < 0)
        die_usage("--format '%s' is not known: allowed: table, csv, json", optarg);
      break;
    case 'o':
      if (o->out_path)
        die_usage("-o given twice: one output file per app run");
      o->out_path = optarg;
      break;
    case O_QUIET:
      o->quiet = 1;
      break;
    case 'h':
      fputs(usage, stdout);
      cli_print_usage(app_common_usage);
      return 1;
    case ':':
      die_usage("option '%s' needs a value (see 'atomlab app %s --help')", argv[optind - 1], app);
    case '?':
      die_usage("unknown option '%s' for app %s (see 'atomlab app %s --help')", argv[optind - 1], app, app);
    default:
      fn(c, optarg, user);
    }
  }
  if (optind < argc)
    die_usage("unexpected argument '%s' for app %s (see 'atomlab app %s --help')", argv[optind], app, app);
  if (o->out_path) {
    cli_check_output("-o", o->out_path);
    o->format = cli_output_format("-o", o->out_path, o->format >= 0 ? o->format : ATL_FORMAT_JSON);
  }
  return 0;
}

atl_context_t app_open(struct app_opts *o, struct atl_result_set *set, int argc, char **argv)
{
  atl_context_t ctx = cli_open_device(o->device, o->backend);
  const struct atl_device_info *dev = atl_device_current(ctx);
  if (!o->samples_given && dev->type == ATL_DEVICE_CPU)
    o->timing.samples = 3;
  memset(set, 0, sizeof *set);
  snprintf(set->kind, sizeof set->kind, "app");
  /* argv is "app NAME ...": the command line starts two words earlier. */
  cli_fill_meta(ctx, argc + 2, argv - 2, &set->meta);
  cli_catch_stop_signals(); /* the app stops after its current row and app_finish writes the rest */
  return ctx;
}

int app_finish(struct app_opts *o, struct atl_result_set *set, atl_context_t ctx)
{
  int failures = 0;
  const int stopped = atl_stop_requested();
  set->meta.complete = !stopped && !o->failed;
  for (size_t i = 0; i < set->count; i++) {
    const struct atl_row *r = &set->rows[i];
    failures += r->status == ATL_STATUS_ERROR || (r->status == ATL_STATUS_OK && !r->verified);
  }
  if (o->out_path) {
    char what[64];
    snprintf(what, sizeof what, "%zu rows", set->count);
    /* a file not written where asked (its rows rescued, the error printed) is a failure, not a failed row */
    o->failed |= cli_write_output(o->out_path, what, atl_write_set,
                                  &(struct atl_set_writer){(enum atl_format)o->format, set});
    if (!o->quiet && !o->table_printed)
      atl_write_set(stdout, &(struct atl_set_writer){ATL_FORMAT_TABLE, set});
  } else if (o->format != ATL_FORMAT_TABLE || !o->table_printed) {
    atl_write_set(stdout, &(struct atl_set_writer){(enum atl_format)o->format, set});
  }
  const size_t done_rows = set->count;
  atl_result_set_release(set);
  atl_context_free(ctx);
  if (stopped)
    return cli_interrupted("app", done_rows, 0, o->out_path ? "every completed row was written" : NULL);
  if (failures)
    fprintf(stderr, "error: %d row%s failed or did not verify\n", failures, failures == 1 ? "" : "s");
  return failures || o->failed ? EXIT_MEASURE : EXIT_OK;
}

/* The option a parameter's name stands for: @p flags' entry, else --NAME with '-' for '_'. */
static void flag_of(const char *name, size_t len, const char *const *flags, char *out, size_t cap)
{
  for (size_t i = 0; flags && flags[i]; i += 2)
    if (strlen(flags[i]) == len && strncmp(flags[i], name, len) == 0) {
      snprintf(out, cap, "%s", flags[i + 1]);
      return;
    }
  snprintf(out, cap, "--%.*s", (int)len, name);
  for (char *c = out; *c; c++)
    if (*c == '_')
      *c = '-';
}

void app_prepare(const struct atl_app_info *app, atl_context_t ctx, void *params, const char *const *flags)
{
  const struct atl_device_info *dev = atl_device_current(ctx);
  char why[384], msg[512];
  app->defaults(dev, params);
  if (app->check(dev, params, why, sizeof why) == 0)
    return;
  /* The library names parameters; the user typed options: write each parameter name as its option. A
   * name is a parameter where it starts the reason or is followed by a value ("items 2", "threads (64)"),
   * not where it is a plain word ("16 bytes"). */
  size_t n = 0;
  for (const char *p = why; *p && n + 1 < sizeof msg;) {
    size_t len = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_");
    const int valued = p[len] == ' ' && ((p[len + 1] >= '0' && p[len + 1] <= '9') || p[len + 1] == '(');
    int known = 0;
    for (size_t i = 0; len && (p == why || valued) && app->params[i] && !known; i++)
      known = strlen(app->params[i]) == len && strncmp(app->params[i], p, len) == 0;
    if (known) {
      char flag[64];
      flag_of(p, len, flags, flag, sizeof flag);
      n += (size_t)snprintf(msg + n, sizeof msg - n, "%s", flag);
    } else {
      if (len == 0)
        len = 1;
      n += (size_t)snprintf(msg + n, sizeof msg - n, "%.*s", (int)len, p);
    }
    p += len;
  }
  die_usage("%s", msg);
}

void app_run(struct app_opts *o, const struct atl_app_info *app, atl_context_t ctx, const void *params,
             struct atl_result_set *set)
{
  app_check(o, ctx, app->run(ctx, params, &o->timing, set), app->name);
}

const char *app_grids(unsigned ngroups)
{
  static char buf[32];
  if (ngroups == 0)
    return "the default grids";
  snprintf(buf, sizeof buf, "%u grid(s)", ngroups);
  return buf;
}
