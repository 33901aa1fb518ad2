/* Output files that are never half-written, never replace a device or a FIFO,
 * and never lose their content; input files that are regular (include/atomlab/file.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomlab/error.h"
#include "atomlab/file.h"
#include "context.h"
#include "file_internal.h"

#ifndef NAME_MAX
#define NAME_MAX 255
#endif

/* The temporary file beside a target: short, so a target whose own name fits NAME_MAX always has one. */
#define TMP_NAME ".atl-XXXXXX"

int atl__file_say(char *why, size_t len, int err, const char *fmt, ...)
{
  if (why && len) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
  }
  return err;
}

/* The length of the folder part of @p path ("a/b" -> 1, "b" -> 0, "/b" -> 1 for "/"). */
static size_t dir_len(const char *path)
{
  const char *slash = strrchr(path, '/');
  if (slash == NULL)
    return 0;
  return slash == path ? 1 : (size_t)(slash - path);
}

/* @p path with every symbolic link of its last component followed (at most 40, as the kernel allows). */
static int resolve(const char *path, char *out, size_t len, char *why, size_t wlen)
{
  char cur[PATH_MAX];
  if (snprintf(cur, sizeof cur, "%s", path) >= (int)sizeof cur)
    return atl__file_say(why, wlen, ATL_EINVAL, "the path is longer than %d bytes", PATH_MAX - 1);
  for (int hops = 0; hops < 40; hops++) {
    struct stat st;
    if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) {
      if (snprintf(out, len, "%s", cur) >= (int)len)
        return atl__file_say(why, wlen, ATL_EINVAL, "the path is too long");
      return 0;
    }
    char target[PATH_MAX];
    ssize_t n = readlink(cur, target, sizeof target - 1);
    if (n < 0)
      return atl__file_say(why, wlen, ATL_EIO, "unable to read the symbolic link: %s", strerror(errno));
    target[n] = '\0';
    size_t d = dir_len(cur);
    if (target[0] == '/' || strchr(cur, '/') == NULL)
      snprintf(cur, sizeof cur, "%s", target);
    else if (snprintf(cur + d, sizeof cur - d, "/%s", target) >= (int)(sizeof cur - d))
      return atl__file_say(why, wlen, ATL_EINVAL, "the symbolic link leads to a path that is too long");
  }
  return atl__file_say(why, wlen, ATL_EINVAL, "too many levels of symbolic links");
}

int atl__file_resolve(const char *path, char *out, size_t len, char *why, size_t wlen)
{
  return resolve(path, out, len, why, wlen);
}

/* The folder of @p path ("." for a bare name) into @p out. */
static void folder_of(const char *path, char *out, size_t len)
{
  size_t d = dir_len(path);
  if (d == 0)
    snprintf(out, len, ".");
  else
    snprintf(out, len, "%.*s", (int)d, path);
}

/* Whether @p path (links followed by the kernel, which also knows /proc's
 * magic links such as /dev/stdout -> /proc/self/fd/1 -> pipe:[N]) is an
 * existing device, FIFO or socket: such a target is written in place. */
static int special_target(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

int atl_file_check_output(const char *path, char *why, size_t len)
{
  if (path == NULL || *path == '\0')
    return atl__file_say(why, len, ATL_EINVAL, "an empty name is not a file name");
  if (special_target(path))
    return access(path, W_OK) == 0 ? 0 : atl__file_say(why, len, ATL_EINVAL, "exists and is not writable");
  char real[PATH_MAX];
  int err = resolve(path, real, sizeof real, why, len);
  if (err)
    return err == ATL_EIO ? ATL_EINVAL : err;
  const char *base = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;
  if (*base == '\0' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
    return atl__file_say(why, len, ATL_EINVAL, "names a folder: a file name is needed");
  if (strlen(base) > NAME_MAX)
    return atl__file_say(why, len, ATL_EINVAL, "its name has %zu bytes: at most %d are allowed", strlen(base), NAME_MAX);
  struct stat st;
  if (stat(real, &st) == 0) {
    if (S_ISDIR(st.st_mode))
      return atl__file_say(why, len, ATL_EINVAL, "is a folder: a file name is needed");
    if (access(real, W_OK) != 0)
      return atl__file_say(why, len, ATL_EINVAL, "exists and is not writable");
    if (!S_ISREG(st.st_mode))
      return 0; /* a device or a FIFO: written in place */
  } else if (errno != ENOENT) {
    return atl__file_say(why, len, ATL_EINVAL, "%s", strerror(errno));
  }
  char dir[PATH_MAX];
  folder_of(real, dir, sizeof dir);
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
    return atl__file_say(why, len, ATL_EINVAL, "its folder '%s' does not exist", dir);
  if (access(dir, W_OK | X_OK) != 0)
    return atl__file_say(why, len, ATL_EINVAL, "its folder '%s' is not writable", dir);
  return 0;
}

/* Opens an existing device or FIFO for writing without blocking on a FIFO nobody reads. */
static int begin_in_place(struct atl_file_out *o, const char *path, char *why, size_t len)
{
  snprintf(o->target, sizeof o->target, "%s", path);
  int fd = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK);
  if (fd < 0)
    return atl__file_say(why, len, ATL_EIO, "%s", errno == ENXIO ? "a FIFO that nobody reads" : strerror(errno));
  int flags = fcntl(fd, F_GETFL);
  if (flags >= 0)
    fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  if ((o->f = fdopen(fd, "w")) == NULL) {
    close(fd);
    return atl__file_say(why, len, ATL_EIO, "%s", strerror(errno));
  }
  o->in_place = 1;
  return 0;
}

/* Opens a temporary file beside @p o->target (set by the caller) with the mode of @p existing where it names a
 * file (NULL: a new one). */
static int begin_beside(struct atl_file_out *o, const struct stat *existing, char *why, size_t len)
{
  char dir[PATH_MAX];
  folder_of(o->target, dir, sizeof dir);
  if (snprintf(o->tmp, sizeof o->tmp, "%s/" TMP_NAME, dir) >= (int)sizeof o->tmp)
    return atl__file_say(why, len, ATL_EINVAL, "the path is too long");
  int fd = mkstemp(o->tmp);
  if (fd < 0) {
    o->tmp[0] = '\0';
    return atl__file_say(why, len, ATL_EIO, "unable to create a file in '%s': %s", dir, strerror(errno));
  }
  /* mkstemp makes 0600; a result file is as readable as any file the user makes (or as the one it replaces). */
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, existing ? (existing->st_mode & 07777) : (0666 & ~mask));
  if ((o->f = fdopen(fd, "w")) == NULL) {
    close(fd);
    unlink(o->tmp);
    o->tmp[0] = '\0';
    return atl__file_say(why, len, ATL_EIO, "%s", strerror(errno));
  }
  return 0;
}

int atl_file_begin(const char *path, struct atl_file_out *o, char *why, size_t len)
{
  memset(o, 0, sizeof *o);
  if (path == NULL || *path == '\0')
    return atl__file_say(why, len, ATL_EINVAL, "an empty name is not a file name");
  if (atl__fault_file())
    return atl__file_say(why, len, ATL_EIO, "%s (injected: ATL_FAULT file)", strerror(ENOSPC));
  if (special_target(path)) /* opened by its own name: the kernel follows the links */
    return begin_in_place(o, path, why, len);
  int err = resolve(path, o->target, sizeof o->target, why, len);
  if (err)
    return err;
  struct stat st;
  int exists = stat(o->target, &st) == 0;
  if (exists && S_ISDIR(st.st_mode))
    return atl__file_say(why, len, ATL_EINVAL, "is a folder: a file name is needed");
  return begin_beside(o, exists ? &st : NULL, why, len);
}

int atl_file_begin_nofollow(const char *path, struct atl_file_out *o, char *why, size_t len)
{
  memset(o, 0, sizeof *o);
  if (path == NULL || *path == '\0')
    return atl__file_say(why, len, ATL_EINVAL, "an empty name is not a file name");
  if (atl__fault_file())
    return atl__file_say(why, len, ATL_EIO, "%s (injected: ATL_FAULT file)", strerror(ENOSPC));
  if (snprintf(o->target, sizeof o->target, "%s", path) >= (int)sizeof o->target)
    return atl__file_say(why, len, ATL_EINVAL, "the path is too long");
  struct stat st;
  int exists = lstat(path, &st) == 0; /* the name itself: a link, FIFO or device there is replaced, not opened */
  if (exists && S_ISDIR(st.st_mode))
    return atl__file_say(why, len, ATL_EINVAL, "is a folder: a file name is needed");
  return begin_beside(o, exists && S_ISREG(st.st_mode) ? &st : NULL, why, len);
}

int atl_file_commit(struct atl_file_out *o, char *why, size_t len)
{
  int bad = fflush(o->f) != 0 || ferror(o->f);
  int saved = errno;
  if (fclose(o->f) != 0 && !bad) {
    bad = 1;
    saved = errno;
  }
  o->f = NULL;
  if (!bad && !o->in_place && rename(o->tmp, o->target) != 0) {
    bad = 1;
    saved = errno;
  }
  if (bad && !o->in_place)
    unlink(o->tmp);
  o->tmp[0] = '\0';
  return bad ? atl__file_say(why, len, ATL_EIO, "%s", strerror(saved ? saved : EIO)) : 0;
}

void atl_file_abort(struct atl_file_out *o)
{
  if (o->f)
    fclose(o->f);
  o->f = NULL;
  if (!o->in_place && o->tmp[0])
    unlink(o->tmp);
  o->tmp[0] = '\0';
}

/* Writes through @p o (begun) and commits it, or aborts it where @p writer fails. */
static int write_through(struct atl_file_out *o, atl_file_writer writer, const void *arg, char *why, size_t len)
{
  int err = writer(o->f, arg);
  if (err != 0) {
    int saved = errno;
    atl_file_abort(o);
    return atl__file_say(why, len, err, "%s", err == ATL_EIO && saved ? strerror(saved) : atl_strerror(err));
  }
  return atl_file_commit(o, why, len);
}

int atl_file_write(const char *path, atl_file_writer writer, const void *arg, char *why, size_t len)
{
  struct atl_file_out o;
  int err = atl_file_begin(path, &o, why, len);
  return err ? err : write_through(&o, writer, arg, why, len);
}

int atl_file_write_nofollow(const char *path, atl_file_writer writer, const void *arg, char *why, size_t len)
{
  struct atl_file_out o;
  int err = atl_file_begin_nofollow(path, &o, why, len);
  return err ? err : write_through(&o, writer, arg, why, len);
}

/* NAME.rescued-PID.EXT for the base name of @p path, cut so it fits NAME_MAX. */
static void rescue_name(const char *path, char *out, size_t len)
{
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  const char *dot = strrchr(base, '.');
  if (dot == NULL || dot == base || strlen(dot) > 8)
    dot = base + strlen(base);
  char tail[64];
  snprintf(tail, sizeof tail, ".rescued-%ld%s", (long)getpid(), dot);
  int stem = (int)(dot - base);
  int room = NAME_MAX - (int)strlen(tail);
  snprintf(out, len, "%.*s%s", stem < room ? stem : room, base, tail);
}

int atl_file_write_rescue(const char *path, atl_file_writer writer, const void *arg, char *rescued, size_t rescued_len,
                          char *why, size_t why_len)
{
  int err = atl_file_write(path, writer, arg, why, why_len);
  if (err == 0)
    return 0;
  char name[NAME_MAX + 1], real[PATH_MAX], dir[PATH_MAX];
  rescue_name(path && *path ? path : "atomlab-output", name, sizeof name);
  if (path == NULL || resolve(path, real, sizeof real, NULL, 0) != 0)
    snprintf(real, sizeof real, "%s", name);
  folder_of(real, dir, sizeof dir);
  const char *tmpdir = getenv("TMPDIR");
  const char *places[] = {dir, ".", tmpdir && *tmpdir ? tmpdir : "/tmp"};
  for (size_t i = 0; i < sizeof places / sizeof places[0]; i++) {
    if (snprintf(rescued, rescued_len, "%s/%s", places[i], name) >= (int)rescued_len)
      continue;
    if (atl_file_write(rescued, writer, arg, NULL, 0) == 0)
      return 1;
  }
  rescued[0] = '\0';
  return err;
}

struct text {
  const char *text;
  size_t len;
};

static int write_text(FILE *f, const void *arg)
{
  const struct text *t = arg;
  return fwrite(t->text, 1, t->len, f) == t->len ? 0 : ATL_EIO;
}

int atl_file_write_text(const char *path, const char *text, size_t len, char *why, size_t why_len)
{
  struct text t = {text, len};
  return atl_file_write(path, write_text, &t, why, why_len);
}

int atl_file_write_text_nofollow(const char *path, const char *text, size_t len, char *why, size_t why_len)
{
  struct text t = {text, len};
  return atl_file_write_nofollow(path, write_text, &t, why, why_len);
}

FILE *atl_file_open_input(const char *path, char *why, size_t len)
{
  if (path == NULL || *path == '\0') {
    atl__file_say(why, len, ATL_EINVAL, "an empty name is not a file name");
    return NULL;
  }
  /* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer. */
  int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) {
    atl__file_say(why, len, ATL_EIO, "unable to open it: %s", strerror(errno));
    return NULL;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    atl__file_say(why, len, ATL_EIO, "%s", strerror(errno));
    close(fd);
    return NULL;
  }
  if (!S_ISREG(st.st_mode)) {
    atl__file_say(why, len, ATL_EINVAL, "%s",
        S_ISDIR(st.st_mode) ? "is a folder, not a file" : "is not a regular file (a FIFO or a device is not read)");
    close(fd);
    return NULL;
  }
  int flags = fcntl(fd, F_GETFL);
  if (flags >= 0)
    fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  FILE *f = fdopen(fd, "rb");
  if (f == NULL) {
    atl__file_say(why, len, ATL_EIO, "%s", strerror(errno));
    close(fd);
  }
  return f;
}

char *atl_file_read_text(const char *path, size_t limit)
{
  char why[256];
  FILE *f = atl_file_open_input(path, why, sizeof why); /* a regular file only: a FIFO would block */
  if (f == NULL)
    return NULL;
  size_t size = 0, cap = 65536;
  char *buf = malloc(cap);
  while (buf) {
    if (size + 1 >= cap) {
      char *grown = cap < limit ? realloc(buf, cap * 2) : NULL;
      if (grown == NULL) { /* over the limit or out of memory: the caller reports the file as unreadable */
        free(buf);
        buf = NULL;
        break;
      }
      buf = grown;
      cap *= 2;
    }
    size_t got = fread(buf + size, 1, cap - 1 - size, f);
    size += got;
    if (got == 0)
      break;
  }
  if (buf && ferror(f)) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  if (buf && memchr(buf, '\0', size)) { /* a binary file is no export: never parse half of it */
    free(buf);
    buf = NULL;
  }
  if (buf)
    buf[size] = '\0';
  return buf;
}
