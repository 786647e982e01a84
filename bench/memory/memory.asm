; bench/memory/memory.asm - the memory section's kernels, with the driver signature
; of bench/targets/targets.h: void f(uint64_t iterations, void *data).
;
; bm_mem_chase: data points at a pointer p; iterations x 16 dependent loads
;   p = *p, then p is stored back.  Instructions: 5 fixed (mov, test, jz,
;   mov, ret) + 18 per iteration (16 loads, dec, jnz): bench/memory/memory.h.
;
; The bandwidth kernels, one per vector width (sse2: 16-byte xmm, avx:
; 32-byte ymm, avx512: 64-byte zmm; bench/memory/memory_bw.c runs a width only
; where CPUID and XCR0 allow it).  data points at struct memory_bw_arg
; { uint8_t *base; uint64_t bytes; uint8_t *dst; uint8_t *src2; };
; `iterations` passes over `bytes` bytes, a multiple of 256 (one unrolled
; block), every address aligned to the width.
;   read:     loads from base (into one register: renaming removes the
;             false dependency; nothing is computed from them)
;   write:    stores to base of a non-zero pattern that changes every pass
;             (the pass number as a double in every lane): recent cores can
;             drop stores of zeros and stores of the value already there
;   write_nt: the same with non-temporal stores (movntdq), sfence after
;             each pass so the stores have left the core before the stop
;   copy:     loads from base, stores to dst
;   triad:    STREAM's a[i] = b[i] + q * c[i] on doubles, a = dst, b = base,
;             c = src2, q = 3 (the arrays hold normal doubles: denormal
;             operands would cost microcode assists, not memory time)
; The AVX kernels end with vzeroupper (the C around them uses SSE).
;
; Instruction counts (tests/boot/test_memory.sh derives its exact ticks
; from them; B = 256 / width, the vectors per block):
;   read     fixed 3 (+1 vzeroupper), per pass 6 + blocks * (B + 3)
;   write    the same, per pass 8 (sse2 and avx512: 2 for the pattern) or
;            9 (avx: 3) + blocks * (B + 3)
;   write_nt as write, + 1 (sfence) per pass
;   copy     fixed 3 (+1), per pass 7 + blocks * (2B + 4)
;   triad    fixed 6 (sse2, avx512: 3 for q) or 7 (avx: 4) (+1), per pass
;            8 + blocks * (k*B + 5), k = 4 (sse2) or 3 (avx, avx512)

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

; ---- the pattern and q, per width ---------------------------------------------------
; PATTERN_x: reg0 = (double)rdi in every lane.  Q_x: reg1 = 3.0 in every lane.
%macro PATTERN_sse2 0
    cvtsi2sd xmm0, rdi
    unpcklpd xmm0, xmm0
%endmacro
%macro PATTERN_avx 0
    vcvtsi2sd xmm0, xmm0, rdi
    vunpcklpd xmm0, xmm0, xmm0
    vinsertf128 ymm0, ymm0, xmm0, 1
%endmacro
%macro PATTERN_avx512 0
    vcvtsi2sd xmm0, xmm0, rdi
    vbroadcastsd zmm0, xmm0
%endmacro
%macro Q_sse2 0
    mov eax, 3
    cvtsi2sd xmm1, eax
    unpcklpd xmm1, xmm1
%endmacro
%macro Q_avx 0
    mov eax, 3
    vcvtsi2sd xmm1, xmm1, eax
    vunpcklpd xmm1, xmm1, xmm1
    vinsertf128 ymm1, ymm1, xmm1, 1
%endmacro
%macro Q_avx512 0
    mov eax, 3
    vcvtsi2sd xmm1, xmm1, eax
    vbroadcastsd zmm1, xmm1
%endmacro
%macro LEAVE_sse2 0
%endmacro
%macro LEAVE_avx 0
    vzeroupper
%endmacro
%macro LEAVE_avx512 0
    vzeroupper
%endmacro

; ---- one element of a block, per width -------------------------------------------------
%macro LOAD_sse2 1
    movdqa xmm0, [rax + %1]
%endmacro
%macro LOAD_avx 1
    vmovdqa ymm0, [rax + %1]
%endmacro
%macro LOAD_avx512 1
    vmovdqa64 zmm0, [rax + %1]
%endmacro
%macro STORE_sse2 2                ; base register, offset
    movdqa [%1 + %2], xmm0
%endmacro
%macro STORE_avx 2
    vmovdqa [%1 + %2], ymm0
%endmacro
%macro STORE_avx512 2
    vmovdqa64 [%1 + %2], zmm0
%endmacro
%macro STORENT_sse2 1
    movntdq [rax + %1], xmm0
%endmacro
%macro STORENT_avx 1
    vmovntdq [rax + %1], ymm0
%endmacro
%macro STORENT_avx512 1
    vmovntdq [rax + %1], zmm0
%endmacro
%macro TRIAD_sse2 1                ; a = b + q * c: rdx = a, rax = b, r8 = c
    movapd xmm0, [r8 + %1]
    mulpd xmm0, xmm1
    addpd xmm0, [rax + %1]
    movapd [rdx + %1], xmm0
%endmacro
%macro TRIAD_avx 1
    vmulpd ymm0, ymm1, [r8 + %1]
    vaddpd ymm0, ymm0, [rax + %1]
    vmovapd [rdx + %1], ymm0
%endmacro
%macro TRIAD_avx512 1
    vmulpd zmm0, zmm1, [r8 + %1]
    vaddpd zmm0, zmm0, [rax + %1]
    vmovapd [rdx + %1], zmm0
%endmacro

; ---- the kernels, per width ------------------------------------------------------------
%define BLOCK 256

%macro KERNELS 2                   ; width name, bytes per vector
global bm_mem_read_%1
    align 64
bm_mem_read_%1:
    test rdi, rdi
    jz .done
.pass:
    mov rax, [rsi]
    mov rcx, [rsi + 8]
    shr rcx, 8
    jz .next
.blk:
%assign k 0
%rep BLOCK / %2
    LOAD_%1 k
%assign k k + %2
%endrep
    add rax, BLOCK
    dec rcx
    jnz .blk
.next:
    dec rdi
    jnz .pass
.done:
    LEAVE_%1
    ret

global bm_mem_write_%1
    align 64
bm_mem_write_%1:
    test rdi, rdi
    jz .done
.pass:
    PATTERN_%1
    mov rax, [rsi]
    mov rcx, [rsi + 8]
    shr rcx, 8
    jz .next
.blk:
%assign k 0
%rep BLOCK / %2
    STORE_%1 rax, k
%assign k k + %2
%endrep
    add rax, BLOCK
    dec rcx
    jnz .blk
.next:
    dec rdi
    jnz .pass
.done:
    LEAVE_%1
    ret

global bm_mem_write_nt_%1
    align 64
bm_mem_write_nt_%1:
    test rdi, rdi
    jz .done
.pass:
    PATTERN_%1
    mov rax, [rsi]
    mov rcx, [rsi + 8]
    shr rcx, 8
    jz .next
.blk:
%assign k 0
%rep BLOCK / %2
    STORENT_%1 k
%assign k k + %2
%endrep
    add rax, BLOCK
    dec rcx
    jnz .blk
.next:
    sfence
    dec rdi
    jnz .pass
.done:
    LEAVE_%1
    ret

global bm_mem_copy_%1
    align 64
bm_mem_copy_%1:
    test rdi, rdi
    jz .done
.pass:
    mov rax, [rsi]
    mov rdx, [rsi + 16]
    mov rcx, [rsi + 8]
    shr rcx, 8
    jz .next
.blk:
%assign k 0
%rep BLOCK / %2
    LOAD_%1 k
    STORE_%1 rdx, k
%assign k k + %2
%endrep
    add rax, BLOCK
    add rdx, BLOCK
    dec rcx
    jnz .blk
.next:
    dec rdi
    jnz .pass
.done:
    LEAVE_%1
    ret

global bm_mem_triad_%1
    align 64
bm_mem_triad_%1:
    Q_%1
    test rdi, rdi
    jz .done
.pass:
    mov rax, [rsi]
    mov rdx, [rsi + 16]
    mov r8, [rsi + 24]
    mov rcx, [rsi + 8]
    shr rcx, 8
    jz .next
.blk:
%assign k 0
%rep BLOCK / %2
    TRIAD_%1 k
%assign k k + %2
%endrep
    add rax, BLOCK
    add rdx, BLOCK
    add r8, BLOCK
    dec rcx
    jnz .blk
.next:
    dec rdi
    jnz .pass
.done:
    LEAVE_%1
    ret
%endmacro

KERNELS sse2, 16
KERNELS avx, 32
KERNELS avx512, 64

section .note.GNU-stack noalloc noexec nowrite progbits
