/*
 * kernel/serial.h - the image's own 16550 UART driver (COM1), so every line
 * reaches a null-modem cable or QEMU's -serial whatever the firmware does.
 */
#ifndef BAREMARK_SERIAL_H
#define BAREMARK_SERIAL_H

#include <stddef.h>
#include <stdint.h>

#define SERIAL_COM1 0x3F8
#define SERIAL_BAUD 115200

struct serial_port {
    uint16_t base;
    int present;     /* scratch register answered: a UART is there */
};

/* Program 115200 8N1, FIFOs on, no interrupts.  Returns 0 if a UART answered. */
int serial_init(struct serial_port *p, uint16_t base);
/* Write bytes; "\n" goes out as "\r\n".  Polls the transmitter (with a bound,
 * so a missing or stuck UART cannot hang the run). */
void serial_write(struct serial_port *p, const char *s, size_t n);

#endif
