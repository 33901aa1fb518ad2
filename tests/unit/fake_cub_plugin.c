/*
 * A stand-in for a CUB plugin left from an older build: it reports ABI
 * version 1, so the loader must refuse it and say which side to rebuild
 * (test_cub_plugin --stale). Plain C: the check needs no nvcc.
 */
#include <stddef.h>
#include <stdio.h>

int atl_cub_abi_version(char *info, size_t info_len);

int atl_cub_abi_version(char *info, size_t info_len)
{
  snprintf(info, info_len, "fake CUB plugin of ABI 1");
  return 1;
}
