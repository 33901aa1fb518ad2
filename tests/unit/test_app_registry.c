/*
 * Every registered app (include/atomlab/app.h) describes its parameters as
 * data that the command line, its help and library users rely on: a
 * summary, a help paragraph, options whose fields fit the params, defaults
 * that its own check accepts, and refusals that start with a parameter's
 * name. Each option kind reads good text and refuses bad text with one line
 * naming the option. Runs on a made-up CPU and a made-up GPU (no device
 * needed) and on the real best device when one opens, where a whole
 * configuration is also prepared (flags after values, the timing's check).
 */
#include <stdlib.h>
#include <string.h>

#include "apps/app_internal.h"
#include "check.h"

/* Whether @p why starts with the name of one of @p app's options, followed by a space, ':' or '\''. */
static int names_param(const struct atl_app_info *app, const char *why)
{
  for (const struct atl_app_option *o = app->options; o->name; o++) {
    size_t len = strlen(o->name);
    if (strncmp(why, o->name, len) == 0 && (why[len] == ' ' || why[len] == ':'))
      return 1;
  }
  return 0;
}

/* The bytes of an option's field (and of its count where it has one) fit the params. */
static void test_options(const struct atl_app_info *a)
{
  int has_wg = 0;
  for (const struct atl_app_option *o = a->options; o->name; o++) {
    const size_t size = o->kind == ATL_APP_OPT_U64 || o->kind == ATL_APP_OPT_DOUBLE || o->kind == ATL_APP_OPT_LIST ||
                                o->kind == ATL_APP_OPT_TEXT || o->kind == ATL_APP_OPT_TEXTS
                            ? 8
                        : o->kind == ATL_APP_OPT_CHOICES ? o->nnames * sizeof(int)
                                                         : 4;
    const int named = o->kind == ATL_APP_OPT_CHOICE || o->kind == ATL_APP_OPT_SET || o->kind == ATL_APP_OPT_CHOICES;
    const int counted = o->kind == ATL_APP_OPT_CHOICES || o->kind == ATL_APP_OPT_LIST || o->kind == ATL_APP_OPT_TEXTS;
    const int flag = o->kind == ATL_APP_OPT_FLAG || o->kind == ATL_APP_OPT_UNFLAG;
    CHECK(o->help && strlen(o->help) > 5 && o->offset + size <= a->params_size);
    CHECK(!named || (o->names && o->nnames > o->min && o->nnames <= 32));
    CHECK(!counted || o->count_offset + sizeof(unsigned) <= a->params_size);
    CHECK(flag ? o->bits != 0 && o->arg == NULL : o->arg != NULL);
    CHECK(!(o->def && o->def_help)); /* one default in the help */
    has_wg |= strcmp(o->name, "wg-size") == 0 && o->kind == ATL_APP_OPT_U32;
  }
  CHECK(has_wg);
}

static void test_app(const struct atl_app_info *app, const struct atl_device_info *dev)
{
  char why[384] = "";
  atl_app_config_t cfg = NULL;
  void *p = calloc(1, app->params_size);
  CHECK(p != NULL && atl_app_config_new(app, &cfg) == 0);
  if (p == NULL || cfg == NULL)
    return;
  /* Zeroed params have no work-group size: every app refuses them and names the parameter. */
  CHECK(atl_app_check(app, dev, p, why, sizeof why) == ATL_EINVAL);
  CHECK(names_param(app, why));
  if (!names_param(app, why))
    printf("  %s: zeroed params refused with '%s'\n", app->name, why);
  /* The table's defaults, then the device-sized ones, are accepted on the device they were made for. */
  app->defaults(dev, atl_app_config_params(cfg));
  why[0] = '\0';
  int rc = atl_app_check(app, dev, atl_app_config_params(cfg), why, sizeof why);
  CHECK(rc == 0);
  if (rc != 0)
    printf("  %s on %s: defaults refused with '%s'\n", app->name, dev->name, why);
  atl_app_config_free(cfg);
  free(p);
}

/* Sets @p name of a fresh configuration of @p app to @p text: the result, the reason in @p why. */
static int set(atl_app_config_t cfg, const char *name, const char *text, char *why, size_t len)
{
  why[0] = '\0';
  return atl_app_config_set(cfg, name, text, why, len);
}

/* Each kind of option: good text into the field, bad text refused naming the option. */
static void test_kinds(void)
{
  char why[384];
  atl_app_config_t c = NULL, h = NULL, a = NULL, s = NULL, w = NULL;
  CHECK(atl_app_config_new(atl_app_find("count"), &c) == 0 && atl_app_config_new(atl_app_find("histogram"), &h) == 0 &&
        atl_app_config_new(atl_app_find("access-table"), &a) == 0 &&
        atl_app_config_new(atl_app_find("swapps"), &s) == 0 && atl_app_config_new(atl_app_find("swatomic"), &w) == 0);
  if (!c || !h || !a || !s || !w)
    return;
  const struct atl_count_params *cp = atl_app_config_params(c);
  CHECK(cp->items == 32 && cp->seed == 1 && cp->want_cub == 1 && cp->containers == 0); /* the table's defaults */
  CHECK(set(c, "items", "7", why, sizeof why) == 0 && cp->items == 7);
  CHECK(set(c, "items", "abc", why, sizeof why) == ATL_EINVAL && strncmp(why, "items 'abc' is not allowed", 26) == 0);
  CHECK(set(c, "items", "5000", why, sizeof why) == ATL_EINVAL && strstr(why, "1 to 4096"));
  CHECK(set(c, "items", "-1", why, sizeof why) == ATL_EINVAL && cp->items == 7);
  CHECK(set(c, "containers", "5000000000", why, sizeof why) == ATL_EINVAL);
  CHECK(set(c, "limit", "7.5", why, sizeof why) == 0 && cp->limit == 7.5f);
  CHECK(set(c, "limit", "x1", why, sizeof why) == ATL_EINVAL && strncmp(why, "limit", 5) == 0);
  CHECK(set(c, "seed", "18446744073709551615", why, sizeof why) == 0 && cp->seed == UINT64_MAX);
  CHECK(set(c, "no-cub", NULL, why, sizeof why) == 0 && cp->want_cub == 1); /* flags apply in prepare */
  CHECK(set(c, "no-cub", "1", why, sizeof why) == ATL_EINVAL);
  CHECK(set(c, "items", NULL, why, sizeof why) == ATL_EINVAL);
  CHECK(set(c, "bogus", "1", why, sizeof why) == ATL_EINVAL && strstr(why, "not an option of count"));
  CHECK(set(c, "samples", "3", why, sizeof why) == 0 && atl_app_config_timing(c)->samples == 3);
  CHECK(set(c, "samples", "0", why, sizeof why) == ATL_EINVAL && set(c, "samples", "257", why, sizeof why));
  CHECK(set(c, "noise", "0.5", why, sizeof why) == 0 && atl_app_config_timing(c)->noise == 0.5);

  const struct atl_histogram_params *hp = atl_app_config_params(h);
  CHECK(hp->inputs == 1u << ATL_HIST_U8 && hp->dists == 15 && hp->u32_bins == 0); /* 4096 on a device */
  CHECK(hp->variants == (((1u << ATL_HIST_VARIANT_COUNT) - 1) & ~1u)); /* all but the read ceiling */
  CHECK(set(h, "dist", "skewed,solid,skewed", why, sizeof why) == 0 && hp->dists == 5);
  CHECK(set(h, "dist", "gaussian", why, sizeof why) == ATL_EINVAL && strstr(why, "dist 'gaussian' is not known"));
  CHECK(set(h, "input", ",", why, sizeof why) == ATL_EINVAL && set(h, "input", "", why, sizeof why) == ATL_EINVAL);
  CHECK(set(h, "variants", "read-ceiling", why, sizeof why) == ATL_EINVAL);
  CHECK(set(h, "variants", "shared,cub", why, sizeof why) == 0 && hp->variants == (1u << 2 | 1u << ATL_HIST_CUB));
  CHECK(set(h, "photo", "/x.jpg", why, sizeof why) == 0 && strcmp(hp->photo, "/x.jpg") == 0);
  CHECK(strcmp(atl__app_config_given(h, "photo"), "/x.jpg") == 0 && atl__app_config_given(h, "bins") == NULL);

  const struct atl_access_params *ap = atl_app_config_params(a);
  CHECK(ap->nops == ATL_OP_PLAIN_ADD && ap->ops[0] == ATL_OP_FETCH_ADD && ap->target_ms == 5);
  CHECK(set(a, "op", "cas,fetch_add,cas", why, sizeof why) == 0 && ap->nops == 2 && ap->ops[0] == ATL_OP_CAS &&
        ap->ops[1] == ATL_OP_FETCH_ADD);
  CHECK(set(a, "op", "plain_add", why, sizeof why) == ATL_EINVAL && set(a, "op", "fetch_mul", why, sizeof why));
  CHECK(set(a, "type", "u64", why, sizeof why) == 0 && ap->type == ATL_TYPE_U64);
  CHECK(set(a, "type", "f32", why, sizeof why) == ATL_EINVAL && strstr(why, "one of u32, i32, u64"));
  CHECK(set(a, "target-ms", "0", why, sizeof why) == ATL_EINVAL && strstr(why, "from 0.001 to 60000"));

  const struct atl_swapps_params *sp = atl_app_config_params(s);
  CHECK(sp->nkeywords == 4 && strcmp(sp->keywords[3], "the") == 0 && sp->text_path && sp->apps == 7);
  CHECK(set(s, "matmul", "8,20", why, sizeof why) == 0 && sp->nmatmul == 2 && sp->matmul_n[1] == 20);
  CHECK(set(s, "kmeans", "512,x", why, sizeof why) == ATL_EINVAL && strstr(why, "kmeans 'x' is not allowed"));
  CHECK(set(s, "keywords", "a,,bc", why, sizeof why) == 0 && sp->nkeywords == 2 && strcmp(sp->keywords[1], "bc") == 0);
  CHECK(set(s, "workgroups", "1", why, sizeof why) == ATL_EINVAL && strncmp(why, "workgroups '1'", 14) == 0);

  const struct atl_swatomic_params *wp = atl_app_config_params(w);
  CHECK(set(w, "groups", "8:32:x2,max,4:max:x2,3", why, sizeof why) == 0 && wp->ngroups == 6);
  if (wp->ngroups == 6)
    CHECK(wp->groups[0] == 8 && wp->groups[2] == 32 && wp->groups[3] == ATL_SW_GROUPS_MAX &&
          wp->groups[4] == ATL_SW_GROUPS_LADDER(4) && wp->groups[5] == 3);
  CHECK(set(w, "workgroups", "8:32:+2", why, sizeof why) == ATL_EINVAL && strstr(why, "LO:HI:x2"));
  CHECK(set(w, "op", "ADD", why, sizeof why) == ATL_EINVAL &&
        strcmp(why, "op 'ADD' is not allowed: one of add, sub, inc, min, max, and, or, xor") == 0);
  CHECK(set(w, "op", "xor", why, sizeof why) == 0 && wp->op == ATL_SWOP_XOR);
  atl_app_config_free(c);
  atl_app_config_free(h);
  atl_app_config_free(a);
  atl_app_config_free(s);
  atl_app_config_free(w);
}

/* The timing options' defaults are rmw's sampling (docs/design/method.md), and a fixed count is min = max. */
static void test_timing(void)
{
  struct atl_app_timing tm;
  struct atl_timing rmw, t;
  atl_app_timing_defaults(&tm);
  atl_timing_defaults(&rmw);
  CHECK(tm.samples == 0 && tm.spin_bound == 1u << 22);
  CHECK(tm.min_samples == rmw.min_samples && tm.max_samples == rmw.max_samples && tm.noise == rmw.noise &&
        tm.budget_s == rmw.budget_s);
  atl__app_sampling(&tm, &t);
  CHECK(t.min_samples == 5 && t.max_samples == 50 && t.noise == rmw.noise && t.budget_s == rmw.budget_s);
  tm.samples = 3;
  atl__app_sampling(&tm, &t);
  CHECK(t.min_samples == 3 && t.max_samples == 3);
  struct atl_app_timing old = {.samples = 2, .spin_bound = 1u << 22}; /* as examples/host.c fills it */
  atl__app_sampling(&old, &t);
  CHECK(t.min_samples == 2 && t.max_samples == 2);
}

/* A whole configuration on the real device: flags after values, the timing's check, a note or nothing. */
static void test_prepare(atl_context_t ctx)
{
  char why[384];
  atl_app_config_t h = NULL, c = NULL;
  CHECK(atl_app_config_new(atl_app_find("histogram"), &h) == 0 && atl_app_config_new(atl_app_find("count"), &c) == 0);
  if (!h || !c)
    return;
  const struct atl_histogram_params *hp = atl_app_config_params(h);
  CHECK(set(h, "no-cub", NULL, why, sizeof why) == 0 && set(h, "variants", "global,cub", why, sizeof why) == 0);
  CHECK(set(h, "dist", "solid", why, sizeof why) == 0 && set(h, "bytes", "4096", why, sizeof why) == 0);
  CHECK(atl_app_config_prepare(h, ctx, why, sizeof why) == 0 && hp->variants == 1u << 1 && hp->wg_size > 0);
  CHECK(set(h, "bins", "1024", why, sizeof why) == 0);
  CHECK(atl_app_config_prepare(h, ctx, why, sizeof why) == ATL_EINVAL && strncmp(why, "bins applies", 12) == 0);
  CHECK(set(c, "min-samples", "9", why, sizeof why) == 0 && set(c, "max-samples", "4", why, sizeof why) == 0);
  CHECK(atl_app_config_prepare(c, ctx, why, sizeof why) == ATL_EINVAL &&
        strcmp(why, "max-samples 4 is below min-samples 9") == 0);
  CHECK(set(c, "samples", "4", why, sizeof why) == 0 && atl_app_config_prepare(c, ctx, why, sizeof why) == 0);
  atl_app_config_free(h);
  atl_app_config_free(c);
}

int main(void)
{
  size_t n = 0;
  const struct atl_app_info *const *apps = atl_apps(&n);
  CHECK(n >= 8);
  for (size_t i = 0; i < n; i++) {
    const struct atl_app_info *a = apps[i];
    CHECK(a->name && a->name[0] && a->summary && strlen(a->summary) > 10 && a->description);
    CHECK(a->options && a->options[0].name && a->params_size > 0);
    CHECK(a->defaults && a->check && a->run);
    CHECK(atl_app_find(a->name) == a);
    for (size_t j = 0; j < i; j++)
      CHECK(strcmp(apps[j]->name, a->name) != 0);
    test_options(a);
  }
  CHECK(atl_app_find("sort") == NULL && atl_app_find(NULL) == NULL);
  test_kinds();
  test_timing();

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
  if (atl_context_new(&ctx) == 0 && atl_device_open(ctx, NULL, NULL) == 0) {
    for (size_t i = 0; i < n; i++)
      test_app(apps[i], atl_device_current(ctx));
    test_prepare(ctx);
  } else {
    printf("  no device: the real device's defaults are not checked\n");
  }
  atl_context_free(ctx);
  return check_exit("test_app_registry");
}
