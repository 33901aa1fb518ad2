/* Internal: the named axes of a sweep's axes struct (struct atl_rmw_axes,
 * struct atl_strategy_axes) as data, set by name through one function. */
#ifndef ATOMLAB_CORE_NAME_AXES_H
#define ATOMLAB_CORE_NAME_AXES_H

#include <stddef.h>

#include "atomlab.h"

/** One named axis of an axes struct: its names, and the offsets of its int array and its size_t count. */
struct atl__name_axis_field {
  struct atl_name_axis axis;
  size_t values, count;
};

/**
 * Sets the axis of @p fields (@p n) named @p name in the struct @p axes from
 * @p text (at most @p max values), as atl_name_axis_parse(). @p command
 * names the sweep in the reason for a name that is none of its axes.
 */
int atl__name_axes_set(const struct atl__name_axis_field *fields, size_t n, void *axes, size_t max,
                       const char *command, const char *name, const char *text, char *why, size_t why_len);

#endif
