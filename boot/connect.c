/*
 * boot/connect.c - connect every controller the firmware left alone.
 *
 * Firmware that boots by a boot order (fast boot on many boards; OVMF
 * whenever QEMU passes a boot order) connects drivers only to the devices
 * on that order's path, so a stick or disk with no boot entry has no block
 * device and no file system.  The UEFI shell's `connect -r` and the boot
 * manager's "connect all" fix that by calling ConnectController(h, NULL,
 * NULL, TRUE) on each handle: every driver whose Supported() accepts the
 * controller starts, and then, recursively, on each child it made (PCI
 * devices, then USB devices, then block devices, partitions, file systems).
 * A controller already driven answers "already started" and is left as it
 * is.  Drivers can make more handles than the sweep saw (a bus enumerated
 * on a timer), so a sweep that added handles is followed by another one.
 *
 * The bound: a sweep stops starting new calls once CONNECT_BOUND_S seconds
 * have passed; a single ConnectController call cannot be interrupted, so
 * one slow driver can overrun it by its own duration.  Time is counted
 * with a periodic firmware timer event (10 ms), not the TSC: the TSC's rate
 * is not measured yet when the results volume is chosen.
 */
#include <efi.h>
#include <efilib.h>

#include "connect.h"

#define CONNECT_TICK_100NS 100000ULL        /* 10 ms */
#define CONNECT_TICK_MS    10
#define CONNECT_SWEEPS     3

static volatile UINT64 connect_ticks;

static VOID EFIAPI connect_tick(EFI_EVENT ev, VOID *ctx)
{
    (void)ev;
    (void)ctx;
    connect_ticks++;
}

static int connect_late(int ticking)
{
    return ticking && connect_ticks * CONNECT_TICK_MS >= CONNECT_BOUND_S * 1000ULL;
}

/* The handles with a device path, as a pool buffer (count in *n). */
static EFI_HANDLE *connect_handles(UINTN *n)
{
    EFI_HANDLE *h = NULL;
    *n = 0;
    if (BS->LocateHandleBuffer(ByProtocol, &DevicePathProtocol, NULL, n, &h) != EFI_SUCCESS) {
        *n = 0;
        return NULL;
    }
    return h;
}

void connect_all(struct connect_report *r)
{
    EFI_EVENT tick = NULL;
    int ticking = 0;
    UINTN n = 0;
    EFI_HANDLE *h = connect_handles(&n);

    r->controllers = 0;
    r->handles_before = r->handles_after = (unsigned)n;
    r->passes = 0;
    r->elapsed_ms = 0;
    r->bounded = 0;
    connect_ticks = 0;
    if (BS->CreateEvent(EVT_TIMER | EVT_NOTIFY_SIGNAL, TPL_CALLBACK, connect_tick, NULL, &tick) == EFI_SUCCESS) {
        if (BS->SetTimer(tick, TimerPeriodic, CONNECT_TICK_100NS) == EFI_SUCCESS)
            ticking = 1;
        else
            BS->CloseEvent(tick);
    }
    r->ms_known = ticking;
    while (h && r->passes < CONNECT_SWEEPS) {
        UINTN before = n;
        r->passes++;
        for (UINTN i = 0; i < n; i++) {
            if (connect_late(ticking)) {
                r->bounded = 1;
                break;
            }
            if (BS->ConnectController(h[i], NULL, NULL, TRUE) == EFI_SUCCESS)
                r->controllers++;
        }
        FreePool(h);
        h = connect_handles(&n);
        r->handles_after = (unsigned)n;
        if (r->bounded || n <= before)
            break;
    }
    if (h)
        FreePool(h);
    if (ticking) {
        BS->SetTimer(tick, TimerCancel, 0);
        BS->CloseEvent(tick);
        r->elapsed_ms = connect_ticks * CONNECT_TICK_MS;
    }
}
