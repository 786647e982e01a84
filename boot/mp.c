/*
 * boot/mp.c - the other processors through EFI_MP_SERVICES_PROTOCOL (see
 * mp.h).  The protocol is declared here from the UEFI PI specification
 * (volume 2, "MP Services Protocol"): GNU-EFI 3.0.15 has no header for it.
 */
#include <efi.h>
#include <efilib.h>
#include <string.h>

#include "cpu.h"
#include "mp.h"
#include "platform.h"
#include "percpu.h"
#include "trap.h"

/* ---- the protocol (PI spec vol. 2) -------------------------------------------- */

#define MP_PROTOCOL_GUID \
    { 0x3fdda605, 0xa76e, 0x4f46, { 0xad, 0x29, 0x12, 0xf4, 0x53, 0x1b, 0x3d, 0x08 } }
/* Ask GetProcessorInfo for ExtendedInformation too (PI 1.7). */
#define MP_EXTENDED_TOPOLOGY (1u << 24)

struct mp_location { UINT32 package, core, thread; };
struct mp_location2 { UINT32 package, module, tile, die, core, thread; };

struct mp_processor_information {
    UINT64 processor_id;
    UINT32 status_flag;
    struct mp_location location;
    struct mp_location2 location2;     /* ExtendedInformation */
};

typedef VOID (EFIAPI *mp_ap_procedure)(VOID *arg);

struct mp_services {
    EFI_STATUS (EFIAPI *get_number_of_processors)(struct mp_services *self, UINTN *count,
                                                 UINTN *enabled);
    EFI_STATUS (EFIAPI *get_processor_info)(struct mp_services *self, UINTN number,
                                           struct mp_processor_information *info);
    EFI_STATUS (EFIAPI *startup_all_aps)(struct mp_services *self, mp_ap_procedure proc,
                                        BOOLEAN single_thread, EFI_EVENT wait_event,
                                        UINTN timeout_us, VOID *arg, UINTN **failed);
    EFI_STATUS (EFIAPI *startup_this_ap)(struct mp_services *self, mp_ap_procedure proc,
                                        UINTN number, EFI_EVENT wait_event, UINTN timeout_us,
                                        VOID *arg, BOOLEAN *finished);
    EFI_STATUS (EFIAPI *switch_bsp)(struct mp_services *self, UINTN number, BOOLEAN enable_old);
    EFI_STATUS (EFIAPI *enable_disable_ap)(struct mp_services *self, UINTN number,
                                          BOOLEAN enable, UINT32 *health);
    EFI_STATUS (EFIAPI *who_am_i)(struct mp_services *self, UINTN *number);
};

/* ---- types ---------------------------------------------------------------------- */

/* One worker's mailbox: its own cache lines (128 bytes: adjacent-line
 * prefetch pairs lines), so polling one never disturbs another. */
struct mp_mailbox {
    volatile uint32_t posted;          /* BSP: sequence of the last call posted */
    volatile uint32_t finished;        /* AP: sequence of the last call finished */
    volatile int exit;                 /* BSP: return to the firmware */
    volatile int answered;             /* AP: 1 in the loop, 2 back to the firmware,
                                        * 3 gave up: StartupThisAP never returned */
    volatile int launched;             /* BSP: StartupThisAP returned */
    uint64_t answer_ticks;             /* how long the AP waits for launched */
    int state;                         /* enum plat_worker_state, the BSP's view */
    long (*fn)(void *);
    void *arg;
    long result;
    int faulted;
    struct plat_fault fault;
    void *stack_top;
    uint64_t status;                   /* StartupThisAP's answer */
    EFI_EVENT event;                   /* for the non-blocking call */
    uint32_t cpu;
} __attribute__((aligned(128)));

struct mp_arena {
    uint8_t *base;
    size_t size, top;
    uint32_t live;
};

/* ---- private variables ---------------------------------------------------------- */

static struct mp_services *mp_proto;
static const struct plat_cpus *mp_list;
static struct mp_mailbox *mp_boxes;    /* mp_list->count, by processor number */
static void *mp_boxes_raw, *mp_stacks;
static struct mp_arena *mp_arenas;     /* mp_list->count, or NULL */
static volatile int mp_workers_active;
/* What became of each worker, kept after the mailboxes are freed. */
static uint8_t mp_final_state[PLAT_MAX_CPUS];
static uint64_t mp_final_status[PLAT_MAX_CPUS];

/* kernel/mp_stubs.asm: call fn(arg) on another stack. */
long mp_call_on_stack(long (*fn)(void *), void *arg, void *stack_top);

/* ---- the list of processors ---------------------------------------------------- */

static void mp_read_cpu(uint32_t n, struct plat_cpu *c)
{
    struct mp_processor_information info;
    memset(&info, 0, sizeof info);
    c->number = n;
    EFI_STATUS s = mp_proto->get_processor_info(mp_proto, n | MP_EXTENDED_TOPOLOGY, &info);
    if (s == EFI_SUCCESS) {
        c->has_location2 = 1;
    } else {
        memset(&info, 0, sizeof info);
        s = mp_proto->get_processor_info(mp_proto, n, &info);
        if (s != EFI_SUCCESS)
            return;
    }
    c->apic_id = info.processor_id;
    c->flags = info.status_flag;
    c->package = info.location.package;
    c->core = info.location.core;
    c->thread = info.location.thread;
    if (c->has_location2) {
        c->module = info.location2.module;
        c->tile = info.location2.tile;
        c->die = info.location2.die;
    }
}

const char *plat_cpus_init(struct plat_cpus *mi)
{
    EFI_GUID guid = MP_PROTOCOL_GUID;
    UINTN count = 0, enabled = 0, self = 0;
    static uint64_t ids[PLAT_MAX_CPUS];

    memset(mi, 0, sizeof *mi);
    mi->why = "";
    if (BS->LocateProtocol(&guid, NULL, (void **)&mp_proto) != EFI_SUCCESS || !mp_proto) {
        mp_proto = NULL;
        mi->why = "the firmware publishes no MP Services protocol";
        return mi->why;
    }
    if (mp_proto->get_number_of_processors(mp_proto, &count, &enabled) != EFI_SUCCESS || !count) {
        mi->why = "MP Services: GetNumberOfProcessors failed";
        mp_proto = NULL;
        return mi->why;
    }
    if (mp_proto->who_am_i(mp_proto, &self) != EFI_SUCCESS)
        self = 0;
    mi->present = 1;
    mi->count = count > PLAT_MAX_CPUS ? PLAT_MAX_CPUS : (uint32_t)count;
    if (count > PLAT_MAX_CPUS)
        mi->why = "more logical CPUs than baremark handles (PLAT_MAX_CPUS): the rest are ignored";
    mi->enabled = (uint32_t)enabled;
    mi->bsp = (uint32_t)self;
    mi->cpu = AllocatePool(mi->count * sizeof *mi->cpu);
    if (!mi->cpu) {
        mi->why = "no memory for the list of CPUs";
        mi->present = 0;
        mp_proto = NULL;
        return mi->why;
    }
    memset(mi->cpu, 0, mi->count * sizeof *mi->cpu);
    for (uint32_t n = 0; n < mi->count; n++) {
        mp_read_cpu(n, &mi->cpu[n]);
        ids[n] = mi->cpu[n].apic_id;
    }
    percpu_register(ids, mi->count, mi->bsp);
    mp_list = mi;
    return NULL;
}

/* ---- the worker (runs on an AP) ---------------------------------------------------- */

/* Polls of a mailbox between two reads of the TSC while waiting. */
#define MP_SPINS_PER_CLOCK_READ 1024

static void mp_pause(void) { __asm__ volatile("pause" : : : "memory"); }

static long mp_worker_loop(void *arg)
{
    struct mp_mailbox *mb = arg;
    uint32_t seq = mb->finished;
    for (;;) {
        uint32_t p = __atomic_load_n(&mb->posted, __ATOMIC_ACQUIRE);
        if (p == seq) {
            if (__atomic_load_n(&mb->exit, __ATOMIC_ACQUIRE))
                return 0;
            mp_pause();
            continue;
        }
        long r = 0;
        struct plat_fault f;
        memset(&f, 0, sizeof f);
        mb->faulted = trap_run(mb->fn, mb->arg, &r, &f) != 0;
        mb->result = r;
        mb->fault = f;
        seq = p;
        __atomic_store_n(&mb->finished, p, __ATOMIC_RELEASE);
    }
}

/* A firmware that runs StartupThisAP blocking (ignoring the event, as the
 * PI spec allows no firmware to do, but some do) would keep the BSP inside
 * the call as long as this worker loops: the worker first waits for the BSP
 * to come back from the call, and gives up (returns) after the answer time,
 * so the BSP regains control and the run goes on without APs. */
static int mp_wait_launched(struct mp_mailbox *mb)
{
    uint64_t t0 = cpu_rdtsc();
    while (!__atomic_load_n(&mb->launched, __ATOMIC_ACQUIRE)) {
        if (cpu_rdtsc() - t0 >= mb->answer_ticks)
            return -1;
        mp_pause();
    }
    return 0;
}

static VOID EFIAPI mp_worker_entry(VOID *arg)
{
    struct mp_mailbox *mb = arg;
    struct trap_ap_saved saved;
    unsigned long flags = cpu_irq_save();
    if (mp_wait_launched(mb)) {
        cpu_irq_restore(flags);
        __atomic_store_n(&mb->answered, 3, __ATOMIC_RELEASE);
        return;
    }
    trap_ap_enter(&saved);
    __atomic_store_n(&mb->answered, 1, __ATOMIC_RELEASE);
    mp_call_on_stack(mp_worker_loop, mb, mb->stack_top);
    trap_ap_leave(&saved);
    cpu_irq_restore(flags);
    __atomic_store_n(&mb->answered, 2, __ATOMIC_RELEASE);
}

/* ---- workers (BSP side) --------------------------------------------------------- */

static void mp_free_all(void)
{
    for (uint32_t n = 0; mp_boxes && mp_list && n < mp_list->count; n++) {
        mp_final_state[n] = (uint8_t)mp_boxes[n].state;
        mp_final_status[n] = mp_boxes[n].status;
    }
    if (mp_boxes_raw)
        FreePool(mp_boxes_raw);
    if (mp_stacks)
        FreePool(mp_stacks);
    mp_boxes_raw = mp_stacks = NULL;
    mp_boxes = NULL;
}

/* The firmware signals a worker's event from its periodic check once it has
 * seen the worker return (interrupts enabled).  An event is closed only
 * after that: closing it earlier would leave the firmware a stale handle.
 * One that is not signalled within wait_ticks stays open (a small leak). */
static void mp_free_events_and_memory(uint64_t wait_ticks)
{
    uint64_t t0 = cpu_rdtsc();
    for (uint32_t n = 0; n < mp_list->count; n++) {
        EFI_EVENT ev = mp_boxes[n].event;
        if (!ev)
            continue;
        EFI_STATUS s;
        while ((s = BS->CheckEvent(ev)) == EFI_NOT_READY && cpu_rdtsc() - t0 < wait_ticks)
            mp_pause();
        if (s == EFI_SUCCESS)
            BS->CloseEvent(ev);
    }
    mp_free_all();
}

static int mp_ready(uint32_t cpu)
{
    return mp_boxes && mp_list && cpu < mp_list->count && mp_boxes[cpu].state == PLAT_W_READY;
}

/* blocking: call StartupThisAP in its blocking mode (no event), which is
 * how a firmware that ignores the event behaves (INJECTFAULT=hang with
 * INJECTIN=cores:startup tests the way out). */
static int mp_send(struct mp_mailbox *mb, uint32_t cpu, int blocking)
{
    EFI_STATUS s = EFI_SUCCESS;
    mb->event = NULL;
    if (!blocking && (s = BS->CreateEvent(0, 0, NULL, NULL, &mb->event)) != EFI_SUCCESS) {
        mb->event = NULL;
        mb->status = s;
        return -1;
    }
    /* Timeout 0: no firmware limit; baremark watches each call itself. */
    s = mp_proto->startup_this_ap(mp_proto, mp_worker_entry, cpu, mb->event, 0, mb, NULL);
    __atomic_store_n(&mb->launched, 1, __ATOMIC_RELEASE);
    mb->status = s;
    return s == EFI_SUCCESS ? 0 : -1;
}

uint32_t plat_workers_start(const struct plat_cpus *mi, const uint8_t *want, size_t stack_bytes,
                          uint64_t answer_ticks)
{
    uint32_t sent = 0, ready = 0;
    if (!mp_proto || !mi->present || mp_boxes)
        return 0;
    stack_bytes = (stack_bytes + 63) & ~(size_t)63;
    mp_boxes_raw = AllocatePool(mi->count * sizeof *mp_boxes + 128);
    mp_stacks = AllocatePool(mi->count * stack_bytes + 64);
    if (!mp_boxes_raw || !mp_stacks) {
        mp_free_all();
        return 0;
    }
    /* AllocatePool is 8-aligned: the boxes want 128. */
    mp_boxes = (struct mp_mailbox *)(((uintptr_t)mp_boxes_raw + 127) & ~(uintptr_t)127);
    memset(mp_boxes, 0, mi->count * sizeof *mp_boxes);
    /* Before any AP starts: from now on each CPU finds its own slot. */
    percpu_set_active(1);
    int blocking = plat_fault_take("cores:startup") != NULL, blocked = 0;
    if (blocking)
        out_printf("fault injection: StartupThisAP called in its blocking mode, as a firmware that "
                   "ignores the event runs it (INJECTFAULT setting)\n");
    for (uint32_t n = 0; n < mi->count; n++) {
        struct mp_mailbox *mb = &mp_boxes[n];
        mb->cpu = n;
        mb->stack_top = (void *)(((uintptr_t)mp_stacks + (n + 1) * stack_bytes) & ~(uintptr_t)15);
        mb->answer_ticks = answer_ticks;
        mb->state = PLAT_W_NONE;
        if (n == mi->bsp || !(mi->cpu[n].flags & PLAT_CPU_ENABLED) || (want && !want[n]))
            continue;
        if (blocked) {                 /* the next call would block as long again */
            mb->state = PLAT_W_BLOCKED;
            continue;
        }
        mb->state = PLAT_W_NO_ANSWER;
        if (mp_send(mb, n, blocking) == 0)
            sent++;
        else
            mb->state = PLAT_W_REFUSED;
        if (__atomic_load_n(&mb->answered, __ATOMIC_ACQUIRE) == 3) {
            mb->state = PLAT_W_BLOCKED;
            blocked = 1;
            sent--;
        }
    }
    mp_workers_active = 1;
    uint64_t t0 = cpu_rdtsc();
    for (;;) {
        ready = 0;
        for (uint32_t n = 0; n < mi->count; n++)
            ready += mp_boxes[n].state == PLAT_W_NO_ANSWER
                     && __atomic_load_n(&mp_boxes[n].answered, __ATOMIC_ACQUIRE) == 1;
        if (ready == sent || cpu_rdtsc() - t0 >= answer_ticks)
            break;
        mp_pause();
    }
    /* Only an AP that answered in time gets calls; a late one is left alone. */
    for (uint32_t n = 0; n < mi->count; n++)
        if (mp_boxes[n].state == PLAT_W_NO_ANSWER && mp_boxes[n].answered == 1)
            mp_boxes[n].state = PLAT_W_READY;
    return ready;
}

enum plat_worker_state plat_worker_state(uint32_t cpu)
{
    if (!mp_list || cpu >= mp_list->count)
        return PLAT_W_NONE;
    return (enum plat_worker_state)(mp_boxes ? mp_boxes[cpu].state : mp_final_state[cpu]);
}

uint64_t plat_worker_status(uint32_t cpu)
{
    if (!mp_list || cpu >= mp_list->count)
        return 0;
    return mp_boxes ? mp_boxes[cpu].status : mp_final_status[cpu];
}

const char *plat_post(uint32_t cpu, long (*fn)(void *), void *arg)
{
    if (!mp_ready(cpu))
        return "the worker is not ready";
    struct mp_mailbox *mb = &mp_boxes[cpu];
    if (mb->posted != __atomic_load_n(&mb->finished, __ATOMIC_ACQUIRE))
        return "the worker's last call was never collected";
    mb->fn = fn;
    mb->arg = arg;
    __atomic_store_n(&mb->posted, mb->posted + 1, __ATOMIC_RELEASE);
    return NULL;
}

enum plat_call_outcome plat_collect(uint32_t cpu, uint64_t timeout_ticks, long *result,
                                struct plat_fault *fault)
{
    if (!mp_ready(cpu))
        return PLAT_CALL_NOT_POSTED;
    struct mp_mailbox *mb = &mp_boxes[cpu];
    uint64_t t0 = cpu_rdtsc();
    uint32_t spins = 0;
    while (__atomic_load_n(&mb->finished, __ATOMIC_ACQUIRE) != mb->posted) {
        /* The clock is read rarely: under QEMU's TCG every TSC read of one
         * virtual CPU can disturb the TSC another one is measuring with
         * (QEMU keeps one guest TSC, made monotonic across host threads). */
        if (++spins % MP_SPINS_PER_CLOCK_READ == 0 && cpu_rdtsc() - t0 >= timeout_ticks) {
            struct plat_fault f;
            if (trap_ap_fault(cpu, &f)) {
                mb->state = PLAT_W_HALTED;
                if (fault)
                    *fault = f;
            } else {
                mb->state = PLAT_W_LOST;
            }
            return PLAT_CALL_TIMEOUT;
        }
        mp_pause();
    }
    if (mb->faulted) {
        if (fault)
            *fault = mb->fault;
        return PLAT_CALL_FAULT;
    }
    if (result)
        *result = mb->result;
    return PLAT_CALL_DONE;
}

void plat_workers_stop(uint64_t timeout_ticks)
{
    if (!mp_boxes)
        return;
    for (uint32_t n = 0; n < mp_list->count; n++)
        __atomic_store_n(&mp_boxes[n].exit, 1, __ATOMIC_RELEASE);
    uint64_t t0 = cpu_rdtsc();
    for (uint32_t n = 0; n < mp_list->count; n++) {
        struct mp_mailbox *mb = &mp_boxes[n];
        if (mb->state != PLAT_W_READY)
            continue;
        while (__atomic_load_n(&mb->answered, __ATOMIC_ACQUIRE) != 2 && cpu_rdtsc() - t0 < timeout_ticks)
            mp_pause();
        mb->state = mb->answered == 2 ? PLAT_W_STOPPED : PLAT_W_LOST;
    }
    mp_workers_active = 0;
    /* The mailboxes and stacks of APs that never came back stay allocated:
     * a late AP may still touch them.  Otherwise free them. */
    int all_back = 1;
    for (uint32_t n = 0; n < mp_list->count; n++) {
        int asked = mp_boxes[n].state != PLAT_W_NONE && mp_boxes[n].state != PLAT_W_REFUSED
                    && !(mp_boxes[n].state == PLAT_W_BLOCKED && mp_boxes[n].answered != 1);
        if (asked && mp_boxes[n].answered != 2 && mp_boxes[n].answered != 3)
            all_back = 0;
    }
    if (all_back) {
        /* No AP runs baremark's code any more: the BSP is the only CPU
         * (an AP left alone keeps percpu asking the CPU who it is). */
        percpu_set_active(0);
        mp_free_events_and_memory(timeout_ticks);
    }
}

/* ---- arenas: plat_alloc on an AP ---------------------------------------------- */

const char *plat_arena_reserve(const struct plat_cpus *mi, const uint8_t *want, size_t bytes)
{
    if (mp_arenas)
        return NULL;
    mp_arenas = AllocatePool(mi->count * sizeof *mp_arenas);
    if (!mp_arenas)
        return "no memory for the workers' arenas";
    memset(mp_arenas, 0, mi->count * sizeof *mp_arenas);
    for (uint32_t n = 0; n < mi->count; n++) {
        if (n == mi->bsp || (want && !want[n]))
            continue;
        mp_arenas[n].base = AllocatePool(bytes);
        if (!mp_arenas[n].base) {
            plat_arena_release();
            return "no memory for the workers' arenas";
        }
        mp_arenas[n].size = bytes;
    }
    return NULL;
}

/* A lost worker may still run its test in its arena: that arena (and the
 * table that finds it) is kept, never freed. */
void plat_arena_release(void)
{
    if (!mp_arenas)
        return;
    struct mp_arena *a = mp_arenas;
    int kept = 0;
    mp_arenas = NULL;
    for (uint32_t n = 0; n < mp_list->count; n++) {
        if (a[n].base && plat_worker_state(n) == PLAT_W_LOST)
            kept = 1;
        else if (a[n].base)
            FreePool(a[n].base);
    }
    if (!kept)
        FreePool(a);
}

int mp_on_ap(void)
{
    return mp_workers_active && trap_ap_running(percpu_self());
}

/* A bump allocator that starts again when everything is freed: BYTEmark's
 * tests free all they allocated before allocating for the next run. */
void *mp_arena_alloc(size_t bytes)
{
    if (!mp_arenas)
        return NULL;
    struct mp_arena *a = &mp_arenas[percpu_self()];
    size_t need = (bytes + 63) & ~(size_t)63;
    if (!a->base || need > a->size - a->top)
        return NULL;
    void *p = a->base + a->top;
    a->top += need;
    a->live++;
    return p;
}

int mp_arena_free(void *p)
{
    if (!mp_arenas || !p)
        return 0;
    struct mp_arena *a = &mp_arenas[percpu_self()];
    if (!a->base || (uint8_t *)p < a->base || (uint8_t *)p >= a->base + a->size)
        return 0;
    if (a->live && --a->live == 0)
        a->top = 0;
    return 1;
}
