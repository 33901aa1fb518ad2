/* The size cap of every reader that reads a file whole (result files, the
 * model's CSV exports and tables, report's metadata): a file over it is
 * refused before a byte of it is read, with the size, the cap and how to
 * raise it (ATL_MAX_INPUT, atl_max_input()). */
#ifndef ATOMLAB_CORE_INPUT_CAP_H
#define ATOMLAB_CORE_INPUT_CAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/** The cap of a reader whose own default is @p fallback: ATL_MAX_INPUT where it is set and valid, else @p fallback. */
uint64_t atl__input_cap(uint64_t fallback);

/**
 * Whether the open file @p f is within atl__input_cap(@p fallback). Returns 0, or -1 with "N bytes is over the
 * input cap of M bytes (raise it with ATL_MAX_INPUT=BYTES)" in @p why (the caller names the file).
 */
int atl__input_check(FILE *f, uint64_t fallback, char *why, size_t why_len);

/** The reason of atl__input_check() for a file of @p size bytes (or one read that far) over @p cap. */
void atl__input_over(char *why, size_t why_len, uint64_t size, uint64_t cap);

#endif
