/* Strategy rows as a table, CSV and JSON (the run metadata and the row
 * fields are the shared writers'; the strategy adds its own columns). */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"
#include "output_internal.h"

int atl_strategy_set_add(struct atl_strategy_set *set, struct atl_strategy_row *row)
{
  void *rows = atl__grow_rows(set->rows, &set->cap, set->count, sizeof *set->rows, 32);
  if (rows == NULL)
    return ATL_ENOMEM;
  set->rows = rows;
  set->rows[set->count++] = *row;
  row->row.samples_ms = NULL; /* moved */
  return 0;
}

void atl_strategy_set_release(struct atl_strategy_set *set)
{
  for (size_t i = 0; i < set->count; i++)
    free(set->rows[i].row.samples_ms);
  free(set->rows);
  set->rows = NULL;
  set->count = set->cap = 0;
}

int atl_strategy_write_table_header(FILE *f)
{
  return fprintf(f, "%-12s %-9s %-11s %-6s %-4s %9s %10s %6s %10s %-8s %-7s %s\n", "pattern", "op", "strategy",
                 "result", "div", "iters", "median_ms", "noise", "Gop/s", "verified", "margin", "status") < 0;
}

int atl_strategy_write_table_row(FILE *f, const struct atl_strategy_row *sr)
{
  const struct atl_row *r = &sr->row;
  const struct atl_strategy_spec *s = &sr->spec;
  char note[700] = "";
  if (r->reason[0] || r->instructions[0])
    snprintf(note, sizeof note, "%s%s%s%s%s%s", r->reason[0] ? " (" : "", r->reason, r->reason[0] ? ")" : "",
             r->instructions[0] ? " [" : "", r->instructions, r->instructions[0] ? "]" : "");
  if (fprintf(f, "%-12s %-9s %-11s %-6s %-4s ", atl_access_name(s->access), atl_op_name(s->op),
              atl_strategy_name(s->strategy), atl_result_name(s->result), s->divergent ? "yes" : "no") < 0)
    return 1;
  if (r->status != ATL_STATUS_OK)
    return fprintf(f, "%9s %10s %6s %10s %-8s %-7s %s%s\n", "-", "-", "-", "-", "-", "-", atl_status_name(r->status),
                   note) < 0;
  char margin[32] = "-";
  if (sr->margin > 0)
    snprintf(margin, sizeof margin, "%s%.2fx", sr->winner ? "W " : "", sr->margin);
  else if (sr->winner)
    snprintf(margin, sizeof margin, "W");
  return fprintf(f, "%9u %10.3f %5.1f%% %10.3f %-8s %-7s %s%s\n", r->iters, r->time_ms.median, r->time_ms.noise * 100,
                 r->gops, r->verified ? "yes" : "NO", margin, atl_status_name(r->status), note) < 0;
}

static const char csv_header[] =
    "pattern,op,strategy,result,divergent,wg_size,workgroups,threads_per_word,word_spacing,array_words,iters,ops,"
    "status,verified,wrong_words,olds_checked,median_ms,min_ms,max_ms,q1_ms,q3_ms,noise,samples,gops,winner,margin,"
    "spin_bound,backend,instructions,reason";

int atl_strategy_write_csv(FILE *f, const struct atl_strategy_set *set)
{
  fprintf(f, "%s\n", csv_header);
  for (size_t i = 0; i < set->count; i++) {
    const struct atl_strategy_row *sr = &set->rows[i];
    const struct atl_row *r = &sr->row;
    const struct atl_stats *t = &r->time_ms;
    fprintf(f, "%s,%s,%s,%s,%d,%u,%u,%u,%u,%llu,%u,%llu,%s,%d,%llu,%llu,%.6f,%.6f,%.6f,%.6f,%.6f,%.5f,%u,%.5f,%d,%.4f,%u,%s,",
            atl_access_name(sr->spec.access), atl_op_name(sr->spec.op), atl_strategy_name(sr->spec.strategy),
            atl_result_name(sr->spec.result), sr->spec.divergent, r->spec.wg_size, r->spec.workgroups,
            r->spec.contention, r->spec.padding, (unsigned long long)r->array_words, r->iters,
            (unsigned long long)r->ops, atl_status_name(r->status), r->verified, (unsigned long long)r->wrong_words,
            (unsigned long long)sr->olds_checked, t->median, t->min, t->max, t->q1, t->q3, t->noise, t->samples, r->gops,
            sr->winner, sr->margin, sr->spin_bound, set->meta.device.backend);
    atl_csv_field(f, r->instructions);
    fputc(',', f);
    atl_csv_field(f, r->reason);
    fputc('\n', f);
  }
  return ferror(f) ? ATL_EIO : 0;
}

int atl_strategy_write_json(FILE *f, const struct atl_strategy_set *set)
{
  cJSON *root = atl__json_meta(&set->meta);
  cJSON_AddStringToObject(root, "benchmark", "strategy");
  cJSON *rows = cJSON_AddArrayToObject(root, "rows");
  for (size_t i = 0; i < set->count; i++) {
    const struct atl_strategy_row *sr = &set->rows[i];
    cJSON *o = atl__row_json(&sr->row);
    /* the row's "pattern" is rmw's; the strategy's access pattern replaces it */
    cJSON_ReplaceItemInObject(o, "pattern", cJSON_CreateString(atl_access_name(sr->spec.access)));
    cJSON_AddStringToObject(o, "strategy", atl_strategy_name(sr->spec.strategy));
    cJSON_AddBoolToObject(o, "divergent", sr->spec.divergent);
    cJSON_AddNumberToObject(o, "threads_per_word", sr->row.spec.contention);
    cJSON_AddNumberToObject(o, "word_spacing", sr->row.spec.padding);
    cJSON_AddNumberToObject(o, "olds_checked", (double)sr->olds_checked);
    cJSON_AddNumberToObject(o, "spin_bound", sr->spin_bound);
    cJSON_AddBoolToObject(o, "stuck_lock", sr->spec.stuck_lock);
    cJSON_AddBoolToObject(o, "winner", sr->winner);
    cJSON_AddNumberToObject(o, "margin", sr->margin);
    cJSON_AddItemToArray(rows, o);
  }
  /* the winners on their own, for a quick read */
  cJSON *winners = cJSON_AddArrayToObject(root, "winners");
  for (size_t i = 0; i < set->count; i++) {
    const struct atl_strategy_row *sr = &set->rows[i];
    if (!sr->winner)
      continue;
    cJSON *w = cJSON_CreateObject();
    cJSON_AddStringToObject(w, "pattern", atl_access_name(sr->spec.access));
    cJSON_AddStringToObject(w, "op", atl_op_name(sr->spec.op));
    cJSON_AddStringToObject(w, "result", atl_result_name(sr->spec.result));
    cJSON_AddStringToObject(w, "strategy", atl_strategy_name(sr->spec.strategy));
    cJSON_AddNumberToObject(w, "gops", sr->row.gops);
    cJSON_AddNumberToObject(w, "margin", sr->margin);
    cJSON_AddItemToArray(winners, w);
  }
  return atl__json_print(f, root);
}

int atl_strategy_write_set(FILE *f, const void *arg)
{
  const struct atl_strategy_writer *w = arg;
  if (w->fmt == ATL_FORMAT_JSON)
    return atl_strategy_write_json(f, w->set);
  if (w->fmt == ATL_FORMAT_CSV)
    return atl_strategy_write_csv(f, w->set);
  int err = atl_strategy_write_table_header(f) ? ATL_EIO : 0;
  for (size_t i = 0; !err && i < w->set->count; i++)
    err = atl_strategy_write_table_row(f, &w->set->rows[i]) ? ATL_EIO : 0;
  return err;
}

int atl_strategy_write_file(const char *path, enum atl_format fmt, const struct atl_strategy_set *set)
{
  struct atl_strategy_writer w = {fmt, set};
  return atl_file_write(path, atl_strategy_write_set, &w, NULL, 0);
}
