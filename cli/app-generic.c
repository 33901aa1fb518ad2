/*
 * The command line of every app whose registry entry lists its options
 * (struct atl_app_option): one parser for all of them, so such an app needs
 * no file in cli/. Values are read by kind; ranges and sizes are the
 * library's check (app_prepare), which names the parameter as its option.
 */
#include <stdlib.h>
#include <string.h>

#include "app.h"

struct generic {
  const struct atl_app_info *app;
  void *params;
};

static void on_option(int code, const char *arg, void *user)
{
  struct generic *g = user;
  const struct atl_app_option *opt = &g->app->options[code - APP_OPT_FIRST];
  char *field = (char *)g->params + opt->offset, flag[64], *end;
  snprintf(flag, sizeof flag, "--%s", opt->name);
  switch (opt->kind) {
  case ATL_APP_OPT_U32: {
    const uint32_t v = (uint32_t)app_number(flag, arg, opt->min, UINT32_MAX);
    memcpy(field, &v, sizeof v);
    break;
  }
  case ATL_APP_OPT_U64: {
    const uint64_t v = app_number(flag, arg, opt->min, UINT64_MAX);
    memcpy(field, &v, sizeof v);
    break;
  }
  case ATL_APP_OPT_FLOAT: {
    const float v = strtof(arg, &end);
    if (*arg == '\0' || *end != '\0' || !(v > -1e30f && v < 1e30f))
      die_usage("%s '%s' is not allowed: a number", flag, arg);
    memcpy(field, &v, sizeof v);
    break;
  }
  case ATL_APP_OPT_CLEAR:
    memset(field, 0, sizeof(int));
    break;
  }
}

int app_generic(const struct atl_app_info *app, int argc, char **argv)
{
  struct option extra[32];
  size_t n = 0, len = 0;
  char usage[4096];
  len += (size_t)snprintf(usage, sizeof usage, "usage: atomlab app %s [options]\n\n%s\n\n", app->name,
                          app->description);
  for (; app->options[n].name && n < sizeof extra / sizeof extra[0] - 1; n++) {
    extra[n] = (struct option){app->options[n].name,
                               app->options[n].kind == ATL_APP_OPT_CLEAR ? no_argument : required_argument, NULL,
                               APP_OPT_FIRST + (int)n};
    if (len < sizeof usage)
      len += (size_t)snprintf(usage + len, sizeof usage - len, "%s", app->options[n].help);
  }
  memset(&extra[n], 0, sizeof extra[n]);
  if (len < sizeof usage)
    snprintf(usage + len, sizeof usage - len, "\n");
  struct generic g = {app, calloc(1, app->params_size)};
  struct app_opts o;
  struct atl_result_set set;
  if (g.params == NULL)
    die("out of memory");
  app->defaults(NULL, g.params);
  if (app_parse(argc, argv, usage, extra, on_option, &g, &o)) {
    free(g.params);
    return EXIT_OK;
  }
  atl_context_t ctx = app_open(&o, &set, argc, argv);
  memcpy((char *)g.params + app->wg_offset, &o.wg_size, sizeof o.wg_size);
  app_prepare(app, ctx, g.params, NULL);
  app_run(&o, app, ctx, g.params, &set);
  free(g.params);
  return app_finish(&o, &set, ctx);
}
