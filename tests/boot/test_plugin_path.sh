#!/bin/bash
# Boot test: a user's path from source to comparison, with the tools a user
# runs (README, "Timing your own code"):
#   tools/baremark-plugin build   the NASM add chains (plugins/examples/chain)
#                                 from a copy outside the tree;
#   tools/baremark-stick          onto a fresh image, without mounting;
#   boot under -icount            the plug-in's routines timed as chain:add100
#                                 and chain:add1000 (PLUGINROUTINES=chain);
#   tools/baremark-results        the run's JSON off the image;
#   build/host/baremark methods --plugin chain.so    the same source under Linux;
#   tools/baremark-diff        the two runs, routine by routine.
# Under -icount one instruction is one tick, so the image's side is exact:
# with N iterations a net sample is (F - 1 + N (K + 2)) / N ticks (F = 5:
# the routine's fixed instructions, 1: the placeholder's ret), i.e. 1002.4
# for K = 1000 and 102.4 for K = 100 at N = 10; diff shows it in ns
# through the run's calibrated clock (the clock section runs for that: two
# clocks of different rates are compared in ns, never in ticks).  The host's
# side is whatever this machine measures: only its presence is checked.
. "$(dirname "$0")/lib.sh"
B=$BUILD/host/baremark
W=$TEST_TMP/plugin-path
rm -rf "$W"
mkdir -p "$W/src"
[ -x "$B" ] || make -s -C "$TOP" host >/dev/null 2>&1

cp "$TOP/plugins/examples/chain/chain.c" "$TOP/plugins/examples/chain/chain.asm" "$W/src/"
if (cd "$W" && "$TOP/tools/baremark-plugin" build src/chain.c src/chain.asm -o chain.efi) > "$W/build.log" 2>&1 &&
    [ -s "$W/chain.efi" ] && [ -s "$W/chain.so" ]; then
    pass "baremark-plugin: chain.efi and chain.so built from a copy outside the tree"
else
    fail "baremark-plugin: chain.efi and chain.so built from a copy outside the tree" "$(tail -3 "$W/build.log")"
fi

img=$(fresh_image plugin-path)
if "$TOP/tools/baremark-stick" add-plugin "$img" "$W/chain.efi" > "$W/stick.log" 2>&1 &&
    esp_ls "$img" baremark/plugins | grep -qx chain.efi; then
    pass "baremark-stick: chain.efi in \\baremark\\plugins on the image"
else
    fail "baremark-stick: chain.efi in \\baremark\\plugins on the image" "$(cat "$W/stick.log")"
fi

N=10
BOOT_TIMEOUT=300 boot plugin-path "$img" --icount --cpu max \
    --options "sections=clock,plugins,methods profile=quick pluginroutines=chain methoditerations=$N methodsamples=20"
expect_rc 0 "icount: run-qemu exit 0"
expect_line '^plugin chain\.efi: [0-9]+ bytes, SHA-256 [0-9a-f]{64}$' "the image lists chain.efi with its SHA-256"
expect_line '^target chain:add1000: 1000 dependent adds per iteration \(NASM\); 5 \+ 1002/iteration instructions' \
    "the image times chain:add1000 with its counts"
expect_no_line '^warning:' "no warnings"

if "$TOP/tools/baremark-results" "$img" "$W/results" > "$W/results.log" 2>&1 &&
    run=$(ls "$W"/results/*.json 2>/dev/null | head -1) && [ -n "$run" ]; then
    pass "baremark-results: the run's JSON copied off the image"
else
    fail "baremark-results: the run's JSON copied off the image" "$(cat "$W/results.log")"
    run=/nonexistent
fi
"$B" methods --quick --samples 20 --iterations $N --no-compare --plugin "$W/chain.so" --json "$W/linux.json" \
    > "$W/linux.log" 2>&1
if jq -e '[.methods.measurements[] | select(.target == "chain:add1000")] | length > 0' "$W/linux.json" >/dev/null 2>&1; then
    pass "hosted: chain.so measured under Linux"
else
    fail "hosted: chain.so measured under Linux" "$(tail -3 "$W/linux.log")"
fi

"$TOP/tools/baremark-diff" "$run" "$W/linux.json" --json > "$W/cmp.json" 2> "$W/cmp.err"
for k in 100 1000; do
    want=$(jq -n --argjson k $k --argjson n $N '(5 - 1 + $n * ($k + 2)) / $n')
    # the image's value: want ticks in ns through its clock, computed here from its JSON
    if jq -e --arg t chain:add$k --argjson want "$want" --slurpfile run "$run" '
            ($run[0].clock.chosen_khz) as $khz
            | [.items[] | select(.kind == "routine" and .name == $t)] | length == 1 and
              (.[0] | .method == "sdm-recommended" and .unit == "ns/iteration" and .n_a == 20 and .n_b > 0
               and ((.a - $want * 1e6 / $khz) | fabs) <= 1e-9 * .a
               and (.b | type) == "number" and (.ratio | type) == "number"
               and (.welch_p | type) == "number" and (.verdict | IN("A faster", "A slower", "no difference")))' \
            "$W/cmp.json" >/dev/null 2>&1; then
        pass "baremark-diff: chain:add$k side by side; the image's net time exactly $want ticks per iteration"
    else
        fail "baremark-diff: chain:add$k side by side; the image's net time exactly $want ticks per iteration" \
            "$(jq -c --arg t chain:add$k '.items[]? | select(.name == $t)' "$W/cmp.json" 2>&1) $(cat "$W/cmp.err")"
    fi
done
