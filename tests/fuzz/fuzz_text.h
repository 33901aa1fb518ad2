/* The fuzz harnesses' input as the parsers take it: a NUL-terminated copy of libFuzzer's bytes (NULL without
 * memory), freed by the caller. */
#ifndef ATL_TESTS_FUZZ_TEXT_H
#define ATL_TESTS_FUZZ_TEXT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline char *fuzz_text(const uint8_t *data, size_t size)
{
  char *text = malloc(size + 1);
  if (text != NULL) {
    memcpy(text, data, size);
    text[size] = '\0';
  }
  return text;
}

/* A parser's refusal says why: a non-empty reason, terminated within its @p len bytes. */
static inline int fuzz_says_why(const char *why, size_t len)
{
  return why[0] != '\0' && memchr(why, '\0', len) != NULL;
}

#endif
