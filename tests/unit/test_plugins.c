/*
 * tests/unit/test_plugins.c - the plug-in checks and registry (bench/plugins/plugins.c)
 * and the PE look at a plug-in file (bench/plugins/pe_image.c), on the host.
 *
 * Tables here are built by hand the way BAREMARK_PLUGIN builds them, then
 * broken one rule at a time (baremark_plugin.h lists the rules); each
 * broken table must be rejected with a reason naming the rule, and a good
 * one must give its routines as targets PLUGIN:ROUTINE.  The PE image is a
 * minimal PE32+ header written byte by byte from the PE/COFF layout.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "pe_image.h"
#include "sha256.h"
#include "plugins.h"
#include "check.h"

int host_warning_count(void);

/* ---- a minimal PE32+ boot-service driver: headers 0x200, one section 0x200..0x400 */

#define PE_FILE 1024
static void put16(uint8_t *p, unsigned v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, v & 0xFFFF); put16(p + 2, v >> 16); }

static void pe_make(uint8_t *b, unsigned machine, unsigned magic, unsigned subsystem)
{
    memset(b, 0, PE_FILE);
    b[0] = 'M', b[1] = 'Z';
    put32(b + 0x3C, 0x40);
    memcpy(b + 0x40, "PE\0\0", 4);
    put16(b + 0x44, machine);
    put16(b + 0x46, 1);                  /* sections */
    put16(b + 0x44 + 16, 0xF0);          /* optional header size */
    put16(b + 0x58, magic);
    put32(b + 0x58 + 56, 0x2000);        /* SizeOfImage */
    put32(b + 0x58 + 60, 0x200);         /* SizeOfHeaders */
    put16(b + 0x58 + 68, subsystem);
    memcpy(b + 0x148, ".text", 5);
    put32(b + 0x148 + 16, 0x200);        /* raw size */
    put32(b + 0x148 + 20, 0x200);        /* raw offset */
}

static void pe_case(const uint8_t *b, size_t n, int want_rc, const char *want_why, const char *what)
{
    char why[200];
    struct pe_info info;
    int rc = pe_check_plugin(b, n, &info, why, sizeof why);
    char d[300];
    snprintf(d, sizeof d, "rc %d, why \"%s\"", rc, why);
    check_report_(rc == want_rc && (want_rc == 0 ? why[0] == 0 : strstr(why, want_why) != NULL), what, d);
}

static void pe_tests(void)
{
    static uint8_t b[PE_FILE];
    struct pe_info info;
    char why[200];
    pe_make(b, 0x8664, 0x20B, 11);
    pe_case(b, PE_FILE, 0, "", "PE: a whole x86-64 boot-service driver passes");
    pe_check_plugin(b, PE_FILE, &info, why, sizeof why);
    CHECK_EQ_U64(info.needed, 1024, "PE: the file needs 1024 bytes (section 0x200 + 0x200)");
    CHECK_EQ_U64(info.image_size, 0x2000, "PE: SizeOfImage read");
    pe_case(b, PE_FILE - 1, -1, "truncated: 1023 bytes, its headers and sections need 1024",
            "PE: one byte short is truncated, with both sizes");
    pe_case(b, 0x100, -1, "truncated: 256 bytes, the headers need", "PE: cut inside the section table");
    pe_case(b, 0x30, -1, "truncated: 48 bytes", "PE: cut inside the DOS header");
    pe_case(b, 0, -1, "not a UEFI image: the file is empty", "PE: an empty file");
    pe_case((const uint8_t *)"\177ELF\2\1\1\0\0\0\0\0\0\0\0\0", 16, -1, "not a UEFI image: no \"MZ\"",
            "PE: an ELF file is not a UEFI image");
    pe_case((const uint8_t *)"hello, world\n", 13, -1, "not a UEFI image", "PE: a text file");
    pe_make(b, 0x14C, 0x20B, 11);
    pe_case(b, PE_FILE, -1, "not an x86-64 image: machine 0x014c", "PE: an i386 image");
    pe_make(b, 0x8664, 0x10B, 11);
    pe_case(b, PE_FILE, -1, "not a PE32+", "PE: a PE32 (32-bit) optional header");
    pe_make(b, 0x8664, 0x20B, 10);
    pe_case(b, PE_FILE, -1, "a UEFI application (subsystem 10), not a boot-service driver",
            "PE: an application is not a plug-in");
    pe_make(b, 0x8664, 0x20B, 11);
    memcpy(b + 0x40, "PX\0\0", 4);
    pe_case(b, PE_FILE, -1, "no \"PE\" signature at byte 64", "PE: a bad PE signature");
}

/* ---- plug-in tables ----------------------------------------------------------------- */

static uint64_t calls[8];
static void *seen_data[8];
static void fn0(uint64_t n, void *d) { calls[0] += n; seen_data[0] = d; }
static void fn1(uint64_t n, void *d) { calls[1] += n; seen_data[1] = d; }
static void fn2(uint64_t n, void *d) { calls[2] += n; seen_data[2] = d; }

static void *setup_mem;
static int teardowns;
static void *teardown_saw;
static int setup_ok(const struct bm_plugin_host *h, void **data)
{
    if (h->version != BM_PLUGIN_VERSION || h->size != sizeof *h)
        return 7;
    h->log("setup: allocating 1000 bytes");
    uint8_t *p = h->alloc(1000);
    if (!p)
        return 5;
    int zero = 1;
    for (int i = 0; i < 1000; i++)
        zero &= p[i] == 0;
    if (!zero)
        return 6;
    setup_mem = p;
    *data = p;
    return 0;
}
static int setup_fails(const struct bm_plugin_host *h, void **data) { (void)h; (void)data; return 3; }
static void teardown_count(void *d) { teardowns++; teardown_saw = d; }

static struct bm_plugin_routine rt[4];
static struct bm_plugin tb;

static void table_reset(void)
{
    struct bm_plugin_routine r[4] = {
        { "copy_a", "copies 1 KiB, rep movsb", fn0, setup_ok, teardown_count, 4, 12 },
        { "copy_b", "copies 1 KiB, SSE", fn1, NULL, NULL, -1, -1 },
        { "add-1000", "1000 adds", fn2, setup_fails, teardown_count, 4, 1002 },
    };
    memcpy(rt, r, sizeof r);
    tb = (struct bm_plugin){ BM_PLUGIN_MAGIC, BM_PLUGIN_VERSION, sizeof(struct bm_plugin),
                             sizeof(struct bm_plugin_routine), 3, "my", "my routines", rt };
}

static void bad_case(const char *want, const char *what)
{
    char why[PLUGINS_WHY_MAX], d[400];
    int rc = plugins_check_table(&tb, why, sizeof why);
    snprintf(d, sizeof d, "rc %d, why \"%s\", want \"%s\"", rc, why, want);
    check_report_(rc == -1 && strstr(why, want) != NULL, what, d);
    table_reset();
}

static void check_tests(void)
{
    char why[PLUGINS_WHY_MAX];
    char longname[40], longdesc[200];
    table_reset();
    CHECK_EQ_I64(plugins_check_table(&tb, why, sizeof why), 0, "check: a good table passes");
    tb.magic ^= 1;
    bad_case("not a baremark plug-in table (magic", "check: wrong magic");
    tb.version = 2;
    bad_case("interface version 2, this baremark reads version 1", "check: wrong interface version");
    tb.size -= 8;
    bad_case("struct sizes", "check: wrong table size");
    tb.routine_size += 8;
    bad_case("struct sizes", "check: wrong routine size");
    tb.count = 0;
    bad_case("no routines (count 0)", "check: zero routines");
    tb.count = BM_PLUGIN_MAX_ROUTINES + 1;
    bad_case("65 routines, at most 64", "check: too many routines");
    tb.routines = NULL;
    bad_case("no routine table", "check: NULL routine table");
    tb.name = "my plugin";
    bad_case("the plug-in's name has a character other than", "check: a space in the plug-in's name");
    tb.name = "";
    bad_case("the plug-in's name is empty", "check: empty plug-in name");
    tb.name = NULL;
    bad_case("the plug-in's name is missing", "check: NULL plug-in name");
    memset(longname, 'x', 32);
    longname[32] = 0;
    tb.name = longname;
    bad_case("longer than 31 characters", "check: a 32-character plug-in name");
    longname[31] = 0;
    tb.name = longname;
    CHECK_EQ_I64(plugins_check_table(&tb, why, sizeof why), 0, "check: a 31-character plug-in name passes");
    table_reset();
    rt[1].name = "copy_a";
    bad_case("two routines are named \"copy_a\" (routines 1 and 2)", "check: duplicate routine names");
    rt[2].name = "add:1000";
    bad_case("the name of routine 3 has a character other than", "check: ':' in a routine name");
    rt[1].fn = NULL;
    bad_case("routine copy_b has no function", "check: a routine without fn");
    rt[0].description = "two\nlines";
    bad_case("the description of routine copy_a is not one line", "check: a two-line description");
    memset(longdesc, 'd', 128);
    longdesc[128] = 0;
    rt[0].description = longdesc;
    bad_case("longer than 127 characters", "check: a 128-character description");
    rt[0].description = NULL;
    CHECK_EQ_I64(plugins_check_table(&tb, why, sizeof why), 0, "check: no description is allowed");
    table_reset();
}

/* ---- the registry ------------------------------------------------------------------- */

static int befores, afters;
static void hook_before(const struct plugins_routine *r, void *ctx) { befores++; (void)r; (void)ctx; }
static void hook_after(const struct plugins_routine *r, void *ctx) { afters++; (void)r; (void)ctx; }

static void registry_tests(void)
{
    static const char bytes[] = "abc";
    struct plugins_file *f, *g, *h;
    int w0;

    table_reset();
    plugins_reset();
    f = plugins_file_add("my.efi", bytes, 3);
    CHECK_STR(f->sha256, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
              "registry: the file's SHA-256");
    CHECK_EQ_U64(f->size, 3, "registry: the file's size");
    CHECK_EQ_I64(plugins_file_attach(f, &tb), 0, "registry: a good table is attached");
    CHECK_EQ_U64(plugins_routine_count(), 3, "registry: three routines");
    CHECK(plugins_find("my:copy_a") && plugins_find("my:add-1000") && !plugins_find("my:nothing")
          && !plugins_find("copy_a"), "registry: routines are found as PLUGIN:ROUTINE only");
    const struct plugins_routine *a = plugins_find("my:copy_a");
    CHECK(a->t.fn == fn0 && a->t.fixed == 4 && a->t.per_iteration == 12 && !strcmp(a->t.name, "my:copy_a")
          && !strcmp(a->t.what, "copies 1 KiB, rep movsb"), "registry: a routine's target (fn, counts, name, what)");
    CHECK(plugins_find("my:copy_b")->t.per_iteration == -1, "registry: unknown counts stay -1");

    /* a second file with the same plug-in name is rejected */
    w0 = host_warning_count();
    g = plugins_file_add("again.efi", bytes, 3);
    CHECK_EQ_I64(plugins_file_attach(g, &tb), -1, "registry: a second plug-in named \"my\" is rejected");
    CHECK(strstr(g->why, "already taken by my.efi") != NULL, "registry: ... naming the file that has the name");
    CHECK_EQ_I64(host_warning_count() - w0, 1, "registry: one warning for it");
    CHECK_EQ_U64(plugins_routine_count(), 3, "registry: its routines are not added");

    /* a bad table: rejected, one warning, the rest unchanged */
    w0 = host_warning_count();
    tb.version = 9;
    tb.name = "other";
    h = plugins_file_add("old.efi", bytes, 3);
    CHECK_EQ_I64(plugins_file_attach(h, &tb), -1, "registry: a wrong version is rejected");
    CHECK(!h->ok && h->version == 9 && strstr(h->why, "interface version 9"), "registry: ... with its reason kept");
    CHECK_EQ_I64(host_warning_count() - w0, 1, "registry: one warning for it");
    table_reset();

    /* selection */
    w0 = host_warning_count();
    CHECK_EQ_I64(plugins_select("my:copy_b, my:nothing ,other"), 2, "select: two unknown items");
    CHECK_EQ_I64(host_warning_count() - w0, 2, "select: one warning each");
    CHECK_EQ_U64(plugins_ready_count(), 1, "select: one routine ready");
    CHECK(plugins_ready_target(0) == &plugins_find("my:copy_b")->t, "select: the one named");
    CHECK_EQ_I64(plugins_select("my:*"), 0, "select: my:* is known");
    CHECK_EQ_U64(plugins_ready_count(), 3, "select: my:* selects all three");
    plugins_select("none");
    CHECK_EQ_U64(plugins_ready_count(), 0, "select: none");
    plugins_select("my");
    CHECK_EQ_U64(plugins_ready_count(), 3, "select: a plug-in's name selects its routines");
    plugins_select("my:copy_a,my:add-1000");
    CHECK_EQ_U64(plugins_ready_count(), 2, "select: a list of two");
    plugins_select("");
    CHECK_EQ_U64(plugins_ready_count(), 2, "select: empty changes nothing (all is the default)");
    plugins_select("*");
    CHECK_EQ_U64(plugins_ready_count(), 2, "select: * leaves earlier choices (only the first call selects)");
    plugins_select("my");

    /* a routine that hung in an earlier run of the same file */
    CHECK_EQ_I64(plugins_mark_hung("0000", "my:copy_b", "hung before"), 0, "hung: another file's hash marks nothing");
    CHECK_EQ_I64(plugins_mark_hung(f->sha256, "my:copy_a", "did not return in run X"), 1,
                 "hung: the same file and routine is marked");
    CHECK(plugins_find("my:copy_a")->state == PLUGINS_HUNG, "hung: state hung");
    plugins_find("my:copy_a")->state = PLUGINS_READY;
    plugins_find("my:copy_a")->why[0] = 0;

    /* setup: memory zeroed, 64-byte aligned, data handed to fn; a failing setup takes its routine out */
    w0 = host_warning_count();
    plugins_setup();
    const struct plugins_routine *c = plugins_find("my:add-1000");
    CHECK(a->state == PLUGINS_READY && a->set_up && a->t.data == setup_mem && setup_mem
          && ((uintptr_t)setup_mem & 63) == 0, "setup: data from host->alloc, 64-byte aligned");
    CHECK_EQ_U64(a->alloc_bytes, 1000, "setup: the memory counted");
    CHECK(c->state == PLUGINS_SETUP_FAILED && strstr(c->why, "setup returned 3"), "setup: a nonzero return takes the routine out");
    CHECK_EQ_I64(host_warning_count() - w0, 1, "setup: one warning for it");
    CHECK_EQ_U64(plugins_ready_count(), 2, "setup: two routines ready");

    /* probe: each ready routine once, hooks around it */
    memset(calls, 0, sizeof calls);
    struct plugins_probe_hooks hk = { hook_before, hook_after, NULL };
    plugins_probe(200, &hk);
    CHECK(calls[0] == 200 && calls[1] == 200 && calls[2] == 0, "probe: each ready routine called once with 200");
    CHECK(seen_data[0] == setup_mem, "probe: with its data");
    CHECK(befores == 2 && afters == 2, "probe: the hooks ran around each call");

    /* a fault while timed takes the routine out of what follows */
    w0 = host_warning_count();
    plugins_note_fault(&plugins_find("my:copy_b")->t, "#UD invalid opcode");
    CHECK(plugins_find("my:copy_b")->state == PLUGINS_FAULTED && plugins_ready_count() == 1,
          "fault: the routine is out");
    plugins_note_fault(&plugins_find("my:copy_b")->t, "#UD invalid opcode");
    CHECK_EQ_I64(host_warning_count() - w0, 1, "fault: one line, however many measurements fail");

    /* teardown: only for routines set up, with their data; memory freed */
    plugins_teardown();
    CHECK(teardowns == 1 && teardown_saw == setup_mem, "teardown: once, for the routine that was set up");
    CHECK(a->allocs == NULL && !a->set_up, "teardown: memory freed");

    /* the listing */
    struct json_writer w;
    json_init(&w);
    json_obj_begin(&w, NULL);
    plugins_json(&w);
    json_obj_end(&w);
    CHECK(!w.failed && strstr(w.buf, "\"file\":\"my.efi\"") && strstr(w.buf, "\"target\":\"my:copy_a\"")
          && strstr(w.buf, "\"status\":\"setup_failed\"") && strstr(w.buf, "\"status\":\"rejected\"")
          && strstr(w.buf, "\"loaded\":1") && strstr(w.buf, "\"rejected\":2"), "json: files, routines, statuses, counts");
    json_free(&w);
    plugins_print();
}

/* The certificate table: data directory 4 at optional header + 144 (PE32+). */
static void pe_signature_tests(void)
{
    static uint8_t b[PE_FILE];
    pe_make(b, 0x8664, 0x20B, 11);
    CHECK(pe_signature_bytes(b, PE_FILE) == 0, "signature: no data directories, not signed");
    put32(b + 0x58 + 108, 16);           /* NumberOfRvaAndSizes */
    CHECK(pe_signature_bytes(b, PE_FILE) == 0, "signature: an empty certificate table, not signed");
    put32(b + 0x58 + 144, 0x300);        /* file offset of the table */
    put32(b + 0x58 + 148, 0x100);
    CHECK(pe_signature_bytes(b, PE_FILE) == 0x100, "signature: a 256-byte certificate table is a signature");
    CHECK(pe_signature_bytes(b, 0x3FF) == -1, "signature: a table past the end of a cut-off copy");
    put32(b + 0x58 + 108, 4);
    CHECK(pe_signature_bytes(b, PE_FILE) == 0, "signature: only 4 directories: none for certificates");
    CHECK(pe_signature_bytes("MZ", 2) == -1, "signature: not a PE image");
}

/* Authenticode: the regions a signer hashes, put together here by hand from
 * the layout (checksum at optional header + 64, the certificate directory
 * entry at + 144, sections in file order, trailing data up to the table),
 * then hashed in one go; two sections listed out of file order. */
static void pe_authenticode_tests(void)
{
    static uint8_t b[PE_FILE + 64 + 256], want_buf[sizeof b];
    uint8_t got[SHA256_DIGEST], want[SHA256_DIGEST];
    const size_t opt = 0x58, n = sizeof b, cert = 256;
    pe_make(b, 0x8664, 0x20B, 11);
    for (size_t i = 0x200; i < n; i++)
        b[i] = (uint8_t)(i * 7 + 3);              /* section bytes, trailing data, table */
    put32(b + opt + 64, 0x12345678);              /* CheckSum: left out */
    put32(b + opt + 108, 16);
    put32(b + opt + 144, (uint32_t)(n - cert));   /* the certificate table at the end: left out */
    put32(b + opt + 148, (uint32_t)cert);
    put16(b + 0x46, 2);                           /* two sections, the later one listed first */
    put32(b + 0x148 + 16, 0x100), put32(b + 0x148 + 20, 0x300);
    memcpy(b + 0x170, ".data", 5);
    put32(b + 0x170 + 16, 0x100), put32(b + 0x170 + 20, 0x200);
    size_t k = 0;
#define TAKE(from, to) (memcpy(want_buf + k, b + (from), (to) - (from)), k += (to) - (from))
    TAKE(0, opt + 64);
    TAKE(opt + 68, opt + 144);
    TAKE(opt + 152, 0x200);
    TAKE(0x200, 0x300);                           /* .data first: file order */
    TAKE(0x300, 0x400);
    TAKE(0x400, n - cert);                        /* trailing data */
#undef TAKE
    sha256(want_buf, k, want);
    CHECK(pe_authenticode_sha256(b, n, got) == 0 && !memcmp(got, want, sizeof got),
          "authenticode: headers without checksum and certificate entry, sections in file order, trailing data");
    put32(b + opt + 64, 0);
    put32(b + opt + 148, 0);                      /* unsigned: the table's bytes count as trailing data */
    put32(b + opt + 144, 0);
    uint8_t unsigned_hash[SHA256_DIGEST];
    CHECK(pe_authenticode_sha256(b, n - cert, unsigned_hash) == 0 && !memcmp(unsigned_hash, want, sizeof want),
          "authenticode: the same image unsigned (no table, checksum 0) hashes the same");
    CHECK(pe_authenticode_sha256(b, 0x3FF, got) == -1, "authenticode: a section past the end of a cut-off copy");
    CHECK(pe_authenticode_sha256("MZ", 2, got) == -1, "authenticode: not a PE image");
}

int main(void)
{
    pe_tests();
    pe_signature_tests();
    pe_authenticode_tests();
    check_tests();
    registry_tests();
    return check_done();
}
