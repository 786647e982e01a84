/*
 * boot/esp_files.c - files on the volume the image was loaded from (the ESP)
 * and on the results volume (see esp_files.h).  The firmware's calls
 * themselves are firmware.c's.
 */
#include <efi.h>
#include <efilib.h>

#include "esp_files.h"
#include "firmware.h"

static EFI_FILE_HANDLE esp_root;        /* the volume the image was loaded from */
static EFI_FILE_HANDLE esp_save_root;   /* where results go: esp_root unless moved */

EFI_STATUS esp_open(void)
{
    EFI_LOADED_IMAGE *li = NULL;
    EFI_FILE_IO_INTERFACE *fs = NULL;
    EFI_STATUS s;

    if (esp_root)
        return EFI_SUCCESS;
    s = BS->HandleProtocol(fw_image_handle(), &LoadedImageProtocol, (void **)&li);
    if (s != EFI_SUCCESS)
        return s;
    s = BS->HandleProtocol(li->DeviceHandle, &FileSystemProtocol, (void **)&fs);
    if (s != EFI_SUCCESS)
        return s;
    s = fs->OpenVolume(fs, &esp_root);
    if (s == EFI_SUCCESS && !esp_save_root)
        esp_save_root = esp_root;
    return s;
}

void esp_save_to(EFI_FILE_HANDLE root) { esp_save_root = root; }
int esp_save_moved(void) { return esp_save_root && esp_save_root != esp_root; }

static EFI_STATUS esp_open_on(EFI_FILE_HANDLE root, const char *path, UINT64 mode, UINT64 attr,
                             EFI_FILE_HANDLE *out)
{
    CHAR16 wpath[FW_PATH_MAX];
    if (!root)
        return EFI_NOT_READY;
    fw_wide(wpath, path);
    return root->Open(root, out, wpath, mode, attr);
}

/* Reads come from the boot volume; what the run writes (and reads back:
 * the plug-in markers) goes to the results volume. */
static EFI_STATUS esp_open_file(const char *path, UINT64 mode, UINT64 attr, EFI_FILE_HANDLE *out)
{
    return esp_open_on(mode & EFI_FILE_MODE_WRITE ? esp_save_root : esp_root, path, mode, attr, out);
}

static EFI_STATUS esp_open_save(const char *path, UINT64 mode, UINT64 attr, EFI_FILE_HANDLE *out)
{
    return esp_open_on(esp_save_root, path, mode, attr, out);
}

static void *esp_read_whole(EFI_FILE_HANDLE f, size_t *size, EFI_STATUS *status);

void *esp_read(const char *path, size_t *size, EFI_STATUS *status)
{
    EFI_FILE_HANDLE f;
    EFI_STATUS s = esp_open_file(path, EFI_FILE_MODE_READ, 0, &f);
    if (s == EFI_SUCCESS)
        return esp_read_whole(f, size, status);
    if (status)
        *status = s;
    return NULL;
}

void *esp_save_read(const char *path, size_t *size, EFI_STATUS *status)
{
    EFI_FILE_HANDLE f;
    EFI_STATUS s = esp_open_save(path, EFI_FILE_MODE_READ, 0, &f);
    if (s == EFI_SUCCESS)
        return esp_read_whole(f, size, status);
    if (status)
        *status = s;
    return NULL;
}

/* Read an open file whole and close it. */
static void *esp_read_whole(EFI_FILE_HANDLE f, size_t *size, EFI_STATUS *status)
{
    EFI_FILE_INFO *info;
    char *buf = NULL;
    UINTN n;
    EFI_STATUS s;

    info = LibFileInfo(f);
    s = EFI_DEVICE_ERROR;
    if (info) {
        n = info->FileSize;
        FreePool(info);
        buf = AllocatePool(n + 1);
        s = buf ? f->Read(f, &n, buf) : EFI_OUT_OF_RESOURCES;
        if (s == EFI_SUCCESS) {
            buf[n] = 0;
            *size = n;
        } else if (buf) {
            FreePool(buf);
            buf = NULL;
        }
    }
    f->Close(f);
    if (status)
        *status = s;
    return buf;
}
int esp_exists(const char *path)
{
    EFI_FILE_HANDLE f;
    if (esp_open_save(path, EFI_FILE_MODE_READ, 0, &f) != EFI_SUCCESS)
        return 0;
    f->Close(f);
    return 1;
}

EFI_STATUS esp_mkdir(const char *path)
{
    EFI_FILE_HANDLE f;
    EFI_STATUS s;

    if (esp_open_save(path, EFI_FILE_MODE_READ, 0, &f) == EFI_SUCCESS) {
        f->Close(f);
        return EFI_SUCCESS;
    }
    s = esp_open_file(path, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE,
                EFI_FILE_DIRECTORY, &f);
    if (s == EFI_SUCCESS)
        f->Close(f);
    return s;
}

EFI_STATUS esp_create(const char *path, EFI_FILE_HANDLE *out)
{
    if (esp_exists(path))
        return EFI_ACCESS_DENIED;
    return esp_open_file(path, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE, 0, out);
}

EFI_STATUS esp_file_write_at(EFI_FILE_HANDLE f, uint64_t at, const void *buf, size_t n)
{
    UINTN len = n;
    EFI_STATUS s = f->SetPosition(f, at);
    if (s == EFI_SUCCESS && n)
        s = f->Write(f, &len, (void *)buf);
    if (s == EFI_SUCCESS && len != n)
        s = EFI_VOLUME_FULL;
    if (s == EFI_SUCCESS)
        s = f->Flush(f);
    return s;
}

EFI_STATUS esp_file_rewrite(EFI_FILE_HANDLE f, const void *buf, size_t n)
{
    EFI_STATUS s = esp_file_write_at(f, 0, buf, n);
    EFI_FILE_INFO *info;

    if (s != EFI_SUCCESS)
        return s;
    info = LibFileInfo(f);
    if (!info)
        return EFI_DEVICE_ERROR;
    if (info->FileSize != n) {
        info->FileSize = n;
        s = f->SetInfo(f, &GenericFileInfo, info->Size, info);
        if (s == EFI_SUCCESS)
            s = f->Flush(f);
    }
    FreePool(info);
    return s;
}

void esp_file_close(EFI_FILE_HANDLE f)
{
    if (f)
        f->Close(f);
}

static EFI_STATUS esp_list_on(EFI_FILE_HANDLE root, const char *dir,
                             void (*fn)(const char *name, uint64_t size, void *ctx), void *ctx)
{
    EFI_FILE_HANDLE d;
    UINTN cap = SIZE_OF_EFI_FILE_INFO + FW_PATH_MAX * sizeof(CHAR16);
    EFI_FILE_INFO *info;
    EFI_STATUS s = esp_open_on(root, dir, EFI_FILE_MODE_READ, 0, &d);

    if (s != EFI_SUCCESS)
        return s;
    info = AllocatePool(cap);
    if (!info) {
        d->Close(d);
        return EFI_OUT_OF_RESOURCES;
    }
    for (;;) {
        UINTN n = cap;
        char name[FW_PATH_MAX];
        s = d->Read(d, &n, info);
        if (s != EFI_SUCCESS || n == 0)
            break;
        if (info->Attribute & EFI_FILE_DIRECTORY)
            continue;
        size_t k = 0;
        for (; info->FileName[k] && k + 1 < sizeof name; k++)
            name[k] = info->FileName[k] < 0x80 ? (char)info->FileName[k] : '?';
        name[k] = 0;
        fn(name, info->FileSize, ctx);
    }
    FreePool(info);
    d->Close(d);
    return s;
}

EFI_STATUS esp_list(const char *dir, void (*fn)(const char *name, uint64_t size, void *ctx), void *ctx)
{
    return esp_list_on(esp_root, dir, fn, ctx);
}

EFI_STATUS esp_save_list(const char *dir, void (*fn)(const char *name, uint64_t size, void *ctx), void *ctx)
{
    return esp_list_on(esp_save_root, dir, fn, ctx);
}

EFI_STATUS esp_open_rw(const char *path, EFI_FILE_HANDLE *out)
{
    return esp_open_file(path, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0, out);
}

/* Zeros over the whole length of an open file, flushed, so that the
 * clusters a delete frees hold none of our text.  EDK II's FAT driver
 * writes its FAT cache before its data cache (FatPkg DiskCache.c,
 * FatVolumeFlushCache), so a directory that grows links a freed cluster
 * into its chain before the zeros it writes there reach the disk; a power
 * cut between the two leaves whatever the cluster held to be read as
 * directory entries (fsck.fat: "has a large number of bad entries").
 * Zeros read as the directory's end. */
EFI_STATUS esp_file_scrub(EFI_FILE_HANDLE f)
{
    static const UINT8 zeros[16384];
    EFI_FILE_INFO *info = LibFileInfo(f);
    EFI_STATUS s = EFI_SUCCESS;
    UINT64 size;

    if (!info)
        return EFI_DEVICE_ERROR;
    size = info->FileSize;
    FreePool(info);
    for (UINT64 at = 0; at < size && s == EFI_SUCCESS; at += sizeof zeros) {
        UINTN n = size - at < sizeof zeros ? (UINTN)(size - at) : sizeof zeros;
        s = f->SetPosition(f, at);
        if (s == EFI_SUCCESS)
            s = f->Write(f, &n, (void *)zeros);
    }
    if (s == EFI_SUCCESS)
        s = f->Flush(f);
    return s;
}

EFI_STATUS esp_file_delete(EFI_FILE_HANDLE f)
{
    esp_file_scrub(f);          /* a file the scrub fails on is deleted all the same */
    return f->Delete(f) == EFI_SUCCESS ? EFI_SUCCESS : EFI_WARN_DELETE_FAILURE;
}

EFI_STATUS esp_delete(const char *path)
{
    EFI_FILE_HANDLE f;
    EFI_STATUS s = esp_open_file(path, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0, &f);
    if (s == EFI_NOT_FOUND)
        return EFI_SUCCESS;
    if (s != EFI_SUCCESS)
        return s;
    return esp_file_delete(f);
}
