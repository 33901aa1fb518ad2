/*
 * atl_histogram (include/atomlab/histogram.h) on the OpenCL device (PoCL in CI): the 256 bins of random and skewed
 * bytes, lengths that are and are not multiples of 16 (1, 15, 16, 4099, 1 MiB + 7), into 32- and 64-bit bins that
 * already hold counts (added to), against the host's count; then each bad argument refused with ATL_EINVAL naming
 * it and the bins left as they were. Exits 77 without an OpenCL device.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"
#include "check.h"
#include "device_open.h"

static int says(atl_context_t ctx, const char *text)
{
  if (strstr(atl_errmsg(ctx), text) != NULL)
    return 1;
  fprintf(stderr, "    message '%s' lacks '%s'\n", atl_errmsg(ctx), text);
  return 0;
}

/* @p n bytes counted into bins of @p bin_bytes that start at 1000 + b, against the host. */
static void counted(atl_context_t ctx, size_t n, unsigned bin_bytes, int skewed)
{
  unsigned char *host = malloc(n);
  uint64_t want[256], got64[256];
  uint32_t got32[256];
  atl_buffer_t in = NULL, out = NULL;
  if (!CHECK(host && atl_buffer_new(ctx, n, &in) == 0 && atl_buffer_new(ctx, 256 * bin_bytes, &out) == 0))
    goto done;
  uint32_t h = 12345u + (uint32_t)n;
  for (size_t i = 0; i < n; i++) {
    h = h * 1664525u + 1013904223u;
    host[i] = skewed && (h >> 28) < 12 ? 0x3f : (unsigned char)(h >> 24);
  }
  for (unsigned b = 0; b < 256; b++)
    want[b] = got64[b] = got32[b] = 1000 + b;
  for (size_t i = 0; i < n; i++)
    want[host[i]]++;
  CHECK(atl_buffer_write(ctx, in, host, n) == 0 &&
        atl_buffer_write(ctx, out, bin_bytes == 8 ? (void *)got64 : (void *)got32, 256 * bin_bytes) == 0);
  const struct atl_histogram_desc d = {.bytes = n, .bin_bytes = bin_bytes};
  double ms = -1;
  const int err = atl_histogram(ctx, &d, out, in, &ms);
  CHECK_EQ(err, 0);
  CHECK(ms >= 0);
  CHECK(atl_buffer_read(ctx, out, bin_bytes == 8 ? (void *)got64 : (void *)got32, 256 * bin_bytes) == 0);
  unsigned wrong = 0;
  for (unsigned b = 0; b < 256; b++)
    wrong += (bin_bytes == 8 ? got64[b] : got32[b]) != want[b];
  printf("%8zu bytes (%s) into %u-bit bins: %u of 256 bins wrong\n", n, skewed ? "skewed" : "uniform",
         bin_bytes * 8, wrong);
  CHECK_EQ(wrong, 0);
done:
  atl_buffer_free(ctx, in), atl_buffer_free(ctx, out);
  free(host);
}

static void refusals(atl_context_t ctx)
{
  atl_buffer_t in = NULL, out = NULL, small = NULL;
  uint32_t bins[256], back[256];
  if (!CHECK(atl_buffer_new(ctx, 64, &in) == 0 && atl_buffer_new(ctx, 1024, &out) == 0 &&
             atl_buffer_new(ctx, 1000, &small) == 0))
    goto done;
  for (unsigned b = 0; b < 256; b++)
    bins[b] = b;
  CHECK(atl_buffer_write(ctx, out, bins, sizeof bins) == 0);
  const struct atl_histogram_desc ok = {.bytes = 64, .bin_bytes = 4};
  struct atl_histogram_desc d = ok;
  CHECK(atl_histogram(NULL, &d, out, in, NULL) == ATL_EINVAL);
  CHECK(atl_histogram(ctx, NULL, out, in, NULL) == ATL_EINVAL && says(ctx, "d is NULL"));
  d.bytes = 0;
  CHECK(atl_histogram(ctx, &d, out, in, NULL) == ATL_EINVAL && says(ctx, "bytes 0 is not allowed"));
  d.bytes = 1ull << 32;
  CHECK(atl_histogram(ctx, &d, out, in, NULL) == ATL_EINVAL && says(ctx, "bytes 4294967296"));
  d = ok, d.bin_bytes = 2;
  CHECK(atl_histogram(ctx, &d, out, in, NULL) == ATL_EINVAL && says(ctx, "bin_bytes 2 is not allowed: 4 or 8"));
  d = ok;
  CHECK(atl_histogram(ctx, &d, out, NULL, NULL) == ATL_EINVAL && says(ctx, "in is NULL"));
  CHECK(atl_histogram(ctx, &d, NULL, in, NULL) == ATL_EINVAL && says(ctx, "out is NULL"));
  d.bytes = 65;
  CHECK(atl_histogram(ctx, &d, out, in, NULL) == ATL_EINVAL && says(ctx, "in 64 bytes"));
  d = ok;
  CHECK(atl_histogram(ctx, &d, small, in, NULL) == ATL_EINVAL && says(ctx, "out 1000 bytes"));
  d.bin_bytes = 8;
  CHECK(atl_histogram(ctx, &d, out, in, NULL) == ATL_EINVAL && says(ctx, "out 1024 bytes"));
  d = ok;
  CHECK(atl_histogram(ctx, &d, out, out, NULL) == ATL_EINVAL && says(ctx, "same buffer as in"));
  CHECK(atl_buffer_read(ctx, out, back, sizeof back) == 0 && memcmp(back, bins, sizeof bins) == 0);
done:
  atl_buffer_free(ctx, in), atl_buffer_free(ctx, out), atl_buffer_free(ctx, small);
}

int main(void)
{
  atl_context_t ctx = NULL;
  const int opened = test_device_open("opencl", &ctx);
  if (opened)
    return opened;
  static const size_t sizes[] = {1, 15, 16, 4099, (1u << 20) + 7};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    for (unsigned w = 4; w <= 8; w += 4)
      counted(ctx, sizes[i], w, i % 2);
  counted(ctx, 1u << 20, 8, 1);
  refusals(ctx);
  atl_context_free(ctx);
  return check_exit("histogram_lib");
}
