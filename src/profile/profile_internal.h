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

struct atl_ncu_export;

/**
 * The launches of a parsed ncu export (core/ncu_export.h), in its order. The NVTX range is that of the first
 * column of the accepted names (launches.c: ncu --nvtx names it by version) that names a call site, else the
 * kernel name itself where --print-nvtx-rename kernel put one there. Returns 0, or ATL_EINVAL (no header with
 * "ID" and "Kernel Name") / ATL_ENOMEM with @p why.
 */
int atl__launches_from_export(const struct atl_ncu_export *e, struct atl__launch **out, size_t *count, char *why,
                              size_t why_len);

/** The innermost range of an NVTX field ("domain:a/b@f.py:3" -> "b@f.py:3"): one that names a call site. */
void atl__nvtx_innermost(const char *field, char *out, size_t len);

/**
 * The innermost range that names a call site of an NVTX stack field of ncu 2025.x and later, whose column is
 * "thread Domain:Push/Pop_Range:PL_Type:PL_Value:CLR_Type:Color:Msg_Type:Msg": the thread, then one quoted entry
 * per range ("97844 \"<default domain>:op@f.py:3:none:none:none:none:none:none\""). "" where none names one.
 */
void atl__nvtx_stack_innermost(const char *field, char *out, size_t len);

#endif
