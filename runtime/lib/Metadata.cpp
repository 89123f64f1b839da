//===- Metadata.cpp - Parsing and validating kernel metadata --------------===//
//
// Maps the JSON tree of a metadata file onto ModuleMetadata, checking every
// field. Keys the runtime does not know are ignored, so that newer compilers
// may add fields.
//
//===----------------------------------------------------------------------===//
#include "tile/Metadata.h"

#include "Files.h"
#include "Json.h"
#include "tile/Error.h"

#include <algorithm>
#include <limits>

namespace tile {

namespace {

using json::Value;

/// Reads the schema, naming the file, position and field path in errors.
class SchemaReader {
public:
  explicit SchemaReader(const std::string &Origin) : Origin(Origin) {}

  [[noreturn]] void fail(const Value &V, const std::string &Path,
                         const std::string &Message) const {
    throw Error(Origin + ":" + std::to_string(V.Line) + ":" +
                std::to_string(V.Col) + ": " +
                (Path.empty() ? "" : Path + ": ") + Message);
  }

  const Value &expectKind(const Value &V, const std::string &Path,
                          Value::Kind K, const char *What) const {
    if (V.K != K)
      fail(V, Path, std::string("expected ") + What + ", got " + V.kindName());
    return V;
  }

  const Value &member(const Value &Obj, const std::string &Path,
                      const char *Key) const {
    const Value *V = Obj.find(Key);
    if (!V)
      fail(Obj, Path, std::string("missing key '") + Key + "'");
    return *V;
  }

  std::string string(const Value &Obj, const std::string &Path,
                     const char *Key) const {
    const Value &V = member(Obj, Path, Key);
    expectKind(V, join(Path, Key), Value::Kind::String, "a string");
    return V.Str;
  }

  std::int64_t integer(const Value &V, const std::string &Path,
                       std::int64_t Min, std::int64_t Max) const {
    expectKind(V, Path, Value::Kind::Int, "an integer");
    if (V.Int < Min || V.Int > Max)
      fail(V, Path,
           "expected an integer in [" + std::to_string(Min) + ", " +
               std::to_string(Max) + "], got " + std::to_string(V.Int));
    return V.Int;
  }

  static std::string join(const std::string &Path, const std::string &Key) {
    return Path.empty() ? Key : Path + "." + Key;
  }

  static std::string index(const std::string &Path, std::size_t I) {
    return Path + "[" + std::to_string(I) + "]";
  }

private:
  const std::string &Origin;
};

/// Parses "sm_90", "sm_90a", "sm_100f" into 90, 90, 100; -1 when malformed.
int parseTargetArch(const std::string &Target) {
  if (Target.rfind("sm_", 0) != 0)
    return -1;
  std::size_t I = 3;
  int Arch = 0;
  for (; I < Target.size() && Target[I] >= '0' && Target[I] <= '9'; ++I) {
    Arch = Arch * 10 + (Target[I] - '0');
    if (Arch > 10000)
      return -1;
  }
  if (I == 3 || (I + 1 < Target.size()) ||
      (I + 1 == Target.size() && Target[I] != 'a' && Target[I] != 'f'))
    return -1;
  return Arch;
}

/// True for "fnv1a64:" followed by 16 lowercase hex digits.
bool isPtxHash(const std::string &Hash) {
  const std::string Prefix = "fnv1a64:";
  if (Hash.size() != Prefix.size() + 16 || Hash.rfind(Prefix, 0) != 0)
    return false;
  for (std::size_t I = Prefix.size(); I < Hash.size(); ++I)
    if (!((Hash[I] >= '0' && Hash[I] <= '9') ||
          (Hash[I] >= 'a' && Hash[I] <= 'f')))
      return false;
  return true;
}

ParamInfo readParam(const SchemaReader &R, const Value &V,
                    const std::string &Path) {
  R.expectKind(V, Path, Value::Kind::Object, "an object");
  ParamInfo P;
  P.Name = R.string(V, Path, "name");
  if (P.Name.empty())
    R.fail(*V.find("name"), SchemaReader::join(Path, "name"),
           "empty parameter name");
  const Value &TypeV = R.member(V, Path, "type");
  std::string TypePath = SchemaReader::join(Path, "type");
  R.expectKind(TypeV, TypePath, Value::Kind::String, "a string");
  P.TensorMap = TypeV.Str == "tensormap";
  std::optional<TileType> Type =
      P.TensorMap ? TileType{ScalarKind::I8, false} : TileType::parse(TypeV.Str);
  if (!Type)
    R.fail(TypeV, TypePath,
           "unknown type '" + TypeV.Str +
               "' (expected a scalar such as i32/fp16/fp32 or a pointer "
               "such as *fp32)");
  P.Type = *Type;
  if (const Value *AlignV = V.find("align")) {
    std::string AlignPath = SchemaReader::join(Path, "align");
    if (!P.Type.IsPointer)
      R.fail(*AlignV, AlignPath, "'align' is only allowed on pointer params");
    std::int64_t A = R.integer(*AlignV, AlignPath, 1, 1 << 20);
    if (A & (A - 1))
      R.fail(*AlignV, AlignPath,
             "expected a power of two, got " + std::to_string(A));
    P.Align = static_cast<unsigned>(A);
  }
  bool IsInteger = !P.Type.IsPointer && P.Type.Elem != ScalarKind::I1 &&
                   P.Type.Elem != ScalarKind::FP8E4M3 && P.Type.Elem != ScalarKind::FP8E5M2 &&
                   P.Type.Elem != ScalarKind::FP16 &&
                   P.Type.Elem != ScalarKind::BF16 &&
                   P.Type.Elem != ScalarKind::FP32 &&
                   P.Type.Elem != ScalarKind::FP64;
  if (const Value *DivV = V.find("divisibility")) {
    std::string DivPath = SchemaReader::join(Path, "divisibility");
    if (!IsInteger)
      R.fail(*DivV, DivPath, "'divisibility' is only allowed on integer params");
    std::int64_t D = R.integer(*DivV, DivPath, 2, 1 << 20);
    if (D & (D - 1))
      R.fail(*DivV, DivPath, "expected a power of two, got " + std::to_string(D));
    P.Divisibility = static_cast<unsigned>(D);
  }
  if (const Value *EqV = V.find("equal_to")) {
    std::string EqPath = SchemaReader::join(Path, "equal_to");
    if (!IsInteger)
      R.fail(*EqV, EqPath, "'equal_to' is only allowed on integer params");
    R.integer(*EqV, EqPath, 1, 1);
    if (P.Divisibility)
      R.fail(*EqV, EqPath, "a parameter cannot be both 'divisibility' and 'equal_to'");
    P.EqualToOne = true;
  }
  if (const Value *DescV = V.find("descriptor")) {
    std::string DescPath = SchemaReader::join(Path, "descriptor");
    R.expectKind(*DescV, DescPath, Value::Kind::String, "a string");
    if (DescV->Str.empty() || P.Name.rfind(DescV->Str + ".", 0) != 0)
      R.fail(*DescV, DescPath,
             "expected the name of the descriptor that '" + P.Name + "' is a part of");
    P.Descriptor = DescV->Str;
  }
  if (P.TensorMap) {
    std::string BoxPath = SchemaReader::join(Path, "box");
    const Value &BoxV = R.expectKind(R.member(V, Path, "box"), BoxPath,
                                     Value::Kind::Array, "an array");
    if (P.Descriptor.empty() || BoxV.Items.empty() || BoxV.Items.size() > 5)
      R.fail(BoxV, BoxPath,
             "a tensor map is a part of a tensor descriptor, with a box of 1 to 5 "
             "dimensions");
    for (std::size_t I = 0; I < BoxV.Items.size(); ++I)
      P.TensorMapBox.push_back(
          R.integer(BoxV.Items[I], SchemaReader::index(BoxPath, I), 1, 256));
    std::string SwizzlePath = SchemaReader::join(Path, "swizzle");
    const Value &SwizzleV = R.member(V, Path, "swizzle");
    std::int64_t Swizzle = R.integer(SwizzleV, SwizzlePath, 0, 128);
    if (Swizzle != 0 && Swizzle != 32 && Swizzle != 64 && Swizzle != 128)
      R.fail(SwizzleV, SwizzlePath,
             "expected 0, 32, 64 or 128, got " + std::to_string(Swizzle));
    P.TensorMapSwizzle = static_cast<unsigned>(Swizzle);
  }
  if (const Value *BlockV = V.find("block_shape")) {
    std::string BlockPath = SchemaReader::join(Path, "block_shape");
    R.expectKind(*BlockV, BlockPath, Value::Kind::Array, "an array");
    if (P.Descriptor.empty() || !P.Type.IsPointer || BlockV->Items.empty() ||
        BlockV->Items.size() > 5)
      R.fail(*BlockV, BlockPath,
             "'block_shape' belongs on the base of a tensor descriptor, with 1 to 5 "
             "dimensions");
    for (std::size_t I = 0; I < BlockV->Items.size(); ++I)
      P.BlockShape.push_back(
          R.integer(BlockV->Items[I], SchemaReader::index(BlockPath, I), 1, 1 << 20));
  }
  return P;
}

ConstexprValue readConstexpr(const SchemaReader &R, const Value &V,
                             const std::string &Path) {
  switch (V.K) {
  case Value::Kind::Null:
    return std::monostate();
  case Value::Kind::Bool:
    return V.Bool;
  case Value::Kind::Int:
    return V.Int;
  case Value::Kind::Float:
    return V.Float;
  case Value::Kind::String:
    return V.Str;
  default:
    R.fail(V, Path,
           std::string("expected an integer, float, boolean, string or null, got ") +
               V.kindName());
  }
}

KernelInfo readKernel(const SchemaReader &R, const Value &V,
                      const std::string &Path) {
  R.expectKind(V, Path, Value::Kind::Object, "an object");
  KernelInfo K;
  K.Name = R.string(V, Path, "name");
  if (K.Name.empty())
    R.fail(*V.find("name"), SchemaReader::join(Path, "name"),
           "empty kernel name");
  std::string WarpsPath = SchemaReader::join(Path, "num_warps");
  const Value &WarpsV = R.member(V, Path, "num_warps");
  K.NumWarps = static_cast<unsigned>(R.integer(WarpsV, WarpsPath, 1, 32));
  if (K.NumWarps & (K.NumWarps - 1))
    R.fail(WarpsV, WarpsPath,
           "expected a power of two, got " + std::to_string(K.NumWarps));
  K.SharedBytes = static_cast<std::size_t>(
      R.integer(R.member(V, Path, "shared_bytes"),
                SchemaReader::join(Path, "shared_bytes"), 0,
                std::numeric_limits<std::int32_t>::max()));
  if (const Value *ScratchV = V.find("global_scratch_bytes"))
    K.GlobalScratchBytes = static_cast<std::size_t>(
        R.integer(*ScratchV, SchemaReader::join(Path, "global_scratch_bytes"), 1,
                  std::numeric_limits<std::int32_t>::max()));

  std::string ParamsPath = SchemaReader::join(Path, "params");
  const Value &Params = R.expectKind(R.member(V, Path, "params"), ParamsPath,
                                     Value::Kind::Array, "an array");
  for (std::size_t I = 0; I < Params.Items.size(); ++I) {
    std::string ParamPath = SchemaReader::index(ParamsPath, I);
    ParamInfo P = readParam(R, Params.Items[I], ParamPath);
    for (const ParamInfo &Prev : K.Params)
      if (Prev.Name == P.Name)
        R.fail(Params.Items[I], ParamPath,
               "duplicate parameter name '" + P.Name + "'");
    K.Params.push_back(std::move(P));
  }
  // A host tensor descriptor: its base (with the block shape), then one
  // i64 shape<d> per dimension, then one i64 stride<d>, then optionally its
  // tensor map, all naming it.
  for (std::size_t I = 0; I < K.Params.size(); ++I) {
    const ParamInfo &Base = K.Params[I];
    if (Base.Descriptor.empty())
      continue;
    std::string ParamPath = SchemaReader::index(ParamsPath, I);
    if (Base.BlockShape.empty())
      R.fail(Params.Items[I], ParamPath,
             "'" + Base.Name + "' is a part of descriptor '" + Base.Descriptor +
                 "' that does not follow its base");
    std::size_t Rank = Base.BlockShape.size();
    for (std::size_t J = 0; J < 2 * Rank; ++J) {
      std::string Want = Base.Descriptor + (J < Rank ? ".shape" : ".stride") +
                         std::to_string(J % Rank);
      const ParamInfo *Part = I + 1 + J < K.Params.size() ? &K.Params[I + 1 + J] : nullptr;
      if (!Part || Part->Name != Want || Part->Descriptor != Base.Descriptor ||
          Part->Type != TileType{ScalarKind::I64, false} || !Part->BlockShape.empty())
        R.fail(Params.Items[std::min(I + 1 + J, K.Params.size() - 1)], ParamPath,
               "descriptor '" + Base.Descriptor + "' of rank " + std::to_string(Rank) +
                   " needs the i64 parameter '" + Want + "' at position " +
                   std::to_string(I + 2 + J) + ", marked with its descriptor");
    }
    I += 2 * Rank;
    // Then, optionally, its tensor map.
    if (I + 1 < K.Params.size() && K.Params[I + 1].TensorMap) {
      const ParamInfo &Map = K.Params[I + 1];
      if (Map.Name != Base.Descriptor + ".tensormap" || Map.Descriptor != Base.Descriptor ||
          Map.TensorMapBox.size() != Rank)
        R.fail(Params.Items[I + 1], SchemaReader::index(ParamsPath, I + 1),
               "the tensor map of descriptor '" + Base.Descriptor + "' must be named '" +
                   Base.Descriptor + ".tensormap', follow its strides and have a box of " +
                   std::to_string(Rank) + " dimensions");
      ++I;
    }
  }


  std::string ConstPath = SchemaReader::join(Path, "constexprs");
  const Value &Consts = R.expectKind(R.member(V, Path, "constexprs"), ConstPath,
                                     Value::Kind::Object, "an object");
  for (const auto &[Name, CV] : Consts.Members)
    K.Constexprs.emplace_back(
        Name, readConstexpr(R, CV, SchemaReader::join(ConstPath, Name)));
  return K;
}

} // namespace

const ConstexprValue *
KernelInfo::findConstexpr(std::string_view Name) const noexcept {
  for (const auto &[N, V] : Constexprs)
    if (N == Name)
      return &V;
  return nullptr;
}

std::int64_t KernelInfo::constexprInt(std::string_view Name) const {
  const ConstexprValue *V = findConstexpr(Name);
  if (!V)
    throw Error("kernel " + this->Name + " has no constexpr '" +
                std::string(Name) + "'");
  if (const std::int64_t *I = std::get_if<std::int64_t>(V))
    return *I;
  throw Error("constexpr '" + std::string(Name) + "' of kernel " + this->Name +
              " is not an integer");
}

bool KernelInfo::needsSharedOptIn() const noexcept {
  return SharedBytes > DefaultSharedBytes;
}

void KernelInfo::checkSharedBytes(std::size_t MaxBytes,
                                  const std::string &Device) const {
  if (SharedBytes > MaxBytes)
    throw Error("kernel " + Name + " needs " + std::to_string(SharedBytes) +
                " bytes of shared memory, but " + Device +
                " allows at most " + std::to_string(MaxBytes) + " per block");
}

std::string KernelInfo::paramList() const {
  std::string Out;
  for (const ParamInfo &P : Params) {
    if (!P.Descriptor.empty() && P.BlockShape.empty())
      continue; // Shown with its base.
    Out += (Out.empty() ? "" : ", ") +
           (P.Descriptor.empty() ? P.Name + ": " + P.Type.str()
                                 : P.Descriptor + ": " + descriptorTypeName(P));
  }
  return Out;
}

std::string descriptorTypeName(const ParamInfo &Base) {
  std::string Out = "tensordesc<" + TileType{Base.Type.Elem, false}.str() + "[";
  for (std::size_t I = 0; I < Base.BlockShape.size(); ++I)
    Out += (I ? ", " : "") + std::to_string(Base.BlockShape[I]);
  return Out + "]>";
}

ModuleMetadata ModuleMetadata::parse(std::string_view Json,
                                     const std::string &Origin) {
  Value Root = json::parse(Json, Origin);
  SchemaReader R(Origin);
  R.expectKind(Root, "", Value::Kind::Object, "an object");
  ModuleMetadata M;
  M.TilecVersion = R.string(Root, "", "tilec_version");
  M.Source = R.string(Root, "", "source");
  M.SourceHash = R.string(Root, "", "source_hash");
  M.Target = R.string(Root, "", "target");
  M.Origin = Origin;
  if (Root.find("tile_ir"))
    M.TileIR = R.string(Root, "", "tile_ir");
  if (Root.find("ptx_hash")) {
    M.PtxHash = R.string(Root, "", "ptx_hash");
    if (!isPtxHash(M.PtxHash))
      R.fail(*Root.find("ptx_hash"), "ptx_hash",
             "expected 'fnv1a64:' and 16 lowercase hex digits, got '" +
                 M.PtxHash + "'");
  }
  if (Root.find("cubin_hash")) {
    M.CubinHash = R.string(Root, "", "cubin_hash");
    if (!isPtxHash(M.CubinHash))
      R.fail(*Root.find("cubin_hash"), "cubin_hash",
             "expected 'fnv1a64:' and 16 lowercase hex digits, got '" +
                 M.CubinHash + "'");
  }
  if (parseTargetArch(M.Target) < 0)
    R.fail(*Root.find("target"), "target",
           "expected 'sm_<NN>' (e.g. sm_90 or sm_90a), got '" + M.Target + "'");
  const Value &Kernels = R.expectKind(R.member(Root, "", "kernels"), "kernels",
                                      Value::Kind::Array, "an array");
  if (Kernels.Items.empty())
    R.fail(Kernels, "kernels", "expected at least one kernel");
  for (std::size_t I = 0; I < Kernels.Items.size(); ++I) {
    std::string Path = SchemaReader::index("kernels", I);
    KernelInfo K = readKernel(R, Kernels.Items[I], Path);
    if (M.findKernel(K.Name))
      R.fail(Kernels.Items[I], Path, "duplicate kernel name '" + K.Name + "'");
    M.Kernels.push_back(std::move(K));
  }
  return M;
}

ModuleMetadata ModuleMetadata::loadFile(const std::string &Path) {
  return parse(readFile(Path, "metadata file"), Path);
}

const KernelInfo *
ModuleMetadata::findKernel(std::string_view Name) const noexcept {
  for (const KernelInfo &K : Kernels)
    if (K.Name == Name)
      return &K;
  return nullptr;
}

std::string ModuleMetadata::kernelNames() const {
  std::string Out;
  for (const KernelInfo &K : Kernels)
    Out += (Out.empty() ? "" : ", ") + K.Name;
  return Out;
}

bool ModuleMetadata::cubinRunsOn(int Arch) const {
  int Needed = targetArch();
  if (!Target.empty() && (Target.back() == 'a' || Target.back() == 'f'))
    return Arch == Needed;
  return Arch / 10 == Needed / 10 && Arch >= Needed;
}

int ModuleMetadata::targetArch() const {
  int Arch = parseTargetArch(Target);
  if (Arch < 0)
    throw Error("malformed target '" + Target + "' in metadata");
  return Arch;
}

} // namespace tile
