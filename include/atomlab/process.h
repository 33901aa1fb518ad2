/**
 * @file process.h
 * Running another program (gnuplot, ncu, atomlab itself) with a bound, and
 * removing a folder tree without a shell. A stop request (stop.h) reaches the
 * program's whole process group. Commands printed for a user are shell-quoted.
 */
#ifndef ATOMLAB_PROCESS_H
#define ATOMLAB_PROCESS_H

#include "experimental.h" /* not the stable API */
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Where a spawned program runs, where its output goes (NULL members: inherited) and how long it may take. */
struct atl_spawn_io {
  const char *dir;       /**< working directory */
  const char *out, *err; /**< files for stdout and stderr (the same path for both is fine with append) */
  int append;            /**< append to them instead of truncating */
  double timeout;        /**< seconds until the program is stopped (SIGTERM, SIGKILL after a grace time); 0: none */
};

/** What atl_spawn() returns for a program stopped by its timeout (as timeout(1) does). */
#define ATL_SPAWN_TIMEOUT 124

/**
 * Runs @p path with @p argv in a process group of its own and waits for it.
 * While it runs, a stop request (atl_stop_requested(): atomlab got SIGINT or
 * SIGTERM) is passed on to the whole group; a group still there after a grace
 * time (20 s) gets SIGKILL; so does one that outlived @p io->timeout (SIGTERM
 * first). A terminal on stdin becomes /dev/null (a background group may not
 * read it). Returns the exit status, 128 + the signal that ended it,
 * ATL_SPAWN_TIMEOUT after a timeout, or -1 if it could not be started; with a
 * stop already requested nothing is started (128 + the signal).
 */
int atl_spawn(const char *path, char *const *argv, const struct atl_spawn_io *io);

/**
 * Removes @p path and everything under it, never following a symbolic link
 * out of it. Returns 0, or -1 with errno of the first failure (the rest is
 * still removed where it can be).
 */
int atl_remove_tree(const char *path);

/**
 * @p arg as a POSIX shell reads it back as one argument: unchanged where it
 * holds only letters, digits and _@%+=:,./- (and is not empty), else in single
 * quotes with each ' written as '\''. Writes at most @p len bytes with the NUL
 * (cut where it does not fit) and returns the length the whole quoted text has.
 */
size_t atl_shell_quote(const char *arg, char *out, size_t len);

/** The @p argc arguments of @p argv, each atl_shell_quote()d, separated by spaces; returns as atl_shell_quote(). */
size_t atl_shell_join(int argc, char *const *argv, char *out, size_t len);

#ifdef __cplusplus
}
#endif
#endif
