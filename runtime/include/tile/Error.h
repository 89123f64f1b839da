//===- Error.h - The exception type of the tile runtime ----------*- C++
//-*-===//
//
// Every failure in the runtime (a CUDA driver call, a malformed metadata file,
// a wrong kernel argument) is reported as a tile::Error.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_ERROR_H
#define TILE_ERROR_H

#include <stdexcept>
#include <string>

namespace tile {

/// An error raised by the runtime. For a failed driver call the message names
/// the call and the CUDA error, e.g. "cuModuleLoadDataEx failed:
/// CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)", and cudaResult()
/// holds the CUresult; for every other error cudaResult() is 0.
class Error : public std::runtime_error {
public:
  /// Creates an error with \p Message and the driver's result code, if any.
  explicit Error(const std::string &Message, int CudaResult = 0)
      : std::runtime_error(Message), Result(CudaResult) {}

  /// The CUresult of the failed driver call, or 0 when no driver call failed.
  int cudaResult() const noexcept { return Result; }

private:
  int Result;
};

} // namespace tile

#endif // TILE_ERROR_H
