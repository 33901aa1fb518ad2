/* The scatter app's host-side helpers that need none of its state: 16-bit float conversions and the dumps a peer
 * loads. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app_internal.h"
#include "scatter_io.h"

/* The host's 16-bit floats: the same rounding as atomlab/scatter_device.h's (nearest, ties to even). */
uint16_t atl__to_bf16(float f)
{
  uint32_t x;
  memcpy(&x, &f, 4);
  return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16); /* the inputs and sums here are never NaN */
}

uint16_t atl__to_f16(float f)
{
  uint32_t x, o;
  memcpy(&x, &f, 4);
  const uint32_t sign = x & 0x80000000u;
  x ^= sign;
  if (x >= (127u + 16u) << 23)
    o = x > 0x7f800000u ? 0x7e00u : 0x7c00u;
  else if (x < 113u << 23) {
    const uint32_t magic = ((127u - 15u) + (23u - 10u) + 1u) << 23;
    float a, m;
    memcpy(&a, &x, 4), memcpy(&m, &magic, 4);
    a += m;
    memcpy(&o, &a, 4);
    o -= magic;
  } else {
    const uint32_t odd = (x >> 13) & 1u;
    x += ((15u - 127u) << 23) + 0xfffu;
    x += odd;
    o = x >> 13;
  }
  return (uint16_t)(o | (sign >> 16));
}

float atl__from_16(int bf16, uint16_t h)
{
  if (bf16) {
    const uint32_t x = (uint32_t)h << 16;
    float f;
    memcpy(&f, &x, 4);
    return f;
  }
  const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  const double v = e == 0 ? m * 0x1p-24 : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
  return (float)(h & 0x8000 ? -v : v);
}

/* Raw little-endian arrays for a peer (scripts/gpu/torch_scatter.py) to load: FOLDER/NAME-DIST.bin. Every
 * write is checked (a full disk would leave a truncated array that the peer reads as data): 0, or ATL_EIO as
 * @p ctx's error. */
int atl__scatter_dump(atl_context_t ctx, const char *folder, const char *name, const char *dist, const void *data,
                      size_t bytes)
{
  char path[1200];
  snprintf(path, sizeof path, "%s/%s-%s.bin", folder, name, dist);
  FILE *f = fopen(path, "wb");
  int ok = f != NULL && fwrite(data, 1, bytes, f) == bytes && fflush(f) == 0;
  int saved = errno;
  if (f != NULL && fclose(f) != 0 && ok) {
    ok = 0;
    saved = errno;
  }
  return ok ? 0 : atl__seterr(ctx, ATL_EIO, "dump: writing '%s': %s", path, strerror(saved ? saved : EIO));
}
