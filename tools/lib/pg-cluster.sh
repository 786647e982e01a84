# tools/lib/pg-cluster.sh - a private PostgreSQL cluster on 127.0.0.1 for a
# test or a benchmark (sourced; POSIX sh).  Needs the postgresql package and
# root (the cluster runs as the postgres user).
#
#   pg_cluster_start LOGDIR   start one on a free port with a database
#                             "history"; sets PG_URL; status 1 (the reason in
#                             LOGDIR/pg-*.log) when it cannot
#   pg_cluster_stop           stop it and remove its files
PG_DIR=
PG_URL=
pg_cluster_start() {
    PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | tail -1)
    [ -n "$PG_BIN" ] && id postgres >/dev/null 2>&1 || { echo "postgresql is not installed" > "$1/pg-init.log"; return 1; }
    PG_DIR=$(mktemp -d /tmp/baremark-pg.XXXXXX)
    chown postgres "$PG_DIR"
    # a free port: two runs at once (two worktrees) must not meet
    PG_PORT=$((20000 + $$ % 20000))
    while ss -Hltn 2>/dev/null | grep -q ":$PG_PORT "; do PG_PORT=$((PG_PORT + 1)); done
    runuser -u postgres -- "$PG_BIN/initdb" -D "$PG_DIR/data" -A trust -U postgres > "$1/pg-init.log" 2>&1 &&
        runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w \
            -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $PG_DIR" start > "$1/pg-start.log" 2>&1 &&
        runuser -u postgres -- "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" history > "$1/pg-db.log" 2>&1 ||
        return 1
    PG_URL="postgresql://postgres@127.0.0.1:$PG_PORT/history"
}
pg_cluster_stop() {
    [ -n "$PG_DIR" ] || return 0
    runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop > /dev/null 2>&1
    rm -rf "$PG_DIR"
    PG_DIR=
}
