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
    "  --validate      run the model's two validation kernels instead (docs/design/model.md): a loop of shared\n"
    "                  atomics only (smem_validate_atomics: expect a bottleneck) and a global-memory\n"
    "                  stream with one shared atomic per 8 loads (smem_validate_stream: expect none);\n"
    "                  --wg-size and --workgroups apply  [1024; SMs x 2]\n"
    "  --device ID     a CUDA device  [the best CUDA device]\n"
    "  -o FILE         also write the rows as CSV\n\n"
    "Exit status: 0 every row verified; 1 a row failed or did not verify; 2 bad usage.\n";

/* A comma list of names (or "all") as a bit mask of their numbers. */
static unsigned parse_mask(const char *opt, const char *arg, int (*parse)(const char *), const char *allowed)
{
  static const int both[] = {0, 1};
  int list[MAX_LIST];
  unsigned mask = 0;
  for (size_t i = 0, n = cli_parse_names(opt, arg, parse, both, 2, allowed, list); i < n; i++)
    mask |= 1u << list[i];
  return mask;
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
  struct atl_smem_case_plan plan = {.kernels = 3, .images = 3, .results = 3, .reps = 5, .warmup = 1};
  int validate = 0, c;
  struct atl_axis pixels = {0}, wg = {0};
  const char *device = NULL, *out = NULL;
  cli_options_begin();
  while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
    cli_option_once(longopts, c, -1);
    switch (c) {
    case O_KERNEL:
      plan.kernels = parse_mask("--kernel", optarg, atl_smem_case_kernel_parse, "histogram, histogram2, all");
      break;
    case O_IMAGE: plan.images = parse_mask("--image", optarg, atl_smem_case_image_parse, "solid, uniform, all"); break;
    case O_RESULT: plan.results = parse_mask("--result", optarg, atl_smem_variant_parse, "unused, used, all"); break;
    case O_PIXELS:
      atl_axis_release(&pixels);
      pixels = cli_parse_axis("--pixels", optarg, 1u << 28);
      break;
    case O_WG:
      atl_axis_release(&wg);
      wg = cli_parse_axis("--wg-size", optarg, 1024);
      break;
    case O_WGS: plan.workgroups = cli_parse_count("--workgroups", optarg, 1u << 20); break;
    case O_REPS: plan.reps = cli_parse_count("--reps", optarg, 101); break;
    case O_WARMUP: plan.warmup = strcmp(optarg, "0") == 0 ? 0 : cli_parse_count("--warmup", optarg, 100); break;
    case O_VALIDATE: validate = 1; break;
    case O_DEVICE: device = optarg; break;
    case 'o': cli_check_output("-o", optarg); out = optarg; break;
    default: return cli_help_or_bad(c, usage, "hist-case", argv);
    }
  }
  if (optind < argc)
    die_usage("unexpected argument '%s' for hist-case", argv[optind]);
  if (validate && (pixels.count || plan.kernels != 3 || plan.images != 3 || plan.results != 3))
    die_usage("--validate runs the validation kernels: --pixels, --kernel, --image and --result do not apply");
  if (validate && (wg.count > 1 || (wg.count == 1 && wg.values[0] % 32)))
    die_usage("--wg-size with --validate is one multiple of 32");
  if (pixels.count == 0)
    pixels = cli_parse_axis("--pixels", "4194304", 1u << 28);
  if (wg.count == 0)
    wg = cli_parse_axis("--wg-size", validate ? "1024" : "256", 1024);
  plan.pixels = pixels.values;
  plan.npixels = pixels.count;
  plan.wg_sizes = wg.values;
  plan.nwg = wg.count;
  atl_context_t ctx = cli_open_device(device, "cuda");
  struct cli_buffer buf;
  FILE *csv = out ? cli_buffer_open(&buf) : NULL;
  size_t done = 0;
  cli_catch_stop_signals();
  int err = validate ? atl_smem_validation_sweep(ctx, wg.values[0], plan.workgroups, plan.warmup, plan.reps, stdout,
                                                 csv, &done)
                     : atl_smem_case_sweep(ctx, &plan, stdout, csv, &done);
  if (csv && cli_buffer_write(&buf, out, "the rows") != 0 && !err)
    err = ATL_EIO;
  if (err == ATL_EINTR)
    return cli_interrupted("hist-case", done, validate ? ATL_SMEM_VALIDATIONS : atl_smem_case_plan_rows(&plan), NULL);
  atl_axis_release(&pixels);
  atl_axis_release(&wg);
  atl_context_free(ctx);
  return err ? EXIT_MEASURE : EXIT_OK;
}
