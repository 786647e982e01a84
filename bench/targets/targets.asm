; bench/targets/targets.asm - routines of known cost to time with the methods.
;
; Every target has the driver signature of Apple's MeasureNetTimeInCPUCycles
; (seed 001): void target(uint64_t iterations, void *data), System V ABI.
; Instruction counts are exact (bench/targets/targets.h repeats them for the tests):
; on a machine that counts instructions (QEMU -icount shift=0: one tick per
; instruction) the net times below are what the engine must find.
;
;   bm_target_placeholder, bm_target_empty   1 instruction (ret), whatever
;       the iteration count: two separate copies, so that "empty minus
;       placeholder" is a real measurement.
;   bm_target_addK (K = 1, 10, 100, 1000)   4 + iterations * (K + 2):
;       mov, test, jz, ret, and per iteration K dependent adds (add rax, rax:
;       register to register, so no renamer can fold it away), dec, jnz.
;       (iterations = 0: xor, test, jz taken, ret = 4.)
;   bm_target_foo, bm_target_foobar          3 + iterations * 28:
;       test, jz, ret, and per iteration Karsh's Foo (seed 000): mov ecx, 5
;       and five times {load x, multiply by y, store x, dec, jnz}, then dec,
;       jnz.  data points to two int64 {x, y}.  FooBar is an identical copy,
;       as in Karsh's TestFuncs.

bits 64
default rel
section .text

global bm_target_placeholder
global bm_target_empty

    align 64
bm_target_placeholder:
    ret

    align 64
bm_target_empty:
    ret

; ---- chains of K dependent adds ------------------------------------------------

%macro ADDCHAIN 1
global bm_target_add%1
    align 64
bm_target_add%1:
    mov eax, 1
    test rdi, rdi
    jz .done
.loop:
%rep %1
    add rax, rax            ; each add waits for the previous one
%endrep
    dec rdi
    jnz .loop
.done:
    ret
%endmacro

ADDCHAIN 1
ADDCHAIN 10
ADDCHAIN 100
ADDCHAIN 1000

; ---- Karsh's Foo: *x *= *y five times --------------------------------------------

%macro FOO 1
global bm_target_%1
    align 64
bm_target_%1:
    test rdi, rdi
    jz .done
.outer:
    mov ecx, 5
.inner:
    mov rax, [rsi]          ; x
    imul rax, [rsi + 8]     ; x * y: each multiply depends on the last store
    mov [rsi], rax
    dec ecx
    jnz .inner
    dec rdi
    jnz .outer
.done:
    ret
%endmacro

FOO foo
FOO foobar

section .note.GNU-stack noalloc noexec nowrite progbits
