//===- DriverApi.h - The subset of the CUDA Driver API we use ----*- C++
//-*-===//
//
// Types, constants and prototypes of the CUDA Driver API as documented in
// cuda.h, declared here so that the runtime builds without the CUDA toolkit.
// libcuda is opened with dlopen at run time and its entry points resolved by
// their exported (versioned) names. Private to the runtime.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_LIB_DRIVERAPI_H
#define TILE_LIB_DRIVERAPI_H

#include <cstddef>
#include <string>

namespace tile {
namespace cu {

using CUresult = int; ///< CUDA_SUCCESS is 0.
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUjit_option = int;
using CUfunction_attribute = int;
using CUdevice_attribute = int;

constexpr CUresult CUDA_SUCCESS = 0;

constexpr CUjit_option CU_JIT_INFO_LOG_BUFFER = 3;
constexpr CUjit_option CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4;
constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;

constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0;
constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3;
constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_NUM_REGS = 4;
constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES =
    8;

constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr CUdevice_attribute
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;

/// cuTensorMapEncodeTiled's enumerations (CUDA 12's cuda.h values).
constexpr int CU_TENSOR_MAP_DATA_TYPE_UINT8 = 0;
constexpr int CU_TENSOR_MAP_DATA_TYPE_UINT16 = 1;
constexpr int CU_TENSOR_MAP_DATA_TYPE_INT32 = 3;
constexpr int CU_TENSOR_MAP_DATA_TYPE_INT64 = 5;
constexpr int CU_TENSOR_MAP_DATA_TYPE_FLOAT16 = 6;
constexpr int CU_TENSOR_MAP_DATA_TYPE_FLOAT32 = 7;
constexpr int CU_TENSOR_MAP_DATA_TYPE_FLOAT64 = 8;
constexpr int CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 = 9;
constexpr int CU_TENSOR_MAP_INTERLEAVE_NONE = 0;
constexpr int CU_TENSOR_MAP_SWIZZLE_NONE = 0; ///< 32B, 64B, 128B: 1, 2, 3.
constexpr int CU_TENSOR_MAP_L2_PROMOTION_L2_128B = 2;
constexpr int CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE = 0;

constexpr unsigned CU_STREAM_NON_BLOCKING = 1;
constexpr unsigned CU_EVENT_DEFAULT = 0;

/// Entry points of libcuda, resolved with dlsym.
struct DriverApi {
  CUresult (*cuInit)(unsigned Flags);
  CUresult (*cuGetErrorName)(CUresult Error, const char **Str);
  CUresult (*cuGetErrorString)(CUresult Error, const char **Str);
  CUresult (*cuDeviceGet)(CUdevice *Device, int Ordinal);
  CUresult (*cuDeviceGetCount)(int *Count);
  CUresult (*cuDeviceGetName)(char *Name, int Len, CUdevice Device);
  CUresult (*cuDeviceGetAttribute)(int *Value, CUdevice_attribute Attr,
                                   CUdevice Device);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *Ctx, CUdevice Device);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice Device); // _v2
  CUresult (*cuCtxSetCurrent)(CUcontext Ctx);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuMemAlloc)(CUdeviceptr *Ptr, std::size_t Bytes); // _v2
  CUresult (*cuMemFree)(CUdeviceptr Ptr);                      // _v2
  CUresult (*cuMemcpyHtoD)(CUdeviceptr Dst, const void *Src,
                           std::size_t Bytes); // _v2
  CUresult (*cuMemcpyDtoH)(void *Dst, CUdeviceptr Src,
                           std::size_t Bytes); // _v2
  CUresult (*cuMemsetD8)(CUdeviceptr Dst, unsigned char Value,
                         std::size_t Count); // _v2
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr Dst, const void *Src, std::size_t Bytes,
                                CUstream Stream); // _v2
  CUresult (*cuMemcpyDtoHAsync)(void *Dst, CUdeviceptr Src, std::size_t Bytes,
                                CUstream Stream); // _v2
  CUresult (*cuMemHostAlloc)(void **Ptr, std::size_t Bytes, unsigned Flags);
  CUresult (*cuMemFreeHost)(void *Ptr);
  CUresult (*cuMemcpyDtoD)(CUdeviceptr Dst, CUdeviceptr Src,
                           std::size_t Bytes); // _v2
  CUresult (*cuMemGetAddressRange)(CUdeviceptr *Base, std::size_t *Size,
                                   CUdeviceptr Ptr); // _v2
  CUresult (*cuModuleLoadDataEx)(CUmodule *Module, const void *Image,
                                 unsigned NumOptions, CUjit_option *Options,
                                 void **OptionValues);
  CUresult (*cuModuleUnload)(CUmodule Module);
  CUresult (*cuModuleGetFunction)(CUfunction *Function, CUmodule Module,
                                  const char *Name);
  CUresult (*cuFuncGetAttribute)(int *Value, CUfunction_attribute Attr,
                                 CUfunction Function);
  CUresult (*cuFuncSetAttribute)(CUfunction Function, CUfunction_attribute Attr,
                                 int Value);
  CUresult (*cuLaunchKernel)(CUfunction Function, unsigned GridX,
                             unsigned GridY, unsigned GridZ, unsigned BlockX,
                             unsigned BlockY, unsigned BlockZ,
                             unsigned SharedBytes, CUstream Stream,
                             void **Params, void **Extra);
  CUresult (*cuStreamCreate)(CUstream *Stream, unsigned Flags);
  CUresult (*cuStreamDestroy)(CUstream Stream); // _v2
  CUresult (*cuStreamSynchronize)(CUstream Stream);
  CUresult (*cuEventCreate)(CUevent *Event, unsigned Flags);
  CUresult (*cuEventRecord)(CUevent Event, CUstream Stream);
  CUresult (*cuEventSynchronize)(CUevent Event);
  CUresult (*cuEventElapsedTime)(float *Ms, CUevent Start,
                                 CUevent End); // _v2 where exported
  CUresult (*cuEventDestroy)(CUevent Event);   // _v2
  CUresult (*cuStreamWaitEvent)(CUstream Stream, CUevent Event, unsigned Flags);
  /// CUDA 12.4 and later; nullptr with an older driver (optional).
  CUresult (*cuFuncGetParamInfo)(CUfunction Function, std::size_t Index,
                                 std::size_t *Offset, std::size_t *Size) = nullptr;
  /// CUDA 12.0 and later; nullptr with an older driver (optional). Encodes
  /// the 128-byte CUtensorMap \p Map.
  CUresult (*cuTensorMapEncodeTiled)(void *Map, int DataType, unsigned Rank,
                                     void *GlobalAddress, const unsigned long long *GlobalDim,
                                     const unsigned long long *GlobalStrides,
                                     const unsigned *BoxDim, const unsigned *ElementStrides,
                                     int Interleave, int Swizzle, int L2Promotion,
                                     int OobFill) = nullptr;
  /// CUDA 11.2 and later; nullptr with an older driver (optional). The
  /// global scratch of kernels that build tensor maps, in stream order.
  CUresult (*cuMemAllocAsync)(CUdeviceptr *Ptr, std::size_t Bytes, CUstream Stream) = nullptr;
  CUresult (*cuMemFreeAsync)(CUdeviceptr Ptr, CUstream Stream) = nullptr;
};

/// Returns the driver, loaded and initialized on first use; throws
/// tile::Error saying why when no GPU can be used.
const DriverApi &driver();

/// Returns the driver, or nullptr with the reason in \p Reason. Never throws.
const DriverApi *tryDriver(std::string *Reason) noexcept;

/// Returns "CUDA_ERROR_X (description)" for \p Result, asking \p Api.
std::string errorText(const DriverApi &Api, CUresult Result);

/// Throws tile::Error "Call failed: CUDA_ERROR_X (description)", followed by
/// \p Detail on its own line when not empty.
[[noreturn]] void fail(CUresult Result, const char *Call,
                       const std::string &Detail = {});

/// Throws as fail() does unless \p Result is CUDA_SUCCESS.
inline void check(CUresult Result, const char *Call) {
  if (Result != CUDA_SUCCESS)
    fail(Result, Call);
}

} // namespace cu
} // namespace tile

#endif // TILE_LIB_DRIVERAPI_H
