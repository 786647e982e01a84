; bench/methods/methods.asm - the nine ways of reading the time-stamp counter around a
; routine: CodeTune's eight fence/counter methods (seed 004) and, as a ninth,
; the sequence Intel's SDM gives in its RDTSC reference (MFENCE;LFENCE before
; the read so every earlier instruction and store has completed, LFENCE after
; it so no later instruction starts early).  CodeTune uses the same sequence to
; start and to stop; so does every method here.
;
; For each method NAME two routines (System V ABI, image and host alike):
;
;   uint64_t bm_method_NAME(void (*routine)(uint64_t iterations, void *data),
;                           uint64_t iterations, void *data)
;       start sequence, call routine(iterations, data), stop sequence;
;       returns stop - start in TSC ticks.
;   uint64_t bm_null_NAME(void)
;       start sequence immediately followed by the stop sequence: the
;       method's own cost (back-to-back reads).
;
; What executes between the two counter reads, beyond the routine itself, is
; fixed and listed here so a deterministic machine (QEMU -icount) can be
; reasoned about exactly:
;   after the start read:  shl rdx, 32 / or rax, rdx / mov r15, rax /
;                          mov rdi, r13 / mov rsi, r14 / call r12
;   before the stop read:  the stop sequence up to its counter read.
; bench/methods/methods.c holds the same sequences as text (methods_table) and the
; unit test compares them with these bytes.
;
; The method routines never touch memory other than the stack: rdtscp's
; TSC_AUX value in ecx is discarded; cpuid clobbers rbx, which is saved.

bits 64
default rel
section .text

; ---- the start/stop sequences -------------------------------------------------
; Each leaves the counter in edx:eax.

%macro SEQ_cpuid_rdtsc 0
    xor eax, eax
    cpuid
    rdtsc
%endmacro

%macro SEQ_lfence_rdtsc 0
    lfence
    rdtsc
%endmacro

%macro SEQ_lfence_rdtsc_lfence 0
    lfence
    rdtsc
    lfence
%endmacro

%macro SEQ_rdtscp 0
    rdtscp
%endmacro

%macro SEQ_lfence_rdtscp 0
    lfence
    rdtscp
%endmacro

%macro SEQ_cpuid_rdtscp 0
    xor eax, eax
    cpuid
    rdtscp
%endmacro

%macro SEQ_rdtscp_lfence 0
    rdtscp
    lfence
%endmacro

%macro SEQ_rdtsc 0
    rdtsc
%endmacro

%macro SEQ_sdm 0
    mfence
    lfence
    rdtsc
    lfence
%endmacro

; ---- one method: its bracketing routine and its back-to-back routine ----------

%macro METHOD 1
global bm_method_%1
global bm_null_%1
    align 64
bm_method_%1:
    push rbx
    push r12
    push r13
    push r14
    push r15                ; five pushes: rsp is 16-byte aligned for the call
    mov r12, rdi            ; routine
    mov r13, rsi            ; iterations
    mov r14, rdx            ; data
    SEQ_%1
    shl rdx, 32
    or rax, rdx
    mov r15, rax            ; start
    mov rdi, r13
    mov rsi, r14
    call r12
    SEQ_%1
    shl rdx, 32
    or rax, rdx
    sub rax, r15            ; stop - start
    pop r15
    pop r14
    pop r13
    pop r12
    pop rbx
    ret

    align 64
bm_null_%1:
    push rbx
    push r15
    SEQ_%1
    shl rdx, 32
    or rax, rdx
    mov r15, rax
    SEQ_%1
    shl rdx, 32
    or rax, rdx
    sub rax, r15
    pop r15
    pop rbx
    ret
%endmacro

METHOD cpuid_rdtsc
METHOD lfence_rdtsc
METHOD lfence_rdtsc_lfence
METHOD rdtscp
METHOD lfence_rdtscp
METHOD cpuid_rdtscp
METHOD rdtscp_lfence
METHOD rdtsc
METHOD sdm

; ---- CPUID for portable C -------------------------------------------------------
; void bm_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t out[4]) : eax ebx ecx edx
global bm_cpuid
bm_cpuid:
    push rbx
    mov r8, rdx
    mov eax, edi
    mov ecx, esi
    cpuid
    mov [r8], eax
    mov [r8 + 4], ebx
    mov [r8 + 8], ecx
    mov [r8 + 12], edx
    pop rbx
    ret

section .note.GNU-stack noalloc noexec nowrite progbits
