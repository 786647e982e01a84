/*
 * plugins/plugin_efi.c - the UEFI entry point linked into every plug-in
 * image by tools/baremark-plugin.  The image is a boot-service driver, so it
 * stays loaded after this returns; it publishes the plug-in's table as
 * BM_PLUGIN_PROTOCOL_GUID on its own image handle, where baremark finds it.
 * Its Unload function takes the protocol away again, so baremark can
 * UnloadImage it at the end of the run (the firmware refuses to unload a
 * started driver that has no Unload function).
 */
#include <efi.h>

#include "baremark_plugin.h"

extern const struct bm_plugin baremark_plugin;

static EFI_BOOT_SERVICES *plugin_bs;

static EFI_STATUS EFIAPI plugin_unload(EFI_HANDLE image)
{
    EFI_GUID guid = BM_PLUGIN_PROTOCOL_GUID;
    return plugin_bs->UninstallProtocolInterface(image, &guid, (void *)&baremark_plugin);
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
    EFI_GUID guid = BM_PLUGIN_PROTOCOL_GUID, li_guid = LOADED_IMAGE_PROTOCOL;
    EFI_HANDLE handle = image;
    EFI_LOADED_IMAGE *li = NULL;

    plugin_bs = st->BootServices;
    if (plugin_bs->HandleProtocol(image, &li_guid, (void **)&li) == EFI_SUCCESS && li)
        li->Unload = plugin_unload;
    return plugin_bs->InstallProtocolInterface(&handle, &guid, EFI_NATIVE_INTERFACE,
                                               (void *)&baremark_plugin);
}
