/*
 * bench/system/smbios.h - the machine's name as its firmware gives it: the SMBIOS
 * system (type 1) and BIOS (type 0) structures (DMTF DSP0134).  Portable
 * and allocation-free: the image hands it the table the firmware published
 * (EFI configuration table SMBIOS3_TABLE_GUID or SMBIOS_TABLE_GUID); the
 * unit test and the fuzzer hand it bytes.  Every read is bounded by the
 * lengths given, so a damaged table yields less, never a fault.
 */
#ifndef BAREMARK_SMBIOS_H
#define BAREMARK_SMBIOS_H

#include <stddef.h>
#include <stdint.h>

#define SMBIOS_TEXT 64

struct smbios_info {
    int found;                              /* a type 1 structure was read */
    unsigned major, minor;                  /* the entry point's version */
    char uuid[37];                          /* "" when absent, all 0 or all FF (not set) */
    char manufacturer[SMBIOS_TEXT], product[SMBIOS_TEXT], version[SMBIOS_TEXT], serial[SMBIOS_TEXT];
    char bios_vendor[SMBIOS_TEXT], bios_version[SMBIOS_TEXT], bios_date[SMBIOS_TEXT];
};

/* Read an entry point ("_SM3_" 64-bit or "_SM_" 32-bit, ep_len bytes at
 * ep): where the structure table is and how long (at most).  0, or -1
 * when it is neither (or its checksum is wrong). */
int smbios_entry(const uint8_t *ep, size_t ep_len, uint64_t *table, size_t *table_len,
                 unsigned *major, unsigned *minor);

/* Parse table_len bytes of structures into *out (types 0 and 1). */
void smbios_parse(const uint8_t *table, size_t table_len, struct smbios_info *out);

/* The virtual machine the system structure names, as people name it
 * ("QEMU", "VMware", "VirtualBox", "Hyper-V", "Xen", "Bochs", "Parallels",
 * "bhyve", "KVM", "Amazon EC2", "Google Compute Engine", "OpenStack"), or
 * NULL when its manufacturer and product name a machine baremark does not
 * know as virtual.  A hypervisor may clear CPUID's hypervisor bit
 * (QEMU's -cpu ...,-hypervisor) but still describe itself here. */
const char *smbios_vm_maker(const struct smbios_info *in);

#endif
