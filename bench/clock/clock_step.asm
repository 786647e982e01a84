; bench/clock/clock_step.asm - back-to-back counter reads around a delay of a
; chosen length, for the counter's effective step (bench/clock/clock_step.c).
;
;   uint64_t bm_step_pair(uint64_t delay)       (System V ABI, image and host)
;       lfence; rdtsc; `delay` single instructions; lfence; rdtsc;
;       returns the second read less the first, in ticks.
;
; The delay is a sled of STEP_SLED one-instruction steps (inc ecx, each
; depending on the one before, so a CPU cannot run them all at once and an
; emulator cannot drop them), entered delay % STEP_SLED instructions before
; its end, then passed whole delay / STEP_SLED more times.  Under QEMU
; -icount, where a tick is an instruction, the increments then take every
; value of an interval, not only the multiples of a loop body's length.

bits 64
default rel
section .text

%define STEP_SLED 256

global bm_step_pair
bm_step_pair:
    mov rax, rdi
    xor edx, edx
    mov r8d, STEP_SLED
    div r8                      ; rax: whole passes, rdx: the first pass's length
    mov r10, rax
    lea r8, [.sled_end]
    sub r8, rdx
    sub r8, rdx                 ; inc ecx is 2 bytes
    lfence
    rdtsc
    shl rdx, 32
    or rax, rdx
    mov r9, rax
    jmp r8
.sled:
    times STEP_SLED inc ecx
.sled_end:
    sub r10, 1
    jae .sled                   ; no borrow: another whole pass
    lfence
    rdtsc
    shl rdx, 32
    or rax, rdx
    sub rax, r9
    ret

section .note.GNU-stack noalloc noexec nowrite progbits
