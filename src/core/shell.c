/* Commands printed for a user to run again: each argument shell-quoted, so a
 * name with a space, quote or ';' is pasted back as one argument, never as
 * more commands (process.h). */
#include <stdio.h>
#include <string.h>

#include "atomlab/process.h"

/* Characters no POSIX shell treats specially: an argument of only these needs no quotes. */
static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-";

size_t atl_shell_quote(const char *arg, char *out, size_t len)
{
  size_t n = 0;
#define PUT(c) (n + 1 < len ? (void)(out[n] = (c)) : (void)0, n++)
  if (*arg && strspn(arg, plain) == strlen(arg)) {
    for (const char *c = arg; *c; c++)
      PUT(*c);
  } else {
    PUT('\'');
    for (const char *c = arg; *c; c++) {
      if (*c == '\'') { /* close, an escaped quote, reopen */
        PUT('\'');
        PUT('\\');
        PUT('\'');
      }
      PUT(*c);
    }
    PUT('\'');
  }
#undef PUT
  if (len)
    out[n < len ? n : len - 1] = '\0';
  return n;
}

size_t atl_shell_join(int argc, char *const *argv, char *out, size_t len)
{
  size_t n = 0;
  if (len)
    out[0] = '\0';
  for (int i = 0; i < argc; i++) {
    if (i && n + 1 < len)
      out[n] = ' ', out[n + 1] = '\0';
    n += i != 0;
    n += atl_shell_quote(argv[i], n < len ? out + n : NULL, n < len ? len - n : 0);
  }
  return n;
}
