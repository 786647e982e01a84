/*
 * boot/memory_pages.c - bench/memory.h's hooks in the image: whole pages from
 * the firmware's page allocator (AllocatePages, EfiLoaderData) and the free
 * memory the firmware's memory map shows.
 */
#include <efi.h>
#include <efilib.h>

#include "memory.h"

#define MEMORY_PAGE 4096u

static uint64_t memory_pages(uint64_t bytes)
{
    return (bytes + MEMORY_PAGE - 1) / MEMORY_PAGE;
}

void *memory_pages_alloc(uint64_t bytes)
{
    EFI_PHYSICAL_ADDRESS a = 0;
    EFI_STATUS s = uefi_call_wrapper(BS->AllocatePages, 4, AllocateAnyPages, EfiLoaderData,
                                     memory_pages(bytes), &a);
    return s == EFI_SUCCESS ? (void *)(uintptr_t)a : NULL;
}

void memory_pages_free(void *p, uint64_t bytes)
{
    if (p)
        uefi_call_wrapper(BS->FreePages, 2, (EFI_PHYSICAL_ADDRESS)(uintptr_t)p, memory_pages(bytes));
}

/* Free memory: the EfiConventionalMemory ranges of the memory map (the
 * section asks for one contiguous range and steps down when it is refused). */
uint64_t memory_free_bytes(void)
{
    UINTN entries, key, desc_size;
    UINT32 desc_version;
    EFI_MEMORY_DESCRIPTOR *map = LibMemoryMap(&entries, &key, &desc_size, &desc_version);
    uint64_t total = 0;

    if (!map)
        return 0;
    for (UINTN i = 0; i < entries; i++) {
        EFI_MEMORY_DESCRIPTOR *d = (EFI_MEMORY_DESCRIPTOR *)((char *)map + i * desc_size);
        if (d->Type != EfiConventionalMemory)
            continue;
        total += d->NumberOfPages * MEMORY_PAGE;
    }
    FreePool(map);
    return total;
}

const char *memory_allocator_name(void)
{
    return "firmware AllocatePages";
}
