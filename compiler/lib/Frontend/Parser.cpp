//===- Parser.cpp - Recursive-descent parser for .tile files --------------===//
//
// Grammar (a Python subset):
//   file      := (import | function | NEWLINE)* EOF
//   function  := decorator* 'def' NAME '(' params ')' ['->' expr] ':' suite
//   suite     := simple_line | NEWLINE INDENT stmt+ DEDENT
//   stmt      := if | for | while | small (';' small)* NEWLINE
//   expr      := binary ['if' binary 'else' expr]
//   binary    := precedence climbing over or/and/not/comparisons/| ^ & << >>
//                + - * / // % @, then unary (- + ~) and '**'
//   primary   := atom ('(' args ')' | '[' subscripts ']' | '.' NAME)*
// The first syntax error stops the parse.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/Autotune.h"
#include "tilec/Frontend/Heuristics.h"
#include "tilec/Frontend/Parser.h"
#include "tilec/Frontend/Lexer.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

#include <limits>

using namespace tilec;

namespace {

/// Binding strength of binary operators (0: not a binary operator).
enum Precedence {
  PrecNone = 0, PrecOr, PrecAnd, PrecNot, PrecCompare, PrecBitOr, PrecBitXor,
  PrecBitAnd, PrecShift, PrecAdd, PrecMul,
};

class Parser {
public:
  Parser(std::vector<Token> tokens, DiagnosticEngine &diag)
      : tokens(std::move(tokens)), diag(diag) {}

  std::unique_ptr<Module> parseModule();

private:
  // Token access.
  const Token &tok() const { return tokens[pos]; }
  const Token &peek(unsigned n = 1) const {
    return tokens[std::min(pos + n, tokens.size() - 1)];
  }
  bool is(TokenKind kind) const { return tok().kind == kind; }
  void consume() {
    if (is(TokenKind::Indent))
      ++indentLevel;
    else if (is(TokenKind::Dedent) && indentLevel)
      --indentLevel;
    if (pos + 1 < tokens.size())
      ++pos;
  }
  bool consumeIf(TokenKind kind) {
    if (!is(kind))
      return false;
    consume();
    return true;
  }

  // Errors: the first one is kept until the top level decides whether it
  // belongs to code tilec compiles (then it is reported and the parse stops)
  // or to Python host code around the kernels (kept in Module::hostCode). An
  // Invalid token where the parse stopped is the error.
  std::nullptr_t error(SourceLoc loc, const llvm::Twine &message) {
    if (!failed) {
      pendingLoc = is(TokenKind::Invalid) ? tok().loc : loc;
      pendingMessage = is(TokenKind::Invalid) ? tok().stringValue : message.str();
      pendingIsSyntax = false;
    }
    failed = true;
    return nullptr;
  }
  /// An error Python itself would report (indentation, a repeated parameter
  /// or keyword): reported in host code as well.
  std::nullptr_t syntaxError(SourceLoc loc, const llvm::Twine &message) {
    bool first = !failed;
    error(loc, message);
    if (first)
      pendingIsSyntax = true;
    return nullptr;
  }
  /// "identifier 'foo'", "'('", "end of line".
  std::string describe(const Token &token) const;
  /// Consumes `kind` or reports "expected <kind> <context>, got <token>".
  bool expect(TokenKind kind, const llvm::Twine &context);

  /// Counts one level of recursion; false (after an error) when too deep.
  class NestingScope {
  public:
    explicit NestingScope(Parser &parser) : parser(parser) {
      if (++parser.depth > kMaxNesting)
        parser.syntaxError(parser.tok().loc, "nesting too deep (more than " +
                                           llvm::Twine(kMaxNesting) + " levels)");
    }
    ~NestingScope() { --parser.depth; }
    bool ok() const { return !parser.failed; }

  private:
    Parser &parser;
  };
  /// Checks the height of a freshly built expression.
  ExprPtr checkHeight(ExprPtr expr);

  // Top level.
  /// One top-level statement; host code it finds goes to Module::hostCode.
  void parseTopLevelItem(Module &module);
  /// The statements of a block of a top-level `try:` / `if ...:`: its
  /// imports bind the names no earlier branch bound (`bound`); the rest is
  /// skipped as host code.
  void parseTopLevelBlock(Module &module, llvm::StringSet<> &bound,
                          llvm::StringRef blockKind);
  /// An `if` / `try` statement inside such a block: each branch's aliases
  /// as parseTopLevelBlock reads them; a name that the branches alias to
  /// one path (or that only one binds) is bound to it, one they bind
  /// differently (or one aliases and another binds in host code) is host
  /// code, an error where a kernel uses it. False, with nothing consumed,
  /// when the statement is not one.
  bool parseNestedBlock(Module &module, llvm::StringSet<> &bound,
                        llvm::StringRef blockKind);
  /// The decorator lines that start at token `i`.
  struct Decorators {
    size_t end = 0;      ///< The token after them (a `def`, for a function).
    bool jit = false;    ///< One of them is a kernel decorator (jit).
    bool triton = false; ///< One of them is jit, autotune or heuristics.
  };
  Decorators scanDecorators(const Module &module, size_t i) const;
  /// Reads the body of the host function at `start` (its decorators, then
  /// `def`), which ends at `pos`, as a top-level block when it defines
  /// kernels (torchao builds its kernels inside a function): their imports
  /// and definitions become the module's. False if it defines none or its
  /// body cannot be read so (then nothing changed).
  bool parseKernelsOfHostFunction(Module &module, size_t start, unsigned level);
  /// Warns about each function with a Triton decorator among the skipped
  /// host-code tokens [from, to) of a top-level `blockKind` statement:
  /// tilec neither compiles it nor lets kernels call it.
  void warnAboutHiddenKernels(const Module &module, size_t from, size_t to,
                              llvm::StringRef blockKind);
  /// The `def` tokens warnAboutHiddenKernels warned about (a decorator line
  /// may be skipped as a statement of its own).
  llvm::SmallDenseSet<size_t, 4> hiddenKernels;
  /// Whether the decorated or plain `def` at the current token has a kernel
  /// decorator, read ahead without consuming.
  bool startsKernelDefinition(const Module &module) const;
  /// Past `if cond:` / `elif cond:` / `try:` / `except E as e:` ... and the
  /// NEWLINE INDENT of its block; false where the header is not one.
  bool skipBlockHeader();
  /// The name the top-level statement at the current token defines, or "".
  std::string nameDefinedHere() const;
  /// Past the rest of the statement where the parse stopped and any block
  /// under it, to the next statement at `level`.
  void skipStatement(unsigned level);
  /// Records in Module::hostCode every module-level name that the skipped
  /// tokens [from, to) may bind, so that a kernel reading one gets an error
  /// instead of another binding's value.
  void recordBoundNames(Module &module, size_t from, size_t to);
  void parseImport(Module &module);
  void parseGlobal(Module &module);
  bool parseDottedName(std::string &name, const llvm::Twine &context);
  std::unique_ptr<FunctionDef> parseFunction();
  bool parseDecorator(std::vector<Decorator> &decorators);
  bool parseParam(FunctionDef &function, llvm::StringSet<> &seen);
  /// Reads a parameter's annotation; with `lenient` (a function that is no
  /// kernel), one that names no type of tilec's is skipped.
  bool parseAnnotation(Param &param, bool lenient);

  // Statements.
  bool parseSuite(Block &block, llvm::StringRef context);
  bool parseStatement(Block &block);
  bool parseSimpleLine(Block &block);
  StmtPtr parseSmallStatement();
  StmtPtr parseIf(SourceLoc loc);
  StmtPtr parseFor();
  StmtPtr parseWhile();
  StmtPtr parseExprStatement();
  /// The target of a `for` (statement or comprehension): a name or names
  /// separated by commas, up to `in`; `loc` is where a tuple of them starts.
  ExprPtr parseForTarget(SourceLoc loc);
  /// `lambda a, b: body`.
  ExprPtr parseLambda();
  /// The rest of `[element for ...]` after `element`.
  ExprPtr parseListComp(SourceLoc loc, ExprPtr element);
  /// `name: annotation = value` after the colon (only constexpr matters).
  StmtPtr parseAnnotatedAssign(SourceLoc loc, ExprPtr target);
  bool checkAssignTarget(const Expr &target);

  // Expressions.
  bool startsExpr() const;
  ExprPtr parseExprList();
  ExprPtr parseExpr();
  ExprPtr parseBinary(int minPrec);
  ExprPtr parseUnary();
  ExprPtr parsePrimary();
  ExprPtr parseAtom();
  ExprPtr parseParenOrTuple();
  ExprPtr parseList();
  ExprPtr parseDict();
  bool parseCallArgs(std::vector<CallArg> &args, bool allowStarred = false);
  /// A module-level `NAME = tl.something`: records an alias; false if the
  /// value is something else.
  bool recordModuleAlias(Module &module, const GlobalDef &global);
  /// The triton path `global` makes an alias of (`triton_tanh =
  /// libdevice.tanh`), or "" when its value is something else.
  static std::string getTritonAliasPath(const Module &module, const GlobalDef &global);
  /// In a top-level block: a `NAME = tl.something` statement at the current
  /// token becomes an alias (the first branch that binds NAME wins, as for
  /// imports). False, with nothing consumed, for any other statement.
  bool parseBlockAlias(Module &module, llvm::StringSet<> &bound);
  /// A module-level `f = decorator(f)` / `f = decorator(args)(f)`: adds the
  /// decorator to the function `f`; false if the value is something else.
  bool applyDecoratorCall(Module &module, GlobalDef &global);
  ExprPtr parseSubscriptItem();
  int getBinaryPrecedence(BinaryOp &op, unsigned &numTokens) const;

  std::vector<Token> tokens;
  size_t pos = 0;
  DiagnosticEngine &diag;
  bool failed = false;
  SourceLoc pendingLoc;
  std::string pendingMessage;
  bool pendingIsSyntax = false;
  /// The module being parsed: its imports so far expand aliased annotations
  /// (`core.constexpr` after `from triton.language import core`).
  const Module *parsed = nullptr;
  unsigned depth = 0;
  /// INDENTs consumed minus DEDENTs.
  unsigned indentLevel = 0;
};
} // namespace

std::string Parser::describe(const Token &token) const {
  switch (token.kind) {
  case TokenKind::Identifier:
    return "identifier '" + token.text.str() + "'";
  case TokenKind::Int:
  case TokenKind::Float:
  case TokenKind::String:
    return getTokenKindName(token.kind).str() + " " + token.text.str();
  case TokenKind::Eof:
  case TokenKind::Newline:
  case TokenKind::Indent:
  case TokenKind::Dedent:
    return getTokenKindName(token.kind).str();
  default:
    return "'" + getTokenKindName(token.kind).str() + "'";
  }
}

bool Parser::expect(TokenKind kind, const llvm::Twine &context) {
  if (consumeIf(kind))
    return true;
  std::string what = kind == TokenKind::Identifier || kind == TokenKind::Newline ||
                             kind == TokenKind::Indent
                         ? getTokenKindName(kind).str()
                         : "'" + getTokenKindName(kind).str() + "'";
  if (kind == TokenKind::Indent) {
    syntaxError(tok().loc, "expected an indented block " + context + ", got " +
                               describe(tok()));
    return false;
  }
  error(tok().loc, "expected " + what + " " + context + ", got " + describe(tok()));
  return false;
}

ExprPtr Parser::checkHeight(ExprPtr expr) {
  if (expr && expr->getHeight() > kMaxExprHeight)
    return syntaxError(expr->getLoc(), "expression too deeply nested (more than " +
                                     llvm::Twine(kMaxExprHeight) + " levels)");
  return expr;
}

//===----------------------------------------------------------------------===//
// Top level
//===----------------------------------------------------------------------===//

std::unique_ptr<Module> Parser::parseModule() {
  auto module = std::make_unique<Module>();
  parsed = module.get();
  while (!failed && !is(TokenKind::Eof))
    parseTopLevelItem(*module);
  if (failed) {
    diag.error(pendingLoc, pendingMessage);
    return nullptr;
  }
  return module;
}

bool Parser::skipBlockHeader() {
  // The keyword, then its condition or clause (host Python, not evaluated)
  // up to the colon outside brackets.
  consume();
  int brackets = 0;
  while (!is(TokenKind::Newline) && !is(TokenKind::Eof) &&
         !(brackets == 0 && is(TokenKind::Colon))) {
    if (is(TokenKind::LParen) || is(TokenKind::LSquare) || is(TokenKind::LBrace))
      ++brackets;
    else if (is(TokenKind::RParen) || is(TokenKind::RSquare) || is(TokenKind::RBrace))
      --brackets;
    consume();
  }
  return consumeIf(TokenKind::Colon) && consumeIf(TokenKind::Newline) &&
         consumeIf(TokenKind::Indent);
}

bool Parser::startsKernelDefinition(const Module &module) const {
  return scanDecorators(module, pos).jit;
}

Parser::Decorators Parser::scanDecorators(const Module &module, size_t i) const {
  // Decorator lines: '@' dotted-name [ '(' ... ')' ] NEWLINE (the lexer drops
  // newlines inside brackets).
  Decorators found;
  while (tokens[i].is(TokenKind::At)) {
    std::string name;
    for (++i; tokens[i].is(TokenKind::Identifier) || tokens[i].is(TokenKind::Dot); ++i)
      name += tokens[i].text.str();
    std::string expanded = module.expandTritonAlias(name);
    found.jit |= isKernelDecoratorName(expanded);
    found.triton |= found.jit || isAutotuneDecorator(expanded) ||
                    isHeuristicsDecorator(expanded);
    while (!tokens[i].is(TokenKind::Newline) && !tokens[i].is(TokenKind::Eof))
      ++i;
    while (tokens[i].is(TokenKind::Newline))
      ++i;
  }
  found.end = i;
  return found;
}

std::string Parser::nameDefinedHere() const {
  size_t i = pos;
  while (tokens[i].is(TokenKind::At) || tokens[i].is(TokenKind::Newline)) {
    while (!tokens[i].is(TokenKind::Newline) && !tokens[i].is(TokenKind::Eof))
      ++i;
    if (tokens[i].is(TokenKind::Eof))
      return "";
    ++i;
  }
  if ((tokens[i].is(TokenKind::kw_def) || tokens[i].is(TokenKind::kw_class)) &&
      tokens[i + 1 < tokens.size() ? i + 1 : i].is(TokenKind::Identifier))
    return tokens[i + 1].text.str();
  if (!tokens[i].is(TokenKind::Identifier) || i + 1 >= tokens.size())
    return "";
  TokenKind next = tokens[i + 1].kind;
  bool assigns = next == TokenKind::Equal || next == TokenKind::Colon ||
                 (next >= TokenKind::PlusEqual && next <= TokenKind::AtEqual);
  return assigns ? tokens[i].text.str() : "";
}

void Parser::skipStatement(unsigned level) {
  while (!is(TokenKind::Eof)) {
    TokenKind kind = tok().kind;
    consume();
    if ((kind == TokenKind::Newline || kind == TokenKind::Dedent) &&
        indentLevel <= level && !is(TokenKind::Indent) && !is(TokenKind::Dedent))
      return;
  }
}

void Parser::parseTopLevelItem(Module &module) {
  size_t start = pos;
  unsigned level = indentLevel;
  SourceLoc loc = tok().loc;
  bool kernel = false;
  switch (tok().kind) {
  case TokenKind::Newline:
    consume();
    return;
  case TokenKind::kw_import:
  case TokenKind::kw_from:
    parseImport(module);
    break;
  case TokenKind::Identifier:
    parseGlobal(module);
    break;
  case TokenKind::At:
  case TokenKind::kw_def:
    kernel = startsKernelDefinition(module);
    if (auto function = parseFunction()) {
      // `@tr.jit` after `import triton as tr`: decorators by their triton names.
      for (Decorator &decorator : function->decorators)
        decorator.name = module.expandTritonAlias(decorator.name);
      if (module.lookup(function->getName())) {
        // Python keeps the last definition; tilec refuses the ambiguity in
        // code it compiles and leaves it to a use elsewhere.
        if (kernel || function->isKernel()) {
          error(function->getLoc(), "redefinition of function '" + function->getName() + "'");
          return;
        }
        module.hostCode.push_back({function->getName().str(), function->getLoc(),
                                   "a second definition of '" + function->getName().str() +
                                       "' in this file",
                                   function->getLoc()});
        return;
      }
      module.functions.push_back(std::move(function));
    }
    break;
  case TokenKind::String:
    // A docstring or another bare string: ignored, as in a function body.
    while (consumeIf(TokenKind::String))
      ;
    expect(TokenKind::Newline, "after a string at the top level");
    break;
  case TokenKind::Indent:
    syntaxError(tok().loc, "unexpected indent");
    return;
  case TokenKind::kw_try:
  case TokenKind::kw_if:
    // `try: from triton.language.extra import libdevice` / `if HAS_X: import
    // ...`: the imports of the first branch that binds a name.
    if (skipBlockHeader()) {
      llvm::StringSet<> bound;
      parseTopLevelBlock(module, bound, tokens[start].text);
      // The other branches (`except`, `elif`, `else`, `finally`) the same way.
      bool headers = true;
      while (!failed && headers &&
             (is(TokenKind::kw_except) || is(TokenKind::kw_elif) ||
              is(TokenKind::kw_else) || is(TokenKind::kw_finally))) {
        if ((headers = skipBlockHeader()))
          parseTopLevelBlock(module, bound, tokens[start].text);
      }
      if (!failed && headers && indentLevel == level)
        return;
    }
    error(loc, "a top-level '" + tokens[start].text + "' block (Python host code)");
    break;
  default:
    error(loc, "a top-level " + describe(tok()) + " (Python host code)");
    break;
  }
  if (!failed || kernel || pendingIsSyntax)
    return;
  // Python host code: kept for an error where a kernel uses what it defines.
  size_t end = pos;
  pos = start;
  std::string name = nameDefinedHere();
  pos = end;
  module.hostCode.push_back({name, loc, pendingMessage, pendingLoc});
  failed = false;
  if (pos == start || !(tokens[pos - 1].is(TokenKind::Newline) ||
                        tokens[pos - 1].is(TokenKind::Dedent)) ||
      indentLevel > level || is(TokenKind::Indent) || is(TokenKind::Dedent))
    skipStatement(level);
  size_t hostEnd = pos;
  if (!parseKernelsOfHostFunction(module, start, level))
    warnAboutHiddenKernels(module, start, pos, tokens[start].text);
  if (failed)
    return; // A kernel in the function did not parse: reported.
  recordBoundNames(module, start, hostEnd);
}

bool Parser::parseKernelsOfHostFunction(Module &module, size_t start, unsigned level) {
  size_t end = pos;
  size_t def = scanDecorators(module, start).end;
  if (def >= end || !tokens[def].is(TokenKind::kw_def))
    return false;
  bool definesKernels = false;
  for (size_t i = def + 1; i < end && !definesKernels; ++i)
    definesKernels = tokens[i].is(TokenKind::At) &&
                     (tokens[i - 1].is(TokenKind::Newline) || tokens[i - 1].is(TokenKind::Indent) ||
                      tokens[i - 1].is(TokenKind::Dedent)) &&
                     scanDecorators(module, i).jit;
  if (!definesKernels)
    return false;
  std::map<std::string, std::string> aliasesBefore = module.tritonAliases;
  size_t functionsBefore = module.functions.size();
  size_t hostCodeBefore = module.hostCode.size();
  size_t importsBefore = module.foreignImports.size();
  pos = def;
  if (skipBlockHeader()) {
    llvm::StringSet<> bound;
    parseTopLevelBlock(module, bound, "def");
    if (failed && pendingIsSyntax)
      return true;
    if (!failed && pos == end && indentLevel == level)
      return true;
  }
  // Not a body tilec can read this way: host code, as it was.
  failed = false;
  pos = end;
  indentLevel = level;
  module.tritonAliases = std::move(aliasesBefore);
  module.functions.resize(functionsBefore);
  module.hostCode.resize(hostCodeBefore);
  module.foreignImports.erase(module.foreignImports.begin() + importsBefore,
                              module.foreignImports.end());
  return false;
}

void Parser::recordBoundNames(Module &module, size_t from, size_t to) {
  // Module-level bindings of the skipped tokens: targets of `=` and of
  // augmented assignments (`a, b = ...`, `x[0] = ...` mutates x), `for`
  // and `as` targets, imports, `def`/`class` names, `global` names in a
  // function, and a name whose method a statement calls (`SIZES.reverse()`).
  // Names assigned inside a def or class body are not module-level.
  auto record = [&](const Token &token) {
    module.hostCode.push_back({token.text.str(), token.loc,
                               "'" + token.text.str() +
                                   "' may be bound here by Python host code, which "
                                   "tilec does not run",
                               token.loc});
  };
  int brackets = 0, indent = 0, scopeIndent = -1;
  bool lineStart = true, forTarget = false, importNames = false, globalNames = false;
  llvm::SmallVector<size_t> candidates;
  for (size_t i = from; i < to && i < tokens.size(); ++i) {
    const Token &t = tokens[i];
    const Token *next = i + 1 < tokens.size() ? &tokens[i + 1] : nullptr;
    bool afterDot = i > from && tokens[i - 1].is(TokenKind::Dot);
    switch (t.kind) {
    case TokenKind::Indent:
      ++indent;
      continue;
    case TokenKind::Dedent:
      if (--indent <= scopeIndent)
        scopeIndent = -1;
      continue;
    case TokenKind::Newline:
      lineStart = true;
      forTarget = importNames = globalNames = false;
      candidates.clear();
      continue;
    case TokenKind::LParen: case TokenKind::LSquare: case TokenKind::LBrace:
      ++brackets;
      break;
    case TokenKind::RParen: case TokenKind::RSquare: case TokenKind::RBrace:
      brackets = std::max(0, brackets - 1);
      break;
    default:
      break;
    }
    bool inScope = scopeIndent >= 0;
    if (lineStart) {
      lineStart = false;
      if (t.is(TokenKind::kw_global) || t.is(TokenKind::kw_nonlocal)) {
        globalNames = true;
        continue;
      }
      if (inScope)
        continue;
      if ((t.is(TokenKind::kw_def) || t.is(TokenKind::kw_class)) && next &&
          next->is(TokenKind::Identifier)) {
        record(*next);
        scopeIndent = indent;
        continue;
      }
      if (t.is(TokenKind::Identifier) && next &&
          (next->is(TokenKind::Dot) || next->is(TokenKind::LSquare)))
        record(t);
    }
    if (globalNames) {
      if (t.is(TokenKind::Identifier))
        record(t);
      continue;
    }
    if (inScope)
      continue;
    if (t.is(TokenKind::kw_import)) {
      importNames = true;
      continue;
    }
    if (importNames || forTarget) {
      if (t.is(TokenKind::kw_in))
        forTarget = false;
      else if (t.is(TokenKind::Identifier) && !afterDot)
        record(t);
      continue;
    }
    if (t.is(TokenKind::kw_for)) {
      forTarget = true;
      continue;
    }
    if (t.is(TokenKind::kw_as) && next && next->is(TokenKind::Identifier)) {
      record(*next);
      continue;
    }
    if (brackets != 0)
      continue;
    if (t.is(TokenKind::Identifier) && !afterDot)
      candidates.push_back(i);
    bool assigns = t.is(TokenKind::Equal) ||
                   (t.kind >= TokenKind::PlusEqual && t.kind <= TokenKind::AtEqual);
    if (assigns) {
      for (size_t candidate : candidates)
        record(tokens[candidate]);
      candidates.clear();
    }
  }
}

void Parser::warnAboutHiddenKernels(const Module &module, size_t from, size_t to,
                                    llvm::StringRef blockKind) {
  for (size_t i = from; i < to && i < tokens.size(); ++i) {
    bool lineStart = i == from || tokens[i - 1].is(TokenKind::Newline) ||
                     tokens[i - 1].is(TokenKind::Indent) ||
                     tokens[i - 1].is(TokenKind::Dedent);
    if (!tokens[i].is(TokenKind::At) || !lineStart)
      continue;
    Decorators decorators = scanDecorators(module, i);
    size_t def = decorators.end;
    if (!decorators.triton || !tokens[def].is(TokenKind::kw_def) ||
        def + 1 >= tokens.size() || !tokens[def + 1].is(TokenKind::Identifier) ||
        !hiddenKernels.insert(def).second)
      continue;
    diag.warning(tokens[def + 1].loc,
                 "'" + tokens[def + 1].text + "' is defined inside a top-level '" +
                     blockKind +
                     "' statement, whose code tilec does not run: it is not compiled, "
                     "and kernels cannot call it (define it at the top level)");
    i = def;
  }
}

void Parser::parseTopLevelBlock(Module &module, llvm::StringSet<> &bound,
                                llvm::StringRef blockKind) {
  unsigned level = indentLevel;
  while (!failed && !is(TokenKind::Eof) && indentLevel >= level) {
    if (is(TokenKind::Dedent) || is(TokenKind::Newline)) {
      consume();
      continue;
    }
    if (parseBlockAlias(module, bound))
      continue;
    if ((is(TokenKind::kw_if) || is(TokenKind::kw_try)) &&
        parseNestedBlock(module, bound, blockKind))
      continue;
    if ((is(TokenKind::At) || is(TokenKind::kw_def)) && startsKernelDefinition(module)) {
      // `if triton.__version__ >= "2.1.0":` around kernels: the definitions
      // of the first branch that defines a name.
      std::unique_ptr<FunctionDef> function = parseFunction();
      if (!function) {
        // A kernel that does not parse is reported, as at the top level: it
        // is code tilec compiles, not host code to skip.
        pendingIsSyntax = true;
        return;
      }
      for (Decorator &decorator : function->decorators)
        decorator.name = module.expandTritonAlias(decorator.name);
      if (!module.lookup(function->getName()) && bound.insert(function->getName()).second)
        module.functions.push_back(std::move(function));
      continue;
    }
    if (!is(TokenKind::kw_import) && !is(TokenKind::kw_from)) {
      size_t start = pos;
      skipStatement(level);
      warnAboutHiddenKernels(module, start, pos, blockKind);
      // What skipped host code binds (a nested `if`'s alias too) is bound:
      // a later branch's alias of the name does not win over it.
      size_t known = module.hostCode.size();
      recordBoundNames(module, start, pos);
      for (size_t i = known; i < module.hostCode.size(); ++i)
        if (!module.hostCode[i].name.empty())
          bound.insert(module.hostCode[i].name);
      continue;
    }
    Module scratch;
    parseImport(scratch);
    if (failed) {
      if (pendingIsSyntax)
        return;
      failed = false;
      skipStatement(level);
      continue;
    }
    for (const auto &[name, path] : scratch.tritonAliases)
      if (bound.insert(name).second)
        module.tritonAliases[name] = path;
    for (ForeignImport &import : scratch.foreignImports)
      if (bound.insert(import.name).second)
        module.foreignImports.push_back(std::move(import));
  }
}

bool Parser::parseNestedBlock(Module &module, llvm::StringSet<> &bound,
                              llvm::StringRef blockKind) {
  size_t start = pos;
  unsigned level = indentLevel;
  SourceLoc loc = tok().loc;
  // What the module holds before, for a statement that is not one after all.
  std::map<std::string, std::string> aliasesBefore = module.tritonAliases;
  size_t hostCodeBefore = module.hostCode.size();
  size_t importsBefore = module.foreignImports.size();
  // What each branch binds a name to: an alias's path, "" for host code, or
  // kImported for an import of another file.
  static constexpr llvm::StringLiteral kImported = "<import>";
  llvm::StringMap<std::string> chosen;
  llvm::StringSet<> conflicting;
  bool header = skipBlockHeader();
  while (!failed && header) {
    llvm::StringSet<> branchBound;
    for (const auto &name : bound)
      branchBound.insert(name.getKey());
    size_t hostCodeStart = module.hostCode.size();
    parseTopLevelBlock(module, branchBound, blockKind);
    llvm::StringSet<> hostNames;
    for (size_t i = hostCodeStart; i < module.hostCode.size(); ++i)
      hostNames.insert(module.hostCode[i].name);
    for (const auto &name : branchBound) {
      llvm::StringRef key = name.getKey();
      if (bound.contains(key))
        continue;
      auto alias = module.tritonAliases.find(key.str());
      std::string path = hostNames.contains(key)                  ? std::string()
                         : alias != module.tritonAliases.end() ? alias->second
                                                                 : kImported.str();
      auto [entry, fresh] = chosen.try_emplace(key, path);
      if (!fresh && entry->second != path)
        conflicting.insert(key);
    }
    if (!is(TokenKind::kw_elif) && !is(TokenKind::kw_else) && !is(TokenKind::kw_except) &&
        !is(TokenKind::kw_finally))
      break;
    header = skipBlockHeader();
  }
  if (failed && pendingIsSyntax)
    return true; // Reported by the caller.
  if (failed || !header || indentLevel != level) {
    failed = false;
    pos = start;
    indentLevel = level;
    module.tritonAliases = std::move(aliasesBefore);
    module.hostCode.resize(hostCodeBefore);
    module.foreignImports.erase(module.foreignImports.begin() + importsBefore,
                                module.foreignImports.end());
    return false;
  }
  for (const auto &entry : chosen) {
    llvm::StringRef name = entry.getKey();
    bound.insert(name);
    if (conflicting.contains(name)) {
      module.tritonAliases.erase(name.str());
      module.hostCode.push_back({name.str(), loc,
                                 "'" + name.str() +
                                     "' is bound differently by the branches of a nested '" +
                                     tokens[start].text.str() +
                                     "' statement, whose condition tilec does not evaluate",
                                 loc});
    } else if (!entry.second.empty() && entry.second != kImported) {
      module.tritonAliases[name.str()] = entry.second;
    }
  }
  return true;
}

bool Parser::parseDottedName(std::string &name, const llvm::Twine &context) {
  name.clear();
  while (consumeIf(TokenKind::Dot))
    name += "."; // Relative imports.
  if (!name.empty() && is(TokenKind::kw_import))
    return true; // `from . import helpers`: the package itself.
  do {
    if (!is(TokenKind::Identifier))
      return expect(TokenKind::Identifier, context);
    if (!name.empty() && name.back() != '.')
      name += ".";
    name += tok().text.str();
    consume();
  } while (consumeIf(TokenKind::Dot));
  return true;
}

/// True for modules whose names tilec knows (triton and its language, and
/// modules kernels import for host code only).
static bool isKnownModule(llvm::StringRef module) {
  return module == "triton" || module.starts_with("triton.") || module == "torch" ||
         module.starts_with("torch.") || module == "math" || module == "typing" ||
         module == "__future__" || module == "tilec" || module.starts_with("tilec.");
}

void Parser::parseImport(Module &module) {
  std::string name;
  // Records `bound` (a name the import binds) when `from` is a module tilec
  // cannot read.
  // `path` is the dotted name `bound` stands for (a module or a module's
  // attribute).
  auto record = [&](const std::string &from, const std::string &bound,
                    const std::string &path, SourceLoc loc, std::string symbol = "") {
    if (!isKnownModule(from))
      module.foreignImports.push_back({bound, from, loc, std::move(symbol), ""});
    else if (from == "triton" || llvm::StringRef(from).starts_with("triton."))
      module.tritonAliases[bound] = path;
    // Inductor's kernels take triton's libdevice and math through torch.
    else if (from == "torch._inductor.runtime.triton_helpers" &&
             (symbol == "libdevice" || symbol == "math"))
      module.tritonAliases[bound] =
          symbol == "math" ? "triton.language.math" : "triton.language.extra.libdevice";
  };
  auto parseAlias = [&](std::string &bound) {
    if (!consumeIf(TokenKind::kw_as))
      return;
    if (is(TokenKind::Identifier))
      bound = tok().text.str();
    expect(TokenKind::Identifier, "after 'as'");
  };
  if (consumeIf(TokenKind::kw_import)) {
    do {
      SourceLoc loc = tok().loc;
      if (!parseDottedName(name, "in import"))
        return;
      std::string bound = llvm::StringRef(name).split('.').first.str();
      std::string root = bound;
      parseAlias(bound);
      record(name, bound, bound == root ? root : name, loc);
    } while (!failed && consumeIf(TokenKind::Comma));
  } else {
    consume(); // 'from'
    if (!parseDottedName(name, "after 'from'") || !expect(TokenKind::kw_import, "in from-import"))
      return;
    if (SourceLoc loc = tok().loc; consumeIf(TokenKind::Star)) {
      // `from .utils import *`: every public device function and constant
      // of another file (ImportResolver).
      if (!isKnownModule(name))
        record(name, "*", name + ".*", loc, "*");
    } else {
      bool paren = consumeIf(TokenKind::LParen);
      do {
        if (paren && is(TokenKind::RParen))
          break;
        SourceLoc loc = tok().loc;
        std::string bound = is(TokenKind::Identifier) ? tok().text.str() : "";
        std::string path = name + "." + bound;
        std::string symbol = bound;
        if (!expect(TokenKind::Identifier, "in from-import"))
          return;
        parseAlias(bound);
        record(name, bound, path, loc, symbol);
      } while (!failed && consumeIf(TokenKind::Comma));
      if (paren && !failed)
        expect(TokenKind::RParen, "to close the import list");
    }
  }
  if (!failed)
    expect(TokenKind::Newline, "after import");
}

/// The dotted name `expr` spells (`tl.extra.cuda.libdevice.tanh`), or "".
static std::string dottedNameOf(const Expr &expr) {
  if (const auto *name = llvm::dyn_cast<NameExpr>(&expr))
    return name->getName().str();
  if (const auto *attr = llvm::dyn_cast<AttributeExpr>(&expr))
    return attr->getDottedName();
  return "";
}

std::string Parser::getTritonAliasPath(const Module &module, const GlobalDef &global) {
  // `triton_tanh = tl.extra.cuda.libdevice.tanh`, `triton_cast = tl.cast`:
  // another name for something of triton's.
  std::string path = module.expandTritonAlias(dottedNameOf(*global.value));
  llvm::StringRef root = llvm::StringRef(path).split('.').first;
  if (path.empty() || path.find('.') == std::string::npos || (root != "tl" && root != "triton"))
    return "";
  // `DTYPE = tl.float16` is a module-level constant, not an alias.
  return parseScalarKindName(path) ? "" : path;
}

bool Parser::recordModuleAlias(Module &module, const GlobalDef &global) {
  std::string path = getTritonAliasPath(module, global);
  if (path.empty())
    return false;
  module.tritonAliases[global.name] = path;
  return true;
}

bool Parser::parseBlockAlias(Module &module, llvm::StringSet<> &bound) {
  if (!is(TokenKind::Identifier) || !peek().is(TokenKind::Equal))
    return false;
  size_t start = pos;
  unsigned level = indentLevel;
  GlobalDef global;
  global.name = tok().text.str();
  global.loc = tok().loc;
  consume();
  consume();
  global.value = parseExprList();
  std::string path = !failed && global.value && is(TokenKind::Newline)
                         ? getTritonAliasPath(module, global)
                         : "";
  if (path.empty()) {
    // Host code after all: the caller skips it from its start.
    failed = false;
    pos = start;
    indentLevel = level;
    return false;
  }
  consume();
  // Another GPU vendor's functions (`tl.extra.intel.libdevice.tanh` under
  // an `if DEVICE_TYPE == "xpu":`) bind nothing: the branch that names
  // CUDA's or triton's own does.
  llvm::StringRef dotted(path);
  if (llvm::any_of(std::initializer_list<llvm::StringRef>{".extra.intel.", ".extra.hip.",
                                                          ".extra.amd."},
                   [&](llvm::StringRef vendor) { return dotted.contains(vendor); }))
    return true;
  if (bound.insert(global.name).second)
    module.tritonAliases[global.name] = path;
  return true;
}

bool Parser::applyDecoratorCall(Module &module, GlobalDef &global) {
  // `f = triton.jit(f)` and `f = triton.heuristics({...})(f)`: decorating a
  // function defined above, outside in.
  auto *call = llvm::dyn_cast<CallExpr>(global.value.get());
  if (!call || call->getArgs().size() != 1 || !call->getArgs()[0].keyword.empty())
    return false;
  const auto *target = llvm::dyn_cast<NameExpr>(call->getArgs()[0].value.get());
  if (!target || target->getName() != global.name)
    return false;
  FunctionDef *function = nullptr;
  for (auto &def : module.functions)
    if (def->getName() == global.name)
      function = def.get();
  if (!function)
    return false;
  Decorator decorator;
  decorator.loc = global.value->getLoc();
  Expr *callee = call->getMutableCallee();
  if (auto *factory = llvm::dyn_cast<CallExpr>(callee)) {
    // `triton.heuristics({...})(f)`: the decorator's own arguments, moved
    // into the decorator (the assignment itself is dropped).
    decorator.name = dottedNameOf(factory->getCallee());
    decorator.args = factory->takeArgs();
  } else {
    decorator.name = dottedNameOf(*callee);
  }
  if (decorator.name.empty())
    return false;
  function->decorators.insert(function->decorators.begin(), std::move(decorator));
  return true;
}

void Parser::parseGlobal(Module &module) {
  GlobalDef global;
  global.name = tok().text.str();
  global.loc = tok().loc;
  consume();
  if (consumeIf(TokenKind::Colon)) {
    std::string annotation;
    SourceLoc loc = tok().loc;
    if (!parseDottedName(annotation, "as the annotation of '" + global.name + "'"))
      return;
    // Python's own types annotate host constants as well (`GROUP: int = 4`).
    if (annotation != "constexpr" && annotation != "tl.constexpr" &&
        annotation != "triton.language.constexpr" && annotation != "int" &&
        annotation != "float" && annotation != "bool") {
      error(loc, "a module-level name may only be annotated constexpr, int, float "
                 "or bool, got '" + annotation + "'");
      return;
    }
  }
  if (!expect(TokenKind::Equal, "after module-level name '" + global.name +
                                    "' (only NAME = value is allowed at the top level)"))
    return;
  global.value = parseExprList();
  if (!global.value)
    return;
  if (recordModuleAlias(module, global) || applyDecoratorCall(module, global))
    return void(expect(TokenKind::Newline, "after the module-level assignment"));
  if (module.lookupGlobal(global.name)) {
    // Python's later value wins, but an earlier constant may have read the
    // first one: a use of the name is an error (Sema sees the host code).
    module.hostCode.push_back({global.name, global.loc,
                               "a second assignment of '" + global.name +
                                   "' at the top level",
                               global.loc});
    return void(expect(TokenKind::Newline, "after the module-level assignment"));
  }
  if (expect(TokenKind::Newline, "after the module-level assignment"))
    module.globals.push_back(std::move(global));
}

bool Parser::parseDecorator(std::vector<Decorator> &decorators) {
  Decorator decorator;
  decorator.loc = tok().loc;
  consume(); // '@'
  if (!parseDottedName(decorator.name, "after '@'"))
    return false;
  if (consumeIf(TokenKind::LParen) && !parseCallArgs(decorator.args, /*allowStarred=*/true))
    return false;
  decorators.push_back(std::move(decorator));
  return expect(TokenKind::Newline, "after decorator");
}

std::unique_ptr<FunctionDef> Parser::parseFunction() {
  std::vector<Decorator> decorators;
  while (is(TokenKind::At)) {
    if (!parseDecorator(decorators))
      return nullptr;
    while (consumeIf(TokenKind::Newline)) {
    }
  }
  if (!expect(TokenKind::kw_def, "after decorator"))
    return nullptr;
  if (!is(TokenKind::Identifier))
    return expect(TokenKind::Identifier, "after 'def'"), nullptr;
  auto function = std::make_unique<FunctionDef>(tok().text.str(), tok().loc);
  function->decorators = std::move(decorators);
  consume();
  if (!expect(TokenKind::LParen, "after function name"))
    return nullptr;
  llvm::StringSet<> seen;
  while (!is(TokenKind::RParen)) {
    if (!parseParam(*function, seen))
      return nullptr;
    if (!consumeIf(TokenKind::Comma))
      break;
  }
  if (!expect(TokenKind::RParen, "after parameters"))
    return nullptr;
  if (consumeIf(TokenKind::Arrow) && !parseExpr())
    return nullptr; // The return annotation is ignored.
  if (!expect(TokenKind::Colon, "after function signature") ||
      !parseSuite(function->body, "function definition"))
    return nullptr;
  return function;
}

bool Parser::parseParam(FunctionDef &function, llvm::StringSet<> &seen) {
  if (is(TokenKind::Star) || is(TokenKind::StarStar) || is(TokenKind::Slash))
    return error(tok().loc, "'*', '**' and '/' parameters are not supported"), false;
  if (!is(TokenKind::Identifier))
    return expect(TokenKind::Identifier, "in parameter list");
  Param param;
  param.name = tok().text.str();
  param.loc = tok().loc;
  consume();
  if (!seen.insert(param.name).second)
    return syntaxError(param.loc, "duplicate parameter '" + param.name + "'"), false;
  if (consumeIf(TokenKind::Colon) && !parseAnnotation(param, !function.isKernel()))
    return false;
  if (consumeIf(TokenKind::Equal)) {
    param.defaultValue = parseExpr();
    if (!param.defaultValue)
      return false;
  }
  if (!is(TokenKind::Comma) && !is(TokenKind::RParen))
    return error(tok().loc, "expected ',' or ')' after parameter '" + param.name +
                                "', got " + describe(tok())),
           false;
  function.params.push_back(std::move(param));
  return true;
}

bool Parser::parseAnnotation(Param &param, bool lenient) {
  SourceLoc loc = tok().loc;
  size_t start = pos;
  // A Python annotation that names no type of tilec's (typing's Dict,
  // Optional[int]) on a function that is no kernel says nothing, as in
  // Python.
  auto ignore = [&] {
    pos = start;
    return parseExpr() != nullptr;
  };
  bool pointer = consumeIf(TokenKind::Star);
  std::string name;
  if (lenient && !pointer && !is(TokenKind::Identifier))
    return ignore();
  if (!parseDottedName(name, "as the type of parameter '" + param.name + "'"))
    return false;
  if (lenient && !pointer && !is(TokenKind::Comma) && !is(TokenKind::RParen) &&
      !is(TokenKind::Equal))
    return ignore();
  if (parsed && name.find('.') != std::string::npos) {
    std::string expanded = parsed->expandTritonAlias(name);
    llvm::StringRef rest = expanded;
    if (rest.consume_front("triton.language."))
      name = "tl." + rest.str();
  }
  if (!pointer && (name == "constexpr" || name == "tl.constexpr" ||
                   name == "triton.language.constexpr")) {
    param.annotation = ParamAnnotation::Constexpr;
    return true;
  }
  // Python's int, float and str, tl.tensor and tl.dtype say no more than an
  // unannotated parameter: the type comes from --signature, the launch or
  // the caller, as in Triton.
  if (!pointer && llvm::is_contained({"int", "float", "str", "tl.tensor",
                                      "triton.language.tensor", "dtype", "tl.dtype",
                                      "triton.language.dtype"},
                                     name))
    return true;
  std::optional<ScalarKind> kind = parseScalarKindName(name);
  if (!kind && lenient && !pointer)
    return ignore();
  if (!kind)
    return error(loc, "unknown type '" + llvm::Twine(pointer ? "*" : "") + name +
                          "'; expected a scalar type (i32, fp32, ...), a pointer "
                          "(*fp32, ...) or constexpr"),
           false;
  param.annotation = ParamAnnotation::Type;
  param.type = Type::getScalar(*kind, pointer);
  return true;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

bool Parser::parseSuite(Block &block, llvm::StringRef context) {
  NestingScope nesting(*this);
  if (!nesting.ok())
    return false;
  if (!is(TokenKind::Newline))
    return parseSimpleLine(block);
  consume();
  if (!expect(TokenKind::Indent, "after " + context))
    return false;
  while (!failed && !consumeIf(TokenKind::Dedent)) {
    if (is(TokenKind::Eof))
      return syntaxError(tok().loc, "unexpected end of file in " + context), false;
    parseStatement(block);
  }
  return !failed;
}

bool Parser::parseStatement(Block &block) {
  StmtPtr stmt;
  switch (tok().kind) {
  case TokenKind::kw_if: {
    SourceLoc loc = tok().loc;
    consume();
    stmt = parseIf(loc);
    break;
  }
  case TokenKind::kw_for:
    stmt = parseFor();
    break;
  case TokenKind::kw_while:
    stmt = parseWhile();
    break;
  case TokenKind::kw_def:
  case TokenKind::At:
    return error(tok().loc, "nested functions are not supported; define device "
                            "functions at the top level"),
           false;
  case TokenKind::Indent:
    return syntaxError(tok().loc, "unexpected indent"), false;
  case TokenKind::kw_elif:
  case TokenKind::kw_else:
    return syntaxError(tok().loc, "'" + tok().text + "' without a matching 'if'"), false;
  case TokenKind::kw_class:
  case TokenKind::kw_try:
  case TokenKind::kw_with:
  case TokenKind::kw_except:
  case TokenKind::kw_finally:
    return error(tok().loc, "'" + tok().text + "' statements are not supported"),
           false;
  default:
    return parseSimpleLine(block);
  }
  if (stmt)
    block.push_back(std::move(stmt));
  return !failed;
}

bool Parser::parseSimpleLine(Block &block) {
  do {
    if (is(TokenKind::Newline))
      break;
    StmtPtr stmt = parseSmallStatement();
    if (failed)
      return false;
    if (stmt)
      block.push_back(std::move(stmt));
  } while (consumeIf(TokenKind::Semi));
  return expect(TokenKind::Newline, "at end of statement");
}

StmtPtr Parser::parseSmallStatement() {
  SourceLoc loc = tok().loc;
  switch (tok().kind) {
  case TokenKind::kw_pass:
    consume();
    return std::make_unique<KeywordStmt>(loc, Stmt::Kind::Pass);
  case TokenKind::kw_break:
    consume();
    return std::make_unique<KeywordStmt>(loc, Stmt::Kind::Break);
  case TokenKind::kw_continue:
    consume();
    return std::make_unique<KeywordStmt>(loc, Stmt::Kind::Continue);
  case TokenKind::kw_return: {
    consume();
    ExprPtr value;
    if (startsExpr() && !(value = parseExprList()))
      return nullptr;
    return std::make_unique<ReturnStmt>(loc, std::move(value));
  }
  case TokenKind::kw_assert: {
    consume();
    ExprPtr cond = parseExpr(), message;
    if (!cond || (consumeIf(TokenKind::Comma) && !(message = parseExpr())))
      return nullptr;
    return std::make_unique<AssertStmt>(loc, std::move(cond), std::move(message));
  }
  case TokenKind::kw_import:
  case TokenKind::kw_from:
    return error(loc, "imports are only allowed at the top level");
  case TokenKind::kw_global:
  case TokenKind::kw_nonlocal:
  case TokenKind::kw_del:
  case TokenKind::kw_raise:
  case TokenKind::kw_yield:
    return error(loc, "'" + tok().text + "' statements are not supported");
  default:
    return parseExprStatement();
  }
}

StmtPtr Parser::parseIf(SourceLoc loc) {
  ExprPtr cond = parseExpr();
  Block thenBlock, elseBlock;
  if (!cond || !expect(TokenKind::Colon, "after 'if' condition") ||
      !parseSuite(thenBlock, "'if' statement"))
    return nullptr;
  if (is(TokenKind::kw_elif)) {
    SourceLoc elifLoc = tok().loc;
    consume();
    NestingScope nesting(*this);
    StmtPtr elif = nesting.ok() ? parseIf(elifLoc) : nullptr;
    if (!elif)
      return nullptr;
    elseBlock.push_back(std::move(elif));
  } else if (consumeIf(TokenKind::kw_else)) {
    if (!expect(TokenKind::Colon, "after 'else'") ||
        !parseSuite(elseBlock, "'else'"))
      return nullptr;
  }
  return std::make_unique<IfStmt>(loc, std::move(cond), std::move(thenBlock),
                                  std::move(elseBlock));
}

ExprPtr Parser::parseForTarget(SourceLoc loc) {
  // Below comparisons, so that `in` is not an operator.
  ExprPtr target = parseBinary(PrecBitOr);
  if (!target || !is(TokenKind::Comma))
    return target;
  std::vector<ExprPtr> elements;
  elements.push_back(std::move(target));
  while (consumeIf(TokenKind::Comma) && !is(TokenKind::kw_in))
    if (ExprPtr element = parseBinary(PrecBitOr))
      elements.push_back(std::move(element));
    else
      return nullptr;
  return std::make_unique<TupleExpr>(loc, std::move(elements), false);
}

StmtPtr Parser::parseFor() {
  SourceLoc loc = tok().loc;
  consume();
  ExprPtr target = parseForTarget(loc);
  if (!target || !checkAssignTarget(*target) ||
      !expect(TokenKind::kw_in, "after 'for' target"))
    return nullptr;
  ExprPtr iter = parseExprList();
  Block body;
  if (!iter || !expect(TokenKind::Colon, "after 'for' iterable") ||
      !parseSuite(body, "'for' statement"))
    return nullptr;
  if (is(TokenKind::kw_else))
    return error(tok().loc, "'for ... else' is not supported");
  return std::make_unique<ForStmt>(loc, std::move(target), std::move(iter),
                                   std::move(body));
}

StmtPtr Parser::parseWhile() {
  SourceLoc loc = tok().loc;
  consume();
  ExprPtr cond = parseExpr();
  Block body;
  if (!cond || !expect(TokenKind::Colon, "after 'while' condition") ||
      !parseSuite(body, "'while' statement"))
    return nullptr;
  if (is(TokenKind::kw_else))
    return error(tok().loc, "'while ... else' is not supported");
  return std::make_unique<WhileStmt>(loc, std::move(cond), std::move(body));
}

bool Parser::checkAssignTarget(const Expr &target) {
  if (llvm::isa<NameExpr>(target))
    return true;
  if (auto *tuple = llvm::dyn_cast<TupleExpr>(&target)) {
    for (const ExprPtr &element : tuple->getElements())
      if (!checkAssignTarget(*element))
        return false;
    return true;
  }
  if (llvm::isa<SubscriptExpr>(target) || llvm::isa<AttributeExpr>(target))
    return error(target.getLoc(), "cannot assign to an element or attribute; tiles "
                                  "are values, build a new one instead"),
           false;
  return error(target.getLoc(), "cannot assign to this expression"), false;
}

StmtPtr Parser::parseAnnotatedAssign(SourceLoc loc, ExprPtr target) {
  if (!llvm::isa<NameExpr>(*target))
    return error(target->getLoc(), "an annotated assignment needs a single name "
                                   "as its target");
  ExprPtr annotation = parseExpr();
  if (!annotation)
    return nullptr;
  if (!is(TokenKind::Equal))
    return error(tok().loc, "an annotation without a value ('x: type') is not "
                            "supported; write 'x: type = value'");
  consume();
  ExprPtr value = parseExprList();
  if (!value)
    return nullptr;
  // Only constexpr means something here; other annotations (tl.tensor,
  // int, ...) document the value and are ignored, as Triton does.
  bool constexprOnly = false;
  if (auto *attr = llvm::dyn_cast<AttributeExpr>(annotation.get()))
    constexprOnly = attr->getName() == "constexpr";
  else if (auto *name = llvm::dyn_cast<NameExpr>(annotation.get()))
    constexprOnly = name->getName() == "constexpr";
  return std::make_unique<AssignStmt>(loc, std::move(target), std::move(value),
                                      constexprOnly);
}

StmtPtr Parser::parseExprStatement() {
  SourceLoc loc = tok().loc;
  ExprPtr expr = parseExprList();
  if (!expr)
    return nullptr;
  if (consumeIf(TokenKind::Equal)) {
    if (!checkAssignTarget(*expr))
      return nullptr;
    ExprPtr value = parseExprList();
    if (!value)
      return nullptr;
    if (is(TokenKind::Equal))
      return error(tok().loc, "chained assignment ('a = b = c') is not supported");
    return std::make_unique<AssignStmt>(loc, std::move(expr), std::move(value));
  }
  static const std::pair<TokenKind, BinaryOp> kAugmented[] = {
      {TokenKind::PlusEqual, BinaryOp::Add},
      {TokenKind::MinusEqual, BinaryOp::Sub},
      {TokenKind::StarEqual, BinaryOp::Mul},
      {TokenKind::SlashEqual, BinaryOp::Div},
      {TokenKind::SlashSlashEqual, BinaryOp::FloorDiv},
      {TokenKind::PercentEqual, BinaryOp::Mod},
      {TokenKind::StarStarEqual, BinaryOp::Pow},
      {TokenKind::AmpEqual, BinaryOp::BitAnd},
      {TokenKind::PipeEqual, BinaryOp::BitOr},
      {TokenKind::CaretEqual, BinaryOp::BitXor},
      {TokenKind::LessLessEqual, BinaryOp::LShift},
      {TokenKind::GreaterGreaterEqual, BinaryOp::RShift},
      {TokenKind::AtEqual, BinaryOp::MatMul},
  };
  for (auto [kind, op] : kAugmented) {
    if (!is(kind))
      continue;
    consume();
    if (!llvm::isa<NameExpr>(*expr))
      return error(expr->getLoc(), "augmented assignment needs a single name as "
                                   "its target");
    ExprPtr value = parseExprList();
    if (!value)
      return nullptr;
    return std::make_unique<AugAssignStmt>(loc, op, std::move(expr), std::move(value));
  }
  if (consumeIf(TokenKind::Colon))
    return parseAnnotatedAssign(loc, std::move(expr));
  return std::make_unique<ExprStmt>(loc, std::move(expr));
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

bool Parser::startsExpr() const {
  switch (tok().kind) {
  case TokenKind::Identifier: case TokenKind::Int: case TokenKind::Float:
  case TokenKind::String: case TokenKind::LParen: case TokenKind::LSquare:
  case TokenKind::LBrace: case TokenKind::Minus: case TokenKind::Plus:
  case TokenKind::Tilde: case TokenKind::kw_not: case TokenKind::kw_None:
  case TokenKind::kw_True: case TokenKind::kw_False: case TokenKind::kw_lambda:
  case TokenKind::Ellipsis:
    return true;
  default:
    return false;
  }
}

ExprPtr Parser::parseExprList() {
  SourceLoc loc = tok().loc;
  ExprPtr first = parseExpr();
  if (!first || !is(TokenKind::Comma))
    return first;
  std::vector<ExprPtr> elements;
  elements.push_back(std::move(first));
  while (consumeIf(TokenKind::Comma) && startsExpr()) {
    ExprPtr element = parseExpr();
    if (!element)
      return nullptr;
    elements.push_back(std::move(element));
  }
  return checkHeight(std::make_unique<TupleExpr>(loc, std::move(elements), false));
}

ExprPtr Parser::parseLambda() {
  SourceLoc loc = tok().loc;
  consume(); // 'lambda'
  std::vector<std::string> params;
  while (is(TokenKind::Identifier)) {
    params.push_back(tok().text.str());
    consume();
    if (!consumeIf(TokenKind::Comma))
      break;
  }
  if (!expect(TokenKind::Colon, "after the parameters of a lambda"))
    return nullptr;
  ExprPtr body = parseExpr();
  if (!body)
    return nullptr;
  return checkHeight(std::make_unique<LambdaExpr>(loc, std::move(params), std::move(body)));
}

ExprPtr Parser::parseExpr() {
  if (is(TokenKind::kw_lambda))
    return parseLambda();
  ExprPtr value = parseBinary(PrecOr);
  if (!value || !is(TokenKind::kw_if))
    return value;
  SourceLoc loc = tok().loc;
  consume();
  NestingScope nesting(*this);
  if (!nesting.ok())
    return nullptr;
  ExprPtr cond = parseBinary(PrecOr);
  if (!cond || !expect(TokenKind::kw_else, "in conditional expression"))
    return nullptr;
  ExprPtr elseValue = parseExpr();
  if (!elseValue)
    return nullptr;
  return checkHeight(std::make_unique<IfExpr>(loc, std::move(cond), std::move(value),
                                              std::move(elseValue)));
}

int Parser::getBinaryPrecedence(BinaryOp &op, unsigned &numTokens) const {
  numTokens = 1;
  switch (tok().kind) {
  case TokenKind::kw_or: op = BinaryOp::Or; return PrecOr;
  case TokenKind::kw_and: op = BinaryOp::And; return PrecAnd;
  case TokenKind::Less: op = BinaryOp::Lt; return PrecCompare;
  case TokenKind::LessEqual: op = BinaryOp::Le; return PrecCompare;
  case TokenKind::Greater: op = BinaryOp::Gt; return PrecCompare;
  case TokenKind::GreaterEqual: op = BinaryOp::Ge; return PrecCompare;
  case TokenKind::EqualEqual: op = BinaryOp::Eq; return PrecCompare;
  case TokenKind::NotEqual: op = BinaryOp::Ne; return PrecCompare;
  case TokenKind::kw_is:
    if (peek().kind == TokenKind::kw_not) {
      numTokens = 2;
      op = BinaryOp::IsNot;
    } else {
      op = BinaryOp::Is;
    }
    return PrecCompare;
  case TokenKind::Pipe: op = BinaryOp::BitOr; return PrecBitOr;
  case TokenKind::Caret: op = BinaryOp::BitXor; return PrecBitXor;
  case TokenKind::Amp: op = BinaryOp::BitAnd; return PrecBitAnd;
  case TokenKind::LessLess: op = BinaryOp::LShift; return PrecShift;
  case TokenKind::GreaterGreater: op = BinaryOp::RShift; return PrecShift;
  case TokenKind::Plus: op = BinaryOp::Add; return PrecAdd;
  case TokenKind::Minus: op = BinaryOp::Sub; return PrecAdd;
  case TokenKind::Star: op = BinaryOp::Mul; return PrecMul;
  case TokenKind::Slash: op = BinaryOp::Div; return PrecMul;
  case TokenKind::SlashSlash: op = BinaryOp::FloorDiv; return PrecMul;
  case TokenKind::Percent: op = BinaryOp::Mod; return PrecMul;
  case TokenKind::At: op = BinaryOp::MatMul; return PrecMul;
  default: return PrecNone;
  }
}

ExprPtr Parser::parseBinary(int minPrec) {
  NestingScope nesting(*this);
  if (!nesting.ok())
    return nullptr;
  ExprPtr lhs;
  if (minPrec <= PrecNot && is(TokenKind::kw_not)) {
    SourceLoc loc = tok().loc;
    consume();
    ExprPtr operand = parseBinary(PrecNot);
    if (!operand)
      return nullptr;
    lhs = std::make_unique<UnaryExpr>(loc, UnaryOp::Not, std::move(operand));
  } else {
    lhs = parseUnary();
  }
  bool lastWasComparison = false;
  while (lhs) {
    if ((is(TokenKind::kw_in) || (is(TokenKind::kw_not) && peek().is(TokenKind::kw_in))) &&
        minPrec <= PrecCompare)
      return error(tok().loc, "the 'in' operator is not supported");
    BinaryOp op;
    unsigned numTokens;
    int prec = getBinaryPrecedence(op, numTokens);
    if (prec == PrecNone || prec < minPrec)
      break;
    SourceLoc loc = tok().loc;
    if (prec == PrecCompare && lastWasComparison)
      return error(loc, "chained comparisons like 'a < b < c' are not supported; "
                        "write '(a < b) and (b < c)'");
    lastWasComparison = prec == PrecCompare;
    for (unsigned i = 0; i < numTokens; ++i)
      consume();
    ExprPtr rhs = parseBinary(prec + 1);
    if (!rhs)
      return nullptr;
    lhs = checkHeight(
        std::make_unique<BinaryExpr>(loc, op, std::move(lhs), std::move(rhs)));
  }
  return lhs;
}

ExprPtr Parser::parseUnary() {
  NestingScope nesting(*this);
  if (!nesting.ok())
    return nullptr;
  SourceLoc loc = tok().loc;
  std::optional<UnaryOp> op;
  if (is(TokenKind::Minus))
    op = UnaryOp::Neg;
  else if (is(TokenKind::Plus))
    op = UnaryOp::Pos;
  else if (is(TokenKind::Tilde))
    op = UnaryOp::Invert;
  // -2**63, the least int64, written out: its digits alone do not fit.
  if (op == UnaryOp::Neg && peek().is(TokenKind::Int) &&
      peek().intValue == uint64_t(1) << 63 && !peek(2).is(TokenKind::StarStar)) {
    consume();
    consume();
    return std::make_unique<ConstantExpr>(loc,
                                          ConstValue::getInt(std::numeric_limits<int64_t>::min()));
  }
  if (op) {
    consume();
    ExprPtr operand = parseUnary();
    if (!operand)
      return nullptr;
    return checkHeight(std::make_unique<UnaryExpr>(loc, *op, std::move(operand)));
  }
  ExprPtr base = parsePrimary();
  if (!base || !is(TokenKind::StarStar))
    return base;
  loc = tok().loc;
  consume();
  ExprPtr exponent = parseUnary(); // Right-associative; binds `-` on the right.
  if (!exponent)
    return nullptr;
  return checkHeight(std::make_unique<BinaryExpr>(loc, BinaryOp::Pow, std::move(base),
                                                  std::move(exponent)));
}

ExprPtr Parser::parsePrimary() {
  SourceLoc start = tok().loc;
  ExprPtr expr = parseAtom();
  while (expr) {
    if (consumeIf(TokenKind::LParen)) {
      std::vector<CallArg> args;
      if (!parseCallArgs(args))
        return nullptr;
      expr = std::make_unique<CallExpr>(start, std::move(expr), std::move(args));
    } else if (consumeIf(TokenKind::LSquare)) {
      std::vector<ExprPtr> indices;
      do {
        if (is(TokenKind::RSquare) && !indices.empty())
          break;
        ExprPtr index = parseSubscriptItem();
        if (!index)
          return nullptr;
        indices.push_back(std::move(index));
      } while (consumeIf(TokenKind::Comma));
      if (!expect(TokenKind::RSquare, "to close the subscript"))
        return nullptr;
      expr = std::make_unique<SubscriptExpr>(start, std::move(expr), std::move(indices));
    } else if (consumeIf(TokenKind::Dot)) {
      if (!is(TokenKind::Identifier))
        return expect(TokenKind::Identifier, "after '.'"), nullptr;
      expr = std::make_unique<AttributeExpr>(start, std::move(expr),
                                             tok().text.str(), tok().loc);
      consume();
    } else {
      break;
    }
    expr = checkHeight(std::move(expr));
  }
  return expr;
}

bool Parser::parseCallArgs(std::vector<CallArg> &args, bool allowStarred) {
  // The '(' has been consumed.
  NestingScope nesting(*this);
  if (!nesting.ok())
    return false;
  llvm::StringSet<> keywords;
  while (!is(TokenKind::RParen)) {
    CallArg arg;
    arg.loc = tok().loc;
    if ((is(TokenKind::Star) || is(TokenKind::StarStar)) && allowStarred) {
      // A decorator's `**options`: its reader reports or ignores it.
      arg.keyword = is(TokenKind::Star) ? "*" : "**";
      consume();
      if (!(arg.value = parseExpr()))
        return false;
      args.push_back(std::move(arg));
      if (!consumeIf(TokenKind::Comma))
        break;
      continue;
    }
    if (is(TokenKind::Star) || is(TokenKind::StarStar))
      return error(tok().loc, "'*' and '**' arguments are not supported"), false;
    if (is(TokenKind::Identifier) && peek().is(TokenKind::Equal)) {
      arg.keyword = tok().text.str();
      if (!keywords.insert(arg.keyword).second)
        return syntaxError(arg.loc, "keyword argument '" + arg.keyword + "' repeated"), false;
      consume();
      consume();
    } else if (!keywords.empty()) {
      return syntaxError(arg.loc, "positional argument follows keyword argument"), false;
    }
    arg.value = parseExpr();
    if (!arg.value)
      return false;
    if (is(TokenKind::kw_for))
      return error(tok().loc, "generator expressions are not supported"), false;
    args.push_back(std::move(arg));
    if (!consumeIf(TokenKind::Comma))
      break;
  }
  return expect(TokenKind::RParen, "to close the argument list");
}

ExprPtr Parser::parseSubscriptItem() {
  SourceLoc loc = tok().loc;
  ExprPtr parts[3];
  unsigned numColons = 0;
  auto endsPart = [&] {
    return is(TokenKind::Colon) || is(TokenKind::Comma) || is(TokenKind::RSquare);
  };
  if (!endsPart() && !(parts[0] = parseExpr()))
    return nullptr;
  while (numColons < 2 && consumeIf(TokenKind::Colon)) {
    ++numColons;
    if (!endsPart() && !(parts[numColons] = parseExpr()))
      return nullptr;
  }
  if (numColons == 0) {
    if (!parts[0])
      return error(tok().loc, "expected an index, got " + describe(tok()));
    return std::move(parts[0]);
  }
  return std::make_unique<SliceExpr>(loc, std::move(parts[0]), std::move(parts[1]),
                                     std::move(parts[2]));
}

ExprPtr Parser::parseAtom() {
  const Token &token = tok();
  SourceLoc loc = token.loc;
  switch (token.kind) {
  case TokenKind::Identifier: {
    auto name = std::make_unique<NameExpr>(loc, token.text.str());
    consume();
    return name;
  }
  case TokenKind::Int: {
    if (token.intValue > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      return error(loc, "integer literal " + token.text +
                            " is too large; the maximum is 2**63 - 1");
    auto value = static_cast<int64_t>(token.intValue);
    consume();
    return std::make_unique<ConstantExpr>(loc, ConstValue::getInt(value));
  }
  case TokenKind::Float: {
    double value = token.floatValue;
    consume();
    return std::make_unique<ConstantExpr>(loc, ConstValue::getFloat(value));
  }
  case TokenKind::String: {
    std::string value;
    while (is(TokenKind::String)) { // Adjacent literals concatenate.
      value += tok().stringValue;
      consume();
    }
    return std::make_unique<ConstantExpr>(loc, ConstValue::getString(value));
  }
  case TokenKind::kw_True:
  case TokenKind::kw_False: {
    bool value = token.is(TokenKind::kw_True);
    consume();
    return std::make_unique<ConstantExpr>(loc, ConstValue::getBool(value));
  }
  case TokenKind::kw_None:
    consume();
    return std::make_unique<ConstantExpr>(loc, ConstValue::getNone());
  case TokenKind::LParen:
    return parseParenOrTuple();
  case TokenKind::LSquare:
    return parseList();
  case TokenKind::LBrace:
    return parseDict();
  case TokenKind::Ellipsis:
    return error(loc, "'...' is not supported");
  case TokenKind::kw_lambda:
    return parseLambda();
  default:
    return error(loc, "expected an expression, got " + describe(token));
  }
}

ExprPtr Parser::parseParenOrTuple() {
  SourceLoc loc = tok().loc;
  consume(); // '('
  NestingScope nesting(*this);
  if (!nesting.ok())
    return nullptr;
  std::vector<ExprPtr> elements;
  bool sawComma = false;
  while (!is(TokenKind::RParen)) {
    ExprPtr element = parseExpr();
    if (!element)
      return nullptr;
    if (is(TokenKind::kw_for))
      return error(tok().loc, "generator expressions are not supported");
    elements.push_back(std::move(element));
    if (!consumeIf(TokenKind::Comma))
      break;
    sawComma = true;
  }
  if (!expect(TokenKind::RParen, "to close '('"))
    return nullptr;
  if (elements.size() == 1 && !sawComma)
    return std::move(elements[0]);
  return checkHeight(std::make_unique<TupleExpr>(loc, std::move(elements), false));
}

ExprPtr Parser::parseListComp(SourceLoc loc, ExprPtr element) {
  std::vector<ListCompExpr::Clause> clauses;
  while (consumeIf(TokenKind::kw_for)) {
    ListCompExpr::Clause clause;
    clause.target = parseForTarget(tok().loc);
    if (!clause.target || !checkAssignTarget(*clause.target) ||
        !expect(TokenKind::kw_in, "after the target of a comprehension"))
      return nullptr;
    if (!(clause.iterable = parseBinary(PrecOr)))
      return nullptr;
    while (consumeIf(TokenKind::kw_if)) {
      ExprPtr condition = parseBinary(PrecOr);
      if (!condition)
        return nullptr;
      clause.conditions.push_back(std::move(condition));
    }
    clauses.push_back(std::move(clause));
  }
  if (!expect(TokenKind::RSquare, "to close the comprehension"))
    return nullptr;
  return checkHeight(
      std::make_unique<ListCompExpr>(loc, std::move(element), std::move(clauses)));
}

ExprPtr Parser::parseList() {
  SourceLoc loc = tok().loc;
  consume(); // '['
  NestingScope nesting(*this);
  if (!nesting.ok())
    return nullptr;
  std::vector<ExprPtr> elements;
  while (!is(TokenKind::RSquare)) {
    // `[*base_configs(), triton.Config(...)]`.
    SourceLoc starLoc = tok().loc;
    bool star = consumeIf(TokenKind::Star);
    ExprPtr element = star ? parseBinary(PrecOr) : parseExpr();
    if (!element)
      return nullptr;
    if (star) {
      element = checkHeight(std::make_unique<UnaryExpr>(starLoc, UnaryOp::Star, std::move(element)));
      if (!element)
        return nullptr;
    }
    if (is(TokenKind::kw_for) && elements.empty())
      return parseListComp(loc, std::move(element));
    elements.push_back(std::move(element));
    if (!consumeIf(TokenKind::Comma))
      break;
  }
  if (!expect(TokenKind::RSquare, "to close '['"))
    return nullptr;
  return checkHeight(std::make_unique<TupleExpr>(loc, std::move(elements), true));
}

/// `{'A': 1, "B": 2}` with string keys, as in `triton.Config({...})`, is the
/// call `dict(A=1, B=2)`, which Sema reads where a dict is expected.
ExprPtr Parser::parseDict() {
  SourceLoc loc = tok().loc;
  consume(); // '{'
  NestingScope nesting(*this);
  if (!nesting.ok())
    return nullptr;
  std::vector<CallArg> args;
  while (!is(TokenKind::RBrace)) {
    if (!is(TokenKind::String))
      return error(tok().loc, "dict keys must be string literals (as in "
                              "triton.Config({'BLOCK_SIZE': 128})); set "
                              "literals are not supported"),
             nullptr;
    CallArg arg;
    arg.loc = tok().loc;
    arg.keyword = tok().stringValue;
    consume();
    if (!expect(TokenKind::Colon, "after a dict key"))
      return nullptr;
    arg.value = parseExpr();
    if (!arg.value)
      return nullptr;
    args.push_back(std::move(arg));
    if (!consumeIf(TokenKind::Comma))
      break;
  }
  if (!expect(TokenKind::RBrace, "to close '{'"))
    return nullptr;
  return checkHeight(std::make_unique<CallExpr>(
      loc, std::make_unique<NameExpr>(loc, "dict"), std::move(args)));
}

std::unique_ptr<Module> tilec::parseFile(unsigned bufferId, DiagnosticEngine &diag) {
  unsigned errorsBefore = diag.getNumErrors();
  std::vector<Token> tokens = lex(bufferId, diag);
  if (diag.getNumErrors() != errorsBefore)
    return nullptr;
  std::unique_ptr<Module> module = Parser(std::move(tokens), diag).parseModule();
  if (module) {
    for (auto &function : module->functions)
      function->owner = module.get();
    for (GlobalDef &global : module->globals)
      global.owner = module.get();
  }
  return module;
}
