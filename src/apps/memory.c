/*
 * What a run needs against what the machine has: each app's registry entry
 * says how many bytes of host and device memory a configuration allocates
 * (its bytes_needed), and a run past the memory available is refused before
 * anything is allocated, naming the parameter it grows with, instead of
 * being killed by the kernel's OOM killer minutes later. On a CPU device the
 * device's buffers are host memory too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app_internal.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

uint64_t atl__host_available(void)
{
  /* A test hook: ATL_ASSUME_HOST_MEMORY=BYTES stands for the memory available, so the refusal of a run whose
   * largest size still fits the test machine is tested there too. */
  const char *assume = getenv("ATL_ASSUME_HOST_MEMORY");
  uint64_t bytes = 0;
  if (assume && *assume && atl__app_whole(assume, &bytes) == 0 && bytes > 0)
    return bytes;
  /* MemAvailable: free memory plus what the kernel can reclaim (caches), the figure a new allocation gets */
  FILE *f = fopen("/proc/meminfo", "r");
  char line[256];
  unsigned long long kib = 0;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
      break;
  if (f)
    fclose(f);
  if (kib)
    return (uint64_t)kib * 1024;
  const long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

int atl__app_memory_check(const struct atl_app_info *app, const struct atl_device_info *dev, const void *params,
                          char *why, size_t len)
{
  struct atl_app_bytes need = {0, 0, NULL};
  if (app->bytes_needed == NULL)
    return 0;
  app->bytes_needed(dev, params, &need);
  const char *param = need.param ? need.param : "the configuration";
  const uint64_t host = atl__host_available();
  const int cpu = dev->type == ATL_DEVICE_CPU;
  const uint64_t on_host = need.host + (cpu ? need.device : 0);
  if (host && on_host > host)
    return atl__app_why(why, len, "%s: the run needs %.1f GiB of host memory, this machine has %.1f GiB available",
                        param, on_host / GIB, host / GIB);
  if (!cpu && dev->global_mem && need.device > dev->global_mem)
    return atl__app_why(why, len, "%s: the run needs %.1f GiB of device memory, %s has %.1f GiB", param,
                        need.device / GIB, dev->name, dev->global_mem / GIB);
  return 0;
}
