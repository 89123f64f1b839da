//===- Signature.cpp - Kernel argument checking ---------------------------===//
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

void Signature::check(const Arg *Args, std::size_t Count) const {
  const std::vector<ParamInfo> &Params = Info->Params;
  if (Count != Params.size())
    throw Error(Info->Name + " expects " + std::to_string(Params.size()) +
                (Params.size() == 1 ? " argument (" : " arguments (") +
                Info->paramList() + "), got " + std::to_string(Count));
  for (std::size_t I = 0; I < Count; ++I) {
    const ParamInfo &P = Params[I];
    const TileType &Got = Args[I].type();
    if (fits(P, Args[I])) // The common case, without building any message.
      continue;
    std::string Where = "argument " + std::to_string(I + 1) + " '" + P.Name +
                        "' of " + Info->Name + ": ";
    if (Got == P.Type && !P.Type.IsPointer) {
      std::int64_t Value = Args[I].intValue();
      // u64 values of 2^63 and more are printed as what they are.
      std::string Text = P.Type.Elem == ScalarKind::U64
                             ? std::to_string(static_cast<std::uint64_t>(Value))
                             : std::to_string(Value);
      if (P.Divisibility && Value % P.Divisibility != 0)
        throw Error(Where + Text + " is not a multiple of " +
                    std::to_string(P.Divisibility) +
                    ", which the kernel was compiled to assume (--specialize " +
                    P.Name + "=" + std::to_string(P.Divisibility) + ")");
      if (P.EqualToOne && Value != 1)
        throw Error(Where + Text +
                    " is not 1, which the kernel was compiled to assume "
                    "(--specialize " + P.Name + "=1)");
    }
    if (Got == P.Type &&
        (!P.Type.IsPointer || P.Align <= 1 || Args[I].address() % P.Align == 0))
      continue;
    if (Got != P.Type)
      throw Error(Where + "expected " + P.Type.str() + ", got " + Got.str());
    throw Error(Where + "pointer " + hex(Args[I].address()) +
                " is not aligned to " + std::to_string(P.Align) +
                " bytes, which the kernel was compiled to assume");
  }
}

} // namespace tile
