/* atomlab hist-case: the histogram case study of seed 002 (Listings 1 and 2), timed and verified. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: atomlab hist-case [options]\n\n"
    "Runs the seed's two shared-memory histogram kernels on RGBA images: histogram\n"
    "(Listing 1: channels in order) and histogram2 (Listing 2: thread t starts at\n"
    "channel t %% 4), each with atomicAdd's result unused (ATOMS.POPC.INC on sm_80+)\n"
    "or read (ATOMS.ADD), on a solid image (every pixel one colour) and a uniform\n"
    "one (random channels). Every launch is verified against the host's histogram.\n"
    "CUDA only. Profile it with 'atomlab profile -- atomlab hist-case ...'.\n\n"
    "  --kernel K      histogram, histogram2 or all  [all]\n"
    "  --image I       solid, uniform or all  [all]\n"
    "  --result R      unused, used or all  [all]\n"
    "  --pixels AXIS   image sizes  [4194304]\n"
    "  --wg-size AXIS  threads per block  [256]\n"
    "  --workgroups N  blocks  [SMs x blocks that fit per SM]\n"
    "  --reps N        timed launches per row (median)  [5]\n"
    "  --warmup N      untimed launches before them  [1; 0 under 'atomlab profile' gives one launch per row]\n"
    "  --validate      run the model's two validation kernels instead (docs/model.md): a loop of shared\n"
    "                  atomics only (smem_validate_atomics: expect a bottleneck) and a global-memory\n"
    "                  stream with one shared atomic per 8 loads (smem_validate_stream: expect none);\n"
    "                  --wg-size and --workgroups apply  [1024; SMs x 2]\n"
    "  --device ID     a CUDA device  [the best CUDA device]\n"
    "  -o FILE         also write the rows as CSV\n\n"
    "Exit status: 0 every row verified; 1 a row failed or did not verify; 2 bad usage.\n";

/* A comma list of names among @p names (or "all"): a bit mask. */
static unsigned parse_set(const char *opt, const char *arg, const char *const *names, unsigned count)
{
  if (strcmp(arg, "all") == 0)
    return (1u << count) - 1;
  unsigned mask = 0;
  char *copy = strdup(arg);
  if (copy == NULL)
    die("out of memory");
  for (char *save = NULL, *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
    unsigned i = 0;
    if (strcmp(item, "all") == 0) { /* "all" inside a list */
      mask |= (1u << count) - 1;
      continue;
    }
    while (i < count && strcmp(item, names[i]) != 0)
      i++;
    if (i == count)
      die_usage("%s '%s' is not known: allowed: %s, %s or all", opt, item, names[0], names[1]);
    mask |= 1u << i;
  }
  free(copy);
  if (mask == 0)
    die_usage("%s is empty: allowed: %s, %s or all", opt, names[0], names[1]);
  return mask;
}

static struct atl_axis parse_axis(const char *opt, const char *arg, uint32_t max)
{
  struct atl_axis axis;
  char why[160];
  if (atl_axis_parse(arg, max, &axis, why, sizeof why) != 0)
    die_usage("%s: %s", opt, why);
  return axis;
}

/*
 * --validate: the two kernels with known answers. The shared-atomics loop runs 1024 iterations per
 * thread (about a millisecond on an H100 at full occupancy); the stream reads 256 MiB, far beyond L2, with
 * one atomic per 8 loads of a thread: a few percent of the memory time.
 */
static int run_validation(const char *device, unsigned wg_size, unsigned workgroups, unsigned warmup, unsigned reps,
                          const char *out)
{
  static const char *const expect[] = {"bottleneck", "not a bottleneck"};
  atl_context_t ctx = cli_open_device(device, "cuda");
  const struct atl_device_info *d = atl_device_current(ctx);
  if (workgroups == 0) /* both kernels at the device's full occupancy */
    workgroups = d->compute_units * (d->max_threads_per_cu / wg_size ? d->max_threads_per_cu / wg_size : 1);
  FILE *csv = NULL;
  struct cli_buffer buf;
  if (out) {
    csv = cli_buffer_open(&buf);
    atl_smem_validation_write_csv_header(csv);
  }
  printf("%-22s %-17s %5s %6s %10s %12s %-8s %s\n", "kernel", "expect", "wg", "wgs", "median_ms", "atomic_insts",
         "verified", "instructions");
  int failed = 0;
  size_t rows = 0, planned = ATL_SMEM_VALIDATIONS;
  cli_catch_stop_signals();
  for (unsigned w = 0; w < ATL_SMEM_VALIDATIONS && !atl_stop_requested(); w++, rows++) {
    struct atl_smem_validation_spec spec = {.which = (enum atl_smem_validation)w, .wg_size = wg_size,
                                            .workgroups = workgroups, .iters = w == 0 ? 1024 : 8,
                                            .bytes = (size_t)256 << 20, .warmup = warmup, .reps = reps};
    struct atl_smem_validation_result res;
    const char *name = atl_smem_validation_kernel(spec.which);
    int err = atl_smem_validation_run(ctx, &spec, &res);
    if (err && err != ATL_EVERIFY) {
      printf("%-22s error: %s\n", name, atl_errmsg(ctx));
      failed = 1;
      continue;
    }
    failed |= !res.verified;
    printf("%-22s %-17s %5u %6u %10.4f %12.0f %-8s %s\n", name, expect[w], wg_size, workgroups, res.median_ms,
           res.atomics, res.verified ? "yes" : "NO", res.instructions);
    if (csv)
      atl_smem_validation_write_csv_row(csv, &spec, &res);
  }
  if (csv && cli_buffer_write(&buf, out, "the rows") != 0)
    failed = 1;
  if (atl_stop_requested())
    return cli_interrupted("hist-case", rows, planned, NULL);
  atl_context_free(ctx);
  return failed ? EXIT_MEASURE : EXIT_OK;
}

int cmd_hist_case(int argc, char **argv)
{
  enum { O_KERNEL = 256, O_IMAGE, O_RESULT, O_PIXELS, O_WG, O_WGS, O_REPS, O_DEVICE, O_WARMUP, O_VALIDATE };
  static const struct option longopts[] = {
      {"kernel", required_argument, NULL, O_KERNEL}, {"image", required_argument, NULL, O_IMAGE},
      {"result", required_argument, NULL, O_RESULT}, {"pixels", required_argument, NULL, O_PIXELS},
      {"wg-size", required_argument, NULL, O_WG},    {"workgroups", required_argument, NULL, O_WGS},
      {"reps", required_argument, NULL, O_REPS},     {"device", required_argument, NULL, O_DEVICE},
      {"warmup", required_argument, NULL, O_WARMUP}, {"validate", no_argument, NULL, O_VALIDATE},
      {"output", required_argument, NULL, 'o'},      {"help", no_argument, NULL, 'h'},
      {0}};
  static const char *const kernels[] = {"histogram", "histogram2"}, *const images[] = {"solid", "uniform"},
                           *const results[] = {"unused", "used"};
  unsigned kmask = 3, imask = 3, rmask = 3, workgroups = 0, reps = 5, warmup = 1;
  int validate = 0;
  struct atl_axis pixels = {0}, wg = {0};
  const char *device = NULL, *out = NULL;
  int c;
  optind = 1;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
    switch (c) {
    case O_KERNEL: kmask = parse_set("--kernel", optarg, kernels, 2); break;
    case O_IMAGE: imask = parse_set("--image", optarg, images, 2); break;
    case O_RESULT: rmask = parse_set("--result", optarg, results, 2); break;
    case O_PIXELS:
      atl_axis_release(&pixels);
      pixels = parse_axis("--pixels", optarg, 1u << 28);
      break;
    case O_WG:
      atl_axis_release(&wg);
      wg = parse_axis("--wg-size", optarg, 1024);
      break;
    case O_WGS:
    case O_REPS: {
      struct atl_axis a = parse_axis(c == O_WGS ? "--workgroups" : "--reps", optarg, c == O_WGS ? 1u << 20 : 101);
      if (a.count != 1)
        die_usage("%s takes one whole number", c == O_WGS ? "--workgroups" : "--reps");
      *(c == O_WGS ? &workgroups : &reps) = a.values[0];
      atl_axis_release(&a);
      break;
    }
    case O_WARMUP: {
      char *end;
      unsigned long v = strtoul(optarg, &end, 10);
      if (*optarg < '0' || *optarg > '9' || *end != '\0' || v > 100)
        die_usage("--warmup '%s' is not allowed: a whole number from 0 to 100", optarg);
      warmup = (unsigned)v;
      break;
    }
    case O_VALIDATE: validate = 1; break;
    case O_DEVICE: device = optarg; break;
    case 'o': cli_check_output("-o", optarg); out = optarg; break;
    case 'h': fputs(usage, stdout); return EXIT_OK;
    case ':': die_usage("option '%s' needs a value (see 'atomlab hist-case --help')", argv[optind - 1]);
    default: die_usage("unknown option '%s' for hist-case (see 'atomlab hist-case --help')", argv[optind - 1]);
    }
  }
  if (optind < argc)
    die_usage("unexpected argument '%s' for hist-case", argv[optind]);
  if (validate) {
    if (pixels.count || kmask != 3 || imask != 3 || rmask != 3)
      die_usage("--validate runs the validation kernels: --pixels, --kernel, --image and --result do not apply");
    if (wg.count > 1 || (wg.count == 1 && wg.values[0] % 32))
      die_usage("--wg-size with --validate is one multiple of 32");
    const unsigned v_wg = wg.count ? wg.values[0] : 1024;
    atl_axis_release(&wg);
    return run_validation(device, v_wg, workgroups, warmup, reps, out);
  }
  if (pixels.count == 0)
    pixels = parse_axis("--pixels", "4194304", 1u << 28);
  if (wg.count == 0)
    wg = parse_axis("--wg-size", "256", 1024);
  atl_context_t ctx = cli_open_device(device, "cuda");
  const struct atl_device_info *d = atl_device_current(ctx);
  FILE *csv = NULL;
  struct cli_buffer buf;
  if (out) {
    csv = cli_buffer_open(&buf);
    atl_smem_histogram_write_csv_header(csv);
  }
  printf("%-10s %-7s %-6s %9s %5s %6s %10s %9s %-8s %s\n", "kernel", "image", "result", "pixels", "wg", "wgs",
         "median_ms", "Gpx/s", "verified", "instructions");
  int failed = 0;
  size_t rows = 0, planned = (size_t)__builtin_popcount(kmask) * __builtin_popcount(imask) *
                             __builtin_popcount(rmask) * pixels.count * wg.count;
  cli_catch_stop_signals();
  for (unsigned k = 0; k < 2; k++)
    for (unsigned i = 0; i < 2; i++)
      for (unsigned r = 0; r < 2; r++)
        for (size_t p = 0; p < pixels.count; p++)
          for (size_t w = 0; w < wg.count; w++) {
            if (!(kmask >> k & 1) || !(imask >> i & 1) || !(rmask >> r & 1) || atl_stop_requested())
              continue;
            rows++;
            unsigned wgs = workgroups;
            if (wgs == 0) /* a full device: the blocks that fit on every SM at once */
              wgs = d->compute_units * (d->max_threads_per_cu / wg.values[w] ? d->max_threads_per_cu / wg.values[w] : 1);
            struct atl_smem_histogram_spec spec = {.reorder = (int)k, .result_used = (int)r, .solid = i == 0,
                                                   .pixels = pixels.values[p], .wg_size = wg.values[w],
                                                   .workgroups = wgs, .reps = reps, .warmup = warmup};
            struct atl_smem_histogram_result res;
            int err = atl_smem_histogram_run(ctx, &spec, &res);
            if (err && err != ATL_EVERIFY) {
              printf("%-10s %-7s %-6s %9u %5u %6u error: %s\n", kernels[k], images[i], results[r], spec.pixels,
                     spec.wg_size, wgs, atl_errmsg(ctx));
              failed = 1;
              continue;
            }
            failed |= !res.verified;
            const double gpx = res.median_ms > 0 ? spec.pixels / (res.median_ms * 1e6) : 0;
            printf("%-10s %-7s %-6s %9u %5u %6u %10.4f %9.3f %-8s %s\n", kernels[k], images[i], results[r],
                   spec.pixels, spec.wg_size, wgs, res.median_ms, gpx, res.verified ? "yes" : "NO", res.instructions);
            if (csv)
              atl_smem_histogram_write_csv_row(csv, &spec, &res);
          }
  if (csv && cli_buffer_write(&buf, out, "the rows") != 0)
    failed = 1;
  if (atl_stop_requested())
    return cli_interrupted("hist-case", rows, planned, NULL);
  atl_axis_release(&pixels);
  atl_axis_release(&wg);
  atl_context_free(ctx);
  return failed ? EXIT_MEASURE : EXIT_OK;
}
