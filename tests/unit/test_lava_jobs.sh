#!/bin/sh
# tools/lava/make-job and the job files in tools/lava/jobs/: the committed
# jobs are what make-job writes; each parses as YAML (python3-yaml, which
# lava-dispatcher brings) with the monitors action; its pattern, compiled
# as LAVA compiles it (Python's re), reads every line bench/results/lava.c prints
# (the lines of build/tests/test_lava) with the right groups, also with the
# "\r\r\n" line end of a console seen through a pty, and never a line still
# arriving; the end string matches only the end line; the timeouts follow
# the profile; bad arguments are refused.
set -u
cd "$(dirname "$0")/../.."
TOP=$(pwd)
T=$TOP/build/tests/lava-jobs
rm -rf "$T"
mkdir -p "$T"
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1 (${2:-})"; }
MJ=$TOP/tools/lava/make-job
URL=https://lab.example/baremark/baremark.img

for d in qemu uefi; do
    if "$MJ" --device $d --image $URL | cmp -s - "tools/lava/jobs/baremark-$d.yaml"; then
        pass "tools/lava/jobs/baremark-$d.yaml is what make-job writes"
    else
        fail "tools/lava/jobs/baremark-$d.yaml is what make-job writes" "regenerate it with tools/lava/make-job --device $d --image $URL"
    fi
done
[ -x build/tests/test_lava ] || make -s build/tests/test_lava >/dev/null 2>&1
build/tests/test_lava "$T/lines" > /dev/null || fail "test_lava writes the lines" "exit $?"

for spec in "qemu quick 3 6 10" "qemu full 5 20 25" "uefi quick 3 5 15" "uefi full 5 15 25"; do
    set -- $spec
    "$MJ" --device $1 --profile $2 --image $URL --options "sections=clock,bytemark" > "$T/$1-$2.yaml"
    if /usr/bin/python3 - "$T/$1-$2.yaml" "$T/lines" $1 $2 $3 $4 $5 > "$T/$1-$2.out" 2>&1 <<'PY'
import re, sys, yaml
path, lines, device, profile, silence, test, job = sys.argv[1:]
d = yaml.safe_load(open(path))
bad = []
def need(c, what):
    if not c:
        bad.append(what)
acts = {list(a)[0]: a[list(a)[0]] for a in d["actions"]}
need(d["device_type"] == ("qemu" if device == "qemu" else "x86-uefi-baremark"), "device type")
need(d["context"]["arch"] == "amd64", "context arch")
need(d["timeouts"]["job"]["minutes"] == int(job), "job timeout")
need(acts["test"]["timeout"]["minutes"] == int(test), "test timeout")
need(acts["boot"]["timeout"]["minutes"] == int(silence), "boot timeout (silence)")
if device == "qemu":
    imgs = acts["deploy"]["images"]
    need(acts["deploy"]["to"] == "tmpfs" and acts["boot"]["method"] == "qemu", "tmpfs + qemu")
    need("file={baremark}" in imgs["baremark"]["image_arg"] and "usb-storage" in imgs["baremark"]["image_arg"], "stick")
    need("string=profile=%s lava=t sections=clock,,bytemark'" % profile in imgs["baremark"]["image_arg"], "fw_cfg options")
    need("unit=0,readonly=on,file={ovmf_code}" in imgs["ovmf_code"]["image_arg"], "OVMF code")
    need("unit=1,file={ovmf_vars}" in imgs["ovmf_vars"]["image_arg"], "OVMF vars")
else:
    need(acts["deploy"]["to"] == "flasher" and acts["boot"]["method"] == "minimal", "flasher + minimal")
m = acts["test"]["monitors"][0]
pat, start, end = re.compile(m["pattern"]), re.compile(m["start"]), re.compile(m["end"])
text = open(lines).read()
want = []
for line in text.splitlines():
    g = re.match(r"BAREMARK-LAVA case=(\S+) result=(\S+)(?: measurement=(\S+) units=(\S+))?$", line)
    if g:
        # a case without a measurement has the empty unit (a server
        # stores no case whose unit is missing)
        want.append(g.groups()[:3] + (g.group(4) or "",))
need(len(want) >= 8, "lines to match: %d" % len(want))
for ending in ("\n", "\r\n", "\r\r\n"):
    got = [(x.group("test_case_id"), x.group("result"), x.group("measurement"), x.group("units"))
           for x in pat.finditer(text.replace("\n", ending))]
    need(got == want, "pattern reads every line with %r ends: %s" % (ending, got[:2]))
for w in want:
    if w[2]:
        cut = "BAREMARK-LAVA case=%s result=%s measurement=%s" % (w[0], w[1], w[2][:-1])
        need(not pat.search(cut) and not pat.search(cut + w[2][-1] + " units=" + w[3][:-1]),
             "a line still arriving does not match: " + cut)
need(start.search("BAREMARK-LAVA start\r\n") is not None, "start string")
need(end.search("BAREMARK-LAVA end status=2\r\n") is not None and not end.search(text.splitlines()[1]), "end string")
need(not pat.search("BAREMARK-LAVA end status=0\r\n") and not pat.search("BAREMARK-LAVA start\r\n"), "start/end are not cases")
print("\n".join(bad) or "ok")
sys.exit(1 if bad else 0)
PY
    then pass "make-job --device $1 --profile $2: the job, its timeouts ($3/$4/$5 min) and its pattern"
    else fail "make-job --device $1 --profile $2" "$(head -3 "$T/$1-$2.out" | tr '\n' '|')"; fi
done

"$MJ" --device board --image $URL > /dev/null 2>&1; [ $? -eq 2 ] && pass "an unknown device is refused" || fail "an unknown device is refused"
"$MJ" --device qemu --image /tmp/baremark.img > /dev/null 2>&1; [ $? -eq 2 ] && pass "an image that is not a URL is refused" || fail "an image that is not a URL is refused"
"$MJ" --device qemu --image $URL --profile fast > /dev/null 2>&1; [ $? -eq 2 ] && pass "an unknown profile is refused" || fail "an unknown profile is refused"
"$MJ" --device qemu --image $URL --options "a='b'" > /dev/null 2>&1; [ $? -eq 2 ] && pass "options with a quote are refused" || fail "options with a quote are refused"
"$MJ" --device qemu --image $URL --timeout-factor 3 > "$T/x3.yaml"
if /usr/bin/python3 - "$T/x3.yaml" <<'PY'
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
a = {list(x)[0]: x[list(x)[0]] for x in d["actions"]}
sys.exit(0 if (d["timeouts"]["job"]["minutes"], a["test"]["timeout"]["minutes"], a["boot"]["timeout"]["minutes"],
               a["deploy"]["timeout"]["minutes"]) == (30, 18, 9, 6) else 1)
PY
then pass "--timeout-factor 3 multiplies every timeout (job 30, test 18, silence 9, deploy 6 min)"
else fail "--timeout-factor 3 multiplies every timeout" "$(grep -A1 timeout "$T/x3.yaml" | tr '\n' ' ')"; fi
"$MJ" --device qemu --image $URL --timeout-factor 0 > /dev/null 2>&1; [ $? -eq 2 ] && pass "a timeout factor of 0 is refused" || fail "a timeout factor of 0 is refused"

# --results: the lab's results server (docs/guide-lab.md#results-sent-to-the-labs-server)
printf 'lab-key-1\n' > "$T/key"
"$MJ" --device qemu --image $URL --results http://10.0.2.2:8750/ --results-key-file "$T/key" > "$T/results.yaml"
if /usr/bin/python3 - "$T/results.yaml" <<'PY'
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
a = {list(x)[0]: x[list(x)[0]] for x in d["actions"]}
arg = a["deploy"]["images"]["baremark"]["image_arg"]
ok = ("string=profile=quick lava=t results=http://10.0.2.2:8750/ results_key=lab-key-1'" in arg
      and "-netdev user,id=results -device virtio-net-pci,netdev=results" in arg
      and d["visibility"] == "personal")
sys.exit(0 if ok else 1)
PY
then pass "--results: a user-network card, results= and results_key= in fw_cfg, the job personal (it holds the key)"
else fail "--results: card, settings, visibility" "$(grep -E 'fw_cfg|visibility' "$T/results.yaml" | tr '\n' ' ')"; fi
if ! grep -q 'netdev' "tools/lava/jobs/baremark-qemu.yaml" && grep -q '^visibility: public$' "tools/lava/jobs/baremark-qemu.yaml"; then
    pass "without --results: no network card, the job public"
else fail "without --results: no network card, the job public"; fi
"$MJ" --device uefi --image $URL --results http://10.0.2.2:8750/ --results-key-file "$T/key" > /dev/null 2>&1; [ $? -eq 2 ] &&
    pass "--results on --device uefi is refused (the stick's command file says it)" || fail "--results on --device uefi is refused"
"$MJ" --device qemu --image $URL --results http://10.0.2.2:8750/ > /dev/null 2>&1; [ $? -eq 2 ] &&
    pass "--results without --results-key-file is refused" || fail "--results without --results-key-file is refused"
"$MJ" --device qemu --image $URL --results 10.0.2.2:8750 --results-key-file "$T/key" > /dev/null 2>&1; [ $? -eq 2 ] &&
    pass "--results that is not an http(s) URL is refused" || fail "--results that is not an http(s) URL is refused"
printf 'has space\n' > "$T/badkey"
"$MJ" --device qemu --image $URL --results http://10.0.2.2:8750/ --results-key-file "$T/badkey" > /dev/null 2>&1; [ $? -eq 2 ] &&
    pass "a key with a space is refused" || fail "a key with a space is refused"
