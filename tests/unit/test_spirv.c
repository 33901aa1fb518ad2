/*
 * The SPIR-V reader of the Vulkan backend (src/backend/vulkan/spirv.c): on a
 * hand-assembled module (word by word, as the SPIR-V specification lays
 * them out), on malformed words, and on every embedded rmw variant, whose
 * atomics must be exactly the op, space and scope it was compiled for.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "backend/vulkan/shaders.h"
#include "backend/vulkan/spirv.h"
#include "check.h"

#define CHECK_STR(a, b)                                                                                          \
  do {                                                                                                         \
    if (!CHECK(strcmp((a), (b)) == 0))                                                                         \
      fprintf(stderr, "    got \"%s\", want \"%s\"\n", (a), (b));                                                \
  } while (0)

#define INS(count, op) (((uint32_t)(count) << 16) | (op))

/* The atomic a variant of rmw.comp must contain ("" for the non-atomic control). */
static const char *expected_op(const struct atl__vk_shader *s)
{
  static const struct {
    const char *op, *spirv;
  } map[] = {{"fetch_add", "OpAtomicIAdd"}, {"fetch_sub", "OpAtomicIAdd"}, {"inc", "OpAtomicIAdd"},
             {"dec", "OpAtomicIAdd"},       {"and", "OpAtomicAnd"},       {"or", "OpAtomicOr"},
             {"xor", "OpAtomicXor"},        {"exchange", "OpAtomicExchange"},
             {"cas", "OpAtomicCompareExchange"}, {"cas_fail", "OpAtomicCompareExchange"}, {"plain_add", ""}};
  if (strcmp(s->type, "f32") == 0)
    return "OpAtomicFAddEXT";
  if (strcmp(s->op, "fetch_min") == 0)
    return strcmp(s->type, "i32") == 0 ? "OpAtomicSMin" : "OpAtomicUMin";
  if (strcmp(s->op, "fetch_max") == 0)
    return strcmp(s->type, "i32") == 0 ? "OpAtomicSMax" : "OpAtomicUMax";
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (strcmp(map[i].op, s->op) == 0)
      return map[i].spirv;
  return "?";
}

int main(void)
{
  /* A module with one storage-buffer pointer, a constant 1 (Device), and two OpAtomicIAdd plus one
   * OpAtomicUMin on a Workgroup pointer with scope 2: header, then the instructions. */
  const uint32_t m[] = {
      0x07230203, 0x00010300, 0, 20, 0,
      INS(2, 17), 1,                      /* OpCapability Shader */
      INS(4, 71), 9, 33, 3,               /* OpDecorate %9 Binding 3 */
      INS(4, 32), 5, 2, 4,                /* %5 = OpTypePointer Uniform %4 */
      INS(4, 32), 6, 4, 4,                /* %6 = OpTypePointer Workgroup %4 */
      INS(4, 43), 4, 7, 1,                /* %7 = OpConstant %4 1 (Device) */
      INS(4, 43), 4, 8, 2,                /* %8 = OpConstant %4 2 (Workgroup) */
      INS(4, 59), 5, 10, 2,               /* %10 = OpVariable %5 Uniform */
      INS(4, 59), 6, 11, 4,               /* %11 = OpVariable %6 Workgroup */
      INS(7, 234), 4, 12, 10, 7, 8, 7,    /* %12 = OpAtomicIAdd %4 %10 Device ... */
      INS(7, 234), 4, 13, 10, 7, 8, 7,    /* %13 = OpAtomicIAdd again */
      INS(7, 237), 4, 14, 11, 8, 8, 7,    /* %14 = OpAtomicUMin %4 %11 Workgroup ... */
  };
  const size_t n = sizeof m / sizeof m[0];
  char buf[256];
  CHECK(atl__spirv_atomics(m, n, buf, sizeof buf) == 0);
  CHECK_STR(buf, "OpAtomicIAdd.buffer.Device x2, OpAtomicUMin.shared.Workgroup x1");
  CHECK(atl__spirv_bindings(m, n) == 4);

  /* Malformed: bad magic, an instruction running past the end, a zero word count, too short, a huge bound. */
  uint32_t bad[sizeof m / sizeof m[0]];
  memcpy(bad, m, sizeof m);
  bad[0] = 0x03022307;
  CHECK(atl__spirv_atomics(bad, n, buf, sizeof buf) == -1);
  CHECK(strstr(buf, "malformed") != NULL);
  memcpy(bad, m, sizeof m);
  bad[n - 7] = INS(9, 237);
  CHECK(atl__spirv_atomics(bad, n, buf, sizeof buf) == -1);
  CHECK(atl__spirv_bindings(bad, n) == -1);
  memcpy(bad, m, sizeof m);
  bad[5] = INS(0, 17);
  CHECK(atl__spirv_atomics(bad, n, buf, sizeof buf) == -1);
  CHECK(atl__spirv_atomics(m, 4, buf, sizeof buf) == -1);
  CHECK(atl__spirv_atomics(NULL, 0, buf, sizeof buf) == -1);
  memcpy(bad, m, sizeof m);
  bad[3] = 0xffffffffu;
  CHECK(atl__spirv_atomics(bad, n, buf, sizeof buf) == -1);
  /* An atomic too short for its operands */
  memcpy(bad, m, sizeof m);
  bad[n - 7] = INS(3, 237);
  CHECK(atl__spirv_atomics(bad, n - 4, buf, sizeof buf) == -1);
  /* A small buffer truncates, never overruns */
  char tiny[8];
  CHECK(atl__spirv_atomics(m, n, tiny, sizeof tiny) == 0 && strlen(tiny) == sizeof tiny - 1);

  /* Every embedded rmw variant: one atomic kind, the op's, on the space and scope it was compiled for. */
  size_t rmw = 0;
  for (size_t i = 0; i < atl__vk_shader_count; i++) {
    const struct atl__vk_shader *s = &atl__vk_shaders[i];
    CHECK(atl__spirv_atomics(s->words, s->nwords, buf, sizeof buf) == 0);
    if (strcmp(s->source, "discovery") == 0) {
      CHECK(atl__spirv_bindings(s->words, s->nwords) == 2);
      CHECK(strstr(buf, "OpAtomicIAdd.buffer.Device") != NULL && strstr(buf, "OpAtomicOr.buffer.Device") != NULL);
      continue;
    }
    rmw++;
    CHECK(atl__spirv_bindings(s->words, s->nwords) == 6);
    const char *op = expected_op(s);
    if (*op == '\0') {
      CHECK_STR(buf, "");
      continue;
    }
    char want[128];
    snprintf(want, sizeof want, "%s.%s.%s x", op, s->space_local ? "shared" : "buffer",
             strcmp(s->scope, "block") == 0 ? "Workgroup" : "Device");
    if (!CHECK(strncmp(buf, want, strlen(want)) == 0 && strchr(buf, ',') == NULL))
      fprintf(stderr, "  %s %s local=%d %s: %s (want %s)\n", s->type, s->op, s->space_local, s->scope, buf, want);
  }
  /* 13 ops on u32, i32, u64 and fetch_add on f32, x 2 spaces x 2 result uses x 2 scopes */
  CHECK(rmw == (13 * 3 + 1) * 2 * 2 * 2);
  return check_exit("test_spirv");
}
