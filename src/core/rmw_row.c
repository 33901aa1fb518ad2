/*
 * An rmw spec as a row's configuration and back: the one place that knows
 * which named values an rmw row carries (the "rmw" kind of row.c lists them
 * in this order), so a resumed sweep can take rows from any file version.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"

int atl_spec_equal(const struct atl_spec *a, const struct atl_spec *b)
{
  return a->op == b->op && a->type == b->type && a->space == b->space && a->pattern == b->pattern &&
         a->result == b->result && a->scope == b->scope && a->order == b->order && a->contention == b->contention &&
         a->padding == b->padding && a->wg_size == b->wg_size && a->workgroups == b->workgroups;
}

void atl_rmw_row_init(struct atl_row *row, const struct atl_spec *s)
{
  atl_row_init(row, "rmw");
  atl_row_config_set(row, "pattern", atl_pattern_name(s->pattern));
  atl_row_config_set(row, "op", atl_op_name(s->op));
  atl_row_config_set(row, "type", atl_type_name(s->type));
  atl_row_config_set(row, "space", atl_space_name(s->space));
  atl_row_config_set(row, "result", atl_result_name(s->result));
  atl_row_config_set(row, "scope", atl_scope_name(s->scope));
  atl_row_config_set(row, "order", atl_order_name(s->order));
  atl_row_config_number(row, "contention", s->contention);
  atl_row_config_number(row, "padding", s->padding);
  atl_row_config_number(row, "wg_size", s->wg_size);
  atl_row_config_number(row, "workgroups", s->workgroups);
}

/* A name value parsed with @p parse; -1 when absent or unknown. */
static int name_value(const struct atl_row *row, const char *name, int (*parse)(const char *))
{
  const char *text = atl_row_config(row, name);
  return text ? parse(text) : -1;
}

/* A count value: a whole number from 1 to UINT32_MAX, or -1. */
static double count_value(const struct atl_row *row, const char *name)
{
  double v = atl_row_number(row, name, -1);
  return v >= 1 && v <= UINT32_MAX && v == (double)(uint32_t)v ? v : -1;
}

int atl_spec_from_row(const struct atl_row *row, struct atl_spec *spec, char *why, size_t why_len)
{
  int op = name_value(row, "op", atl_op_parse), type = name_value(row, "type", atl_type_parse);
  int space = name_value(row, "space", atl_space_parse), pattern = name_value(row, "pattern", atl_pattern_parse);
  int result = name_value(row, "result", atl_result_parse), scope = name_value(row, "scope", atl_scope_parse);
  int order = name_value(row, "order", atl_order_parse);
  double cont = count_value(row, "contention"), pad = count_value(row, "padding"), wg = count_value(row, "wg_size"),
         wgs = count_value(row, "workgroups");
  /* Name the first bad field and what it holds: "a field is wrong" sends the reader hunting. */
  const struct {
    const char *key;
    int bad;
    const char *allowed;
  } fields[] = {
      {"op", op < 0, "an op name such as fetch_add"},
      {"type", type < 0, "u32, i32, u64, f32, f64, f16x2 or bf16x2"},
      {"space", space < 0, "global or local"},
      {"pattern", pattern < 0, "contiguous, cross-warp, branched or random"},
      {"result", result < 0, "unused or used"},
      {"scope", scope < 0, "device, block or system"},
      {"order", order < 0, "relaxed, acquire, release, acq_rel or seq_cst"},
      {"contention", cont < 0, "a whole number >= 1"},
      {"padding", pad < 0, "a whole number >= 1"},
      {"wg_size", wg < 0, "a whole number >= 1"},
      {"workgroups", wgs < 0, "a whole number >= 1"},
  };
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
    if (fields[i].bad) {
      const char *text = atl_row_config(row, fields[i].key);
      snprintf(why, why_len, "the configuration field '%s' is %s%.40s%s: allowed: %s", fields[i].key,
               text ? "'" : "missing", text ? text : "", text ? "'" : "", fields[i].allowed);
      return ATL_EINVAL;
    }
  *spec = (struct atl_spec){.op = (enum atl_op)op, .type = (enum atl_type)type, .space = (enum atl_space)space,
                            .pattern = (enum atl_pattern)pattern, .result = (enum atl_result_use)result,
                            .scope = (enum atl_scope)scope, .order = (enum atl_order)order,
                            .contention = (uint32_t)cont, .padding = (uint32_t)pad, .wg_size = (uint32_t)wg,
                            .workgroups = (uint32_t)wgs};
  return 0;
}
