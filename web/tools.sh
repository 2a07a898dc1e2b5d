# Shared by build.sh and test.sh (sourced): the tools the browser package needs, installed
# through the package registries only (rustup, crates.io, Debian's apt).

# The wasm-bindgen version in Cargo.lock: wasm-bindgen-cli must match it exactly.
wasm_bindgen_version() {
    awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock
}

ensure_wasm_target() {
    rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown ||
        rustup target add wasm32-unknown-unknown
}

# Installs wasm-bindgen-cli (with its test runner) at the Cargo.lock version when it is missing
# or another version. `--locked` first; a registry mirror that lacks one of the CLI's own locked
# dependencies falls back to the newest compatible ones.
ensure_wasm_bindgen() {
    local want have
    want=$(wasm_bindgen_version)
    have=$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }') || true
    if [ "$have" != "$want" ]; then
        echo "installing wasm-bindgen-cli $want (found: ${have:-none})"
        cargo install wasm-bindgen-cli --version "$want" --locked ||
            cargo install wasm-bindgen-cli --version "$want"
    fi
}
