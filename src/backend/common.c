/* Small pieces every backend's kernel build shares. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

char *atl__build_key(const struct atl_build *req)
{
  size_t len = strlen(req->source) + strlen(req->entry) + strlen(req->defines) + 3;
  char *key = malloc(len);
  if (key)
    snprintf(key, len, "%s|%s|%s", req->source, req->entry, req->defines);
  return key;
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
