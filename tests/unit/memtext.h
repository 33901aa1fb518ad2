/* What a writer prints, caught in memory (open_memstream) for the writer/reader round trips of the unit tests. */
#ifndef ATL_TESTS_UNIT_MEMTEXT_H
#define ATL_TESTS_UNIT_MEMTEXT_H

#include <stdio.h>

struct memtext {
  char *buf; /* the text, NUL-terminated, after fclose(f); the caller frees it */
  size_t len;
  FILE *f;
};

/* Opens @p m->f, empty; 0 where no stream could be opened. */
static inline int memtext_open(struct memtext *m)
{
  m->buf = NULL;
  m->len = 0;
  m->f = open_memstream(&m->buf, &m->len);
  return m->f != NULL;
}

#endif
