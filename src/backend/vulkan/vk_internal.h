/* The Vulkan backend's shared declarations: the loader's entry points, what a device offers, an open device
 * and its buffers and kernels, and the functions the backend's files call across (vulkan.c lists the files). */
#ifndef ATOMLAB_VULKAN_INTERNAL_H
#define ATOMLAB_VULKAN_INTERNAL_H

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>
#include <stddef.h>
#include <stdint.h>

#include "atomlab/backend.h"
#include "atomlab/error.h"
#include "../common.h"
#include "../cuda/sass.h" /* ATL_INSTRUCTIONS_LEN */
#include "shaders.h"

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

/* The loader, opened once per process (loader.c). */
struct atl__vk_loader {
  struct atl__runtime rt; /* loaded once per process, or why not */
  void *lib;
  VkInstance instance;
  uint32_t api_version;
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr;
#define X(name) PFN_##name name;
  VK_INSTANCE_FUNCS(X)
#undef X
};
extern struct atl__vk_loader atl__vk;

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
  struct atl__built built; /* first: the build cache's link and key (src/backend/common.h) */
  const struct atl__vk_shader *shader;
  VkShaderModule module;
  VkDescriptorSetLayout set_layout;
  VkPipelineLayout layout;
  VkDescriptorPool pool;
  VkDescriptorSet set;
  uint32_t bindings;
  uint64_t init_bits, operand_bits;
  uint32_t value_size, local_words, random, branched;
  uint32_t iters_from; /* rmw: where the loop count comes from (enum vk_iters_from, spec constant 6) */
  uint32_t discovery_mode; /* discovery: DISCOVERY_MODE of the build request (discovery.comp, spec constant 7) */
  struct vk_pipeline *pipelines;
  VkPipeline last; /* the pipeline of the last launch, for its executable properties */
  char instructions[ATL_INSTRUCTIONS_LEN];
};

/* Where rmw.comp's loop count comes from (ATL_VULKAN_ITERS; rmw.comp says why there is a choice). */
enum vk_iters_from { VK_ITERS_BUFFER, VK_ITERS_PUSH, VK_ITERS_SUBGROUP };
/* discovery.comp's mode bit HOLD: the default of a discovery build that names no DISCOVERY_MODE. */
#define VK_DISCOVERY_HOLD 1u
/* rmw.comp's storage-buffer binding of the loop count (src/core/rmw.c's third buffer argument). */
#define VK_RMW_ITERS_BINDING 2u

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
  struct atl__built *kernels; /* struct vk_kernel */
  int has_exec;
  enum vk_iters_from iters_from; /* ATL_VULKAN_ITERS, read at open */
  /* Where the kernels' buffers live (ATL_VULKAN_MEMORY, ATL_VULKAN_OFFSET; docs/design/vulkan.md): experiments on the
   * placement of the array (docs/design/vulkan.md lists them); the defaults are what atomlab measures. */
  enum vk_memory_kind { VK_MEM_DEVICE, VK_MEM_DEDICATED, VK_MEM_HOST_VISIBLE } memory_kind;
  VkDeviceSize bind_offset;
#define X(name) PFN_##name name;
  VK_DEVICE_FUNCS(X) VK_EXEC_FUNCS(X)
#undef X
};

#define VK_FAIL(d, call, r)                                                                                            \
  atl__seterr((d)->ctx, (r) == VK_ERROR_OUT_OF_DEVICE_MEMORY ? ATL_ERANGE : ATL_EBACKEND,                              \
              "vulkan: %s failed: %s (%d) at %s:%d", call, atl__vk_result_name(r), (int)(r), __FILE__, __LINE__)

/* Push constants: the scalar arguments in order (u64 aligned to 8); at most this many bytes. */
#define PUSH_BYTES 64u

/* loader.c */
const char *atl__vk_result_name(VkResult r);
int atl__vk_load_api(atl_context_t ctx);
/* caps.c: what a physical device offers, the device list, the occupancy estimate */
void atl__vk_query_caps(VkPhysicalDevice pd, struct vk_caps *c);
int atl__vk_probe(atl_context_t ctx, struct atl_device_info **list, size_t *count);
int atl__vk_occupancy_estimate(void *handle, void *kernel, size_t wg_size, unsigned *groups, char *method,
                               size_t method_len);
/* device.c: opening and closing a device, command submission */
int atl__vk_open(atl_context_t ctx, const struct atl_device_info *info, void **handle);
void atl__vk_close(void *handle);
int atl__vk_begin(struct vk_dev *d);
int atl__vk_submit_wait(struct vk_dev *d);
/* memory.c: buffers and copies */
void atl__vk_buf_destroy(struct vk_dev *d, struct vk_buf *b);
int atl__vk_alloc(void *handle, size_t bytes, void **out);
void atl__vk_free(void *handle, void *buf);
int atl__vk_write(void *handle, void *buf, const void *src, size_t bytes);
int atl__vk_read(void *handle, void *buf, void *dst, size_t bytes);
int atl__vk_fill(void *handle, void *buf, const void *pattern, size_t pattern_size, size_t bytes);
/* pipeline.c: kernels (a variant, its layouts) and their pipelines per work-group size */
int atl__vk_build(void *handle, const struct atl_build *req, void **kernel);
void atl__vk_kernel_free(struct vk_dev *d, struct vk_kernel *k);
int atl__vk_pipeline_for(struct vk_dev *d, struct vk_kernel *k, uint32_t local, VkPipeline *out);
/* launch.c: a timed dispatch */
int atl__vk_launch(void *handle, void *kernel, const struct atl_launch *launch, double *device_ms);
int atl__vk_describe_kernel(void *handle, void *kernel, char *buf, size_t len);
/* executables.c: VK_KHR_pipeline_executable_properties */
char *atl__vk_kernel_isa(void *handle, void *kernel, char *why, size_t why_len);

#endif
