//===- ASTPrinter.cpp - Readable dumps of the AST (--emit=ast) -------------===//
//
// One node per line, children indented by two spaces; expressions show
// ": <type>" once Sema has typed them, builtin arguments their parameter name.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/ASTPrinter.h"

#include "llvm/ADT/StringExtras.h"

using namespace tilec;

namespace {

/// How the AST dump marks a range loop whose step is not a known positive.
const char *stepSignSuffix(RangeForStmt::StepSign sign) {
  switch (sign) {
  case RangeForStmt::StepSign::Positive:
    return "";
  case RangeForStmt::StepSign::Negative:
    return " descending";
  case RangeForStmt::StepSign::Runtime:
    return " runtime-step";
  }
  return "";
}
class Printer {
public:
  explicit Printer(llvm::raw_ostream &os) : os(os) {}

  void printExpr(const Expr &expr, unsigned indent, llvm::StringRef label = "");
  void printStmt(const Stmt &stmt, unsigned indent);
  void printBlock(llvm::StringRef title, const Block &block, unsigned indent);
  /// `title: a : fp32, b : [64] fp32` (loop-carried values, if results).
  void printCarried(llvm::StringRef title, llvm::ArrayRef<CarriedVar> carried,
                    unsigned indent);
  void printFunction(const FunctionDef &function, unsigned indent);
  void printKernel(const KernelInstance &kernel);

private:
  llvm::raw_ostream &line(unsigned indent, llvm::StringRef label = "") {
    os.indent(indent * 2);
    if (!label.empty())
      os << label << ": ";
    return os;
  }
  void printArgs(llvm::ArrayRef<CallArg> args, unsigned indent) {
    for (const CallArg &arg : args)
      printExpr(*arg.value, indent, arg.keyword);
  }

  llvm::raw_ostream &os;
};
} // namespace

void Printer::printExpr(const Expr &expr, unsigned indent, llvm::StringRef label) {
  llvm::raw_ostream &out = line(indent, label);
  switch (expr.getKind()) {
  case Expr::Kind::Constant:
    out << "Constant " << llvm::cast<ConstantExpr>(expr).getValue().str();
    break;
  case Expr::Kind::Name:
    out << "Name " << llvm::cast<NameExpr>(expr).getName();
    break;
  case Expr::Kind::Attribute:
    out << "Attribute ." << llvm::cast<AttributeExpr>(expr).getName();
    break;
  case Expr::Kind::Call:
    out << "Call";
    break;
  case Expr::Kind::Subscript:
    out << "Subscript";
    break;
  case Expr::Kind::Slice:
    out << "Slice";
    break;
  case Expr::Kind::Unary:
    out << "Unary '" << getSpelling(llvm::cast<UnaryExpr>(expr).getOp()) << "'";
    break;
  case Expr::Kind::Binary:
    out << "Binary '" << getSpelling(llvm::cast<BinaryExpr>(expr).getOp()) << "'";
    break;
  case Expr::Kind::IfExp:
    out << "IfExp";
    break;
  case Expr::Kind::Tuple:
    out << (llvm::cast<TupleExpr>(expr).isList() ? "List" : "Tuple");
    break;
  case Expr::Kind::Lambda:
    out << "Lambda " << llvm::join(llvm::cast<LambdaExpr>(expr).getParams(), ", ");
    break;
  case Expr::Kind::ListComp:
    out << "ListComp";
    break;
  case Expr::Kind::BuiltinCall:
    out << "BuiltinCall "
        << getBuiltinInfo(llvm::cast<BuiltinCallExpr>(expr).getBuiltin()).name;
    break;
  case Expr::Kind::Combine: {
    auto &combine = llvm::cast<CombineExpr>(expr);
    out << (combine.getSpec().isScan ? "Scan" : "Reduce") << " axis="
        << combine.getSpec().axis << " result=" << combine.getIndex();
    break;
  }
  case Expr::Kind::Convert:
    out << "Convert";
    break;
  case Expr::Kind::Broadcast:
    out << "Broadcast";
    break;
  }
  if (!expr.getType().isVoid() || expr.getKind() == Expr::Kind::BuiltinCall)
    out << " : " << expr.getType().str();
  out << "\n";

  unsigned inner = indent + 1;
  switch (expr.getKind()) {
  case Expr::Kind::Attribute:
    printExpr(llvm::cast<AttributeExpr>(expr).getBase(), inner);
    break;
  case Expr::Kind::Call: {
    auto &call = llvm::cast<CallExpr>(expr);
    printExpr(call.getCallee(), inner, "callee");
    printArgs(call.getArgs(), inner);
    break;
  }
  case Expr::Kind::Subscript: {
    auto &subscript = llvm::cast<SubscriptExpr>(expr);
    printExpr(subscript.getBase(), inner);
    for (const ExprPtr &index : subscript.getIndices())
      printExpr(*index, inner, "index");
    break;
  }
  case Expr::Kind::Slice: {
    auto &slice = llvm::cast<SliceExpr>(expr);
    if (slice.getLower())
      printExpr(*slice.getLower(), inner, "lower");
    if (slice.getUpper())
      printExpr(*slice.getUpper(), inner, "upper");
    if (slice.getStep())
      printExpr(*slice.getStep(), inner, "step");
    break;
  }
  case Expr::Kind::Unary:
    printExpr(llvm::cast<UnaryExpr>(expr).getOperand(), inner);
    break;
  case Expr::Kind::Binary:
    printExpr(llvm::cast<BinaryExpr>(expr).getLHS(), inner);
    printExpr(llvm::cast<BinaryExpr>(expr).getRHS(), inner);
    break;
  case Expr::Kind::IfExp: {
    auto &ifExpr = llvm::cast<IfExpr>(expr);
    printExpr(ifExpr.getCond(), inner, "cond");
    printExpr(ifExpr.getThen(), inner, "then");
    printExpr(ifExpr.getElse(), inner, "else");
    break;
  }
  case Expr::Kind::Tuple:
    for (const ExprPtr &element : llvm::cast<TupleExpr>(expr).getElements())
      printExpr(*element, inner);
    break;
  case Expr::Kind::Lambda:
    printExpr(llvm::cast<LambdaExpr>(expr).getBody(), inner);
    break;
  case Expr::Kind::ListComp: {
    auto &comp = llvm::cast<ListCompExpr>(expr);
    printExpr(comp.getElement(), inner);
    for (const ListCompExpr::Clause &clause : comp.getClauses()) {
      printExpr(*clause.target, inner, "for");
      printExpr(*clause.iterable, inner, "in");
      for (const ExprPtr &condition : clause.conditions)
        printExpr(*condition, inner, "if");
    }
    break;
  }
  case Expr::Kind::BuiltinCall: {
    auto &call = llvm::cast<BuiltinCallExpr>(expr);
    const BuiltinInfo &info = getBuiltinInfo(call.getBuiltin());
    for (size_t i = 0; i < call.getArgs().size(); ++i)
      printExpr(call.getArg(i), inner,
                i < info.params.size() ? info.params[i].name : "vararg");
    break;
  }
  case Expr::Kind::Convert:
    printExpr(llvm::cast<ConvertExpr>(expr).getOperand(), inner);
    break;
  case Expr::Kind::Broadcast:
    printExpr(llvm::cast<BroadcastExpr>(expr).getOperand(), inner);
    break;
  case Expr::Kind::Combine: {
    const CombineSpec &spec = llvm::cast<CombineExpr>(expr).getSpec();
    for (const ExprPtr &operand : spec.operands)
      printExpr(*operand, inner, "operand");
    printBlock("combine", spec.body, inner);
    for (const ExprPtr &result : spec.results)
      printExpr(*result, inner, "yield");
    break;
  }
  case Expr::Kind::Constant:
  case Expr::Kind::Name:
    break;
  }
}

void Printer::printBlock(llvm::StringRef title, const Block &block, unsigned indent) {
  line(indent) << title << "\n";
  for (const StmtPtr &stmt : block)
    printStmt(*stmt, indent + 1);
}

void Printer::printStmt(const Stmt &stmt, unsigned indent) {
  unsigned inner = indent + 1;
  switch (stmt.getKind()) {
  case Stmt::Kind::Expr:
    line(indent) << "ExprStmt\n";
    printExpr(llvm::cast<ExprStmt>(stmt).getExpr(), inner);
    return;
  case Stmt::Kind::Assign: {
    auto &assign = llvm::cast<AssignStmt>(stmt);
    line(indent) << "Assign\n";
    printExpr(assign.getTarget(), inner, "target");
    printExpr(assign.getValue(), inner, "value");
    return;
  }
  case Stmt::Kind::AugAssign: {
    auto &aug = llvm::cast<AugAssignStmt>(stmt);
    line(indent) << "AugAssign '" << getSpelling(aug.getOp()) << "='\n";
    printExpr(aug.getTarget(), inner, "target");
    printExpr(aug.getValue(), inner, "value");
    return;
  }
  case Stmt::Kind::If: {
    auto &ifStmt = llvm::cast<IfStmt>(stmt);
    line(indent) << "If\n";
    printExpr(ifStmt.getCond(), inner, "cond");
    printBlock("Then", ifStmt.getThen(), inner);
    if (!ifStmt.getElse().empty())
      printBlock("Else", ifStmt.getElse(), inner);
    return;
  }
  case Stmt::Kind::For: {
    auto &forStmt = llvm::cast<ForStmt>(stmt);
    line(indent) << "For\n";
    printExpr(forStmt.getTarget(), inner, "target");
    printExpr(forStmt.getIter(), inner, "iter");
    printBlock("Body", forStmt.getBody(), inner);
    return;
  }
  case Stmt::Kind::While: {
    auto &whileStmt = llvm::cast<WhileStmt>(stmt);
    line(indent) << "While\n";
    printExpr(whileStmt.getCond(), inner, "cond");
    printBlock("Body", whileStmt.getBody(), inner);
    return;
  }
  case Stmt::Kind::Return:
    line(indent) << "Return\n";
    if (const Expr *value = llvm::cast<ReturnStmt>(stmt).getValue())
      printExpr(*value, inner);
    return;
  case Stmt::Kind::Pass:
    line(indent) << "Pass\n";
    return;
  case Stmt::Kind::Break:
    line(indent) << "Break\n";
    return;
  case Stmt::Kind::Continue:
    line(indent) << "Continue\n";
    return;
  case Stmt::Kind::Assert: {
    auto &assert = llvm::cast<AssertStmt>(stmt);
    line(indent) << "Assert\n";
    printExpr(assert.getCond(), inner, "cond");
    if (assert.getMessage())
      printExpr(*assert.getMessage(), inner, "message");
    return;
  }
  case Stmt::Kind::RangeFor: {
    auto &loop = llvm::cast<RangeForStmt>(stmt);
    line(indent) << "RangeFor " << loop.getInductionVar()->getName() << " : "
                 << loop.getInductionType().str()
                 << stepSignSuffix(loop.getStepSign());
    if (loop.getNumStages() != 0)
      os << " num_stages=" << loop.getNumStages();
    os << "\n";
    printExpr(loop.getStart(), inner, "start");
    printExpr(loop.getEnd(), inner, "end");
    printExpr(loop.getStep(), inner, "step");
    printCarried("Carried", loop.getCarried(), inner);
    printBlock("Body", loop.getBody(), inner);
    return;
  }
  case Stmt::Kind::RuntimeWhile: {
    auto &loop = llvm::cast<RuntimeWhileStmt>(stmt);
    line(indent) << "RuntimeWhile\n";
    printCarried("Carried", loop.getCarried(), inner);
    printBlock("Before", loop.getCondBlock(), inner);
    printExpr(loop.getCond(), inner, "cond");
    printBlock("Body", loop.getBody(), inner);
    return;
  }
  case Stmt::Kind::RuntimeIf: {
    auto &ifStmt = llvm::cast<RuntimeIfStmt>(stmt);
    line(indent) << "RuntimeIf\n";
    printExpr(ifStmt.getCond(), inner, "cond");
    printCarried("Results", ifStmt.getResults(), inner);
    printBlock("Then", ifStmt.getThen(), inner);
    printBlock("Else", ifStmt.getElse(), inner);
    return;
  }
  }
}

void Printer::printCarried(llvm::StringRef title, llvm::ArrayRef<CarriedVar> carried,
                           unsigned indent) {
  if (carried.empty())
    return;
  llvm::raw_ostream &out = line(indent) << title << ": ";
  llvm::interleaveComma(carried, out, [&](const CarriedVar &var) {
    out << var.var->getName() << " : " << var.type.str();
  });
  out << "\n";
}

void Printer::printFunction(const FunctionDef &function, unsigned indent) {
  line(indent) << (function.isKernel() ? "Kernel " : "DeviceFunction ")
               << function.getName() << "\n";
  unsigned inner = indent + 1;
  for (const Decorator &decorator : function.decorators) {
    line(inner) << "Decorator @" << decorator.name << "\n";
    printArgs(decorator.args, inner + 1);
  }
  for (const Param &param : function.params) {
    llvm::raw_ostream &out = line(inner) << "Param " << param.name;
    if (param.annotation == ParamAnnotation::Constexpr)
      out << " : constexpr";
    else if (param.annotation == ParamAnnotation::Type)
      out << " : " << param.type.str();
    out << "\n";
    if (param.defaultValue)
      printExpr(*param.defaultValue, inner + 1, "default");
  }
  printBlock("Body", function.body, inner);
}

void Printer::printKernel(const KernelInstance &kernel) {
  os << "Kernel " << kernel.name << " (num_warps=" << kernel.numWarps
     << ", num_stages=" << kernel.numStages << ")\n";
  for (const KernelParam &param : kernel.params) {
    line(1) << "Param " << param.name << " : "
            << (param.isConstexpr ? "constexpr = " + param.value.str() : param.type.str())
            << "\n";
  }
  printBlock("Body", kernel.body, 1);
}

void tilec::printModule(const Module &module, llvm::raw_ostream &os) {
  Printer printer(os);
  os << "Module\n";
  for (const auto &function : module.functions)
    printer.printFunction(*function, 1);
}

void tilec::printKernel(const KernelInstance &kernel, llvm::raw_ostream &os) {
  Printer(os).printKernel(kernel);
}

void tilec::printExpr(const Expr &expr, llvm::raw_ostream &os, unsigned indent) {
  Printer(os).printExpr(expr, indent);
}

void tilec::printStmt(const Stmt &stmt, llvm::raw_ostream &os, unsigned indent) {
  Printer(os).printStmt(stmt, indent);
}
