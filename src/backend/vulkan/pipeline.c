/*
 * Kernels on Vulkan: a build request's defines pick the embedded SPIR-V
 * variant (cmake/vulkan_shaders.cmake) and its specialization constants; the
 * descriptor and pipeline layouts per kernel, a compute pipeline per
 * work-group size, created on first use.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spirv.h"

#include "vk_internal.h"

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
  k->iters_from = rmw ? (uint32_t)d->iters_from : 0;
  /* rmw.comp declares GroupNonUniformBallot (for ITERS_FROM 2): a device without it cannot load the module. */
  const VkSubgroupFeatureFlags ballot = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT;
  if (rmw && ((d->caps.subgroup.supportedOperations & ballot) != ballot ||
              !(d->caps.subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT)))
    return atl__seterr(d->ctx, ATL_ENOTSUP, "%s has no subgroup ballot in compute shaders (rmw.comp declares it)",
                       d->caps.props.deviceName);
  /* Discovery holds every invocation of a group until its invocation 0 is done (discovery.comp's HOLD) unless the
   * request names a mode: a group then counts only while all of it is resident, whatever a driver does with the
   * warps of invocations that returned. NVIDIA's Vulkan driver starts new groups in the warp slots returned
   * invocations give back (H100: up to 32 groups of 256 an SM ran at once with the early return, 4224 counted; with
   * the hold 1056, as CUDA and OpenCL count; docs/design/vulkan.md). DISCOVERY_MODE=0 is discovery.k.c's twin. */
  k->discovery_mode = rmw ? 0 : (uint32_t)define_value(req->defines, "DISCOVERY_MODE", VK_DISCOVERY_HOLD);
  return 0;
}

int atl__vk_build(void *handle, const struct atl_build *req, void **kernel)
{
  struct vk_dev *d = handle;
  char *key = NULL;
  int err = atl__built_find(d->kernels, req, kernel, &key);
  if (err || *kernel)
    return err;
  struct vk_kernel *k = calloc(1, sizeof *k);
  if (k == NULL) {
    free(key);
    return ATL_ENOMEM;
  }
  k->built.key = key;
  err = pick_shader(d, req, k);
  if (err) {
    atl__vk_kernel_free(d, k);
    return err;
  }
  const int bindings = atl__spirv_bindings(k->shader->words, k->shader->nwords);
  if (bindings < 0) {
    atl__vk_kernel_free(d, k);
    return atl__seterr(d->ctx, ATL_EBUILD, "vulkan: the embedded SPIR-V of '%s' is malformed", req->source);
  }
  k->bindings = (uint32_t)bindings;
  atl__spirv_atomics(k->shader->words, k->shader->nwords, k->instructions, sizeof k->instructions);
  /* A loop count other than the default's is part of what the row ran: say so beside the atomics. */
  static const char *const iters_note[] = {" (loop count: storage buffer)", "", " (loop count: buffer, broadcast)"};
  if (k->instructions[0]) {
    const size_t used = strlen(k->instructions);
    snprintf(k->instructions + used, sizeof k->instructions - used, "%s", iters_note[k->iters_from]);
  }
  VkShaderModuleCreateInfo smi = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                  .codeSize = k->shader->nwords * sizeof(uint32_t),
                                  .pCode = k->shader->words};
  VkDescriptorSetLayoutBinding lb[16];
  if (k->bindings > 16) {
    atl__vk_kernel_free(d, k);
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
                      atl__vk_result_name(r), (int)r);
    atl__vk_kernel_free(d, k);
    return err;
  }
  k->built.next = d->kernels;
  d->kernels = &k->built;
  *kernel = k;
  return 0;
}

/* The kernel's pipeline for a work-group size, created on first use. */
int atl__vk_pipeline_for(struct vk_dev *d, struct vk_kernel *k, uint32_t local, VkPipeline *out)
{
  for (struct vk_pipeline *p = k->pipelines; p; p = p->next)
    if (p->local == local) {
      *out = p->pipeline;
      return 0;
    }
  /* The specialization constants, ids as rmw.comp declares them: 0 work-group size, 1 start value, 2 operand
   * (raw bits of the element type), 3 shared words, 4 random, 5 branched, 6 where the loop count comes from;
   * discovery.comp's 7, its mode. A shader ignores ids it lacks. */
  struct {
    uint32_t local;
    uint32_t pad;
    uint64_t init, operand;
    uint32_t words, random, branched, iters_from, discovery_mode;
  } data = {local, 0, k->init_bits, k->operand_bits, k->local_words, k->random, k->branched, k->iters_from,
            k->discovery_mode};
  /* 4-byte values sit in the low half of their 8-byte slot (little-endian, as every Vulkan device's host is). */
  VkSpecializationMapEntry map[] = {
      {0, offsetof(__typeof__(data), local), 4},
      {1, offsetof(__typeof__(data), init), k->value_size},
      {2, offsetof(__typeof__(data), operand), k->value_size},
      {3, offsetof(__typeof__(data), words), 4},
      {4, offsetof(__typeof__(data), random), 4},
      {5, offsetof(__typeof__(data), branched), 4},
      {6, offsetof(__typeof__(data), iters_from), 4},
      {7, offsetof(__typeof__(data), discovery_mode), 4},
  };
  VkSpecializationInfo si = {sizeof map / sizeof map[0], map, sizeof data, &data};
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
                       k->built.key, local, atl__vk_result_name(r), (int)r);
  }
  p->local = local;
  p->next = k->pipelines;
  k->pipelines = p;
  *out = p->pipeline;
  return 0;
}

void atl__vk_kernel_free(struct vk_dev *d, struct vk_kernel *k)
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
  free(k->built.key);
  free(k);
}
