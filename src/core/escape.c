/* The escaping of data for gnuplot, Markdown and HTML (escape.h). Each format
 * is a whitelist: a character not known to be harmless is replaced, so a
 * construct this code never heard of (a newer gnuplot's, a renderer's) stays
 * out as well. */
#include <string.h>

#include "atomlab/result.h"
#include "escape.h"

static int is_alnum(unsigned char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Printable ASCII: a control character or a byte >= 0x80 is never kept where
 * a parser could give it meaning (a newline ends a gnuplot command). */
static int is_print(unsigned char c)
{
  return c >= 0x20 && c < 0x7f;
}

void atl__esc_gp_string(FILE *o, const char *s)
{
  fputc('\'', o);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '\'')
      fputs("''", o);
    else if (!is_print(*p) || *p == '`' || *p == '@' || *p == '\\')
      fputc('?', o);
    else
      fputc(*p, o);
  }
  fputc('\'', o);
}

void atl__esc_gp_datum(FILE *o, const char *s)
{
  fputc('"', o);
  if (*s == '\0')
    fputc('_', o);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++)
    fputc(is_alnum(*p) || (*p && strchr("._-+/:=,()", *p)) ? *p : '_', o);
  fputc('"', o);
}

void atl__esc_comment(FILE *o, const char *s)
{
  for (const unsigned char *p = (const unsigned char *)s; *p; p++)
    fputc(is_print(*p) && *p != '\\' ? *p : '?', o);
}

/* The HTML entity of @p c, NULL for a character that stays as it is. */
static const char *html_entity(unsigned char c)
{
  switch (c) {
  case '&':
    return "&amp;";
  case '<':
    return "&lt;";
  case '>':
    return "&gt;";
  case '"':
    return "&quot;";
  case '\'':
    return "&#39;";
  default:
    return c < 0x20 || c == 0x7f ? " " : NULL;
  }
}

void atl__esc_html(FILE *o, const char *s)
{
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    const char *e = html_entity(*p);
    if (e)
      fputs(e, o);
    else
      fputc(*p, o);
  }
}

/* The characters atl__esc_md backslash-escapes: they open code spans, emphasis,
 * links and table cells, and '\\' itself. */
static const char md_special[] = "\\`*[]|";

/* What atl__esc_md writes for @p c: its escape in @p tmp, or NULL to keep it. */
static const char *md_piece(unsigned char c, char tmp[3])
{
  if (c && strchr(md_special, c)) {
    tmp[0] = '\\';
    tmp[1] = (char)c;
    tmp[2] = '\0';
    return tmp;
  }
  return html_entity(c);
}

void atl__esc_md(FILE *o, const char *s)
{
  char tmp[3];
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    const char *e = md_piece(*p, tmp);
    if (e)
      fputs(e, o);
    else
      fputc(*p, o);
  }
}

char *atl__esc_md_str(char *buf, size_t len, const char *s)
{
  if (len == 0)
    return buf;
  size_t used = 0;
  char tmp[3];
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    char one[2] = {(char)*p, '\0'};
    const char *e = md_piece(*p, tmp);
    if (e == NULL)
      e = one;
    size_t n = strlen(e);
    if (used + n + 1 > len)
      break; /* never half an escape: "&am" or a lone '\\' would change what follows */
    memcpy(buf + used, e, n);
    used += n;
  }
  buf[used] = '\0';
  return buf;
}

void atl__esc_md_to_html(FILE *o, const char *md)
{
  static const char *const entities[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;"};
  for (const unsigned char *p = (const unsigned char *)md; *p; p++) {
    if (*p == '\\' && p[1] && strchr(md_special, p[1])) {
      p++; /* none of md_special needs an entity in HTML */
      fputc(*p, o);
      continue;
    }
    if (*p == '&') {
      size_t k = 0;
      while (k < 5 && strncmp((const char *)p, entities[k], strlen(entities[k])) != 0)
        k++;
      if (k < 5) { /* an entity atl__esc_md wrote means the same in HTML */
        fputs(entities[k], o);
        p += strlen(entities[k]) - 1;
        continue;
      }
    }
    const char *e = html_entity(*p);
    if (e)
      fputs(e, o);
    else
      fputc(*p, o);
  }
}

void atl__esc_url(FILE *o, const char *s)
{
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (is_alnum(*p) || strchr("-._~/", *p))
      fputc(*p, o);
    else
      fprintf(o, "%%%02X", *p);
  }
}

/* The length of the character at @p p a terminal may show as it is: 1 for printable ASCII, 2 to 4 for a whole,
 * shortest-form UTF-8 character other than a C1 control (U+0080 to U+009F, which some terminals obey as
 * ESC sequences); 0 for anything else (a control character, a stray or cut UTF-8 byte). */
static size_t term_char(const unsigned char *p)
{
  if (is_print(*p))
    return 1;
  size_t n = *p >= 0xc2 && *p <= 0xdf ? 2 : *p >= 0xe0 && *p <= 0xef ? 3 : *p >= 0xf0 && *p <= 0xf4 ? 4 : 0;
  for (size_t k = 1; k < n; k++)
    if ((p[k] & 0xc0) != 0x80)
      return 0;
  if ((n == 2 && *p == 0xc2 && p[1] < 0xa0) || (n == 3 && *p == 0xe0 && p[1] < 0xa0) ||
      (n == 4 && ((*p == 0xf0 && p[1] < 0x90) || (*p == 0xf4 && p[1] > 0x8f))))
    return 0;
  return n;
}

void atl_esc_terminal(FILE *o, const char *s)
{
  for (const unsigned char *p = (const unsigned char *)s; *p;) {
    const size_t n = term_char(p);
    if (n == 0)
      fputc('?', o);
    else
      fwrite(p, 1, n, o);
    p += n ? n : 1;
  }
}

char *atl_esc_terminal_str(char *buf, size_t len, const char *s)
{
  if (len == 0)
    return buf;
  size_t used = 0;
  for (const unsigned char *p = (const unsigned char *)s; *p;) {
    const size_t n = term_char(p), w = n ? n : 1;
    if (used + w + 1 > len)
      break; /* never half a character */
    if (n == 0)
      buf[used] = '?';
    else
      memcpy(buf + used, p, n);
    used += w;
    p += w;
  }
  buf[used] = '\0';
  return buf;
}
