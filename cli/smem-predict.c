/*
 * atomlab model predict, presentation only: asks the library for the
 * prediction of every kernel with --runs' rows (atl_smem_predict_file) and
 * prints it with the library's writers (CSV or Markdown).
 */
#include <stdlib.h>

#include "cli.h"

int smem_predict(const struct smem_opts *opts, const struct atl_smem_table *table, const struct atl_ncu_report *report,
                 const char *counters, const char *runs_path, const char *kernel)
{
  static const char *const input_opt[] = {"", "--kernel", "--runs", "--counters"};
  char why[1024];
  struct atl_smem_predict_set set;
  const int err = atl_smem_predict_file(table, &opts->settings, report, runs_path, kernel, &set, why, sizeof why);
  if (err && set.bad_input == ATL_SMEM_INPUT_RUNS)
    die_usage(err == ATL_EIO ? "--runs %s" : "--runs: %s", why); /* EIO's reason starts with the path */
  if (err == ATL_EINVAL && set.bad_input > 0 && set.bad_input <= ATL_SMEM_INPUT_COUNTERS)
    die_usage("%s: %s", input_opt[set.bad_input], why);
  if (err)
    die("model predict: %s", atl_strerror(err));
  struct cli_buffer buf;
  FILE *f = opts->out ? cli_buffer_open(&buf) : stdout;
  if (smem_format(opts) == ATL_FORMAT_CSV)
    atl_smem_predict_write_csv(f, &set);
  else
    atl_smem_predict_write_md(f, &set, opts->table_path, counters, runs_path);
  int status = EXIT_OK;
  if (opts->out && cli_buffer_write(&buf, opts->out, "the prediction table") != 0)
    status = EXIT_MEASURE;
  atl_smem_predict_set_release(&set);
  return status;
}
