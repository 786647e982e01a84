#!/bin/sh
# tests/unit/test_plugin_tool.sh - tools/baremark-plugin: builds a plug-in
# from C and NASM into a PE boot-service driver and a shared object, from
# another directory and through a symlink; says what is wrong otherwise:
# the compiler's error for code that does not compile, one line per symbol
# bare metal lacks (printf, malloc, atoi, an undefined helper), no table, and
# usage errors; writes nothing when it fails.
cd "$(dirname "$0")/../.." || exit 1
TOP=$(pwd)
T=${TMPDIR:-/tmp}/test_plugin_tool.$$
mkdir -p "$T/src dir" "$T/out"
trap 'rm -rf "$T"' EXIT
check() { if [ "$2" = 0 ]; then echo "PASS: $1"; else echo "FAIL: $1 (${3:-})"; fi; }
P=$TOP/tools/baremark-plugin

# A good plug-in from C and NASM, source and output outside the tree, the
# tool called from an unrelated directory through a symlink.
cat > "$T/src dir/mine.c" <<'C'
#include <string.h>
#include <math.h>
#include "baremark_plugin.h"
void mine_asm(uint64_t n, void *data);
static void mine_c(uint64_t n, void *data)
{
    volatile double x = 2.0;
    for (uint64_t i = 0; i < n; i++)
        x = sqrt(x) + (double)strlen("abc");
}
static const struct bm_plugin_routine mine_routines[] = {
    { "c_routine", "C, with libm and strlen", mine_c, NULL, NULL, -1, -1 },
    { "asm_routine", "NASM", mine_asm, NULL, NULL, 4, 1 },
};
BAREMARK_PLUGIN("mine", "test plug-in", mine_routines);
C
cat > "$T/src dir/mine.asm" <<'A'
bits 64
default rel
section .text
global mine_asm:function hidden
mine_asm:
    xor eax, eax
.l: inc rax
    cmp rax, rdi
    jb .l
    ret
section .note.GNU-stack noalloc noexec nowrite progbits
A
ln -s "$P" "$T/bp"
(cd /tmp && "$T/bp" build "$T/src dir/mine.c" "$T/src dir/mine.asm" -o "$T/out/mine.efi") > "$T/log" 2>&1; rc=$?
check "C + NASM from another directory through a symlink: exit 0" $([ $rc = 0 ]; echo $?) "rc $rc: $(cat "$T/log")"
check "both NAME.efi and NAME.so are written" $([ -s "$T/out/mine.efi" ] && [ -s "$T/out/mine.so" ]; echo $?)
check "the .efi is a PE32+ EFI boot service driver (subsystem 11)" \
    $(objdump -x "$T/out/mine.efi" 2>/dev/null | grep -q 'Subsystem[[:space:]]*0000000b'; echo $?) \
    "$(objdump -x "$T/out/mine.efi" 2>&1 | grep -i subsystem)"
check "the .efi holds the NASM routine" $(objdump -d "$T/out/mine.efi" | grep -q 'inc *%rax'; echo $?)
check "the .so exports baremark_plugin and nothing else of ours" \
    $(nm -D --defined-only "$T/out/mine.so" | awk '{print $3}' | grep -v '^_' | tr '\n' ' ' | grep -qx 'baremark_plugin '; echo $?) \
    "$(nm -D --defined-only "$T/out/mine.so" | awk '{print $3}' | tr '\n' ' ')"

# Both forms get the same code generation: the examples compiled with the
# .efi's and the .so's flags (make plugin-flags) give the same instructions.
F=$(make --no-print-directory -s plugin-flags)
E=$(printf '%s\n' "$F" | sed -n 's/^EFI_CFLAGS=//p')
H=$(printf '%s\n' "$F" | sed -n 's/^HOST_CFLAGS=//p')
for src in plugins/examples/copy/copy.c plugins/examples/branch/branch.c; do
    # shellcheck disable=SC2086
    gcc $E -Iplugins -c "$src" -o "$T/e.o" && gcc $H -Iplugins -c "$src" -o "$T/h.o"
    objdump -d --no-show-raw-insn "$T/e.o" | sed 1,3d > "$T/e.dis"
    objdump -d --no-show-raw-insn "$T/h.o" | sed 1,3d > "$T/h.dis"
    check "$src: the .efi and the .so flags give the same machine code" \
        $([ -s "$T/e.dis" ] && cmp -s "$T/e.dis" "$T/h.dis"; echo $?) "$(diff "$T/e.dis" "$T/h.dis" | head -5)"
done

# The same sources after a failure: nothing half-written.
rm -f "$T/out/"*

# Does not compile: the compiler's own error, exit 1.
cat > "$T/broken.c" <<'C'
#include "baremark_plugin.h"
static void r(uint64_t n, void *d) { not_declared_anywhere++; }
C
"$P" build "$T/broken.c" -o "$T/out/broken.efi" > "$T/log" 2>&1; rc=$?
check "code that does not compile: exit 1" $([ $rc = 1 ]; echo $?) "rc $rc"
check "the compiler's error names the file, line and identifier" \
    $(grep -q "broken.c:2:.*error:.*not_declared_anywhere" "$T/log"; echo $?) "$(cat "$T/log")"
check "it says the sources did not compile and nothing was written" \
    $(grep -q 'the sources did not compile.*nothing written' "$T/log" && [ -z "$(ls "$T/out")" ]; echo $?)

# Uses what bare metal lacks: one line per symbol with its reason.
cat > "$T/uses.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include "baremark_plugin.h"
int helper_nowhere(int);
static void r(uint64_t n, void *d)
{
    char *p = malloc(16);
    printf("%p %d %d\n", (void *)p, atoi("7"), helper_nowhere(1));
}
static const struct bm_plugin_routine rs[] = { { "r", "d", r, NULL, NULL, -1, -1 } };
BAREMARK_PLUGIN("uses", "d", rs);
C
"$P" build "$T/uses.c" -o "$T/out/uses.efi" > "$T/log" 2>&1; rc=$?
check "printf/malloc: exit 1, nothing written" $([ $rc = 1 ] && [ -z "$(ls "$T/out")" ]; echo $?) "rc $rc"
check "malloc: its line says no heap and points to host->alloc" \
    $(grep -qx 'baremark-plugin: malloc: no heap on bare metal; allocate in setup through host->alloc (freed by baremark)' "$T/log"; echo $?) "$(cat "$T/log")"
check "printf: its line says no console and points to host->log" \
    $(grep -q '^baremark-plugin: printf: no console or stdio on bare metal; .*host->log' "$T/log"; echo $?)
check "atoi: its line names errno" $(grep -q '^baremark-plugin: atoi: errno ' "$T/log"; echo $?)
check "an undefined helper: its line says it is not defined in the sources" \
    $(grep -q '^baremark-plugin: helper_nowhere: not defined in your sources' "$T/log"; echo $?)
check "one line per symbol, four symbols counted" \
    $([ "$(grep -c '^baremark-plugin: [a-z_]*: ' "$T/log")" = 4 ] &&
      grep -q '4 symbol(s) a plug-in cannot use; nothing written' "$T/log"; echo $?) "$(cat "$T/log")"

# No table.
printf '#include "baremark_plugin.h"\nvoid f(uint64_t n, void *d) { }\n' > "$T/notable.c"
"$P" build "$T/notable.c" -o "$T/out/notable.efi" > "$T/log" 2>&1; rc=$?
check "no BAREMARK_PLUGIN table: exit 1 and says so" \
    $([ $rc = 1 ] && grep -q 'no plug-in table: .*BAREMARK_PLUGIN' "$T/log"; echo $?) "rc $rc: $(cat "$T/log")"

# A table that breaks the rules is found at build time (as at boot).
"$P" build tests/fixtures/plugins/dupnames.c -o "$T/out/dup.efi" > "$T/log" 2>&1; rc=$?
check "duplicate routine names: refused at build time with the loader's reason" \
    $([ $rc = 1 ] && grep -q '^baremark-plugin: the table: dup.so: two routines are named "twice"' "$T/log" &&
      grep -q "breaks baremark's rules" "$T/log"; echo $?) "rc $rc: $(cat "$T/log")"
"$P" build --no-check tests/fixtures/plugins/dupnames.c -o "$T/dup.efi" > "$T/log" 2>&1; rc=$?
check "--no-check builds it anyway (the tests' bad plug-ins)" $([ $rc = 0 ] && [ -s "$T/dup.efi" ]; echo $?) "rc $rc: $(cat "$T/log")"

# Absolute addresses in NASM code.
cat > "$T/abs.asm" <<'A'
bits 64
section .data
v: dq 0
section .text
global abs_fn:function hidden
abs_fn:
    mov rax, v
    ret
A
sed 's/mine_asm/abs_fn/; s/"asm_routine", "NASM", abs_fn, NULL, NULL, 4, 1/"a", "b", abs_fn, NULL, NULL, -1, -1/' \
    "$T/src dir/mine.c" > "$T/abs.c"
"$P" build "$T/abs.c" "$T/abs.asm" -o "$T/out/abs.efi" > "$T/log" 2>&1; rc=$?
check "an absolute address in NASM code is refused with a hint (default rel)" \
    $([ $rc = 1 ] && grep -q "default rel" "$T/log"; echo $?) "rc $rc: $(cat "$T/log")"

# Usage errors: exit 2.
"$P" > "$T/log" 2>&1; rc=$?
check "no arguments: one line naming the command and --help, exit 2" \
    $([ $rc = 2 ] && [ "$(wc -l < "$T/log")" = 1 ] && grep -q '^baremark-plugin: .*build.*(baremark-plugin --help)$' "$T/log"; echo $?) "rc $rc"
"$P" --help > "$T/log" 2>&1; rc=$?
check "--help: exit 0, lists the exit codes" $([ $rc = 0 ] && grep -q '^exit status: 0 built; 1 ' "$T/log"; echo $?) "rc $rc"
"$P" build "$T/nothere.c" -o "$T/out/x.efi" > "$T/log" 2>&1; rc=$?
check "a missing source: exit 2, named" $([ $rc = 2 ] && grep -q "no source file $T/nothere.c" "$T/log"; echo $?) "rc $rc"
"$P" build "$T/notable.c" > "$T/log" 2>&1; rc=$?
check "no -o: exit 2" $([ $rc = 2 ] && grep -q 'no output given' "$T/log"; echo $?) "rc $rc"
"$P" build "$T/notable.c" -o "$T/out/x.so" > "$T/log" 2>&1; rc=$?
check "an output not ending in .efi: exit 2" $([ $rc = 2 ] && grep -q 'must end in .efi' "$T/log"; echo $?) "rc $rc"
printf 'x' > "$T/x.txt"
"$P" build "$T/x.txt" -o "$T/out/x.efi" > "$T/log" 2>&1; rc=$?
check "a file that is not C or NASM: exit 2" $([ $rc = 2 ] && grep -q 'not a C (.c) or NASM' "$T/log"; echo $?) "rc $rc"
check "nothing was written by the failures" $([ -z "$(ls "$T/out")" ]; echo $?) "$(ls "$T/out")"
