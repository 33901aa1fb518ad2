/* Internal: the library's buffers, shared by its operations (scatter_lib.c) and their entry on a program's own
 * objects (scatter_interop.c). */
#ifndef ATOMLAB_APPS_SCATTER_LIB_H
#define ATOMLAB_APPS_SCATTER_LIB_H

#include <stddef.h>

#include "atomlab/scatter.h"

/* Releases the handle of a wrapped buffer (not the memory, the program's). */
void atl__buffer_unwrap(atl_context_t ctx, atl_buffer_t buf);

/* atl_scatter_add on the open device, its device time (where @p device_ms) the sum of its launches'. */
int atl__scatter_add_now(atl_context_t ctx, const struct atl_scatter_desc *d, atl_buffer_t out, atl_buffer_t src,
                         atl_buffer_t idx, double *device_ms);

#endif
