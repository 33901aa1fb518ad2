/*
 * repro_loop_limit: a standalone reproducer (plain C and the Vulkan loader, no atomlab code) of the updates
 * atomlab's CAS and fetch_add rows lost on lavapipe. Each invocation of repro_loop_limit.comp adds 1 to its own
 * word ITERS times, through atomicAdd or a CAS loop; with no word shared, every word must end at ITERS.
 *
 * On llvmpipe (Mesa's lavapipe) they do not: gallivm counts every pass of every loop of an invocation (of its
 * SIMD batch) against one limiter of 65535 (LP_MAX_TGSI_LOOP_ITERATIONS, src/gallium/auxiliary/gallivm) and
 * leaves all the loops when it runs out, without an error. atomicAdd's loop passes once per update: the words stop
 * at 65535. The CAS loop passes twice per update (its own loop, then the outer one): they stop at 32768.
 *
 *   repro_loop_limit [--device N] [--expect-llvmpipe]
 *
 * One line per case, PASS or FAIL with what the words hold. Exit 0 if every word of every case ends at ITERS,
 * 1 if not, 77 without a Vulkan device, 2 on bad arguments. --expect-llvmpipe: exit 0 only if the device behaves
 * as documented (docs/design/reliability.md): on llvmpipe every word stops exactly where the limiter ends its
 * loops, elsewhere every word ends at ITERS; so a driver that drops the limit, or loses updates some other way,
 * fails.
 */
#include <vulkan/vulkan.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t spv_add[] =
#include "loop_add.inc"
    ;
static const uint32_t spv_cas[] =
#include "loop_cas.inc"
    ;

#define GROUPS 4u
#define WG 64u /* the shader's local_size_x */
#define WORDS (GROUPS * WG)
#define LIMIT 65535u /* llvmpipe's loop limiter */

struct rcase {
  const char *op;
  const uint32_t *spv;
  size_t spv_bytes;
  uint32_t passes; /* loop passes per update: the limiter stops the words at LIMIT / passes, rounded up */
  uint32_t iters;
};

static const struct rcase cases[] = {
    {"add", spv_add, sizeof spv_add, 1, 65535},  {"add", spv_add, sizeof spv_add, 1, 65536},
    {"add", spv_add, sizeof spv_add, 1, 100000}, {"cas", spv_cas, sizeof spv_cas, 2, 32767},
    {"cas", spv_cas, sizeof spv_cas, 2, 32768},  {"cas", spv_cas, sizeof spv_cas, 2, 32769},
    {"cas", spv_cas, sizeof spv_cas, 2, 100000},
};

static struct {
  VkInstance instance;
  VkPhysicalDevice pd;
  VkDevice device;
  VkQueue queue;
  uint32_t family;
  VkBuffer buffer;
  VkDeviceMemory memory;
  uint32_t *words;
  VkDescriptorSetLayout set_layout;
  VkPipelineLayout layout;
  VkDescriptorPool pool;
  VkDescriptorSet set;
  VkCommandPool cmd_pool;
  VkCommandBuffer cmd;
  VkFence fence;
  int llvmpipe;
} vk;

#define CHECK(call)                                                                                                    \
  do {                                                                                                                 \
    VkResult r_ = (call);                                                                                              \
    if (r_ != VK_SUCCESS) {                                                                                            \
      fprintf(stderr, "repro_loop_limit: %s failed: VkResult %d\n", #call, (int)r_);                                   \
      return -1;                                                                                                       \
    }                                                                                                                  \
  } while (0)

/* The instance and device @p index: 0, 77 without one, -1 on a failure. */
static int open_device(uint32_t index)
{
  VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_1};
  VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
  if (vkCreateInstance(&ici, NULL, &vk.instance) != VK_SUCCESS)
    return 77;
  uint32_t n = 0;
  if (vkEnumeratePhysicalDevices(vk.instance, &n, NULL) != VK_SUCCESS || n <= index)
    return 77;
  VkPhysicalDevice *pds = calloc(n, sizeof *pds);
  if (pds == NULL || vkEnumeratePhysicalDevices(vk.instance, &n, pds) != VK_SUCCESS) {
    free(pds);
    return -1;
  }
  vk.pd = pds[index];
  free(pds);
  VkPhysicalDeviceDriverProperties driver = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &driver};
  vkGetPhysicalDeviceProperties2(vk.pd, &p2);
  vk.llvmpipe = driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE;
  printf("device %u: %s (%s %s)\n", index, p2.properties.deviceName, driver.driverName, driver.driverInfo);
  VkQueueFamilyProperties qf[16];
  uint32_t nq = 16;
  vkGetPhysicalDeviceQueueFamilyProperties(vk.pd, &nq, qf);
  for (vk.family = 0; vk.family < nq && !(qf[vk.family].queueFlags & VK_QUEUE_COMPUTE_BIT);)
    vk.family++;
  if (vk.family == nq)
    return 77;
  const float prio = 1.0f;
  VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                 .queueFamilyIndex = vk.family,
                                 .queueCount = 1,
                                 .pQueuePriorities = &prio};
  VkDeviceCreateInfo dci = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .queueCreateInfoCount = 1, .pQueueCreateInfos = &qci};
  CHECK(vkCreateDevice(vk.pd, &dci, NULL, &vk.device));
  vkGetDeviceQueue(vk.device, vk.family, 0, &vk.queue);
  return 0;
}

/* The words (host-visible and coherent, mapped), the descriptor set naming them, the command buffer, the fence. */
static int setup(void)
{
  VkBufferCreateInfo bci = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = WORDS * 4, .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
  CHECK(vkCreateBuffer(vk.device, &bci, NULL, &vk.buffer));
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(vk.device, vk.buffer, &req);
  VkPhysicalDeviceMemoryProperties mem;
  vkGetPhysicalDeviceMemoryProperties(vk.pd, &mem);
  const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  uint32_t type = 0;
  while (type < mem.memoryTypeCount &&
         (!(req.memoryTypeBits & (1u << type)) || (mem.memoryTypes[type].propertyFlags & want) != want))
    type++;
  VkMemoryAllocateInfo mai = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size, .memoryTypeIndex = type};
  CHECK(vkAllocateMemory(vk.device, &mai, NULL, &vk.memory));
  CHECK(vkBindBufferMemory(vk.device, vk.buffer, vk.memory, 0));
  CHECK(vkMapMemory(vk.device, vk.memory, 0, VK_WHOLE_SIZE, 0, (void **)&vk.words));
  VkDescriptorSetLayoutBinding b = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
  VkDescriptorSetLayoutCreateInfo dl = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = 1, .pBindings = &b};
  CHECK(vkCreateDescriptorSetLayout(vk.device, &dl, NULL, &vk.set_layout));
  VkPushConstantRange pc = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 4};
  VkPipelineLayoutCreateInfo pl = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                   .setLayoutCount = 1,
                                   .pSetLayouts = &vk.set_layout,
                                   .pushConstantRangeCount = 1,
                                   .pPushConstantRanges = &pc};
  CHECK(vkCreatePipelineLayout(vk.device, &pl, NULL, &vk.layout));
  VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
  VkDescriptorPoolCreateInfo dp = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &ps};
  CHECK(vkCreateDescriptorPool(vk.device, &dp, NULL, &vk.pool));
  VkDescriptorSetAllocateInfo dsa = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                     .descriptorPool = vk.pool,
                                     .descriptorSetCount = 1,
                                     .pSetLayouts = &vk.set_layout};
  CHECK(vkAllocateDescriptorSets(vk.device, &dsa, &vk.set));
  VkDescriptorBufferInfo info = {vk.buffer, 0, VK_WHOLE_SIZE};
  VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                            .dstSet = vk.set,
                            .descriptorCount = 1,
                            .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                            .pBufferInfo = &info};
  vkUpdateDescriptorSets(vk.device, 1, &w, 0, NULL);
  VkCommandPoolCreateInfo cp = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                .queueFamilyIndex = vk.family};
  CHECK(vkCreateCommandPool(vk.device, &cp, NULL, &vk.cmd_pool));
  VkCommandBufferAllocateInfo ca = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                    .commandPool = vk.cmd_pool,
                                    .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                    .commandBufferCount = 1};
  CHECK(vkAllocateCommandBuffers(vk.device, &ca, &vk.cmd));
  VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  CHECK(vkCreateFence(vk.device, &fci, NULL, &vk.fence));
  return 0;
}

/* One case: the words zeroed, one dispatch, the words read back after the host-read barrier. */
static int run(const struct rcase *c)
{
  VkShaderModuleCreateInfo smi = {
      .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = c->spv_bytes, .pCode = c->spv};
  VkShaderModule module;
  CHECK(vkCreateShaderModule(vk.device, &smi, NULL, &module));
  VkComputePipelineCreateInfo cpi = {.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
                                     .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                               .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                                               .module = module,
                                               .pName = "main"},
                                     .layout = vk.layout};
  VkPipeline pipeline;
  VkResult r = vkCreateComputePipelines(vk.device, VK_NULL_HANDLE, 1, &cpi, NULL, &pipeline);
  vkDestroyShaderModule(vk.device, module, NULL);
  CHECK(r);
  memset(vk.words, 0, WORDS * 4);
  VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  CHECK(vkBeginCommandBuffer(vk.cmd, &bi));
  vkCmdBindPipeline(vk.cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdBindDescriptorSets(vk.cmd, VK_PIPELINE_BIND_POINT_COMPUTE, vk.layout, 0, 1, &vk.set, 0, NULL);
  vkCmdPushConstants(vk.cmd, vk.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &c->iters);
  vkCmdDispatch(vk.cmd, GROUPS, 1, 1);
  VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                        .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                        .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(vk.cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0,
                       NULL);
  CHECK(vkEndCommandBuffer(vk.cmd));
  VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &vk.cmd};
  CHECK(vkResetFences(vk.device, 1, &vk.fence));
  CHECK(vkQueueSubmit(vk.queue, 1, &si, vk.fence));
  CHECK(vkWaitForFences(vk.device, 1, &vk.fence, VK_TRUE, UINT64_MAX));
  vkDestroyPipeline(vk.device, pipeline, NULL);
  return 0;
}

int main(int argc, char **argv)
{
  uint32_t index = 0;
  int expect = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--device") == 0 && i + 1 < argc)
      index = (uint32_t)strtoul(argv[++i], NULL, 10);
    else if (strcmp(argv[i], "--expect-llvmpipe") == 0)
      expect = 1;
    else {
      fprintf(stderr, "usage: repro_loop_limit [--device N] [--expect-llvmpipe]\n");
      return 2;
    }
  }
  int rc = open_device(index);
  if (rc == 77)
    printf("no Vulkan device: skipped\n");
  if (rc)
    return rc < 0 ? 1 : rc;
  if (setup())
    return 1;
  int exact = 1, as_documented = 1;
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    const struct rcase *c = &cases[k];
    if (run(c))
      return 1;
    const uint32_t cut = (LIMIT + c->passes - 1) / c->passes; /* the last pass ends the loops mid-update */
    const uint32_t documented = vk.llvmpipe && c->iters > cut ? cut : c->iters;
    uint32_t lo = UINT32_MAX, hi = 0, off = 0;
    for (uint32_t w = 0; w < WORDS; w++) {
      lo = vk.words[w] < lo ? vk.words[w] : lo;
      hi = vk.words[w] > hi ? vk.words[w] : hi;
      off += vk.words[w] != documented;
    }
    const int ok = lo == c->iters && hi == c->iters;
    exact &= ok;
    as_documented &= off == 0;
    printf("%s %s iters=%u: words hold %u to %u, expected %u (%u updates lost per word)%s\n", ok ? "PASS" : "FAIL",
           c->op, c->iters, lo, hi, c->iters, c->iters - lo,
           ok || off ? "" : " - where the loop limiter ends the loops");
  }
  if (expect)
    printf("%s: %s\n", as_documented ? "as documented" : "NOT as documented",
           vk.llvmpipe ? "llvmpipe ends the loops after 65535 passes" : "every word ends at ITERS");
  return expect ? !as_documented : !exact;
}
