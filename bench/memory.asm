; bench/memory.asm - the memory section's kernels, with the driver signature
; of bench/targets.h: void f(uint64_t iterations, void *data).
;
; bm_mem_chase: data points at a pointer p; iterations x 16 dependent loads
;   p = *p, then p is stored back.  Instructions: 5 fixed (mov, test, jz,
;   mov, ret) + 18 per iteration (16 loads, dec, jnz): bench/memory.h.
; bm_mem_read / bm_mem_write / bm_mem_copy: data points at
;   { uint8_t *base; uint64_t bytes; uint8_t *dst; }; iterations passes over
;   `bytes` bytes (a multiple of 64, 16-byte aligned) with 16-byte SSE2 loads,
;   stores of zeros, or loads from base and stores to dst.

bits 64
default rel
section .text

global bm_mem_chase
    align 64
bm_mem_chase:
    mov rax, [rsi]
    test rdi, rdi
    jz .done
.loop:
%rep 16
    mov rax, [rax]
%endrep
    dec rdi
    jnz .loop
.done:
    mov [rsi], rax
    ret

global bm_mem_read
    align 64
bm_mem_read:
    test rdi, rdi
    jz .done
.pass:
    mov rax, [rsi]
    mov rcx, [rsi + 8]
    shr rcx, 6
    jz .next
.line:
    movdqa xmm0, [rax]
    movdqa xmm1, [rax + 16]
    movdqa xmm2, [rax + 32]
    movdqa xmm3, [rax + 48]
    add rax, 64
    dec rcx
    jnz .line
.next:
    dec rdi
    jnz .pass
.done:
    ret

global bm_mem_write
    align 64
bm_mem_write:
    pxor xmm0, xmm0
    test rdi, rdi
    jz .done
.pass:
    mov rax, [rsi]
    mov rcx, [rsi + 8]
    shr rcx, 6
    jz .next
.line:
    movdqa [rax], xmm0
    movdqa [rax + 16], xmm0
    movdqa [rax + 32], xmm0
    movdqa [rax + 48], xmm0
    add rax, 64
    dec rcx
    jnz .line
.next:
    dec rdi
    jnz .pass
.done:
    ret

global bm_mem_copy
    align 64
bm_mem_copy:
    test rdi, rdi
    jz .done
.pass:
    mov rax, [rsi]
    mov rdx, [rsi + 16]
    mov rcx, [rsi + 8]
    shr rcx, 6
    jz .next
.line:
    movdqa xmm0, [rax]
    movdqa xmm1, [rax + 16]
    movdqa xmm2, [rax + 32]
    movdqa xmm3, [rax + 48]
    movdqa [rdx], xmm0
    movdqa [rdx + 16], xmm1
    movdqa [rdx + 32], xmm2
    movdqa [rdx + 48], xmm3
    add rax, 64
    add rdx, 64
    dec rcx
    jnz .line
.next:
    dec rdi
    jnz .pass
.done:
    ret

section .note.GNU-stack noalloc noexec nowrite progbits
