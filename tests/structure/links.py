#!/usr/bin/env python3
"""Checks that README.md and docs/**/*.md name only what exists: every relative link (and its
`#anchor`, against the target's headings) and every repository path written in backticks
(`configs/...`, `docs/...`, ...), except git-ignored build outputs and the `src/` paths between
`<!-- paths of another repository -->` and `<!-- paths of this repository -->`. Prints each
broken one and exits 1; run from the repository root. Fast (no build), so .ci/run runs it.
It also checks that README's test command (the set-up line marked `# the tests`) is the one
.ci/run calls."""

import re
import subprocess
import sys
from pathlib import Path

TOP = ("configs/", "docs/", "tests/", "engine/", "tuner/", "reports/", "web/", "src/", ".ci/")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
TICKED = re.compile(r"`([^`\s]+)`")


def anchors(path: Path) -> set:
    """GitHub's anchors of a Markdown file's headings: lower case, punctuation dropped, spaces
    as hyphens."""
    out, fence = set(), False
    for line in path.read_text().splitlines():
        if line.startswith("```"):
            fence = not fence
        if not fence and line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            out.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return out


def ignored(path: str) -> bool:
    """Whether git ignores `path` (a build output such as `web/www/pkg/`)."""
    return subprocess.run(["git", "check-ignore", "-q", path]).returncode == 0


def broken(md: Path) -> list:
    found, fence, foreign = [], False, False
    for number, line in enumerate(md.read_text().splitlines(), 1):
        if "<!-- paths of another repository -->" in line:
            foreign = True
        if "<!-- paths of this repository -->" in line:
            foreign = False
        if line.startswith("```"):
            fence = not fence
            continue
        for target in LINK.findall(line) if not fence else []:
            if re.match(r"^[a-z]+:", target):
                continue
            file, _, anchor = target.partition("#")
            dest = (md.parent / file) if file else md
            if not dest.exists():
                found.append(f"{md}:{number}: link {target}: no {dest}")
            elif anchor and dest.is_file() and anchor not in anchors(dest):
                found.append(f"{md}:{number}: link {target}: no heading #{anchor} in {dest}")
        for ticked in TICKED.findall(line):
            path = ticked.rstrip(".,:;")
            if (foreign and path.startswith("src/")) or not path.startswith(TOP):
                continue
            if any(c in path for c in "*{}<>|$"):
                continue
            if "..." in path or ignored(path):
                continue
            if not Path(path.split("@")[0]).exists():
                found.append(f"{md}:{number}: path `{path}` does not exist")
    return found


def test_command() -> list:
    """README's test command, if .ci/run does not call it as written."""
    marked = [line.split("#")[0].strip() for line in Path("README.md").read_text().splitlines()
              if line.rstrip().endswith("# the tests")]
    if len(marked) != 1:
        return [f"README.md: {len(marked)} lines end with `# the tests`, not 1"]
    calls = [line.strip() for line in Path(".ci/run").read_text().splitlines()]
    if marked[0] not in calls:
        return [f"README.md: the test command `{marked[0]}` is not a line of .ci/run"]
    return []


def main() -> int:
    files = [Path("README.md"), *sorted(Path("docs").rglob("*.md"))]
    problems = [p for md in files for p in broken(md)] + test_command()
    for p in problems:
        print(p)
    print(f"{len(files)} files checked, {len(problems)} broken links or paths")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
