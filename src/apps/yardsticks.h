/* Internal: the vendor-copy and read-ceiling yardsticks of the data apps
 * (scatter, bincount, histogram). */
#ifndef ATOMLAB_APPS_YARDSTICKS_H
#define ATOMLAB_APPS_YARDSTICKS_H

#include "app_internal.h"

/* Bandwidths (bytes moved per second, in GB/s) of the run's two yardsticks; 0
 * where one is unsupported or did not verify. */
struct atl__yardsticks {
  double memcpy_gbps; /* the vendor's device-to-device copy, read + write
                         counted */
  double read_gbps;   /* the read kernel, bytes read */
};

/* What the yardsticks run over: @p bytes of @p src on the device, @p host its
 * bytes on the host (to check the copy and the xor), @p scratch at least @p
 * bytes to copy into. Rows are named PREFIX/memcpy-ceiling and
 * PREFIX/read-ceiling of app @p app. */
struct atl__yardstick_call {
  atl_context_t ctx;
  struct atl__app_buffers *bufs;
  const char *app, *prefix;
  void *src, *scratch;
  const void *host;
  size_t bytes;
  uint32_t wg_size;
  const struct atl_app_timing *tm;
};

/* Both yardsticks' rows into @p out, their bandwidths into @p y. */
int atl__app_yardsticks(const struct atl__yardstick_call *c, struct atl__yardsticks *y, struct atl_result_set *out);

/* A variant row's ratios: @p bytes (the fewest the job moves: reads and writes)
 * at each yardstick's bandwidth, over the row's median time (ratio_to_memcpy,
 * ratio_to_read), and bytes_moved itself. */
void atl__app_yardstick_ratios(struct atl_row *row, const struct atl__yardsticks *y, double bytes);

#endif
