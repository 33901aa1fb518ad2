/*
 * NVML for the clocks a row records. Loaded with dlopen, as the driver is, so
 * the binary runs where libnvidia-ml is absent (then clocks are "unknown"
 * with the reason). The few entry points are declared here with NVML's
 * documented ABI (nvml.h: enums as int, handles as pointers), so the build
 * needs no NVML header. Handles are looked up once per bus id and kept: NVML
 * calls then cost microseconds, cheap enough between samples.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "atomlab.h"
#include "nvml.h"

typedef void *nvml_device;
enum { NVML_SUCCESS = 0, NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2, NVML_TEMPERATURE_GPU = 0 };

static struct {
  int state; /* 0 not tried, 1 loaded, -1 unavailable */
  char why[160];
  int (*init)(void);
  const char *(*error_string)(int);
  int (*by_pci)(const char *, nvml_device *);
  int (*clock)(nvml_device, int, unsigned *);
  int (*temperature)(nvml_device, int, unsigned *);
  int (*power)(nvml_device, unsigned *);
  int (*reasons)(nvml_device, unsigned long long *);
  int (*nvlink_state)(nvml_device, unsigned, int *); /* optional: only `atomlab devices` asks */
} nvml;
static pthread_mutex_t nvml_lock = PTHREAD_MUTEX_INITIALIZER;

static void load(void)
{
  void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  nvml.state = -1;
  if (lib == NULL) {
    snprintf(nvml.why, sizeof nvml.why, "clocks unknown: NVML (libnvidia-ml.so.1) not found");
    return;
  }
  *(void **)&nvml.init = dlsym(lib, "nvmlInit_v2");
  *(void **)&nvml.error_string = dlsym(lib, "nvmlErrorString");
  *(void **)&nvml.by_pci = dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
  *(void **)&nvml.clock = dlsym(lib, "nvmlDeviceGetClockInfo");
  *(void **)&nvml.temperature = dlsym(lib, "nvmlDeviceGetTemperature");
  *(void **)&nvml.power = dlsym(lib, "nvmlDeviceGetPowerUsage");
  /* "Clocks event reasons" is the newer name of the same call and bits. */
  *(void **)&nvml.reasons = dlsym(lib, "nvmlDeviceGetCurrentClocksEventReasons");
  if (nvml.reasons == NULL)
    *(void **)&nvml.reasons = dlsym(lib, "nvmlDeviceGetCurrentClocksThrottleReasons");
  *(void **)&nvml.nvlink_state = dlsym(lib, "nvmlDeviceGetNvLinkState");
  if (!nvml.init || !nvml.error_string || !nvml.by_pci || !nvml.clock || !nvml.temperature || !nvml.power ||
      !nvml.reasons) {
    snprintf(nvml.why, sizeof nvml.why, "clocks unknown: libnvidia-ml.so.1 lacks an entry point");
    return;
  }
  int rc = nvml.init();
  if (rc != NVML_SUCCESS) {
    snprintf(nvml.why, sizeof nvml.why, "clocks unknown: nvmlInit failed: %s", nvml.error_string(rc));
    return;
  }
  nvml.state = 1;
}

/* The handles looked up so far, by bus id. */
static struct {
  char bus[32];
  nvml_device handle;
} handles[16];
static size_t nhandles;

static int handle_of(const char *bus, nvml_device *out, char *why, size_t why_len)
{
  for (size_t i = 0; i < nhandles; i++)
    if (strcmp(handles[i].bus, bus) == 0) {
      *out = handles[i].handle;
      return 0;
    }
  int rc = nvml.by_pci(bus, out);
  if (rc != NVML_SUCCESS) {
    snprintf(why, why_len, "clocks unknown: NVML has no GPU at %s: %s", bus, nvml.error_string(rc));
    return ATL_ENOTSUP;
  }
  if (nhandles < sizeof handles / sizeof handles[0]) {
    snprintf(handles[nhandles].bus, sizeof handles[nhandles].bus, "%s", bus);
    handles[nhandles++].handle = *out;
  }
  return 0;
}

int atl__nvml_clocks(const char *pci_bus_id, struct atl_clocks *out, char *why, size_t why_len)
{
  nvml_device dev;
  unsigned sm = 0, mem = 0, temp = 0, mw = 0;
  unsigned long long reasons = 0;
  memset(out, 0, sizeof *out);
  pthread_mutex_lock(&nvml_lock); /* one worker per device may ask at once */
  if (nvml.state == 0)
    load();
  int err = nvml.state == 1 ? handle_of(pci_bus_id, &dev, why, why_len) : ATL_ENOTSUP;
  if (nvml.state != 1)
    snprintf(why, why_len, "%s", nvml.why);
  if (!err && (nvml.clock(dev, NVML_CLOCK_SM, &sm) != NVML_SUCCESS || nvml.clock(dev, NVML_CLOCK_MEM, &mem) ||
               nvml.reasons(dev, &reasons) != NVML_SUCCESS)) {
    snprintf(why, why_len, "clocks unknown: NVML could not read the clocks of %s", pci_bus_id);
    err = ATL_ENOTSUP;
  }
  /* Temperature and power are extras: a board that hides them still has its clocks recorded. */
  if (!err) {
    nvml.temperature(dev, NVML_TEMPERATURE_GPU, &temp);
    nvml.power(dev, &mw);
  }
  pthread_mutex_unlock(&nvml_lock);
  if (err)
    return err;
  out->sm_mhz = sm;
  out->mem_mhz = mem;
  out->temperature_c = temp;
  out->power_w = mw / 1000.0;
  out->reasons = reasons;
  return 0;
}

/* NVML_NVLINK_MAX_LINKS of nvml.h (18 on Hopper); a link past the GPU's last answers an error. */
#define NVLINK_MAX_LINKS 18

int atl__nvml_nvlinks(const char *pci_bus_id, unsigned *active, char *why, size_t why_len)
{
  nvml_device dev;
  *active = 0;
  pthread_mutex_lock(&nvml_lock);
  if (nvml.state == 0)
    load();
  int err = nvml.state == 1 ? handle_of(pci_bus_id, &dev, why, why_len) : ATL_ENOTSUP;
  if (nvml.state != 1)
    snprintf(why, why_len, "%s", nvml.why);
  if (!err && nvml.nvlink_state == NULL) {
    snprintf(why, why_len, "NVML lacks nvmlDeviceGetNvLinkState");
    err = ATL_ENOTSUP;
  }
  for (unsigned link = 0; !err && link < NVLINK_MAX_LINKS; link++) {
    int on = 0;
    if (nvml.nvlink_state(dev, link, &on) == NVML_SUCCESS && on)
      (*active)++;
  }
  pthread_mutex_unlock(&nvml_lock);
  return err;
}
