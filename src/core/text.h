/* Internal: the model's whole-file reader (not public: callers read a model file through its own reader,
 * atl_smem_table_read_csv(), atl_ncu_read_csv(), atl_smem_cases_read_csv()). */
#ifndef ATOMLAB_MODEL_SMEM_TEXT_H
#define ATOMLAB_MODEL_SMEM_TEXT_H

#include <stddef.h>

/** Reads a whole file into a NUL-terminated malloc'ed buffer (NULL on failure, errno set). */
char *atl__read_text_file(const char *path, size_t limit);

/**
 * atl__read_text_file() of a file a user named: a regular file only (see
 * atl_file_open_input()), at most @p limit bytes, text only. NULL with the
 * reason (without the path) in @p why on failure.
 */
char *atl__read_text_input(const char *path, size_t limit, char *why, size_t why_len);

/** atl__read_text_input() with the reason "'PATH': why" (a model reader's message) in @p why on failure. */
char *atl__read_model_file(const char *path, size_t limit, char *why, size_t why_len);

/** A whole number in [@p lo, @p hi] and nothing else (digits only, no sign): 0, else -1. */
int atl__text_whole(const char *s, unsigned long lo, unsigned long hi, unsigned *out);

#endif
