/* An app on several devices at once (atomlab app NAME --device all): a
 * thread per device, each with its own context and configuration, and the
 * rows joined in device order as one device's would be. */
#include <pthread.h>
#include <string.h>

#include "atomlab.h"

/* One device's run: its context, configuration and rows. */
struct part {
  atl_context_t ctx;
  atl_app_config_t cfg;
  struct atl_result_set set;
  int err;
};

static void *run_part(void *arg)
{
  struct part *p = arg;
  p->err = atl_app_config_run(p->cfg, p->ctx, &p->set);
  return NULL;
}

int atl_app_run_devices(atl_app_config_t *cfgs, atl_context_t *ctxs, size_t n, struct atl_result_set *set, int *errs)
{
  struct part parts[ATL_MAX_DEVICES];
  pthread_t threads[ATL_MAX_DEVICES];
  int started[ATL_MAX_DEVICES] = {0}, err = 0;
  if (n > ATL_MAX_DEVICES)
    n = ATL_MAX_DEVICES;
  for (size_t d = 0; d < n; d++) {
    memset(&parts[d], 0, sizeof parts[d]);
    parts[d].ctx = ctxs[d];
    parts[d].cfg = cfgs[d];
    snprintf(parts[d].set.kind, sizeof parts[d].set.kind, "%s", set->kind);
  }
  for (size_t d = 0; d < n; d++)
    started[d] = pthread_create(&threads[d], NULL, run_part, &parts[d]) == 0;
  for (size_t d = 0; d < n; d++) {
    if (started[d])
      pthread_join(threads[d], NULL);
    else /* no thread to be had: this one runs here, after the others */
      run_part(&parts[d]);
    errs[d] = parts[d].err;
    const char *id = atl_device_current(ctxs[d])->id;
    for (size_t i = 0; i < parts[d].set.count; i++) {
      atl_row_config_set(&parts[d].set.rows[i], "device", id);
      if (err == 0 && atl_result_set_add(set, &parts[d].set.rows[i]) != 0)
        err = ATL_ENOMEM;
    }
    atl_result_set_release(&parts[d].set);
  }
  return err;
}
