/*
 * Buffers of an open Vulkan device: device-local storage buffers for the
 * kernels' arguments, copies and fills through one host-visible staging
 * buffer.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_internal.h"

void atl__vk_buf_destroy(struct vk_dev *d, struct vk_buf *b)
{
  if (b->buffer)
    d->vkDestroyBuffer(d->device, b->buffer, NULL);
  if (b->memory)
    d->vkFreeMemory(d->device, b->memory, NULL);
  memset(b, 0, sizeof *b);
}

static int memory_type(const struct vk_dev *d, uint32_t bits, VkMemoryPropertyFlags want)
{
  for (uint32_t i = 0; i < d->mem.memoryTypeCount; i++)
    if ((bits & (1u << i)) && (d->mem.memoryTypes[i].propertyFlags & want) == want)
      return (int)i;
  return -1;
}

/* A buffer in memory with @p want, falling back to any memory type for @p fallback; bound @p offset bytes (rounded
 * up to the buffer's alignment) into its allocation, or in a dedicated allocation. */
static int buf_place(struct vk_dev *d, VkDeviceSize size, VkBufferUsageFlags usage, VkMemoryPropertyFlags want,
                     VkMemoryPropertyFlags fallback, VkDeviceSize offset, int dedicated, struct vk_buf *b)
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
    atl__vk_buf_destroy(d, b);
    return atl__seterr(d->ctx, ATL_EBACKEND, "vulkan: no memory type for a buffer of %llu bytes",
                       (unsigned long long)size);
  }
  if (req.alignment > 1)
    offset = (offset + req.alignment - 1) / req.alignment * req.alignment;
  VkMemoryDedicatedAllocateInfo ded = {.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO, .buffer = b->buffer};
  VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                              .pNext = dedicated ? &ded : NULL,
                              .allocationSize = req.size + offset,
                              .memoryTypeIndex = (uint32_t)type};
  if ((r = d->vkAllocateMemory(d->device, &mai, NULL, &b->memory)) != VK_SUCCESS ||
      (r = d->vkBindBufferMemory(d->device, b->buffer, b->memory, offset)) != VK_SUCCESS) {
    atl__vk_buf_destroy(d, b);
    return atl__seterr(d->ctx, r == VK_ERROR_OUT_OF_DEVICE_MEMORY ? ATL_ERANGE : ATL_EBACKEND,
                       "vulkan: allocating %llu bytes failed: %s (%d)", (unsigned long long)size,
                       atl__vk_result_name(r), (int)r);
  }
  b->size = size;
  return 0;
}

static int buf_create(struct vk_dev *d, VkDeviceSize size, VkBufferUsageFlags usage, VkMemoryPropertyFlags want,
                      VkMemoryPropertyFlags fallback, struct vk_buf *b)
{
  return buf_place(d, size, usage, want, fallback, 0, 0, b);
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
    atl__vk_buf_destroy(d, &d->staging);
  }
  const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  int err = buf_create(d, want, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                       host | VK_MEMORY_PROPERTY_HOST_CACHED_BIT, host, &d->staging);
  if (err)
    return err;
  VkResult r = d->vkMapMemory(d->device, d->staging.memory, 0, VK_WHOLE_SIZE, 0, &d->staging_map);
  if (r != VK_SUCCESS) {
    atl__vk_buf_destroy(d, &d->staging);
    return VK_FAIL(d, "vkMapMemory", r);
  }
  return 0;
}

int atl__vk_alloc(void *handle, size_t bytes, void **out)
{
  struct vk_dev *d = handle;
  *out = NULL;
  struct vk_buf *b = calloc(1, sizeof *b);
  if (b == NULL)
    return ATL_ENOMEM;
  /* Device-local memory: on a discrete GPU host-visible memory would put the atomics across PCIe. The placement
   * experiments (ATL_VULKAN_MEMORY, ATL_VULKAN_OFFSET) ask for device-local memory the host can map (the BAR heap,
   * where the driver may map pages otherwise), a dedicated allocation, or an offset into the allocation; a
   * host-visible request has no fallback, so a row never runs in memory it did not ask for. */
  const VkMemoryPropertyFlags want =
      VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | (d->memory_kind == VK_MEM_HOST_VISIBLE ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT : 0);
  int err = buf_place(d, bytes ? bytes : 4,
                      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                          VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                      want, d->memory_kind == VK_MEM_HOST_VISIBLE ? want : 0, d->bind_offset,
                      d->memory_kind == VK_MEM_DEDICATED, b);
  if (err) {
    free(b);
    return err;
  }
  /* Touch the memory now, so an out-of-memory shows here rather than at the first launch. */
  if ((err = atl__vk_begin(d)) == 0) {
    d->vkCmdFillBuffer(d->cmd, b->buffer, 0, VK_WHOLE_SIZE, 0);
    err = atl__vk_submit_wait(d);
  }
  if (err) {
    atl__vk_buf_destroy(d, b);
    free(b);
    return err;
  }
  *out = b;
  return 0;
}

void atl__vk_free(void *handle, void *buf)
{
  struct vk_dev *d = handle;
  if (buf == NULL)
    return;
  atl__vk_buf_destroy(d, buf);
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
    if ((err = atl__vk_begin(d)))
      break;
    VkBufferCopy region = {.srcOffset = to_device ? 0 : done, .dstOffset = to_device ? done : 0, .size = n};
    d->vkCmdCopyBuffer(d->cmd, to_device ? d->staging.buffer : b->buffer, to_device ? b->buffer : d->staging.buffer,
                       1, &region);
    if ((err = atl__vk_submit_wait(d)))
      break;
    if (!to_device)
      memcpy((char *)host + done, d->staging_map, n);
    done += n;
  }
  return err;
}

int atl__vk_write(void *handle, void *buf, const void *src, size_t bytes)
{
  return copy(handle, buf, (void *)src, bytes, 1);
}

int atl__vk_read(void *handle, void *buf, void *dst, size_t bytes) { return copy(handle, buf, dst, bytes, 0); }

int atl__vk_fill(void *handle, void *buf, const void *pattern, size_t pattern_size, size_t bytes)
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
    int err = atl__vk_begin(d);
    if (err)
      return err;
    if (bytes)
      d->vkCmdFillBuffer(d->cmd, b->buffer, 0, bytes, words[0]);
    return atl__vk_submit_wait(d);
  }
  /* An 8-byte pattern of two different halves: write it from the host in staging-sized pieces. */
  int err = staging(d, bytes ? bytes : 8);
  for (size_t done = 0; !err && done < bytes;) {
    size_t n = bytes - done < d->staging.size ? bytes - done : (size_t)d->staging.size;
    n -= n % 8;
    for (size_t i = 0; i < n; i += 8)
      memcpy((char *)d->staging_map + i, pattern, 8);
    if ((err = atl__vk_begin(d)))
      break;
    VkBufferCopy region = {.srcOffset = 0, .dstOffset = done, .size = n};
    d->vkCmdCopyBuffer(d->cmd, d->staging.buffer, b->buffer, 1, &region);
    err = atl__vk_submit_wait(d);
    done += n;
  }
  return err;
}
