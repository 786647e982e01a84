/*
 * port/platform.h - what portable code (bench/, stats/ callers) needs from
 * the place it runs.  Implemented twice: for the UEFI image in boot/
 * (platform_efi.c, output.c, memory_pages.c, quiet_phase.c, mp.c) over the
 * firmware and kernel/, and for the hosted Linux program in tools/host/
 * (platform_host.c, memory_host.c, quiet_host.c, results_host.c), text
 * output and the results document included (boot/output.c and
 * boot/run_files.c in the image).
 *
 * Portable code includes only this header, <stdint.h>, <stddef.h>,
 * <string.h>, <math.h> and its own headers.  It never calls the firmware or
 * libc I/O directly.
 *
 * Errors, one convention: a call that can fail returns `const char *`, NULL
 * when it did what it says, else one line saying why not.  The text is the
 * caller's buffer where the call takes one (why, why_size: a fault's
 * description, a loader's refusal), else the port's own (a literal, or
 * the firmware's status name) that lives as long as the run.  What a call
 * produces comes back through its pointer arguments.  Two kinds of call
 * are not errors in this sense: plat_alloc and the page allocators give
 * NULL when memory is short (nothing more to say), and calls that report
 * a state (plat_worker_state, plat_collect) return their enum.
 */
#ifndef BAREMARK_PLATFORM_H
#define BAREMARK_PLATFORM_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* Memory.  plat_alloc returns NULL when memory is short (never aborts). It
 * may call the firmware, so never call it with interrupts masked. */
void *plat_alloc(size_t bytes);
void plat_free(void *p);

/* Whole pages for large buffers (the memory section): the image takes them
 * from the firmware (AllocatePages), the host from mmap.  NULL when memory
 * is short.  plat_free_bytes: the free memory there is (0 = unknown);
 * plat_pages_name: "firmware AllocatePages" / "mmap". */
void *plat_pages_alloc(uint64_t bytes);
void plat_pages_free(void *p, uint64_t bytes);
uint64_t plat_free_bytes(void);
const char *plat_pages_name(void);
/* The same at or above 4 GiB (MEMORYHIGH: a lab testing memory the 32-bit
 * firmware never touches): the image takes the highest free range the
 * firmware's memory map shows there; NULL when there is none (the host:
 * always, mmap has no physical placement). */
void *plat_pages_alloc_high(uint64_t bytes);

/* ---- the memory section's machine state (the types: bench/memory/memory.h) ----
 * The image: boot/memory_pages.c; the host: tools/host/platform/memory_host.c.
 * Called with interrupts enabled. */
struct memory_xstate;
struct memory_page_census;
/* The AVX state for the bandwidth kernels: the image sets CR4.OSXSAVE and
 * XSETBVs XCR0 to `want` where the firmware left them off, and puts both
 * back (read back into x->restored); the host reads what Linux set. */
void memory_xstate_enable(uint64_t want, struct memory_xstate *x);
void memory_xstate_restore(struct memory_xstate *x);
/* The page sizes behind [buf, buf + bytes): the image walks the firmware's
 * page tables through CR3 (identity-mapped); the host reads
 * /proc/self/smaps. */
void memory_page_census(const void *buf, uint64_t bytes, struct memory_page_census *c);

/* ---- the measuring phase (the report and the rules: bench/system/quiet.h) ----
 * The image: boot/quiet_phase.c stops the firmware's periodic timer and
 * reads NMIs, SMIs and APERF/MPERF at both ends; the host:
 * tools/host/platform/quiet_host.c only measures the phase's length.  Nested phases
 * count: only the outermost pair acts. */
struct quiet_phase_report;
void quiet_phase_begin(void);
/* Ends the phase; fills *rep when rep is not NULL. */
void quiet_phase_end(struct quiet_phase_report *rep);

/* Time-stamp counter and its calibrated frequency in Hz (0 = unknown).  The
 * image's clock section sets the frequency once it has calibrated; the
 * host measures it against CLOCK_MONOTONIC_RAW unless it was set. */
uint64_t plat_ticks(void);
uint64_t plat_tick_hz(void);
void plat_set_tick_hz(uint64_t hz);

/* The counter's effective step in ticks: the grid that back-to-back reads
 * of plat_ticks fall on (about 24 under QEMU TCG, 1 on most machines and
 * under -icount), as the clock section measured it; 0 until measured.
 * Timings are only known to within one step. */
uint64_t plat_tick_step(void);
void plat_set_tick_step(uint64_t ticks);

/* What the place can do, decided by the port, never by its name: code
 * asks `plat_caps() & PLAT_CAP_...`.  The image has both; the hosted Linux
 * program neither. */
#define PLAT_CAP_IRQ_MASK 0x1u  /* plat_irq_off really masks interrupts (no interrupt or
                                   context switch inside a timing) */
#define PLAT_CAP_MSR      0x2u  /* MSRs can be read at all (ring 0) */
#define PLAT_CAP_PHYS     0x4u  /* page buffers are physical memory (identity-mapped):
                                   plat_pages_alloc_high can place one above 4 GiB */
unsigned plat_caps(void);

/* Model-specific registers (where plat_caps has PLAT_CAP_MSR).  Read and
 * write never crash: NULL, or why not (#GP from a register the CPU or the
 * hypervisor does not have; no MSRs on this platform). */
const char *plat_rdmsr(uint32_t msr, uint64_t *value);
const char *plat_wrmsr(uint32_t msr, uint64_t value);

/* Interrupt masking around timed work.  plat_irq_off returns a token for
 * plat_irq_restore; without PLAT_CAP_IRQ_MASK (the host) both are no-ops. */
unsigned long plat_irq_off(void);
void plat_irq_restore(unsigned long token);

/* ---- files of the run's home (the ESP root in the image, the current
 * directory on the host); a name may use '/' or '\\'.  A call that fails
 * gives the reason in a short word (the image: the firmware's status name,
 * "EFI_NOT_FOUND"; the host: strerror's text). ---- */

/* Read a whole file into a plat_alloc'd *buf of *size bytes (a NUL byte
 * follows them).  NULL, or why not (then *buf is NULL). */
const char *plat_read_file(const char *name, void **buf, size_t *size);
/* The same from where the run's results go (the image: the ESP, or the
 * volume the results were moved to); writes and deletes go there too. */
const char *plat_read_saved_file(const char *name, void **buf, size_t *size);
/* Write (create or replace) a whole file; NULL, or why not. */
const char *plat_write_file(const char *name, const void *buf, size_t n);
/* Delete a file (no error when it was not there). */
void plat_delete_file(const char *name);
/* Call fn for every file in folder `dir` (name and size).  NULL, or why
 * not; *missing = 1 when the folder is not there. */
const char *plat_list_dir(const char *dir, void (*fn)(const char *name, uint64_t size, void *ctx), void *ctx,
                          int *missing);

/* ---- loading an image (plug-ins, plugins/baremark_plugin.h) ---- */
struct bm_plugin;
struct plat_image {
    void *handle;                        /* for plat_image_unload */
    const struct bm_plugin *table;       /* the plug-in's table */
    uint64_t base, size;                 /* where it lies in memory (0: unknown) */
};
/* Load and start the image held in buf (the file `name`, which it names in
 * its own records) and find its plug-in table.  NULL, or why (one line in
 * the caller's why saying what refused it; nothing stays loaded). */
const char *plat_image_load(const char *name, void *buf, size_t n, struct plat_image *img, char *why,
                            size_t why_size);
/* Unload it again; NULL, or why not (it then stays until a reset). */
const char *plat_image_unload(void *handle);

/* ---- text output ----
 * In the image one call reaches the serial port (COM1), the firmware
 * console and the text log on the ESP; on the host, standard output.
 * Lines end with "\n" only; sinks that need CRLF add the CR themselves. */
/* printf-style: %d %i %u %x %X %ld %lu %lld %llu %llx %zu %s %c %p %f %e %g
 * with flags, width and precision as in C99. */
void out_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void out_vprintf(const char *fmt, va_list ap);
/* Record a problem: printed as one line "warning: ..." and kept in the
 * JSON "errors" list; the run's status becomes at least 2 (warnings). */
void out_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The console (docs/console.md): out_printf's text always reaches the log
 * (the .log on the ESP, the full text) but the console only with
 * VERBOSE=T; out_show's is for people and reaches the console always: the
 * banner, the progress lines, errors, the summary.  (out_warn's lines are
 * shown too.)  On the host both print to standard output. */
void out_show(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Progress inside a long section: `done` of `total` steps finished, the
 * last one `what` ("numsort", "cpu1 fourier").  The image prints one line
 * for people with the section's time so far and an estimate of the time
 * left, at most one every PROGRESS_EVERY_S seconds (never a flood);
 * nothing on the host. */
void out_progress(unsigned done, unsigned total, const char *what);
#define PROGRESS_EVERY_S 10

/* ---- the results document ----
 * One per run.  Each section (system, clock, methods, comparisons,
 * bytemark, ...) is a top-level member written between
 * results_section_begin and results_section_end; when a section ends the
 * image rewrites the JSON file on the ESP (and the host program its
 * output), so a later hang loses nothing already measured.  The "errors"
 * list, the "status" and the "ended" flag are the document owner's, added
 * when it is flushed; sections never write them. */
struct json_writer;     /* bench/results/json.h */
/* Start a top-level member named `name`; returns the writer to fill in.
 * The member is an object unless `array` is nonzero. */
struct json_writer *results_section_begin(const char *name, int array);
/* Close the member and flush the document to its sinks. */
void results_section_end(void);

/* ---- the run ---- */
/* Arm the watchdog that resets the machine after `seconds` (0: off); NULL,
 * or why not.  A no-op on the host. */
const char *plat_watchdog_arm(unsigned seconds);
/* A plug-in routine `routine` ("PLUGIN:ROUTINE") is about to be called
 * (NULL: it returned), for the marker that names a hang on the next boot
 * (the image: boot/watchdog.h).  A no-op on the host. */
void plat_hang_note(const char *routine);
/* Everything printed and written so far onto the run's files now. */
void plat_flush(void);
/* The run's name ("20261122-153000"), "" before the files are open. */
const char *plat_run_name(void);

/* Run fn(arg) so that a CPU exception inside it (divide error, invalid
 * opcode, page fault...) fails only this call: NULL with *result set, or
 * why, the caller's buffer holding a one-line description of the fault
 * (which the caller prints with the test's name).  On the host it simply
 * calls fn. */
const char *plat_protected(long (*fn)(void *), void *arg, long *result, char *why, size_t why_size);

/* A fault-injection point: call it inside the protected work of the test
 * named `key` (e.g. "numsort", "method:rdtscp").  When the settings ask for a
 * fault in that test (INJECTFAULT=divide|opcode|page, INJECTIN=key) the
 * faulting instruction executes here.  No-op on the host. */
void plat_fault_point(const char *key);
/* For code that injects the fault itself (on an AP, which cannot print):
 * the kind asked for the point `key` ("divide"...), counted as fired, or
 * NULL when no fault is asked for there (always NULL on the host). */
const char *plat_fault_take(const char *key);

/* Write straight to the serial console and nowhere else: in the image COM1
 * only (not the screen, not the text log), on the host standard output.
 * For lines meant for machines watching the console (bench/results/lava.h). */
void plat_serial_write(const char *s, size_t n);

/* ---- CPU exceptions -----------------------------------------------------------
 * What a protected call reports when a CPU exception interrupted it. */
struct plat_fault {
    uint64_t vector, error_code, rip, cr2;
    const char *name;            /* "#PF page fault" */
};

/* ---- CPUs and running work on them ----------------------------------------------
 * The image: the firmware's MP Services protocol (UEFI PI specification
 * volume 2, EFI_MP_SERVICES_PROTOCOL; boot/mp.c).  The hosted program:
 * none (plat_cpus_init says why; tools/host/platform/platform_host.c).
 *
 * The bootstrap processor (BSP) runs the run; the application processors
 * (APs) wait in the firmware.  plat_cpus_init lists every logical CPU; the
 * workers below run code on them.
 *
 * An AP job runs with interrupts masked, on a stack the BSP allocated, with
 * baremark's exception handlers loaded on that AP (lidt), protected like any
 * test (kernel/trap.h): a CPU exception fails the job and is reported by the
 * BSP.  A job must not call the firmware: no output, no allocation through
 * the firmware, no files.  plat_alloc on an AP takes memory from an arena the
 * BSP set aside for it (plat_arena_reserve) and plat_free gives it back. */

/* OVMF supports 64 logical CPUs; large servers have a few hundred. */
#define PLAT_MAX_CPUS 512

/* StatusFlag bits of EFI_PROCESSOR_INFORMATION (PI spec). */
#define PLAT_CPU_BSP     0x1
#define PLAT_CPU_ENABLED 0x2
#define PLAT_CPU_HEALTHY 0x4

/* What the firmware says about one logical CPU. */
struct plat_cpu {
    uint32_t number;             /* the firmware's processor number */
    uint64_t apic_id;            /* ProcessorId: the (x2)APIC ID */
    uint32_t flags;              /* PLAT_CPU_* */
    uint32_t package, core, thread;  /* Location */
    int has_location2;           /* the firmware filled the extended location */
    uint32_t module, tile, die;  /* ExtendedInformation.Location2 */
};

struct plat_cpus {
    int present;                 /* the protocol was found */
    const char *why;             /* why not, or what failed ("" when fine) */
    uint32_t count, enabled;     /* logical CPUs present / enabled */
    uint32_t bsp;                /* the BSP's processor number */
    struct plat_cpu *cpu;        /* count entries, by processor number */
};

/* Find the protocol and list the CPUs; fills *mi.  NULL, or why not (no
 * MP Services protocol; the same text as mi->why). */
const char *plat_cpus_init(struct plat_cpus *mi);

/* Workers: plat_workers_start sends every chosen AP one long job
 * (non-blocking StartupThisAP, no firmware time limit): a worker loop that
 * waits, with interrupts masked, for calls the BSP posts in its mailbox and
 * runs each protected.  Posting and collecting a call is plain shared memory
 * (no firmware), so the BSP can run one side of a ping-pong while an AP runs
 * the other, and pairs of APs can work while the BSP waits.  An AP that does
 * not take its worker job within the answer time, or does not finish a call
 * within the call's time, is reported and left alone: it gets no more
 * calls, and no memory it might still write to is freed (its arena, its
 * mailbox and stack stay allocated). */
enum plat_worker_state {
    PLAT_W_NONE,        /* not asked (the BSP, a disabled CPU, not chosen) */
    PLAT_W_REFUSED,     /* StartupThisAP failed (status in plat_worker_status) */
    PLAT_W_NO_ANSWER,   /* never started its worker within the answer time */
    PLAT_W_READY,       /* waiting for calls */
    PLAT_W_LOST,        /* a call did not finish in time: left alone */
    PLAT_W_HALTED,      /* faulted outside a call and halted (trap_ap_fault) */
    PLAT_W_STOPPED,     /* returned to the firmware at plat_workers_stop */
    PLAT_W_BLOCKED,     /* the firmware's StartupThisAP did not return while the
                         * worker waited for it: the worker gave up after the
                         * answer time, and no further AP is asked */
};

/* Start workers on the APs with want[number] != 0 (want NULL: every
 * enabled AP), each on a stack of stack_bytes; wait at most answer_ticks
 * TSC ticks for all of them to answer.  Returns how many are ready. */
uint32_t plat_workers_start(const struct plat_cpus *mi, const uint8_t *want, size_t stack_bytes,
                            uint64_t answer_ticks);
enum plat_worker_state plat_worker_state(uint32_t cpu);
uint64_t plat_worker_status(uint32_t cpu);       /* StartupThisAP's EFI status */

/* Post fn(arg) to a ready worker.  NULL, or why not (the worker is not
 * ready; then nothing was posted). */
const char *plat_post(uint32_t cpu, long (*fn)(void *), void *arg);

/* Outcome of a posted call. */
enum plat_call_outcome { PLAT_CALL_DONE, PLAT_CALL_FAULT, PLAT_CALL_TIMEOUT, PLAT_CALL_NOT_POSTED };

/* Wait at most timeout_ticks for the call posted to cpu (polling memory: fine
 * with interrupts masked).  DONE: *result = fn's value; FAULT: *fault filled
 * (the worker goes on); TIMEOUT: the worker becomes PLAT_W_LOST (or HALTED
 * when it faulted outside the call). */
enum plat_call_outcome plat_collect(uint32_t cpu, uint64_t timeout_ticks, long *result,
                                    struct plat_fault *fault);

/* Ask every ready worker to return to the firmware and wait at most
 * timeout_ticks for them (interrupts enabled). */
void plat_workers_stop(uint64_t timeout_ticks);

/* Give every AP `bytes` of arena for plat_alloc (only the CPUs with
 * want[number] != 0; want may be NULL for all).  NULL, or why not (memory
 * is short). */
const char *plat_arena_reserve(const struct plat_cpus *mi, const uint8_t *want, size_t bytes);
/* Free the arenas again (with interrupts enabled, on the BSP). */
void plat_arena_release(void);

/* Name of the place the code runs in, e.g. "uefi" or "linux": for text and
 * the results ("platform"); what it can do is plat_caps. */
const char *plat_name(void);

/* The virtual machine the firmware's tables name (SMBIOS system
 * manufacturer and product: "QEMU", "VMware", ...), or NULL when they name
 * none baremark knows; the CPU's own word (CPUID's hypervisor bit) is
 * kernel/cpu.h's, and a hypervisor may clear that bit. */
const char *plat_vm_maker(void);

#endif
