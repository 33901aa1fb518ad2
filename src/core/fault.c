/*
 * Fault injection, for tests of what atomlab does when a device call fails:
 * ATL_FAULT="alloc:3,launch:5+" makes the 3rd alloc fail, and every launch
 * from the 5th on (a device that disappears mid-run). Calls are counted per
 * kind over the whole process; the ops a backend provides are wrapped, not
 * changed. Kinds: alloc fill write read build launch, and file: the Nth
 * output file written fails as on a full disk (src/core/file.c), which needs
 * no device.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"

enum { F_ALLOC, F_FILL, F_WRITE, F_READ, F_BUILD, F_LAUNCH, F_FILE, F_KINDS };
static const char *const kind_names[F_KINDS] = {"alloc", "fill", "write", "read", "build", "launch", "file"};

static struct {
  const struct atl_backend_ops *real;
  atl_context_t ctx;
  unsigned calls[F_KINDS];
  unsigned fail_at[F_KINDS]; /* 0: never */
  int from_then_on[F_KINDS];
} fault;

/* Counts a call of @p kind; returns an error if this one is to fail. */
static int inject(int kind)
{
  unsigned n = ++fault.calls[kind];
  unsigned at = fault.fail_at[kind];
  if (at == 0 || n < at || (n > at && !fault.from_then_on[kind]))
    return 0;
  return atl__seterr(fault.ctx, ATL_EBACKEND, "injected fault: %s call %u failed (ATL_FAULT)", kind_names[kind], n);
}

static int f_alloc(void *dev, size_t bytes, void **buf)
{
  *buf = NULL;
  int err = inject(F_ALLOC);
  return err ? err : fault.real->alloc(dev, bytes, buf);
}
static int f_fill(void *dev, void *buf, const void *pattern, size_t pattern_size, size_t bytes)
{
  int err = inject(F_FILL);
  return err ? err : fault.real->fill(dev, buf, pattern, pattern_size, bytes);
}
static int f_write(void *dev, void *buf, const void *src, size_t bytes)
{
  int err = inject(F_WRITE);
  return err ? err : fault.real->write(dev, buf, src, bytes);
}
static int f_read(void *dev, void *buf, void *dst, size_t bytes)
{
  int err = inject(F_READ);
  return err ? err : fault.real->read(dev, buf, dst, bytes);
}
static int f_build(void *dev, const struct atl_build *req, void **kernel)
{
  int err = inject(F_BUILD);
  return err ? err : fault.real->build(dev, req, kernel);
}
static int f_launch(void *dev, void *kernel, const struct atl_launch *launch, double *device_ms)
{
  int err = inject(F_LAUNCH);
  return err ? err : fault.real->launch(dev, kernel, launch, device_ms);
}

/* Parses ATL_FAULT; returns 0 (and fills the plan) or ATL_EINVAL with a reason (on @p ctx where there is one). */
static int parse_plan(atl_context_t ctx, const char *text)
{
  char *copy = strdup(text);
  if (copy == NULL)
    return ATL_ENOMEM;
  int err = 0;
  for (char *save = NULL, *item = strtok_r(copy, ",", &save); item && !err; item = strtok_r(NULL, ",", &save)) {
    char name[16];
    unsigned at = 0;
    char plus = 0;
    int kind = -1;
    const char *colon = strchr(item, ':');
    /* %u would take "-1" as 4294967295: the count must start with a digit */
    if (colon && colon[1] >= '0' && colon[1] <= '9' && sscanf(item, "%15[a-z]:%u%c", name, &at, &plus) >= 2 &&
        at > 0 && (plus == 0 || plus == '+'))
      for (int k = 0; k < F_KINDS; k++)
        if (strcmp(name, kind_names[k]) == 0)
          kind = k;
    if (kind < 0) {
      if (ctx == NULL) {
        err = ATL_EINVAL;
        break;
      }
      err = atl__seterr(ctx, ATL_EINVAL,
                        "ATL_FAULT item '%s' is not allowed: KIND:N or KIND:N+ (N from 1) with KIND one of alloc, "
                        "fill, write, read, build, launch, file",
                        item);
      break;
    }
    fault.fail_at[kind] = at;
    fault.from_then_on[kind] = plus == '+';
  }
  free(copy);
  return err;
}

int atl__fault_wrap(atl_context_t ctx, const struct atl_backend_ops *real, struct atl_backend_ops *wrapped)
{
  const char *plan = getenv("ATL_FAULT");
  *wrapped = *real;
  if (plan == NULL || *plan == '\0')
    return 0;
  memset(&fault, 0, sizeof fault);
  int err = parse_plan(ctx, plan);
  if (err)
    return err;
  fault.real = real;
  fault.ctx = ctx;
  wrapped->alloc = f_alloc;
  wrapped->fill = f_fill;
  wrapped->write = f_write;
  wrapped->read = f_read;
  wrapped->build = f_build;
  wrapped->launch = f_launch;
  return 0;
}

int atl__fault_file(void)
{
  /* Kept apart from the device plan, which every context that opens parses again. */
  static int parsed, from_then_on;
  static unsigned calls, fail_at;
  if (!parsed) {
    const char *plan = getenv("ATL_FAULT");
    parsed = 1;
    if (plan && *plan) {
      unsigned saved_at[F_KINDS];
      int saved_from[F_KINDS];
      memcpy(saved_at, fault.fail_at, sizeof saved_at);
      memcpy(saved_from, fault.from_then_on, sizeof saved_from);
      if (parse_plan(NULL, plan) == 0) { /* a bad plan is refused where a device opens */
        fail_at = fault.fail_at[F_FILE];
        from_then_on = fault.from_then_on[F_FILE];
      }
      memcpy(fault.fail_at, saved_at, sizeof saved_at);
      memcpy(fault.from_then_on, saved_from, sizeof saved_from);
    }
  }
  calls++;
  return fail_at != 0 && (calls == fail_at || (calls > fail_at && from_then_on));
}
