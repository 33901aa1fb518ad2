/*
 * The C interface of the optional CUB plugin (libatomlab_cub.so): NVIDIA's
 * device-wide algorithms as in-run baselines. CUB and thrust are C++
 * templates with no C API, so this is the one C++ file of atomlab, built by
 * nvcc when the toolkit is found and loaded with dlopen() at run time.
 *
 * Interop: atomlab's CUDA backend works in the device's primary context, and
 * the CUDA runtime inside the plugin uses the same primary context, so device
 * pointers (CUdeviceptr values, passed as uint64_t) are valid on both sides.
 * Every function runs the algorithm once untimed (warm-up, temporary storage
 * allocated once outside the timed region), then @p reps timed runs with
 * CUDA events, and returns 0 or a negative code with a reason in @p why.
 */
#ifndef ATOMLAB_CUB_H
#define ATOMLAB_CUB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Bumped on any change below; the loader refuses a plugin of another version. */
#define ATL_CUB_ABI_VERSION 3 /* 2: atl_cub_histogram_rgba and atl_cub_histogram_u32; 3: atl_cub_scatter_add_f32x64 */

/** The plugin's ABI version, and its CUB version in @p info. */
int atl_cub_abi_version(char *info, size_t info_len);

/**
 * Counts the containers whose sum of floats exceeds @p limit: vals holds
 * `items` floats per container, item-major (value i of container c at
 * vals[i * containers + c]). cub::DeviceReduce::Sum over a transform
 * iterator; the count (u64) is left in @p out_count.
 */
int atl_cub_count_if(int device, uint64_t vals, uint64_t containers, uint32_t items, float limit, uint64_t out_count,
                     unsigned reps, float *times_ms, char *why, size_t why_len);

/** cub::DeviceRadixSort::SortKeys of @p n u32 keys from keys_in into keys_out. */
int atl_cub_sort_u32(int device, uint64_t keys_in, uint64_t keys_out, uint64_t n, unsigned reps, float *times_ms,
                     char *why, size_t why_len);

/** cub::DeviceHistogram::HistogramEven of @p n bytes into 256 u32 bins (levels 0..256). */
int atl_cub_histogram_u8(int device, uint64_t samples, uint64_t n, uint64_t hist, unsigned reps, float *times_ms,
                         char *why, size_t why_len);

/**
 * cub::DeviceHistogram::MultiHistogramEven<4, 4> of @p pixels RGBA pixels
 * (4 interleaved bytes each) into 4 x 256 u32 bins, channel-major (channel c,
 * byte b at hist[c * 256 + b]): the layout of atomlab's rgba histograms.
 */
int atl_cub_histogram_rgba(int device, uint64_t samples, uint64_t pixels, uint64_t hist, unsigned reps,
                           float *times_ms, char *why, size_t why_len);

/**
 * cub::DeviceHistogram::HistogramEven of @p n u32 keys into @p bins u32 bins
 * with bin = key % bins: the keys go through a transform iterator that
 * takes the remainder, then into levels 0..bins (bins + 1 float levels:
 * one multiply per key where integer levels cost a 64-bit divide).
 */
int atl_cub_histogram_u32(int device, uint64_t keys, uint64_t n, uint32_t bins, uint64_t hist, unsigned reps,
                          float *times_ms, char *why, size_t why_len);

/**
 * The scatter-add out[keys[i]][:] += src[i][:] of @p rows f32 rows of 64 columns into @p targets rows, as CUB
 * does it: cub::DeviceRadixSort::SortPairs of (key, row id) over the keys' significant bits, then
 * cub::DeviceReduce::ReduceByKey of the rows gathered in key order (a row of 64 floats is the value, summed
 * column by column), then a kernel adding each key's sum to its output row. Each timed run starts from a zeroed
 * output (the zeroing untimed) and includes the row ids' fill; scratch of about 16 bytes a row plus
 * min(rows, targets) x 256 bytes is allocated outside the timing. The last run's sums are left in @p out.
 */
int atl_cub_scatter_add_f32x64(int device, uint64_t src, uint64_t keys, uint64_t out, uint64_t rows, uint64_t targets,
                               unsigned reps, float *times_ms, char *why, size_t why_len);

#ifdef __cplusplus
}
#endif
#endif
