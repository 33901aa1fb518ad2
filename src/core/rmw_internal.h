/* Internal pieces of the rmw driver (rmw.c) that the tests use too. */
#ifndef ATOMLAB_CORE_RMW_INTERNAL_H
#define ATOMLAB_CORE_RMW_INTERNAL_H

#include <stddef.h>

#include "atomlab.h"

/** The -D defines that specialise the rmw kernel (both backends) for @p s. */
void atl__rmw_defines(const struct atl_spec *s, char *buf, size_t len);

#endif
