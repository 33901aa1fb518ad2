/* libFuzzer harness: the escaping of data for gnuplot, Markdown and HTML
 * (src/core/escape.h). The input is one string (up to its first NUL); every
 * emitter writes it and an oracle reads the result back the way gnuplot, a
 * Markdown renderer or a browser would tokenise it: abort() when data could
 * leave its string, start a command, or open a tag. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab/result.h"
#include "escape.h"

#define CHECK(cond)                                                                                                    \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      fprintf(stderr, "oracle failed: %s (line %d)\n", #cond, __LINE__);                                               \
      abort();                                                                                                         \
    }                                                                                                                  \
  } while (0)

/* What one emitter wrote for @p s, NUL-terminated (free it). */
static char *emit(void (*fn)(FILE *, const char *), const char *s, size_t *len)
{
  char *text = NULL;
  FILE *o = open_memstream(&text, len);
  CHECK(o != NULL);
  fn(o, s);
  CHECK(fclose(o) == 0);
  return text;
}

static int is_print(unsigned char c)
{
  return c >= 0x20 && c < 0x7f;
}

static int is_alnum(unsigned char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* A gnuplot single-quoted string: one token from the first to the last byte,
 * '' the only escape, nothing gnuplot expands; read back, each byte is the
 * input's or '?'. */
static void check_gp_string(const char *in)
{
  size_t len, n = strlen(in), k = 0;
  char *out = emit(atl__esc_gp_string, in, &len);
  CHECK(len >= 2 && out[0] == '\'');
  size_t i = 1;
  for (; i < len; i++) {
    unsigned char c = (unsigned char)out[i];
    if (c == '\'') {
      if (i + 1 < len && out[i + 1] == '\'') {
        CHECK(k < n && in[k] == '\'');
        k++;
        i++;
        continue;
      }
      break; /* the closing quote */
    }
    CHECK(is_print(c) && c != '`' && c != '@' && c != '\\');
    CHECK(k < n && (c == (unsigned char)in[k] || c == '?'));
    k++;
  }
  CHECK(i == len - 1); /* the closing quote is the last byte: nothing after it runs */
  CHECK(k == n);
  free(out);
}

/* A double-quoted field of a data file: whitelisted bytes, one per input byte. */
static void check_gp_datum(const char *in)
{
  size_t len, n = strlen(in);
  char *out = emit(atl__esc_gp_datum, in, &len);
  CHECK(len == (n ? n : 1) + 2 && out[0] == '"' && out[len - 1] == '"');
  for (size_t i = 1; i + 1 < len; i++)
    CHECK(out[i] != '\0' && (is_alnum((unsigned char)out[i]) || strchr("._-+/:=,()", out[i]) != NULL));
  free(out);
}

static void check_comment(const char *in)
{
  size_t len;
  char *out = emit(atl__esc_comment, in, &len);
  CHECK(len == strlen(in));
  for (size_t i = 0; i < len; i++)
    CHECK(is_print((unsigned char)out[i]) && out[i] != '\\');
  free(out);
}

static const char *const entities[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;"};
static const char entity_chars[] = "&<>\"'";

/* The entity at @p p (index into entities[]), or -1. */
static int entity_at(const char *p)
{
  for (int k = 0; k < 5; k++)
    if (strncmp(p, entities[k], strlen(entities[k])) == 0)
      return k;
  return -1;
}

/* HTML text: no raw < > " ', every & one of the five entities, no control character. */
static void check_html_text(const char *out, size_t len)
{
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)out[i];
    CHECK(c >= 0x20 && c != 0x7f);
    CHECK(c != '<' && c != '>' && c != '"' && c != '\'');
    if (c == '&') {
      int k = entity_at(out + i);
      CHECK(k >= 0);
      i += strlen(entities[k]) - 1;
    }
  }
}

/* Markdown as atl__esc_md writes it: the HTML rules, and every \ ` * [ ] | escaped.
 * Returns the text it reads back as (controls as spaces), or NULL if @p want_text is 0. */
static char *check_md_text(const char *out, size_t len, int want_text)
{
  char *back = want_text ? malloc(len + 1) : NULL;
  size_t b = 0;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)out[i];
    CHECK(c >= 0x20 && c != 0x7f);
    CHECK(c != '<' && c != '>' && c != '"' && c != '\'');
    CHECK(strchr("`*[]|", c) == NULL); /* raw: it would open code, emphasis, a link or a cell */
    if (c == '\\') {
      CHECK(i + 1 < len && strchr("\\`*[]|", out[i + 1]) != NULL);
      c = (unsigned char)out[++i];
    } else if (c == '&') {
      int k = entity_at(out + i);
      CHECK(k >= 0);
      i += strlen(entities[k]) - 1;
      c = (unsigned char)entity_chars[k];
    }
    if (back)
      back[b++] = (char)c;
  }
  if (back)
    back[b] = '\0';
  return back;
}

static void check_html_md(const char *in)
{
  size_t hlen, mlen, n = strlen(in);
  char *html = emit(atl__esc_html, in, &hlen), *md = emit(atl__esc_md, in, &mlen);
  check_html_text(html, hlen);
  char *back = check_md_text(md, mlen, 1);
  CHECK(back != NULL && strlen(back) == n);
  for (size_t i = 0; i < n; i++) { /* nothing lost but control characters, which read as spaces */
    unsigned char c = (unsigned char)in[i];
    CHECK(back[i] == (c < 0x20 || c == 0x7f ? ' ' : in[i]));
  }
  free(back);

  /* One Markdown text feeds both documents: its HTML form is atl__esc_html's. */
  size_t tlen;
  char *to_html = emit(atl__esc_md_to_html, md, &tlen);
  CHECK(tlen == hlen && memcmp(to_html, html, hlen) == 0);
  free(to_html);

  /* Truncated into a buffer: a prefix of the whole, still well-formed. */
  static const size_t sizes[] = {1, 2, 3, 5, 6, 7, 17, 64};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    char buf[64];
    CHECK(atl__esc_md_str(buf, sizes[s], in) == buf);
    size_t got = strlen(buf);
    CHECK(got < sizes[s] && got <= mlen && memcmp(buf, md, got) == 0);
    check_md_text(buf, got, 0);
  }
  free(html);
  free(md);
}

/* Arbitrary text taken as Markdown prose still comes out as safe HTML. */
static void check_md_to_html_any(const char *in)
{
  size_t len;
  char *out = emit(atl__esc_md_to_html, in, &len);
  check_html_text(out, len);
  free(out);
}

static int hex(char c)
{
  return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* A relative URL: unreserved bytes and %XX only; it decodes to the input. */
static void check_url(const char *in)
{
  size_t len, n = strlen(in), k = 0;
  char *out = emit(atl__esc_url, in, &len);
  for (size_t i = 0; i < len; i++, k++) {
    unsigned char c = (unsigned char)out[i];
    if (c == '%') {
      CHECK(i + 2 < len && hex(out[i + 1]) >= 0 && hex(out[i + 2]) >= 0);
      c = (unsigned char)(hex(out[i + 1]) * 16 + hex(out[i + 2]));
      i += 2;
    } else {
      CHECK(c != '\0' && (is_alnum(c) || strchr("-._~/", c) != NULL));
    }
    CHECK(k < n && c == (unsigned char)in[k]);
  }
  CHECK(k == n);
  free(out);
}

/* For a terminal (atl_esc_terminal): no control character (C0, DEL, or C1 as UTF-8) and no broken UTF-8 survive,
 * one byte or one whole character per input character, and the buffer form is a prefix of the stream form. */
static void check_terminal(const char *in)
{
  size_t len;
  char *out = emit(atl_esc_terminal, in, &len);
  CHECK(len <= strlen(in));
  for (size_t i = 0; i < len;) {
    const unsigned char c = (unsigned char)out[i];
    size_t n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    CHECK(n > 0 && i + n <= len);
    CHECK(n > 1 || is_print(c));
    for (size_t k = 1; k < n; k++)
      CHECK(((unsigned char)out[i + k] & 0xc0) == 0x80);
    CHECK(!(c == 0xc2 && (unsigned char)out[i + 1] < 0xa0)); /* C1 controls */
    i += n;
  }
  char buf[17];
  atl_esc_terminal_str(buf, sizeof buf, in);
  CHECK(strlen(buf) < sizeof buf && strncmp(buf, out, strlen(buf)) == 0);
  CHECK(strlen(buf) + 4 >= sizeof buf - 1 || strlen(buf) == len); /* cut only where it must be */
  free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *in = malloc(size + 1);
  if (in == NULL)
    return 0;
  memcpy(in, data, size);
  in[size] = '\0'; /* a C string: the emitters see up to the first NUL */
  check_gp_string(in);
  check_gp_datum(in);
  check_comment(in);
  check_html_md(in);
  check_md_to_html_any(in);
  check_url(in);
  check_terminal(in);
  free(in);
  return 0;
}
