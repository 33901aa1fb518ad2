/**
 * @file file.h
 * Output files that are never half-written, never replace what they should
 * not, and never lose what they were to hold (docs/design/reliability.md):
 * - a regular file (or a new name) is written to a temporary file beside its
 *   final target (symbolic links followed) and renamed over it;
 * - an existing file that is not regular (a device such as /dev/null, a FIFO)
 *   is written in place, never replaced;
 * - atl_file_write_rescue() puts the content into a rescue file when the
 *   target cannot be written (a full disk), and names it.
 */
#ifndef ATOMLAB_FILE_H
#define ATOMLAB_FILE_H

#include "experimental.h" /* not the stable API */

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** An output file being written: atl_file_begin(), then writes to @p f, then atl_file_commit() or atl_file_abort(). */
struct atl_file_out {
  FILE *f;          /**< where the content goes */
  int in_place;     /**< 1: the target is a device or FIFO written directly; 0: @p tmp is renamed over @p target */
  char tmp[4096];   /**< the temporary file beside the target */
  char target[4096]; /**< the target, symbolic links followed */
};

/** Opens @p path for writing as the file comment says; 0, or a negative ATL_E* code with the reason in @p why. */
int atl_file_begin(const char *path, struct atl_file_out *o, char *why, size_t len);

/** Flushes, closes and (unless in place) renames the temporary file over the target; 0 or ATL_EIO with @p why. */
int atl_file_commit(struct atl_file_out *o, char *why, size_t len);

/** Closes and removes the temporary file: the target keeps what it held. */
void atl_file_abort(struct atl_file_out *o);

/** Writes the content of one file to @p f; 0 or a negative ATL_E* code. */
typedef int (*atl_file_writer)(FILE *f, const void *arg);

/**
 * Checks before anything is measured that @p path can be an output file: not
 * empty, not a folder, a name within NAME_MAX, its folder there and writable
 * (after following symbolic links), an existing non-regular file writable in
 * place. Returns 0, or ATL_EINVAL with the reason (without the path) in @p why.
 */
int atl_file_check_output(const char *path, char *why, size_t len);

/**
 * Writes @p path through @p writer the safe way (see the file comment).
 * Returns 0, or a negative ATL_E* code with the reason in @p why (may be NULL).
 */
int atl_file_write(const char *path, atl_file_writer writer, const void *arg, char *why, size_t len);

/**
 * atl_file_write(), and where that fails the same content into a rescue file:
 * beside @p path as NAME.rescued-PID.EXT, else in the current folder, else in
 * the temporary folder ($TMPDIR or /tmp). Returns 0 (written to @p path),
 * 1 (written to the rescue file named in @p rescued; the reason @p path
 * failed in @p why) or a negative code (written nowhere).
 */
int atl_file_write_rescue(const char *path, atl_file_writer writer, const void *arg, char *rescued, size_t rescued_len,
                          char *why, size_t why_len);

/** Writes @p len bytes of @p text to @p path as atl_file_write() does. */
int atl_file_write_text(const char *path, const char *text, size_t len, char *why, size_t why_len);

/**
 * An input file opened for reading after fstat(2) showed a regular file (a
 * FIFO or a device would block or never end; a folder is not a file).
 * Returns the stream, or NULL with the reason in @p why.
 */
FILE *atl_file_open_input(const char *path, char *why, size_t len);

/**
 * A regular file (atl_file_open_input()) read whole and NUL-terminated, or
 * NULL where it cannot be, is larger than @p limit or holds a NUL byte (a
 * binary file is no text to parse). The caller frees it.
 */
char *atl_file_read_text(const char *path, size_t limit);

#ifdef __cplusplus
}
#endif
#endif
