//===- Libdevice.cpp - The libdevice functions a kernel may call ----------===//
//
// The table of libdevice functions. A form is written "ARGS>RESULT SYMBOL"
// with one letter per type: f fp32, d fp64, i i32, u u32, l i64, L u64. Most
// float functions come in an fp32 form `__nv_NAMEf` and an fp64 form
// `__nv_NAME`; the rounding-mode families (div_rn, div_rz, ...) have one
// entry per mode.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/Libdevice.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace tilec;

namespace {

ScalarKind kindOfLetter(char letter) {
  switch (letter) {
  case 'f': return ScalarKind::F32;
  case 'd': return ScalarKind::F64;
  case 'i': return ScalarKind::I32;
  case 'u': return ScalarKind::U32;
  case 'l': return ScalarKind::I64;
  case 'L': return ScalarKind::U64;
  }
  llvm_unreachable("unknown type letter in the libdevice table");
}

/// Parses "ARGS>RESULT SYMBOL".
LibdeviceOverload parseForm(llvm::StringRef form) {
  auto [types, symbol] = form.split(' ');
  auto [args, result] = types.split('>');
  LibdeviceOverload overload;
  for (char letter : args)
    overload.args.push_back(kindOfLetter(letter));
  overload.result = kindOfLetter(result.front());
  overload.symbol = symbol.str();
  return overload;
}

class TableBuilder {
public:
  std::vector<LibdeviceFunction> functions;

  /// A function with explicit forms.
  void add(llvm::StringRef name, std::initializer_list<llvm::StringRef> forms,
           bool returnsBool = false) {
    LibdeviceFunction function{name.str(), {}, returnsBool};
    for (llvm::StringRef form : forms)
      function.overloads.push_back(parseForm(form));
    functions.push_back(std::move(function));
  }

  /// Float functions of `arity` arguments: `__nv_NAMEf` on fp32 and
  /// `__nv_NAME` on fp64.
  void addFloat(unsigned arity, std::initializer_list<llvm::StringRef> names) {
    for (llvm::StringRef name : names) {
      std::string f(arity, 'f'), d(arity, 'd');
      add(name, {f + ">f __nv_" + name.str() + "f", d + ">d __nv_" + name.str()});
    }
  }

  /// `BASE_rn`, `BASE_rz`, `BASE_rd`, `BASE_ru` with the symbols
  /// `FSYMBOL_MODE` on fp32 and `DSYMBOL_MODE` on fp64.
  void addRounded(llvm::StringRef base, unsigned arity, llvm::StringRef fSymbol,
                  llvm::StringRef dSymbol) {
    for (llvm::StringRef mode : {"rn", "rz", "rd", "ru"}) {
      std::string f(arity, 'f'), d(arity, 'd');
      add((base + "_" + mode).str(),
          {f + ">f " + fSymbol.str() + "_" + mode.str(),
           d + ">d " + dSymbol.str() + "_" + mode.str()});
    }
  }

  /// Conversions `BASE_MODE` for the four rounding modes: `FORM` is
  /// "ARGS>RESULT" and the symbol `__nv_BASE_MODE`.
  void addConversion(llvm::StringRef base, llvm::StringRef form,
                     llvm::ArrayRef<llvm::StringRef> modes = {"rn", "rz", "rd", "ru"}) {
    for (llvm::StringRef mode : modes) {
      std::string name = (base + "_" + mode).str();
      add(name, {form.str() + " __nv_" + name});
    }
  }
};

std::vector<LibdeviceFunction> buildTable() {
  TableBuilder t;
  t.addFloat(1, {"floor", "ceil", "trunc", "exp2", "rsqrt", "sqrt", "rint",
                 "nearbyint", "sin", "cos", "sinpi", "cospi", "tan", "log2",
                 "exp", "exp10", "cosh", "sinh", "tanh", "atan", "asin", "acos",
                 "log", "log10", "log1p", "acosh", "asinh", "atanh", "expm1",
                 "cbrt", "rcbrt", "j0", "j1", "y0", "y1", "cyl_bessel_i0",
                 "cyl_bessel_i1", "erf", "erfinv", "erfc", "erfcx", "erfcinv",
                 "normcdfinv", "normcdf", "lgamma", "tgamma", "round", "logb"});
  t.addFloat(2, {"atan2", "hypot", "rhypot", "copysign", "nextafter", "fmod",
                 "remainder", "fdim"});
  t.addFloat(3, {"fma", "norm3d", "rnorm3d"});
  t.addFloat(4, {"norm4d", "rnorm4d"});
  t.addRounded("div", 2, "__nv_fdiv", "__nv_ddiv");
  t.addRounded("rcp", 1, "__nv_frcp", "__nv_drcp");
  t.addRounded("sqrt", 1, "__nv_fsqrt", "__nv_dsqrt");
  t.addRounded("add", 2, "__nv_fadd", "__nv_dadd");
  t.addRounded("sub", 2, "__nv_fsub", "__nv_dsub");
  t.addRounded("mul", 2, "__nv_fmul", "__nv_dmul");
  t.addRounded("fma", 3, "__nv_fmaf", "__nv_fma");
  t.add("abs", {"i>i __nv_abs", "l>l __nv_llabs", "f>f __nv_fabsf", "d>d __nv_fabs"});
  t.add("pow", {"fi>f __nv_powif", "di>d __nv_powi", "ff>f __nv_powf",
                "dd>d __nv_pow"});
  t.add("ldexp", {"fi>f __nv_ldexpf", "di>d __nv_ldexp"});
  t.add("scalbn", {"fi>f __nv_scalbnf", "di>d __nv_scalbn"});
  t.add("yn", {"if>f __nv_ynf", "id>d __nv_yn"});
  t.add("jn", {"if>f __nv_jnf", "id>d __nv_jn"});
  t.add("ilogb", {"f>i __nv_ilogbf", "d>i __nv_ilogb"});
  t.add("llrint", {"f>l __nv_llrintf", "d>l __nv_llrint"});
  t.add("llround", {"f>l __nv_llroundf", "d>l __nv_llround"});
  t.add("isnan", {"f>i __nv_isnanf", "d>i __nv_isnand"}, /*returnsBool=*/true);
  t.add("isinf", {"f>i __nv_isinff", "d>i __nv_isinfd"}, /*returnsBool=*/true);
  t.add("signbit", {"f>i __nv_signbitf", "d>i __nv_signbitd"});
  t.add("finitef", {"f>i __nv_finitef"});
  t.add("isfinited", {"d>i __nv_isfinited"});
  t.add("rcp64h", {"d>d __nv_rcp64h"});
  t.add("saturatef", {"f>f __nv_saturatef"});
  t.add("rsqrt_rn", {"f>f __nv_frsqrt_rn"});
  t.add("fast_dividef", {"ff>f __nv_fast_fdividef"});
  for (llvm::StringRef name : {"fast_sinf", "fast_cosf", "fast_log2f", "fast_logf",
                               "fast_expf", "fast_tanf", "fast_exp10f", "fast_log10f"})
    t.add(name, {"f>f __nv_" + name.str()});
  t.add("fast_powf", {"ff>f __nv_fast_powf"});
  // Integer functions.
  t.add("clz", {"i>i __nv_clz", "l>i __nv_clzll"});
  t.add("popc", {"i>i __nv_popc", "l>i __nv_popcll"});
  t.add("ffs", {"i>i __nv_ffs", "l>i __nv_ffsll"});
  t.add("brev", {"i>i __nv_brev", "l>l __nv_brevll"});
  t.add("byte_perm", {"iii>i __nv_byte_perm"});
  t.add("mulhi", {"ii>i __nv_mulhi", "uu>u __nv_umulhi", "ll>l __nv_mul64hi",
                  "LL>L __nv_umul64hi"});
  // tl.umulhi: the high half of the unsigned product, whatever the
  // signedness of the operands.
  t.add("umulhi", {"ii>i __nv_umulhi", "uu>u __nv_umulhi", "ll>l __nv_umul64hi",
                   "LL>L __nv_umul64hi"});
  t.add("mul24", {"ii>i __nv_mul24", "uu>u __nv_umul24"});
  t.add("sad", {"iiu>i __nv_sad", "uuu>u __nv_usad"});
  t.add("hadd", {"ii>i __nv_hadd", "uu>u __nv_uhadd"});
  t.add("rhadd", {"ii>i __nv_rhadd", "uu>u __nv_urhadd"});
  // Conversions and reinterpretations.
  t.addConversion("double2float", "d>f");
  t.addConversion("double2int", "d>i");
  t.addConversion("double2uint", "d>i");
  t.addConversion("double2ll", "d>l");
  t.addConversion("double2ull", "d>l");
  t.addConversion("float2int", "f>i");
  t.addConversion("float2uint", "f>i");
  t.addConversion("float2ll", "f>l");
  t.addConversion("float2ull", "f>l");
  t.addConversion("int2float", "i>f");
  t.addConversion("uint2float", "u>f");
  t.addConversion("ll2float", "l>f");
  t.addConversion("ull2float", "L>f");
  t.addConversion("ll2double", "l>d");
  t.addConversion("ull2double", "L>d");
  t.addConversion("int2double", "i>d", {"rn"});
  t.addConversion("uint2double", "u>d", {"rn"});
  t.add("hiloint2double", {"ii>d __nv_hiloint2double"});
  t.add("double2loint", {"d>i __nv_double2loint"});
  t.add("double2hiint", {"d>i __nv_double2hiint"});
  t.add("int_as_float", {"i>f __nv_int_as_float"});
  t.add("float_as_int", {"f>i __nv_float_as_int"});
  t.add("uint_as_float", {"u>f __nv_uint_as_float"});
  t.add("float_as_uint", {"f>i __nv_float_as_uint"});
  t.add("longlong_as_double", {"l>d __nv_longlong_as_double"});
  t.add("double_as_longlong", {"d>l __nv_double_as_longlong"});
  for (LibdeviceFunction &function : t.functions)
    function.onBits = llvm::is_contained(
        {"clz", "popc", "ffs", "brev", "byte_perm", "mulhi", "umulhi", "mul24", "sad",
         "hadd", "rhadd", "int_as_float", "float_as_int", "uint_as_float",
         "float_as_uint", "longlong_as_double", "double_as_longlong",
         "hiloint2double", "double2loint", "double2hiint"},
        llvm::StringRef(function.name));
  return std::move(t.functions);
}

const std::vector<LibdeviceFunction> &getTable() {
  static const std::vector<LibdeviceFunction> table = buildTable();
  return table;
}

} // namespace

std::string LibdeviceFunction::describeForms() const {
  std::string result;
  for (const LibdeviceOverload &overload : overloads) {
    if (!result.empty())
      result += ", ";
    result += "(";
    for (size_t i = 0; i < overload.args.size(); ++i)
      result += (i ? ", " : "") + getScalarKindName(overload.args[i]).str();
    result += ")";
  }
  return result;
}

const LibdeviceFunction *tilec::lookupLibdeviceFunction(llvm::StringRef name) {
  for (const LibdeviceFunction &function : getTable())
    if (function.name == name)
      return &function;
  return nullptr;
}

llvm::ArrayRef<LibdeviceFunction> tilec::getLibdeviceFunctions() { return getTable(); }

bool tilec::isLibdeviceModule(llvm::StringRef module) {
  if (!module.consume_front("tl.") && !module.consume_front("triton.language."))
    return false;
  return module == "extra.cuda.libdevice" || module == "extra.libdevice" ||
         module == "libdevice" || module == "math";
}
