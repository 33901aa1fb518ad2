/*
 * The Vulkan loader (libvulkan.so.1), opened at run time with dlopen like the
 * CUDA backend's driver, so the binary starts (saying Vulkan is unavailable)
 * where there is no loader; every entry point through vkGetInstanceProcAddr.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "vk_internal.h"

struct atl__vk_loader atl__vk;

const char *atl__vk_result_name(VkResult r)
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

int atl__vk_load_api(atl_context_t ctx)
{
  if (atl__vk.loaded == 1)
    return 0;
  if (atl__vk.loaded == -1)
    return atl__seterr(ctx, ATL_ENODEV, "%s", atl__vk.why);
  atl__vk.loaded = -1;
  atl__vk.lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (atl__vk.lib == NULL) {
    snprintf(atl__vk.why, sizeof atl__vk.why, "Vulkan is unavailable: no Vulkan loader (libvulkan.so.1 not found)");
    return atl__seterr(ctx, ATL_ENODEV, "%s", atl__vk.why);
  }
  atl__vk.vkGetInstanceProcAddr = (PFN_vkGetInstanceProcAddr)dlsym(atl__vk.lib, "vkGetInstanceProcAddr");
  PFN_vkCreateInstance create =
      atl__vk.vkGetInstanceProcAddr ? (PFN_vkCreateInstance)atl__vk.vkGetInstanceProcAddr(NULL, "vkCreateInstance")
                                    : NULL;
  PFN_vkEnumerateInstanceVersion version =
      atl__vk.vkGetInstanceProcAddr
          ? (PFN_vkEnumerateInstanceVersion)atl__vk.vkGetInstanceProcAddr(NULL, "vkEnumerateInstanceVersion")
          : NULL;
  if (create == NULL || version == NULL) {
    snprintf(atl__vk.why, sizeof atl__vk.why,
             "Vulkan is unavailable: the loader lacks vkCreateInstance (Vulkan 1.1 needed)");
    return atl__seterr(ctx, ATL_ENODEV, "%s", atl__vk.why);
  }
  uint32_t loader = 0;
  version(&loader);
  if (loader < VK_API_VERSION_1_1) {
    snprintf(atl__vk.why, sizeof atl__vk.why, "Vulkan is unavailable: the loader is Vulkan %u.%u, 1.1 is needed",
             VK_API_VERSION_MAJOR(loader), VK_API_VERSION_MINOR(loader));
    return atl__seterr(ctx, ATL_ENODEV, "%s", atl__vk.why);
  }
  atl__vk.api_version = loader < VK_API_VERSION_1_3 ? loader : VK_API_VERSION_1_3;
  VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                           .pApplicationName = "atomlab",
                           .apiVersion = atl__vk.api_version};
  VkInstanceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
  VkResult r = create(&ci, NULL, &atl__vk.instance);
  if (r != VK_SUCCESS) {
    snprintf(atl__vk.why, sizeof atl__vk.why, "Vulkan is unavailable: vkCreateInstance failed: %s (%d)%s",
             atl__vk_result_name(r), (int)r,
             r == VK_ERROR_INCOMPATIBLE_DRIVER ? " (no Vulkan driver: no ICD file found)" : "");
    return atl__seterr(ctx, ATL_ENODEV, "%s", atl__vk.why);
  }
#define X(name)                                                                                                        \
  if ((atl__vk.name = (PFN_##name)atl__vk.vkGetInstanceProcAddr(atl__vk.instance, #name)) == NULL) {                   \
    snprintf(atl__vk.why, sizeof atl__vk.why, "Vulkan is unavailable: the loader lacks %s", #name);                    \
    return atl__seterr(ctx, ATL_ENODEV, "%s", atl__vk.why);                                                            \
  }
  VK_INSTANCE_FUNCS(X)
#undef X
  atl__vk.loaded = 1;
  return 0;
}
