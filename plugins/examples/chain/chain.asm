; plugins/examples/chain/chain.asm - dependent add chains written in NASM,
; with exact instruction counts (chain.c's table repeats them).
;
; A routine has the C signature void f(uint64_t iterations, void *data),
; System V ABI: iterations in rdi, data in rsi; rax, rcx, rdx, rsi, rdi and
; r8-r11 may be changed, every other register must be kept.
;
; chain_addK, counted exactly:
;   entry    mov ecx, 3 / xor eax, eax / test rdi, rdi / jz .done    4
;   loop     K x add rax, rcx, then dec rdi, jnz .loop               K + 2
;   exit     ret                                                     1
; so one call executes 5 + iterations * (K + 2) instructions
; (iterations = 0: the four entry instructions with jz taken, then ret = 5).
; Under QEMU -icount shift=0 (one instruction per tick) chain_add1000 minus
; chain_add100 is exactly 900 ticks per iteration.

bits 64
default rel                     ; position-independent: required for plug-ins
section .text

%macro CHAIN 1
global chain_add%1:function hidden
    align 64
chain_add%1:
    mov ecx, 3
    xor eax, eax
    test rdi, rdi
    jz .done
.loop:
%rep %1
    add rax, rcx                ; each add waits for the one before
%endrep
    dec rdi
    jnz .loop
.done:
    ret
%endmacro

CHAIN 100
CHAIN 1000

section .note.GNU-stack noalloc noexec nowrite progbits
