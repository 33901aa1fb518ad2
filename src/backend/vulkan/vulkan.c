/*
 * The Vulkan backend's ops table. The backend's files, one job each:
 *
 *   loader.c       libvulkan.so.1 opened at run time (dlopen), the instance
 *   caps.c         what a physical device offers, the device list, the occupancy estimate
 *   device.c       opening and closing a device, command submission
 *   memory.c       buffers, copies and fills (through a staging buffer)
 *   pipeline.c     kernels: the embedded SPIR-V variant, specialization constants, pipelines
 *   launch.c       a dispatch timed by timestamp queries
 *   executables.c  VK_KHR_pipeline_executable_properties (the driver's view of a kernel)
 *   spirv.c        the SPIR-V reader (bindings, atomic instructions)
 *
 * Kernels are GLSL compute shaders compiled to SPIR-V at build time, one module per variant
 * (cmake/vulkan_shaders.cmake); vk_internal.h has the declarations the files share.
 */
#include <string.h>

#include "vk_internal.h"

int atl_vulkan_backend_init(struct atl_backend_ops *ops)
{
  ATL_BACKEND_OPS_INIT(ops, "vulkan", atl__vk);
  return 0;
}
