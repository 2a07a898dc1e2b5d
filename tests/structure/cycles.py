#!/usr/bin/env python3
"""Import cycles between the source files of each crate (issue 52), for CI and refactors.

A file imports another when it names a path into it (`use crate::a::b`, `crate::a::b::f()`,
`super::x`, `self::x`); the path is resolved to the deepest module file that exists. Tests
(`tests/` folders, `tests.rs`, `#[cfg(test)]` blocks) are left out: a test may use anything.
Prints each cycle; exits 1 when there is one, so that CI keeps the module graph acyclic.
"""

import re
import sys
from pathlib import Path

CRATES = ["engine/src", "tuner/src", "reports/src", "web/src", "src"]
PATH = re.compile(r"(?<![$\w])(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)+|::\{)")


def module_of(root: Path, file: Path) -> list[str]:
    parts = list(file.relative_to(root).with_suffix("").parts)
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return parts


def file_of(root: Path, module: list[str]) -> Path | None:
    """The deepest existing file of `module` or of one of its parents."""
    for n in range(len(module), -1, -1):
        head = module[:n]
        for candidate in (root.joinpath(*head).with_suffix(".rs") if head else None,
                          root.joinpath(*head, "mod.rs")):
            if candidate is not None and candidate.is_file():
                return candidate
        if n == 0:
            for top in ("lib.rs", "main.rs"):
                if (root / top).is_file():
                    return root / top
    return None


def without_tests(text: str) -> str:
    """The text less `#[cfg(test)]` items (the attribute and the braced block after it)."""
    out, i = [], 0
    while True:
        j = text.find("#[cfg(test)]", i)
        if j < 0:
            out.append(text[i:])
            return "".join(out)
        out.append(text[i:j])
        k = text.find("{", j)
        semi = text.find(";", j)
        if k < 0 or (0 <= semi < k):
            i = semi + 1
            continue
        depth = 0
        for m in range(k, len(text)):
            depth += {"{": 1, "}": -1}.get(text[m], 0)
            if depth == 0:
                i = m + 1
                break
        else:
            return "".join(out)


def use_paths(text: str):
    """Every `crate::…`, `super::…` and `self::…` path, with `use` groups expanded one level."""
    for match in re.finditer(r"\buse\s+((?:crate|super|self)::[^;]*);", text, re.S):
        body = re.sub(r"\s+", "", match.group(1))
        group = re.match(r"^(.*?)::\{(.*)\}$", body)
        if group:
            head, items = group.groups()
            depth, item = 0, ""
            for ch in items + ",":
                if ch == "," and depth == 0:
                    if item:
                        yield f"{head}::{item.split('::{')[0]}"
                    item = ""
                    continue
                depth += {"{": 1, "}": -1}.get(ch, 0)
                item += ch
        else:
            yield body
    for match in PATH.finditer(re.sub(r"\buse\s+[^;]*;", "", text, flags=re.S)):
        yield match.group(1) + match.group(2).rstrip("{").rstrip(":")


def edges(root: Path):
    graph: dict[Path, set[Path]] = {}
    for file in sorted(root.rglob("*.rs")):
        rel = file.relative_to(root).parts
        if "tests" in rel or file.name == "tests.rs":
            continue
        here = module_of(root, file)
        text = without_tests(re.sub(r"//[^\n]*", "", file.read_text()))
        targets = graph.setdefault(file, set())
        for path in use_paths(text):
            words = [w for w in path.split("::") if w]
            base = {"crate": [], "self": here, "super": here[:-1]}[words[0]]
            words = words[1:]
            while words and words[0] == "super":
                base, words = base[:-1], words[1:]
            target = file_of(root, base + words)
            if target is not None and target != file and "tests" not in target.relative_to(root).parts:
                targets.add(target)
    return graph


def cycles(graph):
    """Tarjan's strongly connected components of more than one file."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def main() -> int:
    found = 0
    for crate in CRATES:
        root = Path(crate)
        if not root.is_dir():
            continue
        for component in cycles(edges(root)):
            found += 1
            print(f"cycle in {crate}: " + " <-> ".join(str(p.relative_to(root)) for p in component))
    print(f"{found} import cycle(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
