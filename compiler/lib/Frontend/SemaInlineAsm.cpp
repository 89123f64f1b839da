//===- SemaInlineAsm.cpp - Typing of tl.inline_asm_elementwise ------------===//
//
// inline_asm_elementwise(asm, constraints, args, dtype, is_pure, pack)
// becomes InlineAsmElementwise(asm, constraints, is_pure, args...) with the
// args broadcast to one shape and the result a tile (or scalar) of `dtype`.
// What LLVM or ptxas would reject later, or crash on, is checked here at the
// call: one output constraint, one input constraint per argument, register
// kinds that fit the values (h: 16 bits, r: 32, l: 64, f: fp32, d: fp64),
// and `$N` references to existing operands. pack must be 1 (Triton's
// packing of several elements per asm is not supported yet), and so must be
// the number of results.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include "llvm/ADT/StringExtras.h"

using namespace tilec;

namespace {
/// Why the register kind `letter` cannot hold a `kind` value, or "".
std::string registerMismatch(char letter, ScalarKind kind) {
  unsigned bits = getBitWidth(kind);
  switch (letter) {
  case 'h':
    return bits == 16 ? "" : "needs a 16-bit value";
  case 'r':
    return bits == 32 ? "" : "needs a 32-bit value";
  case 'l':
    return bits == 64 ? "" : "needs a 64-bit value";
  case 'f':
    return kind == ScalarKind::F32 ? "" : "needs an fp32 value";
  case 'd':
    return kind == ScalarKind::F64 ? "" : "needs an fp64 value";
  default:
    return "is not a PTX register kind (h, r, l, f or d)";
  }
}
} // namespace

ExprPtr Sema::typeInlineAsm(SourceLoc loc, std::vector<ExprPtr> args) {
  enum { AsmArg, ConstraintsArg, ArgsArg, DTypeArg, PureArg, PackArg };
  const ConstValue *text = getConstexpr(*args[AsmArg]);
  const ConstValue *constraints = getConstexpr(*args[ConstraintsArg]);
  for (auto [value, index] : {std::pair{text, AsmArg}, {constraints, ConstraintsArg}})
    if (!value || !value->isString()) {
      diag.error(args[index]->getLoc(), llvm::Twine("the ") +
                                            (index == AsmArg ? "asm" : "constraints") +
                                            " of inline_asm_elementwise must be a "
                                            "constexpr string");
      return nullptr;
    }
  const ConstValue *pure = getConstexpr(*args[PureArg]);
  const ConstValue *pack = getConstexpr(*args[PackArg]);
  if (!pure || !pure->isIntLike()) {
    diag.error(args[PureArg]->getLoc(), "is_pure must be a constexpr bool");
    return nullptr;
  }
  if (!pack || !pack->isInt() || pack->getInt() != 1) {
    diag.error(args[PackArg]->getLoc(),
               "not supported yet: inline_asm_elementwise with pack=" +
                   (pack ? pack->str() : args[PackArg]->getType().str()) +
                   " (only pack=1)");
    return nullptr;
  }
  const ConstValue *dtypes = getConstexpr(*args[DTypeArg]);
  if (dtypes && dtypes->isTuple()) {
    diag.error(args[DTypeArg]->getLoc(),
               "not supported yet: inline_asm_elementwise with several results");
    return nullptr;
  }
  std::optional<ScalarKind> resultKind = requireDType(*args[DTypeArg], diag);
  if (!resultKind)
    return nullptr;

  // The operands: a list or tuple of values (or one value), broadcast.
  std::vector<ExprPtr> operands;
  if (auto *tuple = llvm::dyn_cast<TupleExpr>(args[ArgsArg].get()))
    operands = tuple->takeElements();
  else if (const ConstValue *value = getConstexpr(*args[ArgsArg]); value && value->isTuple())
    for (const ConstValue &element : value->getTuple())
      operands.push_back(makeConstant(args[ArgsArg]->getLoc(), element));
  else
    operands.push_back(std::move(args[ArgsArg]));
  Shape shape;
  for (ExprPtr &operand : operands) {
    if (const ConstValue *value = getConstexpr(*operand)) {
      std::optional<ScalarKind> kind = getNaturalScalarKind(*value);
      if (!kind || !(operand = coerce(std::move(operand), *kind, {})))
        return diag.error(operand ? operand->getLoc() : loc,
                          "inline_asm_elementwise cannot pass " + value->str()),
               nullptr;
    } else if (!requireValue(*operand, "inline_asm_elementwise")) {
      return nullptr;
    }
    std::optional<Shape> common = broadcastShapes(shape, operand->getType().getShape());
    if (!common) {
      diag.error(operand->getLoc(), "the arguments of inline_asm_elementwise have "
                                    "incompatible shapes " +
                                        formatShape(shape) + " and " +
                                        formatShape(operand->getType().getShape()));
      return nullptr;
    }
    shape = *common;
  }

  // The constraints: "=X" for the result, then one per operand.
  llvm::SmallVector<llvm::StringRef> parts;
  llvm::StringRef(constraints->getString()).split(parts, ',');
  auto fail = [&](const llvm::Twine &message) -> ExprPtr {
    diag.error(args[ConstraintsArg]->getLoc(),
               "constraints '" + constraints->getString() + "': " + message);
    return nullptr;
  };
  if (parts.size() != operands.size() + 1)
    return fail("expected 1 output and " + llvm::Twine(operands.size()) +
                " input constraints, got " + llvm::Twine(parts.size()) + " in all");
  for (size_t i = 0; i < parts.size(); ++i) {
    llvm::StringRef part = parts[i].trim();
    bool output = part.consume_front("=");
    if (output != (i == 0))
      return fail(i == 0 ? "the first constraint must be an output ('=r')"
                         : "only the first constraint may be an output");
    ScalarKind kind = i == 0 ? *resultKind : operands[i - 1]->getType().getElement();
    if (i > 0 && operands[i - 1]->getType().isPointer())
      kind = ScalarKind::I64;
    std::string why = part.size() == 1 ? registerMismatch(part[0], kind)
                                       : "is not a single register kind";
    if (!why.empty())
      return fail("'" + parts[i].trim() + "' " + why + ", got " +
                  (i == 0 ? llvm::Twine("the result, ") : llvm::Twine("argument ") +
                                                              llvm::Twine(i - 1) + ", ") +
                  getScalarKindName(kind));
  }
  // `$N` must name an operand: LLVM stops at a reference past them.
  llvm::StringRef rest = text->getString();
  for (size_t at = rest.find('$'); at != llvm::StringRef::npos; at = rest.find('$', at + 1)) {
    llvm::StringRef digits = rest.substr(at + 1).take_while(llvm::isDigit);
    unsigned index = 0;
    if (rest.substr(at + 1).starts_with("$")) {
      ++at; // `$$` is a literal dollar.
      continue;
    }
    if (digits.empty() || digits.getAsInteger(10, index) || index > operands.size()) {
      diag.error(args[AsmArg]->getLoc(),
                 "the asm of inline_asm_elementwise refers to '$" + digits +
                     "', but only $0 (the result) to $" + llvm::Twine(operands.size()) +
                     " exist");
      return nullptr;
    }
  }

  std::vector<ExprPtr> callArgs;
  callArgs.push_back(std::move(args[AsmArg]));
  callArgs.push_back(std::move(args[ConstraintsArg]));
  callArgs.push_back(makeConstant(loc, ConstValue::getBool(pure->isTruthy())));
  for (ExprPtr &operand : operands)
    if (!callArgs.emplace_back(broadcast(std::move(operand), shape)))
      return nullptr;
  return makeCall(loc, Builtin::InlineAsmElementwise, std::move(callArgs),
                  Type::getTile(*resultKind, shape));
}
