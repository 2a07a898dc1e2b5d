#!/usr/bin/env bash
# The behaviour a refactor must keep (issue 52): a fixed set of small seeded runs, one per game
# and per command, whose outputs are hashed with what depends on the machine or the clock
# removed (summary.json's `run`, timing lines of reports). A refactor leaves the manifest as it is;
# a commit that changes behaviour on purpose rewrites it, so the diff names the outputs it changed.
#
#   tests/behaviour.sh                  print the manifest
#   tests/behaviour.sh --check FILE     exit 1 and show the difference unless it equals FILE
#   tests/behaviour.sh --bless FILE     rewrite FILE
#
# KOOM names the binary (default target/release/koom).
set -euo pipefail

mode=print
case "${1:-}" in
--check | --bless)
    mode=${1#--}
    manifest=${2:?"$1 needs the manifest file"}
    ;;
"") ;;
*)
    echo "usage: $0 [--check FILE | --bless FILE]" >&2
    exit 2
    ;;
esac

koom=${KOOM:-target/release/koom}
koom=$(realpath "$koom")
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/out"
cd "$work/out"

# Runs koom; a verdict (gate 1 and 3, ladder 1) is an outcome, any other failure stops the check.
quietly() {
    local rc=0
    "$koom" "$@" >"$work/log" 2>&1 || rc=$?
    if [ "$rc" != 0 ] && [ "$rc" != 1 ] && [ "$rc" != 3 ]; then
        echo "koom $* exited $rc:" >&2
        tail -5 "$work/log" >&2
        exit 2
    fi
}

# run: one per game, with records and a report.
quietly run --game thud --agents hard,easy --games 2 --seed 3 --threads 2 --out thud --records thud/records.txt
quietly run --game hnefatafl --agents normal,easy --games 6 --seed 4 --threads 2 --out hnefatafl --records hnefatafl/records.txt
quietly run --game ludo --agents hard,normal,easy,easy --games 400 --seed 5 --threads 2 --out ludo --records ludo/records.txt
quietly run --game ludo --agents hard,hard,hard,hard --games 100 --seed 5 --threads 2 --out ludo-mirror
quietly run --game trente-douze --agents hard,normal,easy --games 300 --seed 6 --threads 2 --out trente-douze --records trente-douze/records.txt
for dir in thud hnefatafl ludo ludo-mirror trente-douze; do
    quietly report "$dir"
done
# A tournament, a gate, a ladder, a tune, a fit, an opening suite, perft and the bench signature.
quietly run --game hnefatafl --agents easy,normal,hard --format round-robin --games 4 --seed 7 --threads 2 --out tournament
quietly gate --game ludo --candidate hard --baseline normal --max-games 400 --seed 8 --threads 2 --out gate
quietly ladder --game trente-douze --levels easy,normal,hard --games 200 --seed 9 --threads 2 --out ladder
quietly tune "$root/configs/tune/ludo-hard.toml" --iterations 3 --pairs 4 --threads 2 --out tune
quietly fit --game hnefatafl --level normal --records hnefatafl/records.txt --iterations 20 --out fit/weights.toml
quietly openings --game hnefatafl --plies 2 --count 2 --level easy --seed 10 --threads 2 --out openings.txt
"$koom" perft --game thud --depth 3 >perft.txt 2>&1
"$koom" bench --game ludo --games 200 2>&1 | grep -i signature >bench.txt || true

# Without what depends on the clock or the machine: summary.json's `run`, train/tune timing
# fields, and report lines that give elapsed time or speed.
normalise() {
    case "$1" in
    *.json) python3 -c '
import json, sys
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k not in ("run", "elapsed_s", "games_per_s", "seconds")}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v
print(json.dumps(strip(json.load(open(sys.argv[1]))), sort_keys=True))' "$1" ;;
    *.html | *.md | *.txt | *.csv) grep -Ev '[0-9.]+ (s|ms)\b|games/s|elapsed|seconds' "$1" || true ;;
    *) cat "$1" ;;
    esac
}

find . -type f ! -name '*.svg' ! -name '*.png' ! -name '.koom.lock' ! -name 'checkpoint*' ! -name '*.partial' | LC_ALL=C sort |
    while read -r file; do
        printf '%s  %s\n' "$(normalise "$file" | sha256sum | cut -c1-16)" "${file#./}"
    done >"$work/manifest"

case $mode in
print) cat "$work/manifest" ;;
bless) cp "$work/manifest" "$root/$manifest" ;;
check)
    if ! diff -u "$root/$manifest" "$work/manifest"; then
        echo "behaviour changed: the outputs above differ from $manifest (rewrite it with --bless if that is intended)" >&2
        exit 1
    fi
    echo "behaviour unchanged: $(wc -l <"$work/manifest") outputs equal $manifest"
    ;;
esac
