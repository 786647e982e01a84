/*
 * tools/host/memory_host.c - bench/memory.h's hooks under Linux: anonymous
 * mmap (touched page by page by the sweep itself, before any timing) and
 * MemAvailable from /proc/meminfo as the free memory.
 */
#include <stdio.h>
#include <sys/mman.h>

#include "memory.h"

void *memory_pages_alloc(uint64_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void memory_pages_free(void *p, uint64_t bytes)
{
    if (p)
        munmap(p, bytes);
}

uint64_t memory_free_bytes(void)
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

const char *memory_allocator_name(void)
{
    return "mmap";
}
