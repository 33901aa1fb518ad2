/* Outputs one process at a time: an advisory lock on each output, and the
 * check that an output is not one of the command's inputs (include/atomlab/file.h). */
#undef _POSIX_C_SOURCE
#define _DEFAULT_SOURCE /* flock */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomlab/error.h"
#include "atomlab/file.h"
#include "file_internal.h"

#ifndef NAME_MAX
#define NAME_MAX 255
#endif

int atl_file_same(const char *a, const char *b)
{
  struct stat sa, sb;
  return a && b && stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* .NAME.lock beside @p real; a NAME too long for that is cut and given a hash of the whole, so it still fits. */
static int lock_name(const char *real, char *out, size_t len)
{
  char copy[PATH_MAX];
  snprintf(copy, sizeof copy, "%s", real);
  for (size_t n = strlen(copy); n > 1 && copy[n - 1] == '/'; n--) /* a folder given as "DIR/" */
    copy[n - 1] = '\0';
  const char *slash = strrchr(copy, '/');
  const char *base = slash ? slash + 1 : copy;
  int dir_len = slash ? (int)(slash - copy) + 1 : 0;
  if (strlen(base) + 6 <= NAME_MAX)
    return snprintf(out, len, "%.*s.%s.lock", dir_len, copy, base) >= (int)len;
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (const char *c = base; *c; c++)
    h = (h ^ (unsigned char)*c) * 1099511628211ull;
  return snprintf(out, len, "%.*s.%.200s-%016llx.lock", dir_len, copy, base, (unsigned long long)h) >= (int)len;
}

/* The process id written in the lock file @p fd, 0 where there is none yet. */
static long read_holder(int fd)
{
  char text[32] = {0};
  ssize_t n = pread(fd, text, sizeof text - 1, 0);
  return n > 0 ? strtol(text, NULL, 10) : 0;
}

int atl_file_lock(const char *path, struct atl_file_lock *lock, long *holder, char *why, size_t len)
{
  lock->fd = -1;
  lock->path[0] = '\0';
  *holder = 0;
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
    return 0; /* a device or FIFO, written in place: nothing of ours to guard */
  char real[PATH_MAX];
  int err = atl__file_resolve(path, real, sizeof real, why, len);
  if (err)
    return err;
  if (lock_name(real, lock->path, sizeof lock->path)) {
    snprintf(why, len, "the path is too long for a lock file beside it");
    return ATL_EINVAL;
  }
  /* The holder unlinks the file when it is done: a file opened just before that is no longer the lock, so
   * the lock taken on it counts only while the name still leads to it. */
  for (int tries = 0; tries < 8; tries++) {
    int fd = open(lock->path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0644);
    if (fd < 0) {
      snprintf(why, len, "unable to create the lock file '%s': %s", lock->path, strerror(errno));
      return ATL_EIO;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
      int e = errno;
      *holder = e == EWOULDBLOCK ? read_holder(fd) : 0;
      close(fd);
      if (e == EWOULDBLOCK)
        return 1;
      snprintf(why, len, "unable to lock '%s': %s", lock->path, strerror(e));
      return ATL_EIO;
    }
    struct stat held, named;
    if (fstat(fd, &held) == 0 && lstat(lock->path, &named) == 0 && held.st_ino == named.st_ino &&
        held.st_dev == named.st_dev) {
      char pid[32];
      int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
      if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n) {
        /* the lock holds without the id: the other process says "another atomlab process" */
      }
      lock->fd = fd;
      return 0;
    }
    close(fd);
  }
  snprintf(why, len, "the lock file '%s' keeps being replaced", lock->path);
  return ATL_EIO;
}

void atl_file_unlock(struct atl_file_lock *lock)
{
  if (lock->fd < 0)
    return;
  unlink(lock->path); /* still held: a process that opened it retries on the new file (atl_file_lock) */
  close(lock->fd);
  lock->fd = -1;
}
