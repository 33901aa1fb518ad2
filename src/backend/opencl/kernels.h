/* The embedded OpenCL kernel sources (generated from kernels/ at build time). */
#ifndef ATOMLAB_OPENCL_KERNELS_H
#define ATOMLAB_OPENCL_KERNELS_H

/** Source text of kernels/<name>.cl, or NULL. */
const char *atl__opencl_kernel_source(const char *name);

#endif
