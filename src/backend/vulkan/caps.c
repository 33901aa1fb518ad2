/*
 * What a Vulkan physical device offers as atomlab asks it (properties,
 * features, memory), the device list `atomlab devices` shows, and the
 * occupancy estimate from what the device tells.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vk_internal.h"

static int has_ext(const VkExtensionProperties *exts, uint32_t n, const char *name)
{
  for (uint32_t i = 0; i < n; i++)
    if (strcmp(exts[i].extensionName, name) == 0)
      return 1;
  return 0;
}

void atl__vk_query_caps(VkPhysicalDevice pd, struct vk_caps *c)
{
  memset(c, 0, sizeof *c);
  uint32_t n = 0;
  VkExtensionProperties *exts = NULL;
  if (atl__vk.vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL) == VK_SUCCESS && n &&
      (exts = calloc(n, sizeof *exts)) != NULL)
    atl__vk.vkEnumerateDeviceExtensionProperties(pd, NULL, &n, exts);
  atl__vk.vkGetPhysicalDeviceProperties(pd, &c->props);
  const uint32_t api = c->props.apiVersion;
  c->has_driver_props = api >= VK_API_VERSION_1_2 || has_ext(exts, n, VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME);
  c->has_sm = has_ext(exts, n, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME);
  c->has_int64 = api >= VK_API_VERSION_1_2 || has_ext(exts, n, VK_KHR_SHADER_ATOMIC_INT64_EXTENSION_NAME);
  c->has_float = has_ext(exts, n, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
  c->has_exec = has_ext(exts, n, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
  free(exts);

  VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  c->subgroup.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
  c->maint3.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES;
  c->subgroup.pNext = &c->maint3;
  p2.pNext = &c->subgroup;
  if (c->has_driver_props) {
    c->driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
    c->driver.pNext = p2.pNext;
    p2.pNext = &c->driver;
  }
  if (c->has_sm) {
    c->sm.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV;
    c->sm.pNext = p2.pNext;
    p2.pNext = &c->sm;
  }
  atl__vk.vkGetPhysicalDeviceProperties2(pd, &p2);

  c->features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  void **chain = &c->features.pNext;
  if (c->has_int64) {
    c->int64.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES;
    *chain = &c->int64;
    chain = &c->int64.pNext;
  }
  if (c->has_float) {
    c->afloat.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT;
    *chain = &c->afloat;
    chain = &c->afloat.pNext;
  }
  if (c->has_exec) {
    c->exec.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR;
    *chain = &c->exec;
    chain = &c->exec.pNext;
  }
  atl__vk.vkGetPhysicalDeviceFeatures2(pd, &c->features);
  /* 64-bit atomics need the 64-bit integer type in shaders too. */
  if (!c->features.features.shaderInt64)
    c->int64.shaderBufferInt64Atomics = c->int64.shaderSharedInt64Atomics = 0;
  c->has_exec = c->has_exec && c->exec.pipelineExecutableInfo;

  VkPhysicalDeviceMemoryProperties mem;
  atl__vk.vkGetPhysicalDeviceMemoryProperties(pd, &mem);
  for (uint32_t h = 0; h < mem.memoryHeapCount; h++)
    if (mem.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
      c->device_local_bytes += mem.memoryHeaps[h].size;
}

/* The driver's version as its vendor writes it (NVIDIA packs 10.8.8.6 bits; Mesa and others use Vulkan's). */
static void driver_version(const VkPhysicalDeviceProperties *p, char *buf, size_t len)
{
  const uint32_t v = p->driverVersion;
  if (p->vendorID == 0x10de)
    snprintf(buf, len, "%u.%u.%u", v >> 22, (v >> 14) & 0xff, (v >> 6) & 0xff);
  else
    snprintf(buf, len, "%u.%u.%u", VK_API_VERSION_MAJOR(v), VK_API_VERSION_MINOR(v), VK_API_VERSION_PATCH(v));
}

static void fill_info(VkPhysicalDevice pd, unsigned index, struct atl_device_info *info)
{
  struct vk_caps c;
  atl__vk_query_caps(pd, &c);
  const VkPhysicalDeviceLimits *lim = &c.props.limits;
  memset(info, 0, sizeof *info);
  snprintf(info->id, sizeof info->id, "vulkan:%u", index);
  snprintf(info->backend, sizeof info->backend, "vulkan");
  snprintf(info->name, sizeof info->name, "%.120s", c.props.deviceName);
  snprintf(info->vendor, sizeof info->vendor, "0x%04x", c.props.vendorID);
  char ver[32];
  driver_version(&c.props, ver, sizeof ver);
  if (c.has_driver_props) {
    snprintf(info->platform, sizeof info->platform, "Vulkan %.100s", c.driver.driverName);
    snprintf(info->driver, sizeof info->driver, "%.20s (%.40s)", ver, c.driver.driverInfo);
  } else {
    snprintf(info->platform, sizeof info->platform, "Vulkan");
    snprintf(info->driver, sizeof info->driver, "%s", ver);
  }
  snprintf(info->version, sizeof info->version, "Vulkan %u.%u.%u", VK_API_VERSION_MAJOR(c.props.apiVersion),
           VK_API_VERSION_MINOR(c.props.apiVersion), VK_API_VERSION_PATCH(c.props.apiVersion));
  snprintf(info->lang_version, sizeof info->lang_version, "GLSL 450 -> SPIR-V 1.3");
  info->type = c.props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? ATL_DEVICE_CPU
               : (c.props.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU ||
                  c.props.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU ||
                  c.props.deviceType == VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU)
                   ? ATL_DEVICE_GPU
                   : ATL_DEVICE_OTHER;
  /* Vulkan has no core count: NVIDIA tells its SMs (VK_NV_shader_sm_builtins); a CPU driver (lavapipe) runs
   * one work-group per CPU thread; otherwise 1 and the occupancy protocol tells more. */
  if (c.has_sm) {
    info->compute_units = c.sm.shaderSMCount;
    info->max_threads_per_cu = c.sm.shaderWarpsPerSM * c.subgroup.subgroupSize;
  } else if (info->type == ATL_DEVICE_CPU) {
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    info->compute_units = cpus > 0 ? (unsigned)cpus : 1;
  } else {
    info->compute_units = 1;
  }
  info->max_wg_size = lim->maxComputeWorkGroupInvocations < lim->maxComputeWorkGroupSize[0]
                          ? lim->maxComputeWorkGroupInvocations
                          : lim->maxComputeWorkGroupSize[0];
  /* A storage buffer binding can see at most maxStorageBufferRange bytes. */
  info->max_alloc = lim->maxStorageBufferRange;
  if (c.maint3.maxMemoryAllocationSize && c.maint3.maxMemoryAllocationSize < info->max_alloc)
    info->max_alloc = c.maint3.maxMemoryAllocationSize;
  info->global_mem = c.device_local_bytes;
  info->local_mem = info->local_mem_optin = lim->maxComputeSharedMemorySize;
  info->warp_size = c.subgroup.subgroupSize;
  info->has_int64_atomics = c.int64.shaderBufferInt64Atomics && c.int64.shaderSharedInt64Atomics;
  info->has_f32_atomic_add = c.afloat.shaderBufferFloat32AtomicAdd;
  info->has_local_atomics = 1; /* 32-bit shared-memory atomics are core Vulkan */
  info->has_scopes = 1;        /* workgroup and device (GL_KHR_memory_scope_semantics); system answers why not */
  info->ordinal = index;
  /* llvmpipe (lavapipe) counts every loop pass of an invocation against one limiter, 65535, and leaves all its
   * loops when it runs out: gallivm's LP_MAX_TGSI_LOOP_ITERATIONS (tests/vulkan/repro_loop_limit.c). */
  if (c.has_driver_props && c.driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE)
    info->max_loop_passes = 65535;
  snprintf(info->features, sizeof info->features,
           "conformance %u.%u.%u.%u, subgroup %u, shared %u B, storage range %u B, timestamp %.3g ns "
           "(%u bits), int64 atomics buffer/shared %u/%u, f32 add buffer/shared %u/%u, scopes workgroup+device, "
           "pipeline executable properties %s",
           c.driver.conformanceVersion.major, c.driver.conformanceVersion.minor,
           c.driver.conformanceVersion.subminor, c.driver.conformanceVersion.patch, c.subgroup.subgroupSize,
           lim->maxComputeSharedMemorySize, lim->maxStorageBufferRange, (double)lim->timestampPeriod,
           lim->timestampComputeAndGraphics ? 64u : 0u, c.int64.shaderBufferInt64Atomics,
           c.int64.shaderSharedInt64Atomics, c.afloat.shaderBufferFloat32AtomicAdd,
           c.afloat.shaderSharedFloat32AtomicAdd, c.has_exec ? "yes" : "no");
}

int atl__vk_probe(atl_context_t ctx, struct atl_device_info **list, size_t *count)
{
  *list = NULL;
  *count = 0;
  int err = atl__vk_load_api(ctx);
  if (err)
    return err;
  uint32_t n = 0;
  VkResult r = atl__vk.vkEnumeratePhysicalDevices(atl__vk.instance, &n, NULL);
  if (r != VK_SUCCESS || n == 0)
    return atl__seterr(ctx, ATL_ENODEV, "Vulkan loader found, but no Vulkan device (install a driver such as "
                                        "mesa-vulkan-drivers, or name an ICD file in VK_DRIVER_FILES)");
  VkPhysicalDevice *pds = calloc(n, sizeof *pds);
  struct atl_device_info *out = calloc(n, sizeof *out);
  if (pds == NULL || out == NULL) {
    free(pds);
    free(out);
    return ATL_ENOMEM;
  }
  atl__vk.vkEnumeratePhysicalDevices(atl__vk.instance, &n, pds);
  size_t kept = 0;
  for (uint32_t i = 0; i < n; i++) {
    VkPhysicalDeviceProperties p;
    atl__vk.vkGetPhysicalDeviceProperties(pds[i], &p);
    if (p.apiVersion < VK_API_VERSION_1_1)
      continue; /* subgroup and feature queries need 1.1 */
    fill_info(pds[i], i, &out[kept++]);
  }
  free(pds);
  *list = out;
  *count = kept;
  return kept ? 0 : atl__seterr(ctx, ATL_ENODEV, "Vulkan devices found, but none of Vulkan 1.1");
}

int atl__vk_occupancy_estimate(void *handle, void *kernel, size_t wg_size, unsigned *groups, char *method,
                                 size_t method_len)
{
  struct vk_dev *d = handle;
  (void)kernel;
  if (d->caps.has_sm) {
    const unsigned threads = d->caps.sm.shaderWarpsPerSM * d->caps.subgroup.subgroupSize;
    unsigned per_sm = (unsigned)(threads / wg_size);
    if (per_sm > 32)
      per_sm = 32; /* resident blocks per SM on every NVIDIA architecture since Maxwell */
    *groups = d->caps.sm.shaderSMCount * (per_sm ? per_sm : 1);
    snprintf(method, method_len, "VK_NV_shader_sm_builtins: %u SMs x min(32, %u warps x %u / %zu)",
             d->caps.sm.shaderSMCount, d->caps.sm.shaderWarpsPerSM, d->caps.subgroup.subgroupSize, wg_size);
    return 0;
  }
  if (d->caps.props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) {
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    *groups = cpus > 0 ? (unsigned)cpus : 1;
    snprintf(method, method_len, "CPU: one work-group per CPU thread (%u)", *groups);
    return 0;
  }
  *groups = 1;
  snprintf(method, method_len, "unknown: Vulkan tells no compute-unit count on this device");
  return 0;
}
