/* The histogram case study of seed 002 (section 4): Listings 1 and 2 on solid and uniform RGBA images, verified. */
#include <stdlib.h>
#include <string.h>

#include "atomlab/model.h"
#include "core/context.h"

#define CHANNELS 4
#define N_BINS 256

/* 0 where the open device runs CUDA C kernels; else the context's error: no device, or @p what needs CUDA. */
static int need_cuda(atl_context_t ctx, const char *what)
{
  const struct atl_device_info *d = atl_device_current(ctx);
  if (atl__ops(ctx) == NULL || d == NULL)
    return atl__seterr(ctx, ATL_ENODEV, "no device is open");
  if (!d->kernels_cuda_c)
    return atl__seterr(ctx, ATL_ENOTSUP, "%s; %s is not CUDA", what, d->id);
  return 0;
}

/* Launch @p r of a warm-up + reps run (every one verified): @p wrong values clear *@p verified and the worst
 * launch's count stays in *@p worst; past the warm-up its time @p t is kept in @p ms. */
static void record_launch(unsigned r, unsigned warmup, double t, unsigned wrong, int *verified, unsigned *worst,
                          double *ms)
{
  if (wrong) {
    *verified = 0;
    *worst = wrong > *worst ? wrong : *worst;
  }
  if (r >= warmup)
    ms[r - warmup] = t;
}

/* The median, fastest and slowest of the @p n timed launches in @p ms. */
static void summarize_times(const double *ms, unsigned n, struct atl_smem_run_result *out)
{
  struct atl_stats st;
  atl_stats_compute(ms, n, &st);
  out->median_ms = st.median;
  out->min_ms = st.min;
  out->max_ms = st.max;
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
                           struct atl_smem_run_result *out)
{
  const struct atl_backend_ops *ops = atl__ops(ctx);
  void *dev = atl__dev(ctx), *in_buf = NULL, *out_buf = NULL, *sink_buf = NULL, *kernel = NULL;
  const struct atl_device_info *d = atl_device_current(ctx);
  unsigned char *img = NULL;
  uint32_t want[CHANNELS * N_BINS], got[CHANNELS * N_BINS];
  double *ms = NULL;
  int err = 0;
  memset(out, 0, sizeof *out);
  if ((err = need_cuda(ctx, "the histogram case study is a CUDA kernel")))
    return err;
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
  for (unsigned r = 0; r < spec->warmup + spec->reps; r++) { /* warm-up launches are verified too */
    double t = 0;
    if ((err = ops->fill(dev, out_buf, &zero, sizeof zero, sizeof got)) ||
        (err = ops->launch(dev, kernel, &launch, &t)) || (err = ops->read(dev, out_buf, got, sizeof got)))
      goto out;
    unsigned wrong = 0;
    for (size_t b = 0; b < CHANNELS * N_BINS; b++)
      wrong += got[b] != want[b];
    record_launch(r, spec->warmup, t, wrong, &out->verified, &out->wrong, ms);
  }
  summarize_times(ms, spec->reps, out);
  if (!out->verified)
    err = atl__seterr(ctx, ATL_EVERIFY, "histogram: %u bins differ from the host's", out->wrong);
out:
  atl__device_free_all(ctx, (void *[]){in_buf, out_buf, sink_buf}, 3);
  free(img);
  free(ms);
  return err;
}

/* The validation kernels' names, by enum atl_smem_validation. */
static const char *const validation_entries[] = {"smem_validate_atomics", "smem_validate_stream"};

const char *atl_smem_validation_kernel(enum atl_smem_validation which)
{
  return (unsigned)which < ATL_SMEM_VALIDATIONS ? validation_entries[which] : "?";
}

/* The stream kernel's input: 32-bit words from a 64-bit LCG (never all zeros), and their sum. */
static uint64_t fill_stream(uint32_t *words, size_t count)
{
  uint64_t x = 0x2545f4914f6cdd1dull, sum = 0;
  for (size_t i = 0; i < count; i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    words[i] = (uint32_t)(x >> 32);
    sum += words[i];
  }
  return sum;
}

int atl_smem_validation_run(atl_context_t ctx, const struct atl_smem_validation_spec *spec,
                            struct atl_smem_run_result *out)
{
  const struct atl_backend_ops *ops = atl__ops(ctx);
  void *dev = atl__dev(ctx), *a_buf = NULL, *b_buf = NULL, *c_buf = NULL, *kernel = NULL;
  const struct atl_device_info *d = atl_device_current(ctx);
  uint32_t *host = NULL;
  double *ms = NULL;
  int err = 0;
  memset(out, 0, sizeof *out);
  if ((err = need_cuda(ctx, "the validation kernels are CUDA kernels")))
    return err;
  if ((unsigned)spec->which >= ATL_SMEM_VALIDATIONS || spec->wg_size == 0 || spec->wg_size % 32 ||
      spec->wg_size > 1024 || spec->wg_size > d->max_wg_size || spec->workgroups == 0 || spec->reps == 0 ||
      spec->iters == 0 || (spec->which == ATL_SMEM_VALIDATE_STREAM && spec->bytes < 16))
    return atl__seterr(ctx, ATL_EINVAL,
                       "validation: wg_size (a multiple of 32 up to 1024), workgroups, reps, iters and bytes must "
                       "be positive");
  ms = malloc(spec->reps * sizeof *ms);
  if (ms == NULL) {
    err = ATL_ENOMEM;
    goto out;
  }
  struct atl_build req = {.source = "smem_validate", .entry = validation_entries[spec->which],
                          .defines = spec->which == ATL_SMEM_VALIDATE_ATOMICS ? "VALIDATE=0" : "VALIDATE=1"};
  if ((err = ops->build(dev, &req, &kernel)))
    goto out;
  if (ops->describe_kernel)
    ops->describe_kernel(dev, kernel, out->instructions, sizeof out->instructions);
  const size_t warps = (size_t)spec->workgroups * (spec->wg_size / 32);
  const uint64_t zero64 = 0;
  const uint32_t zero32 = 0;
  uint64_t want_sum = 0, want_atomics = 0, warp_insts = 0;
  struct atl_arg args[5];
  unsigned nargs = 0;
  if (spec->which == ATL_SMEM_VALIDATE_ATOMICS) {
    /* every warp's word ends at 32 x iters; its lanes got 0 .. 32 x iters - 1 back, each once */
    want_atomics = (uint64_t)32 * spec->iters;
    want_sum = (uint64_t)warps * (want_atomics * (want_atomics - 1) / 2);
    host = malloc(warps * sizeof *host);
    if (host == NULL) {
      err = ATL_ENOMEM;
      goto out;
    }
    if ((err = ops->alloc(dev, warps * sizeof(uint32_t), &a_buf)) || (err = ops->alloc(dev, sizeof zero64, &b_buf)))
      goto out;
    args[nargs++] = (struct atl_arg){ATL_ARG_U32, NULL, spec->iters};
    args[nargs++] = (struct atl_arg){ATL_ARG_BUFFER, a_buf, 0};
    args[nargs++] = (struct atl_arg){ATL_ARG_BUFFER, b_buf, 0};
  } else {
    const size_t vectors = spec->bytes / 16, words = vectors * 4;
    host = malloc(words * sizeof *host);
    if (host == NULL) {
      err = ATL_ENOMEM;
      goto out;
    }
    want_sum = fill_stream(host, words);
    /* thread g reads m_g = ceil((vectors - g) / nt) vectors and does one atomic per iters of them, from its first */
    const uint64_t nt = (uint64_t)spec->workgroups * spec->wg_size;
    for (uint64_t g = 0; g < nt && g < vectors; g++) {
      const uint64_t m = (vectors - g + nt - 1) / nt;
      want_atomics += (m + spec->iters - 1) / spec->iters;
      if (g % 32 == 0) /* a warp issues the instruction while its first lane, which has the most loads, needs it */
        warp_insts += (m + spec->iters - 1) / spec->iters;
    }
    if ((err = ops->alloc(dev, words * sizeof(uint32_t), &a_buf)) || (err = ops->alloc(dev, sizeof zero64, &b_buf)) ||
        (err = ops->alloc(dev, sizeof zero64, &c_buf)) || (err = ops->write(dev, a_buf, host, words * sizeof *host)))
      goto out;
    args[nargs++] = (struct atl_arg){ATL_ARG_BUFFER, a_buf, 0};
    args[nargs++] = (struct atl_arg){ATL_ARG_U64, NULL, vectors};
    args[nargs++] = (struct atl_arg){ATL_ARG_U32, NULL, spec->iters};
    args[nargs++] = (struct atl_arg){ATL_ARG_BUFFER, b_buf, 0};
    args[nargs++] = (struct atl_arg){ATL_ARG_BUFFER, c_buf, 0};
  }
  struct atl_launch launch = {.global = (size_t)spec->workgroups * spec->wg_size, .local = spec->wg_size, .args = args,
                              .nargs = nargs};
  out->atomics = spec->which == ATL_SMEM_VALIDATE_ATOMICS ? (double)warps * spec->iters : (double)warp_insts;
  out->verified = 1;
  for (unsigned r = 0; r < spec->warmup + spec->reps; r++) {
    double t = 0;
    uint64_t sum = 0, atomics = 0;
    if ((err = ops->fill(dev, b_buf, &zero64, sizeof zero64, sizeof zero64)) ||
        (c_buf && (err = ops->fill(dev, c_buf, &zero64, sizeof zero64, sizeof zero64))) ||
        (spec->which == ATL_SMEM_VALIDATE_ATOMICS &&
         (err = ops->fill(dev, a_buf, &zero32, sizeof zero32, warps * sizeof(uint32_t)))) ||
        (err = ops->launch(dev, kernel, &launch, &t)) || (err = ops->read(dev, b_buf, &sum, sizeof sum)))
      goto out;
    unsigned wrong = sum != want_sum;
    if (spec->which == ATL_SMEM_VALIDATE_ATOMICS) {
      if ((err = ops->read(dev, a_buf, host, warps * sizeof *host)))
        goto out;
      for (size_t w = 0; w < warps; w++)
        wrong += host[w] != want_atomics;
    } else {
      if ((err = ops->read(dev, c_buf, &atomics, sizeof atomics)))
        goto out;
      wrong += atomics != want_atomics;
    }
    record_launch(r, spec->warmup, t, wrong, &out->verified, &out->wrong, ms);
  }
  summarize_times(ms, spec->reps, out);
  if (!out->verified)
    err = atl__seterr(ctx, ATL_EVERIFY, "%s: %u values differ from the expected", validation_entries[spec->which],
                      out->wrong);
out:
  atl__device_free_all(ctx, (void *[]){a_buf, b_buf, c_buf}, 3);
  free(host);
  free(ms);
  return err;
}
