/*
 * boot/memory_pages.c - the port's memory services in the image
 * (port/platform.h): whole pages from the firmware's page allocator
 * (AllocatePages, EfiLoaderData) and the free memory the firmware's memory
 * map shows; the AVX state (CR4.OSXSAVE, XCR0) for the bandwidth kernels;
 * the page sizes behind a buffer from the page tables.
 */
#include <efi.h>
#include <efilib.h>
#include <stdio.h>
#include <string.h>

#include "firmware.h"
#include "memory.h"
#include "methods.h"
#include "platform.h"

#define MEMORY_PAGE 4096u

static uint64_t memory_pages(uint64_t bytes)
{
    return (bytes + MEMORY_PAGE - 1) / MEMORY_PAGE;
}

void *plat_pages_alloc(uint64_t bytes)
{
    EFI_PHYSICAL_ADDRESS a = 0;
    EFI_STATUS s = uefi_call_wrapper(BS->AllocatePages, 4, AllocateAnyPages, EfiLoaderData,
                                     memory_pages(bytes), &a);
    return s == EFI_SUCCESS ? (void *)(uintptr_t)a : NULL;
}

/* At or above 4 GiB: the firmware's AllocateAnyPages takes memory below
 * 4 GiB while there is room (EDK II fills its default bins there first),
 * so the highest free range above is found in the memory map and asked for
 * by address, its end rounded down to 2 MiB (the buffer then starts on a
 * large-page boundary, as the firmware's own choice usually does). */
#define MEMORY_4GIB  (1ull << 32)
#define MEMORY_ALIGN (2ull << 20)
struct memory_high_pick {
    uint64_t size, best;
};

static void memory_pick_high(const EFI_MEMORY_DESCRIPTOR *d, void *ctx)
{
    struct memory_high_pick *k = ctx;
    uint64_t lo = d->PhysicalStart, hi = lo + d->NumberOfPages * MEMORY_PAGE;
    if (d->Type != EfiConventionalMemory || hi <= MEMORY_4GIB || hi - MEMORY_4GIB < k->size)
        return;
    lo = lo < MEMORY_4GIB ? MEMORY_4GIB : lo;
    uint64_t at = (hi - k->size) & ~(MEMORY_ALIGN - 1);
    if (at >= lo && at > k->best)
        k->best = at;
}

void *plat_pages_alloc_high(uint64_t bytes)
{
    struct memory_high_pick k = { memory_pages(bytes) * MEMORY_PAGE, 0 };
    if (fw_memory_map_each(memory_pick_high, &k) || !k.best)
        return NULL;
    EFI_PHYSICAL_ADDRESS a = k.best;
    EFI_STATUS s = uefi_call_wrapper(BS->AllocatePages, 4, AllocateAddress, EfiLoaderData, memory_pages(bytes), &a);
    return s == EFI_SUCCESS ? (void *)(uintptr_t)a : NULL;
}

void plat_pages_free(void *p, uint64_t bytes)
{
    if (p)
        uefi_call_wrapper(BS->FreePages, 2, (EFI_PHYSICAL_ADDRESS)(uintptr_t)p, memory_pages(bytes));
}

/* Free memory: the EfiConventionalMemory ranges of the memory map (the
 * section asks for one contiguous range and steps down when it is refused). */
static void memory_count_free(const EFI_MEMORY_DESCRIPTOR *d, void *ctx)
{
    if (d->Type == EfiConventionalMemory)
        *(uint64_t *)ctx += d->NumberOfPages * MEMORY_PAGE;
}

uint64_t plat_free_bytes(void)
{
    uint64_t total = 0;
    fw_memory_map_each(memory_count_free, &total);
    return total;
}

const char *plat_pages_name(void)
{
    return "firmware AllocatePages";
}

/* ---- the AVX state (port/platform.h memory_xstate_*) ---------------------------------------- */

/* CR4.OSXSAVE (Intel SDM vol. 3A, 2.5) and CPUID.1:ECX bits 26 XSAVE, 27
 * OSXSAVE (the copy of CR4.OSXSAVE). */
#define MEMORY_CR4_OSXSAVE  (1ull << 18)
#define MEMORY_ECX_XSAVE    (1u << 26)
#define MEMORY_ECX_OSXSAVE  (1u << 27)

static uint64_t memory_cr4_read(void)
{
    uint64_t v;
    __asm__ volatile("mov %%cr4, %0" : "=r"(v));
    return v;
}

static void memory_cr4_write(uint64_t v)
{
    __asm__ volatile("mov %0, %%cr4" : : "r"(v) : "memory");
}

static uint64_t memory_xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (uint64_t)hi << 32 | lo;
}

static long memory_xsetbv0(void *arg)
{
    uint64_t v = *(uint64_t *)arg;
    __asm__ volatile("xsetbv" : : "a"((uint32_t)v), "d"((uint32_t)(v >> 32)), "c"(0) : "memory");
    return 0;
}

static uint32_t memory_cpuid1_ecx(void)
{
    uint32_t r[4];
    bm_cpuid(1, 0, r);
    return r[2];
}

/* The firmware owns CR4 and XCR0; the section adds what its kernels need
 * (nothing the firmware set is taken away) and puts both back after.  An
 * XSETBV the CPU refuses (#GP) is caught: the section then runs SSE2 only. */
void memory_xstate_enable(uint64_t want, struct memory_xstate *x)
{
    char why[120];
    long rc;
    uint32_t ecx = memory_cpuid1_ecx();

    memset(x, 0, sizeof *x);
    x->enabled_by = "none";
    x->xsave = !!(ecx & MEMORY_ECX_XSAVE);
    x->osxsave_before = x->osxsave = !!(ecx & MEMORY_ECX_OSXSAVE);
    if (x->osxsave_before)
        x->xcr0_before = x->xcr0 = memory_xgetbv0();
    if (x->osxsave_before)
        x->enabled_by = "firmware";
    if (!x->xsave || !want || (x->osxsave_before && (x->xcr0_before & want) == want))
        return;
    if (!x->osxsave_before)
        memory_cr4_write(memory_cr4_read() | MEMORY_CR4_OSXSAVE);
    uint64_t v = (x->osxsave_before ? x->xcr0_before : MEMORY_XCR0_X87) | want;
    if (plat_protected(memory_xsetbv0, &v, &rc, why, sizeof why))
        out_warn("memory: XSETBV %#llx refused (%s): vector widths past SSE2 not measured", (unsigned long long)v, why);
    x->osxsave = !!(memory_cpuid1_ecx() & MEMORY_ECX_OSXSAVE);
    x->xcr0 = x->osxsave ? memory_xgetbv0() : 0;
    x->enabled_by = "baremark";
}

void memory_xstate_restore(struct memory_xstate *x)
{
    uint64_t v = x->osxsave_before ? x->xcr0_before : MEMORY_XCR0_X87;   /* x87 only: XCR0's reset value */
    char why[120];
    long rc;

    if (strcmp(x->enabled_by, "baremark")) {
        x->restored = 1;
        return;
    }
    if (x->osxsave)
        plat_protected(memory_xsetbv0, &v, &rc, why, sizeof why);
    if (!x->osxsave_before)
        memory_cr4_write(memory_cr4_read() & ~MEMORY_CR4_OSXSAVE);
    int osx = !!(memory_cpuid1_ecx() & MEMORY_ECX_OSXSAVE);
    x->restored = osx == x->osxsave_before && (!osx || memory_xgetbv0() == x->xcr0_before);
}

/* ---- the pages behind the buffer (port/platform.h memory_page_census) ------------------------ */

/* CR4.LA57 (SDM vol. 3A, 2.5): five paging levels. */
#define MEMORY_CR4_LA57 (1ull << 12)

/* UEFI runs with memory identity-mapped (UEFI spec 2.3.4, x64), so a
 * physical address of a paging structure is also its address here. */
static uint64_t memory_read_phys64(void *ctx, uint64_t pa)
{
    (void)ctx;
    return *(volatile const uint64_t *)(uintptr_t)pa;
}

void memory_page_census(const void *buf, uint64_t bytes, struct memory_page_census *c)
{
    uint64_t cr3;
    __asm__ volatile("mov %%cr3, %0" : "=r"(cr3));
    memset(c, 0, sizeof *c);
    c->source = "page tables (CR3)";
    memory_pt_census(cr3, !!(memory_cr4_read() & MEMORY_CR4_LA57), (uint64_t)(uintptr_t)buf, bytes,
                     memory_read_phys64, NULL, c);
    snprintf(c->note, sizeof c->note, "the firmware's map");
}
