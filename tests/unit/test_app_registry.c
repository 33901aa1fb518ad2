/*
 * Every registered app (include/atomlab/app.h) has what the command line,
 * its help and library users rely on: a summary, its parameter names, its
 * options (where the generic command line parses them), and
 * defaults that its own check accepts, while a check refuses bad params with
 * a reason that starts with a parameter's name. Runs on a made-up CPU and a
 * made-up GPU (no device needed) and on the real best device when one opens.
 */
#include <stdlib.h>
#include <string.h>

#include "atomlab/app.h"
#include "atomlab/error.h"
#include "check.h"

/* Whether @p why starts with one of @p app's parameter names, followed by a space or ':'. */
static int names_param(const struct atl_app_info *app, const char *why)
{
  for (size_t i = 0; app->params[i]; i++) {
    size_t len = strlen(app->params[i]);
    if (strncmp(why, app->params[i], len) == 0 && (why[len] == ' ' || why[len] == ':'))
      return 1;
  }
  return 0;
}

static void test_app(const struct atl_app_info *app, const struct atl_device_info *dev)
{
  char why[384] = "";
  void *p = calloc(1, app->params_size);
  CHECK(p != NULL);
  if (p == NULL)
    return;
  /* Zeroed params have no work-group size: every app refuses them and names the parameter. */
  CHECK(app->check(dev, p, why, sizeof why) == ATL_EINVAL);
  CHECK(names_param(app, why));
  if (!names_param(app, why))
    printf("  %s: zeroed params refused with '%s'\n", app->name, why);
  /* The defaults, fixed then device-sized, are accepted on the device they were made for. */
  app->defaults(NULL, p);
  app->defaults(dev, p);
  why[0] = '\0';
  int rc = app->check(dev, p, why, sizeof why);
  /* swapps's string match reads a text only the caller has (the CLI reads a dictionary): its one refusal. */
  if (rc != 0 && strcmp(app->name, "swapps") == 0 && strncmp(why, "text ", 5) == 0)
    rc = 0;
  CHECK(rc == 0);
  if (rc != 0)
    printf("  %s on %s: defaults refused with '%s'\n", app->name, dev->name, why);
  free(p);
}

int main(void)
{
  size_t n = 0;
  const struct atl_app_info *const *apps = atl_apps(&n);
  CHECK(n >= 8);
  for (size_t i = 0; i < n; i++) {
    const struct atl_app_info *a = apps[i];
    CHECK(a->name && a->name[0] && a->summary && strlen(a->summary) > 10);
    CHECK(a->params && a->params[0] && a->params_size > 0);
    CHECK(a->defaults && a->check && a->run);
    CHECK(atl_app_find(a->name) == a);
    for (size_t j = 0; j < i; j++)
      CHECK(strcmp(apps[j]->name, a->name) != 0);
    int has_wg = 0; /* the common option --wg-size maps to every app's wg_size */
    for (size_t k = 0; a->params[k]; k++)
      has_wg |= strcmp(a->params[k], "wg_size") == 0;
    CHECK(has_wg);
    CHECK(a->wg_offset + sizeof(uint32_t) <= a->params_size);
    /* An option table (the generic command line) comes with its help paragraph, and each option fits its field. */
    CHECK(!a->options || a->description);
    for (size_t k = 0; a->options && a->options[k].name; k++) {
      const struct atl_app_option *o = &a->options[k];
      const size_t size = o->kind == ATL_APP_OPT_U64 ? 8 : 4;
      CHECK(o->help && strstr(o->help, o->name) && o->offset + size <= a->params_size);
    }
  }
  CHECK(atl_app_find("sort") == NULL && atl_app_find(NULL) == NULL);

  struct atl_device_info cpu, gpu;
  memset(&cpu, 0, sizeof cpu);
  snprintf(cpu.name, sizeof cpu.name, "made-up CPU");
  cpu.type = ATL_DEVICE_CPU;
  cpu.max_wg_size = 4096;
  cpu.max_alloc = 1ull << 30;
  gpu = cpu;
  snprintf(gpu.name, sizeof gpu.name, "made-up GPU");
  gpu.type = ATL_DEVICE_GPU;
  gpu.max_wg_size = 1024;
  gpu.max_alloc = 16ull << 30;
  for (size_t i = 0; i < n; i++) {
    test_app(apps[i], &cpu);
    test_app(apps[i], &gpu);
  }
  atl_context_t ctx = NULL;
  if (atl_context_new(&ctx) == 0 && atl_device_open(ctx, NULL, NULL) == 0)
    for (size_t i = 0; i < n; i++)
      test_app(apps[i], atl_device_current(ctx));
  else
    printf("  no device: the real device's defaults are not checked\n");
  atl_context_free(ctx);
  return check_exit("test_app_registry");
}
