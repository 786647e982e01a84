/*
 * plugins/plugin_efi.c - the UEFI entry point linked into every plug-in
 * image by tools/baremark-plugin.  The image is a boot-service driver, so it
 * stays loaded after this returns; it publishes the plug-in's table as
 * BM_PLUGIN_PROTOCOL_GUID on its own image handle, where baremark finds it.
 */
#include <efi.h>

#include "baremark_plugin.h"

extern const struct bm_plugin baremark_plugin;

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
    EFI_GUID guid = BM_PLUGIN_PROTOCOL_GUID;
    EFI_HANDLE handle = image;
    return st->BootServices->InstallProtocolInterface(&handle, &guid, EFI_NATIVE_INTERFACE,
                                                      (void *)&baremark_plugin);
}
