/*
 * Option values by kind (struct atl_app_option): text to a params field,
 * and the ranges of every field a table describes. One reader and one
 * range check for every app, so that a command line, a library user and an
 * app's run refuse the same values with the same words.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"

/* The timing of every app: docs/design/method.md's sampling with rmw's defaults (atl_timing_defaults). */
const struct atl_app_option atl_app_timing_options[] = {
    {.name = "samples", .kind = ATL_APP_OPT_U32, .offset = offsetof(struct atl_app_timing, samples), .min = 1,
     .max = 256, .arg = "N", .def_help = "none: sampled to the noise",
     .help = "exactly N timed launches per variant (min-samples = max-samples = N)"},
    {.name = "min-samples", .kind = ATL_APP_OPT_U32, .offset = offsetof(struct atl_app_timing, min_samples),
     .min = 1, .max = 100000, .def = "5", .arg = "N", .help = "at least N timed launches after one warm-up launch"},
    {.name = "max-samples", .kind = ATL_APP_OPT_U32, .offset = offsetof(struct atl_app_timing, max_samples),
     .min = 1, .max = 100000, .def = "50", .arg = "N", .help = "at most N timed launches"},
    {.name = "noise", .kind = ATL_APP_OPT_DOUBLE, .offset = offsetof(struct atl_app_timing, noise), .min = 0,
     .max = 10, .def = "0.02", .arg = "X", .help = "stop sampling at relative IQR (IQR / median) <= X"},
    {.name = "budget", .kind = ATL_APP_OPT_DOUBLE, .offset = offsetof(struct atl_app_timing, budget_s), .min = 0,
     .max = 86400, .def = "2", .arg = "S", .help = "or after S seconds of sampling per variant"},
    {.name = "spin-bound", .kind = ATL_APP_OPT_U32, .offset = offsetof(struct atl_app_timing, spin_bound),
     .min = 1, .max = 4294967295.0, .def = "4194304", .arg = "N",
     .help = "spins a waiting loop may make before giving up (status deadlock)"},
    {0}};

void atl_app_timing_defaults(struct atl_app_timing *tm)
{
  char why[128];
  memset(tm, 0, sizeof *tm);
  for (const struct atl_app_option *o = atl_app_timing_options; o->name; o++)
    if (o->def)
      atl__app_opt_parse(NULL, o, tm, o->def, why, sizeof why);
}

/* A bound as messages write it: 2^k for large powers of two, else the number. */
static const char *bound(double v, char *buf, size_t len)
{
  int e;
  if (v >= 65536 && frexp(v, &e) == 0.5)
    snprintf(buf, len, "2^%d", e - 1);
  else
    snprintf(buf, len, "%.15g", v);
  return buf;
}

/* "a whole number from 1 to 2^26" (whole) or "a number from 0.001 to 60000". */
static const char *range(const struct atl_app_option *o, char *buf, size_t len)
{
  const int whole = o->kind == ATL_APP_OPT_U32 || o->kind == ATL_APP_OPT_U64 || o->kind == ATL_APP_OPT_LIST;
  char lo[32], hi[32];
  if (o->max >= 0x1p64)
    snprintf(buf, len, "a %snumber from %s", whole ? "whole " : "", bound(o->min, lo, sizeof lo));
  else
    snprintf(buf, len, "a %snumber from %s to %s", whole ? "whole " : "", bound(o->min, lo, sizeof lo),
             bound(o->max, hi, sizeof hi));
  return buf;
}

/* "a, b, c" (with ", all" where @p all): the names an option allows. */
static const char *allowed(const struct atl_app_option *o, int all, char *buf, size_t len)
{
  size_t n = 0;
  buf[0] = '\0';
  for (unsigned i = (unsigned)o->min; i < o->nnames && n < len; i++)
    n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", o->names[i]);
  if (all && n < len)
    snprintf(buf + n, len - n, ", all");
  return buf;
}

int atl__app_whole(const char *text, uint64_t *v)
{
  char *end;
  errno = 0;
  unsigned long long x = strtoull(text, &end, 10);
  if (*text < '0' || *text > '9' || *end != '\0' || errno)
    return ATL_EINVAL;
  *v = x;
  return 0;
}

int atl__app_list_has(const char *text, const char *name)
{
  const size_t len = strlen(name);
  for (const char *p = text; p && (p = strstr(p, name)) != NULL; p += len)
    if ((p == text || p[-1] == ',') && (p[len] == ',' || p[len] == '\0'))
      return 1;
  return 0;
}

/* The index of the name [tok, tok + n) among @p o's allowed names, or -1. */
static int name_index(const struct atl_app_option *o, const char *tok, size_t n)
{
  for (unsigned i = (unsigned)o->min; i < o->nnames; i++)
    if (strlen(o->names[i]) == n && strncmp(o->names[i], tok, n) == 0)
      return (int)i;
  return -1;
}

/* The next non-empty comma-separated token of *@p p: its start, its length in @p n; NULL at the end. */
static const char *token(const char **p, size_t *n)
{
  while (**p == ',')
    (*p)++;
  if (**p == '\0')
    return NULL;
  const char *tok = *p;
  *n = strcspn(tok, ",");
  *p += *n;
  return tok;
}

/* SET, CHOICES: every name of a comma list (or "all") in order, each once, into @p out; the count, or -1. */
static int names_of(const struct atl_app_option *o, const char *text, int *out, char *why, size_t len)
{
  char buf[256];
  int count = 0;
  size_t n;
  for (const char *p = text, *tok; (tok = token(&p, &n)) != NULL;) {
    const int all = n == 3 && strncmp(tok, "all", 3) == 0;
    const int k = all ? (int)o->min : name_index(o, tok, n);
    if (k < 0) {
      atl__app_why(why, len, "%s '%.*s' is not known: allowed: %s", o->name, (int)n, tok,
                   allowed(o, 1, buf, sizeof buf));
      return -1;
    }
    for (int i = k; i <= (all ? (int)o->nnames - 1 : k); i++) {
      int seen = 0;
      for (int j = 0; j < count && !seen; j++)
        seen = out[j] == i;
      if (!seen)
        out[count++] = i;
    }
  }
  if (count == 0)
    atl__app_why(why, len, "%s '%s' is not allowed: a comma list of %s", o->name, text,
                 allowed(o, 1, buf, sizeof buf));
  return count ? count : -1;
}

/* Storage that lives as long as @p cfg, or NULL (an option that needs it cannot be parsed without one). */
static void *store(atl_app_config_t cfg, size_t bytes)
{
  return cfg ? atl__app_config_alloc(cfg, bytes) : NULL;
}

static int parse_list(atl_app_config_t cfg, const struct atl_app_option *o, char *field, const char *text,
                      char *why, size_t len)
{
  char buf[96];
  uint32_t vals[ATL_APP_LIST_MAX];
  unsigned count = 0;
  size_t n;
  for (const char *p = text, *tok; (tok = token(&p, &n)) != NULL;) {
    char num[32];
    uint64_t v = 0;
    snprintf(num, sizeof num, "%.*s", (int)(n < 31 ? n : 31), tok);
    if (n >= 31 || atl__app_whole(num, &v) || (double)v < o->min || (double)v > o->max)
      return atl__app_why(why, len, "%s '%.*s' is not allowed: %s", o->name, (int)n, tok,
                          range(o, buf, sizeof buf));
    if (count == ATL_APP_LIST_MAX)
      return atl__app_why(why, len, "%s '%s' is not allowed: at most %d values", o->name, text, ATL_APP_LIST_MAX);
    vals[count++] = (uint32_t)v;
  }
  if (count == 0)
    return atl__app_why(why, len, "%s '%s' is not allowed: a comma list of whole numbers", o->name, text);
  uint32_t *copy = store(cfg, count * sizeof *copy);
  if (copy == NULL)
    return atl__app_why(why, len, "%s: out of memory", o->name);
  memcpy(copy, vals, count * sizeof *copy);
  memcpy(field, &(const uint32_t *){copy}, sizeof copy);
  memcpy(field - o->offset + o->count_offset, &count, sizeof count);
  return 0;
}

static int parse_texts(atl_app_config_t cfg, const struct atl_app_option *o, char *field, const char *text,
                       char *why, size_t len)
{
  const char **list = store(cfg, ATL_APP_LIST_MAX * sizeof *list);
  char *copy = store(cfg, strlen(text) + 1); /* the texts, each ended where its comma was */
  unsigned count = 0;
  size_t n;
  if (list == NULL || copy == NULL)
    return atl__app_why(why, len, "%s: out of memory", o->name);
  strcpy(copy, text);
  for (const char *p = text, *tok; (tok = token(&p, &n)) != NULL;) {
    if (count == ATL_APP_LIST_MAX)
      return atl__app_why(why, len, "%s '%s' is not allowed: at most %d values", o->name, text, ATL_APP_LIST_MAX);
    list[count++] = copy + (tok - text);
    copy[tok - text + n] = '\0';
  }
  if (count == 0)
    return atl__app_why(why, len, "%s '%s' is not allowed: a comma list", o->name, text);
  memcpy(field, &(const char *const *){list}, sizeof list);
  memcpy(field - o->offset + o->count_offset, &count, sizeof count);
  return 0;
}

int atl__app_opt_parse(atl_app_config_t cfg, const struct atl_app_option *o, void *base, const char *text, char *why,
                       size_t len)
{
  char *field = (char *)base + o->offset, buf[256], *end;
  int idx[64];
  switch (o->kind) {
  case ATL_APP_OPT_U32:
  case ATL_APP_OPT_U64:
  case ATL_APP_OPT_FLOAT:
  case ATL_APP_OPT_DOUBLE: {
    const int whole = o->kind == ATL_APP_OPT_U32 || o->kind == ATL_APP_OPT_U64;
    uint64_t u = 0;
    /* a whole number that is not one reads as -1: below every whole option's min */
    const double v = whole ? (atl__app_whole(text, &u) ? -1 : (double)u) : strtod(text, &end);
    if ((!whole && (*text == '\0' || *end != '\0')) || !(v >= o->min && v <= o->max))
      return atl__app_why(why, len, "%s '%s' is not allowed: %s", o->name, text, range(o, buf, sizeof buf));
    if (o->kind == ATL_APP_OPT_U32)
      memcpy(field, &(uint32_t){(uint32_t)u}, sizeof(uint32_t));
    else if (o->kind == ATL_APP_OPT_U64)
      memcpy(field, &u, sizeof u);
    else if (o->kind == ATL_APP_OPT_FLOAT)
      memcpy(field, &(float){(float)v}, sizeof(float));
    else
      memcpy(field, &v, sizeof v);
    return 0;
  }
  case ATL_APP_OPT_CHOICE: {
    const int k = name_index(o, text, strlen(text));
    if (k < 0)
      return atl__app_why(why, len, "%s '%s' is not allowed: one of %s", o->name, text, allowed(o, 0, buf, sizeof buf));
    memcpy(field, &k, sizeof k);
    return 0;
  }
  case ATL_APP_OPT_SET:
  case ATL_APP_OPT_CHOICES: {
    const int count = o->nnames <= 64 ? names_of(o, text, idx, why, len) : -1;
    if (count < 0)
      return ATL_EINVAL;
    unsigned bits = 0;
    for (int i = 0; i < count; i++)
      bits |= 1u << idx[i];
    if (o->kind == ATL_APP_OPT_SET) {
      memcpy(field, &bits, sizeof bits);
    } else {
      memcpy(field, idx, (size_t)count * sizeof *idx);
      memcpy(field - o->offset + o->count_offset, &(unsigned){(unsigned)count}, sizeof(unsigned));
    }
    return 0;
  }
  case ATL_APP_OPT_LIST:
    return parse_list(cfg, o, field, text, why, len);
  case ATL_APP_OPT_TEXT: {
    char *copy = store(cfg, strlen(text) + 1);
    if (copy == NULL)
      return atl__app_why(why, len, "%s: out of memory", o->name);
    strcpy(copy, text);
    memcpy(field, &(const char *){copy}, sizeof(const char *));
    return 0;
  }
  case ATL_APP_OPT_TEXTS:
    return parse_texts(cfg, o, field, text, why, len);
  case ATL_APP_OPT_FLAG:
  case ATL_APP_OPT_UNFLAG:
    break;
  }
  return atl__app_why(why, len, "%s takes no value", o->name);
}

/* The range check of one number @p v of option @p o ("NAME V is not allowed: ..."). */
static int check_number(const struct atl_app_option *o, double v, char *why, size_t len)
{
  char buf[96];
  if (v >= o->min && v <= o->max)
    return 0;
  return atl__app_why(why, len, "%s %.15g is not allowed: %s", o->name, v, range(o, buf, sizeof buf));
}

int atl__app_opt_check(const struct atl_app_option *opts, const void *base, char *why, size_t len)
{
  char buf[256];
  for (const struct atl_app_option *o = opts; o && o->name; o++) {
    const char *field = (const char *)base + o->offset;
    unsigned count = 0, bits = 0;
    int k = 0;
    if (o->parse) /* its own syntax: its app's check knows its values */
      continue;
    if (o->kind == ATL_APP_OPT_CHOICES || o->kind == ATL_APP_OPT_LIST)
      memcpy(&count, (const char *)base + o->count_offset, sizeof count);
    switch (o->kind) {
    case ATL_APP_OPT_U32:
    case ATL_APP_OPT_U64:
    case ATL_APP_OPT_FLOAT:
    case ATL_APP_OPT_DOUBLE: {
      uint32_t u32;
      uint64_t u64;
      float f;
      double v;
      if (o->kind == ATL_APP_OPT_U32)
        v = (memcpy(&u32, field, sizeof u32), u32);
      else if (o->kind == ATL_APP_OPT_U64)
        v = (double)(memcpy(&u64, field, sizeof u64), u64);
      else if (o->kind == ATL_APP_OPT_FLOAT)
        v = (memcpy(&f, field, sizeof f), f);
      else
        memcpy(&v, field, sizeof v);
      if (v == 0 && o->def == NULL) /* 0: the default, or unset */
        continue;
      if (check_number(o, v, why, len))
        return ATL_EINVAL;
      break;
    }
    case ATL_APP_OPT_CHOICE:
      memcpy(&k, field, sizeof k);
      if (k < (int)o->min || k >= (int)o->nnames)
        return atl__app_why(why, len, "%s %d is not allowed: one of %s", o->name, k, allowed(o, 0, buf, sizeof buf));
      break;
    case ATL_APP_OPT_SET: {
      memcpy(&bits, field, sizeof bits);
      const unsigned all = (o->nnames >= 32 ? ~0u : (1u << o->nnames) - 1) & ~((1u << (unsigned)o->min) - 1);
      if (bits == 0 || (bits & ~all))
        return atl__app_why(why, len, "%s 0x%x is not allowed: a set of %s", o->name, bits, allowed(o, 0, buf, sizeof buf));
      break;
    }
    case ATL_APP_OPT_CHOICES:
      if (count == 0 || count > o->nnames)
        return atl__app_why(why, len, "%s: %u values are not allowed: 1 to %u of %s", o->name, count, o->nnames,
                      allowed(o, 0, buf, sizeof buf));
      for (unsigned i = 0; i < count; i++) {
        memcpy(&k, field + i * sizeof k, sizeof k);
        if (k < (int)o->min || k >= (int)o->nnames)
          return atl__app_why(why, len, "%s %d is not allowed: one of %s", o->name, k, allowed(o, 0, buf, sizeof buf));
      }
      break;
    case ATL_APP_OPT_LIST: {
      const uint32_t *vals;
      memcpy(&vals, field, sizeof vals);
      if (count > ATL_APP_LIST_MAX || (count && vals == NULL))
        return atl__app_why(why, len, "%s: %u values are not allowed: at most %d", o->name, count, ATL_APP_LIST_MAX);
      for (unsigned i = 0; i < count; i++)
        if (check_number(o, vals[i], why, len))
          return ATL_EINVAL;
      break;
    }
    default: /* texts and flags: any value; their app's check says what it needs */
      break;
    }
  }
  return 0;
}
