/*
 * boot/volumes.c - a home for the results when the boot volume cannot take
 * them: booted from a CD or a BMC's virtual media (El Torito images are
 * read-only), from the network (no volume, or iPXE's read-only one), or
 * from a write-protected stick.  The results then go to a writable FAT
 * volume the firmware offers, such as a second stick.
 *
 * First every controller the firmware left unconnected is connected
 * (boot/connect.c: firmware that boots by a boot order drives only the boot
 * path, so a results stick with no boot entry has no volume yet), and the
 * serial line says what that did and how long it took.  Then the choice, in
 * order: a volume that already holds \baremark (a stick a lab keeps for
 * results), then the first writable one in the firmware's handle order.
 * Volumes on read-only media are never tried; the boot device is not tried
 * again.
 */
#include <efi.h>
#include <efilib.h>
#include <stdio.h>

#include "connect.h"
#include "esp_files.h"
#include "firmware.h"
#include "platform.h"
#include "volumes.h"

#define VOLUMES_DIR L"\\baremark"

/* The device path as text: the firmware's own converter when it has one
 * (it knows every node of its UEFI version, NVMe's included), else
 * gnu-efi's (which prints nodes it does not know as Path(type,subtype,...)).
 * Either way a pool string, or NULL. */
static CHAR16 *volume_path_text(EFI_DEVICE_PATH *dp)
{
    static EFI_GUID to_text_guid = EFI_DEVICE_PATH_TO_TEXT_PROTOCOL_GUID;
    EFI_DEVICE_PATH_TO_TEXT_PROTOCOL *to_text = fw_locate_protocol(&to_text_guid);
    CHAR16 *text = NULL;

    if (!dp)
        return NULL;
    if (to_text)
        text = to_text->ConvertDevicePathToText(dp, TRUE, FALSE);    /* display form, no shortcuts */
    return text ? text : DevicePathToStr(dp);
}

/* "LABEL" at DEVICE-PATH, as ASCII: what a person needs to find the stick. */
static void volume_name(EFI_HANDLE h, EFI_FILE_HANDLE root, char *buf, size_t n)
{
    EFI_FILE_SYSTEM_INFO *info = LibFileSystemInfo(root);
    EFI_DEVICE_PATH *dp = DevicePathFromHandle(h);
    CHAR16 *text = volume_path_text(dp);
    size_t k = 0;

    buf[0] = 0;
    if (n < 8)
        return;
    buf[k++] = '"';
    for (size_t i = 0; info && info->VolumeLabel[i] && k + 6 < n; i++)
        buf[k++] = info->VolumeLabel[i] >= 0x20 && info->VolumeLabel[i] < 0x7F ? (char)info->VolumeLabel[i] : '?';
    k += snprintf(buf + k, n - k, "\" at ");
    for (size_t i = 0; text && text[i] && k + 1 < n; i++)
        buf[k++] = text[i] >= 0x20 && text[i] < 0x7F ? (char)text[i] : '?';
    buf[k < n ? k : n - 1] = 0;
    if (!text)
        snprintf(buf + k, n - k, "(no device path)");
    if (text)
        FreePool(text);
    if (info)
        FreePool(info);
}

static int volume_read_only(EFI_HANDLE h)
{
    EFI_BLOCK_IO *bio = fw_handle_protocol(h, &BlockIoProtocol);
    return bio && bio->Media && bio->Media->ReadOnly;
}

/* Open h's root; with `existing`, only if \baremark is already there,
 * otherwise create \baremark (which is also the test that it is writable). */
static EFI_FILE_HANDLE volume_try(EFI_HANDLE h, int existing)
{
    EFI_FILE_IO_INTERFACE *fs = fw_handle_protocol(h, &FileSystemProtocol);
    EFI_FILE_HANDLE root = NULL, dir = NULL;
    EFI_STATUS s;

    if (!fs || volume_read_only(h) || fs->OpenVolume(fs, &root) != EFI_SUCCESS)
        return NULL;
    s = root->Open(root, &dir, VOLUMES_DIR, EFI_FILE_MODE_READ, 0);
    if (s != EFI_SUCCESS && !existing)
        s = root->Open(root, &dir, VOLUMES_DIR,
                       EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE, EFI_FILE_DIRECTORY);
    if (s == EFI_SUCCESS) {
        dir->Close(dir);
        return root;
    }
    root->Close(root);
    return NULL;
}

static unsigned volume_count(void)
{
    EFI_HANDLE *h = NULL;
    UINTN n = 0;
    if (BS->LocateHandleBuffer(ByProtocol, &FileSystemProtocol, NULL, &n, &h) != EFI_SUCCESS)
        return 0;
    FreePool(h);
    return (unsigned)n;
}

/* One line: what connecting did, how long it took, what the bound cut. */
static void volume_connect(void)
{
    struct connect_report r;
    char took[48];
    unsigned fs_before = volume_count();

    connect_all(&r);
    if (r.ms_known)
        snprintf(took, sizeof took, "in %u.%02u s", (unsigned)(r.elapsed_ms / 1000),
                 (unsigned)(r.elapsed_ms % 1000 / 10));
    else
        snprintf(took, sizeof took, "(time unknown: no firmware timer event)");
    out_printf("results: connected %u controller%s %s (file systems %u -> %u, device handles %u -> %u, "
               "%u sweep%s; bound %d s%s)\n",
               r.controllers, r.controllers == 1 ? "" : "s", took, fs_before, volume_count(),
               r.handles_before, r.handles_after,
               r.passes, r.passes == 1 ? "" : "s", CONNECT_BOUND_S,
               r.bounded ? ", reached: some devices may not have been connected" : "");
}

int volume_find_writable(char *where, size_t n)
{
    EFI_HANDLE *handles = NULL, boot = fw_boot_device();
    UINTN count = 0;
    int found = 0;

    volume_connect();
    if (BS->LocateHandleBuffer(ByProtocol, &FileSystemProtocol, NULL, &count, &handles) != EFI_SUCCESS)
        return 0;
    for (int existing = 1; existing >= 0 && !found; existing--)
        for (UINTN i = 0; i < count && !found; i++) {
            if (handles[i] == boot)
                continue;
            EFI_FILE_HANDLE root = volume_try(handles[i], existing);
            if (root) {
                esp_save_to(root);
                volume_name(handles[i], root, where, n);
                found = 1;
            }
        }
    FreePool(handles);
    return found;
}
