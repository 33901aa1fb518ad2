/**
 * @file file.h
 * Output files that are never half-written, never replace what they should
 * not, and never lose what they were to hold (docs/design/reliability.md):
 * - a regular file (or a new name) is written to a temporary file beside its
 *   final target (symbolic links followed) and renamed over it;
 * - an existing file that is not regular (a device such as /dev/null, a FIFO)
 *   is written in place, never replaced;
 * - atl_file_write_rescue() puts the content into a rescue file when the
 *   target cannot be written (a full disk), and names it;
 * - a file inside an output folder (a report's, plot's figures) is written
 *   with the _nofollow calls: a symbolic link planted under its name is
 *   replaced by the file, never followed;
 * - an output is locked while a command writes it (atl_file_lock()), and an
 *   output folder holds a manifest of the files atomlab wrote there, the only
 *   ones it replaces or removes (atl_manifest_*).
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
 * atl_file_begin() for a file inside an output folder: @p path itself is the
 * target, never a link's target; the temporary file beside it is renamed over
 * the name, so a symbolic link, FIFO or device planted there is replaced.
 */
int atl_file_begin_nofollow(const char *path, struct atl_file_out *o, char *why, size_t len);

/** atl_file_write() through atl_file_begin_nofollow(). */
int atl_file_write_nofollow(const char *path, atl_file_writer writer, const void *arg, char *why, size_t len);

/** atl_file_write_text() through atl_file_begin_nofollow(). */
int atl_file_write_text_nofollow(const char *path, const char *text, size_t len, char *why, size_t why_len);

/** Whether @p a and @p b name the same existing file or folder (the same device and inode, links followed). */
int atl_file_same(const char *a, const char *b);

/** An advisory lock on an output: atl_file_lock(), then atl_file_unlock() (or the process's exit). */
struct atl_file_lock {
  int fd;            /**< the open lock file, -1 when none is held */
  char path[4200];   /**< the lock file: .NAME.lock beside the output (its links followed) */
};

/**
 * Takes the lock of output @p path (a file or a folder, new or not) without
 * waiting: flock(2) on .NAME.lock beside it, which holds the holder's process
 * id. A lock left by a killed process does not count (the kernel released
 * it). A device or FIFO is not locked (0, lock->fd -1). Returns 0 (held), 1
 * (held by another process, or by another lock of this one: its id in
 * @p holder, 0 where it is not known yet) or a negative ATL_E* code with @p why.
 */
int atl_file_lock(const char *path, struct atl_file_lock *lock, long *holder, char *why, size_t len);

/** Removes the lock file and releases the lock. */
void atl_file_unlock(struct atl_file_lock *lock);

/** The manifest's name inside an output folder. */
#define ATL_MANIFEST_NAME ".atomlab-manifest"

/** The files atomlab wrote in one output folder: paths relative to it, sorted, no two alike. */
struct atl_manifest {
  char **files;
  size_t count, cap;
};

/**
 * Whether atomlab may write into folder @p dir: 0 where it is new (missing),
 * empty or holds a manifest (read into @p m, else @p m is left empty);
 * ATL_EINVAL with the reason (naming @p shown) where it holds anything else,
 * is not a folder, or its manifest names a path outside it.
 */
int atl_manifest_check(const char *dir, const char *shown, struct atl_manifest *m, char *why, size_t len);

/** Adds @p rel (a relative path inside the folder, no "..") to @p m; 0, ATL_EINVAL or ATL_ENOMEM. */
int atl_manifest_add(struct atl_manifest *m, const char *rel);

/** Whether @p m names @p rel. */
int atl_manifest_has(const struct atl_manifest *m, const char *rel);

/**
 * Adds every regular file under @p dir (prefixed with @p prefix, NULL for
 * none) to @p m, leaving out temporary (.atl-*) and lock (.*.lock) files and
 * the manifest itself. 0 or a negative ATL_E* code.
 */
int atl_manifest_collect(const char *dir, const char *prefix, struct atl_manifest *m);

/** Writes @p m as @p dir's manifest (no link followed); 0 or ATL_EIO with @p why. */
int atl_manifest_write(const char *dir, const struct atl_manifest *m, char *why, size_t len);

/**
 * Puts the files of @p now into @p dir and removes those of @p old that
 * @p now lacks: each file of @p now is renamed from @p staging (NULL: it is
 * in @p dir already) into @p dir, never through a symbolic link (a link under
 * the file's name is replaced; a folder on its way that is a link is an
 * error); files of @p old are unlinked without following a link, and the
 * folders they leave empty removed. The manifest is written first as both
 * lists together, then as @p now, so it names every file atomlab wrote there
 * at every moment. 0, or ATL_EIO with the reason in @p why (what was not
 * moved is still in @p staging).
 */
int atl_manifest_install(const char *staging, const char *dir, const struct atl_manifest *old,
                         const struct atl_manifest *now, char *why, size_t len);

/** Frees the list. */
void atl_manifest_release(struct atl_manifest *m);

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
