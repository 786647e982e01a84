; kernel/mp_stubs.asm - run a function on another stack (boot/mp.c: an AP's
; worker runs on a stack the BSP allocated, larger than the firmware's).
;
; long mp_call_on_stack(long (*fn)(void *), void *arg, void *stack_top)
; System V: rdi = fn, rsi = arg, rdx = stack_top (16-byte aligned).
bits 64
default rel
section .text

global mp_call_on_stack
mp_call_on_stack:
    push rbp
    mov rbp, rsp
    mov rsp, rdx
    mov rax, rdi
    mov rdi, rsi
    call rax
    mov rsp, rbp
    pop rbp
    ret

section .note.GNU-stack noalloc noexec nowrite progbits
