//===- SemaLibdevice.cpp - Calls of libdevice functions -------------------===//
//
// Types a call of a libdevice function (`libdevice.pow(x, 2)`,
// `tl.math.log1p(x)`, `tl.umulhi(a, b)`): picks the function's form from the
// argument types, as Triton's dispatch does, converts and broadcasts the
// arguments to it and builds a LibdeviceCall whose first argument is the
// symbol. Where no form takes the types as they are, narrow types widen:
// fp16/bf16 compute in fp32 (and the result rounds back when every float
// argument had that type; Triton rejects them), integers narrower than 32
// bits act as i32/u32, then mixed widths meet at the wider one (fp32 with
// fp64 -> fp64), then mixed signedness meets at unsigned. Functions on bits
// (popc, clz, float_as_int, ...) take only the last step.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include "tilec/Frontend/Libdevice.h"

using namespace tilec;

namespace {

/// The argument kinds at widening `level` (see the file comment); None
/// marks a constexpr number, which adapts to any form. Functions on bits
/// (`popc`, `float_as_int`, ...) take only the mixed-signedness step: a
/// wider or converted value would change their answer.
using Kinds = llvm::SmallVector<std::optional<ScalarKind>, 4>;

Kinds widen(Kinds kinds, unsigned level, bool onBits) {
  if (level == 0)
    return kinds;
  if (onBits && level < 3)
    return kinds;
  bool anyF64 = false, anyWideInt = false, anyUnsigned = false;
  for (std::optional<ScalarKind> &kind : kinds) {
    if (!kind)
      continue;
    if (!onBits) {
      switch (*kind) {
      case ScalarKind::F8E4M3: case ScalarKind::F8E5M2: case ScalarKind::F16:
      case ScalarKind::BF16: kind = ScalarKind::F32; break;
      case ScalarKind::I1: case ScalarKind::I8: case ScalarKind::I16:
        kind = ScalarKind::I32; break;
      case ScalarKind::U8: case ScalarKind::U16: kind = ScalarKind::U32; break;
      default: break;
      }
    }
    anyF64 |= *kind == ScalarKind::F64;
    anyWideInt |= *kind == ScalarKind::I64 || *kind == ScalarKind::U64;
    anyUnsigned |= *kind == ScalarKind::U32 || *kind == ScalarKind::U64;
  }
  if (level == 1)
    return kinds;
  for (std::optional<ScalarKind> &kind : kinds) {
    if (!kind)
      continue;
    if (level == 2 || !onBits) {
      if (anyF64 && *kind == ScalarKind::F32)
        kind = ScalarKind::F64;
      if (anyWideInt && *kind == ScalarKind::I32)
        kind = ScalarKind::I64;
      if (anyWideInt && *kind == ScalarKind::U32)
        kind = ScalarKind::U64;
    }
    // Mixed signedness meets at unsigned, as Triton promotes.
    if (level >= 3 && anyUnsigned && *kind == ScalarKind::I32)
      kind = ScalarKind::U32;
    if (level >= 3 && anyUnsigned && *kind == ScalarKind::I64)
      kind = ScalarKind::U64;
  }
  return kinds;
}
constexpr unsigned kNumWideningLevels = 4;

/// True if `overload` takes arguments of `kinds`; `constants[i]` is the
/// value of a constexpr argument (its kind is None), which must be
/// representable in the form's type (an int constant fits integer and float
/// types, a float constant only float types).
bool accepts(const LibdeviceOverload &overload, const Kinds &kinds,
             llvm::ArrayRef<const ConstValue *> constants) {
  for (size_t i = 0; i < kinds.size(); ++i) {
    ScalarKind wanted = overload.args[i];
    if (kinds[i]) {
      if (*kinds[i] != wanted)
        return false;
      continue;
    }
    const ConstValue &value = *constants[i];
    if (value.isFloat() && !isFloat(wanted))
      return false;
    if (!checkRepresentable(value, wanted).empty())
      return false;
  }
  return true;
}

std::string describeKinds(const Kinds &kinds,
                          llvm::ArrayRef<const ConstValue *> constants) {
  std::string result = "(";
  for (size_t i = 0; i < kinds.size(); ++i)
    result += (i ? ", " : "") + (kinds[i] ? getScalarKindName(*kinds[i]).str()
                                          : constants[i]->str());
  return result + ")";
}

} // namespace

ExprPtr Sema::analyzeLibdeviceCall(const LibdeviceFunction &function,
                                   const CallExpr &call, llvm::StringRef calleeName) {
  SourceLoc loc = call.getLoc();
  if (call.getArgs().size() != function.getArity()) {
    diag.error(loc, "'" + calleeName + "' takes " +
                        std::to_string(function.getArity()) + " argument" +
                        (function.getArity() == 1 ? "" : "s") + ", got " +
                        std::to_string(call.getArgs().size()));
    return nullptr;
  }
  std::vector<ExprPtr> args;
  Kinds kinds;
  llvm::SmallVector<const ConstValue *, 4> constants;
  Shape shape;
  for (const CallArg &arg : call.getArgs()) {
    if (!arg.keyword.empty()) {
      diag.error(arg.loc, "'" + calleeName + "' takes positional arguments only");
      return nullptr;
    }
    ExprPtr value = analyzeExpr(*arg.value);
    if (!value)
      return nullptr;
    const ConstValue *constant = getConstexpr(*value);
    if (constant && !constant->isNumber()) {
      diag.error(value->getLoc(), "'" + calleeName + "' expects a number, got " +
                                      constant->str());
      return nullptr;
    }
    if (!constant) {
      const Type *type = requireValue(*value, calleeName);
      if (!type)
        return nullptr;
      std::optional<Shape> merged = broadcastShapes(shape, type->getShape());
      if (!merged) {
        diag.error(loc, "incompatible shapes for '" + calleeName + "': " +
                            formatShape(shape) + " and " + formatShape(type->getShape()));
        return nullptr;
      }
      shape = *merged;
    }
    kinds.push_back(constant ? std::nullopt : std::optional(value->getType().getElement()));
    constants.push_back(constant);
    args.push_back(std::move(value));
  }
  const LibdeviceOverload *chosen = nullptr;
  for (unsigned level = 0; level < kNumWideningLevels && !chosen; ++level) {
    Kinds widened = widen(kinds, level, function.onBits);
    for (const LibdeviceOverload &overload : function.overloads)
      if (accepts(overload, widened, constants)) {
        chosen = &overload;
        break;
      }
  }
  if (!chosen) {
    diag.error(loc, "'" + calleeName + "' has no form for the argument types " +
                        describeKinds(kinds, constants) + "; it takes " +
                        function.describeForms());
    return nullptr;
  }
  // Float arguments all of one 8- or 16-bit type, computed in fp32, give back
  // that type; any wider float argument keeps the fp32 result.
  std::optional<ScalarKind> narrowFloat;
  bool mixedFloats = false;
  for (std::optional<ScalarKind> kind : kinds) {
    if (!kind || !isFloat(*kind))
      continue;
    bool narrow = *kind == ScalarKind::F16 || *kind == ScalarKind::BF16 || isFP8(*kind);
    if (!narrow || (narrowFloat && *narrowFloat != *kind))
      mixedFloats = true;
    narrowFloat = kind;
  }
  if (mixedFloats)
    narrowFloat.reset();
  for (size_t i = 0; i < args.size(); ++i)
    if (!(args[i] = coerce(std::move(args[i]), chosen->args[i], shape)))
      return nullptr;
  args.insert(args.begin(), makeConstant(loc, ConstValue::getString(chosen->symbol)));
  ExprPtr result = makeCall(loc, Builtin::LibdeviceCall, std::move(args),
                            Type::getTile(chosen->result, shape));
  if (function.returnsBool)
    return coerce(std::move(result), ScalarKind::I1, shape);
  if (narrowFloat && chosen->result == ScalarKind::F32)
    return coerce(std::move(result), *narrowFloat, shape);
  return result;
}
