# baremark - one entry point.
#
#   make / make image   install missing packages, build build/baremark.efi,
#                       build/baremark.img (GPT disk, one FAT32 ESP) and
#                       build/baremark.iso (El Torito EFI CD, hybrid for sticks)
#   make run            boot the image under QEMU, copy results to build/results
#   make test           host unit tests and QEMU boot tests
#   make host           the hosted Linux program build/host/baremark
#   make fuzz           fuzz the command-file parsers, the results reader and the
#                       plug-in PE checks
#   make extra-section EXTRA_SECTION=DIR/NAME
#                       an image and hosted program with one more section
#                       (docs/adding-a-section.md)
#   make clean
#   V=1                 show each whole command (gcc, ld, nasm ...) instead of
#                       one short line per step ("  CC      bench/results/json.c")
#
# Source sets:
#   port      port/platform.h               the services each program implements
#                                           (boot/ for the image, tools/host/)
#   portable  stats/ bench/ bench/*/        built into the image AND the host
#                                           (one folder a feature: a new folder
#                                           is picked up by the wildcards below),
#                                           but for HOST_ONLY_C: host only
#   image     boot/ kernel/                 UEFI only
#   host      tools/host/*/                 Linux only, one folder a command
#                                           (common/main.c holds main())
# A section's parts that touch hardware (bench/clock/clock_calib.c, bench/cores/
# cores_work.c ...) reach it through kernel/'s driver headers; they compile for
# the host too, where nothing takes them from the archive.

BUILD      := build
VERSION    := $(shell git describe --always --dirty --tags 2>/dev/null || echo unknown)
CC         := gcc
NASM       := nasm

PORTABLE_C   := $(sort $(wildcard stats/*.c bench/*.c bench/*/*.c))
PORTABLE_ASM := $(sort $(wildcard bench/*.asm bench/*/*.asm))
# bench/'s host-only files, compiled into the hosted program only (they use
# jansson and stdio, which the image has not): a member's fields that are
# not figures (bench/NAME/fields_NAME.c, read by validate and the tests), a
# section's part of `baremark report`'s page (bench/NAME/report_NAME.c; not
# bench/clock/clock_report.c, the image's) and the page's shared pieces
# (bench/report/)
HOST_ONLY_C  := $(sort $(wildcard bench/*/fields_*.c bench/*/report_*.c bench/report/*.c))
# bench/'s rooms, one folder a feature (bench/clock/, bench/results/ ...):
# each is an include folder, so a header is named by its file name alone
BENCH_ROOMS  := $(patsubst %/,%,$(sort $(dir $(wildcard bench/*/*.c bench/*/*.h))))
IMAGE_C      := $(sort $(wildcard boot/*.c kernel/*.c))
IMAGE_ASM    := $(sort $(wildcard kernel/*.asm))
# tools/host/'s rooms, one folder a command (history/, report/, validate/ ...)
# beside common/ (main(), what every command shares) and platform/ (the
# port under Linux): each is an include folder of the hosted program only
HOST_ROOMS   := $(patsubst %/,%,$(sort $(dir $(wildcard tools/host/*/*.c tools/host/*/*.h))))
HOST_C       := $(sort $(wildcard tools/host/*/*.c))
# kernel/cpu.c (CPUID only) also names the machine in hosted documents
HOST_LIB_C   := $(filter-out tools/host/common/main.c,$(HOST_C)) kernel/cpu.c
UNIT_TESTS   := $(sort $(wildcard tests/unit/test_*.c))

INCLUDES   := -I. -Iport -Ibench $(addprefix -I,$(BENCH_ROOMS)) -Istats -Ikernel -Iboot -I$(BUILD)
WARN       := -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers

# ---- the UEFI image -------------------------------------------------------
EFI_INC    := /usr/include/efi
MUSL_INC   := /usr/include/x86_64-linux-musl
MUSL_LIBC  := /usr/lib/x86_64-linux-musl/libc.a
GCC_INC    := $(shell $(CC) -print-file-name=include)
# -O3 as BYTEmark's reference build; SSE stays on (doubles in the kernels).
EFI_OPT    := -O3
# EFI_BASE_CFLAGS: the code generation and system headers, also what
# tools/baremark-plugin compiles plug-ins with (make plugin-flags).
EFI_BASE_CFLAGS := $(EFI_OPT) -std=gnu11 -fpic -ffreestanding -fshort-wchar -mno-red-zone \
              -fno-stack-protector -fno-strict-aliasing -fno-builtin-printf \
              -maccumulate-outgoing-args -DGNU_EFI_USE_MS_ABI -DBAREMARK_EFI \
              -nostdinc -isystem $(MUSL_INC) -isystem $(GCC_INC) \
              -I$(EFI_INC) -I$(EFI_INC)/x86_64 -I$(EFI_INC)/protocol
EFI_CFLAGS := $(EFI_BASE_CFLAGS) $(INCLUDES) $(WARN)
EFI_LDFLAGS := -nostdlib -znocombreloc -T /usr/lib/elf_x86_64_efi.lds -shared -Bsymbolic \
              -L/usr/lib /usr/lib/crt0-efi-x86_64.o

EFI_OBJS   := $(patsubst %.c,$(BUILD)/efi/%.o,$(filter-out $(HOST_ONLY_C),$(PORTABLE_C)) $(IMAGE_C)) \
              $(patsubst %.asm,$(BUILD)/efi/%.asm.o,$(PORTABLE_ASM) $(IMAGE_ASM))

# ---- the hosted program -----------------------------------------------------
HOST_CFLAGS := -O3 -g -std=gnu11 -DBAREMARK_HOST $(INCLUDES) $(addprefix -I,$(HOST_ROOMS)) -I/usr/include/postgresql $(WARN)
HOST_LIBS   := -lm -ljansson -ldl -lsqlite3 -lpq
# history serve: libmicrohttpd (HTTP) and libcrypto (HMAC-SHA256)
HOST_LIBS   += $(shell pkg-config --libs libmicrohttpd libcrypto 2>/dev/null || echo -lmicrohttpd -lcrypto)
HOST_PORT_OBJS := $(patsubst %.c,$(BUILD)/host/obj/%.o,$(PORTABLE_C) $(HOST_LIB_C)) \
                  $(patsubst %.asm,$(BUILD)/host/obj/%.asm.o,$(PORTABLE_ASM))
HOST_MAIN_OBJ  := $(BUILD)/host/obj/tools/host/common/main.o
# The portable code and the host's port as an archive: the program and every
# unit test take from it what they use, so a test may provide a service of
# its own (tests/unit/results_doc.h: its own results document) where the
# archive's member would otherwise be linked; no weak symbols.
HOST_LIB       := $(BUILD)/host/libbaremark.a
UNIT_BINS      := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_TESTS))

.PHONY: all image sign run test test-unit test-boot host fuzz clean deps results plugin-flags plugins-examples pictures
.DEFAULT_GOAL := all

# ---- what a build prints ------------------------------------------------------
# One short line per step, as kbuild and memtest86+ print them; V=1 shows the
# whole commands instead.  $(call say,TAG,WHAT) prints "  TAG     WHAT".
V ?= 0
ifeq ($(V),1)
Q   :=
say  = @:
else
Q   := @
say  = @printf '  %-7s %s\n' '$(1)' '$(2)'
endif
# make -s: nothing at all (the check is kbuild's)
ifneq ($(findstring s,$(firstword -$(MAKEFLAGS))),)
say  = @:
endif

all image: deps $(BUILD)/baremark.img $(BUILD)/baremark.iso

# The packages, installed before anything is compiled: every compile and
# link has the stamp as an order-only prerequisite, so `make -j2` on a fresh
# machine cannot start gcc or nasm before they exist.  The stamp is renewed
# when tools/install-deps.sh changes; `make clean` removes it.
DEPS_STAMP := $(BUILD)/.deps-installed
deps: $(DEPS_STAMP)
$(DEPS_STAMP): tools/install-deps.sh
	@mkdir -p $(@D)
	@sh tools/install-deps.sh
	@touch $@

# Build facts that travel with every result (BYTEmark asks for compiler and
# switches next to each score).  Rewritten only when they change.
$(BUILD)/buildinfo.h: FORCE
	@mkdir -p $(BUILD)
	@{ echo '#define BUILD_VERSION "$(VERSION)"'; \
	   echo '#define BUILD_COMPILER "$(shell $(CC) --version | head -1)"'; \
	   echo '#define BUILD_EFI_CFLAGS "$(EFI_OPT) -fpic -ffreestanding -fshort-wchar -mno-red-zone -maccumulate-outgoing-args (musl libm)"'; \
	   echo '#define BUILD_HOST_CFLAGS "-O3 -g -std=gnu11"'; } > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
FORCE:

$(BUILD)/efi/%.o: %.c $(BUILD)/buildinfo.h | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(EFI_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/efi/%.asm.o: %.asm | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(call say,NASM,$<)
	$(Q)$(NASM) -f elf64 -DBAREMARK_EFI -o $@ $<

# $(call efi_link): link the objects $^ into the image's ELF $@.
# musl first so its memcpy (rep movs) wins over libefi's byte loop; both
# define memcpy/memset, hence --allow-multiple-definition.  -shared
# tolerates undefined symbols; the firmware would not.
define efi_link
	$(call say,LD,$@)
	$(Q)ld $(EFI_LDFLAGS) --allow-multiple-definition $^ -o $@ $(MUSL_LIBC) \
	   -lefi -lgnuefi $(MUSL_LIBC) $(shell $(CC) -print-libgcc-file-name)
	@if nm -u $@ | grep -q ' U '; then echo "undefined symbols in the image:"; \
	   nm -u $@ | grep ' U '; rm -f $@; exit 1; fi
endef
# $(call efi_pe): the ELF $< as the PE/COFF application $@.
define efi_pe
	$(call say,OBJCOPY,$@)
	$(Q)objcopy -j .text -j .sdata -j .data -j .sbat -j .dynamic -j .dynsym -j .rel -j .rela \
	   -j '.rel.*' -j '.rela.*' -j .reloc --target efi-app-x86_64 --subsystem=10 $< $@
	@# A whole number of 8 bytes, as sbsign pads before signing and efitools'
	@# hash-to-efi-sig-list pads before hashing: the firmware hashes the file
	@# as it is, so an unpadded file's db hash from efitools would not match.
	$(Q)truncate -s %8 $@
endef

$(BUILD)/baremark.so: $(EFI_OBJS)
	$(efi_link)

$(BUILD)/baremark.efi: $(BUILD)/baremark.so
	$(efi_pe)

$(BUILD)/baremark.img: $(BUILD)/baremark.efi tools/mkimage.sh tools/baremark.cfg
	$(call say,IMAGE,$@)
	$(Q)sh tools/mkimage.sh $(BUILD)/baremark.efi tools/baremark.cfg $@

# For CDs, DVDs and a BMC's virtual media; hybrid, so dd to a stick boots too.
$(BUILD)/baremark.iso: $(BUILD)/baremark.efi tools/mkiso.sh tools/baremark.cfg
	$(call say,ISO,$@)
	$(Q)sh tools/mkiso.sh $(BUILD)/baremark.efi tools/baremark.cfg $@

# Secure Boot: make sign KEY=my.key CERT=my.pem [SHIM=1] writes a fresh image
# with baremark signed by KEY (sbsign), build/baremark-signed.img, or laid out
# behind Debian's Microsoft-signed shim with SHIM=1, build/baremark-shim.img
# (README "Secure Boot").  A key with a passphrase: BAREMARK_KEY_PASSIN or
# the terminal (tools/efi-sign.sh).  The key itself never enters the image.
SIGNED_IMG := $(BUILD)/baremark-$(if $(SHIM),shim,signed).img
sign: all
	@[ -n "$(KEY)" ] && [ -n "$(CERT)" ] || { echo "usage: make sign KEY=my.key CERT=my.pem [SHIM=1]" >&2; exit 2; }
	$(call say,IMAGE,$(SIGNED_IMG))
	$(Q)sh tools/mkimage.sh $(BUILD)/baremark.efi tools/baremark.cfg $(SIGNED_IMG).tmp
	$(call say,SIGN,$(SIGNED_IMG) with $(CERT))
	$(Q)sh tools/baremark-stick sign $(SIGNED_IMG).tmp --key "$(KEY)" --cert "$(CERT)" $(if $(SHIM),--shim)
	@mv $(SIGNED_IMG).tmp $(SIGNED_IMG) && echo "make sign: $(SIGNED_IMG)"

run: all
	@sh tools/make-run.sh $(BUILD)/baremark.img $(BUILD)/results

# ---- a section from outside the tree (docs/adding-a-section.md) ----------------
# make extra-section EXTRA_SECTION=DIR/NAME: DIR/NAME.c (the section: its
# run function and its figure table) and DIR/NAME.def (its row) built into
# $(BUILD)/extra/NAME/baremark.img and a hosted program
# $(BUILD)/extra/NAME/baremark whose tools know its figures; every other
# object is the normal build's.  tests/boot/test_new_section.sh uses it.
XS       := $(BUILD)/extra/$(notdir $(EXTRA_SECTION))
XS_ROW   := -DBAREMARK_EXTRA_SECTIONS='"$(abspath $(EXTRA_SECTION)).def"'
XS_EFI   := $(filter-out $(BUILD)/efi/bench/sections.o $(BUILD)/efi/boot/sections.o,$(EFI_OBJS)) \
            $(XS)/efi/sections.o $(XS)/efi/boot_sections.o $(XS)/efi/section.o
# the hosted program as the normal one, from the archive (a section's
# hardware parts, bench/clock/clock_calib.c ..., are in it but never taken);
# its section table is the object before it, so the archive's is not taken
XS_HOST  := $(XS)/host/sections.o $(XS)/host/section.o $(HOST_MAIN_OBJ) $(HOST_LIB)
.PHONY: extra-section
extra-section:
	@[ -f "$(EXTRA_SECTION).c" ] && [ -f "$(EXTRA_SECTION).def" ] || \
	   { echo "make extra-section: EXTRA_SECTION=DIR/NAME needs DIR/NAME.c and DIR/NAME.def"; exit 2; }
	@$(MAKE) --no-print-directory $(XS)/baremark.img $(XS)/baremark
$(XS)/efi/sections.o: bench/sections.c bench/sections.def $(EXTRA_SECTION).def $(BUILD)/buildinfo.h | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(call say,CC,$< + $(EXTRA_SECTION).def)
	$(Q)$(CC) $(EFI_CFLAGS) $(XS_ROW) -c $< -o $@
$(XS)/efi/boot_sections.o: boot/sections.c bench/sections.def $(EXTRA_SECTION).def $(BUILD)/buildinfo.h | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(call say,CC,$< + $(EXTRA_SECTION).def)
	$(Q)$(CC) $(EFI_CFLAGS) $(XS_ROW) -c $< -o $@
$(XS)/efi/section.o: $(EXTRA_SECTION).c $(BUILD)/buildinfo.h | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(CC) $(EFI_CFLAGS) -c $< -o $@
$(XS)/host/sections.o: bench/sections.c bench/sections.def $(EXTRA_SECTION).def $(BUILD)/buildinfo.h | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(call say,HOSTCC,$< + $(EXTRA_SECTION).def)
	$(Q)$(CC) $(HOST_CFLAGS) $(XS_ROW) -c $< -o $@
$(XS)/host/section.o: $(EXTRA_SECTION).c $(BUILD)/buildinfo.h | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(call say,HOSTCC,$<)
	$(Q)$(CC) $(HOST_CFLAGS) -c $< -o $@
$(XS)/baremark.so: $(XS_EFI)
	$(efi_link)
$(XS)/baremark.efi: $(XS)/baremark.so
	$(efi_pe)
$(XS)/baremark.img: $(XS)/baremark.efi tools/mkimage.sh tools/baremark.cfg
	$(call say,IMAGE,$@)
	$(Q)sh tools/mkimage.sh $< tools/baremark.cfg $@
$(XS)/baremark: $(XS_HOST)
	$(call say,HOSTLD,$@)
	$(Q)$(CC) -o $@ $^ $(HOST_LIBS)

# ---- host -----------------------------------------------------------------
host: $(BUILD)/host/baremark

$(BUILD)/host/obj/%.o: %.c $(BUILD)/buildinfo.h | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(call say,HOSTCC,$<)
	$(Q)$(CC) $(HOST_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/host/obj/%.asm.o: %.asm | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(call say,HOSTASM,$<)
	$(Q)$(NASM) -f elf64 -DBAREMARK_HOST -o $@ $<

$(HOST_LIB): $(HOST_PORT_OBJS)
	$(call say,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/host/baremark: $(HOST_MAIN_OBJ) $(HOST_LIB)
	$(call say,HOSTLD,$@)
	$(Q)$(CC) -o $@ $(HOST_MAIN_OBJ) $(HOST_LIB) $(HOST_LIBS)

$(BUILD)/tests/%: tests/unit/%.c $(HOST_LIB)
	@mkdir -p $(dir $@)
	$(call say,HOSTCC,$<)
	$(Q)$(CC) $(HOST_CFLAGS) -Itests/unit -o $@ $< $(HOST_LIB) $(HOST_LIBS)

# ---- plug-ins (plugins/, tools/baremark-plugin) -----------------------------
# The flags a plug-in is built with, read by tools/baremark-plugin so plug-ins
# and the image share one toolchain and one set of switches.  The Linux .so
# gets the image's code-generation switches too (not its headers), so both
# forms of a routine are the same machine code as far as the compiler goes.
PLUGIN_HOST_CFLAGS := $(EFI_OPT) -g -std=gnu11 -fPIC -ffreestanding -mno-red-zone -fno-stack-protector \
              -fno-strict-aliasing -fno-builtin-printf -maccumulate-outgoing-args -fvisibility=hidden \
              -DBAREMARK_HOST
plugin-flags:
	@echo 'EFI_CFLAGS=$(EFI_BASE_CFLAGS) $(WARN)'
	@echo 'EFI_LDFLAGS=$(EFI_LDFLAGS)'
	@echo 'EFI_LIBS=$(MUSL_LIBC) -lgnuefi $(MUSL_LIBC) $(shell $(CC) -print-libgcc-file-name)'
	@echo 'HOST_CFLAGS=$(PLUGIN_HOST_CFLAGS) $(WARN)'
	@echo 'CC=$(CC)'
	@echo 'NASM=$(NASM)'

# The example plug-ins (one per folder of plugins/examples/) and the bad
# plug-ins of the tests, each as NAME.efi and NAME.so.
PLUGIN_EXAMPLES := $(patsubst plugins/examples/%/,%,$(sort $(dir $(wildcard plugins/examples/*/*.c))))
PLUGIN_FIXTURES := $(patsubst tests/fixtures/plugins/%.c,%,$(wildcard tests/fixtures/plugins/*.c))
PLUGIN_TOOL     := tools/baremark-plugin plugins/baremark_plugin.h plugins/plugin_efi.c
PLUGIN_OUTS     := $(PLUGIN_EXAMPLES:%=$(BUILD)/plugins/%.efi) $(PLUGIN_FIXTURES:%=$(BUILD)/plugins/bad/%.efi)
plugins-examples: deps $(PLUGIN_OUTS)

define plugin_example_rule
$(BUILD)/plugins/$(1).efi: $(wildcard plugins/examples/$(1)/*.c plugins/examples/$(1)/*.asm) $(PLUGIN_TOOL) | $(DEPS_STAMP)
	@mkdir -p $(BUILD)/plugins
	$$(call say,PLUGIN,$$@)
	$$(Q)sh tools/baremark-plugin build $(wildcard plugins/examples/$(1)/*.c plugins/examples/$(1)/*.asm) -o $$@
endef
$(foreach p,$(PLUGIN_EXAMPLES),$(eval $(call plugin_example_rule,$(p))))

$(BUILD)/plugins/bad/%.efi: tests/fixtures/plugins/%.c $(PLUGIN_TOOL) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(call say,PLUGIN,$@)
	$(Q)sh tools/baremark-plugin build --no-check $< -o $@

# ---- tests ------------------------------------------------------------------
test: deps
	@sh tools/install-deps.sh --test
	@sh tests/run.sh

test-unit: $(UNIT_BINS) $(BUILD)/host/baremark
	@sh tests/run.sh --unit-only

test-boot: all
	@sh tests/run.sh --boot-only

# The README's pictures (docs/report-*.png): the report of the quick fixture
# in headless Chromium, 1280 x 800 and 390 x 844; test_report_layout fails
# when docs/ holds other pixels.
pictures: $(BUILD)/host/baremark
	@$(BUILD)/host/baremark report tests/fixtures/run-quick.json -o $(BUILD)/report-quick.html >/dev/null
	@/usr/bin/python3 tests/browser/report_layout.py --what pictures --screenshot $(BUILD)/report-first-screen.png \
	    --phone-screenshot $(BUILD)/report-phone.png $(BUILD)/report-quick.html >/dev/null
	cp $(BUILD)/report-first-screen.png $(BUILD)/report-phone.png docs/

fuzz: deps
	@sh tests/fuzz/run.sh

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
