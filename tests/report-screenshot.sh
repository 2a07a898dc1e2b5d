#!/usr/bin/env bash
# Opens a koom report in headless Chromium and saves a screenshot, so that a broken layout is
# seen rather than guessed. Usage: tests/report-screenshot.sh [REPORT_DIR] [OUT.png]
# Without a folder it makes one (a small Ludo round-robin). Skips, with a clear message and
# exit 0, where Chromium is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
    echo "SKIPPED: no chromium on this machine (apt-get install chromium)"
    exit 0
fi
dir=${1:-}
if [ -z "$dir" ]; then
    dir=$(mktemp -d)/report
    cfg=$(mktemp --suffix=.toml)
    printf 'format = "round-robin"\nagents = ["easy", "normal", "hard"]\ngames = 400\n' > "$cfg"
    cargo run -q --release -- run "$cfg" --out "$dir" --quiet
fi
shot=${2:-$dir/report.png}
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1100,2600 \
    --screenshot="$shot" "file://$(realpath "$dir/report.html")" >/dev/null 2>&1
test -s "$shot"
echo "screenshot: $shot"
