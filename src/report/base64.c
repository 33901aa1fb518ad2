/* The base64 encoder report.html embeds its figures with. A file of its own:
 * the sections (sections.c) and the document (write.c) both
 * embed images, and the document calls the sections, so neither may hold it
 * without the two calling each other. */
#include <stdio.h>

#include "report_internal.h"

int atl__report_base64_file(FILE *o, const char *path)
{
  static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  FILE *in = atl_file_open_input(path, NULL, 0); /* a FIFO would block */
  if (in == NULL)
    return -1;
  unsigned char b[3];
  size_t n;
  while ((n = fread(b, 1, 3, in)) > 0) {
    unsigned v = (unsigned)b[0] << 16 | (n > 1 ? (unsigned)b[1] << 8 : 0) | (n > 2 ? b[2] : 0);
    fputc(digits[v >> 18 & 63], o);
    fputc(digits[v >> 12 & 63], o);
    fputc(n > 1 ? digits[v >> 6 & 63] : '=', o);
    fputc(n > 2 ? digits[v & 63] : '=', o);
  }
  fclose(in);
  return 0;
}
