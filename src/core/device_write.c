/* atomlab devices' list: every device of every backend with its id, as a
 * table or JSON, optionally with occupancy discovery on each, and the links
 * between devices a backend can tell. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "atomlab.h"

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

int atl_devices_write(FILE *out, atl_context_t ctx, const struct atl_device_info *list, size_t n, int json,
                      int occupancy)
{
  cJSON *root = cJSON_CreateObject(), *array = cJSON_AddArrayToObject(root, "devices");
  if (!json)
    fprintf(out, "%-3s %-12s %-5s %4s %6s %-40s %s\n", "#", "id", "type", "CUs", "max_wg", "name", "platform / driver");
  for (size_t i = 0; i < n; i++) {
    const struct atl_device_info *d = &list[i];
    cJSON *o = device_json(d, i);
    cJSON_AddItemToArray(array, o);
    if (!json)
      fprintf(out, "%-3zu %-12s %-5s %4u %6zu %-40.40s %s / %s\n", i, d->id, type_name(d->type), d->compute_units,
             d->max_wg_size, d->name, d->platform, d->driver);
    if (!json && d->features[0])
      fprintf(out, "    %s\n", d->features);
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
        fprintf(out, "    occupancy: %s\n", atl_errmsg(ctx));
      continue;
    }
    cJSON_AddNumberToObject(o, "occupancy_wg_size", occ.wg_size);
    cJSON_AddNumberToObject(o, "discovered_workgroups", occ.discovered);
    cJSON_AddNumberToObject(o, "estimated_workgroups", occ.estimated);
    cJSON_AddStringToObject(o, "estimate_method", occ.estimate_method);
    if (!json)
      fprintf(out, "    occupancy at wg %u: %u work-groups discovered, %u estimated (%s)\n", occ.wg_size, occ.discovered,
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
        fprintf(out, "peer %s -> %s: P2P access %s, native atomics over the link %s, rank %d, host-memory atomics "
               "native %s, link %s (%u NVLinks active on %s)\n",
               list[i].id, list[j].id, pi.access ? "yes" : "no", pi.native_atomics ? "yes" : "no",
               pi.performance_rank, pi.host_native_atomics ? "yes" : "no", pi.link, pi.nvlinks_active, list[i].id);
    }
  if (json) {
    char *text = cJSON_Print(root);
    if (text)
      fprintf(out, "%s\n", text);
    free(text);
  } else if (n == 0) {
    fprintf(out, "(no devices)\n");
  }
  cJSON_Delete(root);
  return ferror(out) ? ATL_EIO : 0;
}

const char *atl_device_type_list(const struct atl_device_info *dev, char *buf, size_t len)
{
  buf[0] = '\0';
  for (int t = 0; t < ATL_TYPE_COUNT; t++)
    if (atl_device_has_type(dev, t))
      snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? ", " : "", atl_type_name((enum atl_type)t));
  return buf;
}
