/*
 * The app registry: the one list of apps that the command line, its help and
 * the tests iterate. Each entry is defined beside its app's run (count.c,
 * histogram.c, ...); adding an app is one line here.
 */
#include <string.h>

#include "app_internal.h"

static const struct atl_app_info *const apps[] = {
    &atl__app_count,     &atl__app_access_table, &atl__app_double_add, &atl__app_list,
    &atl__app_skiplist,  &atl__app_histogram,    &atl__app_swatomic,   &atl__app_swapps,
};
#define NAPPS (sizeof apps / sizeof apps[0])

const struct atl_app_info *const *atl_apps(size_t *n)
{
  if (n)
    *n = NAPPS;
  return apps;
}

const struct atl_app_info *atl_app_find(const char *name)
{
  for (size_t i = 0; name && i < NAPPS; i++)
    if (strcmp(apps[i]->name, name) == 0)
      return apps[i];
  return NULL;
}
