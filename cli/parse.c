/* Option parsing every command shares. */
#include <getopt.h>
#include <libgen.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* Appends @p v to out[0..n) unless it is there: a name given twice (or also
 * through "all") is one axis value, not a repeated row. */
static size_t add_name(int *out, size_t n, int v)
{
  for (size_t i = 0; i < n; i++)
    if (out[i] == v)
      return n;
  if (n < MAX_LIST)
    out[n++] = v;
  return n;
}

size_t cli_parse_names(const char *opt, const char *text, int (*parse)(const char *), const int *all, size_t nall,
                       const char *allowed, int *out)
{
  size_t n = 0;
  char *copy = strdup(text);
  if (copy == NULL)
    die("out of memory");
  for (char *save = NULL, *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
    if (strcmp(item, "all") == 0) { /* "all" may sit in a list: "all,all" or "random,all" is every name once */
      for (size_t i = 0; i < nall; i++)
        n = add_name(out, n, all[i]);
      continue;
    }
    int v = parse(item);
    if (v < 0)
      die_usage("%s '%s' is not known: allowed: %s", opt, item, allowed);
    n = add_name(out, n, v);
  }
  free(copy);
  if (n == 0)
    die_usage("%s is empty: allowed: %s", opt, allowed);
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

uint32_t cli_parse_count(const char *opt, const char *text, uint32_t max)
{
  struct atl_axis axis;
  char why[160];
  if (atl_axis_parse(text, max, &axis, why, sizeof why) != 0)
    die_usage("%s: %s", opt, why);
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

int cli_timing_option(int c, const char *arg, struct atl_timing *t)
{
  switch (c) {
  case CLI_O_TARGET:
    t->target_ms = cli_parse_real("--target-ms", arg, 0.001, 60000);
    return 1;
  case CLI_O_NOISE:
    t->noise = cli_parse_real("--noise", arg, 0, 10);
    return 1;
  case CLI_O_MIN_SAMPLES:
    t->min_samples = cli_parse_count("--min-samples", arg, 100000);
    return 1;
  case CLI_O_MAX_SAMPLES:
    t->max_samples = cli_parse_count("--max-samples", arg, 100000);
    return 1;
  case CLI_O_BUDGET:
    t->budget_s = cli_parse_real("--budget", arg, 0, 86400);
    return 1;
  case CLI_O_ITERS:
    /* The library runs at most max_iters (2^24) per thread: a larger --iters was
     * clamped without a word while the settings recorded the request. */
    t->fixed_iters = cli_parse_count("--iters", arg, t->max_iters);
    return 1;
  case CLI_O_REPEAT:
    t->repeats = cli_parse_count("--repeat", arg, 100);
    return 1;
  case CLI_O_DISCARD_THROTTLED:
    t->discard_throttled = 1;
    return 1;
  default:
    return 0;
  }
}

size_t cli_plan_rows(const size_t *counts, size_t n)
{
  size_t rows = 1;
  for (size_t i = 0; i < n; i++) {
    if (counts[i] && rows > SIZE_MAX / counts[i])
      return SIZE_MAX; /* saturates: a count this large is refused either way */
    rows *= counts[i];
  }
  return rows;
}

/* "3.2 h" for a number of seconds. */
static void human_time(double s, char *buf, size_t len)
{
  static const struct {
    double seconds;
    const char *unit;
  } units[] = {{365.25 * 86400, "years"}, {86400, "days"}, {3600, "h"}, {60, "min"}};
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
    if (s >= units[i].seconds) {
      snprintf(buf, len, "%.3g %s", s / units[i].seconds, units[i].unit);
      return;
    }
  snprintf(buf, len, "%.3g s", s);
}

void cli_check_plan(const char *command, size_t rows, uint64_t max_rows, const struct atl_timing *t)
{
  if (rows <= max_rows)
    return;
  /* A row costs at least its samples and a calibration launch or three at
   * about the target time: a floor, enough to show a plan cannot finish. */
  const double row_s = (t->min_samples + (t->fixed_iters ? 1 : 3)) * t->target_ms * 1e-3;
  char when[48], count[32];
  human_time((double)rows * row_s, when, sizeof when);
  if (rows == SIZE_MAX)
    snprintf(count, sizeof count, "more than %zu", SIZE_MAX - 1);
  else
    snprintf(count, sizeof count, "%zu", rows);
  die_usage("%s plans %s rows, %s or more at %.3g s a row: above --max-rows %llu (narrow the axes or raise "
            "--max-rows)",
            command, count, when, row_s, (unsigned long long)max_rows);
}

void cli_timing_check(const struct atl_timing *t)
{
  if (t->max_samples < t->min_samples)
    die_usage("--max-samples %u is below --min-samples %u", t->max_samples, t->min_samples);
}

void cli_bad_option(const char *command, const char *help, int c, char **argv)
{
  if (c == ':')
    die_usage("option '%s' needs a value (see 'atomlab %s --help')", argv[optind - 1], help);
  die_usage("unknown option '%s' for %s (see 'atomlab %s --help')", argv[optind - 1], command, help);
}

void cli_sweep_defaults(struct cli_sweep_opts *o)
{
  memset(o, 0, sizeof *o);
  atl_timing_defaults(&o->timing);
  o->format = -1;
  o->max_rows = CLI_MAX_ROWS;
}

int cli_sweep_option(int c, const char *arg, struct cli_sweep_opts *o)
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
    if ((o->format = atl_format_parse(arg)) < 0)
      die_usage("--format '%s' is not known: allowed: table, csv, json", arg);
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

void cli_sweep_outputs(struct cli_sweep_opts *o)
{
  for (size_t i = 0; i < o->nout; i++) {
    cli_check_output("-o", o->out_paths[i]);
    o->out_formats[i] =
        cli_output_format("-o", o->out_paths[i], o->format >= 0 && o->nout == 1 ? o->format : ATL_FORMAT_JSON);
  }
  if (o->format < 0)
    o->format = ATL_FORMAT_TABLE;
}
