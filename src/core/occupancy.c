/* Occupancy discovery: how many work-groups really run at once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"

/* Spins a waiter may make before it declares a deadlock. A lock holder is
 * resident by construction, so a healthy device hands the lock on within
 * microseconds; this bound is seconds even on a slow device. */
#define DISCOVERY_SPIN_BOUND (1u << 24)
#define DISCOVERY_STATE_WORDS 5
/* Words the state buffer has: the protocol's 5, then ATL_OCCUPANCY_EXTRA_WORDS a diagnostic kernel may fill
 * (occupancy_probe's counts: discovery.comp's mode 8 counts the invocations that started and the work-group size
 * they saw, mode 16 the groups running at once now and at most). */
#define DISCOVERY_BUFFER_WORDS (DISCOVERY_STATE_WORDS + ATL_OCCUPANCY_EXTRA_WORDS)

int atl_occupancy_discover(atl_context_t ctx, unsigned wg_size, struct atl_occupancy *out)
{
  if (ctx == NULL)
    return ATL_EINVAL;
  if (out == NULL || wg_size == 0)
    return atl__seterr(ctx, ATL_EINVAL, "occupancy: %s", out ? "wg_size 0 is not allowed: 1 or more"
                                                              : "out is NULL: a place for the result is needed");
  if (atl_device_current(ctx) == NULL)
    return atl__seterr(ctx, ATL_ENODEV, "occupancy: no device open");
  return atl__occupancy_probe(ctx, wg_size, 0, "", out, NULL);
}

int atl__occupancy_probe(atl_context_t ctx, unsigned wg_size, unsigned launch_groups, const char *defines,
                         struct atl_occupancy *out, uint32_t extra[ATL_OCCUPANCY_EXTRA_WORDS])
{
  const struct atl_backend_ops *ops = atl__ops(ctx);
  void *dev = atl__dev(ctx);
  void *kernel = NULL, *state = NULL, *ids = NULL;
  uint32_t *joined = NULL;
  int err = 0;

  if (ops == NULL)
    return atl__seterr(ctx, ATL_ENODEV, "no device open");
  memset(out, 0, sizeof *out);
  out->wg_size = wg_size;

  struct atl_build req = {"discovery", "discovery", defines};
  if ((err = ops->build(dev, &req, &kernel)))
    goto out;
  const struct atl_device_info *info = atl_device_current(ctx);
  unsigned estimated = info->compute_units;
  snprintf(out->estimate_method, sizeof out->estimate_method, "one work-group per compute unit");
  if (ops->occupancy_estimate)
    ops->occupancy_estimate(dev, kernel, wg_size, &estimated, out->estimate_method, sizeof out->estimate_method);
  out->estimated = estimated;

  /* Launch well past the estimate so that the poll sees every resident group. */
  unsigned launched = estimated * 2;
  if (launched < info->compute_units * 4)
    launched = info->compute_units * 4;
  if (launched > 65535)
    launched = 65535;
  if (launch_groups)
    launched = launch_groups;
  out->launched = launched;

  uint32_t init[DISCOVERY_BUFFER_WORDS] = {0, 0, 1}; /* poll open; the rest 0 */
  if ((err = ops->alloc(dev, sizeof init, &state)) || (err = ops->alloc(dev, launched * sizeof(uint32_t), &ids)))
    goto out;
  /* Every id starts as "not written", so a group that stopped inside the protocol shows as such, not as a joiner
   * with id 0 (the buffer's fill). */
  const uint32_t unwritten = 0xfffffffeu;
  if ((err = ops->write(dev, state, init, sizeof init)) ||
      (err = ops->fill(dev, ids, &unwritten, sizeof unwritten, launched * sizeof(uint32_t))))
    goto out;
  struct atl_arg args[] = {
      {ATL_ARG_BUFFER, state, 0},
      {ATL_ARG_BUFFER, ids, 0},
      {ATL_ARG_U32, NULL, DISCOVERY_SPIN_BOUND},
  };
  struct atl_launch launch = {(size_t)launched * wg_size, wg_size, args, 3};
  double ms = 0;
  if ((err = ops->launch(dev, kernel, &launch, &ms)))
    goto out;
  uint32_t final[DISCOVERY_BUFFER_WORDS];
  if ((err = ops->read(dev, state, final, sizeof final)))
    goto out;
  if (extra)
    memcpy(extra, final + DISCOVERY_STATE_WORDS, ATL_OCCUPANCY_EXTRA_WORDS * sizeof *extra);
  if (final[4] != 0) {
    err = atl__seterr(ctx, ATL_EDEADLOCK, "occupancy discovery: a ticket-lock wait exceeded %u spins", DISCOVERY_SPIN_BOUND);
    goto out;
  }
  joined = malloc(launched * sizeof *joined);
  if (joined == NULL) {
    err = atl__seterr(ctx, ATL_ENOMEM, "out of memory");
    goto out;
  }
  if ((err = ops->read(dev, ids, joined, launched * sizeof *joined)))
    goto out;
  /* The joiners' ids must be exactly 0..count-1: a cheap self-check of the lock. */
  unsigned count = final[3], seen = 0, stopped = 0;
  for (unsigned g = 0; g < launched; g++) {
    stopped += joined[g] == unwritten;
    if (joined[g] != 0xffffffffu && joined[g] != unwritten)
      seen += joined[g] < count;
  }
  if (stopped) {
    err = atl__seterr(ctx, ATL_EBACKEND, "occupancy discovery: %u of %u work-groups never wrote their id (they "
                      "stopped inside the protocol; %u of %u tickets served)", stopped, launched, final[1], final[0]);
    goto out;
  }
  if (seen != count || count == 0) {
    err = atl__seterr(ctx, ATL_EBACKEND, "occupancy discovery: %u work-groups joined but %u ids were handed out", seen, count);
    goto out;
  }
  out->discovered = count;
out:
  free(joined);
  if (ops) {
    ops->free(dev, state);
    ops->free(dev, ids);
  }
  return err;
}
