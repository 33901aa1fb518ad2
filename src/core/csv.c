/* The small CSV reader of the model's inputs: calibration tables and ncu exports. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"

int atl__csv_fields(char *line, char **fields, int max)
{
  int n = 0;
  char *r = line;
  for (;;) {
    if (n == max)
      return -1;
    char *w = r; /* fields shrink in place: quotes and doubled quotes go */
    fields[n++] = w;
    if (*r == '"') {
      r++;
      for (;;) {
        if (*r == '\0')
          return -1;
        if (*r == '"') {
          if (r[1] == '"') {
            *w++ = '"';
            r += 2;
            continue;
          }
          r++;
          break;
        }
        *w++ = *r++;
      }
      /* text after the closing quote up to the comma is kept (lenient, as spreadsheets are) */
      while (*r && *r != ',')
        *w++ = *r++;
    } else {
      while (*r && *r != ',')
        *w++ = *r++;
    }
    if (*r == '\0') {
      *w = '\0';
      return n;
    }
    r++;      /* the comma */
    *w = '\0'; /* w <= the comma's position, so this never overwrites unread text */
  }
}

long atl__csv_next_line(const char **text, char *buf, size_t len)
{
  const char *p = *text;
  if (p == NULL || *p == '\0')
    return -1;
  const char *end = strchr(p, '\n');
  size_t n = end ? (size_t)(end - p) : strlen(p);
  *text = end ? end + 1 : p + n;
  if (n > 0 && p[n - 1] == '\r')
    n--;
  if (n + 1 > len)
    return -2;
  memcpy(buf, p, n);
  buf[n] = '\0';
  for (size_t i = 0; i < n; i++) /* a kernel name is printed: no escape sequence of the file reaches a terminal */
    if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f)
      buf[i] = '?';
  return (long)n;
}

int atl__csv_number(const char *text, double *value)
{
  char clean[128];
  size_t o = 0;
  const char *p = text;
  while (*p == ' ' || *p == '\t')
    p++;
  int digits_in_group = 0, seen_separator = 0, in_integer_part = 1;
  for (; *p && *p != ' ' && *p != '\t'; p++) {
    char ch = *p;
    if (ch == ',') {
      /* a thousands separator: only between digit groups of the integer part */
      if (!in_integer_part || digits_in_group == 0 || (seen_separator && digits_in_group != 3) ||
          (!seen_separator && digits_in_group > 3))
        return -1;
      seen_separator = 1;
      digits_in_group = 0;
      continue;
    }
    if (isdigit((unsigned char)ch))
      digits_in_group++;
    else if (in_integer_part) {
      if (seen_separator && digits_in_group != 3)
        return -1;
      if (!(o == 0 && (ch == '-' || ch == '+')))
        in_integer_part = 0;
    }
    if (o + 1 >= sizeof clean)
      return -1;
    clean[o++] = ch;
  }
  while (*p == ' ' || *p == '\t')
    p++;
  if (*p != '\0' || o == 0)
    return -1;
  if (in_integer_part && seen_separator && digits_in_group != 3)
    return -1;
  clean[o] = '\0';
  char *end;
  double v = strtod(clean, &end);
  if (*end != '\0' || end == clean || !isfinite(v))
    return -1;
  *value = v;
  return 0;
}

int atl__csv_record(const char **text, char *buf, size_t len, char **fields, int max, unsigned *lineno,
                    const char *name, char *why, size_t why_len)
{
  for (long n; (n = atl__csv_next_line(text, buf, len)) != -1;) {
    ++*lineno;
    if (n == -2) {
      snprintf(why, why_len, "%s:%u: line too long", name, *lineno);
      return -1;
    }
    if (n == 0 || buf[0] == '#')
      continue;
    int nf = atl__csv_fields(buf, fields, max);
    if (nf < 0)
      snprintf(why, why_len, "%s:%u: malformed CSV (an open quote or more than %d fields)", name, *lineno, max);
    return nf;
  }
  return 0;
}
