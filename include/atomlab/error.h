/**
 * @file error.h
 * One error enum for the whole library (libuv style). Functions return 0 on
 * success or a negative ATL_E* code; the detail (OpenCL code, file:line, the
 * offending value) is kept on the context and read with atl_errmsg().
 * Threads: a context is used by one thread at a time (one context per thread); the functions that take
 * no context are reentrant (include/atomlab/context.h). Stable API: exported by libatomlab.so.1.
 */
#ifndef ATOMLAB_ERROR_H
#define ATOMLAB_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

/** X-macro list: name and default message of every error code. */
#define ATL_ERRNO_MAP(X)                                                   \
  X(EINVAL, "invalid argument")                                            \
  X(ENOMEM, "out of host memory")                                          \
  X(ENODEV, "no such device or backend unavailable")                       \
  X(ENOTSUP, "not supported by this device")                               \
  X(EBACKEND, "backend call failed")                                       \
  X(EBUILD, "kernel build failed")                                         \
  X(EIO, "input/output error")                                             \
  X(EVERIFY, "verification failed")                                        \
  X(EDEADLOCK, "bounded wait expired (deadlock)")                          \
  X(ERANGE, "value out of range")                                          \
  X(EINTR, "interrupted")

/** Error codes: 0 is success, every error is negative. */
typedef enum {
  ATL_OK = 0,
  ATL__ERR_BASE = -1000,
#define ATL__ERR_ENUM(name, msg) ATL_##name,
  ATL_ERRNO_MAP(ATL__ERR_ENUM)
#undef ATL__ERR_ENUM
  ATL__ERR_END
} atl_errno_t;

/** Human-readable message for an error code ("unknown error" if not one). */
const char *atl_strerror(int err);

/** Symbolic name of an error code, e.g. "ATL_ENOTSUP". */
const char *atl_err_name(int err);

#ifdef __cplusplus
}
#endif
#endif
