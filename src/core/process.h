/* Running a helper program (cuobjdump, nvdisasm, ptxas, gzip) without a
 * shell: its arguments are passed as they are, so no path or name can be read
 * as shell code, and every wait is bounded. */
#ifndef ATOMLAB_CORE_PROCESS_H
#define ATOMLAB_CORE_PROCESS_H

#include <stddef.h>

/**
 * Runs @p argv (argv[0] a path, or a name looked up on PATH) with stdin and
 * stderr on /dev/null, for at most @p timeout_s seconds (then it is killed).
 * With @p out, its stdout is collected into a malloc'ed, NUL-terminated
 * buffer (*@p len bytes; the caller frees it), at most @p max bytes (more is
 * an error); without, stdout goes to /dev/null. Returns 0 if it ran and
 * exited 0, else -1 with the reason in @p why.
 */
int atl__run(char *const argv[], double timeout_s, char **out, size_t *len, size_t max, char *why, size_t why_len);

#endif
