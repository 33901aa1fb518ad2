/* Internal: the keys' guard of the library's scatter operations (src/apps/scatter_guard.c): the check of the keys
 * on the device, whose word every kernel of the operation reads at its start (atomlab/key_guard.h), and the
 * report of a bad key after the operation. */
#ifndef ATOMLAB_APPS_SCATTER_GUARD_H
#define ATOMLAB_APPS_SCATTER_GUARD_H

#include <stdint.h>

#include "app_internal.h"

/* The define a kernel of the operation is built with where its keys are checked (" KEY_GUARD", else ""), to
 * append to its defines, and the guard word as the last argument before any local one. */
#define ATL__KEY_GUARD_DEFINE(guard) ((guard) ? " KEY_GUARD" : "")

/* What an operation's guard needs: its keys (the caller's idx handle of @p idx_bytes 4 or 8), their number and
 * the bound, the work-group size, and the operation's name for the message. */
struct atl__keys {
  const char *op;
  void *idx;
  unsigned idx_bytes;
  uint64_t rows, targets;
  uint32_t wg;
};

/* Before the operation's launches: the check of @p k's keys enqueued into the context's guard word (on a
 * program's stream or queue with the recording of a bad key's row right after it: nothing waits); *@p guard
 * receives the word, for every kernel of the operation. 0, or a negative code with atl_errmsg(). */
int atl__keys_guard(atl_context_t ctx, const struct atl__keys *k, void **guard);

/* After the operation's launches (@p err: theirs; @p guard: atl__keys_guard's word, NULL where the keys were not
 * checked: @p err): on a context of atomlab's own device the word is read back (the launches have run: no wait of
 * its own) and a bad key gives ATL_ERANGE naming its row, the word made ready for the next call; on a program's
 * stream or queue nothing is read (atl_context_finish reports it). @p err where it is not 0. */
int atl__keys_report(atl_context_t ctx, const struct atl__keys *k, void *guard, int err);

#endif
