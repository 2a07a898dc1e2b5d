#!/bin/sh
# A wrapper that runs its engine without `exec` and leaves a helper running beside it, as a
# launcher or a logger would; each helper's pid is added to the file named first. koom must end
# both when it stops the engine.
helpers="$1"
shift
sleep 300 &
echo $! >> "$helpers"
"$@"
