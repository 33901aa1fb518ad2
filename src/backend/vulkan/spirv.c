/*
 * A small SPIR-V reader: the atomic instructions of a module and its
 * descriptor bindings. The layout is the SPIR-V specification's (section 2.3,
 * "Physical Layout"): a five-word header, then instructions whose first word
 * holds the word count (high 16 bits) and the opcode (low 16 bits).
 */
#include "spirv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  SPV_MAGIC = 0x07230203,
  OP_TYPE_POINTER = 32,
  OP_CONSTANT = 43,
  OP_VARIABLE = 59,
  OP_ACCESS_CHAIN = 65,
  OP_IN_BOUNDS_ACCESS_CHAIN = 66,
  OP_DECORATE = 71,
  DECORATION_BINDING = 33,
};

/* The atomic opcodes (SPIR-V 1.6 and SPV_EXT_shader_atomic_float_add / _min_max). */
static const char *atomic_name(uint32_t op)
{
  switch (op) {
  case 227: return "OpAtomicLoad";
  case 228: return "OpAtomicStore";
  case 229: return "OpAtomicExchange";
  case 230: return "OpAtomicCompareExchange";
  case 231: return "OpAtomicCompareExchangeWeak";
  case 232: return "OpAtomicIIncrement";
  case 233: return "OpAtomicIDecrement";
  case 234: return "OpAtomicIAdd";
  case 235: return "OpAtomicISub";
  case 236: return "OpAtomicSMin";
  case 237: return "OpAtomicUMin";
  case 238: return "OpAtomicSMax";
  case 239: return "OpAtomicUMax";
  case 240: return "OpAtomicAnd";
  case 241: return "OpAtomicOr";
  case 242: return "OpAtomicXor";
  case 318: return "OpAtomicFlagTestAndSet";
  case 319: return "OpAtomicFlagClear";
  case 5614: return "OpAtomicFMinEXT";
  case 5615: return "OpAtomicFMaxEXT";
  case 6035: return "OpAtomicFAddEXT";
  default: return NULL;
  }
}

static const char *scope_name(uint64_t s)
{
  static const char *const names[] = {"CrossDevice", "Device", "Workgroup", "Subgroup", "Invocation", "QueueFamily"};
  return s < sizeof names / sizeof names[0] ? names[s] : "?";
}

/* Storage classes, as the row names the memory: 2 Uniform (a GLSL buffer block before SPIR-V 1.3's
 * StorageBuffer), 12 StorageBuffer, 4 Workgroup (shared), 5 CrossWorkgroup, 6 Private, 7 Function. */
static const char *storage_name(uint32_t sc)
{
  switch (sc) {
  case 2:
  case 12: return "buffer";
  case 4: return "shared";
  case 5: return "global";
  case 6: return "private";
  case 7: return "function";
  default: return "?";
  }
}

/* Walks the instructions; calls @p fn on each; -1 at the first one that does not fit. */
static int walk(const uint32_t *w, size_t n, int (*fn)(const uint32_t *ins, uint32_t count, void *arg), void *arg)
{
  if (w == NULL || n < 5 || w[0] != SPV_MAGIC)
    return -1;
  for (size_t i = 5; i < n;) {
    uint32_t count = w[i] >> 16;
    if (count == 0 || count > n - i)
      return -1;
    int rc = fn(w + i, count, arg);
    if (rc)
      return rc;
    i += count;
  }
  return 0;
}

/* Per-id facts: a constant's value, a pointer type's storage class, a pointer's type. */
struct ids {
  uint32_t bound;
  uint64_t *constant;
  uint8_t *is_constant;
  uint32_t *storage; /* of OpTypePointer ids, +1 (0: not a pointer type) */
  uint32_t *type;    /* result type of pointer-producing instructions */
};

struct atomic_count {
  char name[96];
  unsigned count;
};

struct scan {
  struct ids ids;
  struct atomic_count found[32];
  size_t nfound;
  int max_binding;
};

static int collect(const uint32_t *ins, uint32_t count, void *arg)
{
  struct scan *s = arg;
  struct ids *ids = &s->ids;
  const uint32_t op = ins[0] & 0xffffu;
  if (op == OP_TYPE_POINTER && count >= 4 && ins[1] < ids->bound)
    ids->storage[ins[1]] = ins[2] + 1;
  else if (op == OP_CONSTANT && count >= 4 && ins[2] < ids->bound) {
    ids->constant[ins[2]] = ins[3] | (count >= 5 ? (uint64_t)ins[4] << 32 : 0);
    ids->is_constant[ins[2]] = 1;
  } else if ((op == OP_VARIABLE || op == OP_ACCESS_CHAIN || op == OP_IN_BOUNDS_ACCESS_CHAIN) && count >= 4 &&
             ins[2] < ids->bound)
    ids->type[ins[2]] = ins[1];
  return 0;
}

static int count_atomics(const uint32_t *ins, uint32_t count, void *arg)
{
  struct scan *s = arg;
  const uint32_t op = ins[0] & 0xffffu;
  if (op == OP_DECORATE && count >= 4 && ins[2] == DECORATION_BINDING && (int)ins[3] + 1 > s->max_binding)
    s->max_binding = (int)ins[3] + 1;
  const char *name = atomic_name(op);
  if (name == NULL)
    return 0;
  /* Every atomic but the flag ones: <type> <result> <pointer> <scope> ...; OpAtomicStore and
   * OpAtomicFlagClear have no result: <pointer> <scope> ... */
  const int no_result = op == 228 || op == 319;
  const uint32_t at = no_result ? 1 : 3;
  if (count < at + 2)
    return -1;
  const uint32_t ptr = ins[at], scope = ins[at + 1];
  const struct ids *ids = &s->ids;
  const char *space = "?", *scope_text = "?";
  if (ptr < ids->bound && ids->type[ptr] < ids->bound && ids->storage[ids->type[ptr]])
    space = storage_name(ids->storage[ids->type[ptr]] - 1);
  if (scope < ids->bound && ids->is_constant[scope])
    scope_text = scope_name(ids->constant[scope]);
  char full[96];
  snprintf(full, sizeof full, "%s.%s.%s", name, space, scope_text);
  for (size_t i = 0; i < s->nfound; i++)
    if (strcmp(s->found[i].name, full) == 0) {
      s->found[i].count++;
      return 0;
    }
  if (s->nfound < sizeof s->found / sizeof s->found[0]) {
    snprintf(s->found[s->nfound].name, sizeof s->found[0].name, "%s", full);
    s->found[s->nfound++].count = 1;
  }
  return 0;
}

static int scan(const uint32_t *w, size_t n, struct scan *s)
{
  memset(s, 0, sizeof *s);
  if (w == NULL || n < 5 || w[0] != SPV_MAGIC)
    return -1;
  /* The header's bound: every id is below it. A huge bound on a small module is malformed. */
  s->ids.bound = w[3];
  if (s->ids.bound > 16 * n + 64)
    return -1;
  s->ids.constant = calloc(s->ids.bound + 1, sizeof *s->ids.constant);
  s->ids.is_constant = calloc(s->ids.bound + 1, 1);
  s->ids.storage = calloc(s->ids.bound + 1, sizeof *s->ids.storage);
  s->ids.type = calloc(s->ids.bound + 1, sizeof *s->ids.type);
  int rc = -1;
  if (s->ids.constant && s->ids.is_constant && s->ids.storage && s->ids.type)
    rc = walk(w, n, collect, s) ? -1 : walk(w, n, count_atomics, s) ? -1 : 0;
  free(s->ids.constant);
  free(s->ids.is_constant);
  free(s->ids.storage);
  free(s->ids.type);
  return rc;
}

int atl__spirv_atomics(const uint32_t *words, size_t nwords, char *buf, size_t len)
{
  struct scan s;
  if (len == 0)
    return -1;
  buf[0] = '\0';
  if (scan(words, nwords, &s)) {
    snprintf(buf, len, "malformed SPIR-V");
    return -1;
  }
  size_t used = 0;
  for (size_t i = 0; i < s.nfound && used < len; i++)
    used += (size_t)snprintf(buf + used, len - used, "%s%s x%u", i ? ", " : "", s.found[i].name, s.found[i].count);
  return 0;
}

int atl__spirv_bindings(const uint32_t *words, size_t nwords)
{
  struct scan s;
  return scan(words, nwords, &s) ? -1 : s.max_binding;
}
