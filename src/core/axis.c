/* Numeric axes: "1:1024:x2", "1:64:+8", "1,2,4" or a single value. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"
#include "name_axes.h"

#define AXIS_MAX_VALUES 4096

/* Strict unsigned parse: digits only, no sign, no overflow, 1..max. */
static int parse_value(const char *s, size_t len, uint32_t max, uint32_t *out, char *why, size_t why_len)
{
  char buf[32];
  if (len == 0 || len >= sizeof buf) {
    snprintf(why, why_len, "expected a whole number from 1 to %u", max);
    return ATL_EINVAL;
  }
  memcpy(buf, s, len);
  buf[len] = '\0';
  for (size_t i = 0; i < len; i++)
    if (buf[i] < '0' || buf[i] > '9') {
      snprintf(why, why_len, "'%s' is not a whole number from 1 to %u", buf, max);
      return ATL_EINVAL;
    }
  errno = 0;
  unsigned long long v = strtoull(buf, NULL, 10);
  if (errno == ERANGE || v > max || v == 0) {
    snprintf(why, why_len, "'%s' is out of range: allowed 1 to %u", buf, max);
    return ATL_ERANGE;
  }
  *out = (uint32_t)v;
  return 0;
}

static int push(struct atl_axis *axis, uint32_t v, char *why, size_t why_len)
{
  if (axis->count >= AXIS_MAX_VALUES) {
    snprintf(why, why_len, "too many values: at most %d", AXIS_MAX_VALUES);
    return ATL_ERANGE;
  }
  for (size_t i = 0; i < axis->count; i++)
    if (axis->values[i] == v)
      return 0; /* duplicates add nothing to a sweep */
  /* Capacity doubles whenever the count reaches a power of two (from 8), so
   * the struct needs no capacity field and pushes stay amortised O(1). */
  size_t n = axis->count;
  if (n == 0 || (n >= 8 && (n & (n - 1)) == 0)) {
    uint32_t *grown = realloc(axis->values, (n ? 2 * n : 8) * sizeof *grown);
    if (grown == NULL)
      return ATL_ENOMEM;
    axis->values = grown;
  }
  axis->values[axis->count++] = v;
  return 0;
}

static int parse_range(const char *s, uint32_t max, struct atl_axis *axis, char *why, size_t why_len)
{
  const char *c1 = strchr(s, ':');
  const char *c2 = strchr(c1 + 1, ':');
  uint32_t lo, hi, step = 0;
  int geometric = 0, err;
  if ((err = parse_value(s, (size_t)(c1 - s), max, &lo, why, why_len)))
    return err;
  const char *hi_end = c2 ? c2 : c1 + 1 + strlen(c1 + 1);
  if ((err = parse_value(c1 + 1, (size_t)(hi_end - c1 - 1), max, &hi, why, why_len)))
    return err;
  if (lo > hi) {
    snprintf(why, why_len, "range '%s' runs backwards: start must not exceed end", s);
    return ATL_EINVAL;
  }
  if (c2 == NULL) {
    geometric = 1; /* "a:b" means powers of two, the usual sweep */
    step = 2;
  } else if (c2[1] == 'x' || c2[1] == '*') {
    geometric = 1;
    if ((err = parse_value(c2 + 2, strlen(c2 + 2), 1u << 16, &step, why, why_len)))
      return err;
    if (step < 2) {
      snprintf(why, why_len, "geometric step in '%s' must be at least x2", s);
      return ATL_EINVAL;
    }
  } else {
    const char *st = c2 + 1 + (c2[1] == '+');
    if ((err = parse_value(st, strlen(st), max, &step, why, why_len)))
      return err;
  }
  for (uint64_t v = lo; v <= hi; v = geometric ? v * step : v + step)
    if ((err = push(axis, (uint32_t)v, why, why_len)))
      return err;
  return 0;
}

int atl_axis_parse(const char *text, uint32_t max_value, struct atl_axis *axis, char *why, size_t why_len)
{
  int err = 0;
  axis->values = NULL;
  axis->count = 0;
  why[0] = '\0';
  if (text == NULL || *text == '\0') {
    snprintf(why, why_len, "empty value: expected N, A:B, A:B:xK, A:B:+K or a comma list");
    return ATL_EINVAL;
  }
  char *copy = strdup(text);
  if (copy == NULL)
    return ATL_ENOMEM;
  for (char *item = copy, *next; item && !err; item = next) {
    next = strchr(item, ',');
    if (next)
      *next++ = '\0';
    if (strchr(item, ':'))
      err = parse_range(item, max_value, axis, why, why_len);
    else {
      uint32_t v;
      err = parse_value(item, strlen(item), max_value, &v, why, why_len);
      if (!err)
        err = push(axis, v, why, why_len);
    }
  }
  free(copy);
  if (err)
    atl_axis_release(axis);
  return err;
}

void atl_axis_release(struct atl_axis *axis)
{
  free(axis->values);
  axis->values = NULL;
  axis->count = 0;
}

/* Appends @p v to out[0..n) unless it is there: a name given twice (or also
 * through "all") is one axis value, not a repeated row. */
static size_t add_name(int *out, size_t n, size_t max, int v)
{
  for (size_t i = 0; i < n; i++)
    if (out[i] == v)
      return n;
  if (n < max)
    out[n++] = v;
  return n;
}

int atl_name_axis_parse(const struct atl_name_axis *axis, const char *text, int *out, size_t max, size_t *n, char *why,
                        size_t why_len)
{
  size_t count = 0;
  int err = 0;
  char *copy = strdup(text);
  if (copy == NULL)
    return ATL_ENOMEM;
  for (char *save = NULL, *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
    if (strcmp(item, "all") == 0) { /* "all" may sit in a list: "all,all" or "random,all" is every name once */
      for (size_t i = 0; i < axis->nall; i++)
        count = add_name(out, count, max, axis->all[i]);
      continue;
    }
    const int v = axis->parse(item);
    if (v < 0) {
      snprintf(why, why_len, "%s '%s' is not known: allowed: %s", axis->name, item, axis->allowed);
      err = ATL_EINVAL;
      break;
    }
    count = add_name(out, count, max, v);
  }
  free(copy);
  if (err == 0 && count == 0) {
    snprintf(why, why_len, "%s is empty: allowed: %s", axis->name, axis->allowed);
    err = ATL_EINVAL;
  }
  *n = count;
  return err;
}

int atl__name_axes_set(const struct atl__name_axis_field *fields, size_t n, void *axes, size_t max,
                       const char *command, const char *name, const char *text, char *why, size_t why_len)
{
  for (size_t i = 0; i < n; i++)
    if (strcmp(fields[i].axis.name, name) == 0)
      return atl_name_axis_parse(&fields[i].axis, text, (int *)((char *)axes + fields[i].values), max,
                                 (size_t *)((char *)axes + fields[i].count), why, why_len);
  snprintf(why, why_len, "%s is not an axis of %s", name, command);
  return ATL_EINVAL;
}
