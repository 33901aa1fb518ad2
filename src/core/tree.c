/* Removing a folder tree (a report's previous run, profile's temporary folder)
 * without a shell: `rm -rf` through system() would need quoting and follow no
 * rules we can state. nftw with FTW_PHYS never follows a symbolic link, so a
 * link inside the tree is removed itself, never what it points to. */
#undef _POSIX_C_SOURCE
#define _XOPEN_SOURCE 700 /* nftw */
#include <errno.h>
#include <ftw.h>
#include <unistd.h>
#include <stdio.h>

#include "atomlab/process.h"

static int first_errno;

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
  (void)st;
  (void)ftw;
  /* FTW_DP: a folder after its contents; FTW_DNR: one we could not list (its rmdir fails and says so) */
  if ((type == FTW_DP || type == FTW_DNR ? rmdir(path) : unlink(path)) != 0 && first_errno == 0)
    first_errno = errno;
  return 0; /* go on: remove what can be removed */
}

int atl_remove_tree(const char *path)
{
  first_errno = 0;
  if (nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0 && first_errno == 0)
    first_errno = errno;
  if (first_errno == 0)
    return 0;
  errno = first_errno;
  return -1;
}
