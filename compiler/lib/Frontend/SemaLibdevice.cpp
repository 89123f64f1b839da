//===- SemaLibdevice.cpp - Calls of libdevice functions -------------------===//
//
// Types a call of a libdevice function (`libdevice.pow(x, 2)`,
// `tl.math.log1p(x)`, `tl.umulhi(a, b)`): picks the function's form from the
// argument types, as Triton's dispatch does, converts and broadcasts the
// arguments to it and builds a LibdeviceCall whose first argument is the
// symbol. Where no form takes the types as they are, narrow types widen:
// fp16/bf16 compute in fp32 (and the result rounds back, which Triton
// leaves to the user), integers narrower than 32 bits act as i32/u32, then
// mixed widths meet at the wider one (fp32 with fp64 -> fp64), then
// unsigned integers act as signed.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include "tilec/Frontend/Libdevice.h"

using namespace tilec;

namespace {

/// The argument kinds at widening `level` (see the file comment); None
/// marks a constexpr number, which adapts to any form.
using Kinds = llvm::SmallVector<std::optional<ScalarKind>, 4>;

Kinds widen(Kinds kinds, unsigned level) {
  if (level == 0)
    return kinds;
  bool anyF64 = false, anyWideInt = false;
  for (std::optional<ScalarKind> &kind : kinds) {
    if (!kind)
      continue;
    switch (*kind) {
    case ScalarKind::F16: case ScalarKind::BF16: kind = ScalarKind::F32; break;
    case ScalarKind::I1: case ScalarKind::I8: case ScalarKind::I16:
      kind = ScalarKind::I32; break;
    case ScalarKind::U8: case ScalarKind::U16: kind = ScalarKind::U32; break;
    default: break;
    }
    anyF64 |= *kind == ScalarKind::F64;
    anyWideInt |= *kind == ScalarKind::I64 || *kind == ScalarKind::U64;
  }
  if (level == 1)
    return kinds;
  for (std::optional<ScalarKind> &kind : kinds) {
    if (kind && anyF64 && *kind == ScalarKind::F32)
      kind = ScalarKind::F64;
    if (kind && anyWideInt && *kind == ScalarKind::I32)
      kind = ScalarKind::I64;
    if (kind && anyWideInt && *kind == ScalarKind::U32)
      kind = ScalarKind::U64;
    if (kind && level >= 3 && *kind == ScalarKind::U32)
      kind = ScalarKind::I32;
    if (kind && level >= 3 && *kind == ScalarKind::U64)
      kind = ScalarKind::I64;
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
    Kinds widened = widen(kinds, level);
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
  // A 16-bit float argument computed in fp32 gives back its own type.
  std::optional<ScalarKind> narrowFloat;
  for (std::optional<ScalarKind> kind : kinds)
    if (kind && (*kind == ScalarKind::F16 || *kind == ScalarKind::BF16))
      narrowFloat = kind;
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
