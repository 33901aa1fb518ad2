/*
 * What the Vulkan driver tells of atomlab's rmw pipelines through
 * VK_KHR_pipeline_executable_properties (statistics and internal
 * representations: on some drivers the machine code), for fetch_add, cas and
 * exchange on u32 in global and shared memory, result unused and used:
 *
 *   vk_executables [DEVICE_ID] [--shared-rows]    prints each kernel's report, or why there is none
 *
 * --shared-rows reports instead the kernels of the rows NVIDIA's driver got wrong (u64 and, or, xor and f32
 * fetch_add on shared memory, result unused and used), to set each ATL_VULKAN_ITERS form's statistics side by side.
 *
 * Exits 0 with the report or the reason, 77 without a Vulkan device, 1 on a
 * failure. On an NVIDIA GPU it prints the driver's answer; the
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
  const int shared_rows = argc > 1 && strcmp(argv[argc - 1], "--shared-rows") == 0;
  if (shared_rows)
    argc--;
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
  static const struct {
    enum atl_op op;
    enum atl_type type;
  } measured[] = {{ATL_OP_FETCH_ADD, ATL_TYPE_U32}, {ATL_OP_CAS, ATL_TYPE_U32}, {ATL_OP_EXCHANGE, ATL_TYPE_U32}},
    wrong[] = {{ATL_OP_AND, ATL_TYPE_U64}, {ATL_OP_OR, ATL_TYPE_U64}, {ATL_OP_XOR, ATL_TYPE_U64},
               {ATL_OP_FETCH_ADD, ATL_TYPE_F32}};
  const size_t nkernels = shared_rows ? sizeof wrong / sizeof wrong[0] : sizeof measured / sizeof measured[0];
  int failed = 0;
  for (size_t o = 0; o < nkernels; o++)
    for (int space = shared_rows; space < 2; space++)
      for (int used = 0; used < 2; used++) {
        struct atl_spec s = {.op = shared_rows ? wrong[o].op : measured[o].op,
                             .type = shared_rows ? wrong[o].type : measured[o].type,
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
        printf("\n### %s%s%s %s result %s: SPIR-V %s\n", shared_rows ? atl_type_name(s.type) : "",
               shared_rows ? " " : "", atl_op_name(s.op), space ? "local" : "global", used ? "used" : "unused",
               instructions);
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
