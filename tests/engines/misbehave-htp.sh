#!/bin/sh
# A test engine that speaks the Hnefatafl Text Protocol (answers `name`, `play`, `reset_board`)
# and misbehaves at the first `generate_move`, as named by its argument: crash (exits), hang
# (never answers), illegal (a move that is not legal), garbage (a diagnostic line, then an answer
# that is not a move), resign (gives the game up: `play ROLE resigns`).
mode="$1"
while read -r command role rest; do
  case "$command" in
    name) printf '= misbehave-%s\n\n' "$mode" ;;
    quit) printf '=\n\n'; exit 0 ;;
    generate_move)
      case "$mode" in
        crash) exit 3 ;;
        hang) sleep 30 ;;
        illegal) printf '= play %s z99 z98\n\n' "$role" ;;
        garbage) printf 'thinking...\n= I resign, good game\n\n' ;;
        resign) printf '= play %s resigns\n\n' "$role" ;;
      esac ;;
    *) printf '=\n\n' ;;
  esac
done
