/* Reading what atomlab needs out of SPIR-V words, without spirv-dis at run time. */
#ifndef ATOMLAB_VULKAN_SPIRV_H
#define ATOMLAB_VULKAN_SPIRV_H

#include <stddef.h>
#include <stdint.h>

/**
 * The atomic instructions of a SPIR-V module, each with the storage class it
 * touches and its memory scope, counted: "OpAtomicIAdd.buffer.Device x1,
 * OpAtomicCompareExchange.shared.Workgroup x2". "" if there are none.
 * Returns 0, or -1 where the words are not a well-formed module (@p buf then
 * says why).
 */
int atl__spirv_atomics(const uint32_t *words, size_t nwords, char *buf, size_t len);

/** One more than the largest descriptor Binding decorated in the module (0 if none); -1 if malformed. */
int atl__spirv_bindings(const uint32_t *words, size_t nwords);

#endif
