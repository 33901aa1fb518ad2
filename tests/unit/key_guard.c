/*
 * The keys' guard of the library's scatter operations (src/apps/scatter_guard.c) on the OpenCL device (PoCL in CI):
 *   key_guard ops     on atomlab's own device, every operation that takes keys (atl_scatter_add by each method and
 *                     deterministically, atl_bincount's counts, atl_scatter_reduce max and min) with bad keys at two
 *                     rows: ATL_ERANGE naming the lower row, the output byte for byte as it was; the same call with
 *                     good keys right after gives the exact sums (the guard's word is ready again).
 *   key_guard queue   on a program's own OpenCL queue (atl_context_from_opencl): a call with a bad key returns 0
 *                     without a wait and writes nothing; a good call after it sums; atl_context_finish then gives
 *                     ATL_ERANGE naming the bad call's row, once.
 *   key_guard order   run with ATL_FAULT=read:1 (the process's first device read fails): the synchronous call's
 *                     first read of the device comes after the operation's launches, so the output holds the sums
 *                     although the call fails (a check that read its word back before the launches left it as it was).
 *   key_guard ops cuda  the first group on a CUDA device (ctest gpu_key_guard), where the check's result comes back
 *                     through pinned host memory the check writes, not a copy.
 * Exits 77 without the device (OpenCL unless named).
 */
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* clCreateCommandQueue: every platform has it */
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"
#include "check.h"
#include "device_open.h"

#define ROWS 6000u
#define TARGETS 700u
#define DIM 3u
#define FILL 0x5au

static int says(atl_context_t ctx, const char *text)
{
  if (strstr(atl_errmsg(ctx), text) != NULL)
    return 1;
  fprintf(stderr, "    message '%s' lacks '%s'\n", atl_errmsg(ctx), text);
  return 0;
}

/* One operation of the library on (out, src, idx) with u32 values and keys. */
enum op { OP_ADD, OP_DET, OP_COUNT, OP_MAX, OP_MIN };

struct call {
  const char *name;
  enum op op;
  enum atl_scatter_method method;
  uint32_t dim;
  enum atl_scatter_keys keys; /* max / min: SPREAD runs the atomic kernel, HEAD the group kernel, SAMPLE picks */
};

static const struct call calls[] = {
    {"atomic", OP_ADD, ATL_SCATTER_ATOMIC, DIM, 0}, {"run", OP_ADD, ATL_SCATTER_RUN, DIM, 0},
    {"block", OP_ADD, ATL_SCATTER_BLOCK, DIM, 0},   {"part", OP_ADD, ATL_SCATTER_PART, DIM, 0},
    {"part1", OP_ADD, ATL_SCATTER_PART1, DIM, 0},   {"sweep", OP_ADD, ATL_SCATTER_SWEEP, DIM, 0},
    {"bins", OP_ADD, ATL_SCATTER_BINS, 1, 0},       {"dsm", OP_ADD, ATL_SCATTER_DSM, 1, 0},
    {"auto", OP_ADD, ATL_SCATTER_AUTO, DIM, 0},     {"det", OP_DET, ATL_SCATTER_AUTO, DIM, 0},
    {"count", OP_COUNT, ATL_SCATTER_AUTO, 1, 0},    {"max", OP_MAX, ATL_SCATTER_AUTO, DIM, 0},
    {"min", OP_MIN, ATL_SCATTER_AUTO, DIM, 0},      {"max-s", OP_MAX, ATL_SCATTER_AUTO, DIM, ATL_SCATTER_KEYS_SPREAD},
    {"min-h", OP_MIN, ATL_SCATTER_AUTO, 1, ATL_SCATTER_KEYS_HEAD},
};

static int run(atl_context_t ctx, const struct call *c, atl_buffer_t out, atl_buffer_t src, atl_buffer_t idx)
{
  const struct atl_scatter_desc d = {.type = ATL_SCATTER_U32, .index_bytes = 4, .rows = ROWS, .targets = TARGETS,
                                     .dim = c->dim, .deterministic = c->op == OP_DET, .method = c->method,
                                     .keys = c->keys};
  switch (c->op) {
  case OP_COUNT:
    return atl_bincount(ctx, &d, out, NULL, idx, NULL);
  case OP_MAX:
  case OP_MIN:
    return atl_scatter_reduce(ctx, &d, c->op == OP_MAX ? ATL_SCATTER_REDUCE_MAX : ATL_SCATTER_REDUCE_MIN, out, src,
                              idx, NULL);
  default:
    return atl_scatter_add(ctx, &d, out, src, idx, NULL);
  }
}

/* The keys (bad at rows @p k1 < @p k2 where @p bad), the values (row + column + 1) and what @p c makes of
 * out = FILL bytes; the host's. */
static void expect(const struct call *c, uint32_t *k, uint32_t *src, uint32_t *want, uint32_t bad, uint32_t k1,
                   uint32_t k2)
{
  memset(want, FILL, (size_t)TARGETS * c->dim * 4);
  for (uint32_t i = 0; i < ROWS; i++) {
    k[i] = (i * 2654435761u) % TARGETS;
    for (uint32_t j = 0; j < c->dim; j++) {
      /* max's values above the fill's bytes, so that it changes the output */
      const uint32_t v = src[i * c->dim + j] = (c->op == OP_MAX ? 0x60000000u : 0u) + i + j + 1;
      const uint32_t w = want[k[i] * c->dim + j];
      want[k[i] * c->dim + j] = c->op == OP_MAX   ? (v > w ? v : w)
                                : c->op == OP_MIN ? (v < w ? v : w)
                                : c->op == OP_COUNT ? w + 1
                                                    : w + v;
    }
  }
  if (bad)
    k[k1] = k[k2] = bad;
}

/* The host's arrays and atomlab's buffers of a test on atomlab's own device: keys, values, the expected and the
 * read-back output, the output's FILL bytes; out, src and idx on the device. */
struct bufs {
  uint32_t *k, *src, *want, *back;
  unsigned char *fill;
  atl_buffer_t out, bsrc, idx;
};

#define OUT_BYTES ((size_t)TARGETS * DIM * 4)
#define SRC_BYTES ((size_t)ROWS * DIM * 4)

/* 1 where every array and buffer was made; what was made is freed by bufs_free either way. */
static int bufs_new(atl_context_t ctx, struct bufs *b)
{
  *b = (struct bufs){.k = malloc(ROWS * 4),
                     .src = malloc(SRC_BYTES),
                     .want = malloc(OUT_BYTES),
                     .back = malloc(OUT_BYTES),
                     .fill = malloc(OUT_BYTES)};
  if (!CHECK(b->k && b->src && b->want && b->back && b->fill && atl_buffer_new(ctx, OUT_BYTES, &b->out) == 0 &&
             atl_buffer_new(ctx, SRC_BYTES, &b->bsrc) == 0 && atl_buffer_new(ctx, ROWS * 4, &b->idx) == 0))
    return 0;
  memset(b->fill, FILL, OUT_BYTES);
  return 1;
}

/* The keys and values onto the device, the output's first @p out_bytes back to the FILL bytes. */
static int bufs_write(atl_context_t ctx, const struct bufs *b, size_t out_bytes)
{
  return atl_buffer_write(ctx, b->idx, b->k, ROWS * 4) == 0 && atl_buffer_write(ctx, b->bsrc, b->src, SRC_BYTES) == 0 &&
         atl_buffer_write(ctx, b->out, b->fill, out_bytes) == 0;
}

static void bufs_free(atl_context_t ctx, struct bufs *b)
{
  atl_buffer_free(ctx, b->out), atl_buffer_free(ctx, b->bsrc), atl_buffer_free(ctx, b->idx);
  free(b->k), free(b->src), free(b->want), free(b->back), free(b->fill);
}

/* Atomlab's own buffers on its own device: the bad call refused by row, nothing written; a good call then sums. */
static void ops(atl_context_t ctx)
{
  struct bufs b;
  if (!bufs_new(ctx, &b))
    goto done;
  for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
    const struct call *c = &calls[i];
    const size_t ob = (size_t)TARGETS * c->dim * 4;
    const uint32_t k1 = 37 + 400 * (uint32_t)i, k2 = ROWS - 1 - (uint32_t)i;
    expect(c, b.k, b.src, b.want, TARGETS + (uint32_t)i, k1, k2);
    CHECK(bufs_write(ctx, &b, ob));
    const int err = run(ctx, c, b.out, b.bsrc, b.idx);
    printf("%-6s bad keys at rows %u and %u: %s: %s\n", c->name, k1, k2, atl_err_name(err), atl_errmsg(ctx));
    char row[48];
    snprintf(row, sizeof row, "row %u holds key %u,", k1, TARGETS + (uint32_t)i);
    CHECK_EQ(err, ATL_ERANGE);
    CHECK(says(ctx, row));
    CHECK(atl_buffer_read(ctx, b.out, b.back, ob) == 0 && memcmp(b.back, b.fill, ob) == 0);
    expect(c, b.k, b.src, b.want, 0, 0, 0); /* good keys: the sums */
    CHECK(atl_buffer_write(ctx, b.idx, b.k, ROWS * 4) == 0);
    CHECK_EQ(run(ctx, c, b.out, b.bsrc, b.idx), 0);
    CHECK(atl_buffer_read(ctx, b.out, b.back, ob) == 0 && memcmp(b.back, b.want, ob) == 0);
  }
done:
  bufs_free(ctx, &b);
}

/* The program's own queue: errors stay on the device until atl_context_finish. */
static void queue(void)
{
  const size_t ob = (size_t)TARGETS * DIM * 4, sb = (size_t)ROWS * DIM * 4;
  const struct call *c = &calls[0];
  uint32_t *k = malloc(ROWS * 4), *kbad = malloc(ROWS * 4), *src = malloc(sb), *want = malloc(ob),
           *back = malloc(ob);
  unsigned char *fill = malloc(ob);
  cl_platform_id platform;
  cl_device_id device;
  cl_int rc = clGetPlatformIDs(1, &platform, NULL);
  if (rc == CL_SUCCESS)
    rc = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
  if (!CHECK(rc == CL_SUCCESS && k && kbad && src && want && back && fill))
    return;
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &rc);
  cl_command_queue q = clCreateCommandQueue(context, device, 0, &rc);
  cl_mem m[5];
  const size_t bytes[5] = {sb, ROWS * 4, ROWS * 4, ob, ob}; /* src, good keys, bad keys, two outputs */
  for (int i = 0; i < 5; i++)
    m[i] = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes[i], NULL, &rc);
  expect(c, kbad, src, want, TARGETS + 5, 99, 4321);
  expect(c, k, src, want, 0, 0, 0);
  memset(fill, FILL, ob);
  const void *host[5] = {src, k, kbad, fill, fill};
  for (int i = 0; i < 5; i++)
    clEnqueueWriteBuffer(q, m[i], CL_TRUE, 0, bytes[i], host[i], 0, NULL, NULL);
  atl_context_t ctx = NULL;
  atl_buffer_t b[5] = {NULL};
  int err = atl_context_from_opencl(context, device, q, 0, &ctx);
  for (int i = 0; i < 5 && !err; i++)
    err = atl_buffer_wrap_opencl(ctx, m[i], &b[i]);
  if (!CHECK(err == 0))
    goto done;
  CHECK_EQ(run(ctx, c, b[3], b[0], b[2]), 0); /* bad keys into the first output: enqueued, nothing read */
  CHECK_EQ(run(ctx, c, b[4], b[0], b[1]), 0); /* good keys into the second */
  err = atl_context_finish(ctx);
  printf("queue: finish after a bad call and a good one: %s: %s\n", atl_err_name(err), atl_errmsg(ctx));
  CHECK_EQ(err, ATL_ERANGE);
  CHECK(says(ctx, "row 99 holding key 705,") && says(ctx, "targets 700"));
  CHECK(clEnqueueReadBuffer(q, m[3], CL_TRUE, 0, ob, back, 0, NULL, NULL) == CL_SUCCESS &&
        memcmp(back, fill, ob) == 0);
  CHECK(clEnqueueReadBuffer(q, m[4], CL_TRUE, 0, ob, back, 0, NULL, NULL) == CL_SUCCESS &&
        memcmp(back, want, ob) == 0);
  CHECK_EQ(atl_context_finish(ctx), 0); /* reported once */
  /* scatter-reduce on the queue: the same */
  const struct call mx = {"max", OP_MAX, ATL_SCATTER_AUTO, DIM, 0};
  clEnqueueWriteBuffer(q, m[3], CL_TRUE, 0, ob, fill, 0, NULL, NULL);
  CHECK_EQ(run(ctx, &mx, b[3], b[0], b[2]), 0);
  CHECK_EQ(atl_context_finish(ctx), ATL_ERANGE);
  CHECK(says(ctx, "row 99 holding"));
  CHECK(clEnqueueReadBuffer(q, m[3], CL_TRUE, 0, ob, back, 0, NULL, NULL) == CL_SUCCESS &&
        memcmp(back, fill, ob) == 0);
done:
  for (int i = 0; i < 5; i++)
    atl_buffer_free(ctx, b[i]);
  atl_context_free(ctx);
  for (int i = 0; i < 5; i++)
    clReleaseMemObject(m[i]);
  clReleaseCommandQueue(q);
  clReleaseContext(context);
  free(k), free(kbad), free(src), free(want), free(back), free(fill);
}

/* Under ATL_FAULT=read:1: the call's first device read fails after its launches ran. */
static void order(atl_context_t ctx)
{
  const struct call *c = &calls[0];
  struct bufs b;
  if (!bufs_new(ctx, &b))
    goto done;
  expect(c, b.k, b.src, b.want, 0, 0, 0);
  CHECK(bufs_write(ctx, &b, OUT_BYTES));
  const int err = run(ctx, c, b.out, b.bsrc, b.idx);
  printf("order: the call's first read failing: %s: %s\n", atl_err_name(err), atl_errmsg(ctx));
  CHECK(err != 0 && says(ctx, "read call 1"));
  CHECK(atl_buffer_read(ctx, b.out, b.back, OUT_BYTES) == 0);
  CHECK(memcmp(b.back, b.want, OUT_BYTES) == 0); /* the launches ran before the read */
done:
  bufs_free(ctx, &b);
}

int main(int argc, char **argv)
{
  const char *group = argc > 1 ? argv[1] : "ops", *backend = argc > 2 ? argv[2] : "opencl";
  atl_context_t ctx = NULL;
  const int opened = test_device_open(backend, &ctx);
  if (opened)
    return opened;
  if (strcmp(group, "order") == 0) {
    if (getenv("ATL_FAULT") == NULL || strcmp(getenv("ATL_FAULT"), "read:1") != 0) {
      fprintf(stderr, "key_guard order: run with ATL_FAULT=read:1\n");
      atl_context_free(ctx);
      return 1;
    }
    order(ctx);
  } else if (strcmp(group, "queue") == 0) {
    queue();
  } else {
    ops(ctx);
  }
  atl_context_free(ctx);
  return check_exit("key_guard");
}
