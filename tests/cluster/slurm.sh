#!/usr/bin/env bash
# The cluster recipes of docs/clusters.md on a real scheduler: a single-node Slurm (slurm-wlm and
# munge from the distribution, munged, slurmctld and slurmd on localhost with a generated
# slurm.conf) runs configs/cluster/shards.sbatch and the dependent merge job for a small Thud and
# a small Ludo experiment. One Thud task is stopped with SIGTERM (exit 143, its checkpoint
# written), requeued, and resumes; a finished Ludo task is requeued and keeps its shard. Then
# the GNU parallel recipes run the same experiments, locally and over ssh (to an sshd of its own
# on localhost). Every merged summary.json, less `run`, must equal the unsharded run's.
#
# Installs the packages with apt-get when missing; prints SKIPPED and exits 0 where they cannot
# be installed or the daemons cannot start. Stops the daemons it started, by PID.
# KOOM: the koom binary (default: target/release/koom, built when missing).
# KEEP=1 keeps the scratch folder; it is kept anyway when a check fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
began=$(date +%s)

skip() {
    echo "SKIPPED: $*"
    exit 0
}
fail() {
    echo "FAILED: $*" >&2
    exit 1
}
step() { echo "== $* ($(($(date +%s) - began)) s)"; }

# --- packages -------------------------------------------------------------------------------
tools=(munged slurmctld slurmd sbatch scontrol scancel parallel python3 sshd ssh ssh-keygen rsync)
absent=()
for tool in "${tools[@]}"; do command -v "$tool" >/dev/null || absent+=("$tool"); done
if [ ${#absent[@]} -gt 0 ]; then
    [ "$(id -u)" = 0 ] || skip "missing ${absent[*]}, and installing them needs root"
    command -v apt-get >/dev/null || skip "missing ${absent[*]}, and there is no apt-get"
    step "installing munge, slurm-wlm's daemons and client, GNU parallel, python3, ssh, rsync"
    apt_log=$(mktemp /tmp/koom-slurm-apt.XXXXXX)
    # The packages' own services (munge, slurmd, ssh) are not started: this test starts its
    # own daemons. policy-rc.d is how Debian says so; one already there is left alone.
    policy=
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        policy=/usr/sbin/policy-rc.d
        printf '#!/bin/sh\nexit 101\n' >"$policy"
        chmod 755 "$policy"
    fi
    installed=0
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends munge slurmctld slurmd slurm-client parallel python3 \
        openssh-server openssh-client rsync) >"$apt_log" 2>&1 || installed=$?
    [ -z "$policy" ] || rm -f "$policy"
    if [ "$installed" != 0 ]; then
        tail -n 5 "$apt_log"
        skip "apt-get could not install the packages (log: $apt_log)"
    fi
    rm -f "$apt_log"
fi
[ "$(id -u)" = 0 ] || skip "slurmd must run as root to start jobs"

koom=${KOOM:-$root/target/release/koom}
if [ ! -x "$koom" ]; then
    step "building koom"
    (cd "$root" && cargo build --release --quiet --bin koom)
fi
koom=$(cd "$(dirname "$koom")" && pwd)/$(basename "$koom")
export PATH="$(dirname "$koom"):$PATH"

# --- daemons ------------------------------------------------------------------------------
work=$(mktemp -d /tmp/koom-slurm.XXXXXX)
daemons=()
jobs_submitted=()
finish() {
    local status=$?
    if [ ${#jobs_submitted[@]} -gt 0 ]; then
        scancel "${jobs_submitted[@]}" 2>/dev/null || true
        sleep 1
    fi
    local pid
    for pid in "${daemons[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${daemons[@]}"; do wait "$pid" 2>/dev/null || true; done
    if [ "$status" = 0 ] && [ -z "${KEEP:-}" ]; then
        rm -rf "$work"
    else
        echo "scratch folder kept: $work"
    fi
}
trap finish EXIT

step "starting munged, slurmctld and slurmd in $work"
mkdir -p "$work/munge" "$work/run" "$work/state" "$work/spool"
chmod 700 "$work/munge"
chmod 755 "$work" "$work/run"
head -c 1024 /dev/urandom >"$work/munge/munge.key"
chmod 400 "$work/munge/munge.key"
munged --foreground --force --key-file="$work/munge/munge.key" \
    --socket="$work/run/munge.sock" --pid-file="$work/run/munged.pid" \
    --log-file="$work/munge.log" --seed-file="$work/munge/seed" 2>>"$work/munge.log" &
daemons+=($!)
for _ in $(seq 50); do [ -S "$work/run/munge.sock" ] && break; sleep 0.1; done
[ -S "$work/run/munge.sock" ] || skip "munged did not start: $(tail -n 1 "$work/munge.log" 2>/dev/null)"

# slurmd -C describes this machine as a node line (name, CPUs, memory).
node=$(slurmd -C | head -n 1)
cpus=$(echo "$node" | sed -n 's/.* CPUs=\([0-9]*\).*/\1/p')
cat >"$work/slurm.conf" <<EOF
ClusterName=koomci
SlurmctldHost=$(hostname -s)(127.0.0.1)
SlurmctldPort=${SLURMCTLD_PORT:-16817}
SlurmdPort=${SLURMD_PORT:-16818}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/run/munge.sock
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$work/jobcomp.txt
ReturnToService=2
KillWait=5
MinJobAge=600
$node NodeAddr=127.0.0.1
PartitionName=ci Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$work/slurm.conf"
slurmctld -D -i -f "$SLURM_CONF" >>"$work/slurmctld.log" 2>&1 &
daemons+=($!)
slurmd -D -f "$SLURM_CONF" >>"$work/slurmd.log" 2>&1 &
daemons+=($!)
for _ in $(seq 60); do
    [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && break
    sleep 0.5
done
if [ "$(sinfo -h -o %T 2>/dev/null)" != idle ]; then
    tail -n 3 "$work/slurmctld.log" "$work/slurmd.log"
    skip "slurmctld and slurmd did not bring the node up"
fi
echo "node: $node"

# --- helpers ------------------------------------------------------------------------------
# One field (JobState, ExitCode, ...) of `scontrol show job`.
job_field() { scontrol show job "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1; }
# Waits until the job is in one of the states (a regex), failing after $3 seconds.
wait_state() {
    local job=$1 states=$2 limit=$3 state=
    for _ in $(seq $((limit * 2))); do
        state=$(job_field "$job" JobState)
        [[ $state =~ ^($states)$ ]] && return 0
        [ "$(job_field "$job" Reason)" = DependencyNeverSatisfied ] && fail "job $job: dependency never satisfied"
        sleep 0.5
    done
    fail "job $job is $state after $limit s, not $states"
}
# Whether two folders' summary.json are equal less their `run` objects.
same_summary() {
    python3 - "$1/summary.json" "$2/summary.json" <<'EOF'
import json, sys
a, b = (json.load(open(path)) for path in sys.argv[1:])
for summary in (a, b):
    summary.pop("run", None)
sys.exit(0 if a == b else 1)
EOF
}
# A field of a koom JSON file, by a Python expression on `d`.
json_get() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
seconds_since() { echo $(($(date +%s) - $1)); }

# The documented array script, sized for this machine: N shards on one CPU each.
array_script() {
    local n=$1
    sed -e "s/^#SBATCH --array=0-31$/#SBATCH --array=0-$((n - 1))/" \
        -e 's/^#SBATCH --cpus-per-task=4$/#SBATCH --cpus-per-task=1/' \
        -e "s| --shard env/32 | --shard env/$n |" \
        "$root/configs/cluster/shards.sbatch" >shards.sbatch
    grep -q -- "--array=0-$((n - 1))" shards.sbatch && grep -q -- "--shard env/$n " shards.sbatch ||
        fail "configs/cluster/shards.sbatch no longer has the lines this test resizes"
}

# --- the experiments, unsharded -----------------------------------------------------------
# Thud's shards last several checkpoint intervals (5 s) even on an idle machine, so that the task stopped
# mid-way has a checkpoint written while it plays, not only the one written on SIGTERM.
mkdir -p "$work/thud" "$work/ludo"
printf 'game = "thud"\nagents = ["balanced", "easy"]\ngames = 160\nseed = 11\n' >"$work/thud/exp.toml"
printf 'game = "ludo"\nagents = ["hard", "normal", "easy", "easy"]\ngames = 40000\nseed = 12\n' >"$work/ludo/exp.toml"
declare -A shards=([thud]=2 [ludo]=4)
for game in thud ludo; do
    cd "$work/$game"
    t=$(date +%s)
    koom run exp.toml --out full --quiet
    echo "unsharded $game: $(seconds_since "$t") s on $cpus threads"
done

# --- Slurm: the array, the dependent merge, a SIGTERM and a requeue -----------------------
declare -A array merge
for game in thud ludo; do
    cd "$work/$game"
    array_script "${shards[$game]}"
    mkdir -p shards logs
    # As docs/clusters.md submits them, with --parsable on the merge to follow it.
    array[$game]=$(sbatch --parsable shards.sbatch)
    merge[$game]=$(sbatch --parsable --dependency=afterok:${array[$game]} --wrap 'exec koom merge shards/* --out merged')
    jobs_submitted+=("${array[$game]}" "${merge[$game]}")
done
submitted=$(date +%s)
step "submitted Thud array ${array[thud]} (merge ${merge[thud]}), Ludo array ${array[ludo]} (merge ${merge[ludo]})"

# Thud's two tasks are stopped once each has a checkpoint: task 0 by `scontrol requeue` while
# it runs, task 1 by SIGTERM alone (it fails with 143), then requeued.
cd "$work/thud"
wait_checkpoint() {
    for _ in $(seq 240); do [ -f "shards/$1/checkpoint.json" ] && return 0; sleep 0.25; done
    fail "task ${array[thud]}_$1 wrote no checkpoint within 60 s"
}
wait_log() {
    for _ in $(seq 120); do grep -q "$2" "logs/$1.log" && return 0; sleep 0.5; done
    fail "logs/$1.log does not say \`$2\` after 60 s"
}
# What the stopped task's checkpoint keeps: seed groups, and seconds of play not replayed.
declare -A kept
keep_note() {
    local c="shards/$1/checkpoint.json"
    kept[$1]="$(json_get "$c" 'sum(r["end"] - r["start"] for r in d["done"])') of $(json_get "$c" 'd["groups"]["end"] - d["groups"]["start"]') seed groups, $(json_get "$c" 'round(d["effort"]["wall_s"], 2)') s of play"
    [ "$(json_get "$c" 'len(d["done"])')" -gt 0 ] || fail "the checkpoint of task ${array[thud]}_$1 kept no seed group"
}
# A requeued job waits two minutes before it is eligible again; this test does not.
start_now() { scontrol update JobId="$1" StartTime=now; }

requeued="${array[thud]}_0"
wait_checkpoint 0
scontrol requeue "$requeued"
wait_log 0 "interrupted: checkpoint written to shards/0/checkpoint.json"
keep_note 0
start_now "$requeued"

stopped="${array[thud]}_1"
wait_checkpoint 1
scancel --batch --signal=TERM "$stopped"
wait_state "$stopped" 'FAILED|COMPLETED|CANCELLED' 60
code=$(job_field "$stopped" ExitCode)
state=$(job_field "$stopped" JobState)
stopped_id=$(job_field "$stopped" JobId)
echo "task $stopped after SIGTERM: JobState=$state ExitCode=$code (scontrol show job)"
[ "$code" = "143:0" ] || fail "task $stopped ended with ExitCode=$code, not 143:0"
grep -q "^JobId=$stopped_id .*JobState=FAILED.*ExitCode=143:0" "$work/jobcomp.txt" ||
    fail "the job completion log has no exit 143 for task $stopped"
wait_log 1 "interrupted: checkpoint written to shards/1/checkpoint.json"
keep_note 1
scontrol requeue "$stopped"
start_now "$stopped"
# Slurm holds a failed task against the array's afterok for good, even once it is requeued
# and succeeds: the merge waits for every task to end instead, and refuses a missing shard.
scontrol update JobId="${merge[thud]}" Dependency="afterany:${array[thud]}"

for game in thud ludo; do
    wait_state "${merge[$game]}" COMPLETED 240
done
step "both merge jobs done $(seconds_since "$submitted") s after submission"

cd "$work/thud"
for k in 0 1; do
    wait_log "$k" "resuming from shards/$k/checkpoint.json"
    total=$(json_get "shards/$k/shard.json" 'round(d["effort"]["wall_s"], 2)')
    echo "task ${array[thud]}_$k resumed keeping ${kept[$k]} (the shard took $total s in all)"
    # Without --threads, a task of --cpus-per-task=1 plays on one thread (SLURM_CPUS_PER_TASK).
    threads=$(json_get "shards/$k/shard.json" 'round(d["effort"]["thread_s"] / d["effort"]["wall_s"], 3)')
    [ "$threads" = 1.0 ] || fail "task ${array[thud]}_$k played on $threads threads, not the 1 CPU Slurm gave it"
done

for game in thud ludo; do
    cd "$work/$game"
    [ "$(job_field "${merge[$game]}" JobState)" = COMPLETED ] ||
        fail "$game merge job ${merge[$game]}: $(job_field "${merge[$game]}" JobState) ($(cat "slurm-${merge[$game]}.out" 2>/dev/null))"
    same_summary merged full || fail "$game: merged Slurm shards differ from the unsharded run"
    echo "Slurm $game: merged summary of ${shards[$game]} shards equals the unsharded one"
done

# A finished task requeued keeps its shard instead of playing it again.
cd "$work/ludo"
finished="${array[ludo]}_0"
before=$(cksum <shards/0/shard.json)
scontrol requeue "$finished"
scontrol update JobId="$finished" StartTime=now
wait_state "$finished" COMPLETED 60
grep -q "shards/0/shard.json holds this shard's finished result: kept" logs/0.log ||
    fail "the requeued finished task $finished did not keep its shard (logs/0.log)"
[ "$(cksum <shards/0/shard.json)" = "$before" ] || fail "task $finished wrote its shard again"
echo "requeued finished task $finished kept its shard"

# --- GNU parallel: the local recipe, one thread a shard on this machine --------------------
for game in thud ludo; do
    cd "$work/$game"
    n=${shards[$game]}
    t=$(date +%s)
    parallel --jobs "$cpus" "exec koom run exp.toml --threads 1 --shard {}/$n --out pshards/{} --resume --quiet" ::: $(seq 0 $((n - 1)))
    koom merge pshards/* --out pmerged --quiet
    same_summary pmerged full || fail "$game: merged GNU parallel shards differ from the unsharded run"
    echo "GNU parallel $game: $n shards in $(seconds_since "$t") s; merged summary equals the unsharded one"
done

# --- GNU parallel over ssh: the remote recipe, to an sshd of this test's own on localhost -----
# koom is not installed on the "remote" host, so --env PATH carries this test's PATH there.
mkdir -p "$work/ssh" /run/sshd
chmod 700 "$work/ssh"
ssh-keygen -q -t ed25519 -N '' -f "$work/ssh/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$work/ssh/client_key"
cat >"$work/ssh/sshd_config" <<EOF
Port ${SSHD_PORT:-16822}
ListenAddress 127.0.0.1
HostKey $work/ssh/host_key
AuthorizedKeysFile $work/ssh/client_key.pub
PidFile $work/run/sshd.pid
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
EOF
"$(command -v sshd)" -D -e -f "$work/ssh/sshd_config" 2>>"$work/sshd.log" &
daemons+=($!)
ssh_cmd="ssh -i $work/ssh/client_key -p ${SSHD_PORT:-16822} -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR"
for _ in $(seq 20); do $ssh_cmd 127.0.0.1 true 2>/dev/null && break; sleep 0.5; done
if $ssh_cmd 127.0.0.1 true 2>/dev/null; then
    cd "$work/ludo"
    n=${shards[ludo]}
    t=$(date +%s)
    parallel --ssh "$ssh_cmd" --env PATH -S "$cpus/127.0.0.1" --workdir ... --transferfile exp.toml \
        --return "sshards/{}" --cleanup \
        "exec koom run exp.toml --shard {}/$n --out sshards/{} --resume --quiet" ::: $(seq 0 $((n - 1)))
    koom merge sshards/* --out smerged --quiet
    same_summary smerged full || fail "ludo: merged GNU parallel shards over ssh differ from the unsharded run"
    echo "GNU parallel over ssh, ludo: $n shards in $(seconds_since "$t") s, returned; merged summary equals the unsharded one"
else
    echo "SKIPPED (the ssh recipe only): sshd did not accept this test's key: $(tail -n 1 "$work/sshd.log")"
fi

step "cluster recipes passed (load average $(cut -d" " -f1-3 /proc/loadavg))"
