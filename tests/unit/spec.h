/* The spec the unit tests build: every field of struct atl_spec they vary, the rest zero. */
#ifndef ATL_TESTS_UNIT_SPEC_H
#define ATL_TESTS_UNIT_SPEC_H

#include <string.h>

#include "atomlab.h"

static inline struct atl_spec make_spec(enum atl_op op, enum atl_type t, enum atl_space sp, enum atl_pattern pat,
                                        enum atl_result_use r, uint32_t c, uint32_t p, uint32_t wg, uint32_t groups)
{
  struct atl_spec s;
  memset(&s, 0, sizeof s);
  s.op = op;
  s.type = t;
  s.space = sp;
  s.pattern = pat;
  s.result = r;
  s.contention = c;
  s.padding = p;
  s.wg_size = wg;
  s.workgroups = groups;
  return s;
}

#endif
