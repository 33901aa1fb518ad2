/* The manifest of an output folder: the files atomlab wrote there, the only
 * ones a later run replaces or removes (include/atomlab/file.h). Every path
 * is opened one folder at a time with O_NOFOLLOW, so neither a planted link
 * nor a manifest naming "../x" makes atomlab touch a file outside it. */
#undef _POSIX_C_SOURCE
#define _XOPEN_SOURCE 700 /* fdopendir, openat */
#include <dirent.h>
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
#include "file_internal.h"

/* The manifest's first line; a file that does not start with it is no manifest of ours. */
#define MANIFEST_HEAD "# atomlab manifest 1: the files atomlab wrote in this folder, the only ones it replaces or removes"
#define MANIFEST_LIMIT (16u << 20)

/* A path inside the folder: relative, no empty, "." or ".." part, no control character. */
static int inside(const char *rel)
{
  if (rel[0] == '\0' || rel[0] == '/' || strlen(rel) >= PATH_MAX)
    return 0;
  for (const char *c = rel; *c; c++)
    if ((unsigned char)*c < 0x20 || *c == 0x7f)
      return 0;
  for (const char *p = rel; *p;) {
    size_t n = strcspn(p, "/");
    if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
      return 0;
    p += n + (p[n] == '/');
    if (p[-1] == '/' && *p == '\0')
      return 0;
  }
  return 1;
}

/* Where @p rel is, or would go, in the sorted list. */
static size_t position(const struct atl_manifest *m, const char *rel, int *found)
{
  size_t lo = 0, hi = m->count;
  *found = 0;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = strcmp(m->files[mid], rel);
    if (c == 0) {
      *found = 1;
      return mid;
    }
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

int atl_manifest_has(const struct atl_manifest *m, const char *rel)
{
  int found;
  position(m, rel, &found);
  return found;
}

int atl_manifest_add(struct atl_manifest *m, const char *rel)
{
  if (!inside(rel))
    return ATL_EINVAL;
  int found;
  size_t at = position(m, rel, &found);
  if (found)
    return 0;
  if (m->count == m->cap) {
    size_t cap = m->cap ? 2 * m->cap : 32;
    char **grown = realloc(m->files, cap * sizeof *grown);
    if (grown == NULL)
      return ATL_ENOMEM;
    m->files = grown;
    m->cap = cap;
  }
  char *copy = strdup(rel);
  if (copy == NULL)
    return ATL_ENOMEM;
  memmove(m->files + at + 1, m->files + at, (m->count - at) * sizeof *m->files);
  m->files[at] = copy;
  m->count++;
  return 0;
}

void atl_manifest_release(struct atl_manifest *m)
{
  for (size_t i = 0; i < m->count; i++)
    free(m->files[i]);
  free(m->files);
  memset(m, 0, sizeof *m);
}

/* Reads the manifest text @p text into @p m; 0, or ATL_EINVAL naming the first line that is no path inside. */
static int parse(char *text, struct atl_manifest *m, char *why, size_t len)
{
  char *save = NULL;
  char *line = strtok_r(text, "\n", &save);
  if (line == NULL || strncmp(line, "# atomlab manifest 1", 20) != 0)
    return atl__file_say(why, len, ATL_EINVAL, "its %s is not an atomlab manifest", ATL_MANIFEST_NAME);
  while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
    int err = atl_manifest_add(m, line);
    if (err == ATL_EINVAL)
      return atl__file_say(why, len, err, "its %s names '%.200s', which is not a path inside it", ATL_MANIFEST_NAME, line);
    if (err)
      return atl__file_say(why, len, err, "out of memory");
  }
  return 0;
}

int atl_manifest_check(const char *dir, const char *shown, struct atl_manifest *m, char *why, size_t len)
{
  memset(m, 0, sizeof *m);
  struct stat st;
  if (stat(dir, &st) != 0)
    return errno == ENOENT ? 0 : atl__file_say(why, len, ATL_EINVAL, "'%s': %s", shown, strerror(errno));
  if (!S_ISDIR(st.st_mode))
    return atl__file_say(why, len, ATL_EINVAL, "'%s' is not a folder", shown);
  char path[PATH_MAX];
  if (snprintf(path, sizeof path, "%s/%s", dir, ATL_MANIFEST_NAME) >= (int)sizeof path)
    return atl__file_say(why, len, ATL_EINVAL, "'%s': the path is too long", shown);
  if (lstat(path, &st) == 0) {
    char *text = S_ISREG(st.st_mode) ? atl_file_read_text(path, MANIFEST_LIMIT) : NULL;
    if (text == NULL)
      return atl__file_say(why, len, ATL_EINVAL, "'%s': its %s cannot be read (not a regular text file)", shown,
                 ATL_MANIFEST_NAME);
    char reason[400];
    int err = parse(text, m, reason, sizeof reason);
    free(text);
    if (err) {
      atl_manifest_release(m);
      return atl__file_say(why, len, ATL_EINVAL, "'%s': %s", shown, reason);
    }
    return 0;
  }
  DIR *d = opendir(dir);
  if (d == NULL)
    return atl__file_say(why, len, ATL_EINVAL, "'%s': unable to list it: %s", shown, strerror(errno));
  int any = 0;
  for (struct dirent *e; !any && (e = readdir(d)) != NULL;)
    any = strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
  closedir(d);
  if (any)
    return atl__file_say(why, len, ATL_EINVAL,
               "'%s' is not empty and not an atomlab report (no %s): atomlab writes only into a new or empty "
               "folder or one it wrote; name another folder",
               shown, ATL_MANIFEST_NAME);
  return 0;
}

/* Names collect() leaves out: temporary files, lock files, the manifest. */
static int not_output(const char *name)
{
  size_t n = strlen(name);
  return strncmp(name, ".atl-", 5) == 0 || (name[0] == '.' && n > 5 && strcmp(name + n - 5, ".lock") == 0) ||
         strcmp(name, ATL_MANIFEST_NAME) == 0;
}

/* Adds the regular files under the open folder @p fd (closed here), as @p prefix/NAME. */
static int collect_fd(int fd, const char *prefix, struct atl_manifest *m, int depth)
{
  DIR *d = fdopendir(fd);
  if (d == NULL) {
    close(fd);
    return ATL_EIO;
  }
  int err = 0;
  for (struct dirent *e; err == 0 && (e = readdir(d)) != NULL;) {
    struct stat st;
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 || not_output(e->d_name) ||
        fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
      continue;
    char rel[PATH_MAX];
    if (snprintf(rel, sizeof rel, "%s%s%s", prefix, *prefix ? "/" : "", e->d_name) >= (int)sizeof rel)
      continue;
    if (S_ISREG(st.st_mode))
      err = atl_manifest_add(m, rel);
    else if (S_ISDIR(st.st_mode) && depth < 32) {
      int sub = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (sub >= 0)
        err = collect_fd(sub, rel, m, depth + 1);
    }
  }
  closedir(d);
  return err;
}

int atl_manifest_collect(const char *dir, const char *prefix, struct atl_manifest *m)
{
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  return fd < 0 ? ATL_EIO : collect_fd(fd, prefix ? prefix : "", m, 0);
}

struct listing {
  const struct atl_manifest *a, *b;
};

static int write_listing(FILE *f, const void *arg)
{
  const struct listing *l = arg;
  fprintf(f, "%s\n", MANIFEST_HEAD);
  for (size_t i = 0; i < l->a->count; i++)
    fprintf(f, "%s\n", l->a->files[i]);
  for (size_t i = 0; l->b && i < l->b->count; i++)
    if (!atl_manifest_has(l->a, l->b->files[i]))
      fprintf(f, "%s\n", l->b->files[i]);
  return ferror(f) ? ATL_EIO : 0;
}

static int write_both(const char *dir, const struct atl_manifest *a, const struct atl_manifest *b, char *why,
                      size_t len)
{
  char path[PATH_MAX], reason[512];
  if (snprintf(path, sizeof path, "%s/%s", dir, ATL_MANIFEST_NAME) >= (int)sizeof path)
    return atl__file_say(why, len, ATL_EIO, "'%s': the path is too long", dir);
  const struct listing l = {a, b};
  if (atl_file_write_nofollow(path, write_listing, &l, reason, sizeof reason) != 0)
    return atl__file_say(why, len, ATL_EIO, "unable to write '%s': %s", path, reason);
  return 0;
}

int atl_manifest_write(const char *dir, const struct atl_manifest *m, char *why, size_t len)
{
  return write_both(dir, m, NULL, why, len);
}

/* The folder holding @p rel under @p root, each part opened without following a link (and made where
 * @p make); its descriptor, -1 with errno. @p base gets the last part. */
static int open_parent(int root, const char *rel, int make, const char **base)
{
  int fd = dup(root);
  const char *p = rel;
  for (size_t n; fd >= 0 && (n = strcspn(p, "/")) && p[n] == '/'; p += n + 1) {
    char part[NAME_MAX + 1];
    snprintf(part, sizeof part, "%.*s", (int)n, p);
    int sub = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sub < 0 && errno == ENOENT && make && mkdirat(fd, part, 0777) == 0)
      sub = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int e = errno;
    close(fd);
    errno = e;
    fd = sub;
  }
  *base = p;
  return fd;
}

/* Removes @p rel's file (never what a link there leads to) and the folders on its way it leaves empty. */
static void remove_one(int root, const char *rel)
{
  const char *base;
  int fd = open_parent(root, rel, 0, &base);
  if (fd < 0)
    return; /* gone already, or a folder on its way is no longer ours (a link, a file) */
  struct stat st;
  if (fstatat(fd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISDIR(st.st_mode))
    unlinkat(fd, base, 0);
  close(fd);
  char folder[PATH_MAX];
  snprintf(folder, sizeof folder, "%s", rel);
  for (char *slash; (slash = strrchr(folder, '/')) != NULL;) { /* each rmdir fails on a folder still in use */
    *slash = '\0';
    if (unlinkat(root, folder, AT_REMOVEDIR) != 0)
      break;
  }
}

int atl_manifest_install(const char *staging, const char *dir, const struct atl_manifest *old,
                         const struct atl_manifest *now, char *why, size_t len)
{
  if (mkdir(dir, 0777) != 0 && errno != EEXIST)
    return atl__file_say(why, len, ATL_EIO, "unable to create '%s': %s", dir, strerror(errno));
  int err = old ? write_both(dir, old, now, why, len) : atl_manifest_write(dir, now, why, len);
  if (err)
    return err;
  int root = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (root < 0)
    return atl__file_say(why, len, ATL_EIO, "unable to open '%s': %s", dir, strerror(errno));
  for (size_t i = 0; staging && i < now->count && err == 0; i++) {
    const char *base, *rel = now->files[i];
    char from[PATH_MAX];
    snprintf(from, sizeof from, "%s/%s", staging, rel);
    int fd = open_parent(root, rel, 1, &base);
    if (fd < 0 || renameat(AT_FDCWD, from, fd, base) != 0)
      err = atl__file_say(why, len, ATL_EIO, "unable to put '%s' into '%s': %s%s", rel, dir, strerror(errno),
                errno == ELOOP || errno == ENOTDIR ? " (a folder on its way is a symbolic link or a file)" : "");
    if (fd >= 0)
      close(fd);
  }
  for (size_t i = 0; err == 0 && old && i < old->count; i++)
    if (!atl_manifest_has(now, old->files[i]))
      remove_one(root, old->files[i]);
  close(root);
  return err ? err : atl_manifest_write(dir, now, why, len);
}
