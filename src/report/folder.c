/* The report folder: the files the steps write and the documents read, the
 * folder a report becomes (checked before anything is measured: the report
 * replaces it whole), and putting the finished staging folder in its place. */
#undef _POSIX_C_SOURCE
#define _XOPEN_SOURCE 700 /* realpath */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomlab.h"

/* The files inside @p dir, or (NULL) relative to the report folder, as the steps running in it name them. */
void atl_report_files(const char *dir, struct atl_report_files *f)
{
  snprintf(f->data, sizeof f->data, "%s%sdata", dir ? dir : "", dir ? "/" : "");
  snprintf(f->figures, sizeof f->figures, "%s%sfigures", dir ? dir : "", dir ? "/" : "");
  snprintf(f->json, sizeof f->json, "%s/rmw.json", f->data);
  snprintf(f->csv, sizeof f->csv, "%s/rmw.csv", f->data);
  snprintf(f->s_json, sizeof f->s_json, "%s/strategy.json", f->data);
  snprintf(f->s_csv, sizeof f->s_csv, "%s/strategy.csv", f->data);
  snprintf(f->s_log, sizeof f->s_log, "%s/strategy.log", f->data);
  snprintf(f->h_json, sizeof f->h_json, "%s/histogram.json", f->data);
  snprintf(f->h_log, sizeof f->h_log, "%s/histogram.log", f->data);
  snprintf(f->d_json, sizeof f->d_json, "%s/datasheet-rmw.json", f->data);
  snprintf(f->d_log, sizeof f->d_log, "%s/datasheet.log", f->data);
}

/* Whether folder @p path may be replaced by a report: empty, or an earlier report (report.md or data/). */
static int replaceable(const char *path)
{
  DIR *d = opendir(path);
  if (d == NULL)
    return 0;
  int any = 0, report = 0;
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
      continue;
    any = 1;
    report |= strcmp(e->d_name, "report.md") == 0 || strcmp(e->d_name, "data") == 0;
  }
  closedir(d);
  return !any || report;
}

#define FAIL(...) (snprintf(why, why_len, __VA_ARGS__), ATL_EINVAL)

int atl_report_target(const char *dir, char *target, size_t tlen, char *staging, size_t slen, char *why,
                      size_t why_len)
{
  struct stat st;
  char *abs = NULL;
  if (stat(dir, &st) == 0) {
    if (!S_ISDIR(st.st_mode))
      return FAIL("'%s' is not a folder", dir);
    abs = realpath(dir, NULL);
  } else if (errno != ENOENT) {
    return FAIL("'%s': %s", dir, strerror(errno));
  } else { /* a new folder: its parent resolved, its own name kept */
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", dir);
    for (size_t n = strlen(copy); n > 1 && copy[n - 1] == '/'; n--)
      copy[n - 1] = '\0';
    char *slash = strrchr(copy, '/');
    const char *name = slash ? slash + 1 : copy, *parent = ".";
    if (slash == copy)
      parent = "/";
    else if (slash) {
      *slash = '\0';
      parent = copy;
    }
    char *p = realpath(parent, NULL);
    if (p == NULL || strlen(p) + strlen(name) + 2 > sizeof copy) {
      free(p);
      return FAIL("'%s': unable to create the folder (does its parent exist?)", dir);
    }
    size_t len = strlen(p) + strlen(name) + 2;
    if ((abs = malloc(len)) != NULL) {
      strcpy(abs, p);
      strcat(abs, strcmp(p, "/") == 0 ? "" : "/");
      strcat(abs, name);
    }
    free(p);
  }
  if (abs == NULL || strlen(abs) + 40 > tlen || strlen(abs) + 40 > slen) {
    free(abs);
    return FAIL("'%s': the path cannot be resolved or is too long", dir);
  }
  /* Replacing a folder the current one is inside (".", "..", "/") would pull it away under the run. */
  char cwd[4096];
  size_t n = strlen(abs);
  if (strcmp(abs, "/") == 0 ||
      (getcwd(cwd, sizeof cwd) && strncmp(cwd, abs, n) == 0 && (cwd[n] == '\0' || cwd[n] == '/'))) {
    free(abs);
    return FAIL("'%s' holds the current folder: the report replaces its folder whole; name a folder below it", dir);
  }
  /* the staging folder and the renames need the parent writable: said now, not after the measurements */
  char parent[4096];
  snprintf(parent, sizeof parent, "%s", abs);
  char *last = strrchr(parent, '/');
  if (last)
    last[last == parent] = '\0'; /* "/x" -> "/" */
  if (access(parent, W_OK | X_OK) != 0) {
    free(abs);
    return FAIL("'%s': its folder '%s' is not writable (the report is built beside it, then renamed)", dir, parent);
  }
  if (stat(abs, &st) == 0 && !replaceable(abs)) {
    free(abs);
    return FAIL("'%s' holds files that are not a report's (no report.md or data/): the report replaces its folder "
                "whole; name a new folder or an earlier report's",
                dir);
  }
  snprintf(target, tlen, "%s", abs);
  snprintf(staging, slen, "%s.staging-%ld", abs, (long)getpid());
  free(abs);
  return 0;
}

int atl_report_replace(const char *target, const char *staging, const char *shown, char *why, size_t why_len,
                       char *warning, size_t warning_len)
{
  warning[0] = '\0';
  char old[4300];
  snprintf(old, sizeof old, "%s.old-%ld", target, (long)getpid());
  struct stat st;
  int had_old = lstat(target, &st) == 0;
  if (had_old && rename(target, old) != 0) {
    snprintf(why, why_len, "unable to move the earlier report '%s' aside (%s): this report is complete in '%s'", shown,
             strerror(errno), staging);
    return ATL_EIO;
  }
  if (rename(staging, target) != 0) {
    int e = errno;
    if (had_old)
      rename(old, target); /* the earlier report back where it was */
    snprintf(why, why_len, "unable to rename '%s' to '%s' (%s): this report is complete there", staging, shown,
             strerror(e));
    return ATL_EIO;
  }
  if (had_old && atl_remove_tree(old) != 0)
    snprintf(warning, warning_len, "unable to remove the earlier report, renamed '%s' (%s)", old, strerror(errno));
  return 0;
}

