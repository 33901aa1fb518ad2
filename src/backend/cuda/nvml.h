/* Internal: NVML, loaded at run time like the driver, for the clocks a row records (device.h's atl_clocks). */
#ifndef ATOMLAB_CUDA_NVML_H
#define ATOMLAB_CUDA_NVML_H

#include <stddef.h>

#include "atomlab/device.h"

/**
 * Reads the clocks, temperature, power and clock-event reasons of the GPU at
 * PCI bus id @p pci_bus_id ("0000:65:00.0", as cuDeviceGetPCIBusId gives).
 * 0, or ATL_ENOTSUP with the reason in @p why (no libnvidia-ml, no such GPU).
 */
int atl__nvml_clocks(const char *pci_bus_id, struct atl_clocks *out, char *why, size_t why_len);

/**
 * Counts the NVLink links active on the GPU at @p pci_bus_id (NVML's
 * nvmlDeviceGetNvLinkState over every link it has). 0, or ATL_ENOTSUP with
 * the reason in @p why (no libnvidia-ml, no such GPU, no NVLink query).
 */
int atl__nvml_nvlinks(const char *pci_bus_id, unsigned *active, char *why, size_t why_len);

#endif
