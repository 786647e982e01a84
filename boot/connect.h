/*
 * boot/connect.h - connect what the firmware left unconnected, as the UEFI
 * shell's `connect -r` does, so a results disk nobody put in the boot order
 * shows its volumes (boot/volumes.c).
 */
#ifndef BAREMARK_CONNECT_H
#define BAREMARK_CONNECT_H

#include <stdint.h>

/* The bound: no ConnectController call starts after this many seconds. */
#define CONNECT_BOUND_S 5

struct connect_report {
    unsigned controllers;       /* calls that started at least one driver */
    unsigned handles_before, handles_after;   /* handles with a device path */
    unsigned passes;            /* sweeps over the handle database */
    uint64_t elapsed_ms;        /* firmware timer ticks, 10 ms or finer */
    int ms_known;               /* 0 when the timer event could not be made */
    int bounded;                /* 1 when the bound stopped it with handles left */
};

/* ConnectController(h, NULL, NULL, TRUE) on every handle with a device
 * path, sweeping again while a sweep adds handles (at most 3 sweeps), until
 * CONNECT_BOUND_S seconds have passed. */
void connect_all(struct connect_report *r);

#endif
