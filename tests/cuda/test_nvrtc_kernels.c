/*
 * Every CUDA kernel variant atomlab can ask for compiles with NVRTC for
 * sm_80 and sm_90, with exactly the defines the rmw driver generates. Needs
 * NVRTC only (no GPU, no driver): exits 77 (skipped) where it is missing.
 * The compiles are queued, then run on every core (NVRTC is thread-safe):
 * about a thousand of them take minutes one at a time. ATL_NVRTC_ONLY=NAME
 * compiles only the sources whose name contains NAME (e.g. app_swatomic).
 * ATL_NVRTC_PTX_DIR=DIR also writes the PTX of every compile to
 * DIR/NAME.ARCH.DEFINES.ptx, so a change to a kernel source that should not
 * change what runs (a port to atomlab/port.h) can be checked with diff -r.
 */
#include <ctype.h>
#include <dlfcn.h>
#include <nvrtc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/common.h"
#include "../../src/backend/cuda/kernels.h"
#include "core/rmw_internal.h"
#include "core/strategy_internal.h"

/* The test's own kernels (port_check.k.c), embedded as the library's are. */
const char *atl__test_kernel_source(const char *name);

static __typeof__(nvrtcCreateProgram) *create;
static __typeof__(nvrtcCompileProgram) *compile;
static __typeof__(nvrtcGetProgramLogSize) *log_size;
static __typeof__(nvrtcGetProgramLog) *get_log;
static __typeof__(nvrtcGetCUBINSize) *cubin_size;
static __typeof__(nvrtcDestroyProgram) *destroy;
static __typeof__(nvrtcGetPTXSize) *ptx_size;
static __typeof__(nvrtcGetPTX) *get_ptx;

static atomic_int failures, compiled;

/* One queued compile; source names and archs are static strings. */
struct job {
  const char *source_name, *arch;
  char *defines;
};
static struct job *jobs;
static size_t njobs, jobs_cap;
static atomic_size_t next_job;
static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;

static void build(const char *source_name, const char *defines, const char *arch)
{
  const char *only = getenv("ATL_NVRTC_ONLY");
  if (only && *only && strstr(source_name, only) == NULL)
    return;
  if (njobs == jobs_cap) {
    jobs_cap = jobs_cap ? 2 * jobs_cap : 1024;
    jobs = realloc(jobs, jobs_cap * sizeof *jobs);
    if (jobs == NULL) {
      printf("FAIL: out of memory\n");
      exit(1);
    }
  }
  jobs[njobs++] = (struct job){source_name, arch, strdup(defines)};
}

/* Writes the PTX of a compiled program to DIR/NAME.ARCH.DEFINES.ptx; the
 * defines become [A-Za-z0-9_=-] with '_' for the rest, so one file per compile. */
static void write_ptx(nvrtcProgram prog, const char *dir, const char *source_name, const char *arch,
                      const char *defines)
{
  char path[1400], tag[1024];
  size_t size = 0, i;
  for (i = 0; defines[i] && i + 1 < sizeof tag; i++) {
    const unsigned char c = (unsigned char)defines[i];
    tag[i] = isalnum(c) || c == '=' || c == '-' ? (char)c : '_';
  }
  tag[i] = '\0';
  const char *sm = strrchr(arch, '=');
  snprintf(path, sizeof path, "%s/%s.%s.%s.ptx", dir, source_name, sm ? sm + 1 : arch, tag);
  char *ptx = NULL;
  FILE *f = NULL;
  if (ptx_size(prog, &size) != NVRTC_SUCCESS || (ptx = malloc(size)) == NULL || get_ptx(prog, ptx) != NVRTC_SUCCESS ||
      (f = fopen(path, "w")) == NULL || fwrite(ptx, 1, strnlen(ptx, size), f) != strnlen(ptx, size)) {
    pthread_mutex_lock(&print_lock);
    printf("FAIL: cannot write the PTX of %s to %s\n", source_name, path);
    pthread_mutex_unlock(&print_lock);
    failures++;
  }
  if (f && fclose(f) != 0)
    failures++;
  free(ptx);
}

static void compile_one(const char *source_name, const char *defines, const char *arch)
{
  const char *opts[48];
  char defs[1024], include[600];
  int n = 0;
  const char *home = getenv("CUDA_HOME");
  snprintf(include, sizeof include, "-I%s/include", home && *home ? home : "/usr/local/cuda");
  opts[n++] = arch;
  opts[n++] = include;
  opts[n++] = "-default-device";
  int ndefs = atl__define_options(defines, defs, opts + n, 48 - n); /* as the backend does */
  if (ndefs < 0) {
    pthread_mutex_lock(&print_lock);
    printf("FAIL: too many defines: %s\n", defines);
    pthread_mutex_unlock(&print_lock);
    failures++;
    return;
  }
  n += ndefs;
  nvrtcProgram prog;
  size_t size = 0;
  const char *text = atl__cuda_kernel_source(source_name);
  if (text == NULL)
    text = atl__test_kernel_source(source_name);
  nvrtcResult rc = create(&prog, text, source_name, 0, NULL, NULL);
  if (rc == NVRTC_SUCCESS)
    rc = compile(prog, n, opts);
  if (rc == NVRTC_SUCCESS)
    rc = cubin_size(prog, &size);
  if (rc != NVRTC_SUCCESS || size == 0) {
    size_t len = 0;
    char *log = NULL;
    if (log_size(prog, &len) == NVRTC_SUCCESS && (log = malloc(len + 1)) && get_log(prog, log) == NVRTC_SUCCESS)
      log[len] = '\0';
    pthread_mutex_lock(&print_lock);
    printf("FAIL: %s %s [%s]: %s\n", source_name, arch, defines, log ? log : "");
    pthread_mutex_unlock(&print_lock);
    free(log);
    failures++;
  } else if (getenv("ATL_NVRTC_PTX_DIR") && *getenv("ATL_NVRTC_PTX_DIR"))
    write_ptx(prog, getenv("ATL_NVRTC_PTX_DIR"), source_name, arch, defines);
  compiled++;
  destroy(&prog);
}

static void *worker(void *unused)
{
  (void)unused;
  for (size_t i; (i = atomic_fetch_add(&next_job, 1)) < njobs;)
    compile_one(jobs[i].source_name, jobs[i].defines, jobs[i].arch);
  return NULL;
}

/* Runs the queue on one thread per core. */
static void run_jobs(void)
{
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  pthread_t threads[64];
  size_t n = cores < 1 ? 1 : cores > 64 ? 64 : (size_t)cores, started = 0;
  while (started < n && pthread_create(&threads[started], NULL, worker, NULL) == 0)
    started++;
  if (started == 0)
    worker(NULL);
  for (size_t i = 0; i < started; i++)
    pthread_join(threads[i], NULL);
  for (size_t i = 0; i < njobs; i++)
    free(jobs[i].defines);
  free(jobs);
}

/* The apps' kernels (src/apps/) with the defines their drivers pass, built for both architectures; sm90_only: the
 * vector reductions are sm_90's. The generated cases (histogram variants x inputs, swatomic ops) are built in main. */
static const struct app_case {
  const char *kernel, *defines;
  int sm90_only;
} app_cases[] = {
  /* counting, the double add and the list */
  {"app_count", "ITEMS=32 WG=256 STRATEGY_thread", 0},
  {"app_count", "ITEMS=32 WG=256 STRATEGY_warp", 0},
  {"app_count", "ITEMS=7 WG=64 STRATEGY_block", 0},
  {"app_dadd", "VARIANT_lock", 0},
  {"app_dadd", "VARIANT_lock_naive", 0},
  {"app_dadd", "VARIANT_cas", 0},
  {"app_dadd", "VARIANT_native", 0},
  {"app_list", "", 0},
  /* app_scatter: every variant, float and integer, a dimension that is not a multiple of the warp; the
   * 16-bit floats and i32 values, i64 keys; packed 16-bit pairs at an odd D; the bincount's bins variant; part's
   * vote and match-any path and its batched loads at 8 and 32 warps; the deterministic variant's passes */
  {"app_scatter", "D=64 TYPE_f32 VARIANT_atomic", 0},
  {"app_scatter", "D=64 TYPE_f32 VARIANT_run", 0},
  {"app_scatter", "D=33 TYPE_u32 VARIANT_run", 0},
  {"app_scatter", "D=1 TYPE_u32 VARIANT_atomic", 0},
  {"scatter_tma", "D=64 TYPE_f32 IDX_T=uint WARPS=8", 1},
  {"scatter_tma", "D=128 TYPE_bf16 IDX_T=ulong WARPS=8", 1},
  {"scatter_tma", "D=4 TYPE_u32 IDX_T=uint WARPS=4", 1},
  {"app_scatter", "D=64 TYPE_f32 VARIANT_block SLOTS=128u BLOCK_ROWS=4096u", 0},
  {"app_scatter", "D=1 TYPE_u32 VARIANT_block SLOTS=2048u BLOCK_ROWS=4096u", 0},
  {"app_scatter_det", "D=64 TYPE_f32 IDX_T=uint CHUNK=4096u TILE=1024u GROUP=64u WG=256", 0},
  {"app_scatter_bucket",
   "D=64 TYPE_f32 IDX_T=uint NB=8192u SPAN=128u WG=256 PWG=1024 HIST_LOCAL=1 LINE=32u PACKED=1", 0},
  {"app_scatter_bucket",
   "D=33 TYPE_u32 IDX_T=ulong NB=131072u SPAN=128u WG=128 PWG=1024 HIST_LOCAL=0 LINE=32u PACKED=0 KEY_GUARD", 0},
  {"app_scatter_bucket",
   "D=128 TYPE_bf16 IDX_T=uint NB=782u SPAN=128u WG=256 PWG=1024 HIST_LOCAL=1 LINE=32u PACKED=1", 0},
  {"app_scatter_det", "D=33 TYPE_u32 IDX_T=ulong CHUNK=4096u TILE=1024u GROUP=64u WG=128", 0},
  {"app_scatter_det", "D=64 TYPE_bf16 IDX_T=uint CHUNK=4096u TILE=1024u GROUP=64u WG=256", 0},
  /* 1024 a group: __launch_bounds__ holds det_combine to 64 registers (72 without: no launch on the H100) */
  {"app_scatter_det", "D=64 TYPE_f32 IDX_T=uint CHUNK=4096u TILE=1024u GROUP=64u WG=1024", 0},
  /* the dsm bincount: a 16-block cluster's table (sm_90; sm_80 compiles it without the cluster), one group's */
  {"app_scatter_dsm", "IDX_T=uint CLUSTER=16 LOG2_WORDS=15 CHUNK=16384u WG=1024", 0},
  {"app_scatter_dsm", "IDX_T=ulong CLUSTER=1 LOG2_WORDS=12 CHUNK=4096u WG=256", 0},
  {"app_scatter_dsm", "IDX_T=uint CLUSTER=16 LOG2_WORDS=15 CHUNK=16384u WG=1024 CACHE_LOG2=11", 0},
  {"app_scatter_dsm", "IDX_T=uint CLUSTER=16 LOG2_WORDS=14 CHUNK=16384u WG=1024 BEYOND=1", 0},
  {"app_scatter_dsm", "IDX_T=uint CLUSTER=16 LOG2_WORDS=15 CHUNK=16384u WG=1024 BEYOND=1 WIDE=1", 0},
  {"app_scatter_dsm", "IDX_T=ulong CLUSTER=1 LOG2_WORDS=10 CHUNK=4096u WG=256 WIDE=1", 0},
  /* atl_scatter_add's check of the keys (src/apps/scatter_guard.c) and its pick's count of a sample of them
   * (src/apps/scatter_lib.c) */
  {"scatter_check", "IDX_T=uint", 0},
  {"scatter_check", "IDX_T=ulong", 0},
  {"scatter_shares", "IDX_T=uint", 0},
  {"scatter_shares", "IDX_T=ulong", 0},
  {"app_scatter", "D=64 TYPE_bf16 IDX_T=ulong VARIANT_atomic", 0},
  {"app_scatter", "D=64 TYPE_f16 IDX_T=uint VARIANT_run", 0},
  {"app_scatter", "D=64 TYPE_bf16 IDX_T=uint VARIANT_block SLOTS=128u BLOCK_ROWS=4096u", 0},
  {"app_scatter", "D=3 TYPE_i32 IDX_T=ulong VARIANT_atomic", 0},
  {"app_scatter", "D=33 TYPE_bf16 IDX_T=uint VARIANT_run", 0},
  {"app_scatter", "D=5 TYPE_f16 IDX_T=ulong VARIANT_atomic", 0},
  {"app_scatter", "D=1 TYPE_u32 IDX_T=uint VARIANT_bins BIN_ROWS=65536u BIN_SLOTS=4096u BIN_LOG2_SLOTS=12u", 0},
  {"app_scatter", "D=1 TYPE_bf16 IDX_T=ulong VARIANT_bins BIN_ROWS=700u BIN_SLOTS=4096u BIN_LOG2_SLOTS=12u", 0},
  {"app_scatter", "D=64 TYPE_f32 IDX_T=uint VARIANT_part SLOTS=128u", 0},
  {"app_scatter", "D=33 TYPE_u32 IDX_T=ulong VARIANT_part SLOTS=248u", 0},
  {"app_scatter", "D=64 TYPE_bf16 IDX_T=uint VARIANT_part SLOTS=128u", 0},
  /* part's 16-bit warp path: 8 values a unit (sm_90, D a multiple of 8) or a pair, the seen table; odd D falls
   * back to the atomic path */
  {"app_scatter", "D=64 TYPE_bf16 IDX_T=ulong VARIANT_part SLOTS=128u WARPS=8u PART_BATCH=2u PART_SEEN=1", 0},
  {"app_scatter", "D=34 TYPE_f16 IDX_T=uint VARIANT_part SLOTS=240u WARPS=32u PART_BATCH=4u", 0},
  /* --part-prefetch l2: the range's output rows into the L2 first (prefetch.global.L2::evict_last) */
  {"app_scatter", "D=64 TYPE_f32 IDX_T=uint VARIANT_part SLOTS=128u WARPS=16u PART_BATCH=2u PART_SEEN=1 PART_PREFETCH=1", 0},
  {"app_scatter", "D=33 TYPE_bf16 IDX_T=uint VARIANT_part SLOTS=248u", 0},
  {"app_scatter", "D=64 TYPE_f32 IDX_T=uint VARIANT_part SLOTS=128u PART_SEEN=1", 0},
  /* the warp's hot key in registers (f32 4 a unit, 16-bit 8 or 2, u32 at D = 1: one lane busy) */
  {"app_scatter", "D=64 TYPE_f32 IDX_T=uint VARIANT_part SLOTS=128u PART_HOT=1 PART_BATCH=2u", 0},
  {"app_scatter", "D=64 TYPE_bf16 IDX_T=ulong VARIANT_part SLOTS=128u PART_HOT=1 PART_SEEN=1", 0},
  {"app_scatter", "D=34 TYPE_f16 IDX_T=uint VARIANT_part SLOTS=240u PART_HOT=1", 0},
  {"app_scatter", "D=1 TYPE_u32 IDX_T=uint VARIANT_part SLOTS=2048u PART_HOT=1", 0},
  {"app_scatter", "D=64 TYPE_f32 IDX_T=uint VARIANT_part SLOTS=128u WARPS=8u PART_BATCH=4u", 0},
  {"app_scatter", "D=1 TYPE_u32 IDX_T=uint VARIANT_part SLOTS=2048u WARPS=32u PART_BATCH=2u", 0},
  /* --part-add bulk (cp.reduce.async.bulk of a staged row on sm_90; the red path on sm_80, and where a row's units
   * do not divide a warp: D = 36) with the sweep's kernel beside it in the same source */
  {"app_scatter", "D=64 TYPE_f32 IDX_T=uint VARIANT_part SLOTS=64u WARPS=8u PART_BATCH=2u PART_SEEN=1 PART_PREFETCH=1 PART_BULK=1", 0},
  {"app_scatter", "D=128 TYPE_f32 IDX_T=ulong VARIANT_part SLOTS=32u WARPS=16u PART_BATCH=1u PART_HOT=1 PART_BULK=1", 0},
  {"app_scatter", "D=36 TYPE_f32 IDX_T=uint VARIANT_part SLOTS=227u PART_BULK=1", 0},
  /* the sweep narrowing i64 keys to u32 in range 0's pass (flags per chunk) */
  {"app_scatter", "D=64 TYPE_f32 IDX_T=ulong VARIANT_part SLOTS=128u WARPS=8u PART_BATCH=2u PART_SEEN=1 PART_PREFETCH=1 PART_CHUNK_STEPS=16u PART_NARROW=1", 0},
  {"app_scatter", "D=34 TYPE_bf16 IDX_T=ulong VARIANT_part SLOTS=240u PART_HOT=1 PART_NARROW=1", 0},
  /* the library's builds with the keys' guard (atomlab/key_guard.h): each kernel it launches takes the word last */
  {"app_scatter", "D=64 TYPE_f32 IDX_T=ulong VARIANT_atomic KEY_GUARD", 0},
  {"app_scatter", "D=33 TYPE_bf16 IDX_T=uint VARIANT_run KEY_GUARD", 0},
  {"app_scatter", "D=64 TYPE_f32 IDX_T=uint VARIANT_block SLOTS=128u BLOCK_ROWS=4096u KEY_GUARD", 0},
  {"app_scatter", "D=1 TYPE_u32 IDX_T=uint VARIANT_bins BIN_ROWS=4096u BIN_SLOTS=4096u BIN_LOG2_SLOTS=12u KEY_GUARD", 0},
  {"app_scatter", "D=64 TYPE_f32 IDX_T=ulong VARIANT_part SLOTS=128u WARPS=8u PART_BATCH=2u PART_SEEN=1 PART_PREFETCH=1 "
                  "PART_CHUNK_STEPS=16u PART_NARROW=1 KEY_GUARD", 0},
  {"app_scatter_det", "D=64 TYPE_f32 IDX_T=ulong CHUNK=4096u TILE=1024u GROUP=64u WG=256 KEY_GUARD", 0},
  {"app_scatter_dsm", "IDX_T=uint CLUSTER=16 LOG2_WORDS=15 CHUNK=16384u WG=1024 BEYOND=1 WIDE=1 KEY_GUARD", 0},
  {"app_scatter_reduce", "TYPE_f32 OP_max IDX_T=ulong D=64u GROUP_ROWS=32u KEY_GUARD", 0},
  {"app_scatter_reduce", "TYPE_i32 OP_min IDX_T=uint D=1u GROUP_ROWS=2048u", 0},
  {"app_scatter_reduce", "TYPE_u32 OP_max IDX_T=uint D=3u GROUP_ROWS=682u KEY_GUARD", 0},
  /* atl_histogram's tail and widening steps (src/apps/histogram_lib.c) */
  {"histogram_lib", "", 0},
  {"app_scatter", "D=64 TYPE_f32 VARIANT_vector SLOTS=128u BLOCK_ROWS=4096u", 1},
  {"app_scatter", "D=64 TYPE_bf16 VARIANT_vector", 1},
  {"app_scatter", "D=16 TYPE_f16 VARIANT_vector", 1},
  /* the skip list; the crossgpu app in both scopes, both result uses; app_histogram's fixed cases (the
   * driver's bins and flush periods, per-thread columns, 16-bit block counters) */
  {"app_skiplist", "LEVELS=24", 0},
  {"crossgpu", "SCOPE_system RESULT_USED=0", 0},
  {"crossgpu", "SCOPE_system RESULT_USED=1", 0},
  {"crossgpu", "SCOPE_device RESULT_USED=0", 0},
  {"crossgpu", "SCOPE_device RESULT_USED=1", 0},
  {"app_histogram", "INPUT_u32 BINS=65536 WG=256 VARIANT_global FLUSH_EVERY=511", 0},
  {"app_histogram", "INPUT_u32 BINS=8192 WG=1024 VARIANT_shared FLUSH_EVERY=511", 0},
  {"app_histogram", "INPUT_u8 BINS=256 WG=256 VARIANT_per_lane FLUSH_EVERY=44739242 UNROLL=6", 0},
  {"app_histogram", "INPUT_u32 BINS=256 WG=256 VARIANT_per_lane FLUSH_EVERY=178956970 UNROLL=6", 0},
  {"app_histogram", "INPUT_u8 BINS=256 WG=1024 VARIANT_byte_lanes FLUSH_EVERY=4294967295 UNROLL=4 MIN_GROUPS=2", 0},
  {"app_histogram", "INPUT_rgba BINS=1024 WG=1024 VARIANT_byte_lanes FLUSH_EVERY=4294967295 UNROLL=4 MIN_GROUPS=1", 0},
  {"app_histogram", "INPUT_u32 BINS=65536 WG=1024 VARIANT_block16 FLUSH_EVERY=511 UNROLL=4 MIN_GROUPS=1", 0},
  {"app_histogram", "INPUT_rgba BINS=1024 WG=1024 VARIANT_block16 FLUSH_EVERY=511 UNROLL=4", 0},
  /* the software atomic add and seed 000's experiments: every (variant, memory) kernel; its applications */
  {"app_swatomic", "ATL_WAVEFRONT=32 ATL_MAX_GROUPS=8 ATL_SW_VARIANT=0 ATL_SW_MEM=0", 0},
  {"app_swatomic", "ATL_WAVEFRONT=32 ATL_MAX_GROUPS=8 ATL_SW_VARIANT=1 ATL_SW_MEM=0", 0},
  {"app_swatomic", "ATL_WAVEFRONT=32 ATL_MAX_GROUPS=8 ATL_SW_VARIANT=2 ATL_SW_MEM=0", 0},
  {"app_swatomic", "ATL_WAVEFRONT=32 ATL_MAX_GROUPS=8 ATL_SW_VARIANT=3 ATL_SW_MEM=1", 0},
  {"app_swatomic", "ATL_WAVEFRONT=32 ATL_MAX_GROUPS=8 ATL_SW_VARIANT=0 ATL_SW_MEM=1", 0},
  {"app_swatomic", "ATL_WAVEFRONT=32 ATL_MAX_GROUPS=8 ATL_SW_VARIANT=1 ATL_SW_MEM=1", 0},
  {"app_swatomic", "ATL_WAVEFRONT=32 ATL_MAX_GROUPS=8 ATL_SW_VARIANT=2 ATL_SW_MEM=1", 0},
  {"app_swatomic", "ATL_WAVEFRONT=32 ATL_MAX_GROUPS=8", 0},
  {"app_swdot", "ATL_WAVEFRONT=32 ATL_MAX_GROUPS=8", 0},
  {"app_swstrmatch", "ATL_WAVEFRONT=32 ATL_MAX_GROUPS=8", 0},
  {"app_swmapreduce", "ATL_WAVEFRONT=32 ATL_MAX_GROUPS=8", 0},
};

int main(void)
{
  void *lib = NULL;
  const char *names[] = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "/usr/local/cuda/lib64/libnvrtc.so", NULL};
  for (size_t i = 0; names[i] && !lib; i++)
    lib = dlopen(names[i], RTLD_NOW);
  if (lib == NULL) {
    printf("NVRTC not found: skipped\n");
    return 77;
  }
  create = (__typeof__(create))dlsym(lib, "nvrtcCreateProgram");
  compile = (__typeof__(compile))dlsym(lib, "nvrtcCompileProgram");
  log_size = (__typeof__(log_size))dlsym(lib, "nvrtcGetProgramLogSize");
  get_log = (__typeof__(get_log))dlsym(lib, "nvrtcGetProgramLog");
  cubin_size = (__typeof__(cubin_size))dlsym(lib, "nvrtcGetCUBINSize");
  destroy = (__typeof__(destroy))dlsym(lib, "nvrtcDestroyProgram");
  ptx_size = (__typeof__(ptx_size))dlsym(lib, "nvrtcGetPTXSize");
  get_ptx = (__typeof__(get_ptx))dlsym(lib, "nvrtcGetPTX");
  if (!create || !compile || !log_size || !get_log || !cubin_size || !destroy || !ptx_size || !get_ptx) {
    printf("NVRTC lacks an entry point: skipped\n");
    return 77;
  }
  const char *archs[] = {"--gpu-architecture=sm_90", "--gpu-architecture=sm_80"};
  char defines[512];
  build("discovery", "", archs[0]);
  build("port_check", "", archs[0]); /* all of atomlab/port.h */
  build("port_check", "", archs[1]);
  for (size_t a = 0; a < 2; a++) { /* the shared-memory calibration, both result uses */
    build("smem_calibrate", "RESULT_USED=0", archs[a]);
    build("smem_calibrate", "RESULT_USED=1", archs[a]);
    for (int v = 0; v < 4; v++) { /* the histogram case study: Listing 1 and 2, result unused and used */
      snprintf(defines, sizeof defines, "REORDER=%d RESULT_USED=%d", v / 2, v % 2);
      build("smem_histogram", defines, archs[a]);
    }
    build("smem_validate", "VALIDATE=0", archs[a]); /* the model's validation kernels */
    build("smem_validate", "VALIDATE=1", archs[a]);
  }
  for (size_t a = 0; a < 2; a++) {
    for (int op = 0; op < ATL_OP_COUNT; op++)
      for (int type = 0; type < ATL_TYPE_COUNT; type++)
        for (int space = 0; space < ATL_SPACE_COUNT; space++)
          for (int pattern = 0; pattern < ATL_PATTERN_COUNT; pattern++) {
            if (!atl_op_type_defined((enum atl_op)op, (enum atl_type)type) || pattern == ATL_PATTERN_CROSS_WARP)
              continue; /* cross-warp compiles exactly as contiguous */
            struct atl_spec s = {.op = (enum atl_op)op, .type = (enum atl_type)type, .space = (enum atl_space)space,
                                 .pattern = (enum atl_pattern)pattern, .result = ATL_RESULT_USED, .contention = 2,
                                 .padding = 1, .wg_size = 64, .workgroups = 2};
            atl__rmw_defines(&s, defines, sizeof defines);
            build("rmw", defines, archs[a]);
          }
    /* scopes and orders, on the integer types the ordered builtins take */
    for (int op = 0; op < ATL_OP_PLAIN_ADD; op++)
      for (int scope = 0; scope < ATL_SCOPE_COUNT; scope++)
        for (int order = 0; order < ATL_ORDER_COUNT; order++) {
          struct atl_spec s = {.op = (enum atl_op)op, .type = order % 2 ? ATL_TYPE_U64 : ATL_TYPE_I32,
                               .scope = (enum atl_scope)scope, .order = (enum atl_order)order,
                               .result = ATL_RESULT_UNUSED, .contention = 1, .padding = 1, .wg_size = 64,
                               .workgroups = 2};
          atl__rmw_defines(&s, defines, sizeof defines);
          build("rmw", defines, archs[a]);
        }
  }
  /* strategy.k.c with the device library: every strategy x result use with
   * an arithmetic and a bitwise op; the run-time selected build compiles
   * every strategy with every op (the op is then a kernel argument) */
  const enum atl_op strategy_ops[] = {ATL_OP_FETCH_ADD, ATL_OP_XOR};
  for (size_t a = 0; a < 2; a++)
    for (int st = 0; st < ATL_STRATEGY_COUNT; st++)
      for (size_t op = 0; op < 2; op++)
        for (int r = 0; r < ATL_RESULT_COUNT; r++) {
          struct atl_strategy_spec s = {.strategy = (enum atl_strategy)st, .access = ATL_ACCESS_SAME_LINE,
                                        .op = strategy_ops[op], .result = (enum atl_result_use)r, .wg_size = 256,
                                        .workgroups = 4};
          atl__strategy_defines(&s, 32, defines, sizeof defines);
          build("strategy", defines, archs[a]);
        }
  for (size_t a = 0; a < 2; a++) {
    struct atl_strategy_spec s = {.access = ATL_ACCESS_SAME_ADDRESS, .op = ATL_OP_FETCH_ADD, .wg_size = 64,
                                  .workgroups = 3, .runtime_select = 1};
    atl__strategy_defines(&s, 32, defines, sizeof defines);
    build("strategy", defines, archs[a]);
  }
  for (size_t a = 0; a < 2; a++) {
    for (size_t i = 0; i < sizeof app_cases / sizeof app_cases[0]; i++)
      if (!app_cases[i].sm90_only || strstr(archs[a], "sm_90"))
        build(app_cases[i].kernel, app_cases[i].defines, archs[a]);
    /* app_histogram: every variant x input, at the bins and flush periods the driver passes */
    static const char *const hist_variants[] = {"global", "shared", "warp_private", "match_any", "packed"};
    static const char *const hist_inputs[] = {"u8 BINS=256 FLUSH_EVERY=127", "rgba BINS=1024 FLUSH_EVERY=511",
                                              "u32 BINS=4096 FLUSH_EVERY=511"};
    for (size_t v = 0; v < 5; v++)
      for (size_t i = 0; i < 3; i++) {
        /* per-warp copies of 4096 bins exceed 48 KiB (the driver reports unsupported): 1024 bins instead */
        const int per_warp = strcmp(hist_variants[v], "warp_private") == 0 || strcmp(hist_variants[v], "packed") == 0;
        snprintf(defines, sizeof defines, "INPUT_%s WG=256 VARIANT_%s",
                 per_warp && i == 2 ? "u32 BINS=1024 FLUSH_EVERY=511" : hist_inputs[i], hist_variants[v]);
        build("app_histogram", defines, archs[a]);
      }
    /* --op: every other op (1 sub ... 7 xor) in each atomic variant with and without the copy */
    for (int op = 1; op <= 7; op++)
      for (int v = 0; v < 3; v++)
        for (int memop = 0; memop < 2; memop++) {
          snprintf(defines, sizeof defines,
                   "ATL_WAVEFRONT=32 ATL_MAX_GROUPS=8 ATL_SW_VARIANT=%d ATL_SW_MEM=%d ATL_SW_OP=%d", v, memop, op);
          build("app_swatomic", defines, archs[a]);
        }
  }
  run_jobs();
  printf("%d passed, %d failed\n", compiled - failures, failures);
  return failures ? 1 : 0;
}
