/*
 * boot/settings.c - defaults, command file, load options, fw_cfg options.
 */
#include <efi.h>
#include <efilib.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "esp_files.h"
#include "firmware.h"
#include "json.h"
#include "lava.h"
#include "output.h"
#include "platform.h"
#include "qemu.h"
#include "settings.h"

#define SETTINGS_OPTS_MAX 1024

struct settings_diag { const char *source; };

static void settings_diag(void *ctx, unsigned line, const char *msg)
{
    const struct settings_diag *d = ctx;
    if (line)
        out_warn("%s line %u: %s (line ignored)", d->source, line, msg);
    else
        out_warn("%s: %s (ignored)", d->source, msg);
}

/* Options from both places, load options first. */
static void settings_options(char *opts, size_t n)
{
    char fwcfg[SETTINGS_OPTS_MAX];
    size_t len;

    fw_load_options(opts, n);
    if (fwcfg_read_file(SETTINGS_FWCFG_NAME, fwcfg, sizeof fwcfg) > 0) {
        len = strlen(opts);
        snprintf(opts + len, n - len, "%s%s", len ? " " : "", fwcfg);
    }
}

static void settings_file(struct bm_config *cfg, const char *name)
{
    char path[96];
    size_t size = 0;
    EFI_STATUS s;
    struct settings_diag d = { path };
    char *text;

    snprintf(path, sizeof path, "%s%s", name[0] == '\\' ? "" : "\\", name);
    text = esp_read(path, &size, &s);
    if (!text) {
        if (strcmp(path, SETTINGS_DEFAULT_FILE) || s != EFI_NOT_FOUND)
            out_warn("command file %s could not be read (%s); using defaults", path, fw_status_name(s));
        else
            out_printf("settings: no %s, using defaults\n", path);
        return;
    }
    out_printf("settings: command file %s (%zu bytes)\n", path, size);
    config_parse(cfg, text, size, settings_diag, &d);
    FreePool(text);
}

/* The options as printed: RESULTS_KEY's value (the lab's secret) is shown
 * as "(not shown)", as the settings block and the JSON never show it. */
static void settings_shown(const char *opts, char *out, size_t n)
{
    static const char *const names[] = { "results_key=", "bm_results_key=" };
    size_t k = 0;
    for (const char *p = opts; *p && k + 1 < n;) {
        int hidden = 0;
        if (p == opts || p[-1] == ' ')
            for (size_t i = 0; i < 2 && !hidden; i++) {
                size_t len = strlen(names[i]), j = 0;
                while (j < len && p[j] && (p[j] >= 'A' && p[j] <= 'Z' ? p[j] + 32 : p[j]) == names[i][j])
                    j++;
                if (j == len) {
                    k += (size_t)snprintf(out + k, n - k, "%.*s(not shown)", (int)len, p);
                    if (k >= n)
                        k = n - 1;
                    p += len;
                    while (*p && *p != ' ')
                        p++;
                    hidden = 1;
                }
            }
        if (!hidden)
            out[k++] = *p++;
    }
    out[k] = 0;
}

void settings_load(struct bm_config *cfg)
{
    char opts[SETTINGS_OPTS_MAX], name[64] = "";
    struct settings_diag d = { "options" };
    struct bm_config scratch;

    config_defaults(cfg);
    settings_options(opts, sizeof opts);
    if (opts[0]) {
        char shown[SETTINGS_OPTS_MAX];
        settings_shown(opts, shown, sizeof shown);
        out_printf("settings: options \"%s\"\n", shown);
    }
    /* First pass only to learn -c NAME; diagnostics come from the real pass. */
    config_defaults(&scratch);
    config_parse_options(&scratch, opts, strlen(opts), name, sizeof name, NULL, NULL);
    if (esp_open() == EFI_SUCCESS)
        settings_file(cfg, name[0] ? name : SETTINGS_DEFAULT_FILE);
    else
        out_warn("the ESP could not be opened: no command file read");
    config_parse_options(cfg, opts, strlen(opts), name, sizeof name, settings_diag, &d);
    run_console_verbose(cfg->verbose);   /* VERBOSE=T: the full text on the console too */
    if (!cfg->verbose)
        out_show("console: progress, warnings and the summary (verbose=t for every line; the .log has them)\n");
    lava_enable(cfg->lava);       /* LAVA=T: result lines for a lab (off by default) */
    lava_start();
}
