/*
 * boot/file_replace.c - a whole file replaced through a temporary name (see
 * file_replace.h).  FAT has no atomic replace: rewriting a file in place
 * can leave, after a power cut inside the firmware's write, the first part
 * new and the rest old or cut short.  Writing PATH.new first, then
 * deleting PATH and renaming PATH.new means that PATH itself is only ever
 * the old complete text, absent (between the delete and the rename: two
 * directory entries, written in one flush each), or the new complete text;
 * or, for the instant PATH is overwritten with zeros before its delete
 * (esp_file_scrub: the clusters it frees then hold none of its text), a
 * file with NUL bytes in it, which the next boot replaces with the whole
 * PATH.new.
 */
#include <efi.h>
#include <efilib.h>
#include <stdio.h>
#include <string.h>

#include "file_replace.h"
#include "esp_files.h"
#include "json_read.h"
#include "platform.h"

#define REPLACE_PATH_MAX   260
#define REPLACE_LEFT_MAX   16          /* leftovers handled per boot; the rest next time */
#define REPLACE_NAME_MAX   96

static const char *replace_leaf(const char *path)
{
    const char *leaf = strrchr(path, '\\');
    return leaf ? leaf + 1 : path;
}

/* Rename an open file within its directory: SetInfo with the file's own
 * EFI_FILE_INFO and a new FileName.  The specification's rules for SetInfo
 * with EFI_FILE_INFO fix the directory bit and PhysicalSize, not the name
 * (and a zero time means "keep"); EDK II's FAT driver (FatPkg, Info.c
 * FatSetFileInfo) takes a name without a leading '\' as relative to the
 * file's own directory, moves the directory entry and flushes, and refuses
 * a name that exists with EFI_ACCESS_DENIED: hence the delete first. */
static EFI_STATUS replace_rename(EFI_FILE_HANDLE f, const char *leaf)
{
    size_t len = strlen(leaf);
    UINTN size = SIZE_OF_EFI_FILE_INFO + (len + 1) * sizeof(CHAR16);
    EFI_FILE_INFO *old = LibFileInfo(f), *info;
    EFI_STATUS s;

    if (!old)
        return EFI_DEVICE_ERROR;
    info = AllocateZeroPool(size);
    if (!info) {
        FreePool(old);
        return EFI_OUT_OF_RESOURCES;
    }
    CopyMem(info, old, SIZE_OF_EFI_FILE_INFO);
    FreePool(old);
    info->Size = size;
    for (size_t i = 0; i <= len; i++)
        info->FileName[i] = (CHAR16)(unsigned char)leaf[i];
    s = f->SetInfo(f, &GenericFileInfo, size, info);
    FreePool(info);
    if (s == EFI_SUCCESS)
        s = f->Flush(f);
    return s;
}

EFI_STATUS replace_whole(const char *path, const void *buf, size_t n, replace_step_fn step)
{
    char tmp[REPLACE_PATH_MAX];
    EFI_FILE_HANDLE f, old;
    EFI_STATUS s;

    snprintf(tmp, sizeof tmp, "%s" REPLACE_SUFFIX, path);
    /* A PATH.new of ours that an earlier failure left: start afresh. */
    esp_delete(tmp);
    s = esp_create(tmp, &f);
    if (s != EFI_SUCCESS)
        return s;
    s = esp_file_rewrite(f, buf, n);          /* written and flushed */
    if (s != EFI_SUCCESS) {
        esp_file_delete(f);                   /* a partial copy: the old PATH stays */
        return s;
    }
    if (step)
        step("written");
    s = esp_open_rw(path, &old);
    if (s == EFI_NOT_FOUND) {
        s = EFI_SUCCESS;
    } else if (s == EFI_SUCCESS) {
        esp_file_scrub(old);
        if (step)
            step("scrubbed");
        s = old->Delete(old) == EFI_SUCCESS ? EFI_SUCCESS : EFI_WARN_DELETE_FAILURE;
    }
    if (s == EFI_SUCCESS && step)
        step("deleted");
    if (s == EFI_SUCCESS)
        s = replace_rename(f, replace_leaf(path));
    if (s != EFI_SUCCESS) {
        esp_file_delete(f);
        return s;
    }
    f->Close(f);
    return EFI_SUCCESS;
}

/* ---- what a cut left: the next boot ---------------------------------------- */

struct replace_left {
    char names[REPLACE_LEFT_MAX][REPLACE_NAME_MAX];
    unsigned n, more;
};

static void replace_collect(const char *name, uint64_t size, void *ctx)
{
    struct replace_left *L = ctx;
    size_t len = strlen(name), k = sizeof REPLACE_SUFFIX - 1;
    (void)size;
    if (len <= k || strcmp(name + len - k, REPLACE_SUFFIX) || len >= REPLACE_NAME_MAX)
        return;
    if (L->n < REPLACE_LEFT_MAX)
        snprintf(L->names[L->n++], REPLACE_NAME_MAX, "%s", name);
    else
        L->more++;
}

/* NAME absent: rename NAME.new into place when it is one whole JSON value
 * (it was complete and flushed before the old NAME was deleted); `known`:
 * whole whatever it holds (NAME was being scrubbed, which begins only once
 * NAME.new is written and flushed). */
static int replace_finish(const char *tmp, const char *leaf, int known)
{
    size_t len = 0;
    EFI_FILE_HANDLE f;
    char *text = known ? NULL : esp_save_read(tmp, &len, NULL);
    int whole = known || (text && len && !jval_is_none(jval_doc(text, len)));
    if (text)
        FreePool(text);
    if (!whole || esp_open_rw(tmp, &f) != EFI_SUCCESS)
        return 0;
    EFI_STATUS s = replace_rename(f, leaf);
    f->Close(f);
    return s == EFI_SUCCESS;
}

/* Does PATH hold a NUL byte?  Our files are text: a NUL is the scrub before
 * its delete (replace_whole), cut short. */
static int replace_scrubbed(const char *path)
{
    size_t len = 0;
    char *text = esp_save_read(path, &len, NULL);
    int nul = text && memchr(text, 0, len) != NULL;
    if (text)
        FreePool(text);
    return nul;
}

static void replace_one(const char *dir, const char *name)
{
    char tmp[REPLACE_PATH_MAX], path[REPLACE_PATH_MAX], leaf[REPLACE_NAME_MAX];
    size_t k = strlen(name) - (sizeof REPLACE_SUFFIX - 1);

    snprintf(leaf, sizeof leaf, "%.*s", (int)k, name);
    snprintf(tmp, sizeof tmp, "%s\\%s", dir, name);
    snprintf(path, sizeof path, "%s\\%s", dir, leaf);
    int have = esp_exists(path);
    if (have && replace_scrubbed(path)) {
        if (esp_delete(path) == EFI_SUCCESS && replace_finish(tmp, leaf, 1))
            out_printf("files: %s\\%s renamed to %s: a power cut came while the old %s was cleared "
                       "for it, once it was written whole\n", dir, name, leaf, leaf);
        else
            out_printf("files: %s\\%s could not take the place of %s, which a power cut left half "
                       "cleared; what is left is kept for the next boot\n", dir, name, leaf);
    } else if (have) {
        EFI_STATUS s = esp_delete(tmp);
        out_printf("files: %s %s\\%s, left by a power cut while it was written; %s is the last "
                   "complete version\n", s == EFI_SUCCESS ? "removed" : "could not remove", dir, name, leaf);
    } else if (replace_finish(tmp, leaf, 0)) {
        out_printf("files: %s\\%s renamed to %s: a power cut came after it was written whole, "
                   "before the rename\n", dir, name, leaf);
    } else {
        out_printf("files: kept %s\\%s, left by a power cut while it was written (not one whole "
                   "JSON value and %s absent); no tool reads it as a run\n", dir, name, leaf);
    }
}

unsigned replace_leftovers(const char *dir)
{
    static struct replace_left L;      /* 1.5 KB: off the firmware's small stack */
    L.n = L.more = 0;
    if (esp_save_list(dir, replace_collect, &L) != EFI_SUCCESS)
        return 0;
    for (unsigned i = 0; i < L.n; i++)      /* after the listing: no change while reading the directory */
        replace_one(dir, L.names[i]);
    if (L.more)
        out_printf("files: %u more *%s file%s in %s, handled by the next boots\n", L.more, REPLACE_SUFFIX,
                   L.more == 1 ? "" : "s", dir);
    return L.n + L.more;
}
