#!/usr/bin/env bash
# Builds the browser package into web/www/pkg/: web.wasm, its JavaScript glue (an ES module) and
# the TypeScript types web.d.ts. Installs the wasm32 target and wasm-bindgen-cli (at the version
# in Cargo.lock) when they are missing. Serve the page with
#   python3 -m http.server 8000 --bind 127.0.0.1 --directory web/www
set -euo pipefail
cd "$(dirname "$0")/.."
. web/tools.sh
ensure_wasm_target
ensure_wasm_bindgen
cargo build -p web --target wasm32-unknown-unknown --release
rm -rf web/www/pkg
wasm-bindgen --target web --out-dir web/www/pkg target/wasm32-unknown-unknown/release/web.wasm
echo "built web/www/pkg ($(wc -c <web/www/pkg/web_bg.wasm) bytes of wasm, $(gzip -9c web/www/pkg/web_bg.wasm | wc -c) gzipped)"
