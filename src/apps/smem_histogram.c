/* The histogram case study of seed 002 (section 4): Listings 1 and 2 on solid and uniform RGBA images, verified. */
#include <stdlib.h>
#include <string.h>

#include "atomlab/model.h"
#include "core/context.h"

#define CHANNELS 4
#define N_BINS 256

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The image: one colour for "solid", else every channel from a 64-bit LCG (never all zeros). */
static void make_image(unsigned char *img, unsigned pixels, int solid)
{
  static const unsigned char colour[CHANNELS] = {0x25, 0xc9, 0x5a, 0xff};
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; i < (size_t)pixels * CHANNELS; i++) {
    if (solid) {
      img[i] = colour[i % CHANNELS];
    } else {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      img[i] = (unsigned char)(x >> 56);
    }
  }
}

int atl_smem_histogram_run(atl_context_t ctx, const struct atl_smem_histogram_spec *spec,
                           struct atl_smem_histogram_result *out)
{
  const struct atl_backend_ops *ops = atl__ops(ctx);
  void *dev = atl__dev(ctx), *in_buf = NULL, *out_buf = NULL, *sink_buf = NULL, *kernel = NULL;
  const struct atl_device_info *d = atl_device_current(ctx);
  unsigned char *img = NULL;
  uint32_t want[CHANNELS * N_BINS], got[CHANNELS * N_BINS];
  double *ms = NULL;
  int err = 0;
  memset(out, 0, sizeof *out);
  if (ops == NULL || d == NULL)
    return atl__seterr(ctx, ATL_ENODEV, "no device is open");
  if (strcmp(d->backend, "cuda") != 0)
    return atl__seterr(ctx, ATL_ENOTSUP, "the histogram case study is a CUDA kernel; %s is not CUDA", d->id);
  if (spec->pixels == 0 || spec->wg_size == 0 || spec->wg_size > d->max_wg_size || spec->workgroups == 0 ||
      spec->reps == 0)
    return atl__seterr(ctx, ATL_EINVAL, "histogram: pixels, wg_size (<= %zu), workgroups and reps must be positive",
                       d->max_wg_size);
  const size_t bytes = (size_t)spec->pixels * CHANNELS;
  img = malloc(bytes);
  ms = malloc(spec->reps * sizeof *ms);
  if (img == NULL || ms == NULL) {
    err = ATL_ENOMEM;
    goto out;
  }
  make_image(img, spec->pixels, spec->solid);
  memset(want, 0, sizeof want);
  for (size_t i = 0; i < bytes; i++)
    want[(i % CHANNELS) * N_BINS + img[i]]++;
  char defines[64];
  snprintf(defines, sizeof defines, "REORDER=%d RESULT_USED=%d", spec->reorder ? 1 : 0, spec->result_used ? 1 : 0);
  struct atl_build req = {.source = "smem_histogram", .entry = "smem_histogram", .defines = defines};
  if ((err = ops->build(dev, &req, &kernel)))
    goto out;
  if (ops->describe_kernel)
    ops->describe_kernel(dev, kernel, out->instructions, sizeof out->instructions);
  if ((err = ops->alloc(dev, bytes, &in_buf)) || (err = ops->alloc(dev, sizeof got, &out_buf)) ||
      (err = ops->alloc(dev, sizeof(uint32_t), &sink_buf)) || (err = ops->write(dev, in_buf, img, bytes)))
    goto out;
  struct atl_arg args[4] = {{ATL_ARG_BUFFER, in_buf, 0},
                            {ATL_ARG_BUFFER, out_buf, 0},
                            {ATL_ARG_U32, NULL, spec->pixels},
                            {ATL_ARG_BUFFER, sink_buf, 0}};
  struct atl_launch launch = {.global = (size_t)spec->workgroups * spec->wg_size, .local = spec->wg_size, .args = args,
                              .nargs = 4};
  const uint32_t zero = 0;
  out->verified = 1;
  for (unsigned r = 0; r <= spec->reps; r++) { /* launch 0 warms up (and is verified too) */
    double t = 0;
    if ((err = ops->fill(dev, out_buf, &zero, sizeof zero, sizeof got)) ||
        (err = ops->launch(dev, kernel, &launch, &t)) || (err = ops->read(dev, out_buf, got, sizeof got)))
      goto out;
    unsigned wrong = 0;
    for (size_t b = 0; b < CHANNELS * N_BINS; b++)
      wrong += got[b] != want[b];
    if (wrong) {
      out->verified = 0;
      out->wrong_bins = wrong > out->wrong_bins ? wrong : out->wrong_bins;
    }
    if (r > 0)
      ms[r - 1] = t;
  }
  qsort(ms, spec->reps, sizeof *ms, cmp_double);
  out->min_ms = ms[0];
  out->max_ms = ms[spec->reps - 1];
  out->median_ms = spec->reps % 2 ? ms[spec->reps / 2] : (ms[spec->reps / 2 - 1] + ms[spec->reps / 2]) / 2;
  if (!out->verified)
    err = atl__seterr(ctx, ATL_EVERIFY, "histogram: %u bins differ from the host's", out->wrong_bins);
out:
  if (in_buf)
    ops->free(dev, in_buf);
  if (out_buf)
    ops->free(dev, out_buf);
  if (sink_buf)
    ops->free(dev, sink_buf);
  free(img);
  free(ms);
  return err;
}
