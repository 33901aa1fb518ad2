/*
 * The launches of an ncu export as the diagnosis names them: the device each ran on (ncu's "Device"
 * column, so a program that uses its second GPU is judged by that GPU's calibration) and the NVTX range
 * that was open when it launched (the user code behind a library kernel).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab/error.h"
#include "core/csv.h"
#include "profile_internal.h"

#define LINE_LEN (1u << 20)
#define MAX_FIELDS 4096

enum { L_ID, L_KERNEL, L_DEVICE, L_NAME, L_NVTX, L_COUNT };

static int ends_with(const char *s, const char *tail)
{
  size_t a = strlen(s), b = strlen(tail);
  return a >= b && strcmp(s + a - b, tail) == 0;
}

/* Which column holds each field; "ID" and "Kernel Name" are required. */
static int columns(char **h, int nh, int col[L_COUNT])
{
  for (int c = 0; c < L_COUNT; c++)
    col[c] = -1;
  for (int i = 0; i < nh; i++) {
    if (strcmp(h[i], "ID") == 0 && col[L_ID] < 0)
      col[L_ID] = i;
    else if (strcmp(h[i], "Kernel Name") == 0)
      col[L_KERNEL] = i;
    else if (strcmp(h[i], "Device") == 0)
      col[L_DEVICE] = i;
    else if (strcmp(h[i], "device__attribute_display_name") == 0)
      col[L_NAME] = i;
    else if (col[L_NVTX] < 0 && (strncmp(h[i], "NVTX", 4) == 0 || ends_with(h[i], "push_pop_ranges")))
      col[L_NVTX] = i;
  }
  return col[L_ID] >= 0 && col[L_KERNEL] >= 0 ? 0 : -1;
}

void atl__nvtx_innermost(const char *field, char *out, size_t len)
{
  /* ranges nest with '/' or ';' (innermost last); a domain prefixes with ':' before the first '@'-less part */
  const char *p = field, *q;
  while ((q = strpbrk(p, "/;")) != NULL && strchr(q + 1, '@'))
    p = q + 1;
  const char *at = strchr(p, '@');
  const char *colon = strchr(p, ':');
  if (colon && at && colon < at) /* "<default domain>:op@file:line" */
    p = colon + 1;
  while (*p == ' ')
    p++;
  snprintf(out, len, "%s", at ? p : "");
  size_t n = strlen(out);
  while (n && (out[n - 1] == ' ' || out[n - 1] == ']'))
    out[--n] = '\0';
}

static void fill(struct atl__launch *l, char **f, int nf, const int col[L_COUNT])
{
  memset(l, 0, sizeof *l);
#define FIELD(c) (col[c] >= 0 && col[c] < nf ? f[col[c]] : "")
  snprintf(l->id, sizeof l->id, "%s", FIELD(L_ID));
  snprintf(l->kernel, sizeof l->kernel, "%s", FIELD(L_KERNEL));
  snprintf(l->device, sizeof l->device, "%s", FIELD(L_DEVICE));
  snprintf(l->device_name, sizeof l->device_name, "%s", FIELD(L_NAME));
  atl__nvtx_innermost(col[L_NVTX] >= 0 ? FIELD(L_NVTX) : l->kernel, l->nvtx, sizeof l->nvtx);
#undef FIELD
}

static int finish(char *line, char **f, int rc) { free(line); free(f); return rc; }

int atl__launches_read(const char *text, const char *name, struct atl__launch **out, size_t *count, char *why,
                       size_t why_len)
{
  char *line = malloc(LINE_LEN), **f = malloc(MAX_FIELDS * sizeof *f);
  int col[L_COUNT] = {-1, -1, -1, -1, -1}, header = 0;
  size_t cap = 0;
  *out = NULL;
  *count = 0;
  if (!line || !f) {
    snprintf(why, why_len, "%s: out of memory", name);
    return finish(line, f, ATL_ENOMEM);
  }
  for (long len; (len = atl__csv_next_line(&text, line, LINE_LEN)) != -1;) {
    if (len < 0 || (!header && strncmp(line, "\"ID\"", 4) != 0))
      continue;
    const int nf = atl__csv_fields(line, f, MAX_FIELDS);
    if (!header) {
      if (nf < 0 || columns(f, nf, col) != 0)
        break;
      header = 1;
      continue;
    }
    if (nf <= col[L_ID] || f[col[L_ID]][0] == '\0') /* the units row */
      continue;
    if (*count == cap) {
      struct atl__launch *p = realloc(*out, (cap = cap ? 2 * cap : 16) * sizeof *p);
      if (!p) {
        snprintf(why, why_len, "%s: out of memory", name);
        return finish(line, f, ATL_ENOMEM);
      }
      *out = p;
    }
    fill(&(*out)[(*count)++], f, nf, col);
  }
  if (!header) {
    snprintf(why, why_len, "%s: no ncu CSV header with \"ID\" and \"Kernel Name\" (ncu --csv --page raw)", name);
    free(*out);
    *out = NULL;
    return finish(line, f, ATL_EINVAL);
  }
  return finish(line, f, 0);
}
