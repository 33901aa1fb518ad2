/*
 * libatomlab_cub.so: CUB baselines behind the C interface of atomlab_cub.h.
 * Built by nvcc for sm_80 and sm_90 with the CUDA runtime linked statically,
 * so the plugin needs nothing but the driver atomlab itself loads.
 */
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstdio>

#include "atomlab_cub.h"

namespace {

/* Records the failing call in why and returns -1. */
int fail(cudaError_t rc, const char *what, char *why, size_t why_len)
{
  std::snprintf(why, why_len, "cub plugin: %s failed: %s", what, cudaGetErrorString(rc));
  return -1;
}

#define CHECK(call)                                                                                                    \
  do {                                                                                                                 \
    cudaError_t rc_ = (call);                                                                                          \
    if (rc_ != cudaSuccess) {                                                                                          \
      err = fail(rc_, #call, why, why_len);                                                                            \
      goto out;                                                                                                        \
    }                                                                                                                  \
  } while (0)

/* 1 if container c sums above the limit: the same walk as atomlab's kernels. */
struct over_limit {
  const float *vals;
  unsigned long long containers;
  unsigned items;
  float limit;
  __device__ unsigned long long operator()(unsigned long long c) const
  {
    float sum = 0.0f;
    for (unsigned i = 0; i < items; i++)
      sum += vals[(unsigned long long)i * containers + c];
    return sum > limit ? 1ull : 0ull;
  }
};

/* A u32 key's bin: the remainder the u32 histogram of atomlab uses. */
struct key_mod {
  unsigned bins;
  __host__ __device__ unsigned operator()(unsigned key) const { return key % bins; }
};

/* Runs `algo(temp, temp_bytes)` once to size, once to warm up, then reps timed. */
template <typename Algo>
int timed(int device, Algo algo, unsigned reps, float *times_ms, char *why, size_t why_len)
{
  int err = 0;
  void *temp = nullptr;
  size_t temp_bytes = 0;
  cudaEvent_t start = nullptr, stop = nullptr;
  CHECK(cudaSetDevice(device));
  CHECK(algo(nullptr, temp_bytes));
  CHECK(cudaMalloc(&temp, temp_bytes ? temp_bytes : 16));
  CHECK(algo(temp, temp_bytes));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (unsigned r = 0; r < reps; r++) {
    CHECK(cudaEventRecord(start));
    CHECK(algo(temp, temp_bytes));
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaEventElapsedTime(&times_ms[r], start, stop));
  }
out:
  if (start)
    cudaEventDestroy(start);
  if (stop)
    cudaEventDestroy(stop);
  if (temp)
    cudaFree(temp);
  return err;
}

} // namespace

extern "C" int atl_cub_abi_version(char *info, size_t info_len)
{
  std::snprintf(info, info_len, "CUB %d.%d.%d", CUB_VERSION / 100000, CUB_VERSION / 100 % 1000, CUB_VERSION % 100);
  return ATL_CUB_ABI_VERSION;
}

extern "C" int atl_cub_count_if(int device, uint64_t vals, uint64_t containers, uint32_t items, float limit,
                                uint64_t out_count, unsigned reps, float *times_ms, char *why, size_t why_len)
{
  over_limit pred{reinterpret_cast<const float *>(vals), containers, items, limit};
  auto flags = thrust::make_transform_iterator(thrust::counting_iterator<unsigned long long>(0), pred);
  auto *out = reinterpret_cast<unsigned long long *>(out_count);
  auto algo = [&](void *temp, size_t &bytes) {
    return cub::DeviceReduce::Sum(temp, bytes, flags, out, (long long)containers);
  };
  return timed(device, algo, reps, times_ms, why, why_len);
}

extern "C" int atl_cub_sort_u32(int device, uint64_t keys_in, uint64_t keys_out, uint64_t n, unsigned reps,
                                float *times_ms, char *why, size_t why_len)
{
  auto *in = reinterpret_cast<const unsigned *>(keys_in);
  auto *out = reinterpret_cast<unsigned *>(keys_out);
  auto algo = [&](void *temp, size_t &bytes) {
    return cub::DeviceRadixSort::SortKeys(temp, bytes, in, out, (long long)n);
  };
  return timed(device, algo, reps, times_ms, why, why_len);
}

extern "C" int atl_cub_histogram_u8(int device, uint64_t samples, uint64_t n, uint64_t hist, unsigned reps,
                                    float *times_ms, char *why, size_t why_len)
{
  auto *in = reinterpret_cast<const unsigned char *>(samples);
  auto *bins = reinterpret_cast<unsigned *>(hist);
  auto algo = [&](void *temp, size_t &bytes) {
    return cub::DeviceHistogram::HistogramEven(temp, bytes, in, bins, 257, 0, 256, (long long)n);
  };
  return timed(device, algo, reps, times_ms, why, why_len);
}

extern "C" int atl_cub_histogram_rgba(int device, uint64_t samples, uint64_t pixels, uint64_t hist, unsigned reps,
                                      float *times_ms, char *why, size_t why_len)
{
  auto *in = reinterpret_cast<const unsigned char *>(samples);
  auto *bins = reinterpret_cast<unsigned *>(hist);
  ::cuda::std::array<unsigned *, 4> channels{bins, bins + 256, bins + 512, bins + 768};
  ::cuda::std::array<int, 4> levels{257, 257, 257, 257};
  ::cuda::std::array<int, 4> lower{0, 0, 0, 0}, upper{256, 256, 256, 256};
  auto algo = [&](void *temp, size_t &bytes) {
    return cub::DeviceHistogram::MultiHistogramEven<4, 4>(temp, bytes, in, channels, levels, lower, upper,
                                                          (long long)pixels);
  };
  return timed(device, algo, reps, times_ms, why, why_len);
}

extern "C" int atl_cub_histogram_u32(int device, uint64_t keys, uint64_t n, uint32_t bins, uint64_t hist,
                                     unsigned reps, float *times_ms, char *why, size_t why_len)
{
  /* CUB 3 dropped cub::TransformInputIterator; thrust's is the same fancy iterator. */
  auto in = thrust::make_transform_iterator(reinterpret_cast<const unsigned *>(keys), key_mod{bins});
  auto *out = reinterpret_cast<unsigned *>(hist);
  /* Float levels: with integer levels CUB computes every bin exactly as
   * (key * bins) / range in 64-bit integers, a 64-bit divide per key that
   * would make the baseline slower than CUB can be. With float levels the bin
   * is key * (bins / range) = key * 1.0f, exact for keys below 2^24. */
  const float lower = 0.0f, upper = (float)bins;
  auto algo = [&](void *temp, size_t &bytes) {
    return cub::DeviceHistogram::HistogramEven(temp, bytes, in, out, (int)bins + 1, lower, upper, (long long)n);
  };
  return timed(device, algo, reps, times_ms, why, why_len);
}

namespace {

/* A source row of 64 floats: ReduceByKey's value, summed column by column. */
constexpr unsigned ROW_D = 64;
struct row64 {
  float v[ROW_D];
};
struct row_sum {
  __device__ row64 operator()(const row64 &a, const row64 &b) const
  {
    row64 r;
    for (unsigned c = 0; c < ROW_D; c++)
      r.v[c] = a.v[c] + b.v[c];
    return r;
  }
};
/* The p-th row in key order: src[ids[p]] (a gather of 256 bytes). */
struct gather_row {
  const row64 *src;
  const unsigned *ids;
  __device__ row64 operator()(unsigned long long p) const { return src[ids[p]]; }
};

__global__ void iota_u32(unsigned *ids, unsigned long long n)
{
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
       i += (unsigned long long)gridDim.x * blockDim.x)
    ids[i] = (unsigned)i;
}

/* out[unique[r]] += sums[r], a thread per (run, column): each key is one run, so no two threads share an element. */
__global__ void add_runs(const unsigned *unique, const row64 *sums, const unsigned *runs, float *out)
{
  const unsigned long long n = (unsigned long long)*runs * ROW_D;
  for (unsigned long long t = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; t < n;
       t += (unsigned long long)gridDim.x * blockDim.x)
    out[(unsigned long long)unique[t / ROW_D] * ROW_D + t % ROW_D] += sums[t / ROW_D].v[t % ROW_D];
}

} // namespace

extern "C" int atl_cub_scatter_add_f32x64(int device, uint64_t src, uint64_t keys, uint64_t out, uint64_t rows,
                                          uint64_t targets, unsigned reps, float *times_ms, char *why, size_t why_len)
{
  int err = 0, bits = 0;
  void *temp = nullptr;
  size_t sort_bytes = 0, reduce_bytes = 0, out_bytes = targets * ROW_D * sizeof(float);
  unsigned *skeys = nullptr, *ids = nullptr, *sids = nullptr, *unique = nullptr, *runs = nullptr;
  row64 *sums = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  const unsigned long long most_runs = rows < targets ? rows : targets;
  const int grid = 4096;
  while (bits < 32 && ((targets - 1) >> bits))
    bits++;
  auto *in_keys = reinterpret_cast<const unsigned *>(keys);
  auto *dst = reinterpret_cast<float *>(out);
  auto *src_rows = reinterpret_cast<const row64 *>(src);
  CHECK(cudaSetDevice(device));
  CHECK(cudaMalloc(&skeys, rows * sizeof(unsigned)));
  CHECK(cudaMalloc(&ids, rows * sizeof(unsigned)));
  CHECK(cudaMalloc(&sids, rows * sizeof(unsigned)));
  CHECK(cudaMalloc(&unique, most_runs * sizeof(unsigned)));
  CHECK(cudaMalloc(&runs, sizeof(unsigned)));
  CHECK(cudaMalloc(&sums, most_runs * sizeof(row64)));
  {
    auto values = thrust::make_transform_iterator(thrust::counting_iterator<unsigned long long>(0),
                                                  gather_row{src_rows, sids});
    auto sort = [&](void *t, size_t &b) {
      return cub::DeviceRadixSort::SortPairs(t, b, in_keys, skeys, ids, sids, (long long)rows, 0, bits ? bits : 1);
    };
    auto reduce = [&](void *t, size_t &b) {
      return cub::DeviceReduce::ReduceByKey(t, b, skeys, unique, values, sums, runs, row_sum{}, (long long)rows);
    };
    CHECK(sort(nullptr, sort_bytes));
    CHECK(reduce(nullptr, reduce_bytes));
    CHECK(cudaMalloc(&temp, sort_bytes > reduce_bytes ? sort_bytes : reduce_bytes));
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    /* the warm-up, then reps timed: each from a zeroed output (untimed, as atomlab's rows), the row ids, the sort of
     * (key, row id), the sums of each key's rows, and their add to the output */
    for (unsigned r = 0; r <= reps; r++) {
      CHECK(cudaMemset(dst, 0, out_bytes));
      CHECK(cudaEventRecord(start));
      iota_u32<<<grid, 256>>>(ids, rows);
      CHECK(cudaGetLastError());
      CHECK(sort(temp, sort_bytes));
      CHECK(reduce(temp, reduce_bytes));
      add_runs<<<grid, 256>>>(unique, sums, runs, dst);
      CHECK(cudaGetLastError());
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      if (r > 0)
        CHECK(cudaEventElapsedTime(&times_ms[r - 1], start, stop));
    }
  }
out:
  if (start)
    cudaEventDestroy(start);
  if (stop)
    cudaEventDestroy(stop);
  cudaFree(temp);
  cudaFree(skeys);
  cudaFree(ids);
  cudaFree(sids);
  cudaFree(unique);
  cudaFree(runs);
  cudaFree(sums);
  return err;
}
