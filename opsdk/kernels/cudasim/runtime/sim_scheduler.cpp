// The block scheduler: threads run until they wait or exit, each handing the CPU to the next
// ready one; the last thread to reach a barrier releases it. When nobody can run the scheduler
// diagnoses why (a barrier or collective some thread never reaches) instead of hanging.
#include "sim_internal.h"

#include <stdio.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// barriers and the scheduler

static bool same_site(const Lane &a, const Lane &b) {
    return a.line == b.line && a.bar_mode == b.bar_mode && (a.file == b.file || !strcmp(a.file, b.file));
}

EXPORT int opsdk_sim_barrier(int mode, int pred, const char *file, int line) {
    tick();
    Lane &l = g_lanes[g_cur];
    l.state = AT_BARRIER, l.bar_mode = (signed char)mode, l.file = file, l.line = line;
    l.pc = RETURN_PC();
    if (g_waiting == 0) {
        g_bar_file = file, g_bar_line = line, g_bar_mode = mode, g_bar_count = 0, g_bar_mixed = false;
    } else if (line != g_bar_line || mode != g_bar_mode || (file != g_bar_file && strcmp(file, g_bar_file))) {
        g_bar_mixed = true;  // release_barrier says which threads wait where
    }
    g_bar_count += pred != 0;
    if (++g_waiting == g_threads) release_barrier();  // the last one in: all leave, in the schedule's order
    block_current();
    return (int)g_bar_result;
}

static void strict_exit_check(int t) {
    int w = t / OPSDK_SIM_WARP;
    unsigned bit = 1u << (t % OPSDK_SIM_WARP);
    Warp &warp = g_warps[w];
    for (unsigned act = warp.active; act; act &= act - 1) {
        Group &g = warp.groups[__builtin_ctz(act)];
        if (!(g.mask & bit) || (g.arrived & bit)) continue;
        char arrived[160];
        lanes_text(arrived, sizeof arrived, g.arrived);
        int waiter = w * OPSDK_SIM_WARP + __builtin_ctz(g.arrived);
        g_lanes[waiter].file = g.file, g_lanes[waiter].line = g.line, g_lanes[waiter].pc = g.pc;
        defer_lane(OPSDK_ERR_WARP_EXITED, waiter, g.file, g.line,
                  "%s(mask 0x%08x) at %s:%d: lane %d of warp %d, named in the mask, exited without "
                  "reaching it while lanes %s wait there (strict mode: a mask naming lanes that have "
                  "exited is undefined on Volta and later GPUs; compute the mask with __ballot_sync "
                  "or __activemask before the branch)",
                  kWarpNames[g.kind], g.mask, g.file, g.line, t % OPSDK_SIM_WARP, w, arrived);
    }
}

void lane_exit() {
    int t = g_cur, w = t / OPSDK_SIM_WARP;
    if (g_strict) strict_exit_check(t);
    g_lanes[t].state = DONE;
    g_exited++;
    Warp &warp = g_warps[w];
    warp.done |= 1u << (t % OPSDK_SIM_WARP);
    for (unsigned act = warp.active; act; act &= act - 1) {
        int i = __builtin_ctz(act);
        if (complete(w, i)) resolve(w, i, -1);
    }
    leave_lane();
}

static void where_is(char *buf, size_t cap, int t) {
    const Lane &l = g_lanes[t];
    if (l.state == DONE) snprintf(buf, cap, "has exited");
    else if (l.state == AT_BARRIER) snprintf(buf, cap, "waits at __syncthreads() at %s:%d", l.file, l.line);
    else if (l.state == AT_WARP)
        snprintf(buf, cap, "waits at %s(mask 0x%08x) at %s:%d", kWarpNames[g_warps[t / 32].groups[l.group].kind],
                 g_warps[t / 32].groups[l.group].mask, l.file, l.line);
    else snprintf(buf, cap, "is running");
}

__attribute__((noreturn)) static void warp_deadlock(int w, int gi) {
    Warp &warp = g_warps[w];
    Group &g = warp.groups[gi];
    unsigned missing = g.mask & warp.exist & ~warp.done & ~g.arrived;
    char arrived[160], absent[160], where[256];
    lanes_text(arrived, sizeof arrived, g.arrived);
    lanes_text(absent, sizeof absent, missing);
    int first = -1;
    for (int i = 0; i < OPSDK_SIM_WARP; i++)
        if (missing >> i & 1) {
            first = w * OPSDK_SIM_WARP + i;
            break;
        }
    where[0] = 0;
    if (first >= 0) where_is(where, sizeof where, first);
    int lane0 = w * OPSDK_SIM_WARP + __builtin_ctz(g.arrived);
    fail_lane(OPSDK_ERR_WARP_DEADLOCK, lane0,
              "%s(mask 0x%08x) in warp %d is reached by lanes %s but not by lanes %s of its mask "
              "(lane %d %s): a shuffle or vote must be reached by every thread of its mask; a GPU hangs "
              "or returns garbage here",
              kWarpNames[g.kind], g.mask, w, arrived, absent, first % OPSDK_SIM_WARP, where);
}

// the threads that have not exited wait at barriers, but not all at one (or some have exited):
// say which, naming the first thread (by index) waiting
__attribute__((noreturn)) static void barrier_diverged() {
    int first_waiting = -1, exited_first = -1, exited_last = -1;
    for (int t = 0; t < g_threads; t++) {
        if (g_lanes[t].state == DONE) {
            if (exited_first < 0) exited_first = t;
            exited_last = t;
        } else if (first_waiting < 0) {
            first_waiting = t;
        }
    }
    const Lane &a = g_lanes[first_waiting];
    if (g_exited) {
        char who[160];
        thread_text(who, sizeof who, exited_first, exited_last);
        fail_lane(OPSDK_ERR_BARRIER_EXITED, first_waiting,
                  "__syncthreads() at %s:%d is reached by %d of the block's %d threads; %d exited without "
                  "reaching it (%s%s): a barrier in code that not every thread of the block runs (a "
                  "divergent barrier) hangs or corrupts a GPU; compute-sanitizer's synccheck reports it",
                  a.file, a.line, g_threads - g_exited, g_threads, g_exited, who,
                  exited_last - exited_first + 1 == g_exited ? "" : ", and others");
    }
    for (int t = 0; t < g_threads; t++) {
        const Lane &l = g_lanes[t];
        if (!same_site(l, a)) {
            int last = t;
            while (last + 1 < g_threads && same_site(g_lanes[last + 1], l)) last++;
            char one[160], two[160];
            thread_text(one, sizeof one, first_waiting, t - 1);
            thread_text(two, sizeof two, t, last);
            fail_lane(OPSDK_ERR_BARRIER_SITES, t,
                      "the threads of the block wait at different barriers: %s at %s:%d, %s at %s:%d "
                      "(a __syncthreads() in divergent code; compute-sanitizer's synccheck reports it)",
                      one, a.file, a.line, two, l.file, l.line);
        }
    }
    fail(OPSDK_ERR_INTERNAL, nullptr, 0, "a barrier could not be released, for no reason found");
}

// every thread that has not exited waits at a barrier: release it, or say why it never can; they
// leave in the schedule's order
void release_barrier() {
    if (g_exited || g_bar_mixed) barrier_diverged();
    int count = g_bar_count;
    g_bar_result = g_bar_mode == 1 ? count : g_bar_mode == 2 ? (count == g_threads) : g_bar_mode == 3 ? (count > 0) : 0;
    g_epoch++;
    g_waiting = 0;
    g_qhead = 0;  // every thread waits here: nothing else is queued
    memcpy(g_queue, g_order, g_threads * sizeof(int));
    g_qtail = g_threads;
}

void run_block() {
    g_qhead = g_qtail = 0;
    g_waiting = g_exited = 0;
    reset_stacks(g_threads);
    for (int t = 0; t < g_threads; t++) fiber_init(g_lanes[t]);
    for (int k = 0; k < g_threads; k++) make_ready(g_order[k]);
    for (int w = 0; w * OPSDK_SIM_WARP < g_threads; w++) g_warps[w].streak = 0;
    int warps = (g_threads + OPSDK_SIM_WARP - 1) / OPSDK_SIM_WARP;
    for (;;) {
        int t = pop_ready();
        if (t >= 0) {
            run_lane(t);
            continue;
        }
        g_cur = -1;
        // nobody can run: everyone has exited, or waits at a barrier or warp collective
        bool progress = false;
        for (int w = 0; w < warps; w++)
            for (unsigned act = g_warps[w].active; act; act &= act - 1) {
                int i = __builtin_ctz(act);
                if (g_warps[w].groups[i].kind == ACTIVEMASK) {
                    resolve(w, i, -1);
                    progress = true;
                }
            }
        if (progress) continue;
        for (int w = 0; w < warps; w++)
            if (g_warps[w].active) warp_deadlock(w, __builtin_ctz(g_warps[w].active));
        if (g_exited == g_threads) break;  // every thread has exited
        release_barrier();
    }
    if (deferred()) raise_deferred();
}
