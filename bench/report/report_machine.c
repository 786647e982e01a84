/*
 * bench/report/report_machine.c - the head of the report page (name, status,
 * warnings, the one-line summary of machine and build) and the machine and
 * build tables (sections system or host, and build).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures_host.h"
#include "figures_run.h"
#include "report_parts.h"
#include "report_util.h"
#include "stats/stats.h"

/* The page's title line: the run's name and its verdict as a badge, then
 * one line of machine and build.  The name is a box of its own
 * (.run-name): on a narrow screen it moves to the next line whole rather
 * than breaking at its hyphen. */
void part_header(struct report *r)
{
    FILE *f = r->f;
    fputs("<header><h1>baremark run <span class=\"run-name\">", f);
    if (!strcmp(doc_str(r->root, "platform", ""), "linux"))
        html_put(f, doc_str(r->root, "name", "of the hosted program (Linux)"));
    else
        html_put(f, doc_str(r->root, "name", "(unnamed: results were not saved to files)"));
    fputs("</span> ", f);
    part_badge(r);
    fputs("</h1>", f);
    machine_line(f, r->root);
    fputs("</header>", f);
}

/* The run's warnings and errors, folded under their count. */
void part_warnings(struct report *r)
{
    FILE *f = r->f;
    json_t *errors = json_object_get(r->root, "errors"), *e;
    size_t i, n = json_array_size(errors);
    if (!n)
        return;
    fprintf(f, "<details class=\"sec\" id=\"sec-warnings\"><summary><h2>Warnings and errors</h2>"
            "<span class=\"hl\">%zu, the first: ", n);
    html_put(f, json_string_value(json_array_get(errors, 0)));
    fputs("</span></summary><ul class=\"errors\">", f);
    json_array_foreach(errors, i, e) {
        fputs("<li>", f);
        html_put(f, json_string_value(e));
        fputs("</li>", f);
    }
    fputs("</ul></details>", f);
}

/* One line a person reads first: what ran where. */
void machine_line(FILE *f, json_t *root)
{
    json_t *sys = json_object_get(root, "system"), *build = json_object_get(root, "build");
    json_t *host = json_object_get(root, "host");
    const char *hv = doc_str(sys, "hypervisor", ""), *hidden = doc_str(sys, "hypervisor_hidden", "");
    if (!sys && !build && !host)
        return;
    char b[4][48];
    fputs("<p class=\"summary\" id=\"summary\">", f);
    if (!sys && json_is_object(host)) {
        html_put(f, doc_str(host, "cpu_brand", "?"));
        fputs(" (", f);
        html_put(f, doc_str(host, "cpu_vendor", "?"));
        fprintf(f, "), %s logical CPU%s, under ",
                num_text(b[0], sizeof b[0], doc_fig_num(host, &figures_host, FIG_HOST_LOGICAL_CPUS)),
                doc_fig_num(host, &figures_host, FIG_HOST_LOGICAL_CPUS) == 1 ? "" : "s");
        html_put(f, doc_str(host, "os", "Linux"));
        fputs(" (the hosted program: interrupts and the scheduler stay on). ", f);
    }
    if (sys) {
        html_put(f, doc_str(sys, "cpu_brand", "?"));
        fputs(" (", f);
        html_put(f, doc_str(sys, "cpu_vendor", "?"));
        fprintf(f, " family %s model %s stepping %s), %s logical CPU%s, ",
                num_text(b[0], sizeof b[0], doc_num(sys, "family", NAN)), num_text(b[1], sizeof b[1], doc_num(sys, "model", NAN)),
                num_text(b[2], sizeof b[2], doc_num(sys, "stepping", NAN)),
                num_text(b[3], sizeof b[3], doc_fig_num(sys, &figures_system, FIG_SYSTEM_LOGICAL_CPUS)),
                doc_fig_num(sys, &figures_system, FIG_SYSTEM_LOGICAL_CPUS) == 1 ? "" : "s");
        if (hv[0]) {
            fputs("under hypervisor ", f);
            html_put(f, hv);
        } else if (hidden[0]) {
            fputs("under a hypervisor hidden from CPUID (SMBIOS names ", f);
            html_put(f, hidden);
            fputs(")", f);
        } else {
            fputs("bare metal", f);
        }
        fprintf(f, ", %s MiB; firmware ", num_text(b[0], sizeof b[0], doc_fig_num(sys, &figures_system, FIG_SYSTEM_MEMORY_MIB)));
        html_put(f, doc_str(sys, "firmware_vendor", "?"));
        fputs(". ", f);
    }
    if (build) {
        fputs("Build ", f);
        html_put(f, doc_str(build, "version", "?"));
        fputs(", ", f);
        html_put(f, doc_str(build, "compiler", "?"));
        fputs(" ", f);
        html_put(f, doc_str(build, "flags", ""));
        fputs(".", f);
    }
    fputs("</p>", f);
}

static void part_machine(struct report *r)
{
    FILE *f = r->f;
    json_t *sys = json_object_get(r->root, "system"), *build = json_object_get(r->root, "build");
    if (!sys)
        sys = json_object_get(r->root, "host");      /* the hosted program's machine */
    fputs("<div class=\"card\"><h3>Machine</h3>", f);
    if (!rp_section_missing(f, sys))
        rp_kv_table(f, sys);
    fputs("</div><div class=\"card\"><h3>Build</h3>", f);
    if (!rp_section_missing(f, build))
        rp_kv_table(f, build);
    fputs("</div>", f);
}

/* Its fold of the page: the members it shows, its id, its title
 * (cmd_report.c's own list: no section's). */
const struct report_section report_machine = { "system|host|build", "machine", "Machine and build", part_machine };
