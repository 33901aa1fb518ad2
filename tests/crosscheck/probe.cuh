/*
 * What the standalone CUDA programs beside atomlab (standalone_rmw, placement_rmw, placement_probe) share: a
 * CUDA error check and a whole-number argument parser. Still no atomlab code: they stay independent of the
 * tool they check.
 */
#ifndef ATL_CROSSCHECK_PROBE_CUH
#define ATL_CROSSCHECK_PROBE_CUH
#include <cstdio>
#include <cstdlib>

/* A failed CUDA call: its text and the error on stderr, exit 1. */
#define CHECK(call)                                                                                                    \
  do {                                                                                                                 \
    cudaError_t e_ = (call);                                                                                           \
    if (e_ != cudaSuccess) {                                                                                           \
      fprintf(stderr, "error: %s: %s\n", #call, cudaGetErrorString(e_));                                              \
      exit(1);                                                                                                         \
    }                                                                                                                  \
  } while (0)

/* Argument @p s as a whole number from @p min to 2^32-1; anything else is a usage error naming @p name (exit 2). */
static inline unsigned parse_whole(const char *s, const char *name, unsigned long min)
{
  char *end;
  unsigned long v = strtoul(s, &end, 10);
  if (*s == '\0' || *s == '-' || *end != '\0' || v < min || v > 0xffffffffUL) {
    fprintf(stderr, "error: %s: '%s' is not a whole number from %lu to 2^32-1\n", name, s, min);
    exit(2);
  }
  return (unsigned)v;
}
#endif
