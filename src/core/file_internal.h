/* Internal: what the output-file modules share (file.c, owned.c, manifest.c). */
#ifndef ATOMLAB_CORE_FILE_INTERNAL_H
#define ATOMLAB_CORE_FILE_INTERNAL_H

#include <stddef.h>

/** @p path with every symbolic link of its last component followed; 0, or a negative ATL_E* code with @p why. */
int atl__file_resolve(const char *path, char *out, size_t len, char *why, size_t wlen);

/** Writes the message into @p why (where not NULL) and returns @p err: the modules' one way to fail. */
int atl__file_say(char *why, size_t len, int err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#endif
