//===- PtxCheck.cpp - Checking metadata against its PTX -------------------===//
//
// ModuleMetadata::checkPtx and ptxHash: before a module is loaded, the
// metadata must describe the PTX beside it (kernels, parameters, block size,
// shared memory) and carry its hash, so that a stale, edited or swapped file
// is an error naming both files instead of garbage passed to the driver.
// checkCubin: a cubin is checked by its hash alone (it was assembled from
// the PTX the same compilation checked).
//
//===----------------------------------------------------------------------===//
#include "tile/Metadata.h"

#include "PtxScan.h"
#include "tile/Error.h"

#include <cstdio>

namespace tile {

namespace {

/// Throws the error for one difference between the two files.
class Mismatch {
public:
  Mismatch(const std::string &PtxOrigin, const std::string &JsonOrigin)
      : Prefix(PtxOrigin + " does not match its metadata " + JsonOrigin +
               ": ") {}

  [[noreturn]] void operator()(const std::string &What) const {
    throw Error(Prefix + What);
  }

private:
  std::string Prefix;
};

/// Why a PTX parameter cannot hold a value of \p Type; empty when it can.
/// Sizes must agree; an array of bit types is raw bytes (NVPTX passes fp16
/// and bf16 as `.b8 p[2]`); otherwise a pointer needs a 64-bit integer, a
/// float a float or bit type, an integer an integer or bit type.
std::string paramMismatch(const TileType &Type, const ptx::Param &P) {
  if (P.ElemBytes == 0)
    return "no type the runtime knows";
  if (P.bytes() != Type.paramSize())
    return std::to_string(P.bytes()) + " bytes instead of " +
           std::to_string(Type.paramSize());
  char Kind = P.Type[1];
  if (P.Count != 1)
    return Kind == 'b' ? "" : "an array";
  if (Type.IsPointer)
    return Kind == 'u' || Kind == 's' || Kind == 'b' ? "" : "not an address";
  if (P.IsPointer)
    return "a pointer";
  bool IsFloat = Type.Elem == ScalarKind::FP8E4M3 || Type.Elem == ScalarKind::FP8E5M2 ||
                 Type.Elem == ScalarKind::FP16 ||
                 Type.Elem == ScalarKind::BF16 ||
                 Type.Elem == ScalarKind::FP32 || Type.Elem == ScalarKind::FP64;
  if (IsFloat ? (Kind == 'f' || Kind == 'b') : (Kind != 'f'))
    return "";
  return IsFloat ? "an integer" : "a float";
}

std::string dimsText(const ptx::ThreadDims &D) {
  return std::to_string(D[0]) + ", " + std::to_string(D[1]) + ", " +
         std::to_string(D[2]);
}

void checkParams(const KernelInfo &K, const ptx::Function &F,
                 const Mismatch &Fail) {
  // The global scratch, when the kernel takes one: a last 64-bit pointer.
  std::size_t Scratch = K.GlobalScratchBytes ? 1 : 0;
  if (F.Params.size() != K.Params.size() + Scratch)
    Fail("kernel " + K.Name + " has " + std::to_string(K.Params.size()) +
         " parameters in the metadata (" + K.paramList() + ")" +
         (Scratch ? " and its global scratch" : "") + " but " +
         std::to_string(F.Params.size()) + " in the PTX");
  if (Scratch && F.Params.back().bytes() != 8)
    Fail("the last parameter of kernel " + K.Name + " is its global scratch (" +
         std::to_string(K.GlobalScratchBytes) +
         " bytes per program in the metadata), but '.param " + F.Params.back().Text +
         "' in the PTX (not 8 bytes)");
  for (std::size_t I = 0; I < K.Params.size(); ++I) {
    const ParamInfo &Want = K.Params[I];
    const ptx::Param &Have = F.Params[I];
    // A tensor map: 128 raw bytes (.b8 p[128]).
    std::string Why =
        Want.TensorMap
            ? (Have.bytes() == Want.paramBytes() && Have.Type[1] == 'b' ? "" : "not 128 bytes")
            : paramMismatch(Want.Type, Have);
    if (!Why.empty())
      Fail("parameter " + std::to_string(I + 1) + " '" + Want.Name +
           "' of kernel " + K.Name + " is " + Want.typeName() +
           " in the metadata, but '.param " + F.Params[I].Text +
           "' in the PTX (" + Why + ")");
  }
}

void checkThreads(const KernelInfo &K, const ptx::Function &F,
                  const Mismatch &Fail) {
  std::uint64_t Threads = std::uint64_t(K.NumWarps) * 32;
  const char *Directive = F.Reqntid ? ".reqntid" : ".maxntid";
  const std::optional<ptx::ThreadDims> &Dims =
      F.Reqntid ? F.Reqntid : F.Maxntid;
  if (!Dims)
    Fail("kernel " + K.Name + " has num_warps " + std::to_string(K.NumWarps) +
         " in the metadata, but its .entry states neither .reqntid nor "
         ".maxntid to check it against (tilec writes .reqntid on every "
         "kernel)");
  if (*Dims != ptx::ThreadDims{Threads, 1, 1})
    Fail("kernel " + K.Name + " has num_warps " + std::to_string(K.NumWarps) +
         " (" + std::to_string(Threads) + " threads) in the metadata, but " +
         Directive + " " + dimsText(*Dims) + " in the PTX");
}

/// The `.shared` variables \p Entry uses, directly or through the functions
/// it calls.
std::vector<const ptx::SharedVar *> sharedUsedBy(const ptx::Module &M,
                                                 const ptx::Function &Entry) {
  std::vector<const ptx::SharedVar *> Used;
  std::vector<const ptx::Function *> Work{&Entry};
  std::set<std::string> Seen{Entry.Name};
  while (!Work.empty()) {
    const ptx::Function *F = Work.back();
    Work.pop_back();
    for (const ptx::SharedVar &V : F->Local)
      Used.push_back(&V);
    for (const std::string &Ref : F->Refs) {
      for (const ptx::SharedVar &V : M.Shared)
        if (V.Name == Ref)
          Used.push_back(&V);
      const ptx::Function *Callee = M.findDefinition(Ref);
      if (Callee && Seen.insert(Ref).second)
        Work.push_back(Callee);
    }
  }
  return Used;
}

void checkShared(const KernelInfo &K, const ptx::Module &M,
                 const ptx::Function &F, const Mismatch &Fail) {
  std::uint64_t StaticBytes = 0;
  const ptx::SharedVar *Dynamic = nullptr;
  for (const ptx::SharedVar *V : sharedUsedBy(M, F)) {
    if (V->Bytes)
      StaticBytes += *V->Bytes;
    else
      Dynamic = V;
  }
  if (StaticBytes > K.SharedBytes)
    Fail("kernel " + K.Name + " uses " + std::to_string(StaticBytes) +
         " bytes of static .shared memory in the PTX, but its shared_bytes "
         "in the metadata is " +
         std::to_string(K.SharedBytes));
  if (Dynamic && K.SharedBytes == 0)
    Fail("kernel " + K.Name + " uses the dynamic .shared array '" +
         Dynamic->Name +
         "' in the PTX, but its shared_bytes in the metadata is 0");
}

std::string entryNames(const ptx::Module &M) {
  std::string Out;
  for (const ptx::Function &F : M.Functions)
    if (F.IsEntry)
      Out += (Out.empty() ? "" : ", ") + F.Name;
  return Out.empty() ? "none" : Out;
}

} // namespace

std::string ptxHash(std::string_view Ptx) {
  std::uint64_t Hash = 0xcbf29ce484222325ull;
  for (unsigned char C : Ptx) {
    Hash ^= C;
    Hash *= 0x100000001b3ull;
  }
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "fnv1a64:%016llx",
                static_cast<unsigned long long>(Hash));
  return Buf;
}

bool isCubin(std::string_view Image) noexcept {
  return Image.size() >= 4 && Image.substr(0, 4) == std::string_view("\x7f" "ELF", 4);
}

void ModuleMetadata::checkCubin(std::string_view Cubin,
                                const std::string &CubinOrigin) const {
  Mismatch Fail(CubinOrigin, Origin);
  if (!isCubin(Cubin))
    Fail("it is not a cubin (an ELF file, as tilec --emit=cubin writes)");
  if (CubinHash.empty())
    Fail("the metadata records no cubin_hash: it was written with the PTX, "
         "not with this cubin (tilec --emit=cubin writes both)");
  std::string Actual = ptxHash(Cubin);
  if (Actual != CubinHash)
    Fail("the cubin's hash is " + Actual + ", but the metadata records " +
         CubinHash + " (the cubin was changed or replaced after tilec wrote both)");
}

void ModuleMetadata::checkPtx(std::string_view Ptx,
                              const std::string &PtxOrigin) const {
  if (PtxHash.empty())
    throw Error(Origin + " has no ptx_hash, so it cannot be checked against " +
                PtxOrigin + "; it was written by an older tilec: compile " +
                Source + " again to write both files");
  Mismatch Fail(PtxOrigin, Origin);
  ptx::Module M;
  try {
    M = ptx::scan(Ptx);
  } catch (const Error &E) {
    Fail(std::string("cannot read the PTX: ") + E.what());
  }
  for (const KernelInfo &K : Kernels) {
    const ptx::Function *F = M.findEntry(K.Name);
    if (!F)
      Fail("the metadata lists kernel " + K.Name +
           ", but the PTX has no .entry " + K.Name +
           " (its entries: " + entryNames(M) + ")");
    checkParams(K, *F, Fail);
    checkThreads(K, *F, Fail);
    checkShared(K, M, *F, Fail);
  }
  for (const ptx::Function &F : M.Functions)
    if (F.IsEntry && !findKernel(F.Name))
      Fail("the PTX has kernel " + F.Name +
           ", which the metadata does not list (it lists " + kernelNames() +
           ")");
  std::string Actual = ptxHash(Ptx);
  if (Actual != PtxHash)
    Fail("the PTX's hash is " + Actual + ", but the metadata records " +
         PtxHash + " (the PTX was changed or replaced after tilec wrote both)");
}

} // namespace tile
