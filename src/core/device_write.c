/* atomlab devices' list: every device of every backend with its id, as a
 * table or JSON, optionally with occupancy discovery on each, and the links
 * between devices a backend can tell. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "atomlab.h"

static const char *type_name(enum atl_device_type t)
{
  return t == ATL_DEVICE_GPU ? "gpu" : t == ATL_DEVICE_CPU ? "cpu" : t == ATL_DEVICE_ACCELERATOR ? "accel" : "other";
}

/* The facts of a device as atomlab devices writes them, in order: each one's key, its field and kind. */
enum kind { TEXT, DEVICE_TYPE, NUMBER_U, NUMBER_SIZE, NUMBER_U64, FLAG };
#define F(key, field, kind) {key, offsetof(struct atl_device_info, field), kind}
static const struct {
  const char *key;
  size_t offset;
  enum kind kind;
} facts[] = {
    F("backend", backend, TEXT), F("type", type, DEVICE_TYPE), F("name", name, TEXT), F("vendor", vendor, TEXT),
    F("platform", platform, TEXT), F("driver", driver, TEXT), F("version", version, TEXT),
    F("language_version", lang_version, TEXT), F("compute_units", compute_units, NUMBER_U),
    F("max_wg_size", max_wg_size, NUMBER_SIZE), F("max_alloc_bytes", max_alloc, NUMBER_U64),
    F("local_mem_bytes", local_mem, NUMBER_U64), F("local_mem_optin_bytes", local_mem_optin, NUMBER_U64),
    F("int64_atomics", has_int64_atomics, FLAG), F("f32_atomic_add", has_f32_atomic_add, FLAG),
    /* Added fields only: what atomlab's code can do on the device (device.h). */
    F("kernels_cuda_c", kernels_cuda_c, FLAG), F("warp_vote", has_warp_vote, FLAG), F("sm_clock", has_sm_clock, FLAG),
    F("ncu_counters", has_ncu_counters, FLAG), F("kernel_occupancy", has_kernel_occupancy, FLAG),
    F("cub", has_cub, FLAG), F("l2_cache_bytes", l2_cache, NUMBER_U64),
};
#undef F

static cJSON *device_json(const struct atl_device_info *d, size_t index)
{
  char slug[64];
  atl_device_slug(d, slug, sizeof slug);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "index", (double)index);
  cJSON_AddStringToObject(o, "id", d->id);
  cJSON_AddStringToObject(o, "slug", slug);
  for (size_t i = 0; i < sizeof facts / sizeof facts[0]; i++) {
    const void *field = (const char *)d + facts[i].offset;
    if (facts[i].kind == TEXT || facts[i].kind == DEVICE_TYPE)
      cJSON_AddStringToObject(o, facts[i].key, facts[i].kind == TEXT ? (const char *)field : type_name(d->type));
    else if (facts[i].kind == FLAG) /* unsigned flags (device.h) */
      cJSON_AddBoolToObject(o, facts[i].key, *(const unsigned *)field != 0);
    else
      cJSON_AddNumberToObject(o, facts[i].key,
                              facts[i].kind == NUMBER_U      ? (double)*(const unsigned *)field
                              : facts[i].kind == NUMBER_SIZE ? (double)*(const size_t *)field
                                                             : (double)*(const uint64_t *)field);
  }
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
