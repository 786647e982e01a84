/*
 * boot/firmware.h - the UEFI services baremark uses, behind small wrappers.
 * Everything here must be called with interrupts enabled (firmware file I/O
 * is only allowed at TPL_CALLBACK or below).
 */
#ifndef BAREMARK_FIRMWARE_H
#define BAREMARK_FIRMWARE_H

#include <efi.h>
#include <stddef.h>
#include <stdint.h>

/* Start: remember the image and system table, turn the watchdog off. */
void fw_init(EFI_HANDLE image, EFI_SYSTEM_TABLE *st);
/* Status of the watchdog call (EFI_SUCCESS when disabled). */
EFI_STATUS fw_watchdog_status(void);
/* Arm the watchdog again (the boot manager's is 5 minutes = 300 s). */
EFI_STATUS fw_watchdog_arm(UINTN seconds);
/* Wait `seconds` with interrupts enabled and the CPU halted between timer
 * ticks (a firmware timer event). */
EFI_STATUS fw_idle(UINT64 seconds);
/* Wait for a key on the firmware console (and consume it), at most
 * `seconds` (0: no limit).  EFI_SUCCESS: a key; EFI_TIMEOUT: time ran out. */
EFI_STATUS fw_wait_key(UINT64 seconds);

/* Text to every firmware text console that is not a serial port (the image
 * drives COM1 itself; writing to a firmware serial console too would print
 * every line twice).  Converts "\n" to "\r\n". */
void fw_console_write(const char *s, size_t n);
/* Number of non-serial consoles found. */
int fw_console_count(void);

/* The load options as ASCII (empty when none). */
void fw_load_options(char *buf, size_t n);

/* Firmware clock as "YYYYMMDD-HHMMSS"; returns 0 or -1 with "00000000-000000". */
int fw_time_name(char *buf, size_t n);
/* Firmware clock as ISO 8601 "YYYY-MM-DDTHH:MM:SS". */
void fw_time_iso(char *buf, size_t n);

/* Firmware vendor (ASCII), revision, UEFI revision. */
void fw_vendor(char *buf, size_t n);
uint32_t fw_revision(void);
uint32_t fw_uefi_revision(void);

/* Conventional memory in bytes, from the memory map. */
uint64_t fw_conventional_memory(void);
/* Call fn for every descriptor of the firmware's memory map (a copy read
 * now, freed after): the one walk of the map.  Returns 0, or -1 when the
 * map could not be read (fn is then never called). */
int fw_memory_map_each(void (*fn)(const EFI_MEMORY_DESCRIPTOR *d, void *ctx), void *ctx);

/* The EFI configuration table entry with this GUID, or NULL. */
void *fw_config_table(EFI_GUID *guid);

/* The firmware's periodic timer interrupt (Timer Architectural Protocol).
 * fw_timer_stop reads its period (100 ns units, 0 = already stopped) into
 * *old_period and stops it (SetTimerPeriod(0)); fw_timer_restore programs
 * the old period again.  Timer events (USB, disk, console input) do not run
 * in between: restore before any firmware I/O.  EFI_NOT_FOUND when the
 * firmware does not publish the protocol. */
EFI_STATUS fw_timer_stop(UINT64 *old_period);
EFI_STATUS fw_timer_restore(UINT64 period);

/* ---- paths and the loaded image --------------------------------------------------- */
/* Longest path, in characters with its NUL, that the wrappers pass on. */
#define FW_PATH_MAX 260
/* An ASCII path as UCS-2 for the firmware (cut at FW_PATH_MAX - 1). */
void fw_wide(CHAR16 *dst, const char *src);
/* The handle of baremark's own image (fw_init's). */
EFI_HANDLE fw_image_handle(void);
/* The handle of the device the image was loaded from (NULL if unknown). */
EFI_HANDLE fw_boot_device(void);

/* ---- variables and the running image ------------------------------------------------ */
/* GetVariable: *size in, bytes read out; EFI_NOT_FOUND when absent,
 * EFI_BUFFER_TOO_SMALL with the size needed. */
EFI_STATUS fw_variable(const CHAR16 *name, EFI_GUID *vendor, void *buf, UINTN *size, UINT32 *attributes);
/* SetVariable: write it with these attributes; size 0 deletes it
 * (EFI_NOT_FOUND when it was not there). */
EFI_STATUS fw_set_variable(const CHAR16 *name, EFI_GUID *vendor, UINT32 attributes, const void *buf, UINTN size);
/* The loaded image protocol of baremark's own image (NULL if missing). */
EFI_LOADED_IMAGE *fw_loaded_image(void);
/* LocateProtocol: the first interface of `guid` anywhere, or NULL. */
void *fw_locate_protocol(EFI_GUID *guid);

/* ---- images (plug-ins) ------------------------------------------------------------ */
/* LoadImage from a buffer holding the file at `path` on the ESP (the path
 * goes into the image's device path), then StartImage.  On success *child
 * is the started image's handle; on failure nothing stays loaded and
 * *stage says which call failed ("LoadImage", "StartImage"). */
EFI_STATUS fw_image_start(const char *path, void *buf, size_t n, EFI_HANDLE *child, const char **stage);
/* The interface of protocol `guid` on a handle, or NULL. */
void *fw_handle_protocol(EFI_HANDLE h, EFI_GUID *guid);
/* UnloadImage. */
EFI_STATUS fw_image_unload(EFI_HANDLE child);

/* A short name for an EFI status: "EFI_WRITE_PROTECTED". */
const char *fw_status_name(EFI_STATUS s);

/* Power off (ResetSystem shutdown). */
void fw_shutdown(void);

#endif
