/* Internal: pieces of the result writers other writers share (the app rows). */
#ifndef ATOMLAB_CORE_OUTPUT_INTERNAL_H
#define ATOMLAB_CORE_OUTPUT_INTERNAL_H

#include <cjson/cJSON.h>

#include "atomlab/device.h"

/* The device facts as a JSON object, as every result file records them. */
cJSON *atl__device_json(const struct atl_device_info *d);

#endif
