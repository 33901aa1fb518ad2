/* What every command shares: diagnostics and exit codes, opening the device.
 * Apart from the command table (atomlab.c), so the commands it calls never
 * call back into it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char *cli_argv0 = "atomlab";

/* One line, whatever the message quotes from a file (a device name, a field's value, a path): its control
 * characters are shown as '?', so a result file cannot move the cursor or rewrite the terminal's lines. */
static void vreport(const char *fmt, va_list ap)
{
  char line[8192];
  vsnprintf(line, sizeof line, fmt, ap);
  fputs("error: ", stderr);
  atl_esc_terminal(stderr, line);
  fputc('\n', stderr);
}

void die_usage(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vreport(fmt, ap);
  va_end(ap);
  exit(EXIT_USAGE);
}

void die(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vreport(fmt, ap);
  va_end(ap);
  exit(EXIT_MEASURE);
}

/* The backends atomlab knows (atl_backend_name), joined by @p sep: "cuda, opencl". A static buffer. */
static const char *cli_backend_list(const char *sep)
{
  static char list[256];
  return atl_backend_list(sep, list, sizeof list);
}

void cli_check_backend(const char *opt, const char *name)
{
  if (!atl_backend_known(name))
    die_usage("%s '%s' is not known: allowed: %s", opt, name, cli_backend_list(", "));
}

/* Help texts are constants; the backend names come from the library's table,
 * so a text marks their place and this fills it in. */
void cli_print_usage(const char *usage)
{
  static const char mark[] = "@BACKENDS@";
  for (const char *p = usage, *m; *p; p = m + sizeof mark - 1) {
    m = strstr(p, mark);
    if (m == NULL) {
      fputs(p, stdout);
      return;
    }
    fwrite(p, 1, (size_t)(m - p), stdout);
    fputs(cli_backend_list(" or "), stdout);
  }
}

atl_context_t cli_open_device(const char *device, const char *backend)
{
  atl_context_t ctx = NULL;
  if (atl_context_new(&ctx) != 0)
    die("unable to create a context: out of memory");
  if (backend)
    cli_check_backend("--backend", backend);
  const int err = atl_device_open(ctx, device, backend);
  if (err) { /* the message outlives the context: it is the context's */
    const int usage = err == ATL_EINVAL || (err == ATL_ENODEV && device); /* a bad ATL_FAULT plan, or --device */
    char msg[2048];
    snprintf(msg, sizeof msg, "%s", usage || atl_errmsg(ctx)[0] ? atl_errmsg(ctx) : atl_strerror(err));
    atl_context_free(ctx);
    if (err == ATL_EINVAL)
      die_usage("%s", msg);
    if (usage)
      die_usage("--device: %s", msg);
    die("unable to open a device: %s", msg);
  }
  return ctx;
}

size_t cli_open_devices(const char *device, const char *backend, atl_context_t *ctxs, size_t max)
{
  if (!atl_device_list_is_multi(device)) {
    ctxs[0] = cli_open_device(device, backend);
    return 1;
  }
  char ids[ATL_MAX_DEVICES][32];
  size_t n = 0;
  atl_context_t probe = NULL;
  if (backend)
    cli_check_backend("--backend", backend);
  if (atl_context_new(&probe) != 0)
    die("unable to create a context: out of memory");
  int err = atl_device_list_parse(probe, device, backend, ids, max < ATL_MAX_DEVICES ? max : ATL_MAX_DEVICES, &n);
  if (err) {
    char msg[2048];
    snprintf(msg, sizeof msg, "%s", atl_errmsg(probe)[0] ? atl_errmsg(probe) : atl_strerror(err));
    atl_context_free(probe);
    if (err == ATL_EINVAL)
      die_usage("--device %s", msg);
    if (err == ATL_ENODEV)
      die_usage("--device: %s", msg);
    die("unable to list the devices: %s", msg);
  }
  atl_context_free(probe);
  /* One context per device: each is driven by one thread (atl_sweep_devices). */
  for (size_t i = 0; i < n; i++)
    ctxs[i] = cli_open_device(ids[i], backend);
  return n;
}

