/*
 * The CUB plugin, where the build made one, through the loader the apps use
 * (ATL_CUB_PLUGIN points at it).
 *
 *   test_cub_plugin PLUGIN             right ABI version, every entry point
 *                                      present; no GPU needed (label unit)
 *   test_cub_plugin --stale PLUGIN     a plugin of another ABI version is
 *                                      refused with a message that names both
 *                                      versions and how to rebuild
 *   test_cub_plugin --gpu PLUGIN       every histogram entry point on a CUDA
 *                                      device equals the host's histogram,
 *                                      bin for bin (label gpu)
 *
 * Exits 77 where the plugin was not built, or (--gpu) without a CUDA device.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apps/app_internal.h"
#include "check.h"

/* Bins of each u32 run: the two sizes. */
static const uint32_t u32_bins[] = {4096, 65536};

/* Inputs with many equal neighbours and a spread of values, as the histogram app meets them. */
static void make_keys(uint8_t *buf, size_t bytes)
{
  for (size_t i = 0; i < bytes; i += 8) {
    uint64_t r = atl__splitmix64(i / 8 + 1);
    if ((r & 7) == 0)
      r = 0x5a5a5a5a5a5a5a5aull; /* solid stretches put every lane of a warp on one bin */
    memcpy(buf + i, &r, 8);
  }
}

/* One entry point's histogram read back and compared with @p want. */
static void compare(atl_context_t ctx, void *hist, const uint32_t *want, uint32_t bins, const char *what)
{
  uint32_t *got = calloc(bins, sizeof *got);
  if (!CHECK(got != NULL) || !CHECK(atl__ops(ctx)->read(atl__dev(ctx), hist, got, bins * sizeof *got) == 0)) {
    free(got);
    return;
  }
  uint32_t wrong = 0, first = bins;
  for (uint32_t b = 0; b < bins; b++)
    if (got[b] != want[b] && wrong++ == 0)
      first = b;
  if (!CHECK(wrong == 0))
    printf("  %s: %u wrong bins, first %u holds %u, the host counted %u\n", what, wrong, first, got[first],
           want[first]);
  else
    printf("  %s: %u bins exact\n", what, bins);
  free(got);
}

static int run_gpu(const struct atl__cub *cub)
{
  const size_t bytes = 16u << 20; /* several CUB tiles per SM, still quick */
  atl_context_t ctx = NULL;
  void *in = NULL, *hist = NULL;
  uint8_t *host = malloc(bytes);
  uint32_t *want = malloc(65536 * sizeof *want);
  float times[2];
  char why[512] = "";
  int ordinal = -1;
  if (!CHECK(host && want) || atl_context_new(&ctx) != 0)
    goto out;
  if (atl_device_open(ctx, NULL, "cuda") != 0 || (ordinal = atl__app_cuda_ordinal(ctx)) < 0) {
    printf("no CUDA device: skipped (%s)\n", atl_errmsg(ctx));
    free(host);
    free(want);
    atl_context_free(ctx);
    return check_failures ? 1 : 77;
  }
  make_keys(host, bytes);
  if (!CHECK(atl__ops(ctx)->alloc(atl__dev(ctx), bytes, &in) == 0) ||
      !CHECK(atl__ops(ctx)->alloc(atl__dev(ctx), 65536 * sizeof(uint32_t), &hist) == 0) ||
      !CHECK(atl__ops(ctx)->write(atl__dev(ctx), in, host, bytes) == 0))
    goto out;
  const uint64_t din = (uint64_t)(uintptr_t)in, dhist = (uint64_t)(uintptr_t)hist;

  memset(want, 0, 256 * sizeof *want);
  for (size_t i = 0; i < bytes; i++)
    want[host[i]]++;
  if (CHECK(cub->histogram_u8(ordinal, din, bytes, dhist, 2, times, why, sizeof why) == 0))
    compare(ctx, hist, want, 256, "HistogramEven u8");
  else
    printf("  u8: %s\n", why);

  memset(want, 0, 1024 * sizeof *want);
  for (size_t i = 0; i < bytes; i++)
    want[(i % 4) * 256 + host[i]]++;
  if (CHECK(cub->histogram_rgba(ordinal, din, bytes / 4, dhist, 2, times, why, sizeof why) == 0))
    compare(ctx, hist, want, 1024, "MultiHistogramEven<4,4> rgba");
  else
    printf("  rgba: %s\n", why);

  for (size_t k = 0; k < sizeof u32_bins / sizeof *u32_bins; k++) {
    const uint32_t bins = u32_bins[k];
    char what[64];
    memset(want, 0, bins * sizeof *want);
    for (size_t i = 0; i < bytes; i += 4) {
      uint32_t key;
      memcpy(&key, host + i, 4);
      want[key % bins]++;
    }
    snprintf(what, sizeof what, "HistogramEven u32 key %% %u", bins);
    if (CHECK(cub->histogram_u32(ordinal, din, bytes / 4, bins, dhist, 2, times, why, sizeof why) == 0))
      compare(ctx, hist, want, bins, what);
    else
      printf("  %s: %s\n", what, why);
  }
out:
  if (in)
    atl__ops(ctx)->free(atl__dev(ctx), in);
  if (hist)
    atl__ops(ctx)->free(atl__dev(ctx), hist);
  atl_context_free(ctx);
  free(host);
  free(want);
  return check_exit("test_cub_plugin --gpu");
}

int main(int argc, char **argv)
{
  const char *mode = argc > 2 ? argv[1] : "";
  const char *plugin = argv[argc - 1];
  if (argc < 2 || access(plugin, R_OK) != 0) {
    printf("no CUB plugin built: skipped\n");
    return 77;
  }
  char why[512] = "";
  setenv("ATL_CUB_PLUGIN", plugin, 1);
  const struct atl__cub *cub = atl__cub_load(why, sizeof why);
  if (strcmp(mode, "--stale") == 0) {
    /* The fake plugin says ABI 1: the message must let a user see which side is stale. */
    if (CHECK(cub == NULL))
      printf("refused: %s\n", why);
    CHECK(strstr(why, "ABI version 1") != NULL);
    CHECK(strstr(why, "needs 3") != NULL);
    CHECK(strstr(why, "rebuild") != NULL);
    return check_exit("test_cub_plugin --stale");
  }
  if (!CHECK(cub != NULL)) {
    printf("  %s\n", why);
    return check_exit("test_cub_plugin");
  }
  printf("loaded %s: %s\n", plugin, cub->info);
  CHECK(cub->count_if && cub->sort_u32 && cub->histogram_u8);
  CHECK(cub->histogram_rgba && cub->histogram_u32 && cub->scatter_add_f32x64);
  if (strcmp(mode, "--gpu") == 0)
    return run_gpu(cub);
  return check_exit("test_cub_plugin");
}
