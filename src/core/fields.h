/* One table of field checks per public struct (atl_spec, atl_strategy_spec, atl_scatter_desc): each field's
 * place, the values it allows and how a message names them, so a new field is one row, not another if. */
#ifndef ATOMLAB_CORE_FIELDS_H
#define ATOMLAB_CORE_FIELDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* A field of 4 or 8 bytes (enums, ints, unsigned, uint32_t, uint64_t): it allows [min, max] and, where mask is
 * not 0, only the values v whose bit 1 << v is set in it. A 4-byte field reads as unsigned, so a negative enum or
 * flag is a large value, refused, and printed signed. */
struct atl__field {
  const char *name;
  size_t offset, size;
  uint64_t min, max, mask;
  const char *allowed;
};

#define ATL__FIELD(type, member, lo, hi, text)                                                                   \
  {#member, offsetof(type, member), sizeof(((type *)0)->member), (lo), (hi), 0, (text)}

/* The first field of @p obj outside what it allows: "NAME VALUE is not allowed: ALLOWED" in @p why and -1, else
 * 0. */
static inline int atl__fields_check(const void *obj, const struct atl__field *f, size_t n, char *why, size_t len)
{
  for (size_t i = 0; i < n; i++) {
    uint64_t v = 0;
    long long shown;
    if (f[i].size == 8) {
      memcpy(&v, (const char *)obj + f[i].offset, 8);
      shown = (long long)v;
    } else {
      uint32_t w;
      memcpy(&w, (const char *)obj + f[i].offset, 4);
      v = w, shown = (int32_t)w;
    }
    if (v < f[i].min || v > f[i].max || (f[i].mask && !(f[i].mask >> v & 1))) {
      snprintf(why, len, "%s %lld is not allowed: %s", f[i].name, shown, f[i].allowed);
      return -1;
    }
  }
  return 0;
}

#endif
