/*
 * tools/host/platform/memory_host.c - the port's memory services under Linux
 * (port/platform.h): anonymous mmap (touched page by page by the sweep
 * itself, before any timing), MemAvailable from /proc/meminfo as the free
 * memory, the AVX state as Linux set it, and the page sizes from
 * /proc/self/smaps.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "memory.h"
#include "platform.h"
#include "methods.h"

/* Transparent huge pages are 2 MiB on x86-64: the buffer is placed on a
 * 2 MiB boundary and madvise(MADV_HUGEPAGE) asked, as the image usually
 * gets the firmware's 2 MiB pages; what Linux gave is read back from
 * /proc/self/smaps (memory_page_census) and reported, not assumed. */
#define MEMORY_HOST_HUGE (2ull << 20)

static void *memory_host_map;           /* what mmap returned, for munmap */
static uint64_t memory_host_map_bytes;
static int memory_host_madvise = -1;    /* 0 accepted, else errno; -1 not asked */

void *plat_pages_alloc(uint64_t bytes)
{
    uint64_t total = bytes + MEMORY_HOST_HUGE;
    void *p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    uintptr_t a = ((uintptr_t)p + MEMORY_HOST_HUGE - 1) & ~(uintptr_t)(MEMORY_HOST_HUGE - 1);
    memory_host_map = p;
    memory_host_map_bytes = total;
#ifdef MADV_HUGEPAGE
    memory_host_madvise = madvise((void *)a, bytes, MADV_HUGEPAGE) ? errno : 0;
#endif
    return (void *)a;
}

void plat_pages_free(void *p, uint64_t bytes)
{
    (void)bytes;
    if (p && memory_host_map)
        munmap(memory_host_map, memory_host_map_bytes);
    memory_host_map = NULL;
}

uint64_t plat_free_bytes(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    unsigned long long kb = 0;

    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
            break;
    fclose(f);
    return (uint64_t)kb * 1024;
}

const char *plat_pages_name(void)
{
    return "mmap";
}

/* A process cannot choose physical memory: MEMORYHIGH has no place here. */
void *plat_pages_alloc_high(uint64_t bytes)
{
    (void)bytes;
    return NULL;
}

/* The AVX state under Linux: the kernel owns CR4 and XCR0; read them
 * (CPUID.1:ECX.OSXSAVE, XGETBV), change nothing. */
void memory_xstate_enable(uint64_t want, struct memory_xstate *x)
{
    uint32_t r[4];
    bm_cpuid(1, 0, r);
    memset(x, 0, sizeof *x);
    x->xsave = !!(r[2] & (1u << 26));
    x->osxsave_before = x->osxsave = !!(r[2] & (1u << 27));
    if (x->osxsave) {
        uint32_t lo, hi;
        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        x->xcr0_before = x->xcr0 = (uint64_t)hi << 32 | lo;
    }
    x->enabled_by = x->osxsave ? "operating system" : "none";
    (void)want;
}

void memory_xstate_restore(struct memory_xstate *x)
{
    x->restored = 1;
}

/* The word in brackets of /sys/kernel/mm/transparent_hugepage/enabled
 * ("always", "madvise", "never"), or "unknown". */
static void memory_thp_mode(char *buf, size_t n)
{
    char line[128], *a, *b;
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    snprintf(buf, n, "unknown");
    if (!f)
        return;
    if (fgets(line, sizeof line, f) && (a = strchr(line, '[')) && (b = strchr(a, ']'))) {
        *b = 0;
        snprintf(buf, n, "%s", a + 1);
    }
    fclose(f);
}

/* The smaps entry holding buf: Rss and AnonHugePages (kB) and the kernel's
 * page size for it. */
void memory_page_census(const void *buf, uint64_t bytes, struct memory_page_census *c)
{
    char line[256], thp[32];
    unsigned long long lo, hi, kb, rss = 0, huge = 0, kps = 4;
    int in = 0, found = 0;
    FILE *f = fopen("/proc/self/smaps", "r");

    memset(c, 0, sizeof *c);
    c->source = "none";
    memory_thp_mode(thp, sizeof thp);
    snprintf(c->note, sizeof c->note, "transparent huge pages [%s]; madvise(MADV_HUGEPAGE) %s", thp,
             memory_host_madvise == 0 ? "accepted" : memory_host_madvise > 0 ? strerror(memory_host_madvise)
                                                                               : "not asked");
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "%llx-%llx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
            if (found)
                break;
            in = (uintptr_t)buf >= lo && (uintptr_t)buf < hi;
            found = in;
        } else if (in && sscanf(line, "Rss: %llu kB", &kb) == 1)
            rss = kb;
        else if (in && sscanf(line, "AnonHugePages: %llu kB", &kb) == 1)
            huge = kb;
        else if (in && sscanf(line, "KernelPageSize: %llu kB", &kb) == 1)
            kps = kb;
    }
    fclose(f);
    if (!found)
        return;
    /* The mapping also holds the alignment slack around the buffer: count
     * at most `bytes`. */
    c->source = "/proc/self/smaps";
    uint64_t res = rss * 1024 > bytes ? bytes : rss * 1024, hp = huge * 1024 > res ? res : huge * 1024;
    c->bytes_2m = hp;
    if (kps == 4)
        c->bytes_4k = res - hp;
    c->bytes_unmapped = bytes - res;
}
