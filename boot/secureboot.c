/*
 * boot/secureboot.c - the boot state a run was measured in (secureboot.h).
 */
#include <efi.h>
#include <efilib.h>
#include <stdio.h>
#include <string.h>

#include "esp_files.h"
#include "firmware.h"
#include "json.h"
#include "platform.h"
#include "pe_image.h"
#include "secureboot.h"
#include "sha256.h"

/* UEFI 2.10, 3.3 "Globally Defined Variables" (EFI_GLOBAL_VARIABLE). */
static EFI_GUID sb_global_guid = { 0x8BE4DF61, 0x93CA, 0x11D2, { 0xAA, 0x0D, 0x00, 0xE0, 0x98, 0x03, 0x2B, 0x8C } };
/* shim's SHIM_LOCK_GUID (rhboot/shim include/guid.h), also the vendor GUID
 * of its variables (MokSBStateRT). */
static EFI_GUID sb_shim_guid = { 0x605DAB50, 0xE046, 0x4300, { 0xAB, 0xB6, 0x3D, 0xD8, 0x10, 0xDD, 0x8B, 0x23 } };

#define SB_PATH_MAX 200

struct sb_state {
    int secure_boot, setup_mode, audit_mode, deployed_mode;   /* -1 = variable absent */
    int shim;                     /* the SHIM_LOCK protocol is installed: shim started us */
    int shim_validation_off;      /* MokSBStateRT = 1 (mokutil --disable-validation); -1 absent */
    char path[SB_PATH_MAX];       /* the image's file on the ESP ("" when unknown) */
    uint64_t bytes;
    char sha256[SHA256_HEX];      /* of that file ("" when it could not be read) */
    char authenticode[SHA256_HEX];  /* its Authenticode SHA-256 ("" when not a whole PE32+ image) */
    int64_t signature_bytes;      /* its certificate table (pe_signature_bytes) */
    EFI_STATUS read_status;
};

static struct sb_state sb;

/* A one-byte variable (SecureBoot, SetupMode...): 0 or 1, -1 when absent. */
static int sb_flag(const CHAR16 *name, EFI_GUID *guid)
{
    UINT8 v[8];
    UINTN n = sizeof v;
    if (fw_variable(name, guid, v, &n, NULL) != EFI_SUCCESS || n < 1)
        return -1;
    return v[0] != 0;
}

/* The file path nodes of the loaded image's device path, joined: under the
 * firmware \EFI\BOOT\BOOTX64.EFI, under shim the second stage it loaded
 * (shim points FilePath at it). */
static void sb_image_path(char *out, size_t n)
{
    EFI_LOADED_IMAGE *li = fw_loaded_image();
    size_t k = 0;
    out[0] = 0;
    if (!li || !li->FilePath)
        return;
    for (EFI_DEVICE_PATH *dp = li->FilePath; !IsDevicePathEnd(dp); dp = NextDevicePathNode(dp)) {
        if (DevicePathType(dp) != MEDIA_DEVICE_PATH || DevicePathSubType(dp) != MEDIA_FILEPATH_DP)
            continue;
        const CHAR16 *p = ((FILEPATH_DEVICE_PATH *)dp)->PathName;
        size_t chars = (DevicePathNodeLength(dp) - 4) / sizeof(CHAR16);
        if (k && out[k - 1] != '\\' && p[0] != '\\' && k + 1 < n)
            out[k++] = '\\';
        for (size_t i = 0; i < chars && p[i] && k + 1 < n; i++)
            out[k++] = p[i] < 0x80 ? (char)p[i] : '?';
        out[k] = 0;
    }
}

/* SHA-256 of the image's file as it is on the ESP (the bytes the firmware
 * or shim loaded and checked), and whether it carries a signature. */
static void sb_image_hash(void)
{
    size_t n = 0;
    uint8_t d[SHA256_DIGEST];
    sb_image_path(sb.path, sizeof sb.path);
    sb.signature_bytes = -1;
    if (!sb.path[0]) {
        sb.read_status = EFI_NOT_FOUND;
        return;
    }
    void *buf = esp_read(sb.path, &n, &sb.read_status);
    if (!buf)
        return;
    sha256(buf, n, d);
    sha256_hex(d, sb.sha256);
    sb.bytes = n;
    sb.signature_bytes = pe_signature_bytes(buf, n);
    if (pe_authenticode_sha256(buf, n, d) == 0)
        sha256_hex(d, sb.authenticode);
    FreePool(buf);
}

static const char *sb_flag_text(int v) { return v < 0 ? "absent" : v ? "1" : "0"; }

static void sb_print(void)
{
    out_printf("secureboot: %s (SecureBoot %s, SetupMode %s, AuditMode %s, DeployedMode %s)\n",
               sb.secure_boot == 1 ? "on" : sb.secure_boot < 0 ? "off (the firmware has no Secure Boot)" : "off",
               sb_flag_text(sb.secure_boot), sb_flag_text(sb.setup_mode), sb_flag_text(sb.audit_mode),
               sb_flag_text(sb.deployed_mode));
    if (sb.shim)
        out_printf("secureboot: started through shim (SHIM_LOCK protocol present)%s\n",
                   sb.shim_validation_off == 1 ? "; shim's validation is disabled (MokSBState)" : "");
    else
        out_printf("secureboot: started by the firmware directly (no shim)\n");
    if (sb.sha256[0])
        out_printf("secureboot: image %s, %llu bytes, %s, SHA-256 %s (of the file on the ESP)\n", sb.path,
                   (unsigned long long)sb.bytes, sb.signature_bytes > 0 ? "signed" : "not signed", sb.sha256);
    if (sb.authenticode[0])
        out_printf("secureboot: image Authenticode SHA-256 %s (a db/dbx hash entry, efitools' hash-to-efi-sig-list)\n",
                   sb.authenticode);
    if (!sb.sha256[0])
        out_printf("secureboot: the image's file %s could not be read (%s): no SHA-256 of it\n",
                   sb.path[0] ? sb.path : "(no file path)", fw_status_name(sb.read_status));
}

static void sb_json_flag(struct json_writer *w, const char *key, int v)
{
    if (v >= 0)
        json_bool(w, key, v);
}

void secureboot_probe(void)
{
    memset(&sb, 0, sizeof sb);
    sb.secure_boot = sb_flag(L"SecureBoot", &sb_global_guid);
    sb.setup_mode = sb_flag(L"SetupMode", &sb_global_guid);
    sb.audit_mode = sb_flag(L"AuditMode", &sb_global_guid);
    sb.deployed_mode = sb_flag(L"DeployedMode", &sb_global_guid);
    sb.shim = fw_locate_protocol(&sb_shim_guid) != NULL;
    sb.shim_validation_off = sb_flag(L"MokSBStateRT", &sb_shim_guid);
    sb_image_hash();
    sb_print();
}

void secureboot_json(struct json_writer *w)
{
    json_obj_begin(w, "secure_boot");
    json_bool(w, "enabled", sb.secure_boot == 1);
    json_bool(w, "supported", sb.secure_boot >= 0);
    sb_json_flag(w, "setup_mode", sb.setup_mode);
    sb_json_flag(w, "audit_mode", sb.audit_mode);
    sb_json_flag(w, "deployed_mode", sb.deployed_mode);
    json_bool(w, "shim", sb.shim);
    if (sb.shim)
        json_bool(w, "shim_validation_disabled", sb.shim_validation_off == 1);
    json_str(w, "image_path", sb.path);
    if (sb.sha256[0]) {
        json_u64(w, "image_bytes", sb.bytes);
        json_str(w, "image_sha256", sb.sha256);
        json_bool(w, "image_signed", sb.signature_bytes > 0);
        if (sb.authenticode[0])
            json_str(w, "image_authenticode_sha256", sb.authenticode);
    }
    json_obj_end(w);
}
