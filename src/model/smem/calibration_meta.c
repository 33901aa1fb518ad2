/* What a calibration writes besides its table: where the files go, the JSON beside the table (what the CSV
 * cannot say: device, grid, counts, the SASS each variant ran) and the summary of the run. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomlab/error.h"
#include "atomlab/model.h"
#include "core/data_dir.h"
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
  const struct atl__json_num limits[] = {{"compute_units", m->device.compute_units},
                                         {"clock_mhz", m->device.clock_mhz},
                                         {"max_threads_per_compute_unit", m->device.max_threads_per_cu}};
  atl__json_add_numbers(dev, limits, sizeof limits / sizeof limits[0]);
  cJSON *cal = cJSON_AddObjectToObject(root, "calibration");
  cJSON_AddStringToObject(cal, "table", labels->table);
  cJSON_AddStringToObject(cal, "grid", labels->grid);
  cJSON_AddStringToObject(cal, "units", "SM clock cycles (clock64), first thread's start to last thread's finish");
  cJSON_AddStringToObject(cal, "columns",
                          "result (used: ATOMS.ADD, unused: result unused), n warps, e active lanes per warp, c CAS "
                          "warps, t_cycles median T, t_min/t_max over the reps, s_cycles = T/n");
  cJSON_AddStringToObject(cal, "access", "the e lanes of a warp target one word; each warp its own word");
  const struct atl__json_num counts[] = {{"max_n", cfg->nmax},
                                         {"reps", cfg->reps},
                                         {"delay_cycles", cfg->delay_cycles},
                                         {"points", (double)info->points},
                                         {"launches", (double)info->launches},
                                         {"retried_samples", (double)info->retried},
                                         {"sms_used", info->slots},
                                         {"seconds", info->seconds}};
  atl__json_add_numbers(cal, counts, sizeof counts / sizeof counts[0]);
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

/* mkdir -p for the folder of @p path: the cache's folder is new on a new device. */
static int make_parents(const char *path)
{
  char buf[sizeof ((struct atl_smem_calibration_files *)0)->csv];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/')
      continue;
    *p = '\0';
    struct stat st;
    if (mkdir(buf, 0777) != 0 && (errno != EEXIST || stat(buf, &st) != 0 || !S_ISDIR(st.st_mode))) {
      errno = errno == EEXIST ? ENOTDIR : errno;
      return -1;
    }
    *p = '/';
  }
  return 0;
}

int atl_smem_calibration_files(const char *prefix, const struct atl_device_info *device, int interrupted,
                               struct atl_smem_calibration_files *files, char *why, size_t why_len)
{
  char slug[64], dir[3800];
  if (prefix == NULL) {
    atl_device_slug(device, slug, sizeof slug);
    if (atl_cache_dir(slug, dir, sizeof dir)) {
      snprintf(why, why_len, "no cache folder: set XDG_CACHE_HOME or HOME, or name a prefix with --out");
      return ATL_EINVAL;
    }
    snprintf(files->prefix, sizeof files->prefix, "%s/smem-table", dir);
  } else if (snprintf(files->prefix, sizeof files->prefix, "%s", prefix) >= (int)sizeof files->prefix) {
    snprintf(why, why_len, "the prefix is longer than %zu bytes", sizeof files->prefix - 1);
    return ATL_EINVAL;
  }
  /* An interrupted run writes beside the table: a partial table must never replace a complete one that
   * `atomlab profile` and `model` read, and the CSV has no place to say "partial". */
  const char *mid = interrupted ? ".interrupted" : "";
  snprintf(files->csv, sizeof files->csv, "%s%s.csv", files->prefix, mid);
  snprintf(files->json, sizeof files->json, "%s%s.json", files->prefix, mid);
  if (make_parents(files->csv) != 0) {
    snprintf(why, why_len, "unable to create its folder: %s", strerror(errno));
    return ATL_EIO;
  }
  return 0;
}

int atl_smem_calibration_write_summary(FILE *f, const struct atl_smem_calibration *cfg,
                                       const struct atl_smem_calibration_info *info)
{
  fprintf(f, "%zu points (%u reps each, %zu launches on %u SMs, %zu samples repeated) in %.1f s\n", info->points,
          cfg->reps, info->launches, info->slots, info->retried, info->seconds);
  for (int v = 0; v < ATL_SMEM_VARIANTS; v++) {
    if (!cfg->variants[v])
      continue;
    /* what each variant is built to compile to on sm_80+: a table of other instructions models other atomics */
    const char *want = v == ATL_SMEM_USED ? "ATOMS.ADD" : "ATOMS.POPC.INC";
    const char *name = atl_smem_variant_name((enum atl_smem_variant)v);
    fprintf(f, "  %-6s kernel: %s\n", name, info->instructions[v]);
    if (!strstr(info->instructions[v], want))
      fprintf(f, "  note: the %s kernel's SASS summary does not show %s\n", name, want);
  }
  return ferror(f) ? ATL_EIO : 0;
}

int atl_smem_spread_init(struct atl_smem_table *table, struct atl_smem_spread *spread, unsigned nmax)
{
  int err = atl_smem_table_init(table, nmax, ATL_SMEM_MAX_E);
  if (!err)
    err = atl_smem_table_init(&spread->min, nmax, ATL_SMEM_MAX_E);
  return err ? err : atl_smem_table_init(&spread->max, nmax, ATL_SMEM_MAX_E);
}

void atl_smem_spread_release(struct atl_smem_table *table, struct atl_smem_spread *spread)
{
  atl_smem_table_release(table);
  atl_smem_table_release(&spread->min);
  atl_smem_table_release(&spread->max);
}

int atl_cache_dir(const char *slug, char *buf, size_t len)
{
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  int n;
  if (xdg && *xdg == '/') /* the XDG spec ignores a relative path */
    n = snprintf(buf, len, "%s/atomlab/%s", xdg, slug);
  else if (home && *home)
    n = snprintf(buf, len, "%s/.cache/atomlab/%s", home, slug);
  else
    return ATL_EINVAL;
  return n > 0 && (size_t)n < len ? 0 : ATL_EINVAL;
}

#ifndef ATL_INSTALL_DATA_DIR
#define ATL_INSTALL_DATA_DIR ""
#endif
#ifndef ATL_SOURCE_DATA_DIR
#define ATL_SOURCE_DATA_DIR ""
#endif

int atl_smem_table_find(const char *slug, char *path, size_t len)
{
  char cache[3800] = "";
  atl_cache_dir(slug, cache, sizeof cache);
  const char *env = getenv("ATL_DATA_DIR");
  /* the user's own calibration first; then the shipped ones: an override, the installed copy, the source tree's */
  char source[4096];
  const char *dirs[] = {cache, env ? env : "", ATL_INSTALL_DATA_DIR,
                        atl__source_data_dir(ATL_SOURCE_DATA_DIR, "calibrations", source, sizeof source)};
  for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
    if (*dirs[i] == '\0')
      continue;
    int n = i == 0 ? snprintf(path, len, "%s/smem-table.csv", dirs[i])
                   : snprintf(path, len, "%s/%s/smem-table.csv", dirs[i], slug);
    struct stat st;
    if (n > 0 && (size_t)n < len && stat(path, &st) == 0 && S_ISREG(st.st_mode))
      return 0;
  }
  if (len)
    *path = '\0';
  return ATL_EINVAL;
}
