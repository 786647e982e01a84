#!/bin/sh
# tools/bench/intake.sh [--runs N] [--clients "1 2 4 ..."] [--template RUN.json]
#
# The results server's intake (issue 34's figure): runs stored per second
# by `baremark history serve` into SQLite and into PostgreSQL, with 1, 2,
# 4, 8, 16 and 32 clients uploading at once.  Each measurement starts a
# server on 127.0.0.1 with a new store and sends N distinct signed runs
# (made from the template: the same figures under other names, so each is
# stored, none a duplicate) through tests/unit/serve_client.py's keep-alive
# connections, one a client thread; runs/s = N / the wall time from the
# first request to the last answer.  Every answer must be 201, else the
# measurement is marked.  PostgreSQL: a private cluster on 127.0.0.1
# (tools/lib/pg-cluster.sh; needs root and the postgresql package), a new
# database per measurement.  Not part of `make test`.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
B=$TOP/build/host/baremark
C="python3 $TOP/tests/unit/serve_client.py"
RUNS=64
CLIENTS="1 2 4 8 16 32"
TEMPLATE=$TOP/tests/fixtures/run-quick.json
while [ $# -gt 0 ]; do
    case $1 in
    --runs) RUNS=$2; shift 2 ;;
    --clients) CLIENTS=$2; shift 2 ;;
    --template) TEMPLATE=$2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "intake.sh: unknown option $1 (--runs N, --clients LIST, --template FILE)" >&2; exit 2 ;;
    esac
done
[ -x "$B" ] || make -s -C "$TOP" host > /dev/null || exit 1
W=$(mktemp -d /tmp/baremark-intake.XXXXXX)
. "$TOP/tools/lib/pg-cluster.sh"
SRV=
cleanup() {
    [ -n "$SRV" ] && kill "$SRV" 2>/dev/null && wait "$SRV" 2>/dev/null
    pg_cluster_stop
    rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
printf 'intake bench key\n' > "$W/key"
$C variants "$TEMPLATE" "$RUNS" "$W/runs" || exit 1

# measure DB: one line "RUNS REFUSED SECONDS RUNS/S" for this server and store
measure() {
    "$B" history serve --listen 127.0.0.1:0 --db "$1" --key-file "$W/key" --timeout 60 2> "$W/serve.err" &
    SRV=$!
    i=0
    while [ $i -lt 150 ] && ! grep -q 'listening on' "$W/serve.err"; do sleep 0.2; i=$((i + 1)); done
    port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$W/serve.err")
    if [ -z "$port" ]; then
        echo "intake.sh: the server did not start: $(tail -1 "$W/serve.err")" >&2
        kill "$SRV" 2>/dev/null
        SRV=
        return 1
    fi
    $C bench "$port" "$W/key" "$2" "$W/runs"
    kill "$SRV"
    wait "$SRV" 2>/dev/null
    SRV=
}

cell() {   # RESULT-LINE: runs/s, marked when some run was refused
    set -- $1
    [ $# -ge 4 ] || { printf '%s' "failed"; return; }
    if [ "$2" = 0 ]; then printf '%s' "$4"; else printf '%s (%s refused)' "$4" "$2"; fi
}

pg=
if pg_cluster_start "$W"; then
    pg=1
else
    echo "intake.sh: no PostgreSQL ($(tail -1 "$W"/pg-*.log)); SQLite only" >&2
fi
echo "baremark history serve intake: $RUNS runs of $(basename "$TEMPLATE") ($(wc -c < "$TEMPLATE") bytes) per cell, runs stored per second"
echo "host: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
printf '%-8s  %-22s  %-22s\n' clients SQLite PostgreSQL
for n in $CLIENTS; do
    s=$(measure "$W/intake-$n.db" "$n")
    p=-
    if [ -n "$pg" ]; then
        runuser -u postgres -- "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" "intake$n" > /dev/null 2>&1
        p=$(cell "$(measure "postgresql://postgres@127.0.0.1:$PG_PORT/intake$n" "$n")")
    fi
    printf '%-8s  %-22s  %-22s\n' "$n" "$(cell "$s")" "$p"
done
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
