/* Reading the atomic machine instructions out of a CUBIN. */
#ifndef ATOMLAB_CUDA_SASS_H
#define ATOMLAB_CUDA_SASS_H

#include <stddef.h>

/** Room for the instruction summary of one kernel. */
#define ATL_INSTRUCTIONS_LEN 256

/**
 * Summarises the atomic-related instructions of SASS text (nvdisasm or
 * cuobjdump -sass output): atomics and reductions (ATOM*, RED*), the warp
 * primitives of compiler aggregation (VOTE, POPC, MATCH, SHFL, REDUX, FLO)
 * and fences (MEMBAR, FENCE), as "MNEMONIC xCOUNT" in order of first
 * appearance, e.g. "REDG.E.ADD.STRONG.GPU x1". "none" if there are none.
 */
void atl__sass_summarise(const char *sass, char *out, size_t len);

/**
 * Disassembles @p cubin with nvdisasm (or cuobjdump) and summarises it.
 * Writes "unknown (...)" with the reason when no disassembler is found.
 * Returns 0 on success.
 */
int atl__sass_atomics(const void *cubin, size_t size, char *out, size_t len);

/**
 * For PTX (what NVIDIA's OpenCL driver keeps as a program binary): assembles
 * it with ptxas for the ".target" it names, then summarises like
 * atl__sass_atomics. Writes "unknown (...)" when ptxas is missing.
 */
int atl__sass_from_ptx(const char *ptx, size_t size, char *out, size_t len);

/**
 * The SASS text of @p cubin (nvdisasm -c, else cuobjdump -sass), malloc'ed;
 * NULL with the reason in @p why when no disassembler is found or it fails.
 */
char *atl__sass_text(const void *cubin, size_t size, char *why, size_t why_len);

/** The same for PTX: assembled by ptxas for the ".target" it names first. */
char *atl__sass_text_ptx(const char *ptx, size_t size, char *why, size_t why_len);

#endif
