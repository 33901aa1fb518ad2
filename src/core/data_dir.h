/* The source tree's data folders (data/calibrations, data/tuning) for a build run from its checkout. */
#ifndef ATL_CORE_DATA_DIR_H
#define ATL_CORE_DATA_DIR_H

#include <stddef.h>

/*
 * The source tree's folder data/@p sub into @p buf and returned: @p compiled (the path the build was configured in)
 * where it is a folder, else data/@p sub beside the build this code was loaded from (the folder above the
 * executable's or libatomlab's), so a checkout moved or copied with its build (a GPU machine's copy) still finds
 * its calibrations and tuning tables; "" where neither is a folder. The environment variable
 * ATL_TEST_MOVED_CHECKOUT (tests only) skips @p compiled.
 */
const char *atl__source_data_dir(const char *compiled, const char *sub, char *buf, size_t len);

#endif
