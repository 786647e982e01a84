; bench/methods/pmu.asm - the timing methods' brackets with the performance counters:
; for each method of bench/methods/methods.asm the same fences, with the TSC read and
; then the three counters read (rdpmc) between them.
;
;   void bm_pmu_NAME(void (*routine)(uint64_t, void *), uint64_t iterations,
;                    void *data, const struct pmu_sel *sel, struct pmu_raw *raw)
;
; sel: three uint32_t rdpmc selectors (cycles, instructions, reference
; cycles); raw: start[4] then stop[4], each the TSC then the three counters
; (bench/methods/pmu.h).  A method's start (= stop) sequence is split into what comes
; before its counter read and what comes after it; here the counter read is
; the TSC read followed by the three rdpmc, so every counter is read inside
; the method's own fences.  rdpmc needs CR4.PCE only outside ring 0; the
; image runs in ring 0 (the host program never calls these).

bits 64
default rel
section .text

%macro PRE_none 0
%endmacro
%macro PRE_cpuid 0
    xor eax, eax
    cpuid
%endmacro
%macro PRE_lfence 0
    lfence
%endmacro
%macro PRE_sdm 0
    mfence
    lfence
%endmacro
%macro POST_none 0
%endmacro
%macro POST_lfence 0
    lfence
%endmacro

; READ pre, tscread, post, offset-in-raw
%macro READ 4
    PRE_%1
    %2
    shl rdx, 32
    or rax, rdx
    mov [rbp + %4], rax
    mov ecx, [r15]
    rdpmc
    shl rdx, 32
    or rax, rdx
    mov [rbp + %4 + 8], rax
    mov ecx, [r15 + 4]
    rdpmc
    shl rdx, 32
    or rax, rdx
    mov [rbp + %4 + 16], rax
    mov ecx, [r15 + 8]
    rdpmc
    shl rdx, 32
    or rax, rdx
    mov [rbp + %4 + 24], rax
    POST_%3
%endmacro

; PMU_METHOD name, pre, tscread, post
%macro PMU_METHOD 4
global bm_pmu_%1
    align 64
bm_pmu_%1:
    push rbx
    push rbp
    push r12
    push r13
    push r14
    push r15
    sub rsp, 8              ; six pushes + 8: rsp 16-byte aligned for the call
    mov r12, rdi            ; routine
    mov r13, rsi            ; iterations
    mov r14, rdx            ; data
    mov r15, rcx            ; sel
    mov rbp, r8             ; raw
    READ %2, %3, %4, 0
    mov rdi, r13
    mov rsi, r14
    call r12
    READ %2, %3, %4, 32
    add rsp, 8
    pop r15
    pop r14
    pop r13
    pop r12
    pop rbp
    pop rbx
    ret
%endmacro

PMU_METHOD cpuid_rdtsc,         cpuid,  rdtsc,  none
PMU_METHOD lfence_rdtsc,        lfence, rdtsc,  none
PMU_METHOD lfence_rdtsc_lfence, lfence, rdtsc,  lfence
PMU_METHOD rdtscp,              none,   rdtscp, none
PMU_METHOD lfence_rdtscp,       lfence, rdtscp, none
PMU_METHOD cpuid_rdtscp,        cpuid,  rdtscp, none
PMU_METHOD rdtscp_lfence,       none,   rdtscp, lfence
PMU_METHOD rdtsc,               none,   rdtsc,  none
PMU_METHOD sdm,                 sdm,    rdtsc,  lfence

section .note.GNU-stack noalloc noexec nowrite progbits
