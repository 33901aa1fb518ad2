/* Small pieces every backend's kernel build shares. */
#ifndef ATOMLAB_BACKEND_COMMON_H
#define ATOMLAB_BACKEND_COMMON_H

#include <stddef.h>

#include "atomlab/backend.h"

/** The cache key of a build request, "source|entry|defines" (malloc'ed; NULL if out of memory). */
char *atl__build_key(const struct atl_build *req);

/**
 * Splits space-separated defines "A=1 B" into compiler options "-DA=1", "-DB",
 * stored in @p storage (at least 2 * strlen(defines) + 2 bytes), with pointers
 * in @p argv. Returns the number of options, or -1 if more than @p max.
 */
int atl__define_options(const char *defines, char *storage, const char **argv, int max);

#endif
