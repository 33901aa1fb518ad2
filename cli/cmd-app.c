/*
 * atomlab app NAME: every app of the library's registry (src/apps/registry.c)
 * through one parser. Each app's options, their syntax, defaults and checks
 * are its registry entry's (struct atl_app_option): this file turns them
 * into --NAME options and help, and prints and writes the rows. The library
 * names parameters; the user typed options, so its messages are shown with
 * each parameter written as its option.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The options of this command itself; an app's and the timing options follow from APP_OPT on. */
enum { O_BACKEND = 256, O_DEVICE, O_FORMAT, O_QUIET, APP_OPT = 1000 };

/* What the command line asked for beyond the app's configuration. */
struct app_cli {
  const char *backend, *device, *out_path;
  int format; /* -1 until given: then from -o's extension, else table */
  int quiet;
};

static const char device_usage[] =
    "device and output:\n"
    "  --backend B         @BACKENDS@  [any]\n"
    "  --device ID         an id or row number from 'atomlab devices'  [best device]\n"
    "  --format F          table, csv or json  [table; with -o: from the file extension]\n"
    "  -o FILE             write the rows to FILE (.json, .csv or .txt), through a temporary name;\n"
    "                      rewritten every 30 s while the app runs (\"complete\": false)\n"
    "  --quiet             no table on stdout when writing to a file, no notes\n\n"
    "Exit status: 0 every row verified, unsupported or deadlock (reported); 1 a row failed or\n"
    "did not verify; 2 bad usage.\n";

const char *cli_app_names(void)
{
  static char buf[256];
  return atl_app_names(", ", buf, sizeof buf);
}

/* Reads argv into @p cfg and @p c; 1 where --help was printed; exits 2 on bad usage. */
static int parse(atl_app_config_t cfg, int argc, char **argv, struct app_cli *c)
{
  const struct atl_app_info *app = atl_app_config_app(cfg);
  static const struct option own[] = {{"backend", required_argument, NULL, O_BACKEND},
                                      {"device", required_argument, NULL, O_DEVICE},
                                      {"format", required_argument, NULL, O_FORMAT},
                                      {"output", required_argument, NULL, 'o'},
                                      {"quiet", no_argument, NULL, O_QUIET},
                                      {"help", no_argument, NULL, 'h'}};
  const size_t nown = sizeof own / sizeof own[0];
  size_t nopt = 0, n = nown; /* the app's options, then the timing options: the library's order */
  while (atl_app_config_option_at(cfg, nopt))
    nopt++;
  struct option *all = calloc(nown + 2 * nopt + 1, sizeof *all);
  char why[512], msg[640];
  if (all == NULL)
    die("out of memory");
  memcpy(all, own, sizeof own);
  for (size_t i = 0; i < nopt; i++) {
    const struct atl_app_option *o = atl_app_config_option_at(cfg, i);
    const int arg = o->kind == ATL_APP_OPT_FLAG || o->kind == ATL_APP_OPT_UNFLAG ? no_argument : required_argument;
    all[n++] = (struct option){o->name, arg, NULL, APP_OPT + (int)i};
    if (o->alias)
      all[n++] = (struct option){o->alias, arg, NULL, APP_OPT + (int)i};
  }
  memset(c, 0, sizeof *c);
  c->format = -1;
  cli_options_begin();
  int at = -1;
  for (int ch; (ch = getopt_long(argc, argv, ":ho:", all, &at)) != -1; at = -1) {
    if (ch != 'o') /* -o has its own message */
      cli_option_once(all, ch, at);
    switch (ch) {
    case O_BACKEND:
      cli_check_backend("--backend", optarg);
      c->backend = optarg;
      break;
    case O_DEVICE:
      c->device = optarg;
      break;
    case O_FORMAT:
      c->format = cli_parse_format(optarg);
      break;
    case 'o':
      if (c->out_path)
        die_usage("-o given twice: one output file per app run");
      c->out_path = optarg;
      break;
    case O_QUIET:
      c->quiet = 1;
      break;
    case 'h':
      atl_app_help_write(stdout, app);
      cli_print_usage(device_usage);
      free(all);
      return 1;
    case ':':
      die_usage("option '%s' needs a value (see 'atomlab app %s --help')", argv[optind - 1], app->name);
    case '?':
      die_usage("unknown option '%s' for app %s (see 'atomlab app %s --help')", argv[optind - 1], app->name,
                app->name);
    default:
      /* by the name typed: the library's messages spell an alias (--groups) as the user did */
      if (atl_app_config_set(cfg, at >= 0 ? all[at].name : atl_app_config_option_at(cfg, (size_t)(ch - APP_OPT))->name,
                             optarg, why, sizeof why) != 0)
        die_usage("%s", atl_app_config_reason(cfg, why, "--", msg, sizeof msg)); /* as the user typed them */
      const struct atl_app_option *o = atl_app_config_option_at(cfg, (size_t)(ch - APP_OPT));
      if (o->arg && strcmp(o->arg, "FILE") == 0) /* an input: -o may not name it */
        cli_note_input("", optarg);
    }
  }
  free(all);
  if (optind < argc)
    die_usage("unexpected argument '%s' for app %s (see 'atomlab app %s --help')", argv[optind], app->name,
              app->name);
  if (c->out_path) {
    cli_check_output("-o", c->out_path);
    c->format = cli_output_format("-o", c->out_path, c->format >= 0 ? c->format : ATL_FORMAT_JSON);
  }
  return 0;
}

/*
 * The rows: the -o file, and on stdout the table (or CSV, JSON); the app's
 * own view where it has one. Returns the exit status: 1 where a row failed
 * or did not verify, or the run or the file failed.
 */
static int finish(const struct app_cli *c, atl_app_config_t cfg, struct atl_result_set *set, int failed)
{
  const struct atl_app_info *app = atl_app_config_app(cfg);
  const int stopped = atl_stop_requested();
  const int table = c->out_path ? !c->quiet : c->format < 0 || c->format == ATL_FORMAT_TABLE;
  int failures = 0;
  set->meta.complete = !stopped && !failed;
  for (size_t i = 0; i < set->count; i++) /* a control (crossgpu's device scope across GPUs) is not a failure */
    failures += atl_row_failed(&set->rows[i]);
  /* where the table goes; beside it, on stdout unless it carries CSV or JSON */
  if (app->write_view && (app->view_replaces_table ? table : !c->quiet))
    app->write_view(table ? stdout : stderr, atl_app_config_params(cfg), set);
  if (c->out_path) {
    char what[64];
    snprintf(what, sizeof what, "%zu rows", set->count);
    /* a file not written where asked (its rows rescued, the error printed) is a failure, not a failed row */
    failed |= cli_write_output(c->out_path, what, atl_write_set,
                               &(struct atl_set_writer){(enum atl_format)c->format, set});
  }
  if (table && !app->view_replaces_table)
    atl_write_set(stdout, &(struct atl_set_writer){ATL_FORMAT_TABLE, set});
  else if (!c->out_path && c->format != ATL_FORMAT_TABLE)
    atl_write_set(stdout, &(struct atl_set_writer){(enum atl_format)c->format, set});
  const size_t done_rows = set->count;
  atl_result_set_release(set);
  if (stopped)
    return cli_interrupted("app", done_rows, 0, c->out_path ? "every completed row was written" : NULL);
  cli_print_failures(failures);
  return failures || failed ? EXIT_MEASURE : EXIT_OK;
}

/* A checkpoint of a run with -o: the file rewritten quietly with the rows so far ("complete": false; finish
 * writes it last). Without -o it is only called for an urgent stop: the rows' table, on stdout. */
static void checkpoint(void *arg, const struct atl_result_set *rows)
{
  const struct app_cli *c = arg;
  if (c->out_path)
    atl_write_file(c->out_path, (enum atl_format)c->format, rows);
  else
    atl_write_set(stdout, &(struct atl_set_writer){ATL_FORMAT_TABLE, rows});
}

int cmd_app(int argc, char **argv)
{
  if (argc < 2) /* a usage error like any other: one line, exit 2 (--help prints the list) */
    die_usage("app needs a subcommand: allowed: %s", cli_app_names());
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    atl_apps_help_write(stdout);
    return EXIT_OK;
  }
  const struct atl_app_info *app = atl_app_find(argv[1]);
  atl_app_config_t cfgs[ATL_MAX_DEVICES] = {NULL};
  atl_context_t ctxs[ATL_MAX_DEVICES];
  int errs[ATL_MAX_DEVICES] = {0};
  struct app_cli c;
  char why[512], msg[640];
  if (app == NULL)
    die_usage("app '%s' is not known: allowed: %s", argv[1], cli_app_names());
  if (atl_app_config_new(app, &cfgs[0]) != 0)
    die("out of memory");
  if (parse(cfgs[0], argc - 1, argv + 1, &c)) {
    atl_app_config_free(cfgs[0]);
    return EXIT_OK;
  }
  /* --device all or a list: the app configured and checked on every device first (a usage error stops
   * before anything runs), then run on all of them at once, a thread each (atl_app_run_devices); the rows,
   * each naming its device, are joined in device order and written once, as one device's are. */
  const int multi = atl_device_list_is_multi(c.device);
  if (multi && app->spans_devices)
    die_usage("--device '%s' is not allowed for app %s: it spreads itself over the devices (see its options); "
              "allowed: one device", c.device, app->name);
  const size_t ndev = cli_open_devices(c.device, c.backend, ctxs, ATL_MAX_DEVICES);
  struct atl_result_set set;
  memset(&set, 0, sizeof set);
  snprintf(set.kind, sizeof set.kind, "app");
  atl_run_meta_init(&set.meta, ctxs[0], argc + 1, argv - 1); /* the command line from "atomlab" on */
  for (size_t d = 0; d < ndev; d++) {
    /* messages of a run on several devices name the device */
    const char *id = atl_device_current(ctxs[d])->id, *sep = multi ? ": " : "";
    if (d && (atl_app_config_new(app, &cfgs[d]) != 0 || parse(cfgs[d], argc - 1, argv + 1, &c)))
      die("out of memory");
    int err = atl_app_config_prepare(cfgs[d], ctxs[d], why, sizeof why);
    if (err == ATL_EINVAL)
      die_usage("%s", atl_app_config_reason(cfgs[d], why, "--", msg, sizeof msg));
    if (err)
      die("%s%s%s", multi ? id : "", sep, why[0] ? why : atl_errmsg(ctxs[d])[0] ? atl_errmsg(ctxs[d]) : atl_strerror(err));
    if (why[0] && !c.quiet)
      fprintf(stderr, "%s%s%s\n", multi ? id : "", sep, why);
  }
  cli_catch_stop_signals(); /* every device stops after its current row and finish writes the rest */
  if (!multi) {
    atl_app_config_checkpoint(cfgs[0], c.out_path ? cli_checkpoint_s(30) : 0, checkpoint, &c);
    errs[0] = atl_app_config_run(cfgs[0], ctxs[0], &set);
  }
  else if (atl_app_run_devices(cfgs, ctxs, ndev, &set, errs) != 0)
    die("out of host memory");
  int failed = 0;
  for (size_t d = 0; d < ndev; d++)
    if (errs[d]) { /* not fatal: the rows measured before the failure are still written */
      fprintf(stderr, "error: %s failed%s%s: %s\n", app->name, multi ? " on " : "",
              multi ? atl_device_current(ctxs[d])->id : "",
              atl_errmsg(ctxs[d])[0] ? atl_errmsg(ctxs[d]) : atl_strerror(errs[d]));
      failed = 1;
    }
  const int rc = finish(&c, cfgs[0], &set, failed);
  for (size_t d = 0; d < ndev; d++) {
    atl_app_config_free(cfgs[d]);
    atl_context_free(ctxs[d]);
  }
  return rc;
}
