/*
 * A configuration of one app (atl_app_config_t): its params and timing,
 * with what was set and the memory its lists and texts live in. The
 * command line, the tests and library users all go through it, so an app's
 * defaults, its option syntax and its checks are written once, in its
 * registry entry.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"

/* A block of the memory that lives as long as the configuration (lists, texts, an app's input file). */
struct block {
  struct block *next;
  max_align_t data[];
};

struct atl_app_config {
  const struct atl_app_info *app;
  void *params;
  struct atl_app_timing timing;
  const char **given; /* per option (the app's, then the timing's): the text it was set from, "" for a flag */
  const char **spelled; /* per option: its name or its alias, as the caller last set it (messages spell it so) */
  size_t napp, ntiming;
  struct block *blocks;
  char note[512];
  struct atl__app_checkpoint checkpoint;
};

void *atl__app_config_alloc(atl_app_config_t cfg, size_t bytes)
{
  struct block *b = malloc(sizeof *b + (bytes ? bytes : 1));
  if (b == NULL)
    return NULL;
  b->next = cfg->blocks;
  cfg->blocks = b;
  return b->data;
}

static size_t count_of(const struct atl_app_option *opts)
{
  size_t n = 0;
  while (opts && opts[n].name)
    n++;
  return n;
}

/* Index @p i of the options of @p cfg: the app's first, then the timing's. */
static const struct atl_app_option *option_at(atl_app_config_t cfg, size_t i)
{
  return i < cfg->napp ? &cfg->app->options[i] : &atl_app_timing_options[i - cfg->napp];
}

const struct atl_app_option *atl_app_config_option_at(atl_app_config_t cfg, size_t i)
{
  return cfg && i < cfg->napp + cfg->ntiming ? option_at(cfg, i) : NULL;
}

static void *base_of(atl_app_config_t cfg, size_t i)
{
  return i < cfg->napp ? cfg->params : (void *)&cfg->timing;
}

static size_t index_of(atl_app_config_t cfg, const char *name)
{
  for (size_t i = 0; name && i < cfg->napp + cfg->ntiming; i++) {
    const struct atl_app_option *o = option_at(cfg, i);
    if (strcmp(o->name, name) == 0 || (o->alias && strcmp(o->alias, name) == 0))
      return i;
  }
  return SIZE_MAX;
}

const struct atl_app_option *atl_app_config_option(atl_app_config_t cfg, const char *name)
{
  const size_t i = cfg ? index_of(cfg, name) : SIZE_MAX;
  return i == SIZE_MAX ? NULL : option_at(cfg, i);
}

const char *atl__app_config_given(atl_app_config_t cfg, const char *name)
{
  const size_t i = index_of(cfg, name);
  return i == SIZE_MAX ? NULL : cfg->given[i];
}

void atl__app_config_note(atl_app_config_t cfg, const char *fmt, ...)
{
  const size_t n = strlen(cfg->note);
  va_list ap;
  if (n + 3 >= sizeof cfg->note)
    return;
  if (n)
    strcpy(cfg->note + n, "; ");
  va_start(ap, fmt);
  vsnprintf(cfg->note + n + (n ? 2 : 0), sizeof cfg->note - n - (n ? 2 : 0), fmt, ap);
  va_end(ap);
}

/* Sets (FLAG) or clears (UNFLAG) the bits of a flag option's int or unsigned field. */
static void apply_flag(const struct atl_app_option *o, void *base, int set)
{
  unsigned v;
  memcpy(&v, (char *)base + o->offset, sizeof v);
  v = set ? v | o->bits : v & ~o->bits;
  memcpy((char *)base + o->offset, &v, sizeof v);
}

int atl_app_config_new(const struct atl_app_info *app, atl_app_config_t *out)
{
  char why[256];
  if (app == NULL || out == NULL)
    return ATL_EINVAL;
  atl_app_config_t cfg = calloc(1, sizeof *cfg);
  *out = NULL;
  if (cfg == NULL)
    return ATL_ENOMEM;
  cfg->app = app;
  cfg->napp = count_of(app->options);
  cfg->ntiming = count_of(atl_app_timing_options);
  cfg->params = calloc(1, app->params_size);
  cfg->given = calloc(cfg->napp + cfg->ntiming, sizeof *cfg->given);
  cfg->spelled = calloc(cfg->napp + cfg->ntiming, sizeof *cfg->spelled);
  if (cfg->params == NULL || cfg->given == NULL || cfg->spelled == NULL) {
    atl_app_config_free(cfg);
    return ATL_ENOMEM;
  }
  atl_app_timing_defaults(&cfg->timing);
  for (size_t i = 0; i < cfg->napp; i++) {
    const struct atl_app_option *o = option_at(cfg, i);
    int err = 0;
    if (o->kind == ATL_APP_OPT_UNFLAG) /* a flag that clears starts set */
      apply_flag(o, cfg->params, 1);
    else if (o->def)
      err = o->parse ? o->parse(cfg, o, o->def, why, sizeof why)
                     : atl__app_opt_parse(cfg, o, cfg->params, o->def, why, sizeof why);
    if (err) { /* a default its own table refuses, or no memory for it */
      atl_app_config_free(cfg);
      return ATL_ENOMEM;
    }
  }
  *out = cfg;
  return 0;
}

void atl_app_config_free(atl_app_config_t cfg)
{
  if (cfg == NULL)
    return;
  while (cfg->blocks) {
    struct block *b = cfg->blocks;
    cfg->blocks = b->next;
    free(b);
  }
  free(cfg->given);
  free(cfg->spelled);
  free(cfg->params);
  free(cfg);
}

int atl_app_config_set(atl_app_config_t cfg, const char *name, const char *text, char *why, size_t len)
{
  if (cfg == NULL)
    return atl__app_why(why, len, "cfg is NULL: a configuration of atl_app_config_new is needed");
  const size_t i = index_of(cfg, name);
  if (i == SIZE_MAX)
    return atl__app_why(why, len, "%s is not an option of %s", name ? name : "(null)", cfg->app->name);
  const struct atl_app_option *o = option_at(cfg, i);
  const int flag = o->kind == ATL_APP_OPT_FLAG || o->kind == ATL_APP_OPT_UNFLAG;
  cfg->spelled[i] = o->alias && strcmp(o->alias, name) == 0 ? o->alias : o->name;
  if (flag && text && *text)
    return atl__app_why(why, len, "%s takes no value", o->name);
  if (!flag && text == NULL)
    return atl__app_why(why, len, "%s needs a value", o->name);
  char *copy = atl__app_config_alloc(cfg, flag ? 1 : strlen(text) + 1);
  if (copy == NULL)
    return atl__app_why(why, len, "%s: out of memory", o->name);
  strcpy(copy, flag ? "" : text);
  /* Flags are applied by prepare, after every value: "--no-cub" wins over a later "--variants all". */
  int err = flag ? 0 : o->parse ? o->parse(cfg, o, copy, why, len)
                               : atl__app_opt_parse(cfg, o, base_of(cfg, i), copy, why, len);
  if (err == 0)
    cfg->given[i] = copy;
  return err;
}

int atl_app_check(const struct atl_app_info *app, const struct atl_device_info *dev, const void *params, char *why,
                  size_t len)
{
  if (app == NULL || params == NULL)
    return atl__app_why(why, len, "%s is NULL: it is needed", app ? "params" : "app");
  int err = atl__app_opt_check(app->options, params, why, len);
  if (!err)
    err = app->check(dev, params, why, len);
  return err ? err : atl__app_memory_check(app, dev, params, why, len);
}

int atl_app_config_prepare(atl_app_config_t cfg, atl_context_t ctx, char *why, size_t len)
{
  if (cfg == NULL)
    return atl__app_why(why, len, "cfg is NULL: a configuration of atl_app_config_new is needed");
  const struct atl_app_info *app = cfg->app;
  const struct atl_device_info *dev = atl_device_current(ctx);
  struct atl_app_timing *tm = &cfg->timing;
  if (why && len)
    why[0] = '\0';
  if (dev == NULL) {
    atl__app_why(why, len, "no device open");
    return ATL_ENODEV;
  }
  for (size_t i = 0; i < cfg->napp + cfg->ntiming; i++) {
    const struct atl_app_option *o = option_at(cfg, i);
    if (cfg->given[i] && (o->kind == ATL_APP_OPT_FLAG || o->kind == ATL_APP_OPT_UNFLAG))
      apply_flag(o, base_of(cfg, i), o->kind == ATL_APP_OPT_FLAG);
  }
  app->defaults(dev, cfg->params);
  /* Checked before prepare() too: a bad work-group size is a usage error, not a failed discovery. */
  int err = atl_app_check(app, dev, cfg->params, why, len);
  if (!err && (err = atl__app_opt_check(atl_app_timing_options, tm, why, len)) == 0 && !tm->samples &&
      tm->max_samples < tm->min_samples)
    err = atl__app_why(why, len, "max-samples %u is below min-samples %u", tm->max_samples, tm->min_samples);
  cfg->note[0] = '\0';
  if (!err && app->prepare)
    err = app->prepare(ctx, cfg, why, len);
  if (!err)
    err = atl_app_check(app, dev, cfg->params, why, len);
  if (!err && why && len)
    snprintf(why, len, "%s", cfg->note);
  return err;
}

int atl_app_config_run(atl_app_config_t cfg, atl_context_t ctx, struct atl_result_set *out)
{
  if (cfg == NULL || ctx == NULL || out == NULL)
    return ctx ? atl__seterr(ctx, ATL_EINVAL, "app: %s is NULL: it is needed", cfg ? "out" : "cfg") : ATL_EINVAL;
  atl__app_sampling(&cfg->timing, &out->meta.timing); /* the file records how its rows were timed */
  return atl__app_run_checkpointed(cfg->app, ctx, cfg->params, &cfg->timing, out, &cfg->checkpoint);
}

void atl_app_config_checkpoint(atl_app_config_t cfg, double seconds,
                               void (*write)(void *arg, const struct atl_result_set *rows), void *arg)
{
  cfg->checkpoint = (struct atl__app_checkpoint){seconds > 0 ? seconds : 0, write, arg};
}

const struct atl_app_info *atl_app_config_app(atl_app_config_t cfg)
{
  return cfg->app;
}

void *atl_app_config_params(atl_app_config_t cfg)
{
  return cfg->params;
}

struct atl_app_timing *atl_app_config_timing(atl_app_config_t cfg)
{
  return &cfg->timing;
}

const char *atl_app_config_reason(atl_app_config_t cfg, const char *why, const char *prefix, char *msg, size_t cap)
{
  size_t n = 0;
  msg[0] = '\0';
  for (const char *p = why; *p && n + 1 < cap;) {
    size_t len = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_-");
    /* a name where it starts the reason or is followed by a value ("items 2", "threads (64)"), not where it
     * is a plain word ("16 bytes") */
    const int valued = p[len] == ' ' && ((p[len + 1] >= '0' && p[len + 1] <= '9') || p[len + 1] == '(');
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(len < 63 ? len : 63), p);
    const size_t i = len && (p == why || valued) ? index_of(cfg, name) : SIZE_MAX;
    if (i != SIZE_MAX) {
      n += (size_t)snprintf(msg + n, cap - n, "%s%s", prefix, cfg->spelled[i] ? cfg->spelled[i] : option_at(cfg, i)->name);
    } else {
      len = len ? len : 1;
      n += (size_t)snprintf(msg + n, cap - n, "%.*s", (int)len, p);
    }
    p += len;
  }
  return msg;
}
