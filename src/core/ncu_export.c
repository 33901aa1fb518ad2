/*
 * An ncu CSV export parsed once (core/ncu_export.h): the header is the first line whose first field is "ID" (ncu's
 * notes and the program's output come before it), the raw page's units row follows it, then one row per launch
 * (raw page) or per metric (details page).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab/diagnose.h"
#include "atomlab/error.h"
#include "core/csv.h"
#include "core/ncu_export.h"

void atl_ncu_export_free(struct atl_ncu_export *e)
{
  if (e == NULL)
    return;
  for (size_t i = 0; i < e->nrows; i++) {
    free(e->rows[i].text);
    free(e->rows[i].f);
  }
  free(e->rows);
  free(e->units_text);
  free(e->units);
  free(e->header_text);
  free(e->cols);
  free(e->name);
  free(e);
}

/* A copy of @p line split into fields: *text and *fields own them (fields NULL where nf <= 0). */
static int split(const char *line, char **scratch, char **text, char ***fields, int *nf)
{
  *fields = NULL;
  if ((*text = strdup(line)) == NULL)
    return ATL_ENOMEM;
  *nf = atl__csv_fields(*text, scratch, ATL_NCU_EXPORT_MAX_FIELDS);
  if (*nf > 0) {
    if ((*fields = malloc((size_t)*nf * sizeof **fields)) == NULL)
      return ATL_ENOMEM;
    memcpy(*fields, scratch, (size_t)*nf * sizeof **fields);
  }
  return 0;
}

/* A row after the header; @p line NULL for a line too long. The first row is the units row where its ID is empty. */
static int add_row(struct atl_ncu_export *e, const char *line, char **scratch, unsigned lineno, size_t *cap)
{
  struct atl__ncu_row r = {NULL, NULL, -2, lineno};
  if (line && split(line, scratch, &r.text, &r.f, &r.nf) != 0) {
    free(r.text);
    return ATL_ENOMEM;
  }
  if (e->nrows == 0 && !e->units && r.nf == e->ncols && r.f && r.f[0][0] == '\0') {
    e->units_text = r.text, e->units = r.f, e->nunits = r.nf;
    return 0;
  }
  if (e->nrows == *cap) {
    struct atl__ncu_row *grown = realloc(e->rows, (*cap = *cap ? 2 * *cap : 16) * sizeof *grown);
    if (grown == NULL) {
      free(r.text);
      free(r.f);
      return ATL_ENOMEM;
    }
    e->rows = grown;
  }
  e->rows[e->nrows++] = r;
  return 0;
}

int atl_ncu_export_parse(const char *text, const char *name, struct atl_ncu_export **out, char *why, size_t why_len)
{
  struct atl_ncu_export *e = calloc(1, sizeof *e);
  char *line = malloc(ATL_NCU_EXPORT_LINE_LEN), **scratch = malloc(ATL_NCU_EXPORT_MAX_FIELDS * sizeof *scratch);
  int err = ATL_ENOMEM;
  size_t cap = 0;
  unsigned lineno = 0;
  *out = NULL;
  if (!e || !line || !scratch || (e->name = strdup(name ? name : "ncu export")) == NULL)
    goto out;
  for (long len; e->header >= 0 && (len = atl__csv_next_line(&text, line, ATL_NCU_EXPORT_LINE_LEN)) != -1;) {
    lineno++;
    if (!e->header) {
      if (len < 0 || strncmp(line, "\"ID\"", 4) != 0)
        continue;
      if (split(line, scratch, &e->header_text, &e->cols, &e->ncols) != 0)
        goto out;
      e->header = e->ncols > 0 ? 1 : -1;
      e->header_line = lineno;
      continue;
    }
    if (len == 0 || (len > 0 && strncmp(line, "==", 2) == 0))
      continue; /* ncu's own notes (==PROF==, ==WARNING==) */
    if (add_row(e, len < 0 ? NULL : line, scratch, lineno, &cap) != 0)
      goto out;
  }
  err = 0;
  *out = e;
  e = NULL;
out:
  if (err)
    snprintf(why, why_len, "%s: out of memory", name ? name : "ncu export");
  atl_ncu_export_free(e);
  free(line);
  free(scratch);
  return err;
}

int atl__ncu_export_column(const struct atl_ncu_export *e, const char *name)
{
  for (int i = 0; i < e->ncols; i++)
    if (strcmp(e->cols[i], name) == 0)
      return i;
  return -1;
}

const char *atl__ncu_export_unit(const struct atl_ncu_export *e, int c, int nf)
{
  return e->units && e->nunits == nf && c >= 0 && c < nf ? e->units[c] : "";
}
