//===- Sema.cpp - Kernel specialization and statements --------------------===//
//
// Selects kernels, binds constexpr parameters (defaults and -D overrides),
// reads decorator options, and analyzes simple statements (assignments,
// expression statements) into the typed body. Control flow is in
// SemaControlFlow.cpp, device functions and `return` in SemaFunctions.cpp.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include "tilec/Frontend/Autotune.h"
#include "tilec/Frontend/Heuristics.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace tilec;

/// Bytes of kernel parameters PTX 8.0 accepts.
static constexpr int64_t kMaxKernelParamBytes = 4096;

Variable *KernelInstance::createVariable(llvm::StringRef name, SourceLoc loc) {
  variables.push_back(std::make_unique<Variable>(name.str(), loc));
  return variables.back().get();
}

bool tilec::isEntryPoint(const Module &module, const FunctionDef &def) {
  if (!def.isKernel())
    return false;
  // Device code: the kernels and the undecorated functions they reach. A
  // launch from host code (`kernel[grid](...)` in a wrapper) is no call.
  llvm::SmallPtrSet<const FunctionDef *, 16> deviceCode;
  llvm::SmallVector<const FunctionDef *> work;
  for (const auto &function : module.functions)
    if (function->isKernel() && deviceCode.insert(function.get()).second)
      work.push_back(function.get());
  while (!work.empty()) {
    const FunctionDef *caller = work.pop_back_val();
    for (const auto &function : module.functions)
      if (!function->isHostFunction() && !deviceCode.count(function.get()) &&
          blockCalls(caller->body, function->getName())) {
        deviceCode.insert(function.get());
        work.push_back(function.get());
      }
  }
  return llvm::none_of(deviceCode, [&](const FunctionDef *other) {
    return other != &def && blockCalls(other->body, def.getName());
  });
}

std::optional<AutotuneSpec> Sema::readAutotuneForCompile(const FunctionDef &def) {
  // The configs matter to the JIT (which reads them through inspectSource and
  // reports every error); a compilation takes its values from -D, so a list
  // written in host Python it cannot read (`filter(keep, configs)`,
  // `**kwargs`) costs only a warning here.
  std::string sink;
  llvm::raw_string_ostream os(sink);
  DiagnosticEngine scratch(diag.getSourceMgr(), os);
  std::vector<std::tuple<llvm::SourceMgr::DiagKind, SourceLoc, std::string>> messages;
  scratch.setObserver([&](llvm::SourceMgr::DiagKind kind, SourceLoc loc,
                          llvm::StringRef message) {
    messages.emplace_back(kind, loc, message.str());
  });
  std::optional<AutotuneSpec> spec = readAutotune(*module, def, scratch);
  for (const auto &[kind, loc, message] : messages) {
    if (kind == llvm::SourceMgr::DK_Warning && !scratch.hasErrors())
      diag.warning(loc, message);
    if (kind == llvm::SourceMgr::DK_Error) {
      diag.warning(loc, "@autotune is ignored: " + message +
                            " (tilec compiles the values given with -D; the JIT "
                            "needs a list it can read)");
      break;
    }
  }
  return spec;
}

const TuneConfig *Sema::chooseAutotuneConfig(const FunctionDef &def,
                                             const std::optional<AutotuneSpec> &autotune) {
  if (!autotune || !options.autotuneConfig)
    return nullptr;
  // A configuration is compiled only for the tuned values -D leaves out.
  auto defined = [&](const std::string &name) {
    return llvm::any_of(options.defines, [&](const auto &d) { return d.first == name; });
  };
  bool needed = llvm::any_of(autotune->configs, [&](const TuneConfig &c) {
    return llvm::any_of(c.values, [&](const auto &v) { return !defined(v.first); });
  });
  if (!needed)
    return nullptr;
  unsigned index = *options.autotuneConfig;
  unsigned count = autotune->configs.size();
  if (index >= count) {
    diag.error(autotune->loc, "--autotune-config=" + llvm::Twine(index) + ", but @autotune of '" +
                                  def.getName() + "' lists " + llvm::Twine(count) +
                                  " configuration" + (count == 1 ? "" : "s") +
                                  " (numbered from 0)");
    return nullptr;
  }
  const TuneConfig &config = autotune->configs[index];
  std::string values;
  for (const auto &[name, value] : config.values)
    values += (values.empty() ? "" : ", ") + name + "=" +
              (defined(name) ? std::string("(-D)") : value.str());
  if (config.numWarps)
    values += (values.empty() ? "" : ", ") + ("num_warps=" + std::to_string(*config.numWarps));
  if (config.numStages)
    values += (values.empty() ? "" : ", ") + ("num_stages=" + std::to_string(*config.numStages));
  diag.note(config.loc, "kernel '" + def.getName() + "' is compiled with @autotune configuration " +
                            llvm::Twine(index) + " of " + llvm::Twine(count) + " (" + values +
                            "); choose another with --autotune-config=N or give the values "
                            "with -D (the JIT tunes them all)");
  return &config;
}

const ConstValue *Sema::configValue(const TuneConfig *config, llvm::StringRef name) {
  if (!config)
    return nullptr;
  for (const auto &[key, value] : config->values)
    if (key == name)
      return &value;
  return nullptr;
}

std::unique_ptr<KernelInstance> Sema::analyzeKernel(const FunctionDef &def) {
  unsigned errorsBefore = diag.getNumErrors();
  auto instance = std::make_unique<KernelInstance>();
  instance->def = &def;
  instance->name = def.getName().str();
  instance->loc = def.getLoc();
  kernel = instance.get();
  out = &instance->body;
  scope.clear();
  variables.clear();
  frames.clear();
  callStack.clear();
  tupleVariables.clear();
  FunctionContext kernelContext;
  kernelContext.def = &def;
  function = &kernelContext;
  stackBase = static_cast<const char *>(__builtin_frame_address(0));
  reportedDeepStack = false;
  analyzedStatements = 0;

  // Decorator options; the command line wins over the decorator.
  std::optional<unsigned> numWarps, numStages;
  // @autotune is checked here; one of its configs is compiled at a time,
  // its values given as -D (the JIT does that for every config).
  std::optional<AutotuneSpec> autotune = readAutotuneForCompile(def);
  std::vector<Heuristic> heuristics = readHeuristics(*module, def, diag);
  auto heuristicFor = [&](llvm::StringRef name) {
    return llvm::any_of(heuristics, [&](const Heuristic &h) { return h.name == name; });
  };
  for (const Decorator &decorator : def.decorators) {
    if (isAutotuneDecorator(decorator.name) || isHeuristicsDecorator(decorator.name) ||
        isProjectAutotuner(decorator))
      continue;
    llvm::StringRef name = decorator.name;
    if (!isKernelDecoratorName(name)) {
      // Projects wrap their kernels (FlagGems' @libentry()); beside a
      // @triton.jit such a decorator cannot change the kernel's code.
      diag.warning(decorator.loc, "unknown decorator '@" + name + "' is ignored");
      continue;
    }
    for (const CallArg &arg : decorator.args) {
      std::optional<unsigned> *slot = arg.keyword == "num_warps"    ? &numWarps
                                      : arg.keyword == "num_stages" ? &numStages
                                                                    : nullptr;
      // Triton's options that change how its JIT caches or calls a kernel,
      // not the kernel's code.
      if (llvm::is_contained({"do_not_specialize", "do_not_specialize_on_alignment",
                              "debug", "noinline", "repr", "launch_metadata"},
                             arg.keyword)) {
        diag.warning(arg.loc, "option '" + arg.keyword + "' of @" + name +
                                  " is ignored: tilec compiles the kernel as if it "
                                  "were absent");
        continue;
      }
      if (!slot) {
        diag.error(arg.loc, arg.keyword.empty()
                                ? llvm::Twine("options of @") + name + " must be keywords"
                                : "unknown option '" + arg.keyword + "' of @" + name +
                                      "; expected num_warps or num_stages");
        continue;
      }
      ExprPtr value = analyzeExpr(*arg.value);
      std::optional<int64_t> v = value ? requireConstInt(*value, arg.keyword) : std::nullopt;
      if (v && (*v < 1 || *v > 1024))
        diag.error(arg.value->getLoc(), arg.keyword + " must be between 1 and 1024, got " +
                                            llvm::Twine(*v));
      else if (v)
        *slot = static_cast<unsigned>(*v);
    }
  }
  const TuneConfig *config = chooseAutotuneConfig(def, autotune);
  if (config) {
    numWarps = config->numWarps ? config->numWarps : numWarps;
    numStages = config->numStages ? config->numStages : numStages;
  }
  instance->numWarps = options.numWarps.value_or(numWarps.value_or(options.defaultNumWarps));
  instance->numStages =
      options.numStages.value_or(numStages.value_or(options.defaultNumStages));
  if (instance->numWarps == 0 || instance->numWarps > 32 ||
      (instance->numWarps & (instance->numWarps - 1)))
    diag.error(def.getLoc(), "num_warps must be a power of two between 1 and 32, got " +
                                 llvm::Twine(instance->numWarps));

  // PTX 8.0's parameter space holds 4096 bytes; past it ptxas rejects the
  // PTX, so the parameter that crosses the limit gets the error.
  int64_t paramBytes = 0;
  bool reportedParamSpace = false;
  // The type of each runtime parameter: its annotation or the signature's.
  auto signatureType = [&](const Param &param) -> const Type * {
    for (const auto &[name, type] : options.signature)
      if (name == param.name)
        return &type;
    return nullptr;
  };
  auto runtimeType = [&](const Param &param) -> const Type * {
    if (param.annotation == ParamAnnotation::Type)
      return &param.type;
    return param.annotation == ParamAnnotation::None ? signatureType(param) : nullptr;
  };
  for (const Param &param : def.params) {
    const Type *type = runtimeType(param);
    if (type && !reportedParamSpace) {
      int64_t size = type->isPointer()
                         ? 8
                         : std::max<int64_t>(1, getBitWidth(type->getElement()) / 8);
      int64_t align = size;
      if (type->isTensorDescriptor()) { // Its base, shape and strides.
        size = 8 * (1 + 2 * static_cast<int64_t>(type->getShape().size()));
        align = 8;
      }
      paramBytes = llvm::alignTo(paramBytes, align) + size;
      if (paramBytes > kMaxKernelParamBytes) {
        diag.error(param.loc, "the parameters of kernel '" + def.getName() +
                                  "' need more than the " +
                                  llvm::Twine(kMaxKernelParamBytes) +
                                  " bytes of PTX's parameter space from '" +
                                  param.name + "' on; pass fewer arguments (e.g. "
                                  "one pointer to a table instead of many scalars)");
        reportedParamSpace = true;
      }
    }
  }
  for (const Param &param : def.params) {
    KernelParam kp;
    kp.name = param.name;
    kp.loc = param.loc;
    const std::pair<std::string, ConstValue> *define = nullptr;
    for (const auto &d : options.defines)
      if (d.first == param.name)
        define = &d; // Names are unique (the driver refuses repeats).
    const std::pair<std::string, unsigned> *specialization = nullptr;
    for (const auto &sp : options.specializations)
      if (sp.first == param.name)
        specialization = &sp;
    if (specialization && param.annotation == ParamAnnotation::Constexpr)
      diag.error(param.loc, "--specialize " + param.name + ": '" + param.name +
                                "' is a constexpr parameter of kernel '" +
                                def.getName() + "'; give its value with -D");
    const Type *signed_ = signatureType(param);
    if (signed_ && param.annotation == ParamAnnotation::Constexpr)
      diag.error(param.loc, "--signature " + param.name + ": '" + param.name +
                                "' is a constexpr parameter of kernel '" +
                                def.getName() + "'; give its value with -D");
    else if (signed_ && param.annotation == ParamAnnotation::Type &&
             *signed_ != param.type)
      diag.error(param.loc, "--signature " + param.name + "=" + signed_->str() +
                                ": '" + param.name + "' of kernel '" + def.getName() +
                                "' is annotated " + param.type.str());
    if (param.annotation == ParamAnnotation::None && define && !signed_) {
      // Triton turns an argument passed as None (or fixed by its caller)
      // into a constexpr: -D gives an unannotated parameter its value.
      kp.isConstexpr = true;
      kp.value = define->second;
      scope[param.name] = Binding{kp.value, nullptr, Type::getConstexpr(), false};
      instance->params.push_back(std::move(kp));
      continue;
    }
    const Type *type = runtimeType(param);
    if (param.annotation == ParamAnnotation::None && !type) {
      diag.error(param.loc, "parameter '" + param.name + "' of kernel '" +
                                def.getName() + "' has no type: annotate it ('" +
                                param.name + ": *fp32', '" + param.name +
                                ": i32' or '" + param.name +
                                ": constexpr'), give it with --signature " +
                                param.name + "=TYPE, or launch the kernel through "
                                "the JIT, which takes it from the argument");
      scope[param.name].poisoned = true;
      continue;
    }
    if (type && type->isTensorDescriptor()) {
      if (specialization && specialization->second != 16)
        diag.error(param.loc, "--specialize " + param.name + ": '" + param.name +
                                  "' of kernel '" + def.getName() +
                                  "' is a tensor descriptor: only =16 (every dimension "
                                  "a multiple of 16) applies to it");
      if (define)
        diag.error(param.loc, "-D " + param.name + ": '" + param.name +
                                  "' is a runtime parameter of kernel '" + def.getName() +
                                  "', not a constexpr");
      bindHostDescriptor(param, *type, specialization != nullptr, *instance);
      continue;
    }
    switch (param.annotation) {
    case ParamAnnotation::Constexpr: {
      kp.isConstexpr = true;
      if (define) {
        kp.value = define->second;
      } else if (heuristicFor(param.name)) {
        instance->params.push_back(std::move(kp)); // Its value comes below.
        continue;
      } else if (const ConstValue *tuned = configValue(config, param.name)) {
        kp.value = *tuned;
      } else if (param.defaultValue) {
        ExprPtr value = analyzeExpr(*param.defaultValue);
        const ConstValue *constant = value ? getConstexpr(*value) : nullptr;
        if (!constant) {
          if (value)
            diag.error(param.defaultValue->getLoc(),
                       "the default of constexpr parameter '" + param.name +
                           "' must be a constant");
          scope[param.name].poisoned = true;
          continue;
        }
        kp.value = *constant;
      } else {
        bool tuned = autotune && llvm::any_of(autotune->configs, [&](const TuneConfig &c) {
          return llvm::any_of(c.values, [&](const auto &v) { return v.first == param.name; });
        });
        diag.error(param.loc, "constexpr parameter '" + param.name + "' of kernel '" +
                                  def.getName() + "' has no value; " +
                                  (tuned ? "it is tuned by @autotune: pass one "
                                           "config's value with -D " + param.name +
                                           "=VALUE, or launch the kernel through "
                                           "the JIT, which tunes it"
                                         : "give it a default or pass -D " +
                                               param.name + "=VALUE"));
        scope[param.name].poisoned = true;
        continue;
      }
      scope[param.name] = Binding{kp.value, nullptr, Type::getConstexpr(), false};
      break;
    }
    case ParamAnnotation::None:
    case ParamAnnotation::Type:
      if (define)
        diag.error(param.loc, "-D " + param.name + ": '" + param.name +
                                  "' is a runtime parameter of kernel '" +
                                  def.getName() + "', not a constexpr");
      if (param.defaultValue)
        diag.error(param.defaultValue->getLoc(),
                   "only constexpr parameters can have a default value");
      kp.type = *type;
      if (!kp.type.isPointer() && isFP8(kp.type.getElement()))
        diag.error(param.loc, "parameter '" + param.name + "' of kernel '" + def.getName() +
                                  "' is a scalar " + kp.type.str() +
                                  "; fp8 parameters must be pointers (pass a scalar as "
                                  "fp32 and convert it with .to())");
      if (kp.type.isPointer())
        kp.align = kPointerArgAlignment;
      if (specialization && kp.type.isPointer()) {
        if (specialization->second == 1)
          diag.error(param.loc, "--specialize " + param.name + "=1: '" + param.name +
                                    "' of kernel '" + def.getName() + "' is " +
                                    kp.type.str() + "; a pointer takes 16 (aligned "
                                    "to 16 bytes, the default) or none");
        else if (specialization->second == 0)
          kp.align = std::max(1u, getBitWidth(kp.type.getElement()) / 8);
      } else if (specialization && specialization->second != 0) {
        if (!isInteger(kp.type.getElement()) || getBitWidth(kp.type.getElement()) < 8)
          diag.error(param.loc, "--specialize " + param.name + ": '" + param.name +
                                    "' of kernel '" + def.getName() + "' is " +
                                    kp.type.str() +
                                    "; only integer and pointer parameters are "
                                    "specialized");
        else
          kp.specialization = specialization->second;
      }
      kp.var = instance->createVariable(param.name, param.loc);
      variables[param.name] = kp.var;
      scope[param.name] = Binding{ConstValue(), kp.var, kp.type, false};
      break;
    }
    instance->params.push_back(std::move(kp));
  }
  for (const Heuristic &h : heuristics) {
    bool given = llvm::any_of(options.defines, [&](const auto &d) { return d.first == h.name; }) ||
                 (h.name == "num_warps" && options.numWarps) ||
                 (h.name == "num_stages" && options.numStages);
    if (!given)
      evaluateHeuristic(h, def, *instance);
  }

  analyzeBlock(def.body);
  kernel = nullptr;
  out = nullptr;
  function = nullptr;
  if (diag.getNumErrors() != errorsBefore)
    return nullptr;
  return instance;
}

void Sema::analyzeBlock(const Block &block) {
  analyzeBlockIn(block, /*loopBody=*/false, nullptr, {});
}

void Sema::bind(llvm::StringRef name, SourceLoc loc, ExprPtr value) {
  if (value && value->getType().isBlockPointer()) // One variable per part.
    return bindBlockPointer(name, loc, std::move(value));
  // A tuple of runtime values (and constants): one variable per element.
  if (auto *tuple = value ? llvm::dyn_cast<TupleExpr>(value.get()) : nullptr;
      tuple && llvm::all_of(tuple->getElements(), [](const ExprPtr &element) {
        return element && (getConstexpr(*element) || element->getType().isValue());
      })) {
    // Every element is computed before any part is assigned: `pair =
    // (pair[1], pair[0])` swaps.
    std::vector<ExprPtr> elements = tuple->takeElements();
    for (ExprPtr &element : elements) {
      if (getConstexpr(*element))
        continue;
      std::string temporary = "$tuple" + std::to_string(tupleTemporaries++);
      bind(temporary, loc, std::move(element));
      NameExpr ref(loc, temporary, nullptr);
      element = analyzeName(ref);
    }
    scope.erase(name);
    tupleVariables[name] = elements.size();
    for (auto [i, element] : llvm::enumerate(elements))
      bind((name + "." + llvm::Twine(i)).str(), loc, std::move(element));
    return;
  }
  Binding &binding = scope[name];
  binding = Binding();
  binding.loc = loc;
  if (!value) {
    binding.poisoned = true;
    return;
  }
  if (const ConstValue *constant = getConstexpr(*value)) {
    binding.value = *constant; // Constexpr locals stay compile-time values.
    return;
  }
  if (llvm::isa<TupleExpr>(*value)) {
    diag.error(loc, "not supported yet: keeping a tuple of tuples or block pointers in '" +
                        name + "'; unpack it instead ('a, b = ...')");
    binding.poisoned = true;
    return;
  }
  if (!value->getType().isValue()) {
    diag.error(value->getLoc(), "this expression has no value to assign to '" +
                                    name + "'");
    binding.poisoned = true;
    return;
  }
  Variable *&var = variables[name];
  if (!var)
    var = kernel->createVariable(name, loc);
  binding.var = var;
  binding.type = value->getType();
  auto target = std::make_unique<NameExpr>(loc, name.str(), var);
  target->setType(binding.type);
  out->push_back(std::make_unique<AssignStmt>(loc, std::move(target), std::move(value)));
}

void Sema::evaluateHeuristic(const Heuristic &h, const FunctionDef &def,
                             KernelInstance &instance) {
  heuristic = &h;
  heuristicRuntimeReads.clear();
  heuristicScope = scope;
  ExprPtr value;
  if (h.function) {
    // Inline the function with its parameter bound to the marker that
    // analyzeSubscript reads arguments through.
    std::vector<CallArg> args;
    args.push_back(CallArg{"", h.loc, std::make_unique<ConstantExpr>(
                                          h.loc, ConstValue::getString(
                                                     kHeuristicArgumentsMarker))});
    CallExpr call(h.loc, std::make_unique<NameExpr>(h.loc, h.function->getName().str()),
                  std::move(args));
    value = callDeviceFunction(*h.function, call);
  } else {
    value = analyzeExpr(*h.body);
  }
  heuristic = nullptr;
  const ConstValue *constant = value ? getConstexpr(*value) : nullptr;
  if (h.isLaunchOption()) {
    // num_warps / num_stages: without a value the decorator's or default
    // stays, with a warning.
    if (!constant || !constant->isInt() || constant->getInt() < 1 ||
        constant->getInt() > 1024) {
      if (value || !heuristicRuntimeReads.empty())
        diag.warning(h.loc, "the heuristic for " + h.name + " is ignored: " +
                                (heuristicRuntimeReads.empty()
                                     ? std::string("it gives no positive constant")
                                     : "it reads the runtime argument '" +
                                           heuristicRuntimeReads.front() + "'") +
                                "; pass --" + (h.name == "num_warps" ? "num-warps" : "num-stages") +
                                " (the JIT evaluates it at each launch)");
      return;
    }
    (h.name == "num_warps" ? instance.numWarps : instance.numStages) =
        static_cast<unsigned>(constant->getInt());
    return;
  }
  if (!value && !heuristicRuntimeReads.empty())
    diag.note(h.loc, "in the heuristic for '" + h.name + "', which reads the runtime argument" +
                         (heuristicRuntimeReads.size() == 1 ? " '" : "s '") +
                         llvm::join(heuristicRuntimeReads, "', '") +
                         "', whose value is not known when compiling: give it with -D " +
                         h.name + "=VALUE (the JIT evaluates it at each launch)");
  else if (value && !constant && !heuristicRuntimeReads.empty())
    diag.error(h.loc, "the heuristic for '" + h.name + "' reads the runtime argument" +
                          (heuristicRuntimeReads.size() == 1 ? " '" : "s '") +
                          llvm::join(heuristicRuntimeReads, "', '") +
                          "', whose value is not known when compiling: give it with -D " +
                          h.name + "=VALUE (the JIT evaluates it at each launch)");
  else if (value && !constant)
    diag.error(h.loc, "the heuristic for '" + h.name + "' of kernel '" + def.getName() +
                          "' gives a runtime " + value->getType().str() +
                          ", not a compile-time value");
  if (!constant) {
    scope[h.name].poisoned = true;
    return;
  }
  for (KernelParam &kp : instance.params)
    if (kp.name == h.name)
      kp.value = *constant;
  scope[h.name] = Binding{*constant, nullptr, Type::getConstexpr(), false};
}

ExprPtr Sema::analyzeHeuristicArgument(const SubscriptExpr &expr) {
  const auto *key = expr.getIndices().size() == 1
                        ? llvm::dyn_cast<ConstantExpr>(expr.getIndices()[0].get())
                        : nullptr;
  if (!key || !key->getValue().isString()) {
    diag.error(expr.getLoc(), "index the arguments of a heuristic with a parameter "
                              "name: " + heuristic->argsName + "[\"n\"]");
    return nullptr;
  }
  std::string name = key->getValue().getString().str();
  for (const auto &[known, value] : options.argumentValues)
    if (known == name)
      return makeConstant(expr.getLoc(), value);
  // The kernel's names (a named heuristic is inlined in its own scope).
  auto it = heuristicScope.find(name);
  const FunctionDef &def = *kernel->def; // Not the inlined heuristic's.
  bool isParam = llvm::any_of(def.params, [&](const Param &p) { return p.name == name; });
  if (!isParam || it == heuristicScope.end()) {
    diag.error(key->getLoc(), name == heuristic->name
                                  ? "the heuristic for '" + name + "' reads '" + name +
                                        "' itself: give its value with -D " + name +
                                        "=VALUE"
                              : isParam ? "the heuristic for '" + heuristic->name +
                                            "' reads '" + name + "', which a later "
                                            "heuristic sets"
                                      : "'" + name + "' is not a parameter of kernel '" +
                                            def.getName().str() + "'");
    return nullptr;
  }
  // A runtime value still answers `is None` (never); anything else about it
  // leaves the heuristic a runtime value, reported by evaluateHeuristic.
  const Binding &binding = it->second;
  if (binding.poisoned)
    return nullptr;
  if (!binding.var)
    return makeConstant(expr.getLoc(), binding.value);
  if (!binding.type.isPointer() && !llvm::is_contained(heuristicRuntimeReads, name))
    heuristicRuntimeReads.push_back(name);
  auto reference = std::make_unique<NameExpr>(expr.getLoc(), name, binding.var);
  reference->setType(binding.type);
  return reference;
}

void Sema::analyzeAssign(const AssignStmt &stmt) {
  const Expr &target = stmt.getTarget();
  if (auto *name = llvm::dyn_cast<NameExpr>(&target)) {
    ExprPtr value = analyzeExpr(stmt.getValue());
    if (value && stmt.isConstexprOnly() && !getConstexpr(*value)) {
      diag.error(stmt.getValue().getLoc(),
                 "'" + name->getName() + "' is annotated constexpr, but its value is "
                 "a runtime " + value->getType().str());
      value = nullptr;
    }
    bind(name->getName(), name->getLoc(), std::move(value));
    return;
  }
  // Tuple targets: evaluate every value first, then bind (Python order).
  auto &targets = llvm::cast<TupleExpr>(target);
  std::vector<ExprPtr> values;
  if (auto *tuple = llvm::dyn_cast<TupleExpr>(&stmt.getValue())) {
    for (const ExprPtr &element : tuple->getElements())
      values.push_back(analyzeExpr(*element));
  } else if (ExprPtr value = analyzeExpr(stmt.getValue())) {
    const ConstValue *constant = getConstexpr(*value);
    if (auto *tuple = llvm::dyn_cast<TupleExpr>(value.get())) {
      values = tuple->takeElements(); // Returned by a device function.
    } else if (!constant || !constant->isTuple()) {
      diag.error(stmt.getValue().getLoc(),
                 "not supported yet: unpacking a value that is not a tuple");
    } else {
      for (const ConstValue &element : constant->getTuple())
        values.push_back(makeConstant(value->getLoc(), element));
    }
  }
  bool arity = values.size() == targets.getElements().size();
  // Every value is read before any target is written (`a, b = b, a`): keep
  // runtime values in fresh variables first.
  for (ExprPtr &value : values) {
    if (!value || getConstexpr(*value) || !value->getType().isValue())
      continue;
    value = evaluateOnce("tuple.element", std::move(value));
  }
  if (!arity && !values.empty())
    diag.error(stmt.getLoc(), "cannot unpack " + llvm::Twine(values.size()) +
                                  " values into " +
                                  llvm::Twine(targets.getElements().size()) + " targets");
  for (size_t i = 0; i < targets.getElements().size(); ++i) {
    const Expr &element = *targets.getElements()[i];
    if (auto *name = llvm::dyn_cast<NameExpr>(&element)) {
      bind(name->getName(), name->getLoc(),
           arity ? std::move(values[i]) : nullptr);
    } else {
      diag.error(element.getLoc(), "not supported yet: nested tuple targets");
    }
  }
}

void Sema::analyzeStmt(const Stmt &stmt) {
  switch (stmt.getKind()) {
  case Stmt::Kind::Expr: {
    const Expr &expr = llvm::cast<ExprStmt>(stmt).getExpr();
    if (llvm::isa<ConstantExpr>(expr))
      return; // Docstrings and other bare literals.
    ExprPtr typed = analyzeExpr(expr);
    // `tl.multiple_of(x, 16)` as a statement hints `x` itself, as Triton's
    // hints mark the value in place: x is rebound to the hinted value.
    if (auto *call = typed ? llvm::dyn_cast<BuiltinCallExpr>(typed.get()) : nullptr;
        call && (call->getBuiltin() == Builtin::MultipleOf ||
                 call->getBuiltin() == Builtin::MaxContiguous))
      if (const auto *source = llvm::dyn_cast<CallExpr>(&expr)) {
        // The hinted value: the `input` keyword, else the first positional.
        const Expr *input = nullptr;
        for (const CallArg &arg : source->getArgs())
          if (arg.keyword == "input" || (arg.keyword.empty() && !input))
            input = arg.value.get();
        if (const auto *name = llvm::dyn_cast_or_null<NameExpr>(input);
            name && scope.count(name->getName()) && !getConstexpr(*typed)) {
          bind(name->getName(), stmt.getLoc(), std::move(typed));
          return;
        }
      }
    // Values without effects (a device function's result, a block pointer)
    // are dropped.
    if (typed && !getConstexpr(*typed) && !llvm::isa<NameExpr, TupleExpr>(*typed) &&
        !typed->getType().isBlockPointer())
      out->push_back(std::make_unique<ExprStmt>(stmt.getLoc(), std::move(typed)));
    return;
  }
  case Stmt::Kind::Assign:
    analyzeAssign(llvm::cast<AssignStmt>(stmt));
    return;
  case Stmt::Kind::AugAssign: {
    auto &aug = llvm::cast<AugAssignStmt>(stmt);
    auto &target = llvm::cast<NameExpr>(aug.getTarget());
    ExprPtr lhs = analyzeName(target);
    ExprPtr rhs = lhs ? analyzeExpr(aug.getValue()) : nullptr;
    ExprPtr value = rhs ? analyzeBinary(stmt.getLoc(), aug.getOp(), std::move(lhs),
                                        std::move(rhs))
                        : nullptr;
    bind(target.getName(), target.getLoc(), std::move(value));
    return;
  }
  case Stmt::Kind::If:
    analyzeIf(llvm::cast<IfStmt>(stmt));
    return;
  case Stmt::Kind::For:
    analyzeFor(llvm::cast<ForStmt>(stmt));
    return;
  case Stmt::Kind::Pass:
    return;
  case Stmt::Kind::While:
    analyzeWhile(llvm::cast<WhileStmt>(stmt));
    return;
  case Stmt::Kind::Return:
    analyzeReturn(llvm::cast<ReturnStmt>(stmt));
    return;
  case Stmt::Kind::Break:
  case Stmt::Kind::Continue:
    diag.error(stmt.getLoc(),
               llvm::Twine("'") +
                   (stmt.getKind() == Stmt::Kind::Break ? "break" : "continue") +
                   "' is not supported (as in Triton); use a 'while' loop with a "
                   "condition instead");
    return;
  case Stmt::Kind::Assert:
    diag.error(stmt.getLoc(), "not supported yet: 'assert' (use tl.static_assert or "
                              "tl.device_assert)");
    return;
  case Stmt::Kind::RangeFor:
  case Stmt::Kind::RuntimeWhile:
  case Stmt::Kind::RuntimeIf:
    break;
  }
  diag.error(stmt.getLoc(), "internal error: typed statement in a syntactic tree");
}

std::vector<std::unique_ptr<KernelInstance>>
tilec::analyze(const Module &module, const SemaOptions &options,
               DiagnosticEngine &diag) {
  unsigned errorsBefore = diag.getNumErrors();
  std::vector<const FunctionDef *> selected;
  if (!options.kernelName.empty()) {
    const FunctionDef *def = module.lookup(options.kernelName);
    if (!def)
      diag.error(SourceLoc(), "no kernel named '" + options.kernelName + "'");
    else if (!def->isKernel())
      diag.error(def->getLoc(), "'" + options.kernelName + "' is a device function, "
                                "not a kernel (add @kernel)");
    else
      selected.push_back(def);
  } else {
    for (const auto &function : module.functions)
      if (isEntryPoint(module, *function))
        selected.push_back(function.get());
    if (selected.empty()) {
      // About the whole file: at its first character.
      const llvm::SourceMgr &srcMgr = diag.getSourceMgr();
      SourceLoc start =
          srcMgr.getNumBuffers()
              ? SourceLoc::getFromPointer(
                    srcMgr.getMemoryBuffer(srcMgr.getMainFileID())->getBufferStart())
              : SourceLoc();
      diag.error(start, "no kernels in this file (a kernel is a function "
                        "decorated with @triton.jit or @kernel)");
    }
  }
  for (const auto &define : options.defines) {
    bool found = llvm::any_of(selected, [&](const FunctionDef *def) {
      return llvm::any_of(def->params, [&](const Param &param) {
        return param.name == define.first;
      });
    });
    if (!found && !selected.empty())
      diag.error(SourceLoc(), "-D " + define.first + " does not name a parameter of " +
                                  (selected.size() == 1
                                       ? "kernel '" + selected[0]->getName().str() + "'"
                                       : std::string("any kernel")));
  }

  auto checkNamesParam = [&](llvm::StringRef option, const std::string &name) {
    bool found = llvm::any_of(selected, [&](const FunctionDef *def) {
      return llvm::any_of(def->params,
                          [&](const Param &param) { return param.name == name; });
    });
    if (!found && !selected.empty())
      diag.error(SourceLoc(), option + " " + name + " does not name a parameter of " +
                                  (selected.size() == 1
                                       ? "kernel '" + selected[0]->getName().str() + "'"
                                       : std::string("any kernel")));
  };
  for (const auto &specialization : options.specializations)
    checkNamesParam("--specialize", specialization.first);
  for (const auto &entry : options.signature)
    checkNamesParam("--signature", entry.first);

  std::vector<std::unique_ptr<KernelInstance>> kernels;
  Sema sema(module, options, diag);
  for (const FunctionDef *def : selected)
    if (auto instance = sema.analyzeKernel(*def))
      kernels.push_back(std::move(instance));
  if (diag.getNumErrors() != errorsBefore)
    kernels.clear();
  return kernels;
}
