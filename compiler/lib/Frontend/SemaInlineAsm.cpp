//===- SemaInlineAsm.cpp - Typing of tl.inline_asm_elementwise ------------===//
//
// inline_asm_elementwise(asm, constraints, args, dtype, is_pure, pack)
// becomes, for each result (one per dtype of a tuple `dtype`),
//   InlineAsmElementwise(asm, constraints, is_pure, pack, (dtypes...),
//                        result index, group, args...)
// with the args broadcast to one shape and the result a tile (or scalar) of
// its dtype; MLIRGen makes one op per group (with several results, the args
// are evaluated once, into variables). What LLVM or ptxas would reject
// later, or crash on, is checked here at the call: one constraint per
// register, the results' outputs first, then the arguments' inputs (with
// pack > 1, values narrower than 32 bits share registers of up to 32 bits,
// as in Triton: pack=4 fp16 values take two `r`), register kinds that fit
// (h: 16 bits, r: 32, l: 64; f: one fp32, d: one fp64), and `$N`
// references to existing registers.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include "llvm/ADT/StringExtras.h"

using namespace tilec;

namespace {
/// Values of `kind` that one register holds in a statement on `pack` of
/// them: narrow values share registers of at most 32 bits (four bytes, two
/// halves), as Triton packs them; wider ones take one register each. The
/// lowering (InlineAsmOpToLLVM.cpp) splits the same way.
int64_t getValuesPerRegister(ScalarKind kind, int64_t pack) {
  int64_t bits = getBitWidth(kind);
  return bits >= 32 ? 1 : std::min<int64_t>(pack, 32 / bits);
}

/// Why the register kind `letter` cannot hold `pack` values of `kind` (side
/// by side), or "".
std::string registerMismatch(char letter, ScalarKind kind, int64_t pack) {
  int64_t bits = getBitWidth(kind) * pack;
  auto width = [&](int64_t want) -> std::string {
    if (bits == want)
      return "";
    return "needs a " + std::to_string(want) + "-bit value" +
           (pack == 1 ? std::string()
                      : " (pack=" + std::to_string(pack) + " elements of " +
                            std::to_string(getBitWidth(kind)) + " bits make " +
                            std::to_string(bits) + ")");
  };
  switch (letter) {
  case 'h':
    return width(16);
  case 'r':
    return width(32);
  case 'l':
    return width(64);
  case 'f':
    return kind == ScalarKind::F32 && pack == 1 ? "" : "needs one fp32 value";
  case 'd':
    return kind == ScalarKind::F64 && pack == 1 ? "" : "needs one fp64 value";
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
  if (!pack || !pack->isInt() || pack->getInt() < 1 || pack->getInt() > 8 ||
      (pack->getInt() & (pack->getInt() - 1))) {
    diag.error(args[PackArg]->getLoc(),
               "pack of inline_asm_elementwise must be 1, 2, 4 or 8, got " +
                   (pack ? pack->str() : args[PackArg]->getType().str()));
    return nullptr;
  }
  int64_t packed = pack->getInt();
  // One result per dtype: `dtype=(tl.int32, tl.float32)` gives a tuple.
  const ConstValue *dtypes = getConstexpr(*args[DTypeArg]);
  bool several = dtypes && dtypes->isTuple();
  std::vector<ScalarKind> resultKinds;
  if (several) {
    for (const ConstValue &dtype : dtypes->getTuple()) {
      if (!dtype.isDType()) {
        diag.error(args[DTypeArg]->getLoc(), "the dtypes of inline_asm_elementwise must "
                                             "be dtypes such as tl.int32, got " +
                                                 dtype.str());
        return nullptr;
      }
      resultKinds.push_back(dtype.getDType());
    }
    if (resultKinds.empty()) {
      diag.error(args[DTypeArg]->getLoc(), "inline_asm_elementwise needs a result dtype");
      return nullptr;
    }
  } else {
    std::optional<ScalarKind> resultKind = requireDType(*args[DTypeArg], diag);
    if (!resultKind)
      return nullptr;
    resultKinds.push_back(*resultKind);
  }
  size_t numResults = resultKinds.size();

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

  // The constraints: "=X" for each result, then one per operand.
  llvm::SmallVector<llvm::StringRef> parts;
  llvm::StringRef(constraints->getString()).split(parts, ',');
  auto fail = [&](const llvm::Twine &message) -> ExprPtr {
    diag.error(args[ConstraintsArg]->getLoc(),
               "constraints '" + constraints->getString() + "': " + message);
    return nullptr;
  };
  // One constraint per register: each result's, then each argument's.
  struct Register {
    bool isResult;
    size_t index;    ///< Of the result or the argument.
    ScalarKind kind; ///< Of its values.
    int64_t values;  ///< How many it holds.
  };
  std::vector<Register> registers;
  size_t outputs = 0;
  for (size_t i = 0; i < numResults + operands.size(); ++i) {
    bool isResult = i < numResults;
    size_t index = isResult ? i : i - numResults;
    ScalarKind kind = isResult ? resultKinds[index] : operands[index]->getType().getElement();
    if (!isResult && operands[index]->getType().isPointer()) {
      if (packed != 1)
        return fail("argument " + llvm::Twine(index) +
                    " is a pointer, which cannot be packed (pack=" + llvm::Twine(packed) +
                    ")");
      kind = ScalarKind::I64;
    }
    int64_t values = getValuesPerRegister(kind, packed);
    for (int64_t r = 0; r < packed / values; ++r)
      registers.push_back({isResult, index, kind, values});
    if (isResult)
      outputs = registers.size();
  }
  if (parts.size() != registers.size())
    return fail("expected " + llvm::Twine(outputs) + " output and " +
                llvm::Twine(registers.size() - outputs) + " input constraints" +
                (packed == 1 ? llvm::Twine("")
                             : llvm::Twine(" (one per register: pack=") +
                                   llvm::Twine(packed) + " values fill registers of up "
                                                         "to 32 bits)") +
                ", got " + llvm::Twine(parts.size()) + " in all");
  for (auto [i, reg] : llvm::enumerate(registers)) {
    llvm::StringRef part = parts[i].trim();
    bool output = part.consume_front("=");
    if (output != reg.isResult)
      return fail(reg.isResult ? "the first " + llvm::Twine(outputs) +
                                     " constraints must be outputs ('=r')"
                               : "only the first " + llvm::Twine(outputs) +
                                     " constraints may be outputs");
    std::string why = part.size() == 1 ? registerMismatch(part[0], reg.kind, reg.values)
                                       : "is not a single register kind";
    if (!why.empty())
      return fail("'" + parts[i].trim() + "' " + why + ", got " +
                  (reg.isResult ? "result " : "argument ") + llvm::Twine(reg.index) +
                  ", " + getScalarKindName(reg.kind));
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
    if (digits.empty() || digits.getAsInteger(10, index) || index >= registers.size()) {
      diag.error(args[AsmArg]->getLoc(),
                 "the asm of inline_asm_elementwise refers to '$" + digits +
                     "', but only $0 to $" + llvm::Twine(registers.size() - 1) + " (" +
                     llvm::Twine(outputs) + (outputs == 1 ? " output" : " outputs") +
                     ", then the inputs) exist");
      return nullptr;
    }
  }

  // With several results, one call per result reads the arguments from
  // variables (MLIRGen makes one op of the group).
  std::vector<std::unique_ptr<NameExpr>> once;
  for (ExprPtr &operand : operands) {
    if (!(operand = broadcast(std::move(operand), shape)))
      return nullptr;
    if (several)
      once.push_back(evaluateOnce("$asm" + std::to_string(inlineAsmGroups) + "." +
                                      std::to_string(once.size()),
                                  std::move(operand)));
  }
  std::vector<ConstValue> kinds;
  for (ScalarKind kind : resultKinds)
    kinds.push_back(ConstValue::getDType(kind));
  int64_t group = inlineAsmGroups++;
  std::vector<ExprPtr> results;
  for (size_t index = 0; index < numResults; ++index) {
    std::vector<ExprPtr> callArgs;
    callArgs.push_back(makeConstant(loc, *text));
    callArgs.push_back(makeConstant(loc, *constraints));
    callArgs.push_back(makeConstant(loc, ConstValue::getBool(pure->isTruthy())));
    callArgs.push_back(makeConstant(loc, ConstValue::getInt(packed)));
    callArgs.push_back(makeConstant(loc, ConstValue::getTuple(kinds)));
    callArgs.push_back(makeConstant(loc, ConstValue::getInt(static_cast<int64_t>(index))));
    callArgs.push_back(makeConstant(loc, ConstValue::getInt(group)));
    for (size_t i = 0; i < operands.size(); ++i)
      callArgs.push_back(several ? ExprPtr(readAgain(*once[i])) : std::move(operands[i]));
    results.push_back(makeCall(loc, Builtin::InlineAsmElementwise, std::move(callArgs),
                               Type::getTile(resultKinds[index], shape)));
  }
  if (!several)
    return std::move(results.front());
  return std::make_unique<TupleExpr>(loc, std::move(results), /*list=*/false);
}
