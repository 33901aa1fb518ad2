/* Names of the experiment axes and the sizes derived from a spec. */
#include <string.h>

#include "atomlab.h"

static const char *const op_names[] = {
#define ATL__OP_NAME(e, name, help) name,
    ATL_OP_MAP(ATL__OP_NAME)
#undef ATL__OP_NAME
};
static const char *const op_helps[] = {
#define ATL__OP_HELP(e, name, help) help,
    ATL_OP_MAP(ATL__OP_HELP)
#undef ATL__OP_HELP
};
static const char *const type_names[] = {"u32", "i32", "u64", "f32", "f64", "f16x2", "bf16x2"};
static const size_t type_sizes[] = {4, 4, 8, 4, 8, 4, 4};
static const char *const scope_names[] = {"device", "block", "system"};
static const char *const order_names[] = {"relaxed", "acquire", "release", "acq_rel", "seq_cst"};
static const char *const space_names[] = {"global", "local"};
static const char *const pattern_names[] = {"contiguous", "cross-warp", "branched", "random"};
static const char *const result_names[] = {"unused", "used"};

#define NAME_OF(table, v) ((unsigned)(v) < sizeof table / sizeof table[0] ? table[v] : "?")

const char *atl_op_name(enum atl_op op) { return NAME_OF(op_names, op); }
const char *atl_op_help(enum atl_op op) { return NAME_OF(op_helps, op); }
const char *atl_type_name(enum atl_type t) { return NAME_OF(type_names, t); }
const char *atl_space_name(enum atl_space s) { return NAME_OF(space_names, s); }
const char *atl_pattern_name(enum atl_pattern p) { return NAME_OF(pattern_names, p); }
const char *atl_result_name(enum atl_result_use r) { return NAME_OF(result_names, r); }
const char *atl_scope_name(enum atl_scope s) { return NAME_OF(scope_names, s); }
const char *atl_order_name(enum atl_order o) { return NAME_OF(order_names, o); }
size_t atl_type_size(enum atl_type t) { return (unsigned)t < ATL_TYPE_COUNT ? type_sizes[t] : 0; }

static int lookup(const char *const *table, size_t n, const char *s)
{
  for (size_t i = 0; i < n; i++)
    if (strcmp(table[i], s) == 0)
      return (int)i;
  return -1;
}

#define PARSE(table, s) lookup(table, sizeof table / sizeof table[0], s)
int atl_op_parse(const char *s) { return PARSE(op_names, s); }
int atl_type_parse(const char *s) { return PARSE(type_names, s); }
int atl_space_parse(const char *s) { return PARSE(space_names, s); }
int atl_pattern_parse(const char *s) { return PARSE(pattern_names, s); }
int atl_result_parse(const char *s) { return PARSE(result_names, s); }
int atl_scope_parse(const char *s) { return PARSE(scope_names, s); }
int atl_order_parse(const char *s) { return PARSE(order_names, s); }

int atl_type_is_float(enum atl_type t)
{
  return t == ATL_TYPE_F32 || t == ATL_TYPE_F64 || t == ATL_TYPE_F16X2 || t == ATL_TYPE_BF16X2;
}

int atl_op_type_defined(enum atl_op op, enum atl_type type)
{
  /* Floats are measured with add only: bitwise ops have no float meaning, and
   * the exact verification of sums needs integer arithmetic elsewhere. */
  if (atl_type_is_float(type))
    return op == ATL_OP_FETCH_ADD;
  return 1;
}

uint64_t atl_spec_domain_threads(const struct atl_spec *s)
{
  return s->space == ATL_SPACE_LOCAL ? s->wg_size : (uint64_t)s->wg_size * s->workgroups;
}

uint64_t atl_spec_domains(const struct atl_spec *s) { return s->space == ATL_SPACE_LOCAL ? s->workgroups : 1; }

uint64_t atl_spec_active_threads(const struct atl_spec *s)
{
  uint64_t all = (uint64_t)s->wg_size * s->workgroups;
  /* Branched: the host bit vector enables odd thread ids only. */
  return s->pattern == ATL_PATTERN_BRANCHED ? all / 2 : all;
}

uint64_t atl_spec_slots(const struct atl_spec *s)
{
  uint64_t threads = atl_spec_domain_threads(s);
  if (s->contention == 0)
    return 0;
  /* Every pattern spreads the threads over the same number of words, so a
   * contention value means the same average sharing whatever the pattern. */
  return (threads + s->contention - 1) / s->contention;
}

uint64_t atl_spec_domain_words(const struct atl_spec *s)
{
  uint64_t threads = atl_spec_domain_threads(s);
  if (s->contention == 0 || s->padding == 0 || threads == 0)
    return 0;
  uint64_t words = atl_spec_slots(s) * s->padding;
  return words > UINT32_MAX ? 0 : words;
}
