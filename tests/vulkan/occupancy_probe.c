/*
 * The occupancy discovery protocol on one device at chosen launch sizes and,
 * on Vulkan, in each of discovery.comp's modes (issue 19: NVIDIA's Vulkan
 * driver counted 2112 co-resident work-groups of 256 on an H100 that holds
 * 1056, CUDA and OpenCL 1056):
 *
 *   occupancy_probe DEVICE WG LAUNCHES [MODES] [--check]
 *
 * DEVICE an atomlab device id (cuda:0, opencl:1, vulkan:0); WG the work-group
 * size; LAUNCHES work-groups launched, comma separated, each a number or a
 * multiple of the estimate (x2, x4); MODES discovery.comp's DISCOVERY_MODE
 * values (default 0; Vulkan only; discovery.comp lists them: 1 no early exit, 2
 * acquire/release atomics, 4 a poll never closed, 8 count the invocations, 16
 * count the groups running at once, 32 reads by atomicAdd of a zero the
 * compiler cannot see).
 * One line per launch and mode: launched, discovered, the estimate and its
 * method; with mode 8, the invocations the device ran per group and the
 * work-group size they saw; with mode 16, the most groups that ran at once
 * (a protocol count above it let in groups that were not co-resident).
 *
 * What it tells: a protocol that works counts the same at every launch past
 * the device's capacity; a count that grows with the launch (every group
 * joining) is a broken poll, not residency. --check exits 1 when a count
 * equals its launch while the launch is more than twice the smallest count
 * seen (the test on lavapipe), or, in mode 16, when the count exceeds the most
 * groups that ran at once (the protocol counted groups that were not
 * co-resident; mode 20, the unclosed poll, must fail so), so it can fail.
 * Exits 77 without the device,
 * 2 on bad arguments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"
#include "core/context.h"

static int usage(const char *why)
{
  fprintf(stderr, "occupancy_probe: %s\nusage: occupancy_probe DEVICE WG LAUNCHES [MODES] [--check]\n", why);
  return 2;
}

/* Comma-separated whole numbers, or xN multiples (*mult set), into out (at most max). */
static int parse_list(const char *s, unsigned long lo, unsigned *out, int *mult, int max)
{
  int n = 0;
  while (*s && n < max) {
    char *end;
    mult[n] = *s == 'x';
    const unsigned long v = strtoul(s + mult[n], &end, 10);
    if (end == s + mult[n] || v < lo || v > 65535 || (*end && *end != ','))
      return -1;
    out[n++] = (unsigned)v;
    s = *end ? end + 1 : end;
  }
  return *s ? -1 : n;
}

int main(int argc, char **argv)
{
  int check = 0;
  if (argc > 1 && strcmp(argv[argc - 1], "--check") == 0) {
    check = 1;
    argc--;
  }
  if (argc < 4 || argc > 5)
    return usage("wrong number of arguments");
  char *end;
  const unsigned long wg = strtoul(argv[2], &end, 10);
  if (*end || wg == 0 || wg > 1024)
    return usage("WG must be 1 to 1024");
  unsigned launches[16], modes[16] = {0};
  int lmult[16], mmult[16] = {0};
  const int nl = parse_list(argv[3], 1, launches, lmult, 16);
  const int nm = argc > 4 ? parse_list(argv[4], 0, modes, mmult, 16) : 1;
  if (nl <= 0)
    return usage("LAUNCHES must be at most 16 whole numbers 1 to 65535 or multiples xN, comma separated");
  if (nm <= 0)
    return usage("MODES must be at most 16 whole numbers 0 to 63, comma separated");
  const int nmodes = nm;
  for (int m = 0; m < nmodes; m++)
    if (modes[m] > 63 || (argc > 4 && mmult[m]))
      return usage("MODES must be at most 16 whole numbers 0 to 63, comma separated");
  atl_context_t ctx = NULL;
  if (atl_context_new(&ctx))
    return 1;
  if (atl_device_open(ctx, argv[1], NULL) != 0) {
    printf("no device %s: %s\n", argv[1], atl_errmsg(ctx));
    atl_context_free(ctx);
    return 77;
  }
  const struct atl_device_info *info = atl_device_current(ctx);
  const int vulkan = strcmp(info->backend, "vulkan") == 0;
  printf("# %s %s (%s), work-groups of %lu\n", info->id, info->name, info->driver, wg);
  printf("%-10s %4s %9s %10s %9s  %s\n", "device", "mode", "launched", "discovered", "estimated", "method");
  int failed = 0;
  unsigned smallest = 0;
  struct {
    unsigned launched, discovered;
  } seen[16 * 16];
  int nseen = 0;
  for (int m = 0; m < nmodes; m++) {
    if (modes[m] && !vulkan) {
      printf("%-10s %4u  (modes other than 0 are discovery.comp's: Vulkan only)\n", info->id, modes[m]);
      continue;
    }
    for (int l = 0; l < nl; l++) {
      /* Vulkan: every mode named, 0 included (a request without one gets the backend's default, the hold). */
      char defines[32] = "";
      if (vulkan)
        snprintf(defines, sizeof defines, "DISCOVERY_MODE=%u", modes[m]);
      struct atl_occupancy occ;
      unsigned launch = launches[l];
      if (lmult[l]) {
        /* the estimate first: a probe at the default launch tells it */
        if (atl__occupancy_probe(ctx, (unsigned)wg, 0, defines, &occ, NULL) != 0) {
          printf("%-10s %4u %9s  error: %s\n", info->id, modes[m], argv[3], atl_errmsg(ctx));
          failed = 1;
          continue;
        }
        launch = occ.estimated * launches[l];
      }
      uint32_t extra[ATL_OCCUPANCY_EXTRA_WORDS] = {0};
      if (atl__occupancy_probe(ctx, (unsigned)wg, launch, defines, &occ, extra) != 0) {
        printf("%-10s %4u %9u  error: %s\n", info->id, modes[m], launch, atl_errmsg(ctx));
        failed = 1;
        continue;
      }
      printf("%-10s %4u %9u %10u %9u  %s", info->id, modes[m], occ.launched, occ.discovered, occ.estimated,
             occ.estimate_method);
      if (modes[m] & 8u) /* discovery.comp's COUNT: what the device ran */
        printf("; ran %u invocations (%.2f a group), work-group size %u, highest local id + 1 %u", extra[0],
               (double)extra[0] / occ.launched, extra[1], extra[2]);
      if (modes[m] & 16u) { /* discovery.comp's LIVE: groups whose invocation 0 ran at once */
        printf("; at most %u groups ran at once (%u still counted at the end)", extra[4], extra[3]);
        if (check && occ.discovered > extra[4]) {
          printf("\nFAIL: %u work-groups counted, but at most %u ran at once: the poll let in groups that were not "
                 "co-resident", occ.discovered, extra[4]);
          failed = 1;
        }
      }
      printf("\n");
      fflush(stdout);
      seen[nseen].launched = occ.launched;
      seen[nseen++].discovered = occ.discovered;
      if (smallest == 0 || occ.discovered < smallest)
        smallest = occ.discovered;
    }
  }
  if (check)
    for (int i = 0; i < nseen; i++)
      if (seen[i].discovered == seen[i].launched && seen[i].launched > 2 * smallest) {
        printf("FAIL: all %u launched work-groups joined, more than twice the smallest count (%u): the poll did "
               "not close\n", seen[i].launched, smallest);
        failed = 1;
      }
  atl_context_free(ctx);
  return failed;
}
