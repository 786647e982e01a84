/*
 * kernel/acpi.c - RSDP, XSDT/RSDT, FADT, HPET, MADT (ACPI 6.x spec, ch. 5).
 */
#include <string.h>

#include "acpi.h"

/* Offsets from the ACPI specification. */
#define RSDP_V1_LEN          20
#define RSDP_RSDT_ADDR       16
#define RSDP_LENGTH          20
#define RSDP_XSDT_ADDR       24
#define SDT_HEADER_LEN       36
#define SDT_LENGTH           4
#define FADT_PM_TMR_BLK      76
#define FADT_FLAGS           112
#define FADT_TMR_VAL_EXT     (1u << 8)
#define FADT_X_PM_TMR_BLK    208   /* Generic Address Structure, 12 bytes */
#define HPET_BASE_GAS        40    /* GAS; the address is at +4 */
#define MADT_ENTRIES         44
#define MADT_LAPIC           0
#define MADT_X2APIC          9
#define MADT_LAPIC_ENABLED   1u
#define MADT_LAPIC_ONLINE_CAPABLE 2u

static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

static int acpi_sum_ok(const uint8_t *p, uint32_t n)
{
    uint8_t sum = 0;
    for (uint32_t i = 0; i < n; i++)
        sum += p[i];
    return sum == 0;
}

static enum acpi_table_state acpi_check(const uint8_t *t)
{
    uint32_t len = rd32(t + SDT_LENGTH);
    return len >= SDT_HEADER_LEN && acpi_sum_ok(t, len) ? ACPI_OK : ACPI_BAD_CHECKSUM;
}

static void acpi_fadt(struct acpi_info *ai, const uint8_t *t)
{
    uint32_t len = rd32(t + SDT_LENGTH);
    ai->fadt = acpi_check(t);
    if (ai->fadt != ACPI_OK)
        return;
    ai->pm_timer_port = rd32(t + FADT_PM_TMR_BLK);
    /* ACPI 2.0+: a system-I/O X_PM_TMR_BLK beats the 32-bit field. */
    if (len >= FADT_X_PM_TMR_BLK + 12 && t[FADT_X_PM_TMR_BLK] == 1) {
        uint64_t x = rd64(t + FADT_X_PM_TMR_BLK + 4);
        if (x && x < 0x10000)
            ai->pm_timer_port = (uint32_t)x;
    }
    ai->pm_timer_32bit = (rd32(t + FADT_FLAGS) & FADT_TMR_VAL_EXT) != 0;
}

static void acpi_hpet(struct acpi_info *ai, const uint8_t *t)
{
    ai->hpet = acpi_check(t);
    if (ai->hpet == ACPI_OK)
        ai->hpet_base = rd64(t + HPET_BASE_GAS + 4);
}

static void acpi_madt(struct acpi_info *ai, const uint8_t *t)
{
    uint32_t len = rd32(t + SDT_LENGTH);
    ai->madt = acpi_check(t);
    if (ai->madt != ACPI_OK)
        return;
    for (uint32_t off = MADT_ENTRIES; off + 2 <= len;) {
        uint8_t type = t[off], elen = t[off + 1];
        if (elen < 2)
            break;
        if (type == MADT_LAPIC && elen >= 8 && (rd32(t + off + 4) & MADT_LAPIC_ENABLED))
            ai->madt_cpus++;
        if (type == MADT_X2APIC && elen >= 16 && (rd32(t + off + 8) & MADT_LAPIC_ENABLED))
            ai->madt_cpus++;
        off += elen;
    }
}

static void acpi_table(struct acpi_info *ai, const uint8_t *t)
{
    if (!t)
        return;
    if (!memcmp(t, "FACP", 4))
        acpi_fadt(ai, t);
    else if (!memcmp(t, "HPET", 4))
        acpi_hpet(ai, t);
    else if (!memcmp(t, "APIC", 4))
        acpi_madt(ai, t);
}

void acpi_init(struct acpi_info *ai, const void *rsdp_ptr)
{
    const uint8_t *rsdp = rsdp_ptr;

    memset(ai, 0, sizeof *ai);
    if (!rsdp || memcmp(rsdp, "RSD PTR ", 8) || !acpi_sum_ok(rsdp, RSDP_V1_LEN))
        return;
    ai->rsdp_found = 1;
    ai->rsdp_revision = rsdp[15];
    memcpy(ai->oem_id, rsdp + 9, 6);
    ai->oem_id[6] = 0;

    const uint8_t *sdt = NULL;
    int entry_size = 4;
    if (ai->rsdp_revision >= 2 && acpi_sum_ok(rsdp, rd32(rsdp + RSDP_LENGTH)) &&
        rd64(rsdp + RSDP_XSDT_ADDR)) {
        sdt = (const uint8_t *)(uintptr_t)rd64(rsdp + RSDP_XSDT_ADDR);
        entry_size = 8;
        ai->using_xsdt = 1;
    } else {
        sdt = (const uint8_t *)(uintptr_t)rd32(rsdp + RSDP_RSDT_ADDR);
    }
    if (!sdt || acpi_check(sdt) != ACPI_OK)
        return;
    uint32_t n = (rd32(sdt + SDT_LENGTH) - SDT_HEADER_LEN) / (uint32_t)entry_size;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *e = sdt + SDT_HEADER_LEN + i * (uint32_t)entry_size;
        uint64_t addr = entry_size == 8 ? rd64(e) : rd32(e);
        acpi_table(ai, (const uint8_t *)(uintptr_t)addr);
    }
}

const char *acpi_state_name(enum acpi_table_state s)
{
    return s == ACPI_OK ? "found" : s == ACPI_BAD_CHECKSUM ? "INVALID (bad checksum)" : "absent";
}
