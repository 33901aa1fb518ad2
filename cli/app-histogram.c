/* atomlab app histogram: issue [histogram] (src/apps/histogram.c, docs/histogram.md). */
#include <stdlib.h>
#include <string.h>

#include "app.h"

static const char usage[] =
    "usage: atomlab app histogram [options]\n\n"
    "Histograms of 8-bit keys (256 bins), RGBA pixels (4 channels x 256 bins) and\n"
    "32-bit keys (bin = key % bins), one row per input x distribution x variant\n"
    "(variant column INPUT/DIST/VARIANT). Every histogram is compared bin for bin\n"
    "with the host's. Reports GB/s of input, the ratio to a read-only kernel over\n"
    "the same bytes in the same run (read-ceiling) and, on CUDA with the plugin,\n"
    "the ratio to CUB's DeviceHistogram (HistogramEven for u8 and u32,\n"
    "MultiHistogramEven<4,4> for rgba).\n\n"
    "  --input LIST    u8, rgba, u32 or all (comma-separated)  [u8]\n"
    "  --bins N        bins of the u32 input: a power of two, 256 to 65536  [4096]\n"
    "  --dist LIST     solid, uniform, skewed, photo or all (skewed: ~90% of keys in 4\n"
    "                  hot values; photo: a JPEG photograph, repeated; all has photo\n"
    "                  where it can run)  [all]\n"
    "  --photo FILE    the photo distribution's JPEG (Debian package " ATL_HIST_PHOTO_PACKAGE ")\n"
    "                  [" ATL_HIST_PHOTO_DEFAULT "]\n"
    "  --variants LIST global, shared, warp-private, match-any, packed, per-lane,\n"
    "                  byte-lanes (u8 only), block16, auto, cub or all  [all]\n"
    "                  (the read ceiling always runs: the ratios need it)\n"
    "  --bytes N       input bytes, a multiple of 16 below 4 GiB  [GPU: 1 GiB; CPU: 1 MiB]\n"
    "  --seed N        input generator seed  [1]\n"
    "  --no-cub        skip the CUB baseline\n\n";

enum { O_INPUT = APP_OPT_FIRST, O_BINS, O_DIST, O_VARIANTS, O_BYTES, O_SEED, O_NOCUB, O_PHOTO };

struct hist_cli {
  struct atl_histogram_params p;
  int bins_given;
  int photo_named; /* --dist names photo itself (not only through "all"): it must run or the command fails */
};

/* Whether the comma-separated list @p arg holds @p name itself. */
static int names(const char *arg, const char *name)
{
  size_t len = strlen(name);
  for (const char *p = arg; (p = strstr(p, name)) != NULL; p += len)
    if ((p == arg || p[-1] == ',') && (p[len] == ',' || p[len] == '\0'))
      return 1;
  return 0;
}

/* A comma-separated list of names (or "all") to a bit mask; exit 2 on an unknown name. */
static unsigned parse_set(const char *opt, const char *arg, const char *const *names, int count, int first,
                          const char *allowed)
{
  char buf[256];
  unsigned mask = 0;
  if (strlen(arg) >= sizeof buf || *arg == '\0')
    die_usage("%s '%s' is not allowed: %s", opt, arg, allowed);
  snprintf(buf, sizeof buf, "%s", arg);
  for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    int found = 0;
    if (strcmp(tok, "all") == 0) {
      for (int i = first; i < count; i++)
        mask |= 1u << i;
      continue;
    }
    for (int i = first; i < count && !found; i++)
      if (strcmp(tok, names[i]) == 0) {
        mask |= 1u << i;
        found = 1;
      }
    if (!found)
      die_usage("%s '%s' is not known: allowed: %s", opt, tok, allowed);
  }
  if (mask == 0)
    die_usage("%s '%s' is not allowed: %s", opt, arg, allowed);
  return mask;
}

static void on_option(int code, const char *arg, void *user)
{
  struct hist_cli *c = user;
  switch (code) {
  case O_INPUT:
    c->p.inputs = parse_set("--input", arg, atl_hist_input_names, ATL_HIST_INPUT_COUNT, 0, "u8, rgba, u32, all");
    break;
  case O_BINS:
    c->p.u32_bins = (uint32_t)app_number("--bins", arg, 1, UINT32_MAX);
    c->bins_given = 1;
    break;
  case O_DIST:
    c->p.dists =
        parse_set("--dist", arg, atl_hist_dist_names, ATL_HIST_DIST_COUNT, 0, "solid, uniform, skewed, photo, all");
    c->photo_named = names(arg, "photo");
    break;
  case O_VARIANTS:
    c->p.variants = parse_set("--variants", arg, atl_hist_variant_names, ATL_HIST_VARIANT_COUNT, ATL_HIST_GLOBAL,
                              "global, shared, warp-private, match-any, packed, per-lane, byte-lanes, block16, "
                              "auto, cub, all");
    break;
  case O_BYTES:
    c->p.bytes = app_number("--bytes", arg, 1, UINT64_MAX);
    break;
  case O_SEED:
    c->p.seed = app_number("--seed", arg, 0, UINT64_MAX);
    break;
  case O_NOCUB:
    c->p.variants &= ~(1u << ATL_HIST_CUB);
    break;
  case O_PHOTO:
    c->p.photo = arg;
    break;
  }
}

int app_histogram(int argc, char **argv)
{
  static const struct option extra[] = {{"input", required_argument, NULL, O_INPUT},
                                        {"bins", required_argument, NULL, O_BINS},
                                        {"dist", required_argument, NULL, O_DIST},
                                        {"variants", required_argument, NULL, O_VARIANTS},
                                        {"bytes", required_argument, NULL, O_BYTES},
                                        {"seed", required_argument, NULL, O_SEED},
                                        {"no-cub", no_argument, NULL, O_NOCUB},
                                        {"photo", required_argument, NULL, O_PHOTO},
                                        {0}};
  const struct atl_app_info *app = atl_app_find("histogram");
  static const char *const flags[] = {"u32_bins", "--bins", "inputs", "--input", "dists", "--dist", NULL};
  struct hist_cli c;
  memset(&c, 0, sizeof c);
  app->defaults(NULL, &c.p);
  int nocub = 0;
  struct app_opts o;
  struct atl_result_set set;
  for (int i = 1; i < argc; i++) /* --no-cub wins over a --variants given after it */
    nocub |= strcmp(argv[i], "--no-cub") == 0;
  if (app_parse(argc, argv, usage, extra, on_option, &c, &o))
    return EXIT_OK;
  if (nocub)
    c.p.variants &= ~(1u << ATL_HIST_CUB);
  if (c.bins_given && !(c.p.inputs & (1u << ATL_HIST_U32)))
    die_usage("--bins applies to --input u32 only (u8 has 256 bins, rgba 4 x 256)");
  if (c.p.photo && !(c.p.dists & (1u << ATL_HIST_PHOTO)))
    die_usage("--photo applies to --dist photo (or all) only");
  if (c.p.dists & (1u << ATL_HIST_PHOTO)) {
    char why[512];
    if (atl_hist_photo_available(c.p.photo, why, sizeof why) != 0) {
      if (c.photo_named || c.p.photo)
        die_usage("%s", why);
      /* "all" means every distribution that can run here; say which one is left out. */
      fprintf(stderr, "note: --dist all without photo: %s\n", why);
      c.p.dists &= ~(1u << ATL_HIST_PHOTO);
    }
  }
  atl_context_t ctx = app_open(&o, &set, argc, argv);
  c.p.wg_size = o.wg_size;
  app_prepare(app, ctx, &c.p, flags);
  app_run(&o, app, ctx, &c.p, &set);
  return app_finish(&o, &set, ctx);
}
