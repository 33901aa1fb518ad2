/* Error names and messages, generated from ATL_ERRNO_MAP. */
#include <stdarg.h>
#include <stdio.h>

#include "context.h"

const char *atl_strerror(int err)
{
  switch (err) {
  case ATL_OK:
    return "success";
#define ATL__ERR_MSG(name, msg)                                                                                        \
  case ATL_##name:                                                                                                     \
    return msg;
    ATL_ERRNO_MAP(ATL__ERR_MSG)
#undef ATL__ERR_MSG
  default:
    return "unknown error";
  }
}

const char *atl_err_name(int err)
{
  switch (err) {
  case ATL_OK:
    return "ATL_OK";
#define ATL__ERR_NAME(name, msg)                                                                                       \
  case ATL_##name:                                                                                                     \
    return "ATL_" #name;
    ATL_ERRNO_MAP(ATL__ERR_NAME)
#undef ATL__ERR_NAME
  default:
    return "ATL_EUNKNOWN";
  }
}

int atl__seterr(atl_context_t ctx, int err, const char *fmt, ...)
{
  if (ctx == NULL)
    return err;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ctx->errmsg, sizeof ctx->errmsg, fmt, ap);
  va_end(ap);
  return err;
}

const char *atl_errmsg(atl_context_t ctx) { return ctx ? ctx->errmsg : ""; }
