#!/bin/sh
# A test engine that answers koom's engine protocol handshake and then misbehaves at the first
# `go`, as named by its argument: crash (exits), hang (never answers), illegal (a move that is
# not legal), garbage (a line that is not protocol), badbytes (a move that is not UTF-8),
# longline (a line past the protocol's 64 KiB cap).
mode="$1"
while read -r line; do
  case "$line" in
    koom-protocol) echo "id name misbehave-$mode"; echo "koom-protocol-ok" ;;
    isready) echo "readyok" ;;
    quit) exit 0 ;;
    go*)
      case "$mode" in
        crash) exit 3 ;;
        hang) sleep 30 ;;
        illegal) echo "bestmove Z99-Z98" ;;
        garbage) echo "I resign, good game" ;;
        badbytes) printf 'bestmove \377\376\n' ;;
        longline) printf 'bestmove '; head -c 70000 /dev/zero | tr '\0' x; echo ;;
      esac ;;
  esac
done
