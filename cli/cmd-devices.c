/* atomlab devices: every device of every backend, with its id. */
#include <cjson/cJSON.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] = "usage: atomlab devices [--format table|json] [--occupancy]\n\n"
                            "Lists every device atomlab can run on. The first column is the id that\n"
                            "--device takes (the row number works too).\n\n"
                            "  --format F    table (default) or json\n"
                            "  --occupancy   also run the occupancy discovery protocol on each device\n"
                            "                (work-group size 256, or the device maximum if smaller)\n"
                            "  --describe    what each field means (docs/metrics.md)\n";

static const char *type_name(enum atl_device_type t)
{
  return t == ATL_DEVICE_GPU ? "gpu" : t == ATL_DEVICE_CPU ? "cpu" : t == ATL_DEVICE_ACCELERATOR ? "accel" : "other";
}

static cJSON *device_json(const struct atl_device_info *d, size_t index)
{
  char slug[64];
  atl_device_slug(d, slug, sizeof slug);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "index", (double)index);
  cJSON_AddStringToObject(o, "id", d->id);
  cJSON_AddStringToObject(o, "slug", slug);
  cJSON_AddStringToObject(o, "backend", d->backend);
  cJSON_AddStringToObject(o, "type", type_name(d->type));
  cJSON_AddStringToObject(o, "name", d->name);
  cJSON_AddStringToObject(o, "vendor", d->vendor);
  cJSON_AddStringToObject(o, "platform", d->platform);
  cJSON_AddStringToObject(o, "driver", d->driver);
  cJSON_AddStringToObject(o, "version", d->version);
  cJSON_AddStringToObject(o, "language_version", d->lang_version);
  cJSON_AddNumberToObject(o, "compute_units", d->compute_units);
  cJSON_AddNumberToObject(o, "max_wg_size", (double)d->max_wg_size);
  cJSON_AddNumberToObject(o, "max_alloc_bytes", (double)d->max_alloc);
  cJSON_AddNumberToObject(o, "local_mem_bytes", (double)d->local_mem);
  cJSON_AddNumberToObject(o, "local_mem_optin_bytes", (double)d->local_mem_optin);
  cJSON_AddBoolToObject(o, "int64_atomics", d->has_int64_atomics);
  cJSON_AddBoolToObject(o, "f32_atomic_add", d->has_f32_atomic_add);
  /* Added fields only: what atomlab's code can do on the device (device.h). */
  cJSON_AddBoolToObject(o, "kernels_cuda_c", d->kernels_cuda_c);
  cJSON_AddBoolToObject(o, "warp_vote", d->has_warp_vote);
  cJSON_AddBoolToObject(o, "sm_clock", d->has_sm_clock);
  cJSON_AddBoolToObject(o, "ncu_counters", d->has_ncu_counters);
  cJSON_AddBoolToObject(o, "kernel_occupancy", d->has_kernel_occupancy);
  cJSON_AddBoolToObject(o, "cub", d->has_cub);
  if (d->features[0])
    cJSON_AddStringToObject(o, "features", d->features);
  return o;
}

int cmd_devices(int argc, char **argv)
{
  static const struct option longopts[] = {{"format", required_argument, NULL, 'f'},
                                           {"occupancy", no_argument, NULL, 'O'},
                                           {"help", no_argument, NULL, 'h'},
                                           {0}};
  int json = 0, occupancy = 0, c;
  optind = 1;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
    switch (c) {
    case 'f':
      if (strcmp(optarg, "json") == 0)
        json = 1;
      else if (strcmp(optarg, "table") != 0)
        die_usage("--format '%s' is not allowed: table or json", optarg);
      break;
    case 'O':
      occupancy = 1;
      break;
    case 'h':
      fputs(usage, stdout);
      return EXIT_OK;
    default:
      cli_bad_option("devices", "devices", c, argv);
    }
  }
  if (optind < argc)
    die_usage("unexpected argument '%s' for devices", argv[optind]);
  atl_context_t ctx = NULL;
  if (atl_context_new(&ctx))
    die("out of memory");
  const struct atl_device_info *list;
  size_t n = 0;
  if (atl_devices(ctx, &list, &n) == ATL_EINVAL) /* a bad ATL_BACKENDS: a usage error */
    die_usage("%s", atl_errmsg(ctx));
  cJSON *root = cJSON_CreateObject(), *array = cJSON_AddArrayToObject(root, "devices");
  if (!json)
    printf("%-3s %-12s %-5s %4s %6s %-40s %s\n", "#", "id", "type", "CUs", "max_wg", "name", "platform / driver");
  for (size_t i = 0; i < n; i++) {
    const struct atl_device_info *d = &list[i];
    cJSON *o = device_json(d, i);
    cJSON_AddItemToArray(array, o);
    if (!json)
      printf("%-3zu %-12s %-5s %4u %6zu %-40.40s %s / %s\n", i, d->id, type_name(d->type), d->compute_units,
             d->max_wg_size, d->name, d->platform, d->driver);
    if (!json && d->features[0])
      printf("    %s\n", d->features);
    if (!occupancy)
      continue;
    struct atl_occupancy occ;
    unsigned wg = d->max_wg_size < 256 ? (unsigned)d->max_wg_size : 256;
    int err = atl_device_open(ctx, d->id, NULL);
    if (!err)
      err = atl_occupancy_discover(ctx, wg, &occ);
    if (err) {
      cJSON_AddStringToObject(o, "occupancy_error", atl_errmsg(ctx));
      if (!json)
        printf("    occupancy: %s\n", atl_errmsg(ctx));
      continue;
    }
    cJSON_AddNumberToObject(o, "occupancy_wg_size", occ.wg_size);
    cJSON_AddNumberToObject(o, "discovered_workgroups", occ.discovered);
    cJSON_AddNumberToObject(o, "estimated_workgroups", occ.estimated);
    cJSON_AddStringToObject(o, "estimate_method", occ.estimate_method);
    if (!json)
      printf("    occupancy at wg %u: %u work-groups discovered, %u estimated (%s)\n", occ.wg_size, occ.discovered,
             occ.estimated, occ.estimate_method);
  }
  /* The links between devices of one backend that can tell them (CUDA): what the crossgpu app relies on. */
  cJSON *peers = NULL;
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++) {
      struct atl_peer_info pi;
      if (i == j || atl_device_peer_info(ctx, i, j, &pi) != 0)
        continue;
      if (peers == NULL)
        peers = cJSON_AddArrayToObject(root, "peers");
      cJSON *o = cJSON_CreateObject();
      cJSON_AddStringToObject(o, "from", list[i].id);
      cJSON_AddStringToObject(o, "to", list[j].id);
      cJSON_AddBoolToObject(o, "p2p_access", pi.access);
      cJSON_AddBoolToObject(o, "native_atomics", pi.native_atomics);
      cJSON_AddNumberToObject(o, "performance_rank", pi.performance_rank);
      cJSON_AddBoolToObject(o, "host_native_atomics", pi.host_native_atomics);
      cJSON_AddNumberToObject(o, "nvlinks_active", pi.nvlinks_active);
      cJSON_AddStringToObject(o, "link", pi.link);
      cJSON_AddItemToArray(peers, o);
      if (!json)
        printf("peer %s -> %s: P2P access %s, native atomics over the link %s, rank %d, host-memory atomics "
               "native %s, link %s (%u NVLinks active on %s)\n",
               list[i].id, list[j].id, pi.access ? "yes" : "no", pi.native_atomics ? "yes" : "no",
               pi.performance_rank, pi.host_native_atomics ? "yes" : "no", pi.link, pi.nvlinks_active, list[i].id);
    }
  if (json) {
    char *text = cJSON_Print(root);
    if (text)
      puts(text);
    free(text);
  } else if (n == 0) {
    printf("(no devices)\n");
  }
  cJSON_Delete(root);
  const char *notes = atl_backend_notes(ctx);
  if (notes[0])
    fprintf(stderr, "note: %s\n", notes);
  atl_context_free(ctx);
  return n ? EXIT_OK : EXIT_MEASURE;
}
