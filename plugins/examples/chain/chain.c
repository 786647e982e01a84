/*
 * plugins/examples/chain/chain.c - the table of the NASM add chains in
 * chain.asm, with their exact instruction counts: a plug-in whose figures
 * can be checked.  Under QEMU -icount shift=0 every method and estimator
 * must find chain:add1000 minus chain:add100 = 900 ticks per iteration,
 * as for the built-in add chains.
 *
 * Build: tools/baremark-plugin build chain.c chain.asm -o chain.efi
 */
#include <stdint.h>

#include "baremark_plugin.h"

/* chain.asm */
void chain_add100(uint64_t iterations, void *data);
void chain_add1000(uint64_t iterations, void *data);

/* One call: CHAIN_FIXED + iterations * CHAIN_PER_ITERATION(K) instructions
 * (mov, xor, test, jz and ret; K adds, dec and jnz per iteration). */
#define CHAIN_FIXED            5
#define CHAIN_PER_ITERATION(k) ((k) + 2)

static const struct bm_plugin_routine chain_routines[] = {
    { "add100", "100 dependent adds per iteration (NASM)", chain_add100, NULL, NULL, CHAIN_FIXED,
      CHAIN_PER_ITERATION(100) },
    { "add1000", "1000 dependent adds per iteration (NASM)", chain_add1000, NULL, NULL, CHAIN_FIXED,
      CHAIN_PER_ITERATION(1000) },
};

BAREMARK_PLUGIN("chain", "dependent add chains in NASM with exact instruction counts", chain_routines);
