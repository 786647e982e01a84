/*
 * kernel/trap.c - exception handlers, protected calls, safe MSR access,
 * fault injection (see trap.h).
 */
#include <stddef.h>
#include <string.h>

#include "cpu.h"
#include "platform.h"
#include "percpu.h"
#include "trap.h"

#define TRAP_VECTORS      32
#define TRAP_IDT_ENTRIES  256
#define TRAP_GATE_INT64   0x8E      /* present, DPL 0, 64-bit interrupt gate */
#define TRAP_VEC_NMI      2
#define TRAP_VEC_PF       14
#define TRAP_RFLAGS_IF    (1ull << 9)
#define PTE_PRESENT       1ull
#define PTE_ADDR_MASK     0x000FFFFFFFFFF000ull

/* Saved by trap_call; offsets used by trap_stubs.asm. */
struct trap_jmp {
    uint64_t rbx, rbp, r12, r13, r14, r15, rsp;
    struct trap_jmp *prev;
    int faulted;
    struct plat_fault fault;
};

/* Pushed by trap_common (last pushed first). */
struct trap_frame {
    uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
    uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
    uint64_t vector, error_code;
    uint64_t rip, cs, rflags, rsp, ss;
};

struct idt_gate {
    uint16_t offset_lo, selector;
    uint8_t ist, type;
    uint16_t offset_mid;
    uint32_t offset_hi, reserved;
} __attribute__((packed));

struct idt_ptr {
    uint16_t limit;
    uint64_t base;
} __attribute__((packed));

extern const uint64_t trap_stub_table[TRAP_VECTORS];
extern char trap_landing[];
long trap_call(struct trap_jmp *j, long (*fn)(void *), void *arg);
void trap_dispatch(struct trap_frame *f);

static const char *const trap_names[TRAP_VECTORS] = {
    "#DE divide error", "#DB debug", "NMI", "#BP breakpoint", "#OF overflow",
    "#BR bound range", "#UD invalid opcode", "#NM device not available",
    "#DF double fault", "coprocessor segment overrun", "#TS invalid TSS",
    "#NP segment not present", "#SS stack fault", "#GP general protection",
    "#PF page fault", "reserved 15", "#MF x87 error", "#AC alignment check",
    "#MC machine check", "#XM SIMD error", "#VE virtualization", "#CP control protection",
    "reserved 22", "reserved 23", "reserved 24", "reserved 25", "reserved 26",
    "reserved 27", "#HV hypervisor injection", "#VC VMM communication", "#SX security",
    "reserved 31",
};

static struct idt_gate *trap_idt;       /* our copy, allocated once */
static struct idt_ptr trap_fw_idt;      /* the firmware's, restored at the end */
/* The innermost protected call of each CPU (kernel/percpu.h slot). */
static struct trap_jmp *trap_active[PERCPU_MAX];
static uint64_t trap_nmis;
/* An AP that faulted outside any protected call halts; the BSP reads why. */
static struct plat_fault trap_ap_fatal[PERCPU_MAX];
static volatile int trap_ap_fatal_set[PERCPU_MAX];

static uint64_t trap_read_cr2(void) { uint64_t v; __asm__ volatile("mov %%cr2, %0" : "=r"(v)); return v; }
static uint64_t trap_read_cr3(void) { uint64_t v; __asm__ volatile("mov %%cr3, %0" : "=r"(v)); return v; }
static uint16_t trap_read_cs(void) { uint16_t v; __asm__ volatile("mov %%cs, %0" : "=r"(v)); return v; }

static void trap_set_gate(struct idt_gate *g, uint64_t handler, uint16_t cs)
{
    g->offset_lo = handler & 0xFFFF;
    g->selector = cs;
    g->ist = 0;
    g->type = TRAP_GATE_INT64;
    g->offset_mid = (handler >> 16) & 0xFFFF;
    g->offset_hi = (uint32_t)(handler >> 32);
    g->reserved = 0;
}

/* A fault with no protected call around it: say so on serial and stop. */
static void trap_fatal(const struct trap_frame *f)
{
    out_show("fatal: CPU exception %s (vector %llu) at RIP 0x%llx, error code 0x%llx, CR2 0x%llx, "
             "outside any test: the run cannot continue\n",
             trap_names[f->vector & 31], (unsigned long long)f->vector, (unsigned long long)f->rip,
             (unsigned long long)f->error_code, (unsigned long long)trap_read_cr2());
    out_show("baremark: run ended, status 3 (could not run)\n");
    __asm__ volatile("outb %0, %1" : : "a"((uint8_t)3), "Nd"((uint16_t)0xF4));
    for (;;)
        __asm__ volatile("cli; hlt");
}

/* An AP must not print or end the run: it records the fault and halts with
 * interrupts masked; the BSP's wait for its job times out and reports it. */
static void trap_ap_halt(uint32_t self, const struct trap_frame *f)
{
    struct plat_fault *r = &trap_ap_fatal[self];
    r->vector = f->vector;
    r->error_code = f->error_code;
    r->rip = f->rip;
    r->cr2 = f->vector == TRAP_VEC_PF ? trap_read_cr2() : 0;
    r->name = trap_names[f->vector & 31];
    __atomic_store_n(&trap_ap_fatal_set[self], 1, __ATOMIC_RELEASE);
    for (;;)
        __asm__ volatile("cli; hlt");
}

void trap_dispatch(struct trap_frame *f)
{
    uint32_t self = percpu_self();
    struct trap_jmp *j = trap_active[self];

    if (f->vector == TRAP_VEC_NMI) {
        /* counted and reported; cli cannot stop NMIs */
        __atomic_fetch_add(&trap_nmis, 1, __ATOMIC_RELAXED);
        return;
    }
    if (!j && trap_ap_running(self))
        trap_ap_halt(self, f);
    if (!j)
        trap_fatal(f);
    j->faulted = 1;
    j->fault.vector = f->vector;
    j->fault.error_code = f->error_code;
    j->fault.rip = f->rip;
    j->fault.cr2 = f->vector == TRAP_VEC_PF ? trap_read_cr2() : 0;
    j->fault.name = trap_names[f->vector & 31];
    /* Resume at trap_landing on trap_call's stack, with rdi = j. */
    f->rip = (uint64_t)trap_landing;
    f->rsp = j->rsp;
    f->rdi = (uint64_t)j;
}

int trap_init(void)
{
    struct idt_ptr p;
    uint16_t cs = trap_read_cs();
    void *mem;

    if (trap_idt)
        return 0;
    __asm__ volatile("sidt %0" : "=m"(trap_fw_idt));
    mem = plat_alloc(sizeof(struct idt_gate) * TRAP_IDT_ENTRIES);
    if (!mem) {
        out_warn("exception handlers not installed (no memory): a fault in a test will end the run");
        return -1;
    }
    trap_idt = mem;
    memset(trap_idt, 0, sizeof(struct idt_gate) * TRAP_IDT_ENTRIES);
    memcpy(trap_idt, (void *)trap_fw_idt.base,
           trap_fw_idt.limit + 1u < sizeof(struct idt_gate) * TRAP_IDT_ENTRIES
               ? trap_fw_idt.limit + 1u : sizeof(struct idt_gate) * TRAP_IDT_ENTRIES);
    for (int v = 0; v < TRAP_VECTORS; v++)
        trap_set_gate(&trap_idt[v], trap_stub_table[v], cs);
    p.limit = sizeof(struct idt_gate) * TRAP_IDT_ENTRIES - 1;
    p.base = (uint64_t)trap_idt;
    __asm__ volatile("lidt %0" : : "m"(p));
    out_printf("exceptions: baremark's handlers installed for vectors 0-31 (a fault in a test fails "
               "that test only)\n");
    return 0;
}

void trap_fini(void)
{
    if (!trap_idt)
        return;
    __asm__ volatile("lidt %0" : : "m"(trap_fw_idt));
    trap_idt = NULL;   /* the copy stays allocated: harmless, and simpler */
}

int trap_installed(void) { return trap_idt != NULL; }

/* ---- application processors ------------------------------------------------------ */

static volatile int trap_ap_on[PERCPU_MAX];

int trap_ap_running(uint32_t slot) { return slot < PERCPU_MAX && trap_ap_on[slot]; }

int trap_ap_enter(struct trap_ap_saved *saved)
{
    struct idt_ptr p;
    uint32_t self = percpu_self();
    __asm__ volatile("sidt %0" : "=m"(p));
    saved->limit = p.limit;
    saved->base = p.base;
    trap_ap_on[self] = 1;
    if (!trap_idt)
        return -1;
    p.limit = sizeof(struct idt_gate) * TRAP_IDT_ENTRIES - 1;
    p.base = (uint64_t)trap_idt;
    __asm__ volatile("lidt %0" : : "m"(p));
    return 0;
}

void trap_ap_leave(const struct trap_ap_saved *saved)
{
    struct idt_ptr p = { saved->limit, saved->base };
    __asm__ volatile("lidt %0" : : "m"(p));
    trap_ap_on[percpu_self()] = 0;
}

int trap_ap_fault(uint32_t slot, struct plat_fault *f)
{
    if (slot >= PERCPU_MAX || !__atomic_load_n(&trap_ap_fatal_set[slot], __ATOMIC_ACQUIRE))
        return 0;
    *f = trap_ap_fatal[slot];
    return 1;
}

int trap_run(long (*fn)(void *), void *arg, long *result, struct plat_fault *fault)
{
    struct trap_jmp j;
    long r;

    memset(&j, 0, sizeof j);
    if (!trap_idt) {
        r = fn(arg);
        if (result)
            *result = r;
        return 0;
    }
    uint32_t self = percpu_self();
    j.prev = trap_active[self];
    trap_active[self] = &j;
    r = trap_call(&j, fn, arg);
    trap_active[self] = j.prev;
    if (j.faulted) {
        if (fault)
            *fault = j.fault;
        return -1;
    }
    if (result)
        *result = r;
    return 0;
}

void trap_report(const char *test, const struct plat_fault *f)
{
    out_show("fault in %s: %s (vector %llu) at RIP 0x%llx, error code 0x%llx",
             test, f->name, (unsigned long long)f->vector, (unsigned long long)f->rip,
             (unsigned long long)f->error_code);
    if (f->vector == TRAP_VEC_PF)
        out_show(", address 0x%llx", (unsigned long long)f->cr2);
    out_show("\n");
}

/* ---- MSRs ------------------------------------------------------------------ */

struct trap_msr { uint32_t msr; uint64_t value; };

static long trap_rdmsr_fn(void *arg)
{
    struct trap_msr *m = arg;
    uint32_t lo, hi;
    __asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(m->msr));
    m->value = (uint64_t)hi << 32 | lo;
    return 0;
}

static long trap_wrmsr_fn(void *arg)
{
    struct trap_msr *m = arg;
    __asm__ volatile("wrmsr" : : "c"(m->msr), "a"((uint32_t)m->value), "d"((uint32_t)(m->value >> 32)));
    return 0;
}

int cpu_rdmsr_safe(uint32_t msr, uint64_t *value)
{
    struct trap_msr m = { msr, 0 };
    if (!trap_idt || !cpu_info.has_msr || trap_run(trap_rdmsr_fn, &m, NULL, NULL))
        return -1;
    *value = m.value;
    return 0;
}

int cpu_wrmsr_safe(uint32_t msr, uint64_t value)
{
    struct trap_msr m = { msr, value };
    if (!trap_idt || !cpu_info.has_msr || trap_run(trap_wrmsr_fn, &m, NULL, NULL))
        return -1;
    return 0;
}

/* ---- fault injection ---------------------------------------------------------- */

/* A canonical lower-half address whose PML4 (or PDPT) entry is not present:
 * touching it must page-fault whatever the firmware mapped. */
static uint64_t trap_unmapped_address(void)
{
    const uint64_t *pml4 = (const uint64_t *)(trap_read_cr3() & PTE_ADDR_MASK);
    for (uint64_t i = 1; i < 256; i++)
        if (!(pml4[i] & PTE_PRESENT))
            return i << 39;
    for (uint64_t i = 255; i > 0; i--) {
        const uint64_t *pdpt = (const uint64_t *)(pml4[i] & PTE_ADDR_MASK);
        for (uint64_t k = 0; k < 512; k++)
            if (!(pdpt[k] & PTE_PRESENT))
                return i << 39 | k << 30;
    }
    return 0;
}

long trap_inject(void *kind)
{
    const char *k = kind;
    if (!strcmp(k, "divide")) {
        uint32_t zero = 0;
        __asm__ volatile("xor %%edx, %%edx; mov $1, %%eax; divl %0" : : "r"(zero) : "eax", "edx");
    } else if (!strcmp(k, "opcode")) {
        __asm__ volatile("ud2");
    } else if (!strcmp(k, "hang")) {
        /* An AP that stops answering: spin with interrupts masked.  Never
         * the bootstrap processor: nothing would end the run. */
        if (!trap_ap_running(percpu_self()))
            return 0;
        for (;;)
            __asm__ volatile("cli; pause" : : : "memory");
    } else if (!strcmp(k, "page")) {
        volatile uint64_t *p = (volatile uint64_t *)trap_unmapped_address();
        if (p)
            return (long)*p;
    }
    return 0;
}

uint64_t trap_nmi_count(void) { return trap_nmis; }
