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

#endif
