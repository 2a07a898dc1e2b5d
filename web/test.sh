#!/usr/bin/env bash
# The browser package tested in a real browser (headless Chromium):
#   1. wasm-bindgen-test tests of the JavaScript API (web/tests/browser.rs);
#   2. the page end to end (web/e2e.py): a full game of each game through the page's controls,
#      the same moves as `koom play`, bad input, no console error; screenshots and timings in
#      web/test-output/.
# Installs what it needs on a fresh machine: Debian's chromium and chromium-driver (apt), the
# wasm32 target (rustup) and wasm-bindgen-cli (cargo install, at the Cargo.lock version). Skips,
# saying why, only when the browser cannot be installed. WEB_MEASURE=0 skips the timing run;
# WEB_MEASURE_MOVES=N times N Expert moves per game (default 16).
set -euo pipefail
cd "$(dirname "$0")/.."
. web/tools.sh

# Debian packages: the browser, its WebDriver, and Python for the page test's driver.
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
if [ ${#missing[@]} -gt 0 ]; then
    echo "== installing ${missing[*]}"
    if ! command -v apt-get >/dev/null 2>&1 ||
        ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } >/dev/null; then
        echo "SKIPPED: web/test.sh needs ${missing[*]}, which apt-get could not install here"
        exit 0
    fi
fi
export CHROMEDRIVER="${CHROMEDRIVER:-$(command -v chromedriver)}"

echo "== build (web/build.sh)"
web/build.sh

echo "== wasm-bindgen-test in headless Chromium"
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
    cargo test -p web --target wasm32-unknown-unknown --release

echo "== the page in headless Chromium"
cargo build --release -p koom --bin koom
cargo build --release -p web --example movetime
python3 web/e2e.py
