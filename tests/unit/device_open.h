/*
 * The unit tests' start on a device: a new context with @p backend's first device open. 0 with *ctx set; 77 (ctest's
 * skip) where the machine has no such device, with the reason printed; 1 where even the context fails.
 */
#ifndef ATL_TESTS_UNIT_DEVICE_OPEN_H
#define ATL_TESTS_UNIT_DEVICE_OPEN_H

#include <stdio.h>

#include "atomlab.h"

static inline int test_device_open(const char *backend, atl_context_t *ctx)
{
  *ctx = NULL;
  if (atl_context_new(ctx))
    return 1;
  if (atl_device_open(*ctx, NULL, backend) != 0) {
    printf("no %s device: %s\n", backend, atl_errmsg(*ctx));
    atl_context_free(*ctx);
    *ctx = NULL;
    return 77;
  }
  return 0;
}

#endif
