/* The report folder: the files the steps write and the documents read, the
 * folder a report goes into (checked before anything is measured: new, empty
 * or one atomlab wrote, as its manifest says), and putting the finished
 * staging folder's files in place of the earlier report's, and no other. */
#undef _POSIX_C_SOURCE
#define _XOPEN_SOURCE 700 /* realpath */
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

/* Whether @p abs (@p dir as the user named it) may take a report: new, empty or one atomlab wrote (its
 * manifest), and its folders the report writes into real folders, not links that would lead the files away. */
static int writable_report(const char *abs, const char *dir, char *why, size_t why_len)
{
  struct atl_manifest m;
  int err = atl_manifest_check(abs, dir, &m, why, why_len);
  atl_manifest_release(&m);
  if (err)
    return err;
  static const char *const folders[] = {"data", "figures"};
  for (size_t i = 0; i < sizeof folders / sizeof folders[0]; i++) {
    char sub[4300];
    struct stat st;
    snprintf(sub, sizeof sub, "%s/%s", abs, folders[i]);
    if (lstat(sub, &st) == 0 && !S_ISDIR(st.st_mode)) {
      snprintf(why, why_len, "'%s/%s' is %s, not a folder: the report does not write through it; remove it or "
               "name another folder", dir, folders[i], S_ISLNK(st.st_mode) ? "a symbolic link" : "a file");
      return ATL_EINVAL;
    }
  }
  return 0;
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
  if (writable_report(abs, dir, why, why_len) != 0) {
    free(abs);
    return ATL_EINVAL;
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
  struct atl_manifest old, now = {0};
  char reason[4400];
  /* checked again: a file put there while the report was measured is no more ours than one put before */
  if (writable_report(target, shown, reason, sizeof reason) != 0) {
    snprintf(why, why_len, "%s: this report is complete in '%s'", reason, staging);
    return ATL_EIO;
  }
  atl_manifest_check(target, shown, &old, reason, sizeof reason);
  int err = atl_manifest_collect(staging, NULL, &now);
  if (err == 0)
    err = atl_manifest_install(staging, target, &old, &now, reason, sizeof reason);
  else
    snprintf(reason, sizeof reason, "unable to list '%s'", staging);
  atl_manifest_release(&old);
  atl_manifest_release(&now);
  if (err) {
    snprintf(why, why_len, "%s: what was not put into '%s' is in '%s'", reason, shown, staging);
    return ATL_EIO;
  }
  if (atl_remove_tree(staging) != 0) /* only leftovers are there: lock or temporary files of killed steps */
    snprintf(warning, warning_len, "unable to remove the staging folder '%s' (%s)", staging, strerror(errno));
  return 0;
}

void atl_report_device_folder(const char *dir, const char *id, char *out, size_t len)
{
  char folder[64];
  snprintf(folder, sizeof folder, "%s", id);
  for (char *c = folder; *c; c++) /* an id is one folder's name: "opencl:0" is "opencl-0" */
    if (*c == ':' || *c == '/')
      *c = '-';
  snprintf(out, len, "%s/%s", dir, folder);
}

int atl_report_index(const char *dir, const char *const *subs, size_t n, const char *const *files, size_t nfiles,
                     char *why, size_t why_len)
{
  struct atl_manifest old, now = {0};
  int err = atl_manifest_check(dir, dir, &old, why, why_len);
  size_t skip = strlen(dir) + 1; /* "DIR/" before each sub-report's name */
  for (size_t i = 0; err == 0 && i < n; i++) {
    struct atl_manifest sub;
    const char *name = strncmp(subs[i], dir, skip - 1) == 0 && subs[i][skip - 1] == '/' ? subs[i] + skip : subs[i];
    if ((err = atl_manifest_check(subs[i], subs[i], &sub, why, why_len)) != 0)
      break;
    char rel[4400];
    snprintf(rel, sizeof rel, "%s/%s", name, ATL_MANIFEST_NAME);
    err = atl_manifest_add(&now, rel);
    for (size_t k = 0; err == 0 && k < sub.count; k++) {
      snprintf(rel, sizeof rel, "%s/%s", name, sub.files[k]);
      err = atl_manifest_add(&now, rel);
    }
    atl_manifest_release(&sub);
    if (err)
      snprintf(why, why_len, "'%s': not a folder inside '%s'", subs[i], dir);
  }
  for (size_t i = 0; err == 0 && i < nfiles; i++)
    if ((err = atl_manifest_add(&now, files[i])) != 0)
      snprintf(why, why_len, "'%s': not a file inside '%s'", files[i], dir);
  if (err == 0)
    err = atl_manifest_install(NULL, dir, &old, &now, why, why_len);
  atl_manifest_release(&old);
  atl_manifest_release(&now);
  return err;
}
