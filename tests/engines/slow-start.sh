#!/bin/sh
# Runs its arguments as an engine after a pause longer than koom's 1 s margin, as a program
# that loads a large network would.
sleep 1.5
exec "$@"
