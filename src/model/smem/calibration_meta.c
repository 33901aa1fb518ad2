/* The JSON beside a calibration table: what the CSV cannot say (device, grid, counts, the SASS each variant ran). */
#include <cjson/cJSON.h>
#include <stdlib.h>

#include "atomlab/error.h"
#include "atomlab/model.h"
#include "core/output_internal.h"

int atl_smem_calibration_write_json(FILE *f, const struct atl_smem_calibration *cfg,
                                    const struct atl_smem_calibration_info *info,
                                    const struct atl_smem_calibration_labels *labels)
{
  const struct atl_run_meta *m = labels->meta;
  cJSON *root = atl__json_provenance(m);
  if (root == NULL)
    return ATL_ENOMEM;
  cJSON *dev = cJSON_AddObjectToObject(root, "device");
  cJSON_AddStringToObject(dev, "id", m->device.id);
  cJSON_AddStringToObject(dev, "name", m->device.name);
  cJSON_AddStringToObject(dev, "backend", m->device.backend);
  cJSON_AddStringToObject(dev, "platform", m->device.platform);
  cJSON_AddStringToObject(dev, "driver", m->device.driver);
  cJSON_AddStringToObject(dev, "version", m->device.version);
  cJSON_AddNumberToObject(dev, "compute_units", m->device.compute_units);
  cJSON_AddNumberToObject(dev, "clock_mhz", m->device.clock_mhz);
  cJSON_AddNumberToObject(dev, "max_threads_per_compute_unit", m->device.max_threads_per_cu);
  cJSON *cal = cJSON_AddObjectToObject(root, "calibration");
  cJSON_AddStringToObject(cal, "table", labels->table);
  cJSON_AddStringToObject(cal, "grid", labels->grid);
  cJSON_AddStringToObject(cal, "units", "SM clock cycles (clock64), first thread's start to last thread's finish");
  cJSON_AddStringToObject(cal, "columns",
                          "result (used: ATOMS.ADD, unused: result unused), n warps, e active lanes per warp, c CAS "
                          "warps, t_cycles median T, t_min/t_max over the reps, s_cycles = T/n");
  cJSON_AddStringToObject(cal, "access", "the e lanes of a warp target one word; each warp its own word");
  cJSON_AddNumberToObject(cal, "max_n", cfg->nmax);
  cJSON_AddNumberToObject(cal, "reps", cfg->reps);
  cJSON_AddNumberToObject(cal, "delay_cycles", cfg->delay_cycles);
  cJSON_AddNumberToObject(cal, "points", (double)info->points);
  cJSON_AddNumberToObject(cal, "launches", (double)info->launches);
  cJSON_AddNumberToObject(cal, "retried_samples", (double)info->retried);
  cJSON_AddNumberToObject(cal, "sms_used", info->slots);
  cJSON_AddNumberToObject(cal, "seconds", info->seconds);
  cJSON_AddBoolToObject(cal, "verified", 1); /* atl_smem_calibrate returns no table that did not verify */
  cJSON_AddBoolToObject(cal, "complete", labels->complete);
  cJSON *ins = cJSON_AddObjectToObject(cal, "instructions");
  for (int v = 0; v < ATL_SMEM_VARIANTS; v++)
    if (cfg->variants[v])
      cJSON_AddStringToObject(ins, atl_smem_variant_name((enum atl_smem_variant)v), info->instructions[v]);
  char *text = cJSON_Print(root);
  cJSON_Delete(root);
  if (text == NULL)
    return ATL_ENOMEM;
  fputs(text, f); /* as before: the text without a final newline */
  free(text);
  return ferror(f) ? ATL_EIO : 0;
}
