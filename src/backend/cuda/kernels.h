/* The embedded CUDA kernel sources (generated from kernels/ at build time). */
#ifndef ATOMLAB_CUDA_KERNELS_H
#define ATOMLAB_CUDA_KERNELS_H

/** Source text of kernels/<name>.cu, or NULL. */
const char *atl__cuda_kernel_source(const char *name);

#endif
