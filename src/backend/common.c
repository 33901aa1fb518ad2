/* Small pieces every backend shares: its runtime loaded once, its kernel build. */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab/error.h"
#include "common.h"

static char *build_key(const struct atl_build *req)
{
  size_t len = strlen(req->source) + strlen(req->entry) + strlen(req->defines) + 3;
  char *key = malloc(len);
  if (key)
    snprintf(key, len, "%s|%s|%s", req->source, req->entry, req->defines);
  return key;
}

int atl__built_find(struct atl__built *list, const struct atl_build *req, void **hit, char **key)
{
  *hit = NULL;
  *key = build_key(req);
  if (*key == NULL)
    return ATL_ENOMEM;
  for (struct atl__built *b = list; b; b = b->next)
    if (strcmp(b->key, *key) == 0) {
      free(*key);
      *key = NULL;
      *hit = b;
      break;
    }
  return 0;
}

int atl__define_options(const char *defines, char *storage, const char **argv, int max)
{
  int n = 0;
  char *o = storage;
  for (const char *p = defines; *p;) {
    while (*p == ' ')
      p++;
    if (!*p)
      break;
    if (n == max)
      return -1;
    argv[n++] = o;
    *o++ = '-';
    *o++ = 'D';
    while (*p && *p != ' ')
      *o++ = *p++;
    *o++ = '\0';
  }
  return n;
}

int atl__runtime_open(atl_context_t ctx, struct atl__runtime *rt, const char *lib, const char *missing, void **handle)
{
  if (rt->loaded == 1)
    return 0;
  if (rt->loaded == -1)
    return atl__seterr(ctx, ATL_ENODEV, "%s", rt->why);
  rt->loaded = -1;
  if ((*handle = dlopen(lib, RTLD_NOW | RTLD_LOCAL)) == NULL)
    return atl__runtime_fail(ctx, rt, "%s (%s not found)", missing, lib);
  return 1;
}

int atl__runtime_load(atl_context_t ctx, struct atl__runtime *rt, void (*load)(void))
{
  if (pthread_once(&rt->once, load) != 0)
    return atl__seterr(ctx, ATL_ENODEV, "pthread_once failed loading a runtime");
  return rt->loaded == 1 ? 0 : atl__seterr(ctx, ATL_ENODEV, "%s", rt->why[0] ? rt->why : "runtime not loaded");
}

int atl__runtime_fail(atl_context_t ctx, struct atl__runtime *rt, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(rt->why, sizeof rt->why, fmt, ap);
  va_end(ap);
  return atl__seterr(ctx, ATL_ENODEV, "%s", rt->why);
}
