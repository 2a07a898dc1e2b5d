#!/usr/bin/env bash
# Opens koom reports in headless Chromium and saves screenshots, so that a broken layout is seen
# rather than guessed. Usage: tests/report-screenshot.sh [REPORT_DIR [OUT.png]]
# Without a folder it makes three in a scratch folder and shoots each: a run report (Thud, Hard vs
# Balanced: match headline, sides by name, the game's own tables), a tournament report (a
# Hnefatafl round-robin) and a ladder report (Ludo). It fails when a report shows raw JSON or a
# raw Markdown backtick. Skips, with a clear message and exit 0, where Chromium is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
    echo "SKIPPED: no chromium on this machine (apt-get install chromium)"
    exit 0
fi

shoot() { # REPORT_DIR OUT.png
    if grep -q '<pre>{' "$1/report.html"; then
        echo "FAIL: $1/report.html shows raw JSON" >&2
        exit 1
    fi
    if grep -q '`' "$1/report.html"; then
        echo "FAIL: $1/report.html shows a raw Markdown backtick" >&2
        exit 1
    fi
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1100,3000 \
        --screenshot="$2" "file://$(realpath "$1/report.html")" >/dev/null 2>&1
    test -s "$2"
    echo "screenshot: $2"
}

if [ -n "${1:-}" ]; then
    shoot "$1" "${2:-$1/report.png}"
    exit 0
fi
scratch=$(mktemp -d)
koom() { cargo run -q --release -- "$@"; }
koom run --game thud --agents hard,balanced --games 6 --out "$scratch/run" --quiet
koom run --game hnefatafl --agents easy,normal,hard --format round-robin --games 4 \
    --out "$scratch/tournament" --quiet
koom ladder --game ludo --levels easy,normal,hard --games 200 --out "$scratch/ladder" --quiet
shoot "$scratch/run" "$scratch/run.png"
shoot "$scratch/tournament" "$scratch/tournament.png"
shoot "$scratch/ladder" "$scratch/ladder.png"
