/*
 * hot_pc: a QEMU TCG plugin (plugin API version 1, QEMU 7.2) that counts, per guest instruction
 * address, the instructions executed between the `window`-th time the start marker is reached and
 * the next time the stop marker is, and prints `pc ADDR COUNT` lines (hex address, Thumb bit
 * ignored) through qemu_plugin_outs at that stop (so QEMU needs `-d plugin -D FILE`). A profiler
 * for one benchmark row: scripts/bench/qemu-profile.sh runs it and maps the addresses to functions
 * and source lines.
 *
 *   gcc -O2 -shared -fPIC -o hot_pc.so hot_pc.c
 *   qemu-system-arm ... -plugin ./hot_pc.so,start=0x1234,stop=0x1240,window=3 -d plugin -D pc.log
 *
 * Addresses up to 2 MiB are counted (the QEMU boards' flash). Debian ships no qemu-plugin.h: the
 * few API functions used are declared in qemu_plugin_api.h.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "qemu_plugin_api.h"
__attribute__((visibility("default"))) int qemu_plugin_version = 1;
#define N (1<<20)
static uint64_t counts[N];
static int active, seen;
static int window = 1;
static uint64_t start_addr, stop_addr;
static void on_start(unsigned int v, void *u) { seen++; if (seen == window) active = 1; }
static void on_stop(unsigned int v, void *u) {
  if (!active) return;
  active = 0;
  char line[64];
  for (uint64_t i = 0; i < N; i++) if (counts[i]) { snprintf(line, sizeof line, "pc %" PRIx64 " %" PRIu64 "\n", i*2, counts[i]); qemu_plugin_outs(line); }
}
static void on_insn(unsigned int v, void *u) { if (active) counts[(uintptr_t)u]++; }
static void on_tb(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  size_t n = qemu_plugin_tb_n_insns(tb);
  for (size_t i = 0; i < n; i++) {
    struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
    uint64_t pc = qemu_plugin_insn_vaddr(insn);
    if (pc == start_addr) qemu_plugin_register_vcpu_insn_exec_cb(insn, on_start, QEMU_PLUGIN_CB_NO_REGS, NULL);
    if (pc == stop_addr) qemu_plugin_register_vcpu_insn_exec_cb(insn, on_stop, QEMU_PLUGIN_CB_NO_REGS, NULL);
    if ((pc >> 1) < N) qemu_plugin_register_vcpu_insn_exec_cb(insn, on_insn, QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)(pc >> 1));
  }
}
__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id, const void *info, int argc, char **argv) {
  for (int i = 0; i < argc; i++) {
    if (strncmp(argv[i], "start=", 6) == 0) start_addr = strtoull(argv[i] + 6, NULL, 0) & ~1ULL;
    if (strncmp(argv[i], "stop=", 5) == 0) stop_addr = strtoull(argv[i] + 5, NULL, 0) & ~1ULL;
    if (strncmp(argv[i], "window=", 7) == 0) window = atoi(argv[i] + 7);
  }
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb);
  return 0;
}
