#!/usr/bin/env python3
"""Compiles the kernels of a Markdown page so that its examples cannot rot.

A ```python block is a complete kernel when one of its lines starts with a
decorator (`@kernel`, `@jit`, `@triton.jit`, ...). Every complete kernel is
written to a file and compiled with `tilec --emit=tile` and `tilec --emit=ptx`
(then, with --ptxas, assembled for sm_80 and sm_90). An HTML comment on the
line right before the block changes what is checked:

  <!-- check: tile -->            only `--emit=tile` must succeed
  <!-- check: sm90 -->            compiled and assembled for sm_90 only (fp8 needs
                                  sm_89 or newer)
  <!-- check: output -->          compiles to PTX as usual, and the next ```
                                  block lists lines (notes) that tilec prints
  <!-- check: error -->           compilation must fail; the next ``` block
                                  is the expected output: each of its lines
                                  (except a leading `$ tilec ...` line) must
                                  appear, in order, in tilec's stderr. The
                                  file is named after the `NAME.tile:` that
                                  starts the first diagnostic line.
  <!-- check: ... -D X=1 -->      extra tilec arguments (any marker may add them)

Blocks without a decorator are fragments and are not compiled. Prints one
line per block and exits non-zero if any check failed.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys

FENCE = re.compile(r"^```(\w*)\s*$")
MARKER = re.compile(r"^<!--\s*check:\s*(.*?)\s*-->\s*$")
DECORATOR = re.compile(r"^@(kernel|jit|triton\.jit|tl\.jit|tilec\.kernel)\b")
DIAG_FILE = re.compile(r"^([\w.-]+\.tile):\d+:\d+: ")


class Block:
    def __init__(self, line, lang, text, marker):
        self.line = line      # 1-based line of the opening fence
        self.lang = lang
        self.text = text
        self.marker = marker  # text of a check marker right before, or None


def read_blocks(path):
    blocks = []
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        start = i
        body = []
        i += 1
        while i < len(lines) and not lines[i].startswith("```"):
            body.append(lines[i])
            i += 1
        previous = lines[start - 1] if start > 0 else ""
        marker = MARKER.match(previous)
        blocks.append(Block(start + 1, match.group(1), "\n".join(body) + "\n",
                            marker.group(1) if marker else None))
        i += 1
    return blocks


def run(command, cwd):
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True,
                            timeout=120)
    return result.returncode, result.stdout + result.stderr


def expected_lines(output_block):
    lines = [l.rstrip() for l in output_block.text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    if lines and lines[0].startswith("$ "):
        lines = lines[1:]
    return lines


def contains_in_order(actual, expected):
    actual_lines = [l.rstrip() for l in actual.split("\n")]
    pos = 0
    for want in expected:
        while pos < len(actual_lines) and actual_lines[pos] != want:
            pos += 1
        if pos == len(actual_lines):
            return want
        pos += 1
    return None


def parse_marker(marker):
    """Returns (mode, extra tilec arguments) of a check marker."""
    words = shlex.split(marker or "")
    if words and words[0] in ("tile", "error", "output", "sm90"):
        return words[0], words[1:]
    return "ptx", words


def check_block(index, block, blocks, args):
    """Returns an error message, or None when the block passed."""
    mode, extra = parse_marker(block.marker)
    name = "example%d.tile" % block.line
    expected = None
    if mode in ("error", "output"):
        following = [b for b in blocks[index + 1:] if b.lang in ("", "text")]
        if not following:
            return "this example needs a ``` block with the expected output"
        expected = expected_lines(following[0])
        for line in expected:
            match = DIAG_FILE.match(line)
            if match:
                name = match.group(1)
                break
    directory = os.path.join(args.out, "line%d" % block.line)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name), "w", encoding="utf-8") as f:
        f.write(block.text)

    if mode == "error":
        code, output = run([args.tilec, name, "--emit=tile"] + extra, directory)
        if code == 0:
            code, output = run([args.tilec, name, "--emit=ptx", "-o", "k.ptx"] + extra,
                               directory)
        if code == 0:
            return "expected tilec to fail, but it succeeded"
        missing = contains_in_order(output, expected)
        if missing is not None:
            return "expected output line not found: %r\ntilec printed:\n%s" % (
                missing, output)
        return None

    code, output = run([args.tilec, name, "--emit=tile", "-o", "k.mlir"] + extra,
                       directory)
    if code != 0:
        return "tilec --emit=tile failed:\n" + output
    if mode == "tile":
        return None
    for arch in ("sm_90",) if mode == "sm90" else ("sm_80", "sm_90"):
        ptx = "k_%s.ptx" % arch
        code, output = run([args.tilec, name, "--arch", arch, "-o", ptx] + extra,
                           directory)
        if code != 0:
            return "tilec --arch %s failed:\n%s" % (arch, output)
        missing = contains_in_order(output, expected) if expected else None
        if missing is not None:
            return "expected output line not found: %r\ntilec printed:\n%s" % (
                missing, output)
        if args.ptxas:
            code, output = run([args.ptxas, "-arch=" + arch, ptx, "-o", "k.cubin"],
                               directory)
            if code != 0:
                return "ptxas -arch=%s rejected the PTX:\n%s" % (arch, output)
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("doc", help="the Markdown page")
    parser.add_argument("--tilec", default="tilec")
    parser.add_argument("--ptxas", default="", help="also assemble the PTX")
    parser.add_argument("--out", required=True, help="scratch directory")
    args = parser.parse_args()
    # Examples run in their own directories: make tool paths absolute.
    for tool in ("tilec", "ptxas"):
        path = getattr(args, tool)
        if os.sep in path:
            setattr(args, tool, os.path.abspath(path))

    blocks = read_blocks(args.doc)
    failures = 0
    checked = 0
    for index, block in enumerate(blocks):
        if block.lang != "python":
            continue
        if not any(DECORATOR.match(l) for l in block.text.split("\n")):
            if block.marker is not None:
                print("FAIL line %d: a check marker on a block without a kernel"
                      % block.line)
                failures += 1
            continue
        checked += 1
        error = check_block(index, block, blocks, args)
        mode = parse_marker(block.marker)[0]
        if error:
            failures += 1
            print("FAIL line %d (%s): %s" % (block.line, mode, error))
        else:
            print("ok   line %d (%s)" % (block.line, mode))
    print("%d kernels checked, %d failed" % (checked, failures))
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
