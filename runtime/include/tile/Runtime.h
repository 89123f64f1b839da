//===- Runtime.h - The tile runtime, all of it -------------------*- C++
//-*-===//
//
// Umbrella header: include this to load tilec's PTX and launch its kernels
// through the CUDA Driver API (loaded at run time; no CUDA toolkit needed).
//
//===----------------------------------------------------------------------===//
#ifndef TILE_RUNTIME_H
#define TILE_RUNTIME_H

#include "tile/Args.h"
#include "tile/Buffer.h"
#include "tile/Context.h"
#include "tile/Error.h"
#include "tile/Half.h"
#include "tile/Kernel.h"
#include "tile/Metadata.h"
#include "tile/Module.h"
#include "tile/Paths.h"
#include "tile/Signature.h"
#include "tile/Stream.h"
#include "tile/Types.h"

#endif // TILE_RUNTIME_H
