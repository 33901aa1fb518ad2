/*
 * The keys' guard of the library's scatter operations (scatter_guard.h): the check of the keys is one launch
 * before the operation's, into a word of the context's scratch; every kernel of the operation reads that word at
 * its start and returns where a key was bad (atomlab/key_guard.h), so nothing waits for the check and nothing is
 * written on error. The host reads the word only after the operation: on atomlab's own device its launches have
 * run by then; on a program's stream or queue the error is recorded on the device and atl_context_finish reports
 * it (keys_finish below).
 *
 * The word's layout (src/kernels/scatter_check.k.c): [0] the call's lowest bad row (0xffffffff: none), [1] [2]
 * the recorded key's low and high halves, [3] 1 where an error is recorded and not yet reported, [4] its row,
 * [5] [6] its operation's targets.
 */
#include <stdio.h>

#include "scatter_guard.h"
#include "scatter_launch.h"

#define GUARD_WORDS 8u

/* Made ready again: no bad row, nothing recorded. Two fills, enqueued: nothing waits. */
static int guard_clear(atl_context_t ctx, void *word)
{
  int err = atl__app_fill32(ctx, word, 0, GUARD_WORDS * 4);
  return err ? err : atl__app_fill32(ctx, word, UINT32_MAX, 4);
}

/* The error recorded on a program's stream or queue (atl_context_finish, after its wait): ATL_ERANGE naming the
 * row, else 0. */
static int keys_finish(atl_context_t ctx)
{
  void *word = ctx->device_buffers[ATL__SCATTER_SLOT_CHECK].ptr;
  uint32_t w[GUARD_WORDS] = {0};
  if (word == NULL || !ctx->external)
    return 0;
  int err = atl__ops(ctx)->read(atl__dev(ctx), word, w, sizeof w);
  if (err || w[3] == 0)
    return err;
  if ((err = guard_clear(ctx, word)))
    return err;
  const uint64_t key = (uint64_t)w[2] << 32 | w[1], targets = (uint64_t)w[6] << 32 | w[5];
  return atl__seterr(ctx, ATL_ERANGE, "finish: an operation enqueued since the last finish had idx row %u holding "
                     "key %lld, outside [0, targets %llu): it wrote nothing", w[4], (long long)key,
                     (unsigned long long)targets);
}

/* The word of the context's scratch, made ready where it is new; atl_context_finish then reports what it records. */
static int guard_word(atl_context_t ctx, void **word)
{
  const int fresh = ctx->device_buffers[ATL__SCATTER_SLOT_CHECK].ptr == NULL;
  int err = atl__device_buffer(ctx, ATL__SCATTER_SLOT_CHECK, GUARD_WORDS * 4, word);
  if (!err && fresh)
    err = guard_clear(ctx, *word);
  ctx->finish_check = keys_finish;
  return err;
}

/* The record of a bad key (scatter_key_bad: the first one only, where the call found one). */
static int keys_record(atl_context_t ctx, const struct atl__keys *k, void *word)
{
  void *fetch = NULL;
  int err = atl__app_build(ctx, "scatter_check", "scatter_key_bad", k->idx_bytes == 8 ? "IDX_T=ulong" : "IDX_T=uint",
                           &fetch, NULL);
  struct atl_arg args[] = {{ATL_ARG_BUFFER, k->idx, 0}, {ATL_ARG_BUFFER, word, 0}, {ATL_ARG_U64, NULL, k->targets}};
  const struct atl_launch launch = {k->wg, k->wg, args, 3};
  return err ? err : atl__ops(ctx)->launch(atl__dev(ctx), fetch, &launch, NULL); /* untimed: the read waits */
}

/* Where the check's result goes besides the word: atl__host_words' word on atomlab's own device (the host reads it
 * there after the operation, without a copy), a word the host has not seen written (NOT_SEEN) until the check's
 * last work-group writes it; the word itself otherwise (a program's queue, a backend without host words). */
#define NOT_SEEN 0xfffffffeu /* no row: rows < 2^32 - 1 */

static int seen_word(atl_context_t ctx, void *word, void **seen, uint32_t *at)
{
  volatile uint32_t *host = NULL;
  const int err = ctx->external ? 0 : atl__host_words(ctx, seen, &host);
  if (host)
    host[ATL__SCATTER_HOST_KEYS_BAD] = NOT_SEEN, *at = ATL__SCATTER_HOST_KEYS_BAD;
  else
    *seen = word, *at = 0;
  return err;
}

int atl__keys_guard(atl_context_t ctx, const struct atl__keys *k, void **guard)
{
  void *check = NULL, *word = NULL, *seen = NULL;
  uint32_t at = 0;
  *guard = NULL;
  int err = atl__app_build(ctx, "scatter_check", "scatter_key_check", k->idx_bytes == 8 ? "IDX_T=ulong" : "IDX_T=uint",
                           &check, NULL);
  if (!err)
    err = guard_word(ctx, &word);
  /* on a program's queue the word may hold an earlier call's bad row, not yet reported: this call's starts clear */
  if (!err && ctx->external)
    err = atl__app_fill32(ctx, word, UINT32_MAX, 4);
  if (!err)
    err = seen_word(ctx, word, &seen, &at);
  if (!err) {
    const size_t resident = atl__app_resident_threads(atl_device_current(ctx), k->wg);
    const size_t all = (size_t)(k->rows + k->wg - 1) / k->wg * k->wg;
    struct atl_arg args[] = {{ATL_ARG_BUFFER, k->idx, 0},     {ATL_ARG_U64, NULL, k->rows},
                             {ATL_ARG_U64, NULL, k->targets}, {ATL_ARG_BUFFER, word, 0},
                             {ATL_ARG_BUFFER, seen, 0},       {ATL_ARG_U32, NULL, at}};
    const struct atl_launch launch = {all < resident ? all : resident, k->wg, args, 6};
    err = atl__ops(ctx)->launch(atl__dev(ctx), check, &launch, NULL); /* untimed: the operation's kernels follow it */
  }
  if (!err && ctx->external) /* recorded on the device, for atl_context_finish */
    err = keys_record(ctx, k, word);
  if (!err)
    *guard = word;
  return err;
}

int atl__keys_report(atl_context_t ctx, const struct atl__keys *k, void *word, int err)
{
  uint32_t w[GUARD_WORDS] = {UINT32_MAX};
  if (ctx->external || word == NULL)
    return err;
  const volatile uint32_t *host = ctx->host_words.host;
  int rerr = 0;
  if (host && host[ATL__SCATTER_HOST_KEYS_BAD] != NOT_SEEN) /* the operation's wait was after the check's */
    w[0] = host[ATL__SCATTER_HOST_KEYS_BAD];
  else
    rerr = atl__ops(ctx)->read(atl__dev(ctx), word, w, 4);
  if (rerr || w[0] == UINT32_MAX)
    return err ? err : rerr;
  /* a bad row: its key for the message, then the word ready for the next call */
  if (!(rerr = keys_record(ctx, k, word)))
    rerr = atl__ops(ctx)->read(atl__dev(ctx), word, w, sizeof w);
  if (!rerr)
    rerr = guard_clear(ctx, word);
  if (err || rerr)
    return err ? err : rerr;
  const uint64_t key = (uint64_t)w[2] << 32 | w[1];
  return atl__seterr(ctx, ATL_ERANGE, "%s: idx row %u holds key %lld, outside [0, targets %llu): nothing was written",
                     k->op, w[4], k->idx_bytes == 8 ? (long long)key : (long long)(uint32_t)key,
                     (unsigned long long)k->targets);
}
