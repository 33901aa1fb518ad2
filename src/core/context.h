/* Internal: the context body and the helpers the core shares. */
#ifndef ATOMLAB_CORE_CONTEXT_H
#define ATOMLAB_CORE_CONTEXT_H

#include "atomlab.h"
#include "atomlab/backend.h"

#define ATL__MAX_BACKENDS 4
#define ATL__DEVICE_BUFFER_SLOTS 16
#define ATL__HOST_WORDS 16 /* the 32-bit words of atl__host_words */

/* A buffer of atl_buffer_new (include/atomlab/scatter.h): the backend's handle, on its context's list while the
 * device it was allocated on is open. The device's close releases the handle and takes it off (handle NULL):
 * a call given it then is refused by name, and atl_buffer_free frees only the struct. */
struct atl_buffer {
  void *handle;
  size_t bytes;
  atl_context_t ctx;    /* the context and device (its ctx->opened) the buffer was allocated on */
  unsigned long opened;
  struct atl_buffer *prev, *next;
  int wrapped; /* over a program's memory (atl_buffer_wrap_*): its handle released, the memory never freed */
  /* The writes into it through atomlab (atl_buffer_write, an op's out), and the scatter pick's shares of its keys
   * measured after the write they name (src/apps/scatter_lib.c): kept until the next write, never for a wrapped
   * buffer, whose memory the program writes without atomlab */
  unsigned long writes;
  struct atl__key_shares {
    int valid;
    unsigned long writes;
    uint64_t rows;
    unsigned index_bytes;
    double run, head;
  } shares;
};

struct atl_context {
  char errmsg[2048];
  char notes[1024];
  struct atl_backend_ops backends[ATL__MAX_BACKENDS];
  size_t nbackends;
  int probed;
  struct atl_device_info *devices;
  size_t *device_backend; /* index into backends[] for each device */
  size_t ndevices;
  const struct atl_backend_ops *ops; /* the open device's backend (through fault injection) */
  struct atl_backend_ops wrapped;    /* ops as the core calls them: see fault.c */
  void *dev;                         /* the open device's handle */
  unsigned long opened;              /* devices opened so far: a buffer of an earlier one names another number */
  struct atl_buffer *buffers;        /* the open device's buffers of atl_buffer_new */
  struct atl_device_info current;
  /* Host buffers reused from row to row: a sweep's large arrays would
   * otherwise be mapped, faulted in and unmapped again for every row. */
  struct atl__scratch {
    void *ptr;
    size_t cap;
  } scratch_words, scratch_hits;
  /* Device buffers reused the same way, by slot, until the device closes:
   * allocating (and, in OpenCL, touching) a large array per row costs more
   * than the row's own measurement. */
  struct atl__scratch device_buffers[ATL__DEVICE_BUFFER_SLOTS];
  /* A device over a program's own objects (atl_context_from_cuda / _from_opencl): launches do not wait. */
  int external;
  /* Where not 0, the next slot atl__app_alloc takes its buffer from (kept for the next call, never freed by
   * atl__app_free_all): the library's operations keep their scratch in the context this way. */
  unsigned app_slot;
  /* Where set, what atl_context_finish reports after its wait: the error an operation enqueued on a program's stream
   * or queue recorded on the device (the scatter library's bad key: src/apps/scatter_guard.c). */
  int (*finish_check)(atl_context_t ctx);
  /* Which of the scatter pick's two count tables its next sample counts into (src/apps/scatter_lib.c). */
  unsigned shares_turn;
  /* atl__host_words' pinned host memory, until the device closes */
  struct {
    void *buf, *host;
  } host_words;
};

/* A device buffer of at least @p bytes in @p slot (< ATL__DEVICE_BUFFER_SLOTS):
 * reused while large enough, else freed and allocated anew. */
int atl__device_buffer(atl_context_t ctx, unsigned slot, size_t bytes, void **buf);
/* ATL__HOST_WORDS words of pinned host memory that kernels write through @p buf and the host reads through @p host
 * once the launches that wrote them are done: a kernel's result without a copy back (a copy of a few bytes costs its
 * own round trip on the device); both NULL where the backend has none (backend.h's host_alloc), the device's own
 * buffers then. Kept until the device closes. */
int atl__host_words(atl_context_t ctx, void **buf, volatile uint32_t **host);
/* atl_occupancy_discover with @p launch work-groups (0: its own choice, twice the estimate) and @p defines for the
 * discovery kernel's build (the Vulkan twin's DISCOVERY_MODE=N, 0 the protocol as discovery.k.c has it; "" each backend's default): the
 * diagnostic tests/unit/occupancy_probe.c; @p extra (or NULL) receives the state buffer's diagnostic words
 * (discovery.comp's modes 8 and 16 fill them). */
#define ATL_OCCUPANCY_EXTRA_WORDS 5
int atl__occupancy_probe(atl_context_t ctx, unsigned wg_size, unsigned launch, const char *defines,
                         struct atl_occupancy *out, uint32_t extra[ATL_OCCUPANCY_EXTRA_WORDS]);

/* Frees every reused device buffer and the handles of the caller's (before the device closes). */
void atl__device_buffers_release(atl_context_t ctx);

/* The checks rmw and strategy share: a device open (else ATL_ENODEV) and a grid of @p workgroups of @p wg
 * work-items it runs, at most @p max_threads in all (else ATL_EINVAL naming the parameter in @p why); 0 if so. */
int atl__grid_check(const struct atl_device_info *dev, uint32_t wg, uint32_t workgroups, uint64_t max_threads,
                    char *why, size_t why_len);

/* Frees those of the @p n device buffers in @p bufs that were allocated (not NULL) on the open device. */
void atl__device_free_all(atl_context_t ctx, void *const *bufs, size_t n);

/* A buffer of at least @p bytes from @p s (grown as needed, kept for the next
 * caller); NULL if out of memory. Its contents are undefined. */
void *atl__scratch(struct atl__scratch *s, size_t bytes);

/* Wraps @p real for the fault plan in ATL_FAULT (a copy of it when unset). */
int atl__fault_wrap(atl_context_t ctx, const struct atl_backend_ops *real, struct atl_backend_ops *wrapped);

/* Counts an output file written; 1 if ATL_FAULT=file:N says this one fails (as on a full disk). */
int atl__fault_file(void);

/* The open device's ops and handle; NULL if no device is open. */
static inline const struct atl_backend_ops *atl__ops(atl_context_t ctx) { return ctx->ops; }
static inline void *atl__dev(atl_context_t ctx) { return ctx->dev; }

#endif
