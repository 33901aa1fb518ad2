/*
 * The Vulkan loader (libvulkan.so.1), opened at run time with dlopen like the
 * CUDA backend's driver, so the binary starts (saying Vulkan is unavailable)
 * where there is no loader; every entry point through vkGetInstanceProcAddr.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "vk_internal.h"

struct atl__vk_loader atl__vk = {.rt = ATL__RUNTIME_INIT};

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

/* The loader and the instance, once per process (through atl__runtime_load): reasons go to atl__vk.rt. */
static int load_api_now(atl_context_t ctx)
{
  const int go =
      atl__runtime_open(ctx, &atl__vk.rt, "libvulkan.so.1", "Vulkan is unavailable: no Vulkan loader", &atl__vk.lib);
  if (go <= 0)
    return go;
  atl__vk.vkGetInstanceProcAddr = (PFN_vkGetInstanceProcAddr)dlsym(atl__vk.lib, "vkGetInstanceProcAddr");
  PFN_vkCreateInstance create =
      atl__vk.vkGetInstanceProcAddr ? (PFN_vkCreateInstance)atl__vk.vkGetInstanceProcAddr(NULL, "vkCreateInstance")
                                    : NULL;
  PFN_vkEnumerateInstanceVersion version =
      atl__vk.vkGetInstanceProcAddr
          ? (PFN_vkEnumerateInstanceVersion)atl__vk.vkGetInstanceProcAddr(NULL, "vkEnumerateInstanceVersion")
          : NULL;
  if (create == NULL || version == NULL)
    return atl__runtime_fail(ctx, &atl__vk.rt,
                             "Vulkan is unavailable: the loader lacks vkCreateInstance (Vulkan 1.1 needed)");
  uint32_t loader = 0;
  version(&loader);
  if (loader < VK_API_VERSION_1_1)
    return atl__runtime_fail(ctx, &atl__vk.rt, "Vulkan is unavailable: the loader is Vulkan %u.%u, 1.1 is needed",
                             VK_API_VERSION_MAJOR(loader), VK_API_VERSION_MINOR(loader));
  atl__vk.api_version = loader < VK_API_VERSION_1_3 ? loader : VK_API_VERSION_1_3;
  VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                           .pApplicationName = "atomlab",
                           .apiVersion = atl__vk.api_version};
  VkInstanceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
  VkResult r = create(&ci, NULL, &atl__vk.instance);
  if (r != VK_SUCCESS)
    return atl__runtime_fail(ctx, &atl__vk.rt, "Vulkan is unavailable: vkCreateInstance failed: %s (%d)%s",
                             atl__vk_result_name(r), (int)r,
                             r == VK_ERROR_INCOMPATIBLE_DRIVER ? " (no Vulkan driver: no ICD file found)" : "");
#define X(name)                                                                                                        \
  if ((atl__vk.name = (PFN_##name)atl__vk.vkGetInstanceProcAddr(atl__vk.instance, #name)) == NULL)                     \
    return atl__runtime_fail(ctx, &atl__vk.rt, "Vulkan is unavailable: the loader lacks %s", #name);
  VK_INSTANCE_FUNCS(X)
#undef X
  atl__vk.rt.loaded = 1;
  return 0;
}

static void load_api_once(void) { (void)load_api_now(NULL); }

int atl__vk_load_api(atl_context_t ctx) { return atl__runtime_load(ctx, &atl__vk.rt, load_api_once); }
