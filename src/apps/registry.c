/*
 * The app registry: the one list of apps that the command line, its help and
 * the tests iterate. Each entry is defined beside its app's run (count.c,
 * histogram.c, ...); adding an app is one line in ATL_APP_LIST.
 */
#include <stdio.h>
#include <string.h>

#include "app_internal.h"

/* One line per app, in the order of lists and help: X(the suffix of its atl__app_ entry). */
#define ATL_APP_LIST(X)                                                                                           \
  X(count)                                                                                                        \
  X(access_table)                                                                                                 \
  X(double_add)                                                                                                   \
  X(list)                                                                                                         \
  X(skiplist)                                                                                                     \
  X(histogram)                                                                                                    \
  X(swatomic)                                                                                                     \
  X(scatter)                                                                                                      \
  X(scatter_reduce)                                                                                               \
  X(swapps)                                                                                                       \
  X(crossgpu)

#define DECLARE(app) extern const struct atl_app_info atl__app_##app;
ATL_APP_LIST(DECLARE)
#define ENTRY(app) &atl__app_##app,
static const struct atl_app_info *const apps[] = {ATL_APP_LIST(ENTRY)};
#define NAPPS (sizeof apps / sizeof apps[0])

const struct atl_app_info *const *atl_apps(size_t *n)
{
  if (n)
    *n = NAPPS;
  return apps;
}

const char *atl_app_names(const char *sep, char *buf, size_t len)
{
  buf[0] = '\0';
  for (size_t i = 0; i < NAPPS; i++)
    snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? sep : "", apps[i]->name);
  return buf;
}

const struct atl_app_info *atl_app_find(const char *name)
{
  for (size_t i = 0; name && i < NAPPS; i++)
    if (strcmp(apps[i]->name, name) == 0)
      return apps[i];
  return NULL;
}
