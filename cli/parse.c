/* Option parsing every command shares. */
#include <getopt.h>
#include <libgen.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

size_t cli_parse_names(const char *opt, const char *text, int (*parse)(const char *), const int *all, size_t nall,
                       const char *allowed, int *out)
{
  const struct atl_name_axis axis = {opt, parse, all, nall, allowed};
  char why[600];
  size_t n = 0;
  const int err = atl_name_axis_parse(&axis, text, out, MAX_LIST, &n, why, sizeof why);
  if (err == ATL_ENOMEM)
    die("out of memory");
  if (err)
    die_usage("%s", why);
  return n;
}

int cli_list_has(const char *text, const char *name)
{
  size_t len = strlen(name);
  for (const char *p = text; (p = strstr(p, name)) != NULL; p += len)
    if ((p == text || p[-1] == ',') && (p[len] == '\0' || p[len] == ','))
      return 1;
  return 0;
}

struct atl_axis cli_parse_axis(const char *opt, const char *text, uint32_t max)
{
  struct atl_axis axis;
  char why[1600];
  if (atl_axis_parse(text, max, &axis, why, sizeof why) != 0)
    die_usage("%s: %s", opt, why);
  return axis;
}

uint32_t cli_parse_count(const char *opt, const char *text, uint32_t max)
{
  struct atl_axis axis = cli_parse_axis(opt, text, max);
  if (axis.count != 1) {
    atl_axis_release(&axis);
    die_usage("%s takes one whole number from 1 to %u", opt, max);
  }
  uint32_t v = axis.values[0];
  atl_axis_release(&axis);
  return v;
}

double cli_parse_real(const char *opt, const char *text, double lo, double hi)
{
  char *end;
  double v = strtod(text, &end);
  if (*text == '\0' || *end != '\0' || !(v >= lo && v <= hi))
    die_usage("%s '%s' is not allowed: a number from %g to %g", opt, text, lo, hi);
  return v;
}

/** Applies timing option @p c (a CLI_O_* code) to @p t; 1 if it was one, 0 if not. Dies (exit 2) on a bad value. */
static int cli_timing_option(int c, const char *arg, struct atl_timing *t)
{
  /* the settings in the order of the CLI_O_* codes; the library checks each value (atl_timing_set) */
  static const char *const names[] = {"target-ms", "noise",  "min-samples", "max-samples",
                                      "budget",    "iters",  "repeat",      "discard-on-throttle", "rounds",
                                      "placements", "rotate"};
  char why[300];
  if (c < CLI_O_TARGET || c > CLI_O_ROTATE)
    return 0;
  if (atl_timing_set(t, names[c - CLI_O_TARGET], arg, why, sizeof why) != 0)
    die_usage("--%s", why);
  return 1;
}

/**
 * Dies (exit 2, before anything is allocated or measured) when a plan of
 * @p rows exceeds @p max_rows, printing the row count and a floor of the time
 * it would take under @p t.
 */
static void cli_check_plan(const char *command, size_t rows, uint64_t max_rows, const struct atl_timing *t)
{
  char why[200];
  if (atl_plan_check(rows, max_rows, t, why, sizeof why) != 0)
    die_usage("%s plans %s: above --max-rows %llu (narrow the axes or raise --max-rows)", command, why,
              (unsigned long long)max_rows);
}

/** Dies (exit 2) if the timing options contradict each other. */
static void cli_timing_check(const struct atl_timing *t)
{
  char why[200];
  if (atl_timing_check(t, why, sizeof why) != 0) /* every one is an option here */
    die_usage("--%s", why);
}

/**
 * Dies (exit 2) on a getopt error: @p c is ':' (an option given without its
 * value) or anything else (an unknown option). Names the option, @p command
 * (as the user typed it) and where its help is ('atomlab HELP --help').
 */
static _Noreturn void cli_bad_option(const char *command, const char *help, int c, char **argv)
{
  if (c == ':')
    die_usage("option '%s' needs a value (see 'atomlab %s --help')", argv[optind - 1], help);
  die_usage("unknown option '%s' for %s (see 'atomlab %s --help')", argv[optind - 1], command, help);
}

int cli_parse_format(const char *text)
{
  const int format = atl_format_parse(text);
  if (format < 0)
    die_usage("--format '%s' is not known: allowed: table, csv, json", text);
  return format;
}

/* The option codes given so far (cli_option_once). */
static int seen[256];
static size_t nseen;

void cli_options_begin(void)
{
  optind = 1; /* from the command's first argument */
  opterr = 0; /* getopt says nothing: cli_bad_option does, naming the command */
  nseen = 0;
}

void cli_option_once(const struct option *longopts, int c, int at)
{
  if (c == 'h' || c == '?' || c == ':')
    return;
  for (size_t i = 0; i < nseen; i++)
    if (seen[i] == c) {
      /* the name as typed this time: an alias or an abbreviation is the option it stands for */
      if (c == 'o')
        die_usage("-o: given twice");
      if (at >= 0 && longopts[at].val == c)
        die_usage("--%s: given twice", longopts[at].name);
      for (size_t k = 0; longopts[k].name; k++)
        if (longopts[k].val == c)
          die_usage("--%s: given twice", longopts[k].name);
      die_usage("-%c: given twice", c);
    }
  if (nseen < sizeof seen / sizeof seen[0])
    seen[nseen++] = c;
}

int cli_help_or_bad(int c, const char *usage, const char *command, char **argv)
{
  if (c != 'h')
    cli_bad_option(command, command, c, argv);
  cli_print_usage(usage);
  return EXIT_OK;
}

/** The defaults of the shared sweep options. */
static void cli_sweep_defaults(struct cli_sweep_opts *o)
{
  memset(o, 0, sizeof *o);
  atl_timing_defaults(&o->timing);
  o->format = -1;
  o->max_rows = CLI_MAX_ROWS;
}

/** Applies shared option @p c (a CLI_O_* code or 'o'); 1 if it was one, 0 if not. Dies (exit 2) on a bad value. */
static int cli_sweep_option(int c, const char *arg, struct cli_sweep_opts *o)
{
  switch (c) {
  case CLI_O_BACKEND:
    o->backend = arg;
    return 1;
  case CLI_O_DEVICE:
    o->device = arg;
    return 1;
  case CLI_O_WG:
    o->wg_size = cli_parse_count("--wg-size", arg, 1u << 16);
    return 1;
  case CLI_O_WGS:
    o->workgroups = cli_parse_count("--workgroups", arg, 1u << 24);
    return 1;
  case CLI_O_FORMAT:
    o->format = cli_parse_format(arg);
    return 1;
  case CLI_O_QUIET:
    o->quiet = 1;
    return 1;
  case CLI_O_MAX_ROWS:
    o->max_rows = cli_parse_count("--max-rows", arg, UINT32_MAX);
    return 1;
  case 'o':
    if (o->nout == CLI_MAX_OUTPUTS)
      die_usage("-o given more than %d times", CLI_MAX_OUTPUTS);
    o->out_paths[o->nout++] = arg;
    return 1;
  default:
    return cli_timing_option(c, arg, &o->timing);
  }
}

/** After parsing: the timing checked, every -o checked and given its format, the stdout format settled. */
static void cli_sweep_outputs(struct cli_sweep_opts *o)
{
  for (size_t i = 0; i < o->nout; i++) {
    cli_check_output("-o", o->out_paths[i]);
    o->out_formats[i] =
        cli_output_format("-o", o->out_paths[i], o->format >= 0 && o->nout == 1 ? o->format : ATL_FORMAT_JSON);
  }
  if (o->format < 0)
    o->format = ATL_FORMAT_TABLE;
}

int cli_sweep_parse(int argc, char **argv, const struct option *longopts, const char *usage, const char *command,
                    struct cli_sweep_opts *o, int (*own)(void *state, int c, const char *name, const char *arg),
                    void *state)
{
  int c, at = -1;
  cli_sweep_defaults(o);
  cli_options_begin();
  for (; (c = getopt_long(argc, argv, ":ho:", longopts, &at)) != -1; at = -1) {
    if (c != 'o') /* -o accumulates: one file per -o */
      cli_option_once(longopts, c, at);
    /* the command's own options first, by the name matched (an abbreviation is the option it stands for) */
    const int mine = c == 'h' || c == 'o' || c == '?' || c == ':' ? 0 : own(state, c, longopts[at].name, optarg);
    if (mine < 0)
      return 1;
    if (!mine && !cli_sweep_option(c, optarg, o))
      return cli_help_or_bad(c, usage, command, argv) == EXIT_OK;
  }
  if (optind < argc)
    die_usage("unexpected argument '%s' for %s (see 'atomlab %s --help')", argv[optind], command, command);
  cli_timing_check(&o->timing);
  return 0;
}

void *cli_sweep_start(struct atl_result_set *set, const char *kind, atl_context_t ctx, const struct cli_sweep_opts *o,
                      int argc, char **argv, size_t nspecs, size_t spec_size)
{
  memset(set, 0, sizeof *set);
  snprintf(set->kind, sizeof set->kind, "%s", kind);
  atl_run_meta_init(&set->meta, ctx, argc + 1, argv - 1); /* the command line from "atomlab" on */
  set->meta.timing = o->timing;
  void *specs = calloc(nspecs, spec_size);
  if (specs == NULL)
    die("out of memory");
  return specs;
}

void cli_sweep_plan(struct cli_sweep_opts *o, const char *command, size_t rows)
{
  /* The plan's size before anything is allocated: a sweep that cannot finish
   * is refused with its size, not started (or ended by "out of memory"). */
  cli_check_plan(command, rows, o->max_rows, &o->timing);
  cli_sweep_outputs(o);
}
