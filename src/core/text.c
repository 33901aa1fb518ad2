/* Whole text files for the model's readers (tables, counter exports, case-study rows): read once, then
 * parsed from memory, so that every reader gets the same checks (a regular file, a size bound, no NUL). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab/file.h"
#include "core/input_cap.h"
#include "text.h"

char *atl__read_text_file(const char *path, size_t limit)
{
  char why[200] = "";
  char *text = atl__read_text_input(path, limit, why, sizeof why);
  if (text == NULL && strstr(why, "folder"))
    errno = EISDIR;
  else if (text == NULL && strstr(why, "regular"))
    errno = EINVAL;
  return text;
}

char *atl__read_text_input(const char *path, size_t limit, char *why, size_t why_len)
{
  /* Only a regular file: a FIFO would block the read, a device may never end. */
  FILE *f = atl_file_open_input(path, why, why_len);
  if (f == NULL)
    return NULL;
  limit = (size_t)atl__input_cap(limit);
  if (atl__input_check(f, limit, why, why_len) != 0) {
    fclose(f);
    errno = EFBIG;
    return NULL;
  }
  size_t size = 0, cap = 65536;
  char *buf = malloc(cap);
  if (buf == NULL)
    snprintf(why, why_len, "out of memory");
  while (buf) {
    if (size + 1 >= cap) {
      if (cap >= limit) {
        free(buf);
        buf = NULL;
        atl__input_over(why, why_len, (uint64_t)size + 1, limit); /* it grew while read */
        errno = EFBIG;
        break;
      }
      char *grown = realloc(buf, cap * 2);
      if (grown == NULL) {
        free(buf);
        buf = NULL;
        snprintf(why, why_len, "out of memory");
        break;
      }
      buf = grown;
      cap *= 2;
    }
    size_t got = fread(buf + size, 1, cap - 1 - size, f);
    size += got;
    if (got == 0) {
      if (ferror(f)) {
        snprintf(why, why_len, "unable to read it: %s", strerror(errno));
        free(buf);
        buf = NULL;
      }
      break;
    }
  }
  fclose(f);
  if (buf) {
    buf[size] = '\0';
    if (memchr(buf, '\0', size)) { /* a binary file is not a CSV */
      free(buf);
      snprintf(why, why_len, "is a binary file, not text");
      errno = EINVAL;
      return NULL;
    }
  }
  return buf;
}

char *atl__read_model_file(const char *path, size_t limit, char *why, size_t why_len)
{
  char detail[200];
  char *text = atl__read_text_input(path, limit, detail, sizeof detail);
  if (text == NULL)
    snprintf(why, why_len, "'%s': %s", path, detail);
  return text;
}

int atl__text_whole(const char *s, unsigned long lo, unsigned long hi, unsigned *out)
{
  char *end;
  if (*s < '0' || *s > '9')
    return -1;
  errno = 0;
  unsigned long v = strtoul(s, &end, 10);
  if (*end != '\0' || errno || v < lo || v > hi)
    return -1;
  *out = (unsigned)v;
  return 0;
}
