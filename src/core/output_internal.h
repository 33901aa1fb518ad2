/* Internal: the pieces of the result writers other writers reuse (strategy and app rows). */
#ifndef ATOMLAB_CORE_OUTPUT_INTERNAL_H
#define ATOMLAB_CORE_OUTPUT_INTERNAL_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "atomlab.h"

/**
 * A new JSON object holding the provenance every atomlab JSON file starts
 * with: format_version, tool (name, version, commit), date and command.
 * The caller adds the rest and owns the object.
 */
cJSON *atl__json_provenance(const struct atl_run_meta *meta);

/** A JSON object with the run's metadata (format_version, tool, date, command, device, occupancy, settings). */
cJSON *atl__json_meta(const struct atl_run_meta *meta);

/** One row's fields as JSON (spec, status, statistics, samples). */
cJSON *atl__row_json(const struct atl_row *row);

/** Prints @p root followed by a newline and frees it. */
int atl__json_print(FILE *f, cJSON *root);

/** One number of a JSON object: its key and its value. */
struct atl__json_num {
  const char *key;
  double value;
};

/** Adds the @p n numbers of @p nums to @p obj in their order (the writers' field lists as data). */
void atl__json_add_numbers(cJSON *obj, const struct atl__json_num *nums, size_t n);

/** The device facts as a JSON object, as every result file records them. */
cJSON *atl__device_json(const struct atl_device_info *d);

/**
 * Makes room for one more element in a row array (@p rows holding @p count
 * of @p *cap elements of @p size bytes): doubles it when full, starting at
 * @p first. Returns the array (moved or not), or NULL when out of memory
 * with the old array and @p *cap unchanged.
 */
/* The rows lock: atl_result_set_add() holds it while it appends, so another thread (an app run's checkpoint)
 * may read a set that grows (atl__rows_lock_until: 0 once held, else the wait ran out). Recursive. */
struct timespec;
int atl__rows_lock_until(const struct timespec *until);
void atl__rows_unlock(void);

void *atl__grow_rows(void *rows, size_t *cap, size_t count, size_t size, size_t first);

/**
 * A new zeroed element at the end of the array whose pointer is at
 * @p items_ptr (@p *count elements of @p size, room for @p *cap), grown as
 * atl__grow_rows() grows it; the element, or NULL when out of memory (the
 * array, count and room unchanged).
 */
void *atl__grow_slot(void *items_ptr, size_t *count, size_t *cap, size_t size, size_t first);

#endif
