//===- Signature.cpp - Kernel argument checking ---------------------------===//
//
// Arguments against the metadata's parameters, after each host tensor
// descriptor has been replaced by the parameters it fills.
//
//===----------------------------------------------------------------------===//
#include "tile/Signature.h"

#include "tile/Error.h"

#include <cstdio>
#include <string>

namespace tile {

namespace {

std::string hex(std::uint64_t Value) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "0x%llx",
                static_cast<unsigned long long>(Value));
  return Buf;
}

/// True when \p A is a valid argument for \p P.
bool fits(const ParamInfo &P, const Arg &A) {
  if (A.type() != P.Type)
    return false;
  if (P.Type.IsPointer)
    return P.Align <= 1 || A.address() % P.Align == 0;
  if (!P.Divisibility && !P.EqualToOne)
    return true;
  std::int64_t Value = A.intValue();
  return (!P.Divisibility || Value % P.Divisibility == 0) &&
         (!P.EqualToOne || Value == 1);
}

} // namespace

namespace {

/// Throws when \p A cannot be argument \p Number (1-based) of \p Kernel for
/// parameter \p P: another type, a pointer not aligned as the compiler
/// assumed, or an integer that breaks its specialization.
void checkArg(const std::string &Kernel, std::size_t Number, const ParamInfo &P,
              const Arg &A) {
  if (fits(P, A)) // The common case, without building any message.
    return;
  const TileType &Got = A.type();
  std::string Where =
      "argument " + std::to_string(Number) + " '" + P.Name + "' of " + Kernel + ": ";
  if (Got == P.Type && !P.Type.IsPointer) {
    std::int64_t Value = A.intValue();
    // u64 values of 2^63 and more are printed as what they are.
    std::string Text = P.Type.Elem == ScalarKind::U64
                           ? std::to_string(static_cast<std::uint64_t>(Value))
                           : std::to_string(Value);
    if (P.Divisibility && Value % P.Divisibility != 0)
      throw Error(Where + Text + " is not a multiple of " +
                  std::to_string(P.Divisibility) +
                  ", which the kernel was compiled to assume (--specialize " + P.Name +
                  "=" + std::to_string(P.Divisibility) + ")");
    if (P.EqualToOne && Value != 1)
      throw Error(Where + Text +
                  " is not 1, which the kernel was compiled to assume "
                  "(--specialize " +
                  P.Name + "=1)");
  }
  if (Got != P.Type)
    throw Error(Where + "expected " + P.Type.str() + ", got " + Got.str());
  throw Error(Where + "pointer " + hex(A.address()) + " is not aligned to " +
              std::to_string(P.Align) +
              " bytes, which the kernel was compiled to assume");
}

} // namespace

void Signature::check(const Arg *Args, std::size_t Count) const {
  const std::vector<ParamInfo> &Params = Info->Params;
  if (Count != Params.size())
    throw Error(Info->Name + " expects " + std::to_string(Params.size()) +
                (Params.size() == 1 ? " argument (" : " arguments (") +
                Info->paramList() + "), got " + std::to_string(Count));
  for (std::size_t I = 0; I < Count; ++I)
    checkArg(Info->Name, I + 1, Params[I], Args[I]);
}

bool Signature::needsExpansion(const Arg *Args, std::size_t Count) const noexcept {
  for (const ParamInfo &P : Info->Params)
    if (!P.Descriptor.empty())
      return true;
  for (std::size_t I = 0; I < Count; ++I)
    if (Args[I].descriptor())
      return true;
  return false;
}

namespace {

/// Throws "<Where><what is wrong>" when \p D cannot be the argument of the
/// descriptor whose base parameter is \p Base, followed by its parts
/// \p Parts (the shapes, then the strides).
void checkDescriptor(const std::string &Where, const ParamInfo &Base,
                     const ParamInfo *Parts, const TensorDescriptor &D) {
  std::size_t Rank = Base.BlockShape.size();
  auto list = [](const std::vector<std::int64_t> &Values) {
    std::string Text = "[";
    for (std::size_t I = 0; I < Values.size(); ++I)
      Text += (I ? ", " : "") + std::to_string(Values[I]);
    return Text + "]";
  };
  if (D.Base.Elem != Base.Type.Elem)
    throw Error(Where + "expected a descriptor of " + TileType{Base.Type.Elem, false}.str() +
                " elements, got " + TileType{D.Base.Elem, false}.str());
  if (D.Shape.size() != Rank || D.Strides.size() != Rank || D.BlockShape.size() != Rank)
    throw Error(Where + "expected " + std::to_string(Rank) +
                " dimensions, got a shape of " + std::to_string(D.Shape.size()) + ", " +
                std::to_string(D.Strides.size()) + " strides and a block shape of " +
                std::to_string(D.BlockShape.size()));
  if (D.BlockShape != Base.BlockShape)
    throw Error(Where + "the kernel was compiled for blocks of " + list(Base.BlockShape) +
                ", the descriptor has " + list(D.BlockShape));
  for (std::size_t I = 0; I < Rank; ++I) {
    if (D.Shape[I] < 1 || D.Shape[I] > (std::int64_t(1) << 32))
      throw Error(Where + "shape " + list(D.Shape) +
                  ": every dimension must be between 1 and 2^32");
    if (Parts[I].Divisibility && D.Shape[I] % Parts[I].Divisibility != 0)
      throw Error(Where + "shape " + list(D.Shape) +
                  ": the kernel was compiled for dimensions that are multiples of " +
                  std::to_string(Parts[I].Divisibility) + " (" + descriptorTypeName(Base) +
                  ":16)");
  }
  if (D.Base.Address % 16 != 0)
    throw Error(Where + "base " + hex(D.Base.Address) + " is not aligned to 16 bytes");
  if (D.Strides.back() != 1)
    throw Error(Where + "strides " + list(D.Strides) + ": the last must be 1");
  std::size_t Bytes = scalarSize(D.Base.Elem);
  for (std::size_t I = 0; I + 1 < Rank; ++I)
    if (D.Strides[I] <= 0 || (D.Strides[I] * static_cast<std::int64_t>(Bytes)) % 16 != 0)
      throw Error(Where + "strides " + list(D.Strides) + ": stride " + std::to_string(I) +
                  " must be a positive multiple of 16 bytes (" + std::to_string(16 / Bytes) +
                  " elements)");
}

} // namespace

std::vector<Arg> Signature::expandDescriptors(const Arg *Args, std::size_t Count) const {
  const std::vector<ParamInfo> &Params = Info->Params;
  std::size_t Expected = 0;
  for (const ParamInfo &P : Params)
    Expected += P.Descriptor.empty() || !P.BlockShape.empty();
  if (Count != Expected)
    throw Error(Info->Name + " expects " + std::to_string(Expected) +
                (Expected == 1 ? " argument (" : " arguments (") + Info->paramList() +
                "), got " + std::to_string(Count));
  std::vector<Arg> Out;
  std::size_t P = 0;
  for (std::size_t I = 0; I < Count; ++I) {
    const ParamInfo &Param = Params[P];
    const TensorDescriptor *D = Args[I].descriptor();
    std::string Where = "argument " + std::to_string(I + 1) + " '" +
                        (Param.Descriptor.empty() ? Param.Name : Param.Descriptor) +
                        "' of " + Info->Name + ": ";
    if (Param.Descriptor.empty()) {
      if (D)
        throw Error(Where + "expected " + Param.Type.str() + ", got a tensor descriptor (" +
                    Args[I].typeName() + ")");
      checkArg(Info->Name, I + 1, Param, Args[I]);
      Out.push_back(Args[I]);
      ++P;
      continue;
    }
    if (!D)
      throw Error(Where + "expected a tensor descriptor (" + descriptorTypeName(Param) +
                  "), got " + Args[I].typeName());
    // ModuleMetadata::parse checked that the base's parts follow it.
    checkDescriptor(Where, Param, &Params[P + 1], *D);
    Out.push_back(Arg(D->Base));
    for (std::int64_t Dim : D->Shape)
      Out.push_back(Arg(Dim));
    for (std::int64_t Stride : D->Strides)
      Out.push_back(Arg(Stride));
    P += 1 + 2 * D->Shape.size();
    // Its tensor map, encoded by the launch on a GPU.
    if (P < Params.size() && Params[P].TensorMap) {
      auto Map = std::make_shared<TensorMapArg>(TensorMapArg{*D, Params[P].TensorMapBox,
                                                             Params[P].TensorMapSwizzle, Where});
      Out.push_back(Arg(std::move(Map)));
      ++P;
    }
  }
  return Out;
}

} // namespace tile
