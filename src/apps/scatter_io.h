/* Internal: the scatter app's 16-bit float conversions and checked dumps (scatter_io.c). */
#ifndef ATOMLAB_APPS_SCATTER_IO_H
#define ATOMLAB_APPS_SCATTER_IO_H

#include <stddef.h>
#include <stdint.h>

#include "atomlab/device.h"

/* f32 to bf16 and to f16, rounding to nearest, ties to even (as atomlab/scatter_device.h does). */
uint16_t atl__to_bf16(float f);
uint16_t atl__to_f16(float f);
/* A bf16 (@p bf16 nonzero) or f16 value as a float. */
float atl__from_16(int bf16, uint16_t h);

/* Raw little-endian FOLDER/NAME-DIST.bin for a peer to load; every write checked: 0, or ATL_EIO on @p ctx. */
int atl__scatter_dump(atl_context_t ctx, const char *folder, const char *name, const char *dist, const void *data,
                      size_t bytes);

#endif
