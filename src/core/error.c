/* Error names and messages, generated from ATL_ERRNO_MAP. */
#include <stdarg.h>
#include <stdio.h>

#include "context.h"

/* Every code's name and message, ATL_OK first: one table that both lookups read. */
static const struct {
  int code;
  const char *name, *msg;
} errors[] = {
    {ATL_OK, "ATL_OK", "success"},
#define ATL__ERR_ROW(name, msg) {ATL_##name, "ATL_" #name, msg},
    ATL_ERRNO_MAP(ATL__ERR_ROW)
#undef ATL__ERR_ROW
};

/* The index of @p err in errors[], or -1. */
static int error_index(int err)
{
  for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
    if (errors[i].code == err)
      return (int)i;
  return -1;
}

const char *atl_strerror(int err)
{
  const int i = error_index(err);
  return i < 0 ? "unknown error" : errors[i].msg;
}

const char *atl_err_name(int err)
{
  const int i = error_index(err);
  return i < 0 ? "ATL_EUNKNOWN" : errors[i].name;
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
