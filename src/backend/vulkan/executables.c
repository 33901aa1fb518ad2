/*
 * The driver's own view of a kernel through
 * VK_KHR_pipeline_executable_properties: statistics and internal
 * representations (on some drivers the machine code).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_internal.h"

/* A growing text (the executable properties' report). */
struct text {
  char *s;
  size_t len, cap;
};

static void text_add(struct text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void text_add(struct text *t, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0 || (t->s == NULL && t->cap == SIZE_MAX))
    return;
  if (t->len + (size_t)n + 1 > t->cap) {
    size_t cap = (t->len + (size_t)n + 1) * 2;
    char *grown = realloc(t->s, cap);
    if (grown == NULL) {
      free(t->s);
      t->s = NULL;
      t->cap = SIZE_MAX; /* out of memory: stays empty */
      return;
    }
    t->s = grown;
    t->cap = cap;
  }
  va_start(ap, fmt);
  vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
  va_end(ap);
  t->len += (size_t)n;
}

/* What VK_KHR_pipeline_executable_properties tells of one pipeline: each executable's name and subgroup size,
 * its statistics and its internal representations (text ones whole; binary ones by size). */
static void executables(struct vk_dev *d, VkPipeline pipeline, struct text *t)
{
  VkPipelineInfoKHR pi = {.sType = VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR, .pipeline = pipeline};
  uint32_t n = 0;
  if (d->vkGetPipelineExecutablePropertiesKHR(d->device, &pi, &n, NULL) != VK_SUCCESS || n == 0) {
    text_add(t, "the driver lists no executable for this pipeline\n");
    return;
  }
  VkPipelineExecutablePropertiesKHR *props = calloc(n, sizeof *props);
  if (props == NULL)
    return;
  for (uint32_t i = 0; i < n; i++)
    props[i].sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR;
  d->vkGetPipelineExecutablePropertiesKHR(d->device, &pi, &n, props);
  for (uint32_t i = 0; i < n; i++) {
    text_add(t, "== executable %u: %s (%s), subgroup size %u\n", i, props[i].name, props[i].description,
             props[i].subgroupSize);
    VkPipelineExecutableInfoKHR ei = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR, .pipeline = pipeline, .executableIndex = i};
    uint32_t ns = 0;
    VkPipelineExecutableStatisticKHR *stats = NULL;
    if (d->vkGetPipelineExecutableStatisticsKHR(d->device, &ei, &ns, NULL) == VK_SUCCESS && ns &&
        (stats = calloc(ns, sizeof *stats)) != NULL) {
      for (uint32_t k = 0; k < ns; k++)
        stats[k].sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR;
      d->vkGetPipelineExecutableStatisticsKHR(d->device, &ei, &ns, stats);
      for (uint32_t k = 0; k < ns; k++) {
        const VkPipelineExecutableStatisticKHR *st = &stats[k];
        switch (st->format) {
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
          text_add(t, "statistic %s: %s\n", st->name, st->value.b32 ? "true" : "false");
          break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
          text_add(t, "statistic %s: %lld\n", st->name, (long long)st->value.i64);
          break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
          text_add(t, "statistic %s: %llu\n", st->name, (unsigned long long)st->value.u64);
          break;
        default:
          text_add(t, "statistic %s: %g\n", st->name, st->value.f64);
          break;
        }
      }
    }
    free(stats);
    uint32_t nr = 0;
    VkPipelineExecutableInternalRepresentationKHR *irs = NULL;
    if (d->vkGetPipelineExecutableInternalRepresentationsKHR(d->device, &ei, &nr, NULL) == VK_SUCCESS && nr &&
        (irs = calloc(nr, sizeof *irs)) != NULL) {
      for (uint32_t k = 0; k < nr; k++)
        irs[k].sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INTERNAL_REPRESENTATION_KHR;
      /* First the sizes, then the data. */
      d->vkGetPipelineExecutableInternalRepresentationsKHR(d->device, &ei, &nr, irs);
      int ok = 1;
      for (uint32_t k = 0; k < nr; k++)
        ok &= (irs[k].pData = calloc(1, irs[k].dataSize + 1)) != NULL;
      if (ok)
        d->vkGetPipelineExecutableInternalRepresentationsKHR(d->device, &ei, &nr, irs);
      for (uint32_t k = 0; k < nr && ok; k++) {
        text_add(t, "-- representation %s (%s), %zu bytes%s\n", irs[k].name, irs[k].description, irs[k].dataSize,
                 irs[k].isText ? ":" : " of binary");
        if (irs[k].isText)
          text_add(t, "%.*s\n", (int)irs[k].dataSize, (const char *)irs[k].pData);
      }
      for (uint32_t k = 0; k < nr; k++)
        free(irs[k].pData);
    }
    free(irs);
  }
  free(props);
}

/* The driver's own view of a kernel (VK_KHR_pipeline_executable_properties): statistics and internal
 * representations (on some drivers the machine code) of the pipeline of the last launch, or of one for the
 * largest work-group where there was none. NULL with the reason where the driver does not expose them. */
char *atl__vk_kernel_isa(void *handle, void *kernel, char *why, size_t why_len)
{
  struct vk_dev *d = handle;
  struct vk_kernel *k = kernel;
  if (!d->has_exec) {
    snprintf(why, why_len, "unavailable: %s does not expose VK_KHR_pipeline_executable_properties "
             "(pipelineExecutableInfo); the SPIR-V's atomics are in the row's instructions", d->caps.props.deviceName);
    return NULL;
  }
  VkPipeline pipeline = k->last;
  if (pipeline == VK_NULL_HANDLE) {
    const VkPhysicalDeviceLimits *lim = &d->caps.props.limits;
    uint32_t local = lim->maxComputeWorkGroupInvocations < lim->maxComputeWorkGroupSize[0]
                         ? lim->maxComputeWorkGroupInvocations
                         : lim->maxComputeWorkGroupSize[0];
    if (atl__vk_pipeline_for(d, k, local, &pipeline) != 0) {
      snprintf(why, why_len, "%s", "no pipeline: creating one failed");
      return NULL;
    }
  }
  struct text t = {0};
  text_add(&t, "pipeline executable properties of %s\n", k->built.key);
  executables(d, pipeline, &t);
  if (t.s == NULL)
    snprintf(why, why_len, "out of memory");
  return t.s;
}
