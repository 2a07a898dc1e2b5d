#!/usr/bin/env python3
"""The structure figures issue 52 asks for, before and after a change: the items of `Game`,
tuner's public items, `Result<_, String>` signatures, the longest file and function outside
search and move generation, and README lines. Run from the repository root."""

import re
from pathlib import Path

SOURCES = [p for c in ("engine/src", "tuner/src", "reports/src", "web/src", "src")
           for p in Path(c).rglob("*.rs") if "tests" not in p.parts and p.name != "tests.rs"]
# Search and move generation are long on purpose (one hot loop each).
HOT = ("search/alphabeta.rs", "/moves.rs", "/legality.rs")


def trait_items(path: str, name: str) -> int:
    """The items of trait `name` in `path`."""
    text = Path(path).read_text()
    start = re.search(rf"pub trait {name}\b", text).start()
    body, depth = text[text.index("{", start):], 0
    for i, ch in enumerate(body):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth == 0:
            body = body[:i]
            break
    # Items at the trait's top level: `type`, `const` and `fn` lines indented by four spaces.
    return len(re.findall(r"^    (?:type|const|fn) ", body, re.M))


def game_items() -> int:
    """The items of the rules trait (`Game` itself until issue 52 split it into rooms)."""
    if Path("engine/src/game.rs").is_file():
        return trait_items("engine/src/game.rs", "Game")
    return trait_items("engine/src/game/rules.rs", "Rules")


def tuner_pub_items() -> int:
    count = 0
    for path in Path("tuner/src").rglob("*.rs"):
        if "tests" in path.parts or path.name.endswith("tests.rs"):
            continue
        count += len(re.findall(r"^\s*pub (?:fn|struct|enum|trait|type|const|static|mod|use) ",
                                path.read_text(), re.M))
    return count


def string_results() -> int:
    return sum(len(re.findall(r"->\s*Result<[^;{]*,\s*String>", p.read_text())) for p in SOURCES)


def longest_function():
    best = (0, "")
    for path in SOURCES:
        if any(h in str(path) for h in HOT):
            continue
        lines = path.read_text().splitlines()
        for i, line in enumerate(lines):
            m = re.match(r"^(\s*)(?:pub(?:\([^)]*\))? )?(?:const )?fn (\w+)", line)
            if not m or line.rstrip().endswith(";"):
                continue
            indent = m.group(1)
            for j in range(i + 1, len(lines)):
                if lines[j] == indent + "}":
                    best = max(best, (j - i + 1, f"{path}:{i + 1} {m.group(2)}"))
                    break
    return best


def main():
    longest_file = max((len(p.read_text().splitlines()), str(p)) for p in SOURCES
                       if not any(h in str(p) for h in HOT))
    rows = [
        ("rules trait items (`Game` before the split)", game_items()),
        ("tuner `pub` items", tuner_pub_items()),
        ("`Result<_, String>` signatures", string_results()),
        ("longest file (outside search and move generation)", f"{longest_file[1]} ({longest_file[0]} lines)"),
        ("longest function (same)", "{1} ({0} lines)".format(*longest_function())),
        ("README lines", len(Path("README.md").read_text().splitlines())),
    ]
    for name, value in rows:
        print(f"| {name} | {value} |")


if __name__ == "__main__":
    main()
