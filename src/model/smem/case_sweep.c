/*
 * The case study's runs as a sweep (`atomlab hist-case`): every kernel x
 * image x result of a plan over the image and block sizes, and the model's two
 * validation kernels, each row written to the table and the CSV as soon as it
 * is measured, so that a stopped run keeps what it measured.
 */
#include <stdio.h>
#include <string.h>

#include "atomlab/error.h"
#include "atomlab/model.h"
#include "atomlab/stop.h"

static const char *const kernel_names[] = {"histogram", "histogram2"};
static const char *const image_names[] = {"solid", "uniform"};

static int find(const char *s, const char *const *names)
{
  return strcmp(s, names[0]) == 0 ? 0 : strcmp(s, names[1]) == 0 ? 1 : -1;
}

int atl_smem_case_kernel_parse(const char *s) { return find(s, kernel_names); }

int atl_smem_case_image_parse(const char *s) { return find(s, image_names); }

static unsigned bits(unsigned mask) { return (mask & 1u) + (mask >> 1 & 1u); }

size_t atl_smem_case_plan_rows(const struct atl_smem_case_plan *plan)
{
  return (size_t)bits(plan->kernels) * bits(plan->images) * bits(plan->results) * plan->npixels * plan->nwg;
}

/* The blocks of @p wg_size that fit on every SM at once: a full device, the seed's setting. */
static unsigned full_device(atl_context_t ctx, unsigned wg_size)
{
  const struct atl_device_info *d = atl_device_current(ctx);
  if (d == NULL || wg_size == 0)
    return 1;
  const unsigned per_cu = d->max_threads_per_cu / wg_size;
  return d->compute_units * (per_cu ? per_cu : 1);
}

static void case_row(atl_context_t ctx, const struct atl_smem_case_plan *plan, unsigned k, unsigned i, unsigned r,
                     size_t p, size_t w, FILE *table, FILE *csv, int *failed)
{
  struct atl_smem_histogram_spec spec = {.reorder = (int)k, .result_used = r == ATL_SMEM_USED, .solid = i == 0,
                                         .pixels = plan->pixels[p], .wg_size = plan->wg_sizes[w],
                                         .workgroups = plan->workgroups, .reps = plan->reps, .warmup = plan->warmup};
  if (spec.workgroups == 0)
    spec.workgroups = full_device(ctx, spec.wg_size);
  struct atl_smem_run_result res;
  const char *result = atl_smem_variant_name((enum atl_smem_variant)r);
  int err = atl_smem_histogram_run(ctx, &spec, &res);
  if (err && err != ATL_EVERIFY) {
    if (table)
      fprintf(table, "%-10s %-7s %-6s %9u %5u %6u error: %s\n", kernel_names[k], image_names[i], result, spec.pixels,
              spec.wg_size, spec.workgroups, atl_errmsg(ctx));
    *failed = 1;
    return;
  }
  *failed |= !res.verified;
  const double gpx = res.median_ms > 0 ? spec.pixels / (res.median_ms * 1e6) : 0;
  if (table)
    fprintf(table, "%-10s %-7s %-6s %9u %5u %6u %10.4f %9.3f %-8s %s\n", kernel_names[k], image_names[i], result,
            spec.pixels, spec.wg_size, spec.workgroups, res.median_ms, gpx, res.verified ? "yes" : "NO",
            res.instructions);
  if (csv)
    atl_smem_histogram_write_csv_row(csv, &spec, &res);
}

int atl_smem_case_sweep(atl_context_t ctx, const struct atl_smem_case_plan *plan, FILE *table, FILE *csv,
                        size_t *done)
{
  int failed = 0;
  *done = 0;
  if (csv)
    atl_smem_histogram_write_csv_header(csv);
  if (table)
    fprintf(table, "%-10s %-7s %-6s %9s %5s %6s %10s %9s %-8s %s\n", "kernel", "image", "result", "pixels", "wg",
            "wgs", "median_ms", "Gpx/s", "verified", "instructions");
  /* kernel, image, result, size, block: the order of the CSV that `model predict --runs` pairs with launches */
  for (unsigned k = 0; k < 2; k++)
    for (unsigned i = 0; i < 2; i++)
      for (unsigned r = 0; r < ATL_SMEM_VARIANTS; r++)
        for (size_t p = 0; p < plan->npixels; p++)
          for (size_t w = 0; w < plan->nwg; w++) {
            if (!(plan->kernels >> k & 1) || !(plan->images >> i & 1) || !(plan->results >> r & 1))
              continue;
            if (atl_stop_requested())
              return ATL_EINTR;
            ++*done;
            case_row(ctx, plan, k, i, r, p, w, table, csv, &failed);
          }
  return failed ? ATL_EVERIFY : 0;
}

int atl_smem_validation_sweep(atl_context_t ctx, unsigned wg_size, unsigned workgroups, unsigned warmup,
                              unsigned reps, FILE *table, FILE *csv, size_t *done)
{
  static const char *const expect[] = {"bottleneck", "not a bottleneck"};
  int failed = 0;
  *done = 0;
  if (workgroups == 0) /* both kernels at the device's full occupancy */
    workgroups = full_device(ctx, wg_size);
  if (csv)
    atl_smem_validation_write_csv_header(csv);
  if (table)
    fprintf(table, "%-22s %-17s %5s %6s %10s %12s %-8s %s\n", "kernel", "expect", "wg", "wgs", "median_ms",
            "atomic_insts", "verified", "instructions");
  for (unsigned w = 0; w < ATL_SMEM_VALIDATIONS; w++) {
    if (atl_stop_requested())
      return ATL_EINTR;
    ++*done;
    /* the shared-atomics loop: 1024 iterations per thread (about a millisecond on an H100 at full occupancy);
     * the stream: 256 MiB, far beyond L2, one atomic per 8 loads of a thread (a few percent of its time) */
    struct atl_smem_validation_spec spec = {.which = (enum atl_smem_validation)w, .wg_size = wg_size,
                                            .workgroups = workgroups, .iters = w == 0 ? 1024 : 8,
                                            .bytes = (size_t)256 << 20, .warmup = warmup, .reps = reps};
    struct atl_smem_run_result res;
    const char *name = atl_smem_validation_kernel(spec.which);
    int err = atl_smem_validation_run(ctx, &spec, &res);
    if (err && err != ATL_EVERIFY) {
      if (table)
        fprintf(table, "%-22s error: %s\n", name, atl_errmsg(ctx));
      failed = 1;
      continue;
    }
    failed |= !res.verified;
    if (table)
      fprintf(table, "%-22s %-17s %5u %6u %10.4f %12.0f %-8s %s\n", name, expect[w], wg_size, workgroups,
              res.median_ms, res.atomics, res.verified ? "yes" : "NO", res.instructions);
    if (csv)
      atl_smem_validation_write_csv_row(csv, &spec, &res);
  }
  return failed ? ATL_EVERIFY : 0;
}
