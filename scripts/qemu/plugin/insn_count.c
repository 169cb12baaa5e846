/*
 * insn_count: a QEMU TCG plugin (plugin API version 1, QEMU 7.2) that counts the guest instructions
 * executed from the first instruction of a start marker function to the first instruction of a stop
 * marker function, and prints `insns N` (through qemu_plugin_outs, so QEMU needs `-d plugin`, and
 * `-D FILE` to send it to a file) every time the stop marker is reached.
 *
 *   gcc -O2 -shared -fPIC -o insn_count.so insn_count.c
 *   qemu-system-arm ... -plugin ./insn_count.so,start=0x1234,stop=0x1240 -d plugin -D plugin.log
 *
 * The addresses are those of the marker functions (`nm ELF | grep bench_start`); the Thumb bit is
 * ignored. Debian ships no qemu-plugin.h: the few API functions used are declared in
 * qemu_plugin_api.h.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu_plugin_api.h"

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

static uint64_t count;   /* instructions executed so far (single vCPU) */
static uint64_t started; /* `count` at the last start marker */
static uint64_t start_addr, stop_addr;

static void on_start(unsigned int vcpu, void *udata) { started = count; }

static void on_stop(unsigned int vcpu, void *udata) {
    char line[64];
    snprintf(line, sizeof line, "insns %" PRIu64 "\n", count - started);
    qemu_plugin_outs(line);
}

static void on_tb(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
    size_t n = qemu_plugin_tb_n_insns(tb);
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint64_t pc = qemu_plugin_insn_vaddr(insn);
        /* Callbacks first, so the marker's own instruction is counted after the snapshot. */
        if (pc == start_addr) qemu_plugin_register_vcpu_insn_exec_cb(insn, on_start, QEMU_PLUGIN_CB_NO_REGS, NULL);
        if (pc == stop_addr) qemu_plugin_register_vcpu_insn_exec_cb(insn, on_stop, QEMU_PLUGIN_CB_NO_REGS, NULL);
        qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &count, 1);
    }
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id, const void *info,
                                                               int argc, char **argv) {
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "start=", 6) == 0) start_addr = strtoull(argv[i] + 6, NULL, 0) & ~1ULL;
        if (strncmp(argv[i], "stop=", 5) == 0) stop_addr = strtoull(argv[i] + 5, NULL, 0) & ~1ULL;
    }
    if (start_addr == 0 || stop_addr == 0 || start_addr == stop_addr) {
        fprintf(stderr, "insn_count: give distinct start=ADDR,stop=ADDR\n");
        return -1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb);
    return 0;
}
