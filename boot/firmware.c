/*
 * boot/firmware.c - UEFI services behind small wrappers (see firmware.h).
 */
#include <efi.h>
#include <efilib.h>
#include <stdio.h>
#include <string.h>

#include "firmware.h"

#define FW_MAX_CONSOLES 8

static EFI_HANDLE fw_image;
static EFI_SYSTEM_TABLE *fw_st;
static EFI_STATUS fw_watchdog;
static SIMPLE_TEXT_OUTPUT_INTERFACE *fw_consoles[FW_MAX_CONSOLES];
static int fw_nconsoles;

/* ---- consoles ---------------------------------------------------------------- */

/* A console whose device path has a UART node is a serial terminal. */
static int fw_is_serial(EFI_DEVICE_PATH *dp)
{
    for (; dp && !IsDevicePathEnd(dp); dp = NextDevicePathNode(dp))
        if (DevicePathType(dp) == MESSAGING_DEVICE_PATH && DevicePathSubType(dp) == MSG_UART_DP)
            return 1;
    return 0;
}

static void fw_find_consoles(void)
{
    EFI_HANDLE *handles = NULL;
    UINTN count = 0;

    if (BS->LocateHandleBuffer(ByProtocol, &TextOutProtocol, NULL, &count, &handles) != EFI_SUCCESS)
        return;
    for (UINTN i = 0; i < count && fw_nconsoles < FW_MAX_CONSOLES; i++) {
        EFI_DEVICE_PATH *dp = NULL;
        SIMPLE_TEXT_OUTPUT_INTERFACE *out = NULL;
        /* The ConOut splitter has no device path: skip it and the serials. */
        if (BS->HandleProtocol(handles[i], &DevicePathProtocol, (void **)&dp) != EFI_SUCCESS)
            continue;
        if (fw_is_serial(dp))
            continue;
        if (BS->HandleProtocol(handles[i], &TextOutProtocol, (void **)&out) == EFI_SUCCESS)
            fw_consoles[fw_nconsoles++] = out;
    }
    BS->FreePool(handles);
}

void fw_console_write(const char *s, size_t n)
{
    CHAR16 buf[130];
    size_t k = 0;

    for (size_t i = 0; i <= n; i++) {
        if (i == n || k >= 126) {
            buf[k] = 0;
            for (int c = 0; c < fw_nconsoles; c++)
                fw_consoles[c]->OutputString(fw_consoles[c], buf);
            k = 0;
            if (i == n)
                break;
        }
        if (s[i] == '\n')
            buf[k++] = L'\r';
        buf[k++] = (unsigned char)s[i] < 0x80 ? (CHAR16)s[i] : L'?';
    }
}

int fw_console_count(void) { return fw_nconsoles; }

/* ---- start-up ------------------------------------------------------------------ */

void fw_init(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
    fw_image = image;
    fw_st = st;
    InitializeLib(image, st);
    /* The firmware resets the machine after 5 minutes otherwise. */
    fw_watchdog = BS->SetWatchdogTimer(0, 0, 0, NULL);
    fw_find_consoles();
}

EFI_STATUS fw_watchdog_status(void) { return fw_watchdog; }

EFI_STATUS fw_watchdog_arm(UINTN seconds)
{
    /* 0x10000 and up are the codes the spec leaves to applications. */
    return BS->SetWatchdogTimer(seconds, 0x10000, 0, NULL);
}

/* A timer event that fires `seconds` from now (relative, 100 ns units). */
static EFI_STATUS fw_timer_in(UINT64 seconds, EFI_EVENT *ev)
{
    EFI_STATUS s = BS->CreateEvent(EVT_TIMER, 0, NULL, NULL, ev);
    if (EFI_ERROR(s))
        return s;
    s = BS->SetTimer(*ev, TimerRelative, seconds * 10000000ULL);
    if (EFI_ERROR(s))
        BS->CloseEvent(*ev);
    return s;
}

EFI_STATUS fw_idle(UINT64 seconds)
{
    EFI_EVENT ev;
    UINTN index;
    EFI_STATUS s = fw_timer_in(seconds, &ev);
    if (EFI_ERROR(s))
        return s;
    /* WaitForEvent halts the CPU between the firmware's timer ticks, so the
     * machine is idle, interrupts enabled. */
    s = BS->WaitForEvent(1, &ev, &index);
    BS->CloseEvent(ev);
    return s;
}

EFI_STATUS fw_wait_key(UINT64 seconds)
{
    EFI_EVENT ev[2];
    UINTN n = 1, index = 0;
    EFI_INPUT_KEY key;
    EFI_STATUS s;

    if (!ST->ConIn)
        return EFI_UNSUPPORTED;
    ST->ConIn->Reset(ST->ConIn, FALSE);      /* keys typed during the run do not count */
    ev[0] = ST->ConIn->WaitForKey;
    if (seconds) {
        s = fw_timer_in(seconds, &ev[1]);
        if (EFI_ERROR(s))
            return s;
        n = 2;
    }
    s = BS->WaitForEvent(n, ev, &index);
    if (n == 2)
        BS->CloseEvent(ev[1]);
    if (EFI_ERROR(s))
        return s;
    if (index == 1)
        return EFI_TIMEOUT;
    ST->ConIn->ReadKeyStroke(ST->ConIn, &key);
    return EFI_SUCCESS;
}

static void fw_ascii(char *dst, size_t n, const CHAR16 *src, size_t max_chars)
{
    size_t k = 0;
    for (size_t i = 0; src && i < max_chars && src[i] && k + 1 < n; i++)
        dst[k++] = src[i] >= 0x20 && src[i] < 0x7F ? (char)src[i] : ' ';
    if (n)
        dst[k] = 0;
}

void fw_load_options(char *buf, size_t n)
{
    EFI_LOADED_IMAGE *li = NULL;
    buf[0] = 0;
    if (BS->HandleProtocol(fw_image, &LoadedImageProtocol, (void **)&li) != EFI_SUCCESS || !li)
        return;
    if (li->LoadOptions && li->LoadOptionsSize >= 2)
        fw_ascii(buf, n, li->LoadOptions, li->LoadOptionsSize / 2);
}

int fw_time_name(char *buf, size_t n)
{
    EFI_TIME t;
    if (RT->GetTime(&t, NULL) != EFI_SUCCESS) {
        snprintf(buf, n, "00000000-000000");
        return -1;
    }
    snprintf(buf, n, "%04u%02u%02u-%02u%02u%02u", t.Year, t.Month, t.Day, t.Hour, t.Minute, t.Second);
    return 0;
}

void fw_time_iso(char *buf, size_t n)
{
    EFI_TIME t;
    if (RT->GetTime(&t, NULL) != EFI_SUCCESS) {
        snprintf(buf, n, "unknown");
        return;
    }
    snprintf(buf, n, "%04u-%02u-%02uT%02u:%02u:%02u", t.Year, t.Month, t.Day, t.Hour, t.Minute, t.Second);
}

void fw_vendor(char *buf, size_t n) { fw_ascii(buf, n, fw_st->FirmwareVendor, 256); }
uint32_t fw_revision(void) { return fw_st->FirmwareRevision; }
uint32_t fw_uefi_revision(void) { return fw_st->Hdr.Revision; }

int fw_memory_map_each(void (*fn)(const EFI_MEMORY_DESCRIPTOR *d, void *ctx), void *ctx)
{
    UINTN entries, key, desc_size;
    UINT32 desc_version;
    EFI_MEMORY_DESCRIPTOR *map = LibMemoryMap(&entries, &key, &desc_size, &desc_version);

    if (!map)
        return -1;
    for (UINTN i = 0; i < entries; i++)
        fn((const EFI_MEMORY_DESCRIPTOR *)((const char *)map + i * desc_size), ctx);
    FreePool(map);
    return 0;
}

static void fw_count_usable(const EFI_MEMORY_DESCRIPTOR *d, void *ctx)
{
    if (d->Type == EfiConventionalMemory || d->Type == EfiBootServicesCode ||
        d->Type == EfiBootServicesData || d->Type == EfiLoaderCode || d->Type == EfiLoaderData)
        *(uint64_t *)ctx += d->NumberOfPages * 4096;
}

uint64_t fw_conventional_memory(void)
{
    uint64_t bytes = 0;
    fw_memory_map_each(fw_count_usable, &bytes);
    return bytes;
}

void *fw_config_table(EFI_GUID *guid)
{
    for (UINTN i = 0; i < fw_st->NumberOfTableEntries; i++)
        if (!CompareGuid(&fw_st->ConfigurationTable[i].VendorGuid, guid))
            return fw_st->ConfigurationTable[i].VendorTable;
    return NULL;
}

/* ---- the firmware's periodic timer ------------------------------------------- */

/* The Timer Architectural Protocol (UEFI PI specification, volume 2, DXE
 * architectural protocols); GNU-EFI does not declare it. */
#define FW_TIMER_ARCH_GUID \
    { 0x26baccb3, 0x6f42, 0x11d4, { 0xbc, 0xe7, 0x00, 0x80, 0xc7, 0x3c, 0x88, 0x81 } }

struct fw_timer_arch {
    EFI_STATUS (EFIAPI *RegisterHandler)(struct fw_timer_arch *self, void *notify);
    EFI_STATUS (EFIAPI *SetTimerPeriod)(struct fw_timer_arch *self, UINT64 period);
    EFI_STATUS (EFIAPI *GetTimerPeriod)(struct fw_timer_arch *self, UINT64 *period);
    EFI_STATUS (EFIAPI *GenerateSoftInterrupt)(struct fw_timer_arch *self);
};

static struct fw_timer_arch *fw_timer_protocol(void)
{
    static struct fw_timer_arch *timer;
    static int looked;
    EFI_GUID guid = FW_TIMER_ARCH_GUID;

    if (!looked) {
        looked = 1;
        if (BS->LocateProtocol(&guid, NULL, (void **)&timer) != EFI_SUCCESS)
            timer = NULL;
    }
    return timer;
}

EFI_STATUS fw_timer_stop(UINT64 *old_period)
{
    struct fw_timer_arch *t = fw_timer_protocol();
    EFI_STATUS s;

    *old_period = 0;
    if (!t)
        return EFI_NOT_FOUND;
    s = t->GetTimerPeriod(t, old_period);
    if (s != EFI_SUCCESS)
        return s;
    if (*old_period == 0)       /* already stopped: nothing to undo */
        return EFI_SUCCESS;
    return t->SetTimerPeriod(t, 0);
}

EFI_STATUS fw_timer_restore(UINT64 period)
{
    struct fw_timer_arch *t = fw_timer_protocol();
    if (!t)
        return EFI_NOT_FOUND;
    return period ? t->SetTimerPeriod(t, period) : EFI_SUCCESS;
}

/* ---- paths and the loaded image --------------------------------------------------- */

void fw_wide(CHAR16 *dst, const char *src)
{
    size_t i = 0;
    for (; src[i] && i + 1 < FW_PATH_MAX; i++)
        dst[i] = (CHAR16)(unsigned char)src[i];
    dst[i] = 0;
}

EFI_HANDLE fw_image_handle(void) { return fw_image; }

EFI_HANDLE fw_boot_device(void)
{
    EFI_LOADED_IMAGE *li = fw_loaded_image();
    return li ? li->DeviceHandle : NULL;
}

/* ---- variables and the running image ---------------------------------------------- */

EFI_STATUS fw_variable(const CHAR16 *name, EFI_GUID *vendor, void *buf, UINTN *size, UINT32 *attributes)
{
    UINT32 attr = 0;
    EFI_STATUS s = RT->GetVariable((CHAR16 *)name, vendor, &attr, size, buf);
    if (attributes)
        *attributes = attr;
    return s;
}

EFI_STATUS fw_set_variable(const CHAR16 *name, EFI_GUID *vendor, UINT32 attributes, const void *buf, UINTN size)
{
    return RT->SetVariable((CHAR16 *)name, vendor, attributes, size, (void *)buf);
}

EFI_LOADED_IMAGE *fw_loaded_image(void)
{
    EFI_LOADED_IMAGE *li = NULL;
    if (BS->HandleProtocol(fw_image, &LoadedImageProtocol, (void **)&li) != EFI_SUCCESS)
        return NULL;
    return li;
}

void *fw_locate_protocol(EFI_GUID *guid)
{
    void *iface = NULL;
    return BS->LocateProtocol(guid, NULL, &iface) == EFI_SUCCESS ? iface : NULL;
}

/* ---- images ------------------------------------------------------------------------ */

EFI_STATUS fw_image_start(const char *path, void *buf, size_t n, EFI_HANDLE *child, const char **stage)
{
    EFI_LOADED_IMAGE *li = NULL;
    EFI_DEVICE_PATH *dp = NULL;
    CHAR16 wpath[FW_PATH_MAX];
    EFI_STATUS s;

    *child = NULL;
    *stage = "LoadImage";
    fw_wide(wpath, path);
    if (BS->HandleProtocol(fw_image, &LoadedImageProtocol, (void **)&li) == EFI_SUCCESS)
        dp = FileDevicePath(li->DeviceHandle, wpath);
    s = BS->LoadImage(FALSE, fw_image, dp, buf, n, child);
    if (dp)
        FreePool(dp);
    if (s == EFI_SECURITY_VIOLATION) {
        /* Loaded but not allowed to start (Secure Boot): unload it. */
        BS->UnloadImage(*child);
        *child = NULL;
    }
    if (s != EFI_SUCCESS)
        return s;
    *stage = "StartImage";
    s = BS->StartImage(*child, NULL, NULL);
    if (s != EFI_SUCCESS) {
        /* A driver whose entry point fails is unloaded by the firmware. */
        *child = NULL;
    }
    return s;
}

void *fw_handle_protocol(EFI_HANDLE h, EFI_GUID *guid)
{
    void *iface = NULL;
    return BS->HandleProtocol(h, guid, &iface) == EFI_SUCCESS ? iface : NULL;
}

EFI_STATUS fw_image_unload(EFI_HANDLE child)
{
    return BS->UnloadImage(child);
}

const char *fw_status_name(EFI_STATUS s)
{
    switch (s) {
    case EFI_SUCCESS: return "EFI_SUCCESS";
    case EFI_WRITE_PROTECTED: return "EFI_WRITE_PROTECTED";
    case EFI_VOLUME_FULL: return "EFI_VOLUME_FULL";
    case EFI_NOT_FOUND: return "EFI_NOT_FOUND";
    case EFI_ACCESS_DENIED: return "EFI_ACCESS_DENIED";
    case EFI_DEVICE_ERROR: return "EFI_DEVICE_ERROR";
    case EFI_MEDIA_CHANGED: return "EFI_MEDIA_CHANGED";
    case EFI_NO_MEDIA: return "EFI_NO_MEDIA";
    case EFI_VOLUME_CORRUPTED: return "EFI_VOLUME_CORRUPTED";
    case EFI_OUT_OF_RESOURCES: return "EFI_OUT_OF_RESOURCES";
    case EFI_UNSUPPORTED: return "EFI_UNSUPPORTED";
    case EFI_NOT_READY: return "EFI_NOT_READY";
    case EFI_INVALID_PARAMETER: return "EFI_INVALID_PARAMETER";
    case EFI_LOAD_ERROR: return "EFI_LOAD_ERROR";
    case EFI_SECURITY_VIOLATION: return "EFI_SECURITY_VIOLATION";
    case EFI_BUFFER_TOO_SMALL: return "EFI_BUFFER_TOO_SMALL";
    case EFI_ABORTED: return "EFI_ABORTED";
    case EFI_WARN_DELETE_FAILURE: return "EFI_WARN_DELETE_FAILURE";
    default: return "EFI error";
    }
}

void fw_shutdown(void)
{
    RT->ResetSystem(EfiResetShutdown, EFI_SUCCESS, 0, NULL);
}
