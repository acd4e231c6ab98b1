#include "kaji/ir/IRParser.h"

#include <bit>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <map>
#include <unordered_map>

namespace kaji::ir {

namespace {

enum class Tok : uint8_t {
  End,
  Ident,   // opcode names, keywords, types: add, kernel, f32, tid.x
  ValueId, // %name
  BlockId, // ^name
  FuncId,  // @name
  Number,
  String,
  Punct, // ( ) { } [ ] < > , : = ->
};

struct Token {
  Tok kind = Tok::End;
  std::string_view text; // for ids, without the sigil; for strings, with the quotes
  unsigned line = 1, col = 1;
  size_t offset = 0;
};

bool isIdChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$';
}

class Lexer {
public:
  Lexer(std::string_view text, std::shared_ptr<const std::string> file)
      : text_(text), file_(std::move(file)) {}

  Token next() {
    skipSpaceAndComments();
    Token t;
    t.line = line_;
    t.col = col_;
    t.offset = pos_;
    if (pos_ >= text_.size())
      return t;
    char c = text_[pos_];
    if (c == '%' || c == '^' || c == '@') {
      advance();
      size_t start = pos_;
      while (pos_ < text_.size() && isIdChar(text_[pos_]))
        advance();
      if (pos_ == start)
        throw CompileError(location(t), std::string("expected a name after '") + c + "'");
      t.kind = c == '%' ? Tok::ValueId : c == '^' ? Tok::BlockId : Tok::FuncId;
      t.text = text_.substr(start, pos_ - start);
      return t;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '-' && pos_ + 1 < text_.size() &&
         std::isdigit(static_cast<unsigned char>(text_[pos_ + 1])))) {
      size_t start = pos_;
      advance();
      while (pos_ < text_.size() &&
             (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '.' ||
              ((text_[pos_] == '+' || text_[pos_] == '-') &&
               (text_[pos_ - 1] == 'e' || text_[pos_ - 1] == 'E'))))
        advance();
      t.kind = Tok::Number;
      t.text = text_.substr(start, pos_ - start);
      return t;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t start = pos_;
      while (pos_ < text_.size() && isIdChar(text_[pos_]))
        advance();
      t.kind = Tok::Ident;
      t.text = text_.substr(start, pos_ - start);
      return t;
    }
    if (c == '"') {
      size_t start = pos_;
      advance();
      while (pos_ < text_.size() && text_[pos_] != '"' && text_[pos_] != '\n') {
        if (text_[pos_] == '\\' && pos_ + 1 < text_.size())
          advance();
        advance();
      }
      if (pos_ >= text_.size() || text_[pos_] != '"')
        throw CompileError(location(t), "unterminated string");
      advance();
      t.kind = Tok::String;
      t.text = text_.substr(start, pos_ - start);
      return t;
    }
    if (c == '-' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '>') {
      advance();
      advance();
      t.kind = Tok::Punct;
      t.text = "->";
      return t;
    }
    if (std::string_view("(){}[]<>,:=").find(c) != std::string_view::npos) {
      advance();
      t.kind = Tok::Punct;
      t.text = text_.substr(t.offset, 1);
      return t;
    }
    char shown[8];
    std::snprintf(shown, sizeof shown,
                  std::isprint(static_cast<unsigned char>(c)) ? "%c" : "\\x%02X",
                  static_cast<unsigned char>(c));
    throw CompileError(location(t), "unexpected character '" + std::string(shown) + "'");
  }

  Location location(const Token &t) const { return Location{file_, t.line, t.col}; }
  std::string_view text() const { return text_; }

private:
  void advance() {
    if (text_[pos_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++pos_;
  }

  void skipSpaceAndComments() {
    while (pos_ < text_.size()) {
      if (std::isspace(static_cast<unsigned char>(text_[pos_]))) {
        advance();
      } else if (text_.substr(pos_, 2) == "//") {
        while (pos_ < text_.size() && text_[pos_] != '\n')
          advance();
      } else {
        return;
      }
    }
  }

  std::string_view text_;
  std::shared_ptr<const std::string> file_;
  size_t pos_ = 0;
  unsigned line_ = 1, col_ = 1;
};

template <class T> bool parseNumber(std::string_view text, T &out, int base = 10) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out, base);
  return ec == std::errc() && end == text.data() + text.size();
}

std::string unquote(std::string_view quotedText) {
  std::string out;
  for (size_t i = 1; i + 1 < quotedText.size(); ++i) {
    // \xHH, as the printer writes control characters.
    unsigned byte;
    if (quotedText[i] == '\\' && i + 4 < quotedText.size() && quotedText[i + 1] == 'x' &&
        parseNumber(quotedText.substr(i + 2, 2), byte, 16)) {
      out += char(byte);
      i += 3;
      continue;
    }
    if (quotedText[i] == '\\' && i + 2 < quotedText.size()) {
      out += quotedText[++i] == 'n' ? '\n' : quotedText[i];
      continue;
    }
    out += quotedText[i];
  }
  return out;
}

bool parseFloat(std::string_view text, double &out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

class Parser {
public:
  Parser(std::string_view text, std::shared_ptr<const std::string> file)
      : lexer_(text, file), file_(std::move(file)) {
    tok_ = lexer_.next();
  }

  std::unique_ptr<Module> parseModule() {
    auto module = std::make_unique<Module>();
    while (isIdent("link") || isIdent("cooperative")) {
      bool link = isIdent("link");
      consume();
      std::string text = unquote(
          expectKind(Tok::String, link ? "a file name string" : "a symbol name string").text);
      if (link)
        module->addLinkFile(text);
      else
        module->addCooperativeSymbol(text);
    }
    while (tok_.kind != Tok::End) {
      Token nameTok;
      auto function = parseFunction(nameTok);
      if (module->lookup(function->name()))
        error(nameTok, "redefinition of function @" + function->name());
      module->addFunction(std::move(function));
    }
    return module;
  }

private:
  // Per-function state: values by name, and forward references awaiting their definition.
  struct ForwardRef {
    std::unique_ptr<Value> placeholder;
    Token firstUse;
  };

  [[noreturn]] void error(const Token &t, const std::string &message) const {
    throw CompileError(lexer_.location(t), message);
  }

  std::string describe(const Token &t) const {
    switch (t.kind) {
    case Tok::End:
      return "end of input";
    case Tok::ValueId:
      return "'%" + std::string(t.text) + "'";
    case Tok::BlockId:
      return "'^" + std::string(t.text) + "'";
    case Tok::FuncId:
      return "'@" + std::string(t.text) + "'";
    default:
      return "'" + std::string(t.text) + "'";
    }
  }

  Token consume() {
    Token t = tok_;
    tok_ = lexer_.next();
    return t;
  }

  bool isPunct(std::string_view p) const { return tok_.kind == Tok::Punct && tok_.text == p; }
  bool isIdent(std::string_view word) const { return tok_.kind == Tok::Ident && tok_.text == word; }

  bool accept(std::string_view p) {
    if (!isPunct(p))
      return false;
    consume();
    return true;
  }

  void expect(std::string_view p) {
    if (!accept(p))
      error(tok_, "expected '" + std::string(p) + "', found " + describe(tok_));
  }

  Token expectKind(Tok kind, std::string_view what) {
    if (tok_.kind != kind)
      error(tok_, "expected " + std::string(what) + ", found " + describe(tok_));
    return consume();
  }

  // The attribute naming what a `math`, `bits`, `libdevice`, `barrier_reduce`, `warp`, `fence`
  // or `atomic` operation does: an entry of its vocabulary table (a libdevice function's name
  // stays text; the verifier looks it up with its selected value).
  // A load's or store's " cache OP", or no attribute.
  Attr parseCacheOperator() {
    if (tok_.kind != Tok::Ident || tok_.text != "cache")
      return {};
    consume();
    Token name = expectKind(Tok::Ident, "a cache operator");
    if (std::optional<CacheOperator> op = findCacheOperator(name.text))
      return *op;
    error(name, "unknown cache operator '" + std::string(name.text) + "'");
  }

  Attr parseNameAttribute(Opcode opcode) {
    Token name = expectKind(Tok::Ident, opcode == Opcode::Fence    ? "a fence scope"
                                        : opcode == Opcode::Atomic ? "an atomic operation"
                                                                   : "a function name");
    std::string quoted = " '" + std::string(name.text) + "'";
    switch (opcode) {
    case Opcode::Math:
      if (const MathFunction *function = findMathFunction(name.text))
        return function->kind;
      error(name, "unknown math function" + quoted);
    case Opcode::Atomic:
      if (const AtomicOperation *operation = findAtomicOperation(name.text))
        return operation->kind;
      error(name, "unknown atomic operation" + quoted);
    case Opcode::Warp:
      if (const WarpCollective *collective = findWarpCollective(name.text))
        return collective->kind;
      error(name, "unknown warp collective" + quoted);
    case Opcode::Bits:
      if (std::optional<BitFunction> function = findBitFunction(name.text))
        return *function;
      error(name, "unknown bit function" + quoted);
    case Opcode::BarrierReduce:
      if (std::optional<BarrierReduction> reduction = findBarrierReduction(name.text))
        return *reduction;
      error(name, "unknown barrier reduction" + quoted);
    case Opcode::Fence:
      if (std::optional<FenceScope> scope = findFenceScope(name.text))
        return *scope;
      error(name, "unknown fence scope" + quoted);
    default:
      return std::string(name.text);
    }
  }

  Type parseType() {
    Token start = tok_;
    if (tok_.kind != Tok::Ident)
      error(tok_, "expected a type, found " + describe(tok_));
    consume();
    size_t end = start.offset + start.text.size();
    if (start.text == "array" || start.text == "record" || start.text == "vec" ||
        start.text == "fragment") {
      expect("<");
      // A record element nests its own <...>.
      for (int depth = 1; depth > 0 && tok_.kind != Tok::End;) {
        depth += isPunct("<") - isPunct(">");
        end = tok_.offset + 1;
        consume();
      }
    }
    std::string_view spelling = lexer_.text().substr(start.offset, end - start.offset);
    auto type = parseIRType(spelling);
    if (!type)
      error(start, "malformed type '" + std::string(spelling) + "'");
    return *type;
  }

  // Optional `loc("file":line:col)`; otherwise the position of `at` in the IR text.
  Location parseLocation(const Token &at) {
    if (!isIdent("loc"))
      return lexer_.location(at);
    consume();
    expect("(");
    Token fileTok = expectKind(Tok::String, "a file name string");
    expect(":");
    Token lineTok = expectKind(Tok::Number, "a line number");
    expect(":");
    Token colTok = expectKind(Tok::Number, "a column number");
    expect(")");
    Location loc;
    if (!parseNumber(lineTok.text, loc.line))
      error(lineTok, "invalid line number");
    // Line 0 stands for "no location", which prints as no loc(...) at all.
    if (loc.line == 0)
      error(lineTok, "invalid line number '0': lines count from 1");
    if (!parseNumber(colTok.text, loc.col))
      error(colTok, "invalid column number");
    std::string file = unquote(fileTok.text);
    auto it = files_.find(file);
    if (it == files_.end())
      it = files_.emplace(file, std::make_shared<const std::string>(file)).first;
    loc.file = it->second;
    return loc;
  }

  std::unique_ptr<Function> parseFunction(Token &nameTok) {
    Token kindTok = expectKind(Tok::Ident, "'kernel' or 'device'");
    if (kindTok.text != "kernel" && kindTok.text != "device")
      error(kindTok, "expected 'kernel' or 'device', found " + describe(kindTok));
    Function::Inlining inlining = Function::Inlining::Default;
    if (isIdent("alwaysinline") || isIdent("noinline")) {
      inlining = isIdent("alwaysinline") ? Function::Inlining::Always : Function::Inlining::Never;
      consume();
    }
    Function::Export exported = Function::Export::None;
    if (isIdent("export_c") || isIdent("export_numba")) {
      exported = isIdent("export_c") ? Function::Export::CAbi : Function::Export::NumbaAbi;
      consume();
    }
    nameTok = expectKind(Tok::FuncId, "a function name '@name'");
    expect("(");
    std::vector<std::pair<Token, Type>> params;
    if (!isPunct(")")) {
      do {
        Token name = expectKind(Tok::ValueId, "a parameter '%name'");
        expect(":");
        params.emplace_back(name, parseType());
      } while (accept(","));
    }
    expect(")");
    Type returnType;
    if (accept("->"))
      returnType = parseType();
    Location loc = parseLocation(kindTok);
    std::vector<Type> paramTypes;
    for (auto &[name, type] : params)
      paramTypes.push_back(type);
    auto function = std::make_unique<Function>(std::string(nameTok.text),
                                               kindTok.text == "kernel" ? Function::Kind::Kernel
                                                                        : Function::Kind::Device,
                                               paramTypes, returnType, loc);
    function->setInlining(inlining);
    function->setExported(exported);
    function_ = function.get();
    values_.clear();
    forward_.clear();
    blocks_.clear();
    pendingBlocks_.clear();
    bool anyNamed = false;
    for (size_t i = 0; i < params.size(); ++i) {
      std::string_view name = params[i].first.text;
      bool numeric = std::isdigit(static_cast<unsigned char>(name[0]));
      anyNamed |= !numeric;
      function->paramNames().push_back(numeric ? std::string() : std::string(name));
      define(params[i].first, function->entry()->argument(unsigned(i)));
    }
    if (!anyNamed)
      function->paramNames().clear();

    expect("{");
    if (tok_.kind != Tok::BlockId)
      error(tok_, "expected the entry block label, found " + describe(tok_));
    while (tok_.kind == Tok::BlockId)
      parseBlock();
    expect("}");
    finishFunction();
    return function;
  }

  Block *blockRef(const Token &label) {
    auto it = blocks_.find(label.text);
    if (it != blocks_.end())
      return it->second;
    auto block = std::make_unique<Block>(function_);
    Block *raw = block.get();
    blocks_.emplace(label.text, raw);
    pendingBlocks_.emplace(raw, std::make_pair(std::move(block), label));
    return raw;
  }

  void parseBlock() {
    Token label = consume();
    Block *block;
    if (function_->blocks().size() == 1 && !entryDefined_) {
      block = function_->entry();
      blocks_.emplace(label.text, block);
      entryDefined_ = true;
    } else {
      block = blockRef(label);
      auto pending = pendingBlocks_.find(block);
      if (pending == pendingBlocks_.end())
        error(label, "redefinition of block ^" + std::string(label.text));
      function_->blocks().push_back(std::move(pending->second.first));
      pendingBlocks_.erase(pending);
    }
    if (accept("(")) {
      if (block == function_->entry())
        error(label, "the entry block's arguments are the function parameters; it declares none");
      do {
        Token name = expectKind(Tok::ValueId, "a block argument '%name'");
        expect(":");
        define(name, block->addArgument(parseType()));
      } while (accept(","));
      expect(")");
    }
    expect(":");
    while (tok_.kind != Tok::BlockId && !isPunct("}") && tok_.kind != Tok::End)
      parseOperation(*block);
  }

  void define(const Token &name, Value *value) {
    if (values_.count(name.text))
      error(name, "redefinition of value %" + std::string(name.text));
    values_.emplace(name.text, value);
    auto it = forward_.find(name.text);
    if (it != forward_.end()) {
      replacements_.emplace(it->second.placeholder.get(), value);
      placeholders_.push_back(std::move(it->second.placeholder));
      forward_.erase(it);
    }
  }

  Value *valueRef(const Token &name) {
    auto it = values_.find(name.text);
    if (it != values_.end())
      return it->second;
    auto fwd = forward_.find(name.text);
    if (fwd == forward_.end())
      fwd = forward_.emplace(name.text, ForwardRef{std::make_unique<Value>(), name}).first;
    return fwd->second.placeholder.get();
  }

  Value *parseValue() { return valueRef(expectKind(Tok::ValueId, "a value '%name'")); }

  // An optional `align N` after an array's extents; 0 when absent.
  int64_t parseAlignment() {
    if (!isIdent("align"))
      return 0;
    consume();
    Token number = expectKind(Tok::Number, "an alignment in bytes");
    int64_t alignment;
    if (!parseNumber(number.text, alignment))
      error(number, "invalid alignment '" + std::string(number.text) + "'");
    return alignment;
  }

  // `[n, ...]`: the extents of a shared, local or constant array.
  std::vector<int64_t> parseExtents() {
    expect("[");
    std::vector<int64_t> shape;
    if (!isPunct("]")) {
      do {
        Token extent = expectKind(Tok::Number, "an array extent");
        int64_t n;
        if (!parseNumber(extent.text, n))
          error(extent, "invalid array extent '" + std::string(extent.text) + "'");
        shape.push_back(n);
      } while (accept(","));
    }
    expect("]");
    return shape;
  }

  std::vector<Value *> parseValueList(std::string_view close) {
    std::vector<Value *> values;
    if (isPunct(close))
      return values;
    do
      values.push_back(parseValue());
    while (accept(","));
    return values;
  }

  Successor parseSuccessor() {
    Token label = expectKind(Tok::BlockId, "a block label '^name'");
    Successor succ{blockRef(label), {}};
    if (accept("(")) {
      succ.args = parseValueList(":");
      expect(":");
      for (size_t i = 0; i < succ.args.size(); ++i) {
        if (i)
          expect(",");
        parseType();
      }
      expect(")");
    }
    return succ;
  }

  std::variant<std::monostate, int64_t, double> parseConstant(const Token &lit, Type type) {
    if (type.isBool() && lit.kind == Tok::Ident && (lit.text == "true" || lit.text == "false"))
      return int64_t(lit.text == "true");
    if (lit.kind != Tok::Number)
      error(lit, "expected a constant, found " + describe(lit));
    bool hex = lit.text.starts_with("0x") || lit.text.starts_with("0X");
    if (type.isFloat()) {
      uint64_t bits;
      double value;
      if (hex && parseNumber(lit.text.substr(2), bits, 16))
        return std::bit_cast<double>(bits);
      if (!hex && parseFloat(lit.text, value))
        return value;
      error(lit, "invalid floating-point constant '" + std::string(lit.text) + "'");
    }
    if (type.isInteger() || type.isBool()) {
      int64_t value;
      uint64_t unsignedValue;
      if (parseNumber(lit.text, value))
        return value;
      if (!type.isSignedInteger() && parseNumber(lit.text, unsignedValue))
        return int64_t(unsignedValue);
      error(lit, "invalid integer constant '" + std::string(lit.text) + "' for type " + type.str());
    }
    error(lit, "constants must have a scalar type, not " + type.str());
  }

  static bool specialRegFromName(std::string_view name, SpecialReg &out) {
    static constexpr std::pair<std::string_view, SpecialReg::Kind> kinds[] = {
        {"tid", SpecialReg::ThreadIdx},
        {"ctaid", SpecialReg::BlockIdx},
        {"ntid", SpecialReg::BlockDim},
        {"nctaid", SpecialReg::GridDim}};
    size_t dot = name.find('.');
    if (dot == std::string_view::npos || dot + 2 != name.size())
      return false;
    char dim = name[dot + 1];
    if (dim < 'x' || dim > 'z')
      return false;
    for (auto [spelling, kind] : kinds) {
      if (name.substr(0, dot) == spelling) {
        out = SpecialReg{kind, uint8_t(dim - 'x')};
        return true;
      }
    }
    return false;
  }

  void parseOperation(Block &block) {
    Token first = tok_;
    std::optional<Token> resultName;
    if (tok_.kind == Tok::ValueId) {
      resultName = consume();
      expect("=");
    }
    Token opTok = expectKind(Tok::Ident, "an operation name");
    Opcode opcode;
    if (!opcodeFromName(opTok.text, opcode))
      error(opTok, "unknown operation '" + std::string(opTok.text) + "'");

    std::vector<Value *> operands;
    std::vector<Successor> successors;
    Attr attr;
    Type resultType;
    bool hasResult = true;
    switch (opcode) {
    case Opcode::Constant: {
      Token lit = consume();
      expect(":");
      resultType = parseType();
      std::visit(
          [&](auto value) {
            if constexpr (!std::is_same_v<decltype(value), std::monostate>)
              attr = value;
          },
          parseConstant(lit, resultType));
      break;
    }
    case Opcode::Cmp: {
      Token predTok = expectKind(Tok::Ident, "a comparison predicate");
      CmpPredicate pred = CmpPredicate::Eq;
      bool found = false;
      for (int p = 0; p <= int(CmpPredicate::Ge) && !found; ++p)
        if (predicateName(CmpPredicate(p)) == predTok.text) {
          pred = CmpPredicate(p);
          found = true;
        }
      if (!found)
        error(predTok, "unknown comparison predicate '" + std::string(predTok.text) + "'");
      attr = pred;
      operands.push_back(parseValue());
      expect(",");
      operands.push_back(parseValue());
      expect(":");
      parseType();
      resultType = Type::scalar(ScalarKind::Bool);
      break;
    }
    case Opcode::Cast:
    case Opcode::Bitcast:
      operands.push_back(parseValue());
      expect(":");
      parseType();
      if (!isIdent("to"))
        error(tok_, "expected 'to', found " + describe(tok_));
      consume();
      resultType = parseType();
      break;
    case Opcode::Math:
    case Opcode::Bits:
    case Opcode::Libdevice:
    case Opcode::BarrierReduce:
    case Opcode::Warp: {
      attr = parseNameAttribute(opcode);
      expect("(");
      operands = parseValueList(")");
      expect(")");
      expect(":");
      resultType = parseType();
      break;
    }
    case Opcode::SpecialReg: {
      Token reg = expectKind(Tok::Ident, "a special register (tid.x, ctaid.y, ntid.z, nctaid.x)");
      SpecialReg value{};
      if (!specialRegFromName(reg.text, value))
        error(reg, "unknown special register '" + std::string(reg.text) + "'");
      attr = value;
      expect(":");
      resultType = parseType();
      break;
    }
    case Opcode::Barrier:
    case Opcode::GridSync:
    case Opcode::AsyncCommit:
    case Opcode::WarpgroupCommit:
      hasResult = false;
      break;
    case Opcode::AsyncCopy:
    case Opcode::AsyncWait:
    case Opcode::WarpgroupWait: {
      if (opcode == Opcode::AsyncCopy) {
        operands.push_back(parseValue());
        expect(",");
        operands.push_back(parseValue());
        expect(",");
      }
      Token countTok = expectKind(Tok::Number, opcode == Opcode::AsyncCopy
                                                   ? "the bytes copied"
                                                   : "the number of groups left copying");
      int64_t count;
      if (!parseNumber(countTok.text, count))
        error(countTok, "invalid count '" + std::string(countTok.text) + "'");
      attr = count;
      hasResult = false;
      break;
    }
    case Opcode::Fence:
      attr = parseNameAttribute(opcode);
      hasResult = false;
      break;
    case Opcode::WarpSync:
    case Opcode::Nanosleep:
      operands.push_back(parseValue());
      hasResult = false;
      break;
    case Opcode::Print:
      attr = unquote(expectKind(Tok::String, "a print template string").text);
      expect("(");
      operands = parseValueList(")");
      expect(")");
      hasResult = false;
      break;
    case Opcode::ArrayDim:
    case Opcode::ArrayStride:
    case Opcode::ArrayIndex:
    case Opcode::ExtractLane: {
      operands.push_back(parseValue());
      expect(",");
      Token dimTok = expectKind(Tok::Number, opcode == Opcode::ExtractLane ? "a lane number"
                                                                           : "a dimension number");
      int64_t dim;
      if (!parseNumber(dimTok.text, dim))
        error(dimTok, "invalid dimension '" + std::string(dimTok.text) + "'");
      attr = dim;
      if (opcode == Opcode::ArrayIndex) {
        expect(",");
        operands.push_back(parseValue());
      }
      expect(":");
      resultType = parseType();
      break;
    }
    case Opcode::ArrayView:
    case Opcode::ArrayAt: {
      operands.push_back(parseValue());
      if (opcode == Opcode::ArrayView) {
        expect(",");
        operands.push_back(parseValue());
      }
      for (int list = 0; list < 2; ++list) {
        expect(",");
        expect("[");
        for (Value *value : parseValueList("]"))
          operands.push_back(value);
        expect("]");
      }
      expect(":");
      resultType = parseType();
      break;
    }
    case Opcode::Field:
      operands.push_back(parseValue());
      expect(",");
      attr = std::string(expectKind(Tok::Ident, "a field name").text);
      expect(":");
      resultType = parseType();
      break;
    case Opcode::Fragment:
      expect(":");
      resultType = parseType();
      break;
    case Opcode::FragmentFill:
    case Opcode::FragmentMma:
    case Opcode::WarpgroupMma:
      operands = parseValueList("");
      hasResult = false;
      break;
    case Opcode::FragmentLoad:
    case Opcode::FragmentStore:
      for (int i = 0; i < 3; ++i) {
        if (i)
          expect(",");
        operands.push_back(parseValue());
      }
      // An accumulator's layout; the next line's operation name where there is none.
      if (std::optional<MatrixLayout> layout =
              tok_.kind == Tok::Ident ? findMatrixLayout(tok_.text) : std::nullopt) {
        attr = *layout;
        consume();
      }
      hasResult = false;
      break;
    case Opcode::FragmentLength:
      operands.push_back(parseValue());
      expect(":");
      resultType = parseType();
      break;
    case Opcode::FragmentGet:
    case Opcode::FragmentSet: {
      Value *value = opcode == Opcode::FragmentSet ? parseValue() : nullptr;
      if (value)
        expect(",");
      operands.push_back(parseValue());
      expect("[");
      operands.push_back(parseValue());
      expect("]");
      if (value) {
        operands.push_back(value);
        hasResult = false;
      } else {
        expect(":");
        resultType = parseType();
      }
      break;
    }
    case Opcode::Load:
      operands.push_back(parseValue());
      expect("[");
      for (Value *index : parseValueList("]"))
        operands.push_back(index);
      expect("]");
      attr = parseCacheOperator();
      expect(":");
      resultType = parseType();
      break;
    case Opcode::Store:
      operands.push_back(parseValue());
      expect(",");
      operands.push_back(parseValue());
      expect("[");
      for (Value *index : parseValueList("]"))
        operands.push_back(index);
      expect("]");
      attr = parseCacheOperator();
      hasResult = false;
      break;
    case Opcode::Atomic:
    case Opcode::AtomicCAS: {
      if (opcode == Opcode::Atomic)
        attr = parseNameAttribute(opcode);
      operands.push_back(parseValue());
      expect("[");
      std::vector<Value *> indices = parseValueList("]");
      expect("]");
      expect(",");
      operands.push_back(parseValue());
      if (opcode == Opcode::AtomicCAS) {
        expect(",");
        operands.push_back(parseValue());
      }
      operands.insert(operands.end(), indices.begin(), indices.end());
      expect(":");
      resultType = parseType();
      break;
    }
    case Opcode::SharedArray:
    case Opcode::LocalArray: {
      std::vector<int64_t> shape = parseExtents();
      attr = ArrayAllocation(std::move(shape), parseAlignment());
      expect(":");
      resultType = parseType();
      break;
    }
    case Opcode::DynamicSharedArray:
      attr = parseAlignment();
      expect(":");
      resultType = parseType();
      break;
    case Opcode::ConstArray: {
      ConstantData data{parseExtents(), {}};
      Token hex = expectKind(Tok::String, "the array's bytes as a hex string");
      std::string_view digits = hex.text.substr(1, hex.text.size() - 2);
      auto value = [](char c) {
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
      };
      for (size_t i = 0; i + 1 < digits.size(); i += 2) {
        int high = value(digits[i]), low = value(digits[i + 1]);
        if (high < 0 || low < 0)
          error(hex, "the bytes of a const_array are lowercase hex digits");
        data.bytes += char(high * 16 + low);
      }
      if (digits.size() % 2 != 0)
        error(hex, "the bytes of a const_array are an even number of hex digits");
      attr = std::move(data);
      expect(":");
      resultType = parseType();
      break;
    }
    case Opcode::Call:
    case Opcode::ExternCall:
    case Opcode::ExternCallC: {
      Token callee = expectKind(Tok::FuncId, "a callee '@name'");
      attr = std::string(callee.text);
      expect("(");
      operands = parseValueList(")");
      expect(")");
      hasResult = resultName.has_value();
      if (hasResult) {
        expect(":");
        resultType = parseType();
      }
      break;
    }
    case Opcode::Br:
      successors.push_back(parseSuccessor());
      hasResult = false;
      break;
    case Opcode::CondBr:
      operands.push_back(parseValue());
      expect(",");
      successors.push_back(parseSuccessor());
      expect(",");
      successors.push_back(parseSuccessor());
      hasResult = false;
      break;
    case Opcode::Raise:
      if (tok_.kind == Tok::String)
        attr = unquote(consume().text);
      hasResult = false;
      break;
    case Opcode::Return:
      if (tok_.kind == Tok::ValueId) {
        operands.push_back(parseValue());
        expect(":");
        parseType();
      }
      hasResult = false;
      break;
    default: {
      // Unary and binary arithmetic.
      operands = parseValueList(":");
      expect(":");
      resultType = parseType();
      break;
    }
    }
    if (hasResult && resultType.isVoid())
      error(opTok, "'" + std::string(opTok.text) + "' must produce a non-void result");
    if (hasResult && !resultName)
      error(opTok, "the result of '" + std::string(opTok.text) +
                       "' must be named ('%x = " + std::string(opTok.text) + " ...')");
    if (!hasResult && resultName)
      error(*resultName, "'" + std::string(opTok.text) + "' produces no result");
    Location loc = parseLocation(first);
    auto op = std::make_unique<Operation>(opcode, resultType, std::move(operands), std::move(attr),
                                          std::move(loc));
    op->successors() = std::move(successors);
    Operation *created = block.append(std::move(op));
    if (resultName)
      define(*resultName, created->result());
  }

  void finishFunction() {
    if (!forward_.empty()) {
      const ForwardRef *firstMissing = nullptr;
      for (const auto &[name, ref] : forward_)
        if (!firstMissing || ref.firstUse.offset < firstMissing->firstUse.offset)
          firstMissing = &ref;
      error(firstMissing->firstUse,
            "use of undefined value %" + std::string(firstMissing->firstUse.text));
    }
    if (!pendingBlocks_.empty()) {
      const Token *firstMissing = nullptr;
      for (const auto &[block, pending] : pendingBlocks_)
        if (!firstMissing || pending.second.offset < firstMissing->offset)
          firstMissing = &pending.second;
      error(*firstMissing, "use of undefined block ^" + std::string(firstMissing->text));
    }
    auto resolve = [&](Value *&v) {
      auto it = replacements_.find(v);
      if (it != replacements_.end())
        v = it->second;
    };
    for (auto &block : function_->blocks()) {
      for (auto &op : block->operations()) {
        for (Value *&operand : op->operands())
          resolve(operand);
        for (Successor &succ : op->successors())
          for (Value *&arg : succ.args)
            resolve(arg);
      }
    }
    replacements_.clear();
    placeholders_.clear();
    entryDefined_ = false;
  }

  Lexer lexer_;
  std::shared_ptr<const std::string> file_;
  Token tok_;
  std::map<std::string, std::shared_ptr<const std::string>> files_;

  Function *function_ = nullptr;
  bool entryDefined_ = false;
  std::unordered_map<std::string_view, Value *> values_;
  std::unordered_map<std::string_view, ForwardRef> forward_;
  std::unordered_map<Value *, Value *> replacements_;
  std::vector<std::unique_ptr<Value>> placeholders_;
  std::unordered_map<std::string_view, Block *> blocks_;
  std::unordered_map<Block *, std::pair<std::unique_ptr<Block>, Token>> pendingBlocks_;
};

} // namespace

std::unique_ptr<Module> parseIR(std::string_view text,
                                std::shared_ptr<const std::string> fileName) {
  return Parser(text, std::move(fileName)).parseModule();
}

} // namespace kaji::ir
