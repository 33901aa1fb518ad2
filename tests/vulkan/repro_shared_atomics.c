/*
 * repro_shared_atomics: a standalone reproducer (plain C and the Vulkan
 * loader, no atomlab code) for the rows atomlab could not verify on NVIDIA's
 * Vulkan driver: u64 and/or/xor and f32 add on one shared word that every
 * lane of a warp updates. Each case runs repro_shared_atomics.comp once and
 * checks the exact outcome:
 *
 *   - the final value of every word against the serial result (the ops are
 *     commutative, so every interleaving ends there);
 *   - with a uniform operand, the multiset of returned values against the
 *     serial sequence x, op(x), op(op(x)), ... (the same for any order);
 *   - with per-lane operands (distinct bits, or distinct addends; one atomic
 *     per lane), that the returned values form one serial history: ordered
 *     by progress, each is the previous one with the previous lane's operand
 *     applied, and the final word is the last one's successor.
 *
 * The same cases run on buffer memory as the control. One line per case:
 * PASS/FAIL/SKIP with got/expected. Exit 0 if all pass, 1 if any fails, 77
 * without a Vulkan device or when every case lacks its feature; 2 on bad
 * arguments.
 *
 *   repro_shared_atomics [--device N] [--capture] [--cache-dir DIR] [--corrupt]
 *
 * --device N   the Nth physical device (default: the first GPU, else device 0)
 * --capture    create the pipelines with VK_KHR_pipeline_executable_properties'
 *              capture flags, as atomlab does (where the driver has them)
 * --cache-dir  write each case's VkPipelineCache data to DIR/<case>.bin (the
 *              driver's compiled code, for offline disassembly attempts)
 * --corrupt    damage each case's results after the run; exit 0 only if every
 *              case is then caught (the checks can fail)
 */
#include <vulkan/vulkan.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repro_shaders.h"

enum type { U32, U64, F32 };
enum op { ADD, AND, OR, XOR };
static const char *const type_names[] = {"u32", "u64", "f32"};
static const char *const op_names[] = {"add", "and", "or", "xor"};

#define MAX_WG 256u
#define MAX_GROUPS 4u
#define MAX_ITERS 64u
#define MAX_WORDS (MAX_WG / 32u)

/* One case: which module, and the specialization and launch around it. */
struct rcase {
  enum type type;
  enum op op;
  int shared;
  const char *mode; /* a short name of the variant, for the output */
  int lane_operand, loaded_addr, even_only, returns;
  int iters_buf, scoped, fold, dead_branch; /* rmw.comp's shape, one difference at a time */
  int iters_alt; /* the shader's ITERS_ALT: 1 spec constant, 2 uniform buffer, 3 per-lane buffer, 4 broadcast */
  uint32_t iters, wg, groups, words;
};

static uint64_t mask_of(enum type t) { return t == U64 ? UINT64_MAX : 0xffffffffu; }

static float f32_of(uint64_t bits)
{
  uint32_t b = (uint32_t)bits;
  float f;
  memcpy(&f, &b, sizeof f);
  return f;
}

static uint64_t bits_of(float f)
{
  uint32_t b;
  memcpy(&b, &f, sizeof b);
  return b;
}

static uint64_t apply(enum type t, enum op op, uint64_t a, uint64_t b)
{
  switch (op) {
  case ADD:
    return t == F32 ? bits_of(f32_of(a) + f32_of(b)) : (a + b) & mask_of(t);
  case AND:
    return a & b;
  case OR:
    return a | b;
  default:
    return a ^ b;
  }
}

/* The start value and uniform operand of each op: the values atomlab's rows use (so the failing rows and these
 * cases see the same bits); floats add 1.0 from 0, which counts updates exactly. */
static void uniform_values(enum type t, enum op op, uint64_t *init, uint64_t *operand)
{
  const int w = t == U64;
  switch (op) {
  case AND:
    *init = w ? 0xffffffff00ff00ffull : 0xffff00ffu;
    *operand = w ? 0x0f0f0f0ff0f0f0f0ull : 0x0f0f0f0fu;
    break;
  case OR:
    *init = w ? 0x100000100ull : 0x100u;
    *operand = w ? 0x8000000000000001ull : 0x80000001u;
    break;
  case XOR:
    *init = w ? 0x5555555555555555ull : 0x55555555u;
    *operand = w ? 0xa5a5a5a5a5a5a5a5ull : 0xa5a5a5a5u;
    break;
  default:
    *init = w ? 0x0123456789abcdefull : 0x12345678u;
    *operand = w ? 0x100000001ull : 3u;
    break;
  }
  if (t == F32) {
    *init = 0;
    *operand = bits_of(1.0f);
  }
}

/* Per-lane operands: one distinct bit per lane (and: one cleared bit from all ones; or/xor: one set bit from 0), or
 * lane + 1 as the addend (u64: in both halves, so carries cross into the upper word). */
static void lane_values(enum type t, enum op op, uint32_t lane, uint64_t *init, uint64_t *operand)
{
  const uint64_t bit = 1ull << (lane % (t == U64 ? 64 : 32));
  uint64_t dummy;
  switch (op) {
  case AND:
    *init = mask_of(t);
    *operand = ~bit & mask_of(t);
    break;
  case OR:
  case XOR:
    *init = 0;
    *operand = bit;
    break;
  default:
    uniform_values(t, op, init, &dummy);
    *operand = t == F32 ? bits_of((float)(lane + 1)) : t == U64 ? (lane + 1ull) * 0x100000001ull : lane + 1u;
    break;
  }
}

/* ---- Vulkan ---- */

struct buf {
  VkBuffer buffer;
  VkDeviceMemory memory;
  void *map;
};

static struct {
  VkInstance instance;
  VkPhysicalDevice pd;
  VkDevice device;
  VkQueue queue;
  uint32_t family;
  VkPhysicalDeviceMemoryProperties mem;
  VkPhysicalDeviceShaderAtomicInt64Features int64;
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT afloat;
  int shader_int64, capture;
  VkDescriptorSetLayout set_layout;
  VkPipelineLayout layout;
  VkDescriptorPool pool;
  VkDescriptorSet set;
  VkCommandPool cmd_pool;
  VkCommandBuffer cmd;
  VkFence fence;
  struct buf words, operands, index, returned, iters, iters_ubo, iters_lane;
  const char *memory_kind;
} vk;

#define CHECK(call)                                                                                                    \
  do {                                                                                                                 \
    VkResult r_ = (call);                                                                                              \
    if (r_ != VK_SUCCESS) {                                                                                            \
      fprintf(stderr, "repro_shared_atomics: %s failed: VkResult %d\n", #call, (int)r_);                             \
      return -1;                                                                                                       \
    }                                                                                                                  \
  } while (0)

static int has_ext(VkPhysicalDevice pd, const char *name)
{
  uint32_t n = 0;
  if (vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL) != VK_SUCCESS || n == 0)
    return 0;
  VkExtensionProperties *e = calloc(n, sizeof *e);
  int found = 0;
  if (e && vkEnumerateDeviceExtensionProperties(pd, NULL, &n, e) == VK_SUCCESS)
    for (uint32_t i = 0; i < n && !found; i++)
      found = strcmp(e[i].extensionName, name) == 0;
  free(e);
  return found;
}

/* A host-visible buffer, device-local where such memory exists (NVIDIA's BAR heap): the atomics then run in the
 * GPU's memory as the rows' do, and the host reads the results without a copy. */
static int buf_create(VkDeviceSize size, struct buf *b)
{
  VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                            .size = size,
                            .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                            .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
  CHECK(vkCreateBuffer(vk.device, &bci, NULL, &b->buffer));
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(vk.device, b->buffer, &req);
  const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  const VkMemoryPropertyFlags wants[2] = {host | VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, host};
  int type = -1;
  for (int w = 0; w < 2 && type < 0; w++)
    for (uint32_t i = 0; i < vk.mem.memoryTypeCount && type < 0; i++)
      if ((req.memoryTypeBits & (1u << i)) && (vk.mem.memoryTypes[i].propertyFlags & wants[w]) == wants[w]) {
        type = (int)i;
        vk.memory_kind = w == 0 ? "device-local, host-visible" : "host-visible (not device-local)";
      }
  if (type < 0) {
    fprintf(stderr, "repro_shared_atomics: no host-visible memory type for a storage buffer\n");
    return -1;
  }
  VkMemoryAllocateInfo mai = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size, .memoryTypeIndex = (uint32_t)type};
  CHECK(vkAllocateMemory(vk.device, &mai, NULL, &b->memory));
  CHECK(vkBindBufferMemory(vk.device, b->buffer, b->memory, 0));
  CHECK(vkMapMemory(vk.device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->map));
  return 0;
}

/* The shader's bindings: 0-4 and 6 storage buffers, 5 a uniform buffer. */
#define NBIND 7
static VkDescriptorType binding_type(uint32_t i)
{
  return i == 5 ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
}

/* Picks the device, prints what it is, creates it with exactly the features the shaders need. 77: no device. */
static int setup(int want_device)
{
  VkApplicationInfo app = {
      .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = "repro_shared_atomics", .apiVersion = VK_API_VERSION_1_1};
  VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
  VkResult r = vkCreateInstance(&ici, NULL, &vk.instance);
  if (r != VK_SUCCESS) {
    printf("SKIP: no Vulkan instance (VkResult %d: no driver found by the loader)\n", (int)r);
    return 77;
  }
  uint32_t n = 0;
  vkEnumeratePhysicalDevices(vk.instance, &n, NULL);
  if (n == 0) {
    printf("SKIP: no Vulkan device\n");
    return 77;
  }
  VkPhysicalDevice pds[16];
  if (n > 16)
    n = 16;
  vkEnumeratePhysicalDevices(vk.instance, &n, pds);
  int pick = want_device;
  if (pick >= (int)n) {
    fprintf(stderr, "repro_shared_atomics: --device %d: there are %u devices (0 to %u)\n", pick, n, n - 1);
    return 2;
  }
  for (uint32_t i = 0; pick < 0 && i < n; i++) {
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(pds[i], &p);
    if (p.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU || p.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU)
      pick = (int)i;
  }
  vk.pd = pds[pick < 0 ? 0 : pick];
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(vk.pd, &props);
  if (props.apiVersion < VK_API_VERSION_1_1) {
    printf("SKIP: %s is Vulkan %u.%u, 1.1 is needed\n", props.deviceName, VK_API_VERSION_MAJOR(props.apiVersion),
           VK_API_VERSION_MINOR(props.apiVersion));
    return 77;
  }
  const int api12 = props.apiVersion >= VK_API_VERSION_1_2;
  const int has_int64 = api12 || has_ext(vk.pd, VK_KHR_SHADER_ATOMIC_INT64_EXTENSION_NAME);
  const int has_float = has_ext(vk.pd, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
  const int has_exec = has_ext(vk.pd, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);

  VkPhysicalDeviceDriverProperties driver = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  VkPhysicalDeviceSubgroupProperties subgroup = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &subgroup};
  if (api12)
    subgroup.pNext = &driver;
  vkGetPhysicalDeviceProperties2(vk.pd, &p2);
  printf("device %d: %s, Vulkan %u.%u.%u, driver %s %s (driverVersion 0x%x), subgroup size %u\n", pick < 0 ? 0 : pick,
         props.deviceName, VK_API_VERSION_MAJOR(props.apiVersion), VK_API_VERSION_MINOR(props.apiVersion),
         VK_API_VERSION_PATCH(props.apiVersion), api12 ? driver.driverName : "?", api12 ? driver.driverInfo : "",
         props.driverVersion, subgroup.subgroupSize);

  vk.int64.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES;
  vk.afloat.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT;
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR exec = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
  VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  void **chain = &f2.pNext;
  if (has_int64) {
    *chain = &vk.int64;
    chain = &vk.int64.pNext;
  }
  if (has_float) {
    *chain = &vk.afloat;
    chain = &vk.afloat.pNext;
  }
  if (has_exec) {
    *chain = &exec;
    chain = &exec.pNext;
  }
  vkGetPhysicalDeviceFeatures2(vk.pd, &f2);
  vk.shader_int64 = f2.features.shaderInt64;
  if (!vk.shader_int64)
    vk.int64.shaderBufferInt64Atomics = vk.int64.shaderSharedInt64Atomics = VK_FALSE;
  vk.capture = vk.capture && has_exec && exec.pipelineExecutableInfo;
  printf("features: shaderInt64 %u, shaderBufferInt64Atomics %u, shaderSharedInt64Atomics %u, "
         "shaderBufferFloat32AtomicAdd %u, shaderSharedFloat32AtomicAdd %u%s\n",
         vk.shader_int64, vk.int64.shaderBufferInt64Atomics, vk.int64.shaderSharedInt64Atomics,
         vk.afloat.shaderBufferFloat32AtomicAdd, vk.afloat.shaderSharedFloat32AtomicAdd,
         vk.capture ? ", pipelines created with the capture flags of VK_KHR_pipeline_executable_properties" : "");

  /* Enable only what the shaders use: the atomics features this device has, nothing else. */
  VkPhysicalDeviceShaderAtomicInt64Features int64 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES,
                                                     .shaderBufferInt64Atomics = vk.int64.shaderBufferInt64Atomics,
                                                     .shaderSharedInt64Atomics = vk.int64.shaderSharedInt64Atomics};
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT afloat = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT,
      .shaderBufferFloat32AtomicAdd = vk.afloat.shaderBufferFloat32AtomicAdd,
      .shaderSharedFloat32AtomicAdd = vk.afloat.shaderSharedFloat32AtomicAdd};
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR exec_on = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR,
      .pipelineExecutableInfo = VK_TRUE};
  VkPhysicalDeviceFeatures2 enable = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  enable.features.shaderInt64 = (VkBool32)vk.shader_int64;
  const char *exts[3];
  uint32_t next = 0;
  chain = &enable.pNext;
  if (has_int64) {
    *chain = &int64;
    chain = &int64.pNext;
    if (!api12)
      exts[next++] = VK_KHR_SHADER_ATOMIC_INT64_EXTENSION_NAME;
  }
  if (has_float) {
    *chain = &afloat;
    chain = &afloat.pNext;
    exts[next++] = VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME;
  }
  if (vk.capture) {
    *chain = &exec_on;
    chain = &exec_on.pNext;
    exts[next++] = VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;
  }

  uint32_t nfam = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(vk.pd, &nfam, NULL);
  VkQueueFamilyProperties fams[16];
  if (nfam > 16)
    nfam = 16;
  vkGetPhysicalDeviceQueueFamilyProperties(vk.pd, &nfam, fams);
  vk.family = UINT32_MAX;
  for (uint32_t f = 0; f < nfam && vk.family == UINT32_MAX; f++)
    if (fams[f].queueFlags & VK_QUEUE_COMPUTE_BIT)
      vk.family = f;
  if (vk.family == UINT32_MAX) {
    printf("SKIP: %s has no compute queue\n", props.deviceName);
    return 77;
  }
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                 .queueFamilyIndex = vk.family,
                                 .queueCount = 1,
                                 .pQueuePriorities = &priority};
  VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                            .pNext = &enable,
                            .queueCreateInfoCount = 1,
                            .pQueueCreateInfos = &qci,
                            .enabledExtensionCount = next,
                            .ppEnabledExtensionNames = exts};
  CHECK(vkCreateDevice(vk.pd, &dci, NULL, &vk.device));
  vkGetDeviceQueue(vk.device, vk.family, 0, &vk.queue);
  vkGetPhysicalDeviceMemoryProperties(vk.pd, &vk.mem);

  /* Bindings 0-4 and 6 storage buffers, 5 the uniform buffer of the loop count (ITERS_ALT 2). */
  VkDescriptorSetLayoutBinding lb[NBIND];
  for (uint32_t i = 0; i < NBIND; i++)
    lb[i] = (VkDescriptorSetLayoutBinding){.binding = i,
                                           .descriptorType = binding_type(i),
                                           .descriptorCount = 1,
                                           .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
  VkDescriptorSetLayoutCreateInfo dli = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = NBIND, .pBindings = lb};
  CHECK(vkCreateDescriptorSetLayout(vk.device, &dli, NULL, &vk.set_layout));
  VkPushConstantRange pcr = {.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .offset = 0, .size = 8};
  VkPipelineLayoutCreateInfo pli = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                    .setLayoutCount = 1,
                                    .pSetLayouts = &vk.set_layout,
                                    .pushConstantRangeCount = 1,
                                    .pPushConstantRanges = &pcr};
  CHECK(vkCreatePipelineLayout(vk.device, &pli, NULL, &vk.layout));
  VkDescriptorPoolSize ps[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NBIND - 1}, {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1}};
  VkDescriptorPoolCreateInfo dpi = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1, .poolSizeCount = 2, .pPoolSizes = ps};
  CHECK(vkCreateDescriptorPool(vk.device, &dpi, NULL, &vk.pool));
  VkDescriptorSetAllocateInfo dai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                     .descriptorPool = vk.pool,
                                     .descriptorSetCount = 1,
                                     .pSetLayouts = &vk.set_layout};
  CHECK(vkAllocateDescriptorSets(vk.device, &dai, &vk.set));
  VkCommandPoolCreateInfo cpi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                 .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                 .queueFamilyIndex = vk.family};
  CHECK(vkCreateCommandPool(vk.device, &cpi, NULL, &vk.cmd_pool));
  VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                     .commandPool = vk.cmd_pool,
                                     .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                     .commandBufferCount = 1};
  CHECK(vkAllocateCommandBuffers(vk.device, &cai, &vk.cmd));
  VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  CHECK(vkCreateFence(vk.device, &fci, NULL, &vk.fence));

  const VkDeviceSize threads = (VkDeviceSize)MAX_WG * MAX_GROUPS;
  if (buf_create(MAX_GROUPS * MAX_WORDS * 8, &vk.words) || buf_create(threads * 8, &vk.operands) ||
      buf_create(threads * 4, &vk.index) || buf_create(threads * MAX_ITERS * 8, &vk.returned) ||
      buf_create(4, &vk.iters) || buf_create(16, &vk.iters_ubo) || buf_create(threads * 4, &vk.iters_lane))
    return -1;
  printf("buffers (the control's atomics and the results): %s memory\n", vk.memory_kind);
  const struct buf *bufs[NBIND] = {&vk.words,   &vk.operands,  &vk.index,     &vk.returned,
                                   &vk.iters,   &vk.iters_ubo, &vk.iters_lane};
  VkDescriptorBufferInfo infos[NBIND];
  VkWriteDescriptorSet writes[NBIND];
  for (uint32_t i = 0; i < NBIND; i++) {
    infos[i] = (VkDescriptorBufferInfo){bufs[i]->buffer, 0, VK_WHOLE_SIZE};
    writes[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                       .dstSet = vk.set,
                                       .dstBinding = i,
                                       .descriptorCount = 1,
                                       .descriptorType = binding_type(i),
                                       .pBufferInfo = &infos[i]};
  }
  vkUpdateDescriptorSets(vk.device, NBIND, writes, 0, NULL);
  return 0;
}

/* Destroys what setup created (a clean exit under LeakSanitizer and valgrind). */
static void teardown(void)
{
  struct buf *bufs[NBIND] = {&vk.words, &vk.operands, &vk.index, &vk.returned, &vk.iters, &vk.iters_ubo,
                             &vk.iters_lane};
  if (vk.device) {
    vkDeviceWaitIdle(vk.device);
    for (int i = 0; i < NBIND; i++) {
      if (bufs[i]->buffer)
        vkDestroyBuffer(vk.device, bufs[i]->buffer, NULL);
      if (bufs[i]->memory)
        vkFreeMemory(vk.device, bufs[i]->memory, NULL);
    }
    if (vk.fence)
      vkDestroyFence(vk.device, vk.fence, NULL);
    if (vk.cmd_pool)
      vkDestroyCommandPool(vk.device, vk.cmd_pool, NULL);
    if (vk.pool)
      vkDestroyDescriptorPool(vk.device, vk.pool, NULL);
    if (vk.layout)
      vkDestroyPipelineLayout(vk.device, vk.layout, NULL);
    if (vk.set_layout)
      vkDestroyDescriptorSetLayout(vk.device, vk.set_layout, NULL);
    vkDestroyDevice(vk.device, NULL);
  }
  /* The instance stays: destroying it unloads the driver, and lavapipe (LLVM) leaves an allocation behind that
   * LeakSanitizer would then blame on an unknown module. */
}

static const struct repro_shader *shader_of(const struct rcase *c)
{
  for (size_t i = 0; i < repro_shader_count; i++)
    if (strcmp(repro_shaders[i].type, type_names[c->type]) == 0 && strcmp(repro_shaders[i].op, op_names[c->op]) == 0 &&
        repro_shaders[i].shared == c->shared)
      return &repro_shaders[i];
  return NULL;
}

/* Why the device cannot run a case, or NULL. */
static const char *missing_feature(const struct rcase *c)
{
  if (c->type == U64 && !(c->shared ? vk.int64.shaderSharedInt64Atomics : vk.int64.shaderBufferInt64Atomics))
    return c->shared ? "no shaderSharedInt64Atomics" : "no shaderBufferInt64Atomics";
  if (c->type == F32 && !(c->shared ? vk.afloat.shaderSharedFloat32AtomicAdd : vk.afloat.shaderBufferFloat32AtomicAdd))
    return c->shared ? "no shaderSharedFloat32AtomicAdd" : "no shaderBufferFloat32AtomicAdd";
  return NULL;
}

/* Builds the case's pipeline (specialization constants as the shader declares them), runs it once and waits. */
static int run_case(const struct rcase *c, uint64_t init, uint64_t operand, const char *cache_dir, const char *name)
{
  const struct repro_shader *s = shader_of(c);
  if (s == NULL) {
    fprintf(stderr, "repro_shared_atomics: no module for %s %s\n", type_names[c->type], op_names[c->op]);
    return -1;
  }
  VkShaderModuleCreateInfo smi = {
      .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = s->nwords * 4, .pCode = s->words};
  VkShaderModule module;
  CHECK(vkCreateShaderModule(vk.device, &smi, NULL, &module));
  const uint32_t size = c->type == U64 ? 8 : 4;
  struct {
    uint32_t wg, pad;
    uint64_t init, operand;
    uint32_t words, lane_operand, loaded_addr, even_only, returns, iters_buf, scoped, fold, dead_branch;
    uint32_t iters_alt, iters_spec;
  } data = {c->wg, 0, init, operand, c->words, (uint32_t)c->lane_operand, (uint32_t)c->loaded_addr,
            (uint32_t)c->even_only, (uint32_t)c->returns, (uint32_t)c->iters_buf, (uint32_t)c->scoped,
            (uint32_t)c->fold, (uint32_t)c->dead_branch, (uint32_t)c->iters_alt, c->iters};
  /* 4-byte values in the low half of their 8-byte slots: every Vulkan host is little-endian. */
  VkSpecializationMapEntry map[] = {
      {0, offsetof(__typeof__(data), wg), 4},           {1, offsetof(__typeof__(data), init), size},
      {2, offsetof(__typeof__(data), operand), size},   {3, offsetof(__typeof__(data), words), 4},
      {4, offsetof(__typeof__(data), lane_operand), 4}, {5, offsetof(__typeof__(data), loaded_addr), 4},
      {6, offsetof(__typeof__(data), even_only), 4},    {7, offsetof(__typeof__(data), returns), 4},
      {8, offsetof(__typeof__(data), iters_buf), 4},    {9, offsetof(__typeof__(data), scoped), 4},
      {10, offsetof(__typeof__(data), fold), 4},        {11, offsetof(__typeof__(data), dead_branch), 4},
      {12, offsetof(__typeof__(data), iters_alt), 4},   {13, offsetof(__typeof__(data), iters_spec), 4},
  };
  VkSpecializationInfo si = {sizeof map / sizeof map[0], map, sizeof data, &data};
  VkPipelineCache cache = VK_NULL_HANDLE;
  if (cache_dir) {
    VkPipelineCacheCreateInfo pcci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    CHECK(vkCreatePipelineCache(vk.device, &pcci, NULL, &cache));
  }
  VkComputePipelineCreateInfo cpi = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .flags = vk.capture ? VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR |
                                VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR
                          : 0,
      .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                .module = module,
                .pName = "main",
                .pSpecializationInfo = &si},
      .layout = vk.layout};
  VkPipeline pipeline;
  CHECK(vkCreateComputePipelines(vk.device, cache, 1, &cpi, NULL, &pipeline));
  if (cache) {
    size_t n = 0;
    void *blob = NULL;
    if (vkGetPipelineCacheData(vk.device, cache, &n, NULL) == VK_SUCCESS && n && (blob = malloc(n)) != NULL &&
        vkGetPipelineCacheData(vk.device, cache, &n, blob) == VK_SUCCESS) {
      char path[1024];
      snprintf(path, sizeof path, "%s/%s.bin", cache_dir, name);
      FILE *f = fopen(path, "wb");
      if (f == NULL || fwrite(blob, 1, n, f) != n)
        fprintf(stderr, "repro_shared_atomics: writing %s: %s\n", path, strerror(errno));
      if (f)
        fclose(f);
    }
    free(blob);
    vkDestroyPipelineCache(vk.device, cache, NULL);
  }
  VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                 .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
  CHECK(vkResetCommandBuffer(vk.cmd, 0));
  CHECK(vkBeginCommandBuffer(vk.cmd, &bi));
  /* The host's writes (coherent memory, before the submit) are visible by the submission's own guarantee; the
   * shader's writes are made visible to the host below. */
  vkCmdBindPipeline(vk.cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdBindDescriptorSets(vk.cmd, VK_PIPELINE_BIND_POINT_COMPUTE, vk.layout, 0, 1, &vk.set, 0, NULL);
  const uint32_t push[2] = {c->iters, 1}; /* the loop count, and slots = 1 (the dead branch stays dead) */
  vkCmdPushConstants(vk.cmd, vk.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, push);
  vkCmdDispatch(vk.cmd, c->groups, 1, 1);
  VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                        .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                        .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(vk.cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0,
                       NULL);
  CHECK(vkEndCommandBuffer(vk.cmd));
  VkSubmitInfo sub = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &vk.cmd};
  CHECK(vkResetFences(vk.device, 1, &vk.fence));
  CHECK(vkQueueSubmit(vk.queue, 1, &sub, vk.fence));
  CHECK(vkWaitForFences(vk.device, 1, &vk.fence, VK_TRUE, UINT64_MAX));
  vkDestroyPipeline(vk.device, pipeline, NULL);
  vkDestroyShaderModule(vk.device, module, NULL);
  return 0;
}

/* ---- the checks ---- */

static uint64_t load(const void *base, enum type t, size_t i)
{
  if (t == U64)
    return ((const uint64_t *)base)[i];
  return ((const uint32_t *)base)[i];
}

static void store(void *base, enum type t, size_t i, uint64_t v)
{
  if (t == U64)
    ((uint64_t *)base)[i] = v;
  else
    ((uint32_t *)base)[i] = (uint32_t)v;
}

static int cmp_u64(const void *a, const void *b)
{
  const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

static int active(const struct rcase *c, uint32_t lid) { return !c->even_only || lid % 2 == 0; }
static uint32_t word_of(const struct rcase *c, uint32_t lid) { return c->loaded_addr ? lid / 32 : 0; }

/* Progress of a returned value along a per-lane history: how far the word has gone from its start. */
static uint64_t progress(const struct rcase *c, uint64_t init, uint64_t r)
{
  if (c->op == ADD)
    return c->type == F32 ? (uint64_t)f32_of(r) : (r - init) & mask_of(c->type);
  return (uint64_t)__builtin_popcountll(r ^ init);
}

struct lane_ret {
  uint64_t key, value, operand;
  uint32_t lane;
};

static int cmp_key(const void *a, const void *b)
{
  const uint64_t x = ((const struct lane_ret *)a)->key, y = ((const struct lane_ret *)b)->key;
  return (x > y) - (x < y);
}

/* Checks one case's results; on failure writes what differs into @p why. Returns 1 if correct. */
static int check_case(const struct rcase *c, uint64_t init, uint64_t operand, char *why, size_t len)
{
  const enum type t = c->type;
  const uint32_t it = c->iters;
  uint64_t *got = malloc((size_t)c->wg * it * sizeof *got), *want = malloc((size_t)c->wg * it * sizeof *want);
  struct lane_ret *hist = malloc(c->wg * sizeof *hist);
  int ok = got && want && hist;
  if (!ok)
    snprintf(why, len, "out of memory");
  for (uint32_t g = 0; ok && g < c->groups; g++)
    for (uint32_t w = 0; ok && w < c->words; w++) {
      /* the lanes of this group on this word */
      size_t n = 0, nh = 0;
      uint64_t final_want = init;
      for (uint32_t lid = 0; lid < c->wg; lid++) {
        if (!active(c, lid) || word_of(c, lid) != w)
          continue;
        const size_t gid = (size_t)g * c->wg + lid;
        const uint64_t op = c->lane_operand ? load(vk.operands.map, t, gid) : operand;
        for (uint32_t i = 0; i < it; i++) {
          got[n++] = c->fold ? (i == 0 ? load(vk.returned.map, t, gid) : 0) : load(vk.returned.map, t, gid * it + i);
          final_want = apply(t, c->op, final_want, op);
        }
        if (c->lane_operand)
          hist[nh++] = (struct lane_ret){progress(c, init, got[n - 1]), got[n - 1], op, lid};
      }
      const uint64_t final_got = load(vk.words.map, t, (size_t)g * c->words + w);
      if (final_got != final_want) {
        snprintf(why, len, "group %u word %u: final got 0x%llx, expected 0x%llx after %zu updates", g, w,
                 (unsigned long long)final_got, (unsigned long long)final_want, n);
        if (t == F32)
          snprintf(why + strlen(why), len - strlen(why), " (%g, expected %g)", (double)f32_of(final_got),
                   (double)f32_of(final_want));
        else if (c->lane_operand && c->op != ADD)
          snprintf(why + strlen(why), len - strlen(why), " (bits that differ: 0x%llx, one per lane whose update is missing)",
                   (unsigned long long)(final_got ^ final_want));
        ok = 0;
        break;
      }
      if (!c->returns || n == 0)
        continue;
      if (!c->lane_operand) {
        /* any serial order returns x, op(x), op(op(x)), ...: compare sorted */
        uint64_t x = init;
        for (size_t k = 0; k < n; k++) {
          want[k] = x;
          x = apply(t, c->op, x, operand);
        }
        if (c->fold) {
          /* one folded value per lane (sum; xor of the bits for floats): compare the word's total */
          uint64_t fg = 0, fw = 0;
          for (size_t k = 0; k < n; k++) {
            fg = t == F32 ? fg ^ got[k] : (fg + got[k]) & mask_of(t);
            fw = t == F32 ? fw ^ want[k] : (fw + want[k]) & mask_of(t);
          }
          if (fg != fw) {
            snprintf(why, len, "group %u word %u: the returned values fold to 0x%llx, expected 0x%llx", g, w,
                     (unsigned long long)fg, (unsigned long long)fw);
            ok = 0;
          }
          continue;
        }
        qsort(got, n, sizeof *got, cmp_u64);
        qsort(want, n, sizeof *want, cmp_u64);
        size_t bad = 0, first = n;
        for (size_t k = 0; k < n; k++)
          if (got[k] != want[k] && bad++ == 0)
            first = k;
        if (bad) {
          snprintf(why, len, "group %u word %u: %zu of %zu returned values differ from the serial sequence's "
                   "(sorted, position %zu: got 0x%llx, expected 0x%llx)", g, w, bad, n, first,
                   (unsigned long long)got[first], (unsigned long long)want[first]);
          ok = 0;
        }
        continue;
      }
      /* per-lane operands, one update each: the returned values must chain into one serial history */
      qsort(hist, nh, sizeof *hist, cmp_key);
      uint64_t x = init;
      for (size_t k = 0; ok && k < nh; k++) {
        if (hist[k].value != x) {
          snprintf(why, len, "group %u word %u: the returned values are no serial history: step %zu (lane %u) "
                   "returned 0x%llx, expected 0x%llx", g, w, k, hist[k].lane, (unsigned long long)hist[k].value,
                   (unsigned long long)x);
          ok = 0;
        }
        x = apply(t, c->op, x, hist[k].operand);
      }
    }
  free(got);
  free(want);
  free(hist);
  return ok;
}

/* Damages a finished case's results so its check must fail (--corrupt): the last word's final value, or (every
 * other case that records them) the first returned value, so both checks are shown to fail. */
static void corrupt(const struct rcase *c, int which)
{
  if (c->returns && which % 2) {
    store(vk.returned.map, c->type, 0, load(vk.returned.map, c->type, 0) ^ 1u);
    return;
  }
  const size_t last = (size_t)(c->groups - 1) * c->words + (c->words - 1);
  store(vk.words.map, c->type, last, load(vk.words.map, c->type, last) ^ 1u);
}

/* ---- the cases ---- */

static void fill_inputs(const struct rcase *c, uint64_t *init, uint64_t *operand)
{
  const uint32_t threads = c->wg * c->groups;
  uniform_values(c->type, c->op, init, operand);
  for (uint32_t gid = 0; gid < threads; gid++) {
    uint64_t lane_init = *init, op = *operand;
    if (c->lane_operand)
      lane_values(c->type, c->op, gid % c->wg, &lane_init, &op);
    store(vk.operands.map, c->type, gid, op);
    ((uint32_t *)vk.index.map)[gid] = word_of(c, gid % c->wg);
  }
  if (c->lane_operand)
    lane_values(c->type, c->op, 0, init, operand);
  /* the buffer control's targets start at the init value; shared words are copied over them */
  for (uint32_t i = 0; i < c->groups * c->words; i++)
    store(vk.words.map, c->type, i, c->shared ? ~*init & mask_of(c->type) : *init);
  *(uint32_t *)vk.iters.map = c->iters;
  *(uint32_t *)vk.iters_ubo.map = c->iters;
  for (uint32_t gid = 0; gid < threads; gid++)
    ((uint32_t *)vk.iters_lane.map)[gid] = c->iters;
  /* a sentinel no returned value can equal in these cases, so a missing store shows */
  memset(vk.returned.map, 0xa7, (size_t)threads * c->iters * 8);
}

int main(int argc, char **argv)
{
  int device = -1, do_corrupt = 0;
  const char *cache_dir = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--device") == 0 && i + 1 < argc) {
      char *end;
      long v = strtol(argv[++i], &end, 10);
      if (*end || v < 0 || v > 15) {
        fprintf(stderr, "repro_shared_atomics: --device must be a device index 0 to 15, not '%s'\n", argv[i]);
        return 2;
      }
      device = (int)v;
    } else if (strcmp(argv[i], "--capture") == 0) {
      vk.capture = 1;
    } else if (strcmp(argv[i], "--cache-dir") == 0 && i + 1 < argc) {
      cache_dir = argv[++i];
    } else if (strcmp(argv[i], "--corrupt") == 0) {
      do_corrupt = 1;
    } else {
      fprintf(stderr, "repro_shared_atomics: unknown argument '%s' (allowed: --device N, --capture, --cache-dir DIR, "
                      "--corrupt)\n", argv[i]);
      return 2;
    }
  }
  int rc = setup(device);
  if (rc) {
    teardown();
    return rc < 0 ? 1 : rc;
  }

  /* The ops: the four atomlab could not verify in shared memory first, then the controls that passed there. */
  static const struct {
    enum type type;
    enum op op;
  } ops[] = {{U64, XOR}, {U64, OR}, {U64, AND}, {F32, ADD}, {U64, ADD}, {U32, XOR}, {U32, OR}, {U32, AND}, {U32, ADD}};
  /* The variants, from the smallest program to atomlab's row (contiguous, contention 32: each warp on its own
   * word, the word index loaded from a buffer, 64 iterations, returned values used or not). */
  static const struct rcase modes[] = {
      {.mode = "one-op", .returns = 1, .iters = 1, .wg = 256, .groups = 1, .words = 1},
      {.mode = "loop", .returns = 1, .iters = 64, .wg = 256, .groups = 2, .words = 1},
      {.mode = "warp-words", .loaded_addr = 1, .returns = 1, .iters = 64, .wg = 256, .groups = 4, .words = 8},
      {.mode = "warp-words-unused", .loaded_addr = 1, .iters = 64, .wg = 256, .groups = 4, .words = 8},
      {.mode = "even-lanes", .loaded_addr = 1, .even_only = 1, .returns = 1, .iters = 64, .wg = 256, .groups = 4,
       .words = 8},
      {.mode = "lane-operands", .lane_operand = 1, .returns = 1, .iters = 1, .wg = 64, .groups = 1, .words = 1},
      /* warp-words moved toward atomlab's rmw.comp, one difference at a time, then all of them */
      {.mode = "ww-iters-buffer", .loaded_addr = 1, .returns = 1, .iters_buf = 1, .iters = 64, .wg = 256, .groups = 4,
       .words = 8},
      {.mode = "ww-scoped", .loaded_addr = 1, .returns = 1, .scoped = 1, .iters = 64, .wg = 256, .groups = 4,
       .words = 8},
      {.mode = "ww-fold", .loaded_addr = 1, .returns = 1, .fold = 1, .iters = 64, .wg = 256, .groups = 4, .words = 8},
      {.mode = "ww-dead-branch", .loaded_addr = 1, .returns = 1, .dead_branch = 1, .iters = 64, .wg = 256,
       .groups = 4, .words = 8},
      {.mode = "ww-all-of-rmw", .loaded_addr = 1, .returns = 1, .iters_buf = 1, .scoped = 1, .fold = 1,
       .dead_branch = 1, .iters = 64, .wg = 256, .groups = 4, .words = 8},
      /* ww-iters-buffer failed (H100, H200): where else the count can come from, and what the failure needs */
      {.mode = "ww-iters-push", .loaded_addr = 1, .returns = 1, .iters = 64, .wg = 256, .groups = 4, .words = 8},
      {.mode = "ww-iters-spec", .loaded_addr = 1, .returns = 1, .iters_alt = 1, .iters = 64, .wg = 256, .groups = 4,
       .words = 8},
      {.mode = "ww-iters-ubo", .loaded_addr = 1, .returns = 1, .iters_alt = 2, .iters = 64, .wg = 256, .groups = 4,
       .words = 8},
      {.mode = "ww-iters-lane", .loaded_addr = 1, .returns = 1, .iters_alt = 3, .iters = 64, .wg = 256, .groups = 4,
       .words = 8},
      {.mode = "ww-iters-bcast", .loaded_addr = 1, .returns = 1, .iters_alt = 4, .iters = 64, .wg = 256, .groups = 4,
       .words = 8},
      {.mode = "ww-iters-buffer-unused", .loaded_addr = 1, .iters_buf = 1, .iters = 64, .wg = 256, .groups = 4,
       .words = 8},
      {.mode = "ww-iters-buffer-fold", .loaded_addr = 1, .returns = 1, .iters_buf = 1, .fold = 1, .iters = 64,
       .wg = 256, .groups = 4, .words = 8},
      {.mode = "ww-iters-buffer-even", .loaded_addr = 1, .even_only = 1, .returns = 1, .iters_buf = 1, .iters = 64,
       .wg = 256, .groups = 4, .words = 8},
      {.mode = "loop-iters-buffer", .returns = 1, .iters_buf = 1, .iters = 64, .wg = 256, .groups = 2, .words = 1},
  };
  int ran = 0, failed = 0, caught = 0;
  for (int shared = 1; shared >= 0; shared--)
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
      for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        struct rcase c = modes[m];
        c.type = ops[o].type;
        c.op = ops[o].op;
        c.shared = shared;
        if (c.lane_operand && c.type != U64 && c.op != ADD)
          c.wg = 32; /* one distinct bit per lane */
        char name[128];
        snprintf(name, sizeof name, "%s-%s-%s-%s", shared ? "shared" : "buffer", type_names[c.type], op_names[c.op],
                 c.mode);
        printf("%-44s ", name);
        const char *missing = missing_feature(&c);
        if (missing) {
          printf("SKIP %s\n", missing);
          continue;
        }
        uint64_t init, operand;
        fill_inputs(&c, &init, &operand);
        if (run_case(&c, init, operand, cache_dir, name) != 0) {
          teardown();
          return 1;
        }
        ran++;
        if (do_corrupt)
          corrupt(&c, ran + (int)o); /* the parity moves with the op: both checks of every mode */
        char why[512] = "";
        const int ok = check_case(&c, init, operand, why, sizeof why);
        printf("%s %u lanes x %u iters x %u groups on %u word%s: %s\n", ok ? "PASS" : "FAIL", c.wg, c.iters, c.groups,
               c.words, c.words > 1 ? "s each" : "", ok ? "final values and returned values exact" : why);
        if (!ok && !do_corrupt) {
          /* what the first lanes of group 0 got back, for the report */
          printf("    first returned values (group 0, iteration 0, lanes 0..7):");
          for (uint32_t l = 0; l < 8 && c.returns; l++)
            printf(" 0x%llx", (unsigned long long)load(vk.returned.map, c.type, (size_t)l * c.iters));
          printf("\n");
        }
        failed += !ok;
        caught += do_corrupt && !ok;
      }
  teardown();
  if (ran == 0) {
    printf("SKIP: the device has none of the features these cases need\n");
    return 77;
  }
  if (do_corrupt) {
    printf("%d of %d corrupted cases caught\n", caught, ran);
    return caught == ran ? 0 : 1;
  }
  printf("%d cases run, %d failed\n", ran, failed);
  return failed ? 1 : 0;
}
