/* Option parsing every command shares. */
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* A comma list of names, each parsed by `parse`; "all" expands to `all`. */
size_t cli_parse_names(const char *opt, const char *text, int (*parse)(const char *), const int *all, size_t nall,
                          const char *allowed, int *out)
{
  size_t n = 0;
  if (strcmp(text, "all") == 0) {
    memcpy(out, all, nall * sizeof *out);
    return nall;
  }
  char *copy = strdup(text);
  if (copy == NULL)
    die("out of memory");
  for (char *save = NULL, *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
    int v = parse(item);
    if (v < 0)
      die_usage("%s '%s' is not known: allowed: %s", opt, item, allowed);
    int dup = 0;
    for (size_t i = 0; i < n; i++)
      dup |= out[i] == v;
    if (!dup && n < MAX_LIST)
      out[n++] = v;
  }
  free(copy);
  if (n == 0)
    die_usage("%s is empty: allowed: %s", opt, allowed);
  return n;
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
    t->fixed_iters = cli_parse_count("--iters", arg, 1u << 30);
    return 1;
  default:
    return 0;
  }
}

void cli_timing_check(const struct atl_timing *t)
{
  if (t->max_samples < t->min_samples)
    die_usage("--max-samples %u is below --min-samples %u", t->max_samples, t->min_samples);
}
