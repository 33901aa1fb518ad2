/*
 * --device for several devices (device.h): "all" or a comma list of ids or
 * row numbers, each resolved to one device of the list, checked whole
 * (unknown, empty and repeated items refused) before any device is opened.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"

int atl_device_list_is_multi(const char *text)
{
  return text && (strcmp(text, "all") == 0 || strchr(text, ',') != NULL);
}

/* The index of the device item @p item names (an id, or a row number of the whole list), or -1. */
static long resolve(const struct atl_device_info *list, size_t n, const char *item, const char *backend)
{
  char *end;
  unsigned long k = strtoul(item, &end, 10);
  const int by_index = *item >= '0' && *item <= '9' && *end == '\0';
  for (size_t i = 0; i < n; i++) {
    if (backend && strcmp(list[i].backend, backend) != 0)
      continue;
    if ((by_index && k == i) || strcmp(item, list[i].id) == 0)
      return (long)i;
  }
  return -1;
}

int atl_device_list_parse(atl_context_t ctx, const char *text, const char *backend, char (*ids)[32], size_t max,
                          size_t *count)
{
  const struct atl_device_info *list = NULL;
  size_t n = 0;
  if (ctx == NULL)
    return ATL_EINVAL;
  if (text == NULL || ids == NULL || count == NULL)
    return atl__seterr(ctx, ATL_EINVAL, "--device: %s is NULL: it is needed",
                       text == NULL ? "text" : ids == NULL ? "ids" : "count");
  *count = 0;
  int err = atl_devices(ctx, &list, &n);
  if (err)
    return err;
  if (strcmp(text, "all") == 0) {
    /* Without --backend, "all" is every device of the best device's backend: a GPU that two backends list
     * (CUDA and NVIDIA's OpenCL) is one device, and measuring it twice at once would measure neither. */
    if (backend == NULL) {
      int best = -1;
      for (size_t i = 0; i < n; i++) {
        int rank = list[i].type == ATL_DEVICE_GPU ? 3 : list[i].type == ATL_DEVICE_ACCELERATOR ? 2
                                                      : list[i].type == ATL_DEVICE_CPU        ? 1
                                                                                              : 0;
        if (rank > best) {
          best = rank;
          backend = list[i].backend;
        }
      }
    }
    for (size_t i = 0; i < n; i++) {
      if (backend && strcmp(list[i].backend, backend) != 0)
        continue;
      if (*count == max)
        return atl__seterr(ctx, ATL_EINVAL, "'all' is %zu devices or more: allowed: at most %zu", max + 1, max);
      snprintf(ids[(*count)++], 32, "%s", list[i].id);
    }
    if (*count == 0)
      return atl__seterr(ctx, ATL_ENODEV, "'all' found no %s%sdevice%s%s", backend ? backend : "", backend ? " " : "",
                         ctx->notes[0] ? ": " : "", ctx->notes);
    return 0;
  }
  /* Every item resolved before any is used: the first bad one is the error. */
  unsigned char *taken = calloc(n ? n : 1, 1);
  if (taken == NULL)
    return ATL_ENOMEM;
  for (const char *p = text;; p++) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    char item[64];
    if (len == 0 || len >= sizeof item) {
      err = atl__seterr(ctx, ATL_EINVAL, "'%s' has an empty or overlong item: allowed: all, or distinct ids or row "
                        "numbers from 'atomlab devices' separated by commas", text);
      break;
    }
    memcpy(item, p, len);
    item[len] = '\0';
    long i = resolve(list, n, item, backend);
    if (i < 0) {
      err = atl__seterr(ctx, ATL_ENODEV, "no device '%s'%s%s: allowed: 0 to %zu or an id from 'atomlab devices'", item,
                        backend ? " on backend " : "", backend ? backend : "", n ? n - 1 : 0);
      break;
    }
    if (taken[i]) {
      err = atl__seterr(ctx, ATL_EINVAL, "'%s' names device %s twice: allowed: each device once", text, list[i].id);
      break;
    }
    if (*count == max) {
      err = atl__seterr(ctx, ATL_EINVAL, "'%s' names more than %zu devices", text, max);
      break;
    }
    taken[i] = 1;
    snprintf(ids[(*count)++], 32, "%s", list[i].id);
    if (end == NULL)
      break;
    p = end;
  }
  free(taken);
  if (err)
    *count = 0;
  return err;
}
