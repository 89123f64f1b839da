//===- SemaAtomics.cpp - Typing of atomics, device_print, device_assert ---===//
//
// Normalized forms that MLIRGen emits:
//   AtomicAdd..AtomicXor(ptr, val, mask, sem, scope)  val/mask broadcast
//                                         to ptr's shape
//   AtomicCas(ptr, cmp, val, sem, scope)
//   DevicePrint(prefix, hex, values...)   void
//   DeviceAssert(cond, msg)               void; cond is i1
// `sem` (relaxed, acquire, release or acq_rel) and `scope` (gpu, cta or
// sys) are constexpr strings, Triton's "acq_rel" and "gpu" when omitted.
// Element types: see typeAtomic.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

using namespace tilec;

/// The string option `name` (None: `fallback`), which must be one of
/// `allowed`; None after an error.
static ExprPtr readOption(ExprPtr expr, llvm::StringRef name, llvm::StringRef fallback,
                          llvm::ArrayRef<llvm::StringRef> allowed, DiagnosticEngine &diag) {
  const ConstValue *value = Sema::getConstexpr(*expr);
  if (value && value->isNone())
    return Sema::makeConstant(expr->getLoc(), ConstValue::getString(fallback.str()));
  if (value && value->isString() && llvm::is_contained(allowed, value->getString()))
    return expr;
  std::string list;
  for (llvm::StringRef option : allowed)
    list += (list.empty() ? "'" : ", '") + option.str() + "'";
  diag.error(expr->getLoc(), name + " must be one of " + list + ", got " +
                                 (value ? value->str() : expr->getType().str()));
  return nullptr;
}

ExprPtr Sema::typeAtomic(Builtin builtin, SourceLoc loc, llvm::StringRef calleeName,
                         std::vector<ExprPtr> args) {
  bool isCas = builtin == Builtin::AtomicCas;
  const ConstValue *ptrValue = getConstexpr(*args[0]);
  Type ptrType = args[0]->getType();
  if (ptrValue || !ptrType.isPointer()) {
    diag.error(args[0]->getLoc(), "'ptr' of " + calleeName +
                                      " must be a pointer or a "
                                      "tile of pointers, got " + describeValue(*args[0]));
    return nullptr;
  }
  ScalarKind elem = ptrType.getElement();
  bool bitwise = builtin == Builtin::AtomicAnd || builtin == Builtin::AtomicOr ||
                 builtin == Builtin::AtomicXor;
  // What the GPU lowering implements: every kind on 32/64-bit integers;
  // add/max/min/xchg on 32/64-bit floats; on 16-bit types xchg, and
  // add/max/min of fp16/bf16 (compare-and-swap loops where PTX has none).
  bool is16BitFloat = elem == ScalarKind::F16 || elem == ScalarKind::BF16;
  bool supported = getBitWidth(elem) >= 32
                       ? !(isFloat(elem) && (bitwise || isCas))
                       : getBitWidth(elem) == 16 && !isCas &&
                             (builtin == Builtin::AtomicXchg || (is16BitFloat && !bitwise));
  if (!supported) {
    diag.error(args[0]->getLoc(),
               "'" + calleeName + "' does not support " + ptrType.str() + " pointers");
    return nullptr;
  }
  const size_t semIndex = 3; // Then scope.
  ExprPtr sem = readOption(std::move(args[semIndex]), "sem", "acq_rel",
                           {"relaxed", "acquire", "release", "acq_rel"}, diag);
  ExprPtr scope = readOption(std::move(args[semIndex + 1]), "scope", "gpu",
                             {"gpu", "cta", "sys"}, diag);
  if (!sem || !scope)
    return nullptr;
  llvm::ArrayRef<int64_t> shape = ptrType.getShape();
  std::vector<ExprPtr> callArgs;
  callArgs.push_back(std::move(args[0]));
  llvm::StringRef names[] = {isCas ? "cmp" : "val", "val"};
  for (unsigned i = 0; i < (isCas ? 2u : 1u); ++i)
    if (!callArgs.emplace_back(
            typePointee(std::move(args[1 + i]), names[i], calleeName, elem, shape)))
      return nullptr;
  if (!isCas) {
    if (isNone(*args[2]))
      callArgs.push_back(std::move(args[2]));
    else if (!callArgs.emplace_back(typeMask(std::move(args[2]), shape)))
      return nullptr;
  }
  callArgs.push_back(std::move(sem));
  callArgs.push_back(std::move(scope));
  return makeCall(loc, builtin, std::move(callArgs), Type::getTile(elem, shape));
}

ExprPtr Sema::typeDeviceDebug(Builtin builtin, SourceLoc loc, llvm::StringRef calleeName,
                              std::vector<ExprPtr> args) {
  const ConstValue *text = getConstexpr(*args[builtin == Builtin::DevicePrint ? 0 : 1]);
  if (!text || !text->isString()) {
    diag.error(args[builtin == Builtin::DevicePrint ? 0 : 1]->getLoc(),
               "the " +
                   llvm::Twine(builtin == Builtin::DevicePrint ? "prefix" : "message") +
                   " of '" + calleeName + "' must be a constexpr string");
    return nullptr;
  }
  if (builtin == Builtin::DeviceAssert) {
    ExprPtr &cond = args[0];
    if (const ConstValue *value = getConstexpr(*cond)) {
      if (!value->isNumber()) {
        diag.error(cond->getLoc(), "the condition of 'device_assert' must be a number "
                                   "or a tile, got " +
                                       value->str());
        return nullptr;
      }
      // A condition known to hold needs no check.
      if (value->isTruthy())
        return makeConstant(loc, ConstValue::getNone());
    } else if (!requireValue(*cond, calleeName)) {
      return nullptr;
    }
    Shape shape(getConstexpr(*cond) ? Shape() : Shape(cond->getType().getShape()));
    if (!(cond = coerce(std::move(cond), ScalarKind::I1, shape)))
      return nullptr;
    return makeCall(loc, builtin, std::move(args), Type::getVoid());
  }
  const ConstValue *hex = getConstexpr(*args[1]);
  if (!hex || !hex->isIntLike()) {
    diag.error(args[1]->getLoc(), "'hex' of 'device_print' must be a constexpr bool");
    return nullptr;
  }
  for (size_t i = 2; i < args.size(); ++i) {
    if (const ConstValue *value = getConstexpr(*args[i])) {
      std::optional<ScalarKind> kind = getNaturalScalarKind(*value);
      if (!kind) {
        diag.error(args[i]->getLoc(), "'device_print' cannot print " + value->str());
        return nullptr;
      }
      if (!(args[i] = coerce(std::move(args[i]), *kind, {})))
        return nullptr;
    } else if (!args[i]->getType().isValue()) {
      diag.error(args[i]->getLoc(), "'device_print' cannot print a value of type " +
                                        args[i]->getType().str());
      return nullptr;
    }
  }
  return makeCall(loc, builtin, std::move(args), Type::getVoid());
}
