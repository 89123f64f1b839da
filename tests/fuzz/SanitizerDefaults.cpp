//===- SanitizerDefaults.cpp - Options every instrumented program needs ---===//
//
// Linked into every executable of a TILEC_SANITIZE build, so that tests,
// tools and the fuzzer run with the same sanitizer options however they are
// started. ASAN_OPTIONS / UBSAN_OPTIONS in the environment still override.
//
//===----------------------------------------------------------------------===//

/// Debian's libMLIR and libLLVM are not instrumented: their BumpPtrAllocator
/// poisons memory that instrumented code then reads legitimately (a false
/// use-after-poison), so manual poisoning is ignored.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}

/// A UBSan report shows where it came from.
extern "C" const char *__ubsan_default_options() {
  return "print_stacktrace=1";
}
