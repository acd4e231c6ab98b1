#!/usr/bin/env python3
"""Collects the fuzzers' seed corpora and dictionaries from examples/ and test/lit/.

usage: collect_corpus.py REPO_ROOT OUT_DIR

Writes OUT_DIR/<target>/ (one seed per file, named after its source) and
OUT_DIR/<target>.dict for the targets of test/fuzz:
  parser     every .py kernel file as it is
  lowering   `KERNEL SIGNATURE` + newline + the file, for each kernel of a .py file that has a
             signature (its RUN line's --kernel/--sig, or its @jit("...") decorator)
  codegen    `ARCH ` + the lowering seed, ARCH from the RUN line's --arch (default sm_90)
  ir_parser  every .kir file
  signature  every signature string of the above
"""
import pathlib
import re
import shlex
import sys

QUOTED_SIGNATURE = r"""jit\(\s*(?:"([^"]*)"|'([^']*)')"""
DECORATED_KERNEL = re.compile(QUOTED_SIGNATURE + r".*\n(?:\s*@.*\n)*\s*def\s+(\w+)")
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*|\[[:, 1]*\]|[-+*/%<>=!&|^~@]{1,3}")


def python_sources(root):
    return sorted((root / "examples").glob("*.py")) + sorted((root / "test" / "lit").rglob("*.py"))


def option_values(run_lines, option):
    values = []
    for line in run_lines:
        words = shlex.split(line, comments=False)
        values += [words[i + 1] for i, word in enumerate(words[:-1]) if word == option]
    return values


def run_lines(text):
    """The commands of the RUN lines, a line ending in a backslash continued by the next, as
    lit joins them."""
    commands, pending = [], ""
    for line in text.splitlines():
        if "RUN:" not in line:
            continue
        part = line.split("RUN:", 1)[1].rstrip()
        if part.endswith("\\"):
            pending += part[:-1] + " "
            continue
        commands.append(pending + part)
        pending = ""
    return commands


def kernels(text):
    """(name, signature) of every kernel the file's RUN lines or decorators give."""
    names, sigs = option_values(run_lines(text), "--kernel"), option_values(run_lines(text), "--sig")
    found = list(zip(names, sigs * len(names) if len(sigs) == 1 else sigs))
    for match in DECORATED_KERNEL.finditer(text):
        found.append((match.group(3), match.group(1) if match.group(1) is not None else match.group(2)))
    return found


def seed_name(root, path):
    return "_".join(path.relative_to(root).with_suffix("").parts)


def write_dictionary(path, seeds):
    words = sorted({word for seed in seeds for word in WORD.findall(seed) if len(word) >= 2})
    escaped = (word.replace("\\", "\\\\").replace('"', '\\"') for word in words)
    path.write_text("".join(f'"{word}"\n' for word in escaped))


def write_target(out, target, seeds):
    folder = out / target
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in seeds.items():
        (folder / name).write_text(text)
    write_dictionary(out / f"{target}.dict", seeds.values())


def main():
    root, out = pathlib.Path(sys.argv[1]).resolve(), pathlib.Path(sys.argv[2])
    corpora = {"parser": {}, "lowering": {}, "codegen": {}, "ir_parser": {}, "signature": {}}
    for path in python_sources(root):
        text = path.read_text()
        name = seed_name(root, path)
        arch = (option_values(run_lines(text), "--arch") + ["sm_90"])[0]
        corpora["parser"][name] = text
        for index, (kernel, sig) in enumerate(kernels(text)):
            corpora["lowering"][f"{name}_{index}"] = f"{kernel} {sig}\n{text}"
            corpora["codegen"][f"{name}_{index}"] = f"{arch} {kernel} {sig}\n{text}"
            corpora["signature"][sig] = sig
    for path in sorted((root / "test" / "lit").rglob("*.kir")):
        corpora["ir_parser"][seed_name(root, path)] = path.read_text()
    corpora["signature"] = {f"sig_{i}": sig for i, sig in enumerate(sorted(corpora["signature"]))}
    for target, seeds in corpora.items():
        write_target(out, target, seeds)
        print(f"{target}: {len(seeds)} seeds")


if __name__ == "__main__":
    main()
