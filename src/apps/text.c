/*
 * String match's input: the first bytes of an English text, .dz / .gz
 * decompressed with zlib in process (no gzip child, no shell). The default
 * is the GCIDE dictionary of the Debian package dict-gcide, which is
 * dictzip: gzip with an index in its header, which zlib reads as gzip.
 */
#include <stdio.h>
#include <string.h>

#include <unistd.h>
#include <zlib.h>

#include "app_internal.h"

int atl__text_read(const char *path, uint8_t *buf, uint64_t want, uint64_t *got, char *why, size_t len)
{
  /* Only a regular file: a FIFO would block the read, a device might never end. */
  char detail[200];
  FILE *f = atl_file_open_input(path, detail, sizeof detail);
  if (f == NULL)
    return atl__app_why(why, len, "text '%s': %s; strmatch's default text is the GCIDE dictionary of the Debian "
                        "package dict-gcide (apt-get install dict-gcide)", path, detail);
  const size_t n = strlen(path);
  const int packed = n > 3 && (strcmp(path + n - 3, ".dz") == 0 || strcmp(path + n - 3, ".gz") == 0);
  *got = 0;
  if (packed) {
    gzFile z = gzdopen(dup(fileno(f)), "rb");
    fclose(f);
    if (z == NULL)
      return atl__app_why(why, len, "text '%s': out of memory", path);
    for (int k; *got < want && (k = gzread(z, buf + *got, (unsigned)(want - *got > (1u << 30) ? 1u << 30
                                                                                               : want - *got))) > 0;)
      *got += (uint64_t)k;
    gzclose(z);
  } else {
    *got = fread(buf, 1, want, f);
    fclose(f);
  }
  if (*got == 0)
    return atl__app_why(why, len, "text '%s' is empty or not a gzip / dictzip file", path);
  return 0;
}
