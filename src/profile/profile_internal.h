/* Internal: what the diagnosis reads of an export besides the models' counters. */
#ifndef ATOMLAB_PROFILE_INTERNAL_H
#define ATOMLAB_PROFILE_INTERNAL_H

#include <stddef.h>

/** One launch of an ncu raw export: where it ran and which user code launched it. */
struct atl__launch {
  char id[32];
  char kernel[256];
  char device[16];       /**< ncu's "Device" column: the device the program used for this launch */
  char device_name[96];  /**< device__attribute_display_name, "" where the export lacks it */
  char nvtx[192];        /**< the innermost NVTX range ("op@file:line"), "" where none */
};

/**
 * The launches of an ncu raw export @p text (the header's "ID" line on), in its order. The NVTX range is that of
 * a column whose name starts with "NVTX" or ends in "push_pop_ranges" (ncu --nvtx), else the kernel name itself
 * where --print-nvtx-rename kernel put one there. Returns 0, or ATL_EINVAL / ATL_ENOMEM with @p why.
 */
int atl__launches_read(const char *text, const char *name, struct atl__launch **out, size_t *count, char *why,
                       size_t why_len);

/** The innermost range of an NVTX field ("domain:a/b@f.py:3" -> "b@f.py:3"): one that names a call site. */
void atl__nvtx_innermost(const char *field, char *out, size_t len);

#endif
