/*
 * The scatter app's output hash (atl__bytes_hash53, src/apps/scatter_host.c): FNV-1a of the bytes up to 1 MiB, and
 * past it FNV-1a of the 1 MiB blocks' FNV-1a values, the same on any count of host threads (ATL_HOST_THREADS); and
 * the share of the host's threads it takes beside the scatter check (atl__host_split).
 */
#include <stdint.h>
#include <stdlib.h>

#include "apps/scatter_host.h"
#include "check.h"

static uint64_t fnv(const unsigned char *p, size_t n, uint64_t h)
{
  for (size_t i = 0; i < n; i++)
    h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

/* The definition written out again, one block after another. */
static double reference(const unsigned char *p, size_t n)
{
  const size_t block = (size_t)1 << 20;
  if (n <= block)
    return (double)(fnv(p, n, 0xcbf29ce484222325ull) >> 11);
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t at = 0; at < n; at += block) {
    const uint64_t v = fnv(p + at, n - at < block ? n - at : block, 0xcbf29ce484222325ull);
    unsigned char le[8];
    for (unsigned k = 0; k < 8; k++)
      le[k] = (unsigned char)(v >> (8 * k));
    h = fnv(le, 8, h);
  }
  return (double)(h >> 11);
}

int main(void)
{
  const size_t block = (size_t)1 << 20;
  const size_t sizes[] = {0, 1, 4096, (size_t)1 << 20, ((size_t)1 << 20) + 1, ((size_t)5 << 20) + 12345};
  unsigned char *p = malloc(sizes[5]);
  if (!CHECK(p != NULL))
    return check_exit("test_bytes_hash");
  for (size_t i = 0; i < sizes[5]; i++)
    p[i] = (unsigned char)(i * 2654435761u >> 13);
  for (unsigned s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    const double want = reference(p, sizes[s]);
    setenv("ATL_HOST_THREADS", "1", 1);
    CHECK(atl__bytes_hash53(p, sizes[s]) == want);
    setenv("ATL_HOST_THREADS", "4", 1);
    CHECK(atl__bytes_hash53(p, sizes[s]) == want);
  }
  /* the check's and the hash's threads beside each other: never more than the host work's threads */
  for (unsigned threads = 1; threads <= 64; threads++)
    for (unsigned s = 0; s < sizeof sizes / sizeof *sizes; s++) {
      unsigned check = 0, hash = 0;
      atl__host_split(threads, sizes[s], &check, &hash);
      const size_t blocks = sizes[s] <= block ? 1 : (sizes[s] + block - 1) / block;
      CHECK(check + hash == threads && check >= 1 && hash <= blocks && (hash == 0) == (threads == 1));
    }
  const double before = atl__bytes_hash53(p, sizes[5]);
  p[((size_t)3 << 20) + 7] ^= 1; /* one bit in the fourth block moves the hash */
  CHECK(atl__bytes_hash53(p, sizes[5]) != before);
  free(p);
  return check_exit("test_bytes_hash");
}
