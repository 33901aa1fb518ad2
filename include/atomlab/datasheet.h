/**
 * @file datasheet.h
 * The device's atomics datasheet (issue [report-findings]): per op, type,
 * memory space and result use, the peak rate (one thread per word) and the
 * same-address rate (the most threads per word measured), the table a
 * shared-memory model's authors ask vendors to publish.
 */
#ifndef ATOMLAB_DATASHEET_H
#define ATOMLAB_DATASHEET_H

#include "experimental.h" /* not the stable API */

#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Builds the datasheet rows (kind "datasheet") of @p rmw's contiguous rows into @p out
 * (its meta copied from @p rmw): one per (op, type, space, result) with a
 * verified row, metrics peak_gops (the fastest verified row at contention 1),
 * same_address_gops with same_address_threads (the verified row of the most
 * threads per word at padding 1) and same_address_slowdown; the row's time
 * statistics are the peak row's. 0, or ATL_ENOMEM.
 */
int atl_datasheet(const struct atl_result_set *rmw, struct atl_result_set *out);

#ifdef __cplusplus
}
#endif
#endif
