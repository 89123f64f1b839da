//===- ConstFold.cpp - Constexpr arithmetic with Python semantics ---------===//
//
// Folding of operators on compile-time values. Ints are 64-bit; overflow is
// an error rather than a silent wrap. `//` and `%` floor (Python), unlike
// the C-style truncation of the same operators on runtime integer tiles.
// Python's math module on constants (`math.pi`, `math.log(2.0)`).
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include <algorithm>
#include <cmath>

using namespace tilec;

namespace {
const char *getTypeName(const ConstValue &value) {
  switch (value.getKind()) {
  case ConstValue::Kind::None: return "NoneType";
  case ConstValue::Kind::Bool: return "bool";
  case ConstValue::Kind::Int: return "int";
  case ConstValue::Kind::Float: return "float";
  case ConstValue::Kind::String: return "str";
  case ConstValue::Kind::DType: return "dtype";
  case ConstValue::Kind::PointerDType: return "pointer_type";
  case ConstValue::Kind::Tuple: return "tuple";
  }
  return "?";
}

std::optional<ConstValue> fail(std::string &error, const llvm::Twine &message) {
  error = message.str();
  return std::nullopt;
}

std::optional<ConstValue> foldFloat(BinaryOp op, double a, double b,
                                    std::string &error) {
  switch (op) {
  case BinaryOp::Add: return ConstValue::getFloat(a + b);
  case BinaryOp::Sub: return ConstValue::getFloat(a - b);
  case BinaryOp::Mul: return ConstValue::getFloat(a * b);
  case BinaryOp::Div:
  case BinaryOp::FloorDiv:
  case BinaryOp::Mod:
    if (b == 0)
      return fail(error, "division by zero in constexpr expression");
    if (op == BinaryOp::Div)
      return ConstValue::getFloat(a / b);
    if (op == BinaryOp::FloorDiv)
      return ConstValue::getFloat(std::floor(a / b));
    {
      double r = std::fmod(a, b);
      if (r != 0 && ((r < 0) != (b < 0)))
        r += b;
      return ConstValue::getFloat(r);
    }
  case BinaryOp::Pow: return ConstValue::getFloat(std::pow(a, b));
  default:
    return fail(error, "unsupported operand type for '" + getSpelling(op) +
                           "': float");
  }
}

std::optional<ConstValue> foldInt(BinaryOp op, int64_t a, int64_t b,
                                  std::string &error) {
  int64_t r = 0;
  auto overflow = [&] {
    return fail(error, "integer overflow in constexpr expression '" +
                           llvm::Twine(a) + " " + getSpelling(op) + " " +
                           llvm::Twine(b) + "'");
  };
  switch (op) {
  case BinaryOp::Add:
    if (__builtin_add_overflow(a, b, &r))
      return overflow();
    return ConstValue::getInt(r);
  case BinaryOp::Sub:
    if (__builtin_sub_overflow(a, b, &r))
      return overflow();
    return ConstValue::getInt(r);
  case BinaryOp::Mul:
    if (__builtin_mul_overflow(a, b, &r))
      return overflow();
    return ConstValue::getInt(r);
  case BinaryOp::Div:
    if (b == 0)
      return fail(error, "division by zero in constexpr expression");
    return ConstValue::getFloat(static_cast<double>(a) / static_cast<double>(b));
  case BinaryOp::FloorDiv:
  case BinaryOp::Mod: {
    if (b == 0)
      return fail(error, "division by zero in constexpr expression");
    if (a == INT64_MIN && b == -1)
      return op == BinaryOp::Mod ? std::optional(ConstValue::getInt(0)) : overflow();
    int64_t q = a / b, m = a % b;
    if (m != 0 && ((m < 0) != (b < 0))) {
      --q;
      m += b;
    }
    return ConstValue::getInt(op == BinaryOp::FloorDiv ? q : m);
  }
  case BinaryOp::Pow: {
    if (b < 0)
      return ConstValue::getFloat(std::pow(static_cast<double>(a), static_cast<double>(b)));
    int64_t result = 1, base = a;
    for (int64_t e = b; e > 0; e >>= 1) {
      if ((e & 1) && __builtin_mul_overflow(result, base, &result))
        return overflow();
      if (e > 1 && __builtin_mul_overflow(base, base, &base))
        return overflow();
    }
    return ConstValue::getInt(result);
  }
  case BinaryOp::LShift:
    if (b < 0)
      return fail(error, "negative shift count in constexpr expression");
    if (b >= 63 || (a != 0 && (a > (INT64_MAX >> b) || a < (INT64_MIN >> b))))
      return a == 0 ? std::optional(ConstValue::getInt(0)) : overflow();
    return ConstValue::getInt(a * (int64_t(1) << b));
  case BinaryOp::RShift:
    if (b < 0)
      return fail(error, "negative shift count in constexpr expression");
    return ConstValue::getInt(b >= 64 ? (a < 0 ? -1 : 0) : a >> b);
  case BinaryOp::BitAnd: return ConstValue::getInt(a & b);
  case BinaryOp::BitOr: return ConstValue::getInt(a | b);
  case BinaryOp::BitXor: return ConstValue::getInt(a ^ b);
  default:
    return fail(error, "unsupported operator '" + getSpelling(op) + "' on ints");
  }
}

std::optional<ConstValue> foldCompare(BinaryOp op, const ConstValue &a,
                                      const ConstValue &b, std::string &error) {
  if (op == BinaryOp::Eq || op == BinaryOp::Ne)
    return ConstValue::getBool((a == b) == (op == BinaryOp::Eq));
  int cmp;
  if (a.isNumber() && b.isNumber()) {
    if (a.isFloat() || b.isFloat())
      cmp = a.getFloat() < b.getFloat() ? -1 : a.getFloat() > b.getFloat() ? 1 : 0;
    else
      cmp = a.getInt() < b.getInt() ? -1 : a.getInt() > b.getInt() ? 1 : 0;
  } else if (a.isString() && b.isString()) {
    cmp = a.getString().compare(b.getString());
  } else {
    return fail(error, "'" + getSpelling(op) + "' is not defined between '" +
                           getTypeName(a) + "' and '" + getTypeName(b) + "'");
  }
  switch (op) {
  case BinaryOp::Lt: return ConstValue::getBool(cmp < 0);
  case BinaryOp::Le: return ConstValue::getBool(cmp <= 0);
  case BinaryOp::Gt: return ConstValue::getBool(cmp > 0);
  default: return ConstValue::getBool(cmp >= 0);
  }
}
} // namespace

std::optional<ConstValue> tilec::foldBinary(BinaryOp op, const ConstValue &a,
                                            const ConstValue &b, std::string &error) {
  switch (op) {
  case BinaryOp::And: return a.isTruthy() ? b : a;
  case BinaryOp::Or: return a.isTruthy() ? a : b;
  case BinaryOp::Is:
  case BinaryOp::IsNot:
    return ConstValue::getBool((a.getKind() == b.getKind() && a == b) ==
                               (op == BinaryOp::Is));
  default:
    break;
  }
  if (isComparison(op))
    return foldCompare(op, a, b, error);
  if (op == BinaryOp::Add && a.isString() && b.isString())
    return ConstValue::getString((a.getString() + b.getString()).str());
  if (op == BinaryOp::Add && a.isTuple() && b.isTuple()) {
    std::vector<ConstValue> elements(a.getTuple().begin(), a.getTuple().end());
    elements.insert(elements.end(), b.getTuple().begin(), b.getTuple().end());
    return ConstValue::getTuple(std::move(elements));
  }
  // `[2] * LOG_N` (shapes for reshape): repetition, either way round.
  if (op == BinaryOp::Mul && (a.isTuple() != b.isTuple()) &&
      (a.isTuple() ? b : a).isInt() && !(a.isTuple() ? b : a).isBool()) {
    const ConstValue &tuple = a.isTuple() ? a : b;
    int64_t count = std::max<int64_t>(0, (a.isTuple() ? b : a).getInt());
    if (count > (1 << 16) || count * static_cast<int64_t>(tuple.getTuple().size()) > (1 << 16))
      return fail(error, "a repeated tuple of more than 65536 elements");
    std::vector<ConstValue> elements;
    for (int64_t i = 0; i < count; ++i)
      elements.insert(elements.end(), tuple.getTuple().begin(), tuple.getTuple().end());
    return ConstValue::getTuple(std::move(elements));
  }
  if (!a.isNumber() || !b.isNumber())
    return fail(error, "unsupported operand types for '" + getSpelling(op) +
                           "': '" + getTypeName(a) + "' and '" + getTypeName(b) + "'");
  if (a.isFloat() || b.isFloat())
    return foldFloat(op, a.getFloat(), b.getFloat(), error);
  bool bitwise = op == BinaryOp::BitAnd || op == BinaryOp::BitOr ||
                 op == BinaryOp::BitXor;
  std::optional<ConstValue> result = foldInt(op, a.getInt(), b.getInt(), error);
  if (result && bitwise && a.isBool() && b.isBool())
    return ConstValue::getBool(result->getInt() != 0);
  return result;
}

std::optional<ConstValue> tilec::foldUnary(UnaryOp op, const ConstValue &value,
                                           std::string &error) {
  if (op == UnaryOp::Not)
    return ConstValue::getBool(!value.isTruthy());
  if (op == UnaryOp::Star)
    return fail(error, "not supported: unpacking with '*'");
  if (!value.isNumber() || (op == UnaryOp::Invert && value.isFloat()))
    return fail(error, "bad operand type for unary '" + getSpelling(op) + "': '" +
                           getTypeName(value) + "'");
  switch (op) {
  case UnaryOp::Neg:
    if (value.isFloat())
      return ConstValue::getFloat(-value.getFloat());
    if (value.getInt() == INT64_MIN)
      return fail(error, "integer overflow in constexpr expression");
    return ConstValue::getInt(-value.getInt());
  case UnaryOp::Pos:
    return value.isBool() ? ConstValue::getInt(value.getInt()) : value;
  default:
    return ConstValue::getInt(~value.getInt());
  }
}

std::optional<ConstValue> tilec::getPythonMathConstant(llvm::StringRef name) {
  if (name == "pi")
    return ConstValue::getFloat(M_PI);
  if (name == "e")
    return ConstValue::getFloat(M_E);
  if (name == "tau")
    return ConstValue::getFloat(2 * M_PI);
  if (name == "inf")
    return ConstValue::getFloat(INFINITY);
  if (name == "nan")
    return ConstValue::getFloat(NAN);
  return std::nullopt;
}

std::optional<ConstValue> tilec::foldPythonMath(llvm::StringRef name,
                                                llvm::ArrayRef<ConstValue> args,
                                                std::string &error) {
  for (const ConstValue &arg : args)
    if (!arg.isNumber())
      return fail(error, "math." + name + " takes numbers, got " + arg.str());
  auto arity = [&](size_t lo, size_t hi) {
    return args.size() >= lo && args.size() <= hi;
  };
  double x = args.empty() ? 0 : args[0].getFloat();
  // Python raises where C returns NaN (a domain error) or overflows to an
  // infinity from finite arguments (a range error).
  auto real = [&](double value) -> std::optional<ConstValue> {
    bool finiteArgs = llvm::all_of(args, [](const ConstValue &arg) {
      return std::isfinite(arg.getFloat());
    });
    if (std::isnan(value) && finiteArgs)
      return fail(error, "math." + name + ": math domain error");
    if (std::isinf(value) && finiteArgs)
      return fail(error, "math." + name + ": math range error");
    return ConstValue::getFloat(value);
  };
  using Fn = double (*)(double);
  static const std::pair<const char *, Fn> unary[] = {
      {"sqrt", [](double v) { return std::sqrt(v); }},
      {"exp", [](double v) { return std::exp(v); }},
      {"log2", [](double v) { return std::log2(v); }},
      {"log10", [](double v) { return std::log10(v); }},
      {"log1p", [](double v) { return std::log1p(v); }},
      {"expm1", [](double v) { return std::expm1(v); }},
      {"sin", [](double v) { return std::sin(v); }},
      {"cos", [](double v) { return std::cos(v); }},
      {"tan", [](double v) { return std::tan(v); }},
      {"atan", [](double v) { return std::atan(v); }},
      {"tanh", [](double v) { return std::tanh(v); }},
      {"erf", [](double v) { return std::erf(v); }},
      {"fabs", [](double v) { return std::fabs(v); }}};
  for (auto [fnName, fn] : unary)
    if (name == fnName) {
      if (!arity(1, 1))
        return fail(error, "math." + name + " takes 1 argument");
      if ((name == "sqrt" && x < 0) || ((name == "log2" || name == "log10") && x <= 0) ||
          (name == "log1p" && x <= -1))
        return fail(error, "math." + name + ": math domain error");
      return real(fn(x));
    }
  if (name == "log") {
    if (!arity(1, 2))
      return fail(error, "math.log takes 1 or 2 arguments");
    if (x <= 0 || (args.size() == 2 && (args[1].getFloat() <= 0 || args[1].getFloat() == 1)))
      return fail(error, "math.log: math domain error");
    if (std::isinf(x))
      return ConstValue::getFloat(x);
    return real(args.size() == 2 ? std::log(x) / std::log(args[1].getFloat()) : std::log(x));
  }
  if (name == "pow" || name == "atan2") {
    if (!arity(2, 2))
      return fail(error, "math." + name + " takes 2 arguments");
    double y = args[1].getFloat();
    if (name == "pow" && x == 0 && y < 0)
      return fail(error, "math.pow: math domain error");
    return real(name == "pow" ? std::pow(x, y) : std::atan2(x, y));
  }
  if (name == "ceil" || name == "floor") {
    if (!arity(1, 1))
      return fail(error, "math." + name + " takes 1 argument");
    if (args[0].isIntLike()) // Exact, as Python's.
      return ConstValue::getInt(args[0].getInt());
    double r = name == "ceil" ? std::ceil(x) : std::floor(x);
    if (!std::isfinite(r) || r < -9.223372036854775808e18 || r >= 9.223372036854775808e18)
      return fail(error, "math." + name + " of " + args[0].str() + " is no 64-bit int");
    return ConstValue::getInt(static_cast<int64_t>(r));
  }
  if (name == "isnan" || name == "isinf" || name == "isfinite") {
    if (!arity(1, 1))
      return fail(error, "math." + name + " takes 1 argument");
    return ConstValue::getBool(name == "isnan"   ? std::isnan(x)
                               : name == "isinf" ? std::isinf(x)
                                                 : std::isfinite(x));
  }
  return fail(error, "unknown function 'math." + name +
                         "' (tilec folds Python's math module on constants only: sqrt, exp, "
                         "log, log2, log10, log1p, expm1, sin, cos, tan, atan, atan2, tanh, "
                         "erf, fabs, pow, ceil, floor, isnan, isinf, isfinite)");
}
