#!/bin/sh
# tests/unit/test_cli_conventions.sh - one way for every tool (issue 35 part
# 4, docs/tools.md): each command of build/host/baremark and each shell tool
# in tools/ answers
#   - --help: exit 0, on standard output, naming every option its parser
#     accepts.  For the C commands the options are read from the source's
#     option table (the rows { ID, "--name", ... } of tools/host/*/cmd_*.c,
#     the array cli_next parses with and cli_help prints), and the sources
#     are grepped for an option compared outside a table (strcmp(argv[i],
#     "--x")), which would be a parser the help does not know.  For the
#     shell tools the options are the patterns of their option loops
#     (case ... in -x|--y) lines), grepped from the script;
#   - an unknown option: exit 2, nothing on standard output, one line on
#     standard error beginning with the tool's name and naming the option;
#   - a missing file: exit 2, the file named on standard error.
# Prints PASS:/FAIL: lines.
cd "$(dirname "$0")/../.." || exit 1
B=${BAREMARK_HOST:-build/host/baremark}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
[ -x "$B" ] || make -s host >/dev/null 2>&1
if [ ! -x "$B" ]; then echo "FAIL: build/host/baremark builds"; exit 1; fi
check() { # check NAME STATUS [DETAIL]
    if [ "$2" -eq 0 ]; then echo "PASS: $1"; else echo "FAIL: $1${3:+ ($3)}"; fi
}

# ---- the C commands: their names from main.c's table, their options from theirs ----------
cmds=$(sed -n 's/^ *{ "\([a-z-]*\)", cmd_[a-z_]*, &cli_cmd_[a-z_]* },.*/\1/p' tools/host/common/main.c)
n=$(printf '%s\n' $cmds | wc -l)
check "main.c lists the commands (found $n)" $([ "$n" -ge 15 ]; echo $?)
# The file of a command: the one that defines its struct cli_cmd.
cmd_file() {
    v=cli_cmd_$(echo "$1" | tr - _)
    [ "$1" = diff ] && v=cli_cmd_diff
    grep -l "^const struct cli_cmd $v = {" tools/host/*/cmd_*.c
}
# The option names of the table a command's struct names (its 4th member).
table_opts() { # FILE COMMAND
    v=cli_cmd_$(echo "$2" | tr - _)
    arr=$(awk -v v="$v" '$0 ~ "^const struct cli_cmd " v " = \\{" { on = 1 } on { print } on && /^};/ { exit }' "$1" |
          tr '\n' ' ' | sed 's/.*", *\([a-z_]*_opts\), *.*/\1/')
    awk -v a="$arr" '$0 ~ "static const struct cli_opt " a "\\[\\] = \\{" { on = 1; next } on && /^};/ { exit }
        on { print }' "$1" | sed -n 's/^ *{ *[A-Z_0-9]*, *"\([^"]*\)".*/\1/p' | tr '|' '\n'
}
for c in $cmds; do
    f=$(cmd_file "$c")
    if [ -z "$f" ]; then check "$c: its struct cli_cmd is found" 1; continue; fi
    "$B" "$c" --help > "$T/out" 2> "$T/err"; rc=$?
    check "$c --help: exit 0, on standard output" $([ $rc -eq 0 ] && [ -s "$T/out" ] && [ ! -s "$T/err" ]; echo $?) "rc $rc"
    missing=""
    for o in $(table_opts "$f" "$c"); do
        grep -qe "$o\\b" "$T/out" || missing="$missing $o"
    done
    check "$c --help names every option of its table ($(table_opts "$f" "$c" | wc -l))" \
        $([ -z "$missing" ]; echo $?) "missing:$missing"
    "$B" "$c" --no-such-option x y > "$T/out" 2> "$T/err"; rc=$?
    check "$c --no-such-option: exit 2, nothing on stdout, one line naming it" \
        $([ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l < "$T/err")" -eq 1 ] &&
          grep -q "^baremark \(compare\|stats\|$c\): unknown option --no-such-option" "$T/err"; echo $?) \
        "rc $rc: $(head -2 "$T/err" | tr '\n' '|')"
done
# No option is compared outside a table: every parser goes through cli_next.
stray=$(grep -n 'strcmp(argv\[[a-z0-9 +]*\], *"--\{0,1\}[a-z]' tools/host/*/cmd_*.c tools/host/common/main.c |
        grep -v 'main.c.*"--help"\|main.c.*"-h"\|main.c.*"--version"\|main.c.*"--"' )
check "no option is parsed outside an option table" $([ -z "$stray" ]; echo $?) "$stray"
# cross-check: a row's option is accepted by the parser (not "unknown")
for spec in "diff --method x" "fleet --threshold 5" "history show --ids" "history show -v" "validate -q" \
            "config --json" "report -o $T/x.html" "stats --json"; do
    # shellcheck disable=SC2086
    "$B" $spec "$T/missing.json" > /dev/null 2> "$T/err"
    check "$spec: accepted (not an unknown option)" $(! grep -q 'unknown option' "$T/err"; echo $?) "$(head -1 "$T/err")"
done

# ---- a missing file: 2, named ------------------------------------------------------------
for spec in "show" "report" "validate" "diff $T/missing.json" "stats" "config" "fleet" "bytemark -c" \
            "history show --db" "history add --db $T/h.db"; do
    # shellcheck disable=SC2086
    "$B" $spec "$T/missing.json" > "$T/out" 2> "$T/err"; rc=$?
    check "$spec MISSING: exit 2, the file named on stderr" \
        $([ $rc -eq 2 ] && grep -q "missing.json" "$T/err"; echo $?) "rc $rc: $(head -2 "$T/err" | tr '\n' '|')"
done
# validate: the problems of an invalid file on stderr, the verdict on stdout, 1
printf '{"schema": 1, "status": "bogus"}\n' > "$T/bad.json"
"$B" validate "$T/bad.json" > "$T/out" 2> "$T/err"; rc=$?
check "validate of an invalid file: 1, INVALID on stdout, each problem on stderr" \
    $([ $rc -eq 1 ] && grep -q 'INVALID' "$T/out" && grep -q 'bad.json: ' "$T/err" && ! grep -q 'INVALID' "$T/err"; echo $?) \
    "rc $rc"
printf '{"schema": 1, ' > "$T/cut.json"
"$B" validate "$T/cut.json" > "$T/out" 2> "$T/err"; rc=$?
check "validate of a truncated file: 2, named on stderr, nothing on stdout" \
    $([ $rc -eq 2 ] && grep -q 'cut.json' "$T/err" && [ ! -s "$T/out" ]; echo $?) "rc $rc"

# ---- the shell tools ---------------------------------------------------------------------
for t in tools/baremark-diff tools/baremark-report tools/baremark-fleet tools/baremark-results \
         tools/baremark-stick tools/baremark-plugin; do
    name=${t#tools/}
    "$t" --help > "$T/out" 2> "$T/err"; rc=$?
    check "$name --help: exit 0 on standard output" $([ $rc -eq 0 ] && [ -s "$T/out" ]; echo $?) "rc $rc"
    # the options its own loop accepts: "-x)" "--y|--z)" patterns of case lines
    opts=$(grep -oE '^[[:space:]]*(-[-a-zA-Z]+\|?)+\)' "$t" | tr -d ' )' | tr '|' '\n' |
           grep -v '^-h$\|^--help$\|^-\*$' | sort -u)
    missing=""
    for o in $opts; do grep -qe "$o\\b" "$T/out" || missing="$missing $o"; done
    check "$name --help names every option its loop accepts ($(echo $opts | wc -w))" \
        $([ -z "$missing" ]; echo $?) "missing:$missing"
done
for spec in "baremark-diff --no-such-option a b" "baremark-report --no-such-option a" \
            "baremark-fleet --no-such-option a" "baremark-results --no-such-option" \
            "baremark-stick sign --no-such-option img" "baremark-plugin build --no-such-option"; do
    # shellcheck disable=SC2086
    tools/$spec > "$T/out" 2> "$T/err"; rc=$?
    tool=${spec%% *}
    check "$tool --no-such-option: exit 2, nothing on stdout, named on stderr by the tool" \
        $([ $rc -eq 2 ] && [ ! -s "$T/out" ] && grep -q -- '--no-such-option' "$T/err" &&
          grep -q "^\($tool\|baremark [a-z]*\): " "$T/err"; echo $?) "rc $rc: $(head -2 "$T/err" | tr '\n' '|')"
done
for spec in "baremark-diff $T/missing.json" "baremark-report" "baremark-fleet" "baremark-results" \
            "baremark-results show" "baremark-plugin build"; do
    # shellcheck disable=SC2086
    tools/$spec "$T/missing.json" > "$T/out" 2> "$T/err"; rc=$?
    check "${spec%% /*} MISSING: exit 2, the file named on stderr" \
        $([ $rc -eq 2 ] && grep -q 'missing.json' "$T/err"; echo $?) "rc $rc: $(head -2 "$T/err" | tr '\n' '|')"
done
