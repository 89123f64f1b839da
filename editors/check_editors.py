#!/usr/bin/env python3
"""Checks the editor support files under editors/ (standard library only).

    python3 editors/check_editors.py

What it checks:

  VS Code (editors/vscode):
    - every JSON file parses;
    - package.json has the fields an installable extension needs, and the files
      its `contributes` names exist;
    - language-configuration.json: '#' comments, offSide folding, and its
      regexes compile;
    - the TextMate grammar: every `match`/`begin`/`end` regex uses only
      constructs that Oniguruma (what VS Code runs) and Python's `re` read
      alike, and compiles with `re`; every `include "#name"` names a repository
      entry, and every repository entry is used; every scope name ends in
      `.tile`;
    - a small TextMate tokenizer (earliest match wins, rule order breaks ties,
      begin/end regions, captures) runs the grammar over a real kernel from
      dsl_examples/ and over a sample with the rest of the syntax, and asserts
      the scope of `def`, `tl.` builtins, dtypes, numbers, comments, strings and
      more.

  vim (editors/vim):
    - syntax/tile.vim defines `syntax keyword` groups for the language's
      keywords and sets b:current_syntax; ftdetect/tile.vim sets filetype tile
      for *.tile;
    - when a `vim` binary is on PATH, vim itself opens the sample kernel with
      editors/vim on its runtimepath and the checker asserts the filetype and
      the syntax group under a few positions.

  .gitattributes: marks *.tile as Python for GitHub's linguist.

Exits 0 when everything holds, 1 with one line per failure otherwise.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
VSCODE = os.path.join(HERE, "vscode")
VIM = os.path.join(HERE, "vim")

failures = []
passed = 0


def fail(msg):
    failures.append(msg)


def ok(cond, msg):
    """Records one assertion; returns cond."""
    global passed
    if cond:
        passed += 1
    else:
        fail(msg)
    return cond


def rel(path):
    return os.path.relpath(path, ROOT)


# --------------------------------------------------------------------------
# JSON files and package.json
# --------------------------------------------------------------------------

def load_json_files():
    docs = {}
    for dirpath, _, files in os.walk(VSCODE):
        for f in sorted(files):
            if not f.endswith(".json"):
                continue
            path = os.path.join(dirpath, f)
            try:
                with open(path, encoding="utf-8") as fh:
                    docs[os.path.relpath(path, VSCODE)] = json.load(fh)
                ok(True, "")
            except (OSError, ValueError) as e:
                fail("%s: invalid JSON: %s" % (rel(path), e))
    return docs


def check_package(docs):
    pkg = docs.get("package.json")
    if not ok(isinstance(pkg, dict), "editors/vscode/package.json is missing or not an object"):
        return None
    for key, want in (("name", "tilec-tile"), ("publisher", "tilec"), ("version", "0.1.0")):
        ok(pkg.get(key) == want, "package.json: %s should be %r, is %r" % (key, want, pkg.get(key)))
    ok(bool(pkg.get("displayName")), "package.json: displayName is missing")
    ok(isinstance(pkg.get("engines"), dict) and bool(pkg["engines"].get("vscode")),
       "package.json: engines.vscode is missing")
    contributes = pkg.get("contributes") or {}
    langs = contributes.get("languages") or []
    grammars = contributes.get("grammars") or []
    tile = [l for l in langs if l.get("id") == "tile"]
    if not ok(len(tile) == 1, "package.json: contributes.languages needs one entry with id 'tile'"):
        return None
    lang = tile[0]
    ok(".tile" in (lang.get("extensions") or []), "package.json: language 'tile' must list extension '.tile'")
    ok(bool(lang.get("aliases")), "package.json: language 'tile' has no aliases")
    conf = lang.get("configuration")
    if ok(bool(conf), "package.json: language 'tile' has no configuration"):
        ok(os.path.isfile(os.path.join(VSCODE, conf)),
           "package.json: configuration %r does not exist" % conf)
    lang_ids = {l.get("id") for l in langs}
    grammar_path = None
    if not ok(len(grammars) >= 1, "package.json: contributes.grammars is empty"):
        return None
    for g in grammars:
        path = g.get("path")
        ok(g.get("language") in lang_ids,
           "package.json: grammar for unknown language %r" % g.get("language"))
        if ok(bool(path) and os.path.isfile(os.path.join(VSCODE, path)),
              "package.json: grammar path %r does not exist" % path):
            if g.get("scopeName") == "source.tile":
                grammar_path = os.path.normpath(os.path.join(VSCODE, path))
    ok(grammar_path is not None, "package.json: no grammar with scopeName 'source.tile'")
    return grammar_path


def check_language_configuration(docs):
    conf = docs.get("language-configuration.json")
    if not ok(isinstance(conf, dict), "language-configuration.json is missing or not an object"):
        return
    ok((conf.get("comments") or {}).get("lineComment") == "#",
       "language-configuration.json: comments.lineComment should be '#'")
    ok((conf.get("folding") or {}).get("offSide") is True,
       "language-configuration.json: folding.offSide should be true")
    brackets = conf.get("brackets") or []
    for pair in (["(", ")"], ["[", "]"], ["{", "}"]):
        ok(pair in brackets, "language-configuration.json: brackets lack %s" % pair)
    opens = {p.get("open") for p in conf.get("autoClosingPairs") or []}
    for ch in "([{\"'":
        ok(ch in opens, "language-configuration.json: autoClosingPairs lack %r" % ch)
    regexes = []
    rules = conf.get("indentationRules") or {}
    ok("increaseIndentPattern" in rules, "language-configuration.json: no increaseIndentPattern")
    regexes += [("indentationRules." + k, v) for k, v in rules.items()]
    for i, r in enumerate(conf.get("onEnterRules") or []):
        for k in ("beforeText", "afterText"):
            if k in r:
                regexes.append(("onEnterRules[%d].%s" % (i, k), r[k]))
    markers = (conf.get("folding") or {}).get("markers") or {}
    regexes += [("folding.markers." + k, v) for k, v in markers.items()]
    if "wordPattern" in conf:
        regexes.append(("wordPattern", conf["wordPattern"]))
    compiled = {}
    for where, rx in regexes:
        try:
            compiled[where] = re.compile(rx)
            ok(True, "")
        except re.error as e:
            fail("language-configuration.json: %s: %s" % (where, e))
    inc = compiled.get("indentationRules.increaseIndentPattern")
    if inc:
        ok(bool(inc.search("    for k in range(0, K, BLOCK):")),
           "language-configuration.json: increaseIndentPattern misses 'for ...:'")
        ok(not inc.search("    x = tl.load(p)"),
           "language-configuration.json: increaseIndentPattern matches a plain statement")


# --------------------------------------------------------------------------
# The grammar's regexes
# --------------------------------------------------------------------------

# Escapes that mean something else (or nothing) in Python's re: \h is a hex
# digit in Oniguruma, \G/\K/\R/\X/\p{..}/\k<..>/\z exist only there.
NOT_PORTABLE_ESCAPES = set("hHGKRXpPkzyYO")


def portability_problems(rx):
    """Returns Oniguruma-only constructs in rx (an empty list if none)."""
    problems = []
    i, in_class = 0, False
    while i < len(rx):
        ch = rx[i]
        if ch == "\\":
            nxt = rx[i + 1] if i + 1 < len(rx) else ""
            if nxt in NOT_PORTABLE_ESCAPES:
                problems.append("\\" + nxt)
            i += 2
            continue
        if in_class:
            if ch == "[" and i + 1 < len(rx) and rx[i + 1] in ":[":
                problems.append("nested or POSIX class '[" + rx[i + 1] + "'")
            if ch == "&" and rx[i + 1:i + 2] == "&":
                problems.append("class intersection '&&'")
            if ch == "]":
                in_class = False
            i += 1
            continue
        if ch == "[":
            in_class = True
            i += 1
            if i < len(rx) and rx[i] == "^":
                i += 1
            if i < len(rx) and rx[i] == "]":  # a ']' first in a class is literal
                i += 1
            continue
        if ch == "(" and rx[i + 1:i + 2] == "?":
            head = rx[i + 2:i + 4]
            if head[:1] == ">":
                problems.append("atomic group '(?>'")
            elif head[:1] == "<" and head[1:2] not in ("=", "!"):
                problems.append("named group '(?<name>' (Python spells it (?P<name>)")
            elif head[:1] in ("~", "@"):
                problems.append("'(?" + head[:1] + "'")
        if ch in "*+?}" and rx[i + 1:i + 2] == "+":
            problems.append("possessive quantifier '" + ch + "+'")
        i += 1
    return problems


def compile_portable(where, rx):
    problems = portability_problems(rx)
    if problems:
        fail("grammar %s: not portable between Oniguruma and Python re: %s in %r"
             % (where, ", ".join(problems), rx))
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            compiled = re.compile(rx)
    except (re.error, FutureWarning, DeprecationWarning) as e:
        fail("grammar %s: invalid regex %r: %s" % (where, rx, e))
        return None
    ok(True, "")
    return compiled


SCOPE_KEYS = ("name", "contentName")


def walk_rules(rule, where, visit):
    """Calls visit(rule, where) for rule and every rule nested in it."""
    if not isinstance(rule, dict):
        fail("grammar %s: a rule must be an object, got %r" % (where, rule))
        return
    visit(rule, where)
    for i, sub in enumerate(rule.get("patterns") or []):
        walk_rules(sub, "%s.patterns[%d]" % (where, i), visit)
    for key in ("captures", "beginCaptures", "endCaptures", "whileCaptures"):
        for idx, sub in (rule.get(key) or {}).items():
            ok(idx.isdigit(), "grammar %s.%s: capture key %r is not a number" % (where, key, idx))
            walk_rules(sub, "%s.%s[%s]" % (where, key, idx), visit)


def check_grammar_static(grammar):
    """Checks regexes, includes and scope names; returns False when a broken
    regex or include keeps the grammar from being run."""
    repo = grammar.get("repository") or {}
    ok(grammar.get("scopeName") == "source.tile", "grammar: scopeName should be 'source.tile'")
    ok(bool(grammar.get("patterns")), "grammar: no top-level patterns")
    used = set()
    bad_regex_before = len(failures)

    def visit(rule, where):
        for key in ("match", "begin", "end", "while"):
            if key in rule:
                compile_portable("%s.%s" % (where, key), rule[key])
        if "begin" in rule:
            ok("end" in rule or "while" in rule, "grammar %s: 'begin' without 'end'" % where)
        if "end" in rule:
            ok("begin" in rule, "grammar %s: 'end' without 'begin'" % where)
        if "match" in rule:
            ok("begin" not in rule, "grammar %s: both 'match' and 'begin'" % where)
        for key in SCOPE_KEYS:
            if key in rule:
                names = rule[key].split()
                ok(all(re.fullmatch(r"[a-z0-9-]+(?:\.[a-z0-9_-]+)*\.tile", n) for n in names),
                   "grammar %s: scope %r should be dotted lowercase words ending in '.tile'"
                   % (where, rule[key]))
        if "include" in rule:
            inc = rule["include"]
            if inc.startswith("#"):
                used.add(inc[1:])
                ok(inc[1:] in repo, "grammar %s: include %r names no repository entry" % (where, inc))
            else:
                ok(inc in ("$self", "$base"),
                   "grammar %s: include %r reaches outside this grammar" % (where, inc))
        keys = set(rule) - {"comment"}
        ok(bool(keys), "grammar %s: empty rule" % where)

    for i, rule in enumerate(grammar.get("patterns") or []):
        walk_rules(rule, "patterns[%d]" % i, visit)
    for name, rule in repo.items():
        walk_rules(rule, "repository.%s" % name, visit)
    runnable = len(failures) == bad_regex_before
    for name in sorted(set(repo) - used):
        fail("grammar: repository entry %r is never included" % name)
    return runnable


# --------------------------------------------------------------------------
# A small TextMate tokenizer
# --------------------------------------------------------------------------

class Rule:
    """One compiled rule: kind is 'match' or 'region' (begin/end)."""

    def __init__(self, raw):
        self.raw = raw
        self.name = raw.get("name")
        self.content_name = raw.get("contentName")
        if "match" in raw:
            self.kind = "match"
            self.regex = re.compile(raw["match"])
            self.captures = raw.get("captures") or {}
        else:
            self.kind = "region"
            self.regex = re.compile(raw["begin"])
            self.end = re.compile(raw["end"])
            self.begin_captures = raw.get("beginCaptures") or raw.get("captures") or {}
            self.end_captures = raw.get("endCaptures") or raw.get("captures") or {}
            self.patterns = raw.get("patterns") or []


class Tokenizer:
    def __init__(self, grammar):
        self.repo = grammar.get("repository") or {}
        self.top = grammar["patterns"]
        self.cache = {}

    def flatten(self, patterns, seen=()):
        """Resolves includes and pattern-only containers into Rules, in order."""
        out = []
        for p in patterns:
            if "include" in p:
                inc = p["include"]
                if inc in ("$self", "$base"):
                    target, key = {"patterns": self.top}, inc
                else:
                    target, key = self.repo[inc[1:]], inc
                if key in seen:
                    continue
                out += self.flatten([target], seen + (key,))
            elif "match" in p or "begin" in p:
                rid = id(p)
                if rid not in self.cache:
                    self.cache[rid] = Rule(p)
                out.append(self.cache[rid])
            elif "patterns" in p:
                out += self.flatten(p["patterns"], seen)
        return out

    @staticmethod
    def _add(scopes, start, end, name):
        if not name:
            return
        for i in range(start, end):
            scopes[i] = scopes[i] + tuple(name.split())

    def _captures(self, text, scopes, m, captures):
        for idx in sorted(captures, key=int):
            g = int(idx)
            if g > (m.re.groups or 0) or m.start(g) < 0 or m.start(g) == m.end(g):
                continue
            cap = captures[idx]
            self._add(scopes, m.start(g), m.end(g), cap.get("name"))
            if cap.get("patterns"):
                self._scan_span(text, scopes, m.start(g), m.end(g), self.flatten(cap["patterns"]))

    def _scan_span(self, text, scopes, start, end, rules):
        """Runs match rules over text[start:end] (the patterns of a capture)."""
        pos = start
        while pos < end:
            best = None
            for r in rules:
                if r.kind != "match":
                    continue
                m = r.regex.search(text, pos, end)
                if m and (best is None or m.start() < best[1].start()):
                    best = (r, m)
            if best is None:
                return
            r, m = best
            self._add(scopes, m.start(), m.end(), r.name)
            self._captures(text, scopes, m, r.captures)
            pos = m.end() if m.end() > pos else pos + 1

    def tokenize(self, lines):
        """Returns, for each line, a list of scope tuples, one per character."""
        # A frame: (rule or None, flattened patterns, scopes inside it).
        stack = [(None, self.flatten(self.top), ("source.tile",))]
        result = []
        for line in lines:
            text = line + "\n"  # VS Code matches each line with its newline
            scopes = [()] * len(text)
            pos, guard = 0, set()
            while pos <= len(text):
                rule, rules, inside = stack[-1]
                best = None
                if rule is not None:
                    m = rule.end.search(text, pos)
                    if m:
                        best = ("end", rule, m)
                for r in rules:
                    m = r.regex.search(text, pos)
                    if m and (best is None or m.start() < best[2].start()):
                        best = ("rule", r, m)
                if best is None:
                    for i in range(pos, len(text)):
                        scopes[i] = inside
                    break
                kind, r, m = best
                for i in range(pos, m.start()):
                    scopes[i] = inside
                key = (m.start(), len(stack), id(r), kind)
                if key in guard:  # a zero-width loop: step over one character
                    if pos < len(text):
                        scopes[pos] = inside
                    pos += 1
                    continue
                guard.add(key)
                if kind == "end":
                    outer = inside[:len(inside) - len((r.content_name or "").split())]
                    for i in range(m.start(), m.end()):
                        scopes[i] = outer
                    self._captures(text, scopes, m, r.end_captures)
                    stack.pop()
                    pos = m.end()
                elif r.kind == "match":
                    for i in range(m.start(), m.end()):
                        scopes[i] = inside
                    self._add(scopes, m.start(), m.end(), r.name)
                    self._captures(text, scopes, m, r.captures)
                    if m.end() == m.start():
                        if m.start() < len(text):
                            scopes[m.start()] = inside
                        pos = m.start() + 1
                    else:
                        pos = m.end()
                else:
                    named = inside + tuple((r.name or "").split())
                    for i in range(m.start(), m.end()):
                        scopes[i] = named
                    self._captures(text, scopes, m, r.begin_captures)
                    stack.append((r, self.flatten(r.patterns),
                                  named + tuple((r.content_name or "").split())))
                    pos = m.end()
                if pos >= len(text):
                    break
            result.append(scopes[:len(line)])
        return result


class Tokens:
    """Tokenized lines with assertions by substring."""

    def __init__(self, label, lines, scopes):
        self.label, self.lines, self.scopes = label, lines, scopes

    def find(self, line_needle, needle, nth=1):
        ln, col = locate(self.lines, line_needle, needle, nth)
        return None if ln < 0 else (ln, col)

    def expect(self, line_needle, needle, scope, nth=1, present=True):
        """Every character of the nth `needle` on the first line containing
        `line_needle` has `scope` among its scopes (or none of them has it,
        when present is False)."""
        at = self.find(line_needle, needle, nth)
        if not ok(at is not None, "%s: no line containing %r with %r" % (self.label, line_needle, needle)):
            return
        ln, col = at
        chars = self.scopes[ln][col:col + len(needle)]
        if present:
            good = all(scope in s for s in chars)
        else:
            good = all(scope not in s for s in chars)
        ok(good, "%s line %d: %r in %r should %shave scope %s; it has %s" % (
            self.label, ln + 1, needle, self.lines[ln].strip(),
            "" if present else "not ", scope, " ".join(chars[0]) if chars else "nothing"))


REAL_KERNEL = os.path.join("dsl_examples", "softmax.tile")
REAL_AUTOTUNE = os.path.join("dsl_examples", "matmul_autotune.tile")

SAMPLE = r'''"""Module docstring with an escape\t and
a second line, 'quotes' and # no comment"""
import triton
import triton.language as tl
from triton.language.extra import libdevice

BLOCK: tl.constexpr = 0x1_00
MASK = 0b1010_1010 | 0o17
SCALE = 1_000.5e-3 + .25 + 2e10 + 7.
NAME = "a\tb\"c" + r"\d+\"" + b'\x41' + rb'\n'


@tl.constexpr
def helper(x, y: *fp16, n: i32 = 3, acc: tl.float32 = None, S: constexpr = (16, 32)) -> i32:
    # a device function
    return x ** 2 // y


@triton.heuristics({"EVEN": lambda args: args["n"] % 16 == 0})
@jit
def k(out_ptr: *tl.bfloat16, n: triton.language.int64, EVEN: tl.constexpr):
    global G
    acc = tl.zeros((16,), dtype=triton.language.float32)
    for i in tl.static_range(0, 4):
        if i == 0 and not EVEN or n is None:
            continue
        elif i != 1:
            pass
        else:
            break
    while True:
        acc += libdevice.pow(acc, 2.0)
    v = tl.extra.cuda.libdevice.tanh(acc) @ acc
    tl.store(out_ptr + tl.arange(0, 16), acc.to(tl.float16), mask=n > 0)
    x_fp16 = triton.cdiv(n, 4)
'''


def check_tokens(grammar):
    tok = Tokenizer(grammar)

    def run(label, text):
        lines = text.split("\n")
        try:
            return Tokens(label, lines, tok.tokenize(lines))
        except Exception as e:  # a broken rule must fail the check, not crash it
            fail("%s: tokenizing failed: %s: %s" % (label, type(e).__name__, e))
            return None

    # A real kernel from the repository.
    path = os.path.join(ROOT, REAL_KERNEL)
    with open(path, encoding="utf-8") as fh:
        t = run(REAL_KERNEL, fh.read())
    if t:
        t.expect("# Row softmax", "# Row softmax, one program per row", "comment.line.number-sign.tile")
        t.expect("# Row softmax", "#", "punctuation.definition.comment.tile")
        t.expect("import triton.language as tl", "import", "keyword.control.import.tile")
        t.expect("import triton.language as tl", "as", "keyword.control.import.tile")
        t.expect("@kernel(num_warps=4)", "@", "punctuation.definition.decorator.tile")
        t.expect("@kernel(num_warps=4)", "kernel", "entity.name.function.decorator.tile")
        t.expect("@kernel(num_warps=4)", "num_warps", "variable.parameter.function-call.tile")
        t.expect("@kernel(num_warps=4)", "4", "constant.numeric.integer.decimal.tile")
        t.expect("def softmax_kernel", "def", "storage.type.function.tile")
        t.expect("def softmax_kernel", "softmax_kernel", "entity.name.function.tile")
        t.expect("def softmax_kernel", "output_ptr", "variable.parameter.function.tile")
        t.expect("def softmax_kernel", "*", "storage.modifier.pointer.tile")
        t.expect("def softmax_kernel", "fp32", "support.type.dtype.tile")
        t.expect("def softmax_kernel", "i32", "support.type.dtype.tile")
        # The parameter list goes on over the next lines.
        t.expect("output_row_stride: i32, n_rows", "n_rows", "variable.parameter.function.tile")
        t.expect("output_row_stride: i32, n_rows", "i32", "support.type.dtype.tile", nth=2)
        t.expect("BLOCK_SIZE: tl.constexpr = 1024", "BLOCK_SIZE", "variable.parameter.function.tile")
        t.expect("BLOCK_SIZE: tl.constexpr = 1024", "constexpr", "storage.modifier.constexpr.tile")
        t.expect("BLOCK_SIZE: tl.constexpr = 1024", "1024", "constant.numeric.integer.decimal.tile")
        t.expect("BLOCK_SIZE: tl.constexpr = 1024", "):", "meta.function.tile")
        t.expect("row_idx = tl.program_id(0)", "program_id", "support.function.builtin.tile")
        t.expect("row_idx = tl.program_id(0)", "tl", "support.module.tile")
        t.expect("row_idx = tl.program_id(0)", "tl", "support.function.builtin.tile", present=False)
        t.expect("row_idx = tl.program_id(0)", "0", "constant.numeric.integer.decimal.tile")
        t.expect("row_idx = tl.program_id(0)", "=", "keyword.operator.assignment.tile")
        t.expect("row_idx = tl.program_id(0)", "row_idx", "meta.function.tile", present=False)
        t.expect("other=-float('inf')", "'inf'", "string.quoted.single.tile")
        t.expect("other=-float('inf')", "float", "support.function.builtin.tile")
        t.expect("other=-float('inf')", "-", "keyword.operator.arithmetic.tile")
        t.expect("mask = col_offsets < n_cols", "<", "keyword.operator.comparison.tile")
        t.expect("mask = col_offsets < n_cols", "mask", "keyword.control.flow.tile", present=False)
        t.expect("tl.store(output_ptrs", "store", "support.function.builtin.tile")

    path = os.path.join(ROOT, REAL_AUTOTUNE)
    with open(path, encoding="utf-8") as fh:
        t = run(REAL_AUTOTUNE, fh.read())
    if t:
        t.expect("@triton.autotune(", "triton.autotune", "entity.name.function.decorator.tile")
        t.expect("triton.Config({'BLOCK_SIZE_M': 128", "Config", "support.class.tile")
        t.expect("triton.Config({'BLOCK_SIZE_M': 128", "'BLOCK_SIZE_M'", "string.quoted.single.tile")
        t.expect("@triton.jit", "triton.jit", "entity.name.function.decorator.tile")
        t.expect("a_ptr, b_ptr, c_ptr,", "b_ptr", "variable.parameter.function.tile")
        t.expect("for k in range(0, tl.cdiv", "for", "keyword.control.loop.tile")
        t.expect("for k in range(0, tl.cdiv", "in", "keyword.operator.word.tile")
        t.expect("for k in range(0, tl.cdiv", "range", "support.function.builtin.tile")
        t.expect("accumulator.to(tl.float16)", "float16", "support.type.dtype.tile")
        t.expect("accumulator.to(tl.float16)", "to", "variable.function.method.tile")
        t.expect("other=0.0)", "0.0", "constant.numeric.float.tile")
        t.expect("group_id = pid // num_pid_in_group", "//", "keyword.operator.arithmetic.tile")
        t.expect("a_ptrs += BLOCK_SIZE_K", "+=", "keyword.operator.assignment.augmented.tile")
        t.expect("offs_am[:, None]", "None", "constant.language.tile")

    # The rest of the syntax.
    t = run("sample", SAMPLE)
    if t:
        t.expect('"""Module docstring', '"""Module docstring with an escape', "string.quoted.double.block.tile")
        t.expect('"""Module docstring', "\\t", "constant.character.escape.tile")
        t.expect("a second line", "a second line, 'quotes' and # no comment", "string.quoted.double.block.tile")
        t.expect("a second line", "# no comment", "comment.line.number-sign.tile", present=False)
        t.expect("from triton.language.extra import", "extra", "support.module.tile")
        t.expect("from triton.language.extra import", "from", "keyword.control.import.tile")
        t.expect("BLOCK: tl.constexpr = 0x1_00", "constexpr", "storage.modifier.constexpr.tile")
        t.expect("BLOCK: tl.constexpr = 0x1_00", "0x1_00", "constant.numeric.integer.hexadecimal.tile")
        t.expect("MASK = 0b1010_1010", "0b1010_1010", "constant.numeric.integer.binary.tile")
        t.expect("MASK = 0b1010_1010", "0o17", "constant.numeric.integer.octal.tile")
        t.expect("MASK = 0b1010_1010", "MASK", "variable.other.constant.tile")
        t.expect("MASK = 0b1010_1010", "|", "keyword.operator.bitwise.tile")
        t.expect("SCALE = 1_000.5e-3", "1_000.5e-3", "constant.numeric.float.tile")
        t.expect("SCALE = 1_000.5e-3", ".25", "constant.numeric.float.tile")
        t.expect("SCALE = 1_000.5e-3", "2e10", "constant.numeric.float.tile")
        t.expect("SCALE = 1_000.5e-3", "7.", "constant.numeric.float.tile")
        t.expect('NAME = "a', '"a\\tb\\"c"', "string.quoted.double.tile")
        t.expect('NAME = "a', "\\t", "constant.character.escape.tile")
        t.expect('NAME = "a', '\\"', "constant.character.escape.tile")
        t.expect('NAME = "a', 'r"\\d+\\""', "string.quoted.double.raw.tile")
        t.expect('NAME = "a', "\\d", "constant.character.escape.tile", present=False)
        t.expect('NAME = "a', "r", "storage.type.string.tile")  # the first 'r' is r"..."'s prefix
        t.expect('NAME = "a', "\\x41", "constant.character.escape.tile")
        t.expect('NAME = "a', "rb'\\n'", "string.quoted.single.raw.tile")
        t.expect("@tl.constexpr", "tl.constexpr", "entity.name.function.decorator.tile")
        t.expect("def helper(", "helper", "entity.name.function.tile")
        t.expect("def helper(", "x", "variable.parameter.function.tile")
        t.expect("def helper(", "fp16", "support.type.dtype.tile")
        t.expect("def helper(", "3", "constant.numeric.integer.decimal.tile")
        t.expect("def helper(", "float32", "support.type.dtype.tile")
        t.expect("def helper(", "None", "constant.language.tile")
        t.expect("def helper(", "S", "variable.parameter.function.tile")
        t.expect("def helper(", "16", "constant.numeric.integer.decimal.tile")
        t.expect("def helper(", "->", "punctuation.separator.annotation.result.tile")
        t.expect("def helper(", "i32", "support.type.dtype.tile", nth=2)
        t.expect("    # a device function", "# a device function", "comment.line.number-sign.tile")
        t.expect("return x ** 2 // y", "return", "keyword.control.flow.tile")
        t.expect("return x ** 2 // y", "**", "keyword.operator.arithmetic.tile")
        t.expect("@triton.heuristics(", "triton.heuristics", "entity.name.function.decorator.tile")
        t.expect("@triton.heuristics(", "lambda", "storage.type.function.lambda.tile")
        t.expect("@triton.heuristics(", '"EVEN"', "string.quoted.double.tile")
        t.expect("@triton.heuristics(", "==", "keyword.operator.comparison.tile")
        t.expect("@jit", "jit", "entity.name.function.decorator.tile")
        t.expect("def k(out_ptr", "bfloat16", "support.type.dtype.tile")
        t.expect("def k(out_ptr", "int64", "support.type.dtype.tile")
        t.expect("def k(out_ptr", "EVEN", "variable.parameter.function.tile")
        t.expect("global G", "global", "storage.modifier.global.tile")
        t.expect("acc = tl.zeros((16,)", "dtype", "variable.parameter.function-call.tile")
        t.expect("acc = tl.zeros((16,)", "float32", "support.type.dtype.tile")
        t.expect("acc = tl.zeros((16,)", "zeros", "support.function.builtin.tile")
        t.expect("tl.static_range(0, 4)", "static_range", "support.function.builtin.tile")
        for word, scope in (("if", "keyword.control.conditional.tile"), ("and", "keyword.operator.logical.tile"),
                            ("not", "keyword.operator.logical.tile"), ("or", "keyword.operator.logical.tile"),
                            ("is", "keyword.operator.word.tile"), ("None", "constant.language.tile")):
            t.expect("if i == 0 and not EVEN", word, scope)
        t.expect("continue", "continue", "keyword.control.loop.tile")
        t.expect("elif i != 1", "elif", "keyword.control.conditional.tile")
        t.expect("elif i != 1", "!=", "keyword.operator.comparison.tile")
        t.expect("pass", "pass", "keyword.control.flow.tile")
        t.expect("else:", "else", "keyword.control.conditional.tile")
        t.expect("break", "break", "keyword.control.loop.tile")
        t.expect("while True", "while", "keyword.control.loop.tile")
        t.expect("while True", "True", "constant.language.tile")
        t.expect("libdevice.pow", "pow", "support.function.libdevice.tile")
        t.expect("libdevice.pow", "2.0", "constant.numeric.float.tile")
        t.expect("tl.extra.cuda.libdevice.tanh", "tanh", "support.function.builtin.tile")
        t.expect("tl.extra.cuda.libdevice.tanh", "cuda", "support.module.tile")
        t.expect("tl.extra.cuda.libdevice.tanh", "@", "keyword.operator.arithmetic.tile")
        t.expect("tl.extra.cuda.libdevice.tanh", "@", "punctuation.definition.decorator.tile", present=False)
        t.expect("x_fp16 = triton.cdiv", "x_fp16", "support.type.dtype.tile", present=False)
        t.expect("x_fp16 = triton.cdiv", "cdiv", "support.function.triton.tile")
        t.expect("mask=n > 0", "mask", "variable.parameter.function-call.tile")


# --------------------------------------------------------------------------
# vim
# --------------------------------------------------------------------------

VIM_KEYWORDS = ("def return if elif else for while in break continue pass and or not is "
                "None True False import from as lambda global").split()


def read(path):
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except OSError as e:
        fail("%s: cannot read: %s" % (rel(path), e))
        return ""


def check_vim_static():
    syntax = read(os.path.join(VIM, "syntax", "tile.vim"))
    ftdetect = read(os.path.join(VIM, "ftdetect", "tile.vim"))
    declared = set()
    for line in syntax.splitlines():
        m = re.match(r"\s*syn(?:tax)?\s+keyword\s+(\w+)\s+(.*)", line)
        if m:
            words = [w for w in m.group(2).split() if "=" not in w and w != "contained"]
            declared.update(words)
    for kw in VIM_KEYWORDS:
        ok(kw in declared, "editors/vim/syntax/tile.vim: keyword %r has no 'syntax keyword' definition" % kw)
    ok(re.search(r"^\s*syn(?:tax)?\s+match\s+\w+", syntax, re.M) is not None,
       "editors/vim/syntax/tile.vim: no 'syntax match' rules")
    ok(re.search(r"^\s*syn(?:tax)?\s+region\s+\w+", syntax, re.M) is not None,
       "editors/vim/syntax/tile.vim: no 'syntax region' rules (strings)")
    ok(re.search(r"""let\s+b:current_syntax\s*=\s*["']tile["']""", syntax) is not None,
       "editors/vim/syntax/tile.vim: does not set b:current_syntax to 'tile'")
    for needle in ("constexpr", "fp16", "bfloat16", "tl", "Comment", "String", "Number"):
        ok(needle in syntax, "editors/vim/syntax/tile.vim: never mentions %r" % needle)
    ok(re.search(r"^\s*au(?:tocmd)?!?\s+(?:\S+\s+)?(?:[\w,]*BufRead[\w,]*)\s+\*\.tile\s+"
                 r"(?:setf(?:iletype)?\s+tile|set(?:local)?\s+(?:filetype|ft)=tile)\s*$",
                 ftdetect, re.M) is not None,
       "editors/vim/ftdetect/tile.vim: no autocmd that sets filetype tile for *.tile on BufRead")


def check_vim_live():
    """Opens the real kernel in vim and reads the syntax groups back."""
    vim = shutil.which("vim")
    if not vim:
        print("note: no vim on PATH; skipped the live vim check")
        return
    probes = [  # (line needle, text, nth, expected syntax group)
        ("# Row softmax", "Row", 1, "tileComment"),
        ("import triton.language as tl", "import", 1, "tileInclude"),
        ("@kernel(num_warps=4)", "@", 1, "tileDecorator"),
        ("@kernel(num_warps=4)", "kernel", 1, "tileDecoratorName"),
        ("@kernel(num_warps=4)", "4", 1, "tileNumber"),
        ("def softmax_kernel", "def", 1, "tileDefine"),
        ("def softmax_kernel", "softmax_kernel", 1, "tileFunction"),
        ("def softmax_kernel", "*", 1, "tilePointer"),
        ("def softmax_kernel", "fp32", 1, "tileType"),
        ("def softmax_kernel", "i32", 1, "tileType"),
        ("BLOCK_SIZE: tl.constexpr = 1024", "tl.constexpr", 1, "tileConstexpr"),
        ("BLOCK_SIZE: tl.constexpr = 1024", "1024", 1, "tileNumber"),
        ("row_idx = tl.program_id(0)", "program_id", 1, "tileBuiltinFunc"),
        ("other=-float('inf')", "inf", 1, "tileString"),
        ("other=-float('inf')", "float", 1, "tileBuiltin"),
        ("mask = col_offsets < n_cols", "mask", 1, ""),
    ]
    extra = [
        ("X = 0x1F + 0b101 + 0o17 + 1_000 + 2.5e-3 + .5", [
            ("0x1F", 1, "tileNumber"), ("0b101", 1, "tileNumber"), ("0o17", 1, "tileNumber"),
            ("1_000", 1, "tileNumber"), ("2.5e-3", 1, "tileFloat"), (".5", 1, "tileFloat")]),
        ('S = "a\\tb" + r"\\d" + """x', [("\\t", 1, "tileEscape"), ("\\d", 1, "tileRawString"),
                                         ('"""', 1, "tileQuote")]),
        ('y"""', [("y", 1, "tileString")]),
        ("y = tl.load(p).to(tl.float16) if n is not None else x_fp16", [
            ("float16", 1, "tileDtype"), ("if", 1, "tileConditional"), ("is", 1, "tileOperator"),
            ("not", 1, "tileOperator"), ("None", 1, "tileNone"), ("else", 1, "tileConditional"),
            ("x_fp16", 1, "")]),
        ("for i in range(3): continue", [("for", 1, "tileRepeat"), ("in", 1, "tileOperator"),
                                         ("range", 1, "tileBuiltin"), ("continue", 1, "tileStatement")]),
    ]
    with open(os.path.join(ROOT, REAL_KERNEL), encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    lines += [l for l, _ in extra]
    positions, labels = [], []
    for needle, text, nth, group in probes:
        positions.append(locate(lines, needle, text, nth))
        labels.append((needle, text, group))
    for line_text, checks in extra:
        for text, nth, group in checks:
            positions.append(locate(lines, line_text, text, nth))
            labels.append((line_text, text, group))
    with tempfile.TemporaryDirectory() as tmp:
        sample = os.path.join(tmp, "sample.tile")
        with open(sample, "w", encoding="utf-8") as fh:
            fh.write("\n".join(lines) + "\n")
        out = os.path.join(tmp, "out.txt")
        script = os.path.join(tmp, "probe.vim")
        pos_list = ", ".join("[%d, %d]" % (l + 1, c + 1) for l, c in positions if l >= 0)
        with open(script, "w", encoding="utf-8") as fh:
            fh.write("set nocompatible\n")
            fh.write("let &runtimepath = %s . ',' . &runtimepath\n" % vim_string(VIM))
            fh.write("filetype on\nsyntax on\n")
            fh.write("edit %s\n" % sample.replace(" ", "\\ "))
            fh.write("let s:out = [&filetype]\n")
            fh.write("for [s:l, s:c] in [%s]\n" % pos_list)
            fh.write("  call add(s:out, synIDattr(synID(s:l, s:c, 1), 'name'))\n")
            fh.write("endfor\n")
            fh.write("call writefile(s:out, %s)\n" % vim_string(out))
            fh.write("qall!\n")
        try:
            subprocess.run([vim, "-N", "-u", "NONE", "-i", "NONE", "-n", "-es", "-S", script],
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=60, check=False)
        except subprocess.TimeoutExpired:
            fail("vim: timed out reading the sample")
            return
        if not ok(os.path.isfile(out), "vim: the probe script wrote nothing (vim failed to run it)"):
            return
        with open(out, encoding="utf-8") as fh:
            got = fh.read().split("\n")
    ok(got[0] == "tile", "vim: ftdetect did not set filetype=tile for a .tile file (got %r)" % got[0])
    groups = iter(got[1:])
    for (l, c), (needle, text, group) in zip(positions, labels):
        if l < 0:
            fail("vim: no line containing %r with %r" % (needle, text))
            continue
        actual = next(groups, None)
        ok(actual == group, "vim: %r on line %r should be in syntax group %r, is %r"
           % (text, lines[l].strip(), group or "(none)", actual or "(none)"))


def locate(lines, needle, text, nth):
    """(line, column) of the nth `text` on the first line containing `needle`,
    or (-1, -1). A `text` made of word characters only is found as a whole
    word ('to' is not the 'to' inside 'accumulator')."""
    pattern = re.escape(text)
    if re.fullmatch(r"\w+", text):
        pattern = r"(?<!\w)" + pattern + r"(?!\w)"
    for ln, line in enumerate(lines):
        if needle in line:
            hits = [m.start() for m in re.finditer(pattern, line)]
            if len(hits) >= nth:
                return ln, hits[nth - 1]
    return -1, -1


def vim_string(s):
    return "'" + s.replace("'", "''") + "'"


# --------------------------------------------------------------------------
# .gitattributes
# --------------------------------------------------------------------------

def check_gitattributes():
    text = read(os.path.join(ROOT, ".gitattributes"))
    ok(re.search(r"^\*\.tile\s+(?:\S+\s+)*linguist-language=Python\b", text, re.M) is not None,
       ".gitattributes: no '*.tile linguist-language=Python' line")


def main():
    docs = load_json_files()
    grammar_path = check_package(docs)
    check_language_configuration(docs)
    if grammar_path:
        grammar = docs.get(os.path.relpath(grammar_path, VSCODE))
        if ok(isinstance(grammar, dict), "grammar %s did not parse" % rel(grammar_path)):
            if check_grammar_static(grammar):
                check_tokens(grammar)
    check_vim_static()
    check_vim_live()
    check_gitattributes()
    if failures:
        for f in failures:
            print("FAIL: " + f)
        print("check_editors: %d failure(s), %d check(s) passed" % (len(failures), passed))
        return 1
    print("check_editors: all %d checks passed" % passed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
