/* The size cap of the readers (input_cap.h). A reader that reads a file whole
 * needs its size in memory and more (cJSON's nodes, the rows): a file of
 * 21 GB would take 22 GB and a minute before any message. So the size is
 * checked first, from fstat, and the cap can be raised for a real file that
 * is larger. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "atomlab.h"
#include "input_cap.h"

/* ATL_MAX_INPUT as bytes: 0 where unset, -1 where not a whole number from 1 to 2^62. */
static int64_t from_env(void)
{
  const char *s = getenv("ATL_MAX_INPUT");
  if (s == NULL || *s == '\0')
    return 0;
  char *end;
  errno = 0;
  const unsigned long long v = *s >= '0' && *s <= '9' ? strtoull(s, &end, 10) : 0;
  if (v == 0 || errno || *end != '\0' || v > (1ull << 62))
    return -1;
  return (int64_t)v;
}

int atl_max_input(unsigned long long *bytes)
{
  const int64_t v = from_env();
  *bytes = v > 0 ? (unsigned long long)v : ATL_MAX_INPUT_DEFAULT;
  return v < 0 ? ATL_EINVAL : 0;
}

uint64_t atl__input_cap(uint64_t fallback)
{
  const int64_t v = from_env();
  return v > 0 ? (uint64_t)v : fallback;
}

void atl__input_over(char *why, size_t why_len, uint64_t size, uint64_t cap)
{
  snprintf(why, why_len, "%" PRIu64 " bytes is over the input cap of %" PRIu64
           " bytes (raise it with ATL_MAX_INPUT=BYTES)", size, cap);
}

int atl__input_check(FILE *f, uint64_t fallback, char *why, size_t why_len)
{
  struct stat st;
  const uint64_t cap = atl__input_cap(fallback);
  if (fstat(fileno(f), &st) != 0 || st.st_size < 0 || (uint64_t)st.st_size <= cap)
    return 0; /* no size to tell: the reader's own bound still holds while it reads */
  if (why && why_len)
    atl__input_over(why, why_len, (uint64_t)st.st_size, cap);
  return -1;
}
