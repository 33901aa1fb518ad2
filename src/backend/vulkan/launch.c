/*
 * A timed dispatch: buffer arguments become storage-buffer bindings 0, 1,
 * ... in order, scalar arguments push constants in order; device time from
 * two timestamp queries around the dispatch.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_internal.h"

int atl__vk_launch(void *handle, void *kernel, const struct atl_launch *launch, double *device_ms)
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
  uint64_t by_value = 0; /* the loop count the host wrote to rmw's iters buffer, for ATL_VULKAN_ITERS=push */
  for (size_t i = 0; i < launch->nargs; i++) {
    const struct atl_arg *a = &launch->args[i];
    if (a->kind == ATL_ARG_BUFFER) {
      if (nbuf == k->bindings)
        return atl__seterr(d->ctx, ATL_EINVAL, "vulkan: '%s' takes %u buffers, more were given", k->built.key,
                           k->bindings);
      infos[nbuf] = (VkDescriptorBufferInfo){((struct vk_buf *)a->buffer)->buffer, 0, VK_WHOLE_SIZE};
      writes[nbuf] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                            .dstSet = k->set,
                                            .dstBinding = nbuf,
                                            .descriptorCount = 1,
                                            .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                            .pBufferInfo = &infos[nbuf]};
      if (nbuf == VK_RMW_ITERS_BINDING)
        by_value = a->value;
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
    return atl__seterr(d->ctx, ATL_EINVAL, "vulkan: '%s' takes %u buffers, %u were given", k->built.key, k->bindings,
                       nbuf);
  /* ATL_VULKAN_ITERS=push: rmw.comp reads the loop count from the push constant after the scalar arguments. */
  if (k->iters_from == VK_ITERS_PUSH) {
    const uint32_t v32 = (uint32_t)by_value;
    npush = (npush + 3u) / 4u * 4u;
    if (npush + 4u > PUSH_BYTES)
      return atl__seterr(d->ctx, ATL_EINVAL, "vulkan: more than %u bytes of scalar arguments", PUSH_BYTES);
    memcpy(push + npush, &v32, 4);
    npush += 4;
  }
  VkPipeline pipeline = VK_NULL_HANDLE;
  int err = atl__vk_pipeline_for(d, k, (uint32_t)launch->local, &pipeline);
  if (err)
    return err;
  k->last = pipeline;
  d->vkUpdateDescriptorSets(d->device, nbuf, writes, 0, NULL);
  if ((err = atl__vk_begin(d)))
    return err;
  d->vkCmdResetQueryPool(d->cmd, d->queries, 0, 2);
  d->vkCmdBindPipeline(d->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  d->vkCmdBindDescriptorSets(d->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k->layout, 0, 1, &k->set, 0, NULL);
  if (npush)
    d->vkCmdPushConstants(d->cmd, k->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, npush, push);
  d->vkCmdWriteTimestamp(d->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, d->queries, 0);
  d->vkCmdDispatch(d->cmd, (uint32_t)groups, 1, 1);
  d->vkCmdWriteTimestamp(d->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, d->queries, 1);
  if ((err = atl__vk_submit_wait(d)))
    return err;
  uint64_t ts[2] = {0, 0};
  VkResult r = d->vkGetQueryPoolResults(d->device, d->queries, 0, 2, sizeof ts, ts, sizeof ts[0],
                                        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
  if (r != VK_SUCCESS)
    return VK_FAIL(d, "vkGetQueryPoolResults", r);
  const uint64_t ticks = ((ts[1] & d->timestamp_mask) - (ts[0] & d->timestamp_mask)) & d->timestamp_mask;
  if (device_ms) /* untimed too: each submit waits on its fence */
    *device_ms = (double)ticks * (double)lim->timestampPeriod * 1e-6;
  return 0;
}

int atl__vk_describe_kernel(void *handle, void *kernel, char *buf, size_t len)
{
  (void)handle;
  const struct vk_kernel *k = kernel;
  snprintf(buf, len, "%s", k->instructions);
  return 0;
}
