#!/usr/bin/env python3
"""Checks that the docs list the passes tilec really runs, in its order.

The pipeline comes from tilec itself: `--dump-ir-after-all` prints one
"IR Dump After <Class> (<argument>)" header per pass it runs, and
`--emit=tile` and `--emit=tilegpu` stop after the passes before those
stages. Against it:

  docs/ir-dumps.md      the `--dump-ir-after-all` output block (whole list),
                        the counts in "The first N, ... The other M, ..."
                        and the tile-opt commands marked
                        "# = tilec's <stage> stage" (the passes from the stage
                        before to that one);
  docs/architecture.md  the pass names of the pipeline diagram, from the
                        `.tile source` line to the `LLVM + NVVM dialects` line.

Prints one line per check; on a difference, names the page, what it lists,
what tilec runs and where they part, and exits with status 1.
"""
import argparse
import difflib
import re
import subprocess
import sys

HEADER = re.compile(r"IR Dump After (\S+) \(([^)\s]+)\)")
NUMBERS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve "
    "thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty".split())}

failures = []


def report(failure):
    """Prints a difference where it is found (stdout for FileCheck, stderr for lit)."""
    failures.append(failure)
    print(failure)
    print(failure, file=sys.stderr)


def fail(page, what, documented, actual):
    lines = [f"FAIL: {page}: {what} differs from the pipeline tilec runs"]
    for i, (d, a) in enumerate(zip(documented, actual)):
        if d != a:
            lines.append(f"  first difference at pass {i + 1}: the page says "
                         f"'{d}', tilec runs '{a}'")
            break
    else:
        if len(documented) < len(actual):
            lines.append(f"  the page stops after {len(documented)} passes; tilec "
                         f"goes on with: {', '.join(actual[len(documented):])}")
        elif len(documented) > len(actual):
            lines.append(f"  tilec runs {len(actual)} passes; the page goes on with: "
                         f"{', '.join(documented[len(actual):])}")
    lines.append("  diff (- page, + tilec):")
    lines += ["    " + l for l in difflib.unified_diff(
        documented, actual, "page", "tilec", lineterm="", n=2)][2:]
    report("\n".join(lines))


def check(page, what, documented, actual):
    if documented == actual:
        print(f"ok: {page}: {what} ({len(actual)} passes)")
    else:
        fail(page, what, documented, actual)


def passes_of(tilec, kernel, emit, allow_none=False):
    """(Class, argument) of every pass up to stage `emit`, from tilec
    --dump-ir-after-all."""
    run = subprocess.run([tilec, kernel, f"--emit={emit}", "-o", "-",
                          "--dump-ir-after-all"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if run.returncode != 0:
        sys.exit(f"FAIL: {tilec} {kernel} --emit={emit} failed:\n{run.stderr[-2000:]}")
    found = HEADER.findall(run.stderr)
    if not found and not allow_none:
        sys.exit(f"FAIL: {tilec} --dump-ir-after-all printed no 'IR Dump After' header")
    return found


def fenced_blocks(text):
    """The fenced code blocks of a markdown page, as lists of lines."""
    blocks, current = [], None
    for line in text.splitlines():
        if line.startswith("```"):
            if current is None:
                current = []
            else:
                blocks.append(current)
                current = None
        elif current is not None:
            current.append(line)
    return blocks


def check_ir_dumps(path, pipeline, before_tile, first):
    text = open(path, encoding="utf-8").read()
    page = "docs/ir-dumps.md"
    dumps = [b for b in fenced_blocks(text)
             if b and b[0].startswith("$ tilec") and "--dump-ir-after-all" in b[0]]
    if len(dumps) != 1:
        report(f"FAIL: {page}: expected one code block starting with "
               f"'$ tilec ... --dump-ir-after-all', found {len(dumps)}")
    else:
        listed = [f"{c} ({a})" for c, a in HEADER.findall("\n".join(dumps[0]))]
        check(page, "the --dump-ir-after-all list",
              listed, [f"{c} ({a})" for c, a in pipeline])

    # "The first fourteen, ... The other seven, ..."
    counts = re.search(r"The first (\w+),.*?The other (\w+),", text, re.S)
    if not counts:
        report(f"FAIL: {page}: no sentence 'The first N, ... The other M,' "
               "saying where --emit=tilegpu stops")
    else:
        said = [NUMBERS.get(w.lower(), w) for w in counts.groups()]
        actual = [first, len(pipeline) - first]
        if said == actual:
            print(f"ok: {page}: {actual[0]} passes before the tilegpu stage, "
                  f"{actual[1]} after")
        else:
            report(f"FAIL: {page}: says the first {counts.group(1)} passes make "
                   f"the tilegpu stage and the other {counts.group(2)} the "
                   f"LLVM dialect stage; tilec runs {actual[0]} and "
                   f"{actual[1]}")

    # tile-opt commands that claim to reproduce a stage.
    args = [a for _, a in pipeline]
    stages = {"tile": args[:before_tile], "tilegpu": args[before_tile:first],
              "llvm-mlir": args[first:]}
    for block in fenced_blocks(text):
        command = ""
        for line in block:
            command += line.rstrip().rstrip("\\") + " "
            if line.rstrip().endswith("\\"):
                continue
            marker = re.search(r"# = tilec's (\S+) stage", command)
            if marker:
                flags = command[:marker.start()].replace('"', " ").split()
                listed = [f.lstrip("-").split("=")[0] for f in flags[2:]
                          if f.startswith("-") and f != "-o"]
                stage = marker.group(1)
                if stage not in stages:
                    report(f"FAIL: {page}: a tile-opt command claims tilec's "
                           f"'{stage}' stage, which is not a pipeline's end")
                else:
                    check(page, f"the tile-opt command for tilec's {stage} stage",
                          listed, stages[stage])
            command = ""


def check_architecture(path, pipeline):
    page = "docs/architecture.md"
    lines = open(path, encoding="utf-8").read().splitlines()
    try:
        start = next(i for i, l in enumerate(lines) if l.startswith(".tile source"))
        end = next(i for i, l in enumerate(lines)
                   if i > start and l.startswith("LLVM + NVVM dialects"))
    except StopIteration:
        report(f"FAIL: {page}: no pipeline diagram from a '.tile source' line "
               "to an 'LLVM + NVVM dialects' line")
        return
    # Each step is "  │  name, name (note)   what it does"; the frontend's
    # steps name files (MLIRGen.cpp), not passes.
    listed = []
    for line in lines[start + 1:end]:
        step = re.match(r"\s*│\s+(.*)", line)
        if not step:
            continue
        names = re.split(r"\s{2,}", step.group(1).strip())[0]
        names = re.sub(r"\s*\([^)]*\)", "", names)
        listed += [n.strip() for n in names.split(",")
                   if re.fullmatch(r"[a-z][a-z0-9-]*", n.strip())]
    check(page, "the pipeline diagram", listed, [a for _, a in pipeline])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tilec", default="tilec")
    parser.add_argument("--kernel", required=True, help="any .tile file that compiles")
    parser.add_argument("--docs", required=True, help="the docs/ directory")
    options = parser.parse_args()

    pipeline = passes_of(options.tilec, options.kernel, "llvm-mlir")
    tile = passes_of(options.tilec, options.kernel, "tile", allow_none=True)
    tilegpu = passes_of(options.tilec, options.kernel, "tilegpu")
    if pipeline[:len(tilegpu)] != tilegpu or tilegpu[:len(tile)] != tile:
        sys.exit("FAIL: the passes before --emit=tile and --emit=tilegpu are not the "
                 "start of the whole pipeline")
    check_ir_dumps(f"{options.docs}/ir-dumps.md", pipeline, len(tile), len(tilegpu))
    check_architecture(f"{options.docs}/architecture.md", pipeline)
    print(f"{len(failures)} differences")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
