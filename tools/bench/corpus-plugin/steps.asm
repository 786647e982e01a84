; tools/bench/corpus-plugin/steps.asm - a dependent add chain run a given
; number of passes per iteration: the history corpus's add routines
; (steps.c) all call this one piece of code, so that they differ only in
; how many passes they make, never in where their code lies (under TCG the
; cost of a chain depends on how its translation blocks fall, which would
; plant steps nobody chose).
;
; steps_chain(iterations, data): data points at a uint64_t P, the passes
; per iteration; each pass is 2000 `add rax, rcx`, each waiting for the
; one before.  One call executes
;   6 + iterations * (3 + P * 2002)
; instructions: entry mov, xor, mov r8 [data], test, jz (5); per
; iteration mov rdx, r8 (1), P passes of (2000 adds, dec rdx, jnz) and
; dec rdi, jnz (2); exit ret (1): 6 + iterations * (3 + P * 2002).

bits 64
default rel
section .text

global steps_chain:function hidden
    align 64
steps_chain:
    mov ecx, 3
    xor eax, eax
    mov r8, [rsi]
    test rdi, rdi
    jz .done
.iteration:
    mov rdx, r8
.pass:
%rep 2000
    add rax, rcx
%endrep
    dec rdx
    jnz .pass
    dec rdi
    jnz .iteration
.done:
    ret

section .note.GNU-stack noalloc noexec nowrite progbits
