/*
 * The launches of an ncu export as the diagnosis names them: the device each ran on (ncu's "Device"
 * column, so a program that uses its second GPU is judged by that GPU's calibration) and the NVTX range
 * that was open when it launched (the user code behind a library kernel).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab/diagnose.h"
#include "atomlab/error.h"
#include "core/ncu_export.h"
#include "profile_internal.h"

enum { L_ID, L_KERNEL, L_DEVICE, L_NAME, L_COUNT };

/* How a column's name is matched, and how its value holds the ranges. */
enum match { PREFIX, SUFFIX };
enum form {
  PATH,  /* "domain:outer/inner@f.py:3": the ranges nested with '/' or ';' */
  STACK, /* [thread or id] "domain:range:PL_Type:PL_Value:CLR_Type:Color:Msg_Type:Msg" ..., innermost last */
};

/*
 * The NVTX range's column as ncu names it with --nvtx, best first (docs/design/model.md says which export shows
 * which): the push/pop stack before the start/end ranges (torch.cuda.nvtx.range_push pushes), the names of
 * older exports after them. A launch takes the first of these columns that names a call site.
 */
static const struct nvtx_column {
  const char *name;
  enum match match;
  enum form form;
} nvtx_columns[] = {
    {"thread Domain:Push/Pop_Range", PREFIX, STACK}, /* ncu 2025.x, 2026.x: ...:PL_Type:PL_Value:...:Msg */
    {"Id:Domain:Start/Stop_Range", PREFIX, STACK},   /* the same exports' start/end ranges */
    {"NVTX", PREFIX, PATH},                          /* older exports: "NVTX", or one per domain */
    {"push_pop_ranges", SUFFIX, PATH},               /* "<domain>:push_pop_ranges", the report interface's name */
};
#define NVTX_COLUMNS (sizeof nvtx_columns / sizeof *nvtx_columns)

static int matches(const char *col, const struct nvtx_column *c)
{
  const size_t a = strlen(col), b = strlen(c->name);
  switch (c->match) {
  case PREFIX:
    return strncmp(col, c->name, b) == 0;
  case SUFFIX:
    return a >= b && strcmp(col + a - b, c->name) == 0;
  }
  return 0;
}

void atl__nvtx_innermost(const char *field, char *out, size_t len)
{
  /* ranges nest with '/' or ';' (innermost last): the innermost range that names a call site starts after the last
   * separator before the last '@' (one pass: a field may be a line of ncu's, up to a mebibyte); a domain prefixes
   * with ':' before the first '@'-less part */
  const char *p = field, *last_at = strrchr(field, '@');
  for (const char *q = field; last_at && (q = strpbrk(q, "/;")) != NULL && q < last_at; q++)
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

/* One entry "domain:range:PL_Type:PL_Value:CLR_Type:Color:Msg_Type:Msg" (@p n bytes) without its six attributes. */
static void stack_entry(const char *entry, size_t n, char *out, size_t len)
{
  char tmp[512];
  snprintf(tmp, sizeof tmp, "%.*s", (int)(n < sizeof tmp ? n : sizeof tmp - 1), entry);
  /* the range may hold ':' itself ("op@f.py:3"): the attributes are counted off the end */
  for (int i = 0; i < 6; i++) {
    char *c = strrchr(tmp, ':');
    if (c == NULL)
      break;
    *c = '\0';
  }
  /* a start/end range's entry leads with its id ("0:<default domain>:op@f.py:3"): the domain follows it */
  const char *p = tmp + strspn(tmp, "0123456789");
  const char *at = strchr(tmp, '@'), *domain_end = *p == ':' ? strchr(p + 1, ':') : NULL;
  atl__nvtx_innermost(p > tmp && domain_end && at && domain_end < at ? p + 1 : tmp, out, len);
}

void atl__nvtx_stack_innermost(const char *field, char *out, size_t len)
{
  /* the entries are quoted after the thread (or range id); the innermost that names a call site speaks */
  if (len)
    out[0] = '\0';
  if (strchr(field, '"') == NULL) {
    const char *p = field + strspn(field, "0123456789");
    p += strspn(p, " ");
    stack_entry(p, strlen(p), out, len);
    return;
  }
  for (size_t end = strlen(field); len && out[0] == '\0';) {
    size_t close = end, open;
    while (close > 0 && field[close - 1] != '"')
      close--;
    if (close == 0)
      return;
    close--; /* field[close] is the entry's closing quote */
    for (open = close; open > 0 && field[open - 1] != '"';)
      open--;
    if (open == 0)
      return;
    open--; /* field[open] is its opening quote */
    stack_entry(field + open + 1, close - open - 1, out, len);
    end = open;
  }
}

/* The column of each accepted NVTX name (-1 where the export has none). */
static void nvtx_find(const struct atl_ncu_export *e, int col[NVTX_COLUMNS])
{
  for (size_t k = 0; k < NVTX_COLUMNS; k++) {
    col[k] = -1;
    for (int i = 0; i < e->ncols && col[k] < 0; i++)
      if (matches(e->cols[i], &nvtx_columns[k]))
        col[k] = i;
  }
}

static void fill(struct atl__launch *l, const struct atl__ncu_row *r, const int col[L_COUNT],
                 const int nvtx[NVTX_COLUMNS])
{
  memset(l, 0, sizeof *l);
#define FIELD(c) ((c) >= 0 && (c) < r->nf ? r->f[c] : "")
  snprintf(l->id, sizeof l->id, "%s", FIELD(col[L_ID]));
  snprintf(l->kernel, sizeof l->kernel, "%s", FIELD(col[L_KERNEL]));
  snprintf(l->device, sizeof l->device, "%s", FIELD(col[L_DEVICE]));
  snprintf(l->device_name, sizeof l->device_name, "%s", FIELD(col[L_NAME]));
  int any = 0;
  for (size_t k = 0; k < NVTX_COLUMNS && !l->nvtx[0]; k++) {
    if (nvtx[k] < 0)
      continue;
    any = 1;
    if (nvtx_columns[k].form == STACK)
      atl__nvtx_stack_innermost(FIELD(nvtx[k]), l->nvtx, sizeof l->nvtx);
    else
      atl__nvtx_innermost(FIELD(nvtx[k]), l->nvtx, sizeof l->nvtx);
  }
  if (!any) /* --print-nvtx-rename kernel: the range is the kernel's name */
    atl__nvtx_innermost(l->kernel, l->nvtx, sizeof l->nvtx);
#undef FIELD
}

int atl__launches_from_export(const struct atl_ncu_export *e, struct atl__launch **out, size_t *count, char *why,
                              size_t why_len)
{
  static const char *const names[L_COUNT] = {"ID", "Kernel Name", "Device", "device__attribute_display_name"};
  int col[L_COUNT], nvtx[NVTX_COLUMNS];
  *out = NULL;
  *count = 0;
  for (int c = 0; c < L_COUNT; c++)
    col[c] = e->header > 0 ? atl__ncu_export_column(e, names[c]) : -1;
  if (col[L_ID] < 0 || col[L_KERNEL] < 0) {
    snprintf(why, why_len, "%s: no ncu CSV header with \"ID\" and \"Kernel Name\" (ncu --csv --page raw)", e->name);
    return ATL_EINVAL;
  }
  nvtx_find(e, nvtx);
  if (e->nrows && (*out = malloc(e->nrows * sizeof **out)) == NULL) {
    snprintf(why, why_len, "%s: out of memory", e->name);
    return ATL_ENOMEM;
  }
  for (size_t i = 0; i < e->nrows; i++) {
    const struct atl__ncu_row *r = &e->rows[i];
    if (r->nf > col[L_ID] && r->f[col[L_ID]][0] != '\0') /* not a units row or a line too long */
      fill(&(*out)[(*count)++], r, col, nvtx);
  }
  return 0;
}
