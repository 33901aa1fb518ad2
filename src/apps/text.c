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
    /* Every read is checked: a cut or damaged file must not be searched as far as it happens to go (zlib
     * reports the cut at the end and a wrong check sum there), and data without a gzip header (which zlib
     * would pass through as it is) is no .gz. */
    int k = 0, direct = 0;
    const uint64_t chunk = 1u << 30; /* gzread takes an unsigned count */
    while (*got < want && (k = gzread(z, buf + *got, (unsigned)(want - *got > chunk ? chunk : want - *got))) > 0) {
      *got += (uint64_t)k;
      direct = direct || gzdirect(z);
    }
    int zerr = Z_OK; /* Z_BUF_ERROR: the file ends inside the stream, which gzread reports only here */
    const char *zmsg = gzerror(z, &zerr);
    const int bad = k < 0 || direct || zerr != Z_OK;
    const char *colon = zmsg ? strstr(zmsg, ": ") : NULL; /* zlib names the stream "<fd:N>: " first */
    snprintf(detail, sizeof detail, "%s", direct ? "no gzip header" : colon ? colon + 2 : zmsg ? zmsg : "");
    gzclose(z);
    if (bad) { /* a damaged input is a failure (exit 1), not a usage error */
      atl__app_why(why, len, "'%s': truncated or corrupt gzip data (%s)", path, detail);
      return ATL_EIO;
    }
  } else {
    *got = fread(buf, 1, want, f);
    const int bad = ferror(f);
    fclose(f);
    if (bad) {
      atl__app_why(why, len, "'%s': unable to read it", path);
      return ATL_EIO;
    }
  }
  if (*got == 0)
    return atl__app_why(why, len, "text '%s' is empty or not a gzip / dictzip file", path);
  return 0;
}
