/*
 * What the Vulkan driver tells of atomlab's rmw pipelines through
 * VK_KHR_pipeline_executable_properties (statistics and internal
 * representations: on some drivers the machine code), for fetch_add, cas and
 * exchange on u32 in global and shared memory, result unused and used:
 *
 *   vk_executables [DEVICE_ID]    prints each kernel's report, or why there is none
 *
 * Exits 0 with the report or the reason, 77 without a Vulkan device, 1 on a
 * failure. scripts/gpu-vulkan.sh records its output on the GPU machine; the
 * test vulkan_executables runs it on lavapipe (which does not expose the
 * extension: the reason is the answer).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"
#include "core/context.h"
#include "core/rmw_internal.h"

int main(int argc, char **argv)
{
  atl_context_t ctx = NULL;
  if (atl_context_new(&ctx))
    return 1;
  if (atl_device_open(ctx, argc > 1 ? argv[1] : NULL, "vulkan") != 0) {
    printf("no Vulkan device: %s\n", atl_errmsg(ctx));
    atl_context_free(ctx);
    return 77;
  }
  const struct atl_backend_ops *ops = atl__ops(ctx);
  const struct atl_device_info *info = atl_device_current(ctx);
  printf("device %s: %s (%s)\n", info->id, info->name, info->driver);
  static const enum atl_op ops_measured[] = {ATL_OP_FETCH_ADD, ATL_OP_CAS, ATL_OP_EXCHANGE};
  int failed = 0;
  for (size_t o = 0; o < sizeof ops_measured / sizeof ops_measured[0]; o++)
    for (int space = 0; space < 2; space++)
      for (int used = 0; used < 2; used++) {
        struct atl_spec s = {.op = ops_measured[o],
                             .type = ATL_TYPE_U32,
                             .space = space ? ATL_SPACE_LOCAL : ATL_SPACE_GLOBAL,
                             .pattern = ATL_PATTERN_CONTIGUOUS,
                             .result = used ? ATL_RESULT_USED : ATL_RESULT_UNUSED,
                             .scope = ATL_SCOPE_DEVICE,
                             .order = ATL_ORDER_RELAXED,
                             .contention = 32,
                             .padding = 1,
                             .wg_size = 256,
                             .workgroups = 1};
        char defines[512], why[512] = "", instructions[256] = "";
        atl__rmw_defines(&s, defines, sizeof defines);
        struct atl_build req = {"rmw", "rmw", defines};
        void *kernel = NULL;
        if (ops->build(atl__dev(ctx), &req, &kernel) != 0) {
          printf("build failed: %s\n", atl_errmsg(ctx));
          failed = 1;
          continue;
        }
        ops->describe_kernel(atl__dev(ctx), kernel, instructions, sizeof instructions);
        printf("\n### %s %s result %s: SPIR-V %s\n", atl_op_name(s.op), space ? "local" : "global",
               used ? "used" : "unused", instructions);
        char *text = ops->kernel_isa ? ops->kernel_isa(atl__dev(ctx), kernel, why, sizeof why) : NULL;
        if (text) {
          fputs(text, stdout);
          free(text);
        } else {
          printf("%s\n", why[0] ? why : "no kernel_isa in the backend");
          failed |= why[0] == '\0';
        }
      }
  atl_context_free(ctx);
  return failed;
}
