/*
 * kernel/pit.c - 8254 channel 2 as a reference counter (see pit.h).
 * Ports and command bytes: Intel 8254 datasheet; port 0x61 from the PC/AT
 * system control port B.
 */
#include <stdint.h>

#include "io.h"
#include "pit.h"

#define PIT_CH2_DATA    0x42
#define PIT_COMMAND     0x43
#define PIT_PORT_B      0x61
#define PIT_B_GATE2     0x01   /* gate of channel 2 */
#define PIT_B_SPEAKER   0x02   /* speaker data enable */
/* channel 2, low byte then high byte, mode 0, binary */
#define PIT_CMD_CH2_MODE0 0xB0
/* counter latch command for channel 2 */
#define PIT_CMD_CH2_LATCH 0x80
/* reads to wait for the first change: longer than one PIT period (838 ns)
 * even where a read costs a few ns (QEMU -icount) */
#define PIT_PROBE_READS 1000

static uint8_t pit_saved_b;
static int pit_started;

uint32_t pit_read(void)
{
    uint8_t lo, hi;
    outb(PIT_COMMAND, PIT_CMD_CH2_LATCH);
    lo = inb(PIT_CH2_DATA);
    hi = inb(PIT_CH2_DATA);
    return (uint32_t)hi << 8 | lo;
}

int pit_start(void)
{
    uint32_t first;

    pit_saved_b = inb(PIT_PORT_B);
    pit_started = 1;
    outb(PIT_PORT_B, (uint8_t)((pit_saved_b & ~PIT_B_SPEAKER) | PIT_B_GATE2));
    outb(PIT_COMMAND, PIT_CMD_CH2_MODE0);
    outb(PIT_CH2_DATA, 0xFF);
    outb(PIT_CH2_DATA, 0xFF);
    first = pit_read();
    for (int i = 0; i < PIT_PROBE_READS; i++)
        if (pit_read() != first)
            return 0;
    pit_stop();
    return -1;
}

void pit_stop(void)
{
    if (!pit_started)
        return;
    outb(PIT_PORT_B, pit_saved_b);
    pit_started = 0;
}
