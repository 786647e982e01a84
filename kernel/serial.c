/*
 * kernel/serial.c - 16550 UART, polled.
 */
#include "serial.h"
#include "io.h"

/* Register offsets (16550 data sheet). */
#define UART_DATA 0     /* DLAB=0: THR/RBR; DLAB=1: divisor low */
#define UART_IER  1     /* DLAB=1: divisor high */
#define UART_FCR  2
#define UART_LCR  3
#define UART_MCR  4
#define UART_LSR  5
#define UART_SCR  7
#define UART_LCR_DLAB 0x80
#define UART_LCR_8N1  0x03
#define UART_LSR_THRE 0x20
#define UART_CLOCK    115200   /* 1.8432 MHz / 16 */
/* ~10 ms at 115200 baud is one character time x 100: far beyond a healthy
 * UART, short enough that a dead one costs little. */
#define UART_SPIN_LIMIT 100000

int serial_init(struct serial_port *p, uint16_t base)
{
    uint16_t div = UART_CLOCK / SERIAL_BAUD;

    p->base = base;
    outb(base + UART_SCR, 0x5A);
    p->present = inb(base + UART_SCR) == 0x5A;
    if (!p->present)
        return -1;
    outb(base + UART_IER, 0x00);              /* no interrupts */
    outb(base + UART_LCR, UART_LCR_DLAB);
    outb(base + UART_DATA, div & 0xFF);
    outb(base + UART_IER, div >> 8);
    outb(base + UART_LCR, UART_LCR_8N1);
    outb(base + UART_FCR, 0xC7);              /* enable + clear FIFOs, 14-byte trigger */
    outb(base + UART_MCR, 0x03);              /* DTR, RTS */
    return 0;
}

static void serial_putc(struct serial_port *p, char c)
{
    for (int i = 0; i < UART_SPIN_LIMIT; i++)
        if (inb(p->base + UART_LSR) & UART_LSR_THRE)
            break;
    outb(p->base + UART_DATA, (uint8_t)c);
}

void serial_write(struct serial_port *p, const char *s, size_t n)
{
    if (!p->present)
        return;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\n')
            serial_putc(p, '\r');
        serial_putc(p, s[i]);
    }
}
