/*
 * An open Vulkan device: the queue family with timestamps, exactly the
 * features the shaders may use enabled, the command pool, fence and
 * timestamp queries; closing it; and command submission (each command buffer
 * runs alone, opened and closed by full memory barriers).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_internal.h"

void atl__vk_close(void *handle)
{
  struct vk_dev *d = handle;
  if (d == NULL)
    return;
  if (d->device) {
    for (struct atl__built *b = d->kernels, *next; b; b = next) {
      next = b->next;
      atl__vk_kernel_free(d, (struct vk_kernel *)b);
    }
    atl__vk_buf_destroy(d, &d->staging);
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

/* ATL_VULKAN_ITERS: where rmw.comp's loop count comes from (docs/design/vulkan.md); unset or empty is `push`: NVIDIA's
 * driver (580.159) miscompiles shared u64 and/or/xor and f32 add loops whose count it reads from a storage buffer
 * (tests/vulkan/repro_shared_atomics, variant ww-iters-buffer), and the push constant runs them right at the same
 * rates (H100, reference run: vulkan). */
static int iters_from_env(atl_context_t ctx, enum vk_iters_from *out)
{
  static const char *const names[] = {"buffer", "push", "subgroup"};
  const char *v = getenv("ATL_VULKAN_ITERS");
  *out = VK_ITERS_PUSH;
  if (v == NULL || *v == '\0')
    return 0;
  for (int i = 0; i < 3; i++)
    if (strcmp(v, names[i]) == 0) {
      *out = (enum vk_iters_from)i;
      return 0;
    }
  return atl__seterr(ctx, ATL_EINVAL, "ATL_VULKAN_ITERS='%s' is not allowed: buffer, push or subgroup", v);
}

/* ATL_VULKAN_MEMORY and ATL_VULKAN_OFFSET: where the kernels' buffers are placed (docs/design/vulkan.md). */
static int placement_from_env(struct vk_dev *d)
{
  static const char *const kinds[] = {"device", "dedicated", "host-visible"};
  const char *m = getenv("ATL_VULKAN_MEMORY"), *o = getenv("ATL_VULKAN_OFFSET");
  d->memory_kind = VK_MEM_DEVICE;
  d->bind_offset = 0;
  if (m && *m) {
    int found = 0;
    for (int i = 0; i < 3 && !found; i++)
      if (strcmp(m, kinds[i]) == 0) {
        d->memory_kind = (enum vk_memory_kind)i;
        found = 1;
      }
    if (!found)
      return atl__seterr(d->ctx, ATL_EINVAL, "ATL_VULKAN_MEMORY='%s' is not allowed: device, dedicated or "
                         "host-visible", m);
  }
  if (o && *o) {
    char *end;
    const unsigned long long v = strtoull(o, &end, 10);
    if (*end || *o == '-' || v > (1ull << 30))
      return atl__seterr(d->ctx, ATL_EINVAL, "ATL_VULKAN_OFFSET='%s' is not allowed: bytes, 0 to %llu", o,
                         1ull << 30);
    if (v && d->memory_kind == VK_MEM_DEDICATED)
      return atl__seterr(d->ctx, ATL_EINVAL, "ATL_VULKAN_OFFSET='%s' is not allowed with ATL_VULKAN_MEMORY="
                         "dedicated (a dedicated allocation is bound at 0)", o);
    d->bind_offset = v;
  }
  return 0;
}

static VkPhysicalDevice lookup(const struct atl_device_info *info)
{
  unsigned index = 0;
  uint32_t n = 0;
  if (sscanf(info->id, "vulkan:%u", &index) != 1 || atl__vk.vkEnumeratePhysicalDevices(atl__vk.instance, &n, NULL) ||
      index >= n)
    return VK_NULL_HANDLE;
  VkPhysicalDevice *pds = calloc(n, sizeof *pds), pd = VK_NULL_HANDLE;
  if (pds && atl__vk.vkEnumeratePhysicalDevices(atl__vk.instance, &n, pds) == VK_SUCCESS && index < n)
    pd = pds[index];
  free(pds);
  return pd;
}

int atl__vk_open(atl_context_t ctx, const struct atl_device_info *info, void **handle)
{
  *handle = NULL;
  int err = atl__vk_load_api(ctx);
  if (err)
    return err;
  struct vk_dev *d = calloc(1, sizeof *d);
  if (d == NULL)
    return ATL_ENOMEM;
  d->ctx = ctx;
  VkResult r = VK_SUCCESS;
  if ((err = iters_from_env(ctx, &d->iters_from)) || (err = placement_from_env(d)))
    goto out;
  if ((d->pd = lookup(info)) == VK_NULL_HANDLE) {
    err = atl__seterr(ctx, ATL_ENODEV, "vulkan: device %s disappeared", info->id);
    goto out;
  }
  atl__vk_query_caps(d->pd, &d->caps);
  atl__vk.vkGetPhysicalDeviceMemoryProperties(d->pd, &d->mem);
  uint32_t nfam = 0;
  atl__vk.vkGetPhysicalDeviceQueueFamilyProperties(d->pd, &nfam, NULL);
  VkQueueFamilyProperties fams[16];
  if (nfam > 16)
    nfam = 16;
  atl__vk.vkGetPhysicalDeviceQueueFamilyProperties(d->pd, &nfam, fams);
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
  if ((r = atl__vk.vkCreateDevice(d->pd, &dci, NULL, &d->device)) != VK_SUCCESS) {
    err = VK_FAIL(d, "vkCreateDevice", r);
    goto out;
  }
#define X(name)                                                                                                        \
  if ((d->name = (PFN_##name)atl__vk.vkGetDeviceProcAddr(d->device, #name)) == NULL) {                                 \
    err = atl__seterr(ctx, ATL_EBACKEND, "vulkan: the driver lacks %s", #name);                                       \
    goto out;                                                                                                          \
  }
  VK_DEVICE_FUNCS(X)
#undef X
  if (d->caps.has_exec) {
    d->has_exec = 1;
#define X(name) d->has_exec &= (d->name = (PFN_##name)atl__vk.vkGetDeviceProcAddr(d->device, #name)) != NULL;
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
    atl__vk_close(d);
    d = NULL;
  }
  *handle = d;
  return err;
}

/* ---- command submission ---- */

int atl__vk_begin(struct vk_dev *d)
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
int atl__vk_submit_wait(struct vk_dev *d)
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
