/*
 * The Vulkan backend. The loader (libvulkan.so.1) is opened at run time with
 * dlopen, like the CUDA backend's driver, so the binary starts (saying Vulkan
 * is unavailable) where there is no loader. Kernels are GLSL compute shaders
 * compiled to SPIR-V at build time, one module per variant
 * (cmake/vulkan_shaders.cmake); a build request's defines pick the variant and
 * set its specialization constants. Buffer arguments become storage-buffer
 * bindings 0, 1, ... in order, scalar arguments push constants in order.
 * Device time comes from timestamp queries around the dispatch.
 */
#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <unistd.h>

#include "atomlab/backend.h"
#include "atomlab/error.h"
#include "../common.h"
#include "../cuda/sass.h" /* ATL_INSTRUCTIONS_LEN */
#include "shaders.h"
#include "spirv.h"

/* Instance-level entry points, then device-level ones (both through vkGetInstanceProcAddr). */
#define VK_INSTANCE_FUNCS(X)                                                                                           \
  X(vkDestroyInstance) X(vkEnumeratePhysicalDevices) X(vkGetPhysicalDeviceProperties)                                 \
  X(vkGetPhysicalDeviceProperties2) X(vkGetPhysicalDeviceFeatures2) X(vkGetPhysicalDeviceMemoryProperties)             \
  X(vkGetPhysicalDeviceQueueFamilyProperties) X(vkEnumerateDeviceExtensionProperties) X(vkCreateDevice)               \
  X(vkGetDeviceProcAddr)
#define VK_DEVICE_FUNCS(X)                                                                                             \
  X(vkDestroyDevice) X(vkGetDeviceQueue) X(vkCreateBuffer) X(vkDestroyBuffer) X(vkGetBufferMemoryRequirements)        \
  X(vkAllocateMemory) X(vkFreeMemory) X(vkBindBufferMemory) X(vkMapMemory) X(vkUnmapMemory) X(vkCreateCommandPool)    \
  X(vkDestroyCommandPool) X(vkAllocateCommandBuffers) X(vkBeginCommandBuffer) X(vkEndCommandBuffer)                  \
  X(vkResetCommandBuffer) X(vkQueueSubmit) X(vkCreateFence) X(vkDestroyFence) X(vkWaitForFences) X(vkResetFences)    \
  X(vkCmdFillBuffer) X(vkCmdCopyBuffer) X(vkCmdPipelineBarrier) X(vkCmdBindPipeline) X(vkCmdBindDescriptorSets)      \
  X(vkCmdPushConstants) X(vkCmdDispatch) X(vkCmdWriteTimestamp) X(vkCmdResetQueryPool) X(vkCreateQueryPool)          \
  X(vkDestroyQueryPool) X(vkGetQueryPoolResults) X(vkCreateShaderModule) X(vkDestroyShaderModule)                    \
  X(vkCreateDescriptorSetLayout) X(vkDestroyDescriptorSetLayout) X(vkCreatePipelineLayout)                           \
  X(vkDestroyPipelineLayout) X(vkCreateComputePipelines) X(vkDestroyPipeline) X(vkCreateDescriptorPool)              \
  X(vkDestroyDescriptorPool) X(vkAllocateDescriptorSets) X(vkUpdateDescriptorSets)
/* VK_KHR_pipeline_executable_properties: optional. */
#define VK_EXEC_FUNCS(X)                                                                                               \
  X(vkGetPipelineExecutablePropertiesKHR) X(vkGetPipelineExecutableStatisticsKHR)                                    \
  X(vkGetPipelineExecutableInternalRepresentationsKHR)

static struct {
  int loaded; /* 0 not tried, 1 ok, -1 failed */
  char why[256];
  void *lib;
  VkInstance instance;
  uint32_t api_version;
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr;
#define X(name) PFN_##name name;
  VK_INSTANCE_FUNCS(X)
#undef X
} vk;

static const char *vk_result_name(VkResult r)
{
  switch (r) {
#define NAME(c)                                                                                                        \
  case c:                                                                                                              \
    return #c;
    NAME(VK_NOT_READY) NAME(VK_TIMEOUT) NAME(VK_INCOMPLETE) NAME(VK_ERROR_OUT_OF_HOST_MEMORY)
    NAME(VK_ERROR_OUT_OF_DEVICE_MEMORY) NAME(VK_ERROR_INITIALIZATION_FAILED) NAME(VK_ERROR_DEVICE_LOST)
    NAME(VK_ERROR_MEMORY_MAP_FAILED) NAME(VK_ERROR_LAYER_NOT_PRESENT) NAME(VK_ERROR_EXTENSION_NOT_PRESENT)
    NAME(VK_ERROR_FEATURE_NOT_PRESENT) NAME(VK_ERROR_INCOMPATIBLE_DRIVER) NAME(VK_ERROR_TOO_MANY_OBJECTS)
    NAME(VK_ERROR_UNKNOWN) NAME(VK_ERROR_INVALID_SHADER_NV)
#undef NAME
  default:
    return "VkResult";
  }
}

static int load_api(atl_context_t ctx)
{
  if (vk.loaded == 1)
    return 0;
  if (vk.loaded == -1)
    return atl__seterr(ctx, ATL_ENODEV, "%s", vk.why);
  vk.loaded = -1;
  vk.lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (vk.lib == NULL) {
    snprintf(vk.why, sizeof vk.why, "Vulkan is unavailable: no Vulkan loader (libvulkan.so.1 not found)");
    return atl__seterr(ctx, ATL_ENODEV, "%s", vk.why);
  }
  vk.vkGetInstanceProcAddr = (PFN_vkGetInstanceProcAddr)dlsym(vk.lib, "vkGetInstanceProcAddr");
  PFN_vkCreateInstance create =
      vk.vkGetInstanceProcAddr ? (PFN_vkCreateInstance)vk.vkGetInstanceProcAddr(NULL, "vkCreateInstance") : NULL;
  PFN_vkEnumerateInstanceVersion version =
      vk.vkGetInstanceProcAddr
          ? (PFN_vkEnumerateInstanceVersion)vk.vkGetInstanceProcAddr(NULL, "vkEnumerateInstanceVersion")
          : NULL;
  if (create == NULL || version == NULL) {
    snprintf(vk.why, sizeof vk.why, "Vulkan is unavailable: the loader lacks vkCreateInstance (Vulkan 1.1 needed)");
    return atl__seterr(ctx, ATL_ENODEV, "%s", vk.why);
  }
  uint32_t loader = 0;
  version(&loader);
  if (loader < VK_API_VERSION_1_1) {
    snprintf(vk.why, sizeof vk.why, "Vulkan is unavailable: the loader is Vulkan %u.%u, 1.1 is needed",
             VK_API_VERSION_MAJOR(loader), VK_API_VERSION_MINOR(loader));
    return atl__seterr(ctx, ATL_ENODEV, "%s", vk.why);
  }
  vk.api_version = loader < VK_API_VERSION_1_3 ? loader : VK_API_VERSION_1_3;
  VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                           .pApplicationName = "atomlab",
                           .apiVersion = vk.api_version};
  VkInstanceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
  VkResult r = create(&ci, NULL, &vk.instance);
  if (r != VK_SUCCESS) {
    snprintf(vk.why, sizeof vk.why, "Vulkan is unavailable: vkCreateInstance failed: %s (%d)%s", vk_result_name(r),
             (int)r, r == VK_ERROR_INCOMPATIBLE_DRIVER ? " (no Vulkan driver: no ICD file found)" : "");
    return atl__seterr(ctx, ATL_ENODEV, "%s", vk.why);
  }
#define X(name)                                                                                                        \
  if ((vk.name = (PFN_##name)vk.vkGetInstanceProcAddr(vk.instance, #name)) == NULL) {                                 \
    snprintf(vk.why, sizeof vk.why, "Vulkan is unavailable: the loader lacks %s", #name);                             \
    return atl__seterr(ctx, ATL_ENODEV, "%s", vk.why);                                                                \
  }
  VK_INSTANCE_FUNCS(X)
#undef X
  vk.loaded = 1;
  return 0;
}

/* What a physical device offers, as atomlab asks it. */
struct vk_caps {
  VkPhysicalDeviceProperties props;
  VkPhysicalDeviceDriverProperties driver;
  VkPhysicalDeviceSubgroupProperties subgroup;
  VkPhysicalDeviceShaderSMBuiltinsPropertiesNV sm;
  VkPhysicalDeviceMaintenance3Properties maint3;
  VkPhysicalDeviceShaderAtomicInt64Features int64;
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT afloat;
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR exec;
  VkPhysicalDeviceFeatures2 features;
  int has_driver_props, has_sm, has_int64, has_float, has_exec;
  uint64_t device_local_bytes;
};

static int has_ext(const VkExtensionProperties *exts, uint32_t n, const char *name)
{
  for (uint32_t i = 0; i < n; i++)
    if (strcmp(exts[i].extensionName, name) == 0)
      return 1;
  return 0;
}

static void query_caps(VkPhysicalDevice pd, struct vk_caps *c)
{
  memset(c, 0, sizeof *c);
  uint32_t n = 0;
  VkExtensionProperties *exts = NULL;
  if (vk.vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL) == VK_SUCCESS && n &&
      (exts = calloc(n, sizeof *exts)) != NULL)
    vk.vkEnumerateDeviceExtensionProperties(pd, NULL, &n, exts);
  vk.vkGetPhysicalDeviceProperties(pd, &c->props);
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
  vk.vkGetPhysicalDeviceProperties2(pd, &p2);

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
  vk.vkGetPhysicalDeviceFeatures2(pd, &c->features);
  /* 64-bit atomics need the 64-bit integer type in shaders too. */
  if (!c->features.features.shaderInt64)
    c->int64.shaderBufferInt64Atomics = c->int64.shaderSharedInt64Atomics = 0;
  c->has_exec = c->has_exec && c->exec.pipelineExecutableInfo;

  VkPhysicalDeviceMemoryProperties mem;
  vk.vkGetPhysicalDeviceMemoryProperties(pd, &mem);
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
  query_caps(pd, &c);
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

static int vk_probe(atl_context_t ctx, struct atl_device_info **list, size_t *count)
{
  *list = NULL;
  *count = 0;
  int err = load_api(ctx);
  if (err)
    return err;
  uint32_t n = 0;
  VkResult r = vk.vkEnumeratePhysicalDevices(vk.instance, &n, NULL);
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
  vk.vkEnumeratePhysicalDevices(vk.instance, &n, pds);
  size_t kept = 0;
  for (uint32_t i = 0; i < n; i++) {
    VkPhysicalDeviceProperties p;
    vk.vkGetPhysicalDeviceProperties(pds[i], &p);
    if (p.apiVersion < VK_API_VERSION_1_1)
      continue; /* subgroup and feature queries need 1.1 */
    fill_info(pds[i], i, &out[kept++]);
  }
  free(pds);
  *list = out;
  *count = kept;
  return kept ? 0 : atl__seterr(ctx, ATL_ENODEV, "Vulkan devices found, but none of Vulkan 1.1");
}

/* ---- an open device ---- */

struct vk_buf {
  VkBuffer buffer;
  VkDeviceMemory memory;
  VkDeviceSize size;
};

/* A pipeline of one kernel for one work-group size (the size is a specialization constant). */
struct vk_pipeline {
  uint32_t local;
  VkPipeline pipeline;
  struct vk_pipeline *next;
};

/* A built kernel, cached per (source, entry, defines). */
struct vk_kernel {
  char *key;
  const struct atl__vk_shader *shader;
  VkShaderModule module;
  VkDescriptorSetLayout set_layout;
  VkPipelineLayout layout;
  VkDescriptorPool pool;
  VkDescriptorSet set;
  uint32_t bindings;
  uint64_t init_bits, operand_bits;
  uint32_t value_size, local_words, random, branched;
  struct vk_pipeline *pipelines;
  VkPipeline last; /* the pipeline of the last launch, for its executable properties */
  char instructions[ATL_INSTRUCTIONS_LEN];
  struct vk_kernel *next;
};

struct vk_dev {
  atl_context_t ctx;
  VkPhysicalDevice pd;
  VkDevice device;
  VkQueue queue;
  uint32_t family;
  struct vk_caps caps;
  VkPhysicalDeviceMemoryProperties mem;
  VkCommandPool cmd_pool;
  VkCommandBuffer cmd;
  VkFence fence;
  VkQueryPool queries;
  uint64_t timestamp_mask;
  struct vk_buf staging;
  void *staging_map;
  struct vk_kernel *kernels;
  int has_exec;
#define X(name) PFN_##name name;
  VK_DEVICE_FUNCS(X) VK_EXEC_FUNCS(X)
#undef X
};

#define VK_FAIL(d, call, r)                                                                                            \
  atl__seterr((d)->ctx, (r) == VK_ERROR_OUT_OF_DEVICE_MEMORY ? ATL_ERANGE : ATL_EBACKEND,                              \
              "vulkan: %s failed: %s (%d) at %s:%d", call, vk_result_name(r), (int)(r), __FILE__, __LINE__)

static void kernel_free(struct vk_dev *d, struct vk_kernel *k)
{
  for (struct vk_pipeline *p = k->pipelines, *next; p; p = next) {
    next = p->next;
    d->vkDestroyPipeline(d->device, p->pipeline, NULL);
    free(p);
  }
  if (k->pool)
    d->vkDestroyDescriptorPool(d->device, k->pool, NULL);
  if (k->layout)
    d->vkDestroyPipelineLayout(d->device, k->layout, NULL);
  if (k->set_layout)
    d->vkDestroyDescriptorSetLayout(d->device, k->set_layout, NULL);
  if (k->module)
    d->vkDestroyShaderModule(d->device, k->module, NULL);
  free(k->key);
  free(k);
}

static void buf_destroy(struct vk_dev *d, struct vk_buf *b)
{
  if (b->buffer)
    d->vkDestroyBuffer(d->device, b->buffer, NULL);
  if (b->memory)
    d->vkFreeMemory(d->device, b->memory, NULL);
  memset(b, 0, sizeof *b);
}

static void vk_close(void *handle)
{
  struct vk_dev *d = handle;
  if (d == NULL)
    return;
  if (d->device) {
    for (struct vk_kernel *k = d->kernels, *next; k; k = next) {
      next = k->next;
      kernel_free(d, k);
    }
    buf_destroy(d, &d->staging);
    if (d->queries)
      d->vkDestroyQueryPool(d->device, d->queries, NULL);
    if (d->fence)
      d->vkDestroyFence(d->device, d->fence, NULL);
    if (d->cmd_pool)
      d->vkDestroyCommandPool(d->device, d->cmd_pool, NULL);
    d->vkDestroyDevice(d->device, NULL);
  }
  free(d);
}

static VkPhysicalDevice lookup(const struct atl_device_info *info)
{
  unsigned index = 0;
  uint32_t n = 0;
  if (sscanf(info->id, "vulkan:%u", &index) != 1 || vk.vkEnumeratePhysicalDevices(vk.instance, &n, NULL) ||
      index >= n)
    return VK_NULL_HANDLE;
  VkPhysicalDevice *pds = calloc(n, sizeof *pds), pd = VK_NULL_HANDLE;
  if (pds && vk.vkEnumeratePhysicalDevices(vk.instance, &n, pds) == VK_SUCCESS && index < n)
    pd = pds[index];
  free(pds);
  return pd;
}

static int vk_open(atl_context_t ctx, const struct atl_device_info *info, void **handle)
{
  *handle = NULL;
  int err = load_api(ctx);
  if (err)
    return err;
  struct vk_dev *d = calloc(1, sizeof *d);
  if (d == NULL)
    return ATL_ENOMEM;
  d->ctx = ctx;
  VkResult r = VK_SUCCESS;
  if ((d->pd = lookup(info)) == VK_NULL_HANDLE) {
    err = atl__seterr(ctx, ATL_ENODEV, "vulkan: device %s disappeared", info->id);
    goto out;
  }
  query_caps(d->pd, &d->caps);
  vk.vkGetPhysicalDeviceMemoryProperties(d->pd, &d->mem);
  uint32_t nfam = 0;
  vk.vkGetPhysicalDeviceQueueFamilyProperties(d->pd, &nfam, NULL);
  VkQueueFamilyProperties fams[16];
  if (nfam > 16)
    nfam = 16;
  vk.vkGetPhysicalDeviceQueueFamilyProperties(d->pd, &nfam, fams);
  d->family = UINT32_MAX;
  for (uint32_t f = 0; f < nfam && d->family == UINT32_MAX; f++)
    if ((fams[f].queueFlags & VK_QUEUE_COMPUTE_BIT) && fams[f].timestampValidBits > 0)
      d->family = f;
  if (d->family == UINT32_MAX) {
    err = atl__seterr(ctx, ATL_ENODEV, "vulkan: %s has no compute queue with timestamps", info->name);
    goto out;
  }
  const uint32_t bits = fams[d->family].timestampValidBits;
  d->timestamp_mask = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;

  /* Enable exactly the features the shaders may use, where the device has them. */
  VkPhysicalDeviceShaderAtomicInt64Features int64 = d->caps.int64;
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT afloat = d->caps.afloat;
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR exec = d->caps.exec;
  VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  f2.features.shaderInt64 = d->caps.features.features.shaderInt64;
  const char *exts[4];
  uint32_t next = 0;
  void **chain = &f2.pNext;
  if (d->caps.has_int64) {
    int64.pNext = NULL;
    *chain = &int64;
    chain = &int64.pNext;
    if (d->caps.props.apiVersion < VK_API_VERSION_1_2)
      exts[next++] = VK_KHR_SHADER_ATOMIC_INT64_EXTENSION_NAME;
  }
  if (d->caps.has_float) {
    afloat.pNext = NULL;
    *chain = &afloat;
    chain = &afloat.pNext;
    exts[next++] = VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME;
  }
  if (d->caps.has_exec) {
    exec.pNext = NULL;
    exec.pipelineExecutableInfo = VK_TRUE;
    *chain = &exec;
    chain = &exec.pNext;
    exts[next++] = VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;
  }
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                 .queueFamilyIndex = d->family,
                                 .queueCount = 1,
                                 .pQueuePriorities = &priority};
  VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                            .pNext = &f2,
                            .queueCreateInfoCount = 1,
                            .pQueueCreateInfos = &qci,
                            .enabledExtensionCount = next,
                            .ppEnabledExtensionNames = exts};
  if ((r = vk.vkCreateDevice(d->pd, &dci, NULL, &d->device)) != VK_SUCCESS) {
    err = VK_FAIL(d, "vkCreateDevice", r);
    goto out;
  }
#define X(name)                                                                                                        \
  if ((d->name = (PFN_##name)vk.vkGetDeviceProcAddr(d->device, #name)) == NULL) {                                    \
    err = atl__seterr(ctx, ATL_EBACKEND, "vulkan: the driver lacks %s", #name);                                       \
    goto out;                                                                                                          \
  }
  VK_DEVICE_FUNCS(X)
#undef X
  if (d->caps.has_exec) {
    d->has_exec = 1;
#define X(name) d->has_exec &= (d->name = (PFN_##name)vk.vkGetDeviceProcAddr(d->device, #name)) != NULL;
    VK_EXEC_FUNCS(X)
#undef X
  }
  d->vkGetDeviceQueue(d->device, d->family, 0, &d->queue);
  VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                 .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                 .queueFamilyIndex = d->family};
  VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                     .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                     .commandBufferCount = 1};
  VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkQueryPoolCreateInfo qpi = {
      .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, .queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = 2};
  if ((r = d->vkCreateCommandPool(d->device, &pci, NULL, &d->cmd_pool)) != VK_SUCCESS ||
      (cai.commandPool = d->cmd_pool, r = d->vkAllocateCommandBuffers(d->device, &cai, &d->cmd)) != VK_SUCCESS ||
      (r = d->vkCreateFence(d->device, &fci, NULL, &d->fence)) != VK_SUCCESS ||
      (r = d->vkCreateQueryPool(d->device, &qpi, NULL, &d->queries)) != VK_SUCCESS) {
    err = VK_FAIL(d, "creating the command pool, fence and query pool", r);
    goto out;
  }
out:
  if (err) {
    vk_close(d);
    d = NULL;
  }
  *handle = d;
  return err;
}

/* ---- command submission ---- */

static int begin(struct vk_dev *d)
{
  VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                 .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
  VkResult r = d->vkResetCommandBuffer(d->cmd, 0);
  if (r == VK_SUCCESS)
    r = d->vkBeginCommandBuffer(d->cmd, &bi);
  if (r != VK_SUCCESS)
    return VK_FAIL(d, "vkBeginCommandBuffer", r);
  /* Every command buffer runs alone (the host waits for each), but Vulkan orders memory only through barriers:
   * whatever an earlier one wrote is visible to this one. */
  VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                        .srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
                        .dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT};
  d->vkCmdPipelineBarrier(d->cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &mb, 0,
                          NULL, 0, NULL);
  return 0;
}

/* Ends the command buffer with its writes made visible to the host, submits it and waits. */
static int submit_wait(struct vk_dev *d)
{
  VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                        .srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
                        .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
  d->vkCmdPipelineBarrier(d->cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0,
                          NULL);
  VkResult r = d->vkEndCommandBuffer(d->cmd);
  if (r != VK_SUCCESS)
    return VK_FAIL(d, "vkEndCommandBuffer", r);
  VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &d->cmd};
  if ((r = d->vkResetFences(d->device, 1, &d->fence)) != VK_SUCCESS ||
      (r = d->vkQueueSubmit(d->queue, 1, &si, d->fence)) != VK_SUCCESS)
    return VK_FAIL(d, "vkQueueSubmit", r);
  if ((r = d->vkWaitForFences(d->device, 1, &d->fence, VK_TRUE, UINT64_MAX)) != VK_SUCCESS)
    return VK_FAIL(d, "vkWaitForFences", r);
  return 0;
}

/* ---- memory ---- */

static int memory_type(const struct vk_dev *d, uint32_t bits, VkMemoryPropertyFlags want)
{
  for (uint32_t i = 0; i < d->mem.memoryTypeCount; i++)
    if ((bits & (1u << i)) && (d->mem.memoryTypes[i].propertyFlags & want) == want)
      return (int)i;
  return -1;
}

/* A buffer in memory with @p want, falling back to any memory type for @p fallback. */
static int buf_create(struct vk_dev *d, VkDeviceSize size, VkBufferUsageFlags usage, VkMemoryPropertyFlags want,
                      VkMemoryPropertyFlags fallback, struct vk_buf *b)
{
  memset(b, 0, sizeof *b);
  VkBufferCreateInfo bci = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size, .usage = usage,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
  VkResult r = d->vkCreateBuffer(d->device, &bci, NULL, &b->buffer);
  if (r != VK_SUCCESS)
    return VK_FAIL(d, "vkCreateBuffer", r);
  VkMemoryRequirements req;
  d->vkGetBufferMemoryRequirements(d->device, b->buffer, &req);
  int type = memory_type(d, req.memoryTypeBits, want);
  if (type < 0)
    type = memory_type(d, req.memoryTypeBits, fallback);
  if (type < 0) {
    buf_destroy(d, b);
    return atl__seterr(d->ctx, ATL_EBACKEND, "vulkan: no memory type for a buffer of %llu bytes",
                       (unsigned long long)size);
  }
  VkMemoryAllocateInfo mai = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size, .memoryTypeIndex = (uint32_t)type};
  if ((r = d->vkAllocateMemory(d->device, &mai, NULL, &b->memory)) != VK_SUCCESS ||
      (r = d->vkBindBufferMemory(d->device, b->buffer, b->memory, 0)) != VK_SUCCESS) {
    buf_destroy(d, b);
    return atl__seterr(d->ctx, r == VK_ERROR_OUT_OF_DEVICE_MEMORY ? ATL_ERANGE : ATL_EBACKEND,
                       "vulkan: allocating %llu bytes failed: %s (%d)", (unsigned long long)size, vk_result_name(r),
                       (int)r);
  }
  b->size = size;
  return 0;
}

/* Copies go through one host-visible staging buffer in chunks of at most this many bytes. */
#define STAGING_MAX ((VkDeviceSize)64 << 20)

static int staging(struct vk_dev *d, VkDeviceSize want)
{
  if (want > STAGING_MAX)
    want = STAGING_MAX;
  if (d->staging.buffer && d->staging.size >= want)
    return 0;
  if (d->staging.buffer) {
    d->vkUnmapMemory(d->device, d->staging.memory);
    buf_destroy(d, &d->staging);
  }
  const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  int err = buf_create(d, want, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                       host | VK_MEMORY_PROPERTY_HOST_CACHED_BIT, host, &d->staging);
  if (err)
    return err;
  VkResult r = d->vkMapMemory(d->device, d->staging.memory, 0, VK_WHOLE_SIZE, 0, &d->staging_map);
  if (r != VK_SUCCESS) {
    buf_destroy(d, &d->staging);
    return VK_FAIL(d, "vkMapMemory", r);
  }
  return 0;
}

static int vk_alloc(void *handle, size_t bytes, void **out)
{
  struct vk_dev *d = handle;
  *out = NULL;
  struct vk_buf *b = calloc(1, sizeof *b);
  if (b == NULL)
    return ATL_ENOMEM;
  /* Device-local memory: on a discrete GPU host-visible memory would put the atomics across PCIe. */
  int err = buf_create(d, bytes ? bytes : 4,
                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                           VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                       VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, b);
  if (err) {
    free(b);
    return err;
  }
  /* Touch the memory now, so an out-of-memory shows here rather than at the first launch. */
  if ((err = begin(d)) == 0) {
    d->vkCmdFillBuffer(d->cmd, b->buffer, 0, VK_WHOLE_SIZE, 0);
    err = submit_wait(d);
  }
  if (err) {
    buf_destroy(d, b);
    free(b);
    return err;
  }
  *out = b;
  return 0;
}

static void vk_free(void *handle, void *buf)
{
  struct vk_dev *d = handle;
  if (buf == NULL)
    return;
  buf_destroy(d, buf);
  free(buf);
}

/* Host -> device (write) or device -> host (read), in staging-sized chunks. */
static int copy(struct vk_dev *d, struct vk_buf *b, void *host, size_t bytes, int to_device)
{
  if (bytes > b->size)
    return atl__seterr(d->ctx, ATL_EINVAL, "vulkan: copy of %zu bytes into a buffer of %llu", bytes,
                       (unsigned long long)b->size);
  int err = staging(d, bytes ? bytes : 4);
  for (size_t done = 0; !err && done < bytes;) {
    size_t n = bytes - done < d->staging.size ? bytes - done : (size_t)d->staging.size;
    if (to_device)
      memcpy(d->staging_map, (const char *)host + done, n);
    if ((err = begin(d)))
      break;
    VkBufferCopy region = {.srcOffset = to_device ? 0 : done, .dstOffset = to_device ? done : 0, .size = n};
    d->vkCmdCopyBuffer(d->cmd, to_device ? d->staging.buffer : b->buffer, to_device ? b->buffer : d->staging.buffer,
                       1, &region);
    if ((err = submit_wait(d)))
      break;
    if (!to_device)
      memcpy((char *)host + done, d->staging_map, n);
    done += n;
  }
  return err;
}

static int vk_write(void *handle, void *buf, const void *src, size_t bytes)
{
  return copy(handle, buf, (void *)src, bytes, 1);
}

static int vk_read(void *handle, void *buf, void *dst, size_t bytes) { return copy(handle, buf, dst, bytes, 0); }

static int vk_fill(void *handle, void *buf, const void *pattern, size_t pattern_size, size_t bytes)
{
  struct vk_dev *d = handle;
  struct vk_buf *b = buf;
  uint32_t words[2] = {0, 0};
  if ((pattern_size != 4 && pattern_size != 8) || bytes % pattern_size || bytes > b->size)
    return atl__seterr(d->ctx, ATL_EINVAL, "vulkan: fill of %zu bytes with a %zu-byte pattern", bytes,
                       pattern_size);
  memcpy(words, pattern, pattern_size);
  if (pattern_size == 4 || words[0] == words[1]) {
    /* vkCmdFillBuffer repeats 4 bytes. */
    int err = begin(d);
    if (err)
      return err;
    if (bytes)
      d->vkCmdFillBuffer(d->cmd, b->buffer, 0, bytes, words[0]);
    return submit_wait(d);
  }
  /* An 8-byte pattern of two different halves: write it from the host in staging-sized pieces. */
  int err = staging(d, bytes ? bytes : 8);
  for (size_t done = 0; !err && done < bytes;) {
    size_t n = bytes - done < d->staging.size ? bytes - done : (size_t)d->staging.size;
    n -= n % 8;
    for (size_t i = 0; i < n; i += 8)
      memcpy((char *)d->staging_map + i, pattern, 8);
    if ((err = begin(d)))
      break;
    VkBufferCopy region = {.srcOffset = 0, .dstOffset = done, .size = n};
    d->vkCmdCopyBuffer(d->cmd, d->staging.buffer, b->buffer, 1, &region);
    err = submit_wait(d);
    done += n;
  }
  return err;
}

/* ---- kernels ---- */

/* The value of NAME=VALUE in space-separated defines (strtoull base 0, so 0x... works), or @p dflt. */
static uint64_t define_value(const char *defines, const char *name, uint64_t dflt)
{
  size_t n = strlen(name);
  for (const char *p = defines; (p = strstr(p, name)) != NULL; p += n)
    if ((p == defines || p[-1] == ' ') && p[n] == '=')
      return strtoull(p + n + 1, NULL, 0);
  return dflt;
}

/* The text after PREFIX (up to a space) in defines, into @p out; "" if absent. */
static void define_suffix(const char *defines, const char *prefix, char *out, size_t len)
{
  size_t n = strlen(prefix);
  out[0] = '\0';
  for (const char *p = defines; (p = strstr(p, prefix)) != NULL; p += n)
    if (p == defines || p[-1] == ' ') {
      size_t k = strcspn(p + n, " =");
      snprintf(out, len, "%.*s", (int)k, p + n);
      return;
    }
}

/* Finds the variant a build request names; ATL_ENOTSUP with the reason where there is none or the device cannot
 * run it. */
static int pick_shader(struct vk_dev *d, const struct atl_build *req, struct vk_kernel *k)
{
  char type[16], op[32], scope[16];
  define_suffix(req->defines, "TYPE_", type, sizeof type);
  define_suffix(req->defines, "OP_", op, sizeof op);
  define_suffix(req->defines, "SCOPE_", scope, sizeof scope);
  const int local = (int)define_value(req->defines, "SPACE_LOCAL", 0);
  const int used = (int)define_value(req->defines, "RESULT_USED", 0);
  const int rmw = strcmp(req->source, "rmw") == 0;
  if (rmw && strcmp(scope, "system") == 0)
    return atl__seterr(d->ctx, ATL_ENOTSUP,
                       "Vulkan has no system scope for shader atomics (CrossDevice is not allowed; device is the "
                       "widest)");
  if (rmw && strcmp(op, "fetch_add") != 0 && strcmp(type, "f32") == 0)
    return atl__seterr(d->ctx, ATL_ENOTSUP, "f32 is measured with fetch_add only");
  if (rmw && strcmp(type, "u64") == 0 &&
      !(local ? d->caps.int64.shaderSharedInt64Atomics : d->caps.int64.shaderBufferInt64Atomics))
    return atl__seterr(d->ctx, ATL_ENOTSUP, "%s has no 64-bit %s atomics (shader%sInt64Atomics)",
                       d->caps.props.deviceName, local ? "shared" : "buffer", local ? "Shared" : "Buffer");
  if (rmw && strcmp(type, "f32") == 0 &&
      !(local ? d->caps.afloat.shaderSharedFloat32AtomicAdd : d->caps.afloat.shaderBufferFloat32AtomicAdd))
    return atl__seterr(d->ctx, ATL_ENOTSUP, "%s has no f32 atomic add on %s memory (VK_EXT_shader_atomic_float "
                       "shader%sFloat32AtomicAdd)", d->caps.props.deviceName, local ? "shared" : "buffer",
                       local ? "Shared" : "Buffer");
  for (size_t i = 0; i < atl__vk_shader_count; i++) {
    const struct atl__vk_shader *s = &atl__vk_shaders[i];
    if (strcmp(s->source, req->source) != 0)
      continue;
    if (rmw && (strcmp(s->type, type) || strcmp(s->op, op) || strcmp(s->scope, scope) || s->space_local != local ||
                s->result_used != used))
      continue;
    k->shader = s;
    break;
  }
  if (k->shader == NULL)
    return atl__seterr(d->ctx, ATL_ENOTSUP, "vulkan: no SPIR-V variant of '%s' for '%s' (the Vulkan backend has "
                       "shaders for rmw and the occupancy discovery only)", req->source, req->defines);
  k->value_size = strcmp(type, "u64") == 0 ? 8 : 4;
  k->init_bits = define_value(req->defines, "INIT_BITS", 0);
  k->operand_bits = define_value(req->defines, "OPERAND_BITS", 0);
  k->local_words = (uint32_t)define_value(req->defines, "LOCAL_WORDS", 1);
  k->random = define_value(req->defines, "RANDOM", 0) != 0;
  k->branched = define_value(req->defines, "BRANCHED", 0) != 0;
  return 0;
}

/* Push constants: the scalar arguments in order (u64 aligned to 8); at most this many bytes. */
#define PUSH_BYTES 64u

static int vk_build(void *handle, const struct atl_build *req, void **kernel)
{
  struct vk_dev *d = handle;
  char *key = atl__build_key(req);
  if (key == NULL)
    return ATL_ENOMEM;
  for (struct vk_kernel *k = d->kernels; k; k = k->next)
    if (strcmp(k->key, key) == 0) {
      free(key);
      *kernel = k;
      return 0;
    }
  struct vk_kernel *k = calloc(1, sizeof *k);
  if (k == NULL) {
    free(key);
    return ATL_ENOMEM;
  }
  k->key = key;
  int err = pick_shader(d, req, k);
  if (err) {
    kernel_free(d, k);
    return err;
  }
  const int bindings = atl__spirv_bindings(k->shader->words, k->shader->nwords);
  if (bindings < 0) {
    kernel_free(d, k);
    return atl__seterr(d->ctx, ATL_EBUILD, "vulkan: the embedded SPIR-V of '%s' is malformed", req->source);
  }
  k->bindings = (uint32_t)bindings;
  atl__spirv_atomics(k->shader->words, k->shader->nwords, k->instructions, sizeof k->instructions);
  VkShaderModuleCreateInfo smi = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                  .codeSize = k->shader->nwords * sizeof(uint32_t),
                                  .pCode = k->shader->words};
  VkDescriptorSetLayoutBinding lb[16];
  if (k->bindings > 16) {
    kernel_free(d, k);
    return atl__seterr(d->ctx, ATL_EBUILD, "vulkan: '%s' has %u bindings, at most 16", req->source, k->bindings);
  }
  for (uint32_t i = 0; i < k->bindings; i++)
    lb[i] = (VkDescriptorSetLayoutBinding){.binding = i,
                                           .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                           .descriptorCount = 1,
                                           .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
  VkDescriptorSetLayoutCreateInfo dli = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = k->bindings, .pBindings = lb};
  VkPushConstantRange pcr = {.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .offset = 0, .size = PUSH_BYTES};
  VkPipelineLayoutCreateInfo pli = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                    .setLayoutCount = 1,
                                    .pushConstantRangeCount = 1,
                                    .pPushConstantRanges = &pcr};
  VkDescriptorPoolSize ps = {.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = k->bindings ? k->bindings : 1};
  VkDescriptorPoolCreateInfo dpi = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &ps};
  VkDescriptorSetAllocateInfo dai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, .descriptorSetCount = 1};
  VkResult r;
  if ((r = d->vkCreateShaderModule(d->device, &smi, NULL, &k->module)) != VK_SUCCESS ||
      (r = d->vkCreateDescriptorSetLayout(d->device, &dli, NULL, &k->set_layout)) != VK_SUCCESS ||
      (pli.pSetLayouts = &k->set_layout, r = d->vkCreatePipelineLayout(d->device, &pli, NULL, &k->layout)) != VK_SUCCESS ||
      (r = d->vkCreateDescriptorPool(d->device, &dpi, NULL, &k->pool)) != VK_SUCCESS ||
      (dai.descriptorPool = k->pool, dai.pSetLayouts = &k->set_layout,
       r = d->vkAllocateDescriptorSets(d->device, &dai, &k->set)) != VK_SUCCESS) {
    err = atl__seterr(d->ctx, ATL_EBUILD, "vulkan: preparing '%s' (%s) failed: %s (%d)", req->source, req->defines,
                      vk_result_name(r), (int)r);
    kernel_free(d, k);
    return err;
  }
  k->next = d->kernels;
  d->kernels = k;
  *kernel = k;
  return 0;
}

/* The kernel's pipeline for a work-group size, created on first use. */
static int pipeline_for(struct vk_dev *d, struct vk_kernel *k, uint32_t local, VkPipeline *out)
{
  for (struct vk_pipeline *p = k->pipelines; p; p = p->next)
    if (p->local == local) {
      *out = p->pipeline;
      return 0;
    }
  /* The specialization constants, ids as rmw.comp declares them: 0 work-group size, 1 start value, 2 operand
   * (raw bits of the element type), 3 shared words, 4 random, 5 branched. A shader ignores ids it lacks. */
  struct {
    uint32_t local;
    uint32_t pad;
    uint64_t init, operand;
    uint32_t words, random, branched;
  } data = {local, 0, k->init_bits, k->operand_bits, k->local_words, k->random, k->branched};
  /* 4-byte values sit in the low half of their 8-byte slot (little-endian, as every Vulkan device's host is). */
  VkSpecializationMapEntry map[] = {
      {0, offsetof(__typeof__(data), local), 4},
      {1, offsetof(__typeof__(data), init), k->value_size},
      {2, offsetof(__typeof__(data), operand), k->value_size},
      {3, offsetof(__typeof__(data), words), 4},
      {4, offsetof(__typeof__(data), random), 4},
      {5, offsetof(__typeof__(data), branched), 4},
  };
  VkSpecializationInfo si = {6, map, sizeof data, &data};
  VkComputePipelineCreateInfo cpi = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .flags = d->has_exec ? VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR |
                                 VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR
                           : 0,
      .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                .module = k->module,
                .pName = "main",
                .pSpecializationInfo = &si},
      .layout = k->layout};
  struct vk_pipeline *p = calloc(1, sizeof *p);
  if (p == NULL)
    return ATL_ENOMEM;
  VkResult r = d->vkCreateComputePipelines(d->device, VK_NULL_HANDLE, 1, &cpi, NULL, &p->pipeline);
  if (r != VK_SUCCESS) {
    free(p);
    return atl__seterr(d->ctx, ATL_EBUILD, "vulkan: creating the pipeline of '%s' for work-group %u failed: %s (%d)",
                       k->key, local, vk_result_name(r), (int)r);
  }
  p->local = local;
  p->next = k->pipelines;
  k->pipelines = p;
  *out = p->pipeline;
  return 0;
}

static int vk_launch(void *handle, void *kernel, const struct atl_launch *launch, double *device_ms)
{
  struct vk_dev *d = handle;
  struct vk_kernel *k = kernel;
  const VkPhysicalDeviceLimits *lim = &d->caps.props.limits;
  if (launch->local == 0 || launch->global % launch->local || launch->local > lim->maxComputeWorkGroupSize[0])
    return atl__seterr(d->ctx, ATL_EINVAL, "vulkan: work-group %zu of %zu threads is not allowed (1 to %u, dividing "
                       "the grid)", launch->local, launch->global, lim->maxComputeWorkGroupSize[0]);
  const size_t groups = launch->global / launch->local;
  if (groups > lim->maxComputeWorkGroupCount[0])
    return atl__seterr(d->ctx, ATL_EINVAL, "vulkan: %zu work-groups is not allowed: at most %u on %s", groups,
                       lim->maxComputeWorkGroupCount[0], d->caps.props.deviceName);
  VkDescriptorBufferInfo infos[16];
  VkWriteDescriptorSet writes[16];
  unsigned char push[PUSH_BYTES];
  uint32_t nbuf = 0, npush = 0;
  for (size_t i = 0; i < launch->nargs; i++) {
    const struct atl_arg *a = &launch->args[i];
    if (a->kind == ATL_ARG_BUFFER) {
      if (nbuf == k->bindings)
        return atl__seterr(d->ctx, ATL_EINVAL, "vulkan: '%s' takes %u buffers, more were given", k->key,
                           k->bindings);
      infos[nbuf] = (VkDescriptorBufferInfo){((struct vk_buf *)a->buffer)->buffer, 0, VK_WHOLE_SIZE};
      writes[nbuf] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                            .dstSet = k->set,
                                            .dstBinding = nbuf,
                                            .descriptorCount = 1,
                                            .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                            .pBufferInfo = &infos[nbuf]};
      nbuf++;
    } else if (a->kind == ATL_ARG_U32 || a->kind == ATL_ARG_U64) {
      const uint32_t size = a->kind == ATL_ARG_U32 ? 4 : 8;
      npush = (npush + size - 1) / size * size;
      if (npush + size > PUSH_BYTES)
        return atl__seterr(d->ctx, ATL_EINVAL, "vulkan: more than %u bytes of scalar arguments", PUSH_BYTES);
      uint32_t v32 = (uint32_t)a->value;
      memcpy(push + npush, size == 4 ? (const void *)&v32 : (const void *)&a->value, size);
      npush += size;
    } else {
      return atl__seterr(d->ctx, ATL_ENOTSUP, "vulkan: local-memory arguments sized at launch are not supported "
                         "(shared arrays are sized by a specialization constant)");
    }
  }
  if (nbuf != k->bindings)
    return atl__seterr(d->ctx, ATL_EINVAL, "vulkan: '%s' takes %u buffers, %u were given", k->key, k->bindings,
                       nbuf);
  VkPipeline pipeline = VK_NULL_HANDLE;
  int err = pipeline_for(d, k, (uint32_t)launch->local, &pipeline);
  if (err)
    return err;
  k->last = pipeline;
  d->vkUpdateDescriptorSets(d->device, nbuf, writes, 0, NULL);
  if ((err = begin(d)))
    return err;
  d->vkCmdResetQueryPool(d->cmd, d->queries, 0, 2);
  d->vkCmdBindPipeline(d->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  d->vkCmdBindDescriptorSets(d->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k->layout, 0, 1, &k->set, 0, NULL);
  if (npush)
    d->vkCmdPushConstants(d->cmd, k->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, npush, push);
  d->vkCmdWriteTimestamp(d->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, d->queries, 0);
  d->vkCmdDispatch(d->cmd, (uint32_t)groups, 1, 1);
  d->vkCmdWriteTimestamp(d->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, d->queries, 1);
  if ((err = submit_wait(d)))
    return err;
  uint64_t ts[2] = {0, 0};
  VkResult r = d->vkGetQueryPoolResults(d->device, d->queries, 0, 2, sizeof ts, ts, sizeof ts[0],
                                        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
  if (r != VK_SUCCESS)
    return VK_FAIL(d, "vkGetQueryPoolResults", r);
  const uint64_t ticks = ((ts[1] & d->timestamp_mask) - (ts[0] & d->timestamp_mask)) & d->timestamp_mask;
  *device_ms = (double)ticks * (double)lim->timestampPeriod * 1e-6;
  return 0;
}

static int vk_describe_kernel(void *handle, void *kernel, char *buf, size_t len)
{
  (void)handle;
  const struct vk_kernel *k = kernel;
  snprintf(buf, len, "%s", k->instructions);
  return 0;
}

/* A growing text (the executable properties' report). */
struct text {
  char *s;
  size_t len, cap;
};

static void text_add(struct text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void text_add(struct text *t, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0 || (t->s == NULL && t->cap == SIZE_MAX))
    return;
  if (t->len + (size_t)n + 1 > t->cap) {
    size_t cap = (t->len + (size_t)n + 1) * 2;
    char *grown = realloc(t->s, cap);
    if (grown == NULL) {
      free(t->s);
      t->s = NULL;
      t->cap = SIZE_MAX; /* out of memory: stays empty */
      return;
    }
    t->s = grown;
    t->cap = cap;
  }
  va_start(ap, fmt);
  vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
  va_end(ap);
  t->len += (size_t)n;
}

/* What VK_KHR_pipeline_executable_properties tells of one pipeline: each executable's name and subgroup size,
 * its statistics and its internal representations (text ones whole; binary ones by size). */
static void executables(struct vk_dev *d, VkPipeline pipeline, struct text *t)
{
  VkPipelineInfoKHR pi = {.sType = VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR, .pipeline = pipeline};
  uint32_t n = 0;
  if (d->vkGetPipelineExecutablePropertiesKHR(d->device, &pi, &n, NULL) != VK_SUCCESS || n == 0) {
    text_add(t, "the driver lists no executable for this pipeline\n");
    return;
  }
  VkPipelineExecutablePropertiesKHR *props = calloc(n, sizeof *props);
  if (props == NULL)
    return;
  for (uint32_t i = 0; i < n; i++)
    props[i].sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR;
  d->vkGetPipelineExecutablePropertiesKHR(d->device, &pi, &n, props);
  for (uint32_t i = 0; i < n; i++) {
    text_add(t, "== executable %u: %s (%s), subgroup size %u\n", i, props[i].name, props[i].description,
             props[i].subgroupSize);
    VkPipelineExecutableInfoKHR ei = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR, .pipeline = pipeline, .executableIndex = i};
    uint32_t ns = 0;
    VkPipelineExecutableStatisticKHR *stats = NULL;
    if (d->vkGetPipelineExecutableStatisticsKHR(d->device, &ei, &ns, NULL) == VK_SUCCESS && ns &&
        (stats = calloc(ns, sizeof *stats)) != NULL) {
      for (uint32_t k = 0; k < ns; k++)
        stats[k].sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR;
      d->vkGetPipelineExecutableStatisticsKHR(d->device, &ei, &ns, stats);
      for (uint32_t k = 0; k < ns; k++) {
        const VkPipelineExecutableStatisticKHR *st = &stats[k];
        switch (st->format) {
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
          text_add(t, "statistic %s: %s\n", st->name, st->value.b32 ? "true" : "false");
          break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
          text_add(t, "statistic %s: %lld\n", st->name, (long long)st->value.i64);
          break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
          text_add(t, "statistic %s: %llu\n", st->name, (unsigned long long)st->value.u64);
          break;
        default:
          text_add(t, "statistic %s: %g\n", st->name, st->value.f64);
          break;
        }
      }
    }
    free(stats);
    uint32_t nr = 0;
    VkPipelineExecutableInternalRepresentationKHR *irs = NULL;
    if (d->vkGetPipelineExecutableInternalRepresentationsKHR(d->device, &ei, &nr, NULL) == VK_SUCCESS && nr &&
        (irs = calloc(nr, sizeof *irs)) != NULL) {
      for (uint32_t k = 0; k < nr; k++)
        irs[k].sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INTERNAL_REPRESENTATION_KHR;
      /* First the sizes, then the data. */
      d->vkGetPipelineExecutableInternalRepresentationsKHR(d->device, &ei, &nr, irs);
      int ok = 1;
      for (uint32_t k = 0; k < nr; k++)
        ok &= (irs[k].pData = calloc(1, irs[k].dataSize + 1)) != NULL;
      if (ok)
        d->vkGetPipelineExecutableInternalRepresentationsKHR(d->device, &ei, &nr, irs);
      for (uint32_t k = 0; k < nr && ok; k++) {
        text_add(t, "-- representation %s (%s), %zu bytes%s\n", irs[k].name, irs[k].description, irs[k].dataSize,
                 irs[k].isText ? ":" : " of binary");
        if (irs[k].isText)
          text_add(t, "%.*s\n", (int)irs[k].dataSize, (const char *)irs[k].pData);
      }
      for (uint32_t k = 0; k < nr; k++)
        free(irs[k].pData);
    }
    free(irs);
  }
  free(props);
}

/* The driver's own view of a kernel (VK_KHR_pipeline_executable_properties): statistics and internal
 * representations (on some drivers the machine code) of the pipeline of the last launch, or of one for the
 * largest work-group where there was none. NULL with the reason where the driver does not expose them. */
static char *vk_kernel_isa(void *handle, void *kernel, char *why, size_t why_len)
{
  struct vk_dev *d = handle;
  struct vk_kernel *k = kernel;
  if (!d->has_exec) {
    snprintf(why, why_len, "unavailable: %s does not expose VK_KHR_pipeline_executable_properties "
             "(pipelineExecutableInfo); the SPIR-V's atomics are in the row's instructions", d->caps.props.deviceName);
    return NULL;
  }
  VkPipeline pipeline = k->last;
  if (pipeline == VK_NULL_HANDLE) {
    const VkPhysicalDeviceLimits *lim = &d->caps.props.limits;
    uint32_t local = lim->maxComputeWorkGroupInvocations < lim->maxComputeWorkGroupSize[0]
                         ? lim->maxComputeWorkGroupInvocations
                         : lim->maxComputeWorkGroupSize[0];
    if (pipeline_for(d, k, local, &pipeline) != 0) {
      snprintf(why, why_len, "%s", "no pipeline: creating one failed");
      return NULL;
    }
  }
  struct text t = {0};
  text_add(&t, "pipeline executable properties of %s\n", k->key);
  executables(d, pipeline, &t);
  if (t.s == NULL)
    snprintf(why, why_len, "out of memory");
  return t.s;
}

static int vk_occupancy_estimate(void *handle, void *kernel, size_t wg_size, unsigned *groups, char *method,
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

int atl_vulkan_backend_init(struct atl_backend_ops *ops)
{
  memset(ops, 0, sizeof *ops);
  ops->name = "vulkan";
  ops->probe = vk_probe;
  ops->open = vk_open;
  ops->close = vk_close;
  ops->alloc = vk_alloc;
  ops->free = vk_free;
  ops->fill = vk_fill;
  ops->write = vk_write;
  ops->read = vk_read;
  ops->build = vk_build;
  ops->launch = vk_launch;
  ops->describe_kernel = vk_describe_kernel;
  ops->occupancy_estimate = vk_occupancy_estimate;
  ops->kernel_isa = vk_kernel_isa;
  return 0;
}
