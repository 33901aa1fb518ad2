/* Internal: what the output-file modules share (file.c, owned.c, manifest.c). */
#ifndef ATOMLAB_CORE_FILE_INTERNAL_H
#define ATOMLAB_CORE_FILE_INTERNAL_H

#include <stddef.h>

/** @p path with every symbolic link of its last component followed; 0, or a negative ATL_E* code with @p why. */
int atl__file_resolve(const char *path, char *out, size_t len, char *why, size_t wlen);

#endif
