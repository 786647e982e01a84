#!/bin/sh
# tests/unit/test_bytemark_nnet_data.sh - the neural net's built-in data:
# bench/bytemark/NNET.DAT is the reference's file (BYTEMARK.md section 5:
# 3160 bytes, 210 lines, md5 d0ca3e459c4b2dc7c27847299a730bb5) and the
# committed bench/bytemark/nnet_data.c is exactly what tools/gen-nnet-data.sh
# writes from it; the generator round-trips any bytes.  Prints PASS:/FAIL:.
cd "$(dirname "$0")/../.." || exit 1
T=${TMPDIR:-/tmp}/test_bytemark_nnet_data.$$
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
check() { # check NAME EXIT-STATUS
    if [ "$2" -eq 0 ]; then echo "PASS: $1"; else echo "FAIL: $1"; fi
}
dat=bench/bytemark/NNET.DAT

check "NNET.DAT: 3160 bytes, 210 lines" \
    $([ "$(wc -c < $dat | tr -d ' ')" -eq 3160 ] && [ "$(wc -l < $dat | tr -d ' ')" -eq 210 ]; echo $?)
check "NNET.DAT: md5 d0ca3e459c4b2dc7c27847299a730bb5 (BYTEMARK.md section 5)" \
    $(md5sum $dat | grep -q '^d0ca3e459c4b2dc7c27847299a730bb5 '; echo $?)
if [ -r ../shared/reference/NNET.DAT ]; then
    check "NNET.DAT: same bytes as ../shared/reference/NNET.DAT" \
        $(cmp -s $dat ../shared/reference/NNET.DAT; echo $?)
fi

sh tools/gen-nnet-data.sh > "$T/nnet_data.c" 2> "$T/err"; rc=$?
check "gen-nnet-data.sh: exit 0" $rc
check "gen-nnet-data.sh: regenerating gives the committed bench/bytemark/nnet_data.c" \
    $(cmp -s "$T/nnet_data.c" bench/bytemark/nnet_data.c; echo $?)
sh tools/gen-nnet-data.sh "$T/none.dat" > /dev/null 2>&1; rc=$?
check "gen-nnet-data.sh: a missing input is an error" $([ $rc -ne 0 ]; echo $?)

# Round trip through the C compiler: the embedded bytes are the file's bytes,
# for NNET.DAT and for a file with every awkward byte (quote, backslash,
# control bytes, bytes >= 128, digits after an escape, no final newline).
cat > "$T/dump.c" <<'EOF'
#include <stdio.h>
#include "nnet_data.h"
int main(void)
{
    return fwrite(bm_nnet_dat, 1, bm_nnet_dat_size, stdout) == bm_nnet_dat_size ? 0 : 1;
}
EOF
roundtrip() { # roundtrip INPUT NAME
    sh tools/gen-nnet-data.sh "$1" > "$T/$2.c" &&
        cc -Wall -Wextra -Werror -Ibench/bytemark -o "$T/$2" "$T/dump.c" "$T/$2.c" &&
        "$T/$2" | cmp -s - "$1"
}
check "round trip: NNET.DAT through the generated C is byte-exact" \
    $(roundtrip $dat nnet; echo $?)
{ printf 'a"b\\c\001'; printf '7\377\r\n\t\200x 12'; } > "$T/odd.dat"
check "round trip: quotes, backslashes, control and high bytes, no final newline" \
    $(roundtrip "$T/odd.dat" odd; echo $?)
: > "$T/empty.dat"
check "round trip: an empty file" $(roundtrip "$T/empty.dat" empty; echo $?)
