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
#include <pthread.h>
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
    "  -o FILE             write the rows to FILE (.json, .csv or .txt), through a temporary name\n"
    "  --quiet             no table on stdout when writing to a file, no notes\n\n"
    "Exit status: 0 every row verified, unsupported or deadlock (reported); 1 a row failed or\n"
    "did not verify; 2 bad usage.\n";

static void usage(FILE *f)
{
  size_t n;
  const struct atl_app_info *const *apps = atl_apps(&n);
  fprintf(f, "usage: atomlab app <name> [options]\n\nApplications of atomics; every result is checked exactly "
             "against the host.\n\napps:\n");
  for (size_t i = 0; i < n; i++)
    fprintf(f, "  %-13s %s\n", apps[i]->name, apps[i]->summary);
  fprintf(f, "\nRun `atomlab app <name> --help` for the options of one app (docs/apps.md).\n");
}

const char *cli_app_names(void)
{
  static char buf[256];
  size_t n;
  const struct atl_app_info *const *apps = atl_apps(&n);
  buf[0] = '\0';
  for (size_t i = 0; i < n; i++)
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? ", " : "", apps[i]->name);
  return buf;
}

/* One option's help: "--NAME ARG", then its sentence and default wrapped beside it. */
static void print_option(const struct atl_app_option *o)
{
  enum { COLUMN = 22, WIDTH = 100 };
  char left[64], text[1024];
  const char *def = o->def ? o->def : o->def_help;
  int col = snprintf(left, sizeof left, "  --%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
  snprintf(text, sizeof text, "%s%s%s%s", o->help, def ? "  [" : "", def ? def : "", def ? "]" : "");
  fputs(left, stdout);
  if (col + 1 >= COLUMN) {
    putchar('\n');
    col = 0;
  }
  for (const char *w = text; *w;) {
    const size_t len = strcspn(w, " ");
    if (col > COLUMN && col + 1 + (int)len > WIDTH) {
      putchar('\n');
      col = 0;
    }
    col += printf("%*s%.*s", col < COLUMN ? COLUMN - col : 1, "", (int)len, w);
    w += len;
    while (*w == ' ')
      w++;
  }
  putchar('\n');
}

static void print_help(const struct atl_app_info *app)
{
  printf("usage: atomlab app %s [options]\n\n%s\n\n%s options:\n", app->name, app->description, app->name);
  for (const struct atl_app_option *o = app->options; o->name; o++)
    print_option(o);
  printf("\ntiming (docs/method.md: at least --min-samples, then until the noise or the budget):\n");
  for (const struct atl_app_option *o = atl_app_timing_options; o->name; o++)
    print_option(o);
  putchar('\n');
  cli_print_usage(device_usage);
}

/* The options the user spelled by their alias (--groups for --workgroups): messages spell them so too. */
static struct {
  const struct atl_app_option *opt;
  const char *name;
} spelled[8];

static const char *spelling_of(const struct atl_app_option *o)
{
  for (size_t i = 0; i < sizeof spelled / sizeof spelled[0]; i++)
    if (spelled[i].opt == o)
      return spelled[i].name;
  return o->name;
}

/* Notes that the user typed @p o as @p typed. */
static void spell(const struct atl_app_option *o, const char *typed)
{
  for (size_t i = 0; strcmp(typed, spelling_of(o)) != 0 && i < sizeof spelled / sizeof spelled[0]; i++)
    if (spelled[i].opt == NULL || spelled[i].opt == o) {
      spelled[i].opt = o;
      spelled[i].name = typed;
    }
}

/*
 * The library's reason with each parameter written as its option: a name of
 * @p cfg's options where it starts the reason or is followed by a value
 * ("items 2", "threads (64)"), not where it is a plain word ("16 bytes").
 */
static const char *as_options(atl_app_config_t cfg, const char *why, char *msg, size_t cap)
{
  size_t n = 0;
  for (const char *p = why; *p && n + 1 < cap;) {
    size_t len = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_-");
    const int valued = p[len] == ' ' && ((p[len + 1] >= '0' && p[len + 1] <= '9') || p[len + 1] == '(');
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(len < 63 ? len : 63), p);
    const struct atl_app_option *o = len && (p == why || valued) ? atl_app_config_option(cfg, name) : NULL;
    if (o) {
      n += (size_t)snprintf(msg + n, cap - n, "--%s", spelling_of(o));
    } else {
      len = len ? len : 1;
      n += (size_t)snprintf(msg + n, cap - n, "%.*s", (int)len, p);
    }
    p += len;
  }
  return msg;
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
  size_t napp = 0, ntiming = 0, n = nown;
  while (app->options[napp].name)
    napp++;
  while (atl_app_timing_options[ntiming].name)
    ntiming++;
  struct option *all = calloc(nown + 2 * (napp + ntiming) + 1, sizeof *all);
  const struct atl_app_option **by_code = calloc(napp + ntiming, sizeof *by_code);
  char why[512], msg[640];
  if (all == NULL || by_code == NULL)
    die("out of memory");
  memcpy(all, own, sizeof own);
  for (size_t i = 0; i < napp + ntiming; i++) {
    const struct atl_app_option *o = i < napp ? &app->options[i] : &atl_app_timing_options[i - napp];
    const int arg = o->kind == ATL_APP_OPT_FLAG || o->kind == ATL_APP_OPT_UNFLAG ? no_argument : required_argument;
    by_code[i] = o;
    all[n++] = (struct option){o->name, arg, NULL, APP_OPT + (int)i};
    if (o->alias)
      all[n++] = (struct option){o->alias, arg, NULL, APP_OPT + (int)i};
  }
  memset(c, 0, sizeof *c);
  c->format = -1;
  optind = 1;
  opterr = 0;
  int at = -1;
  for (int ch; (ch = getopt_long(argc, argv, ":ho:", all, &at)) != -1; at = -1) {
    switch (ch) {
    case O_BACKEND:
      cli_check_backend("--backend", optarg);
      c->backend = optarg;
      break;
    case O_DEVICE:
      c->device = optarg;
      break;
    case O_FORMAT:
      if ((c->format = atl_format_parse(optarg)) < 0)
        die_usage("--format '%s' is not known: allowed: table, csv, json", optarg);
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
      print_help(app);
      free(all);
      free(by_code);
      return 1;
    case ':':
      die_usage("option '%s' needs a value (see 'atomlab app %s --help')", argv[optind - 1], app->name);
    case '?':
      die_usage("unknown option '%s' for app %s (see 'atomlab app %s --help')", argv[optind - 1], app->name,
                app->name);
    default:
      if (at >= 0)
        spell(by_code[ch - APP_OPT], all[at].name);
      if (atl_app_config_set(cfg, by_code[ch - APP_OPT]->name, optarg, why, sizeof why) != 0)
        die_usage("%s", as_options(cfg, why, msg, sizeof msg));
    }
  }
  free(all);
  free(by_code);
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
  for (size_t i = 0; i < set->count; i++) {
    const struct atl_row *r = &set->rows[i];
    /* a control (crossgpu's device scope across GPUs) reports what happened; it is not a failure */
    failures += r->status == ATL_STATUS_ERROR ||
                (r->status == ATL_STATUS_OK && !r->verified && atl_row_metric(r, "control", 0) != 1);
  }
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
  if (failures)
    fprintf(stderr, "error: %d row%s failed or did not verify\n", failures, failures == 1 ? "" : "s");
  return failures || failed ? EXIT_MEASURE : EXIT_OK;
}

/* One device's run of an app (--device all): its context, configuration and rows. */
struct app_part {
  atl_context_t ctx;
  atl_app_config_t cfg;
  struct atl_result_set set;
  int err;
};

static void *run_part(void *arg)
{
  struct app_part *p = arg;
  p->err = atl_app_config_run(p->cfg, p->ctx, &p->set);
  return NULL;
}

/*
 * --device all or a list: the app configured and checked on every device
 * first (a usage error stops before anything runs), then run on all of them
 * at once, a thread each; the rows, each naming its device, are joined in
 * device order and written once, as one device's are.
 */
static int run_devices(const struct atl_app_info *app, int argc, char **argv, atl_app_config_t cfg0,
                       struct app_cli *c)
{
  atl_context_t ctxs[ATL_MAX_DEVICES];
  struct app_part parts[ATL_MAX_DEVICES];
  pthread_t threads[ATL_MAX_DEVICES];
  int started[ATL_MAX_DEVICES] = {0};
  char why[512], msg[640];
  if (app->spans_devices)
    die_usage("--device '%s' is not allowed for app %s: it spreads itself over the devices (see its options); "
              "allowed: one device", c->device, app->name);
  const size_t ndev = cli_open_devices(c->device, c->backend, ctxs, ATL_MAX_DEVICES);
  struct atl_result_set set;
  memset(&set, 0, sizeof set);
  snprintf(set.kind, sizeof set.kind, "app");
  cli_fill_meta(ctxs[0], argc + 1, argv - 1, &set.meta);
  for (size_t d = 0; d < ndev; d++) {
    memset(&parts[d], 0, sizeof parts[d]);
    parts[d].ctx = ctxs[d];
    snprintf(parts[d].set.kind, sizeof parts[d].set.kind, "app");
    if (d == 0)
      parts[d].cfg = cfg0;
    else if (atl_app_config_new(app, &parts[d].cfg) != 0 || parse(parts[d].cfg, argc - 1, argv + 1, c))
      die("out of memory");
    int err = atl_app_config_prepare(parts[d].cfg, ctxs[d], why, sizeof why);
    if (err == ATL_EINVAL)
      die_usage("%s", as_options(parts[d].cfg, why, msg, sizeof msg));
    if (err)
      die("%s: %s", atl_device_current(ctxs[d])->id,
          why[0] ? why : atl_errmsg(ctxs[d])[0] ? atl_errmsg(ctxs[d]) : atl_strerror(err));
    if (why[0] && !c->quiet)
      fprintf(stderr, "%s: %s\n", atl_device_current(ctxs[d])->id, why);
  }
  cli_catch_stop_signals(); /* every device stops after its current row and finish writes the rest */
  for (size_t d = 0; d < ndev; d++)
    started[d] = pthread_create(&threads[d], NULL, run_part, &parts[d]) == 0;
  int failed = 0;
  for (size_t d = 0; d < ndev; d++) {
    if (started[d])
      pthread_join(threads[d], NULL);
    else
      run_part(&parts[d]);
    const char *id = atl_device_current(ctxs[d])->id;
    if (parts[d].err) { /* not fatal: the rows measured before the failure are still written */
      fprintf(stderr, "error: %s failed on %s: %s\n", app->name, id,
              atl_errmsg(ctxs[d])[0] ? atl_errmsg(ctxs[d]) : atl_strerror(parts[d].err));
      failed = 1;
    }
    for (size_t i = 0; i < parts[d].set.count; i++) {
      atl_row_config_set(&parts[d].set.rows[i], "device", id);
      if (atl_result_set_add(&set, &parts[d].set.rows[i]) != 0)
        die("out of host memory");
    }
    atl_result_set_release(&parts[d].set);
  }
  const int rc = finish(c, cfg0, &set, failed);
  for (size_t d = 0; d < ndev; d++) {
    if (d)
      atl_app_config_free(parts[d].cfg);
    atl_context_free(ctxs[d]);
  }
  atl_app_config_free(cfg0);
  return rc;
}

int cmd_app(int argc, char **argv)
{
  if (argc < 2) /* a usage error like any other: one line, exit 2 (--help prints the list) */
    die_usage("app needs a subcommand: allowed: %s", cli_app_names());
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    usage(stdout);
    return EXIT_OK;
  }
  const struct atl_app_info *app = atl_app_find(argv[1]);
  atl_app_config_t cfg = NULL;
  struct app_cli c;
  struct atl_result_set set;
  char why[512], msg[640];
  if (app == NULL)
    die_usage("app '%s' is not known: allowed: %s", argv[1], cli_app_names());
  if (atl_app_config_new(app, &cfg) != 0)
    die("out of memory");
  if (parse(cfg, argc - 1, argv + 1, &c)) {
    atl_app_config_free(cfg);
    return EXIT_OK;
  }
  if (atl_device_list_is_multi(c.device))
    return run_devices(app, argc, argv, cfg, &c);
  atl_context_t ctx = cli_open_device(c.device, c.backend);
  memset(&set, 0, sizeof set);
  snprintf(set.kind, sizeof set.kind, "app");
  cli_fill_meta(ctx, argc + 1, argv - 1, &set.meta); /* the command line from "atomlab" on */
  int err = atl_app_config_prepare(cfg, ctx, why, sizeof why);
  if (err == ATL_EINVAL)
    die_usage("%s", as_options(cfg, why, msg, sizeof msg));
  if (err)
    die("%s", why[0] ? why : atl_errmsg(ctx)[0] ? atl_errmsg(ctx) : atl_strerror(err));
  if (why[0] && !c.quiet)
    fprintf(stderr, "%s\n", why);
  cli_catch_stop_signals(); /* the app stops after its current row and finish writes the rest */
  const int failed = (err = atl_app_config_run(cfg, ctx, &set)) != 0;
  if (failed) /* not fatal: the rows measured before the failure are still written */
    fprintf(stderr, "error: %s failed: %s\n", app->name, atl_errmsg(ctx)[0] ? atl_errmsg(ctx) : atl_strerror(err));
  const int rc = finish(&c, cfg, &set, failed);
  atl_app_config_free(cfg);
  atl_context_free(ctx);
  return rc;
}
