/* Runs tickets.cl (an OpenCL kernel over atomlab's device headers) on the
 * first OpenCL device and checks the tickets: every work-item that wanted one
 * holds a distinct ticket, 0 .. count-1, and the counter ends at count.
 * Usage: opencl_tickets KERNEL.cl INCLUDE_DIR */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4096
#define WG 64

static char *slurp(const char *path)
{
  FILE *f = fopen(path, "rb");
  char *text = f ? calloc(1, 1 << 20) : NULL;
  if (text)
    fread(text, 1, (1 << 20) - 1, f);
  if (f)
    fclose(f);
  return text;
}

int main(int argc, char **argv)
{
  if (argc != 3) {
    fprintf(stderr, "usage: %s KERNEL.cl INCLUDE_DIR\n", argv[0]);
    return 2;
  }
  char *src = slurp(argv[1]), options[4200], log[8192] = "";
  snprintf(options, sizeof options, "-I %s", argv[2]);
  cl_platform_id platform;
  cl_device_id dev;
  cl_int err = clGetPlatformIDs(1, &platform, NULL);
  err |= clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL);
  if (src == NULL || err != CL_SUCCESS) {
    fprintf(stderr, "error: no kernel source or no OpenCL device\n");
    return 1;
  }
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
  cl_program prog = clCreateProgramWithSource(ctx, 1, (const char **)&src, NULL, &err);
  if (clBuildProgram(prog, 1, &dev, options, NULL, NULL) != CL_SUCCESS) {
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
    fprintf(stderr, "error: build failed:\n%s\n", log);
    return 1;
  }
  cl_kernel k = clCreateKernel(prog, "tickets", &err);
  static int want[N];
  static cl_uint out[N], seen[N];
  cl_uint zero = 0, counter = 0, wanted = 0;
  for (int i = 0; i < N; i++)
    wanted += (cl_uint)(want[i] = i % 3 != 0);
  cl_mem d_counter = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, &zero, &err);
  cl_mem d_out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof out, NULL, &err);
  cl_mem d_want = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof want, want, &err);
  clSetKernelArg(k, 0, sizeof d_counter, &d_counter);
  clSetKernelArg(k, 1, sizeof d_out, &d_out);
  clSetKernelArg(k, 2, sizeof d_want, &d_want);
  size_t global = N, local = WG;
  err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
  err |= clEnqueueReadBuffer(q, d_counter, CL_TRUE, 0, sizeof counter, &counter, 0, NULL, NULL);
  err |= clEnqueueReadBuffer(q, d_out, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
  int bad = err != CL_SUCCESS || counter != wanted;
  for (int i = 0; i < N && !bad; i++)
    bad = want[i] ? out[i] >= wanted || seen[out[i]]++ : out[i] != 0xffffffffu;
  printf("tickets: %u work-items wanted one, counter %u, %s\n", wanted, counter, bad ? "WRONG" : "all distinct");
  clReleaseMemObject(d_counter);
  clReleaseMemObject(d_out);
  clReleaseMemObject(d_want);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  free(src);
  return bad;
}
