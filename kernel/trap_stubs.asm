; kernel/trap_stubs.asm - exception entry points and the protected call.
;
; Each stub pushes an error code (a zero where the CPU pushes none) and its
; vector, saves the general registers and calls trap_dispatch(frame).  The
; frame layout matches struct trap_frame in kernel/trap.c.

bits 64
default rel
section .text

extern trap_dispatch
global trap_stub_table
global trap_call
global trap_landing

%macro STUB 1
trap_stub_%1:
%if %1 = 8 || (%1 >= 10 && %1 <= 14) || %1 = 17 || %1 = 21 || %1 = 29 || %1 = 30
%else
    push qword 0
%endif
    push qword %1
    jmp trap_common
%endmacro

%assign v 0
%rep 32
STUB v
%assign v v+1
%endrep

trap_common:
    push rax
    push rbx
    push rcx
    push rdx
    push rsi
    push rdi
    push rbp
    push r8
    push r9
    push r10
    push r11
    push r12
    push r13
    push r14
    push r15
    cld
    mov rdi, rsp
    mov rbx, rsp            ; callee-saved: the frame, to restore rsp
    and rsp, -16
    sub rsp, 512            ; room to save the SSE state the C code may use
    fxsave [rsp]
    call trap_dispatch
    fxrstor [rsp]
    mov rsp, rbx
    pop r15
    pop r14
    pop r13
    pop r12
    pop r11
    pop r10
    pop r9
    pop r8
    pop rbp
    pop rdi
    pop rsi
    pop rdx
    pop rcx
    pop rbx
    pop rax
    add rsp, 16             ; vector and error code
    iretq

; long trap_call(struct trap_jmp *j, long (*fn)(void *), void *arg)
; Saves the callee-saved registers and the stack pointer in *j, then calls
; fn(arg).  A fault inside fn lands at trap_landing (rdi = j), which
; restores them and returns -1 to trap_call's caller.
trap_call:
    mov [rdi + 0], rbx
    mov [rdi + 8], rbp
    mov [rdi + 16], r12
    mov [rdi + 24], r13
    mov [rdi + 32], r14
    mov [rdi + 40], r15
    mov [rdi + 48], rsp
    push rdi                ; keeps the stack 16-byte aligned for the call
    mov rax, rsi
    mov rdi, rdx
    call rax
    pop rdi
    ret

trap_landing:
    mov rbx, [rdi + 0]
    mov rbp, [rdi + 8]
    mov r12, [rdi + 16]
    mov r13, [rdi + 24]
    mov r14, [rdi + 32]
    mov r15, [rdi + 40]
    mov rsp, [rdi + 48]
    mov rax, -1
    ret

section .data
align 8
trap_stub_table:
%assign v 0
%rep 32
    dq trap_stub_ %+ v
%assign v v+1
%endrep

section .note.GNU-stack noalloc noexec nowrite progbits
