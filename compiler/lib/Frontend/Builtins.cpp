//===- Builtins.cpp - The tile language's builtin functions ---------------===//
//
// The signature table and name lookup (prefix stripping, methods).
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/Builtins.h"

#include <cassert>

using namespace tilec;

namespace {
BuiltinParam req(llvm::StringRef name) { return {name, true, ConstValue()}; }
BuiltinParam opt(llvm::StringRef name, ConstValue value = ConstValue()) {
  return {name, false, std::move(value)};
}
BuiltinParam kwonly(llvm::StringRef name, ConstValue value) {
  return {name, false, std::move(value), /*keywordOnly=*/true};
}
ConstValue str(llvm::StringRef s) { return ConstValue::getString(s); }
ConstValue falseValue() { return ConstValue::getBool(false); }
ConstValue emptyTuple() { return ConstValue::getTuple({}); }

enum Flags { None = 0, Variadic = 1, Method = 2, Python = 4 };

std::vector<BuiltinInfo> buildTable() {
  using B = Builtin;
  std::vector<BuiltinInfo> table;
  auto add = [&](B kind, llvm::StringRef name, std::vector<BuiltinParam> params,
                 unsigned flags = None) {
    assert(static_cast<size_t>(kind) == table.size() && "table out of order");
    table.push_back({kind, name, std::move(params), (flags & Variadic) != 0,
                     (flags & Method) != 0, (flags & Python) != 0});
  };
  add(B::ProgramId, "program_id", {req("axis")});
  add(B::NumPrograms, "num_programs", {req("axis")});
  add(B::Arange, "arange", {req("start"), req("end")});
  add(B::Cdiv, "cdiv", {req("x"), req("div")});
  add(B::Zeros, "zeros", {req("shape"), req("dtype")});
  add(B::Full, "full", {req("shape"), req("value"), req("dtype")});
  add(B::ZerosLike, "zeros_like", {req("input")});
  add(B::Load, "load",
      {req("ptr"), opt("mask"), opt("other"), opt("boundary_check", emptyTuple()),
       opt("padding_option", str("")), opt("cache_modifier", str("")),
       opt("eviction_policy", str("")), opt("volatile", falseValue())});
  add(B::Store, "store",
      {req("ptr"), req("value"), opt("mask"), opt("boundary_check", emptyTuple()),
       opt("cache_modifier", str("")), opt("eviction_policy", str(""))});
  add(B::MakeBlockPtr, "make_block_ptr",
      {req("base"), req("shape"), req("strides"), req("offsets"),
       req("block_shape"), req("order")});
  add(B::Advance, "advance", {req("base"), req("offsets")}, Method);
  add(B::Reshape, "reshape",
      {req("input"), req("shape"), kwonly("can_reorder", falseValue())},
      Method | Variadic);
  add(B::Trans, "trans", {req("input")}, Method | Variadic);
  add(B::ExpandDims, "expand_dims", {req("input"), req("axis")}, Method);
  add(B::BroadcastTo, "broadcast_to", {req("input"), req("shape")},
      Method | Variadic);
  add(B::Permute, "permute", {req("input"), req("dims")}, Method | Variadic);
  add(B::BroadcastPair, "broadcast", {req("input"), req("other")}, Method);
  for (auto [kind, name] :
       {std::pair{B::Exp, "exp"}, {B::Exp2, "exp2"}, {B::Log, "log"},
        {B::Log2, "log2"}, {B::Sqrt, "sqrt"}, {B::Rsqrt, "rsqrt"},
        {B::Sin, "sin"}, {B::Cos, "cos"}, {B::Tanh, "tanh"}, {B::Abs, "abs"},
        {B::Floor, "floor"}, {B::Ceil, "ceil"}, {B::Sigmoid, "sigmoid"},
        {B::Erf, "erf"}})
    add(kind, name, {req("x")}, Method);
  add(B::Fma, "fma", {req("x"), req("y"), req("z")}, Method);
  add(B::Maximum, "maximum", {req("x"), req("y")}, Method);
  add(B::Minimum, "minimum", {req("x"), req("y")}, Method);
  add(B::Where, "where", {req("condition"), req("x"), req("y")});
  add(B::Clamp, "clamp", {req("x"), req("min"), req("max")}, Method);
  // Not reachable by name: Sema builds it for libdevice functions.
  add(B::LibdeviceCall, "<libdevice>", {req("symbol")}, Variadic);
  add(B::Sum, "sum",
      {req("input"), opt("axis"), opt("keep_dims", falseValue()), opt("dtype")},
      Method);
  for (auto [kind, name] : {std::pair{B::Max, "max"}, {B::Min, "min"}})
    add(kind, name,
        {req("input"), opt("axis"), opt("return_indices", falseValue()),
         opt("return_indices_tie_break_left", ConstValue::getBool(true)),
         opt("keep_dims", falseValue())},
        Method);
  for (auto [kind, name] : {std::pair{B::Argmax, "argmax"}, {B::Argmin, "argmin"}})
    add(kind, name,
        {req("input"), req("axis"), opt("tie_break_left", ConstValue::getBool(true)),
         opt("keep_dims", falseValue())},
        Method);
  add(B::Cumsum, "cumsum",
      {req("input"), opt("axis", ConstValue::getInt(0)),
       opt("reverse", falseValue()), opt("dtype")},
      Method);
  // With a user's combine function (SemaCombine.cpp).
  add(B::Reduce, "reduce",
      {req("input"), req("axis"), req("combine_fn"), opt("keep_dims", falseValue())},
      Method);
  add(B::AssociativeScan, "associative_scan",
      {req("input"), req("axis"), req("combine_fn"), opt("reverse", falseValue())},
      Method);
  add(B::Histogram, "histogram", {req("input"), req("num_bins"), opt("mask")}, Method);
  add(B::Dot, "dot",
      {req("a"), req("b"), opt("acc"), opt("input_precision"), opt("allow_tf32"),
       opt("max_num_imprecise_acc"),
       opt("out_dtype", ConstValue::getDType(ScalarKind::F32))});
  for (auto [kind, name] :
       {std::pair{B::AtomicAdd, "atomic_add"}, {B::AtomicMax, "atomic_max"},
        {B::AtomicMin, "atomic_min"}, {B::AtomicXchg, "atomic_xchg"}})
    add(kind, name,
        {req("ptr"), req("val"), opt("mask"), opt("sem"), opt("scope")});
  add(B::AtomicCas, "atomic_cas",
      {req("ptr"), req("cmp"), req("val"), opt("sem"), opt("scope")});
  for (auto [kind, name] :
       {std::pair{B::AtomicAnd, "atomic_and"}, {B::AtomicOr, "atomic_or"},
        {B::AtomicXor, "atomic_xor"}})
    add(kind, name,
        {req("ptr"), req("val"), opt("mask"), opt("sem"), opt("scope")});
  add(B::MultipleOf, "multiple_of", {req("input"), req("values")});
  add(B::MaxContiguous, "max_contiguous", {req("input"), req("values")});
  add(B::MaxConstancy, "max_constancy", {req("input"), req("values")});
  add(B::Assume, "assume", {req("cond")});
  add(B::StaticAssert, "static_assert", {req("cond"), opt("msg", str(""))});
  add(B::StaticPrint, "static_print", {}, Variadic);
  add(B::DevicePrint, "device_print",
      {req("prefix"), kwonly("hex", falseValue())}, Variadic);
  add(B::DeviceAssert, "device_assert", {req("cond"), opt("msg", str(""))});
  add(B::DebugBarrier, "debug_barrier", {});
  // Triton 3.6's tl.range; the options after num_stages are hints tilec
  // reads and reports as ignored (SemaControlFlow.cpp).
  add(B::Range, "range",
      {req("arg1"), opt("arg2"), opt("step"), opt("num_stages"), opt("loop_unroll_factor"),
       opt("disallow_acc_multi_buffer", falseValue()), opt("flatten", falseValue()),
       opt("warp_specialize", falseValue()), opt("disable_licm", falseValue())});
  add(B::StaticRange, "static_range", {req("arg1"), opt("arg2"), opt("step")});
  add(B::Cast, "cast",
      {req("input"), req("dtype"), opt("fp_downcast_rounding"),
       opt("bitcast", falseValue())},
      Method);
  add(B::Constexpr, "constexpr", {req("value")});
  // triton.next_power_of_2, which heuristics and constexpr code call.
  add(B::NextPowerOf2, "next_power_of_2", {req("n")});
  add(B::PointerType, "pointer_type", {req("element_ty")});
  add(B::PyRange, "range", {req("arg1"), opt("arg2"), opt("step")}, Python);
  add(B::PyMin, "min", {}, Python | Variadic);
  add(B::PyMax, "max", {}, Python | Variadic);
  add(B::PyFloat, "float", {req("x")}, Python);
  add(B::PyInt, "int", {req("x")}, Python);
  add(B::PyBool, "bool", {req("x")}, Python);
  add(B::PyLen, "len", {req("x")}, Python);
  add(B::View, "view", {req("input"), req("shape")}, Method | Variadic);
  add(B::MakeTensorDescriptor, "make_tensor_descriptor",
      {req("base"), req("shape"), req("strides"), req("block_shape"),
       opt("padding_option", str("zero"))});
  // desc.load(offsets) / desc.store(offsets, value): methods only (tl.load
  // and tl.store resolve to the entries above).
  add(B::DescriptorLoad, "load", {req("desc"), req("offsets")}, Method);
  add(B::DescriptorStore, "store", {req("desc"), req("offsets"), req("value")}, Method);
  add(B::InlineAsmElementwise, "inline_asm_elementwise",
      {req("asm"), req("constraints"), req("args"), req("dtype"), req("is_pure"),
       req("pack")});
  // '$' keeps it out of reach of every source name.
  add(B::MakeTensorMap, "$make_tensormap",
      {req("base"), req("shape0"), req("shape1"), req("stride0"), req("stride1"),
       req("box"), req("swizzle")});
  return table;
}

const std::vector<BuiltinInfo> &getTable() {
  static const std::vector<BuiltinInfo> table = buildTable();
  return table;
}

std::optional<Builtin> findByName(llvm::StringRef name, bool python) {
  for (const BuiltinInfo &info : getTable())
    if (info.isPython == python && info.name == name)
      return info.kind;
  return std::nullopt;
}
} // namespace

const BuiltinInfo &tilec::getBuiltinInfo(Builtin kind) {
  return getTable()[static_cast<size_t>(kind)];
}

std::optional<Builtin> tilec::lookupBuiltin(llvm::StringRef name) {
  bool hadPrefix = false;
  for (llvm::StringRef prefix :
       {"triton.language.math.", "triton.language.", "tl.math.", "tl.", "triton."}) {
    if (name.consume_front(prefix)) {
      hadPrefix = true;
      break;
    }
  }
  if (!hadPrefix)
    if (auto python = findByName(name, /*python=*/true))
      return python;
  return findByName(name, /*python=*/false);
}

std::optional<Builtin> tilec::lookupBuiltinMethod(llvm::StringRef name) {
  if (name == "to")
    return Builtin::Cast;
  for (const BuiltinInfo &info : getTable())
    if (info.isMethod && info.name == name)
      return info.kind;
  return std::nullopt;
}

std::string tilec::getBuiltinSignature(Builtin kind) {
  const BuiltinInfo &info = getBuiltinInfo(kind);
  std::string result = info.name.str() + "(";
  for (size_t i = 0; i < info.params.size(); ++i) {
    const BuiltinParam &param = info.params[i];
    if (param.keywordOnly && info.variadic)
      continue;
    result += (i ? ", " : "") + param.name.str();
    if (!param.required)
      result += "=" + param.defaultValue.str();
  }
  if (info.variadic)
    result += info.params.empty() ? "*args" : ", *args";
  for (const BuiltinParam &param : info.params)
    if (param.keywordOnly && info.variadic)
      result += ", " + param.name.str() + "=" + param.defaultValue.str();
  return result + ")";
}
